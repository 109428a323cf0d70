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

/* ---- the scope options ---- */

static int scope_time(const char *name, const char *arg, struct analysis_time *t)
{
	if (analysis_time_parse(arg, t)) {
		error("bad --%s time '%s' (seconds from the first event, @seconds of "
		      "trace time, or YYYY-MM-DDTHH:MM:SS[.F][Z|+HH:MM])", name, arg);
		return EXIT_USAGE;
	}
	return 0;
}

int parse_scope(const struct cmd_entry *cmd, int opt, const char *arg,
		struct analysis_scope *s)
{
	unsigned long long v;

	switch (opt) {
	case SCOPE_OPT_SINCE:
		return scope_time("since", arg, &s->since);
	case SCOPE_OPT_UNTIL:
		return scope_time("until", arg, &s->until);
	case SCOPE_OPT_PID:
		if (parse_ull(arg, &v) || !v || v > (1ULL << 30))
			return usage_error(cmd, "bad --pid '%s' (a task id)", arg);
		s->pid = (int)v;
		return 0;
	case SCOPE_OPT_COMM:
		if (!*arg || strlen(arg) > 15)
			return usage_error(cmd, "bad --comm '%s' (a task name, 1 to 15 characters)",
					   arg);
		s->comm = arg;
		return 0;
	case SCOPE_OPT_CGROUP:
		if (!*arg)
			return usage_error(cmd, "bad --cgroup '' (a cgroup path)");
		s->cgroup = arg;
		return 0;
	default:
		return -1;
	}
}

int check_scope(const struct cmd_entry *cmd, const struct analysis_scope *s)
{
	char *err = NULL;

	(void)cmd;
	if (!analysis_scope_check(s, &err))
		return 0;
	error("%s", err);
	free(err);
	return EXIT_USAGE;
}

int scope_or_bad_option(const struct cmd_entry *cmd, int opt, const char *arg,
			struct analysis_scope *s, int argc, char **argv)
{
	int r = parse_scope(cmd, opt, arg, s);

	return r >= 0 ? r : bad_option(cmd, argc, argv);
}

int inputs_args_check(const struct cmd_entry *cmd, char *const *args, int nargs)
{
	if (nargs < 1)
		return usage_error(cmd, "no recording given");
	for (int i = 0; nargs > 1 && i < nargs; i++)
		if (!strcmp(args[i], "-"))
			return usage_error(cmd, "'-' (standard input) only alone");
	return 0;
}

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

