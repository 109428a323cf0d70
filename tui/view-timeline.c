// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * View 1, the timeline (default). Per node, five lanes over the time
 * axis: kswapd awake (K; the end of each episode says what kcompactd got:
 * > woken, ~ picked up, x nothing though order > 0 was asked), kcompactd
 * awake (C on a request, c proactive), direct and memcg reclaim stalls
 * (R), compaction runs outside kcompactd (D), OOM kills (!); a T on the
 * time axis where the trigger that made a flight file fired. Beneath them
 * a chart of free pages of the node's zone closest to its watermarks
 * (model-lanes.h) against its min, low
 * and high watermarks, from the zoneinfo samples. Then the time axis, and
 * two lines: what lies under the cursor in the selected lane, and the
 * node's totals.
 *
 * Spans come from src/model-lanes.c; episodes, handoffs and flags from the
 * handoff model. Up/Down select a lane, Enter jumps to the span under or
 * nearest the cursor and selects its range, n/N go to flagged episodes.
 *
 * Under the nodes one lane for the whole machine, "kills": every kill,
 * whoever the killer (kills.h), ! a kernel or memcg OOM kill, k a kill
 * by a process; "not recorded" when the recording traced neither oom
 * events nor signals. With it selected n/N go from kill to kill and
 * Enter opens the dossier of the kill under or nearest the cursor in a
 * box (kill-box.h) that Esc or q closes; the findings' oom-kill opens it
 * too (st->focus_kill).
 *
 * Several runs of a host's history (data.h, tui_hist): each run's lanes
 * and chart at its place on the one time line, and every column mostly
 * in a gap between two runs filled with / on every lane and chart row:
 * not recorded, never drawn as empty (idle). The lines under the axis
 * then say what the gap is; the selected lane's line and the totals are
 * the cursor's run's.
 */
#include "config.h"
#include "tui.h"
#include "data.h"
#include "model-lanes.h"
#include "model-oom.h"
#include "analysis.h"
#include "util.h"
#include "tracedat-read.h"
#include "kills.h"
#include "kill-box.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TL_FOOTER 3		/* axis, detail, totals */
#define TL_CHART_MAX 16		/* rows; a taller screen gets the legend */

static const char tl_lane_char[LANE_NR] = { 'K', 'C', 'R', 'D', '!' };
static const enum attr_id tl_lane_attr[LANE_NR] = {
	AT_KSWAPD, AT_KCOMPACTD, AT_RECLAIM, AT_COMPACT, AT_OOM,
};

struct tl_layout {
	int x0, w;		/* axis columns */
	int nnodes, shown;	/* nodes, nodes that fit */
	int chart_rows;		/* per node */
	int node_rows;		/* LANE_NR + chart_rows */
	int kills_y;		/* the kills lane, under the nodes */
	int axis_y;
};

/* The view's own state (st->priv[VIEW_TIMELINE]). */
struct tl_priv {
	int lane;		/* the selected lane: node * LANE_NR + lane id; -1 at first */
	int kills;		/* the kills lane is selected (lane then unused) */
	int box;		/* the dossier box of kill box_kill is open */
	struct tk_ref box_kill;
	int box_top;		/* its first line shown */
};

static void *tl_priv_new(void)
{
	struct tl_priv *p = xcalloc(1, sizeof(*p));

	p->lane = -1;		/* the first build picks the first busy lane */
	return p;
}

static struct tl_priv *tl_priv(const struct tui_state *st)
{
	return st->priv[VIEW_TIMELINE];
}

static const struct handoff_model *tl_handoff_of(const struct tui_data *d)
{
	return d && d->an ? analysis_handoff(d->an) : NULL;
}

static const struct handoff_model *tl_handoff(const struct tui_state *st)
{
	return tl_handoff_of(st->data);
}

/* the lanes of run k (tui_run_data), or NULL */
static const struct lanes *tl_lanes(const struct tui_state *st, int k)
{
	const struct tui_data *d = tui_run_data(st, k);

	return d ? d->lanes : NULL;
}

/* nodes: the most any run has */
static int tl_nnodes(const struct tui_state *st)
{
	int n = 0;

	for (int k = 0; k < tui_nruns(st); k++)
		if (tl_lanes(st, k) && lanes_nnodes(tl_lanes(st, k)) > n)
			n = lanes_nnodes(tl_lanes(st, k));
	return n ? n : 1;
}

/* Node nid of run k's lanes, or NULL (a run without that node). */
static const struct lanes_node *tl_node(const struct tui_state *st, int k, int nid)
{
	const struct lanes *l = tl_lanes(st, k);

	return l && nid < lanes_nnodes(l) ? lanes_node(l, nid) : NULL;
}

/* A trace time of a run of offset off on the screen's time line. */
static uint64_t tl_at(int64_t off, uint64_t ts)
{
	int64_t v = (int64_t)ts + off;

	return v > 0 ? (uint64_t)v : 0;
}

/* Per column: 1 where the column lies mostly in a gap between two runs
 * (not recorded); NULL with one run. */
static unsigned char *tl_gap_cols(const struct tui_state *st, int w)
{
	const struct tui_hist *h = st->hist;
	unsigned char *gap;
	int any = 0;

	if (!h || h->n < 2)
		return NULL;
	gap = xcalloc((size_t)w, 1);
	for (int k = 0; k < h->n; k++) {
		const struct tui_run *r = &h->run[k];

		if (!r->has_gap)
			continue;
		for (int c = 0; c < w; c++) {
			uint64_t a = tui_col_ts(st, c), b = a + st->ns_per_col;
			uint64_t lo = a > r->gap_from ? a : r->gap_from;
			uint64_t hi = b < r->gap_to ? b : r->gap_to;

			if (hi > lo && (hi - lo) * 2 >= st->ns_per_col) {
				gap[c] = 1;
				any = 1;
			}
		}
	}
	if (!any) {
		free(gap);
		return NULL;
	}
	return gap;
}

