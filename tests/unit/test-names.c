// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Task names (issue 17.14: "<...>-32560" where the task was anon-touch):
 *  - the tasks parsers on every kernel's task_newtask, task_rename and
 *    sched_process_exec formats under tests/data/kernels/ (and on the
 *    6.13 task_rename without pid, which must not name the writer);
 *  - the analysis' pid -> comm fallback on hand-built records: a stall
 *    whose cmdlines name is "<...>" gets the learned name, a pid never
 *    named keeps "<...>", a learned name beats a stale cmdlines one, a
 *    record without a name (its parser did not ask) stays without;
 *  - cmdlines_update(): saved_cmdlines wins, /proc adds the live tasks
 *    (threads too), earlier snapshots add the exited ones.
 */
#include "config.h"
#include "analysis.h"
#include "cmdlines.h"
#include "model-reclaim.h"
#include "parsers.h"
#include "util.h"
#include "tap.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static struct record last;
static int nrec;

static void sink(void *ctx, const struct record *r)
{
	(void)ctx;
	last = *r;
	nrec++;
}

static const char *fmt_events[][2] = {
	{ "task", "task_newtask" }, { "task", "task_rename" },
	{ "sched", "sched_process_exec" },
};

/* The 6.13 layout (e3f6a42272e0 removed pid; a 2026 fix restored it). */
static const char rename_nopid[] =
	"name: task_rename\nID: 7\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:char oldcomm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:char newcomm[16];\toffset:24;\tsize:16;\tsigned:0;\n"
	"\tfield:short oom_score_adj;\toffset:40;\tsize:2;\tsigned:1;\n\n"
	"print fmt: \"oldcomm=%s newcomm=%s oom_score_adj=%hd\", REC->oldcomm, "
	"REC->newcomm, REC->oom_score_adj\n";

/* Builds one event: common_pid 4242, int fields, a char[] or __data_loc
 * string; parses it. Returns the records emitted (-1: no such event). */
static int run(struct tep_handle *tep, struct parser_set *set, const char *sys,
	       const char *name, const char *ifield, int ival, const char *sfield,
	       const char *sval)
{
	struct tep_event *ev = tep_find_event_by_name(tep, sys, name);
	unsigned char data[256];
	struct tep_record rec;
	struct tep_format_field *f;
	int size = 64;

	if (!ev)
		return -1;
	memset(data, 0, sizeof(data));
	memset(&rec, 0, sizeof(rec));
	memcpy(data, &(uint16_t){ (uint16_t)ev->id }, 2);
	memcpy(data + 4, &(int32_t){ 4242 }, 4);
	if (ifield && (f = tep_find_field(ev, ifield)))
		memcpy(data + f->offset, &ival, 4);
	f = tep_find_field(ev, sfield);
	if (f && (f->flags & TEP_FIELD_IS_DYNAMIC)) {
		uint32_t loc = (uint32_t)size | (uint32_t)(strlen(sval) + 1) << 16;

		memcpy(data + f->offset, &loc, 4);
		memcpy(data + size, sval, strlen(sval) + 1);
		size += (int)strlen(sval) + 1;
	} else if (f) {
		memcpy(data + f->offset, sval, strlen(sval) < (size_t)f->size ?
		       strlen(sval) : (size_t)f->size);
	}
	rec.data = data;
	rec.size = size;
	nrec = 0;
	memset(&last, 0, sizeof(last));
	parser_set_parse(set, ev, &rec, 1000, 0, sink, NULL);
	return nrec;
}

static int got(int pid, const char *comm)
{
	return nrec == 1 && last.type == REC_TASK_COMM && last.task.pid == pid &&
	       last.task.comm && !strcmp(last.task.comm, comm);
}

