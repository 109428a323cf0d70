// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Handoff model on hand-built record sequences: a kswapd episode handed
 * off by a wakeup event, by a 500 ms timeout pickup, not at all; a pickup
 * credited to the first episode awake since its request could have been
 * made, not to a later one, in that episode's window; order-0
 * episodes; proactive (order -1) kcompactd wakes; proactive passes
 * (compaction by kcompactd without a wake); long episodes;
 * re-wakeups; stalls while kcompactd slept; lost events inside an
 * episode; a wake without a sleep at the end of the file; two nodes;
 * watermarks from zone samples, and no samples at all; memory hotplug
 * (managed pages change, the largest zone switches mid-run). The
 * compaction model is fed the same records: its kcompactd and proactive
 * runners must agree with the handoff's requests and passes.
 */
#include "config.h"
#include "model-compaction.h"
#include "model-handoff.h"
#include "sample-rec.h"
#include "tap.h"

#include <string.h>

#define MS 1000000ULL
#define KSWAPD0 40
#define KSWAPD1 41
#define KCD0 36
#define KCD1 37

static struct handoff_model *m;
static struct compaction_model *cm;

static void feed(struct record *r)
{
	handoff_model_add(m, r);
	compaction_model_add(cm, r);
}

static void wakeup_kswapd(uint64_t t, int nid, int order)
{
	struct record r = { .type = REC_WAKEUP_KSWAPD, .ts = t * MS, .pid = 1000,
			    .comm = "alloc" };

	r.wake.nid = nid;
	r.wake.order = order;
	r.wake.zid = 2;
	feed(&r);
}

static void kswapd(enum rec_type type, uint64_t t, int nid, int order)
{
	struct record r = { .type = type, .ts = t * MS, .pid = nid ? KSWAPD1 : KSWAPD0 };

	if (type == REC_KSWAPD_SLEEP) {
		r.sleep.nid = nid;
	} else {
		r.wake.nid = nid;
		r.wake.order = order;
		r.wake.zid = 2;
	}
	feed(&r);
}

static void kcd(enum rec_type type, uint64_t t, int nid, int order, int pid)
{
	struct record r = { .type = type, .ts = t * MS, .pid = pid };

	if (type == REC_KCOMPACTD_SLEEP) {
		r.sleep.nid = nid;
	} else {
		r.wake.nid = nid;
		r.wake.order = order;
		r.wake.zid = 2;
	}
	feed(&r);
}

static void shrink(uint64_t t, int nid, int pid, int scanned, int reclaimed)
{
	struct record r = { .type = REC_SHRINK_INACTIVE, .ts = t * MS, .pid = pid };

	r.shrink.nid = nid;
	r.shrink.scanned = (uint64_t)scanned;
	r.shrink.reclaimed = (uint64_t)reclaimed;
	feed(&r);
}

static void zone(uint64_t t, uint64_t seq, int nid, int free)
{
	struct record r = { .type = REC_ZONE, .ts = t * MS };
	struct record e = { .type = REC_SAMPLE_END, .ts = t * MS };

	r.zone.seq = seq;
	r.zone.node = nid;
	r.zone.zone = "Normal";
	r.zone.free = free;
	r.zone.min = 100;
	r.zone.low = 200;
	r.zone.high = 300;
	r.zone.managed = 100000;
	r.zone.free_blocks = -1;
	feed(&r);
	e.send.seq = seq;
	feed(&e);
}

static void fresh(void)
{
	handoff_model_free(m);
	m = handoff_model_new(NULL);
	compaction_model_free(cm);
	cm = compaction_model_new();
}

static uint64_t cruns(enum compact_runner r)
{
	return compaction_model_stats(cm)->runner[r].runs;
}

static const struct kswapd_episode *ep(int node, int e)
{
	return handoff_model_episode(m, node, e);
}

static void test_wakeup_handoff(void)
{
	fresh();
	kcd(REC_KCOMPACTD_SLEEP, 0, 0, 0, KCD0);
	wakeup_kswapd(10, 0, 3);
	kswapd(REC_KSWAPD_WAKE, 11, 0, 3);
	shrink(12, 0, KSWAPD0, 64, 60);
	shrink(13, 0, 999, 10, 10);	/* another task: not kswapd's */
	kcd(REC_WAKEUP_KCOMPACTD, 50, 0, 3, KSWAPD0);
	kcd(REC_KCOMPACTD_WAKE, 51, 0, 3, KCD0);
	kcd(REC_KCOMPACTD_SLEEP, 80, 0, 0, KCD0);
	kswapd(REC_KSWAPD_SLEEP, 150, 0, 0);
	handoff_model_finish(m, 1000 * MS);
	is_int(handoff_model_nnodes(m), 1, "wakeup: one node");
	is_int(handoff_model_nepisodes(m, 0), 1, "wakeup: one episode");
	is_int(ep(0, 0)->handoff, HO_WAKEUP, "wakeup: handed off by wakeup event");
	is_int(ep(0, 0)->handoff_order, 3, "wakeup: handoff order");
	is_int(ep(0, 0)->order, 3, "wakeup: episode order");
	is_int(ep(0, 0)->wakeups, 1, "wakeup: one allocator wakeup counted");
	is_str(ep(0, 0)->waker, "alloc", "wakeup: waker comm");
	is_int(ep(0, 0)->scanned, 64, "wakeup: only kswapd's scans");
	is_int(ep(0, 0)->end - ep(0, 0)->start, 139 * MS, "wakeup: duration");
	is_int(ep(0, 0)->flags, 0, "wakeup: no flags");
	is_int(handoff_model_node(m, 0)->kc_woken, 1, "wakeup: kcompactd woken");
	is_int(handoff_model_node(m, 0)->kc_busy_ns, 29 * MS, "wakeup: kcompactd busy");
	is_int(handoff_model_nkc(m, 0), 1, "wakeup: one kcompactd request");
	ok(handoff_model_kc(m, 0, 0)->via == KC_WOKEN && handoff_model_kc(m, 0, 0)->for_kswapd &&
	   handoff_model_kc(m, 0, 0)->order == 3, "wakeup: kcompactd woken for kswapd");
}

