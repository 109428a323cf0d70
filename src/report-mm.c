// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Text sections over the event models: handoffs per node (counts, an
 * episode table with the handoff, watermarks and flags of each kswapd
 * episode, and a one-line timeline), reclaim stalls (latency percentiles
 * and log2 histogram per kind, efficiency per priority and LRU, top
 * tasks) and compaction (runs by runner, results, scanners, deferrals,
 * extfrag fallbacks).
 */
#include "config.h"
#include "model-frag.h"
#include "report.h"
#include "findings.h"
#include "cgmap.h"
#include "report-cgroups.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ULL(x) ((unsigned long long)(x))

static double ms(uint64_t ns)
{
	return (double)ns / 1e6;
}

/* The highest order kswapd was asked for on this node, or the pageblock
 * order of the recording's page size (9 on 4 KB, 11 on 16 KB, 13 on
 * 64 KB pages: the frag model's). */
static int handoff_max_order(struct report_ctx *rc, const struct handoff_node_stats *n)
{
	for (int o = REC_MAX_ORDERS - 1; o > 0; o--)
		if (n->wakeup_kswapd_by_order[o])
			return o;
	return frag_model_hi_order(analysis_frag(rc->a));
}

/* One snapshot: its time, zone, free pages and the watermarks in force
 * then (hotplug changes them, and which zone is the main one). */
static void handoff_wmark_row(struct report_ctx *rc, const char *what, const struct wmark_snap *w)
{
	report_line(rc, "%-11s %7.3f %-7.7s %8lld %7lld %7lld %7lld %s", what,
		    report_rel_s(rc, w->ts), w->zone, (long long)w->free, (long long)w->min,
		    (long long)w->low, (long long)w->high, wmark_state_name(w->state));
}

/* Which zone the rows are of (the rule of wmark_zone_closer, which the
 * TUI and plot follow too), managed pages that moved, and the changes
 * of the zone shown between sets. */
static void handoff_hotplug(struct report_ctx *rc, const struct handoff_node_stats *n)
{
	uint32_t nz = n->zone_changes < HANDOFF_MAX_ZCHG ? n->zone_changes : HANDOFF_MAX_ZCHG;

	if (n->zones > 1)
		report_line(rc, "zone        of the node's %d, the one closest to its high "
			    "watermark", n->zones);
	if (n->managed_changes)
		report_line(rc, "hotplug     node managed pages %lld -> %lld (moved %u "
			    "time%s)", (long long)n->managed_first,
			    (long long)n->managed_last, n->managed_changes,
			    plural(n->managed_changes));
	for (uint32_t i = 0; i < nz; i++)
		report_line(rc, "%-11s %s (%lld) -> %s (%lld) at %.3f s",
			    i ? "" : "zone shown", n->zchg[i].from,
			    (long long)n->zchg[i].from_managed, n->zchg[i].to,
			    (long long)n->zchg[i].to_managed, report_rel_s(rc, n->zchg[i].ts));
	if (n->zone_changes > nz)
		report_line(rc, "            (%u more changes of the zone shown)",
			    n->zone_changes - nz);
}

static void handoff_wmarks(struct report_ctx *rc, const struct handoff_node_stats *n)
{
	if (!n->has_wmarks) {
		/* zone lines of a set whose end never came (lost, or the
		 * recording cut) are not shown: the set may be partial */
		report_line(rc, n->zones ? "watermarks  no complete zone sample set" :
			    "watermarks  no zone samples");
		return;
	}
	report_line(rc, "%-11s %7s %-7s %8s %7s %7s %7s %s", "watermarks", "t s", "zone",
		    "free", "min", "low", "high", "state");
	handoff_wmark_row(rc, "  first", &n->wm_first);
	handoff_wmark_row(rc, "  lowest", &n->wm_lowest);
	handoff_wmark_row(rc, "  last", &n->wm_last);
	handoff_hotplug(rc, n);
	if (n->wm_last.norders) {
		int o = handoff_max_order(rc, n);

		report_line(rc, "blocks>=o%-2d first %lld, at lowest free %lld, last %lld "
			    "(buddyinfo)", o, (long long)wmark_blocks_from(&n->wm_first, o),
			    (long long)wmark_blocks_from(&n->wm_lowest, o),
			    (long long)wmark_blocks_from(&n->wm_last, o));
	}
	if (n->wm_last.free_blocks >= 0)
		report_line(rc, "free_blocks first %lld, last %lld (whole pageblocks, "
			    "defrag_mode)", (long long)n->wm_first.free_blocks,
			    (long long)n->wm_last.free_blocks);
}

