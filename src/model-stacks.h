/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Kernel stacks of stalls (mmscope record -T): each REC_KERNEL_STACK is
 * given to the stall whose begin it follows, the stacktrace trigger's
 * stack being written right after the triggering event on the same CPU
 * by the same task:
 *
 *  - direct and memcg reclaim: the stack after mm_vmscan_*_reclaim_begin
 *    belongs to that stall (begin .. end of the task, paired as the
 *    reclaim model pairs them);
 *  - direct compaction: the stack after try_to_compact_pages belongs to
 *    the direct compaction runs (compact_begin .. end) the task makes
 *    within 1 s of it, as the compaction model counts direct runs
 *    (khugepaged's are not direct).
 *
 * A stack counts for a stall only when it is the very next record on
 * that CPU after the begin and has the same task; any other is counted
 * as not following a stall. Distinct stacks are told apart by their
 * addresses; per kind, each has the count, total and maximum of its
 * stalls' lengths. Pure C, no I/O: names come in the records (the
 * parser resolves them from the recording's kallsyms).
 */
#ifndef MMSCOPE_MODEL_STACKS_H
#define MMSCOPE_MODEL_STACKS_H

#include <stdint.h>

#include "model.h"
#include "records.h"

enum stack_kind { SK_DIRECT_RECLAIM, SK_MEMCG_RECLAIM, SK_DIRECT_COMPACT, SK_NR };

struct stack_agg {
	uint64_t count;			/* stalls with this stack */
	uint64_t total_ns, max_ns;
};

struct kstack {
	int nframes;
	uint64_t *addr;
	char **func;			/* NULL: no symbol for the address */
	uint64_t *off;			/* into func */
	struct stack_agg agg[SK_NR];
};

struct stack_kind_stats {
	uint64_t stalls;		/* paired stalls (runs for compaction) */
	uint64_t with_stack;		/* of those, with a stack attached */
	uint64_t total_ns, max_ns;	/* of all the kind's stalls */
};

#define STACKS_MAX_DISTINCT 100000

struct stacks_model;

extern const struct model_ops stacks_model_ops;

/* Kernel stack records seen; those that followed no stall begin; those
 * dropped beyond STACKS_MAX_DISTINCT distinct stacks. */
uint64_t stacks_model_seen(const struct stacks_model *m);
uint64_t stacks_model_unattached(const struct stacks_model *m);
uint64_t stacks_model_dropped(const struct stacks_model *m);
const struct stack_kind_stats *stacks_model_kind(const struct stacks_model *m,
						 enum stack_kind k);
/* Up to max distinct stacks of kind k with stalls, the one with the
 * longest stall first (ties: larger total, then fewer frames, then
 * addresses). Returns n. */
int stacks_model_top(const struct stacks_model *m, enum stack_kind k,
		     const struct kstack **out, int max);
/* The distinct stacks with a stall of kind k. */
int stacks_model_ndistinct(const struct stacks_model *m, enum stack_kind k);
/* Each stall with a stack (in the order they ended; at most
 * STACKS_MAX_STALLS, *dropped gets those beyond): the task, when the
 * stall (reclaim begin, or compaction run begin) began, and the stack's
 * id for stacks_model_stack(). Front ends that draw single stalls find
 * theirs by (kind, pid, begin). */
#define STACKS_MAX_STALLS 1000000
struct stall_stack {
	uint64_t begin;
	int pid;
	enum stack_kind kind;
	int stack;
};
int stacks_model_nstall_stacks(const struct stacks_model *m, uint64_t *dropped);
const struct stall_stack *stacks_model_stall_stack(const struct stacks_model *m, int i);
const struct kstack *stacks_model_stack(const struct stacks_model *m, int id);
/* The first frame that is not the tracepoint's own machinery
 * (trace_event_raw_event_*, perf_trace_*, __traceiter_*, __bpf_trace_*):
 * where the stall's own call chain begins. */
int kstack_first_frame(const struct kstack *s);
const char *stack_kind_name(enum stack_kind k);	/* "direct reclaim" */
const char *stack_kind_key(enum stack_kind k);	/* "direct_reclaim" */
/* The event where a stall of each kind begins, "system:event", by kind,
 * NULL-ended: the stack the model gives a stall follows it, so these
 * are what `record -T` puts the stacktrace trigger on (the list lives
 * here only) and what the stacks report needs recorded. */
extern const char *const stacks_stall_events[SK_NR + 1];

#endif
