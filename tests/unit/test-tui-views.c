// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the TUI without a terminal: the canvas, the key table
 * and the help view generated from it, the shared time axis, and the
 * view builders over real fixtures (samples/, found through top_srcdir).
 * Nothing here links ncurses.
 */
#include "config.h"
#include "tap.h"
#include "tui.h"
#include "data.h"
#include "analysis.h"
#include "keys.h"
#include "tracedat-read.h"
#include "model-lanes.h"
#include "findings.h"
#include "cgmap.h"
#include "kill-dossier-lines.h"
#include "model-oom.h"

#include <stdlib.h>
#include <string.h>

static int canvas_has(const struct canvas *c, const char *s)
{
	for (int y = 0; y < c->rows; y++)
		if (strstr(canvas_row(c, y), s))
			return 1;
	return 0;
}

static void test_canvas(void)
{
	struct canvas c;

	canvas_init(&c, 3, 10);
	is_int(canvas_put(&c, 0, 7, AT_LABEL, "abcdef"), 3, "canvas_put clips at the right edge");
	is_str(canvas_row(&c, 0), "       abc", "clipped text lands in place");
	is_int(canvas_attr_at(&c, 0, 8), AT_LABEL, "attribute ids are stored per cell");
	canvas_put(&c, 5, 0, AT_NORMAL, "x");
	canvas_put(&c, -1, 0, AT_NORMAL, "x");
	canvas_set(&c, 1, -3, 'x', AT_NORMAL);
	ok(!strchr(canvas_row(&c, 1), 'x'), "writes outside the canvas are dropped");
	canvas_clear(&c);
	is_int(canvas_wrap(&c, 0, 0, 10, 3, AT_DIM, "one two three four five"), 3,
	       "canvas_wrap breaks at blanks");
	is_str(canvas_row(&c, 1), "three four", "second wrapped row");
	canvas_release(&c);
}

static void test_keys(void)
{
	int n, dup = 0;
	const struct tui_key_row *rows = tui_keys(&n);
	char buf[16];

	ok(n == ACT_NR - 1, "one key table row per action (%d rows)", n);
	is_int(tui_key_action('q'), ACT_QUIT, "q quits");
	is_int(tui_key_action(TK_LEFT), ACT_LEFT, "Left moves the cursor");
	is_int(tui_key_action('+'), ACT_ZOOM_IN, "+ zooms in");
	is_int(tui_key_action('\r'), ACT_ENTER, "CR is Enter");
	is_int(tui_key_action('5'), ACT_VIEW_EVENTS, "digits switch views");
	is_int(tui_key_action('Z'), ACT_NONE, "unbound keys do nothing");
	for (int i = 0; i < n; i++)
		for (int k = 0; k < n; k++)
			if (i != k && (rows[i].key1 == rows[k].key1 ||
				       (rows[i].key2 != TK_NONE &&
					(rows[i].key2 == rows[k].key1 || rows[i].key2 == rows[k].key2))))
				dup++;
	is_int(dup, 0, "no key is bound twice");
	is_int(tui_key_parse("right"), TK_RIGHT, "script: right");
	is_int(tui_key_parse("PgDn"), TK_PGDN, "script: PgDn, any case");
	is_int(tui_key_parse("tab"), TK_TAB, "script: tab");
	is_int(tui_key_parse("+"), '+', "script: a character is itself");
	is_int(tui_key_parse("write_folio"), TK_NONE, "script: other words are typed");
	is_str(tui_key_name(' ', buf, sizeof(buf)), "Space", "key names for the help");
}

static void test_state(void)
{
	struct tui_state st;

	tui_state_init(&st, 1000000000ULL, 2000000000ULL);
	st.cols = 80;
	tui_state_fit(&st);
	ok(tui_ts_col(&st, st.t_last) < tui_axis_cols(80), "fit: the whole recording is on the axis");
	is_int(tui_ts_col(&st, st.t_first), 0, "fit: the start is column 0");
	is_int(tui_apply(&st, ACT_RIGHT) & TUI_REDRAW, TUI_REDRAW, "Right asks for a redraw");
	is_int(st.cursor, st.t_first + st.ns_per_col, "Right moves by one column");
	tui_apply(&st, ACT_END);
	is_int(st.cursor, st.t_last, "End goes to the last event");
	tui_apply(&st, ACT_RIGHT);
	is_int(st.cursor, st.t_last, "the cursor stays inside the recording");
	uint64_t w = st.ns_per_col;

	tui_apply(&st, ACT_ZOOM_IN);
	is_int(st.ns_per_col, w / 2, "+ halves the time per column");
	ok(tui_ts_col(&st, st.cursor) >= 0 && tui_ts_col(&st, st.cursor) < tui_axis_cols(80),
	   "the cursor stays on screen after zooming");
	tui_apply(&st, ACT_VIEW_EVENTS);
	is_int(st.view, VIEW_EVENTS, "5 shows the events");
	tui_apply(&st, ACT_HELP);
	is_int(st.view, VIEW_HELP, "? shows the help");
	tui_apply(&st, ACT_QUIT);
	is_int(st.view, VIEW_EVENTS, "q in the help goes back");
	tui_apply(&st, ACT_NEXT_VIEW);
	is_int(st.view, VIEW_FINDINGS, "Tab: the findings after the events");
	tui_apply(&st, ACT_NEXT_VIEW);
	is_int(st.view, VIEW_MEMCG, "Tab: the memcg view after the findings");
	tui_apply(&st, ACT_NEXT_VIEW);
	is_int(st.view, VIEW_TIMELINE, "Tab wraps around to the timeline");
	is_int(tui_apply(&st, ACT_QUIT) & TUI_QUIT, TUI_QUIT, "q quits elsewhere");
	tui_state_release(&st);
}

static void build(struct tui_state *st, struct canvas *c, int rows, int cols)
{
	canvas_release(c);
	canvas_init(c, rows, cols);
	tui_build_screen(st, c);
}

static void test_help(void)
{
	struct tui_state st;
	struct canvas c = { 0 };
	int n, missing = 0;
	const struct tui_key_row *rows = tui_keys(&n);

	tui_state_init(&st, 0, 1000000);
	st.view = VIEW_HELP;
	build(&st, &c, 80, 100);	/* tall enough for the whole table */
	for (int i = 0; i < n; i++)
		if (!canvas_has(&c, rows[i].help)) {
			printf("# help lacks: %s\n", rows[i].help);
			missing++;
		}
	is_int(missing, 0, "the help view shows every row of the key table");
	build(&st, &c, 24, 80);
	ok(canvas_has(&c, "(Down: more)"), "a short help says there is more");
	canvas_release(&c);
	tui_state_release(&st);
}

/*
 * Everything the view table (tui/view-list.h) generates agrees with it:
 * ids, ops, the key of each view and its tab in the top bar, and every
 * view (help included) builds and handles keys on an empty state, with
 * its own state made and freed by tui_state_init/release (ASan: no leak).
 */
