// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mmscope report: read a recording once through the analysis driver and
 * print what the models reconstructed, as text for a mail (72 columns by
 * default) or as JSON, for all sections or the ones asked for.
 */
#include "config.h"
#include "analysis.h"
#include "cmd.h"
#include "inputs.h"
#include "output-file.h"
#include "report.h"
#include "util.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static const char report_usage[] =
"usage: mmscope report [options] FILE|DIR...\n"
"\n"
"Reconstruct kswapd/kcompactd handoffs, reclaim and compaction stalls,\n"
"fragmentation and counters from a recording, and print them. The parts\n"
"of one switch-output run (one run id) are one recording; other files,\n"
"in a directory too, are reported one after another (a JSON array with\n"
"-f json), each flight-recorder file as an incident of its own.\n"
"\n"
"  -s, --section NAME   only this section (repeat; the sections are below)\n"
"  -f, --format FMT     text (default), json or html (one page, charts inline)\n"
"  -o, --output FILE    write the report to FILE (default: standard output)\n"
"      --force          replace FILE if it exists\n"
"  -w, --width N        text width in columns (default 72)\n"
"      --episodes N     kswapd episodes listed per node in text (default 40)\n"
SCOPE_USAGE
"  -h, --help           show this help\n";

/* --help: the usage, then the sections from the table (report.c) */
static int report_help(void)
{
	fputs(report_usage, stdout);
	printf("\nsections, in the order they print:\n");
	for (int i = 0; i < report_nsections; i++)
		printf("  %-13s%s%s\n", report_sections[i].name, report_sections[i].help,
		       report_sections[i].needs_samples ? " (needs samples)" : "");
	return finish_stdout(EXIT_OK);
}

/* "header, summary, ..." for the error on an unknown name */
static void report_section_names(struct strbuf *sb)
{
	for (int i = 0; i < report_nsections; i++)
		strbuf_addf(sb, "%s%s", i ? ", " : "", report_sections[i].name);
}

struct report_cmd_opts {
	char **files;		/* FILE|DIR... */
	int nfiles;
	struct report_opts r;
	struct analysis_scope scope;
	const char *out;	/* -o FILE */
	int force;
};

static int report_parse_int(const char *s, int lo, int hi, int *out)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (end == s || *end || v < lo || v > hi)
		return -1;
	*out = (int)v;
	return 0;
}

static int report_parse_opts(int argc, char **argv, struct report_cmd_opts *o)
{
	enum { OPT_EPISODES = 256, OPT_FORCE };
	static const struct option longopts[] = {
		{ "section", required_argument, NULL, 's' },
		{ "format", required_argument, NULL, 'f' },
		{ "width", required_argument, NULL, 'w' },
		{ "episodes", required_argument, NULL, OPT_EPISODES },
		{ "output", required_argument, NULL, 'o' },
		{ "force", no_argument, NULL, OPT_FORCE },
		{ "help", no_argument, NULL, 'h' },
		SCOPE_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	const struct cmd_entry *cmd = &cmd_report_entry;
	int c, s;

	report_opts_default(&o->r);
	memset(&o->scope, 0, sizeof(o->scope));
	o->out = NULL;
	o->force = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "s:f:w:o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 's':
			s = report_section_find(optarg);
			if (s < 0) {
				struct strbuf names = STRBUF_INIT;

				report_section_names(&names);
				c = usage_error(cmd, "unknown section '%s' (%s)", optarg, names.buf);
				strbuf_release(&names);
				return c;
			}
			o->r.sections |= 1u << s;
			break;
		case 'f':
			if (!strcmp(optarg, "text"))
				o->r.format = RF_TEXT;
			else if (!strcmp(optarg, "json"))
				o->r.format = RF_JSON;
			else if (!strcmp(optarg, "html"))
				o->r.format = RF_HTML;
			else
				return usage_error(cmd, "unknown format '%s' (text, json or html)",
						   optarg);
			break;
		case 'o':
			o->out = optarg;
			break;
		case OPT_FORCE:
			o->force = 1;
			break;
		case 'w':
			if (report_parse_int(optarg, 40, 400, &o->r.width))
				return usage_error(cmd, "bad width '%s' (40 to 400)", optarg);
			break;
		case OPT_EPISODES:
			if (report_parse_int(optarg, 0, 1000000, &o->r.max_episodes))
				return usage_error(cmd, "bad episode count '%s'", optarg);
			break;
		case 'h':
			return -1;
		default:
			if ((s = scope_or_bad_option(cmd, c, optarg, &o->scope, argc, argv)))
				return s;
			break;
		}
	}
	if ((s = check_scope(cmd, &o->scope)))
		return s;
	o->files = argv + optind;
	o->nfiles = argc - optind;
	return inputs_args_check(cmd, o->files, o->nfiles);
}

