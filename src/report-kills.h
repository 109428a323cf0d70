/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The "kills" report section (src/report-kills.c): every kill, whoever
 * the killer, with its dossier (kill-dossier.h). The kills are the oom
 * member's kills[] array (report_json_kills, called by report-oom.c);
 * the section's own member counts them.
 */
#ifndef MMSCOPE_REPORT_KILLS_H
#define MMSCOPE_REPORT_KILLS_H

#include "report.h"

void report_text_kills(struct report_ctx *rc);
/* The "kills" array, inside the oom object. */
void report_json_kills(struct report_ctx *rc);
/* The section's own member: counts by killer, the SIGKILLs seen; null
 * without the oom group. */
void report_json_kills_summary(struct report_ctx *rc);

#endif
