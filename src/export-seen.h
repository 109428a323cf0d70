/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What an export directory already holds: the identity of every
 * recording in its recordings table (man mmscope-export(5), IDENTITY), so
 * that exporting a file, a part or a whole run again changes no row, and
 * a run whose parts went in one by one adds only the parts not in yet.
 *
 * A recording's identity is its host (machine_id, else host name), boot,
 * run (run_id) and parts (part_first .. part_last, the switch_output
 * numbers of its files); what a row holds is the events of those parts.
 * An incident (a flight-recorder file) is held already when a recording
 * of its host and boot, not an incident, spans its events.
 *
 * Nothing here prints: -1 with *err.
 */
#ifndef MMSCOPE_EXPORT_SEEN_H
#define MMSCOPE_EXPORT_SEEN_H

#include <stdint.h>

struct seen_rec {
	char id[17];
	char host[97];		/* machine_id, else the host name */
	int host_machine;	/* host is a machine id */
	char boot[37];		/* boot_id ("" unknown) */
	char run_id[33];	/* "" none */
	int parts;		/* part_first/part_last known */
	int part_first, part_last;
	int incident;
	int has_span;
	uint64_t start_ns, end_ns;	/* trace ns of its first and last event */
};

struct export_seen {
	struct seen_rec *r;
	int n;
};

/* The recordings table at path (CSV, or JSON Lines with jsonl), absent
 * or empty: none. 0, or -1 with *err. */
int export_seen_load(struct export_seen *s, const char *path, int jsonl, char **err);
void export_seen_add(struct export_seen *s, const struct seen_rec *r);
void export_seen_free(struct export_seen *s);

int export_seen_has_id(const struct export_seen *s, const char *id);
/*
 * The parts first..last of run r->run_id on r->host that no recording
 * of the directory holds, as ranges into out[][2] (at most max): their
 * count.
 */
int export_seen_missing(const struct export_seen *s, const struct seen_rec *r, int first,
			int last, int (*out)[2], int max);
/* A recording of r's host and boot, not an incident, whose span holds
 * r's: its index, or -1. */
int export_seen_holding(const struct export_seen *s, const struct seen_rec *r);
/* r's span less those of the recordings of its host and boot that are
 * not incidents: the pieces left (0; 1: *a .. *b, trace ns inclusive; 2
 * or more), as history.h places an incident partly inside runs. */
int export_seen_uncovered(const struct export_seen *s, const struct seen_rec *r, uint64_t *a,
			  uint64_t *b);

#endif
