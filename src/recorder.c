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
#include "recorder-local.h"
#include "cgdump.h"
#include "inputs.h"
#include "record-preflight.h"
#include "runctx.h"
#include "collector.h"
#include "probes.h"
#include "sampler.h"
#include "spool.h"
#include "trigger.h"
#include "trigger-watch.h"
#include "switch-output.h"
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
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define POLL_MS 100
#define POLL_FAST_MS 2
#define SYNC_MS 1000
#define LATE_META_MS 5000
#define RESERVE_BYTES (4u << 20)

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

/* This process's user+system time (its threads; not its children). */
static uint64_t self_cpu_ns(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru))
		return 0;
	return ((uint64_t)ru.ru_utime.tv_sec + (uint64_t)ru.ru_stime.tv_sec) * 1000000000u +
	       ((uint64_t)ru.ru_utime.tv_usec + (uint64_t)ru.ru_stime.tv_usec) * 1000u;
}

uint64_t rec_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t rec_clock_ns(clockid_t id)
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

void rec_take_sample(struct recorder *r)
{
	int fd = collector_marker_fd(r->col);

	wall_track_check(&r->wall);
	sampler_run(r->sampler, marker_emit, &fd);
}

/* The spool's metadata again every META_REFRESH_NS and at a step of the
 * wall clock: a spool recovered after a crash (mmscope recover) then
 * holds the clocks' reads up to its last seconds, not its start's alone. */
#define META_REFRESH_NS 2000000000ull

static void refresh_meta(struct recorder *r, int stepped)
{
	uint64_t now = rec_mono_ns();

	if (r->o->flight || !r->spool || (!stepped && now - r->meta_ns < META_REFRESH_NS))
		return;
	r->meta_ns = now;
	rec_write_private_meta(r, r->spool, NULL);	/* written again at the end */
}

/* A set on the interval: the costliest source not every time. */
static void take_routine_sample(struct recorder *r)
{
	int fd = collector_marker_fd(r->col), stepped = wall_track_check(&r->wall);

	sampler_run_routine(r->sampler, marker_emit, &fd);
	refresh_meta(r, stepped);
}

/* Whether a comma-separated list names group. */
static int group_listed(const char *list, const char *group)
{
	size_t n = strlen(group);

	for (const char *p = list; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if (!strncmp(p, group, n) && (p[n] == ',' || !p[n]))
			return 1;
	return 0;
}

/*
 * The memory cgroup of every task alive (src/cgdump.h), where the tasks
 * group records the moves that keep it true: at the start of each file,
 * before its first sample set (the set's number). A flight recorder's
 * ring overwrites its start, so its files have none (the report says
 * "cgroups not recorded").
 */
static void write_cgtasks(struct recorder *r)
{
	struct cgdump_result res;
	const char *root = getenv("MMSCOPE_SAMPLE_ROOT");
	int fd = collector_marker_fd(r->col);

	if (r->o->flight || !strstr(collector_events(r->col), "cgroup:cgroup_attach_task"))
		return;
	if (cgdump_emit(root ? root : "", sampler_sets(r->sampler), marker_emit, &fd, &res) > 0 &&
	    res.mode[0])
		snprintf(r->cgtasks, sizeof(r->cgtasks), "%s:%d", res.mode, res.hier);
}

/* The run's context (src/runctx.h) in the set about to be sampled, and at
 * the end the command's outcome. */
void rec_write_context(struct recorder *r, const char *phase)
{
	int fd = collector_marker_fd(r->col);

	runctx_emit("", phase, sampler_sets(r->sampler), marker_emit, &fd);
}

void rec_command_outcome(const struct recorder *r, struct runctx_outcome *out)
{
	memset(out, 0, sizeof(*out));
	out->argv = r->o->command;
	out->pid = r->child > 0 ? r->child : 0;
	out->reaped = r->child_done;
	out->status = r->child_status;
	out->ru = r->child_ru;
	out->elapsed_ns = r->child_done ? r->child_end_ns - r->child_start_ns : 0;
	out->stopped_by_recorder = r->child_stopped;
}

/* The outcome line into the trace. A full disk or --max-size stopped the
 * reading of the ring: the line is then only in the metadata, where
 * rec_write_private_meta puts the same facts. */
static void write_outcome(struct recorder *r)
{
	struct runctx_outcome out;
	int fd = collector_marker_fd(r->col);

	if (!r->o->command || r->child <= 0)
		return;
	rec_command_outcome(r, &out);
	runctx_emit_outcome(&out, sampler_sets(r->sampler), marker_emit, &fd);
}

/* The stop is known (and, once reaped, the command's outcome): the
 * spool's metadata says so before the last pages are read, so that a
 * recorder killed while it stops leaves a spool that says why it was
 * stopping. */
static void stop_meta(struct recorder *r)
{
	if (!r->o->flight && r->spool)
		rec_write_private_meta(r, r->spool, NULL);	/* written again at the end */
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
		r->child_start_ns = rec_mono_ns();
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
	r->child_end_ns = rec_mono_ns();
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
		(double)(rec_mono_ns() - r->t0_ns) / 1e9, (unsigned long long)events,
		(double)spool_bytes(r->spool) / 1e6, (unsigned long long)lost);
	fflush(stderr);
}

