// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The models as a Perfetto trace: see perfetto.h. Field numbers are those
 * of Perfetto's perfetto_trace.proto (the tests decode the output with
 * protoc against a copy of it in tests/data/perfetto/).
 *
 * Everything to draw is first gathered as events (a slice is a begin and
 * an end), sorted by time, then written one packet each: Perfetto wants
 * the packets of a sequence in time order, and the models keep stalls in
 * the order they ended. Ties are broken so slices on one track nest:
 * ends before begins, a longer slice begins first and ends last.
 */
#include "config.h"
#include "perfetto.h"
#include "analysis.h"
#include "findings.h"
#include "fnv.h"
#include "kill-dossier.h"
#include "kill-dossier-lines.h"
#include "model-oom.h"
#include "model-phases.h"
#include "model-series.h"
#include "model-stacks.h"
#include "pb-write.h"
#include "tracedat-read.h"
#include "util.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Field numbers (perfetto_trace.proto). */
enum {
	TRACE_PACKET = 1,
	TP_TIMESTAMP = 8, TP_SEQ_ID = 10, TP_TRACK_EVENT = 11, TP_SEQ_FLAGS = 13,
	TP_TRACK_DESCRIPTOR = 60, TP_FIRST_ON_SEQ = 87,
	TD_UUID = 1, TD_NAME = 2, TD_PROCESS = 3, TD_THREAD = 4, TD_PARENT = 5,
	TD_COUNTER = 8, TD_DESCRIPTION = 14,
	PD_PID = 1, PD_NAME = 6,
	THD_PID = 1, THD_TID = 2, THD_NAME = 5,
	CD_UNIT_NAME = 6, CD_AXIS_SHARE = 7,
	TE_DEBUG = 4, TE_TYPE = 9, TE_TRACK = 11, TE_NAME = 23, TE_COUNTER = 30,
	TE_DOUBLE_COUNTER = 44, TE_FLOW = 47, TE_TERM_FLOW = 48, TE_CALLSTACK = 55,
	DA_NAME_IID = 1, DA_BOOL = 2, DA_UINT = 3, DA_INT = 4, DA_STRING = 6, DA_NAME = 10,
	TE_NAME_IID = 10, TP_INTERNED = 12,
	ID_EVENT_NAMES = 2, ID_DEBUG_NAMES = 3, IN_IID = 1, IN_NAME = 2,
};
enum { SEQ_INCREMENTAL_STATE_CLEARED = 1, SEQ_NEEDS_INCREMENTAL_STATE = 2 };
enum { T_BEGIN = 1, T_END = 2, T_INSTANT = 3, T_COUNTER = 4 };

#define SEQ_ID 1
#define UUID_BASE 0x6d6d730000000000ull	/* "mms": any unique 64-bit ids do */
#define FLUSH_AT (1u << 20)

/* What an event's ref points into. */
enum ev_src {
	S_NONE, S_KSWAPD, S_KC, S_KRUN, S_RUN, S_STALL, S_OOM, S_PHASE, S_TRIGGER, S_COUNTER,
	S_FINDING, S_KILL,
};

struct ptrack {
	uint64_t uuid, parent;
	char *name;
	char *desc;
	int pid;		/* process / thread tracks: > 0 */
	int thread;		/* 1: a thread track, 0: a process track (with pid) */
	char *comm;
	const char *unit;	/* counter tracks: non-NULL */
	char *axis;		/* counters sharing a y axis */
};

struct pev {
	uint64_t ts;
	uint64_t key;		/* tie break; a counter's value */
	uint32_t t2;		/* last tie break: the slice's number */
	uint32_t track;
	uint32_t ref;		/* index in the model's list */
	uint16_t sub;		/* node index, or a counter's scale */
	uint8_t src;		/* enum ev_src */
	uint8_t tc;		/* type (low 4 bits), sort class (high 4) */
};

struct task {
	int pid;
	uint32_t thread;		/* track index + 1, 0: none yet */
	uint32_t kind[RK_NR + CR_NR];	/* per reclaim kind, then compaction runner */
};

/*
 * Interned strings: a slice's name and each argument's name are written
 * once, in the packet that first uses them (InternedData), and referred
 * to by number after that; the trace is a third of the size.
 */
enum { IK_EVENT, IK_DEBUG, IK_NR };

struct intern {
	char *s;
	uint64_t iid;		/* 0: empty slot */
};

struct interns {
	struct intern *slot;
	size_t cap, n;
	uint64_t next_iid;
	/* new this packet: written with it */
	struct intern *fresh;
	size_t nfresh, afresh;
};

struct pf {
	const struct analysis *a;
	int kc_split;	/* kcompactd's wakes and sleeps both recorded */
	const struct analysis_info *info;
	struct ptrack *tr;
	int ntr, atr;
	struct pev *ev;
	size_t nev, aev;
	uint32_t nslices;
	struct task *tasks;
	int ntasks;
	struct { int nid; uint32_t track; } *nodes;	/* node tracks made so far */
	int nnodes;
	uint64_t **ks_flow, **kc_flow;	/* per handoff node, per episode: flow id */
	const struct stacks_model *stacks;
	struct stall_stack *ss;		/* the stalls' stacks, by kind, pid, begin */
	int nss;
	struct findings *fs;		/* the report's findings, as annotations */
	struct interns in[IK_NR];
	int fd;
	struct pb pb;
	struct perfetto_stats *st;
	/* one run of a host's history (perfetto_write_run): its sequence,
	 * ids kept apart from the other runs', its time on the history's line */
	unsigned salt;
	int64_t offset;
	uint64_t npackets;	/* on its sequence */
};

/* ---- tracks ---- */

static uint32_t track_new(struct pf *p, uint32_t parent, const char *name)
{
	struct ptrack *t;

	if (p->ntr == p->atr) {
		p->atr = p->atr ? p->atr * 2 : 64;
		p->tr = xreallocarray(p->tr, (size_t)p->atr, sizeof(*p->tr));
	}
	t = &p->tr[p->ntr];
	memset(t, 0, sizeof(*t));
	t->uuid = UUID_BASE + ((uint64_t)p->salt << 32) + (uint64_t)p->ntr + 1;
	t->parent = parent ? p->tr[parent - 1].uuid : 0;
	t->name = name ? xstrdup(name) : NULL;
	return (uint32_t)++p->ntr;	/* index + 1: 0 means none */
}

static uint32_t counter_track(struct pf *p, uint32_t parent, const char *name, const char *unit,
			      const char *axis)
{
	uint32_t t = track_new(p, parent, name);

	p->tr[t - 1].unit = unit;
	p->tr[t - 1].axis = axis ? xstrdup(axis) : NULL;
	return t;
}

static uint32_t node_track(struct pf *p, int nid)
{
	char name[32];

	for (int i = 0; i < p->nnodes; i++)
		if (p->nodes[i].nid == nid)
			return p->nodes[i].track;
	p->nodes = xreallocarray(p->nodes, (size_t)p->nnodes + 1, sizeof(*p->nodes));
	snprintf(name, sizeof(name), "node %d", nid);
	p->nodes[p->nnodes].nid = nid;
	p->nodes[p->nnodes].track = track_new(p, 0, name);
	return p->nodes[p->nnodes++].track;
}

