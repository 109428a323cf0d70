// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * anon-touch: a small workload for mmscope fixtures.
 *
 * Maps MB megabytes of private anonymous memory, writes one byte in every
 * base page, PASSES times, and can then reclaim part of it with
 * MADV_PAGEOUT, punch holes to fragment it, and hold it for a while.
 * Run it inside a memory cgroup smaller than MB to cause memcg reclaim.
 * Pass p writes (p + i + 1) & 0xff to the first byte of page i, so one
 * page in 256 stays zero-filled (swap-out skips I/O for those).
 *
 * -r paces the touching (pages per second), for a steady event rate in
 * tests/bench/record-bench.sh.
 *
 * Each step begins with a phase marker, "mmscope phase NAME" written into
 * trace_marker (pass-1, pass-2, ..., pageout, fragment, hold), so that
 * "mmscope compare --phase" and the report's phases section see them:
 * into $MMSCOPE_TRACE_MARKER (mmscope record sets it to its instance's)
 * or else the top-level /sys/kernel/tracing/trace_marker; nothing when
 * neither can be opened.
 *
 * Exit status: 0 success, 1 usage error, 2 mmap/madvise/system error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif

#define EXIT_USAGE 1
#define EXIT_SYS 2

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static void phase(const char *fmt, ...)
{
	static int fd = -2;
	char buf[96];
	va_list ap;
	int n;

	if (fd == -2) {
		const char *path = getenv("MMSCOPE_TRACE_MARKER");

		fd = open(path && *path ? path : "/sys/kernel/tracing/trace_marker",
			  O_WRONLY | O_CLOEXEC);
	}
	if (fd < 0)
		return;
	n = snprintf(buf, sizeof(buf), "mmscope phase ");
	va_start(ap, fmt);
	n += vsnprintf(buf + n, sizeof(buf) - (size_t)n, fmt, ap);
	va_end(ap);
	if (n > 0 && n < (int)sizeof(buf) && write(fd, buf, (size_t)n) < 0)
		fd = -1;	/* tracing off or refused: stop trying */
}

static void usage(FILE *f, const char *prog)
{
	fprintf(f,
		"usage: %s -m MB [-p PASSES] [-r PAGES/S] [-H | -N] [-o PERCENT] [-f KEEP] [-s SECONDS] [-q]\n"
		"  -m MB       size of the anonymous mapping in MiB (required, >0)\n"
		"  -p PASSES   write every base page this many times (default 1)\n"
		"  -r PAGES/S  pacing: touch at most this many base pages per second\n"
		"              (default: as fast as possible)\n"
		"  -H          madvise(MADV_HUGEPAGE) the mapping before touching\n"
		"  -N          madvise(MADV_NOHUGEPAGE) the mapping before touching\n"
		"  -o PERCENT  after the passes, MADV_PAGEOUT the first PERCENT%% (0-100)\n"
		"  -f KEEP     after the passes, keep 1 base page in KEEP and\n"
		"              MADV_DONTNEED the others (fragments free memory; KEEP>=2)\n"
		"  -s SECONDS  hold the memory this long before exiting (SIGTERM/SIGINT\n"
		"              end the wait early); prints \"ready\" when holding\n"
		"  -q          quiet: no progress lines\n"
		"exit status: 0 ok, 1 usage error, 2 system call failed\n",
		prog);
}

static int parse_long(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Pacing: sleeps until page number done is due at rate pages/s from t0. */
static void pace(double t0, size_t done, long rate)
{
	double due = t0 + (double)done / (double)rate, wait = due - now();
	struct timespec ts;

	if (wait <= 0)
		return;
	ts.tv_sec = (time_t)wait;
	ts.tv_nsec = (long)((wait - (double)ts.tv_sec) * 1e9);
	nanosleep(&ts, NULL);
}

/* Pages touched between two pacing checks (about 1 ms at 100k pages/s). */
#define PACE_BATCH 64

int main(int argc, char **argv)
{
	long mb = 0, passes = 1, pageout = 0, keep = 0, hold = 0, rate = 0;
	int huge = 0, nohuge = 0, quiet = 0, opt;
	size_t len, psz, npages, i;
	unsigned char *p;
	long pass;
	double t0;

	while ((opt = getopt(argc, argv, "m:p:r:HNo:f:s:qh")) != -1) {
		switch (opt) {
		case 'm':
			if (parse_long(optarg, 1, 1L << 20, &mb))
				goto bad;
			break;
		case 'p':
			if (parse_long(optarg, 1, 1000, &passes))
				goto bad;
			break;
		case 'r':
			if (parse_long(optarg, 1, 1L << 30, &rate))
				goto bad;
			break;
		case 'H':
			huge = 1;
			break;
		case 'N':
			nohuge = 1;
			break;
		case 'o':
			if (parse_long(optarg, 0, 100, &pageout))
				goto bad;
			break;
		case 'f':
			if (parse_long(optarg, 2, 1L << 20, &keep))
				goto bad;
			break;
		case 's':
			if (parse_long(optarg, 0, 86400, &hold))
				goto bad;
			break;
		case 'q':
			quiet = 1;
			break;
		case 'h':
			usage(stdout, argv[0]);
			return 0;
		default:
			goto bad;
		}
	}
	if (optind != argc || mb == 0 || (huge && nohuge))
		goto bad;

	psz = (size_t)sysconf(_SC_PAGESIZE);
	len = (size_t)mb << 20;
	npages = len / psz;

	p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		fprintf(stderr, "anon-touch: mmap %ld MiB: %s\n", mb,
			strerror(errno));
		return EXIT_SYS;
	}
	if ((huge && madvise(p, len, MADV_HUGEPAGE)) ||
	    (nohuge && madvise(p, len, MADV_NOHUGEPAGE))) {
		fprintf(stderr, "anon-touch: madvise(%s): %s\n",
			huge ? "MADV_HUGEPAGE" : "MADV_NOHUGEPAGE",
			strerror(errno));
		return EXIT_SYS;
	}

	for (pass = 0; pass < passes; pass++) {
		phase("pass-%ld", pass + 1);
		t0 = now();
		for (i = 0; i < npages; i++) {
			if (rate && i % PACE_BATCH == 0)
				pace(t0, i, rate);
			p[i * psz] = (unsigned char)(pass + i + 1);
		}
		if (!quiet)
			printf("anon-touch: pass %ld/%ld: %ld MiB in %.2f s\n",
			       pass + 1, passes, mb, now() - t0);
	}

	if (pageout) {
		size_t plen = (npages * (size_t)pageout / 100) * psz;

		phase("pageout");
		if (plen && madvise(p, plen, MADV_PAGEOUT)) {
			fprintf(stderr, "anon-touch: MADV_PAGEOUT: %s\n",
				strerror(errno));
			return EXIT_SYS;
		}
		if (!quiet)
			printf("anon-touch: paged out %zu MiB\n", plen >> 20);
	}

	if (keep) {
		size_t freed = 0;

		phase("fragment");
		for (i = 0; i < npages; i++) {
			if (i % (size_t)keep == 0)
				continue;
			if (madvise(p + i * psz, psz, MADV_DONTNEED)) {
				fprintf(stderr, "anon-touch: MADV_DONTNEED: %s\n",
					strerror(errno));
				return EXIT_SYS;
			}
			freed++;
		}
		if (!quiet)
			printf("anon-touch: kept 1 page in %ld, freed %zu MiB\n",
			       keep, (freed * psz) >> 20);
	}

	if (hold) {
		struct sigaction sa;
		time_t end = time(NULL) + hold;

		phase("hold");
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_signal;
		sigaction(SIGTERM, &sa, NULL);
		sigaction(SIGINT, &sa, NULL);
		printf("ready\n");
		fflush(stdout);
		while (!stop && time(NULL) < end)
			sleep(1);
	}

	munmap(p, len);
	return 0;

bad:
	usage(stderr, argv[0]);
	return EXIT_USAGE;
}
