// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Memcgs model (see model-memcgs.h): the "memcgs" counter records of a
 * set are held per cgroup until the set's end line, then committed.
 */
#include "config.h"
#include "model-memcgs.h"
#include "cgmap.h"
#include "fnv.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

#define OTHER_PATH "(other cgroups)"

enum mkey {
	K_USAGE, K_PEAK, K_MEMSW_PEAK, K_SWAP_PEAK,
	K_LIMIT, K_HIGH, K_LOW, K_MIN, K_SWAP_MAX, K_MEMSW_LIMIT,
	K_SWAP_USAGE, K_TOTAL_SWAP, K_SWAP,
	K_FAILCNT, K_EV_LOW, K_EV_HIGH, K_EV_MAX, K_EV_OOM, K_EV_OOM_KILL,
	K_PSI_SOME, K_PSI_FULL,
	K_CGROUPS, K_SCAN_TRUNC,	/* the other line */
	K_V1, K_V2,			/* keys only one version has */
	K_NR
};

static const char *const key_names[K_NR] = {
	"usage", "peak", "memsw_peak", "swap_peak",
	"limit", "high", "low", "min", "swap_max", "memsw_limit",
	"swap_usage", "total_swap", "swap",
	"failcnt", "events_low", "events_high", "events_max", "events_oom", "events_oom_kill",
	"psi_some_total", "psi_full_total",
	"cgroups", "scan_truncated",
	"hierarchical_memory_limit", "anon",
};

struct pending {
	uint64_t seq;
	int has;
	unsigned char have[K_NR], unl[K_NR];
	int64_t val[K_NR];
};

struct mcg {
	struct memcg_info info;
	char *path;
	struct pending p;
	struct memcg_count *counts[K_NR];	/* running counts: where kept */
	int64_t prev[K_NR];
	int has_prev[K_NR];
	struct memcg_point *pts;
	int stride, in_window;
	int idx;		/* in the model's c[] */
};

struct memcgs_model {
	struct mcg **c;
	int n, cap;
	int *index;		/* open addressing on path: -1 empty */
	unsigned icap;
	struct mcg other;	/* the summed line */
	/* record --cgroup PATH's one cgroup (the "memcg" lines), apart
	 * from --cgroups' (the report's memcg section is theirs) */
	struct mcg single;
	int single_touched;
	struct memcg_other oinfo;
	int *touched;		/* cgroups with values pending */
	int ntouched, atouched;
	int other_touched;
	uint64_t dropped;
	struct mcg *last;	/* the cgroup of the last record (lines are whole) */
	int *vis, nvis, vis_dirty;	/* cgroups with a complete set, in order */
};

static unsigned path_hash(const char *s)
{
	return fnv32_str(FNV32_BASIS, s);
}

struct memcgs_model *memcgs_model_new(void)
{
	struct memcgs_model *m = xcalloc(1, sizeof(*m));

	m->other.path = xstrdup(OTHER_PATH);
	return m;
}

void memcgs_model_free(struct memcgs_model *m)
{
	if (!m)
		return;
	for (int i = 0; i < m->n; i++) {
		free(m->c[i]->path);
		free(m->c[i]->pts);
		free(m->c[i]);
	}
	free(m->c);
	free(m->index);
	free(m->touched);
	free(m->vis);
	free(m->other.path);
	free(m->single.path);
	free(m->single.pts);
	free(m);
}

static int find_index(const struct memcgs_model *m, const char *path, unsigned *slot)
{
	unsigned h;

	if (!m->icap)
		return -1;
	for (h = path_hash(path) & (m->icap - 1);; h = (h + 1) & (m->icap - 1)) {
		int ci = m->index[h];

		if (ci < 0) {
			if (slot)
				*slot = h;
			return -1;
		}
		if (!strcmp(m->c[ci]->path, path))
			return ci;
	}
}

