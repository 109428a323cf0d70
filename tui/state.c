// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The shared state of the TUI and what every view agrees on: the time
 * axis (origin, ns per column, a cursor kept on screen), the selection,
 * the top and bottom bars, and the default meaning of each action. The
 * main loop (tui.c) calls tui_apply() for input and tui_build_screen()
 * to redraw; neither touches ncurses, so tests drive both directly.
 */
#include "config.h"
#include "tui.h"
#include "data.h"
#include "model-lanes.h"
#include "tracedat-read.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TUI_MIN_NS_PER_COL 1000ULL	/* 1 us per column */

static const struct view_ops *const tui_views[VIEW_NR] = {
#define X(_, id, name, key, help) [VIEW_##id] = &view_##name##_ops,
	TUI_VIEW_TABLE(X, _)
#undef X
	[VIEW_HELP] = &view_help_ops,
};

/* The key of each view's tab (the help's is in the key table too). */
static const int tui_view_keys[VIEW_HELP] = {
#define X(_, id, name, key, help) [VIEW_##id] = key,
	TUI_VIEW_TABLE(X, _)
#undef X
};

const struct view_ops *tui_view(int id)
{
	return id >= 0 && id < VIEW_NR ? tui_views[id] : NULL;
}

enum tui_action tui_view_action(int id)
{
	switch (id) {
#define X(_, id, name, key, help) case VIEW_##id: return ACT_VIEW_##id;
	TUI_VIEW_TABLE(X, _)
#undef X
	case VIEW_HELP:
		return ACT_HELP;
	}
	return ACT_NONE;
}

/* The view an action shows (ACT_VIEW_<ID>), or -1. */
static int tui_action_view(enum tui_action a)
{
	for (int id = 0; id < VIEW_HELP; id++)
		if (tui_view_action(id) == a)
			return id;
	return -1;
}

int tui_axis_cols(int cols)
{
	return cols > TUI_LABEL_W + 10 ? cols - TUI_LABEL_W - 1 : 10;
}

int tui_body_rows(const struct tui_state *st)
{
	return st->rows > 2 ? st->rows - 2 : 0;
}

/* Fits the whole recording in the axis of the current width. */
static void tui_fit_all(struct tui_state *st)
{
	uint64_t span = st->t_last - st->t_first;
	uint64_t cols = (uint64_t)tui_axis_cols(st->cols);

	st->origin = st->t_first;
	st->ns_per_col = (span + cols - 1) / cols;
	if (st->ns_per_col < TUI_MIN_NS_PER_COL)
		st->ns_per_col = TUI_MIN_NS_PER_COL;
}

void tui_state_fit(struct tui_state *st)
{
	tui_fit_all(st);
	st->cursor = st->t_first;
}

void tui_state_init(struct tui_state *st, uint64_t t_first, uint64_t t_last)
{
	memset(st, 0, sizeof(*st));
	if (t_last < t_first)
		t_last = t_first;
	st->t_first = t_first;
	st->t_last = t_last;
	st->cursor = t_first;
	st->rows = 24;
	st->cols = 80;
	st->prev_view = VIEW_TIMELINE;
	st->focus_lane = -1;
	st->focus_kill = 0;
	st->gap = -1;
	tui_fit_all(st);
	for (int id = 0; id < VIEW_NR; id++)
		if (tui_views[id]->priv_new)
			st->priv[id] = tui_views[id]->priv_new();
}

long tui_ts_col(const struct tui_state *st, uint64_t ts)
{
	if (ts >= st->origin)
		return (long)((ts - st->origin) / st->ns_per_col);
	return -(long)((st->origin - ts + st->ns_per_col - 1) / st->ns_per_col);
}

uint64_t tui_col_ts(const struct tui_state *st, long col)
{
	if (col < 0) {
		uint64_t back = (uint64_t)-col * st->ns_per_col;

		return back > st->origin ? 0 : st->origin - back;
	}
	return st->origin + (uint64_t)col * st->ns_per_col;
}

/* Scrolls the axis by whole columns so the cursor is on screen. */
static void tui_follow_cursor(struct tui_state *st)
{
	long w = tui_axis_cols(st->cols), col = tui_ts_col(st, st->cursor);

	if (col < 0 || col >= w) {
		long shift = col < 0 ? col - w / 4 : col - w + 1 + w / 4;

		st->origin = tui_col_ts(st, shift);
		if (st->origin < st->t_first && col < 0)
			st->origin = st->t_first > st->origin ? st->origin : st->t_first;
	}
}

