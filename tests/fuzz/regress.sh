#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Replays every input the fuzzer ever crashed on (tests/fuzz/regress/):
# `mmscope dump` and `dump --stat` must exit 1 with one error line, or 0
# for the files named valid-*.dat (inputs that are damaged only where
# nothing reads). Runs under the sanitizer build in CI.
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
		;;
	*)
		expect_error "${f##*/}" "$f" "" dump "$f"
		expect_error "${f##*/} --stat" "$f" "" dump --stat "$f"
		;;
	esac
done
[ "$n" -gt 0 ] || { echo "no regression inputs in $dir"; exit 99; }
finish
