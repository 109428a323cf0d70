/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Loading the metrics of one run for "mmscope compare". The entry point
 * is compare_load_runs(): recordings go through the input layer
 * (src/inputs.h) to the analysis driver, metrics files through a small
 * text reader.
 */
#ifndef MMSCOPE_COMPARE_LOAD_H
#define MMSCOPE_COMPARE_LOAD_H

#include "analysis.h"
#include "inputs.h"
#include "metrics.h"
#include "util.h"

/*
 * A job appends the metrics of the run it names to its mv. That is either
 *  - a recording (trace.dat): counter deltas between the first and the
 *    last complete "mms1" sample sets (see mmscope-samples(5)) become
 *    counter metrics through metrics_compute(), and the models give the
 *    trace-derived metrics (kswapd, handoffs, stalls); or
 *  - a metrics file (text, see mmscope-compare(1)): "NAME VALUE..." lines
 *    give metric samples directly, "counter NAME VALUE" lines give counter
 *    deltas, "higher NAME" / "lower NAME" set a user metric's direction.
 * phase (NULL: the whole run) limits a recording to the first phase of
 * that name (analysis_opts.phase): an error when it has none, and for a
 * metrics file.
 * Returns 0, or -1 with *err set (the reason, without the file name).
 */
/*
 * --since/--until, --pid/--comm/--cgroup (scope; metrics files ignore
 * it): after a failed load, bad says whether the scope was at fault
 * (exit 2); after a good one, note describes the window and the sample
 * sets its counter deltas come from, and the tasks ("" without a scope).
 * One struct per load: loads may run in parallel.
 */
struct compare_scope {
	struct analysis_scope scope;
	int bad;
	char note[256];
};

/* One run to load: filled by compare_load_runs(). */
struct compare_job {
	const char *path;		/* in: what messages call it */
	const struct inputs *in;	/* in: the recording: in->rec[rec] (a */
	int rec;			/* metrics file is one of its own) */
	const char *phase;		/* in: NULL, or the phase to compare */
	struct compare_scope sc;	/* in: scope; out: bad, note */
	struct metric_values mv;	/* out: the run's metrics */
	struct strbuf settings;		/* out: "key=value\n" of the run context
					 * (values at the start), empty without */
	char *err;			/* out: the reason when rc is -1 */
	int rc;				/* out: 0 or -1 */
};

/*
 * Load n runs (each a recording through the input layer, or a metrics
 * file) on up to threads worker threads
 * (0: one per online CPU, never more than n). Each worker analyses one
 * recording at a time, so memory is bounded per worker by what one
 * analysis needs. The results do not depend on the number of threads.
 */
void compare_load_runs(struct compare_job *jobs, size_t n, int threads);


/* The same for a metrics file already in memory (for tests). */
int compare_load_metrics_text(const char *text, struct metric_values *out, char **err);

#endif
