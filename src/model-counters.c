// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Counters model (see model-counters.h). Counters live in an array in
 * first-seen order with a hash index on (source, instance, key). A value
 * read in set SEQ is kept pending until the set's end record commits it,
 * so a set cut short by the end of the recording or by a lost event never
 * counts. Committing walks the counters touched in that set only.
 */
#include "config.h"
#include "model-counters.h"
#include "fnv.h"
#include "util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct counters_model {
	struct counter *c;
	int n, cap;
	int *index;			/* hash slots: counter index or -1 */
	unsigned icap;
	int *touched;			/* pending counter indexes */
	int ntouched, captouched;
	uint64_t nsets, first_ts, last_ts;
	uint64_t max_gap, max_gap_after;	/* longest time between two sets */
	uint64_t last_end_seq;
	int any_pending;
	uint64_t incomplete;
	uint64_t cur_seq;
};

struct counters_model *counters_model_new(void)
{
	return xcalloc(1, sizeof(struct counters_model));
}

void counters_model_free(struct counters_model *m)
{
	if (!m)
		return;
	free(m->c);
	free(m->index);
	free(m->touched);
	free(m);
}

static unsigned counters_hash(enum sample_source s, const char *inst, const char *key)
{
	return fnv32_str(fnv32_str(fnv32_str(FNV32_BASIS ^ (unsigned)s, inst), "/"), key);
}

static int counters_slot(const struct counters_model *m, enum sample_source s,
			 const char *inst, const char *key, unsigned *slot)
{
	unsigned i = counters_hash(s, inst, key) & (m->icap - 1);

	for (;; i = (i + 1) & (m->icap - 1)) {
		int ci = m->index[i];

		if (ci < 0) {
			*slot = i;
			return -1;
		}
		if (m->c[ci].source == s && !strcmp(m->c[ci].instance, inst) &&
		    !strcmp(m->c[ci].key, key))
			return ci;
	}
}

static void counters_rehash(struct counters_model *m)
{
	unsigned cap = m->icap ? m->icap * 2 : 256;
	int *idx = xreallocarray(NULL, cap, sizeof(int));

	memset(idx, 0xff, sizeof(int) * cap);
	free(m->index);
	m->index = idx;
	m->icap = cap;
	for (int ci = 0; ci < m->n; ci++) {
		unsigned slot;

		counters_slot(m, m->c[ci].source, m->c[ci].instance, m->c[ci].key, &slot);
		m->index[slot] = ci;
	}
}

static struct counter *counters_lookup(struct counters_model *m, const struct record *r,
				       int *ci_out)
{
	const char *inst = r->counter.instance ? r->counter.instance : "";
	unsigned slot;
	int ci;

	if ((unsigned)(m->n + 1) * 2 > m->icap)
		counters_rehash(m);
	ci = counters_slot(m, r->counter.source, inst, r->counter.key, &slot);
	if (ci < 0) {
		if (m->n == m->cap) {
			int cap = m->cap ? m->cap * 2 : 128;
			m->c = xreallocarray(m->c, (size_t)cap, sizeof(*m->c));
			m->cap = cap;
		}
		ci = m->n++;
		memset(&m->c[ci], 0, sizeof(m->c[ci]));
		m->c[ci].source = r->counter.source;
		strncpy(m->c[ci].instance, inst, sizeof(m->c[ci].instance) - 1);
		strncpy(m->c[ci].key, r->counter.key, sizeof(m->c[ci].key) - 1);
		m->index[slot] = ci;
	}
	*ci_out = ci;
	return &m->c[ci];
}

static void counters_value(struct counters_model *m, const struct record *r)
{
	struct counter *c;
	int ci;

	if (m->any_pending && r->counter.seq != m->cur_seq) {
		m->incomplete++;	/* the previous set never ended */
		for (int i = 0; i < m->ntouched; i++)
			m->c[m->touched[i]].pending = 0;
		m->ntouched = 0;
	}
	m->any_pending = 1;
	m->cur_seq = r->counter.seq;
	c = counters_lookup(m, r, &ci);
	c->pend = r->counter.value;
	c->pend_seq = r->counter.seq;
	c->scale = r->counter.scale;
	c->wide |= r->counter.wide;
	if (c->pending)
		return;
	c->pending = 1;
	if (m->ntouched == m->captouched) {
		int cap = m->captouched ? m->captouched * 2 : 256;
		m->touched = xreallocarray(m->touched, (size_t)cap, sizeof(int));
		m->captouched = cap;
	}
	m->touched[m->ntouched++] = ci;
}