/* Proactive compaction: kcompactd compacting outside its requests. */
static void handoff_proactive(struct report_ctx *rc, const struct handoff_node_stats *n)
{
	char line[192];

	if (!report_has_kc_proactive(rc)) {
		report_line(rc, "proactive   - (needs kcompactd_wake/sleep, compaction_begin/end)");
		return;
	}
	snprintf(line, sizeof(line), "%llu pass%s, %llu run%s, %.3f s (no "
		 "kcompactd_wake)", ULL(n->kc_pro_passes),
		 n->kc_pro_passes == 1 ? "" : "es", ULL(n->kc_pro_runs),
		 plural(n->kc_pro_runs),
		 (double)n->kc_pro_ns / 1e9);
	report_wrap(rc, "proactive   ", line);
	if (n->kc_runs_unclassified)
		report_line(rc, "            %llu kcompactd runs unclassified (lost events)",
			    ULL(n->kc_runs_unclassified));
}

static void handoff_counts(struct report_ctx *rc, const struct handoff_node_stats *n)
{
	char orders[160] = "";
	int off = 0;

	for (int o = 0; o < REC_MAX_ORDERS && off < (int)sizeof(orders) - 16; o++)
		if (n->wakeup_kswapd_by_order[o])
			off += snprintf(orders + off, sizeof(orders) - (size_t)off, " o%d:%llu",
					o, ULL(n->wakeup_kswapd_by_order[o]));
	if (report_has_kswapd(rc)) {
		/* episodes and the kswapd_wake events (episode starts and
		 * re-balances), which differ: both, each by its name */
		report_line(rc, "kswapd      %llu episode%s (%llu kswapd_wake event%s), "
			    "awake %.3f s", ULL(n->episodes), n->episodes == 1 ? "" : "s",
			    ULL(n->kswapd_wakes), n->kswapd_wakes == 1 ? "" : "s",
			    (double)handoff_awake_ns(n) / 1e9);
		if (n->kswapd_continued)	/* a part of a run */
			report_line(rc, "            and awake from the part before: slept "
				    "%.3f s into this one", (double)n->awake_continued_ns / 1e9);
		report_line(rc, "            wakeup_kswapd %llu%s", ULL(n->wakeup_kswapd), orders);
		report_line(rc, "handoff     wakeup %llu, pickup %llu, none %llu, not needed "
			    "%llu, open %llu", ULL(n->ho_wakeup), ULL(n->ho_pickup),
			    ULL(n->ho_none), ULL(n->ho_not_needed), ULL(n->ho_open));
	} else {
		report_line(rc, "kswapd      %s (mmscope record -g kswapd)",
			    analysis_untraced_word(rc->a, REC_KSWAPD_WAKE, -1));
	}
	if (report_has_kcompactd(rc)) {
		char runs[64] = "- runs";
		char line[192];

		if (report_has_compaction(rc))
			snprintf(runs, sizeof(runs), "%llu run%s (%llu success)",
				 ULL(n->kc_runs), plural(n->kc_runs), ULL(n->kc_runs_success));
		/* wakes by how they came; proactive compaction has none */
		report_line(rc, "kcompactd   %llu wake%s (woken %llu, pickup %llu, order<=0 "
			    "%llu), %llu sleep%s", ULL(n->kc_wakes), plural(n->kc_wakes),
			    ULL(n->kc_woken), ULL(n->kc_pickup), ULL(n->kc_proactive),
			    ULL(n->kc_sleeps), plural(n->kc_sleeps));
		snprintf(line, sizeof(line), "busy %.3f s, %s; "
			 "wakeup_kcompactd %llu", (double)n->kc_busy_ns / 1e9, runs,
			 ULL(n->kc_wakeups));
		report_wrap(rc, "            ", line);
		report_line(rc, "            (by kswapd %llu, by writes of vm.compaction_proactiveness %llu)",
			    ULL(n->kc_wakeups_kswapd), ULL(n->kc_wakeups_proactive));
		handoff_proactive(rc, n);
	} else if (analysis_traced(rc->a, REC_KCOMPACTD_SLEEP, -1)) {
		/* the sleeps are counted even where the wakes cannot be */
		report_line(rc, "kcompactd   wakes %s, %llu sleeps",
			    analysis_untraced_word(rc->a, REC_KCOMPACTD_WAKE, -1),
			    ULL(n->kc_sleeps));
		handoff_proactive(rc, n);
	} else {
		report_line(rc, "kcompactd   %s (mmscope record -g compaction)",
			    analysis_untraced_word(rc->a, REC_KCOMPACTD_WAKE, -1));
	}
	if (report_stall_entries(rc))
		report_line(rc, "stalls      %llu %s entries while kcompactd slept",
			    ULL(n->stalls_kc_asleep), report_stall_entries(rc));
	else
		report_line(rc, "stalls      - (no direct reclaim or compaction events "
			    "recorded)");
	if (report_has_kswapd(rc))
		report_line(rc, "flags       no-handoff %llu, long %llu, stall %llu, rewake "
			    "%llu, lost %llu", ULL(n->flags_count[0]), ULL(n->flags_count[1]),
			    ULL(n->flags_count[2]), ULL(n->flags_count[3]),
			    ULL(n->flags_count[4]));
}

