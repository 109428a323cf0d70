// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare --format html (see compare-html.h). The page follows the plain
 * table: a row per metric (and statistic), the baseline's value, then per
 * column its value and its change; values, changes and significance come
 * from compare-table.c's own functions, so they are the text's. Each row
 * also has a small inline chart: a bar per column, to the row's largest.
 */
#include "config.h"
#include "compare-html.h"
#include "html.h"
#include "plot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is_mean_stat(const struct ct_stat *s)
{
	return s->kind == CT_MEAN || s->kind == CT_AMEAN || s->kind == CT_HMEAN;
}

static const char *col_color(size_t c)
{
	return plot_palette[c % (size_t)plot_npalette];
}

/* The row's label as the plain table prints it: the statistic after the
 * label unless it is the only one and the mean. */
static void row_label(struct strbuf *sb, const struct ct_row *row, const struct ct_stat *s,
		      const struct ct_opts *o)
{
	char st[32];

	html_escape(sb, row->mi.plain_label);
	if (o->nstats == 1 && s->kind == CT_MEAN)
		return;
	ct_stat_name(s, row, o->dialect, st, sizeof(st));
	strbuf_addch(sb, ' ');
	html_escape(sb, st);
}

/* The change cell: "+12.3%" as the text prints it, '*' when significant;
 * coloured by whether it is the better or the worse way for the metric. */
static void change_cell(struct strbuf *sb, const struct ct_table *t, const struct ct_row *row,
			size_t c, const struct ct_stat *s, const struct ct_opts *o)
{
	double v = row->cells[c].n ? ct_stat_value(s, row, c, o->dialect) : NAN;
	double pct;
	int sig, better;
	char buf[64];

	if (!row->cells[c].n || isnan(v)) {
		strbuf_addstr(sb, "<td></td>");
		return;
	}
	pct = ct_change_pct(s, row, c, o->dialect);
	sig = is_mean_stat(s) ? ct_significant(t, row, c, o->alpha) : -1;
	if (isnan(pct)) {
		strbuf_addstr(sb, "<td>n/a</td>");
		return;
	}
	if (snprintf(buf, sizeof(buf), "%+.1f%%", pct == 0 ? 0.0 : pct) > 8 &&
	    snprintf(buf, sizeof(buf), "%+.0f%%", pct) > 8)
		snprintf(buf, sizeof(buf), "%+.0e%%", pct);
	if (!strpbrk(buf, "123456789"))		/* prints as no change */
		sig = 0, pct = 0;
	if (!ct_practical(pct))	/* below the practical threshold: no mark, no colour */
		sig = 0, pct = 0;
	/* plain: the raw change; mmtests: positive is better */
	better = o->dialect == CT_PLAIN ? (row->higher_is_better ? pct > 0 : pct < 0) : pct > 0;
	strbuf_addf(sb, "<td class=\"%s%s\">%s%s</td>",
		    pct == 0 ? "" : better ? "down" : "up", sig > 0 ? " sig" : "", buf,
		    sig > 0 ? "*" : "");
}

/* A bar per column, as long as its value against the row's largest
 * magnitude; none where the column lacks the metric or it is n/a. */
static void bars_cell(struct strbuf *sb, const struct ct_table *t, const struct ct_row *row,
		      const struct ct_stat *s, const struct ct_opts *o)
{
	double max = 0, h = 8.0 * (double)t->ncols + 2;

	for (size_t c = 0; c < t->ncols; c++) {
		double v = row->cells[c].n ? ct_stat_value(s, row, c, o->dialect) : NAN;

		if (!isnan(v) && fabs(v) > max)
			max = fabs(v);
	}
	strbuf_addf(sb, "<td class=\"bar\"><svg viewBox=\"0 0 120 %.0f\" width=\"120\" "
		    "height=\"%.0f\" role=\"img\" aria-label=\"a bar per column\">", h, h);
	for (size_t c = 0; c < t->ncols && max > 0; c++) {
		double v = row->cells[c].n ? ct_stat_value(s, row, c, o->dialect) : NAN;

		if (isnan(v))
			continue;
		strbuf_addf(sb, "<rect x=\"0\" y=\"%.0f\" width=\"%.1f\" height=\"6\" "
			    "fill=\"%s\"%s/>", 1 + 8.0 * (double)c, fabs(v) / max * 120,
			    col_color(c), v < 0 ? " fill-opacity=\"0.4\"" : "");
	}
	strbuf_addstr(sb, "</svg></td>");
}

