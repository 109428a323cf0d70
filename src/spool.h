/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The recorder's spool: a 0700 directory holding everything needed to
 * write a trace.dat, kept on disk while recording so that a recorder
 * killed in any way (SIGKILL, crash, power loss) leaves something
 * "mmscope recover" can finish.
 *
 *   SPOOL/layout          "mmscope-spool 1\nncpus N\npage_size P\n"
 *   SPOOL/meta.NAME       metadata snapshots, each written to a temporary
 *                         name, synced and renamed (never half-written):
 *                         header_info ftrace events kallsyms printk
 *                         cmdlines (payloads as in tracedat.h), and
 *                         trace_clock uname version cpustat mmscope (text)
 *   SPOOL/cpuN.raw        raw ring-buffer pages of CPU N, appended whole
 *   SPOOL/reserve         room set aside so the file can be finished on
 *                         a full filesystem (removed before assembling)
 *
 * When assembling, a page file is cut down to whole pages and each page
 * is checked (a plausible timestamp and commit length); a page that is not
 * fully present is skipped, so a power loss mid-write costs at most the
 * pages written last.
 */
#ifndef MMSCOPE_SPOOL_H
#define MMSCOPE_SPOOL_H

#include <stddef.h>
#include <stdint.h>

#include "tracedat-write.h"

struct spool;

/* Creates DIR (mode 0700; it must not exist) and its layout file. */
struct spool *spool_create(const char *dir, int ncpus, uint32_t page_size,
			   uint64_t reserve_bytes, char **err);
/* Stores meta.NAME atomically (temporary file, fsync, rename). */
int spool_put_meta(struct spool *s, const char *name, const void *p, size_t n,
		   char **err);
/*
 * Opens an existing spool (a killed recorder's) to append pages, after
 * cutting every page file down to whole pages.
 */
struct spool *spool_reopen(const char *dir, char **err);
/* Appends one page to cpuN.raw. On failure errno tells why (ENOSPC...),
 * and the page's events count as lost (spool_cpu_lost). */
int spool_put_page(struct spool *s, int cpu, const void *page, char **err);
/*
 * Moves `bytes` (whole pages, as trace_pipe_raw's splice leaves them) from
 * the pipe pipe_fd into cpuN.raw with splice(2): no copy through user
 * space. Returns the pages written, or -1 with errno (ENOSPC...); then the
 * pages the pipe still held, and a page cut by the failed write, are
 * emptied out of the pipe and their events counted as lost.
 */
long spool_splice_pages(struct spool *s, int cpu, int pipe_fd, size_t bytes, char **err);
/*
 * Events handed over by the kernel (or still in the ring at a stop that
 * could not take them) that are not in the spool: a page whose write
 * failed counts here by itself; the recorder adds the rest. The recorder
 * writes them into the file's per-CPU stats as dropped events.
 */
void spool_add_lost(struct spool *s, int cpu, uint64_t events);
uint64_t spool_cpu_lost(const struct spool *s, int cpu);
/* Takes the last n pages of cpuN.raw back (a gap follows them). */
int spool_cpu_drop_last(struct spool *s, int cpu, uint64_t n, char **err);
/* fdatasync the page files (bounded loss on power failure). */
int spool_sync(struct spool *s, char **err);
uint64_t spool_bytes(const struct spool *s);
int spool_ncpus(const struct spool *s);
uint32_t spool_page_size(const struct spool *s);
uint64_t spool_cpu_pages(const struct spool *s, int cpu);
/* Frees the reserve file (so the final file has room). */
void spool_release_reserve(struct spool *s);
const char *spool_dir(const struct spool *s);
/* Renames the spool's directory (its files stay open): 0, or -1 with
 * *err. A spool made under a temporary name and renamed once complete is
 * never seen half made. */
int spool_rename(struct spool *s, const char *dir, char **err);
void spool_close(struct spool *s);

/* What assembling found. */
struct spool_result {
	uint64_t pages;		/* pages written to the file */
	uint64_t bad_pages;	/* skipped: torn, empty or garbled */
	uint64_t bytes;		/* size of the written file */
	int ncpus;
};

/*
 * Writes the spool in DIR as a trace.dat into a new file at path (0600,
 * temporary + rename). Works on a live spool's files as well as on one
 * left by a killed recorder.
 */
int spool_write_file(const char *dir, const char *path, int force,
		     const struct tw_opts *o, struct spool_result *res, char **err);
/* The same with meta (mmscope key=value lines) instead of the spool's
 * own mmscope metadata (NULL: the spool's). */
int spool_write_file_meta(const char *dir, const char *path, int force,
			  const struct tw_opts *o, const char *meta,
			  struct spool_result *res, char **err);
/*
 * Where the data of a CPU of the spool in DIR ends: *ns the trace time
 * of the last event on its last valid page. 1 when found, 0 when the CPU
 * has no such page (or no file).
 */
int spool_cpu_end(const char *dir, int cpu, uint32_t page_size, uint64_t *ns);
/* The trace time of the last data event of a page; 0 if none. */
uint64_t spool_page_last_ts(const void *page, uint32_t page_size);
/* Reads one metadata text (meta.NAME) of a spool; NULL if absent. */
char *spool_read_meta(const char *dir, const char *name, size_t *len);
/* Removes a spool directory and the files a spool may contain. */
int spool_remove(const char *dir, char **err);
/* The CPU count and page size a spool's layout file gives. */
int spool_layout(const char *dir, int *ncpus, uint32_t *page_size, char **err);
/* Is DIR a spool (has a layout file)? */
int spool_is_spool(const char *dir);
/* The events (data records) a ring-buffer page holds. */
uint64_t spool_page_events(const void *page, uint32_t page_size);
/* A page looks like a ring-buffer page that was written completely. */
int spool_page_valid(const void *page, uint32_t page_size);

#endif
