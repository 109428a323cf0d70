/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Memcgs model: every memory cgroup of `record --cgroups ROOT` (the
 * "mms1 memcgs" lines, man/mmscope-samples.5), per cgroup path over the
 * recording. Pure C, no I/O.
 *
 * A set counts once its end line was seen (as in the counters model).
 * Per cgroup: usage first/last/largest sampled, the kernel's own peak
 * (last sampled: since the cgroup was made or reset, not only this run),
 * the limits (limit, high, low, min, swap_max, memsw_limit: first and
 * last, and whether they changed), swap used, and deltas of the running
 * counts (failcnt, memory.events low/high/max/oom/oom_kill, v1
 * oom_control's oom_kill, memory.pressure some/full total in us) between
 * the first and the last set that cgroup was sampled in. A count that
 * went down (the cgroup was removed and made again under the same path,
 * or failcnt was written 0) counts from zero from there, and the reset
 * is counted. A cgroup sampled in one set only has its values, its
 * deltas unknown. The summed line of the cgroups beyond --cgroups-max
 * ("(other cgroups)") is kept apart, never as a cgroup.
 *
 * Bounded: at most MEMCGS_MAX cgroups are followed (more are counted in
 * memcgs_model_dropped()), and per cgroup at most MEMCGS_POINTS points
 * of usage, limit and high over time (for the TUI's lane; beyond, every
 * other point is dropped and one set in two kept from then on).
 */
#ifndef MMSCOPE_MODEL_MEMCGS_H
#define MMSCOPE_MODEL_MEMCGS_H

#include <stdint.h>

#include "model.h"
#include "records.h"

#define MEMCGS_MAX 16384
#define MEMCGS_POINTS 512

/* A sampled value: known = 0 when never sampled (v then 0); unlimited
 * for v2's "max" and v1's page-rounded LONG_MAX. */
struct memcg_val {
	int known;
	int64_t v;
	int unlimited;
};

/* A limit over the run: first and last sampled, changed between. */
struct memcg_limit {
	struct memcg_val first, last;
	int changed;
};

/* A running count: last - first over the cgroup's sets, with resets. */
struct memcg_count {
	struct memcg_val last;
	int delta_known;	/* sampled in two sets or more */
	int64_t delta;
	int resets;		/* times it went down (counted from 0 after) */
};

#define MEMCG_PT_USAGE 1
#define MEMCG_PT_LIMIT 2
#define MEMCG_PT_HIGH 4
struct memcg_point {
	uint64_t ts;		/* ns: the end of the sample set */
	int64_t usage, limit, high;	/* bytes; limit/high unlimited: INT64_MAX */
	int known;		/* MEMCG_PT_* */
};

struct memcg_info {
	const char *path;	/* as the kernel names it, "/" the hierarchy's root */
	int version;		/* 1 or 2 from the keys; 0 unknown */
	uint64_t nsets;		/* complete sets it was sampled in */
	uint64_t first_ts, last_ts;
	struct memcg_val usage_first, usage_last, usage_max;
	uint64_t usage_max_ts;
	struct memcg_val peak;		/* the kernel's (last): max_usage / memory.peak */
	struct memcg_val memsw_peak, swap_peak;
	struct memcg_limit limit, high, low, min, swap_max, memsw_limit;
	/* swap used: v2 memory.swap.current, v1 memory.stat total_swap
	 * (else swap); last and largest sampled */
	struct memcg_val swap_last, swap_max_sampled;
	struct memcg_count failcnt, ev_low, ev_high, ev_max, ev_oom, ev_oom_kill;
	struct memcg_count psi_some_us, psi_full_us;	/* memory.pressure total, us */
	int npts;
	const struct memcg_point *pts;
};

/* The cgroups beyond --cgroups-max, summed per set. */
struct memcg_other {
	uint64_t nsets;			/* sets that had the line; 0: never */
	struct memcg_val cgroups_last, cgroups_max;	/* how many were summed */
	struct memcg_val usage_last, usage_max;	/* sum of their usage, bytes */
	int scan_truncated;		/* the sampler stopped walking the tree */
};

struct memcgs_model;

extern const struct model_ops memcgs_model_ops;

struct memcgs_model *memcgs_model_new(void);
void memcgs_model_free(struct memcgs_model *m);
void memcgs_model_add(struct memcgs_model *m, const struct record *r);

/* Cgroups in first-seen order. */
int memcgs_model_count(const struct memcgs_model *m);
const struct memcg_info *memcgs_model_get(const struct memcgs_model *m, int i);
/* By path; NULL when never sampled. */
const struct memcg_info *memcgs_model_find(const struct memcgs_model *m, const char *path);
/* Indices widest first: by largest sampled usage, unknown last, then path.
 * out holds memcgs_model_count() entries. */
void memcgs_model_order(const struct memcgs_model *m, int *out);
const struct memcg_other *memcgs_model_other(const struct memcgs_model *m);
/* record --cgroup PATH's one cgroup (its "memcg" lines), kept apart
 * from --cgroups' (never in the count or order above), its path below
 * the cgroup mount as the tasks' map names it; NULL when not sampled. */
const struct memcg_info *memcgs_model_single(const struct memcgs_model *m);
/* Cgroups not followed beyond MEMCGS_MAX. */
uint64_t memcgs_model_dropped(const struct memcgs_model *m);

#endif
