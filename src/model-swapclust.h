/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Swap cluster model: per swap device, the occupancy and state of every
 * swap cluster, replayed from the swap kprobes (parsers/probe-swap.c), and
 * per mTHP order the allocation attempts, successes and fallbacks, beside
 * the kernel's own per-order swpout / swpout_fallback counters from the
 * "mthp" samples. Rules per kernel (kernel-facts.md 1.2-1.5): on 6.18 and
 * 7.x cluster moves are traced (move_cluster); on 6.1 and 6.12 states are
 * derived from the counts (and, on 6.12, the nonfull -> frag move of every
 * scanned cluster). A slot never seen is unknown; a cluster is unknown
 * until all its slots or its count were revealed (by allocs, frees, a
 * traced count, a swapon, or a first swap sample with nothing in use).
 * A revealed device whose sampled "used" moves while no probe event
 * touched it (no swap probes) loses its detail: every cluster is unknown
 * from then on, and its used slots are the sample's count.
 * Swapon and swapoff come from probes where the set has them, else from
 * a device appearing in or leaving the swap samples (by name).
 * Pure C, no I/O; O(1) per record (per-cluster and per-slot arrays).
 */
#ifndef MMSCOPE_MODEL_SWAPCLUST_H
#define MMSCOPE_MODEL_SWAPCLUST_H

#include <stdint.h>

#include "records.h"
#include "model.h"

/* Orders the model can hold: SWAP_NR_ORDERS is PMD_ORDER + 1, 10 on
 * 4 KB pages (x86-64, arm64 4K), 12 on 16 KB, 14 on 64 KB pages (arm64
 * 64K: 512 MB PMD, 8192 pages); swapclust_model_norders() says how many
 * the recording's kernel has. */
#define SWC_NORDERS	14
#define SWC_MAXDEV	32	/* MAX_SWAPFILES-ish: si->type is 5 bits */
#define SWC_NZERO_TS	32	/* times kept of free clusters running out */
#define SWC_ORDER_UNKNOWN (-2)	/* swc_point.largest_order: cannot be told */

enum swc_state {
	SWC_UNKNOWN, SWC_FREE, SWC_NONFULL, SWC_FRAG, SWC_FULL, SWC_DISCARD,
	SWC_NONE,	/* isolated off every list (6.18+: being allocated from) */
	SWC_NSTATES
};

enum swc_rules {
	SWC_RULES_AUTO,		/* decided by the records seen */
	SWC_RULES_61,		/* free / in use / discard; PMD order only */
	SWC_RULES_612,		/* derived lists; scan moves nonfull -> frag */
	SWC_RULES_MOVES,	/* 6.18, 7.x: move_cluster traced */
};

/* Why an order>0 allocation fell back to order 0 (the state then). */
enum swc_cause {
	SWC_CAUSE_DEVICE,	/* the device cannot take order>0 at all */
	SWC_CAUSE_NO_CLUSTER,	/* no free cluster, nonfull/frag[order] empty */
	SWC_CAUSE_SCAN_FAILED,	/* nonfull/frag[order] had clusters: no room */
	SWC_CAUSE_FREE_LEFT,	/* free clusters were left (per-CPU, race) */
	SWC_CAUSE_UNKNOWN,	/* unknown clusters: cannot tell */
	SWC_CAUSE_CONFIG,	/* the kernel has no THP_SWAP: every order>0 splits */
	SWC_NCAUSES
};

/* What a slot byte of swc_dev.slot says. */
enum swc_slot { SWC_SLOT_UNKNOWN, SWC_SLOT_FREE, SWC_SLOT_USED };

/* What the cluster size rests on (swapclust_model_cluster_basis()). */
enum swc_basis {
	SWC_BASIS_NO_THP = -1,	/* samples without THP counters: may be 256 */
	SWC_BASIS_ASSUMED,	/* no samples: HPAGE_PMD_NR assumed (THP_SWAP) */
	SWC_BASIS_THP,		/* THP counters in the samples: THP_SWAP, HPAGE_PMD_NR */
	SWC_BASIS_RECORDED,	/* the recording's metadata said */
	SWC_BASIS_NO_THP_SWAP,	/* not recorded, but THP_SWAP is off (the
				 * analysis knows it: swapclust_model_set_thp_swap): 256 */
};

/* One point of a device's time series (the state at ts). */
struct swc_point {
	uint64_t ts;				/* ns, trace clock */
	uint32_t n[SWC_NSTATES];		/* clusters per enum swc_state */
	uint32_t nonfull[SWC_NORDERS];		/* clusters on nonfull list [order] */
	uint32_t frag[SWC_NORDERS];		/* clusters on frag list [order] */
	int largest_order;	/* largest order allocatable without fallback, -1
				 * none, SWC_ORDER_UNKNOWN when the clusters are */
	uint64_t used_slots;	/* slots known in use */
};

