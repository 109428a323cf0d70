/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Writer of trace-cmd trace.dat files: version 7 (zstd by default, zlib or
 * none on request) and version 6 (uncompressed, for old readers).
 *
 * The caller hands over the metadata payloads (the same bytes in both
 * versions, see tracedat.h) and, per buffer and CPU, a source of raw
 * ring-buffer pages. Pages are copied page-aligned, as trace-cmd requires.
 * The output must be a regular file open for writing (it is patched in
 * place); the caller chooses how it is created (mode, O_EXCL, ...).
 */
#ifndef MMSCOPE_TRACEDAT_WRITE_H
#define MMSCOPE_TRACEDAT_WRITE_H

#include <stddef.h>
#include <stdint.h>

#include "codec.h"
#include "tracedat.h"

/* Copies the next page (page_size bytes) into page: 1, 0 at end, -1 error. */
typedef int (*tw_next_page_fn)(void *ctx, void *page, char **err);

struct tw_cpu {
	tw_next_page_fn next;	/* NULL: this CPU has no data */
	void *ctx;
};

struct tw_buffer {
	const char *name;	/* "" for the top-level buffer */
	const char *clock;	/* e.g. "local" */
	uint32_t page_size;
	int ncpus;
	struct tw_cpu *cpus;
};

struct tw_input {
	const void *meta[TD_META_COUNT];	/* payloads; NULL = none */
	size_t meta_len[TD_META_COUNT];
	int cpucount;
	uint32_t page_size;		/* file header page size (top buffer's) */
	const char *trace_clock;	/* the trace_clock file text, or NULL */
	const char *uname;		/* "sysname nodename release machine" */
	const char *version;		/* the recorder's version string */
	const char *cpustat;		/* CPUSTAT text (trace-cmd layout), or NULL */
	size_t cpustat_len;
	const char *private_meta;	/* mmscope key=value lines, or NULL */
	const struct tw_buffer *buffers;
	int nbuffers;
};

struct tw_opts {
	int version;		/* 6 or 7 */
	enum codec_id codec;	/* v7 only */
	int level;
	int chunk_pages;	/* pages per compressed chunk */
};

void tw_opts_default(struct tw_opts *o);

/* Statistics of a finished write. */
struct tw_result {
	uint64_t pages;
	uint64_t bytes;		/* file size */
};

int tw_write(int fd, const struct tw_input *in, const struct tw_opts *o,
	     struct tw_result *res, char **err);

/* Sections of 1 MB or more whose compressed bytes came from the memo of
 * the last one compressed (the kallsyms of every --switch-output part):
 * for tests. */
unsigned long tw_section_memo_hits(void);
#endif
