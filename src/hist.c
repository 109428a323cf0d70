// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fixed-size latency histograms (see hist.h): bucket i < 16 holds the
 * value i; above, each power of two [2^e, 2^(e+1)) is cut in 16 equal
 * sub-buckets. Used by the reclaim and compaction models.
 */
#include "config.h"
#include "hist.h"

#include <string.h>

void hist_init(struct hist *h)
{
	memset(h, 0, sizeof(*h));
}

static int hist_index(uint64_t v)
{
	int e;

	if (v < 16)
		return (int)v;
	e = 63 - __builtin_clzll(v);
	return 16 + (e - HIST_SUB_BITS) * 16 + (int)((v >> (e - HIST_SUB_BITS)) & 15);
}

/* The largest value that falls in bucket i. */
static uint64_t hist_upper(int i)
{
	int e, sub;

	if (i < 16)
		return (uint64_t)i;
	e = (i - 16) / 16 + HIST_SUB_BITS;
	sub = (i - 16) % 16;
	if (e >= 63 && sub == 15)
		return UINT64_MAX;
	return ((uint64_t)(16 + sub + 1) << (e - HIST_SUB_BITS)) - 1;
}

void hist_add(struct hist *h, uint64_t v)
{
	if (!h->count || v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
	h->count++;
	h->sum += v;
	h->b[hist_index(v)]++;
}

uint64_t hist_percentile(const struct hist *h, double p)
{
	uint64_t want, seen = 0;

	if (!h->count)
		return 0;
	want = (uint64_t)((double)h->count * p / 100.0 + 0.999999);
	if (want < 1)
		want = 1;
	for (int i = 0; i < HIST_NBUCKETS; i++) {
		seen += h->b[i];
		if (seen >= want) {
			uint64_t u = hist_upper(i);

			return u > h->max ? h->max : u < h->min ? h->min : u;
		}
	}
	return h->max;
}

uint64_t hist_log2_count(const struct hist *h, int i)
{
	uint64_t lo = i == 0 ? 0 : 1ULL << i, hi = i >= 63 ? UINT64_MAX : (1ULL << (i + 1)) - 1;
	uint64_t n = 0;

	for (int b = hist_index(lo); b < HIST_NBUCKETS && hist_upper(b) <= hi; b++) {
		n += h->b[b];
		if (hist_upper(b) == hi)
			break;
	}
	return n;
}
