// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Seeking in real recordings (samples/, tests/data/report/, tests/data/swap/)
 * as recorded and converted to v6, v7 none, v7 zlib and v7 zstd (small
 * chunks, so seeks land inside, at the start and at the end of chunks):
 * after td_cursor_seek(ts) the events must be exactly the suffix of a full
 * pass from the first event with a time stamp >= ts: time stamp, buffer,
 * CPU, event id, size, raw bytes (FNV-1a hash) and lost-event count, for
 * time stamps before the first event, at the first and last, after the
 * last, equal to events' (ties across CPUs included), between events, and
 * at random; with an index built by td_index_build (every page, every
 * 16th, and a sparse one that skips chunks undecompressed), one filled by
 * a full pass, the one td_index_build_at makes for that time alone (a
 * binary search over the chunks), and none. td_pages_seek must return the pages a
 * full pass reads. Also under MMSCOPE_KBUFFER=1 and MMSCOPE_THREADS=0.
 */
#include "config.h"
#include "fnv.h"
#include "tracedat-read.h"
#include "tracedat-set.h"
#include "tracedat-write.h"
#include "util.h"
#include "tap.h"
#include "synth.h"
#include "real-recordings.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

/* Events compared after a seek; some seeks compare the whole suffix. */
#define WINDOW 400

struct rec {
	uint64_t ts, hash;
	long long missed;
	int cpu, buffer, id, size;
};

struct pass {
	struct rec *r;
	size_t n, cap;
	int sorted;
};

static uint64_t fnv(const void *p, size_t n)
{
	return fnv64_bytes(FNV64_BASIS, p, n);
}

static void rec_of(struct rec *r, const struct td_event *ev)
{
	r->ts = ev->ts;
	r->cpu = ev->cpu;
	r->buffer = ev->buffer;
	r->id = ev->size >= 2 ? *(const unsigned short *)ev->data : -1;
	r->size = ev->size;
	r->hash = fnv(ev->data, ev->size > 0 ? (size_t)ev->size : 0);
	r->missed = ev->missed;
}

static int rec_eq(const struct rec *a, const struct rec *b)
{
	return a->ts == b->ts && a->cpu == b->cpu && a->buffer == b->buffer &&
	       a->id == b->id && a->size == b->size && a->hash == b->hash &&
	       a->missed == b->missed;
}

/* The buffer the cursors of full_pass and check_seek read; -1 all. */
static int test_buffer = -1;

/* A full pass, optionally filling ix; 0 or -1. */
static int full_pass(struct td_file *tf, struct td_index *ix, struct pass *p)
{
	struct td_cursor *c;
	struct td_event ev;
	char *err = NULL;
	int r;

	p->n = 0;
	p->sorted = 1;
	c = td_cursor_new(tf, test_buffer, &err);
	if (c && ix && td_cursor_set_index(c, ix, &err))
		r = -1;
	else
		while (c && (r = td_cursor_next(c, &ev, &err)) > 0) {
			if (p->n == p->cap) {
				p->cap = p->cap ? 2 * p->cap : 4096;
				p->r = xreallocarray(p->r, p->cap, sizeof(*p->r));
			}
			rec_of(&p->r[p->n], &ev);
			if (p->n && p->r[p->n].ts < p->r[p->n - 1].ts)
				p->sorted = 0;
			p->n++;
		}
	if (!c || r < 0)
		printf("#   full pass: %s\n", err ? err : "?");
	td_cursor_free(c);
	free(err);
	return c && r == 0 ? 0 : -1;
}

