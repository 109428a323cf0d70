/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Consistency: event-derived counts against the kernel's own counters
 * over the same span. At the first and at every complete sample set the
 * model snapshots event totals (its own counts and the reclaim and
 * compaction models' sums), so the event side covers exactly the span
 * between the first and the last sample set, like the counter deltas.
 * Pure C, no I/O.
 */
#ifndef MMSCOPE_MODEL_CONSISTENCY_H
#define MMSCOPE_MODEL_CONSISTENCY_H

#include <stdint.h>

#include "records.h"
#include "model-reclaim.h"
#include "model-compaction.h"
#include "model-counters.h"
#include "model.h"

enum consistency_rel {
	REL_EQ,		/* should be equal */
	REL_LE,		/* counter <= events (some attempts are not counted);
			 * printed events-first as ">=" */
	REL_GE,		/* counter >= events (other sources count too); "<=" */
};

enum consistency_verdict { CV_AGREE, CV_DIFFERS, CV_NO_COUNTER, CV_NO_EVENTS };

struct consistency_row {
	const char *what;		/* event side, e.g. "kcompactd wakes" */
	const char *counter;		/* e.g. "compact_daemon_wake" */
	const char *system, *event;	/* the tracepoint the events need */
	enum consistency_rel rel;
	int64_t events, counter_delta;
	enum consistency_verdict verdict;
	int alt_used;	/* events counted as isolated folios (MGLRU's pgscan) */
	int optional;	/* the event exists only on some kernels (7.x) */
};

#define CONSISTENCY_NROWS 11

struct consistency_model;

struct consistency_model *consistency_model_new(const struct reclaim_model *rm,
						const struct compaction_model *cm);
void consistency_model_free(struct consistency_model *m);
/* The relation between the row's events (left) and counter delta
 * (right) as printed: the expected one when they agree ("~" for equal
 * within the lost events), the one that holds instead when they differ. */
const char *consistency_row_rel(const struct consistency_row *row);
/* The kernel release ("7.3.4+deb13-amd64") decides what the global
 * direct counters include: from 7.2 on also memcg reclaim. */
void consistency_model_set_kernel(struct consistency_model *m, const char *release);
int consistency_model_memcg_in_direct(const struct consistency_model *m);
/* Feed after the reclaim and compaction models got the same record. */
void consistency_model_add(struct consistency_model *m, const struct record *r);
/* Fills rows; returns their number (0 without two complete sample sets).
 * lost: events lost inside the span, the tolerance for a difference. */
int consistency_model_rows(const struct consistency_model *m,
			   const struct counters_model *cm,
			   struct consistency_row *rows, int max, int64_t *lost);

/* The model as the analysis driver runs it (model.h). */
extern const struct model_ops consistency_model_ops;

#endif
