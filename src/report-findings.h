/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The "findings" report section (src/report-findings.c): what went wrong,
 * from src/findings.h. In the full report at most 10 lines, one per
 * finding (severity, id, summary); alone (--section findings) every
 * finding with its times, evidence and mechanism, and the rules the
 * recording had no data for. JSON: "findings", an array.
 */
#ifndef MMSCOPE_REPORT_FINDINGS_H
#define MMSCOPE_REPORT_FINDINGS_H

#include "report.h"

#define REPORT_FINDINGS_LINES 10	/* lines of the section in the full report */

void report_text_findings(struct report_ctx *rc);
void report_json_findings(struct report_ctx *rc);

#endif
