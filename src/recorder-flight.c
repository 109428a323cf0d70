// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The flight recorder (--flight-recorder): the ring overwrites, and on
 * SIGUSR1 or a --trigger it is written out as FILE-N.dat, at once or
 * after --post-trigger seconds more; --pre-trigger grows the ring,
 * --trigger-cooldown and --max-triggers bound the files.
 */
#include "config.h"
#include "cmd.h"
#include "recorder-local.h"
#include "switch-output.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Now on the trace clock (0 when it is not one of the kernel's ns clocks). */
static uint64_t trace_now(struct recorder *r)
{
	clockid_t id;

	return wall_clock_id(collector_clock(r->col), &id) ? 0 : rec_clock_ns(id);
}

/* A flight file is written: the next trigger may fire after the cooldown,
 * and the run stops at --max-triggers. */
static void flight_written(struct recorder *r)
{
	r->cooldown_until_ns = rec_mono_ns() + r->o->cooldown_ns;
	if (r->o->max_triggers && (unsigned)r->flight_dumps >= r->o->max_triggers)
		rec_set_stop(r, STOP_MAX_TRIGGERS, xasprintf("%u file%s", r->o->max_triggers,
							   r->o->max_triggers == 1 ? "" : "s"));
}

static void flight_wrote(struct recorder *r, const char *path, const struct spool_result *res)
{
	if (!r->o->quiet)
		fprintf(stderr, "%smmscope: %s: wrote %s (%llu pages, %llu bytes)\n",
			r->progress ? "\n" : "", r->trig_why, path, (unsigned long long)res->pages,
			(unsigned long long)res->bytes);
}

/* Flight recorder: write the ring (with its samples) to FILE-N.dat. */
static void flight_dump(struct recorder *r)
{
	struct spool *saved = r->spool, *s;
	char *dir, *path, *err = NULL;
	struct spool_result res;

	r->flight_dumps++;
	path = output_part_name(r->o->out, r->part_base + r->flight_dumps);
	dir = xasprintf("%s.spool", path);
	rec_write_context(r, "end");
	rec_take_sample(r);
	collector_stop(r->col);
	r->trigger = r->trig_why;
	s = spool_create(dir, r->ncpus, collector_page_size(r->col), 0, &err);
	if (!s || collector_snapshot_meta(r->col, s, &err) ||
	    rec_write_private_meta(r, s, &err)) {
		error("flight recorder: %s", err);
		r->flight_failed++;
		goto out;
	}
	r->spool = s;
	if (collector_read(r->col, s, COLLECTOR_READ_FLUSH, 0, &err) < 0) {
		error("flight recorder: %s", err);
		r->flight_failed++;
		goto out;
	}
	collector_snapshot_late(r->col, s, NULL);
	collector_stats_restart(r->col);	/* the next dump's stats start here */
	if (spool_write_file(dir, path, r->o->force, &r->o->w, &res, &err)) {
		error("flight recorder: %s: %s (the spool %s is kept)", path, err, dir);
		r->flight_failed++;
		goto out;
	}
	spool_close(s);
	s = NULL;
	spool_remove(dir, NULL);
	flight_wrote(r, path, &res);
out:
	r->trigger = NULL;
	spool_close(s);
	r->spool = saved;
	free(err);
	err = NULL;
	if (collector_start(r->col, &err))
		rec_set_stop(r, STOP_ERROR, err);
	else
		rec_take_sample(r);
	free(dir);
	free(path);
	flight_written(r);
}

/*
 * --post-trigger: the ring is taken into a spool now, with the ring still
 * overwriting (a page that says the writer lapped the reader drops what
 * was read before it: the file's history starts after the last gap);
 * then the ring stops overwriting, so that anything not read in time is
 * counted as dropped (lost), and is read like a normal recording until
 * the post-trigger time ends (rec_flight_end).
 */
