/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The "oom" report section (src/report-oom.c): every OOM kill with its
 * victim, time, rss, memcg and constraint, from the oom model, and the
 * summary's "oom" line. Without the oom group the text says so in one
 * line and the JSON member is null.
 */
#ifndef MMSCOPE_REPORT_OOM_H
#define MMSCOPE_REPORT_OOM_H

#include "report.h"

void report_text_oom(struct report_ctx *rc);
/* One JSON value (an object, or null when the group was not recorded). */
void report_json_oom(struct report_ctx *rc);
/* The summary section's line. */
void report_summary_oom(struct report_ctx *rc);

#endif
