// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mmscope doctor: say what this kernel and these permissions allow
 * before anyone records: tracefs and instances, the event groups and
 * their events, kprobes and the probe set that would be chosen, the
 * sample sources, the trace clocks, and each problem with its fix. It
 * changes nothing, except a tracefs instance it creates and removes at
 * once to prove that it can.
 */
#include "config.h"
#include "cmd.h"
#include "doctor-zswap.h"
#include "collector.h"
#include "families.h"
#include "probes.h"
#include "sampler.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/stat.h>
#include <unistd.h>

static const char doctor_usage[] =
"usage: mmscope doctor [options]\n"
"\n"
"Check what 'mmscope record' can do on this kernel with these permissions,\n"
"and how to fix what it cannot.\n"
"\n"
"      --cgroup PATH      also check this memory cgroup as a sample source\n"
"  -h, --help             show this help\n";

struct doctor {
	struct strbuf problems;
	int fatal;
	const char *tracefs;
};

static void problem(struct doctor *d, int fatal, const char *what, const char *fix)
{
	strbuf_addf(&d->problems, "  - %s\n    fix: %s\n", what, fix);
	d->fatal |= fatal;
}

static int path_exists(const char *dir, const char *name)
{
	char *p = xasprintf("%s/%s", dir, name);
	int r = !access(p, F_OK);

	free(p);
	return r;
}

static void check_tracefs(struct doctor *d)
{
	char *err = NULL;

	printf("tracefs\n");
	d->tracefs = collector_tracefs(&err);
	if (!d->tracefs) {
		printf("  mount:       none (%s)\n", err);
		if (strstr(err, "permission denied"))
			problem(d, 1, "tracefs is only for root here", "run as root");
		else
			problem(d, 1, "tracefs is not mounted and could not be mounted",
				"mount -t tracefs nodev /sys/kernel/tracing (as root)");
		free(err);
		return;
	}
	printf("  mount:       %s\n", d->tracefs);
	printf("  instances:   %s\n", path_exists(d->tracefs, "instances") ? "yes" : "no");
}

static void check_ftrace_enabled(void);

static void check_instance(struct doctor *d)
{
	char *dir;

	if (!d->tracefs)
		return;
	dir = xasprintf("%s/instances/mmscope-%ld", d->tracefs, (long)getpid());
	if (mkdir(dir, 0755)) {
		printf("  create:      no (%s)\n", strerror(errno));
		problem(d, 1, "cannot create a tracefs instance",
			errno == EACCES || errno == EPERM ?
			"run as root (or with CAP_SYS_ADMIN and write access to tracefs)" :
			"a kernel with tracefs instances (3.10 or later) is needed");
	} else {
		printf("  create:      yes (own instance, removed again)\n");
		rmdir(dir);
	}
	free(dir);
	check_ftrace_enabled();
}

/*
 * access(W_OK) says yes for root on the 0644 file while the write itself
 * is refused (EPERM, e.g. a VM whose kernel locks function tracing): the
 * only true test is a write. Writing back the value read changes nothing.
 */
static void check_ftrace_enabled(void)
{
	static const char path[] = "/proc/sys/kernel/ftrace_enabled";
	struct strbuf v = STRBUF_INIT;
	const char *state;
	int fd;

	if (read_file(path, &v) || !v.len) {
		strbuf_release(&v);
		return;
	}
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		state = errno == ENOENT ? NULL : "read-only";
	else {
		state = write(fd, v.buf, v.len) == (ssize_t)v.len ? "writable" : "read-only";
		close(fd);
	}
	if (state && !strcmp(state, "read-only"))
		printf("  ftrace_enabled: read-only (stock 'trace-cmd record' fails; "
		       "mmscope does not need it)\n");
	else if (state)
		printf("  ftrace_enabled: writable\n");
	strbuf_release(&v);
}

/* prefix then words, wrapped at 79 columns under the prefix */
static void report_wrapped(const char *prefix, const char *words)
{
	int indent = (int)strlen(prefix), col = indent;
	const char *p = words;

	fputs(prefix, stdout);
	while (*p) {
		int n = (int)strcspn(p, " ");

		/* "(7.2+)" stays with its event */
		if (p[n] == ' ' && p[n + 1] == '(')
			n += 1 + (int)strcspn(p + n + 1, " ");
		if (col > indent && col + 1 + n > 79) {
			printf("\n%*s", indent, "");
			col = indent;
		} else if (col > indent) {
			putchar(' ');
			col++;
		}
		printf("%.*s", n, p);
		col += n;
		p += n;
		while (*p == ' ')
			p++;
	}
	putchar('\n');
}

