#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# collect-kernel-facts.sh KERNEL|host [DATA_DIR] [run-vm options]
#
# Run scenarios/kernel-facts.sh on a Debian kernel in qemu (KERNEL = 6.1,
# 6.12, 7.x, M.N; see fetch-kernel.sh) or on the running host ("host"), and
# store the result under DATA_DIR/<uname -r>/ (default tests/data/kernels).
# Adds package.txt (package versions, how collected), config-mm.txt
# (selected CONFIG_ lines) and, for guests, vm-timing.txt. The symbol list
# is compressed with xz when it is larger than 200 KB.
set -euo pipefail

die() { echo "collect-kernel-facts: $*" >&2; exit "${2:-1}"; }
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
[ $# -ge 1 ] || die "usage: collect-kernel-facts.sh KERNEL|host [DATA_DIR] [run-vm options]"
KERNEL=$1; shift
DATA=$REPO/tests/data/kernels
if [ $# -gt 0 ] && [ "${1#--}" = "$1" ]; then DATA=$1; shift; fi
CACHE=${MMSCOPE_VM_CACHE:-$REPO/build/vm-cache}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/mmscope-collect.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
RAW=$tmp/out
mkdir -p "$RAW"

CONFIG_RE='^(# )?CONFIG_(KPROBES|KPROBE_EVENTS|UPROBE_EVENTS|DYNAMIC_FTRACE|FTRACE_SYSCALLS|PROBE_EVENTS_BTF_ARGS|DEBUG_INFO_BTF|DEBUG_INFO_BTF_MODULES|IKCONFIG|SWAP|ZSWAP|ZSWAP_DEFAULT_ON|ZSWAP_SHRINKER_DEFAULT_ON|ZSWAP_COMPRESSOR_DEFAULT|ZSWAP_ZPOOL_DEFAULT|ZSMALLOC|ZBUD|Z3FOLD|ZRAM|THP_SWAP|TRANSPARENT_HUGEPAGE|TRANSPARENT_HUGEPAGE_ALWAYS|TRANSPARENT_HUGEPAGE_MADVISE|COMPACTION|MIGRATION|LRU_GEN|LRU_GEN_ENABLED|MEMCG|PSI|PSI_DEFAULT_DISABLED|NUMA|NR_CPUS|PAGE_REPORTING|BLK_DEV_LOOP|VIRTIO_BLK|VIRTIO_PCI|NET_9P|9P_FS|NETFS_SUPPORT)(=| is not set)'
if [ "$KERNEL" = host ]; then
	t0=$(date +%s.%N)
	"$HERE/host-kernel-facts.sh" "$RAW"
	t1=$(date +%s.%N)
	if [ -r /proc/config.gz ]; then
		zcat /proc/config.gz | grep -E "$CONFIG_RE" > "$tmp/config-mm.txt" || true
	elif [ -r "/boot/config-$(uname -r)" ]; then
		grep -E "$CONFIG_RE" "/boot/config-$(uname -r)" > "$tmp/config-mm.txt" || true
	fi
	pkg="host kernel (not a Debian package): $(cat "$RAW/proc-version.txt")"
	how="tests/vm/collect-kernel-facts.sh host (tests/vm/host-kernel-facts.sh: scenarios/kernel-facts.sh without the kprobe test)"
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "total_wall_s=%.1f\n", b - a }' > "$tmp/timing"
else
	set +e
	"$HERE/run-vm.sh" "$KERNEL" "$HERE/scenarios/kernel-facts.sh" "$RAW" "$@"
	rc=$?
	set -e
	[ $rc -eq 0 ] || die "run-vm.sh $KERNEL failed (exit $rc)" "$rc"
	kenv=$("$HERE/fetch-kernel.sh" "$KERNEL" "$CACHE")
	KERNEL_CONFIG='' KERNEL_PACKAGES=''
	eval "$kenv"
	[ -z "$KERNEL_CONFIG" ] || grep -E "$CONFIG_RE" "$KERNEL_CONFIG" > "$tmp/config-mm.txt" || true
	pkg="$KERNEL_PACKAGES"
	how="tests/vm/collect-kernel-facts.sh $KERNEL (tests/vm/run-vm.sh $KERNEL tests/vm/scenarios/kernel-facts.sh, qemu TCG)"
	cp "$RAW/vm-timing.txt" "$tmp/timing"
fi

ver=$(cat "$RAW/uname-r.txt")
[ -n "$ver" ] || die "no uname -r in the output"
DEST=$DATA/$ver
rm -rf "$DEST"
mkdir -p "$DEST"
for f in uname-r.txt proc-version.txt kallsyms-functions.txt filter-functions.txt event-systems.txt \
	vmstat-fields.txt zoneinfo.txt thp-stats.txt zswap-params.txt features.txt kprobes.txt; do
	[ -e "$RAW/$f" ] && cp "$RAW/$f" "$DEST/"
done
for d in events kprobes; do
	[ -d "$RAW/$d" ] && cp -r "$RAW/$d" "$DEST/"
done
if [ "$(stat -c %s "$DEST/kallsyms-functions.txt")" -gt 200000 ]; then
	xz -9 "$DEST/kallsyms-functions.txt"
fi
[ -s "$tmp/config-mm.txt" ] && cp "$tmp/config-mm.txt" "$DEST/config-mm.txt"
cp "$tmp/timing" "$DEST/timing.txt"
{
	echo "kernel=$ver"
	echo "packages=$pkg"
	echo "collected_with=$how"
	echo "collected_on=$(date -u +%Y-%m-%d)"
} > "$DEST/package.txt"
echo "collect-kernel-facts: $DEST ($(du -sk "$DEST" | cut -f1) KiB)"
