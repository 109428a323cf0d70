// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The wall clock against the trace clock (src/wall-map.c): the metadata
 * the recorder writes, read back; mapping both ways inside a segment,
 * before and after the reads, across a step forward (the times it skipped
 * are refused) and back (the times it repeated are refused); the files of
 * a switch-output set joined when in step; mono_raw's drift followed by
 * the line through a segment; older recordings (start pair only) and
 * malformed lists; and the tracker against this machine's real clocks.
 */
#include "config.h"
#include "wall-map.h"
#include "analysis.h"
#include "util.h"
#include "tap.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define S 1000000000ULL
#define R0 1796000000ULL	/* a Unix second in 2026 */

static void map_of(struct wall_map *m, const char *const *metas, int n)
{
	memset(m, 0, sizeof(*m));
	for (int i = 0; i < n; i++)
		if (wall_map_add_meta(m, metas[i]))
			break;
	wall_map_finish(m);
}

static uint64_t real_of(const struct wall_map *m, uint64_t ts, int *known)
{
	uint64_t r = 0;

	*known = !wall_map_real(m, ts, &r);
	return r;
}

static enum wall_map_miss trace_of(const struct wall_map *m, uint64_t real, uint64_t *ts)
{
	int step;

	return wall_map_trace(m, real, ts, &step);
}

/* buf: the metadata of a recording with n segments (TA, RA, TB, RB each,
 * as unsigned long long), its start pair the first read, then extra */
static const char *seg_meta(char *buf, size_t len, const char *extra, int n, ...)
{
	va_list ap;
	size_t at = 0;

	va_start(ap, n);
	for (int i = 0; i < n; i++) {
		unsigned long long ta = va_arg(ap, unsigned long long), ra = va_arg(ap, unsigned long long);
		unsigned long long tb = va_arg(ap, unsigned long long), rb = va_arg(ap, unsigned long long);

		if (!i)
			at = (size_t)snprintf(buf, len, "start_realtime_ns=%llu\nstart_trace_ns=%llu\n"
					      "wall_segments=", ra, ta);
		at += (size_t)snprintf(buf + at, len - at, "%s%llu:%llu:%llu:%llu", i ? "," : "",
				       ta, ra, tb, rb);
	}
	va_end(ap);
	snprintf(buf + at, len - at, "\n%s", extra);
	return buf;
}

