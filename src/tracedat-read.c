// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * trace.dat reader, part 1: the file header, the v6 sequential layout,
 * the v7 section and option chain. Everything read from the file is
 * checked against the file size and hard limits before it is used or
 * allocated; the first problem found ends the open with a reason.
 */
#include "config.h"
#include "tracedat-local.h"

#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define RC_WINDOW (16u << 10)
#define RC_SMALL 4096u
static __thread uint8_t rc_window[RC_WINDOW];

int td_pread(struct td_file *tf, uint64_t off, void *buf, size_t n,
	     const char *what, char **err)
{
	size_t done = 0;

	if (off > tf->size || n > tf->size - off)
		return set_err(err, "truncated: %s at offset %llu needs %zu bytes, file has %llu",
			       what, (unsigned long long)off, n,
			       (unsigned long long)tf->size);
	if (tf->rc_on && n <= RC_SMALL) {
		if (!tf->rc || off < tf->rc_off || off + n > tf->rc_off + tf->rc_len) {
			uint64_t at = off & ~(uint64_t)(RC_SMALL - 1);
			size_t len = tf->size - at < RC_WINDOW ? (size_t)(tf->size - at) : RC_WINDOW;

			if (!tf->rc)	/* the thread's: a file is opened by one */
				tf->rc = rc_window;
			tf->rc_len = 0;	/* until it is read whole */
			tf->rc_on = 0;
			if (td_pread(tf, at, tf->rc, len, what, err)) {
				tf->rc_on = 1;
				return -1;
			}
			tf->rc_on = 1;
			tf->rc_off = at;
			tf->rc_len = len;
		}
		memcpy(buf, tf->rc + (off - tf->rc_off), n);
		return 0;
	}
	while (done < n) {
		ssize_t r = pread(tf->fd, (char *)buf + done, n - done,
				  (off_t)(off + done));
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return set_err(err, "read error in %s: %s", what, strerror(errno));
		if (r == 0)
			return set_err(err, "truncated: %s ends early", what);
		done += (size_t)r;
	}
	return 0;
}

/* A bounds-checked cursor over a payload held in memory. */
struct mcur {
	const uint8_t *p;
	size_t len, pos;
	const char *what;
};

static int mc_need(struct mcur *m, size_t n, char **err)
{
	if (n > m->len - m->pos)
		return set_err(err, "truncated %s (needs %zu bytes at +%zu of %zu)",
			       m->what, n, m->pos, m->len);
	return 0;
}

static int mc_u32(struct mcur *m, uint32_t *v, char **err)
{
	if (mc_need(m, 4, err))
		return -1;
	*v = td_le32(m->p + m->pos);
	m->pos += 4;
	return 0;
}

static int mc_u64(struct mcur *m, uint64_t *v, char **err)
{
	if (mc_need(m, 8, err))
		return -1;
	*v = td_le64(m->p + m->pos);
	m->pos += 8;
	return 0;
}

/* A NUL-terminated string inside the payload; returns it in place. */
static const char *mc_str(struct mcur *m, char **err)
{
	const uint8_t *nul = memchr(m->p + m->pos, 0, m->len - m->pos);
	const char *s;

	if (!nul) {
		set_err(err, "unterminated string in %s", m->what);
		return NULL;
	}
	s = (const char *)m->p + m->pos;
	m->pos = (size_t)(nul - m->p) + 1;
	return s;
}

/* ---- the file header ---- */

static int read_header(struct td_file *tf, uint64_t *pos, char **err)
{
	uint8_t hdr[TD_MAGIC_LEN + 16];
	char vbuf[16], cname[32], cver[64];
	size_t n = 0;
	uint8_t b;

	if (tf->size < TD_MAGIC_LEN)
		return set_err(err, tf->size ? "not a trace.dat file (too short)" :
			       "empty file");
	if (td_pread(tf, 0, hdr, TD_MAGIC_LEN, "magic", err))
		return -1;
	if (memcmp(hdr, TD_MAGIC, TD_MAGIC_LEN))
		return set_err(err, "not a trace.dat file (bad magic)");
	*pos = TD_MAGIC_LEN;
	/* version: ASCII decimal, NUL-terminated */
	for (;;) {
		if (td_pread(tf, *pos, &b, 1, "version", err))
			return -1;
		(*pos)++;
		if (!b)
			break;
		if (b < '0' || b > '9' || n >= sizeof(vbuf) - 1)
			return set_err(err, "bad version string in header");
		vbuf[n++] = (char)b;
	}
	vbuf[n] = '\0';
	if (!n)
		return set_err(err, "empty version string in header");
	tf->version = n > 3 ? 1000 : atoi(vbuf);
	if (tf->version != 6 && tf->version != 7)
		return set_err(err, "unsupported trace.dat version %s (this reader knows 6 and 7)",
			       n > 3 ? "(too large)" : vbuf);
	if (td_pread(tf, *pos, hdr, 6, "header", err))
		return -1;
	*pos += 6;
	if (hdr[0] != 0)
		return set_err(err, "big-endian files are not supported");
	tf->long_size = hdr[1];
	if (tf->long_size != 8 && tf->long_size != 4)
		return set_err(err, "bad long size %d in header", tf->long_size);
	tf->page_size = td_le32(hdr + 2);
	if (tf->page_size < TD_MIN_PAGE || tf->page_size > TD_MAX_PAGE ||
	    (tf->page_size & (tf->page_size - 1)))
		return set_err(err, "bad page size %u in header", tf->page_size);
	tf->codec_id = CODEC_NONE;
	if (tf->version < 7)
		return 0;
	/* v7: compression name and version, then the first options offset */
	for (int which = 0; which < 2; which++) {
		char *dst = which ? cver : cname;
		size_t cap = which ? sizeof(cver) : sizeof(cname);

		for (n = 0;; n++) {
			if (td_pread(tf, *pos, &b, 1, "compression name", err))
				return -1;
			(*pos)++;
			if (!b)
				break;
			if (n >= cap - 1)
				return set_err(err, "compression name too long in header");
			dst[n] = (char)b;
		}
		dst[n] = '\0';
	}
	if (codec_from_name(cname, &tf->codec_id))
		return set_err(err, "unknown compression '%s'", cname);
	if (!codec_available(tf->codec_id))
		return set_err(err, "file uses %s compression; this mmscope was built without it",
			       cname);
	tf->compression = xstrdup(cname);
	tf->codec = codec_new(tf->codec_id, 0);
	return 0;
}

