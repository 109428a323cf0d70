// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Sample parsers on hand-written mms1 lines (mmscope-samples(5)): the
 * splitter, every source, the end line, "missing", lines of another
 * version, malformed and unknown lines; then the counters and
 * fragmentation models fed from them (a set counts only once ended).
 */
#include "config.h"
#include "parsers.h"
#include "model-counters.h"
#include "model-frag.h"
#include "tap.h"

#include <string.h>

static struct record recs[64];
static char strs[64][4][64];
static int nrec;
static struct counters_model *cm;
static struct frag_model *fm;

static void sink(void *ctx, const struct record *r)
{
	(void)ctx;
	counters_model_add(cm, r);
	frag_model_add(fm, r);
	if (nrec >= 64)
		return;
	recs[nrec] = *r;
	/* keep the strings: they live only during the call */
	if (r->type == REC_COUNTER) {
		snprintf(strs[nrec][0], 64, "%s", r->counter.key);
		snprintf(strs[nrec][1], 64, "%s", r->counter.instance);
	} else if (r->type == REC_SETTING) {
		snprintf(strs[nrec][0], 64, "%s", r->setting.key);
		snprintf(strs[nrec][1], 64, "%s", r->setting.instance);
		snprintf(strs[nrec][2], 64, "%s", r->setting.value);
	} else if (r->type == REC_ZONE) {
		snprintf(strs[nrec][0], 64, "%s", r->zone.zone);
	} else if (r->type == REC_BUDDY || r->type == REC_PAGETYPE) {
		snprintf(strs[nrec][0], 64, "%s", r->buddy.zone);
		snprintf(strs[nrec][1], 64, "%s", r->buddy.type ? r->buddy.type : "");
	}
	nrec++;
}

static struct parser_set *set;

static int feed(uint64_t ts, const char *line)
{
	struct record rec;
	struct parse_ctx pc = { set, NULL, &rec, NULL, 0, sink, NULL };

	memset(&rec, 0, sizeof(rec));
	rec.ts = ts;
	nrec = 0;
	return sample_feed_line(&pc, line, (int)strlen(line));
}

static void test_split(void)
{
	char line[] = "mms1 zone 7 node=0 zone=Normal free=51234";
	char other[] = "mms2 zone 7 node=0";
	char bad[] = "mms1 zone x node=0";
	struct sample_line sl;

	is_int(sample_line_split(line, &sl), 0, "split: ok");
	is_str(sl.source, "zone", "split: source");
	is_int(sl.seq, 7, "split: seq");
	is_int(sl.nkv, 3, "split: three keys");
	is_str(sample_get(&sl, "free"), "51234", "split: value");
	is_int(sample_line_split(other, &sl), 1, "split: other version skipped");
	is_int(sample_line_split(bad, &sl), -1, "split: bad seq");
}

