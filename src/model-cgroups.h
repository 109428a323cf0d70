/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Per memory cgroup: what its tasks did, from the records the analysis
 * tagged with their task's cgroup at that moment (record.cgroup,
 * analysis_cgmap()). Pure C, no I/O.
 *
 * Stalls pair as the reclaim model pairs them (a begin and the same
 * task's end of the same kind; softlimit reclaim nested in another
 * counts no stall), each in the cgroup its task was in when it began, so
 * the rows of one kind add up to the stalls table's count of it. memcg
 * reclaim pages are shrink_inactive's scanned and reclaimed inside a
 * memcg stall; swap-outs are the folios given a swap slot by the
 * cgroup's tasks (the swap probes); OOM kills count the victim's cgroup.
 * Records of a task of unknown cgroup go to one row of id -1.
 */
#ifndef MMSCOPE_MODEL_CGROUPS_H
#define MMSCOPE_MODEL_CGROUPS_H

#include <stdint.h>

#include "hist.h"
#include "model.h"
#include "records.h"

struct cgroups_row {
	int id;				/* cgmap id; -1: tasks of unknown cgroup */
	struct hist *lat[RK_NR];	/* stall lengths (ns) per kind; NULL none */
	/* a part of a run (model.h, bounds), as the reclaim model counts
	 * them: stalls cut at its end, and the time inside it of those and
	 * of the stalls begun before it (in the cgroup of their task at
	 * their end: their begin is in the part before) */
	uint64_t cut[RK_NR];
	int64_t part_ns[RK_NR];
	int64_t stall_ns;		/* every kind's, for the order of rows */
	uint64_t memcg_scanned, memcg_reclaimed;	/* pages */
	uint64_t swapouts;		/* folios */
	uint64_t oom_kills;
};

struct cgroups_model;

/* A kind's stalls in a row (complete and cut) and their time inside the
 * recording, as reclaim_stalls() and reclaim_stall_ns() count them. */
uint64_t cgroups_row_stalls(const struct cgroups_row *row, int kind);
int64_t cgroups_row_stall_ns(const struct cgroups_row *row, int kind);

extern const struct model_ops cgroups_model_ops;

/* Rows with a stall, memcg reclaim, swap-out or OOM kill: after finish,
 * longest total stall time first (ties: by id, unknown last). */
int cgroups_model_nrows(const struct cgroups_model *m);
const struct cgroups_row *cgroups_model_row(const struct cgroups_model *m, int i);
/* The row of cgmap id (-1 unknown), NULL when it has none. */
const struct cgroups_row *cgroups_model_find(const struct cgroups_model *m, int id);
/* Whether any record carried a cgroup tag or was fed untagged while the
 * model was told the map exists: 1 when rows can be trusted. */
int cgroups_model_tagged(const struct cgroups_model *m);

#endif
