// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Swap cluster model on hand-built record sequences, one per kernel's
 * rules: 6.12 (derived lists; a scanned nonfull cluster moves to frag; a
 * free in a full cluster makes it nonfull; free clusters running out and
 * the attribution of a fallback then), 6.1 (discard scheduled and run,
 * fas/fas_r paired by pid), 7.x (moves placed through the cluster pointer
 * of reloc/isolate/free_cluster on the same CPU, the NONE state, DISCARD,
 * a move that names no cluster), slots never seen staying unknown and the
 * state replayed at an earlier time, swapoff/swapon mid-recording, the
 * counter-only view from mthp samples, device kinds from swap samples,
 * free batches and device switches. Clusters of 16 slots keep it short.
 */
#include "config.h"
#include "model-swapclust.h"
#include "tap.h"
#include "sample-rec.h"

#include <string.h>

#define CL 16
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

static void swapon(int type, uint64_t pages)
{
	struct record r = swap_rec(REC_SWAP_DEVICE, type);

	r.swap.ok = 1;
	r.swap.pages = pages;
	feed(&r);
}

static void swapoff(int type)
{
	struct record r = swap_rec(REC_SWAP_DEVICE, type);

	feed(&r);
}

static void range(enum rec_type t, int type, int64_t off, uint64_t nr)
{
	struct record r = swap_rec(t, type);

	r.swap.offset = off;
	r.swap.nr = nr;
	feed(&r);
}

static void scan(int type, int64_t off, int cpu)
{
	struct record r = swap_rec(REC_SWAP_SCAN, type);

	r.swap.offset = off;
	r.cpu = cpu;
	feed(&r);
}

static void folio(int order, int ok, int pid)
{
	struct record r = swap_rec(REC_SWAP_FOLIO, -1);

	r.swap.kind = SWFK_RESULT;
	r.swap.order = order;
	r.swap.ok = ok;
	r.pid = pid;
	feed(&r);
}

static void cluster(int kind, uint64_t ci, int count, int cpu)
{
	struct record r = swap_rec(REC_SWAP_CLUSTER, 0);

	r.swap.kind = kind;
	r.swap.ci = ci;
	r.swap.count = count;
	r.cpu = cpu;
	feed(&r);
}

static void move(int old, int new, int order, int count, int cpu)
{
	struct record r = swap_rec(REC_SWAP_MOVE, 0);

	r.swap.old_flags = old;
	r.swap.new_flags = new;
	r.swap.order = order;
	r.swap.count = count;
	r.cpu = cpu;
	feed(&r);
}

static void counter(enum sample_source src, const char *inst, const char *key,
		    int64_t v, uint64_t seq)
{
	struct record r = rec_counter(src, inst, key, v, seq);

	feed(&r);
}

static void sample_end(uint64_t seq)
{
	struct record r = rec_sample_end(seq);

	feed(&r);
}

static int st_now(int idx)
{
	uint8_t out[64];
	int n = swapclust_model_states_at(m, 0, UINT64_MAX, out, 64);

	return idx < n ? out[idx] : -1;
}

