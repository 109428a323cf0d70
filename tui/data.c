// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The initial pass of `mmscope tui`: the input layer's analysis streams
 * each run once into the models, reports its progress, and indexes the
 * pages it reads so the events view can seek without a pass of its own;
 * the runs of a host's history on one time line (tui_hist).
 */
#include "config.h"
#include "data.h"
#include "analysis.h"
#include "findings.h"
#include "history.h"
#include "inputs.h"
#include "live.h"
#include "report-history.h"
#include "run-stop.h"
#include "tracedat-read.h"
#include "tracedat-set.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Pages per index entry: 1/16 of the pages, ~1.5 MB for 2 GB of them. */
#define TUI_INDEX_EVERY 16

/* "trigger oom at 0.873 s, then command exit", "stopped: filesystem
 * full": as the report's header says it, in one short line; times in
 * seconds from t0 (a trace time of the run's clock: the zero of the
 * screen's times, before the run's first event over several runs) */
static void tui_data_stop(struct tui_data *d, int64_t t0)
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
				      (double)((int64_t)st.ns - t0) / 1e9);
		if (st.then && n >= 0 && (size_t)n < sz)
			snprintf(d->stop_line + n, sz - (size_t)n, ", then %s",
				 run_stop_word(st.then));
	} else if (st.stop && strcmp(st.stop, "command-exit")) {
		snprintf(d->stop_line, sz, "stopped: %s", run_stop_text(&st, 1));
	}
	run_stop_release(&st);
}

/* The window analysed, for the status line: as the report's header
 * states it, in seconds from t0 as every time of the TUI; whole: with
 * the recording's span (one run shown). */
static void tui_data_window(struct tui_data *d, int64_t t0, int whole)
{
	const struct analysis_info *in = analysis_info(d->an);
	uint64_t from, to;
	char rec[48];

	d->window_line[0] = '\0';
	if (!in->windowed)
		return;
	analysis_interval(in, &from, &to);
	if (!whole) {
		if (in->events)
			snprintf(d->window_line, sizeof(d->window_line), "window %.3f..%.3f s",
				 (double)((int64_t)from - t0) / 1e9,
				 (double)((int64_t)to - t0) / 1e9);
		else
			snprintf(d->window_line, sizeof(d->window_line), "window: no event");
		return;
	}
	if (in->rec_last_known)
		snprintf(rec, sizeof(rec), "0..%.3f s",
			 (double)((int64_t)in->rec_last_ts - t0) / 1e9);
	else
		snprintf(rec, sizeof(rec), "from 0 s, not read past the window");
	if (in->events)
		snprintf(d->window_line, sizeof(d->window_line),
			 "window %.3f..%.3f s (%.3f s), recording %s",
			 (double)((int64_t)from - t0) / 1e9, (double)((int64_t)to - t0) / 1e9,
			 (double)(to - from) / 1e9, rec);
	else
		snprintf(d->window_line, sizeof(d->window_line),
			 "window: no event, recording %s", rec);
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
	tui_data_window(d, (int64_t)in->first_ts, 1);
	d->lanes = analysis_lanes(d->an);
	d->index = analysis_take_index(d->an);
	d->findings = findings_build(d->an);
	tui_data_stop(d, (int64_t)d->rec_first_ts);
}

