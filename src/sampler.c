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
#include "task-snapshot.h"
#include "runctx.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

enum source {
	SRC_VMSTAT, SRC_ZONE, SRC_BUDDY, SRC_PAGETYPE, SRC_MTHP, SRC_ZSWAP,
	SRC_PSI, SRC_SWAP, SRC_MEMCG, SRC_MEMCGS, SRC_TASKS, SRC_COUNT
};

static const char *const source_names[SRC_COUNT] = {
	"vmstat", "zone", "buddy", "pagetype", "mthp", "zswap", "psi", "swap", "memcg",
	"memcgs", "tasks",
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
	int tasks;		/* the tasks source (sampler_opts.tasks) */
	/* --cgroups: the memcgs below the root, sorted by directory */
	char *cgroups_arg;
	char *cgroups_dir;	/* resolved, root prefix included */
	size_t cgroups_max;
	struct mcg *mcgs;
	size_t nmcg;
	uint64_t mcg_scan_us;	/* when the tree was last walked */
	int mcg_scanned, mcg_truncated;
	uint64_t mcg_gen;	/* walks so far */
	size_t mcg_fds, mcg_fd_cap;	/* descriptors kept open, and how many may be */
	size_t mcg_sampled, mcg_other;	/* of the last set */
	/* sampler_run_boundary's set, kept for sampler_repeat: each line
	 * after its "mms1 SOURCE SEQ" (SOURCE, then the rest), NUL-separated,
	 * the end line left out; kept_seq its SEQ, kept_ok whether it was
	 * written whole */
	struct strbuf kept;
	int kept_n, kept_ok;
	uint64_t kept_seq;
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

static uint64_t now_us(void);

/* ---- memcgs: every memory cgroup under --cgroups ROOT ---- */

/*
 * The tree is walked again at most every SAMPLER_CGROUPS_RESCAN_MS (and
 * in every full set: the first, the last, a trigger's, a new file's):
 * walking it opens every directory, which on cgroupfs costs about as much
 * as sampling the cgroups (10 us per open against 1 us per read of a
 * kept file), so doing it every set would double the cost on a host of
 * mostly idle cgroups. A cgroup made meanwhile appears within that time;
 * one removed disappears at once (its kept files then fail to read).
 */
#define SAMPLER_CGROUPS_RESCAN_MS 5000
/* at most this many directories below the root are followed (memory is
 * bounded by the tree, not by the host) */
#define SAMPLER_CGROUPS_SCAN_MAX 16384
/* an encoded path longer than this leaves no room for values in a line:
 * such a cgroup is summed into the other line */
#define SAMPLER_CGROUP_PATH_MAX 600

enum mcg_file {
	/* v1 */
	MF_V1_USAGE, MF_V1_LIMIT, MF_V1_PEAK, MF_V1_FAILCNT, MF_V1_MEMSW_USAGE,
	MF_V1_MEMSW_LIMIT, MF_V1_MEMSW_PEAK, MF_V1_OOM,
	/* v2 */
	MF_V2_CURRENT, MF_V2_MAX, MF_V2_HIGH, MF_V2_LOW, MF_V2_MIN, MF_V2_PEAK,
	MF_V2_SWAP_CURRENT, MF_V2_SWAP_PEAK, MF_V2_SWAP_MAX, MF_V2_EVENTS, MF_V2_PRESSURE,
	/* both */
	MF_STAT,
	MF_NR
};

/* each file and the key of its one number (NULL: a keyed file) */
static const struct { const char *file, *key; } mcg_files[MF_NR] = {
	{ "memory.usage_in_bytes", "usage" },
	{ "memory.limit_in_bytes", "limit" },
	{ "memory.max_usage_in_bytes", "peak" },
	{ "memory.failcnt", "failcnt" },
	{ "memory.memsw.usage_in_bytes", "memsw_usage" },
	{ "memory.memsw.limit_in_bytes", "memsw_limit" },
	{ "memory.memsw.max_usage_in_bytes", "memsw_peak" },
	{ "memory.oom_control", NULL },
	{ "memory.current", "usage" },
	{ "memory.max", "limit" },
	{ "memory.high", "high" },
	{ "memory.low", "low" },
	{ "memory.min", "min" },
	{ "memory.peak", "peak" },
	{ "memory.swap.current", "swap_usage" },
	{ "memory.swap.peak", "swap_peak" },
	{ "memory.swap.max", "swap_max" },
	{ "memory.events", NULL },
	{ "memory.pressure", NULL },
	{ "memory.stat", NULL },
};

#define MCG_FD_NONE (-1)	/* not opened yet */
#define MCG_FD_ABSENT (-2)	/* the kernel has no such file in this cgroup */

struct mcg {
	char *dir;		/* root prefix included */
	char *ids;		/* "path=ENCODED" */
	int memcg;		/* 0: a v2 cgroup without the memory controller */
	int v2;
	int root;		/* the --cgroups ROOT itself */
	int fd[MF_NR];
	int have_usage;
	unsigned long long usage;
	int gone;
	uint64_t limits_gen;	/* the walk its limits were last read after */
};

static void mcg_close(struct sampler *s, struct mcg *c)
{
	for (int f = 0; f < MF_NR; f++)
		if (c->fd[f] >= 0) {
			close(c->fd[f]);
			s->mcg_fds--;
		}
	free(c->dir);
	free(c->ids);
}

/*
 * File f of cgroup c into sb: 0; 1 when the cgroup has no such file; -1
 * when it cannot be read (the cgroup was removed: ENODEV). Files stay
 * open while s->mcg_fd_cap allows (a quarter of the descriptors the
 * process may have: the recorder needs the rest for its spool), beyond
 * that each read opens and closes (ten times the cost, still right).
 */
static int mcg_read(struct sampler *s, struct mcg *c, int f, struct strbuf *sb)
{
	size_t got = 0;

	strbuf_reset(sb);
	if (c->fd[f] == MCG_FD_ABSENT)
		return 1;
	if (c->fd[f] < 0) {
		char *p = xasprintf("%s/%s", c->dir, mcg_files[f].file);
		int fd, e;

		if (s->mcg_fds >= s->mcg_fd_cap) {
			e = read_file(p, sb) ? errno : 0;
			free(p);
			if (e == ENOENT)
				c->fd[f] = MCG_FD_ABSENT;
			return e == ENOENT ? 1 : e ? -1 : 0;
		}
		fd = open(p, O_RDONLY | O_CLOEXEC);
		e = errno;
		free(p);
		if (fd < 0) {
			if (e != ENOENT)
				return -1;
			c->fd[f] = MCG_FD_ABSENT;
			return 1;
		}
		c->fd[f] = fd;
		s->mcg_fds++;
	}
	for (;;) {
		ssize_t n;
		size_t room;

		strbuf_grow(sb, 8192);
		room = sb->alloc - 1 - got;
		n = pread(c->fd[f], sb->buf + got, room, (off_t)got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		got += (size_t)n;
		sb->len = got;
		sb->buf[got] = '\0';
		/*
		 * A cgroup file is one seq_file record, made whole by one
		 * show(): a read that did not fill the buffer has all of it.
		 * Reading on to the 0 of the end is one more system call
		 * per file (a ninth of them with --cgroups).
		 */
		if ((size_t)n < room)
			break;
	}
	return 0;
}

/* The file's one number, or v2's "max", as KEY; nothing when it is not. */
static void mcg_number(struct lines *l, const char *key, struct strbuf *sb)
{
	char *p = sb->buf;
	size_t n = 0;

	if (!p)
		return;
	while (p[n] >= '0' && p[n] <= '9')
		n++;
	if (!n && !strncmp(p, "max", 3))
		n = 3;
	if (!n || (p[n] && p[n] != '\n'))
		return;
	p[n] = '\0';
	lines_kv(l, key, p);
}

/* "name value" lines of a keyed file as PREFIXname=value, every name. */
static void mcg_keyed(struct lines *l, const char *prefix, struct strbuf *sb,
		      const char *only)
{
	char *line, *save = NULL;

	if (!sb->buf)
		return;
	for (line = strtok_r(sb->buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		const char *w, *v;
		size_t wlen, vlen;
		char key[96], val[32];

		if (!word_text(line, &w, &wlen, &v, &vlen) || vlen >= sizeof(val) ||
		    strlen(prefix) + wlen >= sizeof(key))
			continue;
		if (only && !word_is(w, wlen, only) && !word_is(w, wlen, "under_oom"))
			continue;
		if (only && word_is(w, wlen, "under_oom"))
			snprintf(key, sizeof(key), "under_oom");
		else
			snprintf(key, sizeof(key), "%s%.*s", prefix, (int)wlen, w);
		memcpy(val, v, vlen);
		val[vlen] = '\0';
		lines_kv(l, key, val);
	}
}

/* memory.pressure: "some avg10=0.00 avg60=0.00 avg300=0.00 total=12"
 * as psi_some_avg10 ... psi_some_total (us), the same for full. */
static void mcg_pressure(struct lines *l, struct strbuf *sb)
{
	char *line, *save = NULL;

	if (!sb->buf)
		return;
	for (line = strtok_r(sb->buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *kind = line, *sp = strchr(line, ' '), *w, *wsave = NULL;

		if (!sp || (strncmp(kind, "some ", 5) && strncmp(kind, "full ", 5)))
			continue;
		*sp = '\0';
		for (w = strtok_r(sp + 1, " ", &wsave); w; w = strtok_r(NULL, " ", &wsave)) {
			char *eq = strchr(w, '='), key[48];

			if (!eq || eq == w || !eq[1] || (size_t)(eq - w) > 16)
				continue;
			*eq = '\0';
			snprintf(key, sizeof(key), "psi_%s_%s", kind, w);
			lines_kv(l, key, eq + 1);
		}
	}
}

/* Limits: settings that rarely change (see mcg_emit). */
static int mcg_is_limit(int f)
{
	return f == MF_V1_LIMIT || f == MF_V1_MEMSW_LIMIT || f == MF_V2_MAX ||
	       f == MF_V2_HIGH || f == MF_V2_LOW || f == MF_V2_MIN || f == MF_V2_SWAP_MAX;
}

/*
 * systemd-oomd adds the processes it killed in a cgroup to that cgroup's
 * user.oomd_kill xattr (a decimal count): oomd_kill=N when it is set; an
 * absent, unreadable or malformed one writes nothing.
 */
static void mcg_oomd(struct lines *l, const struct mcg *c)
{
	char v[32];
	ssize_t n = getxattr(c->dir, "user.oomd_kill", v, sizeof(v) - 1);

	if (n <= 0)
		return;
	v[n] = '\0';
	for (ssize_t i = 0; i < n; i++)
		if (v[i] < '0' || v[i] > '9')
			return;
	if (n > 19)	/* beyond what a signed 64-bit reader takes */
		return;
	lines_kv(l, "oomd_kill", v);
}

/*
 * One cgroup's lines. The limits are read only once after each walk of
 * the tree (the first and the last set, every SAMPLER_CGROUPS_RESCAN_MS;
 * or the first set after it that samples the cgroup alone):
 * an administrator's setting, not a counter, and each file read costs
 * about as much as the next (2-3 us of kernel time: at 200 cgroups the
 * reads are nine tenths of the sampler's time), so reading them every
 * set would cost a fifth more for values that do not move.
 */
static void mcg_emit(struct sampler *s, struct lines *l, struct mcg *c, struct strbuf *sb)
{
	int limits = c->limits_gen != s->mcg_gen;

	int first = c->v2 ? MF_V2_CURRENT : MF_V1_USAGE;
	int last = c->v2 ? MF_V2_PRESSURE : MF_V1_OOM;
	char *line, *save = NULL;

	lines_begin(l, "memcgs", s->seq, c->ids);
	if (c->have_usage) {
		char v[24];

		snprintf(v, sizeof(v), "%llu", c->usage);
		lines_kv(l, "usage", v);
	}
	for (int f = first + 1; f <= last; f++) {
		if ((!limits && mcg_is_limit(f)) || mcg_read(s, c, f, sb))
			continue;
		if (mcg_files[f].key)
			mcg_number(l, mcg_files[f].key, sb);
		else if (f == MF_V1_OOM)
			mcg_keyed(l, "events_", sb, "oom_kill");
		else if (f == MF_V2_EVENTS)
			mcg_keyed(l, "events_", sb, NULL);
		else if (f == MF_V2_PRESSURE)
			mcg_pressure(l, sb);
	}
	/* memory.stat as the kernel names it (v2's zswap and zswapped too) */
	if (!mcg_read(s, c, MF_STAT, sb))
		for (line = strtok_r(sb->buf, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save)) {
			const char *w, *v;
			size_t wlen, vlen;
			char key[96], val[32];

			if (!word_text(line, &w, &wlen, &v, &vlen) || wlen >= sizeof(key) ||
			    vlen >= sizeof(val))
				continue;
			memcpy(key, w, wlen);
			key[wlen] = '\0';
			memcpy(val, v, vlen);
			val[vlen] = '\0';
			lines_kv(l, key, val);
		}
	mcg_oomd(l, c);
	lines_flush(l);
	c->limits_gen = s->mcg_gen;
}

/* The path as the kernel names the cgroup (/proc/PID/cgroup): below the
 * mount of its hierarchy, "/" for the hierarchy's root; a directory under
 * none of the usual mounts keeps its whole path. */
static char *mcg_ids(const struct sampler *s, const char *dir)
{
	static const char *const mounts[] = {
		"/sys/fs/cgroup/memory", "/sys/fs/cgroup/unified", "/sys/fs/cgroup",
	};
	const char *p = dir + strlen(s->root);
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < ARRAY_SIZE(mounts); i++) {
		size_t n = strlen(mounts[i]);

		if (!strncmp(p, mounts[i], n) && (p[n] == '/' || !p[n])) {
			p += n;
			break;
		}
	}
	/* one slash between names: a root given as "/" or with a
	 * trailing slash made "//child" */
	char *rel = xstrdup(p), *o = rel;

	for (const char *q = p; *q; q++)
		if (!(*q == '/' && o > rel && o[-1] == '/'))
			*o++ = *q;
	if (o - rel > 1 && o[-1] == '/')
		o--;
	*o = '\0';
	strbuf_addstr(&sb, "path=");
	if (!*rel || !strcmp(rel, "/"))
		strbuf_addstr(&sb, "/");
	else
		runctx_encode(rel, &sb);
	free(rel);
	return strbuf_detach(&sb, NULL);
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A new cgroup: which version, and its usage file opened (kept). */
static void mcg_init(struct sampler *s, struct mcg *c, char *dir)
{
	struct strbuf sb = STRBUF_INIT;

	memset(c, 0, sizeof(*c));
	c->dir = dir;
	c->ids = mcg_ids(s, dir);
	c->root = !strcmp(dir, s->cgroups_dir);
	for (int f = 0; f < MF_NR; f++)
		c->fd[f] = MCG_FD_NONE;
	c->memcg = 1;
	if (mcg_read(s, c, MF_V1_USAGE, &sb) == 1) {
		c->v2 = 1;
		/* v2's root has memory.stat but no memory.current; a cgroup
		 * whose parent did not enable the controller has neither */
		if (mcg_read(s, c, MF_V2_CURRENT, &sb) == 1 && mcg_read(s, c, MF_STAT, &sb) == 1)
			c->memcg = 0;
	}
	for (int f = 0; f < MF_NR && c->v2; f++)
		if (f < MF_V2_CURRENT)
			c->fd[f] = MCG_FD_ABSENT;
	for (int f = MF_V2_CURRENT; f < MF_STAT && !c->v2; f++)
		c->fd[f] = MCG_FD_ABSENT;
	strbuf_release(&sb);
}

/*
 * Walks the tree below the root (directories only: every one is a
 * cgroup) and merges it with the known list: new ones are added, those
 * that went away are dropped. Both lists sorted by directory.
 */
static void mcg_scan(struct sampler *s)
{
	char **found = NULL;
	size_t nfound = 0, afound = 0, next = 0;
	struct mcg *merged;
	size_t nm = 0, i = 0, j = 0;

	s->mcg_truncated = 0;
	found = xreallocarray(NULL, 16, sizeof(*found));
	afound = 16;
	found[nfound++] = xstrdup(s->cgroups_dir);
	/* breadth first: found[] is the queue */
	while (next < nfound) {
		DIR *d = opendir(found[next]);
		struct dirent *de;

		if (!d) {
			next++;
			continue;
		}
		while ((de = readdir(d)) != NULL) {
			if (de->d_name[0] == '.')
				continue;
			if (de->d_type == DT_UNKNOWN) {	/* a file system without d_type */
				struct stat st;
				char *p = xasprintf("%s/%s", found[next], de->d_name);
				int dir = !stat(p, &st) && S_ISDIR(st.st_mode);

				free(p);
				if (!dir)
					continue;
			} else if (de->d_type != DT_DIR) {
				continue;
			}
			if (nfound >= SAMPLER_CGROUPS_SCAN_MAX) {
				s->mcg_truncated = 1;
				break;
			}
			if (nfound == afound) {
				afound *= 2;
				found = xreallocarray(found, afound, sizeof(*found));
			}
			found[nfound++] = xasprintf("%s/%s", found[next], de->d_name);
		}
		closedir(d);
		next++;
	}
	qsort(found, nfound, sizeof(*found), str_cmp);
	merged = xreallocarray(NULL, nfound ? nfound : 1, sizeof(*merged));
	while (i < s->nmcg || j < nfound) {
		int c = i == s->nmcg ? 1 : j == nfound ? -1 : strcmp(s->mcgs[i].dir, found[j]);

		if (c < 0) {		/* gone */
			mcg_close(s, &s->mcgs[i++]);
		} else if (c == 0) {	/* still there */
			merged[nm++] = s->mcgs[i++];
			free(found[j++]);
		} else {		/* new */
			mcg_init(s, &merged[nm++], found[j++]);
		}
	}
	free(found);
	free(s->mcgs);
	s->mcgs = merged;
	s->nmcg = nm;
	s->mcg_scan_us = now_us();
	s->mcg_scanned = 1;
	s->mcg_gen++;
}

/* Sampling order: the root first, then by usage, largest first; usage
 * unknown last; ties by directory (stable sets for equal usage). */
static int mcg_rank(const void *a, const void *b)
{
	const struct mcg *x = *(const struct mcg *const *)a, *y = *(const struct mcg *const *)b;

	if (x->root != y->root)
		return x->root ? -1 : 1;
	if (x->have_usage != y->have_usage)
		return x->have_usage ? -1 : 1;
	if (x->usage != y->usage)
		return x->usage > y->usage ? -1 : 1;
	return strcmp(x->dir, y->dir);
}

static void src_memcgs(struct sampler *s, struct lines *l)
{
	struct strbuf sb = STRBUF_INIT;
	struct mcg **order;
	size_t n = 0, k, sampled = 0, other = 0, other_unknown = 0;
	unsigned long long other_usage = 0;

	if (!s->cgroups_arg)
		return;
	if (!s->cgroups_dir)
		s->cgroups_dir = resolve_cgroup(s, s->cgroups_arg);
	if (!s->cgroups_dir) {
		set_missing(s, SRC_MEMCGS, "no_memory.stat_for_%s", s->cgroups_arg);
		return;
	}
	if (s->full || !s->mcg_scanned ||
	    now_us() - s->mcg_scan_us >= SAMPLER_CGROUPS_RESCAN_MS * 1000ull)
		mcg_scan(s);
	/* every usage, then those removed since dropped (their kept files
	 * fail with ENODEV) */
	for (k = 0; k < s->nmcg; k++) {
		struct mcg *c = &s->mcgs[k];
		int r;

		if (!c->memcg)
			continue;
		r = mcg_read(s, c, c->v2 ? MF_V2_CURRENT : MF_V1_USAGE, &sb);
		c->have_usage = !r && sb.buf && sb.buf[0] >= '0' && sb.buf[0] <= '9';
		c->usage = c->have_usage ? strtoull(sb.buf, NULL, 10) : 0;
		c->gone = r < 0 || (r == 1 && !c->root);
	}
	for (k = 0; k < s->nmcg; k++) {
		if (s->mcgs[k].gone)
			mcg_close(s, &s->mcgs[k]);
		else
			s->mcgs[n++] = s->mcgs[k];
	}
	s->nmcg = n;
	order = xreallocarray(NULL, n ? n : 1, sizeof(*order));
	for (k = 0, n = 0; k < s->nmcg; k++)
		if (s->mcgs[k].memcg)
			order[n++] = &s->mcgs[k];
	if (!n && !s->mcg_truncated) {
		set_missing(s, SRC_MEMCGS, "no_memory_cgroup_under_%s", s->cgroups_arg);
		free(order);
		strbuf_release(&sb);
		return;
	}
	set_present(s, SRC_MEMCGS);
	qsort(order, n, sizeof(*order), mcg_rank);
	for (k = 0; k < n; k++) {
		struct mcg *c = order[k];

		if (sampled < s->cgroups_max && strlen(c->ids) <= SAMPLER_CGROUP_PATH_MAX) {
			mcg_emit(s, l, c, &sb);
			sampled++;
			continue;
		}
		other++;
		if (c->have_usage)
			other_usage += c->usage;
		else
			other_unknown++;
	}
	if (other || s->mcg_truncated) {
		/* not a cgroup: "(" never starts a cgroup's path */
		lines_begin(l, "memcgs", s->seq, "path=(other%20cgroups)");
		lines_kv_ll(l, "cgroups", (long long)other);
		if (!other_unknown) {
			char v[24];

			snprintf(v, sizeof(v), "%llu", other_usage);
			lines_kv(l, "usage", v);
		}
		if (s->mcg_truncated)
			lines_kv_ll(l, "scan_truncated", 1);
		lines_flush(l);
	}
	s->mcg_sampled = sampled;
	s->mcg_other = other;
	free(order);
	strbuf_release(&sb);
}

void sampler_cgroups_counts(const struct sampler *s, size_t *known, size_t *sampled,
			    size_t *other)
{
	size_t n = 0;

	for (size_t k = 0; k < s->nmcg; k++)
		n += s->mcgs[k].memcg;
	*known = n;
	*sampled = s->mcg_sampled;
	*other = s->mcg_other;
}

/* ---- sets ---- */

struct sampler *sampler_new(const struct sampler_opts *o)
{
	struct sampler *s = xcalloc(1, sizeof(*s));

	s->root = xstrdup(o && o->root ? o->root : "");
	if (o && o->cgroup)
		s->cgroup_arg = xstrdup(o->cgroup);
	if (o && o->cgroups) {
		struct rlimit rl;

		s->cgroups_arg = xstrdup(o->cgroups);
		s->cgroups_max = o->cgroups_max > 0 ? (size_t)o->cgroups_max : SAMPLER_CGROUPS_MAX;
		/* kept files: at most a quarter of the descriptors allowed */
		s->mcg_fd_cap = 256;
		if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur != RLIM_INFINITY)
			s->mcg_fd_cap = rl.rlim_cur / 4;
		else if (!getrlimit(RLIMIT_NOFILE, &rl))
			s->mcg_fd_cap = 65536;
	}
	s->vm_every_full = o && o->every_set_full;
	s->tasks = o && o->tasks;
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
	strbuf_release(&s->kept);
	free(s->root);
	free(s->cgroup);
	free(s->cgroup_arg);
	for (size_t i = 0; i < s->nmcg; i++)
		mcg_close(s, &s->mcgs[i]);
	free(s->mcgs);
	free(s->cgroups_arg);
	free(s->cgroups_dir);
	free(s);
}

/* ---- tasks: the largest by RSS + swap (task-snapshot.h) ---- */

static void src_tasks(struct sampler *s, struct lines *l)
{
	struct task_mem t[SAMPLER_TASKS];
	struct task_snapshot_stats st;
	struct strbuf enc = STRBUF_INIT;
	char ids[32];
	int n;

	if (!s->tasks)
		return;
	n = task_snapshot(s->root, t, SAMPLER_TASKS, &st);
	if (n < 0) {
		set_missing(s, SRC_TASKS, "no_/proc");
		return;
	}
	set_present(s, SRC_TASKS);
	for (int i = 0; i < n; i++) {
		snprintf(ids, sizeof(ids), "rank=%d", i);
		lines_begin(l, "tasks", s->seq, ids);
		lines_kv_ll(l, "pid", t[i].pid);
		strbuf_reset(&enc);
		runctx_encode(t[i].comm, &enc);
		lines_kv(l, "comm", enc.len ? enc.buf : "%00");
		lines_kv_ll(l, "rss_kb", t[i].rss_kb);
		if (t[i].swap_kb >= 0)
			lines_kv_ll(l, "swap_kb", t[i].swap_kb);
		lines_flush(l);
	}
	lines_begin(l, "tasks", s->seq, NULL);
	lines_kv_ll(l, "procs", (long long)st.procs);
	lines_kv_ll(l, "us", (long long)st.us);
	lines_flush(l);
	strbuf_release(&enc);
}

static uint64_t now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/* memcg and memcgs are sources only when --cgroup or --cgroups asked,
 * tasks only with the oom group */
static int source_asked(const struct sampler *s, int i)
{
	return i == SRC_MEMCG ? s->cgroup_arg != NULL :
	       i == SRC_MEMCGS ? s->cgroups_arg != NULL :
	       i == SRC_TASKS ? s->tasks : 1;
}

static void note_sources(struct sampler *s)
{
	strbuf_reset(&s->sources);
	strbuf_reset(&s->missing);
	for (int i = 0; i < SRC_COUNT; i++) {
		if (!source_asked(s, i))
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

		if (!s->why[i] || !source_asked(s, i))
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
	src_memcgs(s, &l);
	src_tasks(s, &l);
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

/* The emit of sampler_run_boundary: each line to the real emit, and all
 * but the end line kept (without "mms1 ", its SEQ taken out). */
struct keep_ctx {
	struct sampler *s;
	sampler_emit_fn emit;
	void *ctx;
};

static int keep_emit(void *ctx, const char *line, size_t len)
{
	struct keep_ctx *k = ctx;
	const char *src = line + 5, *sp, *rest;

	if (k->emit(k->ctx, line, len))
		return -1;
	/* "mms1 SOURCE SEQ[ rest]": the writer's own lines, always so */
	if (len < 5 || strncmp(line, "mms1 ", 5) || !(sp = memchr(src, ' ', len - 5)))
		return 0;
	if ((size_t)(sp - src) == 3 && !strncmp(src, "end", 3))
		return 0;
	rest = memchr(sp + 1, ' ', len - (size_t)(sp + 1 - line));
	strbuf_add(&k->s->kept, src, (size_t)(sp - src));
	if (rest)
		strbuf_add(&k->s->kept, rest, len - (size_t)(rest - line));
	strbuf_addch(&k->s->kept, '\0');
	k->s->kept_n++;
	return 0;
}

int sampler_run_boundary(struct sampler *s, sampler_emit_fn emit, void *ctx)
{
	struct keep_ctx k = { s, emit, ctx };
	int n;

	strbuf_reset(&s->kept);
	s->kept_n = 0;
	s->kept_seq = s->seq;
	s->vm_base = 1;		/* every vmstat field: the next file's first set */
	n = sampler_run(s, keep_emit, &k);
	s->kept_ok = n >= 0;
	return n;
}

int sampler_repeat(struct sampler *s, sampler_emit_fn emit, void *ctx)
{
	struct strbuf line = STRBUF_INIT;
	const char *p;
	int n = 0, failed = 0;

	if (!s->kept_ok) {	/* nothing whole to repeat: read afresh */
		sampler_new_file(s);
		return sampler_run(s, emit, ctx);
	}
	s->kept_ok = 0;		/* once */
	p = s->kept.buf;
	for (int i = 0; i < s->kept_n && !failed; i++, p += strlen(p) + 1) {
		size_t sl = strcspn(p, " ");

		strbuf_reset(&line);
		strbuf_addf(&line, "mms1 %.*s %llu%s", (int)sl, p, (unsigned long long)s->seq,
			    p + sl);
		if (emit(ctx, line.buf, line.len))
			failed = 1;
		else
			n++;
	}
	if (!failed) {
		strbuf_reset(&line);
		strbuf_addf(&line, "mms1 end %llu us=0 repeats=%llu", (unsigned long long)s->seq,
			    (unsigned long long)s->kept_seq);
		if (emit(ctx, line.buf, line.len))
			failed = 1;
		else
			n++;
	}
	strbuf_release(&line);
	s->seq++;
	return failed ? -1 : n;
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
		if (!source_asked(s, i))
			continue;
		out[n].source = source_names[i];
		out[n].available = !s->why[i];
		snprintf(out[n].why, sizeof(out[n].why), "%s", s->why[i] ? s->why[i] : "");
		n++;
	}
	sampler_free(s);
	return n;
}