static void test_pickup(void)
{
	fresh();
	kcd(REC_KCOMPACTD_SLEEP, 0, 0, 0, KCD0);
	kswapd(REC_KSWAPD_WAKE, 10, 0, 4);
	kswapd(REC_KSWAPD_SLEEP, 200, 0, 0);
	/* no wakeup event: kcompactd takes it at its 500 ms timeout */
	kcd(REC_KCOMPACTD_WAKE, 500, 0, 4, KCD0);
	handoff_model_finish(m, 2000 * MS);
	is_int(ep(0, 0)->handoff, HO_PICKUP, "pickup: counted as a handoff");
	is_int(ep(0, 0)->handoff_order, 4, "pickup: order");
	is_int(handoff_model_node(m, 0)->kc_pickup, 1, "pickup: kcompactd pickup count");
	is_int(handoff_model_node(m, 0)->ho_pickup, 1, "pickup: node count");
	ok(handoff_model_nkc(m, 0) == 1 && handoff_model_kc(m, 0, 0)->via == KC_PICKUP &&
	   handoff_model_kc(m, 0, 0)->end == 2000 * MS, "pickup: request open to the end");
}

/* Issue 17.1: a pickup of a request older than the open episode (made
 * before it began) is not its handoff; the episode's own wakeup event
 * makes it "wake", even after a pickup was credited to it. */
static void test_pickup_predates_episode(void)
{
	fresh();
	kcd(REC_KCOMPACTD_SLEEP, 0, 0, 0, KCD0);
	kcd(REC_KCOMPACTD_SLEEP, 500, 0, 0, KCD0);	/* idle wait ended */
	kswapd(REC_KSWAPD_WAKE, 600, 0, 3);
	/* requested in [500, 900]: may be older than the episode */
	kcd(REC_KCOMPACTD_WAKE, 900, 0, 3, KCD0);
	kcd(REC_KCOMPACTD_SLEEP, 901, 0, 0, KCD0);
	kcd(REC_WAKEUP_KCOMPACTD, 1100, 0, 3, KSWAPD0);
	kcd(REC_KCOMPACTD_WAKE, 1101, 0, 3, KCD0);
	kswapd(REC_KSWAPD_SLEEP, 1200, 0, 0);
	handoff_model_finish(m, 3000 * MS);
	is_int(handoff_model_nepisodes(m, 0), 1, "predates: one episode");
	is_int(ep(0, 0)->handoff, HO_WAKEUP, "predates: the episode's own wakeup wins");
	is_int(ep(0, 0)->handoff_ts, 1100 * MS, "predates: handoff at the wakeup event");
	ok(!handoff_model_kc(m, 0, 0)->for_kswapd, "predates: the older request served no episode");

	fresh();
	kcd(REC_KCOMPACTD_SLEEP, 0, 0, 0, KCD0);
	kswapd(REC_KSWAPD_WAKE, 10, 0, 3);
	kcd(REC_KCOMPACTD_SLEEP, 500, 0, 0, KCD0);
	/* requested in [500, 1000], inside the episode: a pickup... */
	kcd(REC_KCOMPACTD_WAKE, 1000, 0, 3, KCD0);
	kcd(REC_KCOMPACTD_SLEEP, 1001, 0, 0, KCD0);
	/* ... until kswapd emits the wakeup itself */
	kcd(REC_WAKEUP_KCOMPACTD, 1100, 0, 3, KSWAPD0);
	kswapd(REC_KSWAPD_SLEEP, 1200, 0, 0);
	handoff_model_finish(m, 3000 * MS);
	is_int(ep(0, 0)->handoff, HO_WAKEUP, "wakeup after pickup: wake");

	fresh();
	kcd(REC_KCOMPACTD_SLEEP, 0, 0, 0, KCD0);
	kswapd(REC_KSWAPD_WAKE, 10, 0, 3);
	kcd(REC_KCOMPACTD_SLEEP, 500, 0, 0, KCD0);
	kcd(REC_KCOMPACTD_WAKE, 1000, 0, 3, KCD0);
	kcd(REC_KCOMPACTD_SLEEP, 1001, 0, 0, KCD0);
	kswapd(REC_KSWAPD_SLEEP, 1200, 0, 0);
	handoff_model_finish(m, 3000 * MS);
	is_int(ep(0, 0)->handoff, HO_PICKUP, "pickup inside the episode: pick");

	/* a closed episode does not take a request made after kcompactd's
	 * next idle wait: that wait would have run the episode's request */
	fresh();
	kcd(REC_KCOMPACTD_SLEEP, 0, 0, 0, KCD0);
	kswapd(REC_KSWAPD_WAKE, 10, 0, 3);
	kswapd(REC_KSWAPD_SLEEP, 100, 0, 0);
	kcd(REC_KCOMPACTD_SLEEP, 500, 0, 0, KCD0);
	kcd(REC_KCOMPACTD_WAKE, 550, 0, 3, KCD0);
	handoff_model_finish(m, 3000 * MS);
	is_int(ep(0, 0)->handoff, HO_NONE, "closed episode, later request: none");
}

