// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kills on the screen's time line (see kills.h): the OOM model's list
 * of every kill, read per run with the run's offset.
 */
#include "config.h"
#include "kills.h"
#include "tui.h"
#include "data.h"
#include "analysis.h"
#include "kill-dossier.h"
#include "model-oom.h"

#include <stdio.h>

static const struct oom_model *tk_model(const struct tui_data *d)
{
	return d && d->an ? analysis_model(d->an, &oom_model_ops) : NULL;
}

int tk_traced(const struct analysis *a)
{
	const struct oom_model *m = a ? analysis_model(a, &oom_model_ops) : NULL;
	int t = 0;

	if (!a)
		return 0;
	/* as the report's Kills section decides it (report-kills.c) */
	if (oom_model_seen(m) || analysis_event_enabled(a, "oom", "mark_victim"))
		t |= TK_OOM;
	if (kill_dossier_signals_traced(a))
		t |= TK_SIGNALS;
	return t;
}

int tk_traced_any(const struct tui_state *st)
{
	int t = 0;

	for (int r = 0; r < tui_nruns(st); r++)
		if (tui_run_data(st, r))
			t |= tk_traced(tui_run_data(st, r)->an);
	return t;
}

char tk_mark(const struct oom_kill *k)
{
	return k->oom ? '!' : 'k';
}

/* A run's trace time on the screen's time line (before its zero: 0). */
static uint64_t tk_at(const struct tui_data *d, uint64_t ts)
{
	int64_t v = (int64_t)ts + d->off;

	return v > 0 ? (uint64_t)v : 0;
}

const struct oom_kill *tk_kill(const struct tui_state *st, const struct tk_ref *r)
{
	const struct oom_model *m = tk_model(tui_run_data(st, r->run));

	return r->i >= 0 && r->i < oom_model_nall(m) ? oom_model_any(m, r->i) : NULL;
}

/* Calls fn for every kill of every run, in each run's order. */
static void tk_each(const struct tui_state *st, void (*fn)(void *ctx, const struct tk_ref *r,
							    const struct oom_kill *k), void *ctx)
{
	for (int r = 0; r < tui_nruns(st); r++) {
		const struct tui_data *d = tui_run_data(st, r);
		const struct oom_model *m = tk_model(d);

		for (int i = 0; i < oom_model_nall(m); i++) {
			const struct oom_kill *k = oom_model_any(m, i);
			struct tk_ref ref = { r, i, tk_at(d, k->ts) };

			fn(ctx, &ref, k);
		}
	}
}

struct tk_pick {
	uint64_t t;
	int dir;		/* step: +1/-1; nearest: 0 */
	int have;
	struct tk_ref best;
};

static uint64_t tk_dist(uint64_t a, uint64_t b)
{
	return a > b ? a - b : b - a;
}

static void tk_pick_one(void *ctx, const struct tk_ref *r, const struct oom_kill *k)
{
	struct tk_pick *p = ctx;

	(void)k;
	if (p->dir > 0 && r->at <= p->t)
		return;
	if (p->dir < 0 && r->at >= p->t)
		return;
	if (p->have) {
		if (p->dir > 0 && r->at >= p->best.at)
			return;
		if (p->dir < 0 && r->at <= p->best.at)
			return;
		if (!p->dir && tk_dist(r->at, p->t) >= tk_dist(p->best.at, p->t))
			return;
	}
	p->best = *r;
	p->have = 1;
}

int tk_step(const struct tui_state *st, uint64_t t, int dir, struct tk_ref *out)
{
	struct tk_pick p = { .t = t, .dir = dir > 0 ? 1 : -1 };

	tk_each(st, tk_pick_one, &p);
	if (p.have)
		*out = p.best;
	return p.have;
}

int tk_nearest(const struct tui_state *st, uint64_t t, struct tk_ref *out)
{
	struct tk_pick p = { .t = t, .dir = 0 };

	tk_each(st, tk_pick_one, &p);
	if (p.have)
		*out = p.best;
	return p.have;
}

struct tk_cols {
	const struct tui_state *st;
	int w;
	char *marks;
};

static void tk_col_one(void *ctx, const struct tk_ref *r, const struct oom_kill *k)
{
	struct tk_cols *c = ctx;
	long col = tui_ts_col(c->st, r->at);

	if (col < 0 || col >= c->w || c->marks[col] == '!')
		return;
	c->marks[col] = tk_mark(k);
}

void tk_columns(const struct tui_state *st, int w, char *marks)
{
	struct tk_cols c = { st, w, marks };

	for (int i = 0; i < w; i++)
		marks[i] = 0;
	tk_each(st, tk_col_one, &c);
}

void tk_describe(const struct tui_state *st, const struct tk_ref *r, char *buf, int len)
{
	const struct oom_kill *k = tk_kill(st, r);
	char at[32], who[48];

	if (!k) {
		snprintf(buf, (size_t)len, "kill: gone");
		return;
	}
	tui_fmt_ts(st, r->at, at, sizeof(at));
	oom_kill_killer(k, who, sizeof(who));
	if (k->pid >= 0)
		snprintf(buf, (size_t)len, "kill at %s s: %s, victim %s %d", at, who,
			 *k->comm ? k->comm : "-", k->pid);
	else
		snprintf(buf, (size_t)len, "kill at %s s: %s, victim %s", at, who,
			 *k->comm ? k->comm : "-");
}

struct tk_count {
	long oom, sig;
};

static void tk_count_one(void *ctx, const struct tk_ref *r, const struct oom_kill *k)
{
	struct tk_count *c = ctx;

	(void)r;
	if (k->oom)
		c->oom++;
	else
		c->sig++;
}

void tk_totals(const struct tui_state *st, char *buf, int len)
{
	struct tk_count c = { 0, 0 };
	int t = tk_traced_any(st);
	char oom[24] = "-", sig[24] = "-";

	tk_each(st, tk_count_one, &c);
	/* a count only where its events were recorded: 0 would say "none" */
	if (t & TK_OOM)
		snprintf(oom, sizeof(oom), "%ld", c.oom);
	if (t & TK_SIGNALS)
		snprintf(sig, sizeof(sig), "%ld", c.sig);
	if (!t)
		snprintf(buf, (size_t)len, "kills: not recorded (no oom:mark_victim, no "
			 "signal:signal_generate: record -g oom)");
	else
		snprintf(buf, (size_t)len, "kills %ld: OOM %s, by processes %s%s", c.oom + c.sig,
			 oom, sig, !(t & TK_SIGNALS) ? " (signal:signal_generate not recorded)" :
			 !(t & TK_OOM) ? " (oom:mark_victim not recorded)" : "");
}
