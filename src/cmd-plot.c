// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mmscope plot: charts of one recording as a self-contained SVG file, for
 * bug reports, reviews and posts (the TUI shows the same in a terminal):
 * per node the main zone's free pages against its watermarks with the
 * kswapd and kcompactd episodes and the handoffs; mTHP swap-out fallback
 * per order over time; swap clusters by state per device; every reclaim
 * stall over time on a log scale beside its log2 histogram; the unusable
 * free space index per order over time. It reads the models only, and
 * the output depends on the recording alone (no clock, no locale: every
 * number is printed with fixed decimals), so it can be held to goldens.
 * A chart the recording has no data for is one line saying so.
 */
#include "config.h"
#include "analysis.h"
#include "cmd.h"
#include "input-file.h"
#include "util.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char plot_usage[] =
"usage: mmscope plot [options] FILE\n"
"\n"
"Draw charts of a recording as one SVG file.\n"
"\n"
"  -o, --output FILE    write the SVG to FILE (default: standard output)\n"
"  -w, --what NAME      only this chart (repeat, or separate with ','):\n"
"                       watermarks, fallback, clusters, stalls, unusable\n"
"  -h, --help           show this help\n";

#define W 1200.0		/* the picture's width, px */
#define ML 90.0			/* left margin: the y labels */
#define MR 30.0
#define PANEL_H 300.0		/* a chart's plot area */
#define FONT "font-family=\"DejaVu Sans, Arial, sans-serif\""

enum chart { CH_WATERMARKS, CH_FALLBACK, CH_CLUSTERS, CH_STALLS, CH_UNUSABLE, CH_NR };
static const char *const chart_names[CH_NR] = {
	"watermarks", "fallback", "clusters", "stalls", "unusable",
};

static const char *const palette[] = {
	"#1f77b4", "#d62728", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2",
	"#7f7f7f", "#bcbd22", "#17becf",
};
#define NPAL ((int)(sizeof(palette) / sizeof(palette[0])))

struct plot {
	const struct analysis *a;
	struct strbuf body;
	double y;		/* where the next panel starts */
	uint64_t t0, t1;	/* the recording's first and last event, ns */
};

/* ---- drawing ---- */

static void xml_text(struct strbuf *sb, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': strbuf_addstr(sb, "&amp;"); break;
		case '<': strbuf_addstr(sb, "&lt;"); break;
		case '>': strbuf_addstr(sb, "&gt;"); break;
		case '"': strbuf_addstr(sb, "&quot;"); break;
		default:
			/* control characters are not XML; the rest is kept */
			strbuf_addch(sb, (unsigned char)*s < 0x20 ? '?' : *s);
		}
	}
}

static void text(struct plot *p, double x, double y, const char *anchor, int size,
		 const char *extra, const char *s)
{
	strbuf_addf(&p->body, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%d\"%s%s>",
		    x, y, anchor, size, extra ? " " : "", extra ? extra : "");
	xml_text(&p->body, s);
	strbuf_addstr(&p->body, "</text>\n");
}

static void line(struct plot *p, double x0, double y0, double x1, double y1, const char *color,
		 double width, const char *dash)
{
	strbuf_addf(&p->body, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		    "stroke=\"%s\" stroke-width=\"%.1f\"%s%s%s/>\n", x0, y0, x1, y1, color, width,
		    dash ? " stroke-dasharray=\"" : "", dash ? dash : "", dash ? "\"" : "");
}

static void rect(struct plot *p, double x, double y, double w, double h, const char *fill,
		 double opacity)
{
	if (w < 0.5)
		w = 0.5;
	strbuf_addf(&p->body, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
		    "fill=\"%s\" fill-opacity=\"%.2f\"/>\n", x, y, w, h, fill, opacity);
}

/* A plot area: time on x (seconds since the first event), a value on y. */
struct area {
	double x, y, w, h;	/* px */
	double vmin, vmax;	/* y range (log10 of it when logy) */
	int logy;
	uint64_t t0, t1;
};