static void check_groups(struct doctor *d)
{
	char *evdir = xasprintf("%s/events", d->tracefs);

	printf("event groups\n");
	for (int g = 0; g < event_nfamilies; g++) {
		const struct event_family *fam = &event_families[g];
		struct strbuf have = STRBUF_INIT, miss = STRBUF_INIT;

		if (!fam->group)
			continue;
		for (const struct family_event *fe = fam->events; fe->spec; fe++) {
			/* the name this kernel has (writepage for write_folio before 5.19) */
			const char *spec = collector_event_choice(evdir, fe);
			const char *ev = strchr(spec, ':') + 1;

			if (!collector_event_present(evdir, spec) && fe->since)
				strbuf_addf(&miss, "%s%s (%s+)", miss.len ? " " : "", ev, fe->since);
			else if (!collector_event_present(evdir, spec))
				strbuf_addf(&miss, "%s%s", miss.len ? " " : "", ev);
			else if (!strcmp(ev, "*"))
				strbuf_addf(&have, "%s(every %.*s event)", have.len ? " " : "",
					    (int)(ev - 1 - spec), spec);
			else
				strbuf_addf(&have, "%s%s", have.len ? " " : "", ev);
		}
		char *prefix = xasprintf("  %-11s ", fam->group);

		report_wrapped(prefix, have.len ? have.buf :
			       (fam->probes ? "(kprobes only)" : "none"));
		free(prefix);
		if (miss.len)
			report_wrapped("              missing: ", miss.buf);
		strbuf_release(&have);
		strbuf_release(&miss);
	}
	free(evdir);
}

static void check_probes(struct doctor *d)
{
	const char *ctl = probes_control_file(d->tracefs);
	struct probe_syms syms = { 0 };
	struct probe_choice ch;
	struct utsname u;

	printf("swap/zswap kprobes\n");
	if (!ctl) {
		printf("  kprobe_events: no (kernel built without CONFIG_KPROBE_EVENTS)\n");
		printf("  probe set:   none; swap and zswap are seen through counters only\n");
		problem(d, 0, "no kprobe events: no swap-slot or zswap probes",
			"a kernel with CONFIG_KPROBES=y and CONFIG_KPROBE_EVENTS=y; the "
			"recording still has vmscan events and the swpout/zswap counters");
		return;
	}
	printf("  control:     %s%s\n", ctl, access(ctl, W_OK) ? " (not writable)" : "");
	if (probe_syms_load(&syms, "/proc/kallsyms") || !syms.n) {
		printf("  kallsyms:    unreadable\n");
		problem(d, 0, "/proc/kallsyms is not readable", "run as root");
		probe_syms_free(&syms);
		return;
	}
	probes_choose(&syms, uname(&u) ? "?" : u.release, NULL, &ch);
	if (ch.set) {
		printf("  probe set:   %s (%d probes)\n", ch.set->name, ch.nuse);
		if (ch.skipped.len)
			printf("  left out:    %s\n", ch.skipped.buf);
	} else {
		printf("  probe set:   none: %s\n", ch.reason.buf);
		problem(d, 0, "no verified probe set for this kernel",
			"report the kernel version; record goes on without probes "
			"(or --probe-set NAME)");
	}
	probe_choice_release(&ch);
	probe_syms_free(&syms);
}

