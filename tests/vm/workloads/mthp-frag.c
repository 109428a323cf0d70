// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mthp-frag: drive large-folio swap-out until it falls back to order 0.
 *
 * Round 0 maps -m MB (MADV_HUGEPAGE; the scenario enables the -s size,
 * e.g. 64 kB mTHP or 2048 kB THP), writes it and swaps it all out with
 * MADV_PAGEOUT. Each later round fragments the swap space that holds it —
 * in every large folio it swaps one base page back in (read) and frees
 * another (MADV_DONTNEED), so each cluster keeps holes of one slot — then
 * maps -n MB more, writes it and swaps it out. It stops after the first
 * round in which large swap-outs fell back, or after -r rounds.
 *
 * Counters: hugepages-SIZEkB/stats/swpout and swpout_fallback, or for
 * 2048 kB on kernels without per-size stats (6.1) /proc/vmstat
 * thp_swpout and thp_swpout_fallback. Prints their deltas per round and
 * "mthp-frag: total swpout=N swpout_fallback=N".
 * Exit status: 0 fallbacks seen, 3 none seen, 1 usage, 2 system error.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif

#define MIB (1024UL * 1024UL)

static unsigned long size_kb = 64;
/* the base page: 4 KB, or 16 KB on an arm64 16K kernel, where a hole of
 * 4 KB is not page aligned (madvise: EINVAL) */
static size_t PAGE;

static long read_ulong(const char *path, const char *key)
{
	char line[256];
	long v = -1;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!key) {
			v = strtol(line, NULL, 10);
			break;
		}
		size_t kl = strlen(key);
		if (!strncmp(line, key, kl) && line[kl] == ' ') {
			v = strtol(line + kl + 1, NULL, 10);
			break;
		}
	}
	fclose(f);
	return v;
}

static void counters(long *out, long *fb)
{
	char p[256];

	snprintf(p, sizeof(p), "/sys/kernel/mm/transparent_hugepage/hugepages-%lukB/stats/swpout", size_kb);
	*out = read_ulong(p, NULL);
	snprintf(p, sizeof(p), "/sys/kernel/mm/transparent_hugepage/hugepages-%lukB/stats/swpout_fallback", size_kb);
	*fb = read_ulong(p, NULL);
	if (*out < 0 && size_kb == 2048) {
		*out = read_ulong("/proc/vmstat", "thp_swpout");
		*fb = read_ulong("/proc/vmstat", "thp_swpout_fallback");
	}
	if (*out < 0 || *fb < 0) {
		fprintf(stderr, "mthp-frag: no swpout/swpout_fallback counters for %lu kB\n", size_kb);
		exit(2);
	}
}

static unsigned char *fill(size_t len, unsigned seed)
{
	size_t al = size_kb * 1024UL;
	unsigned char *raw = mmap(NULL, len + al, PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	unsigned char *m;

	if (raw == MAP_FAILED) {
		perror("mthp-frag: mmap");
		exit(2);
	}
	m = (unsigned char *)(((unsigned long)raw + al - 1) & ~(al - 1));
	if (madvise(m, len, MADV_HUGEPAGE) != 0)
		perror("mthp-frag: MADV_HUGEPAGE (continuing)");
	for (size_t off = 0; off < len; off += PAGE)
		m[off] = (unsigned char)(seed + off / PAGE + 1);
	return m;
}

static void pageout(unsigned char *m, size_t len)
{
	if (madvise(m, len, MADV_PAGEOUT) != 0) {
		perror("mthp-frag: MADV_PAGEOUT");
		exit(2);
	}
}

int main(int argc, char **argv)
{
	unsigned long mb = 96, more_mb = 8, rounds = 6;
	long o0, f0, o1, f1, ob, fbb;
	volatile unsigned char sink = 0;
	int opt;

	while ((opt = getopt(argc, argv, "m:n:r:s:")) != -1) {
		switch (opt) {
		case 'm': mb = strtoul(optarg, NULL, 10); break;
		case 'n': more_mb = strtoul(optarg, NULL, 10); break;
		case 'r': rounds = strtoul(optarg, NULL, 10); break;
		case 's': size_kb = strtoul(optarg, NULL, 10); break;
		default:
			fprintf(stderr, "usage: %s [-m MB] [-n MB] [-r ROUNDS] [-s SIZE_KB]\n", argv[0]);
			return 1;
		}
	}
	PAGE = (size_t)sysconf(_SC_PAGESIZE);
	if (!mb || !more_mb || !size_kb || size_kb * 1024UL % PAGE || optind != argc) {
		fprintf(stderr, "mthp-frag: bad arguments (SIZE_KB a multiple of the %zu-byte page)\n", PAGE);
		return 1;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	size_t fsz = size_kb * 1024UL, len = mb * MIB;

	counters(&o0, &f0);
	ob = o0;
	fbb = f0;
	unsigned char *a = fill(len, 0);
	pageout(a, len);
	counters(&o1, &f1);
	printf("mthp-frag: round 0 size=%lukB mapped=%luMB swpout=+%ld swpout_fallback=+%ld\n",
	       size_kb, mb, o1 - ob, f1 - fbb);
	for (unsigned long r = 1; r <= rounds; r++) {
		ob = o1;
		fbb = f1;
		/* holes: in every large folio of a, read one page back, free another */
		for (size_t off = 0; off + fsz <= len; off += fsz) {
			size_t in = (r * 2) % (fsz / PAGE), out = (r * 2 + 1) % (fsz / PAGE);

			sink ^= a[off + in * PAGE];
			if (madvise(a + off + out * PAGE, PAGE, MADV_DONTNEED) != 0) {
				perror("mthp-frag: MADV_DONTNEED");
				return 2;
			}
		}
		unsigned char *b = fill(more_mb * MIB, (unsigned)r);
		pageout(b, more_mb * MIB);
		pageout(a, len);  /* the read-back pages go out again as order 0 */
		counters(&o1, &f1);
		printf("mthp-frag: round %lu +%luMB swpout=+%ld swpout_fallback=+%ld\n",
		       r, more_mb, o1 - ob, f1 - fbb);
		if (f1 - fbb > 0)
			break;
	}
	printf("mthp-frag: total swpout=%ld swpout_fallback=%ld\n", o1 - o0, f1 - f0);
	(void)sink;
	return f1 - f0 > 0 ? 0 : 3;
}
