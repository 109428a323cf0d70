// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * View 4, stalls and compaction in the selected time range (Enter on a
 * span in the timeline selects one; without a selection, the whole
 * recording): for direct/memcg reclaim stalls and for compaction runs
 * outside kcompactd, the count, total, percentiles and a log2 latency
 * histogram; the kswapd episodes by handoff and the free pages at the
 * range's edges; then the tasks that stalled longest. A stall or an
 * episode counts when it begins in the range (as with report --since). Spans come from src/model-lanes.c, percentiles from
 * src/hist.c, the same histogram the report uses.
 */
#include "config.h"
#include "tui.h"
#include "data.h"
#include "model-lanes.h"
#include "analysis.h"
#include "hist.h"
#include "util.h"
#include "tracedat-read.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ST_TOP_TASKS 10
#define ST_HIST_ROWS 8

struct st_task {
	int pid;
	uint64_t count, total, max;
};

#define ST_SLOTS 8192		/* pid hash; tasks beyond ST_SLOTS / 2 are not listed */

struct st_sum {
	struct hist h;
	struct st_task *tasks;
	int ntasks;
	int *slot;		/* task index + 1 by pid hash, linear probing */
};

/* The range in screen time: the selection, else everything (over
 * several runs: the run the views show). */
static void st_range(const struct tui_state *st, uint64_t *a, uint64_t *b)
{
	if (!st->has_sel && st->hist && st->data) {
		*a = tui_at_trace(st, st->data->first_ts);
		*b = tui_at_trace(st, st->data->last_ts);
		return;
	}
	*a = st->has_sel ? st->sel_start : st->t_first;
	*b = st->has_sel ? st->sel_end : st->t_last;
}

static void st_task_add(struct st_sum *s, int pid, uint64_t dur)
{
	unsigned h = ((unsigned)pid * 2654435761u) & (ST_SLOTS - 1);
	int i;

	if (!s->slot)
		s->slot = xcalloc(ST_SLOTS, sizeof(*s->slot));
	while (s->slot[h] && s->tasks[s->slot[h] - 1].pid != pid)
		h = (h + 1) & (ST_SLOTS - 1);
	if (!s->slot[h]) {
		if (s->ntasks >= ST_SLOTS / 2)
			return;
		s->tasks = xreallocarray(s->tasks, (size_t)s->ntasks + 1, sizeof(*s->tasks));
		s->tasks[s->ntasks++] = (struct st_task){ pid, 0, 0, 0 };
		s->slot[h] = s->ntasks;
	}
	i = s->slot[h] - 1;
	s->tasks[i].count++;
	s->tasks[i].total += dur;
	if (dur > s->tasks[i].max)
		s->tasks[i].max = dur;
}

/* Spans of lane k of every node overlapping [a, b] (screen time). */
static void st_collect(const struct tui_state *st, enum lane_id k, uint64_t a, uint64_t b,
		       struct st_sum *s, struct st_sum *tasks)
{
	const struct lanes *l = st->data ? st->data->lanes : NULL;

	a = tui_trace_at(st, a);	/* the run's trace time */
	b = tui_trace_at(st, b);

	hist_init(&s->h);
	for (int nid = 0; l && nid < lanes_nnodes(l); nid++) {
		const struct lane *ln = &lanes_node(l, nid)->lane[k];

		for (int i = 0; i < ln->n && ln->spans[i].start <= b; i++) {
			const struct lane_span *sp = &ln->spans[i];

			if (sp->start < a)	/* as report --since: begun in the range */
				continue;
			hist_add(&s->h, sp->end - sp->start);
			st_task_add(tasks, sp->pid, sp->end - sp->start);
		}
	}
}

static int st_cmp_task(const void *x, const void *y)
{
	const struct st_task *a = x, *b = y;

	if (a->total != b->total)
		return a->total < b->total ? 1 : -1;
	return a->pid - b->pid;
}

