// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The victim's cgroup in a kill's dossier, on hand-written records
 * through the OOM model (kill-cgroup.h): the last sample of its cgroup at
 * or before the kill (usage, the limit's last value, "max" and v1's huge
 * number as no limit), the memory.stat deltas from the first sample in
 * the window (unknown with one sample, or a count the sample lacks), a
 * set used only once its end came; systemd-oomd named by a rise of its
 * user.oomd_kill xattr across a SIGKILL whatever the sender's name (on the
 * victim's cgroup or an ancestor: oomd's kill is recursive), and
 * not by a rise too late, without a sample before, or on an OOM kill;
 * an OOM kill of unknown cgroup given the memcg whose OOM kill count
 * rose (the deepest of a line of ancestors; none when unrelated ones
 * rose, none rose, or too late); bad values never crash.
 */
#include "config.h"
#include "model-oom.h"
#include "util.h"
#include "tap.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define MS 1000000ULL
#define S 1000000000ULL

static struct oom_model *m;

/* tags: 1 /app, 2 /other, 3 none of the samples', 4 /app/sub/leaf
 * (unsampled, below /app) */
static const char *path_of(void *ctx, int tag)
{
	(void)ctx;
	return tag == 1 ? "/app" : tag == 2 ? "/other" : tag == 3 ? "/nowhere" :
	       tag == 4 ? "/app/sub/leaf" : NULL;
}

static void counter(uint64_t ts, uint64_t seq, const char *path, const char *key, int64_t v)
{
	struct record r;

	memset(&r, 0, sizeof(r));
	r.type = REC_COUNTER, r.ts = ts;
	r.counter.source = SRC_MEMCGS, r.counter.seq = seq, r.counter.instance = path;
	r.counter.key = key, r.counter.value = v;
	oom_model_add(m, &r);
}

static void setting(uint64_t ts, uint64_t seq, const char *path, const char *key,
		    const char *v)
{
	struct record r;

	memset(&r, 0, sizeof(r));
	r.type = REC_SETTING, r.ts = ts;
	r.setting.source = SRC_MEMCGS, r.setting.seq = seq, r.setting.instance = path;
	r.setting.key = key, r.setting.value = v;
	oom_model_add(m, &r);
}

static void set_end(uint64_t ts, uint64_t seq)
{
	struct record r;

	memset(&r, 0, sizeof(r));
	r.type = REC_SAMPLE_END, r.ts = ts, r.send.seq = seq;
	oom_model_add(m, &r);
}

/* one set: /app's usage, pgfault, oomd_kill (-1: not written) */
static void app(uint64_t ts, uint64_t seq, int64_t usage, int64_t pgfault, int64_t oomd)
{
	counter(ts, seq, "/app", "usage", usage);
	counter(ts, seq, "/app", "pgfault", pgfault);
	counter(ts, seq, "/app", "pgmajfault", 3);
	if (oomd >= 0)
		counter(ts, seq, "/app", "oomd_kill", oomd);
	counter(ts, seq, "/other", "usage", 7);
	set_end(ts + 1000, seq);
}

static void sigkill(uint64_t ts, int from, const char *comm, int to, int cgroup)
{
	struct record r;

	memset(&r, 0, sizeof(r));
	r.type = REC_SIGNAL, r.ts = ts, r.pid = from, r.comm = comm, r.cgroup = cgroup;
	r.sig.sig = 9, r.sig.code = 0, r.sig.group = 1;
	r.sig.target = to, r.sig.target_comm = "victim";
	oom_model_add(m, &r);
}

static void victim(uint64_t ts, int by, int pid, int cgroup)
{
	struct record r;

	memset(&r, 0, sizeof(r));
	r.type = REC_OOM, r.ts = ts, r.pid = by, r.comm = "hog", r.cgroup = cgroup;
	r.oom.kind = OOM_VICTIM, r.oom.victim = pid, r.oom.victim_comm = "hog";
	r.oom.anon_rss_kb = r.oom.total_vm_kb = r.oom.file_rss_kb = -1;
	r.oom.shmem_rss_kb = r.oom.uid = -1, r.oom.oom_score_adj = INT64_MIN;
	oom_model_add(m, &r);
}

static void fresh(void)
{
	oom_model_free(m);
	m = oom_model_new_window(10 * S);
	oom_model_set_cgroup_path(m, path_of, NULL);
}

