// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The models on a 64 KB-page kernel (arm64 CONFIG_ARM64_64K_PAGES): page
 * size 65536 in the recording's header and run context, PMD 512 MB =
 * 8192 pages (HPAGE_PMD_ORDER 13), swap clusters of HPAGE_PMD_NR = 8192
 * slots (a kernel with THP_SWAP), mTHP sizes hugepages-128kB ..
 * hugepages-524288kB. Every per-order table is checked: orders 0..13
 * exist and no more, slot counts per cluster and per folio, folio sizes
 * in bytes, the kB -> order mapping of the mthp samples (swap and zswap
 * models), vmstat thp_swpout on the PMD order, /proc/swaps kB in 64 KB
 * pages, the zswap ratio in 64 KB pages, the fragmentation model's
 * pageblock order. A cluster size told after clusters exist lays the
 * device out again. Nothing here may come out as 4 KB or 512 slots.
 */
#include "config.h"
#include "analysis.h"
#include "model-frag.h"
#include "model-swapclust.h"
#include "model-zswap.h"
#include "tap.h"
#include "sample-rec.h"

#include <stdlib.h>
#include <string.h>

#define PG	65536u		/* bytes per page */
#define PMD_NR	8192		/* HPAGE_PMD_NR: 512 MB / 64 KB */
#define PMD_ORD	13

static struct swapclust_model *m;
static uint64_t now;

static void feed(struct record *r)
{
	r->ts = ++now * 1000000ULL;
	swapclust_model_add(m, r);
}

static struct record swap_rec(enum rec_type t, int type)
{
	struct record r;

	memset(&r, 0, sizeof(r));
	r.type = t;
	r.cpu = 1;
	r.pid = 100;
	r.swap.type = type;
	r.swap.order = -1;
	r.swap.offset = -1;
	r.swap.slot = -1;
	r.swap.count = -1;
	r.swap.old_flags = r.swap.new_flags = -1;
	return r;
}

/* The run context as the analysis passes it on: the page size and
 * SWAPFILE_CLUSTER are resolved there once and told to the model
 * (analysis_ctx_sizes); the rest is fed. */
static void ctx(const char *key, const char *value)
{
	struct record r;

	if (!strcmp(key, "page_size")) {
		swapclust_model_set_page_size(m, (uint32_t)strtoul(value, NULL, 10));
		return;
	}
	if (!strcmp(key, "swap.cluster_pages")) {
		swapclust_model_set_cluster_size(m, atoi(value));
		return;
	}

	memset(&r, 0, sizeof(r));
	r.type = REC_SETTING;
	r.setting.source = SRC_CTX;
	r.setting.instance = "start";
	r.setting.key = key;
	r.setting.value = value;
	feed(&r);
}

static void swapon(int type, uint64_t pages)
{
	struct record r = swap_rec(REC_SWAP_DEVICE, type);

	r.swap.ok = 1;
	r.swap.pages = pages;
	feed(&r);
}

static void alloc(int type, int64_t off, uint64_t nr)
{
	struct record r = swap_rec(REC_SWAP_ALLOC, type);

	r.swap.offset = off;
	r.swap.nr = nr;
	feed(&r);
}

static void folio(int order, int ok)
{
	struct record r = swap_rec(REC_SWAP_FOLIO, -1);

	r.swap.kind = SWFK_RESULT;
	r.swap.order = order;
	r.swap.ok = ok;
	feed(&r);
}

static void counter(enum sample_source src, const char *inst, const char *key, int64_t v,
		    uint64_t seq)
{
	struct record r = rec_counter(src, inst, key, v, seq);

	feed(&r);
}

static void end(uint64_t seq)
{
	struct record r = rec_sample_end(seq);

	feed(&r);
}

/* The mthp sample of one set: every size of a 64 KB arm64 kernel
 * (orders 1..13 as hugepages-<kB>), swpout and fallbacks given for two. */
