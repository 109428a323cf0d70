// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * trace.dat reader, part 3: the raw ring-buffer pages of one CPU, read in
 * batches (uncompressed data) or chunk by chunk (compressed data) into one
 * reused buffer, so a CPU costs at most one chunk of memory.
 */
#include "config.h"
#include "tracedat-local.h"

#include <stdlib.h>
#include <string.h>

#define BATCH_PAGES 64

struct td_pages {
	struct td_file *tf;
	const struct td_buffer *b;
	int cpu;
	uint32_t page_size;
	uint64_t pos, end;	/* file range still to read (uncompressed) */
	uint32_t chunks_left;	/* compressed: chunks not yet read */
	uint64_t limit;		/* compressed: end of this CPU's region */
	uint64_t cin, cout;	/* compressed: bytes read and produced so far */
	uint8_t *buf;		/* pages of the current batch or chunk */
	size_t cap;		/* bytes allocated before the pad */
	size_t fill, at;	/* bytes in buf, next page offset */
	uint8_t *cbuf;		/* compressed chunk */
	size_t ccap;
};

static void ensure_cap(struct td_pages *p, size_t n)
{
	if (n <= p->cap)
		return;
	free(p->buf);
	p->buf = xcalloc(1, n + TD_READ_PAD);
	p->cap = n;
}

struct td_pages *td_pages_open(struct td_file *tf, int buffer, int cpu, char **err)
{
	const struct td_buffer *b = td_buffer(tf, buffer);
	struct td_pages *p;

	if (!b || cpu < 0 || cpu >= b->ncpus) {
		set_err(err, "no such buffer/cpu %d/%d", buffer, cpu);
		return NULL;
	}
	p = xcalloc(1, sizeof(*p));
	p->tf = tf;
	p->b = b;
	p->cpu = cpu;
	p->page_size = b->page_size;
	p->pos = b->cpu_offset[cpu];
	if (!b->cpu_size[cpu] && !(b->compressed && b->cpu_offset[cpu]))
		return p;	/* no data */
	if (b->compressed) {
		uint8_t n[4];

		if (td_pread(tf, p->pos, n, 4, "chunk count", err)) {
			td_pages_close(p);
			return NULL;
		}
		p->chunks_left = td_le32(n);
		p->pos += 4;
		p->limit = tf->cpu_limit ? tf->cpu_limit[buffer][cpu] : tf->size;
		if (p->limit > tf->size)
			p->limit = tf->size;
		if (p->limit < p->pos) {
			set_err(err, "cpu %d: no room for the chunk count", cpu);
			td_pages_close(p);
			return NULL;
		}
		/* each chunk needs at least its 8-byte header */
		if (p->chunks_left > (p->limit - p->pos) / 8) {
			set_err(err, "cpu %d: %u chunks cannot fit in the rest of the file",
				cpu, p->chunks_left);
			td_pages_close(p);
			return NULL;
		}
	} else {
		p->end = p->pos + b->cpu_size[cpu];
	}
	return p;
}

static int load_batch(struct td_pages *p, char **err)
{
	uint64_t left = p->end - p->pos;
	size_t n = (size_t)(left < (uint64_t)p->page_size * BATCH_PAGES ?
			    left : (uint64_t)p->page_size * BATCH_PAGES);

	ensure_cap(p, (size_t)p->page_size * BATCH_PAGES);
	if (td_pread(p->tf, p->pos, p->buf, n, "cpu data", err))
		return -1;
	p->pos += n;
	p->fill = n;
	p->at = 0;
	return 0;
}

static int load_chunk(struct td_pages *p, char **err)
{
	uint8_t h[8];
	uint32_t csize, usize;

	if (td_pread(p->tf, p->pos, h, 8, "chunk header", err))
		return -1;
	csize = td_le32(h);
	usize = td_le32(h + 4);
	p->pos += 8;
	if (!usize || usize % p->page_size || usize > TD_MAX_CHUNK)
		return set_err(err, "cpu %d: chunk of %u bytes is not a whole number of %u-byte pages (or too large)",
			       p->cpu, usize, p->page_size);
	if (p->pos > p->limit || csize > p->limit - p->pos)
		return set_err(err, "cpu %d: chunk of %u compressed bytes runs past the end of %s",
			       p->cpu, csize, p->limit < p->tf->size ?
			       "its data (into the next CPU's)" : "the file");
	/*
	 * Bound the work a small file can cause: whatever the chunk count,
	 * a CPU decompresses to at most TD_INFLATE_FREE plus
	 * TD_INFLATE_RATIO x its compressed bytes.
	 */
	p->cin += 8 + (uint64_t)csize;
	p->cout += usize;
	if (p->cout > TD_INFLATE_FREE + TD_INFLATE_RATIO * p->cin)
		return set_err(err, "cpu %d: chunks decompress to %llu bytes from %llu (more than %ux): corrupt or a decompression bomb",
			       p->cpu, (unsigned long long)p->cout,
			       (unsigned long long)p->cin, TD_INFLATE_RATIO);
	if (csize > p->ccap) {
		free(p->cbuf);
		p->cbuf = xmalloc(csize);
		p->ccap = csize;
	}
	if (td_pread(p->tf, p->pos, p->cbuf, csize, "chunk", err))
		return -1;
	p->pos += csize;
	ensure_cap(p, usize);
	if (codec_decompress(p->tf->codec, p->cbuf, csize, p->buf, usize, err)) {
		char *inner = *err;

		*err = NULL;
		set_err(err, "cpu %d: %s", p->cpu, inner);
		free(inner);
		return -1;
	}
	/* keep the pad after the data zeroed, whatever the last chunk held */
	memset(p->buf + usize, 0, TD_READ_PAD);
	p->chunks_left--;
	p->fill = usize;
	p->at = 0;
	return 0;
}

int td_pages_next(struct td_pages *p, const void **page, char **err)
{
	if (p->at >= p->fill) {
		if (p->b->compressed) {
			if (!p->chunks_left)
				return 0;
			if (load_chunk(p, err))
				return -1;
		} else {
			if (p->pos >= p->end)
				return 0;
			if (load_batch(p, err))
				return -1;
		}
	}
	*page = p->buf + p->at;
	p->at += p->page_size;
	return 1;
}

void td_pages_close(struct td_pages *p)
{
	if (!p)
		return;
	free(p->buf);
	free(p->cbuf);
	free(p);
}
