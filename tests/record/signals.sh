#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Live: however the recorder ends, nothing stays in tracefs and the
# recording is readable. SIGTERM and SIGINT finish the file; after SIGKILL
# the instance and the spool stay, "mmscope recover" turns the spool into
# a file trace-cmd reads (also with a torn page and a zeroed page appended,
# as a crash or power loss would leave them) whose metadata says it was
# recovered and where each CPU's data ends, and the next start removes
# the dead recorder's instance. With a COMMAND (issue 40.4): SIGTERM
# says the signal and the command mmscope ended; SIGKILL while the
# command runs says the recorder was killed while recording and the
# command's outcome is unknown (and the command was left running);
# SIGKILL while the recorder stops after SIGTERM says the signal.
. "${top_srcdir:-.}/tests/lib.sh"
. "$top_srcdir/tests/record/lib-live.sh"

live_require trace-cmd

# a steady trickle of events besides the samples
EV="-e kmem:mm_page_alloc_zone_locked -e kmem:mm_page_alloc"

for sig in TERM INT; do
	out="$scratch/$sig.dat"
	# shellcheck disable=SC2086
	"$MMSCOPE" record -q -o "$out" --interval 100 --duration 60 $EV &
	pid=$!
	LIVE_PIDS="$LIVE_PIDS $pid"
	live_wait 60 "the recorder's start (SIG$sig)" recording "$out"
	kill -"$sig" "$pid"
	wait "$pid"
	rc=$?
	[ $rc -eq 0 ] || fail "SIG$sig: record exited $rc"
	[ -d "$TRACEFS/instances/mmscope-$pid" ] && fail "SIG$sig: instance mmscope-$pid left"
	[ -e "$out.spool" ] && fail "SIG$sig: spool left"
	if trace-cmd report "$out" >"$scratch/r" 2>/dev/null && grep -q 'mms1 end' "$scratch/r"; then
		ok "SIG$sig: file finished, samples in it, nothing left"
	else
		fail "SIG$sig: trace-cmd report cannot read $out or it has no samples"
	fi
done

out="$scratch/kill.dat"
# shellcheck disable=SC2086
"$MMSCOPE" record -q -o "$out" --interval 100 --duration 60 $EV &
pid=$!
LIVE_PIDS="$LIVE_PIDS $pid"
# pages and sample sets in the spool, its metadata written again (the
# check of wall_read_until_s below)
live_wait 60 "the spool's pages and its metadata rewritten (SIGKILL)" spool_synced "$out"
kill -KILL "$pid"
wait "$pid" 2>/dev/null
[ -d "$TRACEFS/instances/mmscope-$pid" ] && ok "SIGKILL leaves the instance (as expected)"
[ -f "$out.spool/layout" ] || { fail "SIGKILL: no spool at $out.spool"; finish; }
[ -e "$out" ] && fail "SIGKILL: $out exists, but the recorder never finished it"
"$MMSCOPE" recover --no-ring "$out.spool" -o "$out" >"$scratch/rec" 2>&1 || fail "recover failed: $(cat "$scratch/rec")"
cat "$scratch/rec"
if trace-cmd report "$out" >"$scratch/r" 2>"$scratch/e"; then
	n=$(grep -c 'mm_page_alloc' "$scratch/r")
	s=$(grep -c 'mms1 end' "$scratch/r")
	[ "$n" -gt 0 ] && [ "$s" -gt 0 ] && ok "recovered file: $n events, $s sample sets" ||
		fail "recovered file has $n events and $s sample sets"
else
	fail "trace-cmd report cannot read the recovered file: $(head -2 "$scratch/e")"
fi
"$MMSCOPE" dump "$out" >/dev/null 2>&1 || fail "mmscope dump cannot read the recovered file"

