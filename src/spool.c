// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The recorder's spool (see spool.h): per-CPU page files and metadata
 * snapshots on disk while recording, and the assembly of a spool -- live
 * or left behind by a killed recorder -- into a trace.dat through the
 * common writer. Pages are appended whole and checked again when read
 * back, so a torn write at the end of a page file costs only that page.
 */
#define _GNU_SOURCE	/* splice */
#include "config.h"
#include "spool.h"
#include "output-file.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SPOOL_MAGIC "mmscope-spool 1\n"

struct spool {
	char *dir;
	int ncpus;
	uint32_t page_size;
	int *fds;
	uint64_t *pages;
	uint64_t *lost;		/* events read from the ring but not kept */
	uint64_t bytes;
	/* a page allocated with the spool: the failure paths and the read(2)
	 * fallback of a splice need memory when there may be none */
	char *scratch;
};

static char *spool_path(const char *dir, const char *name)
{
	return xasprintf("%s/%s", dir, name);
}

/* All of p at off (pwrite), or at the file offset when off < 0 (write);
 * a write of 0 bytes is a full disk. */
static int put_full(int fd, const void *p, size_t n, off_t off)
{
	while (n) {
		ssize_t r = off < 0 ? write(fd, p, n) : pwrite(fd, p, n, off);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0) {
			errno = ENOSPC;
			return -1;
		}
		p = (const char *)p + r;
		n -= (size_t)r;
		if (off >= 0)
			off += r;
	}
	return 0;
}

static int write_full(int fd, const void *p, size_t n)
{
	return put_full(fd, p, n, -1);
}

/* Writes DIR/NAME through a temporary file, synced, then renamed. */
static int put_file(const char *dir, const char *name, const void *p, size_t n,
		    char **err)
{
	char *tmp = xasprintf("%s/.%s.tmp", dir, name);
	char *path = spool_path(dir, name);
	int fd, saved, r = -1;

	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		set_err(err, "cannot create %s: %s", tmp, strerror(errno));
		goto out;
	}
	if (write_full(fd, p, n) || fdatasync(fd)) {
		saved = errno;
		close(fd);
		unlink(tmp);
		errno = saved;
		set_err(err, "cannot write %s: %s", tmp, strerror(errno));
		goto out;
	}
	close(fd);
	if (rename(tmp, path)) {
		saved = errno;
		unlink(tmp);
		errno = saved;
		set_err(err, "cannot rename %s: %s", tmp, strerror(errno));
		goto out;
	}
	r = 0;
out:
	free(tmp);
	free(path);
	return r;
}

static int make_reserve(const char *dir, uint64_t bytes)
{
	char *path = spool_path(dir, "reserve");
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	int r = -1;

	free(path);
	if (fd < 0)
		return -1;
	/* posix_fallocate returns an error number, it does not set errno */
	r = posix_fallocate(fd, 0, (off_t)bytes);
	close(fd);
	if (r) {
		errno = r;
		return -1;
	}
	return 0;
}

struct spool *spool_create(const char *dir, int ncpus, uint32_t page_size,
			   uint64_t reserve_bytes, char **err)
{
	struct spool *s;
	struct strbuf sb = STRBUF_INIT;

	if (mkdir(dir, 0700)) {
		set_err(err, "cannot create spool directory %s: %s", dir,
			errno == EEXIST ? "it exists (left by a killed recorder? "
			"'mmscope recover' it or remove it)" : strerror(errno));
		return NULL;
	}
	s = xcalloc(1, sizeof(*s));
	s->dir = xstrdup(dir);
	s->ncpus = ncpus;
	s->page_size = page_size;
	s->fds = xcalloc((size_t)ncpus, sizeof(int));
	s->pages = xcalloc((size_t)ncpus, sizeof(uint64_t));
	s->lost = xcalloc((size_t)ncpus, sizeof(uint64_t));
	s->scratch = xcalloc(1, page_size);
	for (int cpu = 0; cpu < ncpus; cpu++)
		s->fds[cpu] = -1;
	strbuf_addf(&sb, SPOOL_MAGIC "ncpus %d\npage_size %u\n", ncpus, page_size);
	if (put_file(dir, "layout", sb.buf, sb.len, err))
		goto fail;
	for (int cpu = 0; cpu < ncpus; cpu++) {
		char name[32];
		char *path;

		snprintf(name, sizeof(name), "cpu%d.raw", cpu);
		path = spool_path(dir, name);
		/* no O_APPEND: splice(2) refuses it; every page goes at
		 * pages[cpu] * page_size */
		s->fds[cpu] = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
				   0600);
		if (s->fds[cpu] < 0) {
			set_err(err, "cannot create %s: %s", path, strerror(errno));
			free(path);
			goto fail;
		}
		free(path);
	}
	if (reserve_bytes && make_reserve(dir, reserve_bytes)) {
		set_err(err, "cannot set aside %llu bytes in %s: %s",
			(unsigned long long)reserve_bytes, dir, strerror(errno));
		goto fail;
	}
	strbuf_release(&sb);
	return s;
