// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Several trace.dat files as one recording (see tracedat-set.h).
 */
#include "config.h"
#include "tracedat-set.h"
#include "wall-map.h"
#include "tracedat-local.h"
#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static uint64_t meta_u64(const char *p, const char *key)
{
	uint64_t v;

	return td_meta_u64(p, key, &v) ? 0 : v;
}

/*
 * BASE-N.EXT (or BASE-N) for segment n: *base_len the length of BASE,
 * *ext where EXT begins ("" when none). 0, or -1 when the name is not so.
 */
static int seg_name(const char *path, int n, size_t *base_len, const char **ext)
{
	const char *slash = strrchr(path, '/'), *dot = strrchr(path, '.');
	const char *end = dot && (!slash || dot > slash) ? dot : path + strlen(path);
	const char *d = end;
	char num[16];

	while (d > path && d[-1] >= '0' && d[-1] <= '9')
		d--;
	if (d == end || d == path || d[-1] != '-' || (slash && d - 1 <= slash))
		return -1;
	snprintf(num, sizeof(num), "%d", n);
	if ((size_t)(end - d) != strlen(num) || strncmp(d, num, (size_t)(end - d)))
		return -1;
	*base_len = (size_t)(d - 1 - path);
	*ext = end;
	return 0;
}

struct seg_info {
	const char *path;
	const char *run_id;	/* run_id=, or NULL (written before 0.x) */
	size_t run_id_len;
	int num;		/* switch_output=N; 0: not a segment */
	int named;		/* named BASE-N.EXT */
	size_t base_len;
	const char *ext;
	dev_t dev;
	ino_t ino;
};

/*
 * Same recording: the same run id (every file one `mmscope record` wrote
 * carries its run's); files without one, both segments named, same BASE
 * and EXT. A file with a run id and one without are never one.
 */
static int same_rec(const struct seg_info *a, const struct seg_info *b)
{
	if (a->run_id || b->run_id)
		return a->run_id && b->run_id && a->run_id_len == b->run_id_len &&
		       !memcmp(a->run_id, b->run_id, a->run_id_len);
	return a->num && b->num && a->named && b->named && a->base_len == b->base_len &&
	       !strncmp(a->path, b->path, a->base_len) && !strcmp(a->ext, b->ext);
}

/* mode=flight-recorder in a file's metadata */
static int is_flight(const char *priv)
{
	const char *m = td_meta_value(priv, "mode");

	return m && !strncmp(m, "flight-recorder", 15) && (!m[15] || m[15] == '\n');
}

static int int_cmp(const void *x, const void *y)
{
	int a = *(const int *)x, b = *(const int *)y;

	return a < b ? -1 : a > b;
}

/*
 * The groups from each file's metadata (priv[i], may be NULL). strict:
 * a segment not named BASE-N.EXT is an error (it cannot be placed).
 */
