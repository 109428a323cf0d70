// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The dossier as labelled lines (src/kill-dossier-lines.c): every
 * unknown figure reads "-", never 0; known ones carry their unit; a
 * signal kill names its sender, an OOM kill does not; the list never
 * runs past the room it is given.
 */
#include "config.h"
#include "kill-dossier-lines.h"
#include "tap.h"
#include <math.h>
#include <string.h>

static const char *value(const struct kd_line *l, int n, const char *key)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(l[i].key, key))
			return l[i].value;
	return NULL;
}

static void unknown_dossier(struct kill_dossier *d, struct oom_kill *k)
{
	memset(k, 0, sizeof(*k));
	memset(d, 0, sizeof(*d));
	k->pid = 4242;
	strcpy(k->comm, "hog");
	k->oom = 1;
	d->kill = k;
	strcpy(d->killer, "kernel-oom");
	d->window_ns = 10000000000ull;
	d->direct_stalls = d->memcg_stalls = d->cg_direct_stalls = d->cg_memcg_stalls = -1;
	d->kswapd_episodes = d->handoffs = d->compaction_runs = d->compaction_failures = -1;
	d->psi_some_avg10 = d->psi_full_avg10 = d->psi_age_s = NAN;
	d->swap_size_kb = d->swap_used_kb = -1;
	d->swap_free_pct = NAN;
	d->zswap_pool_bytes = -1;
	d->ncandidates = -1;
}

