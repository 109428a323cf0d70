#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The truth test (issue 17): on every real recording in samples/ and
# tests/data/, what "mmscope report --format json" says of episodes and
# their handoffs, stalls, compaction runs, per-order swap-outs, zswap and
# OOM kills equals what tests/oracle/truth.py recomputes from
# "trace-cmd report" by the rules of mmscope-report(1).
. "${top_srcdir:-.}/tests/lib.sh"

command -v trace-cmd >/dev/null || skip "trace-cmd is not installed"
command -v python3 >/dev/null || skip "python3 is not installed"
files=$(ls "$top_srcdir"/samples/*.dat "$top_srcdir"/tests/data/*/*.dat)
[ -n "$files" ] || fail "no recordings found"
# shellcheck disable=SC2086
python3 "$top_srcdir/tests/oracle/truth.py" "$MMSCOPE" $files || fail "figures differ from trace-cmd"
finish
