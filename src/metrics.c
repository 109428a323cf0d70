// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The metric catalogue, the containers for counter deltas and per-run
 * metric values, and the small expression evaluator that defines counter
 * metrics. The rows that mmtests has keep its labels and its definitions
 * (bin/lib/MMTests/MonitorMmtestsvmstat.pm: sums over zones, efficiency
 * 100% when nothing was scanned); the rows of the defrag_mode/freelist
 * hygiene tables keep their labels as plain_label; what neither has
 * (zswap, per-size mTHP swap-out, PSI, trace-derived rows) follows the
 * same style. One deliberate difference: mmtests' "Allocation stalls"
 * keeps only the last allocstall_<zone> it reads; here it is the sum over
 * zones, which is what the counter means.
 */
#include "config.h"
#include "metrics.h"
#include "util.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ZONES "{,_dma,_dma32,_normal,_movable,_high}"

static const struct metric_def catalogue[] = {
	/* --phase: the phase's own length, first: what a phase comparison
	 * is for */
	{ "phase-duration", "Phase duration", NULL, "duration", "s", 0, METRIC_TRACE, NULL,
	  "the phase's time, from its marker to the next phase marker or the "
	  "recording's last event (--phase only)" },
	/* faults */
	{ "minor-faults", "Minor Faults", NULL, "fault", "events", 0, METRIC_COUNTER,
	  "pgfault - pgmajfault", "page faults that needed no I/O" },
	{ "major-faults", "Major Faults", NULL, "fault", "events", 0, METRIC_COUNTER,
	  "pgmajfault", "page faults that waited for I/O" },
	/* swap */
	{ "swap-ins", "Swap Ins", "Swap in", "swap", "pages", 0, METRIC_COUNTER,
	  "pswpin", "pages read from swap devices (not zswap)" },
	{ "swap-outs", "Swap Outs", "Swap out", "swap", "pages", 0, METRIC_COUNTER,
	  "pswpout", "pages written to swap devices (zswap stores do not count)" },
	{ "swap-outs-all", "Swap Outs incl zswap", NULL, "swap", "pages", 0, METRIC_COUNTER,
	  "pswpout + zswpout", "pages swapped out to a device or to zswap" },
	/* reclaim */
	{ "direct-scanned", "Direct pages scanned", "Pages direct scanned", "reclaim",
	  "pages", 0, METRIC_COUNTER, "pgscan_direct" ZONES " - opt(memcg_direct.scanned)",
	  "pages scanned by direct reclaim, summed over zones (7.2+: less the memcg "
	  "limit reclaim the kernel counts there too, memcg_direct.scanned)" },
	{ "kswapd-scanned", "Kswapd pages scanned", "Pages kswapd scanned", "reclaim",
	  "pages", 0, METRIC_COUNTER, "pgscan_kswapd" ZONES,
	  "pages scanned by kswapd, summed over zones" },
	{ "kswapd-reclaimed", "Kswapd pages reclaimed", "Pages kswapd reclaimed", "reclaim",
	  "pages", 0, METRIC_COUNTER, "pgsteal_kswapd" ZONES " + opt(kswapd_steal)",
	  "pages reclaimed by kswapd" },
	{ "direct-reclaimed", "Direct pages reclaimed", "Pages direct reclaimed", "reclaim",
	  "pages", 0, METRIC_COUNTER, "pgsteal_direct" ZONES " - opt(memcg_direct.reclaimed)",
	  "pages reclaimed by direct reclaim (7.2+: less memcg limit reclaim, "
	  "memcg_direct.reclaimed)" },
	{ "direct-memcg-scanned", "Direct+memcg pages scanned", "Pages direct+memcg scanned",
	  "reclaim", "pages", 0, METRIC_COUNTER, "memcg_direct.unsplit_scanned",
	  "7.2+: pgscan_direct as the kernel counts it, memcg limit reclaim "
	  "included, where the recording cannot take that part out" },
	{ "direct-memcg-reclaimed", "Direct+memcg pages reclaimed",
	  "Pages direct+memcg reclaimed", "reclaim", "pages", 0, METRIC_COUNTER,
	  "memcg_direct.unsplit_reclaimed",
	  "7.2+: pgsteal_direct as the kernel counts it, memcg limit reclaim "
	  "included, where the recording cannot take that part out" },
	{ "kswapd-efficiency", "Kswapd efficiency", NULL, "reclaim", "%", 1, METRIC_COUNTER,
	  "pct(@kswapd-reclaimed, @kswapd-scanned, na)",
	  "kswapd reclaimed * 100 / scanned (n/a when nothing was scanned)" },
	{ "kswapd-velocity", "Kswapd velocity", NULL, "reclaim", "pages/s", 0, METRIC_COUNTER,
	  "div(@kswapd-scanned, time.elapsed)", "kswapd pages scanned per second" },
	{ "direct-efficiency", "Direct efficiency", NULL, "reclaim", "%", 1, METRIC_COUNTER,
	  "pct(@direct-reclaimed, @direct-scanned, na)",
	  "direct reclaimed * 100 / scanned (n/a when nothing was scanned)" },
	{ "direct-velocity", "Direct velocity", NULL, "reclaim", "pages/s", 0, METRIC_COUNTER,
	  "div(@direct-scanned, time.elapsed)", "direct reclaim pages scanned per second" },
	{ "direct-scan-pct", "Percentage direct scans", NULL, "reclaim", "%", 0, METRIC_COUNTER,
	  "pct(@direct-scanned, @kswapd-scanned + @direct-scanned, 0)",
	  "share of all scanning done by direct reclaim" },
	{ "total-scanned", "Pages total scanned", NULL, "reclaim", "pages", 0, METRIC_COUNTER,
	  "@kswapd-scanned + @direct-scanned", "kswapd plus direct pages scanned" },
	{ "total-reclaimed", "Pages total reclaimed", NULL, "reclaim", "pages", 0,
	  METRIC_COUNTER, "@kswapd-reclaimed + @direct-reclaimed",
	  "kswapd plus direct pages reclaimed" },
	{ "anon-scanned", "Pages scanned anon", NULL, "reclaim", "pages", 0, METRIC_COUNTER,
	  "pgscan_anon", "anonymous pages scanned by any reclaim, memcg limit reclaim "
	  "included (pgscan_anon, 5.8+)" },
	{ "file-scanned", "Pages scanned file", NULL, "reclaim", "pages", 0, METRIC_COUNTER,
	  "pgscan_file", "file pages scanned by any reclaim, memcg included (pgscan_file)" },
	{ "anon-reclaimed", "Pages reclaimed anon", NULL, "reclaim", "pages", 0,
	  METRIC_COUNTER, "pgsteal_anon", "anonymous pages reclaimed, memcg included" },
	{ "file-reclaimed", "Pages reclaimed file", NULL, "reclaim", "pages", 0,
	  METRIC_COUNTER, "pgsteal_file", "file pages reclaimed, memcg included" },
	{ "all-reclaim-efficiency", "Reclaim efficiency all", NULL, "reclaim", "%", 1,
	  METRIC_COUNTER, "pct(pgsteal_anon + pgsteal_file, pgscan_anon + pgscan_file, na)",
	  "reclaimed * 100 / scanned over all reclaim, memcg included (n/a when "
	  "nothing was scanned)" },
	{ "kswapd-scan-pct", "Pages scanned kswapd %", NULL, "reclaim", "%", 1, METRIC_COUNTER,
	  "pct(@kswapd-scanned, @total-scanned, na)", "share of all scanning done by kswapd" },
	{ "alloc-stalls", "Allocation stalls", "Alloc stall", "reclaim", "events", 0,
	  METRIC_COUNTER, "allocstall{,_dma,_dma32,_normal,_movable,_high,_highmem,_device}",
	  "allocations that entered direct reclaim, summed over zones" },
	{ "page-writes-reclaim", "Page writes by reclaim", NULL, "reclaim", "pages", 0,
	  METRIC_COUNTER, "nr_vmscan_write", "pages written out by reclaim" },
	{ "page-writes-file", "Page writes file", NULL, "reclaim", "pages", 0, METRIC_COUNTER,
	  "max(nr_vmscan_write - (pswpout - opt(zswpwb)) - opt(zswpout) - opt(swpout_zero), 0)",
	  "file pages written out by reclaim: pageout() counts zswap stores and "
	  "zero-filled swap-outs in nr_vmscan_write too, and pswpout counts zswap "
	  "writeback, which pageout() does not; a few pages below 0 (counters "
	  "moving while read) are 0; not over a phase (nr_vmscan_write lags "
	  "pswpout by the per-CPU counts not yet folded in)" },
	{ "page-writes-anon", "Page writes anon", NULL, "reclaim", "pages", 0, METRIC_COUNTER,
	  "pswpout", "anonymous pages written out by reclaim" },
	{ "page-reclaim-immediate", "Page reclaim immediate", NULL, "reclaim", "pages", 0,
	  METRIC_COUNTER, "nr_vmscan_immediate_reclaim",
	  "pages marked for immediate reclaim after writeback" },
	{ "page-rescued-immediate", "Page rescued immediate", NULL, "reclaim", "pages", 0,
	  METRIC_COUNTER, "pgrescued", "pages rescued from immediate reclaim" },
	{ "slabs-scanned", "Slabs scanned", NULL, "reclaim", "objects", 0, METRIC_COUNTER,
	  "slabs_scanned", "slab objects scanned by shrinkers" },
	{ "direct-inode-steals", "Direct inode steals", NULL, "reclaim", "pages", 0,
	  METRIC_COUNTER, "pginodesteal", "pages freed by inode reclaim, direct" },
	{ "kswapd-inode-steals", "Kswapd inode steals", NULL, "reclaim", "pages", 0,
	  METRIC_COUNTER, "kswapd_inodesteal", "pages freed by inode reclaim, kswapd" },
	{ "file-refaults", "File refaults", NULL, "reclaim", "pages", 0, METRIC_COUNTER,
	  "workingset_refault{,_file}", "refaults of evicted file pages" },
	{ "anon-refaults", "Anon refaults", NULL, "reclaim", "pages", 0, METRIC_COUNTER,
	  "workingset_refault_anon", "refaults of evicted anonymous pages" },
	{ "sector-reads", "Sector Reads", NULL, "io", "KiB", 0, METRIC_COUNTER,
	  "pgpgin", "pgpgin (KiB read from block devices)" },
	{ "sector-writes", "Sector Writes", NULL, "io", "KiB", 0, METRIC_COUNTER,
	  "pgpgout", "pgpgout (KiB written to block devices)" },
	{ "oom-kills", "OOM kills", NULL, "oom", "events", 0, METRIC_COUNTER, "oom_kill",
	  "processes killed by the OOM killer (oom_kill, 4.13+)" },
	/* THP */
	{ "thp-fault-alloc", "THP fault alloc", NULL, "thp", "events", 1, METRIC_COUNTER,
	  "thp_fault_alloc", "PMD THPs allocated at fault" },
	{ "thp-fault-fallback", "THP fault fallback", NULL, "thp", "events", 0,
	  METRIC_COUNTER, "thp_fault_fallback", "PMD THP faults that fell back to small pages" },
	{ "thp-fault-fail-pct", "THP fault fail rate %", NULL, "thp", "%", 0, METRIC_COUNTER,
	  "pct(thp_fault_fallback, thp_fault_alloc + thp_fault_fallback, na)",
	  "fallback * 100 / (alloc + fallback)" },
	{ "thp-collapse-alloc", "THP collapse alloc", NULL, "thp", "events", 1,
	  METRIC_COUNTER, "thp_collapse_alloc", "THPs allocated by khugepaged" },
	{ "thp-collapse-fail", "THP collapse fail", NULL, "thp", "events", 0, METRIC_COUNTER,
	  "thp_collapse_alloc_failed", "khugepaged allocations that failed" },
	{ "thp-split", "THP split", NULL, "thp", "events", 0, METRIC_COUNTER,
	  "thp_split{,_page}", "THPs split" },
	{ "thp-split-failed", "THP split failed", NULL, "thp", "events", 0, METRIC_COUNTER,
	  "thp_split_page_failed", "THP splits that failed" },
	{ "thp-swpout", "THP swpout", NULL, "thp", "events", 1, METRIC_COUNTER,
	  "thp_swpout", "PMD THPs swapped out whole" },
	{ "thp-swpout-fallback", "THP swpout fallback", NULL, "thp", "events", 0,
	  METRIC_COUNTER, "thp_swpout_fallback", "PMD THPs split before swap-out" },
	{ "thp-swpout-fallback-pct", "THP swpout fallback %", NULL, "thp", "%", 0,
	  METRIC_COUNTER, "pct(thp_swpout_fallback, thp_swpout + thp_swpout_fallback, na)",
	  "fallback * 100 / (swpout + fallback)" },
	/* mTHP, one row per size */
	{ "mthp-{size}-swpout", "mTHP {size} swpout", NULL, "mthp", "events", 1,
	  METRIC_COUNTER, "mthp.{size}.swpout", "mTHPs of this size swapped out whole" },
	{ "mthp-{size}-swpout-fallback", "mTHP {size} swpout fallback", NULL, "mthp",
	  "events", 0, METRIC_COUNTER, "mthp.{size}.swpout_fallback",
	  "mTHPs of this size split before swap-out" },
	{ "mthp-{size}-swpout-fallback-pct", "mTHP {size} swpout fallback %", NULL, "mthp",
	  "%", 0, METRIC_COUNTER,
	  "pct(mthp.{size}.swpout_fallback, mthp.{size}.swpout + mthp.{size}.swpout_fallback, na)",
	  "fallback * 100 / (swpout + fallback)" },
	{ "mthp-{size}-fault-alloc", "mTHP {size} fault alloc", NULL, "mthp", "events", 1,
	  METRIC_COUNTER, "mthp.{size}.anon_fault_alloc", "mTHPs allocated at fault" },
	{ "mthp-{size}-fault-fallback", "mTHP {size} fault fallback", NULL, "mthp", "events",
	  0, METRIC_COUNTER, "mthp.{size}.anon_fault_fallback",
	  "mTHP faults that fell back to a smaller size" },
	{ "mthp-{size}-fault-fallback-pct", "mTHP {size} fault fallback %", NULL, "mthp", "%",
	  0, METRIC_COUNTER,
	  "pct(mthp.{size}.anon_fault_fallback, mthp.{size}.anon_fault_alloc + "
	  "mthp.{size}.anon_fault_fallback, na)", "fallback * 100 / (alloc + fallback)" },
	/* zswap */
	{ "zswpout", "Zswap stores", NULL, "zswap", "pages", 0, METRIC_COUNTER,
	  "zswpout", "pages stored in zswap (zswpout)" },
	{ "zswpin", "Zswap loads", NULL, "zswap", "pages", 0, METRIC_COUNTER,
	  "zswpin", "pages loaded from zswap (zswpin)" },
	{ "zswpwb", "Zswap writebacks", NULL, "zswap", "pages", 0, METRIC_COUNTER,
	  "zswpwb", "pages written back from zswap to the swap device (zswpwb)" },
	/* compaction */
	{ "compact-stalls", "Compaction stalls", "Direct compact stall", "compaction",
	  "events", 0, METRIC_COUNTER, "compact_stall", "direct compaction attempts" },
	{ "compact-success", "Compaction success", "Direct compact success", "compaction",
	  "events", 1, METRIC_COUNTER, "compact_success", "direct compactions that succeeded" },
	{ "compact-fail", "Compaction failures", "Direct compact fail", "compaction",
	  "events", 0, METRIC_COUNTER, "compact_fail", "direct compactions that failed" },
	{ "compact-efficiency", "Compaction efficiency", "Direct compact success rate %",
	  "compaction", "%", 1, METRIC_COUNTER, "pct(compact_success, compact_stall)",
	  "success * 100 / stalls" },
	{ "migrate-success", "Page migrate success", NULL, "compaction", "pages", 1,
	  METRIC_COUNTER, "pgmigrate_success", "pages migrated" },
	{ "migrate-fail", "Page migrate failure", NULL, "compaction", "pages", 0,
	  METRIC_COUNTER, "pgmigrate_fail", "pages that failed to migrate" },
	{ "compact-isolated", "Compaction pages isolated", NULL, "compaction", "pages", 0,
	  METRIC_COUNTER, "compact_isolated", "pages isolated by compaction" },
	{ "compact-migrate-scanned", "Compaction migrate scanned",
	  "Compact total migrate scanned", "compaction", "pages", 0, METRIC_COUNTER,
	  "compact_migrate_scanned", "pages scanned by the migration scanner (all compaction)" },
	{ "compact-free-scanned", "Compaction free scanned", "Compact total free scanned",
	  "compaction", "pages", 0, METRIC_COUNTER, "compact_free_scanned",
	  "pages scanned by the free scanner (all compaction)" },
	{ "compact-scan-efficiency", "Compact scan efficiency", NULL, "compaction", "%", 1,
	  METRIC_COUNTER, "pct(compact_migrate_scanned, compact_free_scanned)",
	  "migrate scanned * 100 / free scanned" },
	{ "compaction-cost", "Compaction cost", NULL, "compaction", "Mcycles", 0,
	  METRIC_COUNTER,
	  "(7 * compact_migrate_scanned + 7 * compact_free_scanned + 19 * compact_isolated"
	  " + 1038 * pgmigrate_success + 14 * pgmigrate_fail) / 1000000",
	  "mmtests' weighted model of scans, isolations and migrations (x86-64)" },
	{ "kcompactd-wake", "Kcompactd wake", NULL, "compaction", "events", 0, METRIC_COUNTER,
	  "compact_daemon_wake", "kcompactd wakeups" },
	{ "kcompactd-migrate-scanned", "Kcompactd migrate scanned",
	  "Compact daemon scanned migrate", "compaction", "pages", 0, METRIC_COUNTER,
	  "compact_daemon_migrate_scanned", "migration scanner pages, kcompactd" },
	{ "kcompactd-free-scanned", "Kcompactd free scanned", "Compact daemon scanned free",
	  "compaction", "pages", 0, METRIC_COUNTER, "compact_daemon_free_scanned",
	  "free scanner pages, kcompactd" },
	{ "direct-compact-migrate-scanned", "Compact direct scanned migrate", NULL,
	  "compaction", "pages", 0, METRIC_COUNTER,
	  "compact_migrate_scanned - compact_daemon_migrate_scanned",
	  "migration scanner pages outside kcompactd" },
	{ "direct-compact-free-scanned", "Compact direct scanned free", NULL, "compaction",
	  "pages", 0, METRIC_COUNTER, "compact_free_scanned - compact_daemon_free_scanned",
	  "free scanner pages outside kcompactd" },
	{ "kcompactd-migrate-scanned-pct", "Compact migrate scanned daemon %", NULL,
	  "compaction", "%", 1, METRIC_COUNTER,
	  "pct(compact_daemon_migrate_scanned, compact_migrate_scanned)",
	  "share of migration scanning done by kcompactd" },
	{ "kcompactd-free-scanned-pct", "Compact free scanned daemon %", NULL, "compaction",
	  "%", 1, METRIC_COUNTER, "pct(compact_daemon_free_scanned, compact_free_scanned)",
	  "share of free scanning done by kcompactd" },
	/* pressure stall information */
	{ "psi-some", "PSI memory some", NULL, "psi", "ms", 0, METRIC_COUNTER,
	  "psi.some_total / 1000", "time some task stalled on memory" },
	{ "psi-full", "PSI memory full", NULL, "psi", "ms", 0, METRIC_COUNTER,
	  "psi.full_total / 1000", "time all non-idle tasks stalled on memory" },
	{ "psi-some-pct", "PSI memory some %", NULL, "psi", "%", 0, METRIC_COUNTER,
	  "pct(psi.some_total, time.elapsed * 1000000)", "some stall time over wall time" },
	{ "psi-full-pct", "PSI memory full %", NULL, "psi", "%", 0, METRIC_COUNTER,
	  "pct(psi.full_total, time.elapsed * 1000000)", "full stall time over wall time" },
	/* the run's outcome and its memory cgroup (mmscope record's run
	 * context, src/model-run.h; absent for older recordings) */
	{ "duration-elapsed", "Duration Elapsed", NULL, "duration", "s", 0, METRIC_TRACE, NULL,
	  "the recorded command's wall time, start to exit (wait4)" },
	{ "duration-user", "Duration User", NULL, "duration", "s", 0, METRIC_TRACE, NULL,
	  "the command's user CPU time (wait4 rusage)" },
	{ "duration-sys", "Duration System", NULL, "duration", "s", 0, METRIC_TRACE, NULL,
	  "the command's system CPU time (wait4 rusage)" },
	{ "max-rss", "Max RSS", NULL, "duration", "MiB", 0, METRIC_TRACE, NULL,
	  "the command's largest resident set (wait4 ru_maxrss)" },
	{ "memcg-scan-anon", "Memcg scanned anon", NULL, "memcg", "pages", 0, METRIC_TRACE,
	  NULL, "memory.stat pgscan of anon pages, over the run" },
	{ "memcg-scan-file", "Memcg scanned file", NULL, "memcg", "pages", 0, METRIC_TRACE,
	  NULL, "memory.stat pgscan of file pages, over the run" },
	{ "memcg-steal-anon", "Memcg reclaimed anon", NULL, "memcg", "pages", 1, METRIC_TRACE,
	  NULL, "memory.stat pgsteal of anon pages, over the run" },
	{ "memcg-steal-file", "Memcg reclaimed file", NULL, "memcg", "pages", 1, METRIC_TRACE,
	  NULL, "memory.stat pgsteal of file pages, over the run" },
	{ "memcg-scan", "Memcg scanned", NULL, "memcg", "pages", 0, METRIC_TRACE, NULL,
	  "memory.stat pgscan (v2), over the run" },
	{ "memcg-steal", "Memcg reclaimed", NULL, "memcg", "pages", 1, METRIC_TRACE, NULL,
	  "memory.stat pgsteal (v2), over the run" },
	{ "memcg-refault-anon", "Memcg refaults anon", NULL, "memcg", "pages", 0, METRIC_TRACE,
	  NULL, "memory.stat workingset_refault_anon, over the run" },
	{ "memcg-refault-file", "Memcg refaults file", NULL, "memcg", "pages", 0, METRIC_TRACE,
	  NULL, "memory.stat workingset_refault_file, over the run" },
	{ "memcg-events-high", "Memcg events high", NULL, "memcg", "events", 0, METRIC_TRACE,
	  NULL, "memory.events high (v2), over the run" },
	{ "memcg-events-max", "Memcg events max", NULL, "memcg", "events", 0, METRIC_TRACE,
	  NULL, "memory.events max (v2), over the run" },
	{ "memcg-events-oom", "Memcg events oom", NULL, "memcg", "events", 0, METRIC_TRACE,
	  NULL, "memory.events oom (v2), over the run" },
	{ "memcg-oom-kills", "Memcg OOM kills", NULL, "memcg", "events", 0, METRIC_TRACE,
	  NULL, "memory.events oom_kill (v2) or memory.oom_control oom_kill (v1)" },
	{ "memcg-failcnt", "Memcg limit hits", NULL, "memcg", "events", 0, METRIC_TRACE,
	  NULL, "memory.failcnt (v1), over the run" },
	{ "memcg-usage-max", "Memcg usage peak", NULL, "memcg", "MiB", 0, METRIC_TRACE, NULL,
	  "largest sampled memory usage of the cgroup" },
	{ "memcg-swap-max", "Memcg swap peak", NULL, "memcg", "MiB", 0, METRIC_TRACE, NULL,
	  "largest sampled swap usage of the cgroup" },
	/* from the trace (values come from the models) */
	{ "oom-kills-traced", "OOM kills traced", NULL, "oom", "events", 0, METRIC_TRACE, NULL,
	  "oom:mark_victim events (the victims the recording saw)" },
	{ "kswapd-awake", "Time kswapd awake", NULL, "kswapd", "ms", 0, METRIC_TRACE, NULL,
	  "time kswapd spent between wake and sleep" },
	{ "kswapd-episodes", "Kswapd episodes", NULL, "kswapd", "events", 0, METRIC_TRACE,
	  NULL, "kswapd wake-to-sleep episodes" },
	{ "kcompactd-handoffs", "Kswapd handoffs to kcompactd", NULL, "kswapd", "events", 1,
	  METRIC_TRACE, NULL, "kswapd episodes that woke kcompactd" },
	{ "kcompactd-missed-handoffs", "Kswapd missed handoffs", NULL, "kswapd", "events", 0,
	  METRIC_TRACE, NULL, "episodes that ended for a high order without waking kcompactd" },
	{ "kcompactd-handoffs-wake", "Handoffs by wakeup", NULL, "kswapd", "events", 1,
	  METRIC_TRACE, NULL, "handoffs where kswapd woke kcompactd (outcome wake)" },
	{ "kcompactd-handoffs-pick", "Handoffs by pickup", NULL, "kswapd", "events", 1,
	  METRIC_TRACE, NULL, "handoffs kcompactd picked up at its timeout (outcome pick)" },
	{ "kcompactd-success-pct", "Kcompactd success %", NULL, "kswapd", "%", 1,
	  METRIC_TRACE, NULL, "kcompactd runs that met their order" },
	{ "direct-reclaim-stall-total", "Time direct reclaim stalled", NULL, "stall", "ms", 0,
	  METRIC_TRACE, NULL, "total direct reclaim stall time" },
	{ "direct-reclaim-stall-mean", "Direct reclaim stall mean", NULL, "stall", "us", 0,
	  METRIC_TRACE, NULL, "mean direct reclaim stall" },
	{ "direct-reclaim-stall-p50", "Direct reclaim stall p50", NULL, "stall", "us", 0,
	  METRIC_TRACE, NULL, "median direct reclaim stall" },
	{ "direct-reclaim-stall-p99", "Direct reclaim stall p99", NULL, "stall", "us", 0,
	  METRIC_TRACE, NULL, "99th percentile direct reclaim stall" },
	{ "direct-reclaim-stall-max", "Direct reclaim stall max", NULL, "stall", "us", 0,
	  METRIC_TRACE, NULL, "longest direct reclaim stall" },
	{ "memcg-reclaim-stall-total", "Time memcg reclaim stalled", NULL, "stall", "ms", 0,
	  METRIC_TRACE, NULL, "total memcg (limit) reclaim stall time" },
	{ "memcg-reclaim-stall-mean", "Memcg reclaim stall mean", NULL, "stall", "us", 0,
	  METRIC_TRACE, NULL, "mean memcg reclaim stall" },
	{ "memcg-reclaim-stall-p50", "Memcg reclaim stall p50", NULL, "stall", "us", 0,
	  METRIC_TRACE, NULL, "median memcg reclaim stall" },
	{ "memcg-reclaim-stall-p99", "Memcg reclaim stall p99", NULL, "stall", "us", 0,
	  METRIC_TRACE, NULL, "99th percentile memcg reclaim stall" },
	{ "memcg-reclaim-stall-max", "Memcg reclaim stall max", NULL, "stall", "us", 0,
	  METRIC_TRACE, NULL, "longest memcg reclaim stall" },
	{ "direct-compact-stall-total", "Time direct compacting", NULL, "stall", "ms", 0,
	  METRIC_TRACE, NULL, "total direct compaction stall time" },
	{ "direct-compact-stall-mean", "Direct compact stall mean", NULL, "stall", "us", 0,
	  METRIC_TRACE, NULL, "mean direct compaction stall" },
	{ "direct-compact-stall-p50", "Direct compact stall p50", NULL, "stall", "us", 0,
	  METRIC_TRACE, NULL, "median direct compaction stall" },
	{ "direct-compact-stall-p99", "Direct compact stall p99", NULL, "stall", "us", 0,
	  METRIC_TRACE, NULL, "99th percentile direct compaction stall" },
	{ "direct-compact-stall-max", "Direct compact stall max", NULL, "stall", "us", 0,
	  METRIC_TRACE, NULL, "longest direct compaction stall" },
	{ "alloc-stalls-order-{order}", "Alloc stalls order {order}", NULL, "stall", "events",
	  0, METRIC_TRACE, NULL, "allocations of this order that stalled in reclaim or compaction" },
	/* swap clusters and zswap (src/metrics-swap.c) */
	{ "swap-fallback-pct-order-{order}", "Swap fallback % order {order}", NULL, "swap",
	  "%", 0, METRIC_TRACE, NULL,
	  "order-N swap allocations that fell back to order 0 (folio_alloc_swap probes)" },
	{ "swap-free-clusters-min", "Swap free clusters min", NULL, "swap", "clusters", 1,
	  METRIC_TRACE, NULL, "fewest free swap clusters on a device that can take order>0" },
	{ "swap-clusters-ran-out", "Swap free clusters ran out", NULL, "swap", "events", 0,
	  METRIC_TRACE, NULL, "times the free swap clusters hit zero" },
	{ "zswap-reject-pct", "Zswap reject %", NULL, "zswap", "%", 0, METRIC_TRACE, NULL,
	  "zswap stores refused (probes; else reject_* + pool_limit_hit over attempts)" },
	{ "zswap-writeback-pages", "Zswap writeback pages", NULL, "zswap", "pages", 0,
	  METRIC_TRACE, NULL, "pages written back from zswap (debugfs written_back_pages)" },
	{ "zswap-pool-max-pct", "Zswap pool max % of limit", NULL, "zswap", "%", 0,
	  METRIC_TRACE, NULL, "largest zswap pool size against max_pool_percent of RAM" },
};