/* ---- buffers ---- */

static struct td_buffer *add_buffer(struct td_file *tf, const char *name,
				    const char *clock, uint32_t page_size,
				    int ncpus, char **err)
{
	struct td_buffer *b;

	if (tf->nbuffers >= TD_MAX_BUFFERS) {
		set_err(err, "too many buffers (more than %d)", TD_MAX_BUFFERS);
		return NULL;
	}
	if (ncpus > TD_MAX_CPU_SLOTS - tf->cpu_slots) {
		set_err(err, "too many CPUs over all buffers (more than %d)",
			TD_MAX_CPU_SLOTS);
		return NULL;
	}
	tf->cpu_slots += ncpus;
	tf->buffers = xreallocarray(tf->buffers, (size_t)tf->nbuffers + 1,
				    sizeof(*tf->buffers));
	b = &tf->buffers[tf->nbuffers++];
	memset(b, 0, sizeof(*b));
	b->name = xstrdup(name);
	b->clock = xstrdup(clock);
	b->page_size = page_size;
	b->ncpus = ncpus;
	b->cpu_offset = xcalloc((size_t)ncpus + 1, sizeof(uint64_t));
	b->cpu_size = xcalloc((size_t)ncpus + 1, sizeof(uint64_t));
	b->stats = xcalloc((size_t)ncpus + 1, sizeof(*b->stats));
	return b;
}

static int check_cpu_data(struct td_file *tf, struct td_buffer *b, int cpu,
			  char **err)
{
	uint64_t off = b->cpu_offset[cpu], sz = b->cpu_size[cpu];

	if (!sz && !off)
		return 0;
	if (off > tf->size || (!b->compressed && sz > tf->size - off))
		return set_err(err, "cpu %d data of buffer '%s' (offset %llu, size %llu) lies beyond the end of the file (%llu bytes)",
			       cpu, b->name, (unsigned long long)off,
			       (unsigned long long)sz,
			       (unsigned long long)tf->size);
	if (!b->compressed && sz % b->page_size)
		return set_err(err, "cpu %d data size %llu of buffer '%s' is not a multiple of the page size %u",
			       cpu, (unsigned long long)sz, b->name, b->page_size);
	return 0;
}

/* ---- options (v6 and v7 share the payloads) ---- */

static int handle_option(struct td_file *tf, uint16_t id, const uint8_t *p,
			 uint32_t size, char **err);

static char *opt_string(const uint8_t *p, uint32_t size)
{
	size_t n = strnlen((const char *)p, size);
	char *s = xmalloc(n + 1);

	memcpy(s, p, n);
	s[n] = '\0';
	return s;
}

static void set_string(char **dst, const uint8_t *p, uint32_t size)
{
	free(*dst);
	*dst = opt_string(p, size);
}

static int parse_clock(struct td_file *tf, const uint8_t *p, uint32_t size)
{
	char *s = opt_string(p, size), *a = strchr(s, '['), *z;

	if (a && (z = strchr(a, ']'))) {
		*z = '\0';
		set_string(&tf->clock, (const uint8_t *)a + 1, (uint32_t)(z - a));
	}
	free(s);
	tf->have_traceclock = 1;
	return 0;
}

