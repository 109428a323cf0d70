// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Consistency model (see model-consistency.h). A snapshot is a fixed
 * vector of event totals; the first complete sample set fixes "first",
 * each later one overwrites "last". Rows compare last - first with the
 * counter deltas, allowing as much difference as events were lost.
 */
#include "config.h"
#include "model-consistency.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	EV_KCOMPACTD_WAKE, EV_COMPACT_TRY, EV_DIRECT_BEGIN, EV_KSWAPD_WAKE,
	EV_KSWAPD_SCANNED, EV_KSWAPD_RECLAIMED, EV_DIRECT_SCANNED,
	EV_DIRECT_RECLAIMED, EV_COMPACT_MIGRATE_SCANNED, EV_COMPACT_FREE_SCANNED,
	EV_COMPACT_MIGRATED, EV_LOST, EV_KSWAPD_TAKEN, EV_DIRECT_TAKEN, EV_BALANCE_RECLAIMED, EV_NR
};

/* LRU indexes of the inactive lists in mm_vmscan_lru_isolate. */
#define LRU_INACTIVE_ANON 0
#define LRU_INACTIVE_FILE 2

struct consistency_model {
	const struct reclaim_model *rm;
	const struct compaction_model *cm;
	int64_t count[EV_NR];		/* running totals of simple events */
	int64_t first[EV_NR], last[EV_NR];
	int nsnap;
	unsigned seen;			/* event types seen (bit per EV_) */
	/* 7.2+: pgscan_* / pgsteal_* are node stats counted through the
	 * lruvec, so memcg reclaim (charge path: memory.high/max) counts in
	 * the global pgscan_direct / pgsteal_direct as well; before 7.2
	 * shrink_inactive_list() left them alone under cgroup_reclaim() */
	int memcg_in_direct;
};

struct consistency_model *consistency_model_new(const struct reclaim_model *rm,
						const struct compaction_model *cm)
{
	struct consistency_model *m = xcalloc(1, sizeof(*m));

	m->rm = rm;
	m->cm = cm;
	return m;
}

void consistency_model_free(struct consistency_model *m)
{
	free(m);
}

void consistency_model_set_kernel(struct consistency_model *m, const char *release)
{
	int maj = 0, min = 0;

	if (release && sscanf(release, "%d.%d", &maj, &min) == 2)
		m->memcg_in_direct = maj > 7 || (maj == 7 && min >= 2);
}

int consistency_model_memcg_in_direct(const struct consistency_model *m)
{
	return m->memcg_in_direct;
}

static void consistency_snapshot(struct consistency_model *m, int64_t *v)
{
	const struct reclaim_kind_stats *ks = reclaim_model_kind(m->rm, RK_KSWAPD);
	const struct reclaim_kind_stats *ds = reclaim_model_kind(m->rm, RK_DIRECT);
	const struct reclaim_kind_stats *ms = reclaim_model_kind(m->rm, RK_MEMCG);
	const struct compact_stats *cs = compaction_model_stats(m->cm);

	memcpy(v, m->count, sizeof(m->count));
	v[EV_KSWAPD_SCANNED] = (int64_t)ks->scanned;
	v[EV_KSWAPD_RECLAIMED] = (int64_t)ks->reclaimed;
	v[EV_DIRECT_SCANNED] = (int64_t)ds->scanned;
	v[EV_DIRECT_RECLAIMED] = (int64_t)ds->reclaimed;
	/* MGLRU counts pgscan_* as isolated folios, not scanned ones */
	v[EV_KSWAPD_TAKEN] = (int64_t)(ks->lru_taken[LRU_INACTIVE_ANON] +
				       ks->lru_taken[LRU_INACTIVE_FILE]);
	v[EV_DIRECT_TAKEN] = (int64_t)(ds->lru_taken[LRU_INACTIVE_ANON] +
				       ds->lru_taken[LRU_INACTIVE_FILE]);
	if (m->memcg_in_direct) {
		v[EV_DIRECT_SCANNED] += (int64_t)ms->scanned;
		v[EV_DIRECT_RECLAIMED] += (int64_t)ms->reclaimed;
		v[EV_DIRECT_TAKEN] += (int64_t)(ms->lru_taken[LRU_INACTIVE_ANON] +
						ms->lru_taken[LRU_INACTIVE_FILE]);
	}
	v[EV_COMPACT_MIGRATE_SCANNED] = 0;
	v[EV_COMPACT_FREE_SCANNED] = 0;
	v[EV_COMPACT_MIGRATED] = 0;
	for (int i = 0; i < CR_NR; i++) {
		v[EV_COMPACT_MIGRATE_SCANNED] += (int64_t)cs->runner[i].migrate_scanned;
		v[EV_COMPACT_FREE_SCANNED] += (int64_t)cs->runner[i].free_scanned;
		v[EV_COMPACT_MIGRATED] += (int64_t)cs->runner[i].migrated;
	}
}

