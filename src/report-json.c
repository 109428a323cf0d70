// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * JSON report: the same content as the text sections, for scripts. One
 * object with a member per section; every kswapd episode is listed (the
 * text report caps them). Times are seconds since the first event
 * ("t") or nanoseconds ("_ns"). Written through the JSON writer (json.h).
 */
#include "config.h"
#include "report.h"
#include "json.h"
#include "findings.h"
#include "cgmap.h"
#include "run-stop.h"

#include <stdio.h>
#include <stdlib.h>

/* Flight files only: what the ring overwrote before the window (not in
 * "lost"), the window in which every CPU has data, and where each CPU's
 * data starts. */
static void json_flight(struct json_writer *j, const struct analysis_info *in)
{
	json_object(j, "flight");
	json_u64(j, "overwritten", in->overwritten);
	json_s64(j, "overwritten_unknown", in->overwritten_unknown);
	json_fixed(j, "window_first_s", (double)in->window_first_ts / 1e9, 6);
	json_fixed(j, "window_last_s", (double)in->last_ts / 1e9, 6);
	if (in->window_cpu >= 0)
		json_s64(j, "window_cpu", in->window_cpu);
	else
		json_null(j, "window_cpu");
	json_array(j, "cpus");
	for (int c = 0; c < in->ncpus; c++) {
		const struct analysis_cpu *cp = &in->cpu[c];

		json_object_inline(j, NULL);
		json_s64(j, "cpu", c);
		json_u64(j, "events", cp->events);
		if (cp->events) {
			json_fixed(j, "first_s", (double)cp->first_ts / 1e9, 6);
			json_fixed(j, "last_s", (double)cp->last_ts / 1e9, 6);
			/* complete from here on (its overwrite point) */
			json_fixed(j, "data_from_s", (double)cp->from_ts / 1e9, 6);
		} else {
			json_null(j, "first_s");
			json_null(j, "last_s");
			json_null(j, "data_from_s");
		}
		/* null: overwritten, by how much the file does not say */
		json_u64_or_null(j, "overwritten", cp->overwritten, cp->overwrote >= 0);
		json_close(j);
	}
	json_close(j);
	json_close(j);
}

static void json_str_or_null(struct json_writer *j, const char *key, const char *s)
{
	if (s)
		json_str(j, key, s);
	else
		json_null(j, key);
}

/*
 * The trigger that made a flight file and why the recording stopped
 * (mmscope-recording(5)): null for what the file does not say (no
 * trigger, an older mmscope, trace-cmd). Times are seconds from the
 * first event ("_s") and on the trace clock ("_abs_s").
 */
static void json_stop(struct report_ctx *rc)
{
	struct json_writer *j = rc->jw;
	struct run_stop st;
	struct run_ending e;

	run_stop_parse2(&st, analysis_private_meta(rc->a), analysis_last_meta(rc->a));
	if (st.has_trigger) {
		json_object(j, "trigger");
		json_str_or_null(j, "name", st.name);
		json_str_or_null(j, "kind", st.kind);
		json_str_or_null(j, "condition", st.trigger);
		json_str_or_null(j, "unit", st.unit);
		if (st.has_value)
			json_g(j, "value", st.value);
		else
			json_null(j, "value");
		if (st.has_threshold)
			json_g(j, "threshold", st.threshold);
		else
			json_null(j, "threshold");
		json_s64_or_null(j, "pid", st.pid, st.has_pid);
		json_str_or_null(j, "comm", st.comm);
		if (st.has_ns) {
			json_fixed(j, "at_s", (double)(int64_t)(st.ns - rc->in->first_ts) / 1e9, 6);
			json_fixed(j, "at_abs_s", (double)st.ns / 1e9, 6);
		} else {
			json_null(j, "at_s");
			json_null(j, "at_abs_s");
		}
		json_u64_or_null(j, "realtime_ns", st.realtime_ns, st.has_realtime);
		json_close(j);
	} else {
		json_null(j, "trigger");
	}
	if (st.stop) {
		json_object(j, "stop");
		json_str(j, "reason", st.stop);
		json_str_or_null(j, "then", st.then);
		json_str(j, "recorded", st.reason);
		json_str_or_null(j, "detail", st.detail);
		json_str(j, "text", run_stop_text(&st, 0));
		/* run_stop_ending(): null where the file does not say */
		run_stop_ending_of(&st, &e);
		if (e.complete >= 0)
			json_bool(j, "complete", e.complete);
		else
			json_null(j, "complete");
		if (e.command >= 0)
			json_bool(j, "command", e.command);
		else
			json_null(j, "command");
		if (e.ended_command >= 0)
			json_bool(j, "ended_command", e.ended_command);
		else
			json_null(j, "ended_command");
		if (st.spool_reason) {	/* a recovered file: what its spool said */
			json_object(j, "spool");
			json_str_or_null(j, "reason", st.spool_stop);
			json_str(j, "recorded", st.spool_reason);
			json_str_or_null(j, "detail", st.spool_detail);
			json_str_or_null(j, "state", st.spool_state);
			json_close(j);
		} else {
			json_null(j, "spool");
		}
		if (st.ncpu) {	/* a recovered file: where each CPU's data ends */
			json_array(j, "cpu_end_s");
			for (int i = 0; i < st.ncpu; i++)
				if (st.cpu_end[i].known)
					json_fixed(j, NULL, (double)(int64_t)(st.cpu_end[i].ns -
						   rc->in->first_ts) / 1e9, 6);
				else
					json_null(j, NULL);
			json_close(j);
		} else {
			json_null(j, "cpu_end_s");
		}
		json_close(j);
	} else {
		json_null(j, "stop");
	}
	run_stop_release(&st);
}