static void table_head(struct strbuf *sb, const struct ct_table *t)
{
	strbuf_addstr(sb, "<div class=\"scroll\"><table>\n<tr><th class=\"l\">metric</th>"
		      "<th class=\"l\">unit</th>");
	for (size_t c = 0; c < t->ncols; c++) {
		strbuf_addstr(sb, "<th>");
		html_escape(sb, t->cols[c]);
		strbuf_addstr(sb, c ? "</th><th>change</th>" : "</th>");
	}
	strbuf_addstr(sb, "<th class=\"l\">per column</th></tr>\n");
}

static void table_row(struct strbuf *sb, const struct ct_table *t, const struct ct_row *row,
		      const struct ct_stat *s, const struct ct_opts *o)
{
	char buf[64];

	strbuf_addstr(sb, "<tr><td class=\"l\">");
	row_label(sb, row, s, o);
	strbuf_addstr(sb, "</td><td class=\"l\">");
	html_escape(sb, row->mi.unit);
	strbuf_addstr(sb, "</td>");
	for (size_t c = 0; c < t->ncols; c++) {
		if (!row->cells[c].n)
			snprintf(buf, sizeof(buf), "-");
		else
			ct_fmt_value(buf, sizeof(buf), ct_stat_value(s, row, c, o->dialect));
		strbuf_addf(sb, "<td>%s</td>", buf);
		if (c)
			change_cell(sb, t, row, c, s, o);
	}
	bars_cell(sb, t, row, s, o);
	strbuf_addstr(sb, "</tr>\n");
}

static int shown(const struct ct_table *t, const struct ct_row *row, const struct ct_opts *o)
{
	return o->all || !ct_row_quiet(row, t->ncols);
}

static void columns_section(struct strbuf *sb, const struct ct_table *t)
{
	const char *cmd0 = NULL;
	int differ = 0;

	strbuf_addstr(sb, "<section>\n<h2 id=\"columns\">Columns</h2>\n<div class=\"scroll\">"
		      "<table class=\"kv\">\n<tr><th class=\"l\">column</th><th>runs</th>"
		      "<th class=\"l\">command</th></tr>\n");
	for (size_t c = 0; c < t->ncols; c++) {
		const struct ct_column_info *ci = &t->info[c];

		differ |= ci->command_varies;
		if (ci->command && cmd0 && strcmp(cmd0, ci->command))
			differ = 1;
		cmd0 = cmd0 ? cmd0 : ci->command;
		strbuf_addf(sb, "<tr><td class=\"k\"><svg viewBox=\"0 0 10 10\" width=\"10\" "
			    "height=\"10\"><rect width=\"10\" height=\"10\" fill=\"%s\"/></svg> ",
			    col_color(c));
		html_escape(sb, t->cols[c]);
		strbuf_addf(sb, "%s</td><td>%zu</td><td><code>", c ? "" : " (baseline)",
			    t->nruns[c]);
		html_escape(sb, ci->command_varies ? "its runs ran different commands" :
				ci->command ? ci->command : "- (not recorded)");
		strbuf_addstr(sb, "</code></td></tr>\n");
	}
	strbuf_addstr(sb, "</table></div>\n");
	if (differ)
		strbuf_addstr(sb, "<p><strong>The columns ran different commands.</strong></p>\n");
	strbuf_addstr(sb, "</section>\n");
}

