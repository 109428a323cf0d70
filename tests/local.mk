# SPDX-License-Identifier: GPL-2.0-or-later
# tests/: unit (C, TAP), cli (shell, golden output), oracle (trace-cmd),
# malformed input, live recorder tests. "make check" runs them all; one
# list per module, in pipeline order.

TEST_EXTENSIONS = .sh
SH_LOG_COMPILER = $(SHELL)
AM_TESTS_ENVIRONMENT = \
	top_srcdir='$(abs_top_srcdir)'; export top_srcdir; \
	top_builddir='$(abs_top_builddir)'; export top_builddir; \
	MMSCOPE='$(abs_top_builddir)/mmscope'; export MMSCOPE; \
	LSAN_OPTIONS="suppressions=$(abs_top_srcdir)/tests/lsan.supp:print_suppressions=0$${LSAN_OPTIONS:+:$$LSAN_OPTIONS}"; \
	export LSAN_OPTIONS; \
	MMSCOPE_SKIP_LIVE="$${MMSCOPE_SKIP_LIVE:-$(SKIP_LIVE)}"; export MMSCOPE_SKIP_LIVE; \
	MAKE='$(MAKE)'; export MAKE;
# Each test's wall time goes at the end of its log ("test time: 1.234 s",
# tests/time-driver.sh around automake's drivers): make test-times lists
# them, slowest first.
LOG_DRIVER = $(SHELL) $(top_srcdir)/tests/time-driver.sh \
	env AM_TAP_AWK='$(AWK)' $(SHELL) $(top_srcdir)/build-aux/tap-driver.sh
SH_LOG_DRIVER = $(SHELL) $(top_srcdir)/tests/time-driver.sh \
	$(SHELL) $(top_srcdir)/build-aux/test-driver

# Every test program links the library the same way (automake's LDADD
# applies to each program without its own).
LDADD = $(LIBMMSCOPE_LIBS)
SYNTH = tests/unit/synth.c tests/unit/synth.h
EXTRA_DIST += tests/lib.sh tests/lsan.supp tests/install-deps.sh tests/time-driver.sh \
	tests/unit/tap.h tests/unit/sample-rec.h tests/unit/dir-names.h tests/unit/real-recordings.h \
	tests/golden

# basics: util, JSON writer, statistics
check_PROGRAMS += tests/unit/test-util tests/unit/test-json tests/unit/test-stats
TESTS += tests/unit/test-util tests/unit/test-json tests/unit/test-stats
# doctor's verdict on zswap's pool counters, per machine state
check_PROGRAMS += tests/unit/test-doctor-zswap
TESTS += tests/unit/test-doctor-zswap

# the recording format: reader against hand-built files, real formats,
# seeks, the live merge; trace-cmd and kbuffer as independent readers
check_PROGRAMS += tests/unit/test-tracedat tests/unit/test-formats tests/unit/test-seek \
	tests/unit/test-live-merge tests/unit/test-kallsyms tests/unit/test-wall-map \
	tests/unit/test-history
tests_unit_test_tracedat_SOURCES = tests/unit/test-tracedat.c $(SYNTH)
tests_unit_test_formats_SOURCES = tests/unit/test-formats.c $(SYNTH)
tests_unit_test_seek_SOURCES = tests/unit/test-seek.c $(SYNTH)
TESTS += tests/unit/test-tracedat tests/unit/test-formats tests/unit/test-seek \
	tests/unit/test-live-merge tests/unit/test-kallsyms tests/unit/test-wall-map \
	tests/unit/test-history
TESTS += tests/oracle/trace-cmd.sh tests/oracle/kbuffer.sh tests/oracle/fast-format.sh \
	tests/oracle/dump-scope.sh
EXTRA_DIST += tests/oracle/trace-cmd.sh tests/oracle/kbuffer.sh tests/oracle/fast-format.sh \
	tests/oracle/dump-scope.sh
TESTS += tests/oracle/dump-stacks.sh
EXTRA_DIST += tests/oracle/dump-stacks.sh

# robustness: malformed-input matrices, the fuzzer's regression inputs,
# and `make fuzz` (clang + libFuzzer, see tests/fuzz/README.md)
check_PROGRAMS += tests/malformed/td-layout
tests_malformed_td_layout_SOURCES = tests/malformed/td-layout.c
TESTS += tests/malformed/truncate.sh tests/malformed/matrix.sh tests/fuzz/regress.sh
EXTRA_DIST += tests/malformed/lib.sh tests/malformed/truncate.sh tests/malformed/truncate.py tests/malformed/matrix.sh \
	tests/fuzz/regress.sh tests/fuzz/README.md tests/fuzz/fuzz-reader.c \
	tests/fuzz/make-seeds.c tests/fuzz/lsan.supp tests/fuzz/corpus tests/fuzz/regress

