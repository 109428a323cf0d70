// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Tasks to memory cgroups: the "mms1 cgtasks" lines (parsers/sample-line.c)
 * as the recorder writes them from a fake /proc (src/cgdump.c), and the
 * map (src/cgmap.c) they start: a fork inherits the parent's cgroup, an
 * attach of the memory hierarchy moves a task (another hierarchy's does
 * not), a reused pid forgets the dead task's cgroup, clone3 into a cgroup
 * makes the child unknown; --cgroup paths and "PATH and below".
 */
#include "config.h"
#include "cgdump.h"
#include "cgmap.h"
#include "parsers.h"
#include "util.h"
#include "tap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static struct cgmap *map;
static struct parser_set *set;
static size_t longest;
static int nlines, nrec;

static void sink(void *ctx, const struct record *r)
{
	(void)ctx;
	nrec++;
	cgmap_add(map, r);
}

static int feed(const char *line)
{
	struct record rec;
	struct parse_ctx pc = { set, NULL, &rec, NULL, 0, sink, NULL };
	char *copy = xstrdup(line);
	int r;

	memset(&rec, 0, sizeof(rec));
	r = sample_feed_line(&pc, copy, (int)strlen(copy));
	free(copy);
	return r;
}

static int to_parser(void *ctx, const char *line, size_t len)
{
	char *copy = xasprintf("%.*s", (int)len, line);

	(void)ctx;
	if (len > longest)
		longest = len;
	nlines++;
	feed(copy);
	free(copy);
	return 0;
}

static const char *path_of(int pid)
{
	const char *p = cgmap_path(map, cgmap_of(map, pid));

	return p ? p : "(unknown)";
}

static void fork_rec(int parent, int child, int64_t flags)
{
	struct record r;

	memset(&r, 0, sizeof(r));
	r.type = REC_TASK_COMM;
	r.pid = parent;
	r.task.kind = TASK_FORK;
	r.task.pid = child;
	r.task.comm = "x";
	r.task.clone_flags = flags;
	cgmap_add(map, &r);
}

static void attach_rec(int mover, int pid, int hier, const char *path)
{
	struct record r;

	memset(&r, 0, sizeof(r));
	r.type = REC_CGROUP_TASK;
	r.pid = mover;
	r.cgtask.kind = CGT_ATTACH;
	r.cgtask.pid = pid;
	r.cgtask.hier = hier;
	r.cgtask.path = path;
	cgmap_add(map, &r);
}

