// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Report sections "swap" (swap clusters) and "zswap", from the swap
 * cluster and zswap models only. Swap clusters: per device its geometry
 * and whether it can take order>0 at all (a swap file or, before 6.14, a
 * rotational disk cannot: then fragmentation cannot matter and the report
 * says so), the cluster lists per order over time, the moments free
 * clusters ran out, the fallback rate per order from the probes with its
 * attribution, beside the kernel's own swpout/swpout_fallback counters,
 * and the seed-style per-size table for the first and second half of the
 * recording. Without probes it is the counter view, with one line saying
 * why cluster detail is missing. zswap: the pool against its limit over
 * time with swap I/O beside it, rejects by reason, probe results.
 * Text fits 72 columns; the JSON form carries the same numbers.
 */
#include "config.h"
#include "report.h"
#include "parsers.h"	/* sample_reason_text: the sampler's reasons */
#include "probes.h"	/* which kernels a probe set was verified on */

#include <stdio.h>
#include <string.h>

#define ULL(x) ((unsigned long long)(x))
#define LL(x) ((long long)(x))
#define MAXROWS 16

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? (double)part * 100.0 / (double)whole : 0;
}

/* "12.3%", or "-" when there is nothing to take a share of */
static void pct_text(char *buf, size_t len, uint64_t part, uint64_t whole)
{
	if (whole)
		snprintf(buf, len, "%.1f%%", pct(part, whole));
	else
		snprintf(buf, len, "-");
}

static const char *size_name(const struct report_ctx *rc, int order, char *buf, size_t len)
{
	unsigned long kb = report_order_kb(rc, order);

	if (kb >= 1024 && !(kb % 1024))
		snprintf(buf, len, "%luM", kb / 1024);
	else
		snprintf(buf, len, "%luK", kb);
	return buf;
}

/* Before 6.1 (5.10): the kernel the 6.1 rules are applied to is named
 * as such, not called 6.1 (neither has nonfull lists). */
static int before_61(const struct report_ctx *rc)
{
	int maj, min;

	return sscanf(rc->in->kernel, "%d.%d", &maj, &min) == 2 &&
	       (maj < 6 || (maj == 6 && min < 1));
}

/* The kernels the 6.1 rules cover, as the text names them. */
static const char *rules61_name(const struct report_ctx *rc)
{
	return before_61(rc) ? "5.10" : "6.1";
}

/* The function the folio (page) allocation probes are on: the recording's
 * probe set names it (5.10: get_swap_page). */
static const char *alloc_fn(const struct report_ctx *rc)
{
	const struct probe_set *set = probe_set_find(analysis_probe_set(rc->a));

	for (int i = 0; set && i < set->ndefs; i++)
		if (!strcmp(set->defs[i].name, "fas"))
			return set->defs[i].symbol;
	return before_61(rc) ? "get_swap_page" : "folio_alloc_swap";
}

/* A fallback cause by its name, less the nonfull lists where the kernel
 * has none (5.10, 6.1: free clusters only). */
static const char *cause_text(const struct swapclust_model *m, int c)
{
	if (c == SWC_CAUSE_NO_CLUSTER && swapclust_model_rules(m) == SWC_RULES_61)
		return "no free cluster";
	return swc_cause_name(c);
}

static const char *rules_text(const struct report_ctx *rc, enum swc_rules r)
{
	switch (r) {
	case SWC_RULES_61:
		return before_61(rc) ? "5.10 rules, as 6.1's (free, in use, discard; PMD only)" :
				       "6.1 rules (free, in use, discard; PMD only)";
	case SWC_RULES_612: return "6.12 rules (lists derived from counts, scans)";
	case SWC_RULES_MOVES: return "cluster moves traced (move_cluster)";
	default: return "rules unknown";
	}
}

/*
 * Whether the recording's probe set was verified on its kernel (probes.h:
 * the raw struct offsets read that series' layout): 1 yes, 0 no (an older
 * mmscope installed it anyway, e.g. the 6.1 set on 5.10, whose offsets
 * read another field as the device type), -1 no set or one unknown here.
 */
static int probes_verified(const struct report_ctx *rc)
{
	const struct probe_set *set = probe_set_find(analysis_probe_set(rc->a));

	if (!set || !rc->in->has_probes)
		return -1;
	return probe_set_verified(set, rc->in->kernel);
}

/* One line under a section's probe figures when they are unverified. */
static void probes_unverified_line(struct report_ctx *rc, const char *prefix)
{
	const struct probe_set *set = probe_set_find(analysis_probe_set(rc->a));
	char buf[320];

	if (probes_verified(rc) != 0)
		return;
	snprintf(buf, sizeof(buf), "unverified: probe set %s was verified on %s only, not "
		 "on %s (its struct offsets may read another layout: device types, sizes); "
		 "the probe figures below may be wrong", set->name, set->verified,
		 rc->in->kernel);
	report_wrap(rc, prefix, buf);
}

static void json_probes_verified(struct report_ctx *rc)
{
	int v = probes_verified(rc);

	if (v < 0)
		json_null(rc->jw, "probes_verified");
	else
		json_bool(rc->jw, "probes_verified", v);
}

/* The clusters a device of its size has: its slots and the header page
 * over the cluster size (the kernel's DIV_ROUND_UP(maxpages, cluster));
 * -1 while the size is unknown. */
static int64_t dev_clusters_for_size(const struct swapclust_model *m, const struct swc_dev *d)
{
	uint64_t cl = (uint64_t)swapclust_model_cluster_size(m);

	if (!d->size_known || !cl)
		return -1;
	return (int64_t)((d->pages + 1 + cl - 1) / cl);
}

/* Where the recording's THP_SWAP comes from, in words. */
static const char *thp_swap_basis_text(const struct analysis_info *in)
{
	switch (in->thp_swap_basis) {
	case AB_RECORDED:
		return "the kernel's config";
	case AB_CLUSTER:
		return "the recorded cluster size";
	case AB_INFERRED:
		return "inferred: arm64 has it with 4 KB pages only";
	default:
		return "not known";
	}
}

/* What the cluster size rests on (SWAPFILE_CLUSTER: HPAGE_PMD_NR with
 * THP_SWAP, else 256). */
