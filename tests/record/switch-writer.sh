#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Live: record --switch-output writes each finished part on a thread of
# its own (src/part-writer.h), so the loop goes on reading the rings
# meanwhile. MMSCOPE_TEST_PART_DELAY_MS makes every part's write last
# that much longer (a slow disk, or compression on a slow machine):
#
# 1. While a part's write waits 5 s, the next part's spool grows: the loop
#    goes on reading (the code before, which wrote the part in the loop,
#    added nothing to it for those 5 s and lost ~23 k events with a
#    1 MiB ring; losses depend on the load, so they are shown, not
#    held), and every part holds exactly the events its CPU stats say
#    the kernel gave the recorder.
# 2. SIGTERM while a part is being written: the recorder waits for it,
#    writes the last part too, exits 0 and leaves no spool; every event
#    the kernel gave it is in one of the parts.
# 3. SIGKILL while a part is being written: that part's spool stays (no
#    half file). recover writes it without taking the dead recorder's
#    ring (the next part's pages), so it holds exactly its own events;
#    the current part's spool takes the ring.
# 4. A part whose write fails: exit 1, one error naming its spool, and
#    the part being recorded kept whole in its spool too; recovered, the
#    two hold exactly the kernel's read events.
. "${top_srcdir:-.}/tests/lib.sh"
. "$top_srcdir/tests/record/lib-live.sh"

live_require trace-cmd
EV="-e kmem:mm_page_alloc -e kmem:mm_page_free"

load() {	# load SECONDS: page allocations and frees (lib-live.sh)
	end=$(($(date +%s) + $1))
	while [ "$(date +%s)" -lt "$end" ]; do
		churn_round
	done
}
# loadbg: load in the background until load_stop
loadbg() { (while :; do churn_round; done) & LOADPID=$!; }
load_stop() { kill "$LOADPID" 2>/dev/null; wait "$LOADPID" 2>/dev/null; }
# exact FILE: its events per CPU are the kernel's read events since it began
exact() {
	events "$1" >"$scratch/fev"
	read_events "$1" >"$scratch/fst"
	[ -s "$scratch/fst" ] && cmp -s "$scratch/fev" "$scratch/fst"
}
# lost FILE: the events the kernel dropped or overwrote while the file
# was recorded (its CPU stats; the pages' own flags miss a full ring's)
lost() {
	"$MMSCOPE" report -f json -s header "$1" 2>/dev/null |
		sed -n 's/.*"cpustat_lost": \([0-9]*\).*/\1/p' | head -1
}
# spool_bytes DIR: the bytes of pages in a spool's per-CPU files
spool_bytes() { stat -c %s "$1"/cpu*.raw 2>/dev/null | awk '{ s += $1 } END { print s + 0 }'; }
# wait_handover DIR NAME: until part 1 is handed to the writer (its spool
# and part 2's both there, no part 1 file yet); 1 after 30 s
wait_handover() {
	i=0
	while [ $i -lt 300 ]; do
		[ -d "$1/$2-1.dat.spool" ] && [ -d "$1/$2-2.dat.spool" ] && [ ! -e "$1/$2-1.dat" ] &&
			return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}
# switched DIR NAME: the switch from part 1 is done: its spool says so
# (stop_reason=switch-output: recover leaves the ring to part 2's)
switched() { spool_says "$1/$2-1.dat" stop_reason=switch-output; }

# start DIR BASE DELAY_MS SIZE DURATION [ARG...]: under the background load,
# a recorder of --switch-output SIZE into $scratch/DIR/BASE.dat whose part
# writes each wait DELAY_MS longer; its pid in rec
start() {
	d=$scratch/$1 base=$2 delay=$3 size=$4 dur=$5
	shift 5
	mkdir "$d"
	loadbg
	MMSCOPE_TEST_PART_DELAY_MS=$delay "$MMSCOPE" record "$@" --switch-output "$size" \
		--interval 200 --duration "$dur" -o "$d/$base.dat" $EV 2>"$scratch/err" &
	rec=$!
	LIVE_PIDS="$LIVE_PIDS $rec"
}

