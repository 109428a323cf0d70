/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Constants of trace-cmd's trace.dat format (versions 6 and 7), shared by
 * the reader and the writer. The layout is described byte by byte in
 * man/mmscope-recording.5 and in ../shared/reference/tracedat-format.md.
 * All multi-byte integers are little-endian in the files we write; files
 * that declare big-endian are rejected by the reader.
 */
#ifndef MMSCOPE_TRACEDAT_H
#define MMSCOPE_TRACEDAT_H

#define TD_MAGIC	"\x17\x08\x44tracing"
#define TD_MAGIC_LEN	10

/* Section ids (v7) share one number space with option ids. */
enum td_id {
	TD_OPT_DONE		= 0,
	TD_OPT_DATE		= 1,
	TD_OPT_CPUSTAT		= 2,
	TD_OPT_BUFFER		= 3,
	TD_OPT_TRACECLOCK	= 4,
	TD_OPT_UNAME		= 5,
	TD_OPT_HOOK		= 6,
	TD_OPT_OFFSET		= 7,
	TD_OPT_CPUCOUNT		= 8,
	TD_OPT_VERSION		= 9,
	TD_OPT_PROCMAPS		= 10,
	TD_OPT_TRACEID		= 11,
	TD_OPT_TIME_SHIFT	= 12,
	TD_OPT_GUEST		= 13,
	TD_OPT_TSC2NSEC		= 14,
	TD_SEC_STRINGS		= 15,
	TD_SEC_HEADER_INFO	= 16,
	TD_SEC_FTRACE_EVENTS	= 17,
	TD_SEC_EVENT_FORMATS	= 18,
	TD_SEC_KALLSYMS		= 19,
	TD_SEC_PRINTK		= 20,
	TD_SEC_CMDLINES		= 21,
	TD_OPT_BUFFER_TEXT	= 22,
	/*
	 * mmscope's own metadata ("key=value" lines). trace-cmd skips option
	 * ids it does not know, so this travels safely inside the file. The
	 * id is far above trace-cmd's range (it uses 0..25 as of 3.4).
	 */
	TD_OPT_MMSCOPE		= 0x6d6d,
};

#define TD_SEC_FL_COMPRESS	1

/* The metadata sections, in the order both versions store them. */
enum td_meta {
	TD_META_HEADER_INFO,	/* "header_page\0" u64 n text "header_event\0" u64 n text */
	TD_META_FTRACE,		/* u32 count, count x (u64 n, text) */
	TD_META_EVENTS,		/* u32 nsys, per system name\0 u32 count (u64 n, text)... */
	TD_META_KALLSYMS,	/* u32 n, text */
	TD_META_PRINTK,		/* u32 n, text */
	TD_META_CMDLINES,	/* u64 n, text */
	TD_META_COUNT
};

#endif