static void test_view_table(void)
{
	static const struct {
		int id;
		const char *name;
		int key;
	} rows[] = {
#define X(_, id, name, key, help) { VIEW_##id, #name, key },
		TUI_VIEW_TABLE(X, _)
#undef X
	};
	int n = (int)(sizeof(rows) / sizeof(rows[0])), bad = 0;
	struct tui_state st;
	struct canvas c = { 0 };

	is_int(n, VIEW_HELP, "the help comes after the views of the table");
	tui_state_init(&st, 0, 1000000);
	build(&st, &c, 24, 120);
	for (int i = 0; i < n; i++) {
		const struct view_ops *v = tui_view(rows[i].id);
		char tab[40];

		snprintf(tab, sizeof(tab), "%c %s", rows[i].key, rows[i].name);
		if (rows[i].id != i || !v || strcmp(v->name, rows[i].name) ||
		    tui_key_action(rows[i].key) != tui_view_action(i) ||
		    !strstr(canvas_row(&c, 0), tab)) {
			printf("# view %d (%s) disagrees with the table\n", i, rows[i].name);
			bad++;
		}
	}
	is_int(bad, 0, "ids, ops, keys and tabs come from the view table");
	is_int(tui_view_action(VIEW_HELP), ACT_HELP, "? shows the help");
	bad = 0;
	for (int id = 0; id < VIEW_NR; id++) {
		tui_apply(&st, tui_view_action(id));
		if (st.view != id)
			bad++;
		build(&st, &c, 24, 80);
		tui_apply(&st, ACT_DOWN);
		tui_apply(&st, ACT_UP);
		build(&st, &c, 24, 80);
	}
	is_int(bad, 0, "each view's action shows it; each builds on an empty state");
	tui_click(&st, 0, st.tab_x[VIEW_SWAP][0]);
	is_int(st.view, VIEW_SWAP, "a click on a tab shows its view");
	canvas_release(&c);
	tui_state_release(&st);
	ok(!st.priv[VIEW_EVENTS] && !st.priv[VIEW_TIMELINE], "release frees the views' own state");
}

static struct td_file *open_sample(const char *name)
{
	const char *top = getenv("top_srcdir");
	char path[4096];
	char *err = NULL;
	struct td_file *tf;

	snprintf(path, sizeof(path), "%s/samples/%s", top ? top : ".", name);
	tf = td_open(path, &err);
	if (!tf)
		printf("# %s: %s\n", path, err);
	free(err);
	return tf;
}

/* st on the events view of d, the pass over tf */
static void events_state(struct tui_state *st, struct td_file *tf, struct tui_data *d)
{
	tui_state_init(st, d->first_ts, d->last_ts);
	st->tf = tf;
	st->tep = td_tep(tf);
	st->data = d;
	st->view = VIEW_EVENTS;
}

static void test_events(void)
{
	struct td_file *tf = open_sample("memcg-swap-6.18.dat");
	struct tui_data *d;
	struct tui_state st;
	struct canvas c = { 0 };
	char *err = NULL;
	int bad = 0;

	if (!ok(tf != NULL, "open the memcg-swap fixture"))
		return;
	d = tui_data_load(td_path(tf), NULL, NULL, &err);
	ok(d && d->events == 125866, "the initial pass reads all 125866 events");
	events_state(&st, tf, d);
	build(&st, &c, 24, 80);
	ok(canvas_has(&c, "events at 0.000000 s (@489.820750)"),
	   "events view starts at the first event (0 s; @ its trace time)");
	ok(canvas_has(&c, "0.110827 [000] anon-touch-9079 mm_vmscan_memcg_reclaim_begin"),
	   "80 columns: brief lines, timed from the first event");
	build(&st, &c, 24, 160);
	ok(canvas_has(&c, "      anon-touch-9079    [000]      0.110827: "
			  "vmscan:mm_vmscan_memcg_reclaim_begin: order=0"),
	   "160 columns: lines as dump prints them, timed from the first event");
	tui_apply(&st, ACT_DOWN);
	tui_apply(&st, ACT_DOWN);
	is_int(st.cursor, 489931587039ULL, "Down moves the cursor to the next event");
	snprintf(st.filter, sizeof(st.filter), "write_folio");
	build(&st, &c, 24, 80);
	for (int y = 2; y < 20; y++)
		if (!strstr(canvas_row(&c, y), "write_folio"))
			bad++;
	is_int(bad, 0, "a name filter keeps only matching events");
	snprintf(st.filter, sizeof(st.filter), "vmscan !lru_ !write_folio");
	build(&st, &c, 24, 80);
	bad = 0;
	for (int y = 2; y < 20; y++)
		if (!strstr(canvas_row(&c, y), "memcg_reclaim_"))
			bad++;
	is_int(bad, 0, "!NAME hides events");
	snprintf(st.filter, sizeof(st.filter), "cpu=1");
	build(&st, &c, 24, 80);
	ok(canvas_has(&c, "- none"), "cpu=1: this fixture has no events on CPU 1");
	snprintf(st.filter, sizeof(st.filter), "bogus=1");
	build(&st, &c, 24, 80);
	ok(strstr(st.message, "unknown filter 'bogus'") != NULL, "a bad filter says why");
	st.filter[0] = '\0';
	tui_apply(&st, ACT_END);
	build(&st, &c, 24, 80);
	ok(canvas_has(&c, "events at 1.067355 s (@490.888104)"), "End shows the last events");
	canvas_release(&c);
	tui_state_release(&st);
	tui_data_free(d);
	td_close(tf);
}

/* Presses jump, then page 100 times and line 200 times, redrawing after
 * each key as the TUI does: how often the cursor left [lo, hi]. */
static int keys_outside(struct tui_state *st, struct canvas *c, enum tui_action jump,
			enum tui_action page, enum tui_action line, uint64_t lo, uint64_t hi)
{
	int out = 0;

	tui_apply(st, jump);
	build(st, c, 24, 80);
	for (int i = 0; i < 300; i++) {
		tui_apply(st, i < 100 ? page : line);
		build(st, c, 24, 80);
		out += st->cursor < lo || st->cursor > hi;
	}
	return out;
}

/*
 * With --since/--until the events view lists the window only: paging and
 * moving line by line stop at the window's first and last events (found
 * here by a walk of the file), never beyond.
 */
static void test_events_window(void)
{
	struct td_file *tf = open_sample("memcg-swap-6.18.dat");
	struct analysis_scope sc = { 0 };
	uint64_t lo = 490200000000ULL, hi = 490500000000ULL, first = 0, last = 0;
	struct td_cursor *cur;
	struct td_event ev;
	struct tui_data *d;
	struct tui_state st;
	struct canvas c = { 0 };
	char *err = NULL;
	int out = 0;

	if (!tf)
		return;
	/* the window's first and last events, from the file itself */
	cur = td_cursor_new(tf, -1, &err);
	while (cur && td_cursor_next(cur, &ev, &err) > 0)
		if (ev.ts >= lo && ev.ts <= hi) {
			if (!first)
				first = ev.ts;
			last = ev.ts;
		}
	td_cursor_free(cur);
	analysis_time_parse("@490.2", &sc.since);
	analysis_time_parse("@490.5", &sc.until);
	d = tui_data_load_scoped(td_path(tf), &sc, NULL, NULL, &err, NULL);
	if (!ok(d && first && last > first, "a window of the memcg-swap fixture loads"))
		return;
	events_state(&st, tf, d);
	build(&st, &c, 24, 80);
	out = keys_outside(&st, &c, ACT_END, ACT_PAGE_DOWN, ACT_DOWN, lo, hi);
	is_int(st.cursor, last, "End, then down, stops at the window's last event");
	out += keys_outside(&st, &c, ACT_HOME, ACT_PAGE_UP, ACT_UP, lo, hi);
	is_int(st.cursor, first, "Home, then up, stops at the window's first event");
	is_int(out, 0, "the cursor never left the window");
	canvas_release(&c);
	tui_state_release(&st);
	tui_data_free(d);
	td_close(tf);
}

struct progress_seen {
	int calls, backwards;
	uint64_t done, total;
};

static void progress_cb(void *ctx, uint64_t done, uint64_t total, uint64_t ts)
{
	struct progress_seen *p = ctx;

	(void)ts;
	if (done < p->done)
		p->backwards++;
	p->calls++;
	p->done = done;
	p->total = total;
}

/* The initial pass reports its progress in bytes up to the whole, and
 * leaves a page index the events view seeks with: the screens it builds
 * at far cursors equal those of a view that indexes on its own. */
