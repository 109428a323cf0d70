// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The counter sampler (see sampler.h): one function per source, each
 * reading its /proc or /sys files and adding KEY=VALUE pairs to lines of
 * the "mms1" format, split before SAMPLER_LINE_MAX bytes with the
 * identifying keys repeated. vmstat keeps the previous values so that
 * sets after the first carry only the fields that changed.
 */
#include "config.h"
#include "sampler.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum source {
	SRC_VMSTAT, SRC_ZONE, SRC_BUDDY, SRC_PAGETYPE, SRC_MTHP, SRC_ZSWAP,
	SRC_PSI, SRC_SWAP, SRC_MEMCG, SRC_COUNT
};

static const char *const source_names[SRC_COUNT] = {
	"vmstat", "zone", "buddy", "pagetype", "mthp", "zswap", "psi", "swap", "memcg",
};

#define VM_VALUE_MAX 24

struct sampler {
	char *root;
	char *cgroup;		/* resolved directory, or NULL */
	char *cgroup_arg;
	uint64_t seq;
	/* vmstat of the previous set: values as the kernel printed them
	 * (unsigned longs: 20 digits do not fit a long long) */
	char **vm_names;
	char (*vm_values)[VM_VALUE_MAX];
	size_t vm_n;
	int vm_every_full;	/* every set carries every field (flight) */
	int vm_base;		/* the next set does (a new file starts) */
	int missing_written;
	char *why[SRC_COUNT];	/* why a source is missing (NULL: present) */
	char *pool_why;		/* zswap present, its debugfs counters not */
	struct strbuf sources, missing;
	/* files kept open and read again with pread from 0 (seq_file and
	 * sysfs files give fresh values at offset 0): no path walk and no
	 * open/close per file per set; files that were missing are looked
	 * for again every SAMPLER_RETRY sets */
	struct sfile *files;
	size_t nfiles;
	/* directories listed once (the mTHP sizes, their stats, zswap's
	 * debugfs counters); an empty or missing one is listed again */
	struct sdir *dirs;
	size_t ndirs;
	glob_t mthp;
	int have_mthp;
	/* /proc/pagetypeinfo: the kernel counts every free block of every
	 * order under the zone lock with interrupts off, which makes it the
	 * costliest source by far; read in full sets and otherwise at most
	 * every SAMPLER_PAGETYPE_MS (its one reader, the fragmentation
	 * model, takes the first and the last) */
	uint64_t pagetype_us;
	int full;
};

#define SAMPLER_RETRY 16
#define SAMPLER_PAGETYPE_MS 10000

struct sfile {
	char *path;
	int fd;			/* -1: missing */
	int err;		/* its errno then */
	int stream;		/* no pread (debugfs' counters): opened each time */
	uint64_t seq;		/* the set it was last looked for */
};

struct sdir {
	char *path;
	char **names;		/* regular files */
	size_t n;
};

/* ---- line building ---- */

struct lines {
	sampler_emit_fn emit;
	void *ctx;
	int failed;
	int count;
	struct strbuf line;
	size_t prefix_len;	/* "mms1 SOURCE SEQ ids" part repeated on splits */
	int has_kv;		/* the line has pairs beyond the prefix */
};

/*
 * Emits the line. Once a write failed (a full ring in non-overwrite mode
 * refuses trace_marker writes with EBADF, as does tracing off), the rest
 * of the set is dropped: its end line is missing, so readers skip it.
 */
static void lines_flush(struct lines *l)
{
	if (l->line.len && !l->failed) {
		if (l->emit(l->ctx, l->line.buf, l->line.len))
			l->failed = 1;
		else
			l->count++;
	}
	strbuf_reset(&l->line);
	l->has_kv = 0;
}

/* Starts a line "mms1 SOURCE SEQ" followed by the identifying pairs ids. */
static void lines_begin(struct lines *l, const char *source, uint64_t seq,
			const char *ids)
{
	lines_flush(l);
	strbuf_addf(&l->line, "mms1 %s %llu", source, (unsigned long long)seq);
	if (ids && *ids)
		strbuf_addf(&l->line, " %s", ids);
	l->prefix_len = l->line.len;
	l->has_kv = 0;
}

static void lines_kv(struct lines *l, const char *key, const char *value)
{
	size_t kl = strlen(key), vl = strlen(value);
	size_t add = 1 + kl + 1 + vl;

	if (l->failed)
		return;
	if (l->line.len + add > SAMPLER_LINE_MAX - 1 && l->has_kv) {
		char *prefix = xmalloc(l->prefix_len + 1);

		memcpy(prefix, l->line.buf, l->prefix_len);
		prefix[l->prefix_len] = '\0';
		lines_flush(l);
		strbuf_addstr(&l->line, prefix);
		free(prefix);
	}
	strbuf_grow(&l->line, add);	/* " KEY=VALUE", without a printf */
	l->line.buf[l->line.len] = ' ';
	memcpy(l->line.buf + l->line.len + 1, key, kl);
	l->line.buf[l->line.len + 1 + kl] = '=';
	memcpy(l->line.buf + l->line.len + 2 + kl, value, vl);
	l->line.len += add;
	l->line.buf[l->line.len] = '\0';
	l->has_kv = 1;
}

