// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Summary statistics and Welch's t-test. The order statistics (percentile,
 * BAmean-NN) follow mmtests: samples are sorted best first and a statistic
 * over "NN%" takes the first max(1, floor(n * NN / 100)) of them. The t
 * distribution comes from the regularized incomplete beta function,
 * evaluated with the Lentz continued fraction (Numerical Recipes'
 * betacf), which converges in a few dozen steps for the degrees of
 * freedom a compare table meets.
 */
#include "config.h"
#include "stats.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

double stats_mean(const double *v, size_t n)
{
	double sum = 0;

	if (!n)
		return NAN;
	for (size_t i = 0; i < n; i++)
		sum += v[i];
	return sum / (double)n;
}

double stats_hmean(const double *v, size_t n)
{
	double sum = 0;

	if (!n)
		return NAN;
	for (size_t i = 0; i < n; i++) {
		if (!(v[i] > 0))
			return NAN;
		sum += 1 / v[i];
	}
	return (double)n / sum;
}

double stats_gmean(const double *v, size_t n)
{
	double sum = 0;

	if (!n)
		return NAN;
	for (size_t i = 0; i < n; i++) {
		if (!(v[i] > 0))
			return NAN;
		sum += log(v[i]);
	}
	return exp(sum / (double)n);
}

double stats_stddev(const double *v, size_t n)
{
	double mean, sum = 0;

	if (n < 2)
		return NAN;
	mean = stats_mean(v, n);
	for (size_t i = 0; i < n; i++)
		sum += (v[i] - mean) * (v[i] - mean);
	return sqrt(sum / (double)(n - 1));
}

double stats_coeffvar(const double *v, size_t n)
{
	double mean = stats_mean(v, n), sd = stats_stddev(v, n);

	if (isnan(sd))
		sd = 0;
	if (isnan(mean) || mean == 0)
		return 0;
	return sd * 100 / mean;
}

double stats_min(const double *v, size_t n)
{
	double m;

	if (!n)
		return NAN;
	m = v[0];
	for (size_t i = 1; i < n; i++)
		if (v[i] < m)
			m = v[i];
	return m;
}

double stats_max(const double *v, size_t n)
{
	double m;

	if (!n)
		return NAN;
	m = v[0];
	for (size_t i = 1; i < n; i++)
		if (v[i] > m)
			m = v[i];
	return m;
}

static int cmp_ascending(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int cmp_descending(const void *a, const void *b)
{
	return cmp_ascending(b, a);
}

/* A sorted copy (best first when order > 0 means "higher is better"). */
static double *sorted_copy(const double *v, size_t n, int higher_is_better)
{
	double *s = xreallocarray(NULL, n, sizeof(*s));

	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), higher_is_better ? cmp_descending : cmp_ascending);
	return s;
}

double stats_median(const double *v, size_t n)
{
	double *s, m;

	if (!n)
		return NAN;
	s = sorted_copy(v, n, 0);
	m = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	free(s);
	return m;
}

/* mmtests: int(n * pct / 100), at least 1. */
static size_t best_count(size_t n, double pct)
{
	size_t k = (size_t)floor((double)n * pct / 100 + 1e-9);

	if (k < 1)
		k = 1;
	return k > n ? n : k;
}

double stats_percentile(const double *v, size_t n, double pct, int higher_is_better)
{
	double *s, r;

	if (!n)
		return NAN;
	s = sorted_copy(v, n, higher_is_better);
	r = s[best_count(n, pct) - 1];
	free(s);
	return r;
}

double stats_bmean(const double *v, size_t n, double pct, int higher_is_better,
		   int harmonic)
{
	double *s, r;
	size_t k;

	if (!n)
		return NAN;
	s = sorted_copy(v, n, higher_is_better);
	k = best_count(n, pct);
	r = harmonic ? stats_hmean(s, k) : stats_mean(s, k);
	free(s);
	return r;
}

/* Continued fraction for the incomplete beta function (modified Lentz). */
static double betacf(double a, double b, double x)
{
	const double tiny = 1e-300, eps = 1e-15;
	double qab = a + b, qap = a + 1, qam = a - 1;
	double c = 1, d = 1 - qab * x / qap, h;

	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	h = d;
	for (int m = 1; m <= 1000; m++) {
		int m2 = 2 * m;
		double aa = m * (b - m) * x / ((qam + m2) * (a + m2)), del;

		d = 1 + aa * d;
		d = fabs(d) < tiny ? tiny : d;
		c = 1 + aa / c;
		c = fabs(c) < tiny ? tiny : c;
		d = 1 / d;
		h *= d * c;
		aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
		d = 1 + aa * d;
		d = fabs(d) < tiny ? tiny : d;
		c = 1 + aa / c;
		c = fabs(c) < tiny ? tiny : c;
		d = 1 / d;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < eps)
			break;
	}
	return h;
}

double stats_betai(double a, double b, double x)
{
	double bt;

	if (!(a > 0) || !(b > 0) || isnan(x) || x < 0 || x > 1)
		return NAN;
	if (x == 0 || x == 1)
		return x;
	bt = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	/* the fraction converges fast for x < (a + 1) / (a + b + 2) */
	if (x < (a + 1) / (a + b + 2))
		return bt * betacf(a, b, x) / a;
	return 1 - bt * betacf(b, a, 1 - x) / b;
}

double stats_t_cdf(double t, double df)
{
	double tail;

	if (isnan(t) || !(df > 0))
		return NAN;
	if (isinf(t))
		return t > 0 ? 1 : 0;
	/* P(|T| > |t|) = I_{df / (df + t^2)}(df / 2, 1 / 2) */
	tail = stats_betai(df / 2, 0.5, df / (df + t * t));
	return t > 0 ? 1 - tail / 2 : tail / 2;
}

double stats_t_quantile(double p, double df)
{
	double lo = -1, hi = 1;

	if (!(p > 0 && p < 1) || !(df > 0))
		return NAN;
	while (stats_t_cdf(lo, df) > p)
		lo *= 2;
	while (stats_t_cdf(hi, df) < p)
		hi *= 2;
	for (int i = 0; i < 200 && hi - lo > 1e-12 * (1 + fabs(lo)); i++) {
		double mid = (lo + hi) / 2;

		if (stats_t_cdf(mid, df) < p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

int stats_welch_test(const double *a, size_t na, const double *b, size_t nb,
		     double alpha, struct stats_welch *out)
{
	double ma, mb, va, vb, se2;

	if (na < 2 || nb < 2)
		return -1;
	ma = stats_mean(a, na);
	mb = stats_mean(b, nb);
	va = stats_stddev(a, na);
	vb = stats_stddev(b, nb);
	va = va * va / (double)na;
	vb = vb * vb / (double)nb;
	se2 = va + vb;
	if (se2 == 0) {
		out->df = (double)(na + nb - 2);
		out->t = mb == ma ? 0 : (mb > ma ? INFINITY : -INFINITY);
		out->p = mb == ma ? 1 : 0;
	} else {
		out->t = (mb - ma) / sqrt(se2);
		out->df = se2 * se2 / (va * va / (double)(na - 1) + vb * vb / (double)(nb - 1));
		out->p = 2 * stats_t_cdf(-fabs(out->t), out->df);
	}
	out->significant = out->p < alpha;
	return 0;
}
