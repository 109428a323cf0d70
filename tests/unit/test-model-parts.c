// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Parts of a run (mmscope record --switch-output; model.h, bounds): what
 * spans a cut counts where it began, its time split at the cut.
 *
 * First by hand: a stall cut at a part's end and continued in the next,
 * with exact figures; LRU work of a task whose stall began before the
 * part, held until its end names the kind; a stall that spans a whole
 * part (the documented limit); a softlimit begin of a task not known
 * yet; a compaction run and a kswapd episode across a cut.
 *
 * Then a generated run: four tasks stalling (memcg and direct, with
 * softlimit nested), kswapd's episodes and LRU work, a task reclaiming
 * outside stalls, direct compaction and kcompactd's requests, 6.1-style
 * swap entries and results, counter sample sets every 100 ms with the
 * recorder's boundary set written into both parts; cut at nine trace
 * times into ten parts, the CPUs read one after the other (a record of
 * CPU 0 in the 50 us before a cut goes to the next part, as the ring's
 * reads give it). Fed whole to one analysis and part by part to ten:
 * every figure that is a sum over time sums over the parts to the run's.
 */
#include "config.h"
#include "analysis.h"
#include "model-cgroups.h"
#include "model-compaction.h"
#include "model-counters.h"
#include "model-handoff.h"
#include "model-reclaim.h"
#include "model-swapclust.h"
#include "tap.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

#define US 1000ULL
#define MS 1000000ULL

/* ---- by hand ---- */

static struct record rec(enum rec_type t, uint64_t ts, int pid)
{
	struct record r;

	memset(&r, 0, sizeof(r));
	r.type = t;
	r.ts = ts;
	r.pid = pid;
	r.cpu = pid & 1;
	return r;
}

static void begin(struct reclaim_model *m, uint64_t ts, int pid, enum reclaim_kind k)
{
	struct record r = rec(REC_RECLAIM_BEGIN, ts, pid);

	r.rbegin.kind = k;
	r.rbegin.order = 0;
	reclaim_model_add(m, &r);
}

static void end(struct reclaim_model *m, uint64_t ts, int pid, enum reclaim_kind k)
{
	struct record r = rec(REC_RECLAIM_END, ts, pid);

	r.rend.kind = k;
	r.rend.nr_reclaimed = 1;
	reclaim_model_add(m, &r);
}

static void shrink(struct reclaim_model *m, uint64_t ts, int pid, int scanned)
{
	struct record r = rec(REC_SHRINK_INACTIVE, ts, pid);

	r.shrink.priority = 12;
	r.shrink.scanned = (uint64_t)scanned;
	r.shrink.reclaimed = (uint64_t)scanned / 2;
	reclaim_model_add(m, &r);
}

