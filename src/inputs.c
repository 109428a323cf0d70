// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The recordings a command's arguments name, and its scope (inputs.h).
 */
#include "config.h"
#include "inputs.h"
#include "cmd.h"
#include "tracedat-set.h"
#include "cgmap.h"
#include "parsers.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- arguments into files, files into recordings ---- */

void inputs_init(struct inputs *in)
{
	memset(in, 0, sizeof(*in));
}

static int path_cmp(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

static void add_path(char ***paths, int *n, char *p)
{
	*paths = xreallocarray(*paths, (size_t)*n + 1, sizeof(**paths));
	(*paths)[(*n)++] = p;
}

/* A directory's *.dat files (regular, not hidden), by name. */
static int expand_dir(const char *dir, char ***paths, int *n, char **err)
{
	size_t len = strlen(dir);
	int before = *n;
	struct dirent *de;
	DIR *d = opendir(dir);

	if (!d)
		return set_err(err, "%s: %s", dir, strerror(errno));
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);
		struct stat st;
		char *p;

		if (l < 5 || strcmp(de->d_name + l - 4, ".dat") || de->d_name[0] == '.')
			continue;
		p = xasprintf("%s%s%s", dir, len && dir[len - 1] == '/' ? "" : "/", de->d_name);
		/* the directory's word when it has one (a stat a file: 10,080 of
		 * them in a week's parts); a symlink or unknown: stat */
		if (de->d_type == DT_REG) {
			add_path(paths, n, p);
			continue;
		}
		if (stat(p, &st) || !S_ISREG(st.st_mode)) {
			free(p);
			continue;
		}
		add_path(paths, n, p);
	}
	closedir(d);
	if (*n == before)
		return set_err(err, "%s: a directory with no .dat file", dir);
	qsort(*paths + before, (size_t)(*n - before), sizeof(**paths), path_cmp);
	return 0;
}

/* A file's start_realtime_ns (0 when none): files of one recording in
 * the order td_set_open reads them. */
static uint64_t meta_start(const char *meta)
{
	uint64_t v;

	return meta && !td_meta_u64(meta, "start_realtime_ns", &v) ? v : 0;
}

/* Its first and last event: 1, or 0 when a file does not read (its
 * error comes when the recording is read) or holds none. */
static int read_span(const char *first, const char *last, uint64_t *a, uint64_t *b)
{
	struct td_file *tf;
	char *e = NULL;
	int ok;

	tf = td_open_only(first, td_want_none, &e);
	ok = tf && !td_first_ts(tf, a, &e);
	if (ok && strcmp(first, last)) {
		td_close(tf);
		tf = td_open_only(last, td_want_none, &e);
		ok = tf != NULL;
	}
	ok = ok && !td_last_ts(tf, b, &e) && *b >= *a && (*a || *b);
	td_close(tf);
	free(e);
	return ok;
}

struct file_key {
	uint64_t start;
	int pos;	/* among the recording's files, as named */
	int idx;	/* into the metadata */
	char *path;
};


static int file_key_cmp(const void *x, const void *y)
{
	const struct file_key *a = x, *b = y;

	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	return a->pos - b->pos;
}

/* rec's files ordered by their start (the order named among equals), as
 * td_set_open reads them; a week of one-minute parts is 10,080 files */
