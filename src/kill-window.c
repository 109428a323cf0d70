// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The window before a kill (see kill-window.h): two rings of finished
 * spans (stalls, compaction runs) in the order they ended, trimmed from
 * the front as time passes, and the open ones by task.
 */
#include "config.h"
#include "kill-window.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COMPACT_STATUS_SUCCESS 8	/* compact_status_name(): "success" */

void kill_window_init(struct kill_window *w, uint64_t window_ns)
{
	memset(w, 0, sizeof(*w));
	w->window_ns = window_ns;
	pidmap_init(&w->open_stall, sizeof(struct kw_span));
	pidmap_init(&w->open_run, sizeof(struct kw_span));
	w->psi_some = w->psi_full = -1;
	w->swap_size = w->swap_used = -1;
	w->zswap_pool = -1;
}

void kill_window_release(struct kill_window *w)
{
	free(w->stalls.v);
	free(w->runs.v);
	pidmap_release(&w->open_stall);
	pidmap_release(&w->open_run);
}

static struct kw_span *ring_at(const struct kw_ring *q, unsigned i)
{
	return &q->v[(q->head + i) % q->cap];
}

/* Drops the spans that ended before from: no window can reach them. */
static void ring_trim(struct kw_ring *q, uint64_t from)
{
	while (q->n && ring_at(q, 0)->end < from) {
		q->head = (q->head + 1) % q->cap;
		q->n--;
	}
}

static void ring_push(struct kw_ring *q, const struct kw_span *s)
{
	if (q->n == q->cap) {
		if (q->cap < KW_RING_MAX) {
			unsigned cap = q->cap ? q->cap * 2 : 64;
			struct kw_span *v = xreallocarray(NULL, cap, sizeof(*v));

			for (unsigned i = 0; i < q->n; i++)
				v[i] = *ring_at(q, i);
			free(q->v);
			q->v = v;
			q->cap = cap;
			q->head = 0;
		} else {
			/* full: the oldest goes, and windows reaching it are
			 * not whole any more */
			q->lost_end = ring_at(q, 0)->end;
			q->head = (q->head + 1) % q->cap;
			q->n--;
		}
	}
	*ring_at(q, q->n++) = *s;
}

static void stall_begin(struct kill_window *w, const struct record *r)
{
	struct kw_span *s;

	if (r->rbegin.kind != RK_DIRECT && r->rbegin.kind != RK_MEMCG)
		return;
	s = pidmap_add(&w->open_stall, r->pid);
	s->begin = r->ts;
	s->end = 0;
	s->cgroup = r->cgroup;
	s->kind = (int)r->rbegin.kind;
}

static void stall_end(struct kill_window *w, const struct record *r)
{
	struct kw_span *s = pidmap_get(&w->open_stall, r->pid);

	/* an end without its begin (before the recording) has no length */
	if (!s || !s->begin || s->kind != (int)r->rend.kind)
		return;
	s->end = r->ts;
	ring_push(&w->stalls, s);
	s->begin = 0;
}

static void run_begin(struct kill_window *w, const struct record *r)
{
	struct kw_span *s = pidmap_add(&w->open_run, r->pid);

	s->begin = r->ts;
	s->end = 0;
	s->cgroup = r->cgroup;
	s->kind = -1;
}

static void run_end(struct kill_window *w, const struct record *r)
{
	struct kw_span *s = pidmap_get(&w->open_run, r->pid);

	if (!s || !s->begin)
		return;
	s->end = r->ts;
	s->kind = r->crun.status;
	ring_push(&w->runs, s);
	s->begin = 0;
}

