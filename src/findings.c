// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Findings (findings.h): one rule per id, each reading the models the
 * report's sections read, and taking its count from the same model value
 * that section prints. A rule fires only on data the recording has: a
 * figure whose events, counters or probes were not recorded gives no
 * finding (never a 0 read as "nothing happened").
 */
#include "config.h"
#include "findings.h"
#include "cgmap.h"
#include "model-cgroups.h"
#include "model-oom.h"
#include "kill-dossier.h"
#include "model-run.h"
#include "model-stacks.h"
#include "util.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ULL(x) ((unsigned long long)(x))

const char *finding_severity_name(enum finding_severity s)
{
	static const char *const names[FSEV_NR] = { "info", "warning", "critical" };

	return (unsigned)s < FSEV_NR ? names[s] : "?";
}

static uint64_t rel_ns(const struct analysis *a, uint64_t ts)
{
	uint64_t first = analysis_info(a)->first_ts;

	return ts >= first ? ts - first : 0;
}

static double rel_s(const struct analysis *a, uint64_t ts)
{
	return (double)rel_ns(a, ts) / 1e9;
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0;
}

/* A new finding of rule r, its fields "not known" until set. */
static struct finding *add(struct findings *fs, const struct finding_rule *r,
			   enum finding_severity sev, uint64_t count, const char *unit)
{
	struct finding *f;

	if (fs->n == fs->alloc) {
		fs->alloc = fs->alloc ? fs->alloc * 2 : 16;
		fs->f = xreallocarray(fs->f, (size_t)fs->alloc, sizeof(*fs->f));
	}
	f = &fs->f[fs->n++];
	memset(f, 0, sizeof(*f));
	f->rule = r;
	f->severity = sev;
	f->count = count;
	f->count_unit = unit;
	f->order = f->node = f->device = -1;
	return f;
}

static void times(const struct analysis *a, struct finding *f, uint64_t from, uint64_t to)
{
	f->has_t_start = f->has_t_end = 1;
	f->t_start_ns = rel_ns(a, from);
	f->t_end_ns = rel_ns(a, to);
	f->t_start = rel_s(a, from);
	f->t_end = rel_s(a, to);
}

