// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The recorder's private metadata (mmscope-recording(5)): the key=value
 * lines of the "mmscope" option of every file (and spool) it writes.
 */
#include "config.h"
#include "recorder-local.h"
#include "host-id.h"
#include "probes.h"
#include "runctx.h"
#include "sampler.h"
#include "util.h"

#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

const char *const rec_stop_names[] = {
	"none", "command exited", "duration reached", "signal", "max-size reached",
	"filesystem full", "error", "max-triggers reached",
};

/* The trigger that made the file, key by key (mmscope-recording(5)). */
static void trigger_meta(const struct recorder *r, struct strbuf *sb)
{
	const struct trigger *t = r->trig;
	const struct trigger_fired *f = &r->trig_fired;

	strbuf_addf(sb, "trigger_kind=%s\n", t ? trigger_kind_name(t) : "SIGUSR1");
	if (!t)
		return;
	strbuf_addf(sb, "trigger_unit=%s\ntrigger_threshold=%g\n", trigger_unit(t), t->threshold);
	if (f->has_value)
		strbuf_addf(sb, "trigger_value=%.6g\n", f->value);
	if (f->pid > 0)
		strbuf_addf(sb, "trigger_pid=%d\n", f->pid);
	if (f->comm[0]) {	/* a task name may hold spaces: one line all the same */
		strbuf_addstr(sb, "trigger_comm=");
		for (const char *c = f->comm; *c; c++)
			strbuf_addch(sb, *c == '\n' ? ' ' : *c);
		strbuf_addch(sb, '\n');
	}
}

