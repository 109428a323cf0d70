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

/* The last SIGKILLs seen, for the mark_victim that may follow one: the
 * kill it became (-1: none, a task's SIGKILL to itself). */
#define OOM_RECENT 32

struct recent_sig {
	uint64_t ts;
	int sender, target, kill;
	int sharer_of;		/* taken for a sharer of this kill's victim; -1 not */
};

struct oom_model {
	struct oom_kill *kills;		/* every kill */
	int nkills, cap;
	int *oom_idx;			/* the kernel's, as indexes into kills */
	int noom, oom_cap;
	uint64_t reclaim_retries, compact_retries;
	struct last_reclaim task[OOM_TASKS];
	int seen, signals_seen;
	struct oom_sigkills sig;
	struct recent_sig recent[OOM_RECENT];
	unsigned nrecent;
	struct kill_window win;
	struct kill_cgroup kcg;
	const char *(*cg_path)(void *ctx, int tag);
	void *cg_ctx;
};

struct oom_model *oom_model_new_window(uint64_t window_ns)
{
	struct oom_model *m = xcalloc(1, sizeof(struct oom_model));

	kill_window_init(&m->win, window_ns ? window_ns : KILL_WINDOW_DEFAULT_NS);
	kill_cgroup_init(&m->kcg, m->win.window_ns);
	return m;
}

struct oom_model *oom_model_new(void)
{
	return oom_model_new_window(0);
}

void oom_model_free(struct oom_model *m)
{
	if (!m)
		return;
	kill_window_release(&m->win);
	kill_cgroup_release(&m->kcg);
	free(m->kills);
	free(m->oom_idx);
	free(m);
}

void oom_model_set_cgroup_path(struct oom_model *m, const char *(*fn)(void *ctx, int tag),
			       void *ctx)
{
	m->cg_path = fn;
	m->cg_ctx = ctx;
}

static const char *victim_path(const struct oom_model *m, int tag)
{
	return m->cg_path && tag > 0 ? m->cg_path(m->cg_ctx, tag) : NULL;
}

static struct oom_kill *kill_new(struct oom_model *m)
{
	struct oom_kill *k;

	if (m->nkills == m->cap) {
		m->cap = m->cap ? m->cap * 2 : 8;
		m->kills = xreallocarray(m->kills, (size_t)m->cap, sizeof(*m->kills));
	}
	k = &m->kills[m->nkills++];
	memset(k, 0, sizeof(*k));
	k->pid = k->by_pid = -1;
	k->total_vm_kb = k->anon_rss_kb = k->file_rss_kb = k->shmem_rss_kb = -1;
	k->uid = -1;
	k->oom_score_adj = INT64_MIN;
	k->code = -1;
	return k;
}

