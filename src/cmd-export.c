// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mmscope export: the models of one or more recordings as tables (CSV
 * with a header line, or JSON Lines), one file per table in a directory,
 * appended to what is already there so that a fleet's exports collect in
 * one place (and load into SQLite or ClickHouse as they are). The schema
 * is the table below; man/mmscope-export.5 documents it column by column
 * (tests/cli/export-schema.sh holds the two equal).
 *
 * Each recording is analysed once and its rows are built in memory; only
 * then are they appended, all or none (src/export-write.c), so a
 * recording that fails to read or to write leaves the tables as they were
 * and a retry completes it. Times are nanoseconds since the recording's first
 * event (recordings.start_ns is that event on the trace clock).
 */
#include "config.h"
#include "findings.h"
#include "analysis.h"
#include "cmd.h"
#include "fnv.h"
#include "inputs.h"
#include "export-seen.h"
#include "tracedat-set.h"
#include "json.h"
#include "export-write.h"
#include "model-memcgs.h"
#include "cgmap.h"
#include "model-cgroups.h"
#include "model-oom.h"
#include "kill-dossier.h"
#include "model-run.h"
#include "run-stop.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <getopt.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char export_usage[] =
"usage: mmscope export [options] -o DIR FILE|DIR...\n"
"       mmscope export --schema sqlite|clickhouse [--cluster NAME]\n"
"\n"
"Write the recordings' episodes, stalls, compaction runs, swap and zswap\n"
"series, counters, OOM kills, every kill with the window before it, and\n"
"settings as tables, one file per table in DIR, appended to the tables\n"
"already there (mmscope-export(5)). Each FILE\n"
"is a recording, and a directory holds recordings; the files of one\n"
"run of record's switch-output (BASE-1.dat, BASE-2.dat, ...) are one.\n"
"Each event goes in once: a recording, part or incident the directory\n"
"holds already is skipped (mmscope-export(5), EACH EVENT ONCE).\n"
"\n"
"  -o, --output DIR     the directory of the tables (created if missing)\n"
"  -f, --format FMT     csv (default: a header line, then rows) or jsonl\n"
"      --csv-null TEXT  TEXT for a figure not measured in CSV (default: an\n"
"                       empty field; \\N for ClickHouse)\n"
"  -j, --jobs N         analyse N recordings at a time (default: the CPUs\n"
"                       it may use); the tables are appended in order\n"
"      --since T        only from T: seconds from the first event, @T a\n"
"                       trace time stamp, or a wall-clock time\n"
"                       2026-12-01T14:32:05Z (window_start_ns says which)\n"
"      --until T        only up to T (same forms)\n"
"      --cgroup PATH    only the work of the tasks in the memory cgroup\n"
"                       PATH or below it at the time (recordings whose\n"
"                       tasks' cgroups mmscope record listed)\n"
"      --run N          only run N of a host's history (time order)\n"
"      --schema DB      print CREATE TABLE statements for sqlite or\n"
"                       clickhouse and exit\n"
"      --cluster NAME   with --schema clickhouse: tables TABLE_local on\n"
"                       every server of cluster NAME, and TABLE a\n"
"                       Distributed table over them\n"
"  -h, --help           show this help\n";

/* ---- the schema ---- */

enum col_type { CT_INT, CT_REAL, CT_TEXT };

struct ex_col {
	const char *name;
	enum col_type type;
	int nullable;		/* may be "not measured" */
};

struct ex_table {
	const char *name;
	const struct ex_col *cols;
	int ncols;
};

#define I(n) { n, CT_INT, 0 }
#define IN(n) { n, CT_INT, 1 }
#define R(n) { n, CT_REAL, 0 }
#define RN(n) { n, CT_REAL, 1 }
#define T(n) { n, CT_TEXT, 0 }
#define TN(n) { n, CT_TEXT, 1 }

/*
 * The run's context (issue 21): the command's outcome and its memory
 * cgroup (record --cgroup) are columns of recordings after sample_sets,
 * null when the recording has none (export_recording()); the settings
 * recorded at its start and end are rows of settings (export_settings()).
 */
static const struct ex_col recordings_cols[] = {
	T("recording_id"), T("file"), T("host"), T("kernel"), T("clock"),
	I("trace_version"), TN("compression"), I("start_ns"), I("end_ns"),
	I("duration_ns"), I("events"), IN("lost_events"), I("sample_sets"),
	TN("command"), IN("exit_status"), IN("signal"), IN("elapsed_us"), IN("user_us"),
	IN("sys_us"), IN("maxrss_kb"), IN("stopped_by_recorder"), TN("memcg_path"),
	IN("memcg_version"), IN("memcg_limit_bytes"), IN("memcg_limit_unlimited"),
	IN("memcg_peak_bytes"), IN("memcg_usage_max_bytes"), IN("memcg_oom_kills"),
	T("mmscope_version"), IN("window_start_ns"), IN("window_end_ns"), IN("start_unix_ns"),
	IN("wall_steps"), IN("wall_step_ns"),
	/* the trigger of a flight file and the stop (export_stop()) */
	TN("trigger_name"), TN("trigger_kind"), RN("trigger_value"), RN("trigger_threshold"),
	TN("trigger_unit"), IN("trigger_pid"), TN("trigger_comm"), IN("trigger_ns"),
	IN("trigger_unix_ns"), TN("stop_reason"), TN("stop_then"), TN("stop_detail"),
	/* its identity (export-seen.h): host, boot, run and parts, whatever
	 * its files are called; an incident is a flight-recorder file */
	TN("machine_id"), TN("boot_id"), TN("run_id"), IN("part_first"), IN("part_last"),
	I("incident"),
};
static const struct ex_col kswapd_cols[] = {
	T("recording_id"), I("node"), I("begin_ns"), I("duration_ns"), I("alloc_order"),
	I("classzone"), I("wakeups"), I("rebalances"), TN("waker"), IN("scanned_pages"),
	IN("reclaimed_pages"), IN("balance_runs"), IN("balance_reclaimed_pages"),
	IN("balance_order"), T("handoff"), IN("handoff_order"), IN("handoff_ns"),
	I("stalls"), T("flags"), TN("zone"), IN("free_start_pages"),
	IN("free_lowest_pages"), IN("free_end_pages"), IN("min_pages"), IN("low_pages"),
	IN("high_pages"),
};
static const struct ex_col kcompactd_cols[] = {
	T("recording_id"), I("node"), I("begin_ns"), I("duration_ns"), I("alloc_order"),
	T("via"), I("runs"), I("success"), TN("last_status"), I("for_kswapd"),
};
static const struct ex_col stalls_cols[] = {
	T("recording_id"), T("kind"), I("pid"), TN("comm"), I("begin_ns"),
	I("duration_ns"), I("alloc_order"), I("reclaimed_pages"), TN("cgroup"),
};
static const struct ex_col compaction_cols[] = {
	T("recording_id"), T("runner"), I("pid"), TN("comm"), I("begin_ns"),
	I("duration_ns"), IN("alloc_order"), TN("status"), I("zone_start_pfn"),
};
static const struct ex_col swap_orders_cols[] = {
	T("recording_id"), I("alloc_order"), I("size_kb"), I("begin_ns"), I("end_ns"),
	IN("tries"), IN("ok"), IN("fallback"), IN("swpout_folios"),
	IN("swpout_fallback_folios"), IN("zswpout_folios"),
};
static const struct ex_col swap_clusters_cols[] = {
	T("recording_id"), I("device"), TN("device_name"), I("t_ns"), IN("free_clusters"),
	IN("nonfull_clusters"), IN("frag_clusters"), IN("full_clusters"),
	IN("discard_clusters"), IN("isolated_clusters"), I("unknown_clusters"),
	I("used_slots"), IN("largest_order"),
};
static const struct ex_col zswap_cols[] = {
	T("recording_id"), I("t_ns"), IN("stored_pages"), IN("pool_bytes"),
	IN("limit_pages"), IN("zswpout_pages"), IN("zswpin_pages"), IN("zswpwb_pages"),
	IN("pswpout_pages"), IN("pswpin_pages"), IN("written_back_pages"),
	IN("pool_limit_hit"), IN("rejects"), IN("inflight_requests"), IN("enabled"),
};
static const struct ex_col counters_cols[] = {
	T("recording_id"), I("t_ns"), T("source"), T("instance"), T("key"), R("value"),
};
static const struct ex_col oom_cols[] = {
	T("recording_id"), I("t_ns"), IN("pid"), TN("comm"), I("by_pid"), TN("by_comm"),
	IN("total_vm_kb"), IN("anon_rss_kb"), IN("file_rss_kb"), IN("shmem_rss_kb"),
	IN("uid"), IN("oom_score_adj"), TN("oom_constraint"), IN("memcg_id"),
};
/* Findings (src/findings.h): one row per finding, as the report's. */
static const struct ex_col findings_cols[] = {
	T("recording_id"), T("id"), T("severity"), IN("t_start_ns"), IN("t_end_ns"),
	I("count"), T("unit"), T("section"), IN("alloc_order"), IN("node"), TN("zone"),
	IN("device"), TN("task"), T("summary"), T("evidence"), T("mechanism"),
};
/* record --cgroups (issue 34): one row per memory cgroup, as the report's
 * memcg section (the summed "(other cgroups)" line is no cgroup: not here) */
static const struct ex_col memcgs_cols[] = {
	T("recording_id"), T("path"), IN("version"), I("sets"), I("first_ns"), I("last_ns"),
	IN("usage_first_bytes"), IN("usage_last_bytes"), IN("usage_max_bytes"),
	IN("usage_max_ns"), IN("peak_bytes"), IN("limit_bytes"), IN("limit_unlimited"),
	IN("limit_changed"), IN("high_bytes"), IN("high_unlimited"), IN("swap_max_bytes"),
	IN("swap_max_unlimited"), IN("swap_last_bytes"), IN("swap_max_sampled_bytes"),
	IN("failcnt_delta"), IN("events_low_delta"), IN("events_high_delta"),
	IN("events_max_delta"), IN("events_oom_delta"), IN("events_oom_kill_delta"),
	IN("pressure_some_us"), IN("pressure_full_us"),
};
/* Per memory cgroup (src/model-cgroups.h): a row per cgroup whose tasks
 * stalled, reclaimed, swapped out or were OOM-killed; cgroup null for
 * the tasks of unknown cgroup. Stalls per kind as the stalls table pairs
 * them; null where the events were not recorded. */