/* Issue 32.14: kcompactd busy in proactive compaction (no wake event)
 * when kswapd went to sleep; its next sleep event is followed at once by
 * a wake of the episode's order with no wakeup event between: the request
 * was pending at that sleep, which was no idle wait. The episode's
 * request is the one picked up. */
static void test_pickup_after_busy_sleep(void)
{
	fresh();
	kcd(REC_KCOMPACTD_SLEEP, 0, 0, 0, KCD0);
	kswapd(REC_KSWAPD_WAKE, 300, 0, 9);
	kswapd(REC_KSWAPD_SLEEP, 400, 0, 0);
	/* the timeout at 500 ran proactive compaction until 520 */
	kcd(REC_KCOMPACTD_SLEEP, 520, 0, 0, KCD0);
	kcd(REC_KCOMPACTD_WAKE, 521, 0, 9, KCD0);
	kcd(REC_KCOMPACTD_SLEEP, 600, 0, 0, KCD0);
	handoff_model_finish(m, 3000 * MS);
	is_int(ep(0, 0)->handoff, HO_PICKUP, "busy sleep, wake at once: pickup");
	is_int(handoff_model_node(m, 0)->ho_none, 0, "busy sleep, wake at once: no none");
	ok(handoff_model_kc(m, 0, 0)->for_kswapd, "busy sleep: the request served kswapd");
}

/* The same, as recorded in a 7.2 guest (tests/report/handoff-pickup.sh):
 * the proactive compaction was started by a write of
 * vm.compaction_proactiveness (wakeup_kcompactd order -1, from the
 * writer), which runs no kcompactd_do_work and so has no wake of its own:
 * it is no wakeup of the later order-9 wake. */
static void test_pickup_after_sysctl_proactive(void)
{
	fresh();
	kcd(REC_KCOMPACTD_SLEEP, 0, 0, 0, KCD0);
	kcd(REC_WAKEUP_KCOMPACTD, 100, 0, -1, 900);	/* the sysctl write */
	kswapd(REC_KSWAPD_WAKE, 300, 0, 9);
	kswapd(REC_KSWAPD_SLEEP, 400, 0, 0);
	/* proactive compaction from 100 to 520 */
	kcd(REC_KCOMPACTD_SLEEP, 520, 0, 0, KCD0);
	kcd(REC_KCOMPACTD_WAKE, 521, 0, 9, KCD0);
	kcd(REC_KCOMPACTD_SLEEP, 600, 0, 0, KCD0);
	handoff_model_finish(m, 3000 * MS);
	is_int(ep(0, 0)->handoff, HO_PICKUP, "sysctl proactive, wake at once: pickup");
	is_int(handoff_model_kc(m, 0, 0)->via, KC_PICKUP,
	       "sysctl proactive: the order-9 wake was no wakeup's");
	is_int(handoff_model_node(m, 0)->kc_wakeups_proactive, 1,
	       "sysctl proactive: the write counted as such");
}

/* Issue 44.3 (a 6.12 guest): kcompactd's last idle sleep fell inside a
 * long episode A; two short ones, B and C, followed; kcompactd then ran a
 * request without a wakeup event. The request was made at or after that
 * sleep, by A as likely as by B or C: it may predate B and C, so neither
 * takes it (C took it, A and B "none"). Only the first episode awake
 * since that sleep can, A, and only in its pickup window, which B's sleep
 * does not end: within it A takes the request (B took it, A "none"). */
static void test_pickup_first_awake(void)
{
	fresh();
	kcd(REC_KCOMPACTD_SLEEP, 100, 0, 0, KCD0);
	kswapd(REC_KSWAPD_WAKE, 500, 0, 9);		/* A */
	kcd(REC_KCOMPACTD_SLEEP, 600, 0, 0, KCD0);	/* idle: requests from 600 */
	kswapd(REC_KSWAPD_SLEEP, 2000, 0, 0);
	kswapd(REC_KSWAPD_WAKE, 2300, 0, 9);		/* B */
	kswapd(REC_KSWAPD_SLEEP, 2400, 0, 0);
	kswapd(REC_KSWAPD_WAKE, 2700, 0, 9);		/* C */
	kswapd(REC_KSWAPD_SLEEP, 2800, 0, 0);
	kcd(REC_KCOMPACTD_WAKE, 3000, 0, 9, KCD0);	/* past A's window */
	kcd(REC_KCOMPACTD_SLEEP, 3010, 0, 0, KCD0);
	handoff_model_finish(m, 5000 * MS);
	is_int(handoff_model_nepisodes(m, 0), 3, "first awake: three episodes");
	is_int(ep(0, 0)->handoff, HO_NONE, "first awake, past its window: A none");
	is_int(ep(0, 1)->handoff, HO_NONE, "first awake: B may be predated, none");
	is_int(ep(0, 2)->handoff, HO_NONE, "first awake: C may be predated, none");
	ok(!handoff_model_kc(m, 0, 0)->for_kswapd, "first awake: the request served no episode");

	fresh();
	kcd(REC_KCOMPACTD_SLEEP, 100, 0, 0, KCD0);
	kswapd(REC_KSWAPD_WAKE, 500, 0, 9);		/* A */
	kcd(REC_KCOMPACTD_SLEEP, 600, 0, 0, KCD0);
	kswapd(REC_KSWAPD_SLEEP, 2000, 0, 0);		/* A waits until 2600 */
	kswapd(REC_KSWAPD_WAKE, 2100, 0, 9);		/* B */
	kswapd(REC_KSWAPD_SLEEP, 2200, 0, 0);
	kcd(REC_KCOMPACTD_WAKE, 2400, 0, 9, KCD0);	/* in A's window */
	kcd(REC_KCOMPACTD_SLEEP, 2410, 0, 0, KCD0);
	handoff_model_finish(m, 5000 * MS);
	is_int(ep(0, 0)->handoff, HO_PICKUP, "first awake, in its window: A pick");
	is_int(ep(0, 0)->handoff_ts, 2400 * MS, "first awake: A's pickup at the wake");
	is_int(ep(0, 1)->handoff, HO_NONE, "first awake: B none");
	ok(handoff_model_kc(m, 0, 0)->for_kswapd, "first awake: the request served A");
	is_int(handoff_model_node(m, 0)->ho_pickup, 1, "first awake: one pickup");
	is_int(handoff_model_node(m, 0)->ho_none, 1, "first awake: one none");

	/* kswapd asleep from kcompactd's idle sleep until B woke: the
	 * request cannot predate B (only kswapd makes them), B takes it */
	fresh();
	kcd(REC_KCOMPACTD_SLEEP, 100, 0, 0, KCD0);
	kswapd(REC_KSWAPD_WAKE, 200, 0, 9);		/* A */
	kswapd(REC_KSWAPD_SLEEP, 400, 0, 0);
	kcd(REC_KCOMPACTD_SLEEP, 600, 0, 0, KCD0);	/* requests from 600 */
	kswapd(REC_KSWAPD_WAKE, 700, 0, 9);		/* B */
	kswapd(REC_KSWAPD_SLEEP, 800, 0, 0);
	kcd(REC_KCOMPACTD_WAKE, 1000, 0, 9, KCD0);
	kcd(REC_KCOMPACTD_SLEEP, 1010, 0, 0, KCD0);
	handoff_model_finish(m, 5000 * MS);
	is_int(ep(0, 0)->handoff, HO_NONE, "asleep between: A none");
	is_int(ep(0, 1)->handoff, HO_PICKUP, "asleep between: B pick");
}

