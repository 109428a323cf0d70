/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Summary statistics over small samples (a handful of runs per kernel),
 * with the definitions of mmtests (bin/lib/MMTests/Stat.pm, Summarise.pm)
 * where it has one, and Welch's t-test with the Student t distribution
 * computed here (regularized incomplete beta function), so significance
 * needs no R and no other external tool.
 *
 * Every function is pure: it never prints, never allocates on behalf of
 * the caller, and returns NAN when the statistic is undefined (no data,
 * a harmonic mean over a value <= 0, a stddev over one sample). Inputs
 * are never modified; functions that need sorted data sort a copy.
 */
#ifndef MMSCOPE_STATS_H
#define MMSCOPE_STATS_H

#include <stddef.h>

/* Arithmetic mean (mmtests "Amean"). */
double stats_mean(const double *v, size_t n);
/* Harmonic mean (mmtests "Hmean"); NAN if any value is <= 0. */
double stats_hmean(const double *v, size_t n);
/* Geometric mean; NAN if any value is <= 0. */
double stats_gmean(const double *v, size_t n);
/* Sample standard deviation (divides by n - 1); NAN when n < 2. */
double stats_stddev(const double *v, size_t n);
/*
 * Coefficient of variation in percent: stddev * 100 / mean. As in
 * mmtests, an undefined stddev counts as 0 and a zero mean gives 0.
 */
double stats_coeffvar(const double *v, size_t n);
double stats_min(const double *v, size_t n);
double stats_max(const double *v, size_t n);
/* Median: the middle value, or the mean of the two middle values. */
double stats_median(const double *v, size_t n);

/*
 * mmtests percentile ("Max-NN"): samples sorted best first (ascending when
 * lower is better, descending when higher is better), the value at
 * position max(1, floor(n * pct / 100)). So p95 of a lower-is-better
 * metric is the value below which (about) 95% of the samples lie.
 */
double stats_percentile(const double *v, size_t n, double pct, int higher_is_better);

/*
 * mmtests "BAmean-NN" (arithmetic) or "BHmean-NN" (harmonic): the mean of
 * the best NN% of the samples, i.e. of the first max(1, floor(n * NN / 100))
 * samples sorted best first.
 */
double stats_bmean(const double *v, size_t n, double pct, int higher_is_better,
		   int harmonic);

/* Student's t distribution with df (> 0, not necessarily integer) degrees
 * of freedom: P(T <= t). */
double stats_t_cdf(double t, double df);
/* The t with P(T <= t) = p, for 0 < p < 1. */
double stats_t_quantile(double p, double df);
/* Regularized incomplete beta function I_x(a, b), a, b > 0, 0 <= x <= 1. */
double stats_betai(double a, double b, double x);

struct stats_welch {
	double t;		/* (mean_b - mean_a) / standard error */
	double df;		/* Welch-Satterthwaite degrees of freedom */
	double p;		/* two-sided p-value */
	int significant;	/* p < alpha */
};

/*
 * Welch's unequal-variances t-test between samples a and b, two-sided at
 * level alpha (0.05 for 95%). Returns -1 (and leaves *out alone) when
 * either side has fewer than 2 samples. When both sides have zero
 * variance the difference is significant exactly when the means differ
 * (t = +-inf, p = 0; or t = 0, p = 1).
 */
int stats_welch_test(const double *a, size_t na, const double *b, size_t nb,
		     double alpha, struct stats_welch *out);

#endif