static void test_by_hand(void)
{
	struct reclaim_model *a = reclaim_model_new(), *b = reclaim_model_new();
	struct reclaim_model *w = reclaim_model_new();
	const struct reclaim_kind_stats *ks;
	struct reclaim_task t[4];

	/* part 1 of a run cut at 100 ms: one memcg stall complete, one cut */
	reclaim_model_bounds(a, 0, 100 * MS);
	begin(a, 10 * MS, 1, RK_MEMCG);
	shrink(a, 11 * MS, 1, 32);
	end(a, 20 * MS, 1, RK_MEMCG);
	begin(a, 90 * MS, 1, RK_MEMCG);
	shrink(a, 95 * MS, 1, 64);
	reclaim_model_finish(a, 95 * MS);
	ks = reclaim_model_kind(a, RK_MEMCG);
	is_int(reclaim_stalls(ks), 2, "cut: the stall counts where it began");
	is_int(ks->lat.count, 1, "cut: not in the histogram");
	is_int(ks->cut, 1, "cut: one");
	is_int(ks->cut_ns, 10 * MS, "cut: its time up to the cut");
	is_int(reclaim_stall_ns(ks), 20 * MS, "cut: total = 10 ms complete + 10 ms cut");
	is_int(ks->open_at_end, 0, "cut: not open at the end");
	is_int(ks->scanned, 96, "cut: its scans are memcg's");
	is_int(reclaim_model_top_tasks(a, t, 4), 1, "cut: one task");
	is_int(t[0].count, 2, "cut: the task's count has it");
	is_int(t[0].total_ns, 20 * MS, "cut: and its time");

	/* part 2, from 100 ms: the stall's LRU work, then its end, then the
	 * task's next stall; another task's work outside any stall */
	reclaim_model_bounds(b, 100 * MS, 0);
	shrink(b, 101 * MS, 1, 16);
	shrink(b, 102 * MS, 2, 8);
	end(b, 130 * MS, 1, RK_MEMCG);
	begin(b, 140 * MS, 1, RK_DIRECT);
	end(b, 150 * MS, 1, RK_DIRECT);
	begin(b, 160 * MS, 2, RK_DIRECT);
	end(b, 161 * MS, 2, RK_DIRECT);
	reclaim_model_finish(b, 161 * MS);
	ks = reclaim_model_kind(b, RK_MEMCG);
	is_int(reclaim_stalls(ks), 0, "continued: not counted here");
	is_int(ks->continued, 1, "continued: one");
	is_int(ks->continued_ns, 30 * MS, "continued: its time from the cut");
	is_int(reclaim_stall_ns(ks), 30 * MS, "continued: in the total");
	is_int(ks->unpaired_ends, 0, "continued: no unpaired end");
	is_int(ks->scanned, 16, "held: the work before its end is memcg's");
	is_int(reclaim_model_kind(b, RK_OTHER)->scanned, 8,
	       "held: a task whose first stall begins after its work: other");
	is_int(reclaim_stalls(reclaim_model_kind(b, RK_DIRECT)), 2, "direct: two");
	reclaim_model_free(a);
	reclaim_model_free(b);

	/* the same records as one run: what the two parts sum to */
	begin(w, 10 * MS, 1, RK_MEMCG);
	shrink(w, 11 * MS, 1, 32);
	end(w, 20 * MS, 1, RK_MEMCG);
	begin(w, 90 * MS, 1, RK_MEMCG);
	shrink(w, 95 * MS, 1, 64);
	shrink(w, 101 * MS, 1, 16);
	shrink(w, 102 * MS, 2, 8);
	end(w, 130 * MS, 1, RK_MEMCG);
	reclaim_model_finish(w, 130 * MS);
	ks = reclaim_model_kind(w, RK_MEMCG);
	is_int(reclaim_stalls(ks), 2, "whole: two memcg stalls (2 + 0)");
	is_int(reclaim_stall_ns(ks), 50 * MS, "whole: 50 ms (20 + 30)");
	is_int(ks->scanned, 112, "whole: 112 pages scanned (96 + 16)");
	is_int(reclaim_model_kind(w, RK_OTHER)->scanned, 8, "whole: other 8");
	reclaim_model_free(w);

	/* a stall spanning a whole part: the part has no record of it */
	a = reclaim_model_new();
	reclaim_model_bounds(a, 100 * MS, 200 * MS);
	begin(a, 150 * MS, 2, RK_MEMCG);
	end(a, 151 * MS, 2, RK_MEMCG);
	reclaim_model_finish(a, 151 * MS);
	ks = reclaim_model_kind(a, RK_MEMCG);
	is_int(reclaim_stall_ns(ks), 1 * MS,
	       "spanning: a stall from before the part to after it is not seen in it");
	reclaim_model_free(a);

	/* an end in the microseconds the two files overlap: below 0 */
	a = reclaim_model_new();
	reclaim_model_bounds(a, 100 * MS, 0);
	end(a, 100 * MS - 20 * US, 3, RK_DIRECT);
	reclaim_model_finish(a, 100 * MS);
	ks = reclaim_model_kind(a, RK_DIRECT);
	is_int(ks->continued_ns, -20 * (int64_t)US,
	       "overlap: an end 20 us before the cut gives -20 us (the part before had 20 us more)");

	/* a softlimit begin of a task not known yet nests in its stall */
	b = reclaim_model_new();
	reclaim_model_bounds(b, 100 * MS, 0);
	begin(b, 101 * MS, 4, RK_SOFTLIMIT);
	end(b, 102 * MS, 4, RK_SOFTLIMIT);
	end(b, 103 * MS, 4, RK_DIRECT);
	reclaim_model_finish(b, 103 * MS);
	is_int(reclaim_model_kind(b, RK_SOFTLIMIT)->lat.count, 0,
	       "softlimit: no stall of its own in a task not known yet");
	is_int(reclaim_model_kind(b, RK_DIRECT)->continued, 1,
	       "softlimit: the direct stall it nested in continued");
	reclaim_model_free(a);
	reclaim_model_free(b);

	/* without bounds (a whole recording): as before */
	a = reclaim_model_new();
	end(a, 5 * MS, 1, RK_MEMCG);
	begin(a, 6 * MS, 1, RK_MEMCG);
	reclaim_model_finish(a, 7 * MS);
	ks = reclaim_model_kind(a, RK_MEMCG);
	is_int(ks->unpaired_ends, 1, "no bounds: an end without a begin is unpaired");
	is_int(ks->open_at_end, 1, "no bounds: a begin without an end is open");
	is_int(ks->cut + ks->continued, 0, "no bounds: nothing cut or continued");
	reclaim_model_free(a);
}

