# SPDX-License-Identifier: GPL-2.0-or-later
# tests/: unit (C, TAP), cli (shell, golden output), oracle (trace-cmd),
# malformed input. "make check" runs them all.

TEST_EXTENSIONS = .sh
SH_LOG_COMPILER = $(SHELL)
AM_TESTS_ENVIRONMENT = \
	top_srcdir='$(abs_top_srcdir)'; export top_srcdir; \
	top_builddir='$(abs_top_builddir)'; export top_builddir; \
	MMSCOPE='$(abs_top_builddir)/mmscope'; export MMSCOPE;
LOG_DRIVER = env AM_TAP_AWK='$(AWK)' $(SHELL) $(top_srcdir)/build-aux/tap-driver.sh

# compare (issue 7)
check_PROGRAMS += tests/unit/test-stats
tests_unit_test_stats_LDADD = $(LIBMMSCOPE_LIBS)
TESTS += tests/unit/test-stats