static void order_files(struct input_rec *rec, char **meta_of, const int *idx,
			const unsigned char *trimmed)
{
	struct file_key *k = xcalloc((size_t)rec->n + 1, sizeof(*k));

	for (int i = 0; i < rec->n; i++)
		k[i] = (struct file_key){ meta_start(meta_of[idx[i]]), i, idx[i], rec->paths[i] };
	qsort(k, (size_t)rec->n, sizeof(*k), file_key_cmp);
	/* each file's part number (switch_output=N; 0: not a part) */
	rec->part = xcalloc((size_t)rec->n + 1, sizeof(*rec->part));
	for (int i = 0; i < rec->n; i++) {
		uint64_t v;

		rec->paths[i] = k[i].path;
		if (meta_of[k[i].idx] && !td_meta_u64(meta_of[k[i].idx], "switch_output", &v) &&
		    v < 1000000000)
			rec->part[i] = (int)v;
	}
	/* whole (td_meta_trim): how the run began and ended */
	rec->first_meta = trimmed[k[0].idx] ? td_set_read_meta(rec->paths[0]) :
			  meta_of[k[0].idx] ? xstrdup(meta_of[k[0].idx]) : NULL;
	rec->last_meta = trimmed[k[rec->n - 1].idx] ? td_set_read_meta(rec->paths[rec->n - 1]) :
			 meta_of[k[rec->n - 1].idx] ? xstrdup(meta_of[k[rec->n - 1].idx]) : NULL;
	/* every file's, taken: a recording of many files is not opened again
	 * to learn it (analysis_opts.file_metas) */
	rec->meta = xcalloc((size_t)rec->n + 1, sizeof(*rec->meta));
	for (int i = 0; i < rec->n; i++) {
		rec->meta[i] = meta_of[k[i].idx];
		meta_of[k[i].idx] = NULL;
	}
	free(k);
}

static int build_history(struct inputs *in, char **err)
{
	in->hin = xcalloc((size_t)in->nrec + 1, sizeof(*in->hin));
	for (int g = 0; g < in->nrec; g++) {
		struct input_rec *rec = &in->rec[g];

		rec->has_span = read_span(rec->paths[0], rec->paths[rec->n - 1], &rec->first_ts,
					  &rec->last_ts);
		in->hin[g] = (struct history_in){
			.name = rec->name, .paths = (const char *const *)rec->paths,
			.npaths = rec->n, .first_meta = rec->first_meta,
			.last_meta = rec->last_meta, .has_span = rec->has_span,
			.first_ts = rec->first_ts, .last_ts = rec->last_ts,
		};
	}
	return history_build(in->hin, in->nrec, &in->hist, err);
}

/* Two metadata values (td_meta_value) the same, to their ends of line. */
static int same_line(const char *a, const char *b)
{
	size_t n = strcspn(a, "\n");

	return n == strcspn(b, "\n") && !memcmp(a, b, n);
}