/* Issue 17.4: an episode waiting out its pickup window while the next
 * one begins and resolves stays first. */
static void test_episode_order(void)
{
	fresh();
	kcd(REC_KCOMPACTD_SLEEP, 0, 0, 0, KCD0);
	kswapd(REC_KSWAPD_WAKE, 10, 0, 2);
	kswapd(REC_KSWAPD_SLEEP, 100, 0, 0);		/* waits until 700 */
	kswapd(REC_KSWAPD_WAKE, 200, 0, 0);
	kswapd(REC_KSWAPD_SLEEP, 300, 0, 0);		/* order 0: resolved now */
	kcd(REC_KCOMPACTD_SLEEP, 900, 0, 0, KCD0);
	handoff_model_finish(m, 3000 * MS);
	is_int(handoff_model_nepisodes(m, 0), 2, "order: two episodes");
	ok(ep(0, 0)->start == 10 * MS && ep(0, 1)->start == 200 * MS,
	   "order: stored by start time");
	is_int(ep(0, 0)->handoff, HO_NONE, "order: first had no handoff");
	is_int(ep(0, 1)->handoff, HO_NOT_NEEDED, "order: second needed none");
}

static void test_no_handoff_and_proactive(void)
{
	fresh();
	kcd(REC_KCOMPACTD_SLEEP, 0, 0, 0, KCD0);
	kswapd(REC_KSWAPD_WAKE, 10, 0, 2);
	kswapd(REC_KSWAPD_SLEEP, 100, 0, 0);
	/* proactive wake (order -1) inside the window is no handoff */
	kcd(REC_KCOMPACTD_WAKE, 300, 0, -1, KCD0);
	kcd(REC_KCOMPACTD_SLEEP, 310, 0, 0, KCD0);
	kcd(REC_KCOMPACTD_SLEEP, 820, 0, 0, KCD0);	/* past the window */
	handoff_model_finish(m, 2000 * MS);
	is_int(ep(0, 0)->handoff, HO_NONE, "none: no handoff after order-2 episode");
	ok(ep(0, 0)->flags & HF_NO_HANDOFF, "none: flagged no-handoff");
	is_int(handoff_model_node(m, 0)->kc_proactive, 1, "none: proactive wake counted");
	ok(handoff_model_kc(m, 0, 0)->via == KC_ORDER0 && !handoff_model_kc(m, 0, 0)->for_kswapd,
	   "none: proactive request serves no kswapd episode");
	is_int(handoff_model_node(m, 0)->flags_count[0], 1, "none: flag counted");
}

static void crun(enum rec_type type, uint64_t t, int pid, int status)
{
	struct record r = { .type = type, .ts = t * MS, .pid = pid,
			    .comm = pid == KCD0 ? "kcompactd0" : "a.out" };

	r.crun.status = status;
	feed(&r);
}

/* Proactive compaction emits no kcompactd_wake: compaction runs by
 * kcompactd outside its requests, one pass per compact_node() (one run
 * per zone) up to the next kcompactd_sleep. */
