# SPDX-License-Identifier: GPL-2.0-or-later
# src/: the mmscope command, the recording format, collector, models, reports.

libmmscope_a_SOURCES += \
	src/util.c src/util.h \
	src/codec.c src/codec.h \
	src/tracedat.h src/tracedat-local.h \
	src/tracedat-read.c src/tracedat-read.h \
	src/tracedat-meta.c src/tracedat-pages.c src/tracedat-cursor.c \
	src/tracedat-write.c src/tracedat-write.h \
	src/output-file.c src/output-file.h

mmscope_SOURCES += \
	src/main.c src/cmd.h src/cli.c \
	src/cmd-dump.c \
	src/cmd-convert.c

# compare: statistics, metric catalogue, table renderers (issue 7)
libmmscope_a_SOURCES += src/stats.c src/stats.h

# collector: record, sample, doctor, recover (issue 3)
libmmscope_a_SOURCES += \
	src/spool.c src/spool.h \
	src/collector.c src/collector.h \
	src/sampler.c src/sampler.h \
	src/probes.c src/probes.h \
	src/trigger.c src/trigger.h

mmscope_SOURCES += \
	src/cmd-record.c

# compare (issue 7): metric catalogue, run loader, table renderers, command
libmmscope_a_SOURCES += src/metrics.c src/metrics.h \
	src/compare-load.c src/compare-load.h \
	src/compare-table.c src/compare-table.h
mmscope_SOURCES += src/cmd-compare.c
mmscope_SOURCES += src/cmd-recover.c src/cmd-sample.c src/cmd-doctor.c

# analysis: models, the driver, the report (issue 5)
libmmscope_a_SOURCES += \
	src/hist.c src/hist.h src/pidmap.c src/pidmap.h \
	src/model-handoff.c src/model-handoff.h \
	src/model-reclaim.c src/model-reclaim.h \
	src/model-compaction.c src/model-compaction.h \
	src/model-counters.c src/model-counters.h \
	src/model-frag.c src/model-frag.h \
	src/model-consistency.c src/model-consistency.h \
	src/analysis.c src/analysis.h
libmmscope_a_SOURCES += \
	src/report.c src/report.h src/report-mm.c src/report-counters.c \
	src/report-json.c
libmmscope_a_SOURCES += src/json.c src/json.h
mmscope_SOURCES += src/cmd-report.c

# tui (issue 8): the subcommand, and the event line shared by dump and the TUI
mmscope_SOURCES += src/cmd-tui.c
libmmscope_a_SOURCES += src/event-format.c src/event-format.h

# swap clusters and zswap (issue 6): models, report sections, compare metrics
libmmscope_a_SOURCES += \
	src/model-swapclust.c src/model-swapclust.h \
	src/model-zswap.c src/model-zswap.h \
	src/report-swap.c
libmmscope_a_SOURCES += src/metrics-swap.c src/metrics-swap.h

# time-indexed lanes (the timeline's spans), a model like the others (issue 8)
libmmscope_a_SOURCES += src/model-lanes.c src/model-lanes.h

# tui --live (issue 8): pages of a running recorder merged in time order
libmmscope_a_SOURCES += src/live-merge.c src/live-merge.h
libmmscope_a_SOURCES += src/live.c src/live.h
libmmscope_a_SOURCES += src/event-raw.c src/event-raw.h

# the model table of src/analysis.c (issue 16)
libmmscope_a_SOURCES += src/model.h

# khugepaged and THP collapse (issue 16)
libmmscope_a_SOURCES += src/model-khugepaged.c src/model-khugepaged.h \
	src/report-khugepaged.c src/report-khugepaged.h