struct tui_data *tui_data_load_sel(const struct inputs *in, const struct inputs_sel *sel,
				   tui_progress_fn progress, void *ctx, char **err,
				   int *bad_scope)
{
	const struct input_rec *rec = &in->rec[in->hist.run[sel->run].in];
	struct analysis_opts o;
	struct tui_data *d;

	analysis_opts_default(&o);
	/* the reader indexes and reports the pages of one file only */
	if (rec->n == 1) {
		o.progress = progress;
		o.progress_ctx = ctx;
		o.index_every = TUI_INDEX_EVERY;
		if (progress)
			progress(ctx, 0, 0, 0);
	}
	d = xcalloc(1, sizeof(*d));
	d->an = inputs_run_analysis(in, sel, &o, err, bad_scope);
	if (!d->an) {
		free(d);
		return NULL;
	}
	tui_data_fill(d);
	return d;
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
	struct inputs *in = xcalloc(1, sizeof(*in));
	char *args[1] = { (char *)path };
	struct inputs_sel *sel = NULL;
	struct tui_data *d = NULL;
	int n = 0;

	inputs_init(in);
	if (scope)
		in->scope = *scope;
	if (!inputs_open(in, args, 1, err) && !inputs_select(in, 0, &sel, &n, err, bad_scope))
		d = tui_data_load_sel(in, &sel[0], progress, ctx, err, bad_scope);
	free(sel);
	if (!d) {
		inputs_release(in);
		free(in);
		return NULL;
	}
	d->own_in = in;		/* the analysis names the recording by its name */
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
	if (d->own_in) {
		inputs_release(d->own_in);
		free(d->own_in);
	}
	free(d);
}

/* ---- a host's history ---- */

/* "restart", "trigger oom": how run i of the history began */
static void tui_run_began(const struct inputs *in, int i, char *buf, size_t len)
{
	const struct history_run *r = &in->hist.run[i];
	const char *meta = in->rec[r->in].first_meta;
	const char *name = (r->began == HIST_BEGAN_TRIGGER || r->flight) && meta ?
			   td_meta_value(meta, "trigger_name") : NULL;

	if (r->rel == HIST_INSIDE)	/* (--run N): it began as a trigger fired in that run */
		snprintf(buf, len, "trigger%s%.*s, inside run %d", name ? " " : "",
			 name ? (int)strcspn(name, "\n") : 0, name ? name : "",
			 r->other - in->hist.host_first[r->host] + 1);
	else
		snprintf(buf, len, "%s%s%.*s", history_began_word(r->began), name ? " " : "",
			 name ? (int)strcspn(name, "\n") : 0, name ? name : "");
}

/* "the command exited", "a signal (SIGTERM)": how it ended */
static void tui_run_ended(const struct inputs *in, int i, char *buf, size_t len)
{
	const struct input_rec *rec = &in->rec[in->hist.run[i].in];
	struct run_stop st;
	const char *t;

	run_stop_parse2(&st, rec->first_meta, rec->last_meta);
	t = run_stop_text(&st, 1);
	if (!t)
		snprintf(buf, len, "not recorded (no stop_reason)");
	else if (st.detail && *st.detail)
		snprintf(buf, len, "%s (%s)", t, st.detail);
	else
		snprintf(buf, len, "%s", t);
	run_stop_release(&st);
}

struct tui_hist *tui_hist_new(const struct inputs *in, const struct inputs_sel *sel, int n,
			      struct tui_data **data)
{
	const struct history *h = &in->hist;
	struct tui_hist *th = xcalloc(1, sizeof(*th));
	int host = h->run[sel[0].run].host;
	int64_t bias = 0, zero = inputs_history_zero(in, host);
	/* --run N, or a history of one run: that run alone in its own trace
	 * time, 0 s its first event (as --since counts for it); else the
	 * history's time line, 0 s its first event, whatever runs the
	 * window selected, no time below 0 */
	int line = !in->scope.run && h->host_n[host] > 1;