# The recovered file says it was recovered (the spool's metadata said
# "running"), and per CPU where its data ends: cpu_end_ns is each CPU's
# last event as trace-cmd reads the file, to the nanosecond ('-' for a
# CPU without events).
check_ends() {	# FILE WHAT
	"$MMSCOPE" dump --info "$1" >"$scratch/info" 2>&1 || fail "$2: dump --info failed"
	grep -qx '  stop_reason=recovered' "$scratch/info" &&
		grep -q '^  stop_detail=.*(it said: running)$' "$scratch/info" &&
		ok "$2: stop_reason=recovered, the spool's 'running' in stop_detail" ||
		fail "$2: metadata: $(grep 'stop_' "$scratch/info" | tr '\n' ' ')"
	ends=$(sed -n 's/^  cpu_end_ns=//p' "$scratch/info")
	trace-cmd report -t "$1" 2>/dev/null | awk '
		{ for (i = 1; i < NF; i++) if ($i ~ /^\[[0-9]+\]$/) break
		  if (i >= NF) next
		  cpu = substr($i, 2, length($i) - 2) + 0
		  for (j = i + 1; j <= NF; j++) if ($j ~ /^[0-9]+\.[0-9]+:$/) break
		  if (j > NF) next
		  split(substr($j, 1, length($j) - 1), t, ".")
		  ns = t[1] substr(t[2] "000000000", 1, 9)
		  sub(/^0+/, "", ns)
		  if (!(cpu in last) || length(ns) > length(last[cpu]) ||
		      (length(ns) == length(last[cpu]) && ns > last[cpu]))
			last[cpu] = ns
		  if (cpu + 1 > n) n = cpu + 1 }
		END { for (c = 0; c < n; c++) printf "%s%d:%s", c ? "," : "", c, (c in last) ? last[c] : "-" }
	' >"$scratch/want"
	want=$(cat "$scratch/want")
	# CPUs after the last one with events are '-' in the file, absent in
	# trace-cmd's text
	got=$(echo "$ends" | sed 's/\(,[0-9]*:-\)*$//')
	[ -n "$want" ] && [ "$got" = "$want" ] &&
		ok "$2: cpu_end_ns=$ends, each CPU's last event" ||
		fail "$2: cpu_end_ns='$ends', trace-cmd's last events '$want'"
}
check_ends "$out" "recovered file"
# its metadata is the spool's last, rewritten every 2 s: the clocks were
# read together until then (JSON wall_read_until_s), not at the start alone
"$MMSCOPE" report -s header -f json "$out" >"$scratch/h" 2>&1
read_until=$(sed -n 's/^ *"wall_read_until_s": \([0-9.]*\),$/\1/p' "$scratch/h")
first=$(sed -n 's/^ *"first_s": \([0-9.]*\),$/\1/p' "$scratch/h")
awk -v u="$read_until" -v f="$first" 'BEGIN { exit !(u != "" && u - f >= 1) }' &&
	ok "recovered file: the clocks read together until $read_until s (first event $first s)" ||
	fail "recovered file: wall_read_until_s '$read_until', first event $first s"

# a torn page (half a page of data) and a zeroed page, as after a crash
pages=$(grep -o '[0-9]* pages' "$scratch/rec" | cut -d' ' -f1)
head -c 4096 /dev/zero >>"$out.spool/cpu0.raw"
head -c 2048 "$out.spool/cpu0.raw" >>"$out.spool/cpu0.raw"
"$MMSCOPE" recover --no-ring -f "$out.spool" -o "$out" >"$scratch/rec2" 2>&1 || fail "recover of a torn spool failed"
cat "$scratch/rec2"
pages2=$(grep -o '[0-9]* pages' "$scratch/rec2" | cut -d' ' -f1)
[ "$pages2" = "$pages" ] && grep -q 'incomplete pages skipped' "$scratch/rec2" &&
	ok "torn and zeroed pages skipped, the $pages good ones kept" ||
	fail "torn spool: $pages2 pages (expected $pages), $(cat "$scratch/rec2")"
trace-cmd report "$out" >/dev/null 2>&1 || fail "trace-cmd cannot read the file recovered from a torn spool"
# On a shared machine another recorder's start may remove the dead
# instance at any time (as it should): then the ring cannot be checked.
ring=0
[ -d "$TRACEFS/instances/mmscope-$pid" ] && ring=1
[ $ring -eq 1 ] && ok "recover --no-ring leaves the instance" ||
	echo "note: mmscope-$pid was removed meanwhile (another recorder started?): ring not checked"
