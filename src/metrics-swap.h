/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Swap cluster and zswap metrics for "mmscope compare", from an
 * analysed recording's models. Pure: no I/O.
 */
#ifndef MMSCOPE_METRICS_SWAP_H
#define MMSCOPE_METRICS_SWAP_H

#include "analysis.h"
#include "metrics.h"

void metrics_swap_load(const struct analysis *a, struct metric_values *out);

#endif
