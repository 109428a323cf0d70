/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Tasks to memory cgroups as a recording goes: pure C, no I/O, fed the
 * records in time order. The recorder's list of the tasks alive at the
 * start (REC_CGROUP_TASK CGT_START, "mms1 cgtasks" lines) places them;
 * a fork (REC_TASK_COMM TASK_FORK) puts the child in its parent's
 * cgroup (the common pid of task_newtask), or makes it unknown when its
 * parent's is unknown or clone3 placed it (CLONE_INTO_CGROUP); an attach
 * (CGT_ATTACH) of the memory controller's hierarchy moves it. A fork
 * replaces whatever a reused pid held before, so pid reuse never carries
 * a dead task's cgroup over. Paths are as /proc/PID/cgroup gives them,
 * relative to the hierarchy's root ("/" the root itself).
 *
 * Ids are small integers from 0 in the order cgroups were first named;
 * -1 is "unknown". Nothing is guessed: a task neither listed nor born
 * nor moved while recording stays unknown.
 */
#ifndef MMSCOPE_CGMAP_H
#define MMSCOPE_CGMAP_H

#include <stdint.h>

#include "records.h"

struct cgmap;

struct cgmap *cgmap_new(void);
void cgmap_free(struct cgmap *m);
/* Takes REC_CGROUP_TASK and REC_TASK_COMM (forks); ignores the rest.
 * Returns 1 when the record changed a task's cgroup, else 0. */
int cgmap_add(struct cgmap *m, const struct record *r);
/*
 * The start list is read from /proc after tracing began and written
 * after the read, so the events of its first milliseconds come before
 * it. from: a map fed the recording's start up to the list's end line;
 * every task it placed from the list and no event (fork, attach) had
 * that cgroup from the recording's start: placed in m now, before the
 * stream. Nothing when from's list is not complete.
 */
void cgmap_seed(struct cgmap *m, const struct cgmap *from);
/* The cgroup id of pid now, or -1 unknown. */
int cgmap_of(const struct cgmap *m, int pid);
/* The path of id ("/a/b"), NULL for an id out of range. */
const char *cgmap_path(const struct cgmap *m, int id);
int cgmap_count(const struct cgmap *m);
/* Tasks ever placed in id (listed at the start, born or moved into it):
 * a task moved out and back counts once per entry. */
uint64_t cgmap_tasks(const struct cgmap *m, int id);
/* Whether the recording holds the map: a start list was seen (1), and
 * it was complete, its end line read (2); 0 none. */
int cgmap_recorded(const struct cgmap *m);
/* 1 when the list's end line says it left processes out (the
 * recorder's time budget, a path too long for a line): theirs unknown. */
int cgmap_partial(const struct cgmap *m);
/* "v1" or "v2" from the list's end line, "" unknown; its hierarchy id. */
const char *cgmap_mode(const struct cgmap *m);
int cgmap_hier(const struct cgmap *m);
/* Whether id is scope or a cgroup below it. scope as cgmap_scope_path
 * made it. */
int cgmap_under(const struct cgmap *m, int id, const char *scope);
/* A --cgroup argument as a map path, into buf: the cgroup mount's
 * prefix (/sys/fs/cgroup/memory, /sys/fs/cgroup/unified, /sys/fs/cgroup)
 * taken off, a leading '/' added, trailing ones removed. */
const char *cgmap_scope_path(const char *arg, char *buf, int len);

#endif
