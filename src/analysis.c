// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The analysis driver (see analysis.h): opens the recording, binds the
 * parsers to its event formats, streams every event in time order through
 * its parser, and hands each typed record to every model, in a fixed
 * order (models[]: consistency after the models it reads). Lost events
 * reported by the cursor become REC_LOST records at their place in time.
 */
#include "config.h"
#include "analysis.h"
#include "cgmap.h"
#include "families.h"
#include "model-cgroups.h"
#include "model-khugepaged.h"
#include "model-memcgs.h"
#include "model-oom.h"
#include "model-phases.h"
#include "model-run.h"
#include "model-series.h"
#include "model-stacks.h"
#include "parsers.h"
#include "pidmap.h"
#include "probes.h"
#include "tracedat-read.h"
#include "tracedat-set.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <time.h>

/* Models run through one table: create, feed, finish, sync and free come
 * from their model_ops, in this order; front ends get them with
 * analysis_model() (or the typed accessors in analysis.h, wrappers of
 * it). A new model is one entry here, before the NULL. */
static const struct model_ops *const models[] = {
	&handoff_model_ops,
	&reclaim_model_ops,
	&compaction_model_ops,
	&counters_model_ops,
	&frag_model_ops,
	&consistency_model_ops,		/* after reclaim and compaction: it reads them */
	&swapclust_model_ops,
	&zswap_model_ops,
	&lanes_model_ops,
	&khugepaged_model_ops,
	&oom_model_ops,
	&phases_model_ops,
	&run_model_ops,
	&series_model_ops,
	&stacks_model_ops,
	&memcgs_model_ops,
	&cgroups_model_ops,
	NULL
};
#define NMODELS (sizeof(models) / sizeof(models[0]) - 1)

_Static_assert(REC_NR_TYPES <= 64, "types_seen has one bit per record type");

struct analysis {
	struct analysis_opts opts;
	struct analysis_info info;
	struct td_file *tf;
	char *multi_name;		/* "PATH (N files)" for several files */
	char *last_meta;		/* several files: the last one's metadata */
	struct td_index *index;		/* opts.index_every: pages seen */
	struct tep_handle *tep;		/* td_tep(tf), or a live kernel's */
	struct parser_set *ps;
	uint64_t *counts;		/* events per event id */
	uint8_t *parses;		/* per event id: a parser reads it */
	int ncounts;
	void *model[NMODELS + 1];		/* models[i]'s */
	/* typed views of model[] for what the ops do not carry: the page
	 * and cluster size, the kernel, the samples' span */
	struct counters_model *counters;
	struct frag_model *frag;
	struct consistency_model *consistency;
	struct swapclust_model *swapclust;
	struct zswap_model *zswap;
	char probe_set[32], probe_reason[256];
	int probes_swap;		/* probes= names swap probes: 1, 0; -1 no key */
	/* the run context's thp.hpage_pmd_size (bytes, 0 none) and thp_swap
	 * (1 y, 0 n, -1 none): analysis_resolve_sizes() */
	uint64_t ctx_pmd_bytes;
	int ctx_thp_swap;
	uint64_t types_seen;		/* bit per enum rec_type fed */
	char *enabled;			/* mmscope metadata events=, ",a:b,c:d," */
	int fmt_systems;		/* systems the file has formats of (td) */
	char *probe_missed;		/* probe_missed=: "sys:ev=N|?,..."; NULL: none */
	int cpustat_window;		/* cpustat=window: stats from the last dump */
	int want_syms;			/* stacks may be in it: name their frames */
	int syms_id;			/* ftrace:kernel_stack's id until the kallsyms
					 * are parsed (on its first record), else -1 */
	struct pidmap comms;		/* pid -> char[16]: REC_TASK_COMM's names */
	struct cgmap *cgmap;		/* pid -> memory cgroup, as the stream goes */
	int cg_meta;			/* metadata cgroup_tasks=: the list was written */
	int cg_pre;			/* reading before the window: the map only */
	int cg_ids[3];			/* ftrace:print, task_newtask, cgroup_attach_task */
	char cg_scope[4096];		/* --cgroup as a map path */
	struct pidmap cg_sel;		/* pid -> char: counted in scope_tasks */
	struct pidmap cg_open;		/* pid -> char: open stall begun in (1) or out (2) */
	int phase_state;		/* opts.phase: 0 before it, 1 in it, 2 after */
	uint64_t phase_end_ts;		/* the marker that ended it */
	int64_t phase_set_seq;		/* the sample set being read, -1 none */
	int phase_set_in;		/* it began inside the phase */
	/* The scope (opts.scope) resolved: a window in trace time and the
	 * tasks; after the window (tail) only the ends of what began in it. */
	int windowed, tasks, tail;
	uint64_t seen_ts;	/* the last event the cursor gave */
	uint64_t since, until;
	struct pidmap task_sel;		/* pid -> signed char: 1 in scope, 2 not */
	/* a task scope: its pid in any record (--pid), and the task records
	 * per pid (uint64_t), for an error naming the tasks there were */
	int scope_pid_seen;
	struct pidmap task_recs;
	struct pidmap pend_reclaim;	/* pid -> struct pend: open stall begun in the window */
	struct pidmap pend_compact;	/* pid -> struct pend: open compaction run */
	uint64_t pend_nodes;		/* kswapd episodes open, one bit per node < 64 */
	unsigned long npend;		/* open entries of the two maps */
};

struct pend {
	int on;
	int kind;
};

/* opts.phase: is r in the window of that phase? (The phases model sees
 * every record.) A counter sample set is whole or not at all: it belongs
 * to the window its first line was written in, so that a set the marker
 * cut in two never looks complete with half its counters. */
static int analysis_in_phase(struct analysis *a, const struct record *r)
{
	int64_t seq;

	if (!a->opts.phase)
		return 1;
	if ((seq = record_sample_seq(r)) >= 0) {
		if (seq != a->phase_set_seq) {
			a->phase_set_seq = seq;
			a->phase_set_in = a->phase_state == 1;
		}
		return a->phase_set_in;
	}
	if (r->type == REC_PHASE && r->phase.name) {
		if (a->phase_state == 0 && !strcmp(r->phase.name, a->opts.phase))
			a->phase_state = 1;
		else if (a->phase_state == 1) {
			a->phase_state = 2;
			a->phase_end_ts = r->ts;
		}
	}
	return a->phase_state == 1;
}

/* The model of ops (NULL until it is made, and a viewer's in a summary
 * analysis: model_ops.viewer). */
static void *model_of(const struct analysis *a, const struct model_ops *ops)
{
	for (size_t i = 0; models[i]; i++)
		if (models[i] == ops)
			return a->model[i];
	return NULL;
}

static void *phases_of(struct analysis *a)
{
	return model_of(a, &phases_model_ops);
}

static void *analysis_peer(const struct model_env *env, const struct model_ops *ops)
{
	return model_of(env->ctx, ops);
}

static const char *analysis_cgroup_path(void *ctx, int tag)
{
	const struct analysis *a = ctx;

	return tag > 0 ? cgmap_path(a->cgmap, tag - 1) : NULL;
}

int analysis_phase_found(const struct analysis *a)
{
	return a->phase_state > 0;
}

#define COMM_LEN 16	/* TASK_COMM_LEN */

void analysis_opts_default(struct analysis_opts *o)
{
	memset(o, 0, sizeof(*o));
	handoff_params_default(&o->handoff);
}

struct analysis *analysis_new_empty(const struct analysis_opts *o)
{
	struct analysis *a = xcalloc(1, sizeof(*a));

	a->phase_set_seq = -1;
	a->syms_id = -1;
	a->cg_ids[0] = a->cg_ids[1] = a->cg_ids[2] = -1;
	a->info.page_size = 4096;	/* the models' own until told */
	a->info.pmd_order = 9;
	a->info.thp_swap = -1;
	a->ctx_thp_swap = -1;
	if (o)
		a->opts = *o;
	else
		analysis_opts_default(&a->opts);
	a->probes_swap = -1;
	pidmap_init(&a->comms, COMM_LEN);
	a->cgmap = cgmap_new();
	pidmap_init(&a->cg_sel, 1);
	pidmap_init(&a->cg_open, 1);
	pidmap_init(&a->task_sel, 1);
	pidmap_init(&a->task_recs, sizeof(uint64_t));
	pidmap_init(&a->pend_reclaim, sizeof(struct pend));
	pidmap_init(&a->pend_compact, sizeof(struct pend));
	struct model_env env = { &a->opts.handoff, analysis_peer, a, a->opts.series_max,
				 a->opts.summary, a->opts.dossier_window_ns,
				 analysis_cgroup_path };

	for (size_t i = 0; models[i]; i++) {
		if (a->opts.summary && models[i]->viewer)
			continue;	/* no viewer reads this analysis */
		a->model[i] = models[i]->create_env ? models[i]->create_env(&env) :
			      models[i]->create();
		if (!a->model[i]) {
			analysis_free(a);
			return NULL;
		}
	}
	a->counters = model_of(a, &counters_model_ops);
	a->frag = model_of(a, &frag_model_ops);
	a->consistency = model_of(a, &consistency_model_ops);
	a->swapclust = model_of(a, &swapclust_model_ops);
	a->zswap = model_of(a, &zswap_model_ops);
	return a;
}