/* Pages as a column of width w, or "-" when the events were not recorded. */
static const char *pages_col(char *buf, size_t len, int traced, uint64_t v)
{
	if (traced)
		snprintf(buf, len, "%llu", ULL(v));
	else
		snprintf(buf, len, "-");
	return buf;
}

/* Which zone the wmark/low/sleep columns are of: the zone shown, named,
 * with the times it changed. */
static void handoff_episode_legend(struct report_ctx *rc, const struct handoff_node_stats *n)
{
	uint32_t nz = n->zone_changes < HANDOFF_MAX_ZCHG ? n->zone_changes : HANDOFF_MAX_ZCHG;

	if (!n->has_wmarks) {
		report_line(rc, "wmark/low/sleep: no zone samples");
	} else if (!n->zone_changes) {
		report_line(rc, "wmark/low/sleep: %s's free pages against its min/low/high",
			    n->wm_first.zone);
	} else {
		report_line(rc, "wmark/low/sleep: the zone shown's free pages against "
			    "its min/low/high");
		for (uint32_t z = 0; z < nz; z++)
			report_line(rc, "  %s until %.3f s", n->zchg[z].from,
				    report_rel_s(rc, n->zchg[z].ts));
		if (n->zone_changes > nz)
			report_line(rc, "  (%u more changes: --format json has every sample)",
				    n->zone_changes - nz);
		else
			report_line(rc, "  %s after", n->zchg[nz - 1].to);
	}
	report_line(rc, "at the wake (the sample before it), the lowest sample");
	report_line(rc, "while awake, and the last one before the sleep (-: none");
	report_line(rc, "while awake)");
}

static void handoff_episodes(struct report_ctx *rc, const struct handoff_model *hm, int i)
{
	int ne = handoff_model_nepisodes(hm, i), shown = 0;
	int traced = analysis_traced(rc->a, REC_SHRINK_INACTIVE, -1);
	char fl[16], ho[24], sc[24], rcl[24];

	if (!ne)
		return;
	report_line(rc, "%s", "");
	report_line(rc, "%9s %7s %3s %8s %8s %-7s %-5s %-5s %-5s %s", "start s", "dur ms",
		    "ord", "scanned", "reclaimd", "handoff", "wmark", "low", "sleep", "flg");
	for (int e = 0; e < ne && shown < rc->o->max_episodes; e++, shown++) {
		const struct kswapd_episode *ep = handoff_model_episode(hm, i, e);

		if (ep->handoff == HO_WAKEUP || ep->handoff == HO_PICKUP)
			snprintf(ho, sizeof(ho), "%s %d", ep->handoff == HO_WAKEUP ?
				 "wake" : "pick", ep->handoff_order);
		else
			snprintf(ho, sizeof(ho), "%s", handoff_kind_name(ep->handoff));
		report_line(rc, "%9.3f %7.1f %3d %8s %8s %-7.7s %-5s %-5s %-5s %s",
			    report_rel_s(rc, ep->start), ms(ep->end - ep->start), ep->order,
			    pages_col(sc, sizeof(sc), traced, ep->scanned),
			    pages_col(rcl, sizeof(rcl), traced || ep->balance_runs,
				      traced ? ep->reclaimed : ep->balance_reclaimed), ho,
			    wmark_state_name(ep->wm_start.state),
			    wmark_state_name(ep->wm_low.state),
			    wmark_state_name(ep->wm_end.state),
			    handoff_flags_letters(ep->flags, fl, sizeof(fl)));
	}
	if (ne > shown)
		report_line(rc, "(%d more episodes; --format json lists all)", ne - shown);
	/* named: the Counters and Consistency rows count pgscan_kswapd,
	 * which MGLRU kernels count otherwise */
	if (traced)
		report_line(rc, "scanned/reclaimd: kswapd's lru_shrink_inactive pages");
	handoff_episode_legend(rc, handoff_model_node(hm, i));
	report_line(rc, "flg: N no handoff, L long, S stall while kcompactd slept,");
	report_line(rc, "     R re-woken soon after sleeping, X events lost, E open at end");
}

