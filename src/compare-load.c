// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The metrics of one run, for "mmscope compare": from a metrics file (text
 * written by hand or by another tool) or from a recording. A recording
 * goes through the analysis driver (src/analysis.h) once: the counters
 * model gives the deltas between the first and the last complete "mms1"
 * sample sets, which metrics_compute() turns into counter metrics, and
 * the handoff, reclaim and compaction models give the trace-derived
 * ones. A metric whose events were not recorded is left out (absent),
 * never reported as 0.
 */
#include "config.h"
#include "compare-load.h"
#include "findings.h"
#include "model-run.h"
#include "analysis.h"
#include "metrics-swap.h"
#include "metrics-direct.h"
#include "model-consistency.h"
#include "model-oom.h"
#include "model-reclaim.h"
#include "model-phases.h"
#include "hist.h"
#include "tracedat-set.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/*
 * --phase: the sampler writes only the counters that changed since its
 * last set, so the sets inside a phase do not say where each counter
 * stood when the phase began. Two private counters models read every
 * set instead: "pre" those begun before the phase's marker, "upto" those
 * begun before the phase ended; the phase's delta is upto's last value
 * minus pre's. A set belongs to the window its first line was written in
 * (the same rule as the analysis driver's).
 */
struct phase_counters {
	const char *phase;
	int state;			/* 0 before the phase, 1 in it, 2 after */
	int64_t seq;			/* the set being read */
	int set_state;			/* the state when it began */
	struct counters_model *pre, *upto;
	int outcome;			/* the command's outcome line was read */
};

static void phase_tap(void *ctx, const struct record *r)
{
	struct phase_counters *pc = ctx;
	int64_t seq;

	if (r->type == REC_PHASE && r->phase.name) {
		if (pc->state == 0 && !strcmp(r->phase.name, pc->phase))
			pc->state = 1;
		else if (pc->state == 1)
			pc->state = 2;
		return;
	}
	if (r->type == REC_SETTING && r->setting.source == SRC_OUTCOME)
		pc->outcome = 1;
	if ((seq = record_sample_seq(r)) < 0)
		return;
	if (seq != pc->seq) {
		pc->seq = seq;
		pc->set_state = pc->state;
	}
	if (pc->set_state == 0)
		counters_model_add(pc->pre, r);
	if (pc->set_state <= 1)
		counters_model_add(pc->upto, r);
}

/* The name metrics_compute() wants for a counter, or 0 to skip it. */
static int counter_name(const struct counter *c, char *name, size_t len)
{
	if (c->source == SRC_VMSTAT)
		snprintf(name, len, "%s", c->key);
	else if (c->source == SRC_MTHP)
		snprintf(name, len, "mthp.%skB.%s", c->instance, c->key);
	else if (c->source == SRC_PSI && !c->scale)
		snprintf(name, len, "psi.%s", c->key);
	else
		return 0;
	return 1;
}

/* Counter deltas over the phase (see struct phase_counters). */
static int load_phase_counters(const struct phase_counters *pc, struct counter_set *cs)
{
	uint64_t pre_first, pre_last, first, last;
	char name[160];
	int n = 0;

	if (!counters_model_nsets(pc->pre) ||
	    counters_model_nsets(pc->upto) <= counters_model_nsets(pc->pre))
		return 0;	/* no set before it, or none complete in it */
	for (int i = 0; i < counters_model_count(pc->upto); i++) {
		const struct counter *c = counters_model_get(pc->upto, i);
		const struct counter *b;
		double delta;

		if (!c)	/* seen only in a set whose end line is missing */
			continue;
		b = counters_model_find(pc->pre, c->source, c->instance, c->key);
		delta = (double)counters_diff(c->last, b ? b->last : c->first);

		for (int k = 0; k < c->scale; k++)
			delta /= 10;
		if (!counter_name(c, name, sizeof(name)))
			continue;
		counter_set_put(cs, name, delta);
		n++;
	}
	counters_model_span(pc->pre, &pre_first, &pre_last);
	counters_model_span(pc->upto, &first, &last);
	counter_set_put(cs, "time.elapsed", (double)(last - pre_last) / 1e9);
	return n;
}

/* Counter deltas of the counters model, named as metrics_compute() wants. */
static int load_counters(const struct analysis *a, struct counter_set *cs)
{
	const struct counters_model *m = analysis_counters(a);
	uint64_t first_ts, last_ts;
	char name[160];
	int n = 0;

	if (!m || counters_model_nsets(m) < 2)
		return 0;
	for (int i = 0; i < counters_model_count(m); i++) {
		const struct counter *c = counters_model_get(m, i);
		double delta;

		if (!c)	/* seen only in a set whose end line is missing */
			continue;
		delta = (double)counter_delta(c);

		for (int k = 0; k < c->scale; k++)
			delta /= 10;
		if (!counter_name(c, name, sizeof(name)))
			continue;
		counter_set_put(cs, name, delta);
		n++;
	}
	counters_model_span(m, &first_ts, &last_ts);
	counter_set_put(cs, "time.elapsed", (double)(last_ts - first_ts) / 1e9);
	return n;
}

static void add_hist_us(struct metric_values *out, const char *prefix, const struct hist *h)
{
	char name[96];

	snprintf(name, sizeof(name), "%s-total", prefix);
	metric_values_add(out, name, (double)h->sum / 1e6);
	if (!h->count)
		return;
	snprintf(name, sizeof(name), "%s-mean", prefix);
	metric_values_add(out, name, (double)h->sum / (double)h->count / 1e3);
	snprintf(name, sizeof(name), "%s-p50", prefix);
	metric_values_add(out, name, (double)hist_percentile(h, 50) / 1e3);
	snprintf(name, sizeof(name), "%s-p99", prefix);
	metric_values_add(out, name, (double)hist_percentile(h, 99) / 1e3);
	snprintf(name, sizeof(name), "%s-max", prefix);
	metric_values_add(out, name, (double)h->max / 1e3);
}

/* kswapd episodes and handoffs to kcompactd, summed over nodes. */
static void load_handoff(const struct analysis *a, struct metric_values *out)
{
	const struct handoff_model *m = analysis_handoff(a);
	uint64_t awake = 0, episodes = 0, handoffs = 0, missed = 0, runs = 0, ok = 0;
	uint64_t wake = 0, pick = 0;

	if (!m || !analysis_traced(a, REC_KSWAPD_WAKE, -1) ||
	    !analysis_traced(a, REC_KSWAPD_SLEEP, -1))
		return;
	for (int i = 0; i < handoff_model_nnodes(m); i++) {
		const struct handoff_node_stats *n = handoff_model_node(m, i);

		awake += n->awake_ns;
		episodes += n->episodes;
		handoffs += n->ho_wakeup + n->ho_pickup;
		wake += n->ho_wakeup;
		pick += n->ho_pickup;
		missed += n->ho_none;
		runs += n->kc_runs;
		ok += n->kc_runs_success;
	}
	metric_values_add(out, "kswapd-awake", (double)awake / 1e6);
	metric_values_add(out, "kswapd-episodes", (double)episodes);
	if (!analysis_traced(a, REC_KCOMPACTD_WAKE, -1))
		return;
	metric_values_add(out, "kcompactd-handoffs", (double)handoffs);
	metric_values_add(out, "kcompactd-missed-handoffs", (double)missed);
	metric_values_add(out, "kcompactd-handoffs-wake", (double)wake);
	metric_values_add(out, "kcompactd-handoffs-pick", (double)pick);
	if (runs)
		metric_values_add(out, "kcompactd-success-pct", (double)ok * 100 / (double)runs);
}

/* Direct reclaim and direct compaction stalls, and stalls per order. */
static void load_stalls(const struct analysis *a, struct metric_values *out)
{
	const struct reclaim_model *rm = analysis_reclaim(a);
	const struct compaction_model *cm = analysis_compaction(a);
	char name[64];

	if (rm && analysis_traced(a, REC_RECLAIM_BEGIN, RK_DIRECT)) {
		const struct reclaim_kind_stats *k = reclaim_model_kind(rm, RK_DIRECT);

		add_hist_us(out, "direct-reclaim-stall", &k->lat);
		/* orders 0..10 always (zeros pool correctly), higher ones if seen */
		for (int o = 0; o < REC_MAX_ORDERS; o++) {
			if (o > 10 && !k->orders[o])
				continue;
			snprintf(name, sizeof(name), "alloc-stalls-order-%d", o);
			metric_values_add(out, name, (double)k->orders[o]);
		}
	}
	if (rm && analysis_traced(a, REC_RECLAIM_BEGIN, RK_MEMCG))
		add_hist_us(out, "memcg-reclaim-stall", &reclaim_model_kind(rm, RK_MEMCG)->lat);
	if (cm && analysis_traced(a, REC_COMPACT_BEGIN, -1) &&
	    analysis_traced(a, REC_COMPACT_END, -1))
		add_hist_us(out, "direct-compact-stall",
			    &compaction_model_stats(cm)->runner[CR_DIRECT].dur);
}

/* The command's outcome (Duration rows, max RSS) and its memory cgroup
 * (record --cgroup): what the run model has, nothing it does not. */
static void load_run(const struct analysis *a, struct metric_values *out)
{
	const struct run_model *m = analysis_model(a, &run_model_ops);
	const struct run_outcome *oc = m ? run_model_outcome_meta(m, analysis_last_meta(a)) : NULL;
	const struct run_memcg *mc = m ? run_model_memcg(m) : NULL;
	static const struct { const char *name; size_t off; double scale; } mrows[] = {
		{ "memcg-scan-anon", offsetof(struct run_memcg, scan_anon), 1 },
		{ "memcg-scan-file", offsetof(struct run_memcg, scan_file), 1 },
		{ "memcg-steal-anon", offsetof(struct run_memcg, steal_anon), 1 },
		{ "memcg-steal-file", offsetof(struct run_memcg, steal_file), 1 },
		{ "memcg-scan", offsetof(struct run_memcg, scan), 1 },
		{ "memcg-steal", offsetof(struct run_memcg, steal), 1 },
		{ "memcg-refault-anon", offsetof(struct run_memcg, refault_anon), 1 },
		{ "memcg-refault-file", offsetof(struct run_memcg, refault_file), 1 },
		{ "memcg-events-high", offsetof(struct run_memcg, ev_high), 1 },
		{ "memcg-events-max", offsetof(struct run_memcg, ev_max), 1 },
		{ "memcg-events-oom", offsetof(struct run_memcg, ev_oom), 1 },
		{ "memcg-oom-kills", offsetof(struct run_memcg, ev_oom_kill), 1 },
		{ "memcg-failcnt", offsetof(struct run_memcg, failcnt), 1 },
		{ "memcg-usage-max", offsetof(struct run_memcg, usage_max), 1.0 / (1 << 20) },
		{ "memcg-swap-max", offsetof(struct run_memcg, swap_max_sampled),
		  1.0 / (1 << 20) },
	};

	/* --phase: the command's wait4 figures are the whole run's, which
	 * beside the phase's own duration would read as the phase's; the
	 * memcg's sampled rows below are the phase's sets */
	if (analysis_phase_found(a)) {
		/* load_recording notes it when the recording has them */
	} else if (oc && oc->known) {
		if (oc->elapsed_us.known)
			metric_values_add(out, "duration-elapsed", (double)oc->elapsed_us.v / 1e6);
		if (oc->user_us.known)
			metric_values_add(out, "duration-user", (double)oc->user_us.v / 1e6);
		if (oc->sys_us.known)
			metric_values_add(out, "duration-sys", (double)oc->sys_us.v / 1e6);
		if (oc->maxrss_kb.known)
			metric_values_add(out, "max-rss", (double)oc->maxrss_kb.v / 1024);
	}
	if (!mc || !mc->known)
		return;
	for (size_t i = 0; i < ARRAY_SIZE(mrows); i++) {
		const struct run_value *v = (const void *)((const char *)mc + mrows[i].off);

		if (v->known && !v->unlimited)
			metric_values_add(out, mrows[i].name, (double)v->v * mrows[i].scale);
	}
}

/* The run context as "key=value" lines, for the settings that differ. */
static void load_settings(const struct analysis *a, struct strbuf *sb)
{
	const struct run_model *m = analysis_model(a, &run_model_ops);

	if (!sb || !m || !run_model_has_context(m))
		return;
	for (int i = 0; i < run_model_nsettings(m); i++) {
		const struct run_setting *st = run_model_setting(m, i);

		strbuf_addf(sb, "%s=%s\n", st->key, st->start ? st->start :
			    st->absent_start ? "(absent)" : "(not recorded)");
	}
}

/* OOM victims the trace saw (oom:mark_victim). */
static void load_oom(const struct analysis *a, struct metric_values *out)
{
	const struct oom_model *m = analysis_model(a, &oom_model_ops);

	if (m && analysis_traced(a, REC_OOM, OOM_VICTIM))
		metric_values_add(out, "oom-kills-traced", (double)oom_model_nkills(m));
}

/* The zone sums of pgscan_direct / pgsteal_direct (ZONES of metrics.c):
 * 0 and *sum, or -1 when the set has none; drop: remove them. */
static int direct_counter(struct counter_set *cs, const char *base, double *sum, int drop)
{
	static const char *const zones[] = { "", "_dma", "_dma32", "_normal", "_movable",
					     "_high" };
	char name[64];
	int found = 0;
	double v;

	*sum = 0;
	for (size_t i = 0; i < ARRAY_SIZE(zones); i++) {
		snprintf(name, sizeof(name), "%s%s", base, zones[i]);
		if (counter_set_get(cs, name, &v))
			continue;
		found = 1;
		*sum += v;
		if (drop)
			counter_set_drop(cs, name);
	}
	return found ? 0 : -1;
}

/*
 * From 7.2 pgscan_* / pgsteal_* are node counters kept through the lruvec,
 * so memcg limit reclaim counts in pgscan_direct / pgsteal_direct too
 * (src/model-consistency.c). Take that part out where the recording says
 * what it was (direct_split(), the rule the report's counters use too),
 * else move the counters to the direct+memcg rows.
 */
static void split_memcg_direct(const struct analysis *a, struct counter_set *cs,
			       struct metric_values *out)
{
	const char *kernel = analysis_info(a)->kernel;
	struct direct_counts dc = { 0 };
	double scan, steal, proactive = 0;
	int64_t mscan, msteal;

	if (direct_counter(cs, "pgscan_direct", &scan, 0) ||
	    direct_counter(cs, "pgsteal_direct", &steal, 0))
		return;
	dc.scan = (int64_t)scan;
	dc.steal = (int64_t)steal;
	for (size_t i = 0; i < cs->n; i++)
		if (!strncmp(cs->v[i].name, "allocstall", 10))
			dc.stalls += (int64_t)cs->v[i].value, dc.have_stalls = 1;
	dc.have_proactive = !counter_set_get(cs, "pgscan_proactive", &proactive);
	dc.proactive = (int64_t)proactive;
	switch (direct_split(a, &dc, &mscan, &msteal)) {
	case DIRECT_ONLY:
		return;
	case DIRECT_NO_STALLS:
		counter_set_put(cs, "memcg_direct.scanned", (double)mscan);
		counter_set_put(cs, "memcg_direct.reclaimed", (double)msteal);
		if (mscan || msteal)
			metric_values_note(out, "direct-scanned", "pgscan_direct/"
					   "pgsteal_direct count memcg limit reclaim too on 7.2+ "
					   "(%s): no allocstall, so their %.0f/%.0f pages are "
					   "memcg reclaim, not direct", kernel, (double)mscan,
					   (double)msteal);
		return;
	case DIRECT_BY_EVENTS:
		counter_set_put(cs, "memcg_direct.scanned", (double)mscan);
		counter_set_put(cs, "memcg_direct.reclaimed", (double)msteal);
		if (mscan || msteal)
			metric_values_note(out, "direct-scanned", "pgscan_direct/"
					   "pgsteal_direct count memcg limit reclaim too on 7.2+ "
					   "(%s): its %.0f/%.0f pages (memcg reclaim events) are "
					   "taken out", kernel, (double)mscan, (double)msteal);
		return;
	case DIRECT_UNSPLIT:
		break;
	}
	direct_counter(cs, "pgscan_direct", &scan, 1);
	direct_counter(cs, "pgsteal_direct", &steal, 1);
	counter_set_put(cs, "memcg_direct.unsplit_scanned", scan);
	counter_set_put(cs, "memcg_direct.unsplit_reclaimed", steal);
	metric_values_note(out, "direct-memcg-scanned", "pgscan_direct/pgsteal_direct "
			   "count memcg limit reclaim too on 7.2+ (%s) and the recording "
			   "has no memcg reclaim events to take it out: shown as "
			   "direct+memcg rows", kernel);
}

/* Counter metrics: deltas between the first and last complete sample
 * sets (of the whole recording; --phase: load_recording's own). */
static void load_counter_metrics(const struct analysis *a, struct metric_values *out)
{
	struct counter_set cs = COUNTER_SET_INIT;

	if (load_counters(a, &cs)) {
		split_memcg_direct(a, &cs, out);
		metrics_compute(&cs, out);
	}
	counter_set_release(&cs);
}

/* --phase: the phase's own length (the first phase of that name, as the
 * analysis took it). */
static void load_phase_duration(const struct analysis *a, const char *phase,
				struct metric_values *out)
{
	const struct phase *p = phases_model_find(analysis_model(a, &phases_model_ops), phase);

	if (p && p->end_ts >= p->start_ts)
		metric_values_add(out, "phase-duration", (double)(p->end_ts - p->start_ts) / 1e9);
}

/* The command the recording ran (mmscope record -- COMMAND), argv joined:
 * columns that ran different commands are named under the table. */
static void load_command(const struct analysis *a, struct metric_values *out)
{
	const struct run_model *m = analysis_model(a, &run_model_ops);
	const struct run_outcome *oc = m ? run_model_outcome_meta(m, analysis_last_meta(a)) : NULL;
	struct strbuf sb = STRBUF_INIT;

	if (!oc || !oc->known || oc->argc <= 0 || out->command)
		return;
	for (int i = 0; i < oc->argc; i++)
		strbuf_addf(&sb, "%s%s", i ? " " : "", oc->argv[i] ? oc->argv[i] : "");
	/* one line: a script's newlines and tabs are blanks here */
	for (size_t i = 0; i < sb.len; i++)
		if ((unsigned char)sb.buf[i] < ' ')
			sb.buf[i] = ' ';
	out->command = sb.buf ? sb.buf : xstrdup("");
}

/*
 * The row groups of a recording, each from the models of one analysis
 * pass. A new group is one function here and its rows in the catalogue
 * (src/metrics.c); a group whose events or counters were not recorded
 * adds nothing (absent, never 0).
 */
static void (*const loaders[])(const struct analysis *, struct metric_values *) = {
	load_counter_metrics,
	load_handoff,
	load_stalls,
	load_oom,
	metrics_swap_load,
	load_run,
	load_command,
};

/*
 * The run's findings (findings_build over its analysis, while it is
 * alive), merged per id and count unit, and the rules that could not run:
 * compare lists those that appear, vanish or change between columns.
 */
static void load_findings(const struct analysis *a, struct metric_values *out)
{
	struct findings *fs = findings_build(a);
	int idx[64], nun = findings_unevaluated(a, idx, 64);

	out->findings_known = 1;
	for (int i = 0; i < fs->n; i++) {
		const struct finding *f = &fs->f[i];
		const char *unit = f->count_unit ? f->count_unit : "";
		struct run_finding *rf = NULL;

		for (size_t k = 0; k < out->nfindings && !rf; k++)
			if (!strcmp(out->findings[k].id, f->rule->id) &&
			    !strcmp(out->findings[k].unit, unit))
				rf = &out->findings[k];
		if (!rf) {
			out->findings = xreallocarray(out->findings, out->nfindings + 1,
						      sizeof(*out->findings));
			rf = &out->findings[out->nfindings++];
			memset(rf, 0, sizeof(*rf));
			snprintf(rf->id, sizeof(rf->id), "%s", f->rule->id);
			snprintf(rf->unit, sizeof(rf->unit), "%s", unit);
			rf->severity = f->severity;
		}
		if ((int)f->severity > rf->severity)
			rf->severity = f->severity;
		rf->count += f->count;
	}
	for (int i = 0; i < nun && i < 64; i++)
		strbuf_addf(&out->notrun, "%s\n", finding_rules[idx[i]].id);
	findings_free(fs);
}

/*
 * A recording through the analysis driver: counter metrics from the
 * deltas between the first and last complete sample sets, trace metrics
 * from the models. Fails only when neither gives anything.
 */
/* "no phase NAME here (phases: a, b)" */
static int no_phase(const struct analysis *a, const char *phase, char **err)
{
	const struct phases_model *m = analysis_model(a, &phases_model_ops);
	struct strbuf sb = STRBUF_INIT;
	int r;

	for (int i = 0; i < phases_model_count(m); i++) {
		const char *name = phases_model_get(m, i)->name;

		if (phases_model_find(m, name) == phases_model_get(m, i))	/* once */
			strbuf_addf(&sb, "%s%s", sb.len ? ", " : "", name);
	}
	r = set_err(err, "no phase '%s' in this recording (%s%s)", phase,
		    sb.len ? "its phases: " : "it marks no phase",
		    sb.len ? sb.buf : "");
	strbuf_release(&sb);
	return r;
}

/* The window and the sample sets its counter deltas come from, the tasks */
static void load_describe_scope(const struct analysis_info *in, struct compare_scope *cs)
{
	char *load_note = cs->note;
	size_t note_len = sizeof(cs->note);
	char until[48] = "the end", samples[96] = "fewer than two sample sets in it";
	double t0 = (double)in->first_ts;

	load_note[0] = '\0';
	if (in->until_ts != UINT64_MAX)
		snprintf(until, sizeof(until), "%.6f s", ((double)in->until_ts - t0) / 1e9);
	if (in->samples_last_ts > in->samples_first_ts)
		snprintf(samples, sizeof(samples), "counter deltas between the sample sets at "
			 "%.3f s and %.3f s", ((double)in->samples_first_ts - t0) / 1e9,
			 ((double)in->samples_last_ts - t0) / 1e9);
	if (in->windowed)
		snprintf(load_note, note_len, "window %.6f s .. %s from the first event; "
			 "%s%s", ((double)in->since_ts - t0) / 1e9, until, samples,
			 in->task_scoped ? "; " : "");
	if (in->task_scoped) {
		char who[48];

		if (in->scope_comm)
			snprintf(who, sizeof(who), "comm %s", in->scope_comm);
		else if (in->scope_pid)
			snprintf(who, sizeof(who), "pid %d", in->scope_pid);
		else
			snprintf(who, sizeof(who), "cgroup %.40s", in->scope_cgroup);
		snprintf(load_note + strlen(load_note), note_len - strlen(load_note),
			 "stalls of %s only, counters global", who);
	}
}

static int load_recording(const struct inputs *in, int rec, const char *phase,
			  struct compare_scope *sc, struct metric_values *out,
			  struct strbuf *settings, char **err)
{
	struct analysis_opts ao;
	struct analysis *a;
	size_t before = out->n;
	uint64_t sets;

	struct phase_counters pc = { phase, 0, -1, 0, NULL, NULL, 0 };

	analysis_opts_default(&ao);
	ao.unnamed_frames = 1;	/* the comparison shows no stacks */
	if (phase) {
		ao.phase = phase;
		ao.tap = phase_tap;
		ao.tap_ctx = &pc;
		pc.pre = counters_model_new();
		pc.upto = counters_model_new();
	}
	if (sc) {
		ao.scope = sc->scope;
		sc->bad = 0;
		sc->note[0] = '\0';
	}
	/* the scope is the job's own: the input layer reads the recording */
	a = inputs_analysis_as(in, rec, &ao, err, sc ? &sc->bad : NULL);
	if (a && sc && analysis_scope_any(&sc->scope))
		load_describe_scope(analysis_info(a), sc);
	if (a && phase && !analysis_phase_found(a)) {
		no_phase(a, phase, err);
		analysis_free(a);
		a = NULL;
	}
	if (a && phase) {
		struct counter_set cs = COUNTER_SET_INIT;

		if (load_phase_counters(&pc, &cs)) {
			split_memcg_direct(a, &cs, out);
			metrics_compute_part(&cs, out);
		}
		counter_set_release(&cs);
		load_phase_duration(a, phase, out);
	}
	if (phase) {
		counters_model_free(pc.pre);
		counters_model_free(pc.upto);
	}
	if (!a)
		return -1;
	for (size_t i = 0; i < ARRAY_SIZE(loaders); i++)
		if (!phase || loaders[i] != load_counter_metrics)
			loaders[i](a, out);
	if (phase && pc.outcome)
		metric_values_note(out, "phase-duration", "Duration Elapsed, User and System "
				   "and Max RSS, the command's (wait4), are the whole run's: "
				   "left out with --phase");
	load_findings(a, out);
	load_settings(a, settings);
	sets = analysis_counters(a) ? counters_model_nsets(analysis_counters(a)) : 0;
	analysis_free(a);
	if (out->n == before)
		return set_err(err, "no metrics: %llu complete counter sample set%s (2 are "
			       "needed) and no kswapd, reclaim or compaction events",
			       (unsigned long long)sets, sets == 1 ? "" : "s");
	return 0;
}

/* A whole word as a finite number. */
static int parse_number(const char *s, size_t len, double *v)
{
	char buf[64], *end;

	if (!len || len >= sizeof(buf))
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	errno = 0;
	*v = strtod(buf, &end);
	return *end || errno || !isfinite(*v) ? -1 : 0;
}

/* Split a line into words (in place); returns the count, at most max. */
static int split_words(char *line, char **w, int max)
{
	int n = 0;

	for (char *save = NULL, *t = strtok_r(line, " \t\r", &save); t && n < max;
	     t = strtok_r(NULL, " \t\r", &save))
		w[n++] = t;
	return n;
}

static int metrics_line(char *line, int lineno, struct metric_values *mv,
			struct counter_set *cs, struct metric_values *dirs, char **err)
{
	char *w[258];
	int n = split_words(line, w, 258);
	double v;

	if (!n || w[0][0] == '#')
		return 0;
	if (!strcmp(w[0], "higher") || !strcmp(w[0], "lower")) {
		if (n != 2)
			return set_err(err, "line %d: '%s' takes one metric name", lineno, w[0]);
		metric_values_add(dirs, w[1], 0)->higher_is_better = w[0][0] == 'h';
		return 0;
	}
	if (!strcmp(w[0], "counter")) {
		if (n != 3 || parse_number(w[2], strlen(w[2]), &v))
			return set_err(err, "line %d: expected 'counter NAME VALUE'", lineno);
		counter_set_put(cs, w[1], v);
		return 0;
	}
	if (n < 2)
		return set_err(err, "line %d: expected 'NAME VALUE...'", lineno);
	if (n == 258)
		return set_err(err, "line %d: more than 256 values", lineno);
	for (int i = 1; i < n; i++) {
		if (parse_number(w[i], strlen(w[i]), &v))
			return set_err(err, "line %d: '%s' is not a number", lineno, w[i]);
		metric_values_add(mv, w[0], v);
	}
	return 0;
}

/* Computed counter metrics, except those the file gave itself. */
static void merge_counters(const struct counter_set *cs, struct metric_values *mv)
{
	struct metric_values computed = METRIC_VALUES_INIT;

	if (!cs->n)
		return;
	metrics_compute(cs, &computed);
	for (size_t i = 0; i < computed.n; i++)
		if (!metric_values_find(mv, computed.m[i].name))
			metric_values_add(mv, computed.m[i].name, computed.m[i].v[0]);
	metric_values_release(&computed);
}

int compare_load_metrics_text(const char *text, struct metric_values *out, char **err)
{
	struct metric_values mv = METRIC_VALUES_INIT, dirs = METRIC_VALUES_INIT;
	struct counter_set cs = COUNTER_SET_INIT;
	char *copy = xstrdup(text), *line;
	int lineno = 0, r = 0;

	for (char *p = copy; p; p = line) {
		line = strchr(p, '\n');
		if (line)
			*line++ = '\0';
		lineno++;
		if ((r = metrics_line(p, lineno, &mv, &cs, &dirs, err)))
			break;
	}
	if (!r) {
		merge_counters(&cs, &mv);
		for (size_t i = 0; i < mv.n; i++) {
			struct metric_series *d = metric_values_find(&dirs, mv.m[i].name);
			struct metric_series *s = NULL;

			for (size_t k = 0; k < mv.m[i].n; k++)
				s = metric_values_add(out, mv.m[i].name, mv.m[i].v[k]);
			if (d && s)
				s->higher_is_better = d->higher_is_better;
		}
	}
	metric_values_release(&mv);
	metric_values_release(&dirs);
	counter_set_release(&cs);
	free(copy);
	return r;
}

static int is_recording(const char *path, char **err)
{
	static const unsigned char magic[10] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i',
						 'n', 'g' };
	unsigned char buf[10];
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f)
		return set_err(err, "%s", strerror(errno));
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	return n == sizeof(buf) && !memcmp(buf, magic, sizeof(buf));
}

