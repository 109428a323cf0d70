// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Run model (see model-run.h): ctx settings by key and phase, the
 * outcome line's fields, and first/last/largest of the memcg keys that
 * the Run block shows.
 */
#include "config.h"
#include "model-run.h"
#include "run-stop.h"
#include "util.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define RUN_MAX_ARGS 4096

/* memcg keys followed: first, last and largest numeric value */
enum mkey {
	MK_LIMIT, MK_MEMSW_LIMIT, MK_HIGH, MK_LOW, MK_MIN, MK_SWAP_MAX,
	MK_PEAK, MK_MEMSW_PEAK, MK_SWAP_PEAK, MK_USAGE, MK_SWAP_USAGE,
	MK_TOTAL_SWAP, MK_SWAP,
	MK_EV_LOW, MK_EV_HIGH, MK_EV_MAX, MK_EV_OOM, MK_EV_OOM_KILL, MK_FAILCNT,
	MK_SCAN_ANON, MK_SCAN_FILE, MK_STEAL_ANON, MK_STEAL_FILE, MK_SCAN, MK_STEAL,
	MK_REF_ANON, MK_REF_FILE, MK_TREF_ANON, MK_TREF_FILE,
	MK_V1, MK_V2,	/* keys only one version has */
	MK_NR
};

static const char *const mkey_names[MK_NR] = {
	"limit", "memsw_limit", "high", "low", "min", "swap_max",
	"peak", "memsw_peak", "swap_peak", "usage", "swap_usage",
	"total_swap", "swap",
	"events_low", "events_high", "events_max", "events_oom", "events_oom_kill", "failcnt",
	"pgscan_anon", "pgscan_file", "pgsteal_anon", "pgsteal_file", "pgscan", "pgsteal",
	"workingset_refault_anon", "workingset_refault_file",
	"total_workingset_refault_anon", "total_workingset_refault_file",
	"hierarchical_memory_limit", "",
};

struct mtrack {
	int known, unlimited, has_num;
	int64_t first, last, max;
};

struct run_model {
	struct run_setting *s;
	int n, cap;
	int has_ctx;
	struct run_outcome out;
	int memcg_seen;
	char *memcg_path;
	struct mtrack mk[MK_NR];
	struct run_memcg memcg;		/* built on request */
	struct run_outcome meta_out;	/* run_model_outcome_meta's */
	int meta_argv_owned;		/* meta_out.argv is its own, not out's */
};

struct run_model *run_model_new(void)
{
	return xcalloc(1, sizeof(struct run_model));
}

void run_model_free(struct run_model *m)
{
	if (!m)
		return;
	for (int i = 0; i < m->n; i++) {
		free((char *)m->s[i].key);
		free((char *)m->s[i].start);
		free((char *)m->s[i].end);
	}
	free(m->s);
	for (int i = 0; i < m->out.argc; i++)
		free(m->out.argv[i]);
	free(m->out.argv);
	free(m->memcg_path);
	if (m->meta_argv_owned) {
		for (int i = 0; i < m->meta_out.argc; i++)
			free(m->meta_out.argv[i]);
		free(m->meta_out.argv);
	}
	free(m);
}

static struct run_setting *slot(struct run_model *m, const char *key)
{
	for (int i = 0; i < m->n; i++)
		if (!strcmp(m->s[i].key, key))
			return &m->s[i];
	if (m->n == m->cap) {
		m->cap = m->cap ? m->cap * 2 : 64;
		m->s = xreallocarray(m->s, (size_t)m->cap, sizeof(*m->s));
	}
	memset(&m->s[m->n], 0, sizeof(m->s[m->n]));
	m->s[m->n].key = xstrdup(key);
	return &m->s[m->n++];
}

static void set_phase(struct run_model *m, const char *key, const char *phase,
		      const char *value)
{
	struct run_setting *s = slot(m, key);
	int end = !strcmp(phase, "end");
	const char **v = end ? &s->end : &s->start;

	free((char *)*v);
	*v = value ? xstrdup(value) : NULL;
	if (end)
		s->absent_end = !value;
	else
		s->absent_start = !value;
}

