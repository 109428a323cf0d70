// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the report asks of the analysis (analysis_opts.summary and
 * series_max) changes none of its figures: on every real recording an
 * analysis of summaries whose series keep at most 4 points prints, in
 * text and JSON, every section but swap and zswap exactly as a full
 * analysis (the findings' times among them, taken over every sample set
 * and every stall, not from the lists it no longer keeps); the swap and
 * zswap series are the full ones' sets 0, s, 2s ... and the last; and
 * it keeps no viewers' lists (stalls, compaction runs, lanes). The
 * stalls' first begin and last end per kind (the findings' times) are
 * those of the full analysis' list of stalls.
 */
#include "config.h"
#include "analysis.h"
#include "real-recordings.h"
#include "report.h"
#include "tap.h"
#include "util.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define diag(...) do { printf("# "); printf(__VA_ARGS__); putchar('\n'); } while (0)

#define MAXPTS 4

static char *render(const struct analysis *a, enum report_format fmt, unsigned sections)
{
	struct report_opts o;
	struct strbuf sb = STRBUF_INIT;

	report_opts_default(&o);
	o.format = fmt;
	o.sections = sections;
	report_render(a, &o, &sb);
	return strbuf_detach(&sb, NULL);
}

/* The first line where a and b differ, for the diagnosis. */
static void first_diff(const char *name, const char *a, const char *b)
{
	int line = 1;

	while (*a && *a == *b) {
		line += *a == '\n';
		a++, b++;
	}
	diag("%s: line %d: \"%.60s\" against \"%.60s\"", name, line, a, b);
}

/* n points of thin (thinned) are full's sets 0, s, 2s ... and its last:
 * their first used bytes the same (elements of size bytes). */
static int thinned(const void *full, int nfull, const void *thin, int nthin, size_t size,
		   size_t used)
{
	const char *f = full, *t = thin;
	int s = 1, k = 0;

	if (!nfull || !nthin)
		return nfull == nthin;
	if (nthin > MAXPTS + 1)
		return 0;
	while ((nfull - 1) / s + 1 > MAXPTS)
		s *= 2;
	for (int i = 0; i < nfull; i++) {
		if (i % s && i != nfull - 1)
			continue;
		if (k >= nthin || memcmp(f + (size_t)i * size, t + (size_t)k * size, used))
			return 0;
		k++;
	}
	return k == nthin;
}

static void check(const char *path)
{
	const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	struct analysis_opts o;
	struct analysis *full, *sum;
	char *err = NULL;
	unsigned rest = 0;
	int swap = report_section_find("swap"), zswap = report_section_find("zswap"), same = 1;

	analysis_opts_default(&o);
	full = analysis_run(path, &o, &err);
	o.summary = 1;
	o.series_max = MAXPTS;
	sum = full ? analysis_run(path, &o, &err) : NULL;
	if (!ok(full && sum, "%s: analysed both ways", name)) {
		diag("%s", err ? err : "?");
		free(err);
		analysis_free(full);
		return;
	}
	for (int i = 0; i < report_nsections; i++)
		if (i != swap && i != zswap)
			rest |= 1u << i;
	for (int f = 0; f < 2; f++) {
		enum report_format fmt = f ? RF_JSON : RF_TEXT;
		char *x = render(full, fmt, rest), *y = render(sum, fmt, rest);

		if (strcmp(x, y)) {
			same = 0;
			first_diff(name, x, y);
		}
		free(x);
		free(y);
	}
	ok(same, "%s: every section but swap and zswap the same, text and JSON", name);

	const struct swapclust_model *sf = analysis_swapclust(full), *ss = analysis_swapclust(sum);
	const struct zswap_model *zf = analysis_zswap(full), *zs = analysis_zswap(sum);
	int good = 1, longer = 0;

	for (int o2 = 0; o2 < swapclust_model_norders(sf); o2++) {
		int nf = swapclust_model_nctr(sf, o2), ns = swapclust_model_nctr(ss, o2);

		longer |= nf > MAXPTS;
		if (!thinned(nf ? swapclust_model_ctr(sf, o2, 0) : NULL, nf,
			     ns ? swapclust_model_ctr(ss, o2, 0) : NULL, ns,
			     sizeof(struct swc_ctr_point), sizeof(struct swc_ctr_point))) {
			good = 0;
			diag("%s: order %d: %d points, thinned %d", name, o2, nf, ns);
		}
	}
	{
		int nf = zswap_model_npoints(zf), ns = zswap_model_npoints(zs);

		longer |= nf > MAXPTS;
		if (!thinned(nf ? zswap_model_point(zf, 0) : NULL, nf,
			     ns ? zswap_model_point(zs, 0) : NULL, ns, sizeof(struct zsw_point),
			     offsetof(struct zsw_point, enabled) + sizeof(int))) {
			good = 0;
			diag("%s: zswap: %d points, thinned %d", name, nf, ns);
		}
	}
	ok(good, "%s: the series are the full ones' sets on a stride and the last%s", name,
	   longer ? "" : " (none longer than 4)");
	/* the stalls' first begin and last end per kind: the list's */
	const struct reclaim_model *rm = analysis_reclaim(full);
	int span = 1;

	for (int k = 0; k < RK_NR; k++) {
		uint64_t from = UINT64_MAX, to = 0;
		const struct reclaim_kind_stats *ks = reclaim_model_kind(rm, k);

		for (int i = 0; i < reclaim_model_nstalls(rm, NULL); i++) {
			const struct reclaim_stall *st = reclaim_model_stall(rm, i);

			if (st->kind != (enum reclaim_kind)k)
				continue;
			if (st->begin < from)
				from = st->begin;
			if (st->begin + st->dur > to)
				to = st->begin + st->dur;
		}
		if (to ? ks->first_begin != from || ks->last_end != to :
		    ks->first_begin || ks->last_end) {
			span = 0;
			diag("%s: kind %d: %llu .. %llu, the list %llu .. %llu", name, k,
			     (unsigned long long)ks->first_begin, (unsigned long long)ks->last_end,
			     (unsigned long long)from, (unsigned long long)to);
		}
	}
	ok(span, "%s: the stalls' first begin and last end are the list's", name);
	ok(!analysis_lanes(sum) && !reclaim_model_nstalls(analysis_reclaim(sum), NULL) &&
	   !compaction_model_nruns(analysis_compaction(sum), NULL) && analysis_lanes(full),
	   "%s: no lanes, stall or run lists kept", name);
	analysis_free(full);
	analysis_free(sum);
}

int main(void)
{
	char **paths;
	int n = real_recordings(&paths);

	for (int i = 0; i < n; i++)
		check(paths[i]);
	ok(n >= 20, "%d real recordings", n);
	real_recordings_free(paths, n);
	return tap_done();
}
