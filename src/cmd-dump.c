// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mmscope dump: print the events of a recording, one line each, in time
 * order (like "trace-cmd report"), or with --stat count them per event
 * and per CPU with the lost events the file records.
 */
#include "config.h"
#include "analysis.h"
#include "cmd.h"
#include "inputs.h"
#include "report-history.h"
#include "tracedat-set.h"
#include "event-format.h"
#include "util.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char dump_usage[] =
"usage: mmscope dump [options] FILE|DIR...\n"
"\n"
"Print the events of a recording, one line per event, in time order.\n"
"The parts of one switch-output run (one run id), named or in a\n"
"directory, are one recording: their events in time order, counted\n"
"together. The runs of one host (its history: restarts, incidents) are\n"
"printed one after another in time order, each under a line naming it,\n"
"with the gap between them; other hosts' files are refused.\n"
"\n"
"  -e, --event SYSTEM[:EVENT]  only these events (repeat, or separate with ',');\n"
"                              !SYSTEM[:EVENT] leaves those out (e.g.\n"
"                              '!ftrace:print': no counter-sample lines)\n"
"      --cpu LIST              only these CPUs (e.g. 0,2-3)\n"
"      --pid LIST              only these task ids\n"
"      --cgroup PATH           only events of tasks in the memory cgroup PATH\n"
"                              or below it at the time (recordings whose\n"
"                              tasks' cgroups mmscope record listed)\n"
"      --since T               only from T: seconds from the first event, as\n"
"                              mmscope report prints times, @T a time stamp\n"
"                              as printed here and by trace-cmd, or a\n"
"                              wall-clock time 2026-12-01T14:32:05Z\n"
"      --until T               stop after T (same forms)\n"
"      --run N                 only run N of a host's history (time order)\n"
"      --stat                  print event counts and lost events instead\n"
"      --info                  print what the file says about itself instead\n"
"                              (version, buffers, clock, kernel, mmscope metadata)\n"
"  -h, --help                  show this help\n";

struct dump_opts {
	const char *file;	/* what messages call the recording */
	char **files;		/* FILE|DIR... */
	int nfiles;
	struct inputs in;	/* the recording and the window */
	char **events;		/* "system" or "system:event" */
	int nevents;
	unsigned char *cpus;	/* bitmap-ish: cpus[n] != 0 selects */
	int ncpus;
	long *pids;
	int npids;
	int stat;
	int info;
	int sel_all;		/* -e names only exclusions */
};

/* The length of the valid UTF-8 sequence at s (at most n bytes), or 0. */
static int meta_utf8_len(const char *str, int n)
{
	const unsigned char *s = (const unsigned char *)str;
	int len = s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 ? 2 : 0;

	if (s[0] > 0xf4 || !len || len > n)
		return 0;
	for (int i = 1; i < len; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	/* overlong, surrogate and beyond-U+10FFFF forms */
	if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] > 0x9f) ||
	    (s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] > 0x8f))
		return 0;
	return len;
}

static int add_list(const char *s, long **out, int *n, long max)
{
	char *copy = xstrdup(s), *tok, *save = NULL;
	int r = 0;

	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		unsigned long long a, b;
		char *dash = strchr(tok, '-');

		if (dash) {
			*dash = '\0';
			if (parse_ull(tok, &a) || parse_ull(dash + 1, &b) || b < a) {
				r = -1;
				break;
			}
		} else if (parse_ull(tok, &a)) {
			r = -1;
			break;
		} else {
			b = a;
		}
		if (b > (unsigned long long)max || b - a > 100000) {
			r = -1;
			break;
		}
		for (unsigned long long v = a; v <= b; v++) {
			*out = xreallocarray(*out, (size_t)*n + 1, sizeof(long));
			(*out)[(*n)++] = (long)v;
		}
	}
	free(copy);
	return r;
}