static void summary(struct recorder *r, const struct spool_result *res, const char *path)
{
	uint64_t events, lost, unkept = 0, pages = 0;

	totals(r, &events, &lost);
	if (r->progress)
		fputc('\n', stderr);
	fprintf(stderr, "mmscope: stopped: %s%s%s\n", rec_stop_names[r->stop],
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
			(double)(rec_mono_ns() - r->t0_ns) / 1e9, path,
			(unsigned long long)res->pages, (unsigned long long)res->bytes);
	else
		fprintf(stderr, "mmscope: %llu sample sets; wrote %s (%llu bytes, %.1f s)\n",
			(unsigned long long)sampler_sets(r->sampler), path,
			(unsigned long long)res->bytes, (double)(rec_mono_ns() - r->t0_ns) / 1e9);
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

void rec_set_stop(struct recorder *r, enum recorder_stop why, char *detail)
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
		rec_set_stop(r, STOP_DISK_FULL, xasprintf("%llu bytes left on the spool's filesystem",
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
			rec_set_stop(r, STOP_MAX_SIZE, xasprintf("%llu bytes",
				 (unsigned long long)r->o->max_size));
			return 0;
		}
		max = (long)((r->o->max_size - done) / page);
	}
	n = collector_read(r->col, r->spool, mode, max, &err);
	if (n < 0) {
		int disk_full = errno == ENOSPC || errno == EDQUOT || errno == EFBIG;

		rec_set_stop(r, disk_full ? STOP_DISK_FULL : STOP_ERROR, err);
		return 0;
	}
	r->pages += (uint64_t)n;
	if (max && n >= max)
		rec_set_stop(r, STOP_MAX_SIZE, xasprintf("%llu bytes", (unsigned long long)r->o->max_size));
	return n;
}

/*
 * --switch-output: the pages so far (the ones being written too) go to the
 * current file; its metadata and per-CPU stats are taken at that point
 * and the stats restart there, so every event is in exactly one file;
 * the next file starts with its own metadata and a sample set; then the
 * finished file goes to the part writer's thread, and reap_part says it
 * is written and deletes the oldest beyond --switch-max-files. Tracing
 * and the reading never stop.
 *
 * The boundary is one sample set and one trace time, both in the two
 * files: the set ending the current file is written again, same
 * readings, as the next file's first (sampler_repeat), so the files'
 * counter deltas add up to the run's; and the trace clock read right
 * after the last read of the rings is the current file's switch_cut_ns
 * and the next's switch_from_ns, where the models split what goes on
 * across it (a stall begun in one file and ended in the next: man
 * mmscope-report, PARTS OF A RUN).
 */