static void rehash(struct memcgs_model *m)
{
	unsigned cap = m->icap ? m->icap * 2 : 64, slot;

	free(m->index);
	m->index = xreallocarray(NULL, cap, sizeof(*m->index));
	m->icap = cap;
	for (unsigned i = 0; i < cap; i++)
		m->index[i] = -1;
	for (int i = 0; i < m->n; i++) {
		find_index(m, m->c[i]->path, &slot);
		m->index[slot] = i;
	}
}

static void init_counts(struct mcg *c)
{
	struct memcg_info *g = &c->info;

	c->counts[K_FAILCNT] = &g->failcnt;
	c->counts[K_EV_LOW] = &g->ev_low;
	c->counts[K_EV_HIGH] = &g->ev_high;
	c->counts[K_EV_MAX] = &g->ev_max;
	c->counts[K_EV_OOM] = &g->ev_oom;
	c->counts[K_EV_OOM_KILL] = &g->ev_oom_kill;
	c->counts[K_PSI_SOME] = &g->psi_some_us;
	c->counts[K_PSI_FULL] = &g->psi_full_us;
	c->stride = 1;
}

/* The cgroup of a record's path; NULL beyond MEMCGS_MAX. */
static struct mcg *cgroup_of(struct memcgs_model *m, const char *path)
{
	unsigned slot;
	int ci;
	struct mcg *c;

	if (m->last && !strcmp(m->last->path, path))
		return m->last;
	if (!strcmp(path, OTHER_PATH))
		return m->last = &m->other;
	if ((unsigned)(m->n + 1) * 2 > m->icap)
		rehash(m);
	ci = find_index(m, path, &slot);
	if (ci >= 0)
		return m->last = m->c[ci];
	if (m->n >= MEMCGS_MAX) {
		m->dropped++;
		return NULL;
	}
	if (m->n == m->cap) {
		m->cap = m->cap ? m->cap * 2 : 64;
		m->c = xreallocarray(m->c, (size_t)m->cap, sizeof(*m->c));
	}
	c = xcalloc(1, sizeof(*c));
	c->path = xstrdup(path);
	c->info.path = c->path;
	c->idx = m->n;
	init_counts(c);
	m->c[m->n] = c;
	m->index[slot] = m->n++;
	return m->last = c;
}

static void on_value(struct memcgs_model *m, const struct record *r)
{
	const char *path = r->type == REC_COUNTER ? r->counter.instance : r->setting.instance;
	const char *key = r->type == REC_COUNTER ? r->counter.key : r->setting.key;
	uint64_t seq = r->type == REC_COUNTER ? r->counter.seq : r->setting.seq;
	struct mcg *c;
	int k;

	if (!path || !*path)
		return;
	for (k = 0; k < K_NR; k++)
		if (!strcmp(key, key_names[k]))
			break;
	if (k == K_NR)
		return;
	/* numbers only, but v2's "max" (no limit) */
	if (r->type == REC_SETTING ? strcmp(r->setting.value, "max") :
	    r->counter.scale || r->counter.wide)
		return;
	if ((r->type == REC_COUNTER ? r->counter.source : r->setting.source) == SRC_MEMCG) {
		c = &m->single;
		if (!c->path) {
			char buf[4096];

			/* as the tasks' map names it: below the mount */
			c->path = xstrdup(cgmap_scope_path(path, buf, (int)sizeof(buf)));
			c->info.path = c->path;
			init_counts(c);
		}
	} else {
		c = cgroup_of(m, path);
	}
	if (!c)
		return;
	if (!c->p.has || c->p.seq != seq) {	/* new, or a set whose end was lost */
		int listed = c->p.has;

		memset(&c->p, 0, sizeof(c->p));
		c->p.seq = seq;
		c->p.has = 1;
		if (listed) {
			/* already in touched[] */
		} else if (c == &m->single) {
			m->single_touched = 1;
		} else if (c == &m->other) {
			m->other_touched = 1;
		} else {
			if (m->ntouched == m->atouched) {
				m->atouched = m->atouched ? m->atouched * 2 : 64;
				m->touched = xreallocarray(m->touched, (size_t)m->atouched,
							   sizeof(*m->touched));
			}
			m->touched[m->ntouched++] = c->idx;
		}
	}
	c->p.have[k] = 1;
	if (r->type == REC_SETTING) {
		c->p.unl[k] = 1;
		c->p.val[k] = 0;
	} else {
		c->p.val[k] = r->counter.value;
		/* v1's no limit: PAGE_COUNTER_MAX pages in bytes */
		c->p.unl[k] = r->counter.value >= INT64_MAX / 2;
	}
}

