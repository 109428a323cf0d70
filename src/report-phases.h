/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The "phases" report section (src/report-phases.c): the workload phases
 * the recording marked ("mmscope phase NAME" in trace_marker), each with
 * its start and duration.
 */
#ifndef MMSCOPE_REPORT_PHASES_H
#define MMSCOPE_REPORT_PHASES_H

#include "report.h"

void report_text_phases(struct report_ctx *rc);
/* A JSON array, empty when no phase was marked. Without phases, neither
 * prints anything unless --section named "phases". */
void report_json_phases(struct report_ctx *rc);

#endif
