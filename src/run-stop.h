/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * How a recording ended, read from mmscope's own metadata (the key=value
 * lines of man/mmscope-recording.5): the trigger that made a flight file
 * (trigger=, trigger_name, trigger_kind, trigger_unit, trigger_threshold,
 * trigger_value, trigger_pid, trigger_comm, trigger_ns,
 * trigger_realtime_ns), the stop_reason and stop_detail, and where each
 * CPU's data ends in a recovered file (cpu_end_ns). Pure parsing of a
 * string the analysis holds (analysis_private_meta()): no I/O. A key the
 * file lacks (an older mmscope, trace-cmd) stays unknown: NULL or a
 * zero known flag, never a guess.
 */
#ifndef MMSCOPE_RUN_STOP_H
#define MMSCOPE_RUN_STOP_H

#include <stddef.h>
#include <stdint.h>

struct run_stop_cpu {
	int known;		/* 0: the CPU has no events ("-") */
	uint64_t ns;		/* trace time of its last event */
};

struct run_stop {
	int has_trigger;	/* trigger= or trigger_name= */
	char *trigger;		/* trigger=: the condition with the values seen */
	char *name;		/* trigger_name, as given to --trigger */
	char *kind;		/* trigger_kind; NULL in older files */
	char *unit;		/* trigger_unit */
	char *comm;		/* trigger_comm */
	int has_threshold, has_value, has_pid, has_ns, has_realtime;
	double threshold, value;
	int64_t pid;
	uint64_t ns;		/* trace clock */
	uint64_t realtime_ns;	/* CLOCK_REALTIME */

	char *reason;		/* stop_reason as written; NULL: absent */
	char *detail;		/* stop_detail; NULL: none */
	/*
	 * The reason as one word of a fixed set ("command-exit", "duration",
	 * "signal", "max-size", "disk-full", "error", "max-triggers",
	 * "switch-output", "trigger", "recovered", "killed", "other"); NULL
	 * when the file has no stop_reason. After a trigger, "then" is what
	 * stopped the run within its post-trigger time (NULL: nothing did).
	 * "killed": stop_reason=running, a spool recovered from a recorder
	 * that never stopped (files written before stop_reason=recovered).
	 */
	const char *stop;
	const char *then;
	int ncpu;			/* entries of cpu_end; 0: no cpu_end_ns */
	struct run_stop_cpu *cpu_end;
	char *text[2];			/* run_stop_text()'s, made on request */
};

/* Fill st from the metadata (NULL or "": nothing known). */
void run_stop_parse(struct run_stop *st, const char *meta);
/*
 * Of a recording of several files (--switch-output parts): the trigger
 * from its first file's metadata, the stop (stop_reason, stop_detail,
 * cpu_end_ns) from the last's, which ended the run; first == last for
 * one file.
 */
void run_stop_parse2(struct run_stop *st, const char *first, const char *last);
void run_stop_release(struct run_stop *st);

/*
 * The reason in words for a report line: "the command exited", "trigger
 * oom fired, then the command exited", "filesystem full (DETAIL): the
 * recording ended early", ...; brief: the cause alone, without the
 * detail and what it means ("filesystem full"). NULL when the file has
 * no stop_reason. The result is st's until it is released.
 */
const char *run_stop_text(struct run_stop *st, int brief);

/* The stop or trigger word for a class ("disk-full" -> "disk full"). */
const char *run_stop_word(const char *stop);

#endif
