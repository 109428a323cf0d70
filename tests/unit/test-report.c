// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The report over a hand-built analysis (no file): kswapd episodes handed
 * off by a wakeup and by a timeout pickup, one not handed off, zone
 * samples with watermarks, a vmstat sample pair and direct reclaim. Checks
 * the handoff table, the flags, the consistency rows, the 72-column
 * limit and valid-looking JSON. Then memory hotplug (the zone shown
 * changes mid-run) and a memcg gauge that peaks and falls back: every
 * watermark value names its zone and its own watermarks, the gauge its
 * peak and limit. Issue 32: Direct pages scanned without
 * pgscan_direct_throttle; episodes beside kswapd_wake events; "at least N"
 * missed probe hits from entry and return counts; a probe set outside its
 * verified kernels (6.1's on 5.10) marked unverified and a device's
 * clusters checked against its size; a 5.10 recording's swap labels and
 * its run context's clusters. MMSCOPE_TEST_SHOW=1 prints the text.
 */
#include "config.h"
#include "analysis.h"
#include "model-counters.h"
#include "parsers.h"
#include "tracedat-read.h"
#include "report.h"
#include "sample-rec.h"
#include "tap.h"

#include <event-parse.h>

#include <stdlib.h>
#include <string.h>

#define MS 1000000ULL

static struct analysis *a;

static void rec(enum rec_type t, uint64_t ms, int pid, int nid, int order)
{
	struct record r = { .type = t, .ts = ms * MS, .pid = pid, .comm = "alloc" };

	r.wake.nid = nid;
	r.wake.order = order;
	r.wake.zid = 2;
	analysis_feed(a, &r);
}

static void sample(uint64_t ms, uint64_t seq, int free, int pgscan, int compact_wake,
		   int allocstall)
{
	struct record r = { .type = REC_ZONE, .ts = ms * MS };
	static const char *const keys[] = {
		"pgscan_kswapd", "pgsteal_kswapd", "compact_daemon_wake",
		"allocstall_normal", "pageoutrun",
	};
	int vals[] = { pgscan, pgscan / 2, compact_wake, allocstall, compact_wake ? 3 : 0 };

	r.zone.seq = seq;
	r.zone.node = 0;
	r.zone.zone = "Normal";
	r.zone.free = free;
	r.zone.min = 1000;
	r.zone.low = 2000;
	r.zone.high = 3000;
	r.zone.managed = 500000;
	r.zone.free_blocks = -1;
	analysis_feed(a, &r);
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		struct record c = { .type = REC_COUNTER, .ts = ms * MS };

		c.counter.source = SRC_VMSTAT;
		c.counter.seq = seq;
		c.counter.instance = "";
		c.counter.key = keys[i];
		c.counter.value = vals[i];
		analysis_feed(a, &c);
	}
	memset(&r, 0, sizeof(r));
	r.type = REC_SAMPLE_END;
	r.ts = ms * MS;
	r.send.seq = seq;
	analysis_feed(a, &r);
}

static void shrink(uint64_t ms, int pid, int scanned)
{
	struct record r = { .type = REC_SHRINK_INACTIVE, .ts = ms * MS, .pid = pid };

	r.shrink.nid = 0;
	r.shrink.scanned = (uint64_t)scanned;
	r.shrink.reclaimed = (uint64_t)scanned / 2;
	r.shrink.priority = 12;
	r.shrink.flags = RECLAIM_FLAG_ANON;
	analysis_feed(a, &r);
}