static void private_meta(struct recorder *r, struct strbuf *sb)
{
	const struct probe_result *pr = collector_probes(r->col);
	struct utsname u;
	struct host_id id;

	strbuf_addf(sb, "mmscope=%s\n", PACKAGE_VERSION);
	if (!uname(&u))
		strbuf_addf(sb, "kernel=%s\nhost=%s\n", u.release, u.nodename);
	/* who recorded: a host's runs are told by these, not by its name */
	host_id_read(&id);
	if (id.machine[0])
		strbuf_addf(sb, "machine_id=%s\n", id.machine);
	if (id.boot[0])
		strbuf_addf(sb, "boot_id=%s\n", id.boot);
	strbuf_addf(sb, "clock=%s\n", collector_clock(r->col));
	strbuf_addf(sb, "start_realtime_ns=%llu\n", (unsigned long long)r->start_real_ns);
	strbuf_addf(sb, "%s%s%s", r->run_id[0] ? "run_id=" : "", r->run_id, r->run_id[0] ? "\n" : "");
	if (r->start_trace_ns)
		strbuf_addf(sb, "start_trace_ns=%llu\n", (unsigned long long)r->start_trace_ns);
	wall_track_meta(&r->wall, sb);
	strbuf_addf(sb, "interval_ms=%u\n", r->o->interval_ms);
	strbuf_addf(sb, "buffer_kb=%u\n", r->buffer_kb ? r->buffer_kb : r->o->buffer_kb);
	strbuf_addf(sb, "groups=%s\n", collector_groups(r->col));
	strbuf_addf(sb, "events=%s\n", collector_events(r->col));
	strbuf_addf(sb, "missing_events=%s\n", collector_missing(r->col));
	for (int i = 0; i < r->o->nfilters; i++)	/* SYS:EVENT:EXPR, as set */
		strbuf_addf(sb, "filter=%s\n", r->o->filters[i]);
	for (int i = 0; i < r->o->nstacks; i++)	/* a kernel_stack event follows each */
		strbuf_addf(sb, "stacktrace=%s\n", r->o->stacks[i]);
	strbuf_addf(sb, "probe_set=%s\n", pr->set ? pr->set : "none");
	strbuf_addf(sb, "probe_reason=%s\n", pr->reason ? pr->reason : "");
	strbuf_addf(sb, "probes=%s\n", pr->probes ? pr->probes : "");
	if (pr->probes && *pr->probes) {	/* missed hits so far (kprobe_profile) */
		const char *tfs = collector_tracefs(NULL);
		struct strbuf m = STRBUF_INIT;

		if (tfs && !probes_read_missed(tfs, pr->probes, &m))
			strbuf_addf(sb, "probe_missed=%s\n", m.buf ? m.buf : "");
		strbuf_release(&m);
	}
	strbuf_addf(sb, "sample_sources=%s\n", sampler_sources(r->sampler));
	strbuf_addf(sb, "missing_sources=%s\n", sampler_missing(r->sampler));
	if (r->o->cgroup)
		strbuf_addf(sb, "cgroup=%s\n", r->o->cgroup);
	if (r->o->cgroups)
		strbuf_addf(sb, "cgroups=%s\ncgroups_max=%d\n", r->o->cgroups,
			    r->o->cgroups_max ? r->o->cgroups_max : SAMPLER_CGROUPS_MAX);
	if (r->cgtasks[0])	/* the mms1 cgtasks list: mode:hierarchy */
		strbuf_addf(sb, "cgroup_tasks=%s\n", r->cgtasks);
	if (r->o->config)
		strbuf_addf(sb, "config=%s\n", r->o->config);
	if (r->o->command) {
		strbuf_addstr(sb, "command=");
		for (char **a = r->o->command; *a; a++)
			strbuf_addf(sb, "%s%s", a == r->o->command ? "" : " ", *a);
		strbuf_addch(sb, '\n');
	}
	if (r->o->command && r->child > 0) {	/* running, or how it ended */
		struct runctx_outcome out;

		rec_command_outcome(r, &out);
		runctx_outcome_meta(&out, sb);
	}
	/* how far the spool is: no stop yet, stopped with its last pages
	 * still in the rings, or every page read (mmscope recover says which) */
	if (!r->o->flight)
		strbuf_addf(sb, "spool_state=%s\n", r->switching || r->spool_read_all ? "complete" :
			    r->stop == STOP_NONE ? "recording" : "stopping");
	if (r->o->flight)	/* cpustat=window: stats count from the ring's last emptying */
		strbuf_addstr(sb, "mode=flight-recorder\ncpustat=window\n");
	if (r->o->pre_ns)
		strbuf_addf(sb, "pre_trigger_ns=%llu\n", (unsigned long long)r->o->pre_ns);
	if (r->o->flight)
		strbuf_addf(sb, "post_trigger_ns=%llu\n", (unsigned long long)r->o->post_ns);
	if (r->watch)
		strbuf_addf(sb, "trigger_watch_dropped=%llu\n",
			    (unsigned long long)trigger_watch_dropped(r->watch));
	if (r->seg) {	/* cpustat=window: stats count from the file's start */
		strbuf_addf(sb, "switch_output=%d\ncpustat=window\n", r->seg);
		if (r->seg_from_ns)	/* where the run was cut before this part */
			strbuf_addf(sb, "switch_from_ns=%llu\n", (unsigned long long)r->seg_from_ns);
		if (r->switching) {
			if (r->seg_cut_ns)	/* and after it */
				strbuf_addf(sb, "switch_cut_ns=%llu\n",
					    (unsigned long long)r->seg_cut_ns);
			strbuf_addstr(sb, "stop_reason=switch-output\n");
			return;
		}
	}
	if (r->trigger) {
		strbuf_addf(sb, "trigger=%s\n", r->trigger);
		strbuf_addf(sb, "trigger_name=%s\n", r->trig_name);
		strbuf_addf(sb, "trigger_realtime_ns=%llu\n", (unsigned long long)r->trig_real_ns);
		if (r->trig_trace_ns)
			strbuf_addf(sb, "trigger_ns=%llu\n", (unsigned long long)r->trig_trace_ns);
		trigger_meta(r, sb);
		/* a flight file ends because its trigger fired (and its
		 * post-trigger time ran out), or the run stopped meanwhile,
		 * or it is the last of --max-triggers: the run stops after it */
		if (r->stop != STOP_NONE)
			strbuf_addf(sb, "stop_reason=trigger:%s, then %s\n", r->trig_name,
				    rec_stop_names[r->stop]);
		else if (r->o->max_triggers && (unsigned)r->flight_dumps >= r->o->max_triggers)
			strbuf_addf(sb, "stop_reason=trigger:%s, then %s\nstop_detail=%u file%s\n",
				    r->trig_name, rec_stop_names[STOP_MAX_TRIGGERS],
				    r->o->max_triggers, r->o->max_triggers == 1 ? "" : "s");
		else
			strbuf_addf(sb, "stop_reason=trigger:%s\n", r->trig_name);
		if (r->stop != STOP_NONE && r->stop_detail)
			strbuf_addf(sb, "stop_detail=%.*s\n", (int)strcspn(r->stop_detail, "\n"),
				    r->stop_detail);
		return;
	}
	strbuf_addf(sb, "stop_reason=%s\n", r->stop == STOP_NONE ? "running" :
		    rec_stop_names[r->stop]);
	if (r->stop_detail)	/* one line: the signal, the bytes left, the error */
		strbuf_addf(sb, "stop_detail=%.*s\n", (int)strcspn(r->stop_detail, "\n"),
			    r->stop_detail);
}

int rec_write_private_meta(struct recorder *r, struct spool *s, char **err)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	private_meta(r, &sb);
	ret = spool_put_meta(s, "mmscope", sb.buf, sb.len, err);
	if (!ret)
		ret = spool_put_meta(s, "version", PACKAGE_VERSION, strlen(PACKAGE_VERSION), err);
	strbuf_release(&sb);
	return ret;
}
