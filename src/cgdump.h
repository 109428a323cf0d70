/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The memory cgroup of every task alive, as "mms1 cgtasks" lines
 * (man/mmscope-samples.5) written by mmscope record at the start of each
 * file: the analysis' pid -> cgroup map starts from them (src/cgmap.h)
 * and follows forks and cgroup:cgroup_attach_task from there. The memory
 * controller's hierarchy comes from ROOT/proc/self/cgroup (v1: the line
 * naming "memory", v2: "0::"); each process's line of that hierarchy in
 * ROOT/proc/PID/cgroup places it and every thread listed in
 * ROOT/proc/PID/task (memory is charged to the process's memcg). Pids of
 * one cgroup are batched, comma-separated, so a line stays under
 * SAMPLER_LINE_MAX bytes.
 */
#ifndef MMSCOPE_CGDUMP_H
#define MMSCOPE_CGDUMP_H

#include <stdint.h>

#include "sampler.h"

struct cgdump_result {
	char mode[4];		/* "v1", "v2"; "" when no memory controller */
	int hier;		/* its hierarchy id (v2: 0), -1 none */
	uint64_t tasks;		/* pids written (threads included) */
	uint64_t procs;		/* processes read */
	uint64_t cgroups;	/* distinct cgroups */
	uint64_t gone;		/* processes that exited while read */
	uint64_t long_paths;	/* cgroups whose path does not fit a line */
	uint64_t unread;	/* processes left unread: the time budget ran out */
	uint64_t lines;
	uint64_t us;		/* wall time of the whole list, microseconds */
};

/*
 * Reads and emits the list with sample set number seq. root: "" for the
 * real system. Returns the lines written (0 when there is no memory
 * controller: nothing is written), or -1 when emit failed.
 */
int cgdump_emit(const char *root, uint64_t seq, sampler_emit_fn emit, void *ctx,
		struct cgdump_result *res);

#endif
