// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The swap/zswap kprobe catalogue against real kernels: the symbol lists
 * of 6.1, 6.12, 6.18, 7.2 and 7.3 kernels in tests/data/kernels/ must pick
 * the set made for them, every probe of the set must name a function the
 * kernel has, and no definition may be one that kernel refused when it was
 * tried for real (kprobes.txt, from the kernel-matrix guests).
 */
#include "config.h"
#include "probes.h"
#include "tap.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct {
	const char *prefix;	/* uname -r prefix of the data directory */
	const char *set;
} expect[] = {
	{ "5.10.", "5.10" },
	{ "6.1.", "6.1" },
	{ "6.12.", "6.12" },
	{ "6.18.", "6.18" },
	{ "7.2.", "7.x" },
	{ "7.3.", "7.x" },
};

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "re");
	struct strbuf sb = STRBUF_INIT;
	char buf[4096];
	size_t n;

	if (!f)
		return NULL;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		strbuf_add(&sb, buf, n);
	fclose(f);
	return strbuf_detach(&sb, NULL);
}

/*
 * kprobes.txt lines: "RESULT label: K:group/label SYMBOL ARGS[   [enabled]]".
 * Was "SYMBOL ARGS" of this kind tried there (*tried), and refused?
 */
static int refused(const char *kprobes, const struct probe_def *d, int *tried)
{
	char *copy = xstrdup(kprobes), *line, *save = NULL;
	char *want = xasprintf("%s %s", d->symbol, d->args);
	int bad = 0;

	*tried = 0;
	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *def = strstr(line, ": "), *sp, *tail;

		if (line[0] == ' ' || line[0] == '#' || !def)
			continue;
		def += 2;
		if (def[0] != d->kind || def[1] != ':' || !(sp = strchr(def, ' ')))
			continue;
		sp++;
		if ((tail = strstr(sp, "   [")))
			*tail = '\0';
		if (strcmp(sp, want))
			continue;
		(*tried)++;
		if (!strncmp(line, "REJECTED", 8))
			bad = 1;
	}
	free(copy);
	free(want);
	return bad;
}

/*
 * The list as /proc/kallsyms prints it ("ADDR t NAME", a module's
 * functions with "\t[MODULE]" after) gives record the same choice as
 * the list itself: probe_syms_from_kallsyms keeps only the catalogue's
 * names, which are all probes_choose asks about.
 */
static void same_from_kallsyms(const char *path, const char *name, const struct probe_choice *want)
{
	char *list = slurp(path), *save = NULL;
	struct strbuf ks = STRBUF_INIT;
	struct probe_syms syms = { 0 };
	struct probe_choice ch;
	size_t lines = 0, funcs;

	for (char *l = list ? strtok_r(list, "\n", &save) : NULL; l; l = strtok_r(NULL, "\n", &save)) {
		/* every third line a module's, and some data symbols between */
		strbuf_addf(&ks, "ffffffffc0%06zx %s%s\n", lines, l, lines % 3 ? "" : "\t[zram]");
		strbuf_addf(&ks, "ffffffffc1%06zx d %s_data\n", lines, l + 2);
		lines++;
	}
	funcs = probe_syms_from_kallsyms(&syms, ks.buf, ks.len);
	ok(funcs == lines, "%s: every function line of the kallsyms text is counted (%zu of %zu)",
	   name, funcs, lines);
	probes_choose(&syms, name, NULL, &ch);
	ok((ch.set == want->set) && ch.nuse == want->nuse &&
	   !strcmp(ch.skipped.buf ? ch.skipped.buf : "", want->skipped.buf ? want->skipped.buf : ""),
	   "%s: the same choice from kallsyms text (set %s, %d probes, %zu names kept of %zu)", name,
	   ch.set ? ch.set->name : "none", ch.nuse, syms.n, funcs);
	probe_choice_release(&ch);
	probe_syms_free(&syms);
	strbuf_release(&ks);
	free(list);
}

