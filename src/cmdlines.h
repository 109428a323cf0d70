/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The recording's cmdlines section (pid -> task name), kept by the
 * recorder. The kernel's saved_cmdlines holds 128 names by default and
 * forgets the rest on a busy host, so a file that took only its last
 * state names the tasks of a long or busy run "<...>" in `trace-cmd
 * report` and in mmscope's reports. cmdlines_update() merges, at each
 * snapshot, saved_cmdlines (wins: the kernel's latest), the name in
 * /proc/PID/task/TID/comm of every task alive now, and what earlier
 * snapshots knew (tasks since exited), bounded to CMDLINES_MAX names.
 * The tasks event group (parsers/tasks.c) names the rest in the analysis.
 */
#ifndef MMSCOPE_CMDLINES_H
#define MMSCOPE_CMDLINES_H

#include <stddef.h>

#include "pidmap.h"
#include "util.h"

#define CMDLINES_COMM	16	/* TASK_COMM_LEN: 15 characters and the NUL */
#define CMDLINES_MAX	65536	/* names beyond saved_cmdlines' own */

struct cmdlines {
	struct pidmap names;	/* pid -> char[CMDLINES_COMM] */
};

void cmdlines_init(struct cmdlines *cl);
void cmdlines_release(struct cmdlines *cl);
/* Merges saved (saved_cmdlines text: "PID COMM" lines, may be NULL), the
 * tasks under proc_root ("/proc"; NULL: none) and the names already held,
 * in that order of precedence, and writes the result as "PID COMM" lines
 * to out. Returns the number of names. */
size_t cmdlines_update(struct cmdlines *cl, const char *saved, size_t len,
		       const char *proc_root, struct strbuf *out);

#endif
