// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * report --format html (see report-html.h). The sections are not written
 * a second time for HTML: each section's text renderer runs as for the
 * text report, and its lines are turned into markup, so a figure on the
 * page is the text report's figure, with its unit and its '-' when not
 * known, and a new section appears here with no change to this file.
 * A section whose blocks read better as tables than in the text's layout
 * brings its own markup (report_section_def.html: the kills, from the
 * same dossier lines the TUI and Perfetto show).
 * The charts are plot's, drawn into memory, one <svg> per chart.
 */
#include "config.h"
#include "analysis.h"
#include "html.h"
#include "plot.h"
#include "report-html.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The text report's underline of a title: a line of dashes only. */
static int is_rule(const char *s, size_t n)
{
	if (n < 20)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (s[i] != '-')
			return 0;
	return 1;
}

/*
 * The value column of a "label  value" line ("kernel    6.18.44"), or 0
 * when the line is not one: the label starts the line and is at most 14
 * characters, the value starts by column 16, and the value is prose (no
 * run of spaces: a line with aligned gaps is a table row and keeps its
 * alignment in a preformatted block). *lab: the label's length.
 */
static size_t kv_col(const char *s, size_t n, size_t *lab)
{
	size_t p = 0, v;

	if (!n || s[0] == ' ')
		return 0;
	while (p + 1 < n && !(s[p] == ' ' && s[p + 1] == ' '))
		p++;
	if (p + 1 >= n || p > 14)
		return 0;
	for (v = p; v < n && s[v] == ' '; v++)
		;
	if (v >= n || v > 16)
		return 0;
	for (size_t i = v; i + 1 < n; i++)
		if (s[i] == ' ' && s[i + 1] == ' ')
			return 0;
	*lab = p;
	return v;
}

static size_t indent_of(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n && s[i] == ' ')
		i++;
	return i;
}

struct html_conv {
	struct strbuf *out;
	const char *id;
	int headings;
	size_t table_col;	/* value column of the open table, 0: none */
	int pre;		/* a <pre> is open */
	int sev;		/* it is a finding's (class crit, warn, info) */
};

static void conv_close(struct html_conv *c)
{
	if (c->table_col)
		strbuf_addstr(c->out, "</table></div>\n");
	if (c->pre)
		strbuf_addstr(c->out, "</pre>\n");
	c->table_col = 0;
	c->pre = 0;
	c->sev = 0;
}

static void conv_heading(struct html_conv *c, const char *s, size_t n)
{
	conv_close(c);
	if (!c->headings++) {	/* the id is its <section>'s */
		strbuf_addstr(c->out, "<h2>");
		html_escape_n(c->out, s, n);
		strbuf_addstr(c->out, "</h2>\n");
		return;
	}
	strbuf_addstr(c->out, "<h3 id=\"");
	html_id(c->out, c->id);
	strbuf_addf(c->out, "-%d\">", c->headings);
	html_escape_n(c->out, s, n);
	strbuf_addstr(c->out, "</h3>\n");
}

struct text_line {
	const char *s;
	size_t n;
};

/* The findings section's line that opens a finding ("crit oom-kill
 * ..."): its box's class by severity, NULL for any other line. */
static const char *finding_sev_class(const struct text_line *l)
{
	static const char *const sev[] = { "crit", "warn", "info" };

	for (size_t k = 0; k < ARRAY_SIZE(sev); k++)
		if (l->n > 5 && !strncmp(l->s, sev[k], 4) && l->s[4] == ' ' && l->s[5] != ' ')
			return sev[k];
	return NULL;
}

/* A "label  value" row and the continuation lines under its value. */
static size_t conv_kv(struct html_conv *c, const struct text_line *l, size_t nl, size_t i,
		      size_t v, size_t lab)
{
	if (c->pre || (c->table_col && c->table_col != v))
		conv_close(c);
	if (!c->table_col)
		strbuf_addstr(c->out, "<div class=\"scroll\"><table class=\"kv\">\n");
	c->table_col = v;
	strbuf_addstr(c->out, "<tr><td class=\"k\">");
	html_escape_n(c->out, l[i].s, lab);
	strbuf_addstr(c->out, "</td><td>");
	html_escape_n(c->out, l[i].s + v, l[i].n - v);
	while (i + 1 < nl && l[i + 1].n > v && indent_of(l[i + 1].s, l[i + 1].n) == v) {
		i++;
		strbuf_addstr(c->out, "<br>");
		html_escape_n(c->out, l[i].s + v, l[i].n - v);
	}
	strbuf_addstr(c->out, "</td></tr>\n");
	return i;
}