static void test_proactive_passes(void)
{
	const struct handoff_node_stats *st;

	fresh();
	crun(REC_COMPACT_BEGIN, 1, KCD0, 0);	/* kcompactd not yet known */
	crun(REC_COMPACT_END, 2, KCD0, 1);
	kcd(REC_KCOMPACTD_SLEEP, 10, 0, 0, KCD0);
	/* a pass on the 500 ms timeout: two zones */
	crun(REC_COMPACT_BEGIN, 510, KCD0, 0);
	crun(REC_COMPACT_END, 511, KCD0, 1);
	crun(REC_COMPACT_BEGIN, 512, KCD0, 0);
	crun(REC_COMPACT_END, 600, KCD0, 1);
	crun(REC_COMPACT_BEGIN, 550, 900, 0);	/* another task's run */
	crun(REC_COMPACT_END, 560, 900, 1);
	kcd(REC_KCOMPACTD_SLEEP, 601, 0, 0, KCD0);
	/* a request: its runs are not proactive */
	kcd(REC_KCOMPACTD_WAKE, 700, 0, 9, KCD0);
	crun(REC_COMPACT_BEGIN, 701, KCD0, 0);
	crun(REC_COMPACT_END, 710, KCD0, 8);
	kcd(REC_KCOMPACTD_SLEEP, 720, 0, 0, KCD0);
	/* a write of the sysctl, then a pass (no wake event) */
	kcd(REC_WAKEUP_KCOMPACTD, 800, 0, -1, 901);
	crun(REC_COMPACT_BEGIN, 801, KCD0, 0);
	crun(REC_COMPACT_END, 802, KCD0, 1);
	kcd(REC_KCOMPACTD_SLEEP, 900, 0, 0, KCD0);
	/* events lost: the next run cannot be told, until a sleep */
	feed(&(struct record){ .type = REC_LOST, .ts = 1000 * MS });
	crun(REC_COMPACT_BEGIN, 1001, KCD0, 0);
	crun(REC_COMPACT_END, 1002, KCD0, 1);
	kcd(REC_KCOMPACTD_SLEEP, 1100, 0, 0, KCD0);
	/* a pass still running at the end */
	crun(REC_COMPACT_BEGIN, 1500, KCD0, 0);
	handoff_model_finish(m, 1600 * MS);
	st = handoff_model_node(m, 0);
	is_int(st->kc_pro_passes, 3, "proactive: three passes (timeout, sysctl, at end)");
	is_int(st->kc_pro_runs, 3, "proactive: their ended runs (two zones, one)");
	is_int(st->kc_pro_ns, (91 + 99 + 100) * MS, "proactive: first begin to sleep or end");
	is_int(st->kc_runs_unclassified, 1, "proactive: the run after lost events");
	is_int(st->kc_runs, 5, "proactive: kcompactd's runs once known, all kinds");
	is_int(st->kc_proactive, 0, "proactive: no wake of order <= 0");
	is_int(st->kc_wakes, 1, "proactive: the request's wake only");
	is_int(handoff_model_kc(m, 0, 0)->runs, 1, "proactive: the request's run");
	/* the compaction section's runners: the same runs */
	compaction_model_finish(cm, 1600 * MS);
	is_int(cruns(CR_PROACTIVE), st->kc_pro_runs, "compaction: proactive runs as handoff");
	is_int(cruns(CR_KCOMPACTD), 1, "compaction: the request's run");
	is_int(cruns(CR_KC_UNCLASSIFIED), 2,
	       "compaction: kcompactd (by name) before its state was known, after a loss");
	is_int(cruns(CR_MANUAL), 1, "compaction: another task's run");
	is_int(compaction_model_stats(cm)->runner[CR_PROACTIVE].open_at_end, 1,
	       "compaction: the pass open at the end");
	/* where kcompactd's wakes or sleeps were not recorded: one kc_unknown */
	{
		struct compact_stats fold = *compaction_model_stats(cm);

		compact_stats_fold_kcompactd(&fold);
		is_int(fold.runner[CR_KC_UNCLASSIFIED].runs, 6, "fold: 3 + 1 + 2 kcompactd runs");
		is_int(fold.runner[CR_KC_UNCLASSIFIED].dur.count, 6, "fold: their durations");
		is_int(fold.runner[CR_KC_UNCLASSIFIED].open_at_end, 1, "fold: the open pass");
		is_int(fold.runner[CR_PROACTIVE].runs + fold.runner[CR_KCOMPACTD].runs, 0,
		       "fold: no request or proactive run left");
		is_int(fold.runner[CR_MANUAL].runs, 1, "fold: others untouched");
		is_int(compact_runner_shown(CR_PROACTIVE, 0), CR_KC_UNCLASSIFIED,
		       "shown: proactive unknown without wakes/sleeps");
		is_int(compact_runner_shown(CR_KCOMPACTD, 1), CR_KCOMPACTD, "shown: with them");
		is_int(compact_runner_shown(CR_DIRECT, 0), CR_DIRECT, "shown: direct as is");
	}
}

/* A kcompactd_wake of order <= 0 (6.12+ emit none) starts a request
 * served by kcompactd_do_work(): its runs are no proactive pass, in
 * either model. */
static void test_order0_wake_runs(void)
{
	fresh();
	kcd(REC_KCOMPACTD_SLEEP, 0, 0, 0, KCD0);
	kcd(REC_KCOMPACTD_WAKE, 100, 0, 0, KCD0);
	crun(REC_COMPACT_BEGIN, 101, KCD0, 0);
	crun(REC_COMPACT_END, 102, KCD0, 5);
	kcd(REC_KCOMPACTD_SLEEP, 110, 0, 0, KCD0);
	handoff_model_finish(m, 200 * MS);
	compaction_model_finish(cm, 200 * MS);
	is_int(handoff_model_node(m, 0)->kc_proactive, 1, "order0 wake: an order<=0 wake");
	is_int(handoff_model_node(m, 0)->kc_pro_runs, 0, "order0 wake: no proactive run");
	is_int(cruns(CR_PROACTIVE), 0, "order0 wake: compaction, no proactive run");
	is_int(cruns(CR_KCOMPACTD), 1, "order0 wake: compaction, kcompactd's run");
	/* the request's "via" in text, JSON, CSV and Perfetto: what it is */
	is_int(handoff_model_kc(m, 0, 0)->via, KC_ORDER0, "order0 wake: via order<=0");
	is_str(kc_via_name(handoff_model_kc(m, 0, 0)->via), "order<=0",
	       "order0 wake: named order<=0, not proactive");
}

