// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * View 1, the timeline: a time axis with the cursor. Lanes come with the
 * analysis models.
 */
#include "config.h"
#include "tui.h"

#include <stdio.h>

static void view_timeline_build(struct tui_state *st, struct canvas *body)
{
	int w = tui_axis_cols(body->cols);
	long cur = tui_ts_col(st, st->cursor);

	canvas_put(body, 0, 0, AT_HEADER, "timeline");
	for (int x = 0; x < w; x++)
		canvas_set(body, body->rows - 1, TUI_LABEL_W + x, x == cur ? '^' : '-',
			   x == cur ? AT_CURSOR : AT_DIM);
}

const struct view_ops view_timeline_ops = {
	.name = "timeline",
	.build = view_timeline_build,
};
