// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mmscope record: record memory-management events and counter samples
 * into a trace.dat. It runs COMMAND (or waits for --duration, SIGINT or
 * SIGTERM), moves the ring-buffer pages of its own tracefs instance into
 * a spool beside the output as they fill, writes a sample set into the
 * instance's trace_marker every interval, and at the end assembles the
 * spool into the output file and removes everything it created in
 * tracefs. With --flight-recorder the ring overwrites instead and is
 * written out only on SIGUSR1 or a trigger.
 */
#include "config.h"
#include "cmd.h"
#include "record-preflight.h"
#include "runctx.h"
#include "collector.h"
#include "families.h"
#include "probes.h"
#include "sampler.h"
#include "spool.h"
#include "trigger.h"
#include "util.h"

#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/resource.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define POLL_MS 100
#define POLL_FAST_MS 2
#define SYNC_MS 1000
#define LATE_META_MS 5000
#define RESERVE_BYTES (4u << 20)
#define MAX_TRIGGERS 8

static const char record_usage[] =
"usage: mmscope record [options] [-- COMMAND [ARGS]]\n"
"\n"
"Record reclaim, compaction, kswapd/kcompactd, swap and zswap activity\n"
"with counter samples, into a trace.dat file (version 7, zstd) that\n"
"trace-cmd and 'mmscope dump' read. Needs root (tracefs).\n"
"\n"
"  -o, --output FILE        where to write (default mmscope.dat)\n"
"  -f, --force              replace FILE if it exists\n"
"  -g, --groups G[,G]       event groups, listed below (default: all), or\n"
"                           none (only what -e asks for)\n"
"  -e, --event SYS[:EV]     add an event or a whole system (repeatable)\n"
"      --interval MS        counter sample interval (default 1000)\n"
"      --duration S         stop after S seconds (also 500ms, 2m)\n"
"      --buffer-kb N        ring buffer per CPU in KiB (default 16384)\n"
"      --max-size SIZE      stop when SIZE bytes of pages are spooled (e.g. 512M)\n"
"      --clock CLOCK        trace clock (default mono)\n"
"      --cgroup PATH        also sample this memory cgroup's memory.stat\n"
"      --spool DIR          spool directory (default FILE.spool)\n"
"      --compression C      zstd, zlib or none (default zstd)\n"
"      --no-probes          do not install swap/zswap kprobes\n"
"      --probe-set NAME     use this kprobe set even on a kernel it was not\n"
"                           verified on (5.10, 6.1, 6.12, 6.18, 7.x)\n"
"      --flight-recorder    keep the ring in overwrite mode; write it out on\n"
"                           SIGUSR1 or a trigger, as FILE-N.dat\n"
"      --trigger COND       psi-some>PCT, stall-ms>N or fallback-rate>PCT\n"
"  -q, --quiet              no progress line and no summary\n"
"  -h, --help               show this help\n"
"\n"
"Stops when COMMAND exits, after --duration, at --max-size, on a full disk,\n"
"or on SIGINT/SIGTERM; the file is finished in every case. If the recorder\n"
"is killed, 'mmscope recover FILE.spool -o FILE' finishes it.\n";

struct record_opts {
	const char *out, *spool, *groups, *clock, *cgroup, *probe_set;
	const char **extra;
	int nextra;
	unsigned interval_ms, buffer_kb;
	uint64_t duration_ns, max_size;
	int force, quiet, no_probes, flight;
	struct trigger triggers[MAX_TRIGGERS];
	int ntriggers;
	struct tw_opts w;
	char **command;
};

enum stop_reason {
	STOP_NONE, STOP_COMMAND, STOP_DURATION, STOP_SIGNAL, STOP_MAX_SIZE,
	STOP_DISK_FULL, STOP_ERROR,
};

static const char *const stop_names[] = {
	"none", "command exited", "duration reached", "signal", "max-size reached",
	"filesystem full", "error",
};

static volatile sig_atomic_t got_stop_signal, got_usr1;

static void on_stop_signal(int sig)
{
	got_stop_signal = sig;
}

static void on_usr1(int sig)
{
	(void)sig;
	got_usr1 = 1;
}

/* Every name in a -g list must be a group (or "none"). */
static int check_groups(const struct cmd_entry *cmd, const char *groups)
{
	char *copy = xstrdup(groups), *save = NULL, *g;
	int bad = 0;

	for (g = strtok_r(copy, ",", &save); g && !bad; g = strtok_r(NULL, ",", &save)) {
		int found = !strcmp(g, "none");

		if (!found && !family_find(g)) {
			char names[256];

			bad = usage_error(cmd, "unknown event group '%s' (%s, or none)", g,
					  family_group_names(names, sizeof(names)));
		}
	}
	free(copy);
	return bad;
}

/*
 * record's options, also for `tui --live` (record_parse_live): errors are
 * cmd's, and live refuses what a live session sets itself or cannot
 * follow. An option added here works in tui --live with no other edit.
 */
