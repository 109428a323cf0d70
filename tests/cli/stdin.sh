#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# A recording from a pipe ("ssh host cat run.dat | mmscope report -"):
# report and dump read "-" exactly as the file itself, say "(stdin)" in
# their messages, refuse a truncated stream in one line with status 1, and
# leave no temporary copy behind, even when their reader quits early.
. "${top_srcdir:-.}/tests/lib.sh"

rec="$top_srcdir/samples/compaction-6.18.dat"
TMPDIR="$scratch/tmp"; export TMPDIR
mkdir -p "$TMPDIR"

"$MMSCOPE" report "$rec" | sed 1d >"$scratch/file.txt"
"$MMSCOPE" report - <"$rec" >"$scratch/pipe.txt" || fail "report - failed"
head -1 "$scratch/pipe.txt" | grep -q '^mmscope report: (stdin)$' || fail "report - title: $(head -1 "$scratch/pipe.txt")"
sed 1d "$scratch/pipe.txt" | cmp -s - "$scratch/file.txt" || fail "report - differs from report FILE"
"$MMSCOPE" report --format json - <"$rec" | grep -q '"file": "(stdin)"' || fail "JSON file is not (stdin)"

"$MMSCOPE" dump "$rec" >"$scratch/file.dump"
cat "$rec" | "$MMSCOPE" dump - >"$scratch/pipe.dump" || fail "dump - failed"
cmp -s "$scratch/file.dump" "$scratch/pipe.dump" || fail "dump - differs from dump FILE"
[ -s "$scratch/pipe.dump" ] || fail "dump - printed nothing"

head -c 100000 "$rec" | "$MMSCOPE" dump - >/dev/null 2>"$scratch/err"
r=$?
[ $r -eq 1 ] || fail "truncated stream: exit $r, want 1"
[ "$(wc -l <"$scratch/err")" -eq 1 ] && grep -q '^error: (stdin): ' "$scratch/err" ||
	fail "truncated stream: not one line naming (stdin): $(cat "$scratch/err")"

# a reader that quits early kills report with SIGPIPE: nothing is left
"$MMSCOPE" report --format json - <"$rec" | head -1 >/dev/null
[ -z "$(ls -A "$TMPDIR")" ] || fail "temporary files left: $(ls "$TMPDIR")"
ok "report - and dump - read a pipe as the file, errors name (stdin), nothing left"
finish
