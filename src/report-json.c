// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * JSON report: the same content as the text sections, for scripts. One
 * object with a member per section; every kswapd episode is listed (the
 * text report caps them). Times are seconds since the first event
 * ("t") or nanoseconds ("_ns"); a small writer keeps the commas right.
 */
#include "config.h"
#include "report.h"

#include <stdio.h>

#define ULL(x) ((unsigned long long)(x))

struct jw {
	struct strbuf *sb;
	int depth;
	int first[32];
};

static void jw_key(struct jw *j, const char *key)
{
	if (!j->first[j->depth])
		strbuf_addch(j->sb, ',');
	j->first[j->depth] = 0;
	strbuf_addch(j->sb, '\n');
	for (int i = 0; i < j->depth; i++)
		strbuf_addstr(j->sb, "  ");
	if (key)
		strbuf_addf(j->sb, "\"%s\": ", key);
}

static void jw_str_raw(struct jw *j, const char *s)
{
	strbuf_addch(j->sb, '"');
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			strbuf_addf(j->sb, "\\%c", c);
		else if (c < 0x20)
			strbuf_addf(j->sb, "\\u%04x", c);
		else
			strbuf_addch(j->sb, (char)c);
	}
	strbuf_addch(j->sb, '"');
}

static void jw_open(struct jw *j, const char *key, char c)
{
	jw_key(j, key);
	strbuf_addch(j->sb, c);
	j->first[++j->depth] = 1;
}

static void jw_close(struct jw *j, char c)
{
	int empty = j->first[j->depth];

	j->depth--;
	if (!empty) {
		strbuf_addch(j->sb, '\n');
		for (int i = 0; i < j->depth; i++)
			strbuf_addstr(j->sb, "  ");
	}
	strbuf_addch(j->sb, c);
}

static void jw_u(struct jw *j, const char *key, uint64_t v)
{
	jw_key(j, key);
	strbuf_addf(j->sb, "%llu", ULL(v));
}

static void jw_i(struct jw *j, const char *key, long long v)
{
	jw_key(j, key);
	strbuf_addf(j->sb, "%lld", v);
}

static void jw_d(struct jw *j, const char *key, double v)
{
	jw_key(j, key);
	strbuf_addf(j->sb, "%.6f", v);
}

static void jw_s(struct jw *j, const char *key, const char *s)
{
	jw_key(j, key);
	jw_str_raw(j, s);
}

static int want(const struct report_ctx *rc, enum report_section s)
{
	return !rc->o->sections || (rc->o->sections & (1u << s));
}

static void json_header(struct report_ctx *rc, struct jw *j)
{
	const struct analysis_info *in = rc->in;

	jw_open(j, "header", '{');
	jw_s(j, "file", in->path);
	jw_s(j, "kernel", in->kernel);
	jw_s(j, "host", in->host);
	jw_s(j, "clock", in->clock);
	jw_i(j, "version", in->version);
	jw_s(j, "compression", in->compression ? in->compression : "");
	jw_d(j, "first_s", (double)in->first_ts / 1e9);
	jw_d(j, "last_s", (double)in->last_ts / 1e9);
	jw_u(j, "events", in->events);
	jw_u(j, "parsed", in->parsed);
	jw_u(j, "records", in->records);
	jw_i(j, "lost", in->lost);
	jw_i(j, "lost_unknown", in->lost_unknown);
	jw_u(j, "cpustat_lost", in->cpustat_lost);
	jw_u(j, "sample_sets", in->sample_sets);
	jw_u(j, "sample_lines", in->sample_lines);
	jw_u(j, "sample_gaps", in->sample_gaps);
	jw_open(j, "notes", '[');
	for (int i = 0; i < analysis_nnotes(rc->a); i++)
		jw_s(j, NULL, analysis_note(rc->a, i));
	jw_close(j, ']');
	jw_close(j, '}');
}

static void json_wmark(struct jw *j, const char *key, const struct wmark_snap *w)
{
	jw_open(j, key, '{');
	jw_s(j, "state", wmark_state_name(w->state));
	jw_i(j, "free", (long long)w->free);
	jw_i(j, "min", (long long)w->min);
	jw_i(j, "low", (long long)w->low);
	jw_i(j, "high", (long long)w->high);
	jw_i(j, "free_blocks", (long long)w->free_blocks);
	jw_open(j, "buddy", '[');
	for (int o = 0; o < w->norders; o++)
		jw_u(j, NULL, w->buddy[o]);
	jw_close(j, ']');
	jw_close(j, '}');
}