#define CG_KIND_COLS(k) IN(k "_stalls"), IN(k "_total_ns"), IN(k "_p99_ns"), IN(k "_max_ns")
static const struct ex_col cgroups_cols[] = {
	T("recording_id"), TN("cgroup"), IN("tasks"), CG_KIND_COLS("direct"),
	CG_KIND_COLS("memcg"), CG_KIND_COLS("softlimit"), CG_KIND_COLS("node"),
	IN("memcg_scanned_pages"), IN("memcg_reclaimed_pages"), IN("swap_out_folios"),
	IN("oom_kills"),
};
/* Every kill, whoever the killer (src/kill-dossier.h): who killed whom
 * and the window before it, as the report's Kills section. */
static const struct ex_col kills_cols[] = {
	T("recording_id"), I("t_ns"), T("killer"), IN("victim_pid"), TN("victim_comm"),
	TN("victim_cgroup"), IN("sender_pid"), TN("sender_comm"), TN("sender_cgroup"),
	I("window_ns"), I("window_clipped"), IN("direct_stalls"), IN("direct_stall_ns"),
	IN("memcg_stalls"), IN("memcg_stall_ns"), IN("kswapd_episodes"), IN("handoffs"),
	IN("compaction_runs"), IN("compaction_failures"), RN("psi_some_avg10"),
	RN("psi_full_avg10"), RN("swap_free_pct"), IN("zswap_pool_bytes"), IN("candidates"),
	TN("top_candidate_comm"), IN("top_candidate_rss_kb"), IN("top_candidate_swap_kb"),
	TN("headline"), IN("cgroup_usage_bytes"), IN("cgroup_limit_bytes"),
	IN("cgroup_limit_unlimited"), RN("cgroup_usage_pct"),
};
static const struct ex_col settings_cols[] = {
	T("recording_id"), T("key"), T("value"), TN("phase"),
};

#define TABLE(n, c) { n, c, (int)(sizeof(c) / sizeof(c[0])) }

enum {
	TB_RECORDINGS, TB_KSWAPD, TB_KCOMPACTD, TB_STALLS, TB_COMPACTION, TB_SWAP_ORDERS,
	TB_SWAP_CLUSTERS, TB_ZSWAP, TB_COUNTERS, TB_OOM, TB_SETTINGS, TB_FINDINGS,
	TB_MEMCGS, TB_CGROUPS, TB_KILLS, TB_NR
};

static const struct ex_table ex_tables[TB_NR] = {
	TABLE("recordings", recordings_cols),
	TABLE("kswapd_episodes", kswapd_cols),
	TABLE("kcompactd_requests", kcompactd_cols),
	TABLE("stalls", stalls_cols),
	TABLE("compaction_runs", compaction_cols),
	TABLE("swap_orders", swap_orders_cols),
	TABLE("swap_clusters", swap_clusters_cols),
	TABLE("zswap", zswap_cols),
	TABLE("counters", counters_cols),
	TABLE("oom_kills", oom_cols),
	TABLE("settings", settings_cols),
	TABLE("findings", findings_cols),
	TABLE("memcgs", memcgs_cols),
	TABLE("cgroups", cgroups_cols),
	TABLE("kills", kills_cols),
};

/* ---- rows ---- */

enum ex_format { FMT_CSV, FMT_JSONL };

struct ex_out {
	enum ex_format fmt;
	const struct ex_table *t;
	struct strbuf sb;	/* rows of this recording */
	struct json_writer jw;
	const char *null;	/* CSV: what a figure not measured is */
	int col;		/* next column */
	uint64_t rows;
	int bad;		/* a row with the wrong number of columns */
};

struct ex_ctx {
	struct ex_out out[TB_NR];
	char id[17];
	struct seen_rec who;	/* its identity (export-seen.h) */
	uint64_t t0;		/* first event, ns */
	const struct analysis *a;
};

static void row_begin(struct ex_out *o, const char *id)
{
	o->col = 0;
	if (o->fmt == FMT_JSONL)
		json_begin_line(&o->jw, &o->sb);
	/* every row starts with its recording */
	if (o->fmt == FMT_JSONL)
		json_str(&o->jw, o->t->cols[0].name, id);
	else
		strbuf_addstr(&o->sb, id);
	o->col = 1;
}

static void row_end(struct ex_out *o)
{
	if (o->col != o->t->ncols || o->jw.misuse)
		o->bad++;
	if (o->fmt == FMT_JSONL)
		json_end(&o->jw);
	else
		strbuf_addch(&o->sb, '\n');
	o->rows++;
}

/* The next column's name, and a comma before it in CSV. */
static const char *next_col(struct ex_out *o)
{
	const char *name = o->col < o->t->ncols ? o->t->cols[o->col].name : "?";

	o->col++;
	if (o->fmt == FMT_CSV)
		strbuf_addch(&o->sb, ',');
	return name;
}

static void put_null(struct ex_out *o)
{
	const char *k = next_col(o);

	if (o->fmt == FMT_JSONL)
		json_null(&o->jw, k);
	else
		strbuf_addstr(&o->sb, o->null);
}

static void put_s64(struct ex_out *o, int64_t v)
{
	const char *k = next_col(o);

	if (o->fmt == FMT_JSONL)
		json_s64(&o->jw, k, v);
	else
		strbuf_addf(&o->sb, "%lld", (long long)v);
}

static void put_u64(struct ex_out *o, uint64_t v)
{
	const char *k = next_col(o);

	if (o->fmt == FMT_JSONL)
		json_u64(&o->jw, k, v);
	else
		strbuf_addf(&o->sb, "%llu", (unsigned long long)v);
}

static void put_s64_or_null(struct ex_out *o, int64_t v, int known)
{
	if (known)
		put_s64(o, v);
	else
		put_null(o);
}

/* A CSV field is quoted (RFC 4180) when it holds a separator, a quote,
 * a line break, a backslash (\N may mark "not measured") or nothing at
 * all (an empty field is "not measured"); it
 * is valid UTF-8 as in JSON (json.h). */
static void csv_str(struct strbuf *sb, const char *str)
{
	struct strbuf clean = STRBUF_INIT;
	const char *s;

	utf8_clean(&clean, str);
	s = clean.buf ? clean.buf : "";
	if (*s && !strpbrk(s, ",\"\r\n\\") && s[0] != ' ' && s[strlen(s) - 1] != ' ') {
		strbuf_addstr(sb, s);
	} else {
		strbuf_addch(sb, '"');
		for (; *s; s++) {
			if (*s == '"')
				strbuf_addch(sb, '"');
			strbuf_addch(sb, *s);
		}
		strbuf_addch(sb, '"');
	}
	strbuf_release(&clean);
}

static void put_str(struct ex_out *o, const char *s)
{
	const char *k = next_col(o);

	if (o->fmt == FMT_JSONL)
		json_str(&o->jw, k, s);
	else
		csv_str(&o->sb, s);
}

/* s, or null when NULL or "" */
static void put_str_or_null(struct ex_out *o, const char *s)
{
	if (s && *s)
		put_str(o, s);
	else
		put_null(o);
}

/* value / 10^scale, exactly, as a decimal */
static void put_scaled(struct ex_out *o, int64_t v, int scale)
{
	const char *k = next_col(o);
	char buf[48];
	uint64_t u = v < 0 ? -(uint64_t)v : (uint64_t)v, p = 1;

	for (int i = 0; i < scale && i < 18; i++)
		p *= 10;
	if (scale <= 0 || scale > 18)
		snprintf(buf, sizeof(buf), "%lld", (long long)v);
	else
		snprintf(buf, sizeof(buf), "%s%llu.%0*llu", v < 0 ? "-" : "",
			 (unsigned long long)(u / p), scale, (unsigned long long)(u % p));
	if (o->fmt == FMT_JSONL && scale > 0 && scale <= 18)
		json_fixed(&o->jw, k, (double)v / (double)p, scale);
	else if (o->fmt == FMT_JSONL)
		json_s64(&o->jw, k, v);
	else
		strbuf_addstr(&o->sb, buf);
}

/* a real as %.10g, or null */
static void put_real_or_null(struct ex_out *o, double v, int known)
{
	const char *k;

	if (!known) {
		put_null(o);
		return;
	}
	k = next_col(o);
	if (o->fmt == FMT_JSONL)
		json_g(&o->jw, k, v);
	else
		strbuf_addf(&o->sb, "%.10g", v);
}

static uint64_t rel(const struct ex_ctx *x, uint64_t ts)
{
	return ts >= x->t0 ? ts - x->t0 : 0;
}

/*
 * The recording's id: a hash of what identifies it whatever its file is
 * called or where it lies, so exporting the same recording again gives
 * the same id, on any machine. A run mmscope record wrote: its host
 * (machine id, else name), boot, run id and parts (export-seen.h), its
 * first and last event when it has no parts (an incident), and a window
 * when one was asked for; any other file: its host, kernel, clock, first
 * and last event time and number of events.
 */
static void u64_bytes(uint64_t *h, uint64_t v)
{
	unsigned char b[8];

	for (int k = 0; k < 8; k++)
		b[k] = (unsigned char)(v >> (8 * k));
	*h = fnv64_bytes(*h, b, 8);
}

