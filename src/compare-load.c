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
#include "analysis.h"
#include "metrics-swap.h"
#include "hist.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
		double delta = (double)(c->last - c->first);

		for (int k = 0; k < c->scale; k++)
			delta /= 10;
		if (c->source == SRC_VMSTAT)
			snprintf(name, sizeof(name), "%s", c->key);
		else if (c->source == SRC_MTHP)
			snprintf(name, sizeof(name), "mthp.%skB.%s", c->instance, c->key);
		else if (c->source == SRC_PSI && !c->scale)
			snprintf(name, sizeof(name), "psi.%s", c->key);
		else
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

	if (!m || !analysis_traced(a, REC_KSWAPD_WAKE, -1) ||
	    !analysis_traced(a, REC_KSWAPD_SLEEP, -1))
		return;
	for (int i = 0; i < handoff_model_nnodes(m); i++) {
		const struct handoff_node_stats *n = handoff_model_node(m, i);

		awake += n->awake_ns;
		episodes += n->episodes;
		handoffs += n->ho_wakeup + n->ho_pickup;
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

/*
 * A recording through the analysis driver: counter metrics from the
 * deltas between the first and last complete sample sets, trace metrics
 * from the models. Fails only when neither gives anything.
 */
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
		else
			snprintf(who, sizeof(who), "pid %d", in->scope_pid);
		snprintf(load_note + strlen(load_note), note_len - strlen(load_note),
			 "stalls of %s only, counters global", who);
	}
}

static int load_recording(const char *path, struct compare_scope *sc,
			  struct metric_values *out, char **err)
{
	struct counter_set cs = COUNTER_SET_INIT;
	struct analysis_opts ao;
	struct analysis *a;
	size_t before = out->n;
	uint64_t sets;

	analysis_opts_default(&ao);
	if (sc) {
		ao.scope = sc->scope;
		sc->bad = 0;
		sc->note[0] = '\0';
	}
	a = analysis_run_scoped(path, &ao, err, sc ? &sc->bad : NULL);
	if (!a)
		return -1;
	if (sc && analysis_scope_any(&sc->scope))
		load_describe_scope(analysis_info(a), sc);
	if (load_counters(a, &cs))
		metrics_compute(&cs, out);
	load_handoff(a, out);
	load_stalls(a, out);
	metrics_swap_load(a, out);
	sets = analysis_counters(a) ? counters_model_nsets(analysis_counters(a)) : 0;
	counter_set_release(&cs);
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

int compare_load_run(const char *path, struct metric_values *out, char **err)
{
	return compare_load_run_scoped(path, NULL, out, err);
}

int compare_load_run_scoped(const char *path, struct compare_scope *sc,
			    struct metric_values *out, char **err)
{
	struct strbuf sb = STRBUF_INIT;
	int r = is_recording(path, err);

	if (r < 0)
		return -1;
	if (r)
		return load_recording(path, sc, out, err);
	if (read_file(path, &sb))
		return set_err(err, "%s", strerror(errno));
	if (memchr(sb.buf, '\0', sb.len)) {
		strbuf_release(&sb);
		return set_err(err, "neither a recording (trace.dat) nor a metrics file");
	}
	r = compare_load_metrics_text(sb.buf ? sb.buf : "", out, err);
	strbuf_release(&sb);
	return r;
}