const struct metric_def *metrics_catalogue(size_t *n)
{
	*n = ARRAY_SIZE(catalogue);
	return catalogue;
}

/* Replace "{size}"/"{order}" in tmpl by val. */
static void fill(char *dst, size_t len, const char *tmpl, const char *val)
{
	const char *p = strchr(tmpl, '{'), *q = p ? strchr(p, '}') : NULL;

	if (!p || !q || !tmpl)
		snprintf(dst, len, "%s", tmpl ? tmpl : "");
	else
		snprintf(dst, len, "%.*s%s%s", (int)(p - tmpl), tmpl, val, q + 1);
}

/* Does name match template tmpl? Then copy the placeholder's value. */
static int match_template(const char *tmpl, const char *name, char *val, size_t len)
{
	const char *p = strchr(tmpl, '{'), *q = p ? strchr(p, '}') : NULL;
	size_t pre, suf, nlen = strlen(name), vlen;
	int is_size;

	if (!p || !q)
		return 0;
	pre = (size_t)(p - tmpl);
	suf = strlen(q + 1);
	if (nlen <= pre + suf || strncmp(name, tmpl, pre) || strcmp(name + nlen - suf, q + 1))
		return 0;
	vlen = nlen - pre - suf;
	is_size = !strncmp(p, "{size}", 6);
	if (vlen >= len)
		return 0;
	memcpy(val, name + pre, vlen);
	val[vlen] = '\0';
	for (size_t i = 0; i < vlen; i++) {
		if (isdigit((unsigned char)val[i]))
			continue;
		return is_size && i > 0 && !strcmp(val + i, "kB");
	}
	return !is_size;
}

