/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Typed records: what parsers make of raw events and counter samples, and
 * the only thing models see. One tagged struct; a record is valid only
 * during the sink call that hands it out (strings point into the event or
 * into the parser's buffers), so a model copies what it keeps.
 *
 * Units: ts in nanoseconds of the trace clock; pages are pages.
 */
#ifndef MMSCOPE_RECORDS_H
#define MMSCOPE_RECORDS_H

#include <stdint.h>

/*
 * Every record type once, as X(ENUM, "name"): the enum and
 * rec_type_name() are both generated from this list, so a new type is
 * one line here and its name cannot drift out of place.
 */
#define REC_TYPES(X) \
	/* vmscan */ \
	X(REC_WAKEUP_KSWAPD, "wakeup_kswapd")	/* an allocator asked kswapd to run */ \
	X(REC_KSWAPD_WAKE, "kswapd_wake")	/* kswapd starts balance_pgdat */ \
	X(REC_KSWAPD_SLEEP, "kswapd_sleep")	/* kswapd goes to sleep (balanced) */ \
	X(REC_BALANCE_END, "balance_end")	/* 7.x: balance_pgdat finished */ \
	X(REC_KSWAPD_FAIL, "kswapd_fail")	/* 7.x: kswapd_reclaim_fail, clear_hopeless */ \
	X(REC_RECLAIM_BEGIN, "reclaim_begin")	/* direct/memcg/softlimit/node reclaim entry */ \
	X(REC_RECLAIM_END, "reclaim_end") \
	X(REC_LRU_ISOLATE, "lru_isolate") \
	X(REC_SHRINK_INACTIVE, "shrink_inactive") \
	X(REC_SHRINK_ACTIVE, "shrink_active") \
	X(REC_WRITE_FOLIO, "write_folio") \
	X(REC_RECLAIM_PAGES, "reclaim_pages")	/* 6.18+: reclaim_folio_list (DAMON, MADV_PAGEOUT) */ \
	X(REC_THROTTLED, "throttled") \
	/* compaction */ \
	X(REC_WAKEUP_KCOMPACTD, "wakeup_kcompactd")	/* wakeup_kcompactd() found kcompactd asleep */ \
	X(REC_KCOMPACTD_WAKE, "kcompactd_wake")	/* kcompactd runs a request */ \
	X(REC_KCOMPACTD_SLEEP, "kcompactd_sleep") \
	X(REC_COMPACT_TRY, "compact_try")	/* direct compaction: try_to_compact_pages */ \
	X(REC_COMPACT_BEGIN, "compact_begin") \
	X(REC_COMPACT_END, "compact_end") \
	X(REC_COMPACT_FINISHED, "compact_finished") \
	X(REC_COMPACT_SUITABLE, "compact_suitable") \
	X(REC_COMPACT_DEFER, "compact_defer")	/* deferred, defer_compaction, defer_reset */ \
	X(REC_COMPACT_ISOLATE, "compact_isolate") \
	X(REC_COMPACT_MIGRATE, "compact_migrate") \
	/* kmem, oom */ \
	X(REC_EXTFRAG, "extfrag") \
	X(REC_OOM, "oom") \
	X(REC_SIGNAL, "signal")			/* signal:signal_generate: a signal sent (kills: sig 9) */ \
	/* counter samples (mmscope-samples(5)) */ \
	X(REC_COUNTER, "counter")		/* one KEY=VALUE of vmstat, mthp, psi, swap, ... */ \
	X(REC_SETTING, "setting")		/* one KEY=string: enabled=Y, compressor=lz4, why_X */ \
	X(REC_ZONE, "zone")			/* a zoneinfo line */ \
	X(REC_BUDDY, "buddy")			/* a buddyinfo line */ \
	X(REC_PAGETYPE, "pagetype")		/* a pagetypeinfo line */ \
	X(REC_SAMPLE_END, "sample_end")		/* set SEQ is complete */ \
	X(REC_PHASE, "phase")			/* "mmscope phase NAME" marker: a workload phase begins */ \
	/* the reader */ \
	X(REC_LOST, "lost")			/* events dropped on a CPU before this point */ \
	/* swap and zswap kprobes (parsers/probe-swap.c, probe-zswap.c) */ \
	X(REC_SWAP_ALLOC, "swap_alloc")		/* a slot range allocated: type, offset, nr */ \
	X(REC_SWAP_FREE, "swap_free")		/* a slot range freed (offset -1: cluster unknown) */ \
	X(REC_SWAP_FOLIO, "swap_folio")		/* folio_alloc_swap: entry (kind 0) or result */ \
	X(REC_SWAP_SCAN, "swap_scan")		/* alloc_swap_scan_cluster entry: cluster tried */ \
	X(REC_SWAP_CLUSTER, "swap_cluster")	/* reloc/isolate/free_cluster: cluster pointer */ \
	X(REC_SWAP_MOVE, "swap_move")		/* move_cluster: old -> new list */ \
	X(REC_SWAP_DISCARD, "swap_discard")	/* discard scheduled (kind 0) or run (kind 1) */ \
	X(REC_SWAP_DEVICE, "swap_device")	/* swapon (ok 1) / swapoff (ok 0) */ \
	X(REC_ZSWAP, "zswap")			/* zswap store/load/writeback result */ \
	/* huge_memory (parsers/khugepaged.c) */ \
	X(REC_THP, "thp")			/* khugepaged scan, collapse and their steps */ \
	/* task (parsers/tasks.c) */ \
	X(REC_TASK_COMM, "task_comm")		/* a task's name from now on: fork, rename, exec */ \
	X(REC_CGROUP_TASK, "cgroup_task")	/* a task's memory cgroup: at the start, attach */ \
	/* ftrace (parsers/stacks.c) */ \
	X(REC_KERNEL_STACK, "kernel_stack")	/* a stacktrace trigger's stack (record -T) */

#define REC_ENUM_(e, name) e,
enum rec_type {
	REC_TYPES(REC_ENUM_)
	REC_NR_TYPES
};
#undef REC_ENUM_

enum reclaim_kind {
	RK_DIRECT, RK_MEMCG, RK_SOFTLIMIT, RK_NODE, RK_KSWAPD, RK_OTHER, RK_NR
};

enum defer_kind { DEFER_DEFERRED, DEFER_COMPACTION, DEFER_RESET };
enum isolate_kind { ISO_MIGRATE, ISO_FREE, ISO_FAST_FREE };

/* Reclaim flags as in include/trace/events/vmscan.h. */
#define RECLAIM_FLAG_ANON	0x01
#define RECLAIM_FLAG_FILE	0x02
#define RECLAIM_FLAG_SYNC	0x04
#define RECLAIM_FLAG_ASYNC	0x08

#define REC_MAX_ORDERS	16

/* REC_SWAP_CLUSTER kinds, REC_SWAP_FOLIO kinds, REC_ZSWAP ops. */
enum swap_cluster_kind { SWCK_RELOC, SWCK_ISOLATE, SWCK_FREECL };
enum swap_folio_kind { SWFK_ENTRY, SWFK_RESULT };
enum swap_discard_kind { SWDK_SCHED, SWDK_RUN };	/* one cluster, the run */
enum oom_kind { OOM_VICTIM, OOM_COMPACT_RETRY, OOM_RECLAIM_RETRY };
/* REC_TASK_COMM kinds: the event that named the task. */
enum task_comm_kind { TASK_FORK, TASK_RENAME, TASK_EXEC };
/* REC_CGROUP_TASK kinds: the recorder's list of the tasks alive at the
 * start ("mms1 cgtasks" lines, one record per pid), its end (the list is
 * complete), and cgroup:cgroup_attach_task. */
enum cgroup_task_kind { CGT_START, CGT_START_DONE, CGT_ATTACH };
enum zswap_op { ZSWAP_OP_STORE, ZSWAP_OP_LOAD, ZSWAP_OP_WB, ZSWAP_OP_NR };

/* REC_THP kinds: which huge_memory event. */
enum thp_kind {
	THP_SCAN_PMD, THP_COLLAPSE, THP_ISOLATE, THP_SWAPIN, THP_SCAN_FILE,
	THP_COLLAPSE_FILE, THP_SCAN_PASS, THP_NR
};

/* Counter sample sources. */
enum sample_source {
	SRC_VMSTAT, SRC_ZONE, SRC_BUDDY, SRC_PAGETYPE, SRC_MTHP, SRC_ZSWAP,
	SRC_PSI, SRC_SWAP, SRC_MEMCG, SRC_END, SRC_MISSING,
	SRC_CTX,	/* the run's context: settings at=start/end (instance) */
	SRC_OUTCOME,	/* the command's argv, exit, rusage */
	SRC_MEMCGS,	/* record --cgroups: every memcg under a root, by path */
	SRC_CGTASKS,	/* the tasks' memory cgroups at the start (REC_CGROUP_TASK) */
	SRC_TASKS,	/* the largest tasks by RSS+swap (oom group) */
	SRC_NR
};

struct record {
	enum rec_type type;
	int cpu;
	int pid;
	uint64_t ts;
	const char *comm;	/* only where a parser sets it, else NULL */
	/* set by the analysis for a task outside --pid/--comm on records whose
	 * shared state the models still need (swap-outs place slots): count
	 * nothing of the task's own */
	int foreign;
	/* set by the analysis on the records of a task's own work (stalls,
	 * LRU work, compaction, OOM: the victim's) when the recording holds
	 * the tasks' cgroups: the task's memory cgroup at that moment, as
	 * an id of analysis_cgmap() plus 1; 0 unknown */
	int cgroup;
	union {
		struct { int nid, zid, order; uint64_t gfp; } wake;	/* wakeup/kswapd_wake/kcompactd */
		struct { int nid; } sleep;
		struct { int nid, order; uint64_t nr_reclaimed; } balance;
		/* value: failures after a failed run; reason of a clear */
		struct { int nid, cleared, value; } kfail;
		struct { enum reclaim_kind kind; int order, nid; uint64_t gfp, memcg; } rbegin;
		struct { enum reclaim_kind kind; uint64_t nr_reclaimed; } rend;
		struct { int order, lru; uint64_t requested, scanned, skipped, taken; } isolate;
		struct {
			int nid, priority, flags;
			uint64_t scanned, reclaimed, dirty, writeback, immediate;
			uint64_t activate_anon, activate_file, ref_keep, unmap_fail;
		} shrink;	/* shrink_inactive and reclaim_pages */
		struct { int nid, priority, flags; uint64_t taken, deactivated; } active;
		struct { uint64_t pfn; int flags; } write;
		struct { int nid, reason; uint64_t timeout_us, delayed_us; } throttled;
		struct { int order, prio; uint64_t gfp; } ctry;
		struct {
			uint64_t zone_start, migrate_pfn, free_pfn, zone_end;
			int sync, status;	/* status only for REC_COMPACT_END */
		} crun;
		struct { int nid, zid, order, ret; } cfin;	/* finished, suitable */
		struct {
			enum defer_kind kind;
			int nid, zid, order, order_failed;
			unsigned considered, defer_shift;
		} defer;
		struct { enum isolate_kind kind; uint64_t scanned, taken; } ciso;
		struct { uint64_t migrated, failed; } cmig;
		struct {
			int alloc_order, fallback_order;
			int alloc_mt, fallback_mt, change_ownership;
		} extfrag;
		/* OOM_VICTIM: the victim from oom:mark_victim's own fields (rec
		 * pid/comm are the task the kill ran in); -1: no such field */
		struct {
			int kind;
			int victim;		/* pid, -1 unknown */
			const char *victim_comm;	/* "" unknown */
			int64_t total_vm_kb, anon_rss_kb, file_rss_kb, shmem_rss_kb;
			int64_t uid, oom_score_adj;	/* adj: INT64_MIN unknown */
		} oom;
		/* REC_SIGNAL: rec pid/comm are the sender (the task the event
		 * fired in: the kernel's OOM killer runs in the allocating
		 * task); the target's pid and comm are the event's own, and
		 * rec.cgroup, set by the analysis, the target's (as for an OOM
		 * victim). -1: no such field on this kernel. */
		struct {
			int sig;
			int code;	/* si_code: 0 SI_USER (kill), 0x80 SI_KERNEL ... */
			int result;	/* 0 delivered, 1 ignored, 2 already pending, 3, 4 */
			int group;	/* sent to the whole thread group */
			int target;	/* pid */
			const char *target_comm;	/* "" unknown */
			int sender_cgroup;	/* as rec.cgroup, of the sender; 0 unknown */
		} sig;
		struct {
			enum sample_source source;
			uint64_t seq;
			const char *instance;	/* mthp size, swap dev, "" */
			const char *key;
			int64_t value;
			int scale;	/* value is value / 10^scale (psi averages) */
			/* value was above INT64_MAX (an unsigned long the
			 * kernel printed, up to 2^64-1): value holds its 64
			 * bits, to be read as uint64_t */
			int wide;
		} counter;
		struct {
			enum sample_source source;
			uint64_t seq;
			const char *instance;	/* as in counter */
			const char *key;
			/* as sampled: underscores for spaces; ctx and outcome
			 * values are decoded (may hold spaces) */
			const char *value;
		} setting;
		struct {
			uint64_t seq;
			int node;
			const char *zone;
			int64_t free, min, low, high, promo, boost, managed, spanned;
			int64_t free_blocks;	/* -1 when the kernel has none */
		} zone;
		struct {
			uint64_t seq;
			int node;
			const char *zone;
			const char *type;	/* pagetype only */
			int norders;
			uint64_t free[REC_MAX_ORDERS];
		} buddy;	/* REC_BUDDY and REC_PAGETYPE */
		struct { uint64_t seq; int64_t us; } send;
		struct { const char *name; } phase;	/* REC_PHASE */
		struct { long long count; } lost;	/* -1: some, count unknown */
		struct {
			int type;	/* swap device (si->type), -1 unknown */
			int kind;	/* enum swap_{cluster,folio,discard}_kind */
			int order;	/* -1 unknown */
			int ok;		/* success / swapon */
			int64_t offset;	/* slot; -1 unknown */
			int64_t slot;	/* slot within its cluster, -1 unknown */
			uint64_t nr;	/* slots */
			uint64_t ci;	/* struct swap_cluster_info *, 0 unknown */
			uint64_t cinfo;	/* si->cluster_info (6.18), 0 unknown */
			int old_flags, new_flags;	/* cluster flags, -1 unknown */
			int count;	/* ci->count, -1 unknown */
			int place;	/* FOLIO: the success is the allocation */
			uint64_t dflags;	/* swapon: si->flags */
			int prio;
			uint64_t pages;	/* swapon: si->pages */
		} swap;
		struct { int op; int ok; long long ret; int order; } zswap;
		struct {
			enum thp_kind kind;
			int order;		/* the event's; -1: a PMD range, whose
						 * order the model knows (the page size's) */
			int order_known;	/* the event has an order field */
			int ok;			/* result "succeeded" (swapin: ret 1) */
			int status;		/* the raw result, -1 none */
			const char *result;	/* its name from the print fmt, or "" */
			int64_t value;		/* swapin: swapped_in; pass: finished */
		} thp;
		struct {
			enum task_comm_kind kind;
			int pid;		/* the task named (the child at fork) */
			const char *comm;	/* its name, at most 15 characters */
			/* TASK_FORK: clone flags, -1 unknown (CLONE_INTO_CGROUP:
			 * the child does not start in its parent's cgroup) */
			int64_t clone_flags;
		} task;
		/* REC_CGROUP_TASK: pid's cgroup is path (relative to its
		 * hierarchy's root, "/" the root) in hierarchy hier (v1: the
		 * first field of /proc/PID/cgroup; v2: 0); START_DONE: pid 1 when
		 * the list left processes out (its time budget, a path too long
		 * for a line), else 0; hier the memory controller's, path "v1"
		 * or "v2" */
		struct {
			enum cgroup_task_kind kind;
			int pid;
			int hier;
			const char *path;
		} cgtask;
		/* REC_KERNEL_STACK: innermost frame first; func[i] from the
		 * recording's kallsyms (NULL: no symbol), off[i] = addr[i]
		 * minus that symbol's address */
		struct {
			int nframes;
			const uint64_t *addr;
			const char *const *func;
			const uint64_t *off;
		} kstack;
	};
};

typedef void (*record_sink_fn)(void *ctx, const struct record *r);

/* The counter sample set (seq) a sample record belongs to; -1 for others. */
int64_t record_sample_seq(const struct record *r);
const char *rec_type_name(enum rec_type t);
const char *reclaim_kind_name(enum reclaim_kind k);
const char *sample_source_name(enum sample_source s);

#endif