static void json_episode(struct report_ctx *rc, struct jw *j, const struct kswapd_episode *ep)
{
	char fl[64];

	jw_open(j, NULL, '{');
	jw_d(j, "t", report_rel_s(rc, ep->start));
	jw_u(j, "dur_ns", ep->end - ep->start);
	jw_i(j, "order", ep->order);
	jw_i(j, "zid", ep->zid);
	jw_u(j, "wakeups", ep->wakeups);
	jw_s(j, "waker", ep->waker);
	jw_u(j, "rebalances", ep->rebalances);
	jw_u(j, "scanned", ep->scanned);
	jw_u(j, "reclaimed", ep->reclaimed);
	jw_u(j, "balance_runs", ep->balance_runs);
	jw_u(j, "balance_reclaimed", ep->balance_reclaimed);
	jw_i(j, "balance_order", ep->balance_order);
	jw_s(j, "handoff", handoff_kind_name(ep->handoff));
	jw_i(j, "handoff_order", ep->handoff_order);
	jw_d(j, "handoff_t", ep->handoff_ts ? report_rel_s(rc, ep->handoff_ts) : 0);
	jw_u(j, "stalls", ep->stalls);
	jw_s(j, "flags", handoff_flags_str(ep->flags, fl, sizeof(fl)));
	json_wmark(j, "wmark_start", &ep->wm_start);
	json_wmark(j, "wmark_low", &ep->wm_low);
	json_wmark(j, "wmark_end", &ep->wm_end);
	jw_close(j, '}');
}

static void json_node(struct report_ctx *rc, struct jw *j, const struct handoff_model *hm, int i)
{
	const struct handoff_node_stats *n = handoff_model_node(hm, i);

	jw_open(j, NULL, '{');
	jw_i(j, "nid", n->nid);
	jw_u(j, "episodes", n->episodes);
	jw_u(j, "awake_ns", n->awake_ns);
	jw_u(j, "wakeup_kswapd", n->wakeup_kswapd);
	jw_u(j, "handoff_wakeup", n->ho_wakeup);
	jw_u(j, "handoff_pickup", n->ho_pickup);
	jw_u(j, "handoff_none", n->ho_none);
	jw_u(j, "handoff_not_needed", n->ho_not_needed);
	jw_u(j, "handoff_open", n->ho_open);
	jw_u(j, "kcompactd_wakes", n->kc_wakes);
	jw_u(j, "kcompactd_woken", n->kc_woken);
	jw_u(j, "kcompactd_pickup", n->kc_pickup);
	jw_u(j, "kcompactd_proactive", n->kc_proactive);
	jw_u(j, "kcompactd_sleeps", n->kc_sleeps);
	jw_u(j, "kcompactd_busy_ns", n->kc_busy_ns);
	jw_u(j, "kcompactd_runs", n->kc_runs);
	jw_u(j, "kcompactd_runs_success", n->kc_runs_success);
	jw_u(j, "wakeup_kcompactd", n->kc_wakeups);
	jw_u(j, "wakeup_kcompactd_by_kswapd", n->kc_wakeups_kswapd);
	jw_u(j, "wakeup_kcompactd_proactive", n->kc_wakeups_proactive);
	jw_u(j, "stalls_kcompactd_asleep", n->stalls_kc_asleep);
	if (n->has_wmarks) {
		json_wmark(j, "wmark_first", &n->wm_first);
		json_wmark(j, "wmark_lowest", &n->wm_lowest);
		json_wmark(j, "wmark_last", &n->wm_last);
	}
	jw_open(j, "kswapd_episodes", '[');
	for (int e = 0; e < handoff_model_nepisodes(hm, i); e++)
		json_episode(rc, j, handoff_model_episode(hm, i, e));
	jw_close(j, ']');
	jw_open(j, "kcompactd_requests", '[');
	for (int e = 0; e < handoff_model_nkc(hm, i); e++) {
		const struct kcompactd_episode *kc = handoff_model_kc(hm, i, e);

		jw_open(j, NULL, '{');
		jw_d(j, "t", report_rel_s(rc, kc->start));
		jw_u(j, "dur_ns", kc->end - kc->start);
		jw_i(j, "order", kc->order);
		jw_s(j, "via", kc_via_name(kc->via));
		jw_u(j, "runs", kc->runs);
		jw_u(j, "success", kc->success);
		jw_i(j, "last_status", kc->last_status);
		jw_i(j, "for_kswapd", kc->for_kswapd);
		jw_close(j, '}');
	}
	jw_close(j, ']');
	jw_close(j, '}');
}

static void json_handoff(struct report_ctx *rc, struct jw *j)
{
	const struct handoff_model *hm = analysis_handoff(rc->a);

	jw_open(j, "handoff", '[');
	for (int i = 0; i < handoff_model_nnodes(hm); i++)
		json_node(rc, j, hm, i);
	jw_close(j, ']');
}

