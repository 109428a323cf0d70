// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mmscope sample: run only the counter sampler, writing its "mms1" lines
 * into the top-level trace_marker, so that a recording made with plain
 * "trace-cmd record" (top-level buffer) carries samples too. It writes
 * nothing else anywhere: no instance, no events, no settings.
 */
#include "config.h"
#include "cmd.h"
#include "collector.h"
#include "sampler.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char sample_usage[] =
"usage: mmscope sample [options]\n"
"\n"
"Write counter samples (see mmscope-samples(5)) into the top-level\n"
"trace_marker every interval, for recordings made with trace-cmd.\n"
"\n"
"      --interval MS      sample interval (default 1000)\n"
"      --duration S       stop after S seconds (default: until SIGINT/SIGTERM)\n"
"      --count N          stop after N sample sets\n"
"      --cgroup PATH      also sample this memory cgroup\n"
"      --cgroups ROOT     also sample every memory cgroup under ROOT\n"
"      --cgroups-max N    of those, the N largest by usage, the rest summed\n"
"                         (default 64)\n"
"      --stdout           print the lines instead of writing trace_marker\n"
"  -h, --help             show this help\n";

struct sample_opts {
	unsigned interval_ms;
	uint64_t duration_ns;
	unsigned long long count;
	const char *cgroup;
	const char *cgroups;
	int cgroups_max;
	int to_stdout;
};

static volatile sig_atomic_t sample_stop;

static void on_signal(int sig)
{
	(void)sig;
	sample_stop = 1;
}

static int sample_parse_opts(int argc, char **argv, struct sample_opts *o)
{
	enum { OPT_INTERVAL = 256, OPT_DURATION, OPT_COUNT, OPT_CGROUP, OPT_STDOUT,
	       OPT_CGROUPS, OPT_CGROUPS_MAX };
	static const struct option longopts[] = {
		{ "interval", required_argument, NULL, OPT_INTERVAL },
		{ "duration", required_argument, NULL, OPT_DURATION },
		{ "count", required_argument, NULL, OPT_COUNT },
		{ "cgroup", required_argument, NULL, OPT_CGROUP },
		{ "cgroups", required_argument, NULL, OPT_CGROUPS },
		{ "cgroups-max", required_argument, NULL, OPT_CGROUPS_MAX },
		{ "stdout", no_argument, NULL, OPT_STDOUT },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const struct cmd_entry *cmd = &cmd_sample_entry;
	int c;

	o->interval_ms = 1000;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_INTERVAL:
			if (parse_interval(cmd, optarg, &o->interval_ms))
				return EXIT_USAGE;
			break;
		case OPT_DURATION:
			if (parse_duration(cmd, optarg, &o->duration_ns))
				return EXIT_USAGE;
			break;
		case OPT_COUNT:
			if (parse_ull(optarg, &o->count) || !o->count)
				return usage_error(cmd, "bad --count '%s'", optarg);
			break;
		case OPT_CGROUP:
			o->cgroup = optarg;
			break;
		case OPT_STDOUT:
			o->to_stdout = 1;
			break;
		case OPT_CGROUPS:
		case OPT_CGROUPS_MAX:
			if (parse_cgroups_opt(cmd, c == OPT_CGROUPS_MAX, optarg, &o->cgroups,
					      &o->cgroups_max))
				return EXIT_USAGE;
			break;
		case 'h':
			return -1;
		default:
			return bad_option(cmd, argc, argv);
		}
	}
	if (optind != argc)
		return usage_error(cmd, "unexpected argument '%s'", argv[optind]);
	if (check_cgroups_opts(cmd, o->cgroups, o->cgroups_max))
		return EXIT_USAGE;
	return 0;
}

static int emit_fd(void *ctx, const char *line, size_t len)
{
	int fd = *(int *)ctx;
	ssize_t n;

	do
		n = write(fd, line, len);
	while (n < 0 && errno == EINTR);
	return n == (ssize_t)len ? 0 : -1;
}

static int emit_stdout(void *ctx, const char *line, size_t len)
{
	(void)ctx;
	fwrite(line, 1, len, stdout);
	putchar('\n');
	return ferror(stdout) ? -1 : 0;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Milliseconds until deadline, at most 100 (signals and --duration). */
static int wait_ms(uint64_t deadline)
{
	uint64_t now = now_ns(), ms;

	if (deadline <= now)
		return 0;
	ms = (deadline - now + 999999) / 1000000;
	return ms > 100 ? 100 : (int)ms;
}

static int open_marker(int *fd)
{
	char *err = NULL, *path;
	const char *tfs = collector_tracefs(&err);

	if (!tfs) {
		error("%s", err);
		free(err);
		return -1;
	}
	path = xasprintf("%s/trace_marker", tfs);
	*fd = open(path, O_WRONLY | O_CLOEXEC);
	if (*fd < 0) {
		error("%s: %s%s", path, strerror(errno),
		      errno == EACCES ? " (run as root)" : "");
		free(path);
		return -1;
	}
	free(path);
	return 0;
}

static int cmd_sample(int argc, char **argv)
{
	struct sample_opts o = { 0 };
	struct sampler_opts so = { 0 };
	struct sampler *s;
	struct sigaction sa;
	uint64_t t0, next;
	int fd = -1, r = sample_parse_opts(argc, argv, &o), warned = 0;

	if (r < 0)
		return show_help(&cmd_sample_entry);
	if (r)
		return r;
	if (!o.to_stdout && open_marker(&fd))
		return EXIT_ERROR;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	so.cgroup = o.cgroup;
	so.cgroups = o.cgroups;
	so.cgroups_max = o.cgroups_max;
	/* tests point the sampler at a fake /proc and /sys */
	so.root = getenv("MMSCOPE_SAMPLE_ROOT");
	s = sampler_new(&so);
	t0 = next = now_ns();
	while (!sample_stop) {
		uint64_t now = now_ns();

		if (now >= next) {
			int n = o.to_stdout ? sampler_run(s, emit_stdout, NULL) :
				sampler_run(s, emit_fd, &fd);

			/* EBADF: tracing is off in the top-level buffer; keep trying */
			if (n < 0 && !warned++)
				warning("cannot write to trace_marker (%s): is tracing on?",
					strerror(errno));
			if (n >= 0)
				warned = 0;
			if (o.to_stdout)
				fflush(stdout);
			if (o.count && sampler_sets(s) >= o.count)
				break;
			next += (uint64_t)o.interval_ms * 1000000u;
			if (next < now)
				next = now + (uint64_t)o.interval_ms * 1000000u;
		}
		if (o.duration_ns && now - t0 >= o.duration_ns)
			break;
		poll(NULL, 0, wait_ms(next));
	}
	sampler_free(s);
	if (fd >= 0)
		close(fd);
	return EXIT_OK;
}

const struct cmd_entry cmd_sample_entry = {
	.name = "sample",
	.summary = "write counter samples into the top-level trace_marker",
	.usage = sample_usage,
	.run = cmd_sample,
};
