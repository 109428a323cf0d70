// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * trace.dat reader, part 4: walk the events of every CPU (walk_next, with
 * kbuffer's semantics; kbuffer itself for 32-bit pages and after an
 * absolute time stamp) and merge them in timestamp order with a small
 * binary heap (one entry per CPU stream). Each page is checked before it
 * is walked, and each event before it is handed out, so a corrupt page
 * is an error, not a wild read.
 *
 * Seeking (td_cursor_seek): a td_index remembers where every Nth page of
 * each stream lies and the time stamp of its first event; a seek moves
 * each stream to the last such page before the time, then walks events
 * up to it. See tracedat-read.h for what is guaranteed.
 */
#include "config.h"
#include "tracedat-local.h"
#include "fnv.h"

#include <kbuffer.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define COMMIT_MASK	((1u << 27) - 1)
#define MISSING_EVENTS	(1ull << 31)
#define MISSING_STORED	(1ull << 30)

struct stream {
	struct td_pages *pages;
	struct kbuffer *kbuf;
	int buffer, cpu;
	const uint8_t *page;
	size_t data_end;	/* offset in page where event data ends */
	void *data;		/* current event */
	int size;
	/*
	 * In a td_index: the CPU's place over all buffers. Here, in the
	 * padding after size: the struct stays 128 bytes, so indexing the
	 * streams in the merge is a shift (136 bytes cost 2% of a walk).
	 */
	int slot;
	unsigned long long ts;
	long long missed;	/* to report with the current event */
	long long pending;	/* seen on a page that had no events yet */
	long page_no;
	/* own walk of the current page (see walk_next), when fast */
	int fast;
	const uint8_t *base;	/* page data, after the header */
	size_t len, next;	/* data bytes, offset of the next record */
	size_t rec;		/* offset of the current event's record */
};

struct td_cursor {
	struct td_file *tf;
	const struct td_file *fmt;	/* whose formats (tf, or its fmt_from) */
	struct stream *streams;
	int nstreams;
	int *heap;		/* stream indexes, ordered by (ts, buffer, cpu) */
	int nheap;
	int started;		/* 0 not yet, 1 streaming, 2 a seek loaded the heads */
	int hdr_size;		/* page header: timestamp + commit */
	/*
	 * Formats by id, filled once: tep_find_event() is a binary search
	 * per event, a tenth of the time of a report on page-churn events.
	 */
	struct tep_event **by_id;
	int *min_size;		/* by id: bytes a record needs for its fields */
	int nids;
	int fast;		/* 64-bit longs: pages walked by walk_next */
	int readahead;		/* streams decompress in threads */
	struct td_index *ix;	/* pages loaded are added here */
};

#define INDEX_EVERY 16

struct ix_entry {
	uint64_t ts;		/* of the page's first event, with the file's offset */
	struct td_page_pos pos;
};

struct ix_stream {
	struct ix_entry *e;	/* by page, time stamps never decreasing */
	size_t n, cap;
};

struct td_index {
	struct td_file *tf;
	/* the file's identity: another td_file of the same file may use ix */
	int have_id;
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec mtime;
	uint64_t layout;	/* layout_hash() */
	unsigned int every;
	int nslots;
	struct ix_stream *s;	/* one per CPU slot over all buffers */
	size_t total;
};

/* 1 when page (of the stream at slot) should be indexed. */
static int index_due(const struct td_index *ix, int slot, uint64_t page)
{
	const struct ix_stream *is = &ix->s[slot];

	return !is->n || page >= is->e[is->n - 1].pos.page + ix->every;
}

/* Add the page s just loaded, its first event in s->ts. */
static void index_add(struct td_index *ix, const struct td_cursor *c,
		      const struct stream *s)
{
	struct ix_stream *is = &ix->s[s->slot];
	uint64_t ts = s->ts + (unsigned long long)c->tf->ts_offset;
	struct ix_entry *e;

	if (!index_due(ix, s->slot, (uint64_t)s->page_no - 1))
		return;
	/* a stream whose time goes backwards keeps a sorted index */
	if (is->n && ts < is->e[is->n - 1].ts)
		return;
	if (is->n == is->cap) {
		is->cap = is->cap ? 2 * is->cap : 64;
		is->e = xreallocarray(is->e, is->cap, sizeof(*is->e));
	}
	e = &is->e[is->n++];
	e->ts = ts;
	td_pages_tell(s->pages, &e->pos);
	ix->total++;
}

