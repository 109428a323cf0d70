// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reclaim model. Each task with an open reclaim (begin seen, end not yet)
 * has an entry in a task-id map; LRU and shrink records of that task are
 * charged to its reclaim kind, those of a kswapd task to kswapd, the rest
 * to "other". A begin that finds one already open (the end was lost)
 * replaces it and counts as unpaired. Every update is O(1).
 */
#include "config.h"
#include "model-reclaim.h"
#include "pidmap.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

struct reclaim_pid {
	int open;
	int is_kswapd;
	enum reclaim_kind kind;
	uint64_t begin_ts;
	int order;
	/* the open pass: first priority that scanned (-1 none yet), a scan
	 * of unknown priority before it, isolated pages awaiting the shrink
	 * event that gives their priority */
	int pass_first, pass_unattr;
	uint64_t pass_pending;
	int begin_cgroup;	/* record.cgroup of the open stall's begin */
	struct reclaim_task task;
};

struct reclaim_model {
	struct reclaim_kind_stats kinds[RK_NR];
	struct pidmap pids;
	uint64_t rp_calls, rp_scanned, rp_reclaimed;
	uint64_t thr_count, thr_delayed_us;
	struct reclaim_stall *stalls;	/* paired begin/end, in end order */
	int nstalls, astalls;
	uint64_t stalls_dropped;	/* beyond RECLAIM_MAX_STALLS */
};

struct reclaim_model *reclaim_model_new(void)
{
	struct reclaim_model *m = xcalloc(1, sizeof(*m));

	for (int k = 0; k < RK_NR; k++)
		hist_init(&m->kinds[k].lat);
	pidmap_init(&m->pids, sizeof(struct reclaim_pid));
	return m;
}

void reclaim_model_free(struct reclaim_model *m)
{
	if (!m)
		return;
	pidmap_release(&m->pids);
	free(m->stalls);
	free(m);
}

static struct reclaim_pid *reclaim_pid(struct reclaim_model *m, const struct record *r)
{
	struct reclaim_pid *p = pidmap_add(&m->pids, r->pid);

	p->task.pid = r->pid;
	if (r->comm && !p->task.comm[0])
		strncpy(p->task.comm, r->comm, sizeof(p->task.comm) - 1);
	return p;
}

/* The kind that LRU work of this task belongs to. */
static enum reclaim_kind reclaim_context(struct reclaim_model *m, int pid)
{
	struct reclaim_pid *p = pidmap_get(&m->pids, pid);

	if (!p)
		return RK_OTHER;
	if (p->open)
		return p->kind;
	return p->is_kswapd ? RK_KSWAPD : RK_OTHER;
}

static void reclaim_begin(struct reclaim_model *m, const struct record *r)
{
	struct reclaim_pid *p = reclaim_pid(m, r);
	struct reclaim_kind_stats *ks = &m->kinds[r->rbegin.kind];

	/* softlimit reclaim nests inside kswapd or direct reclaim: keep the
	 * outer context open and only count it */
	ks->begins++;
	if (r->rbegin.order >= 0 && r->rbegin.order < REC_MAX_ORDERS)
		ks->orders[r->rbegin.order]++;
	if (r->rbegin.kind == RK_SOFTLIMIT && (p->open || p->is_kswapd))
		return;
	if (p->open)
		m->kinds[p->kind].unpaired_ends++;
	p->open = 1;
	p->kind = r->rbegin.kind;
	p->begin_ts = r->ts;
	p->order = r->rbegin.order;
	p->pass_first = -1;
	p->pass_unattr = 0;
	p->pass_pending = 0;
	p->begin_cgroup = r->cgroup;
}

/* The pass of an ended reclaim, by the first priority that scanned. A scan
 * of unknown priority before the first stamped one is at that stamp's
 * priority or above: known only when the stamp is DEF_PRIORITY itself. */
static void reclaim_pass_end(struct reclaim_kind_stats *ks, const struct reclaim_pid *p,
			     uint64_t ts)
{
	if (p->pass_unattr && p->pass_first != RECLAIM_DEF_PRIORITY) {
		ks->pass_unknown++;
	} else if (p->pass_first < 0) {
		ks->pass_none++;
	} else {
		ks->pass_first[p->pass_first]++;
		if (p->pass_first < RECLAIM_DEF_PRIORITY) {
			if (!ks->esc_first_ts)
				ks->esc_first_ts = p->begin_ts;
			ks->esc_last_ts = ts;
		}
	}
}

/* lru_isolate inside an open pass: its pages get the priority of the
 * shrink event that follows. Isolating nothing from an inactive list
 * (nr_taken 0) returns before lru_shrink_inactive, classic LRU and MGLRU
 * alike: those scanned pages have no priority. */
static void reclaim_pass_isolate(struct reclaim_pid *p, const struct record *r)
{
	int inactive = r->isolate.lru != 1 && r->isolate.lru != 3;

	if (!r->isolate.scanned)
		return;
	if (inactive && !r->isolate.taken) {
		if (p->pass_first < 0)
			p->pass_unattr = 1;
		return;
	}
	p->pass_pending += r->isolate.scanned;
}

