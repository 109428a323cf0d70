// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * View 3, zswap: waits for the zswap model ("Swap clusters and zswap"
 * issue). Until then it says which recording data the view will need,
 * and shows nothing made up.
 */
#include "config.h"
#include "tui.h"

static void view_zswap_build(struct tui_state *st, struct canvas *body)
{
	canvas_put(body, 0, 0, AT_HEADER, "zswap");
	canvas_wrap(body, 2, 0, body->cols, body->rows - 2, AT_DIM,
		   "Needs zswap kprobe events (record -e zswap) and zswap debugfs samples; "
		   "the zswap model is not in this build yet.");
}

const struct view_ops view_zswap_ops = {
	.name = "zswap",
	.build = view_zswap_build,
};
