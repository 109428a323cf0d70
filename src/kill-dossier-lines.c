// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A dossier as labelled lines (see kill-dossier-lines.h). Unknown is "-":
 * a count below 0, a fraction that is NaN, a name that is NULL.
 */
#include "config.h"
#include "kill-dossier-lines.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>

struct kd_out {
	struct kd_line *l;
	int n, max;
};

static void add(struct kd_out *o, const char *key, const char *label, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void add(struct kd_out *o, const char *key, const char *label, const char *fmt, ...)
{
	va_list ap;

	if (o->n >= o->max)
		return;
	o->l[o->n].key = key;
	o->l[o->n].label = label;
	va_start(ap, fmt);
	vsnprintf(o->l[o->n].value, sizeof(o->l[o->n].value), fmt, ap);
	va_end(ap);
	o->n++;
}

/* "N (M.M ms)", "0", or "-" */
static void stalls(struct kd_out *o, const char *key, const char *label, int64_t n, int64_t ns)
{
	if (n < 0)
		add(o, key, label, "-");
	else if (n)
		add(o, key, label, "%lld (%.1f ms)", (long long)n, (double)ns / 1e6);
	else
		add(o, key, label, "0");
}

static void count(struct kd_out *o, const char *key, const char *label, int64_t n)
{
	if (n < 0)
		add(o, key, label, "-");
	else
		add(o, key, label, "%lld", (long long)n);
}

static void percent(struct kd_out *o, const char *key, const char *label, double v, double age)
{
	if (isnan(v))
		add(o, key, label, "-");
	else if (!isnan(age))
		add(o, key, label, "%.2f%% (%.1f s before)", v, age);
	else
		add(o, key, label, "%.2f%%", v);
}

const char *kill_dossier_mib(char *buf, size_t len, int64_t bytes)
{
	if (bytes < 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.1f MiB", (double)bytes / 1048576.0);
	return buf;
}

/* systemd-oomd's xattr; the victim's cgroup's sample, when there is one */
static void cgroup(struct kd_out *o, const struct kill_dossier *d)
{
	char a[48], b[48], line[160];
	size_t at = 0;

	if (d->oomd_xattr)
		add(o, "oomd_xattr", "systemd-oomd's xattr", "user.oomd_kill %lld -> %lld "
		    "(%.1f s before, %.1f s after) on %s", (long long)d->oomd_kill_before,
		    (long long)d->oomd_kill_after, d->oomd_before_s, d->oomd_after_s,
		    d->oomd_path ? d->oomd_path : "-");
	if (!d->cg_path) {	/* said, not left out: unknown is not absent */
		add(o, "cgroup_usage", "its cgroup's usage", "- (no sample of it before the kill)");
		return;
	}
	if (d->cg_by_count)
		add(o, "cgroup_sampled", "memcg that ran out", "%s (its OOM kill count rose)",
		    d->cg_path);
	add(o, "cgroup_usage", "its cgroup's usage", "%s (%.1f s before)",
	    kill_dossier_mib(a, sizeof(a), d->cg_usage_bytes), d->cg_sample_age_s);
	add(o, "cgroup_limit", "its cgroup's limit", "%s",
	    d->cg_unlimited ? "none" : kill_dossier_mib(b, sizeof(b), d->cg_limit_bytes));
	if (isnan(d->cg_usage_pct))
		add(o, "cgroup_usage_pct", "its cgroup's usage of its limit", "-");
	else
		add(o, "cgroup_usage_pct", "its cgroup's usage of its limit", "%.1f%%",
		    d->cg_usage_pct);
	line[0] = '\0';
	for (int s = 0; s < KC_NSTATS && !isnan(d->cg_delta_s) && at < sizeof(line); s++)
		if (d->cg_stat_delta[s] >= 0)
			at += (size_t)snprintf(line + at, sizeof(line) - at, "%s%s +%lld",
					       at ? ", " : "", kill_cgroup_stat_names[s],
					       (long long)d->cg_stat_delta[s]);
	if (at)
		add(o, "cgroup_stat_deltas", "its cgroup's memory.stat", "%s (over %.1f s)", line,
		    d->cg_delta_s);
	else
		add(o, "cgroup_stat_deltas", "its cgroup's memory.stat", "-");
}

int kill_dossier_lines(const struct kill_dossier *d, struct kd_line *out, int max)
{
	const struct oom_kill *k = d->kill;
	struct kd_out o = { out, 0, max };

	add(&o, "killer", "killer", "%s", d->killer);
	if (k->pid >= 0)
		add(&o, "victim", "victim", "%s %d", *k->comm ? k->comm : "-", k->pid);
	else
		add(&o, "victim", "victim", "%s", *k->comm ? k->comm : "-");
	add(&o, "victim_cgroup", "victim's cgroup", "%s", d->victim_cgroup ? d->victim_cgroup : "-");
	if (!k->oom) {
		add(&o, "sender", "sent by", "%s %d", *k->by_comm ? k->by_comm : "-", k->by_pid);
		add(&o, "sender_cgroup", "sender's cgroup", "%s",
		    d->sender_cgroup ? d->sender_cgroup : "-");
	} else if (k->also_killed) {
		add(&o, "also_killed", "also killed", "%u process%s sharing its memory",
		    k->also_killed, k->also_killed == 1 ? "" : "es");
	}
	add(&o, "window", "window before", "%g s%s", (double)d->window_ns / 1e9,
	    d->clipped ? " (the recording began inside it)" : "");
	stalls(&o, "direct_stalls", "direct stalls", d->direct_stalls, d->direct_stall_ns);
	stalls(&o, "memcg_stalls", "memcg stalls", d->memcg_stalls, d->memcg_stall_ns);
	if (d->victim_cgroup) {
		stalls(&o, "cg_direct_stalls", "direct stalls in its cgroup",
		       d->cg_direct_stalls, d->cg_direct_stall_ns);
		stalls(&o, "cg_memcg_stalls", "memcg stalls in its cgroup",
		       d->cg_memcg_stalls, d->cg_memcg_stall_ns);
	}
	count(&o, "kswapd_episodes", "kswapd episodes", d->kswapd_episodes);
	count(&o, "handoffs", "handed off to kcompactd", d->handoffs);
	count(&o, "compaction_runs", "compaction runs", d->compaction_runs);
	count(&o, "compaction_failures", "compaction runs failed", d->compaction_failures);
	percent(&o, "psi_some_avg10", "PSI memory some avg10", d->psi_some_avg10, d->psi_age_s);
	percent(&o, "psi_full_avg10", "PSI memory full avg10", d->psi_full_avg10, d->psi_age_s);
	if (d->swap_size_kb < 0)
		add(&o, "swap", "swap", "-");
	else if (!d->swap_size_kb)
		add(&o, "swap", "swap", "none");
	else
		add(&o, "swap", "swap", "%.1f%% free of %lld kB", d->swap_free_pct,
		    (long long)d->swap_size_kb);
	if (d->zswap_pool_bytes < 0)
		add(&o, "zswap_pool", "zswap pool", "-");
	else
		add(&o, "zswap_pool", "zswap pool", "%lld kB", (long long)(d->zswap_pool_bytes / 1024));
	cgroup(&o, d);
	if (d->ncandidates < 0) {
		add(&o, "candidates", "largest tasks", "- (no task snapshot before it)");
		return o.n;
	}
	if (!d->ncandidates)
		add(&o, "candidates", "largest tasks", "none (%.1f s before)", d->candidates_age_s);
	for (int i = 0; i < d->ncandidates; i++) {
		const struct kw_task *t = &d->candidate[i];
		char rss[24], swp[24];

		snprintf(rss, sizeof(rss), t->rss_kb < 0 ? "-" : "%lld", (long long)t->rss_kb);
		snprintf(swp, sizeof(swp), t->swap_kb < 0 ? "-" : "%lld", (long long)t->swap_kb);
		add(&o, "candidate", i ? "" : "largest tasks (RSS+swap kB)",
		    "%s %d %s+%s (%.1f s before)", *t->comm ? t->comm : "-", t->pid, rss, swp,
		    d->candidates_age_s);
	}
	return o.n;
}
