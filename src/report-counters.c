// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Text sections over the counter samples: fragmentation (free blocks per
 * order at the first and last sample of each zone, fragmentation and
 * unusable indexes, the high-order free pages over time), counters (the
 * vmstat rows mm developers use in before/after tables, named as mmtests
 * names them, then every other changed counter, mTHP stats per size, PSI,
 * swap devices, memcg; gauges with their peak and limit) and consistency
 * (events against counters).
 */
#include "config.h"
#include "report.h"
#include "metrics-direct.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ULL(x) ((unsigned long long)(x))

static void frag_orders(struct report_ctx *rc, const char *label,
			const struct frag_snapshot *s)
{
	char buf[256];
	int off = 0;

	for (int o = 0; o < s->norders && off < (int)sizeof(buf) - 24; o++)
		off += snprintf(buf + off, sizeof(buf) - (size_t)off, " %llu", ULL(s->free[o]));
	report_line(rc, "  %-6s%s", label, buf);
}

static void frag_indexes(struct report_ctx *rc, const struct frag_snapshot *s)
{
	char fi[256], ui[256];
	int a = 0, b = 0;

	for (int o = 1; o < s->norders; o++) {
		int f = frag_index(s, o);

		a += snprintf(fi + a, sizeof(fi) - (size_t)a, f < 0 ? "    -" : " %.2f",
			      f / 1000.0);
		b += snprintf(ui + b, sizeof(ui) - (size_t)b, " %.2f",
			      frag_unusable(s, o) / 1000.0);
	}
	report_line(rc, "  fragmentation index, orders 1..%d (last):", s->norders - 1);
	report_line(rc, "   %s", fi);
	report_line(rc, "  unusable free space index (last):");
	report_line(rc, "   %s", ui);
}

static int frag_series_moved(const struct frag_zone *z)
{
	for (int p = 1; p < z->nseries; p++)
		if (z->series_hi[p] != z->series_hi[0])
			return 1;
	return 0;
}

void report_text_frag(struct report_ctx *rc)
{
	const struct frag_model *fm = analysis_frag(rc->a);

	report_title(rc, "Fragmentation");
	if (report_needs_samples(rc, "fragmentation"))
		return;
	if (!frag_model_nzones(fm)) {
		report_line(rc, "no buddyinfo samples in this recording");
		return;
	}
	for (int i = 0; i < frag_model_nzones(fm); i++) {
		const struct frag_zone *z = frag_model_zone(fm, i);

		report_line(rc, "node %d zone %s: %llu samples, free blocks per order 0..",
			    z->node, z->zone, ULL(z->samples));
		if (!z->samples)
			continue;
		frag_orders(rc, "first", &z->first);
		frag_orders(rc, "last", &z->last);
		report_line(rc, "  free pages %llu -> %llu, in order>=%d blocks %llu -> %llu",
			    ULL(frag_free_pages(&z->first)), ULL(frag_free_pages(&z->last)),
			    frag_model_hi_order(fm),
			    ULL(frag_free_pages_from(&z->first, frag_model_hi_order(fm))),
			    ULL(frag_free_pages_from(&z->last, frag_model_hi_order(fm))));
		frag_indexes(rc, &z->last);
		for (int t = 0; t < z->ntypes; t++)
			if (frag_free_pages(&z->type_first[t]) || frag_free_pages(&z->type_last[t]))
				report_line(rc, "  %-12s free pages %llu -> %llu", z->type[t],
				    ULL(frag_free_pages(&z->type_first[t])),
				    ULL(frag_free_pages(&z->type_last[t])));
		if (frag_series_moved(z)) {
			report_line(rc, "  order>=%d free pages over time:",
				    frag_model_hi_order(fm));
			for (int p = 0; p < z->nseries; p++)
				report_line(rc, "    %10.3f s %12llu",
					    report_rel_s(rc, z->series_ts[p]), ULL(z->series_hi[p]));
		}
	}
}

struct vm_row {
	const char *label;
	const char *key;
	int zones;	/* the key and its per-zone keys, summed */
};

/* mmtests' names (MonitorMmtestsvmstat.pm), summed over zones where it
 * sums (never pgscan_direct_throttle: events, not pages). */