static int dump_parse_opts(int argc, char **argv, struct dump_opts *o)
{
	enum { OPT_CPU = 256, OPT_PID, OPT_STAT, OPT_INFO };
	static const struct option longopts[] = {
		{ "event", required_argument, NULL, 'e' },
		{ "cpu", required_argument, NULL, OPT_CPU },
		{ "pid", required_argument, NULL, OPT_PID },
		{ "since", required_argument, NULL, SCOPE_OPT_SINCE },
		{ "until", required_argument, NULL, SCOPE_OPT_UNTIL },
		{ "cgroup", required_argument, NULL, SCOPE_OPT_CGROUP },
		{ "run", required_argument, NULL, SCOPE_OPT_RUN },
		{ "stat", no_argument, NULL, OPT_STAT },
		{ "info", no_argument, NULL, OPT_INFO },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const struct cmd_entry *cmd = &cmd_dump_entry;
	long *cpus = NULL;
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "e:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'e': {
			char *copy = xstrdup(optarg), *tok, *save = NULL;

			for (tok = strtok_r(copy, ",", &save); tok;
			     tok = strtok_r(NULL, ",", &save)) {
				o->events = xreallocarray(o->events, (size_t)o->nevents + 1,
							  sizeof(char *));
				o->events[o->nevents++] = xstrdup(tok);
			}
			free(copy);
			break;
		}
		case OPT_CPU:
			if (add_list(optarg, &cpus, &o->ncpus, 65535))
				return usage_error(cmd, "bad CPU list '%s'", optarg);
			break;
		case OPT_PID:
			if (add_list(optarg, &o->pids, &o->npids, 1L << 30))
				return usage_error(cmd, "bad task id list '%s'", optarg);
			break;
		case SCOPE_OPT_SINCE:
		case SCOPE_OPT_UNTIL:
		case SCOPE_OPT_CGROUP:
		case SCOPE_OPT_RUN:
			if ((c = parse_scope(cmd, c, optarg, &o->in.scope)))
				return c;
			break;
		case OPT_STAT:
			o->stat = 1;
			break;
		case OPT_INFO:
			o->info = 1;
			break;
		case 'h':
			return -1;
		default:
			return bad_option(cmd, argc, argv);
		}
	}
	if ((c = check_scope(cmd, &o->in.scope)))
		return c;
	if (cpus) {
		o->cpus = xcalloc(65536, 1);
		for (int i = 0; i < o->ncpus; i++)
			o->cpus[cpus[i]] = 1;
		free(cpus);
	}
	o->file = argv[optind];
	o->files = argv + optind;
	o->nfiles = argc - optind;
	return inputs_args_check(cmd, o->files, o->nfiles);
}

/* Per event id: selected by -e? Decided once per id, not per event.
 * Names with '!' leave events out: of all when no name selects. */
static unsigned char *select_events(struct tep_handle *tep,
				    const struct dump_opts *o, const char **missing)
{
	struct tep_event **evs = tep_list_events(tep, TEP_EVENT_SORT_ID);
	unsigned char *sel = xcalloc(65536, 1);
	int any_in = 0;

	*missing = NULL;
	for (int i = 0; i < o->nevents; i++)
		any_in |= o->events[i][0] != '!';
	if (!any_in)
		memset(sel, 1, 65536);
	for (int pass = 0; pass < 2; pass++)	/* selections, then exclusions */
	for (int i = 0; i < o->nevents; i++) {
		const char *want = o->events[i], *colon;
		int out = want[0] == '!', found = 0;
		size_t syslen;

		if (out != pass)
			continue;
		want += out;
		colon = strchr(want, ':');
		syslen = colon ? (size_t)(colon - want) : strlen(want);
		for (int k = 0; evs && evs[k]; k++) {
			struct tep_event *e = evs[k];

			if (strlen(e->system) != syslen || strncmp(e->system, want, syslen))
				continue;
			if (colon && strcmp(e->name, colon + 1))
				continue;
			if (e->id >= 0 && e->id < 65536)
				sel[e->id] = !out;
			found = 1;
		}
		if (!found && !*missing)
			*missing = o->events[i];
	}
	return sel;
}

