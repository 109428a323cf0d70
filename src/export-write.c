// SPDX-License-Identifier: GPL-2.0-or-later
/* A recording's rows into the table files, all or none (export-write.h). */
#include "config.h"
#include "export-write.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#define JOURNAL ".mmscope-export-pending"
#define JOURNAL_MAGIC "mmscope-export-pending 1"

static char *journal_path(const char *dir)
{
	return xasprintf("%s/%s", dir, JOURNAL);
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* path back to size bytes (a file that is not longer stays as it is) */
static int shrink(const char *path, off_t size, char **err)
{
	struct stat st;

	if (stat(path, &st)) {
		if (errno == ENOENT)
			return 0;
		return set_err(err, "%s: %s", path, strerror(errno));
	}
	if (!S_ISREG(st.st_mode) || st.st_size <= size)
		return 0;
	if (truncate(path, size))
		return set_err(err, "%s: cannot undo a partial export: %s", path,
			       strerror(errno));
	return 0;
}

static int xw_recover(const char *dir, char **err)
{
	char *jpath = journal_path(dir), *line = NULL;
	size_t cap = 0;
	FILE *fp = fopen(jpath, "r");
	int r = 0, lineno = 0;

	if (!fp) {
		if (errno != ENOENT)
			r = set_err(err, "%s: %s", jpath, strerror(errno));
		free(jpath);
		return r;
	}
	/* "SIZE NAME" a table file, as it was before the rows began */
	while (!r && getline(&line, &cap, fp) >= 0) {
		char *name, *end;
		long long size;

		line[strcspn(line, "\n")] = '\0';
		if (!lineno++) {
			if (strcmp(line, JOURNAL_MAGIC))
				r = set_err(err, "%s: not an export journal (remove it by hand)",
					    jpath);
			continue;
		}
		errno = 0;
		size = strtoll(line, &end, 10);
		name = end + 1;
		if (errno || end == line || *end != ' ' || size < 0 || !*name ||
		    strchr(name, '/')) {
			r = set_err(err, "%s: line %d is not 'SIZE NAME'", jpath, lineno);
			break;
		}
		char *path = xasprintf("%s/%s", dir, name);

		r = shrink(path, (off_t)size, err);
		free(path);
	}
	if (!r && lineno == 0)
		r = set_err(err, "%s: empty export journal (remove it by hand)", jpath);
	free(line);
	fclose(fp);
	if (!r && unlink(jpath))
		r = set_err(err, "%s: %s", jpath, strerror(errno));
	free(jpath);
	return r;
}

int xw_open(const char *dir, char **err)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return set_err(err, "%s: %s", dir, strerror(errno));
	/* a journal there while the lock is free is a dead export's */
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		int busy = errno == EWOULDBLOCK;

		if (busy)
			fprintf(stderr, "%s: another export into it is running: waiting\n", dir);
		if (!busy || flock(fd, LOCK_EX)) {
			set_err(err, "%s: cannot lock: %s", dir, strerror(errno));
			close(fd);
			return -1;
		}
	}
	if (xw_recover(dir, err)) {
		close(fd);
		return -1;
	}
	return fd;
}

void xw_close(int lock)
{
	if (lock >= 0)
		close(lock);
}

/* The sizes before: sizes[i] of files[i], 0 for a file not there yet. */
static int journal_write(const char *jpath, const struct ex_file *files, int n,
			 off_t *sizes, char **err)
{
	FILE *fp;
	struct stat st;
	int r = 0;

	for (int i = 0; i < n; i++) {
		if (!stat(files[i].path, &st))
			sizes[i] = st.st_size;
		else if (errno == ENOENT)
			sizes[i] = 0;
		else
			return set_err(err, "%s: %s", files[i].path, strerror(errno));
	}
	/* "x": a journal there is a recording this export could not undo
	 * (xw_open undid any before): run export again */
	fp = fopen(jpath, "wx");
	if (!fp) {
		if (errno == EEXIST)
			return set_err(err, "%s: rows of a failed recording could not be undone; "
				       "run export again to undo them", jpath);
		return set_err(err, "%s: %s", jpath, strerror(errno));
	}
	fprintf(fp, "%s\n", JOURNAL_MAGIC);
	for (int i = 0; i < n; i++)
		fprintf(fp, "%lld %s\n", (long long)sizes[i], base_name(files[i].path));
	if (ferror(fp))
		r = -1;
	if (fclose(fp))
		r = -1;
	if (r) {
		set_err(err, "%s: %s", jpath, strerror(errno));
		unlink(jpath);
	}
	return r;
}

static int append_one(struct ex_file *f, const char *head, const struct strbuf *rows,
		      char **err)
{
	FILE *fp = fopen(f->path, "a");
	size_t hl = head && !f->exists ? strlen(head) : 0;
	int r = 0;

	if (!fp)
		return set_err(err, "%s: %s", f->path, strerror(errno));
	if ((hl && fwrite(head, 1, hl, fp) != hl) ||
	    (rows->len && fwrite(rows->buf, 1, rows->len, fp) != rows->len))
		r = -1;
	if (fclose(fp))
		r = -1;
	if (r)
		return set_err(err, "%s: %s", f->path, strerror(errno ? errno : EIO));
	return 0;
}

int xw_append(const char *dir, struct ex_file *files, int n, const char *const *head,
	      const struct strbuf *const *rows, int last, char **err)
{
	char *jpath = journal_path(dir);
	off_t *sizes = xcalloc((size_t)n + 1, sizeof(*sizes));
	int r = journal_write(jpath, files, n, sizes, err);

	if (r) {	/* nothing written (and the journal not ours) */
		free(sizes);
		free(jpath);
		return r;
	}
	/* every table, then the recordings row: a reader of DIR sees a
	 * recording there only when its rows are */
	for (int i = 0; !r && i < n; i++)
		if (i != last)
			r = append_one(&files[i], head[i], rows[i], err);
	if (!r)
		r = append_one(&files[last], head[last], rows[last], err);
	if (r) {
		/* undo: every file back to its size (a full disk does not
		 * stop a truncate); the journal stays if that fails too */
		int undone = 0;
		char *why = NULL;

		for (int i = 0; i < n; i++)
			if (shrink(files[i].path, sizes[i], &why))
				undone = -1;
		free(why);
		if (!undone)
			unlink(jpath);
	} else if (unlink(jpath)) {
		r = set_err(err, "%s: %s", jpath, strerror(errno));
	} else {
		for (int i = 0; i < n; i++)
			files[i].exists = 1;
	}
	free(sizes);
	free(jpath);
	return r;
}
