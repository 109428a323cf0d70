// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fragmentation model (see model-frag.h). Zone lines of a sample set are
 * staged and applied at the set's end record. The per-zone series keeps
 * at most FRAG_SERIES points: when full, every other point is dropped and
 * the stride doubles, so memory stays fixed however long the recording.
 * The indexes follow mm/vmstat.c (fill_contig_page_info, __fragmentation_index,
 * unusable_free_index).
 */
#include "config.h"
#include "model-frag.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

#define FRAG_MAX_ZONES 32

struct frag_stage {
	int used;
	int zi, ti;		/* ti < 0: buddy line */
	struct frag_snapshot snap;
	uint64_t seq;
};

struct frag_model {
	int hi_order;		/* pageblock order: log2(page size / 8) */
	int nzones;
	struct frag_zone zones[FRAG_MAX_ZONES];
	struct frag_stage stage[FRAG_MAX_ZONES * (FRAG_MAX_TYPES + 1)];
	int nstage;
};

struct frag_model *frag_model_new(void)
{
	struct frag_model *m = xcalloc(1, sizeof(struct frag_model));

	m->hi_order = 9;	/* 4096 / 8 = 512 pages until told */
	return m;
}

int frag_model_set_page_size(struct frag_model *m, uint32_t page_size)
{
	int o = 0;

	if (page_size < 4096 || page_size > 65536 || (page_size & (page_size - 1)))
		return -1;
	while ((8u << o) < page_size)
		o++;
	m->hi_order = o < REC_MAX_ORDERS ? o : REC_MAX_ORDERS - 1;
	return 0;
}

int frag_model_hi_order(const struct frag_model *m) { return m->hi_order; }

void frag_model_free(struct frag_model *m)
{
	free(m);
}

uint64_t frag_free_pages_from(const struct frag_snapshot *s, int order)
{
	uint64_t n = 0;
	int top = s->norders < REC_MAX_ORDERS ? s->norders : REC_MAX_ORDERS;

	for (int o = order < 0 ? 0 : order; o < top; o++)
		n += s->free[o] << o;
	return n;
}

uint64_t frag_free_pages(const struct frag_snapshot *s)
{
	return frag_free_pages_from(s, 0);
}

int frag_index(const struct frag_snapshot *s, int order)
{
	uint64_t blocks = 0, suitable = 0, free = frag_free_pages(s);

	for (int o = 0; o < s->norders; o++) {
		blocks += s->free[o];
		if (o >= order)
			suitable += s->free[o];
	}
	if (!blocks)
		return 0;
	if (suitable)
		return -1000;
	return (int)(1000 - (1000 + free * 1000 / (1ULL << order)) / blocks);
}

int frag_unusable(const struct frag_snapshot *s, int order)
{
	uint64_t free = frag_free_pages(s);

	if (!free)
		return 0;
	return (int)((free - frag_free_pages_from(s, order)) * 1000 / free);
}

static int frag_find_zone(struct frag_model *m, int node, const char *zone)
{
	for (int i = 0; i < m->nzones; i++)
		if (m->zones[i].node == node && !strcmp(m->zones[i].zone, zone))
			return i;
	if (m->nzones == FRAG_MAX_ZONES)
		return -1;
	m->zones[m->nzones].node = node;
	strncpy(m->zones[m->nzones].zone, zone, sizeof(m->zones[0].zone) - 1);
	m->zones[m->nzones].stride = 1;
	return m->nzones++;
}

static int frag_find_type(struct frag_zone *z, const char *type)
{
	for (int i = 0; i < z->ntypes; i++)
		if (!strcmp(z->type[i], type))
			return i;
	if (z->ntypes == FRAG_MAX_TYPES)
		return -1;
	strncpy(z->type[z->ntypes], type, sizeof(z->type[0]) - 1);
	return z->ntypes++;
}

static void frag_stage_line(struct frag_model *m, const struct record *r)
{
	struct frag_stage *st;
	int zi = frag_find_zone(m, r->buddy.node, r->buddy.zone), ti = -1;

	if (zi < 0)
		return;
	if (r->type == REC_PAGETYPE) {
		ti = frag_find_type(&m->zones[zi], r->buddy.type);
		if (ti < 0)
			return;
	}
	if (m->nstage && m->stage[0].seq != r->buddy.seq)
		m->nstage = 0;		/* the previous set never ended */
	if (m->nstage == (int)(sizeof(m->stage) / sizeof(m->stage[0])))
		return;
	st = &m->stage[m->nstage++];
	st->zi = zi;
	st->ti = ti;
	st->seq = r->buddy.seq;
	st->snap.norders = r->buddy.norders;
	memcpy(st->snap.free, r->buddy.free, sizeof(st->snap.free));
}

static void frag_series_add(const struct frag_model *m, struct frag_zone *z,
			    const struct frag_snapshot *snap)
{
	uint64_t ts = snap->ts, hi = frag_free_pages_from(snap, m->hi_order);

	if (z->samples % (uint64_t)z->stride)
		return;
	if (z->nseries == FRAG_SERIES) {
		for (int i = 0; i < FRAG_SERIES / 2; i++) {
			z->series_ts[i] = z->series_ts[2 * i];
			z->series_hi[i] = z->series_hi[2 * i];
			z->series_snap[i] = z->series_snap[2 * i];
		}
		z->nseries = FRAG_SERIES / 2;
		z->stride *= 2;
		if (z->samples % (uint64_t)z->stride)
			return;
	}
	z->series_ts[z->nseries] = ts;
	z->series_hi[z->nseries] = hi;
	z->series_snap[z->nseries] = *snap;
	z->nseries++;
}

static void frag_commit(struct frag_model *m, const struct record *r)
{
	for (int i = 0; i < m->nstage; i++) {
		struct frag_stage *st = &m->stage[i];
		struct frag_zone *z = &m->zones[st->zi];

		if (st->seq != r->send.seq)
			continue;
		st->snap.ts = r->ts;
		if (st->ti >= 0) {
			if (!z->type_first[st->ti].norders)
				z->type_first[st->ti] = st->snap;
			z->type_last[st->ti] = st->snap;
			continue;
		}
		if (!z->samples)
			z->first = st->snap;
		z->last = st->snap;
		frag_series_add(m, z, &st->snap);
		z->samples++;
	}
	m->nstage = 0;
}

void frag_model_add(struct frag_model *m, const struct record *r)
{
	/* the page size is the analysis's (frag_model_set_page_size) */
	if (r->type == REC_BUDDY || r->type == REC_PAGETYPE)
		frag_stage_line(m, r);
	else if (r->type == REC_SAMPLE_END)
		frag_commit(m, r);
}

int frag_model_nzones(const struct frag_model *m)
{
	return m->nzones;
}

const struct frag_zone *frag_model_zone(const struct frag_model *m, int i)
{
	return i >= 0 && i < m->nzones ? &m->zones[i] : NULL;
}

/* The driver's view (model.h): one entry of models[] in src/analysis.c. */
static void *ops_create(void) { return frag_model_new(); }
static void ops_add(void *m, const struct record *r) { frag_model_add(m, r); }
static void ops_destroy(void *m) { frag_model_free(m); }

const struct model_ops frag_model_ops = {
	.name = "frag",
	.create = ops_create,
	.add = ops_add,
	.destroy = ops_destroy,
};
