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
 *
 * Every kill (the oom group's signal:signal_generate, SIGKILL only): a
 * SIGKILL delivered to another task is a kill, named by its sender:
 * the kernel's OOM killer (its SIGKILL is sent by the task that ran it,
 * just before mark_victim: one kill, matched by sender, victim and
 * KILL_MATCH_NS), systemd-oomd and earlyoom by their task names, any
 * other sender "other:COMM". Not kills, only counted: a SIGKILL the
 * kernel did not deliver (result 1 ignored: an unkillable task; 2
 * already pending: the task was being killed already, by an earlier
 * kill), one a task sends itself, and the OOM killer's SIGKILLs to the
 * other processes sharing the victim's memory (also_killed). Each kill
 * carries the window before it (kill-window.h), taken as it came, and
 * its victim's cgroup's samples (kill-cgroup.h); a signal kill whose
 * victim's cgroup's user.oomd_kill xattr rose across it is
 * systemd-oomd's.
 */
#ifndef MMSCOPE_MODEL_OOM_H
#define MMSCOPE_MODEL_OOM_H

#include <stdint.h>

#include "kill-cgroup.h"
#include "kill-window.h"
#include "model.h"
#include "records.h"

#define KILL_WINDOW_DEFAULT_NS	10000000000ULL	/* 10 s */
/* the OOM killer's SIGKILL and its mark_victim: microseconds apart, in
 * one task; a second is far more than the kernel takes */
#define KILL_MATCH_NS		1000000000ULL
#define SI_KERNEL_CODE		0x80	/* si_code of a signal the kernel sends */
/* __oom_kill_process SIGKILLs the other processes sharing the victim's
 * memory right after mark_victim; one such SIGKILL that a mark_victim
 * then follows was the next OOM kill's own */
#define KILL_SHARER_NS		100000000ULL

enum kill_killer {
	KILLER_KERNEL_OOM,	/* the OOM killer, constraint not memcg */
	KILLER_MEMCG_OOM,	/* the OOM killer, memcg constraint */
	KILLER_SYSTEMD_OOMD,
	KILLER_EARLYOOM,
	KILLER_OTHER,		/* other:COMM of the sender */
};

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
	/* every kill: the killer; by_pid/by_comm are the sender of a
	 * signal kill */
	enum kill_killer killer;
	int oom;			/* the kernel's OOM killer (mark_victim) */
	int signalled;			/* its SIGKILL was seen (signal_generate) */
	int code;			/* that SIGKILL's si_code, -1 none */
	int sender_cgroup;		/* by_pid's memory cgroup, 0 unknown */
	uint32_t also_killed;		/* OOM: processes sharing its memory */
	struct kill_before before;	/* the window before it */
	struct kill_cgroup_at cg;	/* the victim's cgroup's samples */
	/* cg is the memcg whose OOM kill count rose across this OOM kill
	 * (its victim's cgroup unknown: kill-cgroup.h) */
	int cg_by_count;
	/* systemd-oomd named by its xattr on the victim's cgroup (killer
	 * KILLER_SYSTEMD_OOMD even when by_comm is not its name) */
	int oomd_xattr;
	struct kill_oomd oomd;
};

/* SIGKILLs seen (signal_generate sig 9) and what became of them. */
struct oom_sigkills {
	uint64_t seen;
	uint64_t kills;			/* delivered to another task: kills */
	uint64_t oom;			/* ... of them the OOM killer's own */
	uint64_t self;			/* a task to itself */
	uint64_t ignored, pending, other_result;	/* result 1, 2, else */
	uint64_t also_killed;		/* the OOM killer's, sharing the victim's mm */
};

struct oom_model;

extern const struct model_ops oom_model_ops;

struct oom_model *oom_model_new(void);
void oom_model_free(struct oom_model *m);
void oom_model_add(struct oom_model *m, const struct record *r);

struct oom_model *oom_model_new_window(uint64_t window_ns);	/* 0: the default */
/* A model that knows the victims' cgroup paths (model_env.cgroup_path):
 * the kills get their cgroup's samples (kill_cgroup_at). */
void oom_model_set_cgroup_path(struct oom_model *m, const char *(*fn)(void *ctx, int tag),
			       void *ctx);
/* Whether any oom event was fed; any signal_generate. */
int oom_model_seen(const struct oom_model *m);
int oom_model_signals_seen(const struct oom_model *m);
/* The kernel's OOM kills, in time order. */
int oom_model_nkills(const struct oom_model *m);
const struct oom_kill *oom_model_kill(const struct oom_model *m, int i);
/* Every kill, whoever the killer, in time order. */
int oom_model_nall(const struct oom_model *m);
const struct oom_kill *oom_model_any(const struct oom_model *m, int i);
void oom_model_sigkills(const struct oom_model *m, struct oom_sigkills *out);
uint64_t oom_model_window_ns(const struct oom_model *m);
/* "kernel-oom", "memcg-oom", "systemd-oomd", "earlyoom", "other:COMM"
 * ("other:?" when the sender's name is unknown), into buf. */
const char *oom_kill_killer(const struct oom_kill *k, char *buf, int len);
/* reclaim_retry_zone and compact_retry events. */
uint64_t oom_model_reclaim_retries(const struct oom_model *m);
uint64_t oom_model_compact_retries(const struct oom_model *m);
/* "memcg", "global" or NULL (unknown). */
const char *oom_constraint_name(enum oom_constraint c);

#endif
