/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The entry point of the TUI for src/cmd-tui.c: runs the interactive
 * loop over a host's history (one recording, or several runs of one host
 * on one time line), or over a live session (src/live.h) that it polls
 * every second, until 'q'. Returns 0, or -1 with *err set
 * (the terminal is already restored when it returns).
 */
#ifndef MMSCOPE_TUI_RUN_H
#define MMSCOPE_TUI_RUN_H

struct td_file;
struct live;
struct inputs;
struct inputs_sel;

struct tui_opts {
	const char *path;
	struct live *live;	/* live mode (tf is NULL): a running session */
	int headless;		/* newterm() on /dev/null, keys from .keys */
	const char *keys;	/* key script, or NULL for the keyboard */
	const char *dump;	/* write the last screen here, or NULL */
	const char *message;	/* for the status bar at first, or NULL */
	int *bad_scope;		/* set when the scope made loading fail */
	/*
	 * A host's history (not live): the inputs (src/inputs.h) and the
	 * runs their scope selected (inputs_select), in time order, each
	 * read by its own pass. tf: the first run's file, open already (the
	 * caller's), when it is one; a run of several files (switch-output
	 * parts) is opened as one set after the passes. One run: as one
	 * recording always was.
	 */
	const struct inputs *in;
	const struct inputs_sel *sel;
	int nsel;
};

int tui_run(struct td_file *tf, const struct tui_opts *o, char **err);

#endif
