// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * zswap model on hand-built records: debugfs counters, vmstat (later sets
 * carry only what changed), total RAM from the zones' managed pages for
 * the max_pool_percent limit, in-flight swap I/O summed over devices,
 * per-order zswpout, rejects by reason, probe results per operation, and
 * the memcg's zswap / zswapped bytes; the string parameters (enabled,
 * compressor, zpool) and why the pool counters are missing.
 */
#include "config.h"
#include "model-zswap.h"
#include "tap.h"
#include "sample-rec.h"

#include <string.h>

static struct zswap_model *m;
static uint64_t now;

static void feed(struct record *r)
{
	r->ts = ++now * 1000000ULL;
	zswap_model_add(m, r);
}

static void counter(enum sample_source src, const char *inst, const char *key,
		    int64_t v, uint64_t seq)
{
	struct record r = rec_counter(src, inst, key, v, seq);

	feed(&r);
}

static void setting(enum sample_source src, const char *key, const char *v, uint64_t seq)
{
	struct record r;

	memset(&r, 0, sizeof(r));
	r.type = REC_SETTING;
	r.setting.source = src;
	r.setting.seq = seq;
	r.setting.instance = "";
	r.setting.key = key;
	r.setting.value = v;
	feed(&r);
}

static void zone(int64_t managed, uint64_t seq)
{
	struct record r;

	memset(&r, 0, sizeof(r));
	r.type = REC_ZONE;
	r.zone.seq = seq;
	r.zone.managed = managed;
	feed(&r);
}

static void end(uint64_t seq)
{
	struct record r = rec_sample_end(seq);

	feed(&r);
}

/* 6.1 without debugfs: the parameters only, the sampler's reason, no zswpwb. */
static void test_no_debugfs(void)
{
	struct zswap_model *z = m;

	m = zswap_model_new();
	setting(SRC_MISSING, "sources", "mthp", 0);
	setting(SRC_MISSING, "why_zswap_pool", "debugfs_not_mounted", 0);
	setting(SRC_ZSWAP, "enabled", "N", 0);
	counter(SRC_ZSWAP, "", "max_pool_percent", 20, 0);
	setting(SRC_ZSWAP, "compressor", "lzo", 0);
	counter(SRC_VMSTAT, "", "zswpout", 0, 0);
	counter(SRC_VMSTAT, "", "pswpout", 10, 0);
	end(0);
	counter(SRC_VMSTAT, "", "pswpout", 15, 1);
	end(1);
	is_int(zswap_model_npoints(m), 2, "no debugfs: still a point per set");
	is_int(zswap_model_enabled(m), 0, "enabled=N: disabled");
	is_str(zswap_model_settings(m)->compressor, "lzo", "compressor kept");
	is_str(zswap_model_settings(m)->zpool, "", "zpool not sampled: empty");
	is_str(zswap_model_settings(m)->pool_why, "debugfs_not_mounted",
	       "why the pool counters are missing");
	ok(!zswap_model_has_pool(m), "no pool counters");
	is_int(zswap_model_point(m, 1)->stored_pages, -1, "stored pages unknown, not 0");
	is_int(zswap_model_point(m, 1)->zswpwb, -1, "zswpwb unknown, not 0");
	is_int(zswap_model_point(m, 1)->written_back, -1, "written_back unknown");
	ok(!zswap_model_counter(m, "written_back_pages"), "no debugfs counter kept");
	zswap_model_free(m);
	m = z;
}

static void probe(enum zswap_op op, int ok, int order)
{
	struct record r;

	memset(&r, 0, sizeof(r));
	r.type = REC_ZSWAP;
	r.zswap.op = op;
	r.zswap.ok = ok;
	r.zswap.order = order;
	feed(&r);
}

/* The stores zswap refused (the zswap-reject finding and compare's
 * "Zswap reject %" both read this): without the store probe, from vmstat
 * (pswpout - zswpwb, the numbers of samples/zswap-6.12.dat) before the
 * debugfs rejects, which miss the pool limit; no zswpout (5.10): the
 * share unknown; zswap off: no refusals. */
