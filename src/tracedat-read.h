/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reader of trace-cmd trace.dat files, versions 6 and 7 (compression none,
 * zlib, zstd), every buffer (the top level and named instances).
 *
 * Opening parses the header, options and metadata into a tep handle; the
 * events are then streamed through a cursor that merges every CPU of every
 * buffer in timestamp order. Memory stays bounded by one chunk (or one
 * batch of pages) per CPU, whatever the length of the recording.
 *
 * Every function that can fail on bad input returns -1 or NULL and sets
 * *err to a one-line reason; nothing here prints or exits.
 */
#ifndef MMSCOPE_TRACEDAT_READ_H
#define MMSCOPE_TRACEDAT_READ_H

#include <stdint.h>
#include <stddef.h>
#include <event-parse.h>

#include "tracedat.h"

struct td_file;

/* Per-CPU statistics as stored in CPUSTAT options (per_cpu/cpuN/stats). */
struct td_cpustat {
	int present;
	uint64_t entries, overrun, commit_overrun, dropped, read;
};

struct td_buffer {
	char *name;		/* "" for the top-level buffer */
	char *clock;		/* may be "" */
	uint32_t page_size;
	int ncpus;		/* length of cpu arrays (max cpu id + 1) */
	int compressed;		/* per-CPU data stored as compressed chunks */
	uint64_t *cpu_offset;	/* 0 when the CPU has no data */
	uint64_t *cpu_size;
	struct td_cpustat *stats;	/* ncpus entries */
};

struct td_file *td_open(const char *path, char **err);
/*
 * td_open, parsing only the event formats want(system, event) accepts
 * (want NULL: all; td_want_none: none, and no kallsyms, printk or
 * cmdlines either: for the metadata alone). trace-cmd saves every format the
 * kernel has (6.18: 2323) and libtraceevent parses them one file at a
 * time (a static tokenizer): 0.3 s a file, serial across threads, for a
 * reader that looks at a few systems. A record whose format was skipped
 * comes with no event (td_event.event NULL); td_has_format still knows it.
 */
typedef int (*td_want_fn)(const char *system, const char *event);
struct td_file *td_open_only(const char *path, td_want_fn want, char **err);
int td_want_none(const char *system, const char *event);
/* 1 when the file holds a format for system:event, parsed or skipped. */
int td_has_format(const struct td_file *tf, const char *system, const char *event);
/* How many systems the file holds formats of, parsed or skipped: trace-cmd
 * record writes those its -e globs name, extract every system (~100). */
int td_format_systems(const struct td_file *tf);
void td_close(struct td_file *tf);

const char *td_path(const struct td_file *tf);
int td_version(const struct td_file *tf);
const char *td_compression(const struct td_file *tf);
uint32_t td_page_size(const struct td_file *tf);
struct tep_handle *td_tep(const struct td_file *tf);
/* The same handle before the kallsyms are parsed (they are on the first
 * td_tep): for readers that never print symbols (the analysis). */
struct tep_handle *td_tep_nosyms(const struct td_file *tf);
int td_nbuffers(const struct td_file *tf);
const struct td_buffer *td_buffer(const struct td_file *tf, int i);
/* Strings from options; NULL when the file has none. */
const char *td_uname(const struct td_file *tf);
const char *td_trace_clock(const struct td_file *tf);	/* e.g. "local" */
const char *td_tracer_version(const struct td_file *tf);
/* mmscope's private metadata (key=value lines) or NULL. */
const char *td_private(const struct td_file *tf);
/* A "key=N" line of such metadata (the first): 0 with *v set, or -1 when
 * there is none or N is not a whole decimal number. */
int td_meta_u64(const char *meta, const char *key, uint64_t *v);
/* The value of the first "key=..." line of such metadata: a pointer into
 * it (up to its '\n' or the end), or NULL. */
const char *td_meta_value(const char *meta, const char *key);
/* 1 when meta (may be NULL) has key=value, the whole line */
int td_meta_is(const char *meta, const char *key, const char *value);
/* Number of event formats that libtraceevent could not parse. */
int td_bad_formats(const struct td_file *tf, const char **first);

