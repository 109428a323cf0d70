// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vmscan: kswapd wake/sleep, allocator wakeups of kswapd, direct, memcg,
 * softlimit and node reclaim begin/end, LRU isolation and shrinking,
 * reclaim writeback, throttling and reclaim_pages (DAMON/MADV_PAGEOUT).
 *
 * Renames across 6.1 .. 7.x are in the field lists: lru_isolate's
 * classzone_idx became highest_zoneidx and lost isolate_mode (6.12),
 * shrink_inactive's nr_activate0/1, mm_vmscan_writepage became
 * mm_vmscan_write_folio, 7.x reordered the reclaim-begin fields and added
 * memcg_id (fields are found by name, so order does not matter) and the
 * balance_pgdat_begin/end, kswapd_reclaim_fail and kswapd_clear_hopeless
 * events (balance_pgdat_begin is not recorded: it fires where
 * kswapd_wake does).
 */
#include "config.h"
#include "parsers.h"

#include <string.h>

#define SINK(pc) ((pc)->sink((pc)->sink_ctx, (pc)->rec))

/* --- kswapd wake, sleep, wakeup_kswapd, balance_pgdat_end ------------ */

enum { WK_NID, WK_ZID, WK_ORDER, WK_GFP };

static const struct field_spec wake_fields[] = {
	{ NAMES("nid"), "kswapd wakeups per node" },
	{ NAMES("zid", "highest_zoneidx", "classzone_idx"), NULL },
	{ NAMES("order"), "wakeup order" },
	{ NAMES("gfp_flags"), NULL },
	{ NULL, NULL },
};

static void vmscan_parse_wake(void *state, struct parse_ctx *pc)
{
	struct pstate *st = state;
	struct record *r = pc->rec;

	r->type = st->kind;
	r->wake.nid = (int)PF_S(st, pc, WK_NID);
	r->wake.zid = (int)PF_SD(st, pc, WK_ZID, -1);
	r->wake.order = (int)PF_S(st, pc, WK_ORDER);
	r->wake.gfp = PF_U(st, pc, WK_GFP);
	SINK(pc);
}

static const struct field_spec sleep_fields[] = {
	{ NAMES("nid"), "kswapd sleeps per node" },
	{ NULL, NULL },
};

static void vmscan_parse_sleep(void *state, struct parse_ctx *pc)
{
	struct pstate *st = state;

	pc->rec->type = REC_KSWAPD_SLEEP;
	pc->rec->sleep.nid = (int)PF_S(st, pc, 0);
	SINK(pc);
}

enum { BE_NID, BE_ORDER, BE_RECLAIMED };

static const struct field_spec balance_fields[] = {
	{ NAMES("nid"), "balance_pgdat per node" },
	{ NAMES("order"), NULL },
	{ NAMES("nr_reclaimed"), NULL },
	{ NULL, NULL },
};

static void vmscan_parse_balance_end(void *state, struct parse_ctx *pc)
{
	struct pstate *st = state;
	struct record *r = pc->rec;

	r->type = REC_BALANCE_END;
	r->balance.nid = (int)PF_S(st, pc, BE_NID);
	r->balance.order = (int)PF_S(st, pc, BE_ORDER);
	r->balance.nr_reclaimed = PF_U(st, pc, BE_RECLAIMED);
	SINK(pc);
}

/* 7.x: kswapd_reclaim_fail (a balance_pgdat run reclaimed nothing;
 * failures is pgdat->kswapd_failures after it) and kswapd_clear_hopeless
 * (the count was reset: by kswapd, direct reclaim or a PCP free). */
enum { KF_FAIL, KF_CLEAR };

static const struct field_spec fail_fields[] = {
	{ NAMES("nid"), "kswapd failures per node" },
	{ NAMES("failures"), NULL },
	{ NULL, NULL },
};

static const struct field_spec clear_fields[] = {
	{ NAMES("nid"), "kswapd failures per node" },
	{ NAMES("reason"), NULL },
	{ NULL, NULL },
};

