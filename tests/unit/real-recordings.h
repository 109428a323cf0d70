/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The real recordings in the tree (samples/, tests/data/report/,
 * tests/data/swap/), for the unit tests that run over all of them.
 */
#ifndef MMSCOPE_TESTS_REAL_RECORDINGS_H
#define MMSCOPE_TESTS_REAL_RECORDINGS_H

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* The paths of their *.dat files under $top_srcdir (or .), directory by
 * directory in that order, by name within each, into *out; their count.
 * Free with real_recordings_free(). */
static inline int real_recordings(char ***out)
{
	static const char *dirs[] = { "samples", "tests/data/report", "tests/data/swap" };
	const char *top = getenv("top_srcdir");
	int n = 0;

	*out = NULL;
	for (size_t d = 0; d < sizeof(dirs) / sizeof(dirs[0]); d++) {
		struct dirent **names;
		char *dir = xasprintf("%s/%s", top ? top : ".", dirs[d]);
		int k = scandir(dir, &names, NULL, alphasort);

		for (int i = 0; i < k; i++) {
			size_t len = strlen(names[i]->d_name);

			if (len > 4 && !strcmp(names[i]->d_name + len - 4, ".dat")) {
				*out = xreallocarray(*out, (size_t)n + 1, sizeof(char *));
				(*out)[n++] = xasprintf("%s/%s", dir, names[i]->d_name);
			}
			free(names[i]);
		}
		if (k >= 0)
			free(names);
		free(dir);
	}
	return n;
}

/* The file name of a path from real_recordings(). */
static inline const char *real_recording_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

static inline void real_recordings_free(char **v, int n)
{
	for (int i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

#endif