static void test_progress_index(void)
{
	struct td_file *tf = open_sample("memcg-swap-6.18.dat");
	struct progress_seen p = { 0 };
	struct tui_state a, b;
	struct canvas ca = { 0 }, cb = { 0 };
	struct tui_data *d, *d2;
	char *err = NULL;
	int same = 1;

	if (!tf)
		return;
	d = tui_data_load(td_path(tf), progress_cb, &p, &err);
	d2 = tui_data_load(td_path(tf), NULL, NULL, &err);
	if (!ok(d && d2, "load twice"))
		return;
	ok(p.calls >= 3 && !p.backwards, "progress: %d calls, never backwards", p.calls);
	ok(p.total > 100000 && p.done == p.total, "progress: ends at the whole (%llu bytes)",
	   (unsigned long long)p.total);
	ok(d->index && td_index_size(d->index) > 0, "the pass indexed %zu pages",
	   d->index ? td_index_size(d->index) : 0);
	td_index_free(d2->index);
	d2->index = NULL;	/* the view indexes by itself */
	tui_state_init(&a, d->first_ts, d->last_ts);
	tui_state_init(&b, d->first_ts, d->last_ts);
	a.tf = b.tf = tf;
	a.tep = b.tep = td_tep(tf);
	a.data = d;
	b.data = d2;
	a.view = b.view = VIEW_EVENTS;
	for (int i = 0; i <= 8; i++) {
		uint64_t t = d->first_ts + (d->last_ts - d->first_ts) / 8 * (uint64_t)(8 - i);

		tui_set_cursor(&a, t);
		tui_set_cursor(&b, t);
		build(&a, &ca, 24, 160);
		build(&b, &cb, 24, 160);
		for (int y = 0; y < 24; y++)
			if (strcmp(canvas_row(&ca, y), canvas_row(&cb, y)))
				same = 0;
	}
	ok(same, "events view: the pass's index gives the same screens at 9 cursors");
	canvas_release(&ca);
	canvas_release(&cb);
	tui_state_release(&a);
	tui_state_release(&b);
	tui_data_free(d);
	tui_data_free(d2);
	td_close(tf);
	free(err);
}

static void test_placeholders(void)
{
	struct tui_state st;
	struct canvas c = { 0 };

	tui_state_init(&st, 0, 1000);
	st.view = VIEW_SWAP;
	build(&st, &c, 24, 80);
	ok(canvas_has(&c, "Needs swap slot"), "swap view says what it needs");
	st.view = VIEW_ZSWAP;
	build(&st, &c, 24, 80);
	ok(canvas_has(&c, "Needs zswap"), "zswap view says what it needs");
	st.view = VIEW_MEMCG;
	build(&st, &c, 24, 80);
	ok(canvas_has(&c, "Needs the samples of mmscope record --cgroups"),
	   "memcg view says what it needs");
	canvas_release(&c);
	tui_state_release(&st);
}

static void feed(struct lanes *l, enum rec_type t, uint64_t ms, int pid)
{
	struct record r;

	memset(&r, 0, sizeof(r));
	r.type = t;
	r.ts = ms * 1000000ULL;
	r.pid = pid;
	lanes_add(l, &r);
}

static void test_lanes(void)
{
	struct lanes *l = lanes_new();
	struct record r;
	uint32_t cnt[10];
	const struct lanes_node *n0, *n1;

	memset(&r, 0, sizeof(r));
	r.type = REC_KSWAPD_WAKE, r.ts = 1000000000ULL, r.pid = 51, r.wake.nid = 0, r.wake.order = 9;
	lanes_add(l, &r);
	r.ts = 1200000000ULL;	/* a re-balance inside the episode */
	lanes_add(l, &r);
	r.type = REC_RECLAIM_BEGIN, r.ts = 1500000000ULL, r.pid = 100;
	r.rbegin.kind = RK_DIRECT, r.rbegin.nid = -1, r.rbegin.order = 2;
	lanes_add(l, &r);
	feed(l, REC_RECLAIM_END, 1600, 100);
	feed(l, REC_RECLAIM_END, 1650, 101);	/* no begin: ignored */
	feed(l, REC_COMPACT_BEGIN, 1700, 100);
	memset(&r, 0, sizeof(r));
	r.type = REC_COMPACT_FINISHED, r.ts = 1750000000ULL, r.pid = 100, r.cfin.nid = 1;
	lanes_add(l, &r);
	feed(l, REC_COMPACT_END, 1800, 100);
	memset(&r, 0, sizeof(r));
	r.type = REC_KSWAPD_SLEEP, r.ts = 2000000000ULL, r.pid = 51, r.sleep.nid = 0;
	lanes_add(l, &r);
	r.type = REC_KCOMPACTD_WAKE, r.ts = 2100000000ULL, r.pid = 39, r.wake.nid = 0, r.wake.order = 9;
	lanes_add(l, &r);
	feed(l, REC_COMPACT_BEGIN, 2150, 39);	/* kcompactd's own run: its lane */
	feed(l, REC_COMPACT_END, 2200, 39);
	memset(&r, 0, sizeof(r));
	r.type = REC_KCOMPACTD_SLEEP, r.ts = 2300000000ULL, r.pid = 39, r.sleep.nid = 0;
	lanes_add(l, &r);
	memset(&r, 0, sizeof(r));	/* killed from pid 200, the victim is 201 */
	r.type = REC_OOM, r.ts = 2500000000ULL, r.pid = 200, r.oom.kind = OOM_VICTIM;
	r.oom.victim = 201;
	lanes_add(l, &r);
	feed(l, REC_RECLAIM_BEGIN, 2900, 300);	/* still open at the end */
	for (int i = 0; i < 3; i++) {
		memset(&r, 0, sizeof(r));
		r.type = REC_ZONE, r.ts = (uint64_t)(1000 + 500 * i) * 1000000ULL;
		r.zone.node = 0, r.zone.zone = i == 1 ? "DMA" : "Normal";
		r.zone.managed = i == 1 ? 100 : 1000;
		r.zone.free = 500 - 100 * i, r.zone.min = 10, r.zone.low = 20, r.zone.high = 30;
		lanes_add(l, &r);
	}
	lanes_finish(l, 3000000000ULL);
	n0 = lanes_node(l, 0);
	n1 = lanes_node(l, 1);
	is_int(lanes_nnodes(l), 2, "two nodes (the compaction run finished on node 1)");
	is_int(n0->lane[LANE_KSWAPD].n, 1, "one kswapd episode despite the re-balance");
	is_int(n0->lane[LANE_KSWAPD].spans[0].end - n0->lane[LANE_KSWAPD].spans[0].start,
	       1000000000ULL, "kswapd awake from its wake to its sleep");
	is_int(n0->lane[LANE_KCOMPACTD].n, 1, "one kcompactd span");
	is_int(n0->lane[LANE_KCOMPACTD].spans[0].kind, 1, "kcompactd on an order-9 request");
	is_int(n0->lane[LANE_RECLAIM].n, 2, "a stall, and the one open at the end");
	is_int(n0->lane[LANE_RECLAIM].spans[1].end, 3000000000ULL, "an open stall ends at the end");
	is_int(n1->lane[LANE_COMPACT].n, 1, "the direct compaction run is on node 1");
	is_int(n0->lane[LANE_COMPACT].n, 0, "kcompactd's own run is not a compaction stall");
	is_int(n0->lane[LANE_OOM].n, 1, "one OOM kill");
	is_int(n0->lane[LANE_OOM].spans[0].pid, 201, "the OOM span is the victim's");
	is_int(n0->nsamples, 2, "samples of the largest zone only");
	lanes_cover(&n0->lane[LANE_KSWAPD], -1, 0, 500000000ULL, 10, cnt);
	ok(!cnt[1] && cnt[2] && cnt[3] && cnt[4] && !cnt[5], "cover: kswapd in columns 2-4 of 0.5 s");
	is_int(lanes_find(&n0->lane[LANE_RECLAIM], 1550000000ULL, 1550000000ULL, 0), 0,
	       "find: the stall under the cursor");
	is_int(lanes_find(&n0->lane[LANE_RECLAIM], 2000000000ULL, 2000000000ULL, 0), -1,
	       "find: nothing without slack");
	is_int(lanes_find(&n0->lane[LANE_RECLAIM], 2000000000ULL, 2000000000ULL, 1000000000ULL), 0,
	       "find: the nearest with slack");
	{
		/* the timeline with two nodes at 80x24: both fit, with charts */
		struct tui_data d = { .first_ts = 1000000000ULL, .last_ts = 3000000000ULL, .lanes = l,
				      .view_hi = UINT64_MAX };
		struct tui_state st;
		struct canvas c = { 0 };

		tui_state_init(&st, d.first_ts, d.last_ts);
		st.data = &d;
		build(&st, &c, 24, 80);
		ok(!strncmp(canvas_row(&c, 1), "0 kswapd", 8), "node 0 lanes first");
		ok(canvas_has(&c, "1 compact    ") && canvas_has(&c, "1 free"),
		   "node 1 lanes and chart fit in 80x24");
		ok(canvas_has(&c, "  high     30"), "node 0 chart with its watermarks");
		build(&st, &c, 12, 80);
		ok(strstr(st.message, "nodes 0-0 of 2 fit") != NULL, "a short screen says what is hidden");
		tui_apply(&st, ACT_HOME);
		tui_apply(&st, ACT_NEXT_FLAG);
		ok(strstr(st.message, "OOM kill: victim ") &&
		   strstr(st.message, "(pid 201)") && st.cursor == 2500000000ULL,
		   "n goes to an OOM kill, named by its victim");
		tui_apply(&st, ACT_PREV_FLAG);
		ok(strstr(st.message, "no flagged") != NULL, "N: nothing before it");
		canvas_release(&c);
		tui_state_release(&st);
	}
	lanes_free(l);
}

