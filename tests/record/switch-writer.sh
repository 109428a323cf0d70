#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Live: record --switch-output writes each finished part on a thread of
# its own (src/part-writer.h), so the loop goes on reading the rings
# meanwhile. MMSCOPE_TEST_PART_DELAY_MS makes every part's write last
# that much longer (a slow disk, or compression on a slow machine):
#
# 1. With a 1 MiB ring a CPU and a 5 s write, a loop that wrote the part
#    itself would leave the rings unread for 2 s under a page-allocating
#    load and lose events; here no part loses one, and every part holds
#    exactly the events its CPU stats say the kernel gave the recorder.
# 2. SIGTERM while a part is being written: the recorder waits for it,
#    writes the last part too, exits 0 and leaves no spool; every event
#    the kernel gave it is in one of the parts.
# 3. SIGKILL while a part is being written: that part's spool stays (no
#    half file). recover writes it without taking the dead recorder's
#    ring (the next part's pages), so it holds exactly its own events;
#    the current part's spool takes the ring.
. "${top_srcdir:-.}/tests/lib.sh"
. "$top_srcdir/tests/record/lib-live.sh"

live_require trace-cmd
EV="-e kmem:mm_page_alloc -e kmem:mm_page_free"

load() {	# load SECONDS: copying through pipes allocates and frees pages
	end=$(($(date +%s) + $1))
	while [ "$(date +%s)" -lt "$end" ]; do
		head -c 100000000 /dev/zero | cat >/dev/null
	done
}
# load_slow SECONDS: the same, at about a tenth of the rate (a 1 MiB ring
# then holds about 1.5 s of events: enough between two reads, too little
# for a loop that stops reading for 5 s)
load_slow() {
	end=$(($(date +%s) + $1))
	while [ "$(date +%s)" -lt "$end" ]; do
		head -c 10000000 /dev/zero | cat >/dev/null
		sleep 0.1
	done
}
# loadbg: load in the background until load_stop
loadbg() { (while :; do head -c 100000000 /dev/zero | cat >/dev/null; done) & LOADPID=$!; }
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

# 1. a slow write does not stop the reading
mkdir "$scratch/slow"
MMSCOPE_TEST_PART_DELAY_MS=5000 "$MMSCOPE" record --switch-output 512K --buffer-kb 1024 \
	--interval 200 --duration 12 -o "$scratch/slow/s.dat" $EV 2>"$scratch/err" &
rec=$!
LIVE_PIDS="$LIVE_PIDS $rec"
load_slow 11
wait "$rec"
rc=$?
[ $rc -eq 0 ] || fail "slow writer: record exited $rc: $(tail -3 "$scratch/err")"
n=$(ls "$scratch/slow" | grep -c '^s-[0-9]*\.dat$')
[ "$n" -ge 2 ] && ok "slow writer: $n parts" || fail "slow writer: $n parts (want 2 or more)"
ls "$scratch/slow" | grep -q spool && fail "slow writer: a spool is left: $(ls "$scratch/slow")"
for f in "$scratch"/slow/s-*.dat; do
	b=$(basename "$f")
	l=$(lost "$f")
	[ "$l" = 0 ] && ok "slow writer: $b lost no event with a 1 MiB ring" ||
		fail "slow writer: $b lost ${l:-?} events: the loop stopped reading while a part was written"
	exact "$f" && ok "slow writer: $b holds exactly the kernel's read events" ||
		fail "slow writer: $b: events $(tr '\n' ' ' <"$scratch/fev")against $(tr '\n' ' ' <"$scratch/fst")"
done

# 2. SIGTERM while part 1 is written: it is finished, and the last one
mkdir "$scratch/term"
loadbg
MMSCOPE_TEST_PART_DELAY_MS=3000 "$MMSCOPE" record --switch-output 256K --interval 200 \
	--duration 60 -o "$scratch/term/t.dat" $EV 2>"$scratch/err" &
rec=$!
LIVE_PIDS="$LIVE_PIDS $rec"
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
mkdir "$scratch/kill"
loadbg
MMSCOPE_TEST_PART_DELAY_MS=5000 "$MMSCOPE" record -q --switch-output 256K --interval 200 \
	--duration 60 -o "$scratch/kill/k.dat" $EV 2>"$scratch/err" &
rec=$!
LIVE_PIDS="$LIVE_PIDS $rec"
if wait_handover "$scratch/kill" k; then
	sleep 0.5
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
finish