static void mthp_set(uint64_t seq, int64_t pmd_out, int64_t o5_out, int64_t o5_fb)
{
	char kb[16][16];

	for (int o = 1; o <= PMD_ORD; o++) {
		snprintf(kb[o], sizeof(kb[o]), "%lu", (unsigned long)(PG / 1024) << o);
		counter(SRC_MTHP, kb[o], "swpout", o == PMD_ORD ? pmd_out : o == 5 ? o5_out : 0, seq);
		counter(SRC_MTHP, kb[o], "swpout_fallback", o == 5 ? o5_fb : 0, seq);
		counter(SRC_MTHP, kb[o], "zswpout", 0, seq);
	}
	end(seq);
}

static void test_swapclust(void)
{
	const struct swc_dev *d;
	const struct swc_order *so;
	char buf[64];

	m = swapclust_model_new(0);
	is_int(swapclust_model_set_page_size(m, PG), 0, "page size 65536 taken");
	is_int(swapclust_model_page_size(m), PG, "page size kept");
	is_int(swapclust_model_pmd_order(m), PMD_ORD, "PMD order 13 from the page size (65536 / 8)");
	is_int(swapclust_model_norders(m), PMD_ORD + 1, "14 orders (SWAP_NR_ORDERS = PMD_ORDER + 1)");
	is_int(swapclust_model_cluster_size(m), PMD_NR, "assumed cluster: HPAGE_PMD_NR = 8192, not 512");
	is_int(swapclust_model_cluster_basis(m), SWC_BASIS_ASSUMED, "... as assumed");
	/* the run context as mmscope record writes it on such a kernel */
	ctx("page_size", "65536");
	ctx("swap.cluster_pages", "8192");
	ctx("thp.hugepages-524288kB.enabled", "never");
	ctx("thp.hugepages-2048kB.enabled", "always");
	is_int(swapclust_model_cluster_size(m), PMD_NR, "cluster size from the run context: 8192");
	is_int(swapclust_model_cluster_basis(m), SWC_BASIS_RECORDED, "... recorded");
	is_int(swapclust_model_pmd_order(m), PMD_ORD, "PMD order from hugepages-524288kB: 13");

	/* a device of three clusters: slot 0 is the header */
	swapon(0, 3 * PMD_NR - 1);
	mthp_set(0, 0, 0, 0);
	d = swapclust_model_dev(m, 0);
	is_int(d->nclusters, 3, "3 * 8192 slots: 3 clusters");
	is_int(d->pages, 3 * PMD_NR - 1, "size in 64 KB slots");
	is_int(d->n[SWC_FREE], 2, "clusters 1 and 2 free");
	is_int(d->n[SWC_NONFULL], 1, "cluster 0 (header) nonfull");
	/* a PMD folio (512 MB) takes a whole cluster */
	folio(PMD_ORD, 1);
	alloc(0, PMD_NR, PMD_NR);
	/* a 2 MB mTHP (order 5, 32 slots) in cluster 2, and one that falls back */
	folio(5, 1);
	alloc(0, 2 * PMD_NR, 32);
	folio(5, 0);
	for (int i = 0; i < 32; i++) {
		folio(0, 1);
		alloc(0, 2 * PMD_NR + 32 + i, 1);
	}
	mthp_set(1, 1, 1, 1);
	d = swapclust_model_dev(m, 0);
	is_int(d->n[SWC_FULL], 1, "the PMD folio filled cluster 1 (8192 slots)");
	is_int(d->n[SWC_FREE], 0, "no free cluster left");
	is_int(d->used_slots, 1 + PMD_NR + 64, "slots used: header + 8192 + 32 + 32");
	is_int(swapclust_model_states_at(m, 0, now * 1000000ULL, (uint8_t[4]){ 0 }, 4), 3,
	       "3 cluster states replayed");

	/* the per-order table: 14 orders, sizes, probes and counters */
	for (int o = 0; o < SWC_NORDERS; o++) {
		so = swapclust_model_order(m, o);
		snprintf(buf, sizeof(buf), "order %d", o);
		if (o == PMD_ORD) {
			is_int(so->attempts, 1, "order 13: one try");
			is_int(so->ok, 1, "order 13: got 8192 slots");
			ok(so->has_counters && so->swpout_first == 0 && so->swpout_last == 1,
			   "order 13 = hugepages-524288kB: swpout 0 -> 1");
			is_int(swapclust_model_nctr(m, o), 2, "order 13: two counter points");
		} else if (o == 5) {
			is_int(so->attempts, 2, "order 5: two tries");
			is_int(so->ok, 1, "order 5: one got 32 slots");
			is_int(so->fallback, 1, "order 5: one fell back");
			ok(so->has_counters && so->swpout_last == 1 && so->fb_last == 1,
			   "order 5 = hugepages-2048kB: swpout 1, fallback 1");
		} else if (o == 0) {
			is_int(so->attempts, 32, "order 0: 32 single slots");
			ok(!so->has_counters, "order 0: no mthp counters (64 KB is not an mTHP)");
		} else {
			ok(!so->attempts && so->has_counters && so->swpout_last == 0,
			   "%s (%lu kB): sampled, nothing moved", buf,
			   (unsigned long)((uint64_t)PG << o) / 1024);
		}
		/* folio size: page size << order, in bytes */
		if (o == PMD_ORD)
			is_int((uint64_t)swapclust_model_page_size(m) << o, 512ULL << 20,
			       "order 13 folio: 512 MB");
		if (o == 5)
			is_int((uint64_t)swapclust_model_page_size(m) << o, 2ULL << 20,
			       "order 5 folio: 2 MB");
	}
	/* 2048 kB read as 4 KB << 9 would land on order 9 (32 MB here) */
	ok(swapclust_model_order(m, 9)->has_counters && swapclust_model_order(m, 9)->swpout_last == 0,
	   "order 9 is hugepages-32768kB: the 2 MB swap-out is not on it");
	swapclust_model_free(m);
}