# The fuzzer is built with clang straight from the library's sources (not
# libmmscope.a, which may be built by gcc without coverage hooks): every .c
# of libmmscope_a_SOURCES, so a parser, model or report file added there
# is in the fuzzer too (the target runs the reader, then what `mmscope
# report` runs: parsers, models, analysis, the text and JSON renderers).
FUZZ_CC = clang
FUZZ_SECONDS = 120
FUZZ_FLAGS = -timeout=1 -rss_limit_mb=2048 -max_len=65536
fuzz-reader: $(srcdir)/tests/fuzz/fuzz-reader.c $(libmmscope_a_SOURCES) config.h
	$(AM_V_CCLD)srcs=; for f in $(libmmscope_a_SOURCES); do \
		case $$f in *.c) srcs="$$srcs $(srcdir)/$$f";; esac; \
	done; \
	$(FUZZ_CC) -g -O1 -std=gnu11 \
		-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		-I$(top_builddir) -I$(srcdir)/src -I$(srcdir)/parsers $(TRACEEVENT_CFLAGS) \
		$(TRACEFS_CFLAGS) $(ZLIB_CFLAGS) $(ZSTD_CFLAGS) -o $@ \
		$(srcdir)/tests/fuzz/fuzz-reader.c $$srcs \
		$(TRACEFS_LIBS) $(TRACEEVENT_LIBS) $(ZLIB_LIBS) $(ZSTD_LIBS) -lm -lpthread
CLEANFILES += fuzz-reader
CLEANFILES += check-vm-cgroups.log

# New inputs go to fuzz-corpus/ in the build tree; crashes to fuzz-artifacts/.
# libFuzzer exits non-zero on any crash, leak, timeout or sanitizer report.
fuzz: fuzz-reader
	@mkdir -p fuzz-corpus fuzz-artifacts
	LSAN_OPTIONS=suppressions=$(abs_srcdir)/tests/fuzz/lsan.supp:print_suppressions=0 \
	./fuzz-reader $(FUZZ_FLAGS) -max_total_time=$(FUZZ_SECONDS) \
		-artifact_prefix=fuzz-artifacts/ fuzz-corpus $(srcdir)/tests/fuzz/corpus
.PHONY: fuzz

# parsers: event families against every kernel's formats, sample lines
check_PROGRAMS += tests/unit/test-parsers tests/unit/test-families tests/unit/test-samples \
	tests/unit/test-khugepaged tests/unit/test-oom tests/unit/test-names \
	tests/unit/test-runctx
TESTS += tests/unit/test-parsers tests/unit/test-families tests/unit/test-samples \
	tests/unit/test-khugepaged tests/unit/test-oom tests/unit/test-names \
	tests/unit/test-runctx

# a part's metadata without its run's description (a week of parts)
check_PROGRAMS += tests/unit/test-meta-trim
TESTS += tests/unit/test-meta-trim
# series of one point per sample set in bounded memory
check_PROGRAMS += tests/unit/test-thin
TESTS += tests/unit/test-thin
# models on hand-built record sequences
check_PROGRAMS += tests/unit/test-model-handoff tests/unit/test-model-reclaim \
	tests/unit/test-model-consistency tests/unit/test-model-swapclust \
	tests/unit/test-model-zswap tests/unit/test-model-counters tests/unit/test-triggers \
	tests/unit/test-model-64k tests/unit/test-kills tests/unit/test-model-16k
TESTS += tests/unit/test-model-handoff tests/unit/test-model-reclaim \
	tests/unit/test-model-consistency tests/unit/test-model-swapclust \
	tests/unit/test-model-zswap tests/unit/test-model-counters tests/unit/test-triggers \
	tests/unit/test-model-64k tests/unit/test-kills tests/unit/test-model-16k