/* Fills the gap columns of row y with the not-recorded mark. */
static void tl_fill_gaps(struct canvas *body, int x0, int y, const unsigned char *gap, int w)
{
	for (int c = 0; gap && c < w; c++)
		if (gap[c])
			canvas_set(body, y, x0 + c, '/', AT_GAP);
}

static void tl_layout(const struct tui_state *st, const struct canvas *body, struct tl_layout *L)
{
	int avail = body->rows - TL_FOOTER - 1;	/* 1: the kills lane */

	L->x0 = TUI_LABEL_W;
	L->w = tui_axis_cols(body->cols);
	L->nnodes = tl_nnodes(st);
	L->shown = L->nnodes;
	while (L->shown > 1 && L->shown * (LANE_NR + 1) > avail)
		L->shown--;
	L->chart_rows = L->shown ? avail / L->shown - LANE_NR : 0;
	if (L->chart_rows < 0)
		L->chart_rows = 0;
	if (L->chart_rows > TL_CHART_MAX)
		L->chart_rows = TL_CHART_MAX;
	L->node_rows = LANE_NR + L->chart_rows;
	L->kills_y = L->shown * L->node_rows;
	L->axis_y = body->rows - TL_FOOTER;
}

/* The handoff model's index of node nid, or -1. */
static int tl_ho_node(const struct handoff_model *m, int nid)
{
	for (int i = 0; m && i < handoff_model_nnodes(m); i++)
		if (handoff_model_node(m, i)->nid == nid)
			return i;
	return -1;
}

static const struct kswapd_episode *tl_episode_at(const struct tui_state *st, int nid,
						  uint64_t start)
{
	const struct handoff_model *m = tl_handoff(st);
	int i = tl_ho_node(m, nid);

	if (i < 0)
		return NULL;
	for (int e = 0; e < handoff_model_nepisodes(m, i); e++) {
		const struct kswapd_episode *ep = handoff_model_episode(m, i, e);

		if (ep->start == start)
			return ep;
		if (ep->start > start)
			break;
	}
	return NULL;
}

/* Marks handoffs and flags of run k's kswapd episodes on the lane row. */
static void tl_build_episodes(struct tui_state *st, struct canvas *body,
			      const struct tl_layout *L, int k, int nid, int y)
{
	const struct tui_data *d = tui_run_data(st, k);
	const struct handoff_model *m = tl_handoff_of(d);
	int i = tl_ho_node(m, nid);
	/* an episode still open at the end: to the run's last event */
	uint64_t last = st->hist ? d->last_ts : st->t_last;

	for (int e = 0; i >= 0 && e < handoff_model_nepisodes(m, i); e++) {
		const struct kswapd_episode *ep = handoff_model_episode(m, i, e);
		uint64_t end = ep->end ? ep->end : last;
		long c0 = tui_ts_col(st, tl_at(d->off, ep->start)),
		     c1 = tui_ts_col(st, tl_at(d->off, end));
		char mark = ep->handoff == HO_WAKEUP ? '>' : ep->handoff == HO_PICKUP ? '~' :
			    ep->handoff == HO_NONE ? 'x' : 0;

		if (c1 < 0 || c0 >= L->w)
			continue;
		if (ep->flags)
			for (long c = c0 < 0 ? 0 : c0; c <= c1 && c < L->w; c++)
				canvas_set(body, y, L->x0 + (int)c, '*', AT_FLAG);
		if (mark && c1 < L->w)
			canvas_set(body, y, L->x0 + (int)c1, mark, ep->flags ? AT_FLAG : AT_KSWAPD);
	}
}

/*
 * lanes_cover() of a run of offset off into add[0..w): its spans per
 * column of the screen's axis, added to what other runs put there. The
 * column holding the run's trace time 0, when on screen, covers only
 * the part from 0 on.
 */
static void tl_cover(const struct tui_state *st, const struct lane *ln, int kind, int64_t off,
		     int w, uint32_t *add)
{
	uint32_t *cnt = xcalloc((size_t)w, sizeof(*cnt));

	if ((int64_t)st->origin >= off) {
		lanes_cover(ln, kind, (uint64_t)((int64_t)st->origin - off), st->ns_per_col, w, cnt);
	} else {
		uint64_t before = (uint64_t)(off - (int64_t)st->origin);
		uint64_t c0 = (before + st->ns_per_col - 1) / st->ns_per_col;
		/* the trace time at column c0's start, within a column of 0 */
		uint64_t at = c0 * st->ns_per_col - before;

		if (c0 < (uint64_t)w)
			lanes_cover(ln, kind, at, st->ns_per_col, w - (int)c0, cnt + c0);
		if (c0 > 0 && c0 - 1 < (uint64_t)w && at > 0)	/* [0, at) */
			lanes_cover(ln, kind, 0, at, 1, cnt + c0 - 1);
	}
	for (int c = 0; c < w; c++)
		add[c] += cnt[c];
	free(cnt);
}

