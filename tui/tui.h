/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The state every view of `mmscope tui` shares, and the helpers that map
 * time to columns. The state is plain data: views read it in build() and
 * change it in handle(); the main loop (tui.c) owns it.
 *
 * Time: the cursor and the selection are absolute trace timestamps (ns);
 * a time axis starts at origin and each column covers ns_per_col. On
 * screen a time is in seconds from the recording's first event, as the
 * report prints times and --since reads them; @T is a trace timestamp,
 * as dump and trace-cmd print it and --since @T reads it.
 */
#ifndef MMSCOPE_TUI_H
#define MMSCOPE_TUI_H

#include <stdint.h>

#include "view.h"

struct td_file;
struct td_set;
struct tep_handle;
struct tui_data;

/* The views of the table in view-list.h, then the help (no tab). */
enum tui_view_id {
#define X(_, id, name, key, help) VIEW_##id,
	TUI_VIEW_TABLE(X, _)
#undef X
	VIEW_HELP,
	VIEW_NR
};

/* Width of the lane labels left of a time axis. */
#define TUI_LABEL_W 13

struct tui_hist;

struct tui_state {
	const char *path;
	struct td_file *tf;		/* for the events view; NULL live and in tests */
	struct td_set *set;		/* several files (tf NULL): the events view's */
	struct tep_handle *tep;		/* task names; may be NULL in tests */
	const char *live_status;	/* live mode: the session's state line; a
					 * window: what it is (tui_data) */
	struct live *live;		/* live mode: its recent events */
	struct tui_data *data;		/* what the initial pass built (data.h) */
	/*
	 * Several runs of a host's history (data.h), or NULL: the timeline
	 * draws them all on one time line, the other views the run the
	 * cursor is in (run), whose pass, files and name data, tf, set, tep
	 * and path then are (tui_track_run); gap: the cursor is in the gap
	 * before hist->run[gap], else -1.
	 */
	struct tui_hist *hist;
	int run, gap;
	uint64_t t_first, t_last;	/* of the recording */
	uint64_t cursor;
	uint64_t origin, ns_per_col;
	/* a lane for the timeline to select (node * LANE_NR + lane), set by
	 * a jump to a span elsewhere (L), taken by the timeline; -1 none */
	int focus_lane;
	/* set by a jump to a kill elsewhere (the findings' oom-kill): the
	 * timeline opens the dossier of the kill nearest the cursor */
	int focus_kill;
	int has_sel;
	uint64_t sel_start, sel_end;
	int show_samples;	/* events view: show the mms1 counter-sample lines */
	/* the events filter as typed after '/': the main loop's prompt sets
	 * it and the status bar shows it in every view */
	char filter[128];
	int view, prev_view;
	char message[200];		/* one-shot line in the status bar */
	int rows, cols;			/* screen size */
	int tab_x[VIEW_NR][2];		/* columns of the view tabs in the top bar */
	/*
	 * Each view's own state (selected lane, scroll position, caches),
	 * made by its ops->priv_new() in tui_state_init() and given to its
	 * ops->priv_free() by tui_state_release(); NULL for views without.
	 * Only the view itself looks inside.
	 */
	void *priv[VIEW_NR];
};

/* Also makes each view's own state: every init needs a release. */
void tui_state_init(struct tui_state *st, uint64_t t_first, uint64_t t_last);
void tui_state_release(struct tui_state *st);
/* Zooms out so that the whole recording fits the axis at st->cols. */
void tui_state_fit(struct tui_state *st);

/* Body size of the screen (between the top and bottom bars). */
int tui_body_rows(const struct tui_state *st);
/* Columns of the time axis in a view of width cols. */
int tui_axis_cols(int cols);
/* Column of ts on the axis (may be <0 or >= axis cols). */
long tui_ts_col(const struct tui_state *st, uint64_t ts);
uint64_t tui_col_ts(const struct tui_state *st, long col);
/* Moves the cursor (clamped to the recording) and scrolls the axis so
 * that it stays visible. */
void tui_set_cursor(struct tui_state *st, uint64_t ts);
/* Zooms so that [a, b] fills most of the axis. */
void tui_zoom_to(struct tui_state *st, uint64_t a, uint64_t b);
void tui_select(struct tui_state *st, uint64_t a, uint64_t b);
void tui_message(struct tui_state *st, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The time zero of what the screen shows: the recording's first event
 * (with a --since window too, as the report counts); over several runs
 * the history's first event. */
uint64_t tui_t0(const struct tui_state *st);

/*
 * Screen time and a run's trace time: the state's times (cursor,
 * selection, axis) are the screen's; a run's models and files are in its
 * trace time. Screen time = trace time + the run's data->off (0 for one
 * run). tui_trace_at: the trace time of the run the views show (st->data)
 * at screen time t (0 before its clock's zero); tui_at_trace: back.
 */
int64_t tui_off(const struct tui_state *st);
uint64_t tui_trace_at(const struct tui_state *st, uint64_t t);
uint64_t tui_at_trace(const struct tui_state *st, uint64_t trace);
/* The runs the timeline draws: hist's, or st->data alone (k 0). */
int tui_nruns(const struct tui_state *st);
const struct tui_data *tui_run_data(const struct tui_state *st, int k);
/* Makes the run the cursor is in the one the views show (data, tf,
 * set, tep, path); with no history nothing. */
void tui_track_run(struct tui_state *st);
/* The run's words for the bars: "run 2 of 3 (began: restart)", or in a
 * gap "not recorded 1.9s: run 1 ended: ...; run 2 began: ..." (brief:
 * shorter); "" with no history. */
void tui_run_status(const struct tui_state *st, int brief, char *buf, int len);
/* "6.659251": seconds from tui_t0(), as the report prints times. */
const char *tui_fmt_ts(const struct tui_state *st, uint64_t ts, char *buf, int len);
/* "@496.480001": a trace timestamp, as dump prints it. */
const char *tui_fmt_abs(uint64_t ts, char *buf, int len);
/* "1.25s", "300ms", "12us": a compact duration. */
const char *tui_fmt_dur(uint64_t ns, char *buf, int len);

/* Builds the whole screen (bars and the current view) into c. */
void tui_build_screen(struct tui_state *st, struct canvas *c);
/* A mouse click at screen (y, x): a view tab in the top bar, else the
 * current view's click(). Returns flags. */
unsigned tui_click(struct tui_state *st, int y, int x);
/* Applies one action: view first, then the defaults. Returns flags. */
unsigned tui_apply(struct tui_state *st, enum tui_action a);

const struct view_ops *tui_view(int id);
/* The action that shows view id (ACT_HELP for the help). */
enum tui_action tui_view_action(int id);

#endif