# a kill's dossier as labelled lines (TUI, HTML, Perfetto)
check_PROGRAMS += tests/unit/test-kill-lines
TESTS += tests/unit/test-kill-lines
# a kill's block on the HTML page: hostile names escaped, a row per line
check_PROGRAMS += tests/unit/test-kills-html
TESTS += tests/unit/test-kills-html
# the victim's cgroup's samples at a kill; systemd-oomd by its xattr
check_PROGRAMS += tests/unit/test-kill-cgroup
TESTS += tests/unit/test-kill-cgroup
check_PROGRAMS += tests/unit/test-model-stacks tests/unit/test-model-parts
TESTS += tests/unit/test-model-stacks tests/unit/test-model-parts
# tasks to memory cgroups: the cgtasks lines, the recorder's list, the map
check_PROGRAMS += tests/unit/test-cgmap
TESTS += tests/unit/test-cgmap
# the analysis driver's model table: every model in it, fed as by hand
check_PROGRAMS += tests/unit/test-model-table
TESTS += tests/unit/test-model-table
# what the report asks of the analysis (summaries, thinned series)
# changes none of its figures, on every real recording
check_PROGRAMS += tests/unit/test-summary
TESTS += tests/unit/test-summary

# report: the section table, golden reports on the fixtures
# (MMSCOPE_UPDATE_GOLDEN=1 regenerates), swap figures against the
# counters, and the truth test against trace-cmd
check_PROGRAMS += tests/unit/test-report
TESTS += tests/unit/test-report tests/report/golden.sh tests/report/swap.sh \
	tests/oracle/truth.sh tests/report/run.sh tests/oracle/scope.sh tests/report/formats.sh \
	tests/report/wall-time.sh tests/report/window-header.sh tests/report/direct-memcg.sh
TESTS += tests/report/stop.sh
EXTRA_DIST += tests/report/stop.sh
# a 16 KB-page arm64 recording made by mkrec: sizes from the page size,
# mTHP fallbacks as splits by configuration (no THP_SWAP)
TESTS += tests/report/pagesize-16k.sh
EXTRA_DIST += tests/report/pagesize-16k.sh
# how a recording ended (issue 40.4): every stop word, the ending, the
# command's outcome through the metadata
check_PROGRAMS += tests/unit/test-run-stop
TESTS += tests/unit/test-run-stop
TESTS += tests/report/scope-unmatched.sh tests/report/plurals.sh tests/report/probe-floor.sh
EXTRA_DIST += tests/report/scope-unmatched.sh tests/report/plurals.sh tests/report/probe-floor.sh
# issue 32.14 on a real recording: a kswapd request left during proactive
# compaction, picked up as kcompactd goes back to sleep
TESTS += tests/report/handoff-pickup.sh
# recordings made by hand in a kernel's event formats, for cases no
# kept recording has
check_PROGRAMS += tests/report/mkevents
tests_report_mkevents_SOURCES = tests/report/mkevents.c $(SYNTH)
# issue 44.3 on one of them: a request picked up goes to the first
# episode awake since it could have been made
TESTS += tests/report/handoff-first-awake.sh
EXTRA_DIST += tests/report/handoff-first-awake.sh
TESTS += tests/report/handoff-proactive.sh
TESTS += tests/report/handoff-zone.sh
TESTS += tests/report/traced.sh tests/report/meta-text.sh
# issue 43: recordings of arm64 guests with 16 KB pages, the report's
# page geometry held to their run context and samples
TESTS += tests/report/page16k.sh
EXTRA_DIST += tests/report/page16k.sh tests/data/page16k
EXTRA_DIST += tests/report/handoff-pickup.sh
EXTRA_DIST += tests/report/handoff-proactive.sh
EXTRA_DIST += tests/report/handoff-zone.sh
EXTRA_DIST += tests/report/traced.sh tests/report/meta-text.sh
EXTRA_DIST += tests/report/golden.sh tests/report/swap.sh tests/oracle/truth.sh tests/report/run.sh tests/report/formats.sh \
	tests/report/wall-time.sh tests/report/window-header.sh tests/report/direct-memcg.sh \
	tests/oracle/truth.py tests/oracle/scope.sh tests/oracle/scope.py tests/data/report tests/data/swap tests/data/kernels tests/data/dump
# findings (issue 33): the section's goldens, counts against the sections
# and against trace-cmd, the quiet recording as the negative control
check_PROGRAMS += tests/unit/test-findings
TESTS += tests/unit/test-findings tests/report/findings.sh tests/oracle/findings-truth.sh
EXTRA_DIST += tests/report/findings.sh tests/oracle/findings-truth.sh tests/oracle/findings.py tests/oracle/cgmap.py

# compare: metrics, statistics and the tables on synthetic recordings
check_PROGRAMS += tests/unit/test-metrics tests/compare/mkrec
tests_compare_mkrec_SOURCES = tests/compare/mkrec.c $(SYNTH)
TESTS += tests/unit/test-metrics tests/compare/golden.sh tests/compare/phase-live.sh
EXTRA_DIST += tests/compare/golden.sh tests/compare/data tests/data/compare \
	tests/compare/phase-live.sh

