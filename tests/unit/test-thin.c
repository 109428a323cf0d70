// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Series in bounded memory (src/thin.h): after any number of sets the
 * points kept are exactly the sets 0, s, 2s, ... of a power-of-two
 * stride s and the latest set, at most max + 1 of them, each holding its
 * own set's value; with max 0 every set is kept.
 */
#include "config.h"
#include "thin.h"
#include "tap.h"

#include <stdint.h>
#include <stdlib.h>

struct pt {
	uint64_t set;
	uint64_t sq;	/* a second field, moved with it */
};

/* The series after n sets is what the rule above says. */
static int check(const struct thin *t, const struct pt *p, uint64_t n, int max)
{
	uint64_t s = t->stride;
	int k = 0;

	if (s & (s - 1))
		return 0;
	for (uint64_t set = 0; set < n; set++) {
		if (set % s && set != n - 1)
			continue;
		if (k >= t->n || p[k].set != set || p[k].sq != set * set)
			return 0;
		k++;
	}
	if (k != t->n || (max && t->n > max + 1))
		return 0;
	/* the stride is the smallest that keeps them within max */
	return !max || s == 1 || (n - 1) / (s / 2) + 1 > (uint64_t)max;
}

static void run(int max, uint64_t upto)
{
	struct thin t;
	struct pt *p = NULL;
	int good = 1;
	uint64_t bad = 0;

	thin_init(&t, max);
	for (uint64_t n = 1; n <= upto; n++) {
		int i = thin_push(&t, (void **)&p, sizeof(*p));

		p[i] = (struct pt){ n - 1, (n - 1) * (n - 1) };
		if (good && !check(&t, p, n, max)) {
			good = 0;
			bad = n;
		}
	}
	if (!ok(good, "max %d: after each of %llu sets, the sets on the stride and the "
		"latest", max, (unsigned long long)upto))
		printf("#   wrong after %llu sets (n %d, stride %llu)\n", (unsigned long long)bad,
		       t.n, (unsigned long long)t.stride);
	if (max)
		ok(t.alloc <= max + 1, "max %d: %d points allocated, at most max + 1", max,
		   t.alloc);
	else
		ok(t.n == (int)upto && t.stride == 1, "max 0: every set kept");
	free(p);
}

int main(void)
{
	struct thin t;

	run(0, 5000);
	run(2, 1000);
	run(4, 1000);
	run(16, 5000);
	run(64, 20000);
	run(2048, 100000);
	thin_init(&t, 7);
	ok(t.max == 8, "an odd max is rounded up to an even one");
	thin_init(&t, 1);
	ok(t.max == 2, "max 1 keeps two");
	return tap_done();
}
