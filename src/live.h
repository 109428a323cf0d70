/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A live session (mmscope tui --live): `mmscope record` runs as a child
 * process into a spool, exactly as it would alone (same instance, probes,
 * counter samples, crash safety, cleanup), and this side tails the
 * spool's page files, merges the pages in time order (live-merge.h) and
 * feeds the analysis models event by event (analysis_live_*). Front ends
 * call live_poll() every second or so and read live_analysis().
 *
 * Events reach the spool within about a second (the recorder reads the
 * page being written once per second), so the models are fed up to a
 * horizon LIVE_LAG_NS behind now; once the recorder has ended, up to
 * the last event.
 *
 * The recorder's own messages go to a log in the session's private
 * directory; its last line is the error when it fails. Without -o the
 * directory (spool and the file the recorder writes at the end) is
 * removed by live_free().
 */
#ifndef MMSCOPE_LIVE_H
#define MMSCOPE_LIVE_H

#include <stdint.h>

#define LIVE_LAG_NS 1500000000ULL

struct analysis;
struct tep_handle;

struct live_opts {
	const char *exe;		/* the mmscope binary to run as recorder */
	/* record's options [-- COMMAND...] as the user typed them, checked by
	 * record_parse_live() (cmd.h) and NULL-terminated; a -o in them is
	 * out, so the -o the session passes first and theirs agree */
	char *const *record_args;
	const char *out;		/* keep the recording here, or NULL */
	int force;			/* replace out if it exists */
	const char *tmpdir;		/* where the private directory goes */
};

struct live;

/* Starts the recorder and waits until it records. NULL with *err. */
struct live *live_start(const struct live_opts *o, char **err);
/* Takes what the recorder spooled and feeds the models. 0 while it
 * records, 1 once it has ended and everything is read, -1 with *err. */
int live_poll(struct live *l, char **err);
/* Stops the recorder (it finishes its file) and reads the rest. 0, or
 * -1 with *err when the recorder failed (its last message). */
int live_stop(struct live *l, char **err);
void live_free(struct live *l);

struct analysis *live_analysis(const struct live *l);
struct tep_handle *live_tep(const struct live *l);
/* The first event (the session's start before there is one), and how
 * far the models are fed (trace clock). */
uint64_t live_first_ts(const struct live *l);
uint64_t live_horizon(const struct live *l);
/* "live: 12345 events, 0 lost", or how the recorder ended (with the
 * COMMAND's exit status when it is not 0). */
const char *live_status(const struct live *l);
/* The recorder has ended (its file is written, or it failed). */
int live_ended(const struct live *l);
/*
 * The last LIVE_RECENT events fed (raw copies), for the events view:
 * live_recent(l, i, &ev) fills ev with the i-th oldest of them (valid
 * until the next live_poll), 0 past the last.
 */
#define LIVE_RECENT 4096
struct td_event;
int live_recent_count(const struct live *l);
int live_recent(const struct live *l, int i, struct td_event *ev);

/* What the recorder said while starting (warnings), or "". */
const char *live_notes(const struct live *l);

#endif
