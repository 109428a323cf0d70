// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Report: the section table, the text helpers, and the header and summary
 * sections. Each section is rendered from model queries only; sections
 * that need counter samples print one line saying so when the recording
 * has none (a plain trace-cmd recording). Output depends only on the
 * recording, never on the time or the terminal, so golden files hold.
 */
#include "config.h"
#include "report.h"
#include "report-cgroups.h"
#include "report-findings.h"
#include "report-html.h"
#include "report-khugepaged.h"
#include "report-memcgs.h"
#include "report-oom.h"
#include "report-kills.h"
#include "report-phases.h"
#include "report-run.h"
#include "report-stacks.h"
#include "run-stop.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/*
 * The sections, in the order they print (text) and appear (JSON). A new
 * section is one entry here, with its renderers in its own file
 * (src/report-NAME.c, declared in report.h), the same help line under
 * --section and a subsection under SECTIONS in man/mmscope-report.1
 * (tests/cli/sections.sh compares them with --help), and a test:
 *
 *	{ .name = "NAME", .help = "one line of at most 64 columns",
 *	  .text = report_text_NAME, .json = report_json_NAME },
 *
 * .json writes one member named NAME; set .needs_samples when every
 * number comes from counter samples (--help then adds " (needs samples)":
 * keep the help line to 48 columns), .in_summary when --section summary
 * should also bring its JSON member. At most 32 sections (a bit each in
 * report_opts.sections).
 */
const struct report_section_def report_sections[] = {
	{ .name = "header",
	  .help = "file, kernel, host, clock, span, events read and lost, notes",
	  .text = report_text_header, .json = report_json_header, .in_summary = 1 },
	{ .name = "findings",
	  .help = "what went wrong, with its evidence (rules: FINDINGS)",
	  .text = report_text_findings, .json = report_json_findings },
	{ .name = "run",
	  .help = "settings, command outcome, memcg limit, peak and events",
	  .text = report_text_run, .json = report_json_run },
	{ .name = "summary",
	  .help = "lines for kswapd, kcompactd, stalls, reclaim, compaction, oom",
	  .text = report_text_summary },
	{ .name = "handoff",
	  .help = "per node: kswapd episodes and their kcompactd handoffs",
	  .text = report_text_handoff, .json = report_json_handoff, .in_summary = 1 },
	{ .name = "stalls",
	  .help = "reclaim by kind: latency, pages per priority, longest tasks",
	  .text = report_text_stalls, .json = report_json_stalls, .in_summary = 1 },
	{ .name = "compaction",
	  .help = "compaction runs by runner and order, results, deferrals",
	  .text = report_text_compaction, .json = report_json_compaction,
	  .in_summary = 1 },
	{ .name = "frag",
	  .help = "free blocks and fragmentation indices per zone",
	  .text = report_text_frag, .json = report_json_frag, .needs_samples = 1 },
	{ .name = "counters",
	  .help = "vmstat, mTHP, zswap, PSI, swap and memcg deltas",
	  .text = report_text_counters, .json = report_json_counters,
	  .needs_samples = 1 },
	{ .name = "consistency",
	  .help = "event counts against the kernel's counters",
	  .text = report_text_consistency, .json = report_json_consistency,
	  .needs_samples = 1 },
	{ .name = "swap",
	  .help = "swap clusters per device, mTHP swap-out and its fallbacks",
	  .text = report_text_swap, .json = report_json_swap },
	{ .name = "zswap",
	  .help = "zswap pool, limit, stores, rejects, writeback",
	  .text = report_text_zswap, .json = report_json_zswap, .needs_samples = 1 },
	{ .name = "khugepaged",
	  .help = "khugepaged scans and THP collapses per order, by result",
	  .text = report_text_khugepaged, .json = report_json_khugepaged },
	{ .name = "oom",
	  .help = "OOM kills: victim, pid, time, anon-rss, memcg, constraint",
	  .text = report_text_oom, .json = report_json_oom, .in_summary = 1 },
	{ .name = "kills",
	  .help = "every kill, whoever the killer, with the window before it",
	  .text = report_text_kills, .json = report_json_kills_summary,
	  .html = report_html_kills },
	{ .name = "phases",
	  .help = "workload phases (mmscope phase markers) and their durations",
	  .text = report_text_phases, .json = report_json_phases },
	{ .name = "stacks",
	  .help = "kernel stacks of the longest stalls, per kind (record -T)",
	  .text = report_text_stacks, .json = report_json_stacks },
	{ .name = "memcg",
	  .help = "usage, limits and events of every sampled memcg",
	  .text = report_text_memcgs, .json = report_json_memcgs, .needs_samples = 1 },
	{ .name = "cgroups",
	  .help = "per memory cgroup: tasks, stalls, memcg reclaim, swap-outs, OOM",
	  .text = report_text_cgroups, .json = report_json_cgroups },
};
const int report_nsections = (int)(sizeof(report_sections) / sizeof(report_sections[0]));