void report_json_header(struct report_ctx *rc)
{
	struct json_writer *j = rc->jw;
	const struct analysis_info *in = rc->in;

	json_object(j, "header");
	json_str(j, "file", in->path);
	json_str(j, "kernel", in->kernel);
	json_str(j, "host", in->host);
	json_str(j, "clock", in->clock);
	json_s64(j, "version", in->version);
	json_str(j, "compression", in->compression ? in->compression : "");
	/* the interval the figures come from: with a window, the window
	 * actually analysed (the recording's span is in "window") */
	uint64_t from, to;

	analysis_interval(in, &from, &to);
	/* null: no event (the start of a window without any is known) */
	if (in->events || in->windowed)
		json_fixed(j, "first_s", (double)from / 1e9, 6);
	else
		json_null(j, "first_s");
	if (in->events)
		json_fixed(j, "last_s", (double)to / 1e9, 6);
	else
		json_null(j, "last_s");
	/* UTC through the clocks mmscope record read together; null: none */
	{
		char w[48];
		uint64_t ns;

		/* null: no clocks, or the time is inside a step */
		analysis_wall_format(in, from, 9, w, sizeof(w));
		if ((!in->events && !in->windowed) || analysis_wall_ns(in, from, &ns))
			json_null(j, "first_wall");
		else
			json_str(j, "first_wall", w);
		analysis_wall_format(in, to, 9, w, sizeof(w));
		if (!in->events || analysis_wall_ns(in, to, &ns))
			json_null(j, "last_wall");
		else
			json_str(j, "last_wall", w);
	}
	/* the wall clock's steps against the trace clock; null: the recording
	 * did not watch for them */
	if (in->has_wall && in->wall.checked) {
		json_array(j, "wall_steps");
		for (int i = 0; i + 1 < wall_map_n(&in->wall); i++) {
			uint64_t after, before;
			int64_t moved;

			wall_map_step(&in->wall, i, &after, &before, &moved);
			json_object(j, NULL);
			json_fixed(j, "after_s", (double)after / 1e9, 6);
			json_fixed(j, "before_s", (double)before / 1e9, 6);
			json_s64(j, "moved_ns", moved);
			json_close(j);
		}
		json_close(j);
		/* the last time both clocks were read together: a step after
		 * it is not seen (a recovered recording ends long after) */
		json_fixed(j, "wall_read_until_s",
			   (double)in->wall.seg[wall_map_n(&in->wall) - 1].tb / 1e9, 6);
	} else {
		json_null(j, "wall_steps");
		json_null(j, "wall_read_until_s");
	}
	json_u64(j, "events", in->events);
	json_u64(j, "parsed", in->parsed);
	json_u64(j, "records", in->records);
	json_s64(j, "lost", in->lost);
	json_s64(j, "lost_unknown", in->lost_unknown);
	json_u64(j, "cpustat_lost", in->cpustat_lost);
	/* kprobe hits missed (kprobe_profile); null: no probes or not recorded */
	json_s64_or_null(j, "probe_missed", in->probe_missed,
			 in->has_probes && in->probe_missed >= 0);
	json_stop(rc);
	if (in->flight)
		json_flight(j, in);
	if (in->windowed) {
		json_object(j, "window");
		json_fixed(j, "since_s", report_rel_s(rc, in->since_ts), 6);
		if (in->until_ts == UINT64_MAX)
			json_null(j, "until_s");
		else
			json_fixed(j, "until_s", report_rel_s(rc, in->until_ts), 6);
		json_fixed(j, "since_abs_s", (double)in->since_ts / 1e9, 6);
		if (in->until_ts == UINT64_MAX)
			json_null(j, "until_abs_s");
		else
			json_fixed(j, "until_abs_s", (double)in->until_ts / 1e9, 6);
		/* its length as analysed (first_s .. last_s); null: no event */
		if (in->events)
			json_fixed(j, "length_s", (double)(to - from) / 1e9, 6);
		else
			json_null(j, "length_s");
		/* the recording's span beside it (last: null when the pass
		 * stopped after the window) */
		json_fixed(j, "recording_first_s", (double)in->first_ts / 1e9, 6);
		if (in->rec_last_known)
			json_fixed(j, "recording_last_s", (double)in->rec_last_ts / 1e9, 6);
		else
			json_null(j, "recording_last_s");
		/* no event in it: where it fell; null: it has events */
		if (in->empty_window)
			json_str(j, "empty", in->empty_window);
		else
			json_null(j, "empty");
		if (in->samples_last_ts > in->samples_first_ts) {
			json_fixed(j, "samples_first_s", report_rel_s(rc, in->samples_first_ts), 6);
			json_fixed(j, "samples_last_s", report_rel_s(rc, in->samples_last_ts), 6);
		} else {
			json_null(j, "samples_first_s");
			json_null(j, "samples_last_s");
		}
		json_close(j);
	}
	if (in->task_scoped) {
		json_object(j, "tasks");
		if (in->scope_pid)
			json_s64(j, "pid", in->scope_pid);
		else
			json_null(j, "pid");
		if (in->scope_comm)
			json_str(j, "comm", in->scope_comm);
		else
			json_null(j, "comm");
		if (in->scope_cgroup)	/* it and every cgroup below it */
			json_str(j, "cgroup", in->scope_cgroup);
		else
			json_null(j, "cgroup");
		json_u64(j, "matched", in->scope_tasks);	/* --pid too: 0 or 1 */
		json_str(j, "global", "counters, kswapd and kcompactd episodes");
		json_close(j);
	}
	json_u64(j, "sample_sets", in->sample_sets);
	json_u64(j, "sample_lines", in->sample_lines);
	json_u64(j, "sample_gaps", in->sample_gaps);
	{	/* time between sets: null with fewer than two */
		uint64_t f, l, after, gap = counters_model_max_gap(analysis_counters(rc->a), &after);

		counters_model_span(analysis_counters(rc->a), &f, &l);
		if (gap) {
			json_fixed(j, "sample_spacing_mean_s", (double)(l - f) / 1e9 /
				   (double)(in->sample_sets - 1), 6);
			json_fixed(j, "sample_spacing_max_s", (double)gap / 1e9, 6);
			json_fixed(j, "sample_spacing_max_after_s", report_rel_s(rc, after), 6);
		} else {
			json_null(j, "sample_spacing_mean_s");
			json_null(j, "sample_spacing_max_s");
			json_null(j, "sample_spacing_max_after_s");
		}
	}
	json_array(j, "notes");
	for (int i = 0; i < analysis_nnotes(rc->a); i++)
		json_str(j, NULL, analysis_note(rc->a, i));
	json_close(j);
	json_close(j);
}

