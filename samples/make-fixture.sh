#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# make-fixture.sh: record a small real trace.dat of memory-management
# activity on this machine, for mmscope's reader/parser/report tests.
#
# usage: make-fixture.sh [--churn] SCENARIO OUTFILE [ANON_TOUCH_BINARY]
#
#   SCENARIO   memcg-swap | mthp-swap | compaction
#   OUTFILE    trace.dat to write (trace-cmd extract: v7, zstd)
#   ANON_TOUCH_BINARY
#              a built samples/workloads/anon-touch; if absent the script
#              builds it with `cc -O2` into a temporary directory
#   --churn    also enable kmem:mm_page_alloc and kmem:mm_page_free
#              (many more events; off by default)
#
# Must run as root. It creates a tracefs instance mmscope-fixture-$$,
# enables vmscan, compaction, oom and kmem:mm_page_alloc_extfrag in it,
# sets up the scenario, runs the workload, and writes the instance's
# buffer with `trace-cmd extract -B INSTANCE -o OUTFILE` (which also
# deletes the instance). Whatever it creates or changes (swap, loop
# device, backing file, memory cgroup, instance, mTHP/THP/zswap settings)
# is undone on exit, including on error, SIGINT and SIGTERM.
#
# Tunables (environment):
#   FIXTURE_BUFFER_KB   per-CPU buffer size of the instance (16384)
#   FIXTURE_SWAP_MB     size of the loop-device swap backing file (2048)
#   FIXTURE_LIMIT_MB    memcg v1 limit for the swap scenarios (256)
#   FIXTURE_MB          MiB the workload touches (memcg-swap 300,
#                       mthp-swap 400, compaction 4096)
#   FIXTURE_ALLOW_LOSS  1: keep a recording whose ring lost events
#                       (default: fail, so that fixtures are complete)
#   FIXTURE_PASSES      passes over it (swap scenarios: 2)
#   FIXTURE_KEEP        compaction: keep 1 base page in KEEP (2)
#   FIXTURE_TMPDIR      where the swap backing file goes (/var/tmp)

set -euo pipefail

TRACEFS=/sys/kernel/tracing
CGV1=/sys/fs/cgroup/memory
THP=/sys/kernel/mm/transparent_hugepage
ZSWAP_EN=/sys/module/zswap/parameters/enabled
NAME="mmscope-fixture-$$"
INST="$TRACEFS/instances/$NAME"
CG="$CGV1/$NAME"

CHURN=0
if [[ ${1:-} == --churn ]]; then
	CHURN=1
	shift
fi

usage() {
	echo "usage: $0 [--churn] memcg-swap|mthp-swap|compaction OUTFILE [ANON_TOUCH_BINARY]" >&2
	exit 1
}

[[ $# -ge 2 && $# -le 3 ]] || usage
SCENARIO=$1
OUT=$2
BIN=${3:-}
case $SCENARIO in
memcg-swap | mthp-swap | compaction) ;;
*) usage ;;
esac
[[ $(id -u) -eq 0 ]] || { echo "$0: must run as root" >&2; exit 1; }
[[ -d $TRACEFS/instances ]] || { echo "$0: no tracefs at $TRACEFS" >&2; exit 1; }
command -v trace-cmd >/dev/null || { echo "$0: trace-cmd not found" >&2; exit 1; }

BUFFER_KB=${FIXTURE_BUFFER_KB:-16384}
SWAP_MB=${FIXTURE_SWAP_MB:-2048}
LIMIT_MB=${FIXTURE_LIMIT_MB:-256}
PASSES=${FIXTURE_PASSES:-2}
KEEP=${FIXTURE_KEEP:-2}
SWAPDIR=${FIXTURE_TMPDIR:-/var/tmp}
# Default sizes keep each recording between ~5k and ~200k events. With
# base pages every swapped-out page is one mm_vmscan_write_folio event, so
# memcg-swap touches less than mthp-swap (one event per 64K folio).
case $SCENARIO in
memcg-swap) MB=${FIXTURE_MB:-300} ;;
mthp-swap) MB=${FIXTURE_MB:-400} ;;
compaction) MB=${FIXTURE_MB:-4096} ;;
esac

