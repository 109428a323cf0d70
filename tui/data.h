/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What `mmscope tui` builds in its one streaming pass over a recording:
 * the time range, the event count and, once the analysis models exist,
 * their results plus the time-indexed lanes the timeline draws. Views
 * read it; nothing in it prints or draws.
 */
#ifndef MMSCOPE_TUI_DATA_H
#define MMSCOPE_TUI_DATA_H

#include <stdint.h>

struct td_file;

struct tui_data {
	uint64_t first_ts, last_ts;
	uint64_t events;
	uint64_t expected;		/* from the CPU stats, 0 if unknown */
};

/* Called now and then during the pass: events read so far, and the
 * expected total (0 when the file does not say). */
typedef void (*tui_progress_fn)(void *ctx, uint64_t events, uint64_t expected);

/* One pass over tf. NULL with *err set on failure. */
struct tui_data *tui_data_load(struct td_file *tf, tui_progress_fn progress, void *ctx,
			       char **err);
void tui_data_free(struct tui_data *d);

#endif
