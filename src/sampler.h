/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The counter sampler: reads /proc and /sys counter files and turns each
 * sample set into "mms1" text lines (man/mmscope-samples.5), handed to an
 * emit callback -- in practice a write() into a trace_marker, so that the
 * kernel stamps each line on the trace clock. Reading is separate from
 * writing so the line format can be tested against fake files: every
 * path is taken below a root directory ("" for the real system). Files
 * stay open between sets and are read again from offset 0.
 */
#ifndef MMSCOPE_SAMPLER_H
#define MMSCOPE_SAMPLER_H

#include <stddef.h>
#include <stdint.h>

#include "util.h"

#define SAMPLER_LINE_MAX 1000
#define SAMPLER_TASKS 8		/* the largest tasks in a "tasks" snapshot */
#define SAMPLER_CGROUPS_MAX 64		/* --cgroups-max default */
#define SAMPLER_CGROUPS_MAX_MAX 4096	/* and its largest value */

/* Returns 0, or -1 (errno set) when the line could not be written. */
typedef int (*sampler_emit_fn)(void *ctx, const char *line, size_t len);

struct sampler_opts {
	const char *root;	/* prefix of every path; NULL or "" = "/" */
	const char *cgroup;	/* --cgroup PATH (absolute, or below the cgroup mounts) */
	/* --cgroups ROOT: every memory cgroup under ROOT (ROOT included),
	 * "memcgs" lines; at most cgroups_max of them sampled one by one
	 * (0: SAMPLER_CGROUPS_MAX), the rest summed in one line */
	const char *cgroups;
	int cgroups_max;
	/* every set carries every vmstat field, not only those that
	 * changed: a flight recorder's file starts wherever its ring was
	 * overwritten, so any set may be a file's first */
	int every_set_full;
	/* the largest tasks by RSS + swap in every set ("tasks" lines, for
	 * the kills' dossiers: src/task-snapshot.h); record sets it with the
	 * oom group */
	int tasks;
};

struct sampler;

struct sampler *sampler_new(const struct sampler_opts *o);
void sampler_free(struct sampler *s);

/*
 * Reads every source and emits one set (SEQ = number of sets so far).
 * Returns the number of lines emitted, or -1 when emit failed (the set
 * is then incomplete; its SEQ is used up).
 */
int sampler_run(struct sampler *s, sampler_emit_fn emit, void *ctx);
/*
 * The same for a set taken on the interval: /proc/pagetypeinfo (costly
 * for the kernel to make) only if it was last read 10 s ago or more.
 * sampler_run reads every source: at the start and the end of a
 * recording, at a trigger and a file switch.
 */
int sampler_run_routine(struct sampler *s, sampler_emit_fn emit, void *ctx);
uint64_t sampler_sets(const struct sampler *s);
/*
 * The next set carries every vmstat field, not only those that changed:
 * it starts a file (a switch-output part), whose reader must find every
 * counter's first value in it.
 */
void sampler_new_file(struct sampler *s);
/*
 * The set at a --switch-output switch: sampler_run with every vmstat
 * field, its lines kept. The recorder writes it as the finished file's
 * last set, reads the rings into that file, then has sampler_repeat
 * write the same lines again as the next file's first set: the same
 * readings end one file and start the next, so the files' counter
 * deltas add up to the run's exactly (no counter moves between a file's
 * last set and the next one's first).
 */
int sampler_run_boundary(struct sampler *s, sampler_emit_fn emit, void *ctx);
/*
 * The kept set again as the next set (SEQ = sets so far): every line as
 * it was with the new SEQ, then "mms1 end SEQ us=0 repeats=KEPT" (the
 * set it repeats; us=0: nothing was read). Once per kept set; without a
 * whole kept set (its write failed, or none), a fresh sampler_run of
 * every field. Returns as sampler_run.
 */
int sampler_repeat(struct sampler *s, sampler_emit_fn emit, void *ctx);

/* Sources read in the last set, and those missing ("name" lists). */
const char *sampler_sources(const struct sampler *s);
const char *sampler_missing(const struct sampler *s);

/* Every source name, for doctor: its file and whether it is readable. */
struct sampler_probe {
	const char *source;
	int available;
	char why[160];
};
int sampler_check(const struct sampler_opts *o, struct sampler_probe *out, int max);

/* The last vmstat values seen (for summaries): value of NAME, -1 if none. */
long long sampler_vmstat(const struct sampler *s, const char *name);

/* Whether a --cgroup argument names a memory cgroup (its memory.stat
 * as given, or below the v1 or v2 mount). */
int sampler_cgroup_exists(const char *arg);

/* --cgroups sampling of the last set: cgroups known (the tree as last
 * scanned), sampled one by one, summed into the "other" line. */
void sampler_cgroups_counts(const struct sampler *s, size_t *known, size_t *sampled,
			    size_t *other);

#endif
