/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A map from task id to a fixed-size value, open addressing, for the
 * models' per-task state (open reclaim, compaction runs, stall totals).
 * Values are zeroed when added; pointers stay valid until the next add.
 */
#ifndef MMSCOPE_PIDMAP_H
#define MMSCOPE_PIDMAP_H

#include <stddef.h>

struct pidmap {
	int *keys;		/* -1 = empty */
	char *vals;
	size_t esize;
	unsigned cap, n;
};

/* the key of every negative pid (see pidmap.c) */
#define PIDMAP_NO_PID 0x7fffffff

void pidmap_init(struct pidmap *m, size_t esize);
void pidmap_release(struct pidmap *m);
void *pidmap_get(const struct pidmap *m, int pid);	/* NULL if absent */
void *pidmap_add(struct pidmap *m, int pid);		/* never NULL */
/* Iteration: for (i = 0; i < m->cap; i++) if (m->keys[i] >= 0) ... */
#define PIDMAP_VAL(m, i) ((void *)((m)->vals + (size_t)(i) * (m)->esize))

#endif
