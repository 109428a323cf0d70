// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The event family table (parsers/families.c) against the real kernels
 * and the man page:
 *  - on every kernel of tests/data/kernels/ (events/SYSTEM/EVENT), every
 *    event a group enables ("compaction:*" expanded against that kernel's
 *    list, an alternate only where the main name is missing) has a parser
 *    in that same family's table;
 *  - every tracepoint parser is enabled by its family and exists on at
 *    least one of those kernels;
 *  - every kprobe parser names a probe of its family's sets (src/probes.c);
 *  - man/mmscope-record.1's "Event groups" lists the same groups in the
 *    same order, each with its help line and every event it enables;
 *  - the stall events of record -T (stacks_stall_events, src/model-stacks.h)
 *    are each a family's event, and the man page's -T item names them all.
 */
#include "config.h"
#include "families.h"
#include "model-stacks.h"
#include "probes.h"
#include "util.h"
#include "dir-names.h"
#include "tap.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int has_event(const char *events, const char *system, const char *event)
{
	char *p = xasprintf("%s/%s/%s/format", events, system, event);
	int r = !access(p, R_OK);

	free(p);
	return r;
}

/* Is (system, event) parsed by the family's own table? */
static const struct parser *family_parser(const struct event_family *f, const char *system,
					  const char *event)
{
	for (const struct parser *p = f->parsers; p && p->system; p++)
		if (!strcmp(p->system, system) && !strcmp(p->event, event))
			return p;
	return NULL;
}

/* One spec ("sys:ev" / "sys:*") on one kernel: each event it enables must
 * be parsed by the family. Returns the events found. */
static int check_spec(const char *kernel, const char *events, const struct event_family *f,
		      const char *spec, struct strbuf *bad)
{
	char *sys = xstrdup(spec), *ev = strchr(sys, ':');
	int n = 0;

	*ev++ = '\0';
	if (!strcmp(ev, "*")) {
		char *sdir = xasprintf("%s/%s", events, sys), **evs;
		int nev = dir_names(sdir, &evs);

		for (int i = 0; i < nev; i++, n++)
			if (!family_parser(f, sys, evs[i]))
				strbuf_addf(bad, " %s:%s(%s)", sys, evs[i], kernel);
		dir_names_free(evs, nev);
		free(sdir);
	} else if (has_event(events, sys, ev)) {
		n++;
		if (!family_parser(f, sys, ev))
			strbuf_addf(bad, " %s:%s(%s)", sys, ev, kernel);
	}
	free(sys);
	return n;
}

static void check_kernels(const char *src)
{
	char *dir = xasprintf("%s/tests/data/kernels", src), **kernels;
	int nk = dir_names(dir, &kernels), checked = 0;
	struct strbuf bad = STRBUF_INIT;

	for (int k = 0; k < nk; k++) {
		char *events = xasprintf("%s/%s/events", dir, kernels[k]);

		if (access(events, R_OK)) {
			free(events);
			continue;
		}
		checked++;
		for (int i = 0; i < event_nfamilies; i++) {
			const struct event_family *f = &event_families[i];

			if (!f->group)	/* ftrace:print is not in the kernel lists */
				continue;
			for (const struct family_event *fe = f->events; fe->spec; fe++) {
				int n = check_spec(kernels[k], events, f, fe->spec, &bad);

				if (!n && fe->alt)
					check_spec(kernels[k], events, f, fe->alt, &bad);
			}
		}
		free(events);
	}
	ok(checked >= 5, "%d kernels' event lists (6.1, 6.12, 6.18, 7.2, 7.3 expected)", checked);
	if (!ok(!bad.len, "every event a group enables has a parser in its family"))
		printf("#   not parsed:%s\n", bad.buf);
	strbuf_reset(&bad);

	/* the other way: each tracepoint parser is enabled and real */
	for (int i = 0; i < event_nfamilies; i++) {
		const struct event_family *f = &event_families[i];

		for (const struct parser *p = f->parsers; p && p->system; p++) {
			const struct family_event *fe;
			int somewhere = 0, alt = 0;

			if (!strncmp(p->system, "mmscope_", 8))
				continue;	/* kprobes: below */
			for (fe = f->events; fe->spec; fe++)
				if (family_event_matches(fe, p->system, p->event))
					break;
			/* an alternate names kernels older than the ones kept
			 * (writepage: before 5.19), so it may be on none of them */
			alt = fe->spec && fe->alt && strchr(fe->alt, ':') &&
			      !strcmp(strchr(fe->alt, ':') + 1, p->event);
			if (!fe->spec)
				strbuf_addf(&bad, " %s:%s(not enabled by %s)", p->system,
					    p->event, f->group ? f->group : "its family");
			for (int k = 0; k < nk && f->group; k++) {
				char *events = xasprintf("%s/%s/events", dir, kernels[k]);

				somewhere |= has_event(events, p->system, p->event);
				free(events);
			}
			if (f->group && !somewhere && !alt)
				strbuf_addf(&bad, " %s:%s(on no kernel)", p->system, p->event);
		}
	}
	if (!ok(!bad.len, "every tracepoint parser is enabled by its group, on a real kernel"))
		printf("#  %s\n", bad.buf);
	strbuf_release(&bad);
	dir_names_free(kernels, nk);
	free(dir);
}

