/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The "cgroups" report section (src/report-cgroups.c): per memory cgroup
 * the tasks placed in it and what they did (model-cgroups.h), from the
 * tasks' cgroups mmscope record lists and follows (src/cgmap.h). A
 * recording without them says "cgroups not recorded" (JSON null).
 */
#ifndef MMSCOPE_REPORT_CGROUPS_H
#define MMSCOPE_REPORT_CGROUPS_H

#include "report.h"

void report_text_cgroups(struct report_ctx *rc);
void report_json_cgroups(struct report_ctx *rc);
/* A cgroup's path cut to its tail to fit width columns ("~" marks a
 * cut; "-" for an unknown id): the stalls table's column. */
const char *report_cgroup_tail(const struct report_ctx *rc, int id, char *buf, int width);

#endif