static void describe_def(const struct metric_def *d, int order, const char *val,
			 const char *name, struct metric_info *out)
{
	out->def = d;
	snprintf(out->name, sizeof(out->name), "%s", name);
	fill(out->label, sizeof(out->label), d->label, val);
	fill(out->plain_label, sizeof(out->plain_label),
	     d->plain_label ? d->plain_label : d->label, val);
	out->group = d->group;
	out->unit = d->unit;
	out->higher_is_better = d->higher_is_better;
	out->source = d->source;
	out->order = order;
}

int metrics_describe(const char *name, struct metric_info *out)
{
	char val[32];

	for (size_t i = 0; i < ARRAY_SIZE(catalogue); i++) {
		const struct metric_def *d = &catalogue[i];

		if (!strcmp(d->name, name)) {
			describe_def(d, (int)i, "", name, out);
			return 0;
		}
		if (strchr(d->name, '{') && match_template(d->name, name, val, sizeof(val))) {
			describe_def(d, (int)i, val, name, out);
			return 0;
		}
	}
	memset(out, 0, sizeof(*out));
	snprintf(out->name, sizeof(out->name), "%s", name);
	snprintf(out->label, sizeof(out->label), "%s", name);
	snprintf(out->plain_label, sizeof(out->plain_label), "%s", name);
	out->group = "user";
	out->unit = "";
	out->source = METRIC_USER;
	out->order = (int)ARRAY_SIZE(catalogue);
	return -1;
}