static void recording_id(const struct analysis_info *in, const struct seen_rec *who,
			 char id[17])
{
	uint64_t h = FNV64_BASIS;

	if (*who->run_id) {
		h = fnv64_bytes(h, "run", 4);
		h = fnv64_bytes(h, who->host, strlen(who->host) + 1);
		h = fnv64_bytes(h, who->boot, strlen(who->boot) + 1);
		h = fnv64_bytes(h, who->run_id, strlen(who->run_id) + 1);
		u64_bytes(&h, (uint64_t)who->part_first);
		u64_bytes(&h, (uint64_t)who->part_last);
		/* a run id without parts: a plain run's one file, or one of a
		 * flight recorder's incidents, told apart by their time */
		if (!who->parts) {
			u64_bytes(&h, in->first_ts);
			u64_bytes(&h, in->last_ts);
		}
		if (in->windowed) {
			u64_bytes(&h, in->since_ts);
			u64_bytes(&h, in->until_ts);
		}
	} else {
		h = fnv64_bytes(h, in->host, strlen(in->host) + 1);
		h = fnv64_bytes(h, in->kernel, strlen(in->kernel) + 1);
		h = fnv64_bytes(h, in->clock, strlen(in->clock) + 1);
		u64_bytes(&h, in->first_ts);
		u64_bytes(&h, in->last_ts);
		u64_bytes(&h, in->events);
	}
	snprintf(id, 17, "%016llx", (unsigned long long)h);
}

/* ---- the tables of one recording ---- */

static void put_value(struct ex_out *o, const struct run_value *v)
{
	put_s64_or_null(o, v->v, v->known);
}

/* The command's outcome (its line, else the metadata's: meta) and its
 * memcg: null where not recorded. */
static void run_cols(struct ex_out *o, const struct run_model *m, const char *meta)
{
	static const struct run_outcome no_outcome;
	static const struct run_memcg no_memcg;
	const struct run_outcome *r = m ? run_model_outcome_meta(m, meta) : &no_outcome;
	const struct run_memcg *g = m ? run_model_memcg(m) : &no_memcg;

	if (r->known && r->argc > 0) {
		struct strbuf cmd = STRBUF_INIT;

		for (int i = 0; i < r->argc; i++)
			strbuf_addf(&cmd, "%s%s", i ? " " : "", r->argv[i] ? r->argv[i] : "");
		put_str(o, cmd.buf);
		strbuf_release(&cmd);
	} else {
		put_null(o);
	}
	put_value(o, &r->exit);
	put_value(o, &r->signal);
	put_value(o, &r->elapsed_us);
	put_value(o, &r->user_us);
	put_value(o, &r->sys_us);
	put_value(o, &r->maxrss_kb);
	put_value(o, &r->stopped_by_recorder);
	put_str_or_null(o, g->known ? g->path : NULL);
	put_s64_or_null(o, g->version, g->known && g->version);
	put_s64_or_null(o, g->limit.v, g->known && g->limit.known && !g->limit.unlimited);
	put_s64_or_null(o, g->limit.unlimited, g->known && g->limit.known);
	put_s64_or_null(o, g->peak.v, g->known && g->peak.known);
	put_s64_or_null(o, g->usage_max.v, g->known && g->usage_max.known);
	put_s64_or_null(o, g->ev_oom_kill.v, g->known && g->ev_oom_kill.known);
}

/*
 * The trigger that made a flight file and why the recording stopped, from
 * the recorder's metadata (mmscope-recording(5)): null where the file does
 * not say. trigger_ns is on the trace clock, as start_ns.
 */
static void export_stop(struct ex_out *o, const struct analysis *a)
{
	struct run_stop st;

	run_stop_parse2(&st, analysis_private_meta(a), analysis_last_meta(a));
	put_str_or_null(o, st.name);
	put_str_or_null(o, st.kind);
	put_real_or_null(o, st.value, st.has_value);
	put_real_or_null(o, st.threshold, st.has_threshold);
	put_str_or_null(o, st.unit);
	put_s64_or_null(o, st.pid, st.has_pid);
	put_str_or_null(o, st.comm);
	put_s64_or_null(o, (int64_t)st.ns, st.has_ns);
	put_s64_or_null(o, (int64_t)st.realtime_ns, st.has_realtime);
	put_str_or_null(o, st.stop);
	put_str_or_null(o, st.then);
	put_str_or_null(o, st.detail);
	run_stop_release(&st);
}

static void export_recording(struct ex_ctx *x, const char *name)
{
	const struct analysis_info *in = analysis_info(x->a);
	struct ex_out *o = &x->out[TB_RECORDINGS];

	row_begin(o, x->id);
	put_str(o, name);
	put_str(o, in->host);
	put_str(o, in->kernel);
	put_str(o, in->clock);
	put_s64(o, in->version);
	put_str_or_null(o, in->compression && strcmp(in->compression, "none") ?
			in->compression : NULL);
	/* a window (--since/--until): start_ns stays the recording's first
	 * event, the anchor of every relative time; what was read is
	 * [window_start_ns, end_ns] */
	uint64_t from = in->windowed && in->since_ts > in->first_ts ? in->since_ts : in->first_ts;

	put_u64(o, in->first_ts);
	put_u64(o, in->last_ts);
	put_u64(o, in->last_ts > from ? in->last_ts - from : 0);
	put_u64(o, in->events);
	put_s64_or_null(o, in->lost, !in->lost_unknown);
	put_u64(o, in->sample_sets);
	run_cols(o, analysis_model(x->a, &run_model_ops), analysis_last_meta(x->a));
	put_str(o, PACKAGE_VERSION);
	put_s64_or_null(o, (int64_t)from, in->windowed);
	put_s64_or_null(o, (int64_t)in->last_ts, in->windowed);
	/* start_ns on the wall clock, so hosts line up: each trace clock
	 * counts from its own boot; null without the recorder's clock pair */
	uint64_t unix_ns = 0;
	int known = !analysis_wall_ns(in, in->first_ts, &unix_ns);

	put_s64_or_null(o, (int64_t)unix_ns, known);
	/* the wall clock's steps against the trace clock (null: a recording
	 * that did not watch for them); start_unix_ns + begin_ns holds up to
	 * the first one's last read in step (relative to start_ns) */
	int steps = in->has_wall && in->wall.checked ? wall_map_n(&in->wall) - 1 : -1;
	uint64_t after = 0, before;
	int64_t moved;

	if (steps > 0)
		wall_map_step(&in->wall, 0, &after, &before, &moved);
	put_s64_or_null(o, steps, steps >= 0);
	put_s64_or_null(o, (int64_t)(after - in->first_ts), steps > 0);
	export_stop(o, x->a);
	put_str_or_null(o, x->who.host_machine ? x->who.host : NULL);
	put_str_or_null(o, *x->who.boot ? x->who.boot : NULL);
	put_str_or_null(o, *x->who.run_id ? x->who.run_id : NULL);
	put_s64_or_null(o, x->who.part_first, x->who.parts);
	put_s64_or_null(o, x->who.part_last, x->who.parts);
	put_s64(o, x->who.incident);
	row_end(o);
}

static void wmark_cols(struct ex_out *o, const struct kswapd_episode *ep)
{
	const struct wmark_snap *w[3] = { &ep->wm_start, &ep->wm_low, &ep->wm_end };

	put_str_or_null(o, ep->wm_start.zone);
	for (int i = 0; i < 3; i++)
		put_s64_or_null(o, w[i]->free, w[i]->zone[0] && w[i]->free >= 0);
	put_s64_or_null(o, ep->wm_start.min, ep->wm_start.zone[0] && ep->wm_start.min >= 0);
	put_s64_or_null(o, ep->wm_start.low, ep->wm_start.zone[0] && ep->wm_start.low >= 0);
	put_s64_or_null(o, ep->wm_start.high, ep->wm_start.zone[0] && ep->wm_start.high >= 0);
}

static void export_handoff(struct ex_ctx *x)
{
	const struct handoff_model *hm = analysis_handoff(x->a);
	int shrink = analysis_traced(x->a, REC_SHRINK_INACTIVE, -1);
	int balance = analysis_traced(x->a, REC_BALANCE_END, -1);
	char fl[64];

	for (int i = 0; i < handoff_model_nnodes(hm); i++) {
		const struct handoff_node_stats *n = handoff_model_node(hm, i);
		struct ex_out *o = &x->out[TB_KSWAPD];

		for (int e = 0; e < handoff_model_nepisodes(hm, i); e++) {
			const struct kswapd_episode *ep = handoff_model_episode(hm, i, e);
			int ho = ep->handoff == HO_WAKEUP || ep->handoff == HO_PICKUP;

			row_begin(o, x->id);
			put_s64(o, n->nid);
			put_u64(o, rel(x, ep->start));
			put_u64(o, ep->end >= ep->start ? ep->end - ep->start : 0);
			put_s64(o, ep->order);
			put_s64(o, ep->zid);
			put_u64(o, ep->wakeups);
			put_u64(o, ep->rebalances);
			put_str_or_null(o, ep->waker);
			put_s64_or_null(o, (int64_t)ep->scanned, shrink);
			put_s64_or_null(o, (int64_t)ep->reclaimed, shrink);
			put_s64_or_null(o, ep->balance_runs, balance);
			put_s64_or_null(o, (int64_t)ep->balance_reclaimed, balance);
			put_s64_or_null(o, ep->balance_order, ep->balance_order >= 0);
			put_str(o, handoff_kind_name(ep->handoff));
			put_s64_or_null(o, ep->handoff_order, ho);
			put_s64_or_null(o, (int64_t)rel(x, ep->handoff_ts), ho);
			put_u64(o, ep->stalls);
			put_str(o, handoff_flags_str(ep->flags, fl, sizeof(fl)));
			wmark_cols(o, ep);
			row_end(o);
		}
		o = &x->out[TB_KCOMPACTD];
		for (int e = 0; e < handoff_model_nkc(hm, i); e++) {
			const struct kcompactd_episode *kc = handoff_model_kc(hm, i, e);

			row_begin(o, x->id);
			put_s64(o, n->nid);
			put_u64(o, rel(x, kc->start));
			put_u64(o, kc->end >= kc->start ? kc->end - kc->start : 0);
			put_s64(o, kc->order);
			put_str(o, kc_via_name(kc->via));
			put_u64(o, kc->runs);
			put_u64(o, kc->success);
			put_str_or_null(o, kc->last_status >= 0 ?
					compact_status_name(kc->last_status) : NULL);
			put_s64(o, kc->for_kswapd);
			row_end(o);
		}
	}
}

