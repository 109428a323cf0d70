// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The main loop of `mmscope tui`: set up the terminal (draw.c), run the
 * initial pass with a progress bar, then read a key, turn it into an
 * action through the key table, let the current view and then the
 * defaults handle it (state.c), and redraw once if a handler asked for
 * it (tmux's damage flags, htop's HandlerResult).
 *
 * Test mode: MMSCOPE_TUI_HEADLESS=1 draws on /dev/null at LINES x COLUMNS;
 * MMSCOPE_TUI_KEYS is a script of key names separated by blanks ("right
 * + tab 5 / write_folio enter q"; a word that is not a key name is typed
 * letter by letter; "resize=COLSxROWS" resizes, "click=Y,X" clicks the
 * mouse at screen row Y, column X, "wait=SECONDS" lets a live session
 * run that long, "wait-end=SECONDS" until its recorder ends, at most that
 * long); MMSCOPE_TUI_DUMP=FILE writes the screen as text when
 * the script ends or at 'q'.
 *
 * Live mode: keys are waited for at most TUI_TICK_MS; every
 * TUI_LIVE_POLL_NS the session is polled, the axis grows, and a cursor
 * at the end follows it (tail -f); moving the cursor away stops that.
 */
#include "config.h"
#include "tui-run.h"
#include "tui.h"
#include "draw.h"
#include "data.h"
#include "inputs.h"
#include "util.h"
#include "tracedat-read.h"
#include "live.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define TUI_TICK_MS 250
#define TUI_LIVE_POLL_NS 1000000000ULL
#define TUI_LIVE_WINDOW_NS 60000000000ULL	/* the axis spans a minute at first */

static uint64_t tui_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

struct tui_script {
	char *text, *pos;	/* malloc'd copy, next token */
	const char *typing;	/* rest of a word being typed */
	int click_y, click_x;	/* of a "click=Y,X" token */
	uint64_t wait_until;	/* of a "wait=SECONDS" token (mono ns) */
	int wait_end;		/* "wait-end=": stop waiting when the recorder ends */
};

struct tui_loop {
	struct tui_state st;
	struct canvas screen;
	struct tui_script script;
	int use_script;
	int prompting;
	char prompt[128];
	struct live *live;
	uint64_t last_poll;
	int progress_pct;	/* last percentage drawn by tui_progress */
};

/* Next key of the script; TK_EOF at its end. */
static int tui_script_key(struct tui_script *s, const struct live *live)
{
	static char word[128];
	int secs;

	if (s->wait_until) {
		if (tui_mono_ns() < s->wait_until && !(s->wait_end && live && live_ended(live))) {
			usleep(TUI_TICK_MS * 1000);
			return TK_TICK;
		}
		s->wait_until = 0;
		s->wait_end = 0;
	}
	if (s->typing && *s->typing)
		return (unsigned char)*s->typing++;
	while (*s->pos == ' ' || *s->pos == '\t' || *s->pos == '\n')
		s->pos++;
	if (!*s->pos)
		return TK_EOF;
	size_t n = strcspn(s->pos, " \t\n");

	snprintf(word, sizeof(word), "%.*s", (int)n, s->pos);
	s->pos += n;
	int rows, cols;

	if (sscanf(word, "click=%d,%d", &s->click_y, &s->click_x) == 2)
		return TK_MOUSE;
	if (sscanf(word, "wait=%d", &secs) == 1 && secs >= 0) {
		s->wait_until = tui_mono_ns() + (uint64_t)secs * 1000000000ULL;
		return TK_TICK;
	}
	if (sscanf(word, "wait-end=%d", &secs) == 1 && secs >= 0) {
		s->wait_until = tui_mono_ns() + (uint64_t)secs * 1000000000ULL;
		s->wait_end = 1;
		return TK_TICK;
	}
	if (sscanf(word, "resize=%dx%d", &cols, &rows) == 2 && rows > 2 && cols > 10) {
		draw_resize(rows, cols);
		return TK_RESIZE;
	}
	int key = tui_key_parse(word);

	if (key != TK_NONE)
		return key;
	s->typing = word + 1;
	return (unsigned char)word[0];
}

static int tui_next_key(struct tui_loop *l)
{
	if (l->use_script)
		return tui_script_key(&l->script, l->live);
	return draw_getkey();
}

static void tui_redraw(struct tui_loop *l)
{
	int rows, cols;

	draw_size(&rows, &cols);
	if (rows != l->screen.rows || cols != l->screen.cols) {
		canvas_release(&l->screen);
		canvas_init(&l->screen, rows, cols);
	}
	tui_build_screen(&l->st, &l->screen);
	if (l->prompting) {
		canvas_fill_row(&l->screen, rows - 1, ' ', AT_STATUS);
		canvas_printf(&l->screen, rows - 1, 0, AT_STATUS, "filter: /%s_", l->prompt);
	}
	draw_canvas(&l->screen);
}