int metrics_match(const struct metric_info *mi, const char *sel)
{
	static const char *const sources[] = { "counter", "trace", "user" };

	return !strcmp(sel, "all") || !strcmp(sel, mi->name) || !strcmp(sel, mi->group) ||
	       !strcmp(sel, sources[mi->source]);
}

void counter_set_put(struct counter_set *cs, const char *name, double value)
{
	for (size_t i = 0; i < cs->n; i++) {
		if (!strcmp(cs->v[i].name, name)) {
			cs->v[i].value = value;
			return;
		}
	}
	if (cs->n == cs->alloc) {
		cs->alloc = cs->alloc ? 2 * cs->alloc : 64;
		cs->v = xreallocarray(cs->v, cs->alloc, sizeof(*cs->v));
	}
	cs->v[cs->n].name = xstrdup(name);
	cs->v[cs->n++].value = value;
}

int counter_set_get(const struct counter_set *cs, const char *name, double *value)
{
	for (size_t i = 0; i < cs->n; i++) {
		if (!strcmp(cs->v[i].name, name)) {
			*value = cs->v[i].value;
			return 0;
		}
	}
	return -1;
}

int counter_set_drop(struct counter_set *cs, const char *name)
{
	for (size_t i = 0; i < cs->n; i++) {
		if (!strcmp(cs->v[i].name, name)) {
			free(cs->v[i].name);
			cs->v[i] = cs->v[--cs->n];
			return 1;
		}
	}
	return 0;
}

