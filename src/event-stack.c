// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftrace:kernel_stack as trace-cmd prints it (see event-stack.h).
 */
#include "config.h"
#include "event-stack.h"

static int stack_handler(struct trace_seq *s, struct tep_record *record,
			 struct tep_event *event, void *context)
{
	struct tep_format_field *field = tep_find_any_field(event, "caller");
	int ls = tep_get_long_size(event->tep);
	const char *data = record->data;

	(void)context;
	if (!field) {
		trace_seq_printf(s, "<CANT FIND FIELD %s>", "caller");
		return 0;
	}
	if (ls != 4)
		ls = 8;
	trace_seq_puts(s, "<stack trace >\n");
	for (int at = field->offset; at + ls <= record->size; at += ls) {
		unsigned long long addr = tep_read_number(event->tep, data + at, ls);
		const char *func;

		if ((ls == 8 && addr == ~0ULL) || (int)addr == -1)
			break;
		func = tep_find_function(event->tep, addr);
		if (func)
			trace_seq_printf(s, "=> %s (%llx)\n", func, addr);
		else
			trace_seq_printf(s, "=> %llx\n", addr);
	}
	return 0;
}

void event_stack_register(struct tep_handle *tep)
{
	tep_register_event_handler(tep, -1, "ftrace", "kernel_stack", stack_handler, NULL);
}
