// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Flight-recorder triggers: the parser (every name, values, refusals), the
 * counter evaluation (memcg growth), and the event-derived state on
 * hand-built record sequences: OOM kill, reclaim and compaction stalls
 * (finished and still running), kswapd awake without balancing, episodes
 * in a row without a kcompactd handoff.
 */
#include "config.h"
#include "trigger.h"
#include "trigger-events.h"
#include "tap.h"

#include <stdlib.h>
#include <string.h>

#define MS 1000000ull
#define SEC 1000000000ull

static struct record rec(enum rec_type type, int pid, uint64_t ts)
{
	struct record r;

	memset(&r, 0, sizeof(r));
	r.type = type;
	r.pid = pid;
	r.ts = ts;
	return r;
}

static void reclaim(struct trig_events *te, int pid, uint64_t from, uint64_t to)
{
	struct record r = rec(REC_RECLAIM_BEGIN, pid, from);

	r.rbegin.kind = RK_DIRECT;
	if (from)
		trig_events_record(te, &r);
	if (to) {
		r = rec(REC_RECLAIM_END, pid, to);
		r.rend.kind = RK_DIRECT;
		trig_events_record(te, &r);
	}
}

static void kswapd(struct trig_events *te, int nid, uint64_t wake, uint64_t sleep, int order,
		   int handoff)
{
	struct record r = rec(REC_KSWAPD_WAKE, 50, wake);

	r.wake.nid = nid;
	r.wake.order = order;
	trig_events_record(te, &r);
	if (handoff) {
		r = rec(REC_WAKEUP_KCOMPACTD, 50, wake + 1);
		r.wake.nid = nid;
		r.wake.order = order;
		trig_events_record(te, &r);
	}
	if (sleep) {
		r = rec(REC_KSWAPD_SLEEP, 50, sleep);
		r.sleep.nid = nid;
		trig_events_record(te, &r);
	}
}

static void test_parse(void)
{
	static const char *const good[] = {
		"psi-some>10", "stall-ms>100", "fallback-rate>5", "memcg-oom", "memcg-max>3",
		"memcg-high", "oom", "reclaim-stall>50", "compact-stall>20.5", "kswapd-awake>2",
		"no-handoff>3",
	};
	static const char *const bad[] = {
		"bogus>1", "psi-some", "psi-some>", "psi-some>x", "psi-some>-1", "oom>1",
		"no-handoff>0", "no-handoff>1.5", "reclaim-stall", "", ">5", "kswapd-awake>nan",
	};
	struct trigger t;
	char *err = NULL;

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		ok(!trigger_parse(good[i], &t, &err), "parses '%s'", good[i]);
		is_str(t.name, good[i], "keeps its name");
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int r;

		err = NULL;
		r = trigger_parse(bad[i], &t, &err);
		ok(r && err && !strchr(err, '\n'), "refuses '%s' in one line: %s", bad[i],
		   err ? err : "(no message)");
		free(err);
	}
	trigger_parse("oom", &t, NULL);
	ok(trigger_is_event(&t) && !trigger_needs_cgroup(&t), "oom is an event trigger");
	is_str(trigger_events(&t)[0], "oom:mark_victim", "oom watches oom:mark_victim");
	trigger_parse("memcg-max", &t, NULL);
	ok(!trigger_is_event(&t) && trigger_needs_cgroup(&t), "memcg-max needs --cgroup");
}

static void test_memcg_eval(void)
{
	struct trigger t;
	char why[200];

	trigger_parse("memcg-oom", &t, NULL);
	is_int(trigger_eval(&t, 3, 0, why, sizeof(why)), 0, "memcg-oom: the first value is a base");
	is_int(trigger_eval(&t, 3, 0, why, sizeof(why)), 0, "memcg-oom: no growth, no fire");
	is_int(trigger_eval(&t, 4, 0, why, sizeof(why)), 1, "memcg-oom: one more oom_kill fires");
	ok(t.fired.has_value && t.fired.value == 1 && !strcmp(trigger_unit(&t), "events") &&
	   !strcmp(trigger_kind_name(&t), "memcg-oom"), "memcg-oom: what it saw: +1 event");
	is_str(why, "memcg oom_kill +1 in one interval > 0", "memcg-oom: says the growth");
	is_int(trigger_eval(&t, 5, 0, why, sizeof(why)), 0, "memcg-oom: not again while it grows");
	is_int(trigger_eval(&t, 5, 0, why, sizeof(why)), 0, "memcg-oom: re-armed");
	is_int(trigger_eval(&t, 6, 0, why, sizeof(why)), 1, "memcg-oom: fires again");
	trigger_parse("memcg-max>10", &t, NULL);
	trigger_eval(&t, 100, 0, why, sizeof(why));
	is_int(trigger_eval(&t, 110, 0, why, sizeof(why)), 0, "memcg-max>10: +10 is not more");
	is_int(trigger_eval(&t, 121, 0, why, sizeof(why)), 1, "memcg-max>10: +11 fires");
}