static void test_parsers(const char *src)
{
	char *dir = xasprintf("%s/tests/data/kernels", src);
	DIR *d = opendir(dir);
	struct dirent *e;
	int kernels = 0;

	while (d && (e = readdir(d))) {
		struct tep_handle *tep;
		struct parser_set *set;
		int n = 0;

		if (e->d_name[0] == '.')
			continue;
		tep = tep_alloc();
		tep_set_long_size(tep, 8);
		for (size_t i = 0; i < sizeof(fmt_events) / sizeof(fmt_events[0]); i++) {
			char *p = xasprintf("%s/%s/events/%s/%s/format", dir, e->d_name,
					    fmt_events[i][0], fmt_events[i][1]);
			struct strbuf sb = STRBUF_INIT;

			if (!read_file(p, &sb) && sb.len &&
			    !tep_parse_event(tep, sb.buf, sb.len, fmt_events[i][0]))
				n++;
			strbuf_release(&sb);
			free(p);
		}
		if (!n) {
			tep_free(tep);
			continue;
		}
		kernels++;
		set = parser_set_new(tep);
		ok(n == 3, "%s: the three task formats parse (%d)", e->d_name, n);
		ok(run(tep, set, "task", "task_newtask", "pid", 31337, "comm", "sh") &&
		   got(31337, "sh"), "%s task_newtask: the child's pid and comm", e->d_name);
		if (run(tep, set, "task", "task_rename", "pid", 555, "newcomm",
			"worker-0123456") >= 0)
			ok(got(555, "worker-0123456"), "%s task_rename: pid, newcomm",
			   e->d_name);
		ok(run(tep, set, "sched", "sched_process_exec", "pid", 777, "filename",
		       "/usr/lib/mmscope/anon-touch-with-a-long-name") &&
		   got(777, "anon-touch-with"),
		   "%s sched_process_exec: basename cut to 15 characters", e->d_name);
		ok(run(tep, set, "sched", "sched_process_exec", "pid", 778, "filename",
		       "/dev/fd/3") == 0, "%s sched_process_exec: fexecve left to cmdlines",
		   e->d_name);
		is_int(parser_set_nnotes(set), 0, "no field missing");
		parser_set_free(set);
		tep_free(tep);
	}
	if (d)
		closedir(d);
	ok(kernels >= 1, "%d kernels with the task formats", kernels);
	free(dir);

	{	/* 6.13's task_rename: common_pid may be the writer, not the task */
		struct tep_handle *tep = tep_alloc();
		struct parser_set *set;

		tep_set_long_size(tep, 8);
		ok(!tep_parse_event(tep, rename_nopid, sizeof(rename_nopid) - 1, "task"),
		   "6.13 task_rename format parses");
		set = parser_set_new(tep);
		is_int(run(tep, set, "task", "task_rename", NULL, 0, "newcomm", "other"), 0,
		       "task_rename without pid names nobody");
		parser_set_free(set);
		tep_free(tep);
	}
}

static struct analysis *an;

static void feed_comm(uint64_t ts, int pid, const char *comm)
{
	struct record r = { .type = REC_TASK_COMM, .ts = ts, .pid = 1 };

	r.task.kind = TASK_EXEC;
	r.task.pid = pid;
	r.task.comm = comm;
	analysis_feed(an, &r);
}

static void stall(uint64_t ts, int pid, const char *comm, uint64_t ns)
{
	struct record b = { .type = REC_RECLAIM_BEGIN, .ts = ts, .pid = pid, .comm = comm };
	struct record e = { .type = REC_RECLAIM_END, .ts = ts + ns, .pid = pid };

	b.rbegin.kind = RK_MEMCG;
	e.rend.kind = RK_MEMCG;
	analysis_feed(an, &b);
	analysis_feed(an, &e);
}

static const char *top_comm(int pid)
{
	static struct reclaim_task t[16];
	int n = reclaim_model_top_tasks(analysis_reclaim(an), t, 16);

	for (int i = 0; i < n; i++)
		if (t[i].pid == pid)
			return t[i].comm;
	return "(absent)";
}

static struct record tapped, tapped_end;

static void tap(void *ctx, const struct record *r)
{
	(void)ctx;
	if (r->type == REC_RECLAIM_BEGIN && r->pid == 400)
		tapped = *r;
	if (r->type == REC_RECLAIM_END && r->pid == 200)
		tapped_end = *r;
}

