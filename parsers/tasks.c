// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * task: the names tasks take while recording. The kernel's saved_cmdlines
 * (the trace.dat cmdlines section, where rec->comm comes from) holds 128
 * entries by default and overflows on a busy host, so a stalled task that
 * forked and exited mid-run reads "<...>". These three events are rare
 * (one per fork, exec or prctl(PR_SET_NAME)) and name every task born or
 * renamed during the recording; the analysis keeps pid -> comm from them
 * (analysis_comm()).
 *
 *  task:task_newtask        pid (the child), comm (the child's = parent's)
 *  task:task_rename         pid, newcomm. 6.13 dropped pid (e3f6a42272e0)
 *                           and a 2026 fix put it back, as a thread may
 *                           rename a sibling (/proc/PID/task/TID/comm):
 *                           the common pid is then the writer's, so a
 *                           rename without pid is not used (the cmdlines
 *                           name the task)
 *  sched:sched_process_exec pid, filename: exec sets comm to the file's
 *                           basename, cut to 15 characters (TASK_COMM_LEN)
 *
 * And the tasks' cgroups (the analysis' pid -> memory cgroup map,
 * src/cgmap.h): a child starts in its parent's (task_newtask's common
 * pid) unless clone3 put it elsewhere (CLONE_INTO_CGROUP in clone_flags);
 * a move is cgroup:cgroup_attach_task, once per hierarchy on cgroup v1
 * (dst_root tells which; the map keeps the memory controller's):
 *
 *  cgroup:cgroup_attach_task dst_root, dst_id, dst_level, dst_path, pid
 *                           (dst_path relative to the hierarchy's root,
 *                           as in /proc/PID/cgroup; 4.14 and later)
 */
#include "config.h"
#include "parsers.h"

#include <stdio.h>
#include <string.h>

#define COMM_MAX 16	/* TASK_COMM_LEN */

static const struct field_spec newtask_fields[] = {
	{ NAMES("pid"), "task names at fork" },
	{ NAMES("comm"), "task names at fork" },
	{ NAMES("clone_flags"), NULL },
	{ NULL, NULL },
};

static const struct field_spec rename_fields[] = {
	{ NAMES("pid"), NULL },		/* gone in 6.13 to the 2026 fix */
	{ NAMES("newcomm"), "task names after a rename" },
	{ NULL, NULL },
};

static const struct field_spec exec_fields[] = {
	{ NAMES("pid"), NULL },		/* the common pid when missing */
	{ NAMES("filename"), "task names after exec" },
	{ NULL, NULL },
};

static void task_emit(const void *state, struct parse_ctx *pc, int kind, int pid,
		      const char *comm)
{
	if (pid <= 0 || !comm[0])
		return;
	pc->rec->type = REC_TASK_COMM;
	pc->rec->task.kind = kind;
	pc->rec->task.pid = pid;
	pc->rec->task.comm = comm;
	pc->rec->task.clone_flags = -1;
	if (kind == TASK_FORK) {
		const struct pstate *st = state;

		if (st->f[2].off >= 0)
			pc->rec->task.clone_flags = (int64_t)PF_U(st, pc, 2);
	}
	pc->sink(pc->sink_ctx, pc->rec);
}

static void task_parse(void *state, struct parse_ctx *pc)
{
	struct pstate *st = state;
	char buf[256], comm[COMM_MAX];
	const char *s;
	int pid = st->f[0].off >= 0 ? (int)PF_S(st, pc, 0) : pc->rec->pid;

	if (st->kind == TASK_RENAME && st->f[0].off < 0)
		return;		/* maybe another task's rename (above) */

	s = pfield_str(&st->f[1], pc->data, pc->size, buf, sizeof(buf));
	if (st->kind == TASK_EXEC) {
		const char *slash = strrchr(s, '/');

		/* fexecve: "/dev/fd/N"; older kernels name the task "N",
		 * newer ones after the file's dentry, which the event does
		 * not carry: leave that name to the cmdlines */
		if (!strncmp(s, "/dev/fd/", 8))
			return;
		s = slash ? slash + 1 : s;
	}
	snprintf(comm, sizeof(comm), "%s", s);
	task_emit(st, pc, st->kind, pid, comm);
}

static const struct field_spec attach_fields[] = {
	{ NAMES("dst_root"), "tasks' cgroups after a move" },
	{ NAMES("dst_path"), "tasks' cgroups after a move" },
	{ NAMES("pid"), "tasks' cgroups after a move" },
	{ NULL, NULL },
};

#define CG_PATH_MAX 4096	/* PATH_MAX: a longer path is cut, then noted */

static void cgroup_attach_parse(void *state, struct parse_ctx *pc)
{
	struct pstate *st = state;
	char path[CG_PATH_MAX];
	int pid = (int)PF_SD(st, pc, 2, -1);

	if (st->f[0].off < 0 || st->f[1].off < 0 || pid <= 0)
		return;
	pfield_str(&st->f[1], pc->data, pc->size, path, sizeof(path));
	if (!path[0])
		return;
	pc->rec->type = REC_CGROUP_TASK;
	pc->rec->cgtask.kind = CGT_ATTACH;
	pc->rec->cgtask.pid = pid;
	pc->rec->cgtask.hier = (int)PF_S(st, pc, 0);
	pc->rec->cgtask.path = path;
	pc->sink(pc->sink_ctx, pc->rec);
}

const struct parser task_parsers[] = {
	{ "task", "task_newtask", task_parse, TASK_FORK, newtask_fields, 0, NULL, REC_TASK_COMM },
	{ "task", "task_rename", task_parse, TASK_RENAME, rename_fields, 0, NULL, REC_TASK_COMM },
	{ "sched", "sched_process_exec", task_parse, TASK_EXEC, exec_fields, 0, NULL,
	  REC_TASK_COMM },
	{ "cgroup", "cgroup_attach_task", cgroup_attach_parse, 0, attach_fields, 0, NULL,
	  REC_CGROUP_TASK },
	{ NULL, NULL, NULL, 0, NULL, 0, NULL, 0 },
};
