#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# many.sh: many lab-size recordings loaded by compare and export, one
# core against all (issue 23). Not a test: it prints a table and whether
# the target is met (24 recordings in at most 0.6x the serial time on two
# cores, peak RSS bounded per worker).
#
# usage: tests/bench/many.sh [BUILDDIR]
#   MANY_N       recordings (default 24): the real recordings of samples/,
#                tests/data/report and tests/data/swap of 1 MB or more,
#                copied round robin up to MANY_N files
#   BENCH_REPEAT rounds (default 5); the target is the median of each
#                round's parallel/serial ratio
#
# "serial" runs under taskset -c 0 (compare and export --jobs 1: one
# recording at a time, and the reader starts no read-ahead thread on one
# CPU); "all cores" runs unpinned (--jobs N, N the CPUs). Each repetition
# runs all four back to back, so a busy neighbour slows both alike.
set -u
B=$(cd "${1:-$(pwd)}" && pwd)
SRC=$(cd "$(dirname "$0")/../.." && pwd)
N=${MANY_N:-24}
REPEAT=${BENCH_REPEAT:-5}
MMSCOPE=$B/mmscope
TIME=/usr/bin/time
NCPU=$(nproc)

[ -x "$MMSCOPE" ] || { echo "many: $MMSCOPE missing" >&2; exit 1; }
[ -x "$TIME" ] || { echo "many: needs $TIME (GNU time)" >&2; exit 1; }
TMP=$(mktemp -d /tmp/mmscope-many.XXXXXX)
trap 'rm -rf "$TMP"' EXIT INT TERM

src=()
for f in "$SRC"/samples/*.dat "$SRC"/tests/data/report/*.dat "$SRC"/tests/data/swap/*.dat; do
	[ -f "$f" ] && [ "$(stat -c %s "$f")" -ge 1000000 ] && src+=("$f")
done
[ ${#src[@]} -gt 0 ] || { echo "many: no recordings of 1 MB or more" >&2; exit 1; }
files=() cols=()
for i in $(seq 1 "$N"); do
	f=$TMP/r$(printf %02d "$i").dat
	cp "${src[$(((i - 1) % ${#src[@]}))]}" "$f"
	files+=("$f")
	cols+=("r$i=$f")
done
bytes=$(cat "${files[@]}" | wc -c)
events=0
for f in "${files[@]}"; do
	e=$("$MMSCOPE" dump --stat "$f" | awk '$2 == "total" { print $1 }')
	events=$((events + ${e:-0}))
done

run() { # NAME CMD...
	local name=$1
	shift
	if "$TIME" -f '%e %U %S %M' -o "$TMP/t" "$@" >/dev/null 2>"$TMP/err"; then
		echo "$name $(tail -1 "$TMP/t")" >>"$TMP/runs"
	else
		echo "  ($name failed: $(head -c 300 "$TMP/err"))" >&2
	fi
}

echo "mmscope many: $(uname -n), $NCPU CPUs, $(date -u '+%F %H:%M UTC'), $REPEAT rounds"
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "$N recordings ($((${#src[@]} < N ? ${#src[@]} : N)) distinct, real, from samples/ and tests/data), $(awk -v b="$bytes" 'BEGIN { printf "%.1f MB", b / 1e6 }'), $events events"

# The machine's own limit: the recordings cut in NCPU groups, each group
# a separate one-thread compare pinned to its own CPU, all at once. Two
# vCPUs of a VM may share a core or its caches; no program can scale
# better than separate processes do.
groups=()
for c in $(seq 0 $((NCPU - 1))); do
	g=()
	for i in "${!cols[@]}"; do
		[ $((i % NCPU)) -eq "$c" ] && g+=("${cols[$i]}")
	done
	groups+=("$(printf '%q ' "${g[@]}")")
done
machine() {
	local start end pids=()
	start=$(date +%s%N)
	for c in $(seq 0 $((NCPU - 1))); do
		eval "taskset -c $c \"\$MMSCOPE\" compare --jobs 1 ${groups[$c]}" >/dev/null 2>&1 &
		pids+=($!)
	done
	wait "${pids[@]}"
	end=$(date +%s%N)
	echo "machine-all $(awk -v ns=$((end - start)) 'BEGIN { printf "%.2f", ns / 1e9 }') 0 0 0" >>"$TMP/runs"
}

: >"$TMP/runs"
for _ in $(seq "$REPEAT"); do
	run compare-serial taskset -c 0 "$MMSCOPE" compare --jobs 1 "${cols[@]}"
	run compare-all "$MMSCOPE" compare --jobs "$NCPU" "${cols[@]}"
	machine
	rm -rf "$TMP/x1" "$TMP/x2"
	run export-serial taskset -c 0 "$MMSCOPE" export --jobs 1 -o "$TMP/x1" "${files[@]}"
	run export-all "$MMSCOPE" export --jobs "$NCPU" -o "$TMP/x2" "${files[@]}"
done
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
# A VM's speed drifts by a third within a minute here, so the target is
# judged on each round's own pair (parallel right after serial), the
# median over the rounds; the best walls are shown beside it.
awk -v ncpu="$NCPU" '
function median(list,    a, n, i, j, t) {
	n = split(list, a, " ")
	for (i = 1; i <= n; i++)
		for (j = i + 1; j <= n; j++)
			if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
{
	if (!($1 in wall) || $2 < wall[$1]) { wall[$1] = $2; cpu[$1] = $3 + $4 }
	if ($5 > rss[$1]) rss[$1] = $5
	t = $1; sub(/-.*/, "", t)
	if ($1 ~ /-serial$/) last[t] = $2
	if ($1 ~ /-all$/ && t != "machine" && last[t] > 0)
		ratios[t] = ratios[t] " " $2 / last[t]
	if (t == "machine" && last["compare"] > 0)
		ratios[t] = ratios[t] " " $2 / last["compare"]
}
END {
	printf "%-34s %8s %8s %9s\n", "tool (best of the rounds)", "wall_s", "cpu_s", "peak_MB"
	split("compare export", tl, " ")
	for (i = 1; i <= 2; i++) {
		s = tl[i] "-serial"; a = tl[i] "-all"
		printf "%-34s %8.2f %8.2f %9.1f\n", tl[i] " (1 core, serial)", wall[s], cpu[s], rss[s] / 1024
		printf "%-34s %8.2f %8.2f %9.1f\n", tl[i] " (" ncpu " cores, parallel)", wall[a], cpu[a], rss[a] / 1024
	}
	if ("machine" in ratios)
		printf "machine limit: %d one-thread processes, one per CPU, against serial compare: %.2fx (median of rounds)\n",
			ncpu, median(ratios["machine"])
	for (i = 1; i <= 2; i++) {
		s = tl[i] "-serial"; a = tl[i] "-all"
		if (!(tl[i] in ratios))
			continue
		r = median(ratios[tl[i]])
		printf "target %s of the recordings on %d cores <= 0.6x the serial time: %.2fx (median of the rounds; best walls %.2fx) %s; peak RSS %.1f MB against %.1f MB serial\n",
			tl[i], ncpu, r, (wall[s] > 0 ? wall[a] / wall[s] : 0), (r <= 0.6 ? "MET" : "NOT MET"), rss[a] / 1024, rss[s] / 1024
	}
}' "$TMP/runs"
