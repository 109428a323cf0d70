// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mmscope convert to a Perfetto trace (--format perfetto, or an OUT
 * ending in .pftrace): the recording is analysed once and its models
 * written by src/perfetto.c. Like the trace.dat conversion, the output
 * goes to a temporary file renamed into place when complete.
 *
 * cmd-convert.c asks convert_perfetto() first; it answers
 * CONVERT_NOT_PERFETTO for a trace.dat conversion, which cmd-convert.c
 * then parses as before.
 */
#include "config.h"
#include "analysis.h"
#include "cmd.h"
#include "convert-perfetto.h"
#include "inputs.h"
#include "report-history.h"
#include "output-file.h"
#include "perfetto.h"
#include "util.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct pf_opts {
	char **files;
	int nfiles;
	const char *out;
	int force;
	struct analysis_scope scope;
};

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && !strcmp(s + n - k, suffix);
}

/*
 * Whether the command line asks for Perfetto: --format perfetto, or no
 * --format and an output named *.pftrace. A first look at argv, before
 * any getopt: the trace.dat parser keeps its own options and messages.
 * 1 yes, 0 no, EXIT_USAGE for a --format that is neither.
 */
static int wants_perfetto(int argc, char **argv)
{
	const char *format = NULL, *out = NULL;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *next = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--"))
			break;
		if (!strcmp(a, "--format") && next)
			format = argv[++i];
		else if (!strncmp(a, "--format=", 9))
			format = a + 9;
		else if ((!strcmp(a, "-o") || !strcmp(a, "--output")) && next)
			out = argv[++i];
		else if (!strncmp(a, "--output=", 9))
			out = a + 9;
		else if (!strncmp(a, "-o", 2) && a[2])
			out = a + 2;
	}
	if (format && !strcmp(format, "perfetto"))
		return 1;
	if (format && strcmp(format, "tracedat"))
		return usage_error(&cmd_convert_entry, "bad --format '%s' (tracedat or perfetto)",
				   format);
	return !format && out && ends_with(out, ".pftrace");
}

static int pf_parse_opts(int argc, char **argv, struct pf_opts *o)
{
	enum { OPT_FORMAT = 256, OPT_TD_ONLY };
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "force", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ "compression", required_argument, NULL, OPT_TD_ONLY },
		{ "level", required_argument, NULL, OPT_TD_ONLY },
		{ "file-version", required_argument, NULL, OPT_TD_ONLY },
		SCOPE_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	const struct cmd_entry *cmd = &cmd_convert_entry;
	int c, li = 0;

	opterr = 0;
	optind = 0;	/* getopt starts afresh, whatever parsed before */
	while ((c = getopt_long(argc, argv, "o:fh", longopts, &li)) != -1) {
		int r = parse_scope(cmd, c, optarg, &o->scope);

		if (r >= 0) {
			if (r)
				return r;
			continue;
		}
		switch (c) {
		case 'o':
			o->out = optarg;
			break;
		case OPT_FORMAT:
			break;	/* read by wants_perfetto() */
		case OPT_TD_ONLY:
			return usage_error(cmd, "--%s is for trace.dat output, not Perfetto",
					   longopts[li].name);
		case 'f':
			o->force = 1;
			break;
		case 'h':
			return -1;
		default:
			return bad_option(cmd, argc, argv);
		}
	}
	if (check_scope(cmd, &o->scope))
		return EXIT_USAGE;
	if (optind == argc)	/* convert's wording, whatever the format */
		return usage_error(cmd, "no input file given");
	if ((c = inputs_args_check(cmd, argv + optind, argc - optind)))
		return c;
	if (!o->out)
		return usage_error(cmd, "no output file given (-o OUT)");
	o->files = argv + optind;
	o->nfiles = argc - optind;
	return 0;
}

/*
 * The runs of the command line's history (one file or "-", several files
 * or a directory: the shared input layer, inputs.h; several hosts are
 * refused there) into one trace: each run on its sequence at its place
 * on the history's time line, and with several runs a history track of
 * the runs and the gaps between them (not recorded). The status.
 */
static int pf_write_all(const struct pf_opts *o, struct inputs *in, int fd,
			struct perfetto_stats *st)
{
	struct inputs_sel *sel = NULL;
	struct perfetto_span *sp = NULL;
	struct strbuf *names = NULL;
	char *err = NULL;
	int n = 0, bad = 0, r = EXIT_OK, nsp = 0, multi = in->hist.host_n[0] > 1;

