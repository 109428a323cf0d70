/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The wall clock against the trace clock, over a recording.
 *
 * A fleet's incident is known by wall-clock time; each host's events carry
 * its trace clock (by default CLOCK_MONOTONIC, from boot). The two move
 * together until the wall clock is stepped (chrony's makestep after a
 * recorder started at boot, settimeofday, a leap second on the tai clock)
 * or the machine is suspended (mono stops, the wall clock does not).
 *
 * The recorder (wall_track_*) reads the two clocks together at its start
 * and at every sample set. While the wall clock keeps pace with the trace
 * clock (within 1 ms plus 1000 ppm of the time between two reads: the
 * mono_raw clock is not slewed as the wall clock is) the reads extend one
 * segment; a jump starts a new one. The metadata then holds
 *   wall_segments=TA:RA:TB:RB[,TA:RA:TB:RB...]
 * (trace and Unix ns of each segment's first and last read), and
 * wall_segments_full=1 if more steps came than it keeps.
 *
 * The reader (wall_map_*) maps between the clocks inside a segment (by
 * the line through its ends), before the first and after the last one
 * (by the offset at that end), and says "not known" between two
 * segments: the step happened somewhere between two reads. A wall time
 * the step skipped over, or one that happened twice (a step back), has
 * no single trace time, and the mapping says so.
 */
#ifndef MMSCOPE_WALL_MAP_H
#define MMSCOPE_WALL_MAP_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

struct strbuf;

struct wall_seg {
	uint64_t ta, ra;	/* first read: trace ns, Unix ns */
	uint64_t tb, rb;	/* last read in step with it */
};

/* ---- recording ---- */

#define WALL_TRACK_MAX 256	/* segments kept; later steps set full */

struct wall_track {
	clockid_t id;		/* the trace clock */
	int on;			/* the trace clock is one the process can read */
	struct wall_seg seg[WALL_TRACK_MAX];
	int n, full;
};

/* The clock a process reads for the trace clock named clock (as in
 * trace_clock: mono, mono_raw, boot, tai): 0, or -1 for a kernel-only
 * clock (local, global, x86-tsc, counter...). */
int wall_clock_id(const char *clock, clockid_t *id);

/*
 * Starts tracking for the trace clock named clock (as in trace_clock:
 * mono, mono_raw, boot, tai; any other clock is not one a process can
 * read, and nothing is tracked). The first read is the recording's start
 * pair: *trace_ns and *real_ns (*trace_ns 0 when not tracked).
 */
void wall_track_start(struct wall_track *t, const char *clock, uint64_t *trace_ns,
		      uint64_t *real_ns);
/* Reads the two clocks again: extends the segment (0) or starts a new
 * one (1: the wall clock moved). */
int wall_track_check(struct wall_track *t);
/* Appends the wall_segments lines to the metadata (nothing if not on). */
void wall_track_meta(const struct wall_track *t, struct strbuf *sb);

/* ---- reading ---- */

struct wall_map {
	struct wall_seg *seg;
	int n;
	/* every file had wall_segments: a step would be seen (0: an older
	 * recording, only its start pair; whether the clock moved is not
	 * known) */
	int checked;
	int full;	/* after the last segment's end: not known */
	int none;	/* a file had no clocks */
};

/*
 * Adds the clocks of one file's metadata (td_private text): its
 * wall_segments, or its start pair (start_realtime_ns, start_trace_ns)
 * alone. -1 when it has neither (the map is then unusable: wall_map_n 0
 * after wall_map_finish). Files of one recording are added in order.
 */
int wall_map_add_meta(struct wall_map *m, const char *meta);
/* Orders the segments and joins those of consecutive files that go on
 * in step. Call once after the last wall_map_add_meta. */
void wall_map_finish(struct wall_map *m);
void wall_map_free(struct wall_map *m);
/* Segments after wall_map_finish: n - 1 steps, step i between segment i
 * and i + 1. 0 when a file had no clocks. */
static inline int wall_map_n(const struct wall_map *m) { return m->n; }

/* Step i (0 .. n - 2): the last trace time in step before it, the first
 * after it, and how far the wall clock moved against the trace clock
 * (ns, negative: back). */
void wall_map_step(const struct wall_map *m, int i, uint64_t *after_ts, uint64_t *before_ts,
		   int64_t *moved_ns);

/* Trace time ts as Unix ns: 0, or -1 when not known (between two
 * segments, after a full list, before 1970). */
int wall_map_real(const struct wall_map *m, uint64_t ts, uint64_t *real_ns);

enum wall_map_miss {
	WALL_MAP_OK,
	WALL_MAP_SKIPPED,	/* in a step forward, or between two reads */
	WALL_MAP_TWICE,		/* the clock went back over it */
	WALL_MAP_UNKNOWN,	/* after a full list */
};
/* Unix ns real as a trace time *ts; on a miss, *step is the step it falls
 * in (WALL_MAP_SKIPPED, WALL_MAP_TWICE). */
enum wall_map_miss wall_map_trace(const struct wall_map *m, uint64_t real_ns, uint64_t *ts,
				  int *step);

/* Unix ns as UTC "YYYY-MM-DDTHH:MM:SS[.F]Z" with digits decimals (0-9);
 * "-" when it cannot be shown. */
void wall_ns_format(uint64_t ns, int digits, char *buf, size_t len);

#endif