static void export_stalls(struct ex_ctx *x)
{
	const struct reclaim_model *rm = analysis_reclaim(x->a);
	const struct compaction_model *cm = analysis_compaction(x->a);
	const struct cgmap *map = analysis_cgmap(x->a);
	struct ex_out *o = &x->out[TB_STALLS];
	int split;

	for (int i = 0; i < reclaim_model_nstalls(rm, NULL); i++) {
		const struct reclaim_stall *s = reclaim_model_stall(rm, i);

		row_begin(o, x->id);
		put_str(o, reclaim_kind_name(s->kind));
		put_s64(o, s->pid);
		put_str_or_null(o, analysis_comm(x->a, s->pid) ? analysis_comm(x->a, s->pid) : s->comm);
		put_u64(o, rel(x, s->begin));
		put_u64(o, s->dur);
		put_s64(o, s->order);
		put_u64(o, s->reclaimed);
		/* the task's memory cgroup when the stall began; null: the
		 * recording has no cgroup list, or the task was not placed */
		put_str_or_null(o, s->cgroup > 0 && cgmap_recorded(map) ?
				cgmap_path(map, s->cgroup - 1) : NULL);
		row_end(o);
	}
	o = &x->out[TB_COMPACTION];
	/* kcompactd on a request or proactive: only where its wakes and
	 * sleeps were both recorded, else kc_unknown (the report's rule) */
	split = analysis_traced(x->a, REC_KCOMPACTD_WAKE, -1) &&
		analysis_traced(x->a, REC_KCOMPACTD_SLEEP, -1);
	for (int i = 0; i < compaction_model_nruns(cm, NULL); i++) {
		const struct compact_run *c = compaction_model_run(cm, i);

		row_begin(o, x->id);
		put_str(o, compact_runner_name(compact_runner_shown(c->runner, split)));
		put_s64(o, c->pid);
		put_str_or_null(o, analysis_comm(x->a, c->pid) ? analysis_comm(x->a, c->pid) : c->comm);
		put_u64(o, rel(x, c->begin));
		put_u64(o, c->dur);
		put_s64_or_null(o, c->order, c->order > 0);
		put_str_or_null(o, c->status >= 0 && c->status < COMPACT_NSTATUS ?
				compact_status_name(c->status) : NULL);
		put_u64(o, c->zone_start);
		row_end(o);
	}
}

/* One swap_orders row: [b, e) with the probes' and the counters' deltas. */
static void swap_order_row(struct ex_ctx *x, int order, uint64_t b, uint64_t e,
			   const uint64_t probes[3], int pm, const int64_t ctr[3], int cm)
{
	struct ex_out *o = &x->out[TB_SWAP_ORDERS];

	row_begin(o, x->id);
	put_s64(o, order);
	put_s64(o, (int64_t)analysis_order_kb(analysis_info(x->a), order));
	put_u64(o, rel(x, b));
	put_u64(o, rel(x, e));
	for (int i = 0; i < 3; i++)
		put_s64_or_null(o, (int64_t)probes[i], pm);
	for (int i = 0; i < 3; i++)
		put_s64_or_null(o, ctr[i], cm);
	row_end(o);
}

/*
 * Per order, one row per interval between two complete sample sets (the
 * kernel's counters and the probes' counts in it), and the probes' counts
 * before the first set and after the last one in rows of their own with
 * no counters, so the probe rows of an order add up to its totals.
 */
static void export_swap_orders(struct ex_ctx *x)
{
	const struct swapclust_model *m = analysis_swapclust(x->a);
	const struct analysis_info *in = analysis_info(x->a);
	int pm = swapclust_model_has_probes(m) || analysis_probes_swap(x->a) == 1;

	for (int ord = 0; ord < SWC_NORDERS; ord++) {
		const struct swc_order *so = swapclust_model_order(m, ord);
		int n = swapclust_model_nctr(m, ord);
		uint64_t prev[3] = { 0, 0, 0 }, d[3], b = in->first_ts;
		const int64_t none[3] = { 0, 0, 0 };

		if (!so->attempts && !so->has_counters)
			continue;
		for (int i = 0; i < n; i++) {
			const struct swc_ctr_point *p = swapclust_model_ctr(m, ord, i);
			const struct swc_ctr_point *q = i ? swapclust_model_ctr(m, ord, i - 1) : NULL;
			uint64_t cur[3] = { p->tries, p->ok, p->fb };

			for (int k = 0; k < 3; k++)
				d[k] = cur[k] - prev[k];
			if (!q) {
				if (pm)
					swap_order_row(x, ord, b, p->ts, d, pm, none, 0);
			} else {
				const int64_t c[3] = { p->swpout - q->swpout, p->fallback - q->fallback,
						       p->zswpout - q->zswpout };

				swap_order_row(x, ord, q->ts, p->ts, d, pm, c, 1);
			}
			memcpy(prev, cur, sizeof(prev));
			b = p->ts;
		}
		if (pm) {
			d[0] = so->attempts - prev[0];
			d[1] = so->ok - prev[1];
			d[2] = so->fallback - prev[2];
			swap_order_row(x, ord, b, in->last_ts, d, pm, none, 0);
		}
	}
}

static void export_swap_clusters(struct ex_ctx *x)
{
	const struct swapclust_model *m = analysis_swapclust(x->a);
	struct ex_out *o = &x->out[TB_SWAP_CLUSTERS];
	static const enum swc_state st[] = { SWC_FREE, SWC_NONFULL, SWC_FRAG, SWC_FULL,
					     SWC_DISCARD, SWC_NONE };

	for (int i = 0; i < swapclust_model_ndevs(m); i++) {
		const struct swc_dev *d = swapclust_model_dev(m, i);

		for (int p = 0; p < d->npts; p++) {
			const struct swc_point *pt = &d->pts[p];
			uint64_t all = 0;

			for (int s = 0; s < SWC_NSTATES; s++)
				all += pt->n[s];
			row_begin(o, x->id);
			put_s64(o, d->type);
			put_str_or_null(o, d->name);
			put_u64(o, rel(x, pt->ts));
			/* no cluster's state known (no swap probes, probe hits
			 * missed): the states were not measured, not 0 */
			for (size_t s = 0; s < sizeof(st) / sizeof(st[0]); s++)
				put_s64_or_null(o, pt->n[st[s]], pt->n[SWC_UNKNOWN] < all);
			put_u64(o, pt->n[SWC_UNKNOWN]);
			put_u64(o, pt->used_slots);
			put_s64_or_null(o, pt->largest_order, pt->largest_order != SWC_ORDER_UNKNOWN);
			row_end(o);
		}
	}
}

static void export_zswap(struct ex_ctx *x)
{
	const struct zswap_model *m = analysis_zswap(x->a);
	struct ex_out *o = &x->out[TB_ZSWAP];

	for (int i = 0; i < zswap_model_npoints(m); i++) {
		const struct zsw_point *p = zswap_model_point(m, i);
		const int64_t v[] = { p->stored_pages, p->pool_bytes, p->limit_pages, p->zswpout,
				      p->zswpin, p->zswpwb, p->pswpout, p->pswpin,
				      p->written_back, p->pool_limit_hit, p->rejects,
				      p->inflight, p->enabled };

		row_begin(o, x->id);
		put_u64(o, rel(x, p->ts));
		for (size_t k = 0; k < sizeof(v) / sizeof(v[0]); k++)
			put_s64_or_null(o, v[k], v[k] >= 0);
		row_end(o);
	}
}

/* A counter's value; one above INT64_MAX is unsigned (its bits kept). */
static void put_counter(struct ex_out *o, const struct counter *c, int64_t v)
{
	if (c->wide)
		put_u64(o, (uint64_t)v);
	else
		put_scaled(o, v, c->scale);
}

/* Each counter at the first and the last complete sample set it was in. */
static void export_counters(struct ex_ctx *x)
{
	const struct counters_model *m = analysis_counters(x->a);
	struct ex_out *o = &x->out[TB_COUNTERS];
	uint64_t first, last;

	counters_model_span(m, &first, &last);
	for (int i = 0; i < counters_model_count(m); i++) {
		const struct counter *c = counters_model_get(m, i);

		if (!c)	/* seen only in a set whose end line is missing */
			continue;
		row_begin(o, x->id);
		put_u64(o, rel(x, first));
		put_str(o, sample_source_name(c->source));
		put_str(o, c->instance);
		put_str(o, c->key);
		put_counter(o, c, c->first);
		row_end(o);
		if (last == first)
			continue;
		row_begin(o, x->id);
		put_u64(o, rel(x, last));
		put_str(o, sample_source_name(c->source));
		put_str(o, c->instance);
		put_str(o, c->key);
		put_counter(o, c, c->last);
		row_end(o);
	}
}

static void export_oom(struct ex_ctx *x)
{
	const struct oom_model *m = analysis_model(x->a, &oom_model_ops);
	struct ex_out *o = &x->out[TB_OOM];

	for (int i = 0; m && i < oom_model_nkills(m); i++) {
		const struct oom_kill *k = oom_model_kill(m, i);

		row_begin(o, x->id);
		put_u64(o, rel(x, k->ts));
		put_s64_or_null(o, k->pid, k->pid >= 0);
		put_str_or_null(o, k->comm);
		put_s64(o, k->by_pid);
		put_str_or_null(o, k->by_comm);
		put_s64_or_null(o, k->total_vm_kb, k->total_vm_kb >= 0);
		put_s64_or_null(o, k->anon_rss_kb, k->anon_rss_kb >= 0);
		put_s64_or_null(o, k->file_rss_kb, k->file_rss_kb >= 0);
		put_s64_or_null(o, k->shmem_rss_kb, k->shmem_rss_kb >= 0);
		put_s64_or_null(o, k->uid, k->uid >= 0);
		put_s64_or_null(o, k->oom_score_adj, k->oom_score_adj != INT64_MIN);
		put_str_or_null(o, oom_constraint_name(k->constraint));
		put_s64_or_null(o, (int64_t)k->memcg_id, k->memcg_known);
		row_end(o);
	}
}

