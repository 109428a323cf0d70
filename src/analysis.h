/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The analysis driver: the one place that connects the reader, the
 * parsers and the models. analysis_run() streams a recording once
 * (memory bounded by model state), and the result holds the models and
 * what the report header needs. Front ends (report, later compare and
 * the TUI) query the models through the accessors below; they never see
 * events.
 */
#ifndef MMSCOPE_ANALYSIS_H
#define MMSCOPE_ANALYSIS_H

#include <stddef.h>
#include <stdint.h>

#include "records.h"
#include "model-handoff.h"
#include "model-reclaim.h"
#include "model-compaction.h"
#include "model-counters.h"
#include "model-frag.h"
#include "model-consistency.h"
#include "model-swapclust.h"
#include "model-zswap.h"
#include "model-lanes.h"
#include "model.h"
#include "wall-map.h"

/*
 * What to look at (report, compare, dump, tui: --since/--until, --pid,
 * --comm, --cgroup). A time is seconds relative to the recording's first
 * event, as the report prints times, with abs set ("@T") a trace time
 * stamp as trace-cmd prints it, or with wall set a wall-clock time (ns
 * since the Unix epoch; src/scope-time.c).
 */
struct analysis_time {
	int set;
	int abs;
	int wall;
	uint64_t ns;
};

struct analysis_scope {
	struct analysis_time since, until;
	int pid;		/* > 0: only this task's event-derived figures */
	const char *comm;	/* non-NULL: only tasks of this name */
	const char *cgroup;	/* non-NULL: only tasks of this cgroup */
	/* --run N: run N (1 ...) of a host's history, in time order. The
	 * input layer's (inputs.h), which picks the run: the analysis of
	 * one recording never reads it. 0: every run. */
	int run;
};

/* "T" or "@T" (seconds, >= 0, decimals allowed), or a wall-clock time
 * "YYYY-MM-DDTHH:MM[:SS[.F]][Z|+HH:MM]" (no zone: local time) into *t:
 * 0, or -1. */
int analysis_time_parse(const char *s, struct analysis_time *t);
/* *t as a trace time stamp: first + t, t itself (@T), or a wall-clock
 * time through the recording's wall map (src/wall-map.h: the wall and
 * trace clocks mmscope record read together). -1 with *err (naming what,
 * "--since") when the recording cannot map that wall-clock time: no
 * clocks in it, or a time a step of the wall clock skipped or repeated. */
struct wall_map;
int analysis_time_at(const struct analysis_time *t, uint64_t first, const struct wall_map *wall,
		     const char *what, uint64_t *out, char **err);
/* A trace time stamp ts as UTC wall-clock time "YYYY-MM-DDTHH:MM:SS.FZ"
 * with digits decimals (0-9) through in's wall map; "-" when not known. */
struct analysis_info;
/* ts as Unix ns through in's wall map: 0, or -1 when not known (no
 * clocks, inside a step of the wall clock, before 1970). */
int analysis_wall_ns(const struct analysis_info *in, uint64_t ts, uint64_t *ns);
void analysis_wall_format(const struct analysis_info *in, uint64_t ts, int digits,
			  char *buf, size_t len);
/* Whether since is after until when both are of the same kind (front
 * ends refuse that before reading; mixed kinds are checked on reading). */
int analysis_scope_inverted(const struct analysis_scope *s);
/* The same as an error ("--since is after --until"): 0, or -1 with *err. */
int analysis_scope_check(const struct analysis_scope *s, char **err);
/*
 * The window in trace time: [*since, *until] from the scope, the
 * recording's first event time stamp (relative times count from it) and
 * its wall map (may be empty): *since is first and *until UINT64_MAX
 * where the scope sets none. 0, or -1 with *err (a wall-clock time not
 * mapped, since after until). Every front end's window comes from here.
 */
int analysis_window_resolve(const struct analysis_scope *s, uint64_t first,
			    const struct wall_map *wall, uint64_t *since, uint64_t *until,
			    char **err);
/* The interval the figures come from: the whole recording, or the window
 * actually analysed (from --since, or the first event when it is later,
 * to the last event read in it, or --until when events go on after it).
 * The recording's own span is first_ts .. rec_last_ts (when known). */
void analysis_interval(const struct analysis_info *in, uint64_t *from, uint64_t *to);
/* Whether the scope asks for anything. */
int analysis_scope_any(const struct analysis_scope *s);

