// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * How a recording ended (see run-stop.h), from the recorder's metadata.
 * The recorder's stop_reason words are cmd-record.c's stop_names[] and
 * "trigger:NAME[, then REASON]", "switch-output", "running" and
 * (mmscope recover) "recovered".
 */
#include "config.h"
#include "run-stop.h"
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

void run_stop_parse(struct run_stop *st, const char *meta)
{
	memset(st, 0, sizeof(*st));
	if (!meta || !*meta)
		return;
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
	st->reason = end.reason;
	st->detail = end.detail;
	st->stop = end.stop;
	st->then = end.then;
	st->ncpu = end.ncpu;
	st->cpu_end = end.cpu_end;
	end.reason = end.detail = NULL;
	end.cpu_end = NULL;
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
	free(st->text[0]);
	free(st->text[1]);
	memset(st, 0, sizeof(*st));
}

const char *run_stop_text(struct run_stop *st, int brief)
{
	struct strbuf sb = STRBUF_INIT;
	const char *detail = st->detail && *st->detail ? st->detail : NULL;
	int r;

	if (!st->stop)
		return NULL;
	if (st->text[brief])
		return st->text[brief];
	if (!strcmp(st->stop, "trigger")) {
		const char *name = st->reason + 8, *then = strstr(st->reason, ", then ");

		strbuf_addf(&sb, "trigger %.*s fired", (int)strcspn(name, ","), name);
		/* the run stopped within the post-trigger time */
		r = st->then ? reason_of(st->then) : -1;
		if (r >= 0)
			strbuf_addf(&sb, ", then %s", reasons[r].text);
		else if (then)
			strbuf_addf(&sb, ", then %s", then + 7);
	} else if ((r = reason_of(st->stop)) >= 0) {
		strbuf_addstr(&sb, reasons[r].text);
	} else {
		strbuf_addstr(&sb, st->reason);
	}
	if (detail && !brief)
		strbuf_addf(&sb, " (%s)", detail);
	if (r >= 0 && !brief)
		strbuf_addstr(&sb, reasons[r].tail);
	st->text[brief] = strbuf_detach(&sb, NULL);
	return st->text[brief];
}
