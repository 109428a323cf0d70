// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The swap/zswap kprobe catalogue (see probes.h) and its installation.
 *
 * The definitions follow ../shared/reference/kernel-facts.md sections 1.7
 * and 2.2; where tests/data/kernels/ * /kprobes.txt shows which forms a
 * real kernel accepted (6.1 rejects BTF argument names and return-probe
 * entry arguments; 6.12 rejects folio->flags.f), the accepted form is used.
 * A set is identified by its required probes; optional probes whose
 * function is missing are left out and listed.
 */
#include "config.h"
#include "probes.h"

#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#define SW PROBE_SWAP
#define ZS PROBE_ZSWAP

/*
 * 5.10 (Debian bullseye): no folios; slots come from get_swap_pages (order
 * 0 through scan_swap_map_slots, a PMD THP as one whole cluster), the
 * entry of a page from get_swap_page; zswap is a frontswap backend. Its
 * swap_info_struct has no percpu_ref "users" (added in 5.14): type at
 * +56, flags +0, prio +8, pages +104 (BTF of 5.10.0-46-amd64), where 6.1
 * has +72, +16, +24, +120. struct page's compound_order is at +81 (the
 * first tail page's byte 17) as in 6.1; PG_head is bit 16.
 */
static const struct probe_def defs_510[] = {
	{ SW, "alloc", 'p', "swap_range_alloc", "type=+56($arg1):s8 offset=$arg2:u64 nr=$arg3:u32", 1 },
	{ SW, "free", 'p', "swap_range_free", "type=+56($arg1):s8 offset=$arg2:u64 nr=$arg3:u32", 1 },
	{ SW, "getpg_r", 'r', "get_swap_pages", "ret=$retval:s32", 1 },
	{ SW, "fas", 'p', "get_swap_page", "folio=$arg1:x64 pflags=+0($arg1):x64 ord=+81($arg1):u8", 0 },
	{ SW, "fas_r", 'r', "get_swap_page", "entry=$retval:x64", 0 },
	{ SW, "dsched", 'p', "swap_cluster_schedule_discard", "type=+56($arg1):s8 idx=$arg2:u32", 0 },
	{ SW, "drun", 'p', "swap_do_scheduled_discard", "type=+56($arg1):s8", 0 },
	{ SW, "swapon", 'p', "_enable_swap_info", "type=+56($arg1):s8 flags=+0($arg1):x64 prio=+8($arg1):s16 pages=+104($arg1):u32", 0 },
	{ ZS, "store", 'p', "zswap_frontswap_store", "type=$arg1:u32 offset=$arg2:u64", 0 },
	{ ZS, "store_r", 'r', "zswap_frontswap_store", "ret=$retval:s32", 0 },
	{ ZS, "load", 'p', "zswap_frontswap_load", "type=$arg1:u32 offset=$arg2:u64", 0 },
	{ ZS, "load_r", 'r', "zswap_frontswap_load", "ret=$retval:s32", 0 },
	{ ZS, "wb_r", 'r', "zswap_writeback_entry", "ret=$retval:s32", 0 },
};

static const struct probe_def defs_61[] = {
	{ SW, "alloc", 'p', "swap_range_alloc", "type=+72($arg1):s8 offset=$arg2:u64 nr=$arg3:u32", 1 },
	{ SW, "free", 'p', "swap_range_free", "type=+72($arg1):s8 offset=$arg2:u64 nr=$arg3:u32", 1 },
	{ SW, "getpg_r", 'r', "get_swap_pages", "ret=$retval:s32", 1 },
	{ SW, "fas", 'p', "folio_alloc_swap", "folio=$arg1:x64 pflags=+0($arg1):x64 ord=+81($arg1):u8", 0 },
	{ SW, "fas_r", 'r', "folio_alloc_swap", "entry=$retval:x64", 0 },
	{ SW, "dsched", 'p', "swap_cluster_schedule_discard", "type=+72($arg1):s8 idx=$arg2:u32", 0 },
	{ SW, "drun", 'p', "swap_do_scheduled_discard", "type=+72($arg1):s8", 0 },
	{ SW, "swapon", 'p', "_enable_swap_info", "type=+72($arg1):s8 flags=+16($arg1):x64 prio=+24($arg1):s16 pages=+120($arg1):u32", 0 },
	{ ZS, "store", 'p', "zswap_frontswap_store", "type=$arg1:u32 offset=$arg2:u64", 0 },
	{ ZS, "store_r", 'r', "zswap_frontswap_store", "ret=$retval:s32", 0 },
	{ ZS, "load", 'p', "zswap_frontswap_load", "type=$arg1:u32 offset=$arg2:u64", 0 },
	{ ZS, "load_r", 'r', "zswap_frontswap_load", "ret=$retval:s32", 0 },
	{ ZS, "wb_r", 'r', "zswap_writeback_entry", "ret=$retval:s32", 0 },
};

