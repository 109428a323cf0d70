/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * How a recording ended, read from mmscope's own metadata (the key=value
 * lines of man/mmscope-recording.5): the trigger that made a flight file
 * (trigger=, trigger_name, trigger_kind, trigger_unit, trigger_threshold,
 * trigger_value, trigger_pid, trigger_comm, trigger_ns,
 * trigger_realtime_ns), the stop_reason and stop_detail, what became of
 * the recorder's COMMAND (command=, command_argv, command_pid,
 * command_state and the command_* outcome keys), and of a recovered file
 * what its spool said (spool_stop_reason, spool_stop_detail, spool_state)
 * and where each CPU's data ends (cpu_end_ns). Pure parsing of a string
 * the analysis holds (analysis_private_meta()): no I/O. A key the file
 * lacks (an older mmscope, trace-cmd) stays unknown: NULL or a zero known
 * flag, never a guess.
 *
 * The stop words, the one place they are defined (report, JSON, HTML,
 * export, plot and the TUI take them from here):
 *
 *   command-exit   the COMMAND exited (by itself)
 *   duration       --duration reached
 *   signal         SIGINT, SIGTERM or SIGHUP to the recorder
 *   max-size       --max-size reached
 *   disk-full      the spool's filesystem filled: the recording ended early
 *   error          an error stopped the recorder (a --switch-output part
 *                  that could not be written is one: "switching from FILE")
 *   max-triggers   --max-triggers reached (a flight recorder)
 *   switch-output  a --switch-output part: the next file continues the run
 *   trigger        a flight file: its trigger fired (then: what stopped the
 *                  run in its post-trigger time, or max-triggers reached
 *                  with this, the last file)
 *   recovered      mmscope recover wrote it from a killed recorder's spool
 *   killed         the same, by an mmscope that did not yet say
 *                  "recovered" (stop_reason=running)
 *   other          a stop_reason this mmscope does not know
 *
 * With every stop but command-exit, a COMMAND still running is ended by
 * the recorder (SIGTERM, SIGKILL after 5 s); from this version on the
 * recorder says so (command_ended_by_recorder) and keeps the command's
 * outcome in the metadata as well as in its "mms1 outcome" line, which a
 * full disk or --max-size leaves out of the file.
 */
#ifndef MMSCOPE_RUN_STOP_H
#define MMSCOPE_RUN_STOP_H

#include <stddef.h>
#include <stdint.h>

struct run_stop_cpu {
	int known;		/* 0: the CPU has no events ("-") */
	uint64_t ns;		/* trace time of its last event */
};

/* A figure of the command's end from the metadata; known 0: not said. */
struct run_stop_num {
	int known;
	int64_t v;
};

/*
 * The recorder's COMMAND as the metadata says (the last file's: the one
 * that ended the run). command_state is "running" in a file written while
 * the command ran (a --switch-output part, a flight file, a spool's
 * metadata refreshed while recording), "ended" once the recorder reaped
 * it: then exactly one of exit and signal is known, with the rusage.
 */
struct run_stop_command {
	int known;		/* command=: the recorder ran a COMMAND */
	char *line;		/* command= as written (arguments joined by spaces) */
	int argc;		/* command_argv decoded; 0: not in the file */
	char **argv;
	const char *state;	/* "running", "ended"; NULL: not said (older files) */
	struct run_stop_num pid, exit, signal, core;
	struct run_stop_num elapsed_us, user_us, sys_us, maxrss_kb;
	struct run_stop_num ended_by_recorder;	/* 1: mmscope ended it at the stop */
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
	int recorder;		/* mmscope=: written by mmscope record (or recover) */
	struct run_stop_command cmd;
	/*
	 * A recovered file: the spool's stop_reason as written (from
	 * spool_stop_reason, or for older files from stop_detail's "it said:
	 * X"), its word, its stop_detail, and spool_state: how far the
	 * recorder had got when it last wrote the spool's metadata:
	 * "recording" (no stop yet), "stopping" (stopped, its last pages not
	 * yet read), "complete" (every page read); NULL: not said.
	 */
	char *spool_reason;
	const char *spool_stop;
	char *spool_detail;
	const char *spool_state;
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
 * recording ended early; mmscope ended the command", "recovered by
 * mmscope recover: the recorder was killed while stopping after a signal
 * (Terminated), ...", ...; brief: the cause alone, without the
 * detail and what it means ("filesystem full"). NULL when the file has
 * no stop_reason. The result is st's until it is released.
 */
const char *run_stop_text(struct run_stop *st, int brief);

/* The stop or trigger word for a class ("disk-full" -> "disk full"). */
const char *run_stop_word(const char *stop);

/*
 * How a recording ended, for code that reasons about runs (a host's
 * history: why the last run ended) without parsing text.
 */
struct run_ending {
	const char *stop;	/* the stop word (above); NULL: no stop_reason */
	const char *then;	/* after "trigger": what stopped the run then, or NULL */
	/* 1: the recorder ran a COMMAND; 0: it ran none; -1: unknown (a
	 * file mmscope record did not write) */
	int command;
	/*
	 * 1: the recorder ended COMMAND itself at the stop (it was still
	 * running: disk-full, max-size, duration, signal, error, ...);
	 * 0: it did not: no COMMAND, the COMMAND exited by itself, it was
	 * still running when this file ended (a --switch-output part, a
	 * flight file) or the recorder was killed while it ran;
	 * -1: unknown (an older file, or the last file of --max-triggers,
	 * written before the recorder stopped and ended a COMMAND still
	 * running).
	 */
	int ended_command;
	/*
	 * 1: the data is complete up to the stop: the recorder read its
	 * rings to the end (what a full disk could not keep is counted lost);
	 * 0: it may end earlier: a recovered file, whose recorder was killed
	 * before it read its last pages (cpu_end_ns says where each CPU's
	 * data ends); -1: unknown (no stop_reason).
	 */
	int complete;
};

/*
 * The ending of a recording of one file (first == last, or last NULL)
 * or of several (--switch-output parts: first and last file's metadata,
 * as run_stop_parse2). The strings are static.
 */
void run_stop_ending(const char *first, const char *last, struct run_ending *e);
/* The same from a parsed run_stop. */
void run_stop_ending_of(const struct run_stop *st, struct run_ending *e);

#endif