/* A figure cell: 12, 0.375, 91.4%, +672, or '-' (not known). */
static int is_figure(const char *s, size_t n)
{
	size_t i = 0, digits = 0;

	if (n == 1 && s[0] == '-')
		return 1;
	if (i < n && (s[i] == '+' || s[i] == '-'))
		i++;
	for (; i < n && ((s[i] >= '0' && s[i] <= '9') || s[i] == '.'); i++)
		digits += s[i] != '.';
	if (i < n && s[i] == '%')
		i++;
	return digits && i == n;
}

/* A header line: three words or more, none of them a figure. */
static int is_header(const char *s, size_t n)
{
	size_t words = 0;

	if (n && s[n - 1] == ':')	/* a line of prose that introduces lines */
		return 0;
	for (size_t i = 0; i < n;) {
		size_t w;

		while (i < n && s[i] == ' ')
			i++;
		for (w = i; w < n && s[w] != ' '; w++)
			;
		if (w > i) {
			if (is_figure(s + i, w - i) && !(w - i == 1 && s[i] == '-'))
				return 0;
			words++;
		}
		i = w;
	}
	return words >= 3;
}

/* The columns of an aligned table: the runs of character positions that
 * some line of it fills (occ[pos]); the gaps between are blank in every
 * line. Returns their number, with their [start, end) in col. */
#define TABLE_MAXCOL 24
static int table_columns(const unsigned char *occ, size_t w, size_t col[][2])
{
	int n = 0;

	for (size_t p = 0; p < w;) {
		size_t q;

		while (p < w && !occ[p])
			p++;
		if (p >= w)
			break;
		for (q = p; q < w && occ[q]; q++)
			;
		if (n == TABLE_MAXCOL)
			return TABLE_MAXCOL + 1;
		col[n][0] = p, col[n][1] = q;
		n++;
		p = q;
	}
	return n;
}

/* The cell of line l in [a, b), without its blanks. */
static const char *cell_of(const struct text_line *l, size_t a, size_t b, size_t *n)
{
	const char *s = l->s;

	if (b > l->n)
		b = l->n;
	while (a < b && s[a] == ' ')
		a++;
	while (b > a && s[b - 1] == ' ')
		b--;
	*n = a < b ? b - a : 0;
	return s + a;
}

/* Does any row of [i+1, m] have a cell in column c (a figure, if fig)? */
static int column_has(const struct text_line *l, size_t i, size_t m, const size_t *col, int fig)
{
	for (size_t k = i + 1; k <= m; k++) {
		size_t n;
		const char *t = cell_of(&l[k], col[0], col[1], &n);

		if (n && (!fig || is_figure(t, n)))
			return 1;
	}
	return 0;
}

/* Does a row fill one of the two columns and not the other (words of
 * labels of different lengths, not two columns always filled)? */
static int ragged(const struct text_line *l, size_t i, size_t m, const size_t *a,
		  const size_t *b)
{
	for (size_t k = i + 1; k <= m; k++) {
		size_t na, nb;

		cell_of(&l[k], a[0], a[1], &na);
		cell_of(&l[k], b[0], b[1], &nb);
		if (!na != !nb)
			return 1;
	}
	return 0;
}

static int column_join(size_t col[][2], int ncol, int c)	/* c and c + 1 */
{
	col[c][1] = col[c + 1][1];
	memmove(col[c + 1], col[c + 2], (size_t)(ncol - c - 2) * sizeof(col[0]));
	return ncol - 1;
}

/*
 * Columns that are words of one cell, joined: a column only the header
 * fills, to the nearer column ("pool kB" over figures right-aligned
 * under "kB", "for kswapd" over "yes" under "for"); two columns of words
 * one blank apart that rows fill unevenly ("Ops Allocation stalls"
 * against "Ops Swap Ins").
 */
