// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Handoff model (see model-handoff.h). Per node it keeps the open kswapd
 * episode ("cur"), the closed episodes still waiting to learn their
 * handoff ("pend", each until kcompactd runs a request it can take or
 * its pickup window passes), kcompactd's state (asleep, awake on a
 * request, a wakeup pending) and the latest committed watermark sample.
 * Closed and resolved episodes are appended to an array (capped);
 * statistics are counted at resolution so that they cover every episode
 * even past the cap.
 */
#include "config.h"
#include "model-handoff.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

/* At most this many closed episodes wait out their pickup windows at once
 * (kswapd would have to wake and sleep this often within one window);
 * past it the oldest is resolved "none" early, to bound the model. */
#define HANDOFF_MAX_PEND 32

/* A closed episode waiting out its pickup window, and the end of the
 * episode before it (has_prev: kswapd was seen to sleep before it woke). */
struct pend_ep {
	struct kswapd_episode ep;
	uint64_t deadline, prev_end;
	int has_prev;
};

struct hnode {
	struct handoff_node_stats st;
	struct kswapd_episode *eps;
	int neps, cap;
	struct kcompactd_episode *kcs, kc;	/* stored, and the one running */
	int nkcs, kccap;
	struct kswapd_episode cur;
	int cur_open;
	uint64_t cur_prev_end;		/* as in struct pend_ep */
	int cur_has_prev;
	struct pend_ep pend[HANDOFF_MAX_PEND];	/* by start */
	int npend;
	int ks_seen;			/* a kswapd wake or sleep of the node */
	int ks_slept;			/* a kswapd sleep of the node */
	uint64_t last_sleep;
	uint32_t pending_wakeups;
	int pending_order;
	char pending_waker[16];
	int kc_asleep;			/* -1 unknown, 0 awake, 1 asleep */
	int kc_wakeup_pending;		/* a wakeup event since the last wake */
	int kc_wakeup_by_kswapd;	/* ... from kswapd's sleep path */
	int kc_busy;			/* awake on a request */
	/* The earliest time a request that kcompactd picks up now (without
	 * mm_compaction_wakeup_kcompactd) can have been made: its last
	 * wake, or its last sleep when that sleep followed an idle wait (a
	 * request pending then would have been run, not slept on); 0 when
	 * unknown. See handoff_take_pickup(). */
	uint64_t kc_req_from;
	/* the last sleep, and kc_req_from as it was before that sleep: a
	 * wake right after a sleep without a wakeup event shows the sleep
	 * was not an idle wait (the request was pending at it) */
	uint64_t kc_sleep_ts, kc_req_before_sleep;
	uint64_t kc_wake_ts;
	/* proactive compaction: whether kcompactd's state (on a request or
	 * not) is known (from its first wake or sleep on, not after lost
	 * events until the next), a pass running and since when */
	int kc_known, kc_pro;
	uint64_t kc_pro_start;
	/* watermarks: every zone's rank (wmark_zone_closer), in the order
	 * first seen; the zone lines of the set being read, and the node's
	 * managed pages summed over them; the snapshot of the zone shown */
	struct { char zone[16]; struct wmark_zone_rank rank; } zr[HANDOFF_MAX_ZONES];
	int nzr;
	struct wmark_snap set[HANDOFF_MAX_ZONES];
	int nset;
	int64_t set_managed;
	uint64_t wm_seq;
	int wm_pending;
	struct wmark_snap wm_new, wm_cur;
	/* buddyinfo lines of the set being read, by zone */
	int nbd;
	uint64_t bd_seq;
	char bd_zone[8][16];
	int bd_norders[8];
	uint64_t bd_free[8][REC_MAX_ORDERS];
};

struct handoff_model {
	struct handoff_params p;
	struct hnode **nodes;		/* indexed by nid */
	int nnodes_alloc;
	int *order;			/* nids seen, sorted */
	int norder;
	uint64_t min_deadline;		/* 0: no pending window */
	uint64_t from, cut;		/* handoff_model_bounds; 0 none */
};

void handoff_params_default(struct handoff_params *p)
{
	p->pickup_window_ns = 600000000ULL;
	p->long_awake_ns = 1000000000ULL;
	p->rewake_gap_ns = 200000000ULL;
}

struct handoff_model *handoff_model_new(const struct handoff_params *p)
{
	struct handoff_model *m = xcalloc(1, sizeof(*m));

	if (p)
		m->p = *p;
	else
		handoff_params_default(&m->p);
	return m;
}

void handoff_model_free(struct handoff_model *m)
{
	if (!m)
		return;
	for (int i = 0; i < m->nnodes_alloc; i++) {
		if (m->nodes[i]) {
			free(m->nodes[i]->eps);
			free(m->nodes[i]->kcs);
		}
		free(m->nodes[i]);
	}
	free(m->nodes);
	free(m->order);
	free(m);
}

static struct hnode *handoff_node(struct handoff_model *m, int nid)
{
	struct hnode *n;
	int i;

