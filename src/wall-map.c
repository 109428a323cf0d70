// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The wall clock against the trace clock (see wall-map.h): the recorder's
 * reads and the reader's mapping, kept together so that both use the same
 * rule for "in step".
 */
#include "config.h"
#include "wall-map.h"
#include "tracedat-read.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Two reads in step: the offset (wall - trace) moved by at most 1 ms plus
 * 1000 ppm of the trace time between them. mono, boot and tai are slewed
 * with the wall clock (their offset moves only at a step); mono_raw is
 * not, and drifts by the clock's frequency error (tens of ppm) which the
 * line through a segment's ends follows. A read pair itself is good to
 * ~20 us (read_pair).
 */
#define WALL_STEP_BASE_NS 1000000LL
#define WALL_STEP_PPM 1000

static int64_t wall_offset(uint64_t trace, uint64_t real)
{
	return (int64_t)(real - trace);	/* two's complement: real < trace wraps to negative */
}

static int wall_in_step(uint64_t t0, uint64_t r0, uint64_t t1, uint64_t r1)
{
	int64_t d = wall_offset(t1, r1) - wall_offset(t0, r0);
	uint64_t dt = t1 > t0 ? t1 - t0 : t0 - t1;
	int64_t lim = WALL_STEP_BASE_NS + (int64_t)(dt / (1000000 / WALL_STEP_PPM));

	return d <= lim && d >= -lim;
}

/* ---- recording ---- */

static uint64_t clock_read(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The trace clock between two reads of the wall clock, and the middle of
 * those; tried again (up to 4 times) when the process was preempted
 * between them, which on a busy host takes milliseconds. */
static void read_pair(clockid_t id, uint64_t *trace, uint64_t *real)
{
	for (int i = 0; i < 4; i++) {
		uint64_t r0 = clock_read(CLOCK_REALTIME);
		uint64_t t = clock_read(id);
		uint64_t r1 = clock_read(CLOCK_REALTIME);

		*trace = t;
		*real = r0 + (r1 - r0) / 2;
		if (r1 - r0 <= 20000)	/* also r1 < r0: a step between the reads */
			return;
	}
}

int wall_clock_id(const char *clock, clockid_t *id)
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
		return -1;	/* local, global, x86-tsc, counter...: kernel-only clocks */
	return 0;
}

void wall_track_start(struct wall_track *t, const char *clock, uint64_t *trace_ns,
		      uint64_t *real_ns)
{
	memset(t, 0, sizeof(*t));
	t->on = !wall_clock_id(clock, &t->id);
	if (!t->on) {
		*trace_ns = 0;
		*real_ns = clock_read(CLOCK_REALTIME);
		return;
	}
	read_pair(t->id, &t->seg[0].ta, &t->seg[0].ra);
	t->seg[0].tb = t->seg[0].ta;
	t->seg[0].rb = t->seg[0].ra;
	t->n = 1;
	*trace_ns = t->seg[0].ta;
	*real_ns = t->seg[0].ra;
}

int wall_track_check(struct wall_track *t)
{
	struct wall_seg *s;
	uint64_t tr, re;

	if (!t->on || t->full)
		return 0;
	read_pair(t->id, &tr, &re);
	s = &t->seg[t->n - 1];
	if (wall_in_step(s->tb, s->rb, tr, re)) {
		s->tb = tr;
		s->rb = re;
		return 0;
	}
	if (t->n == WALL_TRACK_MAX) {	/* nothing after the last kept read is known */
		t->full = 1;
		return 1;
	}
	s = &t->seg[t->n++];
	s->ta = s->tb = tr;
	s->ra = s->rb = re;
	return 1;
}

void wall_track_meta(const struct wall_track *t, struct strbuf *sb)
{
	if (!t->on)
		return;
	strbuf_addstr(sb, "wall_segments=");
	for (int i = 0; i < t->n; i++)
		strbuf_addf(sb, "%s%llu:%llu:%llu:%llu", i ? "," : "",
			    (unsigned long long)t->seg[i].ta, (unsigned long long)t->seg[i].ra,
			    (unsigned long long)t->seg[i].tb, (unsigned long long)t->seg[i].rb);
	strbuf_addch(sb, '\n');
	if (t->full)
		strbuf_addstr(sb, "wall_segments_full=1\n");
}

/* ---- reading ---- */

/* segments a map takes: the recorder keeps WALL_TRACK_MAX per file; more
 * (a hostile file) are malformed */
#define WALL_MAP_MAX 65536