static const struct probe_def defs_612[] = {
	{ SW, "alloc", 'p', "swap_range_alloc", "type=si->type offset nr=nr_entries", 1 },
	{ SW, "free", 'p', "swap_entry_range_free", "type=si->type entry=$arg2:x64 nr=nr_pages", 1 },
	{ SW, "scan", 'p', "alloc_swap_scan_cluster", "type=si->type offset order", 0 },
	{ SW, "scan_r", 'r', "alloc_swap_scan_cluster", "found=$retval:u32 type=si->type", 0 },
	{ SW, "getpg_r", 'r', "get_swap_pages", "ret=$retval:s32 n_goal=$arg1:s32 order=$arg3:s32", 1 },
	{ SW, "fas_r", 'r', "folio_alloc_swap", "entry=$retval:x64 pflags=folio->flags fl1=folio->_flags_1", 0 },
	{ SW, "drun", 'p', "swap_do_scheduled_discard", "type=si->type", 0 },
	{ SW, "rfull", 'p', "swap_reclaim_full_clusters", "type=si->type force", 0 },
	{ ZS, "store_r", 'r', "zswap_store", "ret=$retval:u8", 0 },
	{ ZS, "load_r", 'r', "zswap_load", "ret=$retval:u8", 0 },
	{ ZS, "wb", 'p', "zswap_writeback_entry", "entry=$arg2:x64", 0 },
	{ ZS, "wb_r", 'r', "zswap_writeback_entry", "ret=$retval:s32", 0 },
};

static const struct probe_def defs_618[] = {
	{ SW, "move", 'p', "move_cluster", "type=si->type cinfo=si->cluster_info ci old=ci->flags new=new_flags order=ci->order count=ci->count", 1 },
	{ SW, "free", 'p', "swap_entries_free", "type=si->type cinfo=si->cluster_info ci entry=$arg3:x64 nr=nr_pages count=ci->count", 1 },
	{ SW, "reloc", 'p', "relocate_cluster", "type=si->type cinfo=si->cluster_info ci flags=ci->flags order=ci->order count=ci->count", 0 },
	{ SW, "freecl", 'p', "free_cluster", "type=si->type cinfo=si->cluster_info ci", 0 },
	{ SW, "scan", 'p', "alloc_swap_scan_cluster.constprop.0", "type=+72($arg1):s8 cinfo=+96($arg1):x64 ci=$arg2:x64 offset=$arg3:u64 order=$arg4:u32 flags=+6($arg2):u8 count=+4($arg2):u16", 0 },
	{ SW, "scan_r", 'r', "alloc_swap_scan_cluster.constprop.0", "found=$retval:u32", 0 },
	{ SW, "fas_r", 'r', "folio_alloc_swap", "ret=$retval:s32 entry=folio->swap.val pflags=folio->flags.f fl1=folio->_flags_1", 1 },
	{ SW, "drun", 'p', "swap_do_scheduled_discard", "type=si->type", 0 },
	{ SW, "avadd", 'p', "add_to_avail_list", "type=si->type swapon", 0 },
	{ SW, "avdel", 'p', "del_from_avail_list", "type=si->type swapoff", 0 },
	{ ZS, "store_r", 'r', "zswap_store", "ret=$retval:u8 entry=folio->swap.val pflags=folio->flags.f fl1=folio->_flags_1", 0 },
	{ ZS, "load_r", 'r', "zswap_load", "ret=$retval:s32 entry=folio->swap.val", 0 },
	{ ZS, "wb_r", 'r', "shrink_memcg_cb", "ret=$retval:u32", 0 },
};