/* A watermark snapshot: the zone it is of, its time and the watermarks in
 * force then; all null before the first zone sample. */
static void json_wmark(struct report_ctx *rc, struct json_writer *j, const char *key,
		       const struct wmark_snap *w)
{
	int known = w->zone[0] != '\0';

	json_object(j, key);
	if (w->state == WM_UNKNOWN)	/* no sample in the span it stands for */
		json_null(j, "state");
	else
		json_str(j, "state", wmark_state_name(w->state));
	if (known)
		json_str(j, "zone", w->zone);
	else
		json_null(j, "zone");
	if (known)
		json_fixed(j, "t", report_rel_s(rc, w->ts), 6);
	else
		json_null(j, "t");
	json_s64_or_null(j, "managed", w->managed, known && w->managed >= 0);
	json_s64_or_null(j, "free", w->free, known && w->free >= 0);
	json_s64_or_null(j, "min", w->min, known && w->min >= 0);
	json_s64_or_null(j, "low", w->low, known && w->low >= 0);
	json_s64_or_null(j, "high", w->high, known && w->high >= 0);
	json_s64_or_null(j, "free_blocks", w->free_blocks, known && w->free_blocks >= 0);
	json_array(j, "buddy");
	for (int o = 0; o < w->norders; o++)
		json_u64(j, NULL, w->buddy[o]);
	json_close(j);
	json_close(j);
}

/* Memory hotplug seen in the zone samples: the node's managed pages and
 * the changes of the zone shown. */