static void test_612(void)
{
	const struct swc_dev *d;

	m = swapclust_model_new(CL);
	swapclust_model_set_kernel(m, "6.12.117+deb12-amd64");
	swapon(0, 63);				/* 64 slots, 4 clusters */
	d = swapclust_model_dev(m, 0);
	is_int(d->nclusters, 4, "6.12: 4 clusters from the size");
	is_int(st_now(0), SWC_NONFULL, "6.12: cluster 0 holds the header: nonfull");
	is_int(d->n[SWC_FREE], 3, "6.12: 3 free clusters after swapon");
	range(REC_SWAP_ALLOC, 0, 16, 4);	/* order 2 */
	is_int(st_now(1), SWC_NONFULL, "6.12: first order-2 alloc makes nonfull");
	is_int(d->nonfull[2], 1, "6.12: nonfull[2] = 1");
	scan(0, 16, 1);
	is_int(st_now(1), SWC_FRAG, "6.12: scanned nonfull cluster moves to frag");
	is_int(d->frag[2], 1, "6.12: frag[2] = 1");
	is_int(d->nonfull[2], 0, "6.12: nonfull[2] = 0 after the scan");
	range(REC_SWAP_ALLOC, 0, 20, 4);
	is_int(st_now(1), SWC_FRAG, "6.12: alloc in a frag cluster keeps it frag");
	range(REC_SWAP_ALLOC, 0, 24, 8);
	is_int(st_now(1), SWC_FULL, "6.12: all slots used: full");
	range(REC_SWAP_FREE, 0, 16, 4);
	is_int(st_now(1), SWC_NONFULL, "6.12: a free in a full cluster: nonfull");
	range(REC_SWAP_FREE, 0, 20, 12);
	is_int(st_now(1), SWC_FREE, "6.12: count 0: free");
	is_int(d->zero_count, 0, "6.12: free clusters never ran out yet");
	range(REC_SWAP_ALLOC, 0, 16, 16);
	range(REC_SWAP_ALLOC, 0, 32, 16);
	range(REC_SWAP_ALLOC, 0, 48, 16);
	is_int(d->n[SWC_FREE], 0, "6.12: no free cluster left");
	is_int(d->zero_count, 1, "6.12: free clusters ran out once");
	is_int(d->used_slots, 49, "6.12: used slots counted (header + 48)");
	folio(2, 0, 100);
	is_int(swapclust_model_order(m, 2)->fallback, 1, "6.12: order-2 fallback counted");
	is_int(swapclust_model_order(m, 2)->cause[SWC_CAUSE_NO_CLUSTER], 1,
	       "6.12: attributed to no free cluster, nonfull empty");
	range(REC_SWAP_FREE, 0, 36, 4);		/* nonfull order 4 now */
	scan(0, 32, 1);				/* frag[4] */
	folio(4, 0, 100);
	is_int(swapclust_model_order(m, 4)->cause[SWC_CAUSE_SCAN_FAILED], 1,
	       "6.12: with frag[order] clusters: scan failed");
	swapclust_model_finish(m, now * 1000000ULL);
	ok(d->npts >= 2, "6.12: a time series was kept");
	swapclust_model_free(m);
}

static void test_unknown(void)
{
	const struct swc_dev *d;
	uint8_t out[8];

	m = swapclust_model_new(CL);
	swapclust_model_set_kernel(m, "6.12.1");
	range(REC_SWAP_ALLOC, 0, 40, 1);
	d = swapclust_model_dev(m, 0);
	is_int(st_now(2), SWC_UNKNOWN, "unknown: one slot seen, cluster unknown");
	ok(d->n[SWC_UNKNOWN] == (uint32_t)d->nclusters, "unknown: every cluster unknown");
	is_int(d->free_known, 0, "unknown: free count not known");
	range(REC_SWAP_FREE, 0, 40, 1);
	is_int(st_now(2), SWC_UNKNOWN, "unknown: a free reveals only its slot");
	uint64_t t = now * 1000000ULL;

	range(REC_SWAP_ALLOC, 0, 32, 16);
	is_int(st_now(2), SWC_FULL, "unknown: a whole-cluster alloc reveals it");
	swapclust_model_states_at(m, 0, t, out, 8);
	is_int(out[2], SWC_UNKNOWN, "unknown: state at an earlier time replayed");
	is_int(d->zero_count, 0, "unknown: no 'ran out' while clusters are unknown");
	swapclust_model_free(m);
}