static void build(void)
{
	struct record r;

	a = analysis_new_empty(NULL);
	sample(0, 0, 5000, 0, 0, 0);
	rec(REC_KCOMPACTD_SLEEP, 1, 36, 0, 0);
	/* episode 1: order 3, handed off by a wakeup event */
	rec(REC_WAKEUP_KSWAPD, 100, 900, 0, 3);
	rec(REC_KSWAPD_WAKE, 101, 40, 0, 3);
	shrink(110, 40, 640);
	sample(120, 1, 1500, 640, 0, 0);
	rec(REC_WAKEUP_KCOMPACTD, 200, 40, 0, 3);
	rec(REC_KCOMPACTD_WAKE, 201, 36, 0, 3);
	rec(REC_KCOMPACTD_SLEEP, 260, 36, 0, 0);
	rec(REC_KSWAPD_SLEEP, 300, 40, 0, 0);
	/* kcompactd's idle sleep: no request pending, episode 1's done */
	rec(REC_KCOMPACTD_SLEEP, 760, 36, 0, 0);
	/* episode 2: order 2, picked up at kcompactd's timeout */
	rec(REC_KSWAPD_WAKE, 1000, 40, 0, 2);
	memset(&r, 0, sizeof(r));
	r.type = REC_RECLAIM_BEGIN;
	r.ts = 1010 * MS;
	r.pid = 900;
	r.comm = "stress";
	r.rbegin.kind = RK_DIRECT;
	analysis_feed(a, &r);
	r.type = REC_RECLAIM_END;
	r.ts = 1013 * MS;
	r.rend.kind = RK_DIRECT;
	r.rend.nr_reclaimed = 32;
	analysis_feed(a, &r);
	shrink(1020, 40, 320);
	rec(REC_KSWAPD_SLEEP, 1100, 40, 0, 0);
	rec(REC_KCOMPACTD_WAKE, 1500, 36, 0, 2);
	rec(REC_KCOMPACTD_SLEEP, 1600, 36, 0, 0);
	/* episode 3: order 4, nothing follows */
	rec(REC_KSWAPD_WAKE, 3000, 40, 0, 4);
	rec(REC_KSWAPD_SLEEP, 4200, 40, 0, 0);
	sample(5000, 2, 800, 960, 2, 1);
	rec(REC_KCOMPACTD_SLEEP, 5001, 36, 0, 0);
	analysis_finish(a, 5001 * MS);
}

static int max_width(const char *s)
{
	int w = 0, max = 0;

	for (; *s; s++) {
		if (*s == '\n') {
			max = w > max ? w : max;
			w = 0;
		} else {
			w++;
		}
	}
	return w > max ? w : max;
}

/* The section table's entries are complete and their names unique; the
 * help lines fit "report --help" in 80 columns. */
static void check_table(void)
{
	int bad = 0;

	for (int i = 0; i < report_nsections; i++) {
		const struct report_section_def *d = &report_sections[i];
		size_t max = d->needs_samples ? 48 : 64;

		if (!d->name || !*d->name || !d->help || !d->text || strlen(d->help) > max ||
		    report_section_find(d->name) != i) {
			printf("# section %d (%s) incomplete, too long or named twice\n", i,
			       d->name ? d->name : "?");
			bad++;
		}
	}
	ok(report_nsections > 0 && !bad, "section table: %d complete entries", report_nsections);
	ok(report_section_find("nosuch") == -1, "unknown section name: -1");
}

static void zone_line(uint64_t ms, uint64_t seq, const char *zone, int64_t managed,
		      int64_t free, int64_t min)
{
	struct record r = rec_zone(ms * MS, seq, zone, managed, free, min);

	analysis_feed(a, &r);
}

static void memcg_set(uint64_t ms, uint64_t seq, int64_t usage)
{
	struct record r = { .type = REC_COUNTER, .ts = ms * MS };

	r.counter.source = SRC_MEMCG;
	r.counter.seq = seq;
	r.counter.instance = "/w";
	r.counter.key = "usage";
	r.counter.value = usage;
	analysis_feed(a, &r);
	r.counter.key = "limit";
	r.counter.value = 2147483648LL;
	analysis_feed(a, &r);
	memset(&r, 0, sizeof(r));
	r.type = REC_SAMPLE_END;
	r.ts = ms * MS;
	r.send.seq = seq;
	analysis_feed(a, &r);
}