static void test_sample(void)
{
	const struct oom_kill *k;
	char name[48];

	fresh();
	counter(1 * S, 0, "/app", "limit", 1000);	/* limits: not every set */
	app(1 * S, 0, 100, 10, -1);
	app(5 * S, 1, 500, 40, -1);
	app(12 * S, 2, 900, 100, -1);
	counter(13 * S, 3, "/app", "usage", 990);	/* its set never ends */
	sigkill(13 * S + 500 * MS, 10, "killer", 20, 1);
	k = oom_model_any(m, 0);
	is_str(k->cg.path, "/app", "the victim's cgroup's samples found by its path");
	is_int(k->cg.usage_bytes, 900, "usage: the last sample of a set that ended");
	is_int(k->cg.limit_bytes, 1000, "limit: its last value, from an earlier set");
	is_int(k->cg.sample_ts, 12 * S, "the sample's time: its line's");
	is_int(k->cg.first_ts, 5 * S, "the first in the window (3.5 s .. 13.5 s)");
	is_int(k->cg.stat_delta[KC_pgfault], 60, "pgfault delta over the window");
	is_int(k->cg.stat_delta[KC_pgmajfault], 0, "a count that did not move: 0");
	is_int(k->cg.stat_delta[KC_pgscan], -1, "a count not sampled (v1 pgscan): unknown");
	is_str(oom_kill_killer(k, name, (int)sizeof(name)), "other:killer", "no xattr: other");

	sigkill(14 * S, 10, "killer", 21, 2);
	k = oom_model_any(m, 1);
	is_str(k->cg.path, "/other", "another cgroup");
	is_int(k->cg.limit_bytes, -1, "its limit never read: unknown");
	is_int(k->cg.first_ts, 5 * S, "...its deltas' first sample");
	is_int(k->cg.stat_delta[KC_pgfault], -1, "...no pgfault in its samples");
	sigkill(14 * S, 10, "killer", 22, 3);
	ok(!oom_model_any(m, 2)->cg.path, "a cgroup never sampled: no sample");
	sigkill(14 * S, 10, "killer", 23, 0);
	ok(!oom_model_any(m, 3)->cg.path, "victim's cgroup unknown: no sample");

	/* one sample in the window: no deltas; "max": no limit */
	fresh();
	setting(1 * S, 0, "/app", "limit", "max");
	app(1 * S, 0, 100, 10, -1);
	app(20 * S, 1, 200, 20, -1);
	sigkill(21 * S, 10, "killer", 20, 1);
	k = oom_model_any(m, 0);
	is_int(k->cg.usage_bytes, 200, "one sample in the window: its usage");
	ok(k->cg.unlimited && k->cg.limit_bytes == -1, "\"max\": unlimited, no limit bytes");
	is_int(k->cg.first_ts, 0, "one sample in the window: no deltas");
	is_int(k->cg.stat_delta[KC_pgfault], -1, "...pgfault unknown");

	/* v1's no limit, and a sample older than the window is the last */
	fresh();
	counter(1 * S, 0, "/app", "limit", INT64_MAX - 4095);
	app(1 * S, 0, 100, 10, -1);
	sigkill(30 * S, 10, "killer", 20, 1);
	k = oom_model_any(m, 0);
	ok(k->cg.unlimited && k->cg.limit_bytes == -1, "v1's huge limit: unlimited");
	is_int(k->cg.sample_ts, 1 * S, "the last sample, however old");
	sigkill(500 * MS, 10, "killer", 20, 1);
	ok(!oom_model_any(m, 1)->cg.path, "a kill before the first sample: none");
	oom_model_free(m);
	m = NULL;
}

