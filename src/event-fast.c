// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fast text for events with simple print formats (see event-fast.h).
 *
 * An event's print format is compiled once into segments:
 *  - LIT: text between conversions;
 *  - NUM: a conversion of one plain field (REC->x), formatted here with
 *    the cast libtraceevent applies for the length modifier (it reads the
 *    field zero-extended, then casts to int, long or long long);
 *  - PFN: "%p" of ((struct page *)vmemmap_base) + (REC->pfn): libtraceevent
 *    cannot know vmemmap_base (an atom, 0) and prints the pfn as a pointer;
 *    NUM and PFN also behind "REC->pfn != -1UL ? ... : ..." (mm_page_alloc),
 *    the line of a pfn of all ones left to libtraceevent;
 *  - MEMO: anything else (__print_symbolic, __print_flags, a ternary) of
 *    at most two fields of up to 8 bytes: its text depends on those
 *    fields alone, so it is taken from libtraceevent's own line the first
 *    time a value is seen and remembered by value.
 * A format with other conversions (precision, '*', strings from dynamic
 * fields, arrays) is not compiled: libtraceevent prints it.
 *
 * Trust is earned per event: the first CHECK_LINES lines of each event
 * are compared with tep_print_event's, a memo miss is always taken from
 * and compared with it, and an event whose memos keep missing (a field
 * like pfn that is new every time) goes back to libtraceevent for good.
 */
#include "config.h"
#include "event-fast.h"
#include "util.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SEGS	40
#define MEMO_SLOTS	64	/* per MEMO segment, direct mapped (>> 58) */
#define MEMO_TEXT	160
#define CHECK_LINES	16
#define LINE_MAX_LEN	EVENT_FAST_LINE_MAX

#define FMT_PAD		32

enum seg_kind { SEG_LIT, SEG_NUM, SEG_PFN, SEG_MEMO, SEG_STR };

/*
 * n bytes of src to p, for the short runs a line is made of: a copy of a
 * constant 16 or 32 bytes is two or four moves instead of a call to
 * memcpy. Both sides must allow 32 bytes (build keeps 300 bytes of room
 * at the end of a line, literals have FMT_PAD after them, memo texts
 * are MEMO_TEXT long).
 */
static inline char *copy_short(char *p, const char *src, size_t n)
{
	if (n <= 16)
		memcpy(p, src, 16);
	else if (n <= 32)
		memcpy(p, src, 32);
	else
		memcpy(p, src, n);
	return p + n;
}

struct memo {
	uint64_t key[2];
	int used;
	int len;		/* of text */
	char text[MEMO_TEXT];
};

struct seg {
	enum seg_kind kind;
	const char *lit;	/* SEG_LIT: into fe->fmt copy, NUL-ended */
	int litlen;
	int off[2], size[2];	/* field(s) read: NUM/PFN one, MEMO up to two */
	int nfields;
	char conv;		/* d i u x X */
	int lmod;		/* 0 int, 1 long, 2 long long, -1 short, -2 char */
	int psym;		/* %ps/%pS: a symbol's name (a MEMO) */
	int dyn, rel;		/* STR: __data_loc string (rel: __rel_loc) */
	int width, left, zero;	/* NUM: %-8d, %08x ... */
	int guard;		/* NUM/PFN: the field all ones is libtraceevent's
				 * to print (REC->pfn != -1UL ? ... : ...) */
	struct memo *memo;	/* MEMO_SLOTS */
	uint64_t lookups, misses;
};

struct fast_entry {
	const struct tep_event *event;
	int id;
	int state;		/* 1 compiled and on, -1 libtraceevent prints it */
	int stack_off;		/* ftrace:kernel_stack: its frames' offset (see
				 * build_stack), else -1 */
	int checked;		/* lines compared with tep so far */
	char *fmt;		/* our copy of the format, segments point into it */
	int nsegs;
	struct seg segs[MAX_SEGS];
};

/* tep's pid -> comm lookup is a binary search each time; a task's events
 * come in runs, so the last answers are kept (tep's own strings: they
 * live as long as tep, which outlives the formatter). */
struct comm_memo {
	int pid;
	const char *comm;
};

/*
 * Everything learned about one tep's events: the compiled formats, the
 * memos, the names. One instance per reader of a tep (dump, the TUI's
 * events view), never shared between threads, freed before the tep.
 */
