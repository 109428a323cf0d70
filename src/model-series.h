/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Counter series: the values of a few sampled counters over time, for
 * front ends that draw them on a time axis (mmscope convert to Perfetto):
 * per zone its free pages and min/low/high watermarks (zoneinfo), PSI
 * (/proc/pressure/memory), and the memcg's usage and limits. The counters
 * model keeps first, last and peak only; this one keeps every complete
 * sample set's value (a set counts once its end line was seen, as there).
 * Memory is bounded: at most SERIES_MAX_POINTS per series (beyond, every
 * other point is dropped and the series keeps one set in two from then
 * on, the last value always kept) and SERIES_MAX series. Pure C, no I/O.
 */
#ifndef MMSCOPE_MODEL_SERIES_H
#define MMSCOPE_MODEL_SERIES_H

#include <stdint.h>

#include "model.h"
#include "records.h"

#define SERIES_MAX_POINTS 8192
#define SERIES_MAX 512

struct series_point {
	uint64_t ts;		/* ns: the end of the sample set */
	int64_t v;		/* value / 10^scale */
};

struct series {
	enum sample_source source;	/* SRC_ZONE, SRC_PSI, SRC_MEMCG */
	int node;			/* SRC_ZONE: the node; -1 otherwise */
	char instance[40];		/* SRC_ZONE: the zone's name; else as sampled */
	char key[48];			/* free, min, low, high; some_avg10; usage ... */
	int scale;
	int npts;
	struct series_point *pts;
	/* internal */
	int apts, stride, skip;
	int64_t pend;
	uint64_t pend_seq;
	int pending;
	struct series_point last;	/* kept when thinning drops it */
	int has_last;
};

struct series_model;

extern const struct model_ops series_model_ops;

/* Series in the order first seen; sets beyond SERIES_MAX are dropped
 * (series_model_dropped() counts the values). */
int series_model_count(const struct series_model *m);
const struct series *series_model_get(const struct series_model *m, int i);
uint64_t series_model_dropped(const struct series_model *m);

#endif
