// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * View 2, swap clusters, from the swap cluster model: for one device
 * (Up/Down picks another), the state of every cluster at the cursor time
 * as a map (. free, n nonfull, f frag, # full, d discard, i isolated
 * while allocated from, ? unknown: never guessed), the counts
 * per state then, per mTHP order the allocation attempts, successes and
 * fallbacks, and over time the share of each order's swap-outs that fell
 * back, in tenths 0-9 per column ("64K fb"; from the kernel's swpout and
 * swpout_fallback counters). When the map
 * needs more cells than the screen has, a cell stands for several
 * clusters and shows the most common state among them.
 */
#include "config.h"
#include "tui.h"
#include "data.h"
#include "analysis.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char swap_state_char[SWC_NSTATES] = {
	[SWC_UNKNOWN] = '?', [SWC_FREE] = '.', [SWC_NONFULL] = 'n', [SWC_FRAG] = 'f',
	[SWC_FULL] = '#', [SWC_DISCARD] = 'd', [SWC_NONE] = 'i',
};

/* The view's own state (st->priv[VIEW_SWAP]). */
struct view_swap_priv {
	int dev;		/* the device shown (Up/Down) */
};

static void *view_swap_priv_new(void)
{
	return xcalloc(1, sizeof(struct view_swap_priv));
}

static struct view_swap_priv *view_swap_priv(const struct tui_state *st)
{
	return st->priv[VIEW_SWAP];
}

static const struct swapclust_model *view_swap_model(const struct tui_state *st)
{
	return st->data && st->data->an ? analysis_swapclust(st->data->an) : NULL;
}

/* The map at the cursor: rows of cells, each the commonest state of its
 * clusters. Returns the rows used. */
static int view_swap_map(struct tui_state *st, struct canvas *body, int y, int rows,
			 const struct swapclust_model *m, int dev)
{
	const struct swc_dev *d = swapclust_model_dev(m, dev);
	int w = body->cols - 2, n = d->nclusters, cells = w * rows, per;
	uint8_t *state;

	if (n <= 0) {
		canvas_put(body, y, 0, AT_DIM, "no cluster of this device seen yet");
		return 1;
	}
	state = xcalloc((size_t)n, 1);
	n = swapclust_model_states_at(m, dev, tui_trace_at(st, st->cursor), state, n);
	per = (n + cells - 1) / cells;
	if (per < 1)
		per = 1;
	for (int c = 0; c * per < n; c++) {
		int count[SWC_NSTATES] = { 0 }, best = 0;

		for (int k = c * per; k < (c + 1) * per && k < n; k++)
			count[state[k] < SWC_NSTATES ? state[k] : SWC_UNKNOWN]++;
		for (int s = 1; s < SWC_NSTATES; s++)
			if (count[s] > count[best])
				best = s;
		canvas_set(body, y + c / w, 1 + c % w, swap_state_char[best],
			   best == SWC_FREE ? AT_KSWAPD : best == SWC_FULL ? AT_FLAG :
			   best == SWC_UNKNOWN ? AT_DIM : best == SWC_FRAG ? AT_COMPACT :
			   AT_RECLAIM);
	}
	free(state);
	return (n / per + w - 1) / w;
}

/* The device's counts per state at the last series point <= cursor. */
static void view_swap_counts(struct tui_state *st, struct canvas *body, int y,
			     const struct swc_dev *d)
{
	const struct swc_point *p = NULL;
	char lo[16];

	for (int i = 0; i < d->npts && d->pts[i].ts <= tui_trace_at(st, st->cursor); i++)
		p = &d->pts[i];
	if (!p) {
		canvas_put(body, y, 0, AT_DIM, "no cluster counts before the cursor");
		return;
	}
	if (p->largest_order == SWC_ORDER_UNKNOWN)
		snprintf(lo, sizeof(lo), "-");
	else
		snprintf(lo, sizeof(lo), "%d", p->largest_order);
	canvas_printf(body, y, 0, AT_NORMAL,
		      "free %u  nonfull %u  frag %u  full %u  discard %u  unknown %u  "
		      "largest order without fallback %s",
		      p->n[SWC_FREE], p->n[SWC_NONFULL], p->n[SWC_FRAG], p->n[SWC_FULL],
		      p->n[SWC_DISCARD], p->n[SWC_UNKNOWN], lo);
}