/* "7.2" < "7.3.4+deb13-amd64" by major.minor */
static int series_before(const char *kernel, const char *since)
{
	int km = 0, kn = 0, sm = 0, sn = 0;

	sscanf(kernel, "%d.%d", &km, &kn);
	sscanf(since, "%d.%d", &sm, &sn);
	return km < sm || (km == sm && kn < sn);
}

/* An event marked "since" a series is on every kept kernel of that series
 * and later, and on none before it (doctor says "(7.2+)" on its word);
 * an unmarked one is on every kept kernel (or has an alternate). */
static void check_since(const char *src)
{
	char *dir = xasprintf("%s/tests/data/kernels", src), **kernels;
	int nk = dir_names(dir, &kernels);
	struct strbuf bad = STRBUF_INIT;

	for (int i = 0; i < event_nfamilies; i++)
		for (const struct family_event *fe = event_families[i].events; fe->spec; fe++) {
			char *sys = xstrdup(fe->spec), *ev = strchr(sys, ':');

			*ev++ = '\0';
			for (int k = 0; k < nk && strcmp(ev, "*") && event_families[i].group; k++) {
				char *events = xasprintf("%s/%s/events", dir, kernels[k]);
				char *sysdir = xasprintf("%s/%s", events, sys);
				int have = has_event(events, sys, ev);
				int want = !fe->since || !series_before(kernels[k], fe->since);

				/* a kernel whose data keeps no format of this system
				 * (task, sched on 7.x) tells nothing either way */
				if (!access(sysdir, R_OK) && have != want && !(fe->alt && !have))
					strbuf_addf(&bad, " %s on %s: %s", fe->spec, kernels[k],
						    have ? "there, marked newer" : "missing");
				free(sysdir);
				free(events);
			}
			free(sys);
		}
	if (!ok(!bad.len, "each event's 'since' matches the kept kernels"))
		printf("#  %s\n", bad.buf);
	strbuf_release(&bad);
	dir_names_free(kernels, nk);
	free(dir);
}

/* Each kprobe parser ("mmscope_swap_*", event "alloc") is a probe of the
 * family's probe sets. */
static void check_probes(void)
{
	struct strbuf bad = STRBUF_INIT;
	int n = 0;

	for (int i = 0; i < event_nfamilies; i++) {
		const struct event_family *f = &event_families[i];

		for (const struct parser *p = f->parsers; p && p->system; p++) {
			int found = 0;

			if (strncmp(p->system, "mmscope_", 8))
				continue;
			n++;
			for (int s = 0; s < probe_nsets && !found; s++)
				for (int d = 0; d < probe_sets[s].ndefs; d++)
					if ((f->probes & (1u << probe_sets[s].defs[d].family)) &&
					    !strcmp(probe_sets[s].defs[d].name, p->event))
						found = 1;
			if (!found)
				strbuf_addf(&bad, " %s/%s", f->group, p->event);
		}
	}
	if (!ok(n > 0 && !bad.len, "%d kprobe parsers, each a probe of its family's sets", n))
		printf("#   no such probe:%s\n", bad.buf);
	strbuf_release(&bad);
}

/* The "Event groups" items of the man page: ".TP", ".B name", text. */
struct man_group {
	char name[32];
	struct strbuf text;	/* the lines joined by spaces */
};

static int man_groups(const char *path, struct man_group *g, int max)
{
	struct strbuf page = STRBUF_INIT;
	char *save = NULL, *line;
	int in = 0, n = 0, want_name = 0;

	if (read_file(path, &page))
		return -1;
	for (line = strtok_r(page.buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, ".SS ", 4)) {
			in = !strcmp(line, ".SS Event groups");
			continue;
		}
		if (!in)
			continue;
		if (!strcmp(line, ".TP")) {
			want_name = 1;
		} else if (want_name && !strncmp(line, ".B ", 3) && n < max) {
			snprintf(g[n].name, sizeof(g[n].name), "%s", line + 3);
			g[n].text = (struct strbuf)STRBUF_INIT;
			n++;
			want_name = 0;
		} else if (!strncmp(line, ".PP", 3)) {
			in = 0;
		} else if (n && line[0] != '.') {
			strbuf_addf(&g[n - 1].text, "%s%s", g[n - 1].text.len ? " " : "", line);
		}
	}
	strbuf_release(&page);
	return n;
}

