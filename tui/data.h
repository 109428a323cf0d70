/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What `mmscope tui` builds in its one streaming pass over a recording:
 * the analysis models (src/analysis.h), among them the time-indexed lanes
 * the timeline draws (src/model-lanes.h). Views read it; nothing in it
 * prints or draws.
 */
#ifndef MMSCOPE_TUI_DATA_H
#define MMSCOPE_TUI_DATA_H

#include <stdint.h>

struct analysis;
struct findings;
struct lanes;
struct td_index;

struct tui_data {
	uint64_t first_ts, last_ts;
	/* the recording's first event, where first_ts is a window's start:
	 * the zero of the times shown (0: first_ts) */
	uint64_t rec_first_ts;
	uint64_t events;
	struct analysis *an;
	const struct lanes *lanes;	/* analysis_lanes(an) */
	/* findings_build(an) once at load; NULL live (the findings view
	 * builds its own as the models grow) */
	struct findings *findings;
	int borrowed;			/* an belongs to a live session */
	struct td_index *index;		/* pages indexed by the pass, or NULL */
	/* what the events view lists: the --since/--until window (0 and
	 * UINT64_MAX: everything) */
	uint64_t view_lo, view_hi;
	/* with a window: the window analysed and the recording's span, for
	 * the status line ("" without one) */
	char window_line[112];
	/* the trigger that made a flight file and the stop, when the file
	 * says something the command's exit does not ("" otherwise: a run
	 * whose command exited, or a file without the keys), for the status
	 * line; trigger_ts the trigger's trace time for the timeline's mark
	 * (has_trigger_ts 0: none) */
	char stop_line[112];
	uint64_t trigger_ts;
	int has_trigger_ts;
	/* where its times sit on the screen's time line (several runs of a
	 * host's history, tui_hist): screen time = trace time + off; 0 when
	 * one run is shown */
	int64_t off;
	struct inputs *own_in;		/* tui_data_load*(path): the inputs it opened */
};

/* Called now and then during the pass: bytes of event data read of the
 * total, and the time stamp reached. */
typedef void (*tui_progress_fn)(void *ctx, uint64_t done, uint64_t total, uint64_t ts);

/*
 * One pass over a run the scope selected (inputs_select), through the
 * input layer (inputs_run_analysis): a recording of one file with
 * progress and its pages indexed for the events view; one of several
 * files (switch-output parts) as one set, without either. NULL with
 * *err; *bad_scope (may be NULL) as analysis_run_scoped() sets it.
 */
struct inputs;
struct inputs_sel;
struct tui_data *tui_data_load_sel(const struct inputs *in, const struct inputs_sel *sel,
				   tui_progress_fn progress, void *ctx, char **err,
				   int *bad_scope);
/* The recording at path alone (its one run), the same way. */
struct tui_data *tui_data_load(const char *path, tui_progress_fn progress, void *ctx,
			       char **err);
/* The same for a scope (--since/--until: the view spans the window;
 * NULL: all). */
struct analysis_scope;
struct tui_data *tui_data_load_scoped(const char *path, const struct analysis_scope *scope,
				      tui_progress_fn progress, void *ctx, char **err,
				      int *bad_scope);
void tui_data_free(struct tui_data *d);

/*
 * A host's history as the TUI shows it (src/history.h): the runs the
 * scope selected, in time order, each with its pass, on one time line,
 * the screen's: screen time = trace time + the run's off (its domain's
 * offset on the history's time line, all shifted alike so that no time
 * is below 0). Between two runs a gap, not recorded, with why the one
 * ended and how the next began. Incidents inside another run are not
 * among them (inputs_select): that run holds their events.
 *
 * Times on screen count from zero: the history's first event when
 * several runs are shown (as --since counts over runs), the run's first
 * event when one is (--run N, or a history of one run).
 */
struct td_file;
struct td_set;

struct tui_run {
	struct tui_data *data;
	int hrun;		/* its index in inputs' hist.run */
	int no;			/* its number in the host's history, from 1 */
	const char *name;	/* the recording's name (the inputs') */
	char began[96];		/* "restart", "trigger oom" */
	char ended[160];	/* "the command exited", "a signal (SIGTERM)" */
	int has_events;		/* first, last: its events read, in screen time */
	uint64_t first, last;
	/* the gap before it (after the run before it here), in screen time,
	 * and the report's line for it (report-history.h) */
	int has_gap;
	uint64_t gap_from, gap_to;
	char *gap_text;
	/* its files, for the events view: opened on first use (given:
	 * the caller's, not closed here) */
	struct td_file *tf;
	struct td_set *set;
	int opened, given;
	char *open_err;
};

struct tui_hist {
	const struct inputs *in;
	struct tui_run *run;
	int n;
	int total;		/* runs in the host's history (incidents too) */
	uint64_t zero;		/* the screen time of 0 s */
};

/* The history of the n selected runs with their passes (data[k] of
 * sel[k], taken over). */
struct tui_hist *tui_hist_new(const struct inputs *in, const struct inputs_sel *sel, int n,
			      struct tui_data **data);
void tui_hist_free(struct tui_hist *h);
/* Run k's files as the events view reads them (a file, or several as
 * one set): 0, or -1 with *err (kept: asked again, the same error). */
int tui_hist_files(struct tui_hist *h, int k, struct td_file **tf, struct td_set **set,
		   const char **err);
/* The run (index in h->run) holding screen time t, or the one before
 * the gap holding it (*gap: the run after that gap, else -1); before
 * the first run, the first. Runs without events hold no time. */
int tui_hist_run_at(const struct tui_hist *h, uint64_t t, int *gap);

/* Live mode: the models of a live session (src/live.h), read as they
 * grow; tui_data_live_update() after each live_poll(). */
struct live;
struct tui_data *tui_data_live(struct live *l);
void tui_data_live_update(struct tui_data *d, struct live *l);

#endif
