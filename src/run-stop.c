// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * How a recording ended (see run-stop.h), from the recorder's metadata.
 * The recorder's stop_reason words are recorder-meta.c's rec_stop_names[]
 * and "trigger:NAME[, then REASON]", "switch-output", "running" and
 * (mmscope recover) "recovered".
 */
#include "config.h"
#include "run-stop.h"
#include "parsers.h"
#include "tracedat-read.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the value of key up to its line's end, a copy; NULL when absent */
static char *value_of(const char *meta, const char *key)
{
	const char *v = td_meta_value(meta, key);

	return v ? xasprintf("%.*s", (int)strcspn(v, "\n"), v) : NULL;
}

static int real_of(const char *meta, const char *key, double *out)
{
	char *v = value_of(meta, key), *end;
	int ok = 0;

	if (v && *v) {
		errno = 0;
		*out = strtod(v, &end);
		ok = !errno && !*end && isfinite(*out);
	}
	free(v);
	return ok;
}

static int s64_of(const char *meta, const char *key, int64_t *out)
{
	char *v = value_of(meta, key), *end;
	int ok = 0;

	if (v && *v) {
		errno = 0;
		long long x = strtoll(v, &end, 10);

		ok = !errno && !*end;
		*out = x;
	}
	free(v);
	return ok;
}

/* command_argv: at most this many arguments (as the run model's argv) */
#define ARGV_MAX 4096

static void num_of(const char *meta, const char *key, struct run_stop_num *n)
{
	n->known = s64_of(meta, key, &n->v);
	if (!n->known)
		n->v = 0;
}

/* command_argv=A B C: each argument percent-encoded, one space between */
static void parse_argv(struct run_stop_command *c, const char *meta)
{
	char *v = value_of(meta, "command_argv"), *p;
	int n = 1;

	if (!v || !*v) {
		free(v);
		return;
	}
	for (p = v; *p; p++)
		n += *p == ' ';
	if (n > ARGV_MAX) {
		free(v);
		return;
	}
	c->argv = xcalloc((size_t)n + 1, sizeof(char *));
	p = v;
	for (int i = 0; i < n; i++) {
		size_t len = strcspn(p, " ");

		c->argv[i] = xasprintf("%.*s", (int)len, p);
		sample_percent_decode(c->argv[i]);
		p += len + (p[len] == ' ');
	}
	c->argc = n;
	free(v);
}

static void parse_command(struct run_stop_command *c, const char *meta)
{
	c->line = value_of(meta, "command");
	c->known = c->line != NULL;
	if (!c->known)
		return;
	parse_argv(c, meta);
	if (td_meta_is(meta, "command_state", "running"))
		c->state = "running";
	else if (td_meta_is(meta, "command_state", "ended"))
		c->state = "ended";
	num_of(meta, "command_pid", &c->pid);
	num_of(meta, "command_exit", &c->exit);
	num_of(meta, "command_signal", &c->signal);
	num_of(meta, "command_core", &c->core);
	num_of(meta, "command_elapsed_us", &c->elapsed_us);
	num_of(meta, "command_user_us", &c->user_us);
	num_of(meta, "command_sys_us", &c->sys_us);
	num_of(meta, "command_maxrss_kb", &c->maxrss_kb);
	num_of(meta, "command_ended_by_recorder", &c->ended_by_recorder);
}

static void release_command(struct run_stop_command *c)
{
	for (int i = 0; i < c->argc; i++)
		free(c->argv[i]);
	free(c->argv);
	free(c->line);
	memset(c, 0, sizeof(*c));
}

/* what the recorder wrote, its word, and in words: the cause, then
 * (after stop_detail) what it means for the data */
static const struct {
	const char *said, *word, *text, *tail;
} reasons[] = {
	{ "command exited", "command-exit", "the command exited", "" },
	{ "duration reached", "duration", "--duration reached", "" },
	{ "signal", "signal", "a signal", "" },
	{ "max-size reached", "max-size", "--max-size reached", "" },
	{ "filesystem full", "disk-full", "filesystem full",
	  ": the recording ended early" },
	{ "error", "error", "an error", ": the recording ended early" },
	{ "max-triggers reached", "max-triggers", "--max-triggers reached", "" },
	{ "switch-output", "switch-output", "switch-output",
	  ": the next file continues the run" },
	{ "recovered", "recovered", "recovered by mmscope recover",
	  ": the data ends where the spool did" },
	{ "running", "killed", "the recorder was killed, recovered from its spool",
	  ": the data ends where the spool did" },
};