static int group_core(const char *const *paths, const char *const *priv, int n,
		      int *group, int *ngroups, int strict, int twice_checked, char **err)
{
	struct seg_info *si = xcalloc((size_t)n, sizeof(*si));
	int *nums = xcalloc((size_t)n, sizeof(*nums));
	int ng = 0, r = -1;

	for (int i = 0; i < n; i++) {
		struct stat st;

		si[i].path = paths[i];
		si[i].num = (int)meta_u64(priv[i], "switch_output");
		si[i].run_id = priv[i] ? td_meta_value(priv[i], "run_id") : NULL;
		/*
		 * A flight-recorder file is one incident: its per-CPU data
		 * opens at the ring's overwrite point, and the gap to the
		 * recorder's next file is neither loss nor overwrite. Read
		 * as one, a set of them would count every later file's
		 * overwrite as lost events: each is a recording of its own
		 * (its run id names the recorder that wrote it).
		 */
		if (is_flight(priv[i]))
			si[i].run_id = NULL;
		if (si[i].run_id) {
			si[i].run_id_len = strcspn(si[i].run_id, "\n");
			if (!si[i].run_id_len)
				si[i].run_id = NULL;
		}
		/* a part twice (unless the caller's own check was of every file) */
		if (si[i].num > 0 && !twice_checked && !stat(paths[i], &st)) {
			si[i].dev = st.st_dev;
			si[i].ino = st.st_ino;
			for (int k = 0; k < i; k++)
				if (si[k].num > 0 && si[k].dev == st.st_dev &&
				    si[k].ino == st.st_ino) {
					set_err(err, "%s: given twice (also as %s)", paths[i],
						paths[k]);
					goto out;
				}
		}
		if (si[i].num > 0)
			si[i].named = !seg_name(paths[i], si[i].num, &si[i].base_len, &si[i].ext);
		/* a run id places a part whatever its name */
		if (si[i].num > 0 && !si[i].named && strict && !si[i].run_id) {
			set_err(err, "%s: segment %d of a --switch-output recording, but not named "
				"BASE-%d.dat: cannot tell which recording it belongs to",
				paths[i], si[i].num, si[i].num);
			goto out;
		}
		group[i] = -1;
		for (int k = 0; k < i && group[i] < 0; k++)
			if (same_rec(&si[k], &si[i]))
				group[i] = group[k];
		if (group[i] < 0)
			group[i] = ng++;
	}
	/* no segment missing between two of one recording */
	for (int g = 0; g < ng; g++) {
		int m = 0, first = -1;

		for (int i = 0; i < n; i++)
			if (group[i] == g && si[i].num > 0) {
				nums[m++] = si[i].num;
				if (first < 0)
					first = i;
			}
		if (m < 2)
			continue;
		qsort(nums, (size_t)m, sizeof(*nums), int_cmp);
		for (int k = 1; k < m && !si[first].named; k++)
			if (nums[k] == nums[k - 1] || nums[k] != nums[k - 1] + 1) {
				/* parts placed by their run id, renamed */
				set_err(err, "%s: its recording's parts are %s (%d, then %d)",
					si[first].path, nums[k] == nums[k - 1] ? "there twice" :
					"not contiguous", nums[k - 1], nums[k]);
				goto out;
			}
		for (int k = 1; k < m; k++) {
			if (nums[k] == nums[k - 1]) {
				set_err(err, "%.*s-%d%s: segment %d of that recording is there twice",
					(int)si[first].base_len, si[first].path, nums[k],
					si[first].ext, nums[k]);
				goto out;
			}
			if (nums[k] != nums[k - 1] + 1) {
				set_err(err, "%.*s-%d%s is missing: the segments of that recording "
					"are not contiguous (%d, then %d)",
					(int)si[first].base_len, si[first].path, nums[k - 1] + 1,
					si[first].ext, nums[k - 1], nums[k]);
				goto out;
			}
		}
	}
	*ngroups = ng;
	r = 0;
out:
	free(nums);
	free(si);
	return r;
}

int td_set_group(const char *const *paths, int n, int *group, int *ngroups, char **err)
{
	char **priv = xcalloc((size_t)n + 1, sizeof(*priv));
	int r;

	/*
	 * One file open at a time, no format parsed: only the private
	 * metadata is kept (a file's kallsyms alone are ~7 MB: 24 files
	 * open at once took 170 MB before any was read).
	 */
	for (int i = 0; i < n; i++)
		priv[i] = td_set_read_meta(paths[i]);
	r = td_set_group_meta(paths, (const char *const *)priv, n, group, ngroups, 0, err);
	for (int i = 0; i < n; i++)
		free(priv[i]);
	free(priv);
	return r;
}

char *td_set_read_meta(const char *path)
{
	char *e = NULL, *priv;
	struct td_file *tf = td_open_only(path, td_want_none, &e);

	free(e);	/* not readable: a group of its own */
	priv = tf && td_private(tf) ? xstrdup(td_private(tf)) : NULL;
	td_close(tf);
	return priv;
}

const char *const td_run_keys[] = {
	"events", "missing_events", "groups", "sample_sources", "missing_sources",
	"probe_set", "probe_reason", "probes", "command", "command_argv", NULL
};

char *td_meta_trim(const char *meta, const char *ref)
{
	struct strbuf sb = STRBUF_INIT;

	for (const char *p = meta; p && *p;) {
		const char *nl = strchr(p, '\n'), *end = nl ? nl : p + strlen(p);
		const char *eq = memchr(p, '=', (size_t)(end - p));
		int drop = 0;

		for (int k = 0; eq && ref && td_run_keys[k] && !drop; k++) {
			size_t kl = strlen(td_run_keys[k]), vl = (size_t)(end - eq - 1);
			const char *v;

			if (kl != (size_t)(eq - p) || strncmp(p, td_run_keys[k], kl))
				continue;
			/* the key's first line, and ref has it alike */
			v = td_meta_value(ref, td_run_keys[k]);
			drop = td_meta_value(meta, td_run_keys[k]) == eq + 1 && v &&
			       strcspn(v, "\n") == vl && !memcmp(v, eq + 1, vl);
		}
		if (!drop)
			strbuf_add(&sb, p, (size_t)(end - p) + (nl != NULL));
		p = nl ? nl + 1 : end;
	}
	return strbuf_detach(&sb, NULL);
}

