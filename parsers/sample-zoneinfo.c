// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Sample source "zone" (/proc/zoneinfo): one line per populated zone with
 * free pages and the min/low/high (boost included, as zoneinfo prints
 * them) watermarks, and free_blocks (nr_free_pages_blocks, 6.15+) for
 * vm.defrag_mode. A line without node or zone is skipped with a note.
 */
#include "config.h"
#include "parsers.h"

static int64_t zone_val(const struct sample_line *sl, const char *key, int64_t def)
{
	int64_t v;

	return sample_get_s64(sl, key, &v) ? def : v;
}

void sample_zoneinfo_parse(const struct sample_line *sl, struct parse_ctx *pc)
{
	struct record *r = pc->rec;
	int64_t node;

	r->zone.zone = sample_get(sl, "zone");
	if (sample_get_s64(sl, "node", &node) || !r->zone.zone) {
		parser_note(pc->set, "samples: zone line without node or zone skipped");
		return;
	}
	r->type = REC_ZONE;
	r->zone.seq = sl->seq;
	r->zone.node = (int)node;
	r->zone.free = zone_val(sl, "free", -1);
	r->zone.min = zone_val(sl, "min", -1);
	r->zone.low = zone_val(sl, "low", -1);
	r->zone.high = zone_val(sl, "high", -1);
	r->zone.promo = zone_val(sl, "promo", -1);
	r->zone.boost = zone_val(sl, "boost", 0);
	r->zone.managed = zone_val(sl, "managed", -1);
	r->zone.spanned = zone_val(sl, "spanned", -1);
	r->zone.free_blocks = zone_val(sl, "free_blocks", -1);
	pc->sink(pc->sink_ctx, r);
}
