#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Live: every file a recorder writes holds its counters whole, under real
# swap (a loop device, a 128 MiB memory cgroup, 512 MiB of anonymous
# memory written over and over). A flight recorder with a reclaim-stall
# trigger and SIGUSR1s writes several files, a --switch-output run several
# parts; for every file, the counter figures 'mmscope report -f json -s
# counters' gives for vmstat (first, last) are the first and the last
# value of that key in the file's own sample lines as trace-cmd prints
# them, and every file carries the vmstat keys of the first (a file whose
# first set carried only the fields that changed lost the others, or took
# their first value from a later set). A restarted flight recorder and a
# restarted --switch-output run go on after the files (and the spool of a
# killed run) an earlier run left.
# The --switch-output summary's table is the whole run's, and says so.
. "${top_srcdir:-.}/tests/lib.sh"
. "$top_srcdir/tests/record/lib-live.sh"

live_require trace-cmd python3
live_swap 1024
live_cgroup 128

HOG="echo \$\$ >$LIVE_CG/cgroup.procs && exec $ANON_TOUCH -m 512 -p 100 -N -q"

# check FILE: the report's vmstat first/last against trace-cmd's lines,
# and the keys against those of $scratch/keys0 (made from the first file)
check() {
	trace-cmd report "$1" 2>/dev/null | grep -E 'mms1 (vmstat|end) ' >"$scratch/lines" ||
		{ fail "$1: no vmstat sample line"; return; }
	# first and last value of each key, in the order trace-cmd prints,
	# of the sets whose end line is there (samples(5): a set without
	# it, cut by the ring's overwriting or the end, counts for nothing)
	awk '{ for (i = 1; i <= NF; i++) if ($i == "mms1") break
		src = $(i + 1); seq = $(i + 2)
		if (src == "end") {
			if (seq == cur) for (k in p) { if (!(k in f)) f[k] = p[k]; l[k] = p[k] }
			split("", p); next }
		if (seq != cur) split("", p)
		cur = seq
		for (j = i + 3; j <= NF; j++)
			if (split($j, kv, "=") == 2 && kv[2] ~ /^-?[0-9]+$/) p[kv[1]] = kv[2] }
		END { for (k in f) print k, f[k], l[k] }' "$scratch/lines" | sort >"$scratch/tc"
	"$MMSCOPE" report -f json -s counters "$1" >"$scratch/j" 2>"$scratch/e" ||
		{ fail "$1: report: $(cat "$scratch/e")"; return; }
	python3 -c '
import json, sys
for c in json.load(open(sys.argv[1]))["counters"]:
    if c["source"] == "vmstat":
        print(c["key"], c["first"], c["last"])' "$scratch/j" | sort >"$scratch/rp"
	if cmp -s "$scratch/tc" "$scratch/rp"; then
		ok "$(basename "$1"): $(wc -l <"$scratch/rp") vmstat counters, first and last as in its own lines"
	else
		fail "$(basename "$1"): the report's vmstat counters differ from its lines:" \
			"$(diff "$scratch/tc" "$scratch/rp" | grep '^[<>]' | head -4 | tr '\n' ' ')"
	fi
	awk '{ print $1 }' "$scratch/tc" >"$scratch/keys"
	if [ ! -s "$scratch/keys0" ]; then
		cp "$scratch/keys" "$scratch/keys0"
	elif cmp -s "$scratch/keys0" "$scratch/keys"; then
		ok "$(basename "$1"): the same $(wc -l <"$scratch/keys") vmstat keys as the first file"
	else
		fail "$(basename "$1"): $(wc -l <"$scratch/keys") vmstat keys, the first file" \
			"$(wc -l <"$scratch/keys0")"
	fi
	swp=$(awk '$1 == "pswpout" { print $3 - $2 }' "$scratch/rp")
	echo "  $(basename "$1"): pswpout +${swp:-?}"
}

