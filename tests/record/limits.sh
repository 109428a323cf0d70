#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Live: the recorder stops cleanly at --max-size and on a full filesystem
# (a 24 MiB tmpfs made and removed here), and still finishes a file that
# trace-cmd reads, with nothing left behind; a full filesystem exits 3.
. "${top_srcdir:-.}/tests/lib.sh"
. "$top_srcdir/tests/record/lib-live.sh"

live_require trace-cmd

# page allocator churn: plenty of events from the workload below
EV="-e kmem:mm_page_alloc -e kmem:mm_page_free"
CHURN_LOOP="while :; do $ANON_TOUCH -m 64 -q; done"

out="$scratch/max.dat"
# shellcheck disable=SC2086
"$MMSCOPE" record -o "$out" --max-size 1M $EV --duration 60 -- sh -c "$CHURN_LOOP" 2>"$scratch/err"
rc=$?
cat "$scratch/err"
[ $rc -eq 0 ] || fail "--max-size: record exited $rc"
grep -q 'stopped: max-size reached' "$scratch/err" || fail "--max-size: no 'max-size reached' stop"
bytes=$(awk '$1 == "mmscope:" && $2 == "all" { print $5 }' "$scratch/err")
[ -n "$bytes" ] && [ "$bytes" -le 1048576 ] && ok "--max-size 1M: $bytes bytes of pages" ||
	fail "--max-size 1M: $bytes bytes of pages"
trace-cmd report "$out" >/dev/null 2>&1 && ok "--max-size: trace-cmd reads the file" ||
	fail "--max-size: trace-cmd cannot read the file"
[ -e "$out.spool" ] && fail "--max-size: spool left"

LIVE_MOUNT="$scratch/small"
mkdir "$LIVE_MOUNT"
mount -t tmpfs -o size=24M,mode=0700 tmpfs "$LIVE_MOUNT" || skip "cannot mount a tmpfs"
out="$LIVE_MOUNT/full.dat"
# shellcheck disable=SC2086
"$MMSCOPE" record -o "$out" $EV --duration 120 -- sh -c "$CHURN_LOOP" 2>"$scratch/err" &
recorder=$!
wait $recorder
rc=$?
cat "$scratch/err"
# 3: the file is whole, the run incomplete (mmscope-record(1))
[ $rc -eq 3 ] || fail "full filesystem: record exited $rc (want 3)"
grep -q 'stopped: filesystem full' "$scratch/err" && ok "full filesystem: clean stop" ||
	fail "full filesystem: no 'filesystem full' stop"
trace-cmd report "$out" >"$scratch/r" 2>/dev/null && grep -q 'mm_page_alloc' "$scratch/r" &&
	ok "full filesystem: trace-cmd reads the finished file" ||
	fail "full filesystem: trace-cmd cannot read $out"
[ -e "$out.spool" ] && fail "full filesystem: spool left"
# every event the kernel handed over or still held at the stop is in the
# file or counted lost: a page read when the disk was already full, and
# what the ring held when the run stopped, are the file's dropped events
# (the ring itself drops events only when full: then the sum is larger)
"$MMSCOPE" dump --stat "$out" >"$scratch/stat" 2>&1 ||
	fail "full filesystem: dump --stat: $(cat "$scratch/stat")"
kept=$(awk '$1 == "cpu" && $2 == "events" { t = 1; next }
	t && $1 ~ /^[0-9]+$/ { s += $2 } END { print s + 0 }' "$scratch/stat")
trace-cmd report --stat "$out" 2>/dev/null | awk '
	/^read events:/ { r += $3 } /^entries:/ { e += $2 }
	/^dropped events:/ { d += $3 } /^overrun:/ { o += $2 }
	END { print r + 0, e + 0, d + 0, o + 0 }' >"$scratch/ks"
read -r kread kleft kdropped koverrun <"$scratch/ks"
if [ "$kept" -gt 0 ] && [ "$kept" -le "$kread" ] &&
	[ $((kept + kdropped + koverrun)) -ge $((kread + kleft)) ]; then
	ok "full filesystem: $kept events kept + $kdropped counted lost cover the $kread read + $kleft left in the ring"
else
	fail "full filesystem: $kept events in the file, $kdropped dropped + $koverrun overrun in its stats, but the kernel read $kread and left $kleft"
fi
"$MMSCOPE" report "$out" 2>/dev/null | grep '^lost ' >"$scratch/lostline"
grep -q " $((kdropped + koverrun)) overrun/dropped in stats" "$scratch/lostline" &&
	ok "full filesystem: the report counts them: $(cat "$scratch/lostline")" ||
	fail "full filesystem: report says '$(cat "$scratch/lostline")', stats $((kdropped + koverrun))"
# this recorder's own instance (another test's, running beside this one
# under make -j, is not this one's to judge)
[ -d "$TRACEFS/instances/mmscope-$recorder" ] &&
	fail "the recorder's instance mmscope-$recorder left after a full filesystem" ||
	ok "no instance left (mmscope-$recorder)"
finish