struct event_fast {
	struct tep_handle *tep;
	struct fast_entry **table;
	size_t ntable, cap;
	size_t last;		/* the last entry found */
	int disabled;		/* MMSCOPE_FAST_FORMAT=0 */
	int pid_off;		/* common_pid's place; -1 ask tep_data_pid, -2 not yet */
	struct tep_handle *names;	/* tasks named from here (NULL: tep) */
	struct comm_memo comms[64];
};

/* ---- compiling ---- */

static struct tep_format_field *plain_field(struct tep_event *e, struct tep_print_arg *a)
{
	struct tep_format_field *f;

	if (!a || a->type != TEP_PRINT_FIELD || !a->field.name)
		return NULL;
	f = tep_find_any_field(e, a->field.name);
	if (!f || (f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC |
			       TEP_FIELD_IS_STRING | TEP_FIELD_IS_RELATIVE)))
		return NULL;
	if (f->size != 1 && f->size != 2 && f->size != 4 && f->size != 8)
		return NULL;
	return f;
}

/* The fields an argument reads, at most two; -1 if it reads anything
 * else (a dynamic field, a function, a string field). */
static int arg_fields(struct tep_event *e, struct tep_print_arg *a, struct seg *sg)
{
	struct tep_format_field *f;

	if (!a)
		return 0;
	switch (a->type) {
	case TEP_PRINT_NULL:
	case TEP_PRINT_ATOM:
		return 0;
	case TEP_PRINT_FIELD:
		f = plain_field(e, a);
		if (!f)
			return -1;
		for (int i = 0; i < sg->nfields; i++)
			if (sg->off[i] == f->offset)
				return 0;
		if (sg->nfields == 2)
			return -1;
		sg->off[sg->nfields] = f->offset;
		sg->size[sg->nfields++] = f->size;
		return 0;
	case TEP_PRINT_TYPE:
		return arg_fields(e, a->typecast.item, sg);
	case TEP_PRINT_FLAGS:
		return arg_fields(e, a->flags.field, sg);
	case TEP_PRINT_SYMBOL:
		return arg_fields(e, a->symbol.field, sg);
	case TEP_PRINT_OP:
		if (arg_fields(e, a->op.left, sg) < 0)
			return -1;
		return arg_fields(e, a->op.right, sg);
	case TEP_PRINT_STRING:
		/* a constant "sync"/"async" in a ternary; a string field is not */
		return a->string.field ? -1 : 0;
	default:
		return -1;
	}
}

/* ((struct page *)vmemmap_base) + (REC->pfn): the pfn field, else NULL */
static struct tep_format_field *pfn_pointer(struct tep_event *e, struct tep_print_arg *a)
{
	struct tep_print_arg *l;
	struct tep_format_field *f;

	if (!a || a->type != TEP_PRINT_OP || !a->op.op || strcmp(a->op.op, "+"))
		return NULL;
	l = a->op.left;
	while (l && l->type == TEP_PRINT_TYPE)
		l = l->typecast.item;
	if (!l || l->type != TEP_PRINT_ATOM || !l->atom.atom ||
	    strcmp(l->atom.atom, "vmemmap_base"))
		return NULL;
	f = plain_field(e, a->op.right);
	return f && f->size == 8 ? f : NULL;
}

/* a TEP_PRINT_TYPE's item, through any number of casts/parentheses */
static struct tep_print_arg *untype(struct tep_print_arg *a)
{
	while (a && a->type == TEP_PRINT_TYPE)
		a = a->typecast.item;
	return a;
}

/* -1, -1UL ...: an atom, or unary minus (an OP "-" without a left side)
 * of the atom 1 */
static int minus_one(struct tep_print_arg *a)
{
	const char *at;

	if (a && a->type == TEP_PRINT_OP && a->op.op && !strcmp(a->op.op, "-") &&
	    (!a->op.left || a->op.left->type == TEP_PRINT_NULL)) {
		a = untype(a->op.right);
		at = a && a->type == TEP_PRINT_ATOM ? a->atom.atom : NULL;
		return at && at[0] == '1' && !at[1 + strspn(at + 1, "uUlL")];
	}
	at = a && a->type == TEP_PRINT_ATOM ? a->atom.atom : NULL;
	return at && !strncmp(at, "-1", 2) && !at[2 + strspn(at + 2, "uUlL")];
}

