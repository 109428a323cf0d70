// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The victim's memory cgroup before a kill (see kill-cgroup.h): per
 * cgroup path a ring of the samples of the last window, trimmed as time
 * passes, and the set being read.
 */
#include "config.h"
#include "kill-cgroup.h"
#include "cgmap.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KC_STAT_NAME(n) #n,
const char *const kill_cgroup_stat_names[KC_NSTATS] = { KC_STATS(KC_STAT_NAME) };

void kill_cgroup_init(struct kill_cgroup *c, uint64_t window_ns)
{
	memset(c, 0, sizeof(*c));
	c->window_ns = window_ns;
	c->last = -1;
}

void kill_cgroup_release(struct kill_cgroup *c)
{
	for (int i = 0; i < c->ncg; i++) {
		free(c->cg[i].path);
		free(c->cg[i].v);
	}
	for (int i = 0; i < c->noom; i++) {
		free(c->oom[i].cg);
		free(c->oom[i].before);
	}
	free(c->cg);
	free(c->touched);
	free(c->done);
	memset(c, 0, sizeof(*c));
}

static struct kc_sample *at(const struct kc_cgroup *g, unsigned i)
{
	return &g->v[(g->head + i) % g->cap];
}

static int find(const struct kill_cgroup *c, const char *path)
{
	if (c->last >= 0 && !strcmp(c->cg[c->last].path, path))
		return c->last;
	for (int i = 0; i < c->ncg; i++)
		if (!strcmp(c->cg[i].path, path))
			return i;
	return -1;
}

static int find_or_add(struct kill_cgroup *c, const char *path)
{
	int i = find(c, path);
	struct kc_cgroup *g;

	if (i >= 0 || c->ncg >= KC_CGROUPS_MAX)
		return i;
	if (c->ncg == c->capcg) {
		c->capcg = c->capcg ? 2 * c->capcg : 16;
		c->cg = xreallocarray(c->cg, (size_t)c->capcg, sizeof(*c->cg));
	}
	g = &c->cg[c->ncg];
	memset(g, 0, sizeof(*g));
	g->path = xstrdup(path);
	g->limit = -1;
	return c->ncg++;
}

static void sample_clear(struct kc_sample *s, uint64_t ts)
{
	s->ts = ts;
	s->usage = -1;
	for (int k = 0; k < KC_NSTATS; k++)
		s->stat[k] = -1;
	s->oomd_kill = -1;
	s->oom_kill = -1;
}

static void on_value(struct kill_cgroup *c, const struct record *r)
{
	int counter = r->type == REC_COUNTER;
	enum sample_source src = counter ? r->counter.source : r->setting.source;
	const char *path = counter ? r->counter.instance : r->setting.instance;
	const char *key = counter ? r->counter.key : r->setting.key;
	uint64_t seq = counter ? r->counter.seq : r->setting.seq;
	char buf[4096];
	struct kc_cgroup *g;
	int i;

	if (!path || !*path || *path == '(' || !key)
		return;
	if (src == SRC_MEMCG)	/* --cgroup's path is the directory */
		path = cgmap_scope_path(path, buf, (int)sizeof(buf));
	i = find_or_add(c, path);
	if (i < 0)
		return;
	c->last = i;
	g = &c->cg[i];
	if (!g->pending || g->seq != seq) {
		if (!g->pending) {
			if (c->ntouched == c->atouched) {
				c->atouched = c->atouched ? 2 * c->atouched : 16;
				c->touched = xreallocarray(c->touched, (size_t)c->atouched,
							   sizeof(*c->touched));
			}
			c->touched[c->ntouched++] = i;
		}
		g->pending = 1;
		g->seq = seq;
		sample_clear(&g->cur, r->ts);
	}
	if (!strcmp(key, "limit")) {
		/* v2's "max"; v1's no limit is PAGE_COUNTER_MAX pages in bytes */
		if (!counter) {
			if (!strcmp(r->setting.value, "max"))
				g->limit_known = g->unlimited = 1, g->limit = -1;
		} else if (!r->counter.scale) {
			g->limit_known = 1;
			g->unlimited = r->counter.wide || r->counter.value >= INT64_MAX / 2;
			g->limit = g->unlimited ? -1 : r->counter.value;
		}
		return;
	}
	if (!counter || r->counter.scale || r->counter.wide || r->counter.value < 0)
		return;
	if (!strcmp(key, "usage")) {
		g->cur.usage = r->counter.value;
		return;
	}
	if (!strcmp(key, "oomd_kill")) {
		g->cur.oomd_kill = r->counter.value;
		return;
	}
	if (!strcmp(key, "events_oom_kill")) {
		g->cur.oom_kill = r->counter.value;
		return;
	}
	for (int k = 0; k < KC_NSTATS; k++)
		if (!strcmp(key, kill_cgroup_stat_names[k])) {
			g->cur.stat[k] = r->counter.value;
			return;
		}
}

