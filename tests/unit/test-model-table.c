// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The analysis driver's model table (models[] in src/analysis.c): every
 * model is one entry with its model_ops, the older ones (handoff, reclaim,
 * compaction, counters, frag, consistency, swapclust, zswap, lanes) too;
 * their typed accessors are analysis_model() typed; and on the real
 * recordings of samples/ the table feeds and finishes each of them exactly
 * as the models fed by hand with the same records (the analysis' tap),
 * figure for figure; live, analysis_live_sync() syncs them.
 */
#include "config.h"
#include "analysis.h"
#include "model-khugepaged.h"
#include "model-memcgs.h"
#include "model-oom.h"
#include "model-phases.h"
#include "model-run.h"
#include "model-stacks.h"
#include "real-recordings.h"
#include "tap.h"

#include <event-parse.h>
#include <stdio.h>
#include <string.h>

#define diag(...) do { printf("# "); printf(__VA_ARGS__); putchar('\n'); } while (0)

static const struct model_ops *const want[] = {
	&handoff_model_ops, &reclaim_model_ops, &compaction_model_ops, &counters_model_ops,
	&frag_model_ops, &consistency_model_ops, &swapclust_model_ops, &zswap_model_ops,
	&lanes_model_ops, &khugepaged_model_ops, &oom_model_ops, &phases_model_ops,
	&run_model_ops, &stacks_model_ops, &memcgs_model_ops,
};
#define NWANT (sizeof(want) / sizeof(want[0]))

static int table_index(const struct model_ops *ops)
{
	const struct model_ops *const *t = analysis_models();

	for (int i = 0; t[i]; i++)
		if (t[i] == ops)
			return i;
	return -1;
}

static void check_table(void)
{
	const struct model_ops *const *t = analysis_models();
	int n = 0, shape = 1, unique = 1;

	for (; t[n]; n++) {
		const struct model_ops *o = t[n];

		if (!o->name || !o->add || !o->destroy || !o->create == !o->create_env) {
			shape = 0;
			diag("%s: add, destroy and one of create/create_env wanted",
			     o->name ? o->name : "(no name)");
		}
		for (int k = 0; k < n; k++)
			if (t[k] == o || (o->name && t[k]->name && !strcmp(t[k]->name, o->name)))
				unique = 0;
	}
	ok(n >= (int)NWANT, "%d models in the table", n);
	for (size_t i = 0; i < NWANT; i++)
		ok(table_index(want[i]) >= 0, "%s is in the table", want[i]->name);
	ok(shape, "each entry can be made, fed and freed");
	ok(unique, "no model twice");
	ok(table_index(&consistency_model_ops) > table_index(&reclaim_model_ops) &&
	   table_index(&consistency_model_ops) > table_index(&compaction_model_ops),
	   "consistency is fed after the reclaim and compaction models it reads");
	ok(table_index(&lanes_model_ops) >= 0 && lanes_model_ops.sync,
	   "lanes are synced live through the table");
}

/* The older models fed by hand, as analysis.c fed them before the table. */
struct by_hand {
	struct handoff_params hp;
	struct handoff_model *handoff;
	struct reclaim_model *reclaim;
	struct compaction_model *compaction;
	struct counters_model *counters;
	struct frag_model *frag;
	struct consistency_model *consistency;
	struct swapclust_model *swapclust;
	struct zswap_model *zswap;
	struct lanes *lanes;
	uint64_t records;
};

static void by_hand_add(void *ctx, const struct record *r)
{
	struct by_hand *h = ctx;

	handoff_model_add(h->handoff, r);
	reclaim_model_add(h->reclaim, r);
	compaction_model_add(h->compaction, r);
	counters_model_add(h->counters, r);
	frag_model_add(h->frag, r);
	consistency_model_add(h->consistency, r);
	swapclust_model_add(h->swapclust, r);
	zswap_model_add(h->zswap, r);
	lanes_add(h->lanes, r);
	h->records++;
}

static void by_hand_free(struct by_hand *h)
{
	consistency_model_free(h->consistency);
	handoff_model_free(h->handoff);
	reclaim_model_free(h->reclaim);
	compaction_model_free(h->compaction);
	counters_model_free(h->counters);
	frag_model_free(h->frag);
	swapclust_model_free(h->swapclust);
	zswap_model_free(h->zswap);
	lanes_free(h->lanes);
}

static int lanes_spans(const struct lanes *l)
{
	int n = 0;

	for (int i = 0; i < lanes_nnodes(l); i++)
		for (int k = 0; k < LANE_NR; k++)
			n += lanes_node(l, i) ? lanes_node(l, i)->lane[k].n : 0;
	return n;
}

static void check_recording(const char *path)
{
	struct analysis_opts o;
	struct by_hand h = { 0 };
	struct analysis *a;
	char *err = NULL;
	const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	int same = 1;

	handoff_params_default(&h.hp);
	h.handoff = handoff_model_new(&h.hp);
	h.reclaim = reclaim_model_new();
	h.compaction = compaction_model_new();
	h.counters = counters_model_new();
	h.frag = frag_model_new();
	h.consistency = consistency_model_new(h.reclaim, h.compaction);
	h.swapclust = swapclust_model_new(0);
	h.zswap = zswap_model_new();
	h.lanes = lanes_new();
	analysis_opts_default(&o);
	o.tap = by_hand_add;
	o.tap_ctx = &h;
	o.unnamed_frames = 1;
	a = analysis_run(path, &o, &err);
	if (!ok(a != NULL, "%s: analysed", name)) {
		diag("%s", err ? err : "?");
		free(err);
		by_hand_free(&h);
		return;
	}
	const struct analysis_info *in = analysis_info(a);

	handoff_model_finish(h.handoff, in->last_ts);
	reclaim_model_finish(h.reclaim, in->last_ts);
	compaction_model_finish(h.compaction, in->last_ts);
	swapclust_model_finish(h.swapclust, in->last_ts);
	lanes_finish(h.lanes, in->last_ts);

	ok(analysis_handoff(a) && analysis_handoff(a) == analysis_model(a, &handoff_model_ops) &&
	   analysis_reclaim(a) && analysis_reclaim(a) == analysis_model(a, &reclaim_model_ops) &&
	   analysis_compaction(a) &&
	   analysis_compaction(a) == analysis_model(a, &compaction_model_ops) &&
	   analysis_counters(a) && analysis_counters(a) == analysis_model(a, &counters_model_ops) &&
	   analysis_frag(a) && analysis_frag(a) == analysis_model(a, &frag_model_ops) &&
	   analysis_consistency(a) &&
	   analysis_consistency(a) == analysis_model(a, &consistency_model_ops) &&
	   analysis_swapclust(a) && analysis_swapclust(a) == analysis_model(a, &swapclust_model_ops) &&
	   analysis_zswap(a) && analysis_zswap(a) == analysis_model(a, &zswap_model_ops) &&
	   analysis_lanes(a) && analysis_lanes(a) == analysis_model(a, &lanes_model_ops),
	   "%s: every older accessor is analysis_model()", name);

#define SAME(what, table, hand) do { \
	long long t_ = (long long)(table), h_ = (long long)(hand); \
	if (t_ != h_) { \
		same = 0; \
		diag("%s: %s: %lld through the table, %lld by hand", name, what, t_, h_); \
	} \
} while (0)
	uint64_t d1 = 0, d2 = 0;
	struct consistency_row r1[CONSISTENCY_NROWS], r2[CONSISTENCY_NROWS];
	int64_t l1 = 0, l2 = 0;

	SAME("stalls", reclaim_model_nstalls(analysis_reclaim(a), &d1),
	     reclaim_model_nstalls(h.reclaim, &d2));
	SAME("stalls dropped", d1, d2);
	SAME("compaction runs", compaction_model_nruns(analysis_compaction(a), &d1),
	     compaction_model_nruns(h.compaction, &d2));
	SAME("sample sets", counters_model_nsets(analysis_counters(a)),
	     counters_model_nsets(h.counters));
	SAME("handoff nodes", handoff_model_nnodes(analysis_handoff(a)),
	     handoff_model_nnodes(h.handoff));
	for (int i = 0; i < handoff_model_nnodes(h.handoff); i++) {
		SAME("kswapd episodes", handoff_model_nepisodes(analysis_handoff(a), i),
		     handoff_model_nepisodes(h.handoff, i));
		SAME("kcompactd requests", handoff_model_nkc(analysis_handoff(a), i),
		     handoff_model_nkc(h.handoff, i));
	}
	SAME("frag zones", frag_model_nzones(analysis_frag(a)), frag_model_nzones(h.frag));
	SAME("consistency rows",
	     consistency_model_rows(analysis_consistency(a), analysis_counters(a), r1,
				    CONSISTENCY_NROWS, &l1),
	     consistency_model_rows(h.consistency, h.counters, r2, CONSISTENCY_NROWS, &l2));
	SAME("consistency lost", l1, l2);
	SAME("swap devices", swapclust_model_ndevs(analysis_swapclust(a)),
	     swapclust_model_ndevs(h.swapclust));
	SAME("swap orders", swapclust_model_norders(analysis_swapclust(a)),
	     swapclust_model_norders(h.swapclust));
	SAME("zswap points", zswap_model_npoints(analysis_zswap(a)), zswap_model_npoints(h.zswap));
	SAME("zswap rejects", zswap_model_nrejects(analysis_zswap(a)),
	     zswap_model_nrejects(h.zswap));
	SAME("lane nodes", lanes_nnodes(analysis_lanes(a)), lanes_nnodes(h.lanes));
	SAME("lane spans", lanes_spans(analysis_lanes(a)), lanes_spans(h.lanes));
	ok(same && h.records > 0, "%s: %llu records, the table's models give what models fed "
	   "by hand give", name, (unsigned long long)h.records);
	analysis_free(a);
	by_hand_free(&h);
}