int inputs_open(struct inputs *in, char *const *args, int nargs, char **err)
{
	char **paths = NULL, **meta = NULL;
	int *from = NULL, *group = NULL, *idx = NULL;	/* from[i]: the argument of paths[i] */
	int *refs = NULL, nrefs = 0;	/* the first file read of each run id */
	unsigned char *trimmed = NULL;	/* meta[i] is td_meta_trim's */
	struct stat *id = NULL;
	int n = 0, ng = 0, r = -1;

	in->args = xcalloc((size_t)nargs + 1, sizeof(*in->args));
	in->arg_dir = xcalloc((size_t)nargs + 1, sizeof(*in->arg_dir));
	in->nargs = nargs;
	for (int i = 0; i < nargs; i++) {
		struct stat st;
		int before = n;

		in->args[i] = xstrdup(args[i]);
		if (!strcmp(args[i], "-")) {
			if (in->stdin_used || input_file_open(&in->in, "-", err))
				goto out;
			in->stdin_used = 1;
			add_path(&paths, &n, xstrdup(in->in.path));
		} else if (stat(args[i], &st)) {
			set_err(err, "%s: %s", args[i], strerror(errno));
			goto out;
		} else if (S_ISDIR(st.st_mode)) {
			in->arg_dir[i] = 1;
			if (expand_dir(args[i], &paths, &n, err))
				goto out;
		} else {
			add_path(&paths, &n, xstrdup(args[i]));
		}
		from = xreallocarray(from, (size_t)n + 1, sizeof(*from));
		for (int k = before; k < n; k++)
			from[k] = i;
	}
	/* a file twice is no second recording (nor part of one) */
	id = xcalloc((size_t)n + 1, sizeof(*id));
	for (int i = 0; i < n && !in->twice_ok; i++) {
		if (stat(paths[i], &id[i]))
			continue;	/* the error comes when it is read */
		for (int k = 0; k < i; k++)
			if (id[k].st_ino && id[k].st_dev == id[i].st_dev &&
			    id[k].st_ino == id[i].st_ino) {
				set_err(err, "%s: given twice (also as %s)", paths[i], paths[k]);
				goto out;
			}
	}
	/* every file's metadata read once, one file open at a time; kept
	 * without the lines of its run's description that the first part of
	 * its run read has alike (td_meta_trim: a week of parts is 10,080) */
	meta = xcalloc((size_t)n + 1, sizeof(*meta));
	trimmed = xcalloc((size_t)n + 1, 1);
	refs = xcalloc((size_t)n + 1, sizeof(*refs));
	for (int i = 0; i < n; i++) {
		const char *run;
		int k = 0;

		meta[i] = td_set_read_meta(paths[i]);
		if (!meta[i] || !(run = td_meta_value(meta[i], "run_id")))
			continue;
		while (k < nrefs && !same_line(td_meta_value(meta[refs[k]], "run_id"), run))
			k++;
		if (k == nrefs) {
			refs[nrefs++] = i;	/* the first part of its run read */
			continue;
		}
		char *t = td_meta_trim(meta[i], meta[refs[k]]);

		free(meta[i]);
		meta[i] = t;
		trimmed[i] = 1;
	}
	group = xcalloc((size_t)n + 1, sizeof(*group));
	if (td_set_group_meta((const char *const *)paths, (const char *const *)meta, n, group, &ng,
			      !in->twice_ok, err))
		goto out;
	in->rec = xcalloc((size_t)ng + 1, sizeof(*in->rec));
	in->nrec = ng;
	idx = xcalloc((size_t)n + 1, sizeof(*idx));
	for (int g = 0; g < ng; g++) {
		struct input_rec *rec = &in->rec[g];
		int arg = -1, whole = 1;

		rec->paths = xcalloc((size_t)n + 1, sizeof(*rec->paths));
		for (int i = 0; i < n; i++) {
			if (group[i] != g)
				continue;
			idx[rec->n] = i;
			rec->paths[rec->n++] = xstrdup(paths[i]);
			if (arg < 0)
				arg = from[i];
			whole &= from[i] == arg;
		}
		rec->arg = arg;
		order_files(rec, meta, idx, trimmed);
		/* what messages and reports call it: the argument when it is
		 * all of one (a directory of one run), else its first file */
		for (int i = 0; whole && i < n; i++)
			whole = from[i] != arg || group[i] == g;
		if (rec->n == 1 && in->stdin_used && !strcmp(rec->paths[0], in->in.path))
			rec->name = xstrdup(in->in.name);
		else if (rec->n == 1)
			rec->name = xstrdup(rec->paths[0]);
		else
			rec->name = xasprintf("%s (%d files)", whole ? args[arg] : rec->paths[0],
					      rec->n);
	}
	r = build_history(in, err);
out:
	for (int i = 0; i < n; i++) {
		free(paths[i]);
		if (meta)
			free(meta[i]);
	}
	free(paths);
	free(meta);
	free(trimmed);
	free(refs);
	free(from);
	free(group);
	free(idx);
	free(id);
	return r;
}

void inputs_release(struct inputs *in)
{
	for (int i = 0; i < in->nrec; i++) {
		for (int k = 0; k < in->rec[i].n; k++)
			free(in->rec[i].paths[k]);
		free(in->rec[i].paths);
		free(in->rec[i].name);
		free(in->rec[i].first_meta);
		free(in->rec[i].last_meta);
		free(in->rec[i].part);
		for (int k = 0; k < in->rec[i].n && in->rec[i].meta; k++)
			free(in->rec[i].meta[k]);
		free(in->rec[i].meta);
	}
	free(in->rec);
	in->rec = NULL;
	in->nrec = 0;
	history_free(&in->hist);
	free(in->hin);
	in->hin = NULL;
	for (int i = 0; i < in->nargs; i++)
		free(in->args[i]);
	free(in->args);
	free(in->arg_dir);
	in->args = NULL;
	in->arg_dir = NULL;
	in->nargs = 0;
	if (in->stdin_used)
		input_file_release(&in->in);
	in->stdin_used = 0;
}