/* kswapd across a cut and a compaction run across one */
static void test_others_by_hand(void)
{
	struct handoff_params hp;
	struct handoff_model *h1, *h2;
	struct compaction_model *c1 = compaction_model_new(), *c2 = compaction_model_new();
	const struct handoff_node_stats *n;
	const struct compact_stats *cs;
	struct record r;

	handoff_params_default(&hp);
	h1 = handoff_model_new(&hp);
	h2 = handoff_model_new(&hp);
	handoff_model_bounds(h1, 0, 100 * MS);
	r = rec(REC_KSWAPD_WAKE, 40 * MS, 50);
	handoff_model_add(h1, &r);
	handoff_model_finish(h1, 60 * MS);
	n = handoff_model_node(h1, 0);
	is_int(n->episodes, 1, "kswapd: the episode counts where it began");
	is_int(handoff_awake_ns(n), 60 * MS, "kswapd: awake to the cut, not the last event");
	handoff_model_bounds(h2, 100 * MS, 0);
	r = rec(REC_KSWAPD_SLEEP, 170 * MS, 50);
	handoff_model_add(h2, &r);
	handoff_model_finish(h2, 170 * MS);
	n = handoff_model_node(h2, 0);
	is_int(n->episodes, 0, "kswapd: no episode in the part after");
	is_int(n->kswapd_continued, 1, "kswapd: slept from an episode begun before");
	is_int(handoff_awake_ns(n), 70 * MS, "kswapd: awake from the cut to its sleep");
	handoff_model_free(h1);
	handoff_model_free(h2);

	compaction_model_bounds(c1, 0, 100 * MS);
	r = rec(REC_COMPACT_TRY, 89 * MS, 7);
	r.ctry.order = 3;
	compaction_model_add(c1, &r);
	r = rec(REC_COMPACT_BEGIN, 90 * MS, 7);
	compaction_model_add(c1, &r);
	r = rec(REC_COMPACT_ISOLATE, 91 * MS, 7);
	r.ciso.kind = ISO_MIGRATE;
	r.ciso.scanned = 10;
	compaction_model_add(c1, &r);
	compaction_model_finish(c1, 91 * MS);
	cs = compaction_model_stats(c1);
	is_int(compact_runs_counted(&cs->runner[CR_DIRECT]), 1, "compaction: cut, counted");
	is_int(cs->runner[CR_DIRECT].cut_ns, 10 * MS, "compaction: up to the cut");
	is_int(cs->runner[CR_DIRECT].runs, 0, "compaction: not ended here");
	compaction_model_bounds(c2, 100 * MS, 0);
	r = rec(REC_COMPACT_ISOLATE, 101 * MS, 7);
	r.ciso.kind = ISO_MIGRATE;
	r.ciso.scanned = 5;
	compaction_model_add(c2, &r);
	r = rec(REC_COMPACT_END, 104 * MS, 7);
	r.crun.status = 8;
	compaction_model_add(c2, &r);
	compaction_model_finish(c2, 104 * MS);
	cs = compaction_model_stats(c2);
	is_int(cs->runner[CR_MANUAL].continued, 1,
	       "compaction: continued, runner as the part tells (no try in it: manual)");
	is_int(cs->runner[CR_MANUAL].continued_ns, 4 * MS, "compaction: from the cut");
	is_int(cs->runner[CR_MANUAL].migrate_scanned, 5, "compaction: its scans held to its end");
	is_int(cs->runner[CR_MANUAL].runs, 1, "compaction: ended here");
	is_int(cs->unattributed_scans, 0, "compaction: nothing unattributed");
	compaction_model_free(c1);
	compaction_model_free(c2);
}

