#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Live: the flight recorder writes nothing until SIGUSR1 or a trigger, then
# writes the ring (with the samples still in it) to FILE-N.dat and goes
# on; SIGTERM ends it with nothing left in tracefs. The trigger reads a
# fake /proc/pressure/memory (MMSCOPE_SAMPLE_ROOT) whose avg10 is 50.
# With a COMMAND, each file says how it ended and what became of the
# command (the last of --max-triggers; a post-trigger time cut short).
. "${top_srcdir:-.}/tests/lib.sh"
. "$top_srcdir/tests/record/lib-live.sh"

live_require trace-cmd
EV="-e kmem:mm_page_alloc -e kmem:mm_page_free"

out="$scratch/fr.dat"
# shellcheck disable=SC2086
"$MMSCOPE" record --flight-recorder -o "$out" --interval 100 --buffer-kb 512 $EV 2>"$scratch/err" &
pid=$!
LIVE_PIDS="$LIVE_PIDS $pid"
# pages: page allocations and frees, whatever else the machine does
pages() { head -c 8000000 /dev/zero >"$scratch/pages" && rm -f "$scratch/pages"; }
live_wait 60 "the flight recorder's start" grep -q 'flight recorder started' "$scratch/err"
sleep 1	# not a wait: the recorder runs a while, and must write nothing meanwhile
ls "$scratch" | grep -q '^fr' && fail "the flight recorder wrote a file before SIGUSR1"
pages
kill -USR1 "$pid"
# the second file after the first, with events of its own: once tracing
# is on again after the first file
live_wait 60 "fr-1.dat written" grep -q 'SIGUSR1: wrote .*/fr-1\.dat' "$scratch/err" &&
	live_wait 60 "the recorder tracing again after fr-1.dat" tracing_on "$pid"
pages
kill -USR1 "$pid"
live_wait 60 "fr-2.dat written" grep -q 'SIGUSR1: wrote .*/fr-2\.dat' "$scratch/err"
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

