/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A model the analysis driver runs through its table (models[] in
 * src/analysis.c) without knowing its type: a new model is one entry
 * there plus its own files. Front ends get it back, typed by the model's
 * own header, with analysis_model(a, &NAME_model_ops).
 */
#ifndef MMSCOPE_MODEL_H
#define MMSCOPE_MODEL_H

#include <stdint.h>

#include "records.h"

struct model_ops;
struct handoff_params;

/* What a model may be made with besides its records (create_env). */
struct model_env {
	const struct handoff_params *handoff;	/* the analysis' handoff options */
	/* a model before this one in the table (consistency reads reclaim's
	 * and compaction's), NULL when there is none */
	void *(*peer)(const struct model_env *env, const struct model_ops *ops);
	void *ctx;				/* the driver's, for peer */
	/* the analysis' series_max and summary (analysis_opts): at most this
	 * many points in a series of one per sample set (0: all, thin.h);
	 * nonzero summary: no list kept only for the viewers */
	int series_max;
	int summary;
	uint64_t kill_window_ns;		/* the OOM model's window; 0 its default */
	/* the path of a task's memory cgroup by record.cgroup (0 unknown:
	 * NULL), as the tasks' map has it when the record comes; ctx is
	 * the driver's. NULL: no map */
	const char *(*cgroup_path)(void *ctx, int tag);
};

struct model_ops {
	const char *name;
	void *(*create)(void);			/* NULL: out of memory */
	void (*add)(void *model, const struct record *r);
	/*
	 * The recording is a part of a run: from, the trace time a switch
	 * cut the run at before its first event (0: the run starts in it),
	 * cut the one after its last (0: the run ends in it). Called before
	 * the first record, only when one of them is known and the analysis
	 * has no time window. What goes on across a cut counts where it
	 * began, its time split at the cut, so that the parts' sums are the
	 * run's (man mmscope-report, PARTS OF A RUN). NULL: the model has
	 * nothing that spans a cut.
	 */
	void (*bounds)(void *model, uint64_t from, uint64_t cut);
	void (*finish)(void *model, uint64_t end_ts);	/* NULL: nothing open */
	void (*destroy)(void *model);
	/* instead of create (NULL: create): a model made with options or
	 * with another model; NULL: out of memory */
	void *(*create_env)(const struct model_env *env);
	/* live: make what is open readable up to now (NULL: nothing to do) */
	void (*sync)(void *model, uint64_t now);
	/* Only the viewers (TUI, plot, HTML's charts, Perfetto) read it: an
	 * analysis that keeps summaries (analysis_opts.summary) does not
	 * make it, and analysis_model() gives NULL for it there. */
	int viewer;
};

#endif