static void json_hotplug(struct report_ctx *rc, struct json_writer *j,
			 const struct handoff_node_stats *n)
{
	uint32_t nz = n->zone_changes < HANDOFF_MAX_ZCHG ? n->zone_changes : HANDOFF_MAX_ZCHG;

	json_s64(j, "managed_first", n->managed_first);
	json_s64(j, "managed_last", n->managed_last);
	json_u64(j, "managed_changes", n->managed_changes);
	/* the zone shown is no longer the largest (main) one: new names */
	json_s64(j, "zones", n->zones);
	json_u64(j, "shown_zone_changes", n->zone_changes);
	json_array(j, "shown_zone_change_list");
	for (uint32_t z = 0; z < nz; z++) {
		json_object(j, NULL);
		json_fixed(j, "t", report_rel_s(rc, n->zchg[z].ts), 6);
		json_str(j, "from", n->zchg[z].from);
		json_str(j, "to", n->zchg[z].to);
		json_s64(j, "from_managed", n->zchg[z].from_managed);
		json_s64(j, "to_managed", n->zchg[z].to_managed);
		json_close(j);
	}
	json_close(j);
}

static void json_episode(struct report_ctx *rc, struct json_writer *j, const struct kswapd_episode *ep)
{
	int shrink = analysis_traced(rc->a, REC_SHRINK_INACTIVE, -1);
	int balance = analysis_traced(rc->a, REC_BALANCE_END, -1);
	char fl[64];

	json_object(j, NULL);
	json_fixed(j, "t", report_rel_s(rc, ep->start), 6);
	json_u64(j, "dur_ns", ep->end - ep->start);
	json_s64(j, "order", ep->order);
	json_s64(j, "zid", ep->zid);
	json_u64(j, "wakeups", ep->wakeups);
	json_str(j, "waker", ep->waker);
	json_u64(j, "rebalances", ep->rebalances);
	/* null, not 0 or -1, where the events behind a figure were not
	 * recorded (shrink_inactive; balance_pgdat_end exists from 7.x) */
	json_u64_or_null(j, "scanned", ep->scanned, shrink);
	json_u64_or_null(j, "reclaimed", ep->reclaimed, shrink);
	json_u64_or_null(j, "balance_runs", ep->balance_runs, balance);
	json_u64_or_null(j, "balance_reclaimed", ep->balance_reclaimed, balance);
	json_s64_or_null(j, "balance_order", ep->balance_order, ep->balance_order >= 0);
	json_str(j, "handoff", handoff_kind_name(ep->handoff));
	if (ep->handoff == HO_WAKEUP || ep->handoff == HO_PICKUP) {
		json_s64(j, "handoff_order", ep->handoff_order);
		json_fixed(j, "handoff_t", report_rel_s(rc, ep->handoff_ts), 6);
	} else {
		json_null(j, "handoff_order");
		json_null(j, "handoff_t");
	}
	json_u64_or_null(j, "stalls", ep->stalls, report_stall_entries(rc) != NULL);
	json_str(j, "flags", handoff_flags_str(ep->flags, fl, sizeof(fl)));
	json_wmark(rc, j, "wmark_start", &ep->wm_start);
	json_wmark(rc, j, "wmark_low", &ep->wm_low);
	json_wmark(rc, j, "wmark_end", &ep->wm_end);
	json_close(j);
}