/* The slice of w over span from first that ts falls in, clamped to the
 * line: an episode of a corrupt file may begin before the recording's
 * first event or end after its last (a fuzzed file gave 1.4e12). */
static int timeline_slot(uint64_t ts, uint64_t first, uint64_t span, int w)
{
	double x = ((double)ts - (double)first) * w / (double)span;

	if (!(x >= 0))		/* NaN too */
		return 0;
	return x >= w - 1 ? w - 1 : (int)x;
}

/* One character per slice of the recording: '.' kswapd asleep, 'k' awake,
 * 'H' an episode that handed off ended here, 'x' one that did not. */
static void handoff_timeline(struct report_ctx *rc, const struct handoff_model *hm, int i)
{
	int w = rc->o->width - 12, ne = handoff_model_nepisodes(hm, i);
	uint64_t span = rc->in->last_ts - rc->in->first_ts;
	char line[512];

	if (!ne || w < 10 || !span)
		return;
	if (w > (int)sizeof(line) - 1)
		w = sizeof(line) - 1;
	memset(line, '.', (size_t)w);
	line[w] = '\0';
	for (int e = 0; e < ne; e++) {
		const struct kswapd_episode *ep = handoff_model_episode(hm, i, e);
		int a = timeline_slot(ep->start, rc->in->first_ts, span, w);
		int b = timeline_slot(ep->end, rc->in->first_ts, span, w);

		for (int x = a; x <= b; x++)
			if (line[x] == '.')
				line[x] = 'k';
		if (ep->handoff == HO_WAKEUP || ep->handoff == HO_PICKUP)
			line[b] = 'H';
		else if (ep->handoff == HO_NONE)
			line[b] = 'x';
	}
	report_line(rc, "timeline    %s", line);
}

static void handoff_kcompactd(struct report_ctx *rc, const struct handoff_model *hm, int i)
{
	int ne = handoff_model_nkc(hm, i), shown = 0;

	if (!ne)
		return;
	report_line(rc, "%s", "");
	report_line(rc, "kcompactd requests");
	report_line(rc, "%9s %7s %3s %-9s %5s %7s %s", "start s", "dur ms", "ord", "via", "runs",
		    "success", "for kswapd");
	for (int e = 0; e < ne && shown < rc->o->max_episodes; e++, shown++) {
		const struct kcompactd_episode *kc = handoff_model_kc(hm, i, e);

		report_line(rc, "%9.3f %7.1f %3d %-9s %5u %7u %s", report_rel_s(rc, kc->start),
			    ms(kc->end - kc->start), kc->order, kc_via_name(kc->via), kc->runs,
			    kc->success, kc->for_kswapd ? "yes" : "no");
	}
	if (ne > shown)
		report_line(rc, "(%d more; --format json lists all)", ne - shown);
}

void report_text_handoff(struct report_ctx *rc)
{
	const struct handoff_model *hm = analysis_handoff(rc->a);
	int nn = handoff_model_nnodes(hm);

	if (!nn) {
		report_title(rc, "Handoffs");
		report_line(rc, "no kswapd or kcompactd events in this recording");
		return;
	}
	for (int i = 0; i < nn; i++) {
		const struct handoff_node_stats *n = handoff_model_node(hm, i);

		report_title(rc, "Handoffs, node %d", n->nid);
		handoff_counts(rc, n);
		handoff_wmarks(rc, n);
		handoff_timeline(rc, hm, i);
		handoff_episodes(rc, hm, i);
		handoff_kcompactd(rc, hm, i);
	}
}

