// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target over mmscope's whole trace.dat read path: the header,
 * v6 parts and v7 sections and options, compressed metadata and chunks,
 * every CPU's pages, the kbuffer walk and merge, and libtraceevent's
 * printing of each event; seeks (td_cursor_seek, td_cursor_new_at,
 * td_index_build, td_pages_seek) checked against the full pass; then
 * what `mmscope report` does with the same file: analysis_run() (parsers
 * bound to the file's formats, every event through its parser, the
 * records through every model) and the report rendered as text and as
 * JSON into a strbuf that is thrown away. Last, the same bytes twice as
 * one recording (tracedat-set.c: a part decoded with the first's
 * formats, the saved cmdlines shared and kept per part, the merge, a
 * window that skips on each part's last event): every event twice.
 *
 * td_open() takes a path, so each input is written to one memfd that is
 * reused for the whole run and opened through /proc/self/fd. Nothing
 * depends on time or randomness, so a crash replays from its file.
 */
#define _GNU_SOURCE
#include "config.h"
#include "tracedat-read.h"
#include "tracedat-set.h"
#include "analysis.h"
#include "report.h"
#include "util.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

static int memfd = -1, memfd2 = -1;
static char path[64], path2[64];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	memfd = memfd_create("fuzz-reader", MFD_CLOEXEC);
	if (memfd < 0) {
		perror("memfd_create");
		abort();
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", memfd);
	memfd2 = memfd_create("fuzz-reader-2", MFD_CLOEXEC);
	if (memfd2 < 0) {
		perror("memfd_create");
		abort();
	}
	snprintf(path2, sizeof(path2), "/proc/self/fd/%d", memfd2);
	/* hostile format text makes libtraceevent chatty; keep the log clean */
	tep_set_loglevel(TEP_LOG_NONE);
	return 0;
}

/* The full pass, remembered for the seek oracle: the first MAXEV events
 * (time stamp, CPU, buffer), and whether every stream's time stamps never
 * went backwards (only then is a seek's output defined as a suffix). */
#define MAXEV 4096
struct evkey {
	uint64_t ts;
	int cpu, buffer;
};
static struct evkey pass[MAXEV];

/* Last time stamp per stream (buffer, cpu), in a small open table; a
 * table that fills up counts as "not monotonic" (no oracle). */
struct streams {
	int key[64];
	uint64_t last[64];
	int monotonic;
};

static void stream_see(struct streams *st, const struct td_event *ev)
{
	int key = ev->buffer * 65536 + ev->cpu + 1;

	for (unsigned i = (unsigned)key % 64, n = 0; n < 64; i = (i + 1) % 64, n++) {
		if (st->key[i] == key) {
			if (ev->ts < st->last[i])
				st->monotonic = 0;
			st->last[i] = ev->ts;
			return;
		}
		if (!st->key[i]) {
			st->key[i] = key;
			st->last[i] = ev->ts;
			return;
		}
	}
	st->monotonic = 0;
}

/*
 * After a seek to ts: up to 32 events. When the full pass ended cleanly
 * with n <= MAXEV events on monotonic streams, they must be the pass's
 * suffix from its first event with a time stamp >= ts (tracedat-read.h).
 */
static void check_seek(struct td_cursor *c, uint64_t ts, int oracle, int n)
{
	struct td_event ev;
	char *err = NULL;
	int j = 0, k = 0, r;

	if (oracle)
		while (j < n && pass[j].ts < ts)
			j++;
	while (k < 32 && (r = td_cursor_next(c, &ev, &err)) > 0) {
		if (oracle && (j + k >= n || pass[j + k].ts != ev.ts ||
			       pass[j + k].cpu != ev.cpu ||
			       pass[j + k].buffer != ev.buffer)) {
			fprintf(stderr, "seek to %llu: event %d is %llu cpu %d buffer %d, "
				"the full pass has %s%llu cpu %d buffer %d (event %d of %d)\n",
				(unsigned long long)ts, k, (unsigned long long)ev.ts,
				ev.cpu, ev.buffer, j + k >= n ? "nothing: " : "",
				j + k < n ? (unsigned long long)pass[j + k].ts : 0,
				j + k < n ? pass[j + k].cpu : -1,
				j + k < n ? pass[j + k].buffer : -1, j + k, n);
			abort();
		}
		k++;
	}
	if (k < 32) {
		if (r < 0 && (!err || !*err))
			abort();
		/* a seek that ends early must end where the pass ended */
		if (oracle && r == 0 && j + k != n) {
			fprintf(stderr, "seek to %llu: %d events, the full pass has %d after it\n",
				(unsigned long long)ts, k, n - j);
			abort();
		}
	}
	free(err);
}

/*
 * What `mmscope dump` does: every event of every buffer, printed by
 * libtraceevent. The pass fills an index (one page in 1, 2 or 16, from
 * the input's size), then the cursor seeks back to the time stamp of an
 * event picked by the input's size, and a second cursor starts at another
 * through an index built by td_index_build (or none).
 */
static long walk_events(struct td_file *tf, size_t size)
{
	struct td_cursor *c;
	struct td_index *ix, *ix2;
	struct td_event ev;
	struct trace_seq s;
	struct streams st = { .monotonic = 1 };
	char *err = NULL;
	int r, n = 0, oracle;
	uint64_t t1, t2, done = 0, total = 0, before = 0;

	c = td_cursor_new(tf, -1, &err);
	if (!c) {
		free(err);
		return -1;
	}
	ix = td_index_new(tf, (unsigned)(size % 3));
	if (ix && td_cursor_set_index(c, ix, &err)) {
		if (!err || !*err)
			abort();
		free(err);
		err = NULL;
	}
	trace_seq_init(&s);
	while ((r = td_cursor_next(c, &ev, &err)) > 0) {
		trace_seq_reset(&s);
		/* what `mmscope dump` does with each event */
		(void)tep_data_comm_from_pid(td_tep(tf),
					     tep_data_pid(td_tep(tf), &ev.record));
		if (ev.event)
			tep_print_event(td_tep(tf), &s, &ev.record, "%s",
					TEP_PRINT_INFO);
		if (n < MAXEV)
			pass[n] = (struct evkey){ ev.ts, ev.cpu, ev.buffer };
		n++;
		stream_see(&st, &ev);
		/* the TUI's progress bar: within the total, never backwards */
		if (n % 16 == 0) {
			td_cursor_progress(c, &done, &total);
			if (done > total || done < before)
				abort();
			before = done;
		}
	}
	trace_seq_destroy(&s);
	/* the contract: an error always says why */
	if (r < 0 && (!err || !*err))
		abort();
	/* a pass that ended cleanly has read everything */
	td_cursor_progress(c, &done, &total);
	if (r == 0 && done != total)
		abort();
	free(err);
	err = NULL;
	oracle = r == 0 && st.monotonic && n <= MAXEV;
	/* seek targets: events' own time stamps, one past, or past the end */
	t1 = n ? pass[(size * 7919) % (size_t)(n < MAXEV ? n : MAXEV)].ts : 0;
	t2 = n ? pass[(size * 104729 + 1) % (size_t)(n < MAXEV ? n : MAXEV)].ts : 1;
	if (size % 5 == 0)
		t2++;
	else if (size % 5 == 1)
		t2 = UINT64_MAX;
	if (td_cursor_seek(c, size % 7 ? ix : NULL, t1, &err) == 0)
		check_seek(c, t1, oracle, n);
	else if (!err || !*err)
		abort();
	free(err);
	err = NULL;
	td_cursor_free(c);

	/* dense (every 0-3rd page) or sparse (every 128th/256th: chunks skipped) */
	ix2 = td_index_new(tf, size % 8 < 4 ? (unsigned)(size % 4) : 128u << (size % 2));
	if (ix2 && td_index_build(ix2, &err)) {
		if (!err || !*err)
			abort();
		free(err);
		err = NULL;
	}
	/* an index may serve the file it was made for, and be attached to it */
	if (ix2 && td_index_attach(ix2, tf, &err))
		abort();
	c = td_cursor_new_at(tf, -1, size % 11 ? ix2 : NULL, t2, &err);
	if (c) {
		check_seek(c, t2, oracle, n);
		td_cursor_free(c);
	} else if (!err || !*err) {
		abort();
	}
	free(err);
	td_index_free(ix2);
	td_index_free(ix);
	return r == 0 ? (long)n : -1;
}

/* FNV-1a of a page, for comparing a seek's page with the full pass's. */
static uint64_t page_hash(const void *page, uint32_t len)
{
	const uint8_t *b = page;
	uint64_t h = 1469598103934665603ull;

	for (uint32_t i = 0; i < len; i++)
		h = (h ^ b[i]) * 1099511628211ull;
	return h;
}

/* Every CPU's pages, hashed; then td_pages_seek to a page picked by the
 * input's size must hand out the same page as the full pass. */
static void walk_pages(struct td_file *tf, size_t size)
{
	static uint64_t hashes[1024];

	for (int b = 0; b < td_nbuffers(tf); b++) {
		const struct td_buffer *buf = td_buffer(tf, b);

		for (int cpu = 0; cpu < buf->ncpus; cpu++) {
			struct td_pages *p;
			const void *page;
			char *err = NULL;
			uint64_t np = 0, j;
			volatile uint8_t sink = 0;
			int r;

			p = td_pages_open(tf, b, cpu, &err);
			if (!p) {
				free(err);
				continue;
			}
			/* every byte of the first 1024 pages, both ends of the rest */
			while ((r = td_pages_next(p, &page, &err)) > 0) {
				if (np < 1024)
					hashes[np] = page_hash(page, buf->page_size);
				else
					sink ^= ((const uint8_t *)page)[0] ^
						((const uint8_t *)page)[buf->page_size - 1];
				np++;
			}
			(void)sink;
			if (r < 0 && (!err || !*err))
				abort();
			free(err);
			err = NULL;
			/* a page the pass read (or one past them) */
			j = (size + (size_t)cpu) % (np + 1);
			if (td_pages_seek(p, j, &err) == 0) {
				r = td_pages_next(p, &page, &err);
				if (r > 0 && j < np && j < 1024 &&
				    page_hash(page, buf->page_size) != hashes[j]) {
					fprintf(stderr, "buffer %d cpu %d: page %llu after a seek "
						"differs from the full pass's\n", b, cpu,
						(unsigned long long)j);
					abort();
				}
				if (r == 0 && j < np) {
					fprintf(stderr, "buffer %d cpu %d: no page %llu after a "
						"seek; the full pass read %llu\n", b, cpu,
						(unsigned long long)j, (unsigned long long)np);
					abort();
				}
				if (r < 0 && (!err || !*err))
					abort();
			} else if (!err || !*err) {
				abort();
			}
			free(err);
			td_pages_close(p);
		}
	}
}

/* What `mmscope report` does: the analysis, then every section as text
 * (at a width taken from the input's size, so wrapping varies) and JSON. */
/* Writes data to fd from offset 0, the old contents gone. */
static void fill(int fd, const uint8_t *data, size_t size)
{
	size_t done = 0;

	if (ftruncate(fd, 0))
		abort();
	while (done < size) {
		ssize_t r = pwrite(fd, data + done, size - done, (off_t)done);

		if (r <= 0)
			abort();
		done += (size_t)r;
	}
}

/* The input twice as one recording; single: the events of a clean pass
 * over it alone, or -1. */
static void walk_set(const uint8_t *data, size_t size, long single)
{
	const char *paths[2] = { path, path2 };
	struct td_set *set;
	struct td_set_cursor *c;
	struct td_event ev;
	char *err = NULL;
	long n = 0, w = 0;
	uint64_t first = 0, since;
	int r;

	fill(memfd2, data, size);
	set = td_set_open(paths, 2, &err);
	if (!set) {
		if (!err || !*err)	/* a refusal always says why */
			abort();
		free(err);
		return;
	}
	if (size % 2)
		td_set_keep_names(set);
	/* a window's share (parts a switch ended before it give no names)
	 * on some inputs, every part's on the others */
	if (td_set_share_cmdlines(set, size % 3 ? 0 : (uint64_t)size * 1000, &err)) {
		if (!err || !*err)
			abort();
		goto out;
	}
	c = td_set_cursor_new(set, 0, 0, &err);
	while (c && (r = td_set_cursor_next(c, &ev, &err)) > 0) {
		struct tep_handle *names = td_set_cursor_names(c), *fmts = td_set_cursor_formats(c);

		if (!names || !fmts)
			abort();
		/* what dump does: the pid by the formats, the name by the part */
		(void)tep_data_comm_from_pid(names, tep_data_pid(fmts, &ev.record));
		if (n++ == (long)(size % 977))
			first = ev.ts;
	}
	if (c && r < 0 && (!err || !*err))
		abort();
	/* both copies read cleanly: each event twice */
	if (c && r == 0 && single >= 0 && n != 2 * single)
		abort();
	td_set_cursor_free(c);
	free(err);
	err = NULL;
	/* a window from an event's time: the parts that end before it are
	 * skipped on their last event's time, none of what follows lost */
	since = first ? first : 1;
	c = td_set_cursor_new(set, since, 0, &err);
	while (c && (r = td_set_cursor_next(c, &ev, &err)) > 0) {
		if (ev.ts < since)
			abort();
		w++;
	}
	if (c && r < 0 && (!err || !*err))
		abort();
	if (c && r == 0 && single >= 0 && w > n)
		abort();
	td_set_cursor_free(c);
out:
	free(err);
	td_set_close(set);
}

static void walk_analysis(size_t size)
{
	struct analysis_opts ao;
	struct report_opts ro;
	struct strbuf out = STRBUF_INIT;
	struct analysis *a;
	char *err = NULL;

	analysis_opts_default(&ao);
	a = analysis_run(path, &ao, &err);
	if (!a) {
		if (!err || !*err)
			abort();
		free(err);
		return;
	}
	report_opts_default(&ro);
	ro.width = 40 + (int)(size % 61);
	report_render(a, &ro, &out);
	strbuf_reset(&out);
	report_opts_default(&ro);
	ro.format = RF_JSON;
	report_render(a, &ro, &out);
	strbuf_release(&out);
	/* the accessors compare and the TUI use */
	for (int i = 0; i < analysis_nnotes(a); i++)
		if (!analysis_note(a, i))
			abort();
	(void)analysis_has_event(a, "vmscan", "mm_vmscan_kswapd_wake");
	(void)analysis_event_count(a, "vmscan", "mm_vmscan_kswapd_wake");
	analysis_free(a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct td_file *tf;
	char *err = NULL;
	long single;

	fill(memfd, data, size);
	tf = td_open(path, &err);
	if (!tf) {
		/* the contract: a failed open always says why */
		if (!err || !*err)
			abort();
		free(err);
		return 0;
	}
	single = walk_events(tf, size);
	walk_pages(tf, size);
	/* the accessors front ends use */
	for (int m = 0; m < TD_META_COUNT; m++) {
		size_t len;

		(void)td_meta(tf, (enum td_meta)m, &len);
	}
	td_close(tf);
	walk_analysis(size);
	walk_set(data, size, single);
	return 0;
}
