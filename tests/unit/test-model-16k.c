// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A 16 KB-page kernel (arm64 CONFIG_ARM64_16K_PAGES) through the
 * analysis, fed by hand as the parsers hand records out: the page size
 * and the run context as mmscope record writes them there (page_size
 * 16384, thp.hpage_pmd_size 32 MB, mTHP sizes hugepages-32kB ..
 * hugepages-32768kB, thp_swap=n, swap.cluster_pages 256). Checked: the
 * PMD order (11, not 9) and where it comes from, THP_SWAP and where it
 * comes from, the swap cluster size (256, not HPAGE_PMD_NR = 2048), the
 * kB of each order, khugepaged's PMD ranges (events without an order)
 * at order 11, and mTHP swap-out fallbacks reported as splits by
 * configuration (mthp-split-config), never as mthp-fallback; the probes'
 * fallbacks put down to the configuration, whatever the clusters hold.
 * Then THP_SWAP from the recorded cluster size alone, and a 4 KB kernel
 * with THP_SWAP, where the same counters are mthp-fallback.
 */
#include "config.h"
#include "analysis.h"
#include "findings.h"
#include "model-khugepaged.h"
#include "model-swapclust.h"
#include "tap.h"
#include "sample-rec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PG	16384u		/* bytes per page */
#define PMD_ORD	11		/* HPAGE_PMD_ORDER: 32 MB / 16 KB = 2048 pages */

static struct analysis *a;
static uint64_t now;

static void feed(struct record *r)
{
	r->ts = ++now * 1000000ULL;
	analysis_feed(a, r);
}

static void ctx(const char *key, const char *value)
{
	struct record r;

	memset(&r, 0, sizeof(r));
	r.type = REC_SETTING;
	r.setting.source = SRC_CTX;
	r.setting.instance = "start";
	r.setting.key = key;
	r.setting.value = value;
	feed(&r);
}

static void counter(enum sample_source src, const char *inst, const char *key, int64_t v,
		    uint64_t seq)
{
	struct record r = rec_counter(src, inst, key, v, seq);

	feed(&r);
}

/* One sample set: a 64 kB (order 2) and a 32768 kB (PMD) mTHP counter,
 * the rest of the sizes at 0. */
static void mthp_set(uint64_t seq, int64_t o2_out, int64_t o2_fb, int64_t pmd_fb)
{
	char kb[PMD_ORD + 1][16];
	struct record r;

	for (int o = 1; o <= PMD_ORD; o++) {
		snprintf(kb[o], sizeof(kb[o]), "%lu", (unsigned long)(PG / 1024) << o);
		counter(SRC_MTHP, kb[o], "swpout", o == 2 ? o2_out : 0, seq);
		counter(SRC_MTHP, kb[o], "swpout_fallback",
			o == 2 ? o2_fb : o == PMD_ORD ? pmd_fb : 0, seq);
	}
	r = rec_sample_end(seq);
	feed(&r);
}

/* The run context of a 16 KB arm64 kernel as mmscope record writes it. */
static void ctx_16k(int with_config)
{
	char key[64];

	ctx("page_size", "16384");
	for (int o = 1; o <= PMD_ORD; o++) {
		snprintf(key, sizeof(key), "thp.hugepages-%ukB.enabled", (PG / 1024) << o);
		ctx(key, o == 2 ? "always" : "never");
	}
	ctx("thp.hpage_pmd_size", "33554432");
	if (with_config) {
		ctx("thp_swap", "n");
		ctx("swap.cluster_pages", "256");
	}
}

static const struct finding *find(const struct findings *fs, const char *id, int order)
{
	for (int i = 0; i < fs->n; i++)
		if (!strcmp(fs->f[i].rule->id, id) && fs->f[i].order == order)
			return &fs->f[i];
	return NULL;
}

static int count_id(const struct findings *fs, const char *id)
{
	int n = 0;

	for (int i = 0; i < fs->n; i++)
		n += !strcmp(fs->f[i].rule->id, id);
	return n;
}

static void thp_rec(enum thp_kind kind, int order, int order_known)
{
	struct record r;

	memset(&r, 0, sizeof(r));
	r.type = REC_THP;
	r.thp.kind = kind;
	r.thp.order = order;
	r.thp.order_known = order_known;
	r.thp.ok = 1;
	r.thp.status = 1;
	r.thp.result = "succeeded";
	feed(&r);
}