static void swap_cluster_basis(struct report_ctx *rc, const struct swapclust_model *m)
{
	static const char *const why[] = {
		"the samples have no THP counters: it may be 256",
		"assumed (THP_SWAP)", "THP counters in the samples: THP_SWAP",
		"from the recording", "the kernel has no THP_SWAP",
	};
	int b = swapclust_model_cluster_basis(m);

	report_line(rc, "cluster size %d slots: %s", swapclust_model_cluster_size(m),
		    why[b + 1]);
	if (rc->in->thp_swap == 0) {
		char buf[300];

		snprintf(buf, sizeof(buf), "THP_SWAP off (%s): every order>0 swap-out "
			 "splits by configuration, whatever the clusters hold; %u KB pages, "
			 "PMD order %d", thp_swap_basis_text(rc->in), rc->in->page_size / 1024,
			 rc->in->pmd_order);
		report_wrap(rc, "", buf);
	}
}

/* Why there is no cluster detail, in one line. */
static void swap_why_no_probes(struct report_ctx *rc)
{
	const char *set = analysis_probe_set(rc->a);
	const char *why = analysis_probe_reason(rc->a);
	char buf[400];

	if (!*set)
		snprintf(buf, sizeof(buf), "no swap kprobe events in this recording "
			 "(not made by mmscope record -g swap)");
	else if (!strcmp(set, "none"))
		snprintf(buf, sizeof(buf), "no swap kprobes: %s", *why ? why : "none installed");
	else if (!analysis_probes_swap(rc->a))
		snprintf(buf, sizeof(buf), "probe set %s, but the swap probes were not asked "
			 "for (mmscope record -g swap)", set);
	else
		snprintf(buf, sizeof(buf), "probe set %s was installed but no swap "
			 "allocation or free fired", set);
	report_wrap(rc, "cluster detail missing: ", buf);
}

static void swap_dev_head(struct report_ctx *rc, const struct swapclust_model *m,
			  const struct swc_dev *d)
{
	char name[80];

	snprintf(name, sizeof(name), "%s", d->name[0] ? d->name : "(name not sampled)");
	report_line(rc, "device %d  %s", d->type, name);
	if (d->size_known)
		report_line(rc, "  size %llu slots, %d cluster%s of %d", ULL(d->pages),
			    d->nclusters, plural((unsigned)d->nclusters),
			    swapclust_model_cluster_size(m));
	else
		report_line(rc, "  size not sampled; %d cluster%s of %d seen",
			    d->nclusters, plural((unsigned)d->nclusters),
			    swapclust_model_cluster_size(m));
	/* more clusters than its size holds: probe events placed slots past
	 * the device's end (or read a size that is not its own) */
	if (d->size_known && d->nclusters > dev_clusters_for_size(m, d)) {
		char buf[200];

		snprintf(buf, sizeof(buf), "inconsistent: %llu slots make %lld clusters, not "
			 "%d: the probes' offsets or sizes are not this device's",
			 ULL(d->pages), (long long)dev_clusters_for_size(m, d), d->nclusters);
		report_wrap(rc, "  ", buf);
	}
	if (d->large_ok == 0)
		report_wrap(rc, "  ", d->blockdev == 0 ?
			    "swap file: order>0 swap-out is never possible here (no SWP_BLKDEV); "
			    "every mTHP falls back, and cluster fragmentation cannot matter" :
			    "rotational disk: this kernel allocates order>0 swap only on "
			    "non-rotational block devices; fragmentation cannot matter");
	else if (d->large_ok == 1 && rc->in->thp_swap == 0)	/* the kernel, not the device */
		report_line(rc, "  %s block device; order>0 impossible: no THP_SWAP",
			    d->rotational == 1 ? "rotational" : "non-rotational");
	else if (d->large_ok == 1)
		report_line(rc, "  %s block device: order>0 possible",
			    d->rotational == 1 ? "rotational" : "non-rotational");
	else
		report_line(rc, "  device kind not sampled: order>0 may or may not be possible");
	if (swapclust_model_has_probes(m))
		report_line(rc, "  %llu allocs (%llu slots), %llu frees (%llu slots), "
			    "%llu moves", ULL(d->allocs), ULL(d->alloc_slots), ULL(d->frees),
			    ULL(d->free_slots), ULL(d->moves));
	if (d->swapons || d->swapoffs)
		report_line(rc, "  swapon %llu, swapoff %llu during the recording",
			    ULL(d->swapons), ULL(d->swapoffs));
}

/* Orders worth a column: those whose lists were ever used, at most 3. */
static int swap_pick_orders(const struct swc_dev *d, int *out)
{
	int n = 0;

	out[n++] = 0;
	for (int o = 1; o < SWC_NORDERS && n < 3; o++)
		for (int p = 0; p < d->npts; p++)
			if (d->pts[p].nonfull[o] || d->pts[p].frag[o]) {
				out[n++] = o;
				break;
			}
	return n;
}

/* Clusters waiting for discard are neither free nor in use: say how many
 * there were at most (the table has no room for a column). */
static void swap_dev_discard(struct report_ctx *rc, const struct swc_dev *d)
{
	uint32_t top = 0;
	uint64_t ts = 0;

	for (int p = 0; p < d->npts; p++)
		if (d->pts[p].n[SWC_DISCARD] > top) {
			top = d->pts[p].n[SWC_DISCARD];
			ts = d->pts[p].ts;
		}
	if (top || d->discards)
		report_line(rc, "  discard: %llu scheduled, at most %u clusters waiting "
			    "(%.3f s)", ULL(d->discards), top, report_rel_s(rc, ts));
}