/* ---- one history, or the runs of several listed ---- */

/* "WHAT: the recordings of N hosts, not one history:" then every run of
 * the hosts among recordings for which keep(rec) holds, a line each. */
static int refuse_hosts(const struct inputs *in, const char *what, const unsigned char *keep,
			char **err)
{
	struct strbuf sb = STRBUF_INIT;
	int hosts = 0, r;

	for (int h = 0; h < in->hist.nhost; h++)
		for (int k = 0; k < in->hist.host_n[h]; k++)
			if (keep[in->hist.run[in->hist.host_first[h] + k].in]) {
				hosts++;
				break;
			}
	strbuf_addf(&sb, "%s: the recordings of %d hosts (or boots that cannot be told "
		    "apart), not one history; give one host's files:", what, hosts);
	for (int h = 0, shown = 0; h < in->hist.nhost; h++) {
		int any = 0;

		for (int k = 0; k < in->hist.host_n[h]; k++) {
			int i = in->hist.host_first[h] + k;

			if (!keep[in->hist.run[i].in])
				continue;
			if (!any++)
				shown++;
			strbuf_addf(&sb, "\n  host %d of %d, ", shown, hosts);
			history_line(&in->hist, in->hin, i, &sb);
		}
	}
	r = set_err(err, "%s", sb.buf);
	strbuf_release(&sb);
	return r;
}

int inputs_one(const struct inputs *in, char **err)
{
	unsigned char *keep;
	int r;

	if (in->hist.nhost <= 1)
		return 0;
	keep = xcalloc((size_t)in->nrec + 1, 1);
	memset(keep, 1, (size_t)in->nrec);
	r = refuse_hosts(in, in->nargs == 1 ? in->args[0] : "the arguments", keep, err);
	free(keep);
	return r;
}

int inputs_check_dirs(const struct inputs *in, char **err)
{
	unsigned char *keep = xcalloc((size_t)in->nrec + 1, 1);
	int r = 0;

	for (int a = 0; a < in->nargs && !r; a++) {
		int host = -1, many = 0;

		if (!in->arg_dir[a])
			continue;
		memset(keep, 0, (size_t)in->nrec);
		for (int k = 0; k < in->hist.nrun; k++) {
			const struct history_run *hr = &in->hist.run[k];

			if (in->rec[hr->in].arg != a)
				continue;
			keep[hr->in] = 1;
			many |= host >= 0 && hr->host != host;
			host = hr->host;
		}
		if (many)
			r = refuse_hosts(in, in->args[a], keep, err);
	}
	free(keep);
	return r;
}

/* ---- reading a recording ---- */

/* Recording i read with scope (its name as the reports call it). */
static struct analysis *analysis_of(const struct inputs *in, int i,
				    const struct analysis_scope *scope,
				    const struct analysis_opts *o, char **err, int *bad_scope)
{
	const struct input_rec *rec = &in->rec[i];
	struct analysis_opts ao = *o;

	ao.scope = *scope;
	if (rec->n == 1) {
		ao.name = rec->name;
		return analysis_run_scoped(rec->paths[0], &ao, err, bad_scope);
	}
	/* the name without its " (N files)": analysis_run_files adds it */
	char *base = xasprintf("%.*s", (int)(strrchr(rec->name, '(') - rec->name - 1), rec->name);
	struct analysis *a;

	ao.file_metas = (const char *const *)rec->meta;
	a = analysis_run_files((const char *const *)rec->paths, rec->n, base, &ao, err, bad_scope);

	free(base);
	return a;
}

struct analysis *inputs_analysis(const struct inputs *in, int i, const struct analysis_opts *o,
				 char **err, int *bad_scope)
{
	return analysis_of(in, i, &in->scope, o, err, bad_scope);
}

