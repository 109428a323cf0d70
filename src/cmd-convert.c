// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mmscope convert: re-encode any readable trace.dat with mmscope's writer
 * (another compression, or version 6 for old readers). The output is
 * written to a temporary file beside it and renamed when complete, so a
 * failed conversion never leaves a half-written file under OUT.
 */
#include "config.h"
#include "cmd.h"
#include "convert-perfetto.h"
#include "output-file.h"
#include "tracedat-write.h"
#include "util.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static const char convert_usage[] =
"usage: mmscope convert [options] IN -o OUT\n"
"       mmscope convert --format perfetto [options] IN... -o OUT\n"
"\n"
"Re-encode a trace.dat file (version 6 or 7, any compression) with\n"
"mmscope's writer.\n"
"\n"
"  -o, --output FILE                  where to write (required)\n"
"      --compression zstd|zlib|none  compression of a version 7 file (default zstd)\n"
"      --level N                      compression level (default: zstd 1, zlib 6)\n"
"      --file-version 6|7             file version (default 7; 6 is uncompressed)\n"
"  -f, --force                        replace OUT if it exists\n"
"      --format tracedat|perfetto     what to write (default: perfetto for an\n"
"                                     OUT ending in .pftrace, else tracedat)\n"
"  -h, --help                         show this help\n"
"\n"
"Perfetto (ui.perfetto.dev) gets what mmscope makes of the events: kswapd\n"
"episodes, kcompactd requests and runs, handoffs, stalls per task, OOM\n"
"kills, phases and the sampled counters. IN may then be several files or a\n"
"directory of one recording, and these select a part of it:\n"
SCOPE_USAGE
"\n"
"Debian's trace-cmd reads zstd and uncompressed files but not zlib ones.\n";

struct convert_opts {
	const char *in, *out;
	struct tw_opts w;
	int force;
	int compression_set;
};

