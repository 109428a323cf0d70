// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * View 7, memcg: one memory cgroup of record --cgroups at a time (Up and
 * Down choose it, widest first as the report's memcg section lists
 * them), or record --cgroup's one cgroup: at the cursor its usage, limit and high; over time on the shared
 * axis its usage as a chart, with the limit and high as lines where they
 * were sampled. From the memcgs model's points (thinned to a bound: a
 * point then holds the largest usage of the sets it stands for).
 * Under the chart, 'R' where a stall (direct or memcg reclaim) of a task
 * of the cgroup or one below it was in progress: the lanes' reclaim
 * spans, each in the cgroup its task was in when it began (the tasks'
 * map, src/cgmap.h, whose paths are the memcgs lines' form: relative to
 * the hierarchy's mount).
 */
#include "config.h"
#include "tui.h"
#include "data.h"
#include "analysis.h"
#include "model-memcgs.h"
#include "model-lanes.h"
#include "cgmap.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MV_CHART_MAX 12

struct view_memcg_priv {
	int sel;		/* in widest-first order */
};

static void *view_memcg_priv_new(void)
{
	return xcalloc(1, sizeof(struct view_memcg_priv));
}

static void view_memcg_priv_free(void *p)
{
	free(p);
}

static const struct memcgs_model *mv_model(const struct tui_state *st)
{
	return st->data && st->data->an ? analysis_model(st->data->an, &memcgs_model_ops) : NULL;
}

/* The selected cgroup, widest first; NULL when none. */
static const struct memcg_info *mv_selected(const struct tui_state *st, int *idx, int *n)
{
	const struct memcgs_model *m = mv_model(st);
	struct view_memcg_priv *p = st->priv[VIEW_MEMCG];
	const struct memcg_info *g;
	int *order;

	*n = m ? memcgs_model_count(m) : 0;
	if (!*n && m && memcgs_model_single(m)) {
		/* record --cgroup PATH: its one cgroup */
		*n = 1;
		*idx = 0;
		return memcgs_model_single(m);
	}
	if (!*n)
		return NULL;
	if (p->sel >= *n)
		p->sel = *n - 1;
	order = xreallocarray(NULL, (size_t)*n, sizeof(*order));
	memcgs_model_order(m, order);
	g = memcgs_model_get(m, order[p->sel]);
	free(order);
	*idx = p->sel;
	return g;
}

static const char *mv_mib(char *buf, size_t len, int64_t v, int known)
{
	if (!known)
		snprintf(buf, len, "-");
	else if (v == INT64_MAX)
		snprintf(buf, len, "none");
	else
		snprintf(buf, len, "%.1f MiB", (double)v / (1024.0 * 1024.0));
	return buf;
}

/* The last point at or before ts, NULL before the first. */
static const struct memcg_point *mv_at(const struct memcg_info *g, uint64_t ts)
{
	const struct memcg_point *p = NULL;

	for (int i = 0; i < g->npts && g->pts[i].ts <= ts; i++)
		p = &g->pts[i];
	return p;
}

/* Usage per column (the largest in it, carried forward between points),
 * and the limit and high last seen up to each column. */
static void mv_chart(struct tui_state *st, struct canvas *body, int y, int h,
		     const struct memcg_info *g)
{
	int w = tui_axis_cols(body->cols), i = 0;
	int64_t *use = xcalloc((size_t)w, sizeof(*use)), top = 1, lim = -1, high = -1;
	int64_t last = -1;

	for (int c = 0; c < w; c++) {
		uint64_t t0 = tui_col_ts(st, c), t1 = t0 + st->ns_per_col;
		int64_t most = -1;

		for (; i < g->npts && tui_at_trace(st, g->pts[i].ts) < t1; i++) {
			const struct memcg_point *p = &g->pts[i];

			if (p->known & MEMCG_PT_USAGE) {
				last = p->usage;
				if (tui_at_trace(st, p->ts) >= t0 && p->usage > most)
					most = p->usage;
			}
			if ((p->known & MEMCG_PT_LIMIT) && p->limit != INT64_MAX)
				lim = p->limit;
			if ((p->known & MEMCG_PT_HIGH) && p->high != INT64_MAX)
				high = p->high;
		}
		/* nothing drawn before the first point or after the last */
		use[c] = most >= 0 ? most : i && i < g->npts ? last : -1;
		if (use[c] > top)
			top = use[c];
	}
	if (lim > top)
		top = lim;
	if (high > top)
		top = high;
	top += top / 10;
	int lrow = lim >= 0 ? h - 1 - (int)(lim * h / top) : -1;
	int hrow = high >= 0 ? h - 1 - (int)(high * h / top) : -1;
	char a[32];

	for (int r = 0; r < h; r++) {
		int64_t lo = top * (h - 1 - r) / h;

		if (r == 0)
			canvas_printf(body, y, 0, AT_LABEL, "%-*s", TUI_LABEL_W - 1,
				      mv_mib(a, sizeof(a), top, 1));
		if (r == hrow)
			canvas_printf(body, y + r, 0, AT_WM_LOW, "high");
		if (r == lrow)
			canvas_printf(body, y + r, 0, AT_WM_HIGH, "limit");
		for (int c = 0; c < w; c++) {
			if (use[c] < 0)
				continue;
			if (r == lrow)
				canvas_set(body, y + r, TUI_LABEL_W + c, use[c] >= lim ? '=' : '-',
					   AT_WM_HIGH);
			else if (r == hrow)
				canvas_set(body, y + r, TUI_LABEL_W + c, use[c] >= high ? '=' : '-',
					   AT_WM_LOW);
			else if (use[c] > lo || (r == h - 1 && use[c] > 0))
				canvas_set(body, y + r, TUI_LABEL_W + c, '#', AT_FREE);
		}
	}
	free(use);
}

/* The stalls a memcg's row shows: direct and memcg reclaim; the softlimit
 * kind nests in them (and is kswapd's otherwise), node reclaim is the
 * node's. */
static int mv_stall_kind(int kind)
{
	return kind == RK_DIRECT || kind == RK_MEMCG;
}

/*
 * Per column of the axis, whether a stall of a task in path (or below)
 * was in progress, into cols[0..w) (NULL: none); returns the number of
 * those stalls in the recording (or its window), and the spans the lanes
 * dropped past their bound (their cgroup unknown) in *dropped.
 */
static uint64_t mv_stalls(const struct tui_state *st, const char *path, char *cols, int w,
			  uint64_t *dropped)
{
	const struct cgmap *map = analysis_cgmap(st->data->an);
	const struct lanes *l = st->data->lanes;
	int nids = cgmap_count(map);
	/* per cgroup id: 0 not asked yet, 1 under path, 2 not */
	unsigned char *in = xcalloc((size_t)nids + 1, 1);
	uint64_t n = 0;

	*dropped = 0;
	if (cols)
		memset(cols, 0, (size_t)w);
	for (int nid = 0; l && nid < lanes_nnodes(l); nid++) {
		const struct lane *ln = &lanes_node(l, nid)->lane[LANE_RECLAIM];

		*dropped += ln->dropped;
		for (int i = 0; i < ln->n; i++) {
			const struct lane_span *s = &ln->spans[i];
			int id = (int)s->cgroup - 1;

			if (!mv_stall_kind(s->kind) || id < 0 || id >= nids)
				continue;
			if (!in[id])
				in[id] = cgmap_under(map, id, path) ? 1 : 2;
			if (in[id] != 1)
				continue;
			n++;
			if (!cols || tui_at_trace(st, s->end) < tui_col_ts(st, 0))
				continue;
			/* the columns from its start's to its end's */
			long c0 = tui_ts_col(st, tui_at_trace(st, s->start));

			for (long c = c0 < 0 ? 0 : c0;
			     c < w && tui_col_ts(st, c) <= tui_at_trace(st, s->end); c++)
				cols[c] = 1;
		}
	}
	free(in);
	return n;
}

/* The stalls' row at y, under the chart, and their text line below;
 * returns the rows used. */
static int mv_stall_row(struct tui_state *st, struct canvas *body, int y,
			 const struct memcg_info *g)
{
	const struct analysis *a = st->data->an;
	int w = tui_axis_cols(body->cols);
	char *cols = xcalloc((size_t)w + 1, 1);
	uint64_t n, dropped;
	int rows = 1;

	/* unknown is said on the row itself, never an empty row */
	if (!cgmap_recorded(analysis_cgmap(a))) {
		canvas_put(body, y, 0, AT_DIM, "stalls: tasks' cgroups not recorded (record -g tasks)");
	} else if (!analysis_traced(a, REC_RECLAIM_BEGIN, RK_DIRECT) &&
		   !analysis_traced(a, REC_RECLAIM_BEGIN, RK_MEMCG)) {
		canvas_put(body, y, 0, AT_DIM, "stalls: reclaim not recorded (record -g reclaim)");
	} else {
		n = mv_stalls(st, g->path, cols, w, &dropped);
		canvas_put(body, y, 0, AT_LABEL, "stalls");
		for (int c = 0; c < w; c++)
			if (cols[c])
				canvas_set(body, y, TUI_LABEL_W + c, 'R', AT_RECLAIM);
		canvas_printf(body, y + 1, 0, AT_NORMAL, "%llu stalls of its tasks and below "
			      "(direct and memcg reclaim, 'R' in progress)%s",
			      (unsigned long long)n,
			      dropped ? ", more not kept" : "");
		rows = 2;
	}
	free(cols);
	return rows;
}

static void view_memcg_build(struct tui_state *st, struct canvas *body)
{
	const struct memcg_info *g;
	const struct memcg_point *p;
	int idx = 0, n, h, y = 0, cur;
	char ts[32], u[32], l[32], hi[32];

	g = mv_selected(st, &idx, &n);
	if (!g) {
		canvas_put(body, 0, 0, AT_HEADER, "memcg");
		canvas_wrap(body, 2, 0, body->cols, body->rows - 2, AT_DIM,
			    "Needs the samples of mmscope record --cgroups ROOT (every memory "
			    "cgroup under ROOT) or --cgroup PATH (one); this recording has "
			    "neither.");
		return;
	}
	if (g == memcgs_model_single(mv_model(st)))
		canvas_printf(body, y++, 0, AT_HEADER, "memcg %s  (record --cgroup)", g->path);
	else
		canvas_printf(body, y++, 0, AT_HEADER, "memcg %d/%d %s  (Up/Down: another)",
			      idx + 1, n, g->path);
	p = mv_at(g, tui_trace_at(st, st->cursor));
	canvas_printf(body, y++, 0, AT_NORMAL, "at %s s: usage %s, limit %s, high %s",
		      tui_fmt_ts(st, st->cursor, ts, sizeof(ts)),
		      mv_mib(u, sizeof(u), p ? p->usage : 0, p && (p->known & MEMCG_PT_USAGE)),
		      mv_mib(l, sizeof(l), p ? p->limit : 0, p && (p->known & MEMCG_PT_LIMIT)),
		      mv_mib(hi, sizeof(hi), p ? p->high : 0, p && (p->known & MEMCG_PT_HIGH)));
	h = body->rows - y - 4;	/* the stalls' row, its line, the legend */
	if (h > MV_CHART_MAX)
		h = MV_CHART_MAX;
	if (h < 2)
		h = 2;
	mv_chart(st, body, y, h, g);
	cur = (int)tui_ts_col(st, st->cursor);
	for (int r = y; r < y + h && r < body->rows; r++)
		if (cur >= 0 && cur < tui_axis_cols(body->cols))
			canvas_attr(body, r, TUI_LABEL_W + cur, 1, AT_CURSOR);
	y += h;
	if (y + 1 < body->rows)
		y += mv_stall_row(st, body, y, g);
	if (y < body->rows)
		canvas_printf(body, y, 0, AT_DIM, "usage '#', limit and high '=' where usage "
			      "is at or above them");
}

static unsigned view_memcg_handle(struct tui_state *st, enum tui_action a)
{
	struct view_memcg_priv *p = st->priv[VIEW_MEMCG];
	const struct memcgs_model *m = mv_model(st);
	int n = m ? memcgs_model_count(m) : 0;

	switch (a) {
	case ACT_UP:
		if (p->sel > 0)
			p->sel--;
		break;
	case ACT_DOWN:
		if (p->sel + 1 < n)
			p->sel++;
		break;
	default:
		return 0;
	}
	return TUI_HANDLED | TUI_REDRAW;
}

const struct view_ops view_memcg_ops = {
	.name = "memcg",
	.priv_new = view_memcg_priv_new,
	.priv_free = view_memcg_priv_free,
	.build = view_memcg_build,
	.handle = view_memcg_handle,
};
