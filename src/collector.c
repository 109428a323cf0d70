// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The collector (see collector.h): the life of mmscope's own tracefs
 * instance, from the cleanup of instances left by dead recorders to the
 * removal of ours, and the reading of its per-CPU ring buffers as raw
 * pages with libtracefs.
 *
 * Pitfall handled here: libtracefs 1.6.4's tracefs_cpu_open() sizes its
 * reads from the top-level header_page, not the instance's; so the
 * instance's sub-buffer size is parsed from its own events/header_page
 * and trace_pipe_raw is wrapped with tracefs_cpu_alloc_fd().
 */
#define _GNU_SOURCE	/* splice, F_SETPIPE_SZ */
#include "config.h"
#include "collector.h"
#include "cmdlines.h"
#include "families.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include <tracefs.h>

#define INSTANCE_PREFIX "mmscope-"

/* The groups are the event families (parsers/families.c). */
_Static_assert(FAMILY_PROBE_SWAP == 1u << PROBE_SWAP &&
	       FAMILY_PROBE_ZSWAP == 1u << PROBE_ZSWAP, "probe bits of families.h");

/*
 * A CPU's trace_pipe_raw. Full pages are spliced from it into a pipe of
 * our own (tcpu's own splice pipe is never used: only its plain read and
 * flush of the page being written), and from the pipe either into the
 * spool (splice again: the pages never pass through user space) or, one
 * page at a time, into c->page. `pending` bytes are in the pipe; they are
 * older than anything still in the ring, so they go first.
 */
struct cpu_reader {
	int fd;
	struct tracefs_cpu *tcpu;
	int pipe[2];
	size_t pipe_size;
	size_t pending;
	int plain_short;	/* a plain read this round met the writer's page */
};

/* The pipe between a CPU's ring and the spool: 1 MiB, or what we get.
 * Memory beyond the rings: this per CPU, at most, for a moment. */
#define SPLICE_PIPE_BYTES (1u << 20)

struct collector {
	char *tracefs;
	char *name;		/* mmscope-PID */
	char *dir;		/* tracefs/instances/mmscope-PID */
	struct tracefs_instance *inst;
	int ncpus;
	uint32_t page_size;
	struct cpu_reader *cpus;
	void *page;
	int marker_fd;
	char *clock;
	struct strbuf groups, events, missing;
	struct probe_result probes;
	int have_probes;
	int closed;
	/* the stats when the ring was last emptied (collector_stats_restart):
	 * a flight dump's stats count from there, its window's, not the run's */
	struct collector_cpustat *base;
	struct cmdlines names;	/* every task name seen at a snapshot */
	struct strbuf names_text;	/* the cmdlines text of the last snapshot */
	/* splices of the ring that failed for lack of memory (the pages were
	 * then read with read(2) into c->page), and injected failures left
	 * (MMSCOPE_TEST_SPLICE_ENOMEM, MMSCOPE_TEST_READ_ENOMEM: tests) */
	uint64_t splice_nomem, read_nomem, plain_pages;
	unsigned long fault_splice, fault_read;
	/* /proc/kallsyms as last read and the /proc/modules text it was read
	 * with: read once for the probe choice and the first snapshot, kept
	 * after it for the next ones with collector_keep_kallsyms */
	int keep_syms;
	struct strbuf syms, syms_modules;
	struct collector_startup startup;
};

void collector_keep_kallsyms(struct collector *c)
{
	c->keep_syms = 1;
}



void collector_read_faults(const struct collector *c, uint64_t *splice_nomem,
			   uint64_t *read_nomem, uint64_t *plain_pages)
{
	*splice_nomem = c->splice_nomem;
	*read_nomem = c->read_nomem;
	*plain_pages = c->plain_pages;
}

/* ---- small tracefs file helpers ---- */

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static char *inst_path(const struct collector *c, const char *file)
{
	return xasprintf("%s/%s", c->dir, file);
}

static int write_text(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	ssize_t n;
	int saved;

	if (fd < 0)
		return -1;
	n = write(fd, s, strlen(s));
	saved = errno;
	close(fd);
	errno = saved;
	return n == (ssize_t)strlen(s) ? 0 : -1;
}

static int inst_write(const struct collector *c, const char *file, const char *s)
{
	char *p = inst_path(c, file);
	int r = write_text(p, s);

	free(p);
	return r;
}

static int inst_read(const struct collector *c, const char *file, struct strbuf *sb)
{
	char *p = inst_path(c, file);
	int r = read_file(p, sb);

	free(p);
	return r;
}

/* ---- tracefs mount and stale instances ---- */

const char *collector_tracefs(char **err)
{
	static char path[4096];
	const char *d = tracefs_tracing_dir();
	struct stat st;

	if (d && !stat(d, &st) && S_ISDIR(st.st_mode)) {
		char *inst = xasprintf("%s/instances", d);
		int ok = !access(inst, F_OK);

		free(inst);
		if (ok) {
			snprintf(path, sizeof(path), "%s", d);
			return path;
		}
	}
	/* a tracefs we may not enter: say so, rather than "not mounted" */
	if (!stat("/sys/kernel/tracing", &st) && access("/sys/kernel/tracing", X_OK) &&
	    errno == EACCES) {
		set_err(err, "permission denied: tracefs at /sys/kernel/tracing is for root "
			"(run as root)");
		return NULL;
	}
	/* libtracefs did not find or mount it: try the usual place ourselves */
	if (!access("/sys/kernel/tracing/instances", F_OK) ||
	    !mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL)) {
		snprintf(path, sizeof(path), "/sys/kernel/tracing");
		if (!access("/sys/kernel/tracing/instances", F_OK))
			return path;
	}
	set_err(err, "no tracefs: cannot find or mount it at /sys/kernel/tracing (%s)",
		strerror(errno));
	return NULL;
}

#define DEBUGFS_MAGIC_ 0x64626720	/* linux/magic.h DEBUGFS_MAGIC */

int collector_debugfs(char **err)
{
	struct statfs sf;

	if (!statfs("/sys/kernel/debug", &sf) && sf.f_type == DEBUGFS_MAGIC_)
		return 0;
	if (!mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL))
		return 0;
	set_err(err, "cannot mount debugfs at /sys/kernel/debug (%s)", strerror(errno));
	return -1;
}

