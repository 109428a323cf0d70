// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The swap cluster and zswap metrics of "mmscope compare", from the
 * models of one analysed recording (their catalogue entries are in
 * metrics.c, group "swap" and "zswap", source trace). Per-order fallback
 * percentages come from the probes (folio_alloc_swap results); the free
 * cluster minimum and the times free clusters ran out only where the
 * cluster state was known; the share of stores zswap refused as the
 * zswap-reject finding counts it (zswap_model_refusals); writeback
 * from written_back_pages (or vmstat zswpwb). A metric the recording
 * cannot give is left out, never 0.
 */
#include "config.h"
#include "metrics-swap.h"

#include <stdio.h>

static void swap_metrics(const struct swapclust_model *m, struct metric_values *out)
{
	char name[64];
	uint32_t fmin = UINT32_MAX;
	uint64_t ran_out = 0;
	int known = 0;

	if (!swapclust_model_has_probes(m))
		return;
	for (int o = 1; o < SWC_NORDERS; o++) {
		const struct swc_order *so = swapclust_model_order(m, o);

		if (!so->attempts)
			continue;
		snprintf(name, sizeof(name), "swap-fallback-pct-order-%d", o);
		metric_values_add(out, name, (double)so->fallback * 100.0 / (double)so->attempts);
	}
	for (int i = 0; i < swapclust_model_ndevs(m); i++) {
		const struct swc_dev *d = swapclust_model_dev(m, i);

		if (!d->free_known || d->large_ok == 0)
			continue;
		known = 1;
		if (d->free_min < fmin)
			fmin = d->free_min;
		ran_out += d->zero_count;
	}
	if (known) {
		metric_values_add(out, "swap-free-clusters-min", (double)fmin);
		metric_values_add(out, "swap-clusters-ran-out", (double)ran_out);
	}
}

static int64_t ctr_delta(const struct zswap_model *m, const char *key, int *found)
{
	const struct zsw_counter *c = zswap_model_counter(m, key);

	if (!c)
		return 0;
	*found = 1;
	return c->last - c->first;
}

static void zswap_metrics(const struct zswap_model *m, uint32_t page_size,
			  struct metric_values *out)
{
	struct zswap_refusal z;
	int n = zswap_model_npoints(m), found = 0;
	int64_t wb;

	/* the zswap-reject finding's own count and share (one source of
	 * truth): none when zswap was off or the offered stores are unknown */
	if (!zswap_model_refusals(m, &z) && z.on && z.tries > 0)
		metric_values_add(out, "zswap-reject-pct", (double)z.refused * 100.0 / (double)z.tries);
	found = 0;
	wb = ctr_delta(m, "written_back_pages", &found);
	if (found)
		metric_values_add(out, "zswap-writeback-pages", (double)wb);
	for (int i = 0, top = -1; i < n; i++) {
		const struct zsw_point *p = zswap_model_point(m, i);

		if (p->limit_pages > 0 && p->pool_bytes >= 0) {
			/* the limit is in the recording's pages, not 4 KB ones */
			int pct = (int)(p->pool_bytes / page_size * 100 / p->limit_pages);

			if (pct > top)
				top = pct;
		}
		if (i == n - 1 && top >= 0)
			metric_values_add(out, "zswap-pool-max-pct", (double)top);
	}
}

void metrics_swap_load(const struct analysis *a, struct metric_values *out)
{
	swap_metrics(analysis_swapclust(a), out);
	zswap_metrics(analysis_zswap(a), analysis_info(a)->page_size, out);
}
