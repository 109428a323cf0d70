// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The run's context and outcome lines (see runctx.h). Each setting is one
 * KEY=VALUE with its value percent-encoded, read from the file the kernel
 * keeps it in; a file that is not there adds its key to "absent=". Lines
 * are split before SAMPLER_LINE_MAX bytes with "at=PHASE" repeated.
 */
#include "config.h"
#include "runctx.h"
#include "util.h"

#include <ctype.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

/* ---- lines ---- */

struct ctx_lines {
	sampler_emit_fn emit;
	void *ctx;
	struct strbuf line;
	char *prefix;
	int has_kv, count, failed;
	struct strbuf absent;
};

static void cl_flush(struct ctx_lines *l)
{
	if (l->has_kv && !l->failed) {
		if (l->emit(l->ctx, l->line.buf, l->line.len))
			l->failed = 1;
		else
			l->count++;
	}
	strbuf_reset(&l->line);
	strbuf_addstr(&l->line, l->prefix);
	l->has_kv = 0;
}

static void cl_begin(struct ctx_lines *l, const char *prefix)
{
	free(l->prefix);
	l->prefix = xstrdup(prefix);
	strbuf_reset(&l->line);
	strbuf_addstr(&l->line, prefix);
	l->has_kv = 0;
}

/* One KEY=VALUE (VALUE already encoded), on a new line if it does not fit. */
static void cl_put(struct ctx_lines *l, const char *key, const char *v, size_t n)
{
	if (l->has_kv && l->line.len + 2 + strlen(key) + n > SAMPLER_LINE_MAX - 1)
		cl_flush(l);
	strbuf_addf(&l->line, " %s=%.*s", key, (int)n, v);
	l->has_kv = 1;
}

/*
 * KEY=VALUE with VALUE encoded. A value longer than CHUNK bytes (a long
 * kernel command line or argument) goes in pieces: KEY=first, then
 * KEY+=next... (mmscope-samples(5)), never cut inside a %XX.
 */
#define CHUNK 700
static void cl_kv(struct ctx_lines *l, const char *key, const char *value)
{
	struct strbuf v = STRBUF_INIT;
	char *more = xasprintf("%s+", key);
	size_t at = 0;

	runctx_encode(value, &v);
	do {
		size_t n = v.len - at;

		if (n > CHUNK) {
			n = CHUNK;
			if (v.buf[at + n - 1] == '%')
				n -= 1;
			else if (v.buf[at + n - 2] == '%')
				n -= 2;
		}
		cl_put(l, at ? more : key, v.buf ? v.buf + at : "", n);
		at += n;
	} while (at < v.len);
	free(more);
	strbuf_release(&v);
}

static void cl_kv_ll(struct ctx_lines *l, const char *key, long long v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%lld", v);
	cl_kv(l, key, buf);
}

/* The absent list goes out in pieces of a few hundred bytes: each
 * absent= pair adds to the list. */
static void cl_absent(struct ctx_lines *l, const char *key)
{
	if (l->absent.len > 500) {
		cl_put(l, "absent", l->absent.buf, l->absent.len);
		strbuf_reset(&l->absent);
	}
	strbuf_addf(&l->absent, "%s%s", l->absent.len ? "," : "", key);
}

static void cl_release(struct ctx_lines *l)
{
	strbuf_release(&l->line);
	strbuf_release(&l->absent);
	free(l->prefix);
}

void runctx_encode(const char *s, struct strbuf *out)
{
	static const char hex[] = "0123456789ABCDEF";

	strbuf_addstr(out, "");
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '%' || *p <= ' ' || *p > '~') {
			strbuf_addch(out, '%');
			strbuf_addch(out, hex[*p >> 4]);
			strbuf_addch(out, hex[*p & 15]);
		} else {
			strbuf_addch(out, *p);
		}
	}
}

/* ---- reading ---- */