void tui_set_cursor(struct tui_state *st, uint64_t ts)
{
	if (ts < st->t_first)
		ts = st->t_first;
	if (ts > st->t_last)
		ts = st->t_last;
	st->cursor = ts;
	tui_follow_cursor(st);
}

void tui_zoom_to(struct tui_state *st, uint64_t a, uint64_t b)
{
	uint64_t w = (uint64_t)tui_axis_cols(st->cols);
	uint64_t span = b > a ? b - a : 0;

	st->ns_per_col = (span + span / 2) / w + 1;
	if (st->ns_per_col < TUI_MIN_NS_PER_COL)
		st->ns_per_col = TUI_MIN_NS_PER_COL;
	uint64_t mid = a + span / 2, half = st->ns_per_col * w / 2;

	st->origin = mid > half ? mid - half : 0;
}

void tui_select(struct tui_state *st, uint64_t a, uint64_t b)
{
	st->has_sel = 1;
	st->sel_start = a < b ? a : b;
	st->sel_end = a < b ? b : a;
}

void tui_message(struct tui_state *st, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(st->message, sizeof(st->message), fmt, ap);
	va_end(ap);
}

uint64_t tui_t0(const struct tui_state *st)
{
	if (st->hist)
		return st->hist->zero;
	return st->data && st->data->rec_first_ts ? st->data->rec_first_ts : st->t_first;
}

int64_t tui_off(const struct tui_state *st)
{
	return st->data ? st->data->off : 0;
}

uint64_t tui_trace_at(const struct tui_state *st, uint64_t t)
{
	int64_t v = (int64_t)t - tui_off(st);

	return v > 0 ? (uint64_t)v : 0;
}

uint64_t tui_at_trace(const struct tui_state *st, uint64_t trace)
{
	int64_t v = (int64_t)trace + tui_off(st);

	return v > 0 ? (uint64_t)v : 0;
}

int tui_nruns(const struct tui_state *st)
{
	return st->hist ? st->hist->n : 1;
}

const struct tui_data *tui_run_data(const struct tui_state *st, int k)
{
	return st->hist ? st->hist->run[k].data : st->data;
}

void tui_track_run(struct tui_state *st)
{
	struct tui_hist *h = st->hist;
	const char *err;
	int k;

	if (!h)
		return;
	k = tui_hist_run_at(h, st->cursor, &st->gap);
	if (st->data == h->run[k].data && st->run == k)
		return;
	st->run = k;
	st->data = h->run[k].data;
	st->path = h->run[k].name;
	if (tui_hist_files(h, k, &st->tf, &st->set, &err) < 0)
		tui_message(st, "%s", err);
	st->tep = st->tf ? td_tep(st->tf) : NULL;
}

void tui_run_status(const struct tui_state *st, int brief, char *buf, int len)
{
	const struct tui_hist *h = st->hist;
	const struct tui_run *r, *g;
	char d[32];

	buf[0] = '\0';
	if (!h)
		return;
	r = &h->run[st->run];
	if (st->gap >= 0) {
		g = &h->run[st->gap];
		tui_fmt_dur(g->gap_to - g->gap_from, d, sizeof(d));
		if (brief == 0)
			snprintf(buf, (size_t)len, "not recorded %s: run %d ended: %s; run %d began: %s",
				 d, r->no, r->ended, g->no, g->began);
		else if (brief == 1)
			snprintf(buf, (size_t)len, "not recorded %s (run %d began: %s)", d, g->no,
				 g->began);
		else
			snprintf(buf, (size_t)len, "not recorded %s", d);
		return;
	}
	if (brief == 0)
		snprintf(buf, (size_t)len, "run %d of %d (began: %s)", r->no, h->total, r->began);
	else if (brief == 1)
		snprintf(buf, (size_t)len, "run %d of %d", r->no, h->total);
	else
		snprintf(buf, (size_t)len, "run %d/%d", r->no, h->total);
}

/* microseconds, rounded as dump and trace-cmd round a timestamp */
static const char *fmt_us(uint64_t ns, const char *pre, char *buf, int len)
{
	unsigned long long us = (ns + 500) / 1000;

	snprintf(buf, (size_t)len, "%s%llu.%06llu", pre, us / 1000000ULL, us % 1000000ULL);
	return buf;
}