static double ax_x(const struct area *a, uint64_t ts)
{
	double f = a->t1 > a->t0 ? (double)((ts > a->t0 ? ts : a->t0) - a->t0) /
				   (double)(a->t1 - a->t0) : 0;

	return a->x + (f > 1 ? 1 : f) * a->w;
}

static double ax_y(const struct area *a, double v)
{
	double f;

	if (a->logy)
		v = v > 0 ? log10(v) : a->vmin;
	f = a->vmax > a->vmin ? (v - a->vmin) / (a->vmax - a->vmin) : 0;
	if (f < 0)
		f = 0;
	if (f > 1)
		f = 1;
	return a->y + a->h - f * a->h;
}

/* A step of 1, 2 or 5 times a power of ten giving about n ticks over span. */
static double nice_step(double span, int n)
{
	double raw = span / n, p, f;

	if (raw <= 0)
		return 1;
	p = pow(10, floor(log10(raw)));
	f = raw / p;
	return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * p;
}

static void fmt_num(char *buf, size_t n, double v, double step)
{
	if (fabs(v) >= 1e6 && step >= 1e5)
		snprintf(buf, n, "%.*fM", step >= 1e6 ? 0 : 1, v / 1e6);
	else if (fabs(v) >= 1e4 && step >= 1e3)
		snprintf(buf, n, "%.*fk", step >= 1e3 ? 0 : 1, v / 1e3);
	else if (step >= 1)
		snprintf(buf, n, "%.0f", v);
	else if (step >= 0.1)
		snprintf(buf, n, "%.1f", v);
	else
		snprintf(buf, n, "%.2f", v);
}

static const char *fmt_ns(char *buf, size_t n, double ns)
{
	if (ns >= 1e9)
		snprintf(buf, n, "%.0f s", ns / 1e9);
	else if (ns >= 1e6)
		snprintf(buf, n, "%.0f ms", ns / 1e6);
	else if (ns >= 1e3)
		snprintf(buf, n, "%.0f us", ns / 1e3);
	else
		snprintf(buf, n, "%.0f ns", ns);
	return buf;
}

/* The frame, the grid, the ticks and the axis titles. */
static void axes(struct plot *p, const struct area *a, const char *ylabel)
{
	double span = (double)(a->t1 - a->t0) / 1e9, step = nice_step(span, 10);
	char buf[32];

	rect(p, a->x, a->y, a->w, a->h, "#ffffff", 1);
	for (double s = 0; s <= span + step * 1e-9; s += step) {
		double x = a->x + (span > 0 ? s / span : 0) * a->w;

		line(p, x, a->y, x, a->y + a->h, "#e0e0e0", 1, NULL);
		fmt_num(buf, sizeof(buf), s, step);
		text(p, x, a->y + a->h + 16, "middle", 12, NULL, buf);
	}
	if (a->logy) {
		for (int e = (int)ceil(a->vmin); e <= (int)floor(a->vmax); e++) {
			double y = ax_y(a, pow(10, e));

			line(p, a->x, y, a->x + a->w, y, "#e0e0e0", 1, NULL);
			text(p, a->x - 6, y + 4, "end", 12, NULL, fmt_ns(buf, sizeof(buf), pow(10, e)));
		}
	} else {
		double ystep = nice_step(a->vmax - a->vmin, 5);

		for (double v = ceil(a->vmin / ystep) * ystep; v <= a->vmax + ystep * 1e-9;
		     v += ystep) {
			double y = ax_y(a, v);

			line(p, a->x, y, a->x + a->w, y, "#e0e0e0", 1, NULL);
			fmt_num(buf, sizeof(buf), v, ystep);
			text(p, a->x - 6, y + 4, "end", 12, NULL, buf);
		}
	}
	strbuf_addf(&p->body, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
		    "fill=\"none\" stroke=\"#404040\"/>\n", a->x, a->y, a->w, a->h);
	text(p, a->x + a->w / 2, a->y + a->h + 34, "middle", 13, NULL,
	     "time since the recording's first event (s)");
	strbuf_addf(&p->body, "<text transform=\"translate(%.1f,%.1f) rotate(-90)\" "
		    "text-anchor=\"middle\" font-size=\"13\">", 18.0, a->y + a->h / 2);
	xml_text(&p->body, ylabel);
	strbuf_addstr(&p->body, "</text>\n");
}

