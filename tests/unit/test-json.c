// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The JSON writer: the exact text of nesting, commas, empty containers,
 * both root layouts, inline containers with wrapped lines, escaping
 * (quotes, control characters, valid and invalid UTF-8), numbers, null
 * for "not measured", and that misuse is counted.
 */
#include "config.h"
#include "json.h"
#include "tap.h"

#include <math.h>
#include <stdlib.h>

static struct strbuf sb = STRBUF_INIT;
static struct json_writer w;

static void begin(enum json_root root)
{
	strbuf_reset(&sb);
	json_begin(&w, &sb, root);
}

static const char *end(void)
{
	json_end(&w);
	return sb.buf;
}

static const char *quoted(const char *s)
{
	strbuf_reset(&sb);
	json_quote(&sb, s);
	return sb.buf;
}

static void test_layout(void)
{
	begin(JSON_ROOT_FLUSH);
	is_str(end(), "{}\n", "empty root");

	begin(JSON_ROOT_FLUSH);
	json_u64(&w, "a", 1);
	json_object(&w, "o");
	json_str(&w, "s", "x");
	json_array(&w, "l");
	json_s64(&w, NULL, -2);
	json_array(&w, NULL);
	json_close(&w);
	json_object(&w, NULL);
	json_close(&w);
	json_close(&w);
	json_close(&w);
	json_bool(&w, "t", 1);
	is_str(end(),
	       "{\n"
	       "\"a\": 1,\n"
	       "\"o\": {\n"
	       "  \"s\": \"x\",\n"
	       "  \"l\": [\n"
	       "    -2,\n"
	       "    [],\n"
	       "    {}\n"
	       "  ]\n"
	       "},\n"
	       "\"t\": true\n"
	       "}\n", "nesting, commas, empty containers (root flush)");
	is_int(w.misuse, 0, "no misuse");

	begin(JSON_ROOT_INDENT);
	json_object(&w, "o");
	json_u64(&w, "n", 2);
	json_close(&w);
	json_array(&w, "e");
	json_close(&w);
	is_str(end(), "{\n  \"o\": {\n    \"n\": 2\n  },\n  \"e\": []\n}\n",
	       "root indented");

	begin(JSON_ROOT_INDENT);
	json_array_inline(&w, "c");
	json_object_inline(&w, NULL);
	json_str(&w, "name", "a");
	json_u64(&w, "runs", 3);
	json_close(&w);
	json_object_inline(&w, NULL);
	json_close(&w);
	json_close(&w);
	json_array(&w, "m");
	json_object_inline(&w, NULL);
	json_u64(&w, "x", 1);
	json_wrap(&w);
	json_array_inline(&w, "cells");
	json_u64(&w, NULL, 1);
	json_wrap(&w);
	json_u64(&w, NULL, 2);
	json_close(&w);
	json_close(&w);
	json_close(&w);
	is_str(end(),
	       "{\n"
	       "  \"c\": [{\"name\": \"a\", \"runs\": 3}, {}],\n"
	       "  \"m\": [\n"
	       "    {\"x\": 1,\n"
	       "     \"cells\": [1,\n"
	       "       2]}\n"
	       "  ]\n"
	       "}\n", "inline containers and wrapped lines");

	begin(JSON_ROOT_FLUSH);
	json_object(&w, "a");
	json_array(&w, "b");
	is_str(end(), "{\n\"a\": {\n  \"b\": []\n}\n}\n", "json_end closes what is open");
}