/* Task names: REC_TASK_COMM teaches one; a record that carries a name
 * (its parser wants_comm) takes the learned one, which was right at the
 * record's time, over the cmdlines' ("<...>" or the pid's last name). */
static const struct record *analysis_name(struct analysis *a, const struct record *r,
					  struct record *copy)
{
	const char *c;

	if (r->type == REC_TASK_COMM && r->task.comm && r->task.pid > 0) {
		snprintf(pidmap_add(&a->comms, r->task.pid), COMM_LEN, "%s", r->task.comm);
		return r;
	}
	if (!r->comm || !a->comms.n || !(c = pidmap_get(&a->comms, r->pid)))
		return r;
	*copy = *r;
	copy->comm = c;
	return copy;
}

const char *analysis_comm(const struct analysis *a, int pid)
{
	return a ? pidmap_get(&a->comms, pid) : NULL;
}

const struct cgmap *analysis_cgmap(const struct analysis *a)
{
	return a->cgmap;
}

const char *analysis_basis_name(int basis)
{
	static const char *const names[] = {
		"unknown", "recorded", "the recorded swap cluster size",
		"derived from the page size", "inferred",
	};

	return basis >= 0 && basis < (int)ARRAY_SIZE(names) ? names[basis] : "?";
}

/*
 * The PMD order and CONFIG_THP_SWAP, from what the recording has so far
 * (run again whenever the page size, the cluster size, the machine or
 * the run context tells more):
 *  - PMD order: thp.hpage_pmd_size / page size, else log2(page size / 8)
 *    (arm64 and x86-64: a page-table page holds page_size / 8 entries);
 *  - THP_SWAP: the run context's thp_swap (the kernel's config), else
 *    the recorded SWAPFILE_CLUSTER (256 where HPAGE_PMD_NR is not 256:
 *    off; HPAGE_PMD_NR: on), else inferred from the machine: arm64
 *    selects ARCH_WANTS_THP_SWAP only with 4 KB pages (off with 16 or
 *    64 KB), x86-64 always (THP_SWAP is def_bool y on THP and SWAP).
 * The swap cluster and khugepaged models are told.
 */
static void analysis_resolve_sizes(struct analysis *a)
{
	struct analysis_info *in = &a->info;
	int o = -1, pmd_nr;

	if (a->ctx_pmd_bytes && a->ctx_pmd_bytes >= in->page_size &&
	    (o = log2_exact(a->ctx_pmd_bytes / in->page_size)) >= 0 && o < 32) {
		in->pmd_order = o;
		in->pmd_order_basis = AB_RECORDED;
	} else {
		in->pmd_order = log2_exact(in->page_size / 8);
		in->pmd_order_basis = AB_DERIVED;
	}
	pmd_nr = 1 << in->pmd_order;
	if (a->ctx_thp_swap >= 0) {
		in->thp_swap = a->ctx_thp_swap;
		in->thp_swap_basis = AB_RECORDED;
	} else if (in->swap_cluster > 0 && pmd_nr != 256 &&
		   (in->swap_cluster == 256 || in->swap_cluster == pmd_nr)) {
		in->thp_swap = in->swap_cluster == pmd_nr;
		in->thp_swap_basis = AB_CLUSTER;
	} else if (!strcmp(in->machine, "aarch64") || !strcmp(in->machine, "arm64")) {
		in->thp_swap = in->page_size == 4096;
		in->thp_swap_basis = AB_INFERRED;
	} else if (!strcmp(in->machine, "x86_64")) {
		in->thp_swap = 1;	/* selected with THP (and swap) on x86-64 */
		in->thp_swap_basis = AB_INFERRED;
	} else {
		in->thp_swap = -1;
		in->thp_swap_basis = AB_UNKNOWN;
	}
	swapclust_model_set_thp_swap(a->swapclust, in->thp_swap);
	khugepaged_model_set_pmd_order(model_of(a, &khugepaged_model_ops), in->pmd_order);
}

/*
 * The page size, resolved once per recording: the kernel's own from the
 * recorder's run context (page_size=, sysconf) wins over the trace.dat
 * header's ring page (a sub-buffer size when the ring's was changed),
 * and every model and renderer takes this one. 0, or -1 when not a page
 * size (kept as it was).
 */
static int analysis_set_page_size(struct analysis *a, uint32_t page_size)
{
	if (page_size < 4096 || page_size > 65536 || (page_size & (page_size - 1)))
		return -1;
	a->info.page_size = page_size;
	swapclust_model_set_page_size(a->swapclust, page_size);
	zswap_model_set_page_size(a->zswap, page_size);
	frag_model_set_page_size(a->frag, page_size);
	analysis_resolve_sizes(a);
	return 0;
}

/* SWAPFILE_CLUSTER in slots, once: the run context's or the metadata's. */
static void analysis_set_cluster(struct analysis *a, int slots)
{
	if (!swapclust_model_set_cluster_size(a->swapclust, slots)) {
		a->info.swap_cluster = slots;
		analysis_resolve_sizes(a);
	}
}

/* The run context's sizes (REC_SETTING of SRC_CTX), before the models. */
static void analysis_ctx_sizes(struct analysis *a, const struct record *r)
{
	if (r->type != REC_SETTING || r->setting.source != SRC_CTX || !r->setting.key ||
	    !r->setting.value)
		return;
	if (!strcmp(r->setting.key, "page_size"))
		analysis_set_page_size(a, (uint32_t)strtoul(r->setting.value, NULL, 10));
	else if (!strcmp(r->setting.key, "swap.cluster_pages"))
		analysis_set_cluster(a, atoi(r->setting.value));
	else if (!strcmp(r->setting.key, "thp.hpage_pmd_size")) {
		a->ctx_pmd_bytes = strtoull(r->setting.value, NULL, 10);
		analysis_resolve_sizes(a);
	} else if (!strcmp(r->setting.key, "thp_swap") &&
		   (!strcmp(r->setting.value, "y") || !strcmp(r->setting.value, "n"))) {
		a->ctx_thp_swap = r->setting.value[0] == 'y';
		analysis_resolve_sizes(a);
	}
}

unsigned long analysis_order_kb(const struct analysis_info *in, int order)
{
	unsigned long page_kb = in->page_size >= 1024 ? in->page_size / 1024 : 4;

	return order >= 0 && order < 32 ? page_kb << order : 0;
}

void analysis_feed(struct analysis *a, const struct record *r)
{
	struct record named;

	r = analysis_name(a, r, &named);
	analysis_ctx_sizes(a, r);
	if (!a->tep) {	/* records fed by hand: they set the span */
		if (!a->info.records || r->ts < a->info.first_ts)
			a->info.first_ts = r->ts;
		if (r->ts > a->info.last_ts)
			a->info.last_ts = r->ts;
	}
	a->info.records++;
	if (r->type < 64)
		a->types_seen |= 1ULL << r->type;
	if (!analysis_in_phase(a, r)) {
		phases_model_ops.add(phases_of(a), r);
		if (a->opts.tap)
			a->opts.tap(a->opts.tap_ctx, r);
		return;
	}
	for (size_t i = 0; models[i]; i++)
		if (a->model[i])
			models[i]->add(a->model[i], r);
	if (a->opts.tap)
		a->opts.tap(a->opts.tap_ctx, r);
}

/* Records that tell what one task did (in its own context): a task
 * scope keeps only its tasks' ones. The rest (kswapd and kcompactd wakes
 * and sleeps, counter and zone samples, swap slots, khugepaged, names,
 * losses) stays global. */
static int analysis_task_record(enum rec_type t)
{
	switch (t) {
	case REC_RECLAIM_BEGIN: case REC_RECLAIM_END: case REC_LRU_ISOLATE:
	case REC_SHRINK_INACTIVE: case REC_SHRINK_ACTIVE: case REC_WRITE_FOLIO:
	case REC_RECLAIM_PAGES: case REC_THROTTLED: case REC_COMPACT_TRY:
	case REC_COMPACT_BEGIN: case REC_COMPACT_END: case REC_COMPACT_FINISHED:
	case REC_COMPACT_SUITABLE: case REC_COMPACT_DEFER: case REC_COMPACT_ISOLATE:
	case REC_COMPACT_MIGRATE: case REC_EXTFRAG: case REC_OOM: case REC_SWAP_FOLIO:
	case REC_ZSWAP: case REC_KERNEL_STACK: case REC_SIGNAL:
		return 1;
	default:
		return 0;
	}
}

/* Whether pid is one of the scope's tasks: --pid, and --comm by the name
 * the recording's cmdlines give it (what trace-cmd report prints). */
static int analysis_task_in(struct analysis *a, int pid, const char *comm, int cgroup)
{
	const struct analysis_scope *s = &a->opts.scope;
	signed char *v;

	if (s->pid > 0 && pid != s->pid)
		return 0;
	if (s->cgroup) {
		/* by the cgroup the task was in at the record's time; a task
		 * of unknown cgroup is outside */
		if (!cgroup || !cgmap_under(a->cgmap, cgroup - 1, a->cg_scope))
			return 0;
		if (!s->comm) {
			if (!pidmap_get(&a->cg_sel, pid)) {
				pidmap_add(&a->cg_sel, pid);
				a->info.scope_tasks++;
			}
			return 1;
		}
	}
	if (!s->comm) {
		a->info.scope_tasks = 1;	/* --pid: its task was seen */
		return 1;
	}
	if (comm && *comm)	/* a name the event carries (OOM victims) */
		return !strcmp(comm, s->comm);
	if ((v = pidmap_get(&a->task_sel, pid)))
		return *v == 1;
	v = pidmap_add(&a->task_sel, pid);
	*v = a->tep && !strcmp(tep_data_comm_from_pid(a->tep, pid), s->comm) ? 1 : 2;
	if (*v == 1)
		a->info.scope_tasks++;
	return *v == 1;
}

