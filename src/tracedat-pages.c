// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * trace.dat reader, part 3: the raw ring-buffer pages of one CPU, read in
 * batches (uncompressed data) or chunk by chunk (compressed data) into one
 * reused buffer, so a CPU costs at most one chunk of memory.
 *
 * Seeking (td_pages_seek, td_pages_goto): uncompressed pages are found by
 * offset arithmetic; a compressed page by walking the 8-byte chunk headers
 * (no decompression) to the chunk that holds it, or straight from a
 * position td_pages_tell gave earlier (the cursor's index). Either way the
 * chunk is then read by load_chunk, with every check of a full pass, and
 * the bomb counters carry what the chunks before it would have added.
 */
#include "config.h"
#include "tracedat-local.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define BATCH_PAGES 64

/*
 * Read-ahead (td_pages_readahead): a thread per CPU stream decompresses
 * up to RA_SLOTS chunks ahead of the caller, so zstd (a third of a
 * report's time) runs on another core. The thread works on its own
 * td_pages, "ahead", which owns the file position, the bomb counters and
 * a codec context of its own; the caller's td_pages only swaps buffers
 * with the oldest queued slot. One chunk ahead was not enough: each
 * hand-off then waited for a cross-CPU wake-up (slow on this VM) and
 * nothing overlapped.
 */
#define RA_SLOTS 4

/* Where the chunk (or batch) in a buffer began, for td_pages_tell. */
struct chunk_at {
	uint64_t off;		/* of the chunk header, or the batch's first page */
	uint64_t cin, cout;	/* bomb counters before the chunk */
	uint32_t chunks_left;	/* chunks from this one on */
};

struct ra_slot {
	uint8_t *buf;
	size_t cap, dirty, fill;
	struct chunk_at cur;
};

struct readahead {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct td_pages *ahead;
	struct ra_slot slot[RA_SLOTS];
	int head, count;	/* queued chunks, the oldest at head */
	int stop;
	int end;		/* no more chunks: rc says why */
	int rc;			/* 0 the end, -1 error in err */
	char *err;
};

struct td_pages {
	struct td_file *tf;
	const struct td_buffer *b;
	int cpu;
	uint32_t page_size;
	uint64_t pos, end;	/* file range still to read (uncompressed) */
	uint64_t start;		/* first page, or first chunk header */
	uint64_t next_page;	/* number of the page td_pages_next returns next */
	uint32_t chunks_total;	/* compressed: chunks of the CPU */
	uint32_t chunks_left;	/* compressed: chunks not yet read */
	uint64_t limit;		/* compressed: end of this CPU's region */
	uint64_t cin, cout;	/* compressed: bytes read and produced so far */
	uint8_t *buf;		/* pages of the current batch or chunk */
	size_t cap;		/* bytes allocated before the pad */
	size_t fill, at;	/* bytes in buf, next page offset */
	size_t dirty;		/* bytes of buf ever written; the rest is zero */
	uint8_t *cbuf;		/* compressed chunk */
	size_t ccap;
	struct codec *codec;	/* the file's, or the read-ahead thread's own */
	struct chunk_at cur;	/* of the chunk or batch in buf */
	struct readahead *ra;
	int ra_after;		/* chunks to read before read-ahead starts; -1 never */
	int eof;		/* td_pages_next has said there is no more */
};

/* Room for n bytes and the zeroed pad after them. Not calloc: a set of a
 * week's 10,080 parts opened a stream per CPU of each, and zeroing a
 * fresh buffer for each (a chunk and the 128 KiB pad) was a third of a
 * window's report; the bytes before the pad are written before read,
 * and dirty says they may be anything. */
static void ensure_cap(struct td_pages *p, size_t n)
{
	if (n <= p->cap)
		return;
	free(p->buf);
	p->buf = xmalloc(n + TD_READ_PAD);
	memset(p->buf + n, 0, TD_READ_PAD);
	p->cap = n;
	p->dirty = n;
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
	p->codec = tf->codec;
	p->ra_after = -1;
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
		p->start = p->pos;
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
		p->chunks_total = p->chunks_left;
	} else {
		p->start = p->pos;
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
	if (n < p->cap)	/* the pad right after a short last batch */
		memset(p->buf + n, 0, p->cap - n < TD_READ_PAD ? p->cap - n : TD_READ_PAD);
	p->cur.off = p->pos;
	p->pos += n;
	p->fill = n;
	p->at = 0;
	return 0;
}

/*
 * Read and check the header of the chunk at p->pos, and count it against
 * the bomb limit; p->pos is left at the header.
 */
static int chunk_header(struct td_pages *p, uint32_t *csize_out, uint32_t *usize_out,
			char **err)
{
	uint8_t h[8];
	uint32_t csize, usize;
	uint64_t data = p->pos + 8;

	if (td_pread(p->tf, p->pos, h, 8, "chunk header", err))
		return -1;
	csize = td_le32(h);
	usize = td_le32(h + 4);
	if (!usize || usize % p->page_size || usize > TD_MAX_CHUNK)
		return set_err(err, "cpu %d: chunk of %u bytes is not a whole number of %u-byte pages (or too large)",
			       p->cpu, usize, p->page_size);
	if (data > p->limit || csize > p->limit - data)
		return set_err(err, "cpu %d: chunk of %u compressed bytes runs past the end of %s",
			       p->cpu, csize, p->limit < p->tf->size ?
			       "its data (into the next CPU's)" : "the file");
	/*
	 * Bound the work a small file can cause: whatever the chunk count,
	 * a CPU decompresses to at most TD_INFLATE_FREE plus
	 * TD_INFLATE_RATIO x its compressed bytes. A chunk skipped by a seek
	 * counts as if it had been read, so a seek can fail here as a full
	 * pass would, never later.
	 */
	p->cin += 8 + (uint64_t)csize;
	p->cout += usize;
	if (p->cout > TD_INFLATE_FREE + TD_INFLATE_RATIO * p->cin)
		return set_err(err, "cpu %d: chunks decompress to %llu bytes from %llu (more than %ux): corrupt or a decompression bomb",
			       p->cpu, (unsigned long long)p->cout,
			       (unsigned long long)p->cin, TD_INFLATE_RATIO);
	*csize_out = csize;
	*usize_out = usize;
	return 0;
}

static int load_chunk(struct td_pages *p, char **err)
{
	uint32_t csize, usize;
	size_t stale;

	p->cur.off = p->pos;
	p->cur.cin = p->cin;
	p->cur.cout = p->cout;
	p->cur.chunks_left = p->chunks_left;
	if (chunk_header(p, &csize, &usize, err))
		return -1;
	p->pos += 8;
	if (csize > p->ccap) {
		free(p->cbuf);
		p->cbuf = xmalloc(csize);
		p->ccap = csize;
	}
	if (td_pread(p->tf, p->pos, p->cbuf, csize, "chunk", err))
		return -1;
	p->pos += csize;
	ensure_cap(p, usize);
	stale = p->dirty;
	if (usize > p->dirty)
		p->dirty = usize;	/* before: a failed decompression writes too */
	if (codec_decompress(p->codec, p->cbuf, csize, p->buf, usize, err)) {
		/* err may be NULL: an index built for a seek asks no reason */
		char *inner = err ? *err : NULL;

		if (err) {
			*err = NULL;
			set_err(err, "cpu %d: %s", p->cpu, inner);
		}
		free(inner);
		return -1;
	}
	/*
	 * Keep the pad after the data zeroed, whatever the last chunk held.
	 * Only bytes an earlier, longer chunk wrote can be non-zero: clearing
	 * the whole pad cost half as many stores as the chunk itself.
	 */
	if (stale > usize)
		memset(p->buf + usize, 0, stale - usize < TD_READ_PAD ?
		       stale - usize : TD_READ_PAD);
	p->chunks_left--;
	p->fill = usize;
	p->at = 0;
	return 0;
}

static void *readahead_main(void *arg)
{
	struct readahead *ra = arg;

	struct td_pages *a = ra->ahead;

	pthread_mutex_lock(&ra->lock);
	for (;;) {
		while (!ra->stop && ra->count == RA_SLOTS)
			pthread_cond_wait(&ra->cond, &ra->lock);
		if (ra->stop)
			break;
		/* the free slot after the queue is the thread's until queued */
		struct ra_slot *sl = &ra->slot[(ra->head + ra->count) % RA_SLOTS];

		a->buf = sl->buf, a->cap = sl->cap, a->dirty = sl->dirty;
		a->fill = a->at = 0;
		pthread_mutex_unlock(&ra->lock);
		int rc = !a->chunks_left ? 0 : load_chunk(a, &ra->err) ? -1 : 1;

		pthread_mutex_lock(&ra->lock);
		sl->buf = a->buf, sl->cap = a->cap, sl->dirty = a->dirty;
		sl->fill = a->fill;
		sl->cur = a->cur;
		if (rc > 0) {
			ra->count++;
		} else {
			ra->end = 1;
			ra->rc = rc;
		}
		pthread_cond_broadcast(&ra->cond);
		if (rc <= 0)
			break;
	}
	pthread_mutex_unlock(&ra->lock);
	return NULL;
}

static int readahead_start(struct td_pages *p)
{
	struct readahead *ra;
	struct td_pages *a;

	/*
	 * A partly walked chunk (after a seek) stays in p->buf: the thread
	 * starts with the chunk after it, and readahead_take swaps only
	 * once p has walked it.
	 */
	if (p->ra || !p->b->compressed || !p->chunks_left)
		return 0;
	ra = xcalloc(1, sizeof(*ra));
	a = xcalloc(1, sizeof(*a));
	*a = *p;	/* the reading state moves to the thread's copy */
	a->buf = NULL;
	a->cap = a->dirty = a->fill = a->at = 0;
	a->cbuf = NULL;
	a->ccap = 0;
	a->codec = codec_new(p->tf->codec_id, 0);
	ra->ahead = a;
	pthread_mutex_init(&ra->lock, NULL);
	pthread_cond_init(&ra->cond, NULL);
	if (pthread_create(&ra->thread, NULL, readahead_main, ra)) {
		pthread_mutex_destroy(&ra->lock);
		pthread_cond_destroy(&ra->cond);
		codec_free(a->codec);
		free(a);
		free(ra);
		return -1;	/* p reads on its own, as before */
	}
	p->ra = ra;
	return 0;
}

int td_pages_readahead(struct td_pages *p, int after)
{
	if (after > 0) {
		p->ra_after = after;
		return 0;
	}
	return readahead_start(p);
}

/* Take the chunk the thread made: 1, 0 at the end, -1 on error. */
static int readahead_take(struct td_pages *p, char **err)
{
	struct readahead *ra = p->ra;
	struct ra_slot *sl;
	uint8_t *buf;
	size_t cap, dirty;
	int rc;

	pthread_mutex_lock(&ra->lock);
	while (!ra->count && !ra->end)
		pthread_cond_wait(&ra->cond, &ra->lock);
	if (!ra->count) {	/* the queue is drained and the thread done */
		rc = ra->rc;
		if (rc < 0)	/* a copy: a caller may ask again */
			*err = xstrdup(ra->err ? ra->err : "read-ahead failed");
		pthread_mutex_unlock(&ra->lock);
		return rc;
	}
	/* swap buffers: the slot takes the one just walked, for reuse */
	sl = &ra->slot[ra->head];
	buf = p->buf, cap = p->cap, dirty = p->dirty;
	p->buf = sl->buf, p->cap = sl->cap, p->dirty = sl->dirty;
	p->fill = sl->fill;
	p->cur = sl->cur;
	p->at = 0;
	sl->buf = buf, sl->cap = cap, sl->dirty = dirty;
	sl->fill = 0;
	ra->head = (ra->head + 1) % RA_SLOTS;
	ra->count--;
	pthread_cond_broadcast(&ra->cond);
	pthread_mutex_unlock(&ra->lock);
	return 1;
}

void td_pages_progress(const struct td_pages *p, uint64_t *done, uint64_t *total)
{
	uint64_t start = p->b->cpu_offset[p->cpu];
	uint64_t end = p->b->compressed ? p->limit : start + p->b->cpu_size[p->cpu];

	*total = end > start ? end - start : 0;
	if (p->eof)
		*done = *total;
	else
		*done = p->cur.off > start ? p->cur.off - start : 0;
	if (*done > *total)
		*done = *total;
}

static int td_pages_end(struct td_pages *p)
{
	p->eof = 1;
	return 0;
}

int td_pages_next(struct td_pages *p, const void **page, char **err)
{
	/* a deferred read-ahead (after a seek) starts once it is due */
	if (p->at >= p->fill && !p->ra && p->ra_after == 0) {
		p->ra_after = -1;
		readahead_start(p);
	}
	if (p->at >= p->fill && p->ra) {
		int r = readahead_take(p, err);

		if (r <= 0)
			return r ? r : td_pages_end(p);
	} else if (p->at >= p->fill) {
		if (p->b->compressed) {
			if (!p->chunks_left)
				return td_pages_end(p);
			if (load_chunk(p, err))
				return -1;
			if (p->ra_after > 0)
				p->ra_after--;
		} else {
			if (p->pos >= p->end)
				return td_pages_end(p);
			if (load_batch(p, err))
				return -1;
		}
	}
	*page = p->buf + p->at;
	p->at += p->page_size;
	p->next_page++;
	return 1;
}

/* Stop the read-ahead thread; p's own buffer stays. */
static void readahead_stop(struct td_pages *p)
{
	struct readahead *ra = p->ra;

	if (!ra)
		return;
	pthread_mutex_lock(&ra->lock);
	ra->stop = 1;
	pthread_cond_broadcast(&ra->cond);
	pthread_mutex_unlock(&ra->lock);
	pthread_join(ra->thread, NULL);
	pthread_mutex_destroy(&ra->lock);
	pthread_cond_destroy(&ra->cond);
	codec_free(ra->ahead->codec);
	/* ahead's buf is always one of the slots' by now */
	for (int i = 0; i < RA_SLOTS; i++)
		free(ra->slot[i].buf);
	free(ra->ahead->cbuf);
	free(ra->ahead);
	free(ra->err);
	free(ra);
	p->ra = NULL;
}

/* Back to the state of td_pages_open, without read-ahead. */
static void rewind_pages(struct td_pages *p)
{
	p->eof = 0;
	readahead_stop(p);
	p->ra_after = -1;
	p->pos = p->start;
	p->chunks_left = p->chunks_total;
	p->cin = p->cout = 0;
	p->fill = p->at = 0;
	p->next_page = 0;
}

/* 1 positioned, 0 no such page (*total: the pages there are), -1 error. */
static int pages_seek(struct td_pages *p, uint64_t page, uint64_t *total, char **err)
{
	uint64_t k = page;

	if (!p->b->compressed) {
		uint64_t n = (p->end - p->start) / p->page_size;

		rewind_pages(p);
		*total = n;
		if (k >= n)
			return 0;
		p->pos = p->start + k * p->page_size;
		p->next_page = page;
		return 1;
	}
	/*
	 * Forward without read-ahead (td_index_build's sparse pass): on from
	 * where p is, so that skipping through a CPU costs one walk of its
	 * chunk headers, not one per seek.
	 */
	if (!p->ra && page >= p->next_page) {
		uint64_t have = (p->fill - p->at) / p->page_size;

		if (page - p->next_page < have) {
			p->at += (size_t)(page - p->next_page) * p->page_size;
			p->next_page = page;
			return 1;
		}
		k = page - p->next_page - have;
		p->at = p->fill;
	} else {
		rewind_pages(p);
	}
	while (p->chunks_left) {
		uint64_t at = p->pos, cin = p->cin, cout = p->cout;
		uint32_t csize, usize, n;

		if (chunk_header(p, &csize, &usize, err))
			goto fail;
		n = usize / p->page_size;
		if (k < n) {
			/* load_chunk counts this chunk itself */
			p->pos = at, p->cin = cin, p->cout = cout;
			if (load_chunk(p, err))
				goto fail;
			p->at = (size_t)k * p->page_size;
			p->next_page = page;
			return 1;
		}
		k -= n;
		p->pos = at + 8 + csize;
		p->chunks_left--;
	}
	*total = page - k;
	rewind_pages(p);
	return 0;
fail:
	rewind_pages(p);	/* a known state for whatever comes next */
	return -1;
}

int td_pages_seek(struct td_pages *p, uint64_t page, char **err)
{
	uint64_t total = 0;
	int r = pages_seek(p, page, &total, err);

	if (r == 0)
		return set_err(err, "cpu %d: no page %llu (the data has %llu)",
			       p->cpu, (unsigned long long)page,
			       (unsigned long long)total);
	return r < 0 ? -1 : 0;
}

int td_pages_skip(struct td_pages *p, uint64_t page, char **err)
{
	uint64_t total;

	return pages_seek(p, page, &total, err);
}

/* Uncompressed data: a position every this many pages (td_pages_chunks). */
#define UNIT_PAGES 64

int td_pages_chunks(struct td_pages *p, struct td_page_pos **out, size_t *n, char **err)
{
	size_t cap = 0;
	uint64_t page = 0;

	*out = NULL;
	*n = 0;
	rewind_pages(p);
	if (!p->b->compressed) {
		uint64_t pages = (p->end - p->start) / p->page_size;

		*out = xcalloc((size_t)(pages / UNIT_PAGES) + 1, sizeof(**out));
		for (page = 0; page < pages; page += UNIT_PAGES) {
			(*out)[*n].page = page;
			(*out)[(*n)++].off = p->start + page * p->page_size;
		}
		return 0;
	}
	while (p->chunks_left) {
		uint64_t at = p->pos, cin = p->cin, cout = p->cout;
		uint32_t csize, usize;

		if (chunk_header(p, &csize, &usize, err)) {
			free(*out);
			*out = NULL;
			*n = 0;
			rewind_pages(p);
			return -1;
		}
		if (*n == cap) {
			cap = cap ? 2 * cap : 256;
			*out = xreallocarray(*out, cap, sizeof(**out));
		}
		(*out)[*n] = (struct td_page_pos){ .page = page, .off = at, .skip = 0,
						   .chunks_left = p->chunks_left,
						   .cin = cin, .cout = cout };
		(*n)++;
		page += usize / p->page_size;
		p->pos = at + 8 + csize;
		p->chunks_left--;
	}
	rewind_pages(p);
	return 0;
}

void td_pages_tell(const struct td_pages *p, struct td_page_pos *pos)
{
	size_t in = p->at >= p->page_size ? p->at - p->page_size : 0;

	memset(pos, 0, sizeof(*pos));
	pos->page = p->next_page ? p->next_page - 1 : 0;
	if (!p->b->compressed) {
		pos->off = p->cur.off + in;
		return;
	}
	pos->off = p->cur.off;
	pos->skip = (uint32_t)(in / p->page_size);
	pos->chunks_left = p->cur.chunks_left;
	pos->cin = p->cur.cin;
	pos->cout = p->cur.cout;
}

int td_pages_goto(struct td_pages *p, const struct td_page_pos *pos, char **err)
{
	rewind_pages(p);
	if (!p->b->compressed) {
		if (pos->off < p->start || pos->off >= p->end ||
		    (pos->off - p->start) % p->page_size)
			return set_err(err, "cpu %d: no page at offset %llu",
				       p->cpu, (unsigned long long)pos->off);
		p->pos = pos->off;
		p->next_page = (pos->off - p->start) / p->page_size;
		return 0;
	}
	/* a position from td_pages_tell of this CPU; checked all the same */
	if (pos->off < p->start || pos->off >= p->limit || !pos->chunks_left ||
	    pos->chunks_left > p->chunks_total || pos->cin > pos->off - p->start)
		return set_err(err, "cpu %d: no chunk at offset %llu",
			       p->cpu, (unsigned long long)pos->off);
	p->pos = pos->off;
	p->chunks_left = pos->chunks_left;
	p->cin = pos->cin;
	p->cout = pos->cout;
	if (load_chunk(p, err))
		return -1;
	if ((uint64_t)pos->skip * p->page_size >= p->fill)
		return set_err(err, "cpu %d: no page %u in the chunk at offset %llu",
			       p->cpu, pos->skip, (unsigned long long)pos->off);
	p->at = (size_t)pos->skip * p->page_size;
	p->next_page = pos->page;
	return 0;
}

void td_pages_close(struct td_pages *p)
{
	if (!p)
		return;
	readahead_stop(p);
	free(p->buf);
	free(p->cbuf);
	free(p);
}