/*
 * A section td_open_only() left unread (td_want_none: formats, printk,
 * cmdlines; any want: kallsyms) read now, for td_meta(). 0 (also when
 * the file has none), or -1 with *err. td_meta_unload() gives such a
 * section's memory back (a no-op for the others).
 */
int td_meta_load(struct td_file *tf, enum td_meta m, char **err);
void td_meta_unload(struct td_file *tf, enum td_meta m);
/*
 * The events of tf decoded with from's formats (ids, names and fields):
 * for a part of a set opened with td_want_none whose format sections
 * are byte for byte those of from (tracedat-set.c checks). from must
 * outlive tf's cursors.
 */
void td_use_formats_of(struct td_file *tf, const struct td_file *from);
/* The memory of tf's decompression context given back while no cursor
 * of tf is open (a part of a set read to its end keeps ~0.2 MB else). */
void td_trim(struct td_file *tf);

/*
 * Saved cmdlines text ("PID COMM" lines) into tep's task names; seen
 * (zeroed at first, freed with free(seen->h)) keeps each pair from being
 * registered twice over several calls (the parts of a set), or NULL.
 */
struct td_names_seen {
	uint64_t *h;
	size_t n, cap;
};
void td_parse_cmdlines(struct tep_handle *tep, const char *text, size_t len,
		       struct td_names_seen *seen);
/* The saved cmdlines text of tf (read now if td_open_only left it:
 * td_meta_unload gives it back), its size word checked as opening the
 * file whole checks it: *text NULL when it has none. 0, or -1 with *err. */
int td_cmdlines_text(struct td_file *tf, const char **text, size_t *len, char **err);

/* The raw metadata payload (identical in v6 and v7), for re-encoding. */
const void *td_meta(const struct td_file *tf, enum td_meta m, size_t *len);
/* All CPUSTAT text, concatenated in file order (trace-cmd layout), or NULL. */
const char *td_cpustat_text(const struct td_file *tf, size_t *len);

/* Raw pages of one CPU of one buffer, in file order. */
struct td_pages;
struct td_pages *td_pages_open(struct td_file *tf, int buffer, int cpu, char **err);
/* 1 and *page set (page_size bytes, valid until the next call), 0 at end, -1 on error. */
int td_pages_next(struct td_pages *p, const void **page, char **err);
/*
 * The next td_pages_next returns page number `page` (from 0, as a full
 * pass counts them). Uncompressed data: offset arithmetic; compressed:
 * the chunk headers are walked (not decompressed) to the chunk that holds
 * the page, which is then read with every check of a full pass. Stops
 * read-ahead. 0, or -1 with *err set (no such page, or bad data).
 */
int td_pages_seek(struct td_pages *p, uint64_t page, char **err);
void td_pages_close(struct td_pages *p);
/* How far p has read its CPU's data, in bytes of the file (done of
 * total): for progress bars, not for positions. */
void td_pages_progress(const struct td_pages *p, uint64_t *done, uint64_t *total);

/* One event, as the cursor hands it out; valid until the next call. */
struct td_event {
	uint64_t ts;
	int cpu;
	int buffer;
	struct tep_event *event;	/* NULL when the id has no format */
	struct tep_record record;	/* ts, cpu, size, data for tep_* calls */
	void *data;
	int size;
	/* Events the kernel dropped on this CPU just before this one:
	 * 0 none, >0 that many, -1 some (count unknown). */
	long long missed;
};

/*
 * Fills ev->record from ev's ts, cpu, data, size and missed, so that
 * tep_* calls see the event. The cursor, the live merge and the raw
 * event copy all hand out td_events; they share this so the record
 * cannot drift from the event (missed_events keeps libtraceevent's
 * meaning: >0 a count, -1 a loss of unknown size).
 */
static inline void td_event_fill_record(struct td_event *ev)
{
	/* Field by field, no memset: this runs once per event on the
	 * cursor's hot path (see td_cursor_next). */
	ev->record.ts = ev->ts;
	ev->record.offset = 0;
	ev->record.priv = NULL;
	ev->record.cpu = ev->cpu;
	ev->record.size = ev->size;
	ev->record.record_size = ev->size;
	ev->record.data = ev->data;
	ev->record.missed_events = ev->missed;
	ev->record.ref_count = 1;
	ev->record.locked = 1;
}

