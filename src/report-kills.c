// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kills section, text and JSON (see report-kills.h). One block per
 * kill, 72 columns:
 *
 *     0.255000  memcg-oom  anon-touch 14245, cgroup /mmscope-oom
 *       before (10 s): direct stalls 0, memcg stalls 41 (312 ms)
 *       in its cgroup: direct stalls 0, memcg stalls 41 (312 ms)
 *       kswapd episodes 0; compaction runs 0, failed 0
 *       PSI avg10 some 0.00% full 0.00% (0.6 s before); swap 98.2% free
 *       largest tasks (0.6 s before), RSS+swap kB:
 *         anon-touch 14245 60112+0, ...
 *
 * Time is seconds since the recording's first event; what the recording
 * cannot give is "-" (null in JSON).
 */
#include "config.h"
#include "report-kills.h"
#include "kill-dossier.h"
#include "kill-dossier-lines.h"
#include "json.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const struct oom_model *model(const struct report_ctx *rc)
{
	return analysis_model(rc->a, &oom_model_ops);
}

static int recorded(const struct report_ctx *rc)
{
	return oom_model_seen(model(rc)) || kill_dossier_signals_traced(rc->a) ||
	       analysis_event_enabled(rc->a, "oom", "mark_victim");
}

/* "N (M ms)" or "-". */
static const char *stalls(char *buf, size_t len, int64_t n, int64_t ns)
{
	if (n < 0)
		snprintf(buf, len, "-");
	else if (n)
		snprintf(buf, len, "%lld (%.1f ms)", (long long)n, (double)ns / 1e6);
	else
		snprintf(buf, len, "0");
	return buf;
}

static const char *num(char *buf, size_t len, int64_t v)
{
	if (v < 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%lld", (long long)v);
	return buf;
}

static const char *pct(char *buf, size_t len, double v)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.2f%%", v);
	return buf;
}

/* kill_cgroup_stat_names' in the text's few columns */
static const char *const short_names[KC_NSTATS] = {
	"faults", "major", "refault anon", "refault file", "scan", "steal", "swap-in",
	"swap-out", "zswap-in", "zswap-out",
};

/* The victim's cgroup's sample: usage against its limit, the memory.stat
 * deltas over the window; systemd-oomd's xattr. */
static void cgroup_lines(struct report_ctx *rc, const struct kill_dossier *d)
{
	char a[48], b[48], c[48], line[1024];
	size_t at = 0;

	if (d->oomd_xattr) {
		/* the cgroup's path may be long: wrapped */
		snprintf(line, sizeof(line), "user.oomd_kill %lld -> %lld (%.1f s before, "
			 "%.1f s after) on %s", (long long)d->oomd_kill_before,
			 (long long)d->oomd_kill_after, d->oomd_before_s, d->oomd_after_s,
			 d->oomd_path ? d->oomd_path : "-");
		report_wrap(rc, "  systemd-oomd: ", line);
	}
	if (!d->cg_path) {	/* said, not left out: unknown is not absent */
		report_line(rc, "  cgroup: - (no sample of it before the kill: record --cgroups)");
		return;
	}
	snprintf(line, sizeof(line), "%s of %s%s (%.1f s before)",
		 kill_dossier_mib(a, sizeof(a), d->cg_usage_bytes),
		 d->cg_unlimited ? "no limit" : kill_dossier_mib(b, sizeof(b), d->cg_limit_bytes),
		 isnan(d->cg_usage_pct) ? "" :
		 (snprintf(c, sizeof(c), ", %.1f%%", d->cg_usage_pct), c),
		 d->cg_sample_age_s);
	if (d->cg_by_count) {
		char pre[2048];

		/* not the victim's known cgroup: the memcg that ran out */
		snprintf(pre, sizeof(pre), "%s (its OOM kill count rose): %s", d->cg_path, line);
		report_wrap(rc, "  cgroup ", pre);
	} else {
		report_wrap(rc, "  cgroup: ", line);
	}
	if (isnan(d->cg_delta_s)) {
		report_line(rc, "  cgroup memory.stat: - (under two samples in the window)");
		return;
	}
	for (int s = 0; s < KC_NSTATS && at < sizeof(line); s++)
		if (d->cg_stat_delta[s] >= 0)
			at += (size_t)snprintf(line + at, sizeof(line) - at, "%s%s +%lld",
					       at ? ", " : "", short_names[s],
					       (long long)d->cg_stat_delta[s]);
	snprintf(c, sizeof(c), "  in %.1f s: ", d->cg_delta_s);
	report_wrap(rc, c, at ? line : "-");
}