/* ---- a generated run ---- */

#define NPARTS 10
#define PART_NS (1000 * MS)
#define OVERLAP_NS (50 * US)

static uint64_t seed = 12345;

static unsigned rnd(unsigned n)
{
	seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
	return (unsigned)(seed >> 33) % n;
}

struct stream {
	struct record *r;
	size_t n, cap;
};

static struct stream run;

static struct record *add(enum rec_type t, uint64_t ts, int pid, int cpu)
{
	struct record *r;

	if (run.n == run.cap) {
		run.cap = run.cap ? run.cap * 2 : 4096;
		run.r = xreallocarray(run.r, run.cap, sizeof(*run.r));
	}
	r = &run.r[run.n++];
	memset(r, 0, sizeof(*r));
	r->type = t;
	r->ts = ts;
	r->pid = pid;
	r->cpu = cpu;
	return r;
}

static int by_ts(const void *x, const void *y)
{
	const struct record *a = x, *b = y;

	if (a->ts != b->ts)
		return a->ts < b->ts ? -1 : 1;
	return a < b ? -1 : a > b;	/* stable: the order made */
}

static uint64_t cut_at(int k)	/* the cut after part k (0-based) */
{
	return (uint64_t)(k + 1) * PART_NS + 1234567;
}

/* one task's stalls: kind, cgroup tag, LRU work inside, softlimit nested */
static void gen_task(int pid, enum reclaim_kind kind, int tag, uint64_t t_end)
{
	uint64_t t = 1 * MS + rnd(20) * MS;

	while (t < t_end) {
		uint64_t len = 10 * US + (uint64_t)rnd(rnd(4) ? 2000 : 300000) * US / 10;
		int works = 1 + (int)rnd(5);
		struct record *r;

		r = add(REC_RECLAIM_BEGIN, t, pid, pid & 1);
		r->rbegin.kind = kind;
		r->rbegin.order = (int)rnd(3);
		r->cgroup = tag;
		for (int i = 0; i < works; i++) {
			uint64_t at = t + len * (uint64_t)(i + 1) / (uint64_t)(works + 2);

			r = add(REC_LRU_ISOLATE, at, pid, pid & 1);
			r->isolate.lru = (int)rnd(4);
			r->isolate.scanned = 32;
			r->isolate.taken = 1 + rnd(32);
			r->cgroup = tag;
			r = add(REC_SHRINK_INACTIVE, at + 1, pid, pid & 1);
			r->shrink.priority = 12 - (int)rnd(3);
			r->shrink.flags = rnd(2) ? RECLAIM_FLAG_FILE : 0;
			r->shrink.scanned = 1 + rnd(32);
			r->shrink.reclaimed = rnd(16);
			r->cgroup = tag;
			r = add(REC_WRITE_FOLIO, at + 2, pid, pid & 1);
			r->write.flags = rnd(2) ? RECLAIM_FLAG_FILE : 0;
			r->cgroup = tag;
		}
		if (kind == RK_DIRECT && rnd(3) == 0) {	/* softlimit nested */
			r = add(REC_RECLAIM_BEGIN, t + len / 3, pid, pid & 1);
			r->rbegin.kind = RK_SOFTLIMIT;
			r->cgroup = tag;
			r = add(REC_RECLAIM_END, t + len / 3 + 1, pid, pid & 1);
			r->rend.kind = RK_SOFTLIMIT;
			r->cgroup = tag;
		}
		r = add(REC_RECLAIM_END, t + len, pid, pid & 1);
		r->rend.kind = kind;
		r->rend.nr_reclaimed = rnd(64);
		r->cgroup = tag;
		t += len + 1 + rnd(20000) * US / 1000;
	}
}

