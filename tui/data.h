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
};

/* Called now and then during the pass: bytes of event data read of the
 * total, and the time stamp reached. */
typedef void (*tui_progress_fn)(void *ctx, uint64_t done, uint64_t total, uint64_t ts);

/* One pass over the recording at path. NULL with *err set on failure. */
struct tui_data *tui_data_load(const char *path, tui_progress_fn progress, void *ctx,
			       char **err);
/* The same for a scope (--since/--until: the view spans the window;
 * NULL: all); *bad_scope as analysis_run_scoped() sets it. */
struct analysis_scope;
struct tui_data *tui_data_load_scoped(const char *path, const struct analysis_scope *scope,
				      tui_progress_fn progress, void *ctx, char **err,
				      int *bad_scope);
/* Several files of one recording (analysis_run_files: no index, no
 * progress; a scope as for one file); name is what the title calls it. */
struct tui_data *tui_data_load_files(const char *const *paths, int n, const char *name,
				     const struct analysis_scope *scope, char **err,
				     int *bad_scope);
void tui_data_free(struct tui_data *d);

/* Live mode: the models of a live session (src/live.h), read as they
 * grow; tui_data_live_update() after each live_poll(). */
struct live;
struct tui_data *tui_data_live(struct live *l);
void tui_data_live_update(struct tui_data *d, struct live *l);

#endif