static void test_61(void)
{
	const struct swc_dev *d;
	struct record r;

	m = swapclust_model_new(CL);
	swapclust_model_set_kernel(m, "6.1.0-57-amd64");
	swapon(0, 47);
	d = swapclust_model_dev(m, 0);
	range(REC_SWAP_ALLOC, 0, 16, 16);
	is_int(st_now(1), SWC_FULL, "6.1: PMD alloc fills a cluster");
	range(REC_SWAP_FREE, 0, 16, 16);
	is_int(st_now(1), SWC_FREE, "6.1: freed");
	r = swap_rec(REC_SWAP_DISCARD, 0);
	r.swap.offset = 1;
	feed(&r);
	is_int(st_now(1), SWC_DISCARD, "6.1: discard scheduled");
	is_int(d->discards, 1, "6.1: discard counted");
	r = swap_rec(REC_SWAP_DISCARD, 0);
	r.swap.kind = 1;
	feed(&r);
	is_int(st_now(1), SWC_FREE, "6.1: discard run frees it");
	r = swap_rec(REC_SWAP_FOLIO, -1);
	r.swap.kind = SWFK_ENTRY;
	r.swap.order = 4;
	r.pid = 7;
	feed(&r);
	folio(-1, 0, 7);
	is_int(swapclust_model_order(m, 4)->fallback, 1, "6.1: fas/fas_r paired by pid");
	range(REC_SWAP_ALLOC, 0, 32, 16);
	range(REC_SWAP_ALLOC, 0, 16, 16);
	range(REC_SWAP_FREE, 0, 16, 1);
	is_int(d->nonfull[4], 1, "6.1: a partly used PMD cluster");
	folio(4, 0, 8);
	is_int(swapclust_model_order(m, 4)->cause[SWC_CAUSE_NO_CLUSTER], 1,
	       "6.1: no lists: a PMD fallback without free clusters is 'no cluster'");
	swapclust_model_free(m);
}

static void test_7x(void)
{
	const struct swc_dev *d;
	const uint64_t base = 0x10000, sz = 48;

	m = swapclust_model_new(CL);
	swapclust_model_set_kernel(m, "7.3.4+deb13-amd64");
	swapon(0, 63);
	d = swapclust_model_dev(m, 0);
	scan(0, 32, 2);
	cluster(SWCK_RELOC, base + 2 * sz, 5, 2);
	move(0, 3, 2, 5, 2);
	is_int(st_now(2), SWC_FRAG, "7.x: move placed through reloc's cluster");
	is_int(d->frag[2], 1, "7.x: frag[2] = 1");
	scan(0, 48, 3);
	cluster(SWCK_RELOC, base + 3 * sz, 16, 3);
	move(0, 4, 2, 16, 3);
	is_int(st_now(3), SWC_FULL, "7.x: second cluster full");
	cluster(SWCK_ISOLATE, base + 2 * sz, -1, 1);
	is_int(st_now(2), SWC_NONE, "7.x: isolate: the NONE state");
	cluster(SWCK_FREECL, base + 3 * sz, 0, 1);
	move(4, 5, 0, 0, 1);
	is_int(st_now(3), SWC_DISCARD, "7.x: free_cluster -> discard (pointer learnt)");
	move(2, 3, 0, 7, 1);
	is_int(swapclust_model_unplaced(m), 1, "7.x: a move naming no cluster: unplaced");
	is_int(d->moves, 4, "7.x: moves counted, placed or not");
	is_int(swapclust_model_unplaced_move(m, SWC_NONFULL, SWC_FRAG), 1,
	       "7.x: the unplaced move is counted by transition");
	{	/* a free that names its cluster (a catalogue with ci) */
		struct record r = swap_rec(REC_SWAP_FREE, 0);

		r.swap.ci = base + 2 * sz;
		r.swap.slot = 3;
		r.swap.nr = 1;
		r.cpu = 6;
		feed(&r);
		move(0, 2, 2, 4, 6);
		is_int(st_now(2), SWC_NONFULL, "7.x: a partial free's move placed by its pointer");
		is_int(swapclust_model_unplaced(m), 1, "7.x: nothing more unplaced");
	}
	swapclust_model_free(m);
}

