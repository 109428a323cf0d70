// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * trace.dat writer (see tracedat-write.h). The layout follows what
 * trace-cmd 3.1.6 writes and reads:
 *
 *   v7: header | sections 16..21 | options (offsets, clock, uname, stats,
 *       mmscope metadata, DONE -> last options) | one BUFFER section per
 *       buffer (page-aligned per-CPU data, chunked when compressed) |
 *       last options (BUFFER entries, DONE 0)
 *   v6: header | metadata parts | cpu count | options | flyrecord + CPU
 *       table | page-aligned data | one more flyrecord per named buffer
 *
 * Offsets that are only known later are patched in place.
 */
#include "config.h"
#include "tracedat-write.h"
#include "fnv.h"
#include "util.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FLUSH_AT (4u << 20)

struct out {
	int fd;
	struct strbuf buf;
	uint64_t base;		/* file offset of buf.buf[0] */
	int failed;
	char **err;
};

static uint64_t out_pos(const struct out *o)
{
	return o->base + o->buf.len;
}

static int write_all(int fd, const void *p, size_t n, uint64_t off, char **err)
{
	while (n) {
		ssize_t r = pwrite(fd, p, n, (off_t)off);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return set_err(err, "write error: %s", strerror(errno));
		p = (const char *)p + r;
		n -= (size_t)r;
		off += (uint64_t)r;
	}
	return 0;
}

static int out_flush(struct out *o)
{
	if (o->failed)
		return -1;
	if (write_all(o->fd, o->buf.buf, o->buf.len, o->base, o->err)) {
		o->failed = 1;
		return -1;
	}
	o->base += o->buf.len;
	strbuf_reset(&o->buf);
	return 0;
}

static int out_maybe_flush(struct out *o)
{
	return o->buf.len >= FLUSH_AT ? out_flush(o) : (o->failed ? -1 : 0);
}

/* Overwrite bytes already emitted (in the buffer or on disk). */
static int out_patch(struct out *o, uint64_t off, const void *p, size_t n)
{
	if (off >= o->base) {
		memcpy(o->buf.buf + (off - o->base), p, n);
		return 0;
	}
	if (write_all(o->fd, p, n, off, o->err)) {
		o->failed = 1;
		return -1;
	}
	return 0;
}

/* Overwrite an n-byte little-endian integer already emitted. */
static int out_patch_le(struct out *o, uint64_t off, uint64_t v, size_t n)
{
	unsigned char b[8];

	for (size_t i = 0; i < n; i++)
		b[i] = (unsigned char)(v >> (8 * i));
	return out_patch(o, off, b, n);
}

static int out_patch_u64(struct out *o, uint64_t off, uint64_t v)
{
	return out_patch_le(o, off, v, 8);
}

static int out_patch_u32(struct out *o, uint64_t off, uint32_t v)
{
	return out_patch_le(o, off, v, 4);
}

static void out_pad_to(struct out *o, uint64_t align)
{
	uint64_t pos = out_pos(o), pad = (align - pos % align) % align;
	static const char zero[4096];

	while (pad) {
		size_t n = pad > sizeof(zero) ? sizeof(zero) : (size_t)pad;

		strbuf_add(&o->buf, zero, n);
		pad -= n;
	}
}

void tw_opts_default(struct tw_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->version = 7;
	o->codec = codec_available(CODEC_ZSTD) ? CODEC_ZSTD : CODEC_NONE;
	o->level = codec_default_level(o->codec);
	/* 64 pages read and compress better than trace-cmd's 10; 3.1.6 reads both */
	o->chunk_pages = 64;
}

/* The bracketed clock name of a trace_clock text ("[local] global"). */
static char *clock_name(const char *text)
{
	const char *a = text ? strchr(text, '[') : NULL, *z = a ? strchr(a, ']') : NULL;

	return z ? xasprintf("%.*s", (int)(z - a - 1), a + 1) : NULL;
}