struct analysis *inputs_files_analysis(const struct inputs *in, const struct inputs_sel *sel,
				       int from, int to, const struct analysis_opts *o, char **err,
				       int *bad_scope)
{
	int i = in->hist.run[sel->run].in;
	const struct input_rec *rec = &in->rec[i];
	struct analysis_opts ao = *o;
	struct analysis *a;
	char *name;

	if (from <= 0 && to >= rec->n)
		return analysis_of(in, i, &sel->scope, o, err, bad_scope);
	ao.scope = sel->scope;
	if (to - from == 1) {
		ao.name = rec->paths[from];
		return analysis_run_scoped(rec->paths[from], &ao, err, bad_scope);
	}
	name = xasprintf("%s, parts %d..%d", rec->paths[from], rec->part[from],
			 rec->part[to - 1]);
	ao.file_metas = rec->meta ? (const char *const *)rec->meta + from : NULL;
	a = analysis_run_files((const char *const *)rec->paths + from, to - from, name, &ao, err,
			       bad_scope);
	free(name);
	return a;
}

struct analysis *inputs_analysis_as(const struct inputs *in, int i, const struct analysis_opts *o,
				    char **err, int *bad_scope)
{
	return analysis_of(in, i, &o->scope, o, err, bad_scope);
}

struct analysis *inputs_run_analysis(const struct inputs *in, const struct inputs_sel *sel,
				     const struct analysis_opts *o, char **err, int *bad_scope)
{
	return analysis_of(in, in->hist.run[sel->run].in, &sel->scope, o, err, bad_scope);
}

/* ---- the runs a scope selects ---- */

/* The history time of its host's first event (the zero of relative
 * times over several runs). */
static int64_t history_zero(const struct history *h, int host)
{
	int64_t z = INT64_MAX;

	for (int k = 0; k < h->host_n[host]; k++) {
		const struct history_run *r = &h->run[h->host_first[host] + k];

		if (r->has_span && history_time(r, r->first_ts) < z)
			z = history_time(r, r->first_ts);
	}
	return z == INT64_MAX ? 0 : z;
}

int64_t inputs_history_zero(const struct inputs *in, int host)
{
	return history_zero(&in->hist, host);
}

/* One edge of the window for run r: 1 and *ts (trace ns) or *wall (Unix
 * ns, *is_wall 1); 0 when the edge is not set. */
static int edge_of(const struct analysis_time *t, const struct history_run *r, int64_t zero,
		   uint64_t *ts, int *is_wall)
{
	*is_wall = 0;
	if (!t->set)
		return 0;
	if (t->wall) {
		*is_wall = 1;
		*ts = t->ns;
	} else if (t->abs) {
		*ts = t->ns;
	} else {
		int64_t v = zero + (int64_t)t->ns - r->offset;

		*ts = v > 0 ? (uint64_t)v : 0;
	}
	return 1;
}

/* Whether the window touches run r, and whether it covers it whole. */
static int window_touches(const struct analysis_scope *s, const struct history_run *r,
			  int64_t zero, int *whole)
{
	uint64_t v, lo, hi;
	int w, in = 1;

	*whole = 1;
	if (edge_of(&s->since, r, zero, &v, &w)) {
		lo = w ? r->wall_first : r->first_ts;
		hi = w ? r->wall_last : r->last_ts;
		if (w && !r->has_wall)	/* its own analysis says why it cannot */
			return 1;
		in &= v <= hi;
		*whole &= v <= lo;
	}
	if (edge_of(&s->until, r, zero, &v, &w)) {
		lo = w ? r->wall_first : r->first_ts;
		hi = w ? r->wall_last : r->last_ts;
		if (w && !r->has_wall)
			return 1;
		in &= v >= lo;
		*whole &= v >= hi;
	}
	return in && r->has_span;
}

/* Where a window that touches no run fell, for the error. */
static int window_missed(const struct inputs *in, int host, char **err)
{
	const struct history *h = &in->hist;
	struct strbuf sb = STRBUF_INIT;
	int r;

	strbuf_addstr(&sb, "the window (--since/--until) holds no run of the history; its runs:");
	for (int k = 0; k < h->host_n[host]; k++) {
		strbuf_addstr(&sb, "\n  ");
		history_line(h, in->hin, h->host_first[host] + k, &sb);
	}
	r = set_err(err, "%s", sb.buf);
	strbuf_release(&sb);
	return r;
}

