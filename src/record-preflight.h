/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What `mmscope record` refuses before tracing starts, so that a run that
 * cannot give what was asked for leaves nothing behind: a COMMAND that
 * cannot be executed, a --cgroup that does not exist, and events (-e) or
 * groups (-g) this kernel lacks. The default group set stays lenient:
 * only what the user named is refused. Each check returns 0, or -1 with
 * a one-line reason in *err.
 */
#ifndef MMSCOPE_RECORD_PREFLIGHT_H
#define MMSCOPE_RECORD_PREFLIGHT_H

/* argv[0] as execvp() would find it: a path, or a name on $PATH. */
int preflight_command(const char *argv0, char **err);
/* The memory cgroup as the sampler resolves it (src/sampler.c). */
int preflight_cgroup(const char *cgroup, char **err);
/* -e specs and the -g list (NULL: the default set, not checked) against
 * the kernel's tracefs events dir; no_probes: --no-probes given. */
int preflight_events(const char *tracefs, const char *groups, const char *const *extra,
		     int no_probes, char **err);

#endif
