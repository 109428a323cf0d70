// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A live session (see live.h): the recorder as a child process, its
 * spool tailed page by page, the pages merged and fed to the models.
 *
 * Why a child and not the collector in this process: the recorder is
 * the part that must never lose what it read and never leave tracefs
 * changed; running it unchanged keeps every one of its guarantees
 * (signals, disk full, recover after a crash) and its tests, while the
 * TUI only reads files. The child gets its own process group (the
 * terminal's ^C belongs to the TUI) and SIGTERM if the TUI dies, on
 * which it finishes its file and removes its instance as usual.
 */
#define _GNU_SOURCE
#include "config.h"
#include "live.h"
#include "live-merge.h"
#include "event-raw.h"
#include "analysis.h"
#include "spool.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <tracefs.h>
#include <unistd.h>

#define LIVE_START_TIMEOUT_MS 30000
#define LIVE_READ_PAGES 64		/* pages per read() of a page file */
#define LIVE_COMM_EVERY_NS 2000000000ULL

struct live {
	struct live_opts o;
	char *dir, *spool, *out, *log;
	pid_t child;
	int child_status, ended, failed;
	int ready;			/* the recorder got as far as recording */
	int cmd_status;			/* COMMAND's, passed on by the recorder */
	int ncpus;
	uint32_t page_size;
	int *fds;
	uint64_t *off;			/* bytes of each page file taken */
	unsigned char *buf;
	struct tep_handle *tep;
	struct live_merge *merge;
	struct analysis *an;
	uint64_t first_ts, horizon, last_ts, last_comm_ns;
	char status[200];
	char *notes;			/* the recorder's messages at start */
	struct event_raw *recent;	/* ring of the last LIVE_RECENT events */
	uint64_t nrecent;		/* events ever put in it */
};

static uint64_t mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* The recorder's last error line (else its last line), without the
 * "mmscope: " and "error: " prefixes ours will add again. */
static char *live_last_message(const struct live *l)
{
	struct strbuf sb = STRBUF_INIT;
	char *line = NULL, *save = NULL, *p;
	const char *pick = NULL, *last = NULL;

	if (read_file(l->log, &sb) || !sb.len) {
		strbuf_release(&sb);
		return xstrdup("the recorder printed nothing");
	}
	for (p = strtok_r(sb.buf, "\n", &save); p; p = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(p, "mmscope: ", 9))
			p += 9;
		if (!strncmp(p, "error: ", 7))
			pick = p + 7;
		last = p;
	}
	line = xstrdup(pick ? pick : last ? last : "the recorder printed nothing");
	strbuf_release(&sb);
	return line;
}