static void header(struct out *o, const struct tw_input *in, const struct tw_opts *opt)
{
	strbuf_add(&o->buf, TD_MAGIC, TD_MAGIC_LEN);
	strbuf_addstr(&o->buf, opt->version >= 7 ? "7" : "6");
	strbuf_addch(&o->buf, 0);
	strbuf_addch(&o->buf, 0);	/* little-endian */
	strbuf_addch(&o->buf, 8);	/* long size */
	strbuf_add_u32(&o->buf, in->page_size);
	if (opt->version >= 7) {
		strbuf_addstr(&o->buf, codec_name(opt->codec));
		strbuf_addch(&o->buf, 0);
		strbuf_addstr(&o->buf, codec_version(opt->codec));
		strbuf_addch(&o->buf, 0);
	}
}

static void option(struct strbuf *sb, uint16_t id, const void *p, size_t n)
{
	strbuf_add_u16(sb, id);
	strbuf_add_u32(sb, (uint32_t)n);
	strbuf_add(sb, p, n);
}

static void option_str(struct strbuf *sb, uint16_t id, const char *s)
{
	if (s)
		option(sb, id, s, strlen(s) + 1);
}

/* Options common to both versions: clock, uname, version, stats, ours. */
static void common_options(struct strbuf *sb, const struct tw_input *in)
{
	char *clk = clock_name(in->trace_clock);

	/* trace-cmd prints raw nanoseconds for a "boot" TRACECLOCK: leave it out */
	if (in->trace_clock && clk && strcmp(clk, "boot"))
		option_str(sb, TD_OPT_TRACECLOCK, in->trace_clock);
	free(clk);
	option_str(sb, TD_OPT_UNAME, in->uname);
	option_str(sb, TD_OPT_VERSION, in->version);
	if (in->cpustat && in->cpustat_len) {
		struct strbuf t = STRBUF_INIT;

		strbuf_add(&t, in->cpustat, in->cpustat_len);
		option(sb, TD_OPT_CPUSTAT, t.buf, t.len + 1);
		strbuf_release(&t);
	}
	option_str(sb, TD_OPT_MMSCOPE, in->private_meta);
}

/* Empty payloads for metadata the caller did not give. */
static const void *meta_or_empty(const struct tw_input *in, enum td_meta m,
				 size_t *len)
{
	static const uint8_t zero8[8];

	if (in->meta[m]) {
		*len = in->meta_len[m];
		return in->meta[m];
	}
	*len = m == TD_META_CMDLINES ? 8 : 4;
	return zero8;
}

/* ---- per-CPU data ---- */

struct cpu_out {
	uint64_t offset, size, pages;
};

static int copy_raw(struct out *o, const struct tw_cpu *c, uint32_t page_size,
		    struct cpu_out *co, char **err)
{
	char *page = xmalloc(page_size);
	int r;

	co->offset = out_pos(o);
	while ((r = c->next(c->ctx, page, err)) > 0) {
		strbuf_add(&o->buf, page, page_size);
		co->pages++;
		if (out_maybe_flush(o)) {
			r = -1;
			break;
		}
	}
	free(page);
	co->size = out_pos(o) - co->offset;
	return r;
}

static int copy_chunked(struct out *o, const struct tw_cpu *c,
			uint32_t page_size, const struct tw_opts *opt,
			struct codec *codec, struct cpu_out *co, char **err)
{
	size_t cap = (size_t)page_size * (size_t)opt->chunk_pages;
	char *chunk = xmalloc(cap);
	struct strbuf z = STRBUF_INIT;
	uint32_t nchunks = 0;
	int r = 0, end = 0;