/* Index of the first event with ts >= t in the full pass. */
static size_t first_at(const struct pass *p, uint64_t t)
{
	size_t lo = 0, hi = p->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->r[mid].ts < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Seek c (or a new cursor when c is NULL) to t and compare up to `window`
 * events (all when 0) with the full pass. 1 when equal.
 */
static int check_seek(struct td_file *tf, struct td_cursor *c, const struct td_index *ix,
		      const struct pass *p, uint64_t t, size_t window, const char *what)
{
	struct td_cursor *own = NULL;
	struct td_event ev;
	char *err = NULL;
	size_t i = first_at(p, t), n = 0;
	int r = 0, good = 1;

	if (c) {
		if (td_cursor_seek(c, ix, t, &err))
			c = NULL;
	} else {
		c = own = td_cursor_new_at(tf, test_buffer, ix, t, &err);
	}
	if (!c) {
		printf("#   %s: seek to %llu: %s\n", what, (unsigned long long)t, err);
		free(err);
		return 0;
	}
	while ((!window || n < window) && (r = td_cursor_next(c, &ev, &err)) > 0) {
		struct rec got;

		rec_of(&got, &ev);
		if (i + n >= p->n || !rec_eq(&got, &p->r[i + n])) {
			printf("#   %s: seek to %llu: event %zu after it is %llu cpu %d id %d missed %lld, want ",
			       what, (unsigned long long)t, n, (unsigned long long)got.ts,
			       got.cpu, got.id, got.missed);
			if (i + n < p->n)
				printf("%llu cpu %d id %d missed %lld\n",
				       (unsigned long long)p->r[i + n].ts, p->r[i + n].cpu,
				       p->r[i + n].id, p->r[i + n].missed);
			else
				printf("the end\n");
			good = 0;
			break;
		}
		n++;
	}
	if (good && r < 0) {
		printf("#   %s: after seek to %llu: %s\n", what, (unsigned long long)t, err);
		good = 0;
	}
	/* the end must come where the full pass ends */
	if (good && r == 0 && i + n != p->n) {
		printf("#   %s: seek to %llu: %zu events, want %zu\n", what,
		       (unsigned long long)t, n, p->n - i);
		good = 0;
	}
	free(err);
	td_cursor_free(own);
	return good;
}

/* The time stamps to seek to. */
static size_t pick_times(const struct pass *p, uint64_t *t, size_t max, unsigned int seed)
{
	size_t n = 0, ties = 0;

	if (!p->n)
		return 0;
	t[n++] = 0;
	t[n++] = p->r[0].ts ? p->r[0].ts - 1 : 0;
	t[n++] = p->r[0].ts;
	t[n++] = p->r[0].ts + 1;
	t[n++] = p->r[p->n - 1].ts;
	t[n++] = p->r[p->n - 1].ts + 1;
	t[n++] = UINT64_MAX;
	/* ties: the same time stamp on two CPUs (or twice on one) */
	for (size_t i = 1; i < p->n && ties < 6; i++)
		if (p->r[i].ts == p->r[i - 1].ts && (p->r[i].cpu != p->r[i - 1].cpu || ties > 3)) {
			t[n++] = p->r[i].ts;
			ties++;
			i += p->n / 7;	/* spread over the file */
		}
	srand(seed);
	while (n < max) {
		size_t i = (size_t)rand() % p->n;

		switch (rand() % 3) {
		case 0:		/* an event's own time stamp */
			t[n++] = p->r[i].ts;
			break;
		case 1:		/* between two events */
			t[n++] = p->r[i].ts + 1;
			break;
		default:	/* anywhere */
			t[n++] = p->r[0].ts + (uint64_t)rand() % (p->r[p->n - 1].ts - p->r[0].ts + 1);
			break;
		}
	}
	return n;
}

/* td_pages_seek to a few pages of each CPU returns the pages of a full pass. */
static void check_pages_seek(struct td_file *tf, const char *what)
{
	int bad = 0, tried = 0;

	for (int b = 0; b < td_nbuffers(tf); b++) {
		for (int cpu = 0; cpu < td_buffer(tf, b)->ncpus; cpu++) {
			uint32_t ps = td_buffer(tf, b)->page_size;
			uint64_t *h = NULL, n = 0, cap = 0;
			struct td_pages *p = td_pages_open(tf, b, cpu, NULL);
			const void *page;
			char *err = NULL;

			while (p && td_pages_next(p, &page, NULL) > 0) {
				if (n == cap) {
					cap = cap ? 2 * cap : 256;
					h = xreallocarray(h, cap, sizeof(*h));
				}
				h[n++] = fnv(page, ps);
			}
			for (uint64_t k = 0; p && n && k < n; k += n / 5 + 1) {
				uint64_t ks[2] = { k, n - 1 - k };

				for (int j = 0; j < 2; j++) {
					tried++;
					if (td_pages_seek(p, ks[j], &err) ||
					    td_pages_next(p, &page, &err) != 1 ||
					    fnv(page, ps) != h[ks[j]] ||
					    (ks[j] + 1 < n && (td_pages_next(p, &page, &err) != 1 ||
							       fnv(page, ps) != h[ks[j] + 1]))) {
						if (!bad)
							printf("#   %s: cpu %d page %llu: %s\n", what, cpu,
							       (unsigned long long)ks[j], err ? err : "other bytes");
						bad++;
					}
					free(err);
					err = NULL;
				}
			}
			/* past the end: an error that says so */
			if (p && n) {
				tried++;
				if (!td_pages_seek(p, n, &err) || !err || !strstr(err, "no page"))
					bad++;
				free(err);
			}
			td_pages_close(p);
			free(h);
		}
	}
	ok(!bad, "%s: td_pages_seek returns the pages of a full pass (%d seeks, %d bad)",
	   what, tried, bad);
}

/* One file as it is: every kind of index, every kind of time stamp. */
static void check_file(const char *path, const char *what, int thorough, unsigned int seed)
{
	char *err = NULL;
	struct td_file *tf = td_open(path, &err);
	struct pass p = { 0 }, p2 = { 0 };
	struct td_index *built4, *built16, *filled, *sparse, *foreign = NULL;
	struct td_file *tf2;
	struct td_cursor *reused;
	uint64_t t[64];
	size_t nt;
	int bad[7] = { 0 }, whole = 0, at_entries = 0;

	if (!ok(tf != NULL, "%s: opens", what)) {
		printf("#   %s\n", err);
		free(err);
		return;
	}
	built4 = td_index_new(tf, 1);
	built16 = td_index_new(tf, 0);
	filled = td_index_new(tf, 0);
	sparse = td_index_new(tf, 100);	/* skips chunks without decompressing them */
	int fp = full_pass(tf, filled, &p);

	ok(!fp, "%s: full pass (%zu events) filling an index", what, p.n);
	ok(p.sorted, "%s: the full pass is in time order", what);
	ok(!full_pass(tf, NULL, &p2) && p2.n == p.n, "%s: a second pass reads the same", what);
	ok(!td_index_build(built4, &err) && !td_index_build(built16, &err) &&
	   !td_index_build(sparse, &err),
	   "%s: td_index_build%s%s", what, err ? ": " : "", err ? err : "");
	ok(td_index_size(built16) == td_index_size(filled) && td_index_size(filled) > 0 &&
	   td_index_size(built4) >= td_index_size(built16),
	   "%s: built and filled indexes agree (%zu, %zu, every page: %zu)", what,
	   td_index_size(built16), td_index_size(filled), td_index_size(built4));
	/* built through another td_file of the same file, closed since */
	tf2 = td_open(path, &err);
	if (tf2) {
		foreign = td_index_new(tf2, 8);
		if (td_index_build(foreign, &err))
			td_index_free(foreign), foreign = NULL;
		td_close(tf2);
	}
	ok(foreign != NULL, "%s: an index built through a second open%s%s", what,
	   err ? ": " : "", err ? err : "");
	nt = pick_times(&p, t, thorough ? 64 : 24, seed);
	reused = td_cursor_new(tf, -1, &err);
	for (size_t i = 0; i < nt; i++) {
		/* the whole suffix now and then, else a window */
		size_t win = i % 11 == 3 ? 0 : WINDOW;

		whole += !win;
		bad[0] += !check_seek(tf, NULL, built16, &p, t[i], win, what);
		bad[1] += !check_seek(tf, NULL, built4, &p, t[i], WINDOW, what);
		bad[2] += !check_seek(tf, reused, filled, &p, t[i], WINDOW, what);
		if (i % 4 == 0)
			bad[3] += !check_seek(tf, NULL, NULL, &p, t[i], WINDOW, what);
		bad[4] += !check_seek(tf, NULL, sparse, &p, t[i], WINDOW, what);
		if (foreign && i % 3 == 0)
			bad[5] += !check_seek(tf, NULL, foreign, &p, t[i], WINDOW, what);
		/* the index of one seek: a binary search over the chunks */
		struct td_index *at = td_index_new(tf, 0);

		if (td_index_build_at(at, t[i], &err)) {
			printf("#   td_index_build_at: %s\n", err);
			bad[6]++;
		} else {
			at_entries += (int)td_index_size(at);
			bad[6] += !check_seek(tf, NULL, at, &p, t[i], i % 5 == 1 ? 0 : WINDOW, what);
		}
		td_index_free(at);
	}
	ok(!bad[0], "%s: seek with a built index: %zu times, %d whole suffixes (%d bad)",
	   what, nt, whole, bad[0]);
	ok(!bad[1], "%s: seek with a dense index (%d bad)", what, bad[1]);
	ok(!bad[2], "%s: seek again and again on one cursor, index filled by a pass (%d bad)",
	   what, bad[2]);
	ok(!bad[3], "%s: seek without an index (%d bad)", what, bad[3]);
	ok(!bad[4], "%s: seek with a sparse index, %zu pages (%d bad)", what,
	   td_index_size(sparse), bad[4]);
	ok(!bad[5], "%s: seek with the index of a second open of the file (%d bad)",
	   what, bad[5]);
	/* an index at a time has at most an entry per CPU, and one for most
	 * times after a CPU's first page (the times include such) */
	ok(!bad[6] && at_entries > 0, "%s: seek with the index of that time alone "
	   "(%d entries over %zu times, %d bad)", what, at_entries, nt, bad[6]);
	/* a cursor over one buffer (the last: the fixtures' instance) */
	if (td_nbuffers(tf) > 1) {
		struct pass pb = { 0 };
		int badb = 0;

		test_buffer = td_nbuffers(tf) - 1;
		if (!full_pass(tf, NULL, &pb))
			for (size_t i = 0; i < nt; i += 2) {
				badb += !check_seek(tf, NULL, built16, &pb, t[i], WINDOW, what);
				badb += !check_seek(tf, NULL, sparse, &pb, t[i], WINDOW, what);
			}
		ok(pb.n && !badb, "%s: seeks of a cursor over buffer %d alone (%zu events, %d bad)",
		   what, test_buffer, pb.n, badb);
		test_buffer = -1;
		free(pb.r);
	}
	if (thorough)
		check_pages_seek(tf, what);
	td_cursor_free(reused);
	td_index_free(built4);
	td_index_free(built16);
	td_index_free(filled);
	td_index_free(sparse);
	td_index_free(foreign);
	free(p.r);
	free(p2.r);
	td_close(tf);
	free(err);
}

/* Page source over the reader (as `mmscope convert`). */
struct conv_src {
	struct td_pages *p;
	uint32_t page_size;
};

static int conv_page(void *ctx, void *page, char **err)
{
	struct conv_src *s = ctx;
	const void *src;
	int r = td_pages_next(s->p, &src, err);

	if (r > 0)
		memcpy(page, src, s->page_size);
	return r;
}

/* Rewrite in as out in another version/compression; 0 or -1. */
static int convert(const char *in, const char *out, int version, enum codec_id codec,
		   int chunk_pages)
{
	char *err = NULL;
	struct td_file *tf = td_open(in, &err);
	struct tw_input ti = { 0 };
	struct tw_buffer bufs[64];
	struct conv_src srcs[512];
	struct tw_cpu cpus[512];
	struct tw_opts o;
	struct tw_result res;
	char clock[64];
	size_t ns = 0, len;
	int fd, r = -1;

	if (!tf || td_nbuffers(tf) > 64)
		goto out;
	for (int m = 0; m < TD_META_COUNT; m++)
		ti.meta[m] = td_meta(tf, (enum td_meta)m, &ti.meta_len[m]);
	ti.page_size = td_page_size(tf);
	if (td_trace_clock(tf)) {
		snprintf(clock, sizeof(clock), "[%s]\n", td_trace_clock(tf));
		ti.trace_clock = clock;
	}
	ti.uname = td_uname(tf);
	ti.version = td_tracer_version(tf);
	ti.cpustat = td_cpustat_text(tf, &len);
	ti.cpustat_len = len;
	ti.private_meta = td_private(tf);
	memset(srcs, 0, sizeof(srcs));
	memset(cpus, 0, sizeof(cpus));
	for (int b = 0; b < td_nbuffers(tf); b++) {
		const struct td_buffer *tb = td_buffer(tf, b);

		if (tb->ncpus > ti.cpucount)
			ti.cpucount = tb->ncpus;
		if (ns + (size_t)tb->ncpus > 512)
			goto out;
		bufs[b].name = tb->name;
		bufs[b].clock = tb->clock;
		bufs[b].page_size = tb->page_size;
		bufs[b].ncpus = tb->ncpus;
		bufs[b].cpus = &cpus[ns];
		for (int cpu = 0; cpu < tb->ncpus; cpu++, ns++) {
			if (!tb->cpu_offset[cpu] && !tb->cpu_size[cpu])
				continue;
			srcs[ns].p = td_pages_open(tf, b, cpu, &err);
			srcs[ns].page_size = tb->page_size;
			if (!srcs[ns].p)
				goto out;
			cpus[ns].next = conv_page;
			cpus[ns].ctx = &srcs[ns];
		}
	}
	ti.buffers = bufs;
	ti.nbuffers = td_nbuffers(tf);
	tw_opts_default(&o);
	o.version = version;
	o.codec = codec;
	o.chunk_pages = chunk_pages;
	fd = open(out, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd >= 0) {
		r = tw_write(fd, &ti, &o, &res, &err);
		close(fd);
	}
out:
	if (r)
		printf("#   convert %s: %s\n", in, err ? err : "?");
	for (size_t i = 0; i < ns; i++)
		td_pages_close(srcs[i].p);
	td_close(tf);
	free(err);
	return r;
}

/*
 * A hand-built file where the kernel's quirks are frequent rather than
 * rare: time stamps repeated across page boundaries on one CPU and
 * across CPUs, pages that report dropped events (one with no events, so
 * its count goes to the next page's first event), and an empty page.
 */
#define SPAGE 4096
#define SPAGES 40

struct spage {
	unsigned char b[SPAGE];
	size_t len;
	unsigned long long last;
};

struct ssrc {
	struct spage *pages;
	int n, at;
};

static int s_next(void *ctx, void *page, char **err)
{
	struct ssrc *s = ctx;

	(void)err;
	if (s->at >= s->n)
		return 0;
	memcpy(page, s->pages[s->at++].b, SPAGE);
	return 1;
}

/* CPU cpu: pages of 5 events, time stamps in groups of 4 equal ones. */
static void s_build(struct spage *pg, int cpu)
{
	int ev = 0;

	memset(pg, 0, sizeof(*pg) * SPAGES);
	for (int k = 0; k < SPAGES; k++) {
		struct spage *p = &pg[k];
		unsigned long long commit, ts0 = 1000 + (unsigned long long)(ev / 4) * 10;
		long long missed = k % 7 == 3 ? 2 + k : 0;

		memcpy(p->b, &ts0, 8);
		p->last = ts0;
		/* page 9 of CPU 1 is empty but reports a loss; page 20 is empty */
		for (int i = 0; i < 5 && !(cpu == 1 && (k == 9 || k == 20)); i++, ev++) {
			unsigned long long ts = 1000 + (unsigned long long)(ev / 4) * 10;
			unsigned int hdr = 3 | (unsigned int)(ts - p->last) << 5;
			unsigned char *e = p->b + 16 + p->len;
			unsigned short type = 1000;
			int pid = 100 + cpu, value = ev;

			memcpy(e, &hdr, 4);
			memcpy(e + 4, &type, 2);
			memcpy(e + 8, &pid, 4);
			memcpy(e + 12, &value, 4);
			p->len += 16;
			p->last = ts;
		}
		commit = p->len;
		if (missed) {
			commit |= 1ull << 31 | 1ull << 30;
			memcpy(p->b + 16 + p->len, &missed, 8);
		}
		memcpy(p->b + 8, &commit, 8);
	}
}

/* backwards: CPU 0's page 30 starts at the first page's time again, as a
 * damaged file's can (the fuzzer made one) */
static int s_write(const char *path, int version, enum codec_id codec, int backwards)
{
	static struct spage cpu0[SPAGES], cpu1[SPAGES];
	struct strbuf hi = STRBUF_INIT, evs = STRBUF_INIT;
	struct ssrc s0 = { cpu0, SPAGES, 0 }, s1 = { cpu1, SPAGES, 0 };
	struct tw_cpu cpus[2] = { { s_next, &s0 }, { s_next, &s1 } };
	struct tw_buffer buf = { "", "local", SPAGE, 2, cpus };
	const char *formats[] = { synth_test_format };
	struct tw_input in = { 0 };
	struct tw_opts o;
	struct tw_result res;
	char *err = NULL;
	int fd, r = -1;

	s_build(cpu0, 0);
	s_build(cpu1, 1);
	if (backwards) {
		unsigned long long ts0 = 1000;

		memcpy(cpu0[30].b, &ts0, 8);
	}
	synth_header_info(&hi);
	synth_add_system(&evs, "test", formats, 1);
	synth_input(&in, &hi, &evs, 2, SPAGE);
	in.buffers = &buf;
	in.nbuffers = 1;
	tw_opts_default(&o);
	o.version = version;
	o.codec = codec;
	o.chunk_pages = 3;
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd >= 0) {
		r = tw_write(fd, &in, &o, &res, &err);
		close(fd);
	}
	if (r)
		printf("#   write: %s\n", err ? err : "?");
	free(err);
	strbuf_release(&hi);
	strbuf_release(&evs);
	return r;
}