static void check_kernel(const char *dir, const char *name, const char *set)
{
	char *path = xasprintf("%s/%s/kallsyms-functions.txt", dir, name);
	char *kp_path = xasprintf("%s/%s/kprobes.txt", dir, name);
	char *kprobes = slurp(kp_path);
	struct probe_syms syms = { 0 };
	struct probe_choice ch;
	int tried_total = 0, bad = 0, missing = 0;

	int loaded = !probe_syms_load(&syms, path);

	if (!ok(loaded && syms.n > 0, "%s: symbol list loads (%zu names)", name, syms.n))
		goto out;
	probes_choose(&syms, name, NULL, &ch);	/* the directory is its uname -r */
	is_str(ch.set ? ch.set->name : "none", set, name);
	same_from_kallsyms(path, name, &ch);
	if (ch.skipped.len)
		printf("# %s: left out for want of a function: %s\n", name, ch.skipped.buf);
	for (int i = 0; i < ch.nuse; i++) {
		int tried;

		if (!probe_syms_has(&syms, ch.use[i]->symbol))
			missing++;
		if (kprobes && refused(kprobes, ch.use[i], &tried)) {
			bad++;
			printf("#   %s: %c %s %s was refused by this kernel\n", name,
			       ch.use[i]->kind, ch.use[i]->symbol, ch.use[i]->args);
		} else if (kprobes) {
			tried_total += tried > 0;
		}
	}
	ok(!missing, "%s: every probe names a function the kernel has", name);
	if (kprobes)
		ok(!bad, "%s: no probe definition was refused by the real kernel "
		   "(%d of %d tried there and accepted)", name, tried_total, ch.nuse);
	else
		ok(1, "%s: # SKIP no kprobes.txt (kernel without kprobe events)", name);
	if (ch.set) {
		int req = 0, used = 0;

		for (int i = 0; i < ch.set->ndefs; i++)
			req += ch.set->defs[i].required;
		for (int i = 0; i < ch.nuse; i++)
			used += ch.use[i]->required;
		is_int(used, req, "every required probe of the set is used");
	}
	probe_choice_release(&ch);
out:
	probe_syms_free(&syms);
	free(kprobes);
	free(path);
	free(kp_path);
}

static void check_synthetic(void)
{
	static const char ks[] =
		"ffffffff81000000 T folio_alloc_swap\n"
		"ffffffff81000010 t move_cluster\n"
		"ffffffff81000020 D swap_entries_free\n"			/* not a function */
		"ffffffff81000030 t not_in_the_catalogue\n"
		"ffffffffc0000000 t zswap_store\t[zswap]\n"
		"0000000000000000 t __swap_cluster_free_entries";		/* no newline */
	struct probe_syms syms = { 0 };
	struct probe_choice ch;

	is_int((int)probe_syms_from_kallsyms(&syms, ks, strlen(ks)), 5,
	       "kallsyms text: five t/T lines (a D line is no function)");
	ok(syms.n == 4 && probe_syms_has(&syms, "folio_alloc_swap") &&
	   probe_syms_has(&syms, "zswap_store") && probe_syms_has(&syms, "__swap_cluster_free_entries") &&
	   !probe_syms_has(&syms, "swap_entries_free") && !probe_syms_has(&syms, "not_in_the_catalogue"),
	   "kallsyms text: the catalogue's functions kept, module and last line included (%zu)",
	   syms.n);
	probe_syms_free(&syms);
	is_int((int)probe_syms_from_kallsyms(&syms, NULL, 0), 0, "no text: no function");

	probe_syms_sort(&syms);
	probes_choose(&syms, NULL, NULL, &ch);
	ok(!ch.set && ch.reason.len > 0, "an empty symbol list gives no set, with a reason");
	probe_choice_release(&ch);

	/* 7.x minus __swap_cluster_free_entries: no 7.x; nothing else fits */
	probe_syms_add(&syms, "move_cluster");
	probe_syms_add(&syms, "folio_alloc_swap");
	probe_syms_sort(&syms);
	probes_choose(&syms, NULL, NULL, &ch);
	ok(!ch.set && strstr(ch.reason.buf, "__swap_cluster_free_entries"),
	   "a missing required function is named in the reason");
	probe_choice_release(&ch);

	/* 6.18 set with optional functions missing: chosen, the rest listed */
	probe_syms_add(&syms, "swap_entries_free");
	probe_syms_sort(&syms);
	probes_choose(&syms, NULL, NULL, &ch);
	is_str(ch.set ? ch.set->name : "none", "6.18", "required functions alone pick the set");
	ok(ch.skipped.len && strstr(ch.skipped.buf, "zswap_store"),
	   "left-out optional probes are listed");
	probe_choice_release(&ch);
	probe_syms_free(&syms);
}

/*
 * A set is used only on the kernel series it was verified on: 5.10's
 * functions fit the 6.1 set (same required names) but its struct layout
 * differs, so 5.10 must get the 5.10 set and a kernel of an unverified
 * series none, with the reason in one line; --probe-set forces one.
 */