/* An incident partly inside a run: its own part as an abs window, within
 * the scope's window where that is in trace time. 0: nothing left. */
static int partly_window(struct inputs_sel *o, const struct history_run *r, int64_t zero)
{
	struct analysis_time *t[2] = { &o->scope.since, &o->scope.until };
	uint64_t lo = r->clip_first, hi = r->clip_last, v;
	int w;

	for (int e = 0; e < 2; e++) {
		if (!edge_of(t[e], r, zero, &v, &w) || w)
			continue;	/* a wall-clock edge: the analysis maps it */
		if (!e && v > lo)
			lo = v;
		if (e && v < hi)
			hi = v;
	}
	if (lo > hi)
		return 0;
	for (int e = 0; e < 2; e++)
		if (!t[e]->set || !t[e]->wall) {
			t[e]->set = t[e]->abs = 1;
			t[e]->wall = 0;
			t[e]->ns = e ? hi : lo;
		}
	o->whole = 0;
	return 1;
}

int inputs_select(const struct inputs *in, int host, struct inputs_sel **sel, int *n,
		  char **err, int *bad_scope)
{
	const struct history *h = &in->hist;
	const struct analysis_scope *s = &in->scope;
	int first = h->host_first[host], nrun = h->host_n[host];
	int64_t zero = history_zero(h, host);

	*sel = NULL;
	*n = 0;
	if (bad_scope)
		*bad_scope = 0;
	if (s->run > nrun) {
		if (bad_scope)
			*bad_scope = 1;
		return set_err(err, "--run %d: the history has %d run%s", s->run, nrun,
			       nrun == 1 ? "" : "s");
	}
	*sel = xcalloc((size_t)nrun + 1, sizeof(**sel));
	for (int k = 0; k < nrun; k++) {
		const struct history_run *r = &h->run[first + k];
		struct inputs_sel *o = &(*sel)[*n];
		int whole = 1;

		if (s->run ? s->run != k + 1 : r->rel == HIST_INSIDE)
			continue;
		o->run = first + k;
		o->scope = *s;
		o->scope.run = 0;
		/* one run alone: the scope as given, as for one recording */
		if (s->run || nrun == 1) {
			o->whole = !s->since.set && !s->until.set;
			(*n)++;
			continue;
		}
		if (!window_touches(s, r, zero, &whole) &&
		    (s->since.set || s->until.set || r->has_span))
			continue;
		if (r->rel == HIST_PARTLY && !partly_window(o, r, zero)) {
			memset(o, 0, sizeof(*o));
			continue;
		}
		if (r->rel == HIST_PARTLY) {	/* its own part, within the window */
			(*n)++;
			continue;
		}
		o->whole = whole;
		if (whole) {
			o->scope.since.set = o->scope.until.set = 0;
		} else {	/* relative edges in its own trace time */
			struct analysis_time *t[2] = { &o->scope.since, &o->scope.until };

			for (int e = 0; e < 2; e++)
				if (t[e]->set && !t[e]->abs && !t[e]->wall) {
					uint64_t v;
					int w;

					edge_of(t[e], r, zero, &v, &w);
					t[e]->abs = 1;
					t[e]->ns = v;
				}
		}
		(*n)++;
	}
	if (!*n) {
		free(*sel);
		*sel = NULL;
		return window_missed(in, host, err);
	}
	return 0;
}

struct td_set *inputs_set(const struct inputs *in, int i, char **err)
{
	const struct input_rec *rec = &in->rec[i];
	struct td_file *tf;

	if (rec->n > 1)
		return td_set_open((const char *const *)rec->paths, rec->n, err);
	tf = td_open(rec->paths[0], err);
	if (!tf) {
		char *e = *err;

		*err = xasprintf("%s: %s", rec->name, e ? e : "cannot read");
		free(e);
		return NULL;
	}
	return td_set_of(tf);
}

