/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Several trace.dat files read as one recording: the segments that
 * `mmscope record --switch-output` writes (FILE-1.dat, FILE-2.dat, ...,
 * each with switch_output=N in its metadata), or files a user names as
 * one recording.
 *
 * Opening a set (td_set_open) reads each file's options and metadata:
 * the files are ordered by their start_realtime_ns, and refused unless
 * every file has the first's event formats and buffers. Only the first
 * file's formats are parsed: a part whose format sections are the
 * first's byte for byte (every part of one run) is decoded with them, so
 * a day's 144 parts cost their options, not 144 format parses; a part
 * whose bytes differ is opened whole, must have the first's ids and
 * names, and keeps its own formats. Its cursor merges the files' cursors
 * by time stamp, so the events come out as they would from one file
 * holding them all (at a switch the recorder reads the CPUs one after
 * the other, so two files may overlap by microseconds across CPUs; each
 * CPU's events go on from one file into the next). At most the files
 * overlapping the time reached, and the next, are open as cursors at
 * once, and a file read to its end gives its cursor back: memory does
 * not grow with the parts.
 *
 * Which files are one recording (td_set_group): files whose metadata
 * carry the same run_id= (every file one `mmscope record` writes: the
 * parts of a --switch-output run) are one; a file with a run id is never
 * one with a file without. A flight-recorder file (mode=flight-recorder)
 * is one incident, a recording of its own, whatever its run id. Without a run id (files of older versions): a file
 * whose metadata says switch_output=N and whose name is BASE-N.EXT is
 * segment N of the recording BASE.EXT. The segments of one recording
 * must have no gap in N (record --switch-max-files deletes the oldest,
 * so a group may start after 1). Any other file is a group of its own.
 *
 * Nothing here prints; failures return -1/NULL with *err set.
 */
#ifndef MMSCOPE_TRACEDAT_SET_H
#define MMSCOPE_TRACEDAT_SET_H

#include <stdint.h>

#include "tracedat-read.h"

/*
 * The recordings among paths: group[i] is the group of paths[i], from 0
 * in order of first appearance; *ngroups the count. Opens each file for
 * its metadata (one that does not open is a group of its own: the error
 * comes when it is read). 0, or -1 with *err (a segment given twice, a segment missing between two of one recording, a
 * segment named otherwise than BASE-N.EXT for its N).
 */
int td_set_group(const char *const *paths, int n, int *group, int *ngroups, char **err);
/* The same from each file's private metadata already read (priv[i]: NULL
 * for none): td_set_read_meta() reads it (a copy to free; NULL when the
 * file has none or does not open). twice_checked: the caller refused a
 * file named twice already (no stat of each part again). */
int td_set_group_meta(const char *const *paths, const char *const *priv, int n, int *group,
		      int *ngroups, int twice_checked, char **err);
char *td_set_read_meta(const char *path);
/*
 * meta without the lines of the run's description that ref has alike:
 * those of the keys mmscope record writes the same into every part of a
 * run (the events and groups asked for and missing, the sample sources,
 * the probes, the command: td_run_keys), 2.2 of a part's 2.8 KB. A copy
 * to free. The input layer keeps a week of parts so (10,080 files), each
 * against the first part of its run it read; nothing reads those keys of
 * a part between the first and the last (td_set_open_meta).
 */
char *td_meta_trim(const char *meta, const char *ref);
extern const char *const td_run_keys[];

struct td_set;

/*
 * Opens the files as one recording. With more than one file, every file
 * must carry start_realtime_ns (mmscope's metadata) and the first's
 * formats and buffers, and the segments among them must be of one
 * recording with no gap (td_set_group). NULL with *err. A set of more
 * than 64 files (a week of one-minute parts: 10,080) keeps each file's
 * metadata only and opens it, checked against the first, when a cursor
 * reaches it or a caller asks for it (td_set_file), closing it again once
 * read: a file that turns out not of the recording is then an error of
 * the cursor's, and memory and descriptors do not grow with the parts.
 */
struct td_set *td_set_open(const char *const *paths, int n, char **err);
/* The same, each file opened with td_open_only(want). */
struct td_set *td_set_open_only(const char *const *paths, int n, td_want_fn want, char **err);
/* The same with each file's mmscope metadata read already (metas[i], as
 * td_set_read_meta gives it, or td_meta_trim of it; NULL: none given): a
 * set of many files is then made without opening them, only the first in
 * time; the texts are the caller's and must outlive the set. The first
 * and the last file's own are read (whole: how the run began and ended). */
struct td_set *td_set_open_meta(const char *const *paths, const char *const *metas, int n,
				td_want_fn want, char **err);
/* A set of one file already open (it becomes the set's). */
struct td_set *td_set_of(struct td_file *tf);
void td_set_close(struct td_set *s);
int td_set_nfiles(const struct td_set *s);
/* The files in time order; file 0's formats and buffers serve all. */
struct td_file *td_set_file(const struct td_set *s, int i);
/* The same with the reason when a file of a set of many (opened only
 * when needed, see td_set_open) no longer opens. */
struct td_file *td_set_open_file(struct td_set *s, int i, char **err);
/* File i's mmscope metadata (td_private), without opening it: of a file
 * between the first and the last, as td_set_open_meta was given it
 * (td_run_keys may be missing: file 0 has them). */
const char *td_set_private(const struct td_set *s, int i);
/* The events the files but the first lost (dropped and overrun in their
 * CPU stats), over the files opened so far (*files of them): a window
 * reads only the parts it needs. */
long long td_set_lost(const struct td_set *s, int *files);
/* Takes file i out of the set (the caller closes it; the set's cursors
 * must not be used on it afterwards). */
struct td_file *td_set_take(struct td_set *s, int i);
/* The task names of every file's saved cmdlines added to file 0's (a pid
 * both know keeps the first file's name unless a later one renames it):
 * for readers that format every event with file 0's formats. since (a
 * trace time, 0: all): a part known to end before it (a switch ended it,
 * and its clocks say when) gives none: a window names its tasks as the
 * parts it reads saw them, and does not read the others. 0, or -1 with
 * *err naming the file whose saved cmdlines do not read. */
int td_set_share_cmdlines(struct td_set *s, uint64_t since, char **err);

/* Each file's own task names kept for td_set_cursor_names (dump: a pid
 * reused over a day's run is named in each part as that part saw it).
 * Before the set's cursors are made. */
void td_set_keep_names(struct td_set *s);
struct td_set_cursor;
/*
 * Every event of every file, in time order (buffer < 0: all buffers).
 * since > 0: only events at or after it (none earlier, even from a
 * stream whose time goes backwards), each file's cursor
 * started through a page index, made on the first such start of the file
 * and kept by the set for the next: every > 0, a page in `every`
 * (td_index_build: for many seeks, as the TUI's); 0, what this seek
 * needs (td_index_build_at: log2(chunks) chunks read per CPU).
 */
struct td_set_cursor *td_set_cursor_new(struct td_set *s, uint64_t since, unsigned every,
					char **err);
/* The time stamp of the set's first event (0 when none): what relative
 * times count from. 0, or -1 with *err. */
int td_set_first_ts(struct td_set *s, uint64_t *ts, char **err);
/*
 * 1 with *ev filled (valid until the next call; ev->event is the format
 * of td_set_cursor_formats, whose id is the same event in every file:
 * checked on opening), 0 at the end, -1 with *err (a file's bad data;
 * a file whose first event comes before events already returned from
 * an earlier one: not one recording in time order).
 */
int td_set_cursor_next(struct td_set_cursor *c, struct td_event *ev, char **err);
/* The file of the last event returned (an index for td_set_file). */
int td_set_cursor_file(const struct td_set_cursor *c);
/* The tep whose formats the last event has (ev->event's: file 0's, or
 * its own file's when that one's formats differ), and the tep that names
 * its tasks (its own file's saved cmdlines with td_set_keep_names, else
 * the formats' tep). Valid until the next td_set_cursor_next. */
struct tep_handle *td_set_cursor_formats(const struct td_set_cursor *c);
struct tep_handle *td_set_cursor_names(const struct td_set_cursor *c);
void td_set_cursor_free(struct td_set_cursor *c);

#endif
