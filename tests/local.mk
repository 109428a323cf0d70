# SPDX-License-Identifier: GPL-2.0-or-later
# tests/: unit (C, TAP), cli (shell, golden output), oracle (trace-cmd),
# malformed input. "make check" runs them all.

TEST_EXTENSIONS = .sh
SH_LOG_COMPILER = $(SHELL)
AM_TESTS_ENVIRONMENT = \
	top_srcdir='$(abs_top_srcdir)'; export top_srcdir; \
	top_builddir='$(abs_top_builddir)'; export top_builddir; \
	MMSCOPE='$(abs_top_builddir)/mmscope'; export MMSCOPE; \
	LSAN_OPTIONS="suppressions=$(abs_top_srcdir)/tests/lsan.supp$${LSAN_OPTIONS:+:$$LSAN_OPTIONS}"; \
	export LSAN_OPTIONS;
LOG_DRIVER = env AM_TAP_AWK='$(AWK)' $(SHELL) $(top_srcdir)/build-aux/tap-driver.sh

EXTRA_DIST += tests/lib.sh tests/lsan.supp tests/install-deps.sh
TESTS += tests/oracle/trace-cmd.sh
EXTRA_DIST += tests/oracle/trace-cmd.sh

# C unit tests speak TAP (tests/unit/tap.h).
check_PROGRAMS += tests/unit/test-tracedat
tests_unit_test_tracedat_SOURCES = tests/unit/test-tracedat.c tests/unit/tap.h \
	tests/unit/synth.c tests/unit/synth.h
tests_unit_test_tracedat_LDADD = $(LIBMMSCOPE_LIBS)
TESTS += tests/unit/test-tracedat

# Reader robustness (issue 10): malformed-input matrices, the fuzzer's
# regression inputs, and `make fuzz` (clang + libFuzzer, see tests/fuzz/README.md).
TESTS += tests/fuzz/regress.sh
EXTRA_DIST += tests/malformed/lib.sh tests/fuzz/regress.sh tests/fuzz/README.md \
	tests/fuzz/fuzz-reader.c tests/fuzz/make-seeds.c tests/fuzz/lsan.supp tests/fuzz/corpus \
	tests/fuzz/regress

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

# New inputs go to fuzz-corpus/ in the build tree; crashes to fuzz-artifacts/.
# libFuzzer exits non-zero on any crash, leak, timeout or sanitizer report.
fuzz: fuzz-reader
	@mkdir -p fuzz-corpus fuzz-artifacts
	LSAN_OPTIONS=suppressions=$(abs_srcdir)/tests/fuzz/lsan.supp:print_suppressions=0 \
	./fuzz-reader $(FUZZ_FLAGS) -max_total_time=$(FUZZ_SECONDS) \
		-artifact_prefix=fuzz-artifacts/ fuzz-corpus $(srcdir)/tests/fuzz/corpus
.PHONY: fuzz

# Maps a good trace.dat for truncate.sh: where to cut, what to flip.
check_PROGRAMS += tests/malformed/td-layout
tests_malformed_td_layout_SOURCES = tests/malformed/td-layout.c
TESTS += tests/malformed/truncate.sh tests/malformed/matrix.sh
EXTRA_DIST += tests/malformed/truncate.sh tests/malformed/matrix.sh
# (end of reader robustness)

# compare (issue 7)
check_PROGRAMS += tests/unit/test-stats
tests_unit_test_stats_LDADD = $(LIBMMSCOPE_LIBS)
TESTS += tests/unit/test-stats

TESTS += tests/cli/docs.sh tests/cli/usage.sh
EXTRA_DIST += tests/cli/docs.sh tests/cli/usage.sh
TESTS += tests/cli/sections.sh
EXTRA_DIST += tests/cli/sections.sh

# collector (issue 3): live recorder tests (root; they skip elsewhere)
check_PROGRAMS += samples/workloads/anon-touch
TESTS += tests/record/live-swap.sh
EXTRA_DIST += tests/record/lib-live.sh tests/record/live-swap.sh
TESTS += tests/record/signals.sh
EXTRA_DIST += tests/record/signals.sh
TESTS += tests/record/limits.sh
EXTRA_DIST += tests/record/limits.sh
check_PROGRAMS += tests/unit/test-probes
tests_unit_test_probes_LDADD = $(LIBMMSCOPE_LIBS)
TESTS += tests/unit/test-probes
check_PROGRAMS += tests/unit/test-sampler
tests_unit_test_sampler_LDADD = $(LIBMMSCOPE_LIBS)
TESTS += tests/unit/test-sampler
TESTS += tests/record/options.sh
EXTRA_DIST += tests/record/options.sh
EXTRA_DIST += tests/bench/record-bench.sh
TESTS += tests/record/sample.sh
EXTRA_DIST += tests/record/sample.sh
TESTS += tests/record/flight.sh
EXTRA_DIST += tests/record/flight.sh
check_PROGRAMS += tests/compare/mkrec
tests_compare_mkrec_SOURCES = tests/compare/mkrec.c tests/unit/synth.c tests/unit/synth.h
tests_compare_mkrec_LDADD = $(LIBMMSCOPE_LIBS)
TESTS += tests/compare/golden.sh
EXTRA_DIST += tests/compare/golden.sh tests/compare/data tests/golden