static void test_order0_long_rewake(void)
{
	fresh();
	kswapd(REC_KSWAPD_WAKE, 0, 0, 0);
	kswapd(REC_KSWAPD_WAKE, 500, 0, 0);	/* re-balance inside */
	kswapd(REC_KSWAPD_SLEEP, 1500, 0, 0);
	kswapd(REC_KSWAPD_WAKE, 1550, 0, 0);	/* 50 ms after sleeping */
	kswapd(REC_KSWAPD_SLEEP, 1600, 0, 0);
	handoff_model_finish(m, 3000 * MS);
	is_int(handoff_model_nepisodes(m, 0), 2, "order0: two episodes");
	is_int(ep(0, 0)->handoff, HO_NOT_NEEDED, "order0: nothing to hand off");
	is_int(ep(0, 0)->rebalances, 1, "order0: re-balance counted");
	ok(ep(0, 0)->flags & HF_LONG, "order0: 1.5 s episode flagged long");
	ok(ep(0, 1)->flags & HF_REWAKE, "order0: re-wake within 200 ms flagged");
	ok(!(ep(0, 1)->flags & HF_LONG), "order0: short episode not long");
}

static void test_stall_lost_at_end(void)
{
	struct record r = { .type = REC_RECLAIM_BEGIN, .pid = 1000 };
	struct record lost = { .type = REC_LOST };

	fresh();
	kcd(REC_KCOMPACTD_SLEEP, 0, 0, 0, KCD0);
	kswapd(REC_KSWAPD_WAKE, 10, 0, 9);
	r.ts = 20 * MS;
	r.rbegin.kind = RK_DIRECT;
	feed(&r);
	r.type = REC_COMPACT_TRY;
	r.ts = 21 * MS;
	feed(&r);
	lost.ts = 30 * MS;
	lost.lost.count = 12;
	feed(&lost);
	/* the recording ends with kswapd awake */
	handoff_model_finish(m, 40 * MS);
	is_int(handoff_model_nepisodes(m, 0), 1, "at-end: episode kept");
	is_int(ep(0, 0)->handoff, HO_OPEN, "at-end: handoff open");
	ok(ep(0, 0)->flags & HF_AT_END, "at-end: flagged");
	ok(ep(0, 0)->flags & HF_LOST, "lost: flagged inside the episode");
	ok(ep(0, 0)->flags & HF_STALL, "stall: flagged while kcompactd slept");
	is_int(ep(0, 0)->stalls, 2, "stall: direct reclaim and compaction");
	is_int(handoff_model_node(m, 0)->stalls_kc_asleep, 2, "stall: node count");
	is_int(ep(0, 0)->end, 40 * MS, "at-end: ends at the end of the file");
	ok(!(ep(0, 0)->flags & HF_LONG), "at-end: 30 ms is not long");
	fresh();
	kswapd(REC_KSWAPD_WAKE, 10, 0, 9);
	handoff_model_finish(m, 5000 * MS);
	ok(ep(0, 0)->flags & HF_LONG, "at-end: awake 5 s to the end is long");
}

static void test_pending_at_end(void)
{
	fresh();
	kswapd(REC_KSWAPD_WAKE, 10, 0, 3);
	kswapd(REC_KSWAPD_SLEEP, 20, 0, 0);
	handoff_model_finish(m, 100 * MS);	/* window not over yet */
	is_int(ep(0, 0)->handoff, HO_OPEN, "pending-at-end: left open, not 'none'");
}

static void test_two_nodes(void)
{
	fresh();
	kcd(REC_KCOMPACTD_SLEEP, 0, 1, 0, KCD1);
	kcd(REC_KCOMPACTD_SLEEP, 0, 0, 0, KCD0);
	kswapd(REC_KSWAPD_WAKE, 10, 1, 2);
	kswapd(REC_KSWAPD_WAKE, 11, 0, 0);
	shrink(12, 1, KSWAPD1, 32, 30);
	shrink(12, 0, KSWAPD0, 16, 8);
	kcd(REC_WAKEUP_KCOMPACTD, 40, 1, 2, KSWAPD1);
	kcd(REC_KCOMPACTD_WAKE, 41, 1, 2, KCD1);
	kswapd(REC_KSWAPD_SLEEP, 50, 0, 0);
	kswapd(REC_KSWAPD_SLEEP, 140, 1, 0);
	handoff_model_finish(m, 1000 * MS);
	is_int(handoff_model_nnodes(m), 2, "two nodes");
	is_int(handoff_model_node(m, 0)->nid, 0, "nodes in nid order");
	is_int(ep(0, 0)->handoff, HO_NOT_NEEDED, "node 0: order 0");
	is_int(ep(1, 0)->handoff, HO_WAKEUP, "node 1: handed off");
	is_int(ep(0, 0)->scanned, 16, "node 0: its own kswapd's scans");
	is_int(ep(1, 0)->reclaimed, 30, "node 1: its own kswapd's reclaim");
}

