// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A host's history in the report (report-history.h).
 */
#include "config.h"
#include "report-history.h"
#include "analysis.h"
#include "model-oom.h"
#include "run-stop.h"
#include "tracedat-read.h"
#include "wall-map.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- one run's sums ---- */

void history_sum_of(const struct analysis *a, struct history_sum *s)
{
	const struct analysis_info *in = analysis_info(a);
	const struct reclaim_model *rm = analysis_reclaim(a);
	const struct oom_model *om = analysis_model(a, &oom_model_ops);
	const struct reclaim_kind_stats *ks;

	memset(s, 0, sizeof(*s));
	s->done = 1;
	s->seconds = in->last_ts > in->first_ts ? (double)(in->last_ts - in->first_ts) / 1e9 : 0;
	if (in->windowed) {
		uint64_t from, to;

		analysis_interval(in, &from, &to);
		s->seconds = to > from ? (double)(to - from) / 1e9 : 0;
	}
	s->events = in->events;
	s->lost = in->lost;
	s->lost_unknown = in->lost_unknown;
	s->kills_known = om && analysis_has_event(a, "oom", "mark_victim");
	s->kills = s->kills_known ? (uint64_t)oom_model_nkills(om) : 0;
	ks = reclaim_model_kind(rm, RK_DIRECT);
	s->direct_known = analysis_traced(a, REC_RECLAIM_BEGIN, RK_DIRECT);
	if (s->direct_known && ks) {
		s->direct = ks->lat.count;
		s->direct_ns = ks->lat.sum;
	}
	ks = reclaim_model_kind(rm, RK_MEMCG);
	s->memcg_known = analysis_traced(a, REC_RECLAIM_BEGIN, RK_MEMCG);
	if (s->memcg_known && ks) {
		s->memcg = ks->lat.count;
		s->memcg_ns = ks->lat.sum;
	}
	s->pswpout = counters_model_delta(analysis_counters(a), "pswpout", &s->pswpout_known);
}

/* ---- the list of runs ---- */

/* "LABEL     TEXT" wrapped at 72 columns, continuation lines under the
 * text (the report's label-value layout) */
static void wrapped(struct strbuf *out, const char *label, const char *text)
{
	const int col = 10, width = 72;
	const char *p = text;

	strbuf_addf(out, "%-*s", col, label);
	while (*p) {
		int room = width - col, n = (int)strlen(p);

		if (n > room) {
			n = room;
			while (n > 0 && p[n] != ' ')
				n--;
			if (!n)
				n = room;
		}
		strbuf_add(out, p, (size_t)n);
		strbuf_addch(out, '\n');
		p += n;
		while (*p == ' ')
			p++;
		if (*p)
			strbuf_addf(out, "%*s", col, "");
	}
	if (!*text)
		strbuf_addch(out, '\n');
}

static const struct history_run *hrun(const struct inputs *in, int i)
{
	return &in->hist.run[i];
}

static int run_no(const struct inputs *in, int i)
{
	return i - in->hist.host_first[hrun(in, i)->host] + 1;
}

/* A run's end in words: "a signal (SIGTERM)", "filesystem full (...)". */
static void ended_text(const struct inputs *in, int i, struct strbuf *out)
{
	const struct input_rec *rec = &in->rec[hrun(in, i)->in];
	struct run_stop st;
	const char *t;

	run_stop_parse2(&st, rec->first_meta, rec->last_meta);
	t = run_stop_text(&st, 1);
	if (!t) {
		strbuf_addstr(out, "not recorded (no stop_reason)");
	} else {
		strbuf_addstr(out, t);
		if (st.detail && *st.detail)
			strbuf_addf(out, " (%s)", st.detail);
	}
	run_stop_release(&st);
}

