// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Lanes: the intervals the timeline draws, built from typed records.
 * kswapd and kcompactd are open from their wake to their sleep record;
 * reclaim stalls and compaction runs from begin to end of the same task
 * (a small open table keyed by pid); compaction runs by a kcompactd
 * thread are left to the kcompactd lane. A run's node is the node of its
 * last "finished" check, else 0; stalls without a node go to node 0.
 *
 * Watermark samples are kept per zone; each node shows the zone that
 * came closest to its high watermark, by the rule the handoff model's
 * snapshots follow too (wmark_zone_closer in model-handoff.h). Past
 * LANES_MAX_SAMPLES every other sample is dropped and the stride doubles,
 * so memory stays bounded.
 */
#include "config.h"
#include "model-lanes.h"
#include "model-handoff.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LANES_OPEN_MAX 4096

_Static_assert(sizeof(struct lane_span) <= 24, "a span stays small: LANES_MAX_SPANS per lane");

struct open_span {
	int pid;
	int nid;
	enum lane_id lane;
	struct lane_span s;
};

struct zone_track {
	char zone[16];
	struct wmark_zone_rank rank;	/* which zone to show */
	struct wm_sample *samples;
	int nsamples, alloc, stride, skip;
};

struct lanes {
	struct lanes_node node[LANES_MAX_NODES];
	struct zone_track zones[LANES_MAX_NODES][LANES_MAX_ZONES];
	int nzones[LANES_MAX_NODES];
	int nnodes;
	/* open per-node spans: kswapd, kcompactd */
	int64_t open_start[LANES_MAX_NODES][2];
	int open_pid[LANES_MAX_NODES][2];
	int16_t open_kind[LANES_MAX_NODES][2], open_order[LANES_MAX_NODES][2];
	/* open per-task spans: reclaim, compaction */
	struct open_span open[LANES_OPEN_MAX];
	int nopen;
	int kcompactd_pids[LANES_MAX_NODES];
	int synced;			/* provisional spans present (lanes_sync) */
};

static const char *const lane_names[LANE_NR] = {
	"kswapd", "kcompactd", "reclaim", "compact", "oom",
};

const char *lane_name(enum lane_id id)
{
	return id < LANE_NR ? lane_names[id] : "?";
}

struct lanes *lanes_new(void)
{
	struct lanes *l = xcalloc(1, sizeof(*l));

	for (int n = 0; n < LANES_MAX_NODES; n++) {
		l->open_start[n][0] = l->open_start[n][1] = -1;
		l->node[n].zone = "";
	}
	return l;
}

void lanes_free(struct lanes *l)
{
	if (!l)
		return;
	for (int n = 0; n < LANES_MAX_NODES; n++) {
		for (int k = 0; k < LANE_NR; k++)
			free(l->node[n].lane[k].spans);
		for (int z = 0; z < l->nzones[n]; z++)
			free(l->zones[n][z].samples);
	}
	free(l);
}

static struct lanes_node *lanes_node_get(struct lanes *l, int nid)
{
	if (nid < 0 || nid >= LANES_MAX_NODES)
		nid = 0;
	if (nid >= l->nnodes)
		l->nnodes = nid + 1;
	l->node[nid].seen = 1;
	return &l->node[nid];
}

static int lane_push(struct lane *ln, const struct lane_span *s)
{
	if (ln->n == LANES_MAX_SPANS) {
		ln->dropped++;
		return -1;
	}
	if (ln->n == ln->alloc) {
		int alloc = ln->alloc ? ln->alloc * 2 : 256;
		ln->spans = xreallocarray(ln->spans, (size_t)alloc, sizeof(*ln->spans));
		ln->alloc = alloc;
	}
	ln->spans[ln->n++] = *s;
	if (s->end - s->start > ln->max_len)
		ln->max_len = s->end - s->start;
	return 0;
}

