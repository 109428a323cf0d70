#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# mmscope export never loses rows (issue 30): an export that failed halfway,
# retried after the cause is removed, holds exactly the rows of an export
# that never failed. Three ways to fail, on real recordings: a table file
# it cannot open (a directory in its place), an export killed between two
# tables (its journal left behind, as src/export-write.c writes it), and a
# full disk (a tmpfs that fills halfway; the retry appends the recordings
# that failed after those written past them, so the rows are compared as
# sets). Each failed run exits 1 naming the file;
# no journal stays after a retry. Two exports into one directory at once
# leave each recording once.
. "${top_srcdir:-.}/tests/lib.sh"

d="$top_srcdir/tests/data/report"
s="$top_srcdir/samples"
set -- "$s/compaction-6.18.dat" "$s/zswap-6.12.dat" "$d/stacks-memcg-6.18.dat" \
	"$s/global-pressure-6.12.dat" "$d/oom-6.18.dat" "$s/mthp-frag-7.3.dat"

"$MMSCOPE" export -o "$scratch/ref" "$@" 2>"$scratch/ref.err" || fail "the export that never fails failed"
"$MMSCOPE" export -f jsonl -o "$scratch/refj" "$@" 2>"$scratch/refj.err" ||
	fail "the JSON Lines export that never fails failed"

# same DIR REF: DIR holds REF's files with REF's bytes, and nothing else
same() {
	if ! diff -r "$1" "$2" >"$scratch/diff" 2>&1; then
		fail "$3: differs from an export that never failed: $(head -c 400 "$scratch/diff")"
	else
		ok "$3: the same tables as an export that never failed"
	fi
}
# same_rows DIR REF: the same files, each with the same header and the
# same rows (a recording that failed comes after those written past it)
same_rows() {
	before=$fails
	(cd "$1" && ls -A) >"$scratch/files1"
	(cd "$2" && ls -A) >"$scratch/files2"
	cmp -s "$scratch/files1" "$scratch/files2" ||
		fail "$3: other files: $(ls -A "$1" | tr '\n' ' ') against $(ls -A "$2" | tr '\n' ' ')"
	for f in "$2"/*; do
		b=$(basename "$f")
		if [ "$(head -n 1 "$1/$b")" != "$(head -n 1 "$f")" ]; then
			fail "$3: $b: another header"
		elif ! { tail -n +2 "$1/$b" | sort >"$scratch/r1"; tail -n +2 "$f" | sort >"$scratch/r2"
			 cmp -s "$scratch/r1" "$scratch/r2"; }; then
			fail "$3: $b: other rows: $(diff "$scratch/r1" "$scratch/r2" | head -c 300)"
		fi
	done
	[ "$fails" -eq "$before" ] && ok "$3: the same rows as an export that never failed"
}

# 1. a table file that cannot be opened: every recording fails at it
for fmt in csv jsonl; do
	out=$scratch/dir-$fmt
	ref=$scratch/ref; [ $fmt = jsonl ] && ref=$scratch/refj
	mkdir -p "$out/stalls.$fmt"
	"$MMSCOPE" export -f $fmt -o "$out" "$@" >/dev/null 2>"$scratch/err"
	rc=$?
	[ $rc -eq 1 ] || fail "$fmt: exit $rc with stalls.$fmt a directory (want 1)"
	grep -q "stalls.$fmt: Is a directory" "$scratch/err" ||
		fail "$fmt: the table file is not named: $(head -3 "$scratch/err")"
	rmdir "$out/stalls.$fmt"
	"$MMSCOPE" export -f $fmt -o "$out" "$@" >/dev/null 2>"$scratch/err2" ||
		fail "$fmt: the retry failed: $(head -3 "$scratch/err2")"
	grep -q "already in" "$scratch/err2" &&
		fail "$fmt: the retry skipped a recording: $(grep "already in" "$scratch/err2" | head -2)"
	same "$out" "$ref" "$fmt, a table file it could not open"
done

# 2. killed between two tables: the first three recordings, then the
# fourth's rows in two tables and the journal of the sizes before them
"$MMSCOPE" export -o "$scratch/k" "$1" "$2" "$3" 2>/dev/null || fail "export of three failed"
{
	echo "mmscope-export-pending 1"
	for f in "$scratch/k"/*.csv; do
		echo "$(wc -c <"$f") $(basename "$f")"
	done
} >"$scratch/k/.mmscope-export-pending"
"$MMSCOPE" export -o "$scratch/k4" "$4" 2>/dev/null || fail "export of the fourth failed"
tail -n +2 "$scratch/k4/stalls.csv" >>"$scratch/k/stalls.csv"
tail -n +2 "$scratch/k4/counters.csv" | head -n 100 >>"$scratch/k/counters.csv"
"$MMSCOPE" export -o "$scratch/k" "$@" >/dev/null 2>"$scratch/err" ||
	fail "killed: the retry failed: $(head -3 "$scratch/err")"
same "$scratch/k" "$scratch/ref" "an export killed between two tables"

# 3. two exports into one directory at once take turns: every recording
# once, the second run finds them there
"$MMSCOPE" export -o "$scratch/two" "$@" >/dev/null 2>"$scratch/two1.err" &
pid=$!
"$MMSCOPE" export -o "$scratch/two" "$@" >/dev/null 2>"$scratch/two2.err" ||
	fail "two at once: the second failed: $(head -3 "$scratch/two2.err")"
wait $pid || fail "two at once: the first failed: $(head -3 "$scratch/two1.err")"
same "$scratch/two" "$scratch/ref" "two exports into one directory at once"

# 4. disk full halfway (last: it needs root): a tmpfs with room for about
# half of the rows (the tables take 350 kB); the cause is removed by
# deleting what filled it
full=$scratch/full
mkdir "$full"
[ "$(id -u)" -eq 0 ] || skip "needs root to mount a small tmpfs (the disk-full case)"
mount -t tmpfs -o size=1m mmscope-export-full "$full" 2>"$scratch/mount.err" ||
	skip "cannot mount a tmpfs here: $(cat "$scratch/mount.err")"
trap 'umount "$full" 2>/dev/null; rm -rf "$scratch"' EXIT
head -c $((1024 * 1024 - 200 * 1024)) /dev/zero >"$full/filler" 2>/dev/null
"$MMSCOPE" export -o "$full/x" "$@" >/dev/null 2>"$scratch/err"
rc=$?
[ $rc -eq 1 ] || fail "disk full: exit $rc (want 1)"
grep -q "No space left on device" "$scratch/err" ||
	fail "disk full: not said: $(head -3 "$scratch/err")"
done_before=$(($(wc -l <"$full/x/recordings.csv") - 1))
[ "$done_before" -ge 1 ] && [ "$done_before" -lt $# ] ||
	fail "disk full: $done_before recordings written before it filled (want some, not all)"
rm "$full/filler"
"$MMSCOPE" export -o "$full/x" "$@" >/dev/null 2>"$scratch/err2" ||
	fail "disk full: the retry failed: $(head -3 "$scratch/err2")"
skipped=$(grep -c "already in" "$scratch/err2")
[ "$skipped" -eq "$done_before" ] ||
	fail "disk full: the retry skipped $skipped recordings, $done_before were complete"
same_rows "$full/x" "$scratch/ref" "disk full halfway"
umount "$full"
trap 'rm -rf "$scratch"' EXIT

finish
