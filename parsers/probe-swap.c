// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Swap allocator kprobes: the events of the probe sets in src/probes.c
 * (system "mmscope_swap_PID"), turned into swap records for the swap
 * cluster model. One parser per event name serves every kernel's set:
 * the fields are found by name, and what a set lacks reads as "unknown"
 * (-1), never as 0. Per set (kernel-facts.md 1.7):
 *   6.1   alloc/free (type, offset, nr), fas (order at entry), fas_r
 *         (entry, 0 = failure), dsched/drun, swapon
 *   6.12  alloc, free (swp entry), scan (cluster tried, order), fas_r
 *         (entry + folio flags for the order), drun
 *   6.18  move/reloc/freecl/scan with the cluster pointer, free (entry),
 *         fas_r (ret, entry, order), avadd/avdel
 *   7.x   move (no cluster pointer), free (slot in cluster only), isol,
 *         reloc, freecl (cluster pointer), scan (offset), fas_r
 * A folio's order comes from PG_head (bit 6 from 6.12 on, 16 on 6.1) and
 * the order byte of _flags_1. swp_entry_t.val is type << 58 | offset.
 */
#include "config.h"
#include "parsers.h"

#include <string.h>

#define SINK(pc) ((pc)->sink((pc)->sink_ctx, (pc)->rec))
#define SWP_OFFSET_MASK ((1ULL << 58) - 1)

/* st->kind of the device probes. */
enum { SWDEV_OFF, SWDEV_ON, SWDEV_ON_61 };

/* Fields every swap parser may read; absent ones stay off = -1. */
enum {
	SF_TYPE, SF_OFFSET, SF_NR, SF_ENTRY, SF_START, SF_COUNT, SF_CI,
	SF_ORDER, SF_FLAGS, SF_OLD, SF_NEW, SF_RET, SF_PFLAGS, SF_FL1,
	SF_SWAPON, SF_CINFO,
};

static const struct field_spec swap_fields[] = {
	[SF_TYPE] = { NAMES("type"), NULL },
	[SF_OFFSET] = { NAMES("offset", "idx"), NULL },
	[SF_NR] = { NAMES("nr", "nr_entries", "nr_pages"), NULL },
	[SF_ENTRY] = { NAMES("entry"), NULL },
	[SF_START] = { NAMES("start", "ci_start"), NULL },
	[SF_COUNT] = { NAMES("count"), NULL },
	[SF_CI] = { NAMES("ci"), NULL },
	[SF_ORDER] = { NAMES("order", "corder", "ord"), NULL },
	[SF_FLAGS] = { NAMES("flags"), NULL },
	[SF_OLD] = { NAMES("old"), NULL },
	[SF_NEW] = { NAMES("new", "new_flags"), NULL },
	[SF_RET] = { NAMES("ret", "found"), NULL },
	[SF_PFLAGS] = { NAMES("pflags"), NULL },
	[SF_FL1] = { NAMES("fl1"), NULL },
	[SF_SWAPON] = { NAMES("swapon", "swapoff", "prio"), NULL },
	[SF_CINFO] = { NAMES("cinfo"), NULL },
	{ NULL, NULL },
};

static int has(const struct pstate *st, int i)
{
	return st->f[i].off >= 0;
}

static int64_t get(const struct pstate *st, const struct parse_ctx *pc, int i)
{
	return has(st, i) ? PF_S(st, pc, i) : -1;
}

static void swap_rec_init(struct parse_ctx *pc, enum rec_type t,
			  const struct pstate *st)
{
	struct record *r = pc->rec;

	r->type = t;
	r->swap.type = (int)get(st, pc, SF_TYPE);
	r->swap.kind = 0;	/* set by the parsers whose type has kinds */
	r->swap.order = -1;
	r->swap.offset = -1;
	r->swap.slot = -1;
	r->swap.old_flags = -1;
	r->swap.new_flags = -1;
	r->swap.count = has(st, SF_COUNT) ? (int)PF_U(st, pc, SF_COUNT) : -1;
	r->swap.ci = has(st, SF_CI) ? PF_U(st, pc, SF_CI) : 0;
	r->swap.cinfo = has(st, SF_CINFO) ? PF_U(st, pc, SF_CINFO) : 0;
}

/* The order of a folio from its flags: PG_head bit, then _flags_1. */
static int folio_order(const struct pstate *st, const struct parse_ctx *pc)
{
	if (has(st, SF_PFLAGS) && has(st, SF_FL1))
		return (PF_U(st, pc, SF_PFLAGS) >> 6) & 1 ? (int)(PF_U(st, pc, SF_FL1) & 0xff) : 0;
	if (has(st, SF_PFLAGS) && has(st, SF_ORDER))	/* 6.1: PG_head is bit 16 */
		return (PF_U(st, pc, SF_PFLAGS) >> 16) & 1 ? (int)PF_U(st, pc, SF_ORDER) : 0;
	return -1;
}

