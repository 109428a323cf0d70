/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The victim's memory cgroup before a kill, from the memcg samples
 * (mms1 memcgs with record --cgroups, mms1 memcg with --cgroup; man
 * mmscope-samples.5), kept as the records come: the OOM model feeds
 * every record here in time order and takes a picture at each kill, as
 * it does of kill-window.h's window. Pure C, no I/O.
 *
 * Per cgroup path: the samples of the last window (a set's values are
 * used once its end line came), so a kill finds the last sample at or
 * before it (usage, the limit's last value, its age) and the first in
 * its window, whose difference gives the deltas of the memory.stat
 * counts the sample carries (KC_STATS; a count the kernel does not
 * have, such as pgscan on cgroup v1, is unknown). Past KC_SAMPLES_MAX
 * samples of one cgroup the oldest go, and a window that reached them
 * says its deltas are unknown.
 *
 * systemd-oomd: it adds the processes it killed to the user.oomd_kill
 * xattr of the cgroup it killed in (the processes of its descendants
 * too: the kill is recursive), which the sampler writes as oomd_kill. A
 * signal kill (kill_cgroup_watch) whose victim's cgroup, or one of its
 * ancestors with samples, then shows a higher oomd_kill in its first or second sample after the
 * kill (within KC_OOMD_AFTER_NS; oomd sets the xattr once it signalled
 * every process of the cgroup, and a sample set may fall in between)
 * than in its last one at or before it (0
 * when that one has none: the xattr is absent until oomd's first kill
 * there) was systemd-oomd's, whatever the sender's name
 * (kill_cgroup_oomd_take).
 *
 * A kernel OOM kill whose victim's cgroup is unknown (no task map: record
 * without -g tasks) is watched too (kill_cgroup_watch_oom): the memcgs
 * whose OOM kill count (events_oom_kill: v1 memory.oom_control oom_kill,
 * v2 memory.events oom_kill) rose from their last sample at or before it
 * to their first after it (in the first set after it, within
 * KC_OOMD_AFTER_NS) name the memcg that ran out: the deepest of them when
 * they are one line of ancestors (v2 counts in the ancestors too), none
 * when two unrelated ones rose. That memcg's samples are then the kill's
 * (kill_cgroup_take, KC_BY_OOM_COUNT), marked as found so.
 */
#ifndef MMSCOPE_KILL_CGROUP_H
#define MMSCOPE_KILL_CGROUP_H

#include <stdint.h>

#include "records.h"

#define KC_SAMPLES_MAX	512u		/* samples kept per cgroup */
#define KC_CGROUPS_MAX	4096		/* cgroups followed; more are not */
#define KC_PENDING_MAX	1024		/* watches waiting for a sample after */
#define KC_OOMD_AFTER_NS 10000000000ULL	/* the sample after: 10 s at most */
#define KC_OOMD_SAMPLES	2		/* the samples after a kill that may show it */

/* memory.stat counts whose deltas are kept, in this order */
#define KC_STATS(X) X(pgfault) X(pgmajfault) X(workingset_refault_anon) \
	X(workingset_refault_file) X(pgscan) X(pgsteal) X(pswpin) X(pswpout) \
	X(zswpin) X(zswpout)
#define KC_STAT_ENUM(n) KC_##n,
enum { KC_STATS(KC_STAT_ENUM) KC_NSTATS };

extern const char *const kill_cgroup_stat_names[KC_NSTATS];

/* The picture at a kill; path NULL: no sample of the victim's cgroup
 * before it (or its cgroup unknown). -1: unknown. */
struct kill_cgroup_at {
	const char *path;		/* the model's copy: lives as long as it */
	int64_t usage_bytes;
	int64_t limit_bytes;		/* -1 unknown or unlimited */
	int unlimited;			/* the limit read was "max" (v1: its huge number) */
	uint64_t sample_ts;		/* the last sample at or before the kill */
	uint64_t first_ts;		/* the first in the window; 0: under two */
	int64_t stat_delta[KC_NSTATS];	/* last - first; -1 unknown */
	int64_t oomd_kill;		/* user.oomd_kill at the last sample, -1 none */
};