static int convert_parse_opts(int argc, char **argv, struct convert_opts *o)
{
	enum { OPT_COMPRESSION = 256, OPT_LEVEL, OPT_VERSION, OPT_FORMAT };
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "compression", required_argument, NULL, OPT_COMPRESSION },
		{ "level", required_argument, NULL, OPT_LEVEL },
		{ "file-version", required_argument, NULL, OPT_VERSION },
		{ "format", required_argument, NULL, OPT_FORMAT },	/* tracedat here */
		{ "force", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const struct cmd_entry *cmd = &cmd_convert_entry;
	unsigned long long v;
	int c, level_set = 0;

	tw_opts_default(&o->w);
	opterr = 0;
	while ((c = getopt_long(argc, argv, "o:fh", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			o->out = optarg;
			break;
		case OPT_COMPRESSION:
			if (parse_compression(cmd, optarg, &o->w.codec))
				return EXIT_USAGE;
			o->compression_set = 1;
			break;
		case OPT_LEVEL:
			if (parse_ull(optarg, &v) || v < 1 || v > 22)
				return usage_error(cmd, "bad --level '%s' (1..22)", optarg);
			o->w.level = (int)v;
			level_set = 1;
			break;
		case OPT_VERSION:
			if (strcmp(optarg, "6") && strcmp(optarg, "7"))
				return usage_error(cmd, "bad --file-version '%s' (6 or 7)", optarg);
			o->w.version = atoi(optarg);
			break;
		case OPT_FORMAT:	/* convert_perfetto() took the others */
			break;
		case 'f':
			o->force = 1;
			break;
		case 'h':
			return -1;
		default:
			return bad_option(cmd, argc, argv);
		}
	}
	if (optind == argc)
		return usage_error(cmd, "no input file given");
	if (optind != argc - 1)
		return usage_error(cmd, "more than one input file given");
	if (!o->out)
		return usage_error(cmd, "no output file given (-o OUT)");
	o->in = argv[optind];
	if (o->w.version == 6) {
		if (o->compression_set && o->w.codec != CODEC_NONE)
			return usage_error(cmd, "version 6 files cannot be compressed");
		o->w.codec = CODEC_NONE;
	}
	if (!level_set)
		o->w.level = codec_default_level(o->w.codec);
	if (o->w.level > 9 && o->w.codec == CODEC_ZLIB)
		return usage_error(cmd, "zlib levels go from 1 to 9");
	return 0;
}

/* Page source over the reader, for one CPU of one buffer. */
struct page_src {
	struct td_file *tf;
	struct td_pages *pages;
	uint32_t page_size;
	int *input_failed;	/* set when the input, not the output, went bad */
};

static int next_page(void *ctx, void *page, char **err)
{
	struct page_src *s = ctx;
	const void *p;
	int r = td_pages_next(s->pages, &p, err);

	if (r > 0)
		memcpy(page, p, s->page_size);
	if (r < 0)
		*s->input_failed = 1;
	return r;
}

static int convert_run(struct td_file *tf, struct convert_opts *o)
{
	struct tw_input in = { 0 };
	struct tw_buffer *bufs = xcalloc((size_t)td_nbuffers(tf) + 1, sizeof(*bufs));
	struct page_src *srcs = NULL;
	size_t nsrcs = 0, cpustat_len;
	struct output_file out;
	struct tw_result res;
	char *err = NULL, *clock_text = NULL;
	int r = EXIT_ERROR, input_failed = 0;

	for (int m = 0; m < TD_META_COUNT; m++)
		in.meta[m] = td_meta(tf, (enum td_meta)m, &in.meta_len[m]);
	in.page_size = td_page_size(tf);
	for (int b = 0; b < td_nbuffers(tf); b++)
		if (td_buffer(tf, b)->ncpus > in.cpucount)
			in.cpucount = td_buffer(tf, b)->ncpus;
	if (td_trace_clock(tf))
		in.trace_clock = clock_text = xasprintf("[%s]\n", td_trace_clock(tf));
	in.uname = td_uname(tf);
	in.version = td_tracer_version(tf);
	in.cpustat = td_cpustat_text(tf, &cpustat_len);
	in.cpustat_len = cpustat_len;
	in.private_meta = td_private(tf);

	for (int b = 0; b < td_nbuffers(tf); b++)
		nsrcs += (size_t)td_buffer(tf, b)->ncpus;
	srcs = xcalloc(nsrcs + 1, sizeof(*srcs));
	nsrcs = 0;
	for (int b = 0; b < td_nbuffers(tf); b++) {
		const struct td_buffer *tb = td_buffer(tf, b);

		bufs[b].name = tb->name;
		bufs[b].clock = tb->clock;
		bufs[b].page_size = tb->page_size;
		bufs[b].ncpus = tb->ncpus;
		bufs[b].cpus = xcalloc((size_t)tb->ncpus + 1, sizeof(struct tw_cpu));
		for (int cpu = 0; cpu < tb->ncpus; cpu++) {
			struct page_src *s = &srcs[nsrcs++];

			if (!tb->cpu_offset[cpu] && !tb->cpu_size[cpu])
				continue;
			s->tf = tf;
			s->page_size = tb->page_size;
			s->input_failed = &input_failed;
			s->pages = td_pages_open(tf, b, cpu, &err);
			if (!s->pages) {
				error("%s: %s", o->in, err);
				goto out;
			}
			bufs[b].cpus[cpu].next = next_page;
			bufs[b].cpus[cpu].ctx = s;
		}
	}
	in.buffers = bufs;
	in.nbuffers = td_nbuffers(tf);

	if (output_file_open(&out, o->out, o->force, &err)) {
		error("%s: %s", o->out, err);
		goto out;
	}
	if (tw_write(out.fd, &in, &o->w, &res, &err)) {
		output_file_abort(&out);
		error("%s: %s", input_failed ? o->in : o->out, err);
		goto out;
	}
	if (output_file_commit(&out, &err)) {
		error("%s: %s", o->out, err);
		goto out;
	}
	r = EXIT_OK;
out:
	for (size_t i = 0; i < nsrcs; i++)
		td_pages_close(srcs[i].pages);
	for (int b = 0; b < td_nbuffers(tf); b++)
		free(bufs[b].cpus);
	free(srcs);
	free(bufs);
	free(clock_text);
	free(err);
	return r;
}

static int cmd_convert(int argc, char **argv)
{
	struct convert_opts o = { 0 };
	struct td_file *tf;
	int r = convert_perfetto(argc, argv);

	if (r != CONVERT_NOT_PERFETTO)
		return r;
	r = convert_parse_opts(argc, argv, &o);
	if (r < 0)
		return show_help(&cmd_convert_entry);
	if (r)
		return r;
	tf = open_recording(o.in, NULL);
	if (!tf)
		return EXIT_ERROR;
	r = convert_run(tf, &o);
	td_close(tf);
	/* said after the work, where the user looks, and only for a file made */
	if (r == EXIT_OK && o.w.codec == CODEC_ZLIB)
		warning("%s: zlib-compressed: Debian's trace-cmd (3.1.6) cannot read it "
			"(zstd or none can)", o.out);
	return r;
}

const struct cmd_entry cmd_convert_entry = {
	.name = "convert",
	.summary = "re-encode a recording, or write it as a Perfetto trace",
	.usage = convert_usage,
	.run = cmd_convert,
};