/* One job: a recording through the models, or a metrics file. */
static int load_job(struct compare_job *j)
{
	const char *path = j->in->rec[j->rec].paths[0];
	struct strbuf sb = STRBUF_INIT;
	int r = is_recording(path, &j->err);

	if (r < 0)
		return -1;
	if (r)
		return load_recording(j->in, j->rec, j->phase, &j->sc, &j->mv, &j->settings,
				      &j->err);
	if (j->phase)
		return set_err(&j->err, "--phase: a metrics file has no phases");
	if (read_file(path, &sb))
		return set_err(&j->err, "%s", strerror(errno));
	if (memchr(sb.buf, '\0', sb.len)) {
		strbuf_release(&sb);
		return set_err(&j->err, "neither a recording (trace.dat) nor a metrics file");
	}
	r = compare_load_metrics_text(sb.buf ? sb.buf : "", &j->mv, &j->err);
	strbuf_release(&sb);
	return r;
}

struct load_pool {
	struct compare_job *jobs;
	size_t n, next;
	size_t *order;		/* the jobs, largest first */
	pthread_mutex_t lock;
};

/* Bytes on disk of a job's files (0 when it cannot tell: "-", a metrics
 * file that went away): the order in which the workers take them. */
static uint64_t job_bytes(const struct compare_job *j)
{
	const struct input_rec *rec = &j->in->rec[j->rec];
	struct stat st;
	uint64_t sum = 0;

	for (int f = 0; f < rec->n; f++)
		if (!stat(rec->paths[f], &st))
			sum += (uint64_t)st.st_size;
	return sum;
}

