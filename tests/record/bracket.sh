#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Live: the flight recorder brackets the incident. A SIGUSR1 in the middle
# of a swapping run (anon-touch in a 128 MiB memory cgroup, swap on a loop
# device) with --post-trigger 2 gives one file whose vmscan events start
# at least 1 s before the trigger and end at least 1.5 s after it, with 0
# lost; the file says which trigger fired and when (trigger_ns on the
# trace clock, stop_reason=trigger:SIGUSR1, then max-triggers reached:
# the run's last file). --pre-trigger 2 grows the
# deliberately small 256 KiB ring from the observed rate, and
# --max-triggers 1 ends the run after that file with nothing left in
# tracefs.
. "${top_srcdir:-.}/tests/lib.sh"
. "$top_srcdir/tests/record/lib-live.sh"

live_require trace-cmd
# bad command lines: exit 2, one error line
for args in "--post-trigger 2" "--flight-recorder --pre-trigger 0" \
	"--flight-recorder --max-triggers 0" "--flight-recorder --trigger-cooldown x" \
	"--flight-recorder -o /nonexistent-dir/x.dat"; do
	# shellcheck disable=SC2086
	"$MMSCOPE" record -o "$scratch/bad.dat" --duration 1 $args 2>"$scratch/bad"
	rc=$?
	[ $rc -eq 2 ] && [ "$(grep -c '^error:' "$scratch/bad")" = 1 ] &&
		ok "'$args': exit 2: $(head -1 "$scratch/bad")" || fail "'$args': exit $rc"
done
[ -e "$scratch/bad.dat" ] && fail "a refused command line wrote a file"
live_swap 1024
live_cgroup 128

out="$scratch/br.dat"
"$MMSCOPE" record --flight-recorder --post-trigger 2 --pre-trigger 2 --max-triggers 1 \
	--buffer-kb 256 --interval 200 -g reclaim,kswapd -o "$out" 2>"$scratch/err" &
rec=$!
LIVE_PIDS="$LIVE_PIDS $rec"
i=0
while ! grep -q 'flight recorder started' "$scratch/err" && [ "$i" -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
sh -c "echo \$\$ >$LIVE_CG/cgroup.procs && exec $ANON_TOUCH -m 384 -p 50 -N -q" &
load=$!
LIVE_PIDS="$LIVE_PIDS $load"
# the trigger once reclaim runs in the cgroup and the ring has grown for
# --pre-trigger, and then the pre-trigger time more
live_wait 60 "reclaim in the cgroup" above 0 cg_limit_hits "$LIVE_CG"
live_wait 60 "the ring grown for --pre-trigger" grep -q 'grown to [0-9]* KiB for --pre-trigger' "$scratch/err"
sleep 2	# not a wait: reclaim for the pre-trigger time, whose events are checked to reach 1 s back
kill -USR1 "$rec"
i=0
while kill -0 "$rec" 2>/dev/null && [ "$i" -lt 150 ]; do sleep 0.1; i=$((i + 1)); done
kill -TERM "$load" 2>/dev/null
wait "$rec"
rc=$?
cat "$scratch/err"
[ $rc -eq 4 ] && grep -q '^mmscope: --max-triggers 1 reached: .*(exit status 4)$' "$scratch/err" &&
	ok "--max-triggers 1: the recorder ended by itself, status 4, and said so" ||
	fail "recorder exited $rc (or did not stop after its first file)"
grep -q 'stopped (max-triggers reached)' "$scratch/err" ||
	fail "no 'max-triggers reached' in the summary"
grep -q 'grown to [0-9]* KiB for --pre-trigger 2.0 s' "$scratch/err" &&
	ok "--pre-trigger grew the 256 KiB ring" || fail "--pre-trigger did not grow the ring"
f="$scratch/br-1.dat"
[ -f "$f" ] || { fail "br-1.dat not written"; finish; }
[ -e "$f.spool" ] && fail "spool $f.spool left"
strings "$f" | grep -q '^stop_reason=trigger:SIGUSR1, then max-triggers reached$' &&
	ok "stop_reason=trigger:SIGUSR1, then max-triggers reached (the last file)" ||
	fail "no stop_reason=trigger:SIGUSR1, then max-triggers reached in the metadata"
tns=$(strings "$f" | sed -n 's/^trigger_ns=\([0-9]*\)$/\1/p' | head -1)
[ -n "$tns" ] || { fail "no trigger_ns in the metadata"; finish; }
trace-cmd report "$f" >"$scratch/r" 2>"$scratch/rerr" ||
	{ fail "trace-cmd report: $(head -2 "$scratch/rerr")"; finish; }
# first and last vmscan event, seconds from the trigger
awk -v t="$tns" '/mm_vmscan_/ && match($0, /\] +[0-9]+\.[0-9]+:/) {
		s = substr($0, RSTART, RLENGTH); sub(/^\] +/, "", s); sub(/:$/, "", s)
		d = s - t / 1e9; if (n++ == 0 || d < lo) lo = d; if (n == 1 || d > hi) hi = d }
	END { printf "%d %.3f %.3f\n", n, lo, hi }' "$scratch/r" >"$scratch/span"
read -r n lo hi <"$scratch/span"
echo "vmscan events: $n, from $lo s to $hi s around the trigger"
awk -v lo="$lo" -v hi="$hi" 'BEGIN { exit !(lo <= -1.0 && hi >= 1.5) }' &&
	ok "events from $lo s to +$hi s around the trigger" ||
	fail "events span $lo .. $hi s around the trigger (want <= -1 and >= 1.5)"
"$MMSCOPE" report -f json -s header "$f" >"$scratch/j" || fail "report failed"
lost=$(sed -n 's/.*"lost": \([0-9]*\).*/\1/p' "$scratch/j" | head -1)
[ "$lost" = 0 ] && ok "0 lost" || fail "lost '$lost'"
left=$(instances_left)
[ -z "$left" ] && ok "no instance left" || fail "instances left: $left"
finish
