// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Host histories (src/history.h) from hand-written metadata: who is one
 * host (machine id, boot id, or one boot told by the clocks), the order
 * across boots and clocks, incidents inside a run, overlaps, gaps and how
 * each run began.
 */
#include "config.h"
#include "history.h"
#include "util.h"
#include "tap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define S (1000000000ull)
#define MACHINE "3d1219c7c4c5404aaa1f6d2a48adfda4"
#define OTHER_MACHINE "00000000000000000000000000000001"
#define BOOT1 "32ce32ed-64e4-48b8-b341-08bfbf6af72e"
#define BOOT2 "11111111-2222-3333-4444-555555555555"
#define WALL0 1796108800ull	/* 2026-12-01T06:26:40Z, s */

struct rec {
	char meta[1024], last[1024];
	struct history_in in;
};

/* A recording: host, machine and boot ids ("" none), its clock, the trace
 * and wall clocks at its start (start_trace 0: none), its events' span
 * (first 0: none), mode, events= and its stop_reason. */
static void mk(struct rec *r, const char *name, const char *host, const char *machine,
	       const char *boot, uint64_t start_trace, uint64_t start_wall, uint64_t first,
	       uint64_t last, int flight, const char *events, const char *stop)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "mmscope=test\nkernel=6.18.0\nhost=%s\nclock=mono\n", host);
	if (*machine)
		strbuf_addf(&sb, "machine_id=%s\n", machine);
	if (*boot)
		strbuf_addf(&sb, "boot_id=%s\n", boot);
	strbuf_addf(&sb, "start_realtime_ns=%llu\n", (unsigned long long)start_wall);
	if (start_trace)
		strbuf_addf(&sb, "start_trace_ns=%llu\n", (unsigned long long)start_trace);
	strbuf_addf(&sb, "run_id=%s\nevents=%s\nstop_reason=%s\n", name, events, stop);
	if (flight)
		strbuf_addstr(&sb, "mode=flight-recorder\ntrigger_name=oom\n");
	snprintf(r->meta, sizeof(r->meta), "%s", sb.buf);
	snprintf(r->last, sizeof(r->last), "%s", sb.buf);
	strbuf_release(&sb);
	r->in = (struct history_in){ .name = name, .first_meta = r->meta, .last_meta = r->last,
				     .has_span = first != 0, .first_ts = first, .last_ts = last,
				     .npaths = 1 };
}

static int build(struct rec *r, int n, struct history *h, char **err)
{
	struct history_in in[16];

	for (int i = 0; i < n; i++)
		in[i] = r[i].in;
	*err = NULL;
	return history_build(in, n, h, err);
}

/* the names of host's runs in time order, "a b c" */
static const char *order(const struct history *h, struct rec *r, int host, char *buf,
			 size_t len)
{
	buf[0] = '\0';
	for (int k = 0; k < h->host_n[host]; k++) {
		const struct history_run *x = &h->run[h->host_first[host] + k];

		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", k ? " " : "",
			 r[x->in].in.name);
	}
	return buf;
}

