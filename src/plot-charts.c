// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The charts of mmscope plot and their table. Each reads the models of
 * one analysis (never events) and draws one panel per node, device or
 * zone into the picture, over the window the analysis covers; a chart
 * the recording has no measured data for is one line saying so, never a
 * line of zeros. OOM kills, and the trigger that made a flight-recorder
 * file, are marked on every chart's time axis, and a line through samples
 * far apart has a dot at each sample.
 */
#include "config.h"
#include "analysis.h"
#include "model-oom.h"
#include "plot.h"
#include "run-stop.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NPAL plot_npalette

/* What a chart without data had none in: "in the window" when one was
 * asked for (samples may lie outside it), else "in this recording". */
static const char *where(const struct plot *p)
{
	return analysis_info(p->a)->windowed ? "in the window" : "in this recording";
}

/* "why WHERE" or "why WHERE (note)" as one line. */
static void no_data_in(struct plot *p, const char *chart, const char *why, const char *note)
{
	char buf[200];

	snprintf(buf, sizeof(buf), "%s %s%s%s%s", why, where(p), note ? " (" : "",
		 note ? note : "", note ? ")" : "");
	plot_no_data(p, chart, buf);
}

/* ---- OOM kills ---- */

/* One kill's mark: a dashed red line, labelled at the bottom, where the
 * handoff labels are not; left of the mark near the right edge. */
static void kill_mark(struct plot *p, const struct area *a, const struct oom_kill *k,
		      const char *lab)
{
	double x = ax_x(a, k->ts);

	plot_line(p, x, a->y, x, a->y + a->h, "#d62728", 1.5, "2 2");
	if (x + 7.0 * (double)strlen(lab) > a->x + a->w)
		plot_text(p, x - 3, a->y + a->h - 20, "end", 11, "fill=\"#d62728\"", lab);
	else
		plot_text(p, x + 3, a->y + a->h - 20, "start", 11, "fill=\"#d62728\"", lab);
}

/* The report's page: every kill, whoever the killer, each mark a link to
 * the kill's block (report-kills-html.c numbers them from 1 likewise). */
static void all_kill_marks(struct plot *p, const struct area *a, const struct oom_model *m)
{
	int n = m ? oom_model_nall(m) : 0, open = 0;

	for (int i = 0; i < n; i++) {
		const struct oom_kill *k = oom_model_any(m, i);
		char killer[48], lab[96];

		if (!ax_in(a, k->ts))
			continue;
		if (!open++)
			strbuf_addstr(&p->body, "<g class=\"oom\">\n");
		oom_kill_killer(k, killer, (int)sizeof(killer));
		snprintf(lab, sizeof(lab), "%s %s", killer, k->comm[0] ? k->comm : "(task unknown)");
		/* the prefix is the page's own ("" or "runN-"), not the
		 * recording's: it needs no escaping */
		strbuf_addf(&p->body, "<a href=\"#%skill-%d\">\n<title>", p->kill_ids, i + 1);
		plot_xml_text(&p->body, lab);
		strbuf_addstr(&p->body, "</title>\n");
		kill_mark(p, a, k, lab);
		strbuf_addstr(&p->body, "</a>\n");
	}
	if (open)
		strbuf_addstr(&p->body, "</g>\n");
}

void plot_oom_marks(struct plot *p, const struct area *a)
{
	const struct oom_model *m = analysis_model(p->a, &oom_model_ops);
	int n = m ? oom_model_nkills(m) : 0, open = 0;

	if (p->kill_ids) {
		all_kill_marks(p, a, m);
		plot_trigger_mark(p, a);
		return;
	}
	for (int i = 0; i < n; i++) {
		const struct oom_kill *k = oom_model_kill(m, i);
		char lab[64];

		if (!ax_in(a, k->ts))
			continue;
		if (!open++)
			strbuf_addstr(&p->body, "<g class=\"oom\">\n");
		snprintf(lab, sizeof(lab), "OOM kill %s", k->comm[0] ? k->comm : "(task unknown)");
		kill_mark(p, a, k, lab);
	}
	if (open)
		strbuf_addstr(&p->body, "</g>\n");
	plot_trigger_mark(p, a);
}

