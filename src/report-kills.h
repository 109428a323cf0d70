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

#include <stddef.h>

void report_text_kills(struct report_ctx *rc);
/* Whether the recording can tell its kills (the oom group, or signals). */
int report_kills_recorded(const struct report_ctx *rc);
/* The line under the section's title: the kills and SIGKILLs counted. */
void report_kills_line(const struct report_ctx *rc, char *line, size_t len);
/* The section as HTML (report-kills-html.c): a block per kill, its
 * dossier's lines (kill-dossier-lines.h) as a table, ids PREkill-N. */
void report_html_kills(struct report_ctx *rc, struct strbuf *out, const char *pre);
/* One kill's block, id PREkill-N, at t_s seconds from the first event. */
struct kill_dossier;
void report_html_kill(struct strbuf *out, const char *pre, int n, double t_s,
		      const struct kill_dossier *d);
/* The "kills" array, inside the oom object. */
void report_json_kills(struct report_ctx *rc);
/* The section's own member: counts by killer, the SIGKILLs seen; null
 * without the oom group. */
void report_json_kills_summary(struct report_ctx *rc);

#endif
