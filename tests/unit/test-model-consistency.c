// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Consistency model on hand-built records: memcg reclaim counted in the
 * global direct counters from 7.2 on (node stats) and not before, and the
 * relation printed between events (left) and counter (right) being one
 * that holds between the two numbers.
 */
#include "config.h"
#include "model-consistency.h"
#include "sample-rec.h"
#include "tap.h"

#include <string.h>

#define MS 1000000ULL

struct models {
	struct reclaim_model *rm;
	struct compaction_model *cm;
	struct counters_model *ctr;
	struct consistency_model *cons;
};

static void feed(struct models *m, struct record *r)
{
	reclaim_model_add(m->rm, r);
	compaction_model_add(m->cm, r);
	counters_model_add(m->ctr, r);
	consistency_model_add(m->cons, r);
}

static void sample_set(struct models *m, uint64_t seq, int64_t scan, int64_t steal,
		       int64_t stall)
{
	struct record r;

	r = rec_counter(SRC_VMSTAT, "", "pgscan_direct", scan, seq);
	feed(m, &r);
	r = rec_counter(SRC_VMSTAT, "", "pgsteal_direct", steal, seq);
	feed(m, &r);
	r = rec_counter(SRC_VMSTAT, "", "compact_stall", stall, seq);
	feed(m, &r);
	r = rec_sample_end(seq);
	feed(m, &r);
}

/* A memcg charge-path reclaim of 100 scanned / 60 reclaimed pages and
 * 3 try_to_compact_pages calls, between two sample sets whose counters
 * moved by (scan, steal) and 1 compact_stall. */
static const struct consistency_row *run(struct models *m, const char *kernel,
					 int64_t scan, int64_t steal,
					 struct consistency_row *rows, int *n)
{
	struct record r;
	int64_t lost;

	memset(m, 0, sizeof(*m));
	m->rm = reclaim_model_new();
	m->cm = compaction_model_new();
	m->ctr = counters_model_new();
	m->cons = consistency_model_new(m->rm, m->cm);
	consistency_model_set_kernel(m->cons, kernel);
	sample_set(m, 1, 1000, 500, 7);
	memset(&r, 0, sizeof(r));
	r.type = REC_RECLAIM_BEGIN;
	r.ts = 10 * MS;
	r.pid = 500;
	r.rbegin.kind = RK_MEMCG;
	feed(m, &r);
	memset(&r, 0, sizeof(r));
	r.type = REC_SHRINK_INACTIVE;
	r.ts = 11 * MS;
	r.pid = 500;
	r.shrink.scanned = 100;
	r.shrink.reclaimed = 60;
	feed(m, &r);
	memset(&r, 0, sizeof(r));
	r.type = REC_RECLAIM_END;
	r.ts = 12 * MS;
	r.pid = 500;
	r.rend.kind = RK_MEMCG;
	r.rend.nr_reclaimed = 60;
	feed(m, &r);
	for (int i = 0; i < 3; i++) {
		memset(&r, 0, sizeof(r));
		r.type = REC_COMPACT_TRY;
		r.ts = (20 + (uint64_t)i) * MS;
		r.pid = 501;
		feed(m, &r);
	}
	sample_set(m, 2, 1000 + scan, 500 + steal, 8);
	*n = consistency_model_rows(m->cons, m->ctr, rows, CONSISTENCY_NROWS, &lost);
	return rows;
}

static const struct consistency_row *row(const struct consistency_row *rows, int n,
					 const char *counter)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(rows[i].counter, counter))
			return &rows[i];
	return NULL;
}

static void done(struct models *m)
{
	consistency_model_free(m->cons);
	counters_model_free(m->ctr);
	compaction_model_free(m->cm);
	reclaim_model_free(m->rm);
}

int main(void)
{
	struct consistency_row rows[CONSISTENCY_NROWS];
	const struct consistency_row *s, *t;
	struct models m;
	int n;

	/* 7.3: the global direct counters moved by the memcg reclaim */
	run(&m, "7.3.4+deb13-amd64", 100, 60, rows, &n);
	ok(consistency_model_memcg_in_direct(m.cons), "7.3: memcg reclaim in direct counters");
	s = row(rows, n, "pgscan_direct");
	ok(s && s->events == 100 && s->verdict == CV_AGREE, "7.3: direct scanned agrees (100)");
	s = row(rows, n, "pgsteal_direct");
	ok(s && s->events == 60 && s->verdict == CV_AGREE, "7.3: direct reclaimed agrees (60)");
	ok(s && !strcmp(consistency_row_rel(s), "="), "7.3: equal printed as =");
	done(&m);

	run(&m, "7.2.13+deb14-amd64", 100, 60, rows, &n);
	s = row(rows, n, "pgscan_direct");
	ok(s && s->verdict == CV_AGREE, "7.2: counts memcg reclaim too");
	done(&m);

	/* 6.12: memcg reclaim is not in the global direct counters */
	run(&m, "6.12.117+deb12-amd64", 0, 0, rows, &n);
	ok(!consistency_model_memcg_in_direct(m.cons), "6.12: memcg reclaim not in direct");
	s = row(rows, n, "pgscan_direct");
	ok(s && s->events == 0 && s->verdict == CV_AGREE, "6.12: direct scanned 0 = 0");
	done(&m);

	/* the 7.3 numbers judged by the 6.12 rule differ: the rule matters */
	run(&m, "6.12.117+deb12-amd64", 100, 60, rows, &n);
	s = row(rows, n, "pgscan_direct");
	ok(s && s->verdict == CV_DIFFERS, "6.12 rule on 7.3 numbers: differs");
	ok(s && !strcmp(consistency_row_rel(s), "<"), "differs: the relation that holds (0 < 100)");

	/* try_to_compact: 3 calls >= compact_stall 1, printed events-first */
	t = row(rows, n, "compact_stall");
	ok(t && t->events == 3 && t->counter_delta == 1 && t->verdict == CV_AGREE,
	   "try_to_compact 3 calls, compact_stall +1: agree");
	ok(t && !strcmp(consistency_row_rel(t), ">="), "try_to_compact printed 3 >= 1");
	ok(t && !strcmp(t->what, "try_to_compact"), "row named after the function it counts");
	done(&m);
	return tap_done();
}
