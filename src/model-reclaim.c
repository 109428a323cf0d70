// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reclaim model. Each task with an open reclaim (begin seen, end not yet)
 * has an entry in a task-id map; LRU and shrink records of that task are
 * charged to its reclaim kind, those of a kswapd task to kswapd, the rest
 * to "other". A begin that finds one already open (the end was lost)
 * replaces it and counts as unpaired. A task whose context is not known
 * yet (no begin, end or kswapd record of it so far) has its LRU work held
 * in a buffer of its own until one comes (model-reclaim.h). Every update
 * is O(1) (a flush: the size of one buffer).
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
	int known;		/* its context is known: a begin, end or kswapd record */
	struct reclaim_kind_stats *held;	/* LRU work while not known */
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
	int no_stalls;			/* reclaim_model_keep_stalls(m, 0) */
	uint64_t from, cut;		/* reclaim_model_bounds; 0 none */
};

struct reclaim_model *reclaim_model_new(void)
{
	struct reclaim_model *m = xcalloc(1, sizeof(*m));

	for (int k = 0; k < RK_NR; k++)
		hist_init(&m->kinds[k].lat);
	pidmap_init(&m->pids, sizeof(struct reclaim_pid));
	return m;
}

void reclaim_model_keep_stalls(struct reclaim_model *m, int keep)
{
	m->no_stalls = !keep;
}

