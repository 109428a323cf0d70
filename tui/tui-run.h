/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The entry point of the TUI for src/cmd-tui.c: runs the interactive
 * loop over an open recording, or over a live session (src/live.h) that
 * it polls every second, until 'q'. Returns 0, or -1 with *err set
 * (the terminal is already restored when it returns).
 */
#ifndef MMSCOPE_TUI_RUN_H
#define MMSCOPE_TUI_RUN_H

struct td_file;
struct live;
struct td_set;

struct tui_opts {
	const char *path;
	struct live *live;	/* live mode (tf is NULL): a running session */
	int headless;		/* newterm() on /dev/null, keys from .keys */
	const char *keys;	/* key script, or NULL for the keyboard */
	const char *dump;	/* write the last screen here, or NULL */
	const char *message;	/* for the status bar at first, or NULL */
	const struct analysis_scope *scope;	/* --since/--until..., or NULL */
	int *bad_scope;		/* set when the scope made loading fail */
	/* several files of one recording (record's switch-output), read
	 * as one by the models, and by the events view through set */
	const char *const *paths;
	int npaths;
	struct td_set *set;
};

int tui_run(struct td_file *tf, const struct tui_opts *o, char **err);

#endif
