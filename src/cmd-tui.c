// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mmscope tui: explore a recording, or a host's history of several runs,
 * in ncurses (tui/). This file parses the command line and the test-mode
 * environment, opens the inputs (src/inputs.h: the history, the runs the
 * scope selects) and the first run's files (or starts a live session,
 * src/live.h) and reports errors after the terminal has been restored.
 */
#include "config.h"
#include "analysis.h"
#include "cmd.h"
#include "inputs.h"
#include "tracedat-set.h"
#include "tui-run.h"

#include "live.h"

#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char tui_usage[] =
"usage: mmscope tui [options] FILE|DIR...\n"
"       mmscope tui --live [-o FILE] [record options] [-- COMMAND [ARG...]]\n"
"\n"
"Explore a recording, or a host's history: lanes of kswapd, kcompactd,\n"
"reclaim and compaction over time per node, free pages against the\n"
"watermarks, stalls, and the raw events around any moment. Press ? inside\n"
"for the keys. The parts of one switch-output run (one run id) are one\n"
"recording; the runs of one host (restarts, recoveries, reboots) are one\n"
"time line, the gaps between them drawn as not recorded, { and } going\n"
"from run to run; the recordings of several hosts are refused.\n"
"\n"
"  --live                      watch the running kernel (root): 'mmscope\n"
"                              record' runs underneath with the options that\n"
"                              follow, and the views update every second\n"
"  -o, --output FILE           (live) keep the recording in FILE; without it\n"
"                              nothing is kept\n"
"  -f, --force                 (live) replace FILE if it exists\n"
"      --since T               only from T: seconds from the first event\n"
"                              (of the history: the runs the window touches),\n"
"                              @T a trace time stamp (as trace-cmd prints),\n"
"                              or a wall-clock time 2026-12-01T14:32:05Z\n"
"      --until T               only up to T (same forms)\n"
"      --run N                 only run N of the host's history (time order,\n"
"                              from 1; its times from its own first event)\n"
"      --pid PID               stalls and tasks of this task only (counters\n"
"                              and kswapd stay global)\n"
"      --comm NAME             the same for the tasks of this name\n"
"      --cgroup PATH           the same for a cgroup's tasks (refused when\n"
"                              the recording cannot tell them)\n"
"  -h, --help                  show this help\n"
"\n"
"Test mode: MMSCOPE_TUI_HEADLESS=1 (no terminal, LINES x COLUMNS),\n"
"MMSCOPE_TUI_KEYS='key script', MMSCOPE_TUI_DUMP=FILE (see mmscope-tui(1)).\n";

/* The options into o, the scope into *scope, the files or directories
 * into args (nargs). */
static int tui_parse_opts(int argc, char **argv, struct tui_opts *o,
			  const struct analysis_scope **scope_out, char *const **args, int *nargs)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		SCOPE_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	static struct analysis_scope scope;
	const struct cmd_entry *cmd = &cmd_tui_entry;
	const char *env;
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			return -1;
		default:
			if ((c = scope_or_bad_option(cmd, c, optarg, &scope, argc, argv)))
				return c;
			break;
		}
	}
	if ((c = check_scope(cmd, &scope)) ||
	    (c = inputs_args_check(cmd, argv + optind, argc - optind)))
		return c;
	o->path = argv[optind];
	*args = argv + optind;	/* the files: cmd_tui() expands them */
	*nargs = argc - optind;
	*scope_out = &scope;
	env = getenv("MMSCOPE_TUI_HEADLESS");
	o->headless = env && *env && strcmp(env, "0");
	o->keys = getenv("MMSCOPE_TUI_KEYS");
	o->dump = getenv("MMSCOPE_TUI_DUMP");
	return 0;
}

/*
 * mmscope tui --live [-o FILE] [-f] [record options] [-- COMMAND...]:
 * record's own parser checks the options (src/cmd-record.c) and gives -o
 * and -f, which are the session's too; the whole command line then goes
 * to the recorder as typed (its -o is the session's file, see live.c).
 */
static int tui_parse_live(int argc, char **argv, struct live_opts *lo)
{
	const struct cmd_entry *cmd = &cmd_tui_entry;
	int r;

	optind = 1;
	r = record_parse_live(cmd, argc - 1, argv + 1, &lo->out, &lo->force);
	if (r)
		return r;
	if (lo->out && !strcmp(lo->out, ""))
		return usage_error(cmd, "an empty output file name");
	lo->record_args = argv + 2;
	return 0;
}

