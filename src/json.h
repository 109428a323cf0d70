/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one JSON writer: every JSON mmscope prints (report, compare, later
 * exports) goes through it, so escaping, commas, indentation and "not
 * measured" look the same everywhere. It appends to a strbuf and does no
 * I/O.
 *
 * Layout. A block container (json_object, json_array) puts each member on
 * its own line, two spaces deeper per level; an empty one is "{}" or "[]".
 * The root object's members start in column 0 (JSON_ROOT_FLUSH, the
 * report's layout since it was written) or column 2 (JSON_ROOT_INDENT).
 * An inline container (json_object_inline, json_array_inline) keeps its
 * members on one line, separated by ", "; json_wrap() starts its next
 * member on a continuation line, indented one column less than a block
 * member at that depth would be (the compare table's layout).
 *
 * Members: inside an object pass the key, inside an array pass NULL.
 *
 * Strings are escaped as RFC 8259 asks: '"' and '\\' with a backslash,
 * control characters (below 0x20) as \u00XX. Bytes from 0x80 up pass
 * through when they form valid UTF-8 (no overlong forms, no surrogates,
 * nothing above U+10FFFF); every byte that does not is written as
 * \ufffd, the replacement character, so the output is always valid JSON
 * and always valid UTF-8 (kernel task names are bytes, not text).
 *
 * Numbers: integers as they are; doubles with fixed decimals (json_fixed)
 * or 10 significant digits (json_g); NaN and infinities, which JSON
 * cannot hold, as null. A value that was not measured (a counter the
 * kernel lacks, a field its tracepoint has not) is null too, never 0 or
 * -1: use the *_or_null helpers.
 */
#ifndef MMSCOPE_JSON_H
#define MMSCOPE_JSON_H

#include <stdint.h>

#include "util.h"

#define JSON_MAX_DEPTH 32

enum json_root { JSON_ROOT_FLUSH, JSON_ROOT_INDENT };

struct json_level {
	char close;		/* '}' or ']' */
	unsigned char inl;	/* members on one line */
	unsigned char empty;	/* no member written yet */
};

struct json_writer {
	struct strbuf *sb;
	int depth;		/* open containers, the root included */
	int root_indent;	/* columns before the root's members */
	int wrap;		/* the next inline member starts a new line */
	int misuse;		/* a key in an array, none in an object, too deep,
				 * a close too many: a bug in the caller */
	struct json_level lv[JSON_MAX_DEPTH];
};

/* Opens the root object. */
void json_begin(struct json_writer *w, struct strbuf *sb, enum json_root root);
/* Opens a root object whose members stay on one line (one JSON Lines
 * record: {"a": 1, "b": null}); json_end closes it. */
void json_begin_line(struct json_writer *w, struct strbuf *sb);
/* Closes whatever is still open and ends the text with a newline. */
void json_end(struct json_writer *w);

void json_object(struct json_writer *w, const char *key);
void json_array(struct json_writer *w, const char *key);
void json_object_inline(struct json_writer *w, const char *key);
void json_array_inline(struct json_writer *w, const char *key);
void json_close(struct json_writer *w);
void json_wrap(struct json_writer *w);

void json_str(struct json_writer *w, const char *key, const char *s);
void json_u64(struct json_writer *w, const char *key, uint64_t v);
void json_s64(struct json_writer *w, const char *key, int64_t v);
void json_bool(struct json_writer *w, const char *key, int v);
void json_null(struct json_writer *w, const char *key);
/* decimals digits after the point (0 to 17); NaN and inf: null. */
void json_fixed(struct json_writer *w, const char *key, double v, int decimals);
/* %.10g; NaN and inf: null; -0 as 0. */
void json_g(struct json_writer *w, const char *key, double v);

/* v, or null when !known ("not measured"). */
void json_u64_or_null(struct json_writer *w, const char *key, uint64_t v, int known);
void json_s64_or_null(struct json_writer *w, const char *key, int64_t v, int known);

/* s escaped and quoted (no member bookkeeping): for keys and callers
 * that build a string outside a writer. */
void json_quote(struct strbuf *sb, const char *s);

/* s appended as valid UTF-8, as the writer would: every byte that is
 * not part of a valid sequence becomes U+FFFD (for CSV beside JSON). */
void utf8_clean(struct strbuf *sb, const char *s);

#endif
