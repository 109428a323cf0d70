// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * How a recording ended (src/run-stop.h), for every stop word: the word
 * and its "then" parsed from the metadata the recorder (or mmscope
 * recover) writes, the text the report prints, and run_stop_ending():
 * whether the recorder ran a command, whether it ended it, whether the
 * data is complete up to the stop. Then the command's outcome through
 * the metadata: runctx_outcome_meta() written, parsed back by run-stop
 * and by the run model (run_model_outcome_meta), arguments with spaces
 * and '%' included; and two files of one run (the stop is the last's).
 */
#include "config.h"
#include "model-run.h"
#include "run-stop.h"
#include "runctx.h"
#include "tap.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct want {
	const char *what;
	const char *meta;
	const char *stop, *then;
	const char *text;	/* run_stop_text(st, 0); NULL: none */
	const char *brief;	/* run_stop_text(st, 1) */
	int command, ended, complete;	/* run_stop_ending */
};

#define CMD_ENDED_BY_US "command=sleep 300\ncommand_argv=sleep 300\ncommand_pid=77\n" \
	"command_state=ended\ncommand_signal=15\ncommand_core=0\ncommand_elapsed_us=2500000\n" \
	"command_user_us=1000\ncommand_sys_us=2000\ncommand_maxrss_kb=1800\n" \
	"command_ended_by_recorder=1\n"
#define CMD_EXITED "command=true\ncommand_argv=true\ncommand_pid=78\ncommand_state=ended\n" \
	"command_exit=0\ncommand_elapsed_us=1000\ncommand_user_us=0\ncommand_sys_us=0\n" \
	"command_maxrss_kb=900\ncommand_ended_by_recorder=0\n"
#define CMD_RUNNING "command=sleep 300\ncommand_argv=sleep 300\ncommand_pid=79\n" \
	"command_state=running\n"