static void json_node(struct report_ctx *rc, struct json_writer *j, const struct handoff_model *hm, int i)
{
	const struct handoff_node_stats *n = handoff_model_node(hm, i);

	int ks = report_has_kswapd(rc), kcd = report_has_kcompactd(rc);

	/* null where the recording has no kswapd or kcompactd events */
	json_object(j, NULL);
	json_s64(j, "nid", n->nid);
	json_u64_or_null(j, "episodes", n->episodes, ks);
	json_u64_or_null(j, "kswapd_wakes", n->kswapd_wakes, ks);
	/* inside the recording: a part's time of an episode across its cuts
	 * too (PARTS OF A RUN) */
	json_s64_or_null(j, "awake_ns", handoff_awake_ns(n), ks);
	json_u64_or_null(j, "kswapd_continued", n->kswapd_continued, ks);
	json_u64_or_null(j, "wakeup_kswapd", n->wakeup_kswapd,
			 analysis_traced(rc->a, REC_WAKEUP_KSWAPD, -1));
	json_u64_or_null(j, "handoff_wakeup", n->ho_wakeup, ks);
	json_u64_or_null(j, "handoff_pickup", n->ho_pickup, ks);
	json_u64_or_null(j, "handoff_none", n->ho_none, ks);
	json_u64_or_null(j, "handoff_not_needed", n->ho_not_needed, ks);
	json_u64_or_null(j, "handoff_open", n->ho_open, ks);
	json_u64_or_null(j, "kcompactd_wakes", n->kc_wakes, kcd);
	json_u64_or_null(j, "kcompactd_woken", n->kc_woken, kcd);
	json_u64_or_null(j, "kcompactd_pickup", n->kc_pickup, kcd);
	/* wakes of order <= 0 (the text's order<=0; once named proactive,
	 * which they are not: proactive compaction emits no wake) */
	json_u64_or_null(j, "kcompactd_order0", n->kc_proactive, kcd);
	json_u64_or_null(j, "kcompactd_sleeps", n->kc_sleeps,
			 analysis_traced(rc->a, REC_KCOMPACTD_SLEEP, -1));
	json_u64_or_null(j, "kcompactd_busy_ns", n->kc_busy_ns, kcd);
	json_u64_or_null(j, "kcompactd_runs", n->kc_runs, kcd && report_has_compaction(rc));
	json_u64_or_null(j, "kcompactd_runs_success", n->kc_runs_success,
			 kcd && report_has_compaction(rc));
	/* proactive compaction emits no kcompactd_wake: passes, their runs
	 * and time */
	json_u64_or_null(j, "kcompactd_proactive_passes", n->kc_pro_passes,
			 report_has_kc_proactive(rc));
	json_u64_or_null(j, "kcompactd_proactive_runs", n->kc_pro_runs,
			 report_has_kc_proactive(rc));
	json_u64_or_null(j, "kcompactd_proactive_ns", n->kc_pro_ns,
			 report_has_kc_proactive(rc));
	json_u64_or_null(j, "kcompactd_runs_unclassified", n->kc_runs_unclassified,
			 report_has_kc_proactive(rc));
	json_u64_or_null(j, "wakeup_kcompactd", n->kc_wakeups, kcd);
	json_u64_or_null(j, "wakeup_kcompactd_by_kswapd", n->kc_wakeups_kswapd, kcd);
	json_u64_or_null(j, "wakeup_kcompactd_proactive", n->kc_wakeups_proactive, kcd);
	json_u64_or_null(j, "stalls_kcompactd_asleep", n->stalls_kc_asleep,
			 report_stall_entries(rc) != NULL);
	if (n->has_wmarks) {
		json_wmark(rc, j, "wmark_first", &n->wm_first);
		json_wmark(rc, j, "wmark_lowest", &n->wm_lowest);
		json_wmark(rc, j, "wmark_last", &n->wm_last);
		json_hotplug(rc, j, n);
	}
	/* lists of what was not recorded are null, not empty */
	if (!ks) {
		json_null(j, "kswapd_episodes");
	} else {
		json_array(j, "kswapd_episodes");
		for (int e = 0; e < handoff_model_nepisodes(hm, i); e++)
			json_episode(rc, j, handoff_model_episode(hm, i, e));
		json_close(j);
	}
	if (!kcd) {
		json_null(j, "kcompactd_requests");
		json_close(j);
		return;
	}
	json_array(j, "kcompactd_requests");
	for (int e = 0; e < handoff_model_nkc(hm, i); e++) {
		const struct kcompactd_episode *kc = handoff_model_kc(hm, i, e);

		json_object(j, NULL);
		json_fixed(j, "t", report_rel_s(rc, kc->start), 6);
		json_u64(j, "dur_ns", kc->end - kc->start);
		json_s64(j, "order", kc->order);
		json_str(j, "via", kc_via_name(kc->via));
		json_u64(j, "runs", kc->runs);
		json_u64(j, "success", kc->success);
		json_s64_or_null(j, "last_status", kc->last_status, kc->last_status >= 0);
		json_s64(j, "for_kswapd", kc->for_kswapd);
		json_close(j);
	}
	json_close(j);
	json_close(j);
}

void report_json_handoff(struct report_ctx *rc)
{
	struct json_writer *j = rc->jw;
	const struct handoff_model *hm = analysis_handoff(rc->a);

	json_array(j, "handoff");
	for (int i = 0; i < handoff_model_nnodes(hm); i++)
		json_node(rc, j, hm, i);
	json_close(j);
}

/* known: the events behind h were recorded. Percentiles of nothing are
 * null, not 0 (count 0 and total 0 are true of a recorded kind). */
/* A histogram's figures, with count and total_ns given: those of a part
 * of a run take what spans its cuts (PARTS OF A RUN), the rest are the
 * complete durations'. */
