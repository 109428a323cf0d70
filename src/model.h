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

struct model_ops {
	const char *name;
	void *(*create)(void);			/* NULL: out of memory */
	void (*add)(void *model, const struct record *r);
	void (*finish)(void *model, uint64_t end_ts);	/* NULL: nothing open */
	void (*destroy)(void *model);
};

#endif