static void export_kills(struct ex_ctx *x)
{
	struct ex_out *o = &x->out[TB_KILLS];
	struct kill_dossier d;
	char head[256];

	for (int i = 0; i < kill_dossier_count(x->a); i++) {
		const struct kw_task *top;

		if (kill_dossier_get(x->a, i, &d))
			continue;
		top = d.ncandidates > 0 ? &d.candidate[0] : NULL;
		row_begin(o, x->id);
		put_u64(o, rel(x, d.ts));
		put_str(o, d.killer);
		put_s64_or_null(o, d.kill->pid, d.kill->pid >= 0);
		put_str_or_null(o, d.kill->comm);
		put_str_or_null(o, d.victim_cgroup);
		/* the sender: a signal kill's; the OOM killer's own is the task
		 * the kill ran in (by_pid), a kernel thread's too */
		put_s64_or_null(o, d.kill->by_pid, d.kill->by_pid >= 0);
		put_str_or_null(o, d.kill->by_comm);
		put_str_or_null(o, d.sender_cgroup);
		put_u64(o, d.window_ns);
		put_s64(o, d.clipped);
		put_s64_or_null(o, d.direct_stalls, d.direct_stalls >= 0);
		put_s64_or_null(o, d.direct_stall_ns, d.direct_stall_ns >= 0);
		put_s64_or_null(o, d.memcg_stalls, d.memcg_stalls >= 0);
		put_s64_or_null(o, d.memcg_stall_ns, d.memcg_stall_ns >= 0);
		put_s64_or_null(o, d.kswapd_episodes, d.kswapd_episodes >= 0);
		put_s64_or_null(o, d.handoffs, d.handoffs >= 0);
		put_s64_or_null(o, d.compaction_runs, d.compaction_runs >= 0);
		put_s64_or_null(o, d.compaction_failures, d.compaction_failures >= 0);
		put_real_or_null(o, d.psi_some_avg10, !isnan(d.psi_some_avg10));
		put_real_or_null(o, d.psi_full_avg10, !isnan(d.psi_full_avg10));
		put_real_or_null(o, d.swap_free_pct, !isnan(d.swap_free_pct));
		put_s64_or_null(o, d.zswap_pool_bytes, d.zswap_pool_bytes >= 0);
		put_s64_or_null(o, d.ncandidates, d.ncandidates >= 0);
		put_str_or_null(o, top ? top->comm : NULL);
		put_s64_or_null(o, top ? top->rss_kb : 0, top && top->rss_kb >= 0);
		put_s64_or_null(o, top ? top->swap_kb : 0, top && top->swap_kb >= 0);
		put_str_or_null(o, kill_dossier_headline(&d, head, (int)sizeof(head)));
		put_s64_or_null(o, d.cg_usage_bytes, d.cg_usage_bytes >= 0);
		put_s64_or_null(o, d.cg_limit_bytes, d.cg_limit_bytes >= 0);
		/* tells a null limit read as "max" from no limit read */
		put_s64_or_null(o, d.cg_unlimited, d.cg_unlimited || d.cg_limit_bytes >= 0);
		put_real_or_null(o, d.cg_usage_pct, !isnan(d.cg_usage_pct));
		row_end(o);
	}
}

static void put_memcg_val(struct ex_out *o, const struct memcg_val *v)
{
	put_s64_or_null(o, v->v, v->known && !v->unlimited);
}

static void put_memcg_limit(struct ex_out *o, const struct memcg_limit *l, int changed)
{
	put_memcg_val(o, &l->last);
	put_s64_or_null(o, l->last.unlimited, l->last.known);
	if (changed)
		put_s64_or_null(o, l->changed, l->last.known);
}

static void put_memcg_delta(struct ex_out *o, const struct memcg_count *c)
{
	put_s64_or_null(o, c->delta, c->delta_known);
}

static void export_memcgs(struct ex_ctx *x)
{
	const struct memcgs_model *m = analysis_model(x->a, &memcgs_model_ops);
	struct ex_out *o = &x->out[TB_MEMCGS];

	for (int i = 0; m && i < memcgs_model_count(m); i++) {
		const struct memcg_info *g = memcgs_model_get(m, i);

		row_begin(o, x->id);
		put_str(o, g->path);
		put_s64_or_null(o, g->version, g->version != 0);
		put_u64(o, g->nsets);
		put_u64(o, rel(x, g->first_ts));
		put_u64(o, rel(x, g->last_ts));
		put_memcg_val(o, &g->usage_first);
		put_memcg_val(o, &g->usage_last);
		put_memcg_val(o, &g->usage_max);
		put_s64_or_null(o, (int64_t)rel(x, g->usage_max_ts), g->usage_max.known);
		put_memcg_val(o, &g->peak);
		put_memcg_limit(o, &g->limit, 1);
		put_memcg_limit(o, &g->high, 0);
		put_memcg_limit(o, &g->swap_max, 0);
		put_memcg_val(o, &g->swap_last);
		put_memcg_val(o, &g->swap_max_sampled);
		put_memcg_delta(o, &g->failcnt);
		put_memcg_delta(o, &g->ev_low);
		put_memcg_delta(o, &g->ev_high);
		put_memcg_delta(o, &g->ev_max);
		put_memcg_delta(o, &g->ev_oom);
		put_memcg_delta(o, &g->ev_oom_kill);
		put_memcg_delta(o, &g->psi_some_us);
		put_memcg_delta(o, &g->psi_full_us);
		row_end(o);
	}
}

static void export_findings(struct ex_ctx *x)
{
	struct findings *fs = findings_build(x->a);
	struct ex_out *o = &x->out[TB_FINDINGS];

	for (int i = 0; i < fs->n; i++) {
		const struct finding *f = &fs->f[i];
		struct strbuf ev = STRBUF_INIT;

		/* "figure [source; section]", "; " between them */
		for (int e = 0; e < f->nev; e++)
			strbuf_addf(&ev, "%s%s [%s; %s]", e ? "; " : "", f->ev[e].figure,
				    f->ev[e].source, f->ev[e].section);
		row_begin(o, x->id);
		put_str(o, f->rule->id);
		put_str(o, finding_severity_name(f->severity));
		put_s64_or_null(o, (int64_t)f->t_start_ns, f->has_t_start);
		put_s64_or_null(o, (int64_t)f->t_end_ns, f->has_t_end);
		put_u64(o, f->count);
		put_str(o, f->count_unit);
		put_str(o, f->rule->section);
		put_s64_or_null(o, f->order, f->order >= 0);
		put_s64_or_null(o, f->node, f->node >= 0);
		put_str_or_null(o, f->zone);
		put_s64_or_null(o, f->device, f->device >= 0);
		put_str_or_null(o, f->task);
		put_str(o, f->summary);
		put_str(o, ev.buf ? ev.buf : "");
		put_str(o, f->mechanism);
		row_end(o);
		strbuf_release(&ev);
	}
	findings_free(fs);
}

/* phase: "start" or "end" for the run's context, NULL for what the
 * recording says of itself; a key the run's context holds is its. */
static void setting_row(struct ex_ctx *x, const char *key, const char *value,
			const char *phase)
{
	const struct run_model *rm = analysis_model(x->a, &run_model_ops);
	struct ex_out *o = &x->out[TB_SETTINGS];

	if (!value || !*value || (!phase && rm && run_model_find(rm, key)))
		return;
	row_begin(o, x->id);
	put_str(o, key);
	put_str(o, value);
	put_str_or_null(o, phase);
	row_end(o);
}

/*
 * The settings the recording carries, one row each (key, value as text):
 * the run's context at its start, and again at its end where it changed;
 * then what the recording's own lines say (probe set, zswap, swap
 * clusters) where the context does not hold that key.
 */
static void export_settings(struct ex_ctx *x)
{
	const struct run_model *rm = analysis_model(x->a, &run_model_ops);
	const struct zswap_model *zm = analysis_zswap(x->a);
	const struct zsw_settings *zs = zswap_model_settings(zm);
	const struct swapclust_model *sm = analysis_swapclust(x->a);
	char buf[32];

	for (int i = 0; rm && i < run_model_nsettings(rm); i++) {
		const struct run_setting *st = run_model_setting(rm, i);

		setting_row(x, st->key, st->start, "start");
		if (st->end && (!st->start || strcmp(st->start, st->end)))
			setting_row(x, st->key, st->end, "end");
	}
	setting_row(x, "probe_set", analysis_probe_set(x->a), NULL);
	setting_row(x, "probe_reason", analysis_probe_reason(x->a), NULL);
	if (swapclust_model_cluster_basis(sm) == SWC_BASIS_RECORDED ||
	    swapclust_model_cluster_basis(sm) == SWC_BASIS_THP) {
		snprintf(buf, sizeof(buf), "%d", swapclust_model_cluster_size(sm));
		setting_row(x, "swap.cluster_slots", buf, NULL);
	}
	if (zswap_model_enabled(zm) >= 0)
		setting_row(x, "zswap.enabled", zswap_model_enabled(zm) ? "1" : "0", NULL);
	setting_row(x, "zswap.compressor", zs->compressor, NULL);
	setting_row(x, "zswap.zpool", zs->zpool, NULL);
	if (zswap_model_max_pool_percent(zm) >= 0) {
		snprintf(buf, sizeof(buf), "%d", zswap_model_max_pool_percent(zm));
		setting_row(x, "zswap.max_pool_percent", buf, NULL);
	}
}

/* ---- files ---- */

static const char *fmt_ext(enum ex_format f)
{
	return f == FMT_CSV ? "csv" : "jsonl";
}

static void csv_header(const struct ex_table *t, struct strbuf *sb)
{
	for (int c = 0; c < t->ncols; c++)
		strbuf_addf(sb, "%s%s", c ? "," : "", t->cols[c].name);
	strbuf_addch(sb, '\n');
}

/* The keys of a JSON Lines record, comma-separated: the strings at depth
 * 1 that a ':' follows. */