# tui: view builders without curses, golden screens from the headless
# mode, errors, and the real binary in tmux; a host's history of several
# runs made from a real recording by tests/history/mkhist
check_PROGRAMS += tests/unit/test-tui-views
tests_unit_test_tui_views_SOURCES = tests/unit/test-tui-views.c $(TUI_CORE)
TESTS += tests/unit/test-tui-views tests/tui/golden.sh tests/tui/errors.sh tests/tui/tmux.sh \
	tests/tui/memcg-lane.sh tests/tui/history.sh
EXTRA_DIST += tests/tui/golden.sh tests/tui/errors.sh tests/tui/tmux.sh tests/tui/memcg-lane.sh \
	tests/tui/history.sh tests/data/tui

# the command line and the man pages
TESTS += tests/cli/docs.sh tests/cli/usage.sh tests/cli/sections.sh tests/cli/stdin.sh \
	tests/cli/sudo.sh tests/cli/recover-next.sh tests/cli/cgroups-opts.sh
EXTRA_DIST += tests/cli/docs.sh tests/cli/usage.sh tests/cli/sections.sh tests/cli/stdin.sh \
	tests/cli/sudo.sh tests/cli/recover-next.sh tests/cli/cgroups-opts.sh
# packaging: the bash completion in bash, the installed man pages' version,
# debian/ against install-deps.sh and configure.ac
TESTS += tests/cli/completion.sh tests/cli/man-version.sh tests/cli/debian.sh tests/cli/repo-docs.sh \
	tests/cli/convert.sh
EXTRA_DIST += tests/cli/completion.sh tests/cli/man-version.sh tests/cli/debian.sh \
	tests/cli/repo-docs.sh tests/cli/convert.sh
# the live tests wait for what they need, with a bound, never a fixed
# time: each sleep of theirs polls, or says why it is not a wait (issue 45)
TESTS += tests/cli/live-sleeps.sh
EXTRA_DIST += tests/cli/live-sleeps.sh

# perfetto: convert -o OUT.pftrace, decoded with protoc against Perfetto's
# schema and held to the report; the protobuf encoder and the event order
check_PROGRAMS += tests/unit/test-perfetto
TESTS += tests/unit/test-perfetto tests/perfetto/convert.sh
EXTRA_DIST += tests/perfetto/convert.sh tests/perfetto/check.py tests/data/perfetto

# export: the schema against its man page, the fleet queries in SQLite
# and in a ClickHouse server of the test's own
TESTS += tests/export/schema.sh tests/export/sqlite.sh tests/export/clickhouse.sh \
	tests/export/run.sh tests/export/jobs.sh tests/export/window.sh tests/export/identity.sh \
	tests/export/kills.sh
EXTRA_DIST += tests/export/schema.sh tests/export/sqlite.sh tests/export/clickhouse.sh \
	tests/export/run.sh tests/export/jobs.sh tests/export/window.sh tests/export/identity.sh \
	tests/export/kills.sh \
	tests/export/fleet.py \
	tests/export/fleet-queries.sh
# the fleet queries of samples/queries in SQLite and ClickHouse, and on a
# two-shard cluster against one server (issue 42); bench.sh, the fleet
# benchmark, is no test (tests/bench/README.md)
TESTS += tests/fleet/queries.sh tests/fleet/cluster.sh
EXTRA_DIST += tests/fleet/queries.sh tests/fleet/cluster.sh tests/fleet/lib-ch.sh \
	tests/fleet/lib-load.sh tests/fleet/ch-insert.py tests/fleet/results.py tests/fleet/gen.py \
	tests/fleet/bench.sh
# mmscope-export(5)'s SQLite loading example, run as printed
TESTS += tests/export/loading.sh
EXTRA_DIST += tests/export/loading.sh

# plot: goldens of the samples, every SVG well-formed and rendered to PNG
TESTS += tests/plot/golden.sh tests/plot/inputs.sh tests/plot/charts.sh
EXTRA_DIST += tests/plot/golden.sh tests/plot/inputs.sh tests/plot/charts.sh

# html: the escaping; report and compare pages checked as files (sections,
# figures against the text, no external URL, -o safety), then rendered in
# headless Chromium (DOM and screenshot)
check_PROGRAMS += tests/unit/test-html
TESTS += tests/unit/test-html tests/html/page.sh tests/html/chromium.sh
EXTRA_DIST += tests/html/page.sh tests/html/chromium.sh tests/html/check.py tests/kills_expect.py

