/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Workload phases: the "mmscope phase NAME" lines a workload writes into
 * trace_marker (mmscope-compare(1)). A phase runs from its marker to the
 * next phase marker or to the end of the recording. Pure: no I/O.
 */
#ifndef MMSCOPE_MODEL_PHASES_H
#define MMSCOPE_MODEL_PHASES_H

#include <stdint.h>

#include "model.h"

struct phase {
	char name[64];
	uint64_t start_ts, end_ts;	/* ns; end_ts: the next marker or the end */
	int to_end;			/* no later marker: ends with the recording */
};

struct phases_model;

extern const struct model_ops phases_model_ops;

int phases_model_count(const struct phases_model *m);
const struct phase *phases_model_get(const struct phases_model *m, int i);
/* The first phase called name, or NULL. */
const struct phase *phases_model_find(const struct phases_model *m, const char *name);

#endif