fail:
	strbuf_release(&sb);
	spool_close(s);
	spool_remove(dir, NULL);
	return NULL;
}

int spool_put_meta(struct spool *s, const char *name, const void *p, size_t n,
		   char **err)
{
	char *file = xasprintf("meta.%s", name);
	int r = put_file(s->dir, file, p, n, err);

	free(file);
	return r;
}

static int pwrite_full(int fd, const void *p, size_t n, off_t off)
{
	return put_full(fd, p, n, off);
}

int spool_put_page(struct spool *s, int cpu, const void *page, char **err)
{
	off_t at;

	if (cpu < 0 || cpu >= s->ncpus)
		return set_err(err, "no CPU %d in the spool", cpu);
	at = (off_t)(s->pages[cpu] * s->page_size);
	if (pwrite_full(s->fds[cpu], page, s->page_size, at)) {
		int saved = errno;

		/* never leave a partial page behind; the page's events were
		 * handed over by the kernel and are not kept: lost */
		if (ftruncate(s->fds[cpu], at))
			{ /* the reader skips it anyway */ }
		s->lost[cpu] += spool_page_events(page, s->page_size);
		errno = saved;
		return set_err(err, "cannot write to spool %s: %s", s->dir, strerror(saved));
	}
	s->pages[cpu]++;
	s->bytes += s->page_size;
	return 0;
}

/*
 * A write into the spool failed after `part` bytes of a page had left the
 * pipe (they are in the file at `at`), with `left` bytes still in the pipe
 * (non-blocking): the page is completed from the file and the pipe, its
 * events and those of every page still in the pipe are counted as lost,
 * and the file is cut back to whole pages.
 */
static void splice_failed(struct spool *s, int cpu, int pipe_fd, size_t left, off_t at,
			  size_t part)
{
	char *page = s->scratch;
	int saved = errno;

	memset(page, 0, s->page_size);
	if (part) {
		ssize_t got = pread(s->fds[cpu], page, part, at);

		if (got < 0)
			got = 0;
		left -= left < s->page_size - part ? left : s->page_size - part;
		if (read(pipe_fd, page + part, s->page_size - part) == (ssize_t)(s->page_size - part) &&
		    (size_t)got == part)
			s->lost[cpu] += spool_page_events(page, s->page_size);
	}
	while (left >= s->page_size) {
		ssize_t r = read(pipe_fd, page, s->page_size);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		if ((uint32_t)r < s->page_size)
			memset(page + r, 0, s->page_size - (uint32_t)r);
		s->lost[cpu] += spool_page_events(page, s->page_size);
		left -= (size_t)r < left ? (size_t)r : left;
	}
	if (ftruncate(s->fds[cpu], at))
		{ /* the reader skips a torn page anyway */ }
	errno = saved;
}

