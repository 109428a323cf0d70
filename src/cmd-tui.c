// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mmscope tui: explore a recording in ncurses (tui/). This file parses
 * the command line and the test-mode environment, opens the recording
 * and reports errors after the terminal has been restored.
 */
#include "config.h"
#include "cmd.h"
#include "tui-run.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static const char tui_usage[] =
"usage: mmscope tui [options] FILE\n"
"\n"
"Explore a recording: lanes of kswapd, kcompactd, reclaim and compaction\n"
"over time per node, free pages against the watermarks, stalls, and the\n"
"raw events around any moment. Press ? inside for the keys.\n"
"\n"
"  -h, --help                  show this help\n"
"\n"
"Test mode: MMSCOPE_TUI_HEADLESS=1 (no terminal, LINES x COLUMNS),\n"
"MMSCOPE_TUI_KEYS='key script', MMSCOPE_TUI_DUMP=FILE (see mmscope-tui(1)).\n";

static int tui_parse_opts(int argc, char **argv, struct tui_opts *o)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const struct cmd_entry *cmd = &cmd_tui_entry;
	const char *env;
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			return -1;
		default:
			return bad_option(cmd, argc, argv);
		}
	}
	if (optind != argc - 1)
		return usage_error(cmd, optind == argc ? "no recording given" :
				   "more than one recording given");
	o->path = argv[optind];
	env = getenv("MMSCOPE_TUI_HEADLESS");
	o->headless = env && *env && strcmp(env, "0");
	o->keys = getenv("MMSCOPE_TUI_KEYS");
	o->dump = getenv("MMSCOPE_TUI_DUMP");
	return 0;
}

static int cmd_tui(int argc, char **argv)
{
	struct tui_opts o = { 0 };
	struct td_file *tf;
	char *err = NULL;
	int r = tui_parse_opts(argc, argv, &o);

	if (r < 0)
		return show_help(&cmd_tui_entry);
	if (r > 0)
		return r;
	tf = open_recording(o.path);
	if (!tf)
		return EXIT_ERROR;
	if (tui_run(tf, &o, &err) < 0) {
		r = error("%s: %s", o.path, err ? err : "cannot run the TUI");
		free(err);
	}
	td_close(tf);
	return r;
}

const struct cmd_entry cmd_tui_entry = {
	.name = "tui",
	.summary = "explore a recording in a terminal (ncurses)",
	.usage = tui_usage,
	.run = cmd_tui,
};
