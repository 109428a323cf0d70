// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * View 3, zswap, from the zswap model's sample points: at the cursor,
 * stored pages and the pool against its max_pool_percent limit; over
 * time on the shared axis, a chart of stored pages with the limit as a
 * line, then one row per rate (stores, loads, writeback, rejects, and
 * the swap device's page-outs and page-ins beside them) drawn as
 * intensity " .:-=+*#" against that row's own peak; last, the rejects by
 * reason over the recording.
 */
#include "config.h"
#include "tui.h"
#include "data.h"
#include "analysis.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ZV_CHART_MAX 8

static const struct zswap_model *view_zswap_model(const struct tui_state *st)
{
	return st->data && st->data->an ? analysis_zswap(st->data->an) : NULL;
}

static const struct zsw_point *view_zswap_at(const struct zswap_model *m, uint64_t ts)
{
	const struct zsw_point *p = NULL;

	for (int i = 0; i < zswap_model_npoints(m); i++) {
		if (zswap_model_point(m, i)->ts > ts)
			break;
		p = zswap_model_point(m, i);
	}
	return p;
}

/* Stored pages per column (the last point in it, carried forward). */
static void view_zswap_chart(struct tui_state *st, struct canvas *body, int y, int h,
			     const struct zswap_model *m)
{
	int w = tui_axis_cols(body->cols), n = zswap_model_npoints(m), i = 0;
	int64_t *val = xcalloc((size_t)w, sizeof(*val)), top = 1, limit = 0, last = -1;

	for (int c = 0; c < w; c++) {
		uint64_t t1 = tui_col_ts(st, c) + st->ns_per_col;

		for (; i < n && tui_at_trace(st, zswap_model_point(m, i)->ts) < t1; i++) {
			const struct zsw_point *p = zswap_model_point(m, i);

			last = p->stored_pages;
			if (p->limit_pages > limit)
				limit = p->limit_pages;
		}
		val[c] = i < n || (n && tui_at_trace(st, zswap_model_point(m, n - 1)->ts) >=
				       tui_col_ts(st, c)) ?
			 last : -1;
		if (val[c] > top)
			top = val[c];
	}
	if (limit > top)
		top = limit;
	top += top / 10;
	int lrow = limit > 0 ? h - 1 - (int)(limit * h / top) : -1;

	for (int r = 0; r < h; r++) {
		int64_t lo = top * (h - 1 - r) / h;

		if (r == 0)
			canvas_printf(body, y, 0, AT_LABEL, "stored%7lld", (long long)top);
		if (r == lrow)
			canvas_printf(body, y + r, 0, AT_WM_HIGH, "limit%8lld", (long long)limit);
		for (int c = 0; c < w; c++) {
			if (val[c] < 0)
				continue;
			if (r == lrow)
				canvas_set(body, y + r, TUI_LABEL_W + c, val[c] >= limit ? '=' : '-',
					   AT_WM_HIGH);
			else if (val[c] > lo || (r == h - 1 && val[c] > 0))
				canvas_set(body, y + r, TUI_LABEL_W + c, '#', AT_FREE);
		}
	}
	free(val);
}

static int64_t view_zswap_field(const struct zsw_point *p, int k)
{
	switch (k) {
	case 0: return p->zswpout;
	case 1: return p->zswpin;
	case 2: return p->zswpwb >= 0 ? p->zswpwb : p->written_back;
	case 3: return p->rejects;
	case 4: return p->pswpout;
	default: return p->pswpin;
	}
}

/* Some point has counter k (a kernel or sampler without it gives -1). */
static int view_zswap_sampled(const struct zswap_model *m, int k)
{
	for (int i = 0; i < zswap_model_npoints(m); i++)
		if (view_zswap_field(zswap_model_point(m, i), k) >= 0)
			return 1;
	return 0;
}

/* One row per counter: its increase per column against the row's peak. */
static void view_zswap_rates(struct tui_state *st, struct canvas *body, int y,
			     const struct zswap_model *m)
{
	static const char *const names[] = { "stores", "loads", "writeback", "rejects",
					     "pswpout", "pswpin" };
	static const char ramp[] = " .:-=+*#";
	int w = tui_axis_cols(body->cols), n = zswap_model_npoints(m);
	int64_t *d = xcalloc((size_t)w, sizeof(*d));

	for (int k = 0; k < 6 && y + k < body->rows; k++) {
		int64_t peak = 0;

		memset(d, 0, (size_t)w * sizeof(*d));
		for (int i = 1; i < n; i++) {
			const struct zsw_point *p = zswap_model_point(m, i - 1),
					       *q = zswap_model_point(m, i);
			long c = tui_ts_col(st, tui_at_trace(st, q->ts));
			int64_t a = view_zswap_field(p, k), b = view_zswap_field(q, k);

			if (c < 0 || c >= w || a < 0 || b < a)
				continue;
			d[c] += b - a;
			if (d[c] > peak)
				peak = d[c];
		}
		canvas_printf(body, y + k, 0, AT_LABEL, "%-*s", TUI_LABEL_W - 1, names[k]);
		if (!view_zswap_sampled(m, k)) {	/* blank would read as "none" */
			canvas_put(body, y + k, TUI_LABEL_W, AT_DIM, "not sampled");
			continue;
		}
		if (!peak)	/* sampled, and it never moved: say so, not blank */
			canvas_put(body, y + k, TUI_LABEL_W, AT_DIM, "0 (no change)");
		for (int c = 0; c < w && peak; c++)
			if (d[c])
				canvas_set(body, y + k, TUI_LABEL_W + c,
					   ramp[1 + (int)(d[c] * 6 / peak)], k == 3 ? AT_FLAG : AT_RECLAIM);
	}
	free(d);
}

static void view_zswap_rejects(struct canvas *body, int y, const struct zswap_model *m)
{
	char line[512];
	int len = snprintf(line, sizeof(line), "rejects:");

	for (int i = 0; i < zswap_model_nrejects(m) && len < (int)sizeof(line) - 40; i++) {
		const struct zsw_counter *c = zswap_model_reject(m, i);

		len += snprintf(line + len, sizeof(line) - (size_t)len, " %s %lld", c->key,
				(long long)(c->last - c->first));
	}
	if (!zswap_model_nrejects(m))
		snprintf(line + len, sizeof(line) - (size_t)len, " not sampled");
	canvas_wrap(body, y, 0, body->cols, body->rows - y, AT_NORMAL, line);
}

static void view_zswap_build(struct tui_state *st, struct canvas *body)
{
	const struct zswap_model *m = view_zswap_model(st);
	const struct zsw_point *p;
	const char *comp;
	char ts[32], mpp[16] = "-";	/* "-": max_pool_percent not sampled */
	int h, y = 0, cur, enabled;

	if (!m || !zswap_model_npoints(m)) {
		canvas_put(body, 0, 0, AT_HEADER, "zswap");
		canvas_wrap(body, 2, 0, body->cols, body->rows - 2, AT_DIM,
			    "Needs zswap counter samples (mmscope record samples the zswap "
			    "debugfs files and vmstat); this recording has none.");
		return;
	}
	p = view_zswap_at(m, tui_trace_at(st, st->cursor));
	/* The point's own parameter, else the one sampled as a setting (the
	 * same source the report reads): "not sampled" only when neither. */
	enabled = p && p->enabled >= 0 ? p->enabled : zswap_model_enabled(m);
	comp = zswap_model_settings(m)->compressor;
	if (zswap_model_max_pool_percent(m) >= 0)
		snprintf(mpp, sizeof(mpp), "%d%%", zswap_model_max_pool_percent(m));
	canvas_printf(body, y++, 0, AT_HEADER, "zswap at %s s: %s%s%s, max_pool_percent %s",
		      tui_fmt_ts(st, st->cursor, ts, sizeof(ts)),
		      enabled < 0 ? "enabled not sampled" : enabled ? "enabled" : "disabled",
		      *comp ? ", " : "", comp, mpp);
	if (p) {	/* -1 in a point: not sampled, printed "-" */
		char sp[24] = "-", pool[24] = "-", lim[24] = "-", inf[24] = "-";

		if (p->stored_pages >= 0)
			snprintf(sp, sizeof(sp), "%lld", (long long)p->stored_pages);
		if (p->pool_bytes >= 0)
			snprintf(pool, sizeof(pool), "%lld", (long long)(p->pool_bytes / 1024));
		if (p->limit_pages >= 0)
			snprintf(lim, sizeof(lim), "%lld", (long long)p->limit_pages);
		if (p->inflight >= 0)
			snprintf(inf, sizeof(inf), "%lld", (long long)p->inflight);
		canvas_printf(body, y, 0, AT_NORMAL,
			      "stored %s pages, pool %s kB, limit %s pages, in flight %s",
			      sp, pool, lim, inf);
	}
	y++;
	h = body->rows - y - 6 - 3;
	if (h > ZV_CHART_MAX)
		h = ZV_CHART_MAX;
	if (h < 2)
		h = 2;
	if (zswap_model_has_pool(m))
		view_zswap_chart(st, body, y, h, m);
	else
		canvas_printf(body, y, 0, AT_DIM, "stored%*snot sampled (no zswap debugfs "
			      "pool counters in the samples)", TUI_LABEL_W - 6, "");
	y += h;
	view_zswap_rates(st, body, y, m);
	y += 6;
	cur = (int)tui_ts_col(st, st->cursor);
	for (int r = 2; r < y; r++)
		if (cur >= 0 && cur < tui_axis_cols(body->cols))
			canvas_attr(body, r, TUI_LABEL_W + cur, 1, AT_CURSOR);
	view_zswap_rejects(body, y + 1, m);
}

const struct view_ops view_zswap_ops = {
	.name = "zswap",
	.build = view_zswap_build,
};
