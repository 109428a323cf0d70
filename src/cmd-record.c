// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mmscope record: the options. The command line (with a --config file's
 * KEY=VALUE lines ahead of it), or tui --live's arguments
 * (record_parse_live), become a struct recorder_opts; the recording
 * engine, recorder_run() (src/recorder.h), does the rest. Records
 * memory-management events and counter samples into a trace.dat, or with
 * --flight-recorder keeps the ring overwriting and writes it out on
 * SIGUSR1 or a trigger.
 */
#include "config.h"
#include "cmd.h"
#include "recorder.h"
#include "record-config.h"
#include "families.h"
#include "model-stacks.h"
#include "probes.h"
#include "switch-output.h"
#include "trigger.h"
#include "util.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char record_usage[] =
"usage: mmscope record [options] [-- COMMAND [ARGS]]\n"
"\n"
"Record reclaim, compaction, kswapd/kcompactd, swap and zswap activity\n"
"with counter samples, into a trace.dat file (version 7, zstd) that\n"
"trace-cmd and 'mmscope dump' read. Needs root (tracefs).\n"
"\n"
"  -o, --output FILE        where to write (default mmscope.dat)\n"
"  -f, --force              replace FILE if it exists\n"
"  -g, --groups G[,G]       event groups, listed below (default: all), or\n"
"                           none (only what -e asks for)\n"
"  -e, --event SYS[:EV]     add an event or a whole system (repeatable)\n"
"      --config FILE        options from KEY=VALUE lines (the service's)\n"
"  -T, --stacktraces        kernel stacks where tasks stall (direct and memcg\n"
"                           reclaim begin, direct compaction)\n"
"      --stacktrace SYS:EV  a kernel stack with each of these events\n"
"      --filter SYS:EV:EXPR an ftrace filter on a recorded event, e.g.\n"
"                           'kmem:mm_page_alloc:order > 0' (repeatable)\n"
"      --interval MS        counter sample interval (default 1000)\n"
"      --duration S         stop after S seconds (also 500ms, 2m)\n"
"      --buffer-kb N        ring buffer per CPU in KiB (default 16384)\n"
"      --max-size SIZE      stop when SIZE bytes of pages are spooled (e.g. 512M)\n"
"      --clock CLOCK        trace clock (default mono)\n"
"      --cgroup PATH        also sample this memory cgroup's memory.stat\n"
"      --cgroups ROOT       also sample every memory cgroup under ROOT\n"
"      --cgroups-max N      of those, the N largest by usage; the rest summed\n"
"                           in one line (default 64)\n"
"      --spool DIR          spool directory (default FILE.spool)\n"
"      --compression C      zstd, zlib or none (default zstd)\n"
"      --no-probes          do not install swap/zswap kprobes\n"
"      --probe-set NAME     use this kprobe set even on a kernel it was not\n"
"                           verified on (5.10, 6.1, 6.12, 6.18, 7.x)\n"
"      --flight-recorder    keep the ring in overwrite mode; write it out on\n"
"                           SIGUSR1 or a trigger, as FILE-N.dat\n"
"      --trigger COND       psi-some>PCT, stall-ms>MS, fallback-rate>PCT, oom,\n"
"                           reclaim-stall>MS, compact-stall>MS, kswapd-awake>S,\n"
"                           no-handoff>N; with --cgroup memcg-oom, memcg-max,\n"
"                           memcg-high (repeatable)\n"
"      --post-trigger S     after a trigger, record S seconds more, then write\n"
"                           one file spanning before and after it\n"
"      --pre-trigger S      grow the ring so that it keeps S seconds at the\n"
"                           observed event rate\n"
"      --trigger-cooldown S no trigger within S seconds of the last file\n"
"      --max-triggers N     stop after N files\n"
"      --switch-output SIZE|TIME\n"
"                           continuous: a new file FILE-N.dat every SIZE of\n"
"                           pages (512K, 2M, 1G) or TIME (30s, 10m, 1h)\n"
"      --switch-max-files N keep only the newest N of those files\n"
"  -q, --quiet              no progress line and no summary\n"
"  -h, --help               show this help\n"
"\n"
"Stops when COMMAND exits, after --duration, at --max-size, on a full disk,\n"
"or on SIGINT/SIGTERM; the file is finished in every case. If the recorder\n"
"is killed, 'mmscope recover FILE.spool -o FILE' finishes it.\n";

