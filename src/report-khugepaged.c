// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The khugepaged section, text and JSON (see report-khugepaged.h).
 *
 *   order   scans  collapsible  collapses      ok  failed
 *   9 (2M)    120           30         30      28       2
 *     not collapsible: exceed_none_pte 60, page_pmd_mapped 30
 *     collapse failed: alloc_huge_page_failed 2
 *
 * "collapsible" is a scan whose result is "succeeded", or (6.1+, where
 * the scan event follows the collapse it led to and carries its result)
 * a scan right after its task's collapse: khugepaged tried a collapse,
 * whose own result says how it ended, under "collapse failed" only.
 * Counts are events; each scan and collapse is one PMD-sized (or mTHP)
 * range.
 */
#include "config.h"
#include "report-khugepaged.h"
#include "model-khugepaged.h"
#include "json.h"

#include <stdio.h>
#include <string.h>

#define ULL(x) ((unsigned long long)(x))

static const struct khugepaged_model *model(const struct report_ctx *rc)
{
	return analysis_model(rc->a, &khugepaged_model_ops);
}

/* Whether the khugepaged group was recorded: its events are in the file,
 * or mmscope's metadata says it enabled them (a trace-cmd file carries
 * every format, so a format alone says nothing). */
static int recorded(const struct report_ctx *rc)
{
	return khugepaged_model_seen(model(rc)) ||
	       analysis_event_enabled(rc->a, "huge_memory", "mm_khugepaged_scan_pmd") ||
	       analysis_event_enabled(rc->a, "huge_memory", "mm_collapse_huge_page");
}

static void size_name(const struct report_ctx *rc, int order, char *buf, size_t len)
{
	unsigned long long kb = report_order_kb(rc, order);

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

	report_title(rc, "khugepaged (THP collapse)");
	if (!m || !recorded(rc)) {	/* one line, like every section */
		report_line(rc, "khugepaged: not recorded in this file "
			    "(mmscope record -g khugepaged)");
		return;
	}
	for (int k = 0; k < THP_NORDERS; k++) {
		const struct thp_order *o = khugepaged_model_order(m, k);

		if (!o)
			continue;
		if (!any++)
			report_line(rc, "order      scans  collapsible  collapses       ok  failed");
		size_name(rc, k, sz, sizeof(sz));
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
	if (guessed && rc->in->page_size == 4096 && rc->in->pmd_order == 9)
		report_wrap(rc, "", "order 9 is assumed for events without an order field "
			    "(the scans; the collapses before 7.x): the PMD order on x86-64 "
			    "with 4K pages");
	else if (guessed) {	/* the recording's PMD order, and what it rests on */
		snprintf(buf, sizeof(buf), "order %d is taken for events without an order "
			 "field (the scans; the collapses before 7.x): the PMD order with "
			 "%u KB pages (%s)", rc->in->pmd_order, rc->in->page_size / 1024,
			 rc->in->pmd_order_basis == AB_RECORDED ? "the recorded hpage_pmd_size" :
			 "derived from the page size");
		report_wrap(rc, "", buf);
	}
}

void report_json_khugepaged(struct report_ctx *rc)
{
	const struct khugepaged_model *m = model(rc);
	struct json_writer *j = rc->jw;

	if (!m || !recorded(rc)) {
		json_null(j, "khugepaged");
		return;
	}
	/* mm_khugepaged_scan exists from 7.x: null before, not 0 */
	int passes = khugepaged_model_passes(m) ||
		     analysis_event_enabled(rc->a, "huge_memory", "mm_khugepaged_scan");

	json_object(j, "khugepaged");
	json_u64_or_null(j, "passes", khugepaged_model_passes(m), passes);
	json_u64_or_null(j, "full_scans", khugepaged_model_full_scans(m), passes);
	json_array(j, "orders");
	for (int k = 0; k < THP_NORDERS; k++) {
		const struct thp_order *o = khugepaged_model_order(m, k);

		if (!o)
			continue;
		json_object(j, NULL);
		json_s64(j, "order", k);
		json_bool(j, "order_from_event", o->order_known);
		json_u64(j, "scans", o->scans);
		json_u64(j, "collapsible", o->scans_ok);
		json_u64(j, "file_scans", o->file_scans);
		json_u64(j, "collapses", o->collapses);
		json_u64(j, "collapses_ok", o->collapses_ok);
		json_u64(j, "file_collapses", o->file_collapses);
		json_u64(j, "isolates", o->isolates);
		json_u64(j, "isolates_ok", o->isolates_ok);
		json_u64(j, "swapins", o->swapins);
		json_u64(j, "swapins_ok", o->swapins_ok);
		json_u64(j, "swapped_in", o->swapped_in);
		json_array(j, "results");
		for (int i = 0; i <= o->nresults; i++) {
			const struct thp_result *r = i < o->nresults ? &o->results[i] : &o->other;

			if (!r->scan && !r->collapse)
				continue;
			json_object(j, NULL);
			json_str(j, "name", r->name);
			json_u64(j, "scan", r->scan);
			json_u64(j, "collapse", r->collapse);
			json_close(j);
		}
		json_close(j);
		json_close(j);
	}
	json_close(j);
	json_close(j);
}