static const struct probe_def defs_7x[] = {
	/* ci and the cluster array let moves caused by frees be placed */
	{ SW, "move", 'p', "move_cluster", "type=si->type cinfo=si->cluster_info ci old=ci->flags new=new_flags order=ci->order count=ci->count", 1 },
	{ SW, "free", 'p', "__swap_cluster_free_entries", "type=si->type cinfo=si->cluster_info ci start=ci_start nr=nr_pages count=ci->count", 1 },
	{ SW, "isol", 'r', "isolate_lock_cluster", "ci=$retval:x64 type=si->type", 0 },
	{ SW, "scan", 'p', "alloc_swap_scan_cluster", "type=si->type offset", 0 },
	{ SW, "scan_r", 'r', "alloc_swap_scan_cluster", "found=$retval:u32 type=si->type", 0 },
	{ SW, "fas_r", 'r', "folio_alloc_swap", "ret=$retval:s32 entry=folio->swap.val pflags=folio->flags.f fl1=folio->_flags_1", 1 },
	{ SW, "reloc", 'p', "relocate_cluster", "type=si->type ci flags=ci->flags count=ci->count", 0 },
	{ SW, "freecl", 'p', "free_cluster", "type=si->type ci", 0 },
	{ SW, "drun", 'p', "swap_do_scheduled_discard", "type=si->type", 0 },
	{ SW, "avadd", 'p', "add_to_avail_list", "type=si->type swapon", 0 },
	{ ZS, "store_r", 'r', "zswap_store", "ret=$retval:u8", 0 },
	{ ZS, "load_r", 'r', "zswap_load", "ret=$retval:s32 entry=folio->swap.val", 0 },
	{ ZS, "wb_r", 'r', "shrink_memcg_cb", "ret=$retval:u32", 0 },
};

/*
 * Newest first: a kernel is matched by the first set it satisfies and was
 * verified on. "verified": the series check-vm (tests/vm) ran each set on
 * with its counts held to the kernel's counters (6.18: the definitions
 * were checked against that kernel's BTF and symbols; it has no kprobes).
 */
const struct probe_set probe_sets[] = {
	{ "7.x", defs_7x, (int)ARRAY_SIZE(defs_7x), "7.2 7.3", 0 },
	{ "6.18", defs_618, (int)ARRAY_SIZE(defs_618), "6.18", 0 },
	{ "6.12", defs_612, (int)ARRAY_SIZE(defs_612), "6.12", 0 },
	{ "6.1", defs_61, (int)ARRAY_SIZE(defs_61), "6.1", 1 },
	{ "5.10", defs_510, (int)ARRAY_SIZE(defs_510), "5.10", 1 },
};
const int probe_nsets = (int)ARRAY_SIZE(probe_sets);

/* ---- symbol lists ---- */

void probe_syms_add(struct probe_syms *s, const char *name)
{
	if (s->n == s->alloc) {
		s->alloc = s->alloc ? s->alloc * 2 : 1024;
		s->names = xreallocarray(s->names, s->alloc, sizeof(*s->names));
	}
	s->names[s->n++] = xstrdup(name);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void probe_syms_sort(struct probe_syms *s)
{
	if (s->n)
		qsort(s->names, s->n, sizeof(*s->names), cmp_str);
}

int probe_syms_has(const struct probe_syms *s, const char *name)
{
	return s->n && bsearch(&name, s->names, s->n, sizeof(*s->names), cmp_str);
}

int probe_syms_load(struct probe_syms *s, const char *path)
{
	FILE *f = fopen(path, "re");
	char line[512];

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *tok[3], *save = NULL, *p = line;
		int n = 0;

		while (n < 3 && (tok[n] = strtok_r(p, " \t\n", &save))) {
			p = NULL;
			n++;
		}
		/* "ADDR t NAME [mod]" (kallsyms) or "t NAME" (our lists) */
		if (n >= 3 && strlen(tok[1]) == 1 && (tok[1][0] == 't' || tok[1][0] == 'T'))
			probe_syms_add(s, tok[2]);
		else if (n >= 2 && strlen(tok[0]) == 1 && (tok[0][0] == 't' || tok[0][0] == 'T'))
			probe_syms_add(s, tok[1]);
	}
	fclose(f);
	probe_syms_sort(s);
	return 0;
}

