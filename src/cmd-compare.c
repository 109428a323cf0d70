// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mmscope compare: one column per NAME=FILE[,FILE...] (the first is the
 * baseline), the runs of a column pooled, one row per metric, printed as
 * an mmtests table, a plain (defrag_mode-style) table, or JSON. The runs
 * are loaded by compare_load_run() (src/compare-load.c) and everything
 * else is src/compare-table.c; this file only parses the command line.
 */
#include "config.h"
#include "analysis.h"
#include "cmd.h"
#include "compare-html.h"
#include "compare-load.h"
#include "compare-table.h"
#include "inputs.h"
#include "output-file.h"
#include "util.h"

#include <getopt.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* --fail-on-regression found a regression */
#define EXIT_REGRESSION 3
/* --fail-on-regression could test no row (one run a side) */
#define EXIT_UNTESTED 4

static const char compare_usage[] =
"usage: mmscope compare [--dialect plain|mmtests] [--stats mean,stddev,...]\n"
"                       [--metrics LIST|all] [--width N]\n"
"                       [--format text|json|html] [-o FILE [--force]]\n"
"                       [--all] [--fail-on-regression[=PCT]] [--jobs N]\n"
"                       [--phase NAME]\n"
"                       NAME=FILE[,FILE...] NAME=FILE[,FILE...] [...]\n"
"       mmscope compare [options] FILE|DIR FILE|DIR [...]\n"
"\n"
"Compare runs side by side: one column per NAME (the first is the baseline),\n"
"the FILEs of a column are its runs (recordings, metrics files, or a\n"
"directory: its *.dat recordings), pooled. A bare FILE or DIR is a column\n"
"called after it (base.dat: base). The files of one run of record's\n"
"switch-output (BASE-1.dat, BASE-2.dat, ...) are one run.\n"
"\n"
"  -d, --dialect D     plain (default: label, unit, values, change) or mmtests\n"
"  -s, --stats LIST    statistics: min, mean, amean, hmean, gmean, stddev,\n"
"                      coeffvar, max, median, pNN, bmean-NN, samples\n"
"                      (default mean for plain, min,mean,stddev,coeffvar,\n"
"                      max,bmean-95 for mmtests)\n"
"  -m, --metrics LIST  metric names, groups (reclaim, swap, zswap, thp, mthp,\n"
"                      compaction, psi, kswapd, stall, oom, user, ...), sources\n"
"                      (counter, trace, user) or all (default)\n"
"  -w, --width N       split tables wider than N columns (default: the\n"
"                      terminal's width, or 80)\n"
"  -a, --all           also rows zero or absent in every column\n"
"      --fail-on-regression[=PCT]\n"
"                      exit 3 when a mean is significantly worse (Welch,\n"
"                      p < alpha, 2+ runs a side) by more than PCT% (5),\n"
"                      4 when no row could be tested\n"
"  -j, --jobs N        load recordings on N threads (default: all CPUs)\n"
"      --phase NAME    compare only the phase NAME of each recording (from its\n"
"                      'mmscope phase NAME' marker to the next one or the end)\n"
"      --no-monitor    mmtests: counter metrics in the stat table too\n"
"      --alpha A       significance level of Welch's t-test (default 0.05)\n"
"  -f, --format F      text (default), json or html (one page)\n"
"  -o, --output FILE   write to FILE (default: standard output)\n"
"      --force         replace FILE if it exists\n"
"      --list-metrics  print the metric catalogue and exit\n"
"      --since T       recordings only from T: seconds from the first event,\n"
"                      @T a trace time stamp (as trace-cmd prints), or a\n"
"                      wall-clock time 2026-12-01T14:32:05Z\n"
"      --until T       recordings only up to T (same forms)\n"
"      --pid PID       stalls of this task only (counters stay global)\n"
"      --comm NAME     stalls of the tasks of this name only\n"
"      --cgroup PATH   stalls of a cgroup's tasks (refused when the\n"
"                      recording cannot tell them)\n"
"      --run N         only run N of each host's history (time order; an\n"
"                      incident inside a run otherwise is not a run)\n"
"  -h, --help          show this help\n";

