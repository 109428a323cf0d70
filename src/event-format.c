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

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/*
 * Own formatting of the hottest events, kmem:mm_page_alloc and
 * kmem:mm_page_free (millions per second under page churn), where
 * tep_print_event costs ~1.4 us, most of it strtoull on every entry of
 * the gfp flag table for every event. The text must stay exactly
 * trace-cmd's, so the fast path
 *  - applies only to the print formats below, with fields of the
 *    expected sizes, and only for a pfn other than 0 and -1 (tep prints
 *    "page=%p" of vmemmap_base + pfn as 0x<pfn> then);
 *  - takes the gfp_flags text from tep_print_event itself, once per
 *    distinct value (a few in a recording), and
 *  - compares its first line of each event with tep's and turns itself
 *    off for that event if they differ.
 * The cache holds offsets and text only, never tep pointers, so a
 * closed file cannot leave a dangling pointer behind.
 */
#define FAST_ALLOC_FMT	"page=%p pfn=0x%lx order=%d migratetype=%d gfp_flags=%s"
#define FAST_FREE_FMT	"page=%p pfn=0x%lx order=%d"
#define FAST_SLOTS	4
#define FAST_GFP	8

struct fast_event {
	const void *tep, *event;	/* identity only, never dereferenced */
	int id;
	int alloc;		/* 1 mm_page_alloc, 0 mm_page_free */
	int state;		/* 0 unchecked, 1 on, -1 off */
	int pfn_off, order_off, mt_off, gfp_off, gfp_size;
	int ngfp, next_gfp;
	unsigned long long gfp[FAST_GFP];
	char gfp_text[FAST_GFP][256];
};

static struct fast_event fast[FAST_SLOTS];

static int fast_field(struct tep_event *e, const char *name, int size)
{
	struct tep_format_field *f = tep_find_field(e, name);

	return f && f->size == size && !(f->flags & TEP_FIELD_IS_ARRAY) ? f->offset : -1;
}

/* The slot for this event if it may take the fast path, else NULL. */
static struct fast_event *fast_slot(struct tep_handle *tep, struct tep_event *e)
{
	struct fast_event *f;
	int alloc, i;

	for (i = 0; i < FAST_SLOTS; i++)
		if (fast[i].event == e && fast[i].tep == tep && fast[i].id == e->id)
			return fast[i].state < 0 ? NULL : &fast[i];
	if (strcmp(e->system, "kmem") || !e->print_fmt.format)
		return NULL;
	if (!strcmp(e->name, "mm_page_alloc"))
		alloc = 1;
	else if (!strcmp(e->name, "mm_page_free"))
		alloc = 0;
	else
		return NULL;
	/* a new slot, round robin over the few there are */
	for (i = 0; i < FAST_SLOTS && fast[i].event; i++)
		;
	if (i == FAST_SLOTS) {
		memmove(fast, fast + 1, sizeof(fast) - sizeof(fast[0]));
		i = FAST_SLOTS - 1;
	}
	f = &fast[i];
	memset(f, 0, sizeof(*f));
	f->tep = tep;
	f->event = e;
	f->id = e->id;
	f->alloc = alloc;
	f->pfn_off = fast_field(e, "pfn", 8);
	f->order_off = fast_field(e, "order", 4);
	f->mt_off = alloc ? fast_field(e, "migratetype", 4) : 0;
	f->gfp_off = -1;
	if (alloc) {
		f->gfp_size = 8;
		f->gfp_off = fast_field(e, "gfp_flags", 8);
		if (f->gfp_off < 0) {
			f->gfp_size = 4;
			f->gfp_off = fast_field(e, "gfp_flags", 4);
		}
	}
	if (strcmp(e->print_fmt.format, alloc ? FAST_ALLOC_FMT : FAST_FREE_FMT) ||
	    f->pfn_off < 0 || f->order_off < 0 || f->mt_off < 0 ||
	    (alloc && f->gfp_off < 0) || tep_is_file_bigendian(tep))
		f->state = -1;
	return f->state < 0 ? NULL : f;
}

static uint64_t load(const struct td_event *ev, int off, int size)
{
	uint64_t v = 0;

	if (off < 0 || off + size > ev->size)
		return 0;
	memcpy(&v, (const char *)ev->data + off, (size_t)size);	/* little endian */
	return v;
}

/* tep's text after "gfp_flags=" for this record, cached by value. */
static const char *fast_gfp(struct fast_event *f, struct tep_handle *tep,
			    struct td_event *ev, uint64_t gfp)
{
	struct trace_seq t;
	const char *at;
	int i;

	for (i = 0; i < f->ngfp; i++)
		if (f->gfp[i] == gfp)
			return f->gfp_text[i];
	trace_seq_init(&t);
	tep_print_event(tep, &t, &ev->record, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&t);
	at = t.buffer ? strstr(t.buffer, " gfp_flags=") : NULL;
	if (!at || strlen(at + 11) >= sizeof(f->gfp_text[0])) {
		trace_seq_destroy(&t);
		return NULL;
	}
	i = f->ngfp < FAST_GFP ? f->ngfp++ : f->next_gfp++ % FAST_GFP;
	f->gfp[i] = gfp;
	strcpy(f->gfp_text[i], at + 11);
	trace_seq_destroy(&t);
	return f->gfp_text[i];
}

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