static struct tui_data *load(const char *rel, struct tui_state *st)
{
	const char *top = getenv("top_srcdir");
	char path[4096];
	char *err = NULL;
	struct tui_data *d;

	snprintf(path, sizeof(path), "%s/%s", top ? top : ".", rel);
	d = tui_data_load(path, NULL, NULL, &err);
	if (!d) {
		printf("# %s: %s\n", path, err);
		free(err);
		return NULL;
	}
	tui_state_init(st, d->first_ts, d->last_ts);
	st->data = d;
	return d;
}

static void test_timeline(void)
{
	struct tui_state st;
	struct canvas c = { 0 };
	struct tui_data *d = load("tests/data/report/global-pressure-early-6.12.dat", &st);

	if (!d) {
		ok(0, "load the global-pressure recording");
		return;
	}
	build(&st, &c, 24, 80);
	ok(strchr(canvas_row(&c, 1), '~') != NULL, "kswapd lane ends in a pickup handoff (~)");
	ok(strchr(canvas_row(&c, 2), 'C') != NULL, "kcompactd lane shows it on a request");
	ok(canvas_has(&c, "high   8508") && canvas_has(&c, "min    5672"),
	   "the chart labels the watermarks");
	ok(canvas_has(&c, "kswapd 1 (handoff: 0 woke, 1 pickup, 0 none)"), "node totals from the model");
	is_int(canvas_attr_at(&c, 1, 0), AT_CURSOR, "the first busy lane is selected");
	tui_apply(&st, ACT_ENTER);
	ok(st.cursor / 1000 == 32894836ULL, "Enter jumps to the episode");
	ok(st.has_sel && st.sel_end - st.sel_start > 4900000000ULL, "and selects its range");
	build(&st, &c, 24, 80);
	ok(canvas_has(&c, "kswapd0 4.96s at 6.347441 order 9"),
	   "the detail line describes it, at its time from the first event");
	tui_apply(&st, ACT_HOME);
	tui_apply(&st, ACT_NEXT_FLAG);
	ok(strstr(st.message, "long") != NULL, "n: the next flagged episode (long)");
	tui_apply(&st, ACT_NEXT_FLAG);
	ok(strstr(st.message, "no flagged") != NULL, "n: no more after it");
	tui_apply(&st, ACT_VIEW_STALLS);
	build(&st, &c, 24, 80);
	ok(canvas_has(&c, "(selection)"), "stalls view works on the selection");
	tui_click(&st, 0, st.tab_x[VIEW_EVENTS][0]);
	is_int(st.view, VIEW_EVENTS, "a click on a tab switches views");
	st.view = VIEW_TIMELINE;
	build(&st, &c, 50, 160);
	ok(canvas_has(&c, "K kswapd awake"), "160x50: the legend fits");
	canvas_release(&c);
	tui_state_release(&st);
	tui_data_free(d);
}

/* Issue 32 item 33 on real recordings: times from the first event (the
 * report's), @T for a trace time; after L the timeline describes the stall
 * L selected, not another in its column; the legend wraps whole items. */
static void test_conventions(void)
{
	struct tui_state st;
	struct canvas c = { 0 };
	struct tui_data *d = load("samples/zswap-6.12.dat", &st);
	char want[160], rel[32], abs[32];
	uint64_t us;

	if (!d) {
		ok(0, "load zswap-6.12");
		return;
	}
	st.tf = open_sample("zswap-6.12.dat");
	st.tep = st.tf ? td_tep(st.tf) : NULL;
	build(&st, &c, 24, 80);
	ok(canvas_has(&c, "0.000000     +0ns") && canvas_has(&c, " 0.000000 s "),
	   "the axis and the cursor start at 0 s: the first event");
	tui_apply(&st, ACT_LONGEST);
	build(&st, &c, 24, 80);
	/* 674 ms by pid 31 (the report's max memcg stall), in a column it
	 * shares with a 14.9 ms stall of pid 172 that began before it */
	us = (st.sel_start - d->first_ts + 500) / 1000;
	snprintf(rel, sizeof(rel), "%llu.%06llu", (unsigned long long)(us / 1000000),
		 (unsigned long long)(us % 1000000));
	snprintf(want, sizeof(want), "-31: 674ms at %s, order 0", rel);
	ok(canvas_has(&c, want), "L: the timeline describes the selected stall (%s)", want);
	ok(!canvas_has(&c, "zswap-fill-172: 14.9ms"), "not the other stall of its column");
	snprintf(want, sizeof(want), " %s s ", rel);
	ok(!strncmp(canvas_row(&c, 23), want, strlen(want)), "the status bar: the cursor at %s s",
	   rel);
	tui_apply(&st, ACT_VIEW_EVENTS);
	build(&st, &c, 24, 80);
	snprintf(want, sizeof(want), "events at %s s (%s)", rel, tui_fmt_abs(st.sel_start, abs,
									      sizeof(abs)));
	ok(canvas_has(&c, want), "events: the cursor from the first event and as @T (%s)", want);
	snprintf(want, sizeof(want), "%s [", rel);
	ok(canvas_has(&c, want), "events: lines timed from the first event too");
	st.view = VIEW_STALLS;
	build(&st, &c, 24, 80);
	snprintf(want, sizeof(want), "stalls from %s to ", rel);
	ok(canvas_has(&c, want), "stalls: the selection from the first event");
	/* the legend at 100 columns: every item whole */
	st.view = VIEW_TIMELINE;
	build(&st, &c, 50, 100);
	ok(canvas_has(&c, "x no handoff") && canvas_has(&c, "! OOM kill") &&
	   canvas_has(&c, "^ off the top"), "100 columns: the legend's items whole");
	build(&st, &c, 50, 60);
	ok(canvas_has(&c, "x no handoff") && canvas_has(&c, "! OOM kill"),
	   "60 columns: the legend wraps");
	canvas_release(&c);
	tui_state_release(&st);
	td_close(st.tf);
	tui_data_free(d);
}