static void test_hotplug_and_gauge(void)
{
	struct report_opts o;
	struct strbuf sb = STRBUF_INIT;

	a = analysis_new_empty(NULL);
	zone_line(0, 0, "DMA32", 800000, 772915, 4000);
	zone_line(0, 0, "Normal", 100000, 99000, 500);	/* farther from its high */
	memcg_set(0, 0, 0);
	rec(REC_KSWAPD_WAKE, 100, 40, 0, 0);
	zone_line(1000, 1, "DMA32", 800000, 700000, 4000);
	zone_line(1000, 1, "Normal", 1000000, 4831, 6000);
	memcg_set(1000, 1, 1073741824);
	rec(REC_KSWAPD_SLEEP, 1500, 40, 0, 0);
	zone_line(2000, 2, "DMA32", 800000, 700000, 4000);
	zone_line(2000, 2, "Normal", 1000000, 172588, 6400);
	memcg_set(2000, 2, 40960);
	analysis_finish(a, 2000 * MS);
	report_opts_default(&o);
	o.sections = 1u << report_section_find("handoff") | 1u << report_section_find("counters");
	report_render(a, &o, &sb);
	if (getenv("MMSCOPE_TEST_SHOW"))
		fputs(sb.buf, stdout);
	ok(strstr(sb.buf, "  first       0.000 DMA32     772915    4000    5000    6000 >high") != NULL,
	   "hotplug: first names DMA32 with its own watermarks");
	ok(strstr(sb.buf, "  lowest      1.000 Normal      4831    6000    7500    9000 <min") != NULL,
	   "hotplug: lowest names Normal, judged against the watermarks then");
	ok(strstr(sb.buf, "  last        2.000 Normal    172588    6400    8000    9600 >high") != NULL,
	   "hotplug: last with the last watermarks");
	ok(strstr(sb.buf, "hotplug     node managed pages 900000 -> 1800000 (moved 1 time)") &&
	   strstr(sb.buf, "zone shown  DMA32 (800000) -> Normal (1000000) at 1.000 s"),
	   "hotplug: managed pages before -> after and the change of the zone shown");
	ok(strstr(sb.buf, "zone        of the node's 2, the one closest to its high "
		  "watermark\n") != NULL, "the rule of the zone shown named");
	ok(strstr(sb.buf, "  DMA32 until 1.000 s\n  Normal after") != NULL,
	   "hotplug: the episode legend names the zones");
	ok(strstr(sb.buf, "usage                      0 -> 40960 (+40960)\n"
		  "             peak 1073741824 bytes at 1.000 s, limit 2147483648 bytes") != NULL,
	   "gauge: memcg usage with its peak, when, limit and unit");
	ok(max_width(sb.buf) <= 72, "hotplug and gauge: 72 columns");
	strbuf_reset(&sb);
	o.format = RF_JSON;
	o.sections = 0;
	report_render(a, &o, &sb);
	ok(strstr(sb.buf, "\"zone\": \"Normal\"") && strstr(sb.buf, "\"shown_zone_changes\": 1") &&
	   strstr(sb.buf, "\"zones\": 2"), "json: zone per watermark, changes of the zone shown");
	ok(strstr(sb.buf, "\"peak\": 1073741824") && strstr(sb.buf, "\"limit\": 2147483648"),
	   "json: gauge peak and limit");
	strbuf_release(&sb);
	analysis_free(a);
}

/*
 * Probe hits the kernel missed (probe_missed= of the recording's
 * metadata, from kprobe_profile): the header and the zswap and swap
 * sections count them as losses, the JSON too; an older recording with
 * probes but no count says "-" / null, never 0.
 */