static struct pend *analysis_pend(struct pidmap *m, int pid)
{
	struct pend *p = pidmap_get(m, pid);

	return p && p->on ? p : NULL;
}

static void analysis_pend_set(struct analysis *a, struct pidmap *m, int pid, int on, int kind)
{
	struct pend *p = pidmap_get(m, pid);

	if (!p) {
		if (!on)
			return;
		p = pidmap_add(m, pid);
	}
	if (p->on != on)
		on ? a->npend++ : a->npend--;
	p->on = on;
	p->kind = kind;
}

/*
 * Inside the window: note what begins (stalls, compaction runs, kswapd
 * episodes), as the models pair them. After it: only the records that
 * end those pass; a new begin of the same task abandons the old one (the
 * models would pair the end with the new begin).
 */
static int analysis_gate_time(struct analysis *a, const struct record *r)
{
	struct pend *p;
	int nid;

	switch (r->type) {
	case REC_RECLAIM_BEGIN:
		p = analysis_pend(&a->pend_reclaim, r->pid);
		if (r->rbegin.kind == RK_SOFTLIMIT && p)
			return !a->tail;	/* nested: the outer stays open */
		analysis_pend_set(a, &a->pend_reclaim, r->pid, !a->tail, r->rbegin.kind);
		return !a->tail;
	case REC_RECLAIM_END:
		p = analysis_pend(&a->pend_reclaim, r->pid);
		if (p && p->kind == (int)r->rend.kind) {
			analysis_pend_set(a, &a->pend_reclaim, r->pid, 0, 0);
			return 1;
		}
		/* a nested softlimit's end inside the window; the end of a
		 * stall begun before the window is not the window's */
		return p && !a->tail;
	case REC_COMPACT_BEGIN:
		analysis_pend_set(a, &a->pend_compact, r->pid, !a->tail, 0);
		return !a->tail;
	case REC_COMPACT_END:
		if (analysis_pend(&a->pend_compact, r->pid)) {
			analysis_pend_set(a, &a->pend_compact, r->pid, 0, 0);
			return 1;
		}
		return 0;	/* begun before the window */
	case REC_KSWAPD_WAKE:
		nid = r->wake.nid;
		if (!a->tail && nid >= 0 && nid < 64)
			a->pend_nodes |= 1ULL << nid;
		return !a->tail;
	case REC_BALANCE_END:
		nid = r->balance.nid;
		return !a->tail || (nid >= 0 && nid < 64 && (a->pend_nodes >> nid & 1));
	case REC_KSWAPD_SLEEP:
		nid = r->sleep.nid;
		if (nid >= 0 && nid < 64 && (a->pend_nodes >> nid & 1)) {
			a->pend_nodes &= ~(1ULL << nid);
			return 1;
		}
		return !a->tail;
	default:
		return !a->tail;
	}
}

/*
 * --cgroup: a stall (or direct compaction run) is the cgroup's where it
 * began, as the cgroups section counts it: its work and its end follow
 * its begin's decision even when the task moved meanwhile. -1: no open
 * stall of that task (decide by its cgroup now).
 */
static int analysis_cg_open(struct analysis *a, const struct record *r, int victim)
{
	signed char *v;
	int in;

	if (!a->opts.scope.cgroup || victim || !(v = pidmap_get(&a->cg_open, r->pid)) || !*v)
		return -1;
	in = *v == 1;
	if (r->type == REC_RECLAIM_END || r->type == REC_COMPACT_END)
		*v = 0;
	return in;
}

static void analysis_cg_open_set(struct analysis *a, int pid, int in)
{
	signed char *v;

	if (!a->opts.scope.cgroup)
		return;
	v = pidmap_get(&a->cg_open, pid);
	if (v && *v)
		return;		/* nested (softlimit in direct): the outer decides */
	*(signed char *)pidmap_add(&a->cg_open, pid) = in ? 1 : 2;
}

/* A kill's victim, whose task the record is in the scope and the cgroup
 * map (an OOM kill, a signal sent: the target's); 0 for other records. */
static int analysis_victim(const struct record *r)
{
	if (r->type == REC_OOM && r->oom.kind == OOM_VICTIM && r->oom.victim > 0)
		return r->oom.victim;
	if (r->type == REC_SIGNAL && r->sig.target > 0)
		return r->sig.target;
	return 0;
}

static void analysis_sink(void *ctx, const struct record *r)
{
	struct analysis *a = ctx;
	struct record tagged;

	if (r->type == REC_CGROUP_TASK || r->type == REC_TASK_COMM)
		cgmap_add(a->cgmap, r);
	if (a->cg_pre)		/* before the window: the map is all it feeds */
		return;
	/* the task's cgroup now, on what it did (an OOM kill: the victim's),
	 * before the models and the scope see it */
	if (cgmap_recorded(a->cgmap) && analysis_task_record(r->type)) {
		int victim = analysis_victim(r);

		tagged = *r;
		tagged.cgroup = cgmap_of(a->cgmap, victim > 0 ? victim : r->pid) + 1;
		if (r->type == REC_SIGNAL)
			tagged.sig.sender_cgroup = cgmap_of(a->cgmap, r->pid) + 1;
		r = &tagged;
	}
	if (a->tasks && r->pid > 0 && !a->opts.scope.cgroup) {
		uint64_t *n = pidmap_add(&a->task_recs, r->pid);

		if (analysis_task_record(r->type))
			++*n;
		if (r->pid == a->opts.scope.pid)
			a->scope_pid_seen = 1;
	}
	if (a->tasks && analysis_task_record(r->type)) {
		int victim = analysis_victim(r);
		int in = analysis_cg_open(a, r, victim > 0);

		if (in < 0)
			in = analysis_task_in(a, victim > 0 ? victim : r->pid,
					      victim > 0 ? (r->type == REC_OOM ? r->oom.victim_comm :
							    r->sig.target_comm) : NULL, r->cgroup);
		if (r->type == REC_RECLAIM_BEGIN || r->type == REC_COMPACT_BEGIN)
			analysis_cg_open_set(a, r->pid, in);
		if (!in) {
			struct record f;

			if (r->type != REC_SWAP_FOLIO)
				return;
			/* the swap clusters are global: its slots still count */
			f = *r;
			f.foreign = 1;
			if (!a->windowed || analysis_gate_time(a, &f))
				analysis_feed(a, &f);
			return;
		}
	}
	if (a->windowed && !analysis_gate_time(a, r))
		return;
	analysis_feed(a, r);
}

void analysis_finish(struct analysis *a, uint64_t end_ts)
{
	struct analysis_info *in = &a->info;

	/* the phases model closes the last phase at the real end */
	phases_model_ops.finish(phases_of(a), end_ts);
	if (a->opts.phase && a->phase_state == 2)
		end_ts = a->phase_end_ts;
	for (size_t i = 0; models[i]; i++)
		if (models[i]->finish && models[i] != &phases_model_ops && a->model[i])
			models[i]->finish(a->model[i], end_ts);
	in->sample_sets = counters_model_nsets(a->counters);
	in->sample_incomplete = counters_model_incomplete_sets(a->counters);
	if (a->ps) {
		in->sample_lines = parser_set_sample_lines(a->ps);
		in->sample_gaps = parser_set_sample_gaps(a->ps);
	}
	in->has_samples = in->sample_sets > 0;
}

/* "Linux host 6.18.44 #1 SMP ..." (trace-cmd's UNAME option). */
static void analysis_uname(struct analysis_info *in, const char *uname)
{
	char sys[32] = "", host[96] = "", rel[96] = "", mach[32] = "", more[8] = "";
	int n;

	if (!uname)
		return;
	/* mmscope writes "SYSNAME NODENAME RELEASE MACHINE"; trace-cmd puts
	 * the kernel's version (several words) last: a fifth word says so */
	n = sscanf(uname, "%31s %95s %95s %31s %7s", sys, host, rel, mach, more);
	if (n >= 3) {
		snprintf(in->host, sizeof(in->host), "%s", host);
		snprintf(in->kernel, sizeof(in->kernel), "%s", rel);
	}
	if (n == 4 && mach[0] != '#')
		snprintf(in->machine, sizeof(in->machine), "%s", mach);
}

/* mmscope's metadata (kernel=, host=, clock=) wins over UNAME; events=
 * tells which events were enabled (a file may hold more formats). */