# analysis and report (issue 5): model and parser unit tests (TAP),
# golden reports on the fixtures (MMSCOPE_UPDATE_GOLDEN=1 regenerates)
check_PROGRAMS += tests/unit/test-model-handoff
tests_unit_test_model_handoff_LDADD = $(LIBMMSCOPE_LIBS)
TESTS += tests/unit/test-model-handoff
check_PROGRAMS += tests/unit/test-model-consistency
tests_unit_test_model_consistency_LDADD = $(LIBMMSCOPE_LIBS)
TESTS += tests/unit/test-model-consistency
TESTS += tests/report/golden.sh
EXTRA_DIST += tests/report/golden.sh tests/data/report
check_PROGRAMS += tests/unit/test-report
tests_unit_test_report_LDADD = $(LIBMMSCOPE_LIBS)
TESTS += tests/unit/test-report
check_PROGRAMS += tests/unit/test-metrics
tests_unit_test_metrics_LDADD = $(LIBMMSCOPE_LIBS)
TESTS += tests/unit/test-metrics

# tui (issue 8): view builders without curses, golden screens from the
# headless mode, errors, and the real binary in tmux.
check_PROGRAMS += tests/unit/test-tui-views
tests_unit_test_tui_views_SOURCES = tests/unit/test-tui-views.c tests/unit/tap.h $(TUI_CORE)
tests_unit_test_tui_views_LDADD = $(LIBMMSCOPE_LIBS)
TESTS += tests/unit/test-tui-views
TESTS += tests/tui/golden.sh tests/tui/errors.sh tests/tui/tmux.sh
EXTRA_DIST += tests/tui/golden.sh tests/tui/errors.sh tests/tui/tmux.sh
check_PROGRAMS += tests/unit/test-parsers
tests_unit_test_parsers_LDADD = $(LIBMMSCOPE_LIBS)
TESTS += tests/unit/test-parsers
check_PROGRAMS += tests/unit/test-families
tests_unit_test_families_LDADD = $(LIBMMSCOPE_LIBS)
TESTS += tests/unit/test-families
check_PROGRAMS += tests/unit/test-khugepaged samples/workloads/thp-collapse
tests_unit_test_khugepaged_LDADD = $(LIBMMSCOPE_LIBS)
TESTS += tests/unit/test-khugepaged
check_PROGRAMS += tests/unit/test-samples
tests_unit_test_samples_LDADD = $(LIBMMSCOPE_LIBS)
TESTS += tests/unit/test-samples

# kernel matrix (issue 4): every scenario of tests/vm/scenarios on every
# kernel under qemu TCG, one VM after the other; one "PASS:/FAIL:/SKIP:
# KERNEL SCENARIO" line per case. Not part of `make check` (needs qemu,
# root and ~1 GB of cached kernels). Override VM_KERNELS / VM_SCENARIOS.
VM_KERNELS = 6.1 6.12 7.x
VM_SCENARIOS = memcg-swap global-pressure mthp-frag zswap
.PHONY: check-vm
check-vm: mmscope$(EXEEXT)
	MMSCOPE=$(abs_top_builddir)/mmscope$(EXEEXT) \
	  $(abs_top_srcdir)/tests/vm/check-matrix.sh "$(VM_KERNELS)" "$(VM_SCENARIOS)"
EXTRA_DIST += tests/vm/README.md tests/vm/check-matrix.sh tests/vm/check-scenario.sh \
	tests/vm/rec-counts.awk tests/vm/scenario-lib.sh tests/vm/run-vm.sh \
	tests/vm/fetch-kernel.sh tests/vm/mkinitramfs.sh tests/vm/scenarios \
	tests/vm/workloads
check_PROGRAMS += tests/unit/test-model-reclaim
tests_unit_test_model_reclaim_LDADD = $(LIBMMSCOPE_LIBS)
TESTS += tests/unit/test-model-reclaim

