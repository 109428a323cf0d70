// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Bench helper (not installed, built by `make bench` or by name): the
 * counter sampler's CPU per sample set, as mmscope record runs it: one
 * full set, then routine sets every INTERVAL ms for SETS sets (the
 * --cgroups tree is walked again every 5 s of those, as in a recording).
 * Lines go to /dev/null with one write() each, as record's go to
 * trace_marker (whose write costs more: the line count is printed).
 *   usage: sampler-bench SETS INTERVAL_MS [CGROUPS_ROOT [CGROUPS_MAX]]
 * Prints: sets, CPU ms per routine set (user+sys of this thread), lines
 * and bytes per set, and the full set's CPU ms.
 */
#include "config.h"
#include "sampler.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static unsigned long long lines, bytes;

static int emit(void *ctx, const char *line, size_t len)
{
	int fd = *(int *)ctx;

	lines++;
	bytes += len;
	return write(fd, line, len) == (ssize_t)len ? 0 : -1;
}

static double cpu_ms(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_utime.tv_sec * 1e3 + ru.ru_utime.tv_usec / 1e3 +
	       ru.ru_stime.tv_sec * 1e3 + ru.ru_stime.tv_usec / 1e3;
}

int main(int argc, char **argv)
{
	struct sampler_opts o = { 0 };
	struct sampler *s;
	int fd = open("/dev/null", O_WRONLY), sets, interval;
	double t0, full, routine = 0;
	size_t known = 0, sampled = 0, other = 0;

	if (argc < 3 || fd < 0) {
		fprintf(stderr, "usage: sampler-bench SETS INTERVAL_MS [ROOT [MAX]]\n");
		return 2;
	}
	sets = atoi(argv[1]);
	interval = atoi(argv[2]);
	o.cgroups = argc > 3 ? argv[3] : NULL;
	o.cgroups_max = argc > 4 ? atoi(argv[4]) : 0;
	s = sampler_new(&o);
	t0 = cpu_ms();
	sampler_run(s, emit, &fd);
	full = cpu_ms() - t0;
	lines = bytes = 0;
	for (int i = 0; i < sets; i++) {
		struct timespec ts = { interval / 1000, (long)(interval % 1000) * 1000000L };

		nanosleep(&ts, NULL);
		t0 = cpu_ms();
		if (sampler_run_routine(s, emit, &fd) < 0) {
			fprintf(stderr, "sampler-bench: a set failed\n");
			return 1;
		}
		routine += cpu_ms() - t0;
	}
	if (o.cgroups)
		sampler_cgroups_counts(s, &known, &sampled, &other);
	printf("sets=%d cpu_ms_per_set=%.3f lines_per_set=%.1f bytes_per_set=%.0f "
	       "full_set_cpu_ms=%.3f cgroups=%zu sampled=%zu summed=%zu\n", sets,
	       routine / sets, (double)lines / sets, (double)bytes / sets, full, known, sampled,
	       other);
	sampler_free(s);
	return 0;
}
