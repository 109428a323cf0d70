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

#define ZSW_NREJECT	8
#define ZSW_NORDERS	10

/* One complete sample set; -1 where the kernel has no such counter. */
struct zsw_point {
	uint64_t ts;
	int64_t stored_pages, pool_bytes, limit_pages;
	int64_t zswpout, zswpin, zswpwb, pswpout, pswpin;
	int64_t written_back, pool_limit_hit, rejects;
	int64_t inflight;	/* swap devices' in-flight requests (r + w) */
	int enabled;		/* 1, 0, -1 unknown */
};

struct zsw_counter {
	char key[40];
	int64_t first, last;
	int seen;
};

/* The sampled memcg's zswap use (memory.stat, bytes): last and largest. */
struct zsw_memcg {
	char path[96];
	int64_t last[2], max[2];	/* [0] zswap (compressed), [1] zswapped */
	int seen;
};

struct zswap_model;

struct zswap_model *zswap_model_new(void);
void zswap_model_free(struct zswap_model *m);
void zswap_model_add(struct zswap_model *m, const struct record *r);

int zswap_model_npoints(const struct zswap_model *m);
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
/* The memcg's zswap fields, NULL without memcg samples that have them. */
const struct zsw_memcg *zswap_model_memcg(const struct zswap_model *m);
/* Compression ratio (stored bytes / pool bytes) at the last point, 0 if none. */
double zswap_model_ratio(const struct zswap_model *m);

#endif