struct td_cursor;
/* A cursor over every CPU of every buffer (buffer < 0), or one buffer. */
struct td_cursor *td_cursor_new(struct td_file *tf, int buffer, char **err);
/*
 * How many files the process reads at once on its own threads (compare
 * and export with --jobs): cursors then decompress ahead in threads only
 * when more CPUs than that are usable. 1 by default.
 */
void td_readers_at_once(int n);
/* 1 with *ev filled, 0 at the end, -1 on error. */
int td_cursor_next(struct td_cursor *c, struct td_event *ev, char **err);
void td_cursor_free(struct td_cursor *c);
/* The time stamp of the first event (0 when none): what relative times
 * count from. Reads one page per CPU. 0, or -1 with *err. */
int td_first_ts(struct td_file *tf, uint64_t *ts, char **err);
/* The time stamp of the last event (0 when none): per CPU, the last
 * chunk that holds events is read (chunk headers walked to it). A file
 * of a set that ends before a window is skipped on this. 0, or -1. */
int td_last_ts(struct td_file *tf, uint64_t *ts, char **err);
/* How far c has read, summed over its streams (see td_pages_progress). */
void td_cursor_progress(const struct td_cursor *c, uint64_t *done, uint64_t *total);

/*
 * Seeking. A td_index holds, for each CPU of each buffer, the position
 * and first event time stamp of every Nth page that has events. It is
 * filled by a cursor it is attached to (td_cursor_set_index; any pass,
 * complete or not, adds what it walks: a report's pass costs nothing
 * more) or by td_index_build (a pass over the pages alone, walking only
 * the first event of every Nth page; for N >= 128 only the chunks that
 * hold those pages are decompressed).
 *
 * td_cursor_seek positions every stream of c at the last indexed page
 * whose first event is before ts (strictly: events with ts equal may
 * start on the page before), or at its first page when the index has
 * none, then skips the events before ts. So the first event returned is
 * the first with a time stamp >= ts, and what follows is exactly the rest
 * of a full pass, ties across CPUs in the same order (for streams whose
 * time stamps never go backwards, as the kernel writes them; on others
 * the result is well-defined but may differ). Lost events: each event
 * returned carries the same `missed` as in a full pass; losses reported
 * with skipped events are not reported. An index that is empty or
 * partial makes a seek slower, never wrong. Time stamps are those of
 * td_event.ts (with the file's offset).
 *
 * An index is made for one open file (td_index_new, td_index_build need
 * it open) but may outlive it and serve any td_file of the same file as
 * long as the file is unchanged (device, inode, size, mtime and layout);
 * others are refused. Not thread-safe.
 */
struct td_index;
/* every: index one page in `every` (0: the default, 16). */
struct td_index *td_index_new(struct td_file *tf, unsigned int every);
void td_index_free(struct td_index *ix);
/* Pages indexed so far, over all streams. */
size_t td_index_size(const struct td_index *ix);
/* Makes tf the file ix reads when built further (td_index_build): for
 * an index filled through another td_file of the same file, once that
 * one is closed. -1 if ix was made for another file. */
int td_index_attach(struct td_index *ix, struct td_file *tf, char **err);
/* Fill ix with a pass over every page of every buffer. 0 or -1. */
int td_index_build(struct td_index *ix, char **err);
/* Fill ix with what a seek to ts needs, about log2(chunks) chunks read
 * per CPU (a binary search by each chunk's first event). 0 or -1. */
int td_index_build_at(struct td_index *ix, uint64_t ts, char **err);
/* Pages c loads from now on are added to ix (NULL detaches). 0 or -1. */
int td_cursor_set_index(struct td_cursor *c, struct td_index *ix, char **err);
/* ix may be NULL: the streams then walk from their start. 0 or -1. */
int td_cursor_seek(struct td_cursor *c, const struct td_index *ix, uint64_t ts,
		   char **err);
/* td_cursor_new + td_cursor_seek, without starting read-ahead first. */
struct td_cursor *td_cursor_new_at(struct td_file *tf, int buffer,
				   const struct td_index *ix, uint64_t ts,
				   char **err);

#endif