/*
 * "REC->f != -1UL ? YES : NO" (mm_page_alloc's page and pfn since 5.x):
 * the field f when the condition is that one, with *yes the YES branch.
 * The caller formats YES and leaves f == all ones to libtraceevent.
 */
static struct tep_format_field *guarded(struct tep_event *e, struct tep_print_arg *a,
					struct tep_print_arg **yes)
{
	struct tep_print_arg *c, *br;
	struct tep_format_field *f;

	a = untype(a);
	if (!a || a->type != TEP_PRINT_OP || !a->op.op || strcmp(a->op.op, "?"))
		return NULL;
	c = untype(a->op.left);
	br = a->op.right;
	if (!c || c->type != TEP_PRINT_OP || !c->op.op || strcmp(c->op.op, "!=") ||
	    !br || br->type != TEP_PRINT_OP || !br->op.op || strcmp(br->op.op, ":"))
		return NULL;
	f = plain_field(e, untype(c->op.left));
	if (!f || f->size != 8 || !minus_one(untype(c->op.right)))
		return NULL;
	*yes = br->op.left;
	return f;
}

/*
 * "%s" of a char array (comm[16], or buf[] to the record's end) or of a
 * __get_str()/__get_rel_str() string: fills sg's field, 1; else 0. What
 * libtraceevent prints (print_str_arg): an array's bytes up to the first
 * NUL within it; a dynamic string from its data_loc up to its NUL.
 */
static int string_arg(struct tep_event *e, struct tep_print_arg *a, struct seg *sg)
{
	struct tep_format_field *f;

	if (!a)
		return 0;
	if (a->type == TEP_PRINT_FIELD && a->field.name) {
		f = tep_find_any_field(e, a->field.name);
		/* not an array of a long's size: libtraceevent prints that as
		 * a pointer */
		if (!f || !(f->flags & TEP_FIELD_IS_ARRAY) ||
		    (f->flags & (TEP_FIELD_IS_DYNAMIC | TEP_FIELD_IS_RELATIVE)) ||
		    f->size < 0 || f->size > 4096)
			return 0;
		sg->off[0] = f->offset;
		sg->size[0] = f->size;	/* 0: to the record's end */
		sg->nfields = 1;
		return 1;
	}
	if (a->type == TEP_PRINT_STRING && a->string.string) {
		f = tep_find_any_field(e, a->string.string);
		if (!f || !(f->flags & TEP_FIELD_IS_DYNAMIC) || f->size != 4)
			return 0;
		sg->dyn = 1;
		sg->rel = !!(f->flags & TEP_FIELD_IS_RELATIVE);
		sg->off[0] = f->offset;
		sg->size[0] = 4;
		sg->nfields = 1;
		return 1;
	}
	return 0;
}

/* One conversion spec at p (after '%'): fills sg, returns its length or
 * -1 when it is not one we format. */
static int parse_spec(const char *p, struct seg *sg)
{
	const char *q = p;

	for (; *q == '-' || *q == '0'; q++) {
		if (*q == '-')
			sg->left = 1;
		else
			sg->zero = 1;
	}
	while (isdigit((unsigned char)*q))
		sg->width = sg->width * 10 + (*q++ - '0');
	if (*q == 'l') {
		sg->lmod = 1;
		if (*++q == 'l') {
			sg->lmod = 2;
			q++;
		}
	} else if (*q == 'L') {		/* the kernel's long long (kprobe u64) */
		sg->lmod = 2;
		q++;
	} else if (*q == 'h') {		/* printf's own cast of the int */
		sg->lmod = -1;
		if (*++q == 'h') {
			sg->lmod = -2;
			q++;
		}
	}
	if (!strchr("diuxXsp", *q) || !*q || sg->width > 64 ||
	    (sg->lmod < 0 && !strchr("diuxX", *q)))
		return -1;
	sg->conv = *q;
	/* libtraceevent takes a letter after %p as part of it: %ps and %pS
	 * print a symbol, others (%pf, %pM, ...) are not ours */
	if (*q == 'p' && isalnum((unsigned char)q[1])) {
		if (q[1] != 's' && q[1] != 'S')
			return -1;
		sg->psym = 1;
		q++;
	}
	return (int)(q - p) + 1;
}

