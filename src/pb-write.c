// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Protocol buffers wire format (encoding only): see pb-write.h.
 */
#include "config.h"
#include "pb-write.h"

#include <stdlib.h>
#include <string.h>

enum { WT_VARINT = 0, WT_I64 = 1, WT_LEN = 2 };

int pb_varint_encode(uint64_t v, uint8_t *out)
{
	int n = 0;

	while (v >= 0x80) {
		out[n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	out[n++] = (uint8_t)v;
	return n;
}

static void put_varint(struct pb *p, uint64_t v)
{
	uint8_t b[10];

	strbuf_add(&p->sb, b, (size_t)pb_varint_encode(v, b));
}

static void put_tag(struct pb *p, uint32_t field, int wt)
{
	put_varint(p, ((uint64_t)field << 3) | (uint64_t)wt);
}

void pb_uint(struct pb *p, uint32_t field, uint64_t v)
{
	put_tag(p, field, WT_VARINT);
	put_varint(p, v);
}

void pb_int(struct pb *p, uint32_t field, int64_t v)
{
	put_tag(p, field, WT_VARINT);
	put_varint(p, (uint64_t)v);
}

void pb_fixed64(struct pb *p, uint32_t field, uint64_t v)
{
	uint8_t b[8];

	put_tag(p, field, WT_I64);
	for (int i = 0; i < 8; i++)	/* little-endian whatever the host */
		b[i] = (uint8_t)(v >> (8 * i));
	strbuf_add(&p->sb, b, 8);
}

void pb_double(struct pb *p, uint32_t field, double v)
{
	uint64_t u;

	memcpy(&u, &v, sizeof(u));
	pb_fixed64(p, field, u);
}

void pb_bytes(struct pb *p, uint32_t field, const void *data, size_t len)
{
	put_tag(p, field, WT_LEN);
	put_varint(p, len);
	strbuf_add(&p->sb, data, len);
}

void pb_string(struct pb *p, uint32_t field, const char *s)
{
	pb_bytes(p, field, s, strlen(s));
}

void pb_begin(struct pb *p, uint32_t field)
{
	if (p->depth >= PB_MAX_DEPTH)
		abort();	/* a programming error: the nesting is static */
	put_tag(p, field, WT_LEN);
	p->open[p->depth++] = p->sb.len;
}

void pb_end(struct pb *p)
{
	size_t at, len;
	uint8_t b[10];
	int n;

	if (p->depth <= 0)
		abort();
	at = p->open[--p->depth];
	len = p->sb.len - at;
	n = pb_varint_encode(len, b);
	/* the body moves up by the length's size: messages are small
	 * (one packet at most), so this costs little */
	strbuf_grow(&p->sb, (size_t)n);
	memmove(p->sb.buf + at + n, p->sb.buf + at, len);
	memcpy(p->sb.buf + at, b, (size_t)n);
	p->sb.len += (size_t)n;
	p->sb.buf[p->sb.len] = '\0';
}

void pb_reset(struct pb *p)
{
	strbuf_reset(&p->sb);
	p->depth = 0;
}

void pb_release(struct pb *p)
{
	strbuf_release(&p->sb);
	p->depth = 0;
}
