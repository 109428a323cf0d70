#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The analysis parses only the event formats its parsers read and the
# kallsyms only when a stack arrives (issue 23: a trace-cmd file holds
# every format of its kernel, 2323 on 6.18, and parsing them was most of
# a small report). Every real recording in the tree must report the same,
# text and JSON, as with every format parsed (MMSCOPE_ALL_FORMATS=1): in
# particular "not recorded" answers, which look formats up by name, and
# stack frames named from the kallsyms. compare and export read through
# the same analysis.
. "${top_srcdir:-.}/tests/lib.sh"

n=0 skipped=0
for f in "$top_srcdir"/samples/*.dat "$top_srcdir"/tests/data/report/*.dat \
	"$top_srcdir"/tests/data/swap/*.dat "$top_srcdir"/tests/data/compare/*.dat; do
	[ -f "$f" ] || continue
	name=$(basename "$f")
	for fmt in text json; do
		if ! "$MMSCOPE" report --format $fmt "$f" >"$scratch/some" 2>"$scratch/some.err"; then
			# a recording the report refuses must be refused both ways
			MMSCOPE_ALL_FORMATS=1 "$MMSCOPE" report --format $fmt "$f" >/dev/null 2>&1 &&
				fail "$name: refused with some formats, read with all"
			continue
		fi
		MMSCOPE_ALL_FORMATS=1 "$MMSCOPE" report --format $fmt "$f" >"$scratch/all" 2>"$scratch/all.err" ||
			{ fail "$name: report with every format failed"; continue; }
		diff -u "$scratch/all" "$scratch/some" >"$scratch/diff" ||
			{ head -20 "$scratch/diff" >&2; fail "$name: $fmt report differs with every format parsed"; }
		cmp -s "$scratch/all.err" "$scratch/some.err" || fail "$name: $fmt messages differ"
	done
	n=$((n + 1))
done
[ "$n" -ge 20 ] || fail "only $n recordings found"
# the stacks recording's frames are named (the kallsyms were read late)
"$MMSCOPE" report "$top_srcdir/tests/data/report/stacks-memcg-6.18.dat" |
	grep -q "try_charge_memcg+0x" || fail "stack frames are not named"
ok "$n recordings report the same with only the parsers' formats"
finish
