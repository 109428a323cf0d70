// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * View 2, swap clusters: waits for the swap cluster model ("Swap clusters
 * and zswap" issue). Until then it says which recording data the view
 * will need, and shows nothing made up.
 */
#include "config.h"
#include "tui.h"

static void view_swap_build(struct tui_state *st, struct canvas *body)
{
	canvas_put(body, 0, 0, AT_HEADER, "swap clusters");
	canvas_wrap(body, 2, 0, body->cols, body->rows - 2, AT_DIM,
		   "Needs swap slot alloc/free kprobe events (record -e swap) and swap/mthp "
		   "samples; the swap cluster model is not in this build yet.");
}

const struct view_ops view_swap_ops = {
	.name = "swap",
	.build = view_swap_build,
};
