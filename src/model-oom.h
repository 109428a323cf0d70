/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * OOM model: every OOM kill (oom:mark_victim) with its victim, the task
 * the kill ran in, and the allocator's retries (reclaim_retry_zone,
 * compact_retry) counted. Pure C, no I/O.
 *
 * No oom event carries the memcg or the constraint. Both are inferred,
 * and said to be, from the kind of the last reclaim the killing task
 * began before the kill: a memcg OOM follows the charge path's memcg
 * reclaim (try_charge_memcg -> mem_cgroup_oom), a page allocator OOM the
 * slow path's direct reclaim (__alloc_pages_may_oom); the memcg is the
 * id mm_vmscan_memcg_reclaim_begin gives on 7.x. Without reclaim events
 * from that task (a sysrq kill, no reclaim group) both are unknown.
 */
#ifndef MMSCOPE_MODEL_OOM_H
#define MMSCOPE_MODEL_OOM_H

#include <stdint.h>

#include "model.h"
#include "records.h"

enum oom_constraint { OOMC_UNKNOWN, OOMC_MEMCG, OOMC_GLOBAL };

struct oom_kill {
	uint64_t ts;
	int pid;			/* the victim; -1 unknown */
	char comm[32];			/* the victim's; "" unknown */
	int by_pid;			/* the task the kill ran in */
	char by_comm[32];		/* its name, "" unknown */
	int64_t total_vm_kb, anon_rss_kb, file_rss_kb, shmem_rss_kb;	/* -1 unknown */
	int64_t uid;			/* -1 unknown */
	int64_t oom_score_adj;		/* INT64_MIN unknown */
	enum oom_constraint constraint;	/* inferred (see above) */
	uint64_t memcg_id;		/* memcg_known: from the memcg reclaim */
	int memcg_known;
	int cgroup;			/* the victim's memory cgroup (record.cgroup) */
};

struct oom_model;

extern const struct model_ops oom_model_ops;

struct oom_model *oom_model_new(void);
void oom_model_free(struct oom_model *m);
void oom_model_add(struct oom_model *m, const struct record *r);

/* Whether any oom event was fed. */
int oom_model_seen(const struct oom_model *m);
/* The kills, in time order. */
int oom_model_nkills(const struct oom_model *m);
const struct oom_kill *oom_model_kill(const struct oom_model *m, int i);
/* reclaim_retry_zone and compact_retry events. */
uint64_t oom_model_reclaim_retries(const struct oom_model *m);
uint64_t oom_model_compact_retries(const struct oom_model *m);
/* "memcg", "global" or NULL (unknown). */
const char *oom_constraint_name(enum oom_constraint c);

#endif
