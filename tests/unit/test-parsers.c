// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Parsers on the real event formats of every kernel under
 * tests/data/kernels/ (6.1, 6.12, 6.18, 7.x): each format file is parsed
 * with tep_parse_event(), an event is built as bytes with values put at
 * the offsets that kernel's format gives, and the parser must read them
 * back into the typed record by name, whatever the layout (7.x moved the
 * reclaim-begin order, 6.1 has isolate_mode in lru_isolate, the
 * writeback event is write_folio or writepage). Missing event formats are
 * skipped; a note about a missing field fails the test.
 */
#include "config.h"
#include "parsers.h"
#include "tap.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

static struct record last;
static int nrec;

static void sink(void *ctx, const struct record *r)
{
	(void)ctx;
	last = *r;
	nrec++;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *buf;

	if (!f)
		return NULL;
	buf = malloc(1 << 16);
	*len = fread(buf, 1, (1 << 16) - 1, f);
	buf[*len] = '\0';
	fclose(f);
	return buf;
}

struct fv {
	const char *field;
	uint64_t value;
};

static const char *events[][2] = {
	{ "vmscan", "mm_vmscan_kswapd_wake" }, { "vmscan", "mm_vmscan_kswapd_sleep" },
	{ "vmscan", "mm_vmscan_wakeup_kswapd" },
	{ "vmscan", "mm_vmscan_direct_reclaim_begin" },
	{ "vmscan", "mm_vmscan_direct_reclaim_end" },
	{ "vmscan", "mm_vmscan_memcg_reclaim_begin" },
	{ "vmscan", "mm_vmscan_lru_isolate" }, { "vmscan", "mm_vmscan_lru_shrink_inactive" },
	{ "vmscan", "mm_vmscan_write_folio" }, { "vmscan", "mm_vmscan_writepage" },
	{ "vmscan", "mm_vmscan_balance_pgdat_end" },
	{ "compaction", "mm_compaction_begin" }, { "compaction", "mm_compaction_end" },
	{ "compaction", "mm_compaction_kcompactd_wake" },
	{ "compaction", "mm_compaction_wakeup_kcompactd" },
	{ "compaction", "mm_compaction_migratepages" },
	{ "compaction", "mm_compaction_try_to_compact_pages" },
	{ "compaction", "mm_compaction_deferred" },
	{ "kmem", "mm_page_alloc_extfrag" },
};

static struct tep_handle *load_kernel(const char *dir)
{
	struct tep_handle *tep = tep_alloc();

	tep_set_long_size(tep, 8);
	tep_set_page_size(tep, 4096);
	for (size_t i = 0; i < sizeof(events) / sizeof(events[0]); i++) {
		char path[2048];
		size_t len;
		char *buf;

		snprintf(path, sizeof(path), "%s/events/%s/%s/format", dir, events[i][0],
			 events[i][1]);
		buf = slurp(path, &len);
		if (!buf)
			continue;
		if (tep_parse_event(tep, buf, len, events[i][0]))
			ok(0, "%s: %s parses", dir, events[i][1]);
		free(buf);
	}
	return tep;
}

/* Builds the event with these field values and parses it. 0 if the
 * kernel has no such event. */
static int run(struct tep_handle *tep, struct parser_set *set, const char *sys,
	       const char *name, const struct fv *fv, int n)
{
	struct tep_event *ev = tep_find_event_by_name(tep, sys, name);
	unsigned char data[256];
	struct tep_record rec;
	struct tep_format_field *f;

	if (!ev)
		return 0;
	memset(data, 0, sizeof(data));
	memset(&rec, 0, sizeof(rec));
	f = tep_find_common_field(ev, "common_type");
	memcpy(data + f->offset, &(uint16_t){ (uint16_t)ev->id }, 2);
	f = tep_find_common_field(ev, "common_pid");
	memcpy(data + f->offset, &(int32_t){ 4242 }, 4);
	for (int i = 0; i < n; i++) {
		f = tep_find_field(ev, fv[i].field);
		if (!f) {
			ok(0, "%s has field %s", name, fv[i].field);
			continue;
		}
		memcpy(data + f->offset, &fv[i].value, (size_t)f->size);
	}
	rec.data = data;
	rec.size = ev->format.fields ? 128 : 8;
	nrec = 0;
	memset(&last, 0, sizeof(last));
	parser_set_parse(set, ev, &rec, 1000, 1, sink, NULL);
	return nrec;
}

#define RUN(sys, name, ...) ({ \
	static const struct fv fv_[] = { __VA_ARGS__ }; \
	run(tep, set, sys, name, fv_, (int)(sizeof(fv_) / sizeof(fv_[0]))); })

