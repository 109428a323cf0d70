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
#include "compare-load.h"
#include "compare-table.h"
#include "util.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static const char compare_usage[] =
"usage: mmscope compare [--dialect mmtests|plain] [--stats mean,stddev,...]\n"
"                       [--metrics LIST|all] [--width N] [--format text|json]\n"
"                       NAME=FILE[,FILE...] NAME=FILE[,FILE...] [...]\n"
"\n"
"Compare runs side by side: one column per NAME (the first is the baseline),\n"
"the FILEs of a column are its runs (recordings or metrics files), pooled.\n"
"\n"
"  -d, --dialect D     mmtests (default) or plain (defrag_mode-style)\n"
"  -s, --stats LIST    statistics: min, mean, amean, hmean, gmean, stddev,\n"
"                      coeffvar, max, median, pNN, bmean-NN, samples\n"
"                      (default min,mean,stddev,coeffvar,max,bmean-95 for\n"
"                      mmtests, mean for plain)\n"
"  -m, --metrics LIST  metric names, groups (reclaim, swap, zswap, thp, mthp,\n"
"                      compaction, psi, kswapd, stall, user, ...), sources\n"
"                      (counter, trace, user) or all (default)\n"
"  -w, --width N       split tables wider than N columns (default 80)\n"
"      --no-monitor    mmtests: counter metrics in the stat table too\n"
"      --alpha A       significance level of Welch's t-test (default 0.05)\n"
"  -f, --format F      text (default) or json\n"
"      --list-metrics  print the metric catalogue and exit\n"
"      --since T       recordings only from T: seconds from the first event,\n"
"                      or @T a trace time stamp (as trace-cmd prints)\n"
"      --until T       recordings only up to T (same forms)\n"
"      --pid PID       stalls of this task only (counters stay global)\n"
"      --comm NAME     stalls of the tasks of this name only\n"
"      --cgroup PATH   stalls of a cgroup's tasks (refused when the\n"
"                      recording cannot tell them)\n"
"  -h, --help          show this help\n";

struct compare_opts {
	struct ct_opts ct;
	struct ct_stat *stats;
	char **metrics;		/* selection words */
	int nmetrics;
	char *matched;		/* per word: selected some row */
	int json;
	int list;
	char **specs;		/* NAME=FILE[,FILE...] */
	int nspecs;
	struct analysis_scope scope;
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
	enum { OPT_NO_MONITOR = 256, OPT_ALPHA, OPT_LIST };
	static const struct option longopts[] = {
		{ "dialect", required_argument, NULL, 'd' },
		{ "stats", required_argument, NULL, 's' },
		{ "metrics", required_argument, NULL, 'm' },
		{ "width", required_argument, NULL, 'w' },
		{ "format", required_argument, NULL, 'f' },
		{ "no-monitor", no_argument, NULL, OPT_NO_MONITOR },
		{ "alpha", required_argument, NULL, OPT_ALPHA },
		{ "list-metrics", no_argument, NULL, OPT_LIST },
		{ "help", no_argument, NULL, 'h' },
		SCOPE_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	const struct cmd_entry *cmd = &cmd_compare_entry;
	const char *stats = NULL;
	unsigned long long n;
	char *err = NULL, *end;
	int c;

	o->ct.width = 80;
	o->ct.monitor = 1;
	o->ct.alpha = 0.05;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "d:s:m:w:f:h", longopts, NULL)) != -1) {
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
			break;
		case 'f':
			if (strcmp(optarg, "text") && strcmp(optarg, "json"))
				return usage_error(cmd, "unknown format '%s' (text or json)", optarg);
			o->json = !strcmp(optarg, "json");
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
			if ((c = parse_scope(cmd, c, optarg, &o->scope)) >= 0) {
				if (c)
					return c;
				break;
			}
			return bad_option(cmd, argc, argv);
		}
	}
	if ((c = check_scope(cmd, &o->scope)))
		return c;
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
		return usage_error(cmd, "nothing to compare: give NAME=FILE[,FILE...]");
	o->specs = argv + optind;
	o->nspecs = argc - optind;
	return 0;
}

/* Load the runs of one NAME=FILE,FILE... column. */
static int compare_load_column(struct ct_table *t, const char *spec,
			       struct compare_scope *sc)
{
	const char *eq = strchr(spec, '=');
	char *name, *files, *save = NULL, *f, *err = NULL;
	size_t col;
	int r = 0;

	if (!eq || eq == spec || !eq[1])
		return usage_error(&cmd_compare_entry, "'%s' is not NAME=FILE[,FILE...]", spec);
	name = xasprintf("%.*s", (int)(eq - spec), spec);
	col = ct_add_column(t, name);
	files = xstrdup(eq + 1);
	for (f = strtok_r(files, ",", &save); f; f = strtok_r(NULL, ",", &save)) {
		struct metric_values mv = METRIC_VALUES_INIT;

		if (compare_load_run_scoped(f, sc, &mv, &err)) {
			r = error("%s: %s", f, err);
			if (sc->bad)
				r = EXIT_USAGE;
			free(err);
			metric_values_release(&mv);
			break;
		}
		if (sc->note[0])
			fprintf(stderr, "note: %s: %s\n", f, sc->note);
		ct_add_run(t, col, &mv);
		metric_values_release(&mv);
	}
	free(files);
	free(name);
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

static int compare_run(struct compare_opts *o)
{
	struct strbuf out = STRBUF_INIT;
	struct compare_scope sc = { .scope = o->scope };
	struct ct_table t;
	int r = EXIT_OK;

	ct_init(&t);
	for (int i = 0; i < o->nspecs && r == EXIT_OK; i++)
		r = compare_load_column(&t, o->specs[i], &sc);
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
		else
			ct_render_text(&t, &o->ct, &out);
		fwrite(out.buf ? out.buf : "", 1, out.len, stdout);
	}
	strbuf_release(&out);
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