static int table_merge(const struct text_line *l, size_t i, size_t m, size_t col[][2], int ncol)
{
	for (int c = 0; c < ncol && ncol > 1;) {
		if (column_has(l, i, m, col[c], 0)) {
			c++;
			continue;
		}
		/* to the nearer neighbour, the left one on a tie */
		if (c > 0 && (c + 1 >= ncol ||
			      col[c][0] - col[c - 1][1] <= col[c + 1][0] - col[c][1]))
			ncol = column_join(col, ncol, c - 1);
		else
			ncol = column_join(col, ncol, c);
	}
	for (int c = 0; c + 1 < ncol;) {
		if (col[c + 1][0] - col[c][1] == 1 && !column_has(l, i, m, col[c], 1) &&
		    !column_has(l, i, m, col[c + 1], 1) && ragged(l, i, m, col[c], col[c + 1]))
			ncol = column_join(col, ncol, c);
		else
			c++;
	}
	return ncol;
}

/* Is the line aligned: two blanks or more between words? Prose is not. */
static int aligned(const char *s, size_t n)
{
	size_t i = indent_of(s, n);

	for (; i + 2 < n; i++)
		if (s[i] == ' ' && s[i + 1] == ' ')
			return 1;
	return 0;
}

/* Are the lines [i, m] a table with ncol columns: every header cell
 * named, every row with a figure and at most one empty cell, every line
 * aligned? */
static int table_fits(const struct text_line *l, size_t i, size_t m, size_t col[][2], int ncol)
{
	for (size_t k = i; k <= m; k++) {
		int empty = 0, figures = 0;

		if (!aligned(l[k].s, l[k].n))
			return 0;
		for (int c = 0; c < ncol; c++) {
			size_t n;
			const char *t = cell_of(&l[k], col[c][0], col[c][1], &n);

			empty += !n;
			figures += n && is_figure(t, n);
		}
		if (k == i ? empty > 0 : empty > 1 || !figures)
			return 0;
	}
	return 1;
}

/*
 * An aligned table of the text (a header line of words, then rows of
 * figures under them: "kind  count  p50 ms ...") starting at line i, as
 * a <table>; its number of lines, or 0 when there is none. The columns
 * are where every line is blank, so no cell can cut a word; the table
 * ends at the first line that would merge two columns or that has no
 * figure (a line of prose under it).
 */
static size_t conv_table(struct html_conv *c, const struct text_line *l, size_t nl, size_t i)
{
	size_t w = 0, m, col[TABLE_MAXCOL + 1][2], best = 0;
	unsigned char *occ;
	int ncol = 0, n;

	if (!is_header(l[i].s, l[i].n))
		return 0;
	for (m = i; m < nl && m < i + 4096 && l[m].n; m++)
		w = l[m].n > w ? l[m].n : w;
	occ = xcalloc(w + 1, 1);
	for (m = i; m < nl && l[m].n && m < i + 4096; m++) {
		size_t lab;

		if (m > i && (kv_col(l[m].s, l[m].n, &lab) ||
			      (m + 1 < nl && is_rule(l[m + 1].s, l[m + 1].n))))
			break;
		for (size_t p = 0; p < l[m].n; p++)
			occ[p] |= l[m].s[p] != ' ';
		n = table_columns(occ, w, col);
		if (m == i)
			continue;
		if (n <= TABLE_MAXCOL)
			n = table_merge(l, i, m, col, n);
		if (n < 3 || n > TABLE_MAXCOL || (ncol && n != ncol) || !table_fits(l, i, m, col, n))
			break;
		ncol = n;
		best = m;
	}
	if (!best) {
		free(occ);
		return 0;
	}
	/* the columns of the rows kept */
	memset(occ, 0, w + 1);
	for (m = i; m <= best; m++)
		for (size_t p = 0; p < l[m].n; p++)
			occ[p] |= l[m].s[p] != ' ';
	ncol = table_columns(occ, w, col);
	free(occ);
	ncol = table_merge(l, i, best, col, ncol);
	conv_close(c);
	strbuf_addstr(c->out, "<div class=\"scroll\"><table class=\"text\">\n");
	for (m = i; m <= best; m++) {
		strbuf_addstr(c->out, "<tr>");
		for (int k = 0; k < ncol; k++) {
			size_t tn, rn;
			const char *t = cell_of(&l[m], col[k][0], col[k][1], &tn);
			/* figures right-aligned, as in the text; words left */
			const char *r = cell_of(&l[best], col[k][0], col[k][1], &rn);
			int left = !(rn && is_figure(r, rn));

			strbuf_addf(c->out, m == i ? "<th%s>" : "<td%s>", left ? " class=\"l\"" : "");
			html_escape_n(c->out, t, tn);
			strbuf_addstr(c->out, m == i ? "</th>" : "</td>");
		}
		strbuf_addstr(c->out, "</tr>\n");
	}
	strbuf_addstr(c->out, "</table></div>\n");
	return best - i + 1;
}

