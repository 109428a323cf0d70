/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A copy of one event that outlives the page it came from: the reader's
 * td_event points into a page that the next td_cursor_next() replaces,
 * so a window of events to format later (the TUI's events view, the
 * live session's recent events) keeps copies. The data is zero-padded
 * because libtraceevent may read a little past a record's fields.
 */
#ifndef MMSCOPE_EVENT_RAW_H
#define MMSCOPE_EVENT_RAW_H

#include <stddef.h>
#include <stdint.h>

#include "tracedat-read.h"

struct event_raw {
	uint64_t ts;
	int cpu, buffer, size;
	long long missed;
	struct tep_event *event;
	unsigned char *data;
	size_t cap;
};

/* Copies ev into r, reusing r's buffer. */
void event_raw_copy(struct event_raw *r, const struct td_event *ev);
/* A td_event over r's copy (valid while r is unchanged). */
void event_raw_event(const struct event_raw *r, struct td_event *ev);
void event_raw_release(struct event_raw *r);

#endif
