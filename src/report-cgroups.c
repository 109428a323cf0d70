// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The cgroups section, text and JSON (see report-cgroups.h).
 *
 *   /app/a
 *     tasks 3, OOM kills 0, swap-outs - folios
 *     memcg reclaim: 5120 pages scanned, 4990 reclaimed
 *     kind       count  total ms    p99 ms    max ms
 *     memcg        812   950.121     6.123    12.002
 *
 * Stalls are paired as the stalls table pairs them and counted in the
 * cgroup their task was in when the stall began; a figure the recording
 * cannot give (its events were not recorded) is "-" (JSON null).
 */
#include "config.h"
#include "report-cgroups.h"
#include "cgmap.h"
#include "model-cgroups.h"
#include "json.h"

#include <stdio.h>
#include <string.h>

#define ULL(x) ((unsigned long long)(x))
#define TEXT_ROWS 20	/* cgroups printed; the JSON has every one */

static double ms(uint64_t ns)
{
	return (double)ns / 1e6;
}

static const struct cgroups_model *model(const struct report_ctx *rc)
{
	return analysis_model(rc->a, &cgroups_model_ops);
}

/* What the recording can give: each kind's stalls, the LRU pages, the
 * swap slots, the OOM kills. */
struct cg_known {
	int kind[RK_NR];
	int lru, swap, oom;
};

static void known_of(const struct report_ctx *rc, struct cg_known *k)
{
	for (int i = 0; i < RK_NR; i++)
		k->kind[i] = i < RK_KSWAPD && analysis_traced(rc->a, REC_RECLAIM_BEGIN, i);
	k->lru = analysis_traced(rc->a, REC_SHRINK_INACTIVE, -1) &&
		 !report_not_measured(rc, "reclaim efficiency");
	k->swap = analysis_probes_swap(rc->a) == 1;
	k->oom = analysis_event_enabled(rc->a, "oom", "mark_victim") ||
		 analysis_traced(rc->a, REC_OOM, -1);
}

const char *report_cgroup_tail(const struct report_ctx *rc, int id, char *buf, int width)
{
	const char *p = cgmap_path(analysis_cgmap(rc->a), id);
	int n;

	if (!p) {
		snprintf(buf, (size_t)width + 1, "-");
		return buf;
	}
	n = (int)strlen(p);
	if (n <= width)
		snprintf(buf, (size_t)width + 1, "%s", p);
	else	/* the tail: a cgroup's own name is its last component */
		snprintf(buf, (size_t)width + 1, "~%s", p + n - (width - 1));
	return buf;
}

static void text_row(struct report_ctx *rc, const struct cgroups_row *row,
		     const struct cg_known *k)
{
	const struct cgmap *map = analysis_cgmap(rc->a);
	char line[256], a[32], b[32], c[32], d[32];
	int any = 0;

	if (row->id >= 0)
		report_wrap(rc, "", cgmap_path(map, row->id));
	else
		report_line(rc, "(tasks of unknown cgroup)");
	if (row->id >= 0)
		snprintf(a, sizeof(a), "%llu", ULL(cgmap_tasks(map, row->id)));
	else
		snprintf(a, sizeof(a), "-");
	snprintf(b, sizeof(b), k->lru ? "%llu" : "-", ULL(row->memcg_scanned));
	snprintf(c, sizeof(c), k->lru ? "%llu" : "-", ULL(row->memcg_reclaimed));
	snprintf(d, sizeof(d), k->swap ? "%llu" : "-", ULL(row->swapouts));
	snprintf(line, sizeof(line), "tasks %s, OOM kills ", a);
	snprintf(line + strlen(line), sizeof(line) - strlen(line), k->oom ? "%llu" : "-",
		 ULL(row->oom_kills));
	snprintf(line + strlen(line), sizeof(line) - strlen(line), ", swap-outs %s folios", d);
	report_wrap(rc, "  ", line);
	snprintf(line, sizeof(line), "memcg reclaim: %s pages scanned, %s reclaimed", b, c);
	report_wrap(rc, "  ", line);
	for (int i = 0; i < RK_NR; i++) {
		const struct hist *h = row->lat[i];
		char p99[16] = "-", max[16] = "-";

		if (!h && !row->cut[i] && !row->part_ns[i])
			continue;
		if (!any++)
			report_line(rc, "  kind       count  total ms    p99 ms    max ms");
		if (h && h->count) {	/* complete stalls */
			snprintf(p99, sizeof(p99), "%.3f", ms(hist_percentile(h, 99)));
			snprintf(max, sizeof(max), "%.3f", ms(h->max));
		}
		report_line(rc, "  %-9s %6llu %9.3f %9s %9s", reclaim_kind_name(i),
			    ULL(cgroups_row_stalls(row, i)),
			    (double)cgroups_row_stall_ns(row, i) / 1e6, p99, max);
	}
	if (!any)
		report_line(rc, "  no stalls");
}

