// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Every kill and the window before it, on hand-written records through
 * the OOM model: the kernel's OOM kill is one kill with its own SIGKILL
 * (sent first, by the task that ran the OOM killer, or by the victim to
 * itself), the killers' names (memcg-oom, kernel-oom, systemd-oomd,
 * earlyoom, other:COMM), SIGKILLs that are no kill (not delivered, to
 * itself, to the processes sharing an OOM victim's memory, another
 * signal), and the window's edges: stalls by their time inside it, open
 * ones up to the kill, compaction runs by their end, the last complete
 * sample set's swap and tasks, the last PSI sample.
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

static void feed(struct record *r)
{
	oom_model_add(m, r);
}

static void sigkill(uint64_t ts, int from, const char *comm, int to, int code, int result)
{
	struct record r;

	memset(&r, 0, sizeof(r));
	r.type = REC_SIGNAL, r.ts = ts, r.pid = from, r.comm = comm;
	r.sig.sig = 9, r.sig.code = code, r.sig.result = result, r.sig.group = 1;
	r.sig.target = to, r.sig.target_comm = "victim";
	feed(&r);
}

static void victim(uint64_t ts, int by, int pid, int cgroup)
{
	struct record r;

	memset(&r, 0, sizeof(r));
	r.type = REC_OOM, r.ts = ts, r.pid = by, r.comm = "hog", r.cgroup = cgroup;
	r.oom.kind = OOM_VICTIM, r.oom.victim = pid, r.oom.victim_comm = "hog";
	r.oom.anon_rss_kb = r.oom.total_vm_kb = r.oom.file_rss_kb = -1;
	r.oom.shmem_rss_kb = r.oom.uid = -1, r.oom.oom_score_adj = INT64_MIN;
	feed(&r);
}

static void stall(uint64_t b, uint64_t e, int pid, enum reclaim_kind kind, int cgroup)
{
	struct record r;

	memset(&r, 0, sizeof(r));
	r.type = REC_RECLAIM_BEGIN, r.ts = b, r.pid = pid, r.cgroup = cgroup;
	r.rbegin.kind = kind;
	feed(&r);
	if (!e)
		return;		/* left open */
	r.type = REC_RECLAIM_END, r.ts = e;
	r.rend.kind = kind;
	feed(&r);
}

static void run(uint64_t b, uint64_t e, int pid, int status)
{
	struct record r;

	memset(&r, 0, sizeof(r));
	r.type = REC_COMPACT_BEGIN, r.ts = b, r.pid = pid;
	feed(&r);
	r.type = REC_COMPACT_END, r.ts = e;
	r.crun.status = status;
	feed(&r);
}

static void counter(uint64_t ts, enum sample_source src, uint64_t seq, const char *inst,
		    const char *key, int64_t v, int scale)
{
	struct record r;

	memset(&r, 0, sizeof(r));
	r.type = REC_COUNTER, r.ts = ts;
	r.counter.source = src, r.counter.seq = seq, r.counter.instance = inst;
	r.counter.key = key, r.counter.value = v, r.counter.scale = scale;
	feed(&r);
}

static void task_comm(uint64_t ts, uint64_t seq, const char *rank, const char *comm)
{
	struct record r;

	memset(&r, 0, sizeof(r));
	r.type = REC_SETTING, r.ts = ts;
	r.setting.source = SRC_TASKS, r.setting.seq = seq, r.setting.instance = rank;
	r.setting.key = "comm", r.setting.value = comm;
	feed(&r);
}

static void set_end(uint64_t ts, uint64_t seq)
{
	struct record r;

	memset(&r, 0, sizeof(r));
	r.type = REC_SAMPLE_END, r.ts = ts, r.send.seq = seq;
	feed(&r);
}

static const char *killer(int i)
{
	static char buf[48];

	return oom_kill_killer(oom_model_any(m, i), buf, (int)sizeof(buf));
}

