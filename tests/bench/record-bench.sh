#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# record-bench.sh: how many events per second "mmscope record" sustains
# without losing any, and what it costs in CPU (issues 3 and 9). Not a
# test: it prints tables and says which targets are met. Needs root and a
# built tree.
#
# usage: tests/bench/record-bench.sh [BUILDDIR] [SECONDS]
#   RB_WORKERS  churn loops to try (default "1 2 4 8")
#   RB_RINGS    ring sizes per CPU in KiB (default "16384 1024")
#   RB_PACE     pages/s of the paced run (default 33000: about 100 k events/s)
#
# 1. Rate and loss. The load is page-allocator churn (kmem:mm_page_alloc +
#    mm_page_free, the busiest mm events there are): N copies of anon-touch
#    mapping, touching and unmapping 64 MiB in a loop. For each N it runs
#    the recorder for SECONDS (default 10) with the default 16 MiB per CPU
#    ring and with a 1 MiB ring to show where loss starts.
# 2. CPU at a steady rate. One loop of `anon-touch -N -r RB_PACE` (paced,
#    no THP) makes about 100 k events/s.
#
# Columns: events stored and per second of recording; events lost (per_cpu
# stats); bytes of pages spooled; the file size; loop% = the recorder's CPU
# while recording (its schedstat runtime from 1 s after the start to 0.5 s
# before the end, in % of one CPU); cpu% = its user+system over the whole
# run including writing the zstd file at the end, over the wall time. The
# churn competes with the recorder for CPUs: on a small machine, loss at
# high N says as much about the CPU left to the recorder as about the ring.
set -u
B=$(cd "${1:-$(pwd)}" && pwd)
SECS=${2:-10}
WORKERS=${RB_WORKERS:-1 2 4 8}
RINGS=${RB_RINGS:-16384 1024}
PACE=${RB_PACE:-33000}
MMSCOPE=$B/mmscope
ANON=$B/samples/workloads/anon-touch
[ "$(id -u)" -eq 0 ] || { echo "record-bench: needs root" >&2; exit 1; }
[ -x "$MMSCOPE" ] && [ -x "$ANON" ] || {
	echo "record-bench: build first ($MMSCOPE, $ANON; make bench builds both)" >&2
	exit 1
}
[ "$SECS" -ge 3 ] 2>/dev/null || { echo "record-bench: SECONDS must be >= 3" >&2; exit 1; }
TMP=$(mktemp -d /var/tmp/mmscope-bench.XXXXXX)
PIDS=""
stop_churn() {
	for p in $PIDS; do
		kill "$p" 2>/dev/null
		pkill -P "$p" 2>/dev/null
	done
	for p in $PIDS; do
		while kill -0 "$p" 2>/dev/null; do sleep 0.05; done
	done
	PIDS=""
}
cleanup() {
	stop_churn
	rm -rf "$TMP"
}
trap cleanup EXIT INT TERM

churn() { # N [anon-touch options]: start N churn loops
	local n=$1
	shift
	for _ in $(seq "$n"); do
		bash -c "while :; do '$ANON' -m 64 -q $*; done" &
		PIDS="$PIDS $!"
		disown $!	# no "Terminated" lines when stop_churn kills it
	done
}

runtime_ns() { # PID: CPU time so far (schedstat), 0 if gone
	awk '{ print $1 }' "/proc/$1/schedstat" 2>/dev/null || echo 0
}

# record LABEL RING: one recording of SECS seconds beside the running churn;
# prints a table row and appends "label ring events lost loop% cpu%" to $TMP/rows
record() {
	local label=$1 kb=$2 out=$TMP/b.dat tp rp a b u s e events bytes lost size
	/usr/bin/time -f '%U %S %e' -o "$TMP/time" "$MMSCOPE" record -f -o "$out" -g none \
		-e kmem:mm_page_alloc -e kmem:mm_page_free --buffer-kb "$kb" \
		--duration "$SECS" 2>"$TMP/err" &
	tp=$!
	sleep 1
	rp=$(pgrep -P "$tp" | head -1)
	a=$(runtime_ns "${rp:-0}")
	sleep "$(awk -v s="$SECS" 'BEGIN { print s - 1.5 }')"
	b=$(runtime_ns "${rp:-0}")
	wait "$tp" || { echo "record failed:"; cat "$TMP/err"; }
	read -r u s e <"$TMP/time"
	# the summary's "all" line: events pages bytes lost (from per_cpu stats)
	read -r events bytes lost < <(awk '$1 == "mmscope:" && $2 == "all" { print $3, $5, $6 }' "$TMP/err")
	size=$(stat -c %s "$out" 2>/dev/null || echo 0)
	awk -v l="$label" -v kb="$kb" -v ev="${events:-0}" -v lost="${lost:-0}" -v e="$e" \
		-v secs="$SECS" -v u="$u" -v s="$s" -v bytes="${bytes:-0}" -v size="$size" \
		-v a="$a" -v b="$b" -v rows="$TMP/rows" 'BEGIN {
		loop = (b > a) ? 100 * (b - a) / 1e9 / (secs - 1.5) : 0
		printf "%-9s %-8d %11d %11.0f %9d %6.2f%% %12d %11d %6.1f%% %5.1f%%\n",
			l, kb, ev, ev / secs, lost, ev + lost ? 100 * lost / (ev + lost) : 0,
			bytes, size, loop, 100 * (u + s) / e
		printf "%s %d %d %d %.2f %.2f\n", l, kb, ev, lost, loop, 100 * (u + s) / e >>rows }'
	rm -f "$out"
}

header() {
	printf '%-9s %-8s %11s %11s %9s %7s %12s %11s %7s %6s\n' \
		workload ring_kb events events/s lost lost% spooled_B file_B loop% cpu%
}

echo "record-bench: $(uname -n) $(uname -r), $(nproc) CPUs, $(date -u '+%F %H:%M UTC'), ${SECS} s per run"
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
: >"$TMP/rows"

echo
echo "== 1. page churn: N loops of anon-touch -m 64"
header
for n in $WORKERS; do
	for kb in $RINGS; do
		churn "$n"
		sleep 0.5
		record "churn-$n" "$kb"
		stop_churn
	done
done

echo
echo "== 2. paced: anon-touch -m 64 -N -r $PACE (about 100 k events/s)"
header
churn 1 -N -r "$PACE"
sleep 0.5
record "paced" 16384
stop_churn
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"

echo
awk -v secs="$SECS" '
$1 ~ /^churn-/ && $2 == 16384 {
	r = $3 / secs
	if ($4 == 0 && r > best) { best = r; bestw = $1 }
	if ($4 > 0 && r > lossy) { lossy = r; lossyw = $1 }
}
$1 == "paced" { pr = $3 / secs; loop = $5; cpu = $6; plost = $4 }
END {
	met = best < 1e6 ? "NOT MET" : "MET"
	printf("target >= 1 M events/s, no loss, default 16 MiB ring: best lossless %.0f events/s (%s) %s\n",
		best, bestw, met)
	if (lossy > best)
		printf "  (loss at %.0f events/s with %s)\n", lossy, lossyw
	met = cpu < 5 ? "MET" : (loop < 5 ? "MET while recording, NOT MET with the final write" : "NOT MET")
	if (pr)
		printf("target recorder CPU < 5%% of one core at ~100 k events/s: %.0f events/s, %d lost, loop %.1f%%, whole run %.1f%% %s\n",
			pr, plost, loop, cpu, met)
}' "$TMP/rows"
