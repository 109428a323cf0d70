// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * td-walk: the reader's floor, for tests/bench/bench.sh. Not installed.
 *
 *   td-walk pages FILE    decompress (or read) every page of every CPU
 *   td-walk walk FILE     the same plus the kbuffer walk and the CPU merge
 *                         (td_cursor): what `mmscope report` cannot beat
 *   td-walk levels FILE   recompress the file's pages with zstd 1, 3 and 6
 *                         in the writer's 64-page chunks: size and CPU
 *
 * Prints one line of key=value pairs per measurement; the times are CPU
 * seconds of this process (getrusage), so other tenants of the machine
 * change them less than wall time.
 */
#include "config.h"
#include "tracedat-read.h"
#include "codec.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>

#define LEVEL_CHUNK_PAGES 64	/* as tracedat-write.c */

static double cpu_now(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

static double wall_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

static long peak_kb(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss;
}

static int fail(char *err)
{
	fprintf(stderr, "td-walk: %s\n", err ? err : "error");
	free(err);
	return 1;
}

/* Every page of every CPU of every buffer, in file order; fn sees each. */
static int each_page(struct td_file *tf, void (*fn)(void *, const void *, uint32_t),
		     void *ctx, unsigned long long *npages, char **err)
{
	for (int b = 0; b < td_nbuffers(tf); b++) {
		const struct td_buffer *buf = td_buffer(tf, b);

		for (int cpu = 0; cpu < buf->ncpus; cpu++) {
			struct td_pages *p = td_pages_open(tf, b, cpu, err);
			const void *page;
			int r;

			if (!p)
				return -1;
			while ((r = td_pages_next(p, &page, err)) > 0) {
				(*npages)++;
				if (fn)
					fn(ctx, page, buf->page_size);
			}
			td_pages_close(p);
			if (r < 0)
				return -1;
		}
	}
	return 0;
}

struct levels {
	struct codec *codec;
	uint8_t *chunk;
	size_t fill, cap;
	unsigned long long out;
	struct strbuf sb;
	uint8_t *back;		/* decompressed again, to time the reader's side */
	double dcpu;
	char *err;
};

static void level_flush(struct levels *l)
{
	if (!l->fill || l->err)
		return;
	l->sb.len = 0;
	if (codec_compress(l->codec, l->chunk, l->fill, &l->sb, &l->err) == 0) {
		double d0 = cpu_now();

		l->out += 8 + l->sb.len;	/* chunk header as written */
		if (codec_decompress(l->codec, l->sb.buf, l->sb.len, l->back, l->fill, &l->err) == 0)
			l->dcpu += cpu_now() - d0;
	}
	l->fill = 0;
}

static void level_page(void *ctx, const void *page, uint32_t size)
{
	struct levels *l = ctx;

	if (l->fill + size > l->cap)
		level_flush(l);
	memcpy(l->chunk + l->fill, page, size);
	l->fill += size;
}

static int run_levels(struct td_file *tf)
{
	static const int lv[] = { 1, 3, 6 };
	char *err = NULL;

	if (!codec_available(CODEC_ZSTD)) {
		printf("levels: zstd not built in\n");
		return 0;
	}
	for (size_t i = 0; i < sizeof(lv) / sizeof(lv[0]); i++) {
		struct levels l = { 0 };
		unsigned long long npages = 0;
		double c0, c1;

		l.codec = codec_new(CODEC_ZSTD, lv[i]);
		l.cap = (size_t)td_page_size(tf) * LEVEL_CHUNK_PAGES;
		l.chunk = xmalloc(l.cap);
		l.back = xmalloc(l.cap);
		/* the read's own cost is measured once, in "pages" mode */
		c0 = cpu_now();
		if (each_page(tf, level_page, &l, &npages, &err))
			return fail(err);
		level_flush(&l);
		c1 = cpu_now();
		if (l.err)
			return fail(l.err);
		/* compression time is the loop's less the decompressions */
		printf("level=%d pages=%llu in_bytes=%llu out_bytes=%llu ratio=%.2f cpu_s=%.3f MBps=%.0f dcpu_s=%.3f dMBps=%.0f\n",
		       lv[i], npages, npages * td_page_size(tf), l.out,
		       l.out ? (double)(npages * td_page_size(tf)) / (double)l.out : 0,
		       c1 - c0 - l.dcpu,
		       (double)(npages * td_page_size(tf)) / 1e6 / (c1 - c0 - l.dcpu),
		       l.dcpu, (double)(npages * td_page_size(tf)) / 1e6 / l.dcpu);
		free(l.chunk);
		free(l.back);
		free(l.sb.buf);
		codec_free(l.codec);
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct td_file *tf;
	char *err = NULL;
	double c0, w0;
	int rc = 0;

	if (argc != 3 || (strcmp(argv[1], "pages") && strcmp(argv[1], "walk") &&
			  strcmp(argv[1], "levels"))) {
		fprintf(stderr, "usage: td-walk pages|walk|levels FILE\n");
		return 2;
	}
	c0 = cpu_now();
	w0 = wall_now();
	tf = td_open(argv[2], &err);
	if (!tf)
		return fail(err);
	if (!strcmp(argv[1], "levels")) {
		rc = run_levels(tf);
	} else if (!strcmp(argv[1], "pages")) {
		unsigned long long npages = 0;

		if (each_page(tf, NULL, NULL, &npages, &err))
			rc = fail(err);
		else
			printf("pages=%llu bytes=%llu cpu_s=%.3f wall_s=%.3f rss_kb=%ld\n",
			       npages, npages * td_page_size(tf), cpu_now() - c0,
			       wall_now() - w0, peak_kb());
	} else {
		struct td_cursor *c = td_cursor_new(tf, -1, &err);
		struct td_event ev;
		unsigned long long n = 0, sum = 0, h = 0;
		int r;

		if (!c) {
			td_close(tf);
			return fail(err);
		}
		/* touch each event's id so the walk is not optimised away */
		while ((r = td_cursor_next(c, &ev, &err)) > 0) {
			n++;
			sum += *(const uint16_t *)ev.data;
			/* a hash of what the walk decides, to compare walkers */
			h = (h ^ ev.ts ^ ((unsigned long long)ev.size << 48) ^
			     ((unsigned long long)ev.cpu << 40) ^ (unsigned long long)ev.missed) *
			    0x100000001b3ULL;
		}
		td_cursor_free(c);
		if (r < 0)
			rc = fail(err);
		else
			printf("events=%llu cpu_s=%.3f wall_s=%.3f rss_kb=%ld idsum=%llu hash=%llx\n",
			       n, cpu_now() - c0, wall_now() - w0, peak_kb(), sum, h);
	}
	td_close(tf);
	return rc;
}