check_PROGRAMS += tests/unit/test-formats
tests_unit_test_formats_SOURCES = tests/unit/test-formats.c tests/unit/tap.h \
	tests/unit/synth.c tests/unit/synth.h
tests_unit_test_formats_LDADD = $(LIBMMSCOPE_LIBS)
TESTS += tests/unit/test-formats

# performance (issue 9): `make bench` prints mmscope against trace-cmd on
# large recordings (tests/bench/README.md); td-walk is the reader's floor.
# Not part of `make check`: it takes minutes and needs trace-cmd.
# tui-bench drives the TUI core (no ncurses) for the index and redraw targets.
EXTRA_PROGRAMS = tests/bench/td-walk tests/bench/tui-bench
tests_bench_td_walk_SOURCES = tests/bench/td-walk.c
tests_bench_td_walk_LDADD = $(LIBMMSCOPE_LIBS)
tests_bench_tui_bench_SOURCES = tests/bench/tui-bench.c $(TUI_CORE)
tests_bench_tui_bench_LDADD = $(LIBMMSCOPE_LIBS)
.PHONY: bench
bench: mmscope$(EXEEXT) tests/bench/td-walk$(EXEEXT) tests/bench/tui-bench$(EXEEXT) \
		samples/workloads/anon-touch$(EXEEXT)
	$(abs_top_srcdir)/tests/bench/bench.sh $(abs_top_builddir)
EXTRA_DIST += tests/bench/bench.sh tests/bench/README.md tests/bench/vm-record-bench.sh

# swap clusters and zswap (issue 6): models on hand-built records, the
# counter view on this host (root, tracefs, a loop device)
check_PROGRAMS += tests/unit/test-model-swapclust tests/unit/test-model-zswap
tests_unit_test_model_swapclust_LDADD = $(LIBMMSCOPE_LIBS)
tests_unit_test_model_zswap_LDADD = $(LIBMMSCOPE_LIBS)
TESTS += tests/unit/test-model-swapclust tests/unit/test-model-zswap
EXTRA_DIST += tests/unit/sample-rec.h
TESTS += tests/report/swap.sh
EXTRA_DIST += tests/report/swap.sh
TESTS += tests/report/swap-host.sh
EXTRA_DIST += tests/report/swap-host.sh

check_PROGRAMS += tests/unit/test-util
tests_unit_test_util_SOURCES = tests/unit/test-util.c tests/unit/tap.h
tests_unit_test_util_LDADD = $(LIBMMSCOPE_LIBS)
TESTS += tests/unit/test-util

# the JSON writer (issue 16)
check_PROGRAMS += tests/unit/test-json
tests_unit_test_json_SOURCES = tests/unit/test-json.c tests/unit/tap.h
tests_unit_test_json_LDADD = $(LIBMMSCOPE_LIBS)
TESTS += tests/unit/test-json
EXTRA_DIST += tests/data/swap

# The live recorder tests share the kernel's tracing state (instances,
# swap, cgroups) and check it after each run; one test's deliberately
# killed recorder would look like another's leftover. Run them one after
# another, even under make -j.
tests/record/signals.log: tests/record/live-swap.log
tests/record/limits.log: tests/record/signals.log
tests/record/options.log: tests/record/limits.log
tests/record/sample.log: tests/record/options.log
tests/record/flight.log: tests/record/sample.log
tests/report/swap-host.log: tests/record/flight.log

TESTS += tests/record/concurrency.sh
EXTRA_DIST += tests/record/concurrency.sh
tests/record/concurrency.log: tests/report/swap-host.log

TESTS += tests/oracle/kbuffer.sh
EXTRA_DIST += tests/oracle/kbuffer.sh
TESTS += tests/oracle/truth.sh
EXTRA_DIST += tests/oracle/truth.sh tests/oracle/truth.py

# tui --live (issue 8): the live merge against the reader's cursor
check_PROGRAMS += tests/unit/test-live-merge
tests_unit_test_live_merge_LDADD = $(LIBMMSCOPE_LIBS)
TESTS += tests/unit/test-live-merge

# seekable cursor: seeks in real recordings equal the suffix of a full pass
check_PROGRAMS += tests/unit/test-seek
tests_unit_test_seek_SOURCES = tests/unit/test-seek.c tests/unit/tap.h \
	tests/unit/synth.c tests/unit/synth.h
tests_unit_test_seek_LDADD = $(LIBMMSCOPE_LIBS)
TESTS += tests/unit/test-seek

# tui --live on this kernel (root): after the live recorder tests
TESTS += tests/tui/live.sh
EXTRA_DIST += tests/tui/live.sh
tests/tui/live.log: tests/record/concurrency.log
