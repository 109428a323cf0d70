/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A recording named on the command line, or "-" for standard input
 * (`ssh host cat run.dat | mmscope report -`). The reader seeks, so a
 * pipe is first copied to a private temporary file in $TMPDIR (mode
 * 0600) that has no name from the start (it is read through
 * /proc/self/fd), so nothing is left however the command ends.
 */
#ifndef MMSCOPE_INPUT_FILE_H
#define MMSCOPE_INPUT_FILE_H

struct input_file {
	const char *path;	/* what the reader opens */
	const char *name;	/* what messages and reports call it */
	char *tmp;		/* /proc/self/fd/N of the copy of stdin, or NULL */
	int fd;			/* the copy's descriptor */
};

/* 0, or -1 with *err set (a terminal on stdin, a full disk). */
int input_file_open(struct input_file *in, const char *arg, char **err);
void input_file_release(struct input_file *in);

/* Directories and several files: inputs.h. */

#endif
