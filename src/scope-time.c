// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The times of --since/--until: seconds from the recording's first event
 * ("12.5", as the report prints times), a trace time stamp ("@3456.78",
 * as trace-cmd prints them), or a wall-clock time
 * ("2026-12-01T14:32:05Z"), which is what an incident on a fleet of hosts
 * is known by: each host's trace clock counts from its own boot.
 */
#include "config.h"
#include "analysis.h"
#include "tracedat-read.h"
#include "util.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* n digits exactly at s, as a number; -1 if not */
static int digits(const char *s, int n)
{
	int v = 0;

	for (int i = 0; i < n; i++) {
		if (!isdigit((unsigned char)s[i]))
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

/*
 * "YYYY-MM-DD[T ]HH:MM[:SS[.FRACTION]][Z|+HH:MM|-HH:MM|+HHMM|-HHMM]" as
 * Unix time in ns. Without a zone, the local time of this machine (TZ),
 * as journalctl --since reads it. 0, or -1 when it is not such a time.
 */
static int parse_wall(const char *s, uint64_t *ns)
{
	struct tm tm;
	long long frac = 0, off_s = 0;
	int utc = 0, y, mo, d, h, mi, sec = 0;
	time_t t;

	if ((y = digits(s, 4)) < 0 || s[4] != '-' || (mo = digits(s + 5, 2)) < 0 ||
	    s[7] != '-' || (d = digits(s + 8, 2)) < 0 || (s[10] != 'T' && s[10] != ' ') ||
	    (h = digits(s + 11, 2)) < 0 || s[13] != ':' || (mi = digits(s + 14, 2)) < 0)
		return -1;
	s += 16;
	if (*s == ':') {
		if ((sec = digits(s + 1, 2)) < 0)
			return -1;
		s += 3;
		if (*s == '.') {
			int nd = 0;

			for (s++; isdigit((unsigned char)*s); s++, nd++)
				if (nd < 9)
					frac = frac * 10 + (*s - '0');
			if (!nd)
				return -1;
			for (; nd < 9; nd++)
				frac *= 10;
		}
	}
	if (*s == 'Z' && !s[1]) {
		utc = 1;
	} else if ((*s == '+' || *s == '-') && s[1]) {
		int oh = digits(s + 1, 2), om = s[3] == ':' ? digits(s + 4, 2) : digits(s + 3, 2);
		size_t len = s[3] == ':' ? 6 : 5;

		if (oh < 0 || om < 0 || oh > 23 || om > 59 || strlen(s) != len)
			return -1;
		off_s = (oh * 3600LL + om * 60LL) * (*s == '-' ? -1 : 1);
		utc = 1;
	} else if (*s) {
		return -1;
	}
	if (y < 1970 || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 60)
		return -1;
	memset(&tm, 0, sizeof(tm));
	tm.tm_year = y - 1900;
	tm.tm_mon = mo - 1;
	tm.tm_mday = d;
	tm.tm_hour = h;
	tm.tm_min = mi;
	tm.tm_sec = sec;
	tm.tm_isdst = -1;
	t = utc ? timegm(&tm) : mktime(&tm);
	/* mktime and timegm normalise Feb 30 into March: refuse, not guess */
	if (t == (time_t)-1 || tm.tm_mday != d || tm.tm_mon != mo - 1 || (long long)t - off_s < 0)
		return -1;
	*ns = (uint64_t)((long long)t - off_s) * 1000000000ull + (uint64_t)frac;
	return 0;
}

int analysis_time_parse(const char *s, struct analysis_time *t)
{
	char *end;
	double v;

	memset(t, 0, sizeof(*t));
	if (!s)
		return -1;
	if (strlen(s) >= 16 && s[4] == '-') {
		if (parse_wall(s, &t->ns))
			return -1;
		t->wall = 1;
		t->set = 1;
		return 0;
	}
	if (*s == '@') {
		t->abs = 1;
		s++;
	}
	/* digits and one dot only: no sign, exponent, hex, inf or nan */
	if (!*s || strspn(s, "0123456789.") != strlen(s) || strchr(s, '.') != strrchr(s, '.') ||
	    !strcmp(s, "."))
		return -1;
	v = strtod(s, &end);
	if (end == s || *end || v < 0 || v > 1.8e10)
		return -1;
	t->ns = (uint64_t)(v * 1e9 + 0.5);
	t->set = 1;
	return 0;
}

int analysis_time_at(const struct analysis_time *t, uint64_t first, const struct wall_map *wall,
		     const char *what, uint64_t *out, char **err)
{
	uint64_t after, before;
	int64_t moved;
	char mv[40];
	int step;

	if (!t->wall) {
		*out = t->abs ? t->ns : first + t->ns;
		return 0;
	}
	if (!wall || !wall_map_n(wall))
		return set_err(err, "%s: a wall-clock time needs the wall and trace clocks the "
			       "recorder read together (start_realtime_ns, start_trace_ns): this "
			       "recording has none (not made by mmscope record, or on a trace "
			       "clock that no wall clock maps to); give seconds or @trace time",
			       what);
	switch (wall_map_trace(wall, t->ns, out, &step)) {
	case WALL_MAP_OK:
		return 0;
	case WALL_MAP_UNKNOWN:
		return set_err(err, "%s: the wall clock was stepped more often than the recording "
			       "kept (wall_segments_full) before this time; give seconds or "
			       "@trace time", what);
	case WALL_MAP_SKIPPED:
	case WALL_MAP_TWICE:
		break;
	}
	if (step < 0)	/* not expected: a miss is always at a step */
		return set_err(err, "%s: this wall-clock time has no single place in the "
			       "recording; give seconds or @trace time", what);
	wall_map_step(wall, step, &after, &before, &moved);
	snprintf(mv, sizeof(mv), "%+.3f s", (double)moved / 1e9);	/* as the report */
	return set_err(err, "%s: the wall clock moved %s against the trace clock between "
		       "@%.6f and @%.6f (a clock step or a suspend), and this time %s; give "
		       "one outside it, or seconds, or @trace time", what, mv,
		       (double)after / 1e9, (double)before / 1e9,
		       moved < 0 ? "is on both sides of that step or inside it" :
		       "falls in that step");
}

int analysis_wall_ns(const struct analysis_info *in, uint64_t ts, uint64_t *ns)
{
	if (!in->has_wall)
		return -1;
	return wall_map_real(&in->wall, ts, ns);
}

void analysis_wall_format(const struct analysis_info *in, uint64_t ts, int digits,
			  char *buf, size_t len)
{
	uint64_t ns;

	if (analysis_wall_ns(in, ts, &ns))
		snprintf(buf, len, "-");
	else
		wall_ns_format(ns, digits, buf, len);
}

int analysis_scope_inverted(const struct analysis_scope *s)
{
	return s->since.set && s->until.set && s->since.abs == s->until.abs &&
	       s->since.wall == s->until.wall && s->since.ns > s->until.ns;
}

/* The one wording of an inverted window; with the trace times once they
 * are known (a wall-clock or mixed window is resolved on reading). */
static int scope_order_err(char **err, const uint64_t *since, const uint64_t *until,
			   uint64_t first)
{
	if (!since)
		return set_err(err, "--since is after --until");
	return set_err(err, "--since is after --until (@%.6f > @%.6f; the first event is "
		       "at @%.6f)", (double)*since / 1e9, (double)*until / 1e9,
		       (double)first / 1e9);
}

int analysis_scope_check(const struct analysis_scope *s, char **err)
{
	if (analysis_scope_inverted(s))
		return scope_order_err(err, NULL, NULL, 0);
	return 0;
}

int analysis_window_resolve(const struct analysis_scope *s, uint64_t first,
			    const struct wall_map *wall, uint64_t *since, uint64_t *until,
			    char **err)
{
	*since = first;
	*until = UINT64_MAX;
	if ((s->since.set && analysis_time_at(&s->since, first, wall, "--since", since, err)) ||
	    (s->until.set && analysis_time_at(&s->until, first, wall, "--until", until, err)))
		return -1;
	if (*since > *until)
		return scope_order_err(err, since, until, first);
	return 0;
}

void analysis_interval(const struct analysis_info *in, uint64_t *from, uint64_t *to)
{
	*from = in->windowed && in->since_ts > in->first_ts ? in->since_ts : in->first_ts;
	*to = in->last_ts > *from ? in->last_ts : *from;
}

int analysis_scope_any(const struct analysis_scope *s)
{
	return s->since.set || s->until.set || s->pid > 0 || s->comm || s->cgroup;
}