/* A panel: its title, then an area of the full width below it. */
static struct area panel(struct plot *p, const char *title, double wright)
{
	struct area a = { .x = ML, .y = p->y + 48, .w = W - ML - MR - wright, .h = PANEL_H,
			  .t0 = p->t0, .t1 = p->t1 };

	text(p, ML, p->y + 20, "start", 15, "font-weight=\"bold\"", title);
	p->y += 48 + PANEL_H + 50;
	return a;
}

/* The legend: entries left to right above the area's top right. */
struct legend {
	double x;
	double y;
};

static void legend_entry(struct plot *p, struct legend *l, const char *color, const char *dash,
			 int box, const char *label)
{
	double w = 8.0 * (double)strlen(label) + 34;

	l->x -= w;
	if (box)
		rect(p, l->x, l->y - 9, 18, 10, color, 0.35);
	else
		line(p, l->x, l->y - 4, l->x + 18, l->y - 4, color, 2.5, dash);
	text(p, l->x + 22, l->y, "start", 12, NULL, label);
}

/* One line saying why a chart is not drawn. */
static void no_data(struct plot *p, const char *chart, const char *why)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s: %s", chart, why);
	text(p, ML, p->y + 18, "start", 14, "fill=\"#606060\"", sb.buf);
	p->y += 30;
	strbuf_release(&sb);
}

/* A polyline of n points, NAN y for a gap; a lone point shows as a dot. */
static void polyline(struct plot *p, const double *x, const double *y, int n, const char *color,
		     double width, const char *dash)
{
	int pen = 0;

	for (int i = 0; i < n; i++) {
		int last = i + 1 >= n || isnan(y[i + 1]);

		if (isnan(y[i]))
			continue;
		if (!pen) {
			strbuf_addf(&p->body, "<path fill=\"none\" stroke=\"%s\" stroke-width=\"%.1f\" "
				    "stroke-linecap=\"round\"", color, width);
			if (dash)
				strbuf_addf(&p->body, " stroke-dasharray=\"%s\"", dash);
			strbuf_addf(&p->body, " d=\"M%.1f %.1f%s", x[i], y[i], last ? "h0" : "");
			pen = 1;
		} else {
			strbuf_addf(&p->body, "L%.1f %.1f", x[i], y[i]);
		}
		if (last) {
			strbuf_addstr(&p->body, "\"/>\n");
			pen = 0;
		}
	}
}

/* A round dot at each point (NAN: none), in one path. */
static void dots(struct plot *p, const double *x, const double *y, int n, const char *color,
		 double size)
{
	strbuf_addf(&p->body, "<path fill=\"none\" stroke=\"%s\" stroke-width=\"%.1f\" "
		    "stroke-linecap=\"round\" d=\"", color, size);
	for (int i = 0; i < n; i++)
		if (!isnan(y[i]))
			strbuf_addf(&p->body, "M%.1f %.1fh0", x[i], y[i]);
	strbuf_addstr(&p->body, "\"/>\n");
}

