// SPDX-License-Identifier: GPL-2.0-or-later
/* zlib and zstd behind one small interface (see codec.h). */
#include "config.h"
#include "codec.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#ifdef HAVE_ZSTD
#include <zstd.h>
#endif

struct codec {
	enum codec_id id;
	int level;
#ifdef HAVE_ZSTD
	ZSTD_DCtx *dctx;
	ZSTD_CCtx *cctx;
#endif
};

static const char *const names[] = {
	[CODEC_NONE] = "none", [CODEC_ZLIB] = "zlib", [CODEC_ZSTD] = "zstd",
};

int codec_from_name(const char *name, enum codec_id *id)
{
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		if (!strcmp(name, names[i])) {
			*id = (enum codec_id)i;
			return 0;
		}
	}
	return -1;
}

const char *codec_name(enum codec_id id)
{
	return names[id];
}

const char *codec_version(enum codec_id id)
{
	switch (id) {
	case CODEC_ZLIB:
		return zlibVersion();
	case CODEC_ZSTD:
#ifdef HAVE_ZSTD
		return ZSTD_versionString();
#endif
	case CODEC_NONE:
		break;
	}
	return "";
}

int codec_available(enum codec_id id)
{
	(void)id;	/* unused when every codec is built in */
#ifndef HAVE_ZSTD
	if (id == CODEC_ZSTD)
		return 0;
#endif
	return 1;
}

int codec_default_level(enum codec_id id)
{
	/*
	 * zlib 6: level 9 (trace-cmd's) is ~10x slower for ~2% smaller output.
	 * zstd 1: on ring-buffer pages in 64-page chunks it is as small as 3
	 * (72.2 against 74.2 MB from 537 MB of page churn; 31.3 against
	 * 31.5 MB of reclaim pages) for ~5% less CPU, and 6 takes 3.4x the
	 * CPU for nothing (tests/bench/bench.sh prints the three).
	 */
	return id == CODEC_ZLIB ? 6 : 1;
}

struct codec *codec_new(enum codec_id id, int level)
{
	struct codec *c = xcalloc(1, sizeof(*c));

	c->id = id;
	c->level = level;
	return c;
}

void codec_trim(struct codec *c)
{
	if (!c)
		return;
#ifdef HAVE_ZSTD
	ZSTD_freeDCtx(c->dctx);
	c->dctx = NULL;
#endif
}

void codec_free(struct codec *c)
{
	if (!c)
		return;
#ifdef HAVE_ZSTD
	ZSTD_freeDCtx(c->dctx);
	ZSTD_freeCCtx(c->cctx);
#endif
	free(c);
}

static int zlib_decompress(const void *src, size_t csize, void *dst,
			   size_t usize, char **err)
{
	uLongf out = usize;
	int r;

	if (csize > ULONG_MAX || usize > ULONG_MAX)
		return set_err(err, "zlib block too large");
	r = uncompress(dst, &out, src, (uLong)csize);
	if (r != Z_OK)
		return set_err(err, "corrupt zlib data (%s)", zError(r));
	if (out != usize)
		return set_err(err, "zlib block gave %lu bytes, header says %zu",
			       (unsigned long)out, usize);
	return 0;
}

#ifdef HAVE_ZSTD
static int zstd_decompress(struct codec *c, const void *src, size_t csize,
			   void *dst, size_t usize, char **err)
{
	size_t r;

	if (!c->dctx)
		c->dctx = ZSTD_createDCtx();
	if (!c->dctx)
		return set_err(err, "out of memory for zstd");
	/*
	 * trace-cmd writes frames without a content size, so the output
	 * capacity is the only bound; a frame that wants more is corrupt
	 * (and a decompression bomb cannot grow beyond usize).
	 */
	r = ZSTD_decompressDCtx(c->dctx, dst, usize, src, csize);
	if (ZSTD_isError(r))
		return set_err(err, "corrupt zstd data (%s)", ZSTD_getErrorName(r));
	if (r != usize)
		return set_err(err, "zstd block gave %zu bytes, header says %zu",
			       r, usize);
	return 0;
}
#endif

int codec_decompress(struct codec *c, const void *src, size_t csize,
		     void *dst, size_t usize, char **err)
{
	switch (c->id) {
	case CODEC_NONE:
		if (csize != usize)
			return set_err(err, "stored block size %zu differs from %zu",
				       csize, usize);
		memcpy(dst, src, usize);
		return 0;
	case CODEC_ZLIB:
		return zlib_decompress(src, csize, dst, usize, err);
	case CODEC_ZSTD:
#ifdef HAVE_ZSTD
		return zstd_decompress(c, src, csize, dst, usize, err);
#else
		return set_err(err, "this mmscope was built without zstd");
#endif
	}
	return set_err(err, "unknown codec");
}

int codec_compress(struct codec *c, const void *src, size_t n,
		   struct strbuf *out, char **err)
{
	switch (c->id) {
	case CODEC_NONE:
		strbuf_add(out, src, n);
		return 0;
	case CODEC_ZLIB: {
		uLongf bound = compressBound((uLong)n);
		int r;

		strbuf_grow(out, bound);
		r = compress2((Bytef *)out->buf + out->len, &bound, src,
			      (uLong)n, c->level);
		if (r != Z_OK)
			return set_err(err, "zlib compression failed (%s)", zError(r));
		out->len += bound;
		out->buf[out->len] = '\0';
		return 0;
	}
	case CODEC_ZSTD:
#ifdef HAVE_ZSTD
	{
		size_t bound = ZSTD_compressBound(n), r;

		if (!c->cctx) {
			c->cctx = ZSTD_createCCtx();
			if (!c->cctx)
				return set_err(err, "out of memory for zstd");
			ZSTD_CCtx_setParameter(c->cctx, ZSTD_c_compressionLevel, c->level);
		}
		strbuf_grow(out, bound);
		r = ZSTD_compress2(c->cctx, out->buf + out->len, bound, src, n);
		if (ZSTD_isError(r))
			return set_err(err, "zstd compression failed (%s)",
				       ZSTD_getErrorName(r));
		out->len += r;
		out->buf[out->len] = '\0';
		return 0;
	}
#else
		return set_err(err, "this mmscope was built without zstd");
#endif
	}
	return set_err(err, "unknown codec");
}