int td_set_group_meta(const char *const *paths, const char *const *priv, int n, int *group,
		      int *ngroups, int twice_checked, char **err)
{
	return group_core(paths, priv, n, group, ngroups, 1, twice_checked, err);
}

/*
 * A --switch-output part that a switch ended (stop_reason=switch-output)
 * read the trace clock with the wall clock (its last wall_segments pair)
 * after its last read of the rings: none of its events is later than
 * that trace time, known without decompressing anything. 1 and *end, or
 * 0 (another part, no clocks, malformed: td_last_ts must tell).
 */
static int part_end_bound(const char *meta, uint64_t *end)
{
	struct wall_map m = { 0 };
	int known = 0;

	if (!td_meta_is(meta, "stop_reason", "switch-output"))
		return 0;
	/* checked 1: its own wall_segments read (not the start pair alone) */
	if (!wall_map_add_meta(&m, meta) && m.checked == 1 && m.n) {
		*end = 0;
		for (int i = 0; i < m.n; i++)
			if (m.seg[i].tb > *end)
				*end = m.seg[i].tb;
		known = 1;
	}
	wall_map_free(&m);
	return known;
}

/* ---- the set ---- */

struct set_file {
	struct td_file *tf;	/* file 0: opened with the set's want; the
				 * others with td_want_none, decoded with
				 * file 0's formats (own: their own, opened
				 * whole, when their formats' bytes differ) */
	int own;
	struct td_index *ix;	/* for starts at a time, built on first need */
	int ix_tried;
	int last_known;		/* last: its last event's time (td_last_ts) */
	uint64_t last;
	int end_known;		/* end: no event of it is later (part_end_bound) */
	uint64_t end;
	const char *path;
	uint64_t start;
	int taken;		/* td_set_take: the caller closes it */
	/* a set of many files (lazy): its metadata, kept while the file is
	 * closed; the file opened and checked against file 0 when a cursor
	 * or a caller needs it, closed again once read to its end */
	char *meta;
	int meta_borrowed;	/* td_set_open_meta's: the caller's */
	int checked;		/* opened and checked once */
	long long lost;		/* its CPU stats' dropped + overrun, once checked */
};

/* Sets of more files than this open each of them when it is needed, not
 * all at once (MMSCOPE_SET_LAZY=1: always, 0: never, for the tests): a
 * week of one-minute parts is 10,080 files, 56 KB and a descriptor each
 * open. */
#define SET_EAGER_MAX 64

struct td_set {
	struct set_file *f;
	int n;
	int keep_names;		/* td_set_keep_names */
	int lazy;
	td_want_fn want;
	/* td_set_share_cmdlines on a lazy set: each file's names added to
	 * file 0's when it is opened (a part that ends before since: none) */
	int share;
	uint64_t share_since;
	struct td_names_seen seen;
};

static int start_cmp(const void *x, const void *y)
{
	const struct set_file *a = x, *b = y;

	return a->start < b->start ? -1 : a->start > b->start;
}

/* The files' formats must be the first's: same id, same event. */
static int same_formats(struct tep_handle *t1, struct tep_handle *t2)
{
	struct tep_event **evs = tep_list_events(t2, TEP_EVENT_SORT_ID);

	for (int i = 0; evs && evs[i]; i++) {
		struct tep_event *e = tep_find_event(t1, evs[i]->id);

		if (!e || strcmp(e->name, evs[i]->name) || strcmp(e->system, evs[i]->system))
			return 0;
	}
	return 1;
}

static int same_buffers(struct td_file *a, struct td_file *b)
{
	if (td_nbuffers(a) != td_nbuffers(b))
		return 0;
	for (int i = 0; i < td_nbuffers(a); i++)
		if (strcmp(td_buffer(a, i)->name, td_buffer(b, i)->name))
			return 0;
	return 1;
}


/* 1 when section m of a and b holds the same bytes (read for this, then
 * given back), 0 not, -1 with *err when one does not read. */
static int same_section(struct td_file *a, struct td_file *b, enum td_meta m, char **err)
{
	const void *pa, *pb;
	size_t la = 0, lb = 0;
	int r;

	if (td_meta_load(a, m, err) || td_meta_load(b, m, err))
		return -1;
	pa = td_meta(a, m, &la);
	pb = td_meta(b, m, &lb);
	r = la == lb && (!la || !memcmp(pa, pb, la));
	td_meta_unload(b, m);
	return r;
}