int main(void)
{
	struct rec r[8];
	struct history h;
	char *err, buf[256];
	int64_t from, to;

	/* 1. three runs of one boot given out of order: one host, in trace
	 * time order, two gaps; began after a signal: restart; after a kill
	 * (recovered): restart after recover */
	mk(&r[0], "c", "vm", MACHINE, BOOT1, 300 * S, (WALL0 + 300) * S, 300 * S, 400 * S, 0,
	   "a:b", "command exited");
	mk(&r[1], "a", "vm", MACHINE, BOOT1, 100 * S, (WALL0 + 100) * S, 100 * S, 150 * S, 0,
	   "a:b", "signal");
	mk(&r[2], "b", "vm", MACHINE, BOOT1, 200 * S, (WALL0 + 200) * S, 200 * S, 250 * S, 0,
	   "a:b", "recovered");
	ok(!build(r, 3, &h, &err), "one boot: built");
	is_int(h.nhost, 1, "one boot: one host");
	is_str(order(&h, r, 0, buf, sizeof(buf)), "a b c", "one boot: trace time order");
	is_int(h.run[0].began, HIST_BEGAN_FIRST, "the first run: start");
	is_int(h.run[1].began, HIST_BEGAN_RESTART, "after a signal: restart");
	is_int(h.run[2].began, HIST_BEGAN_RECOVER, "after a recovered kill: restart after recover");
	ok(history_gap_before(&h, 1, &from, &to) && from == (int64_t)(150 * S) &&
	   to == (int64_t)(200 * S), "the gap before b: from a's last event to b's first");
	ok(!history_gap_before(&h, 0, &from, &to), "no gap before the first run");
	history_free(&h);

	/* 2. one machine over two boots: placed by the wall clock; the later
	 * boot's trace times are shifted onto the first's line */
	mk(&r[0], "late", "vm", MACHINE, BOOT2, 50 * S, (WALL0 + 5000) * S, 50 * S, 60 * S, 0,
	   "a:b", "signal");
	mk(&r[1], "early", "vm", MACHINE, BOOT1, 900 * S, (WALL0 + 1000) * S, 900 * S, 950 * S, 0,
	   "a:b", "signal");
	ok(!build(r, 2, &h, &err), "two boots: built");
	is_int(h.nhost, 1, "one machine id over two boots: one host");
	is_str(order(&h, r, 0, buf, sizeof(buf)), "early late", "two boots: wall clock order");
	is_int(h.run[1].began, HIST_BEGAN_REBOOT, "the later boot began with a reboot");
	ok(history_time(&h.run[1], 50 * S) == (int64_t)(900 * S + 4000 * S),
	   "the later boot's first event 4000 s after the first's on one line");
	ok(history_gap_before(&h, 1, &from, &to) && to - from == (int64_t)(3950 * S),
	   "the gap across the reboot: 3950 s");
	history_free(&h);

	/* 3. no machine id: a host name is no identity; one boot is told by
	 * the clocks (the boot's wall time within 2 s), another is not */
	mk(&r[0], "x1", "vm", "", "", 100 * S, (WALL0 + 100) * S, 100 * S, 110 * S, 0, "a:b",
	   "command exited");
	mk(&r[1], "x2", "vm", "", "", 200 * S, (WALL0 + 201) * S, 200 * S, 210 * S, 0, "a:b",
	   "command exited");
	mk(&r[2], "y", "vm", "", "", 100 * S, (WALL0 + 9000) * S, 100 * S, 110 * S, 0, "a:b",
	   "command exited");
	ok(!build(r, 3, &h, &err), "no ids: built");
	is_int(h.nhost, 2, "no ids: one boot by the clocks, the other boot a host of its own");
	is_str(order(&h, r, 0, buf, sizeof(buf)), "x1 x2", "no ids: x1 and x2 one history");
	is_int(h.run[1].began, HIST_BEGAN_NEW, "after a run whose command exited: new run");
	history_free(&h);

	/* 4. two machines: two hosts, whatever their names */
	mk(&r[0], "m1", "vm", MACHINE, BOOT1, 100 * S, (WALL0 + 100) * S, 100 * S, 110 * S, 0,
	   "a:b", "signal");
	mk(&r[1], "m2", "vm", OTHER_MACHINE, BOOT2, 100 * S, (WALL0 + 100) * S, 100 * S, 110 * S,
	   0, "a:b", "signal");
	ok(!build(r, 2, &h, &err) && h.nhost == 2, "two machine ids: two hosts");
	history_free(&h);

	/* 5. a flight incident inside a continuous run that recorded its
	 * events: inside, not on the time line; one with an event the run
	 * lacks: an overlap; one after the run: a run of its own, began by
	 * its trigger */
	mk(&r[0], "cont", "vm", MACHINE, BOOT1, 100 * S, (WALL0 + 100) * S, 100 * S, 500 * S, 0,
	   "oom:mark_victim,vmscan:x,kmem:y", "signal");
	mk(&r[1], "inc1", "vm", MACHINE, BOOT1, 200 * S, (WALL0 + 200) * S, 200 * S, 210 * S, 1,
	   "vmscan:x,oom:mark_victim", "trigger:oom");
	mk(&r[2], "inc2", "vm", MACHINE, BOOT1, 300 * S, (WALL0 + 300) * S, 300 * S, 310 * S, 1,
	   "vmscan:x,compaction:z", "trigger:oom");
	mk(&r[3], "inc3", "vm", MACHINE, BOOT1, 600 * S, (WALL0 + 600) * S, 600 * S, 610 * S, 1,
	   "vmscan:x", "trigger:oom");
	ok(!build(r, 4, &h, &err), "incidents: built");
	is_str(order(&h, r, 0, buf, sizeof(buf)), "cont inc1 inc2 inc3", "incidents: in time order");
	is_int(h.run[1].rel, HIST_INSIDE, "an incident of events the run recorded: inside");
	is_int(h.run[1].other, 0, "inside the continuous run");
	is_int(h.run[2].rel, HIST_OVERLAP, "an incident with an event the run lacks: overlap");
	is_int(h.run[3].rel, HIST_RUN, "an incident after the run: on the time line");
	is_int(h.run[3].began, HIST_BEGAN_TRIGGER, "an incident began by its trigger");
	ok(history_gap_before(&h, 3, &from, &to) && from == (int64_t)(500 * S),
	   "the gap before inc3 from the continuous run's end");
	is_int(history_prev(&h, 3), 2, "the run before inc3 on the time line: inc2");
	history_free(&h);

	/* 5b. an incident whose ring began in the gap before the run: only
	 * its part before the run is its own; the run after it began as a
	 * restart after the run before it, whatever the incident */
	mk(&r[0], "first", "vm", MACHINE, BOOT1, 10 * S, (WALL0 + 10) * S, 10 * S, 100 * S, 0,
	   "vmscan:x", "signal");
	mk(&r[1], "second", "vm", MACHINE, BOOT1, 200 * S, (WALL0 + 200) * S, 200 * S, 500 * S, 0,
	   "vmscan:x", "signal");
	mk(&r[2], "inc", "vm", MACHINE, BOOT1, 150 * S, (WALL0 + 150) * S, 150 * S, 250 * S, 1,
	   "vmscan:x", "trigger:oom");
	ok(!build(r, 3, &h, &err), "partly: built");
	is_str(order(&h, r, 0, buf, sizeof(buf)), "first inc second", "partly: in time order");
	is_int(h.run[1].rel, HIST_PARTLY, "an incident begun in the gap: partly inside");
	ok(h.run[1].clip_first == 150 * S && h.run[1].clip_last == 200 * S - 1,
	   "its own part: from its first event to the run's first");
	ok(history_gap_before(&h, 1, &from, &to) && from == (int64_t)(100 * S) &&
	   to == (int64_t)(150 * S), "the gap before it: 50 s, to its first event");
	ok(!history_gap_before(&h, 2, &from, &to), "no gap between its own part and the run");
	is_int(h.run[2].began, HIST_BEGAN_RESTART, "the run after it: a restart after the first");
	history_free(&h);

	/* 6. a boot without the wall clock beside another: cannot be put
	 * on one line; refused naming every run */
	mk(&r[0], "w", "vm", MACHINE, BOOT1, 100 * S, (WALL0 + 100) * S, 100 * S, 110 * S, 0,
	   "a:b", "signal");
	mk(&r[1], "nowall", "vm", MACHINE, BOOT2, 100 * S, 0, 100 * S, 110 * S, 0, "a:b",
	   "signal");
	/* no start_realtime_ns at all */
	{
		char *p = strstr(r[1].meta, "start_realtime_ns=");

		memmove(p, strchr(p, '\n') + 1, strlen(strchr(p, '\n') + 1) + 1);
		snprintf(r[1].last, sizeof(r[1].last), "%s", r[1].meta);
	}
	{
		int rc = build(r, 2, &h, &err);

		ok(rc && err && strstr(err, "cannot be put in one time line") &&
		   strstr(err, "\n  w (") && strstr(err, "\n  nowall ("),
		   "a boot without the wall clock: refused, each run named (%.*s)",
		   err ? (int)strcspn(err, "\n") : 8, err ? err : "no error");
	}
	free(err);

	/* 7. a file of no mmscope metadata: a history of its own */
	r[0].in.first_meta = r[0].in.last_meta = NULL;
	mk(&r[1], "m", "vm", MACHINE, BOOT1, 100 * S, (WALL0 + 100) * S, 100 * S, 110 * S, 0,
	   "a:b", "signal");
	ok(!build(r, 2, &h, &err) && h.nhost == 2, "a trace-cmd file beside a run: two hosts");
	history_free(&h);
	return tap_done();
}
