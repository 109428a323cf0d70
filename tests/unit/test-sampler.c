// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The sampler against a fake /proc tree: long vmstat sets split into
 * lines of at most 1000 bytes that repeat the prefix, later sets carry
 * only changed fields, missing sources are listed once, and a failing
 * trace_marker write (EBADF from a full ring) drops the rest of the set
 * without the line buffer running away; zswap's string parameters and
 * why its debugfs counters are missing.
 */
#include "config.h"
#include "sampler.h"
#include "tap.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/xattr.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/*
 * The kernel's seq_file read gives about a page per call whatever is
 * asked (a 4,132-byte /proc/vmstat comes as 4,091 then 41 bytes); a
 * regular file in the fake root gives all. This program's pread, which
 * the sampler's calls bind to, behaves like seq_file: at most
 * SHORT_READ bytes per call.
 */
#define SHORT_READ 4091
static int short_reads = 1;

ssize_t pread(int fd, void *buf, size_t count, off_t offset)
{
	if (short_reads && count > SHORT_READ)
		count = SHORT_READ;
	return syscall(SYS_pread64, fd, buf, count, offset);
}

struct sink {
	char *lines[4096];
	int n;
	int fail_after;		/* 0: never */
	size_t longest;
};

static int collect(void *ctx, const char *line, size_t len)
{
	struct sink *k = ctx;

	if (k->fail_after && k->n >= k->fail_after) {
		errno = EBADF;
		return -1;
	}
	if (k->n < 4096)
		k->lines[k->n++] = xasprintf("%.*s", (int)len, line);
	if (len > k->longest)
		k->longest = len;
	return 0;
}

static void sink_reset(struct sink *k)
{
	for (int i = 0; i < k->n; i++)
		free(k->lines[i]);
	memset(k, 0, sizeof(*k));
}

static int count_prefix(const struct sink *k, const char *prefix)
{
	int n = 0;

	for (int i = 0; i < k->n; i++)
		n += !strncmp(k->lines[i], prefix, strlen(prefix));
	return n;
}

static int count_kv(const struct sink *k, const char *prefix)
{
	int n = 0;

	for (int i = 0; i < k->n; i++)
		if (!strncmp(k->lines[i], prefix, strlen(prefix)))
			for (const char *p = k->lines[i]; (p = strchr(p, '=')); p++)
				n++;
	return n;
}

static void write_vmstat(const char *root, int bump)
{
	char *p = xasprintf("%s/proc/vmstat", root);
	FILE *f = fopen(p, "w");

	for (int i = 0; i < 300; i++)
		fprintf(f, "a_rather_long_counter_name_%03d %d\n", i, i < 5 ? i + bump : i);
	fclose(f);
	free(p);
}

static int count_str(const struct sink *k, const char *prefix, const char *str)
{
	int n = 0;

	for (int i = 0; i < k->n; i++)
		n += !strncmp(k->lines[i], prefix, strlen(prefix)) && strstr(k->lines[i], str);
	return n;
}

