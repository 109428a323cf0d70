/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A host's history: the recordings of one host among a command's inputs,
 * in time order, with the gaps between them (man mmscope(1), HOST
 * HISTORY). Above a recording (one run's files: tracedat-set.h) sits the
 * host: a service restarted, killed and recovered, rebooted, with a
 * flight recorder beside it, leaves several recordings in one directory,
 * and they are one story.
 *
 * Who: recordings are one host's when they carry the same machine_id=
 * (host-id.h), or the same boot_id=; files of older versions without
 * either are one host's only when their clocks show one boot (the same
 * host= and kernel=, and the wall clock minus the trace clock at their
 * starts, the boot's wall-clock time, within 2 s plus 0.1% of the time
 * between them). A host name alone joins nothing: many VMs are "vm".
 *
 * When: runs of one boot and one trace clock are placed by their trace
 * time stamps, as recorded; other boots (or clocks) by the wall clock
 * (start_realtime_ns with start_trace_ns), each such domain shifted by
 * one offset so that one time line holds them all (history time = trace
 * time + offset; the first run's domain has offset 0). A domain without
 * the wall clock cannot be placed beside another: not one history.
 *
 * Overlap: a flight-recorder incident inside the spans of continuous runs
 * of the same domain that recorded its events too holds nothing those
 * runs do not: it is INSIDE (listed, never counted again). One partly
 * inside them (its ring holds events from before the run began: the gap
 * before it) is PARTLY: only its part outside them is its own, a window
 * of it (clip_first .. clip_last) on the time line; the rest is the run's.
 * Any other overlap is stated (OVERLAP): both runs count what each
 * recorded.
 *
 * Gaps: between two consecutive runs of the time line, from the last
 * event of one to the first of the next, nothing is recorded; each side
 * says why (how the one ended, run-stop.h; how the next began).
 *
 * Pure: metadata text and event times in, runs out; no I/O (the input
 * layer, inputs.c, reads the files).
 */
#ifndef MMSCOPE_HISTORY_H
#define MMSCOPE_HISTORY_H

#include <stdint.h>

/* One recording as the input layer read it. */
struct history_in {
	const char *name;		/* for messages: "DIR (4 files)", a path */
	const char *const *paths;	/* its files in time order */
	int npaths;
	const char *first_meta;		/* mmscope metadata of its first and last */
	const char *last_meta;		/* file; NULL: none (trace-cmd, older) */
	int has_span;			/* it has events, from first_ts to last_ts */
	uint64_t first_ts, last_ts;	/* trace ns */
};

enum history_rel {
	HIST_RUN,	/* a run of the time line */
	HIST_INSIDE,	/* an incident inside run `other`: counted there */
	HIST_OVERLAP,	/* a run of the time line overlapping run `other` */
	HIST_PARTLY,	/* an incident partly inside run `other`: on the time
			 * line only its part outside (clip_first .. clip_last) */
};

/* How a run of the time line began (after the one before it). */
enum history_began {
	HIST_BEGAN_FIRST,	/* the first of the inputs: before it, not known */
	HIST_BEGAN_RESTART,	/* a new recorder after one stopped (signal, error...) */
	HIST_BEGAN_RECOVER,	/* a new recorder after one was killed and recovered */
	HIST_BEGAN_REBOOT,	/* in a later boot */
	HIST_BEGAN_TRIGGER,	/* a flight recorder's trigger fired */
	HIST_BEGAN_NEW,		/* a new run after one that ended by itself */
};

struct history_run {
	int in;				/* index of its history_in */
	int host;			/* which history (host) of the inputs */
	int domain;			/* boot and clock: one trace time line */
	int flight;			/* a flight-recorder incident */
	enum history_rel rel;
	int other;			/* HIST_INSIDE, HIST_OVERLAP: that run's index */
	enum history_began began;
	/* its span: trace ns (has_span 0: no events; first/last 0) and on
	 * the history's time line (trace + offset of its domain) */
	int has_span;
	uint64_t first_ts, last_ts;
	int64_t offset;
	/* HIST_PARTLY: its own part, trace ns (inclusive) */
	uint64_t clip_first, clip_last;
	/* the wall clock at its first and last event, Unix ns (0: not known) */
	int has_wall;
	uint64_t wall_first, wall_last;
	/* what identified it (empty: not in the file) */
	char host_name[65];
	char machine_id[33];
	char boot_id[37];
	char run_id[33];
	char clock[16];
};

struct history {
	struct history_run *run;	/* hosts one after another, each in time order */
	int nrun;
	int nhost;
	int *host_first, *host_n;	/* host h: run[host_first[h] ...] */
};

/*
 * The histories of n recordings. 0, or -1 with *err when a host's runs
 * cannot be put in order (a domain without wall clock beside another);
 * *err then lists every run of that host, one line each (history_lines).
 */
int history_build(const struct history_in *in, int n, struct history *h, char **err);
void history_free(struct history *h);

/* The history time of trace time ts of run r. */
static inline int64_t history_time(const struct history_run *r, uint64_t ts)
{
	return (int64_t)ts + r->offset;
}

/* Its span on the time line, trace ns: its events', or its own part's
 * (HIST_PARTLY). */
static inline uint64_t history_own_first(const struct history_run *r)
{
	return r->rel == HIST_PARTLY ? r->clip_first : r->first_ts;
}

static inline uint64_t history_own_last(const struct history_run *r)
{
	return r->rel == HIST_PARTLY ? r->clip_last : r->last_ts;
}

/* The gap before run i of its host's time line (a HIST_RUN or
 * HIST_OVERLAP after another such run of the host): 1 with its bounds in
 * history time (from the last event before it to its first), 0 when
 * there is none (the first, an overlap, a run without events). */
int history_gap_before(const struct history *h, int i, int64_t *from, int64_t *to);
/* The timeline run before i of its host (not HIST_INSIDE), or -1. */
int history_prev(const struct history *h, int i);

/* "start", "restart", "restart after recover", "reboot", "trigger",
 * "new run" */
const char *history_began_word(enum history_began b);

/* One line describing run i for lists and refusals: "run 2: FILES,
 * 2026-12-01T10:00:00Z .. 2026-12-01T10:05:00Z (host vm, boot 32ce...)". */
struct strbuf;
void history_line(const struct history *h, const struct history_in *in, int i,
		  struct strbuf *sb);

#endif