void reclaim_model_free(struct reclaim_model *m)
{
	if (!m)
		return;
	for (unsigned i = 0; i < m->pids.cap; i++)
		if (m->pids.keys[i] >= 0)
			free(((struct reclaim_pid *)PIDMAP_VAL(&m->pids, i))->held);
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

/* The LRU figures of one stats block into another (a task's held work
 * into the kind it turned out to be). */
static void reclaim_work_add(struct reclaim_kind_stats *to, const struct reclaim_kind_stats *w)
{
	to->scanned += w->scanned;
	to->reclaimed += w->reclaimed;
	for (int p = 0; p < RECLAIM_NPRIO; p++) {
		to->prio_scanned[p] += w->prio_scanned[p];
		to->prio_reclaimed[p] += w->prio_reclaimed[p];
	}
	to->anon_scanned += w->anon_scanned;
	to->anon_reclaimed += w->anon_reclaimed;
	to->file_scanned += w->file_scanned;
	to->file_reclaimed += w->file_reclaimed;
	for (int l = 0; l < RECLAIM_NLRU; l++) {
		to->lru_scanned[l] += w->lru_scanned[l];
		to->lru_taken[l] += w->lru_taken[l];
	}
	to->write_anon += w->write_anon;
	to->write_file += w->write_file;
	to->active_taken += w->active_taken;
	to->active_deactivated += w->active_deactivated;
}

/* The task's context is known now: its held work goes to kind k. */
static void reclaim_know(struct reclaim_model *m, struct reclaim_pid *p, enum reclaim_kind k)
{
	p->known = 1;
	if (!p->held)
		return;
	reclaim_work_add(&m->kinds[k], p->held);
	free(p->held);
	p->held = NULL;
}

/* Where LRU work of this task is counted: its open stall's kind, kswapd,
 * "other", or its buffer while its context is not known. */
static struct reclaim_kind_stats *reclaim_charge(struct reclaim_model *m, int pid)
{
	struct reclaim_pid *p = pidmap_add(&m->pids, pid);

	if (p->open)
		return &m->kinds[p->kind];
	if (p->is_kswapd)
		return &m->kinds[RK_KSWAPD];
	if (p->known)
		return &m->kinds[RK_OTHER];
	if (!p->held)
		p->held = xcalloc(1, sizeof(*p->held));
	return p->held;
}

/* kswapd: known by its wake and sleep records, and by name */
static void reclaim_kswapd_is(struct reclaim_model *m, struct reclaim_pid *p)
{
	p->is_kswapd = 1;
	reclaim_know(m, p, RK_KSWAPD);
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
	/* and so does one of a task not known yet (softlimit reclaim is
	 * only called from kswapd and direct reclaim) */
	if (r->rbegin.kind == RK_SOFTLIMIT && (p->open || p->is_kswapd || !p->known))
		return;
	if (p->open)
		m->kinds[p->kind].unpaired_ends++;
	else	/* what it did before was outside a stall */
		reclaim_know(m, p, p->is_kswapd ? RK_KSWAPD : RK_OTHER);
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

	if (m->no_stalls)
		return;
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
	struct reclaim_pid *p = reclaim_pid(m, r);
	struct reclaim_kind_stats *ks = &m->kinds[r->rend.kind];
	uint64_t d;

	ks->ends++;
	ks->nr_reclaimed += r->rend.nr_reclaimed;
	if (!p->open || p->kind != r->rend.kind) {
		if (r->rend.kind == RK_SOFTLIMIT)
			return;
		if (!p->known && !p->open && m->from) {
			/* begun before this part: its time from the cut */
			int64_t share = (int64_t)(r->ts - m->from);

			ks->continued++;
			ks->continued_ns += share;
			p->task.total_ns += share;
		} else {
			ks->unpaired_ends++;
		}
		/* the first end of a task: what it did before was this stall's */
		if (!p->known && !p->open)
			reclaim_know(m, p, r->rend.kind);
		return;
	}
	p->open = 0;
	reclaim_pass_end(ks, p, r->ts);
	d = r->ts >= p->begin_ts ? r->ts - p->begin_ts : 0;
	hist_add(&ks->lat, d);
	if (ks->lat.count == 1 || p->begin_ts < ks->first_begin)
		ks->first_begin = p->begin_ts;
	if (p->begin_ts + d > ks->last_end)
		ks->last_end = p->begin_ts + d;
	reclaim_log_stall(m, p, r, d);
	p->task.count++;
	p->task.total_ns += (int64_t)d;
	p->task.reclaimed += r->rend.nr_reclaimed;
	if (d >= p->task.max_ns) {
		p->task.max_ns = d;
		p->task.kind = r->rend.kind;
		p->task.cgroup = p->begin_cgroup;
	}
}

static void reclaim_shrink(struct reclaim_model *m, const struct record *r)
{
	struct reclaim_pid *op = open_pass(m, r);
	struct reclaim_kind_stats *ks = reclaim_charge(m, r->pid);
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
	reclaim_kswapd_is(m, reclaim_pid(m, r));
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
		/* kswapd's threads are named kswapd<node> (kswapd_run) */
		if (r->comm && !strncmp(r->comm, "kswapd", 6)) {
			struct reclaim_pid *p = reclaim_pid(m, r);

			if (!p->is_kswapd)
				reclaim_kswapd_is(m, p);
		}
		if ((op = open_pass(m, r)))
			reclaim_pass_isolate(op, r);
		ks = reclaim_charge(m, r->pid);
		if (r->isolate.lru >= 0 && r->isolate.lru < RECLAIM_NLRU) {
			ks->lru_scanned[r->isolate.lru] += r->isolate.scanned;
			ks->lru_taken[r->isolate.lru] += r->isolate.taken;
		}
		break;
	case REC_SHRINK_ACTIVE:
		if ((op = open_pass(m, r)))
			reclaim_pass_stamp(op, r->active.priority, r->active.taken);
		ks = reclaim_charge(m, r->pid);
		ks->active_taken += r->active.taken;
		ks->active_deactivated += r->active.deactivated;
		break;
	case REC_WRITE_FOLIO:
		ks = reclaim_charge(m, r->pid);
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

void reclaim_model_bounds(struct reclaim_model *m, uint64_t from, uint64_t cut)
{
	m->from = from;
	m->cut = cut;
}

void reclaim_model_finish(struct reclaim_model *m, uint64_t end_ts)
{
	(void)end_ts;
	for (unsigned i = 0; i < m->pids.cap; i++) {
		struct reclaim_pid *p;

		if (m->pids.keys[i] < 0)
			continue;
		p = PIDMAP_VAL(&m->pids, i);
		if (p->open && m->cut) {
			/* cut: counted here, where it began, with its time
			 * up to the cut */
			struct reclaim_kind_stats *ks = &m->kinds[p->kind];
			int64_t share = (int64_t)(m->cut - p->begin_ts);

			ks->cut++;
			ks->cut_ns += share;
			p->task.count++;
			p->task.total_ns += share;
		} else if (p->open) {
			m->kinds[p->kind].open_at_end++;
		}
		p->open = 0;
		/* never known: outside any stall, as far as the recording goes */
		if (!p->known)
			reclaim_know(m, p, p->is_kswapd ? RK_KSWAPD : RK_OTHER);
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
static void *ops_create_env(const struct model_env *env)
{
	struct reclaim_model *m = reclaim_model_new();

	reclaim_model_keep_stalls(m, !env->summary);	/* the list is the viewers' */
	return m;
}
static void ops_add(void *m, const struct record *r) { reclaim_model_add(m, r); }
static void ops_bounds(void *m, uint64_t from, uint64_t cut) { reclaim_model_bounds(m, from, cut); }
static void ops_finish(void *m, uint64_t end_ts) { reclaim_model_finish(m, end_ts); }
static void ops_destroy(void *m) { reclaim_model_free(m); }

const struct model_ops reclaim_model_ops = {
	.name = "reclaim",
	.create_env = ops_create_env,
	.add = ops_add,
	.bounds = ops_bounds,
	.finish = ops_finish,
	.destroy = ops_destroy,
};