	th->in = in;
	th->n = n;
	th->total = h->host_n[host];
	th->run = xcalloc((size_t)n + 1, sizeof(*th->run));
	if (line) {
		if (zero < 0)
			bias = -zero;
		for (int k = 0; k < n; k++) {
			int64_t t = (int64_t)data[k]->first_ts + h->run[sel[k].run].offset;

			if (data[k]->events && t + bias < 0)
				bias = -t;
		}
	}
	th->zero = line ? (uint64_t)(zero + bias) : data[0]->rec_first_ts;
	for (int k = 0; k < n; k++) {
		struct tui_run *r = &th->run[k];
		struct tui_data *d = data[k];
		const struct history_run *hr = &h->run[sel[k].run];
		int64_t from, to;

		r->data = d;
		r->hrun = sel[k].run;
		r->no = sel[k].run - h->host_first[host] + 1;
		r->name = in->rec[hr->in].name;
		tui_run_began(in, sel[k].run, r->began, sizeof(r->began));
		tui_run_ended(in, sel[k].run, r->ended, sizeof(r->ended));
		d->off = line ? hr->offset + bias : 0;
		r->has_events = d->events > 0;
		r->first = (uint64_t)((int64_t)d->first_ts + d->off);
		r->last = (uint64_t)((int64_t)d->last_ts + d->off);
		if (r->last < r->first)
			r->last = r->first;
		if (line) {	/* times from the history's first event */
			int64_t t0 = (int64_t)th->zero - d->off;

			tui_data_window(d, t0, 0);
			tui_data_stop(d, t0);
		}
		if (k && history_prev(h, sel[k].run) == sel[k - 1].run &&
		    history_gap_before(h, sel[k].run, &from, &to) && to + bias > from + bias) {
			struct strbuf sb = STRBUF_INIT;

			r->has_gap = 1;
			r->gap_from = (uint64_t)(from + bias);
			r->gap_to = (uint64_t)(to + bias);
			history_gap_line(in, sel[k].run, &sb);
			/* "--- not recorded for ...\n": the words alone */
			while (sb.len && sb.buf[sb.len - 1] == '\n')
				sb.buf[--sb.len] = '\0';
			r->gap_text = xstrdup(!strncmp(sb.buf, "--- ", 4) ? sb.buf + 4 : sb.buf);
			strbuf_release(&sb);
		}
	}
	return th;
}

void tui_hist_free(struct tui_hist *h)
{
	if (!h)
		return;
	for (int k = 0; k < h->n; k++) {
		struct tui_run *r = &h->run[k];

		tui_data_free(r->data);
		free(r->gap_text);
		free(r->open_err);
		if (!r->given) {
			td_close(r->tf);
			td_set_close(r->set);
		}
	}
	free(h->run);
	free(h);
}

int tui_hist_files(struct tui_hist *h, int k, struct td_file **tf, struct td_set **set,
		   const char **err)
{
	struct tui_run *r = &h->run[k];
	char *e = NULL;

	if (!r->opened) {
		const struct input_rec *rec = &h->in->rec[h->in->hist.run[r->hrun].in];

		r->opened = 1;
		if (rec->n == 1) {
			r->tf = td_open(rec->paths[0], &e);
			if (!r->tf)
				r->open_err = xasprintf("%s: %s", rec->name, e ? e : "cannot read");
		} else if (!(r->set = td_set_open((const char *const *)rec->paths, rec->n, &e)) ||
			   /* the events view formats with file 0's names */
			   td_set_share_cmdlines(r->set, 0, &e)) {
			td_set_close(r->set);
			r->set = NULL;
			r->open_err = xstrdup(e ? e : "cannot read");
		}
		free(e);
	}
	*tf = r->tf;
	*set = r->set;
	*err = r->open_err;
	return r->open_err ? -1 : 0;
}

int tui_hist_run_at(const struct tui_hist *h, uint64_t t, int *gap)
{
	int k = -1;

	*gap = -1;
	/* the last run with events begun at or before t */
	for (int i = 0; i < h->n; i++)
		if (h->run[i].has_events && h->run[i].first <= t)
			k = i;
	if (k < 0) {	/* before the first: the first with events */
		for (int i = 0; i < h->n && k < 0; i++)
			if (h->run[i].has_events)
				k = i;
		return k < 0 ? 0 : k;
	}
	for (int i = k + 1; i < h->n && *gap < 0; i++)
		if (h->run[i].has_gap && t > h->run[k].last && t >= h->run[i].gap_from &&
		    t < h->run[i].gap_to)
			*gap = i;
	return k;
}