/* The trigger that made a flight file (its trigger_ns): a dashed purple
 * line labelled at the top, where the OOM labels (bottom) are not. */
void plot_trigger_mark(struct plot *p, const struct area *a)
{
	struct run_stop st;
	char lab[96];
	double x;

	run_stop_parse2(&st, analysis_private_meta(p->a), analysis_last_meta(p->a));
	if (st.has_trigger && st.has_ns && ax_in(a, st.ns)) {
		strbuf_addstr(&p->body, "<g class=\"trigger\">\n");
		x = ax_x(a, st.ns);
		plot_line(p, x, a->y, x, a->y + a->h, "#9467bd", 1.5, "6 3");
		snprintf(lab, sizeof(lab), "trigger %s", st.name ? st.name :
			 st.kind ? st.kind : "-");
		if (x + 7.0 * (double)strlen(lab) > a->x + a->w)
			plot_text(p, x - 3, a->y + 14, "end", 11, "fill=\"#9467bd\"", lab);
		else
			plot_text(p, x + 3, a->y + 14, "start", 11, "fill=\"#9467bd\"", lab);
		strbuf_addstr(&p->body, "</g>\n");
	}
	run_stop_release(&st);
}

/* ---- watermarks ---- */

static void chart_watermarks(struct plot *p)
{
	const struct lanes *l = analysis_lanes(p->a);
	const struct handoff_model *hm = analysis_handoff(p->a);
	int drawn = 0;

	for (int nid = 0; nid < lanes_nnodes(l); nid++) {
		const struct lanes_node *n = lanes_node(l, nid);
		const struct handoff_node_stats *hs = NULL;
		struct legend lg;
		struct area a;
		double *x, *y, vmax = 0;
		char title[160], note[160];
		int hi = -1;
		static const char *const names[4] = { "free", "min", "low", "high" };
		static const char *const colors[4] = { "#1f77b4", "#d62728", "#ff7f0e", "#2ca02c" };

		if (!n->seen || n->nsamples == 0)
			continue;
		for (int i = 0; i < handoff_model_nnodes(hm); i++)
			if (handoff_model_node(hm, i)->nid == nid)
				hi = i, hs = handoff_model_node(hm, i);
		for (int i = 0; i < n->nsamples; i++) {
			const struct wm_sample *s = &n->samples[i];
			int64_t v[4] = { s->free, s->min, s->low, s->high };

			for (int k = 0; k < 4; k++)
				if ((double)v[k] > vmax)
					vmax = (double)v[k];
		}
		snprintf(title, sizeof(title), "node %d, zone %s: free pages against the watermarks, "
			 "kswapd and kcompactd awake", nid, n->zone);
		if (n->zones_sampled > 1)
			snprintf(note, sizeof(note), "zone %s of the node's %d: the one whose free "
				 "pages came closest to its high watermark", n->zone, n->zones_sampled);
		a = plot_panel(p, title, n->zones_sampled > 1 ? note : NULL, 0);
		a.vmin = 0;
		a.vmax = vmax > 0 ? vmax * 1.05 : 1;
		plot_axes(p, &a, "pages");
		/* kswapd episodes: shaded over the whole height; kcompactd's
		 * requests: a band along the bottom; handoffs: a dashed line */
		for (int e = 0; hi >= 0 && e < handoff_model_nepisodes(hm, hi); e++) {
			const struct kswapd_episode *ep = handoff_model_episode(hm, hi, e);
			double x0 = ax_x(&a, ep->start), x1 = ax_x(&a, ep->end ? ep->end : p->t1);

			plot_rect(p, x0, a.y, x1 - x0 > 2 ? x1 - x0 : 2, a.h, "#9467bd", 0.18);
		}
		for (int e = 0; hi >= 0 && e < handoff_model_nkc(hm, hi); e++) {
			const struct kcompactd_episode *kc = handoff_model_kc(hm, hi, e);
			double x0 = ax_x(&a, kc->start), x1 = ax_x(&a, kc->end ? kc->end : p->t1);

			plot_rect(p, x0, a.y + a.h - 14, x1 - x0 > 2 ? x1 - x0 : 2, 14, "#ff7f0e", 0.8);
		}
		for (int e = 0; hi >= 0 && e < handoff_model_nepisodes(hm, hi); e++) {
			const struct kswapd_episode *ep = handoff_model_episode(hm, hi, e);
			char lab[32];
			double hx;

			if ((ep->handoff != HO_WAKEUP && ep->handoff != HO_PICKUP) ||
			    !ax_in(&a, ep->handoff_ts))
				continue;
			hx = ax_x(&a, ep->handoff_ts);
			plot_line(p, hx, a.y, hx, a.y + a.h, "#000000", 1.2, "4 3");
			snprintf(lab, sizeof(lab), "%s o%d", handoff_kind_name(ep->handoff),
				 ep->handoff_order);
			/* the label left of the line near the right edge */
			if (hx + 8.0 * (double)strlen(lab) > a.x + a.w)
				plot_text(p, hx - 3, a.y + 14, "end", 11, NULL, lab);
			else
				plot_text(p, hx + 3, a.y + 14, "start", 11, NULL, lab);
		}
		x = xreallocarray(NULL, (size_t)n->nsamples, sizeof(*x));
		y = xreallocarray(NULL, (size_t)n->nsamples, sizeof(*y));
		for (int k = 3; k >= 0; k--) {
			for (int i = 0; i < n->nsamples; i++) {
				const struct wm_sample *s = &n->samples[i];
				int64_t v[4] = { s->free, s->min, s->low, s->high };

				x[i] = ax_x(&a, s->ts);
				y[i] = v[k] >= 0 && ax_in(&a, s->ts) ? ax_y(&a, (double)v[k]) : NAN;
			}
			plot_polyline(p, x, y, n->nsamples, colors[k], k ? 1.5 : 2.5, k ? "6 3" : NULL);
		}
		/* the free pages are the samples that move: y holds them now */
		plot_sample_marks(p, &a, x, y, n->nsamples, colors[0]);
		free(x);
		free(y);
		plot_oom_marks(p, &a);
		lg = (struct legend){ a.x + a.w, a.y - 6 };
		if (hs && (hs->ho_wakeup || hs->ho_pickup))
			plot_legend_entry(p, &lg, "#000000", "4 3", 0, "handoff (kind, order)");
		if (hi >= 0 && handoff_model_nkc(hm, hi))
			plot_legend_entry(p, &lg, "#ff7f0e", NULL, 1, "kcompactd on a request");
		if (hi >= 0 && handoff_model_nepisodes(hm, hi))
			plot_legend_entry(p, &lg, "#9467bd", NULL, 1, "kswapd awake");
		for (int k = 3; k >= 0; k--)
			plot_legend_entry(p, &lg, colors[k], k ? "6 3" : NULL, 0, names[k]);
		drawn++;
	}
	if (!drawn)
		no_data_in(p, "watermarks", "no zone samples", analysis_info(p->a)->has_samples ?
			   NULL : "recorded without counter samples");
}

