// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The JSON writer (see json.h for the layout and escaping rules). Each
 * value first goes through json_member(), which writes the separator,
 * the line break and indentation its container asks for, and the key.
 */
#include "config.h"
#include "json.h"

#include <math.h>
#include <stdio.h>

static void indent(struct json_writer *w, int cols)
{
	for (int i = 0; i < cols; i++)
		strbuf_addch(w->sb, ' ');
}

/* Columns before a block member at depth d (the root's members: d = 1). */
static int member_indent(const struct json_writer *w, int d)
{
	return w->root_indent + 2 * (d - 1);
}

static struct json_level *top(struct json_writer *w)
{
	return w->depth > 0 && w->depth <= JSON_MAX_DEPTH ? &w->lv[w->depth - 1] : NULL;
}

/* Length of the valid UTF-8 sequence at s (a byte >= 0x80), or 0. */
static int utf8_len(const unsigned char *s)
{
	unsigned c = s[0], cp;
	int n;

	if (c >= 0xc2 && c <= 0xdf)
		n = 2, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, cp = c & 0x07;
	else
		return 0;	/* continuation byte, overlong lead or > U+10FFFF */
	for (int i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)	/* also stops at the NUL */
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

void utf8_clean(struct strbuf *sb, const char *str)
{
	const unsigned char *s = (const unsigned char *)(str ? str : "");
	int n;

	while (*s) {
		if (*s < 0x80) {
			strbuf_addch(sb, *s++);
		} else if ((n = utf8_len(s))) {
			strbuf_add(sb, s, (size_t)n);
			s += n;
		} else {
			strbuf_addstr(sb, "\xef\xbf\xbd");
			s++;
		}
	}
}

void json_quote(struct strbuf *sb, const char *str)
{
	const unsigned char *s = (const unsigned char *)(str ? str : "");

	strbuf_addch(sb, '"');
	while (*s) {
		int n;

		if (*s == '"' || *s == '\\') {
			strbuf_addch(sb, '\\');
			strbuf_addch(sb, *s++);
		} else if (*s < 0x20) {
			strbuf_addf(sb, "\\u%04x", *s++);
		} else if (*s < 0x80) {
			strbuf_addch(sb, *s++);
		} else if ((n = utf8_len(s))) {
			strbuf_add(sb, s, (size_t)n);
			s += n;
		} else {
			strbuf_addstr(sb, "\\ufffd");
			s++;
		}
	}
	strbuf_addch(sb, '"');
}

static void json_member(struct json_writer *w, const char *key)
{
	struct json_level *l = top(w);

	if (!l) {		/* a value outside the root, or too deep */
		w->misuse++;
		return;
	}
	if ((l->close == '}') != (key != NULL))
		w->misuse++;
	if (l->inl) {
		if (!l->empty)
			strbuf_addstr(w->sb, w->wrap ? "," : ", ");
		if (w->wrap && !l->empty) {
			strbuf_addch(w->sb, '\n');
			indent(w, member_indent(w, w->depth) - 1);
		}
	} else {
		if (!l->empty)
			strbuf_addch(w->sb, ',');
		strbuf_addch(w->sb, '\n');
		indent(w, member_indent(w, w->depth));
	}
	w->wrap = 0;
	l->empty = 0;
	if (key) {
		json_quote(w->sb, key);
		strbuf_addstr(w->sb, ": ");
	}
}

static void json_open(struct json_writer *w, const char *key, char open, int inl)
{
	json_member(w, key);
	strbuf_addch(w->sb, open);
	if (w->depth >= JSON_MAX_DEPTH) {
		w->misuse++;
		return;
	}
	w->lv[w->depth].close = open == '{' ? '}' : ']';
	w->lv[w->depth].inl = (unsigned char)inl;
	w->lv[w->depth].empty = 1;
	w->depth++;
}

void json_begin(struct json_writer *w, struct strbuf *sb, enum json_root root)
{
	*w = (struct json_writer){ .sb = sb, .root_indent = root == JSON_ROOT_INDENT ? 2 : 0 };
	strbuf_addch(sb, '{');
	w->lv[0] = (struct json_level){ .close = '}', .inl = 0, .empty = 1 };
	w->depth = 1;
}

void json_begin_line(struct json_writer *w, struct strbuf *sb)
{
	*w = (struct json_writer){ .sb = sb };
	strbuf_addch(sb, '{');
	w->lv[0] = (struct json_level){ .close = '}', .inl = 1, .empty = 1 };
	w->depth = 1;
}

void json_close(struct json_writer *w)
{
	struct json_level *l = top(w);

	if (!l) {
		w->misuse++;
		return;
	}
	w->depth--;
	w->wrap = 0;
	if (!l->inl && !l->empty) {
		strbuf_addch(w->sb, '\n');
		/* the bracket lines up with the line the container opened on */
		indent(w, w->depth ? member_indent(w, w->depth) : 0);
	}
	strbuf_addch(w->sb, l->close);
}

void json_end(struct json_writer *w)
{
	while (w->depth > 0)
		json_close(w);
	strbuf_addch(w->sb, '\n');
}

void json_object(struct json_writer *w, const char *key)
{
	json_open(w, key, '{', 0);
}

void json_array(struct json_writer *w, const char *key)
{
	json_open(w, key, '[', 0);
}

void json_object_inline(struct json_writer *w, const char *key)
{
	json_open(w, key, '{', 1);
}

void json_array_inline(struct json_writer *w, const char *key)
{
	json_open(w, key, '[', 1);
}

void json_wrap(struct json_writer *w)
{
	w->wrap = 1;
}

void json_str(struct json_writer *w, const char *key, const char *s)
{
	json_member(w, key);
	json_quote(w->sb, s);
}

void json_u64(struct json_writer *w, const char *key, uint64_t v)
{
	json_member(w, key);
	strbuf_addf(w->sb, "%llu", (unsigned long long)v);
}

void json_s64(struct json_writer *w, const char *key, int64_t v)
{
	json_member(w, key);
	strbuf_addf(w->sb, "%lld", (long long)v);
}

void json_bool(struct json_writer *w, const char *key, int v)
{
	json_member(w, key);
	strbuf_addstr(w->sb, v ? "true" : "false");
}

void json_null(struct json_writer *w, const char *key)
{
	json_member(w, key);
	strbuf_addstr(w->sb, "null");
}

void json_fixed(struct json_writer *w, const char *key, double v, int decimals)
{
	json_member(w, key);
	if (!isfinite(v))
		strbuf_addstr(w->sb, "null");
	else
		strbuf_addf(w->sb, "%.*f", decimals < 0 ? 0 : decimals > 17 ? 17 : decimals,
			    v == 0 ? 0.0 : v);
}

void json_g(struct json_writer *w, const char *key, double v)
{
	json_member(w, key);
	if (!isfinite(v))
		strbuf_addstr(w->sb, "null");
	else
		strbuf_addf(w->sb, "%.10g", v == 0 ? 0.0 : v);
}

void json_u64_or_null(struct json_writer *w, const char *key, uint64_t v, int known)
{
	if (known)
		json_u64(w, key, v);
	else
		json_null(w, key);
}

void json_s64_or_null(struct json_writer *w, const char *key, int64_t v, int known)
{
	if (known)
		json_s64(w, key, v);
	else
		json_null(w, key);
}
