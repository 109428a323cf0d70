/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Internals shared by the reader's files (tracedat-*.c); not an API. */
#ifndef MMSCOPE_TRACEDAT_LOCAL_H
#define MMSCOPE_TRACEDAT_LOCAL_H

#include "tracedat-read.h"
#include "codec.h"
#include "kallsyms.h"
#include "util.h"

/* Hard limits that keep a hostile file from making us allocate much. */
#define TD_MAX_CPUS		8192
#define TD_MAX_BUFFERS		256
#define TD_MAX_SECTIONS		4096
#define TD_MAX_META		(512u << 20)	/* one metadata section, decompressed */
#define TD_MAX_CHUNK		(64u << 20)	/* one compressed data chunk, decompressed */
/*
 * Decompression bombs: the pages of one CPU may decompress to at most
 * TD_INFLATE_FREE bytes plus TD_INFLATE_RATIO times the compressed bytes
 * read so far. Real ring-buffer pages compress 5-50x with zstd or zlib.
 */
#define TD_INFLATE_RATIO	256u
#define TD_INFLATE_FREE		(1u << 20)
/* CPU slots over all buffers (each costs a stream and a kbuffer). */
#define TD_MAX_CPU_SLOTS	32768
#define TD_MIN_PAGE		1024u
#define TD_MAX_PAGE		(1u << 20)
/*
 * Zeroed bytes kept after every page buffer. libtraceevent trusts the
 * offsets of fields and of __data_loc arrays (at most 0xffff + 0xffff
 * past the record), so a hostile record can make it read past the page;
 * the pad keeps such reads inside our allocation.
 */
#define TD_READ_PAD		(0x20000u)

struct td_file {
	char *path;
	int fd;
	uint64_t size;
	/* while it is opened (one thread): the small reads of its headers and
	 * options served from a window of the file read at once (a week's
	 * 10,080 parts took 24 preads each to open) */
	int rc_on;
	uint8_t *rc;
	uint64_t rc_off;
	size_t rc_len;
	int version;
	enum codec_id codec_id;
	struct codec *codec;
	char *compression;
	uint32_t page_size;
	int long_size;
	int cpucount;
	long long ts_offset;		/* OFFSET and DATE options, in ns */
	struct tep_handle *tep;
	struct strbuf meta[TD_META_COUNT];
	int have_meta[TD_META_COUNT];
	struct td_buffer *buffers;
	int nbuffers;
	struct strbuf cpustat;		/* all CPUSTAT options, concatenated */
	char *uname, *clock, *tracer_version, *private_meta;
	int bad_formats;
	char *first_bad_format;
	uint8_t *bad_ids;		/* bitmap of event ids whose format failed */
	int bad_noid;			/* a failed format had no readable ID */
	int cpu_slots;			/* sum of ncpus over buffers */
	uint64_t **cpu_limit;		/* [buffer][cpu]: end of the CPU's data region */
	int have_traceclock;
	struct kallsyms *ksyms;		/* resolves tep's addresses (kallsyms.c) */
	int syms_pending;		/* kallsyms not yet given to tep (td_tep) */
	td_want_fn want;		/* td_open_only: the formats to parse */
	/* v7 sections td_open_only left unread: the kallsyms (read on the
	 * first td_parse_syms, from kallsyms_off) and, for td_want_none,
	 * the formats, printk and cmdlines (never) */
	unsigned int meta_deferred;	/* 1 << enum td_meta */
	uint64_t kallsyms_off;
	uint64_t meta_off[TD_META_COUNT];	/* where each deferred one is */
	unsigned int meta_loaded;	/* deferred, then td_meta_load()ed */
	/* the file whose formats decode this one's events (td_use_formats_of):
	 * a part of a set, opened without its own */
	const struct td_file *fmt_from;
	struct td_skipped {		/* the formats it skipped (names in meta[]) */
		const char *system, *name;
		size_t name_len;
	} *skipped;
	int nskipped;
};

/* Read exactly n bytes at off; errors name what was being read. */
int td_pread(struct td_file *tf, uint64_t off, void *buf, size_t n,
	     const char *what, char **err);
/* Little-endian loads from memory (inline: two per event on the walk). */
static inline uint16_t td_le16(const void *p)
{
	const uint8_t *b = p;

	return (uint16_t)(b[0] | b[1] << 8);
}

static inline uint32_t td_le32(const void *p)
{
	const uint8_t *b = p;

	return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
	       (uint32_t)b[3] << 24;
}

static inline uint64_t td_le64(const void *p)
{
	const uint8_t *b = p;

	return (uint64_t)td_le32(b) | (uint64_t)td_le32(b + 4) << 32;
}

/* tracedat-read.c: a v7 section's payload, decompressed, into out. */
int td_read_section(struct td_file *tf, uint64_t off, uint16_t want, struct strbuf *out,
		    char **err);
/* tracedat-meta.c: turn the metadata payloads into the tep handle. */
int td_parse_meta(struct td_file *tf, char **err);
/* tracedat-meta.c: hand the kallsyms to tep once (td_tep does). */
void td_parse_syms(struct td_file *tf);
/* 1 when the format for event id may have been in the file but did not parse. */
int td_bad_id(const struct td_file *tf, int id);
/* tracedat-meta.c: attribute CPUSTAT text to buffers. */
void td_parse_cpustats(struct td_file *tf);
/*
 * tracedat-pages.c: decompress the chunks of p in a thread of its own,
 * up to a few chunks ahead of td_pages_next (a no-op for uncompressed
 * data). With after > 0 the thread starts only once td_pages_next has
 * read that many chunks itself: a seek that reads a window of events
 * should not pay for a thread decompressing chunks it never reads.
 * -1 if no thread could be started: p reads alone.
 */
int td_pages_readahead(struct td_pages *p, int after);

/* Where a page lies, from td_pages_tell, for td_pages_goto. */
struct td_page_pos {
	uint64_t page;		/* its number in the CPU's stream, from 0 */
	uint64_t off;		/* uncompressed: the page; compressed: its chunk header */
	uint32_t skip;		/* compressed: pages before it in its chunk */
	uint32_t chunks_left;	/* compressed: chunks from its chunk on */
	uint64_t cin, cout;	/* compressed: bomb counters before its chunk */
};
/* The page the last td_pages_next returned. */
void td_pages_tell(const struct td_pages *p, struct td_page_pos *pos);
/*
 * The next td_pages_next returns the page at pos (from td_pages_tell on
 * the same CPU of the same file); the chunk is read with every check.
 * Stops read-ahead. 0, or -1 with *err set.
 */
int td_pages_goto(struct td_pages *p, const struct td_page_pos *pos, char **err);
/* td_pages_seek, but 0 (no error) when there is no such page; 1 when there is. */
int td_pages_skip(struct td_pages *p, uint64_t page, char **err);
/*
 * Where td_pages_goto can start without reading what comes before: each
 * chunk's first page (compressed; found from the chunk headers alone, no
 * chunk decompressed), every 64th page (uncompressed). *out (malloc'd,
 * *n entries, pages ascending); p is rewound. 0, or -1 with *err set.
 */
int td_pages_chunks(struct td_pages *p, struct td_page_pos **out, size_t *n, char **err);

#endif