struct job_size {
	uint64_t bytes;
	size_t i;
};

static int larger_first(const void *x, const void *y)
{
	const struct job_size *a = x, *b = y;

	if (a->bytes != b->bytes)
		return a->bytes < b->bytes ? 1 : -1;
	return a->i < b->i ? -1 : a->i > b->i;
}

static void *load_worker(void *arg)
{
	struct load_pool *p = arg;

	for (;;) {
		struct compare_job *j;

		pthread_mutex_lock(&p->lock);
		j = p->next < p->n ? &p->jobs[p->order[p->next++]] : NULL;
		pthread_mutex_unlock(&p->lock);
		if (!j)
			return NULL;
		j->rc = load_job(j);
	}
}

void compare_load_runs(struct compare_job *jobs, size_t n, int threads)
{
	struct load_pool p = { jobs, n, 0, NULL, PTHREAD_MUTEX_INITIALIZER };
	pthread_t *tid;
	size_t nt = 0;

	/*
	 * Largest first: a large recording taken last would keep one worker
	 * busy while the others wait. The results stay in the jobs' order.
	 */
	struct job_size *sz = xcalloc(n + 1, sizeof(*sz));

	p.order = xcalloc(n + 1, sizeof(*p.order));
	for (size_t i = 0; i < n; i++)
		sz[i] = (struct job_size){ job_bytes(&jobs[i]), i };
	qsort(sz, n, sizeof(*sz), larger_first);
	for (size_t i = 0; i < n; i++)
		p.order[i] = sz[i].i;
	free(sz);

	if (threads <= 0)	/* the CPUs it may use (taskset), not the machine's */
		threads = cpus_usable() < 256 ? cpus_usable() : 256;
	if ((size_t)threads > n)
		threads = (int)n;
	if (threads <= 1) {
		load_worker(&p);
		free(p.order);
		return;
	}
	tid = xcalloc((size_t)threads, sizeof(*tid));
	td_readers_at_once(threads);
	for (int i = 0; i < threads; i++)
		if (!pthread_create(&tid[nt], NULL, load_worker, &p))
			nt++;
	if (!nt)		/* no thread could start: load here */
		load_worker(&p);
	for (size_t i = 0; i < nt; i++)
		pthread_join(tid[i], NULL);
	td_readers_at_once(1);
	free(tid);
	free(p.order);
	pthread_mutex_destroy(&p.lock);
}

