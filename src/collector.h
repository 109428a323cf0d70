/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The collector: a private tracefs instance ("mmscope-PID") with the
 * asked-for event groups enabled, read per CPU as raw ring-buffer pages
 * into a spool. Never touches the top-level buffer, other instances, or
 * /proc/sys/kernel/ftrace_enabled.
 *
 * Lifecycle: collector_cleanup_stale() (instances and kprobe groups left
 * by dead recorders), collector_open(), collector_snapshot_meta(),
 * collector_start(), collector_read() in a loop, collector_stop(),
 * collector_read(..., flush), collector_close() (removes everything).
 */
#ifndef MMSCOPE_COLLECTOR_H
#define MMSCOPE_COLLECTOR_H

#include <stdint.h>

#include "probes.h"
#include "spool.h"
#include "util.h"

/* Event groups, by name (see mmscope-record(1)). */
struct collector_opts {
	const char *groups;		/* comma-separated; NULL: every group */
	const char *const *extra;	/* -e SYS[:EVENT]; NULL-terminated */
	unsigned buffer_kb;		/* per CPU */
	const char *clock;		/* NULL: "mono" */
	int overwrite;			/* flight recorder: ring overwrites */
	int no_probes;			/* do not install kprobes */
	const char *probe_set;		/* force this probe set (NULL: verified only) */
	const char *suffix;		/* NULL, or "w": instance mmscope-PID-w */
	/* ftrace filters "SYS:EVENT:EXPR" (NULL-terminated), each written to
	 * the instance's events/SYS/EVENT/filter; the event must be one of
	 * those enabled. A filter the kernel refuses fails the open with the
	 * kernel's own message, and sets filter_refused. */
	const char *const *filters;
	/* events ("SYS:EVENT", recorded ones) that get the instance's
	 * stacktrace trigger: a kernel_stack event after each */
	const char *const *stacktrace;
	int filter_refused;		/* out: a filter or stacktrace refused */
};

struct collector;

/* Removes instances "mmscope-PID" and probe groups of dead PIDs; returns
 * how many were removed, and their names in *removed (may be NULL). */
int collector_cleanup_stale(const char *tracefs_dir, struct strbuf *removed);

/*
 * Takes what is left in the ring of a dead recorder's instance (the
 * directory inst_dir, named mmscope-PID with PID gone) into spool s, puts
 * its per-CPU stats into the spool's CPUSTAT, and removes the instance.
 * Returns pages taken, 0 if there is no such instance, -1 on error.
 */
long collector_drain_stale(const char *inst_dir, struct spool *s, int ncpus,
			   uint32_t page_size, char **err);

/* The tracefs mount point (mounting it if needed), or NULL and *err. */
const char *collector_tracefs(char **err);
/* debugfs at /sys/kernel/debug, mounted if it is not (the zswap pool
 * counters live there); it stays mounted, like tracefs. 0, or -1 and *err. */
int collector_debugfs(char **err);

struct collector *collector_open(struct collector_opts *o, char **err);
int collector_ncpus(const struct collector *c);
uint32_t collector_page_size(const struct collector *c);
const char *collector_instance_dir(const struct collector *c);

/* Text for the metadata: the events enabled, the missing ones, groups. */
const char *collector_events(const struct collector *c);
const char *collector_missing(const struct collector *c);
const char *collector_groups(const struct collector *c);
const struct probe_result *collector_probes(const struct collector *c);
const char *collector_clock(const struct collector *c);

/* Where collector_open() and the snapshots spent their time, for the
 * recorder's note on a slow start (mmscope-record(1)). */
struct collector_startup {
	uint64_t buffers_ns;		/* sizing the ring buffers (buffer_size_kb) */
	uint64_t kallsyms_ns;		/* listing /proc/kallsyms, every read */
	uint64_t probes_ns;		/* choosing and installing the kprobes */
	size_t kallsyms_bytes;		/* its size at the last read */
	unsigned kallsyms_reads;
};
const struct collector_startup *collector_startup(const struct collector *c);