static int live_spawn(struct live *l, char **err)
{
	int nargs = 0, i = 0, logfd, nullfd;
	const char **argv;
	pid_t parent = getpid();

	while (l->o.record_args && l->o.record_args[nargs])
		nargs++;
	argv = xcalloc((size_t)nargs + 12, sizeof(*argv));
	argv[i++] = l->o.exe;
	argv[i++] = "record";
	argv[i++] = "-q";
	argv[i++] = "--spool";
	argv[i++] = l->spool;
	argv[i++] = "-o";
	argv[i++] = l->out;
	if (l->o.force)
		argv[i++] = "--force";
	for (int k = 0; k < nargs; k++)
		argv[i++] = l->o.record_args[k];
	argv[i] = NULL;
	logfd = open(l->log, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
	nullfd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (logfd < 0 || nullfd < 0) {
		set_err(err, "cannot create %s: %s", l->log, strerror(errno));
		goto fail;
	}
	l->child = fork();
	if (l->child < 0) {
		set_err(err, "cannot start the recorder: %s", strerror(errno));
		goto fail;
	}
	if (!l->child) {
		setpgid(0, 0);
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (getppid() != parent)
			_exit(127);
		dup2(nullfd, 0);
		dup2(logfd, 1);
		dup2(logfd, 2);
		execv(l->o.exe, (char *const *)argv);
		dprintf(2, "mmscope: cannot run %s: %s\n", l->o.exe, strerror(errno));
		_exit(127);
	}
	close(logfd);
	close(nullfd);
	free(argv);
	{	/* for live_cleanup_stale() after a kill */
		char *pidfile = xasprintf("%s/recorder.pid", l->dir);
		int fd = open(pidfile, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);

		if (fd >= 0) {
			dprintf(fd, "%d\n", (int)l->child);
			close(fd);
		}
		free(pidfile);
	}
	return 0;
fail:
	if (logfd >= 0)
		close(logfd);
	if (nullfd >= 0)
		close(nullfd);
	free(argv);
	return -1;
}

static void live_reap(struct live *l, int block)
{
	int st;

	if (l->ended || l->child <= 0)
		return;
	if (waitpid(l->child, &st, block ? 0 : WNOHANG) == l->child) {
		l->ended = 1;
		l->child_status = st;
		/*
		 * Once recording, the recorder exits with its COMMAND's status
		 * (like time(1)), so its status does not tell whether it
		 * failed: it finished when the file is there and the spool
		 * is gone (it removes the spool only after writing the file).
		 */
		if (!l->ready)
			l->failed = !WIFEXITED(st) || WEXITSTATUS(st) != 0;
		else
			l->failed = WIFSIGNALED(st) || spool_is_spool(l->spool) ||
				    access(l->out, F_OK) != 0;
		if (!l->failed && WIFEXITED(st))
			l->cmd_status = WEXITSTATUS(st);
	}
}

/* A failed recorder's message, or how it was stopped. */
static int live_child_error(struct live *l, char **err)
{
	char *msg = live_last_message(l);

	const char *keep = l->o.out && spool_is_spool(l->spool) ?
			   "; its spool is kept: mmscope recover " : "";

	if (WIFSIGNALED(l->child_status))
		set_err(err, "the recorder was killed by signal %d (%s)%s%s",
			WTERMSIG(l->child_status), msg, keep, *keep ? l->spool : "");
	else
		set_err(err, "%s%s%s", msg, keep, *keep ? l->spool : "");
	free(msg);
	return -1;
}

/* Waits until the recorder has written its metadata (it records from
 * then on) or has failed. */
static int live_wait_ready(struct live *l, char **err)
{
	char *inst = xasprintf("%s/meta.instance", l->spool);
	int ready = 0;

	for (int ms = 0; ms < LIVE_START_TIMEOUT_MS && !ready; ms += 20) {
		struct stat st;

		live_reap(l, 0);
		if (!stat(inst, &st)) {
			ready = 1;
			break;
		}
		if (l->ended)
			break;
		usleep(20000);
	}
	free(inst);
	if (ready)
		return 0;
	if (l->ended)
		return live_child_error(l, err);
	return set_err(err, "the recorder did not start within %d s", LIVE_START_TIMEOUT_MS / 1000);
}

static int live_open_spool(struct live *l, char **err)
{
	struct utsname u;
	char *meta, *clock;
	int r;

	if (spool_layout(l->spool, &l->ncpus, &l->page_size, err))
		return -1;
	l->fds = xcalloc((size_t)l->ncpus, sizeof(*l->fds));
	l->off = xcalloc((size_t)l->ncpus, sizeof(*l->off));
	l->buf = xmalloc((size_t)l->page_size * LIVE_READ_PAGES);
	for (int c = 0; c < l->ncpus; c++) {
		char *path = xasprintf("%s/cpu%d.raw", l->spool, c);

		l->fds[c] = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		if (l->fds[c] < 0) {
			set_err(err, "cannot open %s: %s", path, strerror(errno));
			free(path);
			return -1;
		}
		free(path);
	}
	clock = spool_read_meta(l->spool, "trace_clock", NULL);
	r = clock && !strstr(clock, "[mono]");
	free(clock);
	if (r)
		return set_err(err, "live mode reads the mono trace clock (no --clock)");
	l->tep = tracefs_local_events(NULL);
	if (!l->tep)
		return set_err(err, "cannot read the event formats from tracefs: %s",
			       strerror(errno));
	meta = spool_read_meta(l->spool, "mmscope", NULL);
	if (uname(&u))
		snprintf(u.release, sizeof(u.release), "?");
	l->an = analysis_live_new(l->tep, u.release, meta, NULL, err);
	free(meta);
	if (!l->an)
		return -1;
	l->recent = xcalloc(LIVE_RECENT, sizeof(*l->recent));
	l->merge = live_merge_new(l->tep, l->ncpus, l->page_size);
	if (!l->merge)
		return set_err(err, "out of memory");
	return 0;
}

static int pid_alive(pid_t pid)
{
	return pid > 0 && (kill(pid, 0) == 0 || errno == EPERM);
}

/* Removes one session directory: what live_free() would have removed. */
static void live_remove_dir(const char *dir)
{
	static const char *const files[] = { "live.dat", "record.log", "recorder.pid" };
	char *spool = xasprintf("%s/spool", dir);

	if (spool_is_spool(spool))
		spool_remove(spool, NULL);
	free(spool);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char *p = xasprintf("%s/%s", dir, files[i]);

		unlink(p);
		free(p);
	}
	rmdir(dir);
}