/*
 * Ring-buffer record types (kbuffer.h); 1..28 are data of type_len * 4
 * bytes, 0 is data with a 32-bit length word.
 */
#define RB_PADDING	29
#define RB_TIME_EXTEND	30
#define RB_TIME_STAMP	31

/*
 * The next data record of the page, walked here rather than through
 * kbuffer_next_event(): kbuffer reads every word through a function
 * pointer and was 40% of a decompress + walk. The semantics are
 * kbuffer's (libtraceevent 1.7): padding is skipped by its length word,
 * a time extend adds (word << 27) + delta, a data record adds its delta,
 * a type-0 record's length word counts itself and is rounded up to 4.
 * An absolute time stamp is rare, and its meaning has changed between
 * libtraceevent releases, so such a page is handed to kbuffer from there
 * on (stream_to_kbuffer). Every record must lie inside the page's data.
 * 1 with data/size/ts/rec set, 0 at the end of the page, 2 on a time
 * stamp, -1 on a record that runs past the data.
 */
/* A type-0 record's data length, rounded up to 4, clamped to int. */
static int rec_len(int32_t word)
{
	long long l = ((long long)word - 4 + 3) & ~3LL;

	return l < INT_MIN ? INT_MIN : l > INT_MAX ? INT_MAX : (int)l;
}

static int walk_next(struct stream *s, char **err)
{
	while (s->next < s->len) {
		size_t off = s->next, left = s->len - off, at;
		uint32_t w = td_le32(s->base + off);
		unsigned int type = w & 31;
		int size;

		switch (type) {
		case RB_PADDING:
			/* a tail under 8 bytes has no length word: the end */
			if (left < 8)
				return 0;
			s->ts += w >> 5;
			s->next = off + 4 + td_le32(s->base + off + 4);
			continue;
		case RB_TIME_EXTEND:
			/* kbuffer reads past the data and ends the page too */
			if (left < 8)
				return 0;
			s->ts += ((unsigned long long)td_le32(s->base + off + 4) << 27) + (w >> 5);
			s->next = off + 8;
			continue;
		case RB_TIME_STAMP:
			return 2;
		case 0:
			/*
			 * Length as kbuffer computes it (an int, so a word
			 * under 4 is negative); a word past the data is read
			 * from the page or its zeroed pad, then refused below.
			 * In 64 bits: INT_MIN - 4 overflowed an int (UBSan,
			 * fuzzing found).
			 */
			size = rec_len((int32_t)td_le32(s->base + off + 4));
			at = off + 8;
			break;
		default:
			size = (int)type * 4;
			at = off + 4;
			break;
		}
		if (size < 2 || at > s->len || (size_t)size > s->len - at)
			return set_err(err, "cpu %d page %ld: event at +%zu of %d bytes runs past the page data",
				       s->cpu, s->page_no - 1,
				       at + (size_t)(s->base - s->page), size);
		s->ts += w >> 5;
		s->data = (void *)(s->base + at);
		s->size = size;
		s->next = at + (size_t)size;
		s->rec = off;
		return 1;
	}
	return 0;
}

/*
 * Hand the rest of the page to kbuffer from the time stamp at s->next:
 * reload the page and skip the events walk_next already handed out.
 * 1 with the next event read, 0 when none is left.
 */
static int stream_to_kbuffer(struct stream *s)
{
	const uint8_t *stop = s->base + s->next;

	s->fast = 0;
	kbuffer_load_subbuffer(s->kbuf, (void *)s->page);
	s->data = kbuffer_read_event(s->kbuf, &s->ts);
	while (s->data && (const uint8_t *)s->data < stop)
		s->data = kbuffer_next_event(s->kbuf, &s->ts);
	return s->data != NULL;
}

static int stream_less(const struct td_cursor *c, int a, int b)
{
	const struct stream *x = &c->streams[a], *y = &c->streams[b];

	if (x->ts != y->ts)
		return x->ts < y->ts;
	if (x->buffer != y->buffer)
		return x->buffer < y->buffer;
	return x->cpu < y->cpu;
}

static void sift_down(struct td_cursor *c, int i)
{
	for (;;) {
		int l = 2 * i + 1, r = l + 1, m = i;

		if (l < c->nheap && stream_less(c, c->heap[l], c->heap[m]))
			m = l;
		if (r < c->nheap && stream_less(c, c->heap[r], c->heap[m]))
			m = r;
		if (m == i)
			return;
		int t = c->heap[i];

		c->heap[i] = c->heap[m];
		c->heap[m] = t;
		i = m;
	}
}

