// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Print the layout of a well-formed trace.dat file (v6 or v7) for the
 * malformed-input tests, as lines
 *
 *	R OFFSET LENGTH NEED KIND	a region (a place to cut the file)
 *	F OFFSET EXPECT KIND		a byte to flip (xor 0xff) and the
 *					outcome: 1 error, 0 reads, any either
 *
 * NEED is 1 when a reader must use the bytes to read every event, 0 when
 * they are informational (STRINGS, kallsyms text, ...). This is written
 * apart from the reader on purpose, so one misreading of the format is
 * not shared by both. It trusts its input: run it on good fixtures only.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint8_t *f;
static size_t fsize;

static uint16_t u16(size_t o) { return (uint16_t)(f[o] | f[o + 1] << 8); }
static uint32_t u32(size_t o) { return u16(o) | (uint32_t)u16(o + 2) << 16; }
static uint64_t u64(size_t o) { return u32(o) | (uint64_t)u32(o + 4) << 32; }

static void out(size_t off, size_t len, int need, const char *kind)
{
	printf("R %zu %zu %d %s\n", off, len, need, kind);
}

static void flip(size_t off, const char *expect, const char *kind)
{
	printf("F %zu %s %s\n", off, expect, kind);
}

static int compressed;
static uint32_t page_size;
static int zlib;	/* zlib streams carry a checksum, zstd frames do not */

/* compressed bytes: the first is the zlib/zstd header, the middle is data */
static void flip_compressed(size_t off, size_t len, const char *kind)
{
	flip(off, "1", kind);
	if (len > 8)
		flip(off + len / 2, zlib ? "1" : "any", kind);
}

/* one CPU's data: raw pages, or chunk count + chunks */
static void cpu_data(uint64_t off, uint64_t size, int chunked)
{
	if (!chunked) {
		for (uint64_t p = 0; p < size; p += page_size) {
			out(off + p, 16, 1, "page-header");
			out(off + p + 16, page_size - 16, 1, "page-data");
			/* commit bits 16..23: far more data than a page holds */
			flip(off + p + 10, "1", "page-commit");
			/* event contents may still decode (other values) */
			flip(off + p + 16 + 200, "any", "page-data");
		}
		return;
	}
	uint32_t n = u32(off);

	out(off, 4, 1, "chunk-count");
	flip(off + 3, "1", "chunk-count");
	off += 4;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t cs = u32(off);

		out(off, 8, 1, "chunk-header");
		out(off + 8, cs, 1, "chunk-data");
		if (i < 3) {
			flip(off + 3, "1", "chunk-csize");
			flip(off + 5, "1", "chunk-usize");
			flip_compressed(off + 8, cs, "chunk-data");
		}
		off += 8 + cs;
	}
}

static void sized_text(size_t *pos, int wide, int need, const char *kind)
{
	uint64_t n = wide ? u64(*pos) : u32(*pos);
	size_t hl = wide ? 8 : 4;

	out(*pos, hl, 1, "size");
	flip(*pos + hl - 1, "1", "size");
	*pos += hl;
	if (n) {
		out(*pos, n, need, kind);
		/* text the reader only parses leniently (or not at all) */
		if (!strcmp(kind, "kallsyms") || !strcmp(kind, "header_event"))
			flip(*pos + n / 2, "0", kind);
		else
			flip(*pos + n / 2, "any", kind);
	}
	*pos += n;
}

static void flyrecord(size_t pos, uint32_t cpus);

