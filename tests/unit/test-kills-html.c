// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A kill's block on the report's HTML page (src/report-kills-html.c):
 * task names and cgroup paths come from the traced system, so a victim,
 * sender or candidate named like markup shows as text and opens no tag;
 * the block has its id and a row per dossier line; a window with nothing
 * known says so instead of an empty headline.
 */
#include "config.h"
#include "kill-dossier-lines.h"
#include "report-kills.h"
#include "tap.h"

#include <math.h>
#include <string.h>

static void hostile_dossier(struct kill_dossier *d, struct oom_kill *k)
{
	memset(k, 0, sizeof(*k));
	memset(d, 0, sizeof(*d));
	k->pid = 4242;
	strcpy(k->comm, "<script>x</sc");	/* 15 bytes: a task name's room */
	k->by_pid = 77;
	strcpy(k->by_comm, "a\"b'c&d<i>");
	d->kill = k;
	strcpy(d->killer, "other:<b>");
	d->victim_cgroup = "/x\"><img src=y>";
	d->window_ns = 10000000000ull;
	d->direct_stalls = d->memcg_stalls = d->cg_direct_stalls = d->cg_memcg_stalls = -1;
	d->kswapd_episodes = d->handoffs = d->compaction_runs = d->compaction_failures = -1;
	d->psi_some_avg10 = d->psi_full_avg10 = d->psi_age_s = NAN;
	d->swap_size_kb = d->swap_used_kb = -1;
	d->swap_free_pct = NAN;
	d->zswap_pool_bytes = -1;
	d->cg_usage_bytes = d->cg_limit_bytes = -1;	/* no sample of its cgroup */
	d->cg_usage_pct = d->cg_sample_age_s = d->cg_delta_s = NAN;
	d->ncandidates = 1;
	d->candidate[0] = (struct kw_task){ .pid = 9, .comm = "</td><b>", .rss_kb = 1,
					    .swap_kb = -1 };
}

static int count(const char *s, const char *what)
{
	int n = 0;

	for (const char *p = s; (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

int main(void)
{
	struct strbuf sb = STRBUF_INIT;
	struct kd_line l[KD_LINES_MAX];
	struct kill_dossier d;
	struct oom_kill k;
	const char *s;
	int n, unknown = 0;

	hostile_dossier(&d, &k);
	n = kill_dossier_lines(&d, l, KD_LINES_MAX);
	report_html_kill(&sb, "run2-", 3, 1.5, &d);
	s = sb.buf;
	ok(strstr(s, "<div class=\"kill\" id=\"run2-kill-3\">") != NULL, "the block's id");
	ok(strstr(s, "<h3>1.500000 s, other:&lt;b&gt;: &lt;script&gt;x&lt;/sc 4242</h3>") != NULL,
	   "the heading: time, killer and victim, escaped");
	ok(!strstr(s, "<script") && !strstr(s, "<img") && !strstr(s, "<b>") && !strstr(s, "<i>"),
	   "no name opens a tag");
	ok(strstr(s, "a&quot;b&#39;c&amp;d&lt;i&gt; 77") != NULL, "the sender, escaped");
	ok(strstr(s, "/x&quot;&gt;&lt;img src=y&gt;") != NULL, "the cgroup, escaped");
	ok(strstr(s, "&lt;/td&gt;&lt;b&gt; 9 1+-") != NULL, "a candidate, escaped, '-' unknown");
	is_int(count(s, "<tr data-key="), n, "a row per dossier line");
	/* the sender's cgroup, 4 stall lines, 4 counts, 2 PSI, swap, zswap */
	for (int i = 0; i < n; i++)
		unknown += !strcmp(l[i].value, "-");
	is_int(unknown, 13, "the lines: 13 figures unknown");
	is_int(count(s, "<td>-</td>"), unknown, "every unknown figure is '-' on the page");
	ok(strstr(s, "<p class=\"headline\">nothing of the window before it is known</p>") != NULL,
	   "no figure known: the headline says so");
	strbuf_release(&sb);
	return tap_done();
}