# the collector: the catalogue and the sampler, then the live recorder
# tests (root; tests/record/lib-live.sh mounts tracefs, takes the global
# lock and restores what it changes)
check_PROGRAMS += tests/unit/test-probes tests/unit/test-sampler \
	samples/workloads/anon-touch samples/workloads/thp-collapse
TESTS += tests/unit/test-probes tests/unit/test-sampler
TESTS += tests/record/live-swap.sh tests/record/signals.sh tests/record/limits.sh \
	tests/record/options.sh tests/record/sample.sh tests/record/flight.sh \
	tests/report/swap-host.sh tests/record/concurrency.sh tests/tui/live.sh \
	tests/record/names.sh tests/record/context.sh tests/record/bracket.sh \
	tests/record/triggers.sh tests/record/switch.sh tests/record/filter.sh \
	tests/record/service.sh tests/record/stacktrace.sh tests/record/start-note.sh \
	tests/record/kills.sh
EXTRA_DIST += tests/record/lib-live.sh tests/record/live-swap.sh tests/record/signals.sh \
	tests/record/limits.sh tests/record/options.sh tests/record/sample.sh \
	tests/record/flight.sh tests/report/swap-host.sh tests/record/concurrency.sh \
	tests/tui/live.sh tests/record/names.sh tests/record/context.sh tests/record/bracket.sh \
	tests/record/triggers.sh tests/record/switch.sh tests/record/filter.sh \
	tests/record/service.sh tests/record/stacktrace.sh tests/record/start-note.sh \
	tests/record/kills.sh
# tasks to memory cgroups against trace-cmd (issue 34): live, and on the
# recording in tests/data/cgroups
TESTS += tests/record/cgroups.sh tests/report/cgroups.sh tests/tui/memcg-scope.sh
EXTRA_DIST += tests/tui/memcg-scope.sh
TESTS += tests/tui/tabs.sh tests/tui/set-names.sh
EXTRA_DIST += tests/tui/tabs.sh tests/tui/set-names.sh
EXTRA_DIST += tests/record/cgroups.sh tests/record/lib-cgroups.sh tests/report/cgroups.sh \
	tests/data/cgroups

# The live tests share the kernel's tracing state (instances, swap,
# cgroups) and check it after each run; one test's deliberately killed
# recorder would look like another's leftover. Run them one after
# another, even under make -j.
tests/record/signals.log: tests/record/live-swap.log
tests/record/limits.log: tests/record/signals.log
tests/record/options.log: tests/record/limits.log
tests/record/sample.log: tests/record/options.log
tests/record/flight.log: tests/record/sample.log
tests/report/swap-host.log: tests/record/flight.log
tests/record/concurrency.log: tests/report/swap-host.log
tests/tui/live.log: tests/record/concurrency.log
tests/record/names.log: tests/tui/live.log
tests/record/context.log: tests/record/names.log
tests/record/bracket.log: tests/record/context.log
tests/record/triggers.log: tests/record/bracket.log
tests/record/switch.log: tests/record/triggers.log
tests/record/filter.log: tests/record/switch.log
tests/record/service.log: tests/record/filter.log
tests/record/stacktrace.log: tests/record/service.log
tests/record/stacks-report.log: tests/record/stacktrace.log
tests/record/kills.log: tests/record/stacks-report.log
# systemd-oomd's kill pattern made on this host: the guests cannot run it
TESTS += tests/record/oomd-pattern.sh
EXTRA_DIST += tests/record/oomd-pattern.sh
tests/record/oomd-pattern.log: tests/record/kills.log
TESTS += tests/record/stacks-report.sh
EXTRA_DIST += tests/record/stacks-report.sh

# several files (record --switch-output's) as one recording: dump,
# export, tui, compare; live after the other live tests, and on files
# made by tests/compare/mkrec
TESTS += tests/record/switch-read.sh tests/cli/multifile.sh tests/cli/recordings.sh tests/cli/set-parts.sh
EXTRA_DIST += tests/record/switch-read.sh tests/cli/multifile.sh tests/cli/recordings.sh tests/cli/set-parts.sh
tests/record/switch-read.log: tests/record/stacktrace.log
# the parts of a run add up to the run (issue 40): live, and the list of
# the report's figures that are sums over time (parts-sum.py --list)
TESTS += tests/record/parts-sum.sh
EXTRA_DIST += tests/record/parts-sum.sh tests/record/parts-sum.py
tests/record/parts-sum.log: tests/record/switch-read.log