int main(void)
{
	struct kd_line l[KD_LINES_MAX];
	struct kill_dossier d;
	struct oom_kill k;
	const char *unknown[] = { "victim_cgroup", "direct_stalls", "memcg_stalls",
		"kswapd_episodes", "handoffs", "compaction_runs", "compaction_failures",
		"psi_some_avg10", "psi_full_avg10", "swap", "zswap_pool" };
	int n;

	unknown_dossier(&d, &k);
	n = kill_dossier_lines(&d, l, KD_LINES_MAX);
	ok(n > 10, "an OOM kill with nothing known still gives its lines (%d)", n);
	is_str(value(l, n, "killer"), "kernel-oom", "killer");
	is_str(value(l, n, "victim"), "hog 4242", "victim: comm and pid");
	for (size_t i = 0; i < sizeof(unknown) / sizeof(*unknown); i++)
		is_str(value(l, n, unknown[i]), "-", unknown[i]);
	ok(!strncmp(value(l, n, "candidates"), "-", 1), "no task snapshot: candidates unknown");
	ok(!value(l, n, "sender"), "an OOM kill has no sender line");
	ok(!value(l, n, "cg_memcg_stalls"), "no victim cgroup: no in-its-cgroup lines");

	/* everything known, a signal kill */
	k.oom = 0;
	k.by_pid = 77;
	strcpy(k.by_comm, "earlyoom");
	strcpy(d.killer, "earlyoom");
	d.victim_cgroup = "/a";
	d.direct_stalls = 12, d.direct_stall_ns = 3400000000ll;
	d.memcg_stalls = 0, d.memcg_stall_ns = 0;
	d.cg_direct_stalls = 3, d.cg_direct_stall_ns = 1500000;
	d.cg_memcg_stalls = 0;
	d.kswapd_episodes = 2, d.handoffs = 0, d.compaction_runs = 5, d.compaction_failures = 1;
	d.psi_some_avg10 = 48.2, d.psi_full_avg10 = 12.5, d.psi_age_s = 0.5;
	d.swap_size_kb = 1048576, d.swap_used_kb = 524288, d.swap_free_pct = 50.0;
	d.zswap_pool_bytes = 2048 * 1024;
	d.ncandidates = 2;
	d.candidates_age_s = 0.3;
	d.candidate[0] = (struct kw_task){ .pid = 4242, .comm = "hog", .rss_kb = 900000,
					   .swap_kb = 100 };
	d.candidate[1] = (struct kw_task){ .pid = 5, .comm = "sh", .rss_kb = 1000, .swap_kb = -1 };
	n = kill_dossier_lines(&d, l, KD_LINES_MAX);
	is_str(value(l, n, "sender"), "earlyoom 77", "a signal kill names its sender");
	is_str(value(l, n, "sender_cgroup"), "-", "its sender's cgroup unknown");
	is_str(value(l, n, "direct_stalls"), "12 (3400.0 ms)", "direct stalls with their time");
	is_str(value(l, n, "memcg_stalls"), "0", "none is 0, not -");
	is_str(value(l, n, "cg_direct_stalls"), "3 (1.5 ms)", "in its cgroup");
	is_str(value(l, n, "cg_memcg_stalls"), "0", "none in its cgroup");
	is_str(value(l, n, "handoffs"), "0", "handed off: 0");
	is_str(value(l, n, "psi_some_avg10"), "48.20% (0.5 s before)", "PSI with its age");
	is_str(value(l, n, "swap"), "50.0% free of 1048576 kB", "swap");
	is_str(value(l, n, "zswap_pool"), "2048 kB", "zswap pool");
	is_str(l[n - 2].value, "hog 4242 900000+100 (0.3 s before)", "first candidate");
	is_str(l[n - 1].value, "sh 5 1000+- (0.3 s before)", "unknown swap of a candidate");
	d.swap_size_kb = 0;
	n = kill_dossier_lines(&d, l, KD_LINES_MAX);
	is_str(value(l, n, "swap"), "none", "no swap device: none");

	ok(value(l, n, "cgroup_usage") &&
	   !strcmp(value(l, n, "cgroup_usage"), "- (no sample of it before the kill)") &&
	   !value(l, n, "cgroup_limit") && !value(l, n, "cgroup_stat_deltas"),
	   "no cgroup sample: one line says so, no figures");

	/* the victim's cgroup sampled; systemd-oomd by its xattr */
	d.cg_path = "/a";
	d.cg_usage_bytes = 15 * 1048576, d.cg_limit_bytes = 16 * 1048576;
	d.cg_usage_pct = 93.75, d.cg_sample_age_s = 0.2, d.cg_delta_s = NAN;
	for (int i = 0; i < KC_NSTATS; i++)
		d.cg_stat_delta[i] = -1;
	d.oomd_xattr = 1, d.oomd_kill_before = 0, d.oomd_kill_after = 2;
	d.oomd_path = "/app";
	d.oomd_before_s = 0.1, d.oomd_after_s = 0.4;
	n = kill_dossier_lines(&d, l, KD_LINES_MAX);
	is_str(value(l, n, "oomd_xattr"), "user.oomd_kill 0 -> 2 (0.1 s before, 0.4 s after) on /app",
	       "systemd-oomd's evidence");
	is_str(value(l, n, "cgroup_usage"), "15.0 MiB (0.2 s before)", "cgroup usage");
	is_str(value(l, n, "cgroup_limit"), "16.0 MiB", "cgroup limit");
	is_str(value(l, n, "cgroup_usage_pct"), "93.8%", "usage of the limit");
	is_str(value(l, n, "cgroup_stat_deltas"), "-", "one sample in the window: deltas -");
	ok(!value(l, n, "cgroup_sampled"), "the victim's own cgroup: not named again");
	d.cg_delta_s = 1.5, d.cg_stat_delta[KC_pgfault] = 30, d.cg_stat_delta[KC_pgmajfault] = 0;
	d.cg_unlimited = 1, d.cg_limit_bytes = -1, d.cg_usage_pct = NAN, d.cg_by_count = 1;
	n = kill_dossier_lines(&d, l, KD_LINES_MAX);
	is_str(value(l, n, "cgroup_stat_deltas"), "pgfault +30, pgmajfault +0 (over 1.5 s)",
	       "the deltas known");
	is_str(value(l, n, "cgroup_limit"), "none", "no limit: none");
	is_str(value(l, n, "cgroup_usage_pct"), "-", "no limit: no percent");
	is_str(value(l, n, "cgroup_sampled"), "/a (its OOM kill count rose)",
	       "found by the count: named");
	d.ncandidates = KILL_CANDIDATES;
	ok(kill_dossier_lines(&d, l, KD_LINES_MAX) < KD_LINES_MAX, "every line has room");

	is_int(kill_dossier_lines(&d, l, 3), 3, "stops at the room given");
	return tap_done();
}