static int option_v7_buffer(struct td_file *tf, const uint8_t *p, uint32_t size,
			    char **err)
{
	struct mcur m = { p, size, 0, "BUFFER option" };
	uint64_t sec_off, off, sz;
	uint32_t page_size, n, cpu;
	const char *name, *clock;
	uint8_t sh[16];
	struct td_buffer *b;
	int maxcpu = -1;

	if (mc_u64(&m, &sec_off, err) || !(name = mc_str(&m, err)) ||
	    !(clock = mc_str(&m, err)) || mc_u32(&m, &page_size, err) ||
	    mc_u32(&m, &n, err))
		return -1;
	if (n > TD_MAX_CPUS || (uint64_t)n * 20 > m.len - m.pos)
		return set_err(err, "BUFFER option '%s' lists %u CPUs but holds room for %zu",
			       name, n, (m.len - m.pos) / 20);
	if (!*name)
		page_size = tf->page_size;	/* the top buffer uses the header's */
	if (page_size < TD_MIN_PAGE || page_size > TD_MAX_PAGE ||
	    (page_size & (page_size - 1)))
		return set_err(err, "bad page size %u in buffer '%s'", page_size, name);
	for (uint32_t i = 0; i < n; i++) {
		cpu = td_le32(p + m.pos + i * 20);
		if (cpu >= TD_MAX_CPUS)
			return set_err(err, "cpu id %u in buffer '%s' is out of range", cpu, name);
		if ((int)cpu > maxcpu)
			maxcpu = (int)cpu;
	}
	if (td_pread(tf, sec_off, sh, sizeof(sh), "BUFFER section header", err))
		return -1;
	if (td_le16(sh) != TD_OPT_BUFFER)
		return set_err(err, "BUFFER option '%s' points at section id %u, not a buffer",
			       name, td_le16(sh));
	/* CPUs without data still get a slot: their CPUSTAT may show drops */
	b = add_buffer(tf, name, clock, page_size,
		       maxcpu + 1 > tf->cpucount ? maxcpu + 1 : tf->cpucount, err);
	if (!b)
		return -1;
	b->compressed = (td_le16(sh + 2) & TD_SEC_FL_COMPRESS) &&
			tf->codec_id != CODEC_NONE;
	for (uint32_t i = 0; i < n; i++) {
		cpu = td_le32(p + m.pos);
		off = td_le64(p + m.pos + 4);
		sz = td_le64(p + m.pos + 12);
		m.pos += 20;
		if (b->cpu_offset[cpu] || b->cpu_size[cpu])
			return set_err(err, "cpu %u listed twice in buffer '%s'", cpu, name);
		b->cpu_offset[cpu] = off;
		b->cpu_size[cpu] = sz;
		if (off % page_size)
			return set_err(err, "cpu %u data of buffer '%s' at offset %llu is not page-aligned",
				       cpu, name, (unsigned long long)off);
		if (check_cpu_data(tf, b, (int)cpu, err))
			return -1;
	}
	return 0;
}

static int v6_flyrecord(struct td_file *tf, uint64_t pos, const char *name,
			uint64_t *end, char **err);

static int handle_option(struct td_file *tf, uint16_t id, const uint8_t *p,
			 uint32_t size, char **err)
{
	switch (id) {
	case TD_OPT_DATE:
	case TD_OPT_OFFSET: {
		char *s = opt_string(p, size);
		long long v = strtoll(s, NULL, 0), ns;

		free(s);
		/* DATE is in microseconds; a hostile value must not overflow */
		if (id == TD_OPT_DATE ? __builtin_mul_overflow(v, 1000LL, &ns) : (ns = v, 0))
			return set_err(err, "DATE option out of range");
		if (__builtin_add_overflow(tf->ts_offset, ns, &tf->ts_offset))
			return set_err(err, "%s option out of range",
				       id == TD_OPT_DATE ? "DATE" : "OFFSET");
		return 0;
	}
	case TD_OPT_CPUSTAT:
		strbuf_add(&tf->cpustat, p, strnlen((const char *)p, size));
		return 0;
	case TD_OPT_TRACECLOCK:
		return parse_clock(tf, p, size);
	case TD_OPT_UNAME:
		set_string(&tf->uname, p, size);
		return 0;
	case TD_OPT_VERSION:
		set_string(&tf->tracer_version, p, size);
		return 0;
	case TD_OPT_MMSCOPE:
		set_string(&tf->private_meta, p, size);
		return 0;
	case TD_OPT_CPUCOUNT:
		if (size < 4)
			return set_err(err, "CPUCOUNT option too short");
		tf->cpucount = (int)td_le32(p);
		if (!tf->cpucount)
			return set_err(err, "CPU count is 0");
		if (tf->cpucount < 0 || tf->cpucount > TD_MAX_CPUS)
			return set_err(err, "CPU count %u out of range", td_le32(p));
		return 0;
	case TD_OPT_BUFFER:
		if (tf->version >= 7)
			return option_v7_buffer(tf, p, size, err);
		if (size < 9)
			return set_err(err, "BUFFER option too short");
		{
			uint64_t end;
			char *name = opt_string(p + 8, size - 8);
			int r = v6_flyrecord(tf, td_le64(p), name, &end, err);

			free(name);
			return r;
		}
	case TD_OPT_BUFFER_TEXT:
		return set_err(err, "latency (text) buffers are not supported");
	default:
		return 0;	/* unknown or not needed: skipped by size */
	}
}

/* ---- v7 ---- */

/*
 * Read the payload of the section at off (checking its id), decompressing
 * it when flagged.
 */
int td_read_section(struct td_file *tf, uint64_t off, uint16_t want,
		    struct strbuf *out, char **err)
{
	uint8_t sh[16], bh[8];
	uint64_t size;
	uint16_t id, flags;
	char *cbuf;