static int task_cmp(const void *x, const void *y)
{
	const struct task *a = x, *b = y;

	return (a->pid > b->pid) - (a->pid < b->pid);
}

static int int_cmp(const void *x, const void *y)
{
	int a = *(const int *)x, b = *(const int *)y;

	return (a > b) - (a < b);
}

static struct task *task_find(struct pf *p, int pid)
{
	struct task key = { .pid = pid };

	return bsearch(&key, p->tasks, (size_t)p->ntasks, sizeof(*p->tasks), task_cmp);
}

/* The track of a task's stalls of one kind (RK_*, or RK_NR + runner for
 * compaction): under its thread track, under its process track. Perfetto
 * takes pid as both: the recording does not say which process a task
 * belongs to. */
static uint32_t task_kind_track(struct pf *p, int pid, const char *comm, int kind,
				const char *kind_name)
{
	struct task *t = task_find(p, pid);

	if (!t)
		return 0;
	if (!t->thread) {
		const char *name = comm && *comm ? comm : analysis_comm(p->a, pid);
		uint32_t proc = track_new(p, 0, NULL), th;

		p->tr[proc - 1].pid = pid;
		p->tr[proc - 1].comm = name ? xstrdup(name) : NULL;
		th = track_new(p, 0, NULL);
		p->tr[th - 1].pid = pid;
		p->tr[th - 1].thread = 1;
		p->tr[th - 1].comm = name ? xstrdup(name) : NULL;
		t->thread = th;
	}
	if (!t->kind[kind])
		t->kind[kind] = track_new(p, t->thread, kind_name);
	return t->kind[kind];
}

/* ---- events ---- */

static struct pev *ev_push(struct pf *p)
{
	if (p->nev == p->aev) {
		p->aev = p->aev ? p->aev * 2 : 1024;
		p->ev = xreallocarray(p->ev, p->aev, sizeof(*p->ev));
	}
	return memset(&p->ev[p->nev++], 0, sizeof(*p->ev));
}

static void add_slice(struct pf *p, uint32_t track, uint64_t begin, uint64_t end, int src,
		      uint32_t ref, uint16_t sub)
{
	uint32_t sid = p->nslices++;
	struct pev *b, *e;

	if (end < begin)
		end = begin;
	b = ev_push(p);
	*b = (struct pev){ begin, ~end, sid, track, ref, sub, (uint8_t)src,
			   (uint8_t)(T_BEGIN | 2 << 4) };
	e = ev_push(p);
	if (end > begin)
		*e = (struct pev){ end, ~begin, ~sid, track, ref, sub, (uint8_t)src,
				   (uint8_t)(T_END | 0 << 4) };
	else	/* zero length: after its own begin, before earlier ones' ends */
		*e = (struct pev){ end, 0, ~sid, track, ref, sub, (uint8_t)src,
				   (uint8_t)(T_END | 3 << 4) };
}

static void add_instant(struct pf *p, uint32_t track, uint64_t ts, int src, uint32_t ref)
{
	struct pev *e = ev_push(p);

	*e = (struct pev){ ts, 0, p->nslices++, track, ref, 0, (uint8_t)src,
			   (uint8_t)(T_INSTANT | 1 << 4) };
}

static void add_counter(struct pf *p, uint32_t track, uint64_t ts, int64_t v, int scale)
{
	struct pev *e = ev_push(p);

	*e = (struct pev){ ts, (uint64_t)v, p->nslices++, track, 0, (uint16_t)scale,
			   S_COUNTER, (uint8_t)(T_COUNTER | 1 << 4) };
}

/* The events the models will give, reserved at once: the array is the
 * writer's largest allocation (32 bytes an event), and growing it by
 * doubling could hold twice that at the peak. An estimate only: ev_push()
 * still grows it. */
static void ev_reserve(struct pf *p)
{
	const struct handoff_model *hm = analysis_handoff(p->a);
	const struct swapclust_model *sm = analysis_swapclust(p->a);
	const struct series_model *se = analysis_model(p->a, &series_model_ops);
	size_t n = 2 * ((size_t)reclaim_model_nstalls(analysis_reclaim(p->a), NULL) +
			(size_t)compaction_model_nruns(analysis_compaction(p->a), NULL));

	for (int i = 0; i < handoff_model_nnodes(hm); i++)
		n += 2 * ((size_t)handoff_model_nepisodes(hm, i) + (size_t)handoff_model_nkc(hm, i));
	n += (size_t)oom_model_nkills(analysis_model(p->a, &oom_model_ops)) +
	     (size_t)kill_dossier_count(p->a) +
	     (size_t)phases_model_count(analysis_model(p->a, &phases_model_ops)) + 1;
	for (int i = 0; i < series_model_count(se); i++)
		n += (size_t)series_model_get(se, i)->npts;
	for (int i = 0; i < swapclust_model_ndevs(sm); i++)
		n += SWC_NSTATES * (size_t)swapclust_model_dev(sm, i)->npts;
	for (int o = 0; o < SWC_NORDERS; o++)
		n += 2 * (size_t)swapclust_model_nctr(sm, o);
	n += 7 * (size_t)zswap_model_npoints(analysis_zswap(p->a));
	p->aev = n;
	p->ev = xreallocarray(NULL, n, sizeof(*p->ev));
}

static int ev_cmp(const void *x, const void *y)
{
	const struct pev *a = x, *b = y;
	int ca = a->tc >> 4, cb = b->tc >> 4;

	if (a->ts != b->ts)
		return a->ts < b->ts ? -1 : 1;
	if (ca != cb)
		return ca - cb;
	if (ca != 1 && a->key != b->key)
		return a->key < b->key ? -1 : 1;
	return (a->t2 > b->t2) - (a->t2 < b->t2);
}

/* ---- gathering from the models ---- */

static const char *kind_slice_name(int kind)
{
	static const char *const names[RK_NR + CR_NR] = {
		"direct reclaim", "memcg reclaim", "softlimit reclaim", "node reclaim",
		"kswapd reclaim", "other reclaim",
		"kcompactd compaction", "proactive compaction", "direct compaction",
		"khugepaged compaction", "manual compaction",
		"kcompactd compaction (unclassified)",
	};

	return kind >= 0 && kind < RK_NR + CR_NR ? names[kind] : "?";
}

/* A run's runner as the report shows it: kcompactd on a request or
 * proactive only where its wakes and sleeps were both recorded. */
static enum compact_runner run_runner(const struct pf *p, const struct compact_run *r)
{
	return compact_runner_shown(r->runner, p->kc_split);
}