long spool_splice_pages(struct spool *s, int cpu, int pipe_fd, size_t bytes, char **err)
{
	size_t done = 0;
	long pages = 0;
	loff_t off;
	int plain = 0;

	if (cpu < 0 || cpu >= s->ncpus)
		return set_err(err, "no CPU %d in the spool", cpu);
	/* the write position: past the whole pages, and past the part of a
	 * page a short write left (the rest of that page comes next) */
	off = (loff_t)(s->pages[cpu] * s->page_size);

	while (done < bytes) {
		ssize_t r;
		size_t whole;

		if (!plain) {
			r = splice(pipe_fd, NULL, s->fds[cpu], &off, bytes - done, SPLICE_F_MOVE);
		} else {
			/* the same bytes, through a page of ours, to the same place */
			size_t want = bytes - done < s->page_size ? bytes - done : s->page_size;

			r = read(pipe_fd, s->scratch, want);
			if (r > 0 && put_full(s->fds[cpu], s->scratch, (size_t)r, (off_t)off))
				r = -1;	/* those bytes left the pipe: not counted */
			else if (r > 0)
				off += r;
		}
		if (r < 0 && errno == EINTR)
			continue;
		/* the kernel had no memory for the splice: read(2) and write(2)
		 * instead, for this call; recording does not stop for it */
		if (r < 0 && !plain && (errno == ENOMEM || errno == ENOBUFS)) {
			plain = 1;
			continue;
		}
		if (r <= 0) {
			size_t part = (size_t)(off - (loff_t)(s->pages[cpu] * s->page_size));

			if (r == 0)
				errno = EIO;
			splice_failed(s, cpu, pipe_fd, bytes - done,
				      (off_t)(s->pages[cpu] * s->page_size), part);
			return set_err(err, "cannot write to spool %s: %s", s->dir, strerror(errno));
		}
		done += (size_t)r;
		/* whole pages written so far; a page cut by a short write is
		 * finished by the next round */
		whole = (size_t)(off / s->page_size) - (size_t)s->pages[cpu];
		s->pages[cpu] += whole;
		s->bytes += (uint64_t)whole * s->page_size;
		pages += (long)whole;
	}
	return pages;
}

void spool_add_lost(struct spool *s, int cpu, uint64_t events)
{
	if (cpu >= 0 && cpu < s->ncpus)
		s->lost[cpu] += events;
}

uint64_t spool_cpu_lost(const struct spool *s, int cpu)
{
	return s && cpu >= 0 && cpu < s->ncpus ? s->lost[cpu] : 0;
}

int spool_cpu_drop_last(struct spool *s, int cpu, uint64_t n, char **err)
{
	if (cpu < 0 || cpu >= s->ncpus || n > s->pages[cpu])
		return set_err(err, "no %llu pages of CPU %d in the spool", (unsigned long long)n, cpu);
	if (ftruncate(s->fds[cpu], (off_t)((s->pages[cpu] - n) * s->page_size)))
		return set_err(err, "cannot cut spool %s: %s", s->dir, strerror(errno));
	s->pages[cpu] -= n;
	s->bytes -= n * s->page_size;
	return 0;
}

int spool_sync(struct spool *s, char **err)
{
	for (int cpu = 0; cpu < s->ncpus; cpu++)
		if (s->fds[cpu] >= 0 && fdatasync(s->fds[cpu]))
			return set_err(err, "cannot sync spool %s: %s", s->dir, strerror(errno));
	return 0;
}

uint64_t spool_bytes(const struct spool *s)
{
	return s->bytes;
}

int spool_ncpus(const struct spool *s)
{
	return s->ncpus;
}

uint32_t spool_page_size(const struct spool *s)
{
	return s->page_size;
}

uint64_t spool_cpu_pages(const struct spool *s, int cpu)
{
	return cpu >= 0 && cpu < s->ncpus ? s->pages[cpu] : 0;
}

void spool_release_reserve(struct spool *s)
{
	char *path = spool_path(s->dir, "reserve");

	unlink(path);
	free(path);
}

const char *spool_dir(const struct spool *s)
{
	return s->dir;
}

int spool_rename(struct spool *s, const char *dir, char **err)
{
	if (rename(s->dir, dir))
		return set_err(err, "cannot rename spool %s to %s: %s", s->dir, dir,
			       strerror(errno));
	free(s->dir);
	s->dir = xstrdup(dir);
	return 0;
}

