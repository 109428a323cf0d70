# SPDX-License-Identifier: GPL-2.0-or-later
# parsers/: one file per event family and per counter source, registered in
# one table; each turns raw events or samples into typed records.

libmmscope_a_SOURCES += \
	parsers/records.h parsers/parsers.h parsers/parsers.c \
	parsers/families.h parsers/families.c \
	parsers/vmscan.c parsers/compaction.c parsers/kmem.c parsers/oom.c \
	parsers/sample-line.c parsers/sample-vmstat.c parsers/sample-zoneinfo.c \
	parsers/sample-buddyinfo.c parsers/sample-pagetype.c parsers/sample-mthp.c \
	parsers/sample-psi.c parsers/sample-swaps.c

# swap and zswap kprobes (issue 6)
libmmscope_a_SOURCES += parsers/probe-swap.c parsers/probe-zswap.c

# khugepaged and THP collapse (issue 16)
libmmscope_a_SOURCES += parsers/khugepaged.c
