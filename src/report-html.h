/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report --format html: one self-contained page (src/html.h) holding the
 * sections of report_sections[] (the findings first when there is such a
 * section), each from its text renderer, so every figure is the text's
 * (or its own html renderer, the kills: report-kills.h),
 * and the charts of plot_charts[] drawn inline as SVG. report_render()
 * calls it for RF_HTML.
 */
#ifndef MMSCOPE_REPORT_HTML_H
#define MMSCOPE_REPORT_HTML_H

#include "report.h"

void report_render_html(const struct analysis *a, const struct report_opts *o,
			struct strbuf *out);

/*
 * A host's history on one page: its text blocks (the history, the sums)
 * and each run's sections and charts under a heading, with the gap before
 * it, every id after "runK-"; new, then text and runs in order, then end
 * (which frees it).
 */
struct html_history;
struct html_history *report_html_history_new(void);
void report_html_history_text(struct html_history *h, const char *id, const char *text,
			      size_t len);
void report_html_history_run(struct html_history *h, const struct analysis *a,
			     const struct report_opts *o, const char *heading, const char *gap);
void report_html_history_end(struct html_history *h, const char *title, struct strbuf *out);

/* One section's text (report_title's titles and lines) as HTML: titles
 * become headings (the first an h2, the rest h3 with ids id-2, id-3...),
 * "label  value" lines a table, aligned tables of figures under a header
 * line a table, the rest preformatted blocks. */
void report_html_text(struct strbuf *out, const char *id, const char *text, size_t len);

#endif