	if (inputs_select(in, 0, &sel, &n, &err, &bad)) {
		error("%s", err);
		free(err);
		return bad ? EXIT_USAGE : EXIT_ERROR;
	}
	sp = xcalloc((size_t)2 * n + 1, sizeof(*sp));
	names = xcalloc((size_t)2 * n + 1, sizeof(*names));
	for (int k = 0; k < n && !r; k++) {
		const struct history_run *hr = &in->hist.run[sel[k].run];
		const struct input_rec *rec = &in->rec[hr->in];
		struct analysis_opts ao;
		struct analysis *a;
		uint64_t lo, hi;

		analysis_opts_default(&ao);
		a = inputs_run_analysis(in, &sel[k], &ao, &err, &bad);
		if (!a) {
			r = rec->n == 1 ? error("%s: %s", rec->name, err ? err : "cannot read") :
					  error("%s", err ? err : "cannot read");
			r = bad ? EXIT_USAGE : r;
			break;
		}
		if (perfetto_write_run(fd, a, (unsigned)k, multi ? hr->offset : 0, st, &err))
			r = error("%s: %s", o->out, err);
		analysis_interval(analysis_info(a), &lo, &hi);
		analysis_free(a);
		if (!multi || r)
			continue;
		/* the history track: the gap before it, then the run */
		if (k) {
			history_gap_line(in, sel[k].run, &names[nsp]);
			if (names[nsp].len && nsp && sp[nsp - 1].to < (uint64_t)history_time(hr, lo)) {
				names[nsp].buf[--names[nsp].len] = '\0';
				sp[nsp] = (struct perfetto_span){ sp[nsp - 1].to,
					(uint64_t)history_time(hr, lo), names[nsp].buf, 1 };
				nsp++;
			}
		}
		strbuf_reset(&names[nsp]);
		history_run_line(in, sel[k].run, &names[nsp]);
		if (names[nsp].len)
			names[nsp].buf[--names[nsp].len] = '\0';
		sp[nsp] = (struct perfetto_span){ (uint64_t)history_time(hr, lo),
						  (uint64_t)history_time(hr, hi), names[nsp].buf, 0 };
		if (nsp && sp[nsp].from < sp[nsp - 1].to)	/* an overlap: no nesting */
			sp[nsp].from = sp[nsp - 1].to;
		if (sp[nsp].to < sp[nsp].from)
			sp[nsp].to = sp[nsp].from;
		nsp++;
	}
	if (!r && multi && perfetto_write_history(fd, sp, nsp, (unsigned)n, st, &err))
		r = error("%s: %s", o->out, err);
	for (int i = 0; i < 2 * n + 1; i++)
		strbuf_release(&names[i]);
	free(names);
	free(sp);
	free(sel);
	free(err);
	return r;
}

int convert_perfetto(int argc, char **argv)
{
	struct pf_opts o = { 0 };
	struct output_file out;
	struct perfetto_stats st = { 0 };
	struct inputs in;
	char *err = NULL;
	int r = wants_perfetto(argc, argv);

	if (r == 0)
		return CONVERT_NOT_PERFETTO;
	if (r != 1)
		return r;
	r = pf_parse_opts(argc, argv, &o);
	if (r < 0)
		return show_help(&cmd_convert_entry);
	if (r)
		return r;
	inputs_init(&in);
	in.scope = o.scope;
	if (inputs_open(&in, o.files, o.nfiles, &err) ||
	    (inputs_one(&in, &err) && (r = EXIT_USAGE))) {
		r = r ? r : EXIT_ERROR;
		error("%s", err ? err : "cannot read");
		free(err);
		inputs_release(&in);
		return r;
	}
	if (output_file_open(&out, o.out, o.force, &err)) {
		r = error("%s: %s", o.out, err);
	} else if ((r = pf_write_all(&o, &in, out.fd, &st))) {
		output_file_abort(&out);
	} else if (output_file_commit(&out, &err)) {
		r = error("%s: %s", o.out, err);
	} else {
		r = EXIT_OK;
		if (getenv("MMSCOPE_PERFETTO_STATS"))
			fprintf(stderr, "%s: %llu packets, %llu tracks, %llu slices, %llu instants, "
				"%llu counter values, %llu flows, %llu bytes\n", o.out,
				(unsigned long long)st.packets, (unsigned long long)st.tracks,
				(unsigned long long)st.slices, (unsigned long long)st.instants,
				(unsigned long long)st.counter_values,
				(unsigned long long)st.flows, (unsigned long long)st.bytes);
	}
	free(err);
	inputs_release(&in);
	return r;
}