	if (td_pread(tf, off, sh, sizeof(sh), "section header", err))
		return -1;
	id = td_le16(sh);
	flags = td_le16(sh + 2);
	size = td_le64(sh + 8);
	if (id != want)
		return set_err(err, "section at offset %llu has id %u, expected %u",
			       (unsigned long long)off, id, want);
	off += 16;
	if (size > tf->size - off)
		return set_err(err, "section %u at offset %llu claims %llu bytes, beyond the end of the file",
			       id, (unsigned long long)off - 16,
			       (unsigned long long)size);
	strbuf_reset(out);
	if (!(flags & TD_SEC_FL_COMPRESS) || tf->codec_id == CODEC_NONE) {
		if (size > TD_MAX_META)
			return set_err(err, "section %u is too large (%llu bytes)", id,
				       (unsigned long long)size);
		strbuf_grow(out, (size_t)size);
		if (td_pread(tf, off, out->buf, (size_t)size, "section", err))
			return -1;
		out->len = (size_t)size;
		out->buf[out->len] = '\0';
		return 0;
	}
	if (size < 8 || td_pread(tf, off, bh, 8, "compressed block header", err))
		return set_err(err, "section %u: compressed block too short", id);
	uint32_t csize = td_le32(bh), usize = td_le32(bh + 4);

	if (csize > size - 8)
		return set_err(err, "section %u: compressed size %u exceeds the section (%llu)",
			       id, csize, (unsigned long long)size - 8);
	if (usize > TD_MAX_META ||
	    usize > TD_INFLATE_FREE + (uint64_t)TD_INFLATE_RATIO * csize)
		return set_err(err, "section %u: implausible uncompressed size %u for %u compressed bytes",
			       id, usize, csize);
	cbuf = xmalloc(csize ? csize : 1);
	if (td_pread(tf, off + 8, cbuf, csize, "compressed section", err)) {
		free(cbuf);
		return -1;
	}
	strbuf_grow(out, usize);
	if (codec_decompress(tf->codec, cbuf, csize, out->buf, usize, err)) {
		/* err may be NULL: the kallsyms read on first need ask none */
		char *inner = err ? *err : NULL;

		if (err) {
			*err = NULL;
			set_err(err, "section %u: %s", id, inner);
		}
		free(inner);
		free(cbuf);
		return -1;
	}
	free(cbuf);
	out->len = usize;
	out->buf[out->len] = '\0';
	return 0;
}

/*
 * A reader that asked for some formats only (td_open_only) reads the
 * kallsyms (5.4 MB of text on 6.18) when a stack needs them; one that
 * asked for none (td_set_group: the private metadata) no format, printk
 * or cmdlines section either. 1 when section mi at off is left unread.
 */
static int defer_section(struct td_file *tf, int mi, uint64_t off)
{
	if (!tf->want || mi == TD_META_HEADER_INFO ||
	    (mi != TD_META_KALLSYMS && tf->want != td_want_none))
		return 0;
	tf->meta_deferred |= 1u << mi;
	tf->meta_off[mi] = off;
	if (mi == TD_META_KALLSYMS)
		tf->kallsyms_off = off;
	return 1;
}

static int v7_options(struct td_file *tf, uint64_t off, char **err)
{
	struct strbuf sb = STRBUF_INIT;
	uint64_t seen[64];
	int nseen = 0, r = -1;

	while (off) {
		for (int i = 0; i < nseen; i++)
			if (seen[i] == off) {
				set_err(err, "options sections form a loop at offset %llu",
					(unsigned long long)off);
				goto out;
			}
		if (nseen == (int)ARRAY_SIZE(seen)) {
			set_err(err, "too many options sections");
			goto out;
		}
		seen[nseen++] = off;
		if (td_read_section(tf, off, TD_OPT_DONE, &sb, err))
			goto out;
		struct mcur m = { (const uint8_t *)sb.buf, sb.len, 0, "options" };
		uint64_t next = 0;
		int done = 0;

		while (!done) {
			if (mc_need(&m, 6, err))
				goto out;
			uint16_t id = td_le16(m.p + m.pos);
			uint32_t size = td_le32(m.p + m.pos + 2);

			m.pos += 6;
			if (mc_need(&m, size, err))
				goto out;
			if (id == TD_OPT_DONE) {
				if (size < 8) {
					set_err(err, "options: DONE entry too short");
					goto out;
				}
				next = td_le64(m.p + m.pos);
				done = 1;
			} else if (id >= TD_SEC_HEADER_INFO && id <= TD_SEC_CMDLINES) {
				int mi = id - TD_SEC_HEADER_INFO;

				if (size < 8) {
					set_err(err, "options: section pointer %u too short", id);
					goto out;
				}
				/* each would be decompressed again: a cheap bomb */
				if (tf->have_meta[mi] || (tf->meta_deferred & (1u << mi))) {
					set_err(err, "options: section %u is listed twice", id);
					goto out;
				}
				if (defer_section(tf, mi, td_le64(m.p + m.pos)))
					;
				else if (td_read_section(tf, td_le64(m.p + m.pos), id,
							 &tf->meta[mi], err))
					goto out;
				else
					tf->have_meta[mi] = 1;
			} else if (handle_option(tf, id, m.p + m.pos, size, err)) {
				goto out;
			}
			m.pos += size;
		}
		off = next;
	}
	r = 0;
out:
	strbuf_release(&sb);
	return r;
}

/* ---- v6 ---- */

/* Sequential reading of the v6 layout, copying each part's bytes. */
struct seq {
	struct td_file *tf;
	uint64_t pos;
};

