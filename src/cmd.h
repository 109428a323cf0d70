/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Subcommands. Adding one:
 *   1. write src/cmd-NAME.c defining "const struct cmd_entry cmd_NAME_entry"
 *      (its run() parses its own options and returns an exit status);
 *   2. declare it below and add it to commands[] in src/main.c;
 *   3. add the file to src/local.mk;
 *   4. write man/mmscope-NAME.1 and add it to man/local.mk;
 *   5. add tests under tests/ (tests/cli/ for output, tests/unit/ for APIs).
 * A command that reads recordings takes its arguments and the scope
 * through src/inputs.h (SCOPE_LONGOPTS, parse_scope, check_scope,
 * inputs_args_check, inputs_open; inputs_analysis_one for one recording).
 *
 * Only front ends (main.c, cmd-*.c, tui/) print messages and choose exit
 * codes; everything below them returns errors as strings.
 */
#ifndef MMSCOPE_CMD_H
#define MMSCOPE_CMD_H

#include <stdint.h>
#include <stdio.h>

#include "codec.h"
#include "tracedat-read.h"

enum exit_status {
	EXIT_OK = 0,
	EXIT_ERROR = 1,	/* runtime error: bad file, I/O, kernel refused */
	EXIT_USAGE = 2,	/* bad command line */
};

struct cmd_entry {
	const char *name;
	const char *summary;	/* one line for "mmscope --help" */
	const char *usage;	/* full usage text, printed by --help */
	int (*run)(int argc, char **argv);
};

extern const struct cmd_entry cmd_dump_entry;
extern const struct cmd_entry cmd_convert_entry;
extern const struct cmd_entry cmd_report_entry;
extern const struct cmd_entry cmd_record_entry;
extern const struct cmd_entry cmd_recover_entry;
extern const struct cmd_entry cmd_sample_entry;
extern const struct cmd_entry cmd_doctor_entry;
extern const struct cmd_entry cmd_compare_entry;
extern const struct cmd_entry cmd_tui_entry;
extern const struct cmd_entry cmd_export_entry;
extern const struct cmd_entry cmd_plot_entry;

/* "error: ..." on stderr; returns EXIT_ERROR. */
int error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "error: ..." then the command's usage on stderr; returns EXIT_USAGE. */
int usage_error(const struct cmd_entry *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The command's usage on stdout; returns EXIT_OK. */
int show_help(const struct cmd_entry *cmd);
/* Reports a failing getopt return ('?' or ':'); returns EXIT_USAGE. */
int bad_option(const struct cmd_entry *cmd, int argc, char **argv);

/* Flush stdout and report a write error (e.g. a full disk); returns status. */
int finish_stdout(int status);

/*
 * --compression NAME for the commands that write recordings: sets *codec,
 * or prints the usage error and returns EXIT_USAGE.
 */
int parse_compression(const struct cmd_entry *cmd, const char *name,
		      enum codec_id *codec);

/* --interval MS and --duration TIME of the commands that sample or record:
 * set the value, or print the usage error and return EXIT_USAGE. */
int parse_interval(const struct cmd_entry *cmd, const char *arg, unsigned *ms);
int parse_duration(const struct cmd_entry *cmd, const char *arg, uint64_t *ns);
/* --cgroups ROOT (max 0: not empty) and --cgroups-max N (max 1: 1 to
 * SAMPLER_CGROUPS_MAX_MAX), the sampler's options of record and sample,
 * parsed here for both: 0, or EXIT_USAGE with the usage error printed.
 * check_cgroups_opts, after the options: --cgroups-max needs --cgroups. */
int parse_cgroups_opt(const struct cmd_entry *cmd, int max, const char *arg,
		      const char **root, int *n);
int check_cgroups_opts(const struct cmd_entry *cmd, const char *root, int n);
/* --jobs N (1 to 1024), the same for compare and export: 0, or EXIT_USAGE
 * with the usage error printed. */
int parse_jobs(const struct cmd_entry *cmd, const char *arg, int *jobs);

/*
 * What to look at, shared by every command that reads recordings
 * (src/inputs.c defines parse_scope and check_scope; analysis.h's
 * struct analysis_scope): put SCOPE_LONGOPTS in the getopt table,
 * SCOPE_USAGE in the usage, and hand every option to parse_scope()
 * (0: taken, EXIT_USAGE: bad value printed, -1: not a scope option);
 * check_scope() after the loop refuses since after until.
 */
enum {
	SCOPE_OPT_SINCE = 0x1000, SCOPE_OPT_UNTIL, SCOPE_OPT_PID, SCOPE_OPT_COMM,
	SCOPE_OPT_CGROUP, SCOPE_OPT_RUN,
};
#define SCOPE_LONGOPTS \
	{ "since", required_argument, NULL, SCOPE_OPT_SINCE }, \
	{ "until", required_argument, NULL, SCOPE_OPT_UNTIL }, \
	{ "pid", required_argument, NULL, SCOPE_OPT_PID }, \
	{ "comm", required_argument, NULL, SCOPE_OPT_COMM }, \
	{ "cgroup", required_argument, NULL, SCOPE_OPT_CGROUP }, \
	{ "run", required_argument, NULL, SCOPE_OPT_RUN }
#define SCOPE_USAGE \
"      --since T        only from T: seconds from the first event, as times\n" \
"                       print, @T a trace time stamp (as trace-cmd prints),\n" \
"                       or a wall-clock time 2026-12-01T14:32:05Z (no zone:\n" \
"                       local time)\n" \
"      --until T        only up to T (same forms)\n" \
"      --pid PID        stalls, tasks, compaction, OOM victims, swap-outs of\n" \
"                       this task only (counters and kswapd stay global)\n" \
"      --comm NAME      the same for the tasks of this name\n" \
"      --cgroup PATH    the same for a cgroup's tasks (refused when the\n" \
"                       recording cannot tell them)\n" \
"      --run N          only run N of a host's history (runs in time order,\n" \
"                       from 1; the history's list gives them)\n"
struct analysis_scope;
struct analysis_time;
int parse_scope(const struct cmd_entry *cmd, int opt, const char *arg,
		struct analysis_scope *s);
int check_scope(const struct cmd_entry *cmd, const struct analysis_scope *s);
/* The default: case of a front end's getopt loop: a scope option goes
 * into s (0, or the exit status of its usage error), any other option is
 * bad_option()'s (its exit status). */
int scope_or_bad_option(const struct cmd_entry *cmd, int opt, const char *arg,
			struct analysis_scope *s, int argc, char **argv);

/*
 * `mmscope tui --live` checks its command line with record's own parser
 * (cmd-record.c; argv[0] is skipped): errors name cmd, and the options a
 * live session sets itself or cannot follow are refused. Gives -o's FILE
 * (NULL without) and -f. Returns 0, -1 for --help, or EXIT_USAGE.
 */
int record_parse_live(const struct cmd_entry *cmd, int argc, char **argv, const char **out,
		      int *force);

/* Opens a recording, or prints "error: FILE: reason" and returns NULL. */
struct td_file *open_recording(const char *path, const char *name);

#endif