/* Issue 31 item 3: a flight file's trigger in the status line and as a
 * T on the timeline's axis, at its time from the first event
 * (flight-oom-6.18: trigger_ns 24363.672975, first event 24362.800220);
 * a file without a trigger has neither. */
static void test_trigger(void)
{
	struct tui_state st;
	struct canvas c = { 0 };
	struct tui_data *d = load("tests/data/perfetto/flight-oom-6.18.dat", &st);
	const char *axis;
	long col;

	if (!d) {
		ok(0, "load flight-oom-6.18");
		return;
	}
	build(&st, &c, 24, 80);
	ok(strstr(canvas_row(&c, 23), "trigger oom at 0.873 s, then command exit") != NULL,
	   "the status line names the trigger, its time and what stopped the run");
	is_int(d->has_trigger_ts, 1, "the trigger's trace time is known");
	ok(d->trigger_ts == 24363672974720ULL, "trigger_ts is the metadata's trigger_ns");
	col = tui_ts_col(&st, d->trigger_ts);
	axis = NULL;
	for (int y = 0; y < 23; y++)
		if (strstr(canvas_row(&c, y), "+0ns"))
			axis = canvas_row(&c, y);
	ok(axis && col >= 0 && axis[TUI_LABEL_W + col] == 'T',
	   "a T on the axis at the trigger's column (%ld)", col);
	canvas_release(&c);
	tui_state_release(&st);
	tui_data_free(d);

	d = load("tests/data/report/global-pressure-early-6.12.dat", &st);
	if (!d) {
		ok(0, "load global-pressure-early-6.12");
		return;
	}
	build(&st, &c, 24, 80);
	ok(!strstr(canvas_row(&c, 23), "trigger") && !strstr(canvas_row(&c, 23), "stopped"),
	   "no trigger or stop in the status line of a run whose command exited");
	is_int(d->has_trigger_ts, 0, "and no trigger time");
	canvas_release(&c);
	tui_state_release(&st);
	tui_data_free(d);
}

static void test_stalls(void)
{
	struct tui_state st;
	struct canvas c = { 0 };
	struct tui_data *d = load("samples/memcg-swap-6.18.dat", &st);

	if (!d) {
		ok(0, "load memcg-swap");
		return;
	}
	st.tf = open_sample("memcg-swap-6.18.dat");
	st.tep = st.tf ? td_tep(st.tf) : NULL;
	st.view = VIEW_STALLS;
	build(&st, &c, 24, 80);
	ok(canvas_has(&c, "reclaim stalls: 2180"), "every memcg reclaim stall counted");
	ok(canvas_has(&c, "anon-touch-9079              2180"), "the top task");
	tui_select(&st, d->first_ts, d->first_ts + 1);
	build(&st, &c, 24, 80);
	ok(canvas_has(&c, "no task stalled in this range"), "an empty selection says so");
	canvas_release(&c);
	tui_state_release(&st);
	td_close(st.tf);
	tui_data_free(d);
}

static void test_swap_zswap(void)
{
	struct tui_state st;
	struct canvas c = { 0 };
	struct tui_data *d = load("tests/data/report/global-pressure-early-6.12.dat", &st);

	if (!d) {
		ok(0, "load the global-pressure recording");
		return;
	}
	st.view = VIEW_TIMELINE;
	tui_apply(&st, ACT_NEXT_FLAG);	/* into the kswapd episode */
	st.view = VIEW_SWAP;
	build(&st, &c, 24, 80);
	ok(canvas_has(&c, "/dev/zram0: 512 clusters of 512 slots"), "swap view: the device");
	ok(canvas_has(&c, "free 511  nonfull 1"), "swap view: counts at the cursor");
	ok(canvas_has(&c, " n......"), "swap view: the cluster map");
	ok(canvas_has(&c, "9             105        105          0          105"),
	   "swap view: order 9 allocations and the swpout counter agree");
	tui_state_release(&st);
	tui_data_free(d);
	d = load("samples/zswap-6.12.dat", &st);
	if (!d) {
		ok(0, "load the zswap sample");
		canvas_release(&c);
		return;
	}
	st.view = VIEW_ZSWAP;
	build(&st, &c, 24, 80);
	ok(canvas_has(&c, "max_pool_percent 1"), "zswap view: the pool limit setting");
	ok(canvas_has(&c, "limit    1182"), "zswap view: the limit line");
	ok(canvas_has(&c, "reject_reclaim_fail 3"), "zswap view: rejects by reason");
	canvas_release(&c);
	tui_state_release(&st);
	tui_data_free(d);
}

/* The memcg view on record --cgroups' fixture: the widest cgroup first,
 * Down to the one that hit its 16 MiB limit, its limit line, and the
 * figures at the cursor as the samples give them. */
static void test_memcg(void)
{
	struct tui_state st;
	struct canvas c = { 0 };
	struct tui_data *d = load("tests/data/report/memcgs-6.18.dat", &st);

	if (!d) {
		ok(0, "load the memcgs recording");
		return;
	}
	st.view = VIEW_MEMCG;
	build(&st, &c, 24, 80);
	ok(canvas_has(&c, "memcg 1/4 /mmscope-memcgs  ("), "memcg view: the widest first");
	tui_apply(&st, ACT_DOWN);
	tui_apply(&st, ACT_DOWN);
	build(&st, &c, 24, 80);
	ok(canvas_has(&c, "memcg 3/4 /mmscope-memcgs/small"), "memcg view: Down chooses");
	ok(canvas_has(&c, "limit        ") && canvas_has(&c, "-----"),
	   "memcg view: the 16 MiB limit as a line above the usage");
	tui_apply(&st, ACT_END);
	build(&st, &c, 24, 80);
	ok(canvas_has(&c, "usage 0.1 MiB, limit 16.0 MiB, high -"),
	   "memcg view: at the end, usage and limit; v1 has no high");
	canvas_release(&c);
	tui_state_release(&st);
	tui_data_free(d);
}

/* A span keeps the cgroup of its begin record (open, provisional and
 * closed), within its bit-fields: an order past 31 is 31, a cgroup past
 * LANE_CGROUP_MAX unknown. */
static void test_lane_cgroup(void)
{
	struct lanes *l = lanes_new();
	struct record r = { .type = REC_RECLAIM_BEGIN, .pid = 7, .ts = 100, .cgroup = 5 };
	const struct lane *ln;

	r.rbegin.kind = RK_MEMCG;
	r.rbegin.order = 40;
	lanes_add(l, &r);
	lanes_sync(l, 150);
	ln = &lanes_node(l, 0)->lane[LANE_RECLAIM];
	ok(ln->n == 1 && ln->spans[0].cgroup == 5 && (ln->spans[0].flags & LANE_OPEN) &&
	   ln->spans[0].kind == RK_MEMCG && ln->spans[0].order == 31,
	   "an open stall's provisional span: its begin's cgroup, kind and order (clamped)");
	r = (struct record){ .type = REC_RECLAIM_END, .pid = 7, .ts = 200, .cgroup = 9 };
	r.rend.kind = RK_MEMCG;
	lanes_add(l, &r);
	r = (struct record){ .type = REC_RECLAIM_BEGIN, .pid = 8, .ts = 300,
			     .cgroup = LANE_CGROUP_MAX + 1 };
	r.rbegin.kind = RK_DIRECT;
	r.rbegin.order = -1;
	lanes_add(l, &r);
	lanes_finish(l, 400);
	ln = &lanes_node(l, 0)->lane[LANE_RECLAIM];
	ok(ln->n == 2 && ln->spans[0].cgroup == 5 && !ln->spans[0].flags && ln->spans[0].end == 200,
	   "closed: the begin's cgroup (5), not the end's");
	ok(ln->n == 2 && ln->spans[1].cgroup == 0 && ln->spans[1].order == -1 &&
	   ln->spans[1].kind == RK_DIRECT, "a cgroup past the bound is unknown; order -1 kept");
	lanes_free(l);
}

