/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Time-ordered events from ring-buffer pages that arrive while the kernel
 * is still writing (mmscope tui --live). Pages are handed in per CPU as
 * they are read; live_merge_drain() hands out, merged across CPUs in
 * timestamp order, the events up to a horizon: a time before which every
 * CPU's pages are known to have arrived. Events after it wait in their
 * CPU's queue for a later drain. No I/O: the caller reads the pages.
 *
 * An event that arrives with a timestamp before one already handed out
 * (its page came later than the horizon promised) is still handed out,
 * and counted as late.
 */
#ifndef MMSCOPE_LIVE_MERGE_H
#define MMSCOPE_LIVE_MERGE_H

#include <stdint.h>

#include "tracedat-read.h"

struct live_merge;

/* tep gives the event formats and the ring's header layout. */
struct live_merge *live_merge_new(struct tep_handle *tep, int ncpus, uint32_t page_size);
void live_merge_free(struct live_merge *m);

/* Queues a copy of one page of a CPU (pages of a CPU in ring order). */
int live_merge_add_page(struct live_merge *m, int cpu, const void *page);

typedef void (*live_event_fn)(void *ctx, const struct td_event *ev);
/* Hands every queued event with ts <= horizon to fn, in time order;
 * returns how many. */
uint64_t live_merge_drain(struct live_merge *m, uint64_t horizon, live_event_fn fn, void *ctx);

uint64_t live_merge_events(const struct live_merge *m);	/* handed out */
uint64_t live_merge_late(const struct live_merge *m);	/* of which out of order */
uint64_t live_merge_queued_pages(const struct live_merge *m);

#endif