# without --no-ring, what the dead recorder left in its ring is taken too
"$MMSCOPE" recover --remove -f "$out.spool" -o "$out" >"$scratch/rec3" 2>&1 && [ ! -e "$out.spool" ] ||
	fail "recover --remove did not remove the spool"
cat "$scratch/rec3"
pages3=$(grep -o '[0-9]* pages from' "$scratch/rec3" | cut -d' ' -f1)
if [ $ring -eq 1 ]; then
	grep -q "took [0-9]* pages the recorder had not read" "$scratch/rec3" && [ "$pages3" -gt "$pages" ] &&
		ok "the ring of the dead recorder added $((pages3 - pages)) pages" ||
		fail "recover took nothing from the dead recorder's ring"
fi
[ -d "$TRACEFS/instances/mmscope-$pid" ] && fail "recover left the drained instance"
trace-cmd report "$out" >/dev/null 2>&1 || fail "trace-cmd cannot read the file recovered with the ring"
check_ends "$out" "file recovered with the ring"

# Issue 40.4, with a COMMAND. flat F: the text report of F on one line.
flat() { "$MMSCOPE" report -s header -s run "$1" 2>&1 | tr '\n' ' ' | sed 's/  */ /g'; }
# SIGTERM to the recorder: the file says the signal and that mmscope ended
# the command, with its outcome
# shellcheck disable=SC2086
"$MMSCOPE" record -q -o "$scratch/cterm.dat" --interval 100 --duration 60 $EV -- sleep 300 &	# not a wait: the command, ended by the recorder
pid=$!
LIVE_PIDS="$LIVE_PIDS $pid"
live_wait 60 "the command's start (SIGTERM)" runs "$pid" sleep
kill -TERM "$pid"
wait "$pid" || fail "SIGTERM with a command: record exited $?"
flat "$scratch/cterm.dat" >"$scratch/f"
grep -q 'stopped a signal (Terminated); mmscope ended the command .*outcome killed by signal 15 (Terminated): mmscope ended it at the stop (a signal); elapsed [0-9.]* s, user [0-9.]* s, sys [0-9.]* s; max RSS [0-9]* kB' "$scratch/f" &&
	ok "SIGTERM with a command: the signal, and the command mmscope ended" ||
	fail "SIGTERM with a command: $(cat "$scratch/f")"

# SIGKILL while the command runs: recover says the recorder was killed
# while recording, and that the command's outcome is unknown; mmscope did
# not end it (it still runs: its pid is in the metadata)
# shellcheck disable=SC2086
"$MMSCOPE" record -q -o "$scratch/ckill.dat" --interval 100 --duration 60 $EV -- sleep 300 &	# not a wait: the command, left running
pid=$!
LIVE_PIDS="$LIVE_PIDS $pid"
# the command runs, and the spool's metadata was written again since
live_wait 60 "the command's start (SIGKILL)" runs "$pid" sleep &&
	live_wait 60 "the spool's pages and its metadata rewritten (a command running)" \
		spool_synced "$scratch/ckill.dat"
kill -KILL "$pid"
wait "$pid" 2>/dev/null
"$MMSCOPE" recover --no-ring "$scratch/ckill.dat.spool" -o "$scratch/ckill.dat" >"$scratch/rec" 2>&1 ||
	fail "recover (a command running) failed: $(cat "$scratch/rec")"
cat "$scratch/rec"
cpid=$("$MMSCOPE" dump --info "$scratch/ckill.dat" | sed -n 's/^  command_pid=//p')
[ -n "$cpid" ] && LIVE_PIDS="$LIVE_PIDS $cpid"
grep -q "the recorder was killed while recording" "$scratch/rec" &&
	grep -q "the command (pid $cpid) was running when the spool was last written: its outcome is unknown, and mmscope did not end it" "$scratch/rec" &&
	ok "recover says how the recorder ended and what it knows of the command" ||
	fail "recover's lines: $(cat "$scratch/rec")"
flat "$scratch/ckill.dat" >"$scratch/f"
grep -q "stopped recovered by mmscope recover: the recorder was killed while recording (SIGKILL, a crash or a power loss: which is not recorded): the data ends where its spool did data ends CPU 0 at [0-9.]* s" "$scratch/f" &&
	grep -q "outcome - (unknown: the recorder was killed while the command (pid $cpid) ran, and did not end it)" "$scratch/f" &&
	ok "recovered, the command running: killed while recording, its outcome unknown" ||
	fail "recovered, the command running: $(cat "$scratch/f")"
