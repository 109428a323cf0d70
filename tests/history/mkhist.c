// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Test helper: a copy of a real recording moved in time and given other
 * mmscope metadata, so that tests and the scale benchmark can build host
 * histories (restarts, parts, reboots, incidents) out of real events:
 *
 *   mkhist IN OUT TRACE_SHIFT_NS WALL_SHIFT_NS [KEY=VALUE | KEY= ...]
 *
 * Every page's time stamp moves by TRACE_SHIFT_NS (signed), and so do the
 * trace-clock keys of the metadata (start_trace_ns, trigger_ns, the
 * trace halves of wall_segments); the wall-clock keys (start_realtime_ns,
 * trigger_realtime_ns, the wall halves of wall_segments) move by
 * WALL_SHIFT_NS. Then each KEY=VALUE replaces that key's line or is added,
 * and KEY= removes it. The events, formats, cmdlines and kallsyms stay
 * as they are. The copy is read back: every event must be the original's
 * moved by TRACE_SHIFT_NS (a page with an absolute time stamp, an event of
 * type 29, would not move: refused). MKHIST_NOCHECK=1 skips that (the
 * scale benchmark's thousands of copies of one checked part).
 *
 *   mkhist --parts N --every SECONDS IN BASE [KEY=VALUE...]
 *
 * writes BASE-1.dat .. BASE-N.dat, the parts of one --switch-output run:
 * part k is IN moved by (k - 1) * SECONDS on both clocks, with
 * switch_output=k and stop_reason=switch-output (the last: signal),
 * all in one process (the writer compresses the kallsyms they share
 * once), the first one checked.
 */
#include "config.h"
#include "tracedat-read.h"
#include "tracedat-write.h"
#include "util.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct src {
	struct td_pages *pages;
	uint32_t page_size;
	int64_t shift;
};

static int next_page(void *ctx, void *page, char **err)
{
	struct src *s = ctx;
	const void *p;
	int r = td_pages_next(s->pages, &p, err);
	uint64_t ts;

	if (r <= 0)
		return r;
	memcpy(page, p, s->page_size);
	memcpy(&ts, page, 8);
	ts = (uint64_t)((int64_t)ts + s->shift);
	memcpy(page, &ts, 8);
	return r;
}

static int64_t shifted(const char *v, int64_t by)
{
	return (int64_t)strtoll(v, NULL, 10) + by;
}

/* wall_segments=TA:RA:TB:RB,... with T moved by t and R by w */
static void shift_segments(struct strbuf *out, const char *v, int64_t t, int64_t w)
{
	while (*v && *v != '\n') {
		long long q[4];
		int n = 0;

		if (sscanf(v, "%lld:%lld:%lld:%lld%n", &q[0], &q[1], &q[2], &q[3], &n) != 4)
			break;
		strbuf_addf(out, "%lld:%lld:%lld:%lld", q[0] + (long long)t, q[1] + (long long)w,
			    q[2] + (long long)t, q[3] + (long long)w);
		v += n;
		if (*v == ',') {
			strbuf_addch(out, ',');
			v++;
		}
	}
}

/* the last KEY=VALUE for key (a later one wins) */
static const char *given(char **kv, int n, const char *key, size_t klen)
{
	for (int i = n - 1; i >= 0; i--)
		if (!strncmp(kv[i], key, klen) && kv[i][klen] == '=')
			return kv[i] + klen + 1;
	return NULL;
}

