// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftrace:kernel_stack: the stack the instance's stacktrace trigger
 * writes right after the event it is set on (mmscope record -T,
 * --stacktrace), on the same CPU, in the same task.
 *
 *  ftrace:kernel_stack  int size; unsigned long caller[8]
 *
 * The format says caller[8], but the record holds as many entries as
 * the kernel walked (the record's size), ended early by ULONG_MAX: read
 * up to the record's end as trace-cmd does (libtraceevent's function
 * plugin). Each address is named from the recording's kallsyms (the
 * reader hands them to libtraceevent) with its offset into the symbol.
 */
#include "config.h"
#include "parsers.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

#define STACK_MAX_FRAMES 128
#define FRAME_MEMO 1024

/*
 * A stack-heavy recording repeats a few hundred return addresses
 * millions of times; naming one is two lookups in libtraceevent (name,
 * then the symbol's address) through the kallsyms table: a memo of the
 * answers by address, direct mapped. A state is bound to one tep, whose
 * kallsyms are in before the first stack record is parsed (analysis.c).
 */
struct frame_memo {
	uint64_t addr, off;
	const char *func;
	int used;
};

struct stack_state {
	int off;		/* of caller[] */
	int long_size;		/* 8, or 4 on a 32-bit kernel */
	uint64_t addr[STACK_MAX_FRAMES], sym_off[STACK_MAX_FRAMES];
	const char *func[STACK_MAX_FRAMES];
	struct frame_memo memo[FRAME_MEMO];
};

static void *stack_bind(struct parser_set *set, struct tep_event *ev)
{
	struct tep_format_field *f = tep_find_any_field(ev, "caller");
	struct stack_state *st;
	int ls = tep_get_long_size(ev->tep);

	if (!f) {
		parser_note(set, "ftrace:kernel_stack has no caller field: kernel stacks not read");
		return NULL;
	}
	st = xcalloc(1, sizeof(*st));
	st->off = f->offset;
	st->long_size = ls == 4 ? 4 : 8;
	return st;
}

static void stack_parse(void *state, struct parse_ctx *pc)
{
	struct stack_state *st = state;
	const unsigned char *d = pc->data;
	int n = 0;

	for (int at = st->off; at + st->long_size <= pc->size && n < STACK_MAX_FRAMES;
	     at += st->long_size) {
		uint64_t a;
		struct frame_memo *m;

		if (st->long_size == 8) {
			memcpy(&a, d + at, 8);
			if (a == UINT64_MAX)
				break;
		} else {
			uint32_t v;

			memcpy(&v, d + at, 4);
			if (v == UINT32_MAX)
				break;
			a = v;
		}
		m = &st->memo[(a * 0x9E3779B97F4A7C15ULL) >> 54];
		if (!m->used || m->addr != a) {
			m->addr = a;
			m->func = tep_find_function(pc->tep, a);
			m->off = m->func ? a - tep_find_function_address(pc->tep, a) : 0;
			m->used = 1;
		}
		st->addr[n] = a;
		st->func[n] = m->func;
		st->sym_off[n] = m->off;
		n++;
	}
	pc->rec->type = REC_KERNEL_STACK;
	pc->rec->kstack.nframes = n;
	pc->rec->kstack.addr = st->addr;
	pc->rec->kstack.func = st->func;
	pc->rec->kstack.off = st->sym_off;
	pc->sink(pc->sink_ctx, pc->rec);
}

const struct parser stack_parsers[] = {
	{ "ftrace", "kernel_stack", stack_parse, 0, NULL, 0, stack_bind, REC_KERNEL_STACK },
	{ NULL, NULL, NULL, 0, NULL, 0, NULL, 0 },
};