static void push(struct kc_cgroup *g, const struct kc_sample *s)
{
	if (g->n == g->cap) {
		if (g->cap < KC_SAMPLES_MAX) {
			unsigned cap = g->cap ? 2 * g->cap : 8;
			struct kc_sample *v = xreallocarray(NULL, cap, sizeof(*v));

			for (unsigned i = 0; i < g->n; i++)
				v[i] = *at(g, i);
			free(g->v);
			g->v = v;
			g->cap = cap;
			g->head = 0;
		} else {
			g->lost_ts = at(g, 0)->ts;
			g->head = (g->head + 1) % g->cap;
			g->n--;
		}
	}
	*at(g, g->n++) = *s;
}

/* Drops the samples no window can reach: those before from, but the
 * last of them (the last at or before a kill may be older than it). */
static void trim(struct kc_cgroup *g, uint64_t from)
{
	while (g->n >= 2 && at(g, 1)->ts <= from) {
		g->head = (g->head + 1) % g->cap;
		g->n--;
	}
}

static struct kc_resolved *done_new(struct kill_cgroup *c)
{
	struct kc_resolved *d;

	if (c->ndone == c->capdone) {
		c->capdone = c->capdone ? 2 * c->capdone : 8;
		c->done = xreallocarray(c->done, (size_t)c->capdone, sizeof(*c->done));
	}
	d = &c->done[c->ndone++];
	memset(d, 0, sizeof(*d));
	return d;
}

/* a is b or one of its ancestors */
static int is_ancestor(const char *a, const char *b)
{
	size_t n = strlen(a);

	return !strcmp(a, "/") || (!strncmp(a, b, n) && (b[n] == '/' || !b[n]));
}

/* The OOM kills waiting: the first set after one, with memcgs in it,
 * decides which memcg's count rose. */
static void resolve_oom(struct kill_cgroup *c, uint64_t end_ts)
{
	int o = 0;

	for (int i = 0; i < c->noom; i++) {
		struct kc_oom_pending *p = &c->oom[i];
		int best = -1, clash = 0;

		if (end_ts <= p->ts) {
			c->oom[o++] = *p;
			continue;
		}
		for (int t = 0; t < c->ntouched && end_ts - p->ts <= KC_OOMD_AFTER_NS; t++) {
			const struct kc_cgroup *g = &c->cg[c->touched[t]];
			const struct kc_sample *s;
			int b;

			if (!g->n || (s = at(g, g->n - 1))->ts <= p->ts || s->oom_kill < 0)
				continue;
			for (b = 0; b < p->n && p->cg[b] != c->touched[t]; b++)
				;
			if (b == p->n || s->oom_kill <= p->before[b])
				continue;
			if (best < 0) {
				best = c->touched[t];
			} else if (is_ancestor(c->cg[best].path, g->path)) {
				best = c->touched[t];
			} else if (!is_ancestor(g->path, c->cg[best].path)) {
				clash = 1;
			}
		}
		if (best >= 0 && !clash) {
			struct kc_resolved *d = done_new(c);

			d->kill = p->kill;
			d->kind = KC_BY_OOM_COUNT;
			d->path = c->cg[best].path;
		}
		free(p->cg);
		free(p->before);
	}
	c->noom = o;
}