void counter_set_release(struct counter_set *cs)
{
	for (size_t i = 0; i < cs->n; i++)
		free(cs->v[i].name);
	free(cs->v);
	cs->v = NULL;
	cs->n = cs->alloc = 0;
}

struct metric_series *metric_values_find(const struct metric_values *mv, const char *name)
{
	for (size_t i = 0; i < mv->n; i++)
		if (!strcmp(mv->m[i].name, name))
			return &mv->m[i];
	return NULL;
}

struct metric_series *metric_values_add(struct metric_values *mv, const char *name,
					double value)
{
	struct metric_series *s = metric_values_find(mv, name);

	if (!s) {
		if (mv->n == mv->alloc) {
			mv->alloc = mv->alloc ? 2 * mv->alloc : 32;
			mv->m = xreallocarray(mv->m, mv->alloc, sizeof(*mv->m));
		}
		s = &mv->m[mv->n++];
		memset(s, 0, sizeof(*s));
		s->name = xstrdup(name);
		s->higher_is_better = -1;
	}
	s->v = xreallocarray(s->v, s->n + 1, sizeof(*s->v));
	s->v[s->n++] = value;
	return s;
}

void metric_values_release(struct metric_values *mv)
{
	for (size_t i = 0; i < mv->n; i++) {
		free(mv->m[i].name);
		free(mv->m[i].v);
	}
	free(mv->m);
	free(mv->command);
	strbuf_release(&mv->notes);
	free(mv->findings);
	strbuf_release(&mv->notrun);
	mv->findings = NULL;
	mv->nfindings = 0;
	mv->findings_known = 0;
	mv->m = NULL;
	mv->command = NULL;
	mv->n = mv->alloc = 0;
}