static void tl_build_lane(struct tui_state *st, struct canvas *body, const struct tl_layout *L,
			  int nid, enum lane_id k, int y, const unsigned char *gap)
{
	uint32_t *cnt = xcalloc((size_t)L->w, sizeof(*cnt));
	uint32_t *req = NULL;
	int selected = tl_priv(st)->lane == nid * LANE_NR + (int)k;

	canvas_printf(body, y, 0, selected ? AT_CURSOR : AT_LABEL, "%d %-*s", nid,
		      TUI_LABEL_W - 3, lane_name(k));
	if (k == LANE_KCOMPACTD)
		req = xcalloc((size_t)L->w, sizeof(*req));
	for (int r = 0; r < tui_nruns(st); r++) {
		const struct lanes_node *n = tl_node(st, r, nid);
		int64_t off = tui_run_data(st, r)->off;

		if (!n)
			continue;
		tl_cover(st, &n->lane[k], -1, off, L->w, cnt);
		if (req)
			tl_cover(st, &n->lane[k], 1, off, L->w, req);
	}
	tl_fill_gaps(body, L->x0, y, gap, L->w);
	for (int c = 0; c < L->w; c++) {
		char ch = tl_lane_char[k];

		if (!cnt[c])
			continue;
		if (req && !req[c])
			ch = 'c';
		canvas_set(body, y, L->x0 + c, ch, tl_lane_attr[k]);
	}
	if (k == LANE_KSWAPD)
		for (int r = 0; r < tui_nruns(st); r++)
			if (tl_node(st, r, nid))
				tl_build_episodes(st, body, L, r, nid, y);
	free(cnt);
	free(req);
}

/* The node's zone samples in some run (the zone the first such names). */
static const struct lanes_node *tl_sampled(const struct tui_state *st, int nid)
{
	for (int r = 0; r < tui_nruns(st); r++) {
		const struct lanes_node *n = tl_node(st, r, nid);

		if (n && n->nsamples)
			return n;
	}
	return NULL;
}

/* Per column, the lowest free count sampled in it; columns without a
 * sample carry the last one before them (free pages are a level), within
 * a run: after its last sample, and in a gap, nothing (-1). wm: the
 * watermarks of the last sample on screen, else of the last before it. */
static int tl_chart_columns(struct tui_state *st, int nid, int w, int64_t *free_c,
			    struct wm_sample *wm)
{
	uint64_t end = tui_col_ts(st, w);
	int have = 0, got_wm = 0;

	for (int c = 0; c < w; c++)
		free_c[c] = -1;
	for (int r = 0; r < tui_nruns(st); r++) {
		const struct lanes_node *n = tl_node(st, r, nid);
		int64_t off = tui_run_data(st, r)->off;
		const struct wm_sample *last = NULL;
		int i = 0;

		if (!n || !n->nsamples)
			continue;
		while (i < n->nsamples && tui_ts_col(st, tl_at(off, n->samples[i].ts)) < 0)
			last = &n->samples[i++];
		if (!got_wm || tl_at(off, n->samples[0].ts) < end) {
			*wm = last ? *last : n->samples[0];
			got_wm = 1;
		}
		for (int c = 0; c < w; c++) {
			uint64_t t1 = tui_col_ts(st, c) + st->ns_per_col;
			int64_t lowest = -1;

			for (; i < n->nsamples && tl_at(off, n->samples[i].ts) < t1; i++) {
				last = &n->samples[i];
				if (lowest < 0 || last->free < lowest)
					lowest = last->free;
				*wm = *last;
				have = 1;
			}
			if (lowest < 0 && last && i < n->nsamples)
				lowest = last->free;
			if (lowest >= 0)
				free_c[c] = lowest;
		}
	}
	return have;
}

/* Rows of the min, low and high lines, each strictly above the other. */
static void tl_chart_rows(const struct wm_sample *wm, int64_t top, int h, int rows[3])
{
	const int64_t v[3] = { wm->min, wm->low, wm->high };

	for (int k = 0; k < 3; k++) {
		int r = h - 1 - (int)(v[k] * h / top);

		if (r < 0)
			r = 0;
		if (k && r >= rows[k - 1])
			r = rows[k - 1] - 1;
		rows[k] = r;
	}
}

/* One chart row. On a watermark's row (wm >= 0) a cell is '=' when free
 * is at or above that watermark and '-' below it, so the line answers
 * the question exactly; elsewhere '#' fills the rows under free. */
static void tl_build_chart_row(struct tui_state *st, struct canvas *body, const struct tl_layout *L,
			       const int64_t *free_c, int64_t top, int h, int r, int y,
			       int64_t wm, enum attr_id line_at)
{
	int64_t lo = top * (h - 1 - r) / h;

	for (int c = 0; c < L->w; c++) {
		int64_t f = free_c[c];

		if (f < 0)
			continue;
		if (wm >= 0)
			canvas_set(body, y, L->x0 + c, f >= wm ? '=' : '-', line_at);
		else if (f > lo || r == h - 1)
			canvas_set(body, y, L->x0 + c, r == 0 && f > top ? '^' : '#', AT_FREE);
	}
}

/* Free pages of the node's zone closest to its watermarks against min/low/high. The scale
 * tops at twice the high watermark, so the lines stay apart; more free
 * memory than that shows as ^ in the top row. */
static void tl_build_chart(struct tui_state *st, struct canvas *body, const struct tl_layout *L,
			   int nid, int y, const unsigned char *gap)
{
	static const char *const names[3] = { "min", "low", "high" };
	static const enum attr_id ats[3] = { AT_WM_MIN, AT_WM_LOW, AT_WM_HIGH };
	int h = L->chart_rows, rows[3];
	struct wm_sample wm = { 0 };
	int64_t *free_c, top;
	long cur = tui_ts_col(st, st->cursor);
	const struct lanes_node *n = tl_sampled(st, nid);

	if (h <= 0)
		return;
	canvas_printf(body, y, 0, AT_LABEL, "%d free %s", nid, n ? n->zone : "");
	if (!n) {
		canvas_wrap(body, y, L->x0, L->w, h, AT_DIM,
			    "no zoneinfo samples in this recording: free pages and watermarks "
			    "need a recording made by mmscope record (or its sampler)");
		return;
	}
	for (int r = 0; r < h; r++)
		tl_fill_gaps(body, L->x0, y + r, gap, L->w);
	free_c = xcalloc((size_t)L->w, sizeof(*free_c));
	tl_chart_columns(st, nid, L->w, free_c, &wm);
	top = wm.high > 0 ? 2 * wm.high : 1;
	tl_chart_rows(&wm, top, h, rows);
	for (int r = 0; r < h; r++) {
		enum attr_id at = AT_NORMAL;
		int64_t v = -1;

		for (int k = 0; k < 3; k++)
			if (rows[k] == r) {
				at = ats[k];
				v = k == 0 ? wm.min : k == 1 ? wm.low : wm.high;
				canvas_printf(body, y + r, 0, at, "  %-4s%7lld", names[k], (long long)v);
			}
		tl_build_chart_row(st, body, L, free_c, top, h, r, y + r, v, at);
	}
	if (h > 1 && cur >= 0 && cur < L->w && free_c[cur] >= 0 && rows[2] != 1 &&
	    rows[1] != 1 && rows[0] != 1)
		canvas_printf(body, y + 1, 0, AT_FREE, "  now%8lld", (long long)free_c[cur]);
	free(free_c);
}