/* The file's text trimmed; "a [b] c" -> "b" when bracket. 0 or -1. */
static int read_value(const char *root, const char *path, int bracket, struct strbuf *v)
{
	char *p = xasprintf("%s%s", root, path);
	int r;

	strbuf_reset(v);
	r = read_file(p, v);
	free(p);
	if (r || !v->buf)
		return -1;
	if (bracket) {
		char *a = strchr(v->buf, '['), *z = a ? strchr(a, ']') : NULL;

		if (a && z) {
			memmove(v->buf, a + 1, (size_t)(z - a - 1));
			v->buf[z - a - 1] = '\0';
		}
	}
	v->len = strlen(v->buf);
	while (v->len && isspace((unsigned char)v->buf[v->len - 1]))
		v->buf[--v->len] = '\0';
	return 0;
}

/* key from path, or key in absent. */
static void setting(struct ctx_lines *l, const char *root, const char *key,
		    const char *path, int bracket)
{
	struct strbuf v = STRBUF_INIT;

	if (read_value(root, path, bracket, &v))
		cl_absent(l, key);
	else
		cl_kv(l, key, v.buf);
	strbuf_release(&v);
}

static long long meminfo_kb(const char *root, const char *name)
{
	struct strbuf sb = STRBUF_INIT;
	char *p = xasprintf("%s/proc/meminfo", root), *line, *save = NULL;
	long long v = -1;
	size_t n = strlen(name);

	if (!read_file(p, &sb) && sb.buf)
		for (line = strtok_r(sb.buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
			if (!strncmp(line, name, n) && line[n] == ':') {
				v = atoll(line + n + 1);
				break;
			}
	free(p);
	strbuf_release(&sb);
	return v;
}

/* Nodes in a list such as "0-1,3". -1 if unreadable. */
static int count_list(const char *s)
{
	int n = 0;

	while (*s && *s != '\n') {
		char *end;
		long a = strtol(s, &end, 10), b = a;

		if (end == s)
			return -1;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		n += (int)(b - a + 1);
		s = *end == ',' ? end + 1 : end;
	}
	return n;
}

/*
 * CONFIG_THP_SWAP from /proc/config.gz or /boot/config-RELEASE: 1 set,
 * 0 not set, -1 no config to read.
 */
static int config_thp_swap(const char *root)
{
	char *p = xasprintf("%s/proc/config.gz", root), line[256];
	struct utsname u;
	gzFile gz = gzopen(p, "rb");
	int r = -1;

	free(p);
	if (!gz && !uname(&u)) {
		p = xasprintf("%s/boot/config-%s", root, u.release);
		gz = gzopen(p, "rb");	/* gzread reads plain files too */
		free(p);
	}
	if (!gz)
		return -1;
	while (gzgets(gz, line, sizeof(line))) {
		if (!strncmp(line, "CONFIG_THP_SWAP=y", 17)) {
			r = 1;
			break;
		}
		if (!strncmp(line, "# CONFIG_THP_SWAP is not set", 28)) {
			r = 0;
			break;
		}
	}
	if (r < 0)
		r = 0;	/* a config without the symbol: THP_SWAP not possible */
	gzclose(gz);
	return r;
}

static int cmp_mthp(const void *a, const void *b)
{
	const char *x = strrchr(*(char *const *)a, '-'), *y = strrchr(*(char *const *)b, '-');
	long long u = x ? atoll(x + 1) : 0, w = y ? atoll(y + 1) : 0;

	return (u > w) - (u < w);
}

static void ctx_thp(struct ctx_lines *l, const char *root)
{
	static const char *const khp[] = {
		"defrag", "pages_to_scan", "scan_sleep_millisecs", "alloc_sleep_millisecs",
		"max_ptes_none", "max_ptes_swap", "max_ptes_shared",
	};
	const char *t = "/sys/kernel/mm/transparent_hugepage";
	char *pat = xasprintf("%s%s/hugepages-*kB", root, t);
	glob_t g;

	setting(l, root, "thp.enabled", "/sys/kernel/mm/transparent_hugepage/enabled", 1);
	setting(l, root, "thp.defrag", "/sys/kernel/mm/transparent_hugepage/defrag", 1);
	setting(l, root, "thp.shmem_enabled",
		"/sys/kernel/mm/transparent_hugepage/shmem_enabled", 1);
	/* bytes: HPAGE_PMD_SIZE, so the PMD order on any page size */
	setting(l, root, "thp.hpage_pmd_size",
		"/sys/kernel/mm/transparent_hugepage/hpage_pmd_size", 0);
	for (size_t i = 0; i < ARRAY_SIZE(khp); i++) {
		char *key = xasprintf("thp.khugepaged.%s", khp[i]);
		char *path = xasprintf("%s/khugepaged/%s", t, khp[i]);

		setting(l, root, key, path, 0);
		free(key);
		free(path);
	}
	if (glob(pat, 0, NULL, &g) || !g.gl_pathc) {
		cl_absent(l, "thp.hugepages-*");
	} else {
		qsort(g.gl_pathv, g.gl_pathc, sizeof(char *), cmp_mthp);
		for (size_t i = 0; i < g.gl_pathc; i++) {
			const char *dir = strrchr(g.gl_pathv[i], '/') + 1;
			char *key, *path;

			key = xasprintf("thp.%s.enabled", dir);
			path = xasprintf("%s/%s/enabled", t, dir);
			setting(l, root, key, path, 1);
			free(key);
			free(path);
			key = xasprintf("thp.%s.shmem_enabled", dir);
			path = xasprintf("%s/%s/shmem_enabled", t, dir);
			setting(l, root, key, path, 1);
			free(key);
			free(path);
		}
	}
	globfree(&g);
	free(pat);
}

static void ctx_sysctl(struct ctx_lines *l, const char *root)
{
	static const char *const vm[] = {
		"swappiness", "min_free_kbytes", "watermark_scale_factor",
		"watermark_boost_factor", "defrag_mode", "compaction_proactiveness",
		"extfrag_threshold", "page-cluster",
	};
	static const char *const zswap[] = {
		"enabled", "compressor", "zpool", "max_pool_percent",
		"accept_threshold_percent", "shrinker_enabled",
	};

	for (size_t i = 0; i < ARRAY_SIZE(vm); i++) {
		char *key = xasprintf("vm.%s", vm[i]), *path = xasprintf("/proc/sys/vm/%s", vm[i]);

		setting(l, root, key, path, 0);
		free(key);
		free(path);
	}
	for (size_t i = 0; i < ARRAY_SIZE(zswap); i++) {
		char *key = xasprintf("zswap.%s", zswap[i]);
		char *path = xasprintf("/sys/module/zswap/parameters/%s", zswap[i]);

		setting(l, root, key, path, 0);
		free(key);
		free(path);
	}
	setting(l, root, "lru_gen.enabled", "/sys/kernel/mm/lru_gen/enabled", 0);
}

/* /sys/class/block/NAME's queue file, or its parent's for a partition. */
static int block_queue(const char *root, const char *sysdir, const char *file,
		       struct strbuf *v)
{
	char *p = xasprintf("%s/queue/%s", sysdir, file);
	int r = read_value(root, p, 0, v);

	free(p);
	if (r) {
		p = xasprintf("%s/../queue/%s", sysdir, file);
		r = read_value(root, p, 0, v);
		free(p);
	}
	return r;
}

static void ctx_swap(struct ctx_lines *l, const char *root, long page_size, int thp_swap)
{
	struct strbuf sb = STRBUF_INIT, v = STRBUF_INIT;
	char *p = xasprintf("%s/proc/swaps", root), *line, *save = NULL;
	long long cluster = 0;
	int n = 0;

	if (read_file(p, &sb) || !sb.buf) {
		cl_absent(l, "swap");
		goto out;
	}
	/* SWAPFILE_CLUSTER: HPAGE_PMD_NR with CONFIG_THP_SWAP, else 256 */
	if (thp_swap == 0) {
		cluster = 256;
	} else if (thp_swap == 1 &&
		   !read_value(root, "/sys/kernel/mm/transparent_hugepage/hpage_pmd_size", 0, &v)) {
		cluster = atoll(v.buf) / page_size;
	} else {
		cl_absent(l, "swap.cluster_pages");
	}
	if (cluster > 0)
		cl_kv_ll(l, "swap.cluster_pages", cluster);
	for (line = strtok_r(sb.buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char dev[512], type[32], key[64], *sysdir = NULL;
		long long size, used, prio;
		struct stat st;

		if (sscanf(line, "%511s %31s %lld %lld %lld", dev, type, &size, &used, &prio) != 5)
			continue;	/* the header */
		/* /proc/swaps escapes spaces etc. in paths as \040 */
#define KEY(name) (snprintf(key, sizeof(key), "swap.%d.%s", n, name), key)
		cl_kv(l, KEY("dev"), dev);
		cl_kv(l, KEY("type"), type);
		cl_kv_ll(l, KEY("size_kb"), size);
		cl_kv_ll(l, KEY("prio"), prio);
		if (cluster > 0 && page_size > 0)
			cl_kv_ll(l, KEY("clusters"),
				 (size * 1024 / page_size + 1 + cluster - 1) / cluster);
		if (!strcmp(type, "partition") && strrchr(dev, '/')) {
			sysdir = xasprintf("/sys/class/block/%s", strrchr(dev, '/') + 1);
		} else if (!strcmp(type, "file")) {
			char *fp = xasprintf("%s%s", root, dev);

			if (!stat(fp, &st))
				sysdir = xasprintf("/sys/dev/block/%u:%u", major(st.st_dev),
						   minor(st.st_dev));
			free(fp);
		}
		if (sysdir && !block_queue(root, sysdir, "rotational", &v))
			cl_kv(l, KEY("rotational"), v.buf);
		else
			cl_absent(l, KEY("rotational"));
		/* whether swapon enabled discard is not in /proc/swaps: only
		 * whether the device can */
		if (sysdir && !block_queue(root, sysdir, "discard_max_bytes", &v))
			cl_kv(l, KEY("discard_max_bytes"), v.buf);
		else
			cl_absent(l, KEY("discard_max_bytes"));
		if (!strncmp(dev, "/dev/zram", 9)) {
			char *zp = xasprintf("/sys/block/%s/comp_algorithm", dev + 5);

			setting(l, root, KEY("zram_comp_algorithm"), zp, 1);
			free(zp);
		}
#undef KEY
		free(sysdir);
		n++;
	}
	cl_kv_ll(l, "swap.devices", n);
out:
	free(p);
	strbuf_release(&sb);
	strbuf_release(&v);
}

int runctx_emit(const char *root, const char *phase, uint64_t seq,
		sampler_emit_fn emit, void *ctx)
{
	struct ctx_lines l = { .emit = emit, .ctx = ctx };
	struct strbuf v = STRBUF_INIT;
	long page_size = sysconf(_SC_PAGESIZE);
	char *prefix;
	long long kb;
	int thp_swap;

	if (!root)
		root = "";
	prefix = xasprintf("mms1 ctx %llu at=%s", (unsigned long long)seq, phase);
	cl_begin(&l, prefix);
	free(prefix);
	setting(&l, root, "kernel.release", "/proc/sys/kernel/osrelease", 0);
	setting(&l, root, "kernel.cmdline", "/proc/cmdline", 0);
	if ((kb = meminfo_kb(root, "MemTotal")) >= 0)
		cl_kv_ll(&l, "mem.total_kb", kb);
	else
		cl_absent(&l, "mem.total_kb");
	if (!read_value(root, "/sys/devices/system/node/online", 0, &v) &&
	    count_list(v.buf) > 0)
		cl_kv_ll(&l, "numa.nodes", count_list(v.buf));
	else
		cl_absent(&l, "numa.nodes");
	cl_kv_ll(&l, "page_size", page_size);
	ctx_thp(&l, root);
	/* CONFIG_THP_SWAP: without it every mTHP swap-out splits, whatever
	 * the swap clusters hold (absent: no config to read) */
	thp_swap = config_thp_swap(root);
	if (thp_swap < 0)
		cl_absent(&l, "thp_swap");
	else
		cl_kv(&l, "thp_swap", thp_swap ? "y" : "n");
	ctx_sysctl(&l, root);
	ctx_swap(&l, root, page_size, thp_swap);
	if (l.absent.len)
		cl_kv(&l, "absent", l.absent.buf);
	cl_flush(&l);
	strbuf_release(&v);
	cl_release(&l);
	return l.failed ? -1 : l.count;
}

int runctx_emit_outcome(const struct runctx_outcome *o, uint64_t seq,
			sampler_emit_fn emit, void *ctx)
{
	struct ctx_lines l = { .emit = emit, .ctx = ctx };
	char *prefix = xasprintf("mms1 outcome %llu", (unsigned long long)seq);
	int argc = 0;

	cl_begin(&l, prefix);
	free(prefix);
	for (char **a = o->argv; a && *a; a++)
		argc++;
	cl_kv_ll(&l, "argc", argc);
	for (int i = 0; i < argc; i++) {
		char key[24];

		snprintf(key, sizeof(key), "arg%d", i);
		cl_kv(&l, key, o->argv[i]);
	}
	if (o->reaped) {
		const struct rusage *ru = &o->ru;

		if (WIFEXITED(o->status)) {
			cl_kv_ll(&l, "exit", WEXITSTATUS(o->status));
		} else if (WIFSIGNALED(o->status)) {
			cl_kv_ll(&l, "signal", WTERMSIG(o->status));
			cl_kv_ll(&l, "core", WCOREDUMP(o->status) ? 1 : 0);
		}
		cl_kv_ll(&l, "elapsed_us", (long long)(o->elapsed_ns / 1000));
		cl_kv_ll(&l, "user_us", (long long)ru->ru_utime.tv_sec * 1000000 +
			 ru->ru_utime.tv_usec);
		cl_kv_ll(&l, "sys_us", (long long)ru->ru_stime.tv_sec * 1000000 +
			 ru->ru_stime.tv_usec);
		cl_kv_ll(&l, "maxrss_kb", ru->ru_maxrss);
		cl_kv_ll(&l, "majflt", ru->ru_majflt);
		cl_kv_ll(&l, "minflt", ru->ru_minflt);
	}
	cl_kv_ll(&l, "stopped_by_recorder", o->stopped_by_recorder ? 1 : 0);
	cl_flush(&l);
	cl_release(&l);
	return l.failed ? -1 : l.count;
}

void runctx_outcome_meta(const struct runctx_outcome *o, struct strbuf *sb)
{
	const struct rusage *ru = &o->ru;

	strbuf_addstr(sb, "command_argv=");
	for (char **a = o->argv; a && *a; a++) {
		if (a != o->argv)
			strbuf_addch(sb, ' ');
		runctx_encode(*a, sb);
	}
	strbuf_addch(sb, '\n');
	if (o->pid > 0)
		strbuf_addf(sb, "command_pid=%d\n", (int)o->pid);
	if (!o->reaped) {
		strbuf_addstr(sb, "command_state=running\n");
		return;
	}
	strbuf_addstr(sb, "command_state=ended\n");
	if (WIFEXITED(o->status))
		strbuf_addf(sb, "command_exit=%d\n", WEXITSTATUS(o->status));
	else if (WIFSIGNALED(o->status))
		strbuf_addf(sb, "command_signal=%d\ncommand_core=%d\n", WTERMSIG(o->status),
			    WCOREDUMP(o->status) ? 1 : 0);
	strbuf_addf(sb, "command_elapsed_us=%llu\n", (unsigned long long)(o->elapsed_ns / 1000));
	strbuf_addf(sb, "command_user_us=%lld\ncommand_sys_us=%lld\ncommand_maxrss_kb=%ld\n",
		    (long long)ru->ru_utime.tv_sec * 1000000 + ru->ru_utime.tv_usec,
		    (long long)ru->ru_stime.tv_sec * 1000000 + ru->ru_stime.tv_usec,
		    ru->ru_maxrss);
	strbuf_addf(sb, "command_ended_by_recorder=%d\n", o->stopped_by_recorder ? 1 : 0);
}