static void test_watermarks(void)
{
	fresh();
	zone(0, 0, 0, 1000);
	kswapd(REC_KSWAPD_WAKE, 10, 0, 0);
	zone(20, 1, 0, 150);
	kswapd(REC_KSWAPD_SLEEP, 30, 0, 0);
	zone(40, 2, 0, 50);
	/* a set without its end line never counts */
	{
		struct record r = { .type = REC_ZONE, .ts = 50 * MS };

		r.zone.seq = 3;
		r.zone.node = 0;
		r.zone.zone = "Normal";
		r.zone.free = 1;
		r.zone.min = 100;
		r.zone.low = 200;
		r.zone.high = 300;
		r.zone.managed = 100000;
		feed(&r);
	}
	{
		struct record b = { .type = REC_BUDDY, .ts = 60 * MS };
		struct record e = { .type = REC_SAMPLE_END, .ts = 60 * MS };

		zone(60, 4, 0, 40);	/* zone line and end of set 4 ... */
		b.buddy.seq = 5;	/* ... then set 5 with a buddy line */
		b.buddy.node = 0;
		b.buddy.zone = "Normal";
		b.buddy.norders = 11;
		b.buddy.free[0] = 40;
		b.buddy.free[9] = 2;
		b.buddy.free[10] = 1;
		feed(&b);
		e.send.seq = 5;
		feed(&e);
	}
	handoff_model_finish(m, 100 * MS);
	is_int(wmark_blocks_from(&handoff_model_node(m, 0)->wm_last, 9), 3,
	       "wmark: buddyinfo blocks of order >= 9 with the watermarks");
	is_int(wmark_blocks_from(&handoff_model_node(m, 0)->wm_first, 9), -1,
	       "wmark: no buddyinfo in the first set");
	is_int(ep(0, 0)->wm_start.state, WM_ABOVE_HIGH, "wmark: above high at start");
	is_int(ep(0, 0)->wm_end.state, WM_MIN_LOW, "wmark: min..low at sleep");
	is_int(handoff_model_node(m, 0)->wm_lowest.free, 40, "wmark: lowest");
	is_int(handoff_model_node(m, 0)->wm_last.free, 40, "wmark: incomplete set ignored");
	is_int(handoff_model_node(m, 0)->wm_last.state, WM_BELOW_MIN, "wmark: below min");
}

static void zline(uint64_t t, uint64_t seq, const char *name, int64_t managed, int64_t free,
		  int64_t min)
{
	struct record r = rec_zone(t * MS, seq, name, managed, free, min);

	feed(&r);
}

static void set_end(uint64_t t, uint64_t seq)
{
	struct record e = { .type = REC_SAMPLE_END, .ts = t * MS };

	e.send.seq = seq;
	feed(&e);
}

/* DMA32 is the largest zone and the closest to its high watermark, then
 * memory is onlined into Normal, which grows past it and comes closer to
 * its own; later Normal is partly offlined and shrinks. The zone shown
 * is the one closest to its high watermark (wmark_zone_closer). */
static void test_hotplug(void)
{
	const struct handoff_node_stats *st;

	fresh();
	zline(0, 0, "DMA", 4000, 3000, 10);
	zline(0, 0, "DMA32", 800000, 772915, 4000);
	zline(0, 0, "Normal", 100000, 99000, 500);	/* 132 x high: DMA32 129 */
	set_end(0, 0);
	kswapd(REC_KSWAPD_WAKE, 10, 0, 0);
	/* Normal grows past DMA32: its watermarks are larger too */
	zline(20, 1, "DMA32", 800000, 700000, 4000);
	zline(20, 1, "Normal", 1000000, 4831, 6000);
	set_end(20, 1);
	kswapd(REC_KSWAPD_SLEEP, 30, 0, 0);
	/* a tie of managed pages: Normal has been closer to its high */
	zline(40, 2, "DMA32", 1000000, 700000, 4000);
	zline(40, 2, "Normal", 1000000, 50000, 7000);
	set_end(40, 2);
	/* Normal shrinks (offlined), DMA32 larger: Normal still shown */
	zline(60, 3, "DMA32", 800000, 700000, 4000);
	zline(60, 3, "Normal", 900000, 172588, 5000);
	set_end(60, 3);
	handoff_model_finish(m, 100 * MS);
	st = handoff_model_node(m, 0);
	is_str(st->wm_first.zone, "DMA32", "hotplug: first sample of DMA32");
	is_int(st->wm_first.free, 772915, "hotplug: DMA32's free pages first");
	is_int(st->wm_first.min, 4000, "hotplug: DMA32's min with it");
	is_str(st->wm_lowest.zone, "Normal", "hotplug: lowest in Normal");
	is_int(st->wm_lowest.free, 4831, "hotplug: lowest free");
	is_int(st->wm_lowest.high, 9000, "hotplug: high in force at the lowest");
	is_int(st->wm_lowest.state, WM_BELOW_MIN, "hotplug: lowest judged against its own");
	is_int((int)(st->wm_lowest.ts / MS), 20, "hotplug: time of the lowest");
	is_str(st->wm_last.zone, "Normal", "hotplug: last in Normal");
	is_int(st->wm_last.free, 172588, "hotplug: a shrunk zone shown is still sampled");
	is_int(st->wm_last.high, 7500, "hotplug: last's own high");
	is_int(st->wm_last.managed, 900000, "hotplug: last's managed pages");
	is_int(st->managed_first, 904000, "hotplug: node's managed pages first");
	is_int(st->managed_last, 1700000, "hotplug: node's managed pages last");
	is_int(st->managed_changes, 3, "hotplug: sets where managed moved");
	is_int(st->zone_changes, 1, "hotplug: one change of the zone shown");
	is_str(st->zchg[0].from, "DMA32", "hotplug: from DMA32");
	is_str(st->zchg[0].to, "Normal", "hotplug: to Normal");
	is_int((int)(st->zchg[0].ts / MS), 20, "hotplug: when the zone shown changed");
	is_str(ep(0, 0)->wm_start.zone, "DMA32", "hotplug: episode starts in DMA32");
	is_str(ep(0, 0)->wm_low.zone, "Normal", "hotplug: its lowest in Normal");
	is_int(ep(0, 0)->wm_low.min, 6000, "hotplug: with Normal's min then");
}

