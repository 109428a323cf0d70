// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Counter samples: the ftrace:print parser and the sample line splitter.
 * The recorder writes "mms1 SOURCE SEQ KEY=VALUE..." lines into
 * trace_marker (mmscope-samples(5)); this file splits them in place and
 * hands the pieces to the parser registered for SOURCE, which turns them
 * into typed records. Lines of another version, or plain marker text, are
 * skipped; a source this reader does not know leaves one note. A line
 * "mmscope phase NAME" a workload wrote becomes a REC_PHASE record.
 */
#include "config.h"
#include "parsers.h"
#include "util.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void sample_end_parse(const struct sample_line *sl, struct parse_ctx *pc);
static void sample_missing_parse(const struct sample_line *sl, struct parse_ctx *pc);
static void sample_zswap_parse(const struct sample_line *sl, struct parse_ctx *pc);
static void sample_memcg_parse(const struct sample_line *sl, struct parse_ctx *pc);
static void sample_memcgs_parse(const struct sample_line *sl, struct parse_ctx *pc);
static void sample_ctx_parse(const struct sample_line *sl, struct parse_ctx *pc);
static void sample_outcome_parse(const struct sample_line *sl, struct parse_ctx *pc);
static void sample_cgtasks_parse(const struct sample_line *sl, struct parse_ctx *pc);

static const struct sample_parser sample_parsers[] = {
	{ "vmstat", SRC_VMSTAT, sample_vmstat_parse },
	{ "zone", SRC_ZONE, sample_zoneinfo_parse },
	{ "buddy", SRC_BUDDY, sample_buddyinfo_parse },
	{ "pagetype", SRC_PAGETYPE, sample_pagetype_parse },
	{ "mthp", SRC_MTHP, sample_mthp_parse },
	{ "zswap", SRC_ZSWAP, sample_zswap_parse },
	{ "psi", SRC_PSI, sample_psi_parse },
	{ "swap", SRC_SWAP, sample_swaps_parse },
	{ "memcg", SRC_MEMCG, sample_memcg_parse },
	{ "memcgs", SRC_MEMCGS, sample_memcgs_parse },
	{ "end", SRC_END, sample_end_parse },
	{ "missing", SRC_MISSING, sample_missing_parse },
	{ "ctx", SRC_CTX, sample_ctx_parse },
	{ "outcome", SRC_OUTCOME, sample_outcome_parse },
	{ "cgtasks", SRC_CGTASKS, sample_cgtasks_parse },
	{ "tasks", SRC_TASKS, sample_tasks_parse },
};

const struct sample_parser *sample_parser_find(const char *tag)
{
	for (size_t i = 0; i < sizeof(sample_parsers) / sizeof(sample_parsers[0]); i++)
		if (!strcmp(sample_parsers[i].tag, tag))
			return &sample_parsers[i];
	return NULL;
}

static char *next_word(char **p)
{
	char *s = *p, *w;

	while (*s == ' ' || *s == '\t')
		s++;
	if (!*s || *s == '\n')
		return NULL;
	w = s;
	while (*s && *s != ' ' && *s != '\t' && *s != '\n')
		s++;
	if (*s)
		*s++ = '\0';
	*p = s;
	return w;
}

int sample_line_split(char *line, struct sample_line *sl)
{
	char *p = line, *w, *end;

	w = next_word(&p);
	if (!w || strcmp(w, "mms1"))
		return 1;
	sl->source = next_word(&p);
	w = next_word(&p);
	if (!sl->source || !w)
		return -1;
	errno = 0;
	sl->seq = strtoull(w, &end, 10);
	if (*w < '0' || *w > '9' || *end || errno)
		return -1;
	sl->nkv = 0;
	while ((w = next_word(&p)) != NULL) {
		char *eq = strchr(w, '=');

		if (!eq || eq == w)
			return -1;
		if (sl->nkv >= (int)(sizeof(sl->kv) / sizeof(sl->kv[0])))
			return -1;
		*eq = '\0';
		sl->kv[sl->nkv].key = w;
		sl->kv[sl->nkv].val = eq + 1;
		sl->nkv++;
	}
	return 0;
}

const char *sample_get(const struct sample_line *sl, const char *key)
{
	for (int i = 0; i < sl->nkv; i++)
		if (!strcmp(sl->kv[i].key, key))
			return sl->kv[i].val;
	return NULL;
}

/* Key i of a sample line as a setting: a string value, kept as it is. */
static void set_setting(struct record *r, const struct sample_line *sl, int i,
			enum sample_source src, const char *instance)
{
	r->type = REC_SETTING;
	r->setting.source = src;
	r->setting.seq = sl->seq;
	r->setting.instance = instance ? instance : "";
	r->setting.key = sl->kv[i].key;
	r->setting.value = sl->kv[i].val;
}