/* ---- fallback ---- */

/* a folio of this order, from the recording's page size (resolved once
 * per recording by the analysis) */
static void size_name(const struct analysis_info *in, int order, char *buf, size_t n)
{
	unsigned long kb = analysis_order_kb(in, order);

	if (kb >= 1024)
		snprintf(buf, n, "%luM", kb / 1024);
	else
		snprintf(buf, n, "%luK", kb);
}

/* Per interval between two sample sets: fallbacks of all order-N
 * swap-outs (the kernel's counters), and of the probes' tries. */
static void chart_fallback(struct plot *p)
{
	const struct swapclust_model *m = analysis_swapclust(p->a);
	int pm = swapclust_model_has_probes(m) || analysis_probes_swap(p->a) == 1;
	int active[SWC_NORDERS] = { 0 }, nact = 0;
	struct legend lg;
	struct area a;

	for (int o = 1; o < SWC_NORDERS; o++) {
		int n = swapclust_model_nctr(m, o);

		if (n < 2)
			continue;
		const struct swc_ctr_point *f = swapclust_model_ctr(m, o, 0);
		const struct swc_ctr_point *l = swapclust_model_ctr(m, o, n - 1);

		if (l->swpout - f->swpout + l->fallback - f->fallback > 0 ||
		    (pm && l->tries > f->tries))
			active[o] = 1, nact++;
	}
	if (!nact) {
		no_data_in(p, "fallback", swapclust_model_nctr(m, 1) < 2 &&
			   swapclust_model_nctr(m, 4) < 2 ?
			   "no mTHP swap-out counters sampled" :
			   "no mTHP (order > 0) swap-out", NULL);
		return;
	}
	a = plot_panel(p, "mTHP swap-out fallback to order 0 per interval, by folio size", NULL, 0);
	a.vmin = 0;
	a.vmax = 100;
	plot_axes(p, &a, "fallback (% of the interval's swap-outs)");
	lg = (struct legend){ a.x + a.w, a.y - 6 };
	if (pm)
		plot_legend_entry(p, &lg, "#404040", "5 3", 0, "probes");
	plot_legend_entry(p, &lg, "#404040", NULL, 0, "counters");
	for (int o = SWC_NORDERS - 1; o >= 1; o--) {
		int n = swapclust_model_nctr(m, o);
		double *x, *yc, *yp;
		char lab[24];

		if (!active[o])
			continue;
		x = xreallocarray(NULL, (size_t)n, sizeof(*x));
		yc = xreallocarray(NULL, (size_t)n, sizeof(*yc));
		yp = xreallocarray(NULL, (size_t)n, sizeof(*yp));
		for (int i = 1; i < n; i++) {
			const struct swc_ctr_point *q = swapclust_model_ctr(m, o, i - 1);
			const struct swc_ctr_point *c = swapclust_model_ctr(m, o, i);
			int64_t sw = c->swpout - q->swpout, fb = c->fallback - q->fallback;
			uint64_t tr = c->tries - q->tries, pf = c->fb - q->fb;
			int in = ax_in(&a, c->ts);

			x[i - 1] = ax_x(&a, c->ts);
			yc[i - 1] = in && sw + fb > 0 ?
				    ax_y(&a, 100.0 * (double)fb / (double)(sw + fb)) : NAN;
			yp[i - 1] = in && pm && tr ? ax_y(&a, 100.0 * (double)pf / (double)tr) : NAN;
		}
		plot_polyline(p, x, yc, n - 1, plot_palette[o % NPAL], 2.5, NULL);
		plot_dots(p, x, yc, n - 1, plot_palette[o % NPAL], 7);
		if (pm)
			plot_polyline(p, x, yp, n - 1, plot_palette[o % NPAL], 1.5, "5 3");
		size_name(analysis_info(p->a), o, lab, sizeof(lab));
		plot_legend_entry(p, &lg, plot_palette[o % NPAL], NULL, 1, lab);
		free(x);
		free(yc);
		free(yp);
	}
	plot_oom_marks(p, &a);
}