static void swap_dev_series(struct report_ctx *rc, const struct swapclust_model *m,
			    const struct swc_dev *d)
{
	int ord[3], no = swap_pick_orders(d, ord), step;
	char head[128], buf[128], sz[24];
	int off;

	if (!d->npts)
		return;
	off = snprintf(head, sizeof(head), "  %9s %5s %5s %5s", "time s", "free", "full",
		       "unkn");
	for (int i = 0; i < no; i++)
		off += snprintf(head + off, sizeof(head) - (size_t)off, " %5s %5s",
				"nf", "frag");
	snprintf(head + off, sizeof(head) - (size_t)off, " %4s", "max");
	if (swapclust_model_rules(m) == SWC_RULES_61)
		report_line(rc, "  clusters over time (%s keeps no lists: nf = partly used, "
			    "by order;", rules61_name(rc));
	else
		report_line(rc, "  clusters over time (nf/frag: nonfull and frag lists per "
			    "order;");
	off = snprintf(buf, sizeof(buf), "  orders:");
	for (int i = 0; i < no; i++)
		off += snprintf(buf + off, sizeof(buf) - (size_t)off, " %d (%s)", ord[i],
				size_name(rc, ord[i], sz, sizeof(sz)));
	report_line(rc, "%s; max: largest order with a usable list)", buf);
	report_line(rc, "%s", head);
	step = d->npts > MAXROWS ? (d->npts + MAXROWS - 1) / MAXROWS : 1;
	for (int p = 0; p < d->npts; p += step) {
		const struct swc_point *pt = &d->pts[p];

		if (p + step >= d->npts)
			pt = &d->pts[d->npts - 1];
		off = snprintf(buf, sizeof(buf), "  %9.3f %5u %5u %5u", report_rel_s(rc, pt->ts),
			       pt->n[SWC_FREE], pt->n[SWC_FULL], pt->n[SWC_UNKNOWN]);
		for (int i = 0; i < no; i++)
			off += snprintf(buf + off, sizeof(buf) - (size_t)off, " %5u %5u",
					pt->nonfull[ord[i]], pt->frag[ord[i]]);
		if (pt->largest_order == SWC_ORDER_UNKNOWN)
			snprintf(buf + off, sizeof(buf) - (size_t)off, " %4s", "-");
		else if (pt->largest_order < 0)	/* every slot in use */
			snprintf(buf + off, sizeof(buf) - (size_t)off, " %4s", "none");
		else
			snprintf(buf + off, sizeof(buf) - (size_t)off, " %4d", pt->largest_order);
		report_line(rc, "%s", buf);
		if (pt == &d->pts[d->npts - 1])
			break;
	}
	swap_dev_discard(rc, d);
}

static void swap_dev_zero(struct report_ctx *rc, const struct swc_dev *d)
{
	char buf[256];
	int off = 0;

	if (d->detail_lost) {
		report_line(rc, "  free clusters: not known (slots went out at %.3f s with",
			    report_rel_s(rc, d->lost_ts));
		report_line(rc, "  no probe event to place them)");
		return;
	}
	if (!d->free_known) {
		report_line(rc, "  free clusters: not known (clusters unknown at the start)");
		return;
	}
	report_line(rc, "  free clusters now %u, fewest %u at %.3f s; ran out %llu time%s",
		    d->n[SWC_FREE], d->free_min, report_rel_s(rc, d->free_min_ts),
		    ULL(d->zero_count), d->zero_count == 1 ? "" : "s");
	for (uint64_t i = 0; i < d->zero_count && i < 6; i++)
		off += snprintf(buf + off, sizeof(buf) - (size_t)off, "%s%.3f",
				i ? ", " : "", report_rel_s(rc, d->zero_ts[i]));
	if (d->zero_count)
		report_line(rc, "  ran out at %s s%s", buf, d->zero_count > 6 ? ", ..." : "");
}

static void swap_orders_probes(struct report_ctx *rc, const struct swapclust_model *m)
{
	char sz[24];
	int any = 0;

	for (int o = 1; o < SWC_NORDERS; o++) {
		const struct swc_order *so = swapclust_model_order(m, o);

		if (!so->attempts && !(so->has_counters && (so->swpout_last != so->swpout_first ||
		    so->fb_last != so->fb_first)))
			continue;
		if (!any++) {
			report_line(rc, "order>0 swap-out: probes (%s) beside the kernel's "
				    "counters", alloc_fn(rc));
			report_line(rc, "  %-5s %8s %8s %8s %6s  %8s %8s %6s", "size", "tries",
				    "ok", "fallbk", "fb%", "swpout", "fallbk", "fb%");
		}
		uint64_t ks = (uint64_t)(so->swpout_last - so->swpout_first);
		uint64_t kf = (uint64_t)(so->fb_last - so->fb_first);

		char fb[16], kfb[16];

		/* a share of nothing (no tries of the --pid/--comm tasks) is '-' */
		pct_text(fb, sizeof(fb), so->fallback, so->attempts);
		pct_text(kfb, sizeof(kfb), kf, ks + kf);
		if (so->has_counters)
			report_line(rc, "  %-5s %8llu %8llu %8llu %6s  %8llu %8llu %6s",
				    size_name(rc, o, sz, sizeof(sz)), ULL(so->attempts), ULL(so->ok),
				    ULL(so->fallback), fb, ULL(ks), ULL(kf), kfb);
		else
			report_line(rc, "  %-5s %8llu %8llu %8llu %6s  %8s %8s %6s",
				    size_name(rc, o, sz, sizeof(sz)), ULL(so->attempts), ULL(so->ok),
				    ULL(so->fallback), fb, "-", "-", "-");
	}
	if (!any) {
		report_line(rc, "order>0 swap-out: none attempted");
		return;
	}
	for (int o = 1; o < SWC_NORDERS; o++) {
		const struct swc_order *so = swapclust_model_order(m, o);

		if (so->has_counters && so->zsw_last > so->zsw_first)
			report_line(rc, "  %s: zswap took %llu whole (mTHP zswpout), not "
				    "counted in swpout", size_name(rc, o, sz, sizeof(sz)),
				    ULL(so->zsw_last - so->zsw_first));
		if (!so->fallback)
			continue;
		report_line(rc, "  %s fallbacks, the state when each happened:",
			    size_name(rc, o, sz, sizeof(sz)));
		for (int c = 0; c < SWC_NCAUSES; c++)
			if (so->cause[c])
				report_line(rc, "    %8llu %5.1f%%  %s", ULL(so->cause[c]),
					    pct(so->cause[c], so->fallback), cause_text(m, c));
	}
	report_line(rc, "  (the kernel counts swpout at write-out and, from 6.13, zswap "
		    "stores");
	report_line(rc, "  apart as zswpout; ok = swpout + zswpout when all went out)");
}

/* Order-0 folios that got no swap slot (swap full, or no device could
 * take them): among them the order-0 pieces of large folios split after a
 * fallback. Such a page is not paged out; it stays in memory. */
