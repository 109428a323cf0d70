// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The initial pass of `mmscope tui`: analysis_run() streams the
 * recording once into the models. Progress is reported every
 * PROGRESS_EVERY records through the analysis tap, with the timestamp
 * reached.
 */
#include "config.h"
#include "data.h"
#include "analysis.h"
#include "live.h"
#include "util.h"

#include <stdlib.h>

#define PROGRESS_EVERY 8192

struct tui_data_pass {
	tui_progress_fn progress;
	void *ctx;
	uint64_t records;
};

static void tui_data_tap(void *ctx, const struct record *r)
{
	struct tui_data_pass *p = ctx;

	if (p->progress && ++p->records % PROGRESS_EVERY == 0)
		p->progress(p->ctx, p->records, r->ts);
}

struct tui_data *tui_data_load(const char *path, tui_progress_fn progress, void *ctx,
			       char **err)
{
	struct tui_data_pass p = { progress, ctx, 0 };
	struct analysis_opts o;
	const struct analysis_info *in;
	struct tui_data *d;

	analysis_opts_default(&o);
	o.tap = tui_data_tap;
	o.tap_ctx = &p;
	if (progress)
		progress(ctx, 0, 0);
	d = xcalloc(1, sizeof(*d));
	d->an = analysis_run(path, &o, err);
	if (!d->an) {
		free(d);
		return NULL;
	}
	in = analysis_info(d->an);
	d->first_ts = in->first_ts;
	d->last_ts = in->last_ts;
	d->events = in->events;
	d->lanes = analysis_lanes(d->an);
	return d;
}

struct tui_data *tui_data_live(struct live *l)
{
	struct tui_data *d = xcalloc(1, sizeof(*d));

	d->an = live_analysis(l);
	d->lanes = analysis_lanes(d->an);
	d->borrowed = 1;
	tui_data_live_update(d, l);
	return d;
}

void tui_data_live_update(struct tui_data *d, struct live *l)
{
	d->first_ts = live_first_ts(l);
	d->last_ts = live_horizon(l) > d->first_ts ? live_horizon(l) : d->first_ts;
	d->events = analysis_info(d->an)->events;
}

void tui_data_free(struct tui_data *d)
{
	if (!d)
		return;
	if (!d->borrowed)
		analysis_free(d->an);
	free(d);
}
