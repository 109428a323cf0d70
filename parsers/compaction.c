// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compaction: kcompactd wakeups, wakes and sleeps, direct compaction
 * (try_to_compact_pages), compaction runs (begin/end, with no node or
 * zone: the zone is known by its zone_start pfn), finished/suitable
 * results, deferrals, scanner work and migrations.
 *
 * Names across versions: the zone index is "idx" in finished/suitable/
 * deferred, "highest_zoneidx" (older: "classzone_idx") in the kcompactd
 * events; the begin/end arguments are the same from 6.1 to 7.x but are
 * looked up by name all the same; fast_isolate_freepages is 6.12+.
 */
#include "config.h"
#include "parsers.h"

#define SINK(pc) ((pc)->sink((pc)->sink_ctx, (pc)->rec))

enum { KW_NID, KW_ORDER, KW_ZID };

static const struct field_spec kwake_fields[] = {
	{ NAMES("nid"), "kcompactd per node" },
	{ NAMES("order"), "kcompactd wake order" },
	{ NAMES("highest_zoneidx", "classzone_idx"), NULL },
	{ NULL, NULL },
};

static void compaction_parse_kwake(void *state, struct parse_ctx *pc)
{
	struct pstate *st = state;
	struct record *r = pc->rec;

	r->type = st->kind;
	r->wake.nid = (int)PF_S(st, pc, KW_NID);
	r->wake.order = (int)PF_S(st, pc, KW_ORDER);
	r->wake.zid = (int)PF_SD(st, pc, KW_ZID, -1);
	SINK(pc);
}

static const struct field_spec ksleep_fields[] = {
	{ NAMES("nid"), "kcompactd sleeps per node" },
	{ NULL, NULL },
};

static void compaction_parse_ksleep(void *state, struct parse_ctx *pc)
{
	struct pstate *st = state;

	pc->rec->type = REC_KCOMPACTD_SLEEP;
	pc->rec->sleep.nid = (int)PF_S(st, pc, 0);
	SINK(pc);
}

enum { TR_ORDER, TR_GFP, TR_PRIO };

static const struct field_spec try_fields[] = {
	{ NAMES("order"), "direct compaction order" },
	{ NAMES("gfp_mask"), NULL },
	{ NAMES("prio", "mode"), NULL },
	{ NULL, NULL },
};

static void compaction_parse_try(void *state, struct parse_ctx *pc)
{
	struct pstate *st = state;
	struct record *r = pc->rec;

	r->type = REC_COMPACT_TRY;
	r->ctry.order = (int)PF_S(st, pc, TR_ORDER);
	r->ctry.gfp = PF_U(st, pc, TR_GFP);
	r->ctry.prio = (int)PF_S(st, pc, TR_PRIO);
	SINK(pc);
}

enum { CR_START, CR_MIGRATE, CR_FREE, CR_END, CR_SYNC, CR_STATUS };

static const struct field_spec run_fields[] = {
	{ NAMES("zone_start"), "compaction per zone" },
	{ NAMES("migrate_pfn", "migrate_start"), NULL },
	{ NAMES("free_pfn", "free_start"), NULL },
	{ NAMES("zone_end"), NULL },
	{ NAMES("sync", "mode"), NULL },
	{ NAMES("status"), NULL },
	{ NULL, NULL },
};

static void compaction_parse_run(void *state, struct parse_ctx *pc)
{
	struct pstate *st = state;
	struct record *r = pc->rec;

	r->type = st->kind;
	r->crun.zone_start = PF_U(st, pc, CR_START);
	r->crun.migrate_pfn = PF_U(st, pc, CR_MIGRATE);
	r->crun.free_pfn = PF_U(st, pc, CR_FREE);
	r->crun.zone_end = PF_U(st, pc, CR_END);
	r->crun.sync = (int)PF_U(st, pc, CR_SYNC);
	r->crun.status = (int)PF_SD(st, pc, CR_STATUS, -1);
	SINK(pc);
}

enum { CF_NID, CF_ZID, CF_ORDER, CF_RET };

static const struct field_spec fin_fields[] = {
	{ NAMES("nid"), NULL },
	{ NAMES("idx", "zid"), NULL },
	{ NAMES("order"), NULL },
	{ NAMES("ret"), "compaction results per order" },
	{ NULL, NULL },
};

static void compaction_parse_fin(void *state, struct parse_ctx *pc)
{
	struct pstate *st = state;
	struct record *r = pc->rec;

	r->type = st->kind;
	r->cfin.nid = (int)PF_S(st, pc, CF_NID);
	r->cfin.zid = (int)PF_S(st, pc, CF_ZID);
	r->cfin.order = (int)PF_S(st, pc, CF_ORDER);
	r->cfin.ret = (int)PF_S(st, pc, CF_RET);
	SINK(pc);
}

enum { DF_NID, DF_ZID, DF_ORDER, DF_CONSIDERED, DF_SHIFT, DF_FAILED };

