// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The khugepaged family: the model on hand-made records (orders, ok and
 * failed results, the "other" bucket), then the real recording
 * tests/data/report/khugepaged-6.18.dat and khugepaged-memcg-6.18.dat
 * (collapses refused by the memcg's charge) through analysis and the text
 * renderer, whose numbers must equal what `trace-cmd report` prints for
 * the same file (scans and collapses per status, by the kernel's names),
 * and agree with the recording's own vmstat thp_collapse_alloc delta.
 */
#include "config.h"
#include "analysis.h"
#include "model-khugepaged.h"
#include "report-khugepaged.h"
#include "util.h"
#include "tap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct record thp(enum thp_kind kind, int order, int ok, const char *result)
{
	struct record r;

	memset(&r, 0, sizeof(r));
	r.type = REC_THP;
	r.thp.kind = kind;
	r.thp.order = order;
	r.thp.order_known = order != 9;
	r.thp.ok = ok;
	r.thp.status = ok ? 1 : 5;
	r.thp.result = result;
	return r;
}

static uint64_t result_count(const struct thp_order *o, const char *name, int collapse)
{
	for (int i = 0; i < o->nresults; i++)
		if (!strcmp(o->results[i].name, name))
			return collapse ? o->results[i].collapse : o->results[i].scan;
	return 0;
}

static void test_model(void)
{
	struct khugepaged_model *m = khugepaged_model_new();
	struct record r;
	const struct thp_order *o;
	char name[32];

	ok(m && !khugepaged_model_seen(m) && !khugepaged_model_order(m, 9),
	   "model: empty at first");
	r = thp(THP_SCAN_PMD, 9, 1, "succeeded");
	khugepaged_model_add(m, &r);
	r = thp(THP_SCAN_PMD, 9, 0, "exceed_none_pte");
	khugepaged_model_add(m, &r);
	khugepaged_model_add(m, &r);
	r = thp(THP_COLLAPSE, 9, 0, "alloc_huge_page_failed");
	khugepaged_model_add(m, &r);
	r = thp(THP_COLLAPSE_FILE, 9, 1, "succeeded");
	khugepaged_model_add(m, &r);
	r = thp(THP_COLLAPSE, 4, 1, "succeeded");
	khugepaged_model_add(m, &r);
	r = thp(THP_SCAN_PMD, 9, 0, "");	/* a status the format did not name */
	r.pid = 2;			/* another task: carries no collapse */
	khugepaged_model_add(m, &r);
	r = thp(THP_SCAN_PMD, 16, 1, "succeeded");	/* no such order */
	khugepaged_model_add(m, &r);
	o = khugepaged_model_order(m, 9);
	ok(o && o->scans == 4 && o->scans_ok == 1 && o->collapses == 2 &&
	   o->collapses_ok == 1 && o->file_collapses == 1 && !o->order_known,
	   "model: order 9 scans 4 (1 ok), collapses 2 (1 ok, 1 of a file)");
	ok(o && result_count(o, "exceed_none_pte", 0) == 2 &&
	   result_count(o, "alloc_huge_page_failed", 1) == 1 &&
	   result_count(o, "exceed_none_pte", 1) == 0 && result_count(o, "status 5", 0) == 1,
	   "model: results by name, scan and collapse apart, unnamed as 'status N'");
	o = khugepaged_model_order(m, 4);
	ok(o && o->collapses == 1 && o->collapses_ok == 1 && o->order_known,
	   "model: an mTHP order from the event");
	is_int(khugepaged_model_bad_order(m), 1, "model: order 16 counted apart");
	for (int i = 0; i < THP_NRESULTS + 3; i++) {
		snprintf(name, sizeof(name), "r%d", i);
		r = thp(THP_SCAN_PMD, 2, 0, name);
		khugepaged_model_add(m, &r);
	}
	o = khugepaged_model_order(m, 2);
	ok(o && o->nresults == THP_NRESULTS && o->other.scan == 3 && o->scans == THP_NRESULTS + 3,
	   "model: names past %d go to 'other', none dropped", THP_NRESULTS);
	khugepaged_model_free(m);

	/* 6.1+: the scan follows the collapse it led to, with its result */
	m = khugepaged_model_new();
	r = thp(THP_COLLAPSE, 9, 0, "ccgroup_charge_failed");
	r.pid = 39;
	khugepaged_model_add(m, &r);
	r = thp(THP_COLLAPSE, 9, 0, "ccgroup_charge_failed");
	r.pid = 40;			/* another task's collapse between */
	khugepaged_model_add(m, &r);
	r = thp(THP_SCAN_PMD, 9, 0, "ccgroup_charge_failed");
	r.pid = 39;
	khugepaged_model_add(m, &r);
	r = thp(THP_SCAN_PMD, 9, 0, "exceed_none_pte");
	r.pid = 39;			/* the next scan: a scan result again */
	khugepaged_model_add(m, &r);
	o = khugepaged_model_order(m, 9);
	ok(o && o->scans == 2 && o->scans_ok == 1 &&
	   result_count(o, "ccgroup_charge_failed", 0) == 0 &&
	   result_count(o, "ccgroup_charge_failed", 1) == 2 &&
	   result_count(o, "exceed_none_pte", 0) == 1,
	   "model: a scan carrying its collapse's failure is collapsible, the failure a "
	   "collapse result only");
	khugepaged_model_free(m);
}

/* trace-cmd's own count of lines with both strings in them. */
static long tc_count(const char *file, const char *a, const char *b)
{
	char *cmd = xasprintf("trace-cmd report '%s' 2>/dev/null", file), line[4096];
	FILE *p = popen(cmd, "r");
	long n = 0;

	free(cmd);
	if (!p)
		return -1;
	while (fgets(line, sizeof(line), p))
		if (strstr(line, a) && (!b || strstr(line, b)))
			n++;
	return pclose(p) ? -1 : n;
}

/* "  not collapsible: a 1, b 2" (possibly wrapped onto lines indented
 * under the list): the count given for name, 0 if not listed. */
static long listed(const char *text, const char *label, const char *name)
{
	const char *p = strstr(text, label), *e, *q;
	char key[64];

	if (!p)
		return 0;
	for (e = strchr(p, '\n'); e && !strncmp(e + 1, "      ", 6); e = strchr(e + 1, '\n'))
		;
	snprintf(key, sizeof(key), " %s ", name);
	q = strstr(p, key);
	return q && (!e || q < e) ? strtol(q + strlen(key), NULL, 10) : 0;
}

/* A recording's khugepaged section against trace-cmd. scan_results: the
 * scan statuses it has; carried: the collapse failures its scans repeat
 * (6.1+: the scan event follows the collapse and carries its result),
 * NULL-ended. */
static void test_recording(const char *src, const char *name,
			   const char *const *scan_results, const char *const *carried)
{
	char *path = xasprintf("%s/tests/data/report/%s", src, name), *err = NULL;
	struct analysis *a = analysis_run(path, NULL, &err);
	struct report_opts o;
	struct report_ctx rc;
	struct strbuf sb = STRBUF_INIT;
	unsigned long long scans, worth, coll, okc, failed;
	long vm = -1;
	long carried_scans = 0;
	const char *row, *v;

	if (!ok(a != NULL, "%s: analysed", name))
		printf("#   %s\n", err ? err : "?");
	if (!a)
		goto out;
	report_opts_default(&o);
	rc.a = a;
	rc.in = analysis_info(a);
	rc.o = &o;
	rc.sb = &sb;
	report_text_khugepaged(&rc);
	for (char *l = sb.buf, *nl; l && *l; l = nl ? nl + 1 : NULL) {
		nl = strchr(l, '\n');
		printf("#   %.*s\n", nl ? (int)(nl - l) : (int)strlen(l), l);
	}
	row = sb.buf ? strstr(sb.buf, "\n9 (2M)") : NULL;
	if (!ok(row && sscanf(row, "\n9 (2M) %llu %llu %llu %llu %llu", &scans, &worth, &coll,
			      &okc, &failed) == 5, "report: an order 9 line"))
		goto out;
	ok(scans > 0 && okc > 0 && failed == coll - okc, "report: scans and collapses there");
	if ((v = strstr(sb.buf, "thp_collapse_alloc ")))
		vm = strtol(v + strlen("thp_collapse_alloc "), NULL, 10);
	/* one allocation per collapse, which may still fail after it */
	if (!ok(vm >= (long)okc && vm <= (long)coll,
		"report: ok collapses <= vmstat thp_collapse_alloc delta <= collapses"))
		printf("#   %llu <= %ld <= %llu\n", okc, vm, coll);
	if (tc_count(path, "mm_khugepaged_scan_pmd:", NULL) < 0) {
		ok(1, "# SKIP trace-cmd not installed: no oracle for the counts");
		goto out;
	}
	is_int(scans, tc_count(path, "mm_khugepaged_scan_pmd:", NULL) +
	       tc_count(path, "mm_khugepaged_scan_file:", NULL), "scans = trace-cmd's scan lines");
	for (int i = 0; carried[i]; i++) {
		char *want = xasprintf("status=%s", carried[i]);
		long tc = tc_count(path, "mm_khugepaged_scan_pmd:", want);
		char *what = xasprintf("%s: collapse failed: %s = trace-cmd's collapses with it",
				       name, carried[i]);

		carried_scans += tc;
		ok(tc > 0 && !listed(sb.buf, "not collapsible:", carried[i]),
		   "%s: %s (%ld scans) is no scan criterion", name, carried[i], tc);
		is_int(listed(sb.buf, "collapse failed:", carried[i]),
		       tc_count(path, "mm_collapse_huge_page:", want), what);
		free(what);
		free(want);
	}
	is_int(worth, tc_count(path, "mm_khugepaged_scan_pmd:", "status=succeeded") +
	       tc_count(path, "mm_khugepaged_scan_file:", "result=succeeded") + carried_scans,
	       "collapsible = trace-cmd's scans with status=succeeded or a collapse's result");
	is_int(coll, tc_count(path, "mm_collapse_huge_page:", NULL) +
	       tc_count(path, "mm_khugepaged_collapse_file:", NULL),
	       "collapses = trace-cmd's collapse lines");
	is_int(okc, tc_count(path, "mm_collapse_huge_page:", "status=succeeded") +
	       tc_count(path, "mm_khugepaged_collapse_file:", "result=succeeded"),
	       "collapses ok = trace-cmd's collapses with status=succeeded");
	for (size_t i = 0; scan_results[i]; i++) {
		char *want = xasprintf("status=%s", scan_results[i]);
		long tc = tc_count(path, "mm_khugepaged_scan_pmd:", want);
		char *what = xasprintf("not collapsible: %s = trace-cmd's %ld", scan_results[i], tc);

		if (tc > 0)
			is_int(listed(sb.buf, "not collapsible:", scan_results[i]), tc, what);
		else
			ok(0, "the recording has scans with %s", want);
		free(what);
		free(want);
	}
out:
	strbuf_release(&sb);
	analysis_free(a);
	free(err);
	free(path);
}

int main(void)
{
	const char *src = getenv("top_srcdir");

	static const char *const results[] = {
		"exceed_shared_pte", "page_pmd_mapped", "lack_referenced_page", "pmd_none", NULL,
	};
	static const char *const none[] = { NULL };
	static const char *const charge[] = { "ccgroup_charge_failed", NULL };

	test_model();
	test_recording(src ? src : ".", "khugepaged-6.18.dat", results, none);
	/* issue 32.12: collapses refused by the memcg's charge */
	test_recording(src ? src : ".", "khugepaged-memcg-6.18.dat", results, charge);
	return tap_done();
}
