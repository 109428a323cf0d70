// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Kill dossiers (see kill-dossier.h): the OOM model's kills and their
 * windows, the handoff model's episodes, and what was traced.
 */
#include "config.h"
#include "kill-dossier.h"
#include "cgmap.h"
#include "model-handoff.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const struct oom_model *oom_of(const struct analysis *a)
{
	return analysis_model(a, &oom_model_ops);
}

int kill_dossier_count(const struct analysis *a)
{
	return oom_model_nall(oom_of(a));
}

int kill_dossier_signals_traced(const struct analysis *a)
{
	return oom_model_signals_seen(oom_of(a)) ||
	       analysis_event_enabled(a, "signal", "signal_generate");
}

static const char *cg_path(const struct analysis *a, int cgroup)
{
	const struct cgmap *m = analysis_cgmap(a);

	return m && cgroup > 0 ? cgmap_path(m, cgroup - 1) : NULL;
}

/* kswapd episodes with time in [from, to], and of them those that handed
 * off to kcompactd (woke it, or it picked the request up); -1 when a
 * node's stored episodes stop before the window (HANDOFF_MAX_EPISODES). */
static void episodes(const struct analysis *a, uint64_t from, uint64_t to,
		     struct kill_dossier *d)
{
	const struct handoff_model *h = analysis_model(a, &handoff_model_ops);
	int kc = analysis_traced(a, REC_KCOMPACTD_WAKE, -1);

	d->kswapd_episodes = d->handoffs = -1;
	if (!h || !analysis_traced(a, REC_KSWAPD_WAKE, -1))
		return;
	d->kswapd_episodes = 0;
	d->handoffs = kc ? 0 : -1;
	for (int i = 0; i < handoff_model_nnodes(h); i++) {
		const struct handoff_node_stats *ns = handoff_model_node(h, i);
		int n = handoff_model_nepisodes(h, i);

		if (ns->dropped_episodes && n &&
		    handoff_model_episode(h, i, n - 1)->start < to) {
			d->kswapd_episodes = d->handoffs = -1;
			return;
		}
		for (int e = 0; e < n; e++) {
			const struct kswapd_episode *ep = handoff_model_episode(h, i, e);

			if (ep->start > to || (ep->end && ep->end < from))
				continue;
			d->kswapd_episodes++;
			if (kc && (ep->handoff == HO_WAKEUP || ep->handoff == HO_PICKUP))
				d->handoffs++;
		}
	}
}

static int64_t known_or(int64_t v, int traced)
{
	return traced ? v : -1;
}