# host histories: a host's runs as one time line in every front end
# (history.sh), on copies of real recordings moved in time by
# tests/history/mkhist
check_PROGRAMS += tests/history/mkhist
TESTS += tests/history/history.sh tests/history/set-lazy.sh
EXTRA_DIST += tests/history/history.sh tests/history/lib.sh tests/history/set-lazy.sh
# live: a service's restarts, a kill and recover, a flight recorder beside
TESTS += tests/record/history.sh
EXTRA_DIST += tests/record/history.sh
tests/record/history.log: tests/record/switch-read.log

# kernel matrix: every scenario of tests/vm/scenarios on every kernel
# under qemu TCG, VM_JOBS VMs at a time; one "PASS:/FAIL:/SKIP: KERNEL
# SCENARIO (N s)" line per case. Not part of `make check` (needs qemu, root
# and ~1.3 GB of cached kernels). Override VM_KERNELS / VM_SCENARIOS /
# VM_JOBS. arm64-6.12 (Debian's arm64 kernel under qemu-system-aarch64,
# mmscope cross-built) runs VM_ARM64_SCENARIOS only, the arm64 kernels
# with 16 KB pages (arm64-16k-6.12, arm64-16k-7.2; issue 43)
# VM_ARM64_16K_SCENARIOS.
# (arm64 first: its cases are the longest, and with VM_JOBS=2 the matrix
# ends sooner when they do not start last)
VM_KERNELS = arm64-6.12 arm64-16k-6.12 arm64-16k-7.2 5.10 6.1 6.12 7.2 7.x
VM_SCENARIOS = memcg-swap global-pressure mthp-frag zswap
VM_ARM64_SCENARIOS = memcg-swap mthp-frag global-pressure
VM_ARM64_16K_SCENARIOS = memcg-swap mthp-frag
VM_JOBS = 2
# cases that fail on the kernel's own behaviour, not ours (tests/vm/README.md,
# "Known problems"): 7.2's reclaim gives more folios swap slots than it writes
VM_XFAIL = 7.2/memcg-swap
.PHONY: check-vm
# then the tasks-to-cgroups case on a cgroup v2 guest (issue 34), held
# to trace-cmd as tests/record/cgroups.sh holds this host's v1 recording
VM_CGROUPS_KERNEL = 6.12
check-vm: mmscope$(EXEEXT)
	rc=0; VM_XFAIL="$(VM_XFAIL)" VM_JOBS="$(VM_JOBS)" VM_ARM64_SCENARIOS="$(VM_ARM64_SCENARIOS)" \
	  VM_ARM64_16K_SCENARIOS="$(VM_ARM64_16K_SCENARIOS)" \
	  MMSCOPE=$(abs_top_builddir)/mmscope$(EXEEXT) \
	  $(abs_top_srcdir)/tests/vm/check-matrix.sh "$(VM_KERNELS)" "$(VM_SCENARIOS)" || rc=1; \
	k=$(VM_CGROUPS_KERNEL); start=$$(date +%s); \
	MMSCOPE=$(abs_top_builddir)/mmscope$(EXEEXT) top_srcdir=$(abs_top_srcdir) \
	  top_builddir=$(abs_top_builddir) $(abs_top_srcdir)/tests/vm/check-cgroups.sh $$k \
	  >check-vm-cgroups.log 2>&1; r=$$?; t=$$(($$(date +%s) - start)); \
	if [ $$r -eq 0 ]; then echo "PASS: $$k cgroups-v2 ($$t s)"; \
	elif [ $$r -eq 77 ]; then echo "SKIP: $$k cgroups-v2: $$(tail -1 check-vm-cgroups.log)"; \
	else echo "FAIL: $$k cgroups-v2 ($$t s; check-vm-cgroups.log)"; tail -30 check-vm-cgroups.log; rc=1; fi; \
	$(VM_KILLS_RUN); \
	exit $$rc
# every kill, whoever the killer (issue 41): a memcg OOM kill, a shell's
# kill -9, Debian's earlyoom and a global kernel OOM in one recording on
# a 6.12 guest, each dossier held to trace-cmd by tests/vm/kills-oracle.py
# (tests/vm/README.md); alone: make check-vm-kills
VM_KILLS_KERNEL = 6.12
VM_KILLS_RUN = k=$(VM_KILLS_KERNEL); start=$$(date +%s); \
	MMSCOPE=$(abs_top_builddir)/mmscope$(EXEEXT) top_srcdir=$(abs_top_srcdir) \
	  top_builddir=$(abs_top_builddir) $(abs_top_srcdir)/tests/vm/check-kills.sh $$k \
	  >check-vm-kills.log 2>&1; r=$$?; t=$$(($$(date +%s) - start)); \
	g=$$(sed -n 's/^guest: qemu_wall_s=\([0-9.]*\).*/, guest \1 s/p' check-vm-kills.log | tail -n 1); \
	n=$$(grep -c '^ok: ' check-vm-kills.log); \
	if [ $$r -eq 0 ]; then echo "PASS: $$k kills ($$t s$$g, $$n checks)"; \
	elif [ $$r -eq 77 ]; then echo "SKIP: $$k kills: $$(tail -1 check-vm-kills.log | sed "s/^SKIP: //")"; \
	else echo "FAIL: $$k kills ($$t s$$g; check-vm-kills.log)"; grep '^FAIL' check-vm-kills.log | head -30; \
	  tail -5 check-vm-kills.log; rc=1; fi
