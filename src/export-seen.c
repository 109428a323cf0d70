// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What an export directory already holds (export-seen.h).
 */
#include "config.h"
#include "export-seen.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The columns read, by name. */
enum { K_ID, K_HOST, K_MACHINE, K_BOOT, K_RUN, K_PF, K_PL, K_INC, K_START, K_END, K_NR };
static const char *const keys[K_NR] = {
	"recording_id", "host", "machine_id", "boot_id", "run_id", "part_first", "part_last",
	"incident", "start_ns", "end_ns",
};

/* One value as read ("" and NULL: null). */
static void fill(struct seen_rec *r, char *const *v)
{
	unsigned long long x;

	memset(r, 0, sizeof(*r));
	snprintf(r->id, sizeof(r->id), "%s", v[K_ID] ? v[K_ID] : "");
	/* the machine, else the name: as the exporter keys a host */
	r->host_machine = v[K_MACHINE] && *v[K_MACHINE];
	snprintf(r->host, sizeof(r->host), "%s", r->host_machine ? v[K_MACHINE] :
		 v[K_HOST] ? v[K_HOST] : "");
	snprintf(r->boot, sizeof(r->boot), "%s", v[K_BOOT] ? v[K_BOOT] : "");
	snprintf(r->run_id, sizeof(r->run_id), "%s", v[K_RUN] ? v[K_RUN] : "");
	r->parts = v[K_PF] && v[K_PL] && !parse_ull(v[K_PF], &x);
	r->part_first = r->parts ? (int)x : 0;
	r->parts = r->parts && !parse_ull(v[K_PL], &x);
	r->part_last = r->parts ? (int)x : 0;
	r->incident = v[K_INC] && !strcmp(v[K_INC], "1");
	r->has_span = v[K_START] && v[K_END] && !parse_ull(v[K_START], &x);
	r->start_ns = r->has_span ? x : 0;
	r->has_span = r->has_span && !parse_ull(v[K_END], &x);
	r->end_ns = r->has_span ? x : 0;
}

/* One row's values (each freed here): a recording with an id is seen. */
static void add_row(struct export_seen *s, char **v)
{
	if (v[K_ID] && *v[K_ID]) {
		struct seen_rec r;

		fill(&r, v);
		export_seen_add(s, &r);
	}
	for (int k = 0; k < K_NR; k++)
		free(v[k]);
}

/* ---- CSV: a header, then records whose quoted fields may hold commas,
 * doubled quotes and newlines ---- */

/* The next field at *p into a new string; *end set at a record's end. */
static char *csv_field(const char **p, int *end)
{
	struct strbuf sb = STRBUF_INIT;
	const char *s = *p;

	if (*s == '"') {
		for (s++; *s; s++) {
			if (*s == '"' && s[1] == '"') {
				strbuf_addch(&sb, '"');
				s++;
			} else if (*s == '"') {
				s++;
				break;
			} else {
				strbuf_addch(&sb, *s);
			}
		}
	} else {
		while (*s && *s != ',' && *s != '\n' && *s != '\r')
			strbuf_addch(&sb, *s++);
	}
	if (*s == '\r')
		s++;
	*end = *s != ',';
	if (*s)
		s++;
	*p = s;
	return sb.buf ? strbuf_detach(&sb, NULL) : xstrdup("");
}

static int load_csv(struct export_seen *s, const char *text)
{
	const char *p = text;
	int col[64], ncol = 0, end = 0;
	char *v[K_NR];

	for (int i = 0; i < 64; i++)
		col[i] = -1;
	while (*p && !end) {	/* the header */
		char *f = csv_field(&p, &end);

		for (int k = 0; k < K_NR && ncol < 64; k++)
			if (!strcmp(f, keys[k]))
				col[ncol] = k;
		ncol++;
		free(f);
	}
	while (*p) {
		int c = 0;

		memset(v, 0, sizeof(v));
		end = 0;
		while (*p && !end) {
			char *f = csv_field(&p, &end);

			if (c < 64 && col[c] >= 0 && !v[col[c]])
				v[col[c]] = f;
			else
				free(f);
			c++;
		}
		add_row(s, v);
	}
	return 0;
}

/* ---- JSON Lines: one object a line, as the exporter writes them ---- */

/* The value of "key" in the object on line (a string unescaped, a
 * number as written; NULL: null or absent). */