static void swap_order0_failures(struct report_ctx *rc, const struct swapclust_model *m)
{
	const struct swc_order *so = swapclust_model_order(m, 0);
	uint64_t failed = so->attempts - so->ok;

	if (!so->attempts || so->ok >= so->attempts)
		return;
	report_line(rc, "order-0 swap slots: %llu tries, %llu ok, %llu failed (%.1f%%):",
		    ULL(so->attempts), ULL(so->ok), ULL(failed), pct(failed, so->attempts));
	report_line(rc, "  no slot free (swap full); those pages were not paged out");
}

/* The seed-style table: per size, first half and second half. */
static void swap_seed_table(struct report_ctx *rc, const struct swapclust_model *m)
{
	int any = 0;

	for (int o = 0; o < SWC_NORDERS; o++) {
		int n = swapclust_model_nctr(m, o), mid;
		const struct swc_ctr_point *a, *b, *c;

		if (n < 2 || o == 0)
			continue;
		a = swapclust_model_ctr(m, o, 0);
		c = swapclust_model_ctr(m, o, n - 1);
		if (a->swpout == c->swpout && a->fallback == c->fallback)
			continue;
		mid = n / 2;
		b = swapclust_model_ctr(m, o, mid);
		if (!any++)
			report_line(rc, "per size, first and second half of the samples "
				    "(kernel counters):");
		for (int h = 0; h < 2; h++) {
			const struct swc_ctr_point *x = h ? b : a, *y = h ? c : b;
			uint64_t s = (uint64_t)(y->swpout - x->swpout);
			uint64_t f = (uint64_t)(y->fallback - x->fallback);

			report_line(rc, "  hugepages-%lukB swpout %llu fallback %llu (%.1f%%) %s",
				    report_order_kb(rc, o), ULL(s), ULL(f), pct(f, s + f),
				    h ? "2nd" : "1st");
		}
	}
}

/* Per-order swpout/fallback per interval from the counters, and beside
 * them the probes' tries and fallbacks in the same intervals. */
static void swap_counter_series(struct report_ctx *rc, const struct swapclust_model *m)
{
	char sz[24];
	int probes = swapclust_model_has_results(m);

	for (int o = 1; o < SWC_NORDERS; o++) {
		int n = swapclust_model_nctr(m, o), step;
		const struct swc_ctr_point *f, *l;

		if (n < 2)
			continue;
		f = swapclust_model_ctr(m, o, 0);
		l = swapclust_model_ctr(m, o, n - 1);
		if (f->swpout == l->swpout && f->fallback == l->fallback && f->tries == l->tries)
			continue;
		report_line(rc, "%s swap-out over time (counters%s, per interval):",
			    size_name(rc, o, sz, sizeof(sz)), probes ? " | probes" : "");
		if (probes)
			report_line(rc, "  %9s %10s %10s %7s | %8s %8s %6s", "until s", "swpout",
				    "fallback", "fb%", "tries", "fallbk", "fb%");
		else
			report_line(rc, "  %9s %10s %10s %7s", "until s", "swpout", "fallback",
				    "fb%");
		step = (n - 1 + MAXROWS - 1) / MAXROWS;
		if (step < 1)
			step = 1;
		for (int i = 0; i + 1 < n; i += step) {
			int j = i + step < n ? i + step : n - 1;
			const struct swc_ctr_point *x = swapclust_model_ctr(m, o, i);
			const struct swc_ctr_point *y = swapclust_model_ctr(m, o, j);
			uint64_t s = (uint64_t)(y->swpout - x->swpout);
			uint64_t fb = (uint64_t)(y->fallback - x->fallback);

			if (probes)
				report_line(rc, "  %9.3f %10llu %10llu %6.1f%% | %8llu %8llu "
					    "%5.1f%%", report_rel_s(rc, y->ts), ULL(s), ULL(fb),
					    pct(fb, s + fb), ULL(y->tries - x->tries),
					    ULL(y->fb - x->fb), pct(y->fb - x->fb, y->tries - x->tries));
			else
				report_line(rc, "  %9.3f %10llu %10llu %6.1f%%",
					    report_rel_s(rc, y->ts), ULL(s), ULL(fb),
					    pct(fb, s + fb));
		}
	}
}

static void swap_free_batches(struct report_ctx *rc, const struct swapclust_model *m)
{
	int nb;
	const uint64_t *b = swapclust_model_free_batches(m, &nb);
	uint64_t pairs, sw = swapclust_model_free_switches(m, &pairs), total = 0;
	uint64_t dev, cl, unk;
	char buf[256];
	int off = 0;

	for (int i = 0; i < nb; i++)
		total += b[i];
	if (!total)
		return;
	for (int i = 0; i < nb && off < (int)sizeof(buf) - 32; i++)
		if (b[i])
			off += snprintf(buf + off, sizeof(buf) - (size_t)off, "%s%llu:%llu",
					off ? " " : "", 1ULL << i, ULL(b[i]));
	report_line(rc, "frees: %llu batches (per CPU, gaps < 100 us), slots per batch", ULL(total));
	report_wrap(rc, "  (from 2^k: count) ", buf);
	report_line(rc, "  consecutive frees switching device: %llu of %llu", ULL(sw), ULL(pairs));
	swapclust_model_free_scatter(m, &pairs, &dev, &cl, &unk);
	if (!pairs && unk) {	/* 7.x probe sets with the slot only */
		report_line(rc, "  a task's next free in another cluster or device: -");
		report_line(rc, "    (the free probe gives no cluster: %llu pairs not "
			    "placed)", ULL(unk));
		return;
	}
	/* swap-free-scattered's count: dev + cl */
	report_line(rc, "  a task's next free in another cluster or device: %llu",
		    ULL(dev + cl));
	report_line(rc, "    of %llu pairs (device %llu, cluster %llu), %llu not placed",
		    ULL(pairs), ULL(dev), ULL(cl), ULL(unk));
}

/* Without probes: if no device can take order>0, every order>0 fallback
 * the counters show is that device's doing. */
static void swap_no_large_device(struct report_ctx *rc, const struct swapclust_model *m)
{
	int64_t fb = 0;
	int n = 0;

	for (int i = 0; i < swapclust_model_ndevs(m); i++) {
		const struct swc_dev *d = swapclust_model_dev(m, i);

		if (!d->active)
			continue;
		if (d->large_ok != 0)
			return;
		n++;
	}
	for (int o = 1; o < SWC_NORDERS; o++) {
		const struct swc_order *so = swapclust_model_order(m, o);

		if (so->has_counters)
			fb += so->fb_last - so->fb_first;
	}
	if (n && fb > 0) {
		char buf[160];

		snprintf(buf, sizeof(buf), "all %lld order>0 fallbacks are the devices' "
			 "doing: no active swap device can take order>0", LL(fb));
		report_wrap(rc, "", buf);
	}
}

