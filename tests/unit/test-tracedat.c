// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Writer and reader against each other, with hand-built ring-buffer pages:
 * known events on two CPUs of two buffers, a page that reports dropped
 * events, metadata and options. Every version and compression is written
 * and read back, and the events must come out complete, in time order,
 * with their values, CPUs, buffers and lost-event markers.
 */
#include "config.h"
#include "tracedat-read.h"
#include "tracedat-write.h"
#include "util.h"
#include "tap.h"
#include "synth.h"

#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#define PAGE 4096

/* A page under construction. */
struct page {
	unsigned char b[PAGE];
	size_t len;		/* bytes of event data */
	unsigned long long last_ts;
};

static void page_start(struct page *p, unsigned long long ts)
{
	memset(p, 0, sizeof(*p));
	memcpy(p->b, &ts, 8);
	p->last_ts = ts;
}

/* One event: 4-byte header (type_len 3 = 12 bytes of data), 12 bytes. */
static void page_add(struct page *p, unsigned long long ts, int pid, int value)
{
	unsigned int delta = (unsigned int)(ts - p->last_ts);
	unsigned int hdr = 3 | delta << 5;
	unsigned char *e = p->b + 16 + p->len;
	unsigned short type = 1000;

	memcpy(e, &hdr, 4);
	memcpy(e + 4, &type, 2);
	memcpy(e + 8, &pid, 4);
	memcpy(e + 12, &value, 4);
	p->len += 16;
	p->last_ts = ts;
}

/* Sets commit; with missed > 0 the kernel's "missed, count stored" bits. */
static void page_finish(struct page *p, long long missed)
{
	unsigned long long commit = p->len;

	if (missed) {
		commit |= 1ull << 31 | 1ull << 30;
		memcpy(p->b + 16 + p->len, &missed, 8);
	}
	memcpy(p->b + 8, &commit, 8);
}

/* Page source: an array of pages. */
struct src {
	struct page *pages;
	int n, at;
};

static int next_page(void *ctx, void *page, char **err)
{
	struct src *s = ctx;

	if (s->at >= s->n)
		return 0;
	memcpy(page, s->pages[s->at++].b, PAGE);
	return 1;
}

/* a kallsyms section for the files written (empty: none) */
static struct strbuf test_kallsyms = STRBUF_INIT;

static void build_meta(struct strbuf *hi, struct strbuf *ev)
{
	const char *formats[] = { synth_test_format };

	synth_header_info(hi);
	synth_add_system(ev, "test", formats, 1);
}

/*
 * Top buffer: CPU 0 events at even ts 1000..; page 2 of CPU 0 says 7 events
 * were dropped before it. CPU 1 at odd ts. Buffer "inst": CPU 0, three
 * events. value = ts so the order can be checked.
 */
static struct page top0[2], top1[1], inst0[1];

static void build_pages(void)
{
	page_start(&top0[0], 1000);
	for (int i = 0; i < 5; i++)
		page_add(&top0[0], 1000 + 2 * i, 10, 1000 + 2 * i);
	page_finish(&top0[0], 0);
	page_start(&top0[1], 2000);
	for (int i = 0; i < 3; i++)
		page_add(&top0[1], 2000 + 2 * i, 10, 2000 + 2 * i);
	page_finish(&top0[1], 7);
	page_start(&top1[0], 1001);
	for (int i = 0; i < 4; i++)
		page_add(&top1[0], 1001 + 2 * i, 11, 1001 + 2 * i);
	page_finish(&top1[0], 0);
	page_start(&inst0[0], 1500);
	for (int i = 0; i < 3; i++)
		page_add(&inst0[0], 1500 + i, 12, 1500 + i);
	page_finish(&inst0[0], 0);
}

static const char cpustat[] =
	"CPU: 0\nentries: 0\noverrun: 5\ncommit overrun: 0\ndropped events: 3\n"
	"CPU: 1\nentries: 0\noverrun: 0\ndropped events: 0\n"
	"\nBuffer: inst\n\nCPU: 0\noverrun: 0\ndropped events: 9\n";