# ---------------------------------------------------------------- cleanup
TMPD=""
SWAPFILE=""
LOOP=""
SWAP_ON=0
WORKPID=""
declare -a RESTORE_PATHS=()
declare -a RESTORE_VALUES=()

log() { printf 'make-fixture: %s\n' "$*" >&2; }

cleanup() {
	local rc=$? i pids
	trap - EXIT INT TERM
	set +e
	if [[ -n $WORKPID ]] && kill -0 "$WORKPID" 2>/dev/null; then
		kill "$WORKPID" 2>/dev/null
		wait "$WORKPID" 2>/dev/null
	fi
	if [[ -d $INST ]]; then
		echo 0 >"$INST/tracing_on"
		echo 0 >"$INST/events/enable"
		rmdir "$INST" || log "could not remove instance $INST"
	fi
	# Empty the memcg (only our workload can be in it) and lift its limit,
	# so that swapoff can bring back anything still charged to it.
	if [[ -d $CG ]]; then
		for i in $(seq 20); do
			pids=$(<"$CG/cgroup.procs")
			[[ -z $pids ]] && break
			# shellcheck disable=SC2086
			kill -KILL $pids 2>/dev/null
			sleep 0.5
		done
		echo -1 >"$CG/memory.limit_in_bytes" 2>/dev/null
	fi
	if [[ $SWAP_ON -eq 1 && -n $LOOP ]]; then
		for i in $(seq 10); do
			swapoff "$LOOP" 2>/dev/null && { SWAP_ON=0; break; }
			sleep 1
		done
		[[ $SWAP_ON -eq 0 ]] ||
			log "swapoff $LOOP failed: run 'swapoff $LOOP; losetup -d $LOOP; rm $SWAPFILE'"
	fi
	if [[ $SWAP_ON -eq 0 ]]; then
		if [[ -n $LOOP ]]; then
			losetup -d "$LOOP" || log "losetup -d $LOOP failed"
		fi
		[[ -n $SWAPFILE ]] && rm -f "$SWAPFILE"
	fi
	if [[ -d $CG ]]; then
		for i in $(seq 10); do
			rmdir "$CG" 2>/dev/null && break
			sleep 0.5
		done
		[[ -d $CG ]] && log "could not remove cgroup $CG"
	fi
	# restore settings in reverse order of change
	for ((i = ${#RESTORE_PATHS[@]} - 1; i >= 0; i--)); do
		echo "${RESTORE_VALUES[i]}" >"${RESTORE_PATHS[i]}" ||
			log "could not restore ${RESTORE_PATHS[i]}=${RESTORE_VALUES[i]}"
	done
	[[ -n $TMPD ]] && rm -rf "$TMPD"
	exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Current value of a sysfs setting: the bracketed word if there is one
# ("always [madvise] never" -> madvise), else the whole content.
sysfs_value() {
	local v
	v=$(<"$1")
	if [[ $v =~ \[([^]]+)\] ]]; then
		printf '%s' "${BASH_REMATCH[1]}"
	else
		printf '%s' "$v"
	fi
}

# set_sysfs PATH VALUE: save the old value for cleanup, then write.
set_sysfs() {
	local old
	old=$(sysfs_value "$1")
	if [[ $old == "$2" ]]; then
		return 0
	fi
	RESTORE_PATHS+=("$1")
	RESTORE_VALUES+=("$old")
	echo "$2" >"$1"
	log "set $1: $old -> $2"
}

# ---------------------------------------------------------------- workload
TMPD=$(mktemp -d /tmp/mmscope-fixture.XXXXXX)
if [[ -z $BIN ]]; then
	SRC="$(cd "$(dirname "$0")" && pwd)/workloads/anon-touch.c"
	BIN="$TMPD/anon-touch"
	cc -std=c99 -O2 -Wall -Wextra -o "$BIN" "$SRC"
fi
[[ -x $BIN ]] || { echo "$0: $BIN is not executable" >&2; exit 1; }

# ---------------------------------------------------------------- counters
VMSTAT_KEYS="pswpout pswpin pgscan_direct pgsteal_direct pgscan_kswapd
pgsteal_kswapd pgdemote_direct thp_swpout thp_swpout_fallback
compact_stall compact_fail compact_success compact_migrate_scanned
compact_free_scanned compact_isolated compact_daemon_wake
compact_daemon_migrate_scanned compact_daemon_free_scanned
pgmigrate_success pgmigrate_fail thp_fault_alloc thp_fault_fallback
oom_kill workingset_refault_anon"
MTHP_KEYS="anon_fault_alloc anon_fault_fallback anon_fault_fallback_charge swpout swpout_fallback
zswpout swpin split"

snapshot() { # FILE
	{
		cat /proc/vmstat
		local d k
		for d in "$THP"/hugepages-*kB; do
			[[ -d $d/stats ]] || continue
			for k in $MTHP_KEYS; do
				[[ -r $d/stats/$k ]] &&
					echo "mthp_${d##*hugepages-}_$k $(<"$d/stats/$k")"
			done
		done
	} >"$1"
}

print_deltas() { # BEFORE AFTER
	local k
	echo "vmstat deltas over the run (non-zero):"
	awk -v keys="$VMSTAT_KEYS" '
		NR == FNR { before[$1] = $2; next }
		{ after[$1] = $2 }
		END {
			n = split(keys, k, /[ \n]+/)
			for (i = 1; i <= n; i++) {
				if (k[i] == "" || !(k[i] in after)) continue
				d = after[k[i]] - before[k[i]]
				if (d != 0) printf "  %-40s %+d\n", k[i], d
			}
			for (key in after)
				if (key ~ /^mthp_/ && after[key] != before[key])
					printf "  %-40s %+d\n", key, after[key] - before[key]
		}' "$1" "$2" | sort -k1,1
}

# ---------------------------------------------------------------- scenario
setup_swap() {
	if [[ -e $ZSWAP_EN ]]; then
		set_sysfs "$ZSWAP_EN" N
	fi
	SWAPFILE="$SWAPDIR/$NAME.swap"
	fallocate -l "${SWAP_MB}M" "$SWAPFILE"
	chmod 600 "$SWAPFILE"
	LOOP=$(losetup -f --show "$SWAPFILE")
	mkswap -q "$LOOP" >/dev/null
	swapon -p 10 "$LOOP"
	SWAP_ON=1
	log "swap on $LOOP (${SWAP_MB} MiB, backing $SWAPFILE)"

	[[ -d $CGV1 ]] || { log "no cgroup v1 memory controller at $CGV1"; exit 1; }
	mkdir "$CG"
	echo "$((LIMIT_MB << 20))" >"$CG/memory.limit_in_bytes"
	log "memcg $CG limit ${LIMIT_MB} MiB"
}

setup_mthp() {
	# 64K mTHP always; the PMD size off so that only 64K folios are used.
	set_sysfs "$THP/hugepages-64kB/enabled" always
	# A per-size "always" works whatever the top-level setting says; the
	# top-level one only matters to sizes set to "inherit", which the PMD
	# size usually is.
	if [[ -e $THP/hugepages-2048kB/enabled ]]; then
		set_sysfs "$THP/hugepages-2048kB/enabled" never
	fi
}

# Start "$@" in the background inside the memcg; WORKPID is its PID (the
# sh moves itself into the cgroup, then execs the workload).
start_in_cgroup() {
	# shellcheck disable=SC2016
	sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$CG" "$@" &
	WORKPID=$!
}

# ---------------------------------------------------------------- tracing
setup_instance() {
	mkdir "$INST"
	echo 0 >"$INST/tracing_on"
	echo "$BUFFER_KB" >"$INST/buffer_size_kb"
	echo 1 >"$INST/events/vmscan/enable"
	echo 1 >"$INST/events/compaction/enable"
	echo 1 >"$INST/events/oom/enable"
	echo 1 >"$INST/events/kmem/mm_page_alloc_extfrag/enable"
	if [[ $CHURN -eq 1 ]]; then
		echo 1 >"$INST/events/kmem/mm_page_alloc/enable"
		echo 1 >"$INST/events/kmem/mm_page_free/enable"
	fi
	log "instance $INST, ${BUFFER_KB} KiB per CPU, churn=$CHURN"
}

case $SCENARIO in
memcg-swap) setup_swap ;;
mthp-swap)
	setup_swap
	setup_mthp
	;;
compaction) ;;
esac