/* Moves that could not be placed, by transition: the lists they should
 * have changed are off by that many (counted, not guessed). */
static void swap_unplaced(struct report_ctx *rc, const struct swapclust_model *m)
{
	char buf[512];
	int off = 0;

	off += snprintf(buf, sizeof(buf), "%llu cluster moves named no cluster this model "
			"could place (the 7.x move and free probes carry no cluster "
			"pointer); the lists over time miss them:",
			ULL(swapclust_model_unplaced(m)));
	for (int f = 0; f < SWC_NSTATES; f++)
		for (int t = 0; t < SWC_NSTATES; t++) {
			uint64_t n = swapclust_model_unplaced_move(m, f, t);

			if (n && off < (int)sizeof(buf) - 48)
				off += snprintf(buf + off, sizeof(buf) - (size_t)off,
						" %s->%s %llu", swc_state_name(f),
						swc_state_name(t), ULL(n));
		}
	report_wrap(rc, "note: ", buf);
}

void report_text_swap(struct report_ctx *rc)
{
	const struct swapclust_model *m = analysis_swapclust(rc->a);
	int probes = swapclust_model_has_probes(m);

	report_title(rc, "Swap clusters");
	if (!probes && !rc->in->has_samples) {
		/* A trace-cmd recording: one line says why the section is empty. */
		if (!*analysis_probe_set(rc->a))
			report_line(rc, "no swap probes or counter samples here "
				    "(needs mmscope record -g swap)");
		else {
			swap_why_no_probes(rc);
			report_needs_samples(rc, "swap counters");
		}
		return;
	}
	if (probes) {
		report_line(rc, "probes: %s", rules_text(rc, swapclust_model_rules(m)));
		probes_unverified_line(rc, "");
		if (analysis_probe_missed(rc->a, "swap", NULL, 0) != 0)
			report_probe_missed(rc, "swap", "lost: ");
	} else
		swap_why_no_probes(rc);
	swap_cluster_basis(rc, m);
	for (int i = 0; i < swapclust_model_ndevs(m); i++) {
		const struct swc_dev *d = swapclust_model_dev(m, i);

		swap_dev_head(rc, m, d);
		if (!probes)
			continue;
		swap_dev_zero(rc, d);
		if (d->large_ok != 0)
			swap_dev_series(rc, m, d);
	}
	if (!swapclust_model_ndevs(m))
		report_line(rc, "no swap device seen (no swap samples or probe events)");
	if (swapclust_model_unplaced(m))
		swap_unplaced(rc, m);
	if (probes && swapclust_model_has_results(m)) {
		swap_orders_probes(rc, m);
		swap_order0_failures(rc, m);
	} else
		swap_no_large_device(rc, m);
	swap_counter_series(rc, m);
	swap_seed_table(rc, m);
	if (probes)
		swap_free_batches(rc, m);
}

/* ---- zswap ---- */

/* v, or "-" when the kernel has no such counter (v < 0). */
static const char *num(char *buf, int64_t v)
{
	if (v < 0)
		return "-";
	snprintf(buf, 24, "%lld", LL(v));
	return buf;
}

/* v - base since the row before; "-" for the first row (no row before)
 * or when either sample lacks the counter. */
static const char *since(char *buf, int64_t v, int64_t base, int first)
{
	if (first || v < 0 || base < 0)
		return "-";
	snprintf(buf, 24, "%lld", LL(v - base));
	return buf;
}

static void zswap_series(struct report_ctx *rc, const struct zswap_model *m)
{
	/* pages are the kernel's: 4 KB on x86-64, 16 or 64 KB on some arm64
	 * (the analysis resolved it once) */
	double pg = (double)rc->in->page_size;
	int n = zswap_model_npoints(m), step = n > MAXROWS ? (n + MAXROWS - 1) / MAXROWS : 1;
	const struct zsw_point *prev = zswap_model_point(m, 0);

	report_line(rc, "  %8s %8s %8s %6s %5s %7s %6s %7s %4s", "time s", "stored",
		    "pool kB", "limit%", "ratio", "zswpout", "zswpwb", "pswpout", "infl");
	for (int i = 0; i < n; i += step) {
		const struct zsw_point *p = zswap_model_point(m, i + step >= n ? n - 1 : i);
		char lim[16] = "-", ratio[16] = "-";

		if (p->limit_pages > 0 && p->pool_bytes >= 0)
			snprintf(lim, sizeof(lim), "%.1f",
				 (double)p->pool_bytes / pg * 100.0 / (double)p->limit_pages);
		if (p->pool_bytes > 0 && p->stored_pages > 0)
			snprintf(ratio, sizeof(ratio), "%.2f",
				 (double)p->stored_pages * pg / (double)p->pool_bytes);
		char st[24], pool[24], zo[24], zw[24], po[24], inf[24];

		report_line(rc, "  %8.3f %8s %8s %6s %5s %7s %6s %7s %4s",
			    report_rel_s(rc, p->ts), num(st, p->stored_pages),
			    num(pool, p->pool_bytes >= 0 ? p->pool_bytes / 1024 : -1), lim,
			    ratio, since(zo, p->zswpout, prev->zswpout, p == prev),
			    since(zw, p->zswpwb, prev->zswpwb, p == prev),
			    since(po, p->pswpout, prev->pswpout, p == prev),
			    num(inf, p->inflight));
		prev = p;
		if (i + step >= n)
			break;
	}
	report_line(rc, "  (zswpout, zswpwb, pswpout: pages since the row before; "
		    "infl: swap");
	report_line(rc, "  device requests in flight; -: not sampled or no row before)");
}

/* "+N" between two samples of a counter, or "-" when either is missing. */
static const char *delta(char *buf, int64_t first, int64_t last, int known)
{
	if (!known || first < 0 || last < 0)
		return "-";
	snprintf(buf, 24, "%+lld", LL(last - first));
	return buf;
}