/* Live (tui --live): analysis_live_sync() syncs the models through the
 * table, so an open stall shows in the lanes up to now. */
static void check_live_sync(void)
{
	struct tep_handle *tep = tep_alloc();
	char *err = NULL;
	struct analysis *a = analysis_live_new(tep, "6.18", "probe_set=none\nprobes=\n", NULL,
					       &err);
	struct record r;

	if (!ok(a != NULL, "live analysis (%s)", err ? err : "ok")) {
		free(err);
		tep_free(tep);
		return;
	}
	memset(&r, 0, sizeof(r));
	r.type = REC_RECLAIM_BEGIN;
	r.rbegin.kind = RK_DIRECT;
	r.pid = 100;
	r.ts = 1100000000ULL;
	analysis_feed(a, &r);
	analysis_live_sync(a, 1500000000ULL);
	const struct lane *rc = &lanes_node(analysis_lanes(a), 0)->lane[LANE_RECLAIM];

	ok(rc->n == 1 && (rc->spans[0].flags & LANE_OPEN) && rc->spans[0].end == 1500000000ULL,
	   "live sync: the open stall shown up to now");
	analysis_free(a);
	tep_free(tep);
}

int main(void)
{
	char **paths;
	int n = real_recordings(&paths), used = 0;

	check_table();
	check_live_sync();
	for (int i = 0; i < n; i++)
		if (strstr(paths[i], "/samples/")) {
			check_recording(paths[i]);
			used++;
		}
	ok(used >= 6, "%d real recordings of samples/", used);
	real_recordings_free(paths, n);
	return tap_done();
}
