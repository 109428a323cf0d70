// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The phases model (see model-phases.h): one entry per REC_PHASE record,
 * in time order; finish() closes the last one at the end of the recording.
 */
#include "config.h"
#include "model-phases.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct phases_model {
	struct phase *v;
	int n, alloc;
};

static void *phases_create(void)
{
	return xcalloc(1, sizeof(struct phases_model));
}

static void phases_add(void *model, const struct record *r)
{
	struct phases_model *m = model;
	struct phase *p;

	if (r->type != REC_PHASE || !r->phase.name)
		return;
	if (m->n && m->v[m->n - 1].to_end)
		m->v[m->n - 1].end_ts = r->ts, m->v[m->n - 1].to_end = 0;
	if (m->n == m->alloc) {
		m->alloc = m->alloc ? 2 * m->alloc : 8;
		m->v = xreallocarray(m->v, (size_t)m->alloc, sizeof(*m->v));
	}
	p = &m->v[m->n++];
	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", r->phase.name);
	p->start_ts = p->end_ts = r->ts;
	p->to_end = 1;
}

static void phases_finish(void *model, uint64_t end_ts)
{
	struct phases_model *m = model;

	if (m->n && m->v[m->n - 1].to_end && end_ts > m->v[m->n - 1].start_ts)
		m->v[m->n - 1].end_ts = end_ts;
}

static void phases_destroy(void *model)
{
	struct phases_model *m = model;

	if (m)
		free(m->v);
	free(m);
}

const struct model_ops phases_model_ops = {
	.name = "phases",
	.create = phases_create,
	.add = phases_add,
	.finish = phases_finish,
	.destroy = phases_destroy,
};

int phases_model_count(const struct phases_model *m)
{
	return m ? m->n : 0;
}

const struct phase *phases_model_get(const struct phases_model *m, int i)
{
	return m && i >= 0 && i < m->n ? &m->v[i] : NULL;
}

const struct phase *phases_model_find(const struct phases_model *m, const char *name)
{
	for (int i = 0; m && i < m->n; i++)
		if (!strcmp(m->v[i].name, name))
			return &m->v[i];
	return NULL;
}