static void test_config(void)
{
	const struct analysis_info *in;
	const struct swapclust_model *sm;
	const struct khugepaged_model *km;
	const struct finding *f;
	struct findings *fs;

	a = analysis_new_empty(NULL);
	in = analysis_info(a);
	ctx("page_size", "16384");
	is_int(in->page_size, PG, "page size 16384 from the run context");
	is_int(in->pmd_order, PMD_ORD, "PMD order 11 derived from 16 KB pages (16384 / 8)");
	is_int(in->pmd_order_basis, AB_DERIVED, "... derived");
	is_int(in->thp_swap, -1, "THP_SWAP not known yet (no config, no machine)");
	ctx_16k(1);
	is_int(in->pmd_order, PMD_ORD, "PMD order 11 from thp.hpage_pmd_size 32 MB");
	is_int(in->pmd_order_basis, AB_RECORDED, "... recorded");
	is_int(in->thp_swap, 0, "thp_swap=n: THP_SWAP off");
	is_int(in->thp_swap_basis, AB_RECORDED, "... from the kernel's config");
	sm = analysis_swapclust(a);
	is_int(swapclust_model_cluster_size(sm), 256, "swap cluster: 256 slots, not 2048");
	is_int(swapclust_model_pmd_order(sm), PMD_ORD, "swap model's PMD order 11");
	is_int(swapclust_model_norders(sm), PMD_ORD + 1, "12 orders (SWAP_NR_ORDERS)");
	is_int(analysis_order_kb(in, 2), 64, "order 2: 64 kB");
	is_int(analysis_order_kb(in, PMD_ORD), 32768, "order 11: 32768 kB (32 MB)");
	is_int(analysis_order_kb(in, 9), 8192, "order 9: 8192 kB, not the 4 KB PMD's 2048");

	/* khugepaged: a scan without an order is a PMD range: order 11 */
	thp_rec(THP_SCAN_PMD, -1, 0);
	thp_rec(THP_COLLAPSE, -1, 0);
	thp_rec(THP_COLLAPSE, 2, 1);	/* a 7.x mTHP collapse names its order */
	km = analysis_model(a, &khugepaged_model_ops);
	ok(khugepaged_model_order(km, PMD_ORD) &&
	   khugepaged_model_order(km, PMD_ORD)->scans == 1 &&
	   khugepaged_model_order(km, PMD_ORD)->collapses == 1,
	   "khugepaged: a scan and a collapse without an order at order 11");
	ok(!khugepaged_model_order(km, 9), "... none at order 9");
	ok(khugepaged_model_order(km, 2) && khugepaged_model_order(km, 2)->collapses == 1,
	   "... the mTHP collapse at its own order 2");

	/* every 64 kB swap-out fell back: by configuration */
	mthp_set(0, 0, 0, 0);
	mthp_set(1, 0, 100, 3);
	mthp_set(2, 0, 300, 5);
	analysis_finish(a, now * 1000000ULL);
	fs = findings_build(a);
	f = find(fs, "mthp-split-config", 2);
	ok(f && f->count == 300 && f->severity == FSEV_INFO,
	   "mthp-split-config: order 2, 300 splits (info)");
	if (f) {
		ok(strstr(f->summary, "64kB swap-outs: 300 split by configuration") != NULL,
		   "... summary names 64kB: %s", f->summary);
		ok(strstr(f->mechanism, "THP_SWAP") && strstr(f->mechanism, "256 slots"),
		   "... mechanism: THP_SWAP, clusters of 256: %s", f->mechanism);
	}
	f = find(fs, "mthp-split-config", PMD_ORD);
	ok(f && f->count == 5 && strstr(f->summary, "32768kB"),
	   "mthp-split-config: the PMD size, 32768kB, 5 splits");
	is_int(count_id(fs, "mthp-fallback"), 0, "no mthp-fallback: not fragmentation");
	findings_free(fs);
	analysis_free(a);
}

/* The probes' fallbacks: whatever the clusters hold, the cause is the
 * configuration once THP_SWAP is known to be off. */