static void val_set(struct memcg_val *v, const struct pending *p, int k)
{
	v->known = 1;
	v->unlimited = p->unl[k];
	v->v = p->unl[k] ? 0 : p->val[k];
}

static void limit_update(struct memcg_limit *l, const struct pending *p, int k)
{
	struct memcg_val v;

	if (!p->have[k])
		return;
	val_set(&v, p, k);
	if (!l->first.known)
		l->first = v;
	else if (v.unlimited != l->last.unlimited || v.v != l->last.v)
		l->changed = 1;
	l->last = v;
}

/* A running count: the step from its previous set, or from 0 when it
 * went down (reset: the cgroup was made again, or failcnt written). */
static void count_update(struct mcg *c, const struct pending *p, int k)
{
	struct memcg_count *n = c->counts[k];

	if (!p->have[k] || p->unl[k])
		return;
	if (c->has_prev[k]) {
		if (p->val[k] >= c->prev[k]) {
			n->delta += p->val[k] - c->prev[k];
		} else {
			n->delta += p->val[k];
			n->resets++;
		}
		n->delta_known = 1;
	}
	val_set(&n->last, p, k);
	c->prev[k] = p->val[k];
	c->has_prev[k] = 1;
}

static void add_point(struct mcg *c, const struct pending *p, uint64_t ts)
{
	struct memcg_point pt = { .ts = ts };
	struct memcg_info *g = &c->info;

	if (p->have[K_USAGE] && !p->unl[K_USAGE]) {
		pt.usage = p->val[K_USAGE];
		pt.known |= MEMCG_PT_USAGE;
	}
	if (p->have[K_LIMIT]) {
		pt.limit = p->unl[K_LIMIT] ? INT64_MAX : p->val[K_LIMIT];
		pt.known |= MEMCG_PT_LIMIT;
	}
	if (p->have[K_HIGH]) {
		pt.high = p->unl[K_HIGH] ? INT64_MAX : p->val[K_HIGH];
		pt.known |= MEMCG_PT_HIGH;
	}
	if (!pt.known)
		return;
	if (c->in_window && g->npts) {
		/* within a thinned window: the largest usage, the latest limits */
		struct memcg_point *last = &c->pts[g->npts - 1];

		if ((pt.known & MEMCG_PT_USAGE) &&
		    (!(last->known & MEMCG_PT_USAGE) || pt.usage > last->usage)) {
			last->usage = pt.usage;
			last->known |= MEMCG_PT_USAGE;
		}
		if (pt.known & MEMCG_PT_LIMIT)
			last->limit = pt.limit, last->known |= MEMCG_PT_LIMIT;
		if (pt.known & MEMCG_PT_HIGH)
			last->high = pt.high, last->known |= MEMCG_PT_HIGH;
		last->ts = ts;
	} else {
		if (g->npts == MEMCGS_POINTS) {
			for (int i = 0; i < MEMCGS_POINTS / 2; i++) {
				struct memcg_point a = c->pts[2 * i], b = c->pts[2 * i + 1];

				if ((a.known & MEMCG_PT_USAGE) &&
				    (!(b.known & MEMCG_PT_USAGE) || a.usage > b.usage)) {
					b.usage = a.usage;
					b.known |= MEMCG_PT_USAGE;
				}
				c->pts[i] = b;
			}
			g->npts = MEMCGS_POINTS / 2;
			c->stride *= 2;
		}
		if (!c->pts)
			c->pts = xreallocarray(NULL, MEMCGS_POINTS, sizeof(*c->pts));
		c->pts[g->npts++] = pt;
		g->pts = c->pts;
	}
	c->in_window = (c->in_window + 1) % c->stride;
}