static int has_row(const struct ct_table *t, const char *name)
{
	for (size_t r = 0; r < t->nrows; r++)
		if (!strcmp(t->rows[r].mi.name, name))
			return 1;
	return 0;
}

/* The runs' notes on rows the table has, as the text prints them. */
static void notes_section(struct strbuf *sb, struct strbuf *toc, const struct ct_table *t)
{
	int any = 0;

	for (size_t c = 0; c < t->ncols; c++) {
		for (const char *p = t->info[c].notes.buf; p && *p;) {
			const char *nl = strchr(p, '\n');
			size_t l = nl ? (size_t)(nl - p) : strlen(p);
			char *line = xasprintf("%.*s", (int)l, p), *text = strchr(line, '\t');

			if (text)
				*text++ = '\0';
			if (text && has_row(t, line)) {
				if (!any++) {
					html_toc_entry(toc, "notes", "Notes");
					strbuf_addstr(sb, "<section>\n<h2 id=\"notes\">Notes</h2>\n"
						      "<ul>\n");
				}
				strbuf_addstr(sb, "<li><strong>");
				html_escape(sb, t->cols[c]);
				strbuf_addstr(sb, "</strong>: ");
				html_escape(sb, text);
				strbuf_addstr(sb, "</li>\n");
			}
			free(line);
			p += l + (nl != NULL);
		}
	}
	if (any)
		strbuf_addstr(sb, "</ul>\n</section>\n");
}

struct findings_ctx {
	struct strbuf *sb, *toc;
	const struct ct_table *t;
	int any;
};

static void finding_row(void *ctx, const char *id, char *const *cells)
{
	struct findings_ctx *fc = ctx;
	struct strbuf *sb = fc->sb;

	if (!fc->any++) {
		html_toc_entry(fc->toc, "findings", "Findings that differ");
		strbuf_addstr(sb, "<section>\n<h2 id=\"findings\">Findings that differ</h2>\n"
			      "<p class=\"sub\">The highest severity of the column, the count "
			      "of each run; '-': not found; not run: no run had the data "
			      "(mmscope-report(1), FINDINGS).</p>\n<div class=\"scroll\">"
			      "<table class=\"kv\">\n<tr><th class=\"l\">finding</th>");
		for (size_t c = 0; c < fc->t->ncols; c++) {
			strbuf_addstr(sb, "<th class=\"l\">");
			html_escape(sb, fc->t->cols[c]);
			strbuf_addstr(sb, "</th>");
		}
		strbuf_addstr(sb, "</tr>\n");
	}
	strbuf_addstr(sb, "<tr><td class=\"k\"><code>");
	html_escape(sb, id);
	strbuf_addstr(sb, "</code></td>");
	for (size_t c = 0; c < fc->t->ncols; c++) {
		strbuf_addstr(sb, "<td class=\"l\">");
		html_escape(sb, cells[c]);
		strbuf_addstr(sb, "</td>");
	}
	strbuf_addstr(sb, "</tr>\n");
}

/* The findings that appear, vanish or change between the columns: the
 * text's "Findings that differ" block, as a table. */
static void findings_section(struct strbuf *sb, struct strbuf *toc, const struct ct_table *t)
{
	struct findings_ctx fc = { sb, toc, t, 0 };
	size_t same;

	if (!ct_findings_differ(t, finding_row, &fc, &same))
		return;
	strbuf_addstr(sb, "</table></div>\n");
	if (same)
		strbuf_addf(sb, "<p class=\"sub\">(%zu more the same in every column)</p>\n",
			    same);
	strbuf_addstr(sb, "</section>\n");
}

