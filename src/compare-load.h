/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Loading the metrics of one run for "mmscope compare". The only entry
 * point is compare_load_run(): recordings go through the analysis driver
 * (src/analysis.h), metrics files through a small text reader.
 */
#ifndef MMSCOPE_COMPARE_LOAD_H
#define MMSCOPE_COMPARE_LOAD_H

#include "analysis.h"
#include "metrics.h"

/*
 * Append the metrics of the run stored at path to *out. path is either
 *  - a recording (trace.dat): counter deltas between the first and the
 *    last complete "mms1" sample sets (see mmscope-samples(5)) become
 *    counter metrics through metrics_compute(), and the models give the
 *    trace-derived metrics (kswapd, handoffs, stalls); or
 *  - a metrics file (text, see mmscope-compare(1)): "NAME VALUE..." lines
 *    give metric samples directly, "counter NAME VALUE" lines give counter
 *    deltas, "higher NAME" / "lower NAME" set a user metric's direction.
 * Returns 0, or -1 with *err set (the reason, without the file name).
 */
int compare_load_run(const char *path, struct metric_values *out, char **err);

/*
 * The same with --since/--until, --pid/--comm/--cgroup (scope; metrics
 * files ignore it): after a failed load, bad says whether the scope was
 * at fault (exit 2); after a good one, note describes the window and the
 * sample sets its counter deltas come from, and the tasks ("" without a
 * scope). One struct per load: loads may run in parallel.
 */
struct compare_scope {
	struct analysis_scope scope;
	int bad;
	char note[256];
};
int compare_load_run_scoped(const char *path, struct compare_scope *sc,
			    struct metric_values *out, char **err);

/* The same for a metrics file already in memory (for tests). */
int compare_load_metrics_text(const char *text, struct metric_values *out, char **err);

#endif