const char *metrics_rate_of(const char *name, char *buf, size_t len)
{
	/* count -> its rate, "{size}" for the mTHP sizes */
	static const char *const pairs[][2] = {
		{ "thp-fault-fallback", "thp-fault-fail-pct" },
		{ "thp-swpout-fallback", "thp-swpout-fallback-pct" },
		{ "mthp-{size}-fault-fallback", "mthp-{size}-fault-fallback-pct" },
		{ "mthp-{size}-swpout-fallback", "mthp-{size}-swpout-fallback-pct" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(pairs); i++) {
		const char *c = pairs[i][0], *hole = strstr(c, "{size}");
		size_t pre, post, nl = strlen(name);

		if (!hole) {
			if (strcmp(name, c))
				continue;
			snprintf(buf, len, "%s", pairs[i][1]);
			return buf;
		}
		/* mthp-SIZE-fault-fallback: the size is what the template's
		 * prefix and suffix leave */
		pre = (size_t)(hole - c);
		post = strlen(hole + 6);
		if (nl <= pre + post || strncmp(name, c, pre) || strcmp(name + nl - post, hole + 6))
			continue;
		snprintf(buf, len, "%.*s%.*s%s", (int)pre, c, (int)(nl - pre - post), name + pre,
			 strstr(pairs[i][1], "{size}") + 6);
		return buf;
	}
	return NULL;
}

void metric_values_note(struct metric_values *mv, const char *metric, const char *fmt, ...)
{
	va_list ap;
	char line[512];
	int n = snprintf(line, sizeof(line), "%s\t", metric);

	va_start(ap, fmt);
	vsnprintf(line + n, sizeof(line) - (size_t)n, fmt, ap);
	va_end(ap);
	for (const char *p = mv->notes.buf; p && *p;) {
		const char *nl = strchr(p, '\n');
		size_t l = nl ? (size_t)(nl - p) : strlen(p);

		if (l == strlen(line) && !strncmp(p, line, l))
			return;
		p += l + (nl != NULL);
	}
	strbuf_addf(&mv->notes, "%s\n", line);
}

/* The expression evaluator: recursive descent, NAN for "undefined". */
struct eval {
	const char *s;
	const struct counter_set *cs;
	const struct metric_values *done;
	char *err;
	int na_atom;		/* the last atom parsed was "na" */
	int na;			/* a pct()/div() with an "na" default was 0-based */
};

static double eval_sum(struct eval *e);

static void skip_space(struct eval *e)
{
	while (*e->s == ' ' || *e->s == '\t')
		e->s++;
}

static int is_name_char(int c)
{
	return isalnum(c) || c == '_' || c == '.' || c == '-';
}

static int eval_fail(struct eval *e, const char *what)
{
	if (!e->err)
		e->err = xasprintf("%s at '%.20s'", what, e->s);
	return 0;
}

/* A counter name, possibly with one {a,b,...} group: the sum of those present. */
static double eval_counter(struct eval *e)
{
	const char *start = e->s, *brace = NULL, *close = NULL;
	char name[160];
	double sum = 0, v;
	int found = 0;

	while (is_name_char((unsigned char)*e->s) && *e->s != '-')
		e->s++;
	if (*e->s == '{') {
		brace = e->s;
		close = strchr(brace, '}');
		if (!close)
			return eval_fail(e, "unclosed '{'"), NAN;
		e->s = close + 1;
		while (is_name_char((unsigned char)*e->s) && *e->s != '-')
			e->s++;
	}
	if (!brace) {
		snprintf(name, sizeof(name), "%.*s", (int)(e->s - start), start);
		return counter_set_get(e->cs, name, &v) ? NAN : v;
	}
	for (const char *alt = brace + 1; alt <= close;) {
		const char *end = alt;

		while (end < close && *end != ',')
			end++;
		snprintf(name, sizeof(name), "%.*s%.*s%.*s", (int)(brace - start), start,
			 (int)(end - alt), alt, (int)(e->s - close - 1), close + 1);
		if (!counter_set_get(e->cs, name, &v)) {
			sum += v;
			found = 1;
		}
		alt = end + 1;
	}
	return found ? sum : NAN;
}

static double eval_metric_ref(struct eval *e)
{
	const char *start = ++e->s;
	struct metric_series *s;
	char name[96];

	while (is_name_char((unsigned char)*e->s))
		e->s++;
	snprintf(name, sizeof(name), "%.*s", (int)(e->s - start), start);
	s = e->done ? metric_values_find(e->done, name) : NULL;
	return s && s->n ? s->v[s->n - 1] : NAN;
}

static double eval_call(struct eval *e, const char *fn, size_t len)
{
	double arg[3] = { NAN, NAN, NAN };
	int n = 0;

	int z_na = 0;

	e->s++;		/* '(' */
	for (;;) {
		if (n == 3)
			return eval_fail(e, "too many arguments"), NAN;
		e->na_atom = 0;
		arg[n++] = eval_sum(e);
		if (n == 3)
			z_na = e->na_atom;
		skip_space(e);
		if (*e->s == ',') {
			e->s++;
			continue;
		}
		if (*e->s != ')')
			return eval_fail(e, "expected ')'"), NAN;
		e->s++;
		break;
	}
	if (len == 3 && !strncmp(fn, "max", 3)) {
		if (n != 2)
			return eval_fail(e, "max() takes 2 arguments"), NAN;
		return isnan(arg[0]) || isnan(arg[1]) ? NAN : fmax(arg[0], arg[1]);
	}
	if (len == 3 && !strncmp(fn, "opt", 3))
		return isnan(arg[0]) ? (n > 1 ? arg[1] : 0) : arg[0];
	if (len == 3 && (!strncmp(fn, "pct", 3) || !strncmp(fn, "div", 3))) {
		if (n < 2)
			return eval_fail(e, "pct() and div() take 2 or 3 arguments"), NAN;
		if (isnan(arg[0]) || isnan(arg[1]))
			return NAN;
		if (arg[1] == 0) {
			if (n > 2 && z_na)
				e->na = 1;
			return n > 2 ? arg[2] : NAN;
		}
		return arg[0] * (fn[0] == 'p' ? 100 : 1) / arg[1];
	}
	return eval_fail(e, "unknown function"), NAN;
}

static double eval_atom(struct eval *e)
{
	const char *start;
	double v;

	skip_space(e);
	start = e->s;
	if (*e->s == '(') {
		e->s++;
		v = eval_sum(e);
		skip_space(e);
		if (*e->s != ')')
			return eval_fail(e, "expected ')'"), NAN;
		e->s++;
		return v;
	}
	if (*e->s == '-') {
		e->s++;
		return -eval_atom(e);
	}
	if (*e->s == '@')
		return eval_metric_ref(e);
	if (isdigit((unsigned char)*e->s)) {
		char *end;

		v = strtod(e->s, &end);
		e->s = end;
		return v;
	}
	if (isalpha((unsigned char)*e->s) || *e->s == '_') {
		while (isalnum((unsigned char)*e->s))
			e->s++;
		if (e->s - start == 2 && !strncmp(start, "na", 2) &&
		    !is_name_char((unsigned char)*e->s) && *e->s != '{' && *e->s != '(') {
			e->na_atom = 1;
			return NAN;
		}
		if (*e->s == '(')
			return eval_call(e, start, (size_t)(e->s - start));
		e->s = start;
		return eval_counter(e);
	}
	return eval_fail(e, "expected a value"), NAN;
}

static double eval_product(struct eval *e)
{
	double v = eval_atom(e);

	for (;;) {
		skip_space(e);
		if (*e->s != '*' && *e->s != '/')
			return v;
		char op = *e->s++;
		double r = eval_atom(e);

		if (op == '*')
			v *= r;
		else
			v = r == 0 ? NAN : v / r;
	}
}

static double eval_sum(struct eval *e)
{
	double v = eval_product(e);

	for (;;) {
		skip_space(e);
		if (*e->s != '+' && *e->s != '-')
			return v;
		char op = *e->s++;
		double r = eval_product(e);

		v = op == '+' ? v + r : v - r;
	}
}

int metrics_eval(const char *expr, const struct counter_set *cs,
		 const struct metric_values *done, double *value, char **err)
{
	struct eval e = { expr, cs, done, NULL, 0, 0 };
	double v = eval_sum(&e);

	skip_space(&e);
	if (!e.err && *e.s)
		eval_fail(&e, "unexpected text");
	if (e.err) {
		set_err(err, "%s in '%s'", e.err, expr);
		free(e.err);
		return -1;
	}
	*value = isfinite(v) ? v : NAN;
	return isnan(*value) && e.na ? 1 : 0;
}

/* The mTHP sizes present in cs ("mthp.64kB.swpout" -> "64kB"), each once. */
static size_t mthp_sizes(const struct counter_set *cs, char sizes[][16], size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < cs->n; i++) {
		const char *p = cs->v[i].name, *dot;
		size_t k;

		if (strncmp(p, "mthp.", 5) || !(dot = strchr(p + 5, '.')) || dot - p - 5 >= 16)
			continue;
		for (k = 0; k < n; k++)
			if (!strncmp(sizes[k], p + 5, (size_t)(dot - p - 5)) &&
			    !sizes[k][dot - p - 5])
				break;
		if (k == n && n < max)
			snprintf(sizes[n++], 16, "%.*s", (int)(dot - p - 5), p + 5);
	}
	return n;
}