/* A span's fields, within its bit-fields' ranges. */
static void lane_span_set(struct lane_span *s, int pid, int kind, int order, int cgroup)
{
	s->pid = pid;
	s->kind = kind;
	s->order = order > 31 ? 31 : order < -32 ? -32 : order;
	s->cgroup = cgroup > 0 && cgroup <= LANE_CGROUP_MAX ? (unsigned)cgroup : 0;
}

static void lanes_add_span(struct lanes *l, int nid, enum lane_id lane, uint64_t start,
			   uint64_t end, int pid, int kind, int order, int cgroup)
{
	struct lane_span s = { .start = start, .end = end < start ? start : end };

	lane_span_set(&s, pid, kind, order, cgroup);
	lane_push(&lanes_node_get(l, nid)->lane[lane], &s);
}

/* Per-node kswapd (k = 0) and kcompactd (k = 1) wake and sleep. */
static void lanes_node_wake(struct lanes *l, const struct record *r, int nid, int k, int kind)
{
	if (nid < 0 || nid >= LANES_MAX_NODES)
		nid = 0;
	lanes_node_get(l, nid);
	if (k == 1)
		l->kcompactd_pids[nid] = r->pid;
	if (l->open_start[nid][k] >= 0)
		return;		/* a re-balance inside the episode */
	l->open_start[nid][k] = (int64_t)r->ts;
	l->open_pid[nid][k] = r->pid;
	l->open_kind[nid][k] = (int16_t)kind;
	l->open_order[nid][k] = (int16_t)r->wake.order;
}

static void lanes_node_sleep(struct lanes *l, uint64_t ts, int nid, int k)
{
	if (nid < 0 || nid >= LANES_MAX_NODES)
		nid = 0;
	if (l->open_start[nid][k] < 0)
		return;
	lanes_add_span(l, nid, k == 0 ? LANE_KSWAPD : LANE_KCOMPACTD,
		       (uint64_t)l->open_start[nid][k], ts, l->open_pid[nid][k],
		       l->open_kind[nid][k], l->open_order[nid][k], 0);
	l->open_start[nid][k] = -1;
}

static struct open_span *lanes_open_find(struct lanes *l, int pid, enum lane_id lane)
{
	for (int i = 0; i < l->nopen; i++)
		if (l->open[i].pid == pid && l->open[i].lane == lane)
			return &l->open[i];
	return NULL;
}

static void lanes_task_begin(struct lanes *l, const struct record *r, enum lane_id lane,
			     int nid, int kind, int order)
{
	struct open_span *o = lanes_open_find(l, r->pid, lane);

	if (!o) {
		if (l->nopen == LANES_OPEN_MAX)
			return;
		o = &l->open[l->nopen++];
	}
	o->pid = r->pid;
	o->lane = lane;
	o->nid = nid;
	o->s.start = r->ts;
	/* the cgroup where it began, as the cgroups section counts it */
	lane_span_set(&o->s, r->pid, kind, order, r->cgroup);
}

static void lanes_task_end(struct lanes *l, const struct record *r, enum lane_id lane)
{
	struct open_span *o = lanes_open_find(l, r->pid, lane);

	if (!o)
		return;
	lanes_add_span(l, o->nid, lane, o->s.start, r->ts, o->s.pid, o->s.kind, o->s.order,
		       (int)o->s.cgroup);
	*o = l->open[--l->nopen];
}

static int lanes_is_kcompactd(const struct lanes *l, int pid)
{
	for (int n = 0; n < l->nnodes; n++)
		if (l->kcompactd_pids[n] == pid && pid > 0)
			return 1;
	return 0;
}

static struct zone_track *lanes_zone_track(struct lanes *l, int nid, const char *zone)
{
	int i;

