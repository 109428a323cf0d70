// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Sample source "vmstat" (/proc/vmstat): every KEY=VALUE is a counter of
 * that name. The first set has every field, later sets only the changed
 * ones, always as absolute values, so each line maps to records directly.
 */
#include "config.h"
#include "parsers.h"

void sample_vmstat_parse(const struct sample_line *sl, struct parse_ctx *pc)
{
	sample_emit_counters(sl, pc, SRC_VMSTAT, NULL);
}