static void jsonl_keys(const char *line, struct strbuf *keys)
{
	int depth = 0;

	for (const char *p = line; *p && *p != '\n'; p++) {
		if (*p == '{' || *p == '[') {
			depth++;
		} else if (*p == '}' || *p == ']') {
			depth--;
		} else if (*p == '"') {
			const char *s = ++p;

			while (*p && *p != '"')
				p += *p == '\\' && p[1] ? 2 : 1;
			if (!*p)
				return;
			if (depth == 1 && p[1] == ':') {
				if (keys->len)
					strbuf_addch(keys, ',');
				strbuf_add(keys, s, (size_t)(p - s));
			}
		}
	}
}

/*
 * Checks DIR/TABLE.EXT against the schema: a file that has lines must
 * start with this table's header (CSV) or a record with its keys in order
 * (JSON Lines). 0, or -1 with *err set.
 */
static int check_file(const struct ex_table *t, enum ex_format fmt, struct ex_file *f,
		      char **err)
{
	struct strbuf want = STRBUF_INIT, got = STRBUF_INIT;
	char *line = NULL;
	size_t cap = 0;
	FILE *fp = fopen(f->path, "r");
	int r = 0;

	f->exists = 0;
	if (!fp) {
		if (errno == ENOENT)
			return 0;
		set_err(err, "%s: %s", f->path, strerror(errno));
		return -1;
	}
	if (getline(&line, &cap, fp) < 0) {
		free(line);
		fclose(fp);
		return 0;
	}
	fclose(fp);
	f->exists = 1;
	if (fmt == FMT_CSV) {
		csv_header(t, &want);
		strbuf_addstr(&got, line);
	} else {
		for (int c = 0; c < t->ncols; c++)
			strbuf_addf(&want, "%s%s", c ? "," : "", t->cols[c].name);
		jsonl_keys(line, &got);
	}
	if (strcmp(want.buf, got.buf ? got.buf : "")) {
		set_err(err, "%s: its columns differ from the %s table's (another mmscope "
			"version's export? start a new directory)", f->path, t->name);
		r = -1;
	}
	free(line);
	strbuf_release(&want);
	strbuf_release(&got);
	return r;
}

/* ---- the schema as SQL ---- */

/*
 * The keys of each table, for fleet questions (issue 42). recordings is
 * the fleet's dimension: one row per recording with its host, kernel and
 * wall-clock start, so ClickHouse sorts it by kernel, host and start and
 * partitions it by month of the start (a recording without a wall clock
 * goes to 1970-01). The other tables know their recording only by its id:
 * they are sorted by it, then by what their questions pick (the stall
 * kind, the order, the counter) and time, so a recording's rows lie
 * together and a question about some hosts or kernels reads their
 * recordings' ranges only (WHERE recording_id IN (SELECT ... FROM
 * recordings ...) or a join on it). The same columns are SQLite's index.
 * No sorting key column may be Nullable (ClickHouse 18.16 refuses it).
 */
struct ex_keys {
	const char *cols;	/* SQLite index, and the sorting key less ifNull */
	const char *ch_order;	/* ClickHouse ORDER BY, when not cols */
	const char *ch_part;	/* ClickHouse PARTITION BY, or NULL */
};

#define START_S "intDiv(ifNull(start_unix_ns, 0), 1000000000)"
static const struct ex_keys ex_keys[TB_NR] = {
	[TB_RECORDINGS] = { "kernel, host, start_unix_ns",
			    "kernel, host, ifNull(start_unix_ns, 0), recording_id",
			    "toYYYYMM(toDateTime(" START_S ", 'UTC'))" },
	[TB_KSWAPD] = { "recording_id, node, begin_ns", NULL, NULL },
	[TB_KCOMPACTD] = { "recording_id, node, begin_ns", NULL, NULL },
	[TB_STALLS] = { "recording_id, kind, begin_ns", NULL, NULL },
	[TB_COMPACTION] = { "recording_id, runner, begin_ns", NULL, NULL },
	[TB_SWAP_ORDERS] = { "recording_id, alloc_order, begin_ns", NULL, NULL },
	[TB_SWAP_CLUSTERS] = { "recording_id, device, t_ns", NULL, NULL },
	[TB_ZSWAP] = { "recording_id, t_ns", NULL, NULL },
	[TB_COUNTERS] = { "recording_id, source, key, t_ns", NULL, NULL },
	[TB_OOM] = { "recording_id, t_ns", NULL, NULL },
	[TB_SETTINGS] = { "recording_id, key", NULL, NULL },
	[TB_FINDINGS] = { "recording_id, id", NULL, NULL },
	[TB_MEMCGS] = { "recording_id, path", NULL, NULL },
	[TB_CGROUPS] = { "recording_id", NULL, NULL },
	[TB_KILLS] = { "recording_id, killer, t_ns", NULL, NULL },
};

static void print_columns(const struct ex_table *t, int clickhouse)
{
	for (int c = 0; c < t->ncols; c++) {
		const struct ex_col *col = &t->cols[c];
		const char *ty;

		if (clickhouse)
			ty = col->type == CT_INT ? "Int64" : col->type == CT_REAL ?
			     "Float64" : "String";
		else
			ty = col->type == CT_INT ? "INTEGER" : col->type == CT_REAL ?
			     "REAL" : "TEXT";
		if (clickhouse && col->nullable)
			printf("  `%s` Nullable(%s)", col->name, ty);
		else if (clickhouse)
			printf("  `%s` %s", col->name, ty);
		else
			printf("  \"%s\" %s%s", col->name, ty, col->nullable ? "" : " NOT NULL");
		printf("%s\n", c + 1 < t->ncols ? "," : "");
	}
}

/*
 * clickhouse 0: SQLite, its tables and an index on each; 1: ClickHouse
 * MergeTree tables. With a cluster (ClickHouse), each table is
 * TABLE_local on every server of the cluster and TABLE a Distributed
 * table over them, so the fleet queries name TABLE either way. Rows are
 * sharded by recording: a recording's rows, its recordings row included,
 * are on one shard, so with distributed_product_mode = 'local' a join on
 * recording_id with a subquery is answered by each shard with its own
 * rows (mmscope-export(5), CLUSTERS).
 */
static void print_schema(int clickhouse, const char *cluster)
{
	for (int i = 0; i < TB_NR; i++) {
		const struct ex_table *t = &ex_tables[i];
		const struct ex_keys *k = &ex_keys[i];

		if (!clickhouse) {
			printf("CREATE TABLE IF NOT EXISTS %s (\n", t->name);
			print_columns(t, 0);
			printf(");\nCREATE INDEX IF NOT EXISTS %s_key ON %s (%s);\n", t->name,
			       t->name, k->cols);
			continue;
		}
		if (cluster)
			printf("CREATE TABLE IF NOT EXISTS %s_local ON CLUSTER %s (\n", t->name,
			       cluster);
		else
			printf("CREATE TABLE IF NOT EXISTS %s (\n", t->name);
		print_columns(t, 1);
		printf(") ENGINE = MergeTree");
		if (k->ch_part)
			printf(" PARTITION BY %s", k->ch_part);
		printf(" ORDER BY (%s);\n", k->ch_order ? k->ch_order : k->cols);
		if (cluster)
			printf("CREATE TABLE IF NOT EXISTS %s ON CLUSTER %s AS %s_local\n"
			       "  ENGINE = Distributed(%s, currentDatabase(), %s_local, "
			       "cityHash64(recording_id));\n", t->name, cluster, t->name, cluster,
			       t->name);
	}
}

/* ---- the command ---- */

struct export_opts {
	const char *dir;
	enum ex_format fmt;
	const char *null;	/* --csv-null */
	int schema;		/* 0 none, 1 sqlite, 2 clickhouse */
	const char *cluster;	/* --cluster: ClickHouse's Distributed tables */
	int jobs;		/* --jobs, 0: the CPUs it may use */
	struct analysis_scope scope;	/* --since/--until: a window */
};

enum { OPT_SCHEMA = 256, OPT_CSV_NULL, OPT_CLUSTER };

static int export_parse(int argc, char **argv, struct export_opts *o)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "format", required_argument, NULL, 'f' },
		{ "schema", required_argument, NULL, OPT_SCHEMA },
		{ "cluster", required_argument, NULL, OPT_CLUSTER },
		{ "csv-null", required_argument, NULL, OPT_CSV_NULL },
		{ "jobs", required_argument, NULL, 'j' },
		{ "since", required_argument, NULL, SCOPE_OPT_SINCE },
		{ "until", required_argument, NULL, SCOPE_OPT_UNTIL },
		{ "cgroup", required_argument, NULL, SCOPE_OPT_CGROUP },
		{ "run", required_argument, NULL, SCOPE_OPT_RUN },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const struct cmd_entry *cmd = &cmd_export_entry;
	int c;

	*o = (struct export_opts){ .fmt = FMT_CSV, .null = "" };
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "o:f:j:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			o->dir = optarg;
			break;
		case 'f':
			if (!strcmp(optarg, "csv"))
				o->fmt = FMT_CSV;
			else if (!strcmp(optarg, "jsonl"))
				o->fmt = FMT_JSONL;
			else
				return usage_error(cmd, "bad format '%s' (csv or jsonl)", optarg);
			break;
		case 'j':
			if (parse_jobs(cmd, optarg, &o->jobs))
				return EXIT_USAGE;
			break;
		case SCOPE_OPT_SINCE:
		case SCOPE_OPT_UNTIL:
		case SCOPE_OPT_CGROUP:
		case SCOPE_OPT_RUN:
			if (parse_scope(cmd, c, optarg, &o->scope))
				return EXIT_USAGE;
			break;
		case OPT_CSV_NULL:
			/* a marker that no field can hold unquoted */
			if (strpbrk(optarg, ",\"\r\n"))
				return usage_error(cmd, "bad --csv-null '%s' (no comma, quote "
						   "or line break)", optarg);
			o->null = optarg;
			break;
		case OPT_SCHEMA:
			if (!strcmp(optarg, "sqlite"))
				o->schema = 1;
			else if (!strcmp(optarg, "clickhouse"))
				o->schema = 2;
			else
				return usage_error(cmd, "bad schema '%s' (sqlite or clickhouse)",
						   optarg);
			break;
		case OPT_CLUSTER:
			/* a name ClickHouse takes unquoted in ON CLUSTER and as
			 * the Distributed engine's first argument */
			if (!*optarg || optarg[strspn(optarg, "abcdefghijklmnopqrstuvwxyz"
						       "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")] ||
			    (*optarg >= '0' && *optarg <= '9'))
				return usage_error(cmd, "bad --cluster '%s' (letters, digits "
						   "and _, not first a digit)", optarg);
			o->cluster = optarg;
			break;
		case 'h':
			return -1;
		default:
			return bad_option(cmd, argc, argv);
		}
	}
	if (o->cluster && o->schema != 2)
		return usage_error(cmd, "--cluster goes with --schema clickhouse");
	if (o->schema) {
		if (optind != argc || o->dir)
			return usage_error(cmd, "--schema takes no recording and no -o");
		return 0;
	}
	if (check_scope(cmd, &o->scope))
		return EXIT_USAGE;
	if (!o->dir)
		return usage_error(cmd, "no output directory given (-o DIR)");
	return inputs_args_check(cmd, argv + optind, argc - optind);
}