static void on_ctx(struct run_model *m, const struct record *r)
{
	const char *phase = r->setting.instance;
	size_t kl = strlen(r->setting.key);

	m->has_ctx = 1;
	if (kl > 1 && r->setting.key[kl - 1] == '+') {
		/* KEY+=more: the next piece of a long value */
		char *key = xasprintf("%.*s", (int)(kl - 1), r->setting.key);
		const struct run_setting *s = run_model_find(m, key);
		const char *have = s ? (strcmp(phase, "end") ? s->start : s->end) : NULL;

		if (have) {
			char *v = xasprintf("%s%s", have, r->setting.value);

			set_phase(m, key, phase, v);
			free(v);
		}
		free(key);
		return;
	}
	if (strcmp(r->setting.key, "absent")) {
		set_phase(m, r->setting.key, phase, r->setting.value);
		return;
	}
	/* absent=a,b,c */
	for (const char *p = r->setting.value; *p;) {
		size_t n = strcspn(p, ",");
		char *k = xasprintf("%.*s", (int)n, p);

		if (*k)
			set_phase(m, k, phase, NULL);
		free(k);
		p += n;
		if (*p == ',')
			p++;
	}
}

static int parse_s64(const char *s, int64_t *v)
{
	char *end;
	long long x = strtoll(s, &end, 10);

	if (end == s || *end)
		return -1;
	*v = x;
	return 0;
}

static void on_outcome(struct run_model *m, const struct record *r)
{
	struct run_outcome *o = &m->out;
	const char *k = r->setting.key;
	static const struct {
		const char *key;
		size_t off;
	} nums[] = {
		{ "exit", offsetof(struct run_outcome, exit) },
		{ "signal", offsetof(struct run_outcome, signal) },
		{ "core", offsetof(struct run_outcome, core) },
		{ "elapsed_us", offsetof(struct run_outcome, elapsed_us) },
		{ "user_us", offsetof(struct run_outcome, user_us) },
		{ "sys_us", offsetof(struct run_outcome, sys_us) },
		{ "maxrss_kb", offsetof(struct run_outcome, maxrss_kb) },
		{ "stopped_by_recorder", offsetof(struct run_outcome, stopped_by_recorder) },
	};
	int64_t v;

	o->known = 1;
	if (!strcmp(k, "argc")) {
		if (parse_s64(r->setting.value, &v) || v < 0 || v > RUN_MAX_ARGS || o->argv)
			return;
		o->argc = (int)v;
		o->argv = xcalloc((size_t)v + 1, sizeof(char *));
		return;
	}
	if (!strncmp(k, "arg", 3) && k[3] >= '0' && k[3] <= '9') {
		size_t kl = strlen(k);
		int more = k[kl - 1] == '+';	/* argN+=: the next piece */
		char *num = xasprintf("%.*s", (int)(kl - 3 - (size_t)more), k + 3);

		if (!parse_s64(num, &v) && o->argv && v < o->argc) {
			char *old = o->argv[v];

			if (more && !old) {
				free(num);
				return;
			}
			o->argv[v] = more ? xasprintf("%s%s", old, r->setting.value) :
				     xstrdup(r->setting.value);
			free(old);
		}
		free(num);
		return;
	}
	for (size_t i = 0; i < sizeof(nums) / sizeof(nums[0]); i++)
		if (!strcmp(k, nums[i].key) && !parse_s64(r->setting.value, &v)) {
			struct run_value *rv = (struct run_value *)((char *)o + nums[i].off);

			rv->known = 1;
			rv->v = v;
		}
}

