// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Sample source "mthp" (hugepages-SIZE/stats): one line per folio size,
 * identified by size= in kB; every numeric stat becomes a counter of that
 * instance ("enabled" is a string: a setting).
 */
#include "config.h"
#include "parsers.h"

void sample_mthp_parse(const struct sample_line *sl, struct parse_ctx *pc)
{
	sample_emit_counters(sl, pc, SRC_MTHP, "size");
}
