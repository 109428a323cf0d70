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

enum report_section {
	RS_HEADER, RS_SUMMARY, RS_HANDOFF, RS_STALLS, RS_COMPACTION, RS_FRAG,
	RS_COUNTERS, RS_CONSISTENCY,
	RS_SWAP, RS_ZSWAP,	/* issue 6: src/report-swap.c */
	RS_NR
};

enum report_format { RF_TEXT, RF_JSON };

struct report_opts {
	unsigned sections;		/* bit per enum report_section; 0 = all */
	enum report_format format;
	int width;			/* text columns, default 72 */
	int max_episodes;		/* episode rows per node in text */
	int top_tasks;
};

void report_opts_default(struct report_opts *o);
/* The section for a name ("handoff"), or -1. */
int report_section_find(const char *name);
const char *report_section_name(enum report_section s);

void report_render(const struct analysis *a, const struct report_opts *o, struct strbuf *out);

/* Internals shared by the report files. */
struct report_ctx {
	const struct analysis *a;
	const struct analysis_info *in;
	const struct report_opts *o;
	struct strbuf *sb;
	struct json_writer *jw;		/* the JSON renderers write here */
};

void report_title(struct report_ctx *rc, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void report_line(struct report_ctx *rc, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* prefix then text, wrapped at the width with continuation lines
 * indented as deep as the prefix. */
void report_wrap(struct report_ctx *rc, const char *prefix, const char *text);
/* Seconds since the first event, "%.6f" style with 3 decimals. */
double report_rel_s(const struct report_ctx *rc, uint64_t ts);
/* One line saying a section needs counter samples; 1 if printed. */
int report_needs_samples(struct report_ctx *rc, const char *section);
/* 1 if a parser noted that METRIC (a field_spec's metric, "reclaim
 * efficiency") is not measured: the event's format lacks the field, so
 * the numbers behind it read 0 and must not be printed as measured. */
int report_not_measured(const struct report_ctx *rc, const char *metric);

/* Consistency rows with "not traced" decided; returns their number. */
int report_consistency_rows(struct report_ctx *rc, struct consistency_row *rows,
			    int64_t *lost);
extern const char *const report_verdict_names[];
extern const char *const report_rel_names[];

void report_text_handoff(struct report_ctx *rc);
void report_text_stalls(struct report_ctx *rc);
void report_text_compaction(struct report_ctx *rc);
void report_text_frag(struct report_ctx *rc);
void report_text_counters(struct report_ctx *rc);
void report_text_consistency(struct report_ctx *rc);
void report_json(struct report_ctx *rc);
void report_text_swap(struct report_ctx *rc);
void report_text_zswap(struct report_ctx *rc);
/* The "swap" and "zswap" members of the JSON report, into rc->jw. */
void report_json_swap(struct report_ctx *rc);
void report_json_zswap(struct report_ctx *rc);

#endif