/*
 * "123", "-4", or "1.25" (fixed point, scale = digits after the dot).
 * Counters are the kernel's unsigned longs, printed up to 2^64-1: a value
 * without a sign is read as unsigned 64-bit, and one above INT64_MAX is
 * kept as its 64 bits with *wide set (deltas taken modulo 2^64 are then
 * exact). Returns 0; 1 when the text is not a number (a setting); -1
 * when it is a number out of range, never clamped.
 */
static int parse_value(const char *s, int64_t *v, int *scale, int *wide)
{
	const char *d = s[0] == '-' ? s + 1 : s;
	const char *end;
	uint64_t ip = 0, lim = s[0] == '-' ? (uint64_t)INT64_MAX + 1 : UINT64_MAX;

	*scale = 0;
	*wide = 0;
	/* digits by hand: strtoull takes "-1" as 2^64-1, and spaces or '+' */
	for (end = d; *end >= '0' && *end <= '9'; end++) {
		unsigned dig = (unsigned)(*end - '0');

		if (ip > (lim - dig) / 10) {
			while (*end >= '0' && *end <= '9')
				end++;
			/* a long run of digits is a number, not a setting */
			return *end && *end != '.' ? 1 : -1;
		}
		ip = ip * 10 + dig;
	}
	if (end == d)
		return 1;
	if (*end == '.') {
		const char *f = end + 1;
		uint64_t x = ip;

		while (*f >= '0' && *f <= '9' && *scale < 6) {
			if (x > (uint64_t)INT64_MAX / 10)
				return -1;
			x = x * 10 + (uint64_t)(*f - '0');
			(*scale)++;
			f++;
		}
		if (*f || x > (uint64_t)INT64_MAX)
			return *f ? 1 : -1;
		*v = d != s ? -(int64_t)x : (int64_t)x;
		return 0;
	}
	if (*end)
		return 1;
	if (d != s)	/* -ip: ip <= 2^63 */
		*v = ip == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)ip;
	else if (ip > (uint64_t)INT64_MAX)
		*v = (int64_t)(ip - (uint64_t)INT64_MAX - 1) + INT64_MIN, *wide = 1;
	else
		*v = (int64_t)ip;
	return 0;
}

int sample_get_s64(const struct sample_line *sl, const char *key, int64_t *v)
{
	const char *s = sample_get(sl, key);
	int scale, wide;

	if (!s || parse_value(s, v, &scale, &wide) || scale || wide)
		return -1;
	return 0;
}

void sample_emit_counters(const struct sample_line *sl, struct parse_ctx *pc,
			  enum sample_source src, const char *id_key)
{
	struct record *r = pc->rec;
	const char *instance = id_key ? sample_get(sl, id_key) : NULL;
	int64_t v;
	int scale, wide;

	/* a number out of range makes the whole line suspect: noted and
	 * skipped before any of it counts, never clamped */
	for (int i = 0; i < sl->nkv; i++) {
		if (parse_value(sl->kv[i].val, &v, &scale, &wide) < 0) {
			parser_note(pc->set, "samples: malformed %s line skipped (%s out of "
				    "64-bit range)", sl->source, sl->kv[i].key);
			return;
		}
	}
	for (int i = 0; i < sl->nkv; i++) {
		if (id_key && !strcmp(sl->kv[i].key, id_key))
			continue;
		if (parse_value(sl->kv[i].val, &v, &scale, &wide)) {
			/* strings (enabled=Y, compressor=lz4) are settings */
			set_setting(r, sl, i, src, instance);
		} else {
			r->type = REC_COUNTER;
			r->counter.source = src;
			r->counter.seq = sl->seq;
			r->counter.instance = instance ? instance : "";
			r->counter.key = sl->kv[i].key;
			r->counter.value = v;
			r->counter.scale = scale;
			r->counter.wide = wide;
		}
		pc->sink(pc->sink_ctx, r);
	}
}

void sample_reason_text(const char *raw, char *out, size_t len)
{
	size_t n = 0;
	int path = 0;	/* inside a path: its underscores are its own */

	for (const char *p = raw; *p && n + 1 < len; p++) {
		char c = *p;

		if (c == '/')
			path = 1;
		else if (c == '_' && (!path || p[1] == '('))
			c = ' ';
		if (c == ' ')
			path = 0;
		out[n++] = c;
	}
	if (len)
		out[n] = '\0';
}

static void sample_zswap_parse(const struct sample_line *sl, struct parse_ctx *pc)
{
	sample_emit_counters(sl, pc, SRC_ZSWAP, NULL);
}

static void sample_memcg_parse(const struct sample_line *sl, struct parse_ctx *pc)
{
	sample_emit_counters(sl, pc, SRC_MEMCG, "path");
}

