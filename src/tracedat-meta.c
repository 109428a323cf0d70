// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * trace.dat reader, part 2: feed the metadata payloads (page header, event
 * formats, kallsyms, printk formats, saved cmdlines) to libtraceevent, and
 * attribute the CPUSTAT text to the buffers it describes.
 */
#include "config.h"
#include "tracedat-local.h"
#include "event-stack.h"
#include "fnv.h"

#include <ctype.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* One "tag\0 u64 n text" block of HEADER_INFO. */
static int header_part(const struct strbuf *hi, size_t *pos, const char *tag,
		       const char **text, uint64_t *n, char **err)
{
	size_t tl = strlen(tag) + 1;

	if (hi->len - *pos < tl + 8 || memcmp(hi->buf + *pos, tag, tl))
		return set_err(err, "HEADER_INFO: missing '%s'", tag);
	*pos += tl;
	*n = td_le64(hi->buf + *pos);
	*pos += 8;
	if (*n > hi->len - *pos)
		return set_err(err, "HEADER_INFO: '%s' claims %llu bytes, section has %zu",
			       tag, (unsigned long long)*n, hi->len - *pos);
	*text = hi->buf + *pos;
	*pos += (size_t)*n;
	return 0;
}

/*
 * libtraceevent's format parser keeps its tokenizer in static variables
 * (event-parse.c: input_buf and its position), so two files' formats
 * parsed at once, as "mmscope compare" and "export" do on several
 * threads, would read each other's text: one parse at a time. Only the
 * library's calls are under the lock; our checks of each format run
 * beside the other threads'.
 */
static pthread_mutex_t meta_lock = PTHREAD_MUTEX_INITIALIZER;

static int parse_header_info(struct td_file *tf, char **err)
{
	const struct strbuf *hi = &tf->meta[TD_META_HEADER_INFO];
	const char *text = NULL;
	uint64_t n = 0;
	size_t pos = 0;
	char *copy;
	int r;

	if (header_part(hi, &pos, "header_page", &text, &n, err))
		return -1;
	copy = xmalloc((size_t)n + 1);
	memcpy(copy, text, (size_t)n);
	copy[n] = '\0';
	pthread_mutex_lock(&meta_lock);
	r = tep_parse_header_page(tf->tep, copy, (unsigned long)n, tf->long_size);
	pthread_mutex_unlock(&meta_lock);
	free(copy);
	if (r || tep_get_header_timestamp_size(tf->tep) != 8)
		return set_err(err, "HEADER_INFO: the ring-buffer page header does not parse");
	/*
	 * The header's long size is user space's; the kernel's is the size
	 * of the page's commit field (a 32-bit trace-cmd on a 64-bit kernel
	 * writes 4 here). Pages and kbuffer follow the kernel's.
	 */
	r = tep_get_header_page_size(tf->tep);
	if (r != 4 && r != 8)
		return set_err(err, "HEADER_INFO: commit field of %d bytes in the page header", r);
	if (r != tf->long_size) {
		tf->long_size = r;
		tep_set_long_size(tf->tep, r);
	}
	/*
	 * The header's page size must be the sub-buffer the page header
	 * describes: a larger one would hide every other page (a silent
	 * partial read), a smaller one cuts pages in half.
	 */
	r = tep_get_sub_buffer_size(tf->tep);
	if (r > 0 && (uint32_t)r != tf->page_size)
		return set_err(err, "page size %u in the file header does not match the ring-buffer page header (%d)",
			       tf->page_size, r);
	/* header_event is informational (trace-cmd ignores it too). */
	return 0;
}

/* The "ID: n" line of a format, or -1. */
static int format_id(const char *text, size_t n)
{
	const char *p = text, *end = text + n;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end;

		if (e - p > 4 && !memcmp(p, "ID: ", 4)) {
			long v = 0;

			for (p += 4; p < e && *p >= '0' && *p <= '9'; p++) {
				v = v * 10 + (*p - '0');
				if (v > 65535)
					return -1;
			}
			return (int)v;
		}
		p = e + 1;
	}
	return -1;
}