struct analysis_opts {
	struct handoff_params handoff;
	/* analysis_run_files: each file's mmscope metadata as the caller
	 * (the input layer) read it, so that a set of many files is not
	 * opened again to learn it; NULL: read here. */
	const char *const *file_metas;
	/* Window and tasks (see above); zeroed: the whole recording. */
	struct analysis_scope scope;
	/* Called for every record after the models (tests, debugging), also
	 * for the records outside opts.phase that the models do not see. */
	record_sink_fn tap;
	void *tap_ctx;
	/* Called now and then while streaming: bytes of the file's event
	 * data read so far (done of total) and the time stamp reached. */
	void (*progress)(void *ctx, uint64_t done, uint64_t total, uint64_t ts);
	void *progress_ctx;
	/* > 0: index every Nth page while streaming, for seeks later
	 * (analysis_take_index); 0: no index. */
	unsigned index_every;
	/* What the report calls the recording ("(stdin)"); NULL: the path. */
	const char *name;
	/* Non-NULL: the models (but the phases model) see only the records
	 * of the first phase of this name, from its "mmscope phase NAME"
	 * marker to the next phase marker or the end; analysis_phase_found()
	 * says whether there was one. */
	const char *phase;
	/* Nonzero: stack frames stay unnamed (addresses only) and the
	 * recording's kallsyms are never parsed: for front ends that show
	 * no stacks (compare, export), a 6.18 kallsyms costs more than a
	 * lab recording's events. */
	int unnamed_frames;
	/* > 0: a series of one point per sample set (the mTHP counters per
	 * order, zswap) keeps at most about this many points, every 2nd,
	 * 4th ... set and the last once it is longer (src/thin.h); what is
	 * taken over every set (first and last rises) is kept apart. 0:
	 * every set. Report: ANALYSIS_SERIES_MAX, so that a week of parts
	 * reads in bounded memory. */
	int series_max;
	/* Nonzero: the models keep what report and findings read and no list
	 * only the viewers draw (each reclaim stall and compaction run, the
	 * lanes and the charts' series: model_ops.viewer). For the text and
	 * JSON reports: memory does not grow with the stalls or the time. */
	int summary;
	/* The window before each kill the OOM model describes (report
	 * --dossier-window); 0: KILL_WINDOW_DEFAULT_NS (model-oom.h). */
	uint64_t dossier_window_ns;
};

#define ANALYSIS_SERIES_MAX 2048