static void json_hist(struct jw *j, const struct hist *h)
{
	jw_u(j, "count", h->count);
	jw_u(j, "p50_ns", hist_percentile(h, 50));
	jw_u(j, "p90_ns", hist_percentile(h, 90));
	jw_u(j, "p99_ns", hist_percentile(h, 99));
	jw_u(j, "max_ns", h->max);
	jw_u(j, "total_ns", h->sum);
	jw_open(j, "log2_ns", '{');
	for (int i = 0; i < 64; i++) {
		uint64_t c = hist_log2_count(h, i);
		char key[8];

		if (!c)
			continue;
		snprintf(key, sizeof(key), "%d", i);
		jw_u(j, key, c);
	}
	jw_close(j, '}');
}

static void json_stalls(struct report_ctx *rc, struct jw *j)
{
	const struct reclaim_model *rm = analysis_reclaim(rc->a);
	struct reclaim_task t[32];
	int n = reclaim_model_top_tasks(rm, t, 32);

	jw_open(j, "stalls", '{');
	for (int k = 0; k < RK_NR; k++) {
		const struct reclaim_kind_stats *ks = reclaim_model_kind(rm, k);

		jw_open(j, reclaim_kind_name(k), '{');
		jw_u(j, "begins", ks->begins);
		jw_u(j, "ends", ks->ends);
		jw_u(j, "open_at_end", ks->open_at_end);
		jw_u(j, "unpaired_ends", ks->unpaired_ends);
		jw_u(j, "nr_reclaimed", ks->nr_reclaimed);
		json_hist(j, &ks->lat);
		jw_u(j, "scanned", ks->scanned);
		jw_u(j, "reclaimed", ks->reclaimed);
		jw_u(j, "anon_scanned", ks->anon_scanned);
		jw_u(j, "anon_reclaimed", ks->anon_reclaimed);
		jw_u(j, "file_scanned", ks->file_scanned);
		jw_u(j, "file_reclaimed", ks->file_reclaimed);
		jw_u(j, "write_anon", ks->write_anon);
		jw_u(j, "write_file", ks->write_file);
		jw_open(j, "priority", '[');
		for (int p = 0; p < RECLAIM_NPRIO; p++) {
			jw_open(j, NULL, '[');
			jw_u(j, NULL, ks->prio_scanned[p]);
			jw_u(j, NULL, ks->prio_reclaimed[p]);
			jw_close(j, ']');
		}
		jw_close(j, ']');
		jw_close(j, '}');
	}
	jw_open(j, "top_tasks", '[');
	for (int i = 0; i < n; i++) {
		jw_open(j, NULL, '{');
		jw_i(j, "pid", t[i].pid);
		jw_s(j, "comm", t[i].comm);
		jw_s(j, "kind", reclaim_kind_name(t[i].kind));
		jw_u(j, "count", t[i].count);
		jw_u(j, "total_ns", t[i].total_ns);
		jw_u(j, "max_ns", t[i].max_ns);
		jw_close(j, '}');
	}
	jw_close(j, ']');
	jw_close(j, '}');
}

static void json_compaction(struct report_ctx *rc, struct jw *j)
{
	const struct compact_stats *cs = compaction_model_stats(analysis_compaction(rc->a));

	jw_open(j, "compaction", '{');
	jw_open(j, "runners", '{');
	for (int i = 0; i < CR_NR; i++) {
		const struct compact_runner_stats *r = &cs->runner[i];

		jw_open(j, compact_runner_name(i), '{');
		jw_u(j, "runs", r->runs);
		jw_u(j, "open_at_end", r->open_at_end);
		json_hist(j, &r->dur);
		jw_open(j, "status", '{');
		for (int s = 0; s < COMPACT_NSTATUS; s++)
			if (r->status[s])
				jw_u(j, compact_status_name(s), r->status[s]);
		jw_close(j, '}');
		jw_u(j, "migrate_scanned", r->migrate_scanned);
		jw_u(j, "migrate_taken", r->migrate_taken);
		jw_u(j, "free_scanned", r->free_scanned);
		jw_u(j, "free_taken", r->free_taken);
		jw_u(j, "migrated", r->migrated);
		jw_u(j, "failed", r->failed);
		jw_close(j, '}');
	}
	jw_close(j, '}');
	jw_open(j, "runs_by_order", '{');
	for (int o = 1; o < REC_MAX_ORDERS; o++) {
		char key[8];

		if (!cs->by_order[o].runs)
			continue;
		snprintf(key, sizeof(key), "%d", o);
		jw_open(j, key, '{');
		jw_u(j, "runs", cs->by_order[o].runs);
		jw_u(j, "success", cs->by_order[o].success);
		jw_u(j, "total_ns", cs->by_order[o].total_ns);
		jw_u(j, "max_ns", cs->by_order[o].max_ns);
		jw_close(j, '}');
	}
	jw_close(j, '}');
	jw_u(j, "direct_tries", cs->direct_tries);
	jw_u(j, "deferred", cs->deferred);
	jw_u(j, "defer_compaction", cs->defer_compaction);
	jw_u(j, "defer_reset", cs->defer_reset);
	jw_u(j, "extfrag", cs->extfrag);
	jw_u(j, "extfrag_severe", cs->extfrag_severe);
	jw_u(j, "extfrag_ownership", cs->extfrag_ownership);
	jw_u(j, "unattributed_scans", cs->unattributed_scans);
	jw_close(j, '}');
}

