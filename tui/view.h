/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Views of `mmscope tui` and the screen representation they build.
 *
 * A view never draws: its build() fills a canvas, a grid of characters
 * with an attribute id per cell (htop's RichString), from the models and
 * the shared state; tui/draw.c alone turns a canvas into ncurses calls.
 * So view builders are tested without a terminal (tests/unit/).
 *
 * A view's handle() gets an action first; it returns TUI_HANDLED and
 * maybe TUI_REDRAW or TUI_QUIT (htop's HandlerResult), or 0 to let the
 * main loop apply the default meaning of the action. The loop redraws at
 * most once per input, when some handler asked for it.
 */
#ifndef MMSCOPE_TUI_VIEW_H
#define MMSCOPE_TUI_VIEW_H

#include <stdarg.h>

#include "keys.h"

/* Attribute ids: what a cell is, not how it looks (see draw.c). */
enum attr_id {
	AT_NORMAL,
	AT_TITLE,	/* top bar */
	AT_TAB,		/* the current view's name in the top bar */
	AT_STATUS,	/* bottom bar */
	AT_HEADER,	/* column headers, section titles */
	AT_LABEL,	/* lane labels */
	AT_CURSOR,	/* the time cursor column, the selected line */
	AT_SELECT,	/* the selected time range */
	AT_KSWAPD,
	AT_KCOMPACTD,
	AT_RECLAIM,
	AT_COMPACT,
	AT_OOM,
	AT_FLAG,	/* flagged episodes, warnings */
	AT_FREE,	/* free pages in the chart */
	AT_WM_MIN,
	AT_WM_LOW,
	AT_WM_HIGH,
	AT_DIM,		/* axes, placeholders */
	AT_KEY,		/* key names in the help */
	AT_ERROR,
	AT_GAP,		/* not recorded: between two runs of a history */
	AT_NR
};

struct canvas {
	int rows, cols;
	char *text;		/* rows lines of cols + 1 bytes, NUL-terminated */
	unsigned char *attr;	/* rows * cols attribute ids */
};

void canvas_init(struct canvas *c, int rows, int cols);
void canvas_release(struct canvas *c);
void canvas_clear(struct canvas *c);
/* Writes s at (y, x), clipped to the canvas; returns the columns written. */
int canvas_put(struct canvas *c, int y, int x, enum attr_id at, const char *s);
int canvas_printf(struct canvas *c, int y, int x, enum attr_id at, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
void canvas_set(struct canvas *c, int y, int x, char ch, enum attr_id at);
/* Sets the attribute of n cells from (y, x), text unchanged. */
void canvas_attr(struct canvas *c, int y, int x, int n, enum attr_id at);
/* Fills a whole row with ch in attribute at. */
void canvas_fill_row(struct canvas *c, int y, char ch, enum attr_id at);
const char *canvas_row(const struct canvas *c, int y);
enum attr_id canvas_attr_at(const struct canvas *c, int y, int x);
/* Writes s word-wrapped into a width-w column from (y, x); returns the
 * rows used (at most maxrows). */
int canvas_wrap(struct canvas *c, int y, int x, int w, int maxrows, enum attr_id at,
		const char *s);
/* Copies src into dst with its top-left at (y, x). */
void canvas_blit(struct canvas *dst, const struct canvas *src, int y, int x);

/* Handler result flags. */
#define TUI_HANDLED	0x01
#define TUI_REDRAW	0x02
#define TUI_QUIT	0x04

struct tui_state;

struct view_ops {
	const char *name;	/* in the top bar */
	/*
	 * Optional: the view's own state, st->priv[VIEW_<ID>], made when the
	 * shared state is (tui_state_init) and freed with it. Views keep
	 * there what only they use, so the shared state knows nothing of it.
	 */
	void *(*priv_new)(void);
	void (*priv_free)(void *priv);
	void (*build)(struct tui_state *st, struct canvas *body);
	unsigned (*handle)(struct tui_state *st, enum tui_action a);
	/* Optional: called when the view becomes current. */
	void (*enter)(struct tui_state *st);
	/* Optional: a mouse click at (y, x) of the body; returns flags. */
	unsigned (*click)(struct tui_state *st, int y, int x);
};

/* The views of the table (view-list.h), then the help. */
#define X(_, id, name, key, help) extern const struct view_ops view_##name##_ops;
TUI_VIEW_TABLE(X, _)
#undef X
extern const struct view_ops view_help_ops;

#endif