void spool_close(struct spool *s)
{
	if (!s)
		return;
	for (int cpu = 0; cpu < s->ncpus; cpu++)
		if (s->fds[cpu] >= 0)
			close(s->fds[cpu]);
	free(s->fds);
	free(s->pages);
	free(s->lost);
	free(s->scratch);
	free(s->dir);
	free(s);
}

/* ---- reading a spool back ---- */

char *spool_read_meta(const char *dir, const char *name, size_t *len)
{
	char *path = xasprintf("%s/meta.%s", dir, name);
	struct strbuf sb = STRBUF_INIT;

	if (read_file(path, &sb)) {
		free(path);
		strbuf_release(&sb);
		return NULL;
	}
	free(path);
	return strbuf_detach(&sb, len);
}

int spool_is_spool(const char *dir)
{
	char *path = spool_path(dir, "layout");
	struct strbuf sb = STRBUF_INIT;
	int ok = !read_file(path, &sb) && sb.len >= strlen(SPOOL_MAGIC) &&
		 !memcmp(sb.buf, SPOOL_MAGIC, strlen(SPOOL_MAGIC));

	free(path);
	strbuf_release(&sb);
	return ok;
}

static uint32_t rd32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static uint64_t rd64(const unsigned char *p)
{
	return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32;
}

/*
 * A page: u64 timestamp, u64 commit (data length; bits 30 and 31 are the
 * "missed events" flags), then events. Walk the event headers: a page
 * whose events do not end exactly at the commit length is torn.
 */
int spool_page_valid(const void *page, uint32_t page_size)
{
	const unsigned char *p = page;
	uint64_t commit = rd64(p + 8) & ((1ull << 30) - 1);
	size_t off = 16, end = 16 + (size_t)commit;

	if (!rd64(p) || !commit || end > page_size)
		return 0;
	while (off < end) {
		uint32_t h, type_len, len;

		if (off + 4 > end)
			return 0;
		h = rd32(p + off);
		type_len = h & 31;
		if (type_len == 29 && !(h >> 5))
			return 1;	/* null padding: the rest is unused */
		if (type_len == 0 || type_len == 29) {	/* long data, padding */
			if (off + 8 > end)
				return 0;
			len = rd32(p + off + 4);
			if (type_len == 0 && len < 4)
				return 0;
			off += 4 + (size_t)len;
		} else if (type_len >= 30) {		/* time extend / stamp */
			off += 8;
		} else {
			off += 4 + (size_t)type_len * 4;
		}
	}
	return off == end;
}

uint64_t spool_page_events(const void *page, uint32_t page_size)
{
	const unsigned char *p = page;
	uint64_t commit = rd64(p + 8) & ((1ull << 30) - 1);
	size_t off = 16, end = 16 + (size_t)commit;
	uint64_t n = 0;

	if (end > page_size)
		end = page_size;
	while (off + 4 <= end) {
		uint32_t h = rd32(p + off), type_len = h & 31;

		if (type_len == 29 && !(h >> 5))
			break;
		if (type_len == 0 || type_len == 29) {
			uint32_t len;

			if (off + 8 > end)
				break;
			len = rd32(p + off + 4);
			if (type_len == 0) {
				if (len < 4)
					break;
				n++;
			}
			off += 4 + (size_t)len;
		} else if (type_len >= 30) {
			off += 8;
		} else {
			n++;
			off += 4 + (size_t)type_len * 4;
		}
	}
	return n;
}

/*
 * The trace time of a page's last event: the page's timestamp plus every
 * header's delta, as libtraceevent's kbuffer adds them (a time extend
 * carries bits 27 and up; a time stamp is absolute, its top bits from
 * the page). 0 when the page holds no data event.
 */