static void began_text(const struct inputs *in, int i, struct strbuf *out)
{
	const struct history_run *r = hrun(in, i);
	const struct input_rec *rec = &in->rec[r->in];

	strbuf_addstr(out, history_began_word(r->began));
	if (r->began == HIST_BEGAN_TRIGGER) {
		const char *name = rec->first_meta ? td_meta_value(rec->first_meta,
								   "trigger_name") : NULL;

		if (name)
			strbuf_addf(out, " %.*s", (int)strcspn(name, "\n"), name);
	}
}

/* "2026-12-01 10:00:00" (date: 1) or "10:00:00" of Unix ns, "-" unknown */
static void wall_cell(uint64_t ns, int known, int date, char *buf, size_t len)
{
	char w[40];

	if (!known) {
		snprintf(buf, len, "-");
		return;
	}
	wall_ns_format(ns, 0, w, sizeof(w));
	if (strlen(w) < 19) {
		snprintf(buf, len, "-");
		return;
	}
	w[10] = ' ';
	w[19] = '\0';
	snprintf(buf, len, "%s", date ? w : w + 11);
}

/* a span in the unit that reads best: 12.4 s, 3.2 min, 5.1 h, 2.0 d */
static void span_cell(double s, char *buf, size_t len)
{
	if (s < 600)
		snprintf(buf, len, "%.1f s", s);
	else if (s < 3 * 3600)
		snprintf(buf, len, "%.1f min", s / 60);
	else if (s < 3 * 86400)
		snprintf(buf, len, "%.1f h", s / 3600);
	else
		snprintf(buf, len, "%.1f d", s / 86400);
}

static double run_seconds(const struct history_run *r)
{
	return r->has_span && r->last_ts > r->first_ts ? (double)(r->last_ts - r->first_ts) / 1e9
						      : 0;
}

/* The wall clock (or trace time) of history time t, as the run r
 * that ends or begins there gives it. */
static void gap_edge(const struct history_run *r, int end, char *buf, size_t len)
{
	if (r->has_wall)
		wall_cell(end ? r->wall_last : r->wall_first, 1, 0, buf, len);
	else
		snprintf(buf, len, "@%.3f", (double)(end ? r->last_ts : r->first_ts) / 1e9);
}

/* An incident's own part (HIST_PARTLY) on the wall clock, else in trace
 * time. */
static void clip_cells(const struct history_run *r, char *a, char *b, size_t n)
{
	/* the offset of its wall clock against its trace clock at its start */
	if (r->has_wall && r->has_span) {
		int64_t d = (int64_t)r->wall_first - (int64_t)r->first_ts;
		char w[40];

		wall_ns_format((uint64_t)((int64_t)r->clip_first + d), 1, w, sizeof(w));
		snprintf(a, n, "%s", strlen(w) > 11 ? w + 11 : w);
		wall_ns_format((uint64_t)((int64_t)r->clip_last + d), 1, w, sizeof(w));
		snprintf(b, n, "%s", strlen(w) > 11 ? w + 11 : w);
		a[strcspn(a, "Z")] = b[strcspn(b, "Z")] = '\0';
	} else {
		snprintf(a, n, "@%.6f", (double)r->clip_first / 1e9);
		snprintf(b, n, "@%.6f", (double)r->clip_last / 1e9);
	}
}

/* The gap before run i: 1 with its length and edges, else 0. */
static int gap_cells(const struct inputs *in, int i, char *len, char *a, char *b, size_t n)
{
	const struct history *h = &in->hist;
	int64_t from, to;
	int p = history_prev(h, i);

	if (p < 0 || !history_gap_before(h, i, &from, &to))
		return 0;
	span_cell((double)(to - from) / 1e9, len, n);
	gap_edge(hrun(in, p), 1, a, n);
	gap_edge(hrun(in, i), 0, b, n);
	return 1;
}

/* in the list of runs */
static void gap_row(const struct inputs *in, int i, struct strbuf *out)
{
	char a[40], b[40], len[40];

	char text[160];

	if (!gap_cells(in, i, len, a, b, sizeof(a)))
		return;
	snprintf(text, sizeof(text), "not recorded: %s (%s .. %s)%s", len, a, b,
		 hrun(in, i)->began == HIST_BEGAN_REBOOT ? ", a reboot" : "");
	wrapped(out, "gap", text);
}

