#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Live: a full disk, on a small tmpfs. At the start (room for the 4 MiB
# reserve but not for the metadata): one error line, exit 1, and no spool
# left, so that the next run meets the same error, not a spool in its
# way. In the middle of a file, with a COMMAND: the recorder ends it, the
# file is whole (trace-cmd reads it) and says stop_reason=filesystem
# full, and the exit status is 3 (incomplete), neither 0 nor the
# command's; the events the disk could not take are counted lost. A full
# disk at a switch is tests/record/switch.sh's.
. "${top_srcdir:-.}/tests/lib.sh"
. "$top_srcdir/tests/record/lib-live.sh"

live_require trace-cmd
EV="-g none -e kmem:mm_page_alloc -e kmem:mm_page_free"
LIVE_MOUNT="$scratch/small"
mkdir "$LIVE_MOUNT"

# ---- at the start ----
mount -t tmpfs -o size=6M tmpfs "$LIVE_MOUNT" || fail "cannot mount a 6 MiB tmpfs"
for run in 1 2; do
	# shellcheck disable=SC2086
	"$MMSCOPE" record -q $EV --duration 2 -o "$LIVE_MOUNT/a.dat" 2>"$scratch/e$run"
	rc=$?
	cat "$scratch/e$run"
	[ $rc -eq 1 ] && [ "$(wc -l <"$scratch/e$run")" = 1 ] &&
		grep -q 'No space left on device' "$scratch/e$run" &&
		ok "full at start, run $run: exit 1, one line" ||
		fail "full at start, run $run: exit $rc, $(wc -l <"$scratch/e$run") lines"
	left=$(ls -A "$LIVE_MOUNT")
	[ -z "$left" ] && ok "full at start, run $run: nothing left behind" ||
		fail "full at start, run $run: left $left"
done
grep -q 'exists' "$scratch/e2" && fail "the second run met the first one's spool"
umount "$LIVE_MOUNT"

# ---- in the middle of a file, with a COMMAND ----
mount -t tmpfs -o size=24M tmpfs "$LIVE_MOUNT" || fail "cannot mount a 24 MiB tmpfs"
# loaded until the recorder stops (the disk filled), up to 90 s: how fast
# the load fills it varies tenfold (lib-live.sh, copy_load_until)
# shellcheck disable=SC2086
"$MMSCOPE" record $EV --interval 200 --duration 120 -o "$LIVE_MOUNT/m.dat" -- sleep 300 \
	2>"$scratch/m.err" &
rec=$!
LIVE_PIDS="$LIVE_PIDS $rec"
copy_load_until 90 grep -q '^mmscope: stopped' "$scratch/m.err"
kill -INT "$rec" 2>/dev/null
wait "$rec"
rc=$?
cat "$scratch/m.err"
[ $rc -eq 3 ] && grep -q '^mmscope: the recording is incomplete: the filesystem filled' \
	"$scratch/m.err" && ok "full mid-file: exit 3, and the line that says why" ||
	fail "full mid-file: exit $rc"
grep -q '^mmscope: stopped: filesystem full' "$scratch/m.err" || fail "full mid-file: no stop line"
f="$LIVE_MOUNT/m.dat"
trace-cmd report "$f" >"$scratch/r" 2>/dev/null && ok "full mid-file: trace-cmd reads the file" ||
	fail "full mid-file: the file is not whole"
grep -q 'mms1 end ' "$scratch/r" || fail "full mid-file: no sample set"
strings "$f" | grep -q '^stop_reason=filesystem full$' &&
	ok "full mid-file: stop_reason=filesystem full in the file" ||
	fail "full mid-file: stop_reason $(strings "$f" | grep '^stop_reason=')"
strings "$f" | grep '^stop_'
strings "$f" | grep -q '^stop_detail=.' ||
	fail "full mid-file: no stop_detail"
# the events the ring held that no file took are the file's CPU stats' lost
lost=$("$MMSCOPE" report -f json -s header "$f" 2>/dev/null |
	sed -n 's/.*"cpustat_lost": \([0-9]*\).*/\1/p' | head -1)
[ -n "$lost" ] && [ "$lost" -gt 0 ] && ok "full mid-file: $lost events counted lost" ||
	fail "full mid-file: lost '$lost'"
ls "$LIVE_MOUNT" | grep -q spool && fail "full mid-file: a spool is left"
left=$(instances_left)
[ -z "$left" ] && ok "no instance left" || fail "instances left: $left"
finish
