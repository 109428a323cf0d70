// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Counters model on hand-built sample sets: first and last, the largest
 * step, and the peak of a gauge with its time (swap used rising to 1 GB
 * and back to 40 kB as the workload exits), the limit from the limit key
 * of the same instance, cgroup v1's "no limit", a set cut short that
 * never counts, and which keys are gauges.
 */
#include "config.h"
#include "model-counters.h"
#include "tap.h"

#include <stdint.h>

#define MS 1000000ULL

static struct counters_model *m;

static void value(uint64_t t, uint64_t seq, enum sample_source src, const char *inst,
		  const char *key, int64_t v)
{
	struct record r = { .type = REC_COUNTER, .ts = t * MS };

	r.counter.source = src;
	r.counter.seq = seq;
	r.counter.instance = inst;
	r.counter.key = key;
	r.counter.value = v;
	counters_model_add(m, &r);
}

static void end(uint64_t t, uint64_t seq)
{
	struct record r = { .type = REC_SAMPLE_END, .ts = t * MS };

	r.send.seq = seq;
	counters_model_add(m, &r);
}

/* swap used (kB) of /dev/vdb: 0, 1 GB at 200 ms, 40 kB at the end */
static void swap_set(uint64_t t, uint64_t seq, int64_t used, int ended)
{
	value(t, seq, SRC_SWAP, "/dev/vdb", "size", 2097148);
	value(t, seq, SRC_SWAP, "/dev/vdb", "used", used);
	value(t, seq, SRC_MEMCG, "/sys/fs/cgroup/a", "usage", used * 1024);
	value(t, seq, SRC_MEMCG, "/sys/fs/cgroup/a", "limit", 536870912);
	value(t, seq, SRC_MEMCG, "/sys/fs/cgroup/b", "usage", 4096);
	value(t, seq, SRC_MEMCG, "/sys/fs/cgroup/b", "limit", 9223372036854771712LL);
	value(t, seq, SRC_VMSTAT, "", "pswpout", used / 4);
	if (ended)
		end(t, seq);
}

static void test_peak(void)
{
	const struct counter *c;
	int64_t limit = -1;
	int unlimited = -1;

	m = counters_model_new();
	swap_set(100, 1, 0, 1);
	swap_set(200, 2, 1048576, 1);
	swap_set(300, 3, 1048576, 1);	/* the peak again: the first time stays */
	swap_set(350, 4, 4000000, 0);	/* never ended: never counts */
	swap_set(400, 5, 40, 1);
	c = counters_model_find(m, SRC_SWAP, "/dev/vdb", "used");
	ok(c != NULL, "swap used found");
	is_int(c->first, 0, "swap used: first");
	is_int(c->last, 40, "swap used: last");
	is_int(c->peak, 1048576, "swap used: peak, not first -> last");
	is_int((int)(c->peak_ts / MS), 200, "swap used: peak first reached at 200 ms");
	is_int(c->max_step, 1048576, "swap used: largest step (0 -> 1 GB)");
	ok(counters_model_limit(m, c, &limit, &unlimited) == 1, "swap used: limit known");
	is_int(limit, 2097148, "swap used: limit is the device size");
	is_int(unlimited, 0, "swap used: a real limit");
	is_str(counters_gauge(SRC_SWAP, "used")->unit, "kB", "swap used: in kB");

	c = counters_model_find(m, SRC_MEMCG, "/sys/fs/cgroup/a", "usage");
	is_int(c->peak, 1048576LL * 1024, "memcg usage: peak");
	ok(counters_model_limit(m, c, &limit, &unlimited) == 1 && limit == 536870912,
	   "memcg usage: limit from the same cgroup's limit key");
	is_str(counters_gauge(SRC_MEMCG, "usage")->unit, "bytes", "memcg usage: in bytes");
	c = counters_model_find(m, SRC_MEMCG, "/sys/fs/cgroup/b", "usage");
	ok(counters_model_limit(m, c, &limit, &unlimited) == 1 && unlimited == 1,
	   "memcg usage: v1 LONG_MAX is no limit");

	c = counters_model_find(m, SRC_VMSTAT, "", "pswpout");
	ok(counters_gauge(c->source, c->key) == NULL, "pswpout is a count, not a gauge");
	ok(counters_model_limit(m, c, &limit, &unlimited) == 0, "pswpout: no limit");
	ok(counters_gauge(SRC_ZSWAP, "stored_pages") != NULL &&
	   !counters_gauge(SRC_ZSWAP, "written_back_pages"),
	   "zswap: stored pages a gauge, written back a count");
	is_int((int)counters_model_nsets(m), 4, "four complete sets");
	{
		uint64_t after = 0, gap = counters_model_max_gap(m, &after);

		/* 100, 200, 300, (350 never ended), 400 ms: gaps of 100 ms */
		is_int((int)(gap / MS), 100, "longest time between sets: 100 ms");
		is_int((int)(after / MS), 100, "the first such gap begins at 100 ms");
	}
	counters_model_free(m);

	m = counters_model_new();
	swap_set(100, 1, 0, 1);
	{
		uint64_t after = 7;

		is_int((int)counters_model_max_gap(m, &after), 0, "one set: no gap (unknown)");
	}
	swap_set(150, 2, 0, 1);
	swap_set(3800, 3, 0, 1);	/* a starved sampler */
	swap_set(3900, 4, 0, 1);
	{
		uint64_t after = 0, gap = counters_model_max_gap(m, &after);

		is_int((int)(gap / MS), 3650, "a 3.65 s hole found");
		is_int((int)(after / MS), 150, "after the set at 150 ms");
	}
	counters_model_free(m);
}

/* A gauge without its limit key: the limit is unknown. */
static void test_no_limit(void)
{
	const struct counter *c;
	int64_t limit = -1;
	int unlimited = -1;

	m = counters_model_new();
	value(10, 1, SRC_MEMCG, "/x", "usage", 100);
	end(10, 1);
	value(20, 2, SRC_MEMCG, "/x", "usage", 50);
	end(20, 2);
	c = counters_model_find(m, SRC_MEMCG, "/x", "usage");
	is_int(c->peak, 100, "no limit key: peak is the first value");
	is_int((int)(c->peak_ts / MS), 10, "no limit key: peak at the first set");
	ok(counters_model_limit(m, c, &limit, &unlimited) == 0, "no limit key: unknown");
	counters_model_free(m);
}

int main(void)
{
	test_peak();
	test_no_limit();
	return tap_done();
}