static void tl_build_axis(struct tui_state *st, struct canvas *body, const struct tl_layout *L)
{
	char buf[32], d[32];
	int y = L->axis_y;

	canvas_put(body, y, 0, AT_DIM, tui_fmt_ts(st, st->origin, buf, sizeof(buf)));
	for (int c = 0; c < L->w; c++)
		canvas_set(body, y, L->x0 + c, '-', AT_DIM);
	for (int c = 0; c < L->w; c += 16) {
		uint64_t t = tui_col_ts(st, c);

		canvas_set(body, y, L->x0 + c, '+', AT_DIM);
		snprintf(buf, sizeof(buf), "%s", tui_fmt_dur(t > st->origin ? t - st->origin : 0,
							      d, sizeof(d)));
		if (c + 1 + (int)strlen(buf) < L->w)
			canvas_put(body, y, L->x0 + c + 1, AT_DIM, buf);
	}
	/* the trigger that made a flight file, where it fired */
	for (int r = 0; r < tui_nruns(st); r++) {
		const struct tui_data *td = tui_run_data(st, r);
		long c;

		if (!td || !td->has_trigger_ts)
			continue;
		c = tui_ts_col(st, tl_at(td->off, td->trigger_ts));
		if (c >= 0 && c < L->w)
			canvas_set(body, y, L->x0 + (int)c, 'T', AT_FLAG);
	}
}

/* The cursor column and the selection over the lanes and the chart. */
static void tl_build_cursor(struct tui_state *st, struct canvas *body, const struct tl_layout *L)
{
	long cur = tui_ts_col(st, st->cursor);

	for (int y = 0; y <= L->axis_y; y++) {
		if (y > L->kills_y && y < L->axis_y)
			continue;	/* the legend */
		if (y < L->axis_y && y % L->node_rows >= LANE_NR && st->data && st->data->lanes &&
		    !tl_sampled(st, y / L->node_rows))
			continue;	/* a chart without samples: its note */
		for (int c = 0; c < L->w && st->has_sel; c++) {
			uint64_t t0 = tui_col_ts(st, c), t1 = t0 + st->ns_per_col;

			if (t1 > st->sel_start && t0 <= st->sel_end &&
			    canvas_attr_at(body, y, L->x0 + c) == AT_NORMAL)
				canvas_attr(body, y, L->x0 + c, 1, AT_SELECT);
		}
		if (cur >= 0 && cur < L->w) {
			if (canvas_row(body, y)[L->x0 + cur] == ' ')
				canvas_set(body, y, L->x0 + (int)cur, y == L->axis_y ? '^' : '|',
					   AT_CURSOR);
			canvas_attr(body, y, L->x0 + (int)cur, 1, AT_CURSOR);
		}
	}
}

static const char *tl_comm(const struct tui_state *st, int pid)
{
	const char *c = st->data ? analysis_task_comm(st->data->an, pid) : NULL;

	return c ? c : st->tep ? tep_data_comm_from_pid(st->tep, pid) : "?";
}

/* An OOM span's victim name: the oom model's, from the event's own comm
 * field (the saved cmdlines may not have it), else the cmdlines'. */
static const char *tl_victim(const struct tui_state *st, const struct lane_span *s)
{
	const struct oom_model *m = st->data && st->data->an ?
		analysis_model(st->data->an, &oom_model_ops) : NULL;

	for (int i = 0; i < oom_model_nkills(m); i++) {
		const struct oom_kill *k = oom_model_kill(m, i);

		if (k->ts == s->start && k->pid == s->pid && *k->comm)
			return k->comm;
	}
	return tl_comm(st, s->pid);
}

/* One line about span s of lane k of node nid. */
static void tl_describe(const struct tui_state *st, int nid, enum lane_id k,
			const struct lane_span *s, char *buf, int len)
{
	char at[32], dur[32], fl[64];
	const struct kswapd_episode *ep;

	tui_fmt_ts(st, tui_at_trace(st, s->start), at, sizeof(at));
	tui_fmt_dur(s->end - s->start, dur, sizeof(dur));
	switch (k) {
	case LANE_KSWAPD:
		ep = tl_episode_at(st, nid, s->start);
		if (ep)
			snprintf(buf, (size_t)len, "kswapd%d %s at %s order %d%s%s, handoff %s, flags %s",
				 nid, dur, at, ep->order, ep->waker[0] ? " woken by " : "", ep->waker,
				 handoff_kind_name(ep->handoff),
				 handoff_flags_str(ep->flags, fl, sizeof(fl)));
		else
			snprintf(buf, (size_t)len, "kswapd%d awake %s at %s", nid, dur, at);
		break;
	case LANE_KCOMPACTD:
		snprintf(buf, (size_t)len, "kcompactd%d awake %s at %s, %s", nid, dur, at,
			 s->kind ? "on a request" : "woken with order<=0 (no request)");
		break;
	case LANE_RECLAIM:
		snprintf(buf, (size_t)len, "%s reclaim stall of %s-%d: %s at %s, order %d",
			 reclaim_kind_name((enum reclaim_kind)s->kind), tl_comm(st, s->pid), s->pid,
			 dur, at, s->order);
		break;
	case LANE_COMPACT:
		snprintf(buf, (size_t)len, "compaction run by %s-%d: %s at %s (%s)",
			 tl_comm(st, s->pid), s->pid, dur, at, s->kind ? "sync" : "async");
		break;
	default:
		snprintf(buf, (size_t)len, "OOM kill: victim %s (pid %d) at %s",
			 tl_victim(st, s), s->pid, at);
		break;
	}
}