static void sift_up(struct td_cursor *c, int i)
{
	while (i > 0) {
		int parent = (i - 1) / 2;

		if (!stream_less(c, c->heap[i], c->heap[parent]))
			return;
		int t = c->heap[i];

		c->heap[i] = c->heap[parent];
		c->heap[parent] = t;
		i = parent;
	}
}

/*
 * Set s up on page (loaded just now): 1 with its first event ready, 0
 * when it has none (its lost-event count stays pending), -1 on error.
 */
static int stream_page(struct td_cursor *c, struct stream *s, const void *page,
		       char **err)
{
	uint64_t commit;
	size_t len, room;
	int r;

	s->page = page;
	commit = td_le64((const uint8_t *)page + 8);
	len = commit & COMMIT_MASK;
	room = c->tf->buffers[s->buffer].page_size - (size_t)c->hdr_size;
	if ((commit & MISSING_STORED) && room >= 8)
		room -= 8;
	if (len > room)
		return set_err(err, "cpu %d page %ld: commit size %zu exceeds the page (%zu)",
			       s->cpu, s->page_no - 1, len, room);
	if (!len)
		return 0;
	s->data_end = (size_t)c->hdr_size + len;
	if (c->fast) {
		long long missed = 0;

		s->fast = 1;
		s->base = s->page + c->hdr_size;
		s->len = len;
		s->next = 0;
		s->ts = td_le64(page);
		r = walk_next(s, err);
		if (r < 0)
			return -1;
		if (r == 2 && !stream_to_kbuffer(s))
			return 0;
		/*
		 * kbuffer_missed_events() reports the loss only when
		 * the first data record opens the page (no time extend
		 * before it); do the same, so dump matches trace-cmd.
		 */
		if (r == 1 && (commit & MISSING_EVENTS) && s->rec == 0)
			missed = (commit & MISSING_STORED) ?
				 (long long)td_le64(s->base + len) : -1;
		if (missed) {
			if (missed < 0 || s->pending < 0)
				s->pending = -1;
			else
				s->pending += missed;
		}
		if (r == 0)
			return 0;
		s->missed = s->pending;
		s->pending = 0;
		return 1;
	}
	s->fast = 0;
	kbuffer_load_subbuffer(s->kbuf, (void *)page);
	int missed = kbuffer_missed_events(s->kbuf);

	if (missed) {
		if (missed < 0 || s->pending < 0)
			s->pending = -1;
		else
			s->pending += missed;
	}
	s->data = kbuffer_read_event(s->kbuf, &s->ts);
	if (!s->data)
		return 0;
	s->missed = s->pending;
	s->pending = 0;
	return 1;
}

/* Load pages until one has an event; 1 event ready, 0 end, -1 error. */
static int stream_load_page(struct td_cursor *c, struct stream *s, char **err)
{
	for (;;) {
		const void *page;
		int r = td_pages_next(s->pages, &page, err);

		if (r <= 0)
			return r;
		s->page_no++;
		r = stream_page(c, s, page, err);
		if (r == 0)
			continue;
		if (r > 0 && c->ix)
			index_add(c->ix, c, s);
		return r;
	}
}

/* Check the current event lies inside the page's data. */
static int stream_check(struct stream *s, char **err)
{
	size_t off = (size_t)((const uint8_t *)s->data - s->page);

	if (s->fast)
		return 0;	/* walk_next checked it */
	s->size = kbuffer_event_size(s->kbuf);
	if (s->size < 2 || off > s->data_end || (size_t)s->size > s->data_end - off)
		return set_err(err, "cpu %d page %ld: event at +%zu of %d bytes runs past the page data",
			       s->cpu, s->page_no - 1, off, s->size);
	return 0;
}

static int stream_advance(struct td_cursor *c, struct stream *s, char **err)
{
	s->missed = 0;
	if (s->fast) {
		int w = walk_next(s, err);

		if (w < 0)
			return -1;
		if (w == 1)
			return 1;
		if (w == 2 && stream_to_kbuffer(s))
			return stream_check(s, err) ? -1 : 1;
	} else {
		s->data = kbuffer_next_event(s->kbuf, &s->ts);
		if (s->data)
			return stream_check(s, err) ? -1 : 1;
	}
	int r = stream_load_page(c, s, err);

	if (r <= 0)
		return r;
	return stream_check(s, err) ? -1 : 1;
}