static void analysis_private(struct analysis *a, struct analysis_info *in, const char *meta)
{
	const char *p = meta;

	while (p && *p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char line[256];

		snprintf(line, sizeof(line), "%.*s", (int)len, p);
		if (!strncmp(line, "kernel=", 7))
			snprintf(in->kernel, sizeof(in->kernel), "%.95s", line + 7);
		else if (!strncmp(line, "host=", 5))
			snprintf(in->host, sizeof(in->host), "%.95s", line + 5);
		else if (!strncmp(line, "clock=", 6))
			snprintf(in->clock, sizeof(in->clock), "%.31s", line + 6);
		else if (!strncmp(line, "probe_set=", 10))
			snprintf(a->probe_set, sizeof(a->probe_set), "%.31s", line + 10);
		else if (!strncmp(line, "probe_reason=", 13)) {
			snprintf(a->probe_reason, sizeof(a->probe_reason), "%.255s", line + 13);
			/* mmscope before 6f7d664 wrote an empty reason (every
			 * probe installed) as the bytes of an uninitialized
			 * buffer; the reasons it writes are ASCII text */
			for (const unsigned char *c = (const unsigned char *)a->probe_reason; *c; c++)
				if (*c < 0x20 || *c > 0x7e) {
					a->probe_reason[0] = '\0';
					break;
				}
		}
		else if (!strncmp(line, "probes=", 7)) {
			a->probes_swap = strstr(line, "mmscope_swap_") != NULL;
			in->has_probes = line[7] != '\0';
		} else if (!strncmp(p, "probe_missed=", 13)) {
			free(a->probe_missed);	/* the last one written counts */
			a->probe_missed = xasprintf("%.*s", (int)(len - 13), p + 13);
		}
		else if (!strcmp(line, "mode=flight-recorder"))
			in->flight = 1;
		else if (!strncmp(line, "cgroup_tasks=", 13))
			a->cg_meta = 1;
		else if (!strcmp(line, "cpustat=window"))
			a->cpustat_window = 1;
		else if (!strncmp(line, "stacktrace=", 11))
			a->want_syms = 1;	/* record -T: frames are named */
		else if (!strncmp(line, "swap_cluster=", 13))	/* SWAPFILE_CLUSTER */
			analysis_set_cluster(a, atoi(line + 13));
		else if (!strncmp(p, "events=", 7) && !a->enabled &&
			 (a->enabled = xmalloc(len - 7 + 3)))
			snprintf(a->enabled, len - 7 + 3, ",%.*s,", (int)len - 7, p + 7);
		p = nl ? nl + 1 : NULL;
	}
	in->probe_missed = analysis_probe_missed(a, NULL, NULL, 0);
}

/* A flight file's per-CPU entry, grown to hold cpu. */
static struct analysis_cpu *analysis_cpu(struct analysis_info *in, int cpu)
{
	if (cpu < 0)
		cpu = 0;
	if (cpu >= in->ncpus) {
		in->cpu = xreallocarray(in->cpu, (size_t)cpu + 1, sizeof(*in->cpu));
		memset(in->cpu + in->ncpus, 0, (size_t)(cpu + 1 - in->ncpus) * sizeof(*in->cpu));
		in->ncpus = cpu + 1;
	}
	return &in->cpu[cpu];
}

static void analysis_header(struct analysis *a, const char *path)
{
	struct analysis_info *in = &a->info;

	in->path = a->opts.name ? a->opts.name : path;
	in->version = td_version(a->tf);
	in->page_size = 4096;	/* until the header or the run context says */
	in->compression = td_compression(a->tf);
	snprintf(in->kernel, sizeof(in->kernel), "?");
	snprintf(in->host, sizeof(in->host), "?");
	snprintf(in->clock, sizeof(in->clock), "%s",
		 td_trace_clock(a->tf) && *td_trace_clock(a->tf) ?
		 td_trace_clock(a->tf) : "local");
	analysis_uname(in, td_uname(a->tf));
	if (analysis_set_page_size(a, td_page_size(a->tf)))
		analysis_resolve_sizes(a);	/* no page size there: the machine tells */
	analysis_private(a, in, td_private(a->tf));
	wall_map_free(&in->wall);
	wall_map_add_meta(&in->wall, td_private(a->tf));
	wall_map_finish(&in->wall);
	in->has_wall = wall_map_n(&in->wall) > 0;
	/* a file without mmscope's metadata (trace-cmd's) may hold stacks */
	if (!td_private(a->tf) || !*td_private(a->tf))
		a->want_syms = 1;
	for (int b = 0; b < td_nbuffers(a->tf); b++) {
		const struct td_buffer *buf = td_buffer(a->tf, b);

		for (int c = 0; c < buf->ncpus; c++) {
			const struct td_cpustat *st = &buf->stats[c];

			if (!st->present)
				continue;
			/* in overwrite mode overrun is what the ring overwrote:
			 * counted from the last dump (cpustat=window) it is the
			 * overwrite before this window; otherwise the whole run's */
			if (!in->flight) {
				in->cpustat_lost += st->overrun + st->dropped;
				continue;
			}
			in->cpustat_lost += st->dropped;
			if (a->cpustat_window && st->overrun) {
				analysis_cpu(in, c)->overwritten = st->overrun;
				analysis_cpu(in, c)->overwrote = 1;
			}
		}
	}
	in->window_cpu = -1;
}

/*
 * A flight file's overwrite point: a CPU's first missed-events marker.
 * Pages are read only at dumps, with tracing off, so the one place the
 * ring skips events is where it overwrote them. With window stats the
 * stats have the count.
 */
static void analysis_overwrite_point(struct analysis *a, struct analysis_cpu *c,
				     uint64_t ts, long long missed)
{
	c->marked = 1;
	c->from_ts = ts;
	if (a->cpustat_window && c->overwrote)
		return;
	if (missed > 0) {
		c->overwritten += (uint64_t)missed;
		if (!c->overwrote)
			c->overwrote = 1;
	} else {
		c->overwrote = -1;
	}
}

/* After the stream: totals and the window in which every CPU has data. */
static void analysis_flight_window(struct analysis_info *in)
{
	in->window_first_ts = in->first_ts;
	for (int i = 0; i < in->ncpus; i++) {
		const struct analysis_cpu *c = &in->cpu[i];

		in->overwritten += c->overwritten;
		if (c->overwrote < 0)
			in->overwritten_unknown = 1;
		if (c->overwrote && c->events && c->from_ts >= in->window_first_ts) {
			in->window_first_ts = c->from_ts;
			in->window_cpu = i;
		}
	}
}

static int analysis_parse(struct analysis *a, const struct td_event *ev)
{
	if (ev->event->id == a->syms_id) {
		td_tep(a->tf);	/* parses the kallsyms into a->tep */
		a->syms_id = -1;
	}
	return parser_set_parse(a->ps, ev->event, (struct tep_record *)&ev->record,
				ev->ts, ev->cpu, analysis_sink, a);
}

static void analysis_event(struct analysis *a, const struct td_event *ev)
{
	struct analysis_info *in = &a->info;

	struct analysis_cpu *c;

	if (a->tail) {	/* after the window: only ends of what began in it */
		in->tail_events++;
		if (ev->event)
			analysis_parse(a, ev);
		return;
	}
	c = in->flight ? analysis_cpu(in, ev->cpu) : NULL;
	if (!in->events && !a->windowed)
		in->first_ts = ev->ts;
	in->last_ts = ev->ts;
	in->events++;
	if (c) {
		if (!c->events++)
			c->first_ts = c->from_ts = ev->ts;
		c->last_ts = ev->ts;
	}
	if (ev->missed) {
		struct record r;

		memset(&r, 0, sizeof(r));
		r.type = REC_LOST;
		r.ts = ev->ts;
		r.cpu = ev->cpu;
		r.lost.count = ev->missed;
		if (c && !c->marked)	/* overwritten before the window */
			analysis_overwrite_point(a, c, ev->ts, ev->missed);
		else if (ev->missed > 0)
			in->lost += ev->missed;
		else
			in->lost_unknown = 1;
		/* the models still learn that this CPU's data starts here */
		analysis_feed(a, &r);
	}
	if (!ev->event)
		return;
	if (ev->event->id >= 0 && ev->event->id < a->ncounts) {
		a->counts[ev->event->id]++;
		/* no model reads it (most page allocator events): done */
		if (!a->parses[ev->event->id])
			return;
	}
	in->parsed += (uint64_t)analysis_parse(a, ev);
}

#define PROGRESS_EVERY 65536	/* events between progress calls */

static void analysis_progress(struct analysis *a, const struct td_cursor *c)
{
	uint64_t done, total;

	td_cursor_progress(c, &done, &total);
	a->opts.progress(a->opts.progress_ctx, done, total, a->info.last_ts);
}

/* The window in trace time from the scope and the recording's first
 * event time stamp; -1 when it ends before it starts or a wall-clock
 * time cannot be mapped. */
static int analysis_window_bounds(struct analysis *a, uint64_t first, char **err)
{
	const struct analysis_scope *s = &a->opts.scope;

	a->info.first_ts = first;
	if (analysis_window_resolve(s, first, &a->info.wall, &a->since, &a->until, err))
		return -1;
	a->info.windowed = 1;
	a->info.since_ts = a->since;
	a->info.until_ts = a->until;
	return 0;
}

/* After the window: a record that ends its tail (1), or 0 to go on. Up
 * to the window's end every event counts; after it only the ends of
 * what began inside (a->tail). */
static int analysis_window_past(struct analysis *a, const struct td_event *ev)
{
	if (a->windowed && ev->ts > a->until && !a->tail) {
		a->tail = 1;
		a->info.last_ts = a->until;
	}
	return a->tail && !a->npend && !a->pend_nodes;
}

