// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Memcgs model on hand-built "memcgs" sample sets: usage first, last and
 * largest; the kernel's peak as last sampled; a limit that changed;
 * event and failcnt deltas between a cgroup's first and last set; a
 * count that went down (the cgroup made again) counted from zero with
 * the reset counted; a cgroup seen in one set only (values, no deltas);
 * a set without its end line never counts; the "(other cgroups)" line
 * kept apart; v2 "max" as unlimited; widest-first order; and the
 * thinning of the lane's points keeping the largest usage.
 */
#include "config.h"
#include "model-memcgs.h"
#include "tap.h"

#include <stdint.h>

#define MS 1000000ULL

static struct memcgs_model *m;

static void value(uint64_t seq, const char *path, const char *key, int64_t v)
{
	struct record r = { .type = REC_COUNTER };

	r.counter.source = SRC_MEMCGS;
	r.counter.seq = seq;
	r.counter.instance = path;
	r.counter.key = key;
	r.counter.value = v;
	memcgs_model_add(m, &r);
}

static void text(uint64_t seq, const char *path, const char *key, const char *v)
{
	struct record r = { .type = REC_SETTING };

	r.setting.source = SRC_MEMCGS;
	r.setting.seq = seq;
	r.setting.instance = path;
	r.setting.key = key;
	r.setting.value = v;
	memcgs_model_add(m, &r);
}

static void end(uint64_t t, uint64_t seq)
{
	struct record r = { .type = REC_SAMPLE_END, .ts = t * MS };

	r.send.seq = seq;
	memcgs_model_add(m, &r);
}

/* a v1 cgroup's set */
static void v1(uint64_t seq, const char *path, int64_t usage, int64_t peak, int64_t limit,
	       int64_t failcnt, int64_t oom_kill)
{
	value(seq, path, "usage", usage);
	value(seq, path, "limit", limit);
	value(seq, path, "peak", peak);
	value(seq, path, "failcnt", failcnt);
	value(seq, path, "events_oom_kill", oom_kill);
	value(seq, path, "hierarchical_memory_limit", limit);
	value(seq, path, "total_swap", usage / 8);
}