static const struct vm_row vm_rows[] = {
	{ "Swap Ins", "pswpin", 0 },
	{ "Swap Outs", "pswpout", 0 },
	{ "Allocation stalls", "allocstall", 1 },
	{ "Direct pages scanned", "pgscan_direct", 1 },
	{ "Kswapd pages scanned", "pgscan_kswapd", 1 },
	{ "Kswapd pages reclaimed", "pgsteal_kswapd", 1 },
	{ "Direct pages reclaimed", "pgsteal_direct", 1 },
	{ "Page writes by reclaim", "nr_vmscan_write", 0 },
	{ "Page reclaim immediate", "nr_vmscan_immediate_reclaim", 0 },
	{ "Kswapd low wmark quickly", "kswapd_low_wmark_hit_quickly", 0 },
	{ "Kswapd high wmark quickly", "kswapd_high_wmark_hit_quickly", 0 },
	{ "Kswapd balance runs", "pageoutrun", 0 },
	{ "THP fault alloc", "thp_fault_alloc", 0 },
	{ "THP fault fallback", "thp_fault_fallback", 0 },
	{ "Compaction stalls", "compact_stall", 0 },
	{ "Compaction success", "compact_success", 0 },
	{ "Compaction failures", "compact_fail", 0 },
	{ "Compaction pages isolated", "compact_isolated", 0 },
	{ "Compaction migrate scanned", "compact_migrate_scanned", 0 },
	{ "Compaction free scanned", "compact_free_scanned", 0 },
	{ "Kcompactd wake", "compact_daemon_wake", 0 },
	{ "Kcompactd migrate scanned", "compact_daemon_migrate_scanned", 0 },
	{ "Kcompactd free scanned", "compact_daemon_free_scanned", 0 },
	{ "Page migrate success", "pgmigrate_success", 0 },
	{ "Page migrate failure", "pgmigrate_fail", 0 },
	{ "Zswap stores", "zswpout", 0 },
	{ "Zswap loads", "zswpin", 0 },
	{ "Zswap writeback", "zswpwb", 0 },
};

static int vm_row_covers(const char *key)
{
	for (size_t i = 0; i < sizeof(vm_rows) / sizeof(vm_rows[0]); i++)
		if (vm_rows[i].zones ? counters_zone_key(key, vm_rows[i].key)
				     : !strcmp(key, vm_rows[i].key))
			return 1;
	return 0;
}

/*
 * 7.2+ counts memcg limit reclaim in pgscan_direct / pgsteal_direct:
 * the split compare uses (direct_split()), with the memcg part in
 * *mscan / *msteal. DIRECT_ONLY when the rows need nothing.
 */
static enum direct_split counters_direct_split(struct report_ctx *rc,
					       const struct counters_model *cm,
					       int64_t *mscan, int64_t *msteal)
{
	struct direct_counts dc = { 0 };
	int fscan, fsteal;

	*mscan = *msteal = 0;
	dc.scan = counters_model_delta_zones(cm, "pgscan_direct", &fscan);
	dc.steal = counters_model_delta_zones(cm, "pgsteal_direct", &fsteal);
	if (!fscan || !fsteal)
		return DIRECT_ONLY;
	dc.stalls = counters_model_delta_prefix(cm, "allocstall", &dc.have_stalls);
	dc.proactive = counters_model_delta(cm, "pgscan_proactive", &dc.have_proactive);
	return direct_split(rc->a, &dc, mscan, msteal);
}