/* A shrink event (inactive: its nr_scanned; active: nr_taken) stamps the
 * pages isolated since the last one with its priority. */
static void reclaim_pass_stamp(struct reclaim_pid *p, int prio, uint64_t own)
{
	uint64_t scanned = p->pass_pending > own ? p->pass_pending : own;

	p->pass_pending = 0;
	if (!scanned || p->pass_first >= 0)
		return;
	if (prio >= 0 && prio < RECLAIM_NPRIO)
		p->pass_first = prio;
	else
		p->pass_unattr = 1;
}

static struct reclaim_pid *open_pass(struct reclaim_model *m, const struct record *r)
{
	struct reclaim_pid *p = pidmap_get(&m->pids, r->pid);

	return p && p->open ? p : NULL;
}

uint64_t reclaim_passes_escalated(const struct reclaim_kind_stats *ks)
{
	uint64_t n = 0;

	for (int p = 0; p < RECLAIM_DEF_PRIORITY; p++)
		n += ks->pass_first[p];
	return n;
}

uint64_t reclaim_passes(const struct reclaim_kind_stats *ks)
{
	uint64_t n = ks->pass_none + ks->pass_unknown;

	for (int p = 0; p < RECLAIM_NPRIO; p++)
		n += ks->pass_first[p];
	return n;
}

static void reclaim_log_stall(struct reclaim_model *m, const struct reclaim_pid *p,
			      const struct record *r, uint64_t d)
{
	struct reclaim_stall *s;

	if (m->nstalls == RECLAIM_MAX_STALLS) {
		m->stalls_dropped++;
		return;
	}
	if (m->nstalls == m->astalls) {
		m->astalls = m->astalls ? 2 * m->astalls : 256;
		if (m->astalls > RECLAIM_MAX_STALLS)
			m->astalls = RECLAIM_MAX_STALLS;
		m->stalls = xreallocarray(m->stalls, (size_t)m->astalls, sizeof(*m->stalls));
	}
	s = &m->stalls[m->nstalls++];
	*s = (struct reclaim_stall){ .begin = p->begin_ts, .dur = d,
				     .reclaimed = r->rend.nr_reclaimed, .pid = r->pid,
				     .kind = r->rend.kind, .order = p->order,
				     .cgroup = p->begin_cgroup };
	memcpy(s->comm, p->task.comm, sizeof(s->comm));
}

static void reclaim_end(struct reclaim_model *m, const struct record *r)
{
	struct reclaim_pid *p = pidmap_get(&m->pids, r->pid);
	struct reclaim_kind_stats *ks = &m->kinds[r->rend.kind];
	uint64_t d;

	ks->ends++;
	ks->nr_reclaimed += r->rend.nr_reclaimed;
	if (!p || !p->open || p->kind != r->rend.kind) {
		if (r->rend.kind != RK_SOFTLIMIT)
			ks->unpaired_ends++;
		return;
	}
	p->open = 0;
	reclaim_pass_end(ks, p, r->ts);
	d = r->ts >= p->begin_ts ? r->ts - p->begin_ts : 0;
	hist_add(&ks->lat, d);
	reclaim_log_stall(m, p, r, d);
	p->task.count++;
	p->task.total_ns += d;
	p->task.reclaimed += r->rend.nr_reclaimed;
	if (d >= p->task.max_ns) {
		p->task.max_ns = d;
		p->task.kind = r->rend.kind;
		p->task.cgroup = p->begin_cgroup;
	}
}

static void reclaim_shrink(struct reclaim_model *m, const struct record *r)
{
	struct reclaim_kind_stats *ks = &m->kinds[reclaim_context(m, r->pid)];
	struct reclaim_pid *op = open_pass(m, r);
	int prio = r->shrink.priority;

	if (op)
		reclaim_pass_stamp(op, prio, r->shrink.scanned);
	ks->scanned += r->shrink.scanned;
	ks->reclaimed += r->shrink.reclaimed;
	if (prio >= 0 && prio < RECLAIM_NPRIO) {
		ks->prio_scanned[prio] += r->shrink.scanned;
		ks->prio_reclaimed[prio] += r->shrink.reclaimed;
	}
	if (r->shrink.flags & RECLAIM_FLAG_FILE) {
		ks->file_scanned += r->shrink.scanned;
		ks->file_reclaimed += r->shrink.reclaimed;
	} else {
		ks->anon_scanned += r->shrink.scanned;
		ks->anon_reclaimed += r->shrink.reclaimed;
	}
}

static void reclaim_mark_kswapd(struct reclaim_model *m, const struct record *r)
{
	struct reclaim_pid *p = reclaim_pid(m, r);

	p->is_kswapd = 1;
}