static void v6(size_t pos)
{
	uint32_t count, cpus;
	uint64_t bufs[16];
	int nbufs = 0;

	for (int i = 0; i < 2; i++) {
		size_t tl = i ? 13 : 12;

		out(pos, tl, 1, i ? "header_event-tag" : "header_page-tag");
		flip(pos, "1", "tag");
		pos += tl;
		sized_text(&pos, 1, !i, i ? "header_event" : "header_page");
	}
	count = u32(pos);
	out(pos, 4, 1, "ftrace-count");
	flip(pos + 3, "1", "ftrace-count");
	pos += 4;
	for (uint32_t i = 0; i < count; i++)
		sized_text(&pos, 1, 1, "ftrace-format");
	count = u32(pos);
	out(pos, 4, 1, "system-count");
	flip(pos + 3, "1", "system-count");
	pos += 4;
	for (uint32_t i = 0; i < count; i++) {
		size_t nl = strlen((char *)f + pos) + 1;
		uint32_t ne;

		out(pos, nl, 1, "system-name");
		pos += nl;
		ne = u32(pos);
		out(pos, 4, 1, "format-count");
		flip(pos + 3, "1", "format-count");
		pos += 4;
		for (uint32_t j = 0; j < ne; j++)
			sized_text(&pos, 1, 1, "event-format");
	}
	sized_text(&pos, 0, 0, "kallsyms");
	sized_text(&pos, 0, 0, "printk");
	sized_text(&pos, 1, 0, "cmdlines");
	cpus = u32(pos);
	out(pos, 4, 1, "cpu-count");
	flip(pos + 3, "1", "cpu-count");
	pos += 4;
	if (!memcmp(f + pos, "options  ", 10)) {
		out(pos, 10, 1, "options-tag");
		flip(pos, "1", "options-tag");
		pos += 10;
		for (;;) {
			uint16_t id = u16(pos);

			if (!id) {
				out(pos, 2, 1, "option-end");
				pos += 2;
				break;
			}
			uint32_t sz = u32(pos + 2);

			out(pos, 6, 1, "option-header");
			flip(pos + 5, "1", "option-size");
			/* text options are informational; BUFFER/CPUCOUNT are not */
			out(pos + 6, sz, id == 3 || id == 8, "option");
			if (id == 3 && nbufs < 16) {
				flip(pos + 6 + 7, "1", "buffer-offset");
				bufs[nbufs++] = u64(pos + 6);
			}
			else if (id == 8)
				flip(pos + 6 + 3, "1", "cpucount");
			else if (id != 1 && id != 7 && id != 11)
				flip(pos + 6, "0", "text-option");
			pos += 6 + sz;
		}
	}
	flyrecord(pos, cpus);
	/* named buffers: a flyrecord each, at the BUFFER option's offset */
	for (int i = 0; i < nbufs; i++)
		flyrecord(bufs[i], cpus);
}

static void flyrecord(size_t pos, uint32_t cpus)
{
	size_t table;

	out(pos, 10, 1, "flyrecord-tag");
	flip(pos, "1", "flyrecord-tag");
	pos += 10;
	table = pos;
	out(table, (size_t)cpus * 16, 1, "cpu-table");
	for (uint32_t c = 0; c < cpus; c++)
		if (u64(table + c * 16 + 8)) {
			flip(table + c * 16 + 7, "1", "cpu-offset");
			flip(table + c * 16 + 15, "1", "cpu-size");
		}
	for (uint32_t c = 0; c < cpus; c++) {
		uint64_t off = u64(table + c * 16), sz = u64(table + c * 16 + 8);

		if (sz)
			cpu_data(off, sz, 0);
	}
}

static void v7_section(uint64_t off, int need, const char *kind)
{
	uint64_t sz = u64(off + 8);

	out(off, 16, strcmp(kind, "strings") != 0, "section-header");
	/* STRINGS is never read; every other section is */
	flip(off, strcmp(kind, "strings") ? "1" : "0", "section-id");
	flip(off + 15, strcmp(kind, "strings") ? "1" : "0", "section-size");
	if (u16(off + 2) & 1) {
		out(off + 16, 8, need, "block-header");
		out(off + 24, sz - 8, need, kind);
		if (strcmp(kind, "strings")) {
			flip(off + 16 + 3, "1", "block-csize");
			flip(off + 16 + 7, "1", "block-usize");
			flip_compressed(off + 24, sz - 8, kind);
		}
	} else if (sz) {
		out(off + 16, sz, need, kind);
		if (!strcmp(kind, "kallsyms") || !strcmp(kind, "strings"))
			flip(off + 16 + sz / 2, "0", kind);
		else if (strcmp(kind, "ftrace-formats"))
			flip(off + 16 + sz / 2, "any", kind);
	}
}

