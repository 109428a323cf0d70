// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The phases section, text and JSON (see report-phases.h).
 *
 *     start s  duration s  phase
 *    0.004512    1.203344  touch
 *    1.207856    0.310090  pageout (to the end)
 *
 * Start is seconds since the recording's first event; a phase lasts until
 * the next phase marker, the last one until the recording's last event.
 * A recording without phase markers has no phases section (text or JSON)
 * unless --section asks for it: most workloads mark none.
 */
#include "config.h"
#include "report-phases.h"
#include "model-phases.h"
#include "json.h"

static const struct phases_model *model(const struct report_ctx *rc)
{
	return analysis_model(rc->a, &phases_model_ops);
}

/* Printed: there are phases, or --section named the section. */
static int shown(const struct report_ctx *rc)
{
	return phases_model_count(model(rc)) || rc->o->sections;
}

void report_text_phases(struct report_ctx *rc)
{
	const struct phases_model *m = model(rc);
	int n = phases_model_count(m);

	if (!shown(rc))
		return;
	report_title(rc, "Phases");
	if (!n) {
		report_line(rc, "phases: none marked (a workload writes \"mmscope phase NAME\" "
			    "into trace_marker)");
		return;
	}
	report_line(rc, "   start s  duration s  phase");
	for (int i = 0; i < n; i++) {
		const struct phase *p = phases_model_get(m, i);

		report_line(rc, "%10.6f  %10.6f  %s%s", report_rel_s(rc, p->start_ts),
			    (double)(p->end_ts - p->start_ts) / 1e9, p->name,
			    p->to_end ? " (to the end)" : "");
	}
}

void report_json_phases(struct report_ctx *rc)
{
	const struct phases_model *m = model(rc);
	struct json_writer *j = rc->jw;

	if (!shown(rc))
		return;
	json_array(j, "phases");
	for (int i = 0; i < phases_model_count(m); i++) {
		const struct phase *p = phases_model_get(m, i);

		json_object(j, NULL);
		json_str(j, "name", p->name);
		json_fixed(j, "start_s", report_rel_s(rc, p->start_ts), 6);
		json_fixed(j, "duration_s", (double)(p->end_ts - p->start_ts) / 1e9, 6);
		json_bool(j, "to_end", p->to_end);
		json_close(j);
	}
	json_close(j);
}