/* The selected lane of the run the views show (the cursor's); NULL when
 * it has no such node. */
static const struct lane *tl_sel_lane(const struct tui_state *st, int *nid, enum lane_id *k)
{
	const struct lanes_node *n;

	*nid = tl_priv(st)->lane / LANE_NR;
	*k = (enum lane_id)(tl_priv(st)->lane % LANE_NR);
	if (!st->data || !st->data->lanes)
		return NULL;
	n = tl_node(st, st->hist ? st->run : 0, *nid);
	return n ? &n->lane[*k] : NULL;
}

/* Lanes without an analysis behind them (built by hand) count what they hold. */
static int tl_traced(const struct analysis *a, enum rec_type type)
{
	return !a || analysis_traced(a, type, -1);
}

/* v, or "-" when the recording could not have counted it. */
static const char *tl_count(char buf[24], int traced, uint64_t v)
{
	if (!traced)
		return "-";
	snprintf(buf, 24, "%llu", (unsigned long long)v);
	return buf;
}

static void tl_build_footer(struct tui_state *st, struct canvas *body, const struct tl_layout *L)
{
	char line[512];
	enum lane_id k;
	int nid, i;
	const struct lane *ln;
	const struct handoff_model *m = tl_handoff(st);
	const struct handoff_node_stats *ns;
	uint64_t t0;

	if (st->hist && st->gap >= 0) {	/* not recorded: what the gap is */
		canvas_wrap(body, L->axis_y + 1, 0, body->cols, 2, AT_GAP,
			    st->hist->run[st->gap].gap_text);
		return;
	}
	ln = tl_sel_lane(st, &nid, &k);
	if (!ln)
		return;
	/* the cursor's column in the run's trace time */
	t0 = tui_trace_at(st, tui_col_ts(st, tui_ts_col(st, st->cursor)));
	i = lanes_find(ln, t0, t0 + st->ns_per_col - 1, 0);
	/* several spans may share the cursor's column: the selected one (L,
	 * Enter) is the one to describe */
	for (int j = 0; st->has_sel && i >= 0 && j < ln->n; j++)
		if (tui_at_trace(st, ln->spans[j].start) == st->sel_start &&
		    tui_at_trace(st, ln->spans[j].end) == st->sel_end &&
		    ln->spans[j].start < t0 + st->ns_per_col && ln->spans[j].end >= t0) {
			i = j;
			break;
		}
	if (i >= 0)
		tl_describe(st, nid, k, &ln->spans[i], line, sizeof(line));
	else
		snprintf(line, sizeof(line), "%d %s: nothing at the cursor (%d in all%s)", nid,
			 lane_name(k), ln->n, ln->n ? "; Enter jumps to the nearest" : "");
	canvas_put(body, L->axis_y + 1, 0, AT_NORMAL, line);
	i = tl_ho_node(m, nid);
	ns = i >= 0 ? handoff_model_node(m, i) : NULL;
	const struct lanes_node *n = tl_node(st, st->hist ? st->run : 0, nid);

	const struct analysis *a = st->data->an;
	char ep[24], wo[24], pk[24], no[24], rs[24], cs[24], oo[24];
	/* A count is shown only where its events were recorded: 0 would say
	 * "none happened" of a recording that could not have seen them. */
	int kswapd = tl_traced(a, REC_KSWAPD_WAKE) && tl_traced(a, REC_KSWAPD_SLEEP);
	int handoff = kswapd && tl_traced(a, REC_KCOMPACTD_WAKE);

	snprintf(line, sizeof(line),
		 "node %d: kswapd %s (handoff: %s woke, %s pickup, %s none) "
		 "stalls %s compact %s oom %s", nid,
		 tl_count(ep, kswapd, ns ? ns->episodes : 0),
		 tl_count(wo, handoff, ns ? ns->ho_wakeup : 0),
		 tl_count(pk, handoff, ns ? ns->ho_pickup : 0),
		 tl_count(no, handoff, ns ? ns->ho_none : 0),
		 tl_count(rs, tl_traced(a, REC_RECLAIM_BEGIN),
			  (uint64_t)n->lane[LANE_RECLAIM].n),
		 tl_count(cs, tl_traced(a, REC_COMPACT_BEGIN),
			  (uint64_t)n->lane[LANE_COMPACT].n),
		 tl_count(oo, tl_traced(a, REC_OOM), (uint64_t)n->lane[LANE_OOM].n));
	canvas_put(body, L->axis_y + 2, 0, AT_DIM, line);
}

/* Under the charts when there is room: what the symbols mean. Each group
 * starts a line and its items wrap whole at the screen's width (a cut
 * item, "x no han", says nothing); an item wider than the screen is cut.
 * The trigger's group only for a file a trigger made, the gap's only
 * over several runs. */