/*
 * Decompress in threads (one per CPU stream, td_pages_readahead) when
 * this process has a CPU to spare and the streams are few: on one CPU
 * the threads only add switches, and a file with thousands of CPUs must
 * not start thousands of threads. Compare and export read several files
 * at once on their own threads (td_readers_at_once): with as many of
 * those as CPUs, read-ahead threads only oversubscribe them (24 lab
 * recordings on 2 CPUs: 11% more wall time with them). MMSCOPE_THREADS=0
 * turns the threads off, MMSCOPE_THREADS=1 on whatever the CPUs.
 */
#define READAHEAD_MAX_STREAMS 64

static int readers_at_once = 1;

void td_readers_at_once(int n)
{
	__atomic_store_n(&readers_at_once, n > 1 ? n : 1, __ATOMIC_RELAXED);
}

static int use_readahead(int streams)
{
	const char *env = getenv("MMSCOPE_THREADS");

	if (env && !strcmp(env, "0"))
		return 0;
	if (streams > READAHEAD_MAX_STREAMS)
		return 0;
	/* MMSCOPE_THREADS=1: on even without a CPU to spare (the
	 * ThreadSanitizer run, tests/tsan/threads.sh, on any machine) */
	if (env && !strcmp(env, "1"))
		return 1;
	return cpus_usable() > __atomic_load_n(&readers_at_once, __ATOMIC_RELAXED);
}

/*
 * The bytes a record of event e must have: every field's end, but only
 * the start of a fixed-size array (the kernel's kernel_stack records hold
 * `size` of the 8 callers its format declares).
 */
static int format_min_size(const struct tep_event *e)
{
	const struct tep_format_field *const lists[] = {
		e->format.common_fields, e->format.fields,
	};
	int min = 0;

	for (int l = 0; l < 2; l++)
		for (const struct tep_format_field *f = lists[l]; f; f = f->next) {
			int end = f->offset;

			if (!(f->flags & TEP_FIELD_IS_ARRAY) || (f->flags & TEP_FIELD_IS_DYNAMIC))
				end += f->size;
			if (end > min)
				min = end;
		}
	return min;
}

/* With start_ra the read-ahead threads start now, else at a seek. */
static struct td_cursor *cursor_create(struct td_file *tf, int buffer, int start_ra,
				       char **err)
{
	struct td_cursor *c = xcalloc(1, sizeof(*c));
	int total = 0, readahead;

	c->tf = tf;
	c->fmt = tf->fmt_from ? tf->fmt_from : tf;
	c->hdr_size = 8 + tf->long_size;
	/*
	 * Own page walk where the page header is 8 + 8 bytes, as on every
	 * 64-bit kernel; MMSCOPE_KBUFFER=1 walks with kbuffer throughout
	 * (to compare the two).
	 */
	c->fast = tf->long_size == 8 && !getenv("MMSCOPE_KBUFFER");
	for (int b = 0; b < tf->nbuffers; b++)
		if (buffer < 0 || b == buffer)
			total += tf->buffers[b].ncpus;
	readahead = use_readahead(total);
	c->readahead = readahead;
	c->streams = xcalloc((size_t)total + 1, sizeof(*c->streams));
	c->heap = xcalloc((size_t)total + 1, sizeof(int));
	{
		struct tep_event **evs = tep_list_events(c->fmt->tep, TEP_EVENT_SORT_ID);

		/* ids in the data are 16 bits; others can never be looked up */
		for (int i = 0; evs && evs[i]; i++)
			if (evs[i]->id >= c->nids && evs[i]->id <= 0xffff)
				c->nids = evs[i]->id + 1;
		c->by_id = xcalloc((size_t)c->nids + 1, sizeof(*c->by_id));
		c->min_size = xcalloc((size_t)c->nids + 1, sizeof(*c->min_size));
		for (int i = 0; evs && evs[i]; i++)
			if (evs[i]->id >= 0 && evs[i]->id < c->nids) {
				c->by_id[evs[i]->id] = evs[i];
				c->min_size[evs[i]->id] = format_min_size(evs[i]);
			}
	}
	for (int b = 0, slot = 0; b < tf->nbuffers; slot += tf->buffers[b++].ncpus) {
		if (buffer >= 0 && b != buffer)
			continue;
		for (int cpu = 0; cpu < tf->buffers[b].ncpus; cpu++) {
			struct stream *s = &c->streams[c->nstreams];

			s->buffer = b;
			s->cpu = cpu;
			s->slot = slot + cpu;
			s->pages = td_pages_open(tf, b, cpu, err);
			if (!s->pages)
				goto fail;
			if (readahead && start_ra)
				td_pages_readahead(s->pages, 0);
			s->kbuf = tep_kbuffer(tf->tep);
			if (!s->kbuf) {
				set_err(err, "cannot set up kbuffer");
				goto fail;
			}
			c->nstreams++;
		}
	}
	return c;
fail:
	td_cursor_free(c);
	return NULL;
}

