/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Flight-recorder triggers: conditions that make the recorder write out
 * its ring. Counter triggers are checked once per sampling interval:
 *
 *   psi-some>PCT        /proc/pressure/memory "some avg10" above PCT
 *   stall-ms>N          memory stall time (PSI "some total") grew by more
 *                       than N ms within one interval
 *   fallback-rate>PCT   mTHP swap-out fallbacks, over all sizes, above PCT
 *                       of mTHP swap-outs in the interval
 *   memcg-oom[>N]       --cgroup: OOM kills in it grew (by more than N) in
 *                       an interval: v2 memory.events oom_kill, v1
 *                       memory.oom_control oom_kill
 *   memcg-max[>N]       --cgroup: it hit its limit: v2 memory.events max,
 *                       v1 memory.failcnt
 *   memcg-high[>N]      --cgroup: v2 memory.events high (v1 has none)
 *
 * Event triggers are decided from the events themselves (trigger-events.h),
 * read from a small watch instance (trigger-watch.h):
 *
 *   oom                 an OOM kill (oom:mark_victim)
 *   reclaim-stall>MS    a direct or memcg reclaim longer than MS
 *   compact-stall>MS    a direct compaction longer than MS
 *   kswapd-awake>S      kswapd awake S seconds without balancing its node
 *   no-handoff>N        N kswapd episodes in a row that were asked for
 *                       order > 0 and did not hand off to kcompactd
 *
 * A counter trigger fires once, then re-arms when its condition has been
 * false for one interval; an event trigger fires on each new occurrence.
 */
#ifndef MMSCOPE_TRIGGER_H
#define MMSCOPE_TRIGGER_H

#include <stddef.h>

enum trigger_kind {
	TRIGGER_PSI_SOME, TRIGGER_STALL_MS, TRIGGER_FALLBACK_RATE,
	TRIGGER_MEMCG_OOM, TRIGGER_MEMCG_MAX, TRIGGER_MEMCG_HIGH,
	/* from events */
	TRIGGER_OOM, TRIGGER_RECLAIM_STALL, TRIGGER_COMPACT_STALL, TRIGGER_KSWAPD_AWAKE,
	TRIGGER_NO_HANDOFF,
};

/*
 * What a trigger saw when it fired, for the file's metadata: the value
 * compared with the threshold (in the trigger's unit; has_value 0 for
 * oom, which has none), and the task, where there is one (pid 0: none).
 */
struct trigger_fired {
	double value;
	int has_value;
	int pid;
	char comm[32];
};

struct trigger {
	char name[64];		/* the spec as given: psi-some>10 */
	enum trigger_kind kind;
	double threshold;
	int armed;
	int have_prev;
	double prev_a, prev_b;
	struct trigger_fired fired;	/* counter triggers: the last evaluation */
};

/* The condition's name without its threshold (psi-some), and the unit of
 * its value and threshold ("%", "ms", "s", "events"). */
const char *trigger_kind_name(const struct trigger *t);
const char *trigger_unit(const struct trigger *t);

int trigger_parse(const char *spec, struct trigger *t, char **err);
/* Reads its events from a watch instance (trigger_check does not apply). */
int trigger_is_event(const struct trigger *t);
/* Needs --cgroup. */
int trigger_needs_cgroup(const struct trigger *t);
/* The events (sys:event) an event trigger needs, NULL-terminated. */
const char *const *trigger_events(const struct trigger *t);
/*
 * A counter trigger, once per interval. cgroup: the --cgroup directory
 * (resolved, or NULL). 1: fired (why filled), 0: not, -1: the counter is
 * unavailable.
 */
int trigger_check(struct trigger *t, const char *root, const char *cgroup, char *why, size_t n);
/* The --cgroup directory as the sampler finds it (malloc'd), or NULL. */
char *trigger_cgroup_dir(const char *arg);
/* The cgroup has v2's memory.events. */
int trigger_cgroup_v2(const char *dir);
/* The evaluation alone, from made-up values (tests). */
int trigger_eval(struct trigger *t, double a, double b, char *why, size_t n);

#endif
