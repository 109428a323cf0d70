/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zswap model: stored pages and pool size against the max_pool_percent
 * limit over time, compression ratio, rejects by reason, writeback, loads,
 * and the swap device I/O and in-flight requests beside them, from the
 * "zswap", "vmstat", "zone" (for total RAM), "mthp" and "swap" samples;
 * and stores, loads and writebacks with their results from the zswap
 * kprobes (parsers/probe-zswap.c). Pure C, no I/O.
 */
#ifndef MMSCOPE_MODEL_ZSWAP_H
#define MMSCOPE_MODEL_ZSWAP_H

#include <stdint.h>

#include "records.h"
#include "model.h"

#define ZSW_NORDERS	14	/* folio orders 0..13 (PMD order 9 on 4 KB
				 * pages, 13 on arm64 64 KB pages) */

/* One complete sample set; -1 where the kernel has no such counter.
 * Counters are as the kernel keeps them: since boot, never reset. */
struct zsw_point {
	uint64_t ts;		/* ns, the set's end */
	int64_t stored_pages;	/* zswap debugfs: pages held compressed */
	int64_t pool_bytes;	/* pool_total_size: compressed pool, bytes */
	int64_t limit_pages;	/* max_pool_percent of total RAM, pages */
	int64_t zswpout, zswpin, zswpwb;	/* vmstat: pages stored, loaded,
						 * written back to the device */
	int64_t pswpout, pswpin;	/* vmstat: pages written to / read from swap */
	int64_t written_back;	/* debugfs written_back_pages */
	int64_t pool_limit_hit;	/* debugfs: stores refused at the pool limit */
	int64_t rejects;	/* sum of the debugfs reject_* counters */
	int64_t inflight;	/* swap devices' in-flight requests (r + w) */
	int enabled;		/* zswap enabled: 1, 0, -1 unknown */
};

/* The module parameters given as strings, as last sampled ("" not sampled),
 * and why the debugfs pool counters are missing (mmscope-samples(5)). */
struct zsw_settings {
	char compressor[32];	/* lz4, lzo, zstd ... */
	char zpool[32];		/* zsmalloc, zbud, z3fold (gone in 6.15+) */
	char pool_why[96];	/* the sampler's why_zswap_pool, raw; "" none */
	char why[96];		/* why_zswap: no zswap at all; "" none */
};

/* One zswap debugfs counter over the recording. */
struct zsw_counter {
	char key[40];		/* the debugfs file name */
	int64_t first, last;	/* value in the first and last sample */
	int seen;		/* first and last are set */
};

/* Index of the two memory.stat fields in struct zsw_memcg. */
enum zsw_memcg_field {
	ZSW_MEMCG_ZSWAP,	/* "zswap": compressed size in the pool */
	ZSW_MEMCG_ZSWAPPED,	/* "zswapped": original size of those pages */
	ZSW_MEMCG_NR
};

/* The sampled memcg's zswap use (memory.stat, bytes): last and largest. */
struct zsw_memcg {
	char path[96];			/* the cgroup, as sampled */
	int64_t last[ZSW_MEMCG_NR];	/* [enum zsw_memcg_field], last sample */
	int64_t max[ZSW_MEMCG_NR];	/* [enum zsw_memcg_field], largest */
	int seen;			/* a memcg sample had one of them */
};

struct zswap_model;

struct zswap_model *zswap_model_new(void);
/* The recording's page size (bytes): mTHP sizes in kB become orders with
 * it (4096 until told); -1 if not a power of two from 4096 to 65536. */
int zswap_model_set_page_size(struct zswap_model *m, uint32_t page_size);
void zswap_model_free(struct zswap_model *m);
void zswap_model_add(struct zswap_model *m, const struct record *r);

/* At most about max points (0: every set, the default; src/thin.h):
 * once longer, every 2nd, 4th ... set and the last. Before the first
 * record. What is taken over every set (zswap_model_enabled_first,
 * zswap_model_rise, refusals) does not depend on it. */