static void v7(size_t pos)
{
	uint64_t opt = u64(pos);

	out(pos, 8, 1, "options-offset");
	flip(pos + 7, "1", "options-offset");
	/* metadata and STRINGS sections: walk them all, in file order */
	for (size_t at = pos + 8; at + 16 <= fsize;) {
		uint16_t id = u16(at), fl = u16(at + 2);
		uint64_t sz = u64(at + 8);

		switch (id) {
		case 0:
			out(at, 16, 1, "section-header");
			flip(at, "1", "options-id");
			flip(at + 15, "1", "options-size");
			break;
		case 3:
			out(at, 16, 1, "section-header");
			/* the reader checks the id; the size is not used */
			flip(at, "1", "buffer-section-id");
			flip(at + 15, "0", "buffer-section-size");
			compressed = fl & 1;
			break;
		case 15:
			v7_section(at, 0, "strings");
			break;
		case 16: case 17: case 18:
			v7_section(at, 1, id == 16 ? "header-info" :
				   id == 17 ? "ftrace-formats" : "event-formats");
			break;
		case 19: case 20: case 21:
			/* only the sizes matter; the text is informational */
			v7_section(at, 0, id == 19 ? "kallsyms" :
				   id == 20 ? "printk" : "cmdlines");
			break;
		default:
			v7_section(at, 0, "unknown-section");
		}
		at += 16 + sz;
	}
	/* options chain: entries, and the data BUFFER options point at */
	while (opt) {
		size_t p = opt + 16, end = p + u64(opt + 8);
		uint64_t next = 0;

		while (p < end) {
			uint16_t id = u16(p);
			uint32_t sz = u32(p + 2);

			out(p, 6, 1, "option-header");
			flip(p + 5, "1", "option-size");
			out(p + 6, sz, id == 0 || id == 3 || id == 8 ||
			    (id >= 16 && id <= 21), "option");
			if (id == 0 || id == 3 || (id >= 16 && id <= 21))
				flip(p + 6 + 7, "1", "option-offset");
			else if (id == 8)
				flip(p + 6 + 3, "1", "cpucount");
			else if (id != 1 && id != 7 && id != 11)
				flip(p + 6, "0", "text-option");
			if (id == 0)
				next = u64(p + 6);
			if (id == 3) {
				uint64_t sec = u64(p + 6);
				size_t q = p + 14;
				int chunked = u16(sec + 2) & 1;

				q += strlen((char *)f + q) + 1;
				q += strlen((char *)f + q) + 1;
				uint32_t n = u32(q + 4);

				q += 8;
				for (uint32_t i = 0; i < n; i++, q += 20)
					cpu_data(u64(q + 4), u64(q + 12), chunked);
			}
			p += 6 + sz;
		}
		opt = next;
	}
}

int main(int argc, char **argv)
{
	FILE *fp;
	size_t pos, vl;

	if (argc != 2 || !(fp = fopen(argv[1], "rb"))) {
		fprintf(stderr, "usage: td-layout FILE\n");
		return 2;
	}
	fseek(fp, 0, SEEK_END);
	fsize = (size_t)ftell(fp);
	rewind(fp);
	f = malloc(fsize + 64);
	memset(f, 0, fsize + 64);
	if (fread(f, 1, fsize, fp) != fsize)
		return 1;
	fclose(fp);
	out(0, 10, 1, "magic");
	flip(0, "1", "magic");
	flip(5, "1", "magic");
	vl = strlen((char *)f + 10) + 1;
	out(10, vl, 1, "version");
	flip(10, "1", "version");
	pos = 10 + vl;
	out(pos, 1, 1, "endian");
	flip(pos, "1", "endian");
	out(pos + 1, 1, 1, "long-size");
	flip(pos + 1, "1", "long-size");
	out(pos + 2, 4, 1, "page-size");
	flip(pos + 3, "1", "page-size");
	page_size = u32(pos + 2);
	pos += 6;
	if (atoi((char *)f + 10) >= 7) {
		size_t n = strlen((char *)f + pos) + 1;

		out(pos, n, 1, "compression");
		flip(pos, "1", "compression");
		zlib = !strcmp((char *)f + pos, "zlib");
		pos += n;
		n = strlen((char *)f + pos) + 1;
		out(pos, n, 0, "compression-version");
		if (n > 1 && !zlib)	/* zlib's major version is compared */
			flip(pos, "0", "compression-version");
		pos += n;
		v7(pos);
	} else {
		v6(pos);
	}
	return 0;
}
