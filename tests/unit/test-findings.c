// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Findings over hand-built analyses (no file): each severity threshold of
 * mmscope-report(1)'s FINDINGS on both of its sides (stall p99 and max,
 * the share of kswapd sleeps without a handoff, stalls while kcompactd
 * slept (kcompactd's runs '-' without compaction events), memcg passes that escalated past DEF_PRIORITY, a task's frees
 * that moved cluster), counts equal to the models' figures, the order critical >
 * warning > info, and an analysis without records yields no finding and
 * lists the rules it cannot run.
 */
#include "config.h"
#include "analysis.h"
#include "findings.h"
#include "model-reclaim.h"
#include "model-swapclust.h"
#include "tap.h"

#include <string.h>

#define MS 1000000ULL

static void rec(struct analysis *a, enum rec_type t, uint64_t ms, int pid, int order)
{
	struct record r = { .type = t, .ts = ms * MS, .pid = pid, .comm = "alloc" };

	r.wake.nid = 0;
	r.wake.order = order;
	r.wake.zid = 2;
	analysis_feed(a, &r);
}

/* A direct reclaim stall of task pid from ms for dur_ms. */
static void stall(struct analysis *a, uint64_t ms, double dur_ms, int pid)
{
	struct record r = { .type = REC_RECLAIM_BEGIN, .ts = ms * MS, .pid = pid,
			    .comm = "stress" };

	r.rbegin.kind = RK_DIRECT;
	analysis_feed(a, &r);
	r.type = REC_RECLAIM_END;
	r.ts = ms * MS + (uint64_t)(dur_ms * 1e6);
	r.rend.kind = RK_DIRECT;
	r.rend.nr_reclaimed = 32;
	analysis_feed(a, &r);
}

static const struct finding *find(const struct findings *fs, const char *id)
{
	for (int i = 0; i < fs->n; i++)
		if (!strcmp(fs->f[i].rule->id, id))
			return &fs->f[i];
	return NULL;
}

/* 100 direct reclaim stalls of dur_ms each (the last one last_ms). */
static struct findings *stalls_of(double dur_ms, double last_ms, struct analysis **ap)
{
	struct analysis *a = analysis_new_empty(NULL);

	for (int i = 0; i < 100; i++)
		stall(a, 10 + (uint64_t)i * 2000, i == 99 ? last_ms : dur_ms, 900 + i % 3);
	analysis_finish(a, 300000 * MS);
	*ap = a;
	return findings_build(a);
}

static void test_stalls(void)
{
	struct analysis *a;
	struct findings *fs;
	const struct finding *f;

	fs = stalls_of(1, 1, &a);
	f = find(fs, "direct-reclaim-stalls");
	ok(f && f->severity == FSEV_INFO && f->count == 100,
	   "100 stalls of 1 ms: info, count 100");
	/* the first event is the first stall's begin; the last ends 1 ms
	 * after its begin at 10 + 99 * 2000 ms */
	ok(f && f->has_t_start && f->has_t_end && f->t_start == 0 && f->t_start_ns == 0 &&
	   f->t_end_ns == (99 * 2000 + 1) * MS, "its times: first begin to last end");
	ok(f && !strncmp(f->task, "stress 9", 8), "top task named: %s", f ? f->task : "-");
	findings_free(fs);
	analysis_free(a);

	fs = stalls_of(2 * FIND_STALL_WARN_MS, 2 * FIND_STALL_WARN_MS, &a);
	f = find(fs, "direct-reclaim-stalls");
	ok(f && f->severity == FSEV_WARNING, "p99 of twice FIND_STALL_WARN_MS: warning");
	findings_free(fs);
	analysis_free(a);

	fs = stalls_of(1, FIND_STALL_CRIT_MS + 100, &a);
	f = find(fs, "direct-reclaim-stalls");
	ok(f && f->severity == FSEV_CRITICAL, "one stall over FIND_STALL_CRIT_MS: critical");
	findings_free(fs);
	analysis_free(a);

	fs = stalls_of(1, FIND_STALL_CRIT_MS - 100, &a);
	f = find(fs, "direct-reclaim-stalls");
	ok(f && f->severity == FSEV_INFO, "max just under FIND_STALL_CRIT_MS, p99 small: info");
	ok(!find(fs, "memcg-reclaim-stalls"), "no memcg stall: no memcg finding");
	findings_free(fs);
	analysis_free(a);
}

