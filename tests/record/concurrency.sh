#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Live: two recorders at once do not disturb each other or a tracing
# instance someone else made (as a running trace-cmd would have): each
# writes a file both readers open, each removes only its own instance,
# and the foreign instance keeps its events enabled. Also: a COMMAND that
# crashes or fails still leaves a complete recording, says how the command
# ended, and record exits with the command's status (128 + signal).
. "${top_srcdir:-.}/tests/lib.sh"
. "$top_srcdir/tests/record/lib-live.sh"

live_require trace-cmd

foreign="$TRACEFS/instances/mmscope-test-foreign-$$"
mkdir "$foreign" || skip "cannot create a tracing instance"
trap 'rmdir "$foreign" 2>/dev/null; live_cleanup' EXIT
echo 1 >"$foreign/events/vmscan/enable"

# each command's sleep lasts until the test stops its recorder (SIGINT:
# exit 0), once both recorders trace and both commands are past anon-touch
"$MMSCOPE" record -q -o "$scratch/a.dat" -g kswapd,compaction --interval 200 \
	-- sh -c "$ANON_TOUCH -m 64 -q; exec sleep 300" 2>"$scratch/a.err" &	# not a wait: the command
a=$!
"$MMSCOPE" record -q -o "$scratch/b.dat" -g kswapd,compaction --interval 200 \
	-- sh -c "$ANON_TOUCH -m 64 -q; exec sleep 300" 2>"$scratch/b.err" &	# not a wait: the command
b=$!
LIVE_PIDS="$a $b"
live_wait 60 "recorder a's start" recording "$scratch/a.dat"
live_wait 60 "recorder b's start" recording "$scratch/b.dat"
n=$(ls "$TRACEFS/instances" | grep -cE "^mmscope-($a|$b)\$")
[ "$n" -eq 2 ] && ok "two recorders, two instances" || fail "$n instances for two recorders"
live_wait 60 "recorder a's command past anon-touch" runs "$a" sleep
live_wait 60 "recorder b's command past anon-touch" runs "$b" sleep
kill -INT "$a" "$b"
wait $a; ra=$?
wait $b; rb=$?
LIVE_PIDS=""
for x in a b; do
	eval "r=\$r$x"
	[ "$r" -eq 0 ] || { fail "recorder $x exited $r: $(cat "$scratch/$x.err")"; continue; }
	"$MMSCOPE" dump --stat "$scratch/$x.dat" >"$scratch/$x.stat" ||
		fail "recorder $x: mmscope dump cannot read its file"
	trace-cmd report "$scratch/$x.dat" >/dev/null 2>&1 ||
		fail "recorder $x: trace-cmd cannot read its file"
	grep -q 'ftrace:print' "$scratch/$x.stat" && ok "recorder $x: file readable, with samples" ||
		fail "recorder $x: no samples in its file"
done
for p in $a $b; do
	[ -d "$TRACEFS/instances/mmscope-$p" ] && fail "instance mmscope-$p left behind"
done
[ -d "$foreign" ] && ok "the foreign instance is still there" || fail "the foreign instance was removed"
[ "$(cat "$foreign/events/vmscan/enable")" = 1 ] && ok "its events are still enabled" ||
	fail "the foreign instance's events were changed"

# a crashing command: the recording is finished, the exit says why
"$MMSCOPE" record -o "$scratch/crash.dat" -g kswapd --interval 200 \
	-- sh -c 'sleep 0.5; kill -SEGV $$' >/dev/null 2>"$scratch/crash.err"	# not a wait: the command
rc=$?
cat "$scratch/crash.err"
[ -f "$scratch/crash.dat" ] && "$MMSCOPE" dump --stat "$scratch/crash.dat" >/dev/null &&
	trace-cmd report "$scratch/crash.dat" >/dev/null 2>&1 &&
	ok "crashed command: the recording is complete (record exited $rc)" ||
	fail "crashed command: no readable recording (record exited $rc)"
grep -qiE 'signal|SEGV|killed|exited' "$scratch/crash.err" &&
	ok "crashed command: the summary says how it ended" ||
	fail "crashed command: the summary does not say how the command ended"
# like time(1): the command's status, 128 + the signal that killed it
[ "$rc" -eq $((128 + 11)) ] && ok "crashed command: record exits 139 (128 + SIGSEGV)" ||
	fail "crashed command: record exited $rc, expected 139 (128 + SIGSEGV)"
# a command that fails: its exit status, the recording still complete
"$MMSCOPE" record -q -o "$scratch/fail.dat" -g kswapd --interval 200 \
	-- sh -c 'sleep 0.3; exit 3' >/dev/null 2>"$scratch/fail.err"	# not a wait: the command
rc=$?
[ "$rc" -eq 3 ] && ok "failing command: record exits with its status 3" ||
	fail "failing command: record exited $rc, expected 3: $(cat "$scratch/fail.err")"
"$MMSCOPE" dump --stat "$scratch/fail.dat" >/dev/null &&
	ok "failing command: the recording is complete" ||
	fail "failing command: no readable recording"
finish