	for (i = 0; i < l->nzones[nid]; i++)
		if (!strcmp(l->zones[nid][i].zone, zone))
			return &l->zones[nid][i];
	if (i == LANES_MAX_ZONES)
		return NULL;
	l->nzones[nid]++;
	snprintf(l->zones[nid][i].zone, sizeof(l->zones[nid][i].zone), "%s", zone);
	l->zones[nid][i].stride = 1;
	return &l->zones[nid][i];
}

static void lanes_zone(struct lanes *l, const struct record *r)
{
	struct lanes_node *n = lanes_node_get(l, r->zone.node);
	int nid = (int)(n - l->node);
	struct zone_track *z, *best = NULL;

	if (!wmark_zone_eligible(r->zone.managed))	/* empty (Movable, unpopulated) */
		return;
	z = lanes_zone_track(l, nid, r->zone.zone ? r->zone.zone : "");
	if (!z)
		return;
	wmark_zone_rank_add(&z->rank, r->zone.free, r->zone.high, r->zone.managed);
	if (++z->skip >= z->stride) {
		z->skip = 0;
		if (z->nsamples == LANES_MAX_SAMPLES) {
			for (int i = 0; i < LANES_MAX_SAMPLES / 2; i++)
				z->samples[i] = z->samples[2 * i];
			z->nsamples = LANES_MAX_SAMPLES / 2;
			z->stride *= 2;
		}
		if (z->nsamples == z->alloc) {
			z->alloc = z->alloc ? z->alloc * 2 : 256;
			z->samples = xreallocarray(z->samples, (size_t)z->alloc, sizeof(*z->samples));
		}
		z->samples[z->nsamples++] = (struct wm_sample){ r->ts, r->zone.free, r->zone.min,
								r->zone.low, r->zone.high };
	}
	for (int i = 0; i < l->nzones[nid]; i++)
		if (l->zones[nid][i].nsamples &&
		    (!best || wmark_zone_closer(&l->zones[nid][i].rank, &best->rank)))
			best = &l->zones[nid][i];
	n->zones_sampled = 0;
	for (int i = 0; i < l->nzones[nid]; i++)
		n->zones_sampled += l->zones[nid][i].nsamples > 0;
	if (best) {
		n->samples = best->samples;
		n->nsamples = best->nsamples;
		n->zone = best->zone;
		n->zone_managed = best->rank.managed;
	}
}

/* Takes the provisional spans of lanes_sync() out again (they keep
 * their order among the closed ones, so the rest stays sorted). */
static void lanes_unsync(struct lanes *l)
{
	for (int n = 0; n < l->nnodes; n++)
		for (int k = 0; k < LANE_NR; k++) {
			struct lane *ln = &l->node[n].lane[k];
			int w = 0;

			if (!ln->nopen)
				continue;
			for (int i = 0; i < ln->n; i++)
				if (!(ln->spans[i].flags & LANE_OPEN))
					ln->spans[w++] = ln->spans[i];
			ln->n = w;
			ln->nsorted = w;
			ln->nopen = 0;
		}
	l->synced = 0;
}