static void test_killers(void)
{
	struct oom_sigkills s;
	const struct oom_kill *k;

	m = oom_model_new();
	/* a memcg OOM run by task 10: its SIGKILL to 11, then mark_victim */
	stall(1 * S, 1 * S + 5 * MS, 10, RK_MEMCG, 0);
	sigkill(2 * S, 10, "hog", 11, 0x80, 0);
	victim(2 * S + 20000, 10, 11, 0);
	/* the victim ran the OOM killer itself: a SIGKILL to itself first */
	stall(3 * S, 3 * S + MS, 20, RK_DIRECT, 0);
	sigkill(4 * S, 20, "hog", 20, 0x80, 0);
	victim(4 * S + 1000, 20, 20, 0);
	/* ... and killed another process sharing its memory after */
	sigkill(4 * S + 2000, 20, "hog", 21, 0x80, 0);
	/* a sysrq-like kill: no reclaim, no signal seen */
	victim(5 * S, 30, 31, 0);
	/* processes' kills */
	sigkill(6 * S, 40, "bash", 41, 0, 0);
	sigkill(7 * S, 50, "systemd-oomd", 51, 0, 0);
	sigkill(8 * S, 60, "earlyoom", 61, 0, 4);	/* delivered, info lost */
	sigkill(9 * S, 70, "<...>", 71, 0, 0);
	/* not kills */
	sigkill(10 * S, 80, "bash", 41, 0, 2);		/* already pending */
	sigkill(11 * S, 80, "bash", 1, 0, 1);		/* ignored */
	sigkill(12 * S, 80, "bash", 80, 0, 0);		/* to itself */
	{
		struct record r;

		memset(&r, 0, sizeof(r));
		r.type = REC_SIGNAL, r.ts = 13 * S, r.pid = 80, r.comm = "bash";
		r.sig.sig = 15, r.sig.target = 41, r.sig.result = 0;
		feed(&r);				/* SIGTERM */
	}
	/* the OOM killer's SIGKILL long before an unrelated mark_victim of
	 * the same victim: two kills */
	sigkill(14 * S, 90, "bash", 91, 0, 0);
	victim(14 * S + 2 * KILL_MATCH_NS, 90, 91, 0);

	/* the same OOM-running task kills again right after: its SIGKILL
	 * looked like one to a sharer of the last victim until mark_victim */
	stall(15 * S, 15 * S + MS, 100, RK_MEMCG, 0);
	sigkill(15 * S + 2 * MS, 100, "hog", 101, 0x80, 0);
	victim(15 * S + 2 * MS + 500, 100, 101, 0);
	sigkill(15 * S + 3 * MS, 100, "hog", 102, 0x80, 0);
	victim(15 * S + 3 * MS + 500, 100, 102, 0);
	is_int(oom_model_nall(m), 11, "every kill: 5 OOM kills, 5 by processes, one late OOM");
	is_int(oom_model_nkills(m), 6, "the kernel's OOM kills");
	is_str(killer(0), "memcg-oom", "the memcg OOM kill and its SIGKILL: one kill, memcg-oom");
	k = oom_model_any(m, 0);
	ok(k->oom && k->signalled && k->code == 0x80 && k->pid == 11 && k->by_pid == 10 &&
	   k->ts == 2 * S + 20000, "... at mark_victim's time, its signal seen");
	is_str(killer(1), "kernel-oom", "after a direct reclaim: kernel-oom");
	k = oom_model_any(m, 1);
	ok(k->signalled && k->also_killed == 1, "... its SIGKILL to itself seen, one sharer killed");
	is_str(killer(2), "kernel-oom", "no reclaim seen: kernel-oom (constraint unknown)");
	ok(!oom_model_any(m, 2)->signalled, "... no signal");
	is_str(killer(3), "other:bash", "kill -9 from bash");
	is_str(killer(4), "systemd-oomd", "systemd-oomd by its name");
	is_str(killer(5), "earlyoom", "earlyoom, delivered without its info");
	is_str(killer(6), "other:?", "a sender of unknown name");
	is_str(killer(7), "other:bash", "a SIGKILL long before a mark_victim: its own kill");
	is_str(killer(8), "kernel-oom", "... and the mark_victim its own");
	is_str(killer(9), "memcg-oom", "two OOM kills by one task in a row: the first");
	k = oom_model_any(m, 9);
	ok(k->signalled && k->also_killed == 0 && k->pid == 101,
	   "... the second's SIGKILL not taken for a sharer's");
	is_str(killer(10), "memcg-oom", "... the second");
	ok(oom_model_any(m, 10)->signalled, "... its SIGKILL seen");
	oom_model_sigkills(m, &s);
	is_int(s.seen, 13, "SIGKILLs seen (SIGTERM not)");
	is_int(s.kills, 8, "delivered to other tasks");
	is_int(s.oom, 3, "three of them the OOM killer's");
	is_int(s.self, 2, "to themselves");
	is_int(s.pending, 1, "already pending");
	is_int(s.ignored, 1, "ignored");
	is_int(s.also_killed, 1, "sharing an OOM victim's memory");
	oom_model_free(m);
}