static void counters_commit(struct counters_model *m, const struct record *r)
{
	for (int i = 0; i < m->ntouched; i++) {
		struct counter *c = &m->c[m->touched[i]];

		c->pending = 0;
		if (c->pend_seq != r->send.seq)
			continue;
		if (!c->committed) {
			c->first = c->pend;
			c->first_seq = c->pend_seq;
			c->committed = 1;
			c->peak = c->pend;
			c->peak_ts = r->ts;
		} else {
			int64_t step = counters_diff(c->pend, c->last);

			if (step < 0)
				step = step == INT64_MIN ? INT64_MAX : -step;
			if (step > c->max_step) {
				c->max_step = step;
				c->max_step_ts = r->ts;
			}
		}
		if (c->wide ? (uint64_t)c->pend > (uint64_t)c->peak : c->pend > c->peak) {
			c->peak = c->pend;
			c->peak_ts = r->ts;
		}
		c->last = c->pend;
		c->last_seq = c->pend_seq;
	}
	m->ntouched = 0;
	m->any_pending = 0;
	if (!m->nsets)
		m->first_ts = r->ts;
	else if (r->ts > m->last_ts && r->ts - m->last_ts > m->max_gap) {
		m->max_gap = r->ts - m->last_ts;
		m->max_gap_after = m->last_ts;
	}
	m->last_ts = r->ts;
	m->nsets++;
	m->last_end_seq = r->send.seq;
}

void counters_model_add(struct counters_model *m, const struct record *r)
{
	/* --cgroups' many cgroups (long paths, up to thousands of keys a
	 * set) are the memcgs model's (model-memcgs.h); the task snapshot
	 * (pids by rank, not counters of one thing) the OOM model's */
	if (r->type == REC_COUNTER && (r->counter.source == SRC_MEMCGS ||
					 r->counter.source == SRC_TASKS))
		return;
	if (r->type == REC_COUNTER)
		counters_value(m, r);
	else if (r->type == REC_SAMPLE_END)
		counters_commit(m, r);
}

uint64_t counters_model_nsets(const struct counters_model *m)
{
	return m->nsets;
}

void counters_model_span(const struct counters_model *m, uint64_t *first_ts,
			 uint64_t *last_ts)
{
	*first_ts = m->first_ts;
	*last_ts = m->last_ts;
}

uint64_t counters_model_max_gap(const struct counters_model *m, uint64_t *after_ts)
{
	*after_ts = m->max_gap_after;
	return m->nsets >= 2 ? m->max_gap : 0;
}

uint64_t counters_model_incomplete_sets(const struct counters_model *m)
{
	return m->incomplete + (m->any_pending ? 1 : 0);
}

int counters_model_count(const struct counters_model *m)
{
	return m->n;
}

const struct counter *counters_model_get(const struct counters_model *m, int i)
{
	return i >= 0 && i < m->n && m->c[i].committed ? &m->c[i] : NULL;
}

const struct counter *counters_model_find(const struct counters_model *m,
					  enum sample_source src, const char *instance,
					  const char *key)
{
	unsigned slot;
	int ci;

	if (!m->icap)
		return NULL;
	ci = counters_slot(m, src, instance ? instance : "", key, &slot);
	return ci >= 0 && m->c[ci].committed ? &m->c[ci] : NULL;
}

int64_t counters_model_delta(const struct counters_model *m, const char *vmstat_key,
			     int *found)
{
	const struct counter *c = counters_model_find(m, SRC_VMSTAT, "", vmstat_key);

	/* a delta needs two sets: with one (a short window) it is unknown,
	 * not 0 */
	if (m->nsets < 2)
		c = NULL;
	if (found)
		*found = c != NULL;
	return c ? counter_delta(c) : 0;
}

int64_t counters_model_delta_prefix(const struct counters_model *m, const char *prefix,
				    int *found)
{
	size_t n = strlen(prefix);
	int64_t sum = 0;
	int any = 0;

	for (int i = 0; i < m->n; i++) {
		const struct counter *c = &m->c[i];

		if (c->source != SRC_VMSTAT || !c->committed || strncmp(c->key, prefix, n))
			continue;
		sum += counter_delta(c);
		any = 1;
	}
	if (m->nsets < 2)	/* one set: no delta (above) */
		any = 0, sum = 0;
	if (found)
		*found = any;
	return sum;
}

int counters_zone_key(const char *key, const char *base)
{
	static const char *const zones[] = { "dma", "dma32", "normal", "movable", "high",
					     "device" };
	size_t n = strlen(base);

	if (strncmp(key, base, n))
		return 0;
	if (!key[n])
		return 1;
	if (key[n] != '_')
		return 0;
	for (size_t i = 0; i < sizeof(zones) / sizeof(zones[0]); i++)
		if (!strcmp(key + n + 1, zones[i]))
			return 1;
	return 0;
}

int64_t counters_model_delta_zones(const struct counters_model *m, const char *base,
				   int *found)
{
	int64_t sum = 0;
	int any = 0;

	for (int i = 0; i < m->n; i++) {
		const struct counter *c = &m->c[i];

		if (c->source != SRC_VMSTAT || !c->committed || !counters_zone_key(c->key, base))
			continue;
		sum += counter_delta(c);
		any = 1;
	}
	if (m->nsets < 2)	/* one set: no delta (above) */
		any = 0, sum = 0;
	if (found)
		*found = any;
	return sum;
}

/* Gauges by source and key (man/mmscope-samples.5 gives the units): swap
 * devices from /proc/swaps, the memcg's usage and memory.stat sizes (v2
 * and v1 names), zswap's pool. Every other key is a running count. */
