/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Flight-recorder triggers: conditions on kernel counters, checked once
 * per sampling interval, that make the recorder write out its ring.
 *
 *   psi-some>PCT        /proc/pressure/memory "some avg10" above PCT
 *   stall-ms>N          memory stall time (PSI "some total") grew by more
 *                       than N ms within one interval: direct reclaim and
 *                       compaction stalls are what PSI counts there
 *   fallback-rate>PCT   mTHP swap-out fallbacks, over all sizes, above PCT
 *                       of mTHP swap-outs in the interval
 *
 * A trigger fires once, then re-arms when its condition has been false
 * for one interval.
 */
#ifndef MMSCOPE_TRIGGER_H
#define MMSCOPE_TRIGGER_H

#include <stddef.h>

enum trigger_kind { TRIGGER_PSI_SOME, TRIGGER_STALL_MS, TRIGGER_FALLBACK_RATE };

struct trigger {
	char name[64];		/* the spec as given: psi-some>10 */
	enum trigger_kind kind;
	double threshold;
	int armed;
	int have_prev;
	double prev_a, prev_b;
};

int trigger_parse(const char *spec, struct trigger *t, char **err);
/* 1: fired (why filled), 0: not, -1: the counter is unavailable. */
int trigger_check(struct trigger *t, const char *root, char *why, size_t n);

#endif
