// SPDX-License-Identifier: GPL-2.0-or-later
/* The tasks' memory cgroups at the start of a file (see cgdump.h). */
#include "config.h"
#include "cgdump.h"
#include "runctx.h"
#include "util.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* The list's wall-time budget: measured here, ~17 us of CPU per process
 * (3115 processes: 53 ms of CPU, 105-140 ms on a loaded 2-CPU machine);
 * a host whose /proc takes longer gets the processes read by then, and
 * the end line says how many were left (unread=): those tasks are
 * unknown, never guessed. */
#define CG_BUDGET_NS 2000000000ull

/* A line's pids are flushed before it would pass this many bytes. */
#define CG_LINE_BUDGET (SAMPLER_LINE_MAX - 24)

struct cg_batch {
	char *path;		/* as /proc gives it */
	char *head;		/* "mms1 cgtasks SEQ hier=H path=ENC pids=" */
	struct strbuf pids;
};

struct cg_dump {
	const char *root;
	uint64_t seq;
	sampler_emit_fn emit;
	void *ctx;
	struct cgdump_result *res;
	struct cg_batch *b;
	int n, cap, last;
	int failed;
};

static ssize_t read_small(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n, at = 0;

	if (fd < 0)
		return -1;
	while ((size_t)at + 1 < len && (n = read(fd, buf + at, len - 1 - (size_t)at)) > 0)
		at += n;
	close(fd);
	buf[at] = '\0';
	return at;
}

/*
 * The path of hierarchy hier in a /proc/PID/cgroup text ("4:memory:/a"
 * on v1, "0::/a" on v2), into out; 0, or -1 when it has none.
 */
static int cg_line_path(char *text, int hier, char *out, size_t len)
{
	for (char *l = text, *nl; l && *l; l = nl) {
		char *c1, *c2;

		nl = strchr(l, '\n');
		if (nl)
			*nl++ = '\0';
		c1 = strchr(l, ':');
		c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		if (!c2 || atoi(l) != hier || (l[0] < '0' || l[0] > '9'))
			continue;
		snprintf(out, len, "%s", c2 + 1);
		return out[0] ? 0 : -1;
	}
	return -1;
}

/* The memory controller's hierarchy from root/proc/self/cgroup. */
static int cg_find_hier(const char *root, char *mode)
{
	char *path = xasprintf("%s/proc/self/cgroup", root), buf[4096];
	int v2 = 0;

	if (read_small(path, buf, sizeof(buf)) < 0) {
		free(path);
		return -1;
	}
	free(path);
	for (char *l = buf, *nl; *l; l = nl) {
		char *c1, *c2;

		nl = strchr(l, '\n');
		nl = nl ? (*nl = '\0', nl + 1) : l + strlen(l);
		c1 = strchr(l, ':');
		c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		if (!c2)
			continue;
		*c2 = '\0';
		if (c2 == c1 + 1 && !strncmp(l, "0:", 2))
			v2 = 1;
		for (char *t = c1 + 1, *e; *t; t = e) {
			e = strchr(t, ',');
			e = e ? (*e = '\0', e + 1) : t + strlen(t);
			if (!strcmp(t, "memory")) {
				strcpy(mode, "v1");
				return atoi(l);
			}
		}
	}
	if (v2) {
		strcpy(mode, "v2");
		return 0;
	}
	return -1;
}

static void cg_flush(struct cg_dump *d, struct cg_batch *b)
{
	struct strbuf line = STRBUF_INIT;

	if (!b->pids.len)
		return;
	strbuf_addstr(&line, b->head);
	strbuf_add(&line, b->pids.buf, b->pids.len);
	strbuf_addch(&line, '\n');
	if (!d->failed && d->emit(d->ctx, line.buf, line.len))
		d->failed = 1;
	d->res->lines++;
	strbuf_release(&line);
	strbuf_reset(&b->pids);
}

static struct cg_batch *cg_batch(struct cg_dump *d, const char *path)
{
	struct strbuf enc = STRBUF_INIT;
	struct cg_batch *b;

	if (d->last >= 0 && !strcmp(d->b[d->last].path, path))
		return &d->b[d->last];
	for (int i = 0; i < d->n; i++)
		if (!strcmp(d->b[i].path, path))
			return &d->b[d->last = i];
	runctx_encode(path, &enc);
	if (enc.len > CG_LINE_BUDGET - 200) {	/* no room for pids */
		strbuf_release(&enc);
		d->res->long_paths++;
		return NULL;
	}
	if (d->n == d->cap) {
		d->cap = d->cap ? 2 * d->cap : 32;
		d->b = xreallocarray(d->b, (size_t)d->cap, sizeof(*d->b));
	}
	b = &d->b[d->n];
	b->path = xstrdup(path);
	b->head = xasprintf("mms1 cgtasks %llu hier=%d path=%s pids=",
			    (unsigned long long)d->seq, d->res->hier, enc.buf);
	b->pids = (struct strbuf)STRBUF_INIT;
	strbuf_release(&enc);
	d->res->cgroups++;
	d->last = d->n;
	return &d->b[d->n++];
}

