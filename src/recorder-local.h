/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Inside the recording engine (src/recorder.h): the state of one run,
 * shared by its three files, each with one job: recorder.c (the checks,
 * setup, the command, the loop, --switch-output, the end and the
 * summary), recorder-flight.c (the flight recorder: its files, triggers
 * and ring) and recorder-meta.c (the private metadata of every file).
 */
#ifndef MMSCOPE_RECORDER_LOCAL_H
#define MMSCOPE_RECORDER_LOCAL_H

#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <time.h>

#include "recorder.h"
#include "collector.h"
#include "part-writer.h"
#include "spool.h"
#include "trigger.h"
#include "trigger-watch.h"
#include "wall-map.h"

struct recorder {
	struct recorder_opts *o;
	struct collector *col;
	struct spool *spool;
	char *spool_dir;
	struct sampler *sampler;
	char cgtasks[16];	/* "v1:4": the tasks' cgroups were listed (cgdump.h) */
	pid_t child;
	int child_status;
	int child_done;
	int child_pidfd;	/* poll wakes when the child exits; -1 none */
	struct rusage child_ru;	/* from wait4 */
	uint64_t child_start_ns, child_end_ns;	/* released, reaped (mono) */
	int child_stopped;	/* stop_child signalled it */
	int spool_read_all;	/* the end: every page is in the spool */
	int go_fd;		/* write end of the pipe that starts the child */
	enum recorder_stop stop;
	char *stop_detail;
	uint64_t launch_ns;	/* recorder_run began (mono): the set-up's time */
	uint64_t t0_ns, start_real_ns, start_trace_ns;
	char run_id[33];	/* in every file of the run (inputs.h); "" none */
	struct wall_track wall;	/* the wall clock against the trace clock */
	uint64_t meta_ns;	/* the spool's metadata last written (mono) */
	uint64_t pages;
	int ncpus;
	uint32_t page_size;
	struct collector_cpustat *stats;
	int progress;		/* stderr is a tty */
	int flight_dumps;
	int part_base;		/* the highest FILE-N of an earlier run (numbering goes on) */
	int flight_failed;	/* flight files that could not be written */
	const char *trigger;	/* why the flight recorder is writing, or NULL */
	/* the trigger being written: its spec (or SIGUSR1), when (trace clock
	 * and realtime, ns), and the file recording after it (--post-trigger) */
	char trig_name[64], trig_why[200];
	uint64_t trig_trace_ns, trig_real_ns;
	const struct trigger *trig;	/* NULL: SIGUSR1 */
	struct trigger_fired trig_fired;	/* what it saw */
	struct spool *bracket;
	char *bracket_dir, *bracket_path;
	uint64_t post_end_ns, cooldown_until_ns;
	unsigned buffer_kb;	/* the ring per CPU now (--pre-trigger grows it) */
	uint64_t *last_overrun;	/* per CPU, at the last ring check */
	/* --switch-output: the file being recorded (FILE-seg.dat) */
	int seg, files, switching, switch_failed;
	struct part_writer pw;	/* the part before, written meanwhile */
	/* per CPU, the pages and the events a full disk kept out of the
	 * files finished before this one, and their bytes of pages: the
	 * summary's figures are the whole run's */
	uint64_t *done_pages, *done_unkept, done_bytes;
	/* reads of the ring the kernel had no memory for (collector.h) */
	uint64_t splice_nomem, read_nomem, plain_pages;
	char *seg_path;
	uint64_t seg_start_ns;
	/* the trace time the switch before this file cut the run at (its
	 * switch_from_ns), and the one cutting this file (switch_cut_ns,
	 * while its metadata is written at the switch); 0: none */
	uint64_t seg_from_ns, seg_cut_ns;
	int ring_warned;
	struct trigger_watch *watch;	/* event triggers' instance, or NULL */
	char *cgroup_dir;		/* --cgroup resolved, for memcg triggers */
	long long vm_first[2];	/* pswpout, swpout_zero at the first set */
	/* MMSCOPE_RECORD_CPU: the recorder's own CPU time (ns, user+system)
	 * when tracing went on and when every page was in the spool */
	int cpu_report;
	uint64_t cpu_on_ns, cpu_read_ns;
};

/* the metadata's stop_reason of each enum recorder_stop */
extern const char *const rec_stop_names[];

/* recorder.c */
uint64_t rec_mono_ns(void);
uint64_t rec_clock_ns(clockid_t id);
/* a sample set of every source into the instance's trace_marker */
void rec_take_sample(struct recorder *r);
/* the run's context (src/runctx.h) at "start" or "end" */
void rec_write_context(struct recorder *r, const char *phase);
/* what is known of the COMMAND now (its outcome once reaped) */
struct runctx_outcome;
void rec_command_outcome(const struct recorder *r, struct runctx_outcome *out);
/* the run stops (the first reason wins); detail is taken, may be NULL */
void rec_set_stop(struct recorder *r, enum recorder_stop why, char *detail);

/* recorder-meta.c: the "mmscope" and "version" options into s */
int rec_write_private_meta(struct recorder *r, struct spool *s, char **err);

/* recorder-flight.c */
/* a trigger fired (t NULL: SIGUSR1); f: what it saw; why: its message */
void rec_flight_fire(struct recorder *r, const struct trigger *t,
		     const struct trigger_fired *f, const char *why);
/* --post-trigger's time is over (or the run stops: restart 0) */
void rec_flight_end(struct recorder *r, int restart);
/* every --trigger once an interval; the first that fires writes a file */
void rec_check_triggers(struct recorder *r);
/* --pre-trigger: grow the ring to what the observed rate needs */
void rec_size_ring(struct recorder *r);

#endif