static int map_push(struct wall_map *m, const struct wall_seg *s)
{
	if (m->n >= WALL_MAP_MAX)
		return -1;
	if ((m->n & (m->n - 1)) == 0)	/* 0, 1, 2, 4...: double */
		m->seg = xreallocarray(m->seg, m->n ? (size_t)m->n * 2 : 1, sizeof(*m->seg));
	m->seg[m->n++] = *s;
	return 0;
}

/* One "TA:RA:TB:RB" at *p (moved past it): 0, or -1 if malformed. */
static int parse_seg(const char **p, struct wall_seg *s)
{
	unsigned long long v[4];
	const char *q = *p;

	for (int i = 0; i < 4; i++) {
		char *end;

		if (*q < '0' || *q > '9')
			return -1;
		errno = 0;
		v[i] = strtoull(q, &end, 10);
		if (errno || (i < 3 && *end != ':'))
			return -1;
		q = end + (i < 3);
	}
	s->ta = v[0];
	s->ra = v[1];
	s->tb = v[2];
	s->rb = v[3];
	if (s->tb < s->ta || s->ta > INT64_MAX || s->ra > INT64_MAX || s->tb > INT64_MAX ||
	    s->rb > INT64_MAX)
		return -1;
	*p = q;
	return 0;
}

int wall_map_add_meta(struct wall_map *m, const char *meta)
{
	const char *v = td_meta_value(meta, "wall_segments");
	uint64_t real0, trace0, full;
	int first = !m->n && !m->checked;
	int n0 = m->n;

	if (m->none)
		return -1;

	if (v && *v && *v != '\n') {
		struct wall_seg s;
		int bad = 0;

		for (;;) {
			if (parse_seg(&v, &s) || map_push(m, &s)) {
				bad = 1;
				break;
			}
			if (*v != ',')
				break;
			v++;
		}
		if (bad || (*v && *v != '\n'))	/* malformed: as if not checked */
			m->n = n0;
		else {
			m->checked = first ? 1 : m->checked;
			if (!td_meta_u64(meta, "wall_segments_full", &full) && full)
				m->full = 1;
			return 0;
		}
	}
	if (td_meta_u64(meta, "start_realtime_ns", &real0) ||
	    td_meta_u64(meta, "start_trace_ns", &trace0) || real0 > INT64_MAX ||
	    trace0 > INT64_MAX) {
		m->none = 1;	/* a file without clocks: no map for the set */
		m->n = 0;
		m->checked = 0;
		return -1;
	}
	if (map_push(m, &(struct wall_seg){ trace0, real0, trace0, real0 })) {
		m->none = 1;
		m->n = 0;
		return -1;
	}
	m->checked = -1;	/* one file unchecked: the set's steps are not known */
	return 0;
}

static int seg_cmp(const void *a, const void *b)
{
	const struct wall_seg *x = a, *y = b;

	return x->ta < y->ta ? -1 : x->ta > y->ta;
}

void wall_map_finish(struct wall_map *m)
{
	int w = 0;

	if (m->checked < 0)
		m->checked = 0;
	if (m->none)
		m->n = 0;
	if (!m->n)
		return;
	qsort(m->seg, (size_t)m->n, sizeof(*m->seg), seg_cmp);
	/* the files of a switch-output set: each file's first read comes
	 * right after the previous file's last one, in step unless the
	 * clock moved at the switch */
	for (int i = 1; i < m->n; i++) {
		struct wall_seg *p = &m->seg[w], *s = &m->seg[i];

		if (s->ta >= p->tb && wall_in_step(p->tb, p->rb, s->ta, s->ra)) {
			if (s->tb > p->tb) {
				p->tb = s->tb;
				p->rb = s->rb;
			}
		} else if (s->ta < p->tb) {	/* overlapping (not from one recorder): keep the first */
			continue;
		} else {
			m->seg[++w] = *s;
		}
	}
	m->n = w + 1;
}

void wall_map_free(struct wall_map *m)
{
	free(m->seg);
	memset(m, 0, sizeof(*m));
}

void wall_map_step(const struct wall_map *m, int i, uint64_t *after_ts, uint64_t *before_ts,
		   int64_t *moved_ns)
{
	const struct wall_seg *a = &m->seg[i], *b = &m->seg[i + 1];

	*after_ts = a->tb;
	*before_ts = b->ta;
	*moved_ns = wall_offset(b->ta, b->ra) - wall_offset(a->tb, a->rb);
}

