/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ftrace:kernel_stack printed as trace-cmd prints it (libtraceevent's
 * function plugin, which trace-cmd loads): "<stack trace >" and one
 * "=> FUNC (ADDR)" line per frame, FUNC from the recording's kallsyms
 * ("=> ADDR" without one), up to the record's end or ULONG_MAX. Without
 * it libtraceevent prints the format's print fmt: eight "%ps" frames.
 */
#ifndef MMSCOPE_EVENT_STACK_H
#define MMSCOPE_EVENT_STACK_H

#include <event-parse.h>

/* Registers the handler on tep (a file's, after its formats). */
void event_stack_register(struct tep_handle *tep);

#endif
