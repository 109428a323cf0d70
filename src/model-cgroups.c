// SPDX-License-Identifier: GPL-2.0-or-later
/* Per memory cgroup stalls, memcg reclaim, swap-outs, OOM kills (see
 * model-cgroups.h). */
#include "config.h"
#include "model-cgroups.h"
#include "pidmap.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

struct cg_open {
	int open;
	int kind;
	int tag;		/* record.cgroup of the begin: its task's cgroup then */
	uint64_t begin;
	int is_kswapd;
	/* as the reclaim model: a task not seen to begin or end a stall
	 * yet, and its memcg reclaim pages meanwhile (its end may say they
	 * were a memcg stall's) */
	int known;
	uint64_t held_scanned, held_reclaimed;
};

struct cgroups_model {
	struct cgroups_row *rows;
	int nrows, cap;
	int *by_id;		/* cgmap id + 1 -> row + 1, 0 none */
	int nby_id;
	struct pidmap pids;	/* pid -> struct cg_open */
	int tagged;
	uint64_t from, cut;	/* bounds (model.h); 0 none */
};

static void *cg_create(void)
{
	struct cgroups_model *m = xcalloc(1, sizeof(*m));

	pidmap_init(&m->pids, sizeof(struct cg_open));
	return m;
}

static void cg_destroy(void *model)
{
	struct cgroups_model *m = model;

	if (!m)
		return;
	for (int i = 0; i < m->nrows; i++)
		for (int k = 0; k < RK_NR; k++)
			free(m->rows[i].lat[k]);
	free(m->rows);
	free(m->by_id);
	pidmap_release(&m->pids);
	free(m);
}

/* The row of tag (record.cgroup: id + 1, 0 unknown), made on first use. */
static int cg_row(struct cgroups_model *m, int tag)
{
	if (tag < 0)
		tag = 0;
	if (tag >= m->nby_id) {
		int n = tag + 64;

		m->by_id = xreallocarray(m->by_id, (size_t)n, sizeof(*m->by_id));
		memset(m->by_id + m->nby_id, 0, (size_t)(n - m->nby_id) * sizeof(*m->by_id));
		m->nby_id = n;
	}
	if (!m->by_id[tag]) {
		if (m->nrows == m->cap) {
			m->cap = m->cap ? 2 * m->cap : 16;
			m->rows = xreallocarray(m->rows, (size_t)m->cap, sizeof(*m->rows));
		}
		memset(&m->rows[m->nrows], 0, sizeof(m->rows[0]));
		m->rows[m->nrows].id = tag - 1;
		m->by_id[tag] = ++m->nrows;
	}
	return m->by_id[tag] - 1;
}

static void cg_begin(struct cgroups_model *m, const struct record *r)
{
	struct cg_open *o = pidmap_add(&m->pids, r->pid);

	/* as reclaim_begin: a softlimit reclaim inside another (or kswapd's,
	 * or a task's not known yet) is no stall of its own */
	if (r->rbegin.kind == RK_SOFTLIMIT && (o->open || o->is_kswapd || !o->known))
		return;
	o->known = 1;		/* before it: outside a stall */
	o->held_scanned = o->held_reclaimed = 0;
	o->open = 1;
	o->kind = r->rbegin.kind;
	o->begin = r->ts;
	o->tag = r->cgroup;
}

static void cg_end(struct cgroups_model *m, const struct record *r)
{
	struct cg_open *o = pidmap_get(&m->pids, r->pid);
	struct cgroups_row *row;
	uint64_t d;
	int i;

	if (r->rend.kind != RK_SOFTLIMIT && (!o || (!o->known && !o->open))) {
		/* a task's first end: its stall began before the recording
		 * (the part: counted in the part before, its time from the
		 * cut here), what it reclaimed meanwhile was that stall's */
		o = pidmap_add(&m->pids, r->pid);
		o->known = 1;
		i = cg_row(m, r->cgroup);
		row = &m->rows[i];
		if (m->from) {
			row->part_ns[r->rend.kind] += (int64_t)(r->ts - m->from);
			row->stall_ns += (int64_t)(r->ts - m->from);
		}
		if (r->rend.kind == RK_MEMCG) {
			row->memcg_scanned += o->held_scanned;
			row->memcg_reclaimed += o->held_reclaimed;
		}
		o->held_scanned = o->held_reclaimed = 0;
		return;
	}
	if (!o || !o->open || o->kind != (int)r->rend.kind)
		return;
	o->open = 0;
	d = r->ts >= o->begin ? r->ts - o->begin : 0;
	i = cg_row(m, o->tag);	/* before m->rows: it may move them */
	row = &m->rows[i];
	if (!row->lat[o->kind]) {
		row->lat[o->kind] = xmalloc(sizeof(struct hist));
		hist_init(row->lat[o->kind]);
	}
	hist_add(row->lat[o->kind], d);
	row->stall_ns += (int64_t)d;
}