static int record_opts_parse(const struct cmd_entry *cmd, int live, int argc, char **argv,
			     struct record_opts *o)
{
	enum {
		OPT_INTERVAL = 256, OPT_DURATION, OPT_BUFFER, OPT_MAX_SIZE, OPT_CLOCK,
		OPT_CGROUP, OPT_SPOOL, OPT_COMPRESSION, OPT_NO_PROBES, OPT_FLIGHT,
		OPT_TRIGGER, OPT_PROBE_SET,
	};
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "force", no_argument, NULL, 'f' },
		{ "groups", required_argument, NULL, 'g' },
		{ "event", required_argument, NULL, 'e' },
		{ "interval", required_argument, NULL, OPT_INTERVAL },
		{ "duration", required_argument, NULL, OPT_DURATION },
		{ "buffer-kb", required_argument, NULL, OPT_BUFFER },
		{ "max-size", required_argument, NULL, OPT_MAX_SIZE },
		{ "clock", required_argument, NULL, OPT_CLOCK },
		{ "cgroup", required_argument, NULL, OPT_CGROUP },
		{ "spool", required_argument, NULL, OPT_SPOOL },
		{ "compression", required_argument, NULL, OPT_COMPRESSION },
		{ "no-probes", no_argument, NULL, OPT_NO_PROBES },
		{ "probe-set", required_argument, NULL, OPT_PROBE_SET },
		{ "flight-recorder", no_argument, NULL, OPT_FLIGHT },
		{ "trigger", required_argument, NULL, OPT_TRIGGER },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	/* a live session passes its own -q and --spool; it follows the trace
	 * clock in mono time and reads the spool as it grows */
	static const int live_refused[] = { 'q', OPT_SPOOL, OPT_CLOCK, OPT_FLIGHT, OPT_TRIGGER };
	unsigned long long v;
	char *err = NULL;
	int c, li;

	o->interval_ms = 1000;
	o->buffer_kb = 16384;
	tw_opts_default(&o->w);
	opterr = 0;
	/* "+": stop at the first non-option, which starts COMMAND */
	while ((c = getopt_long(argc, argv, "+o:fg:e:qh", longopts, &li)) != -1) {
		for (size_t k = 0; live && k < sizeof(live_refused) / sizeof(live_refused[0]); k++)
			if (c == live_refused[k])
				return c < 256 ? usage_error(cmd, "'-%c' cannot be used with --live", c) :
				       usage_error(cmd, "'--%s' cannot be used with --live",
						   longopts[li].name);
		switch (c) {
		case 'o':
			o->out = optarg;
			break;
		case 'f':
			o->force = 1;
			break;
		case 'g':
			o->groups = optarg;
			break;
		case 'e':
			o->extra = xreallocarray(o->extra, (size_t)o->nextra + 2, sizeof(*o->extra));
			o->extra[o->nextra++] = optarg;
			o->extra[o->nextra] = NULL;
			break;
		case OPT_INTERVAL:
			if (parse_interval(cmd, optarg, &o->interval_ms))
				return EXIT_USAGE;
			break;
		case OPT_DURATION:
			if (parse_duration(cmd, optarg, &o->duration_ns))
				return EXIT_USAGE;
			break;
		case OPT_BUFFER:
			if (parse_ull(optarg, &v) || v < 64 || v > (4u << 20))
				return usage_error(cmd, "bad --buffer-kb '%s' (64..4194304)", optarg);
			o->buffer_kb = (unsigned)v;
			break;
		case OPT_MAX_SIZE:
			if (parse_size(optarg, &o->max_size) || o->max_size < 65536)
				return usage_error(cmd, "bad --max-size '%s' (at least 64K)", optarg);
			break;
		case OPT_CLOCK:
			o->clock = optarg;
			break;
		case OPT_CGROUP:
			o->cgroup = optarg;
			break;
		case OPT_SPOOL:
			o->spool = optarg;
			break;
		case OPT_COMPRESSION:
			if (parse_compression(cmd, optarg, &o->w.codec))
				return EXIT_USAGE;
			o->w.level = codec_default_level(o->w.codec);
			break;
		case OPT_NO_PROBES:
			o->no_probes = 1;
			break;
		case OPT_PROBE_SET:
			if (!probe_set_find(optarg)) {
				char names[128];

				probe_set_names(names, sizeof(names));
				return usage_error(cmd, "unknown probe set '%s' (%s)", optarg, names);
			}
			o->probe_set = optarg;
			break;
		case OPT_FLIGHT:
			o->flight = 1;
			break;
		case OPT_TRIGGER:
			if (o->ntriggers == MAX_TRIGGERS)
				return usage_error(cmd, "at most %d triggers", MAX_TRIGGERS);
			if (trigger_parse(optarg, &o->triggers[o->ntriggers], &err)) {
				int r = usage_error(cmd, "%s", err);

				free(err);
				return r;
			}
			o->ntriggers++;
			break;
		case 'q':
			o->quiet = 1;
			break;
		case 'h':
			return -1;
		default:
			return bad_option(cmd, argc, argv);
		}
	}
	if (o->groups && check_groups(cmd, o->groups))
		return EXIT_USAGE;
	if (optind < argc)
		o->command = argv + optind;
	if (o->ntriggers && !o->flight)
		return usage_error(cmd, "--trigger needs --flight-recorder");
	if (o->flight && o->max_size)
		return usage_error(cmd, "--max-size does not apply to --flight-recorder");
	if (!o->out && !live)
		o->out = "mmscope.dat";
	return 0;
}