	if (nid < 0 || nid > 4095)
		return NULL;
	if (nid < m->nnodes_alloc && m->nodes[nid])
		return m->nodes[nid];
	if (nid >= m->nnodes_alloc) {
		int na = nid + 8;
		struct hnode **nn = xreallocarray(m->nodes, (size_t)na, sizeof(*nn));

		memset(nn + m->nnodes_alloc, 0, sizeof(*nn) * (size_t)(na - m->nnodes_alloc));
		m->nodes = nn;
		m->nnodes_alloc = na;
	}
	n = xcalloc(1, sizeof(*n));
	m->order = xreallocarray(m->order, (size_t)m->norder + 1, sizeof(int));
	for (i = m->norder; i > 0 && m->order[i - 1] > nid; i--)
		m->order[i] = m->order[i - 1];
	m->order[i] = nid;
	m->norder++;
	n->st.nid = nid;
	n->st.kswapd_pid = -1;
	n->st.kcompactd_pid = -1;
	n->st.kswapd_failures_max = -1;
	n->kc_asleep = -1;
	m->nodes[nid] = n;
	return n;
}

static enum wmark_state wmark_classify(int64_t free, int64_t min, int64_t low, int64_t high)
{
	if (free < 0 || min < 0 || low < 0 || high < 0)
		return WM_UNKNOWN;
	if (free < min)
		return WM_BELOW_MIN;
	if (free < low)
		return WM_MIN_LOW;
	if (free < high)
		return WM_LOW_HIGH;
	return WM_ABOVE_HIGH;
}

static void handoff_count_flags(struct hnode *n, unsigned flags)
{
	for (int b = 0; b < 6; b++)
		if (flags & (1u << b))
			n->st.flags_count[b]++;
}

/* An episode's handoff is known: count it and store it. */
static void handoff_resolve(struct hnode *n, struct kswapd_episode *ep)
{
	struct handoff_node_stats *st = &n->st;

	switch (ep->handoff) {
	case HO_WAKEUP: st->ho_wakeup++; break;
	case HO_PICKUP: st->ho_pickup++; break;
	case HO_NONE: st->ho_none++; break;
	case HO_NOT_NEEDED: st->ho_not_needed++; break;
	default: st->ho_open++; break;
	}
	handoff_count_flags(n, ep->flags);
	st->episodes++;
	if (ep->end > ep->start)
		st->awake_ns += ep->end - ep->start;
	if (n->neps >= HANDOFF_MAX_EPISODES) {
		st->dropped_episodes++;
		return;
	}
	if (n->neps == n->cap) {
		int cap = n->cap ? n->cap * 2 : 16;
		n->eps = xreallocarray(n->eps, (size_t)cap, sizeof(*n->eps));
		n->cap = cap;
	}
	/* Episodes resolve out of start order (one waits out its pickup
	 * window while the next begins and resolves): keep the array sorted
	 * by start; the place is nearly always the end. */
	int i = n->neps++;

	for (; i > 0 && n->eps[i - 1].start > ep->start; i--)
		n->eps[i] = n->eps[i - 1];
	n->eps[i] = *ep;
}

/* The pending episodes end, and so their windows close, in their order:
 * the first one's deadline is the node's earliest. */
static void handoff_recompute_deadline(struct handoff_model *m)
{
	m->min_deadline = 0;
	for (int i = 0; i < m->norder; i++) {
		struct hnode *n = m->nodes[m->order[i]];

		if (n->npend && (!m->min_deadline || n->pend[0].deadline < m->min_deadline))
			m->min_deadline = n->pend[0].deadline;
	}
}

/* Pending episode i's handoff is known: resolve it, take it off the list. */
static void handoff_pend_done(struct hnode *n, int i, enum handoff_kind k)
{
	struct kswapd_episode *ep = &n->pend[i].ep;

	ep->handoff = k;
	if (k == HO_NONE)
		ep->flags |= HF_NO_HANDOFF;
	handoff_resolve(n, ep);
	n->npend--;
	memmove(&n->pend[i], &n->pend[i + 1], sizeof(n->pend[0]) * (size_t)(n->npend - i));
}

static void handoff_expire(struct handoff_model *m, uint64_t ts)
{
	for (int i = 0; i < m->norder; i++) {
		struct hnode *n = m->nodes[m->order[i]];

		while (n->npend && ts > n->pend[0].deadline)
			handoff_pend_done(n, 0, HO_NONE);
	}
	handoff_recompute_deadline(m);
}

