#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# check-matrix.sh ["KERNELS"] ["SCENARIOS"]   (what `make check-vm` runs)
#
# Runs every kernel x scenario case, each kernel's cases in one boot
# (check-scenario.sh with all its scenarios, then one --no-run check per
# scenario; VM_BOOT_EACH=1: a boot per case), and prints one
# automake-style line per case (a "BOOT:" line per kernel before them):
#   PASS: 6.12 memcg-swap
#   FAIL: 7.x zswap            (followed by the failed checks, indented)
#   SKIP: 6.1 zswap (reason)
# A case whose guest dies or hangs without a status at boot, in the
# scenario's setup or after mmscope's runs (check-scenario.sh exit 3: qemu
# or the guest kernel failed, not a check) is booted once more, after a
# "RETRY:" line with what the first boot showed; a second such death is a
# SKIP naming the phase and the guest's oops or panic line. A guest that
# dies while mmscope records is a FAIL at once, unless its oops is qemu
# TCG's text-poke race (poke-race.awk), which is the lab's as above.
# then the wall time of the matrix and of each case (each PASS/FAIL line
# also ends with its own). Exit status 1 if any case failed.
# Defaults: kernels "5.10 6.1 6.12 7.2 7.x", scenarios "memcg-swap global-pressure
# mthp-frag zswap". MMSCOPE (or top_builddir) names the mmscope to test;
# MMSCOPE_VM_KEEP=DIR keeps each case's guest output in DIR/KERNEL-SCENARIO.
# An arm64-* kernel (arm64-6.12) runs only the scenarios of
# VM_ARM64_SCENARIOS (default "memcg-swap mthp-frag global-pressure"), an
# arm64-16k-* kernel (16 KB pages) those of VM_ARM64_16K_SCENARIOS
# (default "memcg-swap mthp-frag": the scan rounding of a memcg small in
# pages, and mTHP swap-out split by configuration without THP_SWAP;
# global-pressure passes there too but costs 100-150 s a kernel), with
# mmscope cross-built once before the first case (cross-build.sh, in
# MMSCOPE_ARM64_BUILD or <build>/vm-arm64) unless MMSCOPE_ARM64 names one.
# VM_JOBS=N runs N cases at a time (default 1); each case's lines are
# printed together when it ends, so with N > 1 they come in the order the
# cases end.
# VM_XFAIL="KERNEL/SCENARIO ..." names cases known to fail on a kernel's
# own behaviour (each one described under "Known problems" in
# tests/vm/README.md): such a failure prints "XFAIL:" with its failed
# checks and does not fail the matrix; when it passes it is a PASS that
# says so. Every other check of the case still runs and is shown.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
KERNELS=${1:-5.10 6.1 6.12 7.2 7.x}
SCENARIOS=${2:-memcg-swap global-pressure mthp-frag zswap}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/check-matrix.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

t0=$(date +%s)
# the guests' workloads: built once per compiler for all cases
export MMSCOPE_VM_WORKLOADS=$tmp/workloads
JOBS=${VM_JOBS:-1}
[[ $JOBS =~ ^[1-9][0-9]*$ ]] || { echo "check-matrix: VM_JOBS must be a positive integer" >&2; exit 2; }
ARM64_SCENARIOS=${VM_ARM64_SCENARIOS:-memcg-swap mthp-frag global-pressure}
ARM64_16K_SCENARIOS=${VM_ARM64_16K_SCENARIOS:-memcg-swap mthp-frag}

# the cases, in order: KERNEL/SCENARIO
cases=()
for k in $KERNELS; do
	for s in $SCENARIOS; do
		case $k in
		arm64-16k-*) case " $ARM64_16K_SCENARIOS " in *" $s "*) ;; *) continue ;; esac ;;
		arm64-*) case " $ARM64_SCENARIOS " in *" $s "*) ;; *) continue ;; esac ;;
		esac
		cases+=("$k/$s")
	done
done

# arm64 guests: one cross-built mmscope for all their cases
case " $KERNELS " in
*" arm64-"*)
	if [ -z "${MMSCOPE_ARM64:-}" ]; then
		m=${MMSCOPE:-${top_builddir:-.}/mmscope}
		c0=$(date +%s) rc=0
		"$HERE/cross-build.sh" arm64 "${MMSCOPE_ARM64_BUILD:-$(cd "$(dirname "$m")" && pwd)/vm-arm64}" \
			>"$tmp/cross.log" 2>&1 || rc=$?
		if [ $rc = 0 ]; then
			MMSCOPE_ARM64=$(tail -1 "$tmp/cross.log")
			export MMSCOPE_ARM64
			echo "check-vm: mmscope cross-built for arm64 in $(( $(date +%s) - c0 )) s"
		else
			# each arm64 case then says why (SKIP 77, FAIL otherwise)
			echo "check-vm: cross-build for arm64 failed (exit $rc): $(tail -1 "$tmp/cross.log")"
		fi
	fi ;;