void consistency_model_add(struct consistency_model *m, const struct record *r)
{
	switch (r->type) {
	case REC_KCOMPACTD_WAKE:
		m->count[EV_KCOMPACTD_WAKE]++;
		m->seen |= 1u << EV_KCOMPACTD_WAKE;
		break;
	case REC_KCOMPACTD_SLEEP:
		m->seen |= 1u << EV_KCOMPACTD_WAKE;
		break;
	case REC_COMPACT_TRY:
		m->count[EV_COMPACT_TRY]++;
		break;
	case REC_RECLAIM_BEGIN:
		if (r->rbegin.kind == RK_DIRECT)
			m->count[EV_DIRECT_BEGIN]++;
		break;
	case REC_KSWAPD_WAKE:
		m->count[EV_KSWAPD_WAKE]++;
		break;
	case REC_BALANCE_END:
		m->count[EV_BALANCE_RECLAIMED] += (int64_t)r->balance.nr_reclaimed;
		break;
	case REC_SHRINK_INACTIVE:
		m->seen |= 1u << EV_KSWAPD_SCANNED;
		break;
	case REC_COMPACT_BEGIN:
	case REC_COMPACT_ISOLATE:
		m->seen |= 1u << EV_COMPACT_MIGRATE_SCANNED;
		break;
	case REC_LOST:
		m->count[EV_LOST] += r->lost.count > 0 ? r->lost.count : 1;
		break;
	case REC_SAMPLE_END:
		consistency_snapshot(m, m->nsnap ? m->last : m->first);
		if (!m->nsnap)
			memcpy(m->last, m->first, sizeof(m->last));
		m->nsnap++;
		break;
	default:
		break;
	}
}

struct row_def {
	const char *what, *counter;
	const char *system, *event;
	int ev;
	int alt;		/* another event count that may match, or 0 */
	enum consistency_rel rel;
	int prefix;		/* 1: counter is a prefix to sum (allocstall_);
				 * 2: the event is 7.x only (row optional) */
};

static const struct row_def row_defs[CONSISTENCY_NROWS] = {
	{ "kswapd runs", "pageoutrun",
	  "vmscan", "mm_vmscan_kswapd_wake", EV_KSWAPD_WAKE, 0, REL_EQ, 0 },
	{ "kswapd scanned", "pgscan_kswapd",
	  "vmscan", "mm_vmscan_lru_shrink_inactive", EV_KSWAPD_SCANNED, EV_KSWAPD_TAKEN, REL_EQ, 0 },
	{ "kswapd reclaimed", "pgsteal_kswapd",
	  "vmscan", "mm_vmscan_lru_shrink_inactive", EV_KSWAPD_RECLAIMED, 0, REL_EQ, 0 },
	{ "balance reclaim", "pgsteal_kswapd",
	  "vmscan", "mm_vmscan_balance_pgdat_end", EV_BALANCE_RECLAIMED, 0, REL_LE, 2 },
	{ "direct reclaims", "allocstall_*",
	  "vmscan", "mm_vmscan_direct_reclaim_begin", EV_DIRECT_BEGIN, 0, REL_EQ, 1 },
	{ "direct scanned", "pgscan_direct",
	  "vmscan", "mm_vmscan_lru_shrink_inactive", EV_DIRECT_SCANNED, EV_DIRECT_TAKEN, REL_EQ, 0 },
	{ "direct reclaimed", "pgsteal_direct",
	  "vmscan", "mm_vmscan_lru_shrink_inactive", EV_DIRECT_RECLAIMED, 0, REL_EQ, 0 },
	{ "kcompactd wakes", "compact_daemon_wake",
	  "compaction", "mm_compaction_kcompactd_wake", EV_KCOMPACTD_WAKE, 0, REL_EQ, 0 },
	{ "try_to_compact", "compact_stall",
	  "compaction", "mm_compaction_try_to_compact_pages", EV_COMPACT_TRY, 0, REL_LE, 0 },
	{ "migrate scanned", "compact_migrate_scanned",
	  "compaction", "mm_compaction_isolate_migratepages", EV_COMPACT_MIGRATE_SCANNED, 0, REL_GE, 0 },
	{ "pages migrated", "pgmigrate_success",
	  "compaction", "mm_compaction_migratepages", EV_COMPACT_MIGRATED, 0, REL_GE, 0 },
};