/* A key while the filter prompt is open. Returns 1 when it closed. */
static int tui_prompt_key(struct tui_loop *l, int key)
{
	size_t n = strlen(l->prompt);

	if (key == TK_ENTER || key == '\r') {
		snprintf(l->st.filter, sizeof(l->st.filter), "%s", l->prompt);
		if (l->st.view != VIEW_EVENTS)
			tui_apply(&l->st, ACT_VIEW_EVENTS);
		l->prompting = 0;
	} else if (key == TK_ESC) {
		l->prompting = 0;
	} else if (key == TK_BACKSPACE) {
		if (n)
			l->prompt[n - 1] = '\0';
	} else if (key >= ' ' && key < 127 && n + 1 < sizeof(l->prompt)) {
		l->prompt[n] = (char)key;
		l->prompt[n + 1] = '\0';
	}
	return !l->prompting;
}

/* The bar while the initial pass reads: how much of the event data
 * (bytes of the file) is read, and the time stamp reached. Drawn only
 * when the percentage moves, so a fast pass is not slowed by drawing. */
static void tui_progress(void *ctx, uint64_t done, uint64_t total, uint64_t ts)
{
	struct tui_loop *l = ctx;
	int rows, cols, pct = total ? (int)(done * 100 / total) : 0, w, fill;
	char when[32];

	if (pct > 100)
		pct = 100;
	if (done && pct == l->progress_pct)
		return;
	l->progress_pct = pct;
	draw_size(&rows, &cols);
	if (rows != l->screen.rows || cols != l->screen.cols) {
		canvas_release(&l->screen);
		canvas_init(&l->screen, rows, cols);
	}
	canvas_clear(&l->screen);
	canvas_printf(&l->screen, rows / 2 - 1, 2, AT_HEADER, "reading %s", l->st.path);
	/* the first event is not known yet: a trace timestamp */
	canvas_printf(&l->screen, rows / 2, 2, AT_NORMAL, "%3d%%  at %s s", pct,
		      ts ? tui_fmt_abs(ts, when, sizeof(when)) : "-");
	w = cols - 4;
	fill = w > 0 ? w * pct / 100 : 0;
	for (int x = 0; x < w; x++)
		canvas_set(&l->screen, rows / 2 + 1, 2 + x, x < fill ? '#' : '.',
			   x < fill ? AT_NORMAL : AT_DIM);
	draw_canvas(&l->screen);
}

/* Live mode: new events into the models, the axis to the new end, and
 * the cursor with it if it was at the end. */
static void tui_live_tick(struct tui_loop *l)
{
	struct tui_state *st = &l->st;
	int follow = st->cursor >= st->t_last;
	char *err = NULL;

	l->last_poll = tui_mono_ns();
	if (live_poll(l->live, &err) < 0) {
		tui_message(st, "%s", err);
		free(err);
	}
	tui_data_live_update(st->data, l->live);
	st->t_first = st->data->first_ts;
	st->t_last = st->data->last_ts;
	if (follow)
		tui_set_cursor(st, st->t_last);
	tui_redraw(l);
}

static void tui_loop_run(struct tui_loop *l)
{
	int key;

	tui_redraw(l);
	while ((key = tui_next_key(l)) != TK_EOF) {
		unsigned r;

		if (l->live && tui_mono_ns() - l->last_poll >= TUI_LIVE_POLL_NS)
			tui_live_tick(l);
		if (key == TK_TICK)
			continue;

		if (key == TK_RESIZE) {
			tui_redraw(l);
			continue;
		}
		if (key == TK_MOUSE) {
			int y = l->script.click_y, x = l->script.click_x;

			if (!l->use_script)
				draw_mouse(&y, &x);
			if (tui_click(&l->st, y, x) & TUI_REDRAW)
				tui_redraw(l);
			continue;
		}
		if (l->prompting) {
			tui_prompt_key(l, key);
			tui_redraw(l);
			continue;
		}
		enum tui_action a = tui_key_action(key);

		if (a == ACT_FILTER) {
			l->prompting = 1;
			snprintf(l->prompt, sizeof(l->prompt), "%s", l->st.filter);
			tui_redraw(l);
			continue;
		}
		r = tui_apply(&l->st, a);
		if (r & TUI_QUIT)
			break;
		if (r & TUI_REDRAW)
			tui_redraw(l);
	}
}

/* The passes over the selected runs, one after another (the progress
 * names the run when there are several), as one history. NULL with
 * *err when one fails. */