int kill_dossier_get(const struct analysis *a, int i, struct kill_dossier *d)
{
	const struct oom_model *m = oom_of(a);
	const struct oom_kill *k = oom_model_any(m, i);
	const struct kill_before *b;
	int direct = analysis_traced(a, REC_RECLAIM_BEGIN, RK_DIRECT);
	int memcg = analysis_traced(a, REC_RECLAIM_BEGIN, RK_MEMCG);
	uint64_t from;

	memset(d, 0, sizeof(*d));
	if (!k)
		return -1;
	b = &k->before;
	d->kill = k;
	oom_kill_killer(k, d->killer, (int)sizeof(d->killer));
	d->ts = k->ts;
	d->victim_cgroup = cg_path(a, k->cgroup);
	d->sender_cgroup = k->oom ? NULL : cg_path(a, k->sender_cgroup);
	d->window_ns = b->window_ns;
	d->clipped = b->clipped;
	from = k->ts > b->window_ns ? k->ts - b->window_ns : 0;
	d->direct_stalls = known_or(b->direct_stalls, direct);
	d->direct_stall_ns = known_or(b->direct_stall_ns, direct);
	d->memcg_stalls = known_or(b->memcg_stalls, memcg);
	d->memcg_stall_ns = known_or(b->memcg_stall_ns, memcg);
	d->cg_direct_stalls = known_or(b->cg_direct_stalls, direct);
	d->cg_direct_stall_ns = known_or(b->cg_direct_stall_ns, direct);
	d->cg_memcg_stalls = known_or(b->cg_memcg_stalls, memcg);
	d->cg_memcg_stall_ns = known_or(b->cg_memcg_stall_ns, memcg);
	episodes(a, from, k->ts, d);
	d->compaction_runs = known_or(b->compaction_runs,
				      analysis_traced(a, REC_COMPACT_BEGIN, -1));
	d->compaction_failures = d->compaction_runs < 0 ? -1 : b->compaction_failures;
	d->psi_some_avg10 = d->psi_full_avg10 = d->psi_age_s = NAN;
	if (b->psi_ts) {
		if (b->psi_some_x100 >= 0)
			d->psi_some_avg10 = (double)b->psi_some_x100 / 100.0;
		if (b->psi_full_x100 >= 0)
			d->psi_full_avg10 = (double)b->psi_full_x100 / 100.0;
		d->psi_age_s = (double)(k->ts - b->psi_ts) / 1e9;
	}
	d->swap_size_kb = b->swap_size_kb;
	d->swap_used_kb = b->swap_used_kb;
	d->swap_free_pct = NAN;
	if (b->swap_size_kb > 0 && b->swap_used_kb >= 0)
		d->swap_free_pct = 100.0 * (double)(b->swap_size_kb - b->swap_used_kb) /
				   (double)b->swap_size_kb;
	d->zswap_pool_bytes = b->zswap_pool_bytes;
	d->cg_path = k->cg.path;
	d->cg_by_count = k->cg_by_count;
	d->cg_usage_bytes = k->cg.path ? k->cg.usage_bytes : -1;
	d->cg_limit_bytes = k->cg.path ? k->cg.limit_bytes : -1;
	d->cg_unlimited = k->cg.path && k->cg.unlimited;
	d->cg_usage_pct = d->cg_sample_age_s = d->cg_delta_s = NAN;
	for (int s = 0; s < KC_NSTATS; s++)
		d->cg_stat_delta[s] = k->cg.path && k->cg.first_ts ? k->cg.stat_delta[s] : -1;
	if (k->cg.path) {
		d->cg_sample_age_s = (double)(k->ts - k->cg.sample_ts) / 1e9;
		if (d->cg_usage_bytes >= 0 && d->cg_limit_bytes > 0)
			d->cg_usage_pct = 100.0 * (double)d->cg_usage_bytes /
					  (double)d->cg_limit_bytes;
		if (k->cg.first_ts)
			d->cg_delta_s = (double)(k->cg.sample_ts - k->cg.first_ts) / 1e9;
	}
	d->oomd_xattr = k->oomd_xattr;
	d->oomd_kill_before = d->oomd_kill_after = -1;
	d->oomd_before_s = d->oomd_after_s = NAN;
	d->oomd_path = NULL;
	if (k->oomd_xattr) {
		d->oomd_path = k->oomd.path;
		d->oomd_kill_before = k->oomd.before;
		d->oomd_kill_after = k->oomd.after;
		d->oomd_before_s = (double)(k->ts - k->oomd.before_ts) / 1e9;
		d->oomd_after_s = (double)(k->oomd.after_ts - k->ts) / 1e9;
	}
	d->ncandidates = -1;
	d->candidates_age_s = NAN;
	if (b->tasks_ts) {
		d->ncandidates = b->ntasks < KILL_CANDIDATES ? b->ntasks : KILL_CANDIDATES;
		memcpy(d->candidate, b->task, (size_t)d->ncandidates * sizeof(d->candidate[0]));
		d->candidates_age_s = (double)(k->ts - b->tasks_ts) / 1e9;
	}
	return 0;
}

int kill_dossier_of(const struct analysis *a, const struct oom_kill *k, struct kill_dossier *d)
{
	const struct oom_model *m = oom_of(a);

	for (int i = 0; i < oom_model_nall(m); i++)
		if (oom_model_any(m, i) == k)
			return kill_dossier_get(a, i, d);
	return -1;
}

/* ", N WHAT[MORE]" (no comma first) at buf + at; the new end. */
static int add(char *buf, int len, int at, long long v, const char *what, const char *more)
{
	if (at < len)
		at += snprintf(buf + at, (size_t)(len - at), "%s%lld %s%s", at ? ", " : "", v,
			       what, more ? more : "");
	return at;
}

const char *kill_dossier_headline(const struct kill_dossier *d, char *buf, int len)
{
	int at = 0;
	char ms[48];

	buf[0] = '\0';
	if (d->direct_stalls >= 0) {
		snprintf(ms, sizeof(ms), " (%.1f ms)", (double)d->direct_stall_ns / 1e6);
		at = add(buf, len, at, d->direct_stalls, "direct stalls",
			 d->direct_stalls ? ms : NULL);
	}
	if (d->memcg_stalls >= 0) {
		snprintf(ms, sizeof(ms), " (%.1f ms)", (double)d->memcg_stall_ns / 1e6);
		at = add(buf, len, at, d->memcg_stalls, "memcg stalls",
			 d->memcg_stalls ? ms : NULL);
	}
	if (d->kswapd_episodes >= 0) {
		at = add(buf, len, at, d->kswapd_episodes, "kswapd episodes", NULL);
		if (d->kswapd_episodes && d->handoffs >= 0)
			at = add(buf, len, at, d->handoffs, "handed off", NULL);
	}
	if (d->compaction_runs > 0)
		at = add(buf, len, at, d->compaction_runs, "compaction runs", NULL);
	if (!isnan(d->psi_some_avg10) && at < len)
		at += snprintf(buf + at, (size_t)(len - at), "%sPSI some %.2f%%", at ? ", " : "",
			       d->psi_some_avg10);
	if (!isnan(d->swap_free_pct) && at < len)
		at += snprintf(buf + at, (size_t)(len - at), "%sswap %.0f%% free", at ? ", " : "",
			       d->swap_free_pct);
	if (!isnan(d->cg_usage_pct) && at < len)
		snprintf(buf + at, (size_t)(len - at), "%scgroup at %.0f%% of its limit",
			 at ? ", " : "", d->cg_usage_pct);
	return buf;
}