/* "<...>": the saved cmdlines did not have it; unknown, not a name */
static void set_comm(char *dst, size_t len, const char *comm)
{
	snprintf(dst, len, "%s", comm && strcmp(comm, "<...>") ? comm : "");
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

static const struct recent_sig *recent_find(const struct oom_model *m, int sender,
					    int target, uint64_t ts)
{
	unsigned n = m->nrecent < OOM_RECENT ? m->nrecent : OOM_RECENT;

	for (unsigned i = 1; i <= n; i++) {
		const struct recent_sig *s = &m->recent[(m->nrecent - i) % OOM_RECENT];

		if (s->sender == sender && s->target == target && s->ts <= ts &&
		    ts - s->ts <= KILL_MATCH_NS)
			return s;
	}
	return NULL;
}

static void add_kill(struct oom_model *m, const struct record *r)
{
	const struct last_reclaim *t = task_find(m, r->pid);
	const struct recent_sig *sig = recent_find(m, r->pid, r->oom.victim, r->ts);
	struct oom_kill *k;
	int ki;

	/* a SIGKILL taken for one to a sharer of the last OOM victim's
	 * memory was the next OOM kill's own after all */
	if (sig && sig->sharer_of >= 0) {
		m->kills[sig->sharer_of].also_killed--;
		m->sig.also_killed--;
		m->sig.kills++;
	}
	/* its own SIGKILL came first: that kill is this one */
	if (sig && sig->kill >= 0 && !m->kills[sig->kill].oom) {
		ki = sig->kill;
		k = &m->kills[ki];
		m->sig.oom++;
	} else {
		k = kill_new(m);
		ki = m->nkills - 1;
		if (sig) {	/* to itself (the victim ran the OOM killer), or a sharer's */
			k->signalled = 1;
			k->code = SI_KERNEL_CODE;
			m->sig.oom += sig->sharer_of >= 0;
		}
	}
	if (m->noom == m->oom_cap) {
		m->oom_cap = m->oom_cap ? m->oom_cap * 2 : 8;
		m->oom_idx = xreallocarray(m->oom_idx, (size_t)m->oom_cap, sizeof(*m->oom_idx));
	}
	m->oom_idx[m->noom++] = ki;
	k->oom = 1;
	k->ts = r->ts;
	k->cgroup = r->cgroup;
	k->pid = r->oom.victim;
	snprintf(k->comm, sizeof(k->comm), "%s", r->oom.victim_comm ? r->oom.victim_comm : "");
	k->by_pid = r->pid;
	set_comm(k->by_comm, sizeof(k->by_comm), r->comm);
	k->total_vm_kb = r->oom.total_vm_kb;
	k->anon_rss_kb = r->oom.anon_rss_kb;
	k->file_rss_kb = r->oom.file_rss_kb;
	k->shmem_rss_kb = r->oom.shmem_rss_kb;
	k->uid = r->oom.uid;
	k->oom_score_adj = r->oom.oom_score_adj;
	k->constraint = OOMC_UNKNOWN;
	k->memcg_known = 0;
	k->memcg_id = 0;
	if (t && t->kind == RK_MEMCG) {
		k->constraint = OOMC_MEMCG;
		k->memcg_id = t->memcg;
		k->memcg_known = t->memcg != 0;	/* 0: the event has no memcg_id */
	} else if (t && t->kind == RK_DIRECT) {
		k->constraint = OOMC_GLOBAL;
	}
	k->killer = k->constraint == OOMC_MEMCG ? KILLER_MEMCG_OOM : KILLER_KERNEL_OOM;
	k->oomd_xattr = 0;
	kill_window_capture(&m->win, r->ts, r->cgroup, &k->before);
	kill_cgroup_capture(&m->kcg, r->ts, victim_path(m, r->cgroup), &k->cg);
	k->cg_by_count = 0;
	kill_cgroup_unwatch(&m->kcg, ki);
	if (!victim_path(m, r->cgroup))
		kill_cgroup_watch_oom(&m->kcg, ki, r->ts);
}

/* The OOM kill whose killer sent this SIGKILL to another process sharing
 * the victim's memory (__oom_kill_process, after mark_victim), or NULL. */
static int oom_sharer_of(const struct oom_model *m, const struct record *r)
{
	const struct oom_kill *k;

	if (!m->noom || r->sig.code != SI_KERNEL_CODE)
		return -1;
	k = &m->kills[m->oom_idx[m->noom - 1]];
	return k->by_pid == r->pid && r->ts >= k->ts && r->ts - k->ts <= KILL_SHARER_NS &&
	       r->sig.target != k->pid ? m->oom_idx[m->noom - 1] : -1;
}

static enum kill_killer killer_of(const char *comm)
{
	if (!strcmp(comm, "systemd-oomd"))
		return KILLER_SYSTEMD_OOMD;
	if (!strcmp(comm, "earlyoom"))
		return KILLER_EARLYOOM;
	return KILLER_OTHER;
}

static void add_signal(struct oom_model *m, const struct record *r)
{
	struct recent_sig *rs;
	struct oom_kill *k;

	m->signals_seen = 1;
	if (r->sig.sig != 9)
		return;
	m->sig.seen++;
	/* delivered (0) or delivered without its siginfo (4, LOSE_INFO);
	 * a kernel without the field: taken as delivered */
	if (r->sig.result == 1) {
		m->sig.ignored++;
		return;
	}
	if (r->sig.result == 2) {
		m->sig.pending++;
		return;
	}
	if (r->sig.result > 0 && r->sig.result != 4) {
		m->sig.other_result++;
		return;
	}
	rs = &m->recent[m->nrecent++ % OOM_RECENT];
	rs->ts = r->ts;
	rs->sender = r->pid;
	rs->target = r->sig.target;
	rs->kill = -1;
	rs->sharer_of = oom_sharer_of(m, r);
	if (rs->sharer_of >= 0) {
		m->kills[rs->sharer_of].also_killed++;
		m->sig.also_killed++;
		return;
	}
	if (r->sig.target == r->pid) {
		m->sig.self++;
		return;
	}
	m->sig.kills++;
	k = kill_new(m);
	rs->kill = m->nkills - 1;
	k->ts = r->ts;
	k->pid = r->sig.target;
	set_comm(k->comm, sizeof(k->comm), r->sig.target_comm);
	k->cgroup = r->cgroup;
	k->by_pid = r->pid;
	set_comm(k->by_comm, sizeof(k->by_comm), r->comm);
	k->sender_cgroup = r->sig.sender_cgroup;
	k->signalled = 1;
	k->code = r->sig.code;
	k->killer = killer_of(k->by_comm);
	kill_window_capture(&m->win, r->ts, r->cgroup, &k->before);
	kill_cgroup_capture(&m->kcg, r->ts, victim_path(m, r->cgroup), &k->cg);
	kill_cgroup_watch(&m->kcg, rs->kill, r->ts, victim_path(m, r->cgroup));
}

void oom_model_add(struct oom_model *m, const struct record *r)
{
	if (!m)
		return;
	kill_window_add(&m->win, r);
	kill_cgroup_add(&m->kcg, r);
	if (r->type == REC_SAMPLE_END) {
		struct kc_resolved d;

		while (kill_cgroup_take(&m->kcg, &d)) {
			struct oom_kill *k;

			if (d.kill < 0 || d.kill >= m->nkills)
				continue;
			k = &m->kills[d.kill];
			if (d.kind == KC_BY_OOMD && !k->oom) {
				k->killer = KILLER_SYSTEMD_OOMD;
				k->oomd_xattr = 1;
				k->oomd = d.ev;
			} else if (d.kind == KC_BY_OOM_COUNT && k->oom && !k->cg.path) {
				kill_cgroup_capture(&m->kcg, k->ts, d.path, &k->cg);
				k->cg_by_count = k->cg.path != NULL;
			}
		}
		return;
	}
	if (r->type == REC_RECLAIM_BEGIN) {
		note_reclaim(m, r);
		return;
	}
	if (r->type == REC_SIGNAL && !r->foreign) {
		add_signal(m, r);
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
int oom_model_signals_seen(const struct oom_model *m) { return m && m->signals_seen; }
int oom_model_nkills(const struct oom_model *m) { return m ? m->noom : 0; }

const struct oom_kill *oom_model_kill(const struct oom_model *m, int i)
{
	return m && i >= 0 && i < m->noom ? &m->kills[m->oom_idx[i]] : NULL;
}

int oom_model_nall(const struct oom_model *m) { return m ? m->nkills : 0; }

const struct oom_kill *oom_model_any(const struct oom_model *m, int i)
{
	return m && i >= 0 && i < m->nkills ? &m->kills[i] : NULL;
}

void oom_model_sigkills(const struct oom_model *m, struct oom_sigkills *out)
{
	*out = m->sig;
}

uint64_t oom_model_window_ns(const struct oom_model *m) { return m->win.window_ns; }

const char *oom_kill_killer(const struct oom_kill *k, char *buf, int len)
{
	static const char *const names[] = {
		[KILLER_KERNEL_OOM] = "kernel-oom", [KILLER_MEMCG_OOM] = "memcg-oom",
		[KILLER_SYSTEMD_OOMD] = "systemd-oomd", [KILLER_EARLYOOM] = "earlyoom",
	};

	if (k->killer == KILLER_OTHER)
		snprintf(buf, (size_t)len, "other:%s", k->by_comm[0] ? k->by_comm : "?");
	else
		snprintf(buf, (size_t)len, "%s", names[k->killer]);
	return buf;
}

uint64_t oom_model_reclaim_retries(const struct oom_model *m) { return m->reclaim_retries; }
uint64_t oom_model_compact_retries(const struct oom_model *m) { return m->compact_retries; }

const char *oom_constraint_name(enum oom_constraint c)
{
	return c == OOMC_MEMCG ? "memcg" : c == OOMC_GLOBAL ? "page-alloc" : NULL;
}

/* The driver's view (model.h). */
static void *ops_create_env(const struct model_env *env)
{
	struct oom_model *m = oom_model_new_window(env->kill_window_ns);

	oom_model_set_cgroup_path(m, env->cgroup_path, env->ctx);
	return m;
}
static void ops_add(void *m, const struct record *r) { oom_model_add(m, r); }
static void ops_destroy(void *m) { oom_model_free(m); }

const struct model_ops oom_model_ops = {
	.name = "oom", .add = ops_add, .destroy = ops_destroy,
	.create_env = ops_create_env,
};
