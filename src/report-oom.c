// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The oom section, text and JSON (see report-oom.h).
 *
 *       time s  victim               pid  anon-rss kB  memcg  constraint
 *     0.255000  anon-touch         14245        65280      -  memcg*
 *       total-vm 133416 kB, file-rss 1216 kB, shmem-rss 0 kB, score_adj 0
 *
 * Time is seconds since the recording's first event; the rss figures are
 * the victim's when it was chosen, in kB, as mark_victim prints them.
 * The memcg and the constraint are inferred (model-oom.h) and marked so;
 * what no event gave is "-" (null in JSON).
 */
#include "config.h"
#include "report-oom.h"
#include "report-kills.h"
#include "model-oom.h"
#include "json.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define SUMMARY_VICTIMS	8	/* victims named on the summary line */

static const struct oom_model *model(const struct report_ctx *rc)
{
	return analysis_model(rc->a, &oom_model_ops);
}

/* Whether the oom group was recorded: its events are in the file, or
 * mmscope's metadata says it enabled them (a trace-cmd file carries
 * every format, so a format alone says nothing). */
static int recorded(const struct report_ctx *rc)
{
	return oom_model_seen(model(rc)) ||
	       analysis_event_enabled(rc->a, "oom", "mark_victim");
}

/* Why there is no oom line: a trace-cmd file with every format cannot
 * tell an oom group left off from one with nothing to report. */
static const char *untraced(const struct report_ctx *rc)
{
	return analysis_event_state(rc->a, "oom", "mark_victim") == TRACED_UNKNOWN ?
		       "not known" : "not recorded";
}

/* A figure or "-". */
static const char *num(char *buf, size_t len, int64_t v, int known)
{
	if (known)
		snprintf(buf, len, "%lld", (long long)v);
	else
		snprintf(buf, len, "-");
	return buf;
}

static const char *memcg_of(const struct oom_kill *k, char *buf, size_t len)
{
	if (k->memcg_known)
		snprintf(buf, len, "%llu*", (unsigned long long)k->memcg_id);
	else
		snprintf(buf, len, "-");
	return buf;
}

void report_summary_oom(struct report_ctx *rc)
{
	const struct oom_model *m = model(rc);
	int n = oom_model_nkills(m);
	char buf[1024];
	size_t at;

	if (!m || !recorded(rc)) {
		report_line(rc, "%-11s %s (mmscope record -g oom)", "oom", untraced(rc));
		return;
	}
	at = (size_t)snprintf(buf, sizeof(buf), "%d kill%s", n, n == 1 ? "" : "s");
	for (int i = 0; i < n && i < SUMMARY_VICTIMS && at < sizeof(buf); i++) {
		const struct oom_kill *k = oom_model_kill(m, i);
		char pid[24];

		at += (size_t)snprintf(buf + at, sizeof(buf) - at, "%s%s %s",
				       i ? " " : " (victims: ", *k->comm ? k->comm : "-",
				       num(pid, sizeof(pid), k->pid, k->pid >= 0));
	}
	if (n > SUMMARY_VICTIMS && at < sizeof(buf))
		at += (size_t)snprintf(buf + at, sizeof(buf) - at, " and %d more",
				       n - SUMMARY_VICTIMS);
	if (n && at < sizeof(buf))
		snprintf(buf + at, sizeof(buf) - at, ")");
	report_wrap(rc, "oom         ", buf);
}