static int is_ident(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

/*
 * libtraceevent evaluates '/' and '%' in print args without a zero check:
 * at parse time for constants (a bare word counts as 0), at print time
 * for fields read from the record. A fuzzed "REC->nid%d" died of SIGFPE
 * in tep_parse_event. Real formats (6.18: 2305 of them) only divide by a
 * non-zero number or a sizeof, so anything else is refused.
 */
static int divisions_ok(const char *p, const char *end)
{
	int quote = 0;

	for (; p < end && *p != '\n'; p++) {
		if (quote) {
			if (*p == '\\' && p + 1 < end)
				p++;
			else if (*p == '"')
				quote = 0;
			continue;
		}
		if (*p == '"') {
			quote = 1;
			continue;
		}
		if (*p != '/' && *p != '%')
			continue;
		const char *q = p + 1;

		while (q < end && (*q == ' ' || *q == '\t' || *q == '('))
			q++;
		if (end - q >= 6 && !memcmp(q, "sizeof", 6))
			continue;
		if (q < end && *q >= '1' && *q <= '9')
			continue;
		if (end - q >= 3 && q[0] == '0' && (q[1] == 'x' || q[1] == 'X')) {
			const char *h = q + 2;

			while (h < end && *h == '0')
				h++;
			if (h < end && isxdigit((unsigned char)*h))
				continue;
		}
		return 0;
	}
	return 1;
}

/*
 * libtraceevent's print fmt parser follows NULL on some malformed
 * expressions (fuzzing found "cond ? word:16;(...)"). Kernel print fmts
 * are C expressions: brackets balance and nest, strings and character
 * constants end, each '?' meets its ':' at the same depth, ';' only
 * appears inside a "({ ... })" statement expression, and an operator has
 * something on its right (a trailing '=' after a string crashed the
 * parser, fuzzing found; '*' is left out: casts end in "*)", and '?' for
 * GNU's "?:"). Anything else is damaged text, refused before the library
 * sees it.
 */
static int print_fmt_sane(const char *p, const char *end)
{
	char stack[64];
	int pending[65] = { 0 };	/* '?' waiting for ':' per depth */
	int depth = 0, stmt = 0;	/* stmt: depth of "({" regions open */
	int stmt_at[64];
	int operand = 0;		/* an operator waits for its right side */

	for (; p < end; p++) {
		char c = *p;

		if (c == '"' || c == '\'') {
			for (p++; p < end && *p != c; p++)
				if (*p == '\\')
					p++;
			if (p >= end)
				return 0;	/* unterminated */
			operand = 0;
			continue;
		}
		if (strchr("+-/%&|^!~<>=", c)) {
			operand = 1;
			continue;
		}
		if (operand && strchr(")]},:;", c))
			return 0;
		if (isalnum((unsigned char)c) || c == '_' || c == '(' || c == '[' || c == '{')
			operand = 0;
		switch (c) {
		case '(': case '[': case '{':
			if (depth == (int)sizeof(stack))
				return 0;
			if (c == '{' && depth && stack[depth - 1] == '(' &&
			    p[-1] == '(' && stmt < (int)ARRAY_SIZE(stmt_at))
				stmt_at[stmt++] = depth + 1;
			stack[depth++] = c;
			pending[depth] = 0;
			break;
		case ')': case ']': case '}':
			if (!depth || pending[depth] ||
			    stack[depth - 1] != (c == ')' ? '(' : c == ']' ? '[' : '{'))
				return 0;
			if (stmt && stmt_at[stmt - 1] == depth)
				stmt--;
			depth--;
			break;
		case '?':
			pending[depth]++;
			break;
		case ':':
			if (!pending[depth])
				return 0;
			pending[depth]--;
			break;
		case ';':
			if (!stmt)
				return 0;
			break;
		default:
			/* '@', '$', '`', '#', '\\' are not C operators (a
			 * trailing '@' crashed the parser, fuzzing found) */
			if (!isalnum((unsigned char)c) && !strchr(" \t\n_,.+-*/%&|^!~<>=", c))
				return 0;
		}
	}
	return !depth && !pending[0] && !operand;
}

/*
 * libtraceevent 1.7.1 dereferences NULL while parsing a print fmt that
 * names a field the format does not declare (e.g. "REC->gfp_flags ?"
 * after the field line was damaged); found by fuzzing. The kernel only
 * ever writes REC->x for declared fields, so such a format is corrupt:
 * refuse it here instead of handing it to the library.
 */
static int format_refs_ok(const char *text, size_t n)
{
	const char *end = text + n, *p, *fmt;
	static const char tag[] = "print fmt:";
	const char *names[512];
	size_t lens[512];
	int nnames = 0;

	/*
	 * Control characters: a \x01 inside the print fmt string made
	 * libtraceevent divide by zero (fuzzing). Kernel format files are
	 * plain text: tabs and newlines only.
	 */
	for (p = text; p < end; p++)
		if (((unsigned char)*p < 0x20 && *p != '\t' && *p != '\n') ||
		    *p == 0x7f)
			return 0;
	fmt = NULL;
	for (p = text; p + sizeof(tag) - 1 <= end; p++) {
		if (*p == 'p' && !memcmp(p, tag, sizeof(tag) - 1)) {
			fmt = p;
			break;
		}
	}
	/*
	 * Bytes above 0x7e before the print fmt: "field:char buf[\xa9;"
	 * made libtraceevent's field parser strcmp() a NULL token (fuzzing).
	 * The kernel writes the header and field lines in ASCII; only the
	 * print fmt's strings could hold anything else.
	 */
	for (p = text; p < (fmt ? fmt : end); p++)
		if ((unsigned char)*p > 0x7e)
			return 0;
	if (!fmt)
		return 1;	/* nothing to print; the library copes */
	/* field declarations: "field:TYPE NAME[N];" -> NAME */
	for (p = text; p < fmt;) {
		const char *nl = memchr(p, '\n', (size_t)(fmt - p));
		const char *e = nl ? nl : fmt, *f, *semi, *q;

		f = p;
		while (f < e && (*f == ' ' || *f == '\t'))
			f++;
		if (e - f > 6 && !memcmp(f, "field:", 6) &&
		    (semi = memchr(f, ';', (size_t)(e - f)))) {
			q = semi;
			if (q > f && q[-1] == ']')	/* array: skip [..] */
				while (q > f && *q != '[')
					q--;
			while (q > f && !is_ident(q[-1]))
				q--;
			const char *name_end = q;

			while (q > f + 6 && is_ident(q[-1]))
				q--;
			if (name_end > q) {
				if (nnames == (int)ARRAY_SIZE(names))
					return 0;
				names[nnames] = q;
				lens[nnames++] = (size_t)(name_end - q);
			}
		}
		p = e + 1;
	}
	if (!divisions_ok(fmt + sizeof(tag) - 1, end) ||
	    !print_fmt_sane(fmt + sizeof(tag) - 1, end))
		return 0;
	for (p = fmt; p + 5 <= end; p++) {
		const char *q;
		int found = 0;

		if (*p != 'R' || memcmp(p, "REC->", 5))
			continue;
		p += 5;
		for (q = p; q < end && is_ident(*q); q++)
			;
		/* 7.x formats print REC->ent.pid: "ent" is the common header */
		found = q - p == 3 && !memcmp(p, "ent", 3);
		for (int i = 0; i < nnames && !found; i++)
			found = lens[i] == (size_t)(q - p) &&
				!memcmp(names[i], p, lens[i]);
		if (!found)
			return 0;
	}
	return 1;
}

/* The number after "KEY:" in a field line (libtraceevent reads it with
 * strtoul(.., 0) into an int), or LLONG_MIN when it is not there. */
static long long field_number(const char *f, const char *e, const char *key)
{
	size_t k = strlen(key);
	char buf[32];
	size_t n = 0;

	for (; f + k <= e; f++) {
		if (memcmp(f, key, k))
			continue;
		for (f += k; f < e && (*f == ' ' || *f == '\t'); f++)
			;
		while (f < e && *f != ';' && n < sizeof(buf) - 1)
			buf[n++] = *f++;
		buf[n] = '\0';
		return (long long)strtoull(buf, NULL, 0);
	}
	return LLONG_MIN;
}

/*
 * libtraceevent reads a field at its declared offset without checking it
 * against the record's size: "offset:0x7ffffffc;" made `mmscope dump`
 * die of SIGSEGV in tep_read_number() (fuzzing). An event record lies
 * within one ring-buffer page, so a field that does not fit in a page
 * (negative, or offset + size beyond it) marks a corrupt format.
 */
static int format_fields_fit(const char *text, size_t n, uint32_t page_size)
{
	const char *end = text + n, *p;
	long long lim = page_size ? page_size : 65536;

	for (p = text; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end, *f = p;

		while (f < e && (*f == ' ' || *f == '\t'))
			f++;
		if (e - f > 6 && !memcmp(f, "field:", 6)) {
			long long off = field_number(f, e, "offset:");
			long long size = field_number(f, e, "size:");

			if (off == LLONG_MIN || size == LLONG_MIN)
				;	/* not a field line the library reads */
			else if (off < 0 || size < 0 || off > lim || size > lim ||
				 off + size > lim)
				return 0;
		}
		if (e - f > 10 && !memcmp(f, "print fmt:", 10))
			break;
		p = e + 1;
	}
	return 1;
}

static void note_bad_format(struct td_file *tf, const char *sys,
			    const char *text, size_t n)
{
	const char *name = NULL;
	int id = format_id(text, n);

	if (!tf->bad_ids)
		tf->bad_ids = xcalloc(65536 / 8, 1);
	if (id >= 0)
		tf->bad_ids[id / 8] |= (uint8_t)(1u << (id % 8));
	else	/* no readable ID line: any id without a format may be it */
		tf->bad_noid = 1;
	tf->bad_formats++;
	if (tf->first_bad_format)
		return;
	/* "name: foo\n" is the first line of a format file */
	if (n > 6 && !strncmp(text, "name: ", 6)) {
		const char *e = memchr(text + 6, '\n', n - 6);

		if (e) {
			tf->first_bad_format = xasprintf("%s:%.*s", sys,
							 (int)(e - text - 6), text + 6);
			return;
		}
	}
	(void)name;
	tf->first_bad_format = xasprintf("%s:?", sys);
}

/*
 * 1 for a format td_open_only was not asked for: its name is kept for
 * td_has_format, its text never given to the parser. One without a
 * readable name line is parsed (and refused) as before.
 */
static int skip_format(struct td_file *tf, const char *sys, const char *text, size_t n)
{
	const char *e;
	char name[256];

	if (n <= 6 || strncmp(text, "name: ", 6) || !(e = memchr(text + 6, '\n', n - 6)) ||
	    (size_t)(e - text - 6) >= sizeof(name))
		return 0;
	memcpy(name, text + 6, (size_t)(e - text - 6));
	name[e - text - 6] = '\0';
	if (tf->want(sys, name))
		return 0;
	if (!(tf->nskipped & (tf->nskipped - 1)))
		tf->skipped = xreallocarray(tf->skipped, tf->nskipped ? 2 * (size_t)tf->nskipped : 64,
					    sizeof(*tf->skipped));
	tf->skipped[tf->nskipped].system = sys;
	tf->skipped[tf->nskipped].name = text + 6;
	tf->skipped[tf->nskipped++].name_len = (size_t)(e - text - 6);
	return 1;
}

/* count x (u64 n, text) starting at *pos, parsed as events of sys. */
static int parse_formats(struct td_file *tf, const struct strbuf *sb,
			 size_t *pos, uint32_t count, const char *sys,
			 const char *what, char **err)
{
	for (uint32_t i = 0; i < count; i++) {
		uint64_t n;

		if (sb->len - *pos < 8)
			return set_err(err, "%s: truncated at format %u of %u", what, i, count);
		n = td_le64(sb->buf + *pos);
		*pos += 8;
		if (n > sb->len - *pos)
			return set_err(err, "%s: format %u claims %llu bytes, section has %zu",
				       what, i, (unsigned long long)n, sb->len - *pos);
		if (tf->want && skip_format(tf, sys, sb->buf + *pos, (size_t)n)) {
			*pos += (size_t)n;
			continue;
		}
		if (!format_refs_ok(sb->buf + *pos, (size_t)n) ||
		    !format_fields_fit(sb->buf + *pos, (size_t)n, tf->page_size)) {
			note_bad_format(tf, sys, sb->buf + *pos, (size_t)n);
		} else {
			int r;

			pthread_mutex_lock(&meta_lock);
			r = tep_parse_event(tf->tep, sb->buf + *pos, (unsigned long)n, sys);
			pthread_mutex_unlock(&meta_lock);
			if (r)
				note_bad_format(tf, sys, sb->buf + *pos, (size_t)n);
		}
		*pos += (size_t)n;
	}
	return 0;
}

static int parse_ftrace(struct td_file *tf, char **err)
{
	const struct strbuf *sb = &tf->meta[TD_META_FTRACE];
	size_t pos = 4;

	if (!tf->have_meta[TD_META_FTRACE] || !sb->len)
		return 0;
	if (sb->len < 4)
		return set_err(err, "ftrace formats: truncated count");
	return parse_formats(tf, sb, &pos, td_le32(sb->buf), "ftrace",
			     "ftrace formats", err);
}

static int parse_events(struct td_file *tf, char **err)
{
	const struct strbuf *sb = &tf->meta[TD_META_EVENTS];
	uint32_t nsys;
	size_t pos = 4;

	if (!tf->have_meta[TD_META_EVENTS] || !sb->len)
		return 0;
	if (sb->len < 4)
		return set_err(err, "event formats: truncated count");
	nsys = td_le32(sb->buf);
	for (uint32_t i = 0; i < nsys; i++) {
		const char *sys = sb->buf + pos;
		const char *nul = memchr(sys, 0, sb->len - pos);

		if (!nul)
			return set_err(err, "event formats: system %u of %u has no name",
				       i, nsys);
		pos = (size_t)(nul - sb->buf) + 1;
		if (sb->len - pos < 4)
			return set_err(err, "event formats: truncated in system '%s'", sys);
		uint32_t count = td_le32(sb->buf + pos);

		pos += 4;
		if (parse_formats(tf, sb, &pos, count, sys, "event formats", err))
			return -1;
	}
	return 0;
}

/* A text section with a size prefix of 4 (kallsyms, printk) or 8 bytes. */
static int text_section(struct td_file *tf, enum td_meta m, int wide,
			const char **text, const char *what, char **err)
{
	const struct strbuf *sb = &tf->meta[m];
	size_t hl = wide ? 8 : 4;
	uint64_t n;

	*text = NULL;
	if (!tf->have_meta[m] || !sb->len)
		return 0;
	if (sb->len < hl)
		return set_err(err, "%s: truncated size", what);
	n = wide ? td_le64(sb->buf) : td_le32(sb->buf);
	if (n > sb->len - hl)
		return set_err(err, "%s: the size word says %llu bytes, the section holds %zu", what,
			       (unsigned long long)n, sb->len - hl);
	if (n)
		*text = sb->buf + hl;	/* the strbuf keeps a NUL after len */
	/* text must end where the section ends for the NUL to be ours */
	if (n && n != sb->len - hl)
		return set_err(err, "%s: %zu stray bytes after the text", what,
			       (size_t)(sb->len - hl - n));
	return 0;
}

int td_cmdlines_text(struct td_file *tf, const char **text, size_t *len, char **err)
{
	*text = NULL;
	*len = 0;
	if (td_meta_load(tf, TD_META_CMDLINES, err) ||
	    text_section(tf, TD_META_CMDLINES, 1, text, "saved cmdlines", err))
		return -1;
	if (*text)
		*len = tf->meta[TD_META_CMDLINES].len - 8;
	return 0;
}

static int parse_meta(struct td_file *tf, char **err)
{
	tf->tep = tep_alloc();
	if (!tf->tep)
		return set_err(err, "out of memory");
	tep_set_file_bigendian(tf->tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tf->tep, TEP_LITTLE_ENDIAN);
	tep_set_long_size(tf->tep, tf->long_size);
	tep_set_page_size(tf->tep, (int)tf->page_size);
	if (tf->cpucount)
		tep_set_cpus(tf->tep, tf->cpucount);
	if (parse_header_info(tf, err) || parse_ftrace(tf, err) ||
	    parse_events(tf, err))
		return -1;
	return 0;
}

/*
 * Saved cmdlines ("PID COMM" lines, as the kernel's saved_cmdlines and
 * trace-cmd write them) into tep. Our own reading, not
 * tep_parse_saved_cmdlines: its sscanf per line was a tenth of a window's
 * time over a set of parts of a busy host (7,000 lines a part). The same
 * lines: a pid, blanks, the rest of the line is the name; others are
 * skipped. seen (may be NULL): pairs registered before are not again
 * (libtraceevent keeps every registration until its first lookup: 16
 * parts of one host held 16 MB of copies).
 */
static int names_seen(struct td_names_seen *ns, uint64_t key)
{
	size_t i;

	key |= 1;	/* 0 marks a free slot */
	if (2 * (ns->n + 1) > ns->cap) {
		struct td_names_seen bigger = { 0 };

		bigger.cap = ns->cap ? 2 * ns->cap : 1024;
		bigger.h = xcalloc(bigger.cap, sizeof(*bigger.h));
		for (size_t k = 0; k < ns->cap; k++)
			if (ns->h[k])
				names_seen(&bigger, ns->h[k]);
		free(ns->h);
		*ns = bigger;
	}
	for (i = (key >> 17 ^ key) & (ns->cap - 1); ns->h[i]; i = (i + 1) & (ns->cap - 1))
		if (ns->h[i] == key)
			return 1;
	ns->h[i] = key;
	ns->n++;
	return 0;
}

void td_parse_cmdlines(struct tep_handle *tep, const char *text, size_t len,
		       struct td_names_seen *seen)
{
	const char *p = text, *end = text + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *c = p, *name;
		long long pid = 0;
		int digits = 0;

		if (!nl)
			nl = end;
		while (c < nl && (*c == ' ' || *c == '\t'))
			c++;
		for (; c < nl && *c >= '0' && *c <= '9' && pid <= INT32_MAX; c++, digits++)
			pid = pid * 10 + (*c - '0');
		name = c;
		while (name < nl && (*name == ' ' || *name == '\t'))
			name++;
		if (digits && pid <= INT32_MAX && name > c && name < nl) {
			size_t n = (size_t)(nl - name);
			char small[256], *comm = n < sizeof(small) ? small : xmalloc(n + 1);
			uint64_t h = 0;

			memcpy(comm, name, n);
			comm[n] = '\0';
			if (seen)
				h = fnv64_bytes(FNV64_BASIS, comm, n) ^
				    (uint64_t)pid * 0x9e3779b97f4a7c15ULL;
			if ((!seen || !names_seen(seen, h)) && tep)
				tep_register_comm(tep, comm, (int)pid);
			if (comm != small)
				free(comm);
		}
		p = nl + 1;
	}
}