/* ---- the charts ---- */

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
		char title[160];
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
		a = panel(p, title, 0);
		a.vmin = 0;
		a.vmax = vmax > 0 ? vmax * 1.05 : 1;
		axes(p, &a, "pages");
		/* kswapd episodes: shaded over the whole height; kcompactd's
		 * requests: a band along the bottom; handoffs: a dashed line */
		for (int e = 0; hi >= 0 && e < handoff_model_nepisodes(hm, hi); e++) {
			const struct kswapd_episode *ep = handoff_model_episode(hm, hi, e);
			double x0 = ax_x(&a, ep->start), x1 = ax_x(&a, ep->end ? ep->end : p->t1);

			rect(p, x0, a.y, x1 - x0 > 2 ? x1 - x0 : 2, a.h, "#9467bd", 0.18);
		}
		for (int e = 0; hi >= 0 && e < handoff_model_nkc(hm, hi); e++) {
			const struct kcompactd_episode *kc = handoff_model_kc(hm, hi, e);
			double x0 = ax_x(&a, kc->start), x1 = ax_x(&a, kc->end ? kc->end : p->t1);

			rect(p, x0, a.y + a.h - 14, x1 - x0 > 2 ? x1 - x0 : 2, 14, "#ff7f0e", 0.8);
		}
		for (int e = 0; hi >= 0 && e < handoff_model_nepisodes(hm, hi); e++) {
			const struct kswapd_episode *ep = handoff_model_episode(hm, hi, e);
			char lab[32];
			double hx;

			if (ep->handoff != HO_WAKEUP && ep->handoff != HO_PICKUP)
				continue;
			hx = ax_x(&a, ep->handoff_ts);
			line(p, hx, a.y, hx, a.y + a.h, "#000000", 1.2, "4 3");
			snprintf(lab, sizeof(lab), "%s o%d", handoff_kind_name(ep->handoff),
				 ep->handoff_order);
			/* the label left of the line near the right edge */
			if (hx + 8.0 * (double)strlen(lab) > a.x + a.w)
				text(p, hx - 3, a.y + 14, "end", 11, NULL, lab);
			else
				text(p, hx + 3, a.y + 14, "start", 11, NULL, lab);
		}
		x = xreallocarray(NULL, (size_t)n->nsamples, sizeof(*x));
		y = xreallocarray(NULL, (size_t)n->nsamples, sizeof(*y));
		for (int k = 3; k >= 0; k--) {
			for (int i = 0; i < n->nsamples; i++) {
				const struct wm_sample *s = &n->samples[i];
				int64_t v[4] = { s->free, s->min, s->low, s->high };

				x[i] = ax_x(&a, s->ts);
				y[i] = v[k] >= 0 ? ax_y(&a, (double)v[k]) : NAN;
			}
			polyline(p, x, y, n->nsamples, colors[k], k ? 1.5 : 2.5, k ? "6 3" : NULL);
		}
		free(x);
		free(y);
		lg = (struct legend){ a.x + a.w, a.y - 6 };
		if (hs && (hs->ho_wakeup || hs->ho_pickup))
			legend_entry(p, &lg, "#000000", "4 3", 0, "handoff (kind, order)");
		if (hi >= 0 && handoff_model_nkc(hm, hi))
			legend_entry(p, &lg, "#ff7f0e", NULL, 1, "kcompactd on a request");
		if (hi >= 0 && handoff_model_nepisodes(hm, hi))
			legend_entry(p, &lg, "#9467bd", NULL, 1, "kswapd awake");
		for (int k = 3; k >= 0; k--)
			legend_entry(p, &lg, colors[k], k ? "6 3" : NULL, 0, names[k]);
		drawn++;
	}
	if (!drawn)
		no_data(p, "watermarks", analysis_info(p->a)->has_samples ?
			"no zone samples in this recording" :
			"no zone samples in this recording (recorded without counter samples)");
}