static void counter(struct kill_window *w, const struct record *r)
{
	const char *k = r->counter.key;
	int64_t v = r->counter.value;

	switch (r->counter.source) {
	case SRC_PSI:
		/* percent times 100, whatever the decimals */
		for (int i = r->counter.scale; i < 2; i++)
			v *= 10;
		for (int i = 2; i < r->counter.scale; i++)
			v /= 10;
		if (!strcmp(k, "some_avg10"))
			w->psi_some = v, w->psi_ts = r->ts;
		else if (!strcmp(k, "full_avg10"))
			w->psi_full = v, w->psi_ts = r->ts;
		return;
	case SRC_SWAP:
		if (r->counter.seq != w->swap_seq || !w->swap_in_set) {
			w->swap_seq = r->counter.seq;
			w->swap_in_set = 1;
			w->swap_size_cur = w->swap_used_cur = 0;
		}
		if (!strcmp(k, "size"))
			w->swap_size_cur += v;
		else if (!strcmp(k, "used"))
			w->swap_used_cur += v;
		return;
	case SRC_ZSWAP:
		if (!strcmp(k, "pool_total_size"))
			w->zswap_pool = v;
		return;
	case SRC_TASKS: {
		int rank;
		struct kw_task *t;

		/* the set's own line (procs, us) has no rank */
		if (!r->counter.instance || !*r->counter.instance)
			return;
		rank = atoi(r->counter.instance);

		if (r->counter.seq != w->tasks_seq || !w->tasks_ts_cur) {
			w->tasks_seq = r->counter.seq;
			w->tasks_ts_cur = r->ts;
			w->ntask_cur = 0;
		}
		if (rank < 0 || rank >= KW_TASKS)
			return;
		while (w->ntask_cur <= rank) {
			t = &w->task_cur[w->ntask_cur++];
			t->pid = -1;
			t->comm[0] = '\0';
			t->rss_kb = t->swap_kb = -1;
		}
		t = &w->task_cur[rank];
		if (!strcmp(k, "pid"))
			t->pid = (int)v;
		else if (!strcmp(k, "rss_kb"))
			t->rss_kb = v;
		else if (!strcmp(k, "swap_kb"))
			t->swap_kb = v;
		return;
	}
	default:
		return;
	}
}

static void setting(struct kill_window *w, const struct record *r)
{
	int rank;

	/* "mms1 missing SEQ sources=a,swap,b": no /proc/swaps to read */
	if (r->setting.source == SRC_MISSING && !strcmp(r->setting.key, "sources")) {
		char list[512];

		snprintf(list, sizeof(list), ",%s,", r->setting.value);
		w->swap_missing = strstr(list, ",swap,") != NULL;
		return;
	}

	if (r->setting.source != SRC_TASKS || strcmp(r->setting.key, "comm") ||
	    r->setting.seq != w->tasks_seq || !w->tasks_ts_cur)
		return;
	rank = atoi(r->setting.instance ? r->setting.instance : "");
	if (rank >= 0 && rank < w->ntask_cur)
		snprintf(w->task_cur[rank].comm, sizeof(w->task_cur[rank].comm), "%s",
			 r->setting.value);
}

/* A set is used once its end line came (mmscope-samples(5)). */
static void set_end(struct kill_window *w, const struct record *r)
{
	if (w->swap_in_set && w->swap_seq == r->send.seq) {
		w->swap_size = w->swap_size_cur;
		w->swap_used = w->swap_used_cur;
		w->swap_in_set = 0;
	} else if (!w->swap_in_set && !w->swap_missing) {
		/* /proc/swaps read, no device in it: no swap */
		w->swap_size = w->swap_used = 0;
	}
	if (w->tasks_ts_cur && w->tasks_seq == r->send.seq) {
		w->ntask = w->ntask_cur;
		memcpy(w->task, w->task_cur, sizeof(w->task));
		w->tasks_ts = w->tasks_ts_cur;
		w->tasks_ts_cur = 0;
	}
}

