// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The live merge (see live-merge.h). Each CPU has a FIFO of page copies
 * and a kbuffer over the page at its head; the events are walked with
 * libtraceevent's kbuffer (the reference walk: live rates are far below
 * what the reader's own fast walk is for). A drain repeatedly takes the
 * CPU whose next event is earliest, as long as that event is at or
 * before the horizon; with a handful of CPUs a linear scan beats a heap.
 */
#include "config.h"
#include "live-merge.h"
#include "util.h"

#include <kbuffer.h>
#include <stdlib.h>
#include <string.h>

struct live_cpu {
	void **pages;		/* FIFO: pages[head..tail) */
	size_t head, tail, cap;
	struct kbuffer *kbuf;
	int loaded;		/* kbuf walks pages[head] */
	long long missed;	/* for the first event of the loaded page */
	void *data;		/* current event, NULL when none */
	unsigned long long ts;
};

struct live_merge {
	struct tep_handle *tep;
	int ncpus;
	uint32_t page_size;
	struct live_cpu *cpu;
	uint64_t events, late, last_ts, queued;
	struct tep_event *last_event;	/* one-entry cache of the id lookup */
};

struct live_merge *live_merge_new(struct tep_handle *tep, int ncpus, uint32_t page_size)
{
	struct live_merge *m = xcalloc(1, sizeof(*m));
	enum kbuffer_long_size ls = tep_get_long_size(tep) == 4 ? KBUFFER_LSIZE_4 :
				    KBUFFER_LSIZE_8;
	enum kbuffer_endian en = tep_is_file_bigendian(tep) ? KBUFFER_ENDIAN_BIG :
				 KBUFFER_ENDIAN_LITTLE;

	m->tep = tep;
	m->ncpus = ncpus;
	m->page_size = page_size;
	m->cpu = xcalloc((size_t)ncpus, sizeof(*m->cpu));
	for (int c = 0; c < ncpus; c++) {
		m->cpu[c].kbuf = kbuffer_alloc(ls, en);
		if (!m->cpu[c].kbuf) {
			live_merge_free(m);
			return NULL;
		}
	}
	return m;
}

void live_merge_free(struct live_merge *m)
{
	if (!m)
		return;
	for (int c = 0; c < m->ncpus; c++) {
		struct live_cpu *lc = &m->cpu[c];

		for (size_t i = lc->head; i < lc->tail; i++)
			free(lc->pages[i]);
		free(lc->pages);
		if (lc->kbuf)
			kbuffer_free(lc->kbuf);
	}
	free(m->cpu);
	free(m);
}

int live_merge_add_page(struct live_merge *m, int cpu, const void *page)
{
	struct live_cpu *lc;

	if (cpu < 0 || cpu >= m->ncpus)
		return -1;
	lc = &m->cpu[cpu];
	if (lc->tail == lc->cap) {
		if (lc->head) {		/* slide the live part to the front */
			memmove(lc->pages, lc->pages + lc->head,
				(lc->tail - lc->head) * sizeof(*lc->pages));
			lc->tail -= lc->head;
			lc->head = 0;
		} else {
			lc->cap = lc->cap ? lc->cap * 2 : 16;
			lc->pages = xrealloc(lc->pages, lc->cap * sizeof(*lc->pages));
		}
	}
	lc->pages[lc->tail] = xmalloc(m->page_size);
	memcpy(lc->pages[lc->tail++], page, m->page_size);
	m->queued++;
	return 0;
}

/* Makes lc->data the CPU's next event, loading queued pages as the
 * current one runs out; NULL when the queue is empty. */
static void live_cpu_peek(struct live_merge *m, struct live_cpu *lc)
{
	while (!lc->data) {
		if (lc->loaded) {
			lc->data = kbuffer_next_event(lc->kbuf, &lc->ts);
			if (lc->data)
				return;
			free(lc->pages[lc->head++]);
			m->queued--;
			lc->loaded = 0;
		}
		if (lc->head == lc->tail)
			return;
		if (kbuffer_load_subbuffer(lc->kbuf, lc->pages[lc->head]) < 0) {
			free(lc->pages[lc->head++]);	/* not a page: skip it */
			m->queued--;
			continue;
		}
		lc->loaded = 1;
		lc->missed = kbuffer_missed_events(lc->kbuf);
		lc->data = kbuffer_read_event(lc->kbuf, &lc->ts);
		if (lc->data)
			return;
		/* an empty page: the loop frees it */
	}
}

static struct tep_event *live_event_of(struct live_merge *m, struct tep_record *rec)
{
	int id = tep_data_type(m->tep, rec);

	if (!m->last_event || m->last_event->id != id)
		m->last_event = tep_find_event(m->tep, id);
	return m->last_event;
}

uint64_t live_merge_drain(struct live_merge *m, uint64_t horizon, live_event_fn fn, void *ctx)
{
	uint64_t n = 0;

	for (;;) {
		struct live_cpu *best = NULL;
		struct td_event ev;
		int bc = -1;

		for (int c = 0; c < m->ncpus; c++) {
			struct live_cpu *lc = &m->cpu[c];

			live_cpu_peek(m, lc);
			if (lc->data && lc->ts <= horizon && (!best || lc->ts < best->ts)) {
				best = lc;
				bc = c;
			}
		}
		if (!best)
			return n;
		memset(&ev, 0, sizeof(ev));
		ev.ts = best->ts;
		ev.cpu = bc;
		ev.data = best->data;
		ev.size = kbuffer_event_size(best->kbuf);
		ev.missed = best->missed;
		best->missed = 0;
		td_event_fill_record(&ev);
		ev.event = live_event_of(m, &ev.record);
		if (ev.ts < m->last_ts)
			m->late++;
		else
			m->last_ts = ev.ts;
		m->events++;
		n++;
		fn(ctx, &ev);
		best->data = NULL;	/* the next peek moves on */
	}
}

uint64_t live_merge_events(const struct live_merge *m) { return m->events; }
uint64_t live_merge_late(const struct live_merge *m) { return m->late; }
uint64_t live_merge_queued_pages(const struct live_merge *m) { return m->queued; }
