/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Run model: the context a recording was made in and the outcome of its
 * command, from the "mms1 ctx", "mms1 outcome" and "mms1 memcg" sample
 * lines (man/mmscope-samples.5). Pure C, no I/O.
 *
 * - Settings: every ctx key (vm.swappiness, thp.enabled, swap.0.dev, ...)
 *   with its value at the start and at the end of the run, or absent
 *   (the kernel has no such file), or not recorded in that phase. A
 *   recording without ctx lines (older mmscope, trace-cmd) has none:
 *   run_model_has_context() is 0 and every figure is unknown.
 * - Outcome: the command's argv, exit status or signal, elapsed, user,
 *   sys, max RSS (wait4), each with a known flag; where the file has no
 *   outcome line, from the recorder's metadata (run_model_outcome_meta).
 * - Memcg (record --cgroup): its limits and kernel peaks (last sampled),
 *   the largest usage and swap sampled, memory.events (v2) or
 *   memory.oom_control/failcnt (v1) deltas, and memory.stat deltas of
 *   scanned/reclaimed anon/file and refaults where the kernel has them.
 *
 * For compare and export: iterate run_model_setting(), compare
 * run_setting.start (or .end) between two runs; run_model_outcome() gives
 * Duration rows; run_model_memcg() the memcg rows. Nothing here is
 * invented: a figure the recording lacks has known = 0.
 */
#ifndef MMSCOPE_MODEL_RUN_H
#define MMSCOPE_MODEL_RUN_H

#include <stdint.h>

#include "model.h"
#include "records.h"

/* One context setting. Strings are the model's, valid until it is freed. */
struct run_setting {
	const char *key;	/* "vm.swappiness", "thp.hugepages-64kB.enabled" */
	const char *start;	/* value at the start; NULL: absent or not recorded */
	const char *end;	/* value at the end; NULL likewise */
	int absent_start;	/* the kernel lacked it at the start */
	int absent_end;		/* ... at the end */
};

/* A figure with its known flag (0: not recorded; value then 0). */
struct run_value {
	int known;
	int64_t v;
	int unlimited;		/* a limit the kernel reports as none */
};

struct run_outcome {
	int known;		/* the command's end was recorded (outcome line or metadata) */
	int argc;		/* argv[0..argc-1], decoded */
	char **argv;
	struct run_value exit;		/* exit status, when it exited */
	struct run_value signal;	/* the signal that killed it */
	struct run_value core;		/* 1: dumped core (with signal) */
	struct run_value elapsed_us;	/* its start to its reaping, wall */
	struct run_value user_us, sys_us;	/* rusage */
	struct run_value maxrss_kb;	/* rusage ru_maxrss */
	struct run_value stopped_by_recorder;	/* 1: mmscope ended it */
	/* run_model_outcome_meta(): */
	struct run_value pid;		/* its process id (command_pid) */
	int running;		/* still running when the file was written (known 0) */
	int from_meta;		/* from the metadata's command_* keys: no outcome line */
};

struct run_memcg {
	int known;		/* memcg lines were recorded (record --cgroup) */
	const char *path;	/* as given to --cgroup (underscores for spaces) */
	int version;		/* 1 or 2 from the keys seen; 0 unknown */
	/* last sampled, bytes; unlimited set for v2 "max" and v1's huge value */
	struct run_value limit, memsw_limit, high, low, min, swap_max;
	/* the kernel's own high-water marks (v1 max_usage_in_bytes,
	 * memsw.max_usage_in_bytes; v2 memory.peak, memory.swap.peak): since
	 * the cgroup was made or reset, not only this run */
	struct run_value peak, memsw_peak, swap_peak;
	/* largest sampled: usage, and swap (v2 memory.swap.current, v1
	 * memory.stat total_swap or swap) */
	struct run_value usage_max, swap_max_sampled;
	/* deltas over the run (last - first) */
	struct run_value ev_low, ev_high, ev_max, ev_oom, ev_oom_kill, failcnt;
	struct run_value scan_anon, scan_file, steal_anon, steal_file;
	struct run_value scan, steal;		/* v2 pgscan, pgsteal */
	struct run_value refault_anon, refault_file;
};

struct run_model;

extern const struct model_ops run_model_ops;

struct run_model *run_model_new(void);
void run_model_free(struct run_model *m);
void run_model_add(struct run_model *m, const struct record *r);

/* Whether the recording has ctx lines. */
int run_model_has_context(const struct run_model *m);
/* Settings in the order first recorded. */
int run_model_nsettings(const struct run_model *m);
const struct run_setting *run_model_setting(const struct run_model *m, int i);
/* One setting by key, NULL when never recorded (neither value nor absent). */
const struct run_setting *run_model_find(const struct run_model *m, const char *key);
/* The value at the start, else at the end; NULL when unknown. */
const char *run_model_value(const struct run_model *m, const char *key);
/* 1 when both phases were recorded and differ (absent counts as a value). */
int run_setting_changed(const struct run_setting *s);

const struct run_outcome *run_model_outcome(const struct run_model *m);
/*
 * The outcome with the recorder's metadata (meta: the last file's,
 * analysis_last_meta(); NULL: as run_model_outcome()). The outcome line
 * when the file has one, with the pid from command_pid; else the
 * command_* keys (run-stop.h), which mmscope record writes at the end
 * whatever became of the line (a full disk or --max-size ends the
 * reading of the ring before it): known when they say how it ended,
 * running when they say it still ran (a --switch-output part, a flight
 * file, a killed recorder's spool). Valid until the next call or the
 * model is freed.
 */
const struct run_outcome *run_model_outcome_meta(const struct run_model *m, const char *meta);
const struct run_memcg *run_model_memcg(const struct run_model *m);

#endif
