// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The run section, text and JSON (see report-run.h): what the run was
 * set up with and how its command ended, from the run model.
 *
 *     command   stress-ng --vm 1 --vm-bytes 200M -t 10
 *     outcome   exit 0; elapsed 10.012 s, user 9.801 s, sys 0.190 s;
 *               max RSS 205012 kB
 *     kernel    6.18.44, 1 NUMA node, MemTotal 24683584 kB, page 4096 B
 *     ...
 *     memcg     /mmscope-run (v1): limit 64.0 MiB, memsw unlimited
 *
 * Settings print as the kernel files hold them at the start of the run
 * (the end's value when only that was recorded); a file the kernel lacks
 * is "-"; "changed" lists those whose value differed at the end.
 */
#include "config.h"
#include "report-run.h"
#include "model-run.h"
#include "model-swapclust.h"
#include "json.h"
#include "run-stop.h"
#include "tracedat-read.h"

#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NBSP '\x01'	/* a space that wrap() never breaks at */

static const struct run_model *model(const struct report_ctx *rc)
{
	return analysis_model(rc->a, &run_model_ops);
}

/* report_wrap(), keeping a figure with its unit: NBSP prints as ' '. */
static void wrap(struct report_ctx *rc, const char *prefix, const char *text)
{
	struct strbuf sb = STRBUF_INIT;
	size_t from = rc->sb->len;

	strbuf_addstr(&sb, text);
	report_wrap(rc, prefix, sb.buf);
	for (size_t i = from; i < rc->sb->len; i++)
		if (rc->sb->buf[i] == NBSP)
			rc->sb->buf[i] = ' ';
	strbuf_release(&sb);
}

/* Words of the kernel command line that set memory management. */
static int mm_param(const char *w)
{
	static const char *const pre[] = {
		"transparent_hugepage", "thp_", "hugepage", "default_hugepagesz",
		"hugetlb", "zswap.", "swapaccount", "cgroup", "numa", "mem=", "memmap",
		"movablecore", "kernelcore", "lru_gen", "psi", "page_alloc.", "init_on_",
		"page_owner", "mminit", "memhp", "memory_hotplug", "cma", "zram.",
	};

	for (size_t i = 0; i < sizeof(pre) / sizeof(pre[0]); i++)
		if (!strncmp(w, pre[i], strlen(pre[i])))
			return 1;
	return 0;
}

static void text_cmdline(struct report_ctx *rc, const char *cmdline)
{
	struct strbuf sb = STRBUF_INIT;
	char *copy = xstrdup(cmdline), *save = NULL;
	int words = 0, mm = 0;

	for (char *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		if (!strcmp(w, "--"))
			break;	/* the rest is init's */
		words++;
		if (mm_param(w)) {
			strbuf_addf(&sb, "%s ", w);
			mm++;
		}
	}
	strbuf_addf(&sb, "(%d of %d word%s mm-related; all in --format json)", mm, words,
		    words == 1 ? "" : "s");
	wrap(rc, "cmdline   ", sb.buf);
	free(copy);
	strbuf_release(&sb);
}

static const char *val(const struct run_model *m, const char *key)
{
	const char *v = run_model_value(m, key);

	return v && *v ? v : "-";
}

/* "KEY VALUE" items joined by ", " into sb. */
static void item(struct strbuf *sb, const char *label, const char *v, const char *unit)
{
	strbuf_addf(sb, "%s%s%c%s%s", sb->len ? ", " : "", label, NBSP, v,
		    strcmp(v, "-") ? unit : "");
}

/* An argument as a shell would need it quoted. */
static void add_arg(struct strbuf *sb, const char *a)
{
	int plain = *a != '\0';

	for (const char *p = a; *p; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789-_./=:,+@%", *p))
			plain = 0;
	if (sb->len)
		strbuf_addch(sb, ' ');
	if (plain) {
		strbuf_addstr(sb, a);
		return;
	}
	for (const char *p = a; *p; p++)
		if ((unsigned char)*p < ' ' || *p == 0x7f) {
			/* a control character: bash's $'...' with \ooo escapes */
			strbuf_addstr(sb, "$'");
			for (const char *q = a; *q; q++) {
				if ((unsigned char)*q < ' ' || *q == 0x7f)
					strbuf_addf(sb, "\\%03o", (unsigned char)*q);
				else if (*q == '\'' || *q == '\\')
					strbuf_addf(sb, "\\%c", *q);
				else
					strbuf_addch(sb, *q);
			}
			strbuf_addch(sb, '\'');
			return;
		}
	strbuf_addch(sb, '\'');
	for (const char *p = a; *p; p++) {
		if (*p == '\'')
			strbuf_addstr(sb, "'\\''");
		else
			strbuf_addch(sb, *p);
	}
	strbuf_addch(sb, '\'');
}

/* "the command (pid 4242)" */
static void the_command(struct strbuf *sb, const struct run_outcome *o)
{
	strbuf_addstr(sb, "the command");
	if (o->pid.known)
		strbuf_addf(sb, " (pid %" PRId64 ")", o->pid.v);
}

/*
 * Why the command's outcome is not known, in words, or NULL when the file
 * names no COMMAND and no stop (an older mmscope's, trace-cmd's): then
 * nothing is claimed.
 */
static char *outcome_unknown(struct run_stop *st, const struct run_outcome *o)
{
	struct strbuf sb = STRBUF_INIT;
	struct run_ending e;
	const char *end;

	run_stop_ending_of(st, &e);
	end = e.stop && !strcmp(e.stop, "trigger") ? e.then : e.stop;
	if (!st->cmd.known) {
		if (!st->stop)
			return NULL;
		strbuf_addf(&sb, "no COMMAND; stopped: %s", run_stop_text(st, 1));
	} else if (e.stop && (!strcmp(e.stop, "recovered") || !strcmp(e.stop, "killed"))) {
		strbuf_addstr(&sb, "unknown: the recorder was killed ");
		if (o->running) {
			strbuf_addstr(&sb, "while ");
			the_command(&sb, o);
			strbuf_addstr(&sb, e.ended_command == 0 ? " ran, and did not end it" :
				      " ran, and may have begun to end it");
		} else {
			strbuf_addstr(&sb, "before it recorded the command's end");
		}
	} else if (o->running) {
		the_command(&sb, o);
		if (!strcmp(e.stop ? e.stop : "", "switch-output"))
			strbuf_addstr(&sb, " was still running at the switch: the next file "
				      "continues the run");
		else
			strbuf_addstr(&sb, " was still running when this file was written");
		if (end && !strcmp(end, "max-triggers"))
			strbuf_addstr(&sb, "; mmscope stopped after it (--max-triggers) and ended "
				      "the command if it still ran");
	} else if (end && (!strcmp(end, "disk-full") || !strcmp(end, "max-size"))) {
		/* an mmscope that kept the outcome only in its line */
		strbuf_addf(&sb, "not recorded: its line came after the recording stopped taking "
			    "pages (%s)", run_stop_text(st, 1));
	} else {
		strbuf_addstr(&sb, "no outcome recorded");
		if (st->stop)
			strbuf_addf(&sb, "; stopped: %s%s", run_stop_text(st, 1),
				    strcmp(st->stop, "command-exit") ? ", see the header" : "");
	}
	return strbuf_detach(&sb, NULL);
}

/*
 * The command is known but not how it ended: the recorder ran no
 * command, or did not live to write its end (killed, recovered from its
 * spool), or the file was written while it ran (a --switch-output part,
 * a flight file), or an older mmscope lost the line (a full disk). The
 * metadata's command=, command_state= and stop_reason= say which;
 * without them, nothing is claimed about why.
 */
static int text_no_outcome(struct report_ctx *rc, int unusual_only, const struct run_outcome *o)
{
	const char *meta = analysis_private_meta(rc->a);
	struct run_stop st;
	struct strbuf sb = STRBUF_INIT;
	char *why;

	run_stop_parse2(&st, meta, analysis_last_meta(rc->a));
	/* an older mmscope wrote no outcome line even for a command that
	 * exited: that file's Run section says "context none" and no more */
	why = outcome_unknown(&st, o);
	if (!why || (unusual_only && !o->running &&
		     (!st.stop || !strcmp(st.stop, "command-exit")))) {
		free(why);
		run_stop_release(&st);
		return 0;
	}
	if (o->argc) {
		for (int i = 0; i < o->argc; i++)
			add_arg(&sb, o->argv[i] ? o->argv[i] : "?");
		wrap(rc, "command   ", sb.buf);
	} else if (st.cmd.known) {	/* its words as the recorder joined them */
		wrap(rc, "command   ", st.cmd.line);
	}
	strbuf_reset(&sb);
	strbuf_addf(&sb, "- (%s)", why);
	wrap(rc, "outcome   ", sb.buf);
	strbuf_release(&sb);
	free(why);
	run_stop_release(&st);
	return 1;
}

static void text_outcome(struct report_ctx *rc, const struct run_outcome *o)
{
	struct strbuf sb = STRBUF_INIT;

	if (!o->known) {
		if (!text_no_outcome(rc, 0, o))
			report_line(rc, "outcome   - (no COMMAND recorded)");
		return;
	}
	for (int i = 0; i < o->argc; i++)
		add_arg(&sb, o->argv[i] ? o->argv[i] : "?");
	if (!sb.len) {	/* the metadata's words, joined */
		const char *cmd = td_meta_value(analysis_last_meta(rc->a), "command");

		if (cmd)
			strbuf_addf(&sb, "%.*s", (int)strcspn(cmd, "\n"), cmd);
	}
	wrap(rc, "command   ", sb.len ? sb.buf : "-");
	strbuf_reset(&sb);
	if (o->exit.known)
		strbuf_addf(&sb, "exit %" PRId64, o->exit.v);
	else if (o->signal.known)
		strbuf_addf(&sb, "killed by signal %" PRId64 " (%s)%s", o->signal.v,
			    strsignal((int)o->signal.v), o->core.known && o->core.v ?
			    ", core dumped" : "");
	else
		strbuf_addstr(&sb, "exit -");
	if (o->stopped_by_recorder.known && o->stopped_by_recorder.v) {
		struct run_stop st;
		const char *why;

		/* what made the recorder stop, and so end the command */
		run_stop_parse2(&st, analysis_private_meta(rc->a), analysis_last_meta(rc->a));
		why = run_stop_text(&st, 1);
		if (why)
			strbuf_addf(&sb, ": mmscope ended it at the stop (%s)", why);
		else
			strbuf_addstr(&sb, ": mmscope ended it");
		run_stop_release(&st);
	}
	if (o->elapsed_us.known)
		strbuf_addf(&sb, "; elapsed\001%.3f\001s", (double)o->elapsed_us.v / 1e6);
	else
		strbuf_addstr(&sb, "; elapsed -");
	if (o->user_us.known && o->sys_us.known)
		strbuf_addf(&sb, ", user\001%.3f\001s, sys\001%.3f\001s", (double)o->user_us.v / 1e6,
			    (double)o->sys_us.v / 1e6);
	if (o->maxrss_kb.known)
		strbuf_addf(&sb, "; max\001RSS\001%" PRId64 "\001kB", o->maxrss_kb.v);
	wrap(rc, "outcome   ", sb.buf);
	strbuf_release(&sb);
}

/* mTHP sizes grouped by value: "never 16kB 32kB; inherit 2048kB". */
static void mthp_group(const struct run_model *m, const char *what, struct strbuf *out)
{
	char seen[16][32];
	int nseen = 0;

	for (int pass = 0; pass < run_model_nsettings(m); pass++) {
		const struct run_setting *s = run_model_setting(m, pass);
		const char *v = s->start ? s->start : s->end;
		size_t wl = strlen(what), kl = strlen(s->key);
		int dup = 0;

		if (strncmp(s->key, "thp.hugepages-", 14) || kl <= wl + 1 ||
		    strcmp(s->key + kl - wl, what) || s->key[kl - wl - 1] != '.' || !v)
			continue;
		for (int i = 0; i < nseen; i++)
			dup |= !strcmp(seen[i], v);
		if (dup || nseen == 16)
			continue;
		snprintf(seen[nseen++], sizeof(seen[0]), "%s", v);
		strbuf_addf(out, "%s%s", nseen > 1 ? "; " : " ", v);
		for (int j = 0; j < run_model_nsettings(m); j++) {
			const struct run_setting *t = run_model_setting(m, j);
			const char *tv = t->start ? t->start : t->end;
			size_t tl = strlen(t->key);

			if (strncmp(t->key, "thp.hugepages-", 14) || tl <= wl + 1 ||
			    strcmp(t->key + tl - wl, what) || t->key[tl - wl - 1] != '.' ||
			    !tv || strcmp(tv, v))
				continue;
			strbuf_addf(out, " %.*s", (int)(tl - wl - 1 - 14), t->key + 14);
		}
	}
}

static void text_settings(struct report_ctx *rc, const struct run_model *m)
{
	struct strbuf sb = STRBUF_INIT;
	const char *nodes = val(m, "numa.nodes");
	const char *n;

	strbuf_addf(&sb, "%s, %s\001NUMA\001node%s, MemTotal\001%s%s, page\001%s%s",
		    val(m, "kernel.release"), nodes, strcmp(nodes, "1") ? "s" : "",
		    val(m, "mem.total_kb"), strcmp(val(m, "mem.total_kb"), "-") ? "\001kB" : "",
		    val(m, "page_size"), strcmp(val(m, "page_size"), "-") ? "\001B" : "");
	wrap(rc, "kernel    ", sb.buf);
	if (strcmp(val(m, "kernel.cmdline"), "-"))
		text_cmdline(rc, val(m, "kernel.cmdline"));
	else
		report_line(rc, "cmdline   -");
	strbuf_reset(&sb);
	item(&sb, "enabled", val(m, "thp.enabled"), "");
	item(&sb, "defrag", val(m, "thp.defrag"), "");
	item(&sb, "shmem", val(m, "thp.shmem_enabled"), "");
	item(&sb, "khugepaged\001defrag", val(m, "thp.khugepaged.defrag"), "");
	item(&sb, "max_ptes_none", val(m, "thp.khugepaged.max_ptes_none"), "");
	/* the kernel's PMD size and THP_SWAP: recorders before these keys
	 * did not say, and then the line stays as it was */
	if (strcmp(val(m, "thp.hpage_pmd_size"), "-")) {
		char kb[32];

		snprintf(kb, sizeof(kb), "%llu",
			 strtoull(val(m, "thp.hpage_pmd_size"), NULL, 10) / 1024);
		item(&sb, "PMD", kb, "\001kB");
	}
	if (strcmp(val(m, "thp_swap"), "-"))
		item(&sb, "THP_SWAP", val(m, "thp_swap"), "");
	wrap(rc, "THP       ", sb.buf);
	strbuf_reset(&sb);
	strbuf_addstr(&sb, "anon:");
	mthp_group(m, "enabled", &sb);
	if (sb.len > 5) {
		struct strbuf sh = STRBUF_INIT;

		mthp_group(m, "shmem_enabled", &sh);
		strbuf_addf(&sb, "; shmem:%s", sh.len ? sh.buf : " -");
		strbuf_release(&sh);
	}
	wrap(rc, "mTHP      ", sb.len > 5 ? sb.buf : "- (no /sys/kernel/mm/transparent_hugepage/hugepages-*)");
	strbuf_reset(&sb);
	item(&sb, "enabled", val(m, "zswap.enabled"), "");
	item(&sb, "compressor", val(m, "zswap.compressor"), "");
	item(&sb, "zpool", val(m, "zswap.zpool"), "");
	item(&sb, "max_pool", val(m, "zswap.max_pool_percent"), "%");
	item(&sb, "accept", val(m, "zswap.accept_threshold_percent"), "%");
	item(&sb, "shrinker", val(m, "zswap.shrinker_enabled"), "");
	wrap(rc, "zswap     ", sb.buf);
	strbuf_reset(&sb);
	item(&sb, "swappiness", val(m, "vm.swappiness"), "");
	item(&sb, "min_free_kbytes", val(m, "vm.min_free_kbytes"), "");
	item(&sb, "watermark_scale_factor", val(m, "vm.watermark_scale_factor"), "");
	item(&sb, "watermark_boost_factor", val(m, "vm.watermark_boost_factor"), "");
	item(&sb, "defrag_mode", val(m, "vm.defrag_mode"), "");
	item(&sb, "compaction_proactiveness", val(m, "vm.compaction_proactiveness"), "");
	item(&sb, "extfrag_threshold", val(m, "vm.extfrag_threshold"), "");
	item(&sb, "page-cluster", val(m, "vm.page-cluster"), "");
	wrap(rc, "vm        ", sb.buf);
	n = val(m, "lru_gen.enabled");
	if (strcmp(n, "-"))
		report_line(rc, "MGLRU     lru_gen/enabled %s (%s)", n,
			    strtol(n, NULL, 0) ? "on" : "off");
	else
		report_line(rc, "MGLRU     - (no /sys/kernel/mm/lru_gen: not built)");
	strbuf_release(&sb);
}

/* A device's clusters from its /proc/swaps size (its slots plus the
 * header page, over the cluster size) when the swap section knows the
 * cluster size (THP counters in the samples, or the recording said); -1
 * otherwise. */
static long long derived_clusters(const struct report_ctx *rc, const char *size_kb)
{
	const struct swapclust_model *sm = analysis_swapclust(rc->a);
	unsigned long page_kb = rc->in->page_size >= 1024 ? rc->in->page_size / 1024 : 4;
	long long kb = strcmp(size_kb, "-") ? atoll(size_kb) : -1;
	int cl = swapclust_model_cluster_size(sm);

	if (kb <= 0 || cl <= 0 || swapclust_model_cluster_basis(sm) < SWC_BASIS_THP)
		return -1;
	return (kb / (long long)page_kb + 1 + cl - 1) / cl;
}

static void text_swap(struct report_ctx *rc, const struct run_model *m)
{
	const char *nd = run_model_value(m, "swap.devices");
	int ndev = nd ? atoi(nd) : -1;

	if (ndev < 0) {
		report_line(rc, "swap      - (no /proc/swaps)");
		return;
	}
	if (ndev == 0) {
		report_line(rc, "swap      no active device at the start");
		return;
	}
	for (int i = 0; i < ndev; i++) {
		struct strbuf sb = STRBUF_INIT;
		char key[64];
		const char *cl;

#define V(name) (snprintf(key, sizeof(key), "swap.%d.%s", i, name), val(m, key))
		strbuf_addf(&sb, "%s %s, %s%s, prio\001%s", V("dev"), V("type"), V("size_kb"),
			    strcmp(V("size_kb"), "-") ? "\001kB" : "", V("prio"));
		item(&sb, "rotational", V("rotational"), "");
		item(&sb, "discard_max", V("discard_max_bytes"), "\001B");
		cl = V("clusters");
		if (strcmp(cl, "-"))
			strbuf_addf(&sb, ", %s\001cluster%s of\001%s\001pages", cl,
				    plural(strtoull(cl, NULL, 10)), val(m, "swap.cluster_pages"));
		else if (derived_clusters(rc, V("size_kb")) > 0)
			/* an older mmscope did not say: the swap section's
			 * cluster size (THP counters, or the recording) */
			strbuf_addf(&sb, ", %lld\001cluster%s of\001%d\001pages (by the swap "
				    "section)", derived_clusters(rc, V("size_kb")),
				    plural((unsigned long long)derived_clusters(rc, V("size_kb"))),
				    swapclust_model_cluster_size(analysis_swapclust(rc->a)));
		else
			strbuf_addstr(&sb, ", clusters -");
		if (strcmp(V("zram_comp_algorithm"), "-"))
			item(&sb, "zram", V("zram_comp_algorithm"), "");
#undef V
		wrap(rc, "swap      ", sb.buf);
		strbuf_release(&sb);
	}
}

/* Bytes as MiB, or "unlimited", or "-". */
static const char *mib(char *buf, size_t len, const struct run_value *v)
{
	if (!v->known)
		snprintf(buf, len, "-");
	else if (v->unlimited)
		snprintf(buf, len, "unlimited");
	else
		snprintf(buf, len, "%.1f%cMiB", (double)v->v / 1048576.0, NBSP);
	return buf;
}

static const char *delta(char *buf, size_t len, const struct run_value *v)
{
	if (v->known)
		snprintf(buf, len, "%+" PRId64, v->v);
	else
		snprintf(buf, len, "-");
	return buf;
}

static void text_memcg(struct report_ctx *rc, const struct run_memcg *g)
{
	char a[32], b[32], c[32], d[32], e[32], f[32];
	struct strbuf sb = STRBUF_INIT;

	if (!g->known) {
		report_line(rc, "memcg     - (recorded without --cgroup)");
		return;
	}
	strbuf_addf(&sb, "%s (cgroup v%s)", g->path, g->version ? (g->version == 1 ? "1" : "2") :
		    "?");
	wrap(rc, "memcg     ", sb.buf);
	strbuf_reset(&sb);
	if (g->version == 2)
		strbuf_addf(&sb, "max %s, high %s, low %s, min %s, swap.max %s",
			    mib(a, sizeof(a), &g->limit), mib(b, sizeof(b), &g->high),
			    mib(c, sizeof(c), &g->low), mib(d, sizeof(d), &g->min),
			    mib(e, sizeof(e), &g->swap_max));
	else
		strbuf_addf(&sb, "%s, memsw %s", mib(a, sizeof(a), &g->limit),
			    mib(b, sizeof(b), &g->memsw_limit));
	wrap(rc, "  limit   ", sb.buf);
	strbuf_reset(&sb);
	strbuf_addf(&sb, "%s largest sampled, %s kernel peak", mib(a, sizeof(a), &g->usage_max),
		    mib(b, sizeof(b), &g->peak));
	if (g->version == 1)
		strbuf_addf(&sb, "; memsw peak %s", mib(c, sizeof(c), &g->memsw_peak));
	wrap(rc, "  usage   ", sb.buf);
	strbuf_reset(&sb);
	strbuf_addf(&sb, "%s largest sampled", mib(a, sizeof(a), &g->swap_max_sampled));
	if (g->version == 2)
		strbuf_addf(&sb, ", %s kernel peak", mib(b, sizeof(b), &g->swap_peak));
	wrap(rc, "  swap    ", sb.buf);
	strbuf_reset(&sb);
	if (g->version == 1)
		strbuf_addf(&sb, "failcnt %s, oom_kill %s (v1 has no high/max/oom counts)",
			    delta(a, sizeof(a), &g->failcnt), delta(b, sizeof(b), &g->ev_oom_kill));
	else
		strbuf_addf(&sb, "high %s, max %s, oom %s, oom_kill %s",
			    delta(a, sizeof(a), &g->ev_high), delta(b, sizeof(b), &g->ev_max),
			    delta(c, sizeof(c), &g->ev_oom), delta(d, sizeof(d), &g->ev_oom_kill));
	wrap(rc, "  events  ", sb.buf);
	strbuf_reset(&sb);
	if (g->scan_anon.known || !g->scan.known)
		strbuf_addf(&sb, "scanned anon %s file %s, reclaimed anon %s file %s pages",
			    delta(a, sizeof(a), &g->scan_anon), delta(b, sizeof(b), &g->scan_file),
			    delta(c, sizeof(c), &g->steal_anon),
			    delta(d, sizeof(d), &g->steal_file));
	else
		strbuf_addf(&sb, "scanned %s, reclaimed %s pages (no anon/file split)",
			    delta(a, sizeof(a), &g->scan), delta(b, sizeof(b), &g->steal));
	if (!g->scan_anon.known && !g->scan.known)
		strbuf_addstr(&sb, " (not in this memory.stat)");
	wrap(rc, "  reclaim ", sb.buf);
	strbuf_reset(&sb);
	strbuf_addf(&sb, "anon %s, file %s", delta(e, sizeof(e), &g->refault_anon),
		    delta(f, sizeof(f), &g->refault_file));
	wrap(rc, "  refault ", sb.buf);
	strbuf_release(&sb);
}

static void text_changed(struct report_ctx *rc, const struct run_model *m)
{
	for (int i = 0; i < run_model_nsettings(m); i++) {
		const struct run_setting *s = run_model_setting(m, i);
		struct strbuf sb = STRBUF_INIT;

		if (!run_setting_changed(s))
			continue;
		strbuf_addf(&sb, "%s %s -> %s", s->key, s->start ? s->start : "-",
			    s->end ? s->end : "-");
		wrap(rc, "changed   ", sb.buf);
		strbuf_release(&sb);
	}
}

void report_text_run(struct report_ctx *rc)
{
	const struct run_model *m = model(rc);
	const struct run_outcome *o = run_model_outcome_meta(m, analysis_last_meta(rc->a));
	const struct run_memcg *g = run_model_memcg(m);

	report_title(rc, "Run");
	if (!run_model_has_context(m) && !o->known) {
		/* the memcg lines came before the context did */
		report_line(rc, "context   none in this file (older mmscope, or trace-cmd)");
		text_no_outcome(rc, 1, o);
		if (g->known)
			text_memcg(rc, g);
		return;
	}
	text_outcome(rc, o);
	if (run_model_has_context(m)) {
		text_settings(rc, m);
		text_swap(rc, m);
	} else {
		report_line(rc, "settings  none in this file");
	}
	text_memcg(rc, g);
	text_changed(rc, m);
}

/* ---- JSON ---- */

static void json_value(struct json_writer *j, const char *key, const struct run_value *v)
{
	json_s64_or_null(j, key, v->v, v->known);
}

static void json_seconds(struct json_writer *j, const char *key, const struct run_value *v)
{
	if (v->known)
		json_fixed(j, key, (double)v->v / 1e6, 6);
	else
		json_null(j, key);
}

static void json_limit(struct json_writer *j, const char *key, const struct run_value *v)
{
	if (v->known && v->unlimited)
		json_str(j, key, "max");
	else
		json_s64_or_null(j, key, v->v, v->known);
}

static void json_str_or_null(struct json_writer *j, const char *key, const char *s)
{
	if (s)
		json_str(j, key, s);
	else
		json_null(j, key);
}

static void json_flag(struct json_writer *j, const char *key, const struct run_value *v)
{
	if (v->known)
		json_bool(j, key, v->v != 0);
	else
		json_null(j, key);
}

/*
 * command and outcome: null when the file says nothing of the command's
 * end (older files); outcome_unknown: why its end is not known, null
 * when it is or when the file names no COMMAND and no stop.
 */
static void json_outcome(struct report_ctx *rc, const struct run_outcome *o)
{
	struct json_writer *j = rc->jw;
	struct run_stop st;
	char *why = NULL;

	if (!o->known) {
		run_stop_parse2(&st, analysis_private_meta(rc->a), analysis_last_meta(rc->a));
		why = outcome_unknown(&st, o);
		run_stop_release(&st);
	}
	if (!o->known && !o->running) {
		json_null(j, "command");
		json_null(j, "outcome");
		json_str_or_null(j, "outcome_unknown", why);
		free(why);
		return;
	}
	if (o->argc) {
		json_array_inline(j, "command");
		for (int i = 0; i < o->argc; i++)
			json_str(j, NULL, o->argv[i] ? o->argv[i] : "");
		json_close(j);
	} else {
		json_null(j, "command");
	}
	json_object(j, "outcome");
	json_value(j, "exit", &o->exit);
	json_value(j, "signal", &o->signal);
	json_seconds(j, "elapsed_s", &o->elapsed_us);
	json_seconds(j, "user_s", &o->user_us);
	json_seconds(j, "sys_s", &o->sys_us);
	json_value(j, "max_rss_kb", &o->maxrss_kb);
	json_flag(j, "stopped_by_recorder", &o->stopped_by_recorder);
	/* "exited", "killed" (by a signal), "running" (when the file was
	 * written); null: its end was recorded without either */
	json_str_or_null(j, "state", o->running ? "running" : o->exit.known ? "exited" :
			 o->signal.known ? "killed" : NULL);
	json_flag(j, "core_dumped", &o->core);
	json_value(j, "pid", &o->pid);
	/* "outcome-line": the mms1 outcome line; "metadata": the command_*
	 * keys, the line not being in the file */
	json_str(j, "source", o->from_meta ? "metadata" : "outcome-line");
	json_close(j);
	json_str_or_null(j, "outcome_unknown", why);
	free(why);
}

static void json_memcg(struct json_writer *j, const struct run_memcg *g)
{
	if (!g->known) {
		json_null(j, "memcg");
		return;
	}
	json_object(j, "memcg");
	json_str(j, "path", g->path);
	json_s64_or_null(j, "cgroup_version", g->version, g->version != 0);
	json_object(j, "limits_bytes");
	json_limit(j, "limit", &g->limit);
	json_limit(j, "memsw_limit", &g->memsw_limit);
	json_limit(j, "high", &g->high);
	json_limit(j, "low", &g->low);
	json_limit(j, "min", &g->min);
	json_limit(j, "swap_max", &g->swap_max);
	json_close(j);
	json_object(j, "usage_bytes");
	json_value(j, "largest_sampled", &g->usage_max);
	json_value(j, "kernel_peak", &g->peak);
	json_value(j, "memsw_kernel_peak", &g->memsw_peak);
	json_value(j, "swap_largest_sampled", &g->swap_max_sampled);
	json_value(j, "swap_kernel_peak", &g->swap_peak);
	json_close(j);
	json_object(j, "events_delta");
	json_value(j, "low", &g->ev_low);
	json_value(j, "high", &g->ev_high);
	json_value(j, "max", &g->ev_max);
	json_value(j, "oom", &g->ev_oom);
	json_value(j, "oom_kill", &g->ev_oom_kill);
	json_value(j, "failcnt", &g->failcnt);
	json_close(j);
	json_object(j, "memory_stat_delta_pages");
	json_value(j, "pgscan_anon", &g->scan_anon);
	json_value(j, "pgscan_file", &g->scan_file);
	json_value(j, "pgsteal_anon", &g->steal_anon);
	json_value(j, "pgsteal_file", &g->steal_file);
	json_value(j, "pgscan", &g->scan);
	json_value(j, "pgsteal", &g->steal);
	json_value(j, "workingset_refault_anon", &g->refault_anon);
	json_value(j, "workingset_refault_file", &g->refault_file);
	json_close(j);
	json_close(j);
}

void report_json_run(struct report_ctx *rc)
{
	const struct run_model *m = model(rc);
	const struct run_outcome *o = run_model_outcome_meta(m, analysis_last_meta(rc->a));
	const struct run_memcg *g = run_model_memcg(m);
	struct json_writer *j = rc->jw;

	if (!run_model_has_context(m) && !o->known && !o->running && !g->known) {
		json_null(j, "run");
		return;
	}
	json_object(j, "run");
	if (run_model_has_context(m)) {
		json_object(j, "settings");
		for (int i = 0; i < run_model_nsettings(m); i++) {
			const struct run_setting *s = run_model_setting(m, i);
			const char *v = s->start ? s->start : s->end;

			if (v)
				json_str(j, s->key, v);
			else
				json_null(j, s->key);
		}
		json_close(j);
		json_array(j, "changed");
		for (int i = 0; i < run_model_nsettings(m); i++) {
			const struct run_setting *s = run_model_setting(m, i);

			if (!run_setting_changed(s))
				continue;
			json_object_inline(j, NULL);
			json_str(j, "key", s->key);
			if (s->start)
				json_str(j, "start", s->start);
			else
				json_null(j, "start");
			if (s->end)
				json_str(j, "end", s->end);
			else
				json_null(j, "end");
			json_close(j);
		}
		json_close(j);
	} else {
		json_null(j, "settings");
		json_null(j, "changed");
	}
	json_outcome(rc, o);
	json_memcg(j, g);
	json_close(j);
}