void lanes_add(struct lanes *l, const struct record *r)
{
	if (l->synced)
		lanes_unsync(l);
	switch (r->type) {
	case REC_KSWAPD_WAKE:
		lanes_node_wake(l, r, r->wake.nid, 0, 0);
		break;
	case REC_KSWAPD_SLEEP:
		lanes_node_sleep(l, r->ts, r->sleep.nid, 0);
		break;
	case REC_KCOMPACTD_WAKE:
		lanes_node_wake(l, r, r->wake.nid, 1, r->wake.order > 0);
		break;
	case REC_KCOMPACTD_SLEEP:
		if (r->sleep.nid >= 0 && r->sleep.nid < LANES_MAX_NODES)
			l->kcompactd_pids[r->sleep.nid] = r->pid;
		lanes_node_get(l, r->sleep.nid);
		lanes_node_sleep(l, r->ts, r->sleep.nid, 1);
		break;
	case REC_RECLAIM_BEGIN:
		if (r->rbegin.kind != RK_KSWAPD)
			lanes_task_begin(l, r, LANE_RECLAIM, r->rbegin.nid, r->rbegin.kind,
					 r->rbegin.order);
		break;
	case REC_RECLAIM_END:
		lanes_task_end(l, r, LANE_RECLAIM);
		break;
	case REC_COMPACT_BEGIN:
		if (!lanes_is_kcompactd(l, r->pid))
			lanes_task_begin(l, r, LANE_COMPACT, 0, r->crun.sync, -1);
		break;
	case REC_COMPACT_FINISHED: {
		struct open_span *o = lanes_open_find(l, r->pid, LANE_COMPACT);

		if (o && r->cfin.nid >= 0 && r->cfin.nid < LANES_MAX_NODES)
			o->nid = r->cfin.nid;
		break;
	}
	case REC_COMPACT_END:
		lanes_task_end(l, r, LANE_COMPACT);
		break;
	case REC_OOM:
		/* the victim (the event's own pid field), not the task the
		 * kill ran in; that one only where the field is missing */
		if (r->oom.kind == OOM_VICTIM)
			lanes_add_span(l, 0, LANE_OOM, r->ts, r->ts,
				       r->oom.victim > 0 ? r->oom.victim : r->pid, 0, 0, r->cgroup);
		break;
	case REC_ZONE:
		lanes_zone(l, r);
		break;
	default:
		break;
	}
}