static void test_refusals(void)
{
	struct zswap_model *z = m;
	struct zswap_refusal r;

	m = zswap_model_new();
	setting(SRC_ZSWAP, "enabled", "Y", 0);
	counter(SRC_ZSWAP, "", "reject_compress_poor", 0, 0);
	counter(SRC_VMSTAT, "", "zswpout", 0, 0);
	counter(SRC_VMSTAT, "", "pswpout", 1000, 0);
	counter(SRC_VMSTAT, "", "zswpwb", 0, 0);
	end(0);
	setting(SRC_ZSWAP, "enabled", "Y", 1);
	counter(SRC_ZSWAP, "", "reject_compress_poor", 3, 1);
	counter(SRC_VMSTAT, "", "zswpout", 6722, 1);
	counter(SRC_VMSTAT, "", "pswpout", 31248, 1);
	counter(SRC_VMSTAT, "", "zswpwb", 3831, 1);
	end(1);
	is_int(zswap_model_refusals(m, &r), 0, "vmstat: refusals known");
	is_int(r.refused, 26417, "vmstat: pswpout - zswpwb refused, not the 3 debugfs rejects");
	is_int(r.tries, 33139, "vmstat: zswpout + refused offered");
	is_str(r.source, "vmstat", "vmstat: the source said");
	is_int(r.on, 1, "vmstat: zswap on");
	zswap_model_free(m);

	m = zswap_model_new();
	setting(SRC_ZSWAP, "enabled", "Y", 0);
	counter(SRC_ZSWAP, "", "reject_compress_poor", 0, 0);
	counter(SRC_VMSTAT, "", "pswpout", 0, 0);
	end(0);
	setting(SRC_ZSWAP, "enabled", "Y", 1);
	counter(SRC_ZSWAP, "", "reject_compress_poor", 60, 1);
	counter(SRC_VMSTAT, "", "pswpout", 500, 1);
	end(1);
	is_int(zswap_model_refusals(m, &r), 0, "5.10: refusals known");
	is_int(r.refused, 60, "5.10: the debugfs rejects");
	is_int(r.tries, -1, "5.10: no zswpout, the stores offered unknown (no share of 100%)");
	zswap_model_free(m);

	m = zswap_model_new();
	setting(SRC_ZSWAP, "enabled", "N", 0);
	counter(SRC_VMSTAT, "", "zswpout", 0, 0);
	counter(SRC_VMSTAT, "", "pswpout", 0, 0);
	counter(SRC_VMSTAT, "", "zswpwb", 0, 0);
	end(0);
	setting(SRC_ZSWAP, "enabled", "N", 1);
	counter(SRC_VMSTAT, "", "pswpout", 900, 1);
	end(1);
	ok(zswap_model_refusals(m, &r) == -1 || (r.on == 0 && r.refused == 0),
	   "zswap off: no refusals");
	zswap_model_free(m);

	m = zswap_model_new();
	counter(SRC_VMSTAT, "", "pswpout", 0, 0);
	end(0);
	is_int(zswap_model_refusals(m, &r), -1, "nothing sampled: unknown");
	zswap_model_free(m);
	m = z;
}

/* A long series kept at a few points (what the report asks): the sets
 * 0, s, 2s ... and the last; what is taken over every set (the enabled
 * parameter's first change, whether it was on, the counters' rises) is
 * the same as with every set kept. */
