// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The memcg section, text and JSON (see report-memcgs.h).
 *
 *   cgroup                 largest     last    limit     peak  at-lim  ooms
 *   /mmtest/a                 64.0     12.3    64.0*     64.0   +1234    +1
 *     high 32.0; high events +17; pressure some 250 ms, full 120 ms
 *
 * Sizes are MiB of the sampled files (usage largest and last of the
 * run, the limit last sampled, the kernel's own peak: since the cgroup
 * was made or its max_usage reset, not only this run); at-lim is v1's
 * failcnt or v2's memory.events max, ooms the oom_kill count, both as
 * changes between the cgroup's first and last sample set; '-' for what
 * was not sampled (a cgroup in one set has no changes).
 */
#include "config.h"
#include "report-memcgs.h"
#include "model-memcgs.h"
#include "json.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct memcgs_model *model(const struct report_ctx *rc)
{
	return analysis_model(rc->a, &memcgs_model_ops);
}

/* Whether path is scope or a cgroup below it (both as the hierarchy
 * names them, "/" its root). */
static int path_under(const char *path, const char *scope)
{
	size_t n = strlen(scope);

	if (!strcmp(scope, "/") || !strcmp(path, scope))
		return 1;
	return !strncmp(path, scope, n) && path[n] == '/';
}

/*
 * The cgroups shown, widest first, into order (memcgs_model_count()
 * entries): every one, or under --cgroup that cgroup and those below it
 * (the scope's tasks are theirs). Returns how many.
 */
static int shown_order(const struct report_ctx *rc, const struct memcgs_model *m, int *order)
{
	int n = memcgs_model_count(m), k = 0;

	memcgs_model_order(m, order);
	for (int i = 0; i < n; i++)
		if (!rc->in->scope_cgroup ||
		    path_under(memcgs_model_get(m, order[i])->path, rc->in->scope_cgroup))
			order[k++] = order[i];
	return k;
}

static int recorded(const struct memcgs_model *m)
{
	return m && (memcgs_model_count(m) || memcgs_model_other(m)->nsets);
}

/* MiB with one decimal, "none" for no limit, "-" unknown. */
static const char *mib(char *buf, size_t len, const struct memcg_val *v)
{
	if (!v->known)
		snprintf(buf, len, "-");
	else if (v->unlimited)
		snprintf(buf, len, "none");
	else
		snprintf(buf, len, "%.1f", (double)v->v / (1024.0 * 1024.0));
	return buf;
}

static const char *delta(char *buf, size_t len, const struct memcg_count *c)
{
	if (!c->delta_known)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%+lld%s", (long long)c->delta, c->resets ? "r" : "");
	return buf;
}

/* v1's failcnt, else v2's memory.events max: times usage hit the limit */
static const struct memcg_count *at_limit(const struct memcg_info *g)
{
	return g->failcnt.last.known ? &g->failcnt : &g->ev_max;
}

/* The second line: v2's high and pressure, swap; nothing when none known. */
static void extra_line(struct report_ctx *rc, const struct memcg_info *g)
{
	char line[160], a[32], b[32];
	size_t at = 0;

#define ADD(...) do { \
		if (at < sizeof(line)) \
			at += (size_t)snprintf(line + at, sizeof(line) - at, __VA_ARGS__); \
	} while (0)
	if (g->high.last.known)
		ADD("%shigh %s%s", at ? "; " : "", mib(a, sizeof(a), &g->high.last),
		    g->high.changed ? "*" : "");
	if (g->ev_high.delta_known)
		ADD("%shigh events %s", at ? "; " : "", delta(a, sizeof(a), &g->ev_high));
	if (g->psi_some_us.delta_known || g->psi_full_us.delta_known) {
		snprintf(a, sizeof(a), "%.0f", (double)g->psi_some_us.delta / 1000.0);
		snprintf(b, sizeof(b), "%.0f", (double)g->psi_full_us.delta / 1000.0);
		ADD("%spressure some %s, full %s ms", at ? "; " : "",
		    g->psi_some_us.delta_known ? a : "-", g->psi_full_us.delta_known ? b : "-");
	}
	if (g->swap_max_sampled.known && g->swap_max_sampled.v)
		ADD("%sswap largest %s", at ? "; " : "", mib(a, sizeof(a), &g->swap_max_sampled));
#undef ADD
	if (at)
		report_wrap(rc, "    ", line);
}