static const struct want wants[] = {
	{ "command-exit", "mmscope=t\n" CMD_EXITED "spool_state=complete\nstop_reason=command exited\n",
	  "command-exit", NULL, "the command exited", "the command exited", 1, 0, 1 },
	{ "duration", "mmscope=t\n" CMD_ENDED_BY_US "spool_state=complete\nstop_reason=duration reached\n",
	  "duration", NULL, "--duration reached; mmscope ended the command", "--duration reached",
	  1, 1, 1 },
	{ "signal, no command", "mmscope=t\nspool_state=complete\nstop_reason=signal\nstop_detail=Interrupt\n",
	  "signal", NULL, "a signal (Interrupt)", "a signal", 0, 0, 1 },
	{ "signal that reached the command too (not ended by us)",
	  "mmscope=t\ncommand=sleep 9\ncommand_state=ended\ncommand_signal=2\n"
	  "command_ended_by_recorder=0\nstop_reason=signal\nstop_detail=Interrupt\n",
	  "signal", NULL, "a signal (Interrupt)", "a signal", 1, 0, 1 },
	{ "max-size", "mmscope=t\n" CMD_ENDED_BY_US "stop_reason=max-size reached\nstop_detail=1048576 bytes\n",
	  "max-size", NULL, "--max-size reached (1048576 bytes); mmscope ended the command",
	  "--max-size reached", 1, 1, 1 },
	{ "disk-full", "mmscope=t\n" CMD_ENDED_BY_US "stop_reason=filesystem full\n"
	  "stop_detail=4096 bytes left on the spool's filesystem\n",
	  "disk-full", NULL, "filesystem full (4096 bytes left on the spool's filesystem): the "
	  "recording ended early; mmscope ended the command", "filesystem full", 1, 1, 1 },
	{ "disk-full, older file", "mmscope=t\ncommand=sleep 300\nstop_reason=filesystem full\n",
	  "disk-full", NULL, "filesystem full: the recording ended early", "filesystem full",
	  1, -1, 1 },
	{ "error", "mmscope=t\n" CMD_ENDED_BY_US "stop_reason=error\nstop_detail=switching from f-1.dat\n",
	  "error", NULL, "an error (switching from f-1.dat): the recording ended early; mmscope "
	  "ended the command", "an error", 1, 1, 1 },
	{ "max-triggers", "mmscope=t\nstop_reason=max-triggers reached\nstop_detail=3 files\n",
	  "max-triggers", NULL, "--max-triggers reached (3 files)", "--max-triggers reached",
	  0, 0, 1 },
	{ "switch-output", "mmscope=t\n" CMD_RUNNING "switch_output=2\ncpustat=window\n"
	  "spool_state=complete\nstop_reason=switch-output\n",
	  "switch-output", NULL, "switch-output: the next file continues the run", "switch-output",
	  1, 0, 1 },
	{ "trigger", "mmscope=t\n" CMD_RUNNING "trigger_name=oom\nstop_reason=trigger:oom\n",
	  "trigger", NULL, "trigger oom fired", "trigger oom fired", 1, 0, 1 },
	{ "trigger, then the command exited", "mmscope=t\n" CMD_EXITED "trigger_name=oom\n"
	  "stop_reason=trigger:oom, then command exited\n",
	  "trigger", "command-exit", "trigger oom fired, then the command exited",
	  "trigger oom fired, then the command exited", 1, 0, 1 },
	{ "trigger, then a signal", "mmscope=t\n" CMD_ENDED_BY_US "trigger_name=oom\n"
	  "stop_reason=trigger:oom, then signal\nstop_detail=Terminated\n",
	  "trigger", "signal", "trigger oom fired, then a signal (Terminated); mmscope ended the "
	  "command", "trigger oom fired, then a signal", 1, 1, 1 },
	{ "trigger, the last of --max-triggers", "mmscope=t\n" CMD_RUNNING "trigger_name=oom\n"
	  "stop_reason=trigger:oom, then max-triggers reached\nstop_detail=3 files\n",
	  "trigger", "max-triggers", "trigger oom fired, then --max-triggers reached (3 files)",
	  "trigger oom fired, then --max-triggers reached", 1, -1, 1 },
	{ "recovered: killed while recording", "mmscope=t\n" CMD_RUNNING "spool_state=recording\n"
	  "stop_reason=recovered\nstop_detail=from the spool of a recorder that did not finish "
	  "(it said: running)\nspool_stop_reason=running\ncpu_end_ns=0:5,1:-\n",
	  "recovered", NULL, "recovered by mmscope recover: the recorder was killed while "
	  "recording (SIGKILL, a crash or a power loss: which is not recorded): the data ends "
	  "where its spool did", "recovered by mmscope recover", 1, 0, 0 },
	{ "recovered: killed while stopping on SIGTERM", "mmscope=t\n" CMD_RUNNING
	  "spool_state=stopping\nstop_reason=recovered\nstop_detail=from the spool of a recorder "
	  "that did not finish (it said: signal; Terminated)\nspool_stop_reason=signal\n"
	  "spool_stop_detail=Terminated\n",
	  "recovered", NULL, "recovered by mmscope recover: the recorder was killed while "
	  "stopping after a signal (Terminated), before it read its last pages: the data ends "
	  "where its spool did", "recovered by mmscope recover", 1, -1, 0 },
	{ "recovered: every page read, the file not written", "mmscope=t\n" CMD_ENDED_BY_US
	  "spool_state=complete\nstop_reason=recovered\nstop_detail=from the spool of a recorder "
	  "that did not finish (it said: error; switching from f-1.dat)\n"
	  "spool_stop_reason=error\nspool_stop_detail=switching from f-1.dat\n",
	  "recovered", NULL, "recovered by mmscope recover: the recorder had stopped after an "
	  "error (switching from f-1.dat) and read every page, but did not write this file",
	  "recovered by mmscope recover", 1, 1, 1 },
	{ "recovered: a finished part", "mmscope=t\n" CMD_RUNNING "spool_state=complete\n"
	  "stop_reason=recovered\nstop_detail=from the spool of a recorder that did not finish "
	  "(it said: switch-output)\nspool_stop_reason=switch-output\n",
	  "recovered", NULL, "recovered by mmscope recover: a --switch-output part the recorder "
	  "had finished but not written (the next file continues the run)",
	  "recovered by mmscope recover", 1, 0, 1 },
	{ "recovered by an older recover", "mmscope=t\ncommand=sleep 300\nstop_reason=recovered\n"
	  "stop_detail=from the spool of a recorder that did not finish (it said: running)\n",
	  "recovered", NULL, "recovered by mmscope recover: the recorder was killed while "
	  "recording (SIGKILL, a crash or a power loss: which is not recorded): the data ends "
	  "where its spool did", "recovered by mmscope recover", 1, 0, 0 },
	{ "killed (an older recover: stop_reason=running)", "mmscope=t\ncommand=x\nstop_reason=running\n",
	  "killed", NULL, "the recorder was killed, recovered from its spool: the data ends where "
	  "the spool did", "the recorder was killed, recovered from its spool", 1, 0, 0 },
	{ "other", "mmscope=t\nstop_reason=cosmic ray\n",
	  "other", NULL, "cosmic ray", "cosmic ray", 0, 0, 1 },
	{ "no stop_reason (an older mmscope)", "mmscope=t\ncommand=x\n",
	  NULL, NULL, NULL, NULL, 1, -1, -1 },
	{ "trace-cmd's file: no metadata", NULL, NULL, NULL, NULL, NULL, -1, -1, -1 },
};