static int record_parse_opts(int argc, char **argv, struct record_opts *o)
{
	return record_opts_parse(&cmd_record_entry, 0, argc, argv, o);
}

int record_parse_live(const struct cmd_entry *cmd, int argc, char **argv, const char **out,
		      int *force)
{
	struct record_opts o = { 0 };
	int r = record_opts_parse(cmd, 1, argc, argv, &o);

	*out = o.out;
	*force = o.force;
	free(o.extra);
	return r;
}

/* ---- the recording state ---- */

struct recorder {
	struct record_opts *o;
	struct collector *col;
	struct spool *spool;
	char *spool_dir;
	struct sampler *sampler;
	pid_t child;
	int child_status;
	int child_done;
	int child_pidfd;	/* poll wakes when the child exits; -1 none */
	struct rusage child_ru;	/* from wait4 */
	uint64_t child_start_ns, child_end_ns;	/* released, reaped (mono) */
	int child_stopped;	/* stop_child signalled it */
	int go_fd;		/* write end of the pipe that starts the child */
	enum stop_reason stop;
	char *stop_detail;
	uint64_t t0_ns, start_real_ns, start_trace_ns;
	uint64_t pages;
	int ncpus;
	uint32_t page_size;
	struct collector_cpustat *stats;
	int progress;		/* stderr is a tty */
	int flight_dumps;
	const char *trigger;	/* why the flight recorder is writing, or NULL */
	long long vm_first[2];	/* pswpout, swpout_zero at the first set */
};

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int marker_emit(void *ctx, const char *line, size_t len)
{
	int fd = *(int *)ctx;
	ssize_t n;

	if (fd < 0) {
		errno = EBADF;
		return -1;
	}
	do
		n = write(fd, line, len);
	while (n < 0 && errno == EINTR);
	return n == (ssize_t)len ? 0 : -1;
}

static void take_sample(struct recorder *r)
{
	int fd = collector_marker_fd(r->col);

	sampler_run(r->sampler, marker_emit, &fd);
}

/* The run's context (src/runctx.h) in the set about to be sampled, and at
 * the end the command's outcome. */
static void write_context(struct recorder *r, const char *phase)
{
	int fd = collector_marker_fd(r->col);

	runctx_emit("", phase, sampler_sets(r->sampler), marker_emit, &fd);
}

static void write_outcome(struct recorder *r)
{
	struct runctx_outcome out = { 0 };
	int fd = collector_marker_fd(r->col);

	if (!r->o->command || r->child <= 0)
		return;
	out.argv = r->o->command;
	out.reaped = r->child_done;
	out.status = r->child_status;
	out.ru = r->child_ru;
	out.elapsed_ns = r->child_end_ns - r->child_start_ns;
	out.stopped_by_recorder = r->child_stopped;
	runctx_emit_outcome(&out, sampler_sets(r->sampler), marker_emit, &fd);
}

/* ---- metadata ---- */

