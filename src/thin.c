// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Series of one point per sample set in bounded memory (see thin.h).
 */
#include "config.h"
#include "thin.h"
#include "util.h"

#include <string.h>

void thin_init(struct thin *t, int max)
{
	memset(t, 0, sizeof(*t));
	if (max > 0)
		t->max = max < 2 ? 2 : max + (max & 1);
	t->stride = 1;
}

int thin_push(struct thin *t, void **pts, size_t size)
{
	uint64_t set = t->sets++;
	char *p;

	if (t->tail) {		/* the latest set's, off the stride: superseded */
		t->n--;
		t->tail = 0;
	}
	if (t->max && !(set % t->stride) && t->n == t->max) {
		/* full: keep every second point (the first stays) */
		p = *pts;
		for (int i = 1; 2 * i < t->n; i++)
			memcpy(p + (size_t)i * size, p + (size_t)(2 * i) * size, size);
		t->n = (t->n + 1) / 2;
		t->stride *= 2;
	}
	if (t->max && set % t->stride)
		t->tail = 1;
	if (t->n == t->alloc) {
		int n = t->alloc ? 2 * t->alloc : 64;

		if (t->max && n > t->max + 1)	/* the stride's and a tail */
			n = t->max + 1;
		*pts = xreallocarray(*pts, (size_t)n, size);
		t->alloc = n;
	}
	return t->n++;
}
