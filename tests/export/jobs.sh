#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# mmscope export --jobs (issue 23): recordings analysed on several threads
# give the same tables, byte for byte, as one at a time, with their rows in
# the order of the arguments; a recording that cannot be read in the middle
# is reported in its place and leaves the others' rows; one given twice is
# skipped the second time whichever thread finished first. Also what
# --jobs refuses.
. "${top_srcdir:-.}/tests/lib.sh"

d="$top_srcdir/tests/data/report"
# real recordings of several kernels, sizes and recorders (trace-cmd's
# extract with every format, mmscope's with a few), one unreadable file,
# and the first recording again at the end
printf 'not a trace.dat\n' >"$scratch/bad.dat"
set -- "$top_srcdir/samples/compaction-6.18.dat" "$top_srcdir/samples/zswap-6.12.dat" \
	"$d/stacks-memcg-6.18.dat" "$scratch/bad.dat" "$top_srcdir/samples/global-pressure-6.12.dat" \
	"$d/global-pressure-7.2.dat" "$top_srcdir/samples/mthp-frag-7.3.dat" \
	"$top_srcdir/samples/compaction-6.18.dat"

for j in 1 3 8; do
	"$MMSCOPE" export --jobs $j -o "$scratch/j$j" "$@" >"$scratch/out$j" 2>"$scratch/err$j"
	echo $? >"$scratch/rc$j"
done
[ "$(cat "$scratch/rc1")" = 1 ] || fail "--jobs 1: exit $(cat "$scratch/rc1") with a bad file among them (want 1)"
for j in 3 8; do
	cmp -s "$scratch/rc1" "$scratch/rc$j" || fail "--jobs $j: exit $(cat "$scratch/rc$j") against $(cat "$scratch/rc1")"
	diff -r "$scratch/j1" "$scratch/j$j" >/dev/null || fail "--jobs $j: tables differ from --jobs 1"
	# messages (the bad file, the repeated recording) in the same order
	sed "s|/j$j,|/j1,|" "$scratch/err$j" | cmp -s "$scratch/err1" - ||
		fail "--jobs $j: messages differ: $(diff "$scratch/err1" "$scratch/err$j" | head -4)"
done
grep -q "bad.dat" "$scratch/err1" || fail "the unreadable file is not named: $(cat "$scratch/err1")"
grep -q "already in" "$scratch/err1" || fail "the repeated recording is not reported as skipped"
# the rows in the arguments' order: recordings.csv's file column
files=$(awk -F, 'NR > 1 { n = split($2, p, "/"); print p[n] }' "$scratch/j8/recordings.csv" |
	tr '\n' ' ')
want="compaction-6.18.dat zswap-6.12.dat stacks-memcg-6.18.dat global-pressure-6.12.dat global-pressure-7.2.dat mthp-frag-7.3.dat "
[ "$files" = "$want" ] || fail "recordings in the order '$files', want '$want'"
# an export of the same recordings one by one holds the same rows
for f; do
	[ "$f" = "$scratch/bad.dat" ] && continue
	"$MMSCOPE" export --jobs 1 -o "$scratch/one" "$f" 2>/dev/null
done
diff -r "$scratch/j1" "$scratch/one" >/dev/null || fail "one export of all differs from one export each"

for bad in 0 -1 x 1025; do
	out=$("$MMSCOPE" export --jobs "$bad" -o "$scratch/no" "$1" 2>&1)
	rc=$?
	[ "$rc" = 2 ] && echo "$out" | grep -q "bad --jobs" ||
		fail "--jobs $bad: exit $rc, '$out' (want a usage error, exit 2)"
done
[ ! -e "$scratch/no" ] || fail "a refused --jobs created the output directory"
finish