static void commit(struct memcgs_model *m, struct mcg *c, uint64_t ts)
{
	struct memcg_info *g = &c->info;
	const struct pending *p = &c->p;
	int swap_k = p->have[K_SWAP_USAGE] ? K_SWAP_USAGE :
		     p->have[K_TOTAL_SWAP] ? K_TOTAL_SWAP : p->have[K_SWAP] ? K_SWAP : -1;

	if (!g->nsets) {
		g->first_ts = ts;
		m->vis_dirty = 1;
	}
	g->nsets++;
	g->last_ts = ts;
	if (p->have[K_V1] || p->have[K_FAILCNT] || p->have[K_MEMSW_LIMIT])
		g->version = 1;
	else if (p->have[K_V2] || p->have[K_EV_MAX] || p->have[K_HIGH])
		g->version = 2;
	if (p->have[K_USAGE] && !p->unl[K_USAGE]) {
		val_set(&g->usage_last, p, K_USAGE);
		if (!g->usage_first.known)
			g->usage_first = g->usage_last;
		if (!g->usage_max.known || p->val[K_USAGE] > g->usage_max.v) {
			g->usage_max = g->usage_last;
			g->usage_max_ts = ts;
		}
	}
	if (p->have[K_PEAK])
		val_set(&g->peak, p, K_PEAK);
	if (p->have[K_MEMSW_PEAK])
		val_set(&g->memsw_peak, p, K_MEMSW_PEAK);
	if (p->have[K_SWAP_PEAK])
		val_set(&g->swap_peak, p, K_SWAP_PEAK);
	limit_update(&g->limit, p, K_LIMIT);
	limit_update(&g->high, p, K_HIGH);
	limit_update(&g->low, p, K_LOW);
	limit_update(&g->min, p, K_MIN);
	limit_update(&g->swap_max, p, K_SWAP_MAX);
	limit_update(&g->memsw_limit, p, K_MEMSW_LIMIT);
	if (swap_k >= 0 && !p->unl[swap_k]) {
		val_set(&g->swap_last, p, swap_k);
		if (!g->swap_max_sampled.known || p->val[swap_k] > g->swap_max_sampled.v)
			g->swap_max_sampled = g->swap_last;
	}
	for (int k = 0; k < K_NR; k++)
		if (c->counts[k])
			count_update(c, p, k);
	add_point(c, p, ts);
}

static void commit_other(struct memcgs_model *m)
{
	struct memcg_other *o = &m->oinfo;
	const struct pending *p = &m->other.p;
	struct memcg_val v;

	o->nsets++;
	if (p->have[K_CGROUPS]) {
		val_set(&v, p, K_CGROUPS);
		o->cgroups_last = v;
		if (!o->cgroups_max.known || v.v > o->cgroups_max.v)
			o->cgroups_max = v;
	}
	/* the sum is of whichever cgroups were not sampled in that set */
	o->usage_last.known = 0;
	if (p->have[K_USAGE]) {
		val_set(&v, p, K_USAGE);
		o->usage_last = v;
		if (!o->usage_max.known || v.v > o->usage_max.v)
			o->usage_max = v;
	}
	if (p->have[K_SCAN_TRUNC] && p->val[K_SCAN_TRUNC])
		o->scan_truncated = 1;
}

