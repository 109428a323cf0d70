/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Small helpers shared by every layer: allocation that dies on failure,
 * a growable string buffer, and the error-string convention.
 *
 * Memory policy, the same in every layer (reader, parsers, models,
 * metrics, compare, front ends):
 * - Allocate with xmalloc/xcalloc/xrealloc/xreallocarray/xstrdup/
 *   xasprintf or a strbuf. Out of memory prints one line and exits 1.
 *   No plain malloc/calloc/realloc/strdup outside util.c: a model that
 *   skipped a record because an allocation failed would print a wrong
 *   number with nothing to say so, and a half-built model is no answer.
 * - A size that comes from a file (section, chunk, string or id counts)
 *   is checked against the file and the format's limits before it is
 *   allocated; one out of bounds is an error through "char **err", so a
 *   hostile file gets a one-line error, never an exit from a huge xmalloc.
 * - Models bound what they keep for display (episodes, lane spans, the
 *   cluster change log, series points): past the bound they count what
 *   they did not keep or thin the series; totals cover every record.
 * - Libraries that allocate on their own (libtraceevent, zstd, zlib)
 *   return NULL; that is reported through "char **err" as out of memory.
 *
 * Error convention: lower layers never print. They return -1 or NULL and
 * fill a "char **err" with a malloc'd one-line reason (no "error:" prefix,
 * no trailing newline). Front ends print it as "error: <file>: <reason>".
 */
#ifndef MMSCOPE_UTIL_H
#define MMSCOPE_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *p, size_t n);
void *xreallocarray(void *p, size_t nmemb, size_t size);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* k where v is 2^k; -1 when v is not a power of two (sizes read from
 * a recording: a page, a PMD, a cluster). */
static inline int log2_exact(uint64_t v)
{
	int o = 0;

	if (!v || (v & (v - 1)))
		return -1;
	while ((1ULL << o) < v)
		o++;
	return o;
}

/* "s" unless n is 1: "%llu run%s", n, plural(n). */
static inline const char *plural(unsigned long long n)
{
	return n == 1 ? "" : "s";
}
/* A count's unit for n of it: "pages" for 1 is "page", "passes"
 * "pass" (the length to print with "%.*s"); a unit not ending in 's'
 * ("kB"), or in "ss", as it is. */
int unit_len(long long n, const char *unit);

/* The CPUs this process may run on (taskset, cpusets), at least 1. */
int cpus_usable(void);

/* Set *err (if err is not NULL) to a formatted message; returns -1. */
int set_err(char **err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A growable, always NUL-terminated byte buffer. */
struct strbuf {
	char *buf;
	size_t len;
	size_t alloc;
};
#define STRBUF_INIT { NULL, 0, 0 }

void strbuf_grow(struct strbuf *sb, size_t extra);
void strbuf_add(struct strbuf *sb, const void *data, size_t n);
void strbuf_addstr(struct strbuf *sb, const char *s);
void strbuf_addch(struct strbuf *sb, int c);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap);
void strbuf_reset(struct strbuf *sb);
void strbuf_release(struct strbuf *sb);
/* Hands the buffer to the caller (who frees it) and re-inits sb. */
char *strbuf_detach(struct strbuf *sb, size_t *len);

/* Little-endian stores used by the writer. */
void strbuf_add_u16(struct strbuf *sb, uint16_t v);
void strbuf_add_u32(struct strbuf *sb, uint32_t v);
void strbuf_add_u64(struct strbuf *sb, uint64_t v);

/* Read a whole file (regular or procfs/tracefs). Returns 0 or -1 with errno. */
int read_file(const char *path, struct strbuf *out);

/* Parse "12", "12K", "3M", "1G" (powers of 1024). Returns 0 or -1. */
int parse_size(const char *s, uint64_t *out);
/* Parse a non-negative decimal integer that fits in a long long. */
int parse_ull(const char *s, unsigned long long *out);
/* Parse "1.5", "1500ms", "2s", "3m" into nanoseconds. */
int parse_duration_ns(const char *s, uint64_t *out);

#endif