/* Whether pid is a node's kcompactd (its runs go on the node's tracks). */
static int is_kcompactd(const struct analysis *a, int pid)
{
	const struct handoff_model *hm = analysis_handoff(a);

	for (int i = 0; i < handoff_model_nnodes(hm); i++)
		if (handoff_model_node(hm, i)->kcompactd_pid == pid)
			return 1;
	return 0;
}

static void gather_tasks(struct pf *p)
{
	const struct reclaim_model *rm = analysis_reclaim(p->a);
	const struct compaction_model *cm = analysis_compaction(p->a);
	int ns = reclaim_model_nstalls(rm, NULL), nr = compaction_model_nruns(cm, NULL), n = 0;
	/* the pids first (4 bytes a stall), the tasks only once each */
	int *pid = xcalloc((size_t)ns + (size_t)nr + 1, sizeof(*pid));

	for (int i = 0; i < ns; i++)
		pid[n++] = reclaim_model_stall(rm, i)->pid;
	for (int i = 0; i < nr; i++)
		if (!is_kcompactd(p->a, compaction_model_run(cm, i)->pid))
			pid[n++] = compaction_model_run(cm, i)->pid;
	qsort(pid, (size_t)n, sizeof(*pid), int_cmp);
	p->ntasks = 0;
	for (int i = 0; i < n; i++)
		if (!i || pid[i - 1] != pid[i])
			pid[p->ntasks++] = pid[i];
	p->tasks = xcalloc((size_t)p->ntasks + 1, sizeof(*p->tasks));
	for (int i = 0; i < p->ntasks; i++)
		p->tasks[i].pid = pid[i];
	free(pid);
}

/* Which kcompactd request each kswapd episode handed off to: the first
 * request after the handoff that the model credited to kswapd (a pickup
 * starts at the handoff's time, a wakeup's request right after it). */
static void gather_flows(struct pf *p, const struct handoff_model *hm, int i)
{
	int ne = handoff_model_nepisodes(hm, i), nk = handoff_model_nkc(hm, i), k = 0;
	int nid = handoff_model_node(hm, i)->nid;

	p->ks_flow[i] = xcalloc((size_t)ne + 1, sizeof(uint64_t));
	p->kc_flow[i] = xcalloc((size_t)nk + 1, sizeof(uint64_t));
	for (int e = 0; e < ne; e++) {
		const struct kswapd_episode *ep = handoff_model_episode(hm, i, e);

		if (ep->handoff != HO_WAKEUP && ep->handoff != HO_PICKUP)
			continue;
		while (k < nk && (handoff_model_kc(hm, i, k)->start < ep->handoff_ts ||
				  !handoff_model_kc(hm, i, k)->for_kswapd || p->kc_flow[i][k]))
			k++;
		if (k == nk)
			break;
		/* unique among the trace's flows (their own id space) */
		p->ks_flow[i][e] = p->kc_flow[i][k] = (uint64_t)p->salt << 48 |
						      (uint64_t)(unsigned)nid << 32 | (uint64_t)(e + 1);
		p->st->flows++;
	}
}

static void gather_nodes(struct pf *p)
{
	const struct handoff_model *hm = analysis_handoff(p->a);
	const struct compaction_model *cm = analysis_compaction(p->a);
	int nn = handoff_model_nnodes(hm), nr = compaction_model_nruns(cm, NULL);
	uint64_t last = p->info->last_ts;

	p->ks_flow = xcalloc((size_t)nn + 1, sizeof(*p->ks_flow));
	p->kc_flow = xcalloc((size_t)nn + 1, sizeof(*p->kc_flow));
	for (int i = 0; i < nn; i++) {
		const struct handoff_node_stats *ns = handoff_model_node(hm, i);
		int ne = handoff_model_nepisodes(hm, i), nk = handoff_model_nkc(hm, i);
		uint32_t node = node_track(p, ns->nid), ks = 0, kc = 0, kr = 0;

		gather_flows(p, hm, i);
		if (ne)
			ks = track_new(p, node, "kswapd");
		for (int e = 0; e < ne; e++) {
			const struct kswapd_episode *ep = handoff_model_episode(hm, i, e);

			add_slice(p, ks, ep->start, ep->end ? ep->end : last, S_KSWAPD,
				  (uint32_t)e, (uint16_t)i);
		}
		if (nk)
			kc = track_new(p, node, "kcompactd requests");
		for (int e = 0; e < nk; e++) {
			const struct kcompactd_episode *k = handoff_model_kc(hm, i, e);

			add_slice(p, kc, k->start, k->end ? k->end : last, S_KC, (uint32_t)e,
				  (uint16_t)i);
		}
		/* kcompactd's compaction runs: the runs of its task */
		for (int r = 0; ns->kcompactd_pid > 0 && r < nr; r++) {
			const struct compact_run *cr = compaction_model_run(cm, r);

			if (cr->pid != ns->kcompactd_pid)
				continue;
			if (!kr)
				kr = track_new(p, node, "kcompactd runs");
			add_slice(p, kr, cr->begin, cr->begin + cr->dur, S_KRUN, (uint32_t)r,
				  (uint16_t)i);
		}
	}
}

static void gather_stalls(struct pf *p)
{
	const struct reclaim_model *rm = analysis_reclaim(p->a);
	const struct compaction_model *cm = analysis_compaction(p->a);
	int ns = reclaim_model_nstalls(rm, NULL), nr = compaction_model_nruns(cm, NULL);

	for (int i = 0; i < ns; i++) {
		const struct reclaim_stall *s = reclaim_model_stall(rm, i);
		int k = (unsigned)s->kind < RK_NR ? (int)s->kind : RK_OTHER;
		uint32_t t = task_kind_track(p, s->pid, s->comm, k, kind_slice_name(k));

		if (t)
			add_slice(p, t, s->begin, s->begin + s->dur, S_STALL, (uint32_t)i,
				  (uint16_t)k);
	}
	for (int i = 0; i < nr; i++) {
		const struct compact_run *r = compaction_model_run(cm, i);
		enum compact_runner cr = run_runner(p, r);
		int k = RK_NR + ((unsigned)cr < CR_NR ? (int)cr : CR_MANUAL);
		uint32_t t;

		if (is_kcompactd(p->a, r->pid))
			continue;
		t = task_kind_track(p, r->pid, r->comm, k, kind_slice_name(k));
		if (t)
			add_slice(p, t, r->begin, r->begin + r->dur, S_RUN, (uint32_t)i,
				  (uint16_t)k);
	}
}