/*
 * Directories of sessions that were killed (SIGKILL, or a signal that
 * let the TUI restore the terminal but not clean up): named after the
 * TUI's pid, with the recorder's pid inside. Removed once both are gone
 * (the recorder finishes its file first); only ours, never through a
 * symlink.
 */
static void live_cleanup_stale(const char *tmpdir)
{
	DIR *d = opendir(tmpdir);
	struct dirent *de;

	while (d && (de = readdir(d))) {
		char *path, *pidfile;
		struct stat st;
		int tui_pid, rec_pid = 0;
		FILE *f;

		if (sscanf(de->d_name, "mmscope-live.%d.", &tui_pid) != 1 || pid_alive(tui_pid))
			continue;
		path = xasprintf("%s/%s", tmpdir, de->d_name);
		pidfile = xasprintf("%s/recorder.pid", path);
		if (!lstat(path, &st) && S_ISDIR(st.st_mode) && st.st_uid == geteuid()) {
			f = fopen(pidfile, "re");
			if (f) {
				if (fscanf(f, "%d", &rec_pid) != 1)
					rec_pid = 0;
				fclose(f);
			}
			if (!pid_alive(rec_pid))
				live_remove_dir(path);
		}
		free(pidfile);
		free(path);
	}
	if (d)
		closedir(d);
}

struct live *live_start(const struct live_opts *o, char **err)
{
	struct live *l = xcalloc(1, sizeof(*l));
	const char *tmpdir = o->tmpdir ? o->tmpdir : "/var/tmp";
	char *templ;

	live_cleanup_stale(tmpdir);
	templ = xasprintf("%s/mmscope-live.%d.XXXXXX", tmpdir, (int)getpid());

	l->o = *o;
	l->child = -1;
	if (!mkdtemp(templ)) {
		set_err(err, "cannot create a directory in %s: %s", tmpdir, strerror(errno));
		free(templ);
		free(l);
		return NULL;
	}
	l->dir = templ;
	l->spool = xasprintf("%s/spool", l->dir);
	l->log = xasprintf("%s/record.log", l->dir);
	l->out = o->out ? xstrdup(o->out) : xasprintf("%s/live.dat", l->dir);
	l->first_ts = mono_now();
	if (live_spawn(l, err) || live_wait_ready(l, err)) {
		live_free(l);
		return NULL;
	}
	l->ready = 1;
	if (live_open_spool(l, err)) {
		live_free(l);
		return NULL;
	}
	l->horizon = l->first_ts;
	snprintf(l->status, sizeof(l->status), "live: starting");
	{
		struct strbuf sb = STRBUF_INIT;

		if (!read_file(l->log, &sb))
			while (sb.len && sb.buf[sb.len - 1] == '\n')
				sb.buf[--sb.len] = '\0';
		l->notes = strbuf_detach(&sb, NULL);
	}
	return l;
}

int live_recent_count(const struct live *l)
{
	return l->nrecent < LIVE_RECENT ? (int)l->nrecent : LIVE_RECENT;
}

int live_recent(const struct live *l, int i, struct td_event *ev)
{
	uint64_t first = l->nrecent < LIVE_RECENT ? 0 : l->nrecent - LIVE_RECENT;

	if (i < 0 || i >= live_recent_count(l))
		return 0;
	event_raw_event(&l->recent[(first + (uint64_t)i) % LIVE_RECENT], ev);
	return 1;
}

static void live_feed(void *ctx, const struct td_event *ev)
{
	struct live *l = ctx;

	analysis_live_event(l->an, ev);
	event_raw_copy(&l->recent[l->nrecent++ % LIVE_RECENT], ev);
	if (ev->ts > l->last_ts)
		l->last_ts = ev->ts;
}

/* Whole pages appended to CPU c's page file since the last call. A page
 * that does not look complete is the one the recorder is writing: it is
 * read again next time (or skipped once the recorder has ended). */
static int live_take_cpu(struct live *l, int c, char **err)
{
	struct stat st;

	if (fstat(l->fds[c], &st))
		return set_err(err, "cannot stat the spool of CPU %d: %s", c, strerror(errno));
	while ((uint64_t)st.st_size >= l->off[c] + l->page_size) {
		uint64_t whole = ((uint64_t)st.st_size - l->off[c]) / l->page_size;
		size_t n = whole > LIVE_READ_PAGES ? LIVE_READ_PAGES : (size_t)whole;
		ssize_t r = pread(l->fds[c], l->buf, n * l->page_size, (off_t)l->off[c]);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return set_err(err, "cannot read the spool of CPU %d: %s", c,
				       strerror(errno));
		n = (size_t)r / l->page_size;
		if (!n)
			break;
		for (size_t i = 0; i < n; i++) {
			const unsigned char *page = l->buf + i * l->page_size;
			int last = l->off[c] + l->page_size >= (uint64_t)st.st_size;

			if (!spool_page_valid(page, l->page_size) && last && !l->ended)
				return 0;
			if (spool_page_valid(page, l->page_size))
				live_merge_add_page(l->merge, c, page);
			l->off[c] += l->page_size;
		}
	}
	return 0;
}