static void json_orders(struct jw *j, const char *key, const struct frag_snapshot *s)
{
	jw_open(j, key, '[');
	for (int o = 0; o < s->norders; o++)
		jw_u(j, NULL, s->free[o]);
	jw_close(j, ']');
}

static void json_frag(struct report_ctx *rc, struct jw *j)
{
	const struct frag_model *fm = analysis_frag(rc->a);

	jw_open(j, "frag", '[');
	for (int i = 0; i < frag_model_nzones(fm); i++) {
		const struct frag_zone *z = frag_model_zone(fm, i);

		jw_open(j, NULL, '{');
		jw_i(j, "node", z->node);
		jw_s(j, "zone", z->zone);
		jw_u(j, "samples", z->samples);
		json_orders(j, "first", &z->first);
		json_orders(j, "last", &z->last);
		jw_open(j, "frag_index_last", '[');
		for (int o = 0; o < z->last.norders; o++)
			jw_d(j, NULL, frag_index(&z->last, o) / 1000.0);
		jw_close(j, ']');
		jw_close(j, '}');
	}
	jw_close(j, ']');
}

static void json_counters(struct report_ctx *rc, struct jw *j)
{
	const struct counters_model *cm = analysis_counters(rc->a);

	jw_open(j, "counters", '[');
	for (int i = 0; i < counters_model_count(cm); i++) {
		const struct counter *c = counters_model_get(cm, i);

		if (!c)
			continue;
		jw_open(j, NULL, '{');
		jw_s(j, "source", sample_source_name(c->source));
		jw_s(j, "instance", c->instance);
		jw_s(j, "key", c->key);
		jw_i(j, "scale", c->scale);
		jw_i(j, "first", (long long)c->first);
		jw_i(j, "last", (long long)c->last);
		jw_i(j, "max_step", (long long)c->max_step);
		jw_close(j, '}');
	}
	jw_close(j, ']');
}

static void json_consistency(struct report_ctx *rc, struct jw *j)
{
	struct consistency_row rows[CONSISTENCY_NROWS];
	int64_t lost = 0;
	int n = rc->in->has_samples ? report_consistency_rows(rc, rows, &lost) : 0;

	jw_open(j, "consistency", '[');
	for (int i = 0; i < n; i++) {
		jw_open(j, NULL, '{');
		jw_s(j, "events", rows[i].what);
		jw_i(j, "event_count", (long long)rows[i].events);
		jw_s(j, "relation", consistency_row_rel(&rows[i]));
		jw_s(j, "counter", rows[i].counter);
		jw_i(j, "counter_delta", (long long)rows[i].counter_delta);
		jw_s(j, "verdict", report_verdict_names[rows[i].verdict]);
		jw_i(j, "isolated_not_scanned", rows[i].alt_used);
		jw_close(j, '}');
	}
	jw_close(j, ']');
}

void report_json(struct report_ctx *rc)
{
	struct jw j = { .sb = rc->sb, .depth = 0, .first = { 1 } };

	strbuf_addch(rc->sb, '{');
	j.first[0] = 1;
	if (want(rc, RS_HEADER) || want(rc, RS_SUMMARY))
		json_header(rc, &j);
	if (want(rc, RS_HANDOFF) || want(rc, RS_SUMMARY))
		json_handoff(rc, &j);
	if (want(rc, RS_STALLS) || want(rc, RS_SUMMARY))
		json_stalls(rc, &j);
	if (want(rc, RS_COMPACTION) || want(rc, RS_SUMMARY))
		json_compaction(rc, &j);
	jw_key(&j, "has_samples");
	strbuf_addstr(rc->sb, rc->in->has_samples ? "true" : "false");
	if (want(rc, RS_FRAG))
		json_frag(rc, &j);
	if (want(rc, RS_COUNTERS))
		json_counters(rc, &j);
	if (want(rc, RS_CONSISTENCY))
		json_consistency(rc, &j);
	if (want(rc, RS_SWAP)) {
		jw_key(&j, "swap");
		report_json_swap(rc);
	}
	if (want(rc, RS_ZSWAP)) {
		jw_key(&j, "zswap");
		report_json_zswap(rc);
	}
	strbuf_addstr(rc->sb, "\n}\n");
}