	co->offset = out_pos(o);
	strbuf_add_u32(&o->buf, 0);	/* chunk count, patched below */
	while (!end) {
		size_t fill = 0;

		while (fill < cap) {
			r = c->next(c->ctx, chunk + fill, err);
			if (r < 0)
				goto out;
			if (r == 0) {
				end = 1;
				break;
			}
			fill += page_size;
			co->pages++;
		}
		if (!fill)
			break;
		strbuf_reset(&z);
		if ((r = codec_compress(codec, chunk, fill, &z, err)) < 0)
			goto out;
		strbuf_add_u32(&o->buf, (uint32_t)z.len);
		strbuf_add_u32(&o->buf, (uint32_t)fill);
		strbuf_add(&o->buf, z.buf, z.len);
		nchunks++;
		if ((r = out_maybe_flush(o)) < 0)
			goto out;
	}
	r = out_patch_u32(o, co->offset, nchunks);
out:
	co->size = out_pos(o) - co->offset;
	free(chunk);
	strbuf_release(&z);
	return r < 0 ? -1 : 0;
}

static int copy_buffer(struct out *o, const struct tw_buffer *b,
		       const struct tw_opts *opt, struct codec *codec,
		       struct cpu_out *cos, uint64_t *pages, char **err)
{
	for (int cpu = 0; cpu < b->ncpus; cpu++) {
		const struct tw_cpu *c = &b->cpus[cpu];
		int r;

		memset(&cos[cpu], 0, sizeof(cos[cpu]));
		if (!c->next)
			continue;
		out_pad_to(o, b->page_size);
		if (codec)
			r = copy_chunked(o, c, b->page_size, opt, codec, &cos[cpu], err);
		else
			r = copy_raw(o, c, b->page_size, &cos[cpu], err);
		if (r < 0 || o->failed)
			return -1;
		if (!cos[cpu].pages) {	/* nothing: drop what we emitted */
			o->buf.len -= (size_t)(out_pos(o) - cos[cpu].offset);
			cos[cpu].size = cos[cpu].offset = 0;
		}
		*pages += cos[cpu].pages;
	}
	return 0;
}

/* ---- version 7 ---- */

/*
 * The last large section compressed, kept for the next file: a
 * --switch-output recorder writes the same kallsyms (5 MB of text, kept
 * while /proc/modules is the same) into every part, and compressing them
 * was a large share of a part's fixed cost (~0.6 s of CPU a part in the
 * TCG guest bench). Found again by section, codec, level, length and a
 * 64-bit hash of the bytes; one entry, shared by the threads that write.
 */
#define SECTION_MEMO_MIN ((size_t)1 << 20)
static pthread_mutex_t section_memo_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long section_memo_hits;
static struct {
	uint16_t id;
	int codec, level;
	size_t n;
	uint64_t hash;
	struct strbuf z;
} section_memo;

static uint64_t bytes_hash(const void *p, size_t n)
{
	const uint8_t *b = p;
	uint64_t h = FNV64_BASIS ^ n;
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		uint64_t w;

		memcpy(&w, b + i, 8);
		h = fnv64_word(h, w);
		h ^= h >> 29;
	}
	return fnv64_bytes(h, b + i, n - i);
}

/* The compressed bytes of p into z: from the memo when it holds them. */
static int compress_section(uint16_t id, const struct tw_opts *opt, struct codec *codec,
			    const void *p, size_t n, struct strbuf *z, char **err)
{
	uint64_t h = 0;
	int hit = 0;

	if (n >= SECTION_MEMO_MIN) {
		h = bytes_hash(p, n);
		pthread_mutex_lock(&section_memo_lock);
		if (section_memo.z.len && section_memo.id == id &&
		    section_memo.codec == (int)opt->codec && section_memo.level == opt->level &&
		    section_memo.n == n && section_memo.hash == h) {
			strbuf_add(z, section_memo.z.buf, section_memo.z.len);
			section_memo_hits++;
			hit = 1;
		}
		pthread_mutex_unlock(&section_memo_lock);
		if (hit)
			return 0;
	}
	if (codec_compress(codec, p, n, z, err))
		return -1;
	if (n >= SECTION_MEMO_MIN) {
		pthread_mutex_lock(&section_memo_lock);
		section_memo.id = id;
		section_memo.codec = (int)opt->codec;
		section_memo.level = opt->level;
		section_memo.n = n;
		section_memo.hash = h;
		strbuf_reset(&section_memo.z);
		strbuf_add(&section_memo.z, z->buf, z->len);
		pthread_mutex_unlock(&section_memo_lock);
	}
	return 0;
}

