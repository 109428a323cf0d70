// SPDX-License-Identifier: GPL-2.0-or-later
/* Tasks to memory cgroups (see cgmap.h). */
#include "config.h"
#include "cgmap.h"
#include "fnv.h"
#include "pidmap.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* CLONE_INTO_CGROUP (linux/sched.h, 5.7): clone3 put the child into
 * the cgroup its args name, not its parent's. */
#define CG_CLONE_INTO_CGROUP 0x200000000ULL

struct cgmap {
	struct pidmap pids;	/* pid -> int: cgroup id, -1 unknown */
	/* pid -> char: placed by a fork or an attach. A start list (read
	 * from /proc after tracing began, written after the read) never
	 * overrides those: the event is as new as the list or newer. */
	struct pidmap evented;
	char **paths;
	uint64_t *ntasks;
	int n, cap;
	int *slots;		/* path hash -> id, -1 empty; nslots a power of 2 */
	unsigned nslots;
	int recorded;		/* 1 list seen, 2 its end too */
	int partial;		/* the end line says processes were left out */
	int hier;		/* the memory controller's hierarchy, -1 unknown */
	char mode[4];
};

struct cgmap *cgmap_new(void)
{
	struct cgmap *m = xcalloc(1, sizeof(*m));

	pidmap_init(&m->pids, sizeof(int));
	pidmap_init(&m->evented, 1);
	m->hier = -1;
	return m;
}

void cgmap_free(struct cgmap *m)
{
	if (!m)
		return;
	for (int i = 0; i < m->n; i++)
		free(m->paths[i]);
	free(m->paths);
	free(m->ntasks);
	free(m->slots);
	pidmap_release(&m->pids);
	pidmap_release(&m->evented);
	free(m);
}

static unsigned cg_hash(const char *s)
{
	return fnv32_str(FNV32_BASIS, s);
}

static void cg_rehash(struct cgmap *m)
{
	m->nslots = m->nslots ? m->nslots * 2 : 64;
	free(m->slots);
	m->slots = xmalloc(m->nslots * sizeof(*m->slots));
	memset(m->slots, 0xff, m->nslots * sizeof(*m->slots));
	for (int i = 0; i < m->n; i++) {
		unsigned h = cg_hash(m->paths[i]) & (m->nslots - 1);

		while (m->slots[h] >= 0)
			h = (h + 1) & (m->nslots - 1);
		m->slots[h] = i;
	}
}

/* The id of path, made on its first use. */
static int cg_intern(struct cgmap *m, const char *path)
{
	unsigned h;

	if (m->nslots) {
		for (h = cg_hash(path) & (m->nslots - 1); m->slots[h] >= 0;
		     h = (h + 1) & (m->nslots - 1))
			if (!strcmp(m->paths[m->slots[h]], path))
				return m->slots[h];
	}
	if (m->n == m->cap) {
		m->cap = m->cap ? 2 * m->cap : 16;
		m->paths = xreallocarray(m->paths, (size_t)m->cap, sizeof(*m->paths));
		m->ntasks = xreallocarray(m->ntasks, (size_t)m->cap, sizeof(*m->ntasks));
	}
	m->paths[m->n] = xstrdup(path);
	m->ntasks[m->n] = 0;
	m->n++;
	if ((unsigned)m->n * 2 > m->nslots)
		cg_rehash(m);	/* places the new one too */
	else {
		for (h = cg_hash(path) & (m->nslots - 1); m->slots[h] >= 0;
		     h = (h + 1) & (m->nslots - 1))
			;
		m->slots[h] = m->n - 1;
	}
	return m->n - 1;
}

/* pid is in id (-1 unknown) from now on; 1 when that is a change. */
static int cg_place(struct cgmap *m, int pid, int id)
{
	int *v = pidmap_get(&m->pids, pid);

	if (v && *v == id)
		return 0;
	if (!v) {
		if (id < 0)
			return 0;
		v = pidmap_add(&m->pids, pid);
	}
	*v = id;
	if (id >= 0)
		m->ntasks[id]++;
	return 1;
}