static void stalls_latency(struct report_ctx *rc, const struct reclaim_model *rm)
{
	/* reclaim_end without nr_reclaimed: "-", not the 0 it reads as */
	int no_rec = report_not_measured(rc, "pages reclaimed per reclaim");
	char none[80] = "", unrec[80] = "", unknown[80] = "";
	int traced = 0;

	/* The kinds with begin/end events: none seen is "0 stalls" only when
	 * the events were recorded; otherwise the table could not have them. */
	for (int k = RK_DIRECT; k < RK_KSWAPD; k++) {
		const struct reclaim_kind_stats *ks = reclaim_model_kind(rm, k);
		int st = analysis_traced_state(rc->a, REC_RECLAIM_BEGIN, k);
		char *l = st == TRACED_YES ? none : st == TRACED_UNKNOWN ? unknown : unrec;

		traced += l == none;
		if (!ks->begins && !ks->ends)
			snprintf(l + strlen(l), 80 - strlen(l), "%s%s", *l ? ", " : "",
				 reclaim_kind_name(k));
	}
	if (!traced) {
		report_line(rc, "%s: no reclaim begin/end events (mmscope record "
			    "-g reclaim)", analysis_untraced_word(rc->a, REC_RECLAIM_BEGIN, -1));
		return;
	}
	report_line(rc, "kind       count   p50 ms   p90 ms   p99 ms   max ms  "
		    "total s reclaimed");
	for (int k = 0; k < RK_NR; k++) {
		const struct reclaim_kind_stats *ks = reclaim_model_kind(rm, k);
		char rec[24];

		if (!ks->begins && !ks->ends)
			continue;
		if (no_rec)
			snprintf(rec, sizeof(rec), "-");
		else
			snprintf(rec, sizeof(rec), "%llu", ULL(ks->nr_reclaimed));
		report_line(rc, "%-9s %6llu %8.3f %8.3f %8.3f %8.3f %8.3f %9s",
			    reclaim_kind_name(k), ULL(reclaim_stalls(ks)),
			    ms(hist_percentile(&ks->lat, 50)), ms(hist_percentile(&ks->lat, 90)),
			    ms(hist_percentile(&ks->lat, 99)), ms(ks->lat.max),
			    (double)reclaim_stall_ns(ks) / 1e9, rec);
		if (ks->open_at_end || ks->unpaired_ends)
			report_line(rc, "          (%llu still open at the end, %llu ends "
				    "without a begin)", ULL(ks->open_at_end),
				    ULL(ks->unpaired_ends));
		/* a part of a run: what spans its cuts (PARTS OF A RUN) */
		if (ks->cut)
			report_line(rc, "          (%llu cut at this part's end: counted, "
				    "%.3f s up to it)", ULL(ks->cut), (double)ks->cut_ns / 1e9);
		if (ks->continued)
			report_line(rc, "          (%llu begun in the part before: %.3f s "
				    "in this one)", ULL(ks->continued),
				    (double)ks->continued_ns / 1e9);
		if (ks->cut || ks->continued)
			report_line(rc, "          (percentiles, max: complete stalls only)");
	}
	if (*none)
		report_line(rc, "%s: 0 stalls", none);
	if (*unrec)
		report_line(rc, "%s: not recorded", unrec);
	if (*unknown)
		report_line(rc, "%s: not known whether recorded", unknown);
}

static void stalls_histogram(struct report_ctx *rc, const struct reclaim_kind_stats *ks,
			     enum reclaim_kind k)
{
	uint64_t max = 0;
	int lo = 64, hi = -1, bar = rc->o->width - 28;

	for (int i = 0; i < 64; i++) {
		uint64_t c = hist_log2_count(&ks->lat, i);

		if (!c)
			continue;
		if (c > max)
			max = c;
		lo = i < lo ? i : lo;
		hi = i;
	}
	if (hi < 0 || bar < 8)
		return;
	report_line(rc, "%s latency (log2 buckets)", reclaim_kind_name(k));
	for (int i = lo; i <= hi; i++) {
		uint64_t c = hist_log2_count(&ks->lat, i);
		int n = (int)((c * (uint64_t)bar + max - 1) / max);
		char b[256];

		if (n > (int)sizeof(b) - 1)
			n = sizeof(b) - 1;
		memset(b, '#', (size_t)n);
		b[n] = '\0';
		if (i < 20)
			report_line(rc, "  >= %7.1f us %8llu %s", (double)(1ULL << i) / 1e3,
				    ULL(c), b);
		else
			report_line(rc, "  >= %7.1f ms %8llu %s", ms(1ULL << i), ULL(c), b);
	}
}