/* systemd-oomd's evidence for a kill (kill_cgroup_oomd_take). */
struct kill_oomd {
	const char *path;		/* the cgroup it rose on (the model's copy) */
	int64_t before, after;		/* user.oomd_kill */
	uint64_t before_ts, after_ts;	/* the two samples */
};

struct kc_sample {
	uint64_t ts;
	int64_t usage;
	int64_t stat[KC_NSTATS];
	int64_t oomd_kill;
	int64_t oom_kill;		/* events_oom_kill, -1 none */
};

struct kc_cgroup {
	char *path;
	struct kc_sample *v;		/* ring */
	unsigned cap, head, n;
	uint64_t lost_ts;		/* the latest dropped for room; 0 none */
	/* the set being read */
	uint64_t seq;
	int pending;
	struct kc_sample cur;
	/* the limit's last value (limits are not in every set) */
	int limit_known, unlimited;
	int64_t limit;
};

struct kc_pending {
	int kill;			/* the caller's index */
	int cg;				/* kc_cgroup index */
	uint64_t ts;
	int64_t before;			/* oomd_kill; 0 when the sample had none */
	uint64_t before_ts;
	int seen;			/* its cgroup's samples since, up to KC_OOMD_SAMPLES */
};

enum { KC_BY_OOMD, KC_BY_OOM_COUNT };

struct kc_resolved {
	int kill;
	int kind;			/* KC_BY_OOMD: ev; KC_BY_OOM_COUNT: path */
	struct kill_oomd ev;
	const char *path;		/* the model's copy */
};

/* an OOM kill of unknown cgroup: the counts before it */
struct kc_oom_pending {
	int kill;
	uint64_t ts;
	int n;
	int *cg;
	int64_t *before;
};

struct kill_cgroup {
	uint64_t window_ns;
	struct kc_cgroup *cg;
	int ncg, capcg;
	int last;			/* the last record's cgroup, -1 none */
	int *touched, ntouched, atouched;
	struct kc_pending pend[KC_PENDING_MAX];
	int npend;
	struct kc_oom_pending oom[KC_PENDING_MAX];
	int noom;
	struct kc_resolved *done;	/* resolved, not taken yet */
	int ndone, capdone;
};

void kill_cgroup_init(struct kill_cgroup *c, uint64_t window_ns);
void kill_cgroup_release(struct kill_cgroup *c);
void kill_cgroup_add(struct kill_cgroup *c, const struct record *r);
/* The picture of cgroup path (the tasks' map's, cgmap.h; NULL unknown)
 * at ts. */
void kill_cgroup_capture(const struct kill_cgroup *c, uint64_t ts, const char *path,
			 struct kill_cgroup_at *out);
/* Watch a signal kill (index kill, the caller's) of a task in path at ts
 * for systemd-oomd's xattr on path and on its sampled ancestors; a later
 * watch of the same kill replaces it. */
void kill_cgroup_watch(struct kill_cgroup *c, int kill, uint64_t ts, const char *path);
/* Forget the watch of kill (it was the kernel's). */
void kill_cgroup_unwatch(struct kill_cgroup *c, int kill);
/* Watch a kernel OOM kill of unknown cgroup for the memcgs' OOM kill
 * counts. */
void kill_cgroup_watch_oom(struct kill_cgroup *c, int kill, uint64_t ts);
/* A kill resolved: its cgroup's oomd_kill rose across it (KC_BY_OOMD),
 * or the memcg that ran out was found (KC_BY_OOM_COUNT); 1 and *out,
 * else 0. */
int kill_cgroup_take(struct kill_cgroup *c, struct kc_resolved *out);

#endif