static void gather_instants(struct pf *p)
{
	const struct oom_model *om = analysis_model(p->a, &oom_model_ops);
	const struct phases_model *pm = analysis_model(p->a, &phases_model_ops);
	int n = oom_model_nkills(om);
	uint32_t t = 0;
	uint64_t ts;

	for (int i = 0; i < n; i++) {
		if (!t)
			t = track_new(p, 0, "OOM kills");
		add_instant(p, t, oom_model_kill(om, i)->ts, S_OOM, (uint32_t)i);
	}
	/* every kill, whoever the killer, with its dossier (args_kill) */
	t = 0;
	for (int i = 0; i < kill_dossier_count(p->a); i++) {
		if (!t)
			t = track_new(p, 0, "kills");
		add_instant(p, t, oom_model_any(om, i)->ts, S_KILL, (uint32_t)i);
	}
	t = 0;
	for (int i = 0; i < phases_model_count(pm); i++) {
		if (!t)
			t = track_new(p, 0, "phases");
		add_instant(p, t, phases_model_get(pm, i)->start_ts, S_PHASE, (uint32_t)i);
	}
	/* a flight-recorder file's trigger, when its trace time is known */
	if (!td_meta_u64(analysis_private_meta(p->a), "trigger_ns", &ts) && ts)
		add_instant(p, track_new(p, 0, "triggers"), ts, S_TRIGGER, 0);
}

/*
 * The findings (findings.h), each on a track of its own under "findings"
 * (they may overlap, and slices on one track must nest): a slice over
 * the time it covers, an instant where it has one time, and an instant
 * at the first event, its time stated as not known, where it has none.
 */
static void gather_findings(struct pf *p)
{
	uint32_t parent = 0;

	p->fs = findings_build(p->a);
	for (int i = 0; i < p->fs->n; i++) {
		const struct finding *f = &p->fs->f[i];
		uint64_t t0 = p->info->first_ts;
		uint32_t t;

		if (!parent)
			parent = track_new(p, 0, "findings");
		t = track_new(p, parent, f->rule->id);
		if (f->has_t_start && f->has_t_end && f->t_end_ns > f->t_start_ns)
			add_slice(p, t, t0 + f->t_start_ns, t0 + f->t_end_ns, S_FINDING,
				  (uint32_t)i, 0);
		else
			add_instant(p, t, t0 + (f->has_t_start ? f->t_start_ns : 0), S_FINDING,
				    (uint32_t)i);
	}
}

/* Sampled counters: zones, PSI, memcg (the series model). */
static void gather_series(struct pf *p)
{
	const struct series_model *m = analysis_model(p->a, &series_model_ops);
	uint32_t psi = 0, memcg = 0;

	for (int i = 0; i < series_model_count(m); i++) {
		const struct series *s = series_model_get(m, i);
		char name[160], axis[96];
		uint32_t t, parent;
		const char *unit;
		int nvals = 0;

		for (int k = 0; k < s->npts; k++)
			/* a limit the kernel reports as none (v1's LONG_MAX
			 * rounded to pages) is no figure to draw */
			nvals += s->source != SRC_MEMCG || s->pts[k].v < (INT64_C(1) << 60);
		if (!nvals)
			continue;
		switch (s->source) {
		case SRC_ZONE:
			parent = node_track(p, s->node);
			snprintf(name, sizeof(name), "%s %s%s", s->instance, s->key,
				 strcmp(s->key, "free") ? " watermark" : " pages");
			snprintf(axis, sizeof(axis), "node %d %s", s->node, s->instance);
			unit = "pages";
			break;
		case SRC_PSI:
			if (!psi)
				psi = track_new(p, 0, "PSI memory");
			parent = psi;
			snprintf(name, sizeof(name), "psi %s%s%s", s->instance,
				 *s->instance ? " " : "", s->key);
			snprintf(axis, sizeof(axis), "psi %s", strstr(s->key, "total") ? "total" : "avg");
			unit = strstr(s->key, "total") ? "us" : "%";
			break;
		default:
			if (!memcg)
				memcg = track_new(p, 0, "memcg");
			parent = memcg;
			snprintf(name, sizeof(name), "memcg %s%s%s", s->instance,
				 *s->instance ? " " : "", s->key);
			snprintf(axis, sizeof(axis), "memcg bytes");
			unit = "bytes";
			break;
		}
		t = counter_track(p, parent, name, unit, axis);
		for (int k = 0; k < s->npts; k++)
			if (s->source != SRC_MEMCG || s->pts[k].v < (INT64_C(1) << 60))
				add_counter(p, t, s->pts[k].ts, s->pts[k].v, s->scale);
	}
}

/*
 * A counter since boot (mTHP swpout, zswpout...) drawn as what it rose by
 * per second between two sample sets, as the report and plot give it: a
 * staircase since boot says nothing of when. Each interval's rate from
 * its first set on, in hundredths (scale 2), and the last interval's
 * again at the last set, where the intervals end. A set without the
 * counter (v < 0) is passed over; where it fell (no boot in between can
 * make it) the interval draws nothing.
 */
struct rate_track {
	uint32_t track;
	uint64_t ts;		/* the last set with the counter */
	int64_t v, rate;	/* its value; the last interval's rate */
	int have, nrates;
};

static void rate_add(struct pf *p, struct rate_track *r, uint64_t ts, int64_t v)
{
	if (v < 0)
		return;
	if (r->have && ts > r->ts && v >= r->v) {
		r->rate = (int64_t)((double)(v - r->v) * 1e11 / (double)(ts - r->ts) + 0.5);
		add_counter(p, r->track, r->ts, r->rate, 2);
		r->nrates++;
	}
	r->ts = ts;
	r->v = v;
	r->have = 1;
}

static void rate_end(struct pf *p, struct rate_track *r)
{
	if (r->nrates)
		add_counter(p, r->track, r->ts, r->rate, 2);
}

static void gather_swap(struct pf *p)
{
	const struct swapclust_model *m = analysis_swapclust(p->a);
	uint32_t page_kb = analysis_info(p->a)->page_size / 1024;
	uint32_t mthp = 0;

	for (int i = 0; i < swapclust_model_ndevs(m); i++) {
		const struct swc_dev *d = swapclust_model_dev(m, i);
		char name[128], axis[96];
		uint32_t dev;

		if (d->npts < 1)
			continue;
		snprintf(name, sizeof(name), "swap device %d%s%s%s", d->type, *d->name ? " (" : "",
			 d->name, *d->name ? ")" : "");
		dev = track_new(p, 0, name);
		snprintf(axis, sizeof(axis), "swap %d clusters", d->type);
		for (int s = 0; s < SWC_NSTATES; s++) {
			uint32_t t = 0;

			snprintf(name, sizeof(name), "swap %d clusters %s", d->type,
				 swc_state_name((enum swc_state)s));
			/* while some clusters are unknown the other states' counts
			 * are only lower bounds: they are drawn where every cluster
			 * is known, the unknown ones always */
			for (int k = 0; k < d->npts; k++) {
				if (s != SWC_UNKNOWN && d->pts[k].n[SWC_UNKNOWN])
					continue;
				if (!t) {
					t = counter_track(p, dev, name, "clusters", axis);
					if (s != SWC_UNKNOWN)
						p->tr[t - 1].desc = xstrdup(
							"clusters in this state, at the points where "
							"no cluster of the device was unknown");
				}
				add_counter(p, t, d->pts[k].ts, d->pts[k].n[s], 0);
			}
		}
	}
	for (int o = 1; o < SWC_NORDERS; o++) {
		int n = swapclust_model_nctr(m, o);
		char name[64], axis[64];
		struct rate_track sw = { 0 }, fb = { 0 };

		if (n < 2)	/* a rate needs two sets */
			continue;
		if (!mthp)
			mthp = track_new(p, 0, "mTHP swap-out");
		snprintf(axis, sizeof(axis), "mthp %ukB", page_kb << o);
		snprintf(name, sizeof(name), "%ukB swpout", page_kb << o);
		sw.track = counter_track(p, mthp, name, "folios/s", axis);
		snprintf(name, sizeof(name), "%ukB swpout_fallback", page_kb << o);
		fb.track = counter_track(p, mthp, name, "folios/s", axis);
		sw.have = fb.have = sw.nrates = fb.nrates = 0;
		for (int k = 0; k < n; k++) {
			const struct swc_ctr_point *c = swapclust_model_ctr(m, o, k);

			rate_add(p, &sw, c->ts, c->swpout);
			rate_add(p, &fb, c->ts, c->fallback);
		}
		rate_end(p, &sw);
		rate_end(p, &fb);
	}
}

