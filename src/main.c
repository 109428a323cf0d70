// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mmscope: record and reconstruct Linux memory-management activity.
 * This file holds the command table, the global options, the message
 * helpers every front end uses, and the exit-status policy.
 */
#include "config.h"
#include "cmd.h"
#include "completion.h"

#include <stdlib.h>
#include <string.h>

static const struct cmd_entry *const commands[] = {
	&cmd_dump_entry,
	&cmd_convert_entry,
	&cmd_report_entry,
	&cmd_record_entry,
	&cmd_recover_entry,
	&cmd_sample_entry,
	&cmd_doctor_entry,
	&cmd_compare_entry,
	&cmd_tui_entry,
	&cmd_export_entry,
	&cmd_plot_entry,
};

static void print_main_help(FILE *f)
{
	fprintf(f, "usage: mmscope [--help] [--version] COMMAND [ARGS]\n\n"
		   "Record and reconstruct Linux memory-management activity\n"
		   "(swap clusters, compaction, kswapd/kcompactd, zswap).\n\n"
		   "commands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "   %-10s %s\n", commands[i]->name, commands[i]->summary);
	fprintf(f, "\n'mmscope COMMAND --help' shows a command's options; "
		   "'man mmscope-COMMAND' tells more.\n");
}

static const struct cmd_entry *find_command(const char *name)
{
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(commands[i]->name, name))
			return commands[i];
	return NULL;
}

int main(int argc, char **argv)
{
	const struct cmd_entry *cmd;

	if (argc < 2) {
		print_main_help(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		print_main_help(stdout);
		return finish_stdout(EXIT_OK);
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("mmscope %s\n", PACKAGE_VERSION);
		return finish_stdout(EXIT_OK);
	}
	if (!strcmp(argv[1], "help")) {
		if (argc > 2 && (cmd = find_command(argv[2])))
			return show_help(cmd);
		print_main_help(stdout);
		return finish_stdout(argc > 2 ? EXIT_USAGE : EXIT_OK);
	}
	/* hidden: the build writes the bash completion with it */
	if (!strcmp(argv[1], "completion"))
		return finish_stdout(completion_main(argc - 1, argv + 1, commands,
						     sizeof(commands) / sizeof(commands[0])));
	if (argv[1][0] == '-')
		return usage_error(NULL, "unknown option '%s'", argv[1]);
	cmd = find_command(argv[1]);
	if (!cmd)
		return usage_error(NULL, "'%s' is not an mmscope command; see 'mmscope --help'",
				   argv[1]);
	return finish_stdout(cmd->run(argc - 1, argv + 1));
}
