// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * zswap model (see model-zswap.h). Counters arrive one KEY=VALUE at a
 * time and a set counts once its end line is seen, so the current values
 * are kept as they come and a point is taken at each set's end. vmstat
 * lines after the first carry only the fields that changed, so the last
 * value stands until a new one arrives. The pool limit is
 * max_pool_percent of total RAM, and total RAM is the sum of the zones'
 * managed pages (what totalram_pages() counts). Probes only count
 * results; they need no pairing.
 */
#include "config.h"
#include "model-zswap.h"
#include "thin.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* debugfs counters kept by name: the kernel has about 15; names past
 * this many (a damaged sample) are not kept */
#define ZSW_NCTR 24

struct zswap_model {
	long page_kb;		/* the recording's page size, kB */
	struct zsw_point cur;	/* the values so far; a point at each set's end */
	struct zsw_point *pts;	/* one per complete sample set (thinned: th) */
	struct thin th;		/* th.n points used */
	/* over every set, thinned or not: the last point, the enabled
	 * parameter's first value and first change, whether a set had it
	 * on, and the counters' first and last rises (zswap_model_rise) */
	struct zsw_point last;
	int en_first;		/* -1 none sampled */
	uint64_t en_changed_ts;	/* 0 never changed */
	int en_on;
	uint64_t rise_from[ZSW_RISE_NR], rise_to[ZSW_RISE_NR];
	struct zsw_counter ctr[ZSW_NCTR];	/* debugfs counters by name */
	int nctr;		/* ctr[] used */
	int64_t max_pool_percent;	/* the parameter, -1 not sampled */
	int64_t managed;	/* total RAM, pages: the last complete zone set */
	int64_t managed_set;	/* the zone set being read, summed so far */
	uint64_t zone_seq;	/* seq of that zone set */
	int any;		/* a zswap-related counter was seen */
	int64_t ozsw_first[ZSW_NORDERS];	/* mTHP zswpout per order: first */
	int64_t ozsw_last[ZSW_NORDERS];		/* and last sample (folios) */
	int oseen[ZSW_NORDERS];	/* the order had a zswpout counter */
	int64_t inflight_set;	/* in-flight requests of the swap set being read */
	uint64_t swap_seq;	/* seq of that swap set */
	uint64_t ok[ZSWAP_OP_NR], fail[ZSWAP_OP_NR];	/* probe results per op */
	uint64_t store_order[ZSW_NORDERS];	/* successful stores per order */
	int has_probes;		/* a zswap probe record was seen */
	struct zsw_memcg memcg;	/* the sampled memcg's zswap fields */
	struct zsw_settings set;	/* string parameters, missing reasons */
	int has_pool;		/* stored_pages was sampled */
};

struct zswap_model *zswap_model_new(void)
{
	struct zswap_model *m = xcalloc(1, sizeof(*m));

	m->cur = (struct zsw_point){
		.stored_pages = -1, .pool_bytes = -1, .limit_pages = -1,
		.zswpout = -1, .zswpin = -1, .zswpwb = -1, .pswpout = -1, .pswpin = -1,
		.written_back = -1, .pool_limit_hit = -1, .rejects = -1, .inflight = -1,
		.enabled = -1,
	};
	m->max_pool_percent = -1;
	m->page_kb = 4;
	m->en_first = -1;
	thin_init(&m->th, 0);
	return m;
}

void zswap_model_series_max(struct zswap_model *m, int max)
{
	thin_init(&m->th, max);
}

void zswap_model_free(struct zswap_model *m)
{
	if (!m)
		return;
	free(m->pts);
	free(m);
}

static struct zsw_counter *ctr_get(struct zswap_model *m, const char *key)
{
	for (int i = 0; i < m->nctr; i++)
		if (!strcmp(m->ctr[i].key, key))
			return &m->ctr[i];
	if (m->nctr == ZSW_NCTR)
		return NULL;
	snprintf(m->ctr[m->nctr].key, sizeof(m->ctr[0].key), "%s", key);
	return &m->ctr[m->nctr++];
}