esac

# One case: check-scenario.sh (a second boot when the guest left no
# status); prints its result lines, and its time to $tmp/$1.time.
one_case() {
	local n=$1 k=${2%%/*} s=${2#*/} c0 dt rc=0 retried='' args=() log
	log=$tmp/$1-${2#*/}.log
	if [ -n "${MMSCOPE_VM_KEEP:-}" ]; then
		mkdir -p "$MMSCOPE_VM_KEEP/$k-$s"
		args=(--out "$MMSCOPE_VM_KEEP/$k-$s")
	fi
	c0=$(date +%s)
	"$HERE/check-scenario.sh" "$k" "$s" "${args[@]}" >"$log" 2>&1 || rc=$?
	if [ $rc = 3 ]; then
		# The guest died or hung outside mmscope's work (the lab
		# failed, not a check): boot once more, and show what the
		# first boot said.
		retried=" (second boot; the first left no status, see above)"
		echo "RETRY: $k $s"
		sed 's/^/    /' "$log" | head -30
		rc=0
		"$HERE/check-scenario.sh" "$k" "$s" "${args[@]}" >"$log" 2>&1 || rc=$?
	fi
	dt=$(( $(date +%s) - c0 ))
	echo "$k/$s=${dt}s" >> "$tmp/$n.time"
	verdict "$n" "$k" "$s" $rc "$retried (${dt} s)" "$log"
}

# verdict N KERNEL SCENARIO STATUS SUFFIX LOG: the case's line(s)
verdict() {
	local n=$1 k=$2 s=$3 rc=$4 suffix=$5 log=$6
	case $rc in
	0) echo "PASS: $k $s$suffix" ;;
	77) echo "SKIP: $k $s ($(sed -n 's/^  skipped: [^:]*: //p' "$log" | head -1))" ;;
	3)
		# twice: the lab cannot run this case today; not a FAIL of
		# mmscope, and said with the guest's own words
		echo "SKIP: $k $s (the guest died twice outside mmscope's work; $(sed -n 's/^  guest fault: //p' "$log" | tail -n 1))$suffix"
		grep -vE '^  (ok|time):' "$log" | sed 's/^/    /' | head -30 ;;
	*)
		case " ${VM_XFAIL:-} " in
		*" $k/$s "*)
			echo "XFAIL: $k $s$suffix; known, tests/vm/README.md"
			grep -vE '^  (ok|time):' "$log" | sed 's/^/    /' | head -30 ;;
		*)
			echo "FAIL: $k $s$suffix"
			grep -vE '^  (ok|time):' "$log" | sed 's/^/    /' | head -30
			echo 1 > "$tmp/$n.fail" ;;
		esac ;;
	esac
	if [ "$rc" = 0 ]; then
		case " ${VM_XFAIL:-} " in
		*" $k/$s "*) echo "    (listed in VM_XFAIL, passed this time)" ;;
		esac
	fi
}

