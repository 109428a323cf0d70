// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Event triggers' state (see trigger-events.h): open reclaims and
 * compactions by pid in a fixed open-addressing table, kswapd episodes
 * per node, and per trigger what it has seen since its last check.
 */
#include "config.h"
#include "trigger-events.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OPEN_SLOTS 4096		/* power of two */
#define MAX_NODES 64

struct open_op {
	int pid;		/* 0: free */
	int told;		/* a check fired on it while it ran */
	int memcg;		/* a memcg reclaim (else direct) */
	uint64_t ts;
};

struct node_state {
	uint64_t awake_since;	/* 0: asleep */
	uint64_t episode;	/* counts wakes from sleep */
	int order;		/* the highest order asked in this episode */
	int handoff;
	unsigned no_handoff;	/* episodes in a row */
};

struct trig_seen {
	/* the worst since the last check */
	double worst;
	int pid, nid, memcg;
	char comm[32];
	int hit;
	uint64_t fired_episode[MAX_NODES];	/* kswapd-awake: once per episode */
};

struct trig_events {
	struct trigger t[16];
	int n;
	struct trig_seen seen[16];
	struct trigger_fired fired[16];	/* at each trigger's last firing */
	struct open_op reclaim[OPEN_SLOTS], compact[OPEN_SLOTS];
	struct node_state node[MAX_NODES];
	uint64_t overflow;
};

struct trig_events *trig_events_new(const struct trigger *t, int n)
{
	struct trig_events *te = xcalloc(1, sizeof(*te));

	for (int i = 0; i < n && i < (int)ARRAY_SIZE(te->t); i++)
		te->t[te->n++] = t[i];
	return te;
}

void trig_events_free(struct trig_events *te)
{
	free(te);
}

const struct trigger_fired *trig_events_fired(const struct trig_events *te, int i)
{
	return i >= 0 && i < te->n ? &te->fired[i] : NULL;
}

uint64_t trig_events_overflow(const struct trig_events *te)
{
	return te->overflow;
}

static struct open_op *slot(struct trig_events *te, struct open_op *tab, int pid, int make)
{
	unsigned h = ((unsigned)pid * 2654435761u) & (OPEN_SLOTS - 1);

	for (int k = 0; k < OPEN_SLOTS; k++, h = (h + 1) & (OPEN_SLOTS - 1)) {
		if (tab[h].pid == pid)
			return &tab[h];
		if (!tab[h].pid) {
			if (!make)
				return NULL;
			tab[h].pid = pid;
			return &tab[h];
		}
	}
	if (make)
		te->overflow++;
	return NULL;
}

/* Removes a slot, moving later entries of its probe run back (linear probing). */
static void unslot(struct open_op *tab, struct open_op *o)
{
	unsigned i = (unsigned)(o - tab), j = i;

	tab[i].pid = 0;
	for (;;) {
		unsigned h;

		j = (j + 1) & (OPEN_SLOTS - 1);
		if (!tab[j].pid)
			return;
		h = ((unsigned)tab[j].pid * 2654435761u) & (OPEN_SLOTS - 1);
		/* move j back to i when i lies cyclically in [h, j) */
		if ((j > i && (h <= i || h > j)) || (j < i && h <= i && h > j)) {
			tab[i] = tab[j];
			tab[j].pid = 0;
			i = j;
		}
	}
}

/* A finished stall of kind k: each trigger of that kind keeps the worst. */
static void stall_done(struct trig_events *te, enum trigger_kind k, const struct record *r,
		       double ms, int memcg)
{
	for (int i = 0; i < te->n; i++) {
		struct trig_seen *s = &te->seen[i];

		if (te->t[i].kind != k || ms <= te->t[i].threshold || ms <= s->worst)
			continue;
		s->worst = ms;
		s->pid = r->pid;
		s->memcg = memcg;
		s->hit = 1;
	}
}

static struct node_state *node(struct trig_events *te, int nid)
{
	return nid >= 0 && nid < MAX_NODES ? &te->node[nid] : NULL;
}

static void episode_end(struct trig_events *te, int nid, struct node_state *ns)
{
	if (ns->order > 0)
		ns->no_handoff = ns->handoff ? 0 : ns->no_handoff + 1;
	/* N in a row fires, and 2N, 3N... while it goes on */
	for (int i = 0; i < te->n; i++) {
		struct trig_seen *s = &te->seen[i];
		unsigned want = (unsigned)te->t[i].threshold;

		if (te->t[i].kind == TRIGGER_NO_HANDOFF && ns->order > 0 && !ns->handoff &&
		    want && ns->no_handoff % want == 0 && (double)ns->no_handoff > s->worst) {
			s->hit = 1;
			s->nid = nid;
			s->worst = ns->no_handoff;
		}
	}
	ns->awake_since = 0;
}

