// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The parser registry and the field cache. parser_set_new() walks every
 * event type the tep handle knows, finds its parser in the family tables
 * (families.c) by (system, event) and lets the parser bind its fields once; the result
 * is an array indexed by event id, so dispatching an event costs one array
 * load. Fields are read through struct pfield (offset, size, signedness),
 * never through tep_get_field_val() per event.
 */
#include "config.h"
#include "parsers.h"
#include "families.h"
#include "util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct bound {
	const struct parser *p;
	void *state;
};

struct parser_set {
	struct tep_handle *tep;
	struct bound *by_id;
	int nids;
	int nbound;
	char **notes;
	int nnotes;
	uint64_t sample_lines;
	uint64_t sample_gaps;
	int64_t last_seq;
};

/* "mmscope_swap_*" matches the kprobe systems "mmscope_swap_PID". */
static int parser_sys_match(const char *pat, const char *system)
{
	size_t n = strlen(pat);

	if (n && pat[n - 1] == '*')
		return !strncmp(pat, system, n - 1) && system[n - 1] &&
		       strspn(system + n - 1, "0123456789") == strlen(system + n - 1);
	return !strcmp(pat, system);
}

int pfield_find(struct tep_event *ev, struct pfield *f, const char *const *names)
{
	f->off = -1;
	f->size = 0;
	f->is_signed = 0;
	for (; *names; names++) {
		struct tep_format_field *tf = tep_find_field(ev, *names);

		if (!tf)
			continue;
		f->off = tf->offset;
		f->size = tf->size;
		f->is_signed = !!(tf->flags & TEP_FIELD_IS_SIGNED);
		if (tf->flags & TEP_FIELD_IS_DYNAMIC)
			f->size = -4;	/* __data_loc: u32 offset | len << 16 */
		else if (tf->flags & TEP_FIELD_IS_STRING || tf->flags & TEP_FIELD_IS_ARRAY)
			f->size = -(tf->size ? tf->size : 1) - 8; /* inline array */
		return 0;
	}
	return -1;
}

uint64_t pfield_u64(const struct pfield *f, const void *data, int size, uint64_t def)
{
	const unsigned char *p = (const unsigned char *)data + f->off;

	if (f->off < 0 || f->size <= 0 || f->off + f->size > size)
		return def;
	switch (f->size) {
	case 1: return f->is_signed ? (uint64_t)(int64_t)*(const int8_t *)p : *p;
	case 2: {
		uint16_t v;

		memcpy(&v, p, 2);
		return f->is_signed ? (uint64_t)(int64_t)(int16_t)v : v;
	}
	case 4: {
		uint32_t v;

		memcpy(&v, p, 4);
		return f->is_signed ? (uint64_t)(int64_t)(int32_t)v : v;
	}
	case 8: {
		uint64_t v;

		memcpy(&v, p, 8);
		return v;
	}
	default:
		return def;
	}
}

int64_t pfield_s64(const struct pfield *f, const void *data, int size, int64_t def)
{
	return (int64_t)pfield_u64(f, data, size, (uint64_t)def);
}

const char *pfield_str(const struct pfield *f, const void *data, int size,
		       char *buf, int len)
{
	const char *p = data;
	int off, n;

	buf[0] = '\0';
	if (f->off < 0 || len <= 0)
		return buf;
	if (f->size == -4) {
		uint32_t loc;

		if (f->off + 4 > size)
			return buf;
		memcpy(&loc, p + f->off, 4);
		off = loc & 0xffff;
		n = loc >> 16;
	} else {
		off = f->off;
		/* char buf[] with size 0 (ftrace:print) runs to the end */
		n = f->size <= -9 ? -f->size - 8 : 0;
		if (n <= 1)
			n = size - off;
	}
	if (off < 0 || off > size)
		return buf;
	if (n > size - off)
		n = size - off;
	if (n >= len)
		n = len - 1;
	memcpy(buf, p + off, (size_t)n);
	buf[n] = '\0';
	buf[strnlen(buf, (size_t)n)] = '\0';
	return buf;
}

void parser_note(struct parser_set *set, const char *fmt, ...)
{
	char buf[512], *s;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	s = xstrdup(buf);
	for (int i = 0; i < set->nnotes; i++) {
		if (!strcmp(set->notes[i], s)) {
			free(s);
			return;
		}
	}
	if (set->nnotes >= 64) {
		free(s);
		return;
	}
	set->notes = xreallocarray(set->notes, (size_t)set->nnotes + 1, sizeof(*set->notes));
	set->notes[set->nnotes++] = s;
}

int parser_field(struct parser_set *set, struct tep_event *ev, struct pfield *f,
		 const char *const *names, const char *metric)
{
	if (!pfield_find(ev, f, names))
		return 0;
	if (metric)
		parser_note(set, "%s:%s has no field '%s': %s not measured",
			    ev->system, ev->name, names[0], metric);
	return -1;
}

void *parser_bind_fields(struct parser_set *set, struct tep_event *ev,
			 const struct parser *p)
{
	struct pstate *st = xcalloc(1, sizeof(*st));

	st->kind = p->kind;
	for (int i = 0; i < PSTATE_MAX_FIELDS; i++)
		st->f[i].off = -1;
	for (int i = 0; p->fields && p->fields[i].names && i < PSTATE_MAX_FIELDS; i++)
		parser_field(set, ev, &st->f[i], p->fields[i].names, p->fields[i].metric);
	return st;
}

const struct parser *parser_lookup(const char *system, const char *event)
{
	for (int i = 0; i < event_nfamilies; i++)
		for (const struct parser *p = event_families[i].parsers; p && p->system; p++)
			if (parser_sys_match(p->system, system) && !strcmp(p->event, event))
				return p;
	return NULL;
}

