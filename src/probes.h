/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The swap/zswap kprobe catalogue. Swap and zswap have no tracepoints
 * upstream, and the functions worth probing change between kernels, so
 * a probe set is chosen by which functions the running kernel has
 * (probes_choose(), a pure function of a symbol list, unit-tested against
 * real kernels' lists), then installed through dynamic_events or
 * kprobe_events (probes_install()). A missing probe never fails a
 * recording: the set used, or the reason for none, goes into the
 * recording's metadata.
 */
#ifndef MMSCOPE_PROBES_H
#define MMSCOPE_PROBES_H

#include <stddef.h>

#include "util.h"

enum probe_family { PROBE_SWAP, PROBE_ZSWAP };

struct probe_def {
	enum probe_family family;
	const char *name;	/* event name, e.g. "alloc" */
	char kind;		/* 'p' entry, 'r' return */
	const char *symbol;	/* function as in /proc/kallsyms */
	const char *args;	/* fetch arguments */
	int required;		/* the set needs it (it identifies the kernel) */
};

struct probe_set {
	const char *name;	/* "5.10", "6.1", "6.12", "6.18", "7.x" */
	const struct probe_def *defs;
	int ndefs;
	/*
	 * The kernel series (MAJOR.MINOR of uname -r, space-separated) the
	 * set was verified on: its raw offsets read that series' struct
	 * layout, and its probes fired with the counts check-vm holds them
	 * to. A kernel outside them whose functions fit gets no set (the
	 * layout may differ: 6.1's offsets on 5.10 read another device's
	 * type), unless the user forces one.
	 */
	const char *verified;
	/*
	 * 1 where zswap_writeback_entry returns 0 both when it wrote the page
	 * back and when the entry had been freed (invalidated) before it got
	 * to it (5.10, 6.1: "entry was invalidated ... return 0"): its 0
	 * returns are at least the writebacks, and debugfs written_back_pages
	 * counts the writebacks alone. Seen in check-vm: 5.10, 12 returns of
	 * 0 for 11 pages written back.
	 */
	int wb_zero_includes_freed;
};

extern const struct probe_set probe_sets[];
extern const int probe_nsets;

/* A sorted list of function names (build it with probe_syms_*). */
struct probe_syms {
	char **names;
	size_t n, alloc;
};
void probe_syms_add(struct probe_syms *s, const char *name);
void probe_syms_sort(struct probe_syms *s);
int probe_syms_has(const struct probe_syms *s, const char *name);
/* Reads "ADDR TYPE NAME [MODULE]" or "TYPE NAME" lines; keeps t/T names. */
int probe_syms_load(struct probe_syms *s, const char *path);
/*
 * The t/T names of /proc/kallsyms text (len bytes of "ADDR TYPE NAME
 * [MODULE]" lines) that a catalogue set probes, the only ones
 * probes_choose() asks about. Returns the number of t/T lines in the
 * text: 0 when it lists no function (unreadable, or empty).
 */
size_t probe_syms_from_kallsyms(struct probe_syms *s, const char *text, size_t len);
void probe_syms_free(struct probe_syms *s);

/*
 * Return probes are installed as "rN:" with this N, the number of calls
 * the kernel tracks at once per probe. Left out, it is the kernel's
 * default (max(10, 2 * CPUs) on 5.10 and later), which a reclaim storm
 * outruns: every call beyond it is a missed hit (kprobe_profile). The
 * kernel's maximum is 4096.
 */
#define PROBE_MAXACTIVE 256

/*
 * Pure: the missed hits of the installed probes (probes: the comma list
 * "system:event,..." of probe_result.probes) in kprobe_profile text (one
 * line per probe: name, hits, misses; the name is "event" or
 * "system/event" depending on the kernel). Appends
 * "system:event=MISSES,..." to out, "system:event=?" where the text has no
 * line or more than one matching line for it. Returns the number of probes
 * with a known count.
 */
int probes_parse_profile(const char *text, const char *probes, struct strbuf *out);
/* Reads tracefs/kprobe_profile into out as above; -1 if unreadable. */
int probes_read_missed(const char *tracefs, const char *probes, struct strbuf *out);

/* What probes_choose() picked. */
struct probe_choice {
	const struct probe_set *set;	/* NULL: none fits */
	const struct probe_def *use[64];
	int nuse;
	struct strbuf skipped;		/* "name(symbol)" of optional probes left out */
	struct strbuf reason;		/* why none, when set is NULL */
	int unverified;			/* none because no fitting set was verified here */
};

/*
 * Pure: the first catalogue set whose required functions all exist and
 * that was verified on release (uname -r; NULL: any). force (a set's
 * name, or NULL) takes that set whatever the kernel, leaving out the
 * probes whose function is missing. No set: out->reason says why in one
 * line.
 */
void probes_choose(const struct probe_syms *syms, const char *release, const char *force,
		   struct probe_choice *out);
/* The set of that name, or NULL; names lists every name ("5.10, 6.1, ..."). */
const struct probe_set *probe_set_find(const char *name);
void probe_set_names(char *names, size_t len);
/* Whether release's MAJOR.MINOR (uname -r) is one of set's verified series. */
int probe_set_verified(const struct probe_set *set, const char *release);
void probe_choice_release(struct probe_choice *c);

/* The outcome of installing, for the metadata and the summary. */
struct probe_result {
	char *set;		/* "none" or the set name */
	char *reason;		/* why none or why partial; "" if all well */
	char *probes;		/* "system:event,..." installed and enabled */
	char *systems[2];	/* event systems created (removed at exit) */
	int unverified;		/* set "none": the kernel's series is not verified
				 * (reason begins "probe set NAME fits") */
};

/*
 * Picks and installs a probe set in tracefs (dir), as event systems
 * "mmscope_swap_PID" and "mmscope_zswap_PID", and enables them in the
 * instance directory inst_dir. Never fails: the result says what happened.
 */
/* families: bits (1 << PROBE_SWAP) | (1 << PROBE_ZSWAP) of the groups asked for. */
/* force: a set's name to use on any kernel (record --probe-set), or NULL. */
/* kallsyms: the text of /proc/kallsyms (the caller reads it once: the
 * recording takes the same text), NULL or empty when unreadable. */
void probes_install(const char *tracefs, const char *inst_dir, unsigned families,
		    const char *force, const char *kallsyms, size_t kallsyms_len,
		    struct probe_result *res);
/* Removes the probe systems of res (disable first in every instance). */
void probes_remove(const char *tracefs, struct probe_result *res);
/* Removes probe systems "mmscope_*_PID" whose PID is dead. */
int probes_cleanup_stale(const char *tracefs, struct strbuf *removed);
void probe_result_release(struct probe_result *res);
/* The file to write probe definitions to, or NULL if the kernel has none. */
const char *probes_control_file(const char *tracefs);

#endif