/* enabled/disabled, compressor and zpool, the pool limit. */
static void zswap_head(struct report_ctx *rc, const struct zswap_model *m,
		       const struct zsw_point *l)
{
	const struct zsw_settings *s = zswap_model_settings(m);
	int en = zswap_model_enabled(m);
	char lim[64] = "limit not known", mpp[24] = "-", comp[96] = "";

	if (l->limit_pages > 0)
		snprintf(lim, sizeof(lim), "limit %lld pages", LL(l->limit_pages));
	if (zswap_model_max_pool_percent(m) >= 0)
		snprintf(mpp, sizeof(mpp), "%d", zswap_model_max_pool_percent(m));
	if (s->compressor[0])
		snprintf(comp, sizeof(comp), ", compressor %s", s->compressor);
	if (s->zpool[0])	/* 6.15+ has zsmalloc only and no zpool parameter */
		snprintf(comp + strlen(comp), sizeof(comp) - strlen(comp), ", zpool %s",
			 s->zpool);
	uint64_t changed;
	int en0 = zswap_model_enabled_first(m, &changed);

	if (changed)	/* turned on or off during the recording */
		report_line(rc, "zswap %s, %s at %.3f s%s", en0 ? "enabled" : "disabled",
			    en ? "enabled" : "disabled", report_rel_s(rc, changed), comp);
	else
		report_line(rc, "zswap %s%s", en < 0 ? "enabled not sampled" :
			    en ? "enabled" : "disabled", comp);
	report_line(rc, "max_pool_percent %s (%s of total RAM)", mpp, lim);
	if (!zswap_model_has_pool(m)) {
		char why[128];

		if (s->pool_why[0])
			sample_reason_text(s->pool_why, why, sizeof(why));
		else
			snprintf(why, sizeof(why), "no zswap debugfs files in the samples");
		report_line(rc, "pool counters not sampled: %s", why);
	}
}

static void zswap_probes(struct report_ctx *rc, const struct zswap_model *m)
{
	static const char *const op[] = { "stores", "loads", "writebacks" };
	static const char *const okw[] = { "stored", "hit", "written back" };

	report_line(rc, "probes:");
	probes_unverified_line(rc, "  ");
	if (analysis_probe_missed(rc->a, "zswap", NULL, 0) != 0)
		report_probe_missed(rc, "zswap", "  lost: ");
	for (int i = 0; i < ZSWAP_OP_NR; i++) {
		uint64_t ok = zswap_model_probe_ok(m, i), no = zswap_model_probe_fail(m, i);
		int upper = i == ZSWAP_OP_WB && analysis_zswap_wb_upper_bound(rc->a);

		report_line(rc, "  %-10s %9llu: %9llu %s (%.1f%%), %llu not", op[i],
			    ULL(ok + no), ULL(ok), upper ? "returned 0" : okw[i],
			    pct(ok, ok + no), ULL(no));
		if (upper && ok)	/* probes.h: wb_zero_includes_freed */
			report_wrap(rc, "    ", "returned 0: written back, or its entry was "
				    "freed before it could be (this kernel returns 0 for "
				    "both); written_back_pages counts the writebacks alone");
	}
}

void report_text_zswap(struct report_ctx *rc)
{
	const struct zswap_model *m = analysis_zswap(rc->a);
	int n = zswap_model_npoints(m);
	const struct zsw_point *f = zswap_model_point(m, 0), *l = zswap_model_point(m, n - 1);

	report_title(rc, "zswap");
	if (!n && !zswap_model_has_probes(m)) {
		if (!report_needs_samples(rc, "zswap"))
			report_line(rc, "no zswap counters in the samples (no debugfs or zswap "
				    "not built)");
		return;
	}
	if (n) {
		char d1[24], d2[24], d3[24], d4[24];

		zswap_head(rc, m, l);
		if (f->zswpout == l->zswpout && f->pswpout == l->pswpout &&
		    f->stored_pages == l->stored_pages && !zswap_model_has_probes(m)) {
			report_line(rc, "no zswap or swap-out activity in the samples");
			return;
		}
		zswap_series(rc, m);
		for (int i = 0, k = 0; i < zswap_model_nrejects(m); i++) {
			const struct zsw_counter *c = zswap_model_reject(m, i);

			if (c->last == c->first)
				continue;
			if (!k++)
				report_line(rc, "rejects by reason (debugfs, over the "
					    "recording):");
			report_line(rc, "  %-28s %+lld", c->key, LL(c->last - c->first));
		}
		const struct zsw_counter *lh = zswap_model_counter(m, "pool_limit_hit");
		const struct zsw_counter *wb = zswap_model_counter(m, "written_back_pages");

		if (lh || wb)
			report_line(rc, "pool_limit_hit %s, written_back_pages %s",
				    delta(d1, lh ? lh->first : -1, lh ? lh->last : -1, lh && lh->seen),
				    delta(d2, wb ? wb->first : -1, wb ? wb->last : -1, wb && wb->seen));
		if (f->zswpout >= 0)	/* "-": the counter is not in this kernel */
			report_line(rc, "vmstat: zswpout %s, zswpin %s, zswpwb %s, pswpout %s",
				    delta(d1, f->zswpout, l->zswpout, 1),
				    delta(d2, f->zswpin, l->zswpin, 1),
				    delta(d3, f->zswpwb, l->zswpwb, 1),
				    delta(d4, f->pswpout, l->pswpout, 1));
		else if (f->pswpout >= 0)	/* vmstat sampled, without them */
			report_wrap(rc, "vmstat: ", "zswpout, zswpin, zswpwb not on this kernel "
				    "(before 5.19 /proc/vmstat has none; frontswap's debugfs "
				    "counters are not sampled)");
	}
	if (zswap_model_memcg(m)) {
		const struct zsw_memcg *c = zswap_model_memcg(m);
		char buf[320];

		snprintf(buf, sizeof(buf), "zswap %lld kB holding %lld kB, at most %lld kB "
			 "holding %lld kB (memory.stat of %s)", LL(c->last[0] / 1024),
			 LL(c->last[1] / 1024), LL(c->max[0] / 1024), LL(c->max[1] / 1024),
			 c->path);
		report_wrap(rc, "memcg: ", buf);
	}
	if (zswap_model_has_probes(m))
		zswap_probes(rc, m);
}

/* ---- JSON: one member per section, numbers only ---- */

/* Missed probe hits of a family (kprobe_profile): null when unknown or
 * the recording has no probes. */
