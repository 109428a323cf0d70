#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# check-matrix.sh ["KERNELS"] ["SCENARIOS"]   (what `make check-vm` runs)
#
# Runs tests/vm/check-scenario.sh for every kernel x scenario, one VM after
# the other, and prints one automake-style line per case:
#   PASS: 6.12 memcg-swap
#   FAIL: 7.x zswap            (followed by the failed checks, indented)
#   SKIP: 6.1 zswap (reason)
# A case whose guest stops without any status (check-scenario.sh exit 3:
# qemu or the guest failed before the scenario could say how it ended)
# is booted once more, after a "RETRY:" line with what the first boot
# showed; a second such stop is a FAIL.
# then the wall time of the matrix and of each case (each PASS/FAIL line
# also ends with its own). Exit status 1 if any case failed.
# Defaults: kernels "5.10 6.1 6.12 7.2 7.x", scenarios "memcg-swap global-pressure
# mthp-frag zswap". MMSCOPE (or top_builddir) names the mmscope to test;
# MMSCOPE_VM_KEEP=DIR keeps each case's guest output in DIR/KERNEL-SCENARIO.
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
fails=0 times=''
for k in $KERNELS; do
	for s in $SCENARIOS; do
		args=()
		if [ -n "${MMSCOPE_VM_KEEP:-}" ]; then
			mkdir -p "$MMSCOPE_VM_KEEP/$k-$s"
			args=(--out "$MMSCOPE_VM_KEEP/$k-$s")
		fi
		c0=$(date +%s)
		rc=0
		"$HERE/check-scenario.sh" "$k" "$s" "${args[@]}" >"$tmp/case.log" 2>&1 || rc=$?
		retried=''
		if [ $rc = 3 ]; then
			# The guest stopped without a status (the lab failed, not a
			# check): boot once more, and show what the first boot said.
			retried=" (second boot; the first left no status, see above)"
			echo "RETRY: $k $s"
			sed 's/^/    /' "$tmp/case.log" | head -30
			rc=0
			"$HERE/check-scenario.sh" "$k" "$s" "${args[@]}" >"$tmp/case.log" 2>&1 || rc=$?
		fi
		dt=$(( $(date +%s) - c0 ))
		times="$times $k/$s=${dt}s"
		case $rc in
		0) echo "PASS: $k $s$retried (${dt} s)" ;;
		77) echo "SKIP: $k $s ($(sed -n 's/^  skipped: [^:]*: //p' "$tmp/case.log" | head -1))" ;;
		*)
			case " ${VM_XFAIL:-} " in
			*" $k/$s "*)
				echo "XFAIL: $k $s (${dt} s; known, tests/vm/README.md)"
				grep -vE '^  (ok|time):' "$tmp/case.log" | sed 's/^/    /' | head -30 ;;
			*)
				echo "FAIL: $k $s (${dt} s)"
				grep -vE '^  (ok|time):' "$tmp/case.log" | sed 's/^/    /' | head -30
				fails=$((fails + 1)) ;;
			esac ;;
		esac
		if [ "$rc" = 0 ]; then
			case " ${VM_XFAIL:-} " in
			*" $k/$s "*) echo "    (listed in VM_XFAIL, passed this time)" ;;
			esac
		fi
	done
done
echo "check-vm: matrix took $(( $(date +%s) - t0 ))s:$times"
[ $fails -eq 0 ]