/* ---- clusters ---- */

/* A point of the series where some cluster's state is known. */
static int pt_known(const struct swc_point *pt)
{
	uint32_t all = 0;

	for (int s = 0; s < SWC_NSTATES; s++)
		all += pt->n[s];
	return pt->n[SWC_UNKNOWN] < all;
}

/*
 * Cluster states are known only from the swap probes: without them the
 * model knows a device's clusters at most while nothing is in use (a
 * sample of "used 0") and loses them at the first slot in use. Such a
 * device is one line; with probes, a point where no cluster is known is
 * a gap, and the clusters not known are a line of their own.
 */
static void chart_clusters(struct plot *p)
{
	const struct swapclust_model *m = analysis_swapclust(p->a);
	static const enum swc_state st[4] = { SWC_FREE, SWC_NONFULL, SWC_FRAG, SWC_FULL };
	static const char *const colors[4] = { "#2ca02c", "#1f77b4", "#d62728", "#7f7f7f" };
	int probes = swapclust_model_has_probes(m) || analysis_probes_swap(p->a) == 1;
	int drawn = 0, said = 0;

	for (int i = 0; i < swapclust_model_ndevs(m); i++) {
		const struct swc_dev *d = swapclust_model_dev(m, i);
		double *x, *y, vmax = 0;
		char title[160];
		struct legend lg;
		struct area a;
		int unknown = 0, known = 0;

		if (d->npts < 1)
			continue;
		for (int k = 0; k < d->npts; k++) {
			unknown |= d->pts[k].n[SWC_UNKNOWN] > 0;
			known |= pt_known(&d->pts[k]);
			for (int s = 0; s < 4; s++)
				if (d->pts[k].n[st[s]] > vmax)
					vmax = d->pts[k].n[st[s]];
			if (d->pts[k].n[SWC_UNKNOWN] > vmax)
				vmax = d->pts[k].n[SWC_UNKNOWN];
		}
		if (!probes || !known) {
			snprintf(title, sizeof(title), "swap device %d (%s): cluster states not "
				 "measured (%s)", d->type, d->name[0] ? d->name : "name not sampled",
				 probes ? "no cluster known at any point" :
				 "no swap probes: mmscope record -g swap");
			plot_no_data(p, "clusters", title);
			said++;
			continue;
		}
		snprintf(title, sizeof(title), "swap device %d (%s): clusters by state", d->type,
			 d->name[0] ? d->name : "name not sampled");
		a = plot_panel(p, title, NULL, 0);
		a.vmin = 0;
		a.vmax = vmax > 0 ? vmax * 1.05 : 1;
		plot_axes(p, &a, "clusters");
		x = xreallocarray(NULL, (size_t)d->npts, sizeof(*x));
		y = xreallocarray(NULL, (size_t)d->npts, sizeof(*y));
		for (int s = unknown ? 4 : 3; s >= 0; s--) {
			enum swc_state state = s == 4 ? SWC_UNKNOWN : st[s];

			for (int k = 0; k < d->npts; k++) {
				const struct swc_point *pt = &d->pts[k];

				x[k] = ax_x(&a, pt->ts);
				y[k] = ax_in(&a, pt->ts) && (s == 4 || pt_known(pt)) ?
				       ax_y(&a, pt->n[state]) : NAN;
			}
			plot_polyline(p, x, y, d->npts, s == 4 ? "#9467bd" : colors[s], 2,
				      s == 4 ? "6 3" : NULL);
			plot_sample_marks(p, &a, x, y, d->npts, s == 4 ? "#9467bd" : colors[s]);
		}
		free(x);
		free(y);
		plot_oom_marks(p, &a);
		lg = (struct legend){ a.x + a.w, a.y - 6 };
		if (unknown)
			plot_legend_entry(p, &lg, "#9467bd", "6 3", 0, "not known");
		for (int s = 3; s >= 0; s--)
			plot_legend_entry(p, &lg, colors[s], NULL, 0, swc_state_name(st[s]));
		drawn++;
	}
	if (!drawn && !said)
		no_data_in(p, "clusters", "no swap cluster series",
			   "needs the swap probes: mmscope record -g swap");
}