/* 6.1-like: no mthp samples, only vmstat thp_swpout; /proc/swaps in kB. */
static void test_vmstat_pmd(void)
{
	const struct swc_dev *d;

	m = swapclust_model_new(0);
	swapclust_model_set_page_size(m, PG);
	counter(SRC_SWAP, "/dev/zram0", "size", (int64_t)(4 * PMD_NR - 1) * 64, 0);
	counter(SRC_SWAP, "/dev/zram0", "used", 0, 0);
	counter(SRC_VMSTAT, "", "thp_swpout", 3, 0);
	counter(SRC_VMSTAT, "", "thp_swpout_fallback", 1, 0);
	end(0);
	counter(SRC_SWAP, "/dev/zram0", "size", (int64_t)(4 * PMD_NR - 1) * 64, 1);
	counter(SRC_SWAP, "/dev/zram0", "used", 0, 1);
	counter(SRC_VMSTAT, "", "thp_swpout", 5, 1);
	counter(SRC_VMSTAT, "", "thp_swpout_fallback", 4, 1);
	end(1);
	d = swapclust_model_dev(m, 0);
	ok(d != NULL, "device from the swap sample");
	if (d) {
		is_int(d->pages, 4 * PMD_NR - 1, "/proc/swaps kB / 64: pages");
		is_int(d->nclusters, 4, "4 clusters of 8192");
	}
	ok(swapclust_model_order(m, PMD_ORD)->has_counters &&
	   swapclust_model_order(m, PMD_ORD)->swpout_last == 5 &&
	   swapclust_model_order(m, PMD_ORD)->fb_last == 4,
	   "vmstat thp_swpout(_fallback) on order 13");
	ok(!swapclust_model_order(m, 9)->has_counters, "... not on order 9");
	is_int(swapclust_model_cluster_basis(m), SWC_BASIS_THP, "THP counters: THP_SWAP basis");
	is_int(swapclust_model_cluster_size(m), PMD_NR, "cluster HPAGE_PMD_NR");
	swapclust_model_free(m);
}

/* The cluster size told after clusters exist (a probe fired before the
 * run context): the device is laid out again from its slots. */