static void stalls_efficiency(struct report_ctx *rc, const struct reclaim_model *rm)
{
	int any = 0;

	if (report_not_measured(rc, "reclaim efficiency")) {
		report_line(rc, "efficiency (shrink_inactive: reclaimed/scanned): not measured");
		report_line(rc, "  (the event's format lacks a field; see the note above)");
		return;
	}
	for (int k = 0; k < RK_NR; k++) {
		const struct reclaim_kind_stats *ks = reclaim_model_kind(rm, k);

		if (!ks->scanned)
			continue;
		if (!any++)
			report_line(rc, "efficiency (shrink_inactive: reclaimed/scanned)");
		report_line(rc, "  %-8s anon %llu/%llu  file %llu/%llu  all %.1f%%",
			    reclaim_kind_name(k), ULL(ks->anon_reclaimed),
			    ULL(ks->anon_scanned), ULL(ks->file_reclaimed),
			    ULL(ks->file_scanned), 100.0 * (double)ks->reclaimed /
			    (double)ks->scanned);
		for (int p = RECLAIM_NPRIO - 1; p >= 0; p--)
			if (ks->prio_scanned[p])
				report_line(rc, "    prio %2d %10llu scanned %10llu reclaimed "
					    "%5.1f%%", p, ULL(ks->prio_scanned[p]),
					    ULL(ks->prio_reclaimed[p]),
					    100.0 * (double)ks->prio_reclaimed[p] /
					    (double)ks->prio_scanned[p]);
		if (ks->write_anon || ks->write_file)
			report_line(rc, "    writeback: %llu anon, %llu file folios",
				    ULL(ks->write_anon), ULL(ks->write_file));
	}
}

/* memcg reclaim passes by the first priority that scanned: those that
 * escalated past DEF_PRIORITY are memcg-scan-rounding's count. */
static void stalls_passes(struct report_ctx *rc, const struct reclaim_model *rm)
{
	const struct reclaim_kind_stats *ks = reclaim_model_kind(rm, RK_MEMCG);
	const char *why;

	if (!analysis_traced(rc->a, REC_RECLAIM_BEGIN, RK_MEMCG))
		return;
	why = reclaim_passes_unknown(rc->a);
	if (why) {
		report_line(rc, "memcg passes by first priority that scanned: -");
		report_line(rc, "  (%s)", why);
		return;
	}
	if (!reclaim_passes(ks))	/* "0 stalls" above says it */
		return;
	report_line(rc, "memcg passes by first priority that scanned (from %d)",
		    RECLAIM_DEF_PRIORITY);
	report_line(rc, "  passes %llu: at %d %llu, escalated below %d %llu",
		    ULL(reclaim_passes(ks)), RECLAIM_DEF_PRIORITY,
		    ULL(ks->pass_first[RECLAIM_DEF_PRIORITY]), RECLAIM_DEF_PRIORITY,
		    ULL(reclaim_passes_escalated(ks)));
	report_line(rc, "  scanned nothing %llu, priority not known %llu",
		    ULL(ks->pass_none), ULL(ks->pass_unknown));
}

static void stalls_tasks(struct report_ctx *rc, const struct reclaim_model *rm)
{
	struct reclaim_task t[32];
	int n = reclaim_model_top_tasks(rm, t, rc->o->top_tasks < 32 ? rc->o->top_tasks : 32);
	int cg;

	if (!n)
		return;
	report_line(rc, "top tasks by stall time");
	/* where the recording holds the tasks' cgroups: the memory cgroup
	 * of the longest stall, its path's tail (the cgroups section has
	 * them whole) */
	cg = cgmap_recorded(analysis_cgmap(rc->a));
	report_line(rc, "      pid comm             kind    count  total ms    max ms%s",
		    cg ? " cgroup" : "");
	for (int i = 0; i < n; i++) {
		char tail[12] = "";

		if (cg)
			report_cgroup_tail(rc, t[i].cgroup - 1, tail, 10);
		report_line(rc, "  %7d %-16.16s %-7s %6llu %9.3f %9.3f%s%s", t[i].pid,
			    t[i].comm[0] ? t[i].comm : "?", reclaim_kind_name(t[i].kind),
			    ULL(t[i].count), (double)t[i].total_ns / 1e6, ms(t[i].max_ns),
			    cg ? " " : "",
			    tail);
	}
}