void report_text_memcgs(struct report_ctx *rc)
{
	const struct memcgs_model *m = model(rc);
	const struct memcg_other *o = m ? memcgs_model_other(m) : NULL;
	int n = m ? memcgs_model_count(m) : 0, rows, changed = 0, resets = 0, all;
	int v1 = 0, v2 = 0, order_buf[REPORT_MEMCG_ROWS], *order;
	char a[32], b[32], c[32], d[32], e[32], f[32];

	report_title(rc, "Memory cgroup counters (record --cgroups)");
	if (report_needs_samples(rc, "memcg"))
		return;
	if (!recorded(m)) {
		report_line(rc, "memcg: not recorded in this file (mmscope record --cgroups ROOT)");
		return;
	}
	order = n > REPORT_MEMCG_ROWS ? xreallocarray(NULL, (size_t)n, sizeof(*order)) :
		order_buf;
	all = n;
	n = shown_order(rc, m, order);
	for (int i = 0; i < n; i++) {
		const struct memcg_info *g = memcgs_model_get(m, order[i]);

		v1 += g->version == 1;
		v2 += g->version == 2;
	}
	if (rc->in->scope_cgroup)
		report_line(rc, "--cgroup %s: %d of the %d cgroup%s sampled, it and those below",
			    rc->in->scope_cgroup, n, all, all == 1 ? "" : "s");
	report_line(rc, "%d cgroup%s (%s), widest first; sizes MiB; changes over", n,
		    n == 1 ? "" : "s", v1 && v2 ? "v1 and v2" : v2 ? "v2" : v1 ? "v1" : "version -");
	report_line(rc, "each cgroup's own sample sets; peak is the kernel's (since made)");
	rows = n < REPORT_MEMCG_ROWS ? n : REPORT_MEMCG_ROWS;
	if (n)
		report_line(rc, "%-20s %9s %8s %8s %8s %7s %5s", "cgroup", "largest", "last",
			    "limit", "peak", "at-lim", "ooms");
	for (int i = 0; i < rows; i++) {
		const struct memcg_info *g = memcgs_model_get(m, order[i]);
		char lim[40];

		snprintf(lim, sizeof(lim), "%s%s", mib(c, sizeof(c), &g->limit.last),
			 g->limit.changed ? "*" : "");
		changed |= g->limit.changed || g->high.changed;
		resets |= at_limit(g)->resets || g->ev_oom_kill.resets;
		if (strlen(g->path) > 20)
			report_line(rc, "%s", g->path);
		report_line(rc, "%-20s %9s %8s %8s %8s %7s %5s",
			    strlen(g->path) > 20 ? "" : g->path,
			    mib(a, sizeof(a), &g->usage_max), mib(b, sizeof(b), &g->usage_last), lim,
			    mib(d, sizeof(d), &g->peak), delta(e, sizeof(e), at_limit(g)),
			    delta(f, sizeof(f), &g->ev_oom_kill));
		extra_line(rc, g);
	}
	if (n > rows)
		report_line(rc, "%d more (smaller) cgroups: --format json lists every one",
			    n - rows);
	if (o->nsets && rc->in->scope_cgroup) {
		report_line(rc, "(the cgroups beyond --cgroups-max, summed without their names, "
			    "are not shown under --cgroup)");
	} else if (o->nsets) {
		char line[200];

		snprintf(line, sizeof(line), "beyond --cgroups-max, summed (no cgroup): up "
			 "to %s at once, usage largest %s, last %s MiB%s",
			 o->cgroups_max.known ? (snprintf(a, sizeof(a), "%lld",
							  (long long)o->cgroups_max.v), a) : "-",
			 mib(b, sizeof(b), &o->usage_max), mib(c, sizeof(c), &o->usage_last),
			 o->scan_truncated ? "; the tree was larger than the sampler walks" : "");
		report_wrap(rc, "", line);
	}
	if (memcgs_model_dropped(m))
		report_line(rc, "%llu values of cgroups beyond %d not followed",
			    (unsigned long long)memcgs_model_dropped(m), MEMCGS_MAX);
	if (changed)
		report_line(rc, "* changed during the recording (JSON: first value)");
	if (resets)
		report_line(rc, "r a count went down (cgroup made again): counted from 0");
	if (order != order_buf)
		free(order);
}

static void json_val(struct json_writer *j, const char *key, const struct memcg_val *v)
{
	json_s64_or_null(j, key, v->v, v->known && !v->unlimited);
}

