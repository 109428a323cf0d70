/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the seconds before a kill looked like, kept as the records come:
 * the OOM model (model-oom.h) feeds every record here in time order and,
 * at each kill, takes a picture of the window before it. Pure C, no I/O.
 *
 * Why a window of its own, not the other models' lists: the reclaim and
 * compaction models keep their per-stall and per-run lists only for the
 * viewers (an analysis of summaries keeps none, and a full one at most a
 * million), so a kill late in a long history would find its window gone.
 * Here only the last window's stalls and runs are kept (those that ended
 * less than the window ago, and those still open), so the memory is what
 * the busiest window holds, however long the recording; past
 * KW_RING_MAX of them the oldest go and a window that reached back to
 * them says its figures are unknown.
 *
 * A stall (direct or memcg reclaim: one task's begin .. end) counts in
 * a window when any of its time is inside (kill - window, kill]: its
 * time inside is summed, one still open at the kill up to the kill.
 * A compaction run (any runner: compact_begin .. compact_end) counts
 * when it ended inside the window, a failure when its status was not
 * "success"; runs open at the kill are neither. The counter samples are
 * the last value seen before the kill (of a complete set for swap).
 */
#ifndef MMSCOPE_KILL_WINDOW_H
#define MMSCOPE_KILL_WINDOW_H

#include <stdint.h>

#include "pidmap.h"
#include "records.h"

#define KW_RING_MAX	(1u << 18)	/* stalls or runs kept: 8 MB at most */
#define KW_TASKS	8		/* tasks of a snapshot kept (the largest) */

/* One task of the last task snapshot (mms1 tasks): -1 unknown. */
struct kw_task {
	int pid;
	char comm[16];
	int64_t rss_kb, swap_kb;
};

/* The picture at a kill. Counts -1: unknown (the ring lost part of the
 * window); which groups were recorded is the analysis' to say. */
struct kill_before {
	uint64_t window_ns;
	/* the window began before the first record: it holds less */
	int clipped;
	int64_t direct_stalls, direct_stall_ns;
	int64_t memcg_stalls, memcg_stall_ns;
	/* the same in the victim's memory cgroup (record.cgroup); -1 when
	 * the victim's cgroup is unknown */
	int64_t cg_direct_stalls, cg_direct_stall_ns;
	int64_t cg_memcg_stalls, cg_memcg_stall_ns;
	int64_t compaction_runs, compaction_failures;
	/* memory PSI avg10 (percent times 100) at the last sample; -1 none */
	int64_t psi_some_x100, psi_full_x100;
	uint64_t psi_ts;		/* its time, 0 none */
	/* swap devices' size and used (kB) of the last complete set (0: it
	 * had no device); -1 no set, or no swap source */
	int64_t swap_size_kb, swap_used_kb;
	int64_t zswap_pool_bytes;	/* -1 none */
	/* the last task snapshot (largest RSS+swap first) */
	int ntasks;
	uint64_t tasks_ts;		/* 0: none before the kill */
	struct kw_task task[KW_TASKS];
};

struct kw_span {
	uint64_t begin, end;
	int cgroup;
	int kind;	/* stalls: RK_DIRECT or RK_MEMCG; runs: the end's status */
};

struct kw_ring {
	struct kw_span *v;
	unsigned cap, head, n;
	uint64_t lost_end;		/* the latest end dropped for room; 0 none */
};

struct kill_window {
	uint64_t window_ns;
	uint64_t first_ts;		/* the first record's; 0 none yet */
	struct kw_ring stalls, runs;
	struct pidmap open_stall, open_run;	/* pid -> struct kw_span */
	int64_t psi_some, psi_full;
	uint64_t psi_ts;
	/* swap: the set being read, the last complete one */
	uint64_t swap_seq;
	int64_t swap_size_cur, swap_used_cur;
	int swap_in_set;
	int swap_missing;		/* the samples say /proc/swaps is missing */
	int64_t swap_size, swap_used;	/* 0: a set with no swap device */
	int64_t zswap_pool;
	/* tasks: the set being read, the last complete one */
	uint64_t tasks_seq, tasks_ts_cur, tasks_ts;
	int ntask_cur, ntask;
	struct kw_task task_cur[KW_TASKS], task[KW_TASKS];
};

void kill_window_init(struct kill_window *w, uint64_t window_ns);
void kill_window_release(struct kill_window *w);
void kill_window_add(struct kill_window *w, const struct record *r);
/* The window before ts; victim_cgroup as record.cgroup (0 unknown). */
void kill_window_capture(const struct kill_window *w, uint64_t ts, int victim_cgroup,
			 struct kill_before *out);

#endif
