// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests (TAP) for src/stats.c. Reference values were computed with
 * python3: the descriptive statistics with the statistics module
 * (statistics.mean / harmonic_mean / geometric_mean / stdev), the t
 * distribution with mpmath (mp.dps = 30):
 *   tcdf(t, df) = 1 - betainc(df/2, 1/2, 0, df/(df+t*t), regularized=True)/2
 *   quantile    = findroot(lambda x: tcdf(x, df) - p, 2)
 * and Welch's test from its textbook formulas evaluated in mpmath.
 */
#include "config.h"
#include "stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static int n_test;
static int n_fail;

static void check(int cond, const char *desc)
{
	n_test++;
	if (!cond)
		n_fail++;
	printf("%sok %d - %s\n", cond ? "" : "not ", n_test, desc);
}

static void check_near(double got, double want, double tol, const char *desc)
{
	int ok = fabs(got - want) <= tol * (1 + fabs(want));

	check(ok, desc);
	if (!ok)
		printf("# got %.17g, want %.17g\n", got, want);
}

/* v = 3 1 4 1 5 9 2 6 */
static const double v[] = { 3, 1, 4, 1, 5, 9, 2, 6 };

static void test_descriptive(void)
{
	check_near(stats_mean(v, 8), 3.875, 1e-15, "mean");
	/* statistics.harmonic_mean(v) */
	check_near(stats_hmean(v, 8), 2.2464898595943836, 1e-14, "hmean");
	/* statistics.geometric_mean(v) */
	check_near(stats_gmean(v, 8), 2.995345169980803, 1e-14, "gmean");
	/* statistics.stdev(v) (n - 1) */
	check_near(stats_stddev(v, 8), 2.748376143938713, 1e-14, "sample stddev");
	check_near(stats_coeffvar(v, 8), 70.92583597261194, 1e-13, "coeffvar");
	check(stats_min(v, 8) == 1 && stats_max(v, 8) == 9, "min and max");
	check(stats_median(v, 8) == 3.5, "median of an even count");
	check(stats_median(v, 7) == 3, "median of an odd count (3 1 4 1 5 9 2)");
	check(isnan(stats_stddev(v, 1)), "stddev of one sample is undefined");
	check(stats_coeffvar(v, 1) == 0, "coeffvar of one sample is 0 (mmtests)");
	check(isnan(stats_mean(v, 0)) && isnan(stats_min(v, 0)), "no data gives NAN");
}

static void test_order_stats(void)
{
	static const double neg[] = { 2, 0, 3 };
	static const double three[] = { 10, 30, 20 };

	check(isnan(stats_hmean(neg, 3)), "hmean over a zero is undefined");
	/* ascending 1 1 2 3 4 5 6 9: floor(8 * 0.95) = 7th value */
	check(stats_percentile(v, 8, 95, 0) == 6, "p95, lower is better");
	/* descending 9 6 5 4 3 2 1 1: 7th value */
	check(stats_percentile(v, 8, 95, 1) == 1, "p95, higher is better");
	check(stats_percentile(v, 8, 1, 0) == 1, "p1 takes at least one sample");
	/* best 50%: 1 1 2 3 -> 1.75; 9 6 5 4 -> 6 */
	check(stats_bmean(v, 8, 50, 0, 0) == 1.75, "BAmean-50, lower is better");
	check(stats_bmean(v, 8, 50, 1, 0) == 6, "BAmean-50, higher is better");
	/* n = 3, 95%: floor(2.85) = 2 best samples: 30 20 -> hmean 24 */
	check_near(stats_bmean(three, 3, 95, 1, 1), 24, 1e-14, "BHmean-95 of 3 samples uses 2");
	check(stats_bmean(three, 3, 95, 0, 0) == 15, "BAmean-95 of 3 samples uses 2");
	check(stats_bmean(three, 3, 99, 0, 0) == 15, "BAmean-99 of 3 samples uses 2");
	check(stats_bmean(three, 3, 100, 0, 0) == 20, "BAmean-100 is the mean");
}

