/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * FNV-1a, the one hash of the in-memory tables (task names, cgroups,
 * counters, interned strings, stacks), of the reader's index layout, of
 * the writer's section memo and of export's recording ids. Those ids are
 * written into exported tables, so these give the same values as the
 * loops they replaced: the basis and prime are FNV's own.
 */
#ifndef MMSCOPE_FNV_H
#define MMSCOPE_FNV_H

#include <stddef.h>
#include <stdint.h>

#define FNV64_BASIS 14695981039346656037ULL
#define FNV64_PRIME 1099511628211ULL
#define FNV32_BASIS 2166136261u
#define FNV32_PRIME 16777619u

/* h with n bytes at p mixed in, a byte at a time */
static inline uint64_t fnv64_bytes(uint64_t h, const void *p, size_t n)
{
	const unsigned char *c = p;

	for (size_t i = 0; i < n; i++)
		h = (h ^ c[i]) * FNV64_PRIME;
	return h;
}

/* h with a whole 64-bit value mixed in at once */
static inline uint64_t fnv64_word(uint64_t h, uint64_t v)
{
	return (h ^ v) * FNV64_PRIME;
}

static inline uint64_t fnv64_str(uint64_t h, const char *s)
{
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * FNV64_PRIME;
	return h;
}

static inline unsigned fnv32_str(unsigned h, const char *s)
{
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * FNV32_PRIME;
	return h;
}

#endif
