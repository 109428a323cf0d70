/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Metadata for hand-built recordings: the tests that write a trace.dat
 * from pages they make themselves (test-tracedat, test-seek, test-formats,
 * tests/compare/mkrec) share one header page, one test event and the same
 * clock and uname, so that a change to what the writer needs is made once.
 */
#ifndef MMSCOPE_TESTS_SYNTH_H
#define MMSCOPE_TESTS_SYNTH_H

#include "tracedat-write.h"
#include "util.h"

/* events/header_page of Linux 6.18, x86_64: 4096-byte pages, 16-byte header */
extern const char synth_header_page[];

/* test:test_event, ID 1000, one int field "value" at offset 8 (16 bytes) */
extern const char synth_test_format[];

/* ftrace:print of Linux 6.x, x86_64 (ID 5; ip at 8, buf[] at 16) */
extern const char synth_print_format[];

/* The header_info section: synth_header_page and an empty header_event. */
void synth_header_info(struct strbuf *hi);
/* The same for a ring page of page_size bytes (a 16 KB-page kernel's). */
void synth_header_info_page(struct strbuf *hi, uint32_t page_size);

/* Append one event system holding n formats to an events section that
 * starts empty: the system count is kept in its first 4 bytes. */
void synth_add_system(struct strbuf *ev, const char *system,
		      const char *const *formats, int n);

/*
 * Fill what every synthetic recording shares: header info and events
 * sections (ev may be NULL), CPU count, page size, the local clock and a
 * 6.18 uname. The strbufs must outlive the write.
 */
void synth_input(struct tw_input *in, const struct strbuf *hi,
		 const struct strbuf *ev, int cpucount, uint32_t page_size);

/*
 * One CPU's ring-buffer pages built in memory: each page of size bytes
 * opens with its first event's time and its commit (bytes of events),
 * as the kernel's buffer_data_page. Set size, then open a page at each
 * event that does not fit; close the last before the write.
 */
struct synth_pages {
	unsigned char *b;	/* n pages of size bytes */
	int n, at;		/* at: the next page synth_next_page gives */
	size_t len;		/* bytes used in the last page */
	unsigned long long last_ts;
	unsigned int size;
};

void synth_page_open(struct synth_pages *p, unsigned long long ts);
void synth_page_close(struct synth_pages *p);
/* tw_cpu's page source over p (ctx): each page once, in order. */
int synth_next_page(void *ctx, void *page, char **err);

#endif