unsigned long tw_section_memo_hits(void)
{
	unsigned long n;

	pthread_mutex_lock(&section_memo_lock);
	n = section_memo_hits;
	pthread_mutex_unlock(&section_memo_lock);
	return n;
}

static int v7_section(struct out *o, uint16_t id, const void *p, size_t n,
		      const struct tw_opts *opt, struct codec *codec, char **err)
{
	uint64_t at = out_pos(o);

	strbuf_add_u16(&o->buf, id);
	strbuf_add_u16(&o->buf, codec ? TD_SEC_FL_COMPRESS : 0);
	strbuf_add_u32(&o->buf, 0xffffffffu);	/* no description string */
	strbuf_add_u64(&o->buf, 0);		/* size, patched */
	if (codec) {
		struct strbuf z = STRBUF_INIT;

		if (compress_section(id, opt, codec, p, n, &z, err)) {
			strbuf_release(&z);
			return -1;
		}
		strbuf_add_u32(&o->buf, (uint32_t)z.len);
		strbuf_add_u32(&o->buf, (uint32_t)n);
		strbuf_add(&o->buf, z.buf, z.len);
		strbuf_release(&z);
	} else {
		strbuf_add(&o->buf, p, n);
	}
	return out_patch_u64(o, at + 8, out_pos(o) - at - 16);
}

static void v7_options_section(struct out *o, const struct strbuf *opts,
			       uint64_t *done_at)
{
	strbuf_add_u16(&o->buf, TD_OPT_DONE);
	strbuf_add_u16(&o->buf, 0);
	strbuf_add_u32(&o->buf, 0xffffffffu);
	strbuf_add_u64(&o->buf, opts->len + 6 + 8);
	strbuf_add(&o->buf, opts->buf, opts->len);
	strbuf_add_u16(&o->buf, TD_OPT_DONE);
	strbuf_add_u32(&o->buf, 8);
	*done_at = out_pos(o);
	strbuf_add_u64(&o->buf, 0);
}