setup_instance
snapshot "$TMPD/before"
T0=$(date +%s.%N)
echo 1 >"$INST/tracing_on"

# Workloads run in the background and are waited for, so that SIGINT or
# SIGTERM reaches the trap at once (cleanup kills the workload).
case $SCENARIO in
memcg-swap)
	start_in_cgroup "$BIN" -m "$MB" -p "$PASSES" -N
	wait "$WORKPID"
	WORKPID=""
	;;
mthp-swap)
	# MADV_HUGEPAGE: with defrag=madvise it lets the 64K faults reclaim
	# in the memcg instead of falling back to 4K when the charge fails.
	start_in_cgroup "$BIN" -m "$MB" -p "$PASSES" -H
	wait "$WORKPID"
	WORKPID=""
	;;
compaction)
	# Fragment: touch MB of base pages, free all but 1 in KEEP, hold them
	# while all zones are compacted. compaction_proactiveness is left
	# as it is, so kcompactd may add proactive runs of its own.
	"$BIN" -m "$MB" -N -f "$KEEP" -s 120 >"$TMPD/work.out" &
	WORKPID=$!
	for _ in $(seq 600); do
		grep -q '^ready' "$TMPD/work.out" && break
		kill -0 "$WORKPID" 2>/dev/null || { log "workload died"; exit 1; }
		sleep 0.1
	done
	grep -q '^ready' "$TMPD/work.out" || { log "workload not ready after 60 s"; exit 1; }
	cat "$TMPD/work.out" >&2
	cp /proc/buddyinfo "$TMPD/buddyinfo.fragmented"
	log "writing 1 to /proc/sys/vm/compact_memory"
	timeout 50 sh -c 'echo 1 >/proc/sys/vm/compact_memory' &
	wait $! || log "compact_memory failed or did not finish in 50 s"
	cp /proc/buddyinfo "$TMPD/buddyinfo.compacted"
	kill "$WORKPID"
	wait "$WORKPID" || true
	WORKPID=""
	;;
