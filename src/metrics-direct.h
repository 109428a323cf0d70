/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Direct reclaim's pages on 7.2+: from 7.2 the kernel counts memcg limit
 * reclaim (the charge path, try_to_free_mem_cgroup_pages) in
 * pgscan_direct / pgsteal_direct too; before 7.2 it did not. One rule
 * for every front end (compare's rows, the report's counters section):
 *  - no allocation entered direct reclaim (allocstall_* did not move;
 *    every global direct reclaim counts one): all of it is memcg's;
 *  - else memcg reclaim traced with shrink_inactive, and no proactive
 *    reclaim (memory.reclaim runs through the same memcg events but
 *    counts in pgscan_proactive): the memcg reclaim events give its part;
 *  - else the counters cannot be split: direct+memcg.
 */
#ifndef MMSCOPE_METRICS_DIRECT_H
#define MMSCOPE_METRICS_DIRECT_H

#include <stdint.h>

struct analysis;

enum direct_split {
	DIRECT_ONLY,		/* before 7.2: the counters are direct reclaim's */
	DIRECT_NO_STALLS,	/* 7.2+, no allocstall: all memcg reclaim */
	DIRECT_BY_EVENTS,	/* 7.2+, memcg's part from its reclaim events */
	DIRECT_UNSPLIT,		/* 7.2+, direct and memcg reclaim together */
};

/* What the counters of a window (the recording, or a phase) hold. */
struct direct_counts {
	int64_t scan, steal;		/* pgscan_direct, pgsteal_direct deltas,
					 * summed over zones */
	int have_stalls;		/* allocstall* sampled */
	int64_t stalls;			/* their summed delta */
	int have_proactive;		/* pgscan_proactive sampled */
	int64_t proactive;
};

/*
 * How the direct counters of recording a split, and memcg limit
 * reclaim's part of them (*memcg_scan, *memcg_steal; 0 unless
 * DIRECT_NO_STALLS or DIRECT_BY_EVENTS): direct reclaim's own pages are
 * scan - *memcg_scan and steal - *memcg_steal.
 */
enum direct_split direct_split(const struct analysis *a, const struct direct_counts *c,
			       int64_t *memcg_scan, int64_t *memcg_steal);

#endif
