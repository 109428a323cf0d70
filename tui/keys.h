/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The key table of `mmscope tui`: one X-macro row per action, with the
 * keys that trigger it and the line the help view shows. The action enum,
 * the key lookup and the help view are all generated from it, so what the
 * keys do and what the help says cannot drift apart (tig's REQ_INFO).
 *
 * Key codes are ours (TK_*), not ncurses': tui/draw.c translates, so
 * nothing else needs <curses.h>. Plain keys are their ASCII code.
 */
#ifndef MMSCOPE_TUI_KEYS_H
#define MMSCOPE_TUI_KEYS_H

#include "view-list.h"

enum tui_key {
	TK_NONE = 0,
	TK_TAB = '\t',
	TK_ENTER = '\n',
	TK_ESC = 27,
	TK_CTRL_L = 12,
	TK_SPECIAL = 0x1000,
	TK_LEFT, TK_RIGHT, TK_UP, TK_DOWN,
	TK_HOME, TK_END, TK_PGUP, TK_PGDN,
	TK_BTAB, TK_BACKSPACE, TK_RESIZE, TK_MOUSE,
	TK_EOF,		/* input closed: quit */
	TK_TICK,	/* no key within the timeout (live mode) */
};

/*
 * X(ACTION, key1, key2, help text). key2 is TK_NONE when there is one key.
 * Rows appear in the help view in this order. The rows VIEW_<ID> (one key
 * each) come from the view table (view-list.h) through TUI_VIEW_KEY.
 */
#define TUI_VIEW_KEY(X, id, name, key, help) X(VIEW_##id, key, TK_NONE, help)
#define TUI_KEY_TABLE(X) \
	X(LEFT,      TK_LEFT,  'h',      "move the time cursor one column earlier") \
	X(RIGHT,     TK_RIGHT, 'l',      "move the time cursor one column later") \
	X(UP,        TK_UP,    'k',      "select the lane above / the previous line") \
	X(DOWN,      TK_DOWN,  'j',      "select the lane below / the next line") \
	X(ZOOM_IN,   '+',      '=',      "zoom in around the cursor (half the time per column)") \
	X(ZOOM_OUT,  '-',      '_',      "zoom out (twice the time per column)") \
	X(HOME,      TK_HOME,  'g',      "cursor to the start of the recording") \
	X(END,       TK_END,   'G',      "cursor to the end of the recording") \
	X(PAGE_UP,   TK_PGUP,  'b',      "one screen earlier / one page up") \
	X(PAGE_DOWN, TK_PGDN,  ' ',      "one screen later / one page down") \
	X(ENTER,     TK_ENTER, TK_NONE,  "jump to the episode or mark under the cursor and select its range") \
	X(NEXT_FLAG, 'n',      TK_NONE,  "next flagged episode or mark (kills lane: next kill)") \
	X(PREV_FLAG, 'N',      TK_NONE,  "previous flagged episode or mark (kills lane: previous kill)") \
	X(FILTER,    '/',      TK_NONE,  "filter events: NAME !NAME cpu=N pid=N comm=TASK node=N") \
	X(CLEAR,     TK_ESC,   'c',      "clear the selection and the filter; close a kill's dossier") \
	X(MARK_START, '[',     TK_NONE,  "mark the start of a time range at the cursor") \
	X(MARK_END,  ']',      TK_NONE,  "mark the end of the range (4 shows its stalls)") \
	X(LONGEST,   'L',      TK_NONE,  "jump to the longest stall and select it") \
	X(PRINTS,    'p',      TK_NONE,  "events: show/hide counter samples (mms1 print)") \
	X(NEXT_VIEW, TK_TAB,   TK_NONE,  "next view") \
	X(PREV_VIEW, TK_BTAB,  TK_NONE,  "previous view") \
	TUI_VIEW_TABLE(TUI_VIEW_KEY, X) \
	X(HELP,      '?',      TK_NONE,  "this help (any view key leaves it)") \
	X(REFRESH,   TK_CTRL_L, TK_NONE, "redraw the screen") \
	X(QUIT,      'q',      TK_NONE,  "quit (in help: back; in a kill's dossier: close it)")

/*
 * The keys of a host's history of several runs (data.h): the same row
 * form, their actions after ACT_NR; the help view lists them only when
 * the TUI shows several runs (one run: nothing to go to).
 */
#define TUI_RUN_KEY_TABLE(X) \
	X(PREV_RUN,  '{',      TK_NONE,  "previous run of the history: cursor to its start") \
	X(NEXT_RUN,  '}',      TK_NONE,  "next run of the history: cursor to its start")

enum tui_action {
	ACT_NONE = 0,
#define X(name, k1, k2, help) ACT_##name,
	TUI_KEY_TABLE(X)
	ACT_NR,
	TUI_RUN_KEY_TABLE(X)
#undef X
};

struct tui_key_row {
	enum tui_action action;
	int key1, key2;
	const char *help;
};

/* The table as data, for the help view; n rows. */
const struct tui_key_row *tui_keys(int *n);
/* The history's rows (TUI_RUN_KEY_TABLE); n rows. */
const struct tui_key_row *tui_run_keys(int *n);
/* The action bound to a key, or ACT_NONE. */
enum tui_action tui_key_action(int key);
/* "Left", "q", "Space", "Tab"... Returns a static string or buf. */
const char *tui_key_name(int key, char *buf, int len);
/* Parses one token of a key script ("right", "tab", "q", "pgdn"):
 * the key, or TK_NONE when the token is not a key name. */
int tui_key_parse(const char *token);

#endif
