// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Task-id map (see pidmap.h): linear probing on a power-of-two table that
 * doubles at 50% load. Task ids are never removed during one analysis.
 */
#include "config.h"
#include "pidmap.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

void pidmap_init(struct pidmap *m, size_t esize)
{
	memset(m, 0, sizeof(*m));
	m->esize = esize;
}

void pidmap_release(struct pidmap *m)
{
	free(m->keys);
	free(m->vals);
	m->keys = NULL;
	m->vals = NULL;
	m->cap = m->n = 0;
}

/*
 * A negative pid (only a corrupt record has one) would be taken for an
 * empty slot: it would read an empty slot's value, and what was stored
 * under it would never be found again, nor freed by a model that walks
 * its map (the fuzzer's leak). Every negative pid is one task, "no valid
 * pid", under a key no kernel gives (PID_MAX_LIMIT is 4 Mi).
 */
static int pidmap_key(int pid)
{
	return pid < 0 ? PIDMAP_NO_PID : pid;
}

static unsigned pidmap_slot(unsigned cap, int pid)
{
	return ((unsigned)pid * 2654435761u) & (cap - 1);
}

void *pidmap_get(const struct pidmap *m, int pid)
{
	pid = pidmap_key(pid);
	if (!m->cap)
		return NULL;
	for (unsigned i = pidmap_slot(m->cap, pid);; i = (i + 1) & (m->cap - 1)) {
		if (m->keys[i] == pid)
			return PIDMAP_VAL(m, i);
		if (m->keys[i] < 0)
			return NULL;
	}
}

static void pidmap_grow(struct pidmap *m)
{
	unsigned cap = m->cap ? m->cap * 2 : 64;
	int *keys = xreallocarray(NULL, cap, sizeof(int));
	char *vals = xcalloc(cap, m->esize);

	memset(keys, 0xff, sizeof(int) * cap);
	for (unsigned i = 0; i < m->cap; i++) {
		unsigned j;

		if (m->keys[i] < 0)
			continue;
		for (j = pidmap_slot(cap, m->keys[i]); keys[j] >= 0; j = (j + 1) & (cap - 1))
			;
		keys[j] = m->keys[i];
		memcpy(vals + (size_t)j * m->esize, PIDMAP_VAL(m, i), m->esize);
	}
	free(m->keys);
	free(m->vals);
	m->keys = keys;
	m->vals = vals;
	m->cap = cap;
}

void *pidmap_add(struct pidmap *m, int pid)
{
	void *v = pidmap_get(m, pid);
	unsigned i;

	pid = pidmap_key(pid);
	if (v)
		return v;
	if ((m->n + 1) * 2 > m->cap)
		pidmap_grow(m);
	for (i = pidmap_slot(m->cap, pid); m->keys[i] >= 0; i = (i + 1) & (m->cap - 1))
		;
	m->keys[i] = pid;
	m->n++;
	return PIDMAP_VAL(m, i);
}