/*
 * The window in trace time, and a cursor at its start, found by a binary
 * search over each CPU's chunks (td_index_build_at), so that a window
 * costs about its share of the file and ~log2(chunks) chunks, not a
 * full pass.
 */
static struct td_cursor *analysis_window_cursor(struct analysis *a, char **err)
{
	uint64_t first = 0;

	if (td_first_ts(a->tf, &first, err) || analysis_window_bounds(a, first, err))
		return NULL;
	if (!a->since || a->since <= first)
		return td_cursor_new(a->tf, -1, err);
	/* the tasks' cgroups are listed at the file's start and followed by
	 * events: read from there, the events before the window for the map
	 * alone (analysis_cg_pre), or the window's tasks would be unknown */
	if (a->cg_meta)
		return td_cursor_new(a->tf, -1, err);
	a->index = td_index_new(a->tf, a->opts.index_every);
	/*
	 * The TUI keeps the index for its views: every `every` pages. Other
	 * readers want this one seek: a binary search over the chunks.
	 */
	if (a->index && (a->opts.index_every ? td_index_build(a->index, NULL) :
			 td_index_build_at(a->index, a->since, NULL))) {
		td_index_free(a->index);	/* the seek walks from the start */
		a->index = NULL;
	}
	return td_cursor_new_at(a->tf, -1, a->index, a->since, err);
}

/*
 * An event before the window: 1 when it was one, and it is left out. The
 * cursor starts at the window, so these are a recording with the tasks'
 * cgroups, read from its start (its events that carry the map are parsed
 * for the map only), or a stream whose time went backwards after the
 * seek (a damaged file: the seek's suffix is not a window).
 */
static int analysis_before_window(struct analysis *a, const struct td_event *ev)
{
	if (!a->windowed || ev->ts >= a->since)
		return 0;
	/* only the events that carry the map: other parsers may pair events
	 * (the probes' entries and returns) and must start at the window */
	if (a->cg_meta && ev->event &&
	    (ev->event->id == a->cg_ids[0] || ev->event->id == a->cg_ids[1] ||
	     ev->event->id == a->cg_ids[2])) {
		a->cg_pre = 1;
		parser_set_parse(a->ps, ev->event, (struct tep_record *)&ev->record, ev->ts,
				 ev->cpu, analysis_sink, a);
		a->cg_pre = 0;
	}
	return 1;
}

/*
 * The tasks' start list is read from /proc after tracing began, so the
 * stalls of its first milliseconds come before its lines: a first look
 * at the file's start, up to the list's end line, places the tasks it
 * lists (cgmap_seed) before the pass tags any record. Only the three
 * events that carry the map are parsed, through a parser set of its own
 * (the pass' counts its sample lines).
 */
#define CG_PRESCAN_MAX (1u << 20)	/* events: the list is in the first */

struct cg_prescan {
	struct cgmap *map;
	int done;
};

static void analysis_cg_prescan_sink(void *ctx, const struct record *r)
{
	struct cg_prescan *p = ctx;

	cgmap_add(p->map, r);
	if (r->type == REC_CGROUP_TASK && r->cgtask.kind == CGT_START_DONE)
		p->done = 1;
}

void analysis_cgroup_prescan(struct td_file *tf, struct tep_handle *tep, struct cgmap *into)
{
	static const char *const evs[3][2] = {
		{ "ftrace", "print" }, { "task", "task_newtask" }, { "cgroup", "cgroup_attach_task" },
	};
	struct cg_prescan p = { NULL, 0 };
	struct parser_set *ps;
	struct td_cursor *c;
	struct td_event ev;
	char *err = NULL;
	int ids[3];
	unsigned n = 0;

	for (int i = 0; i < 3; i++) {
		struct tep_event *e = tep_find_event_by_name(tep, evs[i][0], evs[i][1]);

		ids[i] = e ? e->id : -1;
	}
	c = td_cursor_new(tf, -1, &err);
	ps = c ? parser_set_new(tep) : NULL;
	if (!ps) {
		td_cursor_free(c);
		free(err);
		return;
	}
	p.map = cgmap_new();
	while (!p.done && n++ < CG_PRESCAN_MAX && td_cursor_next(c, &ev, &err) > 0) {
		if (!ev.event)
			continue;
		for (int i = 0; i < 3; i++)
			if (ev.event->id == ids[i])
				parser_set_parse(ps, ev.event, (struct tep_record *)&ev.record,
						 ev.ts, ev.cpu, analysis_cg_prescan_sink, &p);
	}
	cgmap_seed(into, p.map);
	cgmap_free(p.map);
	parser_set_free(ps);
	td_cursor_free(c);
	free(err);
}

static void analysis_cg_prescan(struct analysis *a)
{
	static const char *const evs[3][2] = {
		{ "ftrace", "print" }, { "task", "task_newtask" }, { "cgroup", "cgroup_attach_task" },
	};

	for (int i = 0; i < 3; i++) {
		struct tep_event *e = a->tep ? tep_find_event_by_name(a->tep, evs[i][0],
								      evs[i][1]) : NULL;

		a->cg_ids[i] = e ? e->id : -1;
	}
	if (a->cg_meta && a->tf && a->tep)
		analysis_cgroup_prescan(a->tf, a->tep, a->cgmap);
}

/* A pass that read to the end (r 0) knows the recording's last event. */
static void analysis_read_to_end(struct analysis *a, int r)
{
	if (r == 0 && (a->info.events || a->seen_ts)) {
		a->info.rec_last_known = 1;
		a->info.rec_last_ts = a->seen_ts;
	}
}

static int analysis_stream(struct analysis *a, char **err)
{
	struct td_cursor *c = a->windowed ? analysis_window_cursor(a, err) :
			      td_cursor_new(a->tf, -1, err);
	struct td_event ev;
	uint64_t n = 0;
	int r;

	if (!c)
		return -1;
	if (a->opts.index_every && !a->index) {
		a->index = td_index_new(a->tf, a->opts.index_every);
		if (!a->index || td_cursor_set_index(c, a->index, NULL)) {
			td_index_free(a->index);	/* seeks will walk from the start */
			a->index = NULL;
		}
	}
	if (a->opts.progress)
		analysis_progress(a, c);
	while ((r = td_cursor_next(c, &ev, err)) > 0) {
		if (analysis_before_window(a, &ev))
			continue;
		a->seen_ts = ev.ts;
		if (analysis_window_past(a, &ev))
			break;
		/* what no model reads (the page allocator's events): counted
		 * here, without a call (analysis_event does the same) */
		if (!a->tail && !a->info.flight && !ev.missed &&
		    (!ev.event || (ev.event->id >= 0 && ev.event->id < a->ncounts &&
				   !a->parses[ev.event->id]))) {
			if (!a->info.events && !a->windowed)
				a->info.first_ts = ev.ts;
			a->info.last_ts = ev.ts;
			a->info.events++;
			if (ev.event)
				a->counts[ev.event->id]++;
		} else {
			analysis_event(a, &ev);
		}
		if (a->opts.progress && ++n % PROGRESS_EVERY == 0)
			analysis_progress(a, c);
	}
	if (a->opts.progress && r == 0)
		analysis_progress(a, c);
	analysis_read_to_end(a, r);
	td_cursor_free(c);
	return r < 0 ? -1 : 0;
}

struct td_index *analysis_take_index(struct analysis *a)
{
	struct td_index *ix = a->index;

	a->index = NULL;
	return ix;
}

/*
 * The kallsyms cost ~30 ms (kallsyms.c; as much as a report of a lab
 * recording): parsed when the first stack record arrives, if the file
 * may hold stacks (want_syms), its kernel_stack format parsed and the
 * front end names frames.
 */
static void analysis_syms_on_stack(struct analysis *a)
{
	struct tep_event *ev = a->want_syms && !a->opts.unnamed_frames ?
		tep_find_event_by_name(a->tep, "ftrace", "kernel_stack") : NULL;

	a->syms_id = ev ? ev->id : -1;
}

/* Parsers bound to the event formats of tep, and a count per event id. */
static int analysis_bind(struct analysis *a, struct tep_handle *tep, char **err)
{
	struct tep_event **evs;

	a->tep = tep;
	a->fmt_systems = a->tf ? td_format_systems(a->tf) : 0;
	swapclust_model_set_kernel(a->swapclust, a->info.kernel);
	consistency_model_set_kernel(a->consistency, a->info.kernel);
	a->ps = parser_set_new(tep);
	if (!a->ps)
		return set_err(err, "out of memory");
	evs = tep_list_events(tep, TEP_EVENT_SORT_ID);
	for (int i = 0; evs && evs[i]; i++)
		/* common_type is 16 bits: a larger id (hostile format text,
		 * "ID: 0x7fffffff") can never be an event's; dump's cursor
		 * ignores those formats the same way */
		if (evs[i]->id >= a->ncounts && evs[i]->id <= 0xffff)
			a->ncounts = evs[i]->id + 1;
	a->counts = xcalloc((size_t)a->ncounts + 1, sizeof(*a->counts));
	a->parses = xcalloc((size_t)a->ncounts + 1, 1);
	for (int id = 0; id < a->ncounts; id++)
		a->parses[id] = (uint8_t)parser_set_binds(a->ps, id);
	return 0;
}