/*
 * File i (opened with td_want_none) decoded with file 0's formats when
 * its format sections are file 0's byte for byte, as every part of one
 * run's are: its own formats are never parsed (a part of a day's run
 * costs its options, not 15 ms of formats). Otherwise it is opened whole
 * and must have file 0's ids and names (same_formats), and keeps them.
 */
static int bind_formats(struct td_set *s, int i, td_want_fn want, char **err)
{
	struct set_file *sf = &s->f[i];
	struct td_file *tf;
	int a = same_section(s->f[0].tf, sf->tf, TD_META_FTRACE, err), b;

	if (a < 0 || (b = same_section(s->f[0].tf, sf->tf, TD_META_EVENTS, err)) < 0)
		return -1;
	if (a && b) {
		td_use_formats_of(sf->tf, s->f[0].tf);
		return 0;
	}
	tf = td_open_only(sf->path, want, err);
	if (!tf)
		return -1;
	if (!same_formats(td_tep_nosyms(s->f[0].tf), td_tep_nosyms(tf))) {
		td_close(tf);
		return set_err(err, "its event formats differ from %s's: not one recording",
			       s->f[0].path);
	}
	td_close(sf->tf);
	sf->tf = tf;
	sf->own = 1;
	return 0;
}

struct td_set *td_set_open(const char *const *paths, int n, char **err)
{
	return td_set_open_only(paths, n, NULL, err);
}

/* Prefixes *err with path. */
static void err_path(const char *path, char **err)
{
	char *e;

	if (!err)
		return;
	e = *err;
	*err = xasprintf("%s: %s", path, e ? e : "cannot read");
	free(e);
}

/* File i's private metadata, open or not. */
static const char *set_meta(const struct td_set *s, int i)
{
	return s->f[i].meta ? s->f[i].meta : td_private(s->f[i].tf);
}

/* File i (i > 0), opened: of file 0's buffers, decoded with its formats
 * (or its own, when only their bytes differ), its names shared when the
 * set shares them, its losses noted. 0, or -1 with *err naming it. */
static int file_check(struct td_set *s, int i, char **err)
{
	struct set_file *sf = &s->f[i];
	int opened = 0;

	if (sf->tf && sf->checked)
		return 0;
	if (!sf->tf) {
		sf->tf = td_open_only(sf->path, td_want_none, err);
		if (!sf->tf) {
			err_path(sf->path, err);
			return -1;
		}
		opened = 1;
	}
	if (!same_buffers(s->f[0].tf, sf->tf)) {
		set_err(err, "%s: its buffers differ from %s's: not one recording", sf->path,
			s->f[0].path);
		goto bad;
	}
	if (bind_formats(s, i, s->want, err)) {
		err_path(sf->path, err);
		goto bad;
	}
	if (!sf->checked) {
		sf->checked = 1;
		for (int b = 0; b < td_nbuffers(sf->tf); b++)
			for (int k = 0; k < td_buffer(sf->tf, b)->ncpus; k++) {
				const struct td_buffer *buf = td_buffer(sf->tf, b);

				if (buf->stats[k].present)
					sf->lost += (long long)(buf->stats[k].dropped +
								buf->stats[k].overrun);
			}
		if (s->share && !(s->share_since && sf->end_known && sf->end < s->share_since)) {
			const char *text;
			size_t len;

			if (td_cmdlines_text(sf->tf, &text, &len, err)) {
				err_path(sf->path, err);
				goto bad;
			}
			if (text)
				td_parse_cmdlines(td_tep_nosyms(s->f[0].tf), text, len, &s->seen);
			td_meta_unload(sf->tf, TD_META_CMDLINES);
		}
	}
	td_trim(sf->tf);	/* its formats' window */
	return 0;
bad:
	if (opened || s->lazy) {
		td_close(sf->tf);
		sf->tf = NULL;
	}
	return -1;
}

/* A lazy set's file j read to its end: closed (its metadata stays). */
static void file_done(struct td_set *s, int j)
{
	if (s->lazy && j > 0 && s->f[j].tf && !s->f[j].taken) {
		td_index_free(s->f[j].ix);	/* of this open of it */
		s->f[j].ix = NULL;
		s->f[j].ix_tried = 0;
		td_close(s->f[j].tf);
		s->f[j].tf = NULL;
		s->f[j].own = 0;
	}
}

struct td_set *td_set_open_only(const char *const *paths, int n, td_want_fn want, char **err)
{
	return td_set_open_meta(paths, NULL, n, want, err);
}

