// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests (TAP) for the metric catalogue and its expression evaluator
 * (src/metrics.c) and for the metrics-file reader (src/compare-load.c):
 * the mmtests definitions computed from hand-made counter deltas, the
 * per-size mTHP templates, absent counters, and the file syntax; and the
 * regression gate of src/compare-table.c on hand-made tables.
 */
#include "config.h"
#include "compare-load.h"
#include "compare-table.h"
#include "metrics.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int n_test, n_fail;

static void check(int cond, const char *desc)
{
	n_test++;
	if (!cond)
		n_fail++;
	printf("%sok %d - %s\n", cond ? "" : "not ", n_test, desc);
}

static double eval(const char *expr, const struct counter_set *cs)
{
	double v = -12345;
	char *err = NULL;

	if (metrics_eval(expr, cs, NULL, &v, &err)) {
		printf("# %s\n", err);
		free(err);
	}
	return v;
}

static double metric(const struct metric_values *mv, const char *name)
{
	struct metric_series *s = metric_values_find(mv, name);

	return s && s->n ? s->v[0] : NAN;
}

static void test_eval(void)
{
	struct counter_set cs = COUNTER_SET_INIT;
	char *err = NULL;
	double v;

	counter_set_put(&cs, "pgscan_kswapd_dma", 1);
	counter_set_put(&cs, "pgscan_kswapd_normal", 2);
	counter_set_put(&cs, "zero", 0);
	counter_set_put(&cs, "mthp.64kB.swpout", 7);
	check(eval("1 + 2 * 3 - 8 / 4", &cs) == 5, "arithmetic and precedence");
	check(eval("(1 + 2) * 3", &cs) == 9, "parentheses");
	check(eval("pgscan_kswapd{,_dma,_normal,_movable}", &cs) == 3,
	      "a {...} group sums the counters present");
	check(isnan(eval("pgscan_direct{,_dma}", &cs)), "a group with none present is undefined");
	check(isnan(eval("missing + 1", &cs)), "an absent counter makes the result undefined");
	check(eval("pct(pgscan_kswapd_dma, pgscan_kswapd_normal)", &cs) == 50, "pct()");
	check(eval("pct(1, zero, 100)", &cs) == 100, "pct() of a zero base takes the fallback");
	check(isnan(eval("pct(1, zero)", &cs)), "pct() of a zero base without fallback");
	check(isnan(eval("1 / zero", &cs)), "division by zero is undefined");
	check(eval("opt(missing) + opt(missing, 5)", &cs) == 5, "opt()");
	check(eval("mthp.64kB.swpout * 2", &cs) == 14, "dotted counter names");
	check(metrics_eval("pct(1, zero, na)", &cs, NULL, &v, &err) == 1 && isnan(v),
	      "pct(a, 0, na) is n/a");
	check(metrics_eval("pct(1, zero, nanosec)", &cs, NULL, &v, &err) == 0 && isnan(v),
	      "a counter called na... is a counter");
	check(metrics_eval("1 +", &cs, NULL, &v, &err) == -1 && err, "syntax error reported");
	free(err);
	err = NULL;
	check(metrics_eval("nosuch(1)", &cs, NULL, &v, &err) == -1 && err, "unknown function");
	free(err);
	counter_set_release(&cs);
}