/* The zone shown is the one whose free pages came closest to its high
 * watermark, not the largest (an idle DMA32 beside a busy Normal); an
 * empty zone (managed 0) never, whatever its free/high. */
static void test_zone_closest(void)
{
	const struct handoff_node_stats *st;

	fresh();
	zline(0, 0, "DMA32", 700000, 600000, 4000);	/* 100 x its high */
	zline(0, 0, "Normal", 300000, 60000, 2000);	/* 20 x */
	zline(0, 0, "Movable", 0, 0, 0);
	set_end(0, 0);
	zline(10, 1, "DMA32", 700000, 6000, 4000);	/* 1 x: now DMA32 */
	zline(10, 1, "Normal", 300000, 50000, 2000);
	zline(10, 1, "Movable", 0, 0, 0);
	set_end(10, 1);
	zline(20, 2, "DMA32", 700000, 600000, 4000);	/* lowest so far counts */
	zline(20, 2, "Normal", 300000, 4000, 2000);	/* 1.33 x */
	set_end(20, 2);
	handoff_model_finish(m, 100 * MS);
	st = handoff_model_node(m, 0);
	is_str(st->wm_first.zone, "Normal", "closest: Normal first, not the larger DMA32");
	is_str(st->wm_last.zone, "DMA32", "closest: DMA32 once it came closer");
	is_int(st->wm_last.free, 600000, "closest: its last sample");
	is_str(st->wm_lowest.zone, "DMA32", "closest: lowest against the high watermark");
	is_int(st->zone_changes, 1, "closest: one change, never to the empty Movable");
	{
		struct wmark_zone_rank a = { 0 }, b = { 0 };

		wmark_zone_rank_add(&a, 100, 0, 5);	/* no high watermark */
		wmark_zone_rank_add(&b, 100, 50, 1);
		ok(wmark_zone_closer(&b, &a) && !wmark_zone_closer(&a, &b),
		   "closest: a zone with a high watermark before one without");
		wmark_zone_rank_add(&a, 100, 50, 5);
		ok(wmark_zone_closer(&a, &b) && !wmark_zone_closer(&b, &a),
		   "closest: a tie goes to the larger zone");
		ok(!wmark_zone_eligible(0) && wmark_zone_eligible(-1),
		   "closest: empty zones never, unknown managed pages may");
	}
}

/* A zone line without managed= (-1) is still the node's only zone. */
static void test_no_managed(void)
{
	fresh();
	zline(0, 0, "Normal", -1, 5000, 100);
	set_end(0, 0);
	handoff_model_finish(m, 100 * MS);
	is_int(handoff_model_node(m, 0)->has_wmarks, 1, "no managed=: watermarks kept");
	is_str(handoff_model_node(m, 0)->wm_last.zone, "Normal", "no managed=: its zone");
}

static void test_no_samples(void)
{
	fresh();
	kswapd(REC_KSWAPD_WAKE, 10, 0, 0);
	kswapd(REC_KSWAPD_SLEEP, 20, 0, 0);
	handoff_model_finish(m, 100 * MS);
	is_int(handoff_model_node(m, 0)->has_wmarks, 0, "no samples: no watermarks");
	is_int(ep(0, 0)->wm_start.state, WM_UNKNOWN, "no samples: state unknown");
}

static void test_balance_end(void)
{
	struct record b = { .type = REC_BALANCE_END, .pid = KSWAPD0 };

	fresh();
	kswapd(REC_KSWAPD_WAKE, 10, 0, 9);
	b.ts = 20 * MS;
	b.balance.nid = 0;
	b.balance.order = 0;	/* kswapd dropped to order 0 */
	b.balance.nr_reclaimed = 1000;
	handoff_model_add(m, &b);
	kswapd(REC_KSWAPD_WAKE, 21, 0, 9);
	b.ts = 30 * MS;
	b.balance.nr_reclaimed = 24;
	handoff_model_add(m, &b);
	kswapd(REC_KSWAPD_SLEEP, 130, 0, 0);
	handoff_model_finish(m, 2000 * MS);
	is_int(ep(0, 0)->balance_runs, 2, "7.x: balance_pgdat runs");
	is_int(ep(0, 0)->balance_reclaimed, 1024, "7.x: balance_pgdat reclaimed");
	is_int(ep(0, 0)->balance_order, 0, "7.x: ended at order 0");
	is_int(ep(0, 0)->rebalances, 1, "7.x: second kswapd_wake is a re-balance");
}

int main(void)
{
	test_wakeup_handoff();
	test_pickup();
	test_pickup_predates_episode();
	test_pickup_after_busy_sleep();
	test_pickup_after_sysctl_proactive();
	test_pickup_first_awake();
	test_episode_order();
	test_no_handoff_and_proactive();
	test_proactive_passes();
	test_order0_wake_runs();
	test_order0_long_rewake();
	test_stall_lost_at_end();
	test_pending_at_end();
	test_two_nodes();
	test_watermarks();
	test_hotplug();
	test_zone_closest();
	test_no_managed();
	test_no_samples();
	test_balance_end();
	handoff_model_free(m);
	compaction_model_free(cm);
	return tap_done();
}
