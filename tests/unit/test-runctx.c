// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The run's context end to end without a kernel: runctx_emit() on a fake
 * /proc and /sys tree (values with spaces and '%', a setting the kernel
 * lacks, mTHP sizes, a swap device and its cluster count), the outcome
 * line of a real child's wait4, and memcg lines of cgroup v1 and v2, each
 * through the sample-line parser (percent-decoding, ctx's at= phase) into
 * the run model and its accessors; a model fed nothing knows nothing.
 */
#include "config.h"
#include "model-run.h"
#include "parsers.h"
#include "runctx.h"
#include "tap.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

static struct run_model *rm;
static struct parser_set *set;
static size_t longest;
static int nlines;

static void sink(void *ctx, const struct record *r)
{
	(void)ctx;
	run_model_add(rm, r);
}

static int feed(const char *line)
{
	struct record rec;
	struct parse_ctx pc = { set, NULL, &rec, NULL, 0, sink, NULL };

	memset(&rec, 0, sizeof(rec));
	return sample_feed_line(&pc, line, (int)strlen(line));
}

/* The emit callback: every line straight into the parser. */
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

static char root[64];

static void put(const char *path, const char *text)
{
	char *p = xasprintf("%s%s", root, path), *d = xstrdup(p);
	FILE *f;

	for (char *s = d + strlen(root) + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		mkdir(d, 0755);
		*s = '/';
	}
	f = fopen(p, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
	free(d);
	free(p);
}

static void make_root(const char *swappiness)
{
	struct utsname u;
	char *boot;

	put("/proc/cmdline", "BOOT_IMAGE=/vmlinuz ro transparent_hugepage=madvise odd=50%\n");
	put("/proc/sys/kernel/osrelease", "6.99.0-test\n");
	put("/proc/meminfo", "MemTotal:       16384000 kB\nMemFree:  1 kB\n");
	put("/sys/devices/system/node/online", "0-1\n");
	put("/sys/kernel/mm/transparent_hugepage/enabled", "always [madvise] never\n");
	put("/sys/kernel/mm/transparent_hugepage/defrag", "always defer [madvise] never\n");
	put("/sys/kernel/mm/transparent_hugepage/shmem_enabled", "always [never] advise\n");
	put("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size", "2097152\n");
	put("/sys/kernel/mm/transparent_hugepage/khugepaged/defrag", "1\n");
	put("/sys/kernel/mm/transparent_hugepage/hugepages-64kB/enabled",
	    "[always] inherit madvise never\n");
	put("/sys/kernel/mm/transparent_hugepage/hugepages-64kB/shmem_enabled",
	    "always inherit within_size advise [never] deny force\n");
	put("/sys/kernel/mm/transparent_hugepage/hugepages-2048kB/enabled",
	    "always [inherit] madvise never\n");
	put("/proc/sys/vm/swappiness", swappiness);
	put("/proc/sys/vm/min_free_kbytes", "67584\n");
	put("/proc/sys/vm/page-cluster", "3\n");
	put("/sys/module/zswap/parameters/enabled", "Y\n");
	put("/sys/module/zswap/parameters/compressor", "zstd\n");
	put("/proc/swaps", "Filename\tType\tSize\tUsed\tPriority\n"
	    "/dev/zram0                              partition\t1048572\t0\t100\n");
	put("/sys/class/block/zram0/queue/rotational", "0\n");
	put("/sys/block/zram0/comp_algorithm", "lzo lzo-rle [zstd]\n");
	uname(&u);
	boot = xasprintf("/boot/config-%s", u.release);
	put(boot, "CONFIG_SWAP=y\nCONFIG_THP_SWAP=y\n");
	free(boot);
}

static void test_context(void)
{
	const struct run_setting *s;
	long ps = sysconf(_SC_PAGESIZE);
	char want[32];
	int n;

	snprintf(root, sizeof(root), "/tmp/mmscope-runctx.XXXXXX");
	if (!mkdtemp(root)) {
		ok(0, "mkdtemp: %s", strerror(errno));
		return;
	}
	make_root("60\n");
	n = runctx_emit(root, "start", 0, to_parser, NULL);
	ok(n >= 1 && n == nlines, "ctx: %d lines emitted", n);
	ok(longest <= 1000, "ctx: no line longer than 1000 bytes (%zu)", longest);
	ok(run_model_has_context(rm), "model: has context");
	is_str(run_model_value(rm, "kernel.cmdline"),
	       "BOOT_IMAGE=/vmlinuz ro transparent_hugepage=madvise odd=50%",
	       "cmdline: spaces and % decoded");
	is_str(run_model_value(rm, "kernel.release"), "6.99.0-test", "kernel.release");
	is_str(run_model_value(rm, "mem.total_kb"), "16384000", "MemTotal in kB");
	is_str(run_model_value(rm, "numa.nodes"), "2", "numa nodes from 0-1");
	is_str(run_model_value(rm, "thp.enabled"), "madvise", "thp.enabled: the bracketed value");
	is_str(run_model_value(rm, "thp.hugepages-64kB.enabled"), "always", "mTHP 64kB enabled");
	is_str(run_model_value(rm, "thp.hugepages-64kB.shmem_enabled"), "never",
	       "mTHP 64kB shmem_enabled");
	is_str(run_model_value(rm, "thp.hugepages-2048kB.enabled"), "inherit",
	       "mTHP 2048kB enabled");
	s = run_model_find(rm, "thp.hugepages-2048kB.shmem_enabled");
	ok(s && !s->start && s->absent_start, "a file the kernel lacks is absent, no value");
	s = run_model_find(rm, "vm.defrag_mode");
	ok(s && s->absent_start && !run_model_value(rm, "vm.defrag_mode"),
	   "vm.defrag_mode absent (older kernel)");
	s = run_model_find(rm, "lru_gen.enabled");
	ok(s && s->absent_start, "no MGLRU: absent");
	is_str(run_model_value(rm, "zswap.compressor"), "zstd", "zswap compressor");
	ok(run_model_find(rm, "zswap.zpool") && !run_model_value(rm, "zswap.zpool"),
	   "zswap zpool absent (6.18 has none)");
	is_str(run_model_value(rm, "swap.devices"), "1", "one swap device");
	is_str(run_model_value(rm, "swap.0.dev"), "/dev/zram0", "its path");
	is_str(run_model_value(rm, "swap.0.size_kb"), "1048572", "its size in kB");
	is_str(run_model_value(rm, "swap.0.rotational"), "0", "rotational from the queue");
	is_str(run_model_value(rm, "swap.0.zram_comp_algorithm"), "zstd", "zram's algorithm");
	snprintf(want, sizeof(want), "%ld", 2097152 / ps);
	is_str(run_model_value(rm, "swap.cluster_pages"), want, "CONFIG_THP_SWAP: HPAGE_PMD_NR");
	snprintf(want, sizeof(want), "%ld", (1048572L * 1024 / ps + 1 + 2097152 / ps - 1) /
		 (2097152 / ps));
	is_str(run_model_value(rm, "swap.0.clusters"), want, "clusters: (pages + 1) / cluster");
	ok(!run_model_find(rm, "swap.0.discard_max_bytes")->start,
	   "discard_max_bytes absent without the file");
	is_str(run_model_value(rm, "thp.hpage_pmd_size"), "2097152",
	       "hpage_pmd_size: the PMD size in bytes");
	is_str(run_model_value(rm, "thp_swap"), "y", "thp_swap: y from the config");

	/* a kernel without THP_SWAP (arm64 with 16 KB pages): clusters of
	 * 256 whatever the PMD size; no config at all: thp_swap absent */
	{
		struct utsname u;
		char *boot;

		uname(&u);
		boot = xasprintf("/boot/config-%s", u.release);
		put(boot, "CONFIG_SWAP=y\n# CONFIG_THP_SWAP is not set\n");
		put("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size", "33554432\n");
		runctx_emit(root, "start", 0, to_parser, NULL);
		is_str(run_model_value(rm, "thp_swap"), "n", "no THP_SWAP in the config: n");
		is_str(run_model_value(rm, "swap.cluster_pages"), "256",
		       "no THP_SWAP: clusters of 256, not HPAGE_PMD_NR");
		is_str(run_model_value(rm, "thp.hpage_pmd_size"), "33554432",
		       "hpage_pmd_size: 32 MB (16 KB pages)");
		{
			char *path = xasprintf("%s%s", root, boot);

			unlink(path);
			free(path);
		}
		runctx_emit(root, "start", 0, to_parser, NULL);
		ok(run_model_find(rm, "thp_swap") && !run_model_value(rm, "thp_swap") &&
		   run_model_find(rm, "thp_swap")->absent_start,
		   "no config to read: thp_swap absent, never guessed");
		free(boot);
		put("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size", "2097152\n");
	}

	/* a command line of 2000 bytes with a '%' at every chunk edge */
	{
		struct strbuf cl = STRBUF_INIT;
		const struct run_setting *c;

		for (int i = 0; i < 200; i++)
			strbuf_addstr(&cl, i % 2 ? "a=1%2 bcd " : "xy=%%%%%% ");
		put("/proc/cmdline", cl.buf);
		longest = 0;
		runctx_emit(root, "start", 0, to_parser, NULL);
		ok(longest <= 1000, "long cmdline: no line longer than 1000 bytes (%zu)", longest);
		c = run_model_find(rm, "kernel.cmdline");
		cl.buf[--cl.len] = '\0';	/* read_value trims the last space */
		ok(c && c->start && !strcmp(c->start, cl.buf),
		   "long cmdline: the pieces join to the whole (%zu bytes)", cl.len);
		strbuf_release(&cl);
	}

	/* the end: swappiness changed during the run */
	make_root("10\n");
	runctx_emit(root, "end", 5, to_parser, NULL);
	s = run_model_find(rm, "vm.swappiness");
	ok(s && s->start && s->end && !strcmp(s->start, "60") && !strcmp(s->end, "10"),
	   "swappiness: start 60, end 10");
	ok(run_setting_changed(s), "swappiness changed");
	ok(!run_setting_changed(run_model_find(rm, "thp.enabled")), "thp.enabled unchanged");
	ok(!run_setting_changed(run_model_find(rm, "vm.defrag_mode")),
	   "absent at both ends is no change");
	is_str(run_model_value(rm, "vm.swappiness"), "60", "value: the start's");
	{
		char *cmd = xasprintf("rm -rf %s", root);

		if (system(cmd))
			printf("# could not remove %s\n", root);
		free(cmd);
	}
}

static void test_outcome(void)
{
	char *argv[] = { "sh", "-c", "exit 3 # 100% \t done", NULL };
	struct runctx_outcome o = { .argv = argv };
	const struct run_outcome *r;
	pid_t pid = fork();

	if (pid == 0)
		_exit(3);
	o.reaped = wait4(pid, &o.status, 0, &o.ru) == pid;
	o.elapsed_ns = 1234567000ull;
	ok(runctx_emit_outcome(&o, 9, to_parser, NULL) == 1, "outcome: one line");
	r = run_model_outcome(rm);
	ok(r->known, "outcome known");
	is_int(r->argc, 3, "argc");
	is_str(r->argv[2], "exit 3 # 100% \t done", "argv decoded: spaces, %, tab");
	ok(r->exit.known && r->exit.v == 3, "exit 3");
	ok(!r->signal.known, "no signal");
	ok(r->elapsed_us.known && r->elapsed_us.v == 1234567, "elapsed in us");
	ok(r->user_us.known && r->sys_us.known && r->maxrss_kb.known && r->maxrss_kb.v > 0,
	   "user, sys, max RSS from wait4");
	ok(r->stopped_by_recorder.known && !r->stopped_by_recorder.v, "not stopped by mmscope");

	/* an argument longer than a line */
	run_model_free(rm);
	rm = run_model_new();
	{
		char *big = xmalloc(3001), *av[] = { "x", big, NULL };
		struct runctx_outcome lo = { .argv = av };

		for (int i = 0; i < 3000; i++)
			big[i] = "a %"[i % 3];
		big[3000] = '\0';
		longest = 0;
		runctx_emit_outcome(&lo, 9, to_parser, NULL);
		r = run_model_outcome(rm);
		ok(longest <= 1000 && r->argc == 2 && !strcmp(r->argv[1], big),
		   "a 3000-byte argument in pieces, joined back (longest line %zu)", longest);
		free(big);
	}

	/* killed by a signal */
	run_model_free(rm);
	rm = run_model_new();
	pid = fork();
	if (pid == 0) {
		raise(SIGKILL);
		_exit(0);
	}
	o.reaped = wait4(pid, &o.status, 0, &o.ru) == pid;
	o.stopped_by_recorder = 1;
	runctx_emit_outcome(&o, 9, to_parser, NULL);
	r = run_model_outcome(rm);
	ok(!r->exit.known && r->signal.known && r->signal.v == SIGKILL, "signal 9, no exit");
	ok(r->stopped_by_recorder.v == 1, "stopped by mmscope");
	ok(!run_model_has_context(rm), "an outcome alone is no context");

	/* never reaped: only argv */
	run_model_free(rm);
	rm = run_model_new();
	o.reaped = 0;
	runctx_emit_outcome(&o, 9, to_parser, NULL);
	r = run_model_outcome(rm);
	ok(r->known && !r->exit.known && !r->signal.known && !r->elapsed_us.known &&
	   !r->maxrss_kb.known, "not reaped: exit, signal, elapsed, rusage unknown");

	/* bad input: an absurd argc and args past it are ignored */
	run_model_free(rm);
	rm = run_model_new();
	feed("mms1 outcome 1 argc=99999999 arg0=x arg5=y exit=zz");
	r = run_model_outcome(rm);
	ok(r->argc == 0 && !r->argv && !r->exit.known, "bad argc and exit ignored");
	feed("mms1 outcome 1 argc=1 arg0=a arg1=b exit=0");
	r = run_model_outcome(rm);
	ok(r->argc == 1 && !strcmp(r->argv[0], "a") && r->exit.known, "arg past argc ignored");
}

static void test_memcg(void)
{
	const struct run_memcg *g;

	run_model_free(rm);
	rm = run_model_new();
	g = run_model_memcg(rm);
	ok(!g->known && !g->limit.known, "no memcg lines: unknown");
	/* v1: LONG_MAX-ish memsw is no limit; total_ refaults preferred */
	feed("mms1 memcg 0 path=test cache=0 rss=4096 total_swap=0 workingset_refault_anon=1 "
	     "total_workingset_refault_anon=10 hierarchical_memory_limit=67108864 "
	     "usage=4096 limit=67108864 memsw_limit=9223372036854771712 peak=4096 failcnt=0 "
	     "events_oom_kill=0");
	feed("mms1 end 0 us=1");
	feed("mms1 memcg 1 path=test total_swap=8192 total_workingset_refault_anon=25 "
	     "usage=67100000 peak=67108864 failcnt=70");
	feed("mms1 memcg 2 path=test total_swap=4096 usage=1000 failcnt=75 events_oom_kill=1");
	g = run_model_memcg(rm);
	ok(g->known && g->version == 1, "v1 memcg");
	is_str(g->path, "test", "path");
	ok(g->limit.known && !g->limit.unlimited && g->limit.v == 67108864, "limit 64 MiB");
	ok(g->memsw_limit.known && g->memsw_limit.unlimited, "memsw unlimited");
	ok(g->usage_max.known && g->usage_max.v == 67100000, "largest usage sampled");
	ok(g->peak.known && g->peak.v == 67108864, "kernel peak: the last value");
	ok(g->swap_max_sampled.known && g->swap_max_sampled.v == 8192, "swap: largest total_swap");
	ok(g->failcnt.known && g->failcnt.v == 75, "failcnt delta");
	ok(g->ev_oom_kill.known && g->ev_oom_kill.v == 1, "oom_kill delta");
	ok(g->refault_anon.known && g->refault_anon.v == 15, "refaults: total_ delta");
	ok(!g->scan_anon.known && !g->scan.known && !g->ev_high.known, "v1: no pgscan, no events");
	/* v2: "max" limits, memory.events, pgscan split */
	run_model_free(rm);
	rm = run_model_new();
	feed("mms1 memcg 0 path=/sys/fs/cgroup/x anon=0 pgscan=0 pgsteal=0 pgscan_anon=0 "
	     "pgscan_file=0 pgsteal_anon=0 pgsteal_file=0 usage=0 limit=max high=max "
	     "swap_max=max swap_usage=0 events_high=0 events_max=0 events_oom=0 events_oom_kill=0");
	feed("mms1 memcg 1 path=/sys/fs/cgroup/x pgscan=900 pgsteal=800 pgscan_anon=600 "
	     "pgscan_file=300 pgsteal_anon=500 pgsteal_file=300 usage=5000 swap_usage=7000 "
	     "events_max=4 events_oom=1 events_oom_kill=1");
	g = run_model_memcg(rm);
	ok(g->version == 2, "v2 memcg");
	ok(g->limit.known && g->limit.unlimited && g->high.unlimited && g->swap_max.unlimited,
	   "max, high, swap.max: unlimited");
	ok(!g->low.known && !g->peak.known, "low and memory.peak not recorded: unknown");
	ok(g->scan_anon.v == 600 && g->scan_file.v == 300 && g->steal_anon.v == 500 &&
	   g->steal_file.v == 300 && g->scan.v == 900, "pgscan/pgsteal anon and file deltas");
	ok(g->ev_max.known && g->ev_max.v == 4 && g->ev_oom.v == 1 && g->ev_high.v == 0,
	   "memory.events deltas");
	ok(g->swap_max_sampled.v == 7000, "swap: memory.swap.current");
	ok(!run_model_has_context(rm) && !run_model_outcome(rm)->known,
	   "memcg lines alone: no context, no outcome");
}

int main(void)
{
	set = parser_set_new(NULL);
	rm = run_model_new();
	test_context();
	test_outcome();
	test_memcg();
	run_model_free(rm);
	parser_set_free(set);
	return tap_done();
}