static const struct counter_gauge gauges[] = {
	{ SRC_SWAP, "used", "kB", "size" },
	{ SRC_SWAP, "inflight_r", "requests", NULL },
	{ SRC_SWAP, "inflight_w", "requests", NULL },
	{ SRC_MEMCG, "usage", "bytes", "limit" },
	{ SRC_MEMCG, "memsw_usage", "bytes", "memsw_limit" },	/* v1 memory+swap */
	{ SRC_MEMCG, "swap_usage", "bytes", "swap_max" },	/* v2 memory.swap.current */
	{ SRC_MEMCG, "peak", "bytes", "limit" },		/* the kernel's high-water mark */
	{ SRC_MEMCG, "memsw_peak", "bytes", "memsw_limit" },
	{ SRC_MEMCG, "swap_peak", "bytes", "swap_max" },
	/* memory.stat sizes, v2 then v1 names (v1's shmem is v2's) */
	{ SRC_MEMCG, "anon", "bytes", NULL },
	{ SRC_MEMCG, "file", "bytes", NULL },
	{ SRC_MEMCG, "kernel", "bytes", NULL },
	{ SRC_MEMCG, "kernel_stack", "bytes", NULL },
	{ SRC_MEMCG, "pagetables", "bytes", NULL },
	{ SRC_MEMCG, "sec_pagetables", "bytes", NULL },
	{ SRC_MEMCG, "percpu", "bytes", NULL },
	{ SRC_MEMCG, "sock", "bytes", NULL },
	{ SRC_MEMCG, "vmalloc", "bytes", NULL },
	{ SRC_MEMCG, "shmem", "bytes", NULL },
	{ SRC_MEMCG, "zswap", "bytes", NULL },
	{ SRC_MEMCG, "zswapped", "bytes", NULL },
	{ SRC_MEMCG, "file_mapped", "bytes", NULL },
	{ SRC_MEMCG, "file_dirty", "bytes", NULL },
	{ SRC_MEMCG, "file_writeback", "bytes", NULL },
	{ SRC_MEMCG, "swapcached", "bytes", NULL },
	{ SRC_MEMCG, "anon_thp", "bytes", NULL },
	{ SRC_MEMCG, "file_thp", "bytes", NULL },
	{ SRC_MEMCG, "shmem_thp", "bytes", NULL },
	{ SRC_MEMCG, "inactive_anon", "bytes", NULL },
	{ SRC_MEMCG, "active_anon", "bytes", NULL },
	{ SRC_MEMCG, "inactive_file", "bytes", NULL },
	{ SRC_MEMCG, "active_file", "bytes", NULL },
	{ SRC_MEMCG, "unevictable", "bytes", NULL },
	{ SRC_MEMCG, "slab_reclaimable", "bytes", NULL },
	{ SRC_MEMCG, "slab_unreclaimable", "bytes", NULL },
	{ SRC_MEMCG, "slab", "bytes", NULL },
	{ SRC_MEMCG, "cache", "bytes", NULL },
	{ SRC_MEMCG, "rss", "bytes", NULL },
	{ SRC_MEMCG, "rss_huge", "bytes", NULL },
	{ SRC_MEMCG, "mapped_file", "bytes", NULL },
	{ SRC_MEMCG, "dirty", "bytes", NULL },
	{ SRC_MEMCG, "writeback", "bytes", NULL },
	{ SRC_MEMCG, "swap", "bytes", NULL },
	{ SRC_ZSWAP, "stored_pages", "pages", NULL },
	{ SRC_ZSWAP, "pool_total_size", "bytes", NULL },
	{ SRC_ZSWAP, "same_filled_pages", "pages", NULL },
	{ SRC_ZSWAP, "stored_incompressible_pages", "pages", NULL },
};

const struct counter_gauge *counters_gauge(enum sample_source src, const char *key)
{
	for (size_t i = 0; i < sizeof(gauges) / sizeof(gauges[0]); i++)
		if (gauges[i].source == src && !strcmp(gauges[i].key, key))
			return &gauges[i];
	return NULL;
}

int counters_model_limit(const struct counters_model *m, const struct counter *c,
			 int64_t *limit, int *unlimited)
{
	const struct counter_gauge *g = counters_gauge(c->source, c->key);
	const struct counter *l;

	*unlimited = 0;
	if (!g || !g->limit_key ||
	    !(l = counters_model_find(m, c->source, c->instance, g->limit_key)))
		return 0;
	*limit = l->last;
	/* cgroup v1 says "no limit" as LONG_MAX rounded down to a page */
	*unlimited = l->wide || l->last >= INT64_MAX / 2;
	return 1;
}

/* The driver's view (model.h): one entry of models[] in src/analysis.c. */
static void *ops_create(void) { return counters_model_new(); }
static void ops_add(void *m, const struct record *r) { counters_model_add(m, r); }
static void ops_destroy(void *m) { counters_model_free(m); }

const struct model_ops counters_model_ops = {
	.name = "counters",
	.create = ops_create,
	.add = ops_add,
	.destroy = ops_destroy,
};
