// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --switch-output: the option and the retention of the files written (see
 * switch-output.h).
 */
#include "config.h"
#include "switch-output.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int switch_output_parse(struct switch_output *so, const char *arg, char **err)
{
	size_t n = strlen(arg);
	char last = n ? arg[n - 1] : '\0';
	uint64_t v;

	if (last == 's' || last == 'm' || last == 'h') {
		if (parse_duration_ns(arg, &v) || v < 1000000000ull)
			return set_err(err, "bad --switch-output '%s' (a time of at least 1s: 30s, 10m, 1h)",
				       arg);
		so->time_ns = v;
		so->size = 0;
		return 0;
	}
	if ((last == 'K' || last == 'M' || last == 'G' || last == 'T' || last == 'B') &&
	    !parse_size(arg, &v)) {
		if (v < 65536)
			return set_err(err, "bad --switch-output '%s' (a size of at least 64K)", arg);
		so->size = v;
		so->time_ns = 0;
		return 0;
	}
	return set_err(err, "bad --switch-output '%s' (a size: 512K, 2M, 1G, or a time: 30s, 10m, 1h)",
		       arg);
}

int switch_output_written(struct switch_output *so, const char *path, char **err)
{
	so->files = xreallocarray(so->files, (size_t)so->nfiles + 1, sizeof(*so->files));
	so->files[so->nfiles++] = xstrdup(path);
	while (so->max_files && (unsigned)so->nfiles > so->max_files) {
		if (unlink(so->files[0]) && errno != ENOENT)
			return set_err(err, "cannot delete the oldest file %s: %s", so->files[0],
				       strerror(errno));
		free(so->files[0]);
		memmove(so->files, so->files + 1, (size_t)(so->nfiles - 1) * sizeof(*so->files));
		so->nfiles--;
		so->removed++;
	}
	return 0;
}

void switch_output_release(struct switch_output *so)
{
	for (int i = 0; i < so->nfiles; i++)
		free(so->files[i]);
	free(so->files);
	so->files = NULL;
	so->nfiles = 0;
}

char *output_part_name(const char *out, int n)
{
	const char *dot = strrchr(out, '.'), *slash = strrchr(out, '/');

	if (dot && (!slash || dot > slash))
		return xasprintf("%.*s-%d%s", (int)(dot - out), out, n, dot);
	return xasprintf("%s-%d", out, n);
}

int output_part_highest(const char *out, char **err)
{
	const char *slash = strrchr(out, '/'), *base = slash ? slash + 1 : out;
	const char *dot = strrchr(base, '.');
	size_t stem = dot ? (size_t)(dot - base) : strlen(base);
	const char *ext = dot ? dot : "";
	char *dir = slash ? xasprintf("%.*s", slash == out ? 1 : (int)(slash - out), out) :
		    xstrdup(".");
	DIR *d = opendir(dir);
	struct dirent *e;
	int high = 0;

	if (!d) {
		set_err(err, "%s: cannot list the directory (%s) to number the files of %s", dir,
			strerror(errno), out);
		free(dir);
		return -1;
	}
	while ((e = readdir(d))) {
		const char *p = e->d_name, *q;
		long n;
		char *end;

		/* STEM-N.EXT or STEM-N.EXT.spool, N a positive decimal */
		if (strncmp(p, base, stem) || p[stem] != '-' || !(p[stem + 1] >= '1' && p[stem + 1] <= '9'))
			continue;
		errno = 0;
		n = strtol(p + stem + 1, &end, 10);
		if (errno || n > 1000000000)
			continue;
		q = end;
		if (strncmp(q, ext, strlen(ext)))
			continue;
		q += strlen(ext);
		if (*q && strcmp(q, ".spool"))
			continue;
		if (n > high)
			high = (int)n;
	}
	closedir(d);
	free(dir);
	return high;
}
