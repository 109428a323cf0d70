// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Compaction model (see model-compaction.h). The runner of a compaction
 * run is decided at its begin from the task: a kcompactd task (known from
 * its wake/sleep records or its name) between a kcompactd_wake and its
 * kcompactd_sleep (a request), after its sleep (proactive: compact_node
 * emits no wake), or unclassified while neither was seen since the start
 * or lost events (the handoff model's rule, so both agree), a task that called
 * try_to_compact_pages within the last second (direct), khugepaged by
 * comm, else manual. Scanner and migration records go to the run open on
 * the same task. A task not seen to begin or end a run yet has them held
 * until it does: its first end (a run begun before the recording, or the
 * part of a run) takes them, with the runner the model can tell then
 * (kcompactd's unclassified until its wake or sleep, no direct without
 * the try: manual), a begin or the end of the recording makes them
 * unattributed, as the whole run counts them.
 */
#include "config.h"
#include "model-compaction.h"
#include "pidmap.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DIRECT_WINDOW_NS 1000000000ULL

struct cpid {
	int is_kcompactd;
	int kc_known;		/* a wake or sleep seen since the start/a loss */
	int kc_on_request;	/* after kcompactd_wake, before its sleep */
	int run_open;
	enum compact_runner runner;
	uint64_t begin_ts, zone_start;
	uint64_t try_ts;
	int try_order, kc_order, run_order;
	int is_khugepaged;
	char comm[16];
	int known;		/* a begin or end of it seen */
	struct compact_runner_stats *held;	/* its scanner work until then */
	uint64_t held_scans;	/* records in held */
};

/* Zones by their samples (zoneinfo): node, name, spanned pages. A
 * compaction event gives a zone's first and last pfn only; its span
 * names it (zone_end - zone_start = spanned). */
#define COMPACT_ZNAMES 32

struct compaction_model {
	struct compact_stats st;
	struct { int node; char name[16]; int64_t spanned; } zn[COMPACT_ZNAMES];
	int nzn;
	struct pidmap pids;
	struct compact_run *runs;	/* ended runs, in end order */
	int nruns, aruns;
	uint64_t runs_dropped;		/* beyond COMPACT_MAX_RUNS */
	int no_runs;			/* compaction_model_keep_runs(m, 0) */
	uint64_t from, cut;		/* compaction_model_bounds; 0 none */
};

void compaction_model_keep_runs(struct compaction_model *m, int keep)
{
	m->no_runs = !keep;
}

struct compaction_model *compaction_model_new(void)
{
	struct compaction_model *m = xcalloc(1, sizeof(*m));

	for (int i = 0; i < CR_NR; i++)
		hist_init(&m->st.runner[i].dur);
	pidmap_init(&m->pids, sizeof(struct cpid));
	return m;
}

void compaction_model_free(struct compaction_model *m)
{
	if (!m)
		return;
	for (unsigned i = 0; i < m->pids.cap; i++)
		if (m->pids.keys[i] >= 0)
			free(((struct cpid *)PIDMAP_VAL(&m->pids, i))->held);
	pidmap_release(&m->pids);
	free(m->runs);
	free(m);
}

static struct compact_zone_stats *compaction_zone(struct compaction_model *m,
						  uint64_t start, uint64_t end)
{
	struct compact_stats *st = &m->st;

	for (int i = 0; i < st->nzones; i++)
		if (st->zones[i].zone_start == start)
			return &st->zones[i];
	if (st->nzones == COMPACT_MAX_ZONES)
		return NULL;
	st->zones[st->nzones].zone_start = start;
	st->zones[st->nzones].zone_end = end;
	return &st->zones[st->nzones++];
}

static enum compact_runner compaction_runner(const struct cpid *p, uint64_t ts)
{
	if (p->is_kcompactd && !p->kc_known)
		return CR_KC_UNCLASSIFIED;
	if (p->is_kcompactd)
		return p->kc_on_request ? CR_KCOMPACTD : CR_PROACTIVE;
	if (p->is_khugepaged)
		return CR_KHUGEPAGED;
	if (p->try_ts && ts - p->try_ts < DIRECT_WINDOW_NS)
		return CR_DIRECT;
	return CR_MANUAL;
}

/* The scanner figures of one block into another. */
static void compaction_work_add(struct compact_runner_stats *to,
				const struct compact_runner_stats *w)
{
	to->migrate_scanned += w->migrate_scanned;
	to->migrate_taken += w->migrate_taken;
	to->free_scanned += w->free_scanned;
	to->free_taken += w->free_taken;
	to->migrated += w->migrated;
	to->failed += w->failed;
	to->finished += w->finished;
}

/* A task's first begin or end: its held scanner work goes to rs (its
 * run's runner), or is unattributed (rs NULL). */
static void compaction_know(struct compaction_model *m, struct cpid *p,
			    struct compact_runner_stats *rs)
{
	p->known = 1;
	if (!p->held)
		return;
	if (rs)
		compaction_work_add(rs, p->held);
	else
		m->st.unattributed_scans += p->held_scans;
	free(p->held);
	p->held = NULL;
	p->held_scans = 0;
}

static void compaction_begin(struct compaction_model *m, const struct record *r)
{
	struct cpid *p = pidmap_add(&m->pids, r->pid);

	compaction_know(m, p, NULL);	/* before it: outside a run */
	if (r->comm && !strcmp(r->comm, "khugepaged"))
		p->is_khugepaged = 1;
	/* kcompactd's threads are named kcompactd<node> (kcompactd_run) */
	if (r->comm && !strncmp(r->comm, "kcompactd", 9))
		p->is_kcompactd = 1;
	if (r->comm)
		snprintf(p->comm, sizeof(p->comm), "%s", r->comm);
	if (p->run_open)
		m->st.runner[p->runner].open_at_end++;	/* its end was lost */
	p->run_open = 1;
	p->runner = compaction_runner(p, r->ts);
	p->run_order = p->runner == CR_KCOMPACTD ? p->kc_order :
		       p->runner == CR_DIRECT ? p->try_order : -1;
	p->begin_ts = r->ts;
	p->zone_start = r->crun.zone_start;
}

static void compaction_log_run(struct compaction_model *m, const struct cpid *p,
			       const struct record *r, uint64_t d)
{
	if (m->no_runs)
		return;
	if (m->nruns == COMPACT_MAX_RUNS) {
		m->runs_dropped++;
		return;
	}
	if (m->nruns == m->aruns) {
		m->aruns = m->aruns ? 2 * m->aruns : 256;
		if (m->aruns > COMPACT_MAX_RUNS)
			m->aruns = COMPACT_MAX_RUNS;
		m->runs = xreallocarray(m->runs, (size_t)m->aruns, sizeof(*m->runs));
	}
	m->runs[m->nruns++] = (struct compact_run){
		.begin = p->begin_ts, .dur = d, .pid = r->pid, .runner = p->runner,
		.order = p->run_order > 0 ? p->run_order : -1, .status = r->crun.status,
		.zone_start = r->crun.zone_start };
	memcpy(m->runs[m->nruns - 1].comm, p->comm, sizeof(p->comm));
}

/* An end's status into its runner and its zone. */
static void compaction_ended(struct compaction_model *m, struct compact_runner_stats *rs,
			     const struct record *r)
{
	struct compact_zone_stats *z;
	int s = r->crun.status;

	rs->runs++;
	if (s >= 0 && s < COMPACT_NSTATUS)
		rs->status[s]++;
	z = compaction_zone(m, r->crun.zone_start, r->crun.zone_end);
	if (z) {
		z->runs++;
		if (s >= 0 && s < COMPACT_NSTATUS)
			z->status[s]++;
	}
}

static void compaction_end(struct compaction_model *m, const struct record *r)
{
	struct cpid *p = pidmap_add(&m->pids, r->pid);
	struct compact_runner_stats *rs;
	int s = r->crun.status;
	uint64_t d;

	if (r->comm && !strcmp(r->comm, "khugepaged"))
		p->is_khugepaged = 1;
	if (r->comm && !strncmp(r->comm, "kcompactd", 9))
		p->is_kcompactd = 1;
	if (!p->run_open) {
		/* begun before the recording: its scanner work is its
		 * runner's; in a part of a run it ended here (runs, status,
		 * zone) and its time from the cut is this part's, though it
		 * counts in the part where it began */
		if (p->known)
			return;
		rs = &m->st.runner[compaction_runner(p, r->ts)];
		compaction_know(m, p, rs);
		if (m->from) {
			rs->continued++;
			rs->continued_ns += (int64_t)(r->ts - m->from);
			compaction_ended(m, rs, r);
		}
		return;
	}
	p->run_open = 0;
	rs = &m->st.runner[p->runner];
	d = r->ts >= p->begin_ts ? r->ts - p->begin_ts : 0;
	hist_add(&rs->dur, d);
	compaction_log_run(m, p, r, d);
	compaction_ended(m, rs, r);
	{
		struct compact_order_stats *os = p->run_order > 0 &&
			p->run_order < REC_MAX_ORDERS ? &m->st.by_order[p->run_order] :
			&m->st.no_order;

		os->runs++;
		os->success += s == 8;
		os->total_ns += d;
		if (d > os->max_ns)
			os->max_ns = d;
	}
}

static struct compact_runner_stats *compaction_open_run(struct compaction_model *m,
							const struct record *r)
{
	struct cpid *p = pidmap_add(&m->pids, r->pid);

	if (!p->run_open && !p->known) {	/* held until its first begin or end */
		if (!p->held)
			p->held = xcalloc(1, sizeof(*p->held));
		p->held_scans++;
		return p->held;
	}
	if (!p->run_open) {
		m->st.unattributed_scans++;
		return NULL;
	}
	return &m->st.runner[p->runner];
}

static void compaction_kcompactd(struct compaction_model *m, const struct record *r)
{
	struct cpid *p = pidmap_add(&m->pids, r->pid);

	p->is_kcompactd = 1;
	p->kc_known = 1;
	/* any wake is a request served by kcompactd_do_work(), whatever its
	 * order (one <= 0 is no proactive pass: those emit no wake) */
	if (r->type == REC_KCOMPACTD_WAKE) {
		p->kc_on_request = 1;
		p->kc_order = r->wake.order;
	} else
		p->kc_on_request = 0;
}

/* Lost events: a kcompactd's wake or sleep may be among them. */
static void compaction_lost(struct compaction_model *m)
{
	for (unsigned i = 0; i < m->pids.cap; i++)
		if (m->pids.keys[i] >= 0)
			((struct cpid *)PIDMAP_VAL(&m->pids, i))->kc_known = 0;
}

static void compaction_extfrag(struct compaction_model *m, const struct record *r)
{
	struct compact_stats *st = &m->st;
	int a = r->extfrag.alloc_mt, f = r->extfrag.fallback_mt;

	st->extfrag++;
	if (r->extfrag.fallback_order < 4)	/* as trace-pagealloc-postprocess */
		st->extfrag_severe++;
	if (r->extfrag.change_ownership)
		st->extfrag_ownership++;
	if (a >= 0 && a < COMPACT_NMT && f >= 0 && f < COMPACT_NMT)
		st->extfrag_mt[a][f]++;
}

static void compaction_scan(struct compaction_model *m, const struct record *r)
{
	struct compact_runner_stats *rs = compaction_open_run(m, r);

	if (!rs)
		return;
	switch (r->type) {
	case REC_COMPACT_ISOLATE:
		if (r->ciso.kind == ISO_MIGRATE) {
			rs->migrate_scanned += r->ciso.scanned;
			rs->migrate_taken += r->ciso.taken;
		} else {
			rs->free_scanned += r->ciso.scanned;
			rs->free_taken += r->ciso.taken;
		}
		break;
	case REC_COMPACT_MIGRATE:
		rs->migrated += r->cmig.migrated;
		rs->failed += r->cmig.failed;
		break;
	default:
		rs->finished++;
		break;
	}
}

static void compaction_zone_sample(struct compaction_model *m, const struct record *r)
{
	int i;

	if (!r->zone.zone || r->zone.spanned <= 0)
		return;
	for (i = 0; i < m->nzn; i++)
		if (m->zn[i].node == r->zone.node && !strcmp(m->zn[i].name, r->zone.zone))
			break;
	if (i == m->nzn) {
		if (m->nzn == COMPACT_ZNAMES)
			return;
		m->nzn++;
		m->zn[i].node = r->zone.node;
		snprintf(m->zn[i].name, sizeof(m->zn[i].name), "%s", r->zone.zone);
	}
	m->zn[i].spanned = r->zone.spanned;	/* the latest: hotplug moves it */
}

int compaction_model_zone_name(const struct compaction_model *m, uint64_t start,
			       uint64_t end, char *buf, size_t len)
{
	int found = -1, rank = 0, nodes = 0, spanned = 0;

	if (end <= start)
		return 0;
	for (int i = 0; i < m->nzn; i++) {
		if ((uint64_t)m->zn[i].spanned != end - start)
			continue;
		if (found >= 0)
			return 0;	/* two zones of that span: not named */
		found = i;
	}
	/* No span matches (memory hotplug moved a zone's span after the
	 * run): one node whose zones with pages are as many as the zones
	 * compaction ran in, which are then the same zones in pfn order
	 * (the samples list a node's zones in zone order, DMA first). */
	for (int i = 0; found < 0 && i < m->nzn; i++) {
		nodes += !i || m->zn[i].node != m->zn[0].node;
		spanned += m->zn[i].spanned > 0;
	}
	if (found < 0 && nodes == 1 && spanned == m->st.nzones) {
		for (int z = 0; z < m->st.nzones; z++)
			rank += m->st.zones[z].zone_start < start;
		for (int i = 0, k = 0; i < m->nzn; i++)
			if (m->zn[i].spanned > 0 && k++ == rank)
				found = i;
	}
	if (found < 0)
		return 0;
	snprintf(buf, len, "%s (node %d)", m->zn[found].name, m->zn[found].node);
	return 1;
}

void compaction_model_add(struct compaction_model *m, const struct record *r)
{
	struct compact_stats *st = &m->st;
	struct cpid *p;

	switch (r->type) {
	case REC_ZONE:
		compaction_zone_sample(m, r);
		break;
	case REC_KCOMPACTD_WAKE:
	case REC_KCOMPACTD_SLEEP:
		compaction_kcompactd(m, r);
		break;
	case REC_LOST:
		compaction_lost(m);
		break;
	case REC_COMPACT_TRY:
		st->direct_tries++;
		if (r->ctry.order >= 0 && r->ctry.order < REC_MAX_ORDERS)
			st->direct_by_order[r->ctry.order]++;
		p = pidmap_add(&m->pids, r->pid);
		p->try_ts = r->ts ? r->ts : 1;
		p->try_order = r->ctry.order;
		break;
	case REC_COMPACT_BEGIN:
		compaction_begin(m, r);
		break;
	case REC_COMPACT_END:
		compaction_end(m, r);
		break;
	case REC_COMPACT_ISOLATE:
	case REC_COMPACT_MIGRATE:
	case REC_COMPACT_FINISHED:
		compaction_scan(m, r);
		break;
	case REC_COMPACT_SUITABLE:
		if (r->cfin.order >= 0 && r->cfin.order < REC_MAX_ORDERS &&
		    r->cfin.ret >= 0 && r->cfin.ret < COMPACT_NSTATUS)
			st->suitable[r->cfin.order][r->cfin.ret]++;
		break;
	case REC_COMPACT_DEFER:
		if (r->defer.kind == DEFER_DEFERRED)
			st->deferred++;
		else if (r->defer.kind == DEFER_COMPACTION)
			st->defer_compaction++;
		else
			st->defer_reset++;
		break;
	case REC_EXTFRAG:
		compaction_extfrag(m, r);
		break;
	default:
		break;
	}
}

void compaction_model_bounds(struct compaction_model *m, uint64_t from, uint64_t cut)
{
	m->from = from;
	m->cut = cut;
}

void compaction_model_finish(struct compaction_model *m, uint64_t end_ts)
{
	(void)end_ts;
	for (unsigned i = 0; i < m->pids.cap; i++) {
		struct cpid *p;

		if (m->pids.keys[i] < 0)
			continue;
		p = PIDMAP_VAL(&m->pids, i);
		if (p->run_open && m->cut) {	/* counted where it began */
			struct compact_runner_stats *rs = &m->st.runner[p->runner];

			rs->cut++;
			rs->cut_ns += (int64_t)(m->cut - p->begin_ts);
		} else if (p->run_open) {
			m->st.runner[p->runner].open_at_end++;
		}
		p->run_open = 0;
		if (!p->known)
			compaction_know(m, p, NULL);
	}
}

const struct compact_stats *compaction_model_stats(const struct compaction_model *m)
{
	return &m->st;
}

enum compact_runner compact_runner_shown(enum compact_runner r, int split_known)
{
	return !split_known && (r == CR_KCOMPACTD || r == CR_PROACTIVE) ?
	       CR_KC_UNCLASSIFIED : r;
}

static void hist_fold(struct hist *to, const struct hist *from)
{
	if (!from->count)
		return;
	if (!to->count || from->min < to->min)
		to->min = from->min;
	if (from->max > to->max)
		to->max = from->max;
	to->count += from->count;
	to->sum += from->sum;
	for (int i = 0; i < HIST_NBUCKETS; i++)
		to->b[i] += from->b[i];
}

void compact_stats_fold_kcompactd(struct compact_stats *st)
{
	struct compact_runner_stats *to = &st->runner[CR_KC_UNCLASSIFIED];

	for (int k = CR_KCOMPACTD; k <= CR_PROACTIVE; k++) {
		struct compact_runner_stats *r = &st->runner[k];

		to->runs += r->runs;
		to->open_at_end += r->open_at_end;
		to->cut += r->cut;
		to->continued += r->continued;
		to->cut_ns += r->cut_ns;
		to->continued_ns += r->continued_ns;
		hist_fold(&to->dur, &r->dur);
		for (int s = 0; s < COMPACT_NSTATUS; s++)
			to->status[s] += r->status[s];
		to->migrate_scanned += r->migrate_scanned;
		to->migrate_taken += r->migrate_taken;
		to->free_scanned += r->free_scanned;
		to->free_taken += r->free_taken;
		to->migrated += r->migrated;
		to->failed += r->failed;
		to->finished += r->finished;
		memset(r, 0, sizeof(*r));
		hist_init(&r->dur);
	}
}

const char *compact_runner_name(enum compact_runner r)
{
	static const char *const names[CR_NR] = {
		"kcompactd", "proactive", "direct", "khugepaged", "manual",
		"kc_unknown",
	};

	return (unsigned)r < CR_NR ? names[r] : "?";
}

const char *compact_status_name(int s)
{
	static const char *const names[COMPACT_NSTATUS] = {
		"not_suitable_zone", "skipped", "deferred", "no_suitable_page",
		"continue", "complete", "partial_skipped", "contended", "success",
	};

	return s >= 0 && s < COMPACT_NSTATUS ? names[s] : "?";
}

const char *migratetype_name(int mt)
{
	static const char *const names[COMPACT_NMT] = {
		"Unmovable", "Movable", "Reclaimable", "HighAtomic", "CMA", "Isolate",
	};

	return mt >= 0 && mt < COMPACT_NMT ? names[mt] : "?";
}

int compaction_model_nruns(const struct compaction_model *m, uint64_t *dropped)
{
	if (dropped)
		*dropped = m->runs_dropped;
	return m->nruns;
}

const struct compact_run *compaction_model_run(const struct compaction_model *m, int i)
{
	return i >= 0 && i < m->nruns ? &m->runs[i] : NULL;
}

/* The driver's view (model.h): one entry of models[] in src/analysis.c. */
static void *ops_create_env(const struct model_env *env)
{
	struct compaction_model *m = compaction_model_new();

	compaction_model_keep_runs(m, !env->summary);	/* the list is the viewers' */
	return m;
}
static void ops_add(void *m, const struct record *r) { compaction_model_add(m, r); }
static void ops_bounds(void *m, uint64_t from, uint64_t cut) { compaction_model_bounds(m, from, cut); }
static void ops_finish(void *m, uint64_t end_ts) { compaction_model_finish(m, end_ts); }
static void ops_destroy(void *m) { compaction_model_free(m); }

const struct model_ops compaction_model_ops = {
	.name = "compaction",
	.create_env = ops_create_env,
	.add = ops_add,
	.bounds = ops_bounds,
	.finish = ops_finish,
	.destroy = ops_destroy,
};