void report_html_text(struct strbuf *out, const char *id, const char *text, size_t len)
{
	struct html_conv c = { .out = out, .id = id };
	struct text_line *l = NULL;
	size_t nl = 0, cap = 0;

	for (size_t at = 0; at < len;) {
		const char *nlp = memchr(text + at, '\n', len - at);
		size_t n = nlp ? (size_t)(nlp - (text + at)) : len - at;

		if (nl == cap)
			l = xreallocarray(l, cap = cap ? 2 * cap : 64, sizeof(*l));
		l[nl++] = (struct text_line){ text + at, n };
		at += n + (nlp != NULL);
	}
	for (size_t i = 0; i < nl; i++) {
		size_t v, lab;

		if (i + 1 < nl && l[i].n && is_rule(l[i + 1].s, l[i + 1].n)) {
			conv_heading(&c, l[i].s, l[i].n);
			i++;
		} else if ((v = kv_col(l[i].s, l[i].n, &lab))) {
			i = conv_kv(&c, l, nl, i, v, lab);
		} else if (!l[i].n) {
			conv_close(&c);
		} else if ((v = conv_table(&c, l, nl, i))) {
			i += v - 1;
		} else if (c.id && !strcmp(c.id, "findings") && finding_sev_class(&l[i])) {
			/* a finding: its own box, coloured by its severity */
			conv_close(&c);
			strbuf_addf(out, "<pre class=\"%s\">", finding_sev_class(&l[i]));
			c.pre = c.sev = 1;
			html_escape_n(out, l[i].s, l[i].n);
		} else {
			if (c.table_col)
				conv_close(&c);
			/* after a finding's box, what is not its indented
			 * detail is a plain block */
			if (c.pre && c.sev && l[i].n && l[i].s[0] != ' ')
				conv_close(&c);
			strbuf_addstr(out, c.pre ? "\n" : "<pre>");
			c.pre = 1;
			html_escape_n(out, l[i].s, l[i].n);
		}
	}
	conv_close(&c);
	free(l);
}