static void counters_vmstat(struct report_ctx *rc, const struct counters_model *cm)
{
	int64_t mscan, msteal;
	enum direct_split split = counters_direct_split(rc, cm, &mscan, &msteal);
	char text[256];

	report_line(rc, "%-34s %14s %14s", "vmstat (last - first)", "delta", "max/interval");
	for (size_t i = 0; i < sizeof(vm_rows) / sizeof(vm_rows[0]); i++) {
		int found;
		int64_t d = vm_rows[i].zones ?
			counters_model_delta_zones(cm, vm_rows[i].key, &found) :
			counters_model_delta(cm, vm_rows[i].key, &found);
		const struct counter *c = vm_rows[i].zones ? NULL :
			counters_model_find(cm, SRC_VMSTAT, "", vm_rows[i].key);
		const char *label = vm_rows[i].label;
		char step[24] = "-";
		int scan = !strcmp(vm_rows[i].key, "pgscan_direct");

		if (split != DIRECT_ONLY && (scan || !strcmp(vm_rows[i].key, "pgsteal_direct"))) {
			if (split == DIRECT_UNSPLIT)
				label = scan ? "Direct+memcg pages scanned" :
					       "Direct+memcg pages reclaimed";
			else
				d -= scan ? mscan : msteal;
		}
		if (c && found)
			snprintf(step, sizeof(step), "%lld", (long long)c->max_step);
		if (found)
			report_line(rc, "Ops %-30s %14lld %14s", label, (long long)d, step);
		else if (c)	/* sampled, but one set: no delta */
			report_line(rc, "Ops %-30s %14s %14s", label, "-", "-");
	}
	if (split == DIRECT_NO_STALLS)
		snprintf(text, sizeof(text), "(7.2+ counts memcg limit reclaim in "
			 "pgscan_direct/pgsteal_direct: no allocation stalled, so all "
			 "%lld/%lld pages were memcg reclaim, not direct)",
			 (long long)mscan, (long long)msteal);
	else if (split == DIRECT_BY_EVENTS)
		snprintf(text, sizeof(text), "(7.2+ counts memcg limit reclaim in "
			 "pgscan_direct/pgsteal_direct: its %lld/%lld pages, from the "
			 "memcg reclaim events, are taken out of the direct rows)",
			 (long long)mscan, (long long)msteal);
	else if (split == DIRECT_UNSPLIT)
		snprintf(text, sizeof(text), "(7.2+ counts memcg limit reclaim in "
			 "pgscan_direct/pgsteal_direct, and the recording has no memcg "
			 "reclaim events to take it out: direct+memcg rows)");
	/* nothing to say where no page was memcg's (compare's notes too) */
	if (split == DIRECT_UNSPLIT || (split != DIRECT_ONLY && (mscan || msteal)))
		report_wrap(rc, "", text);
	int shown = 0, more = 0;

	for (int i = 0; i < counters_model_count(cm); i++) {
		const struct counter *c = counters_model_get(cm, i);

		if (!c || c->source != SRC_VMSTAT || c->last == c->first ||
		    vm_row_covers(c->key))
			continue;
		if (shown >= 24) {
			more++;
			continue;
		}
		if (!shown++)
			report_line(rc, "other vmstat counters that moved:");
		report_line(rc, "  %-32s %14lld", c->key, (long long)counter_delta(c));
	}
	if (more)
		report_line(rc, "  (%d more; --format json lists all)", more);
}

/* Under a gauge's first -> last: its peak, when, and its limit, with the
 * unit the sample gives (first -> last hides a peak when the workload
 * exits before the recording ends). */
static void counters_gauge_line(struct report_ctx *rc, const struct counters_model *cm,
				const struct counter *c)
{
	const struct counter_gauge *g = counters_gauge(c->source, c->key);
	int64_t limit;
	int unlimited;
	char lim[48];

	if (!g || c->scale)
		return;
	if (!g->limit_key)
		snprintf(lim, sizeof(lim), "%s", "");
	else if (!counters_model_limit(cm, c, &limit, &unlimited))
		snprintf(lim, sizeof(lim), ", limit -");
	else if (unlimited)
		snprintf(lim, sizeof(lim), ", no limit");
	else
		snprintf(lim, sizeof(lim), ", limit %lld %.*s", (long long)limit,
			 unit_len(limit, g->unit), g->unit);
	report_line(rc, "%12s peak %lld %.*s at %.3f s%s", "", (long long)c->peak,
		    unit_len(c->peak, g->unit), g->unit, report_rel_s(rc, c->peak_ts), lim);
}

/*
 * One line per moved counter. Short instances (a size, a device name)
 * lead the line; long ones (cgroup paths) get a line of their own so
 * the rows stay inside 72 columns.
 */
static void counters_instances(struct report_ctx *rc, const struct counters_model *cm,
			       enum sample_source src, const char *title)
{
	const char *last = NULL;
	int any = 0;

	for (int i = 0; i < counters_model_count(cm); i++) {
		const struct counter *c = counters_model_get(cm, i);
		int own_line;

		/* a gauge that went up and came back down moved too */
		if (!c || c->source != src ||
		    (!c->scale && c->last == c->first &&
		     (!c->max_step || !counters_gauge(c->source, c->key))))
			continue;
		if (!any++)
			report_line(rc, "%s that moved", title);
		own_line = strlen(c->instance) > 8;
		if (own_line && (!last || strcmp(last, c->instance))) {
			size_t n = strlen(c->instance);

			if (n > 66)	/* keep the tail: the cgroup's own name */
				report_line(rc, "  ...%s", c->instance + n - 63);
			else
				report_line(rc, "  %s", c->instance);
		}
		last = c->instance;
		if (c->scale)
			report_line(rc, "  %-8s %-26s last %.2f", own_line ? "" : c->instance,
				    c->key, (double)c->last / (c->scale == 1 ? 10.0 : 100.0));
		else if (c->wide)	/* counts above INT64_MAX */
			report_line(rc, "  %-8s %-26s %llu -> %llu (%+lld)",
				    own_line ? "" : c->instance, c->key,
				    (unsigned long long)c->first, (unsigned long long)c->last,
				    (long long)counter_delta(c));
		else
			report_line(rc, "  %-8s %-26s %lld -> %lld (%+lld)",
				    own_line ? "" : c->instance, c->key, (long long)c->first,
				    (long long)c->last, (long long)counter_delta(c));
		counters_gauge_line(rc, cm, c);
	}
}