/* The tasks' cgroups are listed by mmscope record (with the tasks group)
 * and followed from there: without that list (older files, trace-cmd's)
 * nothing is guessed. */
int analysis_cgroup_refused(const char *cgroup, char **err)
{
	return set_err(err, "--cgroup %s: this recording cannot tell which tasks were "
		       "in a cgroup (no event carries one, no pid-to-cgroup map)", cgroup);
}

/* The scope asked for, checked against what the recording can answer. */
static int analysis_scope_start(struct analysis *a, char **err)
{
	const struct analysis_scope *s = &a->opts.scope;

	if (s->cgroup && !a->cg_meta)
		return analysis_cgroup_refused(s->cgroup, err);
	if (analysis_scope_check(s, err))
		return -1;
	a->windowed = s->since.set || s->until.set;
	a->tasks = s->pid > 0 || s->comm || s->cgroup;
	a->info.task_scoped = a->tasks;
	a->info.scope_pid = s->pid > 0 ? s->pid : 0;
	a->info.scope_comm = s->comm;
	if (s->cgroup)
		a->info.scope_cgroup = cgmap_scope_path(s->cgroup, a->cg_scope,
							(int)sizeof(a->cg_scope));
	return 0;
}

/*
 * Parts of a --switch-output run (model.h, bounds): the run was cut
 * before the first file at its switch_from_ns, after the last at its
 * switch_cut_ns (mmscope-recording(5)). Not for a window (--since,
 * --until, --phase): a window has its own rule for what spans its ends.
 */
static void analysis_part_bounds(struct analysis *a, const char *first, const char *last)
{
	uint64_t from = 0, cut = 0;

	if (a->windowed || a->opts.phase)
		return;
	if (td_meta_u64(first, "switch_from_ns", &from))
		from = 0;
	if (td_meta_u64(last, "switch_cut_ns", &cut))
		cut = 0;
	analysis_set_part_bounds(a, from, cut);
}

void analysis_set_part_bounds(struct analysis *a, uint64_t from, uint64_t cut)
{
	if (!from && !cut)
		return;
	a->info.part_from_ts = from;
	a->info.part_cut_ts = cut;
	for (size_t i = 0; models[i]; i++)
		if (models[i]->bounds && a->model[i])
			models[i]->bounds(a->model[i], from, cut);
}

/* pid's name as the report gives it: the tasks family's, else the
 * cmdlines'; NULL when neither knows it. */
static const char *analysis_task_name(const struct analysis *a, int pid);

const char *analysis_task_comm(const struct analysis *a, int pid)
{
	return a ? analysis_task_name(a, pid) : NULL;
}

static const char *analysis_task_name(const struct analysis *a, int pid)
{
	const char *c = analysis_comm(a, pid);

	if (c)
		return c;
	return a->tep && tep_is_pid_registered(a->tep, pid) ?
	       tep_data_comm_from_pid(a->tep, pid) : NULL;
}

/* The tasks with the most task records (stalls, reclaim and compaction
 * work, swap-outs, OOM kills), "4242 anon-touch, 4243 dd", at most max,
 * and how many more; when no task has one, the tasks with events. */
static void analysis_tasks_named(const struct analysis *a, struct strbuf *sb, int max)
{
	const struct pidmap *m = &a->task_recs;
	uint64_t below = UINT64_MAX;
	unsigned busy = 0;
	int shown = 0, below_pid = 0;

	for (unsigned i = 0; i < m->cap; i++)
		busy += m->keys[i] >= 0 && *(const uint64_t *)PIDMAP_VAL(m, i) > 0;
	if (!m->n) {
		strbuf_addstr(sb, "no event of a task was read");
		return;
	}
	strbuf_addstr(sb, busy ? "tasks with stalls, reclaim or compaction work: " :
		      "no task stalled or reclaimed; tasks with events: ");
	/* the next largest count after (below, below_pid), max times */
	while (shown < max) {
		uint64_t best = 0;
		int bpid = 0;

		for (unsigned i = 0; i < m->cap; i++) {
			uint64_t v;
			int pid = m->keys[i];

			if (pid < 0)
				continue;
			v = *(const uint64_t *)PIDMAP_VAL(m, i);
			if ((busy && !v) || v > below || (v == below && pid <= below_pid))
				continue;	/* listed already */
			if (!bpid || v > best || (v == best && pid < bpid)) {
				best = v;
				bpid = pid;
			}
		}
		if (!bpid)
			break;
		{
			const char *name = analysis_task_name(a, bpid);

			strbuf_addf(sb, "%s%d%s%s", shown ? ", " : "", bpid, name ? " " : "",
				    name ? name : "");
		}
		shown++;
		below = best;
		below_pid = bpid;
	}
	if ((unsigned)shown < (busy ? busy : m->n))
		strbuf_addf(sb, " and %u more", (busy ? busy : m->n) - (unsigned)shown);
}

