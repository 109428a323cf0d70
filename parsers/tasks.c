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
 */
#include "config.h"
#include "parsers.h"

#include <stdio.h>
#include <string.h>

#define COMM_MAX 16	/* TASK_COMM_LEN */

static const struct field_spec newtask_fields[] = {
	{ NAMES("pid"), "task names at fork" },
	{ NAMES("comm"), "task names at fork" },
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

static void task_emit(struct parse_ctx *pc, int kind, int pid, const char *comm)
{
	if (pid <= 0 || !comm[0])
		return;
	pc->rec->type = REC_TASK_COMM;
	pc->rec->task.kind = kind;
	pc->rec->task.pid = pid;
	pc->rec->task.comm = comm;
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
	task_emit(pc, st->kind, pid, comm);
}

const struct parser task_parsers[] = {
	{ "task", "task_newtask", task_parse, TASK_FORK, newtask_fields, 0, NULL, REC_TASK_COMM },
	{ "task", "task_rename", task_parse, TASK_RENAME, rename_fields, 0, NULL, REC_TASK_COMM },
	{ "sched", "sched_process_exec", task_parse, TASK_EXEC, exec_fields, 0, NULL,
	  REC_TASK_COMM },
	{ NULL, NULL, NULL, 0, NULL, 0, NULL, 0 },
};