static void gather_zswap(struct pf *p)
{
	const struct zswap_model *m = analysis_zswap(p->a);
	static const struct {
		const char *name, *unit;
		size_t off;
	} f[] = {
		{ "zswap stored pages", "pages", offsetof(struct zsw_point, stored_pages) },
		{ "zswap pool size", "bytes", offsetof(struct zsw_point, pool_bytes) },
		{ "zswap pool limit", "pages", offsetof(struct zsw_point, limit_pages) },
		/* counters since boot: rates (rate_add) */
		{ "zswap stores (zswpout)", "pages/s", offsetof(struct zsw_point, zswpout) },
		{ "zswap loads (zswpin)", "pages/s", offsetof(struct zsw_point, zswpin) },
		{ "zswap written back (zswpwb)", "pages/s", offsetof(struct zsw_point, zswpwb) },
		{ "zswap rejects", "stores/s", offsetof(struct zsw_point, rejects) },
	};
	int n = zswap_model_npoints(m);
	uint32_t parent = 0;

	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		int rate = !!strstr(f[i].unit, "/s"), valid = 0;
		struct rate_track r = { 0 };
		uint32_t t = 0;

		for (int k = 0; k < n; k++) {
			int64_t v;

			memcpy(&v, (const char *)zswap_model_point(m, k) + f[i].off, sizeof(v));
			valid += v >= 0;	/* < 0: the kernel has no such counter */
		}
		if (valid < 1 + rate)
			continue;
		for (int k = 0; k < n; k++) {
			const struct zsw_point *z = zswap_model_point(m, k);
			int64_t v;

			memcpy(&v, (const char *)z + f[i].off, sizeof(v));
			if (!parent)
				parent = track_new(p, 0, "zswap");
			if (!t)
				t = r.track = counter_track(p, parent, f[i].name, f[i].unit, NULL);
			if (rate)
				rate_add(p, &r, z->ts, v);
			else if (v >= 0)
				add_counter(p, t, z->ts, v, 0);
		}
		rate_end(p, &r);
	}
}

/* The stacks of the stalls (record -T), sorted to be found by stall. */
static int ss_cmp(const void *x, const void *y)
{
	const struct stall_stack *a = x, *b = y;

	if (a->kind != b->kind)
		return (int)a->kind - (int)b->kind;
	if (a->pid != b->pid)
		return (a->pid > b->pid) - (a->pid < b->pid);
	return (a->begin > b->begin) - (a->begin < b->begin);
}

static void gather_stacks(struct pf *p)
{
	p->stacks = analysis_model(p->a, &stacks_model_ops);
	p->nss = stacks_model_nstall_stacks(p->stacks, NULL);
	p->ss = xcalloc((size_t)p->nss + 1, sizeof(*p->ss));
	for (int i = 0; i < p->nss; i++)
		p->ss[i] = *stacks_model_stall_stack(p->stacks, i);
	qsort(p->ss, (size_t)p->nss, sizeof(*p->ss), ss_cmp);
}

static const struct kstack *stall_stack(struct pf *p, enum stack_kind k, int pid, uint64_t begin)
{
	struct stall_stack key = { begin, pid, k, 0 }, *s;

	s = bsearch(&key, p->ss, (size_t)p->nss, sizeof(*p->ss), ss_cmp);
	return s ? stacks_model_stack(p->stacks, s->stack) : NULL;
}

/* ---- interning ---- */

static uint64_t str_hash(const char *s)
{
	return fnv64_str(FNV64_BASIS, s);
}

static void interns_grow(struct interns *t)
{
	struct intern *old = t->slot;
	size_t ocap = t->cap;

	t->cap = t->cap ? t->cap * 2 : 64;
	t->slot = xcalloc(t->cap, sizeof(*t->slot));
	for (size_t i = 0; i < ocap; i++) {
		size_t j;

		if (!old[i].iid)
			continue;
		for (j = str_hash(old[i].s) & (t->cap - 1); t->slot[j].iid; j = (j + 1) & (t->cap - 1))
			;
		t->slot[j] = old[i];
	}
	free(old);
}

/* The iid of s in table k; a new one goes out with the current packet. */
static uint64_t intern(struct pf *p, int k, const char *s)
{
	struct interns *t = &p->in[k];
	size_t j;

	if (2 * (t->n + 1) > t->cap)
		interns_grow(t);
	for (j = str_hash(s) & (t->cap - 1); t->slot[j].iid; j = (j + 1) & (t->cap - 1))
		if (!strcmp(t->slot[j].s, s))
			return t->slot[j].iid;
	t->slot[j].s = xstrdup(s);
	t->slot[j].iid = ++t->next_iid;	/* iids start at 1 */
	t->n++;
	if (t->nfresh == t->afresh) {
		t->afresh = t->afresh ? t->afresh * 2 : 16;
		t->fresh = xreallocarray(t->fresh, t->afresh, sizeof(*t->fresh));
	}
	t->fresh[t->nfresh++] = t->slot[j];
	return t->slot[j].iid;
}

/* The strings first used in this packet, as its InternedData. */
static void write_interned(struct pf *p)
{
	static const int field[IK_NR] = { ID_EVENT_NAMES, ID_DEBUG_NAMES };

	if (!p->in[IK_EVENT].nfresh && !p->in[IK_DEBUG].nfresh)
		return;
	pb_begin(&p->pb, TP_INTERNED);
	for (int k = 0; k < IK_NR; k++) {
		for (size_t i = 0; i < p->in[k].nfresh; i++) {
			pb_begin(&p->pb, (uint32_t)field[k]);
			pb_uint(&p->pb, IN_IID, p->in[k].fresh[i].iid);
			pb_string(&p->pb, IN_NAME, p->in[k].fresh[i].s);
			pb_end(&p->pb);
		}
		p->in[k].nfresh = 0;
	}
	pb_end(&p->pb);
}

/* ---- writing ---- */

