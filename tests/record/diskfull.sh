#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Live: a full disk, on a small tmpfs. At the start (room for the 4 MiB
# reserve but not for the metadata): one error line, exit 1, and no spool
# left, so that the next run meets the same error, not a spool in its
# way. In the middle of a file, with a COMMAND: the recorder ends it, the
# file is whole (trace-cmd reads it) and says stop_reason=filesystem
# full, and the exit status is 3 (incomplete), neither 0 nor the
# command's; the events the disk could not take are counted lost; the
# report states the cause and the command's outcome (signal 15 from
# mmscope, elapsed, rusage), which the metadata keeps. A full disk at a
# switch is tests/record/switch.sh's.
. "${top_srcdir:-.}/tests/lib.sh"
. "$top_srcdir/tests/record/lib-live.sh"

live_require trace-cmd
command -v python3 >/dev/null || skip "python3 not installed"
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
	2>"$scratch/m.err" &	# not a wait: the command, until the disk is full
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
# issue 40.4: the recorder ended the command itself, and its outcome is
# kept in the metadata (written at the end, with room set aside) though
# the outcome line came after the ring stopped being read: the report
# says the cause and the command's signal, elapsed time and resources
grep -q 'mms1 outcome ' "$scratch/r" &&
	echo "note: the outcome line is in the file (the disk filled after it?)"
"$MMSCOPE" report -s header -s run "$f" >"$scratch/rep" 2>&1 || fail "full mid-file: report failed"
sed -n '/^stopped/,/^kernel/p' "$scratch/rep"
tr '\n' ' ' <"$scratch/rep" | sed 's/  */ /g' >"$scratch/rep1"
grep -q 'stopped filesystem full (.*): the recording ended early; mmscope ended the command' "$scratch/rep1" &&
	ok "full mid-file: the header says filesystem full and that mmscope ended the command" ||
	fail "full mid-file: header: $(grep -A2 '^stopped' "$scratch/rep")"
grep -q 'outcome killed by signal 15 (Terminated): mmscope ended it at the stop (filesystem full); elapsed [0-9.]* s, user [0-9.]* s, sys [0-9.]* s; max RSS [0-9]* kB' "$scratch/rep1" &&
	ok "full mid-file: the outcome: signal 15 from mmscope, elapsed, user, sys, max RSS" ||
	fail "full mid-file: outcome: $(grep -A2 '^outcome' "$scratch/rep")"
grep -q 'no outcome recorded' "$scratch/rep" && fail "full mid-file: 'no outcome recorded'"
"$MMSCOPE" report -f json -s header -s run "$f" >"$scratch/rep.json" 2>&1 || fail "full mid-file: json"
python3 - "$scratch/rep.json" <<'PY' && ok "full mid-file: JSON header.stop and run.outcome" || fail "full mid-file: JSON"
import json, sys
d = json.load(open(sys.argv[1]))
s, r = d["header"]["stop"], d["run"]
print("stop:", {k: s[k] for k in ("reason", "detail", "complete", "command", "ended_command")})
print("outcome:", r["outcome"], r["outcome_unknown"])
o = r["outcome"]
assert s["reason"] == "disk-full" and s["complete"] is True and s["command"] is True, s
assert s["ended_command"] is True, s
assert o["signal"] == 15 and o["exit"] is None and o["stopped_by_recorder"] is True, o
assert o["state"] == "killed" and o["pid"] > 0 and 0 < o["elapsed_s"] < 120, o
assert o["user_s"] is not None and o["sys_s"] is not None and o["max_rss_kb"] > 0, o
assert r["command"] == ["sleep", "300"] and r["outcome_unknown"] is None, r
PY
# the events the ring held that no file took are the file's CPU stats' lost
lost=$("$MMSCOPE" report -f json -s header "$f" 2>/dev/null |
	sed -n 's/.*"cpustat_lost": \([0-9]*\).*/\1/p' | head -1)
[ -n "$lost" ] && [ "$lost" -gt 0 ] && ok "full mid-file: $lost events counted lost" ||
	fail "full mid-file: lost '$lost'"
ls "$LIVE_MOUNT" | grep -q spool && fail "full mid-file: a spool is left"
left=$(instances_left)
[ -z "$left" ] && ok "no instance left" || fail "instances left: $left"
finish