int main(void)
{
	struct wall_map m;
	uint64_t ts, after, before;
	int64_t moved;
	int known;
	char meta[512];

	/* an older recording: the start pair alone, offset everywhere */
	snprintf(meta, sizeof(meta), "start_realtime_ns=%llu\nstart_trace_ns=%llu\n",
		 R0 * S, 100 * S);
	map_of(&m, (const char *[]){ meta }, 1);
	is_int(wall_map_n(&m), 1, "start pair only: one segment");
	is_int(m.checked, 0, "start pair only: steps not known");
	is_int(real_of(&m, 90 * S, &known), (R0 - 10) * S, "start pair only: before it, by its offset");
	ok(known, "and known");
	is_int(real_of(&m, 5000 * S, &known), (R0 + 4900) * S, "start pair only: long after it");
	ok(trace_of(&m, (R0 + 7) * S, &ts) == WALL_MAP_OK && ts == 107 * S,
	   "start pair only: a wall time back to trace time");
	wall_map_free(&m);

	/* no clocks at all */
	map_of(&m, (const char *[]){ "mmscope=0.1\nclock=local\n" }, 1);
	is_int(wall_map_n(&m), 0, "no clocks: no map");
	ok(wall_map_real(&m, S, &ts) == -1, "no clocks: no wall time");
	wall_map_free(&m);

	/* one segment, checked, no step */
	seg_meta(meta, sizeof(meta), "", 1, 100 * S, R0 * S, 160 * S, (R0 + 60) * S);
	map_of(&m, (const char *[]){ meta }, 1);
	ok(wall_map_n(&m) == 1 && m.checked == 1, "no step: one segment, checked");
	is_int(real_of(&m, 130 * S + 5, &known), (R0 + 30) * S + 5, "no step: inside, to the ns");
	is_int(real_of(&m, 200 * S, &known), (R0 + 100) * S, "no step: after the last read");
	wall_map_free(&m);

	/* a step forward of +30 s between reads at 130 s and 131 s (chrony's
	 * makestep): before it the start offset, after it the new one, in
	 * between not known; the wall times it skipped are refused */
	seg_meta(meta, sizeof(meta), "", 2,
		 100 * S, R0 * S, 130 * S, (R0 + 30) * S, 131 * S, (R0 + 61) * S, 160 * S, (R0 + 90) * S);
	map_of(&m, (const char *[]){ meta }, 1);
	is_int(wall_map_n(&m), 2, "step forward: two segments");
	wall_map_step(&m, 0, &after, &before, &moved);
	ok(after == 130 * S && before == 131 * S && moved == 30 * (int64_t)S,
	   "step forward: between 130 and 131 s, +30 s");
	is_int(real_of(&m, 120 * S, &known), (R0 + 20) * S, "step forward: before it");
	is_int(real_of(&m, 150 * S, &known), (R0 + 80) * S, "step forward: after it");
	real_of(&m, 130 * S + S / 2, &known);
	ok(!known, "step forward: between its reads, not known");
	ok(trace_of(&m, (R0 + 10) * S, &ts) == WALL_MAP_OK && ts == 110 * S,
	   "step forward: a wall time before it");
	ok(trace_of(&m, (R0 + 70) * S, &ts) == WALL_MAP_OK && ts == 140 * S,
	   "step forward: a wall time after it");
	is_int(trace_of(&m, (R0 + 45) * S, &ts), WALL_MAP_SKIPPED,
	       "step forward: a wall time it skipped is refused");
	is_int(trace_of(&m, (R0 + 30) * S + S / 2, &ts), WALL_MAP_SKIPPED,
	       "step forward: a wall time just after the last read before it is refused");
	is_int(trace_of(&m, (R0 + 60) * S + S / 2, &ts), WALL_MAP_SKIPPED,
	       "step forward: one just before the first read after it is refused");
	ok(trace_of(&m, (R0 - 1000) * S, &ts) == WALL_MAP_OK && ts == 0,
	   "a wall time before the trace clock's 0 is 0");
	wall_map_free(&m);

	/* a step back of -20 s: the wall times it repeated are refused */
	seg_meta(meta, sizeof(meta), "", 2,
		 100 * S, R0 * S, 130 * S, (R0 + 30) * S, 131 * S, (R0 + 11) * S, 160 * S, (R0 + 40) * S);
	map_of(&m, (const char *[]){ meta }, 1);
	wall_map_step(&m, 0, &after, &before, &moved);
	is_int(moved, -20 * (int64_t)S, "step back: -20 s");
	is_int(trace_of(&m, (R0 + 20) * S, &ts), WALL_MAP_TWICE,
	       "step back: a wall time it repeated is refused");
	ok(trace_of(&m, (R0 + 5) * S, &ts) == WALL_MAP_OK && ts == 105 * S,
	   "step back: a wall time before what it repeated");
	ok(trace_of(&m, (R0 + 35) * S, &ts) == WALL_MAP_OK && ts == 155 * S,
	   "step back: a wall time after it");
	wall_map_free(&m);

	/* a switch-output set: two files, each with its own reads, in step
	 * across the switch: one segment; then a third file after a step at
	 * the switch */
	{
		char a[256], b[256], c[256];

		seg_meta(a, sizeof(a), "", 1,
		 100 * S, R0 * S, 110 * S, (R0 + 10) * S);
		seg_meta(b, sizeof(b), "", 1,
		 110 * S + 2000, (R0 + 10) * S + 2000, 120 * S, (R0 + 20) * S);
		seg_meta(c, sizeof(c), "", 1,
		 120 * S + 5000, (R0 + 25) * S, 130 * S, (R0 + 35) * S - 5000);
		map_of(&m, (const char *[]){ a, b }, 2);
		ok(wall_map_n(&m) == 1 && m.checked == 1, "a set in step: one segment");
		is_int(real_of(&m, 115 * S, &known), (R0 + 15) * S, "a set in step: in the second file");
		wall_map_free(&m);
		map_of(&m, (const char *[]){ b, a, c }, 3);
		is_int(wall_map_n(&m), 2, "a set with a step at a switch, files in any order: one step");
		wall_map_step(&m, 0, &after, &before, &moved);
		ok(after == 120 * S && before == 120 * S + 5000, "the step is at the switch");
		wall_map_free(&m);
		/* one file of the set from an older mmscope: steps not known */
		snprintf(c, sizeof(c), "start_realtime_ns=%llu\nstart_trace_ns=%llu\n",
			 (R0 + 20) * S, 120 * S + 5000);
		map_of(&m, (const char *[]){ a, b, c }, 3);
		is_int(m.checked, 0, "a set with one unchecked file: steps not known");
		wall_map_free(&m);
		/* one file without clocks: no map */
		map_of(&m, (const char *[]){ a, "clock=local\n", b }, 3);
		is_int(wall_map_n(&m), 0, "a set with a file without clocks: no map");
		wall_map_free(&m);
	}

	/* mono_raw: the trace clock runs 50 ppm slow against the slewed
	 * wall clock; the reads stay in step (under 1 ms + 1000 ppm apart),
	 * and the line through the segment follows the drift */
	{
		struct strbuf sb = STRBUF_INIT;
		uint64_t t = 100 * S, r = R0 * S;

		strbuf_addf(&sb, "start_realtime_ns=%llu\nstart_trace_ns=%llu\nwall_segments=",
			    (unsigned long long)r, (unsigned long long)t);
		strbuf_addf(&sb, "%llu:%llu:%llu:%llu\n", (unsigned long long)t,
			    (unsigned long long)r, (unsigned long long)(t + 3600 * S),
			    (unsigned long long)(r + 3600 * S + 3600 * S / 20000));
		map_of(&m, (const char *[]){ sb.buf }, 1);
		is_int(real_of(&m, t + 1800 * S, &known), r + 1800 * S + 1800 * S / 20000,
		       "mono_raw drift: the middle of the hour on the line (90 ms of drift)");
		ok(trace_of(&m, r + 1800 * S + 1800 * S / 20000, &ts) == WALL_MAP_OK &&
		   ts == t + 1800 * S, "mono_raw drift: and back");
		wall_map_free(&m);
		strbuf_release(&sb);
	}

	/* malformed lists: read as the start pair alone (not checked) */
	{
		const char *bad[] = {
			"wall_segments=1:2:3\n", "wall_segments=1:2:3:4,\n", "wall_segments=5:2:3:4\n",
			"wall_segments=1:2:3:x\n", "wall_segments=99999999999999999999:1:2:3\n",
			"wall_segments=1:2:3:4;5\n", "wall_segments=\n",
		};
		int fine = 0;

		for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			snprintf(meta, sizeof(meta), "start_realtime_ns=%llu\nstart_trace_ns=%llu\n%s",
				 R0 * S, 100 * S, bad[i]);
			map_of(&m, (const char *[]){ meta }, 1);
			fine += wall_map_n(&m) == 1 && !m.checked && m.seg[0].ta == 100 * S;
			wall_map_free(&m);
		}
		is_int(fine, (int)(sizeof(bad) / sizeof(bad[0])),
		       "malformed wall_segments: the start pair alone, steps not known");
	}

	/* a hostile list: more segments than any recorder writes */
	{
		struct strbuf sb = STRBUF_INIT;

		strbuf_addf(&sb, "start_realtime_ns=%llu\nstart_trace_ns=%llu\nwall_segments=",
			    R0 * S, 100 * S);
		for (unsigned long long i = 0; i < 70000; i++)
			strbuf_addf(&sb, "%s%llu:%llu:%llu:%llu", i ? "," : "", 100 * S + i * 10,
				    R0 * S + i * 1000000000ULL, 100 * S + i * 10 + 5,
				    R0 * S + i * 1000000000ULL + 5);
		strbuf_addch(&sb, '\n');
		map_of(&m, (const char *[]){ sb.buf }, 1);
		ok(wall_map_n(&m) == 1 && !m.checked, "70000 segments: malformed, the start pair alone");
		wall_map_free(&m);
		strbuf_release(&sb);
	}

	/* a full list: nothing after its last read is known */
	seg_meta(meta, sizeof(meta), "wall_segments_full=1\n", 1, 100 * S, R0 * S, 130 * S,
		 (R0 + 30) * S);
	map_of(&m, (const char *[]){ meta }, 1);
	real_of(&m, 131 * S, &known);
	ok(!known, "full list: after its last read, not known");
	is_int(trace_of(&m, (R0 + 40) * S, &ts), WALL_MAP_UNKNOWN,
	       "full list: a wall time after its last read is refused");
	wall_map_free(&m);

	/* analysis_time_at: the message names the step */
	{
		struct analysis_time t;
		char *err = NULL;
		uint64_t out;

		seg_meta(meta, sizeof(meta), "", 2,
		 100 * S, R0 * S, 130 * S, (R0 + 30) * S, 131 * S, (R0 + 61) * S, 160 * S, (R0 + 90) * S);
		map_of(&m, (const char *[]){ meta }, 1);
		t = (struct analysis_time){ .set = 1, .wall = 1, .ns = (R0 + 45) * S };
		int rc = analysis_time_at(&t, 100 * S, &m, "--since", &out, &err);

		ok(rc == -1 && err && strstr(err, "+30.000 s") &&
		   strstr(err, "@130.000000 and @131.000000"),
		   "--since in a step: refused, naming it (%s)", err ? err : "no message");
		free(err);
		wall_map_free(&m);
	}

	/* the tracker on this machine's clocks: mono is one segment, in
	 * step with the wall clock to within the read's precision */
	{
		struct wall_track tr;
		struct strbuf sb = STRBUF_INIT;
		uint64_t t0, r0;

		wall_track_start(&tr, "mono", &t0, &r0);
		for (int i = 0; i < 50; i++)
			wall_track_check(&tr);
		wall_track_meta(&tr, &sb);
		ok(tr.on && tr.n == 1 && !tr.full && t0 && strstr(sb.buf, "wall_segments="),
		   "tracker, mono: one segment after 50 reads");
		strbuf_addf(&sb, "start_realtime_ns=%llu\nstart_trace_ns=%llu\n",
			    (unsigned long long)r0, (unsigned long long)t0);
		map_of(&m, (const char *[]){ sb.buf }, 1);
		ok(m.checked == 1 && wall_map_n(&m) == 1, "tracker's metadata reads back");
		wall_map_free(&m);
		strbuf_release(&sb);
		wall_track_start(&tr, "local", &t0, &r0);
		wall_track_check(&tr);
		sb = (struct strbuf)STRBUF_INIT;
		wall_track_meta(&tr, &sb);
		ok(!tr.on && !t0 && !sb.len, "tracker, local clock: nothing tracked");
		strbuf_release(&sb);
	}
	return tap_done();
}