static int wanted(const struct report_opts *o, int i)
{
	return i >= 0 && (!o->sections || (o->sections & (1u << i)));
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* The first line of a section's text: its title, for the contents. */
static void first_line(struct strbuf *dst, const struct strbuf *text)
{
	size_t n = text->len ? strcspn(text->buf, "\n") : 0;

	strbuf_add(dst, text->buf ? text->buf : "", n);
}

/* One chart as an <svg> of its own, the window the analysis covers on
 * its x axis as in mmscope plot. */
static void html_chart(struct strbuf *out, const struct analysis *a, int c, const char *pre)
{
	const struct analysis_info *in = analysis_info(a);
	struct plot p = { .a = a, .y = 4, .first = in->first_ts, .kill_ids = pre,
			  .t0 = in->windowed && in->since_ts > in->first_ts ? in->since_ts :
				in->first_ts,
			  .t1 = in->windowed && in->until_ts < in->last_ts ? in->until_ts :
				in->last_ts };

	if (p.t1 < p.t0)
		p.t1 = p.t0;
	plot_charts[c].draw(&p);
	strbuf_addf(out, "<h3 id=\"%schart-", pre);
	html_id(out, plot_charts[c].name);
	strbuf_addf(out, "\">%s</h3>\n<p class=\"sub\">", plot_charts[c].name);
	html_escape(out, plot_charts[c].help);
	strbuf_addf(out, "</p>\n<div class=\"chart\"><svg viewBox=\"0 0 %.0f %.0f\" "
		    "width=\"%.0f\" height=\"%.0f\" role=\"img\" aria-label=\"",
		    PLOT_W, p.y + 6, PLOT_W, p.y + 6);
	html_escape(out, plot_charts[c].help);
	strbuf_addstr(out, "\" font-family=\"DejaVu Sans, Arial, sans-serif\">\n"
		      "<rect width=\"100%\" height=\"100%\" fill=\"#fafafa\"/>\n");
	strbuf_add(out, p.body.buf ? p.body.buf : "", p.body.len);
	strbuf_addstr(out, "</svg></div>\n");
	strbuf_release(&p.body);
}

static void html_charts(struct strbuf *out, const struct analysis *a, const char *pre)
{
	const struct analysis_info *in = analysis_info(a);

	strbuf_addf(out, "<section id=\"%scharts\">\n<h2>Charts</h2>\n", pre);
	if (in->windowed && !in->events) {
		strbuf_addstr(out, "<p>No event in the window: nothing to draw.</p>\n");
	} else {
		strbuf_addstr(out, "<p class=\"sub\">As <code>mmscope plot</code> draws them; "
			      "kills are marked in red, each a link to its block in Kills.</p>\n");
		for (int c = 0; c < plot_ncharts; c++)
			html_chart(out, a, c, pre);
	}
	strbuf_addstr(out, "</section>\n");
}

/* Section i's text into out as markup, and its entry into the contents;
 * nothing when the text report prints nothing for it. */
static void html_section(struct strbuf *out, struct strbuf *toc, const struct analysis *a,
			 const struct report_opts *o, int i, const char *pre)
{
	struct strbuf text = STRBUF_INIT, title = STRBUF_INIT, id = STRBUF_INIT;
	struct report_ctx rc = { a, analysis_info(a), o, &text, NULL };

	report_sections[i].text(&rc);
	if (!text.len) {	/* a section the text leaves out here (phases) */
		strbuf_release(&text);
		return;
	}
	first_line(&title, &text);
	strbuf_addf(&id, "%s%s", pre, report_sections[i].name);
	/* the header's title is the page's: the contents say what it is */
	html_toc_entry(toc, id.buf,
		       !strcmp(report_sections[i].name, "header") ? "Recording" : title.buf);
	if (report_sections[i].html) {
		/* its own markup: not a run of the text's words (class
		 * "own", so the tests that hold the page to the text know) */
		strbuf_addf(out, "<section class=\"own\" id=\"%s\">\n", id.buf);
		report_sections[i].html(&rc, out, pre);
	} else {
		strbuf_addf(out, "<section class=\"report\" id=\"%s\">\n", id.buf);
		report_html_text(out, id.buf, text.buf ? text.buf : "", text.len);
	}
	strbuf_addstr(out, "</section>\n");
	strbuf_release(&text);
	strbuf_release(&title);
	strbuf_release(&id);
}

/* A recording's sections and charts into body, their entries into toc,
 * every id after pre ("" for a page of one recording). */
static void html_body(const struct analysis *a, const struct report_opts *o, const char *pre,
		      struct strbuf *body, struct strbuf *toc)
{
	int findings = report_section_find("findings");

	/* the findings are what a reader wants first */
	if (wanted(o, findings))
		html_section(body, toc, a, o, findings, pre);
	for (int i = 0; i < report_nsections; i++)
		if (i != findings && wanted(o, i))
			html_section(body, toc, a, o, i, pre);
	if (!o->sections) {
		struct strbuf id = STRBUF_INIT;

		strbuf_addf(&id, "%scharts", pre);
		html_toc_entry(toc, id.buf, "Charts");
		html_charts(body, a, pre);
		strbuf_release(&id);
	}
}

static void html_page(struct strbuf *out, const char *title, const char *kernel,
		      const char *host, const struct strbuf *toc, const struct strbuf *body)
{
	html_page_begin(out, title);
	strbuf_addstr(out, "<header>\n<h1>");
	html_escape(out, title);
	strbuf_addstr(out, "</h1>\n<p class=\"sub\">kernel ");
	html_escape(out, kernel && *kernel ? kernel : "-");
	strbuf_addstr(out, ", host ");
	html_escape(out, host && *host ? host : "-");
	strbuf_addstr(out, "</p>\n</header>\n<nav class=\"toc\" id=\"contents\">"
		      "<strong>Contents</strong>\n<ol>\n");
	strbuf_add(out, toc->buf ? toc->buf : "", toc->len);
	strbuf_addstr(out, "</ol>\n</nav>\n<main>\n");
	strbuf_add(out, body->buf ? body->buf : "", body->len);
	strbuf_addf(out, "</main>\n<footer>mmscope %s report; the figures are those "
		    "of <code>mmscope report</code> (text), '-' where not known.</footer>\n",
		    PACKAGE_VERSION);
	html_page_end(out);
}

void report_render_html(const struct analysis *a, const struct report_opts *o,
			struct strbuf *out)
{
	const struct analysis_info *in = analysis_info(a);
	const char *name = base_name(in->path ? in->path : "-");
	struct strbuf body = STRBUF_INIT, toc = STRBUF_INIT, title = STRBUF_INIT;

	html_body(a, o, "", &body, &toc);
	strbuf_addf(&title, "mmscope report: %s", name);
	html_page(out, title.buf, in->kernel, in->host, &toc, &body);
	strbuf_release(&body);
	strbuf_release(&toc);
	strbuf_release(&title);
}

/* ---- a host's history on one page ---- */

struct html_history {
	struct strbuf body, toc;
	char kernel[96], host[96];
	int runs;
};

struct html_history *report_html_history_new(void)
{
	return xcalloc(1, sizeof(struct html_history));
}

void report_html_history_text(struct html_history *h, const char *id, const char *text,
			      size_t len)
{
	struct strbuf title = STRBUF_INIT, t = STRBUF_INIT;

	strbuf_add(&t, text, len);
	first_line(&title, &t);
	html_toc_entry(&h->toc, id, title.buf ? title.buf : id);
	strbuf_addf(&h->body, "<section class=\"report\" id=\"%s\">\n", id);
	report_html_text(&h->body, id, text, len);
	strbuf_addstr(&h->body, "</section>\n");
	strbuf_release(&title);
	strbuf_release(&t);
}

void report_html_history_run(struct html_history *h, const struct analysis *a,
			     const struct report_opts *o, const char *heading, const char *gap)
{
	const struct analysis_info *in = analysis_info(a);
	struct strbuf pre = STRBUF_INIT, toc = STRBUF_INIT;

	if (!h->runs++) {
		snprintf(h->kernel, sizeof(h->kernel), "%s", in->kernel);
		snprintf(h->host, sizeof(h->host), "%s", in->host);
	}
	strbuf_addf(&pre, "run%d-", h->runs);
	if (gap && *gap) {
		strbuf_addstr(&h->body, "<p class=\"sub\"><em>");
		html_escape(&h->body, gap);
		strbuf_addstr(&h->body, "</em></p>\n");
	}
	strbuf_addf(&h->body, "<section class=\"run\" id=\"run%d\">\n<h2>", h->runs);
	html_escape(&h->body, heading);
	strbuf_addstr(&h->body, "</h2>\n");
	html_body(a, o, pre.buf, &h->body, &toc);
	strbuf_addstr(&h->body, "</section>\n");
	/* the run in the contents, its sections under it */
	strbuf_addf(&h->toc, "<li><a href=\"#run%d\">", h->runs);
	html_escape(&h->toc, heading);
	strbuf_addstr(&h->toc, "</a>\n<ol>\n");
	strbuf_add(&h->toc, toc.buf ? toc.buf : "", toc.len);
	strbuf_addstr(&h->toc, "</ol></li>\n");
	strbuf_release(&pre);
	strbuf_release(&toc);
}

void report_html_history_end(struct html_history *h, const char *title, struct strbuf *out)
{
	html_page(out, title, h->kernel, h->host, &h->toc, &h->body);
	strbuf_release(&h->body);
	strbuf_release(&h->toc);
	free(h);
}