[ -n "$cpid" ] && kill -0 "$cpid" 2>/dev/null && [ "$(cat /proc/"$cpid"/comm 2>/dev/null)" = sleep ] &&
	ok "the command (pid $cpid) still runs: the recorder did not end it" ||
	fail "command_pid '$cpid' is not the command left running"
[ -n "$cpid" ] && kill "$cpid" 2>/dev/null

# SIGTERM, then SIGKILL while the recorder waits 5 s for a command that
# ignores SIGTERM: the spool says the signal it was stopping on
# shellcheck disable=SC2086
"$MMSCOPE" record -q -o "$scratch/cstop.dat" --interval 100 --duration 60 $EV -- \
	sh -c 'trap "" TERM; sleep 300' &	# not a wait: a command that ignores SIGTERM
pid=$!
LIVE_PIDS="$LIVE_PIDS $pid"
# the sh ignores SIGTERM once it runs its sleep; SIGKILL once the spool
# says the recorder is stopping (it then waits 5 s for the command)
live_wait 60 "the command's start (killed while stopping)" runs "$pid" sleep
kill -TERM "$pid"
live_wait 60 "spool_state=stopping in the spool's metadata" \
	spool_says "$scratch/cstop.dat" spool_state=stopping
kill -KILL "$pid"
wait "$pid" 2>/dev/null
"$MMSCOPE" recover --no-ring "$scratch/cstop.dat.spool" -o "$scratch/cstop.dat" >"$scratch/rec" 2>&1 ||
	fail "recover (killed while stopping) failed: $(cat "$scratch/rec")"
cat "$scratch/rec"
cpid=$("$MMSCOPE" dump --info "$scratch/cstop.dat" | sed -n 's/^  command_pid=//p')
# the sh and its sleep ignore SIGTERM: both go by pid at the end
kids=$(cat "/proc/$cpid/task/$cpid/children" 2>/dev/null)
[ -n "$cpid" ] && LIVE_PIDS="$LIVE_PIDS $cpid $kids"
flat "$scratch/cstop.dat" >"$scratch/f"
grep -q "stopped recovered by mmscope recover: the recorder was killed while stopping after a signal (Terminated), before it read its last pages" "$scratch/f" &&
	grep -q "outcome - (unknown: the recorder was killed while the command (pid $cpid) ran, and may have begun to end it)" "$scratch/f" &&
	ok "recovered after SIGTERM and SIGKILL: the signal it was stopping on" ||
	fail "recovered after SIGTERM and SIGKILL: $(cat "$scratch/f")"
"$MMSCOPE" report -f json -s header "$scratch/cstop.dat" | grep -q '"state": "stopping"' ||
	fail "cstop: no spool state 'stopping' in JSON"
for p in $cpid $kids; do kill -KILL "$p" 2>/dev/null; done

# another killed recorder: the next start removes its instance
# shellcheck disable=SC2086
"$MMSCOPE" record -q -o "$scratch/kill2.dat" --duration 60 $EV &
pid=$!
LIVE_PIDS="$LIVE_PIDS $pid"
live_wait 60 "the second killed recorder's start" recording "$scratch/kill2.dat"
kill -KILL "$pid"
wait "$pid" 2>/dev/null
[ -d "$TRACEFS/instances/mmscope-$pid" ] ||
	echo "note: mmscope-$pid was removed meanwhile (another recorder started?)"

# the next start removes the dead recorder's instance
"$MMSCOPE" record -q -o "$scratch/next.dat" --duration 0.3 2>"$scratch/next.err" ||
	fail "record after SIGKILL failed: $(cat "$scratch/next.err")"
[ -d "$TRACEFS/instances/mmscope-$pid" ] && fail "instance mmscope-$pid still there after the next start" ||
	ok "the next start removed mmscope-$pid"
left=$(instances_left)
[ -z "$left" ] && ok "no instance of a dead recorder left" || fail "left: $left"
finish
