// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The recording engine (src/recorder.h): it runs COMMAND (or waits for
 * --duration, SIGINT or SIGTERM), moves the ring-buffer pages of its own
 * tracefs instance into a spool beside the output as they fill, writes a
 * sample set into the instance's trace_marker every interval, and at the
 * end assembles the spool into the output file and removes everything it
 * created in tracefs. With --flight-recorder the ring overwrites instead
 * and is written out only on SIGUSR1 or a trigger.
 */
#include "config.h"
#include "cmd.h"
#include "recorder.h"
#include "inputs.h"
#include "record-preflight.h"
#include "runctx.h"
#include "collector.h"
#include "families.h"
#include "probes.h"
#include "sampler.h"
#include "spool.h"
#include "trigger.h"
#include "trigger-watch.h"
#include "switch-output.h"
#include "record-config.h"
#include "wall-map.h"
#include "util.h"

#include <errno.h>
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


static const char *const stop_names[] = {
	"none", "command exited", "duration reached", "signal", "max-size reached",
	"filesystem full", "error", "max-triggers reached",
};

static volatile sig_atomic_t got_stop_signal, got_usr1;

static int exists(const char *path);

static void on_stop_signal(int sig)
{
	got_stop_signal = sig;
}

static void on_usr1(int sig)
{
	(void)sig;
	got_usr1 = 1;
}

/* ---- the recording state ---- */

struct recorder {
	struct recorder_opts *o;
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
	enum recorder_stop stop;
	char *stop_detail;
	uint64_t t0_ns, start_real_ns, start_trace_ns;
	char run_id[33];	/* in every file of the run (inputs.h); "" none */
	struct wall_track wall;	/* the wall clock against the trace clock */
	uint64_t meta_ns;	/* the spool's metadata last written (mono) */
	uint64_t pages;
	int ncpus;
	uint32_t page_size;
	struct collector_cpustat *stats;
	int progress;		/* stderr is a tty */
	int flight_dumps;
	int part_base;		/* the highest FILE-N of an earlier run (numbering goes on) */
	int flight_failed;	/* flight files that could not be written */
	const char *trigger;	/* why the flight recorder is writing, or NULL */
	/* the trigger being written: its spec (or SIGUSR1), when (trace clock
	 * and realtime, ns), and the file recording after it (--post-trigger) */
	char trig_name[64], trig_why[200];
	uint64_t trig_trace_ns, trig_real_ns;
	const struct trigger *trig;	/* NULL: SIGUSR1 */
	struct trigger_fired trig_fired;	/* what it saw */
	struct spool *bracket;
	char *bracket_dir, *bracket_path;
	uint64_t post_end_ns, cooldown_until_ns;
	unsigned buffer_kb;	/* the ring per CPU now (--pre-trigger grows it) */
	uint64_t *last_overrun;	/* per CPU, at the last ring check */
	/* --switch-output: the file being recorded (FILE-seg.dat) */
	int seg, files, switching, switch_failed;
	/* per CPU, the pages and the events a full disk kept out of the
	 * files finished before this one, and their bytes of pages: the
	 * summary's figures are the whole run's */
	uint64_t *done_pages, *done_unkept, done_bytes;
	/* reads of the ring the kernel had no memory for (collector.h) */
	uint64_t splice_nomem, read_nomem, plain_pages;
	char *seg_path;
	uint64_t seg_start_ns;
	int ring_warned;
	struct trigger_watch *watch;	/* event triggers' instance, or NULL */
	char *cgroup_dir;		/* --cgroup resolved, for memcg triggers */
	long long vm_first[2];	/* pswpout, swpout_zero at the first set */
	/* MMSCOPE_RECORD_CPU: the recorder's own CPU time (ns, user+system)
	 * when tracing went on and when every page was in the spool */
	int cpu_report;
	uint64_t cpu_on_ns, cpu_read_ns;
};

/* This process's user+system time (its threads; not its children). */
static uint64_t self_cpu_ns(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru))
		return 0;
	return ((uint64_t)ru.ru_utime.tv_sec + (uint64_t)ru.ru_stime.tv_sec) * 1000000000u +
	       ((uint64_t)ru.ru_utime.tv_usec + (uint64_t)ru.ru_stime.tv_usec) * 1000u;
}

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

	wall_track_check(&r->wall);
	sampler_run(r->sampler, marker_emit, &fd);
}

static int write_private_meta(struct recorder *r, struct spool *s, char **err);

/* The spool's metadata again every META_REFRESH_NS and at a step of the
 * wall clock: a spool recovered after a crash (mmscope recover) then
 * holds the clocks' reads up to its last seconds, not its start's alone. */
#define META_REFRESH_NS 2000000000ull

static void refresh_meta(struct recorder *r, int stepped)
{
	uint64_t now = mono_ns();

	if (r->o->flight || !r->spool || (!stepped && now - r->meta_ns < META_REFRESH_NS))
		return;
	r->meta_ns = now;
	write_private_meta(r, r->spool, NULL);	/* written again at the end */
}