void history_gap_line(const struct inputs *in, int i, struct strbuf *out)
{
	char a[40], b[40], len[40];
	int p = history_prev(&in->hist, i);

	if (!gap_cells(in, i, len, a, b, sizeof(a)))
		return;
	strbuf_addf(out, "--- not recorded for %s, %s .. %s: run %d ended: ", len, a, b,
		    run_no(in, p));
	ended_text(in, p, out);
	strbuf_addf(out, "; run %d began: ", run_no(in, i));
	began_text(in, i, out);
	strbuf_addch(out, '\n');
}

void history_gap_text(const struct inputs *in, int i, struct strbuf *out)
{
	size_t before = out->len;

	history_gap_line(in, i, out);
	if (out->len > before)
		strbuf_addch(out, '\n');
}

static int sel_has(const struct inputs_sel *sel, int nsel, int i)
{
	for (int k = 0; k < nsel; k++)
		if (sel[k].run == i)
			return 1;
	return 0;
}

void history_text(const struct inputs *in, int host, const struct inputs_sel *sel, int nsel,
		  struct strbuf *out)
{
	const struct history *h = &in->hist;
	int first = h->host_first[host], n = h->host_n[host], gaps = 0, inside = 0, boots = 0;
	int partly = 0;
	const struct history_run *r0 = hrun(in, first);
	struct strbuf left = STRBUF_INIT, line = STRBUF_INIT;

	for (int k = 0; k < n; k++) {
		int64_t a, b;

		gaps += history_gap_before(h, first + k, &a, &b);
		inside += hrun(in, first + k)->rel == HIST_INSIDE;
		partly += hrun(in, first + k)->rel == HIST_PARTLY;
		if (hrun(in, first + k)->began == HIST_BEGAN_REBOOT)
			boots++;
	}
	strbuf_addf(out, "History of host %s: %d run%s, %d gap%s", r0->host_name[0] ?
		    r0->host_name : "(not recorded)", n, n == 1 ? "" : "s", gaps,
		    gaps == 1 ? "" : "s");
	if (inside)
		strbuf_addf(out, ", %d incident%s inside a run", inside, inside == 1 ? "" : "s");
	if (partly)
		strbuf_addf(out, ", %d partly", partly);
	strbuf_addstr(out, "\n------------------------------------------------------------------------\n");
	if (r0->machine_id[0])
		strbuf_addf(out, "machine   %s\n", r0->machine_id);
	strbuf_addf(out, "boots     %d%s\n\n", boots + 1,
		    r0->boot_id[0] ? "" : " (told by the clocks: the files carry no boot id)");
	strbuf_addstr(out, "run  first event (UTC)    last event    length  files\n");
	/* the runs' spans, then what happened at and between them */
	for (int k = 0; k < n; k++) {
		const struct history_run *r = hrun(in, first + k);
		char a[40], b[40], len[24];

		if (r->has_wall) {
			wall_cell(r->wall_first, 1, 1, a, sizeof(a));
			wall_cell(r->wall_last, 1, r->wall_last / 86400000000000ull !=
				  r->wall_first / 86400000000000ull, b, sizeof(b));
		} else if (r->has_span) {
			snprintf(a, sizeof(a), "@%.6f", (double)r->first_ts / 1e9);
			snprintf(b, sizeof(b), "@%.6f", (double)r->last_ts / 1e9);
		} else {
			snprintf(a, sizeof(a), "(no events)");
			snprintf(b, sizeof(b), "-");
		}
		span_cell(run_seconds(r), len, sizeof(len));
		strbuf_addf(out, "%3d  %-19s  %-10s  %8s  %5d\n", k + 1, a, b,
			    r->has_span ? len : "-", in->rec[r->in].n);
	}
	strbuf_addch(out, '\n');
	for (int k = 0; k < n; k++) {
		int i = first + k;
		const struct history_run *r = hrun(in, i);

		char label[16];

		if (r->rel != HIST_INSIDE)
			gap_row(in, i, out);
		snprintf(label, sizeof(label), "run %d", k + 1);
		strbuf_reset(&line);
		if (r->rel == HIST_INSIDE) {
			strbuf_addf(&line, "an incident inside run %d: its events are that run's, "
				    "not counted again", run_no(in, r->other));
		} else {
			strbuf_addstr(&line, "began: ");
			began_text(in, i, &line);
			strbuf_addstr(&line, "; ended: ");
			ended_text(in, i, &line);
			if (r->rel == HIST_OVERLAP)
				strbuf_addf(&line, "; overlaps run %d: what both recorded is in both "
					    "runs' figures", run_no(in, r->other));
			if (r->rel == HIST_PARTLY) {
				char a[64], b[64];

				clip_cells(r, a, b, sizeof(a));
				strbuf_addf(&line, "; partly inside run %d: its own part is %s .. "
					    "%s, the rest that run's", run_no(in, r->other), a, b);
			}
		}
		wrapped(out, label, line.buf ? line.buf : "");
		if (!sel_has(sel, nsel, i))
			strbuf_addf(&left, "%s%d", left.len ? ", " : "", k + 1);
	}
	if (left.len) {
		strbuf_reset(&line);
		strbuf_addf(&line, "run%s %s (%s)", strchr(left.buf, ',') ? "s" : "", left.buf,
			    in->scope.run ? "--run" : in->scope.since.set || in->scope.until.set ?
			    "outside the window" : "inside another run");
		wrapped(out, "left out", line.buf);
	}
	strbuf_release(&left);
	strbuf_release(&line);
	strbuf_addch(out, '\n');
}