static void private_meta(struct recorder *r, struct strbuf *sb)
{
	const struct probe_result *pr = collector_probes(r->col);
	struct utsname u;

	strbuf_addf(sb, "mmscope=%s\n", PACKAGE_VERSION);
	if (!uname(&u))
		strbuf_addf(sb, "kernel=%s\nhost=%s\n", u.release, u.nodename);
	strbuf_addf(sb, "clock=%s\n", collector_clock(r->col));
	strbuf_addf(sb, "start_realtime_ns=%llu\n", (unsigned long long)r->start_real_ns);
	if (r->start_trace_ns)
		strbuf_addf(sb, "start_trace_ns=%llu\n", (unsigned long long)r->start_trace_ns);
	strbuf_addf(sb, "interval_ms=%u\n", r->o->interval_ms);
	strbuf_addf(sb, "buffer_kb=%u\n", r->o->buffer_kb);
	strbuf_addf(sb, "groups=%s\n", collector_groups(r->col));
	strbuf_addf(sb, "events=%s\n", collector_events(r->col));
	strbuf_addf(sb, "missing_events=%s\n", collector_missing(r->col));
	strbuf_addf(sb, "probe_set=%s\n", pr->set ? pr->set : "none");
	strbuf_addf(sb, "probe_reason=%s\n", pr->reason ? pr->reason : "");
	strbuf_addf(sb, "probes=%s\n", pr->probes ? pr->probes : "");
	if (pr->probes && *pr->probes) {	/* missed hits so far (kprobe_profile) */
		const char *tfs = collector_tracefs(NULL);
		struct strbuf m = STRBUF_INIT;

		if (tfs && !probes_read_missed(tfs, pr->probes, &m))
			strbuf_addf(sb, "probe_missed=%s\n", m.buf ? m.buf : "");
		strbuf_release(&m);
	}
	strbuf_addf(sb, "sample_sources=%s\n", sampler_sources(r->sampler));
	strbuf_addf(sb, "missing_sources=%s\n", sampler_missing(r->sampler));
	if (r->o->cgroup)
		strbuf_addf(sb, "cgroup=%s\n", r->o->cgroup);
	if (r->o->command) {
		strbuf_addstr(sb, "command=");
		for (char **a = r->o->command; *a; a++)
			strbuf_addf(sb, "%s%s", a == r->o->command ? "" : " ", *a);
		strbuf_addch(sb, '\n');
	}
	if (r->o->flight)	/* cpustat=window: stats count from the ring's last emptying */
		strbuf_addstr(sb, "mode=flight-recorder\ncpustat=window\n");
	if (r->trigger)
		strbuf_addf(sb, "trigger=%s\n", r->trigger);
	strbuf_addf(sb, "stop_reason=%s\n", r->stop == STOP_NONE ? "running" :
		    stop_names[r->stop]);
}

static int write_private_meta(struct recorder *r, struct spool *s, char **err)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	private_meta(r, &sb);
	ret = spool_put_meta(s, "mmscope", sb.buf, sb.len, err);
	if (!ret)
		ret = spool_put_meta(s, "version", PACKAGE_VERSION, strlen(PACKAGE_VERSION), err);
	strbuf_release(&sb);
	return ret;
}

/* ---- the command ---- */

static int start_command(struct recorder *r)
{
	int pfd[2];
	char c, *marker = xasprintf("%s/trace_marker", collector_instance_dir(r->col));

	/* the child waits on a pipe so that it starts after tracing does */
	if (pipe(pfd) || (r->child = fork()) < 0) {
		free(marker);
		return error("cannot start '%s': %s", r->o->command[0], strerror(errno));
	}
	if (r->child > 0)	/* Linux 5.3+; without it the loop's poll times out */
		r->child_pidfd = (int)syscall(SYS_pidfd_open, r->child, 0);
	if (r->child == 0) {
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGUSR1, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		close(pfd[1]);
		if (read(pfd[0], &c, 1) != 1)
			_exit(127);
		close(pfd[0]);
		/* where the command writes its phase markers (mmscope-record(1)) */
		setenv("MMSCOPE_TRACE_MARKER", marker, 1);
		execvp(r->o->command[0], r->o->command);
		fprintf(stderr, "error: cannot run '%s': %s\n", r->o->command[0], strerror(errno));
		_exit(127);
	}
	close(pfd[0]);
	free(marker);
	r->go_fd = pfd[1];
	return 0;
}

static void release_command(struct recorder *r)
{
	if (r->child > 0 && r->go_fd >= 0) {
		r->child_start_ns = mono_ns();
		if (write(r->go_fd, "g", 1) != 1)
			{ /* the child exits 127 and we see it */ }
		close(r->go_fd);
		r->go_fd = -1;
	}
}

/* wait4 for the child: 1 when reaped (status, rusage and time kept). */
static int reap_child(struct recorder *r, int options)
{
	int st;

	if (wait4(r->child, &st, options, &r->child_ru) != r->child)
		return 0;
	r->child_end_ns = mono_ns();
	r->child_done = 1;
	r->child_status = st;
	return 1;
}

static void check_child(struct recorder *r)
{
	if (r->child <= 0 || r->child_done)
		return;
	reap_child(r, WNOHANG);
}

static void stop_child(struct recorder *r)
{
	/* one that already ended (a Ctrl-C reaches its process group too)
	 * was not ended by us */
	if (r->child <= 0 || r->child_done || reap_child(r, WNOHANG))
		return;
	r->child_stopped = 1;
	kill(r->child, SIGTERM);
	for (int i = 0; i < 50; i++) {
		if (reap_child(r, WNOHANG))
			return;
		poll(NULL, 0, 100);
	}
	kill(r->child, SIGKILL);
	reap_child(r, 0);
}

/* ---- progress and summary ---- */

static void totals(const struct recorder *r, uint64_t *events, uint64_t *lost)
{
	*events = *lost = 0;
	for (int cpu = 0; cpu < r->ncpus; cpu++) {
		*events += r->stats[cpu].read;
		*lost += r->stats[cpu].dropped + r->stats[cpu].overrun;
	}
}