static void handoff_kswapd_wake(struct handoff_model *m, struct hnode *n,
				const struct record *r)
{
	struct kswapd_episode *ep = &n->cur;

	n->st.kswapd_pid = r->pid;
	n->st.kswapd_wakes++;
	n->ks_seen = 1;
	if (n->cur_open) {
		ep->rebalances++;
		if (r->wake.order > ep->order)
			ep->order = r->wake.order;
		return;
	}
	(void)m;
	memset(ep, 0, sizeof(*ep));
	n->cur_open = 1;
	n->cur_prev_end = n->last_sleep;
	n->cur_has_prev = n->ks_slept;
	ep->start = r->ts;
	ep->order = r->wake.order > n->pending_order ? r->wake.order : n->pending_order;
	ep->zid = r->wake.zid;
	ep->wakeups = n->pending_wakeups;
	memcpy(ep->waker, n->pending_waker, sizeof(ep->waker));
	ep->handoff = HO_OPEN;
	/* at the wake: the latest sample before it; the lowest and the one at
	 * the sleep only from samples taken while awake (unknown without) */
	ep->wm_start = n->wm_cur;
	ep->balance_order = -1;
	if (n->last_sleep && r->ts - n->last_sleep < m->p.rewake_gap_ns)
		ep->flags |= HF_REWAKE;
	n->pending_wakeups = 0;
	n->pending_order = 0;
	n->pending_waker[0] = '\0';
}

static void handoff_kswapd_sleep(struct handoff_model *m, struct hnode *n,
				 const struct record *r)
{
	struct kswapd_episode *ep = &n->cur;

	n->st.kswapd_pid = r->pid;
	n->last_sleep = r->ts;
	n->ks_slept = 1;
	if (!n->cur_open && !n->ks_seen && m->from) {
		/* awake since before this part of a run: its time here */
		n->st.kswapd_continued++;
		n->st.awake_continued_ns += (int64_t)(r->ts - m->from);
	}
	n->ks_seen = 1;
	if (!n->cur_open)
		return;		/* slept before the recording saw it wake */
	n->cur_open = 0;
	ep->end = r->ts;
	if (ep->end - ep->start > m->p.long_awake_ns)
		ep->flags |= HF_LONG;
	if (ep->handoff == HO_WAKEUP || ep->handoff == HO_PICKUP) {
		handoff_resolve(n, ep);
		return;
	}
	if (ep->order <= 0) {
		ep->handoff = HO_NOT_NEEDED;
		handoff_resolve(n, ep);
		return;
	}
	/* older ones still waiting keep their windows: a request picked up
	 * in them may be theirs (handoff_take_pickup()) */
	if (n->npend == HANDOFF_MAX_PEND)
		handoff_pend_done(n, 0, HO_NONE);
	ep->handoff = HO_AWAIT;
	n->pend[n->npend].ep = *ep;
	n->pend[n->npend].deadline = r->ts + m->p.pickup_window_ns;
	n->pend[n->npend].prev_end = n->cur_prev_end;
	n->pend[n->npend].has_prev = n->cur_has_prev;
	n->npend++;
	handoff_recompute_deadline(m);
}

static void handoff_wakeup_kcompactd(struct handoff_model *m, struct hnode *n,
				     const struct record *r)
{
	(void)m;
	n->st.kc_wakeups++;
	/* order -1: a write of vm.compaction_proactiveness. kcompactd runs
	 * proactive compaction for it, which emits no kcompactd_wake, and
	 * goes back to its kcompactd_sleep: no later wake is its doing (a
	 * wake right after that sleep ran a request made meanwhile) */
	if (r->wake.order < 0) {
		n->st.kc_wakeups_proactive++;
		return;
	}
	n->kc_wakeup_pending = 1;
	if (r->pid != n->st.kswapd_pid)
		return;
	n->st.kc_wakeups_kswapd++;
	n->kc_wakeup_by_kswapd = 1;
	/* the documented rule: an episode whose kswapd emitted the wakeup
	 * is "wake", even if a pickup was credited to it earlier */
	if (n->cur_open && (n->cur.handoff == HO_OPEN || n->cur.handoff == HO_PICKUP)) {
		n->cur.handoff = HO_WAKEUP;
		n->cur.handoff_order = r->wake.order;
		n->cur.handoff_ts = r->ts;
	}
}

static int handoff_take_pickup(struct handoff_model *m, struct hnode *n,
			       const struct record *r)
{
	struct kswapd_episode *ep = NULL;
	uint64_t prev_end = 0;
	int i, has_prev = 0;

	/*
	 * A request that may predate an episode is never its handoff. The
	 * picked-up request was made in [kc_req_from, now], by kswapd while
	 * awake (as it goes to sleep, or after boosting watermarks; an
	 * allocator asks kcompactd itself, without an event, only while
	 * kswapd sleeps on a node balanced for that order or given up on):
	 * by the first episode awake in that interval or a later one. Only
	 * that first one can take it, so none whose predecessor was still
	 * awake at kc_req_from: a closed episode awake then or woken after
	 * it; the open one only if the whole interval lies inside it, so an
	 * older request picked up early in an episode leaves the episode to
	 * its own wakeup or pickup. Pending episodes before the first one
	 * awake in the interval ended before it.
	 */
	for (i = 0; i < n->npend; i++)
		if (n->pend[i].ep.end >= n->kc_req_from)
			break;
	if (i < n->npend) {
		ep = &n->pend[i].ep;
		prev_end = n->pend[i].prev_end;
		has_prev = n->pend[i].has_prev;
	} else if (n->cur_open && n->kc_req_from >= n->cur.start) {
		ep = &n->cur;
		prev_end = n->cur_prev_end;
		has_prev = n->cur_has_prev;
		if (ep->handoff != HO_OPEN || ep->order <= 0)
			return 0;
	}
	if (!ep || (has_prev && prev_end >= n->kc_req_from))
		return 0;
	ep->handoff_order = r->wake.order;
	ep->handoff_ts = r->ts;
	if (ep == &n->cur) {
		ep->handoff = HO_PICKUP;
		return 1;
	}
	handoff_pend_done(n, i, HO_PICKUP);
	handoff_recompute_deadline(m);
	return 1;
}