void history_run_line(const struct inputs *in, int i, struct strbuf *out)
{
	const struct history_run *r = hrun(in, i);

	strbuf_addf(out, "=== run %d of %d: %s (began: ", run_no(in, i),
		    in->hist.host_n[r->host], in->rec[r->in].name);
	began_text(in, i, out);
	strbuf_addstr(out, ")\n");
}

void history_run_title(const struct inputs *in, int i, struct strbuf *out)
{
	history_run_line(in, i, out);
	strbuf_addch(out, '\n');
}

/* ---- the sums ---- */

static void cell_u64(char *buf, size_t len, uint64_t v, int known)
{
	if (known)
		snprintf(buf, len, "%llu", (unsigned long long)v);
	else
		snprintf(buf, len, "-");
}

void history_totals_text(const struct inputs *in, int host, const struct inputs_sel *sel,
			 int nsel, const struct history_sum *sum, struct strbuf *out)
{
	struct history_sum all = { 0 };
	int kills = 0, direct = 0, memcg = 0, psw = 0, lost_known = 1;
	char c[7][32];

	(void)host;
	strbuf_addstr(out, "History totals\n"
		      "------------------------------------------------------------------------\n"
		      "Each run's figures over time, and their sum over the runs reported:\n"
		      "a gap adds nothing (not recorded), an incident inside a run is that\n"
		      "run's. '-': the run did not record it.\n\n");
	strbuf_addstr(out, "run     length     events    lost  kills  direct  memcg   pswpout\n");
	for (int k = 0; k < nsel; k++) {
		const struct history_sum *s = &sum[k];

		span_cell(s->seconds, c[0], sizeof(c[0]));
		cell_u64(c[1], sizeof(c[1]), s->events, 1);
		if (s->lost_unknown)
			snprintf(c[2], sizeof(c[2]), "%lld+", s->lost);
		else
			snprintf(c[2], sizeof(c[2]), "%lld", s->lost);
		cell_u64(c[3], sizeof(c[3]), s->kills, s->kills_known);
		cell_u64(c[4], sizeof(c[4]), s->direct, s->direct_known);
		cell_u64(c[5], sizeof(c[5]), s->memcg, s->memcg_known);
		if (s->pswpout_known)
			snprintf(c[6], sizeof(c[6]), "%lld", (long long)s->pswpout);
		else
			snprintf(c[6], sizeof(c[6]), "-");
		strbuf_addf(out, "%3d  %9s  %9s  %6s  %5s  %6s  %5s  %8s\n", run_no(in, sel[k].run),
			    c[0], c[1], c[2], c[3], c[4], c[5], c[6]);
		all.seconds += s->seconds;
		all.events += s->events;
		all.lost += s->lost;
		lost_known &= !s->lost_unknown;
		all.kills += s->kills;
		kills += s->kills_known;
		all.direct += s->direct;
		direct += s->direct_known;
		all.memcg += s->memcg;
		memcg += s->memcg_known;
		all.pswpout += s->pswpout_known ? s->pswpout : 0;
		psw += s->pswpout_known;
	}
	/* a sum only over runs that all recorded it: else it would read as
	 * a total that leaves some out */
	span_cell(all.seconds, c[0], sizeof(c[0]));
	cell_u64(c[1], sizeof(c[1]), all.events, 1);
	snprintf(c[2], sizeof(c[2]), "%lld%s", all.lost, lost_known ? "" : "+");
	cell_u64(c[3], sizeof(c[3]), all.kills, kills == nsel);
	cell_u64(c[4], sizeof(c[4]), all.direct, direct == nsel);
	cell_u64(c[5], sizeof(c[5]), all.memcg, memcg == nsel);
	if (psw == nsel)
		snprintf(c[6], sizeof(c[6]), "%lld", (long long)all.pswpout);
	else
		snprintf(c[6], sizeof(c[6]), "-");
	strbuf_addf(out, "all  %9s  %9s  %6s  %5s  %6s  %5s  %8s\n", c[0], c[1], c[2], c[3],
		    c[4], c[5], c[6]);
	if (kills != nsel || direct != nsel || memcg != nsel || psw != nsel)
		strbuf_addstr(out, "('-' in the sum: a run did not record it; the runs' own "
			      "figures stand)\n");
	(void)in;
}