static void test_swapoff(void)
{
	const struct swc_dev *d;

	m = swapclust_model_new(CL);
	swapclust_model_set_kernel(m, "6.12.1");
	swapon(0, 63);
	range(REC_SWAP_ALLOC, 0, 16, 16);
	d = swapclust_model_dev(m, 0);
	swapoff(0);
	is_int(d->active, 0, "swapoff: device inactive");
	is_int(d->n[SWC_UNKNOWN], 4, "swapoff: clusters unknown");
	is_int(d->used_slots, 0, "swapoff: nothing in use");
	swapon(0, 31);
	is_int(d->n[SWC_FREE] + d->n[SWC_NONFULL], 2, "swapon again: smaller device revealed");
	is_int(d->swapons, 2, "swapon counted twice");
	is_int(d->swapoffs, 1, "swapoff counted");
	/* a swapoff of a device never seen (no size, no slots yet): counted,
	 * nothing cleared through a NULL slot map (UBSan; fuzzing found) */
	swapoff(3);
	d = swapclust_model_dev(m, swapclust_model_ndevs(m) - 1);
	is_int(d->type, 3, "swapoff of an unsized device: the device is kept");
	is_int(d->swapoffs, 1, "swapoff of an unsized device counted");
	is_int(d->nclusters, 0, "swapoff of an unsized device: no clusters");
	swapclust_model_free(m);
}

/* Issue 32.17: a device swapped on mid-recording whose swapon says no
 * size (6.18/7.x add_to_avail_list): no "fewest 0 free clusters" at its
 * swapon, no all-zero series row before its clusters existed. */
static void test_swapon_unsized(void)
{
	const struct swc_dev *d;
	int zero_rows = 0;

	m = swapclust_model_new(CL);
	swapclust_model_set_kernel(m, "6.18.1");
	swapon(0, 63);
	range(REC_SWAP_ALLOC, 0, 16, 16);
	swapon(1, 0);				/* size unknown yet */
	range(REC_SWAP_ALLOC, 1, 16, 16);	/* its first cluster used */
	d = swapclust_model_dev(m, 1);
	ok(d && d->nclusters >= 2, "unsized swapon: clusters once slots are used");
	ok(d && d->free_known && d->free_min > 0,
	   "unsized swapon: fewest free clusters not 0 before the device had any");
	for (int i = 0; d && i < d->npts; i++)
		zero_rows += !d->pts[i].n[SWC_FREE] && !d->pts[i].n[SWC_FULL] &&
			     !d->pts[i].n[SWC_NONFULL] && !d->pts[i].n[SWC_UNKNOWN];
	is_int(zero_rows, 0, "unsized swapon: no all-zero row in the series");
	is_int(d ? (int)d->zero_count : -1, 0, "unsized swapon: never ran out");
	swapclust_model_free(m);
}