static void check_man(const char *src)
{
	char *path = xasprintf("%s/man/mmscope-record.1", src);
	struct man_group g[32];
	struct strbuf bad = STRBUF_INIT, want = STRBUF_INIT, got = STRBUF_INIT;
	int n = man_groups(path, g, 32), k = 0;

	for (int i = 0; i < event_nfamilies; i++)
		if (event_families[i].group)
			strbuf_addf(&want, " %s", event_families[i].group);
	for (int i = 0; i < n; i++)
		strbuf_addf(&got, " %s", g[i].name);
	if (!ok(n > 0 && want.len && got.len && !strcmp(want.buf, got.buf),
		"man/mmscope-record.1 lists the groups of the table, in order"))
		printf("#   man:  %s\n#   table:%s\n", got.len ? got.buf : " (none)", want.buf);
	for (int i = 0; i < event_nfamilies; i++) {
		const struct event_family *f = &event_families[i];
		const char *text;

		if (!f->group)
			continue;
		while (k < n && strcmp(g[k].name, f->group))
			k++;
		if (k >= n)
			break;
		text = g[k].text.buf ? g[k].text.buf : "";
		if (!strstr(text, f->help))
			strbuf_addf(&bad, " %s(help line)", f->group);
		if (!f->events[0].spec && !strstr(text, "Events: none"))
			strbuf_addf(&bad, " %s('Events: none')", f->group);
		for (const struct family_event *fe = f->events; fe->spec; fe++) {
			if (!strstr(text, fe->spec))
				strbuf_addf(&bad, " %s(%s)", f->group, fe->spec);
			if (fe->alt && !strstr(text, fe->alt))
				strbuf_addf(&bad, " %s(%s)", f->group, fe->alt);
		}
	}
	if (!ok(!bad.len, "each group's man entry has its help line and every event"))
		printf("#   missing from the man page:%s\n", bad.buf);
	for (int i = 0; i < n; i++)
		strbuf_release(&g[i].text);
	strbuf_release(&bad);
	strbuf_release(&want);
	strbuf_release(&got);
	free(path);
}

static void check_table(void)
{
	struct strbuf bad = STRBUF_INIT;

	for (int i = 0; i < event_nfamilies; i++) {
		const struct event_family *f = &event_families[i];

		if (f->group && family_find(f->group) != f)
			strbuf_addf(&bad, " %s(twice)", f->group);
		if (!f->help || !*f->help || strlen(f->help) > 66)
			strbuf_addf(&bad, " %s(help empty or over 66 columns)", f->group);
		for (const struct parser *p = f->parsers; p && p->system; p++) {
			/* kprobe systems are "mmscope_swap_PID" in a recording */
			size_t l = strlen(p->system);
			char *sys = l && p->system[l - 1] == '*' ?
				    xasprintf("%.*s123", (int)l - 1, p->system) : xstrdup(p->system);

			if (parser_lookup(sys, p->event) != p)
				strbuf_addf(&bad, " %s:%s(parsed twice)", p->system, p->event);
			else if (!strcmp(rec_type_name(p->rec), "?"))
				strbuf_addf(&bad, " %s:%s(no record type)", p->system, p->event);
			free(sys);
		}
	}
	if (!ok(!bad.len, "groups unique, help lines fit, one parser per event"))
		printf("#  %s\n", bad.buf);
	ok(family_find("none") == NULL && family_find("kswapd") != NULL,
	   "family_find: 'none' is no family, kswapd is");
}

/* -T's events: recorded by a group, and said in the man page's -T item
 * (".BR \-T ..." to the next ".TP"), SYSTEM:EVENT being 'SYS:mm_...'. */
static void check_stall_events(const char *src)
{
	char *path = xasprintf("%s/man/mmscope-record.1", src), line[512];
	struct strbuf item = STRBUF_INIT, bad = STRBUF_INIT;
	FILE *f = fopen(path, "re");
	int in = 0, n = 0, named = 0;

	while (f && fgets(line, sizeof(line), f)) {
		if (in && !strncmp(line, ".TP", 3))
			break;
		if (in)
			strbuf_addstr(&item, line);
		if (!strncmp(line, ".BR \\-T ", 8))
			in = 1;
	}
	if (f)
		fclose(f);
	for (const char *p = item.buf; p && (p = strstr(p, ":mm_")); p++)
		named++;
	for (const char *const *e = stacks_stall_events; *e; e++, n++) {
		const char *colon = strchr(*e, ':');
		char *sys = colon ? xasprintf("%.*s", (int)(colon - *e), *e) : xstrdup(*e);
		int found = 0;

		for (int i = 0; colon && i < event_nfamilies && !found; i++) {
			const struct family_event *fe = event_families[i].events;

			for (; fe->spec; fe++)
				found |= event_families[i].group &&
					 family_event_matches(fe, sys, colon + 1);
		}
		if (!found)
			strbuf_addf(&bad, " %s(no group)", *e);
		if (!item.buf || !strstr(item.buf, *e))
			strbuf_addf(&bad, " %s(not in the man page's -T)", *e);
		free(sys);
	}
	if (!ok(n == SK_NR && named == n && !bad.len,
		"-T's stall events: one per stack kind, each a group's, all in the man page"))
		printf("#   %d events, %d kinds, %d named in -T's item:%s\n", n, SK_NR, named,
		       bad.len ? bad.buf : "");
	strbuf_release(&item);
	strbuf_release(&bad);
	free(path);
}

int main(void)
{
	const char *src = getenv("top_srcdir");

	if (!src)
		src = ".";
	check_table();
	check_kernels(src);
	check_since(src);
	check_probes();
	check_man(src);
	check_stall_events(src);
	return tap_done();
}