/* One swap device (si->type), as the probes and samples showed it. */
struct swc_dev {
	int type;		/* si->type, also its index in the model */
	char name[64];		/* /proc/swaps name from the samples, "" if none */
	int active;		/* swapped on, or seen allocating or freeing */
	int blockdev;		/* 1 block device, 0 file, -1 unknown */
	int rotational;		/* 1 rotational, 0 not (SSD), -1 unknown */
	int large_ok;		/* can take order>0: 1, 0, -1 unknown */
	uint64_t pages;		/* usable slots (si->pages), 0 unknown */
	int nclusters;		/* clusters tracked: from the size, else the
				 * largest index seen (grown on demand) */
	int size_known;		/* pages came from a swapon probe or a sample */
	uint32_t n[SWC_NSTATES];	/* clusters per enum swc_state, now */
	uint32_t nonfull[SWC_NORDERS];	/* clusters on nonfull list [order], now */
	uint32_t frag[SWC_NORDERS];	/* clusters on frag list [order], now */
	uint64_t used_slots;	/* slots in use now, as the probes placed them
				 * (slot 0, the header, and slots past the size
				 * count as used); with detail_lost, the swap
				 * sample's count */
	uint32_t free_min;	/* fewest free clusters seen (valid if free_known) */
	uint64_t free_min_ts;	/* ns, when free_min was first reached */
	int free_known;		/* free count meaningful: revealed or none unknown */
	uint64_t zero_count;	/* times free clusters dropped to zero */
	uint64_t zero_ts[SWC_NZERO_TS];	/* ns of the first of them */
	uint64_t allocs, frees;	/* alloc / free records */
	uint64_t alloc_slots, free_slots;	/* slots in those records */
	uint64_t moves;		/* move_cluster records, placed or not */
	uint64_t swapons, swapoffs;	/* from probes, or the device entering or
					 * leaving the swap samples */
	uint64_t discards;	/* cluster discards scheduled */
	/* series: at most 2048 points, resolution halved when full */
	struct swc_point *pts;
	int npts, apts;		/* points used, allocated */
	/* internal */
	struct swc_cluster *cl;	/* [nclusters]: used/known slots, state, order */
	uint8_t *slot;		/* [nslots]: enum swc_slot per slot */
	uint64_t nslots;	/* nclusters * cluster size */
	int revealed;		/* a swapon or empty first sample showed every slot */
	int sampled;		/* seen in a complete swap sample set */
	int touched;		/* allocs or frees seen: "used 0" no longer reveals */
	int detail_lost;	/* slots went into or out of use with no probe
				 * event to place them: cluster states unknown
				 * since, free_min and ran-out not known */
	uint64_t lost_ts;	/* ns, when detail_lost was first set */
};

/* Per order: probes (attempts/ok/fallback, causes) and counters. */
struct swc_order {
	uint64_t attempts;	/* folio allocation results (fas_r) of this order */
	uint64_t ok;		/* of them, got slots of this order */
	uint64_t fallback;	/* of them, order>0 that fell back to order 0 */
	uint64_t cause[SWC_NCAUSES];	/* fallbacks per enum swc_cause */
	/* counters from the "mthp" samples (size = page size << order), in
	 * folios since boot: first and last complete sample set */
	int has_counters;	/* a sample set had this order */
	int64_t swpout_first, swpout_last;	/* swpout */
	int64_t fb_first, fb_last;		/* swpout_fallback */
	int64_t zsw_first, zsw_last;		/* zswpout */
};

/* Counter points per order: one per complete sample set, with the
 * probes' running totals for that order at the same moment. */
struct swc_ctr_point {
	uint64_t ts;			/* ns, the set's end */
	int64_t swpout, fallback, zswpout;	/* kernel counters, since boot */
	uint64_t tries, ok, fb;		/* probes, cumulative; 0 without */
};

/* A cluster state change, for replay to any time T. */
struct swc_change {
	uint64_t ts;		/* ns */
	uint32_t idx;		/* cluster index on the device */
	uint8_t dev;		/* si->type */
	uint8_t state;		/* enum swc_state after the change */
	uint8_t order;		/* the cluster's order after the change */
	uint8_t pad;
};

struct swapclust_model;

struct swapclust_model *swapclust_model_new(int cluster_size);
void swapclust_model_free(struct swapclust_model *m);
/* Rules from the kernel release ("6.12.117+deb12-amd64"); AUTO if unknown. */
void swapclust_model_set_kernel(struct swapclust_model *m, const char *release);
void swapclust_model_add(struct swapclust_model *m, const struct record *r);
void swapclust_model_finish(struct swapclust_model *m, uint64_t end_ts);

/* The cluster size from the recording (metadata swap_cluster=, or the
 * run context's swap.cluster_pages, which the model also takes from its
 * "ctx" setting records): SWAPFILE_CLUSTER, HPAGE_PMD_NR with THP_SWAP
 * (512 on 4 KB pages, 8192 on arm64 64 KB pages), else 256. A power of
 * two from 16 to 32768; -1 if not. Given after clusters were made, the
 * devices are laid out again from their slots (states by counts). */