static void text_one(struct report_ctx *rc, const struct kill_dossier *d)
{
	const struct oom_kill *k = d->kill;
	char a[48], b[48], c[48], pre[80], line[1024];
	size_t at = 0;

	/* a cgroup path may be long: wrapped under its line */
	snprintf(line, sizeof(line), "%s %s, cgroup %s", *k->comm ? k->comm : "-",
		 num(a, sizeof(a), k->pid), d->victim_cgroup ? d->victim_cgroup : "-");
	snprintf(pre, sizeof(pre), "%10.6f  %-12s ", report_rel_s(rc, d->ts), d->killer);
	report_wrap(rc, pre, line);
	if (!k->oom) {
		snprintf(line, sizeof(line), "%s %d, cgroup %s", *k->by_comm ? k->by_comm : "-",
			 k->by_pid, d->sender_cgroup ? d->sender_cgroup : "-");
		report_wrap(rc, "  sent by ", line);
	} else if (k->also_killed)
		report_line(rc, "  with %u more process%s sharing its memory", k->also_killed,
			    k->also_killed == 1 ? "" : "es");
	snprintf(line, sizeof(line), "direct stalls %s, memcg stalls %s%s",
		 stalls(a, sizeof(a), d->direct_stalls, d->direct_stall_ns),
		 stalls(b, sizeof(b), d->memcg_stalls, d->memcg_stall_ns),
		 d->clipped ? " (the recording began inside it)" : "");
	snprintf(c, sizeof(c), "  before (%g s): ", (double)d->window_ns / 1e9);
	report_wrap(rc, c, line);
	if (d->victim_cgroup)
		report_line(rc, "  in its cgroup: direct stalls %s, memcg stalls %s",
			    stalls(a, sizeof(a), d->cg_direct_stalls, d->cg_direct_stall_ns),
			    stalls(b, sizeof(b), d->cg_memcg_stalls, d->cg_memcg_stall_ns));
	report_line(rc, "  kswapd episodes %s, handed off %s; compaction runs %s, failed %s",
		    num(a, sizeof(a), d->kswapd_episodes), num(b, sizeof(b), d->handoffs),
		    num(c, sizeof(c), d->compaction_runs),
		    num(line, sizeof(line), d->compaction_failures));
	at = (size_t)snprintf(line, sizeof(line), "PSI avg10 some %s full %s",
			      pct(a, sizeof(a), d->psi_some_avg10),
			      pct(b, sizeof(b), d->psi_full_avg10));
	if (!isnan(d->psi_age_s))
		at += (size_t)snprintf(line + at, sizeof(line) - at, " (%.1f s before)",
				       d->psi_age_s);
	if (d->swap_size_kb < 0)
		at += (size_t)snprintf(line + at, sizeof(line) - at, "; swap -");
	else if (!d->swap_size_kb)
		at += (size_t)snprintf(line + at, sizeof(line) - at, "; no swap");
	else
		at += (size_t)snprintf(line + at, sizeof(line) - at, "; swap %.1f%% free of %lld kB",
				       d->swap_free_pct, (long long)d->swap_size_kb);
	snprintf(line + at, sizeof(line) - at, "; zswap pool %s",
		 d->zswap_pool_bytes < 0 ? "-" :
		 (snprintf(a, sizeof(a), "%lld kB", (long long)(d->zswap_pool_bytes / 1024)), a));
	report_wrap(rc, "  ", line);
	cgroup_lines(rc, d);
	if (d->ncandidates < 0) {
		report_line(rc, "  largest tasks: - (no task snapshot before it)");
		return;
	}
	at = 0;
	line[0] = '\0';
	for (int i = 0; i < d->ncandidates && at < sizeof(line); i++) {
		const struct kw_task *t = &d->candidate[i];

		at += (size_t)snprintf(line + at, sizeof(line) - at, "%s%s %d %s+%s", i ? ", " : "",
				       *t->comm ? t->comm : "-", t->pid,
				       num(a, sizeof(a), t->rss_kb), num(b, sizeof(b), t->swap_kb));
	}
	snprintf(c, sizeof(c), "(%.1f s before)", d->candidates_age_s);
	report_line(rc, "  largest tasks %s, RSS+swap kB:", c);
	report_wrap(rc, "    ", d->ncandidates ? line : "none");
}

