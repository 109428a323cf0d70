#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# record-bench.sh: how many events per second "mmscope record" sustains
# without losing any, and what it costs in CPU. Not a test: it prints a
# table. Needs root and a built tree.
#
# usage: tests/bench/record-bench.sh [BUILDDIR] [SECONDS]
#
# The load is page-allocator churn (kmem:mm_page_alloc + mm_page_free, the
# busiest mm events there are): N copies of anon-touch mapping, touching
# and unmapping 64 MiB in a loop, for N = 1, 2, 4, 8. For each N it runs
# the recorder for SECONDS (default 10) with the default 16 MiB per CPU
# ring, and with a 1 MiB ring to show where loss starts, then prints
# events stored and per second of recording, events lost (per_cpu stats),
# bytes of pages spooled, the file size, and the recorder's own CPU time
# (user+system over its whole run, including writing the zstd file at the
# end, in % of one CPU). The churn competes with the recorder for CPUs:
# on a small machine, loss at high N says as much about the CPU left to
# the recorder as about the ring size.
set -u
B=${1:-$(pwd)}
SECS=${2:-10}
MMSCOPE=$B/mmscope
ANON=$B/samples/workloads/anon-touch
[ "$(id -u)" -eq 0 ] || { echo "record-bench: needs root" >&2; exit 1; }
[ -x "$MMSCOPE" ] && [ -x "$ANON" ] || {
	echo "record-bench: build first ($MMSCOPE, $ANON; make check builds anon-touch)" >&2
	exit 1
}
TMP=$(mktemp -d /var/tmp/mmscope-bench.XXXXXX)
PIDS=""
cleanup() {
	for p in $PIDS; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT INT TERM

churn() { # N: start N churn loops
	for _ in $(seq "$1"); do
		bash -c "while :; do '$ANON' -m 64 -q; done" &
		PIDS="$PIDS $!"
	done
}

stop_churn() {
	for p in $PIDS; do
		pkill -P "$p" 2>/dev/null
		kill "$p" 2>/dev/null
	done
	wait 2>/dev/null
	PIDS=""
}

printf '%-7s %-8s %11s %11s %9s %7s %12s %11s %6s\n' \
	workers ring_kb events events/s lost lost% spooled_B file_B cpu%
for n in 1 2 4 8; do
	for kb in 16384 1024; do
		out="$TMP/b.dat"
		churn "$n"
		sleep 0.5
		/usr/bin/time -f '%U %S %e' -o "$TMP/time" "$MMSCOPE" record -f -o "$out" -g none \
			-e kmem:mm_page_alloc -e kmem:mm_page_free --buffer-kb "$kb" \
			--duration "$SECS" 2>"$TMP/err" || { echo "record failed:"; cat "$TMP/err"; }
		stop_churn
		read -r u s e <"$TMP/time"
		# the summary's "all" line: events pages bytes lost (from per_cpu stats)
		read -r events bytes lost < <(awk '$1 == "mmscope:" && $2 == "all" { print $3, $5, $6 }' "$TMP/err")
		size=$(stat -c %s "$out" 2>/dev/null || echo 0)
		awk -v n="$n" -v kb="$kb" -v ev="${events:-0}" -v lost="${lost:-0}" -v e="$e" -v secs="$SECS" \
			-v u="$u" -v s="$s" -v bytes="${bytes:-0}" -v size="$size" 'BEGIN {
			printf "%-7d %-8d %11d %11.0f %9d %6.2f%% %12d %11d %5.1f%%\n",
				n, kb, ev, ev / secs, lost, ev + lost ? 100 * lost / (ev + lost) : 0,
				bytes, size, 100 * (u + s) / e }'
		rm -f "$out"
	done
done