/* "what: N, total T, p50 .. p99 .. max" and the histogram. Returns rows. */
static int st_build_hist(struct canvas *body, int y, int x, int w, int maxrows,
			 const char *what, const struct hist *h)
{
	char tot[32], p50[32], p99[32], mx[32], lo[32], hi[32];
	int first = -1, last = -1, rows = 1;
	uint64_t peak = 0;

	canvas_printf(body, y, x, AT_HEADER, "%s: %llu", what, (unsigned long long)h->count);
	if (!h->count)
		return rows;
	canvas_printf(body, y + rows++, x, AT_NORMAL, "total %s  p50 %s  p99 %s  max %s",
		      tui_fmt_dur(h->sum, tot, sizeof(tot)),
		      tui_fmt_dur(hist_percentile(h, 50), p50, sizeof(p50)),
		      tui_fmt_dur(hist_percentile(h, 99), p99, sizeof(p99)),
		      tui_fmt_dur(h->max, mx, sizeof(mx)));
	for (int i = 0; i < 64; i++)
		if (hist_log2_count(h, i)) {
			if (first < 0)
				first = i;
			last = i;
			if (hist_log2_count(h, i) > peak)
				peak = hist_log2_count(h, i);
		}
	/* merge octaves in pairs until the histogram fits */
	int step = 1;

	while ((last - first) / step + 1 > maxrows - 2 && step < 64)
		step *= 2;
	for (int i = first; i <= last && rows < maxrows; i += step) {
		uint64_t n = 0;

		for (int k = i; k < i + step && k <= last; k++)
			n += hist_log2_count(h, k);
		if (n > peak)
			peak = n;
	}
	for (int i = first; i <= last && rows < maxrows; i += step) {
		uint64_t n = 0;
		int bar, bw = w - 28;

		for (int k = i; k < i + step && k <= last; k++)
			n += hist_log2_count(h, k);
		bar = peak && bw > 0 ? (int)((double)n * bw / (double)peak + 0.999) : 0;
		canvas_printf(body, y + rows, x, AT_DIM, "%7s-%-7s",
			      tui_fmt_dur(i ? 1ULL << i : 0, lo, sizeof(lo)),
			      tui_fmt_dur(1ULL << (i + step), hi, sizeof(hi)));
		canvas_printf(body, y + rows, x + 16, AT_NORMAL, "%8llu ", (unsigned long long)n);
		for (int b = 0; b < bar; b++)
			canvas_set(body, y + rows, x + 25 + b, '#', AT_RECLAIM);
		rows++;
	}
	return rows;
}

static void st_build_tasks(const struct tui_state *st, struct canvas *body, int y,
			   struct st_sum *tasks)
{
	char tot[32], mx[32];

	if (y >= body->rows)
		return;
	if (tasks->ntasks)
		qsort(tasks->tasks, (size_t)tasks->ntasks, sizeof(*tasks->tasks), st_cmp_task);
	canvas_printf(body, y++, 0, AT_HEADER, "%-24s %8s %10s %10s", "task (reclaim+compact)",
		      "stalls", "total", "max");
	for (int i = 0; i < tasks->ntasks && i < ST_TOP_TASKS && y < body->rows; i++, y++) {
		const struct st_task *t = &tasks->tasks[i];
		char name[64];
		const char *c = st->data ? analysis_task_comm(st->data->an, t->pid) : NULL;

		snprintf(name, sizeof(name), "%s-%d", c ? c :
			 st->tep ? tep_data_comm_from_pid(st->tep, t->pid) : "?", t->pid);
		canvas_printf(body, y, 0, AT_NORMAL, "%-24s %8llu %10s %10s", name,
			      (unsigned long long)t->count, tui_fmt_dur(t->total, tot, sizeof(tot)),
			      tui_fmt_dur(t->max, mx, sizeof(mx)));
	}
	if (!tasks->ntasks)
		canvas_put(body, y, 0, AT_DIM, "no task stalled in this range");
}

/*
 * The range's kswapd episodes (those that begin in it) by handoff, and
 * per node the free pages of the sampled zone at the samples nearest the
 * range's edges inside it, with their times. Returns rows used.
 */