struct td_cursor *td_cursor_new(struct td_file *tf, int buffer, char **err)
{
	return cursor_create(tf, buffer, 1, err);
}

static int cursor_start(struct td_cursor *c, char **err)
{
	c->started = 1;
	for (int i = 0; i < c->nstreams; i++) {
		int r = stream_load_page(c, &c->streams[i], err);

		if (r < 0 || (r > 0 && stream_check(&c->streams[i], err)))
			return -1;
		if (r > 0) {
			c->heap[c->nheap++] = i;
			sift_up(c, c->nheap - 1);
		}
	}
	return 0;
}

int td_cursor_next(struct td_cursor *c, struct td_event *ev, char **err)
{
	struct stream *s;
	int r;

	/* one test per event on the hot path, as before seeking existed */
	if (c->started != 1) {
		if (!c->started && cursor_start(c, err))
			return -1;
		c->started = 1;	/* after a seek: hand out the heads it loaded first */
	} else if (c->nheap) {
		/* advance the stream whose event was handed out last time */
		s = &c->streams[c->heap[0]];
		r = stream_advance(c, s, err);
		if (r < 0)
			return -1;
		if (r == 0)
			c->heap[0] = c->heap[--c->nheap];
		if (c->nheap)
			sift_down(c, 0);
	}
	if (!c->nheap)
		return 0;
	s = &c->streams[c->heap[0]];
	/*
	 * Every field set one by one, no memset: gcc makes a memset (or a
	 * zeroing initializer) of this struct a "rep stos", a twentieth of
	 * a report's time at 30 M events/s. A new field must be set here.
	 */
	unsigned int id = td_le16(s->data);

	ev->ts = s->ts + (unsigned long long)c->tf->ts_offset;
	ev->cpu = s->cpu;
	ev->buffer = s->buffer;
	ev->event = id < (unsigned int)c->nids ? c->by_id[id] : NULL;
	ev->data = s->data;
	ev->size = s->size;
	ev->missed = s->missed;
	/*
	 * An id whose format was in the file but did not parse cannot be
	 * decoded; printing it as unknown would hide a damaged file.
	 */
	if (!ev->event && td_bad_id(c->fmt, td_le16(s->data)))
		return set_err(err, "cpu %d: no format for event id %u (%d event format%s in the file did not parse)",
			       s->cpu, td_le16(s->data), c->fmt->bad_formats,
			       c->fmt->bad_formats == 1 ? "" : "s");
	/*
	 * libtraceevent reads fields at their offsets without checking the
	 * record's size: an ftrace:print shorter than 16 bytes (its text
	 * starts at byte 16) made it malloc 4 GB and die (fuzzing).
	 */
	if (ev->event && s->size < c->min_size[id])
		return set_err(err, "cpu %d: event %s:%s of %d bytes is shorter than its format (%d bytes)",
			       s->cpu, ev->event->system, ev->event->name, s->size,
			       c->min_size[id]);
	td_event_fill_record(ev);
	return 1;
}

void td_cursor_progress(const struct td_cursor *c, uint64_t *done, uint64_t *total)
{
	*done = *total = 0;
	for (int i = 0; i < c->nstreams; i++) {
		uint64_t d, t;

		if (!c->streams[i].pages)
			continue;
		td_pages_progress(c->streams[i].pages, &d, &t);
		*done += d;
		*total += t;
	}
}

void td_cursor_free(struct td_cursor *c)
{
	if (!c)
		return;
	for (int i = 0; i < c->nstreams; i++) {
		td_pages_close(c->streams[i].pages);
		kbuffer_free(c->streams[i].kbuf);
	}
	free(c->streams);
	free(c->heap);
	free(c->by_id);
	free(c->min_size);
	free(c);
}

/* ---- seeking ---- */

static uint64_t layout_hash(const struct td_file *tf);

struct td_index *td_index_new(struct td_file *tf, unsigned int every)
{
	struct td_index *ix = xcalloc(1, sizeof(*ix));

	struct stat sb;

