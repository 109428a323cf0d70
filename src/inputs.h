/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a command reads: the recordings its arguments name, and the scope
 * (--since/--until, --pid/--comm/--cgroup) it reads them with. Every front
 * end that reads recordings (report, compare, dump, tui, export, plot)
 * takes its arguments here, so that they are read the same way:
 *
 * - FILE: a recording; "-" (alone): standard input (input-file.h); DIR:
 *   its *.dat files.
 * - The files are grouped into recordings by their identity: the run_id=
 *   `mmscope record` writes into every file of one run (switch-output
 *   parts; a flight-recorder file is one incident, a recording of its
 *   own); files without one by the older rule
 *   (switch_output=N and BASE-N.dat); any other file is a recording of
 *   its own (tracedat-set.h, td_set_group). Unrelated recordings are
 *   never merged: a front end that shows one recording shows them one
 *   after another, or refuses them (inputs_one).
 * - The files of one recording are read in time order as one td_set
 *   (inputs_set) or one analysis (inputs_analysis).
 *
 * The scope is parsed and checked here (parse_scope, check_scope: the
 * wording of "--since is after --until" is analysis_scope_check's), and
 * resolved to trace time once per recording by analysis_window_resolve()
 * (analysis.h), for dump's cursor as for the models.
 *
 * Nothing here prints: -1/NULL with *err, as the layers below.
 */
#ifndef MMSCOPE_INPUTS_H
#define MMSCOPE_INPUTS_H

#include <stdint.h>

#include "analysis.h"
#include "input-file.h"

struct cmd_entry;
struct td_set;

struct input_rec {
	char **paths;		/* its files, in argument order; NULL-terminated */
	int n;
	char *name;		/* "FILE", or "FILE (N files)" */
};

struct inputs {
	struct analysis_scope scope;
	struct input_rec *rec;	/* the recordings, in argument order */
	int nrec;
	struct input_file in;	/* "-": the copy of standard input */
	int stdin_used;
	/* in: a file named twice is a recording named twice (export skips
	 * the second as already in); else inputs_open refuses it */
	int twice_ok;
};

/*
 * The scope options: SCOPE_LONGOPTS, SCOPE_USAGE, parse_scope() and
 * check_scope() (declared in cmd.h for every front end, defined in
 * inputs.c): a new shared option is added there and nowhere else.
 */
/* The positional arguments: EXIT_USAGE with the error printed when there
 * is none, or "-" is not alone; else 0. */
int inputs_args_check(const struct cmd_entry *cmd, char *const *args, int nargs);

void inputs_init(struct inputs *in);
/*
 * Expands args (files, directories, "-") and groups the files into
 * recordings. 0, or -1 with *err (no such file, a directory with no .dat
 * file, parts of one recording missing or given twice, standard input a
 * terminal).
 */
int inputs_open(struct inputs *in, char *const *args, int nargs, char **err);
void inputs_release(struct inputs *in);

/* 0 when the arguments are one recording; else -1 with *err naming them
 * ("N recordings, not one: A; B; ..."). */
int inputs_one(const struct inputs *in, char **err);

/* Recording i read through the models with o (its scope replaced by the
 * inputs' scope; o->name by the recording's name). *bad_scope as in
 * analysis_run_scoped. */
struct analysis *inputs_analysis(const struct inputs *in, int i, const struct analysis_opts *o,
				 char **err, int *bad_scope);
/* Recording i as a set of files for readers of events (dump). */
struct td_set *inputs_set(const struct inputs *in, int i, char **err);
/* The window of in's scope over set, in trace time (see
 * analysis_window_resolve): 0, or -1 with *err. */
int inputs_set_window(const struct inputs *in, struct td_set *set, uint64_t *since,
		      uint64_t *until, char **err);

/*
 * For a front end that shows exactly one recording (plot, tui): args and
 * the scope into one analysis, or NULL with *err (one line) and *status
 * the exit code (EXIT_USAGE for a bad scope or several recordings,
 * EXIT_ERROR otherwise). in is initialised here; release it after the
 * analysis is freed.
 */
struct analysis *inputs_analysis_one(struct inputs *in, char *const *args, int nargs,
				     const struct analysis_opts *o, char **err, int *status);

/*
 * --cgroup for the readers of events (dump): the tasks' cgroups followed
 * through set's events as the analysis follows them (src/cgmap.h).
 * inputs_cgroup_new: NULL with *err NULL when in's scope has no --cgroup,
 * NULL with *err when the recording has no cgroup data. Feed it every
 * event from the recording's start, in time order; inputs_cgroup_keep
 * is 1 when the event's task (its common pid) is in the cgroup or below
 * it at that moment.
 */
struct inputs_cgroup;
struct inputs_cgroup *inputs_cgroup_new(const struct inputs *in, struct td_set *set,
					char **err);
int inputs_cgroup_keep(struct inputs_cgroup *c, const struct td_event *ev);
void inputs_cgroup_free(struct inputs_cgroup *c);

/* A new run id for `mmscope record`: 32 lowercase hex digits from
 * getrandom(2). 0, or -1 (no randomness: then no run id is written). */
int inputs_new_run_id(char id[33]);

#endif
