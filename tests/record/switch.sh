#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Live: continuous recording. --switch-output 2M --switch-max-files 3
# under a page-allocating load leaves at most 3 files, the newest ones,
# each a complete trace.dat that trace-cmd opens, with
# its own metadata and a sample set at its start, and no spool; each
# CPU's events go on from one file into the next. Without
# --switch-max-files every file is kept, and the events of all files,
# per CPU, are exactly what the kernel's per-CPU stats say the recorder
# read (each file's CPU stats count from its start), with none dropped:
# no event lost or counted twice across a switch. Bad values: exit 2.
. "${top_srcdir:-.}/tests/lib.sh"
. "$top_srcdir/tests/record/lib-live.sh"

live_require trace-cmd
EV="-e kmem:mm_page_alloc -e kmem:mm_page_free"

for args in "--switch-output 10" "--switch-output 2M --switch-max-files 0" \
	"--switch-max-files 3" "--switch-output 1k" "--switch-output 2M --flight-recorder"; do
	# shellcheck disable=SC2086
	"$MMSCOPE" record $args -o "$scratch/bad.dat" --duration 1 2>"$scratch/bad"
	rc=$?
	[ $rc -eq 2 ] && [ "$(grep -c '^error:' "$scratch/bad")" = 1 ] &&
		ok "'$args': exit 2: $(head -1 "$scratch/bad")" || fail "'$args': exit $rc"
done

# span FILE: "CPU FIRST LAST MAXGAP" per CPU: its first and last time
# stamps and the longest time between two of its events in the file
span() {
	trace-cmd report "$1" 2>/dev/null | awk '
		match($0, /\[[0-9]+\] +[0-9]+\.[0-9]+:/) { s = substr($0, RSTART + 1, RLENGTH - 2)
			c = s; sub(/\].*/, "", c); c += 0; sub(/^[0-9]+\] +/, "", s)
			if (!(c in lo)) lo[c] = s
			else if (s - hi[c] > gap[c]) gap[c] = s - hi[c]
			hi[c] = s }
		END { for (c in lo) print c, lo[c], hi[c], gap[c] + 0 }' | sort -n
}

out="$scratch/sw.dat"
# three switches, then SIGINT (exit 0); loaded until then, up to 60 s
switched() { [ "$(grep -c '^mmscope: wrote ' "$scratch/err")" -ge 3 ]; }
# shellcheck disable=SC2086
"$MMSCOPE" record --switch-output 2M --switch-max-files 3 --interval 200 --duration 90 \
	-o "$out" $EV 2>"$scratch/err" &
rec=$!
LIVE_PIDS="$LIVE_PIDS $rec"
copy_load_until 60 switched
kill -INT "$rec"
wait "$rec"
rc=$?
tail -3 "$scratch/err"
[ $rc -eq 0 ] || fail "record --switch-output exited $rc"
written=$(grep -c '^mmscope: wrote ' "$scratch/err")
kept=$(ls "$scratch" | grep -c '^sw-[0-9]*\.dat$')
[ "$written" -ge 3 ] || fail "only $((written + 1)) files written in 60 s of load: no switches?"
[ "$kept" -ge 1 ] && [ "$kept" -le 3 ] && ok "$((written + 1)) files written, $kept kept" ||
	fail "$kept files kept (want 1..3)"