static void test_probe_missed(void)
{
	static const char meta[] =
		"probe_set=6.1\n"
		"probes=mmscope_swap_7:alloc,mmscope_zswap_7:store_r,mmscope_zswap_7:load_r\n"
		"probe_missed=mmscope_swap_7:alloc=0,mmscope_zswap_7:store_r=947,"
		"mmscope_zswap_7:load_r=3\n";
	struct tep_handle *tep = tep_alloc();
	struct report_opts o;
	struct strbuf sb = STRBUF_INIT;
	char *err = NULL;

	a = analysis_live_new(tep, "5.10.0-46-amd64", meta, NULL, &err);
	if (!ok(a != NULL, "live analysis with probe metadata (%s)", err ? err : "ok"))
		return;
	for (uint64_t seq = 1; seq <= 2; seq++) {	/* 5.10: vmstat without zswpout */
		struct record c[] = {
			rec_counter(SRC_VMSTAT, NULL, "pswpout", 100 * (int64_t)seq, seq),
			rec_counter(SRC_ZSWAP, NULL, "stored_pages", 10 * (int64_t)seq, seq),
			rec_counter(SRC_ZSWAP, NULL, "pool_limit_hit", 0, seq),
			rec_sample_end(seq),
		};

		for (size_t i = 0; i < ARRAY_SIZE(c); i++) {
			c[i].ts = seq * 5 * MS;
			analysis_feed(a, &c[i]);
		}
	}
	for (int i = 0; i < 10; i++) {
		struct record r = { .type = REC_ZSWAP, .ts = (uint64_t)(i + 1) * MS, .pid = 1 };

		r.zswap.op = ZSWAP_OP_STORE;
		r.zswap.ok = 1;
		analysis_feed(a, &r);
	}
	{	/* issue 32.5: 6.1's offsets on 5.10 read another field as the
		 * size (a 4,095-slot device tracked as 131,072 clusters) */
		struct record r = { .type = REC_SWAP_DEVICE, .ts = 11 * MS, .pid = 1 };
		struct record c[] = {
			rec_counter(SRC_SWAP, "/dev/zram0", "size", 16380, 3),
			rec_counter(SRC_SWAP, "/dev/zram0", "used", 0, 3),
			rec_sample_end(3),
		};

		r.swap.type = 0;
		r.swap.ok = 1;
		r.swap.pages = 1u << 26;
		r.swap.order = r.swap.offset = r.swap.slot = r.swap.count = -1;
		analysis_feed(a, &r);
		for (size_t i = 0; i < ARRAY_SIZE(c); i++) {
			c[i].ts = 12 * MS;
			analysis_feed(a, &c[i]);
		}
	}
	analysis_finish(a, 20 * MS);
	ok(analysis_info(a)->has_probes && analysis_info(a)->probe_missed == 950,
	   "probe_missed sums every probe (950)");
	is_int((int)analysis_probe_missed(a, "zswap", NULL, 0), 950, "zswap probes missed 950");
	is_int((int)analysis_probe_missed(a, "swap", NULL, 0), 0, "swap probes missed 0");
	report_opts_default(&o);
	o.sections = 1u << report_section_find("header") | 1u << report_section_find("zswap");
	report_render(a, &o, &sb);
	if (getenv("MMSCOPE_TEST_SHOW"))
		fputs(sb.buf, stdout);
	ok(strstr(sb.buf, "probes    950 probe hits missed (kprobe_profile: store_r 947, "
		  "load_r 3);\n          the figures they feed are low by up to that\n") != NULL,
	   "header: missed probe hits named");
	ok(strstr(sb.buf, "  lost: 950 zswap probe hits missed (kprobe_profile: store_r 947, "
		  "load_r\n        3); the figures") != NULL,
	   "zswap section: its probes' misses as losses");
	ok(strstr(sb.buf, "vmstat: zswpout, zswpin, zswpwb not on this kernel (before 5.19") != NULL,
	   "zswap section: vmstat counters the kernel lacks are 'not on this kernel'");
	ok(strstr(sb.buf, "  unverified: probe set 6.1 was verified on 6.1 only, not on\n"
		  "  5.10.0-46-amd64") != NULL,
	   "zswap section: a probe set outside its verified kernels is marked unverified");
	ok(max_width(sb.buf) <= 72, "probe misses: 72 columns");
	strbuf_reset(&sb);
	o.sections = 1u << report_section_find("swap");
	report_render(a, &o, &sb);
	if (getenv("MMSCOPE_TEST_SHOW"))
		fputs(sb.buf, stdout);
	ok(strstr(sb.buf, "unverified: probe set 6.1") != NULL,
	   "swap section: probe figures marked unverified");
	ok(strstr(sb.buf, "inconsistent: 4095 slots make 8 clusters, not 131072") != NULL,
	   "swap section: a device's cluster count checked against its size");
	ok(max_width(sb.buf) <= 72, "unverified, inconsistent: 72 columns");
	strbuf_reset(&sb);
	o.format = RF_JSON;
	o.sections = 1u << report_section_find("header") | 1u << report_section_find("zswap") |
		     1u << report_section_find("swap");
	report_render(a, &o, &sb);
	ok(strstr(sb.buf, "\"probes_verified\": false") != NULL, "json: probes_verified false");
	ok(strstr(sb.buf, "\"clusters_for_size\": 8") != NULL, "json: clusters_for_size 8");
	ok(strstr(sb.buf, "\"probe_missed\": 950") != NULL, "json header: probe_missed 950");
	ok(strstr(sb.buf, "\"probe_missed\": 0") != NULL, "json swap: probe_missed 0");
	strbuf_release(&sb);
	analysis_free(a);

	/* probes, but no count (an mmscope that did not read kprobe_profile) */
	a = analysis_live_new(tep, "6.12", "probe_set=6.12\nprobes=mmscope_zswap_7:store_r\n",
			      NULL, &err);
	analysis_finish(a, 20 * MS);
	report_opts_default(&o);
	o.sections = 1u << report_section_find("header");
	report_render(a, &o, &sb);
	ok(strstr(sb.buf, "probes    - probe hits missed (no kprobe_profile count in the "
		  "recording)") != NULL,
	   "header: '-' when the count was not recorded");
	strbuf_reset(&sb);
	o.format = RF_JSON;
	report_render(a, &o, &sb);
	ok(strstr(sb.buf, "\"probe_missed\": null") != NULL, "json: null when not recorded");
	strbuf_release(&sb);
	analysis_free(a);

	/* no probes at all: no line */
	a = analysis_live_new(tep, "6.18", "probe_set=none\nprobes=\n", NULL, &err);
	analysis_finish(a, 20 * MS);
	o.format = RF_TEXT;
	report_render(a, &o, &sb);
	ok(!strstr(sb.buf, "probes    "), "header: no probes line without probes");
	strbuf_release(&sb);
	analysis_free(a);

	/* a kernel no set was verified on: the header says why, in its words */
	a = analysis_live_new(tep, "5.15.0", "probe_set=none\nprobe_reason=probe set 6.1 fits "
			      "this kernel's functions but was verified only on 6.1, not 5.15 "
			      "(its struct offsets may read another layout): counters and "
			      "tracepoints only (record --probe-set 6.1 forces it)\nprobes=\n",
			      NULL, &err);
	analysis_finish(a, 20 * MS);
	report_render(a, &o, &sb);
	if (getenv("MMSCOPE_TEST_SHOW"))
		fputs(sb.buf, stdout);
	ok(strstr(sb.buf, "probes    none: probe set 6.1 fits this kernel's functions but "
		  "was\n                verified only on 6.1, not 5.15") != NULL,
	   "header: why an unverified kernel has no probes");
	strbuf_release(&sb);
	analysis_free(a);
	tep_free(tep);
	free(err);
}