/* ---- stalls ---- */

static void chart_stalls(struct plot *p)
{
	const struct reclaim_model *m = analysis_reclaim(p->a);
	int n = reclaim_model_nstalls(m, NULL), kinds[RK_NR] = { 0 };
	uint64_t lo = UINT64_MAX, hi = 0, buckets[64] = { 0 }, bmax = 0;
	const double hw = 200;	/* the histogram's width */
	struct legend lg;
	struct area a;
	char buf[128];

	if (!n) {
		no_data_in(p, "stalls", analysis_info(p->a)->task_scoped ?
			   "no reclaim stalls (begin and end) of the tasks asked for" :
			   "no reclaim stalls (begin and end)", NULL);
		return;
	}
	for (int i = 0; i < n; i++) {
		const struct reclaim_stall *s = reclaim_model_stall(m, i);
		uint64_t d = s->dur ? s->dur : 1;

		lo = d < lo ? d : lo;
		hi = d > hi ? d : hi;
		kinds[s->kind]++;
		buckets[63 - __builtin_clzll(d)]++;
	}
	snprintf(buf, sizeof(buf), "reclaim stalls: %d, each at its begin, and their log2 histogram", n);
	a = plot_panel(p, buf, NULL, hw + 20);
	a.logy = 1;
	a.vmin = floor(log10((double)lo));
	a.vmax = ceil(log10((double)hi));
	if (a.vmax <= a.vmin)
		a.vmax = a.vmin + 1;
	plot_axes(p, &a, "stall (log scale)");
	lg = (struct legend){ a.x + a.w + hw + 20, a.y - 6 };
	for (int k = RK_NR - 1; k >= 0; k--) {
		if (!kinds[k])
			continue;
		/* one round dot per stall, in one path per kind */
		strbuf_addf(&p->body, "<path fill=\"none\" stroke=\"%s\" stroke-width=\"4\" "
			    "stroke-opacity=\"0.6\" stroke-linecap=\"round\" d=\"", plot_palette[k]);
		for (int i = 0; i < n; i++) {
			const struct reclaim_stall *s = reclaim_model_stall(m, i);

			if ((int)s->kind == k)
				strbuf_addf(&p->body, "M%.1f %.1fh0", ax_x(&a, s->begin),
					    ax_y(&a, (double)(s->dur ? s->dur : 1)));
		}
		strbuf_addstr(&p->body, "\"/>\n");
		plot_legend_entry(p, &lg, plot_palette[k], NULL, 1, reclaim_kind_name(k));
	}
	plot_oom_marks(p, &a);
	/* the histogram: a bar per power of two, on the same y scale */
	for (int b = 0; b < 64; b++)
		bmax = buckets[b] > bmax ? buckets[b] : bmax;
	{
		double hx = a.x + a.w + 20;

		strbuf_addf(&p->body, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
			    "fill=\"none\" stroke=\"#404040\"/>\n", hx, a.y, hw, a.h);
		for (int b = 0; b < 64; b++) {
			double y0, y1, w;

			if (!buckets[b])
				continue;
			y0 = ax_y(&a, ldexp(1, b + 1));
			y1 = ax_y(&a, ldexp(1, b));
			w = (hw - 50) * (double)buckets[b] / (double)bmax;
			plot_rect(p, hx, y0 + 0.5, w, y1 - y0 - 1 > 0.5 ? y1 - y0 - 1 : 0.5,
				  "#1f77b4", 0.7);
			snprintf(buf, sizeof(buf), "%llu", (unsigned long long)buckets[b]);
			plot_text(p, hx + w + 4, (y0 + y1) / 2 + 4, "start", 11, NULL, buf);
		}
		plot_text(p, hx + hw / 2, a.y + a.h + 34, "middle", 13, NULL,
			  "stalls per power of two");
	}
}