static void cg_add_pid(struct cg_dump *d, struct cg_batch *b, long pid)
{
	char num[24];
	int n = snprintf(num, sizeof(num), "%s%ld", b->pids.len ? "," : "", pid);

	if (strlen(b->head) + b->pids.len + (size_t)n > CG_LINE_BUDGET) {
		cg_flush(d, b);
		n = snprintf(num, sizeof(num), "%ld", pid);
	}
	strbuf_add(&b->pids, num, (size_t)n);
	d->res->tasks++;
}

/* One process: its cgroup, then it and its threads. */
static void cg_process(struct cg_dump *d, long pid)
{
	char buf[8192], cg[4096], *p = xasprintf("%s/proc/%ld/cgroup", d->root, pid);
	struct cg_batch *b;
	DIR *dir;
	struct dirent *de;
	int self = 0;

	if (read_small(p, buf, sizeof(buf)) < 0 || cg_line_path(buf, d->res->hier, cg, sizeof(cg))) {
		free(p);
		d->res->gone++;
		return;
	}
	free(p);
	d->res->procs++;
	if (!(b = cg_batch(d, cg)))
		return;
	p = xasprintf("%s/proc/%ld/task", d->root, pid);
	dir = opendir(p);
	free(p);
	while (dir && (de = readdir(dir))) {
		char *end;
		long tid = strtol(de->d_name, &end, 10);

		if (de->d_name[0] < '0' || de->d_name[0] > '9' || *end || tid <= 0)
			continue;
		self |= tid == pid;
		cg_add_pid(d, b, tid);
	}
	if (dir)
		closedir(dir);
	if (!self)	/* no task/ listing (a test's fake root) */
		cg_add_pid(d, b, pid);
}

static uint64_t elapsed_ns(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)((t.tv_sec - t0->tv_sec) * 1000000000ll + (t.tv_nsec - t0->tv_nsec));
}

int cgdump_emit(const char *root, uint64_t seq, sampler_emit_fn emit, void *ctx,
		struct cgdump_result *res)
{
	struct cg_dump d = { .root = root ? root : "", .seq = seq, .emit = emit, .ctx = ctx,
			     .res = res, .last = -1 };
	struct timespec t0, t1;
	char *p;
	DIR *dir;
	struct dirent *de;

	memset(res, 0, sizeof(*res));
	clock_gettime(CLOCK_MONOTONIC, &t0);
	res->hier = cg_find_hier(d.root, res->mode);
	if (res->hier < 0)
		return 0;
	p = xasprintf("%s/proc", d.root);
	dir = opendir(p);
	free(p);
	while (dir && (de = readdir(dir))) {
		char *end;
		long pid = strtol(de->d_name, &end, 10);

		if (de->d_name[0] < '0' || de->d_name[0] > '9' || *end || pid <= 0)
			continue;
		if (res->unread || ((res->procs + res->gone) % 64 == 63 &&
				    elapsed_ns(&t0) > CG_BUDGET_NS)) {
			res->unread++;
			continue;
		}
		cg_process(&d, pid);
	}
	if (dir)
		closedir(dir);
	for (int i = 0; i < d.n; i++) {
		cg_flush(&d, &d.b[i]);
		free(d.b[i].path);
		free(d.b[i].head);
		strbuf_release(&d.b[i].pids);
	}
	free(d.b);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	res->us = (uint64_t)((t1.tv_sec - t0.tv_sec) * 1000000 + (t1.tv_nsec - t0.tv_nsec) / 1000);
	{
		char line[SAMPLER_LINE_MAX];
		int n = snprintf(line, sizeof(line),
				 "mms1 cgtasks %llu done=1 hier=%d mode=%s tasks=%llu procs=%llu "
				 "cgroups=%llu gone=%llu long_paths=%llu unread=%llu us=%llu\n",
				 (unsigned long long)seq, res->hier, res->mode,
				 (unsigned long long)res->tasks, (unsigned long long)res->procs,
				 (unsigned long long)res->cgroups, (unsigned long long)res->gone,
				 (unsigned long long)res->long_paths, (unsigned long long)res->unread,
				 (unsigned long long)res->us);

		if (!d.failed && emit(ctx, line, (size_t)n))
			d.failed = 1;
		res->lines++;
	}
	return d.failed ? -1 : (int)res->lines;
}