static void report_timing(const char *file, const struct analysis_info *in)
{
	fprintf(stderr, "%s: %llu events in %.3f s (open %.3f s, events %.3f s: "
		"%.0f events/s)\n", file, (unsigned long long)in->events, in->seconds,
		in->seconds - in->stream_seconds, in->stream_seconds,
		in->stream_seconds > 0 ? (double)in->events / in->stream_seconds : 0);
	if (in->windowed)
		fprintf(stderr, "%s: %llu events read after the window for the ends of what "
			"began in it\n", file, (unsigned long long)in->tail_events);
}

/* Standard output, or -o FILE (written aside and renamed into place:
 * see output-file.h). */
static int report_output(const struct report_cmd_opts *o, const struct strbuf *out)
{
	char *err = NULL;
	int r;

	if (!o->out) {
		fwrite(out->buf ? out->buf : "", 1, out->len, stdout);
		return finish_stdout(EXIT_OK);
	}
	if (output_file_write(o->out, o->force, out->buf ? out->buf : "", out->len, &err)) {
		r = error("%s: %s", o->out, err);
		free(err);
		return r;
	}
	return EXIT_OK;
}

/*
 * Each recording the arguments name, read once and rendered: several
 * one after another, each under a line naming it (text), or as a JSON
 * array; never merged (inputs.h).
 */
static int cmd_report_run(int argc, char **argv)
{
	struct report_cmd_opts o;
	struct analysis_opts ao;
	struct inputs in;
	struct strbuf all = STRBUF_INIT;	/* everything, with -o */
	char *err = NULL;
	int r = report_parse_opts(argc, argv, &o), many;

	if (r < 0)
		return report_help();
	if (r > 0)
		return r;
	inputs_init(&in);
	in.scope = o.scope;
	if (inputs_open(&in, o.files, o.nfiles, &err)) {
		r = error("%s", err);
		free(err);
		inputs_release(&in);
		return r;
	}
	many = in.nrec > 1;
	/* one page is one recording: several pages in one file are no page */
	if (many && o.r.format == RF_HTML && inputs_one(&in, &err)) {
		r = usage_error(&cmd_report_entry, "--format html: %s", err);
		free(err);
		inputs_release(&in);
		return r;
	}
	analysis_opts_default(&ao);
	/* without -o each recording goes out as soon as it is read */
	struct strbuf *sink = o.out ? &all : NULL;
	struct strbuf head = STRBUF_INIT;

	if (many && o.r.format == RF_JSON)
		strbuf_addstr(sink ? sink : &head, "[\n");
	for (int i = 0; i < in.nrec && !r; i++) {
		struct strbuf out = STRBUF_INIT;
		int bad = 0;
		struct analysis *a = inputs_analysis(&in, i, &ao, &err, &bad);

		if (!a) {
			/* a set names its file in the error; one file is named here */
			if (in.rec[i].n == 1)
				error("%s: %s", in.rec[i].name, err ? err : "cannot read");
			else
				error("%s", err ? err : "cannot read");
			r = bad ? EXIT_USAGE : EXIT_ERROR;
			free(err);
			break;
		}
		if (getenv("MMSCOPE_REPORT_TIMING"))
			report_timing(in.rec[i].name, analysis_info(a));
		strbuf_add(&out, head.buf ? head.buf : "", head.len);
		strbuf_reset(&head);
		if (many && o.r.format == RF_TEXT)
			strbuf_addf(&out, "%s=== recording %d of %d: %s\n\n", i ? "\n" : "", i + 1,
				    in.nrec, in.rec[i].name);
		report_render(a, &o.r, &out);
		if (many && o.r.format == RF_JSON && out.len && out.buf[out.len - 1] == '\n')
			out.len--;	/* the array's comma goes after it */
		if (many && o.r.format == RF_JSON)
			strbuf_addstr(&out, i + 1 < in.nrec ? ",\n" : "\n]\n");
		if (sink)
			strbuf_add(sink, out.buf ? out.buf : "", out.len);
		else
			fwrite(out.buf ? out.buf : "", 1, out.len, stdout);
		strbuf_release(&out);
		analysis_free(a);
	}
	strbuf_release(&head);
	inputs_release(&in);
	if (!r && sink)
		r = report_output(&o, &all);	/* nothing is written on an error */
	strbuf_release(&all);
	if (sink)
		return r;
	return finish_stdout(r ? r : EXIT_OK);
}

const struct cmd_entry cmd_report_entry = {
	.name = "report",
	.summary = "print handoffs, stalls, compaction and counters of a recording",
	.usage = report_usage,
	.run = cmd_report_run,
};