static void lines_kv_ll(struct lines *l, const char *key, long long v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%lld", v);
	lines_kv(l, key, buf);
}

/* ---- file helpers ---- */

static char *rpath(const struct sampler *s, const char *path)
{
	return xasprintf("%s%s", s->root, path);
}

/* Reads the whole file at path (root included) into sb, through a kept
 * file descriptor. 0, or -1 with errno. */
static int sread(struct sampler *s, const char *path, struct strbuf *sb)
{
	struct sfile *f = NULL;

	strbuf_reset(sb);
	for (size_t i = 0; i < s->nfiles; i++)
		if (!strcmp(s->files[i].path, path)) {
			f = &s->files[i];
			break;
		}
	if (!f) {
		s->files = xreallocarray(s->files, s->nfiles + 1, sizeof(*s->files));
		f = &s->files[s->nfiles++];
		f->path = xstrdup(path);
		f->fd = -1;
		f->err = 0;
		f->stream = 0;
		f->seq = UINT64_MAX;
	}
	if (f->stream)
		return read_file(path, sb);
	for (int tries = 0; tries < 2; tries++) {
		size_t got = 0;

		if (f->fd < 0) {
			if (f->seq != UINT64_MAX && s->seq - f->seq < SAMPLER_RETRY && f->err) {
				errno = f->err;
				return -1;
			}
			f->seq = s->seq;
			f->fd = open(path, O_RDONLY | O_CLOEXEC);
			if (f->fd < 0) {
				f->err = errno;
				return -1;
			}
		}
		for (;;) {
			ssize_t n;

			strbuf_grow(sb, 16384);
			n = pread(f->fd, sb->buf + got, sb->alloc - 1 - got, (off_t)got);
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0)
				break;
			/* only 0 is the end: a seq_file read stops at a page
			 * (a 4,132-byte /proc/vmstat comes as 4,091 and 41),
			 * and reading on from where the last read ended
			 * continues its records without walking them again */
			if (!n)
				return 0;
			got += (size_t)n;
			sb->len = got;
			sb->buf[got] = '\0';
		}
		/* the file went away (a sysfs file removed): open it again */
		f->err = errno;
		close(f->fd);
		f->fd = -1;
		f->seq = UINT64_MAX;
		strbuf_reset(sb);
		if (f->err == ESPIPE) {	/* a stream: read it the plain way */
			f->stream = 1;
			return read_file(path, sb);
		}
	}
	return -1;
}

static int slurp(struct sampler *s, const char *path, struct strbuf *sb)
{
	char *p = rpath(s, path);
	int r = sread(s, p, sb);
	int e = errno;

	free(p);
	errno = e;
	return r;
}

/* A value without spaces: "always [madvise] never" -> madvise; trims. */
static void clean_value(char *v)
{
	char *a = strchr(v, '['), *z = a ? strchr(a, ']') : NULL;
	size_t n;

	if (a && z) {
		memmove(v, a + 1, (size_t)(z - a - 1));
		v[z - a - 1] = '\0';
	}
	while (isspace((unsigned char)*v))
		memmove(v, v + 1, strlen(v));
	n = strlen(v);
	while (n && isspace((unsigned char)v[n - 1]))
		v[--n] = '\0';
	for (char *p = v; *p; p++)
		if (isspace((unsigned char)*p))
			*p = '_';
}