/*
 * Only the names some catalogue set probes are kept: a kernel lists
 * 100,000 to 150,000 functions, the choice asks about a few dozen, and
 * copying and sorting them all took as long as the kernel's listing
 * (7.3 under qemu TCG: about 1.5 s of the probe choice's 3.1 s, 151,415
 * functions; a 6.18 host: 0.2 s, now 0.02 s).
 */
size_t probe_syms_from_kallsyms(struct probe_syms *s, const char *text, size_t len)
{
	const char **want = NULL, *p = text, *end = text ? text + len : NULL;
	size_t nwant = 0, funcs = 0;
	char name[128];

	for (int i = 0; i < probe_nsets; i++)
		for (int d = 0; d < probe_sets[i].ndefs; d++) {
			want = xreallocarray(want, nwant + 1, sizeof(*want));
			want[nwant++] = probe_sets[i].defs[d].symbol;
		}
	qsort(want, nwant, sizeof(*want), cmp_str);
	while (p && p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p)), *sp, *n, *ne;

		if (!eol)
			eol = end;
		sp = memchr(p, ' ', (size_t)(eol - p));
		/* "ADDR TYPE NAME[\t[MODULE]]" */
		if (sp && eol - sp > 3 && (sp[1] == 't' || sp[1] == 'T') && sp[2] == ' ') {
			n = ne = sp + 3;
			while (ne < eol && *ne != ' ' && *ne != '\t')
				ne++;
			funcs++;
			if ((size_t)(ne - n) < sizeof(name)) {
				const char *key = name;

				memcpy(name, n, (size_t)(ne - n));
				name[ne - n] = '\0';
				if (bsearch(&key, want, nwant, sizeof(*want), cmp_str))
					probe_syms_add(s, name);
			}
		}
		p = eol + 1;
	}
	free(want);
	probe_syms_sort(s);
	return funcs;
}

void probe_syms_free(struct probe_syms *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->names[i]);
	free(s->names);
	memset(s, 0, sizeof(*s));
}

/* ---- choosing ---- */

static int set_fits(const struct probe_set *set, const struct probe_syms *syms,
		    struct strbuf *why)
{
	int ok = 1;

	for (int i = 0; i < set->ndefs; i++)
		if (set->defs[i].required && !probe_syms_has(syms, set->defs[i].symbol)) {
			if (ok)
				strbuf_addf(why, "%s%s: no %s", why->len ? "; " : "",
					    set->name, set->defs[i].symbol);
			ok = 0;
		}
	return ok;
}

const struct probe_set *probe_set_find(const char *name)
{
	for (int s = 0; name && s < probe_nsets; s++)
		if (!strcmp(probe_sets[s].name, name))
			return &probe_sets[s];
	return NULL;
}

void probe_set_names(char *names, size_t len)
{
	size_t used = 0;

	if (len)
		names[0] = '\0';
	for (int s = probe_nsets - 1; s >= 0 && used + 1 < len; s--)
		used += (size_t)snprintf(names + used, len - used, "%s%s",
					 used ? ", " : "", probe_sets[s].name);
}

/* The series of a release ("5.10" of "5.10.0-46-amd64"). */
static void release_series(const char *release, char *out, size_t len)
{
	int maj, min;

	if (sscanf(release, "%d.%d", &maj, &min) == 2)
		snprintf(out, len, "%d.%d", maj, min);
	else
		snprintf(out, len, "%s", release);
}

