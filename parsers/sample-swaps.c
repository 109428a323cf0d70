// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Sample source "swap" (/proc/swaps and /sys/block/NAME/inflight): one line
 * per active device, identified by dev=; size/used in kB, prio, and for
 * block devices rotational and in-flight requests.
 */
#include "config.h"
#include "parsers.h"

void sample_swaps_parse(const struct sample_line *sl, struct parse_ctx *pc)
{
	sample_emit_counters(sl, pc, SRC_SWAP, "dev");
}
