// SPDX-License-Identifier: GPL-2.0-or-later
/* Copies of events that outlive their page (see event-raw.h). */
#include "config.h"
#include "event-raw.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

#define EVENT_RAW_PAD 16

void event_raw_copy(struct event_raw *r, const struct td_event *ev)
{
	size_t n = ev->size > 0 ? (size_t)ev->size : 0;

	if (r->cap < n + EVENT_RAW_PAD) {
		r->cap = n + 64;
		r->data = xrealloc(r->data, r->cap);
	}
	memcpy(r->data, ev->data, n);
	memset(r->data + n, 0, EVENT_RAW_PAD);
	r->ts = ev->ts;
	r->cpu = ev->cpu;
	r->buffer = ev->buffer;
	r->size = ev->size;
	r->missed = ev->missed;
	r->event = ev->event;
}

void event_raw_event(const struct event_raw *r, struct td_event *ev)
{
	memset(ev, 0, sizeof(*ev));
	ev->ts = r->ts;
	ev->cpu = r->cpu;
	ev->buffer = r->buffer;
	ev->event = r->event;
	ev->data = r->data;
	ev->size = r->size;
	ev->missed = r->missed;
	td_event_fill_record(ev);
}

void event_raw_release(struct event_raw *r)
{
	free(r->data);
	r->data = NULL;
	r->cap = 0;
}
