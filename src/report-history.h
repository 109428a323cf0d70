/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A host's history in the report (text, JSON, HTML): the runs in time
 * order with the gaps between them (why one ended, how the next began),
 * incidents inside a run, and at the end each run's sums over time
 * beside their total over the time line, so that what each run counted
 * is seen once and the gaps are seen as "not recorded", never as zero.
 *
 * The runs come from the input layer (inputs.h: in->hist, the runs a
 * scope selected); the sums from each run's models after its pass
 * (history_sum_of), kept while the next run is read.
 */
#ifndef MMSCOPE_REPORT_HISTORY_H
#define MMSCOPE_REPORT_HISTORY_H

#include <stdint.h>

#include "inputs.h"
#include "json.h"
#include "util.h"

/* One run's sums over time, each with whether the run recorded it. */
struct history_sum {
	int done;			/* its analysis was read */
	double seconds;			/* first to last event it read */
	uint64_t events;
	long long lost;
	int lost_unknown;
	int kills_known;
	uint64_t kills;			/* oom:mark_victim */
	int direct_known, memcg_known;
	uint64_t direct, memcg;		/* reclaim stalls begun and ended */
	uint64_t direct_ns, memcg_ns;
	int pswpout_known;
	int64_t pswpout;		/* vmstat pswpout delta, pages */
};

struct analysis;
void history_sum_of(const struct analysis *a, struct history_sum *s);

/* The history block that opens the report of host's runs (sel: the runs
 * the scope selected; the others are listed as left out). */
void history_text(const struct inputs *in, int host, const struct inputs_sel *sel, int nsel,
		  struct strbuf *out);
/* "=== run K of N: NAME (began: ...)" before a run's report (title:
 * with a blank line after it; line: without, as dump prints it). */
void history_run_title(const struct inputs *in, int run, struct strbuf *out);
void history_run_line(const struct inputs *in, int run, struct strbuf *out);
/* "--- not recorded for 1.3 s, A .. B: run 1 ended: ...; run 2 began:
 * ..." before run (nothing when no gap is before it); text: with a blank
 * line after it. */
void history_gap_text(const struct inputs *in, int run, struct strbuf *out);
void history_gap_line(const struct inputs *in, int run, struct strbuf *out);
/* The sums per run and over the time line, at the end. */
void history_totals_text(const struct inputs *in, int host, const struct inputs_sel *sel,
			 int nsel, const struct history_sum *sum, struct strbuf *out);

/* JSON: the "history" object (runs, gaps, totals) into an open writer. */
void history_json(struct json_writer *j, const struct inputs *in, int host,
		  const struct inputs_sel *sel, int nsel, const struct history_sum *sum);

#endif