static void test_late(void)
{
	const struct swc_dev *d;

	m = swapclust_model_new(0);	/* 4096 assumed: 512-slot clusters */
	swapon(0, 2 * PMD_NR - 1);
	alloc(0, PMD_NR, 100);
	d = swapclust_model_dev(m, 0);
	is_int(d->nclusters, 32, "before: 32 clusters of 512 (page size not told)");
	ctx("page_size", "65536");
	ctx("swap.cluster_pages", "8192");
	d = swapclust_model_dev(m, 0);
	is_int(swapclust_model_cluster_size(m), PMD_NR, "after: 8192");
	is_int(d->nclusters, 2, "after: 2 clusters of 8192");
	is_int(d->n[SWC_NONFULL], 2, "both partly used (header; 100 slots)");
	{
		uint8_t st[2] = { 0, 0 };

		is_int(swapclust_model_states_at(m, 0, now * 1000000ULL, st, 2), 2,
		       "2 states replayed after the new layout");
		ok(st[0] == SWC_NONFULL && st[1] == SWC_NONFULL, "replayed: both nonfull");
	}
	is_int(d->used_slots, 101, "used slots kept");
	alloc(0, PMD_NR + 100, PMD_NR - 100);
	is_int(d->n[SWC_FULL], 1, "filled up: full");
	is_int(swapclust_model_set_cluster_size(m, 8191), -1, "8191: not a power of two");
	is_int(swapclust_model_set_cluster_size(m, 65536), -1, "65536: too big");
	is_int(swapclust_model_set_page_size(m, 3000), -1, "page size 3000 refused");
	is_int(swapclust_model_page_size(m), PG, "... page size unchanged");
	swapclust_model_free(m);
}

static void test_zswap(void)
{
	struct zswap_model *z = zswap_model_new();
	struct record r;
	int64_t f = -1, l = -1;

	zswap_model_set_page_size(z, PG);	/* the run context's, from the analysis */
	for (uint64_t seq = 0; seq < 2; seq++) {
		r = rec_counter(SRC_MTHP, "524288", "zswpout", (int64_t)seq * 7, seq);
		zswap_model_add(z, &r);
		r = rec_counter(SRC_MTHP, "128", "zswpout", (int64_t)seq * 3, seq);
		zswap_model_add(z, &r);
		r = rec_counter(SRC_MTHP, "64", "zswpout", 99, seq);	/* order 0: no mTHP */
		zswap_model_add(z, &r);
		r = rec_counter(SRC_ZSWAP, "", "stored_pages", 10, seq);
		zswap_model_add(z, &r);
		r = rec_counter(SRC_ZSWAP, "", "pool_total_size", 163840, seq);
		zswap_model_add(z, &r);
		r = rec_sample_end(seq);
		zswap_model_add(z, &r);
	}
	ok(zswap_model_order_zswpout(z, PMD_ORD, &f, &l) && f == 0 && l == 7,
	   "zswap: hugepages-524288kB is order 13");
	ok(zswap_model_order_zswpout(z, 1, &f, &l) && l == 3, "zswap: hugepages-128kB is order 1");
	ok(!zswap_model_order_zswpout(z, 9, &f, &l), "zswap: nothing on order 9");
	ok(zswap_model_order_zswpout(z, 0, &f, &l) && l == 99, "zswap: 64 kB is order 0");
	/* 10 pages of 64 KB in 160 KB of pool: 4.0, not 0.25 */
	ok(zswap_model_ratio(z, PG) > 3.999 && zswap_model_ratio(z, PG) < 4.001,
	   "zswap ratio in 64 KB pages: 4.0");
	zswap_model_free(z);
}

