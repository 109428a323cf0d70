/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Counters model: every numeric counter of the samples (vmstat, mTHP
 * stats per size, zswap, PSI, swap devices, memcg), keyed by (source,
 * instance, name). A set counts only once its end line was seen; the
 * model keeps the first and last committed value, the largest change
 * between two consecutive sets and when it happened, and the largest
 * value and when it was first reached (what a gauge such as swap used or
 * memcg usage peaked at: first -> last hides it when the workload exits).
 * Which keys are gauges, their unit and the key of their limit are in a
 * table (counters_gauge()). Pure C, no I/O.
 */
#ifndef MMSCOPE_MODEL_COUNTERS_H
#define MMSCOPE_MODEL_COUNTERS_H

#include <stdint.h>

#include "records.h"
#include "model.h"

struct counter {
	enum sample_source source;
	char instance[40];
	char key[48];
	int scale;			/* value / 10^scale */
	/* values as read; when wide, uint64_t bits (a count the kernel
	 * printed above INT64_MAX): take deltas with counter_delta() or
	 * counters_diff(), print with wide in mind */
	int64_t first, last;
	int wide;			/* some value was above INT64_MAX */
	int64_t max_step;		/* largest |last - previous| in one interval */
	uint64_t max_step_ts;
	uint64_t first_seq, last_seq;
	int64_t peak;			/* largest committed value */
	uint64_t peak_ts;		/* end of the set that first reached it */
	/* internal */
	int64_t pend;
	uint64_t pend_seq;
	int committed, pending;
};

struct counters_model;

/* A gauge: a value that goes up and down (not a running count). */
struct counter_gauge {
	enum sample_source source;
	const char *key;
	const char *unit;		/* "kB", "bytes", "pages", "requests" */
	const char *limit_key;		/* same source and instance; NULL: none */
};

/* The gauge entry of a key, NULL for counters that only grow. */
const struct counter_gauge *counters_gauge(enum sample_source src, const char *key);
/* A gauge's limit (the last value of its limit key): 1 and *limit when
 * sampled, 0 when unknown. *unlimited is set when the kernel reports no
 * limit (cgroup v1's page-rounded LONG_MAX). */
int counters_model_limit(const struct counters_model *m, const struct counter *c,
			 int64_t *limit, int *unlimited);

struct counters_model *counters_model_new(void);
void counters_model_free(struct counters_model *m);
void counters_model_add(struct counters_model *m, const struct record *r);

/* Complete sample sets, and the trace time of the first and last one. */
uint64_t counters_model_nsets(const struct counters_model *m);
void counters_model_span(const struct counters_model *m, uint64_t *first_ts,
			 uint64_t *last_ts);
/*
 * The longest time between two consecutive sets (ns; 0 with fewer than
 * two) and the end of the set before it: a sampler starved under
 * pressure leaves such a hole, and nothing sampled describes it.
 */
uint64_t counters_model_max_gap(const struct counters_model *m, uint64_t *after_ts);
/* Sets begun (lines seen) but never ended. */
uint64_t counters_model_incomplete_sets(const struct counters_model *m);
/* All counters, in the order first seen. */
int counters_model_count(const struct counters_model *m);
const struct counter *counters_model_get(const struct counters_model *m, int i);
/* One counter by name; instance "" for single-instance sources. */
const struct counter *counters_model_find(const struct counters_model *m,
					  enum sample_source src, const char *instance,
					  const char *key);
/*
 * later - earlier of two values of one counter, modulo 2^64: exact for
 * counters above 2^63 (kept as their bits) and for any change within
 * +-2^63, with no signed overflow.
 */
static inline int64_t counters_diff(int64_t later, int64_t earlier)
{
	uint64_t d = (uint64_t)later - (uint64_t)earlier;

	return d > (uint64_t)INT64_MAX ? -(int64_t)(~d) - 1 : (int64_t)d;
}

/* A counter's delta over the recording, last - first. */
static inline int64_t counter_delta(const struct counter *c)
{
	return counters_diff(c->last, c->first);
}

/* Delta last - first of a vmstat counter; 0 and *found = 0 if absent or
 * not known (fewer than two sample sets: a short window). */
int64_t counters_model_delta(const struct counters_model *m, const char *vmstat_key,
			     int *found);
/* 1 if vmstat key is base itself or base per zone (base_dma, base_dma32,
 * base_normal, base_movable, base_high, base_device): pgscan_direct but
 * not pgscan_direct_throttle, which counts events, not pages. */
int counters_zone_key(const char *key, const char *base);
/* The sum of the deltas of base and its per-zone keys (above). */
int64_t counters_model_delta_zones(const struct counters_model *m, const char *base,
				   int *found);
/* The sum of the deltas of every vmstat key starting with prefix. */
int64_t counters_model_delta_prefix(const struct counters_model *m, const char *prefix,
				    int *found);

/* The model as the analysis driver runs it (model.h). */
extern const struct model_ops counters_model_ops;

#endif