static char *put_hex(char *p, unsigned long long v)
{
	char tmp[16];
	int n = 0;

	do {
		tmp[n++] = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v);
	while (n)
		*p++ = tmp[--n];
	return p;
}

/* 1 when the fields went into s; 0 to print them through tep. */
static int fast_info(struct trace_seq *s, struct tep_handle *tep, struct td_event *ev)
{
	struct fast_event *f = event_fast_enabled() ? fast_slot(tep, ev->event) : NULL;
	char line[512], *p = line;
	uint64_t pfn;
	const char *gfp = NULL;

	if (!f || ev->size < 8)
		return 0;
	if (f->pfn_off + 8 > ev->size || f->order_off + 4 > ev->size ||
	    (f->alloc && (f->mt_off + 4 > ev->size || f->gfp_off + f->gfp_size > ev->size)))
		return 0;
	pfn = load(ev, f->pfn_off, 8);
	if (pfn == 0 || pfn == UINT64_MAX)
		return 0;
	if (f->alloc) {
		gfp = fast_gfp(f, tep, ev, load(ev, f->gfp_off, f->gfp_size));
		if (!gfp)
			return 0;
	}
	/* at most 2 x 18 + 2 x 11 + 45 bytes before gfp, under 256 in it */
	p = put_hex(put_str(p, "page=0x"), pfn);
	p = put_hex(put_str(p, " pfn=0x"), pfn);
	p = put_dec(put_str(p, " order="), (int)(uint32_t)load(ev, f->order_off, 4), 0, ' ');
	if (f->alloc) {
		p = put_dec(put_str(p, " migratetype="), (int)(uint32_t)load(ev, f->mt_off, 4), 0, ' ');
		p = put_str(put_str(p, " gfp_flags="), gfp);
	}
	*p = 0;
	if (!f->state) {	/* first time: tep must agree, or never again */
		struct trace_seq t;

		trace_seq_init(&t);
		tep_print_event(tep, &t, &ev->record, "%s", TEP_PRINT_INFO);
		trace_seq_terminate(&t);
		f->state = t.buffer && !strcmp(t.buffer, line) ? 1 : -1;
		trace_seq_destroy(&t);
		if (f->state < 0)
			return 0;
	}
	trace_seq_puts(s, line);
	return 1;
}

void event_format(struct trace_seq *s, struct tep_handle *tep, const char *buffer_name,
		  struct td_event *ev)
{
	int pid = event_fast_pid(tep, ev);
	const char *comm = event_fast_comm(tep, pid);
	/* microseconds, rounded as trace-cmd prints them */
	unsigned long long us = (ev->ts + 500) / 1000;
	int named = 0;

	trace_seq_reset(s);
	if (buffer_name && *buffer_name)
		trace_seq_printf(s, "%s: ", buffer_name);
	if (strlen(comm) < 64) {
		/* the same prefix as the printf below, without vfprintf */
		char pre[256], *p = pre;
		size_t n = strlen(comm);

		for (; n < 16; n++)
			*p++ = ' ';
		p = put_str(p, comm);
		*p++ = '-';
		p = put_dec(p, pid, -7, ' ');
		p = put_str(p, " [");
		p = put_dec(p, ev->cpu, 3, '0');
		p = put_str(p, "] ");
		p = put_dec(p, (long long)(us / 1000000ULL), 6, ' ');
		*p++ = '.';
		{	/* microseconds: always six digits, three pairs */
			unsigned u6 = (unsigned)(us % 1000000ULL);

			for (int k = 4; k >= 0; k -= 2, u6 /= 100) {
				p[k] = digit_pairs[(u6 % 100) * 2];
				p[k + 1] = digit_pairs[(u6 % 100) * 2 + 1];
			}
			p += 6;
		}
		p = put_str(p, ": ");
		/* and "system:name: ", in the same write */
		if (ev->event && strlen(ev->event->system) + strlen(ev->event->name) < 80) {
			p = put_str(p, ev->event->system);
			*p++ = ':';
			p = put_str(p, ev->event->name);
			p = put_str(p, ": ");
			named = 1;
		}
		*p = 0;
		trace_seq_puts(s, pre);
	} else {
		trace_seq_printf(s, "%16s-%-7d [%03d] %6llu.%06llu: ", comm, pid, ev->cpu,
				 us / 1000000ULL, us % 1000000ULL);
	}
	if (ev->event) {
		if (!named)
			trace_seq_printf(s, "%s:%s: ", ev->event->system, ev->event->name);
		if (!fast_info(s, tep, ev) && !event_fast_info(s, tep, ev))
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
