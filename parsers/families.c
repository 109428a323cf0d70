// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The event family table (see families.h). The order is the order of
 * `record --help`, doctor and the man page.
 */
#include "config.h"
#include "families.h"

#include <stdio.h>
#include <string.h>

/* Each family's parser table, in its own parsers/FAMILY.c. */
extern const struct parser vmscan_kswapd_parsers[];
extern const struct parser vmscan_reclaim_parsers[];
extern const struct parser compaction_parsers[];
extern const struct parser kmem_parsers[];
extern const struct parser oom_parsers[];
extern const struct parser sample_print_parsers[];
extern const struct parser probe_swap_parsers[];
extern const struct parser probe_zswap_parsers[];
extern const struct parser khugepaged_parsers[];
extern const struct parser task_parsers[];
extern const struct parser stack_parsers[];

#define END { NULL, NULL, NULL, NULL }

/* Not recorded, on purpose: balance_pgdat_begin (7.x) fires where
 * kswapd_wake does; kmem:mm_setup_per_zone_wmarks only on a sysctl write
 * or hotplug, and the zoneinfo samples carry the watermarks. */
static const struct family_event ev_kswapd[] = {
	{ "vmscan:mm_vmscan_wakeup_kswapd", NULL, NULL, NULL },
	{ "vmscan:mm_vmscan_kswapd_wake", NULL, NULL, NULL },
	{ "vmscan:mm_vmscan_kswapd_sleep", NULL, NULL, NULL },
	{ "vmscan:mm_vmscan_balance_pgdat_end", NULL, "7.2", NULL },
	{ "vmscan:mm_vmscan_kswapd_reclaim_fail", NULL, "7.2", NULL },
	{ "vmscan:mm_vmscan_kswapd_clear_hopeless", NULL, "7.2", NULL },
	END,
};

static const struct family_event ev_compaction[] = {
	{ "compaction:*", NULL, NULL, NULL },
	END,
};

static const struct family_event ev_reclaim[] = {
	{ "vmscan:mm_vmscan_direct_reclaim_begin", NULL, NULL, NULL },
	{ "vmscan:mm_vmscan_direct_reclaim_end", NULL, NULL, NULL },
	{ "vmscan:mm_vmscan_memcg_reclaim_begin", NULL, NULL, NULL },
	{ "vmscan:mm_vmscan_memcg_reclaim_end", NULL, NULL, NULL },
	{ "vmscan:mm_vmscan_memcg_softlimit_reclaim_begin", NULL, NULL, NULL },
	{ "vmscan:mm_vmscan_memcg_softlimit_reclaim_end", NULL, NULL, NULL },
	{ "vmscan:mm_vmscan_node_reclaim_begin", NULL, NULL, NULL },
	{ "vmscan:mm_vmscan_node_reclaim_end", NULL, NULL, NULL },
	{ "vmscan:mm_vmscan_lru_isolate", NULL, NULL, NULL },
	{ "vmscan:mm_vmscan_lru_shrink_inactive", NULL, NULL, NULL },
	{ "vmscan:mm_vmscan_lru_shrink_active", NULL, NULL, NULL },
	{ "vmscan:mm_vmscan_write_folio", "vmscan:mm_vmscan_writepage", NULL, NULL },	/* < 5.19 */
	{ "vmscan:mm_vmscan_throttled", NULL, "6.1", NULL },
	{ "vmscan:mm_vmscan_reclaim_pages", NULL, "6.18", NULL },
	END,
};

static const struct family_event ev_extfrag[] = {
	{ "kmem:mm_page_alloc_extfrag", NULL, NULL, NULL },
	END,
};

/* swap and zswap have no tracepoints: their kprobes (src/probes.c) and
 * the swap counter samples are the whole story. */
static const struct family_event ev_none[] = { END };

/* The rest of oom:* is not recorded: oom_score_adj_update fires on every
 * write to /proc/PID/oom_score_adj (each service start), and the reaper's
 * steps follow each mark_victim, which is what we count. signal_generate
 * is every kill a process sends (systemd-oomd, earlyoom, kill -9) and the
 * OOM killer's own SIGKILL; it fires for every signal (SIGCHLD at each
 * exit), so the kernel keeps only SIGKILL (9 on every architecture). */
static const struct family_event ev_oom[] = {
	{ "oom:mark_victim", NULL, NULL, NULL },
	{ "oom:compact_retry", NULL, NULL, NULL },
	{ "oom:reclaim_retry_zone", NULL, NULL, NULL },
	{ "signal:signal_generate", NULL, NULL, "sig==9" },
	END,
};

/* The file and mTHP variants and the 7.x pass event are enabled where
 * the kernel has them (a missing one is listed, as for every group). */
