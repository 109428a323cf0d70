// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * View 5, events: the raw events around the time cursor, one line each as
 * `mmscope dump` prints them (src/event-format.c), filterable by event
 * name, CPU, task id, task name and node ('/' then e.g.
 * "write_folio cpu=1 comm=anon", or "!print" to hide the sampler's lines).
 *
 * Memory must stay bounded whatever the length of the recording, so the
 * view keeps a window of at most EV_BEFORE events before the cursor and
 * EV_AFTER at or after it, and fills it with a seek (td_cursor_seek):
 * from a point some time before the cursor it walks forward, keeping a
 * ring of raw copies of the last EV_BEFORE matching events before the
 * cursor (cheap memcpy, no formatting), then up to EV_AFTER from the
 * cursor on, and formats only the window. The seek needs an index of the
 * recording's pages (td_index), built on the first fill: for the bundled
 * recordings every 16th page, by a pass over the pages (a few ms); from
 * EV_BIG_FILE on every 1024th page, decompressing only the chunks that
 * hold those pages (0.13 s for 2 GB of zstd pages, where a pass takes
 * 1.2 s), a seek then walking up to 1024 pages (3-27 ms there, where a
 * pass from the start took up to 3 s).
 *
 * How far back to start: the time of about 2 x EV_BEFORE events at the
 * recording's average rate; when that yields fewer than EV_BEFORE
 * matching events (a burst-free stretch, or a filter that matches
 * little), the start steps back 8 times further, at most EV_BACK_STEPS
 * times, and then the window holds what was found (moving up past its
 * first line fills again from there). Forward, the walk stops after
 * EV_SCAN_MAX events even if fewer than EV_AFTER matched; with no match
 * at all the header says so and Down searches on from where it stopped.
 * The trade-off: with a filter that matches nothing for millions of
 * events, the window can show fewer lines than a full pass would, in
 * exchange for a bound on the time of a redraw (under 50 ms); without a
 * filter, or with one that matches often, the window is exactly what a
 * pass from the start would fill. (On the 2 GB churn recording the
 * slowest redraw, a filter that matches almost nothing, takes 31 ms;
 * a pass from the start took 3-6.5 s.)
 * If the index cannot be built (a damaged file), fills walk from the
 * start as before the seek existed.
 *
 * With --since/--until the list holds the events of that window only
 * (tui_data's view_lo, view_hi): its first and last events are the ends
 * that Up and Down stop at, as the file's are without one.
 *
 * Live (tui --live) there is no file: the window is cut from the last
 * LIVE_RECENT events the session fed, which it keeps as raw copies.
 *
 * Several runs of a history (data.h): the events of the run the cursor
 * is in, from its files; the walk is in the run's trace time, the
 * cursor and the lines' times on the screen's time line (tui_trace_at).
 */
#include "config.h"
#include "tui.h"
#include "data.h"
#include "util.h"
#include "event-format.h"
#include "event-raw.h"
#include "tracedat-read.h"
#include "tracedat-set.h"
#include "live.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define EV_BEFORE 128
#define EV_AFTER 128
/*
 * Budgets of a fill, so that a redraw stays under 50 ms on a loaded 2-core
 * machine (~40 ns an event walked): the steps back walk at most about
 * 2 x EV_BEFORE x 8^3 events, the walk forward EV_SCAN_MAX.
 */
#define EV_BACK_STEPS 3		/* start 8x further back, at most this often */
#define EV_SCAN_MAX (1u << 19)	/* events walked from the cursor on per fill */
#define EV_MAX_NAMES 4
#define EV_DETAIL_ROWS 2
#define EV_WIDE 120		/* narrower screens list the brief form */

struct ev_filter {
	char names[EV_MAX_NAMES][64];	/* substrings of system:name, OR'ed */
	int nnames;
	char nots[EV_MAX_NAMES][64];	/* "!NAME": none of these */
	int nnots;
	int cpu, pid, node;		/* -1: any */
	char comm[32];
	int hide_samples;		/* leave out mms1 counter-sample prints */
};

struct ev_line {
	uint64_t ts;
	char *text;		/* as dump prints it */
	char *brief;		/* "TS [CPU] COMM-PID name: fields", for narrow screens */
};

/* The view's own state (st->priv[VIEW_EVENTS]): the window and its index. */
struct view_events {
	int started;			/* view_events_get() has looked for an index */
	struct event_formatter *fmt;	/* of fmt_tep, made on the first line */
	const struct tep_handle *fmt_tep;
	int top;			/* first line shown */
	int valid;
	uint64_t cursor;		/* the cursor the window was filled for */
	char filter[128];
	int show_samples;		/* st->show_samples the window was filled for */
	struct ev_line *lines;
	int nlines;
	int at;				/* first line at or after the cursor */
	int sel;
	int from_start, to_end;		/* the window reaches the file's ends */
	uint64_t scan_stop;		/* the forward walk ran out of budget here */
	char err[200];
	struct td_index *ix;		/* of ix_tf, for the seeks; NULL: none yet */
	struct td_file *ix_tf;
	int ix_borrowed;		/* ix is the initial pass's (tui_data) */
	struct td_file *tried_tf;	/* the pass's index was offered for it */
	int64_t t0;			/* tui_t0() in the run's trace time: the lines' zero */
	int64_t off;			/* the run's: screen time = trace time + off */
};

/* Parses the filter text; returns 0 or -1 with a message in err. */
static int view_events_parse_filter(const char *text, struct ev_filter *f,
				    char *err, int errlen)
{
	char copy[128], *tok, *save = NULL;

	memset(f, 0, sizeof(*f));
	f->cpu = f->pid = f->node = -1;
	snprintf(copy, sizeof(copy), "%s", text);
	for (tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(tok, '=');
		unsigned long long v;

		if (!eq && tok[0] == '!' && tok[1]) {
			if (f->nnots == EV_MAX_NAMES) {
				snprintf(err, (size_t)errlen, "at most %d excluded names", EV_MAX_NAMES);
				return -1;
			}
			snprintf(f->nots[f->nnots++], sizeof(f->nots[0]), "%s", tok + 1);
			continue;
		}
		if (!eq) {
			if (f->nnames == EV_MAX_NAMES) {
				snprintf(err, (size_t)errlen, "at most %d event names", EV_MAX_NAMES);
				return -1;
			}
			snprintf(f->names[f->nnames++], sizeof(f->names[0]), "%s", tok);
			continue;
		}
		*eq = '\0';
		if (!strcmp(tok, "comm") || !strcmp(tok, "task")) {
			snprintf(f->comm, sizeof(f->comm), "%s", eq + 1);
			continue;
		}
		if (parse_ull(eq + 1, &v) || v > 1U << 30) {
			snprintf(err, (size_t)errlen, "bad number in '%s=%s'", tok, eq + 1);
			return -1;
		}
		if (!strcmp(tok, "cpu"))
			f->cpu = (int)v;
		else if (!strcmp(tok, "pid"))
			f->pid = (int)v;
		else if (!strcmp(tok, "node") || !strcmp(tok, "nid"))
			f->node = (int)v;
		else {
			snprintf(err, (size_t)errlen,
				 "unknown filter '%s' (use NAME, cpu=, pid=, comm=, node=)", tok);
			return -1;
		}
	}
	return 0;
}

static int view_events_node(struct td_event *ev)
{
	struct tep_format_field *f;
	unsigned long long v;

	if (!ev->event)
		return -1;
	f = tep_find_any_field(ev->event, "nid");
	if (!f)
		f = tep_find_any_field(ev->event, "node");
	if (!f || tep_read_number_field(f, ev->data, &v))
		return -1;
	return (int)v;
}

/*
 * The name part of the filter depends on the event id alone: decided once
 * per id (names[id]: 0 not yet, 1 match, 2 not), since formatting and
 * comparing "system:name" for each of millions of events walked made a
 * fill with a rare name 10x slower than the walk.
 */
static int view_events_name_match(const struct ev_filter *f, const struct td_event *ev,
				  unsigned char *names)
{
	char full[160];
	int hit = 0, id = ev->event->id;

	if (names && id >= 0 && id <= 0xffff && names[id])
		return names[id] == 1;
	snprintf(full, sizeof(full), "%s:%s", ev->event->system, ev->event->name);
	for (int i = 0; i < f->nnots && !hit; i++)
		hit = strstr(full, f->nots[i]) != NULL;
	if (hit) {
		hit = 0;	/* an excluded name */
	} else {
		for (int i = 0; i < f->nnames && !hit; i++)
			hit = strstr(full, f->names[i]) != NULL;
		hit = hit || !f->nnames;
	}
	if (names && id >= 0 && id <= 0xffff)
		names[id] = hit ? 1 : 2;
	return hit;
}

/* An mms1 counter-sample line: ftrace:print whose text starts "mms1 "
 * (mmscope-samples(5)); other prints (user markers) stay. */
static int view_events_is_sample(struct td_event *ev)
{
	struct tep_format_field *f;

	if (!ev->event || strcmp(ev->event->name, "print") || strcmp(ev->event->system, "ftrace"))
		return 0;
	/* buf is char buf[] (size 0): the text runs to the record's end */
	f = tep_find_field(ev->event, "buf");
	return f && f->offset >= 0 && ev->record.size >= f->offset + 5 &&
	       !memcmp((const char *)ev->record.data + f->offset, "mms1 ", 5);
}

static int view_events_match(const struct ev_filter *f, struct tep_handle *tep,
			     struct td_event *ev, unsigned char *names)
{
	if (f->cpu >= 0 && ev->cpu != f->cpu)
		return 0;
	if (f->hide_samples && view_events_is_sample(ev))
		return 0;
	if (f->nnames || f->nnots) {
		if (!ev->event || !view_events_name_match(f, ev, names))
			return 0;
	}
	if (f->pid >= 0 || f->comm[0]) {
		int pid = tep_data_pid(tep, &ev->record);

		if (f->pid >= 0 && pid != f->pid)
			return 0;
		if (f->comm[0] && !strstr(tep_data_comm_from_pid(tep, pid), f->comm))
			return 0;
	}
	if (f->node >= 0 && view_events_node(ev) != f->node)
		return 0;
	return 1;
}

/* The instance prefix is kept only when several buffers have data. */
static const char *view_events_buffer_name(struct td_file *tf, int buffer)
{
	const struct td_buffer *b = td_buffer(tf, buffer);
	int with_data = 0;

	for (int i = 0; i < td_nbuffers(tf); i++) {
		const struct td_buffer *o = td_buffer(tf, i);

		for (int c = 0; c < o->ncpus; c++)
			if (o->cpu_size[c]) {
				with_data++;
				break;
			}
	}
	return b && with_data > 1 ? b->name : NULL;
}

/* ev's time is already from the first event (view_events_add_line) */
static char *view_events_brief(struct tep_handle *tep, struct trace_seq *s,
			       struct td_event *ev)
{
	int pid = tep_data_pid(tep, &ev->record);
	unsigned long long us = (ev->ts + 500) / 1000;

	trace_seq_reset(s);
	trace_seq_printf(s, "%llu.%06llu [%03d] %s-%d %s: ", us / 1000000ULL, us % 1000000ULL,
			 ev->cpu,
			 tep_data_comm_from_pid(tep, pid), pid, ev->event ? ev->event->name : "?");
	if (ev->event)
		tep_print_event(tep, s, &ev->record, "%s", TEP_PRINT_INFO);
	while (s->len && s->buffer[s->len - 1] == '\n')
		s->len--;	/* as event_format() */
	trace_seq_terminate(s);
	return xstrdup(s->buffer);
}

/* tf is NULL live: one buffer, no instance prefix. */
static void view_events_add_line(struct view_events *ve, struct tep_handle *tep,
				 struct td_file *tf, struct trace_seq *s, const struct event_raw *r)
{
	struct td_event ev;

	event_raw_event(r, &ev);
	/* dump's line, with the time from the first event as the rest of the
	 * TUI shows it (the header gives the cursor's trace time, @T) */
	ev.ts = (int64_t)ev.ts >= ve->t0 ? (uint64_t)((int64_t)ev.ts - ve->t0) : 0;
	if (r->missed) {
		event_format_lost(s, &ev);
		ve->lines[ve->nlines].ts = r->ts;
		ve->lines[ve->nlines].brief = xstrdup(s->buffer);
		ve->lines[ve->nlines++].text = xstrdup(s->buffer);
	}
	ve->lines[ve->nlines].brief = view_events_brief(tep, s, &ev);
	if (!ve->fmt || ve->fmt_tep != tep) {
		/* the file's tep lives as long as the TUI, the view's state
		 * not longer */
		event_formatter_free(ve->fmt);
		ve->fmt = event_formatter_new(tep);
		ve->fmt_tep = tep;
	}
	event_format(ve->fmt, s, tf ? view_events_buffer_name(tf, r->buffer) : NULL, &ev);
	ve->lines[ve->nlines].ts = r->ts;
	ve->lines[ve->nlines++].text = xstrdup(s->buffer);
}

static void view_events_reset(struct view_events *ve)
{
	for (int i = 0; i < ve->nlines; i++) {
		free(ve->lines[i].text);
		free(ve->lines[i].brief);
	}
	ve->nlines = ve->at = ve->sel = 0;
	ve->from_start = ve->to_end = 0;
	ve->scan_stop = 0;
	ve->err[0] = '\0';
	ve->valid = 0;
}

/*
 * Pages per index entry. The reader's default (16) costs a pass over all
 * pages to build (1.2 s on 2 GB of zstd pages); one in EV_BIG_EVERY is
 * built by decompressing one chunk per entry (0.13 s there) and a seek
 * then walks up to that many pages (a few ms).
 */
#define EV_BIG_FILE (16u << 20)
#define EV_BIG_EVERY 1024

static unsigned int view_events_every(struct td_file *tf)
{
	struct stat sb;

	if (stat(td_path(tf), &sb) || sb.st_size < EV_BIG_FILE)
		return 0;
	return EV_BIG_EVERY;
}

/* The index for the seeks, built on first use; NULL if it cannot be. */
static struct td_index *view_events_index(struct view_events *ve, struct td_file *tf)
{
	char *err = NULL;

	if (ve->ix_tf == tf)
		return ve->ix;
	if (!ve->ix_borrowed)
		td_index_free(ve->ix);
	ve->ix_borrowed = 0;
	ve->ix_tf = tf;
	ve->ix = td_index_new(tf, view_events_every(tf));
	/* a damaged file keeps the pages indexed before the damage */
	if (td_index_build(ve->ix, &err) && !td_index_size(ve->ix)) {
		td_index_free(ve->ix);
		ve->ix = NULL;
	}
	free(err);
	return ve->ix;
}

/*
 * Walk from `start` (0: the first event), over the events of [lo, hi]
 * only: a ring of the last EV_BEFORE matching events before the cursor,
 * then (if *after >= 0 on entry) up to EV_AFTER from the cursor on.
 * Returns the matching events before the cursor; *after, *end (the walk
 * reached the end of the file or hi) and *err set. With *after < 0 the walk stops at the cursor: a step further back
 * keeps what the first walk found from the cursor on.
 */
static long long view_events_walk(struct td_file *tf, struct td_set *set, struct td_index *ix,
				  const struct ev_filter *f, uint64_t start, uint64_t lo,
				  uint64_t hi, uint64_t cursor, struct event_raw *ring, int *after, int *end,
				  uint64_t *stop, char **err)
{
	/* several files: merged in time order, each seeking through the
	 * index the set keeps for it (tracedat-set.h) */
	struct td_set_cursor *scur = set ? td_set_cursor_new(set, start,
							     view_events_every(tf), err) : NULL;
	struct td_cursor *cur = set ? NULL : td_cursor_new_at(tf, -1, ix, start, err);
	unsigned char *names = f->nnames || f->nnots ? xcalloc(0x10000, 1) : NULL;
	unsigned int walked = 0;
	long long before = 0;
	struct td_event ev;
	int got = -1, only_before = *after < 0;

	if (!only_before)
		*after = 0;
	if (!cur && !scur) {
		*end = 1;
		free(names);
		return 0;
	}
	while ((got = scur ? td_set_cursor_next(scur, &ev, err) : td_cursor_next(cur, &ev, err)) > 0) {
		if (ev.ts >= cursor && only_before)
			break;
		if (ev.ts < lo)		/* before the window (a seek lands on its page) */
			continue;
		if (ev.ts > hi) {	/* the window's end is the list's */
			got = 0;
			break;
		}
		/* the budget counts from the cursor on: before it the steps bound it */
		if (ev.ts >= cursor && ++walked > EV_SCAN_MAX) {
			*stop = ev.ts;
			break;
		}
		if (!view_events_match(f, td_tep(tf), &ev, names))
			continue;
		if (ev.ts < cursor)
			event_raw_copy(&ring[before++ % EV_BEFORE], &ev);
		else if (*after < EV_AFTER)
			event_raw_copy(&ring[EV_BEFORE + (*after)++], &ev);
		else
			break;
	}
	if (!only_before)
		*end = got <= 0;
	td_cursor_free(cur);
	td_set_cursor_free(scur);
	free(names);
	return before;
}

/* Formats the window from the walk's ring (the last EV_BEFORE matches
 * before the cursor, then `after` from it on) and frees the ring. */
static void view_events_window(struct view_events *ve, struct tep_handle *tep,
			       struct td_file *tf, struct event_raw *ring, long long before,
			       int after, uint64_t cursor)
{
	struct trace_seq s;

	trace_seq_init(&s);
	for (long long i = before > EV_BEFORE ? before - EV_BEFORE : 0; i < before; i++)
		view_events_add_line(ve, tep, tf, &s, &ring[i % EV_BEFORE]);
	ve->at = ve->nlines;
	for (int i = 0; i < after; i++)
		view_events_add_line(ve, tep, tf, &s, &ring[EV_BEFORE + i]);
	trace_seq_destroy(&s);
	for (int i = 0; i < EV_BEFORE + EV_AFTER; i++)
		event_raw_release(&ring[i]);
	free(ring);
	ve->cursor = (uint64_t)((int64_t)cursor + ve->off);	/* the screen's time */
	ve->sel = ve->at < ve->nlines ? ve->at : ve->nlines - 1;
	ve->valid = 1;
}

/* The events the view lists: those of the window the pass read. */
static uint64_t view_events_lo(const struct tui_state *st)
{
	return st->data ? st->data->view_lo : 0;
}

static uint64_t view_events_hi(const struct tui_state *st)
{
	return st->data && st->data->view_hi ? st->data->view_hi : UINT64_MAX;
}

/* tf, or set (several files: tf is NULL; file 0 formats the events);
 * the events of [lo, hi] only (a --since/--until window) */
static void view_events_fill(struct view_events *ve, struct td_file *tf, struct td_set *set,
			     const struct ev_filter *f, uint64_t cursor, uint64_t span,
			     uint64_t lo, uint64_t hi)
{
	struct event_raw *ring = xcalloc(EV_BEFORE + EV_AFTER, sizeof(*ring));
	struct td_index *ix = set ? NULL : view_events_index(ve, tf);
	long long before = 0;
	int after = 0, end = 0;
	uint64_t start = 0;
	char *err = NULL;

	view_events_reset(ve);
	ve->lines = xreallocarray(ve->lines, 2 * (EV_BEFORE + EV_AFTER), sizeof(*ve->lines));
	if (set)
		tf = td_set_file(set, 0);
	else if (!ix || !span)
		span = UINT64_MAX;	/* without an index a seek walks from the start anyway */
	for (int step = 0; ; step++) {
		int only_before = -1;

		start = cursor > span ? cursor - span : 0;
		if (start < lo)
			start = lo;
		before = view_events_walk(tf, set, ix, f, start, lo, hi, cursor, ring,
					  step ? &only_before : &after, &end, &ve->scan_stop,
					  &err);
		if (err || before >= EV_BEFORE || start == lo || step == EV_BACK_STEPS)
			break;
		span = span > UINT64_MAX / 8 ? UINT64_MAX : span * 8;
	}
	ve->to_end = end;
	ve->from_start = start == lo && before <= EV_BEFORE;
	if (err)
		snprintf(ve->err, sizeof(ve->err), "%s", err);
	free(err);
	view_events_window(ve, td_tep(tf), tf, ring, before, after, cursor);
}

/*
 * Live (no file): the window comes from the session's ring of recent
 * events (src/live.h) with the same filter and layout; it reaches back
 * only as far as the ring does, which the header then says.
 */
static void view_events_fill_live(struct view_events *ve, struct live *live,
				  const struct ev_filter *f, uint64_t cursor)
{
	struct event_raw *ring = xcalloc(EV_BEFORE + EV_AFTER, sizeof(*ring));
	struct tep_handle *tep = live_tep(live);
	long long before = 0;
	int after = 0, n = live_recent_count(live);
	struct td_event ev;

	view_events_reset(ve);
	ve->lines = xreallocarray(ve->lines, 2 * (EV_BEFORE + EV_AFTER), sizeof(*ve->lines));
	for (int i = 0; i < n && after < EV_AFTER && live_recent(live, i, &ev); i++) {
		if (!view_events_match(f, tep, &ev, NULL))
			continue;
		if (ev.ts < cursor)
			event_raw_copy(&ring[before++ % EV_BEFORE], &ev);
		else
			event_raw_copy(&ring[EV_BEFORE + after++], &ev);
	}
	if (n == LIVE_RECENT && live_recent(live, 0, &ev) && cursor < ev.ts)
		snprintf(ve->err, sizeof(ve->err), "live: the last %d events only", LIVE_RECENT);
	ve->from_start = ve->to_end = 1;	/* nothing more to fetch */
	view_events_window(ve, tep, NULL, ring, before, after, cursor);
}

/* The time of about 2 x EV_BEFORE events at the recording's average rate. */
static uint64_t view_events_span(const struct tui_state *st)
{
	const struct tui_data *d = st->data;

	if (!d || !d->events || d->last_ts <= d->first_ts)
		return 0;
	return (d->last_ts - d->first_ts) / d->events * 2 * EV_BEFORE + 1;
}

static void *view_events_priv_new(void)
{
	return xcalloc(1, sizeof(struct view_events));
}

static void view_events_priv_free(void *priv)
{
	struct view_events *ve = priv;

	view_events_reset(ve);
	event_formatter_free(ve->fmt);
	if (!ve->ix_borrowed)
		td_index_free(ve->ix);
	free(ve->lines);
	free(ve);
}

static struct view_events *view_events_get(struct tui_state *st)
{
	struct view_events *ve = st->priv[VIEW_EVENTS];

	/* the index the initial pass filled: no pass of our own (once per
	 * file: another run's file, when the cursor goes there) */
	if (ve->started && ve->tried_tf == st->tf)
		return ve;
	ve->started = 1;
	ve->tried_tf = st->tf;
	if (st->data && st->data->index && st->tf && ve->ix_tf != st->tf &&
	    !td_index_attach(st->data->index, st->tf, NULL)) {
		if (!ve->ix_borrowed)
			td_index_free(ve->ix);
		ve->ix = st->data->index;
		ve->ix_tf = st->tf;
		ve->ix_borrowed = 1;
	}
	return ve;
}

/* Refills the window if the cursor or the filter changed behind our back. */
static void view_events_sync(struct tui_state *st, int list_rows)
{
	struct view_events *ve = view_events_get(st);
	struct ev_filter f;
	char ferr[128];

	if (ve->valid && ve->cursor == st->cursor && !strcmp(ve->filter, st->filter) &&
	    ve->show_samples == st->show_samples)
		return;
	ve->off = tui_off(st);
	ve->t0 = (int64_t)tui_t0(st) - ve->off;
	if (view_events_parse_filter(st->filter, &f, ferr, sizeof(ferr)) < 0) {
		tui_message(st, "%s", ferr);
		st->filter[0] = '\0';
		view_events_parse_filter("", &f, ferr, sizeof(ferr));
	}
	f.hide_samples = !st->show_samples;
	ve->show_samples = st->show_samples;
	snprintf(ve->filter, sizeof(ve->filter), "%s", st->filter);
	if (st->tf || st->set)
		view_events_fill(ve, st->tf, st->set, &f, tui_trace_at(st, st->cursor),
				 view_events_span(st), view_events_lo(st), view_events_hi(st));
	else if (st->live)
		view_events_fill_live(ve, st->live, &f, st->cursor);
	else
		view_events_reset(ve), ve->valid = 1, ve->cursor = st->cursor;
	ve->top = ve->sel - list_rows / 3;
}

static int view_events_list_rows(const struct canvas *body)
{
	int n = body->rows - 1 - EV_DETAIL_ROWS - 1;

	return n > 1 ? n : 1;
}

static void view_events_build_detail(struct view_events *ve, struct canvas *body, int y)
{
	const char *t = ve->sel >= 0 && ve->sel < ve->nlines ? ve->lines[ve->sel].text : "";
	int w = body->cols;

	canvas_fill_row(body, y, '-', AT_DIM);
	for (int r = 0; r < EV_DETAIL_ROWS && (int)strlen(t) > r * w; r++) {
		char part[512];

		snprintf(part, sizeof(part), "%.*s", w, t + (size_t)r * (size_t)w);
		canvas_put(body, y + 1 + r, 0, AT_NORMAL, part);
	}
}

static void view_events_build(struct tui_state *st, struct canvas *body)
{
	struct view_events *ve = view_events_get(st);
	int list = view_events_list_rows(body), *top = &ve->top;
	char ts[32], abs[32], head[300];

	view_events_sync(st, list);
	if (ve->sel < *top)
		*top = ve->sel;
	if (ve->sel >= *top + list)
		*top = ve->sel - list + 1;
	if (*top > ve->nlines - list)
		*top = ve->nlines - list;
	if (*top < 0)
		*top = 0;
	tui_fmt_ts(st, st->cursor, ts, sizeof(ts));
	tui_fmt_abs(tui_trace_at(st, st->cursor), abs, sizeof(abs));
	snprintf(head, sizeof(head), "%s%s%s%s",
		 st->show_samples ? "" : ", samples hidden (p)",
		 st->filter[0] ? ", filter: " : "", st->filter,
		 ve->nlines ? "" : ve->scan_stop ?
		 " - none in the next 512k events (Down searches on)" : " - none");
	/* the trace time (@T) only where it leaves the filter in view */
	if ((int)(strlen("events at  s ()") + strlen(ts) + strlen(abs) + strlen(head)) <= body->cols)
		canvas_printf(body, 0, 0, AT_HEADER, "events at %s s (%s)%s", ts, abs, head);
	else
		canvas_printf(body, 0, 0, AT_HEADER, "events at %s s%s", ts, head);
	if (ve->err[0])
		canvas_printf(body, 0, body->cols / 2, AT_ERROR, "%s", ve->err);
	for (int i = 0; i < list && *top + i < ve->nlines; i++) {
		int k = *top + i;
		const struct ev_line *l = &ve->lines[k];
		enum attr_id at = AT_NORMAL;

		if (st->has_sel && tui_at_trace(st, l->ts) >= st->sel_start &&
		    tui_at_trace(st, l->ts) <= st->sel_end)
			at = AT_SELECT;
		if (k == ve->sel)
			at = AT_CURSOR;
		canvas_put(body, 1 + i, 0, at, body->cols < EV_WIDE ? l->brief : l->text);
		if (k == ve->sel)
			canvas_attr(body, 1 + i, 0, body->cols, AT_CURSOR);
	}
	view_events_build_detail(ve, body, body->rows - EV_DETAIL_ROWS - 1);
}

/* Refills around ts (the run's trace time); dir < 0 selects the last
 * line before ts, else the first at or after it. */
static void view_events_fill_at(struct tui_state *st, uint64_t ts, int dir)
{
	struct view_events *ve = view_events_get(st);
	struct ev_filter f;
	char ferr[128];

	view_events_parse_filter(ve->filter, &f, ferr, sizeof(ferr));
	f.hide_samples = !ve->show_samples;
	ve->off = tui_off(st);
	if (st->tf || st->set)
		view_events_fill(ve, st->tf, st->set, &f, ts, view_events_span(st),
				 view_events_lo(st), view_events_hi(st));
	else if (st->live)
		view_events_fill_live(ve, st->live, &f, ts);
	if (dir < 0 && ve->at > 0)
		ve->sel = ve->at - 1;
	if (ve->sel >= 0 && ve->sel < ve->nlines) {
		tui_set_cursor(st, tui_at_trace(st, ve->lines[ve->sel].ts));
		ve->cursor = st->cursor;
	}
}

/* Moves the selection by delta lines, refilling past the window's ends. */
static void view_events_move(struct tui_state *st, int delta)
{
	struct view_events *ve = view_events_get(st);
	int to = ve->sel + delta;

	if (!ve->valid || (!st->tf && !st->set && !st->live))
		return;
	if (!ve->nlines) {
		/* nothing matched within the budget: search on from where it stopped */
		if (delta > 0 && ve->scan_stop && (st->tf || st->set)) {
			tui_set_cursor(st, tui_at_trace(st, ve->scan_stop));
			view_events_fill_at(st, tui_trace_at(st, st->cursor), +1);
			if (!ve->nlines)
				ve->cursor = st->cursor;
		}
		return;
	}
	if (to < 0 && !ve->from_start) {
		view_events_fill_at(st, ve->lines[0].ts, -1);
		return;
	}
	if (to >= ve->nlines && !ve->to_end) {
		view_events_fill_at(st, ve->lines[ve->nlines - 1].ts, +1);
		return;
	}
	if (to < 0)
		to = 0;
	if (to >= ve->nlines)
		to = ve->nlines - 1;
	ve->sel = to;
	st->cursor = tui_at_trace(st, ve->lines[to].ts);
	ve->cursor = st->cursor;
}

static unsigned view_events_handle(struct tui_state *st, enum tui_action a)
{
	int page = tui_body_rows(st) - EV_DETAIL_ROWS - 2;
	struct view_events *ve = view_events_get(st);

	if (page < 1)
		page = 1;
	switch (a) {
	case ACT_UP:
		view_events_move(st, -1);
		break;
	case ACT_DOWN:
		view_events_move(st, +1);
		break;
	case ACT_PAGE_UP:
		view_events_move(st, -page);
		break;
	case ACT_PAGE_DOWN:
		view_events_move(st, +page);
		break;
	case ACT_PRINTS:
		st->show_samples = !st->show_samples;
		tui_message(st, "counter-sample lines %s", st->show_samples ? "shown" : "hidden");
		break;
	case ACT_ENTER:
		/* back to the timeline at this event's time */
		if (ve->valid && ve->sel >= 0 && ve->sel < ve->nlines) {
			tui_set_cursor(st, tui_at_trace(st, ve->lines[ve->sel].ts));
			st->view = VIEW_TIMELINE;
		}
		break;
	default:
		return 0;
	}
	return TUI_HANDLED | TUI_REDRAW;
}

const struct view_ops view_events_ops = {
	.name = "events",
	.priv_new = view_events_priv_new,
	.priv_free = view_events_priv_free,
	.build = view_events_build,
	.handle = view_events_handle,
};