/* A set on the interval: the costliest source not every time. */
static void take_routine_sample(struct recorder *r)
{
	int fd = collector_marker_fd(r->col), stepped = wall_track_check(&r->wall);

	sampler_run_routine(r->sampler, marker_emit, &fd);
	refresh_meta(r, stepped);
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

/* The trigger that made the file, key by key (mmscope-recording(5)). */
static void trigger_meta(const struct recorder *r, struct strbuf *sb)
{
	const struct trigger *t = r->trig;
	const struct trigger_fired *f = &r->trig_fired;

	strbuf_addf(sb, "trigger_kind=%s\n", t ? trigger_kind_name(t) : "SIGUSR1");
	if (!t)
		return;
	strbuf_addf(sb, "trigger_unit=%s\ntrigger_threshold=%g\n", trigger_unit(t), t->threshold);
	if (f->has_value)
		strbuf_addf(sb, "trigger_value=%.6g\n", f->value);
	if (f->pid > 0)
		strbuf_addf(sb, "trigger_pid=%d\n", f->pid);
	if (f->comm[0]) {	/* a task name may hold spaces: one line all the same */
		strbuf_addstr(sb, "trigger_comm=");
		for (const char *c = f->comm; *c; c++)
			strbuf_addch(sb, *c == '\n' ? ' ' : *c);
		strbuf_addch(sb, '\n');
	}
}

static void private_meta(struct recorder *r, struct strbuf *sb)
{
	const struct probe_result *pr = collector_probes(r->col);
	struct utsname u;

	strbuf_addf(sb, "mmscope=%s\n", PACKAGE_VERSION);
	if (!uname(&u))
		strbuf_addf(sb, "kernel=%s\nhost=%s\n", u.release, u.nodename);
	strbuf_addf(sb, "clock=%s\n", collector_clock(r->col));
	strbuf_addf(sb, "start_realtime_ns=%llu\n", (unsigned long long)r->start_real_ns);
	strbuf_addf(sb, "%s%s%s", r->run_id[0] ? "run_id=" : "", r->run_id, r->run_id[0] ? "\n" : "");
	if (r->start_trace_ns)
		strbuf_addf(sb, "start_trace_ns=%llu\n", (unsigned long long)r->start_trace_ns);
	wall_track_meta(&r->wall, sb);
	strbuf_addf(sb, "interval_ms=%u\n", r->o->interval_ms);
	strbuf_addf(sb, "buffer_kb=%u\n", r->buffer_kb ? r->buffer_kb : r->o->buffer_kb);
	strbuf_addf(sb, "groups=%s\n", collector_groups(r->col));
	strbuf_addf(sb, "events=%s\n", collector_events(r->col));
	strbuf_addf(sb, "missing_events=%s\n", collector_missing(r->col));
	for (int i = 0; i < r->o->nfilters; i++)	/* SYS:EVENT:EXPR, as set */
		strbuf_addf(sb, "filter=%s\n", r->o->filters[i]);
	for (int i = 0; i < r->o->nstacks; i++)	/* a kernel_stack event follows each */
		strbuf_addf(sb, "stacktrace=%s\n", r->o->stacks[i]);
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
	if (r->o->config)
		strbuf_addf(sb, "config=%s\n", r->o->config);
	if (r->o->command) {
		strbuf_addstr(sb, "command=");
		for (char **a = r->o->command; *a; a++)
			strbuf_addf(sb, "%s%s", a == r->o->command ? "" : " ", *a);
		strbuf_addch(sb, '\n');
	}
	if (r->o->flight)	/* cpustat=window: stats count from the ring's last emptying */
		strbuf_addstr(sb, "mode=flight-recorder\ncpustat=window\n");
	if (r->o->pre_ns)
		strbuf_addf(sb, "pre_trigger_ns=%llu\n", (unsigned long long)r->o->pre_ns);
	if (r->o->flight)
		strbuf_addf(sb, "post_trigger_ns=%llu\n", (unsigned long long)r->o->post_ns);
	if (r->watch)
		strbuf_addf(sb, "trigger_watch_dropped=%llu\n",
			    (unsigned long long)trigger_watch_dropped(r->watch));
	if (r->seg) {	/* cpustat=window: stats count from the file's start */
		strbuf_addf(sb, "switch_output=%d\ncpustat=window\n", r->seg);
		if (r->switching) {
			strbuf_addstr(sb, "stop_reason=switch-output\n");
			return;
		}
	}
	if (r->trigger) {
		strbuf_addf(sb, "trigger=%s\n", r->trigger);
		strbuf_addf(sb, "trigger_name=%s\n", r->trig_name);
		strbuf_addf(sb, "trigger_realtime_ns=%llu\n", (unsigned long long)r->trig_real_ns);
		if (r->trig_trace_ns)
			strbuf_addf(sb, "trigger_ns=%llu\n", (unsigned long long)r->trig_trace_ns);
		trigger_meta(r, sb);
		/* a flight file ends because its trigger fired (and its
		 * post-trigger time ran out), or the run stopped meanwhile */
		if (r->stop == STOP_NONE)
			strbuf_addf(sb, "stop_reason=trigger:%s\n", r->trig_name);
		else
			strbuf_addf(sb, "stop_reason=trigger:%s, then %s\n", r->trig_name,
				    stop_names[r->stop]);
		return;
	}
	strbuf_addf(sb, "stop_reason=%s\n", r->stop == STOP_NONE ? "running" :
		    stop_names[r->stop]);
	if (r->stop_detail)	/* one line: the signal, the bytes left, the error */
		strbuf_addf(sb, "stop_detail=%.*s\n", (int)strcspn(r->stop_detail, "\n"),
			    r->stop_detail);
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

/* Lost events of a CPU: what the ring lost (dropped, overrun) and what
 * the spool could not keep (a full disk). */
static uint64_t cpu_lost(const struct recorder *r, int cpu)
{
	return r->stats[cpu].dropped + r->stats[cpu].overrun + spool_cpu_lost(r->spool, cpu) +
	       (r->done_unkept ? r->done_unkept[cpu] : 0);
}

/* Pages of a CPU in the files so far, the one being written included. */
static uint64_t cpu_pages(const struct recorder *r, int cpu)
{
	return spool_cpu_pages(r->spool, cpu) + (r->done_pages ? r->done_pages[cpu] : 0);
}

static void totals(const struct recorder *r, uint64_t *events, uint64_t *lost)
{
	*events = *lost = 0;
	for (int cpu = 0; cpu < r->ncpus; cpu++) {
		*events += r->stats[cpu].read;
		*lost += cpu_lost(r, cpu);
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
	uint64_t events, lost, unkept = 0, pages = 0;

	totals(r, &events, &lost);
	if (r->progress)
		fputc('\n', stderr);
	fprintf(stderr, "mmscope: stopped: %s%s%s\n", stop_names[r->stop],
		r->stop_detail ? ": " : "", r->stop_detail ? r->stop_detail : "");
	/* every figure of the table has one scope: the whole run (events
	 * and lost are the kernel's per-CPU counts since tracing began) */
	if (r->seg)
		fprintf(stderr, "mmscope: the whole run, all %d file%s of --switch-output:\n",
			r->files, r->files == 1 ? "" : "s");
	fprintf(stderr, "mmscope: %-5s %12s %10s %12s %10s\n", "cpu", "events", "pages",
		"bytes", "lost");
	for (int cpu = 0; cpu < r->ncpus; cpu++)
		fprintf(stderr, "mmscope: %-5d %12llu %10llu %12llu %10llu\n", cpu,
			(unsigned long long)r->stats[cpu].read,
			(unsigned long long)cpu_pages(r, cpu),
			(unsigned long long)(cpu_pages(r, cpu) * r->page_size),
			(unsigned long long)cpu_lost(r, cpu));
	for (int cpu = 0; cpu < r->ncpus; cpu++)
		pages += cpu_pages(r, cpu);
	fprintf(stderr, "mmscope: %-5s %12llu %10llu %12llu %10llu\n", "all",
		(unsigned long long)events, (unsigned long long)(r->seg ? pages : res->pages),
		(unsigned long long)(spool_bytes(r->spool) + r->done_bytes),
		(unsigned long long)lost);
	if (r->seg)	/* the last file alone, as each switch printed the others */
		fprintf(stderr, "mmscope: %llu sample sets in %.1f s; wrote %s (%llu pages, "
			"%llu bytes)\n", (unsigned long long)sampler_sets(r->sampler),
			(double)(mono_ns() - r->t0_ns) / 1e9, path,
			(unsigned long long)res->pages, (unsigned long long)res->bytes);
	else
		fprintf(stderr, "mmscope: %llu sample sets; wrote %s (%llu bytes, %.1f s)\n",
			(unsigned long long)sampler_sets(r->sampler), path,
			(unsigned long long)res->bytes, (double)(mono_ns() - r->t0_ns) / 1e9);
	for (int cpu = 0; cpu < r->ncpus; cpu++)
		unkept += spool_cpu_lost(r->spool, cpu) + (r->done_unkept ? r->done_unkept[cpu] : 0);
	if (unkept)
		warning("%llu events were not written (the filesystem was full)",
			(unsigned long long)unkept);
	if (lost > unkept)
		warning("the ring buffer lost %llu events: raise --buffer-kb",
			(unsigned long long)(lost - unkept));
}

/* ---- the loop ---- */

static void set_stop(struct recorder *r, enum recorder_stop why, char *detail)
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
	return output_part_name(out, n);
}

/* Now on the trace clock (0 when it is not one of the kernel's ns clocks). */
static uint64_t trace_now(struct recorder *r)
{
	clockid_t id;

	return wall_clock_id(collector_clock(r->col), &id) ? 0 : clock_ns(id);
}

/* A flight file is written: the next trigger may fire after the cooldown,
 * and the run stops at --max-triggers. */
static void flight_written(struct recorder *r)
{
	r->cooldown_until_ns = mono_ns() + r->o->cooldown_ns;
	if (r->o->max_triggers && (unsigned)r->flight_dumps >= r->o->max_triggers)
		set_stop(r, STOP_MAX_TRIGGERS, xasprintf("%u files", r->o->max_triggers));
}

static void flight_wrote(struct recorder *r, const char *path, const struct spool_result *res)
{
	if (!r->o->quiet)
		fprintf(stderr, "%smmscope: %s: wrote %s (%llu pages, %llu bytes)\n",
			r->progress ? "\n" : "", r->trig_why, path, (unsigned long long)res->pages,
			(unsigned long long)res->bytes);
}

/* Flight recorder: write the ring (with its samples) to FILE-N.dat. */
static void flight_dump(struct recorder *r)
{
	struct spool *saved = r->spool, *s;
	char *dir, *path, *err = NULL;
	struct spool_result res;

	r->flight_dumps++;
	path = flight_name(r->o->out, r->part_base + r->flight_dumps);
	dir = xasprintf("%s.spool", path);
	write_context(r, "end");
	take_sample(r);
	collector_stop(r->col);
	r->trigger = r->trig_why;
	s = spool_create(dir, r->ncpus, collector_page_size(r->col), 0, &err);
	if (!s || collector_snapshot_meta(r->col, s, &err) ||
	    write_private_meta(r, s, &err)) {
		error("flight recorder: %s", err);
		r->flight_failed++;
		goto out;
	}
	r->spool = s;
	if (collector_read(r->col, s, COLLECTOR_READ_FLUSH, 0, &err) < 0) {
		error("flight recorder: %s", err);
		r->flight_failed++;
		goto out;
	}
	collector_snapshot_late(r->col, s, NULL);
	collector_stats_restart(r->col);	/* the next dump's stats start here */
	if (spool_write_file(dir, path, r->o->force, &r->o->w, &res, &err)) {
		error("flight recorder: %s: %s (the spool %s is kept)", path, err, dir);
		r->flight_failed++;
		goto out;
	}
	spool_close(s);
	s = NULL;
	spool_remove(dir, NULL);
	flight_wrote(r, path, &res);
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
	flight_written(r);
}

/*
 * --post-trigger: the ring is taken into a spool now, with the ring still
 * overwriting (a page that says the writer lapped the reader drops what
 * was read before it: the file's history starts after the last gap);
 * then the ring stops overwriting, so that anything not read in time is
 * counted as dropped (lost), and is read like a normal recording until
 * the post-trigger time ends (flight_end).
 */
static void flight_begin(struct recorder *r)
{
	char *err = NULL;

	r->flight_dumps++;
	r->bracket_path = flight_name(r->o->out, r->part_base + r->flight_dumps);
	r->bracket_dir = xasprintf("%s.spool", r->bracket_path);
	r->trigger = r->trig_why;
	r->bracket = spool_create(r->bracket_dir, r->ncpus, collector_page_size(r->col), 0, &err);
	if (!r->bracket || collector_snapshot_meta(r->col, r->bracket, &err) ||
	    write_private_meta(r, r->bracket, &err))
		goto fail;
	r->spool = r->bracket;
	take_sample(r);		/* a sample set at the trigger */
	if (collector_read(r->col, r->bracket, COLLECTOR_READ_DRAIN, 0, &err) < 0 ||
	    collector_set_overwrite(r->col, 0, &err))
		goto fail;
	r->post_end_ns = mono_ns() + r->o->post_ns;
	if (!r->o->quiet)
		fprintf(stderr, "%smmscope: %s: recording %.1f s more into %s\n",
			r->progress ? "\n" : "", r->trig_why, (double)r->o->post_ns / 1e9,
			r->bracket_path);
	return;
fail:
	error("flight recorder: %s", err);
	r->flight_failed++;
	free(err);
	collector_set_overwrite(r->col, 1, NULL);
	spool_close(r->bracket);
	r->bracket = NULL;
	r->spool = NULL;
	spool_remove(r->bracket_dir, NULL);
	r->trigger = NULL;
	free(r->bracket_dir);
	free(r->bracket_path);
	r->bracket_dir = r->bracket_path = NULL;
	flight_written(r);
}

/* The post-trigger time is over (or the run stops: restart 0). */
static void flight_end(struct recorder *r, int restart)
{
	struct spool_result res;
	char *err = NULL;

	take_sample(r);
	collector_stop(r->col);
	if (collector_read(r->col, r->bracket, COLLECTOR_READ_FLUSH, 0, &err) < 0) {
		error("flight recorder: %s (the spool %s is kept)", err, r->bracket_dir);
		r->flight_failed++;
		goto out;
	}
	collector_snapshot_late(r->col, r->bracket, NULL);
	write_private_meta(r, r->bracket, NULL);
	collector_stats_restart(r->col);
	if (spool_write_file(r->bracket_dir, r->bracket_path, r->o->force, &r->o->w, &res, &err)) {
		error("flight recorder: %s: %s (the spool %s is kept)", r->bracket_path, err,
		      r->bracket_dir);
		r->flight_failed++;
		goto out;
	}
	spool_close(r->bracket);
	r->bracket = NULL;
	spool_remove(r->bracket_dir, NULL);
	flight_wrote(r, r->bracket_path, &res);
out:
	free(err);
	err = NULL;
	spool_close(r->bracket);
	r->bracket = NULL;
	r->spool = NULL;
	r->trigger = NULL;
	free(r->bracket_dir);
	free(r->bracket_path);
	r->bracket_dir = r->bracket_path = NULL;
	if (collector_set_overwrite(r->col, 1, &err)) {
		set_stop(r, STOP_ERROR, err);
		return;
	}
	if (restart) {
		if (collector_start(r->col, &err))
			set_stop(r, STOP_ERROR, err);
		else
			take_sample(r);
	}
	flight_written(r);
}

/* A trigger fired (t NULL: SIGUSR1, which no cooldown holds back); f:
 * what it saw. */
static void flight_fire(struct recorder *r, const struct trigger *t,
			const struct trigger_fired *f, const char *why)
{
	const char *name = t ? t->name : "SIGUSR1";

	if (r->bracket || r->stop != STOP_NONE)
		return;		/* within the file being recorded after a trigger */
	if (t && mono_ns() < r->cooldown_until_ns)
		return;
	r->trig = t;
	memset(&r->trig_fired, 0, sizeof(r->trig_fired));
	if (f)
		r->trig_fired = *f;
	snprintf(r->trig_name, sizeof(r->trig_name), "%s", name);
	snprintf(r->trig_why, sizeof(r->trig_why), "%s", why);
	r->trig_trace_ns = trace_now(r);
	r->trig_real_ns = clock_ns(CLOCK_REALTIME);
	if (r->o->post_ns)
		flight_begin(r);
	else
		flight_dump(r);
}

static void check_triggers(struct recorder *r)
{
	char why[200];

	/* tests point the triggers at a fake /proc, as they do the sampler */
	const char *root = getenv("MMSCOPE_SAMPLE_ROOT");
	uint64_t now = trace_now(r);
	int fired = 0;

	if (r->watch) {
		char *err = NULL;

		/* everything up to now is in the pages this read takes */
		if (trigger_watch_poll(r->watch, 1, now ? now : UINT64_MAX, &err)) {
			set_stop(r, STOP_ERROR, err);
			return;
		}
	}
	/* every trigger is checked, so that each keeps its own state */
	for (int i = 0; i < r->o->ntriggers; i++) {
		struct trigger *t = &r->o->triggers[i];
		int hit = trigger_is_event(t) ?
			  (r->watch && trigger_watch_check(r->watch, i, now ? now : UINT64_MAX, why,
							   sizeof(why))) :
			  trigger_check(t, root, r->cgroup_dir, why, sizeof(why)) == 1;

		if (hit && !fired++)
			flight_fire(r, t, trigger_is_event(t) ? trigger_watch_fired(r->watch, i) :
				    &t->fired, why);
	}
}

static long long mem_available_kb(void)
{
	FILE *f = fopen("/proc/meminfo", "re");
	char line[128];
	long long kb = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %lld kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

/*
 * --pre-trigger: once per interval, where a CPU's ring overwrote since the
 * last look, the history it holds is "now ts" - "oldest event ts" of its
 * stats; below the asked-for time, every CPU's ring grows to what the
 * observed rate needs (and a quarter more), up to a quarter of the
 * available memory over all CPUs (a warning says what that keeps).
 */
static void size_ring(struct recorder *r)
{
	uint64_t short_ns = 0;
	unsigned long long want, limit;
	long long avail;
	char *err = NULL;

	if (!r->o->pre_ns || r->bracket || r->ring_warned > 1)
		return;
	collector_stats(r->col, r->stats);
	for (int cpu = 0; cpu < r->ncpus; cpu++) {
		const struct collector_cpustat *st = &r->stats[cpu];
		int wrapped = st->overrun > r->last_overrun[cpu];

		r->last_overrun[cpu] = st->overrun;
		if (!wrapped || !st->oldest_ns || st->now_ns <= st->oldest_ns)
			continue;
		if (st->now_ns - st->oldest_ns < r->o->pre_ns &&
		    (!short_ns || st->now_ns - st->oldest_ns < short_ns))
			short_ns = st->now_ns - st->oldest_ns;
	}
	if (!short_ns)
		return;
	want = (unsigned long long)((double)r->buffer_kb * (double)r->o->pre_ns / (double)short_ns *
				    1.25);
	want = (want + 1023) / 1024 * 1024;
	avail = mem_available_kb();
	limit = 4u << 20;
	if (avail > 0 && (unsigned long long)avail / 4 / (unsigned)r->ncpus < limit)
		limit = (unsigned long long)avail / 4 / (unsigned)r->ncpus;
	if (want > limit) {
		if (!r->ring_warned)
			warning("--pre-trigger %.1f s needs about %llu KiB of ring per CPU at the "
				"observed rate; memory allows %llu KiB (a quarter of MemAvailable "
				"over %d CPUs): about %.1f s is kept",
				(double)r->o->pre_ns / 1e9, want, limit, r->ncpus,
				(double)short_ns / 1e9 * (double)limit / r->buffer_kb);
		r->ring_warned = 1;
		want = limit;
	}
	if (want <= r->buffer_kb)
		return;
	if (collector_set_buffer_kb(r->col, (unsigned)want, &err)) {
		warning("--pre-trigger: %s; the ring stays at %u KiB per CPU", err, r->buffer_kb);
		free(err);
		r->ring_warned = 2;
		return;
	}
	if (!r->o->quiet)
		fprintf(stderr, "%smmscope: the ring held %.2f s in %u KiB per CPU; grown to %llu KiB "
			"for --pre-trigger %.1f s\n", r->progress ? "\n" : "",
			(double)short_ns / 1e9, r->buffer_kb, want, (double)r->o->pre_ns / 1e9);
	r->buffer_kb = (unsigned)want;
}

/*
 * --switch-output: the pages so far (the ones being written too) go to the
 * current file; its metadata and per-CPU stats are taken at that point
 * and the stats restart there, so every event is in exactly one file;
 * the next spool gets its own metadata and a sample set at its start;
 * then the finished file is written and the oldest beyond
 * --switch-max-files deleted. Tracing never stops.
 */
static void switch_segment(struct recorder *r)
{
	struct spool *old = r->spool, *ns;
	char *old_dir = r->spool_dir, *old_path = r->seg_path, *path, *dir, *err = NULL;
	struct spool_result res;

	take_sample(r);		/* the old file's last set, at its end */
	move_pages(r, COLLECTOR_READ_PARTIAL);
	if (r->stop != STOP_NONE)
		return;
	path = flight_name(r->o->out, r->seg + 1);
	dir = xasprintf("%s.spool", path);
	if (exists(path) && !r->o->force) {
		set_stop(r, STOP_ERROR, xasprintf("%s: already exists (use --force to replace it)", path));
		free(path);
		free(dir);
		return;
	}
	/* the next spool first: if it cannot be made (a full disk), the
	 * current file goes on and is finished at the stop as usual */
	ns = spool_create(dir, r->ncpus, collector_page_size(r->col), RESERVE_BYTES, &err);
	if (!ns || collector_snapshot_meta(r->col, ns, &err) ||
	    spool_put_meta(ns, "instance", collector_instance_dir(r->col),
			   strlen(collector_instance_dir(r->col)), &err)) {
		int full = errno == ENOSPC || errno == EDQUOT;

		spool_close(ns);
		if (ns)
			spool_remove(dir, NULL);
		set_stop(r, full ? STOP_DISK_FULL : STOP_ERROR, err);
		free(path);
		free(dir);
		return;
	}
	/* the boundary: no page is read between these and the last read */
	if (collector_snapshot_late(r->col, old, &err)) {
		warning("%s", err);
		free(err);
		err = NULL;
	}
	r->switching = 1;
	wall_track_check(&r->wall);	/* the old file's last read of the clocks */
	write_private_meta(r, old, NULL);
	r->switching = 0;
	collector_stats_restart(r->col);	/* the next file's stats count from here */
	r->seg++;
	r->seg_start_ns = mono_ns();
	wall_track_start(&r->wall, collector_clock(r->col), &r->start_trace_ns,
			 &r->start_real_ns);
	if (write_private_meta(r, ns, &err)) {
		warning("%s", err);	/* written again at the next switch or the end */
		free(err);
		err = NULL;
	}
	r->spool = ns;
	r->spool_dir = dir;
	r->seg_path = path;
	/* the new file starts with a sample set of every counter: read alone
	 * it gives each counter's first value */
	sampler_new_file(r->sampler);
	take_sample(r);
	spool_release_reserve(old);
	for (int cpu = 0; cpu < r->ncpus; cpu++) {
		r->done_pages[cpu] += spool_cpu_pages(old, cpu);
		r->done_unkept[cpu] += spool_cpu_lost(old, cpu);
	}
	r->done_bytes += spool_bytes(old);
	if (spool_write_file(old_dir, old_path, r->o->force, &r->o->w, &res, &err)) {
		int full = errno == ENOSPC || errno == EDQUOT;

		error("%s: %s; that part of the recording is kept in %s: run 'mmscope recover %s "
		      "-o FILE' with FILE on a filesystem with room", old_path, err, old_dir, old_dir);
		free(err);
		set_stop(r, full ? STOP_DISK_FULL : STOP_ERROR, xasprintf("switching from %s", old_path));
		r->switch_failed = 1;
		spool_close(old);
		free(old_dir);
		free(old_path);
		return;
	}
	spool_close(old);
	spool_remove(old_dir, NULL);
	if (!r->o->quiet)
		fprintf(stderr, "%smmscope: wrote %s (%llu pages, %llu bytes)\n",
			r->progress ? "\n" : "", old_path, (unsigned long long)res.pages,
			(unsigned long long)res.bytes);
	if (switch_output_written(&r->o->sw, old_path, &err)) {
		warning("%s", err);
		free(err);
	}
	r->files++;
	free(old_dir);
	free(old_path);
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
		if (!r->o->flight || r->bracket) {
			long n = move_pages(r, now >= next_sync ? COLLECTOR_READ_PARTIAL :
					    COLLECTOR_READ_FULL);
			/* pages per ms on the busiest CPU, roughly: n spread over ncpus */
			double rate = (double)n / r->ncpus / wait_ms;

			wait_ms = rate > 0 ? (int)(quarter / rate) : POLL_MS;
			if (wait_ms > POLL_MS)
				wait_ms = POLL_MS;
			if (wait_ms < POLL_FAST_MS)
				wait_ms = POLL_FAST_MS;
			if (r->seg && r->stop == STOP_NONE &&
			    ((r->o->sw.size && spool_bytes(r->spool) >= r->o->sw.size) ||
			     (r->o->sw.time_ns && now - r->seg_start_ns >= r->o->sw.time_ns)))
				switch_segment(r);
		}
		if (r->watch && trigger_watch_poll(r->watch, 0, 0, &err)) {
			set_stop(r, STOP_ERROR, err);
			err = NULL;
			break;
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
			take_routine_sample(r);
			next_sample += (uint64_t)r->o->interval_ms * 1000000u;
			if (next_sample < now)
				next_sample = now + (uint64_t)r->o->interval_ms * 1000000u;
			if (r->o->flight) {
				size_ring(r);
				check_triggers(r);
			}
		}
		if (got_usr1 && r->o->flight) {
			got_usr1 = 0;
			flight_fire(r, NULL, NULL, "SIGUSR1");
		}
		if (r->bracket && now >= r->post_end_ns)
			flight_end(r, 1);
		if (r->stop != STOP_NONE)
			break;
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
static void warn_missing_extra(const struct recorder_opts *o, const char *missing)
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
	co.filters = r->o->filters;
	co.stacktrace = r->o->stacks;
	r->col = collector_open(&co, &err);
	if (!r->col) {
		error("%s", err);
		free(err);
		return co.filter_refused ? -2 : -1;	/* a refused filter is bad input */
	}
	warn_missing_extra(r->o, collector_missing(r->col));
	if (collector_probes(r->col)->unverified)	/* one line: why no probes */
		warning("no swap/zswap kprobes: %s", collector_probes(r->col)->reason);
	r->ncpus = collector_ncpus(r->col);
	r->page_size = collector_page_size(r->col);
	r->stats = xcalloc((size_t)r->ncpus, sizeof(*r->stats));
	r->last_overrun = xcalloc((size_t)r->ncpus, sizeof(*r->last_overrun));
	if (r->seg) {
		r->done_pages = xcalloc((size_t)r->ncpus, sizeof(*r->done_pages));
		r->done_unkept = xcalloc((size_t)r->ncpus, sizeof(*r->done_unkept));
	}
	r->buffer_kb = r->o->buffer_kb;
	so.cgroup = r->o->cgroup;
	/* a flight file starts wherever its ring was overwritten: every set
	 * carries every vmstat field, so that any may be its first */
	so.every_set_full = r->o->flight;
	/* zswap's pool counters are in debugfs; without it the samples say why */
	if (!access("/sys/module/zswap/parameters", F_OK) && collector_debugfs(&err)) {
		free(err);
		err = NULL;
	}
	r->sampler = sampler_new(&so);
	if (r->o->cgroup)
		r->cgroup_dir = trigger_cgroup_dir(r->o->cgroup);
	for (int i = 0; i < r->o->ntriggers && !r->watch; i++) {
		if (!trigger_is_event(&r->o->triggers[i]))
			continue;
		r->watch = trigger_watch_open(r->o->triggers, r->o->ntriggers,
					      collector_clock(r->col), &err);
		if (!r->watch) {
			error("%s", err);
			free(err);
			return -1;
		}
	}
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

static int record_start(struct recorder *r)
{
	char *err = NULL;

	if (collector_start(r->col, &err)) {
		error("%s", err);
		free(err);
		return -1;
	}
	r->cpu_on_ns = self_cpu_ns();
	r->t0_ns = mono_ns();
	r->seg_start_ns = r->t0_ns;
	wall_track_start(&r->wall, collector_clock(r->col), &r->start_trace_ns,
			 &r->start_real_ns);
	write_context(r, "start");
	take_sample(r);
	r->vm_first[0] = sampler_vmstat(r->sampler, "pswpout");
	r->vm_first[1] = sampler_vmstat(r->sampler, "swpout_zero");
	if (r->spool)
		write_private_meta(r, r->spool, NULL);	/* now with the sources */
	if (r->o->command)
		release_command(r);
	/* counter triggers on growth take their base now, so that growth
	 * before the first interval ends is seen */
	for (int i = 0; i < r->o->ntriggers; i++) {
		struct trigger *t = &r->o->triggers[i];
		char why[200];

		if (!trigger_is_event(t) && t->kind != TRIGGER_PSI_SOME)
			trigger_check(t, getenv("MMSCOPE_SAMPLE_ROOT"), r->cgroup_dir, why,
				      sizeof(why));
	}
	/* one line for the journal, and for whoever waits to send SIGUSR1 */
	if (r->o->flight && !r->o->quiet)
		fprintf(stderr, "mmscope: flight recorder started: %u KiB ring per CPU, %d trigger%s "
			"and SIGUSR1\n", r->buffer_kb, r->o->ntriggers,
			r->o->ntriggers == 1 ? "" : "s");
	return 0;
}

static void note_read_faults(struct recorder *r)
{
	if (r->col)
		collector_read_faults(r->col, &r->splice_nomem, &r->read_nomem, &r->plain_pages);
}

/* Stop tracing, take the last pages, write the file. */
static int record_finish(struct recorder *r)
{
	struct spool_result res = { 0 };
	const char *out = r->seg_path ? r->seg_path : r->o->out;
	char *err = NULL;
	int ret = EXIT_OK;

	write_context(r, "end");
	write_outcome(r);
	if (r->bracket) {	/* stopped within a post-trigger time: write what it has */
		flight_end(r, 0);
		collector_stats(r->col, r->stats);
		note_read_faults(r);
		return EXIT_OK;
	}
	take_sample(r);
	collector_stop(r->col);
	if (r->o->flight) {
		collector_stats(r->col, r->stats);
		note_read_faults(r);
		return EXIT_OK;
	}
	if (r->switch_failed) {	/* the message is out; the spools are kept */
		collector_stats(r->col, r->stats);
		return EXIT_ERROR;
	}
	if (r->stop != STOP_DISK_FULL && r->stop != STOP_MAX_SIZE)
		move_pages(r, COLLECTOR_READ_FLUSH);
	r->cpu_read_ns = self_cpu_ns();	/* every page is in the spool */
	collector_stats(r->col, r->stats);
	/* a full disk: what the ring still holds is in no file: lost */
	if (r->stop == STOP_DISK_FULL)
		for (int cpu = 0; cpu < r->ncpus; cpu++)
			spool_add_lost(r->spool, cpu, r->stats[cpu].entries);
	spool_release_reserve(r->spool);
	if (collector_snapshot_late(r->col, r->spool, &err) ||
	    write_private_meta(r, r->spool, &err)) {
		warning("%s", err);
		free(err);
		err = NULL;
	}
	/* everything is in the spool: nothing of ours is left in tracefs */
	note_read_faults(r);
	collector_close(r->col);
	r->col = NULL;
	if (spool_write_file(r->spool_dir, out, r->o->force, &r->o->w, &res, &err)) {
		error("%s: %s; the recording is kept in %s: run 'mmscope recover %s -o FILE' "
		      "with FILE on a filesystem with room", out, err, r->spool_dir,
		      r->spool_dir);
		free(err);
		return EXIT_ERROR;
	}
	if (r->seg) {
		if (switch_output_written(&r->o->sw, out, &err)) {
			warning("%s", err);
			free(err);
			err = NULL;
		}
		r->files++;
	}
	if (!r->o->quiet)
		summary(r, &res, out);
	if (r->cpu_report) {	/* for tests/bench (vm-record-bench.sh) */
		uint64_t now = self_cpu_ns();

		fprintf(stderr, "mmscope: cpu_ns start=%llu recording=%llu write=%llu\n",
			(unsigned long long)r->cpu_on_ns,
			(unsigned long long)(r->cpu_read_ns - r->cpu_on_ns),
			(unsigned long long)(now - r->cpu_read_ns));
	}
	if (!r->o->quiet && r->seg)
		fprintf(stderr, "mmscope: %d file%s written, %d kept (--switch-output)\n", r->files,
			r->files == 1 ? "" : "s", r->o->sw.nfiles);
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
	free(r->last_overrun);
	free(r->done_pages);
	free(r->done_unkept);
	free(r->seg_path);
	r->seg_path = NULL;
	trigger_watch_close(r->watch);
	free(r->cgroup_dir);
	free(r->bracket_dir);
	free(r->bracket_path);
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

/* Refusals before anything is traced (src/record-preflight.h): 0 or -1
 * after one "error:" line. */
static int record_preflight(const struct recorder_opts *o)
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

/* The directory a file (or spool) goes to must be there and writable
 * before anything is traced (a flight recorder would find out only at
 * its first trigger). 0, or -1 after one "error:" line. */
static int out_dir_check(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash ? xasprintf("%.*s", slash == path ? 1 : (int)(slash - path), path) :
		    xstrdup(".");
	struct stat st;
	int r = 0;

	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		r = error("%s: no such directory for %s", dir, path);
	else if (access(dir, W_OK | X_OK))
		r = error("%s: cannot write there (%s) for %s", dir, strerror(errno), path);
	free(dir);
	return r ? -1 : 0;
}

void recorder_opts_default(struct recorder_opts *o)
{
	o->interval_ms = 1000;
	o->buffer_kb = 16384;
	tw_opts_default(&o->w);
}

int recorder_run(struct recorder_opts *o, enum recorder_stop *stop)
{
	struct recorder r = { 0 };
	int ret = EXIT_OK;

	r.o = o;
	if ((o->switch_on || o->flight) && !o->force) {
		/* a restarted recorder (a service, a reboot) numbers its files
		 * after those an earlier run left, so that it never meets one */
		char *err = NULL;

		r.part_base = output_part_highest(o->out, &err);
		if (r.part_base < 0) {
			error("%s", err);
			free(err);
			ret = EXIT_USAGE;
			goto out;
		}
		if (r.part_base && !o->quiet) {
			char *next = flight_name(o->out, r.part_base + 1);

			fprintf(stderr, "mmscope: files of an earlier run up to number %d are "
				"there: this run writes %s on\n", r.part_base, next);
			free(next);
		}
	}
	inputs_new_run_id(r.run_id);	/* none without randomness: files stand alone */
	if (o->switch_on) {
		r.seg = r.part_base + 1;
		r.seg_path = flight_name(o->out, r.seg);
	}
	if (!o->flight && exists(r.seg_path ? r.seg_path : o->out) && !o->force) {
		ret = error("%s: already exists (use --force to replace it)",
			    r.seg_path ? r.seg_path : o->out);
		goto out;
	}
	if (out_dir_check(o->spool ? o->spool : o->out)) {
		ret = EXIT_USAGE;
		goto out;
	}
	if (o->spool && out_dir_check(o->out)) {
		ret = EXIT_USAGE;
		goto out;
	}
	if (record_preflight(o)) {
		ret = EXIT_USAGE;
		goto out;
	}
	r.spool_dir = o->spool ? xstrdup(o->spool) :
		      xasprintf("%s.spool", r.seg_path ? r.seg_path : o->out);
	r.progress = !o->quiet && isatty(2);
	r.cpu_report = getenv("MMSCOPE_RECORD_CPU") && *getenv("MMSCOPE_RECORD_CPU");
	r.child = -1;
	r.child_pidfd = -1;
	r.go_fd = -1;
	install_signals();
	if ((ret = record_setup(&r)) || (o->command && start_command(&r)) || record_start(&r)) {
		/* the spool this run made (not one it found: spool_create
		 * refuses those) goes, or the next run would meet it; its name
		 * is taken before record_cleanup frees it */
		char *dir = r.spool && exists(r.spool_dir) ? xstrdup(r.spool_dir) : NULL;
		char *err = NULL;

		record_cleanup(&r);
		if (dir && spool_remove(dir, &err)) {
			error("%s; remove %s before the next run", err, dir);
			free(err);
		}
		free(dir);
		ret = ret == -2 ? EXIT_USAGE : EXIT_ERROR;
		goto out;
	}
	record_loop(&r);
	stop_child(&r);
	ret = record_finish(&r);
	if (r.child > 0 && r.child_done && r.stop == STOP_COMMAND) {
		int cs = command_exit_status(r.child_status);

		if (!o->quiet && WIFEXITED(r.child_status) && WEXITSTATUS(r.child_status))
			warning("'%s' exited with status %d", o->command[0],
				WEXITSTATUS(r.child_status));
		else if (!o->quiet && WIFSIGNALED(r.child_status))
			warning("'%s' was killed by signal %d", o->command[0],
				WTERMSIG(r.child_status));
		/* like time(1): a complete recording exits with the command's
		 * status; a recorder error keeps its own */
		if (ret == EXIT_OK)
			ret = cs;
	}
	if (o->flight && !o->quiet)
		fprintf(stderr, "%smmscope: flight recorder stopped (%s); %d file%s written\n",
			r.progress ? "\n" : "", stop_names[r.stop], r.flight_dumps - r.flight_failed,
			r.flight_dumps - r.flight_failed == 1 ? "" : "s");
	/* a trigger whose file could not be written is an incident lost:
	 * never a success */
	if (r.flight_failed && ret == EXIT_OK) {
		fprintf(stderr, "mmscope: %d of %d flight recorder file%s could not be written\n",
			r.flight_failed, r.flight_dumps, r.flight_dumps == 1 ? "" : "s");
		ret = EXIT_ERROR;
	}
	/* memory pressure is what the recorder is for: it never stopped for
	 * it, but says what it cost */
	if (r.splice_nomem || r.read_nomem)
		warning("the kernel had no memory for %llu splices of the ring: %llu pages were "
			"read with read(2) instead; %llu reads got nothing then (the ring kept "
			"those pages, or dropped events when full: counted lost)",
			(unsigned long long)r.splice_nomem, (unsigned long long)r.plain_pages,
			(unsigned long long)r.read_nomem);
	/* a full disk ended the recording early (and ended COMMAND): the
	 * file is whole, the run is not; said even with --quiet */
	if (r.stop == STOP_DISK_FULL && ret == EXIT_OK) {
		fprintf(stderr, "mmscope: the recording is incomplete: the filesystem filled "
			"(exit status %d)\n", EXIT_INCOMPLETE);
		ret = EXIT_INCOMPLETE;
	}
	if (r.stop == STOP_MAX_TRIGGERS && ret == EXIT_OK) {
		fprintf(stderr, "mmscope: --max-triggers %u reached: the flight recorder no longer "
			"records (exit status %d)\n", o->max_triggers, EXIT_MAX_TRIGGERS);
		ret = EXIT_MAX_TRIGGERS;
	}
	record_cleanup(&r);
out:
	if (stop)
		*stop = r.stop;
	free(r.seg_path);
	return ret;
}