void report_text_cgroups(struct report_ctx *rc)
{
	const struct cgroups_model *m = model(rc);
	const struct cgmap *map = analysis_cgmap(rc->a);
	int n = cgroups_model_nrows(m), shown = 0;
	struct cg_known k;
	char buf[400];

	report_title(rc, "Tasks by memory cgroup");
	if (!cgmap_recorded(map)) {
		report_line(rc, "cgroups not recorded (mmscope record -g tasks lists them)");
		return;
	}
	known_of(rc, &k);
	snprintf(buf, sizeof(buf), "%s memory controller (hierarchy %d): %d cgroups held "
		 "tasks, %d with stalls, memcg reclaim, swap-outs or OOM kills below. "
		 "Stalls as the stalls table pairs them, in the cgroup of their task "
		 "when they began; times in ms, pages and folios counted%s",
		 *cgmap_mode(map) ? cgmap_mode(map) : "cgroup", cgmap_hier(map),
		 cgmap_count(map), n, cgmap_recorded(map) < 2 || cgmap_partial(map) ?
		 "; the list of tasks at the start is cut short (its end line is "
		 "missing, or says processes were left out): tasks not in it are "
		 "of unknown cgroup" : "");
	report_wrap(rc, "", buf);
	for (int i = 0; i < n && shown < TEXT_ROWS; i++, shown++)
		text_row(rc, cgroups_model_row(m, i), &k);
	if (n > shown)
		report_line(rc, "and %d more cgroups (all in the JSON)", n - shown);
}

void report_json_cgroups(struct report_ctx *rc)
{
	const struct cgroups_model *m = model(rc);
	const struct cgmap *map = analysis_cgmap(rc->a);
	struct json_writer *j = rc->jw;
	int n = cgroups_model_nrows(m);
	struct cg_known k;

	if (!cgmap_recorded(map)) {
		json_null(j, "cgroups");
		return;
	}
	known_of(rc, &k);
	json_object(j, "cgroups");
	if (*cgmap_mode(map))
		json_str(j, "mode", cgmap_mode(map));
	else
		json_null(j, "mode");
	json_s64(j, "hierarchy", cgmap_hier(map));
	json_bool(j, "start_list_complete", cgmap_recorded(map) == 2 && !cgmap_partial(map));
	json_u64(j, "cgroups_with_tasks", (uint64_t)cgmap_count(map));
	json_array(j, "rows");
	for (int i = 0; i < n; i++) {
		const struct cgroups_row *row = cgroups_model_row(m, i);

		json_object(j, NULL);
		if (row->id >= 0) {
			json_str(j, "path", cgmap_path(map, row->id));
			json_u64(j, "tasks", cgmap_tasks(map, row->id));
		} else {
			json_null(j, "path");
			json_null(j, "tasks");
		}
		json_object(j, "stalls");
		for (int s = 0; s < RK_KSWAPD; s++) {
			const struct hist *h = row->lat[s];
			int some = k.kind[s] && h && h->count;

			json_object(j, reclaim_kind_name(s));
			/* a part's cut stalls and its time of those across
			 * its cuts too (PARTS OF A RUN) */
			json_u64_or_null(j, "count", cgroups_row_stalls(row, s), k.kind[s]);
			json_s64_or_null(j, "total_ns", cgroups_row_stall_ns(row, s), k.kind[s]);
			json_u64_or_null(j, "p99_ns", some ? hist_percentile(h, 99) : 0, some);
			json_u64_or_null(j, "max_ns", some ? h->max : 0, some);
			json_close(j);
		}
		json_close(j);
		json_u64_or_null(j, "memcg_reclaim_scanned", row->memcg_scanned, k.lru);
		json_u64_or_null(j, "memcg_reclaim_reclaimed", row->memcg_reclaimed, k.lru);
		json_u64_or_null(j, "swap_outs", row->swapouts, k.swap);
		json_u64_or_null(j, "oom_kills", row->oom_kills, k.oom);
		json_close(j);
	}
	json_close(j);
	json_close(j);
}