int inputs_open(struct inputs *in, char *const *args, int nargs, char **err)
{
	char **paths = NULL;
	int *from = NULL, *group = NULL;	/* from[i]: the argument of paths[i] */
	struct stat *id = NULL;
	int n = 0, ng = 0, r = -1;

	for (int i = 0; i < nargs; i++) {
		struct stat st;
		int before = n;

		if (!strcmp(args[i], "-")) {
			if (in->stdin_used || input_file_open(&in->in, "-", err))
				goto out;
			in->stdin_used = 1;
			add_path(&paths, &n, xstrdup(in->in.path));
		} else if (stat(args[i], &st)) {
			set_err(err, "%s: %s", args[i], strerror(errno));
			goto out;
		} else if (S_ISDIR(st.st_mode)) {
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
	group = xcalloc((size_t)n + 1, sizeof(*group));
	if (td_set_group((const char *const *)paths, n, group, &ng, err))
		goto out;
	in->rec = xcalloc((size_t)ng + 1, sizeof(*in->rec));
	in->nrec = ng;
	for (int g = 0; g < ng; g++) {
		struct input_rec *rec = &in->rec[g];
		int arg = -1, whole = 1;

		rec->paths = xcalloc((size_t)n + 1, sizeof(*rec->paths));
		for (int i = 0; i < n; i++) {
			if (group[i] != g)
				continue;
			rec->paths[rec->n++] = xstrdup(paths[i]);
			if (arg < 0)
				arg = from[i];
			whole &= from[i] == arg;
		}
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
	r = 0;
out:
	for (int i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
	free(from);
	free(group);
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
	}
	free(in->rec);
	in->rec = NULL;
	in->nrec = 0;
	if (in->stdin_used)
		input_file_release(&in->in);
	in->stdin_used = 0;
}

int inputs_one(const struct inputs *in, char **err)
{
	struct strbuf sb = STRBUF_INIT;
	int r;

	if (in->nrec == 1)
		return 0;
	for (int i = 0; i < in->nrec && i < 4; i++)
		strbuf_addf(&sb, "%s%s", i ? "; " : "", in->rec[i].name);
	if (in->nrec > 4)
		strbuf_addf(&sb, "; %d more", in->nrec - 4);
	r = set_err(err, "%d different recordings, not one (%s): give the files of one",
		    in->nrec, sb.buf ? sb.buf : "");
	strbuf_release(&sb);
	return r;
}

/* ---- reading a recording ---- */

struct analysis *inputs_analysis(const struct inputs *in, int i, const struct analysis_opts *o,
				 char **err, int *bad_scope)
{
	const struct input_rec *rec = &in->rec[i];
	struct analysis_opts ao = *o;

	ao.scope = in->scope;
	if (rec->n == 1) {
		ao.name = rec->name;
		return analysis_run_scoped(rec->paths[0], &ao, err, bad_scope);
	}
	/* the name without its " (N files)": analysis_run_files adds it */
	char *base = xasprintf("%.*s", (int)(strrchr(rec->name, '(') - rec->name - 1), rec->name);
	struct analysis *a = analysis_run_files((const char *const *)rec->paths, rec->n, base, &ao,
						err, bad_scope);

	free(base);
	return a;
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

int inputs_set_window(const struct inputs *in, struct td_set *set, uint64_t *since,
		      uint64_t *until, char **err)
{
	const struct analysis_scope *s = &in->scope;
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
		if (wall_map_add_meta(&wall, td_private(td_set_file(set, i))))
			break;
	wall_map_finish(&wall);
	r = analysis_window_resolve(s, first, &wall, since, until, err);
	wall_map_free(&wall);
	if (!s->since.set)
		*since = 0;
	return r;
}

struct analysis *inputs_analysis_one(struct inputs *in, char *const *args, int nargs,
				     const struct analysis_opts *o, char **err, int *status)
{
	struct analysis *a;
	int bad = 0;

	*status = EXIT_ERROR;
	if (inputs_open(in, args, nargs, err))
		return NULL;
	if (inputs_one(in, err)) {
		*status = EXIT_USAGE;
		return NULL;
	}
	a = inputs_analysis(in, 0, o, err, &bad);
	if (!a && in->rec[0].n == 1) {	/* name the file, as for a set the set does */
		char *e = *err;

		*err = xasprintf("%s: %s", in->rec[0].name, e ? e : "cannot read");
		free(e);
	}
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

struct inputs_cgroup *inputs_cgroup_new(const struct inputs *in, struct td_set *set,
					char **err)
{
	static const char *const ev[3][2] = {
		{ "ftrace", "print" }, { "task", "task_newtask" }, { "cgroup", "cgroup_attach_task" },
	};
	struct td_file *tf = td_set_file(set, 0);
	const char *meta = td_private(tf);
	struct inputs_cgroup *c;

	*err = NULL;
	if (!in->scope.cgroup)
		return NULL;
	if (!meta || !td_meta_value(meta, "cgroup_tasks")) {
		analysis_cgroup_refused(in->scope.cgroup, err);
		return NULL;
	}
	c = xcalloc(1, sizeof(*c));
	c->tep = td_tep(tf);
	c->ps = parser_set_new(c->tep);
	c->map = cgmap_new();
	cgmap_scope_path(in->scope.cgroup, c->scope, (int)sizeof(c->scope));
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
