/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The fields of an event as text without tep_print_event, for the events
 * whose print format is simple enough: what `mmscope dump` spends its
 * time on. The text is libtraceevent's, byte for byte: each event's
 * first lines are checked against tep_print_event, and an event whose
 * line ever differs there is printed by libtraceevent from then on.
 * MMSCOPE_FAST_FORMAT=0 turns the whole path off (the oracle test
 * compares both ways on every real recording).
 */
#ifndef MMSCOPE_EVENT_FAST_H
#define MMSCOPE_EVENT_FAST_H

#include <event-parse.h>
#include <stdio.h>

#include "tracedat-read.h"

/*
 * What the fast path learns of one tep's events (compiled formats, memos,
 * recent names): one per reader of the tep, used by one thread at a time,
 * freed before the tep. No state is shared between instances, so files
 * read on several threads (compare -j, export -j) never meet here.
 */
struct event_fast;
struct event_fast *event_fast_new(struct tep_handle *tep);
void event_fast_free(struct event_fast *ef);

/* Appends the fields of ev (what TEP_PRINT_INFO prints) to s and returns
 * 1, or returns 0 having written nothing: then the caller asks tep. */
int event_fast_info(struct event_fast *ef, struct trace_seq *s, struct td_event *ev);

/*
 * The same text written straight into out (room for EVENT_FAST_LINE_MAX
 * bytes), for an event whose formatter has passed its checks: the
 * length, or -1 when event_fast_info (or libtraceevent) must make it.
 */
#define EVENT_FAST_LINE_MAX 2048
int event_fast_line(struct event_fast *ef, char *out, struct td_event *ev);

/* 0 under MMSCOPE_FAST_FORMAT=0 (read when ef was made): every event
 * through libtraceevent. */
int event_fast_enabled(const struct event_fast *ef);

/* tep_data_pid() without the field lookup each time. */
/* Tasks named from names' saved cmdlines from now on (NULL: the
 * formats' own tep); forgets the names memo. */
void event_fast_set_names(struct event_fast *ef, struct tep_handle *names);
int event_fast_pid(struct event_fast *ef, struct td_event *ev);

/* tep_data_comm_from_pid(), the recent answers remembered. */
const char *event_fast_comm(struct event_fast *ef, int pid);

/* One line per event seen: compiled or not, memo hits (for tests). */
void event_fast_report(const struct event_fast *ef, FILE *f);

#endif
