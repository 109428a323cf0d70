// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Direct reclaim's pages on 7.2+ (see metrics-direct.h): the one rule
 * compare and report use to take memcg limit reclaim out of
 * pgscan_direct / pgsteal_direct.
 */
#include "config.h"
#include "metrics-direct.h"
#include "analysis.h"
#include "model-consistency.h"
#include "model-reclaim.h"

#include <stdlib.h>

enum direct_split direct_split(const struct analysis *a, const struct direct_counts *c,
			       int64_t *memcg_scan, int64_t *memcg_steal)
{
	const struct consistency_model *cm = analysis_consistency(a);
	const struct reclaim_model *rm = analysis_reclaim(a);

	*memcg_scan = *memcg_steal = 0;
	if (!cm || !consistency_model_memcg_in_direct(cm))
		return DIRECT_ONLY;
	if (c->have_stalls && c->stalls == 0) {
		*memcg_scan = c->scan;
		*memcg_steal = c->steal;
		return DIRECT_NO_STALLS;
	}
	if (rm && analysis_traced(a, REC_RECLAIM_BEGIN, RK_MEMCG) &&
	    analysis_traced(a, REC_SHRINK_INACTIVE, -1) &&
	    (!c->have_proactive || c->proactive == 0)) {
		const struct reclaim_kind_stats *ms = reclaim_model_kind(rm, RK_MEMCG);
		const struct reclaim_kind_stats *ds = reclaim_model_kind(rm, RK_DIRECT);
		/* LRU indexes 0 and 2: the inactive anon and file lists.
		 * MGLRU counts pgscan as isolated folios: take whichever of
		 * scanned or isolated leaves the direct events' own figure */
		int64_t mtaken = (int64_t)(ms->lru_taken[0] + ms->lru_taken[2]);
		int64_t dtaken = (int64_t)(ds->lru_taken[0] + ds->lru_taken[2]);
		int64_t part = (int64_t)ms->scanned;

		if (llabs(c->scan - mtaken - dtaken) < llabs(c->scan - part - (int64_t)ds->scanned))
			part = mtaken;
		*memcg_scan = part;
		*memcg_steal = (int64_t)ms->reclaimed;
		return DIRECT_BY_EVENTS;
	}
	return DIRECT_UNSPLIT;
}
