#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Live: the flight recorder writes nothing until SIGUSR1 or a trigger, then
# writes the ring (with the samples still in it) to FILE-N.dat and goes
# on; SIGTERM ends it with nothing left in tracefs. The trigger reads a
# fake /proc/pressure/memory (MMSCOPE_SAMPLE_ROOT) whose avg10 is 50.
. "${top_srcdir:-.}/tests/lib.sh"
. "$top_srcdir/tests/record/lib-live.sh"

live_require trace-cmd
EV="-e kmem:mm_page_alloc -e kmem:mm_page_free"

out="$scratch/fr.dat"
# shellcheck disable=SC2086
"$MMSCOPE" record --flight-recorder -o "$out" --interval 100 --buffer-kb 512 $EV 2>"$scratch/err" &
pid=$!
LIVE_PIDS="$LIVE_PIDS $pid"
sleep 1.5
ls "$scratch" | grep -q '^fr' && fail "the flight recorder wrote a file before SIGUSR1"
kill -USR1 "$pid"
sleep 1.5
kill -USR1 "$pid"
sleep 1
kill -TERM "$pid"
wait "$pid"
rc=$?
cat "$scratch/err"
[ $rc -eq 0 ] || fail "flight recorder exited $rc"
for n in 1 2; do
	f="$scratch/fr-$n.dat"
	if trace-cmd report "$f" >"$scratch/r" 2>/dev/null && grep -q mm_page_alloc "$scratch/r" &&
		grep -q 'mms1 end' "$scratch/r"; then
		ok "SIGUSR1 dump $n: events and samples"
	else
		fail "SIGUSR1 dump $n: $f missing or unreadable or without samples"
	fi
	strings "$f" | grep -q '^trigger=SIGUSR1$' || fail "dump $n: no trigger=SIGUSR1 in its metadata"
done
[ -e "$out" ] && fail "the flight recorder wrote $out itself"
[ -d "$TRACEFS/instances/mmscope-$pid" ] && fail "instance left after SIGTERM"

# a trigger: fires once while its condition stays true
mkdir -p "$scratch/root/proc/pressure"
cat >"$scratch/root/proc/pressure/memory" <<'PSI'
some avg10=50.00 avg60=10.00 avg300=2.00 total=123456
full avg10=20.00 avg60=5.00 avg300=1.00 total=65432
PSI
out="$scratch/tr.dat"
# shellcheck disable=SC2086
MMSCOPE_SAMPLE_ROOT="$scratch/root" "$MMSCOPE" record --flight-recorder -o "$out" \
	--interval 100 --buffer-kb 512 --trigger 'psi-some>10' --duration 2 $EV 2>"$scratch/err"
rc=$?
cat "$scratch/err"
[ $rc -eq 0 ] || fail "triggered flight recorder exited $rc"
[ -f "$scratch/tr-1.dat" ] && ok "psi-some>10 wrote tr-1.dat" || fail "psi-some>10 wrote nothing"
[ -e "$scratch/tr-2.dat" ] && fail "the trigger fired twice while its condition held"
strings "$scratch/tr-1.dat" | grep -q '^trigger=psi some avg10 50.00 > 10$' ||
	fail "tr-1.dat: no trigger=psi... in its metadata"
trace-cmd report "$scratch/tr-1.dat" >/dev/null 2>&1 || fail "trace-cmd cannot read tr-1.dat"
"$MMSCOPE" record --trigger 'bogus>1' --flight-recorder -o "$scratch/x.dat" --duration 1 2>/dev/null
[ $? -eq 2 ] && ok "an unknown trigger is a usage error" || fail "bad trigger not refused with 2"
left=$(instances_left)
[ -z "$left" ] && ok "no instance left" || fail "instances left: $left"
finish