void report_text_stalls(struct report_ctx *rc)
{
	const struct reclaim_model *rm = analysis_reclaim(rc->a);
	uint64_t calls, sc, rec, thr, thr_us;

	report_title(rc, "Reclaim stalls");
	stalls_latency(rc, rm);
	for (int k = 0; k < RK_NR; k++)
		stalls_histogram(rc, reclaim_model_kind(rm, k), k);
	stalls_efficiency(rc, rm);
	stalls_passes(rc, rm);
	reclaim_model_pages(rm, &calls, &sc, &rec);
	if (calls)
		report_line(rc, "reclaim_pages (DAMON, MADV_PAGEOUT): %llu calls, %llu/%llu "
			    "pages", ULL(calls), ULL(rec), ULL(sc));
	reclaim_model_throttled(rm, &thr, &thr_us);
	if (thr)
		report_line(rc, "throttled: %llu times, %.3f s", ULL(thr), (double)thr_us / 1e6);
	stalls_tasks(rc, rm);
}

static void compaction_runners(struct report_ctx *rc, const struct compact_stats *cs)
{
	uint64_t any = 0;

	for (int i = 0; i < CR_NR; i++)
		any += cs->runner[i].runs + cs->runner[i].open_at_end + cs->runner[i].cut;
	if (!any) {
		report_line(rc, "no compaction runs (mm_compaction_begin/end)");
		return;
	}
	report_line(rc, "runner      runs   p50 ms   max ms success complete  other "
		    " migrated");
	for (int i = 0; i < CR_NR; i++) {
		const struct compact_runner_stats *r = &cs->runner[i];
		uint64_t other = r->runs - r->status[8] - r->status[5];

		if (!r->runs && !r->open_at_end && !r->cut)
			continue;
		report_line(rc, "%-10s %5llu %8.3f %8.3f %7llu %8llu %6llu %9llu",
			    compact_runner_name(i), ULL(r->runs), ms(hist_percentile(&r->dur, 50)),
			    ms(r->dur.max), ULL(r->status[8]), ULL(r->status[5]), ULL(other),
			    ULL(r->migrated));
		report_line(rc, "           migrate scanner %llu scanned, %llu taken",
			    ULL(r->migrate_scanned), ULL(r->migrate_taken));
		report_line(rc, "           free scanner    %llu scanned, %llu taken",
			    ULL(r->free_scanned), ULL(r->free_taken));
		/* mm_compaction_migratepages' nr_failed is the isolated pages
		 * minus those migrated: also pages put back untried (the
		 * migration stopped), so not the kernel's pgmigrate_fail */
		if (r->failed || r->open_at_end)
			report_line(rc, "           %llu isolated pages not migrated, %llu runs "
				    "open at the end", ULL(r->failed), ULL(r->open_at_end));
		/* a part of a run (PARTS OF A RUN) */
		if (r->cut)
			report_line(rc, "           %llu cut at this part's end, %.3f ms up to it",
				    ULL(r->cut), (double)r->cut_ns / 1e6);
		if (r->continued)
			report_line(rc, "           %llu ended here, begun in the part before: "
				    "%.3f ms here", ULL(r->continued),
				    (double)r->continued_ns / 1e6);
	}
	/* which kcompactd runs were on a request and which proactive only
	 * its wakes and sleeps tell: without them no 0 for either */
	if (!report_has_kc_proactive(rc))
		report_line(rc, "kcompactd and proactive - (needs kcompactd_wake/sleep)");
}

/* The kernel's own count of failed migrations beside the runs' pages not
 * migrated, which differ (see above). */
static void compaction_pgmigrate_fail(struct report_ctx *rc, const struct compact_stats *cs)
{
	uint64_t failed = 0;
	int found;
	int64_t d = counters_model_delta(analysis_counters(rc->a), "pgmigrate_fail", &found);
	char buf[200];

	for (int i = 0; i < CR_NR; i++)
		failed += cs->runner[i].failed;
	if (!failed || !found)
		return;
	snprintf(buf, sizeof(buf), "pgmigrate_fail %+lld: the kernel's failed migrations "
		 "(all callers); not migrated above also counts isolated pages put back "
		 "untried", (long long)d);
	report_wrap(rc, "           ", buf);
}

