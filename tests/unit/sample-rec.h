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

#endif