static void handoff_kc_store(struct hnode *n)
{
	if (n->nkcs >= HANDOFF_MAX_EPISODES)
		return;
	if (n->nkcs == n->kccap) {
		int cap = n->kccap ? n->kccap * 2 : 16;
		n->kcs = xreallocarray(n->kcs, (size_t)cap, sizeof(*n->kcs));
		n->kccap = cap;
	}
	n->kcs[n->nkcs++] = n->kc;
}

/* kcompactd's sleep (or a wake, if that sleep was lost) ends a proactive
 * pass: compact_node() returns and kcompactd loops back to its wait. */
static void handoff_pro_end(struct hnode *n, uint64_t ts)
{
	if (n->kc_pro && ts > n->kc_pro_start)
		n->st.kc_pro_ns += ts - n->kc_pro_start;
	n->kc_pro = 0;
}

static void handoff_kcompactd_wake(struct handoff_model *m, struct hnode *n,
				   const struct record *r)
{
	struct kcompactd_episode *kc = &n->kc;

	handoff_pro_end(n, r->ts);
	n->kc_known = 1;

	if (n->kc_busy) {	/* woken again before its sleep was seen */
		if (r->ts > n->kc_wake_ts)
			n->st.kc_busy_ns += r->ts - n->kc_wake_ts;
		kc->end = r->ts;
		handoff_kc_store(n);
	}
	n->st.kcompactd_pid = r->pid;
	n->st.kc_wakes++;
	n->kc_asleep = 0;
	n->kc_busy = 1;
	n->kc_wake_ts = r->ts;
	memset(kc, 0, sizeof(*kc));
	kc->start = r->ts;
	kc->order = r->wake.order;
	kc->last_status = -1;
	if (r->wake.order <= 0) {
		n->st.kc_proactive++;
		kc->via = KC_ORDER0;
	} else if (n->kc_wakeup_pending) {
		n->st.kc_woken++;
		kc->via = KC_WOKEN;
		/* kswapd's wakeup resolved its episode already; a wakeup from
		 * elsewhere can still serve a waiting kswapd episode */
		kc->for_kswapd = n->kc_wakeup_by_kswapd;
		if (n->npend)
			kc->for_kswapd |= handoff_take_pickup(m, n, r);
	} else {
		n->st.kc_pickup++;
		kc->via = KC_PICKUP;
		/* kcompactd checks for a request before it waits, so a wake this
		 * soon after its sleep event ran a request made before that
		 * sleep (while it was busy, e.g. in proactive compaction that
		 * emits no wake event); one made during the wait without a
		 * wakeup event is picked up at the 500 ms timeout */
		if (n->kc_sleep_ts && r->ts >= n->kc_sleep_ts &&
		    r->ts - n->kc_sleep_ts < HANDOFF_KC_AT_ONCE_NS)
			n->kc_req_from = n->kc_req_before_sleep;
		kc->for_kswapd = handoff_take_pickup(m, n, r);
	}
	n->kc_wakeup_pending = 0;
	n->kc_wakeup_by_kswapd = 0;
	/* busy from now on: requests can wait for it without a wakeup */
	n->kc_req_from = r->ts;
}

static void handoff_kcompactd_sleep(struct hnode *n, const struct record *r)
{
	handoff_pro_end(n, r->ts);
	n->kc_known = 1;
	n->st.kcompactd_pid = r->pid;
	n->st.kc_sleeps++;
	n->kc_sleep_ts = r->ts;
	n->kc_req_before_sleep = n->kc_req_from;
	if (n->kc_busy && r->ts > n->kc_wake_ts)
		n->st.kc_busy_ns += r->ts - n->kc_wake_ts;
	if (n->kc_busy) {
		n->kc.end = r->ts;
		handoff_kc_store(n);
	} else if (n->kc_asleep == 1) {
		n->kc_req_from = r->ts;	/* an idle wait ended: nothing pending */
	}
	n->kc_busy = 0;
	n->kc_asleep = 1;
}

static void handoff_stall(struct handoff_model *m)
{
	for (int i = 0; i < m->norder; i++) {
		struct hnode *n = m->nodes[m->order[i]];

		if (n->kc_asleep != 1)
			continue;
		n->st.stalls_kc_asleep++;
		if (n->cur_open) {
			n->cur.stalls++;
			n->cur.flags |= HF_STALL;
		}
	}
}