/* kswapd: episodes (no re-wakes: the part cannot tell those), its work */
static void gen_kswapd(uint64_t t_end)
{
	uint64_t t = 50 * MS;

	while (t < t_end) {
		uint64_t len = 1 * MS + rnd(700) * MS;
		struct record *r = add(REC_KSWAPD_WAKE, t, 50, 0);

		r->wake.order = (int)rnd(3);
		for (uint64_t at = t + 5 * MS; at < t + len; at += 5 * MS + rnd(50) * MS) {
			r = add(REC_LRU_ISOLATE, at, 50, 0);
			r->comm = "kswapd0";
			r->isolate.lru = 0;
			r->isolate.scanned = 32;
			r->isolate.taken = 16;
			r = add(REC_SHRINK_INACTIVE, at + 1, 50, 0);
			r->shrink.priority = 12;
			r->shrink.scanned = 16;
			r->shrink.reclaimed = 8;
		}
		add(REC_KSWAPD_SLEEP, t + len, 50, 0);
		t += len + 10 * MS + rnd(500) * MS;
	}
}

/* a task's reclaim outside stalls (MADV_PAGEOUT: writes, reclaim_pages) */
static void gen_other(uint64_t t_end)
{
	for (uint64_t t = 3 * MS; t < t_end; t += 7 * MS + rnd(30) * MS) {
		struct record *r = add(REC_WRITE_FOLIO, t, 60, 0);

		r->write.flags = 0;
		r = add(REC_SHRINK_ACTIVE, t + 1, 60, 0);
		r->active.taken = 3;
		r->active.deactivated = 1;
	}
}

/* direct compaction runs and kcompactd's requests */
static void gen_compaction(uint64_t t_end)
{
	uint64_t len;

	/* one run at a time (kcompactd's and the task's) */
	for (uint64_t t = 17 * MS; t < t_end; t += len + 20 * MS + rnd(200) * MS) {
		int kc = rnd(2), pid = kc ? 70 : 103;

		len = 1 * MS + rnd(100) * MS;
		struct record *r;

		if (kc) {
			r = add(REC_KCOMPACTD_WAKE, t, pid, 1);
			r->wake.order = 2;
		} else {
			r = add(REC_COMPACT_TRY, t, pid, 1);
			r->ctry.order = 3;
		}
		r = add(REC_COMPACT_BEGIN, t + 1, pid, 1);
		r->comm = kc ? "kcompactd0" : "task";
		r->crun.zone_start = 4096;
		r->crun.zone_end = 1 << 20;
		for (uint64_t at = t + 2; at < t + len; at += 1 * MS + rnd(20) * MS) {
			r = add(REC_COMPACT_ISOLATE, at, pid, 1);
			r->ciso.kind = rnd(2) ? ISO_MIGRATE : ISO_FREE;
			r->ciso.scanned = 1 + rnd(512);
			r->ciso.taken = rnd(32);
			r = add(REC_COMPACT_MIGRATE, at + 1, pid, 1);
			r->cmig.migrated = rnd(32);
			r->cmig.failed = rnd(2);
		}
		r = add(REC_COMPACT_END, t + len, pid, 1);
		r->comm = kc ? "kcompactd0" : "task";
		r->crun.status = rnd(2) ? 8 : 3;
		r->crun.zone_start = 4096;
		r->crun.zone_end = 1 << 20;
		if (kc)
			add(REC_KCOMPACTD_SLEEP, t + len + 1, pid, 1);
	}
}

/* 6.1's swap probes: the order at the entry, the result without it */
static void gen_swap(uint64_t t_end)
{
	uint64_t len;

	for (uint64_t t = 2 * MS; t < t_end; t += len + 1 * MS + rnd(40) * MS) {
		struct record *r = add(REC_SWAP_FOLIO, t, 104, 0);

		len = 1 * US + rnd(3000) * US;
		r->swap.kind = SWFK_ENTRY;
		r->swap.order = rnd(3) ? 0 : 4;
		r->swap.type = -1;
		r = add(REC_SWAP_FOLIO, t + len, 104, 0);
		r->swap.kind = SWFK_RESULT;
		r->swap.order = -1;
		r->swap.ok = rnd(4) != 0;
		r->swap.type = -1;
	}
}

