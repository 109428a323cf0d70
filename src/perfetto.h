/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A recording's models as a Perfetto trace (TracePacket / TrackEvent
 * protobuf, written with src/pb-write.h): per node a kswapd track of its
 * episodes, kcompactd tracks of its requests and compaction runs, and a
 * flow from each kswapd episode to the kcompactd request it handed off
 * to; per task its stalls (direct, memcg, softlimit and node reclaim,
 * direct compaction) on tracks under its process and thread; counter
 * tracks of what was sampled (zone free pages and watermarks, swap
 * clusters by state, mTHP swap-out and fallback per order, zswap, PSI,
 * the memcg's usage and limits); instants for OOM kills and workload
 * phases. Every figure comes from the models (src/analysis.h); a figure
 * the recording cannot give is left out, never written as 0.
 *
 * Packets are written in time order on one sequence; slices on a track
 * nest (a begin's end comes before an enclosing slice's end).
 */
#ifndef MMSCOPE_PERFETTO_H
#define MMSCOPE_PERFETTO_H

#include <stdint.h>

struct analysis;

/* What was written, for messages and tests. */
struct perfetto_stats {
	uint64_t packets, tracks, slices, instants, counter_values, flows;
	uint64_t bytes;
};

/* Writes the trace to fd: 0, or -1 with *err (a write failed). */
int perfetto_write(int fd, const struct analysis *a, struct perfetto_stats *st, char **err);

/*
 * A host's history in one trace: each run written by perfetto_write_run
 * (run 0, 1, ...: its own sequence, track and flow ids apart from the
 * other runs', its time stamps moved by offset onto the history's time
 * line, history.h), adding to *st; then perfetto_write_history: a
 * "history" track of a slice per run and per gap ("not recorded"), on a
 * sequence of its own.
 */
int perfetto_write_run(int fd, const struct analysis *a, unsigned run, int64_t offset,
		       struct perfetto_stats *st, char **err);
struct perfetto_span {
	uint64_t from, to;	/* on the history's time line, ns */
	const char *name;	/* "run 2 (restart): ..." or "not recorded ..." */
	int gap;
};
int perfetto_write_history(int fd, const struct perfetto_span *spans, int n, unsigned seq,
			   struct perfetto_stats *st, char **err);

#endif