static void on_memcg(struct run_model *m, const struct record *r)
{
	const char *key = r->type == REC_COUNTER ? r->counter.key : r->setting.key;
	const char *inst = r->type == REC_COUNTER ? r->counter.instance : r->setting.instance;

	if (!m->memcg_seen) {
		m->memcg_seen = 1;
		m->memcg_path = xstrdup(inst ? inst : "");
	}
	if (!strcmp(key, "anon") || !strcmp(key, "events_max"))
		m->mk[MK_V2].known = 1;	/* keys only v2 has */
	for (int i = 0; i < MK_NR; i++) {
		struct mtrack *t = &m->mk[i];

		if (strcmp(key, mkey_names[i]))
			continue;
		if (r->type == REC_SETTING) {
			/* v2 "max": no limit */
			if (!strcmp(r->setting.value, "max")) {
				t->known = 1;
				t->unlimited = 1;
			}
			return;
		}
		if (r->counter.scale)
			return;
		if (!t->has_num)
			t->first = t->max = r->counter.value;
		t->has_num = 1;
		t->known = 1;
		t->unlimited = r->counter.value >= INT64_MAX / 2;	/* v1's no limit */
		t->last = r->counter.value;
		if (r->counter.value > t->max)
			t->max = r->counter.value;
		return;
	}
}

void run_model_add(struct run_model *m, const struct record *r)
{
	if (r->type == REC_SETTING && r->setting.source == SRC_CTX)
		on_ctx(m, r);
	else if (r->type == REC_SETTING && r->setting.source == SRC_OUTCOME)
		on_outcome(m, r);
	else if ((r->type == REC_COUNTER && r->counter.source == SRC_MEMCG) ||
		 (r->type == REC_SETTING && r->setting.source == SRC_MEMCG))
		on_memcg(m, r);
}

int run_model_has_context(const struct run_model *m)
{
	return m->has_ctx;
}

int run_model_nsettings(const struct run_model *m)
{
	return m->n;
}

const struct run_setting *run_model_setting(const struct run_model *m, int i)
{
	return i >= 0 && i < m->n ? &m->s[i] : NULL;
}

const struct run_setting *run_model_find(const struct run_model *m, const char *key)
{
	for (int i = 0; i < m->n; i++)
		if (!strcmp(m->s[i].key, key))
			return run_model_setting(m, i);
	return NULL;
}

const char *run_model_value(const struct run_model *m, const char *key)
{
	const struct run_setting *s = run_model_find(m, key);

	return !s ? NULL : s->start ? s->start : s->end;
}

int run_setting_changed(const struct run_setting *s)
{
	int have_start = s->start || s->absent_start, have_end = s->end || s->absent_end;

	if (!have_start || !have_end)
		return 0;
	if (!s->start || !s->end)
		return !s->start != !s->end;
	return strcmp(s->start, s->end) != 0;
}

const struct run_outcome *run_model_outcome(const struct run_model *m)
{
	return &m->out;
}

static struct run_value value_of(const struct run_stop_num *n)
{
	struct run_value v = { n->known, n->known ? n->v : 0, 0 };

	return v;
}

const struct run_outcome *run_model_outcome_meta(const struct run_model *m, const char *meta)
{
	struct run_model *w = (struct run_model *)m;
	struct run_outcome *o = &w->meta_out;
	struct run_stop_command *c;
	struct run_stop st;

	if (!meta)
		return &m->out;
	if (w->meta_argv_owned) {
		for (int i = 0; i < o->argc; i++)
			free(o->argv[i]);
		free(o->argv);
		w->meta_argv_owned = 0;
	}
	run_stop_parse(&st, meta);
	c = &st.cmd;
	if (m->out.known) {	/* the line's, shared */
		*o = m->out;
		o->pid = value_of(&c->pid);
		run_stop_release(&st);
		return o;
	}
	memset(o, 0, sizeof(*o));
	o->pid = value_of(&c->pid);
	o->running = c->known && c->state && !strcmp(c->state, "running");
	if (c->known && c->state && !strcmp(c->state, "ended")) {
		o->known = 1;
		o->from_meta = 1;
		o->exit = value_of(&c->exit);
		o->signal = value_of(&c->signal);
		o->core = value_of(&c->core);
		o->elapsed_us = value_of(&c->elapsed_us);
		o->user_us = value_of(&c->user_us);
		o->sys_us = value_of(&c->sys_us);
		o->maxrss_kb = value_of(&c->maxrss_kb);
		o->stopped_by_recorder = value_of(&c->ended_by_recorder);
	}
	if ((o->known || o->running) && c->argc) {
		o->from_meta = 1;
		o->argc = c->argc;
		o->argv = c->argv;	/* taken from st */
		c->argv = NULL;
		c->argc = 0;
		w->meta_argv_owned = 1;
	}
	run_stop_release(&st);
	return o;
}