static void cg_add(void *model, const struct record *r)
{
	struct cgroups_model *m = model;
	struct cg_open *o;

	if (r->cgroup > 0)
		m->tagged = 1;
	switch (r->type) {
	case REC_KSWAPD_WAKE:
	case REC_KSWAPD_SLEEP:
		o = pidmap_add(&m->pids, r->pid);
		o->is_kswapd = o->known = 1;
		o->held_scanned = o->held_reclaimed = 0;
		break;
	case REC_RECLAIM_BEGIN:
		cg_begin(m, r);
		break;
	case REC_RECLAIM_END:
		cg_end(m, r);
		break;
	case REC_SHRINK_INACTIVE:
		o = pidmap_add(&m->pids, r->pid);
		if (o->open && o->kind == RK_MEMCG) {
			int i = cg_row(m, o->tag);
			struct cgroups_row *row = &m->rows[i];

			row->memcg_scanned += r->shrink.scanned;
			row->memcg_reclaimed += r->shrink.reclaimed;
		} else if (!o->known && !o->is_kswapd) {
			o->held_scanned += r->shrink.scanned;
			o->held_reclaimed += r->shrink.reclaimed;
		}
		break;
	case REC_SWAP_FOLIO:
		if (r->swap.kind == SWFK_RESULT && r->swap.ok && !r->foreign) {
			int i = cg_row(m, r->cgroup);

			m->rows[i].swapouts++;
		}
		break;
	case REC_OOM:
		if (r->oom.kind == OOM_VICTIM) {
			int i = cg_row(m, r->cgroup);

			m->rows[i].oom_kills++;
		}
		break;
	default:
		break;
	}
}

static int cg_cmp(const void *pa, const void *pb)
{
	const struct cgroups_row *a = pa, *b = pb;

	if ((a->id < 0) != (b->id < 0))
		return a->id < 0 ? 1 : -1;
	if (a->stall_ns != b->stall_ns)
		return a->stall_ns > b->stall_ns ? -1 : 1;
	return a->id < b->id ? -1 : a->id > b->id;
}

static void cg_bounds(void *model, uint64_t from, uint64_t cut)
{
	struct cgroups_model *m = model;

	m->from = from;
	m->cut = cut;
}

static void cg_finish(void *model, uint64_t end_ts)
{
	struct cgroups_model *m = model;

	(void)end_ts;
	for (unsigned i = 0; m->cut && i < m->pids.cap; i++) {
		struct cg_open *o;
		struct cgroups_row *row;
		int ri;

		if (m->pids.keys[i] < 0)
			continue;
		o = PIDMAP_VAL(&m->pids, i);
		if (!o->open)
			continue;
		/* cut: counted here, where it began, up to the cut */
		ri = cg_row(m, o->tag);	/* before m->rows: it may move them */
		row = &m->rows[ri];
		row->cut[o->kind]++;
		row->part_ns[o->kind] += (int64_t)(m->cut - o->begin);
		row->stall_ns += (int64_t)(m->cut - o->begin);
		o->open = 0;
	}
	if (!m->nrows)
		return;
	qsort(m->rows, (size_t)m->nrows, sizeof(*m->rows), cg_cmp);
	memset(m->by_id, 0, (size_t)m->nby_id * sizeof(*m->by_id));
	for (int i = 0; i < m->nrows; i++)
		m->by_id[m->rows[i].id + 1] = i + 1;
}

uint64_t cgroups_row_stalls(const struct cgroups_row *row, int kind)
{
	return (row->lat[kind] ? row->lat[kind]->count : 0) + row->cut[kind];
}

int64_t cgroups_row_stall_ns(const struct cgroups_row *row, int kind)
{
	return (row->lat[kind] ? (int64_t)row->lat[kind]->sum : 0) + row->part_ns[kind];
}

int cgroups_model_nrows(const struct cgroups_model *m)
{
	return m ? m->nrows : 0;
}

const struct cgroups_row *cgroups_model_row(const struct cgroups_model *m, int i)
{
	return m && i >= 0 && i < m->nrows ? &m->rows[i] : NULL;
}

const struct cgroups_row *cgroups_model_find(const struct cgroups_model *m, int id)
{
	if (!m || id + 1 < 0 || id + 1 >= m->nby_id || !m->by_id[id + 1])
		return NULL;
	return &m->rows[m->by_id[id + 1] - 1];
}

int cgroups_model_tagged(const struct cgroups_model *m)
{
	return m ? m->tagged : 0;
}

const struct model_ops cgroups_model_ops = {
	.name = "cgroups",
	.create = cg_create,
	.add = cg_add,
	.bounds = cg_bounds,
	.finish = cg_finish,
	.destroy = cg_destroy,
};