void reclaim_model_add(struct reclaim_model *m, const struct record *r)
{
	struct reclaim_kind_stats *ks;
	struct reclaim_pid *op;

	switch (r->type) {
	case REC_KSWAPD_WAKE:
	case REC_KSWAPD_SLEEP:
		reclaim_mark_kswapd(m, r);
		break;
	case REC_RECLAIM_BEGIN:
		reclaim_begin(m, r);
		break;
	case REC_RECLAIM_END:
		reclaim_end(m, r);
		break;
	case REC_SHRINK_INACTIVE:
		reclaim_shrink(m, r);
		break;
	case REC_RECLAIM_PAGES:
		m->rp_calls++;
		m->rp_scanned += r->shrink.scanned;
		m->rp_reclaimed += r->shrink.reclaimed;
		break;
	case REC_LRU_ISOLATE:
		if ((op = open_pass(m, r)))
			reclaim_pass_isolate(op, r);
		ks = &m->kinds[reclaim_context(m, r->pid)];
		if (r->isolate.lru >= 0 && r->isolate.lru < RECLAIM_NLRU) {
			ks->lru_scanned[r->isolate.lru] += r->isolate.scanned;
			ks->lru_taken[r->isolate.lru] += r->isolate.taken;
		}
		break;
	case REC_SHRINK_ACTIVE:
		if ((op = open_pass(m, r)))
			reclaim_pass_stamp(op, r->active.priority, r->active.taken);
		ks = &m->kinds[reclaim_context(m, r->pid)];
		ks->active_taken += r->active.taken;
		ks->active_deactivated += r->active.deactivated;
		break;
	case REC_WRITE_FOLIO:
		ks = &m->kinds[reclaim_context(m, r->pid)];
		if (r->write.flags & RECLAIM_FLAG_FILE)
			ks->write_file++;
		else
			ks->write_anon++;
		break;
	case REC_THROTTLED:
		m->thr_count++;
		m->thr_delayed_us += r->throttled.delayed_us;
		break;
	default:
		break;
	}
}

void reclaim_model_finish(struct reclaim_model *m, uint64_t end_ts)
{
	(void)end_ts;
	for (unsigned i = 0; i < m->pids.cap; i++) {
		struct reclaim_pid *p;

		if (m->pids.keys[i] < 0)
			continue;
		p = PIDMAP_VAL(&m->pids, i);
		if (p->open) {
			m->kinds[p->kind].open_at_end++;
			p->open = 0;
		}
	}
}

const struct reclaim_kind_stats *reclaim_model_kind(const struct reclaim_model *m,
						    enum reclaim_kind k)
{
	return (unsigned)k < RK_NR ? &m->kinds[k] : NULL;
}

static int reclaim_task_cmp(const void *a, const void *b)
{
	const struct reclaim_task *x = a, *y = b;

	if (x->total_ns != y->total_ns)
		return x->total_ns < y->total_ns ? 1 : -1;
	return x->pid - y->pid;
}

int reclaim_model_top_tasks(const struct reclaim_model *m, struct reclaim_task *out, int max)
{
	struct reclaim_task *all;
	int n = 0;

	if (max <= 0 || !m->pids.n)
		return 0;
	all = xreallocarray(NULL, m->pids.n, sizeof(*all));
	for (unsigned i = 0; i < m->pids.cap; i++) {
		const struct reclaim_pid *p;

		if (m->pids.keys[i] < 0)
			continue;
		p = PIDMAP_VAL(&m->pids, i);
		if (p->task.count)
			all[n++] = p->task;
	}
	qsort(all, (size_t)n, sizeof(*all), reclaim_task_cmp);
	if (n > max)
		n = max;
	memcpy(out, all, sizeof(*all) * (size_t)n);
	free(all);
	return n;
}

void reclaim_model_pages(const struct reclaim_model *m, uint64_t *calls,
			 uint64_t *scanned, uint64_t *reclaimed)
{
	*calls = m->rp_calls;
	*scanned = m->rp_scanned;
	*reclaimed = m->rp_reclaimed;
}

void reclaim_model_throttled(const struct reclaim_model *m, uint64_t *count,
			     uint64_t *delayed_us)
{
	*count = m->thr_count;
	*delayed_us = m->thr_delayed_us;
}

int reclaim_model_nstalls(const struct reclaim_model *m, uint64_t *dropped)
{
	if (dropped)
		*dropped = m->stalls_dropped;
	return m->nstalls;
}

const struct reclaim_stall *reclaim_model_stall(const struct reclaim_model *m, int i)
{
	return i >= 0 && i < m->nstalls ? &m->stalls[i] : NULL;
}

/* The driver's view (model.h): one entry of models[] in src/analysis.c. */
static void *ops_create(void) { return reclaim_model_new(); }
static void ops_add(void *m, const struct record *r) { reclaim_model_add(m, r); }
static void ops_finish(void *m, uint64_t end_ts) { reclaim_model_finish(m, end_ts); }
static void ops_destroy(void *m) { reclaim_model_free(m); }

const struct model_ops reclaim_model_ops = {
	.name = "reclaim",
	.create = ops_create,
	.add = ops_add,
	.finish = ops_finish,
	.destroy = ops_destroy,
};