static void check_verified(const char *dir)
{
	char *p510 = xasprintf("%s/5.10.0-46-amd64/kallsyms-functions.txt", dir);
	char *p61 = xasprintf("%s/6.1.0-57-amd64/kallsyms-functions.txt", dir);
	struct probe_syms s510 = { 0 }, s61 = { 0 };
	struct probe_choice ch;
	char names[128];

	if (!ok(!probe_syms_load(&s510, p510) && !probe_syms_load(&s61, p61),
		"5.10 and 6.1 symbol lists"))
		goto out;
	probes_choose(&s510, NULL, NULL, &ch);
	ok(ch.set && !strcmp(ch.set->name, "6.1"),
	   "5.10's functions alone fit the 6.1 set (why the release must decide)");
	probe_choice_release(&ch);
	probes_choose(&s510, "5.10.0-46-amd64", NULL, &ch);
	is_str(ch.set ? ch.set->name : "none", "5.10", "5.10.0-46-amd64: the 5.10 set");
	ok(ch.skipped.len == 0, "5.10: every probe's function exists (%s)", ch.skipped.buf ?
	   ch.skipped.buf : "none left out");
	probe_choice_release(&ch);
	probes_choose(&s61, "6.1.0-57-amd64", NULL, &ch);
	is_str(ch.set ? ch.set->name : "none", "6.1", "6.1.0-57-amd64: the 6.1 set, not 5.10's");
	probe_choice_release(&ch);
	probes_choose(&s510, "5.15.0-105-generic", NULL, &ch);
	ok(!ch.set && strstr(ch.reason.buf, "probe set 6.1 fits this kernel's functions but "
			     "was verified only on 6.1, not 5.15") &&
	   strstr(ch.reason.buf, "--probe-set 6.1") && !strchr(ch.reason.buf, '\n'),
	   "an unverified series: no set, one line naming the set, the series and the option");
	probe_choice_release(&ch);
	probes_choose(&s61, "6.2.0", NULL, &ch);
	ok(!ch.set && strstr(ch.reason.buf, "not 6.2"), "6.1's functions on 6.2: no set");
	probe_choice_release(&ch);
	probes_choose(&s510, "5.15.0-105-generic", "6.1", &ch);
	ok(ch.set && !strcmp(ch.set->name, "6.1") && strstr(ch.skipped.buf, "fas(folio_alloc_swap)"),
	   "--probe-set 6.1 forces it; missing functions are left out and listed");
	probe_choice_release(&ch);
	probes_choose(&s510, "5.10.0-46-amd64", "9.9", &ch);
	ok(!ch.set && strstr(ch.reason.buf, "no probe set named '9.9'"), "an unknown forced name");
	probe_choice_release(&ch);
	ok(probe_set_find("5.10") && probe_set_find("7.x") && !probe_set_find("7"),
	   "probe_set_find by exact name");
	probe_set_names(names, sizeof(names));
	is_str(names, "5.10, 6.1, 6.12, 6.18, 7.x", "the names, oldest first");
	ok(probe_set_verified(probe_set_find("7.x"), "7.3.4+deb13-amd64") &&
	   probe_set_verified(probe_set_find("7.x"), "7.2.13+deb14-amd64") &&
	   !probe_set_verified(probe_set_find("7.x"), "7.4.0") &&
	   !probe_set_verified(probe_set_find("6.1"), "6.12.117+deb12-amd64"),
	   "verified series match MAJOR.MINOR exactly (6.1 is not 6.12)");
out:
	probe_syms_free(&s510);
	probe_syms_free(&s61);
	free(p510);
	free(p61);
}

/*
 * kprobe_profile as the kernel prints it ("  %-44s %15lu %15lu": event
 * name, hits, misses; newer kernels may print "system/event"): the misses
 * of the recording's own probes, "?" where a name is missing or ambiguous.
 */
static void check_profile(void)
{
	static const char text[] =
		"  alloc                                                  48213               0\n"
		"  store_r                                                20474             947\n"
		"  load_r                                                  8133               0\n"
		"  other_r                                                    5               2\n";
	static const char text2[] =
		"  mmscope_zswap_77/store_r                               20474              12\n"
		"  kprobes/store_r                                            3               1\n";
	struct strbuf sb = STRBUF_INIT;
	int n;

	n = probes_parse_profile(text, "mmscope_swap_9:alloc,mmscope_zswap_9:store_r,"
				 "mmscope_zswap_9:load_r,mmscope_zswap_9:wb_r", &sb);
	is_int(n, 3, "kprobe_profile: three of four probes have a line");
	is_str(sb.buf, "mmscope_swap_9:alloc=0,mmscope_zswap_9:store_r=947,"
	       "mmscope_zswap_9:load_r=0,mmscope_zswap_9:wb_r=?",
	       "kprobe_profile: misses by probe, '?' for a probe without a line");
	strbuf_release(&sb);
	n = probes_parse_profile(text2, "mmscope_zswap_77:store_r", &sb);
	is_int(n, 1, "system/event names: matched with the system");
	is_str(sb.buf, "mmscope_zswap_77:store_r=12", "system/event: the recording's own line");
	strbuf_release(&sb);
	n = probes_parse_profile("  store_r 1 1\n  store_r 2 2\n", "mmscope_zswap_5:store_r", &sb);
	ok(n == 0 && !strcmp(sb.buf, "mmscope_zswap_5:store_r=?"),
	   "two lines with the same event name: unknown, never one of them");
	strbuf_release(&sb);
	n = probes_parse_profile("garbage\n\n", "", &sb);
	ok(n == 0 && !sb.len, "no probes: nothing");
	strbuf_release(&sb);
}