struct compare_opts {
	struct ct_opts ct;
	struct ct_stat *stats;
	char **metrics;		/* selection words */
	int nmetrics;
	char *matched;		/* per word: selected some row */
	int json;
	int html;		/* --format html */
	const char *out;	/* -o FILE */
	int force;
	int list;
	char **specs;		/* NAME=FILE[,FILE...] */
	int nspecs;
	int gate;		/* --fail-on-regression */
	double gate_pct;
	int jobs;		/* --jobs, 0: all CPUs */
	const char *phase;	/* --phase */
	int width_set;
	struct strbuf settings;	/* "Settings that differ" block, text */
	struct analysis_scope scope;	/* --since/--until/--pid/--comm/--cgroup */
};

static int compare_parse_select(struct compare_opts *o, const char *list)
{
	char *copy = xstrdup(list), *save = NULL, *w;

	for (w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		o->metrics = xreallocarray(o->metrics, (size_t)o->nmetrics + 1, sizeof(char *));
		o->metrics[o->nmetrics++] = xstrdup(w);
	}
	free(copy);
	return o->nmetrics ? 0 : -1;
}

static int compare_parse_opts(int argc, char **argv, struct compare_opts *o)
{
	enum { OPT_NO_MONITOR = 256, OPT_ALPHA, OPT_LIST, OPT_GATE, OPT_PHASE, OPT_FORCE };
	static const struct option longopts[] = {
		{ "dialect", required_argument, NULL, 'd' },
		{ "stats", required_argument, NULL, 's' },
		{ "metrics", required_argument, NULL, 'm' },
		{ "width", required_argument, NULL, 'w' },
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "force", no_argument, NULL, OPT_FORCE },
		{ "no-monitor", no_argument, NULL, OPT_NO_MONITOR },
		{ "alpha", required_argument, NULL, OPT_ALPHA },
		{ "list-metrics", no_argument, NULL, OPT_LIST },
		{ "all", no_argument, NULL, 'a' },
		{ "fail-on-regression", optional_argument, NULL, OPT_GATE },
		{ "jobs", required_argument, NULL, 'j' },
		{ "phase", required_argument, NULL, OPT_PHASE },
		SCOPE_LONGOPTS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const struct cmd_entry *cmd = &cmd_compare_entry;
	const char *stats = NULL;
	unsigned long long n;
	char *err = NULL, *end;
	int c;

	o->ct.dialect = CT_PLAIN;
	o->ct.width = 80;
	o->ct.monitor = 1;
	o->ct.alpha = 0.05;
	o->gate_pct = 5;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "d:s:m:w:f:o:aj:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			if (!strcmp(optarg, "mmtests"))
				o->ct.dialect = CT_MMTESTS;
			else if (!strcmp(optarg, "plain"))
				o->ct.dialect = CT_PLAIN;
			else
				return usage_error(cmd, "unknown dialect '%s' (mmtests or plain)",
						   optarg);
			break;
		case 's':
			stats = optarg;
			break;
		case 'm':
			if (compare_parse_select(o, optarg))
				return usage_error(cmd, "empty --metrics list");
			break;
		case 'w':
			if (parse_ull(optarg, &n) || n < 20 || n > 100000)
				return usage_error(cmd, "bad --width '%s' (20 or more)", optarg);
			o->ct.width = (int)n;
			o->width_set = 1;
			break;
		case 'a':
			o->ct.all = 1;
			break;
		case 'j':
			if (parse_jobs(cmd, optarg, &o->jobs))
				return EXIT_USAGE;
			break;
		case OPT_PHASE:
			if (!*optarg || strpbrk(optarg, " \t\n"))
				return usage_error(cmd, "bad --phase '%s' (one word)", optarg);
			o->phase = optarg;
			break;
		case OPT_GATE:
			o->gate = 1;
			if (!optarg)
				break;
			o->gate_pct = strtod(optarg, &end);
			if (end == optarg || *end || !(o->gate_pct >= 0 && o->gate_pct < 1e9))
				return usage_error(cmd, "bad --fail-on-regression '%s' (a percentage, "
						   "0 or more)", optarg);
			break;
		case 'f':
			if (strcmp(optarg, "text") && strcmp(optarg, "json") &&
			    strcmp(optarg, "html"))
				return usage_error(cmd, "unknown format '%s' (text, json or html)",
						   optarg);
			o->json = !strcmp(optarg, "json");
			o->html = !strcmp(optarg, "html");
			break;
		case 'o':
			o->out = optarg;
			break;
		case OPT_FORCE:
			o->force = 1;
			break;
		case OPT_NO_MONITOR:
			o->ct.monitor = 0;
			break;
		case OPT_ALPHA:
			o->ct.alpha = strtod(optarg, &end);
			if (end == optarg || *end || !(o->ct.alpha > 0 && o->ct.alpha < 1))
				return usage_error(cmd, "bad --alpha '%s' (between 0 and 1)", optarg);
			break;
		case OPT_LIST:
			o->list = 1;
			break;
		case 'h':
			return -1;
		default:
			if ((c = scope_or_bad_option(cmd, c, optarg, &o->scope, argc, argv)))
				return c;
			break;
		}
	}
	if ((c = check_scope(cmd, &o->scope)))
		return c;
	/* a phase is a window of its own: two windows at once mean nothing clear */
	if (o->phase && (o->scope.since.set || o->scope.until.set))
		return usage_error(cmd, "--phase and --since/--until cannot be combined");
	if (!stats)
		stats = o->ct.dialect == CT_PLAIN ? "mean" : "min,mean,stddev,coeffvar,max,bmean-95";
	if (ct_parse_stats(stats, &o->stats, &o->ct.nstats, &err)) {
		c = usage_error(cmd, "%s", err);
		free(err);
		return c;
	}
	o->ct.stats = o->stats;
	if (o->list)
		return 0;
	if (argc - optind < 1)
		return usage_error(cmd, "nothing to compare: give NAME=FILE[,FILE...] or FILEs");
	o->specs = argv + optind;
	o->nspecs = argc - optind;
	return 0;
}