static char *new_meta(const char *old, int64_t t, int64_t w, char **kv, int nkv)
{
	struct strbuf sb = STRBUF_INIT;

	for (const char *l = old ? old : ""; *l;) {
		size_t len = strcspn(l, "\n"), klen = strcspn(l, "=");
		const char *v = l + klen + 1, *g;

		if (klen < len) {
			g = given(kv, nkv, l, klen);
			if (g) {
				if (*g)
					strbuf_addf(&sb, "%.*s=%s\n", (int)klen, l, g);
			} else if (!strncmp(l, "start_trace_ns=", 15) ||
				   !strncmp(l, "trigger_ns=", 11)) {
				strbuf_addf(&sb, "%.*s=%lld\n", (int)klen, l, (long long)shifted(v, t));
			} else if (!strncmp(l, "start_realtime_ns=", 18) ||
				   !strncmp(l, "trigger_realtime_ns=", 20)) {
				strbuf_addf(&sb, "%.*s=%lld\n", (int)klen, l, (long long)shifted(v, w));
			} else if (!strncmp(l, "wall_segments=", 14)) {
				strbuf_addstr(&sb, "wall_segments=");
				shift_segments(&sb, v, t, w);
				strbuf_addch(&sb, '\n');
			} else {
				strbuf_add(&sb, l, len);
				strbuf_addch(&sb, '\n');
			}
		}
		l += len + (l[len] == '\n');
	}
	for (int i = 0; i < nkv; i++) {	/* the keys the file did not have */
		size_t klen = strcspn(kv[i], "=");
		int had = given(kv + i + 1, nkv - i - 1, kv[i], klen) != NULL;

		for (const char *l = old ? old : ""; *l && !had; l += strcspn(l, "\n") + 1) {
			had = !strncmp(l, kv[i], klen) && l[klen] == '=';
			if (!l[strcspn(l, "\n")])
				break;
		}
		if (!had && kv[i][klen + 1])
			strbuf_addf(&sb, "%s\n", kv[i]);
	}
	return sb.buf ? strbuf_detach(&sb, NULL) : xstrdup("");
}

/* Every event of b is a's moved by t, in the same order. */
static int check(const char *a, const char *b, int64_t t)
{
	struct td_file *fa = td_open(a, NULL), *fb = td_open(b, NULL);
	struct td_cursor *ca = fa ? td_cursor_new(fa, -1, NULL) : NULL;
	struct td_cursor *cb = fb ? td_cursor_new(fb, -1, NULL) : NULL;
	struct td_event ea, eb;
	uint64_t n = 0;
	int ra, rb, bad = !ca || !cb;

	while (!bad) {
		ra = td_cursor_next(ca, &ea, NULL);
		rb = td_cursor_next(cb, &eb, NULL);
		if (ra != rb || ra < 0) {
			bad = 1;
		} else if (!ra) {
			break;
		} else if ((int64_t)eb.ts != (int64_t)ea.ts + t || ea.cpu != eb.cpu) {
			bad = 1;
		}
		n++;
	}
	if (bad)
		fprintf(stderr, "mkhist: %s: event %llu of the copy is not the original's "
			"moved (an absolute time stamp?)\n", b, (unsigned long long)n);
	td_cursor_free(ca);
	td_cursor_free(cb);
	td_close(fa);
	td_close(fb);
	return bad;
}