static int flush(struct pf *p, int force, char **err)
{
	const char *b = p->pb.sb.buf;
	size_t n = p->pb.sb.len;

	if (!force && n < FLUSH_AT)
		return 0;
	while (n) {
		ssize_t w = write(p->fd, b, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return set_err(err, "cannot write: %s", w < 0 ? strerror(errno) : "no space");
		b += w;
		n -= (size_t)w;
	}
	p->st->bytes += p->pb.sb.len;
	pb_reset(&p->pb);
	return 0;
}

/* needs: the packet refers to interned strings (Perfetto skips such
 * packets on a sequence whose state was not cleared first). */
static void packet_begin(struct pf *p, uint64_t ts, int needs)
{
	unsigned flags = needs ? SEQ_NEEDS_INCREMENTAL_STATE : 0;

	pb_begin(&p->pb, TRACE_PACKET);
	pb_uint(&p->pb, TP_TIMESTAMP, (uint64_t)((int64_t)ts + p->offset));
	pb_uint(&p->pb, TP_SEQ_ID, SEQ_ID + p->salt);
	if (!p->npackets)	/* the first on its sequence */
		flags |= SEQ_INCREMENTAL_STATE_CLEARED;
	if (flags)
		pb_uint(&p->pb, TP_SEQ_FLAGS, flags);
	if (!p->npackets)
		pb_uint(&p->pb, TP_FIRST_ON_SEQ, 1);
	p->npackets++;
	p->st->packets++;
}

static void write_track(struct pf *p, const struct ptrack *t, uint64_t ts)
{
	struct pb *b = &p->pb;

	packet_begin(p, ts, 0);
	pb_begin(b, TP_TRACK_DESCRIPTOR);
	pb_uint(b, TD_UUID, t->uuid);
	if (t->parent)
		pb_uint(b, TD_PARENT, t->parent);
	if (t->name)
		pb_string(b, TD_NAME, t->name);
	if (t->desc)
		pb_string(b, TD_DESCRIPTION, t->desc);
	if (t->pid > 0 && !t->thread) {
		pb_begin(b, TD_PROCESS);
		pb_int(b, PD_PID, t->pid);
		if (t->comm)
			pb_string(b, PD_NAME, t->comm);
		pb_end(b);
	}
	if (t->pid > 0 && t->thread) {
		pb_begin(b, TD_THREAD);
		pb_int(b, THD_PID, t->pid);
		pb_int(b, THD_TID, t->pid);
		if (t->comm)
			pb_string(b, THD_NAME, t->comm);
		pb_end(b);
	}
	if (t->unit) {
		pb_begin(b, TD_COUNTER);
		pb_string(b, CD_UNIT_NAME, t->unit);
		if (t->axis)
			pb_string(b, CD_AXIS_SHARE, t->axis);
		pb_end(b);
	}
	pb_end(b);
	pb_end(b);
	p->st->tracks++;
}

/* The stall's kernel stack, outermost frame first (Perfetto's order),
 * without the tracepoint's own frames. */
static void write_stack(struct pf *p, const struct kstack *s)
{
	char buf[160];

	if (!s)
		return;
	pb_begin(&p->pb, TE_CALLSTACK);
	for (int i = s->nframes - 1; i >= kstack_first_frame(s); i--) {
		if (s->func[i])
			snprintf(buf, sizeof(buf), "%s+0x%llx", s->func[i],
				 (unsigned long long)s->off[i]);
		else
			snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)s->addr[i]);
		pb_begin(&p->pb, 1);	/* InlineCallstack.frames */
		pb_string(&p->pb, 1, buf);	/* Frame.function_name */
		pb_end(&p->pb);
	}
	pb_end(&p->pb);
}

static void arg_u(struct pf *p, const char *name, uint64_t v)
{
	pb_begin(&p->pb, TE_DEBUG);
	pb_uint(&p->pb, DA_NAME_IID, intern(p, IK_DEBUG, name));
	pb_uint(&p->pb, DA_UINT, v);
	pb_end(&p->pb);
}

static void arg_i(struct pf *p, const char *name, int64_t v)
{
	pb_begin(&p->pb, TE_DEBUG);
	pb_uint(&p->pb, DA_NAME_IID, intern(p, IK_DEBUG, name));
	pb_int(&p->pb, DA_INT, v);
	pb_end(&p->pb);
}

static void arg_s(struct pf *p, const char *name, const char *v)
{
	pb_begin(&p->pb, TE_DEBUG);
	pb_uint(&p->pb, DA_NAME_IID, intern(p, IK_DEBUG, name));
	pb_string(&p->pb, DA_STRING, v);
	pb_end(&p->pb);
}

static void args_wmark(struct pf *p, const char *prefix, const struct wmark_snap *w)
{
	char key[64];

	if (w->state == WM_UNKNOWN)
		return;
	snprintf(key, sizeof(key), "%s.state", prefix);
	arg_s(p, key, wmark_state_name(w->state));
	snprintf(key, sizeof(key), "%s.zone", prefix);
	arg_s(p, key, w->zone);
	snprintf(key, sizeof(key), "%s.free_pages", prefix);
	arg_i(p, key, w->free);
}

static void args_kswapd(struct pf *p, const struct pev *e)
{
	const struct handoff_model *hm = analysis_handoff(p->a);
	const struct kswapd_episode *ep = handoff_model_episode(hm, e->sub, (int)e->ref);
	int shrink = analysis_traced(p->a, REC_SHRINK_INACTIVE, -1);
	int balance = analysis_traced(p->a, REC_BALANCE_END, -1);
	char fl[64];

	arg_i(p, "order", ep->order);
	arg_i(p, "classzone", ep->zid);
	arg_u(p, "wakeups", ep->wakeups);
	if (*ep->waker)
		arg_s(p, "waker", ep->waker);
	arg_u(p, "rebalances", ep->rebalances);
	/* left out, not 0, where the events behind a figure were not recorded */
	if (shrink) {
		arg_u(p, "scanned_pages", ep->scanned);
		arg_u(p, "reclaimed_pages", ep->reclaimed);
	}
	if (balance) {
		arg_u(p, "balance_runs", ep->balance_runs);
		arg_u(p, "balance_reclaimed_pages", ep->balance_reclaimed);
	}
	if (ep->balance_order >= 0)
		arg_i(p, "balance_order", ep->balance_order);
	arg_s(p, "handoff", handoff_kind_name(ep->handoff));
	if (ep->handoff == HO_WAKEUP || ep->handoff == HO_PICKUP)
		arg_i(p, "handoff_order", ep->handoff_order);
	if (analysis_traced(p->a, REC_RECLAIM_BEGIN, -1))
		arg_u(p, "stalls_while_kcompactd_slept", ep->stalls);
	arg_s(p, "flags", handoff_flags_str(ep->flags, fl, sizeof(fl)));
	args_wmark(p, "wmark_start", &ep->wm_start);
	args_wmark(p, "wmark_low", &ep->wm_low);
	args_wmark(p, "wmark_end", &ep->wm_end);
	if (p->ks_flow[e->sub][e->ref])
		pb_fixed64(&p->pb, TE_FLOW, p->ks_flow[e->sub][e->ref]);
}