static void swap_entry_split(struct record *r, uint64_t val)
{
	r->swap.type = (int)(val >> 58);
	r->swap.offset = (int64_t)(val & SWP_OFFSET_MASK);
}

static void probe_swap_alloc(void *state, struct parse_ctx *pc)
{
	struct pstate *st = state;
	struct record *r = pc->rec;

	swap_rec_init(pc, REC_SWAP_ALLOC, st);
	r->swap.offset = get(st, pc, SF_OFFSET);
	r->swap.nr = has(st, SF_NR) ? PF_U(st, pc, SF_NR) : 1;
	r->swap.ok = 1;
	SINK(pc);
}

static void probe_swap_free(void *state, struct parse_ctx *pc)
{
	struct pstate *st = state;
	struct record *r = pc->rec;
	int type;

	swap_rec_init(pc, REC_SWAP_FREE, st);
	type = r->swap.type;
	r->swap.nr = has(st, SF_NR) ? PF_U(st, pc, SF_NR) : 1;
	if (has(st, SF_OFFSET))
		r->swap.offset = PF_S(st, pc, SF_OFFSET);
	else if (has(st, SF_ENTRY)) {
		swap_entry_split(r, PF_U(st, pc, SF_ENTRY));
		if (type >= 0)
			r->swap.type = type;
	} else if (has(st, SF_START))
		r->swap.slot = PF_S(st, pc, SF_START);
	SINK(pc);
}

static void probe_swap_fas(void *state, struct parse_ctx *pc)
{
	struct pstate *st = state;
	struct record *r = pc->rec;

	swap_rec_init(pc, REC_SWAP_FOLIO, st);
	r->swap.kind = SWFK_ENTRY;
	r->swap.order = folio_order(st, pc);
	SINK(pc);
}

/* st->kind: 1 when the set has no "alloc" probe (the result places it). */
static void probe_swap_fas_r(void *state, struct parse_ctx *pc)
{
	struct pstate *st = state;
	struct record *r = pc->rec;
	uint64_t entry = has(st, SF_ENTRY) ? PF_U(st, pc, SF_ENTRY) : 0;

	swap_rec_init(pc, REC_SWAP_FOLIO, st);
	r->swap.kind = SWFK_RESULT;
	r->swap.order = folio_order(st, pc);
	r->swap.ok = has(st, SF_RET) ? PF_S(st, pc, SF_RET) == 0 : entry != 0;
	if (r->swap.ok && entry)
		swap_entry_split(r, entry);
	/* a damaged record's order can be up to 255 (a flags byte): no
	 * shift past 64 bits; the models ignore orders they do not know */
	r->swap.nr = r->swap.order >= 0 && r->swap.order < 64 ? 1ULL << r->swap.order : 0;
	r->swap.place = st->kind && r->swap.ok && entry && r->swap.order >= 0;
	SINK(pc);
}

extern const struct parser probe_swap_parsers[];

static void *probe_swap_bind_fas_r(struct parser_set *set, struct tep_event *ev)
{
	struct pstate *st = NULL;

	for (const struct parser *p = probe_swap_parsers; p->system; p++)
		if (!strcmp(p->event, "fas_r"))
			st = parser_bind_fields(set, ev, p);
	if (st)
		st->kind = !tep_find_event_by_name(ev->tep, ev->system, "alloc");
	return st;
}

static void probe_swap_scan(void *state, struct parse_ctx *pc)
{
	struct pstate *st = state;
	struct record *r = pc->rec;

	swap_rec_init(pc, REC_SWAP_SCAN, st);
	r->swap.offset = get(st, pc, SF_OFFSET);
	r->swap.order = (int)get(st, pc, SF_ORDER);
	r->swap.old_flags = (int)get(st, pc, SF_FLAGS);
	SINK(pc);
}

static void probe_swap_move(void *state, struct parse_ctx *pc)
{
	struct pstate *st = state;
	struct record *r = pc->rec;

	swap_rec_init(pc, REC_SWAP_MOVE, st);
	r->swap.old_flags = (int)get(st, pc, SF_OLD);
	r->swap.new_flags = (int)get(st, pc, SF_NEW);
	r->swap.order = (int)get(st, pc, SF_ORDER);
	SINK(pc);
}

/* reloc, isol, freecl: st->kind is the swap_cluster_kind. */
static void probe_swap_cluster(void *state, struct parse_ctx *pc)
{
	struct pstate *st = state;
	struct record *r = pc->rec;

	swap_rec_init(pc, REC_SWAP_CLUSTER, st);
	r->swap.kind = st->kind;
	r->swap.old_flags = (int)get(st, pc, SF_FLAGS);
	r->swap.order = (int)get(st, pc, SF_ORDER);
	if (st->kind == SWCK_ISOLATE && has(st, SF_RET))
		r->swap.ci = PF_U(st, pc, SF_RET);
	SINK(pc);
}

