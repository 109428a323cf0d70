#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Live: a slow start says what it waited for (issue 44.14: record on a
# 7.3 guest under qemu TCG took 6-17 s before its command ran). The bound
# of 2 s is lowered to 0 (MMSCOPE_TEST_START_NOTE_MS) so that this host's
# start, well under it, prints the line: the kernel's parts (listing
# /proc/kallsyms, sizing the ring buffers; no kprobes on a kernel without
# kprobe events) and the rest, in one line; --quiet and a bound the start
# does not reach leave it out. strace counts the listings of
# /proc/kallsyms: one per run (the probe choice and the file share it;
# -g swap, and its probe choice, where the kernel has kprobe events: not
# this 6.18 host; tests/vm/check-scenario.sh counts it in the guests).
. "${top_srcdir:-.}/tests/lib.sh"
. "$top_srcdir/tests/record/lib-live.sh"

live_require strace
G=reclaim
[ ! -e "$TRACEFS/kprobe_events" ] || G=reclaim,swap

# rec NAME ARGS...: record -g $G around 'true', stderr in NAME.err
rec() {
	name=$1
	shift
	"$@" record -g "$G" --interval 500 -o "$scratch/$name.dat" -- true \
		>"$scratch/$name.err" 2>&1 || fail "$name: record exited $?: $(tail -2 "$scratch/$name.err")"
}
NUM='[0-9][0-9]*\.[0-9]'
NOTE="^mmscope: tracing began $NUM s after the start: listing /proc/kallsyms $NUM s ($NUM MB), sizing the ring buffers $NUM s (16384 KiB per CPU)\(, choosing and installing the kprobes $NUM s\)\{0,1\}; the rest $NUM s\$"

rec note env MMSCOPE_TEST_START_NOTE_MS=0 "$MMSCOPE"
n=$(grep -c '^mmscope: tracing began' "$scratch/note.err")
if [ "$n" = 1 ] && grep -q "$NOTE" "$scratch/note.err"; then
	ok "bound 0: $(grep '^mmscope: tracing began' "$scratch/note.err")"
else
	fail "bound 0: want one line like '$NOTE', got $n: $(head -3 "$scratch/note.err")"
fi

if MMSCOPE_TEST_START_NOTE_MS=0 "$MMSCOPE" record --quiet -g "$G" -o "$scratch/q.dat" -- true \
	>"$scratch/q.err" 2>&1; then
	if grep -q 'tracing began' "$scratch/q.err"; then fail "--quiet: the line is printed"
	else ok "--quiet: no line"; fi
else
	fail "--quiet: record failed: $(tail -2 "$scratch/q.err")"
fi

rec bound env MMSCOPE_TEST_START_NOTE_MS=600000 "$MMSCOPE"
if grep -q 'tracing began' "$scratch/bound.err"; then fail "a start under the bound printed the line"
else ok "a start under the bound (10 min): no line"; fi

# one listing of /proc/kallsyms in the whole run
rec strace strace -f -qq -e trace=openat -o "$scratch/openat.txt" "$MMSCOPE"
n=$(grep -c 'openat([^"]*"/proc/kallsyms"' "$scratch/openat.txt")
if [ "$n" = 1 ]; then ok "/proc/kallsyms listed once"
else fail "/proc/kallsyms opened $n times in one run (want 1)"; fi
finish