static int seq_copy(struct seq *s, size_t n, struct strbuf *out,
		    const char *what, char **err)
{
	if (n > TD_MAX_META)
		return set_err(err, "%s too large (%zu bytes)", what, n);
	strbuf_grow(out, n);
	if (td_pread(s->tf, s->pos, out->buf + out->len, n, what, err))
		return -1;
	out->len += n;
	out->buf[out->len] = '\0';
	s->pos += n;
	return 0;
}

static int seq_u32(struct seq *s, uint32_t *v, struct strbuf *copy,
		   const char *what, char **err)
{
	uint8_t b[4];

	if (td_pread(s->tf, s->pos, b, 4, what, err))
		return -1;
	s->pos += 4;
	*v = td_le32(b);
	if (copy)
		strbuf_add(copy, b, 4);
	return 0;
}

static int seq_u64(struct seq *s, uint64_t *v, struct strbuf *copy,
		   const char *what, char **err)
{
	uint8_t b[8];

	if (td_pread(s->tf, s->pos, b, 8, what, err))
		return -1;
	s->pos += 8;
	*v = td_le64(b);
	if (copy)
		strbuf_add(copy, b, 8);
	return 0;
}

static int seq_expect(struct seq *s, const char *tag, size_t n, char **err)
{
	char buf[16];

	if (td_pread(s->tf, s->pos, buf, n, tag, err))
		return -1;
	if (memcmp(buf, tag, n))
		return set_err(err, "expected '%s' at offset %llu", tag,
			       (unsigned long long)s->pos);
	s->pos += n;
	return 0;
}

/* "u64 n + n bytes" blocks, count of them given by a u32 (ftrace, one system). */
static int seq_formats(struct seq *s, uint32_t count, struct strbuf *out,
		       const char *what, char **err)
{
	uint64_t n;

	for (uint32_t i = 0; i < count; i++) {
		if (seq_u64(s, &n, out, what, err))
			return -1;
		if (n > s->tf->size - s->pos)
			return set_err(err, "%s: format %u claims %llu bytes, beyond the end of the file",
				       what, i, (unsigned long long)n);
		if (seq_copy(s, (size_t)n, out, what, err))
			return -1;
	}
	return 0;
}

