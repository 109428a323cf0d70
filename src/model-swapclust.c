// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Swap cluster model (see model-swapclust.h). The kernel exports no
 * per-cluster state, so it is rebuilt here from what the probes show, and
 * only from that. Each device keeps a byte per slot (unknown, free, used)
 * and a small struct per cluster (used and known slot counts, state,
 * order); the per-state and per-order list sizes are kept up to date on
 * every change, so a record costs O(nr) for its slot range and O(1)
 * otherwise. On 6.18/7.x the state comes from move_cluster; 7.x's move
 * probe names no cluster, so the cluster is the one the same CPU's
 * reloc/isolate/free_cluster probe named just before, and cluster
 * pointers become indexes once a scan (which gives an offset) and the
 * reloc that follows it on that CPU have shown two of them. Moves that
 * cannot be placed are counted, not guessed. On 6.1/6.12 the state is
 * derived from the counts by the version's rules. Every change goes into
 * a log, so front ends can ask for the state of every cluster at any
 * time; time series points are kept per device at a bounded rate.
 *
 * Per-CPU state (struct swc_cpu): the kernel works on a cluster under its
 * spinlock (or the CPU's local lock), preemption off, so the probes of
 * one cluster operation fire back to back on one CPU, and records are
 * folded by CPU to pair them: a scan's cluster (offset) with the reloc that
 * follows it on that CPU (which teaches pointer -> index), the last
 * cluster pointer a reloc/isolate/free_cluster or 7.x partial free named
 * with the move_cluster that follows on that CPU (a free in between
 * drops it), and frees on one CPU less than 100 us apart into one free
 * batch. CPU numbers fold modulo SWC_NCPU (256): on bigger machines CPU
 * n and n + 256 share one slot, so an interleaving of the two can pair
 * a move with the other CPU's cluster or merge their free batches.
 * 6.1's folio probes pair the same way by task: fas (the order at entry)
 * is kept per pid in a SWC_NPID-slot table and taken by that task's
 * fas_r; two tasks whose pids fold onto one slot while both are in
 * flight lose the first order, and that result is not counted.
 */
#include "config.h"
#include "model-swapclust.h"
#include "pidmap.h"
#include "thin.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SWC_TICK_NS	100000000ULL	/* first series resolution: 100 ms */
#define SWC_MAXPTS	2048		/* series points per device */
#define SWC_MAXLOG	(4u << 20)	/* cluster changes kept for replay */
#define SWC_NCPU	256		/* per-CPU slots (CPU numbers fold) */
#define SWC_BATCH_GAP	100000ULL	/* frees closer than 100 us: one batch */
#define SWC_NBUCKETS	12		/* free batch sizes 2^0 .. 2^11+ */
#define SWC_NPID	64		/* 6.1 fas -> fas_r pairing slots */
#define SWC_MIN_CLUSTER	16		/* SWAPFILE_CLUSTER bounds accepted */
#define SWC_MAX_CLUSTER	32768		/* (swc_cluster counts are 16-bit) */
/* Plausible sizeof(struct swap_cluster_info), bytes: a pointer step
 * outside these is not a cluster array stride */
#define SWC_MIN_STRIDE	8
#define SWC_MAX_STRIDE	256
/* Bounds on model memory (a byte per slot): clusters grown on demand at
 * most 1M (2 TB of swap), made up front from a sampled size at most 128K
 * (256 GB); a bigger device grows as its slots are seen. */
#define SWC_MAXCLUSTERS	(1 << 20)
#define SWC_PREALLOC	(1 << 17)

struct swc_cluster {
	uint16_t used;		/* slots known used */
	uint16_t known;		/* slots whose state is known */
	uint8_t state;		/* enum swc_state */
	uint8_t order;		/* the order it serves on the nonfull/frag lists */
};

/* What one CPU's last probes named (see the top of this file). */
/* The last free of a task: its device and the cluster of its last slot,
 * as an index (offset / cluster size) or, where the probe names the
 * cluster only by pointer (7.x), the pointer. */
enum { SWC_FCL_NONE, SWC_FCL_INDEX, SWC_FCL_PTR };
struct swc_ftask {
	int type, kind;
	uint64_t cl;
};

struct swc_cpu {
	int scan_type;		/* device of the last scan on this CPU, -1 none */
	int64_t scan_idx;	/* its cluster index */
	int ci_type;		/* device of the last cluster pointer named here */
	int64_t ci_idx;		/* its cluster index, -1 unknown */
	int ci_valid;		/* a move that follows belongs to that cluster */
	uint64_t last_free_ts;	/* ns of this CPU's last free */
	uint64_t batch;		/* slots in the current free batch */
};

/* Cluster pointer -> index of one device: ci = base + index * stride
 * (struct swap_cluster_info array); learnt from two pointers with known
 * indexes, or from one pointer and si->cluster_info (cinfo). */
struct swc_cimap {
	uint64_t ci1;		/* the first pointer seen with its index */
	int64_t idx1;		/* that index */
	uint64_t base;		/* &cluster_info[0], valid if have_base */
	uint64_t stride;	/* sizeof(struct swap_cluster_info) */
	int have1, have_base;
};

/* Kernel counters read from the "mthp" samples (and vmstat for 6.1). */
enum swc_mthp_ctr { SWC_CTR_SWPOUT, SWC_CTR_FALLBACK, SWC_CTR_ZSWPOUT, SWC_NCTR };
#define SWC_CTR_BIT(k)	(1 << (k))
/* A counter point needs these two; zswpout is optional (6.1 lacks it). */
#define SWC_CTR_NEEDED	(SWC_CTR_BIT(SWC_CTR_SWPOUT) | SWC_CTR_BIT(SWC_CTR_FALLBACK))

struct swapclust_model {
	int cl;			/* slots per cluster (SWAPFILE_CLUSTER) */
	int cl_fixed;		/* cl was given (new() or the recording), not
				 * assumed from the PMD order */
	uint32_t page;		/* page size, bytes (4096 until told) */
	int pmd_order;		/* HPAGE_PMD_ORDER: from hugepages-*kB, else
				 * log2(page / 8) */
	int64_t pmd_kb;		/* largest hugepages-<kB> named, 0 none */
	enum swc_rules rules;	/* which kernel's list rules apply */
	int rules_fixed;	/* rules came from the kernel release */
	struct swc_dev dev[SWC_MAXDEV];	/* indexed by si->type */
	int seen[SWC_MAXDEV];	/* types in the order first seen ... */
	int nseen;		/* ... and how many */
	int listed[SWC_MAXDEV];	/* type is in seen[] */
	struct swc_order ord[SWC_NORDERS];	/* probes and counters per order */
	struct swc_ctr_point *ctr[SWC_NORDERS];	/* counter points per order */
	struct thin cth[SWC_NORDERS];	/* cth[o].n of ctr[o] used (thin.h) */
	int series_max;		/* swapclust_model_series_max: cth's */
	/* per order over every set: the fallback counter's first and last
	 * rise (swapclust_model_fallback_rise), the last point */
	uint64_t fb_rise_from[SWC_NORDERS], fb_rise_to[SWC_NORDERS];
	int64_t fb_prev[SWC_NORDERS];
	int64_t pv[SWC_NORDERS][SWC_NCTR];	/* counters of the set being read */
	int pseen[SWC_NORDERS];	/* SWC_CTR_BIT()s of pv read so far */
	int64_t vm9[SWC_NCTR];	/* vmstat thp_swpout(_fallback): PMD order */
	int vm9_seen;		/* SWC_CTR_BIT()s of vm9 read */
	int mthp9;		/* the mthp samples have the PMD order */
	struct swc_change *log;	/* every cluster change, in time order */
	size_t nlog, alog;	/* changes used, allocated */
	int log_full;		/* SWC_MAXLOG reached: later changes not kept,
				 * replay (states_at) stops at the last kept */
	struct swc_cpu cpu[SWC_NCPU];	/* per CPU, folded modulo SWC_NCPU */
	struct swc_cimap cimap[SWC_MAXDEV];	/* pointer -> index per device */
	struct { int pid, order; } pidord[SWC_NPID];	/* 6.1 fas order by pid */
	uint64_t tick[SWC_MAXDEV];	/* series resolution per device, ns */
	uint64_t next_tick[SWC_MAXDEV];	/* ns of the next series point */
	uint64_t batches[SWC_NBUCKETS];	/* free batches by log2 of their slots */
	uint64_t switches, pairs;	/* consecutive frees: other device, all */
	/* a task's consecutive frees (swap-free-scattered): pairs compared,
	 * those landing on another device, in another cluster of the same
	 * device, and pairs whose cluster the probes do not give */
	struct pidmap ftask;	/* pid -> struct swc_ftask */
	uint64_t ft_pairs, ft_dev, ft_cl, ft_unknown;
	uint64_t ft_first_ts, ft_last_ts;	/* of the first and last switch */
	int last_free_type;	/* device of the last free, -1 none */
	uint64_t sample_seq;	/* seq of the swap sample set being read */
	int sample_pos;		/* lines (devices) of it so far */
	char sample_inst[64];	/* the device name of the current line */
	int rot_seen[SWC_MAXDEV];	/* this set gave the device "rotational" */
	int line_seen[SWC_MAXDEV];	/* this set has a line of the device */
	int has_probes;		/* a swap probe record was seen */
	int has_results;	/* a folio allocation result (fas_r) was seen */
	uint64_t results_no_order;	/* results whose entry the recording lacks */
	int in_reveal;		/* dev_reveal() running: no "ran out" events */
	int cl_basis;		/* SWC_BASIS_RECORDED once set from metadata */
	int thp_swap;		/* CONFIG_THP_SWAP: 1, 0, -1 not known */
	int thp_seen;		/* THP counters in the samples */
	int sets_seen;		/* complete sample sets */
	uint64_t unplaced;	/* moves that named no cluster we could place */
	uint64_t unplaced_by[SWC_NSTATES][SWC_NSTATES];	/* [from][to] */
	uint64_t last_ts;	/* ns of the record being replayed */
};

const char *swc_state_name(enum swc_state s)
{
	static const char *const names[SWC_NSTATES] = {
		"unknown", "free", "nonfull", "frag", "full", "discard", "isolated",
	};

	return (unsigned)s < SWC_NSTATES ? names[s] : "?";
}

const char *swc_cause_name(enum swc_cause c)
{
	static const char *const names[SWC_NCAUSES] = {
		"device cannot take order>0", "no free cluster, nonfull empty",
		"nonfull/frag scan failed", "free clusters left", "unknown clusters",
		"no THP_SWAP in the kernel: split by configuration",
	};

	return (unsigned)c < SWC_NCAUSES ? names[c] : "?";
}

struct swapclust_model *swapclust_model_new(int cluster_size)
{
	struct swapclust_model *m = xcalloc(1, sizeof(*m));

	m->page = 4096;
	m->pmd_order = 9;	/* log2(4096 / 8) until the page size is told */
	m->cl = cluster_size > 0 ? cluster_size : 1 << m->pmd_order;
	m->cl_fixed = cluster_size > 0;
	m->thp_swap = -1;
	m->last_free_type = -1;
	pidmap_init(&m->ftask, sizeof(struct swc_ftask));
	for (int i = 0; i < SWC_MAXDEV; i++) {
		m->dev[i].type = i;
		m->dev[i].blockdev = m->dev[i].rotational = m->dev[i].large_ok = -1;
		m->tick[i] = SWC_TICK_NS;
	}
	for (int c = 0; c < SWC_NCPU; c++)
		m->cpu[c].scan_type = m->cpu[c].ci_type = -1;
	for (int o = 0; o < SWC_NORDERS; o++)
		thin_init(&m->cth[o], 0);
	return m;
}

void swapclust_model_series_max(struct swapclust_model *m, int max)
{
	for (int o = 0; o < SWC_NORDERS; o++)
		thin_init(&m->cth[o], max);
}

void swapclust_model_free(struct swapclust_model *m)
{
	if (!m)
		return;
	for (int i = 0; i < SWC_MAXDEV; i++) {
		free(m->dev[i].cl);
		free(m->dev[i].slot);
		free(m->dev[i].pts);
	}
	for (int o = 0; o < SWC_NORDERS; o++)
		free(m->ctr[o]);
	free(m->log);
	pidmap_release(&m->ftask);
	free(m);
}

static void relayout(struct swapclust_model *m, int slots);

int swapclust_model_set_cluster_size(struct swapclust_model *m, int slots)
{
	if (slots < SWC_MIN_CLUSTER || slots > SWC_MAX_CLUSTER || log2_exact((uint64_t)slots) < 0)
		return -1;
	m->cl_basis = SWC_BASIS_RECORDED;
	m->cl_fixed = 1;
	if (slots != m->cl)
		relayout(m, slots);
	return 0;
}

/* SWAPFILE_CLUSTER when the recording does not give it: 256 on a kernel
 * without THP_SWAP, else HPAGE_PMD_NR (assumed THP_SWAP). */
static int assumed_cluster(const struct swapclust_model *m)
{
	return m->thp_swap == 0 ? 256 : 1 << m->pmd_order;
}

/* The PMD order from the largest hugepages-<kB> seen, else page / 8. */
static void pmd_update(struct swapclust_model *m)
{
	int o = -1;

	if (m->pmd_kb > 0 && (uint64_t)m->pmd_kb * 1024 >= m->page)
		o = log2_exact((uint64_t)m->pmd_kb * 1024 / m->page);
	if (o < 0)
		o = log2_exact(m->page / 8);
	if (o >= 0 && o < SWC_NORDERS)
		m->pmd_order = o;
	else
		m->pmd_order = SWC_NORDERS - 1;
	if (!m->cl_fixed && m->cl != assumed_cluster(m))
		relayout(m, assumed_cluster(m));
}

int swapclust_model_set_page_size(struct swapclust_model *m, uint32_t page_size)
{
	if (page_size < 4096 || page_size > 65536 || log2_exact(page_size) < 0)
		return -1;
	m->page = page_size;
	pmd_update(m);
	return 0;
}

void swapclust_model_set_thp_swap(struct swapclust_model *m, int thp_swap)
{
	m->thp_swap = thp_swap < 0 ? -1 : thp_swap != 0;
	if (!m->cl_fixed && m->cl != assumed_cluster(m))
		relayout(m, assumed_cluster(m));
}

int swapclust_model_thp_swap(const struct swapclust_model *m) { return m->thp_swap; }

uint32_t swapclust_model_page_size(const struct swapclust_model *m) { return m->page; }
int swapclust_model_pmd_order(const struct swapclust_model *m) { return m->pmd_order; }
int swapclust_model_norders(const struct swapclust_model *m) { return m->pmd_order + 1; }

int swapclust_model_cluster_basis(const struct swapclust_model *m)
{
	if (m->cl_basis == SWC_BASIS_RECORDED)
		return SWC_BASIS_RECORDED;
	if (m->thp_swap == 0)
		return SWC_BASIS_NO_THP_SWAP;
	if (m->thp_seen)
		return SWC_BASIS_THP;
	return m->sets_seen ? SWC_BASIS_NO_THP : SWC_BASIS_ASSUMED;
}

void swapclust_model_set_kernel(struct swapclust_model *m, const char *release)
{
	int maj = 0, min = 0;

	if (!release || sscanf(release, "%d.%d", &maj, &min) != 2)
		return;
	if (maj > 6 || (maj == 6 && min >= 14))
		m->rules = SWC_RULES_MOVES;
	else if (maj == 6 && min >= 11)
		m->rules = SWC_RULES_612;
	else
		m->rules = SWC_RULES_61;
	m->rules_fixed = 1;
}

/* ---- devices, clusters, slots ---- */

static struct swc_dev *dev_get(struct swapclust_model *m, int type)
{
	struct swc_dev *d;

	if (type < 0 || type >= SWC_MAXDEV)
		return NULL;
	d = &m->dev[type];
	if (!m->listed[type]) {
		m->listed[type] = 1;
		m->seen[m->nseen++] = type;
	}
	return d;
}

static void log_change(struct swapclust_model *m, const struct swc_dev *d, uint32_t idx,
		       const struct swc_cluster *c)
{
	if (m->log_full)
		return;
	if (m->nlog == m->alog) {
		size_t n = m->alog ? m->alog * 2 : 4096;

		if (n > SWC_MAXLOG) {
			m->log_full = 1;
			return;
		}
		m->log = xreallocarray(m->log, n, sizeof(*m->log));
		m->alog = n;
	}
	m->log[m->nlog++] = (struct swc_change){ m->last_ts, idx, (uint8_t)d->type,
						 c->state, c->order, 0 };
}

static void count_state(struct swc_dev *d, const struct swc_cluster *c, int add)
{
	uint32_t delta = add ? 1u : (uint32_t)-1;

	d->n[c->state] += delta;
	if (c->state == SWC_NONFULL && c->order < SWC_NORDERS)
		d->nonfull[c->order] += delta;
	if (c->state == SWC_FRAG && c->order < SWC_NORDERS)
		d->frag[c->order] += delta;
}

static void free_zero_check(struct swc_dev *d, uint64_t ts)
{
	if (d->detail_lost)	/* the minimum would skip the unknown stretch */
		return;
	/* a swapon that gave no size: the device has no clusters yet, not 0
	 * free ones (they appear as its slots are used or its size sampled) */
	if (!d->nclusters)
		return;
	if (!d->revealed && d->n[SWC_UNKNOWN])
		return;
	if (!d->free_known || d->n[SWC_FREE] < d->free_min) {
		d->free_min = d->n[SWC_FREE];
		d->free_min_ts = ts;
	}
	d->free_known = 1;
}

static void set_state(struct swapclust_model *m, struct swc_dev *d, uint32_t idx,
		      int state, int order)
{
	struct swc_cluster *c = &d->cl[idx];
	int was_free = c->state == SWC_FREE;

	if (order < 0)
		order = c->order;
	if (state == SWC_FREE)
		order = 0;
	if (c->state == state && c->order == order)
		return;
	count_state(d, c, 0);
	c->state = (uint8_t)state;
	c->order = (uint8_t)(order < SWC_NORDERS ? order : SWC_NORDERS - 1);
	count_state(d, c, 1);
	log_change(m, d, idx, c);
	if (m->in_reveal)
		return;
	if (was_free && !d->n[SWC_FREE] && (d->revealed || !d->n[SWC_UNKNOWN])) {
		if (d->zero_count < SWC_NZERO_TS)
			d->zero_ts[d->zero_count] = m->last_ts;
		d->zero_count++;
	}
	free_zero_check(d, m->last_ts);
}

/* Grow the device to hold cluster idx; new clusters are unknown (or free
 * after a swapon whose size we did not know). */
static int ensure_cluster(struct swapclust_model *m, struct swc_dev *d, int64_t idx)
{
	int n, old = d->nclusters;

	if (idx < 0 || idx >= SWC_MAXCLUSTERS)
		return -1;
	if (idx < d->nclusters)
		return 0;
	n = old ? old : 64;
	while (n <= idx)
		n *= 2;
	if (d->size_known && n > idx + 1 && old < idx + 1)
		n = (int)idx + 1;
	d->cl = xreallocarray(d->cl, (size_t)n, sizeof(*d->cl));
	d->slot = xreallocarray(d->slot, (size_t)n, (size_t)m->cl);
	memset(d->cl + old, 0, (size_t)(n - old) * sizeof(*d->cl));
	memset(d->slot + (size_t)old * (size_t)m->cl, 0, (size_t)(n - old) * (size_t)m->cl);
	d->nclusters = n;
	d->nslots = (uint64_t)n * (uint64_t)m->cl;
	d->n[SWC_UNKNOWN] += (uint32_t)(n - old);
	if (d->revealed) {
		/* all at once: the fewest free clusters is not the count
		 * half-way through the growth */
		int in_reveal = m->in_reveal;

		m->in_reveal = 1;
		for (int i = old; i < n; i++) {
			memset(d->slot + (size_t)i * (size_t)m->cl, SWC_SLOT_FREE, (size_t)m->cl);
			d->cl[i].known = (uint16_t)m->cl;
			set_state(m, d, (uint32_t)i, SWC_FREE, 0);
		}
		m->in_reveal = in_reveal;
		if (!in_reveal)
			free_zero_check(d, m->last_ts);
	}
	return 0;
}

/* Every slot known free (swapon, or nothing in use at the first sample):
 * slot 0 holds the header, slots past the size are bad. */
static void dev_reveal(struct swapclust_model *m, struct swc_dev *d)
{
	uint64_t last = d->pages ? d->pages + 1 : 0;

	m->in_reveal = 1;
	d->revealed = 1;
	d->used_slots = 0;
	for (int i = 0; i < d->nclusters; i++) {
		struct swc_cluster *c = &d->cl[i];
		uint8_t *s = d->slot + (size_t)i * (size_t)m->cl;

		memset(s, SWC_SLOT_FREE, (size_t)m->cl);
		c->used = 0;
		c->known = (uint16_t)m->cl;
		for (int k = 0; k < m->cl; k++) {
			uint64_t off = (uint64_t)i * (uint64_t)m->cl + (uint64_t)k;

			if (off == 0 || (last && off >= last)) {
				s[k] = SWC_SLOT_USED;
				c->used++;
			}
		}
		d->used_slots += c->used;
		set_state(m, d, (uint32_t)i, !c->used ? SWC_FREE :
			  c->used == m->cl ? SWC_FULL : SWC_NONFULL, 0);
	}
	m->in_reveal = 0;
	d->free_known = 0;
	free_zero_check(d, m->last_ts);
}

/* The size became known: fix the cluster count (clusters past the end
 * are not tracked). */
static void dev_set_pages(struct swapclust_model *m, struct swc_dev *d, uint64_t pages)
{
	int64_t want = (int64_t)((pages + 1 + (uint64_t)m->cl - 1) / (uint64_t)m->cl);

	if (d->size_known && d->pages == pages)
		return;
	d->pages = pages;
	d->size_known = 1;
	if (want > d->nclusters)
		ensure_cluster(m, d, (want < SWC_PREALLOC ? want : SWC_PREALLOC) - 1);
	/* clusters grown past the end while the size was unknown */
	while (d->nclusters > want && !d->cl[d->nclusters - 1].known &&
	       d->cl[d->nclusters - 1].state == SWC_UNKNOWN) {
		d->n[SWC_UNKNOWN]--;
		d->nclusters--;
	}
	d->nslots = (uint64_t)d->nclusters * (uint64_t)m->cl;
}

/* Slots went into or out of use and no probe event said which: the
 * clusters' states can no longer be told (a first sample showed the
 * device empty, but without swap probes nothing follows the slots after
 * that). Every cluster becomes unknown, for good: a later empty sample
 * reveals it again, but the fewest free clusters over the recording and
 * the times they ran out stay unknown. The used count is the sample's. */
static void dev_lose_detail(struct swapclust_model *m, struct swc_dev *d, uint64_t used)
{
	if (!d->detail_lost)
		d->lost_ts = m->last_ts;
	d->detail_lost = 1;
	d->revealed = 0;
	d->free_known = 0;
	m->in_reveal = 1;	/* no "ran out" from this */
	if (d->nslots)
		memset(d->slot, SWC_SLOT_UNKNOWN, d->nslots);
	for (int i = 0; i < d->nclusters; i++) {
		d->cl[i].used = d->cl[i].known = 0;
		set_state(m, d, (uint32_t)i, SWC_UNKNOWN, 0);
	}
	m->in_reveal = 0;
	d->used_slots = used;
}

/* The cluster size changed after clusters were made (the recording said
 * so late): every device's slots are kept, its clusters made again of
 * the new size with states from their counts (free, full, nonfull of
 * order 0; unknown unless every slot is known). The change log so far
 * spoke of the old clusters: it starts again here. */
static void relayout(struct swapclust_model *m, int slots)
{
	m->cl = slots;
	m->nlog = 0;
	m->log_full = 0;
	for (int t = 0; t < SWC_MAXDEV; t++) {
		struct swc_dev *d = &m->dev[t];
		uint64_t nslots = d->nslots, ncl;
		int64_t n;

		if (!d->nclusters)
			continue;
		ncl = (nslots + (uint64_t)slots - 1) / (uint64_t)slots;
		if (d->size_known && d->pages &&
		    ncl > (d->pages + 1 + (uint64_t)slots - 1) / (uint64_t)slots)
			ncl = (d->pages + 1 + (uint64_t)slots - 1) / (uint64_t)slots;
		n = ncl > SWC_MAXCLUSTERS ? SWC_MAXCLUSTERS : (int64_t)ncl;
		if (n < 1)
			n = 1;
		d->slot = xreallocarray(d->slot, (size_t)n, (size_t)slots);
		if ((uint64_t)n * (uint64_t)slots > nslots)
			memset(d->slot + nslots, d->revealed ? SWC_SLOT_FREE : SWC_SLOT_UNKNOWN,
			       (size_t)((uint64_t)n * (uint64_t)slots - nslots));
		d->cl = xreallocarray(d->cl, (size_t)n, sizeof(*d->cl));
		d->nclusters = (int)n;
		d->nslots = (uint64_t)n * (uint64_t)slots;
		memset(d->n, 0, sizeof(d->n));
		memset(d->nonfull, 0, sizeof(d->nonfull));
		memset(d->frag, 0, sizeof(d->frag));
		m->in_reveal = 1;
		for (int64_t i = 0; i < n; i++) {
			struct swc_cluster *c = &d->cl[i];
			const uint8_t *s = d->slot + (size_t)i * (size_t)slots;
			int used = 0, known = 0;

			for (int k = 0; k < slots; k++) {
				known += s[k] != SWC_SLOT_UNKNOWN;
				used += s[k] == SWC_SLOT_USED;
			}
			*c = (struct swc_cluster){ (uint16_t)used, (uint16_t)known, SWC_UNKNOWN, 0 };
			count_state(d, c, 1);
			if (known == slots)
				set_state(m, d, (uint32_t)i, !used ? SWC_FREE :
					  used == slots ? SWC_FULL : SWC_NONFULL, 0);
		}
		m->in_reveal = 0;
	}
}

/* ---- time series ---- */

static void push_point(struct swapclust_model *m, struct swc_dev *d, uint64_t ts);

static void series_tick(struct swapclust_model *m, struct swc_dev *d, uint64_t ts)
{
	int t = d->type;

	if (ts < m->next_tick[t])
		return;
	push_point(m, d, ts);
	m->next_tick[t] = ts + m->tick[t];
}

/* A slot that may be free: used_slots counts the header and the bad
 * slots past the size as used (dev_reveal), so it is held against every
 * tracked slot, not the size (a 63-slot device in a 256-slot cluster has
 * 193 of them). */
static int dev_room(const struct swapclust_model *m, const struct swc_dev *d)
{
	uint64_t cap = d->nslots, cl = (uint64_t)m->cl;

	if (d->pages && (d->pages + 1 + cl - 1) / cl * cl > cap)	/* clusters not made yet */
		cap = (d->pages + 1 + cl - 1) / cl * cl;
	return !cap || d->used_slots < cap;
}

static int largest_order(const struct swapclust_model *m, const struct swc_dev *d)
{
	int pmd = 0;

	while ((1 << (pmd + 1)) <= m->cl)
		pmd++;
	if (d->detail_lost && !d->revealed)	/* clusters unknown: any could be free */
		return SWC_ORDER_UNKNOWN;
	if (m->thp_swap == 0)	/* no order>0 swap-out at all: splits by configuration */
		return d->n[SWC_FREE] || dev_room(m, d) ? 0 : -1;
	if (d->n[SWC_FREE])
		return d->large_ok == 0 ? 0 : pmd;
	if (d->large_ok != 0 && m->rules != SWC_RULES_61)	/* 6.1: free clusters only */
		for (int o = SWC_NORDERS - 1; o > 0; o--)
			if (d->nonfull[o] || d->frag[o])
				return o;
	return dev_room(m, d) ? 0 : -1;
}

static void push_point(struct swapclust_model *m, struct swc_dev *d, uint64_t ts)
{
	struct swc_point *p;

	if (!d->nclusters)	/* no clusters yet (size unknown): no row of zeros */
		return;
	if (d->npts == d->apts) {
		int n = d->apts ? d->apts * 2 : 64;

		if (d->npts >= SWC_MAXPTS) {	/* halve the resolution */
			for (int i = 0; i < d->npts / 2; i++)
				d->pts[i] = d->pts[2 * i + 1];
			d->npts /= 2;
			m->tick[d->type] *= 2;
		} else {
			d->pts = xreallocarray(d->pts, (size_t)n, sizeof(*d->pts));
			d->apts = n;
		}
	}
	p = &d->pts[d->npts++];
	p->ts = ts;
	memcpy(p->n, d->n, sizeof(p->n));
	memcpy(p->nonfull, d->nonfull, sizeof(p->nonfull));
	memcpy(p->frag, d->frag, sizeof(p->frag));
	p->largest_order = largest_order(m, d);
	p->used_slots = d->used_slots;
}

/* ---- replay: slots, derived states ---- */

static int order_of_nr(uint64_t nr)
{
	int o = 0;

	while ((1ULL << (o + 1)) <= nr)
		o++;
	return o;
}

/* The derived state of a fully known cluster after an alloc (is_alloc)
 * or a free, by the rules of 6.1 and 6.12 (kernel-facts.md 1.2). */
static void derive(struct swapclust_model *m, struct swc_dev *d, uint32_t idx,
		   int is_alloc, int order)
{
	struct swc_cluster *c = &d->cl[idx];
	int state;

	if (m->rules == SWC_RULES_MOVES && m->has_probes)
		return;		/* moves are traced: they decide */
	if (c->known < m->cl) {
		if (c->state != SWC_UNKNOWN)
			set_state(m, d, idx, SWC_UNKNOWN, -1);
		return;
	}
	if (!c->used)
		state = c->state == SWC_DISCARD ? SWC_DISCARD : SWC_FREE;
	else if (c->used >= m->cl)
		state = SWC_FULL;
	else if (is_alloc && c->state == SWC_FRAG)
		state = SWC_FRAG;
	else
		state = SWC_NONFULL;
	if (is_alloc && (c->state == SWC_FREE || c->state == SWC_UNKNOWN))
		set_state(m, d, idx, state, order);	/* first use sets ci->order */
	else
		set_state(m, d, idx, state, -1);
}

/* Mark slots [off, off+nr) val (SWC_SLOT_USED or SWC_SLOT_FREE). */
static void mark_range(struct swapclust_model *m, struct swc_dev *d, int64_t off,
		       uint64_t nr, enum swc_slot val, int order)
{
	int64_t end = off + (int64_t)nr;

	if (off < 0 || !nr || nr > (1u << 20))
		return;
	while (off < end) {
		int64_t idx = off / m->cl;
		int64_t cend = (idx + 1) * m->cl;
		struct swc_cluster *c;

		if (ensure_cluster(m, d, idx))
			return;
		c = &d->cl[idx];
		for (; off < end && off < cend; off++) {
			uint8_t *s = &d->slot[off];

			if (*s == SWC_SLOT_UNKNOWN)
				c->known++;
			else if (*s == SWC_SLOT_USED)
				c->used--, d->used_slots--;
			if (val == SWC_SLOT_USED)
				c->used++, d->used_slots++;
			*s = (uint8_t)val;
		}
		derive(m, d, (uint32_t)idx, val == SWC_SLOT_USED, order);
	}
}

/* ---- cluster pointers (6.18, 7.x) ---- */

static void cimap_learn(struct swapclust_model *m, int type, uint64_t ci, int64_t idx,
			uint64_t cinfo)
{
	struct swc_cimap *mp;

	if (type < 0 || type >= SWC_MAXDEV || !ci || idx < 0)
		return;
	mp = &m->cimap[type];
	if (mp->have_base)
		return;
	if (cinfo && idx > 0 && ci > cinfo && (ci - cinfo) % (uint64_t)idx == 0) {
		mp->base = cinfo;
		mp->stride = (ci - cinfo) / (uint64_t)idx;
		mp->have_base = mp->stride >= SWC_MIN_STRIDE && mp->stride <= SWC_MAX_STRIDE;
		return;
	}
	if (!mp->have1) {
		mp->ci1 = ci;
		mp->idx1 = idx;
		mp->have1 = 1;
		return;
	}
	if (idx != mp->idx1) {
		int64_t dci = (int64_t)(ci - mp->ci1), di = idx - mp->idx1;

		if (dci % di == 0 && dci / di >= SWC_MIN_STRIDE && dci / di <= SWC_MAX_STRIDE) {
			mp->stride = (uint64_t)(dci / di);
			mp->base = mp->ci1 - (uint64_t)mp->idx1 * mp->stride;
			mp->have_base = 1;
		}
	}
}

static int64_t cimap_idx(const struct swapclust_model *m, int type, uint64_t ci,
			 uint64_t cinfo)
{
	const struct swc_cimap *mp;

	if (type < 0 || type >= SWC_MAXDEV || !ci)
		return -1;
	mp = &m->cimap[type];
	if (mp->have_base && ci >= mp->base && (ci - mp->base) % mp->stride == 0)
		return (int64_t)((ci - mp->base) / mp->stride);
	if (cinfo && mp->stride && ci >= cinfo && (ci - cinfo) % mp->stride == 0)
		return (int64_t)((ci - cinfo) / mp->stride);
	if (mp->have1 && ci == mp->ci1)
		return mp->idx1;
	return -1;
}

static struct swc_cpu *cpu_of(struct swapclust_model *m, int cpu)
{
	return &m->cpu[(unsigned)cpu % SWC_NCPU];
}

/* The kernel's cluster flags (enum swap_cluster_flags, 6.14+: NONE, FREE,
 * NONFULL, FRAG, FULL, DISCARD) as states. */
static int state_of_flags(int f)
{
	static const int map[] = { SWC_NONE, SWC_FREE, SWC_NONFULL, SWC_FRAG, SWC_FULL,
				   SWC_DISCARD };

	return f >= 0 && f < (int)ARRAY_SIZE(map) ? map[f] : -1;
}

/* A traced count reveals the cluster's occupancy. */
static void cluster_count(struct swapclust_model *m, struct swc_dev *d, uint32_t idx,
			  int count)
{
	struct swc_cluster *c = &d->cl[idx];

	if (count < 0 || count > m->cl)
		return;
	d->used_slots += (uint64_t)count - c->used;
	c->used = (uint16_t)count;
	c->known = (uint16_t)m->cl;
}

/* ---- records ---- */

static void on_scan(struct swapclust_model *m, const struct record *r)
{
	struct swc_dev *d = dev_get(m, r->swap.type);
	struct swc_cpu *cpu = cpu_of(m, r->cpu);
	int64_t idx;

	if (!d || r->swap.offset < 0)
		return;
	idx = r->swap.offset / m->cl;
	cpu->scan_type = r->swap.type;
	cpu->scan_idx = idx;
	cpu->ci_valid = 0;
	if (r->swap.ci)
		cimap_learn(m, r->swap.type, r->swap.ci, idx, r->swap.cinfo);
	if (ensure_cluster(m, d, idx))
		return;
	/* 6.12: a list cluster scanned from its start moves nonfull -> frag */
	if (m->rules == SWC_RULES_612 && r->swap.offset % m->cl == 0 &&
	    d->cl[idx].state == SWC_NONFULL)
		set_state(m, d, (uint32_t)idx, SWC_FRAG, -1);
}

static void on_cluster(struct swapclust_model *m, const struct record *r)
{
	struct swc_dev *d = dev_get(m, r->swap.type);
	struct swc_cpu *cpu = cpu_of(m, r->cpu);
	int64_t idx;

	if (!d)
		return;
	idx = cimap_idx(m, r->swap.type, r->swap.ci, r->swap.cinfo);
	if (idx < 0 && r->swap.kind == SWCK_RELOC && cpu->scan_type == r->swap.type &&
	    cpu->scan_idx >= 0) {
		cimap_learn(m, r->swap.type, r->swap.ci, cpu->scan_idx, r->swap.cinfo);
		idx = cpu->scan_idx;
	}
	cpu->ci_type = r->swap.type;
	cpu->ci_idx = idx;
	cpu->ci_valid = 1;
	if (idx < 0 || ensure_cluster(m, d, idx))
		return;
	cluster_count(m, d, (uint32_t)idx, r->swap.count);
	if (r->swap.kind == SWCK_ISOLATE)
		set_state(m, d, (uint32_t)idx, SWC_NONE, -1);
}

static void on_move(struct swapclust_model *m, const struct record *r)
{
	struct swc_dev *d = dev_get(m, r->swap.type);
	struct swc_cpu *cpu = cpu_of(m, r->cpu);
	int64_t idx = -1;
	int state = state_of_flags(r->swap.new_flags);

	if (!d)
		return;
	d->moves++;
	if (r->swap.ci)
		idx = cimap_idx(m, r->swap.type, r->swap.ci, r->swap.cinfo);
	else if (cpu->ci_valid && cpu->ci_type == r->swap.type)
		idx = cpu->ci_idx;
	cpu->ci_valid = 0;
	if (idx < 0 || state < 0 || ensure_cluster(m, d, idx)) {
		int o = state_of_flags(r->swap.old_flags);

		m->unplaced++;
		if (o >= 0 && state >= 0)
			m->unplaced_by[o][state]++;
		return;
	}
	cluster_count(m, d, (uint32_t)idx, r->swap.count);
	set_state(m, d, (uint32_t)idx, state, r->swap.order);
}

static void on_alloc(struct swapclust_model *m, const struct record *r)
{
	struct swc_dev *d = dev_get(m, r->swap.type);

	if (!d || r->swap.offset < 0)
		return;
	d->touched = d->active = 1;
	d->allocs++;
	d->alloc_slots += r->swap.nr;
	mark_range(m, d, r->swap.offset, r->swap.nr, SWC_SLOT_USED, order_of_nr(r->swap.nr));
}

static void free_batch_close(struct swapclust_model *m, struct swc_cpu *cpu)
{
	if (cpu->batch) {
		int b = order_of_nr(cpu->batch);

		m->batches[b < SWC_NBUCKETS ? b : SWC_NBUCKETS - 1]++;
		cpu->batch = 0;
	}
}

/* swap-free-scattered: this free against the same task's previous one.
 * Per task, because the lock a free takes (the cluster's, the device's)
 * is retaken when one task's run of frees (a zap, a slot-cache flush)
 * moves to another cluster or device; other tasks' frees in between take
 * their own. A range of slots lies in one cluster; the next free is
 * compared with the cluster of its last slot. */
static void free_switch(struct swapclust_model *m, const struct record *r)
{
	struct swc_ftask now = { r->swap.type, SWC_FCL_NONE, 0 }, *t;
	uint64_t nr = r->swap.nr ? r->swap.nr : 1;

	if (r->foreign)
		return;
	if (r->swap.type >= 0 && r->swap.ci && r->swap.slot >= 0) {
		now.kind = SWC_FCL_PTR;
		now.cl = r->swap.ci;
	} else if (r->swap.type >= 0 && r->swap.offset >= 0) {
		now.kind = SWC_FCL_INDEX;
		now.cl = (uint64_t)r->swap.offset / (uint64_t)m->cl;
	}
	t = pidmap_get(&m->ftask, r->pid);
	if (t) {
		if (t->kind == SWC_FCL_NONE || now.kind != t->kind) {
			m->ft_unknown++;
		} else {
			m->ft_pairs++;
			if (t->type != now.type)
				m->ft_dev++;
			else if (t->cl != now.cl)
				m->ft_cl++;
			if (t->type != now.type || t->cl != now.cl) {
				if (!m->ft_first_ts)
					m->ft_first_ts = r->ts;
				m->ft_last_ts = r->ts;
			}
		}
	} else {
		t = pidmap_add(&m->ftask, r->pid);
	}
	if (now.kind == SWC_FCL_INDEX)
		now.cl = ((uint64_t)r->swap.offset + nr - 1) / (uint64_t)m->cl;
	*t = now;
}

static void on_free(struct swapclust_model *m, const struct record *r)
{
	struct swc_dev *d = dev_get(m, r->swap.type);
	struct swc_cpu *cpu = cpu_of(m, r->cpu);
	int64_t off;

	if (cpu->batch && r->ts - cpu->last_free_ts > SWC_BATCH_GAP)
		free_batch_close(m, cpu);
	cpu->batch += r->swap.nr;
	cpu->last_free_ts = r->ts;
	cpu->ci_valid = 0;
	free_switch(m, r);
	if (r->swap.type >= 0) {
		if (m->last_free_type >= 0) {
			m->pairs++;
			m->switches += m->last_free_type != r->swap.type;
		}
		m->last_free_type = r->swap.type;
	}
	if (!d)
		return;
	d->touched = d->active = 1;
	d->frees++;
	d->free_slots += r->swap.nr;
	off = r->swap.offset;
	if (off < 0 && r->swap.ci && r->swap.slot >= 0) {	/* 7.x with a pointer */
		int64_t idx = cimap_idx(m, r->swap.type, r->swap.ci, r->swap.cinfo);

		if (idx >= 0) {
			off = idx * m->cl + r->swap.slot;
			cpu->ci_type = r->swap.type;
			cpu->ci_idx = idx;
			cpu->ci_valid = 1;	/* a partial free moves it next */
		}
	}
	mark_range(m, d, off, r->swap.nr, SWC_SLOT_FREE, -1);
}

static int pid_order(struct swapclust_model *m, int pid, int set)
{
	int h = (unsigned)pid % SWC_NPID;

	if (set >= 0) {
		m->pidord[h].pid = pid;
		m->pidord[h].order = set;
		return set;
	}
	if (m->pidord[h].pid == pid) {
		m->pidord[h].pid = 0;
		return m->pidord[h].order;
	}
	return -1;
}

/* The device a large folio tried: large folios try only the first
 * device (the highest priority one), which is the one allocated last. */
static struct swc_dev *large_dev(struct swapclust_model *m)
{
	struct swc_dev *best = NULL;

	for (int i = 0; i < m->nseen; i++) {
		struct swc_dev *d = &m->dev[m->seen[i]];

		if (d->active && (!best || d->allocs > best->allocs))
			best = d;
	}
	return best;
}

static enum swc_cause fallback_cause(struct swapclust_model *m, int order)
{
	struct swc_dev *d = large_dev(m);

	if (m->thp_swap == 0 && order > 0)
		return SWC_CAUSE_CONFIG;	/* no cluster could have helped */
	if (!d)
		return SWC_CAUSE_UNKNOWN;
	if (d->large_ok == 0)
		return SWC_CAUSE_DEVICE;
	if (d->n[SWC_FREE])
		return SWC_CAUSE_FREE_LEFT;
	if (order < SWC_NORDERS && (d->nonfull[order] || d->frag[order]) &&
	    m->rules != SWC_RULES_61)	/* 6.1 has no lists: PMD takes free clusters */
		return SWC_CAUSE_SCAN_FAILED;
	if (d->n[SWC_UNKNOWN] && !d->revealed)
		return SWC_CAUSE_UNKNOWN;
	return SWC_CAUSE_NO_CLUSTER;
}

static void on_folio(struct swapclust_model *m, const struct record *r)
{
	int order = r->swap.order;
	struct swc_order *o;

	if (r->swap.kind == SWFK_ENTRY) {
		pid_order(m, r->pid, order < 0 ? 0 : order);
		return;
	}
	if (order < 0)
		order = pid_order(m, r->pid, -1);
	m->has_results = 1;
	/* a set whose result has no order (6.1) and whose entry came before
	 * the recording (or before this part of a run): counted, order not
	 * known */
	if (order < 0 && !r->foreign)
		m->results_no_order++;
	if (order < 0 || order >= SWC_NORDERS)
		return;
	if (r->foreign) {	/* another task's: only its slots, for the clusters */
		if (r->swap.place) {
			struct record a = *r;

			a.swap.nr = 1ULL << order;
			on_alloc(m, &a);
		}
		return;
	}
	o = &m->ord[order];
	o->attempts++;
	if (r->swap.ok)
		o->ok++;
	else {
		o->fallback += order > 0;
		if (order > 0)
			o->cause[fallback_cause(m, order)]++;
	}
	if (r->swap.place) {
		struct record a = *r;

		a.swap.nr = 1ULL << order;
		on_alloc(m, &a);
	}
}

static void on_discard(struct swapclust_model *m, const struct record *r)
{
	struct swc_dev *d = dev_get(m, r->swap.type);

	if (!d)
		return;
	d->discards += r->swap.kind == SWDK_SCHED;
	if (r->swap.kind == SWDK_SCHED && r->swap.offset >= 0 &&
	    !ensure_cluster(m, d, r->swap.offset)) {
		set_state(m, d, (uint32_t)r->swap.offset, SWC_DISCARD, -1);
		return;
	}
	if (r->swap.kind == SWDK_RUN && m->rules != SWC_RULES_MOVES)	/* all done */
		for (int i = 0; i < d->nclusters; i++)
			if (d->cl[i].state == SWC_DISCARD)
				set_state(m, d, (uint32_t)i, d->cl[i].used ? SWC_NONFULL : SWC_FREE, -1);
}

/* Swapoff: nothing of the device is known any more; a later swapon, or a
 * sample with nothing in use, reveals it again. */
static void dev_off(struct swapclust_model *m, struct swc_dev *d)
{
	d->swapoffs++;
	d->active = 0;
	d->revealed = 0;
	d->touched = 0;
	d->used_slots = 0;
	if (d->nslots)	/* a swapoff before any size was known: no slots */
		memset(d->slot, 0, d->nslots);
	for (int i = 0; i < d->nclusters; i++) {
		d->cl[i].used = d->cl[i].known = 0;
		set_state(m, d, (uint32_t)i, SWC_UNKNOWN, 0);
	}
}

static void on_device(struct swapclust_model *m, const struct record *r)
{
	struct swc_dev *d = dev_get(m, r->swap.type);

	if (!d)
		return;
	if (r->swap.ok) {
		d->swapons++;
		d->active = 1;
		if (r->swap.pages)
			dev_set_pages(m, d, r->swap.pages);
		for (int i = 0; i < d->nclusters; i++)
			d->cl[i].used = 0;
		dev_reveal(m, d);
	} else
		dev_off(m, d);
	push_point(m, d, r->ts);
}

/* ---- samples ---- */

/* The order of an mTHP size in kB ("64kB"): kB * 1024 / page size. */
static int order_of_kb(const struct swapclust_model *m, const char *inst)
{
	long kb = strtol(inst, NULL, 10);
	long pkb = (long)(m->page / 1024);
	int o = 0;

	if (kb < pkb)
		return -1;
	/* bounded: a damaged sample's size must not shift past a long */
	while ((pkb << o) < kb && o < SWC_NORDERS)
		o++;
	return o < SWC_NORDERS && (pkb << o) == kb ? o : -1;
}

/* A hugepages-<kB> directory named in the run context: the largest one
 * is the PMD size (the mthp samples do not move it: a damaged sample's
 * size is left out, not taken for the PMD). */
static void saw_thp_size(struct swapclust_model *m, long kb)
{
	if (kb > m->pmd_kb && kb <= (1L << 30)) {
		m->pmd_kb = kb;
		pmd_update(m);
	}
}

/* The run context ("mms1 ctx" settings of the start): the hugepages-<kB>
 * directories. The page size and SWAPFILE_CLUSTER are the analysis's,
 * resolved once per recording (analysis.h: analysis_info.page_size),
 * told through swapclust_model_set_page_size/_set_cluster_size. */
static void on_ctx(struct swapclust_model *m, const struct record *r)
{
	const char *k = r->setting.key, *v = r->setting.value;

	if (!k || !v)
		return;
	if (!strncmp(k, "thp.hugepages-", 14))
		saw_thp_size(m, strtol(k + 14, NULL, 10));
	else if (!strcmp(k, "thp.hpage_pmd_size"))	/* bytes: the PMD size itself */
		saw_thp_size(m, strtol(v, NULL, 10) / 1024);
}

static void on_mthp(struct swapclust_model *m, const struct record *r)
{
	int o;
	enum swc_mthp_ctr k;

	o = order_of_kb(m, r->counter.instance);
	m->thp_seen = 1;
	if (o < 0 || o > m->pmd_order)	/* no order of this kernel's */
		return;
	if (!strcmp(r->counter.key, "swpout"))
		k = SWC_CTR_SWPOUT;
	else if (!strcmp(r->counter.key, "swpout_fallback"))
		k = SWC_CTR_FALLBACK;
	else if (!strcmp(r->counter.key, "zswpout"))
		k = SWC_CTR_ZSWPOUT;
	else
		return;
	m->pv[o][k] = r->counter.value;
	m->pseen[o] |= SWC_CTR_BIT(k);
	m->mthp9 |= o == m->pmd_order;
}

static void on_vmstat(struct swapclust_model *m, const struct record *r)
{
	if (!strncmp(r->counter.key, "thp_", 4))
		m->thp_seen = 1;	/* CONFIG_TRANSPARENT_HUGEPAGE */
	if (!strcmp(r->counter.key, "thp_swpout")) {
		m->vm9[SWC_CTR_SWPOUT] = r->counter.value;
		m->vm9_seen |= SWC_CTR_BIT(SWC_CTR_SWPOUT);
	} else if (!strcmp(r->counter.key, "thp_swpout_fallback")) {
		m->vm9[SWC_CTR_FALLBACK] = r->counter.value;
		m->vm9_seen |= SWC_CTR_BIT(SWC_CTR_FALLBACK);
	}
}

/* The device of a swap sample line: the one with that name, else the
 * type of the line's position (/proc/swaps lists by si->type), else the
 * first type without a name; the name sticks, so a device that goes away
 * does not shift the others. */
static struct swc_dev *sample_dev(struct swapclust_model *m, const char *name, int pos)
{
	for (int i = 0; i < m->nseen; i++)
		if (!strcmp(m->dev[m->seen[i]].name, name))
			return &m->dev[m->seen[i]];
	if (pos < 0 || pos >= SWC_MAXDEV)
		return NULL;
	if (m->dev[pos].name[0])
		for (pos = 0; pos < SWC_MAXDEV && m->dev[pos].name[0]; pos++)
			;
	if (pos >= SWC_MAXDEV)
		return NULL;
	snprintf(m->dev[pos].name, sizeof(m->dev[pos].name), "%s", name);
	return dev_get(m, pos);
}

/* "swap" lines come in /proc/swaps order, which is si->type order. */
static void on_swap_sample(struct swapclust_model *m, const struct record *r)
{
	struct swc_dev *d;
	int64_t v = r->counter.value;

	if (r->counter.seq != m->sample_seq) {
		m->sample_pos = 0;
		m->sample_seq = r->counter.seq;
	}
	if (!m->sample_pos || strcmp(m->sample_inst, r->counter.instance)) {
		snprintf(m->sample_inst, sizeof(m->sample_inst), "%s", r->counter.instance);
		m->sample_pos++;
	}
	d = sample_dev(m, r->counter.instance, m->sample_pos - 1);
	if (!d)
		return;
	if (!m->line_seen[d->type] && d->sampled && !d->active)
		d->swapons++;	/* back in /proc/swaps: swapon */
	m->line_seen[d->type] = 1;
	if (!strcmp(r->counter.key, "size") && v > 0)
		dev_set_pages(m, d, (uint64_t)v * 1024 / m->page);	/* kB */
	else if (!strcmp(r->counter.key, "rotational")) {
		d->rotational = v != 0;
		d->blockdev = 1;
		m->rot_seen[d->type] = 1;
	} else if (!strcmp(r->counter.key, "used") && v == 0 && !d->touched &&
		   !d->revealed && d->size_known) {
		d->active = 1;
		dev_reveal(m, d);
	} else if (!strcmp(r->counter.key, "used") && v > 0 && !d->touched &&
		   (d->revealed || d->detail_lost)) {
		int news = d->revealed;	/* states change now: a point shows it */

		/* kB: moved unseen */
		dev_lose_detail(m, d, (uint64_t)v * 1024 / m->page);
		if (news)
			push_point(m, d, r->ts);
	}
}

static void on_sample_end(struct swapclust_model *m, const struct record *r)
{
	int any_line = 0;	/* a set without swap lines says nothing */

	for (int i = 0; i < SWC_MAXDEV; i++)
		any_line |= m->line_seen[i];
	m->sets_seen++;
	for (int i = 0; i < SWC_MAXDEV; i++) {
		struct swc_dev *d = &m->dev[i];

		if (m->line_seen[i] && !m->rot_seen[i])
			d->blockdev = 0;
		if (!m->line_seen[i] && d->sampled && d->active && any_line)
			dev_off(m, d);	/* gone from /proc/swaps: swapoff */
		d->sampled |= m->line_seen[i];
		if (m->line_seen[i]) {	/* 6.1/6.12 need SSD cluster_info too */
			d->active = 1;
			d->large_ok = d->blockdev == 1 &&
				      (m->rules == SWC_RULES_MOVES || d->rotational == 0);
		}
		m->line_seen[i] = m->rot_seen[i] = 0;
	}
	if (m->vm9_seen && !m->mthp9) {	/* 6.1: PMD THP only, in vmstat */
		int pmd = m->pmd_order;

		m->pv[pmd][SWC_CTR_SWPOUT] = m->vm9[SWC_CTR_SWPOUT];
		m->pv[pmd][SWC_CTR_FALLBACK] = m->vm9[SWC_CTR_FALLBACK];
		m->pseen[pmd] |= m->vm9_seen & SWC_CTR_NEEDED;
	}
	for (int o = 0; o < SWC_NORDERS; o++) {
		struct swc_order *so = &m->ord[o];
		struct swc_ctr_point *p;
		int at;

		if (!(m->pseen[o] & SWC_CTR_NEEDED))
			continue;
		if (m->cth[o].sets && m->pv[o][SWC_CTR_FALLBACK] > m->fb_prev[o]) {
			if (!m->fb_rise_to[o])	/* from the set before */
				m->fb_rise_from[o] = m->ctr[o][m->cth[o].n - 1].ts;
			m->fb_rise_to[o] = r->ts;
		}
		m->fb_prev[o] = m->pv[o][SWC_CTR_FALLBACK];
		at = thin_push(&m->cth[o], (void **)&m->ctr[o], sizeof(*m->ctr[o]));
		p = &m->ctr[o][at];
		*p = (struct swc_ctr_point){ r->ts, m->pv[o][SWC_CTR_SWPOUT],
					     m->pv[o][SWC_CTR_FALLBACK], m->pv[o][SWC_CTR_ZSWPOUT],
					     so->attempts, so->ok, so->fallback };
		if (!so->has_counters) {
			so->has_counters = 1;
			so->swpout_first = p->swpout;
			so->fb_first = p->fallback;
			so->zsw_first = p->zswpout;
		}
		so->swpout_last = p->swpout;
		so->fb_last = p->fallback;
		so->zsw_last = p->zswpout;
	}
	for (int i = 0; i < m->nseen; i++)
		series_tick(m, &m->dev[m->seen[i]], r->ts);
}

void swapclust_model_add(struct swapclust_model *m, const struct record *r)
{
	m->last_ts = r->ts;
	if (r->type == REC_COUNTER) {
		if (r->counter.source == SRC_MTHP)
			on_mthp(m, r);
		else if (r->counter.source == SRC_VMSTAT)
			on_vmstat(m, r);
		else if (r->counter.source == SRC_SWAP)
			on_swap_sample(m, r);
		return;
	}
	if (r->type == REC_SETTING) {
		if (r->setting.source == SRC_CTX)
			on_ctx(m, r);
		return;
	}
	if (r->type == REC_SAMPLE_END) {
		on_sample_end(m, r);
		return;
	}
	if (r->type < REC_SWAP_ALLOC || r->type > REC_SWAP_DEVICE)
		return;
	m->last_ts = r->ts;
	if (!m->has_probes) {
		m->has_probes = 1;
		if (!m->rules_fixed)
			m->rules = r->type == REC_SWAP_MOVE ? SWC_RULES_MOVES : SWC_RULES_612;
	}
	if (!m->rules_fixed && r->type == REC_SWAP_MOVE)
		m->rules = SWC_RULES_MOVES;
	if (r->swap.type >= 0 && r->swap.type < SWC_MAXDEV && dev_get(m, r->swap.type))
		series_tick(m, &m->dev[r->swap.type], r->ts);
	switch (r->type) {
	case REC_SWAP_ALLOC: on_alloc(m, r); break;
	case REC_SWAP_FREE: on_free(m, r); break;
	case REC_SWAP_FOLIO: on_folio(m, r); break;
	case REC_SWAP_SCAN: on_scan(m, r); break;
	case REC_SWAP_CLUSTER: on_cluster(m, r); break;
	case REC_SWAP_MOVE: on_move(m, r); break;
	case REC_SWAP_DISCARD: on_discard(m, r); break;
	case REC_SWAP_DEVICE: on_device(m, r); break;
	default: break;
	}
}

void swapclust_model_finish(struct swapclust_model *m, uint64_t end_ts)
{
	for (int c = 0; c < SWC_NCPU; c++)
		free_batch_close(m, &m->cpu[c]);
	for (int i = 0; i < m->nseen; i++) {
		struct swc_dev *d = &m->dev[m->seen[i]];

		if ((d->nclusters || d->touched) &&
		    (!d->npts || d->pts[d->npts - 1].ts != end_ts))
			push_point(m, d, end_ts);
	}
}

/* ---- queries ---- */

enum swc_rules swapclust_model_rules(const struct swapclust_model *m) { return m->rules; }
int swapclust_model_cluster_size(const struct swapclust_model *m) { return m->cl; }
int swapclust_model_has_probes(const struct swapclust_model *m) { return m->has_probes; }
int swapclust_model_has_results(const struct swapclust_model *m) { return m->has_results; }
uint64_t swapclust_model_results_no_order(const struct swapclust_model *m)
{
	return m->results_no_order;
}
int swapclust_model_ndevs(const struct swapclust_model *m) { return m->nseen; }

const struct swc_dev *swapclust_model_dev(const struct swapclust_model *m, int i)
{
	return i >= 0 && i < m->nseen ? &m->dev[m->seen[i]] : NULL;
}

const struct swc_order *swapclust_model_order(const struct swapclust_model *m, int order)
{
	return order >= 0 && order < SWC_NORDERS ? &m->ord[order] : NULL;
}

int swapclust_model_nctr(const struct swapclust_model *m, int order)
{
	return order >= 0 && order < SWC_NORDERS ? m->cth[order].n : 0;
}

const struct swc_ctr_point *swapclust_model_ctr(const struct swapclust_model *m, int order,
						int i)
{
	return i >= 0 && i < swapclust_model_nctr(m, order) ? &m->ctr[order][i] : NULL;
}

int swapclust_model_fallback_rise(const struct swapclust_model *m, int order, uint64_t *from,
				  uint64_t *to)
{
	if (order < 0 || order >= SWC_NORDERS || !m->fb_rise_to[order])
		return -1;
	*from = m->fb_rise_from[order];
	*to = m->fb_rise_to[order];
	return 0;
}

int swapclust_model_states_at(const struct swapclust_model *m, int i, uint64_t ts,
			      uint8_t *out, int n)
{
	const struct swc_dev *d = swapclust_model_dev(m, i);
	int k = d ? (d->nclusters < n ? d->nclusters : n) : 0;

	memset(out, SWC_UNKNOWN, (size_t)k);
	for (size_t j = 0; d && j < m->nlog && m->log[j].ts <= ts; j++)
		if (m->log[j].dev == d->type && (int)m->log[j].idx < k)
			out[m->log[j].idx] = m->log[j].state;
	return k;
}

uint64_t swapclust_model_unplaced(const struct swapclust_model *m) { return m->unplaced; }

uint64_t swapclust_model_unplaced_move(const struct swapclust_model *m, enum swc_state from,
				       enum swc_state to)
{
	return (unsigned)from < SWC_NSTATES && (unsigned)to < SWC_NSTATES ?
	       m->unplaced_by[from][to] : 0;
}

const uint64_t *swapclust_model_free_batches(const struct swapclust_model *m, int *nbuckets)
{
	*nbuckets = SWC_NBUCKETS;
	return m->batches;
}

void swapclust_model_free_scatter(const struct swapclust_model *m, uint64_t *pairs,
				  uint64_t *dev, uint64_t *cl, uint64_t *unknown)
{
	*pairs = m->ft_pairs;
	*dev = m->ft_dev;
	*cl = m->ft_cl;
	*unknown = m->ft_unknown;
}

void swapclust_model_free_scatter_times(const struct swapclust_model *m, uint64_t *first,
					uint64_t *last)
{
	*first = m->ft_first_ts;
	*last = m->ft_last_ts;
}

uint64_t swapclust_model_free_switches(const struct swapclust_model *m, uint64_t *pairs)
{
	if (pairs)
		*pairs = m->pairs;
	return m->switches;
}

/* The driver's view (model.h): one entry of models[] in src/analysis.c. */
/* the cluster size comes with the recording's metadata (set later) */
static void *ops_create_env(const struct model_env *env)
{
	struct swapclust_model *m = swapclust_model_new(0);

	swapclust_model_series_max(m, env->series_max);
	return m;
}
static void ops_add(void *m, const struct record *r) { swapclust_model_add(m, r); }
static void ops_finish(void *m, uint64_t end_ts) { swapclust_model_finish(m, end_ts); }
static void ops_destroy(void *m) { swapclust_model_free(m); }

const struct model_ops swapclust_model_ops = {
	.name = "swapclust",
	.create_env = ops_create_env,
	.add = ops_add,
	.finish = ops_finish,
	.destroy = ops_destroy,
};