static void resolve(struct kill_cgroup *c, int cgi, const struct kc_sample *s)
{
	int o = 0, first = c->ndone;

	for (int i = 0; i < c->npend; i++) {
		struct kc_pending *p = &c->pend[i];
		struct kc_resolved *d;

		if (p->cg != cgi || s->ts <= p->ts) {
			c->pend[o++] = *p;
			continue;
		}
		/* the first KC_OOMD_SAMPLES samples after the kill decide */
		if (s->ts - p->ts > KC_OOMD_AFTER_NS)
			continue;
		if (s->oomd_kill <= p->before) {
			if (++p->seen < KC_OOMD_SAMPLES)
				c->pend[o++] = *p;
			continue;
		}
		d = done_new(c);
		d->kill = p->kill;
		d->kind = KC_BY_OOMD;
		d->ev.path = c->cg[cgi].path;
		d->ev.before = p->before;
		d->ev.after = s->oomd_kill;
		d->ev.before_ts = p->before_ts;
		d->ev.after_ts = s->ts;
	}
	c->npend = o;
	/* one piece of evidence a kill: its other cgroups' watches end */
	for (int i = first; i < c->ndone; i++)
		kill_cgroup_unwatch(c, c->done[i].kill);
}

static void on_end(struct kill_cgroup *c, const struct record *r)
{
	int o = 0;

	for (int i = 0; i < c->ntouched; i++) {
		struct kc_cgroup *g = &c->cg[c->touched[i]];

		if (g->pending && g->seq == r->send.seq) {
			push(g, &g->cur);
			if (c->npend)
				resolve(c, c->touched[i], &g->cur);
			c->touched[o++] = c->touched[i];	/* committed in this set */
		}
		g->pending = 0;
	}
	c->ntouched = o;
	if (c->noom && c->ntouched)
		resolve_oom(c, r->ts);
	c->ntouched = 0;
}

void kill_cgroup_add(struct kill_cgroup *c, const struct record *r)
{
	if (r->type == REC_COUNTER &&
	    (r->counter.source == SRC_MEMCGS || r->counter.source == SRC_MEMCG))
		on_value(c, r);
	else if (r->type == REC_SETTING &&
		 (r->setting.source == SRC_MEMCGS || r->setting.source == SRC_MEMCG))
		on_value(c, r);
	else if (r->type == REC_SAMPLE_END) {
		on_end(c, r);
		/* a kill resolved up to KC_OOMD_AFTER_NS later is captured
		 * then: its window is kept that much longer */
		if (r->ts > c->window_ns + KC_OOMD_AFTER_NS)
			for (int i = 0; i < c->ncg; i++)
				trim(&c->cg[i], r->ts - c->window_ns - KC_OOMD_AFTER_NS);
	}
}

void kill_cgroup_capture(const struct kill_cgroup *c, uint64_t ts, const char *path,
			 struct kill_cgroup_at *o)
{
	uint64_t from = ts > c->window_ns ? ts - c->window_ns : 0;
	const struct kc_cgroup *g;
	const struct kc_sample *last = NULL, *first = NULL;
	int i;

	memset(o, 0, sizeof(*o));
	o->usage_bytes = o->limit_bytes = o->oomd_kill = -1;
	for (int k = 0; k < KC_NSTATS; k++)
		o->stat_delta[k] = -1;
	if (!path || (i = find(c, path)) < 0)
		return;
	g = &c->cg[i];
	for (unsigned k = 0; k < g->n; k++) {
		const struct kc_sample *s = at(g, k);

		if (s->ts > ts)
			break;
		last = s;
		if (!first && s->ts >= from)
			first = s;
	}
	if (!last)
		return;
	o->path = g->path;
	o->usage_bytes = last->usage;
	o->limit_bytes = g->limit_known && !g->unlimited ? g->limit : -1;
	o->unlimited = g->limit_known && g->unlimited;
	o->sample_ts = last->ts;
	o->oomd_kill = last->oomd_kill;
	if (!first || first == last || (g->lost_ts && g->lost_ts >= from))
		return;
	o->first_ts = first->ts;
	for (int k = 0; k < KC_NSTATS; k++)
		if (first->stat[k] >= 0 && last->stat[k] >= first->stat[k])
			o->stat_delta[k] = last->stat[k] - first->stat[k];
}