/* Task names for the pids seen so far (the kernel's saved_cmdlines). */
static void live_comms(struct live *l)
{
	char *path = tracefs_get_tracing_file("saved_cmdlines");
	FILE *f = path ? fopen(path, "re") : NULL;
	char line[256], comm[64];
	int pid;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%d %63s", &pid, comm) == 2 &&
		    strcmp(tep_data_comm_from_pid(l->tep, pid), comm))
			tep_register_comm(l->tep, comm, pid);
	if (f)
		fclose(f);
	tracefs_put_tracing_file(path);
}

static void live_set_status(struct live *l)
{
	const struct analysis_info *in = analysis_info(l->an);
	const char *state = !l->ended ? "live" : l->failed ? "recorder failed" : "recorder ended";
	char cmd[40] = "";

	if (l->cmd_status)
		snprintf(cmd, sizeof(cmd), " (command exit %d)", l->cmd_status);
	snprintf(l->status, sizeof(l->status), "%s%s: %llu events, %lld lost%s", state, cmd,
		 (unsigned long long)live_merge_events(l->merge), in->lost,
		 live_merge_late(l->merge) ? ", some late" : "");
}

int live_poll(struct live *l, char **err)
{
	uint64_t now = mono_now();

	live_reap(l, 0);
	for (int c = 0; c < l->ncpus; c++)
		if (live_take_cpu(l, c, err))
			return -1;
	l->horizon = l->ended ? UINT64_MAX : now - LIVE_LAG_NS;
	live_merge_drain(l->merge, l->horizon, live_feed, l);
	if (l->ended)
		l->horizon = l->last_ts > l->first_ts ? l->last_ts : l->first_ts;
	if (l->horizon < l->first_ts)
		l->horizon = l->first_ts;
	analysis_live_sync(l->an, l->horizon);
	if (now - l->last_comm_ns > LIVE_COMM_EVERY_NS || l->ended) {
		live_comms(l);
		l->last_comm_ns = now;
	}
	live_set_status(l);
	return l->ended ? 1 : 0;
}

int live_stop(struct live *l, char **err)
{
	if (!l->ended && l->child > 0)
		kill(l->child, SIGINT);
	live_reap(l, 1);
	if (live_poll(l, err) < 0)
		return -1;
	if (l->failed)
		return live_child_error(l, err);
	return 0;
}

void live_free(struct live *l)
{
	if (!l)
		return;
	if (l->child > 0 && !l->ended) {
		kill(l->child, SIGINT);
		live_reap(l, 1);
	}
	for (int c = 0; l->fds && c < l->ncpus; c++)
		if (l->fds[c] > 0)
			close(l->fds[c]);
	live_merge_free(l->merge);
	analysis_free(l->an);
	if (l->tep)
		tep_free(l->tep);
	/* the spool is gone unless the recorder failed; with -o keep it then
	 * (mmscope recover can finish it) */
	if (l->dir && !(l->failed && l->o.out && spool_is_spool(l->spool)))
		live_remove_dir(l->dir);
	free(l->notes);
	for (int i = 0; l->recent && i < LIVE_RECENT; i++)
		event_raw_release(&l->recent[i]);
	free(l->recent);
	free(l->fds);
	free(l->off);
	free(l->buf);
	free(l->dir);
	free(l->spool);
	free(l->log);
	free(l->out);
	free(l);
}

struct analysis *live_analysis(const struct live *l) { return l->an; }
struct tep_handle *live_tep(const struct live *l) { return l->tep; }
/* The first event once there is one (as a recording of the same pages
 * would start), the start of the session before. */
uint64_t live_first_ts(const struct live *l)
{
	const struct analysis_info *in = analysis_info(l->an);

	return in->events && in->first_ts < l->horizon ? in->first_ts : l->first_ts;
}
uint64_t live_horizon(const struct live *l) { return l->horizon; }
const char *live_status(const struct live *l) { return l->status; }
int live_ended(const struct live *l) { return l->ended; }
const char *live_notes(const struct live *l) { return l->notes ? l->notes : ""; }