int probe_set_verified(const struct probe_set *set, const char *release)
{
	const char *p = set->verified;
	char series[32];

	release_series(release, series, sizeof(series));
	while (p && *p) {
		size_t n = strcspn(p, " ");

		if (n && n == strlen(series) && !strncmp(series, p, n))
			return 1;
		p += n;
		p += strspn(p, " ");
	}
	return 0;
}

static void use_set(const struct probe_set *set, const struct probe_syms *syms,
		    struct probe_choice *out)
{
	out->set = set;
	for (int i = 0; i < set->ndefs && out->nuse < (int)ARRAY_SIZE(out->use); i++) {
		if (probe_syms_has(syms, set->defs[i].symbol))
			out->use[out->nuse++] = &set->defs[i];
		else
			strbuf_addf(&out->skipped, "%s%s(%s)", out->skipped.len ? "," : "",
				    set->defs[i].name, set->defs[i].symbol);
	}
}

void probes_choose(const struct probe_syms *syms, const char *release, const char *force,
		   struct probe_choice *out)
{
	struct strbuf why = STRBUF_INIT;
	const struct probe_set *unverified = NULL;

	memset(out, 0, sizeof(*out));
	if (force) {
		const struct probe_set *set = probe_set_find(force);

		if (set)
			use_set(set, syms, out);
		else
			strbuf_addf(&out->reason, "no probe set named '%s'", force);
		return;
	}
	for (int s = 0; s < probe_nsets; s++) {
		const struct probe_set *set = &probe_sets[s];

		if (!set_fits(set, syms, &why))
			continue;
		if (release && !probe_set_verified(set, release)) {
			if (!unverified)
				unverified = set;
			continue;
		}
		use_set(set, syms, out);
		break;
	}
	if (!out->set && unverified) {
		char series[32];

		out->unverified = 1;
		release_series(release, series, sizeof(series));
		strbuf_addf(&out->reason, "probe set %s fits this kernel's functions but was "
			    "verified only on %s, not %s (its struct offsets may read another "
			    "layout): counters and tracepoints only (record --probe-set %s "
			    "forces it)", unverified->name, unverified->verified, series,
			    unverified->name);
	} else if (!out->set)
		strbuf_addf(&out->reason, "no catalogue set matches this kernel's functions (%s)",
			    why.buf ? why.buf : "no sets");
	strbuf_release(&why);
}

void probe_choice_release(struct probe_choice *c)
{
	strbuf_release(&c->skipped);
	strbuf_release(&c->reason);
}

/* ---- installing ---- */

static char *tfs_path(const char *dir, const char *name)
{
	return xasprintf("%s/%s", dir, name);
}

const char *probes_control_file(const char *tracefs)
{
	static char buf[4096];
	char *kp = tfs_path(tracefs, "kprobe_events");
	char *dyn = tfs_path(tracefs, "dynamic_events");
	const char *r = NULL;

	/* dynamic_events also exists without kprobes (uprobes, synthetic) */
	if (!access(kp, F_OK)) {
		snprintf(buf, sizeof(buf), "%s", access(dyn, W_OK) ? kp : dyn);
		r = buf;
	}
	free(kp);
	free(dyn);
	return r;
}

static int write_str(const char *path, const char *s, int append)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC | (append ? O_APPEND : O_TRUNC));
	ssize_t n;
	int saved;

	if (fd < 0)
		return -1;
	n = write(fd, s, strlen(s));
	saved = errno;
	close(fd);
	errno = saved;
	return n == (ssize_t)strlen(s) ? 0 : -1;
}

