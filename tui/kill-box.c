// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kill dossier box (see kill-box.h). A value longer than the box is
 * wrapped at spaces under its own column, so a long cgroup path or the
 * list of the largest tasks stays whole and readable.
 */
#include "config.h"
#include "kill-box.h"
#include "tui.h"
#include "data.h"
#include "kill-dossier-lines.h"

#include <stdio.h>
#include <string.h>

#define KB_MAX_W 78
#define KB_ROWS_MAX (KD_LINES_MAX * 4)

struct kb_row {
	const char *label;	/* "" on a wrapped value's further rows */
	char text[KB_MAX_W];
};

/* The rows of a value wrapped into vw columns; returns how many. */
static int kb_wrap(const char *label, const char *value, int vw, struct kb_row *out, int max)
{
	int n = 0;
	size_t len = strlen(value);

	if (vw < 8)
		vw = 8;
	do {
		size_t take = len;

		if ((int)take > vw) {
			take = (size_t)vw;
			while (take > 0 && value[take] != ' ')
				take--;
			if (!take)	/* no space: cut it */
				take = (size_t)vw;
		}
		if (n >= max)
			return n;
		out[n].label = n ? "" : label;
		snprintf(out[n].text, sizeof(out[n].text), "%.*s", (int)take, value);
		n++;
		value += take;
		len -= take;
		while (*value == ' ') {
			value++;
			len--;
		}
	} while (len);
	return n;
}

/* A frame row: '+' at both ends, '-' between, s written after two. */
static void kb_frame(struct canvas *body, int y, int x, int w, const char *s)
{
	canvas_set(body, y, x, '+', AT_HEADER);
	for (int c = 1; c < w - 1; c++)
		canvas_set(body, y, x + c, '-', AT_HEADER);
	canvas_set(body, y, x + w - 1, '+', AT_HEADER);
	if (s && *s) {
		char buf[KB_MAX_W + 8];

		snprintf(buf, sizeof(buf), " %.*s ", w - 6 > 0 ? w - 6 : 0, s);
		canvas_put(body, y, x + 2, AT_HEADER, buf);
	}
}

void kill_box_build(const struct tui_state *st, const struct tk_ref *r, int *top,
		    struct canvas *body)
{
	const struct tui_data *d = tui_run_data(st, r->run);
	struct kill_dossier kd;
	struct kd_line lines[KD_LINES_MAX];
	struct kb_row rows[KB_ROWS_MAX];
	int n, nrows = 0, lw = 0, w, h, x, y, vw, inner;
	char title[128], at[32], foot[96];

	w = body->cols - 2 < KB_MAX_W ? body->cols - 2 : KB_MAX_W;
	if (w < 20 || body->rows < 5 || !d || !d->an ||
	    kill_dossier_get(d->an, r->i, &kd) < 0)
		return;
	n = kill_dossier_lines(&kd, lines, KD_LINES_MAX);
	for (int i = 0; i < n; i++)
		if ((int)strlen(lines[i].label) > lw)
			lw = (int)strlen(lines[i].label);
	/* a label wider than half the box would squeeze the values */
	if (lw > (w - 4) / 2)
		lw = (w - 4) / 2;
	vw = w - 4 - lw - 2;
	for (int i = 0; i < n; i++)
		nrows += kb_wrap(lines[i].label, lines[i].value, vw, rows + nrows,
				 KB_ROWS_MAX - nrows);
	inner = body->rows - 2 < nrows ? body->rows - 2 : nrows;
	if (*top > nrows - inner)
		*top = nrows - inner;
	if (*top < 0)
		*top = 0;
	h = inner + 2;
	x = (body->cols - w) / 2;
	y = (body->rows - h) / 2;
	snprintf(title, sizeof(title), "kill at %s s (%s)", tui_fmt_ts(st, r->at, at, sizeof(at)),
		 kd.killer);
	kb_frame(body, y, x, w, title);
	for (int i = 0; i < inner; i++) {
		const struct kb_row *row = &rows[*top + i];
		int yy = y + 1 + i;

		for (int c = 0; c < w; c++)
			canvas_set(body, yy, x + c, ' ', AT_NORMAL);
		canvas_set(body, yy, x, '|', AT_HEADER);
		canvas_set(body, yy, x + w - 1, '|', AT_HEADER);
		canvas_printf(body, yy, x + 2, AT_LABEL, "%-*.*s", lw, lw, row->label);
		canvas_put(body, yy, x + 2 + lw + 2, AT_NORMAL, row->text);
	}
	snprintf(foot, sizeof(foot), "Esc/q close, n/N next/previous kill%s",
		 nrows > inner ? ", Up/Down scroll" : "");
	kb_frame(body, y + h - 1, x, w, foot);
}
