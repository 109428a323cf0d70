// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The small helpers everything else leans on: strbuf (including the
 * empty-buffer cases that once handed out uninitialized memory),
 * little-endian appends, and the size/duration/number parsers.
 */
#include "config.h"
#include "util.h"
#include "tap.h"

#include <stdlib.h>

int main(void)
{
	struct strbuf sb = STRBUF_INIT;
	uint64_t v;
	unsigned long long u;
	size_t len = 99;
	char *s;

	s = strbuf_detach(&sb, &len);
	ok(s && s[0] == '\0' && len == 0, "detaching a never-used strbuf gives \"\"");
	free(s);
	strbuf_grow(&sb, 100);
	ok(sb.buf[0] == '\0' && sb.len == 0, "a grown empty strbuf is a valid empty string");
	s = strbuf_detach(&sb, NULL);
	is_str(s, "", "detach after grow gives \"\"");
	free(s);
	strbuf_addf(&sb, "%d-%s", 42, "x");
	strbuf_addch(&sb, '!');
	is_str(sb.buf, "42-x!", "addf and addch");
	strbuf_reset(&sb);
	strbuf_add_u16(&sb, 0x0201);
	strbuf_add_u32(&sb, 0x06050403);
	strbuf_add_u64(&sb, 0x0e0d0c0b0a090807ull);
	ok(sb.len == 14 && (unsigned char)sb.buf[0] == 1 && (unsigned char)sb.buf[13] == 14,
	   "u16/u32/u64 appends are little-endian");
	strbuf_release(&sb);

	ok(!parse_size("4K", &v) && v == 4096, "parse_size 4K");
	ok(!parse_size("3MB", &v) && v == 3u << 20, "parse_size 3MB");
	ok(!parse_size("1g", &v) && v == 1u << 30, "parse_size 1g");
	ok(parse_size("-1", &v) && parse_size("12Q", &v) && parse_size("", &v),
	   "parse_size refuses -1, 12Q and empty");
	ok(parse_size("99999999999999999999", &v), "parse_size refuses overflow");
	ok(!parse_duration_ns("1500ms", &v) && v == 1500000000ull, "parse_duration 1500ms");
	ok(!parse_duration_ns("2", &v) && v == 2000000000ull, "parse_duration 2 (seconds)");
	ok(!parse_duration_ns("1.5m", &v) && v == 90000000000ull, "parse_duration 1.5m");
	ok(parse_duration_ns("3 s", &v) && parse_duration_ns("-1", &v), "parse_duration refuses junk");
	ok(!parse_ull("123", &u) && u == 123, "parse_ull 123");
	ok(parse_ull("12a", &u) && parse_ull("-3", &u) && parse_ull("", &u),
	   "parse_ull refuses 12a, -3, empty");
	s = xasprintf("%s/%d", "a", 7);
	is_str(s, "a/7", "xasprintf");
	free(s);
	return tap_done();
}