/* The options, and what the front end keeps alive for them: a --config
 * file's arguments and the argv parsed again with them. */
struct record_cli {
	struct recorder_opts o;
	char **config_args, **argv2;
	int nconfig_args;
};

/* Every name in a -g list must be a group (or "none"). */
static int check_groups(const struct cmd_entry *cmd, const char *groups)
{
	char *copy = xstrdup(groups), *save = NULL, *g;
	int bad = 0;

	for (g = strtok_r(copy, ",", &save); g && !bad; g = strtok_r(NULL, ",", &save)) {
		int found = !strcmp(g, "none");

		if (!found && !family_find(g)) {
			char names[256];

			bad = usage_error(cmd, "unknown event group '%s' (%s, or none)", g,
					  family_group_names(names, sizeof(names)));
		}
	}
	free(copy);
	return bad;
}

/* record's options; a config file (--config) sets the same, by long name */
enum {
	OPT_INTERVAL = 256, OPT_DURATION, OPT_BUFFER, OPT_MAX_SIZE, OPT_CLOCK,
	OPT_CGROUP, OPT_SPOOL, OPT_COMPRESSION, OPT_NO_PROBES, OPT_FLIGHT,
	OPT_TRIGGER, OPT_POST, OPT_PRE, OPT_COOLDOWN, OPT_MAX_TRIGGERS, OPT_SWITCH,
	OPT_SWITCH_MAX, OPT_FILTER, OPT_CONFIG, OPT_STACKTRACE, OPT_PROBE_SET,
	OPT_CGROUPS, OPT_CGROUPS_MAX,
};
static const struct option longopts[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "force", no_argument, NULL, 'f' },
	{ "groups", required_argument, NULL, 'g' },
	{ "event", required_argument, NULL, 'e' },
	{ "interval", required_argument, NULL, OPT_INTERVAL },
	{ "duration", required_argument, NULL, OPT_DURATION },
	{ "buffer-kb", required_argument, NULL, OPT_BUFFER },
	{ "max-size", required_argument, NULL, OPT_MAX_SIZE },
	{ "clock", required_argument, NULL, OPT_CLOCK },
	{ "cgroup", required_argument, NULL, OPT_CGROUP },
	{ "cgroups", required_argument, NULL, OPT_CGROUPS },
	{ "cgroups-max", required_argument, NULL, OPT_CGROUPS_MAX },
	{ "spool", required_argument, NULL, OPT_SPOOL },
	{ "compression", required_argument, NULL, OPT_COMPRESSION },
	{ "no-probes", no_argument, NULL, OPT_NO_PROBES },
	{ "probe-set", required_argument, NULL, OPT_PROBE_SET },
	{ "flight-recorder", no_argument, NULL, OPT_FLIGHT },
	{ "trigger", required_argument, NULL, OPT_TRIGGER },
	{ "post-trigger", required_argument, NULL, OPT_POST },
	{ "pre-trigger", required_argument, NULL, OPT_PRE },
	{ "trigger-cooldown", required_argument, NULL, OPT_COOLDOWN },
	{ "max-triggers", required_argument, NULL, OPT_MAX_TRIGGERS },
	{ "switch-output", required_argument, NULL, OPT_SWITCH },
	{ "switch-max-files", required_argument, NULL, OPT_SWITCH_MAX },
	{ "filter", required_argument, NULL, OPT_FILTER },
	{ "config", required_argument, NULL, OPT_CONFIG },
	{ "stacktrace", required_argument, NULL, OPT_STACKTRACE },
	{ "stacktraces", no_argument, NULL, 'T' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/*
 * record's options, also for `tui --live` (record_parse_live): errors are
 * cmd's, and live refuses what a live session sets itself or cannot
 * follow. An option added here works in tui --live with no other edit.
 * whole: 0 on the command line alone when a --config joins it later.
 */
static int record_opts_parse(const struct cmd_entry *cmd, int live, int whole, int argc,
			     char **argv, struct recorder_opts *o)
{
	/* a live session passes its own -q and --spool; it follows the trace
	 * clock in mono time and reads the spool as it grows */
	static const int live_refused[] = {
		'q', OPT_SPOOL, OPT_CLOCK, OPT_FLIGHT, OPT_TRIGGER, OPT_POST, OPT_PRE,
		OPT_COOLDOWN, OPT_MAX_TRIGGERS, OPT_SWITCH, OPT_SWITCH_MAX, OPT_CONFIG,
	};
	unsigned long long v;
	char *err = NULL;
	int c, li;

	recorder_opts_default(o);
	opterr = 0;
	/* "+": stop at the first non-option, which starts COMMAND */
	while ((c = getopt_long(argc, argv, "+o:fg:e:qhT", longopts, &li)) != -1) {
		for (size_t k = 0; live && k < sizeof(live_refused) / sizeof(live_refused[0]); k++)
			if (c == live_refused[k])
				return c < 256 ? usage_error(cmd, "'-%c' cannot be used with --live", c) :
				       usage_error(cmd, "'--%s' cannot be used with --live",
						   longopts[li].name);
		switch (c) {
		case 'o':
			o->out = optarg;
			break;
		case 'f':
			o->force = 1;
			break;
		case 'g':
			o->groups = optarg;
			break;
		case 'e':
			o->extra = xreallocarray(o->extra, (size_t)o->nextra + 2, sizeof(*o->extra));
			o->extra[o->nextra++] = optarg;
			o->extra[o->nextra] = NULL;
			break;
		case OPT_FILTER: {
			const char *c1 = strchr(optarg, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;

			if (!c1 || !c2 || c1 == optarg || c2 == c1 + 1 || !c2[1])
				return usage_error(cmd, "bad --filter '%s' (SYSTEM:EVENT:EXPR)", optarg);
			o->filters = xreallocarray(o->filters, (size_t)o->nfilters + 2,
						   sizeof(*o->filters));
			o->filters[o->nfilters++] = optarg;
			o->filters[o->nfilters] = NULL;
			break;
		}
		case OPT_CONFIG:
			o->config = optarg;
			break;
		case OPT_STACKTRACE:
		case 'T': {
			/* -T: where tasks stall (direct and memcg reclaim, direct
			 * compaction), at their start: the stacks model's events */
			const char *one[] = { optarg, NULL };

			if (c == OPT_STACKTRACE && !strchr(optarg, ':'))
				return usage_error(cmd, "bad --stacktrace '%s' (SYSTEM:EVENT)", optarg);
			for (const char *const *e = c == 'T' ? stacks_stall_events : one; *e; e++) {
				o->stacks = xreallocarray(o->stacks, (size_t)o->nstacks + 2,
							  sizeof(*o->stacks));
				o->stacks[o->nstacks++] = *e;
				o->stacks[o->nstacks] = NULL;
			}
			break;
		}
		case OPT_INTERVAL:
			if (parse_interval(cmd, optarg, &o->interval_ms))
				return EXIT_USAGE;
			break;
		case OPT_DURATION:
			if (parse_duration(cmd, optarg, &o->duration_ns))
				return EXIT_USAGE;
			break;
		case OPT_BUFFER:
			if (parse_ull(optarg, &v) || v < 64 || v > (4u << 20))
				return usage_error(cmd, "bad --buffer-kb '%s' (64..4194304)", optarg);
			o->buffer_kb = (unsigned)v;
			break;
		case OPT_MAX_SIZE:
			if (parse_size(optarg, &o->max_size) || o->max_size < 65536)
				return usage_error(cmd, "bad --max-size '%s' (at least 64K)", optarg);
			break;
		case OPT_CLOCK:
			o->clock = optarg;
			break;
		case OPT_CGROUP:
			o->cgroup = optarg;
			break;
		case OPT_CGROUPS:
		case OPT_CGROUPS_MAX:
			if (parse_cgroups_opt(cmd, c == OPT_CGROUPS_MAX, optarg, &o->cgroups,
					      &o->cgroups_max))
				return EXIT_USAGE;
			break;
		case OPT_SPOOL:
			o->spool = optarg;
			break;
		case OPT_COMPRESSION:
			if (parse_compression(cmd, optarg, &o->w.codec))
				return EXIT_USAGE;
			o->w.level = codec_default_level(o->w.codec);
			break;
		case OPT_NO_PROBES:
			o->no_probes = 1;
			break;
		case OPT_PROBE_SET:
			if (!probe_set_find(optarg)) {
				char names[128];

				probe_set_names(names, sizeof(names));
				return usage_error(cmd, "unknown probe set '%s' (%s)", optarg, names);
			}
			o->probe_set = optarg;
			break;
		case OPT_FLIGHT:
			o->flight = 1;
			break;
		case OPT_TRIGGER:
			if (o->ntriggers == RECORDER_MAX_TRIGGERS)
				return usage_error(cmd, "at most %d triggers",
						   RECORDER_MAX_TRIGGERS);
			if (trigger_parse(optarg, &o->triggers[o->ntriggers], &err)) {
				int r = usage_error(cmd, "%s", err);

				free(err);
				return r;
			}
			o->ntriggers++;
			break;
		case OPT_POST:
		case OPT_PRE:
		case OPT_COOLDOWN: {
			uint64_t *ns = c == OPT_POST ? &o->post_ns : c == OPT_PRE ? &o->pre_ns :
				       &o->cooldown_ns;

			if (parse_duration_ns(optarg, ns) || (!*ns && c == OPT_PRE) ||
			    *ns > 86400ull * 1000000000ull)
				return usage_error(cmd, "bad --%s '%s' (seconds, or 500ms, 2m; at most a day)",
						   longopts[li].name, optarg);
			break;
		}
		case OPT_MAX_TRIGGERS:
			if (parse_ull(optarg, &v) || !v || v > 1000000)
				return usage_error(cmd, "bad --max-triggers '%s' (1..1000000)", optarg);
			o->max_triggers = (unsigned)v;
			break;
		case OPT_SWITCH:
			if (switch_output_parse(&o->sw, optarg, &err)) {
				int r = usage_error(cmd, "%s", err);

				free(err);
				return r;
			}
			o->switch_on = 1;
			break;
		case OPT_SWITCH_MAX:
			if (parse_ull(optarg, &v) || !v || v > 1000000)
				return usage_error(cmd, "bad --switch-max-files '%s' (1..1000000)", optarg);
			o->sw.max_files = (unsigned)v;
			break;
		case 'q':
			o->quiet = 1;
			break;
		case 'h':
			return -1;
		default:
			return bad_option(cmd, argc, argv);
		}
	}
	if (o->groups && check_groups(cmd, o->groups))
		return EXIT_USAGE;
	if (optind < argc)
		o->command = argv + optind;
	/* the command line alone, before --config's options join it
	 * (record_parse_opts): what needs an option of the file is checked
	 * on the whole */
	if (o->config && !whole)
		return 0;
	if (check_cgroups_opts(cmd, o->cgroups, o->cgroups_max))
		return EXIT_USAGE;
	if (o->ntriggers && !o->flight)
		return usage_error(cmd, "--trigger needs --flight-recorder");
	for (int i = 0; i < o->ntriggers; i++) {
		char *dir;
		int v2;

		if (!trigger_needs_cgroup(&o->triggers[i]))
			continue;
		if (!o->cgroup)
			return usage_error(cmd, "trigger '%s' needs --cgroup", o->triggers[i].name);
		dir = trigger_cgroup_dir(o->cgroup);
		v2 = dir && trigger_cgroup_v2(dir);
		free(dir);
		if (dir && !v2 && o->triggers[i].kind == TRIGGER_MEMCG_HIGH)
			return usage_error(cmd, "trigger '%s': cgroup v1 has no memory.high events "
					   "(memcg-max counts v1's memory.failcnt)", o->triggers[i].name);
	}
	if (!o->flight && (o->post_ns || o->pre_ns || o->cooldown_ns || o->max_triggers))
		return usage_error(cmd, "--%s needs --flight-recorder",
				   o->post_ns ? "post-trigger" : o->pre_ns ? "pre-trigger" :
				   o->cooldown_ns ? "trigger-cooldown" : "max-triggers");
	if (o->sw.max_files && !o->switch_on)
		return usage_error(cmd, "--switch-max-files needs --switch-output");
	if (o->switch_on && (o->flight || o->max_size || o->spool))
		return usage_error(cmd, "--switch-output does not apply to %s",
				   o->flight ? "--flight-recorder" : o->max_size ? "--max-size" :
				   "--spool (each file has its own FILE-N.dat.spool)");
	if (o->flight && o->max_size)
		return usage_error(cmd, "--max-size does not apply to --flight-recorder");
	if (!o->out && !live)
		o->out = "mmscope.dat";
	return 0;
}

static void record_opts_release(struct record_cli *c)
{
	switch_output_release(&c->o.sw);
	free(c->o.filters);
	free(c->o.stacks);
	free(c->o.extra);
	record_config_free(c->config_args, c->nconfig_args);
	free(c->argv2);
}

/*
 * --config FILE: its KEY=VALUE lines become options ahead of the command
 * line's, and everything is parsed again (so the command line wins).
 */
static int record_parse_opts(int argc, char **argv, struct record_cli *c)
{
	static const char *const refused[] = { "config", "help", NULL };
	const struct cmd_entry *cmd = &cmd_record_entry;
	struct recorder_opts *o = &c->o;
	char **args, *err = NULL;
	int r = record_opts_parse(cmd, 0, 0, argc, argv, o), n, k = 0, end = optind;
	const char *config = o->config;

	if (r || !config)
		return r;
	if (record_config_args(config, longopts, refused, &args, &n, &err)) {
		fprintf(stderr, "error: %s\n", err);
		free(err);
		return EXIT_USAGE;
	}
	record_opts_release(c);
	memset(c, 0, sizeof(*c));
	o->config = config;
	c->config_args = args;
	c->nconfig_args = n;
	c->argv2 = xcalloc((size_t)argc + (size_t)n + 1, sizeof(*c->argv2));
	c->argv2[k++] = argv[0];
	for (int i = 0; i < n; i++)
		c->argv2[k++] = args[i];
	for (int i = 1; i < argc; i++) {
		if (i < end && !strcmp(argv[i], "--config") && i + 1 < end) {
			i++;
			continue;
		}
		if (i < end && !strncmp(argv[i], "--config=", 9))
			continue;
		c->argv2[k++] = argv[i];
	}
	optind = 0;
	r = record_opts_parse(cmd, 0, 1, k, c->argv2, o);
	o->config = config;
	return r;
}

int record_parse_live(const struct cmd_entry *cmd, int argc, char **argv, const char **out,
		      int *force)
{
	struct recorder_opts o = { 0 };
	int r = record_opts_parse(cmd, 1, 1, argc, argv, &o);

	*out = o.out;
	*force = o.force;
	free(o.extra);
	free(o.filters);
	free(o.stacks);
	return r;
}

/* The usage, then the event groups from the family table. */
static int record_help(void)
{
	fputs(record_usage, stdout);
	printf("\nEvent groups:\n");
	for (int i = 0; i < event_nfamilies; i++)
		if (event_families[i].group)
			printf("  %-11s %s\n", event_families[i].group, event_families[i].help);
	return finish_stdout(EXIT_OK);
}

static int cmd_record(int argc, char **argv)
{
	struct record_cli c = { 0 };
	int ret = record_parse_opts(argc, argv, &c);

	if (ret < 0)
		ret = record_help();
	else if (!ret)
		ret = recorder_run(&c.o, NULL);
	record_opts_release(&c);
	return ret;
}

const struct cmd_entry cmd_record_entry = {
	.name = "record",
	.summary = "record reclaim/compaction/swap events with counter samples",
	.usage = record_usage,
	.run = cmd_record,
};