static void json_hist_of(struct json_writer *j, const struct hist *h, int known,
			 uint64_t count, int64_t total_ns)
{
	int some = known && h->count;

	json_u64_or_null(j, "count", count, known);
	json_u64_or_null(j, "p50_ns", hist_percentile(h, 50), some);
	json_u64_or_null(j, "p90_ns", hist_percentile(h, 90), some);
	json_u64_or_null(j, "p99_ns", hist_percentile(h, 99), some);
	json_u64_or_null(j, "max_ns", h->max, some);
	json_s64_or_null(j, "total_ns", total_ns, known);
	json_object(j, "log2_ns");
	for (int i = 0; i < 64; i++) {
		uint64_t c = hist_log2_count(h, i);
		char key[8];

		if (!c)
			continue;
		snprintf(key, sizeof(key), "%d", i);
		json_u64(j, key, c);
	}
	json_close(j);
}

void report_json_stalls(struct report_ctx *rc)
{
	struct json_writer *j = rc->jw;
	const struct reclaim_model *rm = analysis_reclaim(rc->a);
	struct reclaim_task t[32];
	int n = reclaim_model_top_tasks(rm, t, 32);

	/* null, not 0, where the events cannot say: reclaim_end without
	 * nr_reclaimed, lru_shrink_inactive without its page fields or not
	 * recorded at all (the header's notes say which) */
	int rec_known = !report_not_measured(rc, "pages reclaimed per reclaim");
	int lru_known = !report_not_measured(rc, "reclaim efficiency") &&
			analysis_traced(rc->a, REC_SHRINK_INACTIVE, -1);
	int pass_known = reclaim_passes_unknown(rc->a) == NULL;

	json_object(j, "stalls");
	for (int k = 0; k < RK_NR; k++) {
		const struct reclaim_kind_stats *ks = reclaim_model_kind(rm, k);

		/* a begin/end kind whose events were not recorded counts nothing */
		int seen = k >= RK_KSWAPD || analysis_traced(rc->a, REC_RECLAIM_BEGIN, k);

		json_object(j, reclaim_kind_name(k));
		/* null: a trace-cmd file that cannot tell (analysis.h) */
		if (k < RK_KSWAPD &&
		    analysis_traced_state(rc->a, REC_RECLAIM_BEGIN, k) == TRACED_UNKNOWN)
			json_null(j, "recorded");
		else
			json_bool(j, "recorded", seen);
		json_u64_or_null(j, "begins", ks->begins, seen);
		json_u64_or_null(j, "ends", ks->ends, seen);
		json_u64_or_null(j, "open_at_end", ks->open_at_end, seen);
		json_u64_or_null(j, "unpaired_ends", ks->unpaired_ends, seen);
		json_u64_or_null(j, "nr_reclaimed", ks->nr_reclaimed, rec_known && seen);
		/* a part of a run (PARTS OF A RUN): count and total_ns take the
		 * stalls cut at its end and the time of those begun before it;
		 * the percentiles, max and log2_ns complete stalls only */
		json_hist_of(j, &ks->lat, seen, reclaim_stalls(ks), reclaim_stall_ns(ks));
		json_u64_or_null(j, "cut", ks->cut, seen);
		json_s64_or_null(j, "cut_ns", ks->cut_ns, seen);
		json_u64_or_null(j, "continued", ks->continued, seen);
		json_s64_or_null(j, "continued_ns", ks->continued_ns, seen);
		json_u64_or_null(j, "scanned", ks->scanned, lru_known);
		json_u64_or_null(j, "reclaimed", ks->reclaimed, lru_known);
		json_u64_or_null(j, "anon_scanned", ks->anon_scanned, lru_known);
		json_u64_or_null(j, "anon_reclaimed", ks->anon_reclaimed, lru_known);
		json_u64_or_null(j, "file_scanned", ks->file_scanned, lru_known);
		json_u64_or_null(j, "file_reclaimed", ks->file_reclaimed, lru_known);
		json_u64_or_null(j, "write_anon", ks->write_anon, seen);
		json_u64_or_null(j, "write_file", ks->write_file, seen);
		json_array(j, "priority");
		for (int p = 0; p < RECLAIM_NPRIO; p++) {
			json_array(j, NULL);
			json_u64_or_null(j, NULL, ks->prio_scanned[p], lru_known);
			json_u64_or_null(j, NULL, ks->prio_reclaimed[p], lru_known);
			json_close(j);
		}
		json_close(j);
		if (k == RK_MEMCG) {
			/* by the first priority that scanned (memcg-scan-rounding);
			 * null where the recording cannot tell */
			json_object(j, "passes");
			json_u64_or_null(j, "count", reclaim_passes(ks), pass_known);
			json_u64_or_null(j, "first_at_def_priority",
					 ks->pass_first[RECLAIM_DEF_PRIORITY], pass_known);
			json_u64_or_null(j, "escalated", reclaim_passes_escalated(ks), pass_known);
			json_u64_or_null(j, "scanned_nothing", ks->pass_none, pass_known);
			json_u64_or_null(j, "not_known", ks->pass_unknown, pass_known);
			json_close(j);
		}
		json_close(j);
	}
	json_array(j, "top_tasks");
	for (int i = 0; i < n; i++) {
		json_object(j, NULL);
		json_s64(j, "pid", t[i].pid);
		json_str(j, "comm", t[i].comm);
		json_str(j, "kind", reclaim_kind_name(t[i].kind));
		json_u64(j, "count", t[i].count);
		json_s64(j, "total_ns", t[i].total_ns);
		json_u64(j, "max_ns", t[i].max_ns);
		if (cgmap_recorded(analysis_cgmap(rc->a))) {	/* of its longest stall */
			const char *cg = cgmap_path(analysis_cgmap(rc->a), t[i].cgroup - 1);

			if (cg)
				json_str(j, "cgroup", cg);
			else
				json_null(j, "cgroup");
		}
		json_close(j);
	}
	json_close(j);
	json_close(j);
}