/*
 * A real kprobe_profile (5.10.0-46 guest, tests/vm/run-vm.sh: return
 * probes on do_nanosleep with maxactive 1 and the kernel's default, an
 * entry probe, six sleeps at once): 5.10 counts a return probe's calls
 * beyond maxactive in the third column.
 */
static void check_profile_real(const char *dir)
{
	char *path = xasprintf("%s/5.10.0-46-amd64/kprobe_profile.txt", dir);
	char *text = slurp(path);
	struct strbuf sb = STRBUF_INIT;

	if (ok(text != NULL, "5.10 kprobe_profile.txt")) {
		is_int(probes_parse_profile(text, "kt:ns_r,kt:ns,kt:ns_def_r", &sb), 3,
		       "5.10: every probe has its line");
		is_str(sb.buf, "kt:ns_r=5,kt:ns=0,kt:ns_def_r=4",
		       "5.10: r1 missed 5 of 6 returns; the default maxactive missed 4");
	}
	strbuf_release(&sb);
	free(text);
	free(path);
}

/*
 * Installing into a fake tracefs (plain files): every return probe is
 * written with an explicit maxactive ("rN:"), never the kernel's default.
 */
static void check_maxactive(void)
{
	char dir[] = "/tmp/mmscope-test-probes.XXXXXX";
	const struct probe_set *set = probe_set_find("6.18");
	struct strbuf ks = STRBUF_INIT;
	struct probe_result res;
	char *ctl, *text, *want;
	FILE *f;
	int rlines = 0, bad = 0;

	if (!mkdtemp(dir)) {
		ok(0, "mkdtemp");
		return;
	}
	ctl = xasprintf("%s/kprobe_events", dir);
	f = fopen(ctl, "we");
	if (f)
		fclose(f);
	/* a kernel with every function of the 6.18 set */
	for (int i = 0; i < set->ndefs; i++)
		strbuf_addf(&ks, "ffffffff81%06x t %s\n", i, set->defs[i].symbol);
	probes_install(dir, dir, (1u << PROBE_SWAP) | (1u << PROBE_ZSWAP), "6.18", ks.buf, ks.len,
		       &res);
	strbuf_release(&ks);
	text = slurp(ctl);
	want = xasprintf("r%d:", PROBE_MAXACTIVE);
	for (char *save = NULL, *l = text ? strtok_r(text, "\n", &save) : NULL; l;
	     l = strtok_r(NULL, "\n", &save)) {
		if (l[0] != 'r')
			continue;
		rlines++;
		bad += strncmp(l, want, strlen(want)) != 0;
	}
	if (!rlines)
		ok(1, "# SKIP the 6.18 set has no return probe this host's /proc/kallsyms "
		   "has (%s)", res.reason);
	else
		ok(rlines > 0 && !bad, "%d return probes written, all as %s (%d not)", rlines,
		   want, bad);
	probe_result_release(&res);
	unlink(ctl);
	rmdir(dir);
	free(ctl);
	free(text);
	free(want);
}

/* The running kernel, for information only (any answer may be right). */
static void host_diag(void)
{
	struct probe_syms syms = { 0 };
	struct probe_choice ch;

	if (probe_syms_load(&syms, "/proc/kallsyms") || !syms.n) {
		printf("# this host: /proc/kallsyms not readable\n");
		probe_syms_free(&syms);
		return;
	}
	probes_choose(&syms, NULL, NULL, &ch);
	printf("# this host: probe set %s (%d probes)%s%s\n", ch.set ? ch.set->name : "none",
	       ch.nuse, ch.skipped.len ? ", left out: " : "", ch.skipped.len ? ch.skipped.buf : "");
	probe_choice_release(&ch);
	probe_syms_free(&syms);
}

int main(void)
{
	const char *top = getenv("top_srcdir");
	char *dir = xasprintf("%s/tests/data/kernels", top ? top : ".");
	DIR *d = opendir(dir);
	struct dirent *de;
	int seen = 0;

	ok(d != NULL, "kernel data in %s", dir);
	while (d && (de = readdir(d))) {
		for (size_t i = 0; i < ARRAY_SIZE(expect); i++)
			if (!strncmp(de->d_name, expect[i].prefix, strlen(expect[i].prefix))) {
				check_kernel(dir, de->d_name, expect[i].set);
				seen++;
			}
	}
	if (d)
		closedir(d);
	ok(seen >= 6, "symbol lists of at least 6 kernels (%d)", seen);
	host_diag();
	check_synthetic();
	check_profile();
	check_maxactive();
	check_verified(dir);
	check_profile_real(dir);
	free(dir);
	return tap_done();
}