static void tl_build_legend(struct canvas *body, int y, int last, int trigger, int gaps)
{
	static const struct {
		const char *sep, *items[7];
	} groups[] = {
		{ "  ", { "K kswapd awake", "* flagged episode", "> woke kcompactd",
			  "~ kcompactd picked it up", "x no handoff", NULL } },
		{ "  ", { "C kcompactd on a request", "c proactive", "R reclaim stall",
			  "D compaction run", "! OOM kill",
			  "k kill by a process", NULL } },
		{ ", ", { "free pages: # level", "on a watermark's row = at or above it",
			  "- below it", "^ off the top", NULL } },
		{ "  ", { "T on the axis: the trigger that made the file", NULL } },
		{ "  ", { "/ not recorded (between two runs)", NULL } },
	};
	size_t ngroups = sizeof(groups) / sizeof(groups[0]);
	int w = body->cols - TUI_LABEL_W;

	for (size_t g = 0; g < ngroups && w > 0; g++) {
		char line[256] = "";
		size_t len = 0;

		if ((g == ngroups - 2 && !trigger) || (g == ngroups - 1 && !gaps))
			continue;

		for (int i = 0; groups[g].items[i]; i++) {
			const char *it = groups[g].items[i];
			size_t add = (len ? strlen(groups[g].sep) : 0) + strlen(it);

			if (len && len + add > (size_t)w) {	/* the item on a line of its own */
				if (y > last)
					return;
				canvas_put(body, y++, TUI_LABEL_W, AT_DIM, line);
				len = 0;
				line[0] = '\0';
			}
			len += (size_t)snprintf(line + len, sizeof(line) - len, "%s%s",
						len ? groups[g].sep : "", it);
			if (len >= sizeof(line))
				len = sizeof(line) - 1;
		}
		if (y > last)
			return;
		canvas_put(body, y++, TUI_LABEL_W, AT_DIM, line);
	}
}

/*
 * The kills lane: a marker per kill in its column, or, when the
 * recording traced neither oom events nor signals, "not recorded" along
 * it (an empty lane would say "no kill"). A recording that traced one
 * kind only says so in the totals line (tk_totals).
 */
static void tl_build_kills(struct tui_state *st, struct canvas *body, const struct tl_layout *L,
			   const unsigned char *gap)
{
	char *marks;

	if (L->kills_y >= L->axis_y)	/* a screen too short for it */
		return;
	marks = xcalloc((size_t)L->w, 1);
	canvas_printf(body, L->kills_y, 0, tl_priv(st)->kills ? AT_CURSOR : AT_LABEL, "  %-*s",
		      TUI_LABEL_W - 3, "kills");
	if (!tk_traced_any(st)) {
		for (int c = 0; c < L->w; c++)
			canvas_set(body, L->kills_y, L->x0 + c, '-', AT_DIM);
		canvas_put(body, L->kills_y, L->x0 + 1, AT_DIM,
			   " not recorded: no oom or signal events (record -g oom) ");
		free(marks);
		return;
	}
	tl_fill_gaps(body, L->x0, L->kills_y, gap, L->w);
	tk_columns(st, L->w, marks);
	for (int c = 0; c < L->w; c++)
		if (marks[c])
			canvas_set(body, L->kills_y, L->x0 + c, marks[c], AT_OOM);
	free(marks);
}

/* The lines under the axis with the kills lane selected: the kill under
 * the cursor, and the kills' totals. */
static void tl_build_kills_footer(struct tui_state *st, struct canvas *body,
				  const struct tl_layout *L)
{
	char line[512];
	struct tk_ref r;
	long cur = tui_ts_col(st, st->cursor);

	if (tk_nearest(st, st->cursor, &r) && tui_ts_col(st, r.at) == cur) {
		size_t n;

		tk_describe(st, &r, line, sizeof(line));
		n = strlen(line);
		if (!tl_priv(st)->box)
			snprintf(line + n, sizeof(line) - n, " (Enter: its dossier)");
	} else {
		snprintf(line, sizeof(line), "kills: nothing at the cursor%s",
			 tk_step(st, 0, 1, &r) || tk_step(st, UINT64_MAX, -1, &r) ?
			 "; Enter opens the nearest, n/N go from kill to kill" : "");
	}
	canvas_put(body, L->axis_y + 1, 0, AT_NORMAL, line);
	tk_totals(st, line, sizeof(line));
	canvas_put(body, L->axis_y + 2, 0, AT_DIM, line);
}

/* The lane selected at first: the first one with anything in it (in
 * any run); the kills lane when only it has (a kill by a process in a
 * quiet recording); else the first. */
static void tl_first_busy_lane(struct tui_state *st)
{
	struct tk_ref r;

	for (int nid = 0; nid < tl_nnodes(st); nid++)
		for (int k = 0; k < LANE_NR; k++)
			for (int run = 0; run < tui_nruns(st); run++)
				if (tl_node(st, run, nid) && tl_node(st, run, nid)->lane[k].n) {
					tl_priv(st)->lane = nid * LANE_NR + k;
					return;
				}
	tl_priv(st)->lane = 0;
	tl_priv(st)->kills = tk_step(st, 0, 1, &r) || tk_nearest(st, 0, &r);
}

/* Opens the dossier box of kill r, the cursor on it, the kills lane
 * selected. */
static void tl_open_box(struct tui_state *st, const struct tk_ref *r)
{
	struct tl_priv *p = tl_priv(st);
	char line[256];

	tui_set_cursor(st, r->at);
	tui_track_run(st);
	p->kills = 1;
	p->box = 1;
	p->box_kill = *r;
	p->box_top = 0;
	tk_describe(st, r, line, sizeof(line));
	tui_message(st, "%s", line);
}