static void test_strings(void)
{
	is_str(quoted("plain"), "\"plain\"", "plain string");
	is_str(quoted(NULL), "\"\"", "NULL is the empty string");
	is_str(quoted("a\"b\\c/"), "\"a\\\"b\\\\c/\"", "quote and backslash");
	is_str(quoted("t\tn\nx\x01\x1f\x7f"), "\"t\\u0009n\\u000ax\\u0001\\u001f\x7f\"",
	       "control characters as \\u00XX, DEL as is");
	is_str(quoted("gr\xc3\xbc\xc3\x9f \xe2\x82\xac \xf0\x9f\x98\x80"),
	       "\"gr\xc3\xbc\xc3\x9f \xe2\x82\xac \xf0\x9f\x98\x80\"",
	       "valid UTF-8 (2, 3, 4 bytes) passes through");
	is_str(quoted("a\xff" "b"), "\"a\\ufffdb\"", "invalid byte replaced");
	is_str(quoted("\xc3"), "\"\\ufffd\"", "truncated sequence at the end");
	is_str(quoted("\xc3(x"), "\"\\ufffd(x\"", "bad continuation keeps the next byte");
	is_str(quoted("\xc0\xaf"), "\"\\ufffd\\ufffd\"", "overlong 2-byte form");
	is_str(quoted("\xe0\x80\xaf"), "\"\\ufffd\\ufffd\\ufffd\"", "overlong 3-byte form");
	is_str(quoted("\xed\xa0\x80"), "\"\\ufffd\\ufffd\\ufffd\"", "UTF-16 surrogate");
	is_str(quoted("\xf4\x90\x80\x80"), "\"\\ufffd\\ufffd\\ufffd\\ufffd\"",
	       "above U+10FFFF");
	is_str(quoted("\x80"), "\"\\ufffd\"", "lone continuation byte");

	begin(JSON_ROOT_FLUSH);
	json_str(&w, "k\"ey", "v");
	is_str(end(), "{\n\"k\\\"ey\": \"v\"\n}\n", "keys are escaped too");
}

static void test_numbers(void)
{
	begin(JSON_ROOT_FLUSH);
	json_array_inline(&w, "n");
	json_u64(&w, NULL, UINT64_MAX);
	json_s64(&w, NULL, INT64_MIN);
	json_fixed(&w, NULL, 1.5, 6);
	json_fixed(&w, NULL, -0.0, 3);
	json_fixed(&w, NULL, NAN, 6);
	json_fixed(&w, NULL, INFINITY, 2);
	json_g(&w, NULL, 2.0 / 3);
	json_g(&w, NULL, -0.0);
	json_g(&w, NULL, -INFINITY);
	json_g(&w, NULL, 1e300);
	json_close(&w);
	is_str(end(), "{\n\"n\": [18446744073709551615, -9223372036854775808, 1.500000, "
	       "0.000, null, null, 0.6666666667, 0, null, 1e+300]\n}\n",
	       "integers, fixed and %g doubles, NaN/inf as null, no -0");

	begin(JSON_ROOT_FLUSH);
	json_u64_or_null(&w, "a", 5, 1);
	json_u64_or_null(&w, "b", 0, 0);
	json_s64_or_null(&w, "c", -1, 0);
	json_s64_or_null(&w, "d", -1, 1);
	json_null(&w, "e");
	json_bool(&w, "f", 0);
	is_str(end(), "{\n\"a\": 5,\n\"b\": null,\n\"c\": null,\n\"d\": -1,\n\"e\": null,\n"
	       "\"f\": false\n}\n", "not measured is null, measured is the value");
}

static void test_misuse(void)
{
	begin(JSON_ROOT_FLUSH);
	json_u64(&w, NULL, 1);
	is_int(w.misuse, 1, "a member without a key in an object is counted");
	json_array(&w, "a");
	json_u64(&w, "k", 1);
	is_int(w.misuse, 2, "a key in an array is counted");
	json_close(&w);
	json_close(&w);
	json_close(&w);
	is_int(w.misuse, 3, "a close too many is counted");

	begin(JSON_ROOT_FLUSH);
	for (int i = 0; i < JSON_MAX_DEPTH + 3; i++)
		json_array(&w, i ? NULL : "deep");
	end();
	ok(w.misuse > 0 && w.depth == 0, "too deep is counted and json_end still returns");
}

int main(void)
{
	test_layout();
	test_strings();
	test_numbers();
	test_misuse();
	strbuf_release(&sb);
	return tap_done();
}