# started FILE: wait for the flight recorder's start line
started() {
	i=0
	while ! grep -q 'flight recorder started' "$1" && [ "$i" -lt 300 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}

# ---- flight recorder: a stall trigger and SIGUSR1s ----
mkdir "$scratch/fl"
"$MMSCOPE" record --flight-recorder --trigger 'reclaim-stall>0' --trigger-cooldown 1 \
	--interval 200 --buffer-kb 1024 -g reclaim -o "$scratch/fl/inc.dat" 2>"$scratch/fl.err" &
rec=$!
echo "flight recorder: pid $rec"
LIVE_PIDS="$LIVE_PIDS $rec"
started "$scratch/fl.err"
sh -c "$HOG" >/dev/null 2>&1 &
hog=$!
LIVE_PIDS="$LIVE_PIDS $hog"
# each SIGUSR1 once the hog swapped since the file before, the next
# once the file is written
for i in 1 2 3; do
	swp=$(vmstat_of pswpout)
	live_wait 60 "swap-outs before SIGUSR1 $i" above "$swp" vmstat_of pswpout
	kill -USR1 "$rec"
	live_wait 60 "the file of SIGUSR1 $i" above $((i - 1)) grep -c 'SIGUSR1: wrote ' "$scratch/fl.err"
done
kill -TERM "$rec"
wait "$rec"
rc=$?
kill "$hog" 2>/dev/null
wait "$hog" 2>/dev/null
cat "$scratch/fl.err"
[ $rc -eq 0 ] || fail "flight recorder exited $rc"
n=$(ls "$scratch/fl" | grep -c '^inc-[0-9]*\.dat$')
[ "$n" -ge 3 ] && ok "flight recorder: $n files" || fail "flight recorder: $n files (want 3+)"
grep -q 'reclaim' "$scratch/fl.err" || echo "  (the stall trigger did not fire: SIGUSR1 files only)"
: >"$scratch/keys0"
for f in $(ls "$scratch/fl" | grep '^inc-[0-9]*\.dat$' | sort -t- -k2 -n); do
	check "$scratch/fl/$f"
done

# ---- a restarted flight recorder goes on after inc-N ----
high=$(ls "$scratch/fl" | sed -n 's/^inc-\([0-9]*\)\.dat$/\1/p' | sort -n | tail -1)
touch -d '2000-01-01' "$scratch/fl"/inc-*.dat
# and the spool a killed run left, numbered above them (kept as it was)
high=$((high + 3))
mkdir "$scratch/fl/inc-$high.dat.spool"
"$MMSCOPE" record --flight-recorder --max-triggers 1 --interval 200 --buffer-kb 1024 \
	-g reclaim -o "$scratch/fl/inc.dat" 2>"$scratch/fl2.err" &
rec=$!
echo "restarted flight recorder: pid $rec"
LIVE_PIDS="$LIVE_PIDS $rec"
started "$scratch/fl2.err"
kill -USR1 "$rec"
wait "$rec"
rc=$?
cat "$scratch/fl2.err"
next="inc-$((high + 1)).dat"
# status 4: stopped at --max-triggers
[ $rc -eq 4 ] && [ -f "$scratch/fl/$next" ] && grep -q "wrote .*$next" "$scratch/fl2.err" &&
	ok "restarted flight recorder: wrote $next after the spool inc-$high.dat.spool" ||
	fail "restarted flight recorder: exit $rc, $next $([ -f "$scratch/fl/$next" ] && echo written || echo missing)"
grep -q 'error' "$scratch/fl2.err" && fail "restarted flight recorder: an error line"
old=$(find "$scratch/fl" -name 'inc-*.dat' -newermt '2001-01-01' | grep -vc "/$next\$")
[ -d "$scratch/fl/inc-$high.dat.spool" ] || fail "restarted flight recorder: the old spool is gone"
[ "$old" = 0 ] && ok "restarted flight recorder: no file of the earlier run replaced" ||
	fail "restarted flight recorder: $old earlier files rewritten"

# ---- --switch-output: several parts ----
mkdir "$scratch/sw"
"$MMSCOPE" record --switch-output 1s --interval 200 -g reclaim --duration 5 \
	-o "$scratch/sw/sw.dat" -- sh -c "$HOG" 2>"$scratch/sw.err"
rc=$?
tail -4 "$scratch/sw.err"
# the hog never ends by itself: the duration stops it
[ $rc -eq 0 ] || [ $rc -eq 143 ] || fail "--switch-output exited $rc"
n=$(ls "$scratch/sw" | grep -c '^sw-[0-9]*\.dat$')
[ "$n" -ge 3 ] && ok "--switch-output: $n parts" || fail "--switch-output: $n parts (want 3+)"
# the summary's table is the whole run's: its pages are those of every
# file (each "wrote" line gives its file's), beside the run's events
pages=$(sed -n 's/^mmscope: .*wrote .* (\([0-9]*\) pages, .*/\1/p' "$scratch/sw.err" |
	awk '{ s += $1 } END { print s + 0 }')
all=$(awk '$2 == "all" { print $4 }' "$scratch/sw.err")
grep -q "^mmscope: the whole run, all $n files of --switch-output:" "$scratch/sw.err" &&
	[ "$all" = "$pages" ] &&
	ok "--switch-output summary: the whole run's $all pages, those of all $n files" ||
	fail "--switch-output summary: 'all' has $all pages, the $n files $pages"
: >"$scratch/keys0"
for f in $(ls "$scratch/sw" | grep '^sw-[0-9]*\.dat$' | sort -t- -k2 -n); do
	check "$scratch/sw/$f"
done

# ---- a restarted --switch-output run goes on after sw-N ----
high=$(ls "$scratch/sw" | sed -n 's/^sw-\([0-9]*\)\.dat$/\1/p' | sort -n | tail -1)
"$MMSCOPE" record --switch-output 1s --interval 200 -g reclaim --duration 1500ms \
	-o "$scratch/sw/sw.dat" 2>"$scratch/sw2.err"
rc=$?
[ $rc -eq 0 ] && [ -f "$scratch/sw/sw-$((high + 1)).dat" ] &&
	ok "restarted --switch-output: exit 0, goes on at sw-$((high + 1)).dat" ||
	{ cat "$scratch/sw2.err"; fail "restarted --switch-output: exit $rc"; }
left=$(instances_left)
[ -z "$left" ] && ok "no instance left" || fail "instances left: $left"
finish