static char *jsonl_value(const char *line, const char *key)
{
	struct strbuf sb = STRBUF_INIT;
	char pat[48];
	const char *p;

	snprintf(pat, sizeof(pat), "\"%s\": ", key);
	p = strstr(line, pat);
	if (!p)
		return NULL;
	p += strlen(pat);
	if (*p == '"') {
		for (p++; *p && *p != '"'; p++) {
			if (*p == '\\' && p[1])
				p++;
			strbuf_addch(&sb, *p);
		}
	} else {
		if (!strncmp(p, "null", 4))
			return NULL;
		while (*p && *p != ',' && *p != '}' && *p != ' ')
			strbuf_addch(&sb, *p++);
		/* a boolean column: 1 or 0 */
		if (sb.buf && !strcmp(sb.buf, "true"))
			strbuf_reset(&sb), strbuf_addch(&sb, '1');
	}
	return sb.buf ? strbuf_detach(&sb, NULL) : xstrdup("");
}

static int load_jsonl(struct export_seen *s, char *text)
{
	for (char *line = text, *next; line && *line; line = next) {
		char *v[K_NR];

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		for (int k = 0; k < K_NR; k++)
			v[k] = jsonl_value(line, keys[k]);
		add_row(s, v);
	}
	return 0;
}

int export_seen_load(struct export_seen *s, const char *path, int jsonl, char **err)
{
	struct strbuf sb = STRBUF_INIT;
	int r;

	memset(s, 0, sizeof(*s));
	if (read_file(path, &sb)) {
		if (errno == ENOENT)
			return 0;
		return set_err(err, "%s: %s", path, strerror(errno));
	}
	if (!sb.buf) {
		strbuf_release(&sb);
		return 0;
	}
	r = jsonl ? load_jsonl(s, sb.buf) : load_csv(s, sb.buf);
	strbuf_release(&sb);
	return r;
}

void export_seen_add(struct export_seen *s, const struct seen_rec *r)
{
	s->r = xreallocarray(s->r, (size_t)s->n + 1, sizeof(*s->r));
	s->r[s->n++] = *r;
}

void export_seen_free(struct export_seen *s)
{
	free(s->r);
	memset(s, 0, sizeof(*s));
}

int export_seen_has_id(const struct export_seen *s, const char *id)
{
	for (int i = 0; i < s->n; i++)
		if (!strcmp(s->r[i].id, id))
			return 1;
	return 0;
}

int export_seen_missing(const struct export_seen *s, const struct seen_rec *r, int first,
			int last, int (*out)[2], int max)
{
	int n = 0, from = -1;

	for (int p = first; p <= last + 1; p++) {
		int held = p > last;

		for (int i = 0; !held && i < s->n; i++) {
			const struct seen_rec *x = &s->r[i];

			held = x->parts && *r->run_id && !strcmp(x->run_id, r->run_id) &&
			       !strcmp(x->host, r->host) && x->part_first <= p && p <= x->part_last;
		}
		if (!held && from < 0)
			from = p;
		if (held && from >= 0) {
			if (n < max) {
				out[n][0] = from;
				out[n][1] = p - 1;
			}
			n++;
			from = -1;
		}
	}
	return n;
}

int export_seen_holding(const struct export_seen *s, const struct seen_rec *r)
{
	if (!r->has_span || !*r->boot)
		return -1;
	for (int i = 0; i < s->n; i++) {
		const struct seen_rec *x = &s->r[i];

		if (!x->incident && x->has_span && !strcmp(x->host, r->host) &&
		    !strcmp(x->boot, r->boot) && x->start_ns <= r->start_ns &&
		    r->end_ns <= x->end_ns)
			return i;
	}
	return -1;
}

int export_seen_uncovered(const struct export_seen *s, const struct seen_rec *r, uint64_t *a,
			  uint64_t *b)
{
	uint64_t lo = r->start_ns, hi = r->end_ns;
	int pieces = 0, moved = 1;

	*a = lo;
	*b = hi;
	if (!r->has_span || !*r->boot)
		return 1;	/* not placed: all of it its own */
	/* the covering spans, taken as they reach lo (any order) */
	while (moved && lo <= hi) {
		uint64_t next = UINT64_MAX;

		moved = 0;
		for (int i = 0; i < s->n; i++) {
			const struct seen_rec *x = &s->r[i];

			if (x->incident || !x->has_span || strcmp(x->host, r->host) ||
			    strcmp(x->boot, r->boot) || x->end_ns < lo || x->start_ns > hi)
				continue;
			if (x->start_ns <= lo) {	/* covers lo: skip past it */
				lo = x->end_ns + 1;
				moved = 1;
			} else if (x->start_ns < next) {
				next = x->start_ns;
			}
		}
		if (!moved && next != UINT64_MAX && lo <= hi) {	/* a piece before next */
			if (!pieces++) {
				*a = lo;
				*b = next - 1;
			}
			lo = next;
			moved = 1;
		}
	}
	if (lo <= hi && !pieces++) {
		*a = lo;
		*b = hi;
	}
	return pieces;
}