/* Without probes the samples give a device's used count, not where: say
 * so under the counts (the map is "?" once slots moved unseen). */
static int view_swap_detail_note(struct tui_state *st, struct canvas *body, int y,
				 const struct swapclust_model *m, const struct swc_dev *d)
{
	const struct swc_point *p = NULL;

	for (int i = 0; i < d->npts && d->pts[i].ts <= tui_trace_at(st, st->cursor); i++)
		p = &d->pts[i];
	if (swapclust_model_has_probes(m) && !d->detail_lost)
		return 0;
	if (p && d->detail_lost && p->ts >= d->lost_ts)
		canvas_printf(body, y, 0, AT_DIM, "%llu slots in use (swap sample); cluster "
			      "detail unknown: needs swap probes (mmscope record -g swap)",
			      (unsigned long long)p->used_slots);
	else
		canvas_put(body, y, 0, AT_DIM, "cluster detail needs swap probes (mmscope "
			   "record -g swap): free only while the samples show it empty");
	return 1;
}

/* attempts/ok/fallback come from the probes: "-" when the recording has
 * none (not 0), unless it says the swap probes were installed. */
static int view_swap_orders(struct tui_state *st, struct canvas *body, int y,
			    const struct swapclust_model *m)
{
	int rows = 0, pm = swapclust_model_has_probes(m) ||
			   analysis_probes_swap(st->data->an) == 1;

	canvas_printf(body, y + rows++, 0, AT_HEADER, "%-6s %10s %10s %10s %12s %12s", "order",
		      "attempts", "ok", "fallback", "swpout", "swpout_fb");
	for (int o = 0; o < SWC_NORDERS && y + rows < body->rows; o++) {
		const struct swc_order *so = swapclust_model_order(m, o);
		char a[16] = "-", b[16] = "-", t[24] = "-", k[24] = "-", f[24] = "-";

		if (!so || (!so->attempts && (!so->has_counters ||
		    (so->swpout_last == so->swpout_first && so->fb_last == so->fb_first))))
			continue;
		if (so->has_counters) {
			snprintf(a, sizeof(a), "%lld", (long long)(so->swpout_last - so->swpout_first));
			snprintf(b, sizeof(b), "%lld", (long long)(so->fb_last - so->fb_first));
		}
		if (pm) {
			snprintf(t, sizeof(t), "%llu", (unsigned long long)so->attempts);
			snprintf(k, sizeof(k), "%llu", (unsigned long long)so->ok);
			snprintf(f, sizeof(f), "%llu", (unsigned long long)so->fallback);
		}
		canvas_printf(body, y + rows++, 0, AT_NORMAL, "%-6d %10s %10s %10s %12s %12s",
			      o, t, k, f, a, b);
	}
	return rows;
}

/* Per order with counters: per column, the share of swap-outs that fell
 * back, 0-9 (tenths), blank when nothing was swapped out there. */
static int view_swap_rates(struct tui_state *st, struct canvas *body, int y,
			   const struct swapclust_model *m)
{
	int w = tui_axis_cols(body->cols), rows = 0;
	long cur = tui_ts_col(st, st->cursor);
	/* folio sizes from the recording's page size (64 KB on some arm64) */
	const struct analysis_info *in = st->data && st->data->an ?
					 analysis_info(st->data->an) : NULL;

	for (int o = 0; o < SWC_NORDERS && y + rows < body->rows; o++) {
		int n = swapclust_model_nctr(m, o);

		if (n < 2)
			continue;
		const struct swc_ctr_point *a = swapclust_model_ctr(m, o, 0),
					   *z = swapclust_model_ctr(m, o, n - 1);

		if (z->swpout == a->swpout && z->fallback == a->fallback)
			continue;	/* nothing swapped out at this size */
		if (in)
			canvas_printf(body, y + rows, 0, AT_LABEL, "%luK fb",
				      analysis_order_kb(in, o));
		else	/* no page size to tell the folio's: its order */
			canvas_printf(body, y + rows, 0, AT_LABEL, "o%d fb", o);
		for (int i = 1; i < n; i++) {
			const struct swc_ctr_point *p = swapclust_model_ctr(m, o, i - 1),
						   *q = swapclust_model_ctr(m, o, i);
			long c = tui_ts_col(st, tui_at_trace(st, q->ts));
			int64_t out = q->swpout - p->swpout, fb = q->fallback - p->fallback;

			if (c < 0 || c >= w || out + fb <= 0)
				continue;
			canvas_set(body, y + rows, TUI_LABEL_W + (int)c,
				   (char)('0' + (fb * 10 / (out + fb) > 9 ? 9 : fb * 10 / (out + fb))),
				   fb ? AT_FLAG : AT_KSWAPD);
		}
		if (cur >= 0 && cur < w)
			canvas_attr(body, y + rows, TUI_LABEL_W + (int)cur, 1, AT_CURSOR);
		rows++;
	}
	return rows;
}