static int keep_event(const struct dump_opts *o, const unsigned char *sel,
		      struct tep_handle *tep, struct td_event *ev)
{
	if (sel && ev->event && ev->event->id >= 0 && ev->event->id < 65536 &&
	    !sel[ev->event->id])
		return 0;
	if (sel && !ev->event && !o->sel_all)	/* no format: only without a selection */
		return 0;
	if (o->cpus && (ev->cpu > 65535 || !o->cpus[ev->cpu]))
		return 0;
	if (o->npids) {
		int pid = tep_data_pid(tep, &ev->record);

		for (int i = 0; i < o->npids; i++)
			if (o->pids[i] == pid)
				return 1;
		return 0;
	}
	return 1;
}

/*
 * The event lines: built in place in one large buffer and handed to stdio
 * a megabyte at a time, which it writes without copying (a write larger
 * than its own buffer goes straight out). The compiled formatters write
 * into it directly; only libtraceevent's lines pass through a trace_seq.
 * On a terminal every line is flushed.
 */
struct dump_out {
	char *buf;
	size_t len, cap;
	int tty;
};

#define DUMP_OUT_CAP (1u << 20)

static void out_flush(struct dump_out *o)
{
	if (o->len)
		fwrite_unlocked(o->buf, 1, o->len, stdout);
	o->len = 0;
}

/* Where n more bytes can go (n <= DUMP_OUT_CAP). */
static char *out_room(struct dump_out *o, size_t n)
{
	if (o->cap - o->len < n)
		out_flush(o);
	return o->buf + o->len;
}

static void out_done(struct dump_out *o, size_t n)
{
	o->len += n;
	if (o->tty)
		out_flush(o);
}

static void print_lost(struct dump_out *o, const struct td_event *ev)
{
	char *p = out_room(o, 64);
	int n = ev->missed > 0 ?
		snprintf(p, 64, "CPU:%d [%lld EVENTS DROPPED]\n", ev->cpu, ev->missed) :
		snprintf(p, 64, "CPU:%d [EVENTS DROPPED]\n", ev->cpu);

	out_done(o, n > 0 && n < 64 ? (size_t)n : 0);
}

/* f: tf's formatter */
static void print_event(struct dump_out *o, struct td_file *tf, struct event_formatter *f,
			struct trace_seq *s, struct td_event *ev)
{
	const struct td_buffer *b = td_buffer(tf, ev->buffer);
	const char *name = b ? b->name : NULL;
	int n = event_format_direct(f, out_room(o, EVENT_FORMAT_DIRECT_MAX), name, ev);

	if (n >= 0) {
		out_done(o, (size_t)n);
		return;
	}
	event_format(f, s, name, ev);
	if (s->len + 1 > DUMP_OUT_CAP) {	/* a huge line: straight out */
		out_flush(o);
		fwrite_unlocked(s->buffer, 1, s->len, stdout);
		putc_unlocked('\n', stdout);
		return;
	}
	char *p = out_room(o, s->len + 1);

	memcpy(p, s->buffer, s->len);
	p[s->len] = '\n';
	out_done(o, s->len + 1);
}

struct stat_row {
	const char *name;
	unsigned long long count;
};

static int cmp_row(const void *a, const void *b)
{
	return strcmp(((const struct stat_row *)a)->name, ((const struct stat_row *)b)->name);
}

