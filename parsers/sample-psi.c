// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Sample source "psi" (/proc/pressure/memory): some/full averages with two
 * decimals (fixed point, scale 2) and the totals in microseconds.
 */
#include "config.h"
#include "parsers.h"

void sample_psi_parse(const struct sample_line *sl, struct parse_ctx *pc)
{
	sample_emit_counters(sl, pc, SRC_PSI, NULL);
}
