// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * View 6, findings: what went wrong in the recording (src/findings.h, the
 * report's findings section), critical first: severity, id, the times it
 * spans and its summary, then the selected finding's count, evidence and
 * mechanism. Up/Down select; Enter shows the view that holds its evidence
 * (the timeline for the OOM, handoff, kcompactd and data-loss ids, the
 * stalls view for stalls and compaction, the swap and zswap views for
 * theirs) with the cursor at its start and its span selected; the
 * oom-kill finding opens the dossier of its first kill over the timeline.
 * A finding with no time opens its view where the cursor was, and says so.
 *
 * The findings are built once with the data (tui_data.findings); a live
 * session's grow, so the view builds its own each time it is entered.
 */
#include "config.h"
#include "tui.h"
#include "data.h"
#include "findings.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The view's own state (st->priv[VIEW_FINDINGS]). */
struct view_findings_priv {
	int sel, top;
	struct findings *own;	/* live: built on enter */
};

static void *view_findings_priv_new(void)
{
	return xcalloc(1, sizeof(struct view_findings_priv));
}

static void view_findings_priv_free(void *p)
{
	struct view_findings_priv *vf = p;

	if (vf)
		findings_free(vf->own);
	free(vf);
}

static struct view_findings_priv *vf_priv(const struct tui_state *st)
{
	return st->priv[VIEW_FINDINGS];
}

static const struct findings *vf_findings(const struct tui_state *st)
{
	const struct view_findings_priv *vf = vf_priv(st);

	if (st->data && st->data->findings)
		return st->data->findings;
	return vf ? vf->own : NULL;
}

/* The view that holds a finding's evidence, by the section its count
 * comes from. */
static int vf_target(const struct finding *f)
{
	const char *s = f->rule->section;

	if (!strcmp(s, "stalls") || !strcmp(s, "compaction"))
		return VIEW_STALLS;
	if (!strcmp(s, "swap"))
		return VIEW_SWAP;
	if (!strcmp(s, "zswap"))
		return VIEW_ZSWAP;
	return VIEW_TIMELINE;	/* oom, handoff, header (data loss) */
}

static enum attr_id vf_attr(enum finding_severity s)
{
	return s == FSEV_CRITICAL ? AT_ERROR : s == FSEV_WARNING ? AT_FLAG : AT_NORMAL;
}

/* The zero of a finding's times: its run's first event (trace time). */
static uint64_t vf_t0(const struct tui_state *st)
{
	if (st->hist && st->data && st->data->rec_first_ts)
		return st->data->rec_first_ts;
	return tui_trace_at(st, tui_t0(st));
}

static void vf_time(const struct tui_state *st, int has, uint64_t rel_ns, char *buf, int len)
{
	if (has)
		tui_fmt_ts(st, tui_at_trace(st, vf_t0(st)) + rel_ns, buf, len);
	else
		snprintf(buf, (size_t)len, "-");
}

