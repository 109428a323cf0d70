/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A series of one point per sample set, kept in bounded memory when its
 * user asks for it: at most max points on a stride, then the stride
 * doubles and every second point goes (the first stays), so that what is
 * kept is the sets 0, s, 2s, ... of a stride s = 2^k, and always the
 * latest set as the last point. Every kept point is a real set's, as the
 * model made it: deltas between kept points of a counter are exact, the
 * first and the last points are those of the whole series. Whatever a
 * report takes over every set (a first or last rise, a maximum) the
 * model keeps on its own, as the sets come.
 *
 * The caller owns the array of points (elements of one size) and writes
 * each new point at the index thin_push() gives.
 */
#ifndef MMSCOPE_THIN_H
#define MMSCOPE_THIN_H

#include <stddef.h>
#include <stdint.h>

struct thin {
	int n;			/* points in the array */
	int alloc;		/* allocated */
	int max;		/* > 0: at most this many on the stride (even, >= 2);
				 * 0: every point is kept */
	int tail;		/* the last point is off the stride (the latest set) */
	uint64_t stride;	/* sets between kept points (a power of two) */
	uint64_t sets;		/* points pushed */
};

/* An empty series keeping at most max points (0: all; else rounded up to
 * an even number, at least 2). */
void thin_init(struct thin *t, int max);
/* Where the next set's point goes in *pts (elements of size bytes),
 * grown or thinned here: the index to write it at. */
int thin_push(struct thin *t, void **pts, size_t size);

#endif