static void progress(struct recorder *r)
{
	uint64_t events, lost;

	if (!r->progress)
		return;
	collector_stats(r->col, r->stats);
	totals(r, &events, &lost);
	fprintf(stderr, "\rmmscope: %6.1f s  %10llu events  %8.1f MB  lost %llu ",
		(double)(mono_ns() - r->t0_ns) / 1e9, (unsigned long long)events,
		(double)spool_bytes(r->spool) / 1e6, (unsigned long long)lost);
	fflush(stderr);
}

static void summary(struct recorder *r, const struct spool_result *res, const char *path)
{
	uint64_t events, lost;

	totals(r, &events, &lost);
	if (r->progress)
		fputc('\n', stderr);
	fprintf(stderr, "mmscope: stopped: %s%s%s\n", stop_names[r->stop],
		r->stop_detail ? ": " : "", r->stop_detail ? r->stop_detail : "");
	fprintf(stderr, "mmscope: %-5s %12s %10s %12s %10s\n", "cpu", "events", "pages",
		"bytes", "lost");
	for (int cpu = 0; cpu < r->ncpus; cpu++)
		fprintf(stderr, "mmscope: %-5d %12llu %10llu %12llu %10llu\n", cpu,
			(unsigned long long)r->stats[cpu].read,
			(unsigned long long)spool_cpu_pages(r->spool, cpu),
			(unsigned long long)(spool_cpu_pages(r->spool, cpu) * r->page_size),
			(unsigned long long)(r->stats[cpu].dropped + r->stats[cpu].overrun));
	fprintf(stderr, "mmscope: %-5s %12llu %10llu %12llu %10llu\n", "all",
		(unsigned long long)events, (unsigned long long)res->pages,
		(unsigned long long)spool_bytes(r->spool), (unsigned long long)lost);
	fprintf(stderr, "mmscope: %llu sample sets; wrote %s (%llu bytes, %.1f s)\n",
		(unsigned long long)sampler_sets(r->sampler), path,
		(unsigned long long)res->bytes, (double)(mono_ns() - r->t0_ns) / 1e9);
	if (lost)
		warning("the ring buffer lost %llu events: raise --buffer-kb", (unsigned long long)lost);
}

/* ---- the loop ---- */

static void set_stop(struct recorder *r, enum stop_reason why, char *detail)
{
	if (r->stop != STOP_NONE) {
		free(detail);
		return;
	}
	r->stop = why;
	r->stop_detail = detail;
}

/* Room left on the spool's filesystem for the final file. */
static void check_space(struct recorder *r)
{
	struct statvfs sv;
	uint64_t avail, need;

	if (statvfs(r->spool_dir, &sv))
		return;
	avail = (uint64_t)sv.f_bavail * sv.f_frsize;
	/* the zstd file is ~1/6 of the pages; keep a quarter free for it */
	need = spool_bytes(r->spool) / 4 + (1u << 20);
	if (avail < need)
		set_stop(r, STOP_DISK_FULL, xasprintf("%llu bytes left on the spool's filesystem",
						      (unsigned long long)avail));
}

/* Returns the pages moved (0 on a stop). */
static long move_pages(struct recorder *r, enum collector_read_mode mode)
{
	char *err = NULL;
	long max = 0, n;

	if (r->o->max_size) {
		uint64_t done = spool_bytes(r->spool), page = collector_page_size(r->col);

		if (done + page > r->o->max_size) {
			set_stop(r, STOP_MAX_SIZE, xasprintf("%llu bytes",
				 (unsigned long long)r->o->max_size));
			return 0;
		}
		max = (long)((r->o->max_size - done) / page);
	}
	n = collector_read(r->col, r->spool, mode, max, &err);
	if (n < 0) {
		int disk_full = errno == ENOSPC || errno == EDQUOT || errno == EFBIG;

		set_stop(r, disk_full ? STOP_DISK_FULL : STOP_ERROR, err);
		return 0;
	}
	r->pages += (uint64_t)n;
	if (max && n >= max)
		set_stop(r, STOP_MAX_SIZE, xasprintf("%llu bytes", (unsigned long long)r->o->max_size));
	return n;
}

static char *flight_name(const char *out, int n)
{
	const char *dot = strrchr(out, '.'), *slash = strrchr(out, '/');

	if (dot && (!slash || dot > slash))
		return xasprintf("%.*s-%d%s", (int)(dot - out), out, n, dot);
	return xasprintf("%s-%d", out, n);
}