static void view_swap_build(struct tui_state *st, struct canvas *body)
{
	const struct swapclust_model *m = view_swap_model(st);
	int ndev = m ? swapclust_model_ndevs(m) : 0, *dev = &view_swap_priv(st)->dev, y = 0;
	int ctr_sampled = 0, ctr_moved = 0;
	char ts[32];

	for (int o = 0; m && o < SWC_NORDERS; o++) {	/* mTHP counters: sampled, moved */
		const struct swc_order *so = swapclust_model_order(m, o);

		ctr_sampled |= so->has_counters;
		ctr_moved |= so->has_counters && (so->swpout_last != so->swpout_first ||
						  so->fb_last != so->fb_first);
	}
	if (!m || (!ndev && !swapclust_model_has_results(m) && !ctr_moved)) {
		canvas_put(body, 0, 0, AT_HEADER, "swap clusters");
		canvas_wrap(body, 2, 0, body->cols, body->rows - 2, AT_DIM, ctr_sampled ?
			    "No swap device in the swap samples and no swap slot kprobe events "
			    "(mmscope record -g swap); the mTHP counters show no swap-out." :
			    "Needs swap slot kprobe events (mmscope record -g swap) or swap/mthp "
			    "counter samples; this recording has neither.");
		return;
	}
	if (*dev >= ndev)
		*dev = ndev - 1;
	if (*dev < 0)
		*dev = 0;
	if (ndev) {
		const struct swc_dev *d = swapclust_model_dev(m, *dev);
		int maprows = body->rows / 2 - 2;

		canvas_printf(body, y++, 0, AT_HEADER,
			      "swap device %d/%d %s: %d cluster%s of %d slots at %s s", *dev + 1, ndev,
			      d->name[0] ? d->name : "(unnamed)", d->nclusters,
			      plural((unsigned)d->nclusters),
			      swapclust_model_cluster_size(m), tui_fmt_ts(st, st->cursor, ts, sizeof(ts)));
		view_swap_counts(st, body, y++, d);
		y += view_swap_detail_note(st, body, y, m, d);
		y += view_swap_map(st, body, y, maprows > 1 ? maprows : 1, m, *dev);
	} else {
		canvas_put(body, y++, 0, AT_HEADER, "swap clusters");
		canvas_put(body, y++, 0, AT_DIM,
			   "no swap kprobe events (mmscope record -g swap): no cluster map");
	}
	y++;
	y += view_swap_orders(st, body, y, m);
	view_swap_rates(st, body, y + 1, m);
}

static unsigned view_swap_handle(struct tui_state *st, enum tui_action a)
{
	int *dev = &view_swap_priv(st)->dev;

	if (a == ACT_UP || a == ACT_DOWN) {
		*dev += a == ACT_UP ? -1 : 1;
		if (*dev < 0)
			*dev = 0;
		return TUI_HANDLED | TUI_REDRAW;
	}
	return 0;
}

const struct view_ops view_swap_ops = {
	.name = "swap",
	.priv_new = view_swap_priv_new,
	.priv_free = free,
	.build = view_swap_build,
	.handle = view_swap_handle,
};