static void test_sources(void)
{
	feed(1000, "mms1 vmstat 0 pgscan_kswapd=100 compact_stall=5 nr_free_pages=9000");
	is_int(nrec, 3, "vmstat: three counters");
	ok(recs[0].type == REC_COUNTER && recs[0].counter.source == SRC_VMSTAT &&
	   !strcmp(strs[0][0], "pgscan_kswapd") && recs[0].counter.value == 100,
	   "vmstat: key and value");
	feed(1000, "mms1 zone 0 node=0 zone=Normal free=51234 min=11433 low=14291 "
		   "high=17149 promo=20007 boost=0 managed=1964018 spanned=2097152");
	ok(nrec == 1 && recs[0].type == REC_ZONE && recs[0].zone.free == 51234 &&
	   recs[0].zone.high == 17149 && recs[0].zone.free_blocks == -1 &&
	   !strcmp(strs[0][0], "Normal"), "zone: watermarks, no free_blocks");
	feed(1000, "mms1 buddy 0 node=0 zone=Normal free=4,3,2,1,0,0,0,0,0,0,1");
	ok(nrec == 1 && recs[0].type == REC_BUDDY && recs[0].buddy.norders == 11 &&
	   recs[0].buddy.free[0] == 4 && recs[0].buddy.free[10] == 1, "buddy: 11 orders");
	feed(1000, "mms1 pagetype 0 node=0 zone=Normal type=Movable free=>100000,2,1");
	ok(nrec == 1 && recs[0].type == REC_PAGETYPE && recs[0].buddy.free[0] == 100000 &&
	   !strcmp(strs[0][1], "Movable"), "pagetype: capped count, type");
	feed(1000, "mms1 mthp 0 size=64 enabled=always swpout=6400 swpout_fallback=0");
	ok(nrec == 3 && !strcmp(strs[1][1], "64") && !strcmp(strs[1][0], "swpout") &&
	   recs[1].counter.value == 6400, "mthp: instance = size");
	ok(recs[0].type == REC_SETTING && recs[0].setting.source == SRC_MTHP &&
	   !strcmp(strs[0][0], "enabled") && !strcmp(strs[0][1], "64") &&
	   !strcmp(strs[0][2], "always"), "mthp: enabled=always is a setting of size 64");
	feed(1000, "mms1 zswap 0 enabled=Y max_pool_percent=20 compressor=lz4 "
		   "zpool=zsmalloc stored_pages=7");
	ok(nrec == 5 && recs[0].type == REC_SETTING && recs[0].setting.source == SRC_ZSWAP &&
	   !strcmp(strs[0][0], "enabled") && !strcmp(strs[0][2], "Y"),
	   "zswap: enabled=Y is a setting");
	ok(recs[2].type == REC_SETTING && !strcmp(strs[2][0], "compressor") &&
	   !strcmp(strs[2][2], "lz4") && recs[3].type == REC_SETTING &&
	   !strcmp(strs[3][2], "zsmalloc"), "zswap: compressor and zpool are settings");
	ok(recs[1].type == REC_COUNTER && recs[1].counter.value == 20 &&
	   recs[4].type == REC_COUNTER && recs[4].counter.value == 7,
	   "zswap: numbers stay counters");
	feed(1000, "mms1 psi 0 some_avg10=0.52 some_total=81234");
	ok(nrec == 2 && recs[0].counter.value == 52 && recs[0].counter.scale == 2 &&
	   recs[1].counter.value == 81234, "psi: fixed-point averages");
	feed(1000, "mms1 memcgs 0 path=/my%20app%25 usage=4096 limit=max");
	ok(nrec == 2 && recs[0].type == REC_COUNTER && recs[0].counter.source == SRC_MEMCGS &&
	   !strcmp(strs[0][1], "/my app%") && recs[0].counter.value == 4096 &&
	   recs[1].type == REC_SETTING && !strcmp(strs[1][2], "max"),
	   "memcgs: path percent-decoded; limit=max a setting");
	{
		struct counters_model *c2 = counters_model_new();
		struct record e = { .type = REC_SAMPLE_END, .ts = 2000 };

		recs[0].counter.instance = "/my app%";
		recs[0].counter.key = "usage";
		counters_model_add(c2, &recs[0]);
		counters_model_add(c2, &e);
		ok(!counters_model_find(c2, SRC_MEMCGS, "/my app%", "usage"),
		   "memcgs: left to their own model, not the counters'");
		counters_model_free(c2);
	}
	feed(1000, "mms1 swap 0 dev=/dev/zram0 type=partition size=1048572 used=0 prio=100");
	ok(nrec == 4 && !strcmp(strs[1][1], "/dev/zram0") && recs[0].type == REC_SETTING &&
	   !strcmp(strs[0][2], "partition"), "swap: instance = dev, type a setting");
	feed(1000, "mms1 missing 0 sources=mthp,swap "
		   "why_mthp=no_/sys/kernel/mm/transparent_hugepage/hugepages-* "
		   "why_swap=no_/proc/swaps_(kernel_without_swap) "
		   "why_zswap_pool=debugfs_not_mounted");
	ok(nrec == 4 && recs[3].type == REC_SETTING && recs[3].setting.source == SRC_MISSING &&
	   !strcmp(strs[3][0], "why_zswap_pool") && !strcmp(strs[3][2], "debugfs_not_mounted"),
	   "missing: every reason is a setting");
	ok(parser_set_nnotes(set) == 3 &&
	   !strcmp(parser_set_note(set, 0),
		   "samples: no mthp (no /sys/kernel/mm/transparent_hugepage/hugepages-*)") &&
	   !strcmp(parser_set_note(set, 1),
		   "samples: no swap (no /proc/swaps (kernel without swap))") &&
	   !strcmp(parser_set_note(set, 2), "samples: no zswap pool (debugfs not mounted)"),
	   "missing: notes with spaces, paths kept whole");
	feed(1001, "mms1 end 0 us=812");
	ok(nrec == 1 && recs[0].type == REC_SAMPLE_END && recs[0].send.us == 812,
	   "end: closes set 0");
	is_int(feed(1002, "hello from a marker"), 1, "plain marker text skipped");
	is_int(feed(1002, "mms1 nosuch 1 a=1"), 1, "unknown source skipped");
	is_int(feed(1002, "mms1 vmstat 1 novalue"), -1, "malformed line reported");
	is_int(parser_set_nnotes(set), 5, "unknown and malformed leave notes");
}

static void test_models(void)
{
	const struct counter *c;
	const struct frag_zone *z;

	feed(2000, "mms1 vmstat 2 pgscan_kswapd=160");
	feed(2000, "mms1 buddy 2 node=0 zone=Normal free=0,0,0,0,0,0,0,0,0,0,0");
	feed(2001, "mms1 end 2 us=700");
	feed(3000, "mms1 vmstat 3 pgscan_kswapd=999");	/* never ended */
	c = counters_model_find(cm, SRC_VMSTAT, "", "pgscan_kswapd");
	ok(c && c->first == 100 && c->last == 160, "counters: first and last ended sets");
	is_int(counters_model_nsets(cm), 2, "counters: two complete sets");
	is_int(parser_set_sample_gaps(set), 0, "no gap before set 3");
	is_int(counters_model_delta(cm, "compact_stall", NULL), 0,
	       "counters: unchanged counter keeps its first value");
	c = counters_model_find(cm, SRC_MTHP, "64", "swpout");
	ok(c && c->last == 6400, "counters: mthp per size");
	z = frag_model_zone(fm, 0);
	ok(z && z->samples == 2 && z->first.free[0] == 4 && z->last.free[10] == 0,
	   "frag: first and last buddy samples");
	ok(z && z->ntypes == 1 && z->type_first[0].free[0] == 100000, "frag: pagetype");
	feed(4000, "mms1 vmstat 6 pgscan_kswapd=1000");
	is_int(parser_set_sample_gaps(set), 2, "seq gap counted as lost sets");
}