_Static_assert(sizeof(report_sections) / sizeof(report_sections[0]) <=
	       sizeof(((struct report_opts *)0)->sections) * 8,
	       "more sections than bits in report_opts.sections");

void report_opts_default(struct report_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->format = RF_TEXT;
	o->width = 72;
	o->max_episodes = 40;
	o->top_tasks = 5;
}

int report_section_find(const char *name)
{
	for (int i = 0; i < report_nsections; i++)
		if (!strcmp(report_sections[i].name, name))
			return i;
	return -1;
}

void report_title(struct report_ctx *rc, const char *fmt, ...)
{
	va_list ap;

	if (rc->sb->len)
		strbuf_addch(rc->sb, '\n');
	va_start(ap, fmt);
	strbuf_vaddf(rc->sb, fmt, ap);
	va_end(ap);
	strbuf_addch(rc->sb, '\n');
	for (int i = 0; i < rc->o->width; i++)
		strbuf_addch(rc->sb, '-');
	strbuf_addch(rc->sb, '\n');
}

void report_line(struct report_ctx *rc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(rc->sb, fmt, ap);
	va_end(ap);
	strbuf_addch(rc->sb, '\n');
}

void report_wrap(struct report_ctx *rc, const char *prefix, const char *text)
{
	int indent = (int)strlen(prefix), col = indent;
	const char *p = text;

	strbuf_addstr(rc->sb, prefix);
	while (*p) {
		int n = (int)strcspn(p, " "), room = rc->o->width - indent;

		/* a word longer than a whole line (a path, an escaped argument)
		 * is cut: no line of the report is wider than its width */
		if (n > room && room >= 16) {
			if (col > indent) {
				strbuf_addch(rc->sb, '\n');
				for (int i = 0; i < indent; i++)
					strbuf_addch(rc->sb, ' ');
			}
			strbuf_add(rc->sb, p, (size_t)room);
			col = rc->o->width;
			p += room;
			continue;
		}
		if (col > indent && col + 1 + n > rc->o->width) {
			strbuf_addch(rc->sb, '\n');
			for (int i = 0; i < indent; i++)
				strbuf_addch(rc->sb, ' ');
			col = indent;
		} else if (col > indent) {
			strbuf_addch(rc->sb, ' ');
			col++;
		}
		strbuf_add(rc->sb, p, (size_t)n);
		col += n;
		p += n;
		while (*p == ' ')
			p++;
	}
	strbuf_addch(rc->sb, '\n');
}

double report_rel_s(const struct report_ctx *rc, uint64_t ts)
{
	return ts >= rc->in->first_ts ? (double)(ts - rc->in->first_ts) / 1e9 : 0;
}

int report_needs_samples(struct report_ctx *rc, const char *section)
{
	if (rc->in->has_samples)
		return 0;
	/* at most 72 columns with the longest name (fragmentation, window) */
	report_line(rc, "%s: needs counter samples (mmscope record); none in %s",
		    section, rc->in->windowed ? "window" : "file");
	return 1;
}

unsigned long report_order_kb(const struct report_ctx *rc, int order)
{
	return analysis_order_kb(rc->in, order);	/* the recording's page size */
}

int report_has_kswapd(const struct report_ctx *rc)
{
	return analysis_traced(rc->a, REC_KSWAPD_WAKE, -1) &&
	       analysis_traced(rc->a, REC_KSWAPD_SLEEP, -1);
}