static void check_word(const struct want *w)
{
	struct run_stop st;
	struct run_ending e;
	char what[200];

	run_stop_parse(&st, w->meta);
#define WHAT(s) (snprintf(what, sizeof(what), "%s: %s", w->what, s), what)
	if (w->stop)
		is_str(st.stop, w->stop, WHAT("the word"));
	else
		ok(!st.stop, "%s: no word", w->what);
	if (w->then)
		is_str(st.then, w->then, WHAT("then"));
	else
		ok(!st.then, "%s: no then", w->what);
	if (w->text) {
		is_str(run_stop_text(&st, 0), w->text, WHAT("text"));
		is_str(run_stop_text(&st, 1), w->brief, WHAT("brief"));
	} else {
		ok(!run_stop_text(&st, 0), "%s: no text", w->what);
	}
	run_stop_ending_of(&st, &e);
	ok(e.stop == st.stop && e.then == st.then, "%s: the ending's words are run_stop's", w->what);
	is_int(e.command, w->command, WHAT("ending: a command"));
	is_int(e.ended_command, w->ended, WHAT("ending: the recorder ended it"));
	is_int(e.complete, w->complete, WHAT("ending: complete up to the stop"));
	run_stop_release(&st);
	/* the one-call form: the same */
	run_stop_ending(w->meta, w->meta, &e);
	ok(e.command == w->command && e.ended_command == w->ended && e.complete == w->complete,
	   "%s: run_stop_ending(meta, meta) agrees", w->what);
#undef WHAT
}

