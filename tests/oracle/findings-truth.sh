#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The findings' truth test (issue 33): on every real recording of samples/,
# tests/data/report/, tests/data/swap/ and tests/data/page16k/ (16 KB
# pages), the counts of the stall, handoff, OOM, scan rounding and free
# scatter findings (direct-reclaim-stalls,
# memcg-reclaim-stalls, handoff-missing, kcompactd-asleep-stalls, oom-kill,
# memcg-scan-rounding, swap-free-scattered, zswap-reject) equal what
# tests/oracle/findings.py recomputes from "trace-cmd report" by
# mmscope-report(1)'s FINDINGS rules, and a finding is there exactly when trace-cmd's events give one.
. "${top_srcdir:-.}/tests/lib.sh"

command -v trace-cmd >/dev/null || skip "trace-cmd is not installed"
command -v python3 >/dev/null || skip "python3 is not installed"
files=$(ls "$top_srcdir"/samples/*.dat "$top_srcdir"/tests/data/report/*.dat \
	"$top_srcdir"/tests/data/swap/*.dat "$top_srcdir"/tests/data/compare/memcg-*.dat \
	"$top_srcdir"/tests/data/page16k/*.dat)
[ -n "$files" ] || fail "no recordings found"
# shellcheck disable=SC2086
python3 "$top_srcdir/tests/oracle/findings.py" truth "$MMSCOPE" $files ||
	fail "finding counts differ from trace-cmd"
finish