static struct tui_hist *tui_load(struct tui_loop *l, const struct tui_opts *o, char **err)
{
	struct tui_data **d = xcalloc((size_t)o->nsel + 1, sizeof(*d));
	struct tui_hist *h = NULL;
	char label[300];
	int k;

	for (k = 0; k < o->nsel; k++) {
		const char *name = o->in->rec[o->in->hist.run[o->sel[k].run].in].name;

		if (o->nsel > 1) {
			snprintf(label, sizeof(label), "run %d of %d: %s", k + 1, o->nsel, name);
			l->st.path = label;
			l->progress_pct = -1;
			tui_progress(l, 0, 0, 0);	/* a set's pass reports nothing */
		}
		d[k] = tui_data_load_sel(o->in, &o->sel[k], tui_progress, l, err, o->bad_scope);
		if (!d[k])
			break;
	}
	l->st.path = o->path;
	if (k == o->nsel)
		h = tui_hist_new(o->in, o->sel, o->nsel, d);
	else
		for (int i = 0; i < k; i++)
			tui_data_free(d[i]);
	free(d);
	return h;
}

int tui_run(struct td_file *tf, const struct tui_opts *o, char **err)
{
	struct tui_loop l;
	struct tui_data *d = NULL;
	struct tui_hist *h = NULL;
	struct td_set *set = NULL;
	int r = 0;

	memset(&l, 0, sizeof(l));
	l.st.path = o->path;
	if (o->keys) {
		l.script.text = xstrdup(o->keys);
		l.script.pos = l.script.text;
		l.use_script = 1;
	} else if (o->headless) {
		l.script.text = xstrdup("");
		l.script.pos = l.script.text;
		l.use_script = 1;
	}
	if (draw_init(o->headless, err) < 0) {
		free(l.script.text);
		return -1;
	}
	if (o->live) {
		l.live = o->live;
		d = tui_data_live(o->live);
	} else if ((h = tui_load(&l, o, err))) {
		if (tf) {	/* the caller's, open already */
			h->run[0].tf = tf;
			h->run[0].opened = h->run[0].given = 1;
		}
		d = h->run[0].data;
	}
	if (!d) {
		r = -1;
		goto out;
	}
	/* one run of several files: the events view's set, now that the
	 * pass has closed its own (over several runs: when the cursor gets
	 * to a run) */
	if (h && h->total == 1 && !tf) {
		const char *e;

		if (tui_hist_files(h, 0, &tf, &set, &e) < 0) {
			r = set_err(err, "%s", e);
			tui_hist_free(h);
			goto out;
		}
	}
	if (h && h->total > 1) {	/* the time line of the runs */
		uint64_t a = UINT64_MAX, b = 0;

		for (int k = 0; k < h->n; k++) {
			if (!h->run[k].has_events)
				continue;
			a = h->run[k].first < a ? h->run[k].first : a;
			b = h->run[k].last > b ? h->run[k].last : b;
		}
		tui_state_init(&l.st, a == UINT64_MAX ? 0 : a, b);
	} else {
		tui_state_init(&l.st, d->first_ts, d->last_ts);
	}
	l.st.path = o->live ? "live" : o->path;
	l.st.tf = tf;
	l.st.set = set;
	l.st.tep = o->live ? live_tep(o->live) : tf ? td_tep(tf) : NULL;
	l.st.data = d;
	/* several runs, or one of several (--run N): the views follow the
	 * cursor's run (tui_track_run) */
	if (h && h->total > 1)
		l.st.hist = h;
	if (!o->live && !l.st.hist && d->window_line[0])	/* the window, at the status line's right */
		l.st.live_status = d->window_line;
	draw_size(&l.st.rows, &l.st.cols);
	tui_state_fit(&l.st);
	l.st.run = -1;		/* the first run's name and files */
	tui_track_run(&l.st);
	if (o->live) {
		l.st.live_status = live_status(o->live);
		l.st.live = o->live;
		l.st.ns_per_col = TUI_LIVE_WINDOW_NS / (uint64_t)tui_axis_cols(l.st.cols);
		l.st.cursor = l.st.t_last;
		l.last_poll = tui_mono_ns();
		if (!l.use_script)
			draw_timeout(TUI_TICK_MS);
	}
	if (o->message)
		tui_message(&l.st, "%s", o->message);
	tui_loop_run(&l);
	if (o->dump && draw_dump(o->dump) < 0)
		r = set_err(err, "cannot write screen dump '%s'", o->dump);
	tui_state_release(&l.st);
	if (h)
		tui_hist_free(h);
	else
		tui_data_free(d);
out:
	draw_end();
	canvas_release(&l.screen);
	free(l.script.text);
	return r;
}