/* nnone kswapd episodes of order 3 that slept with nothing after them and
 * nwake handed off by a wakeup event; nstalls direct stalls while
 * kcompactd slept. */
static struct analysis *handoff(int nnone, int nwake, int nstalls)
{
	struct analysis *a = analysis_new_empty(NULL);
	uint64_t t = 10;

	rec(a, REC_KCOMPACTD_WAKE, 1, 36, 2);	/* kcompactd recorded, then asleep */
	rec(a, REC_KCOMPACTD_SLEEP, 2, 36, 0);
	for (int i = 0; i < nwake; i++, t += 2000) {
		rec(a, REC_KSWAPD_WAKE, t, 40, 3);
		rec(a, REC_WAKEUP_KCOMPACTD, t + 50, 40, 3);
		rec(a, REC_KCOMPACTD_WAKE, t + 51, 36, 3);
		rec(a, REC_KCOMPACTD_SLEEP, t + 60, 36, 0);
		rec(a, REC_KSWAPD_SLEEP, t + 100, 40, 0);
	}
	for (int i = 0; i < nnone; i++, t += 2000) {
		rec(a, REC_KSWAPD_WAKE, t, 40, 3);
		rec(a, REC_KSWAPD_SLEEP, t + 100, 40, 0);
	}
	for (int i = 0; i < nstalls; i++, t += 10)
		stall(a, t, 1, 900);
	analysis_finish(a, (t + 2000) * MS);
	return a;
}

static void test_handoff(void)
{
	struct analysis *a = handoff(1, 0, FIND_KC_STALLS_WARN);
	struct findings *fs = findings_build(a);
	const struct finding *f = find(fs, "handoff-missing");
	const struct handoff_node_stats *n = handoff_model_node(analysis_handoff(a), 0);

	ok(f && f->count == n->ho_none && f->count == 1 && f->severity == FSEV_WARNING,
	   "1 of 1 sleeps without a handoff: warning, count = handoff none");
	ok(f && f->node == 0 && f->order == 3 && f->has_t_start,
	   "node 0, order 3, with its times");
	f = find(fs, "kcompactd-asleep-stalls");
	ok(f && f->count == n->stalls_kc_asleep && f->count == FIND_KC_STALLS_WARN &&
	   f->severity == FSEV_WARNING, "FIND_KC_STALLS_WARN stalls while kcompactd slept: warning");
	ok(f && !f->has_t_start && !f->has_t_end, "kcompactd stalls: times not known");
	/* no compaction_begin/end here: kcompactd's runs are unknown, not 0 */
	ok(f && f->nev >= 2 && !strstr(f->ev[1].figure, "0 runs") &&
	   strstr(f->ev[1].figure, "runs - (compaction not "),
	   "kcompactd runs without compaction events: '-': %s", f && f->nev >= 2 ?
	   f->ev[1].figure : "no evidence");
	findings_free(fs);
	analysis_free(a);

	a = handoff(1, 2, FIND_KC_STALLS_WARN - 1);
	fs = findings_build(a);
	f = find(fs, "handoff-missing");
	ok(f && f->severity == FSEV_INFO, "1 of 3 sleeps without a handoff: info");
	f = find(fs, "kcompactd-asleep-stalls");
	ok(f && f->severity == FSEV_INFO, "one stall fewer than FIND_KC_STALLS_WARN: info");
	/* sorted: critical, then warning, then info */
	for (int i = 1; i < fs->n; i++)
		ok(fs->f[i - 1].severity >= fs->f[i].severity, "finding %d in severity order", i);
	findings_free(fs);
	analysis_free(a);

	a = handoff(0, 2, 0);
	fs = findings_build(a);
	ok(!find(fs, "handoff-missing") && !find(fs, "kcompactd-asleep-stalls"),
	   "every sleep handed off, no stall: neither finding");
	findings_free(fs);
	analysis_free(a);
}

/* n memcg passes whose first scan is at prio, then m at DEF_PRIORITY; the
 * kernel's release and lru_gen/enabled when not NULL. */
