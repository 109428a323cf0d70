/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Creating an output file safely: written as a hidden temporary file
 * (mode 0600, O_EXCL) in the same directory, renamed over the final name
 * only when complete. A symlink or directory at the final path is refused,
 * and an existing file is replaced only when asked to.
 */
#ifndef MMSCOPE_OUTPUT_FILE_H
#define MMSCOPE_OUTPUT_FILE_H

#include <stddef.h>

struct output_file {
	int fd;
	char *path;	/* final name */
	char *tmp;	/* temporary name while writing */
};

int output_file_open(struct output_file *o, const char *path, int force, char **err);
/* fsync, rename into place, close. */
int output_file_commit(struct output_file *o, char **err);
/* Remove the temporary file and close. */
void output_file_abort(struct output_file *o);
/* The whole of buf into a new file at path, as above: 0, or -1 and *err
 * (nothing is left behind). */
int output_file_write(const char *path, int force, const void *buf, size_t len, char **err);

#endif