static int write_v7(struct out *o, const struct tw_input *in,
		    const struct tw_opts *opt, struct tw_result *res, char **err)
{
	struct codec *codec = opt->codec != CODEC_NONE ?
		codec_new(opt->codec, opt->level) : NULL;
	struct strbuf opts = STRBUF_INIT, last = STRBUF_INIT;
	uint64_t first_opts_ptr, done_at, last_done;
	int r = -1;

	header(o, in, opt);
	first_opts_ptr = out_pos(o);
	strbuf_add_u64(&o->buf, 0);
	for (int m = 0; m < TD_META_COUNT; m++) {
		size_t n;
		const void *p;

		if (!in->meta[m] && m != TD_META_HEADER_INFO && m != TD_META_EVENTS)
			continue;
		p = meta_or_empty(in, (enum td_meta)m, &n);
		strbuf_add_u16(&opts, (uint16_t)(TD_SEC_HEADER_INFO + m));
		strbuf_add_u32(&opts, 8);
		strbuf_add_u64(&opts, out_pos(o));
		if (v7_section(o, (uint16_t)(TD_SEC_HEADER_INFO + m), p, n, opt, codec, err))
			goto out;
	}
	common_options(&opts, in);
	if (in->cpucount) {
		strbuf_add_u16(&opts, TD_OPT_CPUCOUNT);
		strbuf_add_u32(&opts, 4);
		strbuf_add_u32(&opts, (uint32_t)in->cpucount);
	}
	if (out_patch_u64(o, first_opts_ptr, out_pos(o)))
		goto out;
	v7_options_section(o, &opts, &done_at);

	for (int i = 0; i < in->nbuffers; i++) {
		const struct tw_buffer *b = &in->buffers[i];
		struct cpu_out *cos = xcalloc((size_t)b->ncpus + 1, sizeof(*cos));
		uint64_t sec = out_pos(o);
		int n = 0;

		strbuf_add_u16(&o->buf, TD_OPT_BUFFER);
		strbuf_add_u16(&o->buf, codec ? TD_SEC_FL_COMPRESS : 0);
		strbuf_add_u32(&o->buf, 0xffffffffu);
		strbuf_add_u64(&o->buf, 0);
		if (copy_buffer(o, b, opt, codec, cos, &res->pages, err)) {
			free(cos);
			goto out;
		}
		if (out_patch_u64(o, sec + 8, out_pos(o) - sec - 16)) {
			free(cos);
			goto out;
		}
		for (int cpu = 0; cpu < b->ncpus; cpu++)
			n += cos[cpu].size != 0;
		strbuf_add_u16(&last, TD_OPT_BUFFER);
		strbuf_add_u32(&last, (uint32_t)(8 + strlen(b->name) + 1 +
						 strlen(b->clock) + 1 + 8 + 20 * (size_t)n));
		strbuf_add_u64(&last, sec);
		strbuf_add(&last, b->name, strlen(b->name) + 1);
		strbuf_add(&last, b->clock, strlen(b->clock) + 1);
		strbuf_add_u32(&last, b->page_size);
		strbuf_add_u32(&last, (uint32_t)n);
		for (int cpu = 0; cpu < b->ncpus; cpu++) {
			if (!cos[cpu].size)
				continue;
			strbuf_add_u32(&last, (uint32_t)cpu);
			strbuf_add_u64(&last, cos[cpu].offset);
			strbuf_add_u64(&last, cos[cpu].size);
		}
		free(cos);
	}
	if (out_patch_u64(o, done_at, out_pos(o)))
		goto out;
	v7_options_section(o, &last, &last_done);
	r = 0;
out:
	codec_free(codec);
	strbuf_release(&opts);
	strbuf_release(&last);
	return r;
}

/* ---- version 6 ---- */

/* A flyrecord block: tag, CPU table (patched), data. */
static int v6_flyrecord(struct out *o, const struct tw_buffer *b, int ncpus,
			const char *clock_text, struct tw_result *res,
			const struct tw_opts *opt, char **err)
{
	struct cpu_out *cos = xcalloc((size_t)ncpus + 1, sizeof(*cos));
	uint64_t table;
	int r = -1;

	strbuf_add(&o->buf, "flyrecord", 10);
	table = out_pos(o);
	for (int cpu = 0; cpu < ncpus; cpu++) {
		strbuf_add_u64(&o->buf, 0);
		strbuf_add_u64(&o->buf, 0);
	}
	if (clock_text) {	/* read back by trace-cmd when TRACECLOCK is set */
		strbuf_add_u64(&o->buf, strlen(clock_text));
		strbuf_addstr(&o->buf, clock_text);
	}
	struct tw_buffer nb = *b;

	if (nb.ncpus > ncpus)
		nb.ncpus = ncpus;
	if (copy_buffer(o, &nb, opt, NULL, cos, &res->pages, err))
		goto out;
	for (int cpu = 0; cpu < nb.ncpus; cpu++) {
		if (out_patch_u64(o, table + 16 * (uint64_t)cpu, cos[cpu].offset) ||
		    out_patch_u64(o, table + 16 * (uint64_t)cpu + 8, cos[cpu].size))
			goto out;
	}
	r = 0;
out:
	free(cos);
	return r;
}

