// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The recording's cmdlines section (see cmdlines.h).
 */
#include "config.h"
#include "cmdlines.h"

#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void cmdlines_init(struct cmdlines *cl)
{
	pidmap_init(&cl->names, CMDLINES_COMM);
}

void cmdlines_release(struct cmdlines *cl)
{
	pidmap_release(&cl->names);
}

/* Adds pid's name unless pid has one; a name ends at a newline. */
static void put_name(struct pidmap *m, int pid, const char *s, size_t n)
{
	char *v;

	if (pid <= 0 || pidmap_get(m, pid))
		return;
	if (memchr(s, '\n', n))
		n = (size_t)((const char *)memchr(s, '\n', n) - s);
	if (!n)
		return;
	v = pidmap_add(m, pid);
	snprintf(v, CMDLINES_COMM, "%.*s", (int)n, s);
}

static void add_saved(struct pidmap *m, const char *p, size_t len)
{
	const char *end = p + len;

	while (p && p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end;
		char *q;
		long pid = strtol(p, &q, 10);

		if (q < e && q > p && *q == ' ' && pid > 0 && pid <= 0x3fffffff)
			put_name(m, (int)pid, q + 1, (size_t)(e - q - 1));
		p = nl ? nl + 1 : end;
	}
}

static int all_digits(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return 0;
	return 1;
}

/* /proc/PID/task/TID/comm of every task alive; bounded by max names. */
static void add_proc(struct pidmap *m, const char *root, size_t max)
{
	DIR *d = opendir(root);
	struct dirent *e;

	while (d && (e = readdir(d)) && m->n < max) {
		char *path;
		DIR *td;
		struct dirent *t;

		if (!all_digits(e->d_name))
			continue;
		path = xasprintf("%s/%s/task", root, e->d_name);
		td = opendir(path);
		free(path);
		while (td && (t = readdir(td)) && m->n < max) {
			char comm[64];
			ssize_t n;
			int fd;

			if (!all_digits(t->d_name) || pidmap_get(m, atoi(t->d_name)))
				continue;
			path = xasprintf("%s/%s/task/%s/comm", root, e->d_name, t->d_name);
			fd = open(path, O_RDONLY | O_CLOEXEC);
			free(path);
			if (fd < 0)
				continue;	/* exited meanwhile */
			n = read(fd, comm, sizeof(comm));
			close(fd);
			if (n > 0)
				put_name(m, atoi(t->d_name), comm, (size_t)n);
		}
		if (td)
			closedir(td);
	}
	if (d)
		closedir(d);
}

size_t cmdlines_update(struct cmdlines *cl, const char *saved, size_t len,
		       const char *proc_root, struct strbuf *out)
{
	struct pidmap m;
	size_t max;

	pidmap_init(&m, CMDLINES_COMM);
	if (saved)
		add_saved(&m, saved, len);
	max = m.n + CMDLINES_MAX;
	if (proc_root)
		add_proc(&m, proc_root, max);
	for (unsigned i = 0; i < cl->names.cap && m.n < max; i++)
		if (cl->names.keys[i] >= 0)
			put_name(&m, cl->names.keys[i], PIDMAP_VAL(&cl->names, i),
				 strnlen(PIDMAP_VAL(&cl->names, i), CMDLINES_COMM));
	for (unsigned i = 0; i < m.cap; i++)
		if (m.keys[i] >= 0)
			strbuf_addf(out, "%d %s\n", m.keys[i], (char *)PIDMAP_VAL(&m, i));
	pidmap_release(&cl->names);
	cl->names = m;
	return m.n;
}
