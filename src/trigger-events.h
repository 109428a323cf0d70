/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The state event triggers decide from (trigger.h): records from the
 * parsers in, "did it happen since the last check" out. Pure C, no I/O,
 * bounded memory (a fixed table of open reclaims and compactions by pid,
 * and one slot per NUMA node for kswapd).
 *
 *   oom             a REC_OOM victim since the last check
 *   reclaim-stall   a direct or memcg reclaim (reclaim_begin to its end on
 *                   the same pid) longer than the threshold, finished since
 *                   the last check or still open at it
 *   compact-stall   a direct compaction: from try_to_compact_pages to a
 *                   compaction end on the same pid, longer than the
 *                   threshold
 *   kswapd-awake    a node's kswapd awake (kswapd_wake, no kswapd_sleep)
 *                   longer than the threshold: once per episode
 *   no-handoff      N episodes in a row (per node) asked for order > 0
 *                   (the wake or a wakeup_kswapd while awake) in which
 *                   kcompactd was neither woken (wakeup_kcompactd) nor ran
 *                   a request of order > 0 (kcompactd_wake); order-0
 *                   episodes do not count either way. The report's handoff
 *                   model also accepts a pickup shortly after the episode:
 *                   this trigger does not wait for one.
 */
#ifndef MMSCOPE_TRIGGER_EVENTS_H
#define MMSCOPE_TRIGGER_EVENTS_H

#include <stddef.h>
#include <stdint.h>

#include "records.h"
#include "trigger.h"

struct trig_events;

/* The event triggers among t[0..n-1] are watched (the others ignored). */
struct trig_events *trig_events_new(const struct trigger *t, int n);
void trig_events_free(struct trig_events *te);
void trig_events_record(struct trig_events *te, const struct record *r);
/*
 * Checks trigger i at now (trace clock ns): 1 fired (why filled), 0 not.
 * Each trigger keeps its own view of what it has seen since its last
 * check, so two triggers on the same events both fire.
 */
int trig_events_check(struct trig_events *te, int i, uint64_t now, char *why, size_t n);
/* Reclaims and compactions not followed, the table of open ones full. */
uint64_t trig_events_overflow(const struct trig_events *te);
/* What trigger i saw at its last check that fired (trigger.h). */
const struct trigger_fired *trig_events_fired(const struct trig_events *te, int i);

#endif