static void add_lit(struct fast_entry *fe, char *start, char *end)
{
	struct seg *sg;

	if (end == start)
		return;
	sg = &fe->segs[fe->nsegs++];
	sg->kind = SEG_LIT;
	sg->lit = start;
	sg->litlen = (int)(end - start);
}

/*
 * Literal text is copied into fe->fmt with "%%" collapsed, each run
 * NUL-ended so that a segment can point into it.
 */
static int compile(struct fast_entry *fe, struct tep_handle *tep, struct tep_event *e)
{
	const char *f = e->print_fmt.format;
	struct tep_print_arg *arg = e->print_fmt.args;
	char *out, *run;

	if (!f || tep_is_file_bigendian(tep) || tep_get_long_size(tep) != 8)
		return -1;
	/* + FMT_PAD: copy_short may read that far past a literal's end */
	fe->fmt = out = xcalloc(1, 2 * strlen(f) + 2 + FMT_PAD);
	run = out;
	while (*f) {
		struct seg sg = { 0 };
		struct tep_format_field *fld, *g;
		struct tep_print_arg *yes = NULL;
		int n;

		if (*f != '%') {
			*out++ = *f++;
			continue;
		}
		if (f[1] == '%') {
			*out++ = '%';
			f += 2;
			continue;
		}
		n = parse_spec(f + 1, &sg);
		if (n < 0 || !arg || fe->nsegs + 2 > MAX_SEGS)
			return -1;
		*out++ = '\0';
		add_lit(fe, run, out - 1);
		run = out;
		f += 1 + n;
		if ((g = guarded(e, arg, &yes)) && (sg.conv == 'p' ? pfn_pointer(e, untype(yes)) == g :
						    plain_field(e, untype(yes)) == g) &&
		    (sg.conv == 'p' || (strchr("xXu", sg.conv) && sg.lmod > 0))) {
			/* the branch taken for every field value but all ones
			 * (then libtraceevent prints the line) */
			if (sg.width || sg.left || sg.zero)
				return -1;
			sg.kind = sg.conv == 'p' ? SEG_PFN : SEG_NUM;
			sg.guard = 1;
			sg.off[0] = g->offset;
			sg.size[0] = 8;
			sg.nfields = 1;
		} else if (sg.conv == 's' && string_arg(e, arg, &sg)) {
			if (sg.width || sg.left || sg.zero)
				return -1;
			sg.kind = SEG_STR;
		} else if (sg.psym) {
			/* the symbol's name depends on the address alone */
			if (sg.width || sg.left || sg.zero || arg_fields(e, arg, &sg) < 0 ||
			    sg.nfields != 1)
				return -1;
			sg.kind = SEG_MEMO;
			sg.memo = xcalloc(MEMO_SLOTS, sizeof(*sg.memo));
		} else if (sg.conv == 'p') {
			fld = pfn_pointer(e, arg);
			if (!fld || sg.width || sg.left || sg.zero)
				return -1;
			sg.kind = SEG_PFN;
			sg.off[0] = fld->offset;
			sg.size[0] = 8;
			sg.nfields = 1;
		} else if (sg.conv != 's' && (fld = plain_field(e, arg)) &&
			   (fld->size >= (sg.lmod > 0 ? 8 : sg.lmod == -1 ? 2 :
					  sg.lmod == -2 ? 1 : 4) ||
			    !(fld->flags & TEP_FIELD_IS_SIGNED))) {
			/* zero- and sign-extension agree (an unsigned field, or
			 * one at least as wide as the cast); a narrower signed
			 * field is a MEMO: its text comes from libtraceevent */
			sg.kind = SEG_NUM;
			sg.off[0] = fld->offset;
			sg.size[0] = fld->size;
			sg.nfields = 1;
		} else {
			/* its text must end where a distinctive literal begins
			 * (or at the end): checked after the loop */
			if (arg_fields(e, arg, &sg) < 0 || !sg.nfields)
				return -1;
			sg.kind = SEG_MEMO;
			sg.memo = xcalloc(MEMO_SLOTS, sizeof(*sg.memo));
		}
		fe->segs[fe->nsegs++] = sg;
		arg = arg->next;
	}
	*out++ = '\0';
	add_lit(fe, run, out - 1);
	if (arg)
		return -1;	/* more arguments than conversions */
	for (int i = 0; i < fe->nsegs; i++) {
		const struct seg *nx = i + 1 < fe->nsegs ? &fe->segs[i + 1] : NULL;

		if (fe->segs[i].kind != SEG_MEMO || !nx)
			continue;
		/* a memo's end is found by the literal after it: one with '='
		 * in it ("order=") cannot be inside a symbol or flag name, nor
		 * ':' or ' ' inside a symbol's (%ps) */
		if (nx->kind != SEG_LIT ||
		    (!memchr(nx->lit, '=', (size_t)nx->litlen) &&
		     !(fe->segs[i].psym && (nx->lit[0] == ':' || nx->lit[0] == ' '))))
			return -1;
	}
	return 0;
}

