// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * zswap kprobes (system "mmscope_zswap_PID", src/probes.c): the results
 * of stores, loads and writebacks, for the zswap model. The return value
 * means different things per kernel, and the field's type tells which
 * (kernel-facts.md 2.2):
 *   u8 (bool zswap_store/zswap_load, 6.12+)        1 = stored / hit
 *   s32 (zswap_frontswap_*, 6.1; zswap_load 6.18+;
 *        zswap_writeback_entry 6.1/6.12)            0 = stored / hit / written
 *   u32 (shrink_memcg_cb, 6.18+: writeback inlined) 1 = LRU_REMOVED_RETRY =
 *        written back, 4 = LRU_RETRY = failed, others (rotate, stop) skip
 * Entry probes (store, load, wb) carry no result and are not needed.
 */
#include "config.h"
#include "parsers.h"

enum { ZF_RET, ZF_ORDER_PFLAGS, ZF_FL1 };

static const struct field_spec zswap_fields[] = {
	{ NAMES("ret"), "zswap results" },
	{ NAMES("pflags"), NULL },
	{ NAMES("fl1"), NULL },
	{ NULL, NULL },
};

static void probe_zswap_result(void *state, struct parse_ctx *pc)
{
	struct pstate *st = state;
	struct record *r = pc->rec;
	const struct pfield *f = &st->f[ZF_RET];
	long long ret;

	if (f->off < 0)
		return;
	ret = (long long)PF_S(st, pc, ZF_RET);
	r->type = REC_ZSWAP;
	r->zswap.op = st->kind;
	r->zswap.ret = ret;
	r->zswap.order = -1;
	if (st->f[ZF_ORDER_PFLAGS].off >= 0 && st->f[ZF_FL1].off >= 0)
		r->zswap.order = (PF_U(st, pc, ZF_ORDER_PFLAGS) >> 6) & 1 ?
				 (int)(PF_U(st, pc, ZF_FL1) & 0xff) : 0;
	if (f->size == 1)
		r->zswap.ok = ret == 1;
	else if (f->is_signed)
		r->zswap.ok = ret == 0;
	else if (ret == 1 || ret == 4)
		r->zswap.ok = ret == 1;
	else
		return;		/* shrink_memcg_cb: rotated or stopped */
	pc->sink(pc->sink_ctx, r);
}

#define ZSW "mmscope_zswap_*"

const struct parser probe_zswap_parsers[] = {
	{ ZSW, "store_r", probe_zswap_result, ZSWAP_OP_STORE, zswap_fields, 0, NULL, REC_ZSWAP },
	{ ZSW, "load_r", probe_zswap_result, ZSWAP_OP_LOAD, zswap_fields, 0, NULL, REC_ZSWAP },
	{ ZSW, "wb_r", probe_zswap_result, ZSWAP_OP_WB, zswap_fields, 0, NULL, REC_ZSWAP },
	{ NULL, NULL, NULL, 0, NULL, 0, NULL, 0 },
};