/* --since/--until's T: seconds from the first event, or @ a trace time */
static void vmstat_set(uint64_t ms, uint64_t seq, int scanned, int throttled)
{
	static const char *const keys[] = { "pgscan_direct", "pgscan_direct_throttle" };
	int vals[] = { scanned, throttled };
	struct record r = { .type = REC_SAMPLE_END, .ts = ms * MS };

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		struct record c = { .type = REC_COUNTER, .ts = ms * MS };

		c.counter.source = SRC_VMSTAT;
		c.counter.seq = seq;
		c.counter.instance = "";
		c.counter.key = keys[i];
		c.counter.value = vals[i];
		analysis_feed(a, &c);
	}
	r.send.seq = seq;
	analysis_feed(a, &r);
}

/* Issue 32.15: "Direct pages scanned" is pgscan_direct (summed over zones
 * where a kernel splits it), never plus pgscan_direct_throttle, which
 * counts throttling events. */
static void test_direct_scanned(void)
{
	struct report_opts o;
	struct strbuf sb = STRBUF_INIT;

	a = analysis_new_empty(NULL);
	vmstat_set(0, 0, 100, 2);
	vmstat_set(1000, 1, 1100, 7);
	analysis_finish(a, 1000 * MS);
	report_opts_default(&o);
	o.sections = 1u << report_section_find("counters");
	report_render(a, &o, &sb);
	if (getenv("MMSCOPE_TEST_SHOW"))
		fputs(sb.buf, stdout);
	ok(strstr(sb.buf, "Ops Direct pages scanned                     1000") != NULL,
	   "direct pages scanned: pgscan_direct only, not + pgscan_direct_throttle");
	ok(strstr(sb.buf, "  pgscan_direct_throttle                        5") != NULL,
	   "pgscan_direct_throttle listed on its own");
	ok(counters_zone_key("pgscan_direct_dma32", "pgscan_direct") &&
	   counters_zone_key("allocstall_normal", "allocstall") &&
	   !counters_zone_key("pgscan_direct_throttle", "pgscan_direct") &&
	   !counters_zone_key("pgscan_directx", "pgscan_direct"),
	   "zone keys: base and base_ZONE only");
	strbuf_release(&sb);
	analysis_free(a);
}