static void test_frag(void)
{
	struct frag_model *f = frag_model_new();
	struct record r;
	const struct frag_zone *zn;

	is_int(frag_model_set_page_size(f, PG), 0, "frag: page size 65536");
	is_int(frag_model_hi_order(f), PMD_ORD, "frag: pageblock order 13");
	memset(&r, 0, sizeof(r));
	r.type = REC_BUDDY;
	r.ts = 1000;
	r.buddy.zone = "Normal";
	r.buddy.norders = 14;	/* /proc/buddyinfo of a 64 KB arm64: orders 0..13 */
	for (int o = 0; o < 14; o++)
		r.buddy.free[o] = 1;
	frag_model_add(f, &r);
	r = rec_sample_end(0);
	r.ts = 1000;
	frag_model_add(f, &r);
	zn = frag_model_zone(f, 0);
	ok(zn && zn->nseries == 1, "frag: one series point");
	if (zn) {
		is_int(zn->series_hi[0], 8192, "frag: pages in order>=13 blocks (not >= 9)");
		is_int(frag_free_pages(&zn->last), (1 << 14) - 1, "frag: 14 orders summed");
	}
	is_int(frag_model_set_page_size(f, 4096), 0, "frag: 4 KB");
	is_int(frag_model_hi_order(f), 9, "frag: 4 KB pageblock order 9");
	frag_model_free(f);
}

/*
 * The analysis resolves the page size and the cluster size once per
 * recording: the run context's page_size=65536 wins over a 4 KB header
 * page, and every model and every kB per order follow it.
 */
static void test_analysis(void)
{
	struct analysis *a = analysis_new_empty(NULL);
	const struct analysis_info *in = analysis_info(a);
	struct record r;

	is_int(in->page_size, 4096, "analysis: 4 KB until told");
	is_int(analysis_order_kb(in, 9), 2048, "analysis: order 9 of 4 KB: 2048 kB");
	memset(&r, 0, sizeof(r));
	r.type = REC_SETTING;
	r.setting.source = SRC_CTX;
	r.setting.instance = "start";
	r.setting.key = "page_size";
	r.setting.value = "65536";
	analysis_feed(a, &r);
	r.setting.key = "swap.cluster_pages";
	r.setting.value = "8192";
	analysis_feed(a, &r);
	is_int(in->page_size, PG, "analysis: the run context's page_size=65536");
	is_int(analysis_order_kb(in, PMD_ORD), 524288, "analysis: order 13 is 524288 kB");
	is_int(swapclust_model_page_size(analysis_swapclust(a)), PG, "analysis: swap model told");
	is_int(frag_model_hi_order(analysis_frag(a)), PMD_ORD, "analysis: frag model told");
	is_int(in->swap_cluster, PMD_NR, "analysis: cluster size 8192");
	is_int(swapclust_model_cluster_size(analysis_swapclust(a)), PMD_NR,
	       "analysis: swap model's cluster 8192");
	r.setting.key = "page_size";
	r.setting.value = "3000";
	analysis_feed(a, &r);
	is_int(in->page_size, PG, "analysis: page_size=3000 refused, 65536 kept");
	analysis_free(a);
}

/* A 4 KB kernel stays as before: 512 slots, order 9, 10 orders. */
static void test_4k(void)
{
	m = swapclust_model_new(0);
	swapclust_model_set_page_size(m, 4096);
	is_int(swapclust_model_cluster_size(m), 512, "4 KB: 512-slot clusters");
	is_int(swapclust_model_norders(m), 10, "4 KB: 10 orders");
	counter(SRC_MTHP, "2048", "swpout", 1, 0);
	counter(SRC_MTHP, "2048", "swpout_fallback", 0, 0);
	end(0);
	ok(swapclust_model_order(m, 9)->has_counters, "4 KB: 2048 kB is order 9");
	swapclust_model_free(m);
	m = swapclust_model_new(0);
	swapclust_model_set_page_size(m, 16384);
	is_int(swapclust_model_cluster_size(m), 2048, "16 KB: 2048-slot clusters (32 MB PMD)");
	is_int(swapclust_model_norders(m), 12, "16 KB: 12 orders");
	swapclust_model_free(m);
}

int main(void)
{
	test_swapclust();
	test_vmstat_pmd();
	test_late();
	test_zswap();
	test_frag();
	test_analysis();
	test_4k();
	return tap_done();
}