static void test_oomd(void)
{
	const struct oom_kill *k;
	char name[48];

	fresh();
	app(1 * S, 0, 100, 10, -1);	/* no xattr yet: 0 */
	sigkill(1 * S + 300 * MS, 10, "sd-worker", 20, 1);
	app(2 * S, 1, 100, 10, 2);
	k = oom_model_any(m, 0);
	is_str(oom_kill_killer(k, name, (int)sizeof(name)), "systemd-oomd",
	       "oomd_kill rose across the SIGKILL: systemd-oomd, whatever the sender's name");
	ok(k->oomd_xattr && k->oomd.before == 0 && k->oomd.after == 2, "...the evidence");
	is_int(k->oomd.after_ts, 2 * S, "...the sample after");
	is_str(k->by_comm, "sd-worker", "...the sender's name kept");

	sigkill(2 * S + 100 * MS, 10, "sd-worker", 21, 1);
	app(3 * S, 2, 100, 10, 2);
	is_str(oom_kill_killer(oom_model_any(m, 1), name, (int)sizeof(name)), "other:sd-worker",
	       "no rise: not systemd-oomd");
	sigkill(3 * S + 100 * MS, 10, "sd-worker", 22, 1);
	app(20 * S, 3, 100, 10, 3);
	is_str(oom_kill_killer(oom_model_any(m, 2), name, (int)sizeof(name)), "other:sd-worker",
	       "a rise seen too long after: not systemd-oomd");
	sigkill(21 * S, 10, "sd-worker", 23, 0);
	app(22 * S, 4, 100, 10, 9);
	is_str(oom_kill_killer(oom_model_any(m, 3), name, (int)sizeof(name)), "other:sd-worker",
	       "victim's cgroup unknown: not systemd-oomd");

	/* the kernel's OOM kill with its own SIGKILL: stays the kernel's */
	sigkill(23 * S, 30, "hog", 31, 1);
	victim(23 * S + 10, 30, 31, 1);
	app(24 * S, 5, 100, 10, 12);
	is_str(oom_kill_killer(oom_model_any(m, 4), name, (int)sizeof(name)), "kernel-oom",
	       "an OOM kill is not renamed by a rise");

	/* a set taken between the SIGKILLs and oomd's xattr write: the
	 * second sample after shows the rise; the third is too late */
	fresh();
	app(1 * S, 0, 100, 10, 4);
	sigkill(1 * S + 300 * MS, 10, "sd-worker", 20, 1);
	app(2 * S, 1, 100, 10, 4);
	app(3 * S, 2, 100, 10, 5);
	k = oom_model_any(m, 0);
	is_str(oom_kill_killer(k, name, (int)sizeof(name)), "systemd-oomd",
	       "the rise in the second sample after the kill: systemd-oomd");
	ok(k->oomd.before == 4 && k->oomd.after == 5 && k->oomd.after_ts == 3 * S,
	   "...the evidence: 4 -> 5 at 3 s");
	sigkill(3 * S + 300 * MS, 10, "sd-worker", 21, 1);
	app(4 * S, 3, 100, 10, 5);
	app(5 * S, 4, 100, 10, 5);
	app(6 * S, 5, 100, 10, 6);
	is_str(oom_kill_killer(oom_model_any(m, 1), name, (int)sizeof(name)), "other:sd-worker",
	       "the rise only in the third sample after: not systemd-oomd");

	/* oomd killed /app recursively: the victim in /app/sub/leaf, not
	 * sampled itself; /app's xattr rose. A rise on /other is no one's. */
	fresh();
	app(1 * S, 0, 100, 10, 1);
	sigkill(1 * S + 300 * MS, 10, "sd-worker", 20, 4);
	sigkill(1 * S + 300 * MS, 10, "sd-worker", 21, 2);
	counter(2 * S, 1, "/app", "oomd_kill", 3);
	counter(2 * S, 1, "/other", "oomd_kill", 5);
	set_end(2 * S + 1000, 1);
	k = oom_model_any(m, 0);
	is_str(oom_kill_killer(k, name, (int)sizeof(name)), "systemd-oomd",
	       "an ancestor's rise (the kill is recursive): systemd-oomd");
	ok(k->oomd_xattr && k->oomd.path && !strcmp(k->oomd.path, "/app") &&
	   k->oomd.before == 1 && k->oomd.after == 3, "...the evidence names /app, 1 -> 3");
	ok(!k->cg.path, "...its own cgroup has no sample");
	k = oom_model_any(m, 1);
	ok(k->oomd_xattr && !strcmp(k->oomd.path, "/other") && k->oomd.before == 0,
	   "/other's first xattr (absent before: 0): its own cgroup named");
	app(3 * S, 2, 100, 10, 3);
	sigkill(3 * S + 300 * MS, 10, "sd-worker", 22, 4);
	counter(4 * S, 3, "/other", "oomd_kill", 6);
	counter(4 * S, 3, "/app", "oomd_kill", 3);
	set_end(4 * S + 1000, 3);
	app(5 * S, 4, 100, 10, 3);
	is_str(oom_kill_killer(oom_model_any(m, 2), name, (int)sizeof(name)), "other:sd-worker",
	       "a rise on a cgroup not its ancestor: not systemd-oomd");

	/* no sample before the kill: no rise to see */
	fresh();
	sigkill(1 * S, 10, "sd-worker", 20, 1);
	app(2 * S, 0, 100, 10, 5);
	is_str(oom_kill_killer(oom_model_any(m, 0), name, (int)sizeof(name)), "other:sd-worker",
	       "no sample before: not systemd-oomd");
	oom_model_free(m);
	m = NULL;
}