/* One copy: 0, or 1 with the error printed. */
static int copy_one(struct td_file *tf, const char *in_path, const char *out, int64_t t,
		    int64_t w, char **kv, int nkv, int checked)
{
	struct tw_input in = { 0 };
	struct tw_opts wo;
	struct tw_result res;
	struct tw_buffer *bufs;
	struct src *srcs;
	char *err = NULL, *meta, *clock_text = NULL;
	size_t n = 0, cpustat_len;
	int fd, r = 0;

	for (int m = 0; m < TD_META_COUNT; m++)
		in.meta[m] = td_meta(tf, (enum td_meta)m, &in.meta_len[m]);
	in.page_size = td_page_size(tf);
	if (td_trace_clock(tf))
		in.trace_clock = clock_text = xasprintf("[%s]\n", td_trace_clock(tf));
	in.uname = td_uname(tf);
	in.version = td_tracer_version(tf);
	in.cpustat = td_cpustat_text(tf, &cpustat_len);
	in.cpustat_len = cpustat_len;
	meta = new_meta(td_private(tf), t, w, kv, nkv);
	in.private_meta = meta;
	bufs = xcalloc((size_t)td_nbuffers(tf) + 1, sizeof(*bufs));
	for (int b = 0; b < td_nbuffers(tf); b++)
		n += (size_t)td_buffer(tf, b)->ncpus;
	srcs = xcalloc(n + 1, sizeof(*srcs));
	n = 0;
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
			struct src *s = &srcs[n++];

			if (!tb->cpu_offset[cpu] && !tb->cpu_size[cpu])
				continue;
			s->page_size = tb->page_size;
			s->shift = t;
			s->pages = td_pages_open(tf, b, cpu, &err);
			if (!s->pages) {
				fprintf(stderr, "mkhist: %s: %s\n", in_path, err);
				r = 1;
				goto out;
			}
			bufs[b].cpus[cpu].next = next_page;
			bufs[b].cpus[cpu].ctx = s;
		}
	}
	in.buffers = bufs;
	in.nbuffers = td_nbuffers(tf);
	tw_opts_default(&wo);
	fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0 || tw_write(fd, &in, &wo, &res, &err) || close(fd)) {
		fprintf(stderr, "mkhist: %s: %s\n", out, err ? err : "cannot write");
		r = 1;
		goto out;
	}
	if (checked && !getenv("MKHIST_NOCHECK") && check(in_path, out, t))
		r = 1;
out:
	for (size_t i = 0; i < n; i++)
		td_pages_close(srcs[i].pages);
	for (int b = 0; b < td_nbuffers(tf); b++)
		free(bufs[b].cpus);
	free(bufs);
	free(srcs);
	free(meta);
	free(clock_text);
	free(err);
	return r;
}

int main(int argc, char **argv)
{
	struct td_file *tf;
	char *err = NULL;
	int r = 0;

	if (argc >= 6 && !strcmp(argv[1], "--parts") && !strcmp(argv[3], "--every")) {
		long parts = strtol(argv[2], NULL, 10);
		int64_t every = (int64_t)(strtod(argv[4], NULL) * 1e9);
		int nkv = argc - 7;
		char **kv = xcalloc((size_t)(nkv > 0 ? nkv : 0) + 3, sizeof(*kv));

		if (argc < 7 || parts < 1 || every <= 0) {
			fprintf(stderr, "usage: mkhist --parts N --every SECONDS IN BASE [KEY=VALUE...]\n");
			return 2;
		}
		tf = td_open(argv[5], &err);
		if (!tf) {
			fprintf(stderr, "mkhist: %s: %s\n", argv[5], err);
			return 1;
		}
		for (int i = 0; i < nkv; i++)
			kv[i] = argv[7 + i];
		for (long k = 1; k <= parts && !r; k++) {
			char *out = xasprintf("%s-%ld.dat", argv[6], k);
			char *part = xasprintf("switch_output=%ld", k);
			int n = nkv;

			kv[n++] = part;
			/* the run's parts end at a switch, the last by a signal */
			kv[n++] = k < parts ? (char *)"stop_reason=switch-output" :
				  (char *)"stop_reason=signal";
			r = copy_one(tf, argv[5], out, (k - 1) * every, (k - 1) * every, kv, n, k == 1);
			free(part);
			free(out);
		}
		free(kv);
		td_close(tf);
		return r;
	}
	if (argc < 5) {
		fprintf(stderr, "usage: mkhist IN OUT TRACE_SHIFT_NS WALL_SHIFT_NS [KEY=VALUE...]\n"
			"       mkhist --parts N --every SECONDS IN BASE [KEY=VALUE...]\n");
		return 2;
	}
	tf = td_open(argv[1], &err);
	if (!tf) {
		fprintf(stderr, "mkhist: %s: %s\n", argv[1], err);
		return 1;
	}
	r = copy_one(tf, argv[1], argv[2], strtoll(argv[3], NULL, 10), strtoll(argv[4], NULL, 10),
		     argv + 5, argc - 5, 1);
	td_close(tf);
	return r;
}