static void view_timeline_build(struct tui_state *st, struct canvas *body)
{
	struct tl_layout L;

	tl_layout(st, body, &L);
	if (st->focus_lane >= 0) {	/* a jump elsewhere (L) chose a lane */
		tl_priv(st)->lane = st->focus_lane;
		tl_priv(st)->kills = 0;
		st->focus_lane = -1;
	}
	if (st->focus_kill) {		/* a finding's kill: its dossier */
		struct tk_ref r;

		st->focus_kill = 0;
		if (tk_nearest(st, st->cursor, &r))
			tl_open_box(st, &r);
	}
	if (tl_priv(st)->lane < 0)
		tl_first_busy_lane(st);
	if (tl_priv(st)->lane >= L.shown * LANE_NR)
		tl_priv(st)->lane = L.shown * LANE_NR - 1;
	unsigned char *gap = tl_gap_cols(st, L.w);
	int trigger = 0;

	for (int nid = 0; nid < L.shown && st->data && st->data->lanes; nid++) {
		int y = nid * L.node_rows;

		for (int k = 0; k < LANE_NR; k++)
			tl_build_lane(st, body, &L, nid, (enum lane_id)k, y + k, gap);
		tl_build_chart(st, body, &L, nid, y + LANE_NR, gap);
	}
	tl_build_kills(st, body, &L, gap);
	for (int r = 0; r < tui_nruns(st); r++)
		trigger |= tui_run_data(st, r) && tui_run_data(st, r)->has_trigger_ts;
	tl_build_legend(body, L.kills_y + 2, L.axis_y - 1, trigger,
			st->hist && st->hist->n > 1);
	free(gap);
	tl_build_axis(st, body, &L);
	tl_build_cursor(st, body, &L);
	if (tl_priv(st)->kills && !(st->hist && st->gap >= 0))
		tl_build_kills_footer(st, body, &L);
	else if (st->data && st->data->lanes)
		tl_build_footer(st, body, &L);
	if (tl_priv(st)->box)
		kill_box_build(st, &tl_priv(st)->box_kill, &tl_priv(st)->box_top, body);
	if (L.shown < L.nnodes)
		tui_message(st, "nodes 0-%d of %d fit; make the terminal taller", L.shown - 1,
			    L.nnodes);
}

/* Enter on the kills lane: the dossier of the kill under or nearest the
 * cursor. */
static void tl_enter_kill(struct tui_state *st)
{
	struct tk_ref r;

	if (!tk_nearest(st, st->cursor, &r)) {
		tui_message(st, "%s", tk_traced_any(st) ? "no kill in this recording" :
			    "kills not recorded: no oom or signal events (record -g oom)");
		return;
	}
	tl_open_box(st, &r);
}

/* n/N on the kills lane: the next or previous kill, whoever the killer;
 * an open dossier box follows it. */
static void tl_step_kill(struct tui_state *st, int dir)
{
	struct tk_ref r;
	char line[256];

	if (!tk_step(st, st->cursor, dir, &r)) {
		tui_message(st, "no kill %s the cursor%s", dir > 0 ? "after" : "before",
			    tk_traced_any(st) ? "" : " (kills not recorded)");
		return;
	}
	tui_set_cursor(st, r.at);
	tui_track_run(st);	/* its run's names describe it */
	if (tl_priv(st)->box) {
		tl_open_box(st, &r);
		return;
	}
	tk_describe(st, &r, line, sizeof(line));
	tui_message(st, "%s (Enter: its dossier)", line);
}

/* The box open: Esc and q close it, n/N go to the next or previous kill,
 * Up/Down and the page keys scroll it, Enter does nothing more; any
 * other key closes it and does what it does. */
static unsigned tl_box_handle(struct tui_state *st, enum tui_action a)
{
	struct tl_priv *p = tl_priv(st);

	switch (a) {
	case ACT_CLEAR:
	case ACT_QUIT:
		p->box = 0;
		break;
	case ACT_NEXT_FLAG:
	case ACT_PREV_FLAG:
		tl_step_kill(st, a == ACT_NEXT_FLAG ? 1 : -1);
		break;
	case ACT_UP:
	case ACT_DOWN:
		p->box_top += a == ACT_DOWN ? 1 : -1;	/* kill_box_build clamps */
		break;
	case ACT_PAGE_UP:
	case ACT_PAGE_DOWN:
		p->box_top += (a == ACT_PAGE_DOWN ? 1 : -1) * (tui_body_rows(st) - 3);
		break;
	case ACT_ENTER:
		break;
	default:
		p->box = 0;
		return 0;
	}
	return TUI_HANDLED | TUI_REDRAW;
}

/* Enter: the span under the cursor in the selected lane, or the nearest. */
static void tl_enter(struct tui_state *st)
{
	enum lane_id k;
	int nid, i;
	const struct lane *ln = tl_sel_lane(st, &nid, &k);
	uint64_t t0 = tui_trace_at(st, tui_col_ts(st, tui_ts_col(st, st->cursor)));
	char line[512];

	i = ln ? lanes_find(ln, t0, t0 + st->ns_per_col - 1, UINT64_MAX / 4) : -1;
	if (i < 0) {
		tui_message(st, "nothing in the %s lane of node %d%s", lane_name(k), nid,
			    st->hist ? " in this run" : "");
		return;
	}
	uint64_t a = tui_at_trace(st, ln->spans[i].start), b = tui_at_trace(st, ln->spans[i].end);

	tui_select(st, a, b);
	if (b - a > st->ns_per_col * (uint64_t)tui_axis_cols(st->cols))
		tui_zoom_to(st, a, b);
	tui_set_cursor(st, a);
	tl_describe(st, nid, k, &ln->spans[i], line, sizeof(line));
	tui_message(st, "%s", line);
}

/* An OOM kill (of any run) before the best episode found (bound, in
 * screen time, when have) in direction dir wins: jumps to it and
 * returns 1. */