/*
 * ftrace:kernel_stack is printed by a handler (src/event-stack.c, as
 * trace-cmd's function plugin prints it), not by its print format: one
 * "=> FUNC (ADDR)" line per frame through trace_seq_printf, which was
 * most of a dump of a stack recording. The same text is made here (and
 * checked against the handler's like any compiled event): the offset of
 * the caller array, or -1 for any other event or a file this cannot read
 * (4-byte longs, big endian).
 */
static int stack_frames(struct tep_handle *tep, struct tep_event *e)
{
	struct tep_format_field *f;

	if (strcmp(e->system, "ftrace") || strcmp(e->name, "kernel_stack") ||
	    tep_is_file_bigendian(tep) || tep_get_long_size(tep) != 8)
		return -1;
	f = tep_find_any_field(e, "caller");
	return f ? f->offset : -1;
}

static void entry_free(struct fast_entry *fe)
{
	for (int i = 0; i < fe->nsegs; i++)
		free(fe->segs[i].memo);
	free(fe->fmt);
	free(fe);
}

/* e's entry, compiled on its first use (a set of files formats every
 * file's events with file 0's tep: entries are per event). */
static struct fast_entry *entry_find(struct event_fast *ef, struct tep_event *e)
{
	struct fast_entry *fe;
	size_t i, last = ef->last;

	/* events are few (tens): the last hit first, then a linear look */
	if (last < ef->ntable && ef->table[last]->event == e && ef->table[last]->id == e->id)
		return ef->table[last];
	for (i = 0; i < ef->ntable; i++)
		if (ef->table[i]->event == e && ef->table[i]->id == e->id) {
			ef->last = i;
			return ef->table[i];
		}
	fe = xcalloc(1, sizeof(*fe));
	fe->event = e;
	fe->id = e->id;
	fe->stack_off = stack_frames(ef->tep, e);
	fe->state = fe->stack_off >= 0 || !compile(fe, ef->tep, e) ? 1 : -1;
	if (ef->ntable == ef->cap) {
		ef->cap = ef->cap ? 2 * ef->cap : 32;
		ef->table = xrealloc(ef->table, ef->cap * sizeof(*ef->table));
	}
	ef->table[ef->ntable] = fe;
	ef->last = ef->ntable++;
	return fe;
}

void event_fast_report(const struct event_fast *ef, FILE *f)
{
	for (size_t i = 0; ef && i < ef->ntable; i++) {
		const struct fast_entry *fe = ef->table[i];
		uint64_t lk = 0, ms = 0;

		for (int k = 0; k < fe->nsegs; k++)
			lk += fe->segs[k].lookups, ms += fe->segs[k].misses;
		fprintf(f, "fast-format %s:%s %s checked=%d memo_lookups=%llu memo_misses=%llu\n",
			fe->event->system, fe->event->name, fe->state > 0 ? "on" : "off",
			fe->checked, (unsigned long long)lk, (unsigned long long)ms);
	}
}

struct event_fast *event_fast_new(struct tep_handle *tep)
{
	struct event_fast *ef = xcalloc(1, sizeof(*ef));
	const char *env = getenv("MMSCOPE_FAST_FORMAT");

	ef->tep = tep;
	ef->disabled = env && !strcmp(env, "0");
	ef->pid_off = -2;
	return ef;
}

void event_fast_free(struct event_fast *ef)
{
	if (!ef)
		return;
	for (size_t i = 0; i < ef->ntable; i++)
		entry_free(ef->table[i]);
	free(ef->table);
	free(ef);
}

