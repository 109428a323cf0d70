// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Sample source "pagetype" (/proc/pagetypeinfo, root only): free blocks
 * per order for one zone and migratetype (type=Unmovable, Movable, ...).
 */
#include "config.h"
#include "parsers.h"

void sample_pagetype_parse(const struct sample_line *sl, struct parse_ctx *pc)
{
	if (sample_fill_buddy(sl, pc) || !pc->rec->buddy.type) {
		parser_note(pc->set, "samples: malformed pagetype line skipped");
		return;
	}
	pc->rec->type = REC_PAGETYPE;
	pc->sink(pc->sink_ctx, pc->rec);
}
