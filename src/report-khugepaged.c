// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The khugepaged section, text and JSON (see report-khugepaged.h).
 *
 *   order   scans  collapsible  collapses      ok  failed
 *   9 (2M)    120           30         30      28       2
 *     not collapsible: exceed_none_pte 60, page_pmd_mapped 30
 *     collapse failed: alloc_huge_page_failed 2
 *
 * "collapsible" is a scan whose result is "succeeded": khugepaged then
 * tries a collapse, whose own result says how it ended. Counts are
 * events; each scan and collapse is one PMD-sized (or mTHP) range.
 */
#include "config.h"
#include "report-khugepaged.h"
#include "model-khugepaged.h"

#include <stdio.h>
#include <string.h>

#define ULL(x) ((unsigned long long)(x))

static const struct khugepaged_model *model(const struct report_ctx *rc)
{
	return analysis_model(rc->a, &khugepaged_model_ops);
}

/* Whether the khugepaged group was recorded (its first event enabled). */
static int recorded(const struct report_ctx *rc)
{
	return khugepaged_model_seen(model(rc)) ||
	       analysis_has_event(rc->a, "huge_memory", "mm_khugepaged_scan_pmd") ||
	       analysis_has_event(rc->a, "huge_memory", "mm_collapse_huge_page");
}

static void size_name(int order, char *buf, size_t len)
{
	unsigned long long kb = 4ULL << order;	/* 4K pages */

	if (kb >= 1024)
		snprintf(buf, len, "%d (%lluM)", order, kb / 1024);
	else
		snprintf(buf, len, "%d (%lluK)", order, kb);
}

/* "name n, name n" of the scan (which = 0) or collapse (1) failures. */
static int results(const struct thp_order *o, int which, char *buf, size_t len)
{
	size_t at = 0;
	int n = 0;

	buf[0] = '\0';
	for (int i = 0; i <= o->nresults; i++) {
		const struct thp_result *r = i < o->nresults ? &o->results[i] : &o->other;
		uint64_t c = which ? r->collapse : r->scan;

		if (!c || !strcmp(r->name, "succeeded") || at >= len)
			continue;
		at += (size_t)snprintf(buf + at, len - at, "%s%s %llu", n++ ? ", " : "",
				       r->name, ULL(c));
	}
	return n;
}

void report_text_khugepaged(struct report_ctx *rc)
{
	const struct khugepaged_model *m = model(rc);
	int any = 0, guessed = 0;
	char buf[1024], sz[32];
	int64_t d;
	int found;

	if (!m || !recorded(rc))
		return;
	report_title(rc, "khugepaged (THP collapse)");
	for (int k = 0; k < THP_NORDERS; k++) {
		const struct thp_order *o = khugepaged_model_order(m, k);

		if (!o)
			continue;
		if (!any++)
			report_line(rc, "order      scans  collapsible  collapses       ok  failed");
		size_name(k, sz, sizeof(sz));
		report_line(rc, "%-8s %7llu  %11llu  %9llu  %7llu  %6llu", sz, ULL(o->scans),
			    ULL(o->scans_ok), ULL(o->collapses), ULL(o->collapses_ok),
			    ULL(o->collapses - o->collapses_ok));
		if (results(o, 0, buf, sizeof(buf)))
			report_wrap(rc, "  not collapsible: ", buf);
		if (results(o, 1, buf, sizeof(buf)))
			report_wrap(rc, "  collapse failed: ", buf);
		if (o->file_scans || o->file_collapses)
			report_line(rc, "  of which file/shmem: %llu scans, %llu collapses, %llu ok",
				    ULL(o->file_scans), ULL(o->file_collapses),
				    ULL(o->file_collapses_ok));
		if (o->swapins)
			report_line(rc, "  swap-ins before a collapse: %llu (%llu failed), "
				    "%llu pages", ULL(o->swapins), ULL(o->swapins - o->swapins_ok),
				    ULL(o->swapped_in));
		guessed |= !o->order_known;
	}
	if (!any)
		report_line(rc, "no khugepaged scans or collapses");
	if (khugepaged_model_passes(m))
		report_line(rc, "scan passes over an mm: %llu, full scans finished: %llu",
			    ULL(khugepaged_model_passes(m)), ULL(khugepaged_model_full_scans(m)));
	if (khugepaged_model_bad_order(m))
		report_line(rc, "events with an order beyond %d: %llu (not counted above)",
			    THP_NORDERS - 1, ULL(khugepaged_model_bad_order(m)));
	d = counters_model_delta(analysis_counters(rc->a), "thp_collapse_alloc", &found);
	if (found)
		report_line(rc, "vmstat: thp_collapse_alloc %+lld, thp_collapse_alloc_failed %+lld",
			    (long long)d, (long long)counters_model_delta(analysis_counters(rc->a),
			    "thp_collapse_alloc_failed", &found));
	if (guessed)
		report_wrap(rc, "", "order 9 is assumed where the events have no order "
			    "field (before 7.x): the PMD order on x86-64 with 4K pages");
}

/* A JSON string: the names come from the recording's format text. */
static void json_str(struct strbuf *sb, const char *s)
{
	strbuf_addch(sb, '"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			strbuf_addf(sb, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			strbuf_addf(sb, "\\u%04x", (unsigned char)*s);
		else
			strbuf_addch(sb, *s);
	}
	strbuf_addch(sb, '"');
}

void report_json_khugepaged(struct report_ctx *rc)
{
	const struct khugepaged_model *m = model(rc);
	int n = 0;

	if (!m || !recorded(rc)) {
		strbuf_addstr(rc->sb, "null");
		return;
	}
	strbuf_addf(rc->sb, "{\"passes\": %llu, \"full_scans\": %llu, \"orders\": [",
		    ULL(khugepaged_model_passes(m)), ULL(khugepaged_model_full_scans(m)));
	for (int k = 0; k < THP_NORDERS; k++) {
		const struct thp_order *o = khugepaged_model_order(m, k);

		if (!o)
			continue;
		strbuf_addf(rc->sb, "%s{\"order\": %d, \"order_from_event\": %s, \"scans\": %llu, "
			    "\"collapsible\": %llu, \"file_scans\": %llu, \"collapses\": %llu, "
			    "\"collapses_ok\": %llu, \"file_collapses\": %llu, "
			    "\"isolates\": %llu, \"isolates_ok\": %llu, \"swapins\": %llu, "
			    "\"swapins_ok\": %llu, \"swapped_in\": %llu, \"results\": [",
			    n++ ? ", " : "", k, o->order_known ? "true" : "false", ULL(o->scans),
			    ULL(o->scans_ok), ULL(o->file_scans), ULL(o->collapses),
			    ULL(o->collapses_ok), ULL(o->file_collapses), ULL(o->isolates),
			    ULL(o->isolates_ok), ULL(o->swapins), ULL(o->swapins_ok),
			    ULL(o->swapped_in));
		for (int i = 0, j = 0; i <= o->nresults; i++) {
			const struct thp_result *r = i < o->nresults ? &o->results[i] : &o->other;

			if (!r->scan && !r->collapse)
				continue;
			strbuf_addf(rc->sb, "%s{\"name\": ", j++ ? ", " : "");
			json_str(rc->sb, r->name);
			strbuf_addf(rc->sb, ", \"scan\": %llu, \"collapse\": %llu}",
				    ULL(r->scan), ULL(r->collapse));
		}
		strbuf_addstr(rc->sb, "]}");
	}
	strbuf_addstr(rc->sb, "]}");
}