void wmark_zone_rank_add(struct wmark_zone_rank *z, int64_t free, int64_t high,
			 int64_t managed)
{
	z->managed = managed;
	if (high > 0 && free >= 0) {
		double ratio = (double)free / (double)high;

		if (!z->has_ratio || ratio < z->lowest)
			z->lowest = ratio;
		z->has_ratio = 1;
	}
}

int wmark_zone_closer(const struct wmark_zone_rank *a, const struct wmark_zone_rank *b)
{
	if (a->has_ratio != b->has_ratio)
		return a->has_ratio;
	if (a->has_ratio && a->lowest != b->lowest)
		return a->lowest < b->lowest;
	return a->managed > b->managed;
}

static struct wmark_zone_rank *handoff_zone_rank(struct hnode *n, const char *zone)
{
	int i;

	for (i = 0; i < n->nzr; i++)
		if (!strcmp(n->zr[i].zone, zone))
			return &n->zr[i].rank;
	if (i == HANDOFF_MAX_ZONES)
		return NULL;
	n->nzr++;
	snprintf(n->zr[i].zone, sizeof(n->zr[i].zone), "%s", zone);
	return &n->zr[i].rank;
}

static void handoff_zone(struct hnode *n, const struct record *r)
{
	const char *zone = r->zone.zone ? r->zone.zone : "";
	struct wmark_zone_rank *rank;
	struct wmark_snap *w;
	int i;

	if (!n->wm_pending || n->wm_seq != r->zone.seq) {	/* a new set */
		n->nset = 0;
		n->set_managed = 0;
	}
	n->wm_seq = r->zone.seq;
	n->wm_pending = 1;
	if (r->zone.managed > 0)
		n->set_managed += r->zone.managed;
	/* ranked from every sample, as the lanes see them; shown only from
	 * a complete set (handoff_sample_end) */
	if (!wmark_zone_eligible(r->zone.managed) || !(rank = handoff_zone_rank(n, zone)))
		return;
	wmark_zone_rank_add(rank, r->zone.free, r->zone.high, r->zone.managed);
	n->st.zones = n->nzr;
	for (i = 0; i < n->nset && strcmp(n->set[i].zone, zone); i++)
		;
	if (i == n->nset)
		n->nset++;
	w = &n->set[i];
	memset(w, 0, sizeof(*w));
	snprintf(w->zone, sizeof(w->zone), "%s", zone);
	w->ts = r->ts;
	w->managed = r->zone.managed;
	w->free = r->zone.free;
	w->min = r->zone.min;
	w->low = r->zone.low;
	w->high = r->zone.high;
	w->free_blocks = r->zone.free_blocks;
	w->state = wmark_classify(r->zone.free, r->zone.min, r->zone.low, r->zone.high);
}

/* The set's line of the zone to show (wmark_zone_closer); 0 if none. */
static int handoff_pick_zone(struct hnode *n)
{
	const struct wmark_zone_rank *best = NULL;
	int bi = -1;

	for (int z = 0; z < n->nzr; z++) {
		for (int i = 0; i < n->nset; i++) {
			if (strcmp(n->set[i].zone, n->zr[z].zone))
				continue;
			if (!best || wmark_zone_closer(&n->zr[z].rank, best)) {
				best = &n->zr[z].rank;
				bi = i;
			}
			break;
		}
	}
	if (bi < 0)
		return 0;
	n->wm_new = n->set[bi];
	return 1;
}

/* a is lower than b: by free pages in the same zone, else (the zone
 * shown changed) by free pages against the high watermark */
static int wmark_lower(const struct wmark_snap *a, const struct wmark_snap *b)
{
	if (strcmp(a->zone, b->zone) && a->high > 0 && b->high > 0)
		return (double)a->free / (double)a->high < (double)b->free / (double)b->high;
	return a->free < b->free;
}

static void handoff_buddy(struct hnode *n, const struct record *r)
{
	int i;

	if (n->nbd && n->bd_seq != r->buddy.seq)
		n->nbd = 0;		/* the previous set never ended */
	for (i = 0; i < n->nbd; i++)
		if (!strcmp(n->bd_zone[i], r->buddy.zone))
			break;
	if (i == n->nbd) {
		if (n->nbd == 8)
			return;
		n->nbd++;
	}
	n->bd_seq = r->buddy.seq;
	snprintf(n->bd_zone[i], sizeof(n->bd_zone[i]), "%s", r->buddy.zone);
	n->bd_norders[i] = r->buddy.norders;
	memcpy(n->bd_free[i], r->buddy.free, sizeof(n->bd_free[i]));
}

/* The set's buddyinfo line of the zone shown goes with its watermarks. */
static void handoff_commit_buddy(struct hnode *n, uint64_t seq)
{
	for (int i = 0; i < n->nbd && n->bd_seq == seq; i++) {
		if (strcmp(n->bd_zone[i], n->wm_cur.zone))
			continue;
		n->wm_cur.norders = n->bd_norders[i];
		memcpy(n->wm_cur.buddy, n->bd_free[i], sizeof(n->wm_cur.buddy));
	}
	n->nbd = 0;
}

