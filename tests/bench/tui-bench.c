// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tui-bench: the TUI targets of issue 9, for tests/bench/bench.sh. Not
 * installed, not a test: it prints numbers.
 *
 *   tui-bench load FILE     the initial pass of `mmscope tui` (tui_data_load:
 *                           models and lanes in one streaming pass)
 *   tui-bench redraw FILE   the same, then the first screen, then a key
 *                           script over all six views at 80x24 and 160x50,
 *                           timing every redraw
 *
 * It drives the TUI core the way tui/tui.c does, without ncurses:
 * tui_apply() for a key, then tui_build_screen() into a canvas. A redraw
 * is timed from the key to the finished canvas (apply + build), which is
 * what a user waits for; turning the canvas into curses calls is not
 * included (a few hundred cells). Far jumps are what a click on the time
 * axis does: the cursor is set (tui_set_cursor) and the screen rebuilt.
 *
 * Output: key=value lines ("load ...", "first ...") and, for redraw, one
 * line per view and size: redraws, p50/p99/max wall ms, max CPU ms (the
 * process's CPU clock, so read-ahead threads count), the slowest step, and
 * how many redraws took 50 ms or more; every such redraw is listed too.
 */
#include "config.h"
#include "tui.h"
#include "data.h"
#include "tracedat-read.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>

#define SLOW_MS 50.0

static double clock_s(clockid_t id)
{
	struct timespec t;

	clock_gettime(id, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

static double wall_now(void)
{
	return clock_s(CLOCK_MONOTONIC);
}

static double cpu_now(void)
{
	return clock_s(CLOCK_PROCESS_CPUTIME_ID);
}

static long peak_kb(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss;
}

static const char *const action_names[ACT_NR] = {
	[ACT_NONE] = "none",
#define X(name, k1, k2, help) [ACT_##name] = #name,
	TUI_KEY_TABLE(X)
#undef X
};

/*
 * The key script, run once per view after switching to it. "KEY*N"
 * repeats; "jump:P" sets the cursor at P% of the recording (a click on
 * the time axis); "filter:TEXT" is what '/' TEXT Enter leaves in the
 * state ("filter:" clears it). Far jumps: HOME, END, the jumps, the
 * flag keys (next/previous flagged episode) and a filter that matches
 * only a few events.
 */
static const char *const script[] = {
	"RIGHT*16", "LEFT*8", "DOWN*8", "UP*4", "PAGE_DOWN*4", "PAGE_UP*2",
	"ZOOM_IN*10", "ZOOM_OUT*12", "END", "HOME", "RIGHT*4",
	"jump:50", "DOWN*2", "jump:90", "jump:10", "jump:75", "LEFT*2",
	"NEXT_FLAG*3", "PREV_FLAG*2", "ENTER", "CLEAR",
	"filter:compaction", "DOWN*2", "filter:", "HOME", "REFRESH",
};

struct sample {
	double wall_ms, cpu_ms;
	const char *step;
};

struct series {
	struct sample *s;
	int n, cap;
};

static void series_add(struct series *se, double w, double c, const char *step)
{
	if (se->n == se->cap) {
		se->cap = se->cap ? se->cap * 2 : 64;
		se->s = xrealloc(se->s, (size_t)se->cap * sizeof(*se->s));
	}
	se->s[se->n++] = (struct sample){ w, c, step };
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The q-quantile (nearest rank) of the wall times. */
static double quantile(const struct series *se, double q)
{
	double *v = xmalloc((size_t)se->n * sizeof(*v)), r;
	int k;

	for (int i = 0; i < se->n; i++)
		v[i] = se->s[i].wall_ms;
	qsort(v, (size_t)se->n, sizeof(*v), cmp_double);
	k = (int)(q * se->n + 0.999999) - 1;
	if (k < 0)
		k = 0;
	if (k >= se->n)
		k = se->n - 1;
	r = v[k];
	free(v);
	return r;
}

struct bench {
	struct tui_state st;
	struct canvas c;
	struct tui_data *d;
	struct td_file *tf;
	const char *path;
	double worst_wall, worst_cpu;
	char worst[160];
	int slow;
};

/* One timed redraw: what runs from a key to the finished screen. */
static void timed(struct bench *b, struct series *se, const char *step, int kind,
		  enum tui_action a, const char *arg)
{
	struct tui_state *st = &b->st;
	double w0 = wall_now(), c0 = cpu_now(), w, c;
	uint64_t span = st->t_last - st->t_first;

	switch (kind) {
	case 'k':
		tui_apply(st, a);
		break;
	case 'j':
		tui_set_cursor(st, st->t_first + (uint64_t)((double)span * atoi(arg) / 100.0));
		break;
	case 'f':
		snprintf(st->filter, sizeof(st->filter), "%s", arg);
		break;
	}
	tui_build_screen(st, &b->c);
	w = (wall_now() - w0) * 1e3;
	c = (cpu_now() - c0) * 1e3;
	series_add(se, w, c, step);
	if (w >= SLOW_MS) {
		b->slow++;
		printf("slow redraw: %dx%d view=%s step=%s wall_ms=%.1f cpu_ms=%.1f\n",
		       st->cols, st->rows, tui_view(st->view)->name, step, w, c);
	}
	if (w > b->worst_wall) {
		b->worst_wall = w;
		snprintf(b->worst, sizeof(b->worst), "%s %dx%d %s", tui_view(st->view)->name,
			 st->cols, st->rows, step);
	}
	if (c > b->worst_cpu)
		b->worst_cpu = c;
}

static enum tui_action action_named(const char *name, size_t len)
{
	for (int i = 1; i < ACT_NR; i++)
		if (strlen(action_names[i]) == len && !strncmp(action_names[i], name, len))
			return (enum tui_action)i;
	return ACT_NONE;
}

/* The script in view v; a key that leaves the view (Enter in the events
 * view jumps to the timeline) is followed by the key back, also timed. */
static void run_script(struct bench *b, struct series *se, int v)
{
	for (size_t i = 0; i < ARRAY_SIZE(script); i++) {
		if (b->st.view != v)
			timed(b, se, "back", 'k', tui_view_action(v), NULL);
		const char *s = script[i], *star = strchr(s, '*');

		if (!strncmp(s, "jump:", 5)) {
			timed(b, se, s, 'j', ACT_NONE, s + 5);
		} else if (!strncmp(s, "filter:", 7)) {
			timed(b, se, s, 'f', ACT_NONE, s + 7);
		} else {
			size_t len = star ? (size_t)(star - s) : strlen(s);
			int times = star ? atoi(star + 1) : 1;
			enum tui_action a = action_named(s, len);

			for (int k = 0; k < times; k++) {
				if (k && b->st.view != v)
					timed(b, se, "back", 'k', tui_view_action(v), NULL);
				timed(b, se, action_names[a], 'k', a, NULL);
			}
		}
	}
}

static void state_reset(struct bench *b, int rows, int cols)
{
	tui_state_release(&b->st);
	memset(&b->st, 0, sizeof(b->st));
	tui_state_init(&b->st, b->d->first_ts, b->d->last_ts);
	b->st.path = b->path;
	b->st.tf = b->tf;
	b->st.data = b->d;
	b->st.rows = rows;
	b->st.cols = cols;
	tui_state_fit(&b->st);
	canvas_release(&b->c);
	canvas_init(&b->c, rows, cols);
}

/* TUI_BENCH_SHOW=1: print the screen, to see that the views draw data. */
static void show(const struct bench *b, const char *what)
{
	if (!getenv("TUI_BENCH_SHOW"))
		return;
	printf("---- %s (%s, %dx%d)\n", what, tui_view(b->st.view)->name, b->c.cols, b->c.rows);
	for (int y = 0; y < b->c.rows; y++)
		printf("%s\n", canvas_row(&b->c, y));
}

static int redraws(struct bench *b)
{
	static const int sizes[][2] = { { 24, 80 }, { 50, 160 } };
	double w0, c0;
	char *err = NULL;

	/* the first screen, as tui_run() builds it after the pass (cmd-tui.c
	 * opens the file for the events view before the pass: timed apart) */
	w0 = wall_now();
	c0 = cpu_now();
	b->tf = td_open(b->path, &err);
	if (!b->tf) {
		fprintf(stderr, "tui-bench: %s\n", err);
		free(err);
		return 1;
	}
	printf("open wall_ms=%.2f cpu_ms=%.2f\n", (wall_now() - w0) * 1e3, (cpu_now() - c0) * 1e3);
	w0 = wall_now();
	c0 = cpu_now();
	state_reset(b, 24, 80);
	tui_build_screen(&b->st, &b->c);
	printf("first screen=80x24 wall_ms=%.2f cpu_ms=%.2f\n", (wall_now() - w0) * 1e3,
	       (cpu_now() - c0) * 1e3);
	show(b, "first screen");

	printf("%-9s %-7s %7s %8s %8s %8s %8s %5s  %s\n", "view", "size", "redraws",
	       "p50_ms", "p99_ms", "max_ms", "maxcpu", ">=50", "slowest step");
	for (size_t z = 0; z < ARRAY_SIZE(sizes); z++) {
		state_reset(b, sizes[z][0], sizes[z][1]);
		for (int v = 0; v < VIEW_NR; v++) {
			struct series se = { 0 };
			int slow0 = b->slow, imax = 0;
			double cmax = 0;
			char size[16];

			timed(b, &se, "switch", 'k', tui_view_action(v), NULL);
			run_script(b, &se, v);
			show(b, "after the script");
			for (int i = 0; i < se.n; i++) {
				if (se.s[i].wall_ms > se.s[imax].wall_ms)
					imax = i;
				if (se.s[i].cpu_ms > cmax)
					cmax = se.s[i].cpu_ms;
			}
			snprintf(size, sizeof(size), "%dx%d", sizes[z][1], sizes[z][0]);
			printf("%-9s %-7s %7d %8.2f %8.2f %8.2f %8.2f %5d  %s\n",
			       tui_view(v)->name, size, se.n, quantile(&se, 0.5),
			       quantile(&se, 0.99), se.s[imax].wall_ms, cmax, b->slow - slow0,
			       se.s[imax].step);
			fflush(stdout);
			free(se.s);
		}
	}
	printf("redraw max wall_ms=%.2f max cpu_ms=%.2f at=%s slow=%d\n", b->worst_wall,
	       b->worst_cpu, b->worst, b->slow);
	return 0;
}

int main(int argc, char **argv)
{
	struct bench b;
	char *err = NULL;
	double w0, c0;
	int rc = 0;

	if (argc != 3 || (strcmp(argv[1], "load") && strcmp(argv[1], "redraw"))) {
		fprintf(stderr, "usage: tui-bench load|redraw FILE\n");
		return 2;
	}
	memset(&b, 0, sizeof(b));
	b.path = argv[2];
	w0 = wall_now();
	c0 = cpu_now();
	b.d = tui_data_load(b.path, NULL, NULL, &err);
	if (!b.d) {
		fprintf(stderr, "tui-bench: %s\n", err);
		free(err);
		return 1;
	}
	printf("load events=%llu wall_s=%.3f cpu_s=%.3f rss_kb=%ld\n",
	       (unsigned long long)b.d->events, wall_now() - w0, cpu_now() - c0, peak_kb());
	fflush(stdout);
	if (!strcmp(argv[1], "redraw"))
		rc = redraws(&b);
	tui_state_release(&b.st);
	canvas_release(&b.c);
	if (b.tf)
		td_close(b.tf);
	tui_data_free(b.d);
	return rc;
}
