// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kernel stacks model on hand-built records: a stack right after a
 * reclaim begin on the same CPU and task belongs to that stall; one after
 * another record on that CPU, from another task, or with no begin is not
 * attached; distinct stacks by address with count, total and max; the
 * order of the top stacks (longest stall first); direct compaction runs
 * take the stack of the try before them (within 1 s, not khugepaged's);
 * the tracepoint's own frames are skipped for display.
 */
#include "config.h"
#include "model-stacks.h"
#include "tap.h"

#include <string.h>

#define US 1000ULL
#define MS 1000000ULL

static const struct model_ops *ops = &stacks_model_ops;
static void *m;

static void feed(struct record *r)
{
	ops->add(m, r);
}

static void begin(uint64_t ts, int cpu, int pid, enum reclaim_kind k)
{
	struct record r = { .type = REC_RECLAIM_BEGIN, .ts = ts, .cpu = cpu, .pid = pid };

	r.rbegin.kind = k;
	feed(&r);
}

static void end(uint64_t ts, int cpu, int pid, enum reclaim_kind k)
{
	struct record r = { .type = REC_RECLAIM_END, .ts = ts, .cpu = cpu, .pid = pid };

	r.rend.kind = k;
	feed(&r);
}

/* A stack of n frames: the tracepoint's, then base + 1 .. */
static void stack(uint64_t ts, int cpu, int pid, uint64_t base, int n)
{
	uint64_t addr[8], off[8];
	const char *func[8];
	struct record r = { .type = REC_KERNEL_STACK, .ts = ts, .cpu = cpu, .pid = pid };

	for (int i = 0; i < n; i++) {
		addr[i] = base + (uint64_t)i * 0x100 + 0x10;
		off[i] = 0x10;
		func[i] = i == 0 ? "trace_event_raw_event_mm_vmscan_direct_reclaim_begin_template" :
			  i == 1 ? "try_to_free_mem_cgroup_pages" : NULL;
	}
	r.kstack.nframes = n;
	r.kstack.addr = addr;
	r.kstack.off = off;
	r.kstack.func = func;
	feed(&r);
}

static void other(uint64_t ts, int cpu, int pid)
{
	struct record r = { .type = REC_LRU_ISOLATE, .ts = ts, .cpu = cpu, .pid = pid };

	feed(&r);
}

static void compact(enum rec_type t, uint64_t ts, int cpu, int pid, const char *comm)
{
	struct record r = { .type = t, .ts = ts, .cpu = cpu, .pid = pid, .comm = comm };

	feed(&r);
}

static void test_reclaim(void)
{
	const struct stack_kind_stats *ks;
	const struct kstack *top[4];
	int n;

	m = ops->create();
	/* stack A: 3 memcg stalls of 1, 2, 3 ms on CPU 1 */
	for (int i = 0; i < 3; i++) {
		uint64_t t = (uint64_t)i * 10 * MS;

		begin(t, 1, 100, RK_MEMCG);
		stack(t + 5 * US, 1, 100, 0xffffffff81000000ULL, 4);
		end(t + (uint64_t)(i + 1) * MS, 1, 100, RK_MEMCG);
	}
	/* stack B: one memcg stall of 5 ms on CPU 0, another task */
	begin(100 * MS, 0, 200, RK_MEMCG);
	stack(100 * MS + 5 * US, 0, 200, 0xffffffff82000000ULL, 5);
	end(105 * MS, 0, 200, RK_MEMCG);
	/* another record between begin and stack on that CPU: not attached */
	begin(200 * MS, 0, 300, RK_MEMCG);
	other(200 * MS + 1 * US, 0, 301);
	stack(200 * MS + 5 * US, 0, 300, 0xffffffff83000000ULL, 3);
	end(201 * MS, 0, 300, RK_MEMCG);
	/* a begin on CPU 1, the stack on CPU 0: not attached */
	begin(300 * MS, 1, 400, RK_MEMCG);
	stack(300 * MS + 5 * US, 0, 400, 0xffffffff84000000ULL, 3);
	end(301 * MS, 1, 400, RK_MEMCG);
	/* another task's stack right after a begin: not attached */
	begin(400 * MS, 1, 500, RK_DIRECT);
	stack(400 * MS + 5 * US, 1, 501, 0xffffffff85000000ULL, 3);
	end(402 * MS, 1, 500, RK_DIRECT);
	/* a direct reclaim with stack A: counted under direct only */
	begin(500 * MS, 1, 600, RK_DIRECT);
	stack(500 * MS + 5 * US, 1, 600, 0xffffffff81000000ULL, 4);
	end(507 * MS, 1, 600, RK_DIRECT);
	/* softlimit does not begin a stall here */
	begin(600 * MS, 1, 700, RK_SOFTLIMIT);
	stack(600 * MS + 5 * US, 1, 700, 0xffffffff86000000ULL, 2);

	is_int((int)stacks_model_seen(m), 9, "9 stack records");
	is_int((int)stacks_model_unattached(m), 4, "4 not after a stall begin");
	ks = stacks_model_kind(m, SK_MEMCG_RECLAIM);
	is_int((int)ks->stalls, 6, "memcg: 6 stalls");
	is_int((int)ks->with_stack, 4, "memcg: 4 with a stack");
	is_int(stacks_model_ndistinct(m, SK_MEMCG_RECLAIM), 2, "memcg: 2 distinct stacks");
	n = stacks_model_top(m, SK_MEMCG_RECLAIM, top, 4);
	is_int(n, 2, "memcg: top has both");
	ok(n == 2 && top[0]->nframes == 5 && top[0]->agg[SK_MEMCG_RECLAIM].count == 1 &&
	   top[0]->agg[SK_MEMCG_RECLAIM].max_ns == 5 * MS,
	   "memcg #1: the 5 ms stall's stack first (longest stall)");
	ok(n == 2 && top[1]->agg[SK_MEMCG_RECLAIM].count == 3 &&
	   top[1]->agg[SK_MEMCG_RECLAIM].total_ns == 6 * MS &&
	   top[1]->agg[SK_MEMCG_RECLAIM].max_ns == 3 * MS,
	   "memcg #2: 3 stalls, total 6 ms, max 3 ms");
	ok(n == 2 && top[1]->agg[SK_DIRECT_RECLAIM].count == 1 &&
	   top[1]->agg[SK_DIRECT_RECLAIM].max_ns == 7 * MS,
	   "the same stack under direct reclaim: its own count and time");
	ks = stacks_model_kind(m, SK_DIRECT_RECLAIM);
	is_int((int)ks->stalls, 2, "direct: 2 stalls");
	is_int((int)ks->with_stack, 1, "direct: 1 with a stack");
	ok(n == 2 && kstack_first_frame(top[1]) == 1 &&
	   !strcmp(top[1]->func[1], "try_to_free_mem_cgroup_pages") && !top[1]->func[2] &&
	   top[1]->off[1] == 0x10, "the tracepoint's frame skipped; names and offsets kept");
	ops->destroy(m);
}

static void test_compaction(void)
{
	const struct stack_kind_stats *ks;
	const struct kstack *top[2];

	m = ops->create();
	/* try, its stack, two runs within 1 s: both with the stack */
	compact(REC_COMPACT_TRY, 0, 0, 10, "stress");
	stack(2 * US, 0, 10, 0xffffffff87000000ULL, 3);
	compact(REC_COMPACT_BEGIN, 10 * US, 0, 10, "stress");
	compact(REC_COMPACT_END, 1 * MS, 0, 10, "stress");
	compact(REC_COMPACT_BEGIN, 2 * MS, 0, 10, "stress");
	compact(REC_COMPACT_END, 4 * MS, 0, 10, "stress");
	/* a run 2 s after the try: not direct */
	compact(REC_COMPACT_BEGIN, 2000 * MS, 0, 10, "stress");
	compact(REC_COMPACT_END, 2001 * MS, 0, 10, "stress");
	/* khugepaged's runs are not direct compaction */
	compact(REC_COMPACT_TRY, 3000 * MS, 1, 20, "khugepaged");
	stack(3000 * MS + 2 * US, 1, 20, 0xffffffff88000000ULL, 3);
	compact(REC_COMPACT_BEGIN, 3000 * MS + 10 * US, 1, 20, "khugepaged");
	compact(REC_COMPACT_END, 3001 * MS, 1, 20, "khugepaged");
	ks = stacks_model_kind(m, SK_DIRECT_COMPACT);
	is_int((int)ks->stalls, 2, "direct compaction: 2 runs");
	is_int((int)ks->with_stack, 2, "both with the try's stack");
	ok(stacks_model_top(m, SK_DIRECT_COMPACT, top, 2) == 1 &&
	   top[0]->agg[SK_DIRECT_COMPACT].total_ns == 3 * MS - 10 * US &&
	   top[0]->agg[SK_DIRECT_COMPACT].max_ns == 2 * MS,
	   "one stack: total 2.99 ms, max 2 ms");
	is_int((int)stacks_model_unattached(m), 0, "khugepaged's stack follows its try");
	ops->destroy(m);
}

int main(void)
{
	test_reclaim();
	test_compaction();
	return tap_done();
}
