// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The scope options every command that reads recordings shares (cmd.h:
 * SCOPE_LONGOPTS, parse_scope, check_scope) and the check of its
 * positional arguments: the front end's half of the input layer, which
 * prints usage errors (inputs.c, below it, prints nothing).
 */
#include "config.h"
#include "cmd.h"
#include "inputs.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

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
	case SCOPE_OPT_RUN:
		if (parse_ull(arg, &v) || !v || v > 1000000)
			return usage_error(cmd, "bad --run '%s' (a run's number in the history, "
					   "from 1)", arg);
		s->run = (int)v;
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