static void args_kc(struct pf *p, const struct pev *e)
{
	const struct handoff_model *hm = analysis_handoff(p->a);
	const struct kcompactd_episode *k = handoff_model_kc(hm, e->sub, (int)e->ref);

	arg_i(p, "order", k->order);
	arg_s(p, "via", kc_via_name(k->via));
	arg_u(p, "runs", k->runs);
	arg_u(p, "success", k->success);
	if (k->last_status >= 0)
		arg_s(p, "last_status", compact_status_name(k->last_status));
	arg_i(p, "for_kswapd", k->for_kswapd);
	if (p->kc_flow[e->sub][e->ref])
		pb_fixed64(&p->pb, TE_TERM_FLOW, p->kc_flow[e->sub][e->ref]);
}

static void args_run(struct pf *p, const struct pev *e)
{
	const struct compact_run *r = compaction_model_run(analysis_compaction(p->a),
							   (int)e->ref);

	arg_s(p, "runner", compact_runner_name(run_runner(p, r)));
	if (r->order >= 0)
		arg_i(p, "order", r->order);
	arg_s(p, "status", compact_status_name(r->status));
	arg_u(p, "zone_start_pfn", r->zone_start);
	arg_i(p, "pid", r->pid);
	if (e->src == S_RUN && r->runner == CR_DIRECT)
		write_stack(p, stall_stack(p, SK_DIRECT_COMPACT, r->pid, r->begin));
}

static void args_stall(struct pf *p, const struct pev *e)
{
	const struct reclaim_stall *s = reclaim_model_stall(analysis_reclaim(p->a), (int)e->ref);

	if (s->order >= 0)
		arg_i(p, "order", s->order);
	arg_u(p, "reclaimed_pages", s->reclaimed);
	arg_i(p, "pid", s->pid);
	if (s->kind == RK_DIRECT || s->kind == RK_MEMCG)
		write_stack(p, stall_stack(p, s->kind == RK_DIRECT ? SK_DIRECT_RECLAIM :
					   SK_MEMCG_RECLAIM, s->pid, s->begin));
}

static void args_finding(struct pf *p, const struct pev *e)
{
	const struct finding *f = &p->fs->f[e->ref];
	char name[24], text[400];

	arg_s(p, "id", f->rule->id);
	arg_s(p, "severity", finding_severity_name(f->severity));
	arg_u(p, "count", f->count);
	arg_s(p, "count_unit", f->count_unit ? f->count_unit : "");
	arg_s(p, "summary", f->summary);
	if (!f->has_t_start)
		arg_s(p, "time", "not known");
	for (int k = 0; k < f->nev; k++) {
		snprintf(name, sizeof(name), "evidence_%d", k + 1);
		snprintf(text, sizeof(text), "%s (%s; section %s)", f->ev[k].figure,
			 f->ev[k].source, f->ev[k].section);
		arg_s(p, name, text);
	}
	arg_s(p, "mechanism", f->mechanism);
}

static void args_oom(struct pf *p, const struct pev *e)
{
	const struct oom_kill *k = oom_model_kill(analysis_model(p->a, &oom_model_ops),
						  (int)e->ref);
	const char *cn = oom_constraint_name(k->constraint);

	if (k->pid >= 0)
		arg_i(p, "victim_pid", k->pid);
	if (*k->comm)
		arg_s(p, "victim_comm", k->comm);
	arg_i(p, "killed_from_pid", k->by_pid);
	if (*k->by_comm)
		arg_s(p, "killed_from_comm", k->by_comm);
	if (k->anon_rss_kb >= 0)
		arg_i(p, "anon_rss_kb", k->anon_rss_kb);
	if (k->file_rss_kb >= 0)
		arg_i(p, "file_rss_kb", k->file_rss_kb);
	if (k->shmem_rss_kb >= 0)
		arg_i(p, "shmem_rss_kb", k->shmem_rss_kb);
	if (k->total_vm_kb >= 0)
		arg_i(p, "total_vm_kb", k->total_vm_kb);
	if (k->oom_score_adj != INT64_MIN)
		arg_i(p, "oom_score_adj", k->oom_score_adj);
	if (cn)
		arg_s(p, "constraint_inferred", cn);
	if (k->memcg_known)
		arg_u(p, "memcg_id", k->memcg_id);
}

/* A kill's dossier, a string argument per line of kill-dossier-lines.h
 * under its key ("-" where not known, as the lines say); the largest
 * tasks, one line each under one key there, numbered here so that no
 * two arguments share a name. */
static void args_kill(struct pf *p, const struct pev *e)
{
	struct kill_dossier d;
	struct kd_line l[KD_LINES_MAX];
	int n, cand = 0;
	char key[32];

	if (kill_dossier_get(p->a, (int)e->ref, &d))
		return;
	n = kill_dossier_lines(&d, l, KD_LINES_MAX);
	for (int i = 0; i < n; i++) {
		if (strcmp(l[i].key, "candidate")) {
			arg_s(p, l[i].key, l[i].value);
			continue;
		}
		snprintf(key, sizeof(key), "candidate_%d", ++cand);
		arg_s(p, key, l[i].value);
	}
}

/* "kill: memcg-oom victim 1234 stress": the killer and the victim, so the
 * track reads without opening each event. */
static const char *kill_name(struct pf *p, const struct pev *e, char *buf, size_t len)
{
	const struct oom_kill *k = oom_model_any(analysis_model(p->a, &oom_model_ops),
						 (int)e->ref);
	char killer[48];

	oom_kill_killer(k, killer, (int)sizeof(killer));
	if (k->pid >= 0)
		snprintf(buf, len, "kill: %s victim %d %s", killer, k->pid,
			 *k->comm ? k->comm : "-");
	else
		snprintf(buf, len, "kill: %s victim %s", killer, *k->comm ? k->comm : "-");
	return buf;
}

/* A metadata value runs to its line's end. */
static const char *meta_str(struct pf *p, const char *key)
{
	const char *v = td_meta_value(analysis_private_meta(p->a), key);

	return v ? v : "";
}

static size_t meta_len(struct pf *p, const char *key)
{
	const char *v = meta_str(p, key);

	return strcspn(v, "\n");
}

static const char *slice_name(struct pf *p, const struct pev *e, char *buf, size_t len)
{
	switch (e->src) {
	case S_KSWAPD:
		return "kswapd episode";
	case S_KC:
		snprintf(buf, len, "kcompactd %s",
			 kc_via_name(handoff_model_kc(analysis_handoff(p->a), e->sub,
						      (int)e->ref)->via));
		return buf;
	case S_RUN:	/* a task's own */
		return kind_slice_name(e->sub);
	case S_KRUN:
		snprintf(buf, len, "compaction run (%s)",
			 compact_runner_name(run_runner(p,
				compaction_model_run(analysis_compaction(p->a), (int)e->ref))));
		return buf;
	case S_STALL:
		return kind_slice_name(e->sub);
	case S_OOM:
		return "OOM kill";
	case S_KILL:
		return kill_name(p, e, buf, len);
	case S_FINDING:
		snprintf(buf, len, "finding %s", p->fs->f[e->ref].rule->id);
		return buf;
	case S_TRIGGER:
		snprintf(buf, len, "trigger %.*s", (int)meta_len(p, "trigger_name"),
			 meta_str(p, "trigger_name"));
		return buf;
	case S_PHASE:
		snprintf(buf, len, "phase %s",
			 phases_model_get(analysis_model(p->a, &phases_model_ops),
					  (int)e->ref)->name);
		return buf;
	}
	return "?";
}