/* A recorder that no longer runs: dead, or the PID now runs another program. */
static int pid_is_stale(long pid)
{
	char path[64], comm[64] = "";
	FILE *f;

	if (pid <= 0)
		return 0;
	if (kill((pid_t)pid, 0) && errno == ESRCH)
		return 1;
	snprintf(path, sizeof(path), "/proc/%ld/comm", pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	if (!fgets(comm, sizeof(comm), f))
		comm[0] = '\0';
	fclose(f);
	return comm[0] && strncmp(comm, "mmscope", 7) && strncmp(comm, "lt-mmscope", 10);
}

int collector_cleanup_stale(const char *tracefs, struct strbuf *removed)
{
	char *dir = xasprintf("%s/instances", tracefs);
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	if (d) {
		while ((de = readdir(d))) {
			char *end, *path;
			long pid;

			if (strncmp(de->d_name, INSTANCE_PREFIX, strlen(INSTANCE_PREFIX)))
				continue;
			pid = strtol(de->d_name + strlen(INSTANCE_PREFIX), &end, 10);
			/* mmscope-PID, and a trigger watch's mmscope-PID-w */
			if ((*end && strcmp(end, "-w")) || pid == (long)getpid() || !pid_is_stale(pid))
				continue;
			path = xasprintf("%s/%s/tracing_on", dir, de->d_name);
			write_text(path, "0");
			free(path);
			path = xasprintf("%s/%s", dir, de->d_name);
			if (!rmdir(path)) {
				if (removed)
					strbuf_addf(removed, "%s%s", removed->len ? " " : "",
						    de->d_name);
				n++;
			}
			free(path);
		}
		closedir(d);
	}
	free(dir);
	n += probes_cleanup_stale(tracefs, removed);
	return n;
}

long collector_drain_stale(const char *inst_dir, struct spool *s, int ncpus,
			   uint32_t page_size, char **err)
{
	const char *base = strrchr(inst_dir, '/');
	struct strbuf stats = STRBUF_INIT, st = STRBUF_INIT;
	char *end, *p, *page;
	long pid, taken = 0;

	base = base ? base + 1 : inst_dir;
	if (strncmp(base, INSTANCE_PREFIX, strlen(INSTANCE_PREFIX)) || access(inst_dir, F_OK))
		return 0;
	pid = strtol(base + strlen(INSTANCE_PREFIX), &end, 10);
	if (*end || !pid_is_stale(pid))
		return 0;	/* not ours to touch: its recorder still runs */
	p = xasprintf("%s/tracing_on", inst_dir);
	write_text(p, "0");
	free(p);
	page = xmalloc(page_size);
	for (int cpu = 0; cpu < ncpus; cpu++) {
		struct tracefs_cpu *t;
		int fd, n;

		p = xasprintf("%s/per_cpu/cpu%d/trace_pipe_raw", inst_dir, cpu);
		fd = open(p, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		free(p);
		if (fd < 0)
			continue;
		t = tracefs_cpu_alloc_fd(fd, (int)page_size, true);
		while (t && (n = tracefs_cpu_flush(t, page)) > 0) {
			if ((uint32_t)n < page_size)
				memset(page + n, 0, page_size - (uint32_t)n);
			if (!spool_page_valid(page, page_size))
				continue;
			if (spool_put_page(s, cpu, page, err)) {
				tracefs_cpu_free_fd(t);
				close(fd);
				taken = -1;
				goto out;
			}
			taken++;
		}
		if (t)
			tracefs_cpu_free_fd(t);
		close(fd);
		p = xasprintf("%s/per_cpu/cpu%d/stats", inst_dir, cpu);
		strbuf_reset(&st);
		if (!read_file(p, &st))
			strbuf_addf(&stats, "CPU: %d\n%s", cpu, st.buf ? st.buf : "");
		free(p);
	}
	if (stats.len)
		spool_put_meta(s, "cpustat", stats.buf, stats.len, NULL);
	p = xasprintf("%s/events/enable", inst_dir);
	write_text(p, "0");
	free(p);
	rmdir(inst_dir);
out:
	free(page);
	strbuf_release(&stats);
	strbuf_release(&st);
	return taken;
}

/* ---- events ---- */

static int event_exists(const struct collector *c, const char *sys, const char *ev)
{
	char *p = xasprintf("%s/events/%s/%s/enable", c->dir, sys, ev);
	int r = !access(p, F_OK);

	free(p);
	return r;
}

static int system_exists(const struct collector *c, const char *sys)
{
	char *p = xasprintf("%s/events/%s", c->dir, sys);
	int r = !access(p, F_OK);

	free(p);
	return r;
}

static void enable_one(struct collector *c, const char *sys, const char *ev)
{
	char *p = xasprintf("events/%s/%s/enable", sys, ev);

	if (inst_write(c, p, "1"))
		strbuf_addf(&c->missing, "%s%s:%s", c->missing.len ? "," : "", sys, ev);
	else
		strbuf_addf(&c->events, "%s%s:%s", c->events.len ? "," : "", sys, ev);
	free(p);
}

/* "sys:*" or "sys" enables every event of the system, one by one. */
static void enable_system(struct collector *c, const char *sys)
{
	char *path = xasprintf("%s/events/%s", c->dir, sys);
	DIR *d = opendir(path);
	struct dirent *de;
	char **names = NULL;
	size_t n = 0;

	free(path);
	if (!d) {
		strbuf_addf(&c->missing, "%s%s:*", c->missing.len ? "," : "", sys);
		return;
	}
	while ((de = readdir(d)))
		if (de->d_name[0] != '.' && event_exists(c, sys, de->d_name)) {
			names = xreallocarray(names, n + 1, sizeof(*names));
			names[n++] = xstrdup(de->d_name);
		}
	closedir(d);
	for (size_t i = 0; i < n; i++) {
		enable_one(c, sys, names[i]);
		free(names[i]);
	}
	free(names);
}

static int already_enabled(const struct collector *c, const char *sys, const char *ev)
{
	char *want = xasprintf("%s:%s", sys, ev);
	const char *p = c->events.buf;
	size_t l = strlen(want);
	int found = 0;

	while (p && (p = strstr(p, want))) {
		if ((p == c->events.buf || p[-1] == ',') && (p[l] == ',' || !p[l])) {
			found = 1;
			break;
		}
		p += l;
	}
	free(want);
	return found;
}

static void enable_spec(struct collector *c, const char *spec)
{
	char *sys = xstrdup(spec), *ev = strchr(sys, ':');

	if (ev)
		*ev++ = '\0';
	if (!ev || !*ev || !strcmp(ev, "*"))
		enable_system(c, sys);
	else if (already_enabled(c, sys, ev))
		;
	else if (event_exists(c, sys, ev))
		enable_one(c, sys, ev);
	else
		strbuf_addf(&c->missing, "%s%s:%s", c->missing.len ? "," : "", sys, ev);
	free(sys);
}

int collector_event_present(const char *events_dir, const char *spec)
{
	char *p = xasprintf("%s/%s", events_dir, spec), *colon = strrchr(p, ':');
	int r;

	if (colon)
		*colon = '/';
	/* "sys:*" is the system's directory */
	if (strlen(p) > 2 && !strcmp(p + strlen(p) - 2, "/*"))
		p[strlen(p) - 2] = '\0';
	r = !access(p, F_OK);
	free(p);
	return r;
}

const char *collector_event_choice(const char *events_dir, const struct family_event *fe)
{
	/* the alternate (an older kernel's name) only where spec is missing;
	 * with neither, spec is what goes missing */
	if (fe->alt && !collector_event_present(events_dir, fe->spec) &&
	    collector_event_present(events_dir, fe->alt))
		return fe->alt;
	return fe->spec;
}

/* The kernel's word on a filter it refused: the filter file then holds the
 * expression, a caret and the error; or the last line of error_log. */
static void filter_error(struct collector *c, const char *file, struct strbuf *out)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p;

	if (!inst_read(c, file, &sb) && sb.buf && (p = strstr(sb.buf, "error:")))
		strbuf_addstr(out, p);
	if (!out->len) {
		char *log = xasprintf("%s/error_log", c->tracefs);

		strbuf_reset(&sb);
		if (!read_file(log, &sb) && sb.buf && (p = strstr(sb.buf, "error: "))) {
			const char *q;

			while ((q = strstr(p + 1, "error: ")))
				p = q;	/* the newest */
			strbuf_addstr(out, p);
		}
		free(log);
	}
	/* one line: newlines and runs of blanks become one space */
	for (size_t i = 0, j = 0; i <= out->len; i++) {
		char ch = i < out->len ? out->buf[i] : '\0';

		if (ch == '\n' || ch == '\t')
			ch = ' ';
		if (ch == ' ' && (j == 0 || out->buf[j - 1] == ' '))
			continue;
		out->buf[j++] = ch;
		if (!ch)
			out->len = j - 1;
	}
	while (out->len && out->buf[out->len - 1] == ' ')
		out->buf[--out->len] = '\0';
	strbuf_release(&sb);
}

static int set_filters(struct collector *c, const char *const *filters, char **err)
{
	for (const char *const *f = filters; *f; f++) {
		const char *c1 = strchr(*f, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		char *sys, *ev, *want, *file;
		struct strbuf why = STRBUF_INIT;
		int r;

		if (!c1 || !c2 || c1 == *f || c2 == c1 + 1 || !c2[1])
			return set_err(err, "bad filter '%s' (SYSTEM:EVENT:EXPR)", *f);
		sys = xasprintf("%.*s", (int)(c1 - *f), *f);
		ev = xasprintf("%.*s", (int)(c2 - c1 - 1), c1 + 1);
		want = xasprintf(",%s:%s,", sys, ev);
		file = xasprintf("events/%s/%s/filter", sys, ev);
		strbuf_addf(&why, ",%s,", c->events.buf ? c->events.buf : "");
		r = strstr(why.buf, want) != NULL;
		strbuf_reset(&why);
		if (!r && !event_exists(c, sys, ev))
			set_err(err, "filter '%s': %s:%s is not an event of this kernel%s", *f, sys,
				ev, system_exists(c, sys) ? "" : " (nor is its system)");
		else if (!r)
			set_err(err, "filter '%s': %s:%s is not recorded (add -e %s:%s)", *f, sys, ev,
				sys, ev);
		else if (inst_write(c, file, c2 + 1)) {
			int e = errno;

			filter_error(c, file, &why);
			set_err(err, "filter '%s' refused by the kernel: %s", *f,
				why.len ? why.buf : strerror(e));
			r = 0;
		}
		strbuf_release(&why);
		free(sys);
		free(ev);
		free(want);
		free(file);
		if (!r)
			return -1;
	}
	return 0;
}

static int set_stacktraces(struct collector *c, const char *const *evs, char **err)
{
	for (const char *const *e = evs; *e; e++) {
		const char *colon = strchr(*e, ':');
		char *want = xasprintf(",%s,", *e), *file;
		struct strbuf have = STRBUF_INIT;
		int ok;

		strbuf_addf(&have, ",%s,", c->events.buf ? c->events.buf : "");
		ok = colon && strstr(have.buf, want);
		strbuf_release(&have);
		free(want);
		if (!ok && colon && colon > *e && colon[1]) {
			char *sys = xasprintf("%.*s", (int)(colon - *e), *e);
			int there = event_exists(c, sys, colon + 1), sys_there = system_exists(c, sys);

			free(sys);
			if (!there)
				return set_err(err, "--stacktrace %s: not an event of this kernel%s", *e,
					       sys_there ? "" : " (nor is its system)");
		}
		if (!ok)
			return set_err(err, "--stacktrace %s: not a recorded event (SYSTEM:EVENT; add -e %s)",
				       *e, *e);
		file = xasprintf("events/%.*s/%s/trigger", (int)(colon - *e), *e, colon + 1);
		if (inst_write(c, file, "stacktrace")) {
			int e2 = errno;

			set_err(err, "--stacktrace %s: the kernel refused the stacktrace trigger: %s", *e,
				strerror(e2));
			free(file);
			return -1;
		}
		free(file);
	}
	return 0;
}

/*
 * /proc/kallsyms into c->syms, unless the copy there was read with the
 * modules loaded now (a module that came or went changes the symbols).
 * A kernel lists it slowly: 0.1 s on a 6.18 host, 0.5-1.6 s in a 7.3
 * guest under qemu TCG (213,000 symbols, 10 MB), where the probe choice
 * and the first snapshot once read it each.
 */
static void kallsyms_read(struct collector *c)
{
	struct strbuf mods = STRBUF_INIT;
	uint64_t t0;

	read_file("/proc/modules", &mods);	/* none: an empty text */
	if (c->syms.len && mods.len == c->syms_modules.len &&
	    (!mods.len || !memcmp(mods.buf, c->syms_modules.buf, mods.len))) {
		strbuf_release(&mods);
		return;
	}
	t0 = mono_ns();
	strbuf_reset(&c->syms);
	read_file("/proc/kallsyms", &c->syms);	/* unreadable: empty */
	c->startup.kallsyms_ns += mono_ns() - t0;
	c->startup.kallsyms_bytes = c->syms.len;
	c->startup.kallsyms_reads++;
	strbuf_release(&c->syms_modules);
	c->syms_modules = mods;
}

/* A family's own filter on one of its events (families.h), where the
 * event is enabled. A kernel that refuses it records the event whole:
 * the parsers and models keep what they need, at more cost. A --filter
 * on the same event, set later, replaces it. */
static void family_filter(struct collector *c, const char *spec, const char *expr)
{
	char *sys = xstrdup(spec), *ev = strchr(sys, ':'), *file;

	if (ev) {
		*ev++ = '\0';
		if (already_enabled(c, sys, ev)) {
			file = xasprintf("events/%s/%s/filter", sys, ev);
			(void)inst_write(c, file, expr);
			free(file);
		}
	}
	free(sys);
}

static int enable_groups(struct collector *c, const char *groups, int no_probes,
			 const char *probe_set, char **err)
{
	char *copy = xstrdup(groups), *save = NULL, *g, *evdir = inst_path(c, "events");
	unsigned want_probes = 0;

	for (g = strtok_r(copy, ",", &save); g; g = strtok_r(NULL, ",", &save)) {
		const struct event_family *fam = family_find(g);

		if (!strcmp(g, "none"))		/* only what -e asks for */
			continue;
		if (!fam) {
			char names[256];

			set_err(err, "unknown event group '%s' (%s, or none)", g,
				family_group_names(names, sizeof(names)));
			free(copy);
			free(evdir);
			return -1;
		}
		strbuf_addf(&c->groups, "%s%s", c->groups.len ? "," : "", g);
		for (const struct family_event *fe = fam->events; fe->spec; fe++) {
			const char *spec = collector_event_choice(evdir, fe);

			enable_spec(c, spec);
			if (fe->filter)
				family_filter(c, spec, fe->filter);
		}
		want_probes |= fam->probes;
	}
	free(copy);
	free(evdir);
	if (want_probes && !no_probes) {
		uint64_t t0;

		kallsyms_read(c);
		t0 = mono_ns();
		probes_install(c->tracefs, c->dir, want_probes, probe_set, c->syms.buf,
			       c->syms.len, &c->probes);
		c->startup.probes_ns = mono_ns() - t0;
		c->have_probes = 1;
		if (c->probes.probes && *c->probes.probes)
			strbuf_addf(&c->events, "%s%s", c->events.len ? "," : "",
				    c->probes.probes);
	} else {
		c->probes.set = xstrdup("none");
		c->probes.reason = xstrdup(no_probes ? "not asked for (--no-probes)" :
					   "not asked for (no swap or zswap group)");
		c->probes.probes = xstrdup("");
	}
	return 0;
}

/* ---- opening ---- */

/* Sub-buffer size from the instance's events/header_page ("data" end). */
static uint32_t parse_page_size(const char *hp)
{
	const char *d = strstr(hp, "char data;");
	unsigned off, size;

	if (d && sscanf(strstr(d, "offset:"), "offset:%u;\tsize:%u", &off, &size) == 2)
		return off + size;
	return 0;
}

static int count_cpus(const struct collector *c)
{
	int n = 0;

	for (;;) {
		char *p = xasprintf("%s/per_cpu/cpu%d", c->dir, n);
		int ok = !access(p, F_OK);

		free(p);
		if (!ok)
			return n;
		n++;
	}
}

static int open_readers(struct collector *c, char **err)
{
	c->cpus = xcalloc((size_t)c->ncpus, sizeof(*c->cpus));
	for (int cpu = 0; cpu < c->ncpus; cpu++) {
		char *p = xasprintf("%s/per_cpu/cpu%d/trace_pipe_raw", c->dir, cpu);

		c->cpus[cpu].pipe[0] = c->cpus[cpu].pipe[1] = -1;
		c->cpus[cpu].fd = open(p, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (c->cpus[cpu].fd < 0) {
			/* an offline CPU may have no readable buffer */
			free(p);
			continue;
		}
		c->cpus[cpu].tcpu = tracefs_cpu_alloc_fd(c->cpus[cpu].fd, (int)c->page_size, true);
		/* the kernel keeps a spare page per reader from its first
		 * read(2) on: take it now (the ring is empty: EAGAIN), so that
		 * the fallback from splice under memory pressure allocates
		 * nothing then */
		if (c->cpus[cpu].tcpu && c->page)
			tracefs_cpu_read(c->cpus[cpu].tcpu, c->page, true);
		if (!c->cpus[cpu].tcpu) {
			set_err(err, "libtracefs cannot read %s: %s", p, strerror(errno));
			free(p);
			return -1;
		}
		if (pipe2(c->cpus[cpu].pipe, O_NONBLOCK | O_CLOEXEC)) {
			set_err(err, "cannot make a pipe for %s: %s", p, strerror(errno));
			free(p);
			return -1;
		}
		{
			int got = fcntl(c->cpus[cpu].pipe[1], F_SETPIPE_SZ, SPLICE_PIPE_BYTES);

			if (got < 0)	/* over pipe-max-size: the default will do */
				got = fcntl(c->cpus[cpu].pipe[1], F_GETPIPE_SZ);
			c->cpus[cpu].pipe_size = got > 0 ? (size_t)got : 65536;
			c->cpus[cpu].pipe_size -= c->cpus[cpu].pipe_size % c->page_size;
			if (!c->cpus[cpu].pipe_size)
				c->cpus[cpu].pipe_size = c->page_size;
		}
		free(p);
	}
	return 0;
}

static int set_clock(struct collector *c, const char *clock, char **err)
{
	struct strbuf sb = STRBUF_INIT;

	if (inst_write(c, "trace_clock", clock)) {
		inst_read(c, "trace_clock", &sb);
		set_err(err, "the kernel refused trace clock '%s' (available: %s)", clock,
			sb.buf ? sb.buf : "?");
		if (sb.len && sb.buf[sb.len - 1] == '\n')
			sb.buf[--sb.len] = '\0';
		strbuf_release(&sb);
		return -1;
	}
	c->clock = xstrdup(clock);
	return 0;
}

struct collector *collector_open(struct collector_opts *o, char **err)
{
	struct collector *c = xcalloc(1, sizeof(*c));
	const char *tfs = collector_tracefs(err);
	struct strbuf sb = STRBUF_INIT;
	char num[32];
	uint64_t t0;

	cmdlines_init(&c->names);
	c->marker_fd = -1;
	c->closed = 1;
	if (!tfs)
		goto fail;
	c->tracefs = xstrdup(tfs);
	c->name = xasprintf(INSTANCE_PREFIX "%ld%s%s", (long)getpid(), o->suffix ? "-" : "",
			    o->suffix ? o->suffix : "");
	c->dir = xasprintf("%s/instances/%s", c->tracefs, c->name);
	c->inst = tracefs_instance_create(c->name);
	if (!c->inst || access(c->dir, F_OK)) {
		set_err(err, "cannot create tracefs instance %s: %s", c->dir,
			errno == EACCES || errno == EPERM ? "permission denied (run as root)" :
			strerror(errno));
		goto fail;
	}
	c->closed = 0;
	/* a new instance starts with tracing on: off until everything is set */
	inst_write(c, "tracing_on", "0");
	snprintf(num, sizeof(num), "%u", o->buffer_kb);
	t0 = mono_ns();
	if (inst_write(c, "buffer_size_kb", num)) {
		set_err(err, "cannot set a %u KiB buffer per CPU: %s", o->buffer_kb,
			strerror(errno));
		goto fail;
	}
	c->startup.buffers_ns = mono_ns() - t0;
	if (inst_write(c, "options/overwrite", o->overwrite ? "1" : "0")) {
		set_err(err, "cannot set options/overwrite: %s", strerror(errno));
		goto fail;
	}
	if (set_clock(c, o->clock ? o->clock : "mono", err))
		goto fail;
	if (inst_read(c, "events/header_page", &sb) ||
	    !(c->page_size = parse_page_size(sb.buf))) {
		set_err(err, "cannot read the ring-buffer page layout of %s", c->dir);
		goto fail;
	}
	c->ncpus = count_cpus(c);
	if (!c->ncpus) {
		set_err(err, "instance %s has no per-CPU buffers", c->dir);
		goto fail;
	}
	c->base = xcalloc((size_t)c->ncpus, sizeof(*c->base));
	strbuf_reset(&sb);
	for (int i = 0; !o->groups && i < event_nfamilies; i++)	/* default: all */
		if (event_families[i].group)
			strbuf_addf(&sb, "%s%s", sb.len ? "," : "", event_families[i].group);
	if (enable_groups(c, o->groups ? o->groups : sb.buf, o->no_probes, o->probe_set, err))
		goto fail;
	for (const char *const *e = o->extra; e && *e; e++)
		enable_spec(c, *e);
	if (!c->events.len) {
		set_err(err, "none of the asked-for events exist on this kernel (missing: %s)",
			c->missing.buf ? c->missing.buf : "?");
		goto fail;
	}
	if ((o->filters && set_filters(c, o->filters, err)) ||
	    (o->stacktrace && set_stacktraces(c, o->stacktrace, err))) {
		o->filter_refused = 1;
		goto fail;
	}
	/* the page the read(2) path reads into, before the readers: their
	 * first read takes the kernel's spare page while memory is there */
	c->page = xmalloc(c->page_size);
	if (getenv("MMSCOPE_TEST_SPLICE_ENOMEM"))
		c->fault_splice = strtoul(getenv("MMSCOPE_TEST_SPLICE_ENOMEM"), NULL, 10);
	if (getenv("MMSCOPE_TEST_READ_ENOMEM"))
		c->fault_read = strtoul(getenv("MMSCOPE_TEST_READ_ENOMEM"), NULL, 10);
	if (open_readers(c, err))
		goto fail;
	strbuf_release(&sb);
	return c;
fail:
	strbuf_release(&sb);
	collector_close(c);
	return NULL;
}

int collector_ncpus(const struct collector *c) { return c->ncpus; }
uint32_t collector_page_size(const struct collector *c) { return c->page_size; }
const char *collector_instance_dir(const struct collector *c) { return c->dir; }
const char *collector_events(const struct collector *c) { return c->events.buf ? c->events.buf : ""; }
const char *collector_missing(const struct collector *c) { return c->missing.buf ? c->missing.buf : ""; }
const char *collector_groups(const struct collector *c) { return c->groups.buf ? c->groups.buf : ""; }
const struct probe_result *collector_probes(const struct collector *c) { return &c->probes; }
const char *collector_clock(const struct collector *c) { return c->clock; }
const struct collector_startup *collector_startup(const struct collector *c) { return &c->startup; }

/* ---- metadata ---- */

static int put(struct spool *s, const char *name, const struct strbuf *sb, char **err)
{
	return spool_put_meta(s, name, sb->buf ? sb->buf : "", sb->len, err);
}

static void add_format(struct strbuf *out, const char *tracefs, const char *sys,
		       const char *ev, uint32_t *count)
{
	char *p = xasprintf("%s/events/%s/%s/format", tracefs, sys, ev);
	struct strbuf f = STRBUF_INIT;

	if (!read_file(p, &f) && f.len) {
		strbuf_add_u64(out, f.len);
		strbuf_add(out, f.buf, f.len);
		(*count)++;
	}
	strbuf_release(&f);
	free(p);
}

/* ftrace payload: every event of the ftrace system (print, for samples). */
static void ftrace_payload(const struct collector *c, struct strbuf *out)
{
	char *path = xasprintf("%s/events/ftrace", c->tracefs);
	DIR *d = opendir(path);
	struct dirent *de;
	uint32_t count = 0;

	strbuf_add_u32(out, 0);
	if (d) {
		while ((de = readdir(d)))
			if (de->d_name[0] != '.')
				add_format(out, c->tracefs, "ftrace", de->d_name, &count);
		closedir(d);
	}
	free(path);
	memcpy(out->buf, &count, 4);	/* little-endian hosts only, as the writer */
}

/* events payload: the enabled events' formats grouped by system. */
static void events_payload(const struct collector *c, struct strbuf *out)
{
	char *list = xstrdup(collector_events(c)), *save = NULL, *e;
	char **sys = NULL;
	size_t nsys = 0;

	for (e = strtok_r(list, ",", &save); e; e = strtok_r(NULL, ",", &save)) {
		char *colon = strchr(e, ':');
		size_t i;

		if (!colon)
			continue;
		*colon = '\0';
		for (i = 0; i < nsys && strcmp(sys[i], e); i++)
			;
		if (i == nsys) {
			sys = xreallocarray(sys, nsys + 1, sizeof(*sys));
			sys[nsys++] = xstrdup(e);
		}
		*colon = ':';
	}
	free(list);
	strbuf_add_u32(out, (uint32_t)nsys);
	for (size_t i = 0; i < nsys; i++) {
		size_t count_at;
		uint32_t count = 0;

		list = xstrdup(collector_events(c));
		save = NULL;
		strbuf_add(out, sys[i], strlen(sys[i]) + 1);
		count_at = out->len;
		strbuf_add_u32(out, 0);
		for (e = strtok_r(list, ",", &save); e; e = strtok_r(NULL, ",", &save)) {
			char *colon = strchr(e, ':');

			if (!colon || (size_t)(colon - e) != strlen(sys[i]) ||
			    strncmp(e, sys[i], strlen(sys[i])))
				continue;
			add_format(out, c->tracefs, sys[i], colon + 1, &count);
		}
		memcpy(out->buf + count_at, &count, 4);
		free(list);
		free(sys[i]);
	}
	free(sys);
}

static int text_payload(const char *path, int wide, struct strbuf *out)
{
	struct strbuf t = STRBUF_INIT;
	int r = read_file(path, &t);

	if (wide)
		strbuf_add_u64(out, t.len);
	else
		strbuf_add_u32(out, (uint32_t)t.len);
	strbuf_add(out, t.buf ? t.buf : "", t.len);
	strbuf_release(&t);
	return r;
}

/*
 * The kallsyms payload (u32 size, text): the text the probe choice read,
 * and kept when asked: a --switch-output part or a flight-recorder
 * incident each needs it, and /proc/kallsyms costs the kernel ~0.1 s of
 * CPU to list (0.71 s in a TCG guest, where a 3 MB part switched every
 * few seconds spent most of its time there). The symbols change when a
 * module comes or goes, so the copy is used while /proc/modules reads the
 * same (kallsyms_read).
 */
static void kallsyms_payload(struct collector *c, struct strbuf *out)
{
	kallsyms_read(c);
	strbuf_add_u32(out, (uint32_t)c->syms.len);
	strbuf_add(out, c->syms.buf ? c->syms.buf : "", c->syms.len);
	if (!c->keep_syms) {	/* megabytes: not kept for nothing */
		strbuf_release(&c->syms);
		strbuf_release(&c->syms_modules);
	}
}

int collector_snapshot_meta(struct collector *c, struct spool *s, char **err)
{
	struct strbuf sb = STRBUF_INIT, t = STRBUF_INIT;
	struct utsname u;
	char *p;
	int r = -1;

	/* header_info: the instance's own page header */
	strbuf_add(&sb, "header_page", 12);
	inst_read(c, "events/header_page", &t);
	strbuf_add_u64(&sb, t.len);
	strbuf_add(&sb, t.buf, t.len);
	strbuf_reset(&t);
	strbuf_add(&sb, "header_event", 13);
	inst_read(c, "events/header_event", &t);
	strbuf_add_u64(&sb, t.len);
	strbuf_add(&sb, t.buf ? t.buf : "", t.len);
	if (put(s, "header_info", &sb, err))
		goto out;
	strbuf_reset(&sb);
	ftrace_payload(c, &sb);
	if (put(s, "ftrace", &sb, err))
		goto out;
	strbuf_reset(&sb);
	events_payload(c, &sb);
	if (put(s, "events", &sb, err))
		goto out;
	strbuf_reset(&sb);
	kallsyms_payload(c, &sb);
	if (put(s, "kallsyms", &sb, err))
		goto out;
	strbuf_reset(&sb);
	p = xasprintf("%s/printk_formats", c->tracefs);
	text_payload(p, 0, &sb);
	free(p);
	if (put(s, "printk", &sb, err))
		goto out;
	strbuf_reset(&sb);
	inst_read(c, "trace_clock", &sb);
	if (put(s, "trace_clock", &sb, err))
		goto out;
	strbuf_reset(&sb);
	if (!uname(&u))
		strbuf_addf(&sb, "%s %s %s %s", u.sysname, u.nodename, u.release, u.machine);
	if (put(s, "uname", &sb, err))
		goto out;
	r = collector_snapshot_late(c, s, err);
out:
	strbuf_release(&sb);
	strbuf_release(&t);
	return r;
}

static uint64_t stat_value(const char *text, const char *key);

/* The stats text with its running counts taken from base on: "entries"
 * (what the ring holds now) and the byte and time lines are kept. lost:
 * events the kernel handed over that the spool could not keep, added to
 * "dropped events" (what any reader counts as lost). */
static void stats_since(const char *text, const struct collector_cpustat *base,
			uint64_t lost, struct strbuf *out)
{
	static const char *const keys[] = {
		"overrun", "commit overrun", "dropped events", "read events"
	};
	const uint64_t from[] = {
		base->overrun, base->commit_overrun, base->dropped, base->read
	};
	const uint64_t add[] = { 0, 0, lost, 0 };
	const char *p = text;

	while (p && *p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) + 1 : strlen(p);
		size_t i;

		for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
			if (!strncmp(p, keys[i], strlen(keys[i])) && p[strlen(keys[i])] == ':')
				break;
		if (i < sizeof(keys) / sizeof(keys[0]) && (from[i] || add[i])) {
			uint64_t v = stat_value(p, keys[i]);

			strbuf_addf(out, "%s: %llu\n", keys[i],
				    (unsigned long long)((v > from[i] ? v - from[i] : 0) + add[i]));
		} else {
			strbuf_add(out, p, len);
		}
		p += len;
	}
}

static int snapshot_late(struct collector *c, struct spool *s, int names_again, char **err)
{
	struct strbuf sb = STRBUF_INIT, st = STRBUF_INIT;
	int r = -1;

	/* saved_cmdlines, plus every live task's name and the names earlier
	 * snapshots saw (cmdlines.h): the kernel's 128 forget most tasks */
	if (!names_again || !c->names_text.buf) {
		char *p = xasprintf("%s/saved_cmdlines", c->tracefs);

		read_file(p, &st);
		free(p);
		strbuf_reset(&c->names_text);
		cmdlines_update(&c->names, st.buf, st.len, "/proc", &c->names_text);
		strbuf_reset(&st);
	}
	strbuf_add_u64(&sb, c->names_text.len);
	strbuf_add(&sb, c->names_text.buf ? c->names_text.buf : "", c->names_text.len);
	if (put(s, "cmdlines", &sb, err))
		goto out;
	strbuf_reset(&sb);
	for (int cpu = 0; cpu < c->ncpus; cpu++) {
		char *f = xasprintf("per_cpu/cpu%d/stats", cpu);

		strbuf_reset(&st);
		if (!inst_read(c, f, &st)) {
			strbuf_addf(&sb, "CPU: %d\n", cpu);
			stats_since(st.buf, &c->base[cpu], spool_cpu_lost(s, cpu), &sb);
		}
		free(f);
	}
	r = put(s, "cpustat", &sb, err);
out:
	strbuf_release(&sb);
	strbuf_release(&st);
	return r;
}

int collector_snapshot_late(struct collector *c, struct spool *s, char **err)
{
	return snapshot_late(c, s, 0, err);
}

int collector_snapshot_late_names_again(struct collector *c, struct spool *s, char **err)
{
	return snapshot_late(c, s, 1, err);
}

/* ---- running ---- */

int collector_start(struct collector *c, char **err)
{
	if (inst_write(c, "tracing_on", "1"))
		return set_err(err, "cannot turn tracing on in %s: %s", c->dir, strerror(errno));
	if (c->marker_fd < 0) {
		char *p = inst_path(c, "trace_marker");

		c->marker_fd = open(p, O_WRONLY | O_CLOEXEC);
		free(p);
	}
	return 0;
}

int collector_stop(struct collector *c)
{
	return inst_write(c, "tracing_on", "0");
}

int collector_marker_fd(const struct collector *c)
{
	return c->marker_fd;
}

/* The page header's "the writer overwrote events before this page" bit
 * (RB_MISSED_EVENTS, bit 31 of the commit word). */
static int page_missed(const void *page)
{
	uint64_t commit;

	memcpy(&commit, (const char *)page + 8, sizeof(commit));
	return (commit >> 31) & 1;
}

/* Keeps a page read from the ring; 1 kept, 0 nothing in it, -1 error.
 * since: pages this read already put for the CPU, cut at a gap (DRAIN). */
static int keep_page(struct collector *c, struct spool *s, int cpu, int n, long *since,
		     char **err)
{
	if (n <= 0)
		return 0;
	if ((uint32_t)n < c->page_size)
		memset((char *)c->page + n, 0, c->page_size - (uint32_t)n);
	if (!spool_page_valid(c->page, c->page_size))
		return 0;	/* an empty read: nothing to keep */
	if (since && *since && page_missed(c->page)) {
		if (spool_cpu_drop_last(s, cpu, (uint64_t)*since, err))
			return -1;
		*since = 0;
	}
	if (spool_put_page(s, cpu, c->page, err))
		return -1;
	if (since)
		(*since)++;
	return 1;
}

/* A failure that memory coming back undoes: the kernel could not
 * allocate what splice or read needed this time. */
static int transient(int e)
{
	return e == ENOMEM || e == ENOBUFS;
}

/* An injected failure (tests): 1 while some are left. */
static int injected(unsigned long *left)
{
	if (!*left)
		return 0;
	(*left)--;
	errno = ENOMEM;
	return 1;
}

/*
 * Splices up to `max` bytes of full pages of a CPU's ring into its pipe
 * (when it is empty): bytes now in the pipe, 0 none ready, -1 error, -2
 * for lack of memory (the caller reads with read(2) instead: recording
 * never stops for it).
 */
static ssize_t fill_pipe(struct collector *c, struct cpu_reader *rd, size_t max)
{
	ssize_t n;

	if (rd->pending)
		return (ssize_t)rd->pending;
	if (max > rd->pipe_size)
		max = rd->pipe_size;
	do
		n = injected(&c->fault_splice) ? -1 :
		    splice(rd->fd, NULL, rd->pipe[1], NULL, max, SPLICE_F_NONBLOCK | SPLICE_F_MOVE);
	while (n < 0 && errno == EINTR);
	if (n < 0 && transient(errno)) {
		c->splice_nomem++;
		return -2;
	}
	if (n < 0)
		return errno == EAGAIN ? 0 : -1;
	rd->pending = (size_t)n;
	return n;
}

/* Bytes of events in a page (its commit word less the flag bits). */
static uint64_t page_commit(const void *page)
{
	uint64_t commit;

	memcpy(&commit, (const char *)page + 8, sizeof(commit));
	return commit & ((1ull << 27) - 1);
}

/*
 * A page of the ring into c->page with read(2), which needs no memory the
 * reader did not get at its first read: bytes, or 0 when there is none
 * or the kernel could not give it now (then the ring keeps it, or drops
 * events when full: counted lost in its stats). Once a read returns the
 * page the writer is on (not full), the rest of the round reads nothing,
 * so that a steady event rate cannot make it spin on nearly empty pages.
 */
static int plain_page(struct collector *c, struct cpu_reader *rd)
{
	int n;

	if (rd->plain_short)
		return 0;
	n = injected(&c->fault_read) ? -1 : tracefs_cpu_read(rd->tcpu, c->page, true);
	if (n < 0 && transient(errno))
		c->read_nomem++;
	if (n <= 0)
		return 0;
	c->plain_pages++;
	if (page_commit(c->page) + 16 + 512 < c->page_size)
		rd->plain_short = 1;
	return n;
}

/*
 * The next full page into c->page through the pipe: what read() of the
 * page the writer has left would give, without reading at the writer
 * (which returns a nearly empty page per call and, under a steady event
 * rate, spins producing thousands of them). Bytes, 0 none, -1 error.
 */
static int pipe_page(struct collector *c, struct cpu_reader *rd)
{
	ssize_t n = fill_pipe(c, rd, rd->pipe_size);

	if (n == -2)
		return plain_page(c, rd);
	if (n <= 0)
		return (int)n;
	do
		n = read(rd->pipe[0], c->page, c->page_size);
	while (n < 0 && errno == EINTR);
	if (n <= 0)	/* cannot be: the pipe holds rd->pending bytes */
		return n < 0 ? -1 : 0;
	rd->pending -= (size_t)n < rd->pending ? (size_t)n : rd->pending;
	return (int)n;
}

/*
 * The partly filled page (PARTIAL, once) or everything left after tracing
 * stopped (FLUSH) comes from a plain read() of trace_pipe_raw, only once
 * the pipe is empty.
 */
long collector_read_fn(struct collector *c, enum collector_read_mode mode,
		       collector_page_fn fn, void *ctx, char **err)
{
	long moved = 0;

	for (int cpu = 0; cpu < c->ncpus; cpu++) {
		struct cpu_reader *rd = &c->cpus[cpu];
		struct tracefs_cpu *t = rd->tcpu;
		int n, plain = 0;

		if (!t)
			continue;
		rd->plain_short = 0;
		for (;;) {
			n = pipe_page(c, rd);
			if (n < 0)
				return set_err(err, "cannot read the ring of CPU %d: %s", cpu,
					       strerror(errno));
			if (n == 0) {
				/* then the page being written: once (PARTIAL), or
				 * until the ring is empty (FLUSH) */
				if (mode == COLLECTOR_READ_FULL || mode == COLLECTOR_READ_DRAIN ||
				    (mode == COLLECTOR_READ_PARTIAL && plain))
					break;
				plain = 1;
				n = mode == COLLECTOR_READ_FLUSH ? tracefs_cpu_flush(t, c->page) :
				    tracefs_cpu_read(t, c->page, true);
			}
			if (n <= 0)
				break;
			if ((uint32_t)n < c->page_size)
				memset((char *)c->page + n, 0, c->page_size - (uint32_t)n);
			if (!spool_page_valid(c->page, c->page_size))
				break;
			if (fn(ctx, cpu, c->page, err))
				return -1;
			moved++;
		}
	}
	return moved;
}

/* Full pages of one CPU from its ring into the spool, splice to splice;
 * at most max pages (0: no limit). Pages moved, or -1. */
static long splice_cpu(struct collector *c, struct spool *s, int cpu, long max, char **err)
{
	struct cpu_reader *rd = &c->cpus[cpu];
	long moved = 0;

	for (;;) {
		size_t want = rd->pipe_size;
		ssize_t n;
		long k;

		if (max && (size_t)(max - moved) * c->page_size < want)
			want = (size_t)(max - moved) * c->page_size;
		if (!want)
			break;
		n = fill_pipe(c, rd, want);
		if (n == -2) {	/* no memory for a splice: page by page */
			for (;;) {
				int k2;

				if (max && moved >= max)
					return moved;
				k2 = keep_page(c, s, cpu, plain_page(c, rd), NULL, err);
				if (k2 < 0)
					return -1;
				if (!k2)
					return moved;
				moved++;
			}
		}
		if (n < 0)
			return set_err(err, "cannot read the ring of CPU %d: %s", cpu, strerror(errno));
		if (n == 0)
			break;
		k = spool_splice_pages(s, cpu, rd->pipe[0], (size_t)n, err);
		rd->pending = 0;	/* written, or emptied out and counted lost */
		if (k < 0)
			return -1;
		moved += k;
		if ((size_t)n < want)
			break;	/* the ring had no more full pages */
	}
	return moved;
}

long collector_read(struct collector *c, struct spool *s, enum collector_read_mode mode,
		    long max_pages, char **err)
{
	long moved = 0;

	for (int cpu = 0; cpu < c->ncpus; cpu++) {
		struct cpu_reader *rd = &c->cpus[cpu];
		struct tracefs_cpu *t = rd->tcpu;
		long since = 0;
		int k;

		if (!t)
			continue;
		rd->plain_short = 0;
		if (mode == COLLECTOR_READ_DRAIN) {
			/* page by page: each page's missed-events bit is looked at */
			for (;;) {
				int n;

				if (max_pages && moved >= max_pages)
					return moved;
				n = pipe_page(c, rd);
				if (n < 0)
					return set_err(err, "cannot read the ring of CPU %d: %s", cpu,
						       strerror(errno));
				k = keep_page(c, s, cpu, n, &since, err);
				if (k < 0)
					return -1;
				if (!k)
					break;
				moved++;
			}
			continue;
		}
		/* pages left in the pipe by an earlier page-by-page read first */
		while (rd->pending && (!max_pages || moved < max_pages)) {
			int n = pipe_page(c, rd);

			if (n < 0)
				return set_err(err, "cannot read the ring of CPU %d: %s", cpu,
					       strerror(errno));
			k = keep_page(c, s, cpu, n, NULL, err);
			if (k < 0)
				return -1;
			if (!k)
				break;
			moved++;
		}
		if (max_pages && moved >= max_pages)
			return moved;
		{
			long n = splice_cpu(c, s, cpu, max_pages ? max_pages - moved : 0, err);

			if (n < 0)
				return -1;
			moved += n;
		}
		if (mode == COLLECTOR_READ_FULL)
			continue;
		for (;;) {
			if (max_pages && moved >= max_pages)
				return moved;
			k = keep_page(c, s, cpu, mode == COLLECTOR_READ_FLUSH ?
				      tracefs_cpu_flush(t, c->page) :
				      tracefs_cpu_read(t, c->page, true), NULL, err);
			if (k < 0)
				return -1;
			if (!k)
				break;
			moved++;
			if (mode == COLLECTOR_READ_PARTIAL)
				break;
		}
	}
	return moved;
}

static uint64_t stat_value(const char *text, const char *key)
{
	const char *p = text;
	size_t l = strlen(key);

	while (p && *p) {
		if (!strncmp(p, key, l) && p[l] == ':')
			return strtoull(p + l + 1, NULL, 10);
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return 0;
}

/* "key: SECONDS.MICROS" in ns; 0 when absent */
static uint64_t stat_ts(const char *text, const char *key)
{
	const char *p = text;
	size_t l = strlen(key);

	while (p && *p) {
		if (!strncmp(p, key, l) && p[l] == ':') {
			unsigned long long sec = 0, us = 0;

			if (sscanf(p + l + 1, " %llu.%6llu", &sec, &us) == 2)
				return sec * 1000000000ull + us * 1000ull;
			return 0;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return 0;
}

int collector_stats(struct collector *c, struct collector_cpustat *per_cpu)
{
	struct strbuf sb = STRBUF_INIT;

	for (int cpu = 0; cpu < c->ncpus; cpu++) {
		char *f = xasprintf("per_cpu/cpu%d/stats", cpu);

		strbuf_reset(&sb);
		memset(&per_cpu[cpu], 0, sizeof(per_cpu[cpu]));
		if (!inst_read(c, f, &sb) && sb.buf) {
			per_cpu[cpu].entries = stat_value(sb.buf, "entries");
			per_cpu[cpu].overrun = stat_value(sb.buf, "overrun");
			per_cpu[cpu].commit_overrun = stat_value(sb.buf, "commit overrun");
			per_cpu[cpu].dropped = stat_value(sb.buf, "dropped events");
			per_cpu[cpu].read = stat_value(sb.buf, "read events");
			per_cpu[cpu].oldest_ns = stat_ts(sb.buf, "oldest event ts");
			per_cpu[cpu].now_ns = stat_ts(sb.buf, "now ts");
		}
		free(f);
	}
	strbuf_release(&sb);
	return 0;
}

int collector_set_overwrite(struct collector *c, int on, char **err)
{
	if (inst_write(c, "options/overwrite", on ? "1" : "0"))
		return set_err(err, "cannot set options/overwrite in %s: %s", c->dir,
			       strerror(errno));
	return 0;
}

int collector_set_buffer_kb(struct collector *c, unsigned kb, char **err)
{
	char num[32];

	snprintf(num, sizeof(num), "%u", kb);
	if (inst_write(c, "buffer_size_kb", num))
		return set_err(err, "cannot set a %u KiB buffer per CPU: %s", kb, strerror(errno));
	return 0;
}

void collector_stats_restart(struct collector *c)
{
	collector_stats(c, c->base);
}

void collector_close(struct collector *c)
{
	if (!c)
		return;
	if (c->cpus) {
		for (int cpu = 0; cpu < c->ncpus; cpu++) {
			if (c->cpus[cpu].tcpu)
				tracefs_cpu_free_fd(c->cpus[cpu].tcpu);
			if (c->cpus[cpu].fd >= 0)
				close(c->cpus[cpu].fd);
			for (int i = 0; i < 2; i++)
				if (c->cpus[cpu].pipe[i] >= 0)
					close(c->cpus[cpu].pipe[i]);
		}
		free(c->cpus);
	}
	if (c->marker_fd >= 0)
		close(c->marker_fd);
	if (!c->closed && c->dir) {
		inst_write(c, "tracing_on", "0");
		inst_write(c, "events/enable", "0");
		if (c->inst)
			tracefs_instance_destroy(c->inst);
		/* EBUSY while a process still holds one of its files open: the
		 * recorded command writing its phase markers into trace_marker
		 * (MMSCOPE_TRACE_MARKER) until it has been killed and reaped.
		 * Wait up to 3 s for it; a later record removes what is left
		 * (its stale-instance cleanup). */
		for (int i = 0; rmdir(c->dir) && errno == EBUSY && i < 60; i++)
			usleep(50 * 1000);
	}
	if (c->inst)
		tracefs_instance_free(c->inst);
	if (c->have_probes && c->tracefs)
		probes_remove(c->tracefs, &c->probes);
	probe_result_release(&c->probes);
	cmdlines_release(&c->names);
	strbuf_release(&c->names_text);
	strbuf_release(&c->syms);
	strbuf_release(&c->syms_modules);
	strbuf_release(&c->groups);
	strbuf_release(&c->events);
	strbuf_release(&c->missing);
	free(c->page);
	free(c->base);
	free(c->clock);
	free(c->tracefs);
	free(c->name);
	free(c->dir);
	free(c);
}
