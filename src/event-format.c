// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Formatting of one event as a text line, shared by `mmscope dump` and the
 * TUI's events view. The layout follows trace-cmd report exactly (the
 * oracle test compares them line by line): comm right-aligned in 16,
 * pid left-aligned in 7, CPU in 3 digits, microseconds rounded.
 */
#include "config.h"
#include "event-format.h"
#include "event-fast.h"
#include "util.h"

#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

/*
 * printf-free number and string output: vfprintf was half of dump's
 * time once tep_print_event was out of the way. Each returns the end.
 */
static char *put_str(char *p, const char *str)
{
	size_t n = strlen(str);

	memcpy(p, str, n);
	return p + n;
}

/* v in decimal, at least width digits/characters, padded with pad on
 * the left (' ' or '0') or, when width < 0, with spaces on the right. */
static const char digit_pairs[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

static char *put_dec(char *p, long long v, int width, char pad)
{
	char tmp[24];
	int n = 0, neg = v < 0, len;
	unsigned long long u = neg ? 0ULL - (unsigned long long)v : (unsigned long long)v;

	/* two digits a step, from the right, into tmp reversed */
	while (u >= 100) {
		unsigned d = (unsigned)(u % 100) * 2;

		u /= 100;
		tmp[n++] = digit_pairs[d + 1];
		tmp[n++] = digit_pairs[d];
	}
	if (u >= 10) {
		tmp[n++] = digit_pairs[u * 2 + 1];
		tmp[n++] = digit_pairs[u * 2];
	} else {
		tmp[n++] = (char)('0' + u);
	}
	len = n + neg;
	if (width > len && pad == '0' && neg)
		*p++ = '-', neg = 0;
	for (; width > len; width--)
		*p++ = pad;
	if (neg)
		*p++ = '-';
	while (n)
		*p++ = tmp[--n];
	for (; -width > len; width++)
		*p++ = ' ';
	return p;
}

/*
 * "COMM-PID [CPU] SECS.USECS: system:name: " into p (room for
 * EVENT_PREFIX_MAX bytes), as the printf in event_format would make it;
 * NULL when comm, system and name are too long for that room.
 */
#define EVENT_PREFIX_MAX 256

/* "COMM-PID [CPU] ": comm right-aligned in 16 (n its length, < 64) */
static char *put_task(char *p, const char *comm, size_t n, int pid, int cpu)
{
	for (size_t k = n; k < 16; k++)
		*p++ = ' ';
	memcpy(p, comm, n);
	p += n;
	*p++ = '-';
	p = put_dec(p, pid, -7, ' ');
	p = put_str(p, " [");
	p = put_dec(p, cpu, 3, '0');
	return put_str(p, "] ");
}

/* The microseconds of us within its second, always six digits, and ": " */
static char *put_usecs(char *p, unsigned long long us)
{
	unsigned u6 = (unsigned)(us % 1000000ULL);

	for (int k = 4; k >= 0; k -= 2, u6 /= 100) {
		p[k] = digit_pairs[(u6 % 100) * 2];
		p[k + 1] = digit_pairs[(u6 % 100) * 2 + 1];
	}
	p[6] = ':';
	p[7] = ' ';
	return p + 8;
}

static char *put_prefix(char *p, const char *comm, int pid, const struct td_event *ev)
{
	/* microseconds, rounded as trace-cmd prints them */
	unsigned long long us = (ev->ts + 500) / 1000;
	size_t n = strlen(comm), ns, nn;

	if (n >= 64 || !ev->event ||
	    (ns = strlen(ev->event->system)) + (nn = strlen(ev->event->name)) >= 80)
		return NULL;
	p = put_task(p, comm, n, pid, ev->cpu);
	p = put_dec(p, (long long)(us / 1000000ULL), 6, ' ');
	*p++ = '.';
	p = put_usecs(p, us);
	memcpy(p, ev->event->system, ns);
	p += ns;
	*p++ = ':';
	memcpy(p, ev->event->name, nn);
	p += nn;
	*p++ = ':';
	*p++ = ' ';
	return p;
}

/*
 * dump's lines, one CPU at a time, mostly repeat their prefix: the same
 * task, the same second. Per CPU the last "NAME: COMM-PID [CPU] " and
 * "SECS." are kept as text, so a line costs its six microsecond digits
 * and its "system:name: " (kept per event). Only event_format_direct
 * uses them. They are the formatter's, as is the fast path's state: a
 * formatter is one reader's, never shared by threads.
 */
#define PREFIX_CPUS 256
struct cpu_prefix {
	const char *buffer, *comm;	/* the pointers the text was made of */
	int pid, cpu;
	int len;
	char text[EVENT_PREFIX_MAX + 260];
	unsigned long long secs;
	int slen;
	char stext[24];			/* "%6llu." */
};

struct event_name {
	const struct tep_event *event;
	int len;
	char text[84];			/* "system:name: " */
};

struct event_formatter {
	struct tep_handle *tep;
	struct event_fast *fast;
	struct cpu_prefix *prefixes;	/* PREFIX_CPUS, on first use */
	struct event_name names[256];
};

struct event_formatter *event_formatter_new(struct tep_handle *tep)
{
	struct event_formatter *f = xcalloc(1, sizeof(*f));

	f->tep = tep;
	f->fast = event_fast_new(tep);
	return f;
}

void event_formatter_set_names(struct event_formatter *f, struct tep_handle *names)
{
	event_fast_set_names(f->fast, names);
	if (f->prefixes)	/* their text holds the old names */
		memset(f->prefixes, 0, PREFIX_CPUS * sizeof(*f->prefixes));
}

void event_formatter_free(struct event_formatter *f)
{
	if (!f)
		return;
	event_fast_free(f->fast);
	free(f->prefixes);
	free(f);
}

void event_formatter_report(const struct event_formatter *f, FILE *out)
{
	if (f)
		event_fast_report(f->fast, out);
}

static char *put_event_name(struct event_formatter *f, char *p, const struct tep_event *e)
{
	struct event_name *n = &f->names[(unsigned)e->id % 256];

	if (n->event != e) {
		size_t ns = strlen(e->system), nn = strlen(e->name);

		if (ns + nn >= 80)
			return NULL;
		memcpy(n->text, e->system, ns);
		n->text[ns] = ':';
		memcpy(n->text + ns + 1, e->name, nn);
		memcpy(n->text + ns + 1 + nn, ": ", 2);
		n->len = (int)(ns + nn + 3);
		n->event = e;
	}
	memcpy(p, n->text, (size_t)n->len);
	return p + n->len;
}

static char *put_cached_prefix(struct event_formatter *f, char *p, const char *buffer_name,
			       struct td_event *ev)
{
	struct cpu_prefix *c;
	unsigned long long us = (ev->ts + 500) / 1000, secs = us / 1000000ULL;
	int pid = event_fast_pid(f->fast, ev);
	const char *comm = event_fast_comm(f->fast, pid);

	if (!f->prefixes)
		f->prefixes = xcalloc(PREFIX_CPUS, sizeof(*f->prefixes));
	c = &f->prefixes[ev->cpu % PREFIX_CPUS];
	if (c->buffer != buffer_name || c->comm != comm || c->pid != pid ||
	    c->cpu != ev->cpu || c->len <= 0) {
		char *q = c->text;
		size_t n = strlen(comm);

		c->len = 0;
		c->slen = 0;
		if (n >= 64 || (buffer_name && strlen(buffer_name) > 256))
			return NULL;
		if (buffer_name && *buffer_name) {
			q = put_str(q, buffer_name);
			q = put_str(q, ": ");
		}
		q = put_task(q, comm, n, pid, ev->cpu);
		c->buffer = buffer_name, c->comm = comm, c->pid = pid;
		c->cpu = ev->cpu;
		c->len = (int)(q - c->text);
	}
	if (!c->slen || c->secs != secs) {
		c->slen = (int)(put_dec(c->stext, (long long)secs, 6, ' ') - c->stext);
		c->stext[c->slen++] = '.';
		c->secs = secs;
	}
	memcpy(p, c->text, (size_t)c->len);
	p += c->len;
	memcpy(p, c->stext, (size_t)c->slen);
	p = put_usecs(p + c->slen, us);
	return put_event_name(f, p, ev->event);
}

int event_format_direct(struct event_formatter *f, char *out, const char *buffer_name,
			struct td_event *ev)
{
	char *p;
	int n;

	if (!ev->event || !(p = put_cached_prefix(f, out, buffer_name, ev)) ||
	    (n = event_fast_line(f->fast, p, ev)) < 0)
		return -1;
	p += n;
	/* trace_marker text keeps the writer's newline; trace-cmd drops it */
	while (p > out && p[-1] == '\n')
		p--;
	*p++ = '\n';
	return (int)(p - out);
}

void event_format(struct event_formatter *f, struct trace_seq *s, const char *buffer_name,
		  struct td_event *ev)
{
	struct tep_handle *tep = f->tep;
	int pid = event_fast_pid(f->fast, ev);
	const char *comm = event_fast_comm(f->fast, pid);
	/* microseconds, rounded as trace-cmd prints them */
	unsigned long long us = (ev->ts + 500) / 1000;
	int named = 0;
	char pre[EVENT_PREFIX_MAX], *p;

	trace_seq_reset(s);
	if (buffer_name && *buffer_name)
		trace_seq_printf(s, "%s: ", buffer_name);
	/* the same prefix as the printf below, without vfprintf */
	if ((p = put_prefix(pre, comm, pid, ev))) {
		*p = 0;
		trace_seq_puts(s, pre);
		named = 1;
	} else {
		trace_seq_printf(s, "%16s-%-7d [%03d] %6llu.%06llu: ", comm, pid, ev->cpu,
				 us / 1000000ULL, us % 1000000ULL);
	}
	if (ev->event) {
		if (!named)
			trace_seq_printf(s, "%s:%s: ", ev->event->system, ev->event->name);
		/* one compiled formatter per event (src/event-fast.c), the
		 * page allocator's too, else libtraceevent */
		if (!event_fast_info(f->fast, s, ev))
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