/*
 * 20-digit counters: the kernel prints its unsigned longs up to 2^64-1
 * and the sampler keeps them whole. They are read unsigned, deltas above
 * 2^63 stay exact, and a value past 2^64-1 is a malformed line noted,
 * not a clamp.
 */
static void test_wide(void)
{
	const struct counter *c;
	int notes = parser_set_nnotes(set), found = 0;

	feed(5000, "mms1 vmstat 7 pgpgin=18446744073709551000 pswpout=9223372036854775000 "
		   "nr_free_pages=12");
	ok(nrec == 3 && recs[0].type == REC_COUNTER && recs[0].counter.wide &&
	   (uint64_t)recs[0].counter.value == 18446744073709551000ULL &&
	   !recs[2].counter.wide && recs[2].counter.value == 12,
	   "20 digits: read as unsigned 64-bit, its bits kept");
	feed(5001, "mms1 end 7 us=1");
	feed(6000, "mms1 vmstat 8 pgpgin=18446744073709551600 pswpout=9223372036854777000");
	feed(6001, "mms1 end 8 us=1");
	c = counters_model_find(cm, SRC_VMSTAT, "", "pgpgin");
	ok(c && c->wide && (uint64_t)c->first == 18446744073709551000ULL &&
	   (uint64_t)c->last == 18446744073709551600ULL, "20 digits: first and last whole");
	is_int(counters_model_delta(cm, "pgpgin", &found), 600,
	       "delta above 2^63 exact (18446744073709551600 - ...551000)");
	is_int(c ? c->max_step : -1, 600, "largest step above 2^63 exact");
	is_int(counters_model_delta(cm, "pswpout", NULL), 2000, "delta across 2^63 exact");
	c = counters_model_find(cm, SRC_VMSTAT, "", "pswpout");
	ok(c && c->wide && (uint64_t)c->peak == 9223372036854777000ULL,
	   "a counter past 2^63 peaks at its unsigned value");
	is_int(feed(7000, "mms1 vmstat 9 pgpgin=18446744073709551616 nr_free_pages=3"), 0,
	       "2^64: line read");
	is_int(nrec, 0, "2^64: the whole line skipped, no clamp");
	is_int(parser_set_nnotes(set), notes + 1, "2^64: noted");
	is_str(parser_set_note(set, notes),
	       "samples: malformed vmstat line skipped (pgpgin out of 64-bit range)",
	       "2^64: the note names the key");
	feed(7000, "mms1 swap 9 dev=/dev/vdb prio=-2 used=-9223372036854775809");
	is_int(nrec, 0, "below INT64_MIN: skipped");
	feed(7000, "mms1 swap 9 dev=/dev/vdb prio=-2 type=+5 size=1x");
	ok(nrec == 3 && recs[0].type == REC_COUNTER && recs[0].counter.value == -2 &&
	   !recs[0].counter.wide && recs[1].type == REC_SETTING &&
	   recs[2].type == REC_SETTING, "signed prio; '+5' and '1x' stay settings");
	feed(7000, "mms1 buddy 9 node=0 zone=Normal free=1,18446744073709551616");
	is_int(nrec, 0, "buddy: an order count past 2^64-1 is malformed");
	feed(7000, "mms1 buddy 9 node=0 zone=Normal free=1,-1");
	is_int(nrec, 0, "buddy: a negative order count is malformed");
	is_int(feed(7000, "mms1 vmstat 18446744073709551616 a=1"), -1,
	       "a sequence number past 2^64-1 is malformed");
}

static void test_frag_index(void)
{
	struct frag_snapshot s = { .norders = 11 };

	s.free[0] = 1000;	/* only order-0 pages */
	is_int(frag_index(&s, 9), 1000 - (1000 + 1000 * 1000 / 512) / 1000,
	       "frag index: fragmentation, as the kernel computes it");
	is_int(frag_unusable(&s, 9), 1000, "unusable index: all unusable at order 9");
	s.free[9] = 1;
	is_int(frag_index(&s, 9), -1000, "frag index: -1 when it would succeed");
	is_int(frag_free_pages_from(&s, 9), 512, "free pages in order>=9 blocks");
}

int main(void)
{
	set = parser_set_new(NULL);
	cm = counters_model_new();
	fm = frag_model_new();
	test_split();
	test_sources();
	test_models();
	test_wide();
	test_frag_index();
	counters_model_free(cm);
	frag_model_free(fm);
	parser_set_free(set);
	return tap_done();
}