# 1. a slow write does not stop the reading: while part 1's write waits,
# part 2's spool grows (a loop that wrote the part itself would add
# nothing for 5 s): it is seen to grow before part 1 is written.
# Whether events are lost meanwhile depends on the machine's load (a
# busy CI starves the loop too), so the losses are shown, not held: the
# test holds what does not depend on it.
start slow s 5000 512K 9
if wait_handover "$scratch/slow" s; then
	live_wait 30 "the switch from part 1 (slow writer)" switched "$scratch/slow" s
	b0=$(spool_bytes "$scratch/slow/s-2.dat.spool")
	grown() { [ "$(spool_bytes "$scratch/slow/s-2.dat.spool")" -gt "$b0" ] ||
		[ -e "$scratch/slow/s-1.dat" ]; }
	live_wait 30 "part 2's spool to grow, or part 1 to be written" grown
	# the size first: part 1 not written after it grew, so not before
	b1=$(spool_bytes "$scratch/slow/s-2.dat.spool")
	if [ "$b1" -gt "$b0" ] && [ ! -e "$scratch/slow/s-1.dat" ]; then
		ok "slow writer: part 2's spool grew from $b0 to $b1 bytes while part 1 was written"
	else
		fail "slow writer: part 2's spool stayed at $b0 bytes until part 1 was written: the loop waited"
	fi
else
	fail "slow writer: part 1 never handed to the writer: $(ls "$scratch/slow" | tr '\n' ' ')"
fi
wait "$rec"
rc=$?
load_stop
[ $rc -eq 0 ] || fail "slow writer: record exited $rc: $(tail -3 "$scratch/err")"
n=$(ls "$scratch/slow" | grep -c '^s-[0-9]*\.dat$')
[ "$n" -ge 2 ] && ok "slow writer: $n parts" || fail "slow writer: $n parts (want 2 or more)"
ls "$scratch/slow" | grep -q spool && fail "slow writer: a spool is left: $(ls "$scratch/slow")"
for f in "$scratch"/slow/s-*.dat; do
	b=$(basename "$f")
	echo "slow writer: $b: $(lost "$f") events lost in the kernel (shown, not held)"
	exact "$f" && ok "slow writer: $b holds exactly the kernel's read events" ||
		fail "slow writer: $b: events $(tr '\n' ' ' <"$scratch/fev")against $(tr '\n' ' ' <"$scratch/fst")"
done

# 2. SIGTERM while part 1 is written: it is finished, and the last one
start term t 3000 256K 60
if wait_handover "$scratch/term" t; then
	kill -TERM "$rec"
	wait "$rec"
	rc=$?
	load_stop
	[ $rc -eq 0 ] && ok "SIGTERM during a part's write: exit 0" ||
		fail "SIGTERM during a part's write: exit $rc: $(tail -3 "$scratch/err")"
	ls "$scratch/term" | grep -q spool && fail "SIGTERM: a spool is left: $(ls "$scratch/term")"
	[ -e "$scratch/term/t-1.dat" ] && [ -e "$scratch/term/t-2.dat" ] &&
		ok "SIGTERM: the part being written and the last part are both written" ||
		fail "SIGTERM: parts $(ls "$scratch/term" | tr '\n' ' ')"
	for f in "$scratch"/term/t-*.dat; do
		exact "$f" && ok "SIGTERM: $(basename "$f") holds exactly the kernel's read events" ||
			fail "SIGTERM: $(basename "$f"): events $(tr '\n' ' ' <"$scratch/fev")against $(tr '\n' ' ' <"$scratch/fst")"
	done
else
	load_stop
	kill -KILL "$rec"
	fail "SIGTERM: part 1 never handed to the writer: $(ls "$scratch/term" | tr '\n' ' ')"
fi