.PHONY: check-vm-kills
check-vm-kills: mmscope$(EXEEXT)
	@rc=0; $(VM_KILLS_RUN); exit $$rc
CLEANFILES += check-vm-kills.log
EXTRA_DIST += tests/vm/README.md tests/vm/check-matrix.sh tests/vm/check-scenario.sh \
	tests/vm/rec-counts.awk tests/vm/scenario-lib.sh tests/vm/run-vm.sh \
	tests/vm/fetch-kernel.sh tests/vm/mkinitramfs.sh tests/vm/scenarios \
	tests/vm/apt-private.sh tests/vm/fetch-sysroot.sh tests/vm/cross-build.sh \
	tests/vm/workloads tests/vm/collect-kernel-facts.sh tests/vm/host-kernel-facts.sh \
	tests/vm/check-cgroups.sh tests/vm/check-kills.sh tests/vm/kills-oracle.py \
	tests/vm/fetch-earlyoom.sh tests/vm/scenario-group.sh tests/vm/poke-race.awk \
	tests/vm/poke-race.sh
# qemu TCG's text-poke race told from the guest oopses that fail a case
TESTS += tests/vm/poke-race.sh

# ThreadSanitizer: `make check-tsan` in a build configured with
# --enable-tsan runs the threaded paths (compare -j, export -j, read-ahead)
# on the real recordings and fails on any report (.ci/run runs it; not part
# of `make check`, which would need the whole suite built with TSan).
.PHONY: check-tsan
check-tsan: mmscope$(EXEEXT)
if TSAN
	top_srcdir='$(abs_top_srcdir)' MMSCOPE='$(abs_top_builddir)/mmscope$(EXEEXT)' \
	  $(SHELL) $(abs_top_srcdir)/tests/tsan/threads.sh
else
	@echo "check-tsan: configure with --enable-tsan first" >&2; exit 1
endif
EXTRA_DIST += tests/tsan/threads.sh

# export: a failed write undone, a retry completes it
TESTS += tests/export/retry.sh
EXTRA_DIST += tests/export/retry.sh

# performance: `make bench` prints mmscope against trace-cmd on large
# recordings (tests/bench/README.md); td-walk is the reader's floor,
# tui-bench drives the TUI core (no ncurses) for the index and redraw
# targets. Not part of `make check`: it takes minutes.
EXTRA_PROGRAMS = tests/bench/td-walk tests/bench/tui-bench
tests_bench_tui_bench_SOURCES = tests/bench/tui-bench.c $(TUI_CORE)
.PHONY: bench
bench: mmscope$(EXEEXT) tests/bench/td-walk$(EXEEXT) tests/bench/tui-bench$(EXEEXT) \
		samples/workloads/anon-touch$(EXEEXT)
	$(abs_top_srcdir)/tests/bench/bench.sh $(abs_top_builddir)
EXTRA_DIST += tests/bench/bench.sh tests/bench/README.md tests/bench/record-bench.sh tests/bench/many.sh \
	tests/bench/vm-record-bench.sh tests/bench/history.sh

# every file of a flight recorder and of --switch-output holds its
# counters whole; restarts go on after the files of an earlier run; a
# full disk at the start and in the middle of a file; no memory for a
# read of the ring
TESTS += tests/record/files.sh tests/record/diskfull.sh tests/record/nomem.sh tests/record/kill-switch.sh \
	tests/record/switch-writer.sh
EXTRA_DIST += tests/record/files.sh tests/record/diskfull.sh tests/record/nomem.sh tests/record/kill-switch.sh \
	tests/record/switch-writer.sh
tests/record/files.log: tests/record/stacks-report.log
tests/record/diskfull.log: tests/record/files.log
tests/record/nomem.log: tests/record/diskfull.log
tests/record/kill-switch.log: tests/record/nomem.log
tests/record/switch-writer.log: tests/record/kill-switch.log

