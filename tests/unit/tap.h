/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A tiny TAP producer for C unit tests: ok()/is_int()/is_str() print one
 * "ok N - ..." or "not ok N - ..." line each; tap_done() prints the plan
 * and returns the exit status (0 when everything passed).
 */
#ifndef MMSCOPE_TAP_H
#define MMSCOPE_TAP_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int tap_n, tap_failed;

__attribute__((format(printf, 2, 3), unused))
static int ok(int cond, const char *fmt, ...)
{
	va_list ap;

	tap_n++;
	if (!cond)
		tap_failed++;
	printf("%sok %d - ", cond ? "" : "not ", tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	return cond;
}

#define is_int(got, want, what) do { \
	long long g_ = (long long)(got), w_ = (long long)(want); \
	if (!ok(g_ == w_, "%s", what)) \
		printf("#   got %lld, want %lld\n", g_, w_); \
} while (0)

#define is_str(got, want, what) do { \
	const char *g_ = (got), *w_ = (want); \
	if (!ok(g_ && w_ && !strcmp(g_, w_), "%s", what)) \
		printf("#   got '%s', want '%s'\n", g_ ? g_ : "(null)", w_ ? w_ : "(null)"); \
} while (0)

__attribute__((unused))
static int tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif
