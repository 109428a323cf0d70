// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kills section of report --format html (see report-kills.h). Its
 * own markup, not the text's lines turned into markup: a kill's dossier
 * is a table of labelled lines (kill-dossier-lines.h), the same lines the
 * TUI and Perfetto show, so the page computes no figure of its own. Each
 * kill is a block with an id (PREkill-N, N from 1 in time order) that the
 * charts' kill marks link to. Every string from the recording (task
 * names, cgroup paths) is escaped: they are the traced system's, not
 * ours.
 */
#include "config.h"
#include "html.h"
#include "kill-dossier.h"
#include "kill-dossier-lines.h"
#include "report-kills.h"

#include <stdio.h>

/* The block's heading: time, killer and victim, as the text's line. */
static void kill_heading(struct strbuf *out, double t_s, const struct kill_dossier *d)
{
	const struct oom_kill *k = d->kill;

	strbuf_addf(out, "<h3>%.6f s, ", t_s);
	html_escape(out, d->killer);
	strbuf_addstr(out, ": ");
	html_escape(out, *k->comm ? k->comm : "-");
	if (k->pid >= 0)
		strbuf_addf(out, " %d", k->pid);
	strbuf_addstr(out, "</h3>\n");
}

/* The dossier's lines: a row each, keyed for the tests and for links. */
static void kill_table(struct strbuf *out, const struct kill_dossier *d)
{
	struct kd_line l[KD_LINES_MAX];
	int n = kill_dossier_lines(d, l, KD_LINES_MAX);

	strbuf_addstr(out, "<div class=\"scroll\"><table class=\"kv\">\n");
	for (int i = 0; i < n; i++) {
		strbuf_addstr(out, "<tr data-key=\"");
		html_escape(out, l[i].key);
		strbuf_addstr(out, "\"><td class=\"k\">");
		html_escape(out, l[i].label);
		strbuf_addstr(out, "</td><td>");
		html_escape(out, l[i].value);
		strbuf_addstr(out, "</td></tr>\n");
	}
	strbuf_addstr(out, "</table></div>\n");
}

void report_html_kill(struct strbuf *out, const char *pre, int n, double t_s,
		      const struct kill_dossier *d)
{
	char head[512];

	strbuf_addf(out, "<div class=\"kill\" id=\"%skill-%d\">\n", pre, n);
	kill_heading(out, t_s, d);
	kill_dossier_headline(d, head, (int)sizeof(head));
	strbuf_addstr(out, "<p class=\"headline\">");
	/* a window with nothing known has no headline: say so, not "" */
	html_escape(out, *head ? head : "nothing of the window before it is known");
	strbuf_addstr(out, "</p>\n");
	kill_table(out, d);
	strbuf_addstr(out, "</div>\n");
}

void report_html_kills(struct report_ctx *rc, struct strbuf *out, const char *pre)
{
	int n = kill_dossier_count(rc->a), shown = 0;
	char line[512];

	strbuf_addstr(out, "<h2>Kills</h2>\n");
	if (!report_kills_recorded(rc)) {
		strbuf_addstr(out, "<p class=\"none\">Kills not recorded in this file "
			      "(<code>mmscope record -g oom</code>).</p>\n");
		return;
	}
	report_kills_line(rc, line, sizeof(line));
	strbuf_addstr(out, "<p class=\"sub\">");
	html_escape(out, line);
	strbuf_addstr(out, "</p>\n");
	for (int i = 0; i < n; i++) {
		struct kill_dossier d;

		if (kill_dossier_get(rc->a, i, &d))
			continue;
		report_html_kill(out, pre, i + 1, report_rel_s(rc, d.ts), &d);
		shown++;
	}
	/* no table of nothing: a recording without kills says it */
	if (!shown)
		strbuf_addstr(out, "<p class=\"none\">No kill in this recording.</p>\n");
}
