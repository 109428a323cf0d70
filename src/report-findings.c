// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The findings section, text and JSON (see report-findings.h).
 *
 *   crit oom-kill                1 kill, first anon-touch 14245 (memcg*)
 *   warn direct-reclaim-stalls   906 stalls, p99 12.583 ms, max 40.370 ms
 *
 * Critical first, then warnings, then info; within a severity in the
 * order of the rule table (src/findings.c).
 */
#include "config.h"
#include "report-findings.h"
#include "findings.h"
#include "json.h"

#include <stdio.h>
#include <string.h>

static const char *sev_short(enum finding_severity s)
{
	static const char *const names[FSEV_NR] = { "info", "warn", "crit" };

	return (unsigned)s < FSEV_NR ? names[s] : "?";
}

/* --section findings and nothing else: the whole of every finding. */
static int alone(const struct report_ctx *rc)
{
	int i = report_section_find("findings");

	return i >= 0 && rc->o->sections == (1u << i);
}

static void finding_line(struct report_ctx *rc, const struct finding *f)
{
	char prefix[40];

	snprintf(prefix, sizeof(prefix), "%-4s %-23s ", sev_short(f->severity), f->rule->id);
	report_wrap(rc, prefix, f->summary);
}

static void finding_times(const struct finding *f, char *buf, size_t len)
{
	char a[24] = "-", b[24] = "-";

	if (f->has_t_start)
		snprintf(a, sizeof(a), "%.3f", f->t_start);
	if (f->has_t_end)
		snprintf(b, sizeof(b), "%.3f", f->t_end);
	snprintf(buf, len, "%s .. %s s", a, b);
}

static void finding_detail(struct report_ctx *rc, const struct finding *f)
{
	char buf[320];

	finding_line(rc, f);
	finding_times(f, buf, sizeof(buf));
	/* "1 kill", "2 kills": every unit is a plural in s ("passes": es) */
	snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "; count %llu %.*s (%s section)",
		 (unsigned long long)f->count, unit_len((long long)f->count, f->count_unit),
		 f->count_unit, f->rule->section);
	report_wrap(rc, "     when ", buf);
	for (int i = 0; i < f->nev; i++) {
		snprintf(buf, sizeof(buf), "%s [%s; %s]", f->ev[i].figure, f->ev[i].source,
			 f->ev[i].section);
		report_wrap(rc, "     - ", buf);
	}
	report_wrap(rc, "     why  ", f->mechanism);
}

void report_text_findings(struct report_ctx *rc)
{
	struct findings *fs = findings_build(rc->a);
	int skipped[32], ns = findings_unevaluated(rc->a, skipped, 32);
	int n = fs->n, shown = n;

	report_title(rc, "Findings");
	if (alone(rc)) {
		for (int i = 0; i < n; i++)
			finding_detail(rc, &fs->f[i]);
		if (!n)
			report_line(rc, "none: no rule fired (mmscope-report(1), FINDINGS)");
		for (int i = 0; i < ns && i < 32; i++) {
			char buf[200];

			snprintf(buf, sizeof(buf), "%s: needs %s", finding_rules[skipped[i]].id,
				 finding_rules[skipped[i]].needs);
			report_wrap(rc, "not run   ", buf);
		}
		findings_free(fs);
		return;
	}
	/* at most REPORT_FINDINGS_LINES lines: the findings, then one line
	 * for those left out or for the rules that had no data */
	if (n + (ns > 0) > REPORT_FINDINGS_LINES)
		shown = REPORT_FINDINGS_LINES - 1;
	if (!n)
		report_line(rc, "none: no rule fired (mmscope-report(1), FINDINGS)");
	for (int i = 0; i < shown; i++)
		finding_line(rc, &fs->f[i]);
	if (shown < n)
		report_line(rc, "(%d more; --section findings lists all)", n - shown);
	else if (ns)
		report_line(rc, "%d of %d rules had no data (--section findings: which)", ns,
			    finding_nrules);
	findings_free(fs);
}

void report_json_findings(struct report_ctx *rc)
{
	struct findings *fs = findings_build(rc->a);
	struct json_writer *j = rc->jw;

	json_array(j, "findings");
	for (int i = 0; i < fs->n; i++) {
		const struct finding *f = &fs->f[i];

		json_object(j, NULL);
		json_str(j, "id", f->rule->id);
		json_str(j, "severity", finding_severity_name(f->severity));
		/* seconds from the first event; null: not known */
		if (f->has_t_start)
			json_fixed(j, "t_start", f->t_start, 6);
		else
			json_null(j, "t_start");
		if (f->has_t_end)
			json_fixed(j, "t_end", f->t_end, 6);
		else
			json_null(j, "t_end");
		json_u64(j, "count", f->count);
		json_str(j, "unit", f->count_unit);
		json_str(j, "section", f->rule->section);
		/* null: does not apply, or not known */
		json_s64_or_null(j, "order", f->order, f->order >= 0);
		json_s64_or_null(j, "node", f->node, f->node >= 0);
		if (f->zone[0])
			json_str(j, "zone", f->zone);
		else
			json_null(j, "zone");
		json_s64_or_null(j, "device", f->device, f->device >= 0);
		if (f->task[0])
			json_str(j, "task", f->task);
		else
			json_null(j, "task");
		json_str(j, "summary", f->summary);
		json_array(j, "evidence");
		for (int e = 0; e < f->nev; e++) {
			json_object_inline(j, NULL);
			json_str(j, "figure", f->ev[e].figure);
			json_str(j, "source", f->ev[e].source);
			json_str(j, "section", f->ev[e].section);
			json_close(j);
		}
		json_close(j);
		json_str(j, "mechanism", f->mechanism);
		json_close(j);
	}
	json_close(j);
	/* the rules that could not run: an empty findings array beside them
	 * means "none of the others fired", not "nothing went wrong" */
	{
		int skipped[32], ns = findings_unevaluated(rc->a, skipped, 32);

		json_array(j, "findings_not_run");
		for (int i = 0; i < ns && i < 32; i++) {
			json_object_inline(j, NULL);
			json_str(j, "id", finding_rules[skipped[i]].id);
			json_str(j, "needs", finding_rules[skipped[i]].needs);
			json_close(j);
		}
		json_close(j);
	}
	findings_free(fs);
}
