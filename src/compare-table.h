/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A comparison table: columns are named runs (the first is the baseline),
 * rows are metrics, and each cell holds the pooled samples of every run of
 * that column (mmtests pools all iterations the same way). Renderers turn
 * it into text in one of two dialects used on linux-mm, or into JSON:
 *
 *  mmtests  two-line header (name split at its first '-', "-rcN" stays
 *           left), "Stat op" rows grouped by statistic, "%12.2f (%7.2f%%)"
 *           per run with positive = better, significant cells "*...%*";
 *           counter metrics go to an "Ops <label>" monitor table
 *           ("%15.2f", no percentages) unless monitor is off.
 *  plain    the default, in the defrag_mode / freelist-hygiene style: one
 *           header line of run names, rows "<label>" (or "<label> <stat>"
 *           with more statistics than the mean), a unit column, the
 *           baseline's value, then per column its value and the raw
 *           relative change in a narrow column ("+12.3%", '*' when
 *           significant). Two columns fit 80 characters; blocks of more
 *           repeat the baseline.
 *
 * Conventions of both: rows zero or absent everywhere are left out
 * (opts.all keeps them) and counted in a last line; the baseline and one
 * more column always fit side by side in opts.width (names cut with ~) before
 * columns go to further blocks; a '*' only on a change that prints as
 * one (never "+0.0%*"). A metric that a column lacks prints "-" and no
 * percentage; a statistic that is undefined (stddev of one sample, hmean
 * over a zero) prints "n/a"; a change against a zero (or undefined)
 * baseline prints "n/a", never inf or nan. Columns never wrap: a table
 * wider than opts.width is printed as several blocks of columns, each
 * repeating the row labels. Nothing here prints; output goes to a strbuf.
 */
#ifndef MMSCOPE_COMPARE_TABLE_H
#define MMSCOPE_COMPARE_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "metrics.h"
#include "util.h"

enum ct_dialect { CT_MMTESTS, CT_PLAIN };

enum ct_stat_kind {
	CT_MIN, CT_MEAN, CT_AMEAN, CT_HMEAN, CT_GMEAN, CT_STDDEV, CT_COEFFVAR,
	CT_MAX, CT_MEDIAN, CT_PCTILE, CT_BMEAN, CT_SAMPLES,
};

/* One statistic row: "mean" is Amean, or Hmean for higher-is-better
 * metrics in the mmtests dialect (as mmtests does) when every sample of
 * the row is > 0. arg: NN of pNN and bmean-NN. */
struct ct_stat {
	enum ct_stat_kind kind;
	double arg;
};

/* Parse "min,mean,stddev,p95,bmean-95,...". Returns 0, or -1 with *err. */
int ct_parse_stats(const char *list, struct ct_stat **out, size_t *n, char **err);

struct ct_cell {
	double *v;		/* pooled samples */
	size_t n;		/* 0: the metric is absent in this column */
};

struct ct_row {
	struct metric_info mi;
	int higher_is_better;
	int positive;		/* every sample > 0 (set by ct_sort) */
	size_t seq;		/* first appearance, for user metrics' order */
	struct ct_cell *cells;	/* one per column */
};

/* A finding id (and count unit) of a column: the highest severity over
 * its runs, and the count of each run that has it (run: the run's place
 * in the column). */
struct ct_finding {
	char id[32];
	char unit[16];
	int severity;		/* enum finding_severity */
	size_t n;
	size_t *run;
	uint64_t *count;
};

struct ct_column_info {
	char *command;		/* the command its runs ran; NULL unknown */
	int command_varies;	/* its runs ran different commands */
	struct strbuf notes;	/* its runs' notes, each line once */
	size_t findings_runs;	/* its runs whose findings are known */
	struct ct_finding *findings;
	size_t nfindings;
	struct strbuf notrun;	/* "ID\n" per run that could not run the rule */
};

struct ct_table {
	char **cols;
	size_t *nruns;
	size_t ncols;
	struct ct_row *rows;
	size_t nrows;
	struct ct_column_info *info;	/* one per column */
};

