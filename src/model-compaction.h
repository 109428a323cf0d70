/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Compaction model: compaction runs (begin..end) by who ran them, with
 * duration and result; direct compaction attempts per order; deferrals;
 * the migrate and free scanners' work and migrations, charged to the
 * runner; suitability results per order; extfrag fallbacks by
 * migratetype. Pure C, no I/O; O(1) per record.
 */
#ifndef MMSCOPE_MODEL_COMPACTION_H
#define MMSCOPE_MODEL_COMPACTION_H

#include <stddef.h>
#include <stdint.h>

#include "records.h"
#include "hist.h"
#include "model.h"

enum compact_runner {
	CR_KCOMPACTD,	/* kcompactd on a request (kcompactd_wake .. sleep) */
	CR_PROACTIVE,	/* kcompactd on its own (after its sleep, no wake) */
	CR_DIRECT,	/* an allocating task (try_to_compact_pages) */
	CR_KHUGEPAGED,
	CR_MANUAL,	/* anything else: compact_memory, sysfs per node */
	CR_KC_UNCLASSIFIED, /* kcompactd, no wake or sleep seen before */
	CR_NR
};

#define COMPACT_NSTATUS 9	/* enum compact_result 0..8 */
#define COMPACT_NMT 6		/* migratetypes shown */

struct compact_runner_stats {
	uint64_t runs, open_at_end;		/* ended runs; runs open at the end */
	struct hist dur;			/* ns, of the ended runs */
	/* a part of a run (compaction_model_bounds): runs open where a switch
	 * cut the run after it (cut), and runs begun before it that ended in
	 * it (continued: runner as the part can tell, model-compaction.c),
	 * with their time inside the part (signed, as the reclaim model's) */
	uint64_t cut, continued;
	int64_t cut_ns, continued_ns;
	uint64_t status[COMPACT_NSTATUS];
	uint64_t migrate_scanned, migrate_taken;
	uint64_t free_scanned, free_taken;
	uint64_t migrated, failed;
	uint64_t finished;			/* finished checks */
};

struct compact_zone_stats {
	uint64_t zone_start, zone_end;
	uint64_t runs;
	uint64_t status[COMPACT_NSTATUS];
};

#define COMPACT_MAX_ZONES 8

/* Runs by the order they were for: direct (try_to_compact_pages) and
 * kcompactd requests (kcompactd_wake) know it; others count as order -1. */
struct compact_order_stats {
	uint64_t runs, success, total_ns, max_ns;
};

struct compact_stats {
	struct compact_runner_stats runner[CR_NR];
	struct compact_order_stats by_order[REC_MAX_ORDERS];	/* [0] unused */
	struct compact_order_stats no_order;
	uint64_t direct_tries, direct_by_order[REC_MAX_ORDERS];
	uint64_t suitable[REC_MAX_ORDERS][COMPACT_NSTATUS];
	uint64_t deferred, defer_compaction, defer_reset;
	uint64_t extfrag, extfrag_severe, extfrag_ownership;
	uint64_t extfrag_mt[COMPACT_NMT][COMPACT_NMT];	/* [alloc][fallback] */
	int nzones;
	struct compact_zone_stats zones[COMPACT_MAX_ZONES];
	uint64_t unattributed_scans;	/* scanner events outside a run */
};

/* One compaction run (begin .. end on one task), as counted in dur. */
struct compact_run {
	uint64_t begin, dur;		/* ns: trace clock, length */
	uint64_t zone_start;		/* pfn, the zone's start */
	int pid;
	enum compact_runner runner;
	int order;			/* the request's order; -1 unknown */
	int status;			/* enum compact_result of the end */
	char comm[16];			/* the task's name, "" unknown */
};

#define COMPACT_MAX_RUNS 1000000

struct compaction_model;

/* Runs counted in the recording (ended and cut: a run counts where it
 * began), and their time inside it (ns). */
static inline uint64_t compact_runs_counted(const struct compact_runner_stats *r)
{
	return r->dur.count + r->cut;
}

static inline int64_t compact_run_ns(const struct compact_runner_stats *r)
{
	return (int64_t)r->dur.sum + r->cut_ns + r->continued_ns;
}

struct compaction_model *compaction_model_new(void);
void compaction_model_free(struct compaction_model *m);
void compaction_model_add(struct compaction_model *m, const struct record *r);
/* A part of a run (model.h, bounds): runs open at the end are cut at cut,
 * a task's first end without its begin is a run continued from the part
 * before (its time from from). Before the first record. */
void compaction_model_bounds(struct compaction_model *m, uint64_t from, uint64_t cut);
/* Whether to keep each run for compaction_model_run() (the viewers':
 * Perfetto, export); kept unless told, before the first record. The
 * driver's analysis of summaries (model_env.summary) keeps none. */
void compaction_model_keep_runs(struct compaction_model *m, int keep);
void compaction_model_finish(struct compaction_model *m, uint64_t end_ts);
const struct compact_stats *compaction_model_stats(const struct compaction_model *m);
/* The name of the zone whose pfns run from start to end ("Normal (node
 * 0)"), from the zone samples' spanned pages; 0 and buf untouched when no
 * sample names it, or two zones have that span. */
int compaction_model_zone_name(const struct compaction_model *m, uint64_t start,
			       uint64_t end, char *buf, size_t len);
/* The runs of every runner's dur histogram, in the order they ended (at
 * most COMPACT_MAX_RUNS; *dropped, if not NULL, gets those beyond); none
 * when the model keeps no list (compaction_model_keep_runs). */
int compaction_model_nruns(const struct compaction_model *m, uint64_t *dropped);
const struct compact_run *compaction_model_run(const struct compaction_model *m, int i);

/* Without kcompactd's wakes and sleeps both recorded (a trace-cmd extract
 * file cannot vouch for them) which of its runs were on a request and
 * which proactive cannot be told: split_known 0 shows either runner as
 * CR_KC_UNCLASSIFIED, and the fold moves both into it (a copy's). */
enum compact_runner compact_runner_shown(enum compact_runner r, int split_known);
void compact_stats_fold_kcompactd(struct compact_stats *st);

const char *compact_runner_name(enum compact_runner r);
const char *compact_status_name(int status);
const char *migratetype_name(int mt);

/* The model as the analysis driver runs it (model.h). */
extern const struct model_ops compaction_model_ops;

#endif