void trig_events_record(struct trig_events *te, const struct record *r)
{
	struct open_op *o;
	struct node_state *ns;

	switch (r->type) {
	case REC_OOM:
		if (r->oom.kind != OOM_VICTIM)
			break;
		for (int i = 0; i < te->n; i++)
			if (te->t[i].kind == TRIGGER_OOM) {
				te->seen[i].hit++;
				te->seen[i].pid = r->oom.victim;
				snprintf(te->seen[i].comm, sizeof(te->seen[i].comm), "%s",
					 r->oom.victim_comm ? r->oom.victim_comm : "");
			}
		break;
	case REC_RECLAIM_BEGIN:
		if (r->rbegin.kind != RK_DIRECT && r->rbegin.kind != RK_MEMCG)
			break;
		o = slot(te, te->reclaim, r->pid, 1);
		if (o) {
			o->ts = r->ts;
			o->told = 0;
			o->memcg = r->rbegin.kind == RK_MEMCG;
		}
		break;
	case REC_RECLAIM_END:
		if (r->rend.kind != RK_DIRECT && r->rend.kind != RK_MEMCG)
			break;
		o = slot(te, te->reclaim, r->pid, 0);
		if (!o)
			break;
		if (r->ts >= o->ts && !o->told)
			stall_done(te, TRIGGER_RECLAIM_STALL, r, (double)(r->ts - o->ts) / 1e6,
				   o->memcg);
		unslot(te->reclaim, o);
		break;
	case REC_COMPACT_TRY:
		o = slot(te, te->compact, r->pid, 1);
		if (o)
			o->ts = r->ts;
		break;
	case REC_COMPACT_END:
		/* kcompactd's runs have no try_to_compact_pages: not in the table */
		o = slot(te, te->compact, r->pid, 0);
		if (o && r->ts >= o->ts)
			stall_done(te, TRIGGER_COMPACT_STALL, r, (double)(r->ts - o->ts) / 1e6, 0);
		break;
	case REC_KSWAPD_WAKE:
		ns = node(te, r->wake.nid);
		if (!ns)
			break;
		if (!ns->awake_since) {
			ns->awake_since = r->ts ? r->ts : 1;
			ns->episode++;
			ns->order = r->wake.order;
			ns->handoff = 0;
		} else if (r->wake.order > ns->order) {
			ns->order = r->wake.order;
		}
		break;
	case REC_WAKEUP_KSWAPD:
		ns = node(te, r->wake.nid);
		if (ns && ns->awake_since && r->wake.order > ns->order)
			ns->order = r->wake.order;
		break;
	case REC_WAKEUP_KCOMPACTD:
	case REC_KCOMPACTD_WAKE:
		ns = node(te, r->wake.nid);
		if (ns && ns->awake_since && r->wake.order > 0)
			ns->handoff = 1;
		break;
	case REC_KSWAPD_SLEEP:
		ns = node(te, r->sleep.nid);
		if (ns && ns->awake_since)
			episode_end(te, r->sleep.nid, ns);
		break;
	default:
		break;
	}
}

int trig_events_check(struct trig_events *te, int i, uint64_t now, char *why, size_t n)
{
	struct trig_seen *s;
	const struct trigger *t;
	int fire = 0;

	if (i < 0 || i >= te->n)
		return 0;
	s = &te->seen[i];
	t = &te->t[i];
	memset(&te->fired[i], 0, sizeof(te->fired[i]));
	switch (t->kind) {
	case TRIGGER_OOM:
		if (s->hit) {
			snprintf(why, n, "OOM kill of pid %d (%s)%s", s->pid,
				 s->comm[0] ? s->comm : "?", s->hit > 1 ? " and others" : "");
			te->fired[i].pid = s->pid;
			memcpy(te->fired[i].comm, s->comm, sizeof(te->fired[i].comm));
			te->fired[i].comm[sizeof(te->fired[i].comm) - 1] = '\0';
			fire = 1;
		}
		break;
	case TRIGGER_RECLAIM_STALL:
	case TRIGGER_COMPACT_STALL: {
		struct open_op *tab = t->kind == TRIGGER_RECLAIM_STALL ? te->reclaim : te->compact;
		int open = 0;

		/* a reclaim still running at the check counts too */
		for (int k = 0; t->kind == TRIGGER_RECLAIM_STALL && k < OPEN_SLOTS; k++) {
			double ms;

			if (!tab[k].pid || tab[k].told || now < tab[k].ts)
				continue;
			ms = (double)(now - tab[k].ts) / 1e6;
			if (ms > t->threshold && ms > s->worst) {
				s->worst = ms;
				s->pid = tab[k].pid;
				s->memcg = tab[k].memcg;
				s->hit = 1;
				open = k + 1;
			}
		}
		if (open)
			tab[open - 1].told = 1;
		if (s->hit) {
			snprintf(why, n, "%s %.1f ms in pid %d%s > %g ms",
				 t->kind == TRIGGER_COMPACT_STALL ? "direct compaction" :
				 s->memcg ? "memcg reclaim" : "direct reclaim", s->worst, s->pid, open ? " (still running)" : "",
				 t->threshold);
			te->fired[i].value = s->worst;
			te->fired[i].has_value = 1;
			te->fired[i].pid = s->pid;
			fire = 1;
		}
		break;
	}
	case TRIGGER_KSWAPD_AWAKE:
		for (int nid = 0; nid < MAX_NODES && !fire; nid++) {
			struct node_state *ns = &te->node[nid];
			double sec;

			if (!ns->awake_since || now < ns->awake_since ||
			    s->fired_episode[nid] == ns->episode)
				continue;
			sec = (double)(now - ns->awake_since) / 1e9;
			if (sec > t->threshold) {
				s->fired_episode[nid] = ns->episode;
				snprintf(why, n, "kswapd of node %d awake %.1f s without balancing > %g s",
					 nid, sec, t->threshold);
				te->fired[i].value = sec;
				te->fired[i].has_value = 1;
				fire = 1;
			}
		}
		break;
	case TRIGGER_NO_HANDOFF:
		if (s->hit) {
			snprintf(why, n, "%.0f kswapd episodes in a row on node %d asked for order > 0 "
				 "without a kcompactd handoff (>= %g)", s->worst, s->nid, t->threshold);
			te->fired[i].value = s->worst;
			te->fired[i].has_value = 1;
			fire = 1;
		}
		break;
	default:
		break;
	}
	s->hit = 0;
	s->worst = 0;
	s->pid = 0;
	s->comm[0] = '\0';
	return fire;
}