static void probe_missed_json(struct report_ctx *rc, const char *family)
{
	long long m = analysis_probe_missed(rc->a, family, NULL, 0);

	json_s64_or_null(rc->jw, "probe_missed", m, rc->in->has_probes && m >= 0);
}

static const char *const cause_key[SWC_NCAUSES] = {
	"device", "no_cluster", "scan_failed", "free_left", "unknown", "config",
};

/* One time-series point: counts per state, lists per order (cumulative
 * counters are absolute, as in the samples). */
static void json_point(struct report_ctx *rc, const struct swapclust_model *m,
		       const struct swc_point *p)
{
	struct json_writer *j = rc->jw;

	json_object(j, NULL);
	json_fixed(j, "t", report_rel_s(rc, p->ts), 6);
	for (int s = 0; s < SWC_NSTATES; s++)
		if (s != SWC_NONFULL && s != SWC_FRAG)
			json_u64(j, swc_state_name(s), p->n[s]);
	/* one entry per order of the recording's kernel (SWAP_NR_ORDERS) */
	json_array(j, "nonfull");
	for (int o = 0; o < swapclust_model_norders(m); o++)
		json_u64(j, NULL, p->nonfull[o]);
	json_close(j);
	json_array(j, "frag");
	for (int o = 0; o < swapclust_model_norders(m); o++)
		json_u64(j, NULL, p->frag[o]);
	json_close(j);
	json_s64_or_null(j, "largest_order", p->largest_order,
			 p->largest_order != SWC_ORDER_UNKNOWN);
	json_u64(j, "used_slots", p->used_slots);
	json_close(j);
}

/* Whether the probes' per-order figures (attempts, ok, fallback, causes)
 * were measured: swap probe events came, or the recording says the swap
 * probes were installed (then none firing is a true 0). */
static int swap_probes_measured(struct report_ctx *rc, const struct swapclust_model *m)
{
	return swapclust_model_has_probes(m) || analysis_probes_swap(rc->a) == 1;
}

static void json_swap_order(struct report_ctx *rc, const struct swapclust_model *m, int o)
{
	const struct swc_order *so = swapclust_model_order(m, o);
	struct json_writer *j = rc->jw;
	int pm = swap_probes_measured(rc, m);

	json_object(j, NULL);
	json_s64(j, "order", o);
	json_u64_or_null(j, "attempts", so->attempts, pm);
	json_u64_or_null(j, "ok", so->ok, pm);
	json_u64_or_null(j, "fallback", so->fallback, pm);
	/* the deltas need the mTHP counter samples: null without them */
	json_s64_or_null(j, "swpout", so->swpout_last - so->swpout_first, so->has_counters);
	json_s64_or_null(j, "swpout_fallback", so->fb_last - so->fb_first, so->has_counters);
	if (pm) {
		json_object(j, "causes");
		for (int c = 0; c < SWC_NCAUSES; c++)
			json_u64(j, cause_key[c], so->cause[c]);
		json_close(j);
	} else
		json_null(j, "causes");
	json_array(j, "series");
	for (int i = 0; i < swapclust_model_nctr(m, o); i++) {
		const struct swc_ctr_point *p = swapclust_model_ctr(m, o, i);

		json_object(j, NULL);
		json_fixed(j, "t", report_rel_s(rc, p->ts), 6);
		json_s64(j, "swpout", p->swpout);
		json_s64(j, "swpout_fallback", p->fallback);
		json_s64(j, "zswpout", p->zswpout);
		json_u64_or_null(j, "tries", p->tries, pm);
		json_u64_or_null(j, "fallbacks", p->fb, pm);
		json_close(j);
	}
	json_close(j);
	json_close(j);
}

void report_json_swap(struct report_ctx *rc)
{
	const struct swapclust_model *m = analysis_swapclust(rc->a);
	struct json_writer *j = rc->jw;

	json_object(j, "swap");
	json_s64(j, "probes", swapclust_model_has_probes(m));
	json_probes_verified(rc);
	probe_missed_json(rc, "swap");
	json_s64(j, "rules", swapclust_model_rules(m));
	json_s64(j, "cluster_size", swapclust_model_cluster_size(m));
	json_s64(j, "cluster_basis", swapclust_model_cluster_basis(m));
	/* the sizes every order and cluster here rest on, and THP_SWAP (null
	 * when nothing in the recording tells) with where it comes from */
	json_s64(j, "page_size", rc->in->page_size);
	json_s64(j, "pmd_order", rc->in->pmd_order);
	json_str(j, "pmd_order_basis", analysis_basis_name(rc->in->pmd_order_basis));
	if (rc->in->thp_swap >= 0)
		json_bool(j, "thp_swap", rc->in->thp_swap);
	else
		json_null(j, "thp_swap");
	json_str(j, "thp_swap_basis", analysis_basis_name(rc->in->thp_swap_basis));
	{
		/* a task's consecutive frees (swap-free-scattered): null
		 * without the probes */
		uint64_t pairs, dev, cl, unk;
		int probes = swapclust_model_has_probes(m), pr = probes;

		swapclust_model_free_scatter(m, &pairs, &dev, &cl, &unk);
		if (!pairs && unk)	/* the free probe gives no cluster */
			pr = 0;
		json_object(j, "free_scatter");
		json_u64_or_null(j, "switches", dev + cl, pr);
		json_u64_or_null(j, "pairs", pairs, pr);
		json_u64_or_null(j, "device", dev, pr);
		json_u64_or_null(j, "cluster", cl, pr);
		json_u64_or_null(j, "not_placed", unk, probes);
		json_close(j);
	}
	json_array(j, "devices");
	for (int i = 0; i < swapclust_model_ndevs(m); i++) {
		const struct swc_dev *d = swapclust_model_dev(m, i);

		json_object(j, NULL);
		json_s64(j, "type", d->type);
		json_s64(j, "clusters", d->nclusters);
		/* what its size holds; null while the size is unknown */
		json_s64_or_null(j, "clusters_for_size", dev_clusters_for_size(m, d),
				 d->size_known);
		json_s64(j, "large_ok", d->large_ok);
		json_u64(j, "free", d->n[SWC_FREE]);
		json_u64(j, "full", d->n[SWC_FULL]);
		json_u64(j, "unknown", d->n[SWC_UNKNOWN]);
		/* the used slots moved with no probe event: clusters unknown
		 * since then (t), the fewest free and ran-out not measured */
		if (d->detail_lost)
			json_fixed(j, "detail_lost_t", report_rel_s(rc, d->lost_ts), 6);
		else
			json_null(j, "detail_lost_t");
		json_u64_or_null(j, "free_min", d->free_min, d->free_known);
		json_u64_or_null(j, "ran_out", d->zero_count, d->free_known);
		json_array(j, "series");
		for (int p = 0; p < d->npts; p++)
			json_point(rc, m, &d->pts[p]);
		json_close(j);
		json_close(j);
	}
	json_close(j);
	json_array(j, "orders");
	for (int o = 0; o < SWC_NORDERS; o++) {
		const struct swc_order *so = swapclust_model_order(m, o);

		if (so->attempts || so->has_counters)
			json_swap_order(rc, m, o);
	}
	json_close(j);
	/* results whose order was at an entry before the recording: with
	 * the orders' attempts, every result (PARTS OF A RUN) */
	json_u64_or_null(j, "results_order_unknown", swapclust_model_results_no_order(m),
			 swapclust_model_has_results(m));
	json_close(j);
}