static void print_stat(struct td_set *set, unsigned long long *per_id,
		       unsigned long long unknown, unsigned long long total,
		       unsigned long long *cpu_events, long long *cpu_missed,
		       int *cpu_missed_unknown, int ncpus)
{
	struct tep_handle *tep = td_tep(td_set_file(set, 0));
	struct stat_row *rows = NULL;
	size_t nrows = 0;

	for (int i = 0; i < td_set_nfiles(set); i++) {
		struct td_file *tf = td_set_file(set, i);

		if (tf)
			printf("file: %s (trace.dat v%d, %s)\n", td_path(tf), td_version(tf),
			       td_compression(tf));
	}
	for (int id = 0; id < 65536; id++) {
		struct tep_event *e;

		if (!per_id[id])
			continue;
		e = tep_find_event(tep, id);
		rows = xreallocarray(rows, nrows + 1, sizeof(*rows));
		rows[nrows].name = e ? xasprintf("%s:%s", e->system, e->name) : xstrdup("?");
		rows[nrows++].count = per_id[id];
	}
	if (nrows)	/* rows is NULL when no event has a format */
		qsort(rows, nrows, sizeof(*rows), cmp_row);
	printf("\n%12s  %s\n", "events", "event");
	for (size_t i = 0; i < nrows; i++) {
		printf("%12llu  %s\n", rows[i].count, rows[i].name);
		free((char *)rows[i].name);
	}
	free(rows);
	if (unknown)
		printf("%12llu  (unknown event ids)\n", unknown);
	printf("%12llu  total\n", total);

	printf("\n%4s %12s %12s %12s %12s\n", "cpu", "events", "lost(pages)",
	       "overrun", "dropped");
	for (int cpu = 0; cpu < ncpus; cpu++) {
		unsigned long long overrun = 0, dropped = 0;
		int have = 0, partial = 0;

		/* every file's stats count from its own start (cpustat=window
		 * in a --switch-output segment): summed */
		for (int i = 0; i < td_set_nfiles(set); i++) {
			struct td_file *tf = td_set_file(set, i);
			int here = 0, known = 0;

			for (int b = 0; tf && b < td_nbuffers(tf); b++) {
				const struct td_buffer *buf = td_buffer(tf, b);

				here |= cpu < buf->ncpus;
				if (cpu < buf->ncpus && buf->stats[cpu].present) {
					overrun += buf->stats[cpu].overrun;
					dropped += buf->stats[cpu].dropped;
					known = 1;
				}
			}
			have |= known;
			partial |= here && !known;	/* a file without them: unknown */
		}
		if (!cpu_events[cpu] && !have && !cpu_missed[cpu])
			continue;
		printf("%4d %12llu %12lld%s", cpu, cpu_events[cpu], cpu_missed[cpu],
		       cpu_missed_unknown[cpu] ? "+" : " ");
		if (have && !partial)
			printf("%12llu %12llu\n", overrun, dropped);
		else
			printf("%12s %12s\n", "-", "-");
	}
}

/* --info: the header, buffers and options, then mmscope's metadata. */
static int print_info(struct td_file *tf)
{
	const char *s;

	printf("file         %s\n", td_path(tf));
	printf("version      %d\n", td_version(tf));
	printf("compression  %s\n", td_compression(tf));
	printf("page size    %u\n", td_page_size(tf));
	printf("clock        %s\n", (s = td_trace_clock(tf)) ? s : "-");
	printf("uname        %s\n", (s = td_uname(tf)) ? s : "-");
	printf("recorder     %s\n", (s = td_tracer_version(tf)) ? s : "-");
	for (int b = 0; b < td_nbuffers(tf); b++) {
		const struct td_buffer *buf = td_buffer(tf, b);
		int with_data = 0;

		for (int cpu = 0; cpu < buf->ncpus; cpu++)
			with_data += buf->cpu_offset[cpu] || buf->cpu_size[cpu];
		printf("buffer       '%s': %d CPUs, %d with data, page %u, %s\n",
		       buf->name, buf->ncpus, with_data, buf->page_size,
		       buf->compressed ? "compressed" : "uncompressed");
	}
	s = td_private(tf);
	printf("mmscope metadata:%s\n", s ? "" : " none (not recorded by mmscope)");
	while (s && *s) {
		const char *nl = strchr(s, '\n');
		int n = nl ? (int)(nl - s) : (int)strlen(s);

		if (n) {
			/* as text: a byte that is not (an older recorder wrote
			 * an uninitialized probe_reason=) is shown as \xNN,
			 * never sent to the terminal */
			fputs("  ", stdout);
			for (int i = 0; i < n; i++) {
				unsigned char c = (unsigned char)s[i];
				int u = c >= 0x80 ? meta_utf8_len(s + i, n - i) : 0;

				if (u > 0) {
					fwrite(s + i, 1, (size_t)u, stdout);
					i += u - 1;
				} else if (c < 0x20 || c >= 0x7f) {
					printf("\\x%02x", c);
				} else {
					putchar(c);
				}
			}
			putchar('\n');
		}
		s += n + (nl ? 1 : 0);
	}
	return EXIT_OK;
}