/*
 * A set's window holds only events at or after its start: a stream whose
 * time goes backwards after the seek (CPU 0's page 30 here) brings older
 * events, which the set cursor leaves out (a file's own seek hands out
 * the suffix, as check_seek holds it to). A set of one file: a set of
 * parts needs mmscope's metadata (the fuzzer's inputs have it).
 */
static void check_set_window_backwards(const char *path)
{
	const char *paths[1] = { path };
	char *err = NULL;
	struct td_set *set;
	struct td_set_cursor *c;
	struct td_event ev;
	uint64_t since = 1000 + 130 / 4 * 10;	/* CPU 0's page 26 (s_build) */
	long early = 0, n = 0, full_early = 0;
	int r = -1, past[2] = { 0 };

	if (s_write(path, 7, CODEC_NONE, 1)) {
		ok(0, "set window, time going backwards: written");
		return;
	}
	set = td_set_open(paths, 1, &err);
	c = set ? td_set_cursor_new(set, 0, 0, &err) : NULL;
	while (c && (r = td_set_cursor_next(c, &ev, &err)) > 0) {
		/* before since, after one at or past it on its CPU */
		if (ev.ts >= since)
			past[ev.cpu & 1] = 1;
		else
			full_early += past[ev.cpu & 1];
	}
	td_set_cursor_free(c);
	c = set ? td_set_cursor_new(set, since, 0, &err) : NULL;
	while (c && (r = td_set_cursor_next(c, &ev, &err)) > 0) {
		early += ev.ts < since;
		n++;
	}
	ok(c && r == 0 && n > 0 && !early,
	   "set window, time going backwards: %ld events, %ld before its start (%s)",
	   n, early, err ? err : "read to the end");
	/* the file does go backwards there: page 30's 5 events */
	ok(full_early == 5, "set window: the full pass goes back in time on page 30 "
	   "(%ld events, want 5)", full_early);
	td_set_cursor_free(c);
	td_set_close(set);
	free(err);
}