static struct analysis *passes_on(int n, int prio, int m, int isolate, const char *kernel,
				  const char *lru_gen)
{
	struct analysis *a = analysis_new_empty(NULL);
	uint64_t t = 10 * MS;

	if (kernel)	/* as the recording's metadata would set it */
		snprintf(((struct analysis_info *)analysis_info(a))->kernel,
			 sizeof(analysis_info(a)->kernel), "%s", kernel);
	if (lru_gen) {
		struct record st = { .type = REC_SETTING, .ts = t };

		st.setting.source = SRC_CTX;
		st.setting.instance = "start";
		st.setting.key = "lru_gen.enabled";
		st.setting.value = lru_gen;
		analysis_feed(a, &st);
	}

	for (int i = 0; i < n + m; i++) {
		struct record r = { .type = REC_RECLAIM_BEGIN, .ts = t += MS, .pid = 7,
				    .comm = "memcg" };

		r.rbegin.kind = RK_MEMCG;
		analysis_feed(a, &r);
		if (isolate) {
			memset(&r.isolate, 0, sizeof(r.isolate));
			r.type = REC_LRU_ISOLATE;
			r.ts = t += MS;
			r.isolate.scanned = r.isolate.taken = 2;
			analysis_feed(a, &r);
		}
		memset(&r.shrink, 0, sizeof(r.shrink));
		r.type = REC_SHRINK_INACTIVE;
		r.ts = t += MS;
		r.shrink.priority = i < n ? prio : 12;
		r.shrink.scanned = 2;
		analysis_feed(a, &r);
		memset(&r.rend, 0, sizeof(r.rend));
		r.type = REC_RECLAIM_END;
		r.ts = t += MS;
		r.rend.kind = RK_MEMCG;
		analysis_feed(a, &r);
	}
	analysis_finish(a, t + MS);
	return a;
}

static struct analysis *passes(int n, int prio, int m, int isolate)
{
	return passes_on(n, prio, m, isolate, NULL, NULL);
}

static void test_rounding(void)
{
	struct analysis *a = passes(FIND_ROUNDING_MIN_PASSES, 11, 0, 1);
	struct findings *fs = findings_build(a);
	const struct finding *f = find(fs, "memcg-scan-rounding");
	int skipped[32], ns, listed = 0;

	ok(f && f->severity == FSEV_WARNING && f->count == FIND_ROUNDING_MIN_PASSES &&
	   f->count == reclaim_passes_escalated(reclaim_model_kind(analysis_reclaim(a),
								   RK_MEMCG)),
	   "FIND_ROUNDING_MIN_PASSES passes first scanning at 11: warning, count = "
	   "the stalls section's escalated");
	findings_free(fs);
	analysis_free(a);
	a = passes(FIND_ROUNDING_MIN_PASSES - 1, 3, 0, 1);
	fs = findings_build(a);
	f = find(fs, "memcg-scan-rounding");
	ok(f && f->severity == FSEV_INFO && f->count == FIND_ROUNDING_MIN_PASSES - 1,
	   "one pass fewer than FIND_ROUNDING_MIN_PASSES: info");
	findings_free(fs);
	analysis_free(a);
	a = passes(20, 10, 21, 1);
	fs = findings_build(a);
	f = find(fs, "memcg-scan-rounding");
	ok(f && f->severity == FSEV_INFO && f->count == 20,
	   "20 of 41 passes escalated, under FIND_ROUNDING_WARN_PCT: info");
	findings_free(fs);
	analysis_free(a);
	a = passes(0, 12, 30, 1);
	fs = findings_build(a);
	ok(!find(fs, "memcg-scan-rounding"), "every pass scanned at 12: no finding");
	findings_free(fs);
	analysis_free(a);
	/* MGLRU on: before 6.7 its lru_gen paths emit no LRU events */
	a = passes_on(30, 9, 0, 1, "6.6.12", "0x0007");
	fs = findings_build(a);
	ok(!find(fs, "memcg-scan-rounding") && reclaim_passes_unknown(a) &&
	   strstr(reclaim_passes_unknown(a), "MGLRU"), "MGLRU on 6.6: cannot tell");
	findings_free(fs);
	analysis_free(a);
	a = passes_on(30, 9, 0, 1, "6.7.0", "0x0007");
	fs = findings_build(a);
	f = find(fs, "memcg-scan-rounding");
	ok(f && f->count == 30, "MGLRU on 6.7: its LRU events count");
	findings_free(fs);
	analysis_free(a);
	a = passes_on(30, 9, 0, 1, "6.1.0", "0x0000");
	fs = findings_build(a);
	ok(find(fs, "memcg-scan-rounding") != NULL, "MGLRU off on 6.1: counted");
	findings_free(fs);
	analysis_free(a);
	a = passes(30, 9, 0, 0);	/* no lru_isolate: cannot tell */
	fs = findings_build(a);
	ns = findings_unevaluated(a, skipped, 32);
	for (int i = 0; i < ns && i < 32; i++)
		listed += !strcmp(finding_rules[skipped[i]].id, "memcg-scan-rounding");
	ok(!find(fs, "memcg-scan-rounding") && listed == 1,
	   "without lru_isolate: not run, no finding");
	findings_free(fs);
	analysis_free(a);
}