int parser_wants_event(const char *system, const char *event)
{
	return parser_lookup(system, event) != NULL;
}

struct parser_set *parser_set_new(struct tep_handle *tep)
{
	struct parser_set *set = xcalloc(1, sizeof(*set));
	struct tep_event **evs;
	int n, maxid = 0;

	set->tep = tep;
	set->last_seq = -1;
	n = tep ? tep_get_events_count(tep) : 0;
	evs = n ? tep_list_events(tep, TEP_EVENT_SORT_ID) : NULL;
	/* ids beyond common_type's 16 bits never occur (hostile formats) */
	for (int i = 0; evs && evs[i]; i++)
		if (evs[i]->id > maxid && evs[i]->id <= 0xffff)
			maxid = evs[i]->id;
	set->nids = maxid + 1;
	set->by_id = xcalloc((size_t)set->nids, sizeof(*set->by_id));
	for (int i = 0; evs && evs[i]; i++) {
		const struct parser *p = parser_lookup(evs[i]->system, evs[i]->name);
		void *state;

		if (!p || evs[i]->id < 0 || evs[i]->id >= set->nids)
			continue;
		state = p->bind ? p->bind(set, evs[i]) : parser_bind_fields(set, evs[i], p);
		if (!state)
			continue;
		/* two formats with one id (a corrupt file): the last wins, as
		 * in the cursor's table; the first one's state was leaked */
		if (set->by_id[evs[i]->id].p) {
			free(set->by_id[evs[i]->id].state);
			set->nbound--;
		}
		set->by_id[evs[i]->id].p = p;
		set->by_id[evs[i]->id].state = state;
		set->nbound++;
	}
	return set;
}

void parser_set_free(struct parser_set *set)
{
	if (!set)
		return;
	for (int i = 0; i < set->nids; i++)
		free(set->by_id[i].state);
	free(set->by_id);
	for (int i = 0; i < set->nnotes; i++)
		free(set->notes[i]);
	free(set->notes);
	free(set);
}

int parser_set_parse(struct parser_set *set, struct tep_event *ev,
		     struct tep_record *trec, uint64_t ts, int cpu,
		     record_sink_fn sink, void *sink_ctx)
{
	struct bound *b;
	struct record rec;
	struct parse_ctx pc;

	if (!ev || ev->id < 0 || ev->id >= set->nids)
		return 0;
	b = &set->by_id[ev->id];
	if (!b->p)
		return 0;
	memset(&rec, 0, sizeof(rec));
	rec.ts = ts;
	rec.cpu = cpu;
	rec.pid = tep_data_pid(set->tep, trec);
	if (b->p->wants_comm)
		rec.comm = tep_data_comm_from_pid(set->tep, rec.pid);
	pc.set = set;
	pc.tep = set->tep;
	pc.rec = &rec;
	pc.data = trec->data;
	pc.size = trec->size;
	pc.sink = sink;
	pc.sink_ctx = sink_ctx;
	b->p->parse(b->state, &pc);
	return 1;
}

int parser_set_nbound(const struct parser_set *set)
{
	return set->nbound;
}

int parser_set_binds(const struct parser_set *set, int id)
{
	return id >= 0 && id < set->nids && set->by_id[id].p;
}

int parser_set_nnotes(const struct parser_set *set)
{
	return set->nnotes;
}

const char *parser_set_note(const struct parser_set *set, int i)
{
	return i >= 0 && i < set->nnotes ? set->notes[i] : NULL;
}

uint64_t parser_set_sample_lines(const struct parser_set *set)
{
	return set->sample_lines;
}

void parser_set_count_sample(struct parser_set *set, uint64_t seq)
{
	set->sample_lines++;
	if (set->last_seq >= 0 && seq > (uint64_t)set->last_seq + 1)
		set->sample_gaps += seq - (uint64_t)set->last_seq - 1;
	if ((int64_t)seq > set->last_seq)
		set->last_seq = (int64_t)seq;
}

uint64_t parser_set_sample_gaps(const struct parser_set *set)
{
	return set->sample_gaps;
}

int64_t record_sample_seq(const struct record *r)
{
	switch (r->type) {
	case REC_COUNTER: return (int64_t)r->counter.seq;
	case REC_SETTING: return (int64_t)r->setting.seq;
	case REC_ZONE: return (int64_t)r->zone.seq;
	case REC_BUDDY: case REC_PAGETYPE: return (int64_t)r->buddy.seq;
	case REC_SAMPLE_END: return (int64_t)r->send.seq;
	default: return -1;
	}
}

const char *rec_type_name(enum rec_type t)
{
#define REC_NAME_(e, name) [e] = name,
	static const char *const names[REC_NR_TYPES] = { REC_TYPES(REC_NAME_) };
#undef REC_NAME_

	return (unsigned)t < REC_NR_TYPES && names[t] ? names[t] : "?";
}

const char *reclaim_kind_name(enum reclaim_kind k)
{
	static const char *const names[RK_NR] = {
		"direct", "memcg", "softlimit", "node", "kswapd", "other",
	};

	return (unsigned)k < RK_NR ? names[k] : "?";
}

const char *sample_source_name(enum sample_source s)
{
	static const char *const names[SRC_NR] = {
		"vmstat", "zone", "buddy", "pagetype", "mthp", "zswap", "psi",
		"swap", "memcg", "end", "missing", "ctx", "outcome", "memcgs", "cgtasks",
		"tasks",
	};

	return (unsigned)s < SRC_NR ? names[s] : "?";
}