static int write_v6(struct out *o, const struct tw_input *in,
		    const struct tw_opts *opt, struct tw_result *res, char **err)
{
	struct strbuf opts = STRBUF_INIT;
	char *clk = clock_name(in->trace_clock);
	const char *clock_text = NULL;
	uint64_t *bufopt_at = xcalloc((size_t)in->nbuffers + 1, sizeof(uint64_t));
	int cpus = in->cpucount, top = -1, r = -1;
	char *ct = NULL;

	for (int i = 0; i < in->nbuffers; i++) {
		if (in->buffers[i].ncpus > cpus)
			cpus = in->buffers[i].ncpus;
		if (!*in->buffers[i].name)
			top = i;
	}
	header(o, in, opt);
	for (int m = 0; m < TD_META_COUNT; m++) {
		size_t n;
		const void *p = meta_or_empty(in, (enum td_meta)m, &n);

		strbuf_add(&o->buf, p, n);
	}
	strbuf_add_u32(&o->buf, (uint32_t)cpus);
	strbuf_add(&o->buf, "options  ", 10);
	common_options(&opts, in);
	if (in->trace_clock && clk && strcmp(clk, "boot")) {
		ct = xasprintf("[%s]", clk);
		clock_text = ct;
	}
	strbuf_add(&o->buf, opts.buf, opts.len);
	/* BUFFER options for named buffers: offset patched once known */
	for (int i = 0; i < in->nbuffers; i++) {
		const char *name = in->buffers[i].name;

		if (i == top)
			continue;
		strbuf_add_u16(&o->buf, TD_OPT_BUFFER);
		strbuf_add_u32(&o->buf, (uint32_t)(8 + strlen(name) + 1));
		bufopt_at[i] = out_pos(o);
		strbuf_add_u64(&o->buf, 0);
		strbuf_add(&o->buf, name, strlen(name) + 1);
	}
	strbuf_add_u16(&o->buf, 0);
	if (top >= 0) {
		if (v6_flyrecord(o, &in->buffers[top], cpus, clock_text, res, opt, err))
			goto out;
	} else {
		struct tw_buffer empty = { "", "", in->page_size, 0, NULL };

		if (v6_flyrecord(o, &empty, cpus, clock_text, res, opt, err))
			goto out;
	}
	for (int i = 0; i < in->nbuffers; i++) {
		if (i == top)
			continue;
		out_pad_to(o, 8);
		if (out_patch_u64(o, bufopt_at[i], out_pos(o)) ||
		    v6_flyrecord(o, &in->buffers[i], cpus, clock_text, res, opt, err))
			goto out;
	}
	r = 0;
out:
	free(bufopt_at);
	free(clk);
	free(ct);
	strbuf_release(&opts);
	return r;
}

int tw_write(int fd, const struct tw_input *in, const struct tw_opts *opt,
	     struct tw_result *res, char **err)
{
	struct out o = { fd, STRBUF_INIT, 0, 0, err };
	struct tw_result dummy;
	int r;

	if (!res)
		res = &dummy;
	memset(res, 0, sizeof(*res));
	if (opt->version != 6 && opt->version != 7)
		return set_err(err, "cannot write trace.dat version %d", opt->version);
	if (opt->version == 6 && opt->codec != CODEC_NONE)
		return set_err(err, "version 6 files cannot be compressed");
	if (!codec_available(opt->codec))
		return set_err(err, "%s compression is not available in this build",
			       codec_name(opt->codec));
	if (!in->meta[TD_META_HEADER_INFO])
		return set_err(err, "no page header (HEADER_INFO) to write");
	for (int i = 0; i < in->nbuffers; i++)
		if (in->buffers[i].page_size != in->page_size && !*in->buffers[i].name)
			return set_err(err, "top buffer page size differs from the file's");
	r = opt->version >= 7 ? write_v7(&o, in, opt, res, err) :
				write_v6(&o, in, opt, res, err);
	if (!r && !o.failed)
		r = out_flush(&o);
	if (!r && o.failed)
		r = -1;
	res->bytes = out_pos(&o);
	strbuf_release(&o.buf);
	if (!r && ftruncate(fd, (off_t)res->bytes) && errno != EINVAL)
		r = set_err(err, "cannot set the file size: %s", strerror(errno));
	return r;
}