/* The value of key in a job's "key=value" lines, NULL without it. */
static const char *job_setting(const struct compare_job *j, const char *key, size_t *len)
{
	size_t kl = strlen(key);

	for (const char *p = j->settings.buf; p && *p;) {
		const char *nl = strchr(p, '\n');
		size_t l = nl ? (size_t)(nl - p) : strlen(p);

		if (l > kl && p[kl] == '=' && !strncmp(p, key, kl)) {
			*len = l - kl - 1;
			return p + kl + 1;
		}
		p += l + (nl != NULL);
	}
	return NULL;
}

/*
 * The settings (run context at the start) whose values differ between the
 * columns: one line each, a column's value or "varies" when its own runs
 * disagree, "-" where its runs have no context. Nothing when the runs
 * agree on everything or none has context.
 */
static void compare_settings_block(const struct ct_table *t, const struct compare_job *jobs,
				   const size_t *colof, size_t njobs, struct strbuf *out)
{
	struct strbuf keys = STRBUF_INIT, none = STRBUF_INIT;
	int any_ctx = 0, nlines = 0, ctxcol[16], first = -1;

	for (size_t k = 0; k < njobs; k++) {
		any_ctx |= jobs[k].settings.len > 0;
		for (const char *p = jobs[k].settings.buf; p && *p;) {
			const char *eq = strchr(p, '='), *nl = strchr(p, '\n');
			char key[160];

			if (!eq || !nl || eq > nl)
				break;
			snprintf(key, sizeof(key), "\n%.*s\n", (int)(eq - p), p);
			if (!keys.buf || !strstr(keys.buf, key))
				strbuf_addf(&keys, "%s", keys.len ? key + 1 : key);
			p = nl + 1;
		}
	}
	if (!any_ctx) {
		strbuf_release(&keys);
		return;
	}
	/* columns none of whose runs has context are left out, and named */
	for (size_t c = 0; c < t->ncols && c < 16; c++) {
		ctxcol[c] = 0;
		for (size_t k = 0; k < njobs; k++)
			if (colof[k] == c && jobs[k].settings.len)
				ctxcol[c] = 1;
		if (!ctxcol[c])
			strbuf_addf(&none, "%s%s", none.len ? ", " : "", t->cols[c]);
	}
	for (const char *p = keys.buf + 1; p && *p;) {
		const char *nl = strchr(p, '\n');
		char key[160], val[16][48];
		int differ = 0;

		if (!nl)
			break;
		snprintf(key, sizeof(key), "%.*s", (int)(nl - p), p);
		p = nl + 1;
		for (size_t c = 0; c < t->ncols && c < 16; c++) {
			int seen = 0, varies = 0;
			const char *v0 = NULL;
			size_t l0 = 0;

			for (size_t k = 0; k < njobs; k++) {
				size_t l;
				const char *v;

				if (colof[k] != c)
					continue;
				v = job_setting(&jobs[k], key, &l);
				if (!v)
					v = "-", l = 1;
				if (seen && (l != l0 || strncmp(v, v0, l)))
					varies = 1;
				v0 = seen ? v0 : v, l0 = seen ? l0 : l, seen = 1;
			}
			if (varies)
				snprintf(val[c], sizeof(val[c]), "varies");
			else
				snprintf(val[c], sizeof(val[c]), "%.*s", (int)(l0 > 40 ? 40 : l0),
					 v0 ? v0 : "-");
			if (!ctxcol[c])
				continue;
			if (first < 0)
				first = (int)c;
			if (varies || strcmp(val[c], val[first]))
				differ = 1;
		}
		if (!differ)
			continue;
		if (!nlines++)
			strbuf_addf(out, "\nSettings that differ (run context at the start; "
				    "-: not recorded)\n");
		strbuf_addf(out, "  %-34s", key);
		for (size_t c = 0; c < t->ncols && c < 16; c++)
			if (ctxcol[c])
				strbuf_addf(out, " %s=%s", t->cols[c], val[c]);
		strbuf_addch(out, '\n');
	}
	if (none.len)
		strbuf_addf(out, "%sNo run context recorded for %s (older mmscope or "
			    "trace-cmd): its settings are unknown\n", nlines ? "" : "\n",
			    none.buf);
	strbuf_release(&none);
	strbuf_release(&keys);
}

