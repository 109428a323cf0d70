/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The run section: the run's settings (THP/mTHP, zswap, vm sysctls,
 * MGLRU, swap devices), its command and outcome (exit, elapsed, user,
 * sys, max RSS) and its memcg (limit, peak, swap, events, reclaim), from
 * the run model (model-run.h). A recording without context (older
 * mmscope, trace-cmd) gets one line of text and a JSON null.
 */
#ifndef MMSCOPE_REPORT_RUN_H
#define MMSCOPE_REPORT_RUN_H

#include "report.h"

void report_text_run(struct report_ctx *rc);
/* The member "run": an object, or null when nothing was recorded. */
void report_json_run(struct report_ctx *rc);

#endif
