// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Cut a real recording down to a fuzzing seed: the same HEADER_INFO, only
 * the event formats its first pages use, a few kallsyms and cmdlines
 * lines, and the first PAGES pages of each CPU, written by our own writer
 * in the requested version and compression with one page per chunk (so
 * the chunk table has several entries to mutate).
 *
 * usage: make-seeds IN OUT VERSION COMPRESSION PAGES [FIRST]
 * (FIRST: skip that many pages of each CPU first, to reach the middle of
 * a recording where kswapd and kcompactd run)
 * Built and run by hand (see README.md); the seeds are committed.
 */
#define _GNU_SOURCE
#include "config.h"
#include "tracedat-read.h"
#include "tracedat-write.h"

#include <fcntl.h>
#include <kbuffer.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct src {
	uint8_t *pages;
	int n, at;
	uint32_t page_size;
};

static int next_page(void *ctx, void *page, char **err)
{
	struct src *s = ctx;

	(void)err;
	if (s->at >= s->n)
		return 0;
	memcpy(page, s->pages + (size_t)s->at++ * s->page_size, s->page_size);
	return 1;
}

static uint32_t le32(const void *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static uint64_t le64(const void *p) { uint64_t v; memcpy(&v, p, 8); return v; }

/* Keep the formats (u64 size, text) whose "ID: n" was seen; returns how
 * many were kept. */
static uint32_t cut_list(const uint8_t *p, size_t *pos, uint32_t count,
			 const unsigned char *used, struct strbuf *out)
{
	uint32_t kept = 0;

	for (uint32_t j = 0; j < count; j++) {
		uint64_t n = le64(p + *pos);
		const char *text = (const char *)p + *pos + 8;
		const char *id = memmem(text, n, "\nID: ", 5);

		*pos += 8 + n;
		if (!id || !used[atoi(id + 5) & 0xffff])
			continue;
		strbuf_add_u64(out, n);
		strbuf_add(out, text, n);
		kept++;
	}
	return kept;
}

/* The ftrace formats part (u32 count, formats): ftrace:print carries the
 * mms1 counter samples, so the sample parsers need it. */
static void cut_ftrace(const uint8_t *p, size_t len, const unsigned char *used,
		       struct strbuf *out)
{
	size_t pos = 4;
	uint32_t kept;

	strbuf_add_u32(out, 0);
	kept = len >= 4 ? cut_list(p, &pos, le32(p), used, out) : 0;
	memcpy(out->buf, &kept, 4);
}

/* Keep the formats whose "ID: n" was seen. */
static void cut_formats(const uint8_t *p, size_t len, const unsigned char *used,
			struct strbuf *out)
{
	uint32_t nsys = le32(p), kept_sys = 0;
	size_t pos = 4;

	strbuf_add_u32(out, 0);
	for (uint32_t i = 0; i < nsys; i++) {
		const char *sys = (const char *)p + pos;
		size_t at_count;
		uint32_t count, kept = 0;

		pos += strlen(sys) + 1;
		count = le32(p + pos);
		pos += 4;
		size_t sys_start = out->len;

		strbuf_addstr(out, sys);
		strbuf_addch(out, 0);
		at_count = out->len;
		strbuf_add_u32(out, 0);
		kept = cut_list(p, &pos, count, used, out);
		if (!kept) {
			out->len = sys_start;
			continue;
		}
		memcpy(out->buf + at_count, &kept, 4);
		kept_sys++;
	}
	memcpy(out->buf, &kept_sys, 4);
	(void)len;
}

/* A u32- or u64-sized text section cut to its first `lines` lines. */
static void cut_text(const uint8_t *p, size_t len, int wide, int lines,
		     struct strbuf *out)
{
	size_t hl = wide ? 8 : 4, n = 0, from = 0;
	const char *t = (const char *)p + hl;

	/* kallsyms: from the first line that is not an absolute symbol
	 * (6.12 starts with hundreds of per-CPU ones, "0000000000001000 A
	 * cpu_debug_store", which name no function) */
	if (!wide)
		while (from + 19 < len - hl && t[from + 16] == ' ' &&
		       (t[from + 17] == 'A' || t[from + 17] == 'a') && t[from + 18] == ' ') {
			const char *nl = memchr(t + from, '\n', len - hl - from);

			if (!nl)
				break;
			from = (size_t)(nl - t) + 1;
		}
	t += from;
	len -= from;
	while (n < len - hl && lines) {
		if (t[n++] == '\n')
			lines--;
	}
	if (wide)
		strbuf_add_u64(out, n);
	else
		strbuf_add_u32(out, (uint32_t)n);
	strbuf_add(out, t, n);
}

int main(int argc, char **argv)
{
	struct td_file *tf;
	char *err = NULL;
	static unsigned char used[65536];
	struct strbuf ev = STRBUF_INIT, ks = STRBUF_INIT, cl = STRBUF_INIT, ft = STRBUF_INIT;
	struct tw_input in = { 0 };
	struct tw_opts o;
	struct tw_result res;
	int npages, first, fd;

	if (argc != 6 && argc != 7) {
		fprintf(stderr, "usage: make-seeds IN OUT VERSION COMPRESSION PAGES [FIRST]\n");
		return 2;
	}
	npages = atoi(argv[5]);
	first = argc == 7 ? atoi(argv[6]) : 0;
	tf = td_open(argv[1], &err);
	if (!tf) {
		fprintf(stderr, "%s: %s\n", argv[1], err);
		return 1;
	}
	int nb = td_nbuffers(tf);
	struct tw_buffer *bufs = calloc((size_t)nb, sizeof(*bufs));
	struct kbuffer *kb = tep_kbuffer(td_tep(tf));

	for (int b = 0; b < nb; b++) {
		const struct td_buffer *tb = td_buffer(tf, b);

		bufs[b].name = tb->name;
		bufs[b].clock = tb->clock;
		bufs[b].page_size = tb->page_size;
		bufs[b].ncpus = tb->ncpus;
		bufs[b].cpus = calloc((size_t)tb->ncpus, sizeof(struct tw_cpu));
		for (int cpu = 0; cpu < tb->ncpus; cpu++) {
			struct td_pages *p = td_pages_open(tf, b, cpu, &err);
			struct src *s = calloc(1, sizeof(*s));
			const void *page;

			s->page_size = tb->page_size;
			s->pages = malloc((size_t)npages * tb->page_size);
			for (int skip = 0; p && skip < first &&
			     td_pages_next(p, &page, &err) > 0; skip++)
				;
			while (p && s->n < npages && td_pages_next(p, &page, &err) > 0) {
				unsigned long long ts;
				void *d;

				memcpy(s->pages + (size_t)s->n++ * tb->page_size, page,
				       tb->page_size);
				kbuffer_load_subbuffer(kb, (void *)page);
				for (d = kbuffer_read_event(kb, &ts); d;
				     d = kbuffer_next_event(kb, &ts))
					used[*(uint16_t *)d] = 1;
			}
			td_pages_close(p);
			if (s->n) {
				bufs[b].cpus[cpu].next = next_page;
				bufs[b].cpus[cpu].ctx = s;
			}
		}
	}
	kbuffer_free(kb);

	size_t len;
	const uint8_t *m;

	in.meta[TD_META_HEADER_INFO] = td_meta(tf, TD_META_HEADER_INFO,
					       &in.meta_len[TD_META_HEADER_INFO]);
	m = td_meta(tf, TD_META_EVENTS, &len);
	cut_formats(m, len, used, &ev);
	in.meta[TD_META_EVENTS] = ev.buf;
	in.meta_len[TD_META_EVENTS] = ev.len;
	if ((m = td_meta(tf, TD_META_KALLSYMS, &len)) && len > 4) {
		cut_text(m, len, 0, 40, &ks);
		in.meta[TD_META_KALLSYMS] = ks.buf;
		in.meta_len[TD_META_KALLSYMS] = ks.len;
	}
	if ((m = td_meta(tf, TD_META_CMDLINES, &len)) && len > 8) {
		cut_text(m, len, 1, 40, &cl);
		in.meta[TD_META_CMDLINES] = cl.buf;
		in.meta_len[TD_META_CMDLINES] = cl.len;
	}
	/* the ftrace formats the pages use (ftrace:print: counter samples),
	 * and an empty printk part: trace-cmd convert wants them */
	static const uint8_t zero4[4];

	if ((m = td_meta(tf, TD_META_FTRACE, &len)) && len >= 4) {
		cut_ftrace(m, len, used, &ft);
		in.meta[TD_META_FTRACE] = ft.buf;
		in.meta_len[TD_META_FTRACE] = ft.len;
	} else {
		in.meta[TD_META_FTRACE] = zero4;
		in.meta_len[TD_META_FTRACE] = 4;
	}
	in.meta[TD_META_PRINTK] = zero4;
	in.meta_len[TD_META_PRINTK] = 4;
	in.cpucount = bufs[nb - 1].ncpus;
	in.page_size = td_page_size(tf);
	in.trace_clock = "[local] global counter uptime perf mono mono_raw boot\n";
	in.uname = td_uname(tf);
	in.version = td_tracer_version(tf);
	in.cpustat = td_cpustat_text(tf, &in.cpustat_len);
	in.private_meta = td_private(tf);	/* mmscope's kernel=, events=, probes= */
	in.buffers = bufs;
	in.nbuffers = nb;
	tw_opts_default(&o);
	o.version = atoi(argv[3]);
	if (codec_from_name(argv[4], &o.codec))
		return 2;
	o.chunk_pages = 1;
	fd = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || tw_write(fd, &in, &o, &res, &err)) {
		fprintf(stderr, "%s: %s\n", argv[2], err ? err : "cannot create");
		return 1;
	}
	close(fd);
	td_close(tf);
	return 0;
}