static const struct family_event ev_khugepaged[] = {
	{ "huge_memory:mm_khugepaged_scan_pmd", NULL, NULL, NULL },
	{ "huge_memory:mm_collapse_huge_page", NULL, NULL, NULL },
	{ "huge_memory:mm_collapse_huge_page_isolate", NULL, NULL, NULL },
	{ "huge_memory:mm_collapse_huge_page_swapin", NULL, NULL, NULL },
	{ "huge_memory:mm_khugepaged_scan_file", NULL, "6.1", NULL },
	{ "huge_memory:mm_khugepaged_collapse_file", NULL, "6.12", NULL },
	{ "huge_memory:mm_khugepaged_scan", NULL, "7.2", NULL },
	END,
};

/* Task names: one event per fork, exec and rename, so cheap on any
 * host; they name the tasks saved_cmdlines (128 entries) forgot. With
 * the cgroup moves (one per hierarchy on v1) and the recorder's list of
 * every task's memory cgroup at the start ("mms1 cgtasks"), they are
 * also the pid -> memory cgroup map of the analysis. */
static const struct family_event ev_tasks[] = {
	{ "task:task_newtask", NULL, NULL, NULL },
	{ "task:task_rename", NULL, NULL, NULL },
	{ "sched:sched_process_exec", NULL, NULL, NULL },
	{ "cgroup:cgroup_attach_task", NULL, NULL, NULL },
	END,
};

/* ftrace:print: the sampler's trace_marker lines; there by itself. */
static const struct family_event ev_samples[] = {
	{ "ftrace:print", NULL, NULL, NULL },
	END,
};

/* ftrace:kernel_stack: written by the stacktrace trigger (record -T),
 * not enabled as an event. */
static const struct family_event ev_stacks[] = {
	{ "ftrace:kernel_stack", NULL, NULL, NULL },
	END,
};

const struct event_family event_families[] = {
	{ "kswapd", "kswapd wakeups, wakes, sleeps, balance_pgdat and its failures",
	  ev_kswapd, 0, vmscan_kswapd_parsers },
	{ "compaction", "every compaction event (kcompactd, direct, runs, deferrals)",
	  ev_compaction, 0, compaction_parsers },
	{ "reclaim", "direct, memcg, softlimit and node reclaim, LRU work, writeback",
	  ev_reclaim, 0, vmscan_reclaim_parsers },
	{ "extfrag", "page allocator fallbacks that fragment (mm_page_alloc_extfrag)",
	  ev_extfrag, 0, kmem_parsers },
	{ "swap", "the swap allocator kprobes (no tracepoints exist)",
	  ev_none, FAMILY_PROBE_SWAP, probe_swap_parsers },
	{ "zswap", "the zswap kprobes (no tracepoints exist)",
	  ev_none, FAMILY_PROBE_ZSWAP, probe_zswap_parsers },
	{ "oom", "every kill: OOM victims, SIGKILLs sent, the last retries",
	  ev_oom, 0, oom_parsers },
	{ "khugepaged", "khugepaged scans and THP collapses, by order and result",
	  ev_khugepaged, 0, khugepaged_parsers },
	{ "tasks", "task names and memory cgroups (fork, exec, rename, attach)",
	  ev_tasks, 0, task_parsers },
	{ NULL, "counter samples (trace_marker lines, always recorded)",
	  ev_samples, 0, sample_print_parsers },
	{ NULL, "kernel stacks of the stacktrace trigger (record -T, --stacktrace)",
	  ev_stacks, 0, stack_parsers },
};
const int event_nfamilies = (int)(sizeof(event_families) / sizeof(event_families[0]));

const struct event_family *family_find(const char *group)
{
	for (int i = 0; i < event_nfamilies; i++)
		if (event_families[i].group && !strcmp(event_families[i].group, group))
			return &event_families[i];
	return NULL;
}

const char *family_group_names(char *buf, size_t len)
{
	size_t at = 0;

	if (len)
		buf[0] = '\0';
	for (int i = 0; i < event_nfamilies && at < len; i++) {
		int n;

		if (!event_families[i].group)
			continue;
		n = snprintf(buf + at, len - at, "%s%s", at ? ", " : "",
			     event_families[i].group);
		if (n < 0)
			break;
		at += (size_t)n;
	}
	return buf;
}

static int spec_matches(const char *spec, const char *system, const char *event)
{
	size_t n = strlen(system);

	if (!spec || strncmp(spec, system, n) || spec[n] != ':')
		return 0;
	return !strcmp(spec + n + 1, "*") || !strcmp(spec + n + 1, event);
}

int family_event_matches(const struct family_event *fe, const char *system,
			 const char *event)
{
	return spec_matches(fe->spec, system, event) || spec_matches(fe->alt, system, event);
}