void report_json_compaction(struct report_ctx *rc)
{
	struct json_writer *j = rc->jw;
	struct compact_stats *fold;
	const struct compact_stats *cs = report_compact_stats(rc, &fold);

	int seen = analysis_traced(rc->a, REC_COMPACT_BEGIN, -1) &&
		   analysis_traced(rc->a, REC_COMPACT_END, -1);

	json_object(j, "compaction");
	json_bool(j, "recorded", seen);
	/* kcompactd on a request or proactive: told apart by its wakes and
	 * sleeps only; without both, its runs are all kc_unknown and these
	 * two are null, not 0 */
	int split = seen && report_has_kc_proactive(rc);

	json_object(j, "runners");
	for (int i = 0; i < CR_NR; i++) {
		const struct compact_runner_stats *r = &cs->runner[i];
		int known = i == CR_KCOMPACTD || i == CR_PROACTIVE ? split : seen;

		json_object(j, compact_runner_name(i));
		json_u64_or_null(j, "runs", r->runs, known);
		json_u64_or_null(j, "open_at_end", r->open_at_end, known);
		/* count and total_ns: runs begun here, time inside the part
		 * (PARTS OF A RUN); percentiles, max, log2_ns: ended runs */
		json_hist_of(j, &r->dur, known, compact_runs_counted(r), compact_run_ns(r));
		json_u64_or_null(j, "cut", r->cut, known);
		json_s64_or_null(j, "cut_ns", r->cut_ns, known);
		json_u64_or_null(j, "continued", r->continued, known);
		json_s64_or_null(j, "continued_ns", r->continued_ns, known);
		json_object(j, "status");
		for (int s = 0; s < COMPACT_NSTATUS; s++)
			if (r->status[s])
				json_u64(j, compact_status_name(s), r->status[s]);
		json_close(j);
		json_u64_or_null(j, "migrate_scanned", r->migrate_scanned, known);
		json_u64_or_null(j, "migrate_taken", r->migrate_taken, known);
		json_u64_or_null(j, "free_scanned", r->free_scanned, known);
		json_u64_or_null(j, "free_taken", r->free_taken, known);
		json_u64_or_null(j, "migrated", r->migrated, known);
		json_u64_or_null(j, "failed", r->failed, known);
		json_close(j);
	}
	json_close(j);
	json_object(j, "runs_by_order");
	for (int o = 1; o < REC_MAX_ORDERS; o++) {
		char key[8];

		if (!cs->by_order[o].runs)
			continue;
		snprintf(key, sizeof(key), "%d", o);
		json_object(j, key);
		json_u64(j, "runs", cs->by_order[o].runs);
		json_u64(j, "success", cs->by_order[o].success);
		json_u64(j, "total_ns", cs->by_order[o].total_ns);
		json_u64(j, "max_ns", cs->by_order[o].max_ns);
		json_close(j);
	}
	json_close(j);
	/* per zone: its pfns, its name where a zone sample gives it (null
	 * otherwise), its runs */
	json_array(j, "zones");
	for (int z = 0; z < cs->nzones; z++) {
		char name[48];

		json_object(j, NULL);
		json_u64(j, "zone_start_pfn", cs->zones[z].zone_start);
		json_u64(j, "zone_end_pfn", cs->zones[z].zone_end);
		if (compaction_model_zone_name(analysis_compaction(rc->a), cs->zones[z].zone_start,
					       cs->zones[z].zone_end, name, sizeof(name)))
			json_str(j, "name", name);
		else
			json_null(j, "name");
		json_u64(j, "runs", cs->zones[z].runs);
		json_close(j);
	}
	json_close(j);
	json_u64(j, "direct_tries", cs->direct_tries);
	json_u64(j, "deferred", cs->deferred);
	json_u64(j, "defer_compaction", cs->defer_compaction);
	json_u64(j, "defer_reset", cs->defer_reset);
	json_u64(j, "extfrag", cs->extfrag);
	json_u64(j, "extfrag_severe", cs->extfrag_severe);
	json_u64(j, "extfrag_ownership", cs->extfrag_ownership);
	json_u64(j, "unattributed_scans", cs->unattributed_scans);
	json_close(j);
	free(fold);
}