/* Writes header_info, ftrace, events, kallsyms, printk, trace_clock
 * into the spool. */
int collector_snapshot_meta(struct collector *c, struct spool *s, char **err);
/* Snapshots reuse the kallsyms text read before while /proc/modules is
 * the same (--switch-output, the flight recorder: a snapshot per file). */
void collector_keep_kallsyms(struct collector *c);
/* saved_cmdlines and per-CPU stats (CPUSTAT text) into the spool. */
int collector_snapshot_late(struct collector *c, struct spool *s, char **err);
/* The same with the task names of the snapshot just before (no second
 * read of saved_cmdlines and scan of /proc): a --switch-output switch
 * names the finished file's tasks from the next file's first snapshot,
 * taken moments before and after the finished file's last read. */
int collector_snapshot_late_names_again(struct collector *c, struct spool *s, char **err);

int collector_start(struct collector *c, char **err);
int collector_stop(struct collector *c);
/* The instance's trace_marker, open for writing (-1 if unavailable). */
int collector_marker_fd(const struct collector *c);

enum collector_read_mode {
	COLLECTOR_READ_FULL,	/* only pages the writer has left */
	COLLECTOR_READ_PARTIAL,	/* and the page being written, once per CPU */
	COLLECTOR_READ_FLUSH,	/* everything (after tracing is off) */
	/* full pages of an overwriting ring that is still tracing: where a
	 * page says the writer overwrote events since the last read (it
	 * lapped the reader), what this read took of that CPU before the gap
	 * is dropped, so the spool holds one gapless stretch per CPU */
	COLLECTOR_READ_DRAIN,
};

/*
 * Moves the pages the kernel has ready into the spool. Stops early after
 * max_pages (0: no limit). Returns pages moved, or -1 with *err (errno
 * kept: ENOSPC...).
 */
long collector_read(struct collector *c, struct spool *s, enum collector_read_mode mode,
		    long max_pages, char **err);

/* The same, handing each page to fn instead of a spool (fn returns 0,
 * or -1 to stop with its own *err). */
typedef int (*collector_page_fn)(void *ctx, int cpu, const void *page, char **err);
long collector_read_fn(struct collector *c, enum collector_read_mode mode,
		       collector_page_fn fn, void *ctx, char **err);

/* Per-CPU lost events so far (dropped + overrun), total and per CPU. */
struct collector_cpustat {
	uint64_t entries, overrun, commit_overrun, dropped, read;
	/* "oldest event ts" and "now ts" in ns (0: not given: a counter clock) */
	uint64_t oldest_ns, now_ns;
};
int collector_stats(struct collector *c, struct collector_cpustat *per_cpu);
/*
 * Reads of the ring the kernel could not serve for lack of memory: splices
 * that failed (those pages were read with read(2) into memory allocated
 * before tracing), plain reads that failed too (the ring kept the pages,
 * or dropped events when full: counted lost in its stats), and the pages
 * read with read(2).
 */
void collector_read_faults(const struct collector *c, uint64_t *splice_nomem,
			   uint64_t *read_nomem, uint64_t *plain_pages);
/*
 * The ring was just emptied (a flight dump read all of it): the stats
 * collector_snapshot_late() writes from now on count from here, so a
 * dump's overrun is what the ring overwrote before that dump's window,
 * not the whole run's.
 */
void collector_stats_restart(struct collector *c);

/* While tracing: the ring's overwrite mode, and its size per CPU (KiB). */
int collector_set_overwrite(struct collector *c, int on, char **err);
int collector_set_buffer_kb(struct collector *c, unsigned kb, char **err);

/* Removes the instance and any probes; safe to call twice. */
void collector_close(struct collector *c);

/* The groups are the event families of parsers/families.h. Whether an
 * event list entry ("sys:event" or "sys:*") exists under events_dir (a
 * tracefs events/ directory), and which of an entry's names this kernel
 * has (its alternate only where the main name is missing). */
struct family_event;
int collector_event_present(const char *events_dir, const char *spec);
const char *collector_event_choice(const char *events_dir, const struct family_event *fe);

#endif
