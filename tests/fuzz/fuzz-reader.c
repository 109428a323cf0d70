// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target over mmscope's whole trace.dat read path: the header,
 * v6 parts and v7 sections and options, compressed metadata and chunks,
 * every CPU's pages, the kbuffer walk and merge, and libtraceevent's
 * printing of each event; then what `mmscope report` does with the same
 * file: analysis_run() (parsers bound to the file's formats, every event
 * through its parser, the records through every model) and the report
 * rendered as text and as JSON into a strbuf that is thrown away.
 *
 * td_open() takes a path, so each input is written to one memfd that is
 * reused for the whole run and opened through /proc/self/fd. Nothing
 * depends on time or randomness, so a crash replays from its file.
 */
#define _GNU_SOURCE
#include "config.h"
#include "tracedat-read.h"
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

static int memfd = -1;
static char path[64];

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
	/* hostile format text makes libtraceevent chatty; keep the log clean */
	tep_set_loglevel(TEP_LOG_NONE);
	return 0;
}

static void walk_events(struct td_file *tf)
{
	struct td_cursor *c;
	struct td_event ev;
	struct trace_seq s;
	char *err = NULL;
	int r;

	c = td_cursor_new(tf, -1, &err);
	if (!c) {
		free(err);
		return;
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
	}
	trace_seq_destroy(&s);
	/* the contract: an error always says why */
	if (r < 0 && (!err || !*err))
		abort();
	free(err);
	td_cursor_free(c);
}

static void walk_pages(struct td_file *tf)
{
	for (int b = 0; b < td_nbuffers(tf); b++) {
		const struct td_buffer *buf = td_buffer(tf, b);

		for (int cpu = 0; cpu < buf->ncpus; cpu++) {
			struct td_pages *p;
			const void *page;
			char *err = NULL;
			volatile uint8_t sink = 0;
			int r;

			p = td_pages_open(tf, b, cpu, &err);
			if (!p) {
				free(err);
				continue;
			}
			/* touch both ends of every page the reader hands out */
			while ((r = td_pages_next(p, &page, &err)) > 0)
				sink ^= ((const uint8_t *)page)[0] ^
					((const uint8_t *)page)[buf->page_size - 1];
			(void)sink;
			if (r < 0 && (!err || !*err))
				abort();
			free(err);
			td_pages_close(p);
		}
	}
}

/* What `mmscope report` does: the analysis, then every section as text
 * (at a width taken from the input's size, so wrapping varies) and JSON. */
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
	size_t done = 0;

	if (ftruncate(memfd, 0))
		abort();
	while (done < size) {
		ssize_t r = pwrite(memfd, data + done, size - done, (off_t)done);

		if (r <= 0)
			abort();
		done += (size_t)r;
	}
	tf = td_open(path, &err);
	if (!tf) {
		/* the contract: a failed open always says why */
		if (!err || !*err)
			abort();
		free(err);
		return 0;
	}
	walk_events(tf);
	walk_pages(tf);
	/* the accessors front ends use */
	for (int m = 0; m < TD_META_COUNT; m++) {
		size_t len;

		(void)td_meta(tf, (enum td_meta)m, &len);
	}
	td_close(tf);
	walk_analysis(size);
	return 0;
}
