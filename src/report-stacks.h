/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The "stacks" report section (src/report-stacks.c): per stall kind
 * (direct reclaim, memcg reclaim, direct compaction), the distinct
 * kernel stacks of its stalls (mmscope record -T), the one with the
 * longest stall first, with count, total and maximum stall time and
 * the frames as func+0xoff. Without kernel stacks in the recording the
 * text says so in one line and the JSON member is null.
 */
#ifndef MMSCOPE_REPORT_STACKS_H
#define MMSCOPE_REPORT_STACKS_H

#include "report.h"

void report_text_stacks(struct report_ctx *rc);
void report_json_stacks(struct report_ctx *rc);

#endif