# --cgroups (issue 34): the memcgs model on hand-built sets
check_PROGRAMS += tests/unit/test-model-memcgs
TESTS += tests/unit/test-model-memcgs
# the --cgroups sampler's cost: tests/bench/cgroups-bench.sh (root, v1)
EXTRA_PROGRAMS += tests/bench/sampler-bench
EXTRA_DIST += tests/bench/cgroups-bench.sh
# live: record --cgroups on this host's v1 memcgs, held to the kernel's files
TESTS += tests/record/cgroups-sample.sh
tests/record/cgroups-sample.log: tests/record/switch-writer.log
EXTRA_DIST += tests/record/cgroups-sample.sh
# live: a --switch-output set's task names in the TUI (after the others)
tests/tui/set-names.log: tests/record/cgroups-sample.log

# Slow tests: those that take SLOW_TEST_CPU seconds of CPU or more under
# ASan+UBSan (`make test-times` in a build configured with
# --enable-sanitizers: "WALL CPU TEST"; ASan's start and allocator cost
# tests that run mmscope thousands of times 4-11 times the plain run's).
# .ci/run runs them once, plain, beside the live tests, and leaves them out
# of its ASan+UBSan run and of distcheck; `make check-quick` leaves them
# out. A test not named here that takes twice SLOW_TEST_CPU under ASan
# fails .ci/run: name it here. (Measured 2026-12-05, load 5-8: truncate.sh
# 462 s as a shell loop, test-seek 195 s, trace-cmd.sh 187 s ... handoff-zone.sh 31 s; the
# 103 others 360 s together. Later, load 2: plurals.sh 48 s, probe-floor.sh
# 32 s; the 86 others 428 s together.)
SLOW_TEST_CPU = 30
SLOW_TESTS = tests/malformed/truncate.sh tests/unit/test-seek tests/oracle/trace-cmd.sh \
	tests/oracle/scope.sh tests/tui/golden.sh tests/perfetto/convert.sh \
	tests/report/formats.sh tests/oracle/kbuffer.sh tests/oracle/truth.sh \
	tests/oracle/fast-format.sh tests/cli/repo-docs.sh tests/oracle/dump-scope.sh \
	tests/report/wall-time.sh tests/html/chromium.sh tests/plot/golden.sh \
	tests/report/findings.sh tests/oracle/findings-truth.sh tests/export/clickhouse.sh \
	tests/fleet/queries.sh tests/fleet/cluster.sh \
	tests/report/golden.sh tests/cli/usage.sh tests/report/meta-text.sh \
	tests/report/handoff-zone.sh tests/report/plurals.sh tests/report/probe-floor.sh

# The test lists, one test per line, for .ci/run: every test; the live
# ones (those that source tests/record/lib-live.sh: they record on this
# kernel as root); the slow ones.
print-tests:
	@for t in $(TESTS); do echo "$$t"; done
print-live-tests:
	@for t in $(TESTS); do \
	  test -f "$(srcdir)/$$t" && grep -q 'tests/record/lib-live.sh' "$(srcdir)/$$t" && echo "$$t"; \
	done; :
print-slow-tests:
	@for t in $(SLOW_TESTS); do echo "$$t"; done
print-slow-test-cpu:
	@echo $(SLOW_TEST_CPU)
.PHONY: print-tests print-live-tests print-slow-tests print-slow-test-cpu

# A first look: every test but the live recordings (no root, no change to
# the machine) and the slow ones; no guests (make check-vm). About 2
# minutes on 2 CPUs, where make check takes about 10 (README.md).
check-quick:
	@list=; for t in $(TESTS); do \
	  case " $(SLOW_TESTS) " in *" $$t "*) continue ;; esac; \
	  if test -f "$(srcdir)/$$t" && grep -q 'tests/record/lib-live.sh' "$(srcdir)/$$t"; then continue; fi; \
	  list="$$list $$t"; \
	done; \
	$(MAKE) $(AM_MAKEFLAGS) check TESTS="$$list"
.PHONY: check-quick

# Each test's time in the last run here (the "test time:" line
# tests/time-driver.sh appends to its log), slowest first: "WALL CPU TEST"
# in seconds.
test-times:
	@for t in $(TESTS); do \
	  l=$${t%.sh}.log; test -f "$$l" || continue; \
	  sed -n 's|^test time: \([0-9.]*\) s (cpu \([0-9.?]*\) s)$$|\1 \2 '"$$t"'|p' "$$l" | tail -n 1; \
	done | sort -k1,1 -n -r
.PHONY: test-times