static void summary(struct finding *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void summary(struct finding *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(f->summary, sizeof(f->summary), fmt, ap);
	va_end(ap);
}

static void mechanism(struct finding *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void mechanism(struct finding *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(f->mechanism, sizeof(f->mechanism), fmt, ap);
	va_end(ap);
}

static void evidence(struct finding *f, const char *source, const char *section,
		     const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void evidence(struct finding *f, const char *source, const char *section,
		     const char *fmt, ...)
{
	struct finding_evidence *e;
	va_list ap;

	if (f->nev >= FINDING_MAX_EVIDENCE)
		return;
	e = &f->ev[f->nev++];
	va_start(ap, fmt);
	vsnprintf(e->figure, sizeof(e->figure), fmt, ap);
	va_end(ap);
	snprintf(e->source, sizeof(e->source), "%s", source);
	snprintf(e->section, sizeof(e->section), "%s", section);
}

/* ---- what the recording has (the report's own tests, src/report.c) ---- */

static int has_kswapd(const struct analysis *a)
{
	return analysis_traced(a, REC_KSWAPD_WAKE, -1) && analysis_traced(a, REC_KSWAPD_SLEEP, -1);
}

static int has_stall_entries(const struct analysis *a)
{
	return analysis_traced(a, REC_RECLAIM_BEGIN, RK_DIRECT) ||
	       analysis_traced(a, REC_COMPACT_TRY, -1);
}

static int has_compaction(const struct analysis *a)
{
	return analysis_traced(a, REC_COMPACT_BEGIN, -1) && analysis_traced(a, REC_COMPACT_END, -1);
}

/* A parser's note "...: METRIC not measured" (report_not_measured()). */
static int not_measured(const struct analysis *a, const char *metric)
{
	char tail[160];
	size_t t;

	snprintf(tail, sizeof(tail), ": %s not measured", metric);
	t = strlen(tail);
	for (int i = 0; i < analysis_nnotes(a); i++) {
		const char *n = analysis_note(a, i);
		size_t l = n ? strlen(n) : 0;

		if (l > t && !strcmp(n + l - t, tail))
			return 1;
	}
	return 0;
}

static unsigned long order_kb(const struct analysis *a, int order)
{
	uint32_t ps = analysis_info(a)->page_size;
	unsigned long page_kb = ps >= 1024 ? ps / 1024 : 4;

	return page_kb << order;
}

/* ---- mthp-fallback ---- */

/* The interval of sample sets in which the counter moved: from the set
 * before its first rise to the set of its last rise. */
static void fallback_times(const struct analysis *a, const struct swapclust_model *m, int o,
			   struct finding *f)
{
	uint64_t from, to;

	if (!swapclust_model_fallback_rise(m, o, &from, &to))
		times(a, f, from, to);
}

/* Why order o fell back: the cluster model's state at each fallback where
 * the probes show it; the devices, when none can take order>0 at all. */
static void fallback_cause(const struct analysis *a, const struct swapclust_model *m, int o,
			   const struct swc_order *so, int probes, struct finding *f)
{
	int best = -1, nodev = 0, ndev = 0;

	if (probes && so->fallback) {
		for (int c = 0; c < SWC_NCAUSES; c++)
			if (so->cause[c] && (best < 0 || so->cause[c] > so->cause[best]))
				best = c;
	}
	if (best == SWC_CAUSE_NO_CLUSTER) {
		/* the device whose free clusters ran out first */
		const struct swc_dev *dz = NULL;

		for (int i = 0; i < swapclust_model_ndevs(m); i++) {
			const struct swc_dev *d = swapclust_model_dev(m, i);

			if (d->free_known && !d->detail_lost && d->zero_count &&
			    (!dz || d->zero_ts[0] < dz->zero_ts[0]))
				dz = d;
		}
		if (dz) {
			f->device = dz->type;
			mechanism(f, "no free or nonfull cluster of order %d on swap device %d "
				  "(%s) from %.3f s: the swap allocator found no room for "
				  "the folio, so reclaim split it and swapped it out page by "
				  "page", o, dz->type, dz->name[0] ? dz->name : "?",
				  rel_s(a, dz->zero_ts[0]));
		} else {
			mechanism(f, "no free or nonfull cluster of order %d: the swap "
				  "allocator found no room for the folio, so reclaim split it "
				  "and swapped it out page by page", o);
		}
	} else if (best >= 0) {
		mechanism(f, "%.1f%% of the probed fallbacks: %s; reclaim split the folio "
			  "and swapped it out page by page", pct(so->cause[best], so->fallback),
			  swc_cause_name(best));
	}
	if (best >= 0) {
		evidence(f, "swap probes (folio_alloc_swap, cluster moves)", "swap",
			 "%llu of %llu probed fallbacks: %s", ULL(so->cause[best]),
			 ULL(so->fallback), swc_cause_name(best));
		return;
	}
	for (int i = 0; i < swapclust_model_ndevs(m); i++) {
		const struct swc_dev *d = swapclust_model_dev(m, i);

		if (!d->active)
			continue;
		ndev++;
		nodev += d->large_ok == 0;
	}
	if (ndev && nodev == ndev)
		mechanism(f, "no active swap device can take order>0 (a swap file, or not "
			  "a block device): every large folio is split before swap-out");
	else
		mechanism(f, "cause unknown: no swap probes (record -g swap with probes "
			  "shows the cluster state at each fallback)");
}

/* An order's fallbacks as the swap section counts them: the kernel's
 * per-size swpout_fallback delta where sampled (share of it and swpout),
 * else the probes' (share of the attempts). 0: none, or not measured. */
static int order_fallbacks(const struct swc_order *so, int probes, uint64_t *count,
			   uint64_t *share_of)
{
	if (!so->attempts && !so->has_counters)
		return 0;	/* the swap section has no row for it */
	if (so->has_counters) {	/* the kernel's own per-size counter */
		if (so->fb_last <= so->fb_first)
			return 0;
		*count = (uint64_t)(so->fb_last - so->fb_first);
		*share_of = *count + (uint64_t)(so->swpout_last - so->swpout_first);
		return 1;
	}
	if (probes && so->fallback) {
		*count = so->fallback;
		*share_of = so->attempts;
		return 1;
	}
	return 0;
}

static void rule_mthp_fallback(const struct analysis *a, const struct finding_rule *r,
			       struct findings *fs)
{
	const struct swapclust_model *m = analysis_swapclust(a);
	int probes = swapclust_model_has_probes(m) || analysis_probes_swap(a) == 1;

	/* without THP_SWAP no order>0 swap-out can get slots: every one
	 * splits by configuration (mthp-split-config), not for want of room */
	if (analysis_info(a)->thp_swap == 0)
		return;

	for (int o = 1; o < SWC_NORDERS; o++) {
		const struct swc_order *so = swapclust_model_order(m, o);
		uint64_t count, share_of;
		enum finding_severity sev;
		struct finding *f;
		double p;

		if (!order_fallbacks(so, probes, &count, &share_of))
			continue;
		p = pct(count, share_of);
		sev = p >= FIND_FALLBACK_CRIT_PCT ? FSEV_CRITICAL :
		      p >= FIND_FALLBACK_WARN_PCT ? FSEV_WARNING : FSEV_INFO;
		f = add(fs, r, sev, count, "fallbacks");
		f->order = o;
		summary(f, "%lukB swap-outs: %llu fell back (%.0f%%)", order_kb(a, o),
			ULL(count), p);
		if (so->has_counters) {
			evidence(f, "mTHP counter swpout_fallback", "swap",
				 "hugepages-%lukB swpout_fallback +%llu", order_kb(a, o), ULL(count));
			evidence(f, "mTHP counter swpout", "swap", "hugepages-%lukB swpout %+lld",
				 order_kb(a, o), (long long)(so->swpout_last - so->swpout_first));
			fallback_times(a, m, o, f);
		} else {
			evidence(f, "swap probe folio_alloc_swap", "swap",
				 "%llu of %llu order-%d allocations fell back", ULL(so->fallback),
				 ULL(so->attempts), o);
		}
		fallback_cause(a, m, o, so, probes, f);
	}
}

/* ---- mthp-split-config ---- */

/* Where THP_SWAP is known to be off (the kernel's config, the recorded
 * cluster size, or arm64 with 16 or 64 KB pages): the kernel has no
 * order>0 swap slots, so reclaim splits every large folio before
 * swap-out. The count is the same swap section figure as mthp-fallback's,
 * which does not fire then: no cluster state could have avoided it. */
static void rule_mthp_split_config(const struct analysis *a, const struct finding_rule *r,
				   struct findings *fs)
{
	const struct analysis_info *in = analysis_info(a);
	const struct swapclust_model *m = analysis_swapclust(a);
	int probes = swapclust_model_has_probes(m) || analysis_probes_swap(a) == 1;
	const char *basis;

	if (in->thp_swap != 0)
		return;
	basis = in->thp_swap_basis == AB_RECORDED ? "the kernel's config (thp_swap=n)" :
		in->thp_swap_basis == AB_CLUSTER ? "the recorded swap cluster size (256)" :
		"inferred: arm64 has THP_SWAP with 4 KB pages only";
	for (int o = 1; o < SWC_NORDERS; o++) {
		const struct swc_order *so = swapclust_model_order(m, o);
		uint64_t count = 0, share_of = 0;
		struct finding *f;

		if (!order_fallbacks(so, probes, &count, &share_of))
			continue;
		f = add(fs, r, FSEV_INFO, count, "splits");
		f->order = o;
		summary(f, "%lukB swap-outs: %llu split by configuration (%.0f%%)",
			order_kb(a, o), ULL(count), pct(count, share_of));
		if (so->has_counters) {
			evidence(f, "mTHP counter swpout_fallback", "swap",
				 "hugepages-%lukB swpout_fallback +%llu", order_kb(a, o), ULL(count));
			fallback_times(a, m, o, f);
		} else {
			evidence(f, "swap probe folio_alloc_swap", "swap",
				 "%llu of %llu order-%d allocations fell back", ULL(so->fallback),
				 ULL(so->attempts), o);
		}
		evidence(f, "run context, metadata or machine", "swap",
			 "CONFIG_THP_SWAP off: %s; %u KB pages, PMD order %d", basis,
			 in->page_size / 1024, in->pmd_order);
		mechanism(f, "the kernel is built without THP_SWAP, so the swap allocator "
			  "takes no order>0 request: reclaim splits every %lukB folio and "
			  "swaps it out page by page; swap clusters (%d slots) play no part",
			  order_kb(a, o), swapclust_model_cluster_size(m));
	}
}

/* ---- swap-cluster-exhausted ---- */

static void rule_cluster_exhausted(const struct analysis *a, const struct finding_rule *r,
				   struct findings *fs)
{
	const struct swapclust_model *m = analysis_swapclust(a);

	for (int i = 0; i < swapclust_model_ndevs(m); i++) {
		const struct swc_dev *d = swapclust_model_dev(m, i);
		struct finding *f;

		if (!d->free_known || d->detail_lost || !d->zero_count)
			continue;
		f = add(fs, r, FSEV_WARNING, d->zero_count, "times");
		f->device = d->type;
		summary(f, "swap %d: free clusters ran out %llu time%s", d->type,
			ULL(d->zero_count), d->zero_count == 1 ? "" : "s");
		f->has_t_start = 1;
		f->t_start_ns = rel_ns(a, d->zero_ts[0]);
		f->t_start = rel_s(a, d->zero_ts[0]);
		if (d->zero_count <= SWC_NZERO_TS) {	/* else the last is not kept */
			f->has_t_end = 1;
			f->t_end_ns = rel_ns(a, d->zero_ts[d->zero_count - 1]);
			f->t_end = rel_s(a, d->zero_ts[d->zero_count - 1]);
		}
		evidence(f, "swap probes (cluster moves, allocs, frees)", "swap",
			 "free clusters fewest %u, now %u of %d", d->free_min, d->n[SWC_FREE],
			 d->nclusters);
		evidence(f, "swap probes", "swap", "device %s", d->name[0] ? d->name : "?");
		mechanism(f, "every cluster of the device was in use or on a nonfull/frag "
			  "list: order>0 swap-outs find no free cluster and fall back, and "
			  "order-0 ones scan partly used clusters");
	}
}

/* ---- swap-free-scattered ---- */

static void rule_free_scattered(const struct analysis *a, const struct finding_rule *r,
				struct findings *fs)
{
	const struct swapclust_model *m = analysis_swapclust(a);
	uint64_t pairs, dev, cl, unk, sw, t0, t1;
	struct finding *f;
	double p;

	swapclust_model_free_scatter(m, &pairs, &dev, &cl, &unk);
	sw = dev + cl;
	if (!sw)
		return;
	p = pct(sw, pairs);
	f = add(fs, r, p >= FIND_SCATTER_WARN_PCT ? FSEV_WARNING : FSEV_INFO, sw, "switches");
	summary(f, "%llu of %llu task frees moved cluster (%.0f%%)", ULL(sw), ULL(pairs), p);
	swapclust_model_free_scatter_times(m, &t0, &t1);
	if (t0)
		times(a, f, t0, t1);
	evidence(f, "swap probe of the free path (type, offset or cluster)", "swap",
		 "%llu to another device, %llu to another cluster of %d slots",
		 ULL(dev), ULL(cl), swapclust_model_cluster_size(m));
	if (unk)
		evidence(f, "swap probe of the free path", "swap",
			 "%llu pairs not placed (cluster not given)", ULL(unk));
	mechanism(f, "a task freed swap entries one by one across clusters or "
		  "devices, dropping and retaking the cluster (and device) lock at "
		  "each switch, where entries sorted before the free take it once");
}

/* ---- handoff-missing, kcompactd-asleep-stalls ---- */

static void rule_handoff_missing(const struct analysis *a, const struct finding_rule *r,
				 struct findings *fs)
{
	const struct handoff_model *hm = analysis_handoff(a);

	if (!has_kswapd(a))
		return;
	for (int i = 0; i < handoff_model_nnodes(hm); i++) {
		const struct handoff_node_stats *n = handoff_model_node(hm, i);
		uint64_t needed = n->ho_none + n->ho_wakeup + n->ho_pickup, first = 0, last = 0;
		int maxo = -1, seen = 0;
		struct finding *f;
		double p;

		if (!n->ho_none)
			continue;
		p = pct(n->ho_none, needed);
		f = add(fs, r, p >= FIND_HANDOFF_WARN_PCT ? FSEV_WARNING : FSEV_INFO,
			n->ho_none, "episodes");
		f->node = n->nid;
		for (int e = 0; e < handoff_model_nepisodes(hm, i); e++) {
			const struct kswapd_episode *ep = handoff_model_episode(hm, i, e);

			if (ep->handoff != HO_NONE)
				continue;
			if (!seen++)
				first = ep->start;
			last = ep->end;
			if (ep->order > maxo)
				maxo = ep->order;
		}
		if (seen == (int)n->ho_none && !n->dropped_episodes) {
			times(a, f, first, last);
			f->order = maxo;
		}
		summary(f, "node %d: %llu of %llu kswapd sleeps, no kcompactd", n->nid,
			ULL(n->ho_none), ULL(needed));
		evidence(f, "mm_vmscan_kswapd_wake/sleep, mm_compaction_wakeup_kcompactd",
			 "handoff", "handoff none %llu, wakeup %llu, pickup %llu",
			 ULL(n->ho_none), ULL(n->ho_wakeup), ULL(n->ho_pickup));
		if (maxo >= 0)
			evidence(f, "mm_vmscan_wakeup_kswapd", "handoff",
				 "highest order asked of kswapd in them %d", maxo);
		if (has_stall_entries(a))
			evidence(f, "mm_vmscan_direct_reclaim_begin, mm_compaction_try_to_compact_pages",
				 "handoff", "%llu direct stalls while kcompactd slept",
				 ULL(n->stalls_kc_asleep));
		mechanism(f, "kswapd was woken for order>0 allocations and went to sleep "
			  "without waking kcompactd (nor kcompactd picking the request up "
			  "within the pickup window), so high-order requests are left to "
			  "direct compaction");
	}
}

static void rule_kc_asleep_stalls(const struct analysis *a, const struct finding_rule *r,
				  struct findings *fs)
{
	const struct handoff_model *hm = analysis_handoff(a);

	if (!has_stall_entries(a) || !analysis_traced(a, REC_KCOMPACTD_WAKE, -1))
		return;
	for (int i = 0; i < handoff_model_nnodes(hm); i++) {
		const struct handoff_node_stats *n = handoff_model_node(hm, i);
		struct finding *f;

		if (!n->stalls_kc_asleep)
			continue;
		f = add(fs, r, n->stalls_kc_asleep >= FIND_KC_STALLS_WARN ? FSEV_WARNING :
			FSEV_INFO, n->stalls_kc_asleep, "stalls");
		f->node = n->nid;
		summary(f, "node %d: %llu direct stalls, kcompactd asleep", n->nid,
			ULL(n->stalls_kc_asleep));
		evidence(f, "mm_vmscan_direct_reclaim_begin, mm_compaction_try_to_compact_pages, "
			 "mm_compaction_kcompactd_sleep", "handoff",
			 "%llu stall entries while kcompactd slept", ULL(n->stalls_kc_asleep));
		/* its runs are counted from compaction_begin/end: without
		 * them unknown, not 0 */
		if (has_compaction(a))
			evidence(f, "mm_compaction_kcompactd_wake, mm_compaction_begin/end",
				 "handoff", "kcompactd woken %llu, pickups %llu, %llu runs",
				 ULL(n->kc_woken), ULL(n->kc_pickup), ULL(n->kc_runs));
		else
			evidence(f, "mm_compaction_kcompactd_wake", "handoff",
				 "kcompactd woken %llu, pickups %llu, runs - (compaction "
				 "%s)", ULL(n->kc_woken), ULL(n->kc_pickup),
				 analysis_untraced_word(a, REC_COMPACT_BEGIN, -1));
		mechanism(f, "allocating tasks entered direct reclaim or compaction while "
			  "the node's kcompactd slept: nobody compacted in the background "
			  "ahead of them");
	}
}

/* ---- direct-reclaim-stalls, memcg-reclaim-stalls ---- */

/* The cgroup whose tasks stalled longest in memcg reclaim, where the
 * recording holds the tasks' cgroups (the cgroups section's row). */
static void stall_cgroup(const struct analysis *a, struct finding *f)
{
	const struct cgroups_model *cm = analysis_model(a, &cgroups_model_ops);
	const struct cgroups_row *best = NULL;

	for (int i = 0; i < cgroups_model_nrows(cm); i++) {
		const struct cgroups_row *row = cgroups_model_row(cm, i);

		/* the section's figures (a part's cut stalls too) */
		if (row->id >= 0 && cgroups_row_stalls(row, RK_MEMCG) &&
		    (!best || cgroups_row_stall_ns(row, RK_MEMCG) >
			      cgroups_row_stall_ns(best, RK_MEMCG)))
			best = row;
	}
	if (best)
		evidence(f, "the tasks' memory cgroups (record -g tasks)", "cgroups",
			 "cgroup %s: %llu stalls, %.3f ms", cgmap_path(analysis_cgmap(a), best->id),
			 ULL(cgroups_row_stalls(best, RK_MEMCG)),
			 (double)cgroups_row_stall_ns(best, RK_MEMCG) / 1e6);
}

static void stall_rule(const struct analysis *a, const struct finding_rule *r,
		       struct findings *fs, enum reclaim_kind k, enum stack_kind sk)
{
	const struct reclaim_model *rm = analysis_reclaim(a);
	const struct reclaim_kind_stats *ks = reclaim_model_kind(rm, k);
	const struct stacks_model *sm = analysis_model(a, &stacks_model_ops);
	uint64_t p99;
	struct reclaim_task t[32];
	enum finding_severity sev;
	struct finding *f;
	int nt;

	if (!analysis_traced(a, REC_RECLAIM_BEGIN, k) || !ks->lat.count)
		return;
	p99 = hist_percentile(&ks->lat, 99);
	sev = ks->lat.max >= (uint64_t)FIND_STALL_CRIT_MS * 1000000 ? FSEV_CRITICAL :
	      p99 >= (uint64_t)FIND_STALL_WARN_MS * 1000000 ? FSEV_WARNING : FSEV_INFO;
	/* the stalls section's count (a part's cut stalls in it too) */
	f = add(fs, r, sev, reclaim_stalls(ks), "stalls");
	summary(f, "%llu stalls, p99 %.1f ms, max %.1f ms", ULL(reclaim_stalls(ks)),
		(double)p99 / 1e6, (double)ks->lat.max / 1e6);
	if (ks->last_end)	/* the first begin to the last end */
		times(a, f, ks->first_begin, ks->last_end);
	evidence(f, k == RK_DIRECT ? "mm_vmscan_direct_reclaim_begin/end" :
		 "mm_vmscan_memcg_reclaim_begin/end", "stalls",
		 "p99 %.3f ms, max %.3f ms, total %.3f s", (double)p99 / 1e6,
		 (double)ks->lat.max / 1e6, (double)reclaim_stall_ns(ks) / 1e9);
	if (!not_measured(a, "pages reclaimed per reclaim"))
		evidence(f, "nr_reclaimed of the end events", "stalls", "%llu pages reclaimed",
			 ULL(ks->nr_reclaimed));
	nt = reclaim_model_top_tasks(rm, t, 32);
	for (int i = 0; i < nt; i++) {
		if (t[i].kind != k)
			continue;
		snprintf(f->task, sizeof(f->task), "%s %d", t[i].comm[0] ? t[i].comm : "?",
			 t[i].pid);
		evidence(f, "reclaim begin/end per task", "stalls",
			 "top task %s: %llu stalls, %.3f ms", f->task, ULL(t[i].count),
			 (double)t[i].total_ns / 1e6);
		break;
	}
	if (k == RK_MEMCG)
		stall_cgroup(a, f);
	if (sm) {
		const struct kstack *st;

		if (stacks_model_top(sm, sk, &st, 1) == 1) {
			int fr = kstack_first_frame(st);

			char chain[96] = "";
			size_t at = 0;

			/* the stall's function and its first two callers */
			for (int i = fr; i >= 0 && i < st->nframes && i < fr + 3 &&
			     at < sizeof(chain); i++)
				at += (size_t)snprintf(chain + at, sizeof(chain) - at, "%s%s",
						       i > fr ? " < " : "",
						       st->func[i] ? st->func[i] : "?");
			if (chain[0])
				evidence(f, "ftrace:kernel_stack (record -T)", "stacks",
					 "longest stall's stack: %s", chain);
		}
	}
	if (k == RK_DIRECT)
		mechanism(f, "allocations below the min watermark reclaimed pages "
			  "themselves (try_to_free_pages) and waited for it");
	else
		mechanism(f, "charges over memory.high/max reclaimed from their cgroup "
			  "(try_to_free_mem_cgroup_pages) and waited for it");
}

static void rule_direct_stalls(const struct analysis *a, const struct finding_rule *r,
			       struct findings *fs)
{
	stall_rule(a, r, fs, RK_DIRECT, SK_DIRECT_RECLAIM);
}

static void rule_memcg_stalls(const struct analysis *a, const struct finding_rule *r,
			      struct findings *fs)
{
	stall_rule(a, r, fs, RK_MEMCG, SK_MEMCG_RECLAIM);
}

/* ---- compaction-failing ---- */

static void rule_compaction_failing(const struct analysis *a, const struct finding_rule *r,
				    struct findings *fs)
{
	const struct compact_stats *cs = compaction_model_stats(analysis_compaction(a));
	const struct compact_runner_stats *d = &cs->runner[CR_DIRECT];
	uint64_t failed = d->runs - d->status[8];	/* 8: COMPACT_SUCCESS */
	struct finding *f;
	double p;

	if (!has_compaction(a) || d->runs < FIND_COMPACT_MIN_RUNS)
		return;
	p = pct(failed, d->runs);
	if (p < FIND_COMPACT_FAIL_PCT)
		return;
	f = add(fs, r, FSEV_WARNING, failed, "runs");
	summary(f, "%llu of %llu direct runs failed (%.0f%%)", ULL(failed), ULL(d->runs), p);
	evidence(f, "mm_compaction_begin/end (status)", "compaction",
		 "direct: success %llu, complete %llu, other %llu", ULL(d->status[8]),
		 ULL(d->status[5]), ULL(d->runs - d->status[8] - d->status[5]));
	evidence(f, "mm_compaction_deferred, mm_compaction_defer_compaction", "compaction",
		 "deferred %llu, defer_compaction %llu", ULL(cs->deferred),
		 ULL(cs->defer_compaction));
	mechanism(f, "direct compaction scanned the zone without producing a free "
		  "block of the order asked, and the allocator backs off "
		  "(defer_compaction) or falls back");
}

/* ---- memcg-scan-rounding ---- */

/* The kernel release of the recording as major * 100 + minor; 0 when
 * unreadable. */
static int kernel_version(const struct analysis *a)
{
	int maj = 0, min = 0;

	if (sscanf(analysis_info(a)->kernel, "%d.%d", &maj, &min) != 2)
		return 0;
	return maj * 100 + min;
}

const char *reclaim_passes_unknown(const struct analysis *a)
{
	const struct run_model *rm = analysis_model(a, &run_model_ops);
	const char *lg = rm ? run_model_value(rm, "lru_gen.enabled") : NULL;
	int kv = kernel_version(a);

	if (!analysis_traced(a, REC_RECLAIM_BEGIN, RK_MEMCG))
		return "no memcg reclaim begin/end";
	if (!analysis_traced(a, REC_SHRINK_INACTIVE, -1) ||
	    !analysis_traced(a, REC_LRU_ISOLATE, -1))
		return "no lru_isolate/lru_shrink_inactive";
	if (not_measured(a, "reclaim efficiency"))
		return "lru_shrink_inactive lacks a field";
	/* MGLRU emits the legacy LRU events only from 6.7 on ("mm:
	 * multi-gen LRU: reuse some legacy trace events", autumn 2023;
	 * the release read from the patch's date, not from a tree):
	 * before, a pass under MGLRU shows no scan at all. A recording
	 * without lru_gen/enabled (no run context) is taken as classic */
	if (lg && *lg && strtol(lg, NULL, 0) && kv && kv < 607)
		return "MGLRU before 6.7: no LRU events";
	return NULL;
}

static void rule_memcg_rounding(const struct analysis *a, const struct finding_rule *r,
				struct findings *fs)
{
	const struct reclaim_kind_stats *ks = reclaim_model_kind(analysis_reclaim(a), RK_MEMCG);
	uint64_t esc = reclaim_passes_escalated(ks), all = reclaim_passes(ks);
	uint64_t known = all - ks->pass_unknown - ks->pass_none;
	char firsts[160] = "";
	size_t at = 0;
	struct finding *f;

	if (!esc)
		return;
	f = add(fs, r, esc >= FIND_ROUNDING_MIN_PASSES &&
		pct(esc, known) >= FIND_ROUNDING_WARN_PCT ? FSEV_WARNING : FSEV_INFO,
		esc, "passes");
	summary(f, "%llu of %llu passes scanned 0 at prio %d", ULL(esc), ULL(all),
		RECLAIM_DEF_PRIORITY);
	if (ks->esc_first_ts)
		times(a, f, ks->esc_first_ts, ks->esc_last_ts);
	for (int p = RECLAIM_NPRIO - 1; p >= 0 && at < sizeof(firsts); p--)
		if (ks->pass_first[p])
			at += (size_t)snprintf(firsts + at, sizeof(firsts) - at, "%s%d: %llu",
					       at ? ", " : "", p, ULL(ks->pass_first[p]));
	evidence(f, "mm_vmscan_memcg_reclaim_begin/end, lru_isolate, "
		 "lru_shrink_inactive/active (priority)", "stalls",
		 "passes by first priority that scanned: %s", firsts);
	evidence(f, "mm_vmscan_memcg_reclaim_begin/end", "stalls",
		 "%llu passes: %llu escalated, %llu scanned nothing, %llu not known",
		 ULL(all), ULL(esc), ULL(ks->pass_none), ULL(ks->pass_unknown));
	mechanism(f, "the cgroup's LRU lists were small: get_scan_count's target "
		  "(lruvec size >> priority) rounded down to 0 at the first "
		  "priorities, so reclaim scanned nothing there and escalated");
}

/* ---- zswap-writeback, zswap-reject ---- */

/* The sample interval in which counter k first and last rose. */
static void zswap_times(const struct analysis *a, const struct zswap_model *m,
			enum zsw_rise k, struct finding *f)
{
	uint64_t from, to;

	if (!zswap_model_rise(m, k, &from, &to))
		times(a, f, from, to);
}

static void rule_zswap_writeback(const struct analysis *a, const struct finding_rule *r,
				 struct findings *fs)
{
	const struct zswap_model *m = analysis_zswap(a);
	int n = zswap_model_npoints(m);
	const struct zsw_point *fp = zswap_model_point(m, 0), *lp = zswap_model_point(m, n - 1);
	const struct zsw_counter *dc = zswap_model_counter(m, "written_back_pages");
	uint64_t wb;
	int64_t stored = -1;
	struct finding *f;

	if (n && fp->zswpwb >= 0 && lp->zswpwb >= 0) {
		if (lp->zswpwb <= fp->zswpwb)
			return;
		wb = (uint64_t)(lp->zswpwb - fp->zswpwb);
		if (fp->zswpout >= 0 && lp->zswpout >= 0)
			stored = lp->zswpout - fp->zswpout;
	} else if (dc && dc->seen && dc->first >= 0 && dc->last >= 0) {
		/* before 5.19: debugfs written_back_pages, exact on every kernel */
		if (dc->last <= dc->first)
			return;
		wb = (uint64_t)(dc->last - dc->first);
		if (zswap_model_has_probes(m))
			stored = (int64_t)zswap_model_probe_ok(m, ZSWAP_OP_STORE);
	} else if (zswap_model_has_probes(m) && zswap_model_probe_ok(m, ZSWAP_OP_WB) &&
		   !analysis_zswap_wb_upper_bound(a)) {
		/* 5.10/6.1's probe counts freed entries too: no count from it */
		wb = zswap_model_probe_ok(m, ZSWAP_OP_WB);
		stored = (int64_t)zswap_model_probe_ok(m, ZSWAP_OP_STORE);
	} else {
		return;
	}
	f = add(fs, r, stored > 0 && pct(wb, (uint64_t)stored) >= FIND_ZSWAP_WB_WARN_PCT ?
		FSEV_WARNING : FSEV_INFO, wb, "pages");
	if (stored >= 0)
		summary(f, "%llu pages written back of %lld stored", ULL(wb), (long long)stored);
	else
		summary(f, "%llu pages written back to swap", ULL(wb));
	if (n && fp->zswpwb >= 0) {
		evidence(f, "vmstat zswpwb", "zswap", "zswpwb +%llu", ULL(wb));
		if (stored >= 0)
			evidence(f, "vmstat zswpout", "zswap", "zswpout %+lld", (long long)stored);
		if (lp->pswpout >= 0 && fp->pswpout >= 0)
			evidence(f, "vmstat pswpout", "zswap", "pswpout %+lld",
				 (long long)(lp->pswpout - fp->pswpout));
		zswap_times(a, m, ZSW_RISE_ZSWPWB, f);
	} else if (dc && dc->seen && dc->first >= 0 && dc->last >= 0) {
		evidence(f, "zswap debugfs", "zswap", "written_back_pages +%llu", ULL(wb));
		if (stored >= 0)
			evidence(f, "zswap store probe", "zswap", "stores %lld ok",
				 (long long)stored);
		zswap_times(a, m, ZSW_RISE_WRITTEN_BACK, f);
	} else {
		evidence(f, "zswap writeback probe", "zswap", "writebacks %llu ok",
			 ULL(wb));
	}
	mechanism(f, "the zswap shrinker or the pool limit evicted compressed pages "
		  "to the swap device: swap I/O on top of the compression work");
}

static void rule_zswap_reject(const struct analysis *a, const struct finding_rule *r,
			      struct findings *fs)
{
	const struct zswap_model *m = analysis_zswap(a);
	int n = zswap_model_npoints(m), k = 0;
	const struct zsw_point *fp = zswap_model_point(m, 0), *lp = zswap_model_point(m, n - 1);
	const struct zsw_counter *lh = zswap_model_counter(m, "pool_limit_hit");
	int64_t hits = lh && lh->seen && lh->last > lh->first ? lh->last - lh->first : 0;
	struct zswap_refusal z;
	struct finding *f;
	double p = -1;

	if (zswap_model_refusals(m, &z) || z.refused <= 0)
		return;
	if (z.tries > 0)
		p = pct((uint64_t)z.refused, (uint64_t)z.tries);
	f = add(fs, r, p >= FIND_ZSWAP_REJ_WARN_PCT ? FSEV_WARNING : FSEV_INFO,
		(uint64_t)z.refused, "stores");
	if (p >= 0)
		summary(f, "%lld of %lld stores refused (%.1f%%)%s", (long long)z.refused,
			(long long)z.tries, p, hits ? ", at the pool limit" : "");
	else
		summary(f, "%lld stores rejected (share unknown: no zswpout)%s",
			(long long)z.refused, hits ? ", at the pool limit" : "");
	if (!strcmp(z.source, "probe"))
		evidence(f, "zswap store probe", "zswap", "%lld stores, %lld not stored",
			 (long long)z.tries, (long long)z.refused);
	else if (!strcmp(z.source, "vmstat"))
		evidence(f, "vmstat", "zswap", "pswpout %+lld - zswpwb %+lld refused, "
			 "zswpout %+lld stored", (long long)(lp->pswpout - fp->pswpout),
			 (long long)(lp->zswpwb - fp->zswpwb),
			 (long long)(lp->zswpout - fp->zswpout));
	if (hits)
		evidence(f, "zswap debugfs", "zswap", "pool_limit_hit %+lld", (long long)hits);
	for (int i = 0; i < zswap_model_nrejects(m) && k < FINDING_MAX_EVIDENCE - 2; i++) {
		const struct zsw_counter *c = zswap_model_reject(m, i);

		if (c->last == c->first)
			continue;
		evidence(f, "zswap debugfs", "zswap", "%s %+lld", c->key,
			 (long long)(c->last - c->first));
		k++;
	}
	if (!strcmp(z.source, "debugfs"))
		zswap_times(a, m, ZSW_RISE_REJECTS, f);
	else if (fp && fp->pswpout >= 0)	/* no sample sets: the probe alone */
		zswap_times(a, m, ZSW_RISE_PSWPOUT, f);
	mechanism(f, "%s", hits ?
		  "the compressed pool reached max_pool_percent: zswap refused stores "
		  "(and, until it shrank below the accept threshold, took none), so "
		  "those pages went to the swap device uncompressed" :
		  "zswap refused stores (compression or allocation failure, or a "
		  "page it would not take): those pages went to the swap device "
		  "uncompressed");
}

/* ---- oom-kill ---- */

static void rule_oom(const struct analysis *a, const struct finding_rule *r,
		     struct findings *fs)
{
	const struct oom_model *m = analysis_model(a, &oom_model_ops);
	int n = m ? oom_model_nkills(m) : 0;
	const struct oom_kill *k0;
	const char *cn;
	struct finding *f;
	struct kill_dossier d;
	char head[256];
	int have_d;

	if (!n)
		return;
	k0 = oom_model_kill(m, 0);
	cn = oom_constraint_name(k0->constraint);
	f = add(fs, r, FSEV_CRITICAL, (uint64_t)n, "kills");
	times(a, f, k0->ts, oom_model_kill(m, n - 1)->ts);
	if (k0->pid >= 0)
		snprintf(f->task, sizeof(f->task), "%s %d", *k0->comm ? k0->comm : "-", k0->pid);
	else
		snprintf(f->task, sizeof(f->task), "%s", *k0->comm ? k0->comm : "-");
	have_d = !kill_dossier_of(a, k0, &d);
	summary(f, "%d kill%s, first %s by %s (%s%s)", n, n == 1 ? "" : "s", f->task,
		have_d ? d.killer : "the OOM killer", cn ? cn : "constraint unknown",
		cn ? "*" : "");
	for (int i = 0; i < n && i < 3; i++) {
		const struct oom_kill *k = oom_model_kill(m, i);
		const char *c = oom_constraint_name(k->constraint);

		evidence(f, "oom:mark_victim", "oom", "%.3f s %s %d anon-rss %lld kB, %s%s",
			 rel_s(a, k->ts), *k->comm ? k->comm : "-", k->pid,
			 (long long)k->anon_rss_kb, c ? c : "constraint unknown", c ? "*" : "");
	}
	if (have_d && *kill_dossier_headline(&d, head, (int)sizeof(head)))
		evidence(f, "the window before the first kill", "kills", "%g s before: %s",
			 (double)d.window_ns / 1e9, head);
	if (k0->cgroup > 0)
		evidence(f, "the tasks' memory cgroups (record -g tasks)", "cgroups",
			 "first victim's cgroup %s",
			 cgmap_path(analysis_cgmap(a), k0->cgroup - 1));
	mechanism(f, "%s", cn && !strcmp(cn, "memcg") ?
		  "a cgroup's charge could not be reclaimed below its limit, so the "
		  "memcg OOM killer chose a victim in it" :
		  "reclaim and compaction could not satisfy an allocation, so the OOM "
		  "killer chose a victim");
}

/* ---- data-loss ---- */

static void rule_data_loss(const struct analysis *a, const struct finding_rule *r,
			   struct findings *fs)
{
	const struct analysis_info *in = analysis_info(a);
	struct finding *f;

	if (in->lost > 0 || in->lost_unknown) {
		f = add(fs, r, FSEV_WARNING, (uint64_t)(in->lost > 0 ? in->lost : 0), "events");
		summary(f, "%lld events lost%s", in->lost,
			in->lost_unknown ? " and some uncounted" : "");
		evidence(f, "ring buffer missed-events markers", "header", "lost %lld%s",
			 in->lost, in->lost_unknown ? " (and some uncounted)" : "");
		mechanism(f, "the ring buffer filled faster than it was read: every "
			  "event-derived figure is low by up to that (record --buffer-kb, "
			  "fewer groups)");
	} else if (in->cpustat_lost) {
		/* the ring's own count (overrun, dropped) when the pages carry
		 * no missed-events marker: the same loss seen from the stats */
		f = add(fs, r, FSEV_WARNING, in->cpustat_lost, "overruns");
		summary(f, "%llu events overrun/dropped in the ring",
			ULL(in->cpustat_lost));
		evidence(f, "per-CPU ring stats (overrun, dropped)", "header",
			 "%llu overrun/dropped in stats, 0 lost in the pages",
			 ULL(in->cpustat_lost));
		mechanism(f, "the ring buffer filled faster than it was read and the "
			  "kernel overwrote or dropped events: event-derived figures "
			  "are low by up to that (record --buffer-kb, fewer events)");
	}
	if (in->has_probes && in->probe_missed > 0) {
		f = add(fs, r, FSEV_WARNING, (uint64_t)in->probe_missed, "probe hits");
		summary(f, "%lld probe hits missed", in->probe_missed);
		evidence(f, "kprobe_profile", "header", "probes %lld hits missed",
			 in->probe_missed);
		mechanism(f, "kprobes or kretprobes ran out of instances or nested: the "
			  "figures they feed (swap, zswap) are low by up to that");
	}
	if (in->has_samples && in->sample_gaps) {
		f = add(fs, r, FSEV_WARNING, in->sample_gaps, "sample sets");
		summary(f, "%llu counter sample sets lost", ULL(in->sample_gaps));
		evidence(f, "mms1 sample lines (ftrace:print)", "header", "samples %llu sets, "
			 "%llu lost", ULL(in->sample_sets), ULL(in->sample_gaps));
		mechanism(f, "sample lines were dropped from the ring with other events: "
			  "counter deltas span the gap and series have holes");
	}
}

/* ---- what each rule needs ---- */

static int probes_swap(const struct analysis *a)
{
	return swapclust_model_has_probes(analysis_swapclust(a)) || analysis_probes_swap(a) == 1;
}

static int can_free_scattered(const struct analysis *a)
{
	uint64_t pairs, dev, cl, unk;

	/* 7.x sets whose free gives the slot in its cluster only: no pair
	 * can be placed, so nothing can be told */
	swapclust_model_free_scatter(analysis_swapclust(a), &pairs, &dev, &cl, &unk);
	return probes_swap(a) && (pairs || !unk);
}

static int can_oom(const struct analysis *a)
{
	const struct oom_model *m = analysis_model(a, &oom_model_ops);

	return m && (oom_model_seen(m) || analysis_event_enabled(a, "oom", "mark_victim"));
}

static int can_always(const struct analysis *a)
{
	(void)a;
	return 1;
}

static int can_mthp(const struct analysis *a)
{
	const struct swapclust_model *m = analysis_swapclust(a);

	for (int o = 1; o < SWC_NORDERS; o++)
		if (swapclust_model_order(m, o)->has_counters)
			return 1;
	return probes_swap(a);
}

static int can_mthp_split_config(const struct analysis *a)
{
	return can_mthp(a) && analysis_info(a)->thp_swap >= 0;
}

static int can_kc_stalls(const struct analysis *a)
{
	return has_stall_entries(a) && analysis_traced(a, REC_KCOMPACTD_WAKE, -1);
}

static int can_direct(const struct analysis *a)
{
	return analysis_traced(a, REC_RECLAIM_BEGIN, RK_DIRECT);
}

static int can_memcg(const struct analysis *a)
{
	return analysis_traced(a, REC_RECLAIM_BEGIN, RK_MEMCG);
}

static int can_memcg_rounding(const struct analysis *a)
{
	return reclaim_passes_unknown(a) == NULL;
}

static int can_zswap_wb(const struct analysis *a)
{
	const struct zswap_model *m = analysis_zswap(a);
	const struct zsw_point *p = zswap_model_point(m, 0);

	return (p && p->zswpwb >= 0) || zswap_model_has_probes(m);
}

static int can_zswap_rej(const struct analysis *a)
{
	struct zswap_refusal z;

	return !zswap_model_refusals(analysis_zswap(a), &z);
}

const struct finding_rule finding_rules[] = {
	{ "oom-kill", "oom:mark_victim (-g oom)", "oom", can_oom, rule_oom },
	{ "data-loss", "nothing: the header's counts", "header", can_always, rule_data_loss },
	{ "mthp-fallback", "mTHP counters (samples) or swap probes", "swap", can_mthp,
	  rule_mthp_fallback },
	{ "mthp-split-config", "mTHP counters (samples) or swap probes, and whether the "
	  "kernel has THP_SWAP (run context, cluster size or machine)", "swap",
	  can_mthp_split_config, rule_mthp_split_config },
	{ "swap-cluster-exhausted", "swap probes", "swap", probes_swap,
	  rule_cluster_exhausted },
	{ "swap-free-scattered", "swap probes whose free names the cluster "
	  "(offset, entry or cluster pointer)", "swap", can_free_scattered,
	  rule_free_scattered },
	{ "handoff-missing", "kswapd wake and sleep (-g kswapd)", "handoff", has_kswapd,
	  rule_handoff_missing },
	{ "kcompactd-asleep-stalls", "direct reclaim or compaction entries, kcompactd "
	  "wakes (-g reclaim -g compaction)", "handoff", can_kc_stalls, rule_kc_asleep_stalls },
	{ "direct-reclaim-stalls", "direct reclaim begin/end (-g reclaim)", "stalls",
	  can_direct, rule_direct_stalls },
	{ "memcg-reclaim-stalls", "memcg reclaim begin/end (-g reclaim)", "stalls",
	  can_memcg, rule_memcg_stalls },
	{ "compaction-failing", "compaction begin/end (-g compaction)", "compaction",
	  has_compaction, rule_compaction_failing },
	{ "memcg-scan-rounding", "memcg reclaim begin/end, lru_isolate and "
	  "lru_shrink_inactive with priority (-g reclaim; MGLRU: 6.7 on)", "stalls",
	  can_memcg_rounding, rule_memcg_rounding },
	{ "zswap-writeback", "vmstat zswpwb (samples) or the zswap probes", "zswap",
	  can_zswap_wb, rule_zswap_writeback },
	{ "zswap-reject", "the zswap store probe or zswap counters (samples)", "zswap",
	  can_zswap_rej, rule_zswap_reject },
};
const int finding_nrules = (int)(sizeof(finding_rules) / sizeof(finding_rules[0]));

static int by_severity(const void *x, const void *y)
{
	const struct finding *a = x, *b = y;

	if (a->severity != b->severity)
		return a->severity > b->severity ? -1 : 1;
	if (a->rule != b->rule)
		return a->rule < b->rule ? -1 : 1;
	/* the same rule: its own order (node, order, device) */
	return a < b ? -1 : a > b;
}

struct findings *findings_build(const struct analysis *a)
{
	struct findings *fs = xcalloc(1, sizeof(*fs));
	int n;

	for (int i = 0; i < finding_nrules; i++)
		if (finding_rules[i].can(a))
			finding_rules[i].eval(a, &finding_rules[i], fs);
	n = fs->n;
	if (n > 1) {
		/* stable: qsort is not, so sort (severity, rule, index) keys */
		struct finding *tmp = xreallocarray(NULL, (size_t)n, sizeof(*tmp));
		int *idx = xreallocarray(NULL, (size_t)n, sizeof(*idx));

		for (int i = 0; i < n; i++)
			idx[i] = i;
		for (int i = 1; i < n; i++)	/* insertion sort: few findings */
			for (int j = i; j > 0 && by_severity(&fs->f[idx[j - 1]], &fs->f[idx[j]]) > 0; j--) {
				int t = idx[j];

				idx[j] = idx[j - 1];
				idx[j - 1] = t;
			}
		for (int i = 0; i < n; i++)
			tmp[i] = fs->f[idx[i]];
		memcpy(fs->f, tmp, (size_t)n * sizeof(*tmp));
		free(tmp);
		free(idx);
	}
	return fs;
}

void findings_free(struct findings *fs)
{
	if (!fs)
		return;
	free(fs->f);
	free(fs);
}

int findings_unevaluated(const struct analysis *a, int *out, int max)
{
	int n = 0;

	for (int i = 0; i < finding_nrules; i++)
		if (!finding_rules[i].can(a)) {
			if (n < max)
				out[n] = i;
			n++;
		}
	return n;
}
