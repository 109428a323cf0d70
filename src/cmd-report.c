// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mmscope report: read a recording once through the analysis driver and
 * print what the models reconstructed, as text for a mail (72 columns by
 * default) or as JSON, for all sections or the ones asked for.
 */
#include "config.h"
#include "analysis.h"
#include "cmd.h"
#include "input-file.h"
#include "output-file.h"
#include "report.h"
#include "util.h"

#include <getopt.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>

static const char report_usage[] =
"usage: mmscope report [options] FILE|DIR...\n"
"\n"
"Reconstruct kswapd/kcompactd handoffs, reclaim and compaction stalls,\n"
"fragmentation and counters from a recording, and print them. Several\n"
"files, or a directory of them (what record's switch-output writes), are\n"
"one recording.\n"
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
	const char *file;
	char **files;		/* FILE|DIR... */
	int nfiles;
	struct report_opts r;
	struct analysis_scope scope;
	const char *out;	/* -o FILE */
	int force;
};

static int is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

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
			if ((s = parse_scope(cmd, c, optarg, &o->scope)) >= 0) {
				if (s)
					return s;
				break;
			}
			return bad_option(cmd, argc, argv);
		}
	}
	if ((s = check_scope(cmd, &o->scope)))
		return s;
	if (optind == argc)
		return usage_error(cmd, "no recording given");
	o->file = argv[optind];
	o->files = argv + optind;
	o->nfiles = argc - optind;
	for (int i = 0; o->nfiles > 1 && i < o->nfiles; i++)
		if (!strcmp(o->files[i], "-"))
			return usage_error(cmd, "'-' (standard input) only alone");
	return 0;
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

/* The report in its format, to standard output or -o FILE (written
 * aside and renamed into place: see output-file.h). */
static int report_output(const struct report_cmd_opts *o, const struct analysis *a,
			 struct strbuf *out)
{
	char *err = NULL;
	int r;

	report_render(a, &o->r, out);
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

/* Several files, or a directory: one recording (analysis_run_files). */
static int report_files(const struct report_cmd_opts *o)
{
	struct analysis_opts ao;
	struct analysis *a;
	struct strbuf out = STRBUF_INIT;
	char **paths, *err = NULL;
	int n, r, bad = 0;

	if (input_expand(o->files, o->nfiles, &paths, &n, &err)) {
		r = error("%s", err);
		free(err);
		return r;
	}
	analysis_opts_default(&ao);
	ao.scope = o->scope;
	a = analysis_run_files((const char *const *)paths, n, o->nfiles == 1 ? o->file : NULL,
			       &ao, &err, &bad);
	input_expand_free(paths, n);
	if (!a) {
		r = bad ? EXIT_USAGE : EXIT_ERROR;
		error("%s", err ? err : "cannot read");
		free(err);
		return r;
	}
	if (getenv("MMSCOPE_REPORT_TIMING"))
		report_timing(analysis_info(a)->path, analysis_info(a));
	r = report_output(o, a, &out);
	strbuf_release(&out);
	analysis_free(a);
	return r;
}

static int cmd_report_run(int argc, char **argv)
{
	struct report_cmd_opts o;
	struct analysis_opts ao;
	struct analysis *a;
	struct strbuf out = STRBUF_INIT;
	struct input_file in;
	char *err = NULL;
	int bad = 0;
	int r = report_parse_opts(argc, argv, &o);

	if (r < 0)
		return report_help();
	if (r > 0)
		return r;
	if (o.nfiles > 1 || is_dir(o.file))
		return report_files(&o);
	if (input_file_open(&in, o.file, &err)) {
		r = error("%s", err);
		free(err);
		return r;
	}
	analysis_opts_default(&ao);
	ao.name = in.name;
	ao.scope = o.scope;
	a = analysis_run_scoped(in.path, &ao, &err, &bad);
	if (!a) {
		r = error("%s: %s", in.name, err ? err : "cannot read");
		if (bad)
			r = EXIT_USAGE;
		free(err);
		input_file_release(&in);
		return r;
	}
	if (getenv("MMSCOPE_REPORT_TIMING"))
		report_timing(in.name, analysis_info(a));
	r = report_output(&o, a, &out);
	strbuf_release(&out);
	analysis_free(a);
	input_file_release(&in);
	return r;
}

const struct cmd_entry cmd_report_entry = {
	.name = "report",
	.summary = "print handoffs, stalls, compaction and counters of a recording",
	.usage = report_usage,
	.run = cmd_report_run,
};
