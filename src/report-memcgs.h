/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The "memcg" report section (src/report-memcgs.c): every memory cgroup
 * of record --cgroups from the memcgs model, widest first. Without
 * memcgs samples the text says so in one line and the JSON member is
 * null.
 */
#ifndef MMSCOPE_REPORT_MEMCGS_H
#define MMSCOPE_REPORT_MEMCGS_H

#include "report.h"

/* Rows of the text; the rest is one "N more" line (JSON has all). */
#define REPORT_MEMCG_ROWS 20

void report_text_memcgs(struct report_ctx *rc);
void report_json_memcgs(struct report_ctx *rc);

#endif