static void put(const char *root, const char *path, const char *text)
{
	char *p = xasprintf("mkdir -p \"$(dirname '%s%s')\"", root, path);
	FILE *f;

	if (system(p))
		{ /* fopen below fails and the test with it */ }
	free(p);
	p = xasprintf("%s%s", root, path);
	f = fopen(p, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
	free(p);
}

/* zswap parameters without its debugfs counters: the reason, in set 0. */
static void test_zswap(const char *root)
{
	struct sampler_opts o = { .root = root };
	struct sampler *s;
	struct sink k = { 0 };
	char *p;

	put(root, "/sys/module/zswap/parameters/enabled", "Y\n");
	put(root, "/sys/module/zswap/parameters/compressor", "lz4\n");
	p = xasprintf("%s/sys/kernel/debug", root);
	mkdir(p, 0700);
	free(p);
	s = sampler_new(&o);
	sampler_run(s, collect, &k);
	is_int(count_str(&k, "mms1 zswap 0 ", "enabled=Y compressor=lz4"), 1,
	       "zswap: enabled and compressor as strings");
	is_int(count_str(&k, "mms1 missing 0 ", "why_zswap_pool=debugfs_not_mounted"), 1,
	       "zswap: an empty /sys/kernel/debug is debugfs not mounted");
	sink_reset(&k);
	sampler_free(s);

	put(root, "/sys/kernel/debug/bdi", "");
	s = sampler_new(&o);
	sampler_run(s, collect, &k);
	is_int(count_str(&k, "mms1 missing 0 ", "why_zswap_pool=no_/sys/kernel/debug/zswap"), 1,
	       "zswap: debugfs mounted without zswap's directory");
	sink_reset(&k);
	sampler_free(s);

	put(root, "/sys/kernel/debug/zswap/stored_pages", "5\n");
	s = sampler_new(&o);
	sampler_run(s, collect, &k);
	is_int(count_str(&k, "mms1 ", "why_zswap_pool"), 0, "zswap: counters there, no reason");
	is_int(count_str(&k, "mms1 zswap 0 ", "stored_pages=5"), 1, "zswap: debugfs counters");
	sink_reset(&k);
	sampler_free(s);
}

/* /proc/pagetypeinfo: every full set; a routine set within 10 s of the
 * last read has none. A file that appears later is found. */
static void test_pagetype(const char *root)
{
	struct sampler_opts o = { .root = root };
	struct sampler *s;
	struct sink k = { 0 };

	put(root, "/proc/pagetypeinfo",
	    "Page block order: 9\n"
	    "Free pages count per migrate type at order       0      1\n"
	    "Node    0, zone   Normal, type    Unmovable      5      3\n");
	s = sampler_new(&o);
	sampler_run(s, collect, &k);
	is_int(count_str(&k, "mms1 pagetype 0 ", "type=Unmovable free=5,3"), 1,
	       "pagetype: in a full set");
	sink_reset(&k);
	sampler_run_routine(s, collect, &k);
	is_int(count_str(&k, "mms1 pagetype", ""), 0, "pagetype: not in a routine set soon after");
	ok(k.n && !strncmp(k.lines[k.n - 1], "mms1 end 1 ", 11), "the routine set still ends");
	sink_reset(&k);
	put(root, "/proc/pagetypeinfo",
	    "Node    0, zone   Normal, type    Unmovable      7      3\n");
	sampler_run(s, collect, &k);
	is_int(count_str(&k, "mms1 pagetype 2 ", "type=Unmovable free=7,3"), 1,
	       "pagetype: a full set reads it again, fresh (the file is kept open)");
	sink_reset(&k);
	/* a source file missing at first, there later: looked for again */
	for (int i = 0; i < 20; i++) {
		if (i == 3)
			put(root, "/proc/pressure/memory",
			    "some avg10=1.00 avg60=0.00 avg300=0.00 total=42\n");
		sampler_run_routine(s, collect, &k);
	}
	ok(count_str(&k, "mms1 psi ", "some_total=42") > 0, "a file that appeared later is read");
	sink_reset(&k);
	sampler_free(s);
}

/* A 64 KB vmstat of 20-digit values and a four-node pagetypeinfo,
 * read through page-sized reads: every field, every node, every digit. */
static void test_long_files(const char *root)
{
	struct sampler_opts o = { .root = root };
	struct sampler *s;
	struct sink k = { 0 };
	struct strbuf pt = STRBUF_INIT;
	char *p = xasprintf("%s/proc/vmstat", root), want[64];
	FILE *f = fopen(p, "w");
	int n = 0;
	long size;

	/* 18446744073709551615 is the largest unsigned long: a long long
	 * cannot hold it */
	for (; f && ftell(f) < 64 * 1024; n++)
		fprintf(f, "counter_%05d %llu\n", n, 18446744073709551614ull - (unsigned)n);
	size = f ? ftell(f) : 0;
	if (f)
		fclose(f);
	free(p);
	ok(size >= 64 * 1024, "fake vmstat is %ld bytes, %d fields", size, n);
	static const char *const types[] = {
		"Unmovable", "Movable", "Reclaimable", "HighAtomic", "CMA", "Isolate",
	};
	for (int node = 0; node < 4; node++)
		for (int z = 0; z < 3; z++)
			for (int t = 0; t < 6; t++) {
				strbuf_addf(&pt, "Node %4d, zone %8s, type %12s", node,
					    z == 0 ? "DMA" : z == 1 ? "DMA32" : "Normal", types[t]);
				for (int order = 0; order < 11; order++)
					strbuf_addf(&pt, " %7d", 100000 + node * 1000 + order);
				strbuf_addstr(&pt, "\n");
			}
	ok(pt.len > 2 * SHORT_READ, "fake pagetypeinfo is %zu bytes", pt.len);
	put(root, "/proc/pagetypeinfo", pt.buf);
	strbuf_release(&pt);

	s = sampler_new(&o);
	sampler_run(s, collect, &k);
	is_int(count_kv(&k, "mms1 vmstat 0 "), n, "every vmstat field read through short reads");
	snprintf(want, sizeof(want), "counter_%05d=%llu", n - 1,
		 18446744073709551614ull - (unsigned)(n - 1));
	ok(count_str(&k, "mms1 vmstat 0 ", want) == 1, "the last field whole: %s", want);
	is_int(count_str(&k, "mms1 vmstat 0 ", "counter_00000=18446744073709551614 "), 1,
	       "a 20-digit value passes unchanged");
	is_int(count_prefix(&k, "mms1 pagetype 0 "), 4 * 3 * 6,
	       "every node, zone and type of pagetypeinfo");
	is_int(count_str(&k, "mms1 pagetype 0 node=3 zone=Normal type=Isolate ",
			 "free=103000,103001,103002,103003,103004,103005,103006,103007,"
			 "103008,103009,103010"), 1, "pagetypeinfo's last line whole");
	sink_reset(&k);
	sampler_run(s, collect, &k);
	is_int(count_kv(&k, "mms1 vmstat 1 "), 0, "an unchanged set carries no field");
	sink_reset(&k);
	sampler_new_file(s);
	sampler_run_routine(s, collect, &k);
	is_int(count_kv(&k, "mms1 vmstat 2 "), n, "a new file's first set carries every field");
	sink_reset(&k);
	sampler_run_routine(s, collect, &k);
	is_int(count_kv(&k, "mms1 vmstat 3 "), 0, "and the set after it again only changes");
	sink_reset(&k);
	sampler_free(s);

	o.every_set_full = 1;
	s = sampler_new(&o);
	sampler_run(s, collect, &k);
	sink_reset(&k);
	sampler_run_routine(s, collect, &k);
	is_int(count_kv(&k, "mms1 vmstat 1 "), n, "every_set_full: a routine set is full");
	sink_reset(&k);
	sampler_free(s);
	p = xasprintf("%s/proc/pagetypeinfo", root);
	unlink(p);
	free(p);
}


/* One v1 memcg in the fake tree: its files, usage and failcnt given, and
 * a memory.stat of nstat long keys (to make it take several lines). */
static void v1_memcg(const char *root, const char *dir, long usage, long failcnt, int nstat)
{
	static const char *const num[][2] = {
		{ "memory.limit_in_bytes", "9223372036854771712\n" },
		{ "memory.max_usage_in_bytes", "2097152\n" },
		{ "memory.memsw.usage_in_bytes", "1048576\n" },
		{ "memory.memsw.limit_in_bytes", "9223372036854771712\n" },
		{ "memory.memsw.max_usage_in_bytes", "3145728\n" },
		{ "memory.oom_control", "oom_kill_disable 0\nunder_oom 0\noom_kill 2\n" },
	};
	char *p, *t;
	struct strbuf st = STRBUF_INIT;

	for (size_t i = 0; i < ARRAY_SIZE(num); i++) {
		p = xasprintf("%s/%s", dir, num[i][0]);
		put(root, p, num[i][1]);
		free(p);
	}
	p = xasprintf("%s/memory.usage_in_bytes", dir);
	t = xasprintf("%ld\n", usage);
	put(root, p, t);
	free(p);
	free(t);
	p = xasprintf("%s/memory.failcnt", dir);
	t = xasprintf("%ld\n", failcnt);
	put(root, p, t);
	free(p);
	free(t);
	strbuf_addstr(&st, "cache 4096\nrss 8192\n");
	for (int i = 0; i < nstat; i++)
		strbuf_addf(&st, "total_a_long_memory_stat_key_%02d 18446744073709551%03d\n", i, i);
	p = xasprintf("%s/memory.stat", dir);
	put(root, p, st.buf);
	free(p);
	strbuf_release(&st);
}

static const char *find_line(const struct sink *k, const char *prefix)
{
	for (int i = 0; i < k->n; i++)
		if (!strncmp(k->lines[i], prefix, strlen(prefix)))
			return k->lines[i];
	return NULL;
}

/* --cgroups ROOT on fake v1 and v2 trees. */
static void test_cgroups(const char *root)
{
	const char *v1 = "/sys/fs/cgroup/memory/t", *v2 = "/sys/fs/cgroup/w";
	struct sampler_opts o = { .root = root, .cgroups = "t" };
	struct sampler *s;
	struct sink k = { 0 };
	const char *l;
	int keys = 0, split_ok = 1;
	char *p, *t, pre[96], pre2[96];
	int seq = 2;

	v1_memcg(root, v1, 1000, 0, 0);
	v1_memcg(root, "/sys/fs/cgroup/memory/t/a", 300, 4, 0);
	v1_memcg(root, "/sys/fs/cgroup/memory/t/a/x", 100, 0, 0);
	v1_memcg(root, "/sys/fs/cgroup/memory/t/b", 500, 1, 40);
	v1_memcg(root, "/sys/fs/cgroup/memory/t/my app", 50, 0, 0);
	s = sampler_new(&o);
	sampler_run(s, collect, &k);
	ok(k.longest <= 1000, "cgroups: no line longer than 1000 bytes (%zu)", k.longest);
	ok(find_line(&k, "mms1 memcgs 0 path=/t usage=1000 ") &&
	   find_line(&k, "mms1 memcgs 0 path=/t/a usage=300 ") &&
	   find_line(&k, "mms1 memcgs 0 path=/t/a/x usage=100 ") &&
	   find_line(&k, "mms1 memcgs 0 path=/t/b usage=500 "),
	   "v1: ROOT and every cgroup below it, by its path below the mount");
	ok(find_line(&k, "mms1 memcgs 0 path=/t/my%20app usage=50 ") != NULL,
	   "a space in a cgroup's name is percent-encoded");
	l = find_line(&k, "mms1 memcgs 0 path=/t/a ");
	ok(l && strstr(l, " limit=9223372036854771712 ") && strstr(l, " peak=2097152 ") &&
	   strstr(l, " failcnt=4 ") && strstr(l, " memsw_usage=1048576 ") &&
	   strstr(l, " memsw_limit=") && strstr(l, " memsw_peak=3145728 ") &&
	   strstr(l, " events_oom_kill=2") && strstr(l, " under_oom=0 ") &&
	   strstr(l, " cache=4096 rss=8192"),
	   "v1: limit, max_usage, failcnt, memsw, oom_control and memory.stat");
	is_int(count_prefix(&k, "mms1 memcgs 0 path=(other"), 0, "all under the default maximum: no sum");
	ok(count_prefix(&k, "mms1 memcgs 0 path=/t/b ") > 1,
	   "a long memory.stat takes several lines (%d)", count_prefix(&k, "mms1 memcgs 0 path=/t/b "));
	for (int i = 0; i < k.n; i++)
		if (!strncmp(k.lines[i], "mms1 memcgs 0 path=/t/b ", 24)) {
			for (const char *q = k.lines[i]; (q = strstr(q, "total_a_long")); q++)
				keys++;
			split_ok &= strlen(k.lines[i]) <= 1000;
		}
	ok(keys == 40 && split_ok, "every memory.stat key across the split lines (%d of 40)", keys);
	is_int(count_prefix(&k, "mms1 memcgs 0 path=/t/b usage=500 "), 1,
	       "the values are not repeated on the continuation lines");
	sink_reset(&k);

	/* a routine set soon after: the counts, not the limits (read when
	 * the tree is walked) */
	sampler_run_routine(s, collect, &k);
	l = find_line(&k, "mms1 memcgs 1 path=/t/a ");
	ok(l && strstr(l, " failcnt=4 ") && strstr(l, " peak=2097152 ") &&
	   !strstr(l, " limit=") && !strstr(l, " memsw_limit="),
	   "a routine set within 5 s: counts and peaks, no limits");
	sink_reset(&k);

	/* systemd-oomd's xattr: oomd_kill=N when set; a malformed one, none */
	p = xasprintf("%s/sys/fs/cgroup/memory/t/a", root);
	t = xasprintf("%s/sys/fs/cgroup/memory/t/b", root);
	if (setxattr(p, "user.oomd_kill", "3", 1, 0) || setxattr(t, "user.oomd_kill", "x1", 2, 0)) {
		printf("ok %d # SKIP user xattrs not supported here\n", ++tap_n);
	} else {
		sampler_run_routine(s, collect, &k);
		l = find_line(&k, "mms1 memcgs 2 path=/t/a ");
		ok(l && strstr(l, " oomd_kill=3") && find_line(&k, "mms1 memcgs 2 path=/t/b ") &&
		   !strstr(find_line(&k, "mms1 memcgs 2 path=/t/b "), "oomd_kill") &&
		   !strstr(find_line(&k, "mms1 memcgs 2 path=/t "), "oomd_kill"),
		   "user.oomd_kill: oomd_kill=N; malformed or absent: none");
		removexattr(p, "user.oomd_kill");
		removexattr(t, "user.oomd_kill");
		sink_reset(&k);
		seq++;
	}
	free(p);
	free(t);

	/* a cgroup made and one removed: seen at the next full set */
	v1_memcg(root, "/sys/fs/cgroup/memory/t/new", 7, 0, 0);
	p = xasprintf("rm -rf '%s/sys/fs/cgroup/memory/t/a/x'", root);
	if (system(p))
		{ /* the test below fails */ }
	free(p);
	sampler_run(s, collect, &k);
	snprintf(pre, sizeof(pre), "mms1 memcgs %d path=/t/new usage=7 ", seq);
	snprintf(pre2, sizeof(pre2), "mms1 memcgs %d path=/t/a/x ", seq);
	ok(find_line(&k, pre) && !find_line(&k, pre2), "a new cgroup appears, a removed one goes");
	sink_reset(&k);
	sampler_free(s);

	/* --cgroups-max 2: ROOT and the largest; the rest summed, named */
	o.cgroups_max = 2;
	s = sampler_new(&o);
	sampler_run(s, collect, &k);
	ok(find_line(&k, "mms1 memcgs 0 path=/t usage=1000 ") &&
	   find_line(&k, "mms1 memcgs 0 path=/t/b usage=500 ") &&
	   !find_line(&k, "mms1 memcgs 0 path=/t/a "), "max 2: ROOT and the largest");
	ok(find_line(&k, "mms1 memcgs 0 path=(other%20cgroups) cgroups=3 usage=357") != NULL,
	   "max 2: the other 3 summed (300 + 50 + 7) on one line named as such");
	sink_reset(&k);
	/* /t/a grows past /t/b: sampled alone in a routine set, its limits
	 * read there once (it had none since the walk), not in the next */
	put(root, "/sys/fs/cgroup/memory/t/a/memory.usage_in_bytes", "2000\n");
	sampler_run_routine(s, collect, &k);
	l = find_line(&k, "mms1 memcgs 1 path=/t/a ");
	ok(l && strstr(l, " limit=") && !find_line(&k, "mms1 memcgs 1 path=/t/b "),
	   "a cgroup that became one of the largest: sampled, with its limits");
	sink_reset(&k);
	sampler_run_routine(s, collect, &k);
	l = find_line(&k, "mms1 memcgs 2 path=/t/a ");
	ok(l && !strstr(l, " limit="), "and the next set without them");
	sink_reset(&k);
	sampler_free(s);

	/* v2: memory.current, max, high, events, pressure, zswap in stat */
	put(root, "/sys/fs/cgroup/w/memory.current", "4096\n");
	put(root, "/sys/fs/cgroup/w/memory.max", "max\n");
	put(root, "/sys/fs/cgroup/w/memory.high", "1048576\n");
	put(root, "/sys/fs/cgroup/w/memory.low", "0\n");
	put(root, "/sys/fs/cgroup/w/memory.min", "0\n");
	put(root, "/sys/fs/cgroup/w/memory.peak", "8192\n");
	put(root, "/sys/fs/cgroup/w/memory.swap.current", "12288\n");
	put(root, "/sys/fs/cgroup/w/memory.swap.peak", "16384\n");
	put(root, "/sys/fs/cgroup/w/memory.swap.max", "max\n");
	put(root, "/sys/fs/cgroup/w/memory.events",
	    "low 0\nhigh 17\nmax 3\noom 1\noom_kill 1\noom_group_kill 0\n");
	put(root, "/sys/fs/cgroup/w/memory.pressure",
	    "some avg10=1.25 avg60=0.50 avg300=0.10 total=123456\n"
	    "full avg10=0.75 avg60=0.25 avg300=0.05 total=65432\n");
	put(root, "/sys/fs/cgroup/w/memory.stat", "anon 4096\nfile 0\nzswap 2048\nzswapped 8192\n");
	put(root, "/sys/fs/cgroup/w/c1/memory.current", "1024\n");
	put(root, "/sys/fs/cgroup/w/c1/memory.max", "2097152\n");
	put(root, "/sys/fs/cgroup/w/c1/memory.stat", "anon 1024\n");
	put(root, "/sys/fs/cgroup/w/nomem/cgroup.procs", "");
	o.cgroups = v2;
	o.cgroups_max = 0;
	s = sampler_new(&o);
	sampler_run(s, collect, &k);
	l = find_line(&k, "mms1 memcgs 0 path=/w ");
	ok(l && strstr(l, " usage=4096 ") && strstr(l, " limit=max ") &&
	   strstr(l, " high=1048576 ") && strstr(l, " low=0 ") && strstr(l, " min=0 ") &&
	   strstr(l, " peak=8192 ") && strstr(l, " swap_usage=12288 ") &&
	   strstr(l, " swap_peak=16384 ") && strstr(l, " swap_max=max "),
	   "v2: current, max, high, low, min, peak and swap files");
	ok(l && strstr(l, " events_high=17 ") && strstr(l, " events_max=3 ") &&
	   strstr(l, " events_oom=1 ") && strstr(l, " events_oom_kill=1 "),
	   "v2: memory.events");
	ok(l && strstr(l, " psi_some_avg10=1.25 ") && strstr(l, " psi_some_total=123456 ") &&
	   strstr(l, " psi_full_avg300=0.05 ") && strstr(l, " psi_full_total=65432"),
	   "v2: memory.pressure, some and full");
	ok(l && strstr(l, " zswap=2048 ") && strstr(l, " zswapped=8192"),
	   "v2: memory.stat's zswap fields");
	ok(find_line(&k, "mms1 memcgs 0 path=/w/c1 usage=1024 limit=2097152 anon=1024") != NULL,
	   "v2: a child with fewer files gives only those");
	ok(!find_line(&k, "mms1 memcgs 0 path=/w/nomem"),
	   "v2: a cgroup without the memory controller is none");
	ok(!find_line(&k, "mms1 memcgs 0 path=/w usage=4096 limit=max failcnt"),
	   "v2: no v1 key");
	sink_reset(&k);
	sampler_free(s);

	/* --cgroups / (issue 44 item 4): the hierarchy's root and its
	 * children with one slash between names, not "//t" */
	put(root, "/sys/fs/cgroup/memory/memory.usage_in_bytes", "5000\n");
	put(root, "/sys/fs/cgroup/memory/memory.stat", "cache 0\nrss 0\n");
	o.cgroups = "/";
	s = sampler_new(&o);
	sampler_run(s, collect, &k);
	ok(find_line(&k, "mms1 memcgs 0 path=/ usage=5000 ") &&
	   find_line(&k, "mms1 memcgs 0 path=/t usage=1000 ") &&
	   find_line(&k, "mms1 memcgs 0 path=/t/my%20app usage=50 ") &&
	   !find_line(&k, "mms1 memcgs 0 path=//"),
	   "--cgroups /: the root '/', its children '/t', '/t/my%%20app', never '//'");
	sink_reset(&k);
	sampler_free(s);

	o.cgroups = "nosuch";
	s = sampler_new(&o);
	sampler_run(s, collect, &k);
	l = find_line(&k, "mms1 missing 0 ");
	ok(l && strstr(l, "memcgs") && strstr(l, "why_memcgs=no_memory.stat_for_nosuch"),
	   "a ROOT that is no memory cgroup: the source missing, with why");
	sink_reset(&k);
	sampler_free(s);
}

int main(void)
{
	char tmpl[] = "/tmp/mmscope-sampler.XXXXXX";
	char *root = mkdtemp(tmpl), *p;
	struct sampler_opts o = { 0 };
	struct sampler *s;
	struct sink k = { 0 };
	int r, ok_prefix = 1;

	ok(root != NULL, "fake root");
	p = xasprintf("%s/proc", root);
	mkdir(p, 0700);
	free(p);
	write_vmstat(root, 0);
	o.root = root;
	s = sampler_new(&o);

	r = sampler_run(s, collect, &k);
	ok(r > 0, "set 0 emitted %d lines", r);
	ok(k.longest <= 1000, "no line longer than 1000 bytes (%zu)", k.longest);
	ok(count_prefix(&k, "mms1 vmstat 0 ") > 1, "300 fields take several vmstat lines");
	is_int(count_kv(&k, "mms1 vmstat 0 "), 300, "set 0 carries all 300 fields");
	for (int i = 0; i < k.n; i++)
		ok_prefix &= !strncmp(k.lines[i], "mms1 ", 5);
	ok(ok_prefix, "every line starts with mms1");
	is_int(count_prefix(&k, "mms1 missing 0 "), 1, "missing sources listed in set 0");
	ok(k.n && !strncmp(k.lines[k.n - 1], "mms1 end 0 us=", 14), "set 0 ends with its end line");
	sink_reset(&k);

	write_vmstat(root, 10);
	sampler_run(s, collect, &k);
	is_int(count_kv(&k, "mms1 vmstat 1 "), 5, "set 1 carries only the 5 changed fields");
	is_int(count_prefix(&k, "mms1 missing"), 0, "missing sources are not repeated");
	is_int(sampler_vmstat(s, "a_rather_long_counter_name_001"), 11, "last value kept");
	sink_reset(&k);

	k.fail_after = 1;
	r = sampler_run(s, collect, &k);
	is_int(r, -1, "a failing write makes the set fail");
	is_int(k.n, 1, "nothing is emitted after the failure");
	sink_reset(&k);
	r = sampler_run(s, collect, &k);
	ok(r > 0 && !strncmp(k.lines[k.n - 1], "mms1 end 3 ", 11),
	   "the next set works and its SEQ shows the lost one");
	sink_reset(&k);

	/* --switch-output's boundary: one set read, written as the old
	 * file's last and, repeated, as the next file's first */
	write_vmstat(root, 20);
	r = sampler_run_boundary(s, collect, &k);
	ok(r > 0, "boundary set 4: %d lines", r);
	is_int(count_kv(&k, "mms1 vmstat 4 "), 300, "the boundary set carries every field");
	{
		struct sink b = { 0 };
		int same = 1, nb = k.n;

		write_vmstat(root, 30);	/* counters move: the repeat reads nothing */
		r = sampler_repeat(s, collect, &b);
		is_int(r, nb, "the repeat: as many lines");
		for (int i = 0; i + 1 < nb && i + 1 < b.n; i++) {
			const char *x = strchr(k.lines[i] + 5, ' '), *y = strchr(b.lines[i] + 5, ' ');

			/* "mms1 SOURCE SEQ rest": SOURCE the same, SEQ 5, rest the same */
			same &= x && y && x - k.lines[i] == y - b.lines[i] &&
				!strncmp(k.lines[i], b.lines[i], (size_t)(x - k.lines[i])) &&
				!strncmp(y, " 5", 2) && !strcmp(strchr(x + 1, ' ') ? strchr(x + 1, ' ') : "",
								strchr(y + 1, ' ') ? strchr(y + 1, ' ') : "");
		}
		ok(same, "the repeat: every line the same, as set 5");
		is_str(b.n ? b.lines[b.n - 1] : NULL, "mms1 end 5 us=0 repeats=4",
		       "the repeat's end line names the set it repeats");
		sink_reset(&b);
		r = sampler_repeat(s, collect, &b);
		is_int(count_kv(&b, "mms1 vmstat 6 "), 300,
		       "a second repeat reads afresh, every field (nothing kept twice)");
		ok(count_str(&b, "mms1 vmstat 6 ", "a_rather_long_counter_name_000=30") == 1,
		   "and reads the counters now");
		ok(b.n && !strncmp(b.lines[b.n - 1], "mms1 end 6 us=", 14) &&
		   !strstr(b.lines[b.n - 1], "repeats="), "its end line is a set's own");
		sink_reset(&b);
		sink_reset(&k);
		k.fail_after = 3;	/* the boundary set cut short */
		sampler_run_boundary(s, collect, &k);
		sink_reset(&k);
		r = sampler_repeat(s, collect, &b);
		ok(r > 0 && !strncmp(b.lines[b.n - 1], "mms1 end 8 us=", 14) &&
		   !strstr(b.lines[b.n - 1], "repeats="),
		   "a boundary set not written whole is not repeated: a fresh set instead");
		is_int(count_kv(&b, "mms1 vmstat 8 "), 300, "with every field");
		sink_reset(&b);
	}
	sink_reset(&k);

	sampler_free(s);
	test_long_files(root);
	test_zswap(root);
	test_pagetype(root);
	test_cgroups(root);
	p = xasprintf("rm -rf '%s'", root);
	if (system(p))
		{ /* a leftover temporary directory is harmless */ }
	free(p);
	return tap_done();
}