int report_has_kcompactd(const struct report_ctx *rc)
{
	return analysis_traced(rc->a, REC_KCOMPACTD_WAKE, -1);
}

int report_has_compaction(const struct report_ctx *rc)
{
	return analysis_traced(rc->a, REC_COMPACT_BEGIN, -1) &&
	       analysis_traced(rc->a, REC_COMPACT_END, -1);
}

int report_has_kc_proactive(const struct report_ctx *rc)
{
	/* a proactive pass is compaction by kcompactd outside its
	 * kcompactd_wake .. kcompactd_sleep requests: all four are needed */
	return report_has_kcompactd(rc) && report_has_compaction(rc) &&
	       analysis_traced(rc->a, REC_KCOMPACTD_SLEEP, -1);
}

const struct compact_stats *report_compact_stats(const struct report_ctx *rc,
						 struct compact_stats **to_free)
{
	const struct compact_stats *cs = compaction_model_stats(analysis_compaction(rc->a));

	*to_free = NULL;
	if (report_has_kc_proactive(rc))
		return cs;
	*to_free = xmalloc(sizeof(**to_free));
	**to_free = *cs;
	compact_stats_fold_kcompactd(*to_free);
	return *to_free;
}

const char *report_stall_entries(const struct report_ctx *rc)
{
	int rec = analysis_traced(rc->a, REC_RECLAIM_BEGIN, RK_DIRECT);
	int com = analysis_traced(rc->a, REC_COMPACT_TRY, -1);

	return rec && com ? "direct reclaim/compaction" : rec ? "direct reclaim" :
	       com ? "direct compaction" : NULL;
}

int report_not_measured(const struct report_ctx *rc, const char *metric)
{
	char tail[160];
	size_t t;

	/* parser_field()'s note: "SYS:EVENT has no field 'F': METRIC not measured" */
	snprintf(tail, sizeof(tail), ": %s not measured", metric);
	t = strlen(tail);
	for (int i = 0; i < analysis_nnotes(rc->a); i++) {
		const char *n = analysis_note(rc->a, i);
		size_t l = n ? strlen(n) : 0;

		if (l > t && !strcmp(n + l - t, tail))
			return 1;
	}
	return 0;
}

