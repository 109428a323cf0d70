/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Compression codecs of trace.dat v7: "none", "zlib" (RFC 1950 streams made
 * by compress2, as trace-cmd expects) and "zstd" (plain frames). This file
 * is the only user of zlib and libzstd.
 */
#ifndef MMSCOPE_CODEC_H
#define MMSCOPE_CODEC_H

#include <stddef.h>
#include "util.h"

enum codec_id { CODEC_NONE, CODEC_ZLIB, CODEC_ZSTD };

/* Returns 0 and sets *id, or -1 if the name is unknown. */
int codec_from_name(const char *name, enum codec_id *id);
const char *codec_name(enum codec_id id);
/* The version string stored in the v7 header ("" for none). */
const char *codec_version(enum codec_id id);
/* 1 when this build can encode and decode it. */
int codec_available(enum codec_id id);
int codec_default_level(enum codec_id id);

struct codec;	/* reusable (de)compression context */
struct codec *codec_new(enum codec_id id, int level);
void codec_free(struct codec *c);
/* The decompression context's memory given back (its window: up to a
 * chunk, ~0.2-1 MB); made again on the next use. */
void codec_trim(struct codec *c);

/*
 * Decompress src into exactly usize bytes at dst. Any other outcome
 * (corrupt data, a different size) is an error described in *err.
 */
int codec_decompress(struct codec *c, const void *src, size_t csize,
		     void *dst, size_t usize, char **err);
/* Append the compressed form of src to out. */
int codec_compress(struct codec *c, const void *src, size_t n,
		   struct strbuf *out, char **err);

#endif