void report_text_counters(struct report_ctx *rc)
{
	const struct counters_model *cm = analysis_counters(rc->a);
	uint64_t t0, t1;

	report_title(rc, "Counters");
	if (report_needs_samples(rc, "counters"))
		return;
	counters_model_span(cm, &t0, &t1);
	report_line(rc, "over %llu sample sets, %.3f .. %.3f s",
		    ULL(counters_model_nsets(cm)), report_rel_s(rc, t0), report_rel_s(rc, t1));
	counters_vmstat(rc, cm);
	counters_instances(rc, cm, SRC_MTHP, "mTHP stats (size kB, stat)");
	counters_instances(rc, cm, SRC_ZSWAP, "zswap");
	counters_instances(rc, cm, SRC_PSI, "memory pressure (PSI)");
	counters_instances(rc, cm, SRC_SWAP, "swap devices");
	counters_instances(rc, cm, SRC_MEMCG, "memcg");
}

const char *const report_verdict_names[] = { "agree", "DIFFERS", "absent", "untraced" };

int report_consistency_rows(struct report_ctx *rc, struct consistency_row *rows,
			    int64_t *lost)
{
	int n = consistency_model_rows(analysis_consistency(rc->a), analysis_counters(rc->a),
				       rows, CONSISTENCY_NROWS, lost);

	int k = 0;

	for (int i = 0; i < n; i++) {
		if (rows[i].verdict != CV_NO_COUNTER &&
		    !analysis_has_event(rc->a, rows[i].system, rows[i].event))
			rows[i].verdict = CV_NO_EVENTS;
		/* a 7.x-only event missing says nothing on older kernels */
		if (rows[i].optional && rows[i].verdict == CV_NO_EVENTS)
			continue;
		rows[k++] = rows[i];
	}
	return k;
}

void report_text_consistency(struct report_ctx *rc)
{
	struct consistency_row rows[CONSISTENCY_NROWS];
	int64_t lost;
	int n;

	report_title(rc, "Consistency (events against counters)");
	if (report_needs_samples(rc, "consistency"))
		return;
	if (rc->in->task_scoped) {
		report_line(rc, "not checked: the events are some tasks', the counters global");
		return;
	}
	n = report_consistency_rows(rc, rows, &lost);
	if (!n) {
		report_line(rc, "needs two complete sample sets");
		return;
	}
	report_line(rc, "%-16s %9s %2s %-23s %9s", "events", "count", "", "counter", "delta");
	for (int i = 0; i < n; i++) {
		enum consistency_verdict v = rows[i].verdict;

		if (v == CV_NO_EVENTS)
			report_line(rc, "%-16s %9s %2s %-23s %9lld %s", rows[i].what,
				    "-", consistency_row_rel(&rows[i]), rows[i].counter,
				    (long long)rows[i].counter_delta, report_verdict_names[v]);
		else
			report_line(rc, "%-16s %9lld %2s %-23s %9lld %s", rows[i].what,
				    (long long)rows[i].events, consistency_row_rel(&rows[i]),
				    rows[i].counter, (long long)rows[i].counter_delta,
				    report_verdict_names[v]);
	}
	for (int i = 0; i < n; i++)
		if (rows[i].alt_used) {
			report_line(rc, "scanned rows: isolated folios (lru_isolate nr_taken), "
				    "as MGLRU counts");
			break;
		}
	if (consistency_model_memcg_in_direct(analysis_consistency(rc->a)))
		report_line(rc, "direct rows: direct and memcg reclaim (7.2+ counts both "
			    "as direct)");
	report_line(rc, "tolerance: %lld events lost between the first and last set",
		    (long long)lost);
	report_wrap(rc, "", "(absent: no such counter on this kernel; untraced: event "
		    "not recorded; ~: equal within the lost events; try_to_compact: "
		    "calls of try_to_compact_pages)");
}
