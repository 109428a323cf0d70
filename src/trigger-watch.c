// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The event triggers' watch (see trigger-watch.h): a collector of its own
 * with no group but the triggers' events, read into a live merge, parsed
 * and handed to the pure trigger state.
 */
#include "config.h"
#include "trigger-watch.h"
#include "collector.h"
#include "live-merge.h"
#include "parsers.h"
#include "trigger-events.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>
#include <tracefs.h>

#define WATCH_BUFFER_KB 2048

struct trigger_watch {
	struct collector *col;
	struct tep_handle *tep;
	struct parser_set *ps;
	struct live_merge *merge;
	struct trig_events *te;
	struct collector_cpustat *stats;
	const char **events;
};

static void watch_sink(void *ctx, const struct record *r)
{
	trig_events_record(ctx, r);
}

static void watch_event(void *ctx, const struct td_event *ev)
{
	struct trigger_watch *w = ctx;

	if (ev->event)
		parser_set_parse(w->ps, ev->event, (struct tep_record *)&ev->record, ev->ts,
				 ev->cpu, watch_sink, w->te);
}

static int watch_page(void *ctx, int cpu, const void *page, char **err)
{
	struct trigger_watch *w = ctx;

	if (live_merge_add_page(w->merge, cpu, page))
		return set_err(err, "trigger watch: cannot queue a page of CPU %d", cpu);
	return 0;
}

struct trigger_watch *trigger_watch_open(const struct trigger *t, int n, const char *clock,
					 char **err)
{
	static const char *const systems[] = { "vmscan", "compaction", "oom", NULL };
	struct trigger_watch *w = xcalloc(1, sizeof(*w));
	struct collector_opts co = { 0 };
	int ne = 0;

	for (int i = 0; i < n; i++) {
		if (!trigger_is_event(&t[i]))
			continue;
		for (const char *const *e = trigger_events(&t[i]); *e; e++) {
			int dup = 0;

			for (int k = 0; k < ne; k++)
				dup |= !strcmp(w->events[k], *e);
			if (dup)
				continue;
			w->events = xreallocarray(w->events, (size_t)ne + 2, sizeof(*w->events));
			w->events[ne++] = *e;
			w->events[ne] = NULL;
		}
	}
	co.groups = "none";
	co.extra = w->events;
	co.buffer_kb = WATCH_BUFFER_KB;
	co.clock = clock;
	co.no_probes = 1;
	co.suffix = "w";
	w->col = collector_open(&co, err);
	if (!w->col)
		goto fail;
	w->tep = tracefs_local_events_system(NULL, systems);
	if (!w->tep) {
		set_err(err, "trigger watch: cannot read the event formats");
		goto fail;
	}
	w->ps = parser_set_new(w->tep);
	w->merge = live_merge_new(w->tep, collector_ncpus(w->col), collector_page_size(w->col));
	w->te = trig_events_new(t, n);
	w->stats = xcalloc((size_t)collector_ncpus(w->col), sizeof(*w->stats));
	if (collector_start(w->col, err))
		goto fail;
	return w;
fail:
	trigger_watch_close(w);
	return NULL;
}

int trigger_watch_poll(struct trigger_watch *w, int partial, uint64_t horizon, char **err)
{
	if (collector_read_fn(w->col, partial ? COLLECTOR_READ_PARTIAL : COLLECTOR_READ_FULL,
			      watch_page, w, err) < 0)
		return -1;
	live_merge_drain(w->merge, horizon, watch_event, w);
	return 0;
}

int trigger_watch_check(struct trigger_watch *w, int i, uint64_t now, char *why, size_t n)
{
	return trig_events_check(w->te, i, now, why, n);
}

const struct trigger_fired *trigger_watch_fired(struct trigger_watch *w, int i)
{
	return trig_events_fired(w->te, i);
}

uint64_t trigger_watch_dropped(struct trigger_watch *w)
{
	uint64_t d = 0;

	collector_stats(w->col, w->stats);
	for (int cpu = 0; cpu < collector_ncpus(w->col); cpu++)
		d += w->stats[cpu].dropped + w->stats[cpu].overrun;
	return d;
}

void trigger_watch_close(struct trigger_watch *w)
{
	if (!w)
		return;
	collector_close(w->col);
	live_merge_free(w->merge);
	if (w->ps)
		parser_set_free(w->ps);
	if (w->tep)
		tep_free(w->tep);
	trig_events_free(w->te);
	free(w->stats);
	free(w->events);
	free(w);
}
