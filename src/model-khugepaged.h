/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * khugepaged model: per folio order, the PMD ranges khugepaged scanned
 * (anon and file) with their results, the collapses tried and how they
 * ended, by the kernel's own result names (parsers/khugepaged.c), the
 * swap-ins before collapses and, on 7.x, the full scan passes. Pure C,
 * no I/O, no allocation after creation: result names beyond THP_NRESULTS
 * per order are counted under "other", never dropped.
 */
#ifndef MMSCOPE_MODEL_KHUGEPAGED_H
#define MMSCOPE_MODEL_KHUGEPAGED_H

#include <stdint.h>

#include "model.h"
#include "records.h"

#define THP_NORDERS	16	/* orders 0..15; the PMD: 9 on 4 KB pages,
				 * 11 on 16 KB, 13 on 64 KB */
#define THP_NRESULTS	40	/* the kernels' scan_result enums have <= 32 */

/* One result name with its counts (events, not pages). */
struct thp_result {
	char name[32];		/* the kernel's ("exceed_none_pte"), "status N" */
	uint64_t scan, collapse;	/* as a scan result, as a collapse result */
};

struct thp_order {
	uint64_t scans, scans_ok;		/* scan_pmd + scan_file; ok: worth collapsing */
	uint64_t file_scans;			/* of which file/shmem ranges */
	uint64_t collapses, collapses_ok;	/* collapse_huge_page + collapse_file */
	uint64_t file_collapses, file_collapses_ok;
	uint64_t isolates, isolates_ok;		/* isolate step inside a collapse */
	uint64_t swapins, swapins_ok, swapped_in;	/* swapped_in: pages */
	int order_known;	/* some event gave this order itself */
	int nresults;
	struct thp_result results[THP_NRESULTS];
	struct thp_result other;	/* names past THP_NRESULTS */
};

struct khugepaged_model;

extern const struct model_ops khugepaged_model_ops;

struct khugepaged_model *khugepaged_model_new(void);
void khugepaged_model_free(struct khugepaged_model *m);
void khugepaged_model_add(struct khugepaged_model *m, const struct record *r);
/* The recording's PMD order (analysis_info.pmd_order; 9 until told): a
 * record without an order (thp.order -1: a scan, or a collapse before
 * 7.x) counts at it. Told before the records (the trace.dat header's
 * page size, the run context at the recording's start). */
void khugepaged_model_set_pmd_order(struct khugepaged_model *m, int order);
int khugepaged_model_pmd_order(const struct khugepaged_model *m);

/* Whether any huge_memory event was fed. */
int khugepaged_model_seen(const struct khugepaged_model *m);
/* An order's counts, or NULL if nothing happened at that order. */
const struct thp_order *khugepaged_model_order(const struct khugepaged_model *m, int order);
/* 7.x mm_khugepaged_scan: passes over an mm, and those that finished a
 * full scan of all mms. */
uint64_t khugepaged_model_passes(const struct khugepaged_model *m);
uint64_t khugepaged_model_full_scans(const struct khugepaged_model *m);
/* Records with an order outside 0..THP_NORDERS-1 (counted, not kept). */
uint64_t khugepaged_model_bad_order(const struct khugepaged_model *m);

#endif
