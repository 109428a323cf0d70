// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The live merge against the reader's cursor, the independent path: the
 * pages of real recordings are handed to live_merge as a live session
 * would get them (a page per CPU at a time, drained up to a horizon
 * before which every CPU's pages have arrived), and the events must come
 * out exactly as td_cursor_next() gives them: same order, timestamps,
 * CPUs, sizes, bytes and lost-event counts, none of them late. A second
 * run with a horizon that lies (pages arrive after it) must still hand
 * out every event, and count late ones exactly when the order broke.
 */
#include "config.h"
#include "tap.h"
#include "live-merge.h"
#include "tracedat-read.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

struct seen {
	uint64_t n, ts_hash, data_hash, bad_order;
	long long missed;
	uint64_t last_ts;
};

static uint64_t mix(uint64_t h, uint64_t v)
{
	return (h ^ v) * 0x100000001b3ULL + 0x9e3779b97f4a7c15ULL;
}

static void take(struct seen *s, uint64_t ts, int cpu, const void *data, int size,
		 long long missed)
{
	const unsigned char *p = data;
	uint64_t h = (uint64_t)size;

	for (int i = 0; i < size; i++)
		h = h * 31 + p[i];
	s->ts_hash = mix(s->ts_hash, ts * 64 + (uint64_t)cpu);
	s->data_hash = mix(s->data_hash, h);
	s->missed = s->missed * 3 + missed;
	if (ts < s->last_ts)
		s->bad_order++;
	s->last_ts = ts;
	s->n++;
}

static void on_event(void *ctx, const struct td_event *ev)
{
	take(ctx, ev->ts, ev->cpu, ev->data, ev->size, ev->missed);
}

/* The buffer with the most CPUs holding data (trace-cmd extract leaves
 * an empty top level beside the instance). */
static int data_buffer(struct td_file *tf)
{
	int best = 0;
	uint64_t most = 0;

	for (int b = 0; b < td_nbuffers(tf); b++) {
		const struct td_buffer *buf = td_buffer(tf, b);
		uint64_t sz = 0;

		for (int c = 0; c < buf->ncpus; c++)
			sz += buf->cpu_size[c];
		if (sz > most) {
			most = sz;
			best = b;
		}
	}
	return best;
}

static void *copy_page(const void *pg, uint32_t n)
{
	void *p = xmalloc(n);

	memcpy(p, pg, n);
	return p;
}

static uint64_t page_ts(const void *page)
{
	uint64_t ts;

	memcpy(&ts, page, sizeof(ts));
	return ts;
}

/* Feeds buffer b's pages to a live merge, one page per CPU per round.
 * honest: the horizon is just before the earliest page not yet handed
 * in; otherwise it runs one page-time ahead of that (some pages arrive
 * late). */
static int feed_live(struct td_file *tf, int b, int honest, struct seen *out,
		     uint64_t *late)
{
	const struct td_buffer *buf = td_buffer(tf, b);
	struct td_pages **p = xcalloc((size_t)buf->ncpus, sizeof(*p));
	void **next = xcalloc((size_t)buf->ncpus, sizeof(*next));
	struct live_merge *m = live_merge_new(td_tep(tf), buf->ncpus, buf->page_size);
	char *err = NULL;
	int more = 1, ret = 0;

	if (!m)
		return -1;
	for (int c = 0; c < buf->ncpus; c++) {
		const void *pg;

		next[c] = NULL;
		if (!buf->cpu_size[c])
			continue;
		p[c] = td_pages_open(tf, b, c, &err);
		if (!p[c]) {
			ret = -1;
			goto out;
		}
		if (td_pages_next(p[c], &pg, &err) > 0)
			next[c] = copy_page(pg, buf->page_size);
	}
	while (more) {
		uint64_t horizon = UINT64_MAX, pending = UINT64_MAX;

		more = 0;
		for (int c = 0; c < buf->ncpus; c++) {
			const void *pg;

			if (!next[c])
				continue;
			live_merge_add_page(m, c, next[c]);
			free(next[c]);
			next[c] = NULL;
			if (td_pages_next(p[c], &pg, &err) > 0) {
				next[c] = copy_page(pg, buf->page_size);
				if (page_ts(pg) < pending)
					pending = page_ts(pg);
				more = 1;
			}
		}
		if (more)
			horizon = honest ? pending - 1 : pending + 2000000;
		live_merge_drain(m, horizon, on_event, out);
	}
	live_merge_drain(m, UINT64_MAX, on_event, out);
	*late = live_merge_late(m);
	if (live_merge_queued_pages(m))
		ret = -1;
out:
	for (int c = 0; c < buf->ncpus; c++) {
		if (p[c])
			td_pages_close(p[c]);
		free(next[c]);
	}
	free(p);
	free(next);
	free(err);
	live_merge_free(m);
	return ret;
}

static void check_file(const char *rel)
{
	const char *top = getenv("top_srcdir");
	char path[4096], *err = NULL;
	struct td_file *tf;
	struct td_cursor *c;
	struct td_event ev;
	struct seen want = { 0 }, got = { 0 }, lied = { 0 };
	uint64_t late = 0, late2 = 0;
	int b;

	snprintf(path, sizeof(path), "%s/%s", top ? top : ".", rel);
	tf = td_open(path, &err);
	if (!ok(tf != NULL, "%s: opens", rel)) {
		printf("# %s\n", err);
		free(err);
		return;
	}
	b = data_buffer(tf);
	c = td_cursor_new(tf, b, &err);
	while (c && td_cursor_next(c, &ev, &err) > 0)
		take(&want, ev.ts, ev.cpu, ev.data, ev.size, ev.missed);
	td_cursor_free(c);
	ok(feed_live(tf, b, 1, &got, &late) == 0, "%s: pages fed and drained", rel);
	ok(want.n > 1000 && got.n == want.n, "%s: all %llu events come out (%llu)", rel,
	   (unsigned long long)want.n, (unsigned long long)got.n);
	ok(got.ts_hash == want.ts_hash && got.bad_order == 0,
	   "%s: in the cursor's order, with its timestamps and CPUs", rel);
	ok(got.data_hash == want.data_hash, "%s: the same bytes", rel);
	ok(got.missed == want.missed, "%s: the same lost-event counts", rel);
	is_int(late, 0, "no event is late under an honest horizon");
	ok(feed_live(tf, b, 0, &lied, &late2) == 0 && lied.n == want.n,
	   "%s: a horizon too early still hands out every event", rel);
	ok((late2 > 0) == (lied.bad_order > 0),
	   "%s: late events (%llu) counted exactly when the order broke", rel,
	   (unsigned long long)late2);
	free(err);
	td_close(tf);
}

int main(void)
{
	check_file("samples/memcg-swap-6.18.dat");		/* trace-cmd extract, v7 zstd */
	check_file("samples/global-pressure-6.12.dat");		/* mmscope record in a guest */
	check_file("tests/data/swap/mthp-frag-6.1.dat");
	check_file("tests/data/report/global-pressure-reclaim-6.1.dat");
	return tap_done();
}
