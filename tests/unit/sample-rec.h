/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Records as the counter sampler's parser hands them out, for the model
 * tests that feed hand-built sequences: one counter value of a sample set,
 * and the end of the set (models settle a set's values at its end).
 */
#ifndef MMSCOPE_TESTS_SAMPLE_REC_H
#define MMSCOPE_TESTS_SAMPLE_REC_H

#include "records.h"

#include <string.h>

static inline struct record rec_counter(enum sample_source src, const char *inst,
					const char *key, int64_t v, uint64_t seq)
{
	struct record r;

	memset(&r, 0, sizeof(r));
	r.type = REC_COUNTER;
	r.counter.source = src;
	r.counter.seq = seq;
	r.counter.instance = inst;
	r.counter.key = key;
	r.counter.value = v;
	return r;
}

static inline struct record rec_sample_end(uint64_t seq)
{
	struct record r;

	memset(&r, 0, sizeof(r));
	r.type = REC_SAMPLE_END;
	r.send.seq = seq;
	return r;
}

/* A zoneinfo line of node 0 with low/high at 5/4 and 3/2 of min, as
 * the kernel's default watermark_scale_factor spaces them roughly. */
static inline struct record rec_zone(uint64_t ts, uint64_t seq, const char *zone,
				     int64_t managed, int64_t free, int64_t min)
{
	struct record r;

	memset(&r, 0, sizeof(r));
	r.type = REC_ZONE;
	r.ts = ts;
	r.zone.seq = seq;
	r.zone.node = 0;
	r.zone.zone = zone;
	r.zone.free = free;
	r.zone.min = min;
	r.zone.low = min * 5 / 4;
	r.zone.high = min * 3 / 2;
	r.zone.managed = managed;
	r.zone.free_blocks = -1;
	return r;
}

#endif
