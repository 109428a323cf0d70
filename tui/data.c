// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The initial pass of `mmscope tui`: analysis_run() streams the
 * recording once into the models, reports its progress, and indexes the
 * pages it reads so the events view can seek without a pass of its own.
 */
#include "config.h"
#include "data.h"
#include "analysis.h"
#include "findings.h"
#include "live.h"
#include "run-stop.h"
#include "tracedat-read.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Pages per index entry: 1/16 of the pages, ~1.5 MB for 2 GB of them. */
#define TUI_INDEX_EVERY 16

/* "trigger oom at 0.873 s, then command exit", "stopped: filesystem
 * full": as the report's header says it, in one short line */
static void tui_data_stop(struct tui_data *d)
{
	struct run_stop st;
	int n = 0;
	size_t sz = sizeof(d->stop_line);

	run_stop_parse2(&st, analysis_private_meta(d->an), analysis_last_meta(d->an));
	d->stop_line[0] = '\0';
	d->has_trigger_ts = st.has_trigger && st.has_ns;
	d->trigger_ts = st.ns;
	if (st.has_trigger) {
		n = snprintf(d->stop_line, sz, "trigger %s", st.name ? st.name :
			     st.kind ? st.kind : "-");
		if (st.has_ns && n >= 0 && (size_t)n < sz)
			n += snprintf(d->stop_line + n, sz - (size_t)n, " at %.3f s",
				      (double)(int64_t)(st.ns - d->rec_first_ts) / 1e9);
		if (st.then && n >= 0 && (size_t)n < sz)
			snprintf(d->stop_line + n, sz - (size_t)n, ", then %s",
				 run_stop_word(st.then));
	} else if (st.stop && strcmp(st.stop, "command-exit")) {
		snprintf(d->stop_line, sz, "stopped: %s", run_stop_text(&st, 1));
	}
	run_stop_release(&st);
}

/* The figures of the pass, from its models. */
static void tui_data_fill(struct tui_data *d)
{
	const struct analysis_info *in = analysis_info(d->an);

	d->first_ts = in->first_ts;
	d->rec_first_ts = in->first_ts;	/* a window leaves it the recording's */
	d->last_ts = in->last_ts;
	if (in->windowed && in->since_ts > d->first_ts)	/* the view spans the window */
		d->first_ts = in->since_ts;
	d->view_lo = in->windowed ? in->since_ts : 0;
	d->view_hi = in->windowed ? in->until_ts : UINT64_MAX;
	d->events = in->events;
	if (in->windowed) {	/* as the report's header states it, in seconds
				 * from the recording's first event as every
				 * time of the TUI */
		uint64_t from, to, t0 = in->first_ts;
		char rec[48];

		analysis_interval(in, &from, &to);
		if (in->rec_last_known)
			snprintf(rec, sizeof(rec), "0..%.3f s", (double)(in->rec_last_ts - t0) / 1e9);
		else
			snprintf(rec, sizeof(rec), "from 0 s, not read past the window");
		if (in->events)
			snprintf(d->window_line, sizeof(d->window_line),
				 "window %.3f..%.3f s (%.3f s), recording %s",
				 (double)(from - t0) / 1e9, (double)(to - t0) / 1e9,
				 (double)(to - from) / 1e9, rec);
		else
			snprintf(d->window_line, sizeof(d->window_line),
				 "window: no event, recording %s", rec);
	}
	d->lanes = analysis_lanes(d->an);
	d->index = analysis_take_index(d->an);
	d->findings = findings_build(d->an);
	tui_data_stop(d);
}

struct tui_data *tui_data_load(const char *path, tui_progress_fn progress, void *ctx,
			       char **err)
{
	return tui_data_load_scoped(path, NULL, progress, ctx, err, NULL);
}

struct tui_data *tui_data_load_scoped(const char *path, const struct analysis_scope *scope,
				      tui_progress_fn progress, void *ctx, char **err,
				      int *bad_scope)
{
	struct analysis_opts o;
	struct tui_data *d;

	analysis_opts_default(&o);
	o.progress = progress;
	o.progress_ctx = ctx;
	o.index_every = TUI_INDEX_EVERY;
	if (scope)
		o.scope = *scope;
	if (progress)
		progress(ctx, 0, 0, 0);
	d = xcalloc(1, sizeof(*d));
	d->an = analysis_run_scoped(path, &o, err, bad_scope);
	if (!d->an) {
		free(d);
		return NULL;
	}
	tui_data_fill(d);
	return d;
}

struct tui_data *tui_data_load_files(const char *const *paths, int n, const char *name,
				     const struct analysis_scope *scope, char **err,
				     int *bad_scope)
{
	struct analysis_opts o;
	struct tui_data *d = xcalloc(1, sizeof(*d));

	analysis_opts_default(&o);
	if (scope)
		o.scope = *scope;
	d->an = analysis_run_files(paths, n, name, &o, err, bad_scope);
	if (!d->an) {
		free(d);
		return NULL;
	}
	tui_data_fill(d);
	return d;
}

struct tui_data *tui_data_live(struct live *l)
{
	struct tui_data *d = xcalloc(1, sizeof(*d));

	d->an = live_analysis(l);
	d->lanes = analysis_lanes(d->an);
	d->borrowed = 1;
	d->view_hi = UINT64_MAX;
	tui_data_live_update(d, l);
	return d;
}

void tui_data_live_update(struct tui_data *d, struct live *l)
{
	d->first_ts = live_first_ts(l);
	d->last_ts = live_horizon(l) > d->first_ts ? live_horizon(l) : d->first_ts;
	d->events = analysis_info(d->an)->events;
}

void tui_data_free(struct tui_data *d)
{
	if (!d)
		return;
	if (!d->borrowed)
		analysis_free(d->an);
	td_index_free(d->index);
	findings_free(d->findings);
	free(d);
}