/* The line under the title: how many kills, and the SIGKILLs seen, or
 * that signals were not recorded; the HTML page says it too. */
void report_kills_line(const struct report_ctx *rc, char *line, size_t len)
{
	int n = kill_dossier_count(rc->a);
	struct oom_sigkills s;

	if (!kill_dossier_signals_traced(rc->a)) {
		snprintf(line, len, "%s", n ? "the kernel's OOM kills only: SIGKILLs sent by "
			 "processes not recorded (signal:signal_generate)" :
			 "no OOM kill; SIGKILLs sent by processes not recorded "
			 "(signal:signal_generate)");
		return;
	}
	oom_model_sigkills(model(rc), &s);
	snprintf(line, len, "%d kill%s; SIGKILLs %llu: %llu to other tasks (%llu "
		 "the OOM killer's), %llu to themselves, %llu ignored, %llu already "
		 "pending, %llu to tasks sharing an OOM victim's memory", n, n == 1 ? "" : "s",
		 (unsigned long long)s.seen, (unsigned long long)s.kills,
		 (unsigned long long)s.oom, (unsigned long long)s.self,
		 (unsigned long long)s.ignored, (unsigned long long)s.pending,
		 (unsigned long long)s.also_killed);
}

int report_kills_recorded(const struct report_ctx *rc)
{
	return model(rc) && recorded(rc);
}

void report_text_kills(struct report_ctx *rc)
{
	int n = kill_dossier_count(rc->a);
	char line[512];

	report_title(rc, "Kills");
	if (!report_kills_recorded(rc)) {
		report_line(rc, "kills: not recorded in this file (mmscope record -g oom)");
		return;
	}
	report_kills_line(rc, line, sizeof(line));
	report_wrap(rc, "", line);
	if (n)
		report_line(rc, "    time s  killer       victim");
	for (int i = 0; i < n; i++) {
		struct kill_dossier d;

		if (!kill_dossier_get(rc->a, i, &d))
			text_one(rc, &d);
	}
}

static void fraction_or_null(struct json_writer *j, const char *key, double v, int dec)
{
	if (isnan(v))
		json_null(j, key);
	else
		json_fixed(j, key, v, dec);
}

static void ms_or_null(struct json_writer *j, const char *key, int64_t ns)
{
	fraction_or_null(j, key, ns < 0 ? NAN : (double)ns / 1e6, 3);
}

static void str_or_null(struct json_writer *j, const char *key, const char *s)
{
	if (s && *s)
		json_str(j, key, s);
	else
		json_null(j, key);
}

