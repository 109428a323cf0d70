/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One event as a line of text, the way `mmscope dump` (and trace-cmd
 * report) prints it: "COMM-PID [CPU] SECS.USECS: system:name: fields".
 * Shared by dump and the TUI's events view so both print the same thing.
 */
#ifndef MMSCOPE_EVENT_FORMAT_H
#define MMSCOPE_EVENT_FORMAT_H

#include <event-parse.h>
#include <stdio.h>

#include "tracedat-read.h"

/*
 * A formatter: what formatting learns of one tep's events (compiled
 * formats, names, the last prefix per CPU). Each reader of a tep (dump,
 * the TUI's events view) makes its own and frees it before the tep; it is
 * used by one thread at a time, and nothing is shared between formatters.
 */
struct event_formatter;
struct event_formatter *event_formatter_new(struct tep_handle *tep);
void event_formatter_free(struct event_formatter *f);
/*
 * The tasks of the events formatted from now on are named from names'
 * saved cmdlines (NULL: the formatter's tep): a part of a set decoded
 * with the first part's formats keeps its own names (a pid reused in a
 * day-long run). names must outlive its use.
 */
void event_formatter_set_names(struct event_formatter *f, struct tep_handle *names);

/* Resets s and writes the line (no newline) into it, NUL-terminated.
 * buffer_name prefixes the line ("NAME: ") unless NULL or "". */
void event_format(struct event_formatter *f, struct trace_seq *s, const char *buffer_name,
		  struct td_event *ev);
/*
 * The same line and its newline written straight into out, which has
 * room for EVENT_FORMAT_DIRECT_MAX bytes: the length, or -1 when only
 * event_format can make this one (libtraceevent's formatter, a formatter
 * still being checked, names too long). dump's fast path.
 */
#define EVENT_FORMAT_DIRECT_MAX (256 + 4 + 256 + 2048 + 2)
int event_format_direct(struct event_formatter *f, char *out, const char *buffer_name,
			struct td_event *ev);
/* One line per event f has formatted: compiled or not, memo hits (tests). */
void event_formatter_report(const struct event_formatter *f, FILE *out);
/* The line trace-cmd prints before an event that follows a loss. */
void event_format_lost(struct trace_seq *s, const struct td_event *ev);

#endif