/* "//nc4a" -> "/nc4a", "/a/" -> "/a": a path as /proc/PID/cgroup gives
 * it (record --cgroups / wrote the root's children with two slashes
 * before 0.1.0's fix) */
static void squeeze_slashes(char *s)
{
	char *o = s;

	if (*s != '/')
		return;		/* "(other cgroups)" */
	for (const char *p = s; *p; p++)
		if (!(*p == '/' && o > s && o[-1] == '/'))
			*o++ = *p;
	if (o - s > 1 && o[-1] == '/')
		o--;
	*o = '\0';
}

/* --cgroups: path= is percent-encoded (a cgroup's name may hold any
 * byte); the records carry it decoded ("(other cgroups)" for the sum of
 * those not sampled one by one, which no cgroup path can be). */
static void sample_memcgs_parse(const struct sample_line *sl, struct parse_ctx *pc)
{
	for (int i = 0; i < sl->nkv; i++)
		if (!strcmp(sl->kv[i].key, "path")) {
			sample_percent_decode((char *)sl->kv[i].val);
			squeeze_slashes((char *)sl->kv[i].val);
		}
	sample_emit_counters(sl, pc, SRC_MEMCGS, "path");
}

static int hexval(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'A' && c <= 'F' ? c - 'A' + 10 :
	       c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

void sample_percent_decode(char *s)
{
	char *o = s;

	for (; *s; s++) {
		int hi, lo;

		if (*s == '%' && (hi = hexval(s[1])) >= 0 && (lo = hexval(s[2])) >= 0) {
			*o++ = (char)(hi << 4 | lo);
			s += 2;
		} else {
			*o++ = *s;
		}
	}
	*o = '\0';
}

/*
 * ctx and outcome: every KEY=VALUE a REC_SETTING with its value
 * percent-decoded (in place: the line is the caller's copy), numbers
 * included -- they are settings, not counters to take deltas of. ctx's
 * at= (start, end) is the instance.
 */
static void emit_settings(const struct sample_line *sl, struct parse_ctx *pc,
			  enum sample_source src, const char *id_key)
{
	const char *instance = id_key ? sample_get(sl, id_key) : NULL;
	struct record *r = pc->rec;

	for (int i = 0; i < sl->nkv; i++) {
		if (id_key && !strcmp(sl->kv[i].key, id_key))
			continue;
		sample_percent_decode((char *)sl->kv[i].val);
		set_setting(r, sl, i, src, instance);
		pc->sink(pc->sink_ctx, r);
	}
}

static void sample_ctx_parse(const struct sample_line *sl, struct parse_ctx *pc)
{
	emit_settings(sl, pc, SRC_CTX, "at");
}

static void sample_outcome_parse(const struct sample_line *sl, struct parse_ctx *pc)
{
	emit_settings(sl, pc, SRC_OUTCOME, NULL);
}

/*
 * The tasks alive at the start and their memory cgroup: "hier=H
 * path=P pids=1,2,..." (P percent-encoded) is one REC_CGROUP_TASK per
 * pid; "done=1 hier=H mode=v1|v2 ..." ends the list (the map is whole).
 * A malformed pid list is noted and its line dropped whole: a task
 * left out is unknown, never placed in the wrong cgroup.
 */
static void sample_cgtasks_parse(const struct sample_line *sl, struct parse_ctx *pc)
{
	struct record *r = pc->rec;
	const char *pids = sample_get(sl, "pids"), *mode = sample_get(sl, "mode");
	char *path = (char *)sample_get(sl, "path");
	int64_t hier = -1, done = 0;

	if (sample_get_s64(sl, "hier", &hier) || hier < 0 || hier > 0xffff) {
		parser_note(pc->set, "samples: cgtasks line without hier= skipped");
		return;
	}
	r->type = REC_CGROUP_TASK;
	r->cgtask.hier = (int)hier;
	if (!sample_get_s64(sl, "done", &done) && done == 1) {
		int64_t unread = 0, long_paths = 0;

		sample_get_s64(sl, "unread", &unread);
		sample_get_s64(sl, "long_paths", &long_paths);
		r->cgtask.kind = CGT_START_DONE;
		/* the processes the list left out: their tasks stay unknown */
		r->cgtask.pid = unread + long_paths > 0 ? 1 : 0;
		r->cgtask.path = mode ? mode : "";
		pc->sink(pc->sink_ctx, r);
		return;
	}
	if (!path || !pids || path[0] == '\0') {
		parser_note(pc->set, "samples: cgtasks line without path= or pids= skipped");
		return;
	}
	for (const char *p = pids; *p; p++)
		if ((*p < '0' || *p > '9') && *p != ',') {
			parser_note(pc->set, "samples: cgtasks line with a bad pid list skipped");
			return;
		}
	sample_percent_decode(path);
	r->cgtask.kind = CGT_START;
	r->cgtask.path = path;
	for (const char *p = pids; *p;) {
		char *end;
		long pid;

		if (*p == ',') {
			p++;
			continue;
		}
		pid = strtol(p, &end, 10);
		if (pid > 0 && pid <= 0x3fffffff) {
			r->cgtask.pid = (int)pid;
			pc->sink(pc->sink_ctx, r);
		}
		p = end;
	}
}

static void sample_end_parse(const struct sample_line *sl, struct parse_ctx *pc)
{
	int64_t us = -1;

	sample_get_s64(sl, "us", &us);
	pc->rec->type = REC_SAMPLE_END;
	pc->rec->send.seq = sl->seq;
	pc->rec->send.us = us;
	pc->sink(pc->sink_ctx, pc->rec);
}

static void sample_missing_parse(const struct sample_line *sl, struct parse_ctx *pc)
{
	const char *src = sample_get(sl, "sources");
	char what[64], why[256];

	for (int i = 0; i < sl->nkv; i++) {
		if (strncmp(sl->kv[i].key, "why_", 4))
			continue;
		sample_reason_text(sl->kv[i].key + 4, what, sizeof(what));
		sample_reason_text(sl->kv[i].val, why, sizeof(why));
		parser_note(pc->set, "samples: no %s (%s)", what, why);
	}
	if (src && !sl->nkv)
		parser_note(pc->set, "samples: missing %s", src);
	/* every reason as a setting too: a model says why its figures are
	 * missing (why_zswap_pool=debugfs_not_mounted) */
	sample_emit_counters(sl, pc, SRC_MISSING, NULL);
}

int sample_feed_line(struct parse_ctx *pc, const char *text, int len)
{
	char line[1200];
	struct sample_line sl;
	const struct sample_parser *sp;
	int r;

	if (len < 5 || memcmp(text, "mms1 ", 5))
		return 1;
	if (len >= (int)sizeof(line))
		len = sizeof(line) - 1;
	memcpy(line, text, (size_t)len);
	line[len] = '\0';
	r = sample_line_split(line, &sl);
	if (r < 0) {
		parser_note(pc->set, "samples: malformed line skipped");
		return -1;
	}
	if (r > 0)
		return 1;
	parser_set_count_sample(pc->set, sl.seq);
	sp = sample_parser_find(sl.source);
	if (!sp) {
		parser_note(pc->set, "samples: unknown source '%s' skipped", sl.source);
		return 1;
	}
	sp->parse(&sl, pc);
	return 0;
}

/*
 * A workload's phase marker, "mmscope phase NAME" (mmscope-compare(1)):
 * NAME is the next word, at most PHASE_NAME_MAX bytes (longer is cut).
 * Returns 0 when the text was one, else 1.
 */
#define PHASE_NAME_MAX 63
static int phase_marker(struct parse_ctx *pc, const char *p, int len)
{
	static const char tag[] = "mmscope phase ";
	char name[PHASE_NAME_MAX + 1];
	int n = 0, at = (int)sizeof(tag) - 1;

	if (len < at + 1 || memcmp(p, tag, (size_t)at))
		return 1;
	while (at < len && p[at] == ' ')
		at++;
	while (at < len && n < PHASE_NAME_MAX && p[at] && p[at] != ' ' && p[at] != '\n' &&
	       p[at] != '\t')
		name[n++] = p[at++];
	if (!n) {
		parser_note(pc->set, "phase marker without a name skipped");
		return 1;
	}
	name[n] = '\0';
	pc->rec->type = REC_PHASE;
	pc->rec->phase.name = name;
	pc->sink(pc->sink_ctx, pc->rec);
	return 0;
}

/* ftrace:print, the trace_marker event: "ip" then the text in "buf". */

struct print_state {
	struct pfield buf;
};

static void *sample_print_bind(struct parser_set *set, struct tep_event *ev)
{
	struct print_state *st = xcalloc(1, sizeof(*st));

	if (parser_field(set, ev, &st->buf, NAMES("buf"), "counter samples")) {
		free(st);
		return NULL;
	}
	return st;
}

static void sample_print_parse(void *state, struct parse_ctx *pc)
{
	struct print_state *st = state;
	const char *p = (const char *)pc->data + st->buf.off;
	int len;

	if (st->buf.off < 0 || st->buf.off + 5 > pc->size)
		return;
	len = (int)strnlen(p, (size_t)(pc->size - st->buf.off));
	if (!memcmp(p, "mms1 ", 5))
		sample_feed_line(pc, p, len);
	else
		phase_marker(pc, p, len);
}

const struct parser sample_print_parsers[] = {
	{ "ftrace", "print", sample_print_parse, 0, NULL, 0, sample_print_bind, REC_COUNTER },
	{ NULL, NULL, NULL, 0, NULL, 0, NULL, 0 },
};