uint64_t spool_page_last_ts(const void *page, uint32_t page_size)
{
	const unsigned char *p = page;
	uint64_t commit = rd64(p + 8) & ((1ull << 30) - 1);
	size_t off = 16, end = 16 + (size_t)commit;
	uint64_t ts = rd64(p), last = 0;

	if (end > page_size)
		end = page_size;
	while (off + 4 <= end) {
		uint32_t h = rd32(p + off), type_len = h & 31;
		uint64_t delta = h >> 5;

		if (type_len == 29 && !delta)
			break;
		if (type_len >= 30) {
			if (off + 8 > end)
				break;
			delta += (uint64_t)rd32(p + off + 4) << 27;
			if (type_len == 31)
				ts = (ts & ~((1ull << 59) - 1)) | delta;
			else
				ts += delta;
			off += 8;
			continue;
		}
		ts += delta;
		if (type_len == 0 || type_len == 29) {
			uint32_t len;

			if (off + 8 > end)
				break;
			len = rd32(p + off + 4);
			if (type_len == 0) {
				if (len < 4)
					break;
				last = ts;
			}
			off += 4 + (size_t)len;
		} else {
			last = ts;
			off += 4 + (size_t)type_len * 4;
		}
	}
	return last;
}

int spool_cpu_end(const char *dir, int cpu, uint32_t page_size, uint64_t *ns)
{
	char name[32];
	char *path, *page;
	struct stat st;
	int fd, found = 0;

	snprintf(name, sizeof(name), "cpu%d.raw", cpu);
	path = spool_path(dir, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	free(path);
	if (fd < 0)
		return 0;
	if (fstat(fd, &st) || page_size < 16) {
		close(fd);
		return 0;
	}
	page = xmalloc(page_size);
	/* from the last whole page back: the end is the last valid page with
	 * an event (a torn or zeroed tail is what the assembler skips too) */
	for (uint64_t k = (uint64_t)st.st_size / page_size; k-- > 0 && !found;) {
		size_t got = 0;

		while (got < page_size) {
			ssize_t r = pread(fd, page + got, page_size - got,
					  (off_t)(k * page_size + got));

			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0)
				break;
			got += (size_t)r;
		}
		if (got == page_size && spool_page_valid(page, page_size) &&
		    (*ns = spool_page_last_ts(page, page_size)))
			found = 1;
	}
	free(page);
	close(fd);
	return found;
}

struct layout {
	int ncpus;
	uint32_t page_size;
};

static int read_layout(const char *dir, struct layout *l, char **err);

int spool_layout(const char *dir, int *ncpus, uint32_t *page_size, char **err)
{
	struct layout l;

	if (read_layout(dir, &l, err))
		return -1;
	*ncpus = l.ncpus;
	*page_size = l.page_size;
	return 0;
}

struct spool *spool_reopen(const char *dir, char **err)
{
	struct layout l;
	struct spool *s;

	if (read_layout(dir, &l, err))
		return NULL;
	s = xcalloc(1, sizeof(*s));
	s->dir = xstrdup(dir);
	s->ncpus = l.ncpus;
	s->page_size = l.page_size;
	s->fds = xcalloc((size_t)l.ncpus, sizeof(int));
	s->pages = xcalloc((size_t)l.ncpus, sizeof(uint64_t));
	s->lost = xcalloc((size_t)l.ncpus, sizeof(uint64_t));
	for (int cpu = 0; cpu < l.ncpus; cpu++)
		s->fds[cpu] = -1;
	for (int cpu = 0; cpu < l.ncpus; cpu++) {
		char name[32];
		char *path;
		struct stat st;

		snprintf(name, sizeof(name), "cpu%d.raw", cpu);
		path = spool_path(dir, name);
		s->fds[cpu] = open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (s->fds[cpu] < 0 || fstat(s->fds[cpu], &st) ||
		    ftruncate(s->fds[cpu], st.st_size - st.st_size % l.page_size)) {
			set_err(err, "cannot reopen %s: %s", path, strerror(errno));
			free(path);
			spool_close(s);
			return NULL;
		}
		s->pages[cpu] = (uint64_t)st.st_size / l.page_size;
		free(path);
	}
	return s;
}