static int v6_metadata(struct seq *s, char **err)
{
	struct td_file *tf = s->tf;
	struct strbuf *hi = &tf->meta[TD_META_HEADER_INFO];
	uint64_t n;
	uint32_t count, nsys;

	/* header_page and header_event: kept exactly as the v7 payload */
	for (int i = 0; i < 2; i++) {
		const char *tag = i ? "header_event" : "header_page";
		size_t tl = strlen(tag) + 1;

		if (seq_expect(s, tag, tl, err))
			return -1;
		strbuf_add(hi, tag, tl);
		if (seq_u64(s, &n, hi, tag, err))
			return -1;
		if (n > tf->size - s->pos)
			return set_err(err, "%s claims %llu bytes, beyond the end of the file",
				       tag, (unsigned long long)n);
		if (seq_copy(s, (size_t)n, hi, tag, err))
			return -1;
	}
	tf->have_meta[TD_META_HEADER_INFO] = 1;

	if (seq_u32(s, &count, &tf->meta[TD_META_FTRACE], "ftrace formats", err) ||
	    seq_formats(s, count, &tf->meta[TD_META_FTRACE], "ftrace formats", err))
		return -1;
	tf->have_meta[TD_META_FTRACE] = 1;

	struct strbuf *ev = &tf->meta[TD_META_EVENTS];

	if (seq_u32(s, &nsys, ev, "event systems", err))
		return -1;
	if (nsys > 100000)
		return set_err(err, "implausible number of event systems (%u)", nsys);
	for (uint32_t i = 0; i < nsys; i++) {
		/* the system name, NUL-terminated; read in blocks, since a
		 * byte at a time would make a huge unterminated name slow */
		for (;;) {
			char blk[256];
			size_t got = sizeof(blk);
			const char *nul;

			if (s->pos >= tf->size)
				return set_err(err, "truncated: system name at offset %llu",
					       (unsigned long long)s->pos);
			if (got > tf->size - s->pos)
				got = (size_t)(tf->size - s->pos);
			if (td_pread(tf, s->pos, blk, got, "system name", err))
				return -1;
			nul = memchr(blk, 0, got);
			if (nul)
				got = (size_t)(nul - blk) + 1;
			strbuf_add(ev, blk, got);
			s->pos += got;
			if (ev->len > TD_MAX_META)
				return set_err(err, "event formats too large");
			if (nul)
				break;
		}
		if (seq_u32(s, &count, ev, "event formats", err) ||
		    seq_formats(s, count, ev, "event formats", err))
			return -1;
	}
	tf->have_meta[TD_META_EVENTS] = 1;

	/* kallsyms and printk: u32 size; cmdlines: u64 size */
	static const struct { enum td_meta m; int wide; const char *what; } tail[] = {
		{ TD_META_KALLSYMS, 0, "kallsyms" },
		{ TD_META_PRINTK, 0, "printk formats" },
		{ TD_META_CMDLINES, 1, "saved cmdlines" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(tail); i++) {
		struct strbuf *sb = &tf->meta[tail[i].m];
		uint32_t n32;

		if (tail[i].wide) {
			if (seq_u64(s, &n, sb, tail[i].what, err))
				return -1;
		} else {
			if (seq_u32(s, &n32, sb, tail[i].what, err))
				return -1;
			n = n32;
		}
		if (n > tf->size - s->pos)
			return set_err(err, "%s claims %llu bytes, beyond the end of the file",
				       tail[i].what, (unsigned long long)n);
		if (seq_copy(s, (size_t)n, sb, tail[i].what, err))
			return -1;
		tf->have_meta[tail[i].m] = 1;
	}
	return 0;
}

static int v6_flyrecord(struct td_file *tf, uint64_t pos, const char *name,
			uint64_t *end, char **err)
{
	struct seq s = { tf, pos };
	int ncpus = tf->cpucount;
	struct td_buffer *b;

	if (seq_expect(&s, "flyrecord", 10, err))
		return -1;
	if ((uint64_t)ncpus * 16 > tf->size - s.pos)
		return set_err(err, "CPU table of %d CPUs runs past the end of the file", ncpus);
	b = add_buffer(tf, name, tf->clock ? tf->clock : "", tf->page_size, ncpus, err);
	if (!b)
		return -1;
	for (int cpu = 0; cpu < ncpus; cpu++) {
		if (seq_u64(&s, &b->cpu_offset[cpu], NULL, "CPU table", err) ||
		    seq_u64(&s, &b->cpu_size[cpu], NULL, "CPU table", err))
			return -1;
		if (b->cpu_size[cpu] && b->cpu_offset[cpu] % tf->page_size)
			return set_err(err, "cpu %d data of buffer '%s' at offset %llu is not page-aligned",
				       cpu, name, (unsigned long long)b->cpu_offset[cpu]);
		if (check_cpu_data(tf, b, cpu, err))
			return -1;
	}
	*end = s.pos;
	return 0;
}

static int v6_body(struct td_file *tf, uint64_t pos, char **err)
{
	struct seq s = { tf, pos };
	uint32_t cpus;
	char tag[10];
	uint64_t end;
	/* BUFFER options point at flyrecords we can only read after the
	 * CPU count is final, so they are handled after the options. */
	struct strbuf bufopts = STRBUF_INIT;
	int r = -1;

	if (v6_metadata(&s, err) || seq_u32(&s, &cpus, NULL, "CPU count", err))
		goto out;
	if (!cpus) {
		set_err(err, "CPU count is 0");
		goto out;
	}
	if (cpus > TD_MAX_CPUS) {
		set_err(err, "CPU count %u out of range", cpus);
		goto out;
	}
	tf->cpucount = (int)cpus;
	if (td_pread(tf, s.pos, tag, 10, "options or data tag", err))
		goto out;
	if (!memcmp(tag, "options  ", 10)) {
		s.pos += 10;
		for (int nopt = 0;; nopt++) {
			uint8_t h[6];
			uint32_t size;
			uint16_t id;
			struct strbuf val = STRBUF_INIT;

			if (nopt > 100000) {
				set_err(err, "too many options");
				goto out;
			}
			if (td_pread(tf, s.pos, h, 2, "option id", err))
				goto out;
			id = td_le16(h);
			s.pos += 2;
			if (!id)
				break;
			if (td_pread(tf, s.pos, h + 2, 4, "option size", err))
				goto out;
			size = td_le32(h + 2);
			s.pos += 4;
			if (size > tf->size - s.pos) {
				set_err(err, "option %u claims %u bytes, beyond the end of the file",
					id, size);
				goto out;
			}
			if (size > TD_MAX_META && id != TD_OPT_BUFFER) {
				s.pos += size;	/* skipped unread */
				continue;
			}
			if (seq_copy(&s, size, &val, "option", err)) {
				strbuf_release(&val);
				goto out;
			}
			if (id == TD_OPT_BUFFER) {
				strbuf_add_u32(&bufopts, size);
				strbuf_add(&bufopts, val.buf, size);
			} else if (handle_option(tf, id, (uint8_t *)val.buf, size, err)) {
				strbuf_release(&val);
				goto out;
			}
			strbuf_release(&val);
		}
		if (td_pread(tf, s.pos, tag, 10, "data tag", err))
			goto out;
	}
	if (!memcmp(tag, "latency  ", 10)) {
		set_err(err, "latency-format (text) recordings are not supported");
		goto out;
	}
	if (v6_flyrecord(tf, s.pos, "", &end, err))
		goto out;
	for (size_t at = 0; at < bufopts.len;) {
		uint32_t size = td_le32(bufopts.buf + at);

		if (handle_option(tf, TD_OPT_BUFFER, (uint8_t *)bufopts.buf + at + 4,
				  size, err))
			goto out;
		at += 4 + size;
	}
	r = 0;
out:
	strbuf_release(&bufopts);
	return r;
}

/* ---- where each CPU's data may lie ---- */

struct region {
	uint64_t off, size;
	int buffer, cpu;
};

static int cmp_region(const void *a, const void *b)
{
	const struct region *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

/*
 * CPU data must not be shared or overlap: otherwise a small file could
 * name the same (compressed) bytes for thousands of CPUs and make the
 * reader decode them thousands of times. This also gives each compressed
 * stream its end (the next CPU's data or the end of the file), since the
 * stored size is unreliable there (trace-cmd 3.1 leaves out 4 bytes).
 */
static int check_regions(struct td_file *tf, char **err)
{
	struct region *r = xcalloc((size_t)tf->cpu_slots + 1, sizeof(*r));
	size_t n = 0;
	int ret = -1;

	tf->cpu_limit = xcalloc((size_t)tf->nbuffers + 1, sizeof(*tf->cpu_limit));
	for (int b = 0; b < tf->nbuffers; b++) {
		const struct td_buffer *buf = &tf->buffers[b];

		tf->cpu_limit[b] = xcalloc((size_t)buf->ncpus + 1, sizeof(uint64_t));
		for (int cpu = 0; cpu < buf->ncpus; cpu++) {
			if (!buf->cpu_size[cpu] &&
			    !(buf->compressed && buf->cpu_offset[cpu]))
				continue;
			r[n].off = buf->cpu_offset[cpu];
			r[n].size = buf->compressed ? 0 : buf->cpu_size[cpu];
			r[n].buffer = b;
			r[n++].cpu = cpu;
		}
	}
	qsort(r, n, sizeof(*r), cmp_region);
	for (size_t i = 0; i < n; i++) {
		uint64_t next = i + 1 < n ? r[i + 1].off : tf->size;

		if (i + 1 == n && next == r[i].off) {
			set_err(err, "cpu %d data of buffer '%s' starts at the end of the file",
				r[i].cpu, tf->buffers[r[i].buffer].name);
			goto out;
		}
		if (r[i].size ? r[i].size > next - r[i].off : next == r[i].off) {
			set_err(err, "cpu %d data of buffer '%s' overlaps cpu %d data of buffer '%s' at offset %llu",
				r[i].cpu, tf->buffers[r[i].buffer].name, r[i + 1].cpu,
				tf->buffers[r[i + 1].buffer].name,
				(unsigned long long)next);
			goto out;
		}
		tf->cpu_limit[r[i].buffer][r[i].cpu] =
			r[i].size ? r[i].off + r[i].size : next;
	}
	ret = 0;
out:
	free(r);
	return ret;
}

/* ---- open / close / accessors ---- */

int td_want_none(const char *system, const char *event)
{
	(void)system;
	(void)event;
	return 0;
}

int td_has_format(const struct td_file *tf, const char *system, const char *event)
{
	size_t n = strlen(event);

	if (tep_find_event_by_name(tf->tep, system, event))
		return 1;
	for (int i = 0; i < tf->nskipped; i++)
		if (tf->skipped[i].name_len == n && !memcmp(tf->skipped[i].name, event, n) &&
		    !strcmp(tf->skipped[i].system, system))
			return 1;
	return 0;
}

int td_format_systems(const struct td_file *tf)
{
	int n = tep_get_events_count(tf->tep), nsys = 0;
	const char **sys = xcalloc((size_t)n + (size_t)tf->nskipped + 1, sizeof(*sys));

	for (int i = 0; i < n + tf->nskipped; i++) {
		const struct tep_event *ev = i < n ? tep_get_event(tf->tep, i) : NULL;
		const char *s = i < n ? (ev ? ev->system : NULL) : tf->skipped[i - n].system;
		int j = 0;

		while (s && j < nsys && strcmp(sys[j], s))
			j++;
		if (s && j == nsys)
			sys[nsys++] = s;
	}
	free(sys);
	return nsys;
}

struct td_file *td_open(const char *path, char **err)
{
	return td_open_only(path, NULL, err);
}

struct td_file *td_open_only(const char *path, td_want_fn want, char **err)
{
	struct td_file *tf = xcalloc(1, sizeof(*tf));
	struct stat st;
	uint64_t pos = 0;

	tf->want = want;
	tf->path = xstrdup(path);
	tf->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (tf->fd < 0 && errno == EACCES && geteuid() && !stat(path, &st) && st.st_uid == 0 &&
	    (st.st_mode & 0400)) {
		/* a recording made with sudo before files went to SUDO_UID:
		 * owned by root, readable by its owner, so chown helps; the
		 * user's name, as one would type it (the uid without one) */
		struct passwd *pw = getpwuid(geteuid());
		char *who = pw && pw->pw_name[0] ? xstrdup(pw->pw_name) :
			    xasprintf("%ld", (long)geteuid());

		set_err(err, "permission denied: the file belongs to root (mode %03o); "
			"'sudo chown %s %s' makes it yours", (unsigned)(st.st_mode & 0777),
			who, path);
		free(who);
		goto fail;
	}
	if (tf->fd < 0) {
		set_err(err, "%s", strerror(errno));
		goto fail;
	}
	if (fstat(tf->fd, &st)) {
		set_err(err, "%s", strerror(errno));
		goto fail;
	}
	if (S_ISDIR(st.st_mode)) {
		set_err(err, "is a directory");
		goto fail;
	}
	tf->size = (uint64_t)st.st_size;
	tf->rc_on = 1;
	if (read_header(tf, &pos, err))
		goto fail;
	if (tf->version >= 7) {
		uint8_t b[8];

		if (td_pread(tf, pos, b, 8, "options offset", err) ||
		    v7_options(tf, td_le64(b), err))
			goto fail;
	} else if (v6_body(tf, pos, err)) {
		goto fail;
	}
	if (!tf->have_meta[TD_META_HEADER_INFO]) {
		set_err(err, "no HEADER_INFO section (the ring-buffer page layout)");
		goto fail;
	}
	if (check_regions(tf, err))
		goto fail;
	if (td_parse_meta(tf, err))
		goto fail;
	td_parse_cpustats(tf);
	/* opened: readers of other threads may read it now */
	tf->rc_on = 0;
	tf->rc = NULL;
	return tf;
fail:
	td_close(tf);
	return NULL;
}

void td_close(struct td_file *tf)
{
	if (!tf)
		return;
	if (tf->fd >= 0)
		close(tf->fd);
	if (tf->tep)
		tep_free(tf->tep);	/* a formatter of it was freed by its owner */
	kallsyms_free(tf->ksyms);	/* after tep: it resolves through it */
	for (int i = 0; i < TD_META_COUNT; i++)
		strbuf_release(&tf->meta[i]);
	for (int i = 0; i < tf->nbuffers; i++) {
		free(tf->buffers[i].name);
		free(tf->buffers[i].clock);
		free(tf->buffers[i].cpu_offset);
		free(tf->buffers[i].cpu_size);
		free(tf->buffers[i].stats);
	}
	free(tf->buffers);
	strbuf_release(&tf->cpustat);
	codec_free(tf->codec);
	free(tf->compression);
	free(tf->uname);
	free(tf->clock);
	free(tf->tracer_version);
	free(tf->private_meta);
	free(tf->first_bad_format);
	free(tf->bad_ids);
	free(tf->skipped);
	if (tf->cpu_limit)
		for (int i = 0; i < tf->nbuffers; i++)
			free(tf->cpu_limit[i]);
	free(tf->cpu_limit);
	free(tf->path);
	free(tf);
}

const char *td_path(const struct td_file *tf) { return tf->path; }
int td_version(const struct td_file *tf) { return tf->version; }
const char *td_compression(const struct td_file *tf)
{
	return tf->version >= 7 ? codec_name(tf->codec_id) : "none";
}
uint32_t td_page_size(const struct td_file *tf) { return tf->page_size; }
struct tep_handle *td_tep(const struct td_file *tf)
{
	/* the handle is the file's own (td_open allocated tf) */
	td_parse_syms((struct td_file *)tf);
	return tf->tep;
}

struct tep_handle *td_tep_nosyms(const struct td_file *tf) { return tf->tep; }
int td_nbuffers(const struct td_file *tf) { return tf->nbuffers; }
const struct td_buffer *td_buffer(const struct td_file *tf, int i)
{
	return i >= 0 && i < tf->nbuffers ? &tf->buffers[i] : NULL;
}
const char *td_uname(const struct td_file *tf) { return tf->uname; }
const char *td_trace_clock(const struct td_file *tf) { return tf->clock; }
const char *td_tracer_version(const struct td_file *tf) { return tf->tracer_version; }
const char *td_private(const struct td_file *tf) { return tf->private_meta; }

const char *td_meta_value(const char *meta, const char *key)
{
	size_t kl = strlen(key);

	for (const char *s = meta; s && *s; s = strchr(s, '\n'), s = s ? s + 1 : NULL)
		if (!strncmp(s, key, kl) && s[kl] == '=')
			return s + kl + 1;
	return NULL;
}

int td_meta_is(const char *meta, const char *key, const char *value)
{
	const char *s = meta ? td_meta_value(meta, key) : NULL;
	size_t n = strlen(value);

	return s && !strncmp(s, value, n) && (s[n] == '\n' || !s[n]);
}

int td_meta_u64(const char *meta, const char *key, uint64_t *v)
{
	const char *s = td_meta_value(meta, key);
	char *end;
	unsigned long long x;

	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	x = strtoull(s, &end, 10);
	if (errno || (*end && *end != '\n'))
		return -1;
	*v = x;
	return 0;
}

int td_bad_formats(const struct td_file *tf, const char **first)
{
	if (first)
		*first = tf->first_bad_format;
	return tf->bad_formats;
}

int td_meta_load(struct td_file *tf, enum td_meta m, char **err)
{
	if (tf->have_meta[m] || !(tf->meta_deferred & (1u << m)))
		return 0;
	if (td_read_section(tf, tf->meta_off[m], (uint16_t)(TD_SEC_HEADER_INFO + m),
			    &tf->meta[m], err))
		return -1;
	tf->have_meta[m] = 1;
	tf->meta_deferred &= ~(1u << m);
	tf->meta_loaded |= 1u << m;
	if (m == TD_META_KALLSYMS)
		tf->kallsyms_off = 0;
	return 0;
}

void td_meta_unload(struct td_file *tf, enum td_meta m)
{
	if (!(tf->meta_loaded & (1u << m)))
		return;
	tf->meta_loaded &= ~(1u << m);
	strbuf_release(&tf->meta[m]);
	tf->have_meta[m] = 0;
	tf->meta_deferred |= 1u << m;
}

void td_trim(struct td_file *tf)
{
	codec_trim(tf->codec);
}

void td_use_formats_of(struct td_file *tf, const struct td_file *from)
{
	tf->fmt_from = from;
}

const void *td_meta(const struct td_file *tf, enum td_meta m, size_t *len)
{
	if (!tf->have_meta[m]) {
		*len = 0;
		return NULL;
	}
	*len = tf->meta[m].len;
	return tf->meta[m].buf;
}