static void on_end(struct memcgs_model *m, const struct record *r)
{
	for (int i = 0; i < m->ntouched; i++) {
		struct mcg *c = m->c[m->touched[i]];

		if (c->p.has && c->p.seq == r->send.seq)
			commit(m, c, r->ts);
		c->p.has = 0;
	}
	m->ntouched = 0;
	if (m->other_touched && m->other.p.has && m->other.p.seq == r->send.seq)
		commit_other(m);
	if (m->single_touched && m->single.p.has && m->single.p.seq == r->send.seq)
		commit(m, &m->single, r->ts);
	m->single.p.has = 0;
	m->single_touched = 0;
	m->other.p.has = 0;
	m->other_touched = 0;
}

void memcgs_model_add(struct memcgs_model *m, const struct record *r)
{
	if ((r->type == REC_COUNTER &&
	     (r->counter.source == SRC_MEMCGS || r->counter.source == SRC_MEMCG)) ||
	    (r->type == REC_SETTING &&
	     (r->setting.source == SRC_MEMCGS || r->setting.source == SRC_MEMCG)))
		on_value(m, r);
	else if (r->type == REC_SAMPLE_END)
		on_end(m, r);
}

/* a cgroup whose only set was lost is not one: the visible ones */
static void visible(const struct memcgs_model *cm)
{
	struct memcgs_model *m = (struct memcgs_model *)cm;

	if (!m->vis_dirty && (m->vis || !m->n))
		return;
	m->vis = xreallocarray(m->vis, (size_t)(m->n ? m->n : 1), sizeof(*m->vis));
	m->nvis = 0;
	for (int i = 0; i < m->n; i++)
		if (m->c[i]->info.nsets)
			m->vis[m->nvis++] = i;
	m->vis_dirty = 0;
}

int memcgs_model_count(const struct memcgs_model *m)
{
	visible(m);
	return m->nvis;
}

const struct memcg_info *memcgs_model_get(const struct memcgs_model *m, int i)
{
	visible(m);
	return i >= 0 && i < m->nvis ? &m->c[m->vis[i]]->info : NULL;
}

const struct memcg_info *memcgs_model_find(const struct memcgs_model *m, const char *path)
{
	int ci = find_index(m, path, NULL);

	return ci >= 0 && m->c[ci]->info.nsets ? &m->c[ci]->info : NULL;
}

struct ordered {
	int i;
	const struct memcg_info *g;
};

static int by_usage(const void *a, const void *b)
{
	const struct memcg_info *x = ((const struct ordered *)a)->g;
	const struct memcg_info *y = ((const struct ordered *)b)->g;

	if (x->usage_max.known != y->usage_max.known)
		return x->usage_max.known ? -1 : 1;
	if (x->usage_max.v != y->usage_max.v)
		return x->usage_max.v > y->usage_max.v ? -1 : 1;
	return strcmp(x->path, y->path);
}

void memcgs_model_order(const struct memcgs_model *m, int *out)
{
	int n = memcgs_model_count(m), k;
	struct ordered *v = xreallocarray(NULL, (size_t)(n ? n : 1), sizeof(*v));

	for (k = 0; k < n; k++) {
		v[k].i = k;
		v[k].g = memcgs_model_get(m, k);
	}
	qsort(v, (size_t)n, sizeof(*v), by_usage);
	for (int i = 0; i < n; i++)
		out[i] = v[i].i;
	free(v);
}

const struct memcg_other *memcgs_model_other(const struct memcgs_model *m)
{
	return &m->oinfo;
}

const struct memcg_info *memcgs_model_single(const struct memcgs_model *m)
{
	return m->single.info.nsets ? &m->single.info : NULL;
}

uint64_t memcgs_model_dropped(const struct memcgs_model *m)
{
	return m->dropped;
}

static void *ops_create(void)
{
	return memcgs_model_new();
}

static void ops_add(void *m, const struct record *r)
{
	memcgs_model_add(m, r);
}

static void ops_destroy(void *m)
{
	memcgs_model_free(m);
}

const struct model_ops memcgs_model_ops = {
	.name = "memcgs", .create = ops_create, .add = ops_add, .destroy = ops_destroy,
};