static int read_layout(const char *dir, struct layout *l, char **err)
{
	char *path = spool_path(dir, "layout");
	struct strbuf sb = STRBUF_INIT;
	int r = -1;

	if (read_file(path, &sb)) {
		set_err(err, "%s: not a spool (no layout file: %s)", dir, strerror(errno));
		goto out;
	}
	if (sb.len < strlen(SPOOL_MAGIC) || memcmp(sb.buf, SPOOL_MAGIC, strlen(SPOOL_MAGIC)) ||
	    sscanf(sb.buf + strlen(SPOOL_MAGIC), "ncpus %d\npage_size %u", &l->ncpus,
		   &l->page_size) != 2 || l->ncpus <= 0 || l->ncpus > 8192 ||
	    l->page_size < 4096 || l->page_size > (1u << 20) ||
	    (l->page_size & (l->page_size - 1))) {
		set_err(err, "%s: the spool layout file is not understood", dir);
		goto out;
	}
	r = 0;
out:
	free(path);
	strbuf_release(&sb);
	return r;
}

struct cpu_reader {
	int fd;
	uint32_t page_size;
	uint64_t left;		/* whole pages left in the file */
	uint64_t *good, *bad;
};

static int cpu_next_page(void *ctx, void *page, char **err)
{
	struct cpu_reader *c = ctx;

	while (c->left) {
		size_t got = 0;

		while (got < c->page_size) {
			ssize_t r = read(c->fd, (char *)page + got, c->page_size - got);

			if (r < 0 && errno == EINTR)
				continue;
			if (r < 0)
				return set_err(err, "cannot read spool: %s", strerror(errno));
			if (r == 0)
				return 0;
			got += (size_t)r;
		}
		c->left--;
		if (spool_page_valid(page, c->page_size)) {
			(*c->good)++;
			return 1;
		}
		(*c->bad)++;
	}
	return 0;
}

static void load_meta(const char *dir, struct tw_input *in, char **keep)
{
	static const char *const names[TD_META_COUNT] = {
		"header_info", "ftrace", "events", "kallsyms", "printk", "cmdlines",
	};

	for (int m = 0; m < TD_META_COUNT; m++) {
		keep[m] = spool_read_meta(dir, names[m], &in->meta_len[m]);
		in->meta[m] = keep[m];
	}
}

static char *meta_text(const char *dir, const char *name)
{
	size_t n;

	return spool_read_meta(dir, name, &n);
}

/* The spool in DIR as a trace.dat into fd (a regular file opened for
 * writing); meta, if not NULL, instead of the spool's mmscope metadata. */
