/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The event triggers' watch: a second, small tracefs instance
 * (mmscope-PID-w) with only the events the event triggers need, read
 * (consumed) as the recorder runs, merged in time order, parsed by the
 * parser table and fed to trig_events (trigger-events.h). The flight
 * recorder's own ring overwrites and is not read until a trigger; this
 * one is never in a file.
 */
#ifndef MMSCOPE_TRIGGER_WATCH_H
#define MMSCOPE_TRIGGER_WATCH_H

#include <stdint.h>

#include "trigger.h"

struct trigger_watch;

/* Watches the event triggers among t[0..n-1] (NULL with *err if none of
 * their events exist, or tracefs refused). */
struct trigger_watch *trigger_watch_open(const struct trigger *t, int n, const char *clock,
					 char **err);
/* Reads what the watch ring has (partial: the pages being written too)
 * and feeds the events up to horizon (trace clock ns). -1 with *err. */
int trigger_watch_poll(struct trigger_watch *w, int partial, uint64_t horizon, char **err);
/* Checks trigger i (its index in the array given to open). */
int trigger_watch_check(struct trigger_watch *w, int i, uint64_t now, char *why, size_t n);
/* What trigger i saw when trigger_watch_check last fired it. */
const struct trigger_fired *trigger_watch_fired(struct trigger_watch *w, int i);
/* Events the watch's ring dropped so far (read too slowly). */
uint64_t trigger_watch_dropped(struct trigger_watch *w);
void trigger_watch_close(struct trigger_watch *w);

#endif
