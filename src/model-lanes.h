/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Time-indexed lanes for the timeline and stalls views: per node, the
 * intervals when kswapd and kcompactd were awake, direct and memcg
 * reclaim stalls, compaction runs outside kcompactd, OOM kills, and the
 * free pages and watermarks of one zone of the node over time: the one
 * whose free pages came closest to its high watermark (lowest free/high
 * seen), since an idle large zone (DMA32 beside a busy Normal) shows
 * nothing of the pressure; the largest when none has a watermark.
 *
 * The other models keep totals and kswapd episodes but not these
 * intervals; this one keeps them, fed by the analysis driver like every
 * model (analysis_lanes()). Pure C, no I/O, records in time order; memory
 * is bounded by LANES_MAX_SPANS per lane and LANES_MAX_SAMPLES per node
 * (beyond them spans are counted as dropped, samples thinned).
 *
 * A live front end reads the lanes while records keep coming:
 * lanes_sync(now) sorts what closed since the last call and shows what
 * is still open as provisional spans ending at now (flag LANE_OPEN);
 * the next lanes_add() takes the provisional spans back out.
 */
#ifndef MMSCOPE_MODEL_LANES_H
#define MMSCOPE_MODEL_LANES_H

#include <stdint.h>

#include "records.h"
#include "model.h"

#define LANES_MAX_NODES 64
#define LANES_MAX_SPANS 500000
#define LANES_MAX_SAMPLES 65536	/* per zone */
#define LANES_MAX_ZONES 8		/* per node (MAX_NR_ZONES is at most 6) */

enum lane_id { LANE_KSWAPD, LANE_KCOMPACTD, LANE_RECLAIM, LANE_COMPACT, LANE_OOM, LANE_NR };

/* Span kinds: reclaim_kind for LANE_RECLAIM; for LANE_KCOMPACTD 1 when
 * on a request (order > 0), 0 proactive; otherwise 0. Bit-fields keep a
 * span at 24 bytes: a lane holds up to LANES_MAX_SPANS of them. */
struct lane_span {
	uint64_t start, end;	/* end == start for points (OOM) */
	int pid;
	signed int kind : 4;
	unsigned int flags : 2;	/* LANE_OPEN: still open at lanes_sync() time */
	signed int order : 6;	/* -1 none; an order above 31 is kept as 31 */
	/* stalls and compaction runs: the record.cgroup of the begin record
	 * (the task's memory cgroup then: an id of analysis_cgmap() plus 1),
	 * 0 unknown, as on a recording without the tasks' cgroups or an id
	 * past LANE_CGROUP_MAX */
	unsigned int cgroup : 20;
};

#define LANE_OPEN 1
#define LANE_CGROUP_MAX ((1 << 20) - 1)

struct lane {
	struct lane_span *spans;	/* sorted by start after lanes_finish/sync() */
	int n, alloc;
	int nsorted;			/* spans[0..nsorted) are in order */
	int nopen;			/* provisional spans among them */
	uint64_t max_len;		/* longest span: bounds the searches */
	uint64_t dropped;
};

struct wm_sample {
	uint64_t ts;
	int64_t free, min, low, high;
};

struct lanes_node {
	int seen;
	struct lane lane[LANE_NR];
	/* the zone drawn (see above); these point into the model's per-zone
	 * tracks and change as a closer zone shows up */
	const struct wm_sample *samples;
	int nsamples;
	const char *zone;
	int64_t zone_managed;
	int zones_sampled;	/* zones of the node with samples (managed not 0) */
};

struct lanes;

struct lanes *lanes_new(void);
void lanes_free(struct lanes *l);
void lanes_add(struct lanes *l, const struct record *r);
/* Closes what is still open at end_ts and sorts the spans. */
void lanes_finish(struct lanes *l, uint64_t end_ts);
/* For reading while records still come: sorts the spans and adds what is
 * open as provisional spans ending at now (undone by the next add). */
void lanes_sync(struct lanes *l, uint64_t now);

/* Nodes are 0..nnodes-1 (at least 1); a node may be unseen. */
int lanes_nnodes(const struct lanes *l);
const struct lanes_node *lanes_node(const struct lanes *l, int nid);
const char *lane_name(enum lane_id id);

/* Per column of an axis: how many spans of a lane (of this kind, or any
 * when kind < 0) overlap [origin + c * step, origin + (c + 1) * step),
 * into counts[0..ncols). */
void lanes_cover(const struct lane *ln, int kind, uint64_t origin, uint64_t step, int ncols,
		 uint32_t *counts);
/* The span overlapping [a, b], or the nearest one within slack of it;
 * -1 if none. */
int lanes_find(const struct lane *ln, uint64_t a, uint64_t b, uint64_t slack);

/* The model as the analysis driver runs it (model.h). */
extern const struct model_ops lanes_model_ops;

#endif