static const char *basename_of(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* A flight file: what the ring overwrote before the window is not lost;
 * the figures below count every event in the file, so say from when
 * every CPU has its data. */
static void report_flight_header(struct report_ctx *rc)
{
	const struct analysis_info *in = rc->in;
	char text[256];

	snprintf(text, sizeof(text), "%lld%s (ring overwrote %s%llu events before the "
		 "window: flight recorder), %llu dropped in stats", in->lost,
		 in->lost_unknown ? " and some uncounted" : "",
		 in->overwritten_unknown ? "at least " : "",
		 (unsigned long long)in->overwritten, (unsigned long long)in->cpustat_lost);
	report_wrap(rc, "lost      ", text);
	if (in->window_cpu < 0)
		snprintf(text, sizeof(text), "every CPU has data from the first event: "
			 "%.6f .. %.6f s", (double)in->first_ts / 1e9, (double)in->last_ts / 1e9);
	else
		snprintf(text, sizeof(text), "every CPU has data in %.6f .. %.6f s (%.3f s; "
			 "CPU %d's starts last)", (double)in->window_first_ts / 1e9,
			 (double)in->last_ts / 1e9,
			 (double)(in->last_ts - in->window_first_ts) / 1e9, in->window_cpu);
	report_wrap(rc, "window    ", text);
}

/* Probe hits the kernel missed (family "swap", "zswap" or NULL: all), as
 * losses of the figures they feed: one line after prefix. */
void report_probe_missed(struct report_ctx *rc, const char *family, const char *prefix)
{
	char names[160], text[320], fam[16];
	long long m = analysis_probe_missed(rc->a, family, names, sizeof(names));

	snprintf(fam, sizeof(fam), "%s%s", family ? family : "", family ? " " : "");
	long long u = m < 0 ? analysis_probe_unreturned(rc->a, family, names, sizeof(names)) : 0;

	if (m < 0 && u > 0)	/* the file itself shows some: a floor, not "-" */
		snprintf(text, sizeof(text), "at least %lld %sprobe hit%s missed (no "
			 "kprobe_profile count; entry hits beyond return hits: %s)", u, fam,
			 plural((unsigned long long)u), names);
	else if (m < 0)
		snprintf(text, sizeof(text), "- %sprobe hits missed (no kprobe_profile "
			 "count in the recording)", fam);
	else if (!m)
		snprintf(text, sizeof(text), "0 %sprobe hits missed (kprobe_profile)", fam);
	else
		snprintf(text, sizeof(text), "%lld %sprobe hit%s missed (kprobe_profile: %s); "
			 "the figures they feed are low by up to that", m, fam,
			 plural((unsigned long long)m), names);
	report_wrap(rc, prefix, text);
}

/* Each step of the wall clock against the trace clock (at most 3, then
 * how many more): the wall times between its two reads are not known. */
static void report_wall_steps(struct report_ctx *rc, const struct analysis_info *in)
{
	int n = wall_map_n(&in->wall) - 1;
	char text[200];

	for (int i = 0; i < n && i < 3; i++) {
		uint64_t after, before;
		int64_t moved;

		wall_map_step(&in->wall, i, &after, &before, &moved);
		snprintf(text, sizeof(text), "stepped %+.3f s between %.6f and %.6f s",
			 (double)moved / 1e9, (double)after / 1e9, (double)before / 1e9);
		report_wrap(rc, "          ", text);
	}
	if (n > 3) {
		snprintf(text, sizeof(text), "and %d more steps", n - 3);
		report_wrap(rc, "          ", text);
	}
	if (n > 0)
		report_wrap(rc, "          ", "(the wall clock against the trace clock: a clock "
			    "step or a suspend; wall times within a step are not known)");
	if (in->wall.checked && !in->wall.full && in->last_ts > in->wall.seg[n].tb + 1000000000u) {
		/* a recovered recording: its metadata is the spool's last */
		snprintf(text, sizeof(text), "(the clocks were last read together at %.6f s: a "
			 "step after it is not seen)", (double)in->wall.seg[n].tb / 1e9);
		report_wrap(rc, "          ", text);
	}
	if (in->wall.full) {
		snprintf(text, sizeof(text), "(more steps than the recording kept: wall times "
			 "after %.6f s are not known)", (double)in->wall.seg[n].tb / 1e9);
		report_wrap(rc, "          ", text);
	}
}

/* "oom at 0.873 s (@24363.672975): ..." the trigger's time from the
 * first event; signed, as a trigger may come before the ring's oldest
 * event */
static void trigger_when(struct report_ctx *rc, const struct run_stop *st, struct strbuf *sb)
{
	if (st->has_ns)
		strbuf_addf(sb, " at %.3f s (@%.6f)",
			    (double)(int64_t)(st->ns - rc->in->first_ts) / 1e9,
			    (double)st->ns / 1e9);
	else
		strbuf_addstr(sb, " at - (no trace time recorded)");
}

/*
 * The trigger that made a flight file and why the recording stopped
 * (mmscope-recording(5)); nothing for a key the file lacks. A command
 * that exited is the Run section's outcome line, not repeated here.
 */
static void report_text_stop(struct report_ctx *rc)
{
	struct run_stop st;
	struct strbuf sb = STRBUF_INIT;

	run_stop_parse2(&st, analysis_private_meta(rc->a), analysis_last_meta(rc->a));
	if (st.has_trigger) {
		const char *u = st.unit ? st.unit : "";
		const char *sp = !strcmp(u, "%") || !*u ? "" : " ";

		strbuf_addstr(&sb, st.name ? st.name : st.kind ? st.kind : "-");
		trigger_when(rc, &st, &sb);
		if (st.kind && st.name && strcmp(st.kind, st.name))
			strbuf_addf(&sb, "; %s", st.kind);
		if (st.has_value)
			strbuf_addf(&sb, "; value %g%s%s", st.value, sp, u);
		if (st.has_threshold)
			strbuf_addf(&sb, "%s threshold %g%s%s", st.has_value ? "," : ";",
				    st.threshold, sp, u);
		if (st.has_pid || st.comm) {
			strbuf_addstr(&sb, "; task ");
			if (st.has_pid)
				strbuf_addf(&sb, "%lld", (long long)st.pid);
			if (st.comm)
				strbuf_addf(&sb, st.has_pid ? " (%s)" : "%s", st.comm);
		}
		/* older files have only the condition in words */
		if (!st.kind && st.trigger)
			strbuf_addf(&sb, ": %s", st.trigger);
		report_wrap(rc, "trigger   ", sb.buf);
		strbuf_reset(&sb);
	}
	if (st.stop && strcmp(st.stop, "command-exit"))
		report_wrap(rc, "stopped   ", run_stop_text(&st, 0));
	if (st.ncpu) {
		for (int i = 0; i < st.ncpu; i++) {
			if (st.cpu_end[i].known)
				strbuf_addf(&sb, "%sCPU %d at %.3f s", i ? ", " : "", i,
					    (double)(int64_t)(st.cpu_end[i].ns - rc->in->first_ts) / 1e9);
			else
				strbuf_addf(&sb, "%sCPU %d - (no events)", i ? ", " : "", i);
		}
		report_wrap(rc, "data ends ", sb.buf);
	}
	strbuf_release(&sb);
	run_stop_release(&st);
}

/* --since/--until and --pid/--comm: what the figures below cover. */
static void report_text_scope(struct report_ctx *rc)
{
	const struct analysis_info *in = rc->in;
	char text[400], until[64];

	if (in->windowed) {
		if (in->until_ts == UINT64_MAX)
			snprintf(until, sizeof(until), "the end");
		else
			snprintf(until, sizeof(until), "%.6f s (@%.6f)", report_rel_s(rc, in->until_ts),
				 (double)in->until_ts / 1e9);
		snprintf(text, sizeof(text), "%.6f s (@%.6f) .. %s from the first event; "
			 "stalls, compaction runs and kswapd episodes that begin in it",
			 report_rel_s(rc, in->since_ts), (double)in->since_ts / 1e9, until);
		report_wrap(rc, "window    ", text);
		if (in->samples_last_ts > in->samples_first_ts)
			snprintf(text, sizeof(text), "counter deltas between the sample sets at "
				 "%.3f s and %.3f s (nearest the window's edges, inside it)",
				 report_rel_s(rc, in->samples_first_ts),
				 report_rel_s(rc, in->samples_last_ts));
		else
			snprintf(text, sizeof(text), "counter deltas: fewer than two complete "
				 "sample sets in the window");
		report_wrap(rc, "          ", text);
	}
	if (in->task_scoped) {
		char who[4200];

		/* how many tasks matched, for --pid too: a pid that never ran
		 * in the window says "(0 tasks)" rather than nothing */
		if (in->scope_pid && in->scope_comm)
			snprintf(who, sizeof(who), "pid %d if named %s", in->scope_pid, in->scope_comm);
		else if (in->scope_pid)
			snprintf(who, sizeof(who), "pid %d", in->scope_pid);
		else if (in->scope_comm)
			snprintf(who, sizeof(who), "comm %s", in->scope_comm);
		else
			snprintf(who, sizeof(who), "tasks");
		if (in->scope_cgroup)	/* each at the time of what it did */
			snprintf(who + strlen(who), sizeof(who) - strlen(who),
				 " in memory cgroup %s and below", in->scope_cgroup);
		snprintf(who + strlen(who), sizeof(who) - strlen(who), " (%llu task%s)",
			 (unsigned long long)in->scope_tasks, in->scope_tasks == 1 ? "" : "s");
		snprintf(text, sizeof(text), "%s: stalls, top tasks, reclaim and compaction "
			 "work, swap-outs and OOM victims of these tasks only; counters, "
			 "kswapd and kcompactd episodes stay global", who);
		report_wrap(rc, "tasks     ", text);
	}
}

void report_text_header(struct report_ctx *rc)
{
	const struct analysis_info *in = rc->in;
	uint64_t from, to;

	analysis_interval(in, &from, &to);

	report_title(rc, "mmscope report: %s", basename_of(in->path ? in->path : "-"));
	report_line(rc, "kernel    %s", in->kernel);
	report_line(rc, "host      %s", in->host);
	report_line(rc, "file      trace.dat v%d, %s, clock %s", in->version,
		    in->compression && *in->compression ? in->compression : "none",
		    in->clock);
	/* the interval the figures come from: with a window, the window
	 * actually analysed, and the recording's span beside it */
	if (in->windowed && !in->events)	/* no last event to show */
		report_line(rc, "span      - (no event in the window: %s)",
			    in->empty_window ? in->empty_window : "?");
	else if (!in->events)	/* not a span of 0 s at 0 */
		report_line(rc, "span      - (no events in this recording)");
	else
		report_line(rc, "span      %.6f .. %.6f s (%.3f s)%s", (double)from / 1e9,
			    (double)to / 1e9, (double)(to - from) / 1e9,
			    in->windowed ? ", the window" : "");
	if (in->windowed && in->rec_last_known)
		report_line(rc, "recording %.6f .. %.6f s (%.3f s)", (double)in->first_ts / 1e9,
			    (double)in->rec_last_ts / 1e9,
			    (double)(in->rec_last_ts - in->first_ts) / 1e9);
	else if (in->windowed)
		report_line(rc, "recording %.6f s .. (not read past the window)",
			    (double)in->first_ts / 1e9);
	if (in->has_wall && in->events) {
		char f[48], l[48];

		analysis_wall_format(in, from, 3, f, sizeof(f));
		analysis_wall_format(in, to, 3, l, sizeof(l));
		report_line(rc, "wall      %s .. %s", f, l);
	} else if (!in->has_wall) {
		report_line(rc, "wall      - (no wall-clock reference in this recording)");
	}
	if (in->has_wall)
		report_wall_steps(rc, in);
	report_line(rc, "events    %llu read, %llu parsed into %llu records",
		    (unsigned long long)in->events, (unsigned long long)in->parsed,
		    (unsigned long long)in->records);
	if (in->flight)
		report_flight_header(rc);
	else
		report_line(rc, "lost      %lld in the pages%s, %llu overrun/dropped in stats",
			    in->lost, in->lost_unknown ? " (and some uncounted)" : "",
			    (unsigned long long)in->cpustat_lost);
	if (in->has_probes)
		report_probe_missed(rc, NULL, "probes    ");
	else if (!strcmp(analysis_probe_set(rc->a), "none") &&
		 !strncmp(analysis_probe_reason(rc->a), "probe set ", 10))
		/* a set fits but was not verified on this kernel (probes.h) */
		report_wrap(rc, "probes    none: ", analysis_probe_reason(rc->a));
	if (in->has_samples) {
		uint64_t f, l, after, gap = counters_model_max_gap(analysis_counters(rc->a), &after);

		report_line(rc, "samples   %llu sets (%llu lines), %llu lost, %llu incomplete",
			    (unsigned long long)in->sample_sets,
			    (unsigned long long)in->sample_lines,
			    (unsigned long long)in->sample_gaps,
			    (unsigned long long)in->sample_incomplete);
		counters_model_span(analysis_counters(rc->a), &f, &l);
		if (gap)	/* the mean tells the interval; the largest, a hole */
			report_line(rc, "          %.3f s apart on average, at most %.3f s "
				    "(after %.3f s)", (double)(l - f) / 1e9 /
				    (double)(in->sample_sets - 1), (double)gap / 1e9,
				    report_rel_s(rc, after));
	} else
		report_line(rc, "samples   none (no mmscope counter samples in this %s)",
			    in->windowed ? "window" : "file");
	report_text_stop(rc);
	report_text_scope(rc);
	for (int i = 0; i < analysis_nnotes(rc->a); i++)
		report_wrap(rc, "note      ", analysis_note(rc->a, i));
}

static void report_summary_handoff(struct report_ctx *rc)
{
	const struct handoff_model *hm = analysis_handoff(rc->a);
	uint64_t eps = 0, wakes = 0, ho = 0, none = 0, kcw = 0, kcp = 0, kcpro = 0, kcs = 0;
	char pro[24] = "-";
	uint64_t stalls = 0, flagged = 0;

	for (int i = 0; i < handoff_model_nnodes(hm); i++) {
		const struct handoff_node_stats *n = handoff_model_node(hm, i);

		eps += n->episodes;
		wakes += n->kswapd_wakes;
		ho += n->ho_wakeup + n->ho_pickup;
		none += n->ho_none;
		kcw += n->kc_woken;
		kcp += n->kc_pickup;
		kcpro += n->kc_pro_passes;
		kcs += n->kc_sleeps;
		stalls += n->stalls_kc_asleep;
		for (int b = 0; b < 6; b++)
			flagged += n->flags_count[b];
	}
	if (report_has_kswapd(rc)) {
		report_line(rc, "kswapd      %llu episode%s on %d node%s: %llu handed off, "
			    "%llu did not", (unsigned long long)eps, eps == 1 ? "" : "s",
			    handoff_model_nnodes(hm), handoff_model_nnodes(hm) == 1 ? "" : "s",
			    (unsigned long long)ho, (unsigned long long)none);
		report_line(rc, "            %llu kswapd_wake event%s (episode starts and "
			    "re-balances)", (unsigned long long)wakes, wakes == 1 ? "" : "s");
	} else
		report_line(rc, "kswapd      %s (mmscope record -g kswapd)",
			    analysis_untraced_word(rc->a, REC_KSWAPD_WAKE, -1));
	if (report_has_kc_proactive(rc))
		snprintf(pro, sizeof(pro), "%llu", (unsigned long long)kcpro);
	/* proactive compaction emits no kcompactd_wake: passes, not wakes */
	if (report_has_kcompactd(rc)) {
		char line[160];

		snprintf(line, sizeof(line), "%llu woken, %llu pickup%s, %s proactive "
			 "pass%s; %llu sleep%s", (unsigned long long)kcw,
			 (unsigned long long)kcp, plural(kcp), pro,
			 report_has_kc_proactive(rc) && kcpro == 1 ? "" : "es",
			 (unsigned long long)kcs, plural(kcs));
		report_wrap(rc, "kcompactd   ", line);
	} else if (analysis_traced(rc->a, REC_KCOMPACTD_SLEEP, -1))
		/* the sleeps are counted even where the wakes cannot be */
		report_line(rc, "kcompactd   wakes %s, %llu sleep%s",
			    analysis_untraced_word(rc->a, REC_KCOMPACTD_WAKE, -1),
			    (unsigned long long)kcs, plural(kcs));
	else
		report_line(rc, "kcompactd   %s (mmscope record -g compaction)",
			    analysis_untraced_word(rc->a, REC_KCOMPACTD_WAKE, -1));
	if (report_stall_entries(rc))
		report_line(rc, "stalls      %llu %s entries while kcompactd slept",
			    (unsigned long long)stalls, report_stall_entries(rc));
	else
		report_line(rc, "stalls      - (no direct reclaim or compaction events "
			    "recorded)");
	if (report_has_kswapd(rc))
		report_line(rc, "flags       %llu on kswapd episodes",
			    (unsigned long long)flagged);
}

static void report_summary_reclaim(struct report_ctx *rc)
{
	const struct reclaim_model *rm = analysis_reclaim(rc->a);
	static const enum reclaim_kind kinds[] = { RK_DIRECT, RK_MEMCG, RK_NODE };

	/* reclaim_end without nr_reclaimed: no page count (the note says
	 * why), not the 0 it reads as */
	int no_rec = report_not_measured(rc, "pages reclaimed per reclaim");

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		const struct reclaim_kind_stats *ks = reclaim_model_kind(rm, kinds[i]);
		char pages[48] = "", text[160];
		int n;

		if (!ks->begins && !ks->ends)
			continue;
		if (!no_rec)
			snprintf(pages, sizeof(pages), "%llu pages",
				 (unsigned long long)ks->nr_reclaimed);
		n = snprintf(text, sizeof(text), "%-11s %llu reclaims, p99 %.3f ms, max %.3f ms",
			     kinds[i] == RK_DIRECT ? "direct" :
			     kinds[i] == RK_MEMCG ? "memcg" : "node",
			     (unsigned long long)reclaim_stalls(ks),
			     (double)hist_percentile(&ks->lat, 99) / 1e6,
			     (double)ks->lat.max / 1e6);
		/* the pages on a line of their own where they would pass the
		 * width (a second-long max and a million pages do) */
		if (!*pages)
			report_line(rc, "%s", text);
		else if (n + 2 + (int)strlen(pages) <= rc->o->width)
			report_line(rc, "%s, %s", text, pages);
		else
			report_line(rc, "%s,\n%-11s %s", text, "", pages);
	}
	const struct reclaim_kind_stats *k = reclaim_model_kind(rm, RK_KSWAPD);

	if (report_not_measured(rc, "reclaim efficiency"))
		report_line(rc, "kswapd      pages scanned/reclaimed not measured (see note)");
	else if (analysis_traced(rc->a, REC_SHRINK_INACTIVE, -1))
		/* lru_shrink_inactive's counts: on MGLRU they differ from
		 * pgscan_kswapd (the Counters and Consistency rows), so named */
		report_line(rc, "kswapd      lru_shrink_inactive: %llu pages scanned, %llu "
			    "reclaimed", (unsigned long long)k->scanned,
			    (unsigned long long)k->reclaimed);
	else
		report_line(rc, "kswapd      pages scanned/reclaimed not traced "
			    "(no lru_shrink_inactive)");
}

