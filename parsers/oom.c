// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * oom: the OOM killer's victims and the allocator's last retries before
 * it (reclaim_retry_zone, compact_retry). Only counted: they mark where a
 * reclaim or compaction story ended badly.
 */
#include "config.h"
#include "parsers.h"


static const struct field_spec oom_fields[] = {
	{ NULL, NULL },
};

static void oom_parse(void *state, struct parse_ctx *pc)
{
	struct pstate *st = state;

	pc->rec->type = REC_OOM;
	pc->rec->oom.kind = st->kind;
	pc->sink(pc->sink_ctx, pc->rec);
}

const struct parser oom_parsers[] = {
	{ "oom", "mark_victim", oom_parse, OOM_VICTIM, oom_fields, 1, NULL, REC_OOM },
	{ "oom", "compact_retry", oom_parse, OOM_COMPACT_RETRY, oom_fields, 0, NULL, REC_OOM },
	{ "oom", "reclaim_retry_zone", oom_parse, OOM_RECLAIM_RETRY, oom_fields, 0, NULL, REC_OOM },
	{ NULL, NULL, NULL, 0, NULL, 0, NULL, 0 },
};
