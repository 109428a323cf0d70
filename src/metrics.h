/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The metric catalogue: every number "mmscope compare" (and later
 * "mmscope report") can put in a row, with its unit, its group, and
 * whether higher or lower is better. Counter metrics carry their exact
 * definition as a small expression over counter deltas; trace-derived
 * metrics are only declared here and get their values from the models.
 *
 * Counter deltas come as a flat struct counter_set of name -> delta
 * (end minus start over the recording):
 *   PGSCAN_KSWAPD-style names   /proc/vmstat fields, bare ("pgscan_kswapd")
 *   mthp.SIZE.STAT               mTHP sysfs stats per size ("mthp.64kB.swpout")
 *   psi.some_total, psi.full_total   /proc/pressure/memory, microseconds
 *   time.elapsed                 seconds between the two counter snapshots
 * metrics_compute() turns such a set into metric values. It is pure: no
 * I/O, nothing printed, so any front end or model can feed it.
 *
 * Expression syntax (the expr field): numbers, + - * / and parentheses
 * (write '*' with spaces around it), and
 *   NAME            a counter; undefined when the set lacks it
 *   pre{a,b,...}    the sum of the counters "prea", "preb", ... that exist
 *                   (an empty alternative means "pre" itself); undefined
 *                   when none exists
 *   @metric-name    a metric computed earlier in the catalogue order
 *   pct(a, b[, z])  a * 100 / b; z (or undefined) when b is 0; z = na
 *                   makes the metric present but n/a (a ratio over nothing,
 *                   such as an efficiency with nothing scanned)
 *   div(a, b[, z])  a / b;       z (or undefined) when b is 0
 *   opt(a[, d])     a, or d (default 0) when a is undefined
 * A metric whose expression is undefined is absent from the run (for
 * example zswpwb on a kernel before 6.8), never 0.
 */
#ifndef MMSCOPE_METRICS_H
#define MMSCOPE_METRICS_H

#include <stddef.h>
#include <stdint.h>

#include "util.h"

enum metric_source {
	METRIC_COUNTER,		/* expression over counter deltas */
	METRIC_TRACE,		/* from the trace models (mmscope report) */
	METRIC_USER,		/* not in the catalogue: from a metrics file */
};

struct metric_def {
	/*
	 * Identifier, lower-case words joined by '-'. Used by --metrics, in
	 * JSON and as the "op" of mmtests stat tables. A "{size}" (mTHP size,
	 * "64kB") or "{order}" (allocation order) placeholder makes this a
	 * template expanded once per size or order present.
	 */
	const char *name;
	const char *label;	/* mmtests-style row label, "Kswapd efficiency" */
	const char *plain_label;	/* defrag_mode/freelist-hygiene label, or NULL */
	const char *group;	/* reclaim, swap, zswap, thp, mthp, compaction, ... */
	const char *unit;	/* pages, events, %, pages/s, ms, us */
	int higher_is_better;
	enum metric_source source;
	const char *expr;	/* METRIC_COUNTER only */
	const char *description;
};

/* The catalogue, in display order. */
const struct metric_def *metrics_catalogue(size_t *n);

/* A metric resolved by name: its definition (NULL for a user metric) and
 * its labels with any placeholder filled in. */
struct metric_info {
	const struct metric_def *def;
	char name[96];
	char label[128];
	char plain_label[128];
	const char *group;
	const char *unit;
	int higher_is_better;
	enum metric_source source;
	int order;		/* position in the catalogue (user metrics last) */
};

/*
 * Describe the metric called name: catalogue entries and expansions of
 * templates ("mthp-64kB-swpout", "alloc-stalls-order-3"). Returns 0, or
 * -1 for a name the catalogue does not know, in which case *out still
 * describes it as a user metric (label = name, group "user", lower is
 * better).
 */
int metrics_describe(const char *name, struct metric_info *out);