/* Hostile use: an index of another file, seeks in cut files. No crash. */
static void check_misuse(const char *a, const char *b)
{
	char *err = NULL;
	struct td_file *fa = td_open(a, &err), *fb = td_open(b, &err);
	struct td_index *ix = fa ? td_index_new(fa, 0) : NULL;
	struct td_cursor *c = fb ? td_cursor_new(fb, -1, &err) : NULL;
	char tpath[] = "/tmp/mmscope-seek-cut-XXXXXX";
	struct strbuf sb = STRBUF_INIT;
	int silent = 0, fd;

	int refused = c && ix && td_cursor_seek(c, ix, 0, &err) < 0 && err &&
		      strstr(err, "another file");

	ok(refused, "an index of another file is refused: %s", err ? err : "(no error)");
	free(err);
	err = NULL;
	ok(c && ix && td_cursor_set_index(c, ix, &err) < 0, "and cannot be attached");
	free(err);
	err = NULL;
	td_cursor_free(c);
	td_index_free(ix);
	td_close(fa);
	td_close(fb);

	/* cut short: building, seeking and reading fail with a reason or end */
	read_file(b, &sb);
	fd = mkstemp(tpath);
	for (size_t cut = sb.len / 3; cut < sb.len; cut += sb.len / 41 + 1) {
		struct td_file *tf;

		if (ftruncate(fd, 0) || pwrite(fd, sb.buf, cut, 0) != (ssize_t)cut)
			break;
		tf = td_open(tpath, &err);
		if (tf) {
			struct td_index *cix = td_index_new(tf, 2);
			struct td_event ev;
			int r;

			if (td_index_build(cix, &err) && !err)
				silent++;
			free(err);
			err = NULL;
			c = td_cursor_new_at(tf, -1, cix, 1, &err);
			while (c && (r = td_cursor_next(c, &ev, &err)) > 0)
				;
			if (c && r < 0 && !err)
				silent++;
			if (!c && !err)
				silent++;
			td_cursor_free(c);
			td_index_free(cix);
			td_close(tf);
		}
		free(err);
		err = NULL;
	}
	ok(!silent, "seeks in cut files fail with a reason (%d silent)", silent);
	close(fd);
	unlink(tpath);
	strbuf_release(&sb);
}