static int write_file(const char *path, int version, enum codec_id codec)
{
	struct strbuf hi = STRBUF_INIT, ev = STRBUF_INIT;
	struct src s_top0 = { top0, 2, 0 }, s_top1 = { top1, 1, 0 }, s_inst = { inst0, 1, 0 };
	struct tw_cpu top_cpus[2] = { { next_page, &s_top0 }, { next_page, &s_top1 } };
	struct tw_cpu inst_cpus[2] = { { next_page, &s_inst }, { NULL, NULL } };
	struct tw_buffer bufs[2] = {
		{ "", "local", PAGE, 2, top_cpus },
		{ "inst", "local", PAGE, 2, inst_cpus },
	};
	struct tw_input in = { 0 };
	struct tw_opts o;
	struct tw_result res;
	char *err = NULL;
	int fd, r;

	build_meta(&hi, &ev);
	synth_input(&in, &hi, &ev, 2, PAGE);
	in.private_meta = "mmscope=test\nkernel=6.18.0\n";
	if (test_kallsyms.len) {
		in.meta[TD_META_KALLSYMS] = test_kallsyms.buf;
		in.meta_len[TD_META_KALLSYMS] = test_kallsyms.len;
	}
	in.cpustat = cpustat;
	in.cpustat_len = sizeof(cpustat) - 1;
	in.buffers = bufs;
	in.nbuffers = 2;
	tw_opts_default(&o);
	o.version = version;
	o.codec = codec;
	o.chunk_pages = 1;	/* several chunks per CPU */
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	r = tw_write(fd, &in, &o, &res, &err);
	if (r)
		printf("# write failed: %s\n", err);
	else if (res.pages != 4)
		printf("# wrote %llu pages, expected 4\n", (unsigned long long)res.pages), r = -1;
	close(fd);
	free(err);
	strbuf_release(&hi);
	strbuf_release(&ev);
	return r;
}

static void check_file(const char *path, const char *what)
{
	char *err = NULL;
	struct td_file *tf = td_open(path, &err);
	struct td_cursor *c;
	struct td_event ev;
	unsigned long long last = 0;
	int n = 0, order_ok = 1, values_ok = 1, r, inst = 0;
	long long missed_total = 0;

	if (!ok(tf != NULL, "%s: opens", what)) {
		printf("#   %s\n", err);
		free(err);
		return;
	}
	is_int(td_nbuffers(tf), 2, "two buffers");
	is_str(td_uname(tf), "Linux testhost 6.18.0 x86_64", "uname round-trips");
	is_str(td_trace_clock(tf), "local", "trace clock round-trips");
	is_str(td_private(tf), "mmscope=test\nkernel=6.18.0\n", "private metadata round-trips");
	is_int(td_buffer(tf, 0)->stats[0].overrun, 5, "CPUSTAT overrun of cpu 0");
	is_int(td_buffer(tf, 0)->stats[0].dropped, 3, "CPUSTAT dropped of cpu 0");
	is_int(td_buffer(tf, 1)->stats[0].dropped, 9, "CPUSTAT dropped of inst cpu 0");
	c = td_cursor_new(tf, -1, &err);
	while ((r = td_cursor_next(c, &ev, &err)) > 0) {
		unsigned long long v;

		if (ev.ts < last)
			order_ok = 0;
		last = ev.ts;
		if (!ev.event || tep_read_number_field(tep_find_field(ev.event, "value"),
						       ev.data, &v) || v != ev.ts)
			values_ok = 0;
		if (ev.missed)
			missed_total += ev.missed;
		if (ev.missed && !(ev.ts == 2000 && ev.cpu == 0 && ev.buffer == 0))
			values_ok = 0;
		inst += ev.buffer == 1;
		n++;
	}
	is_int(r, 0, "cursor ends cleanly");
	is_int(n, 15, "all 15 events read");
	is_int(inst, 3, "3 events from the named buffer");
	ok(order_ok, "%s: events in timestamp order", what);
	ok(values_ok, "%s: values, ids and the dropped marker are right", what);
	is_int(missed_total, 7, "the 7 dropped events are reported");
	td_cursor_free(c);
	td_close(tf);
	free(err);
}

/* The same file cut short must fail to open or fail while reading. */
static void check_truncated(const char *path)
{
	char *buf = NULL, tpath[] = "/tmp/mmscope-trunc-XXXXXX";
	struct strbuf sb = STRBUF_INIT;
	int bad = 0, fd;

	read_file(path, &sb);
	fd = mkstemp(tpath);
	for (size_t cut = 0; cut < sb.len; cut += sb.len / 97 + 1) {
		char *err = NULL;
		struct td_file *tf;
		int r = -1;

		if (ftruncate(fd, 0) || pwrite(fd, sb.buf, cut, 0) != (ssize_t)cut)
			break;
		tf = td_open(tpath, &err);
		if (tf) {
			struct td_cursor *c = td_cursor_new(tf, -1, &err);
			struct td_event ev;

			while (c && (r = td_cursor_next(c, &ev, &err)) > 0)
				;
			td_cursor_free(c);
			td_close(tf);
		}
		if (!err || r == 0)
			bad++;
		free(err);
	}
	ok(bad == 0, "every truncation of the v6 file reports an error (%d did not)", bad);
	close(fd);
	unlink(tpath);
	strbuf_release(&sb);
	free(buf);
}

/* Only mm formats parsed, the rest skipped (as analysis opens files). */
static int want_mm(const char *system, const char *event)
{
	(void)event;
	return !strcmp(system, "vmscan") || !strcmp(system, "compaction");
}