static const struct field_spec defer_fields[] = {
	{ NAMES("nid"), NULL },
	{ NAMES("idx", "zid"), NULL },
	{ NAMES("order"), "deferrals per order" },
	{ NAMES("considered"), NULL },
	{ NAMES("defer_shift"), NULL },
	{ NAMES("order_failed"), NULL },
	{ NULL, NULL },
};

static void compaction_parse_defer(void *state, struct parse_ctx *pc)
{
	struct pstate *st = state;
	struct record *r = pc->rec;

	r->type = REC_COMPACT_DEFER;
	r->defer.kind = st->kind;
	r->defer.nid = (int)PF_S(st, pc, DF_NID);
	r->defer.zid = (int)PF_S(st, pc, DF_ZID);
	r->defer.order = (int)PF_S(st, pc, DF_ORDER);
	r->defer.considered = (unsigned)PF_U(st, pc, DF_CONSIDERED);
	r->defer.defer_shift = (unsigned)PF_U(st, pc, DF_SHIFT);
	r->defer.order_failed = (int)PF_S(st, pc, DF_FAILED);
	SINK(pc);
}

static const struct field_spec iso_fields[] = {
	{ NAMES("nr_scanned"), "compaction scanner work" },
	{ NAMES("nr_taken"), NULL },
	{ NULL, NULL },
};

static void compaction_parse_iso(void *state, struct parse_ctx *pc)
{
	struct pstate *st = state;

	pc->rec->type = REC_COMPACT_ISOLATE;
	pc->rec->ciso.kind = st->kind;
	pc->rec->ciso.scanned = PF_U(st, pc, 0);
	pc->rec->ciso.taken = PF_U(st, pc, 1);
	SINK(pc);
}

static const struct field_spec mig_fields[] = {
	{ NAMES("nr_migrated", "nr_succeeded"), "pages migrated by compaction" },
	{ NAMES("nr_failed"), NULL },
	{ NULL, NULL },
};

static void compaction_parse_mig(void *state, struct parse_ctx *pc)
{
	struct pstate *st = state;

	pc->rec->type = REC_COMPACT_MIGRATE;
	pc->rec->cmig.migrated = PF_U(st, pc, 0);
	pc->rec->cmig.failed = PF_U(st, pc, 1);
	SINK(pc);
}

/* C(event, parse, kind, fields, wants_comm, record type emitted) */
#define C(ev, fn, kind, fields, comm, rec) \
	{ "compaction", ev, fn, kind, fields, comm, NULL, rec }

const struct parser compaction_parsers[] = {
	C("mm_compaction_wakeup_kcompactd", compaction_parse_kwake, REC_WAKEUP_KCOMPACTD,
	  kwake_fields, 0, REC_WAKEUP_KCOMPACTD),
	C("mm_compaction_kcompactd_wake", compaction_parse_kwake, REC_KCOMPACTD_WAKE,
	  kwake_fields, 0, REC_KCOMPACTD_WAKE),
	C("mm_compaction_kcompactd_sleep", compaction_parse_ksleep, 0, ksleep_fields, 0,
	  REC_KCOMPACTD_SLEEP),
	C("mm_compaction_try_to_compact_pages", compaction_parse_try, 0, try_fields, 1,
	  REC_COMPACT_TRY),
	C("mm_compaction_begin", compaction_parse_run, REC_COMPACT_BEGIN, run_fields, 1,
	  REC_COMPACT_BEGIN),
	C("mm_compaction_end", compaction_parse_run, REC_COMPACT_END, run_fields, 0,
	  REC_COMPACT_END),
	C("mm_compaction_finished", compaction_parse_fin, REC_COMPACT_FINISHED, fin_fields, 0,
	  REC_COMPACT_FINISHED),
	C("mm_compaction_suitable", compaction_parse_fin, REC_COMPACT_SUITABLE, fin_fields, 0,
	  REC_COMPACT_SUITABLE),
	C("mm_compaction_deferred", compaction_parse_defer, DEFER_DEFERRED, defer_fields, 0,
	  REC_COMPACT_DEFER),
	C("mm_compaction_defer_compaction", compaction_parse_defer, DEFER_COMPACTION,
	  defer_fields, 0, REC_COMPACT_DEFER),
	C("mm_compaction_defer_reset", compaction_parse_defer, DEFER_RESET, defer_fields, 0,
	  REC_COMPACT_DEFER),
	C("mm_compaction_isolate_migratepages", compaction_parse_iso, ISO_MIGRATE,
	  iso_fields, 0, REC_COMPACT_ISOLATE),
	C("mm_compaction_isolate_freepages", compaction_parse_iso, ISO_FREE, iso_fields, 0,
	  REC_COMPACT_ISOLATE),
	C("mm_compaction_fast_isolate_freepages", compaction_parse_iso, ISO_FAST_FREE,
	  iso_fields, 0, REC_COMPACT_ISOLATE),
	C("mm_compaction_migratepages", compaction_parse_mig, 0, mig_fields, 0,
	  REC_COMPACT_MIGRATE),
	{ NULL, NULL, NULL, 0, NULL, 0, NULL, 0 },
};