int swapclust_model_set_cluster_size(struct swapclust_model *m, int slots);
/* The recording's page size in bytes (trace.dat header, or the run
 * context's page_size): mTHP sample sizes in kB become orders with it,
 * and until the recording says otherwise HPAGE_PMD_NR is page_size / 8
 * (a page table page of 8-byte entries: 512 on 4 KB, 8192 on 64 KB) for
 * the PMD order and the assumed cluster size. -1 if not a power of two
 * from 4096 to 65536 (nothing changed). */
int swapclust_model_set_page_size(struct swapclust_model *m, uint32_t page_size);
/* CONFIG_THP_SWAP as the analysis resolved it (1 set, 0 not, -1 not
 * known). Off: a cluster size not recorded is 256 (SWAPFILE_CLUSTER
 * without THP_SWAP, not HPAGE_PMD_NR), and an order>0 allocation that
 * falls back does so by configuration (SWC_CAUSE_CONFIG), whatever the
 * clusters' state. */
void swapclust_model_set_thp_swap(struct swapclust_model *m, int thp_swap);
int swapclust_model_thp_swap(const struct swapclust_model *m);
uint32_t swapclust_model_page_size(const struct swapclust_model *m);
/* The PMD order (HPAGE_PMD_ORDER: vmstat thp_swpout counts folios of
 * it): the largest hugepages-<size>kB the samples or the run context
 * named, else log2(page_size / 8). */
int swapclust_model_pmd_order(const struct swapclust_model *m);
/* Orders of the recording's kernel: PMD order + 1 (SWAP_NR_ORDERS). */
int swapclust_model_norders(const struct swapclust_model *m);
/* What the cluster size rests on (enum swc_basis; THP_SWAP follows THP
 * on x86-64, and THP_SWAP makes clusters HPAGE_PMD_NR slots, else 256). */
int swapclust_model_cluster_basis(const struct swapclust_model *m);
enum swc_rules swapclust_model_rules(const struct swapclust_model *m);
int swapclust_model_cluster_size(const struct swapclust_model *m);
/* Whether any swap probe record was seen (else: counters only). */
int swapclust_model_has_probes(const struct swapclust_model *m);
int swapclust_model_has_results(const struct swapclust_model *m);
/* Allocation results with no order: the probe set gives it only at the
 * entry (6.1) and the entry came before the recording (a part of a run:
 * before its cut); in no order's attempts. */
uint64_t swapclust_model_results_no_order(const struct swapclust_model *m);

int swapclust_model_ndevs(const struct swapclust_model *m);
const struct swc_dev *swapclust_model_dev(const struct swapclust_model *m, int i);
const struct swc_order *swapclust_model_order(const struct swapclust_model *m, int order);
/* The counter points of an order: one per complete sample set, the first
 * and last always; at most about max of them once swapclust_model_series_max
 * was given one (0: every set, the default; src/thin.h), before the
 * first record. */
void swapclust_model_series_max(struct swapclust_model *m, int max);
int swapclust_model_nctr(const struct swapclust_model *m, int order);
const struct swc_ctr_point *swapclust_model_ctr(const struct swapclust_model *m, int order,
						int i);
/* The sample interval in which the order's swpout_fallback counter first
 * and last rose, over every set: from the set before its first rise
 * (*from) to the set of its last (*to), ns; 0, or -1 when it never rose. */
int swapclust_model_fallback_rise(const struct swapclust_model *m, int order, uint64_t *from,
				  uint64_t *to);
/* Cluster states of device i at time ts (replayed from the change log):
 * fills out[0..n) and returns the number of clusters written. */
int swapclust_model_states_at(const struct swapclust_model *m, int i, uint64_t ts,
			      uint8_t *out, int n);
/* Moves that named no cluster we could place (7.x without pointers). */
uint64_t swapclust_model_unplaced(const struct swapclust_model *m);
/* Of those, the ones from state "from" to state "to". */
uint64_t swapclust_model_unplaced_move(const struct swapclust_model *m, enum swc_state from,
				       enum swc_state to);
/* Free batches: histogram of slots per batch (bucket b: 2^b .. 2^(b+1)-1),
 * batches, and consecutive frees that switched device. */
const uint64_t *swapclust_model_free_batches(const struct swapclust_model *m, int *nbuckets);
uint64_t swapclust_model_free_switches(const struct swapclust_model *m, uint64_t *pairs);
/* A task's consecutive frees (swap-free-scattered): pairs whose clusters
 * are known, of those the ones on another device and the ones in another
 * cluster of the same device; pairs with a cluster the probes do not give.
 * The switches are dev + cl. */
void swapclust_model_free_scatter(const struct swapclust_model *m, uint64_t *pairs,
				  uint64_t *dev, uint64_t *cl, uint64_t *unknown);
/* Trace-clock ns of the first and last of those switches; 0 none. */
void swapclust_model_free_scatter_times(const struct swapclust_model *m, uint64_t *first,
					uint64_t *last);

const char *swc_state_name(enum swc_state s);
const char *swc_cause_name(enum swc_cause c);

/* The model as the analysis driver runs it (model.h). */
extern const struct model_ops swapclust_model_ops;

#endif