/* The memcg view's stalls on a recording with record --cgroups samples
 * and the tasks' cgroups (memcg-lane-6.18: 50 memcg stalls in
 * /mmscope-lane/a, 7 in .../b, as trace-cmd shows them: the count is
 * held to trace-cmd for every cgroup by tests/tui/memcg-lane.sh); the
 * lanes' spans name cgroups of the map; unknown said as such. */
static void test_memcg_stalls(void)
{
	struct tui_state st;
	struct canvas c = { 0 };
	struct tui_data *d = load("tests/data/cgroups/memcg-lane-6.18.dat", &st);
	const struct cgmap *map;
	const struct lane *ln;
	int a = 0, b = 0, other = 0;

	if (!d) {
		ok(0, "load the memcg-lane recording");
		return;
	}
	map = analysis_cgmap(d->an);
	ln = &lanes_node(d->lanes, 0)->lane[LANE_RECLAIM];
	for (int i = 0; i < ln->n; i++) {
		int id = (int)ln->spans[i].cgroup - 1;
		const char *p = id >= 0 ? cgmap_path(map, id) : NULL;

		if (p && !strcmp(p, "/mmscope-lane/a"))
			a++;
		else if (p && !strcmp(p, "/mmscope-lane/b"))
			b++;
		else
			other++;
	}
	ok(a == 50 && b == 7 && !other, "lane spans by cgroup: a %d, b %d, other %d", a, b, other);
	st.view = VIEW_MEMCG;
	build(&st, &c, 24, 80);
	ok(canvas_has(&c, "memcg 1/3 /mmscope-lane  (") &&
	   canvas_has(&c, "57 stalls of its tasks and below"), "the parent holds its children's 57");
	tui_apply(&st, ACT_DOWN);
	tui_apply(&st, ACT_DOWN);
	build(&st, &c, 24, 80);
	ok(canvas_has(&c, "memcg 3/3 /mmscope-lane/a") &&
	   canvas_has(&c, "50 stalls of its tasks and below") && canvas_has(&c, "stalls        "),
	   "a: its 50, and their row");
	canvas_release(&c);
	tui_state_release(&st);
	tui_data_free(d);

	d = load("tests/data/report/memcgs-6.18.dat", &st);
	if (!d) {
		ok(0, "load the memcgs recording");
		return;
	}
	st.view = VIEW_MEMCG;
	build(&st, &c, 24, 80);
	ok(canvas_has(&c, "stalls: tasks' cgroups not recorded") && !canvas_has(&c, " stalls of its"),
	   "without the tasks' cgroups: not recorded, no count");
	canvas_release(&c);
	tui_state_release(&st);
	tui_data_free(d);
}

/* Reading lanes while records still come (tui --live): provisional spans
 * for what is open, taken back out by the next record; spans that close
 * out of order are sorted by start. */
/* The findings view over a recording with findings: it lists them, and
 * Enter lands in the view of the evidence at the finding's start. */
static void test_findings(void)
{
	struct tui_state st;
	struct canvas c = { 0 };
	struct tui_data *d = load("tests/data/report/oom-6.18.dat", &st);
	const struct findings *fs;
	uint64_t before;

	if (!d) {
		ok(0, "load oom-6.18");
		return;
	}
	fs = d->findings;
	ok(fs && fs->n == 2, "the data holds the recording's 2 findings (%d)", fs ? fs->n : -1);
	if (!fs || fs->n != 2)
		goto out;
	tui_apply(&st, ACT_VIEW_FINDINGS);
	is_int(st.view, VIEW_FINDINGS, "6 shows the findings view");
	build(&st, &c, 24, 80);
	ok(canvas_has(&c, "critical oom-kill ") && canvas_has(&c, "0.260880"),
	   "the OOM kill is listed first, critical, at 0.260880 s");
	ok(canvas_has(&c, "info     memcg-reclaim-stalls") && canvas_has(&c, "0.265578"),
	   "the memcg stalls are listed with their span");
	ok(canvas_has(&c, "count 1 kill (oom section)"), "the selected one's count");
	tui_apply(&st, ACT_ENTER);
	is_int(st.view, VIEW_TIMELINE, "Enter on oom-kill: the timeline");
	ok(st.cursor == tui_t0(&st) + fs->f[0].t_start_ns, "at the kill's time");
	tui_apply(&st, ACT_VIEW_FINDINGS);
	tui_apply(&st, ACT_DOWN);
	tui_apply(&st, ACT_ENTER);
	is_int(st.view, VIEW_STALLS, "Enter on memcg-reclaim-stalls: the stalls view");
	ok(st.cursor == tui_t0(&st) + fs->f[1].t_start_ns && st.has_sel &&
	   st.sel_end == tui_t0(&st) + fs->f[1].t_end_ns,
	   "at the first stall, the stalls' span selected");
	build(&st, &c, 24, 80);
	ok(canvas_has(&c, "reclaim stalls: 35"), "the stalls view shows the finding's 35 stalls");
	ok(strstr(st.message, "memcg-reclaim-stalls at 0.260103 s") != NULL, "the status line says where");
out:
	canvas_release(&c);
	tui_state_release(&st);
	tui_data_free(d);

	/* a finding with no time: its view opens, the cursor stays */
	d = load("tests/data/report/lossy-6.18.dat", &st);
	if (!d) {
		ok(0, "load lossy-6.18");
		return;
	}
	fs = d->findings;
	ok(fs && fs->n >= 1 && !strcmp(fs->f[0].rule->id, "data-loss") && !fs->f[0].has_t_start,
	   "lossy-6.18: a data-loss finding without a time");
	tui_set_cursor(&st, d->first_ts + (d->last_ts - d->first_ts) / 2);
	before = st.cursor;
	tui_apply(&st, ACT_VIEW_FINDINGS);
	tui_apply(&st, ACT_ENTER);
	is_int(st.view, VIEW_TIMELINE, "Enter on data-loss: the timeline");
	ok(st.cursor == before, "the cursor did not move");
	ok(strstr(st.message, "data-loss: its time is not known") != NULL, "the status line says why");
	tui_state_release(&st);
	tui_data_free(d);
}

/* The kills lane (issue 41): a marker per kill, ! the kernel's or a
 * memcg's OOM killer, k a process; n/N with it selected go from kill to
 * kill, Enter opens the dossier (every line of kill_dossier_lines()), Esc
 * closes it; the findings' oom-kill opens it; a recording without oom
 * events or signals says "not recorded". */
/* A row holding label, then blanks only, then value: a line of the box. */
static int canvas_has_pair(const struct canvas *c, const char *label, const char *value)
{
	for (int y = 0; y < c->rows; y++) {
		const char *l = strstr(canvas_row(c, y), label), *v;

		if (!l || !*label)
			continue;
		for (v = l + strlen(label); *v == ' '; v++)
			;
		if (v > l + strlen(label) && !strncmp(v, value, strlen(value)))
			return 1;
	}
	return 0;
}

