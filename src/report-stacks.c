// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The stacks section, text and JSON (see report-stacks.h).
 *
 *   memcg reclaim: 100 stalls, 100 with a stack, 1 distinct
 *     #1  100 stalls, total 76.387 ms, max 16.688 ms
 *         try_to_free_mem_cgroup_pages+0x9a
 *         try_charge_memcg+0x1a2
 *
 * Stall times are the kind's own (begin .. end of the task; direct
 * compaction: its compact_begin .. end runs after try_to_compact_pages),
 * in ms. Frames are innermost first, from the first frame below the
 * tracepoint's own (trace_event_raw_event_*), named from the recording's
 * kallsyms; an address with no symbol prints as 0x...
 */
#include "config.h"
#include "report-stacks.h"
#include "model-stacks.h"
#include "json.h"

#include <stdio.h>
#include <string.h>

#define STACKS_TOP	3	/* distinct stacks per kind */
#define STACKS_FRAMES	16	/* frames per stack in text */

static const struct stacks_model *model(const struct report_ctx *rc)
{
	return analysis_model(rc->a, &stacks_model_ops);
}

/* The recording has the events that begin (stacks_stall_events, "system:event")
 * and end stalls of kind k. */
static int kind_recorded(const struct report_ctx *rc, enum stack_kind k)
{
	const struct analysis *a = rc->a;
	const char *begin = (unsigned)k < SK_NR ? stacks_stall_events[k] : NULL;
	const char *colon = begin ? strchr(begin, ':') : NULL;
	char sys[64];

	if (!colon)
		return 0;
	snprintf(sys, sizeof(sys), "%.*s", (int)(colon - begin), begin);
	if (!analysis_has_event(a, sys, colon + 1))
		return 0;
	switch (k) {
	case SK_DIRECT_RECLAIM:
		return analysis_has_event(a, "vmscan", "mm_vmscan_direct_reclaim_end");
	case SK_MEMCG_RECLAIM:
		return analysis_has_event(a, "vmscan", "mm_vmscan_memcg_reclaim_end");
	case SK_DIRECT_COMPACT:
		return report_has_compaction(rc);
	default:
		return 0;
	}
}

static const char *frame_text(const struct kstack *s, int i, char *buf, size_t len)
{
	if (s->func[i])
		snprintf(buf, len, "%s+0x%llx", s->func[i], (unsigned long long)s->off[i]);
	else
		snprintf(buf, len, "0x%llx", (unsigned long long)s->addr[i]);
	return buf;
}

static double ms(uint64_t ns)
{
	return (double)ns / 1e6;
}

void report_text_stacks(struct report_ctx *rc)
{
	const struct stacks_model *m = model(rc);
	const struct kstack *top[STACKS_TOP];
	char buf[512];

	report_title(rc, "Kernel stacks of stalls");
	if (!m || !stacks_model_seen(m)) {
		report_line(rc, "stacks: not recorded (mmscope record -T)");
		return;
	}
	report_wrap(rc, "", "per kind, the distinct stacks of its stalls, the one with the "
		    "longest stall first; frames innermost first, below the tracepoint");
	for (int k = 0; k < SK_NR; k++) {
		const struct stack_kind_stats *ks = stacks_model_kind(m, k);
		int n;

		if (!kind_recorded(rc, k)) {
			report_line(rc, "%s: not recorded", stack_kind_name(k));
			continue;
		}
		if (!ks->stalls) {
			report_line(rc, "%s: no stalls", stack_kind_name(k));
			continue;
		}
		report_line(rc, "%s: %llu stall%s, %llu with a stack, %d distinct",
			    stack_kind_name(k), (unsigned long long)ks->stalls,
			    ks->stalls == 1 ? "" : "s", (unsigned long long)ks->with_stack,
			    stacks_model_ndistinct(m, k));
		n = stacks_model_top(m, k, top, STACKS_TOP);
		for (int i = 0; i < n; i++) {
			const struct stack_agg *g = &top[i]->agg[k];
			int f0 = kstack_first_frame(top[i]), shown = 0;

			report_line(rc, "  #%d  %llu stall%s, total %.3f ms, max %.3f ms", i + 1,
				    (unsigned long long)g->count, g->count == 1 ? "" : "s",
				    ms(g->total_ns), ms(g->max_ns));
			for (int f = f0; f < top[i]->nframes && shown < STACKS_FRAMES; f++, shown++)
				report_line(rc, "      %.*s", rc->o->width > 6 ? rc->o->width - 6 : 1,
					    frame_text(top[i], f, buf, sizeof(buf)));
			if (top[i]->nframes - f0 > shown)
				report_line(rc, "      (%d frames more)", top[i]->nframes - f0 - shown);
		}
	}
	if (stacks_model_unattached(m))
		report_wrap(rc, "", (snprintf(buf, sizeof(buf), "%llu stack%s followed no "
					      "stall begin on its CPU (other --stacktrace "
					      "events, or the begin was lost)",
					      (unsigned long long)stacks_model_unattached(m),
					      stacks_model_unattached(m) == 1 ? "" : "s"), buf));
	if (stacks_model_dropped(m))
		report_line(rc, "%llu stacks beyond %d distinct ones not kept",
			    (unsigned long long)stacks_model_dropped(m), STACKS_MAX_DISTINCT);
}

void report_json_stacks(struct report_ctx *rc)
{
	const struct stacks_model *m = model(rc);
	struct json_writer *j = rc->jw;
	const struct kstack *top[STACKS_TOP];
	char buf[512];

	if (!m || !stacks_model_seen(m)) {
		json_null(j, "stacks");
		return;
	}
	json_object(j, "stacks");
	json_u64(j, "stacks_recorded", stacks_model_seen(m));
	json_u64(j, "stacks_unattached", stacks_model_unattached(m));
	json_u64(j, "stacks_dropped", stacks_model_dropped(m));
	for (int k = 0; k < SK_NR; k++) {
		const struct stack_kind_stats *ks = stacks_model_kind(m, k);
		int n;

		if (!kind_recorded(rc, k)) {
			json_null(j, stack_kind_key(k));
			continue;
		}
		json_object(j, stack_kind_key(k));
		json_u64(j, "stalls", ks->stalls);
		json_u64(j, "with_stack", ks->with_stack);
		json_u64(j, "distinct", (uint64_t)stacks_model_ndistinct(m, k));
		json_array(j, "top");
		n = stacks_model_top(m, k, top, STACKS_TOP);
		for (int i = 0; i < n; i++) {
			const struct stack_agg *g = &top[i]->agg[k];

			json_object(j, NULL);
			json_u64(j, "stalls", g->count);
			json_fixed(j, "total_ms", ms(g->total_ns), 3);
			json_fixed(j, "max_ms", ms(g->max_ns), 3);
			json_u64(j, "tracepoint_frames", (uint64_t)kstack_first_frame(top[i]));
			json_array_inline(j, "frames");
			for (int f = 0; f < top[i]->nframes; f++)
				json_str(j, NULL, frame_text(top[i], f, buf, sizeof(buf)));
			json_close(j);
			json_array_inline(j, "addresses");	/* for addr2line, as strings */
			for (int f = 0; f < top[i]->nframes; f++) {
				snprintf(buf, sizeof(buf), "0x%llx",
					 (unsigned long long)top[i]->addr[f]);
				json_str(j, NULL, buf);
			}
			json_close(j);
			json_close(j);
		}
		json_close(j);
		json_close(j);
	}
	json_close(j);
}