static const char *classify(const char *said)
{
	for (size_t i = 0; i < sizeof(reasons) / sizeof(reasons[0]); i++)
		if (!strcmp(said, reasons[i].said))
			return reasons[i].word;
	return "other";
}

static int reason_of(const char *word)
{
	for (size_t i = 0; i < sizeof(reasons) / sizeof(reasons[0]); i++)
		if (!strcmp(word, reasons[i].word))
			return (int)i;
	return -1;
}

const char *run_stop_word(const char *stop)
{
	if (!stop)
		return "-";
	if (!strcmp(stop, "disk-full"))
		return "disk full";
	if (!strcmp(stop, "command-exit"))
		return "command exit";
	return stop;
}

/* cpu_end_ns=0:NS,1:-,...: per CPU, its data's last event */
static void parse_cpu_end(struct run_stop *st, const char *meta)
{
	char *v = value_of(meta, "cpu_end_ns");

	if (!v)
		return;
	for (char *p = v; *p;) {
		char *end;
		long cpu = strtol(p, &end, 10);

		if (end == p || *end != ':' || cpu < 0 || cpu > 8191)
			break;
		p = end + 1;
		if (cpu >= st->ncpu) {
			st->cpu_end = xreallocarray(st->cpu_end, (size_t)cpu + 1,
						    sizeof(*st->cpu_end));
			memset(st->cpu_end + st->ncpu, 0,
			       (size_t)(cpu + 1 - st->ncpu) * sizeof(*st->cpu_end));
			st->ncpu = (int)cpu + 1;
		}
		if (*p == '-') {
			p++;
		} else {
			errno = 0;
			unsigned long long ns = strtoull(p, &end, 10);

			if (end == p || errno)
				break;
			st->cpu_end[cpu].known = 1;
			st->cpu_end[cpu].ns = ns;
			p = end;
		}
		if (*p != ',')
			break;
		p++;
	}
	free(v);
}

/*
 * A recovered file: what its spool said. spool_stop_reason and
 * spool_stop_detail; an older recover wrote only stop_detail "from the
 * spool of a recorder that did not finish (it said: REASON[; DETAIL])".
 */
static void parse_spool(struct run_stop *st, const char *meta)
{
	static const char *const states[] = { "recording", "stopping", "complete" };

	for (size_t i = 0; i < sizeof(states) / sizeof(states[0]); i++)
		if (td_meta_is(meta, "spool_state", states[i]))
			st->spool_state = states[i];
	if (!st->stop || strcmp(st->stop, "recovered"))
		return;
	st->spool_reason = value_of(meta, "spool_stop_reason");
	st->spool_detail = value_of(meta, "spool_stop_detail");
	if (!st->spool_reason && st->detail) {
		const char *said = strstr(st->detail, "(it said: ");

		if (said) {
			said += 10;
			st->spool_reason = xasprintf("%.*s", (int)strcspn(said, ";)"), said);
		}
	}
	if (st->spool_reason && *st->spool_reason)
		st->spool_stop = !strncmp(st->spool_reason, "trigger:", 8) ? "trigger" :
				 classify(st->spool_reason);
}