/* a folio of this order, from the recording's page size */
static void size_name(uint32_t page_size, int order, char *buf, size_t n)
{
	unsigned long kb = (page_size >= 1024 ? page_size / 1024 : 4UL) << order;

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
		no_data(p, "fallback", swapclust_model_nctr(m, 1) < 2 && swapclust_model_nctr(m, 4) < 2 ?
			"no mTHP swap-out counters in this recording's samples" :
			"no mTHP (order > 0) swap-out in this recording");
		return;
	}
	a = panel(p, "mTHP swap-out fallback to order 0 per interval, by folio size", 0);
	a.vmin = 0;
	a.vmax = 100;
	axes(p, &a, "fallback (% of the interval's swap-outs)");
	lg = (struct legend){ a.x + a.w, a.y - 6 };
	if (pm)
		legend_entry(p, &lg, "#404040", "5 3", 0, "probes");
	legend_entry(p, &lg, "#404040", NULL, 0, "counters");
	for (int o = SWC_NORDERS - 1; o >= 1; o--) {
		int n = swapclust_model_nctr(m, o);
		double *x, *yc, *yp;
		char lab[16];

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

			x[i - 1] = ax_x(&a, c->ts);
			yc[i - 1] = sw + fb > 0 ? ax_y(&a, 100.0 * (double)fb / (double)(sw + fb)) : NAN;
			yp[i - 1] = pm && tr ? ax_y(&a, 100.0 * (double)pf / (double)tr) : NAN;
		}
		polyline(p, x, yc, n - 1, palette[o % NPAL], 2.5, NULL);
		dots(p, x, yc, n - 1, palette[o % NPAL], 7);
		if (pm)
			polyline(p, x, yp, n - 1, palette[o % NPAL], 1.5, "5 3");
		size_name(analysis_info(p->a)->page_size, o, lab, sizeof(lab));
		legend_entry(p, &lg, palette[o % NPAL], NULL, 1, lab);
		free(x);
		free(yc);
		free(yp);
	}
}

static void chart_clusters(struct plot *p)
{
	const struct swapclust_model *m = analysis_swapclust(p->a);
	static const enum swc_state st[4] = { SWC_FREE, SWC_NONFULL, SWC_FRAG, SWC_FULL };
	static const char *const colors[4] = { "#2ca02c", "#1f77b4", "#d62728", "#7f7f7f" };
	int drawn = 0;

	for (int i = 0; i < swapclust_model_ndevs(m); i++) {
		const struct swc_dev *d = swapclust_model_dev(m, i);
		double *x, *y, vmax = 0;
		char title[160];
		struct legend lg;
		struct area a;

		if (d->npts < 1)
			continue;
		for (int k = 0; k < d->npts; k++)
			for (int s = 0; s < 4; s++)
				if (d->pts[k].n[st[s]] > vmax)
					vmax = d->pts[k].n[st[s]];
		snprintf(title, sizeof(title), "swap device %d (%s): clusters by state", d->type,
			 d->name[0] ? d->name : "name not sampled");
		a = panel(p, title, 0);
		a.vmin = 0;
		a.vmax = vmax > 0 ? vmax * 1.05 : 1;
		axes(p, &a, "clusters");
		x = xreallocarray(NULL, (size_t)d->npts, sizeof(*x));
		y = xreallocarray(NULL, (size_t)d->npts, sizeof(*y));
		for (int s = 3; s >= 0; s--) {
			for (int k = 0; k < d->npts; k++) {
				x[k] = ax_x(&a, d->pts[k].ts);
				y[k] = ax_y(&a, d->pts[k].n[st[s]]);
			}
			polyline(p, x, y, d->npts, colors[s], 2, NULL);
		}
		free(x);
		free(y);
		lg = (struct legend){ a.x + a.w, a.y - 6 };
		for (int s = 3; s >= 0; s--)
			legend_entry(p, &lg, colors[s], NULL, 0, swc_state_name(st[s]));
		drawn++;
	}
	if (!drawn)
		no_data(p, "clusters", "no swap cluster series in this recording (needs the swap "
			"probes: mmscope record -g swap)");
}

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
		no_data(p, "stalls", "no reclaim stalls (begin and end) in this recording");
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
	a = panel(p, buf, hw + 20);
	a.logy = 1;
	a.vmin = floor(log10((double)lo));
	a.vmax = ceil(log10((double)hi));
	if (a.vmax <= a.vmin)
		a.vmax = a.vmin + 1;
	axes(p, &a, "stall (log scale)");
	lg = (struct legend){ a.x + a.w + hw + 20, a.y - 6 };
	for (int k = RK_NR - 1; k >= 0; k--) {
		if (!kinds[k])
			continue;
		/* one round dot per stall, in one path per kind */
		strbuf_addf(&p->body, "<path fill=\"none\" stroke=\"%s\" stroke-width=\"4\" "
			    "stroke-opacity=\"0.6\" stroke-linecap=\"round\" d=\"", palette[k]);
		for (int i = 0; i < n; i++) {
			const struct reclaim_stall *s = reclaim_model_stall(m, i);

			if ((int)s->kind == k)
				strbuf_addf(&p->body, "M%.1f %.1fh0", ax_x(&a, s->begin),
					    ax_y(&a, (double)(s->dur ? s->dur : 1)));
		}
		strbuf_addstr(&p->body, "\"/>\n");
		legend_entry(p, &lg, palette[k], NULL, 1, reclaim_kind_name(k));
	}
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
			rect(p, hx, y0 + 0.5, w, y1 - y0 - 1 > 0.5 ? y1 - y0 - 1 : 0.5, "#1f77b4", 0.7);
			snprintf(buf, sizeof(buf), "%llu", (unsigned long long)buckets[b]);
			text(p, hx + w + 4, (y0 + y1) / 2 + 4, "start", 11, NULL, buf);
		}
		text(p, hx + hw / 2, a.y + a.h + 34, "middle", 13, NULL, "stalls per power of two");
	}
}