ls "$scratch" | grep -q 'spool' && fail "a spool is left: $(ls "$scratch" | grep spool)"
[ -e "$out" ] && fail "$out itself written"
# contiguous per CPU: each CPU's events go on in the next file after its
# last one here (the CPUs are read one after the other at a switch, so
# across CPUs two files may overlap by the few microseconds that takes),
# and each file holds exactly the events its CPU stats say the kernel gave
# the recorder since the file began. No bound on the pause at a switch:
# a CPU the scheduler leaves idle pauses as long as it likes (0.5 s and
# 0.7 s seen under make -j), so a time bound only measured the machine.
: >"$scratch/prev"
for f in $(ls "$scratch" | grep '^sw-[0-9]*\.dat$' | sort -t- -k2 -n); do
	trace-cmd report "$scratch/$f" >"$scratch/r" 2>/dev/null || { fail "trace-cmd cannot open $f"; continue; }
	grep -m1 -q 'mms1 ' "$scratch/r" || fail "$f: no sample set"
	span "$scratch/$f" >"$scratch/span"
	events "$scratch/$f" >"$scratch/fev"
	read_events "$scratch/$f" >"$scratch/fst"
	[ -s "$scratch/fst" ] && cmp -s "$scratch/fev" "$scratch/fst" &&
		ok "$f: its events per CPU are the kernel's read events since it began" ||
		fail "$f: events per CPU $(tr '\n' ' ' <"$scratch/fev")against the kernel's $(tr '\n' ' ' <"$scratch/fst")"
	if [ -s "$scratch/prev" ]; then
		bad=$(awk 'NR == FNR { last[$1] = $3; next }
			($1 in last) && last[$1] > $2 {
				printf " cpu%s: %s then %s", $1, last[$1], $2 }' "$scratch/prev" "$scratch/span")
		[ -z "$bad" ] && ok "$f: every CPU goes on after its last event in the previous file" ||
			fail "$f: overlaps the previous file:$bad"
	fi
	cp "$scratch/span" "$scratch/prev"
	# the kallsyms each file carries (read once and kept while
	# /proc/modules stays the same): this machine's symbols, every file
	ksyms=$(trace-cmd dump --kallsyms "$scratch/$f" 2>/dev/null | grep -c '^[0-9a-f]\{8,\} . ')
	[ "$ksyms" -gt 1000 ] && [ "$ksyms" = "$(grep -c . /proc/kallsyms)" ] &&
		ok "$f: its kallsyms are /proc/kallsyms' $ksyms lines" ||
		fail "$f: $ksyms kallsyms lines, /proc/kallsyms has $(grep -c . /proc/kallsyms)"
done
(cd "$scratch" && ls sw-*.dat | sort -t- -k2 -n | tail -1) >"$scratch/last"
[ "$(cat "$scratch/last")" = "sw-$((written + 1)).dat" ] && ok "the newest files are kept" ||
	fail "kept $(cat "$scratch/last"), the newest is sw-$((written + 1)).dat"

# every event once: all files against the kernel's per-CPU read counts
rm -f "$scratch"/sw-*.dat
mkdir "$scratch/all"
out="$scratch/all/all.dat"
# two switches (three files), then SIGINT
switched2() { [ "$(grep -c '^mmscope: wrote ' "$scratch/err")" -ge 2 ]; }
# shellcheck disable=SC2086
"$MMSCOPE" record --switch-output 1M --interval 200 --duration 90 -o "$out" $EV \
	2>"$scratch/err" &
rec=$!
LIVE_PIDS="$LIVE_PIDS $rec"
copy_load_until 60 switched2
kill -INT "$rec"
wait "$rec" || fail "record --switch-output 1M exited $?"
n=$(ls "$scratch/all" | grep -c '^all-[0-9]*\.dat$')
[ "$n" -ge 3 ] || fail "only $n files"
: >"$scratch/ev"
: >"$scratch/st"
for f in "$scratch"/all/all-*.dat; do
	events "$f" >>"$scratch/ev"
	"$MMSCOPE" report -f json -s header "$f" >"$scratch/j" 2>/dev/null || fail "report $f failed"
	lost=$(sed -n 's/.*"lost": \([0-9]*\).*/\1/p' "$scratch/j" | head -1)
	[ "$lost" = 0 ] || fail "$f: lost $lost"
	read_events "$f" >>"$scratch/st"
done
sum() { awk '{ n[$1] += $2 } END { for (c in n) print c, n[c] }' "$1" | sort -n; }
sum "$scratch/ev" >"$scratch/evs"
sum "$scratch/st" >"$scratch/sts"
echo "events per CPU in $n files:"; cat "$scratch/evs"
echo "the kernel's read events per CPU:"; cat "$scratch/sts"
[ -s "$scratch/sts" ] || fail "no CPU stats in the files (trace-cmd report --stat)"
cmp -s "$scratch/evs" "$scratch/sts" && ok "every event in exactly one of $n files" ||
	fail "events in the files differ from the kernel's per-CPU read counts"
# report reads the directory, or the files, as one recording
total=$(awk '{ s += $2 } END { print s }' "$scratch/evs")
"$MMSCOPE" report -f json -s header "$scratch/all" >"$scratch/j" 2>"$scratch/e" ||
	fail "report DIR: $(cat "$scratch/e")"
got=$(sed -n 's/^ *"events": \([0-9]*\).*/\1/p' "$scratch/j" | head -1)
[ "$got" = "$total" ] && ok "report DIR: $got events, those of all $n files" ||
	fail "report DIR: $got events, the files have $total"
grep -q "\"all ($n files)\"\|all ($n files)" "$scratch/j" || fail "report DIR: the header does not say $n files"
# shellcheck disable=SC2046
"$MMSCOPE" report -f json -s header $(ls -r "$scratch"/all/all-*.dat) >"$scratch/j2" ||
	fail "report FILE...: failed"
got2=$(sed -n 's/^ *"events": \([0-9]*\).*/\1/p' "$scratch/j2" | head -1)
[ "$got2" = "$total" ] && ok "report FILE... (in any order): $got2 events" ||
	fail "report FILE...: $got2 events, the files have $total"
# the wall clock: every file holds the recorder's reads of both clocks
# (wall_segments), and across the switches they go on in step: no step
n_seg=$(grep -a -l 'wall_segments=' "$scratch"/all/all-*.dat | wc -l)
steps=$(python3 -c 'import json, sys; print(json.dumps(json.load(open(sys.argv[1]))["header"]["wall_steps"]))' \
	"$scratch/j2" 2>&1)
[ "$n_seg" = "$n" ] && [ "$steps" = "[]" ] &&
	ok "wall clock read in all $n files, in step across the switches (wall_steps [])" ||
	fail "wall clock: wall_segments in $n_seg of $n files, wall_steps $steps"
"$MMSCOPE" report "$scratch/all" - </dev/null >/dev/null 2>&1
[ $? -eq 2 ] && ok "report DIR -: exit 2" || fail "report with - among files not refused"
# a full disk at a switch: the next spool cannot be made; the run stops
# with one line, the file so far is finished whole (its stats are its own:
# its events are at most the kernel's read count; a page read when the
# disk was already full is not kept), nothing is left half-written
LIVE_MOUNT="$scratch/small"
mkdir "$LIVE_MOUNT"
if mount -t tmpfs -o size=12M tmpfs "$LIVE_MOUNT"; then
	# shellcheck disable=SC2086
	"$MMSCOPE" record --switch-output 1M --interval 200 --duration 90 -o "$LIVE_MOUNT/x.dat" \
		$EV 2>"$scratch/err" &
	rec=$!
	LIVE_PIDS="$LIVE_PIDS $rec"
	# until it stops on the full disk (the stop line), up to 60 s
	copy_load_until 60 grep -q '^mmscope: stopped' "$scratch/err"
	kill -INT "$rec" 2>/dev/null
	wait "$rec"
	rc=$?
	grep -q '^mmscope: stopped: filesystem full: ' "$scratch/err" &&
		ok "full disk at a switch: $(grep '^mmscope: stopped' "$scratch/err") (exit $rc)" ||
		{ cat "$scratch/err"; fail "full disk: no 'stopped: filesystem full' line (exit $rc)"; }
	# 3: the files are whole but the run is incomplete; 1: a file could
	# not be written (its spool is kept)
	[ $rc -eq 3 ] || [ $rc -eq 1 ] || fail "full disk: exit $rc (want 3, or 1 with a spool)"
	[ $rc -ne 3 ] || grep -q '^mmscope: the recording is incomplete: the filesystem filled' \
		"$scratch/err" || fail "full disk: exit 3 without saying why"
	for f in "$LIVE_MOUNT"/*; do
		case $f in
		*.dat) trace-cmd report "$f" >/dev/null 2>&1 || fail "full disk: $f is not whole"
			events "$f" | awk '{ s += $2 } END { print s + 0 }' >"$scratch/n1"
			trace-cmd report --stat "$f" 2>/dev/null |
				awk '/^read events:/ { s += $3 } END { print s + 0 }' >"$scratch/n2"
			# a page the kernel handed over when the disk was already
			# full is lost (read, not kept): at most that many fewer
			awk -v a="$(cat "$scratch/n1")" -v b="$(cat "$scratch/n2")" \
				'BEGIN { exit !(a <= b && a > 0) }' ||
				fail "full disk: $f has $(cat "$scratch/n1") events, its stats $(cat "$scratch/n2")" ;;
		*.spool) [ $rc -eq 1 ] || fail "full disk: spool $f left though the exit is $rc" ;;
		*) fail "full disk: $f left" ;;
		esac
	done
	ls "$LIVE_MOUNT"/*.dat >/dev/null 2>&1 && ok "full disk: the files written are whole" ||
		fail "full disk: no file"
else
	fail "cannot mount a 12 MiB tmpfs"
fi
left=$(instances_left)
[ -z "$left" ] && ok "no instance left" || fail "instances left: $left"
finish