void event_fast_set_names(struct event_fast *ef, struct tep_handle *names)
{
	ef->names = names;
	memset(ef->comms, 0, sizeof(ef->comms));	/* names of the old one */
}

const char *event_fast_comm(struct event_fast *ef, int pid)
{
	struct comm_memo *c = &ef->comms[(unsigned)pid % 64];

	if (c->pid != pid || !c->comm) {
		c->pid = pid;
		c->comm = tep_data_comm_from_pid(ef->names ? ef->names : ef->tep, pid);
	}
	return c->comm;
}

int event_fast_pid(struct event_fast *ef, struct td_event *ev)
{
	/* common_pid's place, found once (the same in every event) */
	if (ef->pid_off == -2) {
		struct tep_format_field *f = ev->event ?
			tep_find_common_field(ev->event, "common_pid") : NULL;

		if (!ev->event)
			return tep_data_pid(ef->tep, &ev->record);
		ef->pid_off = f && f->size == 4 && !tep_is_file_bigendian(ef->tep) ? f->offset : -1;
	}
	if (ef->pid_off >= 0 && ef->pid_off + 4 <= ev->size) {
		int32_t pid;

		memcpy(&pid, (const char *)ev->data + ef->pid_off, 4);
		return pid;
	}
	return tep_data_pid(ef->tep, &ev->record);
}

/* ---- printing ---- */

static uint64_t field(const struct td_event *ev, int off, int size)
{
	uint64_t v = 0;

	memcpy(&v, (const char *)ev->data + off, (size_t)size);	/* little endian */
	return v;
}

static const char digit_pairs[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

/* u in decimal: two digits a division, right to left, then in place */
static char *put_udec(char *p, unsigned long long u)
{
	char tmp[24], *t = tmp + sizeof(tmp);
	size_t n;

	while (u >= 100) {
		unsigned d = (unsigned)(u % 100) * 2;

		u /= 100;
		*--t = digit_pairs[d + 1];
		*--t = digit_pairs[d];
	}
	if (u >= 10) {
		*--t = digit_pairs[u * 2 + 1];
		*--t = digit_pairs[u * 2];
	} else {
		*--t = (char)('0' + u);
	}
	n = (size_t)(tmp + sizeof(tmp) - t);
	memcpy(p, t, n);
	return p + n;
}

static char *put_hex(char *p, unsigned long long v, int upper)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char tmp[16];
	int n = 0;

	do {
		tmp[n++] = digits[v & 15];
		v >>= 4;
	} while (v);
	while (n)
		*p++ = tmp[--n];
	return p;
}

/* One NUM segment: what printf gives for the cast libtraceevent makes. */
static char *put_num(char *p, const struct seg *sg, uint64_t v)
{
	char tmp[32], *e = tmp;
	int neg = 0, len;
	unsigned long long u;

	if (sg->lmod == 0)
		v = (uint32_t)v;	/* (int)val */
	else if (sg->lmod == -1)	/* %h: printf converts the int to a short */
		v = sg->conv == 'd' || sg->conv == 'i' ? (uint64_t)(int64_t)(int16_t)v : (uint16_t)v;
	else if (sg->lmod == -2)
		v = sg->conv == 'd' || sg->conv == 'i' ? (uint64_t)(int64_t)(int8_t)v : (uint8_t)v;
	if (sg->conv == 'd' || sg->conv == 'i') {
		long long sv = sg->lmod ? (long long)v : (long long)(int32_t)(uint32_t)v;

		neg = sv < 0;
		u = neg ? 0ULL - (unsigned long long)sv : (unsigned long long)sv;
		e = put_udec(tmp, u);
	} else if (sg->conv == 'u') {
		e = put_udec(tmp, v);
	} else {
		e = put_hex(tmp, v, sg->conv == 'X');
	}
	len = (int)(e - tmp) + neg;
	if (!sg->left && !sg->zero)
		for (int w = len; w < sg->width; w++)
			*p++ = ' ';
	if (neg)
		*p++ = '-';
	if (!sg->left && sg->zero)
		for (int w = len; w < sg->width; w++)
			*p++ = '0';
	memcpy(p, tmp, (size_t)(e - tmp));
	p += e - tmp;
	if (sg->left)
		for (int w = len; w < sg->width; w++)
			*p++ = ' ';
	return p;
}