/*
 * The text sections need no lock (only the format parser has static
 * state). Kallsyms are checked here and handed to libtraceevent on the
 * first td_tep(): only printing (dump, the events view) looks symbols up,
 * and a full /proc/kallsyms costs ~0.03 s to table (kallsyms.c), as much as a report
 * of a lab recording or a window of a large one.
 */
static int parse_text(struct td_file *tf, char **err)
{
	const char *text;

	if (text_section(tf, TD_META_KALLSYMS, 0, &text, "kallsyms", err))
		return -1;
	tf->syms_pending = text != NULL || (tf->meta_deferred & (1u << TD_META_KALLSYMS));
	event_stack_register(tf->tep);	/* kernel_stack as trace-cmd prints it */
	if (text_section(tf, TD_META_PRINTK, 0, &text, "printk formats", err))
		return -1;
	if (text && tep_parse_printk_formats(tf->tep, text))
		return set_err(err, "printk formats do not parse");
	if (text_section(tf, TD_META_CMDLINES, 1, &text, "saved cmdlines", err))
		return -1;
	if (text)
		td_parse_cmdlines(tf->tep, text, strlen(text), NULL);
	return 0;
}

int td_parse_meta(struct td_file *tf, char **err)
{
	return parse_meta(tf, err) ? -1 : parse_text(tf, err);
}