void report_text_oom(struct report_ctx *rc)
{
	const struct oom_model *m = model(rc);
	int n = oom_model_nkills(m), inferred = 0, found;
	int64_t d;
	char a[24], b[24], c[24], e[24], f[24];

	report_title(rc, "OOM kills");
	if (!m || !recorded(rc)) {	/* one line, like every section */
		report_line(rc, "oom: %s in this file (mmscope record -g oom)", untraced(rc));
		return;
	}
	d = counters_model_delta(analysis_counters(rc->a), "oom_kill", &found);
	report_line(rc, "kills %d (oom:mark_victim); vmstat oom_kill %s", n,
		    found ? (snprintf(a, sizeof(a), "%+lld", (long long)d), a) : "not sampled");
	report_line(rc, "allocator retries: reclaim_retry_zone %llu, compact_retry %llu",
		    (unsigned long long)oom_model_reclaim_retries(m),
		    (unsigned long long)oom_model_compact_retries(m));
	if (n)
		report_line(rc, "    time s  victim               pid  anon-rss kB  "
			    "memcg  constraint");
	for (int i = 0; i < n; i++) {
		const struct oom_kill *k = oom_model_kill(m, i);
		const char *cn = oom_constraint_name(k->constraint);

		report_line(rc, "%10.6f  %-16.16s %7s  %11s  %5s  %s%s", report_rel_s(rc, k->ts),
			    *k->comm ? k->comm : "-", num(a, sizeof(a), k->pid, k->pid >= 0),
			    num(b, sizeof(b), k->anon_rss_kb, k->anon_rss_kb >= 0),
			    memcg_of(k, c, sizeof(c)), cn ? cn : "-", cn ? "*" : "");
		report_line(rc, "  total-vm %s kB, file-rss %s kB, shmem-rss %s kB, score_adj %s",
			    num(a, sizeof(a), k->total_vm_kb, k->total_vm_kb >= 0),
			    num(b, sizeof(b), k->file_rss_kb, k->file_rss_kb >= 0),
			    num(e, sizeof(e), k->shmem_rss_kb, k->shmem_rss_kb >= 0),
			    num(f, sizeof(f), k->oom_score_adj, k->oom_score_adj != INT64_MIN));
		if (k->by_pid != k->pid)
			report_line(rc, "  killed from %s %d", *k->by_comm ? k->by_comm : "-",
				    k->by_pid);
		inferred |= cn != NULL;
	}
	if (n)
		report_wrap(rc, "", inferred ?
			    "* inferred: no oom event gives the memcg or the constraint; "
			    "they are taken from the last reclaim the killing task began "
			    "(memcg reclaim: CONSTRAINT_MEMCG, its memcg_id on 7.x; direct "
			    "reclaim: a page allocator OOM, CONSTRAINT_NONE, CPUSET or "
			    "MEMORY_POLICY)" :
			    "memcg and constraint: no oom event gives them, and no reclaim "
			    "by the killing task was recorded to infer them from (-g reclaim)");
}

void report_json_oom(struct report_ctx *rc)
{
	const struct oom_model *m = model(rc);
	struct json_writer *j = rc->jw;
	int n = oom_model_nkills(m), found;
	int64_t d;

	if (!m || !recorded(rc)) {
		json_null(j, "oom");
		return;
	}
	d = counters_model_delta(analysis_counters(rc->a), "oom_kill", &found);
	json_object(j, "oom");
	json_u64(j, "oom_kills", (uint64_t)n);
	json_s64_or_null(j, "vmstat_oom_kill", d, found);
	json_u64(j, "reclaim_retries", oom_model_reclaim_retries(m));
	json_u64(j, "compact_retries", oom_model_compact_retries(m));
	json_array(j, "victims");
	for (int i = 0; i < n; i++) {
		const struct oom_kill *k = oom_model_kill(m, i);
		const char *cn = oom_constraint_name(k->constraint);

		json_object(j, NULL);
		json_fixed(j, "time_s", report_rel_s(rc, k->ts), 6);
		json_s64_or_null(j, "pid", k->pid, k->pid >= 0);
		if (*k->comm)
			json_str(j, "comm", k->comm);
		else
			json_null(j, "comm");
		json_s64_or_null(j, "anon_rss_kb", k->anon_rss_kb, k->anon_rss_kb >= 0);
		json_s64_or_null(j, "file_rss_kb", k->file_rss_kb, k->file_rss_kb >= 0);
		json_s64_or_null(j, "shmem_rss_kb", k->shmem_rss_kb, k->shmem_rss_kb >= 0);
		json_s64_or_null(j, "total_vm_kb", k->total_vm_kb, k->total_vm_kb >= 0);
		json_s64_or_null(j, "uid", k->uid, k->uid >= 0);
		json_s64_or_null(j, "oom_score_adj", k->oom_score_adj,
				 k->oom_score_adj != INT64_MIN);
		json_u64_or_null(j, "memcg_id", k->memcg_id, k->memcg_known);
		if (cn)
			json_str(j, "constraint", cn);
		else
			json_null(j, "constraint");
		json_bool(j, "constraint_inferred", cn != NULL);
		json_s64(j, "killed_from_pid", k->by_pid);
		if (*k->by_comm)
			json_str(j, "killed_from_comm", k->by_comm);
		else
			json_null(j, "killed_from_comm");
		json_close(j);
	}
	json_close(j);
	report_json_kills(rc);
	json_close(j);
}