/*
 * One recording (one file, or the segments of one) on its way to the
 * tables: analysed and turned into rows by a worker (export_build), then
 * appended in the order of the arguments by the main thread
 * (export_commit), so that the tables do not depend on which worker
 * finished first and a recording that fails leaves them as they were.
 */
struct ex_job {
	const struct inputs *in;	/* recording rec of the arguments */
	int rec;
	struct inputs_sel sel;		/* its run, and its scope */
	int from, to;			/* its files [from, to) */
	char *name;		/* as messages name it */
	struct ex_ctx x;	/* its rows (x.a is freed once they are built) */
	int rc;			/* -1: failed, err says why */
	char *err;
	int done;
};

static void export_cgroups(struct ex_ctx *x)
{
	const struct cgroups_model *m = analysis_model(x->a, &cgroups_model_ops);
	const struct cgmap *map = analysis_cgmap(x->a);
	struct ex_out *o = &x->out[TB_CGROUPS];
	int kind[RK_KSWAPD], lru, swap, oom;

	if (!cgmap_recorded(map))
		return;
	for (int k = 0; k < RK_KSWAPD; k++)
		kind[k] = analysis_traced(x->a, REC_RECLAIM_BEGIN, k);
	lru = analysis_traced(x->a, REC_SHRINK_INACTIVE, -1);
	swap = analysis_probes_swap(x->a) == 1;
	oom = analysis_event_enabled(x->a, "oom", "mark_victim") ||
	      analysis_traced(x->a, REC_OOM, -1);
	for (int i = 0; i < cgroups_model_nrows(m); i++) {
		const struct cgroups_row *r = cgroups_model_row(m, i);

		row_begin(o, x->id);
		put_str_or_null(o, r->id >= 0 ? cgmap_path(map, r->id) : "");
		put_s64_or_null(o, (int64_t)cgmap_tasks(map, r->id), r->id >= 0);
		for (int k = 0; k < RK_KSWAPD; k++) {
			const struct hist *h = r->lat[k];
			int some = kind[k] && h && h->count;

			/* as the report counts them (a part's cut stalls too) */
			put_s64_or_null(o, (int64_t)cgroups_row_stalls(r, k), kind[k]);
			put_s64_or_null(o, cgroups_row_stall_ns(r, k), kind[k]);
			put_s64_or_null(o, some ? (int64_t)hist_percentile(h, 99) : 0, some);
			put_s64_or_null(o, some ? (int64_t)h->max : 0, some);
		}
		put_s64_or_null(o, (int64_t)r->memcg_scanned, lru);
		put_s64_or_null(o, (int64_t)r->memcg_reclaimed, lru);
		put_s64_or_null(o, (int64_t)r->swapouts, swap);
		put_s64_or_null(o, (int64_t)r->oom_kills, oom);
		row_end(o);
	}
}

static void export_build(struct ex_job *j, const struct export_opts *o)
{
	struct analysis_opts ao;
	struct analysis *a;
	char *err = NULL;

	(void)o;	/* the scope is the inputs' */
	analysis_opts_default(&ao);
	ao.unnamed_frames = 1;	/* no table holds stacks */
	a = inputs_files_analysis(j->in, &j->sel, j->from, j->to, &ao, &err, NULL);
	j->name = j->from > 0 || j->to < j->in->rec[j->rec].n ?
		  xasprintf("%s (parts %d..%d)", j->in->rec[j->rec].name,
			    j->in->rec[j->rec].part[j->from], j->in->rec[j->rec].part[j->to - 1]) :
		  xstrdup(j->in->rec[j->rec].name);
	if (!a) {
		/* a set's reader names the file at fault; one file is named here */
		j->err = j->in->rec[j->rec].n > 1 ? xasprintf("%s", err ? err : "cannot read") :
			 xasprintf("%s: %s", j->name, err ? err : "cannot read");
		free(err);
		j->rc = -1;
		return;
	}
	if (analysis_info(a)->windowed && !analysis_info(a)->events) {
		/* the window's end and every figure would be made up */
		j->err = xasprintf("%s: no event in the window (%s): nothing exported", j->name,
				   analysis_info(a)->empty_window ? analysis_info(a)->empty_window :
				   "?");
		j->rc = -1;
		analysis_free(a);
		return;
	}
	j->x.a = a;
	j->x.t0 = analysis_info(a)->first_ts;
	recording_id(analysis_info(a), &j->x.who, j->x.id);
	for (int i = 0; i < TB_NR; i++) {
		j->x.out[i].fmt = o->fmt;
		j->x.out[i].null = o->null;
		j->x.out[i].t = &ex_tables[i];
	}
	export_recording(&j->x, j->name);
	export_handoff(&j->x);
	export_stalls(&j->x);
	export_swap_orders(&j->x);
	export_swap_clusters(&j->x);
	export_zswap(&j->x);
	export_counters(&j->x);
	export_oom(&j->x);
	export_settings(&j->x);
	export_findings(&j->x);
	export_memcgs(&j->x);
	export_cgroups(&j->x);
	export_kills(&j->x);
	for (int i = 0; i < TB_NR && !j->rc; i++)
		if (j->x.out[i].bad) {
			j->err = xasprintf("internal error: a row of %s does not match its columns",
					   ex_tables[i].name);
			j->rc = -1;
		}
	analysis_free(a);
	j->x.a = NULL;
}

/* Appends a built job's rows. 0, 1 (skipped: already there) or -1. */
static int export_commit(struct ex_job *j, const struct export_opts *o,
			 struct ex_file *files, struct export_seen *seen, char **err)
{
	int r = 0;

	if (j->rc) {
		*err = j->err;
		j->err = NULL;
		return -1;
	}
	if (export_seen_has_id(seen, j->x.id)) {
		fprintf(stderr, "%s: recording %s is already in %s, skipped\n", j->name,
			j->x.id, o->dir);
		return 1;
	}
	/* every table gets its file, even with no rows (and in JSON Lines
	 * no header): a fleet's loader finds the same files in every export */
	struct strbuf heads[TB_NR];
	const char *head[TB_NR];
	const struct strbuf *rows[TB_NR];

	for (int i = 0; i < TB_NR; i++) {
		heads[i] = (struct strbuf)STRBUF_INIT;
		if (o->fmt == FMT_CSV)
			csv_header(&ex_tables[i], &heads[i]);
		head[i] = heads[i].len ? heads[i].buf : NULL;
		rows[i] = &j->x.out[i].sb;
	}
	r = xw_append(o->dir, files, TB_NR, head, rows, TB_RECORDINGS, err);
	for (int i = 0; i < TB_NR; i++)
		strbuf_release(&heads[i]);
	if (!r) {	/* in now: a later job of the same export sees it */
		snprintf(j->x.who.id, sizeof(j->x.who.id), "%s", j->x.id);
		export_seen_add(seen, &j->x.who);
	}
	return r;
}

static void export_job_release(struct ex_job *j)
{
	for (int i = 0; i < TB_NR; i++)
		strbuf_release(&j->x.out[i].sb);
	free(j->name);
	free(j->err);
	memset(j, 0, sizeof(*j));
}

/*
 * The workers: each takes the next recording, at most `ahead` past the
 * oldest one not yet appended, so that the rows waiting for their turn
 * stay bounded (memory: one analysis per worker and some rows).
 */
struct ex_pool {
	struct ex_job *jobs;
	int n, next, committed, ahead;
	const struct export_opts *o;
	pthread_mutex_t lock;
	pthread_cond_t cond;	/* a job done, or one committed */
};