static void flight_begin(struct recorder *r)
{
	char *err = NULL;

	r->flight_dumps++;
	r->bracket_path = output_part_name(r->o->out, r->part_base + r->flight_dumps);
	r->bracket_dir = xasprintf("%s.spool", r->bracket_path);
	r->trigger = r->trig_why;
	r->bracket = spool_create(r->bracket_dir, r->ncpus, collector_page_size(r->col), 0, &err);
	if (!r->bracket || collector_snapshot_meta(r->col, r->bracket, &err) ||
	    rec_write_private_meta(r, r->bracket, &err))
		goto fail;
	r->spool = r->bracket;
	rec_take_sample(r);		/* a sample set at the trigger */
	if (collector_read(r->col, r->bracket, COLLECTOR_READ_DRAIN, 0, &err) < 0 ||
	    collector_set_overwrite(r->col, 0, &err))
		goto fail;
	r->post_end_ns = rec_mono_ns() + r->o->post_ns;
	if (!r->o->quiet)
		fprintf(stderr, "%smmscope: %s: recording %.1f s more into %s\n",
			r->progress ? "\n" : "", r->trig_why, (double)r->o->post_ns / 1e9,
			r->bracket_path);
	return;
fail:
	error("flight recorder: %s", err);
	r->flight_failed++;
	free(err);
	collector_set_overwrite(r->col, 1, NULL);
	spool_close(r->bracket);
	r->bracket = NULL;
	r->spool = NULL;
	spool_remove(r->bracket_dir, NULL);
	r->trigger = NULL;
	free(r->bracket_dir);
	free(r->bracket_path);
	r->bracket_dir = r->bracket_path = NULL;
	flight_written(r);
}

/* The post-trigger time is over (or the run stops: restart 0). */
void rec_flight_end(struct recorder *r, int restart)
{
	struct spool_result res;
	char *err = NULL;

	rec_take_sample(r);
	collector_stop(r->col);
	if (collector_read(r->col, r->bracket, COLLECTOR_READ_FLUSH, 0, &err) < 0) {
		error("flight recorder: %s (the spool %s is kept)", err, r->bracket_dir);
		r->flight_failed++;
		goto out;
	}
	collector_snapshot_late(r->col, r->bracket, NULL);
	rec_write_private_meta(r, r->bracket, NULL);
	collector_stats_restart(r->col);
	if (spool_write_file(r->bracket_dir, r->bracket_path, r->o->force, &r->o->w, &res, &err)) {
		error("flight recorder: %s: %s (the spool %s is kept)", r->bracket_path, err,
		      r->bracket_dir);
		r->flight_failed++;
		goto out;
	}
	spool_close(r->bracket);
	r->bracket = NULL;
	spool_remove(r->bracket_dir, NULL);
	flight_wrote(r, r->bracket_path, &res);
out:
	free(err);
	err = NULL;
	spool_close(r->bracket);
	r->bracket = NULL;
	r->spool = NULL;
	r->trigger = NULL;
	free(r->bracket_dir);
	free(r->bracket_path);
	r->bracket_dir = r->bracket_path = NULL;
	if (collector_set_overwrite(r->col, 1, &err)) {
		rec_set_stop(r, STOP_ERROR, err);
		return;
	}
	if (restart) {
		if (collector_start(r->col, &err))
			rec_set_stop(r, STOP_ERROR, err);
		else
			rec_take_sample(r);
	}
	flight_written(r);
}

/* A trigger fired (t NULL: SIGUSR1, which no cooldown holds back); f:
 * what it saw. */
void rec_flight_fire(struct recorder *r, const struct trigger *t,
			const struct trigger_fired *f, const char *why)
{
	const char *name = t ? t->name : "SIGUSR1";

	if (r->bracket || r->stop != STOP_NONE)
		return;		/* within the file being recorded after a trigger */
	if (t && rec_mono_ns() < r->cooldown_until_ns)
		return;
	r->trig = t;
	memset(&r->trig_fired, 0, sizeof(r->trig_fired));
	if (f)
		r->trig_fired = *f;
	snprintf(r->trig_name, sizeof(r->trig_name), "%s", name);
	snprintf(r->trig_why, sizeof(r->trig_why), "%s", why);
	r->trig_trace_ns = trace_now(r);
	r->trig_real_ns = rec_clock_ns(CLOCK_REALTIME);
	if (r->o->post_ns)
		flight_begin(r);
	else
		flight_dump(r);
}

