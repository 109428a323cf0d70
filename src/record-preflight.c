// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * record's refusals before tracing starts (see record-preflight.h).
 */
#include "config.h"
#include "record-preflight.h"
#include "collector.h"
#include "families.h"
#include "probes.h"
#include "sampler.h"
#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int runnable(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode) && !access(path, X_OK);
}

int preflight_command(const char *argv0, char **err)
{
	const char *path = getenv("PATH");
	char *copy, *dir, *save = NULL;
	int found = 0;

	if (strchr(argv0, '/')) {
		if (runnable(argv0))
			return 0;
		return set_err(err, "cannot run '%s': %s", argv0,
			       access(argv0, F_OK) ? strerror(errno) : "not an executable file");
	}
	/* execvp's default search path when PATH is unset */
	copy = xstrdup(path ? path : "/bin:/usr/bin");
	for (dir = strtok_r(copy, ":", &save); dir && !found; dir = strtok_r(NULL, ":", &save)) {
		char *p = xasprintf("%s/%s", *dir ? dir : ".", argv0);

		found = runnable(p);
		free(p);
	}
	free(copy);
	return found ? 0 : set_err(err, "cannot run '%s': no such command in PATH", argv0);
}

int preflight_cgroup(const char *cgroup, char **err)
{
	if (sampler_cgroup_exists(cgroup))
		return 0;
	return set_err(err, "no memory cgroup '%s' (looked for its memory.stat as given, "
		       "under /sys/fs/cgroup/memory and under /sys/fs/cgroup)", cgroup);
}

int preflight_events(const char *tracefs, const char *groups, const char *const *extra,
		     int no_probes, char **err)
{
	char *evdir = xasprintf("%s/events", tracefs);
	struct strbuf bad = STRBUF_INIT;
	int kprobes = probes_control_file(tracefs) != NULL;

	for (int i = 0; extra && extra[i]; i++)
		if (!collector_event_present(evdir, extra[i]))
			strbuf_addf(&bad, "%s%s", bad.len ? ", " : "", extra[i]);
	if (groups) {
		char *copy = xstrdup(groups), *save = NULL, *g;

		for (g = strtok_r(copy, ",", &save); g; g = strtok_r(NULL, ",", &save)) {
			const struct event_family *f = family_find(g);
			int have = 0;

			if (!f)
				continue;	/* the option parser refused it already */
			for (const struct family_event *fe = f->events; fe->spec && !have; fe++)
				have = collector_event_present(evdir,
							       collector_event_choice(evdir, fe));
			if (f->probes && !no_probes)
				have |= kprobes;
			if (!have)
				strbuf_addf(&bad, "%sgroup %s (%s)", bad.len ? ", " : "", g,
					    f->probes ? "no kprobe events on this kernel" :
					    "none of its events on this kernel");
		}
		free(copy);
	}
	free(evdir);
	if (!bad.len)
		return 0;
	set_err(err, "this kernel lacks what was asked for: %s; nothing recorded", bad.buf);
	strbuf_release(&bad);
	return -1;
}