/* Sampling swap works with no device too, but there is nothing to see. */
static void check_swap_devices(struct doctor *d)
{
	struct strbuf sb = STRBUF_INIT;
	char *line, *save = NULL;
	int devices = 0, files = 0;

	if (read_file("/proc/swaps", &sb))
		return;
	for (line = strtok_r(sb.buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char name[256], type[32];

		if (sscanf(line, "%255s %31s", name, type) != 2 || !strcmp(name, "Filename"))
			continue;
		devices++;
		if (!strcmp(type, "file")) {
			files++;
			printf("              %s: a swap file, never takes mTHP swap-out "
			       "(only block devices do)\n", name);
		} else {
			printf("              %s: %s\n", name, type);
		}
	}
	if (!devices) {
		printf("              no active swap device\n");
		problem(d, 0, "no active swap device: nothing will be swapped out",
			"swapon a block device (a swap file never takes mTHP swap-out)");
	} else if (files == devices) {
		problem(d, 0, "only swap files are active: no mTHP swap-out, every large "
			"folio is split before swap-out",
			"swapon a block device (e.g. a loop device) for mTHP swap-out");
	}
	strbuf_release(&sb);
}

/* zswap's pool counters live in debugfs: say whether they can be read
 * (the words: doctor-zswap.c). */
static void check_zswap_debugfs(struct doctor *d)
{
	struct strbuf sb = STRBUF_INIT;
	struct zswap_seen s = { .enabled = -1, .root = geteuid() == 0 };
	struct zswap_verdict v;

	if (!read_file("/proc/mounts", &sb))
		s.debugfs_mounted = strstr(sb.buf, " debugfs ") != NULL;
	s.dir_errno = access("/sys/kernel/debug/zswap", F_OK) ? errno : 0;
	s.debugfs_searchable = !access("/sys/kernel/debug", X_OK);
	strbuf_reset(&sb);	/* read_file appends */
	if (!read_file("/sys/module/zswap/parameters/enabled", &sb) && sb.len)
		s.enabled = sb.buf[0] == 'Y' || sb.buf[0] == '1';
	strbuf_release(&sb);
	doctor_zswap_verdict(&s, &v);
	printf("              pool counters: %s\n", v.line);
	if (v.problem)
		problem(d, 0, v.problem, v.fix);
}

static void check_sources(struct doctor *d, const char *cgroup)
{
	struct sampler_opts so = { .cgroup = cgroup };
	struct sampler_probe sp[16];
	int n = sampler_check(&so, sp, 16);

	printf("sample sources\n");
	for (int i = 0; i < n; i++) {
		/* the why tokens are for the recording; people read spaces */
		for (char *u = sp[i].why; *u; u++)
			if (*u == '_')
				*u = ' ';
		printf("  %-11s %s%s\n", sp[i].source, sp[i].available ? "yes" : "no: ",
		       sp[i].available ? "" : sp[i].why);
		if (sp[i].available && !strcmp(sp[i].source, "swap"))
			check_swap_devices(d);
		if (sp[i].available && !strcmp(sp[i].source, "zswap"))
			check_zswap_debugfs(d);
		if (!sp[i].available && !strcmp(sp[i].source, "pagetype"))
			problem(d, 0, "/proc/pagetypeinfo is not readable", "run as root");
		if (!sp[i].available && !strcmp(sp[i].source, "psi"))
			problem(d, 0, "no memory pressure (PSI) counters",
				"boot with psi=1 (CONFIG_PSI=y)");
	}
}

static void check_clocks(struct doctor *d)
{
	char *p = xasprintf("%s/trace_clock", d->tracefs);
	struct strbuf sb = STRBUF_INIT;

	if (!read_file(p, &sb) && sb.len) {
		if (sb.buf[sb.len - 1] == '\n')
			sb.buf[--sb.len] = '\0';
		printf("trace clocks   %s (mmscope uses mono by default)\n", sb.buf);
	}
	strbuf_release(&sb);
	free(p);
}

static int cmd_doctor(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "cgroup", required_argument, NULL, 256 },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct doctor d = { .problems = STRBUF_INIT };
	const char *cgroup = NULL;
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		if (c == 256)
			cgroup = optarg;
		else if (c == 'h')
			return show_help(&cmd_doctor_entry);
		else
			return bad_option(&cmd_doctor_entry, argc, argv);
	}
	if (optind != argc)
		return usage_error(&cmd_doctor_entry, "unexpected argument '%s'", argv[optind]);
	if (geteuid())
		problem(&d, 0, "not running as root", "run 'mmscope record' as root");
	check_tracefs(&d);
	if (d.tracefs) {
		check_instance(&d);
		check_clocks(&d);
		check_groups(&d);
		check_probes(&d);
	}
	check_sources(&d, cgroup);
	if (d.problems.len)
		printf("problems\n%s", d.problems.buf);
	printf("verdict        %s\n", d.fatal ? "mmscope record cannot run here" :
	       d.problems.len ? "mmscope record can run, with the limits above" :
	       "mmscope record can run with everything");
	strbuf_release(&d.problems);
	return d.fatal ? EXIT_ERROR : EXIT_OK;
}

const struct cmd_entry cmd_doctor_entry = {
	.name = "doctor",
	.summary = "check what recording this kernel and these permissions allow",
	.usage = doctor_usage,
	.run = cmd_doctor,
};
