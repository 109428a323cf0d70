// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reclaim and compaction models on hand-built records: direct and memcg
 * reclaim latencies and percentiles, LRU work charged to the right
 * context (a task's open reclaim, kswapd, or other), an end without a
 * begin, a begin never ended, softlimit nesting, per-task stall totals;
 * compaction runs by runner (kcompactd on request, proactive, direct,
 * khugepaged, manual), scanner work inside a run, deferrals, extfrag.
 */
#include "config.h"
#include "model-reclaim.h"
#include "model-compaction.h"
#include "tap.h"

#include <string.h>

#define US 1000ULL
#define MS 1000000ULL

static struct reclaim_model *rm;
static struct compaction_model *cm;

static void r_begin(uint64_t ts, int pid, enum reclaim_kind k, int order, const char *comm)
{
	struct record r = { .type = REC_RECLAIM_BEGIN, .ts = ts, .pid = pid, .comm = comm };

	r.rbegin.kind = k;
	r.rbegin.order = order;
	reclaim_model_add(rm, &r);
}

static void r_end(uint64_t ts, int pid, enum reclaim_kind k, int reclaimed)
{
	struct record r = { .type = REC_RECLAIM_END, .ts = ts, .pid = pid };

	r.rend.kind = k;
	r.rend.nr_reclaimed = (uint64_t)reclaimed;
	reclaim_model_add(rm, &r);
}

static void r_shrink(uint64_t ts, int pid, int prio, int flags, int scanned, int reclaimed)
{
	struct record r = { .type = REC_SHRINK_INACTIVE, .ts = ts, .pid = pid };

	r.shrink.priority = prio;
	r.shrink.flags = flags;
	r.shrink.scanned = (uint64_t)scanned;
	r.shrink.reclaimed = (uint64_t)reclaimed;
	reclaim_model_add(rm, &r);
}

static void r_isolate(uint64_t ts, int pid, int lru, int scanned, int taken)
{
	struct record r = { .type = REC_LRU_ISOLATE, .ts = ts, .pid = pid };

	r.isolate.lru = lru;
	r.isolate.scanned = (uint64_t)scanned;
	r.isolate.taken = (uint64_t)taken;
	reclaim_model_add(rm, &r);
}

static void r_active(uint64_t ts, int pid, int prio, int taken)
{
	struct record r = { .type = REC_SHRINK_ACTIVE, .ts = ts, .pid = pid };

	r.active.priority = prio;
	r.active.taken = (uint64_t)taken;
	reclaim_model_add(rm, &r);
}

/* memcg-scan-rounding: passes by the first priority that scanned. */
static void test_passes(void)
{
	const struct reclaim_kind_stats *mc;
	uint64_t t = 0;

	rm = reclaim_model_new();
	/* 1: scans at 12 */
	r_begin(t += MS, 1, RK_MEMCG, 0, "a");
	r_isolate(t += US, 1, 0, 4, 4);
	r_shrink(t += US, 1, 12, 1, 4, 0);
	r_end(t += US, 1, RK_MEMCG, 4);
	/* 2: nothing at 12 and 11 (no events), first scan at 10 */
	r_begin(t += MS, 1, RK_MEMCG, 0, "a");
	r_isolate(t += US, 1, 0, 1, 1);
	r_shrink(t += US, 1, 10, 1, 1, 1);
	r_isolate(t += US, 1, 0, 3, 3);
	r_shrink(t += US, 1, 9, 1, 3, 3);
	r_end(t += US, 1, RK_MEMCG, 4);
	/* 3: an inactive isolate that took nothing (no shrink event, no
	 * priority) before a scan stamped 11: not known */
	r_begin(t += MS, 1, RK_MEMCG, 0, "a");
	r_isolate(t += US, 1, 2, 7, 0);
	r_isolate(t += US, 1, 0, 2, 2);
	r_shrink(t += US, 1, 11, 1, 2, 2);
	r_end(t += US, 1, RK_MEMCG, 2);
	/* 4: the same, stamped 12: the unknown scan was at 12 too */
	r_begin(t += MS, 1, RK_MEMCG, 0, "a");
	r_isolate(t += US, 1, 2, 7, 0);
	r_isolate(t += US, 1, 0, 2, 2);
	r_shrink(t += US, 1, 12, 1, 2, 2);
	r_end(t += US, 1, RK_MEMCG, 2);
	/* 5: an active list scan at 8 first (shrink_active's nr_taken) */
	r_begin(t += MS, 1, RK_MEMCG, 0, "a");
	r_active(t += US, 1, 12, 0);			/* nothing taken at 12 */
	r_isolate(t += US, 1, 1, 5, 5);
	r_active(t += US, 1, 8, 5);
	r_end(t += US, 1, RK_MEMCG, 0);
	/* 6: nothing scanned at all; 7: begun, never ended */
	r_begin(t += MS, 1, RK_MEMCG, 0, "a");
	r_end(t += US, 1, RK_MEMCG, 0);
	r_begin(t += MS, 2, RK_MEMCG, 0, "b");
	r_isolate(t += US, 2, 0, 1, 1);
	r_shrink(t += US, 2, 5, 1, 1, 1);
	/* 8: another task's shrink at 3 meanwhile is not pass 1's */
	r_begin(t += MS, 1, RK_MEMCG, 0, "a");
	r_shrink(t += US, 3, 3, 1, 9, 9);
	r_isolate(t += US, 1, 0, 1, 1);
	r_shrink(t += US, 1, 12, 1, 1, 1);
	r_end(t += US, 1, RK_MEMCG, 1);
	reclaim_model_finish(rm, t);
	mc = reclaim_model_kind(rm, RK_MEMCG);
	is_int(mc->pass_first[12], 3, "passes: three scanned first at 12");
	is_int(mc->pass_first[10], 1, "passes: one first at 10");
	is_int(mc->pass_first[8], 1, "passes: one first at 8 (active list)");
	is_int(mc->pass_first[5] + mc->pass_first[3], 0,
	       "passes: an open pass and another task's scan not counted");
	is_int(mc->pass_unknown, 1, "passes: one whose first scan has no priority");
	is_int(mc->pass_none, 1, "passes: one that scanned nothing");
	is_int(reclaim_passes_escalated(mc), 2, "passes: two escalated below 12");
	is_int(reclaim_passes(mc), 7, "passes: seven ended");
	ok(mc->esc_first_ts && mc->esc_last_ts > mc->esc_first_ts,
	   "passes: the escalated ones' times");
	reclaim_model_free(rm);
}

static void test_reclaim(void)
{
	const struct reclaim_kind_stats *d, *mc, *k, *o;
	struct reclaim_task t[4];
	struct record w = { .type = REC_KSWAPD_WAKE, .pid = 40 };

	rm = reclaim_model_new();
	reclaim_model_add(rm, &w);
	for (int i = 0; i < 100; i++) {		/* 100 direct reclaims, 1..100 us */
		r_begin((uint64_t)i * MS, 500, RK_DIRECT, 0, "stress");
		r_shrink((uint64_t)i * MS + 1, 500, 12, RECLAIM_FLAG_ANON, 32, 16);
		r_end((uint64_t)i * MS + (uint64_t)(i + 1) * US, 500, RK_DIRECT, 16);
	}
	r_begin(200 * MS, 600, RK_MEMCG, 0, "cgtask");
	r_begin(200 * MS + 1, 600, RK_SOFTLIMIT, 0, NULL);	/* nested */
	r_end(200 * MS + 2, 600, RK_SOFTLIMIT, 0);
	r_shrink(200 * MS + 3, 600, 10, RECLAIM_FLAG_FILE, 64, 60);
	r_end(210 * MS, 600, RK_MEMCG, 60);
	r_shrink(300 * MS, 40, 12, RECLAIM_FLAG_FILE, 100, 90);	/* kswapd */
	r_shrink(301 * MS, 777, 12, RECLAIM_FLAG_FILE, 5, 5);	/* nobody's */
	r_end(302 * MS, 888, RK_DIRECT, 1);			/* no begin */
	r_begin(303 * MS, 999, RK_DIRECT, 3, "late");		/* never ends */
	reclaim_model_finish(rm, 400 * MS);

	d = reclaim_model_kind(rm, RK_DIRECT);
	mc = reclaim_model_kind(rm, RK_MEMCG);
	k = reclaim_model_kind(rm, RK_KSWAPD);
	o = reclaim_model_kind(rm, RK_OTHER);
	is_int(d->lat.count, 100, "direct: 100 paired");
	ok(hist_percentile(&d->lat, 50) >= 50 * US && hist_percentile(&d->lat, 50) <= 54 * US,
	   "direct: p50 ~50 us (%llu)", (unsigned long long)hist_percentile(&d->lat, 50));
	ok(hist_percentile(&d->lat, 99) >= 99 * US && hist_percentile(&d->lat, 99) <= 100 * US,
	   "direct: p99 ~99 us");
	is_int(d->lat.max, 100 * US, "direct: max exact");
	{	/* the stall log: the 100 direct stalls and the memcg one, in end order */
		uint64_t dropped = 1;
		const struct reclaim_stall *s0, *s99, *sm;

		is_int(reclaim_model_nstalls(rm, &dropped), 101, "stall log: every paired stall");
		is_int(dropped, 0, "stall log: none dropped");
		s0 = reclaim_model_stall(rm, 0);
		s99 = reclaim_model_stall(rm, 99);
		sm = reclaim_model_stall(rm, 100);
		ok(s0->begin == 0 && s0->dur == US && s0->pid == 500 && s0->kind == RK_DIRECT &&
		   s0->reclaimed == 16 && !strcmp(s0->comm, "stress"), "stall log: first stall");
		ok(s99->begin == 99 * MS && s99->dur == 100 * US, "stall log: last direct stall");
		ok(sm->kind == RK_MEMCG && sm->dur == 10 * MS && sm->reclaimed == 60 &&
		   !strcmp(sm->comm, "cgtask"), "stall log: the memcg stall, not the nested one");
		ok(!reclaim_model_stall(rm, 101), "stall log: out of range is NULL");
	}
	is_int(d->scanned, 3200, "direct: scans charged to direct");
	is_int(d->prio_scanned[12], 3200, "direct: per priority");
	is_int(d->anon_reclaimed, 1600, "direct: anon LRU");
	is_int(d->unpaired_ends, 1, "direct: end without begin");
	is_int(d->open_at_end, 1, "direct: begin without end");
	is_int(d->orders[3], 1, "direct: begins per order");
	is_int(mc->lat.count, 1, "memcg: softlimit nested does not end it");
	is_int(mc->file_scanned, 64, "memcg: nested work charged to memcg");
	is_int(reclaim_model_kind(rm, RK_SOFTLIMIT)->begins, 1, "softlimit counted");
	is_int(k->scanned, 100, "kswapd: by task id");
	is_int(o->scanned, 5, "other: unknown context");
	is_int(reclaim_model_top_tasks(rm, t, 4), 2, "two tasks stalled");
	is_str(t[0].comm, "cgtask", "top task by total stall (one 10 ms memcg stall)");
	is_int(t[0].total_ns, 10 * MS - 0, "memcg task stall total");
	is_int(t[1].count, 100, "second task: 100 direct stalls");
	is_int(t[1].total_ns, 5050 * US, "second task: 1+2+...+100 us");
	reclaim_model_free(rm);
}

static void c_rec(enum rec_type t, uint64_t ts, int pid, const char *comm, int x)
{
	struct record r = { .type = t, .ts = ts, .pid = pid, .comm = comm };

	switch (t) {
	case REC_KCOMPACTD_WAKE:
		r.wake.order = x;
		break;
	case REC_COMPACT_TRY:
		r.ctry.order = x;
		break;
	case REC_COMPACT_BEGIN:
	case REC_COMPACT_END:
		r.crun.zone_start = 0x1000;
		r.crun.status = t == REC_COMPACT_END ? x : -1;
		break;
	case REC_COMPACT_ISOLATE:
		r.ciso.kind = ISO_MIGRATE;
		r.ciso.scanned = (uint64_t)x;
		r.ciso.taken = (uint64_t)x / 2;
		break;
	case REC_COMPACT_MIGRATE:
		r.cmig.migrated = (uint64_t)x;
		break;
	case REC_COMPACT_DEFER:
		r.defer.kind = (enum defer_kind)x;
		break;
	case REC_EXTFRAG:
		r.extfrag.alloc_mt = 0;
		r.extfrag.fallback_mt = 1;
		r.extfrag.fallback_order = x;
		break;
	default:
		break;
	}
	compaction_model_add(cm, &r);
}

static void test_compaction(void)
{
	const struct compact_stats *s;

	cm = compaction_model_new();
	/* kcompactd on a request */
	c_rec(REC_KCOMPACTD_WAKE, 1 * MS, 36, NULL, 9);
	c_rec(REC_COMPACT_BEGIN, 2 * MS, 36, "kcompactd0", 0);
	c_rec(REC_COMPACT_ISOLATE, 3 * MS, 36, NULL, 100);
	c_rec(REC_COMPACT_MIGRATE, 4 * MS, 36, NULL, 40);
	c_rec(REC_COMPACT_END, 5 * MS, 36, NULL, 8);
	c_rec(REC_KCOMPACTD_SLEEP, 6 * MS, 36, NULL, 0);
	/* kcompactd on its own after the timeout: proactive */
	c_rec(REC_COMPACT_BEGIN, 600 * MS, 36, "kcompactd0", 0);
	c_rec(REC_COMPACT_END, 601 * MS, 36, NULL, 5);
	/* direct compaction */
	c_rec(REC_COMPACT_TRY, 700 * MS, 500, "stress", 9);
	c_rec(REC_COMPACT_BEGIN, 700 * MS + 1, 500, "stress", 0);
	c_rec(REC_COMPACT_ISOLATE, 700 * MS + 2, 500, NULL, 10);
	c_rec(REC_COMPACT_END, 703 * MS, 500, NULL, 7);
	/* khugepaged, manual, and one left open */
	c_rec(REC_COMPACT_BEGIN, 800 * MS, 77, "khugepaged", 0);
	c_rec(REC_COMPACT_END, 801 * MS, 77, NULL, 3);
	c_rec(REC_COMPACT_BEGIN, 900 * MS, 1234, "sh", 0);
	c_rec(REC_COMPACT_END, 950 * MS, 1234, NULL, 5);
	c_rec(REC_COMPACT_BEGIN, 990 * MS, 1235, "sh", 0);
	c_rec(REC_COMPACT_ISOLATE, 991 * MS, 4321, NULL, 1);	/* outside any run */
	c_rec(REC_COMPACT_DEFER, 992 * MS, 500, NULL, DEFER_DEFERRED);
	c_rec(REC_COMPACT_DEFER, 992 * MS, 500, NULL, DEFER_RESET);
	c_rec(REC_EXTFRAG, 993 * MS, 500, NULL, 2);
	c_rec(REC_EXTFRAG, 993 * MS, 500, NULL, 9);
	compaction_model_finish(cm, 1000 * MS);
	s = compaction_model_stats(cm);
	is_int(s->runner[CR_KCOMPACTD].runs, 1, "kcompactd run on a request");
	is_int(s->runner[CR_KCOMPACTD].status[8], 1, "kcompactd: success");
	is_int(s->runner[CR_KCOMPACTD].migrate_scanned, 100, "kcompactd: scanner work");
	is_int(s->runner[CR_KCOMPACTD].migrated, 40, "kcompactd: migrated");
	is_int(s->runner[CR_KCOMPACTD].dur.max, 3 * MS, "kcompactd: duration");
	is_int(s->by_order[9].runs, 2, "runs for order 9: kcompactd request and direct");
	is_int(s->by_order[9].success, 1, "order 9: one success");
	is_int(s->no_order.runs, 3, "runs without an order: proactive, khugepaged, manual");
	is_int(s->runner[CR_PROACTIVE].runs, 1, "proactive run");
	is_int(s->runner[CR_DIRECT].runs, 1, "direct run after try_to_compact_pages");
	is_int(s->runner[CR_DIRECT].migrate_scanned, 10, "direct: scanner work");
	is_int(s->direct_by_order[9], 1, "direct attempts per order");
	is_int(s->runner[CR_KHUGEPAGED].runs, 1, "khugepaged by comm");
	is_int(s->runner[CR_MANUAL].runs, 1, "manual run");
	is_int(s->runner[CR_MANUAL].open_at_end, 1, "manual run open at the end");
	is_int(s->unattributed_scans, 1, "scan outside a run");
	is_int(s->deferred, 1, "deferred");
	is_int(s->defer_reset, 1, "defer reset");
	is_int(s->extfrag, 2, "extfrag");
	is_int(s->extfrag_severe, 1, "extfrag: fallback order < 4");
	is_int(s->extfrag_mt[0][1], 2, "extfrag: Unmovable from Movable");
	is_int(s->nzones, 1, "one zone");
	is_int(s->zones[0].runs, 5, "runs per zone");
	{	/* the run log: every ended run, with its runner, order and result */
		int n = compaction_model_nruns(cm, NULL), direct = -1;

		is_int(n, 5, "run log: the 5 ended runs");
		for (int i = 0; i < n; i++)
			if (compaction_model_run(cm, i)->runner == CR_DIRECT)
				direct = i;
		ok(direct >= 0 && compaction_model_run(cm, direct)->order == 9 &&
		   compaction_model_run(cm, direct)->dur == 3 * MS - 1 &&
		   compaction_model_run(cm, direct)->status == 7 &&
		   !strcmp(compaction_model_run(cm, direct)->comm, "stress"),
		   "run log: the direct run, order 9, 3 ms, contended, by stress");
	}
	compaction_model_free(cm);
}

int main(void)
{
	test_reclaim();
	test_passes();
	test_compaction();
	return tap_done();
}