struct analysis_info {
	const char *path;
	char kernel[96], host[96], clock[32];
	int version;			/* trace.dat version */
	/* the kernel's page size, bytes, resolved once per recording: the
	 * recorder's run context (page_size=) when it has one, else the
	 * trace.dat header's ring page; 4096 when neither is a page size.
	 * Models and renderers take this one (analysis_order_kb). */
	uint32_t page_size;
	int swap_cluster;		/* SWAPFILE_CLUSTER recorded, slots; 0 none */
	/* the machine (uname -m) of an mmscope recording, from the file's
	 * uname option ("aarch64"); "" not known (trace-cmd's uname has the
	 * kernel's version there, not the machine) */
	char machine[32];
	/* HPAGE_PMD_ORDER: the run context's thp.hpage_pmd_size over the
	 * page size, else log2(page_size / 8) (a page-table page of 8-byte
	 * entries: 9 on 4 KB, 11 on 16 KB, 13 on 64 KB pages);
	 * pmd_order_basis says which (enum analysis_basis) */
	int pmd_order;
	int pmd_order_basis;
	/* CONFIG_THP_SWAP: 1 set, 0 not set, -1 unknown; thp_swap_basis
	 * (enum analysis_basis) says where it comes from. Without it every
	 * order>0 folio is split before swap-out (by configuration) and
	 * SWAPFILE_CLUSTER is 256 */
	int thp_swap;
	int thp_swap_basis;
	const char *compression;
	uint64_t first_ts, last_ts;	/* of all events, ns */
	/* the recording's last event, when the pass read to its end (a
	 * window's pass stops after the window: rec_last_known 0) */
	uint64_t rec_last_ts;
	int rec_last_known;
	/* the wall clock (Unix ns) against the trace clock, as mmscope
	 * record read them together (src/wall-map.h); has_wall 0: the
	 * recording holds none */
	int has_wall;
	struct wall_map wall;
	uint64_t events;		/* all events read */
	uint64_t parsed;		/* events a parser took */
	uint64_t records;		/* records emitted */
	long long lost;			/* events lost (sum of known counts) */
	int lost_unknown;		/* some losses of unknown size */
	uint64_t cpustat_lost;		/* overrun + dropped in CPUSTAT (flight: dropped) */
	/* kprobe hits missed (analysis_probe_missed(a, NULL)): has_probes 1
	 * when the recording installed probes; probe_missed -1 unknown */
	int has_probes;
	long long probe_missed;
	/*
	 * Flight-recorder files (mode=flight-recorder): the ring overwrote its
	 * oldest events before the file's window, which is not loss. That
	 * count comes from the per-CPU stats when they count from the ring's
	 * last emptying (cpustat=window), else from the missed-events marker
	 * that opens each CPU's data (the overwrite point). Every CPU has its
	 * data from window_first_ts (the latest overwrite point of a CPU whose
	 * data was overwritten; window_cpu, -1 if none was) to last_ts: the
	 * dump stops tracing on every CPU at once, so no CPU's data ends early.
	 * A CPU's data may open with a page written just after the previous
	 * dump (the ring's reader page, never overwritten) before the gap.
	 */
	int flight;
	uint64_t overwritten;		/* events overwritten before the window */
	int overwritten_unknown;	/* some CPU's overwrite of unknown size */
	uint64_t window_first_ts;
	int window_cpu;
	int ncpus;			/* entries in cpu[] (flight files) */
	struct analysis_cpu {
		uint64_t first_ts, last_ts;	/* of its events; 0 0: none */
		uint64_t events;
		uint64_t from_ts;		/* its overwrite point, or first_ts */
		int marked;			/* the overwrite point was seen */
		uint64_t overwritten;		/* overwritten before from_ts */
		int overwrote;			/* 1 its data was overwritten, -1 some of unknown size */
	} *cpu;
	uint64_t sample_lines, sample_sets, sample_gaps, sample_incomplete;
	int has_samples;
	/* A part of a --switch-output run (model.h, bounds): the trace times
	 * the run was cut at before its first event and after its last (the
	 * files' switch_from_ns and switch_cut_ns); 0: the run starts (ends)
	 * in it, an older recording, or a window (not applied then). */
	uint64_t part_from_ts, part_cut_ts;
	/*
	 * The scope (analysis_opts.scope), when one was asked for. The window
	 * is [since_ts, until_ts] in trace time (first_ts stays the
	 * recording's first event, so relative times mean the same with or
	 * without a window; last_ts is the window's last event). Records
	 * come from events in the window, plus, after it, only the ends of
	 * stalls, compaction runs and kswapd episodes begun in it.
	 * samples_first_ts/last_ts: the complete sample sets nearest the
	 * window's edges inside it, between which counter deltas are taken
	 * (0 0: none). A task scope keeps counters, kswapd and kcompactd
	 * wakes and sleeps, zone samples and swap slots global.
	 */
	int windowed;
	/* a window without an event: where it fell ("after the recording's
	 * last event", "before its first event", "in a gap between events"),
	 * NULL otherwise */
	const char *empty_window;
	uint64_t since_ts, until_ts;
	uint64_t samples_first_ts, samples_last_ts;
	int task_scoped;
	int scope_pid;			/* 0: none */
	const char *scope_comm;		/* NULL: none */
	/* --cgroup as a path of the map (cgmap_scope_path): it and every
	 * cgroup below it; NULL none */
	const char *scope_cgroup;
	uint64_t scope_tasks;		/* tasks that matched --comm/--pid/--cgroup */
	uint64_t tail_events;		/* events read after the window for ends */
	double seconds;			/* wall time spent in analysis_run */
	double stream_seconds;		/* of which streaming the events */
};

/* Where a size or configuration fact of the recording comes from. */
enum analysis_basis {
	AB_UNKNOWN,	/* nothing in the recording says */
	AB_RECORDED,	/* the run context or metadata names it */
	AB_CLUSTER,	/* thp_swap: the recorded SWAPFILE_CLUSTER (256: off,
			 * HPAGE_PMD_NR: on), itself from the kernel's config */
	AB_DERIVED,	/* pmd_order: from the page size */
	AB_INFERRED,	/* thp_swap: arm64 selects THP_SWAP with 4 KB pages only */
};
/* "recorded", "derived from the page size", ... (for text and JSON). */
const char *analysis_basis_name(int basis);

struct analysis;

/* A folio of this order in kB, on the recording's page size. */
unsigned long analysis_order_kb(const struct analysis_info *in, int order);

void analysis_opts_default(struct analysis_opts *o);
/* Reads the whole recording. NULL with *err set on failure. */
struct analysis *analysis_run(const char *path, const struct analysis_opts *o, char **err);
/* The same; *bad_scope (if not NULL) is set to 1 when the failure is the
 * scope's (since after until, a --cgroup the recording cannot answer):
 * front ends exit 2 for those. */
struct analysis *analysis_run_scoped(const char *path, const struct analysis_opts *o,
				     char **err, int *bad_scope);