/* victim_cgroup: null without a sample of it before the kill */
static void json_cgroup(struct json_writer *j, const struct kill_dossier *d)
{
	if (!d->cg_path) {
		json_null(j, "victim_cgroup");
		return;
	}
	json_object(j, "victim_cgroup");
	json_str(j, "path", d->cg_path);
	/* tasks: the victim's cgroup, from the tasks' map; oom_kill_count:
	 * the memcg whose OOM kill count rose across the kill */
	json_str(j, "found_by", d->cg_by_count ? "oom_kill_count" : "tasks");
	json_s64_or_null(j, "usage_bytes", d->cg_usage_bytes, d->cg_usage_bytes >= 0);
	json_s64_or_null(j, "limit_bytes", d->cg_limit_bytes, d->cg_limit_bytes >= 0);
	/* a null limit_bytes is either: no limit read, or "max" read */
	if (d->cg_unlimited || d->cg_limit_bytes >= 0)
		json_bool(j, "limit_unlimited", d->cg_unlimited);
	else
		json_null(j, "limit_unlimited");
	fraction_or_null(j, "usage_pct", d->cg_usage_pct, 2);
	fraction_or_null(j, "sample_age_s", d->cg_sample_age_s, 6);
	fraction_or_null(j, "stat_deltas_s", d->cg_delta_s, 6);
	json_object(j, "stat_deltas");
	for (int s = 0; s < KC_NSTATS; s++)
		json_s64_or_null(j, kill_cgroup_stat_names[s], d->cg_stat_delta[s],
				 d->cg_stat_delta[s] >= 0);
	json_close(j);
	json_close(j);
}

static void json_one(struct report_ctx *rc, const struct kill_dossier *d)
{
	struct json_writer *j = rc->jw;
	const struct oom_kill *k = d->kill;

	json_object(j, NULL);
	json_str(j, "killer", d->killer);
	json_fixed(j, "t_s", report_rel_s(rc, d->ts), 6);
	json_object(j, "victim");
	json_s64_or_null(j, "pid", k->pid, k->pid >= 0);
	str_or_null(j, "comm", k->comm);
	str_or_null(j, "cgroup", d->victim_cgroup);
	json_close(j);
	json_object(j, "sender");
	json_s64_or_null(j, "pid", k->by_pid, k->by_pid >= 0);
	str_or_null(j, "comm", k->by_comm);
	str_or_null(j, "cgroup", k->oom ? NULL : d->sender_cgroup);
	json_s64_or_null(j, "si_code", k->code, k->signalled);
	json_close(j);
	json_bool(j, "oom_killer", k->oom);
	/* the OOM killer's constraint, inferred (the oom section): kernel-oom
	 * is page-alloc or unknown (null) */
	str_or_null(j, "constraint", k->oom ? oom_constraint_name(k->constraint) : NULL);
	json_bool(j, "signal_seen", k->signalled);
	json_u64(j, "also_killed", k->also_killed);
	json_object(j, "before");
	json_fixed(j, "window_s", (double)d->window_ns / 1e9, 3);
	json_bool(j, "clipped", d->clipped);
	json_s64_or_null(j, "direct_stalls", d->direct_stalls, d->direct_stalls >= 0);
	ms_or_null(j, "direct_stall_ms", d->direct_stall_ns);
	json_s64_or_null(j, "memcg_stalls", d->memcg_stalls, d->memcg_stalls >= 0);
	ms_or_null(j, "memcg_stall_ms", d->memcg_stall_ns);
	json_s64_or_null(j, "cgroup_direct_stalls", d->cg_direct_stalls,
			 d->cg_direct_stalls >= 0);
	ms_or_null(j, "cgroup_direct_stall_ms", d->cg_direct_stall_ns);
	json_s64_or_null(j, "cgroup_memcg_stalls", d->cg_memcg_stalls, d->cg_memcg_stalls >= 0);
	ms_or_null(j, "cgroup_memcg_stall_ms", d->cg_memcg_stall_ns);
	json_s64_or_null(j, "kswapd_episodes", d->kswapd_episodes, d->kswapd_episodes >= 0);
	json_s64_or_null(j, "handoffs", d->handoffs, d->handoffs >= 0);
	json_s64_or_null(j, "compaction_runs", d->compaction_runs, d->compaction_runs >= 0);
	json_s64_or_null(j, "compaction_failures", d->compaction_failures,
			 d->compaction_failures >= 0);
	fraction_or_null(j, "psi_some_avg10", d->psi_some_avg10, 2);
	fraction_or_null(j, "psi_full_avg10", d->psi_full_avg10, 2);
	fraction_or_null(j, "psi_age_s", d->psi_age_s, 6);
	fraction_or_null(j, "swap_free_pct", d->swap_free_pct, 2);
	json_s64_or_null(j, "swap_size_kb", d->swap_size_kb, d->swap_size_kb >= 0);
	json_s64_or_null(j, "swap_used_kb", d->swap_used_kb, d->swap_used_kb >= 0);
	json_s64_or_null(j, "zswap_pool_bytes", d->zswap_pool_bytes, d->zswap_pool_bytes >= 0);
	json_close(j);
	if (d->ncandidates < 0) {
		json_null(j, "candidates");
	} else {
		json_array(j, "candidates");
		for (int i = 0; i < d->ncandidates; i++) {
			const struct kw_task *t = &d->candidate[i];

			json_object(j, NULL);
			json_s64_or_null(j, "pid", t->pid, t->pid >= 0);
			str_or_null(j, "comm", t->comm);
			json_s64_or_null(j, "rss_kb", t->rss_kb, t->rss_kb >= 0);
			json_s64_or_null(j, "swap_kb", t->swap_kb, t->swap_kb >= 0);
			json_close(j);
		}
		json_close(j);
	}
	fraction_or_null(j, "candidates_age_s", d->candidates_age_s, 6);
	json_cgroup(j, d);
	if (!d->oomd_xattr) {
		json_null(j, "oomd_xattr");
	} else {
		json_object(j, "oomd_xattr");
		str_or_null(j, "path", d->oomd_path);
		json_s64(j, "before", d->oomd_kill_before);
		json_s64(j, "after", d->oomd_kill_after);
		json_fixed(j, "before_s", d->oomd_before_s, 6);
		json_fixed(j, "after_s", d->oomd_after_s, 6);
		json_close(j);
	}
	json_close(j);
}