esac

echo 0 >"$INST/tracing_on"
T1=$(date +%s.%N)
snapshot "$TMPD/after"

# Per-CPU ring stats: in non-overwrite mode drops are not marked in the
# pages, only here.
echo "ring buffer stats (per CPU):"
LOST=0
for d in "$INST"/per_cpu/cpu*; do
	printf '  %s: %s\n' "${d##*/}" \
		"$(grep -E '^(entries|overrun|dropped events):' "$d/stats" | tr '\n' ' ')"
	LOST=$((LOST + $(awk -F': *' '$1 == "overrun" || $1 == "dropped events" { n += $2 } END { print n + 0 }' "$d/stats")))
done
if [[ $LOST -gt 0 && ${FIXTURE_ALLOW_LOSS:-0} != 1 ]]; then
	log "the ring lost $LOST events: raise FIXTURE_BUFFER_KB or lower FIXTURE_MB"
	exit 1
fi

trace-cmd extract -B "$NAME" -o "$OUT" >"$TMPD/extract.log" 2>&1 || {
	cat "$TMPD/extract.log" >&2
	exit 1
}

echo "scenario: $SCENARIO (churn=$CHURN), kernel $(uname -r), $(date -u +%FT%TZ)"
echo "workload: $BIN, MB=$MB$( [[ $SCENARIO != compaction ]] && echo " passes=$PASSES limit=${LIMIT_MB}M swap=${SWAP_MB}M")"
awk -v a="$T0" -v b="$T1" 'BEGIN { printf "duration: %.1f s\n", b - a }'
echo "output: $OUT ($(stat -c %s "$OUT") bytes)"
print_deltas "$TMPD/before" "$TMPD/after"
if [[ -e $TMPD/buddyinfo.compacted ]]; then
	echo "/proc/buddyinfo, fragmented (before compact_memory):"
	sed 's/^/  /' "$TMPD/buddyinfo.fragmented"
	echo "/proc/buddyinfo, after compact_memory (workload still holding):"
	sed 's/^/  /' "$TMPD/buddyinfo.compacted"
fi
echo "events per name (trace-cmd report):"
trace-cmd report "$OUT" 2>/dev/null |
	sed -n 's/^.*\[[0-9]\{3,\}\] *[0-9]\+\.[0-9]\+: \([a-z0-9_]\+\):.*/\1/p' |
	sort | uniq -c | sort -rn | awk '{ t += $1; printf "  %8d %s\n", $1, $2 } END { printf "  %8d total\n", t }'