static void json_limit(struct json_writer *j, const char *name, const struct memcg_limit *l)
{
	char key[64];

	snprintf(key, sizeof(key), "%s_bytes", name);
	json_val(j, key, &l->last);
	snprintf(key, sizeof(key), "%s_unlimited", name);
	if (l->last.known)
		json_bool(j, key, l->last.unlimited);
	else
		json_null(j, key);
	snprintf(key, sizeof(key), "%s_first_bytes", name);
	json_val(j, key, &l->first);
	snprintf(key, sizeof(key), "%s_changed", name);
	if (l->last.known)
		json_bool(j, key, l->changed);
	else
		json_null(j, key);
}

static void json_count(struct json_writer *j, const char *name, const struct memcg_count *c)
{
	json_object_inline(j, name);
	json_s64_or_null(j, "last", c->last.v, c->last.known);
	json_s64_or_null(j, "delta", c->delta, c->delta_known);
	json_s64_or_null(j, "resets", c->resets, c->delta_known);
	json_close(j);
}

void report_json_memcgs(struct report_ctx *rc)
{
	const struct memcgs_model *m = model(rc);
	struct json_writer *j = rc->jw;
	const struct memcg_other *o;
	int n, *order;

	if (!recorded(m)) {
		json_null(j, "memcg");
		return;
	}
	n = memcgs_model_count(m);
	o = memcgs_model_other(m);
	order = xreallocarray(NULL, (size_t)(n ? n : 1), sizeof(*order));
	n = shown_order(rc, m, order);
	json_object(j, "memcg");
	/* --cgroup: that cgroup and those below it only; null: every one */
	if (rc->in->scope_cgroup)
		json_str(j, "scope", rc->in->scope_cgroup);
	else
		json_null(j, "scope");
	json_array(j, "cgroups");
	for (int i = 0; i < n; i++) {
		const struct memcg_info *g = memcgs_model_get(m, order[i]);

		json_object(j, NULL);
		json_str(j, "path", g->path);
		json_s64_or_null(j, "version", g->version, g->version != 0);
		json_u64(j, "sets", g->nsets);
		json_fixed(j, "first_s", report_rel_s(rc, g->first_ts), 6);
		json_fixed(j, "last_s", report_rel_s(rc, g->last_ts), 6);
		json_val(j, "usage_first_bytes", &g->usage_first);
		json_val(j, "usage_last_bytes", &g->usage_last);
		json_val(j, "usage_max_bytes", &g->usage_max);
		if (g->usage_max.known)
			json_fixed(j, "usage_max_s", report_rel_s(rc, g->usage_max_ts), 6);
		else
			json_null(j, "usage_max_s");
		json_val(j, "peak_bytes", &g->peak);
		json_val(j, "memsw_peak_bytes", &g->memsw_peak);
		json_val(j, "swap_peak_bytes", &g->swap_peak);
		json_limit(j, "limit", &g->limit);
		json_limit(j, "high", &g->high);
		json_limit(j, "low", &g->low);
		json_limit(j, "min", &g->min);
		json_limit(j, "swap_max", &g->swap_max);
		json_limit(j, "memsw_limit", &g->memsw_limit);
		json_val(j, "swap_last_bytes", &g->swap_last);
		json_val(j, "swap_max_sampled_bytes", &g->swap_max_sampled);
		json_count(j, "failcnt", &g->failcnt);
		json_count(j, "events_low", &g->ev_low);
		json_count(j, "events_high", &g->ev_high);
		json_count(j, "events_max", &g->ev_max);
		json_count(j, "events_oom", &g->ev_oom);
		json_count(j, "events_oom_kill", &g->ev_oom_kill);
		json_count(j, "pressure_some_us", &g->psi_some_us);
		json_count(j, "pressure_full_us", &g->psi_full_us);
		json_close(j);
	}
	json_close(j);
	if (o->nsets && !rc->in->scope_cgroup) {
		json_object(j, "other");
		json_u64(j, "sets", o->nsets);
		json_s64_or_null(j, "cgroups_max", o->cgroups_max.v, o->cgroups_max.known);
		json_s64_or_null(j, "cgroups_last", o->cgroups_last.v, o->cgroups_last.known);
		json_val(j, "usage_max_bytes", &o->usage_max);
		json_val(j, "usage_last_bytes", &o->usage_last);
		json_bool(j, "scan_truncated", o->scan_truncated);
		json_close(j);
	} else {
		json_null(j, "other");
	}
	json_u64(j, "dropped_values", memcgs_model_dropped(m));
	json_close(j);
	free(order);
}