/*
 * td_format_systems on real files, parsed and skipped formats alike:
 * analysis_event_state takes a file with formats of 32 systems or more
 * for one that holds every format (trace-cmd extract), where a format
 * proves nothing. samples/ were made with extract on 6.18 (101 systems,
 * samples/README.md); mmscope writes the systems it enabled.
 */
static void check_format_systems(void)
{
	static const struct { const char *file; int lo, hi; } files[] = {
		{ "samples/compaction-6.18.dat", 90, 200 },
		{ "samples/memcg-swap-6.18.dat", 90, 200 },
		{ "tests/data/report/quiet-6.18.dat", 1, 31 },
		{ "tests/data/report/global-pressure-reclaim-6.1.dat", 1, 31 },
	};
	const char *src = getenv("top_srcdir");

	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		char *path = xasprintf("%s/%s", src ? src : ".", files[i].file), *err = NULL;
		struct td_file *all = td_open(path, &err), *some;
		int n = all ? td_format_systems(all) : -1;

		ok(n >= files[i].lo && n <= files[i].hi, "%s: formats of %d systems (%d..%d)",
		   files[i].file, n, files[i].lo, files[i].hi);
		some = td_open_only(path, want_mm, &err);
		ok(some && td_format_systems(some) == n,
		   "%s: the same count with the formats skipped", files[i].file);
		td_close(all);
		td_close(some);
		free(err);
		free(path);
	}
}

/*
 * The memo of the last large section compressed (tracedat-write.c): the
 * same 2 MB kallsyms written into a second file comes from it, byte for
 * byte what compressing gives; one byte changed is compressed again,
 * never the old bytes. Each file reads back its own kallsyms.
 */
static int kallsyms_is(const char *path, const struct strbuf *want)
{
	char *err = NULL;
	struct td_file *tf = td_open(path, &err);
	size_t len = 0;
	const void *p = tf ? td_meta(tf, TD_META_KALLSYMS, &len) : NULL;
	int same = p && len == want->len && !memcmp(p, want->buf, len);

	td_close(tf);
	free(err);
	return same;
}

static int file_bytes(const char *path, struct strbuf *sb)
{
	strbuf_reset(sb);
	return read_file(path, sb);
}

static void check_section_memo(const char *path)
{
	struct strbuf text = STRBUF_INIT, a = STRBUF_INIT, b = STRBUF_INIT;
	unsigned long hits;

	if (!codec_available(CODEC_ZSTD)) {
		ok(1, "# SKIP zstd not built in");
		return;
	}
	for (int i = 0; i < 60000; i++)
		strbuf_addf(&text, "ffffffff81%06x T a_kernel_function_%d\n", i * 16, i);
	strbuf_add_u32(&test_kallsyms, (uint32_t)text.len);
	strbuf_add(&test_kallsyms, text.buf, text.len);
	ok(test_kallsyms.len >= (1u << 20), "memo: a kallsyms section of %zu bytes",
	   test_kallsyms.len);
	write_file(path, 7, CODEC_ZSTD);
	file_bytes(path, &a);
	hits = tw_section_memo_hits();
	write_file(path, 7, CODEC_ZSTD);
	file_bytes(path, &b);
	ok(tw_section_memo_hits() == hits + 1, "memo: the second file's kallsyms from the memo");
	ok(a.len && a.len == b.len && !memcmp(a.buf, b.buf, a.len),
	   "memo: the second file is byte for byte the first");
	ok(kallsyms_is(path, &test_kallsyms), "memo: it reads back its kallsyms");
	test_kallsyms.buf[test_kallsyms.len / 2] ^= 1;	/* one byte of a name */
	hits = tw_section_memo_hits();
	write_file(path, 7, CODEC_ZSTD);
	ok(tw_section_memo_hits() == hits, "memo: one byte changed: compressed again");
	ok(kallsyms_is(path, &test_kallsyms), "memo: the changed kallsyms read back, not the old");
	strbuf_release(&test_kallsyms);
	strbuf_release(&text);
	strbuf_release(&a);
	strbuf_release(&b);
}

int main(void)
{
	static const struct { int version; enum codec_id codec; const char *name; } cases[] = {
		{ 7, CODEC_ZSTD, "v7 zstd" },
		{ 7, CODEC_ZLIB, "v7 zlib" },
		{ 7, CODEC_NONE, "v7 none" },
		{ 6, CODEC_NONE, "v6" },
	};
	char path[] = "/tmp/mmscope-tdat-XXXXXX";
	int fd = mkstemp(path);

	close(fd);
	build_pages();
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		if (!codec_available(cases[i].codec)) {
			ok(1, "# SKIP %s not built in", cases[i].name);
			continue;
		}
		if (!ok(!write_file(path, cases[i].version, cases[i].codec), "%s: writes",
			cases[i].name))
			continue;
		check_file(path, cases[i].name);
	}
	check_truncated(path);	/* the last one written: v6 */
	check_section_memo(path);
	unlink(path);
	check_format_systems();
	return tap_done();
}