void zswap_model_series_max(struct zswap_model *m, int max);
/* The points: one per complete sample set, the first and last always. */
int zswap_model_npoints(const struct zswap_model *m);
const struct zsw_settings *zswap_model_settings(const struct zswap_model *m);
/* The last sampled enabled parameter: 1, 0, -1 not sampled. */
int zswap_model_enabled(const struct zswap_model *m);
/*
 * The first sampled enabled parameter (1, 0, -1 not sampled) and, when a
 * later sample differs from it, the end of the first set that did (*ts,
 * ns; 0 when it never changed): someone turned zswap on or off during the
 * recording, so neither state alone describes it.
 */
int zswap_model_enabled_first(const struct zswap_model *m, uint64_t *changed_ts);
/* Counters whose rises zswap_model_rise() keeps. */
enum zsw_rise {
	ZSW_RISE_ZSWPWB,	/* vmstat zswpwb */
	ZSW_RISE_WRITTEN_BACK,	/* debugfs written_back_pages */
	ZSW_RISE_REJECTS,	/* the debugfs reject_* counters' sum */
	ZSW_RISE_PSWPOUT,	/* vmstat pswpout */
	ZSW_RISE_NR
};
/* The sample interval in which counter k first and last rose: from the
 * set before its first rise (*from) to the set of its last (*to), ns,
 * over every set; 0, or -1 when it never rose. */
int zswap_model_rise(const struct zswap_model *m, enum zsw_rise k, uint64_t *from,
		     uint64_t *to);
/* A point had the debugfs pool counters (stored_pages). */
int zswap_model_has_pool(const struct zswap_model *m);
const struct zsw_point *zswap_model_point(const struct zswap_model *m, int i);
/* reject_* counters (first/last of the recording). */
int zswap_model_nrejects(const struct zswap_model *m);
const struct zsw_counter *zswap_model_reject(const struct zswap_model *m, int i);
/* A zswap debugfs counter by name (written_back_pages, pool_limit_hit...). */
const struct zsw_counter *zswap_model_counter(const struct zswap_model *m, const char *key);
/* Per-order zswpout (mTHP stats): first and last; 0 when absent. */
int zswap_model_order_zswpout(const struct zswap_model *m, int order, int64_t *first,
			      int64_t *last);
/* Probes: results per operation (enum zswap_op). */
int zswap_model_has_probes(const struct zswap_model *m);
uint64_t zswap_model_probe_ok(const struct zswap_model *m, enum zswap_op op);
uint64_t zswap_model_probe_fail(const struct zswap_model *m, enum zswap_op op);
/* Stores seen per folio order (6.18+ probes give the order). */
uint64_t zswap_model_store_order(const struct zswap_model *m, int order);
int zswap_model_max_pool_percent(const struct zswap_model *m);
/* How many stores zswap refused, of how many it was offered, from the
 * truest source the recording has (the store probe, else vmstat's
 * pswpout - zswpwb, else the debugfs reject_* counters: model-zswap.c
 * says why in that order). tries -1: unknown (5.10 has no zswpout).
 * With zswap off (on 0) refused is 0. -1 when nothing tells. The
 * zswap-reject finding and compare's "Zswap reject %" both read it. */
struct zswap_refusal {
	int64_t refused, tries;	/* tries -1: unknown */
	const char *source;	/* "probe", "vmstat", "debugfs" */
	int on;			/* zswap took stores (or was enabled) */
};
int zswap_model_refusals(const struct zswap_model *m, struct zswap_refusal *z);

/* The memcg's zswap fields, NULL without memcg samples that have them. */
const struct zsw_memcg *zswap_model_memcg(const struct zswap_model *m);
/* Compression ratio (stored bytes / pool bytes) at the last point, 0 if
 * none; page_size: the recording's (stored_pages are the kernel's pages). */
double zswap_model_ratio(const struct zswap_model *m, uint32_t page_size);

/* The model as the analysis driver runs it (model.h). */
extern const struct model_ops zswap_model_ops;

#endif