struct td_set *td_set_open_meta(const char *const *paths, const char *const *metas, int n,
				td_want_fn want, char **err)
{
	struct td_set *s;
	const char **priv;
	int *group, ng, seg = 0;

	if (n < 1) {
		set_err(err, "no recording");
		return NULL;
	}
	/* each file's identity read once: a week of 1-minute parts is
	 * 10,080 files, and a stat per pair took minutes */
	struct stat *id = xcalloc((size_t)n, sizeof(*id));
	unsigned char *known = xcalloc((size_t)n, 1);

	for (int i = 0; i < n && !metas; i++)	/* one that fails: its error comes when it is opened */
		known[i] = !stat(paths[i], &id[i]);
	for (int i = 0; i < n; i++)
		for (int k = 0; k < i && known[i]; k++)
			if (known[k] && id[k].st_ino == id[i].st_ino && id[k].st_dev == id[i].st_dev) {
				set_err(err, "%s: given twice (also as %s)", paths[i], paths[k]);
				free(id);
				free(known);
				return NULL;
			}
	free(id);
	free(known);
	s = xcalloc(1, sizeof(*s));
	s->f = xcalloc((size_t)n, sizeof(*s->f));
	s->want = want;
	{	/* MMSCOPE_SET_LAZY=1 or 0: the one way or the other (tests) */
		const char *e = getenv("MMSCOPE_SET_LAZY");

		s->lazy = n > 1 && (e && *e ? !strcmp(e, "1") : n > SET_EAGER_MAX);
	}
	/* each file's options and metadata: the order and the grouping
	 * need no more (the first in time is opened whole below) */
	for (int i = 0; i < n; i++) {
		s->f[i].path = paths[i];
		s->n = i + 1;
		if (s->lazy && metas && metas[i]) {	/* read already: not opened again */
			s->f[i].meta = (char *)metas[i];	/* the caller's, kept meanwhile */
			s->f[i].meta_borrowed = 1;
			s->f[i].start = meta_u64(s->f[i].meta, "start_realtime_ns");
			s->f[i].end_known = part_end_bound(s->f[i].meta, &s->f[i].end);
			if (!s->f[i].start) {
				set_err(err, "%s: no start_realtime_ns in its metadata: cannot "
					"order it among the other files (not an mmscope "
					"recording?)", paths[i]);
				goto fail;
			}
			continue;
		}
		s->f[i].tf = td_open_only(paths[i], n == 1 ? want : td_want_none, err);
		if (!s->f[i].tf) {
			err_path(paths[i], err);
			goto fail;
		}
		if (s->lazy) {	/* its metadata kept, the file closed */
			const char *m = td_private(s->f[i].tf);

			s->f[i].meta = xstrdup(m ? m : "");
			td_close(s->f[i].tf);
			s->f[i].tf = NULL;
		}
		s->f[i].start = meta_u64(set_meta(s, i), "start_realtime_ns");
		s->f[i].end_known = part_end_bound(set_meta(s, i), &s->f[i].end);
		if (n > 1 && !s->f[i].start) {
			set_err(err, "%s: no start_realtime_ns in its metadata: cannot order it "
				"among the other files (not an mmscope recording?)", paths[i]);
			goto fail;
		}
	}
	if (n == 1)
		return s;
	/* the segments among them: of one recording, none missing */
	priv = xcalloc((size_t)n, sizeof(*priv));
	group = xcalloc((size_t)n, sizeof(*group));
	for (int i = 0; i < n; i++)
		priv[i] = set_meta(s, i);
	if (group_core(paths, priv, n, group, &ng, 0, metas != NULL, err))
		ng = -1;
	for (int i = 0; i < n && ng > 1; i++)
		seg |= meta_u64(priv[i], "switch_output") > 0 || td_meta_value(priv[i], "run_id");
	if (ng > 1 && seg) {
		int k = 1;

		while (group[k] == group[0])
			k++;
		set_err(err, "%s and %s are parts of different recordings (not one run id, "
			"or --switch-output segments named BASE-N.dat): give the files of one",
			paths[0], paths[k]);
		ng = -1;
	}
	free(priv);
	free(group);
	if (ng < 0)
		goto fail;
	qsort(s->f, (size_t)n, sizeof(*s->f), start_cmp);
	if (s->f[0].tf)
		td_close(s->f[0].tf);
	s->f[0].tf = td_open_only(s->f[0].path, want, err);
	if (!s->f[0].tf) {
		err_path(s->f[0].path, err);
		goto fail;
	}
	if (s->lazy) {	/* the first and the last file's own, whole (td_meta_trim) */
		struct set_file *l = &s->f[n - 1];
		char *m = td_set_read_meta(l->path);

		if (!s->f[0].meta_borrowed)
			free(s->f[0].meta);
		s->f[0].meta = NULL;	/* set_meta: td_private() of the file open */
		s->f[0].meta_borrowed = 0;
		if (m) {
			if (!l->meta_borrowed)
				free(l->meta);
			l->meta = m;
			l->meta_borrowed = 0;
		}
	}
	for (int i = 1; i < n && !s->lazy; i++)
		if (file_check(s, i, err))
			goto fail;
	return s;
fail:
	td_set_close(s);
	return NULL;
}