/*
 * Load every column: expand each NAME=FILE[,FILE...] (directories to
 * their *.dat files), load all runs in parallel, then pool them in
 * command-line order. The first run that failed is the error.
 */
/* "runs/base.dat" -> "base", "runs/patched/" -> "patched" */
static char *column_name_of(const char *path)
{
	size_t n = strlen(path);
	const char *b;

	while (n > 1 && path[n - 1] == '/')
		n--;
	for (b = path + n; b > path && b[-1] != '/'; b--)
		;
	n -= (size_t)(b - path);
	if (n > 4 && !strncmp(b + n - 4, ".dat", 4))
		n -= 4;
	return xasprintf("%.*s", (int)n, b);
}

/*
 * The runs of FILE|DIR[,...] (the input layer's grouping: one run id, or
 * one --switch-output run, is one recording; a host's runs in time
 * order; an incident inside a continuous run is that run's, not a run
 * of its own; with run, only run N of each host's history) appended to
 * *refs: the inputs and the recording of each.
 */
struct run_ref {
	const struct inputs *in;
	int rec;
};

static int compare_expand(struct inputs *in, const char *list, int run, struct run_ref **refs,
			  size_t *n, char **err)
{
	char *copy = xstrdup(list), *save = NULL, **args = NULL;
	int nargs = 0, r;

	for (char *f = strtok_r(copy, ",", &save); f; f = strtok_r(NULL, ",", &save)) {
		args = xreallocarray(args, (size_t)nargs + 1, sizeof(*args));
		args[nargs++] = f;
	}
	r = inputs_open(in, args, nargs, err);
	for (int k = 0; !r && k < in->hist.nrun; k++) {
		int no = k - in->hist.host_first[in->hist.run[k].host] + 1;

		/* --run N: run N of each host's history, whatever it is */
		if (run ? no != run : in->hist.run[k].rel == HIST_INSIDE)
			continue;
		*refs = xreallocarray(*refs, *n + 1, sizeof(**refs));
		(*refs)[(*n)++] = (struct run_ref){ in, in->hist.run[k].in };
	}
	free(args);
	free(copy);
	return r;
}