static void json_orders(struct json_writer *j, const char *key, const struct frag_snapshot *s)
{
	json_array(j, key);
	for (int o = 0; o < s->norders; o++)
		json_u64(j, NULL, s->free[o]);
	json_close(j);
}

void report_json_frag(struct report_ctx *rc)
{
	struct json_writer *j = rc->jw;
	const struct frag_model *fm = analysis_frag(rc->a);

	json_array(j, "frag");
	for (int i = 0; i < frag_model_nzones(fm); i++) {
		const struct frag_zone *z = frag_model_zone(fm, i);

		json_object(j, NULL);
		json_s64(j, "node", z->node);
		json_str(j, "zone", z->zone);
		json_u64(j, "samples", z->samples);
		json_orders(j, "first", &z->first);
		json_orders(j, "last", &z->last);
		json_array(j, "frag_index_last");
		for (int o = 0; o < z->last.norders; o++)
			json_fixed(j, NULL, frag_index(&z->last, o) / 1000.0, 6);
		json_close(j);
		json_close(j);
	}
	json_close(j);
}

/* A gauge's unit, peak, when (s from the first event) and limit (null
 * when not sampled or unlimited); counts that only grow have none. */
static void json_counter_gauge(struct report_ctx *rc, struct json_writer *j,
			       const struct counters_model *cm, const struct counter *c)
{
	const struct counter_gauge *g = counters_gauge(c->source, c->key);
	int64_t limit = 0;
	int unlimited = 0, known;

	if (!g)
		return;
	known = counters_model_limit(cm, c, &limit, &unlimited) && !unlimited;
	json_str(j, "unit", g->unit);
	json_s64(j, "peak", c->peak);
	json_fixed(j, "peak_t", report_rel_s(rc, c->peak_ts), 6);
	json_s64_or_null(j, "limit", limit, known);
}

void report_json_counters(struct report_ctx *rc)
{
	struct json_writer *j = rc->jw;
	const struct counters_model *cm = analysis_counters(rc->a);

	json_array(j, "counters");
	for (int i = 0; i < counters_model_count(cm); i++) {
		const struct counter *c = counters_model_get(cm, i);

		if (!c)
			continue;
		json_object(j, NULL);
		json_str(j, "source", sample_source_name(c->source));
		json_str(j, "instance", c->instance);
		json_str(j, "key", c->key);
		json_s64(j, "scale", c->scale);
		if (c->wide) {	/* counts above INT64_MAX, kept as their bits */
			json_u64(j, "first", (uint64_t)c->first);
			json_u64(j, "last", (uint64_t)c->last);
		} else {
			json_s64(j, "first", c->first);
			json_s64(j, "last", c->last);
		}
		/* a step needs two sets: null with one (a short window) */
		json_s64_or_null(j, "max_step", c->max_step, counters_model_nsets(cm) >= 2);
		json_counter_gauge(rc, j, cm, c);
		json_close(j);
	}
	json_close(j);
}

void report_json_consistency(struct report_ctx *rc)
{
	struct json_writer *j = rc->jw;
	struct consistency_row rows[CONSISTENCY_NROWS];
	int64_t lost = 0;
	/* a task scope: the events are some tasks', the counters global */
	int n = rc->in->has_samples && !rc->in->task_scoped ?
		report_consistency_rows(rc, rows, &lost) : 0;

	json_array(j, "consistency");
	for (int i = 0; i < n; i++) {
		json_object(j, NULL);
		json_str(j, "events", rows[i].what);
		json_s64_or_null(j, "event_count", rows[i].events,
				 rows[i].verdict != CV_NO_EVENTS);
		json_str(j, "relation", consistency_row_rel(&rows[i]));
		json_str(j, "counter", rows[i].counter);
		json_s64(j, "counter_delta", rows[i].counter_delta);
		json_str(j, "verdict", report_verdict_names[rows[i].verdict]);
		json_s64(j, "isolated_not_scanned", rows[i].alt_used);
		json_close(j);
	}
	json_close(j);
}
