// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kmem: mm_page_alloc_extfrag, the fragmenting fallbacks of the page
 * allocator (an allocation of one migratetype took a block of another).
 * They come before watermark boosts and kcompactd work, and tell which
 * migratetypes pollute which. Same fields 6.1 .. 7.x.
 */
#include "config.h"
#include "parsers.h"

enum { EF_PFN, EF_AORDER, EF_FORDER, EF_AMT, EF_FMT, EF_CHANGE };

static const struct field_spec extfrag_fields[] = {
	{ NAMES("pfn"), NULL },
	{ NAMES("alloc_order"), "extfrag fallbacks per order" },
	{ NAMES("fallback_order"), "extfrag fallbacks per order" },
	{ NAMES("alloc_migratetype"), "extfrag fallbacks per migratetype" },
	{ NAMES("fallback_migratetype"), "extfrag fallbacks per migratetype" },
	{ NAMES("change_ownership"), NULL },
	{ NULL, NULL },
};

static void kmem_parse_extfrag(void *state, struct parse_ctx *pc)
{
	struct pstate *st = state;
	struct record *r = pc->rec;

	r->type = REC_EXTFRAG;
	r->extfrag.alloc_order = (int)PF_S(st, pc, EF_AORDER);
	r->extfrag.fallback_order = (int)PF_S(st, pc, EF_FORDER);
	r->extfrag.alloc_mt = (int)PF_SD(st, pc, EF_AMT, -1);
	r->extfrag.fallback_mt = (int)PF_SD(st, pc, EF_FMT, -1);
	r->extfrag.change_ownership = (int)PF_S(st, pc, EF_CHANGE);
	pc->sink(pc->sink_ctx, r);
}

const struct parser kmem_parsers[] = {
	{ "kmem", "mm_page_alloc_extfrag", kmem_parse_extfrag, 0, extfrag_fields, 0, NULL, REC_EXTFRAG },
	{ NULL, NULL, NULL, 0, NULL, 0, NULL, 0 },
};