static void chart_unusable(struct plot *p)
{
	const struct frag_model *m = analysis_frag(p->a);
	int drawn = 0;

	for (int i = 0; i < frag_model_nzones(m); i++) {
		const struct frag_zone *z = frag_model_zone(m, i);
		const struct frag_snapshot *last;
		int main_zone = 1, norders;
		double x[FRAG_SERIES], y[FRAG_SERIES];
		char title[160];
		struct legend lg;
		struct area a;

		if (z->nseries < 2)
			continue;
		/* per node, the zone with the most free memory at the end */
		for (int k = 0; k < frag_model_nzones(m); k++) {
			const struct frag_zone *o = frag_model_zone(m, k);

			if (k != i && o->node == z->node && o->nseries >= 2 &&
			    frag_free_pages(&o->last) > frag_free_pages(&z->last))
				main_zone = 0;
		}
		if (!main_zone)
			continue;
		last = &z->series_snap[z->nseries - 1];
		norders = last->norders;
		snprintf(title, sizeof(title), "node %d, zone %s: unusable free space index per order "
			 "(0: every free page is in blocks this large, 1: none is)", z->node, z->zone);
		a = panel(p, title, 0);
		a.vmin = 0;
		a.vmax = 1;
		axes(p, &a, "unusable free space index");
		lg = (struct legend){ a.x + a.w, a.y - 6 };
		for (int o = norders - 1; o >= 1; o--) {
			char lab[16];

			for (int k = 0; k < z->nseries; k++) {
				x[k] = ax_x(&a, z->series_ts[k]);
				y[k] = z->series_snap[k].norders > o ?
				       ax_y(&a, frag_unusable(&z->series_snap[k], o) / 1000.0) : NAN;
			}
			polyline(p, x, y, z->nseries, palette[o % NPAL], 2, NULL);
			snprintf(lab, sizeof(lab), "o%d", o);
			legend_entry(p, &lg, palette[o % NPAL], NULL, 1, lab);
		}
		drawn++;
	}
	if (!drawn)
		no_data(p, "unusable", analysis_info(p->a)->has_samples ?
			"no buddyinfo samples (two sets or more) in this recording" :
			"no buddyinfo samples in this recording (recorded without counter samples)");
}

/* ---- the command ---- */