static void *export_worker(void *arg)
{
	struct ex_pool *p = arg;

	pthread_mutex_lock(&p->lock);
	for (;;) {
		while (p->next < p->n && p->next >= p->committed + p->ahead)
			pthread_cond_wait(&p->cond, &p->lock);
		if (p->next >= p->n)
			break;
		struct ex_job *j = &p->jobs[p->next++];

		pthread_mutex_unlock(&p->lock);
		export_build(j, p->o);
		pthread_mutex_lock(&p->lock);
		j->done = 1;
		pthread_cond_broadcast(&p->cond);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

/* Builds the jobs on threads and appends them in order; the status. */
static int export_all(struct ex_job *jobs, int n, const struct export_opts *o,
		      struct ex_file *files, struct export_seen *seen)
{
	struct ex_pool p = { jobs, n, 0, 0, 0, o, PTHREAD_MUTEX_INITIALIZER,
			     PTHREAD_COND_INITIALIZER };
	int nt = o->jobs ? o->jobs : cpus_usable(), started = 0, status = EXIT_OK;
	pthread_t *tid;

	if (nt > n)
		nt = n;
	tid = xcalloc((size_t)nt + 1, sizeof(*tid));
	p.ahead = 2 * (nt > 0 ? nt : 1);
	if (nt > 1)
		td_readers_at_once(nt);
	for (int i = 0; nt > 1 && i < nt; i++)
		if (!pthread_create(&tid[started], NULL, export_worker, &p))
			started++;
	for (int k = 0; k < n; k++) {
		char *err = NULL;

		if (!started) {		/* one CPU, or no thread could start */
			p.next = k + 1;
			export_build(&jobs[k], o);
		} else {
			pthread_mutex_lock(&p.lock);
			while (!jobs[k].done)
				pthread_cond_wait(&p.cond, &p.lock);
			pthread_mutex_unlock(&p.lock);
		}
		if (export_commit(&jobs[k], o, files, seen, &err) < 0) {
			status = error("%s", err ? err : jobs[k].in->rec[jobs[k].rec].name);
			free(err);
		}
		export_job_release(&jobs[k]);
		pthread_mutex_lock(&p.lock);
		p.committed = k + 1;
		pthread_cond_broadcast(&p.cond);
		pthread_mutex_unlock(&p.lock);
	}
	for (int i = 0; i < started; i++)
		pthread_join(tid[i], NULL);
	td_readers_at_once(1);
	free(tid);
	pthread_cond_destroy(&p.cond);
	pthread_mutex_destroy(&p.lock);
	return status;
}

/* Its identity: host (machine id, else name), boot, run, parts. */
static void run_identity(const struct inputs *in, int run, int from, int to, struct seen_rec *w)
{
	const struct history_run *r = &in->hist.run[run];
	const struct input_rec *rec = &in->rec[r->in];

	memset(w, 0, sizeof(*w));
	w->host_machine = r->machine_id[0] != 0;
	snprintf(w->host, sizeof(w->host), "%s", w->host_machine ? r->machine_id : r->host_name);
	snprintf(w->boot, sizeof(w->boot), "%s", r->boot_id);
	snprintf(w->run_id, sizeof(w->run_id), "%s", r->run_id);
	w->parts = rec->part[from] > 0;
	w->part_first = w->parts ? rec->part[from] : 0;
	w->part_last = w->parts ? rec->part[to - 1] : 0;
	w->incident = r->flight;
	w->has_span = r->has_span;
	w->start_ns = r->first_ts;
	w->end_ns = r->last_ts;
}

static void add_job(struct ex_job **jobs, int *n, const struct inputs *in,
		    const struct inputs_sel *sel, int from, int to)
{
	struct ex_job *j;

	*jobs = xreallocarray(*jobs, (size_t)*n + 1, sizeof(**jobs));
	j = &(*jobs)[(*n)++];
	memset(j, 0, sizeof(*j));
	j->in = in;
	j->rec = in->hist.run[sel->run].in;
	j->sel = *sel;
	j->from = from;
	j->to = to;
	run_identity(in, sel->run, from, to, &j->x.who);
}

/* The index of part p among rec's files (in time order: part order). */
static int file_of_part(const struct input_rec *rec, int p)
{
	for (int i = 0; i < rec->n; i++)
		if (rec->part[i] == p)
			return i;
	return -1;
}

/*
 * What to export: each host's runs the scope selects, in time order, less
 * what the directory (seen) holds already: an incident inside a run of
 * the same export, or inside a recording of the directory, is that run's;
 * of a run whose parts went in before, the parts not in yet (as one
 * recording per range). The jobs' count; *status on an error.
 */
static int plan_jobs(const struct inputs *in, const struct export_opts *o,
		     const struct export_seen *seen, struct ex_job **jobs, int *status)
{
	int n = 0;

	for (int h = 0; h < in->hist.nhost; h++) {
		struct inputs_sel *sel = NULL;
		int nsel = 0, bad = 0;
		char *err = NULL;

		if (inputs_select(in, h, &sel, &nsel, &err, &bad)) {
			*status = bad ? EXIT_USAGE : error("%s", err);
			if (bad)
				error("%s", err);
			free(err);
			continue;
		}
		for (int k = 0; k < in->hist.host_n[h]; k++) {
			const struct history_run *r = &in->hist.run[in->hist.host_first[h] + k];

			if (r->rel == HIST_INSIDE && !in->scope.run)
				fprintf(stderr, "%s: an incident inside %s: its events are exported "
					"with it\n", in->rec[r->in].name,
					in->rec[in->hist.run[r->other].in].name);
		}
		for (int k = 0; k < nsel; k++) {
			const struct input_rec *rec = &in->rec[in->hist.run[sel[k].run].in];
			struct seen_rec who;
			int miss[64][2], nmiss, held;

			run_identity(in, sel[k].run, 0, rec->n, &who);
			if (who.incident && (held = export_seen_holding(seen, &who)) >= 0) {
				fprintf(stderr, "%s: an incident inside recording %s already in %s, "
					"skipped\n", rec->name, seen->r[held].id, o->dir);
				continue;
			}
			/* an incident partly inside what the directory holds: its
			 * own part, as the history would place it */
			if (who.incident && in->hist.run[sel[k].run].rel != HIST_PARTLY &&
			    !sel[k].scope.since.set && !sel[k].scope.until.set) {
				uint64_t a, b;
				int pieces = export_seen_uncovered(seen, &who, &a, &b);

				if (!pieces) {
					fprintf(stderr, "%s: an incident inside recordings already in "
						"%s, skipped\n", rec->name, o->dir);
					continue;
				}
				if (pieces == 1 && (a > who.start_ns || b < who.end_ns)) {
					struct inputs_sel part = sel[k];

					part.whole = 0;
					part.scope.since = (struct analysis_time){ 1, 1, 0, a };
					part.scope.until = (struct analysis_time){ 1, 1, 0, b };
					fprintf(stderr, "%s: an incident partly inside recordings already "
						"in %s: its own part only\n", rec->name, o->dir);
					add_job(jobs, &n, in, &part, 0, rec->n);
					continue;
				}
			}
			/* a window's rows are its own recording: no parts to share */
			if (!who.parts || !*who.run_id || sel[k].scope.since.set ||
			    sel[k].scope.until.set) {
				add_job(jobs, &n, in, &sel[k], 0, rec->n);
				continue;
			}
			nmiss = export_seen_missing(seen, &who, who.part_first, who.part_last, miss,
						    64);
			if (!nmiss) {
				fprintf(stderr, "%s: parts %d..%d of run %s are already in %s, "
					"skipped\n", rec->name, who.part_first, who.part_last,
					who.run_id, o->dir);
				continue;
			}
			if (nmiss > 64) {	/* too scattered: part by part */
				for (int f = 0; f < rec->n; f++) {
					int one[1][2];

					run_identity(in, sel[k].run, f, f + 1, &who);
					if (export_seen_missing(seen, &who, rec->part[f], rec->part[f],
								one, 1))
						add_job(jobs, &n, in, &sel[k], f, f + 1);
				}
				continue;
			}
			for (int m = 0; m < nmiss; m++) {
				int a = file_of_part(rec, miss[m][0]), b = file_of_part(rec, miss[m][1]);

				if (a < 0 || b < a)
					continue;
				if (a > 0 || b + 1 < rec->n)
					fprintf(stderr, "%s: parts %d..%d of run %s not in %s yet: "
						"exporting those\n", rec->name, miss[m][0], miss[m][1],
						who.run_id, o->dir);
				add_job(jobs, &n, in, &sel[k], a, b + 1);
			}
		}
		free(sel);
	}
	return n;
}

static int cmd_export_run(int argc, char **argv)
{
	struct export_opts o;
	struct ex_file files[TB_NR];
	char *err = NULL;
	int r = export_parse(argc, argv, &o), status = EXIT_OK;
	struct ex_job *jobs = NULL;
	struct export_seen seen = { 0 };
	struct inputs in;
	int njobs;

	if (r < 0)
		return show_help(&cmd_export_entry);
	if (r > 0)
		return r;
	inputs_init(&in);
	if (o.schema) {
		print_schema(o.schema == 2, o.cluster);
		return finish_stdout(EXIT_OK);
	}
	if (mkdir(o.dir, 0777) && errno != EEXIST)
		return error("%s: %s", o.dir, strerror(errno));
	/* the directory is this export's; a failed one's rows are undone */
	int lock = xw_open(o.dir, &err);

	if (lock < 0) {
		status = error("%s", err);
		free(err);
		return status;
	}
	memset(files, 0, sizeof(files));
	for (int i = 0; i < TB_NR; i++)
		files[i].path = xasprintf("%s/%s.%s", o.dir, ex_tables[i].name, fmt_ext(o.fmt));
	/* every table is checked before anything is written */
	for (int i = 0; i < TB_NR; i++)
		if (check_file(&ex_tables[i], o.fmt, &files[i], &err)) {
			status = error("%s", err);
			free(err);
			goto out;
		}
	/* the recordings of the arguments (inputs.h): a directory's, the
	 * files of one run as one, standard input */
	in.scope = o.scope;
	in.twice_ok = 1;	/* the second is skipped as already in */
	if (inputs_open(&in, argv + optind, argc - optind, &err)) {
		status = error("%s", err);
		free(err);
		goto out;
	}
	if (in.scope.run && inputs_one(&in, &err)) {
		status = error("--run: %s", err);
		free(err);
		goto out;
	}
	if (export_seen_load(&seen, files[TB_RECORDINGS].path, o.fmt == FMT_JSONL, &err)) {
		status = error("%s", err);
		free(err);
		goto out;
	}
	njobs = plan_jobs(&in, &o, &seen, &jobs, &status);
	if (njobs > 0 && export_all(jobs, njobs, &o, files, &seen) != EXIT_OK)
		status = EXIT_ERROR;
	free(jobs);
out:
	export_seen_free(&seen);
	xw_close(lock);
	for (int i = 0; i < TB_NR; i++)
		free(files[i].path);
	inputs_release(&in);
	return status;
}

const struct cmd_entry cmd_export_entry = {
	.name = "export",
	.summary = "write recordings as tables (CSV, JSON Lines) for SQLite or ClickHouse",
	.usage = export_usage,
	.run = cmd_export_run,
};