int main(void)
{
	const struct memcg_info *a, *b, *c, *d;
	const struct memcg_other *o;
	int order[8];

	m = memcgs_model_new();
	/* set 0: /a and /b, and 3 other cgroups summed */
	v1(0, "/a", 100, 150, 1000, 5, 0);
	v1(0, "/b", 50, 60, 9223372036854771712LL, 0, 0);
	value(0, "(other cgroups)", "cgroups", 3);
	value(0, "(other cgroups)", "usage", 30);
	end(1000, 0);
	/* set 1: /a grows, limit raised; /b's failcnt written 0 after 7 */
	v1(1, "/a", 800, 800, 2000, 12, 1);
	v1(1, "/b", 40, 60, 9223372036854771712LL, 7, 0);
	value(1, "(other cgroups)", "cgroups", 2);
	value(1, "(other cgroups)", "usage", 10);
	end(2000, 1);
	/* set 2: /a falls back; /b reset (0 then 2); /c only here; v2 /d */
	v1(2, "/a", 300, 800, 2000, 12, 1);
	v1(2, "/b", 45, 60, 9223372036854771712LL, 2, 0);
	v1(2, "/c", 7, 7, 4096, 1, 0);
	value(2, "/d", "usage", 5000);
	text(2, "/d", "limit", "max");
	value(2, "/d", "high", 4096);
	value(2, "/d", "events_high", 10);
	value(2, "/d", "events_max", 0);
	value(2, "/d", "psi_some_total", 1000);
	value(2, "/d", "anon", 4000);
	end(3000, 2);
	/* set 3 cut short (no end line): must not count */
	v1(3, "/a", 999999, 999999, 5, 99, 9);
	value(3, "/e", "usage", 1);
	/* set 4 */
	v1(4, "/a", 200, 800, 2000, 13, 1);
	value(4, "/d", "usage", 6000);
	text(4, "/d", "limit", "max");
	value(4, "/d", "high", 4096);
	value(4, "/d", "events_high", 25);
	value(4, "/d", "events_max", 0);
	value(4, "/d", "psi_some_total", 251000);
	end(5000, 4);

	is_int(memcgs_model_count(m), 4, "four cgroups: /e's only set had no end line");
	a = memcgs_model_find(m, "/a");
	b = memcgs_model_find(m, "/b");
	c = memcgs_model_find(m, "/c");
	d = memcgs_model_find(m, "/d");
	ok(a && b && c && d && !memcgs_model_find(m, "/e") &&
	   !memcgs_model_find(m, "(other cgroups)"), "found by path; the other line is no cgroup");
	if (!a || !b || !c || !d)
		return tap_done();
	is_int(a->nsets, 4, "/a: four complete sets (the cut one not counted)");
	ok(a->usage_first.known && a->usage_first.v == 100 && a->usage_last.v == 200 &&
	   a->usage_max.v == 800 && a->usage_max_ts == 2000 * MS,
	   "/a usage first 100, last 200, largest 800 at 2 s");
	ok(a->peak.known && a->peak.v == 800, "/a: the kernel's peak as last sampled");
	ok(a->limit.first.v == 1000 && a->limit.last.v == 2000 && a->limit.changed,
	   "/a: limit 1000 -> 2000, changed");
	ok(a->failcnt.delta_known && a->failcnt.delta == 8 && !a->failcnt.resets,
	   "/a: failcnt 5 -> 13, delta 8");
	ok(a->ev_oom_kill.delta_known && a->ev_oom_kill.delta == 1, "/a: one OOM kill");
	is_int(a->version, 1, "/a: cgroup v1");
	ok(a->swap_max_sampled.known && a->swap_max_sampled.v == 100 && a->swap_last.v == 25,
	   "/a: swap (total_swap) largest 100, last 25");
	ok(b->limit.last.known && b->limit.last.unlimited && !b->limit.changed,
	   "/b: v1's page-rounded LONG_MAX is no limit");
	ok(b->failcnt.delta_known && b->failcnt.delta == 9 && b->failcnt.resets == 1,
	   "/b: failcnt 0, 7, reset, 2: delta 9 with one reset");
	ok(c->nsets == 1 && c->usage_last.v == 7 && c->failcnt.last.known &&
	   c->failcnt.last.v == 1 && !c->failcnt.delta_known && !c->ev_oom_kill.delta_known,
	   "/c: one set: its values, no deltas");
	ok(d->limit.last.known && d->limit.last.unlimited && d->high.last.v == 4096 &&
	   d->version == 2, "/d: v2, limit max, high 4096");
	ok(d->ev_high.delta_known && d->ev_high.delta == 15 && d->ev_max.delta == 0,
	   "/d: events high 10 -> 25");
	ok(d->psi_some_us.delta_known && d->psi_some_us.delta == 250000 &&
	   !d->psi_full_us.last.known, "/d: pressure some 250 ms; full never sampled");
	ok(!d->peak.known && !d->failcnt.last.known, "/d: no peak, no failcnt sampled");
	o = memcgs_model_other(m);
	ok(o->nsets == 2 && o->cgroups_max.v == 3 && o->cgroups_last.v == 2 &&
	   o->usage_max.v == 30 && o->usage_last.v == 10, "other: 3 then 2 cgroups summed");
	memcgs_model_order(m, order);
	ok(memcgs_model_get(m, order[0]) == d && memcgs_model_get(m, order[1]) == a &&
	   memcgs_model_get(m, order[2]) == b && memcgs_model_get(m, order[3]) == c,
	   "widest first: /d, /a, /b, /c");
	is_int(a->npts, 4, "/a: four points, one per complete set");
	ok(a->pts[1].usage == 800 && a->pts[1].limit == 2000 && a->pts[1].ts == 2000 * MS,
	   "/a: the point of set 1");
	ok(d->pts[0].limit == INT64_MAX && (d->pts[0].known & MEMCG_PT_HIGH) &&
	   d->pts[0].high == 4096, "/d: unlimited limit drawn as none, high known");
	memcgs_model_free(m);

	/* thinning: 3 * MEMCGS_POINTS sets, a spike at one; kept, bounded */
	m = memcgs_model_new();
	for (uint64_t s = 0; s < 3 * MEMCGS_POINTS; s++) {
		value(s, "/t", "usage", s == 777 ? 1000000 : 10);
		end(s + 1, s);
	}
	a = memcgs_model_find(m, "/t");
	ok(a && a->npts <= MEMCGS_POINTS && a->npts >= MEMCGS_POINTS / 2,
	   "thinned to at most %d points (%d)", MEMCGS_POINTS, a ? a->npts : -1);
	if (a) {
		int spike = 0;

		for (int i = 0; i < a->npts; i++)
			spike |= a->pts[i].usage == 1000000;
		ok(spike, "the spike survives thinning");
		ok(a->pts[a->npts - 1].ts == 3 * MEMCGS_POINTS * MS, "the last set is the last point");
		ok(a->usage_max.v == 1000000 && a->nsets == 3 * MEMCGS_POINTS,
		   "figures are not thinned");
	}
	memcgs_model_free(m);
	return tap_done();
}
