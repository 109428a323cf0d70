// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * huge_memory: khugepaged and THP collapse (the "khugepaged" family).
 *
 *   mm_khugepaged_scan_pmd        one PMD range of an anon VMA scanned;
 *                                 status "succeeded" = worth collapsing
 *   mm_collapse_huge_page         a collapse of that range: its result
 *   mm_collapse_huge_page_isolate the isolation step inside a collapse
 *   mm_collapse_huge_page_swapin  swap-in of the range before a collapse
 *   mm_khugepaged_scan_file       the same for a file/shmem range
 *   mm_khugepaged_collapse_file   ... and its collapse
 *   mm_khugepaged_scan            7.x: one pass over an mm (progress)
 *
 * Result names are the kernel's, taken from the event's own print fmt
 * (__print_symbolic of status/result) at bind time: the scan_result enum
 * changes between kernels (6.1 has pmd_null/pmd_none, 7.x no_pte_table,
 * page_lazyfree ...), so no table of ours could be right for all.
 *
 * Order: 7.x gives mm_collapse_huge_page, _isolate and _swapin an order
 * field (mTHP collapse). Where an event has none, the range is a PMD,
 * whose order depends on the page size (9 on 4 KB, 11 on 16 KB, 13 on
 * 64 KB pages): the record says order_known = 0 and order -1, and the
 * khugepaged model places it at the recording's PMD order.
 */
#include "config.h"
#include "parsers.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define THP_MAX_SYMS	64

enum { KF_STATUS, KF_ORDER, KF_VALUE };

/* status or result, order, and the one number worth keeping per kind */
static const struct field_spec scan_fields[] = {
	{ NAMES("status", "result"), "khugepaged results" },
	{ NAMES("order"), NULL },
	{ NAMES("none_or_zero"), NULL },
	{ NULL, NULL },
};

static const struct field_spec collapse_fields[] = {
	{ NAMES("status", "result"), "khugepaged results" },
	{ NAMES("order"), NULL },
	{ NAMES("isolated", "nr"), NULL },
	{ NULL, NULL },
};

static const struct field_spec swapin_fields[] = {
	{ NAMES("ret"), "khugepaged swap-ins" },
	{ NAMES("order"), NULL },
	{ NAMES("swapped_in"), NULL },
	{ NULL, NULL },
};

static const struct field_spec pass_fields[] = {
	{ NAMES("-"), NULL },
	{ NAMES("-"), NULL },
	{ NAMES("full_scan_finished"), "khugepaged full scans" },
	{ NULL, NULL },
};

struct thp_state {
	struct pstate ps;
	int nsym;
	struct { long value; char name[32]; } sym[THP_MAX_SYMS];
};

/* The __print_symbolic() of field (status or result) anywhere in args. */
static const struct tep_print_arg *find_symbolic(const struct tep_print_arg *a,
						 const char *field)
{
	for (; a; a = a->next) {
		const struct tep_print_arg *f;

		if (a->type == TEP_PRINT_SYMBOL) {
			f = a->symbol.field;
			if (f && f->type == TEP_PRINT_FIELD && f->field.name &&
			    !strcmp(f->field.name, field))
				return a;
		}
		if (a->type == TEP_PRINT_OP) {
			if ((f = find_symbolic(a->op.left, field)) ||
			    (f = find_symbolic(a->op.right, field)))
				return f;
		}
	}
	return NULL;
}

static void *khugepaged_bind(struct parser_set *set, struct tep_event *ev,
			     const struct field_spec *fields, int kind)
{
	struct thp_state *st = xcalloc(1, sizeof(*st));
	const struct tep_print_arg *sym;

	st->ps.kind = kind;
	for (int i = 0; i < PSTATE_MAX_FIELDS; i++)
		st->ps.f[i].off = -1;
	for (int i = 0; fields[i].names; i++)
		parser_field(set, ev, &st->ps.f[i], fields[i].names, fields[i].metric);
	sym = find_symbolic(ev->print_fmt.args, "status");
	if (!sym)
		sym = find_symbolic(ev->print_fmt.args, "result");
	for (const struct tep_print_flag_sym *s = sym ? sym->symbol.symbols : NULL;
	     s && st->nsym < THP_MAX_SYMS; s = s->next) {
		char *end;
		long v = s->value ? strtol(s->value, &end, 0) : 0;

		if (!s->value || *end || !s->str)
			continue;
		st->sym[st->nsym].value = v;
		snprintf(st->sym[st->nsym].name, sizeof(st->sym[0].name), "%s", s->str);
		st->nsym++;
	}
	return st;
}

#define BIND(fn, fields, kind) \
	static void *fn(struct parser_set *set, struct tep_event *ev) \
	{ return khugepaged_bind(set, ev, fields, kind); }

BIND(bind_scan_pmd, scan_fields, THP_SCAN_PMD)
BIND(bind_collapse, collapse_fields, THP_COLLAPSE)
BIND(bind_isolate, scan_fields, THP_ISOLATE)
BIND(bind_swapin, swapin_fields, THP_SWAPIN)
BIND(bind_scan_file, scan_fields, THP_SCAN_FILE)
BIND(bind_collapse_file, collapse_fields, THP_COLLAPSE_FILE)
BIND(bind_pass, pass_fields, THP_SCAN_PASS)

static void khugepaged_parse(void *state, struct parse_ctx *pc)
{
	struct thp_state *st = state;
	struct record *r = pc->rec;
	int64_t status = PF_SD(&st->ps, pc, KF_STATUS, -1);

	r->type = REC_THP;
	r->thp.kind = st->ps.kind;
	r->thp.order_known = st->ps.f[KF_ORDER].off >= 0;
	r->thp.order = r->thp.order_known ? (int)PF_S(&st->ps, pc, KF_ORDER) : -1;
	r->thp.status = (int)status;
	r->thp.value = PF_S(&st->ps, pc, KF_VALUE);
	r->thp.result = "";
	for (int i = 0; i < st->nsym; i++)
		if (st->sym[i].value == status)
			r->thp.result = st->sym[i].name;
	/* swapin has a plain ret (1 = done); the others a named result */
	if (st->ps.kind == THP_SWAPIN)
		r->thp.ok = status == 1;
	else if (st->ps.kind == THP_SCAN_PASS)
		r->thp.ok = 1;
	else
		r->thp.ok = !strcmp(r->thp.result, "succeeded");
	pc->sink(pc->sink_ctx, r);
}

#define HM(ev, bind) { "huge_memory", ev, khugepaged_parse, 0, NULL, 0, bind, REC_THP }

const struct parser khugepaged_parsers[] = {
	HM("mm_khugepaged_scan_pmd", bind_scan_pmd),
	HM("mm_collapse_huge_page", bind_collapse),
	HM("mm_collapse_huge_page_isolate", bind_isolate),
	HM("mm_collapse_huge_page_swapin", bind_swapin),
	HM("mm_khugepaged_scan_file", bind_scan_file),
	HM("mm_khugepaged_collapse_file", bind_collapse_file),
	HM("mm_khugepaged_scan", bind_pass),
	{ NULL, NULL, NULL, 0, NULL, 0, NULL, 0 },
};
