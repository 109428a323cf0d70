/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * record --switch-output: a finished part written by a thread of its own
 * (issue 36 item 5). Compressing a part's pages takes seconds of CPU on
 * a slow machine; done by the recording loop it left the rings unread
 * meanwhile, so the next part was due at once and grew to several times
 * --switch-output's size. The loop hands the part's spool over and goes
 * on reading; one part is written at a time (the next switch waits for
 * the one before). Everything the user sees (the "wrote" line, the
 * oldest part deleted, an error) is done by the loop when it takes the
 * result back (part_writer_reap), so the thread touches only the spool
 * it was given and the output file.
 *
 * A recorder killed while a part is written leaves that part's spool
 * (the output file appears only when complete): `mmscope recover`
 * writes it, as before.
 */
#ifndef MMSCOPE_PART_WRITER_H
#define MMSCOPE_PART_WRITER_H

#include <pthread.h>
#include <stdatomic.h>

#include "spool.h"
#include "tracedat-write.h"

struct part_writer {
	pthread_t thread;
	int busy;		/* a part was handed over and not reaped */
	atomic_int done;	/* the thread has finished its part */
	/* the job: owned by the thread until done */
	struct spool *spool;
	char *dir, *path;
	int force;
	const struct tw_opts *opts;
	unsigned delay_ms;	/* MMSCOPE_TEST_PART_DELAY_MS (tests only) */
	/* the result */
	int failed, err_errno;
	char *err;
	struct spool_result res;
};

/* Write the spool in dir (spool: its open handle, closed and the
 * directory removed once written) to path. Takes dir and path (freed by
 * reap). The writer must not be busy. Returns 0, or -1 with *err (the
 * thread could not start: nothing was handed over). */
int part_writer_start(struct part_writer *pw, struct spool *spool, char *dir, char *path,
		      int force, const struct tw_opts *opts, char **err);
/* 1 when the part handed over is written (or failed), 0 while it is
 * being written or when none is. */
int part_writer_ready(struct part_writer *pw);
/* Wait for the part handed over (if any) and take its result: returns
 * 0 when none was busy or it was written (*res, *path filled when
 * non-NULL: the caller frees *path), -1 when writing failed: *err (the
 * message), *dir and *path (the spool kept, for recover) for the caller
 * to free, and errno as the write left it. */
int part_writer_reap(struct part_writer *pw, struct spool_result *res, char **path,
		     char **dir, char **err);

#endif