static int cmd_tui_live(int argc, char **argv)
{
	struct live_opts lo = { 0 };
	struct tui_opts o = { 0 };
	char exe[PATH_MAX], first[200], *err = NULL;
	const char *env, *notes;
	ssize_t n;
	int r = tui_parse_live(argc, argv, &lo);

	if (r < 0)
		return show_help(&cmd_tui_entry);
	if (r > 0)
		return r;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return error("cannot find the mmscope binary (/proc/self/exe)");
	exe[n] = '\0';
	lo.exe = exe;
	lo.tmpdir = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/var/tmp";
	if (!getenv("MMSCOPE_TUI_HEADLESS"))
		fprintf(stderr, "mmscope: starting the recorder...\n");
	o.live = live_start(&lo, &err);
	if (!o.live) {
		r = error("tui --live: %s", err);
		free(err);
		return r;
	}
	o.path = "live";
	notes = live_notes(o.live);
	if (*notes) {	/* the recorder's warnings: first line on screen, all after */
		snprintf(first, sizeof(first), "%.*s", (int)strcspn(notes, "\n"), notes);
		o.message = first;
	}
	env = getenv("MMSCOPE_TUI_HEADLESS");
	o.headless = env && *env && strcmp(env, "0");
	o.keys = getenv("MMSCOPE_TUI_KEYS");
	o.dump = getenv("MMSCOPE_TUI_DUMP");
	r = EXIT_OK;
	if (tui_run(NULL, &o, &err) < 0) {
		r = error("tui --live: %s", err ? err : "cannot run the TUI");
		free(err);
		err = NULL;
	}
	if (*notes)
		fprintf(stderr, "%s\n", notes);
	fprintf(stderr, "mmscope: stopping the recorder%s...\n",
		lo.out ? " (it writes the file)" : "");
	if (live_stop(o.live, &err) < 0) {
		r = error("tui --live: the recorder: %s", err);
		free(err);
	} else if (lo.out) {
		fprintf(stderr, "mmscope: recording written to %s\n", lo.out);
	}
	live_free(o.live);
	return r;
}

/* The history the arguments name (several hosts are refused, exit 2):
 * the runs the scope selects, the first one's file opened here when it
 * is one, the others (and a run of several files) by the TUI. */
static int cmd_tui(int argc, char **argv)
{
	struct tui_opts o = { 0 };
	struct td_file *tf = NULL;
	struct inputs_sel *sel = NULL;
	const struct input_rec *rec;
	const struct analysis_scope *scope;
	char *const *args;
	struct inputs in;
	char *err = NULL;
	int r, bad = 0, nsel = 0, nargs;

	if (argc > 1 && !strcmp(argv[1], "--live"))
		return cmd_tui_live(argc, argv);
	r = tui_parse_opts(argc, argv, &o, &scope, &args, &nargs);
	if (r < 0)
		return show_help(&cmd_tui_entry);
	if (r > 0)
		return r;
	inputs_init(&in);
	in.scope = *scope;
	if (inputs_open(&in, args, nargs, &err) ||
	    (inputs_one(&in, &err) && (r = EXIT_USAGE)) ||
	    (inputs_select(&in, 0, &sel, &nsel, &err, &bad) && (r = bad ? EXIT_USAGE : EXIT_ERROR))) {
		r = r ? r : EXIT_ERROR;
		error("%s", err);
		goto out;
	}
	rec = &in.rec[in.hist.run[sel[0].run].in];
	o.in = &in;
	o.sel = sel;
	o.nsel = nsel;
	o.path = rec->name;
	o.bad_scope = &bad;
	/* several files are opened after the pass, which holds them all
	 * open while it reads (a week of parts is 10,080 files) */
	if (rec->n == 1) {
		o.path = rec->paths[0];	/* what the pass opens */
		tf = open_recording(o.path, rec->name);
		if (!tf) {
			r = EXIT_ERROR;
			goto out;
		}
	}
	if (tui_run(tf, &o, &err) < 0) {
		r = tf && nsel == 1 ? error("%s: %s", rec->name, err ? err : "cannot run the TUI") :
		     error("%s", err ? err : "cannot run the TUI");
		if (bad)
			r = EXIT_USAGE;
	}
out:
	free(err);
	free(sel);
	td_close(tf);
	inputs_release(&in);
	return r;
}

const struct cmd_entry cmd_tui_entry = {
	.name = "tui",
	.summary = "explore a recording in a terminal (ncurses)",
	.usage = tui_usage,
	.run = cmd_tui,
};
