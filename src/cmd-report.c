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
#include "report-history.h"
#include "output-file.h"
#include "report.h"
#include "report-html.h"
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
"      --dossier-window SECONDS  the window before each kill its dossier\n"
"                       describes (default 10; 0.001 to 3600)\n"
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
	uint64_t dossier_ns;	/* --dossier-window; 0 the default */
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
	enum { OPT_EPISODES = 256, OPT_FORCE, OPT_DOSSIER };
	static const struct option longopts[] = {
		{ "section", required_argument, NULL, 's' },
		{ "format", required_argument, NULL, 'f' },
		{ "width", required_argument, NULL, 'w' },
		{ "episodes", required_argument, NULL, OPT_EPISODES },
		{ "output", required_argument, NULL, 'o' },
		{ "force", no_argument, NULL, OPT_FORCE },
		{ "dossier-window", required_argument, NULL, OPT_DOSSIER },
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
	o->dossier_ns = 0;
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
		case OPT_DOSSIER: {
			char *end;
			double v = strtod(optarg, &end);

			if (end == optarg || *end || !(v >= 0.001 && v <= 3600))
				return usage_error(cmd, "bad dossier window '%s' (seconds, 0.001 "
						   "to 3600)", optarg);
			o->dossier_ns = (uint64_t)(v * 1e9 + 0.5);
			break;
		}
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

/* The analysis of a selected run, or NULL with the error printed and
 * *r the exit status. */
static struct analysis *report_analysis(const struct inputs *in, const struct inputs_sel *sel,
					const struct analysis_opts *ao, int *r)
{
	const struct input_rec *rec = &in->rec[in->hist.run[sel->run].in];
	char *err = NULL;
	int bad = 0;
	struct analysis *a = inputs_run_analysis(in, sel, ao, &err, &bad);

	if (a)
		return a;
	/* a set names its file in the error; one file is named here */
	if (rec->n == 1)
		error("%s: %s", rec->name, err ? err : "cannot read");
	else
		error("%s", err ? err : "cannot read");
	*r = bad ? EXIT_USAGE : EXIT_ERROR;
	free(err);
	return NULL;
}

/* Out now, or into the -o buffer. */
static void emit(struct strbuf *sink, struct strbuf *out)
{
	if (sink)
		strbuf_add(sink, out->buf ? out->buf : "", out->len);
	else
		fwrite(out->buf ? out->buf : "", 1, out->len, stdout);
	strbuf_reset(out);
}

/*
 * One host's history: its runs the scope selects, in time order. A
 * history of one run is that run's report, as ever. Of several: the
 * history (runs, gaps, how each began and ended), each run's report, and
 * the runs' sums over time (text); {"history": ..., "runs": [...]}
 * (JSON); one page (HTML).
 */
static int report_host(const struct inputs *in, int host, const struct report_cmd_opts *o,
		       const struct analysis_opts *ao, struct strbuf *sink)
{
	struct inputs_sel *sel = NULL;
	struct history_sum *sum;
	struct strbuf out = STRBUF_INIT, runs = STRBUF_INIT;
	int nsel = 0, bad = 0, r = 0, multi = in->hist.host_n[host] > 1;
	struct html_history *page = NULL;
	char *err = NULL;

	if (inputs_select(in, host, &sel, &nsel, &err, &bad)) {
		r = bad ? usage_error(&cmd_report_entry, "%s", err) : error("%s", err);
		free(err);
		return r;
	}
	sum = xcalloc((size_t)nsel + 1, sizeof(*sum));
	if (multi && o->r.format == RF_TEXT) {
		history_text(in, host, sel, nsel, &out);
		emit(sink, &out);
	}
	if (multi && o->r.format == RF_HTML) {
		page = report_html_history_new();
		history_text(in, host, sel, nsel, &out);
		report_html_history_text(page, "history", out.buf ? out.buf : "", out.len);
		strbuf_reset(&out);
	}
	for (int k = 0; k < nsel && !r; k++) {
		struct analysis *a = report_analysis(in, &sel[k], ao, &r);

		if (!a)
			break;
		if (getenv("MMSCOPE_REPORT_TIMING"))
			report_timing(in->rec[in->hist.run[sel[k].run].in].name, analysis_info(a));
		history_sum_of(a, &sum[k]);
		if (multi && o->r.format == RF_TEXT) {
			if (k)
				strbuf_addch(&out, '\n');
			history_gap_text(in, sel[k].run, &out);
			history_run_title(in, sel[k].run, &out);
		}
		if (page) {	/* the run under its heading, the gap before it */
			struct strbuf head = STRBUF_INIT, gap = STRBUF_INIT;

			history_run_line(in, sel[k].run, &head);
			if (k)
				history_gap_line(in, sel[k].run, &gap);
			while (head.len && head.buf[head.len - 1] == '\n')
				head.buf[--head.len] = '\0';
			if (head.len > 4 && !strncmp(head.buf, "=== ", 4))	/* text's marker */
				memmove(head.buf, head.buf + 4, head.len -= 4), head.buf[head.len] = '\0';
			while (gap.len && gap.buf[gap.len - 1] == '\n')
				gap.buf[--gap.len] = '\0';
			report_html_history_run(page, a, &o->r, head.buf, gap.buf);
			strbuf_release(&head);
			strbuf_release(&gap);
		} else {
			report_render(a, &o->r, &out);
		}
		analysis_free(a);
		if (multi && o->r.format == RF_JSON) {
			if (out.len && out.buf[out.len - 1] == '\n')
				out.len--;
			strbuf_addstr(&runs, k ? ",\n" : "");
			strbuf_add(&runs, out.buf ? out.buf : "", out.len);
			strbuf_reset(&out);
		} else {
			emit(sink, &out);
		}
	}
	if (!r && multi && o->r.format == RF_TEXT) {
		strbuf_addch(&out, '\n');
		history_totals_text(in, host, sel, nsel, sum, &out);
		emit(sink, &out);
	}
	if (page) {
		struct strbuf title = STRBUF_INIT;

		history_totals_text(in, host, sel, nsel, sum, &out);
		report_html_history_text(page, "totals", out.buf ? out.buf : "", out.len);
		strbuf_reset(&out);
		strbuf_addf(&title, "mmscope report: history of host %s",
			    in->hist.run[in->hist.host_first[host]].host_name);
		report_html_history_end(page, title.buf, &out);	/* frees it */
		strbuf_release(&title);
		if (!r)
			emit(sink, &out);
		strbuf_reset(&out);
	}
	if (!r && multi && o->r.format == RF_JSON) {
		struct json_writer j;

		/* the history's object, then the runs' reports as they are */
		json_begin(&j, &out, JSON_ROOT_FLUSH);
		history_json(&j, in, host, sel, nsel, sum);
		json_end(&j);
		while (out.len && out.buf[out.len - 1] == '\n')
			out.len--;
		if (out.len && out.buf[out.len - 1] == '}')	/* the root's close */
			out.len--;
		while (out.len && out.buf[out.len - 1] == '\n')
			out.len--;
		strbuf_addstr(&out, ",\n\"runs\": [\n");
		strbuf_add(&out, runs.buf ? runs.buf : "", runs.len);
		strbuf_addstr(&out, "\n]\n}\n");
		emit(sink, &out);
	}
	strbuf_release(&out);
	strbuf_release(&runs);
	free(sum);
	free(sel);
	return r;
}

/*
 * The histories the arguments name (inputs.h), one after another: each
 * under a line naming it (text), or as a JSON array; never merged. A
 * directory of several hosts is refused, and so is more than one history
 * on one HTML page.
 */
static int cmd_report_run(int argc, char **argv)
{
	struct report_cmd_opts o;
	struct analysis_opts ao;
	struct inputs in;
	struct strbuf all = STRBUF_INIT;	/* everything, with -o */
	struct strbuf line = STRBUF_INIT;
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
	if (inputs_check_dirs(&in, &err) ||
	    ((o.r.format == RF_HTML || o.scope.run) && inputs_one(&in, &err))) {
		/* one page is one history: several in one file are no page */
		error("%s%s", o.r.format == RF_HTML ? "--format html: " :
		      o.scope.run ? "--run: " : "", err);
		r = EXIT_USAGE;
		free(err);
		inputs_release(&in);
		return r;
	}
	many = in.hist.nhost > 1;
	analysis_opts_default(&ao);
	/* what the report prints, in memory bounded over a week of parts:
	 * long series thinned, and no viewers' lists but for the HTML
	 * page's charts */
	ao.series_max = ANALYSIS_SERIES_MAX;
	ao.summary = o.r.format != RF_HTML;
	ao.dossier_window_ns = o.dossier_ns;
	/* without -o each run goes out as soon as it is read */
	struct strbuf *sink = o.out ? &all : NULL;

	if (many && o.r.format == RF_JSON) {
		strbuf_addstr(&line, "[\n");
		emit(sink, &line);
	}
	for (int h = 0; h < in.hist.nhost && !r; h++) {
		const struct history_run *hr = &in.hist.run[in.hist.host_first[h]];

		if (many && o.r.format == RF_TEXT) {
			strbuf_addf(&line, "%s=== recording %d of %d: %s\n\n", h ? "\n" : "", h + 1,
				    in.hist.nhost, in.hist.host_n[h] > 1 ?
				    hr->host_name : in.rec[hr->in].name);
			emit(sink, &line);
		}
		if (many && o.r.format == RF_JSON) {
			/* the array's comma right after each history's object */
			r = report_host(&in, h, &o, &ao, &line);
			while (line.len && line.buf[line.len - 1] == '\n')
				line.len--;
			strbuf_addstr(&line, h + 1 < in.hist.nhost ? ",\n" : "\n]\n");
			if (!r)
				emit(sink, &line);
		} else {
			r = report_host(&in, h, &o, &ao, sink);
		}
	}
	strbuf_release(&line);
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