/*
 * Several files of one recording (mmscope record --switch-output): opened
 * as a td_set (src/tracedat-set.h: ordered by their start_realtime_ns,
 * refused unless every file has the first's event formats and buffers
 * and the segments are of one recording with none missing), their events
 * merged in time order through the same parsers and models, as one
 * recording; task names from every file's saved cmdlines. The header is
 * the first file's, called "NAME (N files)"; lost events count every
 * file's. One path is analysis_run_scoped(). opts.scope as for one file:
 * a window counts from the set's first event, and the set's cursor starts
 * in the file that holds --since. No page index (analysis_take_index gives
 * NULL); opts.progress is not used.
 */
struct analysis *analysis_run_files(const char *const *paths, int n, const char *name,
				    const struct analysis_opts *o, char **err, int *bad_scope);
void analysis_free(struct analysis *a);
/* opts.phase: whether its marker was in the recording. */
int analysis_phase_found(const struct analysis *a);
/* The page index the pass filled (index_every), now the caller's; it can
 * serve another td_open of the same file. NULL if none. */
struct td_index;
struct td_index *analysis_take_index(struct analysis *a);

const struct analysis_info *analysis_info(const struct analysis *a);
const struct handoff_model *analysis_handoff(const struct analysis *a);
const struct reclaim_model *analysis_reclaim(const struct analysis *a);
const struct compaction_model *analysis_compaction(const struct analysis *a);
const struct counters_model *analysis_counters(const struct analysis *a);
const struct frag_model *analysis_frag(const struct analysis *a);
const struct consistency_model *analysis_consistency(const struct analysis *a);
/* Swap clusters and zswap, and why probes are missing. */
const struct swapclust_model *analysis_swapclust(const struct analysis *a);
const struct zswap_model *analysis_zswap(const struct analysis *a);
/* Time-indexed lanes per node (timeline and stalls views of the TUI);
 * NULL in an analysis of summaries (analysis_opts.summary). */
const struct lanes *analysis_lanes(const struct analysis *a);
/* A model of the table in analysis.c, by its ops (model.h), e.g.
 * analysis_model(a, &khugepaged_model_ops); NULL if not in the table, or
 * a viewer's (model_ops.viewer) in an analysis of summaries. */
const void *analysis_model(const struct analysis *a, const struct model_ops *ops);
/* The table itself, NULL-ended, in the order models are fed (tests). */
const struct model_ops *const *analysis_models(void);
/* The recording's probe_set= and probe_reason= ("" when not recorded). */
const char *analysis_probe_set(const struct analysis *a);
const char *analysis_probe_reason(const struct analysis *a);
/* 1 when the recording's probe set counts a zswap entry freed before its
 * writeback as written back too (5.10, 6.1: probes.h wb_zero_includes_freed),
 * so the writeback probe gives an upper bound; 0 otherwise. */
int analysis_zswap_wb_upper_bound(const struct analysis *a);
/* mmscope's own metadata of the recording (key=value lines; of the first
 * file of a set), for td_meta_value(): "" when none (trace-cmd, live). */
const char *analysis_private_meta(const struct analysis *a);
/* The same of the last file of a set (how the run ended: its stop_reason),
 * the one file's otherwise. */
const char *analysis_last_meta(const struct analysis *a);
/* Whether probes= lists swap probes: 1, 0, or -1 when the key is absent. */
int analysis_probes_swap(const struct analysis *a);
/*
 * Probe hits the kernel missed (a kretprobe out of instances, a probe hit
 * while another ran: kprobe_profile's misses, read by record at its end
 * into probe_missed=): the sum over the probes of family "swap" or "zswap"
 * (NULL: all), or -1 when not known (no probe_missed= in the recording, or
 * a probe without its line). names, if not NULL, gets "store_r 947, ..."
 * for the probes that missed.
 */
long long analysis_probe_missed(const struct analysis *a, const char *family,
				char *names, size_t len);
/*
 * What the events themselves show of missed hits when kprobe_profile's
 * count is absent: over the return probes of family (NULL: all) that have
 * their entry probe ("fas" and "fas_r"), the entry hits beyond the return
 * hits, summed (a return probe fires once per entry unless it ran out of
 * instances; calls still running at the end also count). -1 when no such
 * pair was recorded. names gets "fas_r 12, ..." for the pairs that differ.
 */
long long analysis_probe_unreturned(const struct analysis *a, const char *family,
				    char *names, size_t len);