static void report_summary_compaction(struct report_ctx *rc)
{
	const struct compact_stats *cs = compaction_model_stats(analysis_compaction(rc->a));
	uint64_t runs = 0, ok = 0, migrated = 0;

	for (int i = 0; i < CR_NR; i++) {
		runs += cs->runner[i].runs;
		ok += cs->runner[i].status[8];
		migrated += cs->runner[i].migrated;
	}
	if (report_has_compaction(rc))
		report_line(rc, "compaction  %llu run%s (%llu success), %llu pages migrated, "
			    "%llu direct", (unsigned long long)runs, plural(runs),
			    (unsigned long long)ok,
			    (unsigned long long)migrated, (unsigned long long)cs->direct_tries);
	else
		report_line(rc, "compaction  %s (mmscope record -g compaction)",
			    analysis_untraced_word(rc->a, REC_COMPACT_BEGIN, -1));
	if (cs->extfrag)
		report_line(rc, "extfrag     %llu fragmenting fallbacks (%llu severe)",
			    (unsigned long long)cs->extfrag,
			    (unsigned long long)cs->extfrag_severe);
}

void report_text_summary(struct report_ctx *rc)
{
	report_title(rc, "Summary");
	report_summary_handoff(rc);
	report_summary_reclaim(rc);
	report_summary_compaction(rc);
	report_summary_oom(rc);
}

