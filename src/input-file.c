// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Recordings from standard input (see input-file.h).
 */
#include "config.h"
#include "input-file.h"
#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* 0, or -1 with errno: the whole buffer, through short writes */
static int write_buf(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

int input_file_open(struct input_file *in, const char *arg, char **err)
{
	const char *dir = getenv("TMPDIR");
	char buf[1 << 16];
	ssize_t n;
	int fd;

	in->path = in->name = arg;
	in->tmp = NULL;
	if (strcmp(arg, "-"))
		return 0;
	in->name = "(stdin)";
	if (isatty(STDIN_FILENO))
		return set_err(err, "standard input is a terminal, not a recording "
			       "(pipe one in: cat run.dat | mmscope ... -)");
	in->tmp = xasprintf("%s/mmscope-stdin-XXXXXX", dir && *dir ? dir : "/tmp");
	fd = mkstemp(in->tmp);	/* mode 0600 */
	if (fd < 0) {
		set_err(err, "cannot make a temporary copy of standard input in %s: %s",
			dir && *dir ? dir : "/tmp", strerror(errno));
		free(in->tmp);
		in->tmp = NULL;
		return -1;
	}
	/* nameless from the start: however the command ends (a reader of
	 * its output that quits early kills it with SIGPIPE), nothing is
	 * left; the reader opens it through /proc/self/fd */
	unlink(in->tmp);
	free(in->tmp);
	in->tmp = xasprintf("/proc/self/fd/%d", fd);
	in->fd = fd;
	while ((n = read(STDIN_FILENO, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || write_buf(fd, buf, (size_t)n)) {
			set_err(err, "copying standard input to a temporary file in %s: %s",
				dir && *dir ? dir : "/tmp", strerror(errno));
			input_file_release(in);
			return -1;
		}
	}
	in->path = in->tmp;
	return 0;
}

void input_file_release(struct input_file *in)
{
	if (in->tmp) {
		close(in->fd);
		free(in->tmp);
		in->tmp = NULL;
	}
}
