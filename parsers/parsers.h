/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The parser table. Each parser turns one kind of raw event into typed
 * records (records.h). Event parsers register by (system, event); counter
 * sample parsers register by the sample source tag of mmscope-samples(5)
 * and are reached through the ftrace:print parser, which splits the line.
 *
 * Binding happens once per event type: parser_bind_fields() (or a parser's own bind) looks the fields up
 * by name (through a table of known renames across kernel versions) and
 * caches their offsets; per event, parsers read through the cache. A field
 * the kernel does not have reads as its default and leaves a note; it
 * never fails the run.
 *
 * Nothing here prints; notes are collected in the parser set.
 */
#ifndef MMSCOPE_PARSERS_H
#define MMSCOPE_PARSERS_H

#include <stdint.h>
#include <event-parse.h>

#include "records.h"

/* A field resolved once: offset and size in the record, or off < 0. */
struct pfield {
	int off;
	int size;
	int is_signed;
};

/* Looks up the first of the NULL-terminated names the event has.
 * Returns 0, or -1 with f->off = -1 when none exists. */
int pfield_find(struct tep_event *ev, struct pfield *f, const char *const *names);
/* Reads a field; def when missing or out of the record. */
uint64_t pfield_u64(const struct pfield *f, const void *data, int size, uint64_t def);
int64_t pfield_s64(const struct pfield *f, const void *data, int size, int64_t def);
/* A string (char[] or __data_loc char[]); "" when missing. Writes at most
 * len bytes including the NUL into buf and returns buf. */
const char *pfield_str(const struct pfield *f, const void *data, int size,
		       char *buf, int len);

struct parser_set;

/* What a parser's parse() gets for one event. */
struct parse_ctx {
	struct parser_set *set;
	struct tep_handle *tep;
	struct record *rec;	/* ts, cpu, pid prefilled; type and union to fill */
	const void *data;
	int size;
	record_sink_fn sink;
	void *sink_ctx;
};

/* One field a parser reads: its names across kernels (first = current),
 * and the metric that degrades without it (NULL: optional, no note). */
struct field_spec {
	const char *const *names;
	const char *metric;
};

#define PSTATE_MAX_FIELDS 16

/* The state bound per event type by the generic binder. */
struct pstate {
	int kind;		/* the parser's own sub-kind */
	struct pfield f[PSTATE_MAX_FIELDS];
};

struct parser {
	const char *system;
	const char *event;
	void (*parse)(void *state, struct parse_ctx *pc);
	int kind;			/* copied into pstate.kind */
	const struct field_spec *fields; /* terminated by { NULL } */
	int wants_comm;		/* fill rec->comm from the pid */
	/* Optional: a bind of its own (malloc'd state, freed with free());
	 * NULL to skip the event. Without it the fields above are bound. */
	void *(*bind)(struct parser_set *set, struct tep_event *ev);
	/* The record type it emits (the main one, for parsers that emit
	 * several): what analysis_has_event() looks for in hand-fed runs. */
	enum rec_type rec;
};

/* A sample source parser, fed one split mms1 line. */
struct sample_kv {
	const char *key;
	const char *val;
};

struct sample_line {
	const char *source;
	uint64_t seq;
	int nkv;
	struct sample_kv kv[160];
};

struct sample_parser {
	const char *tag;
	enum sample_source source;
	void (*parse)(const struct sample_line *sl, struct parse_ctx *pc);
};

/* The parser tables are per event family: see families.h. */

/* Sample source parsers (parsers/sample-*.c). */
void sample_vmstat_parse(const struct sample_line *sl, struct parse_ctx *pc);
void sample_zoneinfo_parse(const struct sample_line *sl, struct parse_ctx *pc);
void sample_buddyinfo_parse(const struct sample_line *sl, struct parse_ctx *pc);
void sample_pagetype_parse(const struct sample_line *sl, struct parse_ctx *pc);
void sample_mthp_parse(const struct sample_line *sl, struct parse_ctx *pc);
void sample_psi_parse(const struct sample_line *sl, struct parse_ctx *pc);
void sample_swaps_parse(const struct sample_line *sl, struct parse_ctx *pc);
void sample_tasks_parse(const struct sample_line *sl, struct parse_ctx *pc);

/* Emits every numeric KEY=VALUE as a REC_COUNTER of src and every other
 * one as a REC_SETTING; id_key (if not NULL) names the key that
 * identifies the instance (mthp size, swap dev). */
void sample_emit_counters(const struct sample_line *sl, struct parse_ctx *pc,
			  enum sample_source src, const char *id_key);

/* %XX -> the byte, in place (ctx and outcome values). */
void sample_percent_decode(char *s);

/* "1,2,>100000" into out[]; returns the count or -1. */
int sample_parse_orders(const char *s, uint64_t *out, int max);
/* Fills rec->buddy from node=, zone=, type=, free=; 0 or -1. */
int sample_fill_buddy(const struct sample_line *sl, struct parse_ctx *pc);

/* Splits "mms1 SOURCE SEQ K=V..." in place. Returns 0, 1 for a line that
 * is not a sample (another version or plain text), -1 if malformed. */
int sample_line_split(char *line, struct sample_line *sl);
/* Finds the parser for a source tag, or NULL. */
const struct sample_parser *sample_parser_find(const char *tag);
/* Feeds one text line (a trace_marker write) through the sample parsers. */
int sample_feed_line(struct parse_ctx *pc, const char *text, int len);
/* Integer values of a split line; 0 when found. */
int sample_get_s64(const struct sample_line *sl, const char *key, int64_t *v);
const char *sample_get(const struct sample_line *sl, const char *key);
/* A sampled reason for print: underscores back to spaces, but inside a
 * path, until "_(" ("no_/sys/kernel/mm/transparent_hugepage/x_(y)" ->
 * "no /sys/kernel/mm/transparent_hugepage/x (y)"). */
void sample_reason_text(const char *raw, char *out, size_t len);

/* The parser of (system, event) in any family's table, or NULL;
 * "mmscope_swap_*" in a table matches the systems "mmscope_swap_PID". */
const struct parser *parser_lookup(const char *system, const char *event);
/* 1 when a parser reads system:event (td_open_only's filter: the
 * analysis parses no other format). */
int parser_wants_event(const char *system, const char *event);

/* The set: parsers bound to one tep handle's event ids. */
struct parser_set *parser_set_new(struct tep_handle *tep);
void parser_set_free(struct parser_set *set);
/* Parses one event (by its type) into records for sink. Returns 1 if a
 * parser handled it, 0 if no parser wants this event type. */
int parser_set_parse(struct parser_set *set, struct tep_event *ev,
		     struct tep_record *trec, uint64_t ts, int cpu,
		     record_sink_fn sink, void *sink_ctx);
/* Bound parsers: how many. */
int parser_set_nbound(const struct parser_set *set);
/* 1 when a parser is bound to event id (parser_set_parse would read it). */
int parser_set_binds(const struct parser_set *set, int id);
/* A note (degraded metric, unknown sample line). Duplicates are dropped. */
void parser_note(struct parser_set *set, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int parser_set_nnotes(const struct parser_set *set);
const char *parser_set_note(const struct parser_set *set, int i);
/* Samples seen (mms1 lines) and sample sets lost (SEQ gaps). */
uint64_t parser_set_sample_lines(const struct parser_set *set);
void parser_set_count_sample(struct parser_set *set, uint64_t seq);
uint64_t parser_set_sample_gaps(const struct parser_set *set);

/* Helpers for bind(): look fields up, note the missing ones. */
int parser_field(struct parser_set *set, struct tep_event *ev, struct pfield *f,
		 const char *const *names, const char *metric);

/* The generic binder: resolves p->fields into a struct pstate. */
void *parser_bind_fields(struct parser_set *set, struct tep_event *ev,
			 const struct parser *p);

/* Reads field i of a bound pstate. */
#define PF_U(st, pc, i) pfield_u64(&(st)->f[i], (pc)->data, (pc)->size, 0)
#define PF_S(st, pc, i) pfield_s64(&(st)->f[i], (pc)->data, (pc)->size, 0)
#define PF_SD(st, pc, i, d) pfield_s64(&(st)->f[i], (pc)->data, (pc)->size, d)

#define NAMES(...) ((const char *const []){ __VA_ARGS__, NULL })

#endif