static void vmscan_parse_fail(void *state, struct parse_ctx *pc)
{
	struct pstate *st = state;
	struct record *r = pc->rec;

	r->type = REC_KSWAPD_FAIL;
	r->kfail.nid = (int)PF_S(st, pc, 0);
	r->kfail.cleared = st->kind == KF_CLEAR;
	r->kfail.value = (int)PF_SD(st, pc, 1, -1);
	SINK(pc);
}

/* --- reclaim begin / end --------------------------------------------- */

enum { RB_ORDER, RB_GFP, RB_NID, RB_MEMCG };

static const struct field_spec rbegin_fields[] = {
	{ NAMES("order"), "reclaim order" },
	{ NAMES("gfp_flags"), NULL },
	{ NAMES("nid"), NULL },
	{ NAMES("memcg_id"), NULL },
	{ NULL, NULL },
};

static void vmscan_parse_rbegin(void *state, struct parse_ctx *pc)
{
	struct pstate *st = state;
	struct record *r = pc->rec;

	r->type = REC_RECLAIM_BEGIN;
	r->rbegin.kind = st->kind;
	r->rbegin.order = (int)PF_S(st, pc, RB_ORDER);
	r->rbegin.gfp = PF_U(st, pc, RB_GFP);
	r->rbegin.nid = (int)PF_SD(st, pc, RB_NID, -1);
	r->rbegin.memcg = PF_U(st, pc, RB_MEMCG);
	SINK(pc);
}

static const struct field_spec rend_fields[] = {
	{ NAMES("nr_reclaimed"), "pages reclaimed per reclaim" },
	{ NULL, NULL },
};

static void vmscan_parse_rend(void *state, struct parse_ctx *pc)
{
	struct pstate *st = state;

	pc->rec->type = REC_RECLAIM_END;
	pc->rec->rend.kind = st->kind;
	pc->rec->rend.nr_reclaimed = PF_U(st, pc, 0);
	SINK(pc);
}

/* --- LRU isolation and shrinking ------------------------------------- */

enum { LI_ORDER, LI_REQ, LI_SCANNED, LI_SKIPPED, LI_TAKEN, LI_LRU };

static const struct field_spec isolate_fields[] = {
	{ NAMES("order"), NULL },
	{ NAMES("nr_requested"), NULL },
	{ NAMES("nr_scanned"), "pages scanned per LRU" },
	{ NAMES("nr_skipped"), NULL },
	{ NAMES("nr_taken"), "pages taken per LRU" },
	{ NAMES("lru"), "per-LRU split" },
	{ NULL, NULL },
};

static void vmscan_parse_isolate(void *state, struct parse_ctx *pc)
{
	struct pstate *st = state;
	struct record *r = pc->rec;

	r->type = REC_LRU_ISOLATE;
	r->isolate.order = (int)PF_S(st, pc, LI_ORDER);
	r->isolate.requested = PF_U(st, pc, LI_REQ);
	r->isolate.scanned = PF_U(st, pc, LI_SCANNED);
	r->isolate.skipped = PF_U(st, pc, LI_SKIPPED);
	r->isolate.taken = PF_U(st, pc, LI_TAKEN);
	r->isolate.lru = (int)PF_SD(st, pc, LI_LRU, -1);
	SINK(pc);
}

enum {
	SI_NID, SI_SCANNED, SI_RECLAIMED, SI_DIRTY, SI_WB, SI_IMM, SI_ACT0,
	SI_ACT1, SI_REFKEEP, SI_UNMAP, SI_PRIO, SI_FLAGS
};

static const struct field_spec shrink_fields[] = {
	{ NAMES("nid"), NULL },
	{ NAMES("nr_scanned"), "reclaim efficiency" },
	{ NAMES("nr_reclaimed"), "reclaim efficiency" },
	{ NAMES("nr_dirty"), NULL },
	{ NAMES("nr_writeback"), NULL },
	{ NAMES("nr_immediate"), NULL },
	{ NAMES("nr_activate0", "nr_activate_anon"), NULL },
	{ NAMES("nr_activate1", "nr_activate_file"), NULL },
	{ NAMES("nr_ref_keep"), NULL },
	{ NAMES("nr_unmap_fail"), NULL },
	{ NAMES("priority"), NULL },
	{ NAMES("reclaim_flags"), NULL },
	{ NULL, NULL },
};