/* y0 + (x - x0) * (y1 - y0) / (x1 - x0) for x0 <= x <= x1 (ns, < 2^63) */
static uint64_t lerp(uint64_t x, uint64_t x0, uint64_t x1, uint64_t y0, uint64_t y1)
{
	long double f;

	if (x1 == x0)
		return y0 + (x - x0);
	f = (long double)(x - x0) / (long double)(x1 - x0);
	return (uint64_t)((long double)y0 + f * ((long double)y1 - (long double)y0) + 0.5L);
}

int wall_map_real(const struct wall_map *m, uint64_t ts, uint64_t *real_ns)
{
	const struct wall_seg *f, *l;

	if (!m->n || ts > INT64_MAX)
		return -1;
	f = &m->seg[0];
	l = &m->seg[m->n - 1];
	if (ts < f->ta) {	/* before the first read: its offset */
		if (f->ta - ts > f->ra)
			return -1;
		*real_ns = f->ra - (f->ta - ts);
		return 0;
	}
	if (ts > l->tb) {
		if (m->full || ts - l->tb > INT64_MAX - l->rb)	/* past 2262 */
			return -1;
		*real_ns = l->rb + (ts - l->tb);
		return 0;
	}
	for (int i = 0; i < m->n; i++) {
		const struct wall_seg *s = &m->seg[i];

		if (ts >= s->ta && ts <= s->tb) {
			if (s->rb < s->ra)	/* a segment runs forward: malformed */
				return -1;
			*real_ns = lerp(ts, s->ta, s->tb, s->ra, s->rb);
			return 0;
		}
	}
	return -1;	/* between two segments: the step is somewhere in there */
}

enum wall_map_miss wall_map_trace(const struct wall_map *m, uint64_t real, uint64_t *ts,
				  int *step)
{
	const struct wall_seg *s;
	int hits = 0, hit = -1, gap = -1;

	*step = -1;
	if (!m->n || real > INT64_MAX)
		return WALL_MAP_UNKNOWN;
	/* the wall times of the trace time between a step's two reads, on
	 * either side of the step: not placed */
	for (int i = 0; i + 1 < m->n && gap < 0; i++) {
		const struct wall_seg *a = &m->seg[i], *b = &m->seg[i + 1];
		uint64_t g = b->ta - a->tb;

		if ((real > a->rb && real - a->rb <= g) || (real < b->ra && b->ra - real <= g))
			gap = i;
	}
	/* the segments whose wall times hold it (the first one reaches back
	 * without end, the last one forward unless the list was full) */
	for (int i = 0; i < m->n; i++) {
		s = &m->seg[i];
		if ((i == 0 || real >= s->ra) && ((i == m->n - 1 && !m->full) || real <= s->rb)) {
			if (hit < 0)
				hit = i;
			hits++;
		}
	}
	if (hits > 1) {		/* the clock went back over it */
		*step = hit;
		return WALL_MAP_TWICE;
	}
	if (gap >= 0) {
		uint64_t x, y;
		int64_t moved;

		*step = gap;
		wall_map_step(m, gap, &x, &y, &moved);
		return hits && moved < 0 ? WALL_MAP_TWICE : WALL_MAP_SKIPPED;
	}
	if (!hits) {
		if (m->full && real > m->seg[m->n - 1].rb)
			return WALL_MAP_UNKNOWN;
		for (int i = 0; i + 1 < m->n; i++)	/* a step forward went over it */
			if (real > m->seg[i].rb && real < m->seg[i + 1].ra)
				*step = i;
		return WALL_MAP_SKIPPED;
	}
	s = &m->seg[hit];
	if (real < s->ra)	/* before the first read: its offset */
		*ts = s->ra - real > s->ta ? 0 : s->ta - (s->ra - real);
	else if (real > s->rb)	/* after the last read: its offset */
		*ts = s->tb + (real - s->rb);
	else
		*ts = s->rb == s->ra ? s->ta : lerp(real, s->ra, s->rb, s->ta, s->tb);
	return WALL_MAP_OK;
}

void wall_ns_format(uint64_t ns, int digits, char *buf, size_t len)
{
	time_t t = (time_t)(ns / 1000000000ull);
	struct tm tm;
	char frac[16] = "";
	unsigned long long div = 1;

	if (!gmtime_r(&t, &tm)) {
		snprintf(buf, len, "-");
		return;
	}
	if (digits > 9)
		digits = 9;
	for (int i = digits; i < 9; i++)
		div *= 10;
	if (digits > 0)
		snprintf(frac, sizeof(frac), ".%0*llu", digits,
			 (unsigned long long)(ns % 1000000000ull) / div);
	snprintf(buf, len, "%04d-%02d-%02dT%02d:%02d:%02d%sZ", tm.tm_year + 1900, tm.tm_mon + 1,
		 tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, frac);
}
