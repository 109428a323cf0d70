// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * thp-collapse: work for khugepaged. Maps REGIONS 2 MiB ranges of
 * anonymous memory (PMD-aligned), touches a different number of 4K pages
 * in each while THP is off for them (MADV_NOHUGEPAGE, so every fault is a
 * small page), then asks for THP (MADV_HUGEPAGE) and waits SECONDS for
 * khugepaged to collapse them. Region i gets i * 512 / REGIONS pages, so
 * region 0 is untouched and the others range from a few pages to nearly
 * full. A forked child shares the pages (copy-on-write) while both wait,
 * so that ranges with more shared pages than khugepaged's max_ptes_shared
 * (256) are refused. Usage: thp-collapse [REGIONS [SECONDS]] (default 16
 * and 4).
 * Made tests/data/report/khugepaged-6.18.dat (see its README).
 * Phase markers ("mmscope phase NAME" into $MMSCOPE_TRACE_MARKER, else the
 * top-level trace_marker; see mmscope-compare(1)): touch, then collapse.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define PMD_SIZE (2UL << 20)
#define PAGE 4096UL

static void phase(const char *name)
{
	const char *path = getenv("MMSCOPE_TRACE_MARKER");
	char buf[80];
	int fd = open(path && *path ? path : "/sys/kernel/tracing/trace_marker",
		      O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		return;
	snprintf(buf, sizeof(buf), "mmscope phase %s", name);
	if (write(fd, buf, strlen(buf)) < 0) {
		/* tracing off: the run goes on without its markers */
	}
	close(fd);
}

int main(int argc, char **argv)
{
	unsigned long regions = argc > 1 ? strtoul(argv[1], NULL, 0) : 16;
	unsigned seconds = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 0) : 4;
	size_t len = regions * PMD_SIZE;
	char *raw, *p;

	if (!regions || regions > 4096)
		return 2;
	raw = mmap(NULL, len + PMD_SIZE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (raw == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	p = (char *)(((uintptr_t)raw + PMD_SIZE - 1) & ~(PMD_SIZE - 1));
	if (madvise(p, len, MADV_NOHUGEPAGE))
		perror("madvise(MADV_NOHUGEPAGE)");
	phase("touch");
	for (unsigned long r = 0; r < regions; r++)
		for (unsigned long i = 0; i < r * (PMD_SIZE / PAGE) / regions; i++)
			p[r * PMD_SIZE + i * PAGE] = (char)(r + i + 1);
	phase("collapse");
	if (madvise(p, len, MADV_HUGEPAGE)) {
		perror("madvise(MADV_HUGEPAGE)");
		return 1;
	}
	pid_t child = fork();

	if (child < 0)
		perror("fork");
	sleep(seconds);
	if (!child)
		_exit(0);
	if (child > 0)
		waitpid(child, NULL, 0);
	munmap(raw, len + PMD_SIZE);
	return 0;
}