static void vmscan_parse_shrink(void *state, struct parse_ctx *pc)
{
	struct pstate *st = state;
	struct record *r = pc->rec;

	r->type = st->kind;
	r->shrink.nid = (int)PF_S(st, pc, SI_NID);
	r->shrink.scanned = PF_U(st, pc, SI_SCANNED);
	r->shrink.reclaimed = PF_U(st, pc, SI_RECLAIMED);
	r->shrink.dirty = PF_U(st, pc, SI_DIRTY);
	r->shrink.writeback = PF_U(st, pc, SI_WB);
	r->shrink.immediate = PF_U(st, pc, SI_IMM);
	r->shrink.activate_anon = PF_U(st, pc, SI_ACT0);
	r->shrink.activate_file = PF_U(st, pc, SI_ACT1);
	r->shrink.ref_keep = PF_U(st, pc, SI_REFKEEP);
	r->shrink.unmap_fail = PF_U(st, pc, SI_UNMAP);
	r->shrink.priority = (int)PF_SD(st, pc, SI_PRIO, -1);
	r->shrink.flags = (int)PF_S(st, pc, SI_FLAGS);
	SINK(pc);
}

enum { SA_NID, SA_TAKEN, SA_DEACT, SA_PRIO, SA_FLAGS };

static const struct field_spec active_fields[] = {
	{ NAMES("nid"), NULL },
	{ NAMES("nr_taken"), "active list scanning" },
	{ NAMES("nr_deactivated"), NULL },
	{ NAMES("priority"), NULL },
	{ NAMES("reclaim_flags"), NULL },
	{ NULL, NULL },
};

static void vmscan_parse_active(void *state, struct parse_ctx *pc)
{
	struct pstate *st = state;
	struct record *r = pc->rec;

	r->type = REC_SHRINK_ACTIVE;
	r->active.nid = (int)PF_S(st, pc, SA_NID);
	r->active.taken = PF_U(st, pc, SA_TAKEN);
	r->active.deactivated = PF_U(st, pc, SA_DEACT);
	r->active.priority = (int)PF_SD(st, pc, SA_PRIO, -1);
	r->active.flags = (int)PF_S(st, pc, SA_FLAGS);
	SINK(pc);
}

static const struct field_spec write_fields[] = {
	{ NAMES("pfn"), NULL },
	{ NAMES("reclaim_flags"), "reclaim writeback anon/file split" },
	{ NULL, NULL },
};

static void vmscan_parse_write(void *state, struct parse_ctx *pc)
{
	struct pstate *st = state;

	pc->rec->type = REC_WRITE_FOLIO;
	pc->rec->write.pfn = PF_U(st, pc, 0);
	pc->rec->write.flags = (int)PF_S(st, pc, 1);
	SINK(pc);
}

enum { TH_NID, TH_TIMEOUT, TH_DELAYED, TH_REASON };

static const struct field_spec throttled_fields[] = {
	{ NAMES("nid"), NULL },
	{ NAMES("usec_timeout"), NULL },
	{ NAMES("usec_delayed"), "time throttled" },
	{ NAMES("reason"), NULL },
	{ NULL, NULL },
};

static void vmscan_parse_throttled(void *state, struct parse_ctx *pc)
{
	struct pstate *st = state;
	struct record *r = pc->rec;

	r->type = REC_THROTTLED;
	r->throttled.nid = (int)PF_S(st, pc, TH_NID);
	r->throttled.timeout_us = PF_U(st, pc, TH_TIMEOUT);
	r->throttled.delayed_us = PF_U(st, pc, TH_DELAYED);
	r->throttled.reason = (int)PF_S(st, pc, TH_REASON);
	SINK(pc);
}