static void test_fallback(void)
{
	struct analysis_opts o;

	analysis_opts_default(&o);
	o.tap = tap;
	an = analysis_new_empty(&o);
	ok(analysis_comm(an, 100) == NULL, "nothing learned yet");
	stall(1000, 100, "<...>", 5000);		/* before its name came */
	feed_comm(2000, 200, "anon-touch");		/* exec */
	stall(3000, 200, "<...>", 7000);		/* cmdlines forgot it */
	stall(4000, 300, "<...>", 6000);		/* never named */
	feed_comm(5000, 400, "new-name");
	stall(6000, 400, "old-name", 4000);		/* stale cmdlines name */
	feed_comm(7000, 200, "renamed");
	analysis_finish(an, 20000);

	is_str(top_comm(200), "anon-touch", "a '<...>' stall gets the learned name");
	is_str(top_comm(300), "<...>", "a pid never named keeps '<...>'");
	is_str(top_comm(100), "<...>", "a name learned later is not back-dated");
	is_str(top_comm(400), "new-name", "the learned name beats a stale cmdlines one");
	is_str(analysis_comm(an, 200), "renamed", "analysis_comm: the last name");
	ok(analysis_comm(an, 300) == NULL, "analysis_comm: NULL for a pid never named");
	is_str(tapped.comm ? tapped.comm : "(null)", "new-name", "the tap sees the name too");
	{	/* a record whose parser asked for no name stays without */
		struct record r = { .type = REC_RECLAIM_END, .ts = 9000, .pid = 200 };

		r.rend.kind = RK_MEMCG;
		tapped_end.comm = "unset";
		analysis_feed(an, &r);
		ok(tapped_end.ts == 9000 && !tapped_end.comm,
		   "a record its parser gave no name stays without");
	}
	analysis_free(an);
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void test_cmdlines(void)
{
	char root[] = "/tmp/mmscope-names.XXXXXX";
	struct cmdlines cl;
	struct strbuf out = STRBUF_INIT;
	const char *saved = "10 saved-ten\n11 saved-eleven\nbad line\n";
	size_t n;

	ok(mkdtemp(root) != NULL, "temporary /proc");
	{
		char *p;

		/* process 11 (named otherwise in saved_cmdlines), 20 with
		 * thread 21; "self" and files are not tasks */
		const char *dirs[] = { "11", "11/task", "11/task/11", "20", "20/task",
				       "20/task/20", "20/task/21", "self" };

		for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
			p = xasprintf("%s/%s", root, dirs[i]);
			mkdir(p, 0755);
			free(p);
		}
		p = xasprintf("%s/11/task/11/comm", root);
		put(p, "proc-eleven\n");
		free(p);
		p = xasprintf("%s/20/task/20/comm", root);
		put(p, "anon-touch\n");
		free(p);
		p = xasprintf("%s/20/task/21/comm", root);
		put(p, "anon-thread\n");
		free(p);
	}
	cmdlines_init(&cl);
	n = cmdlines_update(&cl, saved, strlen(saved), root, &out);
	is_int((int)n, 4, "saved 2 + /proc 2 new (11 already named)");
	ok(strstr(out.buf, "10 saved-ten\n") && strstr(out.buf, "11 saved-eleven\n") &&
	   !strstr(out.buf, "proc-eleven") && strstr(out.buf, "20 anon-touch\n") &&
	   strstr(out.buf, "21 anon-thread\n"), "saved_cmdlines wins, /proc adds threads");
	strbuf_reset(&out);
	/* later: saved_cmdlines overflowed (only 30), 20 and 21 exited */
	{
		char *p = xasprintf("rm -rf %s/20", root);

		ok(system(p) == 0, "task 20 exits");
		free(p);
	}
	n = cmdlines_update(&cl, "30 thirty\n", 10, root, &out);
	is_int((int)n, 5, "earlier snapshots keep the exited tasks");
	ok(strstr(out.buf, "30 thirty\n") && strstr(out.buf, "10 saved-ten\n") &&
	   strstr(out.buf, "11 proc-eleven\n") && strstr(out.buf, "20 anon-touch\n") &&
	   strstr(out.buf, "21 anon-thread\n"),
	   "every name seen is in the section; a live task's name beats an old one");
	strbuf_release(&out);
	cmdlines_release(&cl);
	{
		char *p = xasprintf("rm -rf %s", root);

		if (system(p))
			ok(0, "cleanup");
		free(p);
	}
}

int main(void)
{
	const char *src = getenv("top_srcdir");

	test_parsers(src ? src : ".");
	test_fallback();
	test_cmdlines();
	return tap_done();
}