static void test_kills(void)
{
	struct tui_state st;
	struct canvas c = { 0 };
	struct tui_data *d = load("tests/data/report/oom-6.18.dat", &st);
	struct kill_dossier kd;
	struct kd_line lines[KD_LINES_MAX];
	int n, all;

	if (!d) {
		ok(0, "load oom-6.18");
		return;
	}
	build(&st, &c, 24, 80);
	ok(canvas_has(&c, "  kills ") && canvas_has(&c, "!"), "oom-6.18: the kills lane, a !");
	/* the lanes: kswapd, kcompactd, reclaim (the first busy), compact, oom, kills */
	tui_apply(&st, ACT_DOWN);
	tui_apply(&st, ACT_DOWN);
	tui_apply(&st, ACT_DOWN);
	tui_apply(&st, ACT_NEXT_FLAG);
	ok(st.cursor == tui_at_trace(&st, oom_model_any(analysis_model(d->an, &oom_model_ops),
							   0)->ts),
	   "n on the kills lane: the cursor at the kill");
	ok(strstr(st.message, "kill at 0.260880 s: memcg-oom, victim anon-touch 14245") != NULL,
	   "and the status line names it (%s)", st.message);
	tui_apply(&st, ACT_NEXT_FLAG);
	ok(strstr(st.message, "no kill after the cursor") != NULL, "n: no kill after it");
	tui_apply(&st, ACT_ENTER);
	build(&st, &c, 40, 100);
	ok(!kill_dossier_get(d->an, 0, &kd), "the dossier of the kill");
	n = kill_dossier_lines(&kd, lines, KD_LINES_MAX);
	all = n > 0;
	for (int i = 0; i < n; i++) {
		if (!canvas_has_pair(&c, lines[i].label, lines[i].value)) {
			printf("# missing: '%s' '%s'\n", lines[i].label, lines[i].value);
			all = 0;
		}
	}
	ok(all, "Enter: the box shows every one of its %d lines, label and value", n);
	ok(canvas_has_pair(&c, "memcg stalls", "18 (0.3 ms)"), "the memcg stalls, in ms");
	ok(canvas_has_pair(&c, "kswapd episodes", "- "), "unknown is -, not 0");
	tui_apply(&st, ACT_CLEAR);
	build(&st, &c, 40, 100);
	ok(!canvas_has(&c, "kill at 0.260880 s (memcg-oom)"), "Esc closes it");
	is_int(st.view, VIEW_TIMELINE, "and stays in the timeline");
	tui_apply(&st, ACT_ENTER);
	tui_apply(&st, ACT_QUIT);
	build(&st, &c, 40, 100);
	ok(!canvas_has(&c, "kill at 0.260880 s (memcg-oom)") && st.view == VIEW_TIMELINE,
	   "q closes it, and does not quit");

	/* the findings' oom-kill: the dossier over the timeline */
	tui_set_cursor(&st, st.t_first);
	tui_apply(&st, ACT_VIEW_FINDINGS);
	tui_apply(&st, ACT_HOME);
	tui_apply(&st, ACT_ENTER);
	build(&st, &c, 40, 100);
	ok(st.view == VIEW_TIMELINE && canvas_has(&c, "kill at 0.260880 s (memcg-oom)") &&
	   canvas_has_pair(&c, "victim", "anon-touch 14245"),
	   "findings: Enter on oom-kill opens its dossier");
	canvas_release(&c);
	tui_state_release(&st);
	tui_data_free(d);

	/* a kill by a process: k, and the dossier names the sender */
	d = load("tests/data/tui/kill-sh-6.18.dat", &st);
	if (!d) {
		ok(0, "load kill-sh-6.18");
		return;
	}
	build(&st, &c, 24, 80);
	ok(canvas_has(&c, "  kills      |                                k"),
	   "kill-sh-6.18: a k at the kill's column, the kills lane selected first");
	ok(canvas_has(&c, "kills 1: OOM 0, by processes 1"), "the kills' totals");
	tui_apply(&st, ACT_NEXT_FLAG);
	tui_apply(&st, ACT_ENTER);
	build(&st, &c, 40, 100);
	ok(canvas_has_pair(&c, "sent by", "sh 1432 "), "the dossier: the sender");
	canvas_release(&c);
	tui_state_release(&st);
	tui_data_free(d);

	/* a recording without oom events or signals */
	d = load("samples/compaction-6.18.dat", &st);
	if (!d) {
		ok(0, "load compaction-6.18");
		return;
	}
	build(&st, &c, 24, 80);
	ok(canvas_has(&c, "not recorded: no oom or signal events"),
	   "compaction-6.18: the kills lane says not recorded");
	canvas_release(&c);
	tui_state_release(&st);
	tui_data_free(d);
}

/*
 * A host's history of two runs (data.h), made by hand from two passes
 * over one real recording, the second placed 2 s later (an offset, as a
 * run of a later boot has): the timeline marks the gap on every lane, the
 * views follow the cursor's run, } and { go from run to run, n and L
 * search both runs. (tests/tui/history.sh runs the same through the
 * input layer on rewritten recordings.)
 */
