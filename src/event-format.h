/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One event as a line of text, the way `mmscope dump` (and trace-cmd
 * report) prints it: "COMM-PID [CPU] SECS.USECS: system:name: fields".
 * Shared by dump and the TUI's events view so both print the same thing.
 */
#ifndef MMSCOPE_EVENT_FORMAT_H
#define MMSCOPE_EVENT_FORMAT_H

#include <event-parse.h>

#include "tracedat-read.h"

/* Resets s and writes the line (no newline) into it, NUL-terminated.
 * buffer_name prefixes the line ("NAME: ") unless NULL or "". */
void event_format(struct trace_seq *s, struct tep_handle *tep, const char *buffer_name,
		  struct td_event *ev);
/*
 * The same line and its newline written straight into out, which has
 * room for EVENT_FORMAT_DIRECT_MAX bytes: the length, or -1 when only
 * event_format can make this one (libtraceevent's formatter, a formatter
 * still being checked, names too long). dump's fast path.
 */
#define EVENT_FORMAT_DIRECT_MAX (256 + 4 + 256 + 2048 + 2)
int event_format_direct(char *out, struct tep_handle *tep, const char *buffer_name,
			struct td_event *ev);
/* Drops what event_format_direct keeps of tep (before tep_free). */
void event_format_forget(const struct tep_handle *tep);
/* The line trace-cmd prints before an event that follows a loss. */
void event_format_lost(struct trace_seq *s, const struct td_event *ev);

#endif