/* one set: events_oom_kill of /a, /a/b, /c (-1: not written) */
static void counts(uint64_t ts, uint64_t seq, int64_t a, int64_t ab, int64_t c)
{
	counter(ts, seq, "/a", "usage", 10);
	counter(ts, seq, "/a", "limit", 100);
	if (a >= 0)
		counter(ts, seq, "/a", "events_oom_kill", a);
	counter(ts, seq, "/a/b", "usage", 20);
	counter(ts, seq, "/a/b", "limit", 40);
	if (ab >= 0)
		counter(ts, seq, "/a/b", "events_oom_kill", ab);
	counter(ts, seq, "/c", "usage", 30);
	if (c >= 0)
		counter(ts, seq, "/c", "events_oom_kill", c);
	set_end(ts + 1000, seq);
}

static void test_by_count(void)
{
	const struct oom_kill *k;

	fresh();
	counts(1 * S, 0, 0, 0, 0);
	victim(1 * S + 100 * MS, 5, 6, 0);
	ok(!oom_model_kill(m, 0)->cg.path, "an OOM kill of unknown cgroup: none at first");
	counts(2 * S, 1, 1, 1, 0);	/* v2: the ancestor counts it too */
	k = oom_model_kill(m, 0);
	is_str(k->cg.path, "/a/b", "the deepest memcg whose OOM kill count rose");
	ok(k->cg_by_count, "...marked as found by the count");
	is_int(k->cg.usage_bytes, 20, "...its sample before the kill");
	is_int(k->cg.limit_bytes, 40, "...its limit");

	victim(3 * S, 5, 7, 0);
	counts(4 * S, 2, 2, 1, 1);	/* /a and /c: unrelated */
	ok(!oom_model_kill(m, 1)->cg.path, "two unrelated memcgs rose: none");
	victim(5 * S, 5, 8, 0);
	counts(6 * S, 3, 2, 1, 1);
	ok(!oom_model_kill(m, 2)->cg.path, "no count rose: none");
	victim(7 * S, 5, 9, 1);
	counts(8 * S, 4, 3, 2, 1);
	k = oom_model_kill(m, 3);
	ok(!k->cg.path && !k->cg_by_count,
	   "victim's cgroup known (/app, not sampled): not guessed from the counts");
	victim(9 * S, 5, 10, 0);
	counts(25 * S, 5, 4, 3, 1);
	ok(!oom_model_kill(m, 4)->cg.path, "the set after too late: none");
	victim(26 * S, 5, 11, 0);
	counts(27 * S, 6, -1, -1, -1);
	ok(!oom_model_kill(m, 5)->cg.path, "no counts sampled: none");
	oom_model_free(m);
	m = NULL;
}

static void test_bad(void)
{
	struct record r;

	fresh();
	counter(1 * S, 0, "", "usage", 5);
	counter(1 * S, 0, "(other cgroups)", "usage", 5);
	counter(1 * S, 0, "/app", "usage", -5);
	counter(1 * S, 0, "/app", "limit", -1);
	setting(1 * S, 0, "/app", "limit", "bogus");
	memset(&r, 0, sizeof(r));
	r.type = REC_COUNTER, r.ts = S, r.counter.source = SRC_MEMCGS;
	oom_model_add(m, &r);	/* no path, no key */
	set_end(2 * S, 0);
	set_end(3 * S, 7);
	for (int i = 0; i < 2000; i++)	/* more than a cgroup keeps */
		app((uint64_t)(4 + i) * MS, (uint64_t)(1 + i), i, i, -1);
	sigkill(5 * S, 10, "x", 20, 1);
	ok(oom_model_any(m, 0)->cg.path != NULL, "bad values and a long run: no crash");
	oom_model_free(m);
	m = NULL;
}

int main(void)
{
	test_sample();
	test_oomd();
	test_by_count();
	test_bad();
	return tap_done();
}
