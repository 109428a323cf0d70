// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Flight-recorder triggers (see trigger.h): parse "NAME>VALUE", read the
 * counter each one watches, and decide when to fire. Reading and
 * deciding are split so the decision can be tested with made-up values.
 */
#include "config.h"
#include "trigger.h"
#include "util.h"

#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct {
	const char *name;
	enum trigger_kind kind;
	int value;		/* 2 required, 1 optional (default 0), 0 none */
	const char *what;	/* the value's unit, for the error */
} trigger_names[] = {
	{ "psi-some", TRIGGER_PSI_SOME, 2, "PCT" },
	{ "stall-ms", TRIGGER_STALL_MS, 2, "MS" },
	{ "fallback-rate", TRIGGER_FALLBACK_RATE, 2, "PCT" },
	{ "memcg-oom", TRIGGER_MEMCG_OOM, 1, "N" },
	{ "memcg-max", TRIGGER_MEMCG_MAX, 1, "N" },
	{ "memcg-high", TRIGGER_MEMCG_HIGH, 1, "N" },
	{ "oom", TRIGGER_OOM, 0, NULL },
	{ "reclaim-stall", TRIGGER_RECLAIM_STALL, 2, "MS" },
	{ "compact-stall", TRIGGER_COMPACT_STALL, 2, "MS" },
	{ "kswapd-awake", TRIGGER_KSWAPD_AWAKE, 2, "S" },
	{ "no-handoff", TRIGGER_NO_HANDOFF, 2, "N" },
};

#define TRIGGER_LIST "psi-some>PCT, stall-ms>MS, fallback-rate>PCT, memcg-oom, memcg-max, " \
	"memcg-high, oom, reclaim-stall>MS, compact-stall>MS, kswapd-awake>S, no-handoff>N"

int trigger_parse(const char *spec, struct trigger *t, char **err)
{
	const char *gt = strchr(spec, '>');
	size_t len = gt ? (size_t)(gt - spec) : strlen(spec);
	char *end;

	memset(t, 0, sizeof(*t));
	for (size_t i = 0; i < ARRAY_SIZE(trigger_names); i++) {
		if (strlen(trigger_names[i].name) != len || strncmp(spec, trigger_names[i].name, len))
			continue;
		t->kind = trigger_names[i].kind;
		if (!gt && trigger_names[i].value == 2)
			return set_err(err, "trigger '%s' needs a value (%s>%s)", spec,
				       trigger_names[i].name, trigger_names[i].what);
		if (gt && !trigger_names[i].value)
			return set_err(err, "trigger '%.*s' takes no value", (int)len, spec);
		if (gt) {
			t->threshold = strtod(gt + 1, &end);
			if (end == gt + 1 || *end || t->threshold < 0 || t->threshold != t->threshold ||
			    t->threshold > 1e12)
				return set_err(err, "bad value in trigger '%s' (%s>%s)", spec,
					       trigger_names[i].name, trigger_names[i].what);
		}
		if (t->kind == TRIGGER_NO_HANDOFF && (t->threshold < 1 ||
						      t->threshold != (double)(long)t->threshold))
			return set_err(err, "bad value in trigger '%s' (no-handoff>N, N episodes, 1 or more)",
				       spec);
		t->armed = 1;
		snprintf(t->name, sizeof(t->name), "%s", spec);
		return 0;
	}
	return set_err(err, "unknown trigger '%.*s' (%s)", (int)len, spec, TRIGGER_LIST);
}

int trigger_is_event(const struct trigger *t)
{
	return t->kind >= TRIGGER_OOM;
}

int trigger_needs_cgroup(const struct trigger *t)
{
	return t->kind == TRIGGER_MEMCG_OOM || t->kind == TRIGGER_MEMCG_MAX ||
	       t->kind == TRIGGER_MEMCG_HIGH;
}

const char *const *trigger_events(const struct trigger *t)
{
	static const char *const oom[] = { "oom:mark_victim", NULL };
	static const char *const reclaim[] = {
		"vmscan:mm_vmscan_direct_reclaim_begin", "vmscan:mm_vmscan_direct_reclaim_end",
		"vmscan:mm_vmscan_memcg_reclaim_begin", "vmscan:mm_vmscan_memcg_reclaim_end",
		NULL,
	};
	static const char *const compact[] = {
		"compaction:mm_compaction_try_to_compact_pages", "compaction:mm_compaction_begin",
		"compaction:mm_compaction_end", NULL,
	};
	static const char *const kswapd[] = {
		"vmscan:mm_vmscan_kswapd_wake", "vmscan:mm_vmscan_kswapd_sleep",
		"vmscan:mm_vmscan_wakeup_kswapd", "compaction:mm_compaction_wakeup_kcompactd",
		"compaction:mm_compaction_kcompactd_wake", NULL,
	};
	static const char *const none[] = { NULL };

	switch (t->kind) {
	case TRIGGER_OOM:
		return oom;
	case TRIGGER_RECLAIM_STALL:
		return reclaim;
	case TRIGGER_COMPACT_STALL:
		return compact;
	case TRIGGER_KSWAPD_AWAKE:
	case TRIGGER_NO_HANDOFF:
		return kswapd;
	default:
		return none;
	}
}