void report_json_kills(struct report_ctx *rc)
{
	struct json_writer *j = rc->jw;
	int n = kill_dossier_count(rc->a);

	json_array(j, "kills");
	for (int i = 0; i < n; i++) {
		struct kill_dossier d;

		if (!kill_dossier_get(rc->a, i, &d))
			json_one(rc, &d);
	}
	json_close(j);
}

/* The kills member: counts by killer and the SIGKILLs; the kills
 * themselves are oom.kills[]. */
void report_json_kills_summary(struct report_ctx *rc)
{
	const struct oom_model *m = model(rc);
	struct json_writer *j = rc->jw;
	int n = kill_dossier_count(rc->a);
	struct oom_sigkills s;

	if (!m || !recorded(rc)) {
		json_null(j, "kills");
		return;
	}
	json_object(j, "kills");
	json_u64(j, "count", (uint64_t)n);
	json_fixed(j, "window_s", (double)oom_model_window_ns(m) / 1e9, 3);
	json_object(j, "by_killer");
	/* in the order each killer first killed */
	for (int i = 0; i < n; i++) {
		char name[48], other[48];
		int seen = 0, count = 0;

		oom_kill_killer(oom_model_any(m, i), name, (int)sizeof(name));
		for (int e = 0; e < n && !seen; e++)
			seen = e < i && !strcmp(oom_kill_killer(oom_model_any(m, e), other,
							      (int)sizeof(other)), name);
		if (seen)
			continue;
		for (int e = i; e < n; e++)
			count += !strcmp(oom_kill_killer(oom_model_any(m, e), other,
							 (int)sizeof(other)), name);
		json_u64(j, name, (uint64_t)count);
	}
	json_close(j);
	if (!kill_dossier_signals_traced(rc->a)) {
		json_null(j, "sigkills");
	} else {
		oom_model_sigkills(m, &s);
		json_object(j, "sigkills");
		json_u64(j, "seen", s.seen);
		json_u64(j, "kills", s.kills);
		json_u64(j, "oom_killer", s.oom);
		json_u64(j, "self", s.self);
		json_u64(j, "ignored", s.ignored);
		json_u64(j, "already_pending", s.pending);
		json_u64(j, "other_result", s.other_result);
		json_u64(j, "also_killed", s.also_killed);
		json_close(j);
	}
	json_close(j);
}
