/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The dossier of each kill: who killed whom, and what the window before
 * it looked like, from the models (the OOM model's kill list and the
 * window it took at each kill, kill-window.h; the handoff model's kswapd
 * episodes) and what the recording traced. Every front end (the report's
 * Kills section and .oom.kills[], the findings, the HTML page's Kills
 * section and Perfetto's kills track through kill-dossier-lines.h; later
 * TUI and export) reads this struct and computes nothing of its own.
 *
 * Unknown is -1 for counts, NAN for fractions, NULL for names: a figure
 * whose events or samples the recording does not have, or whose window
 * a bounded list no longer reaches.
 */
#ifndef MMSCOPE_KILL_DOSSIER_H
#define MMSCOPE_KILL_DOSSIER_H

#include <stdint.h>

#include "analysis.h"
#include "model-oom.h"

#define KILL_CANDIDATES 5

struct kill_dossier {
	const struct oom_kill *kill;	/* the model's (victim, sender, OOM fields) */
	char killer[48];		/* oom_kill_killer() */
	uint64_t ts;			/* trace clock, ns */
	const char *victim_cgroup;	/* its memory cgroup's path, NULL unknown */
	const char *sender_cgroup;	/* a signal kill's sender's, NULL unknown */
	/* the window: [ts - window_ns, ts]; clipped: it began before the
	 * recording did, so it holds less */
	uint64_t window_ns;
	int clipped;
	int64_t direct_stalls, direct_stall_ns, memcg_stalls, memcg_stall_ns;
	int64_t cg_direct_stalls, cg_direct_stall_ns, cg_memcg_stalls, cg_memcg_stall_ns;
	int64_t kswapd_episodes, handoffs;	/* episodes with time in it */
	int64_t compaction_runs, compaction_failures;
	double psi_some_avg10, psi_full_avg10;	/* percent */
	double psi_age_s;			/* the sample's, before the kill */
	int64_t swap_size_kb, swap_used_kb;
	double swap_free_pct;			/* NAN: no swap, or not sampled */
	int64_t zswap_pool_bytes;
	/* the victim's cgroup's last sample at or before the kill
	 * (kill-cgroup.h); cg_path NULL: no such sample */
	const char *cg_path;
	/* cg_path is not the victim's known cgroup but the memcg whose OOM
	 * kill count rose across this OOM kill (the one that ran out) */
	int cg_by_count;
	int64_t cg_usage_bytes;
	int64_t cg_limit_bytes;			/* -1 unknown, or unlimited */
	int cg_unlimited;			/* the limit read said none */
	double cg_usage_pct;			/* of the limit; NAN */
	double cg_sample_age_s;
	double cg_delta_s;			/* the deltas' span; NAN: none */
	int64_t cg_stat_delta[KC_NSTATS];	/* kill_cgroup_stat_names; -1 */
	/* systemd-oomd named by its user.oomd_kill xattr's rise */
	int oomd_xattr;
	const char *oomd_path;			/* the cgroup it rose on */
	int64_t oomd_kill_before, oomd_kill_after;
	double oomd_before_s, oomd_after_s;	/* the samples' distance from the kill */
	int ncandidates;			/* -1: no task snapshot before it */
	double candidates_age_s;
	struct kw_task candidate[KILL_CANDIDATES];
};

/* Every kill of the recording (oom_model_nall). */
int kill_dossier_count(const struct analysis *a);
/* Fills d for kill i; 0, or -1 when there is no such kill. */
int kill_dossier_get(const struct analysis *a, int i, struct kill_dossier *d);
/* The same for a kill of the model's (oom_model_kill()'s too). */
int kill_dossier_of(const struct analysis *a, const struct oom_kill *k, struct kill_dossier *d);
/* Whether signal_generate was recorded (kills by processes are seen). */
int kill_dossier_signals_traced(const struct analysis *a);
/* The headline: the window's most telling figures in a phrase ("12
 * direct stalls (3400 ms), 2 kswapd episodes, none handed off, PSI some
 * 48.20%, cgroup at 98% of its limit"); "" when nothing of the window
 * is known. */
const char *kill_dossier_headline(const struct kill_dossier *d, char *buf, int len);

#endif