static void test_compute(void)
{
	struct counter_set cs = COUNTER_SET_INIT;
	struct metric_values mv = METRIC_VALUES_INIT;

	counter_set_put(&cs, "pgscan_kswapd", 1000);
	counter_set_put(&cs, "pgsteal_kswapd", 900);
	counter_set_put(&cs, "pgscan_direct", 0);
	counter_set_put(&cs, "pgsteal_direct", 0);
	counter_set_put(&cs, "allocstall_dma32", 1);
	counter_set_put(&cs, "allocstall_normal", 2);
	counter_set_put(&cs, "allocstall_movable", 3);
	counter_set_put(&cs, "thp_fault_alloc", 90);
	counter_set_put(&cs, "thp_fault_fallback", 10);
	counter_set_put(&cs, "compact_stall", 40);
	counter_set_put(&cs, "compact_success", 10);
	counter_set_put(&cs, "compact_migrate_scanned", 500);
	counter_set_put(&cs, "compact_daemon_migrate_scanned", 400);
	counter_set_put(&cs, "mthp.64kB.swpout", 30);
	counter_set_put(&cs, "mthp.64kB.swpout_fallback", 10);
	counter_set_put(&cs, "mthp.16kB.swpout", 5);
	counter_set_put(&cs, "psi.some_total", 2500000);
	counter_set_put(&cs, "time.elapsed", 10);
	check(metrics_compute(&cs, &mv) > 10, "counter metrics computed");
	check(metric(&mv, "kswapd-efficiency") == 90, "Kswapd efficiency = reclaimed * 100 / scanned");
	check(metric_values_find(&mv, "direct-efficiency") && isnan(metric(&mv, "direct-efficiency")),
	      "Direct efficiency is there but n/a without scans");
	check(metric(&mv, "kswapd-velocity") == 100, "Kswapd velocity = scanned / seconds");
	check(metric(&mv, "alloc-stalls") == 6, "allocation stalls summed over zones");
	check(metric(&mv, "thp-fault-fail-pct") == 10, "THP fault fail rate");
	check(metric(&mv, "compact-efficiency") == 25, "compaction efficiency");
	check(metric(&mv, "direct-compact-migrate-scanned") == 100, "direct = total - daemon");
	check(metric(&mv, "kcompactd-migrate-scanned-pct") == 80, "daemon share of scanning");
	check(metric(&mv, "mthp-64kB-swpout-fallback-pct") == 25, "per-size mTHP fallback %");
	check(metric(&mv, "mthp-16kB-swpout") == 5 &&
	      !metric_values_find(&mv, "mthp-16kB-swpout-fallback"),
	      "each mTHP size gets the rows its stats allow");
	check(metric(&mv, "psi-some") == 2500 && metric(&mv, "psi-some-pct") == 25,
	      "PSI some in ms and in % of the time");
	check(!metric_values_find(&mv, "zswpwb") && !metric_values_find(&mv, "swap-outs"),
	      "absent counters give absent metrics, not zeros");
	metric_values_release(&mv);
	counter_set_release(&cs);
}

/* Issue 17.7: nr_vmscan_write counts every folio pageout() wrote,
 * zswap stores and zero-filled swap-outs included: they are not file
 * writes (samples/zswap-6.12.dat: 2887 "file" writes, 0 file folios). */