static int dump_run(const struct inputs_sel *run, struct dump_opts *o)
{
	struct inputs_events *st = NULL;
	struct td_set *set;
	struct td_file *tf;
	struct tep_handle *tep;
	unsigned char *sel = NULL;
	unsigned long long *per_id = NULL, unknown = 0, total = 0;
	unsigned long long *cpu_events = NULL;
	long long *cpu_missed = NULL;
	int *cpu_unknown = NULL, ncpus = 0, r = EXIT_OK;
	struct td_set_cursor *cur;
	struct dump_out out = { 0 };
	/* one per formats' tep, on first use: file 0's serves every part
	 * decoded with its formats, told each part's task names */
	struct event_formatter **fmts = NULL;
	struct tep_handle **fmt_tep = NULL;
	int nfmts = 0, names_of = -1;
	struct trace_seq s;
	struct td_event ev;
	char *err = NULL;
	int got, bad = 0;

	st = inputs_events_open(&o->in, run, !o->info, &err, &bad);
	if (!st) {
		r = error("%s", err ? err : "cannot read");
		free(err);
		return bad ? EXIT_USAGE : r;
	}
	set = inputs_events_set(st);
	tf = td_set_file(set, 0);
	tep = td_tep(tf);
	cur = inputs_events_cursor(st);
	if (o->info) {
		for (int i = 0; i < td_set_nfiles(set); i++) {
			char *e = NULL;
			struct td_file *f = td_set_open_file(set, i, &e);

			if (i)
				putchar('\n');
			if (f)
				print_info(f);
			else
				printf("%s\n", e ? e : "a file that cannot be read");
			free(e);
		}
		inputs_events_close(st);
		return EXIT_OK;
	}
	if (o->nevents) {
		const char *missing;

		sel = select_events(tep, o, &missing);
		o->sel_all = 1;
		for (int i = 0; i < o->nevents; i++)
			o->sel_all &= o->events[i][0] == '!';
		if (missing) {
			free(sel);
			inputs_events_close(st);
			return error("%s: no event matches '%s' in this recording",
				     o->file, missing);
		}
	}
	/* the parts share file 0's buffers (checked as they open), each of
	 * as many CPUs as when it was written */
	for (int i = 0; i < td_set_nfiles(set); i++) {
		struct td_file *f = td_set_file(set, i);

		for (int b = 0; f && b < td_nbuffers(f); b++)
			if (td_buffer(f, b)->ncpus > ncpus)
				ncpus = td_buffer(f, b)->ncpus;
	}
	if (o->stat) {
		per_id = xcalloc(65536, sizeof(*per_id));
		cpu_events = xcalloc((size_t)ncpus + 1, sizeof(*cpu_events));
		cpu_missed = xcalloc((size_t)ncpus + 1, sizeof(*cpu_missed));
		cpu_unknown = xcalloc((size_t)ncpus + 1, sizeof(*cpu_unknown));
	}
	out.tty = isatty(STDOUT_FILENO);
	out.cap = DUMP_OUT_CAP;
	out.buf = xmalloc(out.cap);
	trace_seq_init(&s);
	fmts = xcalloc((size_t)td_set_nfiles(set) + 1, sizeof(*fmts));
	fmt_tep = xcalloc((size_t)td_set_nfiles(set) + 1, sizeof(*fmt_tep));
	while ((got = inputs_events_next(st, &ev, &err)) > 0) {
		int fi;

		if (o->stat && ev.missed && ev.cpu < ncpus) {
			if (ev.missed < 0)
				cpu_unknown[ev.cpu] = 1;
			else
				cpu_missed[ev.cpu] += ev.missed;
		}
		if (!keep_event(o, sel, tep, &ev))
			continue;
		if (o->stat) {
			total++;
			if (ev.cpu < ncpus)
				cpu_events[ev.cpu]++;
			if (ev.event && ev.event->id >= 0 && ev.event->id < 65536)
				per_id[ev.event->id]++;
			else
				unknown++;
			continue;
		}
		if (ev.missed)
			print_lost(&out, &ev);
		fi = td_set_cursor_file(cur);
		{
			struct tep_handle *ft = td_set_cursor_formats(cur);
			int k = 0;

			while (k < nfmts && fmt_tep[k] != ft)
				k++;
			if (k == nfmts) {
				fmt_tep[nfmts] = ft;
				fmts[nfmts++] = event_formatter_new(ft);
			}
			if (fi != names_of) {	/* a file's first event (or again) */
				event_formatter_set_names(fmts[k], td_set_cursor_names(cur));
				names_of = fi;
			}
			print_event(&out, td_set_file(set, fi), fmts[k], &s, &ev);
		}
	}
	out_flush(&out);
	free(out.buf);
	trace_seq_destroy(&s);
	for (int i = 0; i < nfmts; i++) {
		if (getenv("MMSCOPE_FAST_FORMAT_REPORT"))
			event_formatter_report(fmts[i], stderr);
		event_formatter_free(fmts[i]);
	}
	free(fmts);
	free(fmt_tep);
	if (got < 0) {
		/* what was printed is right; say where the file went bad */
		r = td_set_nfiles(set) > 1 ? error("%s", err) : error("%s: %s", o->file, err);
	} else if (o->stat) {
		print_stat(set, per_id, unknown, total, cpu_events, cpu_missed,
			   cpu_unknown, ncpus);
	}
	inputs_events_close(st);
	free(err);
	free(sel);
	free(per_id);
	free(cpu_events);
	free(cpu_missed);
	free(cpu_unknown);
	return r;
}

