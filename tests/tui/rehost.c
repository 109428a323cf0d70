// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Test helper: a copy of a real recording as another run of a host's
 * history (src/history.h), for the TUI's tests of several runs.
 *   usage: rehost IN OUT SHIFT_NS [KEY=VALUE...]
 * OUT holds IN's events SHIFT_NS later on the trace clock (every page's
 * time stamp moved, and the metadata's trace times: start_trace_ns,
 * trigger_ns), and its mmscope metadata with each KEY set to VALUE (a
 * key not there is added; KEY= removes it): machine_id, boot_id,
 * run_id, start_realtime_ns, stop_reason, mode... Fails when an event
 * of the copy is not where its page says (a page with absolute time
 * stamps), so a test never reads a copy whose times are wrong.
 */
#include "config.h"
#include "tracedat-read.h"
#include "tracedat-write.h"
#include "util.h"

#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct src {
	struct td_pages *pages;
	uint32_t page_size;
	uint64_t shift;
};

static int next_page(void *ctx, void *page, char **err)
{
	struct src *s = ctx;
	const void *p;
	uint64_t ts;
	int r = td_pages_next(s->pages, &p, err);

	if (r > 0) {
		memcpy(page, p, s->page_size);
		memcpy(&ts, page, 8);	/* the page header's time stamp */
		ts += s->shift;
		memcpy(page, &ts, 8);
	}
	return r;
}

/* meta with the trace-time keys shifted and the KEY=VALUE of sets */
static char *new_meta(const char *meta, uint64_t shift, char **sets, int nsets)
{
	static const char *const trace_keys[] = { "start_trace_ns", "trigger_ns" };
	struct strbuf sb = STRBUF_INIT;
	const char *p = meta ? meta : "";

	while (*p) {
		size_t len = strcspn(p, "\n"), klen = strcspn(p, "=\n");
		int drop = 0, shifted = 0;

		for (int i = 0; i < nsets; i++)
			drop |= strlen(sets[i]) > klen && sets[i][klen] == '=' &&
				!strncmp(sets[i], p, klen);
		for (size_t k = 0; k < sizeof(trace_keys) / sizeof(trace_keys[0]) && !drop; k++)
			if (klen == strlen(trace_keys[k]) && !strncmp(p, trace_keys[k], klen) &&
			    p[klen] == '=') {
				strbuf_addf(&sb, "%s=%" PRIu64 "\n", trace_keys[k],
					    (uint64_t)strtoull(p + klen + 1, NULL, 10) + shift);
				shifted = 1;
			}
		if (!drop && !shifted && len)
			strbuf_addf(&sb, "%.*s\n", (int)len, p);
		p += len + (p[len] == '\n');
	}
	for (int i = 0; i < nsets; i++)
		if (sets[i][strcspn(sets[i], "=") + 1])	/* KEY= only removes */
			strbuf_addf(&sb, "%s\n", sets[i]);
	return strbuf_detach(&sb, NULL);
}

int main(int argc, char **argv)
{
	struct tw_input in = { 0 };
	struct tw_buffer *bufs;
	struct src *srcs;
	struct tw_opts wo;
	struct tw_result res;
	struct td_file *tf, *out;
	char *err = NULL, *meta, *clock_text = NULL;
	uint64_t shift, a0, a1, b0, b1;
	size_t nsrcs = 0, cpustat_len;
	int fd;

	if (argc < 4) {
		fprintf(stderr, "usage: rehost IN OUT SHIFT_NS [KEY=VALUE...]\n");
		return 2;
	}
	shift = strtoull(argv[3], NULL, 10);
	tf = td_open(argv[1], &err);
	if (!tf || td_first_ts(tf, &a0, &err) || td_last_ts(tf, &a1, &err)) {
		fprintf(stderr, "rehost: %s: %s\n", argv[1], err ? err : "cannot read");
		return 1;
	}
	for (int m = 0; m < TD_META_COUNT; m++)
		in.meta[m] = td_meta(tf, (enum td_meta)m, &in.meta_len[m]);
	in.page_size = td_page_size(tf);
	if (td_trace_clock(tf))
		in.trace_clock = clock_text = xasprintf("[%s]\n", td_trace_clock(tf));
	in.uname = td_uname(tf);
	in.version = td_tracer_version(tf);
	in.cpustat = td_cpustat_text(tf, &cpustat_len);
	in.cpustat_len = cpustat_len;
	meta = new_meta(td_private(tf), shift, argv + 4, argc - 4);
	in.private_meta = meta;
	bufs = xcalloc((size_t)td_nbuffers(tf) + 1, sizeof(*bufs));
	for (int b = 0; b < td_nbuffers(tf); b++)
		nsrcs += (size_t)td_buffer(tf, b)->ncpus;
	srcs = xcalloc(nsrcs + 1, sizeof(*srcs));
	nsrcs = 0;
	for (int b = 0; b < td_nbuffers(tf); b++) {
		const struct td_buffer *tb = td_buffer(tf, b);

		if (tb->ncpus > in.cpucount)
			in.cpucount = tb->ncpus;
		bufs[b].name = tb->name;
		bufs[b].clock = tb->clock;
		bufs[b].page_size = tb->page_size;
		bufs[b].ncpus = tb->ncpus;
		bufs[b].cpus = xcalloc((size_t)tb->ncpus + 1, sizeof(struct tw_cpu));
		for (int cpu = 0; cpu < tb->ncpus; cpu++) {
			struct src *s = &srcs[nsrcs++];

			if (!tb->cpu_offset[cpu] && !tb->cpu_size[cpu])
				continue;
			s->page_size = tb->page_size;
			s->shift = shift;
			s->pages = td_pages_open(tf, b, cpu, &err);
			if (!s->pages) {
				fprintf(stderr, "rehost: %s: %s\n", argv[1], err);
				return 1;
			}
			bufs[b].cpus[cpu].next = next_page;
			bufs[b].cpus[cpu].ctx = s;
		}
	}
	in.buffers = bufs;
	in.nbuffers = td_nbuffers(tf);
	tw_opts_default(&wo);
	fd = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || tw_write(fd, &in, &wo, &res, &err) || close(fd)) {
		fprintf(stderr, "rehost: %s: %s\n", argv[2], err ? err : "cannot write");
		return 1;
	}
	/* every event moved with its page: the first and the last */
	out = td_open(argv[2], &err);
	if (!out || td_first_ts(out, &b0, &err) || td_last_ts(out, &b1, &err) ||
	    b0 != a0 + shift || b1 != a1 + shift) {
		fprintf(stderr, "rehost: %s: events not moved by %" PRIu64 " ns (%s)\n", argv[2],
			shift, err ? err : "absolute time stamps in a page?");
		return 1;
	}
	td_close(out);
	for (size_t i = 0; i < nsrcs; i++)
		td_pages_close(srcs[i].pages);
	for (int b = 0; b < td_nbuffers(tf); b++)
		free(bufs[b].cpus);
	free(srcs);
	free(bufs);
	free(meta);
	free(clock_text);
	td_close(tf);
	return 0;
}