/* Frees of one task: offsets (or with slot < 0 given, a slot only). */
static struct analysis *frees(const int64_t *off, int n, int slot_only)
{
	struct analysis *a = analysis_new_empty(NULL);

	for (int i = 0; i < n; i++) {
		struct record r = { .type = REC_SWAP_FREE, .ts = (uint64_t)(i + 1) * MS,
				    .pid = 9, .comm = "zap" };

		r.swap.type = 0;
		r.swap.offset = slot_only ? -1 : off[i];
		r.swap.slot = slot_only ? off[i] % 512 : -1;
		r.swap.count = r.swap.order = r.swap.old_flags = r.swap.new_flags = -1;
		r.swap.nr = 1;
		analysis_feed(a, &r);
	}
	analysis_finish(a, (uint64_t)(n + 1) * MS);
	return a;
}

static void test_scattered(void)
{
	static const int64_t spread[] = { 1, 600, 2, 1500, 1501, 3 };	/* 4 switches */
	static const int64_t near[] = { 1, 2, 3, 4, 5, 600, 601, 602 };	/* 1 of 7 */
	struct analysis *a = frees(spread, 6, 0);
	struct findings *fs = findings_build(a);
	const struct finding *f = find(fs, "swap-free-scattered");
	uint64_t pairs, dev, cl, unk;

	swapclust_model_free_scatter(analysis_swapclust(a), &pairs, &dev, &cl, &unk);
	ok(f && f->severity == FSEV_WARNING && f->count == 4 && f->count == dev + cl,
	   "4 of 5 frees in another cluster: warning, count = the swap section's");
	findings_free(fs);
	analysis_free(a);
	a = frees(near, 8, 0);
	fs = findings_build(a);
	f = find(fs, "swap-free-scattered");
	ok(f && f->severity == FSEV_INFO && f->count == 1,
	   "1 of 7 under FIND_SCATTER_WARN_PCT: info");
	findings_free(fs);
	analysis_free(a);
	a = frees(spread, 6, 1);
	fs = findings_build(a);
	ok(!find(fs, "swap-free-scattered"),
	   "frees giving the slot only: no finding");
	{
		int skipped[32], ns = findings_unevaluated(a, skipped, 32), listed = 0;

		for (int i = 0; i < ns && i < 32; i++)
			listed += !strcmp(finding_rules[skipped[i]].id, "swap-free-scattered");
		ok(listed == 1, "frees giving the slot only: listed as not run");
	}
	findings_free(fs);
	analysis_free(a);
}

static void test_empty(void)
{
	struct analysis *a = analysis_new_empty(NULL);
	struct findings *fs;
	int skipped[32], ns;

	analysis_finish(a, 0);
	fs = findings_build(a);
	ok(fs->n == 0, "no records: no finding");
	ns = findings_unevaluated(a, skipped, 32);
	ok(ns == finding_nrules - 1, "every rule but data-loss cannot run (%d of %d)", ns,
	   finding_nrules);
	findings_free(fs);
	analysis_free(a);
	for (int i = 0; i < finding_nrules; i++)
		ok(finding_rules[i].id && finding_rules[i].needs && finding_rules[i].section &&
		   finding_rules[i].can && finding_rules[i].eval, "rule %s complete",
		   finding_rules[i].id);
}

int main(void)
{
	test_stalls();
	test_handoff();
	test_rounding();
	test_scattered();
	test_empty();
	return tap_done();
}
