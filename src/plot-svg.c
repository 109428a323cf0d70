// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The SVG primitives of mmscope plot: text, lines, boxes, a panel with
 * its axes, legends and series. Every number is printed with fixed
 * decimals (no locale, no clock), so the same recording gives the same
 * bytes and the output can be held to goldens.
 */
#include "config.h"
#include "plot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const plot_palette[] = {
	"#1f77b4", "#d62728", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2",
	"#7f7f7f", "#bcbd22", "#17becf",
};
const int plot_npalette = (int)(sizeof(plot_palette) / sizeof(plot_palette[0]));

void plot_xml_text(struct strbuf *sb, const char *s)
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

void plot_text(struct plot *p, double x, double y, const char *anchor, int size,
	       const char *extra, const char *s)
{
	strbuf_addf(&p->body, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%d\"%s%s>",
		    x, y, anchor, size, extra ? " " : "", extra ? extra : "");
	plot_xml_text(&p->body, s);
	strbuf_addstr(&p->body, "</text>\n");
}

void plot_line(struct plot *p, double x0, double y0, double x1, double y1, const char *color,
	       double width, const char *dash)
{
	strbuf_addf(&p->body, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		    "stroke=\"%s\" stroke-width=\"%.1f\"%s%s%s/>\n", x0, y0, x1, y1, color, width,
		    dash ? " stroke-dasharray=\"" : "", dash ? dash : "", dash ? "\"" : "");
}

void plot_rect(struct plot *p, double x, double y, double w, double h, const char *fill,
	       double opacity)
{
	if (w < 0.5)
		w = 0.5;
	strbuf_addf(&p->body, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
		    "fill=\"%s\" fill-opacity=\"%.2f\"/>\n", x, y, w, h, fill, opacity);
}

double ax_x(const struct area *a, uint64_t ts)
{
	double f = a->t1 > a->t0 ? (double)((ts > a->t0 ? ts : a->t0) - a->t0) /
				   (double)(a->t1 - a->t0) : 0;

	return a->x + (f > 1 ? 1 : f) * a->w;
}

int ax_in(const struct area *a, uint64_t ts)
{
	return ts >= a->t0 && ts <= a->t1;
}

double ax_y(const struct area *a, double v)
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
	else if (step >= 0.01)
		snprintf(buf, n, "%.2f", v);
	else
		snprintf(buf, n, "%.3f", v);
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

/*
 * The frame, the grid, the ticks and the axis titles. The x ticks are
 * seconds since the recording's first event, as the report prints times,
 * also when the area shows a window of it.
 */
void plot_axes(struct plot *p, const struct area *a, const char *ylabel)
{
	double lo = (double)(a->t0 - a->first) / 1e9, hi = (double)(a->t1 - a->first) / 1e9;
	double span = hi - lo, step = nice_step(span, 10);
	char buf[32];

	plot_rect(p, a->x, a->y, a->w, a->h, "#ffffff", 1);
	for (double s = ceil(lo / step - 1e-9) * step; s <= hi + step * 1e-9; s += step) {
		double x = a->x + (span > 0 ? (s - lo) / span : 0) * a->w;

		plot_line(p, x, a->y, x, a->y + a->h, "#e0e0e0", 1, NULL);
		fmt_num(buf, sizeof(buf), fabs(s) < step * 1e-6 ? 0 : s, step);
		plot_text(p, x, a->y + a->h + 16, "middle", 12, NULL, buf);
	}
	if (a->logy) {
		for (int e = (int)ceil(a->vmin); e <= (int)floor(a->vmax); e++) {
			double y = ax_y(a, pow(10, e));

			plot_line(p, a->x, y, a->x + a->w, y, "#e0e0e0", 1, NULL);
			plot_text(p, a->x - 6, y + 4, "end", 12, NULL,
				  fmt_ns(buf, sizeof(buf), pow(10, e)));
		}
	} else {
		double ystep = nice_step(a->vmax - a->vmin, 5);

		for (double v = ceil(a->vmin / ystep) * ystep; v <= a->vmax + ystep * 1e-9;
		     v += ystep) {
			double y = ax_y(a, v);

			plot_line(p, a->x, y, a->x + a->w, y, "#e0e0e0", 1, NULL);
			fmt_num(buf, sizeof(buf), v, ystep);
			plot_text(p, a->x - 6, y + 4, "end", 12, NULL, buf);
		}
	}
	strbuf_addf(&p->body, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
		    "fill=\"none\" stroke=\"#404040\"/>\n", a->x, a->y, a->w, a->h);
	plot_text(p, a->x + a->w / 2, a->y + a->h + 34, "middle", 13, NULL,
		  "time since the recording's first event (s)");
	strbuf_addf(&p->body, "<text transform=\"translate(%.1f,%.1f) rotate(-90)\" "
		    "text-anchor=\"middle\" font-size=\"13\">", 18.0, a->y + a->h / 2);
	plot_xml_text(&p->body, ylabel);
	strbuf_addstr(&p->body, "</text>\n");
}