static void test_series_max(void)
{
	struct zswap_model *z = m, *all;
	uint64_t t[20], from = 0, to = 0, from2 = 0, to2 = 0, ch, ch2;
	struct zswap_refusal r, r2;
	int n;

	m = zswap_model_new();
	zswap_model_series_max(m, 4);
	all = zswap_model_new();
	for (int i = 0; i < 20; i++) {
		struct zswap_model *both[2] = { m, all };
		uint64_t at = now;

		for (int k = 0; k < 2; k++) {	/* the same records at the same times */
			m = both[k];
			now = at;
			/* on only in set 3, written back in sets 5 and 9 */
			setting(SRC_ZSWAP, "enabled", i == 3 ? "Y" : "N", (uint64_t)i);
			counter(SRC_VMSTAT, "", "zswpout", 100, (uint64_t)i);
			if (i == 10)	/* a store refused: on (set 3) or off? */
				probe(ZSWAP_OP_STORE, 0, 0);
			counter(SRC_VMSTAT, "", "pswpout", 20 * i, (uint64_t)i);
			counter(SRC_VMSTAT, "", "zswpwb", i < 5 ? 0 : i < 9 ? 1 : 2, (uint64_t)i);
			end((uint64_t)i);
		}
		m = both[0];
		t[i] = now * 1000000ULL;	/* the set's end */
	}
	n = zswap_model_npoints(m);
	is_int(n, 4, "series_max 4, 20 sets: sets 0, 8, 16 and the last");
	ok(zswap_model_point(m, 1)->pswpout == 160 && zswap_model_point(m, n - 1)->ts == t[19],
	   "... set 8 with its own values, the last set");
	ok(!zswap_model_rise(m, ZSW_RISE_ZSWPWB, &from, &to) &&
	   !zswap_model_rise(all, ZSW_RISE_ZSWPWB, &from2, &to2) && from == from2 && to == to2 &&
	   from == t[4] && to == t[9], "zswpwb's rises: sets 4 to 9, as with every set kept");
	is_int(zswap_model_rise(m, ZSW_RISE_WRITTEN_BACK, &from, &to), -1,
	       "written_back_pages never sampled: no rise");
	ok(zswap_model_enabled_first(m, &ch) == zswap_model_enabled_first(all, &ch2) && ch == ch2 &&
	   ch, "enabled: the first change as with every set kept");
	ok(!zswap_model_refusals(m, &r) && !zswap_model_refusals(all, &r2) && r.on == 1 &&
	   r2.on == 1 && r.refused == 1 && r2.refused == 1,
	   "on in a set not kept: zswap was on, the refused store counts");
	zswap_model_free(all);
	zswap_model_free(m);
	m = z;
}