static int st_build_handoffs(const struct tui_state *st, struct canvas *body, int y,
			     uint64_t a, uint64_t b)
{
	const struct handoff_model *hm = st->data && st->data->an ?
					 analysis_handoff(st->data->an) : NULL;
	const struct lanes *l = st->data ? st->data->lanes : NULL;
	uint64_t by[HO_AWAIT + 1] = { 0 }, eps = 0;
	int rows = 0, narrow = body->cols < 100;

	a = tui_trace_at(st, a);	/* the run's trace time */
	b = tui_trace_at(st, b);

	for (int i = 0; hm && i < handoff_model_nnodes(hm); i++)
		for (int e = 0; e < handoff_model_nepisodes(hm, i); e++) {
			const struct kswapd_episode *ep = handoff_model_episode(hm, i, e);

			if (ep->start < a || ep->start > b)
				continue;
			eps++;
			if (ep->handoff <= HO_AWAIT)
				by[ep->handoff]++;
		}
	if (y < body->rows)
		canvas_printf(body, y + rows++, 0, AT_NORMAL, narrow ?
			      "kswapd: %llu (wakeup %llu, pickup %llu, none %llu, n/n %llu, open %llu)" :
			      "kswapd episodes: %llu (handoff wakeup %llu, pickup %llu, none %llu, "
			      "not needed %llu, open %llu)", (unsigned long long)eps,
			      (unsigned long long)by[HO_WAKEUP], (unsigned long long)by[HO_PICKUP],
			      (unsigned long long)by[HO_NONE], (unsigned long long)by[HO_NOT_NEEDED],
			      (unsigned long long)(by[HO_OPEN] + by[HO_AWAIT]));
	for (int nid = 0; l && nid < lanes_nnodes(l) && y + rows < body->rows; nid++) {
		const struct lanes_node *n = lanes_node(l, nid);
		const struct wm_sample *s0 = NULL, *s1 = NULL;
		char t0[32], t1[32];

		for (int i = 0; i < n->nsamples; i++)
			if (n->samples[i].ts >= a && n->samples[i].ts <= b) {
				if (!s0)
					s0 = &n->samples[i];
				s1 = &n->samples[i];
			}
		if (!n->seen || !n->nsamples)
			continue;
		if (!s0) {
			canvas_printf(body, y + rows++, 0, AT_DIM,
				      "node %d free pages: no zone sample in the range", nid);
			continue;
		}
		canvas_printf(body, y + rows++, 0, AT_NORMAL, narrow ?
			      "node %d %.8s free: %lld @%s -> %lld @%s" :
			      "node %d %s free pages: %lld at %s -> %lld at %s s", nid, n->zone,
			      (long long)s0->free, tui_fmt_ts(st, tui_at_trace(st, s0->ts), t0, sizeof(t0)),
			      (long long)s1->free, tui_fmt_ts(st, tui_at_trace(st, s1->ts), t1, sizeof(t1)));
	}
	return rows;
}

static void view_stalls_build(struct tui_state *st, struct canvas *body)
{
	struct st_sum rec = { 0 }, comp = { 0 }, tasks = { 0 };
	char a[32], b[32];
	uint64_t t0, t1;
	int wide = body->cols >= 120, hrows = ST_HIST_ROWS + 2, y = 2, used;

	st_range(st, &t0, &t1);
	if (st->hist)	/* several runs: the cursor's, whatever the selection spans */
		canvas_printf(body, 0, 0, AT_HEADER, "stalls from %s to %s s (%s of run %d)",
			      tui_fmt_ts(st, t0, a, sizeof(a)), tui_fmt_ts(st, t1, b, sizeof(b)),
			      st->has_sel ? "selection" : "whole", st->hist->run[st->run].no);
	else
		canvas_printf(body, 0, 0, AT_HEADER, "stalls from %s to %s s%s",
			      tui_fmt_ts(st, t0, a, sizeof(a)), tui_fmt_ts(st, t1, b, sizeof(b)),
			      st->has_sel ? " (selection)" : " (whole recording)");
	st_collect(st, LANE_RECLAIM, t0, t1, &rec, &tasks);
	st_collect(st, LANE_COMPACT, t0, t1, &comp, &tasks);
	if (!wide && body->rows < 40)
		hrows = (body->rows - 2 - 4) / 2;
	if (wide) {
		used = st_build_hist(body, y, 0, body->cols / 2 - 2, hrows, "reclaim stalls", &rec.h);
		int u2 = st_build_hist(body, y, body->cols / 2, body->cols / 2 - 1, hrows,
				       "compaction runs", &comp.h);

		y += (used > u2 ? used : u2) + 1;
	} else {
		y += st_build_hist(body, y, 0, body->cols, hrows, "reclaim stalls", &rec.h) + 1;
		y += st_build_hist(body, y, 0, body->cols, hrows, "compaction runs", &comp.h) + 1;
	}
	y += st_build_handoffs(st, body, y, t0, t1) + 1;
	st_build_tasks(st, body, y, &tasks);
	free(tasks.tasks);
	free(tasks.slot);
}

static unsigned view_stalls_handle(struct tui_state *st, enum tui_action a)
{
	(void)st;
	/* the cursor keys move the cursor, not the range: only Esc/c change it */
	return a == ACT_UP || a == ACT_DOWN || a == ACT_ENTER ? TUI_HANDLED : 0;
}

const struct view_ops view_stalls_ops = {
	.name = "stalls",
	.build = view_stalls_build,
	.handle = view_stalls_handle,
};