/* A zswap point's value: the model keeps -1 for a counter it never saw. */
static void zswap_value(struct json_writer *j, const char *key, int64_t v)
{
	json_s64_or_null(j, key, v, v >= 0);
}

void report_json_zswap(struct report_ctx *rc)
{
	const struct zswap_model *m = analysis_zswap(rc->a);
	int n = zswap_model_npoints(m);
	const struct zsw_point *f = zswap_model_point(m, 0), *l = zswap_model_point(m, n - 1);
	static const char *const op[] = { "stores", "loads", "writebacks" };
	struct json_writer *j = rc->jw;
	char key[32];

	const struct zsw_settings *s = zswap_model_settings(m);
	int en = zswap_model_enabled(m);
	char why[128];

	json_object(j, "zswap");
	json_s64(j, "points", n);
	json_probes_verified(rc);
	probe_missed_json(rc, "zswap");
	uint64_t changed;
	int en0 = zswap_model_enabled_first(m, &changed);

	if (en < 0)
		json_null(j, "enabled");
	else
		json_bool(j, "enabled", en);
	/* the first sampled state, and when it changed (null: it did not) */
	if (en0 < 0)
		json_null(j, "enabled_first");
	else
		json_bool(j, "enabled_first", en0);
	if (changed)
		json_fixed(j, "enabled_changed_s", report_rel_s(rc, changed), 6);
	else
		json_null(j, "enabled_changed_s");
	if (s->compressor[0])
		json_str(j, "compressor", s->compressor);
	else
		json_null(j, "compressor");
	if (s->zpool[0])
		json_str(j, "zpool", s->zpool);
	else
		json_null(j, "zpool");
	json_s64_or_null(j, "max_pool_percent", zswap_model_max_pool_percent(m),
			 zswap_model_max_pool_percent(m) >= 0);
	/* why the debugfs pool counters are missing; null when sampled */
	if (zswap_model_has_pool(m) || !n)
		json_null(j, "pool_missing");
	else {
		if (s->pool_why[0])
			sample_reason_text(s->pool_why, why, sizeof(why));
		else
			snprintf(why, sizeof(why), "no zswap debugfs files in the samples");
		json_str(j, "pool_missing", why);
	}
	if (n) {	/* -1 in a point: no such counter, so null */
		json_s64_or_null(j, "stored_pages_last", l->stored_pages, l->stored_pages >= 0);
		json_s64_or_null(j, "pool_bytes_last", l->pool_bytes, l->pool_bytes >= 0);
		json_s64_or_null(j, "limit_pages", l->limit_pages, l->limit_pages >= 0);
		json_s64_or_null(j, "zswpout", l->zswpout - f->zswpout,
				 f->zswpout >= 0 && l->zswpout >= 0);
		json_s64_or_null(j, "zswpwb", l->zswpwb - f->zswpwb,
				 f->zswpwb >= 0 && l->zswpwb >= 0);
	}
	{	/* debugfs, as the text's line: the exact writebacks, 5.19 or not */
		const struct zsw_counter *wb = zswap_model_counter(m, "written_back_pages");

		json_s64_or_null(j, "written_back_pages", wb ? wb->last - wb->first : 0,
				 wb && wb->seen && wb->first >= 0 && wb->last >= 0);
	}
	for (int i = 0; i < ZSWAP_OP_NR; i++) {	/* null without the zswap kprobes */
		int upper = i == ZSWAP_OP_WB && analysis_zswap_wb_upper_bound(rc->a);

		snprintf(key, sizeof(key), "%s_ok", op[i]);
		json_u64_or_null(j, key, zswap_model_probe_ok(m, i),
				 zswap_model_has_probes(m) && !upper);
		snprintf(key, sizeof(key), "%s_not", op[i]);
		json_u64_or_null(j, key, zswap_model_probe_fail(m, i), zswap_model_has_probes(m));
	}
	/* 5.10, 6.1: the writeback probe's 0 returns, freed entries included
	 * (writebacks_ok is null there); null elsewhere */
	json_u64_or_null(j, "writebacks_ok_or_freed", zswap_model_probe_ok(m, ZSWAP_OP_WB),
			 zswap_model_has_probes(m) && analysis_zswap_wb_upper_bound(rc->a));
	json_array(j, "series");
	for (int i = 0; i < n; i++) {	/* absolute values; null: no such counter */
		const struct zsw_point *p = zswap_model_point(m, i);

		json_object(j, NULL);
		json_fixed(j, "t", report_rel_s(rc, p->ts), 6);
		zswap_value(j, "stored_pages", p->stored_pages);
		zswap_value(j, "pool_bytes", p->pool_bytes);
		zswap_value(j, "limit_pages", p->limit_pages);
		zswap_value(j, "zswpout", p->zswpout);
		zswap_value(j, "zswpin", p->zswpin);
		zswap_value(j, "zswpwb", p->zswpwb);
		zswap_value(j, "pswpout", p->pswpout);
		zswap_value(j, "pswpin", p->pswpin);
		zswap_value(j, "rejects", p->rejects);
		zswap_value(j, "pool_limit_hit", p->pool_limit_hit);
		zswap_value(j, "inflight", p->inflight);
		json_close(j);
	}
	json_close(j);
	json_close(j);
}