static int lanes_cmp(const void *a, const void *b)
{
	const struct lane_span *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* Sorts spans[nsorted..n) into the sorted prefix. Spans close roughly in
 * the order they start, so this is an insertion sort over a short tail;
 * a long unsorted tail (a first sort) goes through qsort. */
static void lane_sort(struct lane *ln)
{
	if (ln->n - ln->nsorted > 64) {
		qsort(ln->spans, (size_t)ln->n, sizeof(struct lane_span), lanes_cmp);
	} else {
		for (int i = ln->nsorted > 0 ? ln->nsorted : 1; i < ln->n; i++) {
			struct lane_span v = ln->spans[i];
			int j = i;

			while (j > 0 && ln->spans[j - 1].start > v.start) {
				ln->spans[j] = ln->spans[j - 1];
				j--;
			}
			ln->spans[j] = v;
		}
	}
	ln->nsorted = ln->n;
}

static void lanes_sort_all(struct lanes *l)
{
	for (int n = 0; n < l->nnodes; n++)
		for (int k = 0; k < LANE_NR; k++)
			lane_sort(&l->node[n].lane[k]);
	if (!l->nnodes)
		lanes_node_get(l, 0);
}

void lanes_finish(struct lanes *l, uint64_t end_ts)
{
	if (l->synced)
		lanes_unsync(l);
	for (int n = 0; n < LANES_MAX_NODES; n++)
		for (int k = 0; k < 2; k++)
			lanes_node_sleep(l, end_ts, n, k);
	for (int i = 0; i < l->nopen; i++)
		lanes_add_span(l, l->open[i].nid, l->open[i].lane, l->open[i].s.start, end_ts,
			       l->open[i].s.pid, l->open[i].s.kind, l->open[i].s.order,
			       (int)l->open[i].s.cgroup);
	l->nopen = 0;
	lanes_sort_all(l);
}

/* A provisional span: pushed like a closed one, flagged, counted. */
static void lanes_add_open(struct lanes *l, int nid, enum lane_id lane, const struct lane_span *s,
			   uint64_t now)
{
	struct lane *ln = &lanes_node_get(l, nid)->lane[lane];
	struct lane_span v = *s;

	v.end = now > v.start ? now : v.start;
	v.flags |= LANE_OPEN;
	if (ln->n < LANES_MAX_SPANS && !lane_push(ln, &v))
		ln->nopen++;
}

void lanes_sync(struct lanes *l, uint64_t now)
{
	if (l->synced)
		lanes_unsync(l);
	for (int n = 0; n < l->nnodes; n++)
		for (int k = 0; k < 2; k++) {
			struct lane_span s = { 0 };

			if (l->open_start[n][k] < 0)
				continue;
			s.start = (uint64_t)l->open_start[n][k];
			lane_span_set(&s, l->open_pid[n][k], l->open_kind[n][k],
				      l->open_order[n][k], 0);
			lanes_add_open(l, n, k == 0 ? LANE_KSWAPD : LANE_KCOMPACTD, &s, now);
		}
	for (int i = 0; i < l->nopen; i++)
		lanes_add_open(l, l->open[i].nid, l->open[i].lane, &l->open[i].s, now);
	lanes_sort_all(l);
	l->synced = 1;
}

/* First span that may reach past t: spans are sorted by start and none
 * is longer than max_len, so those starting before t - max_len end
 * before t. */
static int lane_first_from(const struct lane *ln, uint64_t t)
{
	uint64_t from = t > ln->max_len ? t - ln->max_len : 0;
	int lo = 0, hi = ln->n;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (ln->spans[mid].start < from)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int lanes_nnodes(const struct lanes *l)
{
	return l->nnodes > 0 ? l->nnodes : 1;
}

const struct lanes_node *lanes_node(const struct lanes *l, int nid)
{
	return nid >= 0 && nid < LANES_MAX_NODES ? &l->node[nid] : NULL;
}

void lanes_cover(const struct lane *ln, int kind, uint64_t origin, uint64_t step, int ncols,
		 uint32_t *counts)
{
	int32_t *diff = xcalloc((size_t)ncols + 1, sizeof(*diff));
	uint64_t end = origin + step * (uint64_t)ncols;

	for (int i = lane_first_from(ln, origin); i < ln->n; i++) {
		const struct lane_span *s = &ln->spans[i];
		uint64_t c0, c1;

		if (s->start >= end)
			break;
		if (s->end < origin || (kind >= 0 && s->kind != kind))
			continue;
		c0 = s->start > origin ? (s->start - origin) / step : 0;
		c1 = s->end > origin ? (s->end - origin) / step : 0;
		if (c1 >= (uint64_t)ncols)
			c1 = (uint64_t)ncols - 1;
		diff[c0]++;
		diff[c1 + 1]--;
	}
	for (int c = 0, run = 0; c < ncols; c++) {
		run += diff[c];
		counts[c] = run > 0 ? (uint32_t)run : 0;
	}
	free(diff);
}

int lanes_find(const struct lane *ln, uint64_t a, uint64_t b, uint64_t slack)
{
	int best = -1;
	uint64_t best_d = UINT64_MAX;

	for (int i = lane_first_from(ln, a > slack ? a - slack : 0); i < ln->n; i++) {
		const struct lane_span *s = &ln->spans[i];
		uint64_t d;

		if (s->start > b + slack)
			break;
		if (s->end >= a && s->start <= b)
			d = 0;
		else if (s->end < a)
			d = a - s->end;
		else
			d = s->start - b;
		if (d <= slack && d < best_d) {
			best = i;
			best_d = d;
		}
	}
	return best;
}

/* The driver's view (model.h): one entry of models[] in src/analysis.c. */
static void *ops_create(void) { return lanes_new(); }
static void ops_add(void *m, const struct record *r) { lanes_add(m, r); }
static void ops_finish(void *m, uint64_t end_ts) { lanes_finish(m, end_ts); }
static void ops_sync(void *m, uint64_t now) { lanes_sync(m, now); }
static void ops_destroy(void *m) { lanes_free(m); }

const struct model_ops lanes_model_ops = {
	.name = "lanes",
	.create = ops_create,
	.add = ops_add,
	.finish = ops_finish,
	.destroy = ops_destroy,
	.sync = ops_sync,
	.viewer = 1,	/* the TUI's timeline, plot and Perfetto */
};