void run_stop_parse(struct run_stop *st, const char *meta)
{
	memset(st, 0, sizeof(*st));
	if (!meta || !*meta)
		return;
	st->recorder = td_meta_value(meta, "mmscope") != NULL;
	st->trigger = value_of(meta, "trigger");
	st->name = value_of(meta, "trigger_name");
	st->has_trigger = st->trigger || st->name;
	st->kind = value_of(meta, "trigger_kind");
	st->unit = value_of(meta, "trigger_unit");
	st->comm = value_of(meta, "trigger_comm");
	st->has_threshold = real_of(meta, "trigger_threshold", &st->threshold);
	st->has_value = real_of(meta, "trigger_value", &st->value);
	st->has_pid = s64_of(meta, "trigger_pid", &st->pid) && st->pid > 0;
	st->has_ns = !td_meta_u64(meta, "trigger_ns", &st->ns);
	st->has_realtime = !td_meta_u64(meta, "trigger_realtime_ns", &st->realtime_ns);
	st->reason = value_of(meta, "stop_reason");
	st->detail = value_of(meta, "stop_detail");
	if (st->reason && !strncmp(st->reason, "trigger:", 8)) {
		const char *then = strstr(st->reason, ", then ");

		st->stop = "trigger";
		st->then = then ? classify(then + 7) : NULL;
	} else if (st->reason) {
		st->stop = classify(st->reason);
	}
	parse_command(&st->cmd, meta);
	parse_spool(st, meta);
	parse_cpu_end(st, meta);
}

void run_stop_parse2(struct run_stop *st, const char *first, const char *last)
{
	struct run_stop end;

	run_stop_parse(st, first);
	if (!last || last == first)
		return;
	run_stop_parse(&end, last);
	free(st->reason);
	free(st->detail);
	free(st->cpu_end);
	free(st->spool_reason);
	free(st->spool_detail);
	release_command(&st->cmd);
	st->reason = end.reason;
	st->detail = end.detail;
	st->stop = end.stop;
	st->then = end.then;
	st->ncpu = end.ncpu;
	st->cpu_end = end.cpu_end;
	st->cmd = end.cmd;
	st->spool_reason = end.spool_reason;
	st->spool_stop = end.spool_stop;
	st->spool_detail = end.spool_detail;
	st->spool_state = end.spool_state;
	st->recorder = st->recorder || end.recorder;
	end.reason = end.detail = end.spool_reason = end.spool_detail = NULL;
	end.cpu_end = NULL;
	memset(&end.cmd, 0, sizeof(end.cmd));
	run_stop_release(&end);
}

void run_stop_release(struct run_stop *st)
{
	free(st->trigger);
	free(st->name);
	free(st->kind);
	free(st->unit);
	free(st->comm);
	free(st->reason);
	free(st->detail);
	free(st->cpu_end);
	free(st->spool_reason);
	free(st->spool_detail);
	release_command(&st->cmd);
	free(st->text[0]);
	free(st->text[1]);
	memset(st, 0, sizeof(*st));
}

/* "a signal (Terminated)": the text of a stop word with its detail */
static void add_reason(struct strbuf *sb, const char *word, const char *said,
		       const char *detail)
{
	int r = word ? reason_of(word) : -1;

	if (r >= 0)
		strbuf_addstr(sb, reasons[r].text);
	else
		strbuf_addstr(sb, said ? said : "-");
	if (detail && *detail)
		strbuf_addf(sb, " (%s)", detail);
}

/*
 * A recovered file whose spool said what the recorder was doing: killed
 * while recording, while stopping (before its last pages were read), or
 * after it had read every page (a part the writer had not written yet, a
 * file it could not write). Older files: the detail as written.
 */
static int recovered_text(const struct run_stop *st, struct strbuf *sb)
{
	const char *ss = st->spool_stop;

	if (!ss)
		return 0;
	strbuf_addstr(sb, "recovered by mmscope recover: ");
	if (!strcmp(ss, "killed")) {
		strbuf_addstr(sb, "the recorder was killed while recording (SIGKILL, a crash "
			      "or a power loss: which is not recorded): the data ends where "
			      "its spool did");
	} else if (!strcmp(ss, "switch-output")) {
		strbuf_addstr(sb, "a --switch-output part the recorder had finished but not "
			      "written (the next file continues the run)");
	} else if (st->spool_state && !strcmp(st->spool_state, "complete")) {
		strbuf_addstr(sb, "the recorder had stopped after ");
		add_reason(sb, ss, st->spool_reason, st->spool_detail);
		strbuf_addstr(sb, " and read every page, but did not write this file");
	} else {
		strbuf_addstr(sb, "the recorder was killed while stopping after ");
		add_reason(sb, ss, st->spool_reason, st->spool_detail);
		strbuf_addstr(sb, ", before it read its last pages: the data ends where its "
			      "spool did");
	}
	return 1;
}