static void put(const char *root, const char *rel, const char *text)
{
	char *p = xasprintf("%s/%s", root, rel), *d = xstrdup(p);

	for (char *s = d + strlen(root) + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		mkdir(d, 0755);
		*s = '/';
	}
	FILE *f = fopen(p, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
	free(p);
	free(d);
}

/* A fake root: v1 with memory on hierarchy 4, a process with threads,
 * and 400 tasks in one cgroup so its pids take several lines. */
static void make_root(const char *root)
{
	static const char self[] = "5:pids:/\n4:memory:/app/a\n0::/\n";
	char rel[64];

	put(root, "proc/self/cgroup", self);
	put(root, "proc/100/cgroup", "5:pids:/x\n4:memory:/app/a\n0::/\n");
	put(root, "proc/100/task/100/stat", "");
	put(root, "proc/100/task/101/stat", "");
	put(root, "proc/100/task/102/stat", "");
	put(root, "proc/200/cgroup", "4:memory:/app/b c\n");	/* a space: encoded */
	put(root, "proc/300/cgroup", "5:pids:/\n");		/* no memory line */
	for (int i = 0; i < 400; i++) {
		snprintf(rel, sizeof(rel), "proc/%d/cgroup", 10000 + i);
		put(root, rel, "4:memory:/big\n");
	}
}

static void test_dump(void)
{
	char root[] = "/tmp/mmscope-cgmap-XXXXXX";
	struct cgdump_result res;
	int n;

	if (!mkdtemp(root)) {
		ok(0, "mkdtemp");
		return;
	}
	make_root(root);
	map = cgmap_new();
	n = cgdump_emit(root, 7, to_parser, NULL, &res);
	ok(n > 2, "lines written (%d)", n);
	ok(longest <= SAMPLER_LINE_MAX, "every line at most %d bytes (%zu)", SAMPLER_LINE_MAX,
	   longest);
	is_str(res.mode, "v1", "v1 found from proc/self/cgroup");
	is_int(res.hier, 4, "the memory hierarchy's id");
	is_int(res.tasks, 3 + 1 + 400, "tasks: threads listed, one without task/ counted once");
	is_int(res.gone, 1, "a process without a memory line counted as gone");
	is_int(res.cgroups, 3, "three cgroups");
	ok(nlines >= 4, "400 pids of one cgroup split over lines (%d lines)", nlines);
	is_int(cgmap_recorded(map), 2, "the list's end line read: complete");
	is_int(res.unread, 0, "no process left unread");
	is_str(cgmap_mode(map), "v1", "mode from the end line");
	is_str(path_of(101), "/app/a", "a thread in its process's cgroup");
	is_str(path_of(200), "/app/b c", "a path with a space decoded");
	is_str(path_of(10399), "/big", "the last of 400 tasks placed");
	is_str(path_of(300), "(unknown)", "a task without a memory line unknown");
	is_int(cgmap_tasks(map, cgmap_of(map, 10000)), 400, "tasks counted per cgroup");
	cgmap_free(map);

	/* v2: the "0::" line */
	put(root, "proc/self/cgroup", "0::/user.slice\n");
	put(root, "proc/100/cgroup", "0::/sys/x\n");
	map = cgmap_new();
	cgdump_emit(root, 8, to_parser, NULL, &res);
	is_str(res.mode, "v2", "v2 without a memory hierarchy");
	is_int(res.hier, 0, "v2's hierarchy 0");
	is_str(path_of(102), "/sys/x", "v2 path");
	cgmap_free(map);
	{
		char *cmd = xasprintf("rm -rf '%s'", root);

		if (system(cmd))
			ok(0, "cleanup");
		free(cmd);
	}
}

static void test_lines(void)
{
	map = cgmap_new();
	nrec = 0;
	is_int(feed("mms1 cgtasks 0 hier=4 path=/a pids=10,11,,12"), 0, "a list line parsed");
	is_int(nrec, 3, "one record per pid (empty items skipped)");
	is_int(cgmap_recorded(map), 1, "a list seen, not yet complete");
	nrec = 0;
	feed("mms1 cgtasks 0 hier=4 path=/b pids=13,x4");
	is_int(nrec, 0, "a bad pid list: the whole line dropped");
	feed("mms1 cgtasks 0 path=/b pids=13");
	is_int(nrec, 0, "no hier=: dropped");
	feed("mms1 cgtasks 0 hier=4 path=/b%20c pids=14");
	is_str(path_of(14), "/b c", "percent-decoded path");
	feed("mms1 cgtasks 0 done=1 hier=4 mode=v1 tasks=4 us=12");
	is_int(cgmap_recorded(map), 2, "end line: complete");
	is_int(cgmap_partial(map), 0, "nothing left out");
	is_int(cgmap_hier(map), 4, "hierarchy");
	cgmap_free(map);
	map = cgmap_new();
	feed("mms1 cgtasks 0 hier=4 path=/a pids=10");
	feed("mms1 cgtasks 0 done=1 hier=4 mode=v1 unread=3 us=2000000");
	is_int(cgmap_partial(map), 1, "unread= (the time budget): the list is partial");
	cgmap_free(map);
}

static void test_map(void)
{
	char buf[64];

	map = cgmap_new();
	attach_rec(1, 50, 4, "/early");
	is_str(path_of(50), "(unknown)", "an attach before the list (hierarchy unknown) ignored");
	feed("mms1 cgtasks 0 hier=4 path=/a pids=10");
	feed("mms1 cgtasks 0 hier=4 path=/b pids=20");
	fork_rec(10, 11, 0x11);
	is_str(path_of(11), "/a", "fork: the child in its parent's cgroup");
	fork_rec(11, 12, 0);
	is_str(path_of(12), "/a", "and its child");
	attach_rec(1, 11, 4, "/b");
	is_str(path_of(11), "/b", "attach of the memory hierarchy moves");
	is_str(path_of(12), "/a", "a move does not move the children");
	attach_rec(1, 11, 5, "/elsewhere");
	is_str(path_of(11), "/b", "another hierarchy's attach ignored");
	fork_rec(11, 13, 0);
	is_str(path_of(13), "/b", "a child after the move: the new cgroup");
	/* pid reuse: 12 died, a task of unknown parent got its pid */
	fork_rec(999, 12, 0);
	is_str(path_of(12), "(unknown)", "pid reuse: the new task's cgroup, not the dead one's");
	fork_rec(20, 12, 0);
	is_str(path_of(12), "/b", "reused again by /b's task");
	fork_rec(10, 14, 0x200000000LL);
	is_str(path_of(14), "(unknown)", "CLONE_INTO_CGROUP: unknown, not the parent's");
	is_int(cgmap_tasks(map, cgmap_of(map, 11)), 4, "tasks placed in /b (20, 11, 13, 12)");
	attach_rec(1, 11, 4, "/b");
	is_int(cgmap_tasks(map, cgmap_of(map, 11)), 4, "an attach to the same cgroup is no move");
	/* scope */
	is_str(cgmap_scope_path("/sys/fs/cgroup/memory/a/", buf, sizeof(buf)), "/a",
	       "the v1 mount taken off, trailing '/' removed");
	is_str(cgmap_scope_path("a/b", buf, sizeof(buf)), "/a/b", "a leading '/' added");
	is_str(cgmap_scope_path("/sys/fs/cgroup", buf, sizeof(buf)), "/", "the mount: the root");
	attach_rec(1, 30, 4, "/a/x");
	attach_rec(1, 31, 4, "/ab");
	ok(cgmap_under(map, cgmap_of(map, 30), "/a"), "/a/x is below /a");
	ok(!cgmap_under(map, cgmap_of(map, 31), "/a"), "/ab is not below /a");
	ok(cgmap_under(map, cgmap_of(map, 10), "/a"), "/a is itself");
	ok(cgmap_under(map, cgmap_of(map, 31), "/"), "everything is below /");
	ok(!cgmap_under(map, -1, "/"), "unknown is below nothing");
	cgmap_free(map);
}

int main(void)
{
	set = parser_set_new(NULL);
	test_lines();
	test_map();
	test_dump();
	parser_set_free(set);
	return tap_done();
}