int64_t wmark_blocks_from(const struct wmark_snap *w, int order)
{
	int64_t b = 0;

	if (!w->norders)
		return -1;
	for (int o = order < 0 ? 0 : order; o < w->norders; o++)
		b += (int64_t)w->buddy[o];
	return b;
}

/* Before a complete set replaces the current snapshot: did the node's
 * managed pages change (memory hotplug, a balloon), or the zone shown? */
static void handoff_hotplug(struct hnode *n)
{
	struct handoff_node_stats *st = &n->st;

	if (n->set_managed != st->managed_last)
		st->managed_changes++;
	if (!strcmp(n->wm_new.zone, n->wm_cur.zone))
		return;
	if (st->zone_changes < HANDOFF_MAX_ZCHG) {
		struct handoff_zone_change *c = &st->zchg[st->zone_changes];

		c->ts = n->wm_new.ts;
		snprintf(c->from, sizeof(c->from), "%s", n->wm_cur.zone);
		snprintf(c->to, sizeof(c->to), "%s", n->wm_new.zone);
		c->from_managed = n->wm_cur.managed;
		c->to_managed = n->wm_new.managed;
	}
	st->zone_changes++;
}

/* A sample set is complete: its watermark lines count from now on. */
static void handoff_sample_end(struct handoff_model *m, uint64_t seq)
{
	for (int i = 0; i < m->norder; i++) {
		struct hnode *n = m->nodes[m->order[i]];

		if (!n->wm_pending || n->wm_seq != seq) {
			/* a set with buddyinfo but no zone line */
			if (n->wm_cur.zone[0] && n->nbd && n->bd_seq == seq) {
				handoff_commit_buddy(n, seq);
				if (n->st.has_wmarks)
					n->st.wm_last = n->wm_cur;
			}
			continue;
		}
		n->wm_pending = 0;
		if (!handoff_pick_zone(n))
			continue;	/* only empty zones in the set */
		/* a set without buddyinfo keeps the last one, of the same zone */
		if (strcmp(n->wm_new.zone, n->wm_cur.zone))
			n->wm_cur.norders = 0;
		n->wm_new.norders = n->wm_cur.norders;
		memcpy(n->wm_new.buddy, n->wm_cur.buddy, sizeof(n->wm_new.buddy));
		if (n->st.has_wmarks)
			handoff_hotplug(n);
		n->wm_cur = n->wm_new;
		handoff_commit_buddy(n, seq);
		if (!n->st.has_wmarks) {
			n->st.wm_first = n->wm_cur;
			n->st.wm_lowest = n->wm_cur;
			n->st.managed_first = n->set_managed;
		}
		n->st.has_wmarks = 1;
		n->st.managed_last = n->set_managed;
		n->st.wm_last = n->wm_cur;
		if (wmark_lower(&n->wm_cur, &n->st.wm_lowest))
			n->st.wm_lowest = n->wm_cur;
		if (!n->cur_open)
			continue;
		if (n->cur.wm_start.state == WM_UNKNOWN)
			n->cur.wm_start = n->wm_cur;
		if (n->cur.wm_low.state == WM_UNKNOWN || wmark_lower(&n->wm_cur, &n->cur.wm_low))
			n->cur.wm_low = n->wm_cur;
		n->cur.wm_end = n->wm_cur;	/* the last one before the sleep */
	}
}

static struct hnode *handoff_kcompactd_node(struct handoff_model *m, int pid)
{
	for (int i = 0; i < m->norder; i++) {
		struct hnode *n = m->nodes[m->order[i]];

		if (n->st.kcompactd_pid == pid)
			return n;
	}
	return NULL;
}

/* A compaction run by kcompactd outside a request is proactive: the
 * first one after its sleep starts a pass (compact_node runs one per
 * zone). While its state is unknown the run is left unclassified. */
static void handoff_compact_begin(struct handoff_model *m, const struct record *r)
{
	struct hnode *n = handoff_kcompactd_node(m, r->pid);

	if (!n || n->kc_busy || n->kc_pro || !n->kc_known)
		return;
	n->kc_pro = 1;
	n->kc_pro_start = r->ts;
	n->st.kc_pro_passes++;
}

static void handoff_compact_end(struct handoff_model *m, const struct record *r)
{
	struct hnode *n = handoff_kcompactd_node(m, r->pid);

	if (!n)
		return;
	n->st.kc_runs++;
	if (r->crun.status == 8)	/* COMPACT_SUCCESS */
		n->st.kc_runs_success++;
	if (n->kc_busy) {
		n->kc.runs++;
		n->kc.success += r->crun.status == 8;
		n->kc.last_status = r->crun.status;
	} else if (n->kc_pro) {
		n->st.kc_pro_runs++;
	} else {
		n->st.kc_runs_unclassified++;
	}
}

