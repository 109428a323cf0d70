// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Test helper: write a trace.dat (v7) holding ftrace:print events, one per
 * input line "NANOSECONDS TEXT", on one CPU, as the recorder's counter
 * sampler leaves them (mmscope-samples(5)). Short events use the compact
 * ring-buffer header, long ones (type_len 0) the length word, and a new
 * page starts when the time delta would not fit in 27 bits.
 *   usage: mkrec OUT.dat < lines
 * MKREC_META, if set, is the file's mmscope metadata (key=value lines),
 * MKREC_UNAME its uname option ("Linux testhost 6.18.0 x86_64"), MKREC_PAGE
 * its ring page size (4096; a 16 KB-page kernel's is 16384).
 * MKREC_PID sets the events' pid (4242), MKREC_CMDLINES the saved
 * cmdlines text ("PID COMM" lines), MKREC_PRINT_ID the print event's id
 * (5) and MKREC_FORMAT_TAIL text added after its format (the same event
 * in other bytes), MKREC_CMDLINES_BAD a cmdlines size word 5 too large:
 * for tests of several files as one recording.
 */
#include "config.h"
#include "tracedat-write.h"
#include "util.h"
#include "../unit/synth.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* the ring page: MKREC_PAGE bytes (a kernel's page size: 16384 on a
 * 16 KB-page arm64), 4096 unless set */
static unsigned int PAGE = 4096;

static int env_int(const char *name, int dflt)
{
	const char *v = getenv(name);

	return v && *v ? atoi(v) : dflt;
}

static void add_print(struct synth_pages *p, unsigned long long ts, const char *text)
{
	size_t tlen = strlen(text) + 1, dlen = 16 + tlen, alen = (dlen + 3) & ~(size_t)3;
	size_t need = 4 + (alen > 112 ? 4 : 0) + alen;
	unsigned char *e;
	unsigned int hdr, word;
	unsigned short type = (unsigned short)env_int("MKREC_PRINT_ID", 5);
	int pid = env_int("MKREC_PID", 4242);

	if (!p->n || ts - p->last_ts >= (1ull << 27) || p->len + need > p->size - 16)
		synth_page_open(p, ts);
	e = p->b + (size_t)(p->n - 1) * p->size + 16 + p->len;
	hdr = (unsigned int)(ts - p->last_ts) << 5;
	if (alen > 112) {
		word = (unsigned int)alen + 4;
		memcpy(e, &hdr, 4);
		memcpy(e + 4, &word, 4);
		e += 8;
	} else {
		hdr |= (unsigned int)(alen / 4);
		memcpy(e, &hdr, 4);
		e += 4;
	}
	memcpy(e, &type, 2);
	memcpy(e + 4, &pid, 4);
	memcpy(e + 16, text, tlen);
	p->len += need;
	p->last_ts = ts;
}

int main(int argc, char **argv)
{
	struct strbuf hi = STRBUF_INIT, ft = STRBUF_INIT, line = STRBUF_INIT, cl = STRBUF_INIT;
	struct synth_pages p = { 0 };
	struct tw_cpu cpu;
	struct tw_buffer buf = { "", "local", PAGE, 1, &cpu };
	struct tw_input in = { 0 };
	struct tw_opts o;
	struct tw_result res;
	char *err = NULL, l[8192];
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: mkrec OUT.dat < lines\n");
		return 2;
	}
	PAGE = (unsigned int)env_int("MKREC_PAGE", 4096);
	if (PAGE < 4096 || PAGE > 65536 || (PAGE & (PAGE - 1))) {
		fprintf(stderr, "mkrec: MKREC_PAGE %u is not a page size\n", PAGE);
		return 2;
	}
	buf.page_size = PAGE;
	p.size = PAGE;
	while (fgets(l, sizeof(l), stdin)) {
		char *text;
		unsigned long long ts = strtoull(l, &text, 10);

		l[strcspn(l, "\n")] = '\0';
		if (*text == ' ')
			add_print(&p, ts, text + 1);
	}
	synth_page_close(&p);
	synth_header_info_page(&hi, PAGE);
	{
		/* the print format, with its id and tail as asked */
		struct strbuf fmt = STRBUF_INIT;
		const char *id = strstr(synth_print_format, "ID: 5\n");
		const char *tail = getenv("MKREC_FORMAT_TAIL");

		strbuf_add(&fmt, synth_print_format, (size_t)(id - synth_print_format));
		strbuf_addf(&fmt, "ID: %d\n", env_int("MKREC_PRINT_ID", 5));
		strbuf_addstr(&fmt, id + 6);
		if (tail)
			strbuf_addstr(&fmt, tail);
		strbuf_add_u32(&ft, 1);
		strbuf_add_u64(&ft, fmt.len);
		strbuf_add(&ft, fmt.buf, fmt.len);
		strbuf_release(&fmt);
	}
	cpu.next = synth_next_page;
	cpu.ctx = &p;
	synth_input(&in, &hi, NULL, 1, PAGE);
	in.meta[TD_META_FTRACE] = ft.buf;
	in.meta_len[TD_META_FTRACE] = ft.len;
	in.buffers = &buf;
	in.nbuffers = 1;
	in.private_meta = getenv("MKREC_META");	/* key=value lines, or none */
	if (getenv("MKREC_UNAME"))
		in.uname = getenv("MKREC_UNAME");
	if (getenv("MKREC_CMDLINES")) {	/* u64 size, then the text */
		const char *t = getenv("MKREC_CMDLINES");

		/* MKREC_CMDLINES_BAD: a size word that is not the text's */
		strbuf_add_u64(&cl, strlen(t) + (getenv("MKREC_CMDLINES_BAD") ? 5 : 0));
		strbuf_addstr(&cl, t);
		in.meta[TD_META_CMDLINES] = cl.buf;
		in.meta_len[TD_META_CMDLINES] = cl.len;
	}
	tw_opts_default(&o);
	fd = open(argv[1], O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || tw_write(fd, &in, &o, &res, &err)) {
		fprintf(stderr, "mkrec: %s: %s\n", argv[1], err ? err : "cannot create");
		return 1;
	}
	close(fd);
	free(p.b);
	strbuf_release(&hi);
	strbuf_release(&ft);
	strbuf_release(&line);
	strbuf_release(&cl);
	return 0;
}
