/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The "khugepaged" report section (src/report-khugepaged.c): per order,
 * scans, collapses and their failures by the kernel's result names, from
 * the khugepaged model. Without the khugepaged group the text says so in
 * one line and the JSON member is null.
 */
#ifndef MMSCOPE_REPORT_KHUGEPAGED_H
#define MMSCOPE_REPORT_KHUGEPAGED_H

#include "report.h"

void report_text_khugepaged(struct report_ctx *rc);
/* One JSON value (an object, or null when the group was not recorded). */
void report_json_khugepaged(struct report_ctx *rc);

#endif