static void on_zswap(struct zswap_model *m, const struct record *r)
{
	const char *k = r->counter.key;
	int64_t v = r->counter.value;
	struct zsw_counter *c;

	m->any = 1;
	if (!strcmp(k, "max_pool_percent")) {
		m->max_pool_percent = v;
		return;
	}
	if (!strcmp(k, "enabled")) {	/* old recorders: enabled=1 */
		m->cur.enabled = v != 0;
		return;
	}
	if (!strcmp(k, "stored_pages")) {
		m->cur.stored_pages = v;
		m->has_pool = 1;
	}
	else if (!strcmp(k, "pool_total_size"))
		m->cur.pool_bytes = v;
	else if (!strcmp(k, "written_back_pages"))
		m->cur.written_back = v;
	else if (!strcmp(k, "pool_limit_hit"))
		m->cur.pool_limit_hit = v;
	if (r->counter.scale || !(c = ctr_get(m, k)))
		return;
	if (!c->seen)
		c->first = v;
	c->last = v;
	c->seen = 1;
}

/* Strings: enabled=Y/N, compressor=, zpool= of the zswap line; the
 * missing line's why_zswap (no zswap) and why_zswap_pool (no debugfs
 * counters: debugfs not mounted, ...). */
static void on_setting(struct zswap_model *m, const struct record *r)
{
	const char *k = r->setting.key, *v = r->setting.value;
	struct zsw_settings *s = &m->set;

	if (r->setting.source == SRC_MISSING) {
		if (!strcmp(k, "why_zswap_pool"))
			snprintf(s->pool_why, sizeof(s->pool_why), "%s", v);
		else if (!strcmp(k, "why_zswap"))
			snprintf(s->why, sizeof(s->why), "%s", v);
		return;
	}
	if (r->setting.source != SRC_ZSWAP)
		return;
	m->any = 1;
	if (!strcmp(k, "enabled")) {
		if (!strcmp(v, "Y") || !strcmp(v, "y"))
			m->cur.enabled = 1;
		else if (!strcmp(v, "N") || !strcmp(v, "n"))
			m->cur.enabled = 0;
	} else if (!strcmp(k, "compressor")) {
		snprintf(s->compressor, sizeof(s->compressor), "%s", v);
	} else if (!strcmp(k, "zpool")) {
		snprintf(s->zpool, sizeof(s->zpool), "%s", v);
	}
}

