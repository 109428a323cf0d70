# SPDX-License-Identifier: GPL-2.0-or-later
# parsers/: one file per event family and per counter source, registered in
# one table (families.c); each turns raw events or samples into typed records.

# the registry and the family table
libmmscope_a_SOURCES += \
	parsers/records.h parsers/parsers.h parsers/parsers.c \
	parsers/families.h parsers/families.c

# event families
libmmscope_a_SOURCES += \
	parsers/vmscan.c parsers/compaction.c parsers/kmem.c parsers/oom.c \
	parsers/khugepaged.c parsers/probe-swap.c parsers/probe-zswap.c \
	parsers/tasks.c
libmmscope_a_SOURCES += parsers/stacks.c

# counter sample sources (mmscope-samples(5))
libmmscope_a_SOURCES += \
	parsers/sample-line.c parsers/sample-vmstat.c parsers/sample-zoneinfo.c \
	parsers/sample-buddyinfo.c parsers/sample-pagetype.c parsers/sample-mthp.c \
	parsers/sample-psi.c parsers/sample-swaps.c parsers/sample-tasks.c