static void test_probe_cause(void)
{
	const struct swc_order *so;
	struct record r;

	a = analysis_new_empty(NULL);
	ctx_16k(0);
	ctx("thp_swap", "n");	/* the config, no recorded cluster size */
	is_int(swapclust_model_cluster_size(analysis_swapclust(a)), 256,
	       "no cluster size recorded, THP_SWAP off: 256 assumed, not 2048");
	is_int(swapclust_model_cluster_basis(analysis_swapclust(a)), SWC_BASIS_NO_THP_SWAP,
	       "... its basis: no THP_SWAP");
	memset(&r, 0, sizeof(r));
	r.type = REC_SWAP_DEVICE;
	r.swap.type = 0;
	r.swap.ok = 1;
	r.swap.pages = 4 * 256 - 1;
	r.swap.order = r.swap.offset = r.swap.slot = r.swap.count = -1;
	r.swap.old_flags = r.swap.new_flags = -1;
	feed(&r);
	is_int(swapclust_model_dev(analysis_swapclust(a), 0)->nclusters, 4,
	       "1023 slots + header: 4 clusters of 256");
	r.type = REC_SWAP_FOLIO;
	r.swap.type = -1;
	r.swap.kind = SWFK_RESULT;
	r.swap.order = 2;
	r.swap.ok = 0;
	feed(&r);
	so = swapclust_model_order(analysis_swapclust(a), 2);
	ok(so->fallback == 1 && so->cause[SWC_CAUSE_CONFIG] == 1,
	   "a 64 kB fallback with free clusters left: cause THP_SWAP off (%s)",
	   swc_cause_name(SWC_CAUSE_CONFIG));
	analysis_finish(a, now * 1000000ULL);
	{
		const struct swc_dev *d = swapclust_model_dev(analysis_swapclust(a), 0);

		ok(d->npts > 0 && d->pts[d->npts - 1].n[SWC_FREE] > 0 &&
		   d->pts[d->npts - 1].largest_order == 0,
		   "free clusters, THP_SWAP off: the largest usable order is 0, not 8 (%d)",
		   d->npts ? d->pts[d->npts - 1].largest_order : -99);
	}
	analysis_free(a);
}

/* A device smaller than its one cluster: the header and the slots past
 * its size count as used, and it still has room (the report said "-1",
 * no usable order, of a device with 62 free slots). */
static void test_small_device(void)
{
	const struct swc_dev *d;
	struct record r;

	a = analysis_new_empty(NULL);
	ctx("page_size", "4096");
	ctx("thp.hpage_pmd_size", "2097152");
	ctx("swap.cluster_pages", "512");
	memset(&r, 0, sizeof(r));
	r.type = REC_SWAP_DEVICE;
	r.swap.type = 0;
	r.swap.ok = 1;
	r.swap.pages = 63;
	r.swap.order = r.swap.offset = r.swap.slot = r.swap.count = -1;
	r.swap.old_flags = r.swap.new_flags = -1;
	feed(&r);
	analysis_finish(a, now * 1000000ULL);
	d = swapclust_model_dev(analysis_swapclust(a), 0);
	ok(d->npts > 0 && d->pts[d->npts - 1].largest_order >= 0,
	   "63 slots in a 512-slot cluster, none in use: an order is usable (%d, used %llu)",
	   d->npts ? d->pts[d->npts - 1].largest_order : -99,
	   d->npts ? (unsigned long long)d->pts[d->npts - 1].used_slots : 0ULL);
	analysis_free(a);
}

/* THP_SWAP from the recorded cluster size alone (an older mmscope: no
 * thp_swap key), and a 4 KB kernel with THP_SWAP on: mthp-fallback. */
static void test_cluster_and_4k(void)
{
	const struct analysis_info *in;
	struct findings *fs;

	a = analysis_new_empty(NULL);
	in = analysis_info(a);
	ctx_16k(0);
	is_int(in->thp_swap, -1, "16 KB, no config, machine unknown: THP_SWAP unknown");
	ctx("swap.cluster_pages", "256");
	is_int(in->thp_swap, 0, "cluster 256 where HPAGE_PMD_NR is 2048: THP_SWAP off");
	is_int(in->thp_swap_basis, AB_CLUSTER, "... from the cluster size");
	analysis_free(a);

	a = analysis_new_empty(NULL);
	in = analysis_info(a);
	ctx("page_size", "4096");
	ctx("thp.hpage_pmd_size", "2097152");
	ctx("thp.hugepages-64kB.enabled", "always");
	ctx("swap.cluster_pages", "512");
	is_int(in->pmd_order, 9, "4 KB: PMD order 9");
	is_int(in->thp_swap, 1, "cluster 512 = HPAGE_PMD_NR: THP_SWAP on");
	for (uint64_t seq = 0; seq < 2; seq++) {
		struct record r;

		counter(SRC_MTHP, "64", "swpout", 10, seq);
		counter(SRC_MTHP, "64", "swpout_fallback", seq ? 40 : 0, seq);
		r = rec_sample_end(seq);
		feed(&r);
	}
	analysis_finish(a, now * 1000000ULL);
	fs = findings_build(a);
	ok(find(fs, "mthp-fallback", 4) && find(fs, "mthp-fallback", 4)->count == 40,
	   "4 KB with THP_SWAP: 64kB (order 4) fallbacks are mthp-fallback");
	is_int(count_id(fs, "mthp-split-config"), 0, "... and no mthp-split-config");
	findings_free(fs);
	analysis_free(a);
}

int main(void)
{
	test_config();
	test_probe_cause();
	test_cluster_and_4k();
	test_small_device();
	return tap_done();
}
