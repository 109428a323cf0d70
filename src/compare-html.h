/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare --format html: the comparison table as one self-contained page
 * (src/html.h): the columns and their commands, one table per metric
 * group with a bar per column, the notes, the findings that differ and
 * the settings that differ.
 * The figures are the text table's (compare-table.h's rules: '-' absent,
 * n/a undefined, '*' significant).
 */
#ifndef MMSCOPE_COMPARE_HTML_H
#define MMSCOPE_COMPARE_HTML_H

#include "compare-table.h"

/* settings: the text block of the settings that differ (may be empty). */
void compare_render_html(const struct ct_table *t, const struct ct_opts *o,
			 const char *settings, struct strbuf *out);

#endif