# after the ring wrapped: what it overwrote before the window is not lost
# (17.12). A small ring under a copying load wraps; the report must say
# lost 0 and a non-zero overwrite, and its window must start at the latest
# overwrite point, which trace-cmd (not our reader) shows as the
# "CPU:N [M EVENTS DROPPED]" line before that CPU's first complete event.
out="$scratch/fw.dat" load=""
# shellcheck disable=SC2086
"$MMSCOPE" record --flight-recorder -o "$out" --interval 100 --buffer-kb 64 $EV 2>"$scratch/err" &
pid=$!
LIVE_PIDS="$LIVE_PIDS $pid"
# overrun_sum: events the instance's ring overwrote so far, all CPUs
overrun_sum() {
	cat "$TRACEFS/instances/mmscope-$pid"/per_cpu/cpu*/stats 2>/dev/null |
		awk '$1 == "overrun:" { s += $2 } END { print s + 0 }'
}
# wrap_ring: the copying load, again, until the ring has overwritten
# more than it had (an idle machine may need more than one round)
wrap_ring() {
	before=$(overrun_sum) i=0
	while [ "$i" -lt 20 ] && [ "$(overrun_sum)" -le "$before" ]; do
		load=""
		for n in 1 2 3; do
			head -c 200000000 /dev/zero | cat >/dev/null &
			load="$load $!"
		done
		# shellcheck disable=SC2086
		wait $load
		i=$((i + 1))
	done
	[ "$(overrun_sum)" -gt "$before" ] || fail "the 64 KB ring did not wrap under $i rounds of load"
}
# wait_file F: the recorder handles SIGUSR1 in its loop; the next load
# must come after the dump, or it wraps the ring before the window
wait_file() {
	i=0
	while [ ! -s "$1" ] && [ "$i" -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	[ -s "$1" ] || fail "$1 not written within 10 s of SIGUSR1"
}
live_wait 60 "the flight recorder's start (small ring)" grep -q 'flight recorder started' "$scratch/err"
wrap_ring
kill -USR1 "$pid"	# fw-1: the ring wrapped since the start
wait_file "$scratch/fw-1.dat"
wrap_ring
kill -USR1 "$pid"	# fw-2: wrapped since fw-1; its stats must count from fw-1
wait_file "$scratch/fw-2.dat"
kill -TERM "$pid"
wait "$pid" || fail "flight recorder (small ring) exited $?"
for n in 1 2; do
	f="$scratch/fw-$n.dat"
	[ -f "$f" ] || { fail "fw-$n.dat not written"; continue; }
	"$MMSCOPE" report -s header "$f" >"$scratch/h" || fail "fw-$n: report failed"
	"$MMSCOPE" report -f json -s header "$f" >"$scratch/j" || fail "fw-$n: json report failed"
	num() { sed -n "s/.*\"$1\": \([0-9.]*\).*/\1/p" "$scratch/j" | head -1; }
	lost=$(num lost) over=$(num overwritten) wfirst=$(num window_first_s)
	grep -q '^lost      0 (ring overwrote [1-9][0-9]* events before the window' "$scratch/h" &&
		[ "$lost" = 0 ] && [ "${over:-0}" -gt 0 ] &&
		ok "fw-$n: lost 0, the ring overwrote $over before the window" ||
		{ cat "$scratch/h"; fail "fw-$n: overwrite reported as loss, or none (lost $lost, overwritten $over)"; }
	# per CPU: the ts of the first event after trace-cmd's DROPPED line
	trace-cmd report "$f" 2>/dev/null | awk '
		/^CPU:[0-9]+ \[([0-9]+ )?EVENTS DROPPED\]/ {
			c = $1; sub(/^CPU:/, "", c); c += 0; pend[c] = 1
			if ($2 ~ /^\[[0-9]/) { cnt[c] = substr($2, 2); drop += cnt[c] }
			else { cnt[c] = "-"; some = 1 }
			next }
		match($0, /\[[0-9]+\] +[0-9]+\.[0-9]+:/) {
			s = substr($0, RSTART, RLENGTH); c = s; sub(/\].*/, "", c); sub(/\[/, "", c)
			ts = s; sub(/.*\] +/, "", ts); sub(/:$/, "", ts); c += 0
			if (c in pend) { from[c] = ts; delete pend[c] }
		}
		END { for (c in from) print c, from[c], cnt[c]; print "drop", drop + 0, some + 0 }' >"$scratch/from"
	drop=$(sed -n 's/^drop \([0-9]*\) .*/\1/p' "$scratch/from")
	some=$(sed -n 's/^drop [0-9]* //p' "$scratch/from")
	latest=$(grep -v '^drop' "$scratch/from" | sort -k2 -g | tail -1 | cut -d' ' -f2)
	if [ -z "$latest" ]; then
		fail "fw-$n: trace-cmd shows no overwrite point (no EVENTS DROPPED)"
	elif [ "$latest" = "$wfirst" ]; then
		ok "fw-$n: every CPU's data starts by the window ($wfirst, as trace-cmd)"
	else
		cat "$scratch/from"
		fail "fw-$n: window starts at $wfirst, the latest CPU data start is $latest"
	fi
	# a page without room for the count says only "some" ("-"); each
	# counted one must be that CPU's overwrite in the report, from stats
	# that count from the previous dump, not the run's
	bad=""
	while read -r c t k; do
		[ "$c" = drop ] || [ "$k" = - ] && continue
		got=$(grep "\"cpu\": $c," "$scratch/j" | sed -n 's/.*"overwritten": \([0-9]*\).*/\1/p')
		[ "$got" = "$k" ] || bad="$bad cpu$c:$got!=$k"
	done <"$scratch/from"
	if [ -z "$bad" ] && { [ "$drop" = "$over" ] || { [ "$some" = 1 ] && [ "$over" -gt "$drop" ]; }; }; then
		ok "fw-$n: the overwrite counted is this window's ($over; pages $drop)"
	else
		fail "fw-$n: overwritten $over, the pages $drop;$bad (cumulative stats?)"
	fi
done

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
# issue 40.4: a flight file states its ending and what became of the
# COMMAND. --max-triggers 2: the second file is the last ("then
# --max-triggers reached"), written while the command ran, which the
# recorder then ends; --post-trigger cut short by SIGTERM: "then a
# signal", the command ended by mmscope, its outcome in the file.
# flat F: the text report of F on one line
flat() { "$MMSCOPE" report -s header -s run "$1" 2>&1 | tr '\n' ' ' | sed 's/  */ /g'; }
wait_file_n() {	# F: written (the SIGUSR1 is taken in the recorder's loop)
	i=0
	while [ ! -s "$1" ] && [ "$i" -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
}
# shellcheck disable=SC2086
"$MMSCOPE" record --flight-recorder --max-triggers 2 -o "$scratch/mt.dat" --interval 100 \
	--buffer-kb 512 $EV -- sleep 300 2>"$scratch/err" &	# not a wait: the command
pid=$!
LIVE_PIDS="$LIVE_PIDS $pid"
live_wait 60 "the flight recorder's start (--max-triggers)" grep -q 'flight recorder started' "$scratch/err"
kill -USR1 "$pid"
wait_file_n "$scratch/mt-1.dat"
kill -USR1 "$pid"
wait "$pid"
rc=$?
cat "$scratch/err"
[ $rc -eq 4 ] || fail "--max-triggers 2 with a command: exit $rc"
grep -q "^mmscope: 'sleep' was still running at the stop: mmscope ended it (killed by signal 15 " \
	"$scratch/err" && ok "--max-triggers: the recorder says it ended the command" ||
	fail "--max-triggers: no line that the recorder ended the command"
flat "$scratch/mt-1.dat" >"$scratch/mt1"
flat "$scratch/mt-2.dat" >"$scratch/mt2"
grep -q 'stopped trigger SIGUSR1 fired .*outcome - (the command (pid [0-9]*) was still running when this file was written) ' "$scratch/mt1" &&
	ok "mt-1: the trigger, the command still running" || fail "mt-1: $(cat "$scratch/mt1")"
grep -q 'stopped trigger SIGUSR1 fired, then --max-triggers reached (2 files) .*outcome - (the command (pid [0-9]*) was still running when this file was written; mmscope stopped after it (--max-triggers) and ended the command if it still ran) ' "$scratch/mt2" &&
	ok "mt-2: the last file of --max-triggers, and the command's fate" || fail "mt-2: $(cat "$scratch/mt2")"
# shellcheck disable=SC2086
"$MMSCOPE" record --flight-recorder --post-trigger 20 -o "$scratch/pt.dat" --interval 100 \
	--buffer-kb 512 $EV -- sleep 300 2>"$scratch/err" &	# not a wait: the command
pid=$!
LIVE_PIDS="$LIVE_PIDS $pid"
live_wait 60 "the flight recorder's start (--post-trigger)" grep -q 'flight recorder started' "$scratch/err"
kill -USR1 "$pid"
# SIGTERM within the post-trigger time, once it began
live_wait 60 "the post-trigger time's start" grep -q 'SIGUSR1: recording 20.0 s more into' "$scratch/err"
kill -TERM "$pid"
wait "$pid"
rc=$?
cat "$scratch/err"
[ $rc -eq 0 ] || fail "--post-trigger with a command, SIGTERM: exit $rc"
flat "$scratch/pt-1.dat" >"$scratch/pt1"
grep -q 'stopped trigger SIGUSR1 fired, then a signal (Terminated); mmscope ended the command .*outcome killed by signal 15 (Terminated): mmscope ended it at the stop (trigger SIGUSR1 fired, then a signal); elapsed [0-9.]* s' "$scratch/pt1" &&
	ok "pt-1: cut short by SIGTERM: the cause, and the command's outcome" || fail "pt-1: $(cat "$scratch/pt1")"
"$MMSCOPE" record --trigger 'bogus>1' --flight-recorder -o "$scratch/x.dat" --duration 1 2>/dev/null
[ $? -eq 2 ] && ok "an unknown trigger is a usage error" || fail "bad trigger not refused with 2"
left=$(instances_left)
[ -z "$left" ] && ok "no instance left" || fail "instances left: $left"
finish