/*
 * A count of failures that has a rate of attempts beside it (THP and
 * mTHP fault and swap-out fallbacks): the rate's name into buf, or NULL.
 * The regression gate holds the rate, not the count: a count from a
 * baseline that made no attempts (the size set to never) is 0, and any
 * count after it would read as a regression.
 */
const char *metrics_rate_of(const char *name, char *buf, size_t len);

/* Does the metric belong to the selection word sel: its name, its group,
 * its source ("counter", "trace", "user") or "all"? */
int metrics_match(const struct metric_info *mi, const char *sel);

/* Counter deltas: name -> value. */
struct counter_entry {
	char *name;
	double value;
};

struct counter_set {
	struct counter_entry *v;
	size_t n, alloc;
};
#define COUNTER_SET_INIT { NULL, 0, 0 }

/* Set (replace or add) a counter. */
void counter_set_put(struct counter_set *cs, const char *name, double value);
void counter_set_release(struct counter_set *cs);
/* Remove the counter called name; returns 1, or 0 when the set lacks it. */
int counter_set_drop(struct counter_set *cs, const char *name);
/* A counter's value: 0 and *value, or -1 when the set lacks it. */
int counter_set_get(const struct counter_set *cs, const char *name, double *value);

/* Per run: metric name -> samples (one per run for counters; any number
 * for user metrics, which pool like mmtests iterations). */
struct metric_series {
	char *name;
	double *v;
	size_t n;
	int higher_is_better;	/* -1: the catalogue decides */
};

/* A run's findings of one id and count unit (src/findings.h), for
 * compare's findings block: the highest severity of that id's findings
 * and their counts summed (one per node, order or device found). */
struct run_finding {
	char id[32];
	char unit[16];
	int severity;		/* enum finding_severity */
	uint64_t count;
};

struct metric_values {
	struct metric_series *m;
	size_t n, alloc;
	/* the run's command (argv joined by blanks), NULL when unknown */
	char *command;
	/* notes on the run's figures, "METRIC\tTEXT" lines: printed under
	 * a table that has the row METRIC ("pgscan_direct counts memcg
	 * reclaim on 7.2+ ...") */
	struct strbuf notes;
	/* findings: known only for a recording (the rules ran), not for a
	 * metrics file; notrun: "ID\n" of the rules it had no data for */
	int findings_known;
	struct run_finding *findings;
	size_t nfindings;
	struct strbuf notrun;
};
#define METRIC_VALUES_INIT { NULL, 0, 0, NULL, STRBUF_INIT, 0, NULL, 0, STRBUF_INIT }

/* Append one sample to the series called name (created as needed). */
struct metric_series *metric_values_add(struct metric_values *mv, const char *name,
					double value);
struct metric_series *metric_values_find(const struct metric_values *mv,
					 const char *name);
void metric_values_release(struct metric_values *mv);
/* Add a note on the metric called metric to the run, once. */
void metric_values_note(struct metric_values *mv, const char *metric, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Compute every counter metric of the catalogue from counter deltas and
 * append the defined ones to *out (one sample each). Templates expand
 * once per mTHP size present ("mthp.SIZE." keys). Returns the number of
 * metrics added. Pure: no I/O.
 */
int metrics_compute(const struct counter_set *cs, struct metric_values *out);
/*
 * The same for counter deltas over part of a run (a phase), less the
 * differences of counters the kernel does not update together (a node
 * counter folded from per-CPU deltas against an event count summed when
 * read, as page-writes-file): over a phase such a difference is within
 * that lag, so it is left out.
 */
int metrics_compute_part(const struct counter_set *cs, struct metric_values *out);

/*
 * Evaluate one expression over cs (for tests and for users' own rows).
 * Returns 0 and *value (NAN when undefined), 1 and NAN when the value is
 * an "na" ratio over nothing, or -1 with *err on a syntax error.
 */
int metrics_eval(const char *expr, const struct counter_set *cs,
		 const struct metric_values *done, double *value, char **err);

#endif