/* ---- unusable ---- */

/* Whether a zone's free lists changed over the series: an idle zone
 * (DMA, an untouched DMA32 on a large host) holds the same counts at
 * every sample. */
static int zone_changed(const struct frag_zone *z)
{
	const struct frag_snapshot *f = &z->series_snap[0];

	for (int k = 1; k < z->nseries; k++) {
		const struct frag_snapshot *s = &z->series_snap[k];

		if (s->norders != f->norders ||
		    memcmp(s->free, f->free, sizeof(f->free[0]) * (size_t)f->norders))
			return 1;
	}
	return 0;
}

static void unusable_panel(struct plot *p, const struct frag_zone *z, const char *note)
{
	const struct frag_snapshot *last = &z->series_snap[z->nseries - 1];
	double x[FRAG_SERIES], y[FRAG_SERIES];
	char title[200];
	struct legend lg;
	struct area a;

	snprintf(title, sizeof(title), "node %d, zone %s: unusable free space index per order "
		 "(0: every free page is in blocks this large, 1: none is)", z->node, z->zone);
	a = plot_panel(p, title, note, 0);
	a.vmin = 0;
	a.vmax = 1;
	plot_axes(p, &a, "unusable free space index");
	lg = (struct legend){ a.x + a.w, a.y - 6 };
	for (int o = last->norders - 1; o >= 1; o--) {
		char lab[16];

		for (int k = 0; k < z->nseries; k++) {
			x[k] = ax_x(&a, z->series_ts[k]);
			y[k] = z->series_snap[k].norders > o && ax_in(&a, z->series_ts[k]) ?
			       ax_y(&a, frag_unusable(&z->series_snap[k], o) / 1000.0) : NAN;
		}
		plot_polyline(p, x, y, z->nseries, plot_palette[o % NPAL], 2, NULL);
		plot_sample_marks(p, &a, x, y, z->nseries, plot_palette[o % NPAL]);
		snprintf(lab, sizeof(lab), "o%d", o);
		plot_legend_entry(p, &lg, plot_palette[o % NPAL], NULL, 1, lab);
	}
	plot_oom_marks(p, &a);
}