static void test_history(void)
{
	struct tui_state st;
	struct canvas c = { 0 };
	struct tui_data *d[2];
	struct tui_hist h = { 0 };
	struct tui_run run[2];
	const int64_t off = 2000000000;
	int gap_rows = 0, in_gap;
	uint64_t kill0;

	memset(run, 0, sizeof(run));
	for (int k = 0; k < 2; k++) {
		d[k] = load("tests/data/report/oom-6.18.dat", &st);
		if (!d[k]) {
			ok(0, "load oom-6.18 twice");
			return;
		}
		tui_state_release(&st);
		d[k]->off = k ? off : 0;
		run[k].data = d[k];
		run[k].no = k + 1;
		run[k].name = k ? "b.dat" : "a.dat";
		snprintf(run[k].began, sizeof(run[k].began), "%s", k ? "reboot" : "start");
		snprintf(run[k].ended, sizeof(run[k].ended), "a signal");
		run[k].has_events = 1;
		run[k].first = d[k]->first_ts + (uint64_t)d[k]->off;
		run[k].last = d[k]->last_ts + (uint64_t)d[k]->off;
		run[k].opened = run[k].given = 1;	/* no files: the views say so */
	}
	run[1].has_gap = 1;
	run[1].gap_from = run[0].last;
	run[1].gap_to = run[1].first;
	run[1].gap_text = "not recorded for 1.7 s: run 1 ended: a signal; run 2 began: reboot";
	h.run = run;
	h.n = h.total = 2;
	h.zero = d[0]->rec_first_ts;
	is_int(tui_hist_run_at(&h, run[0].first, &in_gap), 0, "run_at: the first run at its start");
	is_int(tui_hist_run_at(&h, run[1].gap_from + 1, &in_gap), 0, "run_at: in the gap, the run before");
	is_int(in_gap, 1, "run_at: and the gap before run 2");
	is_int(tui_hist_run_at(&h, run[1].last, &in_gap), 1, "run_at: the second run at its end");
	is_int(in_gap, -1, "run_at: no gap there");

	tui_state_init(&st, run[0].first, run[1].last);
	st.hist = &h;
	st.run = -1;
	tui_track_run(&st);
	ok(st.data == d[0] && st.run == 0 && st.gap == -1, "the cursor's run is the first");
	build(&st, &c, 30, 100);
	for (int y = 1; y <= 5; y++) {
		const char *row = canvas_row(&c, y);

		gap_rows += strstr(row, "//////////") != NULL &&
			    canvas_attr_at(&c, y, (int)(strchr(row, '/') - row)) == AT_GAP;
	}
	is_int(gap_rows, 5, "the gap not recorded (/) on the five lanes");
	ok(canvas_has(&c, "run 1 of 2 (began: start)"), "the status bar: run 1 of 2");
	ok(strchr(canvas_row(&c, 5), '!') != strrchr(canvas_row(&c, 5), '!'),
	   "both runs' OOM kills drawn");
	for (int y = 0; y < c.rows; y++) {
		const char *row = canvas_row(&c, y);

		if (strncmp(row, "  kills ", 8))
			continue;
		ok(strchr(row, '!') && strchr(row, '!') != strrchr(row, '!') && strstr(row, "////"),
		   "the kills lane: both runs' kills, the gap not recorded");
		break;
	}

	tui_apply(&st, ACT_NEXT_RUN);
	ok(st.cursor == run[1].first && st.data == d[1] && st.run == 1, "}: the next run's start");
	build(&st, &c, 30, 100);
	ok(canvas_has(&c, "run 2 of 2 (began: reboot)"), "the status bar: run 2, a reboot");
	tui_apply(&st, ACT_VIEW_STALLS);
	build(&st, &c, 30, 100);
	ok(canvas_has(&c, "(whole of run 2)") && canvas_has(&c, "reclaim stalls: 35"),
	   "the stalls view: run 2's 35 stalls");
	tui_apply(&st, ACT_VIEW_TIMELINE);
	tui_apply(&st, ACT_PREV_RUN);
	ok(st.cursor == run[0].first && st.data == d[0], "{: back to the first run");
	tui_apply(&st, ACT_PREV_RUN);
	ok(strstr(st.message, "the first run") != NULL, "{ at the first run says so");

	tui_set_cursor(&st, run[0].last + (run[1].first - run[0].last) / 2);
	tui_track_run(&st);
	is_int(st.gap, 1, "the cursor in the gap");
	build(&st, &c, 30, 100);
	ok(canvas_has(&c, "not recorded 1.") && canvas_has(&c, "run 1 ended: a signal; run 2 began: reboot"),
	   "the status bar: not recorded, how run 1 ended and run 2 began");
	ok(canvas_has(&c, "not recorded for 1.7 s: run 1 ended"), "under the axis: the gap's line");
	tui_apply(&st, ACT_PREV_RUN);
	ok(st.cursor == run[0].first, "{ from the gap: the run before it");
	tui_set_cursor(&st, run[0].last + (run[1].first - run[0].last) / 2);
	tui_apply(&st, ACT_NEXT_RUN);
	ok(st.cursor == run[1].first, "} from the gap: the run after it");

	tui_apply(&st, ACT_HOME);
	tui_apply(&st, ACT_NEXT_FLAG);
	kill0 = st.cursor;
	ok(st.data == d[0] && strstr(st.message, "OOM kill") != NULL, "n: run 1's OOM kill");
	tui_apply(&st, ACT_NEXT_FLAG);
	ok(st.data == d[1] && st.cursor == kill0 + (uint64_t)off, "n again: run 2's, 2 s later");
	tui_apply(&st, ACT_VIEW_FINDINGS);
	tui_apply(&st, ACT_ENTER);
	ok(st.view == VIEW_TIMELINE && st.cursor == kill0 + (uint64_t)off,
	   "run 2's findings: Enter at its kill, on the history's time line");
	build(&st, &c, 30, 100);
	ok(st.data == d[1] && canvas_has(&c, "(memcg-oom) ---") &&
	   canvas_has(&c, "Esc/q close"), "and its dossier, run 2's");
	tui_apply(&st, ACT_PREV_FLAG);
	build(&st, &c, 30, 100);
	ok(st.data == d[0] && st.cursor == kill0 && canvas_has(&c, "(memcg-oom) ---"),
	   "N in the dossier: run 1's kill and its dossier");
	tui_apply(&st, ACT_CLEAR);
	build(&st, &c, 30, 100);
	ok(!canvas_has(&c, "Esc/q close"), "Esc closes the history's dossier");

	tui_apply(&st, ACT_HELP);
	build(&st, &c, 80, 100);
	ok(canvas_has(&c, "next run of the history") && canvas_has(&c, "/ not recorded"),
	   "the help lists { } and the gap's mark with several runs");
	tui_state_release(&st);
	canvas_release(&c);
	tui_data_free(d[0]);
	tui_data_free(d[1]);
}

/* The keys of a history: bound once, beside the table's. */
static void test_run_keys(void)
{
	int n, nr, dup = 0;
	const struct tui_key_row *rows = tui_keys(&n), *runs = tui_run_keys(&nr);

	is_int(tui_key_action('}'), ACT_NEXT_RUN, "} goes to the next run");
	is_int(tui_key_action('{'), ACT_PREV_RUN, "{ goes to the previous run");
	for (int i = 0; i < nr; i++)
		for (int k = 0; k < n; k++)
			if (runs[i].key1 == rows[k].key1 || runs[i].key1 == rows[k].key2)
				dup++;
	is_int(dup, 0, "no history key is bound to another action");
}

static void test_lanes_sync(void)
{
	struct lanes *l = lanes_new();
	const struct lane *ks, *rc;
	struct record r;

	memset(&r, 0, sizeof(r));
	r.type = REC_KSWAPD_WAKE;
	r.ts = 1000000000ULL;
	r.pid = 40;
	lanes_add(l, &r);
	r.type = REC_RECLAIM_BEGIN;
	r.rbegin.kind = RK_DIRECT;
	r.pid = 100;
	r.ts = 1100000000ULL;
	lanes_add(l, &r);
	r.pid = 101;
	r.ts = 1200000000ULL;
	lanes_add(l, &r);
	feed(l, REC_RECLAIM_END, 1300, 101);
	lanes_sync(l, 1500000000ULL);
	ks = &lanes_node(l, 0)->lane[LANE_KSWAPD];
	rc = &lanes_node(l, 0)->lane[LANE_RECLAIM];
	ok(ks->n == 1 && (ks->spans[0].flags & LANE_OPEN) &&
	   ks->spans[0].end == 1500000000ULL, "sync: open kswapd shown up to now");
	ok(rc->n == 2 && rc->spans[0].pid == 100 && (rc->spans[0].flags & LANE_OPEN) &&
	   rc->spans[1].pid == 101 && !(rc->spans[1].flags & LANE_OPEN),
	   "sync: the open stall sorted before the closed one that started later");
	lanes_sync(l, 1600000000ULL);
	ok(ks->n == 1 && ks->spans[0].end == 1600000000ULL, "sync twice: no duplicates");
	feed(l, REC_RECLAIM_END, 1700, 100);
	ok(rc->n == 2 && !(rc->spans[0].flags & LANE_OPEN) && rc->spans[1].pid == 100,
	   "add after sync: provisional spans taken out, the closed one appended");
	r.type = REC_KSWAPD_SLEEP;
	r.sleep.nid = 0;
	r.ts = 1800000000ULL;
	lanes_add(l, &r);
	lanes_sync(l, 1900000000ULL);
	ok(ks->n == 1 && !(ks->spans[0].flags & LANE_OPEN) && ks->spans[0].end == 1800000000ULL,
	   "sync: the kswapd span closed at its sleep");
	ok(rc->n == 2 && rc->spans[0].pid == 100 && rc->spans[1].pid == 101 &&
	   rc->nopen == 0, "sync: closed spans in start order");
	lanes_finish(l, 2000000000ULL);
	ok(rc->n == 2 && ks->n == 1, "finish after sync: nothing doubled");
	lanes_free(l);
}

int main(void)
{
	test_canvas();
	test_keys();
	test_state();
	test_help();
	test_view_table();
	test_events();
	test_events_window();
	test_progress_index();
	test_placeholders();
	test_lanes();
	test_lanes_sync();
	test_timeline();
	test_conventions();
	test_trigger();
	test_stalls();
	test_swap_zswap();
	test_memcg();
	test_lane_cgroup();
	test_memcg_stalls();
	test_findings();
	test_kills();
	test_history();
	test_run_keys();
	return tap_done();
}