	ix->tf = tf;
	if (!fstat(tf->fd, &sb)) {
		ix->have_id = 1;
		ix->dev = sb.st_dev;
		ix->ino = sb.st_ino;
		ix->size = sb.st_size;
		ix->mtime = sb.st_mtim;
	}
	ix->layout = layout_hash(tf);
	ix->every = every ? every : INDEX_EVERY;
	for (int b = 0; b < tf->nbuffers; b++)
		ix->nslots += tf->buffers[b].ncpus;
	ix->s = xcalloc((size_t)ix->nslots + 1, sizeof(*ix->s));
	return ix;
}

void td_index_free(struct td_index *ix)
{
	if (!ix)
		return;
	for (int i = 0; i < ix->nslots; i++)
		free(ix->s[i].e);
	free(ix->s);
	free(ix);
}

/* A hash of what the positions in an index depend on. */
static uint64_t layout_hash(const struct td_file *tf)
{
	uint64_t h = FNV64_BASIS;

#define MIX(v) (h = fnv64_word(h, (uint64_t)(v)))
	MIX(tf->nbuffers);
	MIX(tf->ts_offset);
	MIX(tf->size);
	for (int b = 0; b < tf->nbuffers; b++) {
		const struct td_buffer *x = &tf->buffers[b];

		MIX(x->ncpus);
		MIX(x->page_size);
		MIX(x->compressed);
		for (int c = 0; c < x->ncpus; c++) {
			MIX(x->cpu_offset[c]);
			MIX(x->cpu_size[c]);
		}
	}
#undef MIX
	return h;
}

/*
 * 1 when ix may serve tf: the file it was made for, or another td_file
 * of the same file, unchanged (the TUI could index in its analysis pass
 * and seek in the file it opened for the events view). The positions are
 * checked when used in any case: a wrong index can make a seek fail or
 * return other events, never read out of bounds.
 */
static int index_matches(const struct td_index *ix, const struct td_file *tf)
{
	struct stat sb;

	if (layout_hash(tf) != ix->layout)
		return 0;
	if (!ix->have_id)
		return ix->tf == tf;
	return !fstat(tf->fd, &sb) && sb.st_dev == ix->dev && sb.st_ino == ix->ino &&
	       sb.st_size == ix->size && sb.st_mtim.tv_sec == ix->mtime.tv_sec &&
	       sb.st_mtim.tv_nsec == ix->mtime.tv_nsec;
}

size_t td_index_size(const struct td_index *ix)
{
	return ix ? ix->total : 0;
}

int td_index_attach(struct td_index *ix, struct td_file *tf, char **err)
{
	if (!index_matches(ix, tf))
		return set_err(err, "the index was made for another file");
	ix->tf = tf;
	return 0;
}

int td_cursor_set_index(struct td_cursor *c, struct td_index *ix, char **err)
{
	if (ix && !index_matches(ix, c->tf))
		return set_err(err, "the index was made for another file");
	c->ix = ix;
	return 0;
}

/*
 * A sparse index (a page in SPARSE_EVERY or more) skips to each page due
 * with td_pages_skip, which walks chunk headers without decompressing the
 * chunks between: the cost is one chunk per entry, not the whole file.
 */
#define SPARSE_EVERY 128

static int index_build_sparse(struct td_index *ix, char **err)
{
	struct td_cursor *c = cursor_create(ix->tf, -1, 0, err);
	int rc = -1;

	if (!c)
		return -1;
	for (int i = 0; i < c->nstreams; i++) {
		struct stream *s = &c->streams[i];

		for (;;) {
			const void *page;
			int r = td_pages_next(s->pages, &page, err);

			if (r < 0)
				goto out;
			if (r == 0)
				break;
			s->page_no++;
			s->pending = 0;
			r = stream_page(c, s, page, err);
			if (r < 0)
				goto out;
			if (r == 0)
				continue;	/* no events: the next page may have */
			index_add(ix, c, s);
			r = td_pages_skip(s->pages, (uint64_t)s->page_no - 1 + ix->every, err);
			if (r < 0)
				goto out;
			if (r == 0)
				break;
			s->page_no = (long)((uint64_t)s->page_no - 1 + ix->every);
		}
	}
	rc = 0;
out:
	td_cursor_free(c);
	return rc;
}

/*
 * The streams are read in turn, a page each, so their read-ahead threads
 * decompress side by side; only the pages due for the index are walked,
 * and only to their first event.
 */