static int compare_load_columns(struct ct_table *t, struct compare_opts *o)
{
	struct inputs *ins = xcalloc((size_t)o->nspecs + 1, sizeof(*ins));
	struct compare_job *jobs = NULL;
	struct run_ref *refs = NULL;
	size_t *colof = NULL, njobs = 0, nrefs = 0;
	char *err = NULL;
	int r = EXIT_OK;

	for (int i = 0; i < o->nspecs && r == EXIT_OK; i++) {
		const char *spec = o->specs[i], *eq = strchr(spec, '='), *list;
		size_t col, before = nrefs;
		char *name;
		struct stat st;

		if (!stat(spec, &st)) {
			/* a bare FILE or DIR: the column is called after it */
			name = column_name_of(spec);
			list = spec;
		} else if (!eq || eq == spec || !eq[1]) {
			r = usage_error(&cmd_compare_entry, "'%s' is neither a file nor "
					"NAME=FILE[,FILE...]", spec);
			break;
		} else {
			name = xasprintf("%.*s", (int)(eq - spec), spec);
			list = eq + 1;
		}
		col = ct_add_column(t, name);
		free(name);
		inputs_init(&ins[i]);
		if (compare_expand(&ins[i], list, o->scope.run, &refs, &nrefs, &err)) {
			r = error("%s", err);
			free(err);
			break;
		}
		if (nrefs == before) {
			r = usage_error(&cmd_compare_entry, "'%s' names no file", spec);
			break;
		}
		colof = xreallocarray(colof, nrefs, sizeof(*colof));
		for (size_t k = before; k < nrefs; k++)
			colof[k] = col;
	}
	if (r == EXIT_OK) {
		njobs = nrefs;
		jobs = xcalloc(njobs ? njobs : 1, sizeof(*jobs));
		for (size_t k = 0; k < njobs; k++) {
			const struct input_rec *rec = &refs[k].in->rec[refs[k].rec];

			/* a file, or the name of one run's files */
			jobs[k].path = rec->n > 1 ? rec->name : rec->paths[0];
			jobs[k].in = refs[k].in;
			jobs[k].rec = refs[k].rec;
			jobs[k].phase = o->phase;
			jobs[k].sc.scope = o->scope;
			jobs[k].sc.scope.run = 0;	/* chosen above */
		}
		compare_load_runs(jobs, njobs, o->jobs);
		for (size_t k = 0; k < njobs && r == EXIT_OK; k++) {
			if (jobs[k].rc) {
				r = error("%s: %s", jobs[k].path, jobs[k].err);
				if (jobs[k].sc.bad)	/* the scope was at fault */
					r = EXIT_USAGE;
			} else {
				if (jobs[k].sc.note[0])
					fprintf(stderr, "note: %s: %s\n", jobs[k].path,
						jobs[k].sc.note);
				ct_add_run(t, colof[k], &jobs[k].mv);
			}
		}
		if (r == EXIT_OK)
			compare_settings_block(t, jobs, colof, njobs, &o->settings);
	}
	for (size_t k = 0; k < njobs; k++) {
		metric_values_release(&jobs[k].mv);
		strbuf_release(&jobs[k].settings);
		free(jobs[k].err);
	}
	free(refs);
	free(colof);
	free(jobs);
	for (int i = 0; i < o->nspecs; i++)
		inputs_release(&ins[i]);
	free(ins);
	return r;
}

/*
 * Rows to print: those the --metrics words select, except the per-order
 * stall rows that are zero everywhere (a recording gives orders 0..10
 * so that runs pool their zeros; only the orders that stalled matter).
 */
static int compare_keep(const struct ct_row *row, size_t ncols, void *ctx)
{
	struct compare_opts *o = ctx;
	int keep = !o->nmetrics;

	for (int i = 0; i < o->nmetrics; i++) {
		if (metrics_match(&row->mi, o->metrics[i])) {
			o->matched[i] = 1;
			keep = 1;
		}
	}
	if (keep && row->mi.def && strstr(row->mi.def->name, "{order}") &&
	    ct_row_all_zero(row, ncols))
		keep = 0;
	return keep;
}

