/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * How `mmscope export` writes a recording's rows into the table files of
 * its directory: all of them or none. Before it appends, the size of every
 * table file goes into a journal (DIR/.mmscope-export-pending); the rows
 * go to every other table, then the recordings row last, and only then is
 * the journal removed. A write that fails (disk full, a file it cannot
 * open) truncates every file back to its size before; an export killed in
 * between leaves the journal, and the next export in DIR truncates back
 * first. So a recording is in DIR with all its rows or not at all, and a
 * retry after the cause is removed completes it.
 */
#ifndef MMSCOPE_EXPORT_WRITE_H
#define MMSCOPE_EXPORT_WRITE_H

#include "util.h"

/* One table's file. */
struct ex_file {
	char *path;		/* DIR/NAME.EXT */
	int exists;		/* non-empty already: no header before the rows */
};

/*
 * Takes DIR for this export (a lock on the directory: another export into
 * it waits, saying so on stderr), then undoes the rows of a recording whose
 * export was interrupted (the journal's sizes) and removes the journal.
 * The lock's descriptor for xw_close, or -1 with *err set: then nothing
 * may be written to DIR.
 */
int xw_open(const char *dir, char **err);
void xw_close(int lock);

/*
 * Appends rows[i] to files[i] for i < n, each file starting with head[i]
 * when it is new (NULL: no header), files[last] after every other. 0, or
 * -1 with *err naming the file and the reason: then every file is as it
 * was (or, when even that failed, the journal stays for xw_recover).
 */
int xw_append(const char *dir, struct ex_file *files, int n, const char *const *head,
	      const struct strbuf *const *rows, int last, char **err);

#endif