/* The window of scope s over set in trace time (see inputs_set_window). */
static int set_window(const struct analysis_scope *s, struct td_set *set, uint64_t *since,
		      uint64_t *until, char **err)
{
	struct wall_map wall = { 0 };
	uint64_t first = 0;
	int r;

	*since = 0;
	*until = UINT64_MAX;
	if (!s->since.set && !s->until.set)
		return 0;
	/* relative times count from the set's first event */
	if (((s->since.set && !s->since.abs && !s->since.wall) ||
	     (s->until.set && !s->until.abs && !s->until.wall)) &&
	    td_set_first_ts(set, &first, err))
		return -1;
	/* the wall clock over every file of the set */
	for (int i = 0; i < td_set_nfiles(set); i++)
		if (wall_map_add_meta(&wall, td_set_private(set, i)))
			break;
	wall_map_finish(&wall);
	r = analysis_window_resolve(s, first, &wall, since, until, err);
	wall_map_free(&wall);
	if (!s->since.set)
		*since = 0;
	return r;
}

int inputs_set_window(const struct inputs *in, struct td_set *set, uint64_t *since,
		      uint64_t *until, char **err)
{
	return set_window(&in->scope, set, since, until, err);
}

/* ---- the events of a run ---- */

struct inputs_events {
	struct td_set *set;
	struct td_set_cursor *cur;
	struct inputs_cgroup *cg;
	uint64_t since, until;
};

struct inputs_events *inputs_events_open(const struct inputs *in, const struct inputs_sel *sel,
					 int keep_names, char **err, int *bad_scope)
{
	struct inputs_events *s = xcalloc(1, sizeof(*s));
	int rec = in->hist.run[sel->run].in;

	*bad_scope = 0;
	s->set = inputs_set(in, rec, err);
	if (!s->set)
		goto fail;
	if (keep_names)
		td_set_keep_names(s->set);	/* each part's tasks as it named them */
	if (set_window(&sel->scope, s->set, &s->since, &s->until, err)) {
		*bad_scope = 1;
		goto fail;
	}
	if (sel->scope.cgroup) {
		s->cg = inputs_cgroup_new(&sel->scope, s->set, err);
		if (!s->cg) {	/* the recording cannot tell: the scope's fault */
			char *e = *err;

			*err = xasprintf("%s: %s", in->rec[rec].name, e ? e : "no cgroup data");
			free(e);
			*bad_scope = 1;
			goto fail;
		}
	}
	/* the tasks' cgroups are followed from the start, whatever the
	 * window; else one seek to since (each file's chunks searched) */
	s->cur = td_set_cursor_new(s->set, s->cg ? 0 : s->since, 0, err);
	if (!s->cur) {
		char *e = *err;

		*err = xasprintf("%s: %s", in->rec[rec].name, e ? e : "cannot read");
		free(e);
		goto fail;
	}
	return s;
fail:
	inputs_events_close(s);
	return NULL;
}

struct td_set *inputs_events_set(const struct inputs_events *s)
{
	return s->set;
}

struct td_set_cursor *inputs_events_cursor(const struct inputs_events *s)
{
	return s->cur;
}

int inputs_events_next(struct inputs_events *s, struct td_event *ev, char **err)
{
	int got;

	while ((got = td_set_cursor_next(s->cur, ev, err)) > 0) {
		if (ev->ts > s->until)
			return 0;
		if (s->cg && !inputs_cgroup_keep(s->cg, ev))
			continue;
		if (ev->ts < s->since)
			continue;
		return 1;
	}
	return got;
}

void inputs_events_close(struct inputs_events *s)
{
	if (!s)
		return;
	td_set_cursor_free(s->cur);
	inputs_cgroup_free(s->cg);
	td_set_close(s->set);
	free(s);
}

