// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * "mms1 tasks SEQ rank=R pid=P comm=NAME rss_kb=N swap_kb=N": one line
 * per task of the sampler's snapshot of the largest tasks by VmRSS +
 * VmSwap (mmscope-samples(5)), taken with the oom group. Counters of
 * instance R (the rank, 0 the largest), comm a setting, percent-decoded
 * (a task name may hold spaces).
 */
#include "config.h"
#include "parsers.h"

#include <stdio.h>
#include <string.h>

void sample_tasks_parse(const struct sample_line *sl, struct parse_ctx *pc)
{
	struct sample_line copy = *sl;
	char comm[64];

	for (int i = 0; i < copy.nkv; i++) {
		if (strcmp(copy.kv[i].key, "comm"))
			continue;
		snprintf(comm, sizeof(comm), "%s", copy.kv[i].val);
		sample_percent_decode(comm);
		copy.kv[i].val = comm;
	}
	sample_emit_counters(&copy, pc, SRC_TASKS, "rank");
}