static void test_t_distribution(void)
{
	check_near(stats_t_cdf(2, 10), 0.96330598261462982, 1e-12, "t cdf(2, df 10)");
	check_near(stats_t_cdf(-1.5, 3), 0.11529193262241153, 1e-12, "t cdf(-1.5, df 3)");
	check_near(stats_t_cdf(0.5, 2.5), 0.67115104006514266, 1e-12,
		   "t cdf(0.5, df 2.5) (fractional df)");
	check_near(stats_t_cdf(4, 50), 0.99989540487681798, 1e-12, "t cdf(4, df 50)");
	check(stats_t_cdf(0, 7) == 0.5, "t cdf(0) is one half");
	check_near(stats_t_quantile(0.975, 1), 12.706204736174693, 1e-9, "t 97.5% df 1");
	check_near(stats_t_quantile(0.975, 5), 2.5705818356363148, 1e-9, "t 97.5% df 5");
	check_near(stats_t_quantile(0.975, 30), 2.0422724563012379, 1e-9, "t 97.5% df 30");
	check_near(stats_t_quantile(0.95, 12.5), 1.7763662212470301, 1e-9, "t 95% df 12.5");
	check_near(stats_t_quantile(0.025, 4), -2.7764451051977943, 1e-9, "t 2.5% df 4");
	check_near(stats_betai(2.5, 0.5, 0.3), 0.018927124071945652, 1e-12, "betai(2.5, .5, .3)");
	check_near(stats_betai(10, 3, 0.9), 0.88913002225500006, 1e-12, "betai(10, 3, .9)");
}

static void test_welch(void)
{
	/* the first example of Welch's test on Wikipedia (A1, A2) */
	static const double a[] = { 19.8, 20.4, 19.6, 17.8, 18.5, 18.9, 18.3, 18.9,
				    19.5, 22.0 };
	static const double b[] = { 28.2, 26.6, 20.1, 23.3, 25.2, 22.1, 17.7, 27.6,
				    20.6, 13.7, 23.2, 17.5, 20.6, 18.0, 23.9, 21.6,
				    24.3, 20.4, 23.9, 13.3 };
	static const double c[] = { 10, 11, 12 }, d[] = { 10.5, 11.5, 12.5 };
	static const double e[] = { 5, 5 }, f[] = { 6, 6 };
	struct stats_welch w;

	check(stats_welch_test(a, 10, b, 20, 0.05, &w) == 0, "welch runs");
	check_near(w.t, 2.2255120399698532, 1e-12, "welch t");
	check_near(w.df, 24.524634944257348, 1e-12, "welch degrees of freedom");
	check_near(w.p, 0.035484530830010218, 1e-10, "welch two-sided p");
	check(w.significant, "welch: significant at 95%");
	check(stats_welch_test(a, 10, b, 20, 0.01, &w) == 0 && !w.significant,
	      "welch: not significant at 99%");
	check(stats_welch_test(c, 3, d, 3, 0.05, &w) == 0 && !w.significant,
	      "welch: overlapping small samples are not significant");
	check(stats_welch_test(c, 1, d, 3, 0.05, &w) == -1, "welch needs 2 samples a side");
	check(stats_welch_test(e, 2, f, 2, 0.05, &w) == 0 && w.significant && w.p == 0,
	      "welch: zero variance, different means");
	check(stats_welch_test(e, 2, e, 2, 0.05, &w) == 0 && !w.significant,
	      "welch: zero variance, same means");
	{
		/* the gate's case: memcg reclaim stall totals (ms) of the
		 * recordings in tests/data/compare, 176 MB and 40 MB limits;
		 * reference from the textbook formulas in mpmath (40 digits) */
		static const double big[] = { 453.052984, 295.620259, 328.267308,
					      316.478242, 502.286028 };
		static const double small[] = { 690.225472, 511.700328, 484.349401,
						484.033782, 835.650019 };

		check(stats_welch_test(big, 5, small, 5, 0.05, &w) == 0 && w.significant,
		      "welch: memcg stalls, significant at 95%");
		check_near(w.t, 2.729097428713957, 1e-12, "welch: memcg stalls t");
		check_near(w.df, 6.4784318155341487, 1e-12, "welch: memcg stalls df");
		check_near(w.p, 0.031694411362440726, 1e-10, "welch: memcg stalls p");
	}
}

int main(void)
{
	printf("1..47\n");
	test_descriptive();
	test_order_stats();
	test_t_distribution();
	test_welch();
	if (n_test != 43)
		printf("# planned 43 tests, ran %d\n", n_test);
	return n_fail ? 1 : 0;
}
