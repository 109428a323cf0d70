/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Findings: what went wrong in a recording, each with its evidence. A
 * model over the models: findings_build() reads the other models' results
 * after the pass (no events of its own) and applies one rule per id of
 * finding_rules[] (src/findings.c). A finding's count is the very figure
 * its section prints (the same model value the section's renderer reads),
 * so the two can never disagree; its severity follows the rule's named
 * thresholds, documented under FINDINGS in mmscope-report(1).
 *
 * Pure C, no I/O. Front ends: the report's findings section (text and
 * JSON, src/report-findings.c).
 */
#ifndef MMSCOPE_FINDINGS_H
#define MMSCOPE_FINDINGS_H

#include <stdint.h>

#include "analysis.h"

struct findings;

enum finding_severity { FSEV_INFO, FSEV_WARNING, FSEV_CRITICAL, FSEV_NR };

#define FINDING_MAX_EVIDENCE 6

/* One figure a finding rests on, and where it comes from. */
struct finding_evidence {
	char figure[160];	/* "p99 12.345 ms" */
	char source[128];	/* the event, counter or probe behind it */
	char section[24];	/* the report section that shows it */
};

struct finding_rule;

struct finding {
	const struct finding_rule *rule;	/* id, needs, mechanism */
	enum finding_severity severity;
	/* seconds from the first event, and the same in ns (exports);
	 * has_t 0: not known */
	int has_t_start, has_t_end;
	double t_start, t_end;
	uint64_t t_start_ns, t_end_ns;
	uint64_t count;			/* the main figure (see the rule) */
	const char *count_unit;		/* "stalls", "kills", ... */
	/* where it applies; -1 / "": does not apply or not known */
	int order, node, device;
	char zone[16];
	char task[48];
	char summary[72];		/* one line with its numbers */
	int nev;
	struct finding_evidence ev[FINDING_MAX_EVIDENCE];
	char mechanism[200];		/* one sentence, linux-mm terms */
};

/* A rule: one per id. */
struct finding_rule {
	const char *id;			/* stable: "direct-reclaim-stalls" */
	const char *needs;		/* what the recording must have */
	const char *section;		/* the section its count comes from */
	/* Whether the recording has what the rule needs: a rule that cannot
	 * run says so (findings_unevaluated), never "nothing found". */
	int (*can)(const struct analysis *a);
	/* Appends the rule's findings (none, one, or one per node, order,
	 * device) to fs. */
	void (*eval)(const struct analysis *a, const struct finding_rule *r,
		     struct findings *fs);
};

struct findings {
	int n, alloc;
	struct finding *f;
};

extern const struct finding_rule finding_rules[];
extern const int finding_nrules;

/* Every rule over the analysis; the findings sorted by severity (critical
 * first), then by the rule's place in the table. Never NULL. */
struct findings *findings_build(const struct analysis *a);
void findings_free(struct findings *fs);
/* Rules the recording has no data for: up to max of finding_rules[]'
 * indices into out; returns how many there are. */
int findings_unevaluated(const struct analysis *a, int *out, int max);

const char *finding_severity_name(enum finding_severity s);

/* Why memcg reclaim passes cannot be told by their first scanning
 * priority in this recording (events missing, MGLRU before 6.7), or NULL
 * when they can: the stalls section and memcg-scan-rounding ask it. */
const char *reclaim_passes_unknown(const struct analysis *a);

/* Named thresholds of the rules (mmscope-report(1), FINDINGS). */
#define FIND_STALL_WARN_MS	10	/* stalls: p99 at or above: warning */
#define FIND_STALL_CRIT_MS	1000	/* stalls: max at or above: critical */
#define FIND_FALLBACK_WARN_PCT	10	/* mTHP fallbacks of swap-outs: warning */
#define FIND_FALLBACK_CRIT_PCT	50	/* ... critical */
#define FIND_HANDOFF_WARN_PCT	50	/* episodes that needed a handoff and had none */
#define FIND_KC_STALLS_WARN	10	/* stalls while kcompactd slept: warning */
#define FIND_COMPACT_MIN_RUNS	10	/* direct runs before a failure share counts */
#define FIND_COMPACT_FAIL_PCT	50	/* ... failed share at or above: warning */
#define FIND_SCATTER_WARN_PCT	50	/* a task's next free in another cluster: warning */
#define FIND_ROUNDING_MIN_PASSES 10	/* escalated passes before a share counts */
#define FIND_ROUNDING_WARN_PCT	50	/* ... escalated, of passes with a first scan: warning */
#define FIND_ZSWAP_WB_WARN_PCT	10	/* written back, of pages stored: warning */
#define FIND_ZSWAP_REJ_WARN_PCT	1	/* rejected, of store attempts: warning */

#endif
