#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Replays every input the fuzzer ever crashed on (tests/fuzz/regress/):
# `mmscope dump`, `dump --stat`, `report` and `report --format json` (the
# fuzzer runs the analysis and both renderers too) must exit 1 with one
# error line, or 0 with nothing on stderr for the files named valid-*.dat
# (inputs the reader accepts, damaged only where nothing reads or in
# what the parsers, models or report make of the events). Runs under the
# sanitizer build in CI.
. "$top_srcdir/tests/malformed/lib.sh"

dir="$top_srcdir/tests/fuzz/regress"
n=0
for f in "$dir"/*.dat; do
	[ -e "$f" ] || continue
	n=$((n + 1))
	case ${f##*/} in
	valid-*)
		expect_ok "${f##*/}" dump "$f"
		expect_ok "${f##*/} --stat" dump --stat "$f"
		expect_ok "${f##*/} report" report "$f"
		expect_ok "${f##*/} report json" report --format json "$f"
		;;
	*)
		expect_error "${f##*/}" "$f" "" dump "$f"
		expect_error "${f##*/} --stat" "$f" "" dump --stat "$f"
		expect_error "${f##*/} report" "$f" "" report "$f"
		expect_error "${f##*/} report json" "$f" "" report --format json "$f"
		;;
	esac
done
[ "$n" -gt 0 ] || { echo "no regression inputs in $dir"; exit 99; }
finish