/* Issue 32.4: no kprobe_profile count, but the return probe fired fewer
 * times than its entry probe: the file shows at least that many missed. */
static void test_probe_unreturned(void)
{
	static const char fmt[] =
		"name: %s\nID: %d\nformat:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
		"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
		"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
		"\tfield:unsigned long __probe_ip;\toffset:8;\tsize:8;\tsigned:0;\n\n"
		"print fmt: \"(%%lx)\", REC->__probe_ip\n";
	static const char *const names[] = { "store", "store_r" };
	struct tep_handle *tep = tep_alloc();
	struct report_opts o;
	struct strbuf sb = STRBUF_INIT;
	unsigned char data[16] = { 0 };
	char buf[1024], *err = NULL;

	tep_set_long_size(tep, 8);
	for (int i = 0; i < 2; i++) {
		int n = snprintf(buf, sizeof(buf), fmt, names[i], 3001 + i);

		tep_parse_event(tep, buf, (unsigned long)n, "mmscope_zswap_7");
	}
	a = analysis_live_new(tep, "5.10.0-46-amd64", "probe_set=5.10\n"
			      "probes=mmscope_zswap_7:store,mmscope_zswap_7:store_r\n", NULL, &err);
	if (!ok(a != NULL, "live analysis with a probe pair (%s)", err ? err : "ok"))
		return;
	for (int i = 0; i < 10; i++) {	/* 10 entries, 7 returns */
		struct td_event ev = { .ts = (uint64_t)(i + 1) * MS, .data = data,
				       .size = (int)sizeof(data) };

		for (int k = 0; k < (i < 7 ? 2 : 1); k++) {
			ev.event = tep_find_event_by_name(tep, "mmscope_zswap_7", names[k]);
			data[0] = (unsigned char)(3001 + k);
			data[1] = (unsigned char)((3001 + k) >> 8);
			td_event_fill_record(&ev);
			analysis_live_event(a, &ev);
		}
	}
	analysis_finish(a, 20 * MS);
	is_int((int)analysis_probe_unreturned(a, "zswap", NULL, 0), 3,
	       "entry minus return hits: 3");
	is_int((int)analysis_probe_unreturned(a, "swap", NULL, 0), -1, "no swap pair: unknown");
	is_int((int)analysis_probe_unreturned(a, NULL, NULL, 0), 3, "all families: 3");
	report_opts_default(&o);
	o.sections = 1u << report_section_find("header");
	report_render(a, &o, &sb);
	if (getenv("MMSCOPE_TEST_SHOW"))
		fputs(sb.buf, stdout);
	ok(strstr(sb.buf, "probes    at least 3 probe hits missed (no kprobe_profile count;") &&
	   strstr(sb.buf, "store_r 3)"), "no kprobe_profile count: at least entry minus return");
	ok(max_width(sb.buf) <= 72, "at least N missed: 72 columns");
	strbuf_release(&sb);
	analysis_free(a);
	tep_free(tep);
}

static void ctx_sink(void *ctx, const struct record *r)
{
	(void)ctx;
	analysis_feed(a, r);
}

/* Issue 32.18: the run context of a recording whose mmscope did not give
 * swap.N.clusters: the clusters by the swap section's cluster size (THP
 * counters in the samples), not "-"; a 5.10 kernel's swap section is not
 * labelled with 6.1's rules or folio_alloc_swap. */
