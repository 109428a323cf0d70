/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report --format html: one self-contained page (src/html.h) holding the
 * sections of report_sections[] (the findings first when there is such a
 * section), each from its text renderer, so every figure is the text's,
 * and the charts of plot_charts[] drawn inline as SVG. report_render()
 * calls it for RF_HTML.
 */
#ifndef MMSCOPE_REPORT_HTML_H
#define MMSCOPE_REPORT_HTML_H

#include "report.h"

void report_render_html(const struct analysis *a, const struct report_opts *o,
			struct strbuf *out);

/* One section's text (report_title's titles and lines) as HTML: titles
 * become headings (the first an h2, the rest h3 with ids id-2, id-3...),
 * "label  value" lines a table, aligned tables of figures under a header
 * line a table, the rest preformatted blocks. */
void report_html_text(struct strbuf *out, const char *id, const char *text, size_t len);

#endif