/* a counter set (vmstat pgscan) at ts, set number seq, value v */
static void set_at(uint64_t ts, uint64_t seq, int64_t v)
{
	struct record *r = add(REC_COUNTER, ts, 1000, 0);

	r->counter.source = SRC_VMSTAT;
	r->counter.seq = seq;
	r->counter.instance = "";
	r->counter.key = "pgscan";
	r->counter.value = v;
	r = add(REC_SAMPLE_END, ts + 1, 1000, 0);
	r->send.seq = seq;
}

static void gen_samples(uint64_t t_end)
{
	uint64_t seq = 0;
	int64_t v = 1000;
	int k = 0;

	for (uint64_t t = 0; t < t_end; t += 100 * MS) {
		if (k < NPARTS - 1 && t + 100 * MS > cut_at(k)) {
			/* the boundary set: in the part before and, the same
			 * readings, as the next part's first */
			set_at(cut_at(k) - 10 * US, seq++, v);
			set_at(cut_at(k) + 20 * US, seq++, v);
			k++;
		}
		v += rnd(5000);
		set_at(t + 3 * MS, seq++, v);
	}
}

/* Which part a record of the run falls in: the CPUs were read one after
 * the other (CPU 0 first): CPU 0's records of the last OVERLAP_NS before
 * a cut are the next part's. */
static int part_of(const struct record *r)
{
	int k = 0;

	while (k < NPARTS - 1 && r->ts > cut_at(k) - (r->cpu == 0 ? OVERLAP_NS : 0))
		k++;
	return k;
}

struct sums {
	uint64_t stalls[RK_NR], begins[RK_NR], ends[RK_NR], nr_reclaimed[RK_NR];
	uint64_t open_at_end[RK_NR], unpaired[RK_NR];
	int64_t stall_ns[RK_NR];
	uint64_t scanned[RK_NR], reclaimed[RK_NR], anon[RK_NR], file[RK_NR];
	uint64_t prio[RK_NR][RECLAIM_NPRIO], lru[RK_NR][RECLAIM_NLRU];
	uint64_t write_anon[RK_NR], write_file[RK_NR], active[RK_NR];
	uint64_t cut[RK_NR], continued[RK_NR];
	uint64_t task_count[4];
	int64_t task_ns[4];
	uint64_t c_counted, c_ended, c_scans, c_migrated, c_tries, c_zone_runs;
	int64_t c_ns;
	uint64_t cg_stalls[4][RK_NR], cg_scanned[4];
	int64_t cg_ns[4][RK_NR];
	uint64_t episodes;
	int64_t awake_ns;
	uint64_t swap_results;
	int64_t pgscan;
};