int main(void)
{
	const struct zsw_point *p;
	int64_t f, l;

	m = zswap_model_new();
	is_int(zswap_model_npoints(m), 0, "no points before samples");
	is_int(zswap_model_enabled(m), -1, "enabled not sampled: -1");
	zone(1000, 0);
	zone(99000, 0);
	setting(SRC_ZSWAP, "enabled", "Y", 0);
	counter(SRC_ZSWAP, "", "max_pool_percent", 10, 0);
	setting(SRC_ZSWAP, "compressor", "lz4", 0);
	setting(SRC_ZSWAP, "zpool", "zsmalloc", 0);
	counter(SRC_ZSWAP, "", "stored_pages", 0, 0);
	counter(SRC_ZSWAP, "", "pool_total_size", 0, 0);
	counter(SRC_ZSWAP, "", "reject_compress_poor", 2, 0);
	counter(SRC_ZSWAP, "", "reject_reclaim_fail", 0, 0);
	counter(SRC_VMSTAT, "", "zswpout", 100, 0);
	counter(SRC_VMSTAT, "", "pswpout", 50, 0);
	counter(SRC_SWAP, "/dev/a", "inflight_w", 2, 0);
	counter(SRC_SWAP, "/dev/b", "inflight_w", 3, 0);
	counter(SRC_MTHP, "64", "zswpout", 4, 0);
	end(0);
	zone(1000, 1);
	zone(99000, 1);
	setting(SRC_ZSWAP, "enabled", "N", 1);
	setting(SRC_ZSWAP, "compressor", "zstd", 1);
	counter(SRC_ZSWAP, "", "stored_pages", 3000, 1);
	counter(SRC_ZSWAP, "", "pool_total_size", 4096000, 1);
	counter(SRC_ZSWAP, "", "reject_compress_poor", 7, 1);
	counter(SRC_VMSTAT, "", "zswpout", 3100, 1);
	counter(SRC_SWAP, "/dev/a", "inflight_w", 1, 1);
	counter(SRC_MTHP, "64", "zswpout", 9, 1);
	end(1);
	is_int(zswap_model_npoints(m), 2, "a point per complete set");
	is_int(zswap_model_point(m, 0)->enabled, 1, "enabled=Y: enabled at set 0");
	is_int(zswap_model_point(m, 1)->enabled, 0, "enabled=N: disabled at set 1");
	is_int(zswap_model_enabled(m), 0, "enabled: the last sample's");
	{
		uint64_t ts = 7;

		is_int(zswap_model_enabled_first(m, &ts), 1, "enabled_first: the first sample's");
		ok(ts == zswap_model_point(m, 1)->ts && ts != 0,
		   "changed: at the first set that differs");
	}
	is_str(zswap_model_settings(m)->compressor, "zstd", "compressor: the last sampled");
	is_str(zswap_model_settings(m)->zpool, "zsmalloc", "zpool kept");
	is_str(zswap_model_settings(m)->pool_why, "", "no reason when sampled");
	ok(zswap_model_has_pool(m), "pool counters sampled");
	p = zswap_model_point(m, 1);
	is_int(p->limit_pages, 10000, "limit = 10% of managed pages");
	is_int(p->stored_pages, 3000, "stored pages");
	is_int(p->pool_bytes, 4096000, "pool bytes");
	is_int(p->pswpout, 50, "vmstat kept when a later set omits it");
	is_int(p->zswpout, 3100, "zswpout");
	is_int(p->inflight, 1, "in-flight summed per set");
	is_int(zswap_model_point(m, 0)->inflight, 5, "in-flight summed over devices");
	is_int(p->rejects, 7, "rejects summed");
	is_int(p->zswpwb, -1, "no zswpwb counter: -1, not 0");
	is_int(zswap_model_nrejects(m), 2, "two reject reasons");
	is_int(zswap_model_reject(m, 0)->last - zswap_model_reject(m, 0)->first, 5,
	       "reject_compress_poor +5");
	ok(zswap_model_ratio(m, 4096) > 2.99 && zswap_model_ratio(m, 4096) < 3.01, "ratio 3.0");
	ok(zswap_model_ratio(m, 65536) > 47.9 && zswap_model_ratio(m, 65536) < 48.1,
	   "ratio with 64 KB pages: 16 times the stored bytes");
	zswap_model_order_zswpout(m, 4, &f, &l);
	is_int(l - f, 5, "64kB zswpout +5");
	probe(ZSWAP_OP_STORE, 1, 0);
	probe(ZSWAP_OP_STORE, 1, 4);
	probe(ZSWAP_OP_STORE, 0, 0);
	probe(ZSWAP_OP_LOAD, 1, -1);
	probe(ZSWAP_OP_WB, 0, -1);
	is_int(zswap_model_probe_ok(m, ZSWAP_OP_STORE), 2, "stores ok");
	is_int(zswap_model_probe_fail(m, ZSWAP_OP_STORE), 1, "stores refused");
	is_int(zswap_model_probe_ok(m, ZSWAP_OP_LOAD), 1, "loads hit");
	is_int(zswap_model_probe_fail(m, ZSWAP_OP_WB), 1, "writeback failed");
	is_int(zswap_model_store_order(m, 4), 1, "a 64kB store");
	is_int(zswap_model_max_pool_percent(m), 10, "max_pool_percent");
	ok(!zswap_model_memcg(m), "no memcg samples: no memcg zswap");
	counter(SRC_MEMCG, "/cg", "zswap", 4096, 2);
	counter(SRC_MEMCG, "/cg", "zswapped", 16384, 2);
	counter(SRC_MEMCG, "/cg", "zswap", 0, 3);
	is_int(zswap_model_memcg(m)->max[1], 16384, "memcg zswapped at most");
	is_int(zswap_model_memcg(m)->last[0], 0, "memcg zswap last");
	zswap_model_free(m);
	test_no_debugfs();
	test_refusals();
	test_series_max();
	return tap_done();
}
