// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * khugepaged model (see model-khugepaged.h): counts per order and per
 * result name. A scan result says why a range was (not) worth collapsing;
 * a collapse result why a collapse failed; the two are kept apart because
 * the same name (alloc_huge_page_failed) can only be a collapse's.
 */
#include "config.h"
#include "model-khugepaged.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Per task (khugepaged, or MADV_COLLAPSE's caller): whether its last
 * record was a collapse. From 6.1 the scan event is emitted after the
 * collapse it led to and carries that collapse's result (the scan found
 * the range collapsible; the collapse then failed or not): such a scan is
 * collapsible, and its status is the collapse's, not a scan criterion. A
 * small table by pid: khugepaged is one task; a collision only loses one
 * pairing. */
#define THP_TASKS 64

struct khugepaged_model {
	struct thp_order order[THP_NORDERS];
	uint64_t passes, full_scans, bad_order;
	int seen;
	int pmd_order;		/* where records without an order count */
	struct { int pid; enum thp_kind kind; } last[THP_TASKS];
};

struct khugepaged_model *khugepaged_model_new(void)
{
	struct khugepaged_model *m = xcalloc(1, sizeof(struct khugepaged_model));

	m->pmd_order = 9;	/* HPAGE_PMD_ORDER on 4 KB pages, until told */
	return m;
}

void khugepaged_model_set_pmd_order(struct khugepaged_model *m, int order)
{
	if (m && order > 0 && order < THP_NORDERS)
		m->pmd_order = order;
}

int khugepaged_model_pmd_order(const struct khugepaged_model *m) { return m->pmd_order; }

void khugepaged_model_free(struct khugepaged_model *m)
{
	free(m);
}

static struct thp_result *result_named(struct thp_order *o, const struct record *r,
					const char *as)
{
	char name[32];

	if (as)
		snprintf(name, sizeof(name), "%s", as);
	else if (*r->thp.result)
		snprintf(name, sizeof(name), "%s", r->thp.result);
	else
		snprintf(name, sizeof(name), "status %d", r->thp.status);
	for (int i = 0; i < o->nresults; i++)
		if (!strcmp(o->results[i].name, name))
			return &o->results[i];
	if (o->nresults == THP_NRESULTS) {
		snprintf(o->other.name, sizeof(o->other.name), "other");
		return &o->other;
	}
	snprintf(o->results[o->nresults].name, sizeof(o->results[0].name), "%s", name);
	return &o->results[o->nresults++];
}

static struct thp_result *result_of(struct thp_order *o, const struct record *r)
{
	return result_named(o, r, NULL);
}

/* The kind of this task's previous record, and this record's kind kept. */
static enum thp_kind last_kind(struct khugepaged_model *m, const struct record *r)
{
	unsigned slot = (unsigned)r->pid % THP_TASKS;
	enum thp_kind prev = m->last[slot].pid == r->pid ? m->last[slot].kind : THP_SCAN_PASS;

	m->last[slot].pid = r->pid;
	m->last[slot].kind = r->thp.kind;
	return prev;
}

void khugepaged_model_add(struct khugepaged_model *m, const struct record *r)
{
	struct thp_order *o;
	enum thp_kind prev;
	int carries, order;

	if (!m || r->type != REC_THP)
		return;
	m->seen = 1;
	prev = last_kind(m, r);
	/* a scan right after its own task's collapse of the same kind of
	 * memory carries that collapse's result (6.1+; on 5.10 the status
	 * stays "succeeded", which says the same) */
	carries = (r->thp.kind == THP_SCAN_PMD && prev == THP_COLLAPSE) ||
		  (r->thp.kind == THP_SCAN_FILE && prev == THP_COLLAPSE_FILE);
	if (r->thp.kind == THP_SCAN_PASS) {
		m->passes++;
		m->full_scans += r->thp.value != 0;
		return;
	}
	order = r->thp.order < 0 && !r->thp.order_known ? m->pmd_order : r->thp.order;
	if (order < 0 || order >= THP_NORDERS) {
		m->bad_order++;
		return;
	}
	o = &m->order[order];
	o->order_known |= r->thp.order_known;
	switch (r->thp.kind) {
	case THP_SCAN_FILE:
		o->file_scans++;
		/* fall through */
	case THP_SCAN_PMD:
		o->scans++;
		o->scans_ok += r->thp.ok || carries;
		result_named(o, r, carries ? "succeeded" : NULL)->scan++;
		break;
	case THP_COLLAPSE_FILE:
		o->file_collapses++;
		o->file_collapses_ok += r->thp.ok;
		/* fall through */
	case THP_COLLAPSE:
		o->collapses++;
		o->collapses_ok += r->thp.ok;
		result_of(o, r)->collapse++;
		break;
	case THP_ISOLATE:
		o->isolates++;
		o->isolates_ok += r->thp.ok;
		break;
	case THP_SWAPIN:
		o->swapins++;
		o->swapins_ok += r->thp.ok;
		if (r->thp.value > 0)
			o->swapped_in += (uint64_t)r->thp.value;
		break;
	default:
		break;
	}
}

int khugepaged_model_seen(const struct khugepaged_model *m)
{
	return m && m->seen;
}

const struct thp_order *khugepaged_model_order(const struct khugepaged_model *m, int order)
{
	const struct thp_order *o;

	if (!m || order < 0 || order >= THP_NORDERS)
		return NULL;
	o = &m->order[order];
	return o->scans || o->collapses || o->isolates || o->swapins ? o : NULL;
}

uint64_t khugepaged_model_passes(const struct khugepaged_model *m) { return m->passes; }
uint64_t khugepaged_model_full_scans(const struct khugepaged_model *m) { return m->full_scans; }
uint64_t khugepaged_model_bad_order(const struct khugepaged_model *m) { return m->bad_order; }

/* The driver's view (model.h). */
static void *ops_create(void) { return khugepaged_model_new(); }
static void ops_add(void *m, const struct record *r) { khugepaged_model_add(m, r); }
static void ops_destroy(void *m) { khugepaged_model_free(m); }

const struct model_ops khugepaged_model_ops = {
	.name = "khugepaged", .create = ops_create, .add = ops_add, .destroy = ops_destroy,
};
