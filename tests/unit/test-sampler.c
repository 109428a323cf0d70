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

	sampler_free(s);
	test_long_files(root);
	test_zswap(root);
	test_pagetype(root);
	p = xasprintf("rm -rf '%s'", root);
	if (system(p))
		{ /* a leftover temporary directory is harmless */ }
	free(p);
	return tap_done();
}