/*
 * The runs of the history the arguments name, in time order: a history
 * of one run is dumped as ever; of several, each run's events under a
 * line naming it, with the gap before it (not recorded) said between.
 */
static int dump_history(struct dump_opts *o)
{
	struct inputs_sel *sel = NULL;
	struct strbuf line = STRBUF_INIT;
	char *err = NULL;
	int n = 0, bad = 0, r = 0, multi = o->in.hist.host_n[0] > 1;

	if (inputs_select(&o->in, 0, &sel, &n, &err, &bad)) {
		r = bad ? usage_error(&cmd_dump_entry, "%s", err) : error("%s", err);
		free(err);
		return r;
	}
	for (int k = 0; k < n && !r; k++) {
		o->file = o->in.rec[o->in.hist.run[sel[k].run].in].name;
		if (multi) {
			strbuf_reset(&line);
			if (k)
				history_gap_line(&o->in, sel[k].run, &line);
			history_run_line(&o->in, sel[k].run, &line);
			fputs(line.buf, stdout);
		}
		r = dump_run(&sel[k], o);
	}
	strbuf_release(&line);
	free(sel);
	return r;
}

static int cmd_dump(int argc, char **argv)
{
	struct dump_opts o = { 0 };
	char *err = NULL;
	int r;

	inputs_init(&o.in);
	r = dump_parse_opts(argc, argv, &o);
	if (r < 0) {
		r = show_help(&cmd_dump_entry);
	} else if (!r && (inputs_open(&o.in, o.files, o.nfiles, &err) ||
			  (inputs_one(&o.in, &err) && (r = EXIT_USAGE)))) {
		error("%s", err ? err : "cannot read");
		free(err);
		r = r ? r : EXIT_ERROR;
	} else if (!r) {
		r = dump_history(&o);
	}
	inputs_release(&o.in);
	for (int i = 0; i < o.nevents; i++)
		free(o.events[i]);
	free(o.events);
	free(o.cpus);
	free(o.pids);
	return r;
}

const struct cmd_entry cmd_dump_entry = {
	.name = "dump",
	.summary = "print the events of a recording, or count them (--stat)",
	.usage = dump_usage,
	.run = cmd_dump,
};