void ct_init(struct ct_table *t);
/* Add a column; returns its index. */
size_t ct_add_column(struct ct_table *t, const char *name);
/* Pool the samples of one run into column col. */
void ct_add_run(struct ct_table *t, size_t col, const struct metric_values *mv);
/* Keep only the rows for which keep() says yes. */
void ct_filter(struct ct_table *t, int (*keep)(const struct ct_row *, size_t ncols, void *),
	       void *ctx);
/* Is every sample of the row, in every column, zero? */
int ct_row_all_zero(const struct ct_row *row, size_t ncols);
/* Is every sample of the row, in every column, zero or undefined (or is
 * the metric absent everywhere)? Such rows say nothing: plain hides them. */
int ct_row_quiet(const struct ct_row *row, size_t ncols);
/* Sort rows into catalogue order (user metrics last, as first seen). */
void ct_sort(struct ct_table *t);
void ct_release(struct ct_table *t);

struct ct_opts {
	enum ct_dialect dialect;
	const struct ct_stat *stats;
	size_t nstats;
	int width;		/* split into blocks above this many columns */
	int monitor;		/* mmtests: counter metrics in an "Ops" table */
	double alpha;		/* significance level, 0.05 */
	int all;		/* also rows zero or absent everywhere */
};

/* The value of one statistic over the cell of column col (NAN when
 * undefined). The row must have been through ct_sort(). */
double ct_stat_value(const struct ct_stat *s, const struct ct_row *row, size_t col,
		     enum ct_dialect d);
/* The statistic's row name in a dialect ("Amean", "BAmean-95", "mean"). */
void ct_stat_name(const struct ct_stat *s, const struct ct_row *row, enum ct_dialect d,
		  char *buf, size_t len);

/* For other renderers (compare-html.c), the text's own rules: the change
 * of column c's statistic against the baseline's in the dialect's
 * convention (NAN: n/a, or either column lacks the metric); whether the
 * means differ significantly (1, 0, -1: not tested, fewer than two runs
 * a side); a value as the plain table prints it ("n/a" for NAN). */
/*
 * The practical threshold: a change smaller than CT_PRACTICAL_PCT percent
 * of the baseline (as one decimal rounds it: 0.96% is 1.0%) gets no
 * significance mark and no colour, however sure
 * the test is (a 0.3% change is no finding); a count whose baseline mean
 * is below one (half an event a run) gets no percentage (n/a): a
 * percentage of next to nothing ("+25700%") says nothing.
 */
#define CT_PRACTICAL_PCT 1.0
/* Whether a change of pct percent clears the practical threshold. */
int ct_practical(double pct);
double ct_change_pct(const struct ct_stat *s, const struct ct_row *row, size_t c,
		     enum ct_dialect d);
int ct_significant(const struct ct_table *t, const struct ct_row *row, size_t c, double alpha);
int ct_fmt_value(char *buf, size_t len, double v);

/*
 * The regression gate: the rows whose mean in a column differs from the
 * baseline's significantly (Welch's t-test at o->alpha, at least two runs
 * a side) and in its bad direction by more than pct percent of the
 * baseline (any amount from a zero baseline). Appends a block listing
 * them to out (lines of at most 72 columns; nothing when there is none)
 * and returns their number. *tested: the rows that could be tested in at
 * least one column; when none could (one run a side), the block says so
 * and why. Columns not tested (one run) are named.
 */
size_t ct_regressions(const struct ct_table *t, const struct ct_opts *o, double pct,
		      struct strbuf *out, size_t *tested);

/* The table, then its notes: the columns that ran different commands,
 * and what the runs say about their figures (metric_values.notes), then
 * the findings that appear, vanish or change between the columns. */
void ct_render_text(const struct ct_table *t, const struct ct_opts *o, struct strbuf *out);
/* The findings that differ between the columns, as the text's block shows
 * them: fn gets each one's id and its cell per column ("warning 37/-
 * stalls", "-" not found, "not run", "unknown"). Returns how many differ;
 * *same gets those equal in every column. */
size_t ct_findings_differ(const struct ct_table *t,
			  void (*fn)(void *ctx, const char *id, char *const *cells), void *ctx,
			  size_t *same);
void ct_render_json(const struct ct_table *t, const struct ct_opts *o, struct strbuf *out);

#endif