static void test_window(void)
{
	const struct kill_before *b;
	uint64_t k = 100 * S;		/* the kill; window 1 s: [99 s, 100 s] */

	m = oom_model_new_window(S);
	is_int((long long)oom_model_window_ns(m), (long long)S, "window as asked");
	stall(50 * S, 50 * S + MS, 1, RK_DIRECT, 0);		/* long before */
	stall(98 * S, 99 * S, 2, RK_DIRECT, 0);		/* ends at the edge: out */
	stall(98 * S + 500 * MS, 99 * S + 500 * MS, 3, RK_DIRECT, 5);	/* 500 ms in */
	stall(99 * S + 100 * MS, 99 * S + 300 * MS, 4, RK_MEMCG, 5);	/* 200 ms */
	stall(99 * S + 200 * MS, 99 * S + 210 * MS, 6, RK_MEMCG, 7);	/* 10 ms, other cg */
	stall(99 * S + 800 * MS, 0, 8, RK_MEMCG, 5);			/* open: 200 ms */
	stall(99 * S + 900 * MS, 99 * S + 950 * MS, 9, RK_SOFTLIMIT, 5);	/* not a stall kind */
	run(98 * S, 98 * S + 900 * MS, 1, 8);	/* ended before: out */
	run(98 * S, 99 * S + 100 * MS, 1, 8);	/* ended inside: success */
	run(99 * S + 500 * MS, 99 * S + 600 * MS, 2, 5);	/* complete: a failure */
	counter(99 * S, SRC_PSI, 3, "", "some_avg10", 1234, 2);
	counter(99 * S, SRC_PSI, 3, "", "full_avg10", 5, 1);	/* 0.5 */
	counter(99 * S, SRC_SWAP, 3, "/dev/a", "size", 1000, 0);
	counter(99 * S, SRC_SWAP, 3, "/dev/a", "used", 250, 0);
	counter(99 * S, SRC_SWAP, 3, "/dev/b", "size", 1000, 0);
	counter(99 * S, SRC_SWAP, 3, "/dev/b", "used", 0, 0);
	counter(99 * S, SRC_TASKS, 3, "0", "pid", 42, 0);
	task_comm(99 * S, 3, "0", "big one");
	counter(99 * S, SRC_TASKS, 3, "0", "rss_kb", 9000, 0);
	counter(99 * S, SRC_TASKS, 3, "0", "swap_kb", 100, 0);
	counter(99 * S, SRC_TASKS, 3, "1", "pid", 43, 0);
	counter(99 * S, SRC_TASKS, 3, "1", "rss_kb", 800, 0);
	counter(99 * S, SRC_TASKS, 3, "", "procs", 99, 0);
	set_end(99 * S, 3);
	/* a set begun before the kill and ended after: not used */
	counter(99 * S + 990 * MS, SRC_SWAP, 4, "/dev/a", "size", 1000, 0);
	counter(99 * S + 990 * MS, SRC_SWAP, 4, "/dev/a", "used", 1000, 0);
	counter(99 * S + 990 * MS, SRC_TASKS, 4, "0", "pid", 44, 0);
	victim(k, 8, 8, 5);
	set_end(k + MS, 4);
	b = &oom_model_kill(m, 0)->before;
	is_int(b->direct_stalls, 1, "direct stalls with time in the window (not one ending at its start)");
	is_int(b->direct_stall_ns, (long long)(500 * MS), "... their time inside it");
	is_int(b->memcg_stalls, 3, "memcg stalls, the one open at the kill too");
	is_int(b->memcg_stall_ns, (long long)(410 * MS), "... 200 + 10 + 200 (open: up to the kill)");
	is_int(b->cg_direct_stalls, 1, "in the victim's cgroup: direct");
	is_int(b->cg_memcg_stalls, 2, "in the victim's cgroup: memcg");
	is_int(b->cg_memcg_stall_ns, (long long)(400 * MS), "... their time");
	is_int(b->compaction_runs, 2, "compaction runs that ended inside");
	is_int(b->compaction_failures, 1, "... one of them not a success");
	is_int(b->psi_some_x100, 1234, "PSI some avg10, percent x 100");
	is_int(b->psi_full_x100, 50, "PSI full avg10 of one decimal");
	is_int(b->swap_size_kb, 2000, "swap of the last complete set: both devices");
	is_int(b->swap_used_kb, 250, "... used");
	is_int(b->ntasks, 2, "the last complete snapshot's tasks");
	ok(b->task[0].pid == 42 && !strcmp(b->task[0].comm, "big one") &&
	   b->task[0].rss_kb == 9000 && b->task[0].swap_kb == 100 && b->task[1].pid == 43 &&
	   b->task[1].swap_kb == -1, "... pid, name, rss and swap; swap unknown when absent");
	is_int(b->tasks_ts, (long long)(99 * S), "... its time");
	ok(!b->clipped, "the window is inside the recording");
	oom_model_free(m);

	/* no victim cgroup: its figures unknown; a window before the start */
	m = oom_model_new_window(10 * S);
	stall(1 * S, 2 * S, 1, RK_DIRECT, 0);
	victim(3 * S, 1, 1, 0);
	b = &oom_model_kill(m, 0)->before;
	ok(b->direct_stalls == 1 && b->cg_direct_stalls == -1 && b->cg_memcg_stall_ns == -1,
	   "victim's cgroup unknown: its figures unknown");
	ok(b->clipped, "a window reaching before the first record is clipped");
	ok(b->psi_some_x100 == -1 && b->swap_size_kb == -1 && !b->tasks_ts && b->zswap_pool_bytes == -1,
	   "no samples: unknown");
	set_end(4 * S, 0);		/* a set without swap lines: no device */
	victim(5 * S, 1, 1, 0);
	b = &oom_model_kill(m, 1)->before;
	ok(b->swap_size_kb == 0 && b->swap_used_kb == 0, "a complete set without swap lines: no swap");
	{
		struct record r;

		memset(&r, 0, sizeof(r));
		r.type = REC_SETTING, r.ts = 6 * S;
		r.setting.source = SRC_MISSING, r.setting.key = "sources";
		r.setting.value = "mthp,swap";
		feed(&r);
	}
	set_end(6 * S, 1);
	victim(7 * S, 1, 1, 0);
	b = &oom_model_kill(m, 2)->before;
	ok(b->swap_size_kb == 0, "... kept after the source is said missing (the last known)");
	oom_model_free(m);
	m = oom_model_new_window(10 * S);
	{
		struct record r;

		memset(&r, 0, sizeof(r));
		r.type = REC_SETTING, r.ts = 1;
		r.setting.source = SRC_MISSING, r.setting.key = "sources";
		r.setting.value = "swap";
		feed(&r);
	}
	set_end(2, 0);
	victim(3, 1, 1, 0);
	ok(oom_model_kill(m, 0)->before.swap_size_kb == -1, "/proc/swaps missing: swap unknown");
	oom_model_free(m);
}

int main(void)
{
	test_killers();
	test_window();
	return tap_done();
}