/* Flight recorder: write the ring (with its samples) to FILE-N.dat. */
static void flight_dump(struct recorder *r, const char *why)
{
	struct spool *saved = r->spool, *s;
	char *dir, *path, *err = NULL;
	struct spool_result res;

	r->flight_dumps++;
	path = flight_name(r->o->out, r->flight_dumps);
	dir = xasprintf("%s.spool", path);
	write_context(r, "end");
	take_sample(r);
	collector_stop(r->col);
	r->trigger = why;
	s = spool_create(dir, r->ncpus, collector_page_size(r->col), 0, &err);
	if (!s || collector_snapshot_meta(r->col, s, &err) ||
	    write_private_meta(r, s, &err)) {
		error("flight recorder: %s", err);
		goto out;
	}
	r->spool = s;
	if (collector_read(r->col, s, COLLECTOR_READ_FLUSH, 0, &err) < 0) {
		error("flight recorder: %s", err);
		goto out;
	}
	collector_snapshot_late(r->col, s, NULL);
	collector_stats_restart(r->col);	/* the next dump's stats start here */
	if (spool_write_file(dir, path, r->o->force, &r->o->w, &res, &err)) {
		error("flight recorder: %s: %s (the spool %s is kept)", path, err, dir);
		goto out;
	}
	spool_close(s);
	s = NULL;
	spool_remove(dir, NULL);
	if (!r->o->quiet)
		fprintf(stderr, "%smmscope: %s: wrote %s (%llu pages, %llu bytes)\n",
			r->progress ? "\n" : "", why, path, (unsigned long long)res.pages,
			(unsigned long long)res.bytes);
out:
	r->trigger = NULL;
	spool_close(s);
	r->spool = saved;
	free(err);
	err = NULL;
	if (collector_start(r->col, &err))
		set_stop(r, STOP_ERROR, err);
	else
		take_sample(r);
	free(dir);
	free(path);
}

static void check_triggers(struct recorder *r)
{
	char why[200];

	/* tests point the triggers at a fake /proc, as they do the sampler */
	const char *root = getenv("MMSCOPE_SAMPLE_ROOT");

	for (int i = 0; i < r->o->ntriggers; i++)
		if (trigger_check(&r->o->triggers[i], root, why, sizeof(why)) == 1) {
			flight_dump(r, why);
			return;
		}
}

static void record_loop(struct recorder *r)
{
	uint64_t next_sample = r->t0_ns + (uint64_t)r->o->interval_ms * 1000000u;
	uint64_t next_sync = r->t0_ns + (uint64_t)SYNC_MS * 1000000u;
	uint64_t next_late = r->t0_ns + (uint64_t)LATE_META_MS * 1000000u;
	char *err = NULL;

	/* poll often enough that the rings fill to at most a quarter between reads */
	double quarter = (double)r->o->buffer_kb * 1024 / r->page_size / 4;
	int wait_ms = POLL_MS;

	while (r->stop == STOP_NONE) {
		struct pollfd pfd = { .fd = r->child_pidfd, .events = POLLIN };
		uint64_t now;

		/* the child's exit wakes the loop: its elapsed time is exact */
		poll(&pfd, r->child_pidfd >= 0 && !r->child_done ? 1 : 0, wait_ms);
		now = mono_ns();
		if (!r->o->flight) {
			long n = move_pages(r, now >= next_sync ? COLLECTOR_READ_PARTIAL :
					    COLLECTOR_READ_FULL);
			/* pages per ms on the busiest CPU, roughly: n spread over ncpus */
			double rate = (double)n / r->ncpus / wait_ms;

			wait_ms = rate > 0 ? (int)(quarter / rate) : POLL_MS;
			if (wait_ms > POLL_MS)
				wait_ms = POLL_MS;
			if (wait_ms < POLL_FAST_MS)
				wait_ms = POLL_FAST_MS;
		}
		if (got_stop_signal) {
			set_stop(r, STOP_SIGNAL, xstrdup(strsignal(got_stop_signal)));
			break;
		}
		check_child(r);
		if (r->child > 0 && r->child_done) {
			set_stop(r, STOP_COMMAND, NULL);
			break;
		}
		if (r->o->duration_ns && now - r->t0_ns >= r->o->duration_ns) {
			set_stop(r, STOP_DURATION, NULL);
			break;
		}
		if (now >= next_sample) {
			take_sample(r);
			next_sample += (uint64_t)r->o->interval_ms * 1000000u;
			if (next_sample < now)
				next_sample = now + (uint64_t)r->o->interval_ms * 1000000u;
			if (r->o->flight)
				check_triggers(r);
		}
		if (got_usr1 && r->o->flight) {
			got_usr1 = 0;
			flight_dump(r, "SIGUSR1");
		}
		if (now >= next_sync && !r->o->flight) {
			if (spool_sync(r->spool, &err)) {
				set_stop(r, STOP_ERROR, err);
				err = NULL;
			}
			check_space(r);
			progress(r);
			next_sync = now + (uint64_t)SYNC_MS * 1000000u;
		}
		if (now >= next_late && !r->o->flight) {
			collector_snapshot_late(r->col, r->spool, NULL);
			next_late = now + (uint64_t)LATE_META_MS * 1000000u;
		}
	}
}

static void install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

static int exists(const char *path)
{
	struct stat st;

	return !lstat(path, &st);
}

/* An -e event this kernel lacks is recorded without, but never silently
 * (group events a kernel lacks are normal and listed in the metadata). */