/* ---- JSON ---- */

static void json_wall(struct json_writer *j, const char *key, uint64_t ns, int known)
{
	char w[48];

	if (!known) {
		json_null(j, key);
		return;
	}
	wall_ns_format(ns, 9, w, sizeof(w));
	json_str(j, key, w);
}

void history_json(struct json_writer *j, const struct inputs *in, int host,
		  const struct inputs_sel *sel, int nsel, const struct history_sum *sum)
{
	const struct history *h = &in->hist;
	int first = h->host_first[host], n = h->host_n[host];
	const struct history_run *r0 = hrun(in, first);
	struct strbuf sb = STRBUF_INIT;
	uint64_t tot[6] = { 0 };
	int known[6] = { 0 };

	json_object(j, "history");
	json_str(j, "host", r0->host_name);
	if (r0->machine_id[0])
		json_str(j, "machine_id", r0->machine_id);
	else
		json_null(j, "machine_id");
	json_array(j, "runs");
	for (int k = 0; k < n; k++) {
		int i = first + k, rk = -1;
		const struct history_run *r = hrun(in, i);
		const struct input_rec *rec = &in->rec[r->in];
		int64_t gf, gt;

		for (int q = 0; q < nsel; q++)
			if (sel[q].run == i)
				rk = q;
		json_object(j, NULL);
		json_u64(j, "run", (uint64_t)k + 1);
		json_str(j, "name", rec->name);
		json_array_inline(j, "files");
		for (int f = 0; f < rec->n; f++)
			json_str(j, NULL, rec->paths[f]);
		json_close(j);
		json_str(j, "kind", r->flight ? "incident" : "run");
		json_str(j, "relation", r->rel == HIST_INSIDE ? "inside" :
			 r->rel == HIST_OVERLAP ? "overlap" :
			 r->rel == HIST_PARTLY ? "partly" : "timeline");
		json_u64_or_null(j, "own_first_ns", r->clip_first, r->rel == HIST_PARTLY);
		json_u64_or_null(j, "own_last_ns", r->clip_last, r->rel == HIST_PARTLY);
		if (r->other >= 0)
			json_u64(j, "other_run", (uint64_t)run_no(in, r->other));
		else
			json_null(j, "other_run");
		json_bool(j, "reported", rk >= 0);
		json_str(j, "run_id", r->run_id);
		if (r->boot_id[0])
			json_str(j, "boot_id", r->boot_id);
		else
			json_null(j, "boot_id");
		json_u64_or_null(j, "first_ns", r->first_ts, r->has_span);
		json_u64_or_null(j, "last_ns", r->last_ts, r->has_span);
		json_s64(j, "offset_ns", r->offset);
		json_wall(j, "first_wall", r->wall_first, r->has_wall);
		json_wall(j, "last_wall", r->wall_last, r->has_wall);
		if (r->rel == HIST_INSIDE) {
			json_null(j, "began");
			json_null(j, "ended");
		} else {
			strbuf_reset(&sb);
			began_text(in, i, &sb);
			json_str(j, "began", sb.buf ? sb.buf : "");
			strbuf_reset(&sb);
			ended_text(in, i, &sb);
			json_str(j, "ended", sb.buf ? sb.buf : "");
		}
		if (history_gap_before(h, i, &gf, &gt)) {
			json_object_inline(j, "gap_before");
			json_s64(j, "from_ns", gf);
			json_s64(j, "to_ns", gt);
			json_fixed(j, "seconds", (double)(gt - gf) / 1e9, 6);
			json_close(j);
		} else {
			json_null(j, "gap_before");
		}
		if (rk >= 0 && sum[rk].done) {
			const struct history_sum *s = &sum[rk];

			json_object_inline(j, "sums");
			json_fixed(j, "seconds", s->seconds, 6);
			json_u64(j, "events", s->events);
			json_s64_or_null(j, "lost_events", s->lost, !s->lost_unknown);
			json_u64_or_null(j, "oom_kills", s->kills, s->kills_known);
			json_u64_or_null(j, "direct_stalls", s->direct, s->direct_known);
			json_u64_or_null(j, "direct_stall_ns", s->direct_ns, s->direct_known);
			json_u64_or_null(j, "memcg_stalls", s->memcg, s->memcg_known);
			json_u64_or_null(j, "memcg_stall_ns", s->memcg_ns, s->memcg_known);
			json_s64_or_null(j, "pswpout_pages", s->pswpout, s->pswpout_known);
			json_close(j);
			tot[0] += s->kills;
			known[0] += s->kills_known;
			tot[1] += s->direct;
			tot[2] += s->direct_ns;
			known[1] += s->direct_known;
			tot[3] += s->memcg;
			tot[4] += s->memcg_ns;
			known[2] += s->memcg_known;
			tot[5] += (uint64_t)(s->pswpout_known ? s->pswpout : 0);
			known[3] += s->pswpout_known;
		} else {
			json_null(j, "sums");
		}
		json_close(j);
	}
	json_close(j);
	/* over the runs reported; null where one of them did not record it */
	json_object(j, "totals");
	json_u64(j, "runs", (uint64_t)nsel);
	json_u64_or_null(j, "oom_kills", tot[0], known[0] == nsel);
	json_u64_or_null(j, "direct_stalls", tot[1], known[1] == nsel);
	json_u64_or_null(j, "direct_stall_ns", tot[2], known[1] == nsel);
	json_u64_or_null(j, "memcg_stalls", tot[3], known[2] == nsel);
	json_u64_or_null(j, "memcg_stall_ns", tot[4], known[2] == nsel);
	json_s64_or_null(j, "pswpout_pages", (int64_t)tot[5], known[3] == nsel);
	json_close(j);
	json_close(j);
	strbuf_release(&sb);
}
