/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A latency histogram of fixed size: log2 octaves split into 16 linear
 * sub-buckets (about 6% resolution), so percentiles are close and adding a
 * value is O(1) with no allocation. Values are nanoseconds (any u64).
 */
#ifndef MMSCOPE_HIST_H
#define MMSCOPE_HIST_H

#include <stdint.h>

#define HIST_SUB_BITS 4
#define HIST_NBUCKETS (16 + 60 * 16)

struct hist {
	uint64_t count;
	uint64_t sum;
	uint64_t min, max;
	uint64_t b[HIST_NBUCKETS];
};

void hist_init(struct hist *h);
void hist_add(struct hist *h, uint64_t v);
/* The value at percentile p (0..100): the upper bound of its bucket,
 * capped at max. 0 for an empty histogram. */
uint64_t hist_percentile(const struct hist *h, double p);
/* Count of values in [2^i, 2^(i+1)) (i = 0: values 0 and 1). */
uint64_t hist_log2_count(const struct hist *h, int i);

#endif