static void view_findings_build(struct tui_state *st, struct canvas *body)
{
	struct view_findings_priv *vf = vf_priv(st);
	const struct findings *fs = vf_findings(st);
	int n = fs ? fs->n : 0, list, y;

	if (!fs) {
		canvas_put(body, 0, 0, AT_DIM, "findings: no recording");
		return;
	}
	if (!n) {
		canvas_put(body, 0, 0, AT_HEADER, "findings: none, no rule fired");
		canvas_put(body, 1, 0, AT_DIM, "(rules without data are listed by "
			   "mmscope report --section findings)");
		return;
	}
	if (vf->sel >= n)
		vf->sel = n - 1;
	/* the list takes half the body at most, the details the rest */
	list = body->rows / 2 - 2;
	if (list < 1)
		list = 1;
	if (vf->sel < vf->top)
		vf->top = vf->sel;
	if (vf->sel >= vf->top + list)
		vf->top = vf->sel - list + 1;
	canvas_printf(body, 0, 0, AT_HEADER, "findings: %d, critical first; Enter: its view "
		      "at its time", n);
	canvas_printf(body, 1, 0, AT_HEADER, "%-8s %-23s %10s %10s  %s", "severity", "id",
		      "start s", "end s", "summary");
	y = 2;
	for (int i = vf->top; i < n && y < 2 + list; i++, y++) {
		const struct finding *f = &fs->f[i];
		char a[32], b[32];

		vf_time(st, f->has_t_start, f->t_start_ns, a, sizeof(a));
		vf_time(st, f->has_t_end, f->t_end_ns, b, sizeof(b));
		canvas_printf(body, y, 0, AT_NORMAL, "%-8s %-23s %10s %10s  %s",
			      finding_severity_name(f->severity), f->rule->id, a, b, f->summary);
		canvas_attr(body, y, 0, 8, vf_attr(f->severity));
		if (i == vf->sel)
			canvas_attr(body, y, 0, body->cols, AT_CURSOR);
	}
	/* the selected one in full */
	const struct finding *f = &fs->f[vf->sel];

	y++;
	canvas_printf(body, y++, 0, AT_HEADER, "%s: %s", f->rule->id, f->summary);
	canvas_printf(body, y++, 0, AT_NORMAL, "count %llu %.*s (%s section)",
		      (unsigned long long)f->count,
		      unit_len((long long)f->count, f->count_unit ? f->count_unit : ""),
		      f->count_unit ? f->count_unit : "", f->rule->section);
	for (int e = 0; e < f->nev && y < body->rows; e++) {
		char ev[360];

		snprintf(ev, sizeof(ev), "- %s [%s; %s]", f->ev[e].figure, f->ev[e].source,
			 f->ev[e].section);
		y += canvas_wrap(body, y, 0, body->cols, body->rows - y, AT_NORMAL, ev);
	}
	if (y < body->rows && f->mechanism[0])
		canvas_wrap(body, y, 0, body->cols, body->rows - y, AT_DIM, f->mechanism);
}

/* Enter: the finding's view, the cursor at its start, its span selected. */
static void vf_jump(struct tui_state *st, const struct finding *f)
{
	int target = vf_target(f);
	const char *name = tui_view(target)->name;
	char t[32];

	if (f->has_t_start) {
		uint64_t a = tui_at_trace(st, vf_t0(st)) + f->t_start_ns;
		uint64_t b = f->has_t_end && f->t_end_ns > f->t_start_ns ?
			     tui_at_trace(st, vf_t0(st)) + f->t_end_ns : a;

		if (b > a) {
			tui_select(st, a, b);
			tui_zoom_to(st, a, b);
		}
		tui_set_cursor(st, a);
	}
	/* the kill at its start is the evidence: the timeline opens its
	 * dossier (the cursor is on the kill's time) */
	int kill = f->has_t_start && !strcmp(f->rule->id, "oom-kill");

	st->focus_kill = kill;
	/* as the view's own key does (tui_apply clears the message) */
	tui_apply(st, tui_view_action(target));
	if (kill)	/* the timeline's build names the kill */
		tui_message(st, "%s at %s s: its dossier (%s)", f->rule->id,
			    tui_fmt_ts(st, st->cursor, t, sizeof(t)), name);
	else if (f->has_t_start)
		tui_message(st, "%s at %s s (%s)", f->rule->id,
			    tui_fmt_ts(st, st->cursor, t, sizeof(t)), name);
	else
		tui_message(st, "%s: its time is not known; cursor not moved (%s)",
			    f->rule->id, name);
}

static unsigned view_findings_handle(struct tui_state *st, enum tui_action a)
{
	struct view_findings_priv *vf = vf_priv(st);
	const struct findings *fs = vf_findings(st);
	int n = fs ? fs->n : 0;

	switch (a) {
	case ACT_UP:
		if (vf->sel > 0)
			vf->sel--;
		break;
	case ACT_DOWN:
		if (vf->sel + 1 < n)
			vf->sel++;
		break;
	case ACT_ENTER:
		if (vf->sel < n)
			vf_jump(st, &fs->f[vf->sel]);
		break;
	default:
		return 0;
	}
	return TUI_HANDLED | TUI_REDRAW;
}

static void view_findings_enter(struct tui_state *st)
{
	struct view_findings_priv *vf = vf_priv(st);

	/* live: the models grew since the last look */
	if (vf && st->data && st->data->an && !st->data->findings) {
		findings_free(vf->own);
		vf->own = findings_build(st->data->an);
	}
}

const struct view_ops view_findings_ops = {
	.name = "findings",
	.priv_new = view_findings_priv_new,
	.priv_free = view_findings_priv_free,
	.build = view_findings_build,
	.handle = view_findings_handle,
	.enter = view_findings_enter,
};