static struct memo *memo_slot(struct seg *sg, const struct td_event *ev, uint64_t key[2])
{
	key[0] = field(ev, sg->off[0], sg->size[0]);
	key[1] = sg->nfields > 1 ? field(ev, sg->off[1], sg->size[1]) : 0;
	/* the product's top bits: its low ones are the key's low ones, the
	 * same in most gfp masks (every value in one slot) */
	return &sg->memo[((key[0] ^ key[1] * 0xC2B2AE3D27D4EB4FULL) * 0x9E3779B97F4A7C15ULL) >> 58];
}

static void tep_info(struct trace_seq *t, struct tep_handle *tep, struct td_event *ev)
{
	trace_seq_init(t);
	tep_print_event(tep, t, &ev->record, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(t);
}

/* The stack handler's text (event-stack.c) into out: -2 if it does not
 * fit (libtraceevent prints that one). */
static int build_stack(struct event_fast *ef, const struct fast_entry *fe,
		       const struct td_event *ev, char *out)
{
	char *p = out, *end = out + LINE_MAX_LEN - 300;

	memcpy(p, "<stack trace >\n", 15);
	p += 15;
	for (int at = fe->stack_off; at + 8 <= ev->size; at += 8) {
		uint64_t addr = field(ev, at, 8);
		const char *func;
		size_t n;

		if (addr == UINT64_MAX || (int)addr == -1)
			break;
		func = tep_find_function(ef->tep, addr);
		n = func ? strlen(func) : 0;
		if ((size_t)(end - p) < n + 24)
			return -2;
		*p++ = '=';
		*p++ = '>';
		*p++ = ' ';
		if (func) {
			memcpy(p, func, n);
			p += n;
			*p++ = ' ';
			*p++ = '(';
			p = put_hex(p, addr, 0);
			*p++ = ')';
		} else {
			p = put_hex(p, addr, 0);
		}
		*p++ = '\n';
	}
	*p = '\0';
	return (int)(p - out);
}

/*
 * Builds the line into out. A MEMO segment that misses takes its text
 * from ref (libtraceevent's line of this event, made by the caller on
 * demand): *need_ref asks for it and nothing is built.
 */
static int build(struct fast_entry *fe, struct td_event *ev, const char *ref, char *out,
		 int *need_ref)
{
	char *p = out, *end = out + LINE_MAX_LEN - 300;	/* room for one segment */
	const char *r = ref;	/* where this segment starts in ref */

	for (int i = 0; i < fe->nsegs; i++) {
		struct seg *sg = &fe->segs[i];
		char *start = p;

		if (p >= end)
			return -1;
		switch (sg->kind) {
		case SEG_LIT:
			if (sg->litlen > end - p)
				return -1;
			p = copy_short(p, sg->lit, (size_t)sg->litlen);
			break;
		case SEG_NUM: {
			uint64_t v = field(ev, sg->off[0], sg->size[0]);

			if (sg->guard && v == UINT64_MAX)
				return -2;
			p = put_num(p, sg, v);
			break;
		}
		case SEG_PFN: {
			uint64_t pfn = field(ev, sg->off[0], 8);

			/* a null pointer: libtraceevent's own words */
			if (!pfn || (sg->guard && pfn == UINT64_MAX))
				return -2;
			*p++ = '0';
			*p++ = 'x';
			p = put_hex(p, pfn, 0);
			break;
		}
		case SEG_STR: {
			const char *d = ev->data;
			size_t at, lim, n;

			if (sg->dyn) {
				uint64_t loc = field(ev, sg->off[0], 4);

				at = (size_t)(loc & 0xffff) + (sg->rel ? (size_t)sg->off[0] + 4 : 0);
				lim = (size_t)ev->size;
			} else {
				at = (size_t)sg->off[0];
				lim = sg->size[0] ? at + (size_t)sg->size[0] : (size_t)ev->size;
			}
			if (at > (size_t)ev->size || lim > (size_t)ev->size)
				return -2;
			n = strnlen(d + at, lim - at);
			/* a dynamic string libtraceevent would read past the
			 * record for, or one too long for the line: its text */
			if ((sg->dyn && n == lim - at) || n > (size_t)(end - p))
				return -2;
			memcpy(p, d + at, n);
			p += n;
			break;
		}
		case SEG_MEMO: {
			uint64_t key[2];
			struct memo *m = memo_slot(sg, ev, key);
			const char *stop;
			size_t n;

			sg->lookups++;
			if (m->used && m->key[0] == key[0] && m->key[1] == key[1]) {
				n = (size_t)m->len;
				p = copy_short(p, m->text, n);
				break;
			}
			if (!ref) {
				*need_ref = 1;
				return -1;
			}
			sg->misses++;
			/* the text runs to the next literal, or to the end */
			if (i + 1 < fe->nsegs) {
				stop = strstr(r, fe->segs[i + 1].lit);
				if (!stop)
					return -1;
			} else {
				stop = r + strlen(r);
			}
			n = (size_t)(stop - r);
			if (n >= MEMO_TEXT)
				return -1;
			memcpy(m->text, r, n);
			m->text[n] = '\0';
			m->len = (int)n;
			m->key[0] = key[0];
			m->key[1] = key[1];
			m->used = 1;
			memcpy(p, r, n);
			p += n;
			break;
		}
		}
		if (ref) {	/* keep r in step with what was written */
			if (strncmp(r, start, (size_t)(p - start)))
				return -1;
			r += p - start;
		}
	}
	*p = '\0';
	return (int)(p - out);
}

/* An event whose memos miss on most lookups gains nothing from them. */
static int memo_useless(const struct fast_entry *fe)
{
	for (int i = 0; i < fe->nsegs; i++) {
		const struct seg *sg = &fe->segs[i];

		if (sg->kind == SEG_MEMO && sg->lookups >= 256 && sg->misses * 4 > sg->lookups)
			return 1;
	}
	return 0;
}

int event_fast_enabled(const struct event_fast *ef)
{
	return !ef->disabled;
}

/* Every field the segments read lies inside this record. */
static int fields_fit(const struct fast_entry *fe, const struct td_event *ev)
{
	for (int i = 0; i < fe->nsegs; i++)
		for (int k = 0; k < fe->segs[i].nfields; k++)
			if (fe->segs[i].off[k] + fe->segs[i].size[k] > ev->size)
				return 0;
	return 1;
}

int event_fast_line(struct event_fast *ef, char *out, struct td_event *ev)
{
	struct fast_entry *fe;
	int need = 0;

	if (ef->disabled || !ev->event)
		return -1;
	fe = entry_find(ef, ev->event);
	/* still being checked against libtraceevent: event_fast_info */
	if (fe->state < 0 || fe->checked < CHECK_LINES)
		return -1;
	if (fe->stack_off >= 0)
		return build_stack(ef, fe, ev, out);
	if (!fields_fit(fe, ev))
		return -1;
	return build(fe, ev, NULL, out, &need);
}

int event_fast_info(struct event_fast *ef, struct trace_seq *s, struct td_event *ev)
{
	struct fast_entry *fe;
	struct trace_seq ref;
	char line[LINE_MAX_LEN];
	int need = 0, n;

	if (ef->disabled || !ev->event)
		return 0;
	fe = entry_find(ef, ev->event);
	if (fe->state < 0)
		return 0;
	if (fe->stack_off < 0 && !fields_fit(fe, ev))
		return 0;
	if (fe->checked >= CHECK_LINES) {
		n = fe->stack_off >= 0 ? build_stack(ef, fe, ev, line) :
		    build(fe, ev, NULL, line, &need);
		if (n >= 0) {
			trace_seq_puts(s, line);
			return 1;
		}
		if (!need)
			return 0;
	}
	/* checking, or a memo missed: libtraceevent's line is the reference */
	tep_info(&ref, ef->tep, ev);
	n = !ref.buffer ? -1 : fe->stack_off >= 0 ? build_stack(ef, fe, ev, line) :
	    build(fe, ev, ref.buffer, line, &need);
	if (n == -2) {
		/* a value whose text is libtraceevent's (a null page): this
		 * line is its, the event stays compiled */
	} else if (n < 0 || strcmp(line, ref.buffer)) {
		fe->state = -1;		/* never again for this event */
	} else {
		fe->checked++;
		if (memo_useless(fe))
			fe->state = -1;
	}
	trace_seq_puts(s, ref.buffer ? ref.buffer : "");
	trace_seq_destroy(&ref);
	return 1;
}
