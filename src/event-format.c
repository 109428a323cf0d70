// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Formatting of one event as a text line, shared by `mmscope dump` and the
 * TUI's events view. The layout follows trace-cmd report exactly (the
 * oracle test compares them line by line): comm right-aligned in 16,
 * pid left-aligned in 7, CPU in 3 digits, microseconds rounded.
 */
#include "config.h"
#include "event-format.h"

void event_format(struct trace_seq *s, struct tep_handle *tep, const char *buffer_name,
		  struct td_event *ev)
{
	int pid = tep_data_pid(tep, &ev->record);
	const char *comm = tep_data_comm_from_pid(tep, pid);
	/* microseconds, rounded as trace-cmd prints them */
	unsigned long long us = (ev->ts + 500) / 1000;

	trace_seq_reset(s);
	if (buffer_name && *buffer_name)
		trace_seq_printf(s, "%s: ", buffer_name);
	trace_seq_printf(s, "%16s-%-7d [%03d] %6llu.%06llu: ", comm, pid, ev->cpu,
			 us / 1000000ULL, us % 1000000ULL);
	if (ev->event) {
		trace_seq_printf(s, "%s:%s: ", ev->event->system, ev->event->name);
		tep_print_event(tep, s, &ev->record, "%s", TEP_PRINT_INFO);
		/* trace_marker text keeps the writer's newline; trace-cmd drops it */
		while (s->len && s->buffer[s->len - 1] == '\n')
			s->len--;
	} else {
		trace_seq_printf(s, "[UNKNOWN EVENT id %u]", (unsigned)*(uint16_t *)ev->data);
	}
	trace_seq_terminate(s);
}

void event_format_lost(struct trace_seq *s, const struct td_event *ev)
{
	trace_seq_reset(s);
	if (ev->missed > 0)
		trace_seq_printf(s, "CPU:%d [%lld EVENTS DROPPED]", ev->cpu, ev->missed);
	else
		trace_seq_printf(s, "CPU:%d [EVENTS DROPPED]", ev->cpu);
	trace_seq_terminate(s);
}
