// SPDX-License-Identifier: GPL-2.0-or-later
/* Metadata for hand-built recordings (see synth.h). */
#include "config.h"
#include "synth.h"

#include <string.h>

const char synth_header_page[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n";

/* The fields every event starts with (8 bytes). */
#define COMMON_FIELDS \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"

const char synth_test_format[] =
	"name: test_event\n"
	"ID: 1000\n"
	"format:\n"
	COMMON_FIELDS
	"\n"
	"\tfield:int value;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"value=%d\", REC->value\n";

const char synth_print_format[] =
	"name: print\n"
	"ID: 5\n"
	"format:\n"
	COMMON_FIELDS
	"\n"
	"\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:char buf[];\toffset:16;\tsize:0;\tsigned:0;\n"
	"\n"
	"print fmt: \"%ps: %s\", (void *)REC->ip, REC->buf\n";

void synth_header_info(struct strbuf *hi)
{
	strbuf_add(hi, "header_page", 12);
	strbuf_add_u64(hi, sizeof(synth_header_page) - 1);
	strbuf_addstr(hi, synth_header_page);
	strbuf_add(hi, "header_event", 13);
	strbuf_add_u64(hi, 0);
}

void synth_header_info_page(struct strbuf *hi, uint32_t page_size)
{
	struct strbuf hp = STRBUF_INIT;
	const char *data = strstr(synth_header_page, "\tfield: char data;");

	/* synth_header_page, its data field the page less the 16-byte header */
	strbuf_add(&hp, synth_header_page, (size_t)(data - synth_header_page));
	strbuf_addf(&hp, "\tfield: char data;\toffset:16;\tsize:%u;\tsigned:0;\n",
		    page_size - 16);
	strbuf_add(hi, "header_page", 12);
	strbuf_add_u64(hi, hp.len);
	strbuf_add(hi, hp.buf, hp.len);
	strbuf_add(hi, "header_event", 13);
	strbuf_add_u64(hi, 0);
	strbuf_release(&hp);
}

void synth_add_system(struct strbuf *ev, const char *system,
		      const char *const *formats, int n)
{
	uint32_t systems = 0;

	if (ev->len < 4)
		strbuf_add_u32(ev, 0);
	memcpy(&systems, ev->buf, 4);
	systems++;
	memcpy(ev->buf, &systems, 4);
	strbuf_add(ev, system, strlen(system) + 1);
	strbuf_add_u32(ev, (uint32_t)n);
	for (int i = 0; i < n; i++) {
		strbuf_add_u64(ev, strlen(formats[i]));
		strbuf_addstr(ev, formats[i]);
	}
}

void synth_input(struct tw_input *in, const struct strbuf *hi,
		 const struct strbuf *ev, int cpucount, uint32_t page_size)
{
	in->meta[TD_META_HEADER_INFO] = hi->buf;
	in->meta_len[TD_META_HEADER_INFO] = hi->len;
	if (ev) {
		in->meta[TD_META_EVENTS] = ev->buf;
		in->meta_len[TD_META_EVENTS] = ev->len;
	}
	in->cpucount = cpucount;
	in->page_size = page_size;
	in->trace_clock = "[local] global counter\n";
	in->uname = "Linux testhost 6.18.0 x86_64";
}

void synth_page_close(struct synth_pages *p)
{
	unsigned long long commit = p->len;

	if (p->n)
		memcpy(p->b + (size_t)(p->n - 1) * p->size + 8, &commit, 8);
}

void synth_page_open(struct synth_pages *p, unsigned long long ts)
{
	synth_page_close(p);
	p->b = xrealloc(p->b, (size_t)(p->n + 1) * p->size);
	memset(p->b + (size_t)p->n * p->size, 0, p->size);
	memcpy(p->b + (size_t)p->n * p->size, &ts, 8);
	p->n++;
	p->len = 0;
	p->last_ts = ts;
}

int synth_next_page(void *ctx, void *page, char **err)
{
	struct synth_pages *p = ctx;

	(void)err;
	if (p->at >= p->n)
		return 0;
	memcpy(page, p->b + (size_t)p->at++ * p->size, p->size);
	return 1;
}