struct area plot_panel(struct plot *p, const char *title, const char *note, double wright)
{
	double top = note ? 64 : 48;
	struct area a = { .x = PLOT_ML, .y = p->y + top, .w = PLOT_W - PLOT_ML - PLOT_MR - wright,
			  .h = PLOT_PANEL_H, .t0 = p->t0, .t1 = p->t1, .first = p->first };

	plot_text(p, PLOT_ML, p->y + 20, "start", 15, "font-weight=\"bold\"", title);
	if (note)
		plot_text(p, PLOT_ML, p->y + 38, "start", 12, "fill=\"#606060\"", note);
	p->y += top + PLOT_PANEL_H + 50;
	return a;
}

void plot_legend_entry(struct plot *p, struct legend *l, const char *color, const char *dash,
		       int box, const char *label)
{
	double w = 8.0 * (double)strlen(label) + 34;

	l->x -= w;
	if (box)
		plot_rect(p, l->x, l->y - 9, 18, 10, color, 0.35);
	else
		plot_line(p, l->x, l->y - 4, l->x + 18, l->y - 4, color, 2.5, dash);
	plot_text(p, l->x + 22, l->y, "start", 12, NULL, label);
}

void plot_no_data(struct plot *p, const char *chart, const char *why)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s: %s", chart, why);
	plot_text(p, PLOT_ML, p->y + 18, "start", 14, "fill=\"#606060\"", sb.buf);
	p->y += 30;
	strbuf_release(&sb);
}

void plot_polyline(struct plot *p, const double *x, const double *y, int n, const char *color,
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

void plot_dots(struct plot *p, const double *x, const double *y, int n, const char *color,
	       double size)
{
	strbuf_addf(&p->body, "<path fill=\"none\" stroke=\"%s\" stroke-width=\"%.1f\" "
		    "stroke-linecap=\"round\" d=\"", color, size);
	for (int i = 0; i < n; i++)
		if (!isnan(y[i]))
			strbuf_addf(&p->body, "M%.1f %.1fh0", x[i], y[i]);
	strbuf_addstr(&p->body, "\"/>\n");
}

void plot_sample_marks(struct plot *p, const struct area *a, const double *x, const double *y,
		       int n, const char *color)
{
	double *m;
	int k = 0, any = 0;

	for (int i = 0; i < n; i++)
		k += !isnan(y[i]);
	if (k < 2)
		return;
	/*
	 * Dense samples look like a line anyway: a dot at each would only
	 * blot it. There only the ends of a segment longer than 12 px (the
	 * sampler stalled, a gap in the recording) are marked, so a long
	 * straight stretch shows as the interpolation it is.
	 */
	m = xreallocarray(NULL, (size_t)n, sizeof(*m));
	for (int i = 0; i < n; i++) {
		int far = a->w / k >= 6;

		for (int j = i - 1; !far && j <= i + 1; j += 2)
			far = j >= 0 && j < n && !isnan(y[j]) && fabs(x[j] - x[i]) > 12;
		m[i] = far && !isnan(y[i]) ? y[i] : NAN;
		any |= !isnan(m[i]);
	}
	if (any) {
		strbuf_addstr(&p->body, "<g class=\"samples\">\n");
		plot_dots(p, x, m, n, color, 6);
		strbuf_addstr(&p->body, "</g>\n");
	}
	free(m);
}
