/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a command reads: the recordings its arguments name, the host
 * histories they make, and the scope (--since/--until, --pid/--comm/
 * --cgroup, --run) it reads them with. Every front end that reads
 * recordings (report, compare, dump, tui, export, plot, convert) takes its
 * arguments here, so that they are read the same way:
 *
 * - FILE: a recording; "-" (alone): standard input (input-file.h); DIR:
 *   its *.dat files.
 * - The files are grouped into recordings by their identity: the run_id=
 *   `mmscope record` writes into every file of one run (switch-output
 *   parts; a flight-recorder file is one incident, a recording of its
 *   own); files without one by the older rule
 *   (switch_output=N and BASE-N.dat); any other file is a recording of
 *   its own (tracedat-set.h, td_set_group). The files of one recording
 *   are in time order (their start_realtime_ns).
 * - The recordings are grouped into host histories (history.h): one
 *   host's runs in time order with the gaps between them, incidents
 *   inside a continuous run known as such. A front end walks a history's
 *   runs in time order (in->hist.run[k], k from hist.host_first[h]);
 *   unrelated hosts are never merged: a front end that shows one history
 *   refuses several (inputs_one), listing every run with its files and
 *   time range, and a directory holding several hosts is refused by every
 *   front end but export (inputs_check_dirs).
 * - The scope selects runs (inputs_select: --run N, and the runs a
 *   window touches) and gives each its window in its own trace time;
 *   relative times count from the history's first event.
 *
 * Every analysis is made here (inputs_analysis, inputs_run_analysis,
 * inputs_analysis_one): front ends never call analysis_run_* themselves.
 * Readers of events (dump) get one stream of a history's runs in time
 * order, scoped, with the gaps between runs (inputs_events).
 *
 * Nothing here prints: -1/NULL with *err, as the layers below.
 */
#ifndef MMSCOPE_INPUTS_H
#define MMSCOPE_INPUTS_H

#include <stdint.h>

#include "analysis.h"
#include "history.h"
#include "input-file.h"

struct cmd_entry;
struct td_set;

struct input_rec {
	char **paths;		/* its files, in time order; NULL-terminated */
	int n;
	char *name;		/* "FILE", or "FILE (N files)" */
	int arg;		/* the argument that named its first file */
	int *part;		/* each file's part number (switch_output=N; 0 none) */
	/* mmscope metadata of its first and last file (NULL: none) */
	char *first_meta, *last_meta;
	/* its first and last event, trace ns (has_span 0: none, or the
	 * file did not read: the error comes when it is read) */
	int has_span;
	uint64_t first_ts, last_ts;
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
	/* the recordings' host histories (history.h): hist.run[k].in is
	 * the index of its recording in rec[] */
	struct history hist;
	struct history_in *hin;
	char **args;		/* the arguments, for messages */
	int nargs;
	unsigned char *arg_dir;	/* args[i] is a directory */
};

/* A run the scope selected (inputs_select): its window in its own trace
 * time, or whole. */
struct inputs_sel {
	int run;		/* index in in->hist.run */
	int whole;		/* the window covers it: read it all */
	struct analysis_scope scope;	/* what its analysis reads it with */
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

/* 0 when the arguments are one host's history; else -1 with *err: a
 * line saying so, then one line per run of every host (its files and
 * time range). */
int inputs_one(const struct inputs *in, char **err);
/* 0 when every directory argument holds one host's history; else -1
 * with *err as inputs_one's for the first that does not. */
int inputs_check_dirs(const struct inputs *in, char **err);

/*
 * The runs of history host that the scope selects, in time order, into
 * *sel (*n of them; free it): every run of the time line (incidents
 * inside another run are not: their events are that run's), or run N of
 * --run (any run, an incident too), each that the window (--since,
 * --until) touches, with its window in its own trace time. 0, or -1
 * with *err (--run past the last run; a window that holds no run: where
 * it fell). *bad_scope 1 when the scope is at fault (exit 2).
 */
int inputs_select(const struct inputs *in, int host, struct inputs_sel **sel, int *n,
		  char **err, int *bad_scope);
/* Files [from, to) of a selected run's recording (in time order) read
 * as one recording with its scope: the parts of a run an export has not
 * taken yet. All of them: inputs_run_analysis. */
struct analysis *inputs_files_analysis(const struct inputs *in, const struct inputs_sel *sel,
				       int from, int to, const struct analysis_opts *o, char **err,
				       int *bad_scope);
/* The history time of host's first event: the zero from which relative
 * times (--since 5, a front end's "5 s") count over its runs. */
int64_t inputs_history_zero(const struct inputs *in, int host);
/* Recording i read with o's own scope (compare's per-job scope), not
 * the inputs'. */
struct analysis *inputs_analysis_as(const struct inputs *in, int i, const struct analysis_opts *o,
				    char **err, int *bad_scope);
/* The analysis of a selected run (its scope, o's options). */
struct analysis *inputs_run_analysis(const struct inputs *in, const struct inputs_sel *sel,
				     const struct analysis_opts *o, char **err, int *bad_scope);

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
 * The events of a selected run (inputs_select) for readers of events
 * (dump): its files as one set in time order, only those in its window
 * and, with --cgroup, of the cgroup's tasks (followed from the run's
 * start, whatever the window: the analysis follows them so). keep_names:
 * each part's tasks named as that part saw them (td_set_keep_names).
 * NULL with *err (*bad_scope 1: the scope's fault, a --cgroup the run
 * cannot answer, a wall-clock time it cannot map).
 */
struct inputs_events;
struct inputs_events *inputs_events_open(const struct inputs *in, const struct inputs_sel *sel,
					 int keep_names, char **err, int *bad_scope);
/* 1 with *ev (as td_set_cursor_next's), 0 at the window's or run's end,
 * -1 with *err. */
int inputs_events_next(struct inputs_events *s, struct td_event *ev, char **err);
/* The run's set, and its cursor (for td_set_cursor_file, _formats,
 * _names of the last event). */
struct td_set *inputs_events_set(const struct inputs_events *s);
struct td_set_cursor *inputs_events_cursor(const struct inputs_events *s);
void inputs_events_close(struct inputs_events *s);

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
 * --cgroup for the readers of events (inputs_events): the tasks' cgroups
 * followed through set's events as the analysis follows them (src/cgmap.h).
 * inputs_cgroup_new: NULL with *err NULL when the scope has no --cgroup,
 * NULL with *err when the recording has no cgroup data. Feed it every
 * event from the recording's start, in time order; inputs_cgroup_keep
 * is 1 when the event's task (its common pid) is in the cgroup or below
 * it at that moment.
 */
struct inputs_cgroup;
struct inputs_cgroup *inputs_cgroup_new(const struct analysis_scope *scope, struct td_set *set,
					char **err);
int inputs_cgroup_keep(struct inputs_cgroup *c, const struct td_event *ev);
void inputs_cgroup_free(struct inputs_cgroup *c);

/* A new run id for `mmscope record`: 32 lowercase hex digits from
 * getrandom(2). 0, or -1 (no randomness: then no run id is written). */
int inputs_new_run_id(char id[33]);

#endif
