// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The initial streaming pass of `mmscope tui`: reads every event once,
 * in time order, and keeps only what is bounded (the time range and the
 * counts). Progress is reported every PROGRESS_EVERY events against the
 * total the CPU stats promise, when the file has them.
 */
#include "config.h"
#include "data.h"
#include "util.h"
#include "tracedat-read.h"

#include <stdlib.h>

#define PROGRESS_EVERY 16384

static uint64_t tui_data_expected(struct td_file *tf)
{
	uint64_t n = 0;

	for (int b = 0; b < td_nbuffers(tf); b++) {
		const struct td_buffer *buf = td_buffer(tf, b);

		for (int c = 0; c < buf->ncpus; c++)
			if (buf->stats && buf->stats[c].present)
				n += buf->stats[c].read ? buf->stats[c].read : buf->stats[c].entries;
	}
	return n;
}

struct tui_data *tui_data_load(struct td_file *tf, tui_progress_fn progress, void *ctx,
			       char **err)
{
	struct tui_data *d = xcalloc(1, sizeof(*d));
	struct td_cursor *cur = td_cursor_new(tf, -1, err);
	struct td_event ev;
	int got;

	if (!cur) {
		free(d);
		return NULL;
	}
	d->expected = tui_data_expected(tf);
	while ((got = td_cursor_next(cur, &ev, err)) > 0) {
		if (!d->events++)
			d->first_ts = ev.ts;
		d->last_ts = ev.ts;
		if (progress && d->events % PROGRESS_EVERY == 0)
			progress(ctx, d->events, d->expected);
	}
	td_cursor_free(cur);
	if (got < 0) {
		free(d);
		return NULL;
	}
	if (progress)
		progress(ctx, d->events, d->expected);
	return d;
}

void tui_data_free(struct tui_data *d)
{
	free(d);
}