static void test_events(void)
{
	struct trigger t[5];
	struct trig_events *te;
	struct record r;
	char why[200];

	trigger_parse("oom", &t[0], NULL);
	trigger_parse("reclaim-stall>50", &t[1], NULL);
	trigger_parse("compact-stall>20", &t[2], NULL);
	trigger_parse("kswapd-awake>2", &t[3], NULL);
	trigger_parse("no-handoff>2", &t[4], NULL);
	te = trig_events_new(t, 5);

	for (int i = 0; i < 5; i++)
		is_int(trig_events_check(te, i, 1 * SEC, why, sizeof(why)), 0, "nothing yet");

	r = rec(REC_OOM, 10, 2 * SEC);
	r.oom.kind = OOM_VICTIM;
	r.oom.victim = 4242;
	r.oom.victim_comm = "hog";
	trig_events_record(te, &r);
	is_int(trig_events_check(te, 0, 3 * SEC, why, sizeof(why)), 1, "oom: a victim fires");
	is_str(why, "OOM kill of pid 4242 (hog)", "oom: names the victim");
	is_int(trig_events_check(te, 0, 4 * SEC, why, sizeof(why)), 0, "oom: once per kill");

	reclaim(te, 100, 5 * SEC, 5 * SEC + 40 * MS);
	is_int(trig_events_check(te, 1, 6 * SEC, why, sizeof(why)), 0, "reclaim 40 ms < 50");
	reclaim(te, 101, 6 * SEC, 6 * SEC + 80 * MS);
	reclaim(te, 102, 6 * SEC, 6 * SEC + 60 * MS);
	is_int(trig_events_check(te, 1, 7 * SEC, why, sizeof(why)), 1, "reclaim 80 ms > 50 fires");
	is_str(why, "direct reclaim 80.0 ms in pid 101 > 50 ms", "reclaim: the longest, its pid");
	reclaim(te, 103, 8 * SEC, 0);
	is_int(trig_events_check(te, 1, 8 * SEC + 30 * MS, why, sizeof(why)), 0,
	       "an open reclaim of 30 ms does not fire");
	is_int(trig_events_check(te, 1, 8 * SEC + 70 * MS, why, sizeof(why)), 1,
	       "an open reclaim of 70 ms fires");
	is_str(why, "direct reclaim 70.0 ms in pid 103 (still running) > 50 ms", "says it runs");
	reclaim(te, 103, 0, 9 * SEC);
	is_int(trig_events_check(te, 1, 10 * SEC, why, sizeof(why)), 0,
	       "its end does not fire a second time");
	/* many pids at once: the table takes them, and frees them */
	for (int p = 1000; p < 5000; p++)
		reclaim(te, p, 11 * SEC, 11 * SEC + MS);
	is_int(trig_events_overflow(te), 0, "4000 short reclaims: no overflow");
	reclaim(te, 77, 12 * SEC, 12 * SEC + 51 * MS);
	is_int(trig_events_check(te, 1, 13 * SEC, why, sizeof(why)), 1, "still matched after them");

	r = rec(REC_COMPACT_TRY, 200, 14 * SEC);
	trig_events_record(te, &r);
	r = rec(REC_COMPACT_END, 200, 14 * SEC + 10 * MS);
	trig_events_record(te, &r);
	r = rec(REC_COMPACT_END, 200, 14 * SEC + 25 * MS);	/* a second zone */
	trig_events_record(te, &r);
	r = rec(REC_COMPACT_END, 300, 14 * SEC + 900 * MS);	/* kcompactd: no try */
	trig_events_record(te, &r);
	is_int(trig_events_check(te, 2, 15 * SEC, why, sizeof(why)), 1,
	       "direct compaction 25 ms over two zones > 20 fires");
	is_str(why, "direct compaction 25.0 ms in pid 200 > 20 ms", "compaction: from the try");

	kswapd(te, 0, 16 * SEC, 0, 0, 0);
	is_int(trig_events_check(te, 3, 17 * SEC, why, sizeof(why)), 0, "kswapd awake 1 s < 2");
	is_int(trig_events_check(te, 3, 18 * SEC + 500 * MS, why, sizeof(why)), 1,
	       "kswapd awake 2.5 s fires");
	is_str(why, "kswapd of node 0 awake 2.5 s without balancing > 2 s", "kswapd-awake: says so");
	is_int(trig_events_check(te, 3, 19 * SEC, why, sizeof(why)), 0, "once per episode");
	r = rec(REC_KSWAPD_SLEEP, 50, 19 * SEC);
	r.sleep.nid = 0;
	trig_events_record(te, &r);
	kswapd(te, 0, 20 * SEC, 0, 0, 0);
	is_int(trig_events_check(te, 3, 23 * SEC, why, sizeof(why)), 1, "a new episode fires again");
	r = rec(REC_KSWAPD_SLEEP, 50, 23 * SEC);
	r.sleep.nid = 0;
	trig_events_record(te, &r);

	kswapd(te, 1, 30 * SEC, 30 * SEC + MS, 3, 0);
	is_int(trig_events_check(te, 4, 31 * SEC, why, sizeof(why)), 0, "one episode without handoff");
	kswapd(te, 1, 31 * SEC, 31 * SEC + MS, 0, 0);	/* order 0: does not count */
	kswapd(te, 1, 32 * SEC, 32 * SEC + MS, 2, 0);
	is_int(trig_events_check(te, 4, 33 * SEC, why, sizeof(why)), 1, "two in a row fire");
	is_str(why, "2 kswapd episodes in a row on node 1 asked for order > 0 without a kcompactd "
	       "handoff (>= 2)", "no-handoff: says the count and node");
	kswapd(te, 1, 34 * SEC, 34 * SEC + MS, 2, 1);	/* a handoff resets */
	kswapd(te, 1, 35 * SEC, 35 * SEC + MS, 2, 0);
	is_int(trig_events_check(te, 4, 36 * SEC, why, sizeof(why)), 0, "a handoff starts over");
	trig_events_free(te);
}

int main(void)
{
	test_parse();
	test_memcg_eval();
	test_events();
	return tap_done();
}