# One kernel's cases in one boot (check-scenario.sh with several
# scenarios, scenario-group.sh in the guest), then each scenario's checks
# on what it left. A guest that dies outside mmscope's work is booted
# once more, as one_case does; a scenario the boot did not reach (the
# guest died during an earlier one's recording: that one FAILs) gets a
# boot of its own. Lines as one_case's; each case's time is its own
# time in the guest, and the boot's (shared) is said once.
run_group() {
	local n=$1 k=$2 c0 dt rc=0 retried='' out log=$tmp/$1.log s st t g0 g1 crc
	local -a scens
	read -r -a scens <<<"$3"
	exec >"$tmp/$n.out" 2>&1
	if [ ${#scens[@]} -eq 1 ]; then
		one_case "$n" "$k/${scens[0]}"
		return
	fi
	out=$tmp/g$n
	[ -z "${MMSCOPE_VM_KEEP:-}" ] || out=$MMSCOPE_VM_KEEP/$k
	mkdir -p "$out"
	c0=$(date +%s)
	"$HERE/check-scenario.sh" "$k" "${scens[*]}" --out "$out" >"$log" 2>&1 || rc=$?
	if [ $rc = 3 ]; then
		retried=" (second boot; the first left no status, see above)"
		echo "RETRY: $k ${scens[*]}"
		sed 's/^/    /' "$log" | head -30
		rc=0
		"$HERE/check-scenario.sh" "$k" "${scens[*]}" --out "$out" >"$log" 2>&1 || rc=$?
	fi
	dt=$(( $(date +%s) - c0 ))
	echo "$k/boot+${#scens[@]}=${dt}s" >> "$tmp/$n.time"
	if [ $rc = 77 ] || [ $rc = 3 ]; then
		for s in "${scens[@]}"; do verdict "$n" "$k" "$s" $rc "$retried" "$log"; done
		return
	fi
	echo "BOOT: $k ${scens[*]}: one guest, ${dt} s$retried$(sed -n 's/^  time: / /p' "$log" | head -1)"
	for s in "${scens[@]}"; do
		if [ ! -f "$out/$s/timing" ]; then
			# not reached: its own boot
			one_case "$n" "$k/$s"
			continue
		fi
		g0=$(sed -n 's/^start=//p' "$out/$s/timing") g1=$(sed -n 's/^end=//p' "$out/$s/timing")
		t=$(awk -v a="$g0" -v b="${g1:-$g0}" 'BEGIN { printf "%d", b - a + 0.5 }')
		st=$(cat "$out/$s/status" 2>/dev/null || echo none)
		if [ "$st" = none ]; then
			# the guest died in this one, during mmscope's work
			# (check-scenario.sh exit 1)
			echo "$k/$s=died" >> "$tmp/$n.time"
			verdict "$n" "$k" "$s" 1 " (the guest died in it, $g0 s after its boot)" "$log"
			continue
		fi
		echo "$k/$s=${t}s" >> "$tmp/$n.time"
		if false; then :
		elif [ "$st" != 0 ]; then
			{ echo "  FAILED: $k $s: the scenario ended with status $st; last lines of its log:"
			  tail -15 "$out/$s/log" | sed 's/^/    | /'; } >"$log.$s"
			verdict "$n" "$k" "$s" 1 " (${t} s in the guest)" "$log.$s"
		else
			crc=0
			"$HERE/check-scenario.sh" "$k" "$s" --no-run --out "$out/$s" >"$log.$s" 2>&1 || crc=$?
			verdict "$n" "$k" "$s" $crc " (${t} s in the guest)" "$log.$s"
		fi
	done
}

# the cases by kernel, in order: one boot each (VM_BOOT_EACH=1: one per
# case, as before)
declare -A kscen=()
korder=()
for c in "${cases[@]}"; do
	k=${c%%/*}
	[ -n "${kscen[$k]+x}" ] || korder+=("$k")
	kscen[$k]="${kscen[$k]:-} ${c#*/}"
done
groups=()
for k in "${korder[@]}"; do
	if [ -n "${VM_BOOT_EACH:-}" ]; then
		for s in ${kscen[$k]}; do groups+=("$k|$s"); done
	else
		# global-pressure last: it leaves the most to put back (a full
		# 1 GB zram device, fragmented memory), and after the last one
		# the guest only powers off
		l=''
		for s in ${kscen[$k]}; do [ "$s" = global-pressure ] || l="$l $s"; done
		case " ${kscen[$k]} " in *" global-pressure "*) l="$l global-pressure" ;; esac
		groups+=("$k|${l# }")
	fi
done

running=0
for i in "${!groups[@]}"; do
	if [ "$running" -ge "$JOBS" ]; then
		wait -n || true
		running=$((running - 1))
	fi
	g=${groups[$i]}
	if [ "$JOBS" = 1 ]; then
		( run_group "$i" "${g%%|*}" "${g#*|}" )
		cat "$tmp/$i.out"
	else
		( run_group "$i" "${g%%|*}" "${g#*|}"; cat "$tmp/$i.out" >&3 ) 3>&1 &
		running=$((running + 1))
	fi
done
wait
fails=0 times=''
for i in "${!groups[@]}"; do
	[ -e "$tmp/$i.fail" ] && fails=$((fails + 1))
	times="$times $(tr '\n' ' ' <"$tmp/$i.time" 2>/dev/null || echo "${groups[$i]}=?")"
done
echo "check-vm: matrix took $(( $(date +%s) - t0 ))s ($JOBS at a time, load average $(cut -d' ' -f1-3 /proc/loadavg)):$times"
[ $fails -eq 0 ]