void kill_cgroup_unwatch(struct kill_cgroup *c, int kill)
{
	int o = 0;

	for (int i = 0; i < c->npend; i++)
		if (c->pend[i].kill != kill)
			c->pend[o++] = c->pend[i];
	c->npend = o;
}

/* a watch of kill on path's xattr, if path has a sample at or before ts */
static void watch_one(struct kill_cgroup *c, int kill, uint64_t ts, const char *path)
{
	struct kill_cgroup_at now;
	struct kc_pending *p;

	kill_cgroup_capture(c, ts, path, &now);
	/* no sample before it: no rise to see. A sample without the xattr
	 * is 0 (the sampler writes it when set; a recorder that never
	 * writes it shows no rise after either) */
	if (!now.path)
		return;
	if (c->npend == KC_PENDING_MAX) {
		memmove(c->pend, c->pend + 1, (KC_PENDING_MAX - 1) * sizeof(*c->pend));
		c->npend--;
	}
	p = &c->pend[c->npend++];
	p->kill = kill;
	p->cg = find(c, path);
	p->ts = ts;
	p->before = now.oomd_kill < 0 ? 0 : now.oomd_kill;
	p->seen = 0;
	p->before_ts = now.sample_ts;
}

void kill_cgroup_watch(struct kill_cgroup *c, int kill, uint64_t ts, const char *path)
{
	char up[4096];
	char *slash;

	kill_cgroup_unwatch(c, kill);
	if (!path || snprintf(up, sizeof(up), "%s", path) >= (int)sizeof(up))
		return;
	watch_one(c, kill, ts, up);
	/* oomd kills a cgroup's descendants' processes too, and counts them
	 * on the cgroup it chose: each sampled ancestor is watched as well */
	while ((slash = strrchr(up, '/')) && strcmp(up, "/")) {
		slash[slash == up] = '\0';	/* "/a" -> "/", "/a/b" -> "/a" */
		watch_one(c, kill, ts, up);
	}
}

void kill_cgroup_watch_oom(struct kill_cgroup *c, int kill, uint64_t ts)
{
	struct kc_oom_pending *p;

	if (c->noom == KC_PENDING_MAX) {
		free(c->oom[0].cg);
		free(c->oom[0].before);
		memmove(c->oom, c->oom + 1, (KC_PENDING_MAX - 1) * sizeof(*c->oom));
		c->noom--;
	}
	p = &c->oom[c->noom++];
	memset(p, 0, sizeof(*p));
	p->kill = kill;
	p->ts = ts;
	p->cg = xreallocarray(NULL, (size_t)(c->ncg ? c->ncg : 1), sizeof(*p->cg));
	p->before = xreallocarray(NULL, (size_t)(c->ncg ? c->ncg : 1), sizeof(*p->before));
	for (int i = 0; i < c->ncg; i++) {
		const struct kc_cgroup *g = &c->cg[i];
		const struct kc_sample *last = NULL;

		for (unsigned k = 0; k < g->n && at(g, k)->ts <= ts; k++)
			last = at(g, k);
		if (!last || last->oom_kill < 0)
			continue;
		p->cg[p->n] = i;
		p->before[p->n++] = last->oom_kill;
	}
}

int kill_cgroup_take(struct kill_cgroup *c, struct kc_resolved *out)
{
	if (!c->ndone)
		return 0;
	*out = c->done[0];
	memmove(c->done, c->done + 1, (size_t)(c->ndone - 1) * sizeof(*c->done));
	c->ndone--;
	return 1;
}