const char *tui_fmt_ts(const struct tui_state *st, uint64_t ts, char *buf, int len)
{
	uint64_t t0 = tui_t0(st);

	/* nothing is before the first event, but say so rather than wrap */
	return ts >= t0 ? fmt_us(ts - t0, "", buf, len) : fmt_us(t0 - ts, "-", buf, len);
}

const char *tui_fmt_abs(uint64_t ts, char *buf, int len)
{
	return fmt_us(ts, "@", buf, len);
}

const char *tui_fmt_dur(uint64_t ns, char *buf, int len)
{
	if (ns >= 10000000000ULL)
		snprintf(buf, (size_t)len, "%llus", (unsigned long long)(ns / 1000000000ULL));
	else if (ns >= 1000000000ULL)
		snprintf(buf, (size_t)len, "%.2fs", ns / 1e9);
	else if (ns >= 1000000ULL)
		snprintf(buf, (size_t)len, "%.3gms", ns / 1e6);
	else if (ns >= 1000ULL)
		snprintf(buf, (size_t)len, "%.3gus", ns / 1e3);
	else
		snprintf(buf, (size_t)len, "%lluns", (unsigned long long)ns);
	return buf;
}

static void tui_zoom(struct tui_state *st, int in)
{
	uint64_t w = (uint64_t)tui_axis_cols(st->cols);
	uint64_t span = st->t_last - st->t_first;
	long col = tui_ts_col(st, st->cursor);

	if (in) {
		if (st->ns_per_col <= TUI_MIN_NS_PER_COL) {
			tui_message(st, "zoomed in as far as it goes (1us per column)");
			return;
		}
		st->ns_per_col /= 2;
	} else {
		if (st->ns_per_col * w > span * 2) {
			tui_message(st, "the whole recording is on screen");
			return;
		}
		st->ns_per_col *= 2;
	}
	if (st->ns_per_col < TUI_MIN_NS_PER_COL)
		st->ns_per_col = TUI_MIN_NS_PER_COL;
	/* keep the cursor in the same column */
	if (col < 0 || col >= (long)w)
		col = (long)w / 2;
	uint64_t back = (uint64_t)col * st->ns_per_col;

	st->origin = st->cursor > back ? st->cursor - back : 0;
}

static void tui_switch(struct tui_state *st, int id)
{
	const struct view_ops *v = tui_view(id);

	if (!v)
		return;
	if (st->view != VIEW_HELP)
		st->prev_view = st->view;
	st->view = id;
	if (v->enter)
		v->enter(st);
}

/* L: the longest reclaim stall or compaction run of any node (of any
 * run), selected, with the cursor at its start and the axis zoomed
 * around it. */
static void tui_longest_stall(struct tui_state *st)
{
	static const enum lane_id kinds[] = { LANE_RECLAIM, LANE_COMPACT };
	const struct lane_span *best = NULL;
	enum lane_id best_k = LANE_RECLAIM;
	int best_nid = 0;
	int64_t best_off = 0;
	char d[32];

	for (int r = 0; r < tui_nruns(st); r++) {
		const struct tui_data *td = tui_run_data(st, r);
		const struct lanes *l = td ? td->lanes : NULL;

		for (int nid = 0; l && nid < lanes_nnodes(l); nid++)
			for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
				const struct lane *ln = &lanes_node(l, nid)->lane[kinds[k]];

				for (int i = 0; i < ln->n; i++)
					if (!best || ln->spans[i].end - ln->spans[i].start >
						     best->end - best->start) {
						best = &ln->spans[i];
						best_k = kinds[k];
						best_nid = nid;
						best_off = td->off;
					}
			}
	}
	if (!best) {
		tui_message(st, "no stall in this recording");
		return;
	}
	uint64_t a = (uint64_t)((int64_t)best->start + best_off);
	uint64_t b = (uint64_t)((int64_t)best->end + best_off);

	tui_select(st, a, b);
	tui_zoom_to(st, a, b);
	tui_set_cursor(st, a);
	/* the timeline then selects its lane and describes it */
	st->focus_lane = best_nid * LANE_NR + (int)best_k;
	tui_message(st, "longest %s: %s pid %d", best_k == LANE_RECLAIM ? "stall" : "compaction",
		    tui_fmt_dur(best->end - best->start, d, sizeof(d)), best->pid);
}

