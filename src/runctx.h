/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The run's context and outcome as "mms1 ctx" and "mms1 outcome" lines
 * (man/mmscope-samples.5), written by mmscope record into the trace like
 * the counter samples: the kernel command line, THP/mTHP, zswap, vm
 * sysctls, MGLRU, swap devices and memory size at the start and at the
 * end of the run, and the command's argv, exit and rusage at the end.
 * Every path is read below a root directory ("" for the real system) so
 * that tests can use fake files; what the kernel lacks is listed in the
 * "absent" key, never guessed.
 */
#ifndef MMSCOPE_RUNCTX_H
#define MMSCOPE_RUNCTX_H

#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "sampler.h"

/*
 * Reads the context below root and emits the ctx lines of phase
 * ("start" or "end") with sample set number seq. Returns the number of
 * lines, or -1 when emit failed.
 */
int runctx_emit(const char *root, const char *phase, uint64_t seq,
		sampler_emit_fn emit, void *ctx);

/* What mmscope record knows of its COMMAND when it ends. */
struct runctx_outcome {
	char **argv;			/* NULL-terminated */
	pid_t pid;			/* its process (0: not known) */
	int reaped;			/* wait4 returned: status and ru are valid */
	int status;			/* wait status */
	struct rusage ru;		/* the command's, from wait4 */
	uint64_t elapsed_ns;		/* start to reap (reaped) */
	int stopped_by_recorder;	/* mmscope sent it SIGTERM/SIGKILL */
};

/* Emits the outcome line(s) with sample set number seq; lines or -1. */
int runctx_emit_outcome(const struct runctx_outcome *o, uint64_t seq,
			sampler_emit_fn emit, void *ctx);

/*
 * The same facts as metadata keys (mmscope-recording(5)), for the
 * recorder's private metadata, which is written at the end with room set
 * aside: command_argv (each argument percent-encoded, one space between),
 * command_pid, command_state=running (not reaped yet) or ended, and once
 * ended command_exit or command_signal and command_core,
 * command_elapsed_us, command_user_us, command_sys_us, command_maxrss_kb
 * and command_ended_by_recorder. A full disk or --max-size stops the
 * reading of the ring before the outcome line, which is then only here.
 */
void runctx_outcome_meta(const struct runctx_outcome *o, struct strbuf *sb);

/* Percent-encodes s into out (space, '%', and bytes outside '!'..'~'
 * as %XX): the values of ctx and outcome lines. */
void runctx_encode(const char *s, struct strbuf *out);

#endif