const char *run_stop_text(struct run_stop *st, int brief)
{
	struct strbuf sb = STRBUF_INIT;
	const char *detail = st->detail && *st->detail ? st->detail : NULL;
	const char *end;
	int r;

	if (!st->stop)
		return NULL;
	if (st->text[brief])
		return st->text[brief];
	if (!brief && !strcmp(st->stop, "recovered") && recovered_text(st, &sb)) {
		st->text[brief] = strbuf_detach(&sb, NULL);
		return st->text[brief];
	}
	end = st->stop;
	if (!strcmp(st->stop, "trigger")) {
		const char *name = st->reason + 8, *then = strstr(st->reason, ", then ");

		strbuf_addf(&sb, "trigger %.*s fired", (int)strcspn(name, ","), name);
		/* the run stopped within the post-trigger time */
		r = st->then ? reason_of(st->then) : -1;
		if (r >= 0)
			strbuf_addf(&sb, ", then %s", reasons[r].text);
		else if (then)
			strbuf_addf(&sb, ", then %s", then + 7);
		end = st->then;
	} else if ((r = reason_of(st->stop)) >= 0) {
		strbuf_addstr(&sb, reasons[r].text);
	} else {
		strbuf_addstr(&sb, st->reason);
	}
	if (detail && !brief)
		strbuf_addf(&sb, " (%s)", detail);
	if (r >= 0 && !brief)
		strbuf_addstr(&sb, reasons[r].tail);
	/* what the stop did to a COMMAND still running */
	if (!brief && end && strcmp(end, "command-exit") && st->cmd.ended_by_recorder.known &&
	    st->cmd.ended_by_recorder.v)
		strbuf_addstr(&sb, "; mmscope ended the command");
	st->text[brief] = strbuf_detach(&sb, NULL);
	return st->text[brief];
}

void run_stop_ending_of(const struct run_stop *st, struct run_ending *e)
{
	const struct run_stop_command *c = &st->cmd;
	const char *end = st->stop && !strcmp(st->stop, "trigger") ? st->then : st->stop;

	e->stop = st->stop;
	e->then = st->then;
	e->command = c->known ? 1 : st->recorder ? 0 : -1;
	e->complete = -1;
	if (st->stop) {
		e->complete = 1;
		if (!strcmp(st->stop, "killed"))
			e->complete = 0;
		else if (!strcmp(st->stop, "recovered"))
			/* a finished part, or a recorder that read every
			 * page: what the spool had is whole */
			e->complete = (st->spool_state && !strcmp(st->spool_state, "complete")) ||
				      (st->spool_stop && !strcmp(st->spool_stop, "switch-output"));
	}
	/* the command */
	if (e->command <= 0)
		e->ended_command = e->command;
	else if (c->ended_by_recorder.known)
		e->ended_command = c->ended_by_recorder.v != 0;
	else if (c->state && !strcmp(c->state, "running"))
		/* running when this file ended; after --max-triggers the
		 * recorder went on to end it (if it still ran), and a
		 * recorder killed while stopping may have begun to */
		e->ended_command = (end && !strcmp(end, "max-triggers")) ||
				   (!strcmp(st->stop ? st->stop : "", "recovered") && st->spool_stop &&
				    strcmp(st->spool_stop, "killed") &&
				    strcmp(st->spool_stop, "switch-output")) ? -1 : 0;
	else if (!st->stop)
		e->ended_command = -1;
	else if (!strcmp(st->stop, "command-exit") || !strcmp(st->stop, "killed") ||
		 !strcmp(st->stop, "switch-output") || (!strcmp(st->stop, "trigger") && !end))
		e->ended_command = 0;
	else if (!strcmp(st->stop, "recovered") && st->spool_stop &&
		 (!strcmp(st->spool_stop, "killed") || !strcmp(st->spool_stop, "switch-output")))
		e->ended_command = 0;	/* killed while recording: it never stopped */
	else
		e->ended_command = end && !strcmp(end, "command-exit") ? 0 : -1;
}

void run_stop_ending(const char *first, const char *last, struct run_ending *e)
{
	struct run_stop st;

	run_stop_parse2(&st, first, last);
	run_stop_ending_of(&st, e);
	run_stop_release(&st);
}