struct td_set *td_set_of(struct td_file *tf)
{
	struct td_set *s = xcalloc(1, sizeof(*s));

	s->f = xcalloc(1, sizeof(*s->f));
	s->f[0].tf = tf;
	s->f[0].path = td_path(tf);
	s->n = 1;
	return s;
}

void td_set_close(struct td_set *s)
{
	if (!s)
		return;
	/* the parts first: their cursors read file 0's formats */
	for (int i = s->n; i-- > 0;) {
		td_index_free(s->f[i].ix);
		if (s->f[i].tf && !s->f[i].taken)
			td_close(s->f[i].tf);
		if (!s->f[i].meta_borrowed)
			free(s->f[i].meta);
	}
	free(s->seen.h);
	free(s->f);
	free(s);
}

int td_set_nfiles(const struct td_set *s) { return s->n; }
struct td_file *td_set_file(const struct td_set *s, int i)
{
	char *err = NULL;

	/* a lazy set's file opened for its caller; NULL when it no longer
	 * opens (td_set_open_file says why) */
	if (!s->f[i].tf && i > 0 && file_check((struct td_set *)s, i, &err)) {
		free(err);
		return NULL;
	}
	return s->f[i].tf;
}

struct td_file *td_set_open_file(struct td_set *s, int i, char **err)
{
	if (!s->f[i].tf && i > 0 && file_check(s, i, err))
		return NULL;
	return s->f[i].tf;
}

const char *td_set_private(const struct td_set *s, int i)
{
	return set_meta(s, i);
}

long long td_set_lost(const struct td_set *s, int *files)
{
	long long sum = 0;

	*files = 0;
	for (int i = 1; i < s->n; i++)
		if (s->f[i].checked) {
			sum += s->f[i].lost;
			(*files)++;
		}
	return sum;
}

struct td_file *td_set_take(struct td_set *s, int i)
{
	s->f[i].taken = 1;
	return s->f[i].tf;
}

void td_set_keep_names(struct td_set *s) { s->keep_names = 1; }

int td_set_share_cmdlines(struct td_set *s, uint64_t since, char **err)
{
	struct td_names_seen seen = { 0 };
	size_t len;
	const char *text;
	int r = 0;

	if (s->n < 2)
		return 0;
	/* file 0's own are in its tep: only their pairs are noted */
	if (td_cmdlines_text(s->f[0].tf, &text, &len, err)) {
		err_path(s->f[0].path, err);
		return -1;
	}
	if (s->lazy) {	/* each file's when it is opened (file_check) */
		if (text)
			td_parse_cmdlines(NULL, text, len, &s->seen);
		s->share = 1;
		s->share_since = since;
		return 0;
	}
	if (text)
		td_parse_cmdlines(NULL, text, len, &seen);
	for (int i = 1; i < s->n && !r; i++) {
		if (since && s->f[i].end_known && s->f[i].end < since)
			continue;	/* over before the window: its names are not the window's */
		if (td_cmdlines_text(s->f[i].tf, &text, &len, err)) {
			err_path(s->f[i].path, err);
			r = -1;
		} else if (text) {
			td_parse_cmdlines(td_tep_nosyms(s->f[0].tf), text, len, &seen);
		}
		td_meta_unload(s->f[i].tf, TD_META_CMDLINES);
		td_trim(s->f[i].tf);
	}
	free(seen.h);
	return r;
}

/* ---- the merging cursor ---- */

struct cur_file {
	struct td_cursor *c;
	struct td_event head;	/* the next event, when has (not for the
				 * file of the event returned last: that
				 * one went to the caller) */
	int has;		/* events remain */
	uint64_t first;		/* the first event's time (opened, with events) */
	struct tep_handle *names;	/* keep_names: its saved cmdlines */
};

struct td_set_cursor {
	struct td_set *s;
	uint64_t since;
	unsigned every;
	struct cur_file *f;
	int opened;		/* files [0, opened) have been started */
	int done;		/* files [0, done) are read to their end: the
				 * merge looks from here (a day's 144 parts
				 * would otherwise be 144 looks per event) */
	int last;		/* the file of the event returned last, or -1 */
	uint64_t emitted;	/* its time */
	/* the last file's events go straight to the caller while they come
	 * before limit: every other file's next event, and the first of
	 * the file started last (the next one starts once that is reached) */
	uint64_t limit;
	int any;
};

