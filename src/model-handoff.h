/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Handoff model: per node, how kswapd and kcompactd take turns.
 *
 * A kswapd episode runs from mm_vmscan_kswapd_wake to the next
 * mm_vmscan_kswapd_sleep (further wakes inside are re-balances). Its
 * handoff is what kcompactd got when kswapd went to sleep:
 *   WAKEUP   kswapd emitted mm_compaction_wakeup_kcompactd (order > 0);
 *   PICKUP   no wakeup event, but kcompactd ran a request of order > 0
 *            (mm_compaction_kcompactd_wake) during the episode or within
 *            the pickup window after it: the request was recorded while
 *            kcompactd was busy (or the node unsuitable) and picked up
 *            at its 500 ms timeout (lab-notes). Never a request that may
 *            predate the episode: only the first episode awake since the
 *            request could have been made takes it (kswapd made it, while
 *            awake), and an episode's window goes on when the next one
 *            sleeps; a later wakeup event still wins. A
 *            kcompactd_sleep followed within HANDOFF_KC_AT_ONCE_NS by
 *            such a wake was no idle wait: the request was pending then;
 *   NONE     kswapd was asked for order > 0 and nothing followed;
 *   NOT_NEEDED  order-0 episode, nothing to hand off;
 *   OPEN     the recording ended first.
 * kcompactd wakes are counted as woken (after a wakeup event), pickups,
 * and of order <= 0 (kc_proactive; none on 6.12+, where the order -1
 * wakeup of a compaction_proactiveness write runs proactive compaction
 * without a wake), which are never handoffs.
 *
 * Proactive compaction (kcompactd's timeout or that write, then
 * compact_node() over the node's zones) emits no kcompactd_wake: it shows
 * as mm_compaction_begin/end by kcompactd outside a kcompactd_wake ..
 * kcompactd_sleep request. A pass runs from its first begin to the next
 * kcompactd_sleep, which kcompactd emits as it loops back to its wait.
 *
 * Watermarks come from zone samples: in each complete sample set, the
 * zone the watermark views show (wmark_zone_closer below: where the
 * pressure was). Each snapshot keeps its zone, its time and the
 * watermarks in force then, since that zone can change mid-run (another
 * zone comes closer to its high watermark) and memory hotplug (or a
 * balloon) changes the watermarks.
 *
 * Pure C, no I/O, O(1) per record (O(nodes) when a pickup window closes).
 */
#ifndef MMSCOPE_MODEL_HANDOFF_H
#define MMSCOPE_MODEL_HANDOFF_H

#include <stdint.h>

#include "records.h"
#include "model.h"

enum handoff_kind {
	HO_OPEN, HO_WAKEUP, HO_PICKUP, HO_NONE, HO_NOT_NEEDED, HO_AWAIT,
};

/* Episode flags. */
#define HF_NO_HANDOFF	0x01	/* slept with an order>0 request, no kcompactd */
#define HF_LONG		0x02	/* awake longer than params.long_awake_ns */
#define HF_STALL	0x04	/* direct reclaim/compaction while kcompactd slept */
#define HF_REWAKE	0x08	/* woken within params.rewake_gap_ns of sleeping */
#define HF_LOST		0x10	/* events were lost during the episode */
#define HF_AT_END	0x20	/* still awake at the end of the recording */

enum wmark_state { WM_UNKNOWN, WM_BELOW_MIN, WM_MIN_LOW, WM_LOW_HIGH, WM_ABOVE_HIGH };

/*
 * The one rule for which zone of a node the watermark views show (this
 * model's snapshots and so the report's handoff section, the TUI lanes
 * and the plot, through model-lanes): the zone whose free pages came
 * closest to its high watermark, i.e. the lowest free/high of its
 * samples so far, which is where allocations and reclaim went on (the
 * largest zone is often an idle DMA32 beside a busy Normal); on a tie
 * the one with more managed pages, then the one seen first. A zone with
 * no managed pages (an empty Movable or an unpopulated zone) is never
 * shown; one whose line lacks managed= (-1) can be.
 */
struct wmark_zone_rank {
	int has_ratio;		/* a sample with a high watermark above 0 */
	double lowest;		/* lowest free/high seen */
	int64_t managed;	/* of the latest sample */
};

/* Whether a zone line can be shown at all (managed pages not 0). */
static inline int wmark_zone_eligible(int64_t managed) { return managed != 0; }
/* Counts one sample of the zone into its rank. */
void wmark_zone_rank_add(struct wmark_zone_rank *z, int64_t free, int64_t high,
			 int64_t managed);
/* a is to be shown rather than b (strictly: a tie keeps b, seen first). */
int wmark_zone_closer(const struct wmark_zone_rank *a, const struct wmark_zone_rank *b);

#define HANDOFF_MAX_ZCHG 4
#define HANDOFF_MAX_ZONES 8	/* per node (MAX_NR_ZONES is at most 6) */

struct wmark_snap {
	enum wmark_state state;
	char zone[16];			/* "" while unknown */
	uint64_t ts;			/* of the zone sample */
	int64_t managed;		/* the zone's managed pages then */
	int64_t free, min, low, high, free_blocks;
	/* the zone's free blocks per order (buddyinfo), norders 0 if none */
	int norders;
	uint64_t buddy[REC_MAX_ORDERS];
};

/* Free blocks of order >= order in a snapshot; -1 without buddyinfo. */
int64_t wmark_blocks_from(const struct wmark_snap *w, int order);

/* A kcompactd_wake without a wakeup event this soon after kcompactd's
 * sleep event ran a request that was pending at the sleep: kcompactd
 * checks for work before it waits (a request arriving during the wait
 * without a wakeup event waits for the 500 ms timeout). */
#define HANDOFF_KC_AT_ONCE_NS 10000000ULL

struct handoff_params {
	uint64_t pickup_window_ns;	/* default 600 ms after kswapd sleeps */
	uint64_t long_awake_ns;		/* default 1 s */
	uint64_t rewake_gap_ns;		/* default 200 ms */
};

struct kswapd_episode {
	uint64_t start, end;		/* end = 0 while open */
	int order, zid;			/* highest requested order, classzone */
	uint32_t wakeups;		/* allocator wakeup_kswapd calls counted in */
	uint32_t rebalances;		/* kswapd_wake inside the episode */
	char waker[16];			/* comm of the first waker, "" if none */
	uint64_t scanned, reclaimed;	/* by this node's kswapd */
	/* 7.x mm_vmscan_balance_pgdat_end: runs, pages reclaimed, and the
	 * lowest order balance_pgdat ended with (-1: no such event) */
	uint32_t balance_runs;
	uint64_t balance_reclaimed;
	int balance_order;
	enum handoff_kind handoff;
	int handoff_order;
	uint64_t handoff_ts;
	uint32_t stalls;		/* direct stalls while kcompactd slept */
	unsigned flags;
	struct wmark_snap wm_start, wm_low, wm_end;	/* wake, lowest, sleep */
};

/* how a request came; KC_ORDER0: a wake of order <= 0, which 6.12+ never
 * emit (proactive compaction emits no wake at all: see kc_pro_passes) */
enum kc_via { KC_WOKEN, KC_PICKUP, KC_ORDER0 };

/* kcompactd running a request: mm_compaction_kcompactd_wake .. next sleep. */
struct kcompactd_episode {
	uint64_t start, end;
	int order;
	enum kc_via via;
	uint32_t runs, success;		/* compaction runs (begin/end) inside */
	int last_status;		/* of the last run, -1 if none */
	int for_kswapd;			/* took a kswapd episode's handoff */
};

struct handoff_node_stats {
	int nid;
	uint64_t episodes, dropped_episodes;	/* beyond the stored cap */
	/* mm_vmscan_kswapd_wake events: episode starts plus the re-balances
	 * inside episodes (kswapd woken again before it slept) */
	uint64_t kswapd_wakes;
	uint64_t wakeup_kswapd, wakeup_kswapd_by_order[REC_MAX_ORDERS];
	uint64_t awake_ns;		/* of the episodes (begun here) */
	/* a part of a run (handoff_model_bounds): episodes begun before it
	 * that kswapd slept from in it (its first kswapd record of the node
	 * a sleep), and their time in it, from the cut (signed, as the
	 * reclaim model's); handoff_awake_ns() adds it */
	uint64_t kswapd_continued;
	int64_t awake_continued_ns;
	uint64_t ho_wakeup, ho_pickup, ho_none, ho_not_needed, ho_open;
	uint64_t kc_wakeups;		/* wakeup_kcompactd events, any caller */
	uint64_t kc_wakeups_kswapd;	/* ... by kswapd */
	uint64_t kc_wakeups_proactive;	/* ... order -1: vm.compaction_proactiveness written */
	uint64_t kc_wakes, kc_woken, kc_pickup, kc_proactive;
	uint64_t kc_sleeps;
	uint64_t kc_busy_ns;		/* kcompactd_wake .. next sleep */
	uint64_t kc_runs, kc_runs_success;	/* compaction runs by kcompactd */
	/* proactive compaction: passes (compact_node, first begin .. next
	 * sleep), the compaction runs (end events) and time in them; runs
	 * begun while it was unknown whether kcompactd was on a request
	 * (after lost events, until its next wake or sleep) are neither */
	uint64_t kc_pro_passes, kc_pro_runs, kc_pro_ns;
	uint64_t kc_runs_unclassified;
	uint64_t stalls_kc_asleep;
	/* 7.x: balance_pgdat runs that reclaimed nothing (kswapd_reclaim_fail),
	 * the highest failure count seen (-1: none), and resets of the count
	 * (kswapd_clear_hopeless) */
	uint64_t kswapd_fails, kswapd_clears;
	int kswapd_failures_max;
	uint64_t flags_count[6];	/* per flag bit */
	int kswapd_pid, kcompactd_pid;
	int has_wmarks;
	int zones;			/* zones ranked (managed pages not 0) */
	struct wmark_snap wm_first, wm_last, wm_lowest;
	/* Memory hotplug: the node's managed pages (all its zones) in the
	 * first and last complete sample set, the sets where the sum moved;
	 * and the changes of the zone shown (the first HANDOFF_MAX_ZCHG
	 * kept): another zone came closer to its high watermark. */
	int64_t managed_first, managed_last;
	uint32_t managed_changes;
	uint32_t zone_changes;
	struct handoff_zone_change {
		uint64_t ts;
		char from[16], to[16];
		int64_t from_managed, to_managed;
	} zchg[HANDOFF_MAX_ZCHG];
};

struct handoff_model;

/* kswapd's time awake inside the recording: its episodes' (one open at a
 * part's cut up to it) and, in a part of a run, that of an episode begun
 * before it. */
static inline int64_t handoff_awake_ns(const struct handoff_node_stats *n)
{
	return (int64_t)n->awake_ns + n->awake_continued_ns;
}

void handoff_params_default(struct handoff_params *p);
struct handoff_model *handoff_model_new(const struct handoff_params *p);
void handoff_model_free(struct handoff_model *m);
void handoff_model_add(struct handoff_model *m, const struct record *r);
/*
 * A part of a run (model.h, bounds): at its end an episode still awake,
 * a kcompactd request or proactive pass running are cut at cut (their
 * time up to it; an episode counted here, where it began); a node's
 * first kswapd record a sleep ends an episode begun before the part,
 * whose time from from is kswapd_continued's. A first wake may be a
 * re-wake of an episode begun before (the part cannot tell): it starts
 * an episode; and kcompactd's time before its first wake or sleep in a
 * part is not counted (a request or a proactive pass: not known).
 */
void handoff_model_bounds(struct handoff_model *m, uint64_t from, uint64_t cut);
void handoff_model_finish(struct handoff_model *m, uint64_t end_ts);

/* Nodes seen, in nid order. */
int handoff_model_nnodes(const struct handoff_model *m);
const struct handoff_node_stats *handoff_model_node(const struct handoff_model *m, int i);
/* Stored episodes of node i (at most HANDOFF_MAX_EPISODES). */
#define HANDOFF_MAX_EPISODES 100000
int handoff_model_nepisodes(const struct handoff_model *m, int i);
const struct kswapd_episode *handoff_model_episode(const struct handoff_model *m,
						   int i, int e);

/* Stored kcompactd episodes of node i (same cap). */
int handoff_model_nkc(const struct handoff_model *m, int i);
const struct kcompactd_episode *handoff_model_kc(const struct handoff_model *m, int i, int e);

const char *handoff_kind_name(enum handoff_kind k);
const char *kc_via_name(enum kc_via v);
const char *wmark_state_name(enum wmark_state s);
/* "no-handoff,long" etc.; "-" for none. buf of 64 bytes. */
const char *handoff_flags_str(unsigned flags, char *buf, int len);
/* One letter per flag, in bit order: N L S R X E ("-" for none). */
const char *handoff_flags_letters(unsigned flags, char *buf, int len);

/* The model as the analysis driver runs it (model.h). */
extern const struct model_ops handoff_model_ops;

#endif