static void set_missing(struct sampler *s, enum source src, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void set_missing(struct sampler *s, enum source src, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;
	char *why;

	if (s->why[src])
		return;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	why = strbuf_detach(&sb, NULL);
	clean_value(why);
	s->why[src] = why;
}

static void set_present(struct sampler *s, enum source src)
{
	free(s->why[src]);
	s->why[src] = NULL;
}

/* ---- sources ---- */

/*
 * "  WORD NUMBER ..." without sscanf (which costs more than the rest of
 * a set on the long vmstat and zoneinfo files): *w and *wlen the word,
 * *v the number. 1, or 0 when the line is not like that.
 */
static int word_num(const char *line, const char **w, size_t *wlen, long long *v)
{
	const char *p = line, *q;
	char *end;

	while (*p == ' ' || *p == '\t')
		p++;
	for (q = p; *q && *q != ' ' && *q != '\t'; q++)
		;
	if (q == p || !*q)
		return 0;
	*w = p;
	*wlen = (size_t)(q - p);
	while (*q == ' ' || *q == '\t')
		q++;
	if (!(*q == '-' || (*q >= '0' && *q <= '9')))
		return 0;
	*v = strtoll(q, &end, 10);
	return end != q;
}

/* "WORD DIGITS": the word and the number's text, unconverted. */
static int word_text(const char *line, const char **w, size_t *wlen,
		     const char **v, size_t *vlen)
{
	const char *p = line, *q;

	while (*p == ' ' || *p == '\t')
		p++;
	for (q = p; *q && *q != ' ' && *q != '\t'; q++)
		;
	if (q == p || !*q)
		return 0;
	*w = p;
	*wlen = (size_t)(q - p);
	while (*q == ' ' || *q == '\t')
		q++;
	p = q;
	if (*q == '-')
		q++;
	if (!(*q >= '0' && *q <= '9'))
		return 0;
	while (*q >= '0' && *q <= '9')
		q++;
	if (*q && *q != ' ' && *q != '\t')
		return 0;
	*v = p;
	*vlen = (size_t)(q - p);
	return 1;
}

static int word_is(const char *w, size_t wlen, const char *name)
{
	return strlen(name) == wlen && !memcmp(w, name, wlen);
}

static void src_vmstat(struct sampler *s, struct lines *l)
{
	struct strbuf sb = STRBUF_INIT;
	char *line, *save = NULL;
	size_t i = 0;
	/* every field where a file starts (sampler_new_file: a
	 * switch-output part, a flight file), whose counters a reader must
	 * get whole from its first set */
	int first = s->vm_n == 0 || s->vm_base || s->vm_every_full;

	if (slurp(s, "/proc/vmstat", &sb)) {
		set_missing(s, SRC_VMSTAT, "%s", strerror(errno));
		strbuf_release(&sb);
		return;
	}
	set_present(s, SRC_VMSTAT);
	lines_begin(l, "vmstat", s->seq, NULL);
	for (line = strtok_r(sb.buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char name[128], v[VM_VALUE_MAX];
		const char *w, *vp;
		size_t wl, vl;

		if (!word_text(line, &w, &wl, &vp, &vl) || wl >= sizeof(name) ||
		    vl >= sizeof(v))
			continue;
		memcpy(name, w, wl);
		name[wl] = '\0';
		memcpy(v, vp, vl);
		v[vl] = '\0';
		if (i < s->vm_n && !strcmp(s->vm_names[i], name)) {
			if (!first && !strcmp(s->vm_values[i], v)) {
				i++;
				continue;
			}
		} else {
			/* a field appeared: keep the table in file order from here */
			s->vm_names = xreallocarray(s->vm_names, i + 1 > s->vm_n ? i + 1 : s->vm_n,
						    sizeof(*s->vm_names));
			s->vm_values = xreallocarray(s->vm_values, i + 1 > s->vm_n ? i + 1 : s->vm_n,
						     sizeof(*s->vm_values));
			if (i < s->vm_n)
				free(s->vm_names[i]);
			else
				s->vm_n = i + 1;
			s->vm_names[i] = xstrdup(name);
		}
		memcpy(s->vm_values[i++], v, sizeof(v));
		lines_kv(l, name, v);
	}
	lines_flush(l);
	strbuf_release(&sb);
}

struct zone_acc {
	int active;
	char node[16], zone[32];
	long long free, min, low, high, promo, boost, managed, spanned, present, blocks;
	int has_promo, has_blocks;
};

static void zone_emit(struct sampler *s, struct lines *l, struct zone_acc *z)
{
	char ids[80];

	if (!z->active || z->present <= 0)
		goto out;
	snprintf(ids, sizeof(ids), "node=%s zone=%s", z->node, z->zone);
	lines_begin(l, "zone", s->seq, ids);
	lines_kv_ll(l, "free", z->free);
	lines_kv_ll(l, "min", z->min);
	lines_kv_ll(l, "low", z->low);
	lines_kv_ll(l, "high", z->high);
	if (z->has_promo)
		lines_kv_ll(l, "promo", z->promo);
	lines_kv_ll(l, "boost", z->boost);
	lines_kv_ll(l, "managed", z->managed);
	lines_kv_ll(l, "spanned", z->spanned);
	if (z->has_blocks)
		lines_kv_ll(l, "free_blocks", z->blocks);
	lines_flush(l);
out:
	memset(z, 0, sizeof(*z));
}

static void src_zone(struct sampler *s, struct lines *l)
{
	struct strbuf sb = STRBUF_INIT;
	struct zone_acc z = { 0 };
	char *line, *save = NULL;

	if (slurp(s, "/proc/zoneinfo", &sb)) {
		set_missing(s, SRC_ZONE, "%s", strerror(errno));
		strbuf_release(&sb);
		return;
	}
	set_present(s, SRC_ZONE);
	for (line = strtok_r(sb.buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		const char *a;
		size_t al;
		long long v;

		if (!strncmp(line, "Node ", 5)) {
			zone_emit(s, l, &z);
			if (sscanf(line, "Node %15[^,], zone %31s", z.node, z.zone) == 2)
				z.active = 1;
			continue;
		}
		if (!z.active)
			continue;
		const char *t = line + strspn(line, " \t");

		if (!strncmp(t, "pages free", 10) && word_num(t + 5, &a, &al, &v))
			z.free = v;
		else if (word_num(line, &a, &al, &v)) {
			if (word_is(a, al, "min")) z.min = v;
			else if (word_is(a, al, "low")) z.low = v;
			else if (word_is(a, al, "high")) z.high = v;
			else if (word_is(a, al, "promo")) { z.promo = v; z.has_promo = 1; }
			else if (word_is(a, al, "boost")) z.boost = v;
			else if (word_is(a, al, "managed")) z.managed = v;
			else if (word_is(a, al, "spanned")) z.spanned = v;
			else if (word_is(a, al, "present")) z.present = v;
			else if (word_is(a, al, "nr_free_pages_blocks")) { z.blocks = v; z.has_blocks = 1; }
		}
	}
	zone_emit(s, l, &z);
	strbuf_release(&sb);
}

/* "Node 0, zone   Normal[, type Movable]  1 2 3 ..." -> ids and a list */
static void counts_line(struct sampler *s, struct lines *l, const char *source,
			char *line, int with_type)
{
	char node[16], zone[32], type[32] = "", ids[128];
	struct strbuf list = STRBUF_INIT;
	char *p, *tok, *save = NULL;
	int n;

	if (with_type) {
		if (sscanf(line, "Node %15[^,], zone %31[^,], type %31s%n", node, zone, type, &n) != 3)
			return;
	} else if (sscanf(line, "Node %15[^,], zone %31s%n", node, zone, &n) != 2) {
		return;
	}
	clean_value(node);
	clean_value(zone);
	p = line + n;
	for (tok = strtok_r(p, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
		if (*tok == '>')	/* pagetypeinfo caps counts at 100000 */
			tok++;
		strbuf_addf(&list, "%s%s", list.len ? "," : "", tok);
	}
	if (with_type)
		snprintf(ids, sizeof(ids), "node=%s zone=%s type=%s", node, zone, type);
	else
		snprintf(ids, sizeof(ids), "node=%s zone=%s", node, zone);
	lines_begin(l, source, s->seq, ids);
	lines_kv(l, "free", list.buf ? list.buf : "");
	lines_flush(l);
	strbuf_release(&list);
}

static void src_buddy(struct sampler *s, struct lines *l)
{
	struct strbuf sb = STRBUF_INIT;
	char *line, *save = NULL;

	if (slurp(s, "/proc/buddyinfo", &sb)) {
		set_missing(s, SRC_BUDDY, "%s", strerror(errno));
		strbuf_release(&sb);
		return;
	}
	set_present(s, SRC_BUDDY);
	for (line = strtok_r(sb.buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		counts_line(s, l, "buddy", line, 0);
	strbuf_release(&sb);
}

static uint64_t now_us(void);

static void src_pagetype(struct sampler *s, struct lines *l)
{
	struct strbuf sb = STRBUF_INIT;
	char *line, *save = NULL;
	uint64_t now = now_us();

	if (!s->full && s->pagetype_us && now - s->pagetype_us < SAMPLER_PAGETYPE_MS * 1000ull)
		return;
	s->pagetype_us = now;
	if (slurp(s, "/proc/pagetypeinfo", &sb)) {
		set_missing(s, SRC_PAGETYPE, "%s", errno == EACCES ?
			    "permission_denied_(root_only)" : strerror(errno));
		strbuf_release(&sb);
		return;
	}
	set_present(s, SRC_PAGETYPE);
	for (line = strtok_r(sb.buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (!strncmp(line, "Node", 4) && strstr(line, ", type"))
			counts_line(s, l, "pagetype", line, 1);
	strbuf_release(&sb);
}

/* The regular files of dir, listed once (again while it is empty). */
static const struct sdir *list_dir(struct sampler *s, const char *dir)
{
	struct sdir *d = NULL;
	DIR *dd;
	struct dirent *de;

	for (size_t i = 0; i < s->ndirs; i++)
		if (!strcmp(s->dirs[i].path, dir)) {
			d = &s->dirs[i];
			break;
		}
	if (!d) {
		s->dirs = xreallocarray(s->dirs, s->ndirs + 1, sizeof(*s->dirs));
		d = &s->dirs[s->ndirs++];
		d->path = xstrdup(dir);
		d->names = NULL;
		d->n = 0;
	}
	if (d->n || !(dd = opendir(dir)))
		return d;
	while ((de = readdir(dd))) {
		char *p;
		struct stat st;

		if (de->d_name[0] == '.')
			continue;
		p = xasprintf("%s/%s", dir, de->d_name);
		if (!stat(p, &st) && S_ISREG(st.st_mode)) {
			d->names = xreallocarray(d->names, d->n + 1, sizeof(*d->names));
			d->names[d->n++] = p;	/* the full path */
		} else {
			free(p);
		}
	}
	closedir(dd);
	return d;
}

/* Every regular file of dir as KEY=VALUE (values cleaned). */
static void dir_kvs(struct sampler *s, struct lines *l, const char *dir)
{
	const struct sdir *d = list_dir(s, dir);
	struct strbuf v = STRBUF_INIT;

	for (size_t i = 0; i < d->n; i++) {
		const char *name = strrchr(d->names[i], '/') + 1;

		if (!sread(s, d->names[i], &v) && v.len) {
			clean_value(v.buf);
			if (*v.buf)
				lines_kv(l, name, v.buf);
		}
	}
	strbuf_release(&v);
}

static int cmp_size_dirs(const void *a, const void *b)
{
	const char *x = strrchr(*(char *const *)a, '-'), *y = strrchr(*(char *const *)b, '-');
	long long u = x ? atoll(x + 1) : 0, w = y ? atoll(y + 1) : 0;

	return (u > w) - (u < w);
}

static void src_mthp(struct sampler *s, struct lines *l)
{
	struct strbuf v = STRBUF_INIT;
	glob_t *g = &s->mthp;

	if (!s->have_mthp) {	/* the sizes are the kernel's: found once */
		char *pat = rpath(s, "/sys/kernel/mm/transparent_hugepage/hugepages-*kB");

		if (glob(pat, 0, NULL, g) || !g->gl_pathc) {
			globfree(g);
			set_missing(s, SRC_MTHP, "%s", "no_/sys/kernel/mm/transparent_hugepage/hugepages-*");
			free(pat);
			return;
		}
		free(pat);
		qsort(g->gl_pathv, g->gl_pathc, sizeof(char *), cmp_size_dirs);
		s->have_mthp = 1;
	}
	set_present(s, SRC_MTHP);
	for (size_t i = 0; i < g->gl_pathc; i++) {
		const char *dash = strrchr(g->gl_pathv[i], '-');
		char ids[48], *p;

		snprintf(ids, sizeof(ids), "size=%lld", dash ? atoll(dash + 1) : 0);
		lines_begin(l, "mthp", s->seq, ids);
		p = xasprintf("%s/enabled", g->gl_pathv[i]);
		if (!sread(s, p, &v) && v.len) {
			clean_value(v.buf);
			lines_kv(l, "enabled", v.buf);
		}
		free(p);
		p = xasprintf("%s/stats", g->gl_pathv[i]);
		dir_kvs(s, l, p);
		free(p);
		lines_flush(l);
	}
	strbuf_release(&v);
}

/*
 * Why the zswap debugfs counters are missing while its parameters are
 * there: debugfs not mounted (an empty /sys/kernel/debug), not ours to
 * read, or mounted without a zswap directory (newer kernels make it when
 * zswap is first enabled).
 */
static const char *zswap_pool_reason(const struct sampler *s)
{
	char *d = rpath(s, "/sys/kernel/debug");
	DIR *dir = opendir(d);
	const char *why = "debugfs_not_mounted";
	struct dirent *e;

	if (!dir && errno == EACCES)
		why = "debugfs_not_readable_(root_only)";
	while (dir && (e = readdir(dir)) != NULL)
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			why = "no_/sys/kernel/debug/zswap";
			break;
		}
	if (dir)
		closedir(dir);
	free(d);
	return why;
}

static void src_zswap(struct sampler *s, struct lines *l)
{
	static const char *const params[] = {
		"enabled", "max_pool_percent", "compressor", "zpool", "shrinker_enabled",
		"accept_threshold_percent",
	};
	char *dbg = rpath(s, "/sys/kernel/debug/zswap");
	char *par = rpath(s, "/sys/module/zswap/parameters");
	struct strbuf v = STRBUF_INIT;

	if (access(par, F_OK) && access(dbg, F_OK)) {
		set_missing(s, SRC_ZSWAP, "%s", "no_zswap_in_this_kernel");
		goto out;
	}
	set_present(s, SRC_ZSWAP);
	free(s->pool_why);
	s->pool_why = access(dbg, F_OK) ? xstrdup(zswap_pool_reason(s)) : NULL;
	lines_begin(l, "zswap", s->seq, NULL);
	for (size_t i = 0; i < ARRAY_SIZE(params); i++) {
		char *p = xasprintf("%s/%s", par, params[i]);

		strbuf_reset(&v);
		if (!sread(s, p, &v) && v.len) {
			clean_value(v.buf);
			lines_kv(l, params[i], v.buf);
		}
		free(p);
	}
	/* debugfs counters exist only once zswap was enabled (and debugfs mounted) */
	dir_kvs(s, l, dbg);
	lines_flush(l);
out:
	free(dbg);
	free(par);
	strbuf_release(&v);
}

static void src_psi(struct sampler *s, struct lines *l)
{
	struct strbuf sb = STRBUF_INIT;
	char *line, *save = NULL;

	if (slurp(s, "/proc/pressure/memory", &sb)) {
		set_missing(s, SRC_PSI, "%s", errno == EOPNOTSUPP ?
			    "PSI_disabled_(boot_with_psi=1)" : "no_/proc/pressure/memory");
		strbuf_release(&sb);
		return;
	}
	set_present(s, SRC_PSI);
	lines_begin(l, "psi", s->seq, NULL);
	for (line = strtok_r(sb.buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char kind[8];
		double a10, a60, a300;
		long long total;
		char key[32], val[32];

		if (sscanf(line, "%7s avg10=%lf avg60=%lf avg300=%lf total=%lld", kind, &a10,
			   &a60, &a300, &total) != 5)
			continue;
		snprintf(key, sizeof(key), "%s_avg10", kind);
		snprintf(val, sizeof(val), "%.2f", a10);
		lines_kv(l, key, val);
		snprintf(key, sizeof(key), "%s_avg60", kind);
		snprintf(val, sizeof(val), "%.2f", a60);
		lines_kv(l, key, val);
		snprintf(key, sizeof(key), "%s_avg300", kind);
		snprintf(val, sizeof(val), "%.2f", a300);
		lines_kv(l, key, val);
		snprintf(key, sizeof(key), "%s_total", kind);
		lines_kv_ll(l, key, total);
	}
	lines_flush(l);
	strbuf_release(&sb);
}

/* rotational and in-flight I/O of a block device, by /proc/swaps path. */
static void swap_blockdev(struct sampler *s, struct lines *l, const char *dev)
{
	const char *name = strrchr(dev, '/');
	struct strbuf v = STRBUF_INIT;
	char *p;
	unsigned long long r, w;

	if (!name)
		return;
	name++;
	p = xasprintf("%s/sys/class/block/%s/queue/rotational", s->root, name);
	if (sread(s, p, &v)) {	/* a partition: the queue is its parent's */
		free(p);
		p = xasprintf("%s/sys/class/block/%s/../queue/rotational", s->root, name);
		strbuf_reset(&v);
		sread(s, p, &v);
	}
	if (v.len) {
		clean_value(v.buf);
		lines_kv(l, "rotational", v.buf);
	}
	free(p);
	strbuf_reset(&v);
	p = xasprintf("%s/sys/class/block/%s/inflight", s->root, name);
	if (!sread(s, p, &v) && sscanf(v.buf, "%llu %llu", &r, &w) == 2) {
		lines_kv_ll(l, "inflight_r", (long long)r);
		lines_kv_ll(l, "inflight_w", (long long)w);
	}
	free(p);
	strbuf_release(&v);
}

static void src_swap(struct sampler *s, struct lines *l)
{
	struct strbuf sb = STRBUF_INIT;
	char *line, *save = NULL;

	if (slurp(s, "/proc/swaps", &sb)) {
		set_missing(s, SRC_SWAP, "%s", "no_/proc/swaps_(kernel_without_swap)");
		strbuf_release(&sb);
		return;
	}
	set_present(s, SRC_SWAP);
	for (line = strtok_r(sb.buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char dev[512], type[32], ids[600];
		long long size, used, prio;

		if (sscanf(line, "%511s %31s %lld %lld %lld", dev, type, &size, &used, &prio) != 5)
			continue;	/* the header */
		snprintf(ids, sizeof(ids), "dev=%s", dev);
		lines_begin(l, "swap", s->seq, ids);
		lines_kv(l, "type", type);
		lines_kv_ll(l, "size", size);
		lines_kv_ll(l, "used", used);
		lines_kv_ll(l, "prio", prio);
		if (!strcmp(type, "partition"))
			swap_blockdev(s, l, dev);
		lines_flush(l);
	}
	strbuf_release(&sb);
}

static char *resolve_cgroup(const struct sampler *s, const char *arg)
{
	static const char *const bases[] = {
		"", "/sys/fs/cgroup/memory", "/sys/fs/cgroup", "/sys/fs/cgroup/unified",
	};

	for (size_t i = 0; i < ARRAY_SIZE(bases); i++) {
		char *d = xasprintf("%s%s%s%s/memory.stat", s->root, bases[i],
				    arg[0] == '/' ? "" : "/", arg);

		if (!access(d, R_OK)) {
			*strrchr(d, '/') = '\0';
			return d;
		}
		free(d);
	}
	return NULL;
}

int sampler_cgroup_exists(const char *arg)
{
	char none[] = "";
	struct sampler s = { .root = none };
	char *d = resolve_cgroup(&s, arg);

	free(d);
	return d != NULL;
}

/* One file's number (or v2's "max") as KEY; nothing when absent. */
static void memcg_file(struct sampler *s, struct lines *l, const char *file,
		       const char *key)
{
	struct strbuf sb = STRBUF_INIT;
	char *p = xasprintf("%s/%s", s->cgroup, file);
	long long v;

	if (!sread(s, p, &sb) && sb.buf) {
		if (sscanf(sb.buf, "%lld", &v) == 1)
			lines_kv_ll(l, key, v);
		else if (!strncmp(sb.buf, "max", 3))
			lines_kv(l, key, "max");
	}
	free(p);
	strbuf_release(&sb);
}

/* "name value" lines of a flat keyed file as PREFIX_name (only those in
 * want, NULL-terminated). */
static void memcg_keyed(struct sampler *s, struct lines *l, const char *file,
			const char *prefix, const char *const *want)
{
	struct strbuf sb = STRBUF_INIT;
	char *p = xasprintf("%s/%s", s->cgroup, file), *line, *save = NULL;

	if (!sread(s, p, &sb) && sb.buf)
		for (line = strtok_r(sb.buf, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save)) {
			char name[64], key[96];
			long long v;

			if (sscanf(line, "%63s %lld", name, &v) != 2)
				continue;
			for (const char *const *w = want; *w; w++)
				if (!strcmp(*w, name)) {
					snprintf(key, sizeof(key), "%s%s", prefix, name);
					lines_kv_ll(l, key, v);
				}
		}
	free(p);
	strbuf_release(&sb);
}

/*
 * The memcg's limits, peaks and events (man/mmscope-samples.5): cgroup
 * v1's memsw and max_usage files and memory.oom_control's oom_kill, or
 * v2's memory.high/low/min/swap.max, memory.peak, memory.swap.* and
 * memory.events. A file the kernel lacks gives no key.
 */
static void memcg_limits(struct sampler *s, struct lines *l)
{
	static const char *const v1_oom[] = { "oom_kill", NULL };
	static const char *const v2_events[] = {
		"low", "high", "max", "oom", "oom_kill", "oom_group_kill", NULL,
	};
	static const struct { const char *file, *key; } files[] = {
		/* v1 */
		{ "memory.memsw.limit_in_bytes", "memsw_limit" },
		{ "memory.memsw.usage_in_bytes", "memsw_usage" },
		{ "memory.max_usage_in_bytes", "peak" },
		{ "memory.memsw.max_usage_in_bytes", "memsw_peak" },
		{ "memory.failcnt", "failcnt" },
		/* v2 */
		{ "memory.high", "high" },
		{ "memory.low", "low" },
		{ "memory.min", "min" },
		{ "memory.swap.max", "swap_max" },
		{ "memory.peak", "peak" },
		{ "memory.swap.current", "swap_usage" },
		{ "memory.swap.peak", "swap_peak" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(files); i++)
		memcg_file(s, l, files[i].file, files[i].key);
	memcg_keyed(s, l, "memory.oom_control", "events_", v1_oom);
	memcg_keyed(s, l, "memory.events", "events_", v2_events);
}

static void src_memcg(struct sampler *s, struct lines *l)
{
	struct strbuf sb = STRBUF_INIT;
	char *line, *save = NULL, *ids;
	char *p;

	if (!s->cgroup_arg)
		return;
	if (!s->cgroup)
		s->cgroup = resolve_cgroup(s, s->cgroup_arg);
	if (!s->cgroup) {
		set_missing(s, SRC_MEMCG, "no_memory.stat_for_%s", s->cgroup_arg);
		return;
	}
	p = xasprintf("%s/memory.stat", s->cgroup);
	if (sread(s, p, &sb)) {
		set_missing(s, SRC_MEMCG, "%s", strerror(errno));
		free(p);
		strbuf_release(&sb);
		return;
	}
	free(p);
	set_present(s, SRC_MEMCG);
	ids = xasprintf("path=%s", s->cgroup_arg);
	clean_value(ids);
	lines_begin(l, "memcg", s->seq, ids);
	free(ids);
	for (line = strtok_r(sb.buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char key[128];
		long long v;

		if (sscanf(line, "%127s %lld", key, &v) == 2)
			lines_kv_ll(l, key, v);
	}
	for (int which = 0; which < 2; which++) {
		static const char *const files[2][2] = {
			{ "memory.usage_in_bytes", "memory.current" },
			{ "memory.limit_in_bytes", "memory.max" },
		};
		for (int f = 0; f < 2; f++) {
			long long v;

			p = xasprintf("%s/%s", s->cgroup, files[which][f]);
			strbuf_reset(&sb);
			if (!sread(s, p, &sb) && sscanf(sb.buf, "%lld", &v) == 1) {
				lines_kv_ll(l, which ? "limit" : "usage", v);
				free(p);
				break;
			}
			if (which && sb.buf && !strncmp(sb.buf, "max", 3))
				lines_kv(l, "limit", "max");	/* v2: no limit */
			free(p);
		}
	}
	memcg_limits(s, l);
	lines_flush(l);
	strbuf_release(&sb);
}

/* ---- sets ---- */

struct sampler *sampler_new(const struct sampler_opts *o)
{
	struct sampler *s = xcalloc(1, sizeof(*s));

	s->root = xstrdup(o && o->root ? o->root : "");
	if (o && o->cgroup)
		s->cgroup_arg = xstrdup(o->cgroup);
	s->vm_every_full = o && o->every_set_full;
	return s;
}

void sampler_free(struct sampler *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->vm_n; i++)
		free(s->vm_names[i]);
	free(s->vm_names);
	free(s->vm_values);
	for (int i = 0; i < SRC_COUNT; i++)
		free(s->why[i]);
	free(s->pool_why);
	for (size_t i = 0; i < s->nfiles; i++) {
		if (s->files[i].fd >= 0)
			close(s->files[i].fd);
		free(s->files[i].path);
	}
	free(s->files);
	for (size_t i = 0; i < s->ndirs; i++) {
		for (size_t j = 0; j < s->dirs[i].n; j++)
			free(s->dirs[i].names[j]);
		free(s->dirs[i].names);
		free(s->dirs[i].path);
	}
	free(s->dirs);
	if (s->have_mthp)
		globfree(&s->mthp);
	strbuf_release(&s->sources);
	strbuf_release(&s->missing);
	free(s->root);
	free(s->cgroup);
	free(s->cgroup_arg);
	free(s);
}

static uint64_t now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

static void note_sources(struct sampler *s)
{
	strbuf_reset(&s->sources);
	strbuf_reset(&s->missing);
	for (int i = 0; i < SRC_COUNT; i++) {
		if (i == SRC_MEMCG && !s->cgroup_arg)
			continue;
		if (s->why[i])
			strbuf_addf(&s->missing, "%s%s", s->missing.len ? "," : "", source_names[i]);
		else
			strbuf_addf(&s->sources, "%s%s", s->sources.len ? "," : "", source_names[i]);
	}
}

static void emit_missing(struct sampler *s, struct lines *l)
{
	if (s->missing_written || (!s->missing.len && !s->pool_why))
		return;
	s->missing_written = 1;
	lines_begin(l, "missing", s->seq, NULL);
	if (s->missing.len)
		lines_kv(l, "sources", s->missing.buf);
	for (int i = 0; i < SRC_COUNT; i++) {
		char key[48];

		if (!s->why[i] || (i == SRC_MEMCG && !s->cgroup_arg))
			continue;
		snprintf(key, sizeof(key), "why_%s", source_names[i]);
		lines_kv(l, key, s->why[i]);
	}
	if (s->pool_why)	/* a part of a source: not in sources */
		lines_kv(l, "why_zswap_pool", s->pool_why);
	lines_flush(l);
}

static int run_set(struct sampler *s, sampler_emit_fn emit, void *ctx);

int sampler_run(struct sampler *s, sampler_emit_fn emit, void *ctx)
{
	s->full = 1;
	return run_set(s, emit, ctx);
}

int sampler_run_routine(struct sampler *s, sampler_emit_fn emit, void *ctx)
{
	s->full = 0;
	return run_set(s, emit, ctx);
}

static int run_set(struct sampler *s, sampler_emit_fn emit, void *ctx)
{
	struct lines l = { .emit = emit, .ctx = ctx };
	uint64_t t0 = now_us();

	src_vmstat(s, &l);
	s->vm_base = 0;
	src_zone(s, &l);
	src_buddy(s, &l);
	src_pagetype(s, &l);
	src_mthp(s, &l);
	src_zswap(s, &l);
	src_psi(s, &l);
	src_swap(s, &l);
	src_memcg(s, &l);
	note_sources(s);
	if (s->seq == 0)
		emit_missing(s, &l);
	else
		s->missing_written = 1;
	lines_begin(&l, "end", s->seq, NULL);
	lines_kv_ll(&l, "us", (long long)(now_us() - t0));
	lines_flush(&l);
	strbuf_release(&l.line);
	s->seq++;
	return l.failed ? -1 : l.count;
}

void sampler_new_file(struct sampler *s)
{
	s->vm_base = 1;
}

uint64_t sampler_sets(const struct sampler *s)
{
	return s->seq;
}

const char *sampler_sources(const struct sampler *s)
{
	return s->sources.buf ? s->sources.buf : "";
}

const char *sampler_missing(const struct sampler *s)
{
	return s->missing.buf ? s->missing.buf : "";
}

long long sampler_vmstat(const struct sampler *s, const char *name)
{
	for (size_t i = 0; i < s->vm_n; i++)
		if (!strcmp(s->vm_names[i], name))
			return strtoll(s->vm_values[i], NULL, 10);
	return -1;
}

static int discard(void *ctx, const char *line, size_t len)
{
	(void)ctx;
	(void)line;
	(void)len;
	return 0;
}

int sampler_check(const struct sampler_opts *o, struct sampler_probe *out, int max)
{
	struct sampler *s = sampler_new(o);
	int n = 0;

	sampler_run(s, discard, NULL);
	for (int i = 0; i < SRC_COUNT && n < max; i++) {
		if (i == SRC_MEMCG && !s->cgroup_arg)
			continue;
		out[n].source = source_names[i];
		out[n].available = !s->why[i];
		snprintf(out[n].why, sizeof(out[n].why), "%s", s->why[i] ? s->why[i] : "");
		n++;
	}
	sampler_free(s);
	return n;
}
