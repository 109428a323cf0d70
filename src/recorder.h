/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The recording engine of `mmscope record`: src/cmd-record.c turns the
 * command line (and --config) into a struct recorder_opts, and
 * recorder_run() does the rest: the checks before tracing, the tracefs
 * instance (src/collector.h), the spool, the sampler, the command,
 * the main loop with the flight recorder, its triggers and
 * --switch-output, the metadata, the file at the end, the summary and
 * every message about the run. It returns record's exit status
 * (mmscope-record(1), EXIT STATUS).
 */
#ifndef MMSCOPE_RECORDER_H
#define MMSCOPE_RECORDER_H

#include <stdint.h>

#include "switch-output.h"
#include "tracedat-write.h"
#include "trigger.h"

#define RECORDER_MAX_TRIGGERS 8

/* record's own exit statuses beyond 0/1/2 (mmscope-record(1), EXIT
 * STATUS): the files written are whole, but a harness must not take the
 * run for a complete one (3), and a service must not take a flight
 * recorder that stopped at --max-triggers for one that ended well (4:
 * Restart=on-failure starts it again, its files numbered on). */
#define EXIT_INCOMPLETE 3
#define EXIT_MAX_TRIGGERS 4

/* What the front end asks for; recorder_opts_default() sets the
 * defaults, the front end the rest. Arrays are NULL-terminated and
 * belong to the caller (recorder_run keeps no pointer into them after
 * it returns; it updates sw and triggers' state while it runs). */
struct recorder_opts {
	const char *out, *spool, *groups, *clock, *cgroup, *probe_set;
	const char **extra;	/* -e */
	int nextra;
	const char **filters;	/* --filter SYS:EV:EXPR */
	int nfilters;
	const char **stacks;	/* --stacktrace / -T */
	int nstacks;
	const char *config;	/* --config FILE, for the metadata */
	const char *cgroups;	/* --cgroups ROOT: every memcg under it */
	int cgroups_max;	/* --cgroups-max N (0: the sampler's default) */
	unsigned interval_ms, buffer_kb;
	uint64_t duration_ns, max_size;
	int force, quiet, no_probes, flight;
	uint64_t post_ns, pre_ns, cooldown_ns;
	unsigned max_triggers;
	struct switch_output sw;
	int switch_on;
	struct trigger triggers[RECORDER_MAX_TRIGGERS];
	int ntriggers;
	struct tw_opts w;	/* the file's format and compression */
	char **command;		/* NULL: record until a stop */
};

/* Why a run stopped (the metadata's stop_reason). */
enum recorder_stop {
	STOP_NONE, STOP_COMMAND, STOP_DURATION, STOP_SIGNAL, STOP_MAX_SIZE,
	STOP_DISK_FULL, STOP_ERROR, STOP_MAX_TRIGGERS,
};

void recorder_opts_default(struct recorder_opts *o);
/* Record as o says; the exit status, and why it stopped in *stop (may
 * be NULL; STOP_NONE when it never started). Messages go to stderr. */
int recorder_run(struct recorder_opts *o, enum recorder_stop *stop);

#endif