int td_index_build(struct td_index *ix, char **err)
{
	struct td_cursor *c;
	int active, rc = -1;
	char *done;

	if (ix->every >= SPARSE_EVERY)
		return index_build_sparse(ix, err);
	c = cursor_create(ix->tf, -1, 1, err);
	if (!c)
		return -1;
	done = xcalloc((size_t)c->nstreams + 1, 1);
	active = c->nstreams;
	while (active) {
		active = 0;
		for (int i = 0; i < c->nstreams; i++) {
			struct stream *s = &c->streams[i];
			const void *page;
			int r;

			if (done[i])
				continue;
			r = td_pages_next(s->pages, &page, err);
			if (r < 0)
				goto out;
			if (r == 0) {
				done[i] = 1;
				continue;
			}
			active++;
			s->page_no++;
			if (!index_due(ix, s->slot, (uint64_t)s->page_no - 1))
				continue;
			s->pending = 0;
			r = stream_page(c, s, page, err);
			if (r < 0)
				goto out;
			if (r > 0)
				index_add(ix, c, s);
		}
	}
	rc = 0;
out:
	free(done);
	td_cursor_free(c);
	return rc;
}

/*
 * The first event of the start's unit (a chunk, or 64 uncompressed
 * pages) at or after its start: 1 with *ts and the page's position, 0
 * when the unit has none, -1 on error.
 */
static int probe_unit(struct td_cursor *c, struct stream *s, const struct td_page_pos *start,
		      uint64_t pages, uint64_t *ts, struct td_page_pos *at, char **err)
{
	if (td_pages_goto(s->pages, start, err))
		return -1;
	s->page_no = (long)start->page;
	for (uint64_t k = 0; k < pages; k++) {
		const void *page;
		int r = td_pages_next(s->pages, &page, err);

		if (r <= 0)
			return r;
		s->page_no++;
		s->pending = 0;
		r = stream_page(c, s, page, err);
		if (r < 0)
			return -1;
		if (r > 0) {
			*ts = s->ts + (unsigned long long)c->tf->ts_offset;
			td_pages_tell(s->pages, at);
			return 1;
		}
	}
	return 0;
}

/*
 * An index for one time stamp: per stream, a binary search over its
 * units for the last whose first event is before ts. A unit costs one
 * chunk to decompress, so a stream of n chunks costs about log2(n) of
 * them, and the chunk list comes from the chunk headers alone: a window
 * of a long recording no longer pays for indexing the whole file.
 */
int td_index_build_at(struct td_index *ix, uint64_t ts, char **err)
{
	struct td_cursor *c = cursor_create(ix->tf, -1, 0, err);
	struct td_page_pos *units = NULL;
	int rc = -1;

	if (!c)
		return -1;
	for (int i = 0; i < c->nstreams; i++) {
		struct stream *s = &c->streams[i];
		struct ix_stream *is = &ix->s[s->slot];
		struct ix_entry best;
		size_t n, lo = 0, hi;
		int have = 0;

		free(units);
		units = NULL;
		if (td_pages_chunks(s->pages, &units, &n, err))
			goto out;
		hi = n;
		/* the ends first: a file of a set that starts after ts, or
		 * ends before it, costs one unit rather than log2(n) */
		if (n > 2) {
			struct ix_entry e;
			int r = probe_unit(c, s, &units[0], units[1].page - units[0].page,
					   &e.ts, &e.pos, err);

			if (r < 0)
				goto out;
			if (r > 0 && e.ts >= ts) {
				hi = 0;
			} else if (r > 0) {
				best = e;
				have = 1;
				lo = 1;
				r = probe_unit(c, s, &units[n - 1], UINT64_MAX, &e.ts, &e.pos, err);
				if (r < 0)
					goto out;
				if (r > 0 && e.ts < ts) {
					best = e;
					lo = hi = n;
				}
			}
		}
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			uint64_t pages = mid + 1 < n ? units[mid + 1].page - units[mid].page : UINT64_MAX;
			struct ix_entry e;
			int r = probe_unit(c, s, &units[mid], pages, &e.ts, &e.pos, err);

			if (r < 0)
				goto out;
			/* a unit without events counts as late: the seek
			 * then walks from an earlier one, never misses one */
			if (r > 0 && e.ts < ts) {
				best = e;
				have = 1;
				lo = mid + 1;
			} else {
				hi = mid;
			}
		}
		if (!have || (is->n && best.ts < is->e[is->n - 1].ts))
			continue;
		if (is->n == is->cap) {
			is->cap = is->cap ? 2 * is->cap : 64;
			is->e = xreallocarray(is->e, is->cap, sizeof(*is->e));
		}
		is->e[is->n++] = best;
		ix->total++;
	}
	rc = 0;