/* kswapd (the "kswapd" family; see families.c) */
const struct parser vmscan_kswapd_parsers[] = {
	{ "vmscan", "mm_vmscan_wakeup_kswapd", vmscan_parse_wake, REC_WAKEUP_KSWAPD,
	  wake_fields, 1, NULL, REC_WAKEUP_KSWAPD },
	{ "vmscan", "mm_vmscan_kswapd_wake", vmscan_parse_wake, REC_KSWAPD_WAKE,
	  wake_fields, 0, NULL, REC_KSWAPD_WAKE },
	{ "vmscan", "mm_vmscan_kswapd_sleep", vmscan_parse_sleep, 0, sleep_fields, 0, NULL,
	  REC_KSWAPD_SLEEP },
	{ "vmscan", "mm_vmscan_balance_pgdat_end", vmscan_parse_balance_end, 0,
	  balance_fields, 0, NULL, REC_BALANCE_END },
	{ "vmscan", "mm_vmscan_kswapd_reclaim_fail", vmscan_parse_fail, KF_FAIL,
	  fail_fields, 0, NULL, REC_KSWAPD_FAIL },
	{ "vmscan", "mm_vmscan_kswapd_clear_hopeless", vmscan_parse_fail, KF_CLEAR,
	  clear_fields, 0, NULL, REC_KSWAPD_FAIL },
	{ NULL, NULL, NULL, 0, NULL, 0, NULL, 0 },
};

/* direct, memcg, softlimit, node reclaim and the LRU work (the "reclaim" family) */
const struct parser vmscan_reclaim_parsers[] = {
	{ "vmscan", "mm_vmscan_direct_reclaim_begin", vmscan_parse_rbegin, RK_DIRECT,
	  rbegin_fields, 1, NULL, REC_RECLAIM_BEGIN },
	{ "vmscan", "mm_vmscan_memcg_reclaim_begin", vmscan_parse_rbegin, RK_MEMCG,
	  rbegin_fields, 1, NULL, REC_RECLAIM_BEGIN },
	{ "vmscan", "mm_vmscan_memcg_softlimit_reclaim_begin", vmscan_parse_rbegin,
	  RK_SOFTLIMIT, rbegin_fields, 1, NULL, REC_RECLAIM_BEGIN },
	{ "vmscan", "mm_vmscan_node_reclaim_begin", vmscan_parse_rbegin, RK_NODE,
	  rbegin_fields, 1, NULL, REC_RECLAIM_BEGIN },
	{ "vmscan", "mm_vmscan_direct_reclaim_end", vmscan_parse_rend, RK_DIRECT,
	  rend_fields, 0, NULL, REC_RECLAIM_END },
	{ "vmscan", "mm_vmscan_memcg_reclaim_end", vmscan_parse_rend, RK_MEMCG,
	  rend_fields, 0, NULL, REC_RECLAIM_END },
	{ "vmscan", "mm_vmscan_memcg_softlimit_reclaim_end", vmscan_parse_rend,
	  RK_SOFTLIMIT, rend_fields, 0, NULL, REC_RECLAIM_END },
	{ "vmscan", "mm_vmscan_node_reclaim_end", vmscan_parse_rend, RK_NODE,
	  rend_fields, 0, NULL, REC_RECLAIM_END },
	/* with the task's name: kswapd is known by it (model-reclaim.h) */
	{ "vmscan", "mm_vmscan_lru_isolate", vmscan_parse_isolate, 0, isolate_fields, 1,
	  NULL, REC_LRU_ISOLATE },
	{ "vmscan", "mm_vmscan_lru_shrink_inactive", vmscan_parse_shrink,
	  REC_SHRINK_INACTIVE, shrink_fields, 0, NULL, REC_SHRINK_INACTIVE },
	{ "vmscan", "mm_vmscan_reclaim_pages", vmscan_parse_shrink, REC_RECLAIM_PAGES,
	  shrink_fields, 1, NULL, REC_RECLAIM_PAGES },
	{ "vmscan", "mm_vmscan_lru_shrink_active", vmscan_parse_active, 0,
	  active_fields, 0, NULL, REC_SHRINK_ACTIVE },
	{ "vmscan", "mm_vmscan_write_folio", vmscan_parse_write, 0, write_fields, 0, NULL,
	  REC_WRITE_FOLIO },
	{ "vmscan", "mm_vmscan_writepage", vmscan_parse_write, 0, write_fields, 0, NULL,
	  REC_WRITE_FOLIO },
	{ "vmscan", "mm_vmscan_throttled", vmscan_parse_throttled, 0,
	  throttled_fields, 0, NULL, REC_THROTTLED },
	{ NULL, NULL, NULL, 0, NULL, 0, NULL, 0 },
};