void rec_check_triggers(struct recorder *r)
{
	char why[200];

	/* tests point the triggers at a fake /proc, as they do the sampler */
	const char *root = getenv("MMSCOPE_SAMPLE_ROOT");
	uint64_t now = trace_now(r);
	int fired = 0;

	if (r->watch) {
		char *err = NULL;

		/* everything up to now is in the pages this read takes */
		if (trigger_watch_poll(r->watch, 1, now ? now : UINT64_MAX, &err)) {
			rec_set_stop(r, STOP_ERROR, err);
			return;
		}
	}
	/* every trigger is checked, so that each keeps its own state */
	for (int i = 0; i < r->o->ntriggers; i++) {
		struct trigger *t = &r->o->triggers[i];
		int hit = trigger_is_event(t) ?
			  (r->watch && trigger_watch_check(r->watch, i, now ? now : UINT64_MAX, why,
							   sizeof(why))) :
			  trigger_check(t, root, r->cgroup_dir, why, sizeof(why)) == 1;

		if (hit && !fired++)
			rec_flight_fire(r, t, trigger_is_event(t) ?
					trigger_watch_fired(r->watch, i) : &t->fired, why);
	}
}

static long long mem_available_kb(void)
{
	FILE *f = fopen("/proc/meminfo", "re");
	char line[128];
	long long kb = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %lld kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

/*
 * --pre-trigger: once per interval, where a CPU's ring overwrote since the
 * last look, the history it holds is "now ts" - "oldest event ts" of its
 * stats; below the asked-for time, every CPU's ring grows to what the
 * observed rate needs (and a quarter more), up to a quarter of the
 * available memory over all CPUs (a warning says what that keeps).
 */
void rec_size_ring(struct recorder *r)
{
	uint64_t short_ns = 0;
	unsigned long long want, limit;
	long long avail;
	char *err = NULL;

	if (!r->o->pre_ns || r->bracket || r->ring_warned > 1)
		return;
	collector_stats(r->col, r->stats);
	for (int cpu = 0; cpu < r->ncpus; cpu++) {
		const struct collector_cpustat *st = &r->stats[cpu];
		int wrapped = st->overrun > r->last_overrun[cpu];

		r->last_overrun[cpu] = st->overrun;
		if (!wrapped || !st->oldest_ns || st->now_ns <= st->oldest_ns)
			continue;
		if (st->now_ns - st->oldest_ns < r->o->pre_ns &&
		    (!short_ns || st->now_ns - st->oldest_ns < short_ns))
			short_ns = st->now_ns - st->oldest_ns;
	}
	if (!short_ns)
		return;
	want = (unsigned long long)((double)r->buffer_kb * (double)r->o->pre_ns / (double)short_ns *
				    1.25);
	want = (want + 1023) / 1024 * 1024;
	avail = mem_available_kb();
	limit = 4u << 20;
	if (avail > 0 && (unsigned long long)avail / 4 / (unsigned)r->ncpus < limit)
		limit = (unsigned long long)avail / 4 / (unsigned)r->ncpus;
	if (want > limit) {
		if (!r->ring_warned)
			warning("--pre-trigger %.1f s needs about %llu KiB of ring per CPU at the "
				"observed rate; memory allows %llu KiB (a quarter of MemAvailable "
				"over %d CPUs): about %.1f s is kept",
				(double)r->o->pre_ns / 1e9, want, limit, r->ncpus,
				(double)short_ns / 1e9 * (double)limit / r->buffer_kb);
		r->ring_warned = 1;
		want = limit;
	}
	if (want <= r->buffer_kb)
		return;
	if (collector_set_buffer_kb(r->col, (unsigned)want, &err)) {
		warning("--pre-trigger: %s; the ring stays at %u KiB per CPU", err, r->buffer_kb);
		free(err);
		r->ring_warned = 2;
		return;
	}
	if (!r->o->quiet)
		fprintf(stderr, "%smmscope: the ring held %.2f s in %u KiB per CPU; grown to %llu KiB "
			"for --pre-trigger %.1f s\n", r->progress ? "\n" : "",
			(double)short_ns / 1e9, r->buffer_kb, want, (double)r->o->pre_ns / 1e9);
	r->buffer_kb = (unsigned)want;
}