/* Among several files, an error names the file (one: the caller does). */
static void name_err(const struct td_set *s, int j, char **err)
{
	if (s->n < 2)
		return;
	err_path(s->f[j].path, err);
}

/* The tasks' names of file j, when the reader formats each file's
 * events with its own (td_set_keep_names): file 0's tep has them; a
 * part's are read into a tep of their own while it is read. */
static int open_names(struct td_set_cursor *c, int j, char **err)
{
	struct set_file *sf = &c->s->f[j];
	size_t len;
	const char *text;
	int r;

	if (!c->s->keep_names || !j || sf->own)
		return 0;
	c->f[j].names = tep_alloc();
	if (!c->f[j].names)
		return set_err(err, "out of memory");
	r = td_cmdlines_text(sf->tf, &text, &len, err);
	if (!r && text)
		td_parse_cmdlines(c->f[j].names, text, len, NULL);
	td_meta_unload(sf->tf, TD_META_CMDLINES);
	return r;
}

/* File j read to its end: its cursor and names go. */
static void close_file(struct cur_file *f, struct td_file *tf)
{
	f->has = 0;
	if (f->c) {
		td_cursor_free(f->c);
		if (tf)
			td_trim(tf);	/* file 0's serves the analysis: kept */
	}
	f->c = NULL;
	if (f->names)
		tep_free(f->names);
	f->names = NULL;
}

/* Starts file j: its cursor (at since) and its first event. */
static int open_file(struct td_set_cursor *c, int j, char **err)
{
	struct set_file *sf = &c->s->f[j];
	struct td_file *tf = sf->tf;
	struct cur_file *f = &c->f[j];
	int r;

	if (c->since && c->s->n > 1) {
		/* a part that ends before since: not started (its end from
		 * its metadata, else one chunk a CPU read; not a search of
		 * its chunks and a seek) */
		if (sf->end_known && sf->end < c->since) {
			f->has = 0;
			if (tf)
				td_trim(tf);
			return 0;
		}
		if (j && file_check(c->s, j, err))
			return -1;
		tf = sf->tf;
		if (!sf->last_known) {
			if (td_last_ts(tf, &sf->last, err))
				goto bad;
			sf->last_known = 1;
		}
		if (sf->last < c->since) {
			f->has = 0;
			td_trim(tf);
			file_done(c->s, j);
			return 0;
		}
	}
	if (j && file_check(c->s, j, err))
		return -1;
	tf = sf->tf;
	if (c->since) {
		if (!sf->ix_tried) {
			sf->ix_tried = 1;
			sf->ix = td_index_new(tf, c->every);
			if (sf->ix && (c->every ? td_index_build(sf->ix, NULL) :
				       td_index_build_at(sf->ix, c->since, NULL))) {	/* a seek without it walks */
				td_index_free(sf->ix);
				sf->ix = NULL;
			}
		}
		f->c = td_cursor_new_at(tf, -1, sf->ix, c->since, err);
	} else {
		f->c = td_cursor_new(tf, -1, err);
	}
	if (!f->c)
		goto bad;
	r = td_cursor_next(f->c, &f->head, err);
	if (r < 0)
		goto bad;
	f->has = r > 0;
	f->first = f->has ? f->head.ts : 0;
	if (!f->has) {
		close_file(f, j ? tf : NULL);
		file_done(c->s, j);
	} else if (c->any && f->head.ts < c->emitted) {
		set_err(err, "%s: its first event (%llu ns) comes before events already read "
			"from %s (%llu ns): not one recording in time order", c->s->f[j].path,
			(unsigned long long)f->head.ts, c->s->f[c->last].path,
			(unsigned long long)c->emitted);
		return -1;
	} else if (open_names(c, j, err)) {
		goto bad;
	}
	return 0;
bad:
	name_err(c->s, j, err);
	return -1;
}

struct td_set_cursor *td_set_cursor_new(struct td_set *s, uint64_t since, unsigned every,
					char **err)
{
	struct td_set_cursor *c = xcalloc(1, sizeof(*c));

	(void)err;
	c->s = s;
	c->since = since;
	c->every = every;
	c->f = xcalloc((size_t)s->n, sizeof(*c->f));
	c->last = -1;
	return c;
}