static void handoff_lost(struct handoff_model *m)
{
	for (int i = 0; i < m->norder; i++) {
		struct hnode *n = m->nodes[m->order[i]];

		if (n->cur_open)
			n->cur.flags |= HF_LOST;
		for (int j = 0; j < n->npend; j++)
			n->pend[j].ep.flags |= HF_LOST;
		/* a lost wake or sleep: is kcompactd on a request? */
		n->kc_known = 0;
	}
}

static void handoff_wakeup_kswapd(struct hnode *n, const struct record *r)
{
	struct handoff_node_stats *st = &n->st;

	st->wakeup_kswapd++;
	if (r->wake.order >= 0 && r->wake.order < REC_MAX_ORDERS)
		st->wakeup_kswapd_by_order[r->wake.order]++;
	if (n->cur_open) {
		n->cur.wakeups++;
		if (r->wake.order > n->cur.order)
			n->cur.order = r->wake.order;
		if (!n->cur.waker[0] && r->comm)
			strncpy(n->cur.waker, r->comm, sizeof(n->cur.waker) - 1);
		return;
	}
	n->pending_wakeups++;
	if (r->wake.order > n->pending_order)
		n->pending_order = r->wake.order;
	if (!n->pending_waker[0] && r->comm)
		strncpy(n->pending_waker, r->comm, sizeof(n->pending_waker) - 1);
}

static void handoff_balance_end(struct hnode *n, const struct record *r)
{
	struct kswapd_episode *ep = &n->cur;

	if (!n->cur_open)
		return;
	ep->balance_runs++;
	ep->balance_reclaimed += r->balance.nr_reclaimed;
	if (ep->balance_order < 0 || r->balance.order < ep->balance_order)
		ep->balance_order = r->balance.order;
}

static void handoff_shrink(struct handoff_model *m, const struct record *r)
{
	struct hnode *n;

	if (r->shrink.nid < 0 || r->shrink.nid >= m->nnodes_alloc)
		return;
	n = m->nodes[r->shrink.nid];
	if (!n || !n->cur_open || r->pid != n->st.kswapd_pid)
		return;
	n->cur.scanned += r->shrink.scanned;
	n->cur.reclaimed += r->shrink.reclaimed;
}

void handoff_model_add(struct handoff_model *m, const struct record *r)
{
	struct hnode *n;

	if (m->min_deadline && r->ts > m->min_deadline)
		handoff_expire(m, r->ts);
	switch (r->type) {
	case REC_WAKEUP_KSWAPD:
		if ((n = handoff_node(m, r->wake.nid)))
			handoff_wakeup_kswapd(n, r);
		break;
	case REC_KSWAPD_WAKE:
		if ((n = handoff_node(m, r->wake.nid)))
			handoff_kswapd_wake(m, n, r);
		break;
	case REC_KSWAPD_SLEEP:
		if ((n = handoff_node(m, r->sleep.nid)))
			handoff_kswapd_sleep(m, n, r);
		break;
	case REC_WAKEUP_KCOMPACTD:
		if ((n = handoff_node(m, r->wake.nid)))
			handoff_wakeup_kcompactd(m, n, r);
		break;
	case REC_KCOMPACTD_WAKE:
		if ((n = handoff_node(m, r->wake.nid)))
			handoff_kcompactd_wake(m, n, r);
		break;
	case REC_KCOMPACTD_SLEEP:
		if ((n = handoff_node(m, r->sleep.nid)))
			handoff_kcompactd_sleep(n, r);
		break;
	case REC_SHRINK_INACTIVE:
		handoff_shrink(m, r);
		break;
	case REC_BALANCE_END:
		if ((n = handoff_node(m, r->balance.nid)))
			handoff_balance_end(n, r);
		break;
	case REC_KSWAPD_FAIL:
		if ((n = handoff_node(m, r->kfail.nid)) && r->kfail.cleared) {
			n->st.kswapd_clears++;
		} else if (n) {
			n->st.kswapd_fails++;
			if (r->kfail.value > n->st.kswapd_failures_max)
				n->st.kswapd_failures_max = r->kfail.value;
		}
		break;
	case REC_RECLAIM_BEGIN:
		if (r->rbegin.kind == RK_DIRECT)
			handoff_stall(m);
		break;
	case REC_COMPACT_TRY:
		handoff_stall(m);
		break;
	case REC_COMPACT_BEGIN:
		handoff_compact_begin(m, r);
		break;
	case REC_COMPACT_END:
		handoff_compact_end(m, r);
		break;
	case REC_ZONE:
		if ((n = handoff_node(m, r->zone.node)))
			handoff_zone(n, r);
		break;
	case REC_BUDDY:
		if ((n = handoff_node(m, r->buddy.node)))
			handoff_buddy(n, r);
		break;
	case REC_SAMPLE_END:
		handoff_sample_end(m, r->send.seq);
		break;
	case REC_LOST:
		handoff_lost(m);
		break;
	default:
		break;
	}
}

void handoff_model_bounds(struct handoff_model *m, uint64_t from, uint64_t cut)
{
	m->from = from;
	m->cut = cut;
}

