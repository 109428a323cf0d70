// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pressure: global memory pressure with THP for the kernel matrix.
 *
 * 1. -f MB of base pages (MADV_NOHUGEPAGE) are touched and then every
 *    other page is given back (MADV_DONTNEED): free memory is left in
 *    order-0 holes, so huge page allocations need compaction.
 * 2. -m MB of anonymous memory with MADV_HUGEPAGE, more than the guest
 *    has, are touched in 2 MiB steps: the THP faults wake kswapd at
 *    order 9, kswapd reclaims (swaps) and hands the order to kcompactd.
 * 3. The whole mapping is written again -p times (swap-in, more reclaim).
 *
 * -P after step 1 writes vm.compaction_proactiveness its own value, which
 * (where the kernel has that trigger: 7.2 yes, 5.10 no) makes kcompactd
 * start proactive compaction on the holes at once if kswapd sleeps; -w MS
 * waits after step 1; -s MS pauses after each 2 MiB of the first write,
 * so that THP faults wake kswapd in short episodes spread over time
 * (tests/vm/scenarios/proactive-handoff.sh).
 *
 * Prints one line per phase. Exit status: 0 ok, 1 usage, 2 system error.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define MIB (1024UL * 1024UL)

/* the base page and the PMD THP size: 4 KB and 2 MB, or 16 KB and
 * 32 MB on an arm64 16K kernel (a PMD maps PAGE / 8 pages) */
static size_t PAGE, PMD;

static void usage(const char *prog)
{
	fprintf(stderr, "usage: %s -m MB [-f MB] [-p PASSES] [-P] [-w MS] [-s MS]\n", prog);
	exit(1);
}

static unsigned char *map_anon(size_t len, int advice)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("pressure: mmap");
		exit(2);
	}
	if (madvise(p, len, advice) != 0)
		perror("pressure: madvise (continuing)");
	return p;
}

/* vm.compaction_proactiveness written with its value: kcompactd runs
 * proactive compaction now (the sysctl handler sets the trigger) */
static void proactive_now(void)
{
	const char *path = "/proc/sys/vm/compaction_proactiveness";
	char buf[16] = "";
	FILE *f = fopen(path, "r");

	if (!f || !fgets(buf, sizeof(buf), f)) {
		perror("pressure: read compaction_proactiveness");
		exit(2);
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	f = fopen(path, "w");
	if (!f || fputs(buf, f) < 0 || fclose(f) != 0) {
		perror("pressure: write compaction_proactiveness");
		exit(2);
	}
	printf("pressure: proactive compaction triggered (%s)\n", buf);
}

int main(int argc, char **argv)
{
	unsigned long mb = 0, frag_mb = 0, passes = 1, wait_ms = 0, step_ms = 0;
	int opt, trigger = 0;

	while ((opt = getopt(argc, argv, "m:f:p:w:s:P")) != -1) {
		switch (opt) {
		case 'm': mb = strtoul(optarg, NULL, 10); break;
		case 'f': frag_mb = strtoul(optarg, NULL, 10); break;
		case 'p': passes = strtoul(optarg, NULL, 10); break;
		case 'w': wait_ms = strtoul(optarg, NULL, 10); break;
		case 'P': trigger = 1; break;
		case 's': step_ms = strtoul(optarg, NULL, 10); break;
		default: usage(argv[0]);
		}
	}
	if (!mb || optind != argc)
		usage(argv[0]);
	setvbuf(stdout, NULL, _IOLBF, 0);
	PAGE = (size_t)sysconf(_SC_PAGESIZE);
	PMD = PAGE * (PAGE / 8);

	if (frag_mb) {
		size_t len = frag_mb * MIB;
		unsigned char *f = map_anon(len, MADV_NOHUGEPAGE);

		for (size_t off = 0; off < len; off += PAGE)
			f[off] = 1;
		for (size_t off = 0; off < len; off += 2 * PAGE)
			if (madvise(f + off, PAGE, MADV_DONTNEED) != 0) {
				perror("pressure: MADV_DONTNEED");
				return 2;
			}
		printf("pressure: fragmented %lu MB (every other page freed)\n", frag_mb);
		if (trigger)
			proactive_now();
		if (wait_ms)
			usleep((useconds_t)(wait_ms * 1000));
	}

	/* PMD aligned so that every step can be one PMD THP */
	size_t len = mb * MIB;
	unsigned char *raw = map_anon(len + PMD, MADV_HUGEPAGE);
	unsigned char *m = (unsigned char *)(((unsigned long)raw + PMD - 1) & ~(PMD - 1));

	if (madvise(m, len, MADV_HUGEPAGE) != 0)
		perror("pressure: MADV_HUGEPAGE (continuing)");
	for (unsigned long pass = 0; pass <= passes; pass++) {
		for (size_t off = 0; off < len; off += PAGE) {
			m[off] = (unsigned char)(pass + off / PAGE + 1);
			if (step_ms && !pass && off % PMD == PMD - PAGE)
				usleep((useconds_t)(step_ms * 1000));
		}
		printf("pressure: pass %lu wrote %lu MB\n", pass, mb);
	}
	return 0;
}