static void test_run_clusters_510(void)
{
	static const char *const lines[] = {
		"mms1 ctx 1 at=start kernel.release=5.10.0-46-amd64 swap.devices=1 "
		"swap.0.dev=/dev/zram0 swap.0.type=partition swap.0.size_kb=16380 swap.0.prio=-2",
		"mms1 vmstat 1 thp_swpout=0 thp_swpout_fallback=0 pswpout=0",
		"mms1 end 1",
		"mms1 vmstat 2 thp_swpout=0 thp_swpout_fallback=0 pswpout=0",
		"mms1 end 2",
	};
	struct report_opts o;
	struct strbuf sb = STRBUF_INIT;
	struct tep_handle *tep = tep_alloc();
	char *err = NULL;

	a = analysis_live_new(tep, "5.10.0-46-amd64", "probe_set=5.10\n"
			      "probes=mmscope_swap_7:alloc,mmscope_swap_7:free\n", NULL, &err);
	if (!ok(a != NULL, "5.10 analysis (%s)", err ? err : "ok"))
		return;
	struct parser_set *set = parser_set_new(NULL);

	for (size_t i = 0; i < ARRAY_SIZE(lines); i++) {
		struct record rec;
		struct parse_ctx pc = { set, NULL, &rec, NULL, 0, ctx_sink, NULL };

		memset(&rec, 0, sizeof(rec));
		rec.ts = (i + 1) * MS;
		sample_feed_line(&pc, lines[i], (int)strlen(lines[i]));
	}
	parser_set_free(set);
	{	/* one slot allocated on device 0: the swap probes fired */
		struct record r = { .type = REC_SWAP_ALLOC, .ts = 8 * MS, .pid = 1 };

		r.swap.type = 0;
		r.swap.offset = 1;
		r.swap.nr = 1;
		r.swap.order = r.swap.slot = r.swap.count = -1;
		analysis_feed(a, &r);
		memset(&r, 0, sizeof(r));	/* a THP's slots: get_swap_page on 5.10 */
		r.type = REC_SWAP_FOLIO;
		r.ts = 9 * MS;
		r.pid = 1;
		r.swap.type = -1;
		r.swap.kind = SWFK_RESULT;
		r.swap.order = 9;
		r.swap.ok = 1;
		r.swap.offset = r.swap.slot = r.swap.count = -1;
		analysis_feed(a, &r);
	}
	analysis_finish(a, 10 * MS);
	report_opts_default(&o);
	o.sections = 1u << report_section_find("run") | 1u << report_section_find("swap");
	report_render(a, &o, &sb);
	if (getenv("MMSCOPE_TEST_SHOW"))
		fputs(sb.buf, stdout);
	ok(strstr(sb.buf, "8 clusters of 512 pages (by the swap section)") != NULL,
	   "run context: the clusters by the swap section's cluster size, not '-'");
	ok(strstr(sb.buf, "probes: 5.10 rules, as 6.1's") && !strstr(sb.buf, "6.1 rules"),
	   "swap section: 5.10 named as such, not '6.1 rules'");
	ok(strstr(sb.buf, "probes (get_swap_page)") && !strstr(sb.buf, "folio_alloc_swap"),
	   "swap section: 5.10's probe function named, not folio_alloc_swap");
	ok(max_width(sb.buf) <= 72, "run clusters, 5.10 rules: 72 columns");
	strbuf_release(&sb);
	analysis_free(a);
	tep_free(tep);
}

static void check_times(void)
{
	struct analysis_time t;
	struct analysis_scope sc;
	static const char *const bad[] = {
		"", "@", "abc", "-1", "@-1", "1e3", "0x10", "inf", "nan", "1..2", ".", "1 ", "+1",
	};
	int refused = 0;

	ok(!analysis_time_parse("2.5", &t) && t.set && !t.abs && t.ns == 2500000000ULL,
	   "T: 2.5 s from the first event");
	ok(!analysis_time_parse("@3715.378364", &t) && t.abs && t.ns == 3715378364000ULL,
	   "@T: a trace time stamp to the nanosecond");
	ok(!analysis_time_parse("0", &t) && t.set && t.ns == 0 && !analysis_time_parse(".5", &t) &&
	   t.ns == 500000000ULL, "T: 0 and .5");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		refused += analysis_time_parse(bad[i], &t) == -1;
	ok(refused == (int)(sizeof(bad) / sizeof(bad[0])),
	   "negative, empty, exponent, hex, inf, nan and malformed T refused");
	memset(&sc, 0, sizeof(sc));
	analysis_time_parse("2", &sc.since);
	analysis_time_parse("1", &sc.until);
	ok(analysis_scope_inverted(&sc), "since 2 after until 1: inverted");
	analysis_time_parse("@1", &sc.until);
	ok(!analysis_scope_inverted(&sc), "relative since against @until: found on reading");
}

