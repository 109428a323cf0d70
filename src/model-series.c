// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Counter series over time: see model-series.h.
 */
#include "config.h"
#include "model-series.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct series_model {
	struct series *s;
	int n, alloc;
	uint64_t dropped;
};

/* The memcg keys drawn: usage against its limits (v1 and v2 names). */
static const char *const memcg_keys[] = {
	"usage", "limit", "memsw_usage", "memsw_limit", "swap_usage", "swap_max", "high",
	NULL,
};

static int memcg_wanted(const char *key)
{
	for (int i = 0; memcg_keys[i]; i++)
		if (!strcmp(memcg_keys[i], key))
			return 1;
	return 0;
}

static struct series *series_get(struct series_model *m, enum sample_source src, int node,
				 const char *instance, const char *key, int scale)
{
	struct series *s;

	for (int i = 0; i < m->n; i++) {
		s = &m->s[i];
		if (s->source == src && s->node == node && !strcmp(s->instance, instance) &&
		    !strcmp(s->key, key))
			return s;
	}
	if (m->n >= SERIES_MAX)
		return NULL;
	if (m->n == m->alloc) {
		m->alloc = m->alloc ? m->alloc * 2 : 16;
		m->s = xreallocarray(m->s, (size_t)m->alloc, sizeof(*m->s));
	}
	s = &m->s[m->n++];
	memset(s, 0, sizeof(*s));
	s->source = src;
	s->node = node;
	snprintf(s->instance, sizeof(s->instance), "%s", instance ? instance : "");
	snprintf(s->key, sizeof(s->key), "%s", key);
	s->scale = scale;
	s->stride = 1;
	return s;
}

static void series_value(struct series_model *m, enum sample_source src, int node,
			 const char *instance, const char *key, int scale, uint64_t seq,
			 int64_t v)
{
	struct series *s = series_get(m, src, node, instance, key, scale);

	if (!s) {
		m->dropped++;
		return;
	}
	s->pend = v;
	s->pend_seq = seq;
	s->pending = 1;
}

static void series_commit(struct series *s, uint64_t ts)
{
	struct series_point pt = { ts, s->pend };

	s->pending = 0;
	s->last = pt;
	s->has_last = 1;
	if (s->skip++ % s->stride)
		return;
	if (s->npts == SERIES_MAX_POINTS) {
		/* keep every other point, and one set in two from now on */
		for (int i = 0; i < s->npts / 2; i++)
			s->pts[i] = s->pts[2 * i];
		s->npts /= 2;
		s->stride *= 2;
		s->skip = 1;
	}
	if (s->npts == s->apts) {
		s->apts = s->apts ? s->apts * 2 : 64;
		s->pts = xreallocarray(s->pts, (size_t)s->apts, sizeof(*s->pts));
	}
	s->pts[s->npts++] = pt;
}

static void *series_create(void)
{
	return xcalloc(1, sizeof(struct series_model));
}

static void series_add(void *model, const struct record *r)
{
	struct series_model *m = model;

	switch (r->type) {
	case REC_ZONE:
		series_value(m, SRC_ZONE, r->zone.node, r->zone.zone, "free", 0, r->zone.seq,
			     r->zone.free);
		series_value(m, SRC_ZONE, r->zone.node, r->zone.zone, "min", 0, r->zone.seq,
			     r->zone.min);
		series_value(m, SRC_ZONE, r->zone.node, r->zone.zone, "low", 0, r->zone.seq,
			     r->zone.low);
		series_value(m, SRC_ZONE, r->zone.node, r->zone.zone, "high", 0, r->zone.seq,
			     r->zone.high);
		break;
	case REC_COUNTER:
		if (r->counter.source == SRC_PSI ||
		    (r->counter.source == SRC_MEMCG && memcg_wanted(r->counter.key)))
			series_value(m, r->counter.source, -1, r->counter.instance, r->counter.key,
				     r->counter.scale, r->counter.seq, r->counter.value);
		break;
	case REC_SAMPLE_END:
		for (int i = 0; i < m->n; i++)
			if (m->s[i].pending && m->s[i].pend_seq == r->send.seq)
				series_commit(&m->s[i], r->ts);
		break;
	default:
		break;
	}
}

static void series_finish(void *model, uint64_t end_ts)
{
	struct series_model *m = model;

	(void)end_ts;
	/* thinning may have dropped the last set: it ends the series */
	for (int i = 0; i < m->n; i++) {
		struct series *s = &m->s[i];

		if (s->has_last && (!s->npts || s->pts[s->npts - 1].ts != s->last.ts)) {
			if (s->npts == s->apts) {
				s->apts = s->apts ? s->apts * 2 : 64;
				s->pts = xreallocarray(s->pts, (size_t)s->apts, sizeof(*s->pts));
			}
			s->pts[s->npts++] = s->last;
		}
	}
}

static void series_destroy(void *model)
{
	struct series_model *m = model;

	if (!m)
		return;
	for (int i = 0; i < m->n; i++)
		free(m->s[i].pts);
	free(m->s);
	free(m);
}

const struct model_ops series_model_ops = {
	.name = "series",
	.create = series_create,
	.add = series_add,
	.finish = series_finish,
	.destroy = series_destroy,
	.viewer = 1,	/* the charts (plot, HTML) and Perfetto */
};

int series_model_count(const struct series_model *m)
{
	return m ? m->n : 0;
}

const struct series *series_model_get(const struct series_model *m, int i)
{
	return m && i >= 0 && i < m->n ? &m->s[i] : NULL;
}

uint64_t series_model_dropped(const struct series_model *m)
{
	return m ? m->dropped : 0;
}