struct analysis *inputs_analysis_one(struct inputs *in, char *const *args, int nargs,
				     const struct analysis_opts *o, char **err, int *status)
{
	struct inputs_sel *sel = NULL;
	struct analysis *a;
	int bad = 0, n = 0;

	*status = EXIT_ERROR;
	if (inputs_open(in, args, nargs, err))
		return NULL;
	if (inputs_one(in, err)) {
		*status = EXIT_USAGE;
		return NULL;
	}
	if (inputs_select(in, 0, &sel, &n, err, &bad)) {
		if (bad)
			*status = EXIT_USAGE;
		return NULL;
	}
	if (n > 1) {
		struct strbuf sb = STRBUF_INIT;

		strbuf_addf(&sb, "%d runs in this history: choose one with --run N", n);
		for (int k = 0; k < in->hist.host_n[0]; k++) {
			strbuf_addstr(&sb, "\n  ");
			history_line(&in->hist, in->hin, k, &sb);
		}
		set_err(err, "%s", sb.buf);
		strbuf_release(&sb);
		free(sel);
		*status = EXIT_USAGE;
		return NULL;
	}
	a = inputs_run_analysis(in, &sel[0], o, err, &bad);
	if (!a && in->rec[in->hist.run[sel[0].run].in].n == 1) {
		/* name the file, as for a set the set does */
		char *e = *err;

		*err = xasprintf("%s: %s", in->rec[in->hist.run[sel[0].run].in].name,
				 e ? e : "cannot read");
		free(e);
	}
	free(sel);
	if (!a && bad)
		*status = EXIT_USAGE;
	return a;
}

/* ---- run ids ---- */

int inputs_new_run_id(char id[33])
{
	unsigned char b[16];
	size_t got = 0;

	id[0] = '\0';
	while (got < sizeof(b)) {
		ssize_t r = getrandom(b + got, sizeof(b) - got, 0);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		got += (size_t)r;
	}
	for (int i = 0; i < 16; i++)
		snprintf(id + 2 * i, 3, "%02x", b[i]);
	return 0;
}

/* ---- --cgroup for readers of events ---- */

struct inputs_cgroup {
	struct parser_set *ps;
	struct tep_handle *tep;
	struct cgmap *map;
	int ids[3];		/* ftrace:print, task:task_newtask, cgroup:cgroup_attach_task */
	char scope[4096];
};

static void inputs_cgroup_sink(void *ctx, const struct record *r)
{
	cgmap_add(ctx, r);
}

struct inputs_cgroup *inputs_cgroup_new(const struct analysis_scope *scope, struct td_set *set,
					char **err)
{
	static const char *const ev[3][2] = {
		{ "ftrace", "print" }, { "task", "task_newtask" }, { "cgroup", "cgroup_attach_task" },
	};
	struct td_file *tf = td_set_file(set, 0);
	const char *meta = td_private(tf);
	struct inputs_cgroup *c;

	*err = NULL;
	if (!scope->cgroup)
		return NULL;
	if (!meta || !td_meta_value(meta, "cgroup_tasks")) {
		analysis_cgroup_refused(scope->cgroup, err);
		return NULL;
	}
	c = xcalloc(1, sizeof(*c));
	c->tep = td_tep(tf);
	c->ps = parser_set_new(c->tep);
	c->map = cgmap_new();
	cgmap_scope_path(scope->cgroup, c->scope, (int)sizeof(c->scope));
	analysis_cgroup_prescan(tf, c->tep, c->map);
	for (int i = 0; i < 3; i++) {
		struct tep_event *e = tep_find_event_by_name(c->tep, ev[i][0], ev[i][1]);

		c->ids[i] = e ? e->id : -1;
	}
	return c;
}

int inputs_cgroup_keep(struct inputs_cgroup *c, const struct td_event *ev)
{
	int id;

	if (!ev->event)
		return 0;
	for (int i = 0; i < 3; i++)
		if (ev->event->id == c->ids[i]) {
			struct tep_event *e = tep_find_event(c->tep, ev->event->id);

			if (e)	/* file 0's format of the id, as the analysis */
				parser_set_parse(c->ps, e, (struct tep_record *)&ev->record, ev->ts,
						 ev->cpu, inputs_cgroup_sink, c->map);
			break;
		}
	id = cgmap_of(c->map, tep_data_pid(c->tep, (struct tep_record *)&ev->record));
	return id >= 0 && cgmap_under(c->map, id, c->scope);
}

void inputs_cgroup_free(struct inputs_cgroup *c)
{
	if (!c)
		return;
	parser_set_free(c->ps);
	cgmap_free(c->map);
	free(c);
}
