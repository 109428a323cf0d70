/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Event families: the unit of extension. One entry per family says what
 * `mmscope record -g GROUP` enables (tracepoints, with per-kernel
 * alternates as data, and the kprobe sets of src/probes.c it asks for),
 * the parser table of its events, and so the records it emits. The
 * collector, `record --help`, record's and the collector's "unknown
 * group" messages, `doctor` and the parser registry all read this table;
 * tests/unit/test-families checks it against the real kernels' event
 * lists and man/mmscope-record.1.
 *
 * Adding a family: DEVELOPERS.md, "Adding an event family".
 */
#ifndef MMSCOPE_FAMILIES_H
#define MMSCOPE_FAMILIES_H

#include "parsers.h"

/* One tracepoint to enable: "system:event", or "system:*" for every event
 * of the system. alt: the name on kernels that lack spec (mm_vmscan_writepage,
 * write_folio's name before 5.19), enabled only then. since: the oldest
 * kernel series of tests/data/kernels/ that has it ("7.2"), NULL when
 * every one has it; doctor says a missing event is only in newer kernels,
 * and tests/unit/test-families checks the claim against those kernels. */
struct family_event {
	const char *spec;
	const char *alt;
	const char *since;
	/* the tracefs filter the collector sets on it (NULL: none): what of
	 * a busy event the family needs, cut in the kernel */
	const char *filter;
};

/* Bits of enum probe_family (src/probes.h): the kprobe sets wanted. */
#define FAMILY_PROBE_SWAP	(1u << 0)	/* 1 << PROBE_SWAP */
#define FAMILY_PROBE_ZSWAP	(1u << 1)	/* 1 << PROBE_ZSWAP */

struct event_family {
	const char *group;	/* -g name; NULL: always there, not a group */
	const char *help;	/* one line: --help, doctor, the man page */
	const struct family_event *events;	/* terminated by { NULL } */
	unsigned probes;	/* FAMILY_PROBE_* */
	const struct parser *parsers;	/* its events' parsers, NULL-terminated */
};

extern const struct event_family event_families[];
extern const int event_nfamilies;

/* The family of a -g name, or NULL ("none" is no family). */
const struct event_family *family_find(const char *group);
/* "kswapd, compaction, ..., oom" into buf (for --help and errors). */
const char *family_group_names(char *buf, size_t len);
/* Whether an event list entry names (system, event): exact, "system:*",
 * or its alternate. */
int family_event_matches(const struct family_event *fe, const char *system,
			 const char *event);

#endif