static int tl_oom(struct tui_state *st, int dir, uint64_t bound, int have)
{
	const struct lane_span *best = NULL;
	uint64_t best_at = 0;
	int best_nid = 0;
	char line[256];

	for (int r = 0; r < tui_nruns(st); r++) {
		const struct tui_data *d = tui_run_data(st, r);
		const struct lanes *l = d ? d->lanes : NULL;

		for (int nid = 0; l && nid < lanes_nnodes(l); nid++) {
			const struct lane *ln = &lanes_node(l, nid)->lane[LANE_OOM];

			for (int i = 0; i < ln->n; i++) {
				const struct lane_span *s = &ln->spans[i];
				uint64_t at = tl_at(d->off, s->start);

				if (dir > 0 ? at <= st->cursor : at >= st->cursor)
					continue;
				if (have && (dir > 0 ? at >= bound : at <= bound))
					continue;
				if (!best || (dir > 0 ? at < best_at : at > best_at)) {
					best = s;
					best_at = at;
					best_nid = nid;
				}
			}
		}
	}
	if (!best)
		return 0;
	tui_set_cursor(st, best_at);
	tui_track_run(st);	/* its run's names describe it */
	tl_priv(st)->lane = best_nid * LANE_NR + LANE_OOM;
	tl_describe(st, best_nid, LANE_OOM, best, line, sizeof(line));
	tui_message(st, "%s", line);
	return 1;
}

/* n/N: the next or previous flagged kswapd episode or OOM kill (of any
 * run). */
static void tl_flag(struct tui_state *st, int dir)
{
	const struct kswapd_episode *best = NULL;
	uint64_t best_at = 0, best_end = 0;
	int best_nid = 0;

	for (int r = 0; r < tui_nruns(st); r++) {
		const struct tui_data *d = tui_run_data(st, r);
		const struct handoff_model *m = tl_handoff_of(d);
		uint64_t last = st->hist ? tl_at(d->off, d->last_ts) : st->t_last;

		for (int i = 0; m && i < handoff_model_nnodes(m); i++)
			for (int e = 0; e < handoff_model_nepisodes(m, i); e++) {
				const struct kswapd_episode *ep = handoff_model_episode(m, i, e);
				uint64_t at = tl_at(d->off, ep->start);

				if (!ep->flags)
					continue;
				if (dir > 0 ? at <= st->cursor : at >= st->cursor)
					continue;
				if (!best || (dir > 0 ? at < best_at : at > best_at)) {
					best = ep;
					best_at = at;
					best_end = ep->end ? tl_at(d->off, ep->end) : last;
					best_nid = handoff_model_node(m, i)->nid;
				}
			}
	}
	if (tl_oom(st, dir, best_at, !!best))
		return;
	if (!best) {
		tui_message(st, "no flagged kswapd episode or OOM kill %s the cursor",
			    dir > 0 ? "after" : "before");
		return;
	}
	char fl[64];

	tui_select(st, best_at, best_end);
	tui_set_cursor(st, best_at);
	if (best_nid < tl_nnodes(st))
		tl_priv(st)->lane = best_nid * LANE_NR + LANE_KSWAPD;
	tui_message(st, "kswapd%d: %s, handoff %s", best_nid,
		    handoff_flags_str(best->flags, fl, sizeof(fl)), handoff_kind_name(best->handoff));
}

static unsigned view_timeline_handle(struct tui_state *st, enum tui_action a)
{
	int nlanes = tl_nnodes(st) * LANE_NR;

	struct tl_priv *p = tl_priv(st);

	if (p->lane < 0)
		tl_first_busy_lane(st);
	if (p->box)
		return tl_box_handle(st, a);
	/* the kills lane comes after the last node's lanes, before the first's */
	switch (a) {
	case ACT_UP:
		if (p->kills)
			p->kills = 0, p->lane = nlanes - 1;
		else if (p->lane == 0)
			p->kills = 1;
		else
			p->lane--;
		break;
	case ACT_DOWN:
		if (p->kills)
			p->kills = 0, p->lane = 0;
		else if (p->lane == nlanes - 1)
			p->kills = 1;
		else
			p->lane++;
		break;
	case ACT_ENTER:
		if (p->kills)
			tl_enter_kill(st);
		else
			tl_enter(st);
		break;
	case ACT_NEXT_FLAG:
	case ACT_PREV_FLAG:
		if (p->kills)
			tl_step_kill(st, a == ACT_NEXT_FLAG ? 1 : -1);
		else
			tl_flag(st, a == ACT_NEXT_FLAG ? 1 : -1);
		break;
	default:
		return 0;
	}
	return TUI_HANDLED | TUI_REDRAW;
}

/* A click on the axis area moves the cursor there; on a lane, selects it. */
static unsigned view_timeline_click(struct tui_state *st, int y, int x)
{
	struct canvas size = { .rows = tui_body_rows(st), .cols = st->cols };
	struct tl_layout L;

	tl_layout(st, &size, &L);
	tl_priv(st)->box = 0;
	if (y < L.shown * L.node_rows && y % L.node_rows < LANE_NR) {
		tl_priv(st)->lane = (y / L.node_rows) * LANE_NR + y % L.node_rows;
		tl_priv(st)->kills = 0;
	} else if (y == L.kills_y) {
		tl_priv(st)->kills = 1;
	}
	if (x >= L.x0 && x < L.x0 + L.w)
		tui_set_cursor(st, tui_col_ts(st, x - L.x0));
	return TUI_HANDLED | TUI_REDRAW;
}

const struct view_ops view_timeline_ops = {
	.name = "timeline",
	.priv_new = tl_priv_new,
	.priv_free = free,
	.build = view_timeline_build,
	.handle = view_timeline_handle,
	.click = view_timeline_click,
};