static int compare_list_metrics(void)
{
	static const char *const sources[] = { "counter", "trace", "user" };
	size_t n;
	const struct metric_def *d = metrics_catalogue(&n);

	printf("%-34s %-11s %-8s %-7s %-6s %s\n", "name", "group", "source", "unit",
	       "better", "definition");
	for (size_t i = 0; i < n; i++)
		printf("%-34s %-11s %-8s %-7s %-6s %s\n", d[i].name, d[i].group,
		       sources[d[i].source], d[i].unit, d[i].higher_is_better ? "higher" : "lower",
		       d[i].expr ? d[i].expr : d[i].description);
	return EXIT_OK;
}

/* The rendered table to standard output or -o FILE (output-file.h);
 * non-zero, the error printed, when the file cannot be written. */
static int compare_output(const struct compare_opts *o, const struct strbuf *out)
{
	char *err = NULL;

	if (!o->out) {
		fwrite(out->buf ? out->buf : "", 1, out->len, stdout);
		return 0;
	}
	if (!out->len)		/* nothing rendered: the error is said */
		return 0;
	if (output_file_write(o->out, o->force, out->buf, out->len, &err)) {
		error("%s: %s", o->out, err);
		free(err);
		return -1;
	}
	return 0;
}

static int compare_run(struct compare_opts *o)
{
	struct strbuf out = STRBUF_INIT;
	struct ct_table t;
	int r = EXIT_OK;

	if (!o->width_set && isatty(STDOUT_FILENO)) {
		struct winsize ws;

		if (!ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_col >= 20)
			o->ct.width = ws.ws_col;
	}
	ct_init(&t);
	r = compare_load_columns(&t, o);
	if (r == EXIT_OK) {
		o->matched = xcalloc((size_t)o->nmetrics + 1, 1);
		ct_filter(&t, compare_keep, o);
		for (int i = 0; i < o->nmetrics; i++)
			if (!o->matched[i])
				warning("--metrics: '%s' matches no metric of these runs",
					o->metrics[i]);
		ct_sort(&t);
		if (!t.nrows && !o->json)
			r = error("no metric to compare (see --metrics and --list-metrics)");
		else if (o->json)
			ct_render_json(&t, &o->ct, &out);
		else if (o->html)
			compare_render_html(&t, &o->ct, o->settings.buf, &out);
		else
			ct_render_text(&t, &o->ct, &out);
		if (!o->json && !o->html && o->settings.len)
			strbuf_add(&out, o->settings.buf, o->settings.len);
		if (compare_output(o, &out))
			r = EXIT_ERROR;
		if (r == EXIT_OK && o->gate) {
			strbuf_reset(&out);
			size_t tested;

			if (ct_regressions(&t, &o->ct, o->gate_pct, &out, &tested))
				r = EXIT_REGRESSION;
			else if (!tested)	/* a pass would claim what was not tested */
				r = EXIT_UNTESTED;
			/* JSON and HTML stay one document: the block goes to stderr */
			fwrite(out.buf ? out.buf : "", 1, out.len,
			       o->json || o->html || o->out ? stderr : stdout);
		}
	}
	strbuf_release(&out);
	strbuf_release(&o->settings);
	ct_release(&t);
	return r;
}

static int cmd_compare(int argc, char **argv)
{
	struct compare_opts o = { 0 };
	int r = compare_parse_opts(argc, argv, &o);

	if (r < 0)
		r = show_help(&cmd_compare_entry);
	else if (r == 0)
		r = o.list ? compare_list_metrics() : compare_run(&o);
	for (int i = 0; i < o.nmetrics; i++)
		free(o.metrics[i]);
	free(o.metrics);
	free(o.matched);
	free(o.stats);
	return r;
}

const struct cmd_entry cmd_compare_entry = {
	.name = "compare",
	.summary = "compare runs side by side (mmtests or plain tables, significance)",
	.usage = compare_usage,
	.run = cmd_compare,
};