out:
	free(units);
	td_cursor_free(c);
	return rc;
}

int td_last_ts(struct td_file *tf, uint64_t *ts, char **err)
{
	struct td_cursor *c = cursor_create(tf, -1, 0, err);
	struct td_page_pos *units = NULL;
	uint64_t off = (unsigned long long)tf->ts_offset, last = 0;
	int rc = -1;

	if (!c)
		return -1;
	for (int i = 0; i < c->nstreams; i++) {
		struct stream *s = &c->streams[i];
		size_t n;

		free(units);
		units = NULL;
		if (td_pages_chunks(s->pages, &units, &n, err))
			goto out;
		/* from the last unit back to the first that holds an event,
		 * then every event from there to the stream's end */
		for (size_t u = n; u-- > 0;) {
			uint64_t pages = u + 1 < n ? units[u + 1].page - units[u].page : UINT64_MAX;
			struct td_page_pos pos;
			uint64_t t;
			int r = probe_unit(c, s, &units[u], pages, &t, &pos, err);

			if (r < 0)
				goto out;
			if (!r)
				continue;
			do {
				if (s->ts + off > last)
					last = s->ts + off;
			} while ((r = stream_advance(c, s, err)) > 0);
			if (r < 0)
				goto out;
			break;
		}
	}
	*ts = last;
	rc = 0;
out:
	free(units);
	td_cursor_free(c);
	return rc;
}

/* The last entry of is whose first event is before ts, or NULL. */
static const struct ix_entry *index_find(const struct ix_stream *is, uint64_t ts)
{
	size_t lo = 0, hi = is->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (is->e[mid].ts < ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? &is->e[lo - 1] : NULL;
}

int td_cursor_seek(struct td_cursor *c, const struct td_index *ix, uint64_t ts,
		   char **err)
{
	uint64_t off = (unsigned long long)c->tf->ts_offset;

	if (ix && !index_matches(ix, c->tf))
		return set_err(err, "the index was made for another file");
	c->started = 2;
	c->nheap = 0;
	for (int i = 0; i < c->nstreams; i++) {
		struct stream *s = &c->streams[i];
		const struct ix_entry *e = ix ? index_find(&ix->s[s->slot], ts) : NULL;
		int r;

		s->missed = s->pending = 0;
		s->fast = 0;
		s->data = NULL;
		if (e) {
			r = td_pages_goto(s->pages, &e->pos, err);
			s->page_no = (long)e->pos.page;
		} else {
			/* td_pages_seek to page 0 of an empty CPU fails: reopen */
			struct td_pages *p = td_pages_open(c->tf, s->buffer, s->cpu, err);

			r = p ? 0 : -1;
			if (p) {
				td_pages_close(s->pages);
				s->pages = p;
			}
			s->page_no = 0;
		}
		if (r)
			goto fail;
		/* a window's worth of events needs no thread; a long read does */
		if (c->readahead)
			td_pages_readahead(s->pages, 2);
		r = stream_load_page(c, s, err);
		if (r > 0 && stream_check(s, err))
			goto fail;
		while (r > 0 && s->ts + off < ts) {
			r = stream_advance(c, s, err);
			if (r < 0)
				goto fail;
		}
		if (r < 0)
			goto fail;
		if (r > 0) {
			c->heap[c->nheap++] = i;
			sift_up(c, c->nheap - 1);
		}
	}
	return 0;
fail:
	/* the cursor is left at its end: no stale events after an error */
	c->nheap = 0;
	c->started = 1;
	return -1;
}

struct td_cursor *td_cursor_new_at(struct td_file *tf, int buffer,
				   const struct td_index *ix, uint64_t ts,
				   char **err)
{
	struct td_cursor *c = cursor_create(tf, buffer, 0, err);

	if (c && td_cursor_seek(c, ix, ts, err)) {
		td_cursor_free(c);
		return NULL;
	}
	return c;
}

int td_first_ts(struct td_file *tf, uint64_t *ts, char **err)
{
	struct td_cursor *c = td_cursor_new(tf, -1, err);
	struct td_event ev;
	int r;

	if (!c)
		return -1;
	r = td_cursor_next(c, &ev, err);
	*ts = r > 0 ? ev.ts : 0;
	td_cursor_free(c);
	return r < 0 ? -1 : 0;
}