static void sum_of(const struct analysis *a, struct sums *s)
{
	const struct reclaim_model *rm = analysis_reclaim(a);
	const struct compact_stats *cs = compaction_model_stats(analysis_compaction(a));
	const struct cgroups_model *cg = analysis_model(a, &cgroups_model_ops);
	const struct handoff_model *hm = analysis_handoff(a);
	const struct swapclust_model *sw = analysis_swapclust(a);
	const struct counter *c;
	struct reclaim_task t[32];
	int nt = reclaim_model_top_tasks(rm, t, 32);

	for (int k = 0; k < RK_NR; k++) {
		const struct reclaim_kind_stats *ks = reclaim_model_kind(rm, k);

		s->stalls[k] += reclaim_stalls(ks);
		s->stall_ns[k] += reclaim_stall_ns(ks);
		s->begins[k] += ks->begins;
		s->ends[k] += ks->ends;
		s->nr_reclaimed[k] += ks->nr_reclaimed;
		s->open_at_end[k] += ks->open_at_end;
		s->unpaired[k] += ks->unpaired_ends;
		s->scanned[k] += ks->scanned;
		s->reclaimed[k] += ks->reclaimed;
		s->anon[k] += ks->anon_scanned + ks->anon_reclaimed;
		s->file[k] += ks->file_scanned + ks->file_reclaimed;
		for (int p = 0; p < RECLAIM_NPRIO; p++)
			s->prio[k][p] += ks->prio_scanned[p] + ks->prio_reclaimed[p];
		for (int l = 0; l < RECLAIM_NLRU; l++)
			s->lru[k][l] += ks->lru_scanned[l] + ks->lru_taken[l];
		s->write_anon[k] += ks->write_anon;
		s->write_file[k] += ks->write_file;
		s->active[k] += ks->active_taken + ks->active_deactivated;
		s->cut[k] += ks->cut;
		s->continued[k] += ks->continued;
	}
	for (int i = 0; i < nt; i++)
		if (t[i].pid >= 101 && t[i].pid <= 104) {
			s->task_count[t[i].pid - 101] += t[i].count;
			s->task_ns[t[i].pid - 101] += t[i].total_ns;
		}
	for (int r = 0; r < CR_NR; r++) {
		const struct compact_runner_stats *x = &cs->runner[r];

		s->c_counted += compact_runs_counted(x);
		s->c_ns += compact_run_ns(x);
		s->c_ended += x->runs;
		s->c_scans += x->migrate_scanned + x->migrate_taken + x->free_scanned +
			      x->free_taken;
		s->c_migrated += x->migrated + x->failed;
	}
	s->c_scans += cs->unattributed_scans;	/* a record, not pages: none here */
	s->c_tries += cs->direct_tries;
	for (int z = 0; z < cs->nzones; z++)
		s->c_zone_runs += cs->zones[z].runs;
	for (int tag = 1; tag <= 3; tag++) {
		const struct cgroups_row *row = cgroups_model_find(cg, tag - 1);

		for (int k = 0; row && k < RK_NR; k++) {
			s->cg_stalls[tag][k] += cgroups_row_stalls(row, k);
			s->cg_ns[tag][k] += cgroups_row_stall_ns(row, k);
		}
		if (row)
			s->cg_scanned[tag] += row->memcg_scanned + row->memcg_reclaimed;
	}
	for (int i = 0; i < handoff_model_nnodes(hm); i++) {
		s->episodes += handoff_model_node(hm, i)->episodes;
		s->awake_ns += handoff_awake_ns(handoff_model_node(hm, i));
	}
	for (int o = 0; o < SWC_NORDERS; o++)
		s->swap_results += swapclust_model_order(sw, o)->attempts;
	s->swap_results += swapclust_model_results_no_order(sw);
	c = counters_model_find(analysis_counters(a), SRC_VMSTAT, "", "pgscan");
	if (c)
		s->pgscan += counter_delta(c);
}

#define SAME(f, what) is_int(parts.f, whole.f, what)