static void test_file_writes(void)
{
	struct counter_set cs = COUNTER_SET_INIT;
	struct metric_values mv = METRIC_VALUES_INIT;

	counter_set_put(&cs, "nr_vmscan_write", 5000);
	counter_set_put(&cs, "pswpout", 1000);
	counter_set_put(&cs, "zswpout", 3000);
	counter_set_put(&cs, "swpout_zero", 900);
	counter_set_put(&cs, "zswpwb", 400);	/* in pswpout, not via pageout() */
	metrics_compute(&cs, &mv);
	check(metric(&mv, "page-writes-file") == 500,
	      "file writes: vmscan writes less swap (but zswap writeback), zswap "
	      "and zero-filled swap-outs");
	metric_values_release(&mv);
	counter_set_release(&cs);

	counter_set_put(&cs, "nr_vmscan_write", 33135);	/* zswap-6.12.dat */
	counter_set_put(&cs, "pswpout", 30248);
	counter_set_put(&cs, "zswpout", 6722);
	counter_set_put(&cs, "swpout_zero", 2);
	counter_set_put(&cs, "zswpwb", 3831);
	metrics_compute(&cs, &mv);
	check(metric(&mv, "page-writes-file") == 0, "file writes: -6 read while moving is 0");
	metric_values_release(&mv);
	counter_set_release(&cs);

	counter_set_put(&cs, "nr_vmscan_write", 5000);
	counter_set_put(&cs, "pswpout", 1000);
	metrics_compute(&cs, &mv);
	check(metric(&mv, "page-writes-file") == 4000,
	      "file writes: kernels without zswpout/swpout_zero subtract swap only");
	metric_values_release(&mv);

	/* over a phase: not derived (nr_vmscan_write lags pswpout), the
	 * single counters are */
	metrics_compute_part(&cs, &mv);
	check(isnan(metric(&mv, "page-writes-file")) && metric(&mv, "page-writes-anon") == 1000 &&
	      metric(&mv, "page-writes-reclaim") == 5000,
	      "file writes: not derived over part of a run");
	metric_values_release(&mv);
	counter_set_release(&cs);

	/* 7.2+: the memcg part of pgscan_direct taken out, or the counters
	 * moved to the direct+memcg rows */
	counter_set_put(&cs, "pgscan_direct", 900);
	counter_set_put(&cs, "pgsteal_direct", 800);
	counter_set_put(&cs, "pgscan_kswapd", 100);
	counter_set_put(&cs, "memcg_direct.scanned", 600);
	counter_set_put(&cs, "memcg_direct.reclaimed", 550);
	metrics_compute(&cs, &mv);
	check(metric(&mv, "direct-scanned") == 300 && metric(&mv, "direct-reclaimed") == 250 &&
	      metric(&mv, "direct-scan-pct") == 75 && isnan(metric(&mv, "direct-memcg-scanned")),
	      "7.2+: memcg reclaim taken out of the direct rows");
	metric_values_release(&mv);
	check(counter_set_drop(&cs, "pgscan_direct") && !counter_set_drop(&cs, "pgscan_direct"),
	      "counter_set_drop: once");
	metric_values_release(&mv);
	counter_set_release(&cs);
}

static void test_describe(void)
{
	struct metric_info mi;

	check(metrics_describe("mthp-64kB-swpout-fallback", &mi) == 0 &&
	      !strcmp(mi.label, "mTHP 64kB swpout fallback") && !strcmp(mi.group, "mthp"),
	      "template expanded by name");
	check(metrics_describe("alloc-stalls-order-3", &mi) == 0 &&
	      !strcmp(mi.label, "Alloc stalls order 3") && mi.source == METRIC_TRACE,
	      "order template");
	check(metrics_describe("mthp-64-swpout", &mi) == -1, "a size needs its kB");
	check(metrics_describe("compact-stalls", &mi) == 0 &&
	      !strcmp(mi.label, "Compaction stalls") &&
	      !strcmp(mi.plain_label, "Direct compact stall"), "mmtests and plain labels");
	check(metrics_describe("fault-both-3", &mi) == -1 && mi.source == METRIC_USER &&
	      !mi.higher_is_better, "unknown names are lower-is-better user metrics");
	check(metrics_match(&mi, "user") && metrics_match(&mi, "all") &&
	      !metrics_match(&mi, "reclaim"), "selection by source");
	metrics_describe("kswapd-efficiency", &mi);
	check(metrics_match(&mi, "reclaim") && metrics_match(&mi, "kswapd-efficiency") &&
	      metrics_match(&mi, "counter") && mi.higher_is_better,
	      "selection by group, name and source");
}

static void test_metrics_file(void)
{
	struct metric_values mv = METRIC_VALUES_INIT;
	struct metric_series *s;
	char *err = NULL;

	check(compare_load_metrics_text("# comment\n\nlat 1 2\nlat 3\nhigher tput\n"
					 "tput 5e2\ncounter compact_stall 4\n"
					 "counter compact_success 1\ncompact-efficiency 50\n",
					 &mv, &err) == 0, "metrics file parses");
	s = metric_values_find(&mv, "lat");
	check(s && s->n == 3 && s->v[2] == 3, "values on one or more lines are samples");
	s = metric_values_find(&mv, "tput");
	check(s && s->v[0] == 500 && s->higher_is_better == 1, "higher NAME");
	check(metric(&mv, "compact-stalls") == 4, "counter lines feed the catalogue");
	check(metric(&mv, "compact-efficiency") == 50 &&
	      metric_values_find(&mv, "compact-efficiency")->n == 1,
	      "a metric given directly wins over the computed one");
	metric_values_release(&mv);
	check(compare_load_metrics_text("ok 1\nbad x\n", &mv, &err) == -1 && err &&
	      !strcmp(err, "line 2: 'x' is not a number"), "bad value: line and word");
	free(err);
	err = NULL;
	metric_values_release(&mv);
	check(compare_load_metrics_text("lonely\n", &mv, &err) == -1 && err,
	      "a name without a value");
	free(err);
	metric_values_release(&mv);
}