static int read_psi(const char *root, double *avg10, double *total)
{
	char *p = xasprintf("%s/proc/pressure/memory", root);
	FILE *f = fopen(p, "re");
	int r = -1;

	free(p);
	if (!f)
		return -1;
	if (fscanf(f, "some avg10=%lf avg60=%*f avg300=%*f total=%lf", avg10, total) == 2)
		r = 0;
	fclose(f);
	return r;
}

static long long read_ll(const char *path)
{
	FILE *f = fopen(path, "re");
	long long v = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%lld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

static int read_mthp(const char *root, double *swpout, double *fallback)
{
	char *pat = xasprintf("%s/sys/kernel/mm/transparent_hugepage/hugepages-*kB/stats", root);
	glob_t g;
	int found = 0;

	*swpout = *fallback = 0;
	if (!glob(pat, 0, NULL, &g)) {
		for (size_t i = 0; i < g.gl_pathc; i++) {
			char *a = xasprintf("%s/swpout", g.gl_pathv[i]);
			char *b = xasprintf("%s/swpout_fallback", g.gl_pathv[i]);
			long long x = read_ll(a), y = read_ll(b);

			if (x >= 0 && y >= 0) {
				*swpout += (double)x;
				*fallback += (double)y;
				found = 1;
			}
			free(a);
			free(b);
		}
		globfree(&g);
	}
	free(pat);
	return found ? 0 : -1;
}

/* "KEY N" lines (memory.events, memory.oom_control): N of key, or -1. */
static long long read_key(const char *path, const char *key)
{
	FILE *f = fopen(path, "re");
	char k[64];
	long long v, r = -1;

	if (!f)
		return -1;
	while (fscanf(f, "%63s %lld", k, &v) == 2)
		if (!strcmp(k, key)) {
			r = v;
			break;
		}
	fclose(f);
	return r;
}

/* A memcg counter: v2 memory.events, else the v1 file that has one. */
static int read_memcg(const char *cgroup, enum trigger_kind kind, double *a)
{
	static const char *const v2key[] = { "oom_kill", "max", "high" };
	int i = kind == TRIGGER_MEMCG_OOM ? 0 : kind == TRIGGER_MEMCG_MAX ? 1 : 2;
	char *p;
	long long v;

	if (!cgroup)
		return -1;
	p = xasprintf("%s/memory.events", cgroup);
	v = read_key(p, v2key[i]);
	free(p);
	if (v < 0 && i == 0) {
		p = xasprintf("%s/memory.oom_control", cgroup);
		v = read_key(p, "oom_kill");
		free(p);
	} else if (v < 0 && i == 1) {
		p = xasprintf("%s/memory.failcnt", cgroup);
		v = read_ll(p);
		free(p);
	}
	if (v < 0)
		return -1;
	*a = (double)v;
	return 0;
}

char *trigger_cgroup_dir(const char *arg)
{
	/* where src/sampler.c looks for --cgroup's memory.stat */
	static const char *const bases[] = {
		"", "/sys/fs/cgroup/memory", "/sys/fs/cgroup", "/sys/fs/cgroup/unified",
	};

	for (size_t i = 0; i < ARRAY_SIZE(bases); i++) {
		char *d = xasprintf("%s%s%s/memory.stat", bases[i], arg[0] == '/' ? "" : "/", arg);

		if (!access(d, R_OK)) {
			*strrchr(d, '/') = '\0';
			return d;
		}
		free(d);
	}
	return NULL;
}

int trigger_cgroup_v2(const char *dir)
{
	char *p = xasprintf("%s/memory.events", dir);
	int r = !access(p, R_OK);

	free(p);
	return r;
}

/* One evaluation from raw counter values. */
const char *trigger_kind_name(const struct trigger *t)
{
	static const char *const names[] = {
		[TRIGGER_PSI_SOME] = "psi-some", [TRIGGER_STALL_MS] = "stall-ms",
		[TRIGGER_FALLBACK_RATE] = "fallback-rate", [TRIGGER_MEMCG_OOM] = "memcg-oom",
		[TRIGGER_MEMCG_MAX] = "memcg-max", [TRIGGER_MEMCG_HIGH] = "memcg-high",
		[TRIGGER_OOM] = "oom", [TRIGGER_RECLAIM_STALL] = "reclaim-stall",
		[TRIGGER_COMPACT_STALL] = "compact-stall", [TRIGGER_KSWAPD_AWAKE] = "kswapd-awake",
		[TRIGGER_NO_HANDOFF] = "no-handoff",
	};

	return (size_t)t->kind < ARRAY_SIZE(names) && names[t->kind] ? names[t->kind] : "?";
}

const char *trigger_unit(const struct trigger *t)
{
	switch (t->kind) {
	case TRIGGER_PSI_SOME:
	case TRIGGER_FALLBACK_RATE:
		return "%";
	case TRIGGER_STALL_MS:
	case TRIGGER_RECLAIM_STALL:
	case TRIGGER_COMPACT_STALL:
		return "ms";
	case TRIGGER_KSWAPD_AWAKE:
		return "s";
	default:	/* memcg events, OOM kills, kswapd episodes */
		return "events";
	}
}

int trigger_eval(struct trigger *t, double a, double b, char *why, size_t n)
{
	int cond = 0, fire;

	memset(&t->fired, 0, sizeof(t->fired));

	switch (t->kind) {
	case TRIGGER_PSI_SOME:		/* a = avg10 */
		cond = a > t->threshold;
		t->fired.value = a;
		t->fired.has_value = 1;
		snprintf(why, n, "psi some avg10 %.2f > %g", a, t->threshold);
		break;
	case TRIGGER_STALL_MS:		/* a = some total (us) */
		if (t->have_prev) {
			double ms = (a - t->prev_a) / 1000.0;

			cond = ms > t->threshold;
			t->fired.value = ms;
			t->fired.has_value = 1;
			snprintf(why, n, "memory stall %.1f ms in one interval > %g ms", ms,
				 t->threshold);
		}
		break;
	case TRIGGER_FALLBACK_RATE:	/* a = swpout, b = swpout_fallback */
		if (t->have_prev) {
			double out = a - t->prev_a, fb = b - t->prev_b;
			double pct = out + fb > 0 ? 100.0 * fb / (out + fb) : 0;

			cond = out + fb > 0 && pct > t->threshold;
			t->fired.value = pct;
			t->fired.has_value = 1;
			snprintf(why, n, "mTHP swap-out fallback %.1f%% (%.0f of %.0f) > %g%%",
				 pct, fb, out + fb, t->threshold);
		}
		break;
	case TRIGGER_MEMCG_OOM:		/* a = the counter */
	case TRIGGER_MEMCG_MAX:
	case TRIGGER_MEMCG_HIGH:
		if (t->have_prev) {
			double d = a - t->prev_a;

			cond = d > t->threshold;
			t->fired.value = d;
			t->fired.has_value = 1;
			snprintf(why, n, "memcg %s +%.0f in one interval > %g",
				 t->kind == TRIGGER_MEMCG_OOM ? "oom_kill" :
				 t->kind == TRIGGER_MEMCG_MAX ? "max" : "high", d, t->threshold);
		}
		break;
	default:
		break;
	}
	t->prev_a = a;
	t->prev_b = b;
	t->have_prev = 1;
	fire = cond && t->armed;
	if (cond)
		t->armed = 0;
	else
		t->armed = 1;
	return fire;
}

int trigger_check(struct trigger *t, const char *root, const char *cgroup, char *why, size_t n)
{
	double a = 0, b = 0;

	root = root ? root : "";
	switch (t->kind) {
	case TRIGGER_PSI_SOME:
	case TRIGGER_STALL_MS:
		if (read_psi(root, &a, &b))
			return -1;
		if (t->kind == TRIGGER_STALL_MS)
			a = b;
		break;
	case TRIGGER_FALLBACK_RATE:
		if (read_mthp(root, &a, &b))
			return -1;
		break;
	case TRIGGER_MEMCG_OOM:
	case TRIGGER_MEMCG_MAX:
	case TRIGGER_MEMCG_HIGH:
		if (read_memcg(cgroup, t->kind, &a))
			return -1;
		break;
	default:
		return -1;
	}
	return trigger_eval(t, a, b, why, n);
}
