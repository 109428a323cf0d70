// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * record --config: KEY=VALUE lines into option arguments (see
 * record-config.h).
 */
#include "config.h"
#include "record-config.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' || e[-1] == '\r'))
		*--e = '\0';
	return s;
}

static void add(char ***args, int *n, char *a)
{
	*args = xreallocarray(*args, (size_t)*n + 1, sizeof(**args));
	(*args)[(*n)++] = a;
}

int record_config_args(const char *path, const struct option *opts,
		       const char *const *refused, char ***args, int *nargs, char **err)
{
	FILE *f = fopen(path, "re");
	char line[4096];
	int lineno = 0, r = 0;

	*args = NULL;
	*nargs = 0;
	if (!f)
		return set_err(err, "cannot read config %s: %s", path, strerror(errno));
	while (!r && fgets(line, sizeof(line), f)) {
		char *key, *val, *eq;
		const struct option *o = NULL;

		lineno++;
		if (!strchr(line, '\n') && !feof(f)) {
			r = set_err(err, "%s:%d: line longer than %zu bytes", path, lineno,
				    sizeof(line) - 1);
			break;
		}
		key = trim(line);
		if (!*key || *key == '#')
			continue;
		eq = strchr(key, '=');
		if (!eq) {
			r = set_err(err, "%s:%d: not KEY=VALUE: '%s'", path, lineno, key);
			break;
		}
		*eq = '\0';
		val = trim(eq + 1);
		key = trim(key);
		for (const struct option *p = opts; p->name && !o; p++)
			if (!strcmp(p->name, key))
				o = p;
		for (const char *const *x = refused; o && x && *x; x++)
			if (!strcmp(*x, key))
				o = NULL;
		if (!o) {
			r = set_err(err, "%s:%d: unknown key '%s' (the keys are mmscope record's long "
				    "options: see mmscope-record(1), CONFIGURATION)", path, lineno, key);
			break;
		}
		if (o->has_arg == no_argument) {
			if (!strcmp(val, "yes") || !strcmp(val, "true") || !strcmp(val, "1"))
				add(args, nargs, xasprintf("--%s", key));
			else if (strcmp(val, "no") && strcmp(val, "false") && strcmp(val, "0"))
				r = set_err(err, "%s:%d: %s=%s: yes or no", path, lineno, key, val);
			continue;
		}
		if (!*val) {
			r = set_err(err, "%s:%d: %s has no value", path, lineno, key);
			break;
		}
		add(args, nargs, xasprintf("--%s=%s", key, val));
	}
	if (!r && ferror(f))
		r = set_err(err, "cannot read config %s: %s", path, strerror(errno));
	fclose(f);
	if (r) {
		record_config_free(*args, *nargs);
		*args = NULL;
		*nargs = 0;
	}
	return r;
}

void record_config_free(char **args, int nargs)
{
	for (int i = 0; i < nargs; i++)
		free(args[i]);
	free(args);
}
