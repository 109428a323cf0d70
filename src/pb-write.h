/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A small protocol buffers encoder, enough to write a Perfetto trace
 * (src/perfetto.c) without a protobuf library: varints, fixed 64-bit
 * fields, strings and nested messages. A nested message is written in
 * place and its length put in front of it when it is closed, so no
 * message needs its size computed beforehand. Field numbers are the
 * caller's (read from the schema); this file knows only the wire format.
 */
#ifndef MMSCOPE_PB_WRITE_H
#define MMSCOPE_PB_WRITE_H

#include <stddef.h>
#include <stdint.h>

#include "util.h"

#define PB_MAX_DEPTH 16

struct pb {
	struct strbuf sb;
	size_t open[PB_MAX_DEPTH];	/* where each open message's body starts */
	int depth;
};

#define PB_INIT { STRBUF_INIT, { 0 }, 0 }

/* A varint field (uint32/64, int32/64, bool, enum). Negative int64
 * values take ten bytes, as protobuf encodes them (not zigzag). */
void pb_uint(struct pb *p, uint32_t field, uint64_t v);
void pb_int(struct pb *p, uint32_t field, int64_t v);
/* fixed64 and double (wire type 1). */
void pb_fixed64(struct pb *p, uint32_t field, uint64_t v);
void pb_double(struct pb *p, uint32_t field, double v);
/* A string or bytes field (wire type 2). */
void pb_bytes(struct pb *p, uint32_t field, const void *data, size_t len);
void pb_string(struct pb *p, uint32_t field, const char *s);
/* A nested message: pb_begin(field), its fields, pb_end(). */
void pb_begin(struct pb *p, uint32_t field);
void pb_end(struct pb *p);

/* Raw varint (for tests). Returns the bytes written to out (<= 10). */
int pb_varint_encode(uint64_t v, uint8_t *out);

void pb_reset(struct pb *p);
void pb_release(struct pb *p);

#endif