static void test_counters(void)
{
	const struct swc_order *o;

	m = swapclust_model_new(0);
	counter(SRC_MTHP, "64", "swpout", 10, 0);
	counter(SRC_MTHP, "64", "swpout_fallback", 0, 0);
	counter(SRC_SWAP, "/dev/loop0", "size", 4096, 0);
	counter(SRC_SWAP, "/dev/loop0", "used", 0, 0);
	counter(SRC_SWAP, "/dev/loop0", "rotational", 0, 0);
	counter(SRC_SWAP, "/swapfile", "size", 4096, 0);
	sample_end(0);
	counter(SRC_MTHP, "64", "swpout", 20, 1);
	counter(SRC_MTHP, "64", "swpout_fallback", 5, 1);
	/* sizes no order of ours has (a damaged sample): left out, and
	 * LONG_MAX must not shift 4 past a long on the way (UBSan) */
	counter(SRC_MTHP, "9223372036854775807", "swpout", 7, 1);
	counter(SRC_MTHP, "8192", "swpout", 7, 1);
	counter(SRC_MTHP, "48", "swpout", 7, 1);
	sample_end(1);
	{
		int points = 0;

		for (int k = 0; k < SWC_NORDERS; k++)
			points += swapclust_model_nctr(m, k);
		is_int(points, 2, "counters: sizes of no known order are left out");
	}
	o = swapclust_model_order(m, 4);
	is_int(swapclust_model_has_probes(m), 0, "counters: no probes");
	is_int(swapclust_model_nctr(m, 4), 2, "counters: two points for 64kB");
	is_int(o->swpout_last - o->swpout_first, 10, "counters: swpout delta");
	is_int(o->fb_last - o->fb_first, 5, "counters: fallback delta");
	is_int(swapclust_model_ndevs(m), 2, "swap samples: two devices");
	is_int(swapclust_model_dev(m, 0)->large_ok, 1, "loop device: order>0 possible");
	is_int(swapclust_model_dev(m, 1)->large_ok, 0, "swap file: never order>0");
	is_int(swapclust_model_dev(m, 0)->n[SWC_FREE], 1, "empty device revealed free");
	counter(SRC_SWAP, "/swapfile", "size", 4096, 2);	/* loop0 swapped off */
	sample_end(2);
	is_int(swapclust_model_dev(m, 0)->swapoffs, 1, "gone from the samples: swapoff");
	is_int(swapclust_model_dev(m, 0)->n[SWC_FREE], 0, "after swapoff: nothing free known");
	is_str(swapclust_model_dev(m, 1)->name, "/swapfile", "the other device keeps its type");
	is_int(swapclust_model_dev(m, 1)->swapoffs, 0, "the other device stays on");
	counter(SRC_SWAP, "/dev/loop0", "size", 4096, 3);
	counter(SRC_SWAP, "/dev/loop0", "used", 0, 3);
	counter(SRC_SWAP, "/dev/loop0", "rotational", 0, 3);
	counter(SRC_SWAP, "/swapfile", "size", 4096, 3);
	sample_end(3);
	is_int(swapclust_model_dev(m, 0)->swapons, 1, "back in the samples: swapon");
	is_int(swapclust_model_dev(m, 0)->n[SWC_FREE], 1, "empty again: revealed free");
	is_int(swapclust_model_cluster_basis(m), 1, "cluster size: THP counters seen");
	/* told after clusters exist (the run context follows the first
	 * probes): the devices are laid out again, 1025 slots in 5 */
	is_int(swapclust_model_set_cluster_size(m, 256), 0, "cluster size told late: taken");
	is_int(swapclust_model_cluster_size(m), 256, "... 256 slots");
	is_int(swapclust_model_dev(m, 0)->nclusters, 5, "... 1025 slots: 5 clusters of 256");
	is_int(swapclust_model_dev(m, 0)->n[SWC_FREE], 3,
	       "... still revealed: 3 free (0 has the header, 4 the end)");
	is_int(swapclust_model_set_cluster_size(m, 300), -1, "cluster size 300 refused");
	swapclust_model_free(m);
	m = swapclust_model_new(0);
	is_int(swapclust_model_cluster_basis(m), 0, "cluster size: assumed");
	sample_end(0);
	is_int(swapclust_model_cluster_basis(m), -1, "cluster size: samples without THP");
	is_int(swapclust_model_set_cluster_size(m, 256), 0, "cluster size from metadata");
	is_int(swapclust_model_cluster_size(m), 256, "256-slot clusters");
	is_int(swapclust_model_cluster_basis(m), 2, "cluster size: from the recording");
	counter(SRC_SWAP, "/dev/huge", "size", INT64_MAX, 1);
	ok(swapclust_model_dev(m, 0)->nclusters <= (1 << 17),
	   "an absurd sampled size does not allocate without bound");
	swapclust_model_free(m);
}

/* Without swap probes the first empty sample reveals the device, but
 * once its "used" moves nothing says which slots: every cluster is
 * unknown from then on (issue 17.6: the view showed it free throughout),
 * the used count is the sample's, the fewest free clusters is not known,
 * and the state before the move stays in the history. With probes that
 * placed the slots, the sample moving changes nothing. */
static void swap_set(const char *dev, int64_t used_kb, uint64_t seq)
{
	counter(SRC_SWAP, dev, "size", 256, seq);	/* 64 slots: 5 clusters */
	counter(SRC_SWAP, dev, "used", used_kb, seq);
	counter(SRC_SWAP, dev, "rotational", 0, seq);
	sample_end(seq);
}

