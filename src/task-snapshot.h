/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The largest tasks by resident and swapped memory: ROOT/proc/PID/status
 * of every process (VmRSS and VmSwap, kB; kernel threads have neither
 * and are left out), the max largest kept, largest first. The sampler
 * writes them as "mms1 tasks" lines (mmscope-samples(5)) in each set of
 * a recording with the oom group, so that a kill's dossier can name the
 * tasks that held the memory just before it (kill-dossier.h).
 */
#ifndef MMSCOPE_TASK_SNAPSHOT_H
#define MMSCOPE_TASK_SNAPSHOT_H

#include <stdint.h>

struct task_mem {
	int pid;
	char comm[16];
	long long rss_kb, swap_kb;	/* swap -1: no VmSwap line */
};

struct task_snapshot_stats {
	uint64_t procs;		/* processes with a VmRSS line */
	uint64_t gone;		/* listed, exited before read */
	uint64_t us;		/* wall time, microseconds */
};

/* Fills out[0..max) and returns how many; -1 when ROOT/proc cannot be
 * listed. root: "" for the real system. */
int task_snapshot(const char *root, struct task_mem *out, int max,
		  struct task_snapshot_stats *st);

#endif