/* One table per run of rows of the same group (catalogue order). */
static void group_tables(struct strbuf *sb, struct strbuf *toc, const struct ct_table *t,
			 const struct ct_opts *o, size_t *hidden)
{
	const char *group = NULL;
	int nsec = 0;

	for (size_t r = 0; r < t->nrows; r++) {
		const struct ct_row *row = &t->rows[r];
		struct strbuf id = STRBUF_INIT;

		if (!shown(t, row, o)) {
			(*hidden)++;
			continue;
		}
		if (!group || strcmp(group, row->mi.group)) {
			if (group)
				strbuf_addstr(sb, "</table></div>\n</section>\n");
			group = row->mi.group;
			strbuf_addstr(&id, "group-");
			html_id(&id, group);
			if (nsec++)
				strbuf_addf(&id, "-%d", nsec);
			html_toc_entry(toc, id.buf, group);
			strbuf_addf(sb, "<section>\n<h2 id=\"%s\">", id.buf);
			html_escape(sb, group);
			strbuf_addstr(sb, "</h2>\n");
			table_head(sb, t);
		}
		strbuf_release(&id);
		for (size_t k = 0; k < o->nstats; k++)
			table_row(sb, t, row, &o->stats[k], o);
	}
	if (group)
		strbuf_addstr(sb, "</table></div>\n</section>\n");
}

void compare_render_html(const struct ct_table *t, const struct ct_opts *o,
			 const char *settings, struct strbuf *out)
{
	struct strbuf body = STRBUF_INIT, toc = STRBUF_INIT, title = STRBUF_INIT;
	size_t hidden = 0;

	strbuf_addstr(&title, "mmscope compare: ");
	for (size_t c = 0; c < t->ncols; c++)
		strbuf_addf(&title, "%s%s", c ? " vs " : "", t->cols[c]);
	html_toc_entry(&toc, "columns", "Columns");
	columns_section(&body, t);
	group_tables(&body, &toc, t, o, &hidden);
	if (hidden)
		strbuf_addf(&body, "<p class=\"sub\">(%zu row%s zero or absent in every column "
			    "not shown; --all shows them)</p>\n", hidden, hidden == 1 ? "" : "s");
	notes_section(&body, &toc, t);
	findings_section(&body, &toc, t);
	if (settings && *settings) {
		html_toc_entry(&toc, "settings", "Settings that differ");
		strbuf_addstr(&body, "<section>\n<h2 id=\"settings\">Settings that differ</h2>\n"
			      "<pre>");
		/* the text block, less its leading blank line and title */
		while (*settings == '\n')
			settings++;
		if (!strncmp(settings, "Settings that differ", 20) && strchr(settings, '\n'))
			settings = strchr(settings, '\n') + 1;
		html_escape(&body, settings);
		strbuf_addstr(&body, "</pre>\n</section>\n");
	}
	html_page_begin(out, title.buf);
	strbuf_addstr(out, "<header>\n<h1>");
	html_escape(out, title.buf);
	strbuf_addf(out, "</h1>\n<p class=\"sub\">The first column is the baseline; change: "
		    "%s; <span class=\"up\">worse</span> / <span class=\"down\">better</span> "
		    "for the metric, <span class=\"sig\">*</span> significant (Welch's t-test, "
		    "p &lt; %g, 2+ runs a side); '-': the column lacks the metric, n/a: "
		    "undefined.</p>\n</header>\n",
		    o->dialect == CT_PLAIN ? "against the baseline" :
		    "mmtests' convention, positive is better", o->alpha);
	strbuf_addstr(out, "<nav class=\"toc\" id=\"contents\"><strong>Contents</strong>\n<ol>\n");
	strbuf_add(out, toc.buf ? toc.buf : "", toc.len);
	strbuf_addstr(out, "</ol>\n</nav>\n<main>\n");
	strbuf_add(out, body.buf ? body.buf : "", body.len);
	strbuf_addf(out, "</main>\n<footer>mmscope %s compare</footer>\n", PACKAGE_VERSION);
	html_page_end(out);
	strbuf_release(&body);
	strbuf_release(&toc);
	strbuf_release(&title);
}