/* { and }: the start of the run before or after the cursor's (from a
 * gap: the run before it, or after it), the axis showing it whole when
 * it fits, else zoomed to it. */
static void tui_jump_run(struct tui_state *st, int dir)
{
	const struct tui_hist *h = st->hist;
	const struct tui_run *r;
	int to = -1;
	uint64_t w = (uint64_t)tui_axis_cols(st->cols), shown = st->ns_per_col * w;
	const char *base;

	if (!h || h->n < 2) {
		tui_message(st, "one run: { and } go from run to run of a host's history");
		return;
	}
	if (dir > 0) {
		for (int i = st->run + 1; i < h->n && to < 0; i++)
			if (h->run[i].has_events)
				to = i;
	} else {
		for (int i = st->gap >= 0 ? st->run : st->run - 1; i >= 0 && to < 0; i--)
			if (h->run[i].has_events)
				to = i;
	}
	if (to < 0) {
		tui_message(st, "%s run of the history (%d shown)", dir > 0 ? "the last" : "the first",
			    h->n);
		return;
	}
	r = &h->run[to];
	if (r->last - r->first > shown) {
		tui_zoom_to(st, r->first, r->last);
	} else if (tui_ts_col(st, r->first) < 0 || tui_ts_col(st, r->last) >= (long)w) {
		uint64_t mid = r->first + (r->last - r->first) / 2;

		st->origin = mid > shown / 2 ? mid - shown / 2 : 0;
	}
	tui_set_cursor(st, r->first);
	base = strrchr(r->name, '/');
	tui_message(st, "run %d of %d: %s", r->no, h->total, base ? base + 1 : r->name);
}

static unsigned tui_default(struct tui_state *st, enum tui_action a)
{
	uint64_t page = st->ns_per_col * (uint64_t)tui_axis_cols(st->cols);

	switch (a) {
	case ACT_LEFT:
		tui_set_cursor(st, st->cursor > st->ns_per_col ? st->cursor - st->ns_per_col : 0);
		break;
	case ACT_RIGHT:
		tui_set_cursor(st, st->cursor + st->ns_per_col);
		break;
	case ACT_PAGE_UP:
		tui_set_cursor(st, st->cursor > page ? st->cursor - page : 0);
		break;
	case ACT_PAGE_DOWN:
		tui_set_cursor(st, st->cursor + page);
		break;
	case ACT_HOME:
		tui_set_cursor(st, st->t_first);
		break;
	case ACT_END:
		tui_set_cursor(st, st->t_last);
		break;
	case ACT_ZOOM_IN:
	case ACT_ZOOM_OUT:
		tui_zoom(st, a == ACT_ZOOM_IN);
		break;
	case ACT_NEXT_VIEW:
	case ACT_PREV_VIEW: {
		int n = VIEW_HELP, cur = st->view == VIEW_HELP ? st->prev_view : st->view;

		tui_switch(st, (cur + (a == ACT_NEXT_VIEW ? 1 : n - 1)) % n);
		break;
	}
	case ACT_HELP:
		tui_switch(st, st->view == VIEW_HELP ? st->prev_view : VIEW_HELP);
		break;
	case ACT_CLEAR:
		st->has_sel = 0;
		st->filter[0] = '\0';
		tui_message(st, "selection and filter cleared");
		break;
	case ACT_MARK_START:
		tui_select(st, st->cursor, st->has_sel && st->sel_end >= st->cursor ?
			   st->sel_end : st->cursor);
		tui_message(st, "range starts here; ] marks its end, Esc clears");
		break;
	case ACT_MARK_END:
		tui_select(st, st->has_sel && st->sel_start <= st->cursor ?
			   st->sel_start : st->cursor, st->cursor);
		tui_message(st, "range marked; 4 shows its stalls, handoffs and free pages");
		break;
	case ACT_LONGEST:
		tui_longest_stall(st);
		break;
	case ACT_PREV_RUN:
	case ACT_NEXT_RUN:
		tui_jump_run(st, a == ACT_NEXT_RUN ? 1 : -1);
		break;
	case ACT_REFRESH:
		break;
	case ACT_QUIT:
		return TUI_HANDLED | TUI_QUIT;
	case ACT_NONE:
		return 0;
	default:
		if (tui_action_view(a) < 0)
			return TUI_HANDLED;	/* meaningless in this view */
		tui_switch(st, tui_action_view(a));
		break;
	}
	return TUI_HANDLED | TUI_REDRAW;
}