/* A table of two columns, three runs each, one sample per run. */
static void gate_table(struct ct_table *t, const char *name, const double *a,
		       const double *b, int higher)
{
	ct_init(t);
	ct_add_column(t, "base");
	ct_add_column(t, "new");
	for (int c = 0; c < 2; c++) {
		for (int i = 0; i < 3; i++) {
			struct metric_values mv = METRIC_VALUES_INIT;

			metric_values_add(&mv, name, (c ? b : a)[i])->higher_is_better = higher;
			ct_add_run(t, (size_t)c, &mv);
			metric_values_release(&mv);
		}
	}
	ct_sort(t);
}

static void test_gate(void)
{
	static const double base[] = { 10, 11, 12 }, worse[] = { 20, 21, 22 };
	static const double same[] = { 10.5, 11.5, 12.5 }, zero[] = { 0, 0, 0 };
	struct ct_opts o = { .dialect = CT_PLAIN, .width = 80, .alpha = 0.05 };
	struct strbuf sb = STRBUF_INIT;
	struct ct_table t;
	size_t tested = 0;

	gate_table(&t, "stall-time", base, worse, 0);
	check(ct_regressions(&t, &o, 5, &sb, &tested) == 1 && strstr(sb.buf, "stall-time") &&
	      strstr(sb.buf, "new: 11 -> 21") && strstr(sb.buf, "90.9% worse"),
	      "gate: lower is better and it doubled: one regression, listed");
	strbuf_reset(&sb);
	check(ct_regressions(&t, &o, 95, &sb, &tested) == 0 && !sb.len,
	      "gate: a threshold above the change passes");
	ct_release(&t);
	gate_table(&t, "throughput", base, worse, 1);
	check(ct_regressions(&t, &o, 5, &sb, &tested) == 0, "gate: higher is better and it rose: none");
	ct_release(&t);
	gate_table(&t, "throughput", worse, base, 1);
	check(ct_regressions(&t, &o, 5, &sb, &tested) == 1, "gate: higher is better and it fell");
	ct_release(&t);
	gate_table(&t, "stall-time", base, same, 0);
	check(ct_regressions(&t, &o, 0, &sb, &tested) == 0, "gate: not significant, no regression");
	ct_release(&t);
	strbuf_reset(&sb);
	gate_table(&t, "stall-time", zero, base, 0);
	check(ct_regressions(&t, &o, 5, &sb, &tested) == 1 && strstr(sb.buf, "from 0"),
	      "gate: worse from a zero baseline");
	ct_release(&t);
	/* one run a side: nothing can be tested, and the block says so */
	strbuf_reset(&sb);
	ct_init(&t);
	for (int c = 0; c < 2; c++) {
		struct metric_values mv = METRIC_VALUES_INIT;

		ct_add_column(&t, c ? "new" : "base");
		metric_values_add(&mv, "stall-time", c ? 99 : 1);
		ct_add_run(&t, (size_t)c, &mv);
		metric_values_release(&mv);
	}
	ct_sort(&t);
	check(ct_regressions(&t, &o, 5, &sb, &tested) == 0 && tested == 0 &&
	      strstr(sb.buf, "no row could be tested") && strstr(sb.buf, "base: 1 run"),
	      "gate: one run a side, no row tested, said so");
	ct_release(&t);
	strbuf_release(&sb);
}

int main(void)
{
	printf("1..55\n");
	test_eval();
	test_compute();
	test_file_writes();
	test_describe();
	test_metrics_file();
	test_gate();
	if (n_test != 51)
		printf("# planned 51 tests, ran %d\n", n_test);
	return n_fail ? 1 : 0;
}
