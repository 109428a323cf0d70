// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The metrics of one run, for "mmscope compare": from a metrics file (text
 * written by hand or by another tool) or from a recording. A recording is
 * read for its "mms1" counter sample lines only (ftrace:print events, the
 * buf field, resolved once): vmstat sets carry every field first and then
 * only the changed ones, always as absolute values, so the reader keeps the
 * current value of each counter and snapshots all of them at each "end"
 * line. The deltas between the first and the last complete set feed
 * metrics_compute(). Trace-derived metrics will come from the analysis
 * API; this file is the one place to switch over.
 */
#include "config.h"
#include "compare-load.h"
#include "tracedat-read.h"
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One counter as the sample lines evolve: current, first set, last set. */
struct load_counter {
	char *name;
	double cur, first, last;
	int in_first, in_last, seen;
};

struct load_state {
	struct load_counter *c;
	size_t n, alloc;
	size_t *hash;		/* open addressing, index + 1; 0 = empty */
	size_t nhash;
	int sets;		/* complete sets seen */
	uint64_t first_ts, last_ts;
};

static size_t hash_str(const char *s)
{
	size_t h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

static void load_rehash(struct load_state *st)
{
	free(st->hash);
	st->nhash = st->nhash ? st->nhash * 2 : 1024;
	st->hash = xcalloc(st->nhash, sizeof(*st->hash));
	for (size_t i = 0; i < st->n; i++) {
		size_t h = hash_str(st->c[i].name) & (st->nhash - 1);

		while (st->hash[h])
			h = (h + 1) & (st->nhash - 1);
		st->hash[h] = i + 1;
	}
}

static struct load_counter *load_counter(struct load_state *st, const char *name)
{
	size_t h;

	if (2 * (st->n + 1) > st->nhash)
		load_rehash(st);
	h = hash_str(name) & (st->nhash - 1);
	for (; st->hash[h]; h = (h + 1) & (st->nhash - 1))
		if (!strcmp(st->c[st->hash[h] - 1].name, name))
			return &st->c[st->hash[h] - 1];
	if (st->n == st->alloc) {
		st->alloc = st->alloc ? 2 * st->alloc : 256;
		st->c = xreallocarray(st->c, st->alloc, sizeof(*st->c));
	}
	memset(&st->c[st->n], 0, sizeof(st->c[0]));
	st->c[st->n].name = xstrdup(name);
	st->hash[h] = ++st->n;
	return &st->c[st->n - 1];
}

static void load_state_release(struct load_state *st)
{
	for (size_t i = 0; i < st->n; i++)
		free(st->c[i].name);
	free(st->c);
	free(st->hash);
}

static int parse_number(const char *s, size_t len, double *v)
{
	char buf[64], *end;

	if (!len || len >= sizeof(buf))
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	errno = 0;
	*v = strtod(buf, &end);
	return *end || errno || !isfinite(*v) ? -1 : 0;
}

/* The value of key in "k=v k=v" (not NUL-terminated), or NULL. */
static const char *find_key(const char *p, const char *end, const char *key, size_t *len)
{
	size_t klen = strlen(key);

	while (p < end) {
		const char *w = p;

		while (p < end && *p != ' ')
			p++;
		if ((size_t)(p - w) > klen && w[klen] == '=' && !strncmp(w, key, klen)) {
			*len = (size_t)(p - w) - klen - 1;
			return w + klen + 1;
		}
		while (p < end && *p == ' ')
			p++;
	}
	return NULL;
}

/* Apply "k=v ..." of one source line; prefix names the counters. */
static void apply_pairs(struct load_state *st, const char *p, const char *end,
			const char *prefix, const char *const *only)
{
	char name[160];

	while (p < end) {
		const char *w = p, *eq;
		double v;

		while (p < end && *p != ' ')
			p++;
		eq = memchr(w, '=', (size_t)(p - w));
		if (eq && !parse_number(eq + 1, (size_t)(p - eq - 1), &v)) {
			int keep = !only;

			snprintf(name, sizeof(name), "%s%.*s", prefix, (int)(eq - w), w);
			for (int i = 0; only && only[i]; i++)
				keep |= !strcmp(name + strlen(prefix), only[i]);
			if (keep) {
				struct load_counter *c = load_counter(st, name);

				c->cur = v;
				c->seen = 1;
			}
		}
		while (p < end && *p == ' ')
			p++;
	}
}

static void end_of_set(struct load_state *st, uint64_t ts)
{
	for (size_t i = 0; i < st->n; i++) {
		struct load_counter *c = &st->c[i];

		if (!c->seen)
			continue;
		if (!st->sets) {
			c->first = c->cur;
			c->in_first = 1;
		}
		c->last = c->cur;
		c->in_last = 1;
	}
	if (!st->sets++)
		st->first_ts = ts;
	st->last_ts = ts;
}

/* One "mms1 SOURCE SEQ k=v..." line. */
static void load_line(struct load_state *st, const char *line, size_t len, uint64_t ts)
{
	static const char *const psi_keys[] = { "some_total", "full_total", NULL };
	const char *end = line + len, *p, *src, *v;
	size_t srclen, vlen;
	char prefix[48];

	while (end > line && (end[-1] == '\n' || end[-1] == '\0' || end[-1] == ' '))
		end--;
	if (end - line < 5 || strncmp(line, "mms1 ", 5))
		return;
	src = p = line + 5;
	while (p < end && *p != ' ')
		p++;
	srclen = (size_t)(p - src);
	while (p < end && *p == ' ')
		p++;
	while (p < end && isdigit((unsigned char)*p))	/* SEQ */
		p++;
	if (srclen == 6 && !strncmp(src, "vmstat", 6)) {
		apply_pairs(st, p, end, "", NULL);
	} else if (srclen == 3 && !strncmp(src, "psi", 3)) {
		apply_pairs(st, p, end, "psi.", psi_keys);
	} else if (srclen == 4 && !strncmp(src, "mthp", 4) &&
		   (v = find_key(p, end, "size", &vlen)) && vlen < 16) {
		snprintf(prefix, sizeof(prefix), "mthp.%.*skB.", (int)vlen, v);
		apply_pairs(st, p, end, prefix, NULL);
	} else if (srclen == 3 && !strncmp(src, "end", 3)) {
		end_of_set(st, ts);
	}
}

/* The buf field of ftrace:print, resolved once per file. */
static struct tep_format_field *print_buf_field(struct td_file *tf, int *id)
{
	struct tep_event *e = tep_find_event_by_name(td_tep(tf), "ftrace", "print");

	if (!e)
		return NULL;
	*id = e->id;
	return tep_find_field(e, "buf");
}

static int read_samples(struct td_file *tf, struct load_state *st, char **err)
{
	struct tep_format_field *f;
	struct td_cursor *cur;
	struct td_event ev;
	int id = -1, got;

	f = print_buf_field(tf, &id);
	if (!f)
		return set_err(err, "no ftrace:print events (mms1 sample lines) in this recording");
	cur = td_cursor_new(tf, -1, err);
	if (!cur)
		return -1;
	while ((got = td_cursor_next(cur, &ev, err)) > 0) {
		unsigned int off = (unsigned int)f->offset, len;

		if (!ev.event || ev.event->id != id)
			continue;
		if (f->flags & TEP_FIELD_IS_DYNAMIC) {
			unsigned long long dl = tep_read_number(td_tep(tf),
								(char *)ev.data + f->offset,
								f->size);
			off = (unsigned int)(dl & 0xffff);
		}
		if (off >= (unsigned int)ev.size)
			continue;
		len = (unsigned int)ev.size - off;
		load_line(st, (const char *)ev.data + off,
			  strnlen((const char *)ev.data + off, len), ev.ts);
	}
	td_cursor_free(cur);
	return got < 0 ? -1 : 0;
}

static int load_recording(const char *path, struct metric_values *out, char **err)
{
	struct counter_set cs = COUNTER_SET_INIT;
	struct load_state st = { 0 };
	struct td_file *tf = td_open(path, err);
	int r = -1;

	if (!tf)
		return -1;
	if (read_samples(tf, &st, err))
		goto out;
	if (st.sets < 2) {
		set_err(err, "%d complete counter sample set%s (mms1 ... end); 2 are needed",
			st.sets, st.sets == 1 ? "" : "s");
		goto out;
	}
	for (size_t i = 0; i < st.n; i++)
		if (st.c[i].in_first && st.c[i].in_last)
			counter_set_put(&cs, st.c[i].name, st.c[i].last - st.c[i].first);
	counter_set_put(&cs, "time.elapsed", (double)(st.last_ts - st.first_ts) / 1e9);
	metrics_compute(&cs, out);
	r = 0;
out:
	counter_set_release(&cs);
	load_state_release(&st);
	td_close(tf);
	return r;
}

/* Split a line into words (in place); returns the count, at most max. */
static int split_words(char *line, char **w, int max)
{
	int n = 0;

	for (char *save = NULL, *t = strtok_r(line, " \t\r", &save); t && n < max;
	     t = strtok_r(NULL, " \t\r", &save))
		w[n++] = t;
	return n;
}

static int metrics_line(char *line, int lineno, struct metric_values *mv,
			struct counter_set *cs, struct metric_values *dirs, char **err)
{
	char *w[258];
	int n = split_words(line, w, 258);
	double v;

	if (!n || w[0][0] == '#')
		return 0;
	if (!strcmp(w[0], "higher") || !strcmp(w[0], "lower")) {
		if (n != 2)
			return set_err(err, "line %d: '%s' takes one metric name", lineno, w[0]);
		metric_values_add(dirs, w[1], 0)->higher_is_better = w[0][0] == 'h';
		return 0;
	}
	if (!strcmp(w[0], "counter")) {
		if (n != 3 || parse_number(w[2], strlen(w[2]), &v))
			return set_err(err, "line %d: expected 'counter NAME VALUE'", lineno);
		counter_set_put(cs, w[1], v);
		return 0;
	}
	if (n < 2)
		return set_err(err, "line %d: expected 'NAME VALUE...'", lineno);
	if (n == 258)
		return set_err(err, "line %d: more than 256 values", lineno);
	for (int i = 1; i < n; i++) {
		if (parse_number(w[i], strlen(w[i]), &v))
			return set_err(err, "line %d: '%s' is not a number", lineno, w[i]);
		metric_values_add(mv, w[0], v);
	}
	return 0;
}

/* Computed counter metrics, except those the file gave itself. */
static void merge_counters(const struct counter_set *cs, struct metric_values *mv)
{
	struct metric_values computed = METRIC_VALUES_INIT;

	if (!cs->n)
		return;
	metrics_compute(cs, &computed);
	for (size_t i = 0; i < computed.n; i++)
		if (!metric_values_find(mv, computed.m[i].name))
			metric_values_add(mv, computed.m[i].name, computed.m[i].v[0]);
	metric_values_release(&computed);
}

int compare_load_metrics_text(const char *text, struct metric_values *out, char **err)
{
	struct metric_values mv = METRIC_VALUES_INIT, dirs = METRIC_VALUES_INIT;
	struct counter_set cs = COUNTER_SET_INIT;
	char *copy = xstrdup(text), *line;
	int lineno = 0, r = 0;

	for (char *p = copy; p; p = line) {
		line = strchr(p, '\n');
		if (line)
			*line++ = '\0';
		lineno++;
		if ((r = metrics_line(p, lineno, &mv, &cs, &dirs, err)))
			break;
	}
	if (!r) {
		merge_counters(&cs, &mv);
		for (size_t i = 0; i < mv.n; i++) {
			struct metric_series *d = metric_values_find(&dirs, mv.m[i].name);
			struct metric_series *s = NULL;

			for (size_t k = 0; k < mv.m[i].n; k++)
				s = metric_values_add(out, mv.m[i].name, mv.m[i].v[k]);
			if (d && s)
				s->higher_is_better = d->higher_is_better;
		}
	}
	metric_values_release(&mv);
	metric_values_release(&dirs);
	counter_set_release(&cs);
	free(copy);
	return r;
}

static int is_recording(const char *path, char **err)
{
	static const unsigned char magic[10] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i',
						 'n', 'g' };
	unsigned char buf[10];
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f)
		return set_err(err, "%s", strerror(errno));
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	return n == sizeof(buf) && !memcmp(buf, magic, sizeof(buf));
}

int compare_load_run(const char *path, struct metric_values *out, char **err)
{
	struct strbuf sb = STRBUF_INIT;
	int r = is_recording(path, err);

	if (r < 0)
		return -1;
	if (r)
		return load_recording(path, out, err);
	if (read_file(path, &sb))
		return set_err(err, "%s", strerror(errno));
	if (memchr(sb.buf, '\0', sb.len)) {
		strbuf_release(&sb);
		return set_err(err, "neither a recording (trace.dat) nor a metrics file");
	}
	r = compare_load_metrics_text(sb.buf ? sb.buf : "", out, err);
	strbuf_release(&sb);
	return r;
}
