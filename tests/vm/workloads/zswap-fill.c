// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * zswap-fill: fill zswap with pages that compress to about half, so that
 * a small pool (max_pool_percent) fills, rejects and writes back.
 *
 * Maps -m MB of base pages (MADV_NOHUGEPAGE), writes each page as
 * 2 KiB of pseudo-random bytes and 2 KiB of a repeating pattern, then
 * reads everything back -p times (swap-in from zswap and from the
 * backing device). Run it in a memory cgroup smaller than MB, or with
 * more MB than the guest has.
 * Exit status: 0 ok, 1 usage, 2 system error, 4 data mismatch.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#define MIB (1024UL * 1024UL)
#define PAGE 4096UL

static uint32_t rnd(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

int main(int argc, char **argv)
{
	unsigned long mb = 0, passes = 1;
	int opt;

	while ((opt = getopt(argc, argv, "m:p:")) != -1) {
		switch (opt) {
		case 'm': mb = strtoul(optarg, NULL, 10); break;
		case 'p': passes = strtoul(optarg, NULL, 10); break;
		default:
			fprintf(stderr, "usage: %s -m MB [-p PASSES]\n", argv[0]);
			return 1;
		}
	}
	if (!mb || optind != argc) {
		fprintf(stderr, "usage: %s -m MB [-p PASSES]\n", argv[0]);
		return 1;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	size_t len = mb * MIB;
	unsigned char *m = mmap(NULL, len, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (m == MAP_FAILED) {
		perror("zswap-fill: mmap");
		return 2;
	}
	if (madvise(m, len, MADV_NOHUGEPAGE) != 0)
		perror("zswap-fill: MADV_NOHUGEPAGE (continuing)");
	for (size_t pg = 0; pg < len / PAGE; pg++) {
		uint32_t s = (uint32_t)pg * 2654435761u + 1, *w = (uint32_t *)(m + pg * PAGE);

		for (size_t i = 0; i < PAGE / 8; i++)
			w[i] = rnd(&s);
		for (size_t i = PAGE / 8; i < PAGE / 4; i++)
			w[i] = (uint32_t)pg;
	}
	printf("zswap-fill: wrote %lu MB\n", mb);
	for (unsigned long p = 0; p < passes; p++) {
		for (size_t pg = 0; pg < len / PAGE; pg++) {
			uint32_t *w = (uint32_t *)(m + pg * PAGE);

			if (w[PAGE / 4 - 1] != (uint32_t)pg) {
				fprintf(stderr, "zswap-fill: page %zu corrupt\n", pg);
				return 4;
			}
		}
		printf("zswap-fill: pass %lu read %lu MB\n", p + 1, mb);
	}
	return 0;
}