/*
 * Whether the recording traced system:event, so that none of it means
 * none happened: TRACED_YES (mmscope's events= list names it; in a
 * trace-cmd file, it has records, or the file holds only the formats
 * trace-cmd record was asked for and this is one), TRACED_NO (not
 * enabled, or no format: its figures are unknown) or TRACED_UNKNOWN (a
 * trace-cmd file with every format and no record of it: enabled and
 * quiet, or never enabled; its figures are unknown too). One place
 * decides; front ends print a 0 only for TRACED_YES.
 */
enum traced_state { TRACED_NO = 0, TRACED_YES = 1, TRACED_UNKNOWN = 2 };
int analysis_event_state(const struct analysis *a, const char *system, const char *event);
/* analysis_event_state() == TRACED_YES */
int analysis_has_event(const struct analysis *a, const char *system, const char *event);
/* The same over the events whose parser emits records of this type (and
 * parser kind, e.g. RK_DIRECT; -1: any): YES if one is, else UNKNOWN if
 * one is, else NO. Front ends ask this instead of naming tracepoints. */
int analysis_traced_state(const struct analysis *a, enum rec_type type, int kind);
/* analysis_traced_state() == TRACED_YES */
int analysis_traced(const struct analysis *a, enum rec_type type, int kind);
/* "not recorded", or "not known" (TRACED_UNKNOWN) for a line that says
 * why a figure is missing. */
const char *analysis_untraced_word(const struct analysis *a, enum rec_type type, int kind);
/* analysis_event_state() == TRACED_YES (kept for its callers' names) */
int analysis_event_enabled(const struct analysis *a, const char *system, const char *event);
/* Event count per type: the recording's tracepoints with their counts. */
uint64_t analysis_event_count(const struct analysis *a, const char *system,
			      const char *event);
/* The name the tasks family (task_newtask, task_rename,
 * sched_process_exec) last gave pid, or NULL when none did. Records
 * whose parser asks for a name (rec->comm not NULL) get this one rather
 * than the cmdlines' (which say "<...>" for the pids saved_cmdlines
 * forgot, and hold only the last name a pid had). */
const char *analysis_comm(const struct analysis *a, int pid);
/* pid's name: analysis_comm()'s, else the recording's saved cmdlines'
 * (every file's of a set: the recorder's snapshots name the tasks that
 * began before it); NULL when neither knows the pid. */
const char *analysis_task_comm(const struct analysis *a, int pid);
/* The tasks' memory cgroups (src/cgmap.h) as the stream left them: the
 * records' cgroup tags are ids of this map (record.cgroup - 1). Never
 * NULL; cgmap_recorded() 0: the recording holds no cgroup data. */
struct cgmap;
const struct cgmap *analysis_cgmap(const struct analysis *a);
/* The one-line refusal of --cgroup PATH on a recording without the
 * tasks' cgroups (metadata cgroup_tasks=): -1 with *err. */
int analysis_cgroup_refused(const char *cgroup, char **err);
/* Places in into the tasks tf's start list placed and no event moved
 * before its end line (cgmap_seed): their cgroup from the file's first
 * event, before a reader tags anything. */
struct td_file;
struct tep_handle;
void analysis_cgroup_prescan(struct td_file *tf, struct tep_handle *tep, struct cgmap *into);
/* Notes on degraded metrics (missing fields, bad sample lines). */
int analysis_nnotes(const struct analysis *a);
const char *analysis_note(const struct analysis *a, int i);

/* Feeds records straight into fresh models (no file): for unit tests
 * and for front ends that build records themselves. */
struct analysis *analysis_new_empty(const struct analysis_opts *o);
void analysis_feed(struct analysis *a, const struct record *r);
/* The records to be fed are a part of a run cut at from before them and
 * at cut after them (0: none; model.h, bounds): before the first record.
 * analysis_run* do it from the files' switch_from_ns and switch_cut_ns. */
void analysis_set_part_bounds(struct analysis *a, uint64_t from, uint64_t cut);
void analysis_finish(struct analysis *a, uint64_t end_ts);

/*
 * Live (mmscope tui --live): models fed event by event from a running
 * kernel. tep holds its event formats (it stays the caller's); kernel is
 * the release; private_meta the recorder's key=value metadata (events=,
 * probes=...) or NULL. analysis_live_sync() makes the models readable up
 * to now (lanes show what is still open up to it); feeding may go on.
 */
struct td_event;
struct tep_handle;
struct analysis *analysis_live_new(struct tep_handle *tep, const char *kernel,
				   const char *private_meta, const struct analysis_opts *o,
				   char **err);
void analysis_live_event(struct analysis *a, const struct td_event *ev);
void analysis_live_sync(struct analysis *a, uint64_t now);

#endif