# 3. SIGKILL while part 1 is written: its spool stays; recover leaves the
# ring to part 2's spool
start kill k 5000 256K 60 -q
if wait_handover "$scratch/kill" k; then
	live_wait 30 "the switch from part 1 (SIGKILL)" switched "$scratch/kill" k
	kill -KILL "$rec"
	wait "$rec" 2>/dev/null
	load_stop
	ls "$scratch/kill"
	[ -d "$scratch/kill/k-1.dat.spool" ] && [ ! -e "$scratch/kill/k-1.dat" ] &&
		ok "SIGKILL during a part's write: its spool stays, no file" ||
		fail "SIGKILL: $(ls "$scratch/kill" | tr '\n' ' ')"
	ls -a "$scratch/kill" | grep -v '^\.\.\?$' | grep -q '^\.' &&
		fail "SIGKILL: a hidden half-written file is left: $(ls -a "$scratch/kill" | tr '\n' ' ')"
	"$MMSCOPE" recover "$scratch/kill/k-1.dat.spool" -o "$scratch/kill/k-1.dat" >"$scratch/rec" 2>&1 ||
		fail "recover part 1: $(cat "$scratch/rec")"
	grep -q 'a finished part (stop_reason=switch-output): the ring is left' "$scratch/rec" &&
		ok "recover part 1: $(head -1 "$scratch/rec")" ||
		fail "recover part 1 did not leave the ring: $(cat "$scratch/rec")"
	"$MMSCOPE" recover "$scratch/kill/k-2.dat.spool" -o "$scratch/kill/k-2.dat" >"$scratch/rec2" 2>&1 ||
		fail "recover part 2: $(cat "$scratch/rec2")"
	exact "$scratch/kill/k-1.dat" &&
		ok "recovered part 1 holds exactly its own events (the kernel's read events)" ||
		fail "recovered part 1: events $(tr '\n' ' ' <"$scratch/fev")against $(tr '\n' ' ' <"$scratch/fst")"
	rm -rf "$scratch"/kill/*.spool "$scratch"/kill/*.new
	"$MMSCOPE" report -f json -s header "$scratch/kill" >"$scratch/j" 2>"$scratch/e" &&
		grep -q '(2 files)' "$scratch/j" && ok "report DIR: the two parts are one recording" ||
		fail "report DIR: $(cat "$scratch/e") $(grep -m1 files "$scratch/j")"
else
	load_stop
	kill -KILL "$rec"
	fail "SIGKILL: part 1 never handed to the writer: $(ls "$scratch/kill" | tr '\n' ' ')"
fi

# 4. a part whose write fails (a directory in its place, made while the
# thread waits): one error naming its spool, exit 1; the part being
# recorded is kept whole too (the rings read into it to the end), and
# the parts written, the two spools recovered, hold every event the
# kernel gave the recorder
start fail f 3000 256K 60
if wait_handover "$scratch/fail" f; then
	mkdir "$scratch/fail/f-1.dat"
	wait "$rec"
	rc=$?
	load_stop
	cat "$scratch/err"
	[ $rc -eq 1 ] && ok "a part that cannot be written: exit 1" || fail "failed part write: exit $rc"
	[ "$(grep -c '^error:' "$scratch/err")" = 1 ] &&
		grep -q "^error: .*f-1.dat: is a directory; that part of the recording is kept in .*f-1.dat.spool: run 'mmscope recover [^ ]* -o FILE'\$" "$scratch/err" &&
		ok "one error naming the part and its spool: $(grep '^error:' "$scratch/err")" ||
		fail "failed part write: $(grep '^error:' "$scratch/err")"
	grep -q "^mmscope: the part being recorded is kept too, in .*f-2.dat.spool" "$scratch/err" &&
		ok "the part being recorded is kept, and said" ||
		fail "the current part's spool is not said: $(cat "$scratch/err")"
	rmdir "$scratch/fail/f-1.dat"
	for n in 1 2; do
		"$MMSCOPE" recover "$scratch/fail/f-$n.dat.spool" -o "$scratch/fail/f-$n.dat" \
			>"$scratch/rec" 2>&1 || fail "recover f-$n: $(cat "$scratch/rec")"
		exact "$scratch/fail/f-$n.dat" &&
			ok "f-$n.dat, recovered: exactly the kernel's read events" ||
			fail "f-$n.dat: events $(tr '\n' ' ' <"$scratch/fev")against $(tr '\n' ' ' <"$scratch/fst")"
	done
	grep -q "took [0-9]* pages" "$scratch/rec" &&
		fail "recover f-2 took pages from the ring: the recorder left them unread"
else
	load_stop
	kill -KILL "$rec"
	fail "failed write: part 1 never handed to the writer: $(ls "$scratch/fail" | tr '\n' ' ')"
fi
finish