unsigned tui_apply(struct tui_state *st, enum tui_action a)
{
	const struct view_ops *v = tui_view(st->view);
	unsigned r = 0;

	st->message[0] = '\0';
	if (v && v->handle)
		r = v->handle(st, a);
	if (!(r & TUI_HANDLED))
		r |= tui_default(st, a);
	tui_track_run(st);
	return r;
}

unsigned tui_click(struct tui_state *st, int y, int x)
{
	const struct view_ops *v = tui_view(st->view);

	st->message[0] = '\0';
	if (y == 0) {
		for (int i = 0; i < VIEW_NR; i++)
			if (x >= st->tab_x[i][0] && x < st->tab_x[i][1]) {
				tui_switch(st, i);
				return TUI_HANDLED | TUI_REDRAW;
			}
		return TUI_HANDLED;
	}
	if (y >= 1 && y <= tui_body_rows(st) && v && v->click) {
		unsigned r = v->click(st, y - 1, x);

		tui_track_run(st);
		return r;
	}
	return TUI_HANDLED;
}

/*
 * The top bar: " mmscope FILE ", the tabs, "?help" at the right. The
 * tabs come first: every one is drawn whole. The file's name gives way
 * first (cut with '~', then left out), then the tabs but the current
 * one shrink to their keys.
 */
static void tui_build_title(struct tui_state *st, struct canvas *c)
{
	const char *base = st->path ? strrchr(st->path, '/') : NULL;
	char tabs[VIEW_HELP][32], keys[VIEW_HELP][16], name[64];
	int x, full = 0, shortw = 0, avail = c->cols - 6, brief, room;

	base = base ? base + 1 : st->path ? st->path : "";
	for (int i = 0; i < VIEW_HELP; i++) {
		char kb[16];
		const char *key = tui_key_name(tui_view_keys[i], kb, sizeof(kb));

		snprintf(tabs[i], sizeof(tabs[i]), "%s %s", key, tui_view(i)->name);
		snprintf(keys[i], sizeof(keys[i]), "%s", key);
		full += 1 + (int)strlen(tabs[i]);
		shortw += 1 + (int)strlen(i == st->view ? tabs[i] : keys[i]);
	}
	/* " mmscope " and a space before ?help at least */
	brief = full + 10 > avail;
	room = avail - (brief ? shortw : full) - 10;
	if ((int)strlen(base) <= room - 1)
		snprintf(name, sizeof(name), "%s ", base);
	else if (room >= 8)
		snprintf(name, sizeof(name), "%.*s~ ", room - 2, base);
	else
		name[0] = '\0';
	canvas_fill_row(c, 0, ' ', AT_TITLE);
	x = canvas_printf(c, 0, 0, AT_TITLE, " mmscope %s", name);
	for (int i = 0; i < VIEW_HELP; i++) {
		int cur = i == st->view;

		x += canvas_put(c, 0, x, AT_TITLE, " ");
		st->tab_x[i][0] = x;
		x += canvas_put(c, 0, x, cur ? AT_TAB : AT_TITLE,
				brief && !cur ? keys[i] : tabs[i]);
		st->tab_x[i][1] = x;
	}
	canvas_put(c, 0, c->cols - 6, st->view == VIEW_HELP ? AT_TAB : AT_TITLE, " ?help");
	st->tab_x[VIEW_HELP][0] = c->cols - 5;
	st->tab_x[VIEW_HELP][1] = c->cols;
}

/* Several runs: at the right the run the cursor is in and how it began,
 * or the gap it is in; before it, when there is room, the run's trigger
 * or stop and its window. The run's words are shortened before they are
 * cut. */
static void tui_build_status_run(struct tui_state *st, struct canvas *c, int x)
{
	const char *stop = st->data ? st->data->stop_line : "";
	const char *win = st->data ? st->data->window_line : "";
	int y = c->rows - 1, room = c->cols - x - 3;
	char run[240], right[480];

	for (int brief = 0; brief < 3; brief++) {
		tui_run_status(st, brief, run, sizeof(run));
		if ((int)strlen(run) <= room)
			break;
	}
	snprintf(right, sizeof(right), "%s", run);
	if (st->gap < 0) {	/* the run's own words, as they fit */
		const char *more[2] = { win, stop };

		for (int i = 0; i < 2; i++) {
			char t[sizeof(right)];
			int n;

			if (!*more[i])
				continue;
			n = snprintf(t, sizeof(t), "%s  %s", more[i], right);
			if (n > 0 && n <= room && (size_t)n < sizeof(t))
				memcpy(right, t, (size_t)n + 1);
		}
	}
	if (right[0]) {
		int w = (int)strlen(right) + 1;

		canvas_put(c, y, x + 2 < c->cols - w ? c->cols - w : x + 2, AT_STATUS, right);
	}
}