static void on_vmstat(struct zswap_model *m, const struct record *r)
{
	/* zswap_only: the counter says zswap is in use (pswp* do not) */
	const struct { const char *key; int64_t *dst; int zswap_only; } f[] = {
		{ "zswpout", &m->cur.zswpout, 1 }, { "zswpin", &m->cur.zswpin, 1 },
		{ "zswpwb", &m->cur.zswpwb, 1 }, { "pswpout", &m->cur.pswpout, 0 },
		{ "pswpin", &m->cur.pswpin, 0 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(f); i++)
		if (!strcmp(r->counter.key, f[i].key)) {
			*f[i].dst = r->counter.value;
			m->any |= f[i].zswap_only;
		}
}

int zswap_model_set_page_size(struct zswap_model *m, uint32_t page_size)
{
	if (page_size < 4096 || page_size > 65536 || (page_size & (page_size - 1)))
		return -1;
	m->page_kb = (long)(page_size / 1024);
	return 0;
}

/* An mTHP size in kB is page_size << order. */
static void on_mthp(struct zswap_model *m, const struct record *r)
{
	long kb = strtol(r->counter.instance, NULL, 10), pkb = m->page_kb;
	int o = 0;

	if (strcmp(r->counter.key, "zswpout") || kb < pkb)
		return;
	while ((pkb << o) < kb && o < ZSW_NORDERS)
		o++;
	if (o >= ZSW_NORDERS || (pkb << o) != kb)
		return;
	if (!m->oseen[o])
		m->ozsw_first[o] = r->counter.value;
	m->ozsw_last[o] = r->counter.value;
	m->oseen[o] = 1;
}

static void on_swap(struct zswap_model *m, const struct record *r)
{
	if (r->counter.seq != m->swap_seq) {
		m->swap_seq = r->counter.seq;
		m->inflight_set = 0;
	}
	if (!strcmp(r->counter.key, "inflight_r") || !strcmp(r->counter.key, "inflight_w")) {
		m->inflight_set += r->counter.value;
		m->cur.inflight = m->inflight_set;
	}
}

/* memcg v2 memory.stat: zswap (compressed bytes), zswapped (original). */
static void on_memcg(struct zswap_model *m, const struct record *r)
{
	struct zsw_memcg *c = &m->memcg;
	int k = !strcmp(r->counter.key, "zswap") ? ZSW_MEMCG_ZSWAP :
		!strcmp(r->counter.key, "zswapped") ? ZSW_MEMCG_ZSWAPPED : -1;

	if (k < 0)
		return;
	snprintf(c->path, sizeof(c->path), "%s", r->counter.instance);
	if (r->counter.value > c->max[k])
		c->max[k] = r->counter.value;
	c->last[k] = r->counter.value;
	c->seen = 1;
}

static void on_zone(struct zswap_model *m, const struct record *r)
{
	if (r->zone.seq != m->zone_seq) {
		m->zone_seq = r->zone.seq;
		m->managed_set = 0;
	}
	m->managed_set += r->zone.managed;
	m->managed = m->managed_set;
}

static void on_end(struct zswap_model *m, const struct record *r)
{
	int64_t rej = -1;
	int at;

	if (!m->any)
		return;
	for (int i = 0; i < m->nctr; i++)
		if (!strncmp(m->ctr[i].key, "reject_", 7))
			rej = (rej < 0 ? 0 : rej) + m->ctr[i].last;
	m->cur.rejects = rej;
	m->cur.limit_pages = m->max_pool_percent >= 0 && m->managed ?
			     m->managed * m->max_pool_percent / 100 : -1;
	m->cur.ts = r->ts;
	if (m->cur.enabled >= 0) {
		if (m->en_first < 0)
			m->en_first = m->cur.enabled;
		else if (m->cur.enabled != m->en_first && !m->en_changed_ts)
			m->en_changed_ts = r->ts;
		m->en_on |= m->cur.enabled == 1;
	}
	if (m->th.sets) {	/* rises since the set before */
		const int64_t x[ZSW_RISE_NR] = { m->last.zswpwb, m->last.written_back,
						  m->last.rejects, m->last.pswpout };
		const int64_t y[ZSW_RISE_NR] = { m->cur.zswpwb, m->cur.written_back,
						  m->cur.rejects, m->cur.pswpout };

		for (int k = 0; k < ZSW_RISE_NR; k++)
			if (x[k] >= 0 && y[k] > x[k]) {
				if (!m->rise_to[k])
					m->rise_from[k] = m->last.ts;
				m->rise_to[k] = r->ts;
			}
	}
	m->last = m->cur;
	at = thin_push(&m->th, (void **)&m->pts, sizeof(*m->pts));
	m->pts[at] = m->cur;
}

static void on_probe(struct zswap_model *m, const struct record *r)
{
	if ((unsigned)r->zswap.op >= ZSWAP_OP_NR)
		return;
	m->has_probes = 1;
	if (r->zswap.ok)
		m->ok[r->zswap.op]++;
	else
		m->fail[r->zswap.op]++;
	if (r->zswap.op == ZSWAP_OP_STORE && r->zswap.ok && r->zswap.order >= 0 &&
	    r->zswap.order < ZSW_NORDERS)
		m->store_order[r->zswap.order]++;
}

void zswap_model_add(struct zswap_model *m, const struct record *r)
{
	switch (r->type) {
	case REC_COUNTER:
		if (r->counter.source == SRC_ZSWAP)
			on_zswap(m, r);
		else if (r->counter.source == SRC_VMSTAT)
			on_vmstat(m, r);
		else if (r->counter.source == SRC_MTHP)
			on_mthp(m, r);
		else if (r->counter.source == SRC_SWAP)
			on_swap(m, r);
		else if (r->counter.source == SRC_MEMCG)
			on_memcg(m, r);
		break;
	case REC_SETTING:
		/* the page size is the analysis's (zswap_model_set_page_size) */
		on_setting(m, r);
		break;
	case REC_ZONE: on_zone(m, r); break;
	case REC_SAMPLE_END: on_end(m, r); break;
	case REC_ZSWAP: on_probe(m, r); break;
	default: break;
	}
}

int zswap_model_npoints(const struct zswap_model *m) { return m->th.n; }
const struct zsw_settings *zswap_model_settings(const struct zswap_model *m) { return &m->set; }
int zswap_model_has_pool(const struct zswap_model *m) { return m->has_pool; }

int zswap_model_enabled(const struct zswap_model *m)
{
	return m->th.n ? m->last.enabled : m->cur.enabled;
}

int zswap_model_enabled_first(const struct zswap_model *m, uint64_t *changed_ts)
{
	*changed_ts = m->en_changed_ts;
	return m->en_first >= 0 ? m->en_first : zswap_model_enabled(m);
}

int zswap_model_rise(const struct zswap_model *m, enum zsw_rise k, uint64_t *from,
		     uint64_t *to)
{
	if ((unsigned)k >= ZSW_RISE_NR || !m->rise_to[k])
		return -1;
	*from = m->rise_from[k];
	*to = m->rise_to[k];
	return 0;
}

const struct zsw_point *zswap_model_point(const struct zswap_model *m, int i)
{
	return i >= 0 && i < m->th.n ? &m->pts[i] : NULL;
}

int zswap_model_nrejects(const struct zswap_model *m)
{
	int n = 0;

	for (int i = 0; i < m->nctr; i++)
		n += !strncmp(m->ctr[i].key, "reject_", 7);
	return n;
}

const struct zsw_counter *zswap_model_reject(const struct zswap_model *m, int i)
{
	for (int k = 0; k < m->nctr; k++)
		if (!strncmp(m->ctr[k].key, "reject_", 7) && !i--)
			return &m->ctr[k];
	return NULL;
}

const struct zsw_counter *zswap_model_counter(const struct zswap_model *m, const char *key)
{
	for (int i = 0; i < m->nctr; i++)
		if (!strcmp(m->ctr[i].key, key))
			return &m->ctr[i];
	return NULL;
}

int zswap_model_order_zswpout(const struct zswap_model *m, int order, int64_t *first,
			      int64_t *last)
{
	if (order < 0 || order >= ZSW_NORDERS || !m->oseen[order]) {
		*first = *last = 0;
		return 0;
	}
	*first = m->ozsw_first[order];
	*last = m->ozsw_last[order];
	return 1;
}

int zswap_model_has_probes(const struct zswap_model *m) { return m->has_probes; }
uint64_t zswap_model_probe_ok(const struct zswap_model *m, enum zswap_op op)
{
	return (unsigned)op < ZSWAP_OP_NR ? m->ok[op] : 0;
}
uint64_t zswap_model_probe_fail(const struct zswap_model *m, enum zswap_op op)
{
	return (unsigned)op < ZSWAP_OP_NR ? m->fail[op] : 0;
}
uint64_t zswap_model_store_order(const struct zswap_model *m, int order)
{
	return order >= 0 && order < ZSW_NORDERS ? m->store_order[order] : 0;
}
int zswap_model_max_pool_percent(const struct zswap_model *m)
{
	return (int)m->max_pool_percent;
}

double zswap_model_ratio(const struct zswap_model *m, uint32_t page_size)
{
	const struct zsw_point *p = m->th.n ? &m->last : NULL;

	if (!p || p->stored_pages <= 0 || p->pool_bytes <= 0)
		return 0;
	return (double)p->stored_pages * (double)page_size / (double)p->pool_bytes;
}

const struct zsw_memcg *zswap_model_memcg(const struct zswap_model *m)
{
	return m->memcg.seen ? &m->memcg : NULL;
}

/* The driver's view (model.h): one entry of models[] in src/analysis.c. */
static void *ops_create_env(const struct model_env *env)
{
	struct zswap_model *m = zswap_model_new();

	zswap_model_series_max(m, env->series_max);
	return m;
}
static void ops_add(void *m, const struct record *r) { zswap_model_add(m, r); }
static void ops_destroy(void *m) { zswap_model_free(m); }

const struct model_ops zswap_model_ops = {
	.name = "zswap",
	.create_env = ops_create_env,
	.add = ops_add,
	.destroy = ops_destroy,
};

/*
 * How many stores zswap refused, of how many it was offered, from the
 * truest source the recording has: the store probe (each call and its
 * return: exact); else vmstat, where every page swapped out while zswap
 * is on went first to zswap, so pswpout - zswpwb pages were refused and
 * zswpout + those were offered (6.12 here: 30248 - 3831 = 26417, the
 * probe's own count); else the debugfs reject_* counters against
 * zswpout. Those counters miss the stores refused at the pool limit and
 * by the accept threshold after it (3 rejects where the probe saw 26417
 * refusals), and 5.10 has no zswpout: a share with no denominator is
 * none (tries -1), never 100%. With zswap off every store returns at
 * once: no refusals.
 */
int zswap_model_refusals(const struct zswap_model *m, struct zswap_refusal *z)
{
	int n = zswap_model_npoints(m);
	const struct zsw_point *fp = zswap_model_point(m, 0), *lp = zswap_model_point(m, n - 1);
	uint64_t ok = zswap_model_probe_ok(m, ZSWAP_OP_STORE);
	uint64_t no = zswap_model_probe_fail(m, ZSWAP_OP_STORE);

	int on = ok > 0 || (lp && lp->zswpout > 0 && fp->zswpout >= 0 && lp->zswpout > fp->zswpout);

	on |= m->en_on;	/* a set had zswap enabled */
	if (zswap_model_has_probes(m) && ok + no > 0) {
		*z = (struct zswap_refusal){ (int64_t)no, (int64_t)(ok + no), "probe", 0 };
		goto out;
	}
	if (n >= 2 && fp->enabled == 1 && lp->enabled == 1 && fp->pswpout >= 0 &&
	    lp->pswpout >= 0 && fp->zswpwb >= 0 && lp->zswpwb >= 0 && fp->zswpout >= 0 &&
	    lp->zswpout >= 0) {
		int64_t out = lp->pswpout - fp->pswpout, wb = lp->zswpwb - fp->zswpwb;

		if (out >= wb && wb >= 0) {
			*z = (struct zswap_refusal){ out - wb,
				lp->zswpout - fp->zswpout + out - wb, "vmstat", 0 };
			goto out;
		}
	}
	if (n && fp->rejects >= 0 && lp->rejects >= fp->rejects) {
		int64_t rej = lp->rejects - fp->rejects;

		*z = (struct zswap_refusal){ rej, -1, "debugfs", 0 };
		if (fp->zswpout >= 0 && lp->zswpout >= 0)
			z->tries = rej + lp->zswpout - fp->zswpout;
		goto out;
	}
	return -1;
out:
	/* zswap off refuses every store at once: those are no refusals */
	z->on = on;
	if (!on)
		z->refused = 0;
	return 0;
}
