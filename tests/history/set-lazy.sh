#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# A run of many parts (more than 64: a week of one-minute parts is
# 10,080) is read without keeping every part open (tracedat-set.h): each
# part is opened when it is reached and closed once read, and one the
# input layer has read the metadata of is not opened again to learn it.
# On 70 parts of a real recording (tests/history/mkhist --parts), that
# way and the way of few parts (every one open and checked at once:
# MMSCOPE_SET_LAZY=0) give the same report (text, JSON, windows), the
# same dump and dump --stat, and the same export; and a window's report
# opens far fewer files than there are parts.
. "${top_srcdir:-.}/tests/lib.sh"
. "$top_srcdir/tests/history/lib.sh"

command -v strace >/dev/null || skip "strace not installed"
d=$scratch/parts
mkdir "$d"
# the source with the clocks' last read together after its last event,
# as a part a switch ended says where it ends (wall_segments)
ta=3715271063400 ra=1796108844952968188 span=330000000
"$mkhist" "$HIST_SRC" "$scratch/src.dat" 0 0 \
	wall_segments=$ta:$ra:$((ta + span)):$((ra + span)) || fail "mkhist src"
MKHIST_NOCHECK= "$mkhist" --parts 70 --every 1 "$scratch/src.dat" "$d/p" machine_id=$HIST_MACHINE \
	boot_id=$HIST_BOOT run_id=eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee || fail "mkhist --parts 70"
[ "$(ls "$d" | wc -l)" = 70 ] || fail "70 parts: $(ls "$d" | wc -l)"

# same WHAT ARGS...: the output of mmscope ARGS both ways (timings out)
same() {
	what=$1
	shift
	for lazy in 0 1; do
		MMSCOPE_SET_LAZY=$lazy "$MMSCOPE" "$@" 2>"$scratch/e$lazy" |
			grep -v '"seconds"\|"stream_seconds"' >"$scratch/o$lazy" || true
	done
	if [ -s "$scratch/o0" ] && cmp -s "$scratch/o0" "$scratch/o1" && cmp -s "$scratch/e0" "$scratch/e1"; then
		ok "$what: the same both ways ($(wc -l <"$scratch/o0") lines)"
	else
		fail "$what: differs: $(diff "$scratch/o0" "$scratch/o1" | head -5) $(cat "$scratch/e0" "$scratch/e1")"
	fi
}
same "report" report "$d"
same "report -f json" report -f json "$d"
same "report -f json of a window" report -f json --since 20.1 --until 33.2 "$d"
same "report of a window from 60 s" report --since 60 "$d"
same "dump" dump "$d"
same "dump --stat" dump --stat "$d"
same "dump of a window" dump --since 40.5 --until 41 "$d"
for lazy in 0 1; do
	MMSCOPE_SET_LAZY=$lazy "$MMSCOPE" export -o "$scratch/x$lazy" "$d" 2>/dev/null || fail "export ($lazy)"
	cut -d, -f2- "$scratch/x$lazy/oom_kills.csv" >"$scratch/k$lazy"
done
cmp -s "$scratch/k0" "$scratch/k1" && [ "$(($(wc -l <"$scratch/k1") - 1))" = 70 ] &&
	ok "export: the same 70 OOM kill rows both ways" || fail "export: the kills differ"

# a window opens the parts it reads, not every one (each part is opened
# once by the input layer to learn its metadata, then once more if read;
# LeakSanitizer cannot run under ptrace: a sanitized build's leak check
# is off for these two runs, done by every other run of the test)
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
export ASAN_OPTIONS
strace -f -e trace=openat -o "$scratch/trace" "$MMSCOPE" report -s header --since 30 --until 31 \
	"$d" >/dev/null 2>&1 || fail "report of a window under strace"
opens=$(grep -c '/parts/p-[0-9]*\.dat"' "$scratch/trace")
[ "$opens" -le 80 ] && ok "a one-second window: $opens opens of the 70 parts' files" ||
	fail "a one-second window opened the parts' files $opens times"
strace -f -e trace=openat -o "$scratch/trace0" env MMSCOPE_SET_LAZY=0 "$MMSCOPE" report -s header \
	--since 30 --until 31 "$d" >/dev/null 2>&1 || fail "report of a window under strace, every part open"
eager=$(grep -c '/parts/p-[0-9]*\.dat"' "$scratch/trace0")
[ "$eager" -gt 140 ] && ok "(every part open at once: $eager opens)" ||
	fail "every part open at once: only $eager opens: the count above tells nothing"
finish