static void tui_build_status(struct tui_state *st, struct canvas *c)
{
	char ts[32], zoom[32], a[32], b[32], d[32];
	int y = c->rows - 1, x;

	canvas_fill_row(c, y, ' ', AT_STATUS);
	x = canvas_printf(c, y, 0, AT_STATUS, " %s s  %s/col", tui_fmt_ts(st, st->cursor, ts, sizeof(ts)),
			  tui_fmt_dur(st->ns_per_col, zoom, sizeof(zoom)));
	if (st->has_sel) {
		char sel[128];
		int rest = (st->filter[0] ? 3 + (int)strlen(st->filter) : 0) +
			   (st->message[0] ? 2 + (int)strlen(st->message) : 0);

		snprintf(sel, sizeof(sel), "  sel %s-%s (%s)",
			 tui_fmt_ts(st, st->sel_start, a, sizeof(a)),
			 tui_fmt_ts(st, st->sel_end, b, sizeof(b)),
			 tui_fmt_dur(st->sel_end - st->sel_start, d, sizeof(d)));
		/* no number is cut: the range's ends give way to what follows */
		if (x + (int)strlen(sel) + rest > c->cols)
			snprintf(sel, sizeof(sel), "  sel %s", d);
		x += canvas_printf(c, y, x, AT_STATUS, "%s", sel);
	}
	if (st->filter[0])
		x += canvas_printf(c, y, x, AT_STATUS, "  /%s", st->filter);
	if (st->message[0])
		x += canvas_printf(c, y, x, AT_STATUS, "  %s", st->message);
	if (st->hist) {
		tui_build_status_run(st, c, x);
		return;
	}
	/* at the right: the trigger or stop of the file, then the window
	 * or the live session's state; the trigger gives way when both do
	 * not fit */
	const char *stop = !st->live && st->data ? st->data->stop_line : "";
	char right[240];

	snprintf(right, sizeof(right), "%s%s%s", stop, *stop && st->live_status ? "  " : "",
		 st->live_status ? st->live_status : "");
	if (*stop && st->live_status && x + 2 + (int)strlen(right) + 1 > c->cols)
		snprintf(right, sizeof(right), "%s", st->live_status);
	if (right[0]) {
		int w = (int)strlen(right) + 1;

		canvas_put(c, y, x + 2 < c->cols - w ? c->cols - w : x + 2, AT_STATUS, right);
	}
}

void tui_build_screen(struct tui_state *st, struct canvas *c)
{
	struct canvas body;
	const struct view_ops *v = tui_view(st->view);

	canvas_clear(c);
	tui_track_run(st);
	if (st->rows != c->rows || st->cols != c->cols) {
		/* the axis keeps the time it showed: its scale follows the width */
		if (st->cols > 0 && st->cols != c->cols) {
			uint64_t shown = st->ns_per_col * (uint64_t)tui_axis_cols(st->cols);

			st->ns_per_col = shown / (uint64_t)tui_axis_cols(c->cols);
			if (st->ns_per_col < TUI_MIN_NS_PER_COL)
				st->ns_per_col = TUI_MIN_NS_PER_COL;
		}
		st->rows = c->rows;
		st->cols = c->cols;
		tui_set_cursor(st, st->cursor);	/* keep it on a resized axis */
	}
	canvas_init(&body, tui_body_rows(st), c->cols);
	if (v && v->build)
		v->build(st, &body);
	canvas_blit(c, &body, 1, 0);
	canvas_release(&body);
	tui_build_title(st, c);
	tui_build_status(st, c);
}

void tui_state_release(struct tui_state *st)
{
	for (int id = 0; id < VIEW_NR; id++) {
		if (st->priv[id] && tui_views[id]->priv_free)
			tui_views[id]->priv_free(st->priv[id]);
		st->priv[id] = NULL;
	}
}