int cgmap_add(struct cgmap *m, const struct record *r)
{
	if (r->type == REC_TASK_COMM && r->task.kind == TASK_FORK && r->task.pid > 0) {
		/* the child of common_pid; a reused pid forgets its last task */
		int parent = r->pid > 0 ? cgmap_of(m, r->pid) : -1;

		if (r->task.clone_flags >= 0 &&
		    ((uint64_t)r->task.clone_flags & CG_CLONE_INTO_CGROUP))
			parent = -1;
		*(char *)pidmap_add(&m->evented, r->task.pid) = 1;
		return cg_place(m, r->task.pid, parent);
	}
	if (r->type != REC_CGROUP_TASK || !r->cgtask.path)
		return 0;
	switch (r->cgtask.kind) {
	case CGT_START:
		if (!m->recorded)
			m->recorded = 1;
		m->hier = r->cgtask.hier;
		if (r->cgtask.pid <= 0 || !r->cgtask.path[0] || pidmap_get(&m->evented, r->cgtask.pid))
			return 0;
		return cg_place(m, r->cgtask.pid, cg_intern(m, r->cgtask.path));
	case CGT_START_DONE:
		m->recorded = 2;
		m->partial |= r->cgtask.pid != 0;
		m->hier = r->cgtask.hier;
		snprintf(m->mode, sizeof(m->mode), "%.3s", r->cgtask.path);
		return 0;
	case CGT_ATTACH:
		/* another controller's hierarchy (v1), or before the list
		 * said which is the memory one: /proc, read after tracing
		 * began, holds such an early move */
		if (m->hier < 0 || r->cgtask.hier != m->hier || r->cgtask.pid <= 0 ||
		    !r->cgtask.path[0])
			return 0;
		*(char *)pidmap_add(&m->evented, r->cgtask.pid) = 1;
		return cg_place(m, r->cgtask.pid, cg_intern(m, r->cgtask.path));
	}
	return 0;
}

void cgmap_seed(struct cgmap *m, const struct cgmap *from)
{
	if (from->recorded < 2)
		return;
	for (unsigned i = 0; i < from->pids.cap; i++) {
		int pid = from->pids.keys[i], id = *(int *)PIDMAP_VAL(&from->pids, i);

		if (pid < 0 || id < 0 || pidmap_get(&from->evented, pid))
			continue;
		cg_place(m, pid, cg_intern(m, from->paths[id]));
	}
	m->hier = from->hier;
	if (!m->recorded)
		m->recorded = 1;
}

int cgmap_of(const struct cgmap *m, int pid)
{
	const int *v = m ? pidmap_get(&m->pids, pid) : NULL;

	return v ? *v : -1;
}

const char *cgmap_path(const struct cgmap *m, int id)
{
	return m && id >= 0 && id < m->n ? m->paths[id] : NULL;
}

int cgmap_count(const struct cgmap *m)
{
	return m ? m->n : 0;
}

uint64_t cgmap_tasks(const struct cgmap *m, int id)
{
	return m && id >= 0 && id < m->n ? m->ntasks[id] : 0;
}

int cgmap_recorded(const struct cgmap *m)
{
	return m ? m->recorded : 0;
}

int cgmap_partial(const struct cgmap *m)
{
	return m ? m->partial : 0;
}

const char *cgmap_mode(const struct cgmap *m)
{
	return m ? m->mode : "";
}

int cgmap_hier(const struct cgmap *m)
{
	return m ? m->hier : -1;
}

int cgmap_under(const struct cgmap *m, int id, const char *scope)
{
	const char *p = cgmap_path(m, id);
	size_t n = strlen(scope);

	if (!p)
		return 0;
	if (!strcmp(scope, "/"))
		return 1;
	return !strncmp(p, scope, n) && (p[n] == '\0' || p[n] == '/');
}

const char *cgmap_scope_path(const char *arg, char *buf, int len)
{
	static const char *const mounts[] = {
		"/sys/fs/cgroup/memory", "/sys/fs/cgroup/unified", "/sys/fs/cgroup",
	};
	int n;

	for (size_t i = 0; i < sizeof(mounts) / sizeof(mounts[0]); i++) {
		size_t k = strlen(mounts[i]);

		if (!strncmp(arg, mounts[i], k) && (arg[k] == '/' || !arg[k])) {
			arg += k;
			break;
		}
	}
	while (*arg == '/')
		arg++;
	snprintf(buf, (size_t)len, "/%s", arg);
	n = (int)strlen(buf);
	while (n > 1 && buf[n - 1] == '/')
		buf[--n] = '\0';
	return buf;
}