/* The merge's next event, td_set_cursor_next without the window's start. */
static int set_cursor_step(struct td_set_cursor *c, struct td_event *ev, char **err)
{
	struct cur_file *f;
	int k;

	if (c->last >= 0 && (f = &c->f[c->last])->has) {
		/* straight into the caller's event: most come from the file
		 * of the last one, before any other file's next */
		int r = td_cursor_next(f->c, ev, err);

		if (r < 0) {
			name_err(c->s, c->last, err);
			return -1;
		}
		if (r && ev->ts < c->limit) {
			c->emitted = ev->ts;
			return 1;
		}
		if (r) {
			f->head = *ev;
		} else {
			close_file(f, c->last ? c->s->f[c->last].tf : NULL);
			file_done(c->s, c->last);
		}
	}
	while (c->done < c->opened && !c->f[c->done].has)
		c->done++;
	for (;;) {
		uint64_t t = UINT64_MAX;

		k = -1;
		for (int i = c->done; i < c->opened; i++)
			if (c->f[i].has && (k < 0 || c->f[i].head.ts < t)) {
				k = i;
				t = c->f[i].head.ts;
			}
		/* the next file may hold events up to here: start it first
		 * (files begin in order, so one that begins after the last
		 * started file's first event cannot precede it) */
		if (c->opened < c->s->n &&
		    (c->opened == 0 || !c->f[c->opened - 1].has ||
		     c->f[c->opened - 1].first <= t)) {
			if (open_file(c, c->opened, err))
				return -1;
			c->opened++;
			continue;
		}
		break;
	}
	if (k < 0)
		return 0;
	*ev = c->f[k].head;
	c->last = k;
	c->emitted = ev->ts;
	c->any = 1;
	/* strictly before every other head (a tie goes to the lower file,
	 * as the scan above does) and the last started file's first */
	c->limit = UINT64_MAX;
	for (int i = c->done; i < c->opened; i++)
		if (i != k && c->f[i].has && c->f[i].head.ts < c->limit)
			c->limit = c->f[i].head.ts;
	if (c->opened < c->s->n && c->f[c->opened - 1].first < c->limit)
		c->limit = c->f[c->opened - 1].first;
	return 1;
}

int td_set_cursor_next(struct td_set_cursor *c, struct td_event *ev, char **err)
{
	int r;

	/* the seeks put each stream at since, but a stream whose time goes
	 * backwards after it (a damaged file) brings earlier events again:
	 * none is handed out, so a window holds only its own */
	while ((r = set_cursor_step(c, ev, err)) > 0 && ev->ts < c->since)
		;
	return r;
}

int td_set_cursor_file(const struct td_set_cursor *c) { return c->last; }

struct tep_handle *td_set_cursor_names(const struct td_set_cursor *c)
{
	if (c->last < 0)
		return NULL;
	if (c->f[c->last].names)
		return c->f[c->last].names;
	return td_tep(c->s->f[c->s->f[c->last].own ? c->last : 0].tf);
}

struct tep_handle *td_set_cursor_formats(const struct td_set_cursor *c)
{
	if (c->last < 0)
		return NULL;
	return td_tep(c->s->f[c->s->f[c->last].own ? c->last : 0].tf);
}

void td_set_cursor_free(struct td_set_cursor *c)
{
	if (!c)
		return;
	for (int i = 0; i < c->s->n; i++)
		close_file(&c->f[i], i ? c->s->f[i].tf : NULL);
	free(c->f);
	free(c);
}

int td_set_first_ts(struct td_set *s, uint64_t *ts, char **err)
{
	struct td_set_cursor *c;
	struct td_event ev;
	int r;

	/*
	 * A first part a switch ended: a later part holds only events
	 * committed after that switch's read of the rings, and the kernel
	 * reserves and commits an event with preemption off, so none of
	 * them was stamped before the first part's first event (a part
	 * spans a second or 64 KiB of pages at least). Its first event is
	 * the set's, and no other part is opened to learn that.
	 */
	if (s->n > 1 && s->f[0].end_known) {
		struct td_cursor *one = td_cursor_new(s->f[0].tf, -1, err);

		if (!one)
			return -1;
		r = td_cursor_next(one, &ev, err);
		td_cursor_free(one);
		if (r < 0)
			return -1;
		if (r > 0) {
			*ts = ev.ts;
			return 0;
		}
	}
	c = td_set_cursor_new(s, 0, 0, err);
	if (!c)
		return -1;
	r = td_set_cursor_next(c, &ev, err);
	*ts = r > 0 ? ev.ts : 0;
	td_set_cursor_free(c);
	return r < 0 ? -1 : 0;
}