/*
 * Per node, every zone whose free lists changed during the window: that
 * is where allocations and reclaim went on (the zone with the most free
 * memory is often an idle one, flat at 0). The zones left out are named.
 * A node where no zone changed draws its zone with the most free memory.
 */
static void chart_unusable(struct plot *p)
{
	const struct frag_model *m = analysis_frag(p->a);
	int nz = frag_model_nzones(m), drawn = 0;

	for (int i = 0; i < nz; i++) {
		const struct frag_zone *z = frag_model_zone(m, i);
		struct strbuf idle = STRBUF_INIT, note = STRBUF_INIT;
		int first = 1, nchanged = 0, best = -1;

		if (z->nseries < 2)
			continue;
		/* each node once, at its first zone with a series */
		for (int k = 0; k < i && first; k++) {
			const struct frag_zone *o = frag_model_zone(m, k);

			if (o->node == z->node && o->nseries >= 2)
				first = 0;
		}
		if (!first)
			continue;
		for (int k = i; k < nz; k++) {
			const struct frag_zone *o = frag_model_zone(m, k);

			if (o->node != z->node || o->nseries < 2)
				continue;
			if (zone_changed(o))
				nchanged++;
			else
				strbuf_addf(&idle, "%s%s", idle.len ? ", " : "", o->zone);
			if (best < 0 || frag_free_pages(&o->last) >
			    frag_free_pages(&frag_model_zone(m, best)->last))
				best = k;
		}
		for (int k = i; k < nz; k++) {
			const struct frag_zone *o = frag_model_zone(m, k);

			if (o->node != z->node || o->nseries < 2)
				continue;
			if (nchanged ? !zone_changed(o) : k != best)
				continue;
			strbuf_reset(&note);
			if (!nchanged)
				strbuf_addf(&note, "no zone's free lists changed: the zone with the "
					    "most free memory");
			else if (idle.len)
				strbuf_addf(&note, "each zone whose free lists changed; not drawn, "
					    "unchanged: %s", idle.buf);
			else
				strbuf_addstr(&note, "each zone whose free lists changed");
			unusable_panel(p, o, note.buf);
			drawn++;
		}
		strbuf_release(&idle);
		strbuf_release(&note);
	}
	if (!drawn)
		no_data_in(p, "unusable", analysis_info(p->a)->has_samples ?
			   "no buddyinfo samples (two sets or more)" : "no buddyinfo samples",
			   analysis_info(p->a)->has_samples ? NULL :
			   "recorded without counter samples");
}

/* ---- the table ---- */

const struct plot_chart plot_charts[] = {
	{ "watermarks", "free pages of one zone of each node against its watermarks",
	  "zone samples", chart_watermarks },
	{ "fallback", "mTHP swap-out falling back to order 0, per folio size",
	  "mTHP counters in the samples", chart_fallback },
	{ "clusters", "swap clusters by state, per swap device",
	  "the swap probes: record -g swap", chart_clusters },
	{ "stalls", "every reclaim stall at its begin, and their histogram",
	  "reclaim begin and end events", chart_stalls },
	{ "unusable", "the unusable free space index per order, per zone",
	  "buddyinfo samples", chart_unusable },
};
const int plot_ncharts = (int)(sizeof(plot_charts) / sizeof(plot_charts[0]));

int plot_chart_find(const char *name)
{
	for (int i = 0; i < plot_ncharts; i++)
		if (!strcmp(plot_charts[i].name, name))
			return i;
	return -1;
}