static void switch_segment(struct recorder *r)
{
	struct spool *old = r->spool, *ns;
	char *old_dir = r->spool_dir, *old_path = r->seg_path, *path, *dir, *err = NULL;
	uint64_t from_ns = r->seg_from_ns;
	int fd;

	path = output_part_name(r->o->out, r->seg + 1);
	dir = xasprintf("%s.spool", path);
	if (exists(path) && !r->o->force) {
		rec_set_stop(r, STOP_ERROR, xasprintf("%s: already exists (use --force to replace it)", path));
		free(path);
		free(dir);
		return;
	}
	/* the next spool first: if it cannot be made (a full disk), the
	 * current file goes on and is finished at the stop as usual. It is
	 * made under a temporary name and renamed once its formats and
	 * metadata are in: copying the formats (kallsyms: megabytes) takes
	 * a while, and a recorder killed meanwhile left a spool that recover
	 * refused (no formats) or turned into a file without run id. Made
	 * before the boundary, that while is not between the two files'
	 * sets. */
	char *tmp = xasprintf("%s.new", dir);
	int ok;

	ns = spool_create(tmp, r->ncpus, collector_page_size(r->col), RESERVE_BYTES, &err);
	ok = ns && !collector_snapshot_meta(r->col, ns, &err) &&
	     !spool_put_meta(ns, "instance", collector_instance_dir(r->col),
			     strlen(collector_instance_dir(r->col)), &err);
	if (ok) {	/* as the part it will be (written again below) */
		r->seg++;
		r->seg_from_ns = 0;	/* not known yet */
		ok = !rec_write_private_meta(r, ns, &err);
		r->seg_from_ns = from_ns;
		r->seg--;
	}
	if (ok)
		ok = !spool_rename(ns, dir, &err);
	if (!ok) {
		int full = errno == ENOSPC || errno == EDQUOT;

		spool_close(ns);
		if (ns)
			spool_remove(tmp, NULL);
		rec_set_stop(r, full ? STOP_DISK_FULL : STOP_ERROR, err);
		free(tmp);
		free(path);
		free(dir);
		return;
	}
	free(tmp);
	/* the old file's last set, kept to start the next file with */
	wall_track_check(&r->wall);
	fd = collector_marker_fd(r->col);
	sampler_run_boundary(r->sampler, marker_emit, &fd);
	/* twice: what the CPUs read first wrote while the others were read
	 * goes to this file too, and the trace time below is that much
	 * closer to the last event of each CPU */
	move_pages(r, COLLECTOR_READ_PARTIAL);
	if (r->stop == STOP_NONE)
		move_pages(r, COLLECTOR_READ_PARTIAL);
	if (r->stop != STOP_NONE) {
		spool_close(ns);
		spool_remove(dir, NULL);
		free(path);
		free(dir);
		return;
	}
	/* the boundary: no event of this file is later (0: the trace clock
	 * is one this process cannot read; no split then) */
	r->seg_cut_ns = r->wall.on ? rec_clock_ns(r->wall.id) : 0;
	/* the names are the next spool's, read just now (after that read) */
	if (collector_snapshot_late_names_again(r->col, old, &err)) {
		warning("%s", err);
		free(err);
		err = NULL;
	}
	r->switching = 1;
	wall_track_check(&r->wall);	/* the old file's last read of the clocks */
	rec_write_private_meta(r, old, NULL);
	r->switching = 0;
	collector_stats_restart(r->col);	/* the next file's stats count from here */
	r->seg++;
	r->seg_from_ns = r->seg_cut_ns;
	r->seg_cut_ns = 0;
	r->seg_start_ns = rec_mono_ns();
	wall_track_start(&r->wall, collector_clock(r->col), &r->start_trace_ns,
			 &r->start_real_ns);
	if (rec_write_private_meta(r, ns, &err)) {
		warning("%s", err);	/* written again at the next switch or the end */
		free(err);
		err = NULL;
	}
	r->spool = ns;
	r->spool_dir = dir;
	r->seg_path = path;
	/* the new file starts with the set that ended the old one: read
	 * alone it gives each counter's first value, and no counter moved
	 * between the two */
	write_cgtasks(r);
	fd = collector_marker_fd(r->col);
	sampler_repeat(r->sampler, marker_emit, &fd);
	spool_release_reserve(old);
	for (int cpu = 0; cpu < r->ncpus; cpu++) {
		r->done_pages[cpu] += spool_cpu_pages(old, cpu);
		r->done_unkept[cpu] += spool_cpu_lost(old, cpu);
	}
	r->done_bytes += spool_bytes(old);
	/* the loop goes on reading while a thread writes the part */
	if (part_writer_start(&r->pw, old, old_dir, old_path, r->o->force, &r->o->w, &err)) {
		error("%s: %s; that part of the recording is kept in %s: run 'mmscope recover %s "
		      "-o FILE'", old_path, err, old_dir, old_dir);
		free(err);
		rec_set_stop(r, STOP_ERROR, xasprintf("switching from %s", old_path));
		r->switch_failed = 1;
		spool_close(old);
		free(old_dir);
		free(old_path);
	}
}

