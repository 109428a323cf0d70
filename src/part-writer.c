// SPDX-License-Identifier: GPL-2.0-or-later
/* A finished --switch-output part written by a thread (see part-writer.h). */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "part-writer.h"
#include "util.h"

static void *part_writer_main(void *arg)
{
	struct part_writer *pw = arg;

	if (pw->delay_ms)	/* tests: a slow disk, or a slow machine's compression */
		usleep((useconds_t)pw->delay_ms * 1000);
	if (spool_write_file(pw->dir, pw->path, pw->force, pw->opts, &pw->res, &pw->err)) {
		pw->failed = 1;
		pw->err_errno = errno;
		spool_close(pw->spool);	/* the directory stays, for recover */
	} else {
		spool_close(pw->spool);
		spool_remove(pw->dir, NULL);
	}
	pw->spool = NULL;
	atomic_store_explicit(&pw->done, 1, memory_order_release);
	return NULL;
}

int part_writer_start(struct part_writer *pw, struct spool *spool, char *dir, char *path,
		      int force, const struct tw_opts *opts, char **err)
{
	sigset_t all, old;
	int rc;

	pw->spool = spool;
	pw->dir = dir;
	pw->path = path;
	pw->force = force;
	pw->opts = opts;
	pw->failed = 0;
	pw->err_errno = 0;
	{
		const char *d = getenv("MMSCOPE_TEST_PART_DELAY_MS");

		pw->delay_ms = d ? (unsigned)strtoul(d, NULL, 10) : 0;
	}
	pw->err = NULL;
	memset(&pw->res, 0, sizeof(pw->res));
	atomic_store(&pw->done, 0);
	/* the signals (stop, SIGUSR1, the command's exit) are the loop's:
	 * the thread blocks them all, so they wake the loop's poll */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(&pw->thread, NULL, part_writer_main, pw);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc) {
		pw->spool = NULL;
		pw->dir = pw->path = NULL;
		*err = xasprintf("cannot start the part writer: %s", strerror(rc));
		errno = rc;
		return -1;
	}
	pw->busy = 1;
	return 0;
}

int part_writer_ready(struct part_writer *pw)
{
	return pw->busy && atomic_load_explicit(&pw->done, memory_order_acquire);
}

int part_writer_reap(struct part_writer *pw, struct spool_result *res, char **path,
		     char **dir, char **err)
{
	if (!pw->busy)
		return 0;
	pthread_join(pw->thread, NULL);
	pw->busy = 0;
	if (pw->failed) {
		*err = pw->err;
		*dir = pw->dir;
		*path = pw->path;
		pw->err = pw->dir = pw->path = NULL;
		errno = pw->err_errno;
		return -1;
	}
	if (res)
		*res = pw->res;
	if (path)
		*path = pw->path;
	else
		free(pw->path);
	free(pw->dir);
	pw->dir = pw->path = NULL;
	return 0;
}