static void test_used_unseen(void)
{
	const struct swc_dev *d;
	uint8_t out[64];
	uint64_t t_empty;
	int n, unknown = 0;

	m = swapclust_model_new(CL);
	swap_set("/dev/loop0", 0, 0);
	t_empty = now * 1000000ULL;
	d = swapclust_model_dev(m, 0);
	is_int(d->n[SWC_UNKNOWN], 0, "no probes, empty sample: device revealed");
	is_int(d->free_known, 1, "no probes, empty sample: free clusters known");
	swap_set("/dev/loop0", 128, 1);		/* 32 slots went out unseen */
	is_int(d->n[SWC_UNKNOWN], d->nclusters, "used moved without probes: all unknown");
	is_int(d->n[SWC_FREE], 0, "used moved without probes: none known free");
	is_int(d->detail_lost, 1, "used moved without probes: detail lost");
	is_int(d->free_known, 0, "used moved without probes: fewest free not known");
	is_int(d->used_slots, 32, "used moved without probes: the sample's count");
	n = swapclust_model_states_at(m, 0, UINT64_MAX, out, 64);
	for (int i = 0; i < n; i++)
		unknown += out[i] == SWC_UNKNOWN;
	ok(n == d->nclusters && unknown == n, "replay at the end: every cluster unknown");
	n = swapclust_model_states_at(m, 0, t_empty, out, 64);
	ok(n > 1 && out[1] == SWC_FREE, "replay before the move: still free then");
	is_int(d->pts[d->npts - 1].n[SWC_UNKNOWN], d->nclusters,
	       "series point after the move: unknown");
	is_int(d->pts[d->npts - 1].largest_order, SWC_ORDER_UNKNOWN,
	       "series point after the move: largest order unknown");
	swap_set("/dev/loop0", 64, 2);
	is_int(d->used_slots, 16, "used moves again: the sample's count");
	swap_set("/dev/loop0", 0, 3);		/* all back in: empty is known */
	is_int(d->n[SWC_FREE] + d->n[SWC_NONFULL] + d->n[SWC_FULL], d->nclusters,
	       "empty again: revealed");
	is_int(d->free_known, 0, "empty again: the fewest free still not known");
	is_int(d->zero_count, 0, "no ran-out invented");
	swapclust_model_free(m);

	/* probes placed the slots: the sample moving is no news */
	m = swapclust_model_new(CL);
	swapclust_model_set_kernel(m, "6.12.1");
	swap_set("/dev/loop0", 0, 0);
	range(REC_SWAP_ALLOC, 0, 16, 16);
	swap_set("/dev/loop0", 64, 1);
	d = swapclust_model_dev(m, 0);
	is_int(d->detail_lost, 0, "with probes: detail kept");
	is_int(d->n[SWC_UNKNOWN], 0, "with probes: nothing unknown");
	is_int(d->n[SWC_FULL], 1, "with probes: the allocated cluster full");
	swapclust_model_free(m);
}

static void test_batches(void)
{
	int nb;
	const uint64_t *b;
	uint64_t pairs;

	m = swapclust_model_new(CL);
	range(REC_SWAP_FREE, 0, 1, 1);
	range(REC_SWAP_FREE, 1, 1, 1);
	range(REC_SWAP_FREE, 0, 2, 1);
	swapclust_model_finish(m, now * 1000000ULL);
	b = swapclust_model_free_batches(m, &nb);
	is_int(b[0], 3, "batches: 1 ms apart, three batches of one");
	is_int(swapclust_model_free_switches(m, &pairs), 2, "switches between devices");
	is_int(pairs, 2, "pairs of consecutive frees");
	swapclust_model_free(m);
}

/* swap-free-scattered: a task's consecutive frees in another cluster or
 * device; other tasks' frees between them do not count, a range is
 * compared by its last slot, and a free with no cluster is not placed. */