static pthread_mutex_t syms_lock = PTHREAD_MUTEX_INITIALIZER;

void td_parse_syms(struct td_file *tf)
{
	const char *text;

	if (!__atomic_load_n(&tf->syms_pending, __ATOMIC_ACQUIRE))
		return;
	pthread_mutex_lock(&syms_lock);
	if (tf->syms_pending) {
		/* checked at open; a failure (out of memory) leaves addresses
		 * unresolved, as libtraceevent prints them without symbols */
		/* deferred by td_open_only: a section that does not read
		 * leaves the addresses unnamed, as a file without kallsyms */
		if (tf->kallsyms_off &&
		    !td_read_section(tf, tf->kallsyms_off, TD_SEC_KALLSYMS,
				     &tf->meta[TD_META_KALLSYMS], NULL))
			tf->have_meta[TD_META_KALLSYMS] = 1;
		tf->kallsyms_off = 0;
		if (!text_section(tf, TD_META_KALLSYMS, 0, &text, "kallsyms", NULL) && text) {
			tf->ksyms = kallsyms_parse(text);
			kallsyms_attach(tf->ksyms, tf->tep);
		}
		__atomic_store_n(&tf->syms_pending, 0, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&syms_lock);
}

static struct td_buffer *buffer_by_name(struct td_file *tf, const char *name)
{
	for (int i = 0; i < tf->nbuffers; i++)
		if (!strcmp(tf->buffers[i].name, name))
			return &tf->buffers[i];
	return NULL;
}

/*
 * CPUSTAT text: "CPU: N" starts a CPU, "Buffer: NAME" switches to an
 * instance (trace-cmd's layout); stats lines are "key: value".
 */
void td_parse_cpustats(struct td_file *tf)
{
	struct td_buffer *b = buffer_by_name(tf, "");
	struct td_cpustat *cs = NULL;
	char *text, *line, *save = NULL;

	if (!tf->cpustat.len)
		return;
	text = xstrdup(tf->cpustat.buf);
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *colon = strchr(line, ':');
		unsigned long long v;

		if (!colon)
			continue;
		*colon = '\0';
		const char *val = colon + 1 + strspn(colon + 1, " \t");

		if (!strcmp(line, "Buffer")) {
			b = buffer_by_name(tf, val);
			cs = NULL;
			continue;
		}
		if (!strcmp(line, "CPU")) {
			cs = NULL;
			if (b && !parse_ull(val, &v) && v < (unsigned long long)b->ncpus) {
				cs = &b->stats[v];
				cs->present = 1;
			}
			continue;
		}
		if (!cs || parse_ull(val, &v))
			continue;
		if (!strcmp(line, "entries"))
			cs->entries = v;
		else if (!strcmp(line, "overrun"))
			cs->overrun = v;
		else if (!strcmp(line, "commit overrun"))
			cs->commit_overrun = v;
		else if (!strcmp(line, "dropped events"))
			cs->dropped = v;
		else if (!strcmp(line, "read events"))
			cs->read = v;
	}
	free(text);
}

int td_bad_id(const struct td_file *tf, int id)
{
	if (tf->bad_noid)
		return 1;
	return tf->bad_ids && id >= 0 && id < 65536 &&
	       (tf->bad_ids[id / 8] >> (id % 8) & 1);
}

const char *td_cpustat_text(const struct td_file *tf, size_t *len)
{
	*len = tf->cpustat.len;
	return tf->cpustat.len ? tf->cpustat.buf : NULL;
}