/*
 * Take back the part the writer thread was given (waiting for it): say
 * it is written and delete the oldest parts beyond --switch-max-files,
 * or say why it is not and stop, its spool kept. Returns -1 on a failed
 * write.
 */
static int reap_part(struct recorder *r)
{
	struct spool_result res;
	char *path = NULL, *dir = NULL, *err = NULL;

	if (!r->pw.busy)
		return 0;
	if (part_writer_reap(&r->pw, &res, &path, &dir, &err)) {
		int full = errno == ENOSPC || errno == EDQUOT;

		error("%s: %s; that part of the recording is kept in %s: run 'mmscope recover %s "
		      "-o FILE'%s", path, err, dir, dir, full ? " with FILE on a filesystem with room" : "");
		free(err);
		rec_set_stop(r, full ? STOP_DISK_FULL : STOP_ERROR, xasprintf("switching from %s", path));
		r->switch_failed = 1;
		free(dir);
		free(path);
		return -1;
	}
	if (!r->o->quiet)
		fprintf(stderr, "%smmscope: wrote %s (%llu pages, %llu bytes)\n",
			r->progress ? "\n" : "", path, (unsigned long long)res.pages,
			(unsigned long long)res.bytes);
	if (switch_output_written(&r->o->sw, path, &err)) {
		warning("%s", err);
		free(err);
	}
	r->files++;
	free(path);
	return 0;
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
		now = rec_mono_ns();
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
			/* not when --duration is up: the stop below ends the
			 * file (a switch first cost a whole part more) */
			if (part_writer_ready(&r->pw))
				reap_part(r);
			/* while the part before is being written, this one
			 * grows: the loop never waits for the writer */
			if (r->seg && r->stop == STOP_NONE && !r->pw.busy &&
			    !(r->o->duration_ns && now - r->t0_ns >= r->o->duration_ns) &&
			    ((r->o->sw.size && spool_bytes(r->spool) >= r->o->sw.size) ||
			     (r->o->sw.time_ns && now - r->seg_start_ns >= r->o->sw.time_ns)))
				switch_segment(r);
		}
		if (r->watch && trigger_watch_poll(r->watch, 0, 0, &err)) {
			rec_set_stop(r, STOP_ERROR, err);
			err = NULL;
			break;
		}
		if (got_stop_signal) {
			rec_set_stop(r, STOP_SIGNAL, xstrdup(strsignal(got_stop_signal)));
			break;
		}
		check_child(r);
		if (r->child > 0 && r->child_done) {
			rec_set_stop(r, STOP_COMMAND, NULL);
			break;
		}
		if (r->o->duration_ns && now - r->t0_ns >= r->o->duration_ns) {
			rec_set_stop(r, STOP_DURATION, NULL);
			break;
		}
		if (now >= next_sample) {
			take_routine_sample(r);
			next_sample += (uint64_t)r->o->interval_ms * 1000000u;
			if (next_sample < now)
				next_sample = now + (uint64_t)r->o->interval_ms * 1000000u;
			if (r->o->flight) {
				rec_size_ring(r);
				rec_check_triggers(r);
			}
		}
		if (got_usr1 && r->o->flight) {
			got_usr1 = 0;
			rec_flight_fire(r, NULL, NULL, "SIGUSR1");
		}
		if (r->bracket && now >= r->post_end_ns)
			rec_flight_end(r, 1);
		if (r->stop != STOP_NONE)
			break;
		if (now >= next_sync && !r->o->flight) {
			if (spool_sync(r->spool, &err)) {
				rec_set_stop(r, STOP_ERROR, err);
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
	if (r->o->switch_on || r->o->flight)	/* a snapshot for every file */
		collector_keep_kallsyms(r->col);
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
	so.cgroups = r->o->cgroups;
	so.cgroups_max = r->o->cgroups_max;
	/* a flight file starts wherever its ring was overwritten: every set
	 * carries every vmstat field, so that any may be its first */
	so.every_set_full = r->o->flight;
	/* the oom group's kills get the largest tasks of the last set before
	 * them (kill-dossier.h) */
	so.tasks = group_listed(collector_groups(r->col), "oom");
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
	    rec_write_private_meta(r, r->spool, &err) ||
	    spool_put_meta(r->spool, "instance", collector_instance_dir(r->col),
			   strlen(collector_instance_dir(r->col)), &err)) {
		error("%s", err);
		free(err);
		return -1;
	}
	return 0;
}