static void test_scatter(void)
{
	uint64_t pairs, dev, cl, unk, t0, t1, base = now;
	struct record r;

	m = swapclust_model_new(CL);
	range(REC_SWAP_FREE, 0, 1, 1);			/* task 100: cluster 0 */
	range(REC_SWAP_FREE, 0, 2, CL - 2);		/* cluster 0 .. its last slot */
	r = swap_rec(REC_SWAP_FREE, 0);			/* task 200, cluster 5 */
	r.pid = 200;
	r.swap.offset = 5 * CL;
	r.swap.nr = 1;
	feed(&r);
	range(REC_SWAP_FREE, 0, CL, 1);			/* 100: cluster 1: a switch */
	range(REC_SWAP_FREE, 1, CL + 1, 1);		/* 100: device 1: a switch */
	range(REC_SWAP_FREE, 1, CL + 2, 1);		/* same cluster and device */
	r = swap_rec(REC_SWAP_FREE, 1);			/* 100: slot only (7.x) */
	r.swap.slot = 3;
	r.swap.nr = 1;
	feed(&r);
	range(REC_SWAP_FREE, 1, CL + 3, 1);		/* after it: not placed */
	r.pid = 200;					/* 200 after cluster 5 */
	r.swap.slot = -1;
	r.swap.offset = 5 * CL + 7;
	feed(&r);					/* device 1 now: a switch */
	swapclust_model_finish(m, now * 1000000ULL);
	swapclust_model_free_scatter(m, &pairs, &dev, &cl, &unk);
	is_int(pairs, 5, "scatter: pairs of a task's frees with both clusters known");
	is_int(cl, 1, "scatter: one move to another cluster of the same device");
	is_int(dev, 2, "scatter: two moves to another device");
	is_int(unk, 2, "scatter: the pairs around a free without its cluster");
	swapclust_model_free_scatter_times(m, &t0, &t1);
	is_int(t0, (base + 4) * 1000000ULL, "scatter: first switch at the 4th record");
	is_int(t1, (base + 9) * 1000000ULL, "scatter: last switch at the 9th record");
	swapclust_model_free(m);

	m = swapclust_model_new(CL);			/* 7.x: the cluster pointer */
	for (int i = 0; i < 3; i++) {
		r = swap_rec(REC_SWAP_FREE, 0);
		r.swap.ci = i == 2 ? 0x2030 : 0x2000;
		r.swap.slot = i;
		r.swap.nr = 1;
		feed(&r);
	}
	swapclust_model_free_scatter(m, &pairs, &dev, &cl, &unk);
	is_int(cl, 1, "scatter: 7.x frees compared by cluster pointer");
	is_int(pairs, 2, "scatter: 7.x pairs");
	swapclust_model_free(m);
}

/* A long series kept at a few points (what the report asks): the sets
 * 0, s, 2s ... and the last, the deltas between them exact; the
 * fallback's first and last rises over every set, not over those kept. */
static void test_series_max(void)
{
	static const int64_t fb[20] = { 0, 0, 0, 0, 0, 3, 3, 3, 3, 7, 7, 7, 7, 7, 7, 7, 7, 7,
					7, 7 };
	uint64_t from = 0, to = 0, t[20];
	const struct swc_ctr_point *p;
	int n;

	m = swapclust_model_new(0);
	swapclust_model_series_max(m, 4);
	for (int i = 0; i < 20; i++) {
		counter(SRC_MTHP, "64", "swpout", 100 * i, (uint64_t)i);
		counter(SRC_MTHP, "64", "swpout_fallback", fb[i], (uint64_t)i);
		sample_end((uint64_t)i);
		t[i] = now * 1000000ULL;
	}
	n = swapclust_model_nctr(m, 4);
	is_int(n, 4, "series_max 4, 20 sets: sets 0, 8, 16 and the last");
	p = swapclust_model_ctr(m, 4, 0);
	ok(p->ts == t[0] && p->swpout == 0, "... the first set");
	p = swapclust_model_ctr(m, 4, 1);
	ok(p->ts == t[8] && p->swpout == 800 && p->fallback == 3, "... set 8, its own values");
	p = swapclust_model_ctr(m, 4, n - 1);
	ok(p->ts == t[19] && p->swpout == 1900, "... the last set");
	ok(!swapclust_model_fallback_rise(m, 4, &from, &to) && from == t[4] && to == t[9],
	   "fallback rose from set 4 to set 9, though neither is kept");
	ok(swapclust_model_fallback_rise(m, 5, &from, &to) == -1, "no rise: -1");
	swapclust_model_free(m);
}

int main(void)
{
	test_612();
	test_unknown();
	test_61();
	test_7x();
	test_swapoff();
	test_swapon_unsized();
	test_counters();
	test_used_unseen();
	test_batches();
	test_scatter();
	test_series_max();
	return tap_done();
}
