// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * OOM model (see model-oom.h). The last reclaim each task began is kept
 * in a small table (OOM_TASKS, the least recently used slot reused): the
 * killing task's entry is only read at its own kill, which comes right
 * after its reclaim gave up, so a short memory is enough.
 */
#include "config.h"
#include "model-oom.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OOM_TASKS	256

struct last_reclaim {
	int pid;
	enum reclaim_kind kind;
	uint64_t memcg, ts;
	int used;
};

struct oom_model {
	struct oom_kill *kills;
	int nkills, cap;
	uint64_t reclaim_retries, compact_retries;
	struct last_reclaim task[OOM_TASKS];
	int seen;
};

struct oom_model *oom_model_new(void)
{
	return xcalloc(1, sizeof(struct oom_model));
}

void oom_model_free(struct oom_model *m)
{
	if (!m)
		return;
	free(m->kills);
	free(m);
}

static struct last_reclaim *task_find(struct oom_model *m, int pid)
{
	for (int i = 0; i < OOM_TASKS; i++)
		if (m->task[i].used && m->task[i].pid == pid)
			return &m->task[i];
	return NULL;
}

static void note_reclaim(struct oom_model *m, const struct record *r)
{
	struct last_reclaim *t = task_find(m, r->pid);

	if (!t) {
		t = &m->task[0];
		for (int i = 0; i < OOM_TASKS && t->used; i++)
			if (!m->task[i].used || m->task[i].ts < t->ts)
				t = &m->task[i];
	}
	t->used = 1;
	t->pid = r->pid;
	t->kind = r->rbegin.kind;
	t->memcg = r->rbegin.memcg;
	t->ts = r->ts;
}

static void add_kill(struct oom_model *m, const struct record *r)
{
	const struct last_reclaim *t = task_find(m, r->pid);
	struct oom_kill *k;

	if (m->nkills == m->cap) {
		m->cap = m->cap ? m->cap * 2 : 8;
		m->kills = xreallocarray(m->kills, (size_t)m->cap, sizeof(*m->kills));
	}
	k = &m->kills[m->nkills++];
	memset(k, 0, sizeof(*k));
	k->ts = r->ts;
	k->cgroup = r->cgroup;
	k->pid = r->oom.victim;
	snprintf(k->comm, sizeof(k->comm), "%s", r->oom.victim_comm ? r->oom.victim_comm : "");
	k->by_pid = r->pid;
	/* "<...>": the saved cmdlines did not have it; unknown, not a name */
	snprintf(k->by_comm, sizeof(k->by_comm), "%s",
		 r->comm && strcmp(r->comm, "<...>") ? r->comm : "");
	k->total_vm_kb = r->oom.total_vm_kb;
	k->anon_rss_kb = r->oom.anon_rss_kb;
	k->file_rss_kb = r->oom.file_rss_kb;
	k->shmem_rss_kb = r->oom.shmem_rss_kb;
	k->uid = r->oom.uid;
	k->oom_score_adj = r->oom.oom_score_adj;
	k->constraint = OOMC_UNKNOWN;
	if (t && t->kind == RK_MEMCG) {
		k->constraint = OOMC_MEMCG;
		k->memcg_id = t->memcg;
		k->memcg_known = t->memcg != 0;	/* 0: the event has no memcg_id */
	} else if (t && t->kind == RK_DIRECT) {
		k->constraint = OOMC_GLOBAL;
	}
}

void oom_model_add(struct oom_model *m, const struct record *r)
{
	if (!m)
		return;
	if (r->type == REC_RECLAIM_BEGIN) {
		note_reclaim(m, r);
		return;
	}
	if (r->type != REC_OOM)
		return;
	m->seen = 1;
	switch (r->oom.kind) {
	case OOM_VICTIM:
		add_kill(m, r);
		break;
	case OOM_RECLAIM_RETRY:
		m->reclaim_retries++;
		break;
	case OOM_COMPACT_RETRY:
		m->compact_retries++;
		break;
	default:
		break;
	}
}

int oom_model_seen(const struct oom_model *m) { return m && m->seen; }
int oom_model_nkills(const struct oom_model *m) { return m ? m->nkills : 0; }

const struct oom_kill *oom_model_kill(const struct oom_model *m, int i)
{
	return m && i >= 0 && i < m->nkills ? &m->kills[i] : NULL;
}

uint64_t oom_model_reclaim_retries(const struct oom_model *m) { return m->reclaim_retries; }
uint64_t oom_model_compact_retries(const struct oom_model *m) { return m->compact_retries; }

const char *oom_constraint_name(enum oom_constraint c)
{
	return c == OOMC_MEMCG ? "memcg" : c == OOMC_GLOBAL ? "page-alloc" : NULL;
}

/* The driver's view (model.h). */
static void *ops_create(void) { return oom_model_new(); }
static void ops_add(void *m, const struct record *r) { oom_model_add(m, r); }
static void ops_destroy(void *m) { oom_model_free(m); }

const struct model_ops oom_model_ops = {
	.name = "oom", .create = ops_create, .add = ops_add, .destroy = ops_destroy,
};