/*
 * A set-up that took START_NOTE_NS or more says where the time went, in
 * one line: a recorder that seems to hang before its command runs (a
 * slow or busy machine: a 7.3 guest under qemu TCG took 6-17 s when it
 * listed /proc/kallsyms twice) tells what it waited for. The kernel's parts: listing /proc/kallsyms (for
 * the probe choice and the file; read once), sizing the ring buffers,
 * installing the kprobes. MMSCOPE_TEST_START_NOTE_MS sets the bound
 * (tests).
 */
#define START_NOTE_NS 2000000000ull

static void start_note(const struct recorder *r)
{
	const struct collector_startup *st = collector_startup(r->col);
	const char *env = getenv("MMSCOPE_TEST_START_NOTE_MS");
	uint64_t bound = env && *env ? strtoull(env, NULL, 10) * 1000000u : START_NOTE_NS;
	uint64_t took = r->t0_ns - r->launch_ns;
	uint64_t known = st->kallsyms_ns + st->buffers_ns + st->probes_ns;
	struct strbuf sb = STRBUF_INIT;

	if (r->o->quiet || took < bound)
		return;
	if (st->kallsyms_reads) {
		strbuf_addf(&sb, "listing /proc/kallsyms %.1f s (%.1f MB", (double)st->kallsyms_ns / 1e9,
			    (double)st->kallsyms_bytes / 1e6);
		if (st->kallsyms_reads > 1)
			strbuf_addf(&sb, ", %u times: modules came or went", st->kallsyms_reads);
		strbuf_addstr(&sb, "), ");
	}
	strbuf_addf(&sb, "sizing the ring buffers %.1f s (%u KiB per CPU)",
		    (double)st->buffers_ns / 1e9, r->buffer_kb);
	if (st->probes_ns)
		strbuf_addf(&sb, ", choosing and installing the kprobes %.1f s",
			    (double)st->probes_ns / 1e9);
	fprintf(stderr, "mmscope: tracing began %.1f s after the start: %s; the rest %.1f s\n",
		(double)took / 1e9, sb.buf, (double)(took > known ? took - known : 0) / 1e9);
	strbuf_release(&sb);
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
	r->t0_ns = rec_mono_ns();
	r->seg_start_ns = r->t0_ns;
	wall_track_start(&r->wall, collector_clock(r->col), &r->start_trace_ns,
			 &r->start_real_ns);
	rec_write_context(r, "start");
	write_cgtasks(r);
	rec_take_sample(r);
	r->vm_first[0] = sampler_vmstat(r->sampler, "pswpout");
	r->vm_first[1] = sampler_vmstat(r->sampler, "swpout_zero");
	if (r->spool)
		rec_write_private_meta(r, r->spool, NULL);	/* now with the sources */
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
	start_note(r);
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

	rec_write_context(r, "end");
	write_outcome(r);
	stop_meta(r);
	if (r->bracket) {	/* stopped within a post-trigger time: write what it has */
		rec_flight_end(r, 0);
		collector_stats(r->col, r->stats);
		note_read_faults(r);
		return EXIT_OK;
	}
	rec_take_sample(r);
	collector_stop(r->col);
	reap_part(r);		/* tracing is off: waiting loses nothing */
	if (r->o->flight) {
		collector_stats(r->col, r->stats);
		note_read_faults(r);
		return EXIT_OK;
	}
	if (r->stop != STOP_DISK_FULL && r->stop != STOP_MAX_SIZE)
		move_pages(r, COLLECTOR_READ_FLUSH);
	r->cpu_read_ns = self_cpu_ns();	/* every page is in the spool */
	r->spool_read_all = 1;
	collector_stats(r->col, r->stats);
	/* a full disk: what the ring still holds is in no file: lost */
	if (r->stop == STOP_DISK_FULL)
		for (int cpu = 0; cpu < r->ncpus; cpu++)
			spool_add_lost(r->spool, cpu, r->stats[cpu].entries);
	spool_release_reserve(r->spool);
	if (collector_snapshot_late(r->col, r->spool, &err) ||
	    rec_write_private_meta(r, r->spool, &err)) {
		warning("%s", err);
		free(err);
		err = NULL;
	}
	/* everything is in the spool: nothing of ours is left in tracefs */
	note_read_faults(r);
	collector_close(r->col);
	r->col = NULL;
	/* a part could not be written (said, its spool kept): the one being
	 * recorded is kept whole as well, the rings read into it to the end */
	if (r->switch_failed) {
		fprintf(stderr, "mmscope: the part being recorded is kept too, in %s: run "
			"'mmscope recover %s -o %s'\n", r->spool_dir, r->spool_dir, out);
		return EXIT_ERROR;
	}
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
	reap_part(r);	/* an error path that did not finish */
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
	    (o->cgroup && preflight_cgroup(o->cgroup, &err)) ||
	    (o->cgroups && preflight_cgroup(o->cgroups, &err))) {
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
	r.launch_ns = rec_mono_ns();
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
			char *next = output_part_name(o->out, r.part_base + 1);

			fprintf(stderr, "mmscope: files of an earlier run up to number %d are "
				"there: this run writes %s on\n", r.part_base, next);
			free(next);
		}
	}
	inputs_new_run_id(r.run_id);	/* none without randomness: files stand alone */
	if (o->switch_on) {
		r.seg = r.part_base + 1;
		r.seg_path = output_part_name(o->out, r.seg);
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
	if (r.child > 0 && !r.child_done)
		stop_meta(&r);	/* stop_child may wait 5 s */
	stop_child(&r);
	ret = record_finish(&r);
	if (r.child > 0 && r.child_done && r.child_stopped && !o->quiet) {
		if (WIFSIGNALED(r.child_status))
			fprintf(stderr, "mmscope: '%s' was still running at the stop: mmscope ended "
				"it (killed by signal %d after %.1f s)\n", o->command[0],
				WTERMSIG(r.child_status),
				(double)(r.child_end_ns - r.child_start_ns) / 1e9);
		else
			fprintf(stderr, "mmscope: '%s' was still running at the stop: mmscope ended "
				"it (exit %d after %.1f s)\n", o->command[0],
				WEXITSTATUS(r.child_status),
				(double)(r.child_end_ns - r.child_start_ns) / 1e9);
	}
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
			r.progress ? "\n" : "", rec_stop_names[r.stop], r.flight_dumps - r.flight_failed,
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