static void test_vmscan(const char *k, struct tep_handle *tep, struct parser_set *set)
{
	if (RUN("vmscan", "mm_vmscan_kswapd_wake", { "nid", 1 }, { "zid", 2 }, { "order", 3 })) {
		is_int(last.type, REC_KSWAPD_WAKE, "kswapd_wake: type");
		ok(last.wake.nid == 1 && last.wake.zid == 2 && last.wake.order == 3,
		   "%s kswapd_wake: nid/zid/order", k);
		is_int(last.pid, 4242, "kswapd_wake: pid from common_pid");
	}
	if (RUN("vmscan", "mm_vmscan_wakeup_kswapd", { "nid", 0 }, { "zid", 1 },
		{ "order", 9 }, { "gfp_flags", 0xcc0 }))
		ok(last.type == REC_WAKEUP_KSWAPD && last.wake.order == 9 &&
		   last.wake.gfp == 0xcc0, "%s wakeup_kswapd: order, gfp", k);
	if (RUN("vmscan", "mm_vmscan_direct_reclaim_begin", { "order", 4 },
		{ "gfp_flags", 0x100 }))
		ok(last.type == REC_RECLAIM_BEGIN && last.rbegin.kind == RK_DIRECT &&
		   last.rbegin.order == 4 && last.rbegin.gfp == 0x100,
		   "%s direct_reclaim_begin: order found by name", k);
	if (RUN("vmscan", "mm_vmscan_direct_reclaim_end", { "nr_reclaimed", 77 }))
		ok(last.type == REC_RECLAIM_END && last.rend.nr_reclaimed == 77,
		   "%s direct_reclaim_end", k);
	if (RUN("vmscan", "mm_vmscan_lru_isolate", { "order", 2 }, { "nr_scanned", 32 },
		{ "nr_taken", 30 }, { "lru", 2 }))
		ok(last.type == REC_LRU_ISOLATE && last.isolate.order == 2 &&
		   last.isolate.scanned == 32 && last.isolate.taken == 30 &&
		   last.isolate.lru == 2, "%s lru_isolate: fields past isolate_mode", k);
	if (RUN("vmscan", "mm_vmscan_lru_shrink_inactive", { "nid", 0 },
		{ "nr_scanned", 32 }, { "nr_reclaimed", 31 }, { "priority", 12 },
		{ "reclaim_flags", 0x9 }))
		ok(last.type == REC_SHRINK_INACTIVE && last.shrink.scanned == 32 &&
		   last.shrink.reclaimed == 31 && last.shrink.priority == 12 &&
		   last.shrink.flags == 9, "%s lru_shrink_inactive", k);
	if (RUN("vmscan", "mm_vmscan_write_folio", { "pfn", 0x1234 }, { "reclaim_flags", 1 }) +
	    RUN("vmscan", "mm_vmscan_writepage", { "pfn", 0x1234 }, { "reclaim_flags", 1 }))
		ok(last.type == REC_WRITE_FOLIO && last.write.flags == 1,
		   "%s write_folio/writepage", k);
	else
		ok(0, "%s has no reclaim writeback event", k);
	if (RUN("vmscan", "mm_vmscan_balance_pgdat_end", { "nid", 0 }, { "order", 9 },
		{ "nr_reclaimed", 512 }))
		ok(last.type == REC_BALANCE_END && last.balance.nr_reclaimed == 512,
		   "%s balance_pgdat_end (7.x)", k);
}