/* report_wrap: words go to the next line; a word longer than a line is cut */
static void check_wrap(void)
{
	struct report_opts o;
	struct strbuf sb = STRBUF_INIT;
	struct report_ctx rc = { .o = &o, .sb = &sb };
	char word[200];

	report_opts_default(&o);
	memset(word, 'x', sizeof(word) - 1);
	word[sizeof(word) - 1] = '\0';
	report_wrap(&rc, "command   ", "sh -c");
	report_wrap(&rc, "command   ", word);
	ok(max_width(sb.buf) <= 72, "a 199-character word is cut at 72 columns");
	ok(!strncmp(sb.buf, "command   sh -c\ncommand   xxx", 29) &&
	   strstr(sb.buf, "\n          xxx") != NULL, "its pieces keep the indent");
	strbuf_release(&sb);
}

int main(void)
{
	struct report_opts o;
	struct strbuf sb = STRBUF_INIT;

	check_wrap();
	test_direct_scanned();
	test_probe_unreturned();
	test_run_clusters_510();
	check_times();
	check_table();
	build();
	report_opts_default(&o);
	o.sections = 1u << report_section_find("handoff") | 1u << report_section_find("stalls") |
		     1u << report_section_find("consistency") |
		     1u << report_section_find("summary");
	report_render(a, &o, &sb);
	if (getenv("MMSCOPE_TEST_SHOW"))
		fputs(sb.buf, stdout);
	ok(strstr(sb.buf, "kswapd      3 episodes (3 kswapd_wake events)") != NULL,
	   "episodes and kswapd_wake events both given");
	ok(strstr(sb.buf, "handoff     wakeup 1, pickup 1, none 1") != NULL,
	   "handoff counts: wakeup, pickup, none");
	ok(strstr(sb.buf, "wake 3") && strstr(sb.buf, "pick 2"), "episode handoff orders");
	ok(strstr(sb.buf, "none    <low  -     -     NL") != NULL,
	   "third episode flagged; no sample while awake: low and sleep unknown");
	ok(strstr(sb.buf, "wake 3  >high <low  <low  -") != NULL,
	   "watermark states per episode");
	ok(strstr(sb.buf, "kswapd runs              3  = pageoutrun                      3 agree") != NULL,
	   "consistency: kswapd runs agree");
	ok(strstr(sb.buf, "kswapd scanned         960  = pgscan_kswapd                 960 agree") != NULL,
	   "consistency: kswapd scans agree");
	ok(strstr(sb.buf, "direct reclaims          1  = allocstall_*                    1 agree") != NULL,
	   "consistency: direct reclaims agree");
	ok(strstr(sb.buf, "stall") != NULL, "stall flag shown");
	/* no compaction begin/end fed: kcompactd's runs and its proactive
	 * passes (runs outside its wakes) cannot be told, not 0 */
	ok(strstr(sb.buf, "busy 0.159 s, - runs; wakeup_kcompactd 1") != NULL,
	   "kcompactd runs unknown without compaction begin/end");
	ok(strstr(sb.buf, "proactive   - (needs kcompactd_wake/sleep, compaction_begin/end)")
	   != NULL, "proactive passes unknown without compaction begin/end");
	ok(strstr(sb.buf, "kcompactd   1 woken, 1 pickup, - proactive passes; 5 sleeps")
	   != NULL, "summary: proactive passes unknown");
	ok(max_width(sb.buf) <= 72, "72 columns");
	strbuf_reset(&sb);
	o.format = RF_JSON;
	o.sections = 0;
	report_render(a, &o, &sb);
	ok(sb.buf[0] == '{' && strstr(sb.buf, "\"handoff\": \"pickup\""), "json episodes");
	ok(strstr(sb.buf, "\"kcompactd_proactive_passes\": null") &&
	   strstr(sb.buf, "\"kcompactd_runs\": null"), "json: proactive passes, runs null");
	strbuf_release(&sb);
	analysis_free(a);
	test_hotplug_and_gauge();
	test_probe_missed();
	return tap_done();
}
