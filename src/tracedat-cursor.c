// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * trace.dat reader, part 4: walk the events of every CPU with kbuffer and
 * merge them in timestamp order with a small binary heap (one entry per
 * CPU stream). Each page is checked before kbuffer sees it, and each event
 * before it is handed out, so a corrupt page is an error, not a wild read.
 */
#include "config.h"
#include "tracedat-local.h"

#include <kbuffer.h>
#include <stdlib.h>
#include <string.h>

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
	unsigned long long ts;
	long long missed;	/* to report with the current event */
	long long pending;	/* seen on a page that had no events yet */
	long page_no;
};

struct td_cursor {
	struct td_file *tf;
	struct stream *streams;
	int nstreams;
	int *heap;		/* stream indexes, ordered by (ts, buffer, cpu) */
	int nheap;
	int started;
	int hdr_size;		/* page header: timestamp + commit */
};

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

/* Load pages until one has an event; 1 event ready, 0 end, -1 error. */
static int stream_load_page(struct td_cursor *c, struct stream *s, char **err)
{
	for (;;) {
		const void *page;
		uint64_t commit;
		size_t len, room;
		int r = td_pages_next(s->pages, &page, err);

		if (r <= 0)
			return r;
		s->page_no++;
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
			continue;
		s->data_end = (size_t)c->hdr_size + len;
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
			continue;
		s->missed = s->pending;
		s->pending = 0;
		return 1;
	}
}

/* Check the current event lies inside the page's data. */
static int stream_check(struct stream *s, char **err)
{
	size_t off = (size_t)((const uint8_t *)s->data - s->page);

	s->size = kbuffer_event_size(s->kbuf);
	if (s->size < 2 || off > s->data_end || (size_t)s->size > s->data_end - off)
		return set_err(err, "cpu %d page %ld: event at +%zu of %d bytes runs past the page data",
			       s->cpu, s->page_no - 1, off, s->size);
	return 0;
}

static int stream_advance(struct td_cursor *c, struct stream *s, char **err)
{
	s->missed = 0;
	s->data = kbuffer_next_event(s->kbuf, &s->ts);
	if (s->data)
		return stream_check(s, err) ? -1 : 1;
	int r = stream_load_page(c, s, err);

	if (r <= 0)
		return r;
	return stream_check(s, err) ? -1 : 1;
}

struct td_cursor *td_cursor_new(struct td_file *tf, int buffer, char **err)
{
	struct td_cursor *c = xcalloc(1, sizeof(*c));
	int total = 0;

	c->tf = tf;
	c->hdr_size = 8 + tf->long_size;
	for (int b = 0; b < tf->nbuffers; b++)
		if (buffer < 0 || b == buffer)
			total += tf->buffers[b].ncpus;
	c->streams = xcalloc((size_t)total + 1, sizeof(*c->streams));
	c->heap = xcalloc((size_t)total + 1, sizeof(int));
	for (int b = 0; b < tf->nbuffers; b++) {
		if (buffer >= 0 && b != buffer)
			continue;
		for (int cpu = 0; cpu < tf->buffers[b].ncpus; cpu++) {
			struct stream *s = &c->streams[c->nstreams];

			s->buffer = b;
			s->cpu = cpu;
			s->pages = td_pages_open(tf, b, cpu, err);
			if (!s->pages)
				goto fail;
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

	if (!c->started) {
		if (cursor_start(c, err))
			return -1;
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
	memset(ev, 0, sizeof(*ev));
	ev->ts = s->ts + (unsigned long long)c->tf->ts_offset;
	ev->cpu = s->cpu;
	ev->buffer = s->buffer;
	ev->data = s->data;
	ev->size = s->size;
	ev->missed = s->missed;
	ev->event = tep_find_event(c->tf->tep, (int)td_le16(s->data));
	/*
	 * An id whose format was in the file but did not parse cannot be
	 * decoded; printing it as unknown would hide a damaged file.
	 */
	if (!ev->event && td_bad_id(c->tf, td_le16(s->data)))
		return set_err(err, "cpu %d: no format for event id %u (%d event format%s in the file did not parse)",
			       s->cpu, td_le16(s->data), c->tf->bad_formats,
			       c->tf->bad_formats == 1 ? "" : "s");
	ev->record.ts = ev->ts;
	ev->record.cpu = s->cpu;
	ev->record.size = s->size;
	ev->record.record_size = s->size;
	ev->record.data = s->data;
	ev->record.missed_events = s->missed;
	ev->record.ref_count = 1;
	ev->record.locked = 1;
	return 1;
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
	free(c);
}
