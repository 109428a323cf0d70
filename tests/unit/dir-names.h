/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The entries of a directory (tests/data/kernels/, an events/ tree), for
 * the unit tests that walk the real kernels' data.
 */
#ifndef MMSCOPE_TESTS_DIR_NAMES_H
#define MMSCOPE_TESTS_DIR_NAMES_H

#include <dirent.h>
#include <stdlib.h>

#include "util.h"

/* The names in path except dot files, into *out; their count (0 if none
 * or unreadable). Free with dir_names_free(). */
static inline int dir_names(const char *path, char ***out)
{
	DIR *d = opendir(path);
	struct dirent *e;
	int n = 0;

	*out = NULL;
	if (!d)
		return 0;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		*out = xreallocarray(*out, (size_t)n + 1, sizeof(char *));
		(*out)[n++] = xstrdup(e->d_name);
	}
	closedir(d);
	return n;
}

static inline void dir_names_free(char **v, int n)
{
	for (int i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

#endif