void kill_window_add(struct kill_window *w, const struct record *r)
{
	if (!w->first_ts && r->ts)
		w->first_ts = r->ts;
	if (r->ts > w->window_ns) {
		ring_trim(&w->stalls, r->ts - w->window_ns);
		ring_trim(&w->runs, r->ts - w->window_ns);
	}
	if (r->foreign)
		return;
	switch (r->type) {
	case REC_RECLAIM_BEGIN: stall_begin(w, r); break;
	case REC_RECLAIM_END: stall_end(w, r); break;
	case REC_COMPACT_BEGIN: run_begin(w, r); break;
	case REC_COMPACT_END: run_end(w, r); break;
	case REC_COUNTER: counter(w, r); break;
	case REC_SETTING: setting(w, r); break;
	case REC_SAMPLE_END: set_end(w, r); break;
	default: break;
	}
}

/* A stall's time inside [from, to]: 0 when none. */
static uint64_t overlap(uint64_t b, uint64_t e, uint64_t from, uint64_t to)
{
	if (b < from)
		b = from;
	if (e > to)
		e = to;
	return e > b ? e - b : 0;
}

static void count_stall(struct kill_before *o, const struct kw_span *s, uint64_t from,
			uint64_t to, int cg)
{
	uint64_t ns;

	/* time inside (from, to]: one that ended at from has none */
	if (s->begin >= to || s->end <= from)
		return;
	ns = overlap(s->begin, s->end, from, to);
	if (s->kind == RK_DIRECT) {
		o->direct_stalls++;
		o->direct_stall_ns += (int64_t)ns;
	} else {
		o->memcg_stalls++;
		o->memcg_stall_ns += (int64_t)ns;
	}
	if (!cg || s->cgroup != cg)
		return;
	if (s->kind == RK_DIRECT) {
		o->cg_direct_stalls++;
		o->cg_direct_stall_ns += (int64_t)ns;
	} else {
		o->cg_memcg_stalls++;
		o->cg_memcg_stall_ns += (int64_t)ns;
	}
}

void kill_window_capture(const struct kill_window *w, uint64_t ts, int victim_cgroup,
			 struct kill_before *o)
{
	uint64_t from = ts > w->window_ns ? ts - w->window_ns : 0;

	memset(o, 0, sizeof(*o));
	o->window_ns = w->window_ns;
	o->clipped = !w->first_ts || w->first_ts > from;
	for (unsigned i = 0; i < w->stalls.n; i++)
		count_stall(o, ring_at(&w->stalls, i), from, ts, victim_cgroup);
	for (unsigned i = 0; i < w->open_stall.cap; i++) {
		struct kw_span s;

		if (w->open_stall.keys[i] < 0)
			continue;
		s = *(const struct kw_span *)PIDMAP_VAL(&w->open_stall, i);
		if (!s.begin)
			continue;
		s.end = ts;	/* open at the kill: up to it */
		count_stall(o, &s, from, ts, victim_cgroup);
	}
	for (unsigned i = 0; i < w->runs.n; i++) {
		const struct kw_span *s = ring_at(&w->runs, i);

		if (s->end <= from || s->end > ts)
			continue;
		o->compaction_runs++;
		o->compaction_failures += s->kind != COMPACT_STATUS_SUCCESS;
	}
	if (w->stalls.lost_end && w->stalls.lost_end >= from)
		o->direct_stalls = o->direct_stall_ns = o->memcg_stalls = o->memcg_stall_ns =
			o->cg_direct_stalls = o->cg_direct_stall_ns = o->cg_memcg_stalls =
			o->cg_memcg_stall_ns = -1;
	if (w->runs.lost_end && w->runs.lost_end >= from)
		o->compaction_runs = o->compaction_failures = -1;
	if (!victim_cgroup && o->direct_stalls >= 0)
		o->cg_direct_stalls = o->cg_direct_stall_ns = o->cg_memcg_stalls =
			o->cg_memcg_stall_ns = -1;
	o->psi_some_x100 = w->psi_some;
	o->psi_full_x100 = w->psi_full;
	o->psi_ts = w->psi_ts;
	o->swap_size_kb = w->swap_size;
	o->swap_used_kb = w->swap_used;
	o->zswap_pool_bytes = w->zswap_pool;
	o->ntasks = w->ntask;
	o->tasks_ts = w->tasks_ts;
	memcpy(o->task, w->task, sizeof(o->task));
}
