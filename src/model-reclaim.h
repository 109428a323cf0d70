/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reclaim model: direct, memcg, softlimit, node and kswapd reclaim.
 * Per kind: how often, how long (latency histogram), how much was scanned
 * and reclaimed, per priority and per LRU; per task: stall totals.
 *
 * Pure C, no I/O: feed it records in time order with reclaim_model_add(),
 * call reclaim_model_finish() once, then query. kswapd's work is told
 * apart by its task id, learned from its wake and sleep records and its
 * name on lru_isolate. LRU work of a task not seen to begin or end a
 * stall yet is held back until it does: an end (a stall begun before
 * the recording, or before a part of a run) charges it to that stall's
 * kind, a begin or the end of the recording to kswapd or "other"; so a
 * part of a run and the whole run charge every page alike.
 */
#ifndef MMSCOPE_MODEL_RECLAIM_H
#define MMSCOPE_MODEL_RECLAIM_H

#include <stdint.h>

#include "records.h"
#include "hist.h"
#include "model.h"

#define RECLAIM_NPRIO 13	/* DEF_PRIORITY 12 .. 0 */
#define RECLAIM_NLRU 5		/* inactive/active anon/file, unevictable */

struct reclaim_kind_stats {
	uint64_t begins, ends;
	uint64_t open_at_end;		/* begun, never ended */
	uint64_t unpaired_ends;		/* ended without a begin seen */
	uint64_t nr_reclaimed;		/* sum of the end records */
	struct hist lat;		/* ns, for paired begin/end */
	uint64_t scanned, reclaimed;	/* from shrink_inactive */
	uint64_t prio_scanned[RECLAIM_NPRIO], prio_reclaimed[RECLAIM_NPRIO];
	uint64_t anon_scanned, anon_reclaimed, file_scanned, file_reclaimed;
	uint64_t lru_scanned[RECLAIM_NLRU], lru_taken[RECLAIM_NLRU];
	uint64_t write_anon, write_file;	/* write_folio / writepage */
	uint64_t active_taken, active_deactivated;
	uint64_t orders[REC_MAX_ORDERS];	/* begins per order */
	/* Reclaim passes (one task's begin .. end; the kernel walks the
	 * priorities from DEF_PRIORITY 12 down to 0 in each) by the first
	 * priority whose LRU events scanned a page: pass_first[p]; none
	 * (nothing scanned at any priority seen); unknown (a scan the events
	 * give no priority for came first: lru_isolate took nothing, so no
	 * shrink event followed). Counted at the end record; the passes of
	 * softlimit reclaim nest in others and are not counted. */
	uint64_t pass_first[RECLAIM_NPRIO];
	uint64_t pass_none, pass_unknown;
	uint64_t esc_first_ts, esc_last_ts;	/* ends of escalated passes; 0 none */
	/* A part of a run (reclaim_model_bounds): stalls begun here and
	 * still open where a switch cut the run after it (cut), and stalls
	 * begun before it that ended here (continued), with their time
	 * inside the part: cut .. its end, its start .. end (signed: a stall
	 * that ended in the microseconds the two files overlap gives a
	 * little below 0; the two halves always sum to the stall). Neither
	 * is in lat, which holds complete stalls only. */
	uint64_t cut, continued;
	int64_t cut_ns, continued_ns;
	/* the complete stalls (lat): the first begin and the last end, ns
	 * (0 0: none) */
	uint64_t first_begin, last_end;
};

/* Stalls counted in the recording: complete ones (lat) and those cut at
 * its end (a stall counts where it began). */
static inline uint64_t reclaim_stalls(const struct reclaim_kind_stats *ks)
{
	return ks->lat.count + ks->cut;
}

/* Time in stalls inside the recording (ns): complete stalls, and the
 * parts inside it of stalls cut at its end or continued from before. */
static inline int64_t reclaim_stall_ns(const struct reclaim_kind_stats *ks)
{
	return (int64_t)ks->lat.sum + ks->cut_ns + ks->continued_ns;
}

#define RECLAIM_DEF_PRIORITY 12

/* Passes whose first priorities (DEF_PRIORITY and on) scanned nothing
 * before a later priority scanned: the scan target rounded down to 0
 * (lruvec size >> priority) and reclaim escalated. */
uint64_t reclaim_passes_escalated(const struct reclaim_kind_stats *ks);
/* All passes counted (each of the classes above). */
uint64_t reclaim_passes(const struct reclaim_kind_stats *ks);

struct reclaim_task {
	int pid;
	char comm[16];
	enum reclaim_kind kind;		/* of its longest stall */
	uint64_t count;			/* begun in the recording (cut ones too) */
	int64_t total_ns;		/* inside the recording (reclaim_stall_ns) */
	uint64_t max_ns;		/* complete stalls */
	uint64_t reclaimed;
	int cgroup;			/* record.cgroup at its longest stall's begin */
};

/* One paired stall (begin .. end of one task), as counted in lat. */
struct reclaim_stall {
	uint64_t begin, dur;		/* ns: trace clock, length */
	uint64_t reclaimed;		/* nr_reclaimed of the end record */
	int pid;
	enum reclaim_kind kind;
	int order;			/* of the begin record; -1 unknown */
	int cgroup;			/* record.cgroup of its begin (0 unknown) */
	char comm[16];			/* the task's name, "" unknown */
};

#define RECLAIM_MAX_STALLS 1000000

struct reclaim_model;

struct reclaim_model *reclaim_model_new(void);
void reclaim_model_free(struct reclaim_model *m);
void reclaim_model_add(struct reclaim_model *m, const struct record *r);
/*
 * The recording is a part of a run (model.h, bounds): from, the trace
 * time the run was cut at before it (0: the run starts in it), cut the
 * one after it (0: the run ends in it). A stall open at the end is then
 * cut there, one whose end comes first in it (no begin, nothing else of
 * its task before it) continued from before. Before the first record.
 */
void reclaim_model_bounds(struct reclaim_model *m, uint64_t from, uint64_t cut);
/* Whether to keep each stall for reclaim_model_stall() (the viewers':
 * TUI, plot, Perfetto, export); kept unless told, before the first
 * record. Everything else covers every stall either way. The driver's
 * analysis of summaries (model_env.summary) keeps none. */
void reclaim_model_keep_stalls(struct reclaim_model *m, int keep);
void reclaim_model_finish(struct reclaim_model *m, uint64_t end_ts);

const struct reclaim_kind_stats *reclaim_model_kind(const struct reclaim_model *m,
						    enum reclaim_kind k);
/* Up to max tasks by stall time, longest first (ties: by pid). Returns n. */
int reclaim_model_top_tasks(const struct reclaim_model *m, struct reclaim_task *out, int max);
/* reclaim_pages (DAMON, MADV_PAGEOUT): calls, pages scanned and reclaimed. */
void reclaim_model_pages(const struct reclaim_model *m, uint64_t *calls,
			 uint64_t *scanned, uint64_t *reclaimed);
/* Throttling: events and total microseconds delayed. */
void reclaim_model_throttled(const struct reclaim_model *m, uint64_t *count,
			     uint64_t *delayed_us);
/* The stalls of every kind's lat histogram, in the order they ended (at
 * most RECLAIM_MAX_STALLS; *dropped, if not NULL, gets those beyond);
 * none when the model keeps no list (reclaim_model_keep_stalls). */
int reclaim_model_nstalls(const struct reclaim_model *m, uint64_t *dropped);
const struct reclaim_stall *reclaim_model_stall(const struct reclaim_model *m, int i);

/* The model as the analysis driver runs it (model.h). */
extern const struct model_ops reclaim_model_ops;

#endif