static int wanted(const struct report_opts *o, int i)
{
	return i >= 0 && (!o->sections || (o->sections & (1u << i)));
}

/* One object, a member per section asked for. "has_samples" comes just
 * before the first section that needs samples (asked for or not), so a
 * script reads it before the members it qualifies. */
static void report_json(struct report_ctx *rc)
{
	int summary = wanted(rc->o, report_section_find("summary"));
	struct json_writer j;
	int said = 0;

	json_begin(&j, rc->sb, JSON_ROOT_FLUSH);
	rc->jw = &j;
	for (int i = 0; i < report_nsections; i++) {
		const struct report_section_def *d = &report_sections[i];

		if (d->needs_samples && !said) {
			json_bool(&j, "has_samples", rc->in->has_samples);
			said = 1;
		}
		if (d->json && (wanted(rc->o, i) || (d->in_summary && summary)))
			d->json(rc);
	}
	if (!said)
		json_bool(&j, "has_samples", rc->in->has_samples);
	json_end(&j);
	rc->jw = NULL;
}

void report_render(const struct analysis *a, const struct report_opts *o, struct strbuf *out)
{
	struct report_ctx rc = { a, analysis_info(a), o, out, NULL };

	if (o->format == RF_JSON) {
		report_json(&rc);
		return;
	}
	if (o->format == RF_HTML) {	/* from the text renderers: report-html.c */
		report_render_html(a, o, out);
		return;
	}
	for (int i = 0; i < report_nsections; i++)
		if (wanted(o, i))
			report_sections[i].text(&rc);
}