static struct run_value last_of(const struct mtrack *t)
{
	struct run_value v = { t->known, t->unlimited ? 0 : t->last, t->unlimited };

	return v;
}

static struct run_value max_of(const struct mtrack *t)
{
	struct run_value v = { t->has_num && !t->unlimited, t->unlimited ? 0 : t->max, 0 };

	return v;
}

static struct run_value delta_of(const struct mtrack *t)
{
	struct run_value v = { t->has_num, t->last - t->first, 0 };

	if (!v.known)
		v.v = 0;
	return v;
}

const struct run_memcg *run_model_memcg(const struct run_model *m)
{
	struct run_memcg *g = &((struct run_model *)m)->memcg;
	const struct mtrack *k = m->mk;

	memset(g, 0, sizeof(*g));
	g->known = m->memcg_seen;
	g->path = m->memcg_path ? m->memcg_path : "";
	if (!g->known)
		return g;
	g->version = k[MK_V1].known || k[MK_FAILCNT].known || k[MK_MEMSW_LIMIT].known ? 1 :
		     k[MK_V2].known ? 2 : 0;
	g->limit = last_of(&k[MK_LIMIT]);
	g->memsw_limit = last_of(&k[MK_MEMSW_LIMIT]);
	g->high = last_of(&k[MK_HIGH]);
	g->low = last_of(&k[MK_LOW]);
	g->min = last_of(&k[MK_MIN]);
	g->swap_max = last_of(&k[MK_SWAP_MAX]);
	g->peak = last_of(&k[MK_PEAK]);
	g->memsw_peak = last_of(&k[MK_MEMSW_PEAK]);
	g->swap_peak = last_of(&k[MK_SWAP_PEAK]);
	g->usage_max = max_of(&k[MK_USAGE]);
	/* swap used: v2's memory.swap.current, v1's hierarchical total_swap,
	 * else its own swap */
	g->swap_max_sampled = k[MK_SWAP_USAGE].known ? max_of(&k[MK_SWAP_USAGE]) :
			      k[MK_TOTAL_SWAP].known ? max_of(&k[MK_TOTAL_SWAP]) :
			      max_of(&k[MK_SWAP]);
	g->ev_low = delta_of(&k[MK_EV_LOW]);
	g->ev_high = delta_of(&k[MK_EV_HIGH]);
	g->ev_max = delta_of(&k[MK_EV_MAX]);
	g->ev_oom = delta_of(&k[MK_EV_OOM]);
	g->ev_oom_kill = delta_of(&k[MK_EV_OOM_KILL]);
	g->failcnt = delta_of(&k[MK_FAILCNT]);
	g->scan_anon = delta_of(&k[MK_SCAN_ANON]);
	g->scan_file = delta_of(&k[MK_SCAN_FILE]);
	g->steal_anon = delta_of(&k[MK_STEAL_ANON]);
	g->steal_file = delta_of(&k[MK_STEAL_FILE]);
	g->scan = delta_of(&k[MK_SCAN]);
	g->steal = delta_of(&k[MK_STEAL]);
	/* refaults: v1's hierarchical total_ keys when there, as v2's are */
	g->refault_anon = k[MK_TREF_ANON].known ? delta_of(&k[MK_TREF_ANON]) :
			  delta_of(&k[MK_REF_ANON]);
	g->refault_file = k[MK_TREF_FILE].known ? delta_of(&k[MK_TREF_FILE]) :
			  delta_of(&k[MK_REF_FILE]);
	return g;
}

static void *ops_create(void)
{
	return run_model_new();
}

static void ops_add(void *m, const struct record *r)
{
	run_model_add(m, r);
}

static void ops_destroy(void *m)
{
	run_model_free(m);
}

const struct model_ops run_model_ops = {
	.name = "run", .create = ops_create, .add = ops_add, .destroy = ops_destroy,
};
