/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Fragmentation model: free blocks per order over time from buddyinfo
 * samples (per node and zone) and per migratetype from pagetypeinfo; the
 * fragmentation index (as /sys/kernel/debug/extfrag/extfrag_index) and
 * unusable free space index per order. Pure C, no I/O. Only lines of
 * complete sample sets are used.
 */
#ifndef MMSCOPE_MODEL_FRAG_H
#define MMSCOPE_MODEL_FRAG_H

#include <stdint.h>

#include "records.h"
#include "model.h"

#define FRAG_SERIES 32		/* points kept per zone (evenly thinned) */
#define FRAG_MAX_TYPES 8

struct frag_snapshot {
	uint64_t ts;
	int norders;
	uint64_t free[REC_MAX_ORDERS];
};

struct frag_zone {
	int node;
	char zone[16];
	uint64_t samples;
	struct frag_snapshot first, last;
	/* thinned series: free pages in blocks of order >= the pageblock
	 * order (frag_model_hi_order(): 9 on 4 KB pages, 13 on 64 KB) */
	int nseries, stride;
	uint64_t series_ts[FRAG_SERIES], series_hi[FRAG_SERIES];
	struct frag_snapshot series_snap[FRAG_SERIES];	/* the whole buddyinfo then */
	int ntypes;
	char type[FRAG_MAX_TYPES][16];
	struct frag_snapshot type_first[FRAG_MAX_TYPES], type_last[FRAG_MAX_TYPES];
};

struct frag_model;

struct frag_model *frag_model_new(void);
void frag_model_free(struct frag_model *m);
void frag_model_add(struct frag_model *m, const struct record *r);
/* The recording's page size (bytes): the pageblock order of the "high"
 * series is HPAGE_PMD_ORDER, log2(page_size / 8) (9 on 4 KB pages, 13 on
 * arm64 64 KB). -1 if not a power of two from 4096 to 65536. */
int frag_model_set_page_size(struct frag_model *m, uint32_t page_size);
int frag_model_hi_order(const struct frag_model *m);

int frag_model_nzones(const struct frag_model *m);
const struct frag_zone *frag_model_zone(const struct frag_model *m, int i);

/* Pure helpers on one snapshot. Pages free in total. */
uint64_t frag_free_pages(const struct frag_snapshot *s);
/* Free pages in blocks of order >= order. */
uint64_t frag_free_pages_from(const struct frag_snapshot *s, int order);
/* The kernel's fragmentation index for an order, times 1000: -1000 if an
 * allocation would succeed, 0 (lack of memory) .. 1000 (fragmentation). */
int frag_index(const struct frag_snapshot *s, int order);
/* Unusable free space index times 1000 (0 .. 1000). */
int frag_unusable(const struct frag_snapshot *s, int order);

/* The model as the analysis driver runs it (model.h). */
extern const struct model_ops frag_model_ops;

#endif