static void warn_missing_extra(const struct record_opts *o, const char *missing)
{
	for (int i = 0; i < o->nextra; i++) {
		char *want = xasprintf(",%s,", o->extra[i]), *have = xasprintf(",%s,", missing);

		if (strstr(have, want))
			warning("%s: no such event on this kernel; recording without it",
				o->extra[i]);
		free(want);
		free(have);
	}
}

static int record_setup(struct recorder *r)
{
	struct collector_opts co = { 0 };
	struct strbuf removed = STRBUF_INIT;
	struct sampler_opts so = { 0 };
	const char *tfs;
	char *err = NULL;

	tfs = collector_tracefs(&err);
	if (!tfs) {
		error("%s", err);
		free(err);
		return -1;
	}
	if (collector_cleanup_stale(tfs, &removed) > 0)
		warning("removed what killed recorders left in tracefs: %s", removed.buf);
	strbuf_release(&removed);
	co.groups = r->o->groups;
	co.extra = r->o->extra;
	co.buffer_kb = r->o->buffer_kb;
	co.clock = r->o->clock;
	co.overwrite = r->o->flight;
	co.no_probes = r->o->no_probes;
	co.probe_set = r->o->probe_set;
	r->col = collector_open(&co, &err);
	if (!r->col) {
		error("%s", err);
		free(err);
		return -1;
	}
	warn_missing_extra(r->o, collector_missing(r->col));
	if (collector_probes(r->col)->unverified)	/* one line: why no probes */
		warning("no swap/zswap kprobes: %s", collector_probes(r->col)->reason);
	r->ncpus = collector_ncpus(r->col);
	r->page_size = collector_page_size(r->col);
	r->stats = xcalloc((size_t)r->ncpus, sizeof(*r->stats));
	so.cgroup = r->o->cgroup;
	/* zswap's pool counters are in debugfs; without it the samples say why */
	if (!access("/sys/module/zswap/parameters", F_OK) && collector_debugfs(&err)) {
		free(err);
		err = NULL;
	}
	r->sampler = sampler_new(&so);
	if (r->o->flight)
		return 0;
	r->spool = spool_create(r->spool_dir, r->ncpus, collector_page_size(r->col),
				RESERVE_BYTES, &err);
	if (!r->spool || collector_snapshot_meta(r->col, r->spool, &err) ||
	    write_private_meta(r, r->spool, &err) ||
	    spool_put_meta(r->spool, "instance", collector_instance_dir(r->col),
			   strlen(collector_instance_dir(r->col)), &err)) {
		error("%s", err);
		free(err);
		return -1;
	}
	return 0;
}

static const char *trace_clock_id(const char *clock, clockid_t *id)
{
	if (!strcmp(clock, "mono"))
		*id = CLOCK_MONOTONIC;
	else if (!strcmp(clock, "mono_raw"))
		*id = CLOCK_MONOTONIC_RAW;
	else if (!strcmp(clock, "boot"))
		*id = CLOCK_BOOTTIME;
	else if (!strcmp(clock, "tai"))
		*id = CLOCK_TAI;
	else
		return NULL;
	return clock;
}

static int record_start(struct recorder *r)
{
	char *err = NULL;
	clockid_t id;

	if (collector_start(r->col, &err)) {
		error("%s", err);
		free(err);
		return -1;
	}
	r->t0_ns = mono_ns();
	r->start_real_ns = clock_ns(CLOCK_REALTIME);
	if (trace_clock_id(collector_clock(r->col), &id))
		r->start_trace_ns = clock_ns(id);
	write_context(r, "start");
	take_sample(r);
	r->vm_first[0] = sampler_vmstat(r->sampler, "pswpout");
	r->vm_first[1] = sampler_vmstat(r->sampler, "swpout_zero");
	if (r->spool)
		write_private_meta(r, r->spool, NULL);	/* now with the sources */
	if (r->o->command)
		release_command(r);
	return 0;
}

/* Stop tracing, take the last pages, write the file. */
static int record_finish(struct recorder *r)
{
	struct spool_result res = { 0 };
	char *err = NULL;
	int ret = EXIT_OK;

	write_context(r, "end");
	write_outcome(r);
	take_sample(r);
	collector_stop(r->col);
	if (r->o->flight) {
		collector_stats(r->col, r->stats);
		return EXIT_OK;
	}
	if (r->stop != STOP_DISK_FULL && r->stop != STOP_MAX_SIZE)
		move_pages(r, COLLECTOR_READ_FLUSH);
	collector_stats(r->col, r->stats);
	spool_release_reserve(r->spool);
	if (collector_snapshot_late(r->col, r->spool, &err) ||
	    write_private_meta(r, r->spool, &err)) {
		warning("%s", err);
		free(err);
		err = NULL;
	}
	/* everything is in the spool: nothing of ours is left in tracefs */
	collector_close(r->col);
	r->col = NULL;
	if (spool_write_file(r->spool_dir, r->o->out, r->o->force, &r->o->w, &res, &err)) {
		error("%s: %s; the recording is kept in %s: run 'mmscope recover %s -o FILE' "
		      "with FILE on a filesystem with room", r->o->out, err, r->spool_dir,
		      r->spool_dir);
		free(err);
		return EXIT_ERROR;
	}
	if (!r->o->quiet)
		summary(r, &res, r->o->out);
	spool_close(r->spool);
	r->spool = NULL;
	if (spool_remove(r->spool_dir, &err)) {
		warning("%s", err);
		free(err);
	}
	if (r->stop == STOP_ERROR)
		ret = EXIT_ERROR;
	return ret;
}

