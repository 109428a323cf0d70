# SPDX-License-Identifier: GPL-2.0-or-later
# src/: the mmscope command, the recording format, collector, models, reports.
# One list per module, in pipeline order.

# basics: allocation, errors, strings, JSON
libmmscope_a_SOURCES += \
	src/util.c src/util.h src/fnv.h \
	src/json.c src/json.h \
	src/pb-write.c src/pb-write.h \
	src/hist.c src/hist.h \
	src/thin.c src/thin.h \
	src/stats.c src/stats.h \
	src/pidmap.c src/pidmap.h \
	src/html.c src/html.h \
	src/doctor-zswap.c src/doctor-zswap.h

# the recording format: reader, cursor, pages, writer, codecs
libmmscope_a_SOURCES += \
	src/codec.c src/codec.h \
	src/tracedat.h src/tracedat-local.h \
	src/tracedat-read.c src/tracedat-read.h \
	src/tracedat-meta.c src/tracedat-pages.c src/tracedat-cursor.c \
	src/tracedat-write.c src/tracedat-write.h \
	src/output-file.c src/output-file.h \
	src/input-file.c src/input-file.h \
	src/tracedat-set.c src/tracedat-set.h \
	src/event-format.c src/event-format.h \
	src/event-fast.c src/event-fast.h \
	src/event-raw.c src/event-raw.h \
	src/kallsyms.c src/kallsyms.h

# the collector: tracefs instance, spool, sampler, kprobes, triggers
libmmscope_a_SOURCES += \
	src/collector.c src/collector.h \
	src/cmdlines.c src/cmdlines.h \
	src/spool.c src/spool.h \
	src/sampler.c src/sampler.h src/task-snapshot.c src/task-snapshot.h \
	src/runctx.c src/runctx.h \
	src/host-id.c src/host-id.h \
	src/probes.c src/probes.h \
	src/trigger.c src/trigger.h src/trigger-events.c src/trigger-events.h \
	src/trigger-watch.c src/trigger-watch.h src/switch-output.c src/switch-output.h \
	src/record-config.c src/record-config.h

# models (pure C, no I/O) and the analysis driver that feeds them
libmmscope_a_SOURCES += \
	src/model.h \
	src/model-handoff.c src/model-handoff.h \
	src/model-reclaim.c src/model-reclaim.h \
	src/model-compaction.c src/model-compaction.h \
	src/model-counters.c src/model-counters.h \
	src/model-frag.c src/model-frag.h \
	src/model-consistency.c src/model-consistency.h \
	src/model-swapclust.c src/model-swapclust.h \
	src/model-zswap.c src/model-zswap.h \
	src/model-khugepaged.c src/model-khugepaged.h \
	src/model-oom.c src/model-oom.h src/kill-window.c src/kill-window.h \
	src/kill-cgroup.c src/kill-cgroup.h \
	src/kill-dossier.c src/kill-dossier.h \
	src/kill-dossier-lines.c src/kill-dossier-lines.h \
	src/model-phases.c src/model-phases.h \
	src/report-phases.c src/report-phases.h \
	src/model-run.c src/model-run.h \
	src/model-memcgs.c src/model-memcgs.h \
	src/report-memcgs.c src/report-memcgs.h \
	src/run-stop.c src/run-stop.h \
	src/model-series.c src/model-series.h \
	src/model-stacks.c src/model-stacks.h \
	src/event-stack.c src/event-stack.h \
	src/model-lanes.c src/model-lanes.h \
	src/wall-map.c src/wall-map.h \
	src/scope-time.c \
	src/analysis.c src/analysis.h \
	src/history.c src/history.h \
	src/inputs.c src/inputs.h

# live: a running recorder's pages merged in time order (tui --live)
libmmscope_a_SOURCES += \
	src/live-merge.c src/live-merge.h \
	src/live.c src/live.h

# report: the section table and its renderers
libmmscope_a_SOURCES += \
	src/report.c src/report.h \
	src/report-mm.c src/report-counters.c src/report-json.c src/report-swap.c \
	src/report-khugepaged.c src/report-khugepaged.h \
	src/report-oom.c src/report-oom.h src/report-kills.c src/report-kills.h \
	src/report-kills-html.c \
	src/report-history.c src/report-history.h \
	src/report-stacks.c src/report-stacks.h \
	src/report-run.c src/report-run.h
# findings: a model over the models, and its report section
libmmscope_a_SOURCES += \
	src/findings.c src/findings.h \
	src/report-findings.c src/report-findings.h

# compare: metric catalogue, run loader, table renderers
libmmscope_a_SOURCES += \
	src/metrics.c src/metrics.h \
	src/metrics-swap.c src/metrics-swap.h \
	src/metrics-direct.c src/metrics-direct.h \
	src/compare-load.c src/compare-load.h \
	src/compare-table.c src/compare-table.h

# perfetto: the models as a Perfetto trace (convert --format perfetto)
libmmscope_a_SOURCES += \
	src/perfetto.c src/perfetto.h

# the command: one file per subcommand
mmscope_SOURCES += \
	src/main.c src/cmd.h src/cli.c src/cli-scope.c \
	src/record-preflight.c src/record-preflight.h \
	src/recorder.c src/recorder.h src/recorder-local.h \
	src/recorder-flight.c src/recorder-meta.c \
	src/part-writer.c src/part-writer.h \
	src/export-write.c src/export-write.h \
	src/export-seen.c src/export-seen.h \
	src/cmd-record.c src/cmd-report.c src/cmd-compare.c src/cmd-tui.c \
	src/cmd-dump.c src/cmd-convert.c src/cmd-recover.c src/cmd-sample.c \
	src/cmd-doctor.c
mmscope_SOURCES += src/cmd-export.c src/cmd-plot.c
# plot's charts (one table) and its SVG primitives: in the library, as
# report --format html draws them too
libmmscope_a_SOURCES += src/plot.h src/plot-charts.c src/plot-svg.c
# the HTML pages of report and compare (they draw plot's charts)
libmmscope_a_SOURCES += src/report-html.c src/report-html.h \
	src/compare-html.c src/compare-html.h
mmscope_SOURCES += src/convert-perfetto.c src/convert-perfetto.h

# tasks to memory cgroups: the recorder's list, the analysis' map, the
# per-cgroup model and its report section
libmmscope_a_SOURCES += src/cgdump.c src/cgdump.h src/cgmap.c src/cgmap.h \
	src/model-cgroups.c src/model-cgroups.h src/report-cgroups.c src/report-cgroups.h
