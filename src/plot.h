/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mmscope plot: the charts (plot-charts.c) drawn with the SVG primitives
 * of plot-svg.c, for the command in cmd-plot.c. Every chart is one entry
 * of plot_charts[]: --what, --help, the errors, the man page's list
 * (tests/plot/charts.sh) and the bash completion come from it.
 */
#ifndef MMSCOPE_PLOT_H
#define MMSCOPE_PLOT_H

#include <stdint.h>

#include "util.h"

struct analysis;

#define PLOT_W 1200.0		/* the picture's width, px */
#define PLOT_ML 90.0		/* left margin: the y labels */
#define PLOT_MR 30.0
#define PLOT_PANEL_H 300.0	/* a chart's plot area */

/* A picture being drawn: panels go below each other. */
struct plot {
	const struct analysis *a;
	struct strbuf body;
	double y;		/* where the next panel starts */
	uint64_t t0, t1;	/* the x axis: the window drawn, ns (trace time) */
	uint64_t first;		/* the recording's first event: tick labels count from it */
	/* the report's HTML page: every kill is marked (not only the OOM
	 * killer's), each a link to its block #KILL_IDSkill-N; NULL: plot's
	 * own pictures, which have no blocks to link to */
	const char *kill_ids;
};

struct plot_chart {
	const char *name;	/* for --what */
	const char *help;	/* one line for --help and the man page */
	const char *needs;	/* what the recording must hold, for --help */
	void (*draw)(struct plot *p);
};

extern const struct plot_chart plot_charts[];
extern const int plot_ncharts;
/* The chart of that name, or -1. */
int plot_chart_find(const char *name);

/* ---- drawing (plot-svg.c) ---- */

extern const char *const plot_palette[];
extern const int plot_npalette;

/* A plot area: time on x, a value on y. */
struct area {
	double x, y, w, h;	/* px */
	double vmin, vmax;	/* y range (log10 of it when logy) */
	int logy;
	uint64_t t0, t1;
	uint64_t first;
};

struct legend {
	double x, y;
};

void plot_text(struct plot *p, double x, double y, const char *anchor, int size,
	       const char *extra, const char *s);
void plot_line(struct plot *p, double x0, double y0, double x1, double y1, const char *color,
	       double width, const char *dash);
void plot_rect(struct plot *p, double x, double y, double w, double h, const char *fill,
	       double opacity);
/* x of a time, clamped to the area; whether a time is inside it. */
double ax_x(const struct area *a, uint64_t ts);
int ax_in(const struct area *a, uint64_t ts);
double ax_y(const struct area *a, double v);
/* A panel: its title, a line under it saying what is drawn and why (if
 * note), then an area of the full width less wright. */
struct area plot_panel(struct plot *p, const char *title, const char *note, double wright);
/* The frame, grid, ticks and axis titles. */
void plot_axes(struct plot *p, const struct area *a, const char *ylabel);
void plot_legend_entry(struct plot *p, struct legend *l, const char *color, const char *dash,
		       int box, const char *label);
/* One line saying why a chart is not drawn. */
void plot_no_data(struct plot *p, const char *chart, const char *why);
/* A line through n points (NAN y: a gap; a lone point shows as a dot). */
void plot_polyline(struct plot *p, const double *x, const double *y, int n, const char *color,
		   double width, const char *dash);
/* A round dot at each point (NAN: none), in one path. */
void plot_dots(struct plot *p, const double *x, const double *y, int n, const char *color,
	       double size);
/* Dots at the samples, so a sample can be told from the line joining
 * two: at each when they lie 6 px apart on average, else at the ends of
 * each segment longer than 12 px. */
void plot_sample_marks(struct plot *p, const struct area *a, const double *x, const double *y,
		       int n, const char *color);
/* The OOM kills as marks across the area, or every kill with kill_ids
 * (see plot-charts.c). */
void plot_oom_marks(struct plot *p, const struct area *a);
/* The trigger of a flight-recorder file on a's time axis (plot_oom_marks
 * draws it too). */
void plot_trigger_mark(struct plot *p, const struct area *a);
void plot_xml_text(struct strbuf *sb, const char *s);

#endif
