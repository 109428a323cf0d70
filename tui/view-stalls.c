// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * View 4, stalls and compaction in the selected range. Comes with the
 * analysis models.
 */
#include "config.h"
#include "tui.h"

static void view_stalls_build(struct tui_state *st, struct canvas *body)
{
	canvas_put(body, 0, 0, AT_HEADER, "stalls and compaction");
}

const struct view_ops view_stalls_ops = {
	.name = "stalls",
	.build = view_stalls_build,
};