void handoff_model_finish(struct handoff_model *m, uint64_t end_ts)
{
	handoff_expire(m, end_ts);
	/* a part of a run: what is open ends at the cut, not at the part's
	 * last event (the time up to the cut is this part's) */
	if (m->cut)
		end_ts = m->cut;
	for (int i = 0; i < m->norder; i++) {
		struct hnode *n = m->nodes[m->order[i]];

		while (n->npend)	/* window still open at the end */
			handoff_pend_done(n, 0, HO_OPEN);
		if (n->cur_open) {
			n->cur_open = 0;
			n->cur.end = end_ts;
			n->cur.flags |= HF_AT_END;
			if (n->cur.end - n->cur.start > m->p.long_awake_ns)
				n->cur.flags |= HF_LONG;
			if (n->cur.handoff != HO_WAKEUP && n->cur.handoff != HO_PICKUP)
				n->cur.handoff = HO_OPEN;
			handoff_resolve(n, &n->cur);
		}
		if (n->kc_busy && end_ts > n->kc_wake_ts)
			n->st.kc_busy_ns += end_ts - n->kc_wake_ts;
		if (n->kc_busy) {
			n->kc.end = end_ts;
			handoff_kc_store(n);
		}
		n->kc_busy = 0;
		handoff_pro_end(n, end_ts);	/* a pass open at the end */
	}
	m->min_deadline = 0;
}

int handoff_model_nnodes(const struct handoff_model *m)
{
	return m->norder;
}

const struct handoff_node_stats *handoff_model_node(const struct handoff_model *m, int i)
{
	return i >= 0 && i < m->norder ? &m->nodes[m->order[i]]->st : NULL;
}

int handoff_model_nepisodes(const struct handoff_model *m, int i)
{
	return i >= 0 && i < m->norder ? m->nodes[m->order[i]]->neps : 0;
}

const struct kswapd_episode *handoff_model_episode(const struct handoff_model *m,
						   int i, int e)
{
	struct hnode *n;

	if (i < 0 || i >= m->norder)
		return NULL;
	n = m->nodes[m->order[i]];
	return e >= 0 && e < n->neps ? &n->eps[e] : NULL;
}

int handoff_model_nkc(const struct handoff_model *m, int i)
{
	return i >= 0 && i < m->norder ? m->nodes[m->order[i]]->nkcs : 0;
}

const struct kcompactd_episode *handoff_model_kc(const struct handoff_model *m, int i, int e)
{
	struct hnode *n;

	if (i < 0 || i >= m->norder)
		return NULL;
	n = m->nodes[m->order[i]];
	return e >= 0 && e < n->nkcs ? &n->kcs[e] : NULL;
}

const char *kc_via_name(enum kc_via v)
{
	static const char *const names[] = { "woken", "pickup", "order<=0" };

	return (unsigned)v < 3 ? names[v] : "?";
}

const char *handoff_kind_name(enum handoff_kind k)
{
	static const char *const names[] = {
		"open", "wakeup", "pickup", "none", "not-needed", "await",
	};

	return (unsigned)k < sizeof(names) / sizeof(names[0]) ? names[k] : "?";
}

const char *wmark_state_name(enum wmark_state s)
{
	static const char *const names[] = { "-", "<min", "<low", "<high", ">high" };

	return (unsigned)s < sizeof(names) / sizeof(names[0]) ? names[s] : "?";
}

const char *handoff_flags_letters(unsigned flags, char *buf, int len)
{
	static const char letters[] = "NLSRXE";
	int off = 0;

	for (int b = 0; b < 6 && off < len - 1; b++)
		if (flags & (1u << b))
			buf[off++] = letters[b];
	if (!off && len > 1)
		buf[off++] = '-';
	buf[off < len ? off : len - 1] = '\0';
	return buf;
}

const char *handoff_flags_str(unsigned flags, char *buf, int len)
{
	static const char *const names[] = {
		"no-handoff", "long", "stall", "rewake", "lost", "at-end",
	};
	int off = 0;

	buf[0] = '\0';
	for (int b = 0; b < 6 && off < len; b++)
		if (flags & (1u << b))
			off += snprintf(buf + off, (size_t)(len - off), "%s%s",
					off ? "," : "", names[b]);
	if (!off && len > 1)
		snprintf(buf, (size_t)len, "-");
	return buf;
}

/* The driver's view (model.h): one entry of models[] in src/analysis.c. */
static void *ops_create(const struct model_env *env) { return handoff_model_new(env->handoff); }
static void ops_add(void *m, const struct record *r) { handoff_model_add(m, r); }
static void ops_bounds(void *m, uint64_t from, uint64_t cut) { handoff_model_bounds(m, from, cut); }
static void ops_finish(void *m, uint64_t end_ts) { handoff_model_finish(m, end_ts); }
static void ops_destroy(void *m) { handoff_model_free(m); }

const struct model_ops handoff_model_ops = {
	.name = "handoff",
	.create_env = ops_create,
	.add = ops_add,
	.bounds = ops_bounds,
	.finish = ops_finish,
	.destroy = ops_destroy,
};