/* The last line of error_log, trimmed, for a reason text. */
static void last_error(const char *tracefs, struct strbuf *out)
{
	char *path = tfs_path(tracefs, "error_log");
	struct strbuf sb = STRBUF_INIT;
	char *line, *last = NULL, *save = NULL;

	if (!read_file(path, &sb) && sb.len) {
		for (line = strtok_r(sb.buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
			if (strstr(line, "error:"))
				last = strstr(line, "error:");
		if (last)
			strbuf_addstr(out, last);
	}
	strbuf_release(&sb);
	free(path);
}

static const char *family_name(enum probe_family f)
{
	return f == PROBE_SWAP ? "swap" : "zswap";
}

void probes_install(const char *tracefs, const char *inst_dir, unsigned families,
		    const char *force, const char *kallsyms, size_t kallsyms_len,
		    struct probe_result *res)
{
	struct utsname u;
	const char *ctl = probes_control_file(tracefs);
	struct probe_syms syms = { 0 };
	struct probe_choice ch;
	struct strbuf reason = STRBUF_INIT, probes = STRBUF_INIT;
	int installed = 0;

	memset(res, 0, sizeof(*res));
	if (!ctl) {
		res->set = xstrdup("none");
		res->reason = xstrdup("no kprobe_events in tracefs (kernel built without CONFIG_KPROBE_EVENTS)");
		res->probes = xstrdup("");
		return;
	}
	if (access(ctl, W_OK)) {
		res->set = xstrdup("none");
		res->reason = xasprintf("permission: cannot write %s: %s", ctl, strerror(errno));
		res->probes = xstrdup("");
		return;
	}
	if (!probe_syms_from_kallsyms(&syms, kallsyms, kallsyms_len)) {
		res->set = xstrdup("none");
		res->reason = xstrdup("permission: /proc/kallsyms is not readable");
		res->probes = xstrdup("");
		probe_syms_free(&syms);
		return;
	}
	probes_choose(&syms, uname(&u) ? "?" : u.release, force, &ch);
	probe_syms_free(&syms);
	if (!ch.set) {
		res->set = xstrdup("none");
		res->reason = xstrdup(ch.reason.buf);
		res->unverified = ch.unverified;
		res->probes = xstrdup("");
		probe_choice_release(&ch);
		return;
	}
	for (int f = 0; f < 2; f++)
		res->systems[f] = xasprintf("mmscope_%s_%ld", family_name((enum probe_family)f),
					    (long)getpid());
	if (ch.skipped.len)
		strbuf_addf(&reason, "functions missing: %s", ch.skipped.buf);
	for (int i = 0; i < ch.nuse; i++) {
		const struct probe_def *d = ch.use[i];

		if (!(families & (1u << d->family)))
			continue;	/* that group was not asked for */
		/* a return probe gets PROBE_MAXACTIVE instances, never the
		 * kernel's small default (probes.h) */
		char *line = d->kind == 'r' ?
			xasprintf("r%d:%s/%s %s %s\n", PROBE_MAXACTIVE, res->systems[d->family],
				  d->name, d->symbol, d->args) :
			xasprintf("%c:%s/%s %s %s\n", d->kind, res->systems[d->family],
				  d->name, d->symbol, d->args);

		if (write_str(ctl, line, 1)) {
			strbuf_addf(&reason, "%s%s refused (", reason.len ? "; " : "", d->name);
			last_error(tracefs, &reason);
			strbuf_addch(&reason, ')');
		} else {
			char *en = xasprintf("%s/events/%s/%s/enable", inst_dir,
					     res->systems[d->family], d->name);

			if (write_str(en, "1", 0))
				strbuf_addf(&reason, "%s%s: cannot enable", reason.len ? "; " : "",
					    d->name);
			else {
				strbuf_addf(&probes, "%s%s:%s", probes.len ? "," : "",
					    res->systems[d->family], d->name);
				installed++;
			}
			free(en);
		}
		free(line);
	}
	res->set = xstrdup(installed ? ch.set->name : "none");
	res->reason = strbuf_detach(&reason, NULL);
	if (!res->reason)
		res->reason = xstrdup("");
	res->probes = strbuf_detach(&probes, NULL);
	if (!res->probes)
		res->probes = xstrdup("");
	probe_choice_release(&ch);
}

/* ---- missed hits (kprobe_profile) ---- */

/* The misses of event ev (system sys) in profile text: >= 0, -1 no line,
 * -2 more than one line could be it. */
static long long profile_misses(const char *text, const char *sys, const char *ev)
{
	const char *p = text;
	long long found = -1;
	int n = 0;

	while (p && *p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char line[512], name[300];
		unsigned long long hits, miss;

		snprintf(line, sizeof(line), "%.*s", (int)(len < sizeof(line) ? len : sizeof(line) - 1), p);
		if (sscanf(line, " %299s %llu %llu", name, &hits, &miss) == 3) {
			const char *slash = strchr(name, '/');
			int match = slash ? (size_t)(slash - name) == strlen(sys) &&
					    !strncmp(name, sys, strlen(sys)) && !strcmp(slash + 1, ev)
					  : !strcmp(name, ev);

			if (match) {
				n++;
				found = (long long)miss;
			}
		}
		p = nl ? nl + 1 : NULL;
	}
	return n > 1 ? -2 : found;
}

int probes_parse_profile(const char *text, const char *probes, struct strbuf *out)
{
	char *list = xstrdup(probes ? probes : ""), *save = NULL;
	int known = 0;

	for (char *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *colon = strchr(tok, ':');
		long long m;

		if (!colon)
			continue;
		*colon = '\0';
		m = profile_misses(text ? text : "", tok, colon + 1);
		if (m >= 0) {
			strbuf_addf(out, "%s%s:%s=%lld", out->len ? "," : "", tok, colon + 1, m);
			known++;
		} else
			strbuf_addf(out, "%s%s:%s=?", out->len ? "," : "", tok, colon + 1);
	}
	free(list);
	return known;
}

int probes_read_missed(const char *tracefs, const char *probes, struct strbuf *out)
{
	char *path = tfs_path(tracefs, "kprobe_profile");
	struct strbuf sb = STRBUF_INIT;
	int ret = -1;

	if (!read_file(path, &sb)) {
		probes_parse_profile(sb.buf ? sb.buf : "", probes, out);
		ret = 0;
	}
	strbuf_release(&sb);
	free(path);
	return ret;
}

/* Removes every probe of event system sys ("-:sys/name" per event). */
static void remove_system(const char *tracefs, const char *sys)
{
	const char *ctl = probes_control_file(tracefs);
	char *dir = xasprintf("%s/events/%s", tracefs, sys);
	DIR *d;
	struct dirent *de;

	if (!ctl || !(d = opendir(dir))) {
		free(dir);
		return;
	}
	while ((de = readdir(d))) {
		char *line;

		if (de->d_name[0] == '.' || !strcmp(de->d_name, "enable") ||
		    !strcmp(de->d_name, "filter"))
			continue;
		line = xasprintf("-:%s/%s\n", sys, de->d_name);
		write_str(ctl, line, 1);
		free(line);
	}
	closedir(d);
	free(dir);
}

void probes_remove(const char *tracefs, struct probe_result *res)
{
	for (int f = 0; f < 2; f++) {
		if (!res->systems[f])
			continue;
		remove_system(tracefs, res->systems[f]);
		free(res->systems[f]);
		res->systems[f] = NULL;
	}
}

int probes_cleanup_stale(const char *tracefs, struct strbuf *removed)
{
	char *dir = xasprintf("%s/events", tracefs);
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	free(dir);
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		const char *us;
		long pid;
		char *end;

		if (strncmp(de->d_name, "mmscope_", 8) || !(us = strrchr(de->d_name, '_')))
			continue;
		pid = strtol(us + 1, &end, 10);
		if (*end || pid <= 0 || !(kill((pid_t)pid, 0) && errno == ESRCH))
			continue;
		remove_system(tracefs, de->d_name);
		if (removed)
			strbuf_addf(removed, "%s%s", removed->len ? " " : "", de->d_name);
		n++;
	}
	closedir(d);
	return n;
}

void probe_result_release(struct probe_result *res)
{
	free(res->set);
	free(res->reason);
	free(res->probes);
	for (int f = 0; f < 2; f++)
		free(res->systems[f]);
	memset(res, 0, sizeof(*res));
}
