// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The help view, built from the key table in keys.h (the same rows that
 * map keys to actions), then a legend of the timeline's lane symbols.
 * Up/Down and PgUp/PgDn scroll; 'q', '?' or a view key leave it.
 */
#include "config.h"
#include "tui.h"
#include "data.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const view_help_legend[] = {
	"Timeline lanes (per node; one column covers the time shown in the status bar):",
	"  kswapd     K  kswapd awake (wake to sleep); * where an episode is flagged",
	"  handoff    > kswapd woke kcompactd   ~ kcompactd picked the request up",
	"             x slept with an order>0 request and no handoff",
	"  kcompactd  C  kcompactd awake on a request, c woken with order<=0",
	"  reclaim    R  direct/memcg reclaim stalls (digits: tasks stalled at once)",
	"  compact    D  direct or manual compaction runs",
	"  oom        !  an OOM kill",
	"  free       # free pages; on the min/low/high rows: = at or above, - below",
	"  kills      !  a kernel or memcg OOM kill, k a kill by a process (any node)",
	"             - not recorded: the recording has no oom events or signals",
	"             on it: n/N from kill to kill, Enter the kill's dossier (Esc/q)",
	"The cursor is the highlighted column; a selected range is underlined.",
	"Filter syntax: words match event names (any of them), !WORD hides them;",
	"cpu=N pid=N comm=TEXT node=N narrow further. Esc or c clears.",
};

/* The view's own state (st->priv[VIEW_HELP]). */
struct view_help_priv {
	int top;		/* first line shown */
};

static void *view_help_priv_new(void)
{
	return xcalloc(1, sizeof(struct view_help_priv));
}

static struct view_help_priv *view_help_priv(const struct tui_state *st)
{
	return st->priv[VIEW_HELP];
}

/* With several runs of a history (st->hist): their keys after the
 * others, and this under the legend. */
static const char view_help_gap[] =
	"  (any lane) / not recorded: the gap between two runs (the status bar says why)";

static int view_help_runs(const struct tui_state *st)
{
	return st->hist && st->hist->n > 1;
}

/* The key rows shown: the table's, then the history's. */
static int view_help_nkeys(const struct tui_state *st)
{
	int n, nr;

	tui_keys(&n);
	tui_run_keys(&nr);
	return n + (view_help_runs(st) ? nr : 0);
}

static const struct tui_key_row *view_help_key(int i)
{
	int n, nr;
	const struct tui_key_row *rows = tui_keys(&n), *runs = tui_run_keys(&nr);

	return i < n ? &rows[i] : &runs[i - n];
}

static int view_help_lines(const struct tui_state *st)
{
	return 2 + view_help_nkeys(st) + 1 +
	       (int)(sizeof(view_help_legend) / sizeof(view_help_legend[0])) +
	       view_help_runs(st);
}

/* Line i of the help text into row y. */
static void view_help_line(const struct tui_state *st, struct canvas *body, int y, int i)
{
	int n = view_help_nkeys(st), nl = (int)(sizeof(view_help_legend) / sizeof(view_help_legend[0]));

	if (i == 0) {
		canvas_put(body, y, 0, AT_HEADER, "Keys");
		return;
	}
	if (i == 1)
		return;
	i -= 2;
	if (i < n) {
		const struct tui_key_row *row = view_help_key(i);
		char b1[16], b2[16], keys[40];

		if (row->key2 != TK_NONE)
			snprintf(keys, sizeof(keys), "%s, %s", tui_key_name(row->key1, b1, sizeof(b1)),
				 tui_key_name(row->key2, b2, sizeof(b2)));
		else
			snprintf(keys, sizeof(keys), "%s", tui_key_name(row->key1, b1, sizeof(b1)));
		canvas_printf(body, y, 2, AT_KEY, "%-12s", keys);
		canvas_put(body, y, 15, AT_NORMAL, row->help);
		return;
	}
	i -= n + 1;
	if (i >= 0 && i < nl)
		canvas_put(body, y, 0, i == 0 ? AT_HEADER : AT_NORMAL, view_help_legend[i]);
	else if (i == nl && view_help_runs(st))
		canvas_put(body, y, 0, AT_NORMAL, view_help_gap);
}

static void view_help_build(struct tui_state *st, struct canvas *body)
{
	int total = view_help_lines(st), *top = &view_help_priv(st)->top;

	if (*top > total - body->rows)
		*top = total - body->rows;
	if (*top < 0)
		*top = 0;
	for (int y = 0; y < body->rows; y++)
		view_help_line(st, body, y, *top + y);
	if (*top + body->rows < total)
		canvas_put(body, body->rows - 1, body->cols - 16, AT_DIM, " (Down: more) ");
}

static unsigned view_help_handle(struct tui_state *st, enum tui_action a)
{
	int page = tui_body_rows(st) - 1;

	switch (a) {
	case ACT_UP:
		view_help_priv(st)->top--;
		break;
	case ACT_DOWN:
		view_help_priv(st)->top++;
		break;
	case ACT_PAGE_UP:
		view_help_priv(st)->top -= page;
		break;
	case ACT_PAGE_DOWN:
		view_help_priv(st)->top += page;
		break;
	case ACT_QUIT:
		st->view = st->prev_view;
		break;
	default:
		return 0;
	}
	if (view_help_priv(st)->top < 0)
		view_help_priv(st)->top = 0;
	return TUI_HANDLED | TUI_REDRAW;
}

const struct view_ops view_help_ops = {
	.name = "help",
	.priv_new = view_help_priv_new,
	.priv_free = free,
	.build = view_help_build,
	.handle = view_help_handle,
};