/* The outcome written as metadata keys and read back. */
static void check_outcome_meta(void)
{
	char *argv[] = { "sh", "-c", "echo 50% done\tnow", "", NULL };
	struct runctx_outcome out = { 0 };
	struct strbuf sb = STRBUF_INIT;
	struct run_stop st;
	struct run_model *m;
	const struct run_outcome *o;

	out.argv = argv;
	out.pid = 4242;
	out.reaped = 1;
	out.status = 3 << 8;	/* exited 3 (Linux's wait status) */
	out.ru.ru_utime.tv_sec = 1;
	out.ru.ru_utime.tv_usec = 500;
	out.ru.ru_stime.tv_usec = 250;
	out.ru.ru_maxrss = 2048;
	out.elapsed_ns = 1234567000;
	out.stopped_by_recorder = 0;
	strbuf_addstr(&sb, "mmscope=t\ncommand=sh -c echo 50% done\tnow \n");
	runctx_outcome_meta(&out, &sb);
	strbuf_addstr(&sb, "stop_reason=command exited\n");
	ok(strstr(sb.buf, "command_argv=sh -c echo%2050%25%20done%09now \n") != NULL,
	   "command_argv: each argument encoded, one space between");
	run_stop_parse(&st, sb.buf);
	is_int(st.cmd.argc, 4, "argv: 4 arguments, the empty last one too");
	is_str(st.cmd.argc > 2 ? st.cmd.argv[2] : NULL, "echo 50% done\tnow", "argv: decoded");
	is_str(st.cmd.argc > 3 ? st.cmd.argv[3] : NULL, "", "argv: the empty argument");
	is_str(st.cmd.state, "ended", "state ended");
	ok(st.cmd.exit.known && st.cmd.exit.v == 3 && !st.cmd.signal.known, "exit 3, no signal");
	ok(st.cmd.pid.known && st.cmd.pid.v == 4242, "pid");
	ok(st.cmd.elapsed_us.v == 1234567 && st.cmd.user_us.v == 1000500 &&
	   st.cmd.sys_us.v == 250 && st.cmd.maxrss_kb.v == 2048, "elapsed, user, sys, max RSS");
	ok(st.cmd.ended_by_recorder.known && !st.cmd.ended_by_recorder.v, "not ended by mmscope");
	run_stop_release(&st);

	/* the run model without an outcome line takes them */
	m = run_model_new();
	o = run_model_outcome(m);
	ok(!o->known, "model: no outcome line, nothing known");
	o = run_model_outcome_meta(m, sb.buf);
	ok(o->known && o->from_meta && !o->running, "model: known from the metadata");
	ok(o->exit.known && o->exit.v == 3 && !o->signal.known, "model: exit 3");
	ok(o->argc == 4 && !strcmp(o->argv[0], "sh") && !strcmp(o->argv[2], "echo 50% done\tnow"),
	   "model: argv");
	ok(o->elapsed_us.v == 1234567 && o->maxrss_kb.v == 2048 && o->pid.v == 4242 &&
	   o->stopped_by_recorder.known && !o->stopped_by_recorder.v, "model: figures");
	ok(run_model_outcome_meta(m, NULL) == run_model_outcome(m), "model: NULL meta: the line's");

	/* ended by the recorder on a signal, core dumped */
	strbuf_reset(&sb);
	out.status = 15 | 0x80;
	out.stopped_by_recorder = 1;
	runctx_outcome_meta(&out, &sb);
	strbuf_addstr(&sb, "command=sh\nstop_reason=duration reached\n");
	o = run_model_outcome_meta(m, sb.buf);
	ok(o->known && o->signal.known && o->signal.v == 15 && !o->exit.known &&
	   o->core.known && o->core.v == 1 && o->stopped_by_recorder.v == 1,
	   "model: signal 15, core, ended by mmscope");

	/* still running: not known, running, the pid */
	strbuf_reset(&sb);
	out.reaped = 0;
	runctx_outcome_meta(&out, &sb);
	ok(strstr(sb.buf, "command_state=running\n") && !strstr(sb.buf, "command_exit") &&
	   !strstr(sb.buf, "command_elapsed_us"), "running: state, no outcome keys");
	strbuf_addstr(&sb, "command=sh\nstop_reason=switch-output\n");
	o = run_model_outcome_meta(m, sb.buf);
	ok(!o->known && o->running && o->pid.v == 4242 && o->argc == 4 && !o->elapsed_us.known,
	   "model: running, its pid and argv, nothing else");
	run_model_free(m);
	strbuf_release(&sb);
}

/* Two files of one run: the trigger from the first, the stop and the
 * command's end from the last. */
static void check_two_files(void)
{
	const char *first = "mmscope=t\n" CMD_RUNNING "switch_output=1\nstop_reason=switch-output\n";
	const char *last = "mmscope=t\n" CMD_ENDED_BY_US "switch_output=2\nstop_reason=signal\n"
			   "stop_detail=Terminated\n";
	struct run_stop st;
	struct run_ending e;

	run_stop_parse2(&st, first, last);
	is_str(st.stop, "signal", "two files: the last one's stop");
	is_str(st.cmd.state, "ended", "two files: the last one's command state");
	is_str(run_stop_text(&st, 0), "a signal (Terminated); mmscope ended the command",
	       "two files: text");
	run_stop_release(&st);
	run_stop_ending(first, last, &e);
	ok(e.command == 1 && e.ended_command == 1 && e.complete == 1 && !strcmp(e.stop, "signal"),
	   "two files: ending");
	run_stop_ending(first, NULL, &e);
	ok(!strcmp(e.stop, "switch-output") && e.ended_command == 0,
	   "the first file alone: a part, the command running on");
}

int main(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(wants); i++)
		check_word(&wants[i]);
	check_outcome_meta();
	check_two_files();
	return tap_done();
}