static int compute_one(const char *name, const char *expr, const struct counter_set *cs,
		       struct metric_values *done)
{
	double v;
	int r = metrics_eval(expr, cs, done, &v, NULL);

	if (r < 0 || (r == 0 && isnan(v)))
		return 0;
	/* r == 1: a ratio over nothing is there but undefined (NAN, "n/a") */
	metric_values_add(done, name, v);
	return 1;
}

static int compute(const struct counter_set *cs, struct metric_values *out, int part);

int metrics_compute(const struct counter_set *cs, struct metric_values *out)
{
	return compute(cs, out, 0);
}

int metrics_compute_part(const struct counter_set *cs, struct metric_values *out)
{
	return compute(cs, out, 1);
}

/* Differences of a node counter and an event count (metrics_compute_part). */
static int whole_run_only(const char *name)
{
	return !strcmp(name, "page-writes-file");
}

static int compute(const struct counter_set *cs, struct metric_values *out, int part)
{
	struct metric_values done = METRIC_VALUES_INIT;
	char sizes[32][16], name[96], expr[512];
	size_t nsizes = mthp_sizes(cs, sizes, 32);
	int added = 0;

	for (size_t i = 0; i < ARRAY_SIZE(catalogue); i++) {
		const struct metric_def *d = &catalogue[i];

		if (d->source != METRIC_COUNTER || (part && whole_run_only(d->name)))
			continue;
		if (!strstr(d->name, "{size}")) {
			compute_one(d->name, d->expr, cs, &done);
			continue;
		}
		for (size_t k = 0; k < nsizes; k++) {
			const char *p;
			size_t len = 0;

			fill(name, sizeof(name), d->name, sizes[k]);
			/* the expression may name the size several times */
			for (p = d->expr; *p && len < sizeof(expr) - 17; p++) {
				if (!strncmp(p, "{size}", 6)) {
					len += (size_t)snprintf(expr + len, sizeof(expr) - len,
								"%s", sizes[k]);
					p += 5;
				} else {
					expr[len++] = *p;
				}
			}
			expr[len] = '\0';
			compute_one(name, expr, cs, &done);
		}
	}
	for (size_t i = 0; i < done.n; i++) {
		metric_values_add(out, done.m[i].name, done.m[i].v[0]);
		added++;
	}
	metric_values_release(&done);
	return added;
}
