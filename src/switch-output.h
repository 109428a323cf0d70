/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mmscope record --switch-output SIZE|TIME and --switch-max-files N (perf's
 * names): a continuous recording cut into complete trace.dat files,
 * FILE-1.dat, FILE-2.dat, ..., each with its own metadata and a sample set
 * at its start, the oldest deleted beyond N. This part parses the option
 * and keeps the list of files written; the recorder does the switching.
 */
#ifndef MMSCOPE_SWITCH_OUTPUT_H
#define MMSCOPE_SWITCH_OUTPUT_H

#include <stdint.h>

struct switch_output {
	uint64_t size;		/* switch at this many bytes of pages (0: no) */
	uint64_t time_ns;	/* switch after this long (0: no) */
	unsigned max_files;	/* keep at most this many (0: all) */
	char **files;		/* written, oldest first */
	int nfiles;
	uint64_t removed;	/* files deleted so far */
};

/*
 * "2M", "512K", "1G" (bytes of ring-buffer pages, before compression; at
 * least 64K) or "30s", "10m", "1h" (at least 1 s): perf's suffixes, M for
 * MiB and m for minutes. 0, or -1 with *err.
 */
int switch_output_parse(struct switch_output *so, const char *arg, char **err);
/*
 * A file was written: remember it, and delete the oldest beyond
 * max_files. 0, or -1 with *err naming a file that could not be deleted
 * (it stays in the list).
 */
int switch_output_written(struct switch_output *so, const char *path, char **err);
void switch_output_release(struct switch_output *so);

/*
 * FILE-N.dat's name for the output FILE.dat (FILE-N without an extension):
 * the files of --switch-output and of the flight recorder.
 */
char *output_part_name(const char *out, int n);
/*
 * The highest N of a FILE-N.dat, or of a FILE-N.dat.spool a killed or
 * failed run left, in out's directory: 0 when there is none, -1 with
 * *err when the directory cannot be listed. A restarted recorder numbers
 * its files after it, so that it never meets a file of an earlier run.
 */
int output_part_highest(const char *out, char **err);

#endif