static void record_cleanup(struct recorder *r)
{
	if (r->go_fd >= 0)
		close(r->go_fd);	/* a child that never got to run exits */
	r->go_fd = -1;
	stop_child(r);
	if (r->child_pidfd >= 0)
		close(r->child_pidfd);
	r->child_pidfd = -1;
	collector_close(r->col);
	spool_close(r->spool);
	sampler_free(r->sampler);
	free(r->stats);
	free(r->stop_detail);
	free(r->spool_dir);
}

/* COMMAND's wait status as a shell would give it: its exit status, or
 * 128 + the signal that killed it. */
static int command_exit_status(int st)
{
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return EXIT_ERROR;
}

/* The usage, then the event groups from the family table. */
static int record_help(void)
{
	fputs(record_usage, stdout);
	printf("\nEvent groups:\n");
	for (int i = 0; i < event_nfamilies; i++)
		if (event_families[i].group)
			printf("  %-11s %s\n", event_families[i].group, event_families[i].help);
	return finish_stdout(EXIT_OK);
}

/* Refusals before anything is traced (src/record-preflight.h): 0 or -1
 * after one "error:" line. */
static int record_preflight(const struct record_opts *o)
{
	const char *tfs;
	char *err = NULL;

	if ((o->command && preflight_command(o->command[0], &err)) ||
	    (o->cgroup && preflight_cgroup(o->cgroup, &err))) {
		error("%s", err);
		free(err);
		return -1;
	}
	tfs = collector_tracefs(&err);
	if (!tfs) {	/* record_setup says why, with exit status 1 */
		free(err);
		return 0;
	}
	if (preflight_events(tfs, o->groups, o->extra, o->no_probes, &err)) {
		error("%s", err);
		free(err);
		return -1;
	}
	return 0;
}

static int cmd_record(int argc, char **argv)
{
	struct record_opts o = { 0 };
	struct recorder r = { 0 };
	int ret = record_parse_opts(argc, argv, &o);

	if (ret < 0)
		return record_help();
	if (ret)
		goto out_opts;
	if (!o.flight && exists(o.out) && !o.force) {
		ret = error("%s: already exists (use --force to replace it)", o.out);
		goto out_opts;
	}
	if (record_preflight(&o)) {
		ret = EXIT_USAGE;
		goto out_opts;
	}
	r.o = &o;
	r.spool_dir = o.spool ? xstrdup(o.spool) : xasprintf("%s.spool", o.out);
	r.progress = !o.quiet && isatty(2);
	r.child = -1;
	r.child_pidfd = -1;
	r.go_fd = -1;
	install_signals();
	if (record_setup(&r) || (o.command && start_command(&r)) || record_start(&r)) {
		int keep = r.spool && exists(r.spool_dir);

		record_cleanup(&r);
		if (keep)
			spool_remove(r.spool_dir, NULL);
		ret = EXIT_ERROR;
		goto out_opts;
	}
	record_loop(&r);
	stop_child(&r);
	ret = record_finish(&r);
	if (r.child > 0 && r.child_done && r.stop == STOP_COMMAND) {
		int cs = command_exit_status(r.child_status);

		if (!o.quiet && WIFEXITED(r.child_status) && WEXITSTATUS(r.child_status))
			warning("'%s' exited with status %d", o.command[0],
				WEXITSTATUS(r.child_status));
		else if (!o.quiet && WIFSIGNALED(r.child_status))
			warning("'%s' was killed by signal %d", o.command[0],
				WTERMSIG(r.child_status));
		/* like time(1): a complete recording exits with the command's
		 * status; a recorder error keeps its own */
		if (ret == EXIT_OK)
			ret = cs;
	}
	if (o.flight && !o.quiet)
		fprintf(stderr, "%smmscope: flight recorder stopped (%s); %d file%s written\n",
			r.progress ? "\n" : "", stop_names[r.stop], r.flight_dumps,
			r.flight_dumps == 1 ? "" : "s");
	record_cleanup(&r);
out_opts:
	free(o.extra);
	return ret;
}

const struct cmd_entry cmd_record_entry = {
	.name = "record",
	.summary = "record reclaim/compaction/swap events with counter samples",
	.usage = record_usage,
	.run = cmd_record,
};
