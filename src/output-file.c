// SPDX-License-Identifier: GPL-2.0-or-later
/* Safe creation of output files (see output-file.h). */
#include "config.h"
#include "output-file.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int check_target(const char *path, int force, char **err)
{
	struct stat st;

	if (lstat(path, &st)) {
		if (errno == ENOENT)
			return 0;
		return set_err(err, "%s", strerror(errno));
	}
	if (S_ISLNK(st.st_mode))
		return set_err(err, "is a symbolic link; refusing to write through it");
	if (S_ISDIR(st.st_mode))
		return set_err(err, "is a directory");
	if (!S_ISREG(st.st_mode))
		return set_err(err, "is not a regular file");
	if (!force)
		return set_err(err, "already exists (use --force to replace it)");
	return 0;
}

/*
 * Run as root through sudo (`sudo mmscope record`), the file belongs to
 * the user who asked (SUDO_UID/SUDO_GID), so that `mmscope report` then
 * works without sudo; the mode stays 0600. A failure keeps root's.
 */
static void give_to_sudo_user(int fd)
{
	const char *u = getenv("SUDO_UID"), *g = getenv("SUDO_GID");
	char *end;
	unsigned long uid, gid;

	if (geteuid() || !u || !g || !*u || !*g)
		return;
	uid = strtoul(u, &end, 10);
	if (*end)
		return;
	gid = strtoul(g, &end, 10);
	if (*end)
		return;
	if (fchown(fd, (uid_t)uid, (gid_t)gid))
		return;
}

int output_file_open(struct output_file *o, const char *path, int force, char **err)
{
	char *copy = xstrdup(path), *dir = dirname(copy), *base;
	char *bcopy = xstrdup(path);

	o->fd = -1;
	o->path = xstrdup(path);
	o->tmp = NULL;
	base = basename(bcopy);
	if (check_target(path, force, err))
		goto fail;
	for (int tries = 0; tries < 100; tries++) {
		free(o->tmp);
		o->tmp = xasprintf("%s/.%s.%ld.%d.tmp", dir, base, (long)getpid(),
				   (int)((unsigned)rand() % 100000));
		o->fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			     0600);
		if (o->fd >= 0 || errno != EEXIST)
			break;
	}
	if (o->fd < 0) {
		set_err(err, "cannot create a file in '%s': %s", dir, strerror(errno));
		goto fail;
	}
	give_to_sudo_user(o->fd);
	free(copy);
	free(bcopy);
	return 0;
fail:
	free(copy);
	free(bcopy);
	free(o->path);
	free(o->tmp);
	o->path = o->tmp = NULL;
	return -1;
}

int output_file_commit(struct output_file *o, char **err)
{
	int r = 0;

	if (fsync(o->fd) && errno != EINVAL)
		r = set_err(err, "cannot sync: %s", strerror(errno));
	if (close(o->fd) && !r)
		r = set_err(err, "cannot close: %s", strerror(errno));
	o->fd = -1;
	if (!r && rename(o->tmp, o->path))
		r = set_err(err, "cannot rename into place: %s", strerror(errno));
	if (r)
		unlink(o->tmp);
	free(o->tmp);
	free(o->path);
	o->tmp = o->path = NULL;
	return r;
}

void output_file_abort(struct output_file *o)
{
	if (o->fd >= 0)
		close(o->fd);
	if (o->tmp)
		unlink(o->tmp);
	free(o->tmp);
	free(o->path);
	o->fd = -1;
	o->tmp = o->path = NULL;
}

int output_file_write(const char *path, int force, const void *buf, size_t len, char **err)
{
	struct output_file o;
	size_t done = 0;

	if (output_file_open(&o, path, force, err))
		return -1;
	while (done < len) {
		ssize_t w = write(o.fd, (const char *)buf + done, len - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			set_err(err, "%s", w < 0 ? strerror(errno) : "cannot write");
			output_file_abort(&o);
			return -1;
		}
		done += (size_t)w;
	}
	return output_file_commit(&o, err);
}