static void test_compaction(const char *k, struct tep_handle *tep, struct parser_set *set)
{
	if (RUN("compaction", "mm_compaction_end", { "zone_start", 0x1000 },
		{ "zone_end", 0x80000 }, { "sync", 1 }, { "status", 8 }))
		ok(last.type == REC_COMPACT_END && last.crun.zone_start == 0x1000 &&
		   last.crun.sync == 1 && last.crun.status == 8, "%s compaction_end", k);
	if (RUN("compaction", "mm_compaction_begin", { "zone_start", 0x1000 }))
		ok(last.type == REC_COMPACT_BEGIN && last.crun.status == -1,
		   "%s compaction_begin: no status", k);
	if (RUN("compaction", "mm_compaction_kcompactd_wake", { "nid", 0 }, { "order", 9 },
		{ "highest_zoneidx", 2 }))
		ok(last.type == REC_KCOMPACTD_WAKE && last.wake.order == 9 &&
		   last.wake.zid == 2, "%s kcompactd_wake", k);
	if (RUN("compaction", "mm_compaction_wakeup_kcompactd", { "nid", 0 },
		{ "order", (uint64_t)-1 }))
		ok(last.type == REC_WAKEUP_KCOMPACTD && last.wake.order == -1,
		   "%s wakeup_kcompactd: order -1 signed", k);
	if (RUN("compaction", "mm_compaction_migratepages", { "nr_migrated", 5 },
		{ "nr_failed", 1 }))
		ok(last.cmig.migrated == 5 && last.cmig.failed == 1, "%s migratepages", k);
	if (RUN("compaction", "mm_compaction_try_to_compact_pages", { "order", 9 },
		{ "prio", 1 }))
		ok(last.type == REC_COMPACT_TRY && last.ctry.order == 9 && last.ctry.prio == 1,
		   "%s try_to_compact_pages", k);
	if (RUN("compaction", "mm_compaction_deferred", { "nid", 0 }, { "idx", 2 },
		{ "order", 9 }, { "defer_shift", 3 }))
		ok(last.type == REC_COMPACT_DEFER && last.defer.zid == 2 &&
		   last.defer.defer_shift == 3, "%s compaction_deferred", k);
	if (RUN("kmem", "mm_page_alloc_extfrag", { "alloc_order", 0 },
		{ "fallback_order", 9 }, { "alloc_migratetype", 0 },
		{ "fallback_migratetype", 1 }, { "change_ownership", 1 }))
		ok(last.type == REC_EXTFRAG && last.extfrag.fallback_order == 9 &&
		   last.extfrag.fallback_mt == 1 && last.extfrag.change_ownership == 1,
		   "%s extfrag", k);
}

static void test_kernel(const char *top, const char *k)
{
	char dir[1280];
	struct tep_handle *tep;
	struct parser_set *set;

	snprintf(dir, sizeof(dir), "%s/tests/data/kernels/%s", top, k);
	tep = load_kernel(dir);
	set = parser_set_new(tep);
	ok(parser_set_nbound(set) >= 10, "%s: %d parsers bound", k, parser_set_nbound(set));
	test_vmscan(k, tep, set);
	test_compaction(k, tep, set);
	for (int i = 0; i < parser_set_nnotes(set); i++)
		printf("# note: %s\n", parser_set_note(set, i));
	is_int(parser_set_nnotes(set), 0, "no field missing");
	parser_set_free(set);
	tep_free(tep);
}

/* A made-up old layout: a field renamed away leaves a note, not a failure. */
static void test_missing_field(void)
{
	static char fmt[] =
		"name: mm_vmscan_lru_shrink_inactive\nID: 7\nformat:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
		"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
		"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
		"\tfield:int nid;\toffset:8;\tsize:4;\tsigned:1;\n"
		"\tfield:unsigned long nr_scanned;\toffset:16;\tsize:8;\tsigned:0;\n\n"
		"print fmt: \"nid=%d\", REC->nid\n";
	struct tep_handle *tep = tep_alloc();
	struct parser_set *set;

	tep_set_long_size(tep, 8);
	tep_parse_event(tep, fmt, sizeof(fmt) - 1, "vmscan");
	set = parser_set_new(tep);
	if (RUN("vmscan", "mm_vmscan_lru_shrink_inactive", { "nr_scanned", 9 }))
		ok(last.shrink.scanned == 9 && last.shrink.reclaimed == 0,
		   "missing field reads as 0, the rest still parses");
	ok(parser_set_nnotes(set) == 1 && strstr(parser_set_note(set, 0), "nr_reclaimed"),
	   "missing field leaves one note");
	parser_set_free(set);
	tep_free(tep);
}

int main(void)
{
	const char *top = getenv("top_srcdir") ? getenv("top_srcdir") : ".";
	char dir[1024];
	struct dirent *de;
	DIR *d;
	int n = 0;

	snprintf(dir, sizeof(dir), "%s/tests/data/kernels", top);
	d = opendir(dir);
	if (!d) {
		printf("1..0 # SKIP no %s\n", dir);
		return 0;
	}
	while ((de = readdir(d)) != NULL) {
		char ev[1536];
		DIR *sub;

		snprintf(ev, sizeof(ev), "%s/%s/events", dir, de->d_name);
		if (de->d_name[0] == '.' || !(sub = opendir(ev)))
			continue;
		closedir(sub);
		test_kernel(top, de->d_name);
		n++;
	}
	closedir(d);
	ok(n >= 1, "%d kernels tested", n);
	test_missing_field();
	return tap_done();
}