/* dsched (SWDK_SCHED, offset = cluster index), drun (SWDK_RUN). */
static void probe_swap_discard(void *state, struct parse_ctx *pc)
{
	struct pstate *st = state;
	struct record *r = pc->rec;

	swap_rec_init(pc, REC_SWAP_DISCARD, st);
	r->swap.kind = st->kind;
	r->swap.offset = get(st, pc, SF_OFFSET);
	SINK(pc);
}

/* swapon (6.1 _enable_swap_info), avadd (swapon=1), avdel (swapoff=1). */
static void probe_swap_device(void *state, struct parse_ctx *pc)
{
	struct pstate *st = state;
	struct record *r = pc->rec;

	swap_rec_init(pc, REC_SWAP_DEVICE, st);
	r->swap.ok = st->kind != SWDEV_OFF;
	if (st->kind == SWDEV_ON_61) {	/* 6.1 swapon: every field given */
		r->swap.dflags = has(st, SF_FLAGS) ? PF_U(st, pc, SF_FLAGS) : 0;
		r->swap.prio = (int)get(st, pc, SF_SWAPON);
		r->swap.pages = has(st, SF_NR) ? PF_U(st, pc, SF_NR) : 0;
	} else if (!has(st, SF_SWAPON) || PF_S(st, pc, SF_SWAPON) != 1)
		return;		/* add/del for "full", not swapon/swapoff */
	SINK(pc);
}

/* The 6.1 swapon probe calls si->pages "pages". */
static const struct field_spec swapon_fields[] = {
	[SF_TYPE] = { NAMES("type"), NULL },
	[SF_OFFSET] = { NAMES("-"), NULL },
	[SF_NR] = { NAMES("pages"), NULL },
	[SF_ENTRY] = { NAMES("-"), NULL },
	[SF_START] = { NAMES("-"), NULL },
	[SF_COUNT] = { NAMES("-"), NULL },
	[SF_CI] = { NAMES("-"), NULL },
	[SF_ORDER] = { NAMES("-"), NULL },
	[SF_FLAGS] = { NAMES("flags"), NULL },
	[SF_OLD] = { NAMES("-"), NULL },
	[SF_NEW] = { NAMES("-"), NULL },
	[SF_RET] = { NAMES("-"), NULL },
	[SF_PFLAGS] = { NAMES("-"), NULL },
	[SF_FL1] = { NAMES("-"), NULL },
	[SF_SWAPON] = { NAMES("prio"), NULL },
	[SF_CINFO] = { NAMES("-"), NULL },
	{ NULL, NULL },
};

#define SWP "mmscope_swap_*"

const struct parser probe_swap_parsers[] = {
	{ SWP, "alloc", probe_swap_alloc, 0, swap_fields, 0, NULL, REC_SWAP_ALLOC },
	{ SWP, "free", probe_swap_free, 0, swap_fields, 0, NULL, REC_SWAP_FREE },
	{ SWP, "fas", probe_swap_fas, 0, swap_fields, 0, NULL, REC_SWAP_FOLIO },
	{ SWP, "fas_r", probe_swap_fas_r, 0, swap_fields, 0, probe_swap_bind_fas_r, REC_SWAP_FOLIO },
	{ SWP, "scan", probe_swap_scan, 0, swap_fields, 0, NULL, REC_SWAP_SCAN },
	{ SWP, "move", probe_swap_move, 0, swap_fields, 0, NULL, REC_SWAP_MOVE },
	{ SWP, "reloc", probe_swap_cluster, SWCK_RELOC, swap_fields, 0, NULL, REC_SWAP_CLUSTER },
	{ SWP, "isol", probe_swap_cluster, SWCK_ISOLATE, swap_fields, 0, NULL, REC_SWAP_CLUSTER },
	{ SWP, "freecl", probe_swap_cluster, SWCK_FREECL, swap_fields, 0, NULL, REC_SWAP_CLUSTER },
	{ SWP, "dsched", probe_swap_discard, SWDK_SCHED, swap_fields, 0, NULL, REC_SWAP_DISCARD },
	{ SWP, "drun", probe_swap_discard, SWDK_RUN, swap_fields, 0, NULL, REC_SWAP_DISCARD },
	{ SWP, "swapon", probe_swap_device, SWDEV_ON_61, swapon_fields, 0, NULL, REC_SWAP_DEVICE },
	{ SWP, "avadd", probe_swap_device, SWDEV_ON, swap_fields, 0, NULL, REC_SWAP_DEVICE },
	{ SWP, "avdel", probe_swap_device, SWDEV_OFF, swap_fields, 0, NULL, REC_SWAP_DEVICE },
	{ NULL, NULL, NULL, 0, NULL, 0, NULL, 0 },
};