static void test_generated(void)
{
	uint64_t t_end = (uint64_t)NPARTS * PART_NS - 5 * MS;
	struct analysis *w = analysis_new_empty(NULL), *p[NPARTS];
	struct sums whole, parts;
	uint64_t last[NPARTS] = { 0 }, cut = 0, cont = 0;
	char what[96];

	gen_task(101, RK_MEMCG, 2, t_end);
	gen_task(102, RK_MEMCG, 3, t_end);
	gen_task(103, RK_DIRECT, 2, t_end);
	gen_task(104, RK_DIRECT, 3, t_end);
	gen_kswapd(t_end);
	gen_other(t_end);
	gen_compaction(t_end);
	gen_swap(t_end);
	gen_samples(t_end);
	qsort(run.r, run.n, sizeof(*run.r), by_ts);
	for (int k = 0; k < NPARTS; k++) {
		p[k] = analysis_new_empty(NULL);
		analysis_set_part_bounds(p[k], k ? cut_at(k - 1) : 0,
					 k < NPARTS - 1 ? cut_at(k) : 0);
	}
	for (size_t i = 0; i < run.n; i++) {
		int k = part_of(&run.r[i]);

		analysis_feed(w, &run.r[i]);
		analysis_feed(p[k], &run.r[i]);
		last[k] = run.r[i].ts;
	}
	analysis_finish(w, run.r[run.n - 1].ts);
	memset(&whole, 0, sizeof(whole));
	memset(&parts, 0, sizeof(parts));
	sum_of(w, &whole);
	for (int k = 0; k < NPARTS; k++) {
		analysis_finish(p[k], last[k]);
		sum_of(p[k], &parts);
	}
	ok(run.n > 10000, "a run of %zu records in %d parts", run.n, NPARTS);
	for (int k = 0; k < RK_NR; k++) {
		cut += parts.cut[k];
		cont += parts.continued[k];
	}
	ok(cut >= 5, "%llu stalls cut at a part's end", (unsigned long long)cut);
	is_int(cont, cut, "as many went on in the next part");
	for (int k = 0; k < RK_NR; k++) {
		const char *n = reclaim_kind_name(k);

#define KIND(f, label) do { \
	snprintf(what, sizeof(what), "%s: %s", n, label); \
	is_int(parts.f[k], whole.f[k], what); } while (0)
		KIND(stalls, "stalls (count)");
		KIND(stall_ns, "time in stalls (total_ns)");
		KIND(begins, "begins");
		KIND(ends, "ends");
		KIND(nr_reclaimed, "nr_reclaimed");
		KIND(open_at_end, "open at the end");
		KIND(unpaired, "unpaired ends");
		KIND(scanned, "scanned");
		KIND(reclaimed, "reclaimed");
		KIND(anon, "anon scanned + reclaimed");
		KIND(file, "file scanned + reclaimed");
		KIND(write_anon, "write_anon");
		KIND(write_file, "write_file");
		KIND(active, "active taken + deactivated");
		for (int q = 0; q < RECLAIM_NPRIO; q++) {
			snprintf(what, sizeof(what), "%s: priority %d", n, q);
			is_int(parts.prio[k][q], whole.prio[k][q], what);
		}
		for (int l = 0; l < RECLAIM_NLRU; l++) {
			snprintf(what, sizeof(what), "%s: lru %d", n, l);
			is_int(parts.lru[k][l], whole.lru[k][l], what);
		}
#undef KIND
	}
	ok(whole.stalls[RK_MEMCG] > 100 && whole.scanned[RK_KSWAPD] > 0 &&
	   whole.write_anon[RK_OTHER] > 0, "the run has memcg stalls, kswapd's and other's work");
	for (int i = 0; i < 4; i++) {
		snprintf(what, sizeof(what), "task %d: stalls", 101 + i);
		is_int(parts.task_count[i], whole.task_count[i], what);
		snprintf(what, sizeof(what), "task %d: time", 101 + i);
		is_int(parts.task_ns[i], whole.task_ns[i], what);
	}
	SAME(c_counted, "compaction: runs counted, all runners");
	SAME(c_ns, "compaction: time, all runners");
	SAME(c_ended, "compaction: runs ended, all runners");
	SAME(c_scans, "compaction: scanner pages, all runners");
	SAME(c_migrated, "compaction: migrated and failed, all runners");
	SAME(c_tries, "compaction: direct tries");
	SAME(c_zone_runs, "compaction: runs per zone");
	for (int tag = 2; tag <= 3; tag++) {
		for (int k = 0; k < RK_KSWAPD; k++) {
			snprintf(what, sizeof(what), "cgroup %d: %s stalls", tag, reclaim_kind_name(k));
			is_int(parts.cg_stalls[tag][k], whole.cg_stalls[tag][k], what);
			snprintf(what, sizeof(what), "cgroup %d: %s time", tag, reclaim_kind_name(k));
			is_int(parts.cg_ns[tag][k], whole.cg_ns[tag][k], what);
		}
		snprintf(what, sizeof(what), "cgroup %d: memcg reclaim pages", tag);
		is_int(parts.cg_scanned[tag], whole.cg_scanned[tag], what);
	}
	SAME(episodes, "kswapd: episodes");
	SAME(awake_ns, "kswapd: time awake");
	SAME(swap_results, "swap: allocation results, every order and none");
	SAME(pgscan, "counters: pgscan's delta");
	ok(whole.pgscan > 0, "counters: pgscan moved (%lld)", (long long)whole.pgscan);
	analysis_free(w);
	for (int k = 0; k < NPARTS; k++)
		analysis_free(p[k]);
	free(run.r);
}

int main(void)
{
	test_by_hand();
	test_others_by_hand();
	test_generated();
	return tap_done();
}