static int analysis_path_cmp(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* The cgroups the recording's tasks were in, in path order ("/, /a,
 * /a/b"), at most max. */
static void analysis_cgroups_named(const struct analysis *a, struct strbuf *sb, int max)
{
	int n = cgmap_count(a->cgmap), held = 0;
	const char **path = xcalloc((size_t)n + 1, sizeof(*path));

	for (int id = 0; id < n; id++)
		if (cgmap_tasks(a->cgmap, id))
			path[held++] = cgmap_path(a->cgmap, id);
	qsort(path, (size_t)held, sizeof(*path), analysis_path_cmp);
	for (int i = 0; i < held && i < max; i++)
		strbuf_addf(sb, "%s%s", i ? ", " : "", path[i]);
	if (!held)
		strbuf_addstr(sb, "no task was placed in a cgroup");
	else if (held > max)
		strbuf_addf(sb, " and %d more", held - max);
	free(path);
}

/*
 * A task scope that names nothing the recording has (a pid no record
 * carries and the cmdlines do not know, a name no task had, a cgroup no
 * task was in) is an error, not an empty report: -1 with *err naming
 * what the recording has. A task that is there but did nothing the
 * report counts is an empty report. A window's pass reads only the
 * window, where a task of the recording may have had no event: --pid
 * and --comm are checked on whole passes only; the cgroups' map is read
 * from the start, so --cgroup is checked up to the window's end.
 */
static int analysis_scope_matched(struct analysis *a, char **err)
{
	const struct analysis_scope *s = &a->opts.scope;
	struct strbuf sb = STRBUF_INIT;
	int r = 0;

	if (a->windowed) {
		/* pid and name: not known from the window alone */
	} else if (s->pid > 0 && !a->scope_pid_seen && !analysis_task_name(a, s->pid)) {
		analysis_tasks_named(a, &sb, 5);
		r = set_err(err, "--pid %d: no event in this recording is of that task (%s)",
			    s->pid, sb.buf ? sb.buf : "");
	} else if (s->comm && !a->info.scope_tasks &&
		   !(a->tep && tep_data_pid_from_comm(a->tep, s->comm, NULL))) {
		int named = 0;

		for (unsigned i = 0; i < a->comms.cap && !named; i++)
			named = a->comms.keys[i] >= 0 &&
				!strcmp(PIDMAP_VAL(&a->comms, i), s->comm);
		if (!named) {
			analysis_tasks_named(a, &sb, 5);
			r = set_err(err, "--comm %s: no task in this recording had that name (%s)",
				    s->comm, sb.buf ? sb.buf : "");
		}
	}
	if (!r && s->cgroup && cgmap_recorded(a->cgmap)) {
		int n = cgmap_count(a->cgmap), found = 0;

		for (int id = 0; id < n && !found; id++)
			found = cgmap_under(a->cgmap, id, a->cg_scope);
		if (!found) {
			analysis_cgroups_named(a, &sb, 8);
			r = set_err(err, "--cgroup %s: no task in this recording%s was in %s or "
				    "below (its tasks were in %s)", s->cgroup,
				    a->windowed ? " up to the window's end" : "", a->cg_scope,
				    sb.buf ? sb.buf : "");
		}
	}
	strbuf_release(&sb);
	return r;
}

struct analysis *analysis_run(const char *path, const struct analysis_opts *o, char **err)
{
	return analysis_run_scoped(path, o, err, NULL);
}

/* The end of a pass: finish the models (unless done), the flight
 * recorder's window, and the time it took (t0: the open, ts0: streaming). */
static void analysis_close_pass(struct analysis *a, const struct timespec *t0,
				const struct timespec *ts0, int finish)
{
	struct timespec t1;

	if (finish)
		analysis_finish(a, a->info.last_ts);
	if (a->info.flight)
		analysis_flight_window(&a->info);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	a->info.stream_seconds = (double)(t1.tv_sec - ts0->tv_sec) +
				 (double)(t1.tv_nsec - ts0->tv_nsec) / 1e9;
	a->info.seconds = (double)(t1.tv_sec - t0->tv_sec) +
			  (double)(t1.tv_nsec - t0->tv_nsec) / 1e9;
}

/* The end of a whole or a windowed pass (a window's models finish at its
 * end, with the samples' span of the window). */
static void analysis_end_pass(struct analysis *a, const struct timespec *t0,
			      const struct timespec *ts0)
{
	if (!a->windowed) {
		analysis_close_pass(a, t0, ts0, 1);
		return;
	}
	analysis_finish(a, a->info.last_ts);
	counters_model_span(a->counters, &a->info.samples_first_ts, &a->info.samples_last_ts);
	analysis_close_pass(a, t0, ts0, 0);
	/* tail: an event came after the window's end */
	if (!a->info.events)
		a->info.empty_window = !a->tail ? "after the recording's last event" :
				       a->until < a->info.first_ts ? "before its first event" :
				       "in a gap between events";
}

/* The formats a parser reads, and mmscope's own probes: an entry probe
 * no parser reads ("store" beside "store_r" on 5.10 and 6.1) is still
 * counted, for the hits its return probe missed
 * (analysis_probe_unreturned). */
static int analysis_wants_format(const char *system, const char *event)
{
	return parser_wants_event(system, event) ||
	       (system && !strncmp(system, "mmscope_", 8));
}

/*
 * Only the formats a parser reads: a trace-cmd file holds every format
 * of the kernel (2323 on 6.18) and parsing them is most of a small
 * report. MMSCOPE_ALL_FORMATS=1 parses all, for tests/report/formats.sh
 * to hold the two equal.
 */
static td_want_fn analysis_formats(void)
{
	const char *env = getenv("MMSCOPE_ALL_FORMATS");

	return env && !strcmp(env, "1") ? NULL : analysis_wants_format;
}

struct analysis *analysis_run_scoped(const char *path, const struct analysis_opts *o,
				     char **err, int *bad_scope)
{
	struct timespec t0, ts0;
	struct analysis *a;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	a = analysis_new_empty(o);
	if (!a) {
		set_err(err, "out of memory");
		return NULL;
	}
	a->tf = td_open_only(path, analysis_formats(), err);
	if (!a->tf)
		goto fail;
	analysis_header(a, path);
	if (analysis_scope_start(a, err)) {
		if (bad_scope)
			*bad_scope = 1;
		goto fail;
	}
	/* the kallsyms only when stack frames need names (they cost ~30 ms) */
	if (analysis_bind(a, td_tep_nosyms(a->tf), err))
		goto fail;
	analysis_syms_on_stack(a);
	analysis_part_bounds(a, td_private(a->tf), td_private(a->tf));
	clock_gettime(CLOCK_MONOTONIC, &ts0);
	analysis_cg_prescan(a);
	if (analysis_stream(a, err)) {
		if (bad_scope && a->windowed && !a->info.windowed)
			*bad_scope = 1;	/* since after until, found on reading */
		goto fail;
	}
	analysis_end_pass(a, &t0, &ts0);
	if (analysis_scope_matched(a, err))
		goto fail;
	return a;
fail:
	analysis_free(a);
	return NULL;
}

/* The trace time a ms before the start (start_trace_ns) of the last file
 * of set that starts at or before ts, whose list of the tasks' cgroups
 * (mms1 cgtasks, written just after that start) places every task from
 * there on; 0 (read from the start) when no file says where it starts. */
static uint64_t part_start_before(struct td_set *set, uint64_t ts)
{
	uint64_t best = 0, v;

	for (int i = 0; i < td_set_nfiles(set); i++) {
		const char *m = td_set_private(set, i);

		if (!m || td_meta_u64(m, "start_trace_ns", &v) || !v || !td_meta_value(m, "cgroup_tasks"))
			return 0;	/* a part that cannot say: from the start */
		if (v <= ts && v > best)
			best = v;
	}
	return best > 1000000 ? best - 1000000 : 0;
}

struct analysis *analysis_run_files(const char *const *paths, int n, const char *name,
				    const struct analysis_opts *o, char **err, int *bad_scope)
{
	struct timespec t0, ts0;
	struct td_set *set;
	struct td_set_cursor *c;
	struct td_event ev;
	struct analysis *a;
	uint64_t first = 0, since;
	int r;

	if (n == 1)
		return analysis_run_scoped(paths[0], o, err, bad_scope);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	/* ordered by start_realtime_ns, same formats and buffers, the
	 * segments of one recording with none missing (tracedat-set.h) */
	set = td_set_open_meta(paths, o->file_metas, n, analysis_formats(), err);
	if (!set)
		return NULL;
	a = analysis_new_empty(o);
	a->tf = td_set_take(set, 0);	/* the set reads it until closed */
	a->multi_name = xasprintf("%s (%d files)", name ? name : td_path(a->tf), n);
	a->opts.name = a->multi_name;
	{	/* how the run ended is the last file's to say */
		const char *m = td_set_private(set, n - 1);

		a->last_meta = xstrdup(m ? m : "");
	}
	analysis_header(a, td_path(a->tf));
	/* the wall clock over every file (each one's reads from its start) */
	wall_map_free(&a->info.wall);
	for (int i = 0; i < n; i++)
		if (wall_map_add_meta(&a->info.wall, td_set_private(set, i)))
			break;
	wall_map_finish(&a->info.wall);
	a->info.has_wall = wall_map_n(&a->info.wall) > 0;
	if (analysis_scope_start(a, err)) {
		if (bad_scope)
			*bad_scope = 1;
		goto fail;
	}
	a->want_syms = 1;	/* stacks in any file: named by file 0's kallsyms */
	if (analysis_bind(a, td_tep_nosyms(a->tf), err))
		goto fail;
	analysis_syms_on_stack(a);
	/* a window counts from the set's first event; the set's cursor
	 * starts in the file that holds --since, through its chunk index */
	if (a->windowed && td_set_first_ts(set, &first, err))
		goto fail;
	if (a->windowed && analysis_window_bounds(a, first, err)) {
		if (bad_scope)
			*bad_scope = 1;	/* since after until, no wall clock */
		goto fail;
	}
	analysis_part_bounds(a, td_private(a->tf), a->last_meta);
	since = a->windowed && a->since > first ? a->since : 0;
	/* the tasks' cgroups are followed from a list of them: each part of
	 * a run starts with one, so from the start of the part that holds
	 * since (a ms early: its first events may come a few us before its
	 * start pair), not from the run's */
	if (since && a->cg_meta)
		since = part_start_before(set, since);
	if (td_set_share_cmdlines(set, since, err))	/* into a->tep: file 0's */
		goto fail;
	clock_gettime(CLOCK_MONOTONIC, &ts0);
	analysis_cg_prescan(a);
	/* every file's events merged in time order through the same parsers
	 * and models, as from one file */
	c = td_set_cursor_new(set, since, 0, err);
	if (!c)
		goto fail;
	while ((r = td_set_cursor_next(c, &ev, err)) > 0) {
		if (ev.event && ev.event->tep != a->tep)	/* file 0's format of the id */
			ev.event = tep_find_event(a->tep, ev.event->id);
		if (analysis_before_window(a, &ev))
			continue;
		a->seen_ts = ev.ts;
		if (analysis_window_past(a, &ev))
			break;
		analysis_event(a, &ev);
	}
	analysis_read_to_end(a, r);
	td_set_cursor_free(c);
	{	/* the losses of every file read, as its own CPU stats give
		 * them (a window reads only its parts) */
		int nread;

		a->info.cpustat_lost += (uint64_t)td_set_lost(set, &nread);
	}
	if (r < 0)
		goto fail;
	analysis_end_pass(a, &t0, &ts0);
	if (analysis_scope_matched(a, err))
		goto fail;
	td_set_close(set);
	return a;
fail:
	analysis_free(a);
	td_set_close(set);
	return NULL;
}

void analysis_free(struct analysis *a)
{
	if (!a)
		return;
	/* last first: a model may hold one made before it */
	for (size_t i = NMODELS; i-- > 0;)
		if (a->model[i])
			models[i]->destroy(a->model[i]);
	parser_set_free(a->ps);
	td_index_free(a->index);
	free(a->counts);
	free(a->parses);
	free(a->enabled);
	free(a->probe_missed);
	free(a->info.cpu);
	wall_map_free(&a->info.wall);
	pidmap_release(&a->comms);
	cgmap_free(a->cgmap);
	pidmap_release(&a->cg_sel);
	pidmap_release(&a->cg_open);
	pidmap_release(&a->task_sel);
	pidmap_release(&a->task_recs);
	pidmap_release(&a->pend_reclaim);
	pidmap_release(&a->pend_compact);
	if (a->tf)
		td_close(a->tf);
	free(a->multi_name);
	free(a->last_meta);
	free(a);
}

const struct analysis_info *analysis_info(const struct analysis *a) { return &a->info; }
/* The older models' accessors: analysis_model() typed. */
const struct handoff_model *analysis_handoff(const struct analysis *a)
{
	return analysis_model(a, &handoff_model_ops);
}
const struct reclaim_model *analysis_reclaim(const struct analysis *a)
{
	return analysis_model(a, &reclaim_model_ops);
}
const struct compaction_model *analysis_compaction(const struct analysis *a)
{
	return analysis_model(a, &compaction_model_ops);
}
const struct counters_model *analysis_counters(const struct analysis *a)
{
	return analysis_model(a, &counters_model_ops);
}
const struct frag_model *analysis_frag(const struct analysis *a)
{
	return analysis_model(a, &frag_model_ops);
}
const struct consistency_model *analysis_consistency(const struct analysis *a)
{
	return analysis_model(a, &consistency_model_ops);
}
const struct swapclust_model *analysis_swapclust(const struct analysis *a)
{
	return analysis_model(a, &swapclust_model_ops);
}
const struct zswap_model *analysis_zswap(const struct analysis *a)
{
	return analysis_model(a, &zswap_model_ops);
}
const struct lanes *analysis_lanes(const struct analysis *a)
{
	return analysis_model(a, &lanes_model_ops);
}

const struct model_ops *const *analysis_models(void)
{
	return models;
}

const void *analysis_model(const struct analysis *a, const struct model_ops *ops)
{
	return model_of(a, ops);
}
const char *analysis_probe_set(const struct analysis *a) { return a->probe_set; }
const char *analysis_probe_reason(const struct analysis *a) { return a->probe_reason; }

int analysis_zswap_wb_upper_bound(const struct analysis *a)
{
	const struct probe_set *set = probe_set_find(a->probe_set);

	return set && set->wb_zero_includes_freed;
}
int analysis_probes_swap(const struct analysis *a) { return a->probes_swap; }

const char *analysis_private_meta(const struct analysis *a)
{
	const char *m = a->tf ? td_private(a->tf) : NULL;

	return m ? m : "";
}

const char *analysis_last_meta(const struct analysis *a)
{
	return a->last_meta ? a->last_meta : analysis_private_meta(a);
}

long long analysis_probe_missed(const struct analysis *a, const char *family,
				char *names, size_t len)
{
	char *list, *save = NULL, pre[32];
	long long sum = 0;
	size_t used = 0;

	if (names && len)
		names[0] = '\0';
	if (!a->probe_missed)
		return -1;
	snprintf(pre, sizeof(pre), "mmscope_%s_", family ? family : "");
	list = xstrdup(a->probe_missed);
	for (char *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *eq = strrchr(tok, '='), *colon = strchr(tok, ':'), *end;
		long long v;

		if (!eq || !colon || colon > eq || (family && strncmp(tok, pre, strlen(pre))))
			continue;
		v = strtoll(eq + 1, &end, 10);
		if (end == eq + 1 || *end || v < 0) {	/* "?": its line was missing */
			sum = -1;
			break;
		}
		sum += v;
		if (v && names && len > used + 1) {
			*eq = '\0';
			used += (size_t)snprintf(names + used, len - used, "%s%s %lld",
						 used ? ", " : "", colon + 1, v);
			if (used >= len)
				used = len - 1;
		}
	}
	free(list);
	return sum;
}

long long analysis_probe_unreturned(const struct analysis *a, const char *family,
				    char *names, size_t len)
{
	char pre[32];
	long long sum = -1;
	size_t used = 0;

	if (names && len)
		names[0] = '\0';
	if (!a->tep)
		return -1;
	snprintf(pre, sizeof(pre), "mmscope_%s%s", family ? family : "", family ? "_" : "");
	for (int i = 0; i < tep_get_events_count(a->tep); i++) {
		struct tep_event *ev = tep_get_event(a->tep, i);
		size_t n = ev && ev->name ? strlen(ev->name) : 0;
		char entry[64];
		uint64_t ent, ret;

		if (n < 3 || n >= sizeof(entry) || strcmp(ev->name + n - 2, "_r") || !ev->system ||
		    strncmp(ev->system, pre, strlen(pre)))
			continue;
		snprintf(entry, sizeof(entry), "%.*s", (int)(n - 2), ev->name);
		if (!tep_find_event_by_name(a->tep, ev->system, entry))
			continue;
		ent = analysis_event_count(a, ev->system, entry);
		ret = analysis_event_count(a, ev->system, ev->name);
		if (sum < 0)
			sum = 0;
		if (ent <= ret)
			continue;
		sum += (long long)(ent - ret);
		if (names && len > used + 1) {
			used += (size_t)snprintf(names + used, len - used, "%s%s %llu",
						 used ? ", " : "", ev->name,
						 (unsigned long long)(ent - ret));
			if (used >= len)
				used = len - 1;
		}
	}
	return sum;
}

/*
 * A trace-cmd file has no list of what was enabled (no option says it;
 * CPUSTAT is per CPU, not per event). What it does say: trace-cmd record
 * writes the formats its -e globs name (a whole system for "-e vmscan"),
 * so there a format is an enabled event; extract (and a recorder that
 * saves every format) writes all of the kernel's ~100 systems, and there
 * only an event's own records show it was on. The number of systems
 * tells the two apart: no one names this many with -e.
 */
#define ALL_FORMATS_SYSTEMS 32

int analysis_event_state(const struct analysis *a, const char *system, const char *event)
{
	/* records fed by hand: traced if records of the kind its parser
	 * emits were fed (families.c names each event's parser) */
	if (!a->tep) {
		const struct parser *p = parser_lookup(system, event);

		return !p || (p->rec < 64 && (a->types_seen & (1ULL << p->rec))) ?
			       TRACED_YES : TRACED_NO;
	}
	/* mmscope's own list of what it enabled is authoritative */
	if (a->enabled) {
		char key[256];

		snprintf(key, sizeof(key), ",%s:%s,", system, event);
		return strstr(a->enabled, key) ? TRACED_YES : TRACED_NO;
	}
	if (analysis_event_count(a, system, event))
		return TRACED_YES;
	/* formats the reader skipped (no parser reads them) count too */
	if (!(a->tf ? td_has_format(a->tf, system, event)
		    : tep_find_event_by_name(a->tep, system, event) != NULL))
		return TRACED_NO;
	return a->tf && a->fmt_systems >= ALL_FORMATS_SYSTEMS ? TRACED_UNKNOWN : TRACED_YES;
}

int analysis_has_event(const struct analysis *a, const char *system, const char *event)
{
	return analysis_event_state(a, system, event) == TRACED_YES;
}

int analysis_traced_state(const struct analysis *a, enum rec_type type, int kind)
{
	int state = TRACED_NO;

	for (int i = 0; i < event_nfamilies; i++)
		for (const struct parser *p = event_families[i].parsers; p && p->system; p++) {
			int s;

			if (p->rec != type || (kind >= 0 && p->kind != kind) ||
			    strchr(p->system, '*'))
				continue;
			s = analysis_event_state(a, p->system, p->event);
			if (s == TRACED_YES)
				return TRACED_YES;
			if (s == TRACED_UNKNOWN)
				state = TRACED_UNKNOWN;
		}
	return state;
}

int analysis_traced(const struct analysis *a, enum rec_type type, int kind)
{
	return analysis_traced_state(a, type, kind) == TRACED_YES;
}

const char *analysis_untraced_word(const struct analysis *a, enum rec_type type, int kind)
{
	return analysis_traced_state(a, type, kind) == TRACED_UNKNOWN ? "not known"
								      : "not recorded";
}

int analysis_event_enabled(const struct analysis *a, const char *system, const char *event)
{
	/* the one decision; was events= alone, so a trace-cmd record file
	 * with the oom formats it was asked for printed "not recorded" */
	return analysis_event_state(a, system, event) == TRACED_YES;
}

uint64_t analysis_event_count(const struct analysis *a, const char *system,
			      const char *event)
{
	struct tep_event *ev;

	if (!a->tep)
		return 0;
	ev = tep_find_event_by_name(a->tep, system, event);
	return ev && ev->id >= 0 && ev->id < a->ncounts ? a->counts[ev->id] : 0;
}

int analysis_nnotes(const struct analysis *a)
{
	return a->ps ? parser_set_nnotes(a->ps) : 0;
}

const char *analysis_note(const struct analysis *a, int i)
{
	return a->ps ? parser_set_note(a->ps, i) : NULL;
}

struct analysis *analysis_live_new(struct tep_handle *tep, const char *kernel,
				   const char *private_meta, const struct analysis_opts *o,
				   char **err)
{
	struct analysis *a = analysis_new_empty(o);

	if (!a) {
		set_err(err, "out of memory");
		return NULL;
	}
	a->info.path = "live";
	snprintf(a->info.kernel, sizeof(a->info.kernel), "%s", kernel ? kernel : "?");
	snprintf(a->info.host, sizeof(a->info.host), "?");
	snprintf(a->info.clock, sizeof(a->info.clock), "mono");
	{
		struct utsname u;	/* live: this machine and kernel */

		if (!uname(&u))
			snprintf(a->info.machine, sizeof(a->info.machine), "%.31s", u.machine);
	}
	analysis_set_page_size(a, (uint32_t)sysconf(_SC_PAGESIZE));
	analysis_private(a, &a->info, private_meta);
	if (analysis_bind(a, tep, err)) {
		analysis_free(a);
		return NULL;
	}
	return a;
}

void analysis_live_event(struct analysis *a, const struct td_event *ev)
{
	analysis_event(a, ev);
}

void analysis_live_sync(struct analysis *a, uint64_t now)
{
	struct analysis_info *in = &a->info;

	if (now > in->last_ts)
		in->last_ts = now;
	if (!in->events)
		in->first_ts = now;
	in->sample_sets = counters_model_nsets(a->counters);
	in->sample_incomplete = counters_model_incomplete_sets(a->counters);
	in->sample_lines = parser_set_sample_lines(a->ps);
	in->sample_gaps = parser_set_sample_gaps(a->ps);
	in->has_samples = in->sample_sets > 0;
	for (size_t i = 0; models[i]; i++)
		if (models[i]->sync && a->model[i])
			models[i]->sync(a->model[i], in->last_ts);
}