static int spool_assemble(const char *dir, int fd, const struct tw_opts *o,
			  const char *meta, struct spool_result *res, char **err)
{
	struct layout l;
	struct tw_input in = { 0 };
	struct tw_buffer buf = { 0 };
	struct cpu_reader *rd = NULL;
	struct tw_result tr = { 0 };
	char *keep[TD_META_COUNT] = { 0 };
	char *clock_text = NULL, *uname = NULL, *version = NULL, *cpustat = NULL;
	char *priv = NULL, *clk = NULL;
	int r = -1;

	memset(res, 0, sizeof(*res));
	if (read_layout(dir, &l, err))
		return -1;
	load_meta(dir, &in, keep);
	if (!in.meta[TD_META_HEADER_INFO] || !in.meta[TD_META_EVENTS]) {
		set_err(err, "%s: the spool has no event formats (the recorder died "
			"before it wrote them: as it started, or as it opened this "
			"--switch-output part)", dir);
		goto out;
	}
	clock_text = meta_text(dir, "trace_clock");
	uname = meta_text(dir, "uname");
	version = meta_text(dir, "version");
	cpustat = meta_text(dir, "cpustat");
	priv = meta_text(dir, "mmscope");
	if (clock_text) {
		const char *a = strchr(clock_text, '['), *z = a ? strchr(a, ']') : NULL;

		if (z)
			clk = xasprintf("%.*s", (int)(z - a - 1), a + 1);
	}
	in.cpucount = l.ncpus;
	in.page_size = l.page_size;
	in.trace_clock = clock_text;
	in.uname = uname;
	in.version = version;
	in.cpustat = cpustat;
	in.cpustat_len = cpustat ? strlen(cpustat) : 0;
	in.private_meta = meta ? meta : priv;

	buf.name = "";
	buf.clock = clk ? clk : "";
	buf.page_size = l.page_size;
	buf.ncpus = l.ncpus;
	buf.cpus = xcalloc((size_t)l.ncpus, sizeof(*buf.cpus));
	rd = xcalloc((size_t)l.ncpus, sizeof(*rd));
	for (int cpu = 0; cpu < l.ncpus; cpu++) {
		char name[32];
		char *path;
		struct stat st;

		rd[cpu].fd = -1;
		snprintf(name, sizeof(name), "cpu%d.raw", cpu);
		path = spool_path(dir, name);
		rd[cpu].fd = open(path, O_RDONLY | O_CLOEXEC);
		free(path);
		if (rd[cpu].fd < 0 || fstat(rd[cpu].fd, &st))
			continue;
		rd[cpu].page_size = l.page_size;
		rd[cpu].left = (uint64_t)st.st_size / l.page_size;
		rd[cpu].good = &res->pages;
		rd[cpu].bad = &res->bad_pages;
		if (rd[cpu].left) {
			buf.cpus[cpu].next = cpu_next_page;
			buf.cpus[cpu].ctx = &rd[cpu];
		}
	}
	in.buffers = &buf;
	in.nbuffers = 1;
	if (tw_write(fd, &in, o, &tr, err))
		goto out;
	res->bytes = tr.bytes;
	res->ncpus = l.ncpus;
	r = 0;
out:
	if (rd)
		for (int cpu = 0; cpu < l.ncpus; cpu++)
			if (rd[cpu].fd >= 0)
				close(rd[cpu].fd);
	free(rd);
	free(buf.cpus);
	for (int m = 0; m < TD_META_COUNT; m++)
		free(keep[m]);
	free(clock_text);
	free(clk);
	free(uname);
	free(version);
	free(cpustat);
	free(priv);
	return r;
}

int spool_remove(const char *dir, char **err)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int r = 0;

	if (!d)
		return errno == ENOENT ? 0 : set_err(err, "cannot open %s: %s", dir, strerror(errno));
	while ((de = readdir(d))) {
		const char *n = de->d_name;
		char *path;

		if (!strcmp(n, ".") || !strcmp(n, ".."))
			continue;
		/* only what a spool holds: never recurse, never follow (a
		 * recorder killed while it wrote the layout leaves its
		 * temporary, .layout.tmp, as one killed in a meta write
		 * leaves .meta.NAME.tmp) */
		if (strcmp(n, "layout") && strcmp(n, ".layout.tmp") && strcmp(n, "reserve") &&
		    strncmp(n, "meta.", 5) && strncmp(n, ".meta.", 6) && strncmp(n, "cpu", 3)) {
			r = set_err(err, "%s: unexpected file '%s' in the spool, left in place", dir, n);
			continue;
		}
		path = spool_path(dir, n);
		if (unlink(path))
			r = set_err(err, "cannot remove %s: %s", path, strerror(errno));
		free(path);
	}
	closedir(d);
	if (!r && rmdir(dir))
		r = set_err(err, "cannot remove %s: %s", dir, strerror(errno));
	return r;
}

int spool_write_file(const char *dir, const char *path, int force,
		     const struct tw_opts *o, struct spool_result *res, char **err)
{
	return spool_write_file_meta(dir, path, force, o, NULL, res, err);
}

int spool_write_file_meta(const char *dir, const char *path, int force,
			  const struct tw_opts *o, const char *meta,
			  struct spool_result *res, char **err)
{
	struct output_file out;

	if (output_file_open(&out, path, force, err))
		return -1;
	if (spool_assemble(dir, out.fd, o, meta, res, err)) {
		output_file_abort(&out);
		return -1;
	}
	return output_file_commit(&out, err);
}