int main(void)
{
	static const struct { int version; enum codec_id codec; int chunk; const char *name; } conv[] = {
		{ 6, CODEC_NONE, 0, "v6" },
		{ 7, CODEC_NONE, 0, "v7 none" },
		{ 7, CODEC_ZLIB, 5, "v7 zlib, 5-page chunks" },
		{ 7, CODEC_ZSTD, 3, "v7 zstd, 3-page chunks" },
	};
	char tmp[] = "/tmp/mmscope-seek-XXXXXX", first[8192] = "", second[8192] = "";
	int fd = mkstemp(tmp), nfiles;
	char **paths;

	close(fd);
	nfiles = real_recordings(&paths);
	for (int i = 0; i < nfiles; i++) {
		const char *path = paths[i], *name = real_recording_name(path);
		char what[8192];
		/* converted copies of every other file, all modes on one */
		int all = i % 2 == 0;

		if (!first[0])
			snprintf(first, sizeof(first), "%s", path);
		else if (!second[0])
			snprintf(second, sizeof(second), "%s", path);
		check_file(path, name, all, (unsigned int)i);
		for (size_t k = 0; all && k < ARRAY_SIZE(conv); k++) {
			if (!codec_available(conv[k].codec))
				continue;
			snprintf(what, sizeof(what), "%s as %s", name, conv[k].name);
			if (ok(!convert(path, tmp, conv[k].version, conv[k].codec,
					conv[k].chunk ? conv[k].chunk : 64),
			       "%s: converted", what))
				check_file(tmp, what, 1, (unsigned int)(i * 7 + k));
		}
		if (i == 0) {
			/* the kbuffer walk and the unthreaded reader seek alike */
			setenv("MMSCOPE_KBUFFER", "1", 1);
			snprintf(what, sizeof(what), "%s, kbuffer", name);
			check_file(path, what, 1, 99);
			unsetenv("MMSCOPE_KBUFFER");
			setenv("MMSCOPE_THREADS", "0", 1);
			convert(path, tmp, 7, CODEC_ZSTD, 2);
			snprintf(what, sizeof(what), "%s as v7 zstd, no threads", name);
			check_file(tmp, what, 1, 98);
			unsetenv("MMSCOPE_THREADS");
		}
	}
	real_recordings_free(paths, nfiles);
	ok(nfiles >= 10, "found the recordings (%d)", nfiles);
	for (size_t k = 0; k < ARRAY_SIZE(conv); k++) {
		char what[128];

		if (!codec_available(conv[k].codec))
			continue;
		snprintf(what, sizeof(what), "ties and losses, %s", conv[k].name);
		if (ok(!s_write(tmp, conv[k].version, conv[k].codec, 0), "%s: written", what))
			check_file(tmp, what, 1, (unsigned int)(1000 + k));
	}
	check_set_window_backwards(tmp);
	if (first[0] && second[0])
		check_misuse(first, second);
	unlink(tmp);
	return tap_done();
}