static enum consistency_verdict consistency_judge(enum consistency_rel rel, int64_t ev,
						  int64_t cnt, int64_t lost)
{
	int64_t d = cnt - ev;

	switch (rel) {
	case REL_EQ:
		return d <= lost && -d <= lost ? CV_AGREE : CV_DIFFERS;
	case REL_LE:
		return d <= lost ? CV_AGREE : CV_DIFFERS;
	default:
		return -d <= lost ? CV_AGREE : CV_DIFFERS;
	}
}

const char *consistency_row_rel(const struct consistency_row *row)
{
	/* rows print "events REL counter": events on the left, so REL_LE
	 * (counter <= events) reads ">=" and REL_GE reads "<=" */
	static const char *const expected[] = { "=", ">=", "<=" };

	if (row->verdict == CV_AGREE && row->rel == REL_EQ &&
	    row->events != row->counter_delta)
		return "~";	/* equal within the lost events */
	if (row->verdict == CV_DIFFERS)	/* what holds instead */
		return row->events < row->counter_delta ? "<" : ">";
	return (unsigned)row->rel < 3 ? expected[row->rel] : "?";
}

int consistency_model_rows(const struct consistency_model *m,
			   const struct counters_model *cm,
			   struct consistency_row *rows, int max, int64_t *lost)
{
	int n = 0;

	*lost = m->last[EV_LOST] - m->first[EV_LOST];
	if (m->nsnap < 2)
		return 0;
	for (int i = 0; i < CONSISTENCY_NROWS && n < max; i++) {
		const struct row_def *d = &row_defs[i];
		struct consistency_row *row = &rows[n++];
		int found;

		row->what = d->what;
		row->counter = d->counter;
		row->system = d->system;
		row->event = d->event;
		row->rel = d->rel;
		row->events = m->last[d->ev] - m->first[d->ev];
		if (d->prefix == 1) {
			char pfx[48];

			snprintf(pfx, sizeof(pfx), "%.*s", (int)strcspn(d->counter, "*"),
				 d->counter);
			row->counter_delta = counters_model_delta_prefix(cm, pfx, &found);
		} else {
			row->counter_delta = counters_model_delta(cm, d->counter, &found);
		}
		row->alt_used = 0;
		row->optional = d->prefix == 2;
		if (!found) {
			row->verdict = CV_NO_COUNTER;
			continue;
		}
		row->verdict = consistency_judge(d->rel, row->events, row->counter_delta, *lost);
		if (row->verdict == CV_DIFFERS && d->alt) {
			int64_t alt = m->last[d->alt] - m->first[d->alt];

			if (consistency_judge(d->rel, alt, row->counter_delta, *lost) == CV_AGREE) {
				row->events = alt;
				row->alt_used = 1;
				row->verdict = CV_AGREE;
			}
		}
	}
	return n;
}

/* The driver's view (model.h): one entry of models[] in src/analysis.c. */
static void *ops_create(const struct model_env *env)
{
	const struct reclaim_model *rm = env->peer(env, &reclaim_model_ops);
	const struct compaction_model *cm = env->peer(env, &compaction_model_ops);

	return rm && cm ? consistency_model_new(rm, cm) : NULL;
}
static void ops_add(void *m, const struct record *r) { consistency_model_add(m, r); }
static void ops_destroy(void *m) { consistency_model_free(m); }

const struct model_ops consistency_model_ops = {
	.name = "consistency",
	.create_env = ops_create,
	.add = ops_add,
	.destroy = ops_destroy,
};