static void compaction_results(struct report_ctx *rc, const struct compact_stats *cs)
{
	char buf[160], name[48];
	int off;

	for (int z = 0; z < cs->nzones; z++) {
		off = 0;
		for (int s = 0; s < COMPACT_NSTATUS; s++)
			if (cs->zones[z].status[s])
				off += snprintf(buf + off, sizeof(buf) - (size_t)off, " %s:%llu",
						compact_status_name(s),
						ULL(cs->zones[z].status[s]));
		buf[off] = '\0';
		/* by its name where a zone sample's span gives it */
		if (compaction_model_zone_name(analysis_compaction(rc->a),
					       cs->zones[z].zone_start, cs->zones[z].zone_end,
					       name, sizeof(name)))
			report_line(rc, "zone %s: %llu run%s,%s", name, ULL(cs->zones[z].runs),
				    plural(cs->zones[z].runs), buf);
		else
			report_line(rc, "zone pfn %#llx: %llu run%s,%s",
				    ULL(cs->zones[z].zone_start), ULL(cs->zones[z].runs),
				    plural(cs->zones[z].runs), buf);
	}
	for (int o = 1; o < REC_MAX_ORDERS; o++) {
		const struct compact_order_stats *os = &cs->by_order[o];

		if (os->runs)
			report_line(rc, "order %-2d runs %llu, success %llu, mean %.3f ms, "
				    "max %.3f ms", o, ULL(os->runs), ULL(os->success),
				    ms(os->total_ns / os->runs), ms(os->max_ns));
	}
	off = 0;
	buf[0] = '\0';
	for (int o = 0; o < REC_MAX_ORDERS; o++)
		if (cs->direct_by_order[o])
			off += snprintf(buf + off, sizeof(buf) - (size_t)off, " o%d:%llu", o,
					ULL(cs->direct_by_order[o]));
	report_line(rc, "direct compaction attempts %llu%s", ULL(cs->direct_tries), buf);
	for (int o = 0; o < REC_MAX_ORDERS; o++) {
		off = 0;
		for (int st = 0; st < COMPACT_NSTATUS; st++)
			if (cs->suitable[o][st])
				off += snprintf(buf + off, sizeof(buf) - (size_t)off, " %s:%llu",
						compact_status_name(st),
						ULL(cs->suitable[o][st]));
		if (off)
			report_line(rc, "suitable checks, order %d:%s", o, buf);
	}
	report_line(rc, "deferrals: deferred %llu, defer_compaction %llu, reset %llu",
		    ULL(cs->deferred), ULL(cs->defer_compaction), ULL(cs->defer_reset));
}

static void compaction_extfrag(struct report_ctx *rc, const struct compact_stats *cs)
{
	if (!cs->extfrag)
		return;
	report_line(rc, "extfrag fallbacks %llu (fallback order < 4: %llu, took block: %llu)",
		    ULL(cs->extfrag), ULL(cs->extfrag_severe), ULL(cs->extfrag_ownership));
	for (int a = 0; a < COMPACT_NMT; a++)
		for (int f = 0; f < COMPACT_NMT; f++)
			if (cs->extfrag_mt[a][f])
				report_line(rc, "  %-11s from %-11s %llu", migratetype_name(a),
					    migratetype_name(f), ULL(cs->extfrag_mt[a][f]));
}

void report_text_compaction(struct report_ctx *rc)
{
	struct compact_stats *fold;
	const struct compact_stats *cs = report_compact_stats(rc, &fold);

	report_title(rc, "Compaction");
	if (!report_has_compaction(rc)) {
		report_line(rc, "%s: no compaction events (mmscope record -g "
			    "compaction)", analysis_untraced_word(rc->a, REC_COMPACT_BEGIN, -1));
		compaction_extfrag(rc, cs);
		free(fold);
		return;
	}
	compaction_runners(rc, cs);
	compaction_pgmigrate_fail(rc, cs);
	compaction_results(rc, cs);
	if (cs->unattributed_scans)
		report_line(rc, "%llu scanner events outside any run seen begin",
			    ULL(cs->unattributed_scans));
	compaction_extfrag(rc, cs);
	free(fold);
}
