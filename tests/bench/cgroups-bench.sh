#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# cgroups-bench.sh: the CPU cost of `mmscope record --cgroups` (issue 34),
# goal under 5 ms of CPU for one 1 s sample set of 200 memory cgroups. Not
# a test: it prints the figures and whether the goal is met. Needs root
# and cgroup v1's memory controller at /sys/fs/cgroup/memory (this
# project's hosts); makes 200 empty cgroups under
# /sys/fs/cgroup/memory/mmscope-bench-cg-PID and removes them on exit.
#
# usage: tests/bench/cgroups-bench.sh [BUILDDIR] [SETS]
#
# tests/bench/sampler-bench runs the sampler as the recorder does (a full
# set, then SETS routine sets 1 s apart, the tree walked again every 5 s)
# with lines written to /dev/null; it is run without --cgroups (the other
# sources alone), then on the 200 cgroups with --cgroups-max 64 (the
# default: 64 one by one, 136 summed) and 200 (every one). The cost of
# --cgroups is the difference, per set.
set -u
B=$(cd "${1:-$(pwd)}" && pwd)
SETS=${2:-20}
N=200
V1=/sys/fs/cgroup/memory
ROOT=$V1/mmscope-bench-cg-$$
[ "$(id -u)" -eq 0 ] || { echo "cgroups-bench: needs root" >&2; exit 1; }
[ -f $V1/memory.usage_in_bytes ] || { echo "cgroups-bench: no cgroup v1 memory controller at $V1" >&2; exit 1; }
make -C "$B" -s tests/bench/sampler-bench >/dev/null || exit 1
SB=$B/tests/bench/sampler-bench

cleanup() {
	for i in $(seq 1 $N); do rmdir "$ROOT/c$i" 2>/dev/null; done
	rmdir "$ROOT" 2>/dev/null
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
mkdir "$ROOT" || exit 1
for i in $(seq 1 $N); do mkdir "$ROOT/c$i" || exit 1; done

echo "cgroups-bench: $(date -u '+%Y-%m-%d %H:%M UTC'), load $(cut -d' ' -f1-3 /proc/loadavg)," \
	"$(nproc) CPUs, kernel $(uname -r)"
echo "$N cgroups + ROOT under $V1, $SETS routine sets 1 s apart"
base=$("$SB" "$SETS" 1000) || exit 1
echo "without --cgroups:       $base"
for max in 64 200; do
	r=$("$SB" "$SETS" 1000 "$ROOT" "$max") || exit 1
	echo "--cgroups-max $max: $r"
	b=$(echo "$base" | sed 's/.*cpu_ms_per_set=\([0-9.]*\).*/\1/')
	c=$(echo "$r" | sed 's/.*cpu_ms_per_set=\([0-9.]*\).*/\1/')
	awk -v b="$b" -v c="$c" -v m="$max" 'BEGIN {
		d = c - b
		printf "  --cgroups cost per 1 s set (max %d): %.3f ms CPU; goal < 5 ms: %s\n",
			m, d, d < 5 ? "met" : "NOT met" }'
done