static void write_event(struct pf *p, const struct pev *e)
{
	struct pb *b = &p->pb;
	int type = e->tc & 15;
	char buf[128];

	packet_begin(p, e->ts, type != T_COUNTER && type != T_END);
	pb_begin(b, TP_TRACK_EVENT);
	pb_uint(b, TE_TYPE, (uint64_t)type);
	pb_uint(b, TE_TRACK, p->tr[e->track - 1].uuid);
	if (type == T_COUNTER) {
		if (e->sub) {	/* scaled: PSI averages in hundredths */
			double div = 1;

			for (int i = 0; i < e->sub; i++)
				div *= 10;
			/* one division: 181 / 100.0 is the double nearest 1.81 */
			pb_double(b, TE_DOUBLE_COUNTER, (double)(int64_t)e->key / div);
		} else {
			pb_int(b, TE_COUNTER, (int64_t)e->key);
		}
		p->st->counter_values++;
	} else if (type != T_END) {
		pb_uint(b, TE_NAME_IID, intern(p, IK_EVENT, slice_name(p, e, buf, sizeof(buf))));
		switch (e->src) {
		case S_KSWAPD: args_kswapd(p, e); break;
		case S_KC: args_kc(p, e); break;
		case S_KRUN:
		case S_RUN: args_run(p, e); break;
		case S_STALL: args_stall(p, e); break;
		case S_OOM: args_oom(p, e); break;
		case S_KILL: args_kill(p, e); break;
		case S_FINDING: args_finding(p, e); break;
		case S_TRIGGER: {
			char cond[128];

			snprintf(cond, sizeof(cond), "%.*s", (int)meta_len(p, "trigger"),
				 meta_str(p, "trigger"));
			arg_s(p, "condition", cond);
			break;
		}
		default: break;
		}
		if (type == T_BEGIN)
			p->st->slices++;
		else
			p->st->instants++;
	}
	pb_end(b);
	write_interned(p);
	pb_end(b);
}

static void pf_free(struct pf *p)
{
	int nn = handoff_model_nnodes(analysis_handoff(p->a));

	for (int i = 0; i < p->ntr; i++) {
		free(p->tr[i].name);
		free(p->tr[i].desc);
		free(p->tr[i].comm);
		free(p->tr[i].axis);
	}
	for (int i = 0; p->ks_flow && i < nn; i++) {
		free(p->ks_flow[i]);
		free(p->kc_flow[i]);
	}
	free(p->ks_flow);
	free(p->kc_flow);
	free(p->tr);
	free(p->ev);
	free(p->tasks);
	free(p->ss);
	free(p->nodes);
	if (p->fs)
		findings_free(p->fs);
	for (int k = 0; k < IK_NR; k++) {
		for (size_t i = 0; i < p->in[k].cap; i++)
			free(p->in[k].slot[i].s);
		free(p->in[k].slot);
		free(p->in[k].fresh);
	}
	pb_release(&p->pb);
}

int perfetto_write(int fd, const struct analysis *a, struct perfetto_stats *st, char **err)
{
	struct perfetto_stats dummy;

	if (!st)
		st = &dummy;
	memset(st, 0, sizeof(*st));
	return perfetto_write_run(fd, a, 0, 0, st, err);
}

int perfetto_write_run(int fd, const struct analysis *a, unsigned run, int64_t offset,
		       struct perfetto_stats *st, char **err)
{
	struct pf p = { 0 };
	uint64_t first;
	int r = -1;

	p.salt = run;
	p.offset = offset;
	p.a = a;
	p.kc_split = analysis_traced(a, REC_KCOMPACTD_WAKE, -1) &&
		     analysis_traced(a, REC_KCOMPACTD_SLEEP, -1);
	p.info = analysis_info(a);
	p.fd = fd;
	p.st = st;
	ev_reserve(&p);
	gather_tasks(&p);
	gather_stacks(&p);
	gather_nodes(&p);
	gather_stalls(&p);
	gather_instants(&p);
	gather_findings(&p);
	gather_series(&p);
	gather_swap(&p);
	gather_zswap(&p);
	qsort(p.ev, p.nev, sizeof(*p.ev), ev_cmp);

	/* the descriptors first, at the first time stamp, so that time
	 * stamps never go back on the sequence */
	first = p.nev ? p.ev[0].ts : p.info->first_ts;
	if (p.info->first_ts && p.info->first_ts < first)
		first = p.info->first_ts;
	for (int i = 0; i < p.ntr; i++)
		write_track(&p, &p.tr[i], first);
	for (size_t i = 0; i < p.nev; i++) {
		write_event(&p, &p.ev[i]);
		if (flush(&p, 0, err))
			goto out;
	}
	if (flush(&p, 1, err))
		goto out;
	r = 0;
out:
	pf_free(&p);
	return r;
}

/* The history's own track: a slice per run and per gap, with plain
 * names (no interned strings: one sequence of its own). */
int perfetto_write_history(int fd, const struct perfetto_span *spans, int n, unsigned seq,
			   struct perfetto_stats *st, char **err)
{
	struct pf p = { 0 };
	struct ptrack t = { 0 };
	uint64_t first = UINT64_MAX;
	int r = -1;

	p.fd = fd;
	p.st = st;
	p.salt = seq;
	for (int i = 0; i < n; i++)
		if (spans[i].from < first)
			first = spans[i].from;
	if (!n)
		return 0;
	t.uuid = UUID_BASE + ((uint64_t)seq << 32);
	t.name = (char *)"history: runs and gaps (not recorded)";
	write_track(&p, &t, first);
	for (int i = 0; i < n; i++) {
		for (int end = 0; end < 2; end++) {
			packet_begin(&p, end ? spans[i].to : spans[i].from, 0);
			pb_begin(&p.pb, TP_TRACK_EVENT);
			pb_uint(&p.pb, TE_TYPE, end ? T_END : T_BEGIN);
			pb_uint(&p.pb, TE_TRACK, t.uuid);
			if (!end)
				pb_string(&p.pb, TE_NAME, spans[i].name);
			pb_end(&p.pb);
			pb_end(&p.pb);
		}
		st->slices++;
		if (flush(&p, 0, err))
			goto out;
	}
	if (flush(&p, 1, err))
		goto out;
	r = 0;
out:
	pb_release(&p.pb);
	return r;
}