static int plot_parse_what(const char *arg, unsigned *what)
{
	char *dup = xstrdup(arg), *save = NULL;
	int r = 0;

	for (char *t = strtok_r(dup, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		int found = 0;

		for (int c = 0; c < CH_NR; c++)
			if (!strcmp(t, chart_names[c]))
				*what |= 1u << c, found = 1;
		if (!found)
			r = -1;
	}
	free(dup);
	return r;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static int cmd_plot_run(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "what", required_argument, NULL, 'w' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const struct cmd_entry *cmd = &cmd_plot_entry;
	const char *out = NULL;
	unsigned what = 0;
	struct analysis_opts ao;
	struct input_file in;
	struct analysis *a;
	struct plot p;
	struct strbuf svg = STRBUF_INIT;
	char *err = NULL, title[400];
	const struct analysis_info *info;
	int c, r;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "o:w:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			out = optarg;
			break;
		case 'w':
			if (plot_parse_what(optarg, &what))
				return usage_error(cmd, "unknown chart in '%s' (watermarks, fallback, "
						   "clusters, stalls, unusable)", optarg);
			break;
		case 'h':
			return show_help(cmd);
		default:
			return bad_option(cmd, argc, argv);
		}
	}
	if (optind != argc - 1)
		return usage_error(cmd, optind == argc ? "no recording given" :
				   "only one recording at a time");
	if (!what)
		what = (1u << CH_NR) - 1;
	if (input_file_open(&in, argv[optind], &err)) {
		r = error("%s", err);
		free(err);
		return r;
	}
	analysis_opts_default(&ao);
	ao.name = in.name;
	a = analysis_run(in.path, &ao, &err);
	if (!a) {
		r = error("%s: %s", in.name, err ? err : "cannot read");
		free(err);
		input_file_release(&in);
		return r;
	}
	info = analysis_info(a);
	p = (struct plot){ .a = a, .y = 70, .t0 = info->first_ts, .t1 = info->last_ts };
	snprintf(title, sizeof(title), "%s: kernel %s, host %s, %.1f s", base_name(in.name),
		 info->kernel[0] ? info->kernel : "unknown", info->host[0] ? info->host : "unknown",
		 (double)(info->last_ts - info->first_ts) / 1e9);
	text(&p, W / 2, 30, "middle", 18, "font-weight=\"bold\"", title);
	text(&p, W / 2, 52, "middle", 12, "fill=\"#606060\"", "mmscope plot");
	if (what & (1u << CH_WATERMARKS))
		chart_watermarks(&p);
	if (what & (1u << CH_FALLBACK))
		chart_fallback(&p);
	if (what & (1u << CH_CLUSTERS))
		chart_clusters(&p);
	if (what & (1u << CH_STALLS))
		chart_stalls(&p);
	if (what & (1u << CH_UNUSABLE))
		chart_unusable(&p);
	strbuf_addf(&svg, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
		    "viewBox=\"0 0 %.0f %.0f\" " FONT ">\n"
		    "<rect width=\"100%%\" height=\"100%%\" fill=\"#fafafa\"/>\n",
		    W, p.y + 10, W, p.y + 10);
	strbuf_add(&svg, p.body.buf, p.body.len);
	strbuf_addstr(&svg, "</svg>\n");
	strbuf_release(&p.body);
	analysis_free(a);
	input_file_release(&in);
	if (out) {
		FILE *f = fopen(out, "w");

		if (!f || fwrite(svg.buf, 1, svg.len, f) != svg.len || fclose(f)) {
			r = error("%s: %s", out, strerror(errno));
			strbuf_release(&svg);
			return r;
		}
		strbuf_release(&svg);
		return EXIT_OK;
	}
	fwrite(svg.buf, 1, svg.len, stdout);
	strbuf_release(&svg);
	return finish_stdout(EXIT_OK);
}

const struct cmd_entry cmd_plot_entry = {
	.name = "plot",
	.summary = "draw a recording's watermarks, fallbacks, swap clusters, stalls as SVG",
	.usage = plot_usage,
	.run = cmd_plot_run,
};
