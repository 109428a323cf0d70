/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reports rendered from an analysis: plain text (72 columns by default,
 * deterministic, fit to paste into a mail) or JSON with the same content.
 * Rendering writes into a strbuf and does no I/O; the command prints it.
 */
#ifndef MMSCOPE_REPORT_H
#define MMSCOPE_REPORT_H

#include "analysis.h"
#include "json.h"
#include "util.h"

enum report_format { RF_TEXT, RF_JSON, RF_HTML };	/* html: report-html.h */

struct report_opts {
	unsigned sections;		/* bit i: report_sections[i]; 0 = all */
	enum report_format format;
	int width;			/* text columns, default 72 */
	int max_episodes;		/* episode rows per node in text */
	int top_tasks;
};

void report_opts_default(struct report_opts *o);
void report_render(const struct analysis *a, const struct report_opts *o, struct strbuf *out);

/* Internals shared by the report files. */
struct report_ctx {
	const struct analysis *a;
	const struct analysis_info *in;
	const struct report_opts *o;
	struct strbuf *sb;
	struct json_writer *jw;		/* the JSON renderers write here */
};

/*
 * A report section: one entry of report_sections[] (src/report.c), which
 * is the only list of them. --section, the list in "report --help", the
 * order of the text and of the JSON members all come from the table;
 * tests/cli/sections.sh checks that man/mmscope-report.1 lists the same
 * names and help lines.
 */
struct report_section_def {
	const char *name;	/* --section NAME; its JSON member is named so too */
	const char *help;	/* one line for --help and the man page */
	/* Prints the section: its title (report_title) and lines. */
	void (*text)(struct report_ctx *rc);
	/* Writes the section's JSON member(s) into rc->jw; NULL: none. */
	void (*json)(struct report_ctx *rc);
	/* Its markup for report --format html, ids after pre; NULL: the
	 * text's lines turned into markup (report-html.c). For a section
	 * whose blocks are better as tables than as the text's layout. */
	void (*html)(struct report_ctx *rc, struct strbuf *out, const char *pre);
	/* Its numbers come only from counter samples (mmscope record or
	 * sample): --help says so, and the JSON member follows
	 * "has_samples". The text renderer prints report_needs_samples()'s
	 * line itself, after its title. */
	unsigned needs_samples : 1;
	/* Its JSON member is also written for --section summary, whose text
	 * is drawn from it (the summary has no JSON member of its own). */
	unsigned in_summary : 1;
};

extern const struct report_section_def report_sections[];
extern const int report_nsections;
/* The index of a section ("handoff") in report_sections[], or -1. */
int report_section_find(const char *name);

void report_title(struct report_ctx *rc, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void report_line(struct report_ctx *rc, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* prefix then text, wrapped at the width with continuation lines
 * indented as deep as the prefix. */
void report_wrap(struct report_ctx *rc, const char *prefix, const char *text);
/* "N probe hits missed" of family "swap"/"zswap" (NULL: all) after prefix. */
void report_probe_missed(struct report_ctx *rc, const char *family, const char *prefix);
/* Seconds since the first event, "%.6f" style with 3 decimals. */
double report_rel_s(const struct report_ctx *rc, uint64_t ts);
/* One line saying a section needs counter samples; 1 if printed. */
int report_needs_samples(struct report_ctx *rc, const char *section);
/* 1 if a parser noted that METRIC (a field_spec's metric, "reclaim
 * efficiency") is not measured: the event's format lacks the field, so
 * the numbers behind it read 0 and must not be printed as measured. */
int report_not_measured(const struct report_ctx *rc, const char *metric);
/* What the handoff model's "stalls while kcompactd slept" counts in this
 * recording: "direct reclaim/compaction", "direct reclaim" or "direct
 * compaction" after the events it has, NULL when it has neither. */
const char *report_stall_entries(const struct report_ctx *rc);
/* A folio of this order in kB, from the recording's page size (4 KB on
 * x86-64; 16 or 64 KB on some arm64 kernels). */
unsigned long report_order_kb(const struct report_ctx *rc, int order);
/* The recording has the events behind a figure (mmscope's enabled list,
 * or the formats a trace-cmd file carries): kswapd's wake and sleep,
 * kcompactd's wake, compaction runs' begin and end. A figure whose
 * events were not recorded prints "not recorded" / null, never 0. */
int report_has_kswapd(const struct report_ctx *rc);
int report_has_kcompactd(const struct report_ctx *rc);
int report_has_compaction(const struct report_ctx *rc);
/* kcompactd wake and sleep and compaction begin/end: proactive passes */
int report_has_kc_proactive(const struct report_ctx *rc);
/* The compaction stats as shown: without kcompactd's wakes and sleeps its
 * request and proactive runs folded into kc_unknown (*to_free, freed by
 * the caller, holds that copy; NULL when the model's own are shown). */
const struct compact_stats *report_compact_stats(const struct report_ctx *rc,
						 struct compact_stats **to_free);

/* Consistency rows with "not traced" decided; returns their number. */
int report_consistency_rows(struct report_ctx *rc, struct consistency_row *rows,
			    int64_t *lost);
extern const char *const report_verdict_names[];

/* The renderers of the table's sections, by file. */
/* report.c */
void report_text_header(struct report_ctx *rc);
void report_text_summary(struct report_ctx *rc);
/* report-mm.c */
void report_text_handoff(struct report_ctx *rc);
void report_text_stalls(struct report_ctx *rc);
void report_text_compaction(struct report_ctx *rc);
/* report-counters.c */
void report_text_frag(struct report_ctx *rc);
void report_text_counters(struct report_ctx *rc);
void report_text_consistency(struct report_ctx *rc);
/* report-json.c */
void report_json_header(struct report_ctx *rc);
void report_json_handoff(struct report_ctx *rc);
void report_json_stalls(struct report_ctx *rc);
void report_json_compaction(struct report_ctx *rc);
void report_json_frag(struct report_ctx *rc);
void report_json_counters(struct report_ctx *rc);
void report_json_consistency(struct report_ctx *rc);
/* report-swap.c */
void report_text_swap(struct report_ctx *rc);
void report_text_zswap(struct report_ctx *rc);
void report_json_swap(struct report_ctx *rc);
void report_json_zswap(struct report_ctx *rc);

#endif
