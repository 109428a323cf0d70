#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Scenario page-facts (not in the matrix): the page geometry a kernel
# shows, for tests/vm/README.md's facts on arm64 16K kernels (issue 43):
# page size (AT_PAGESZ, smaps), PMD THP size, the hugepages-NkB
# directories, the buddy allocator's orders, MGLRU, the ring buffer's
# page (tracefs header_page), and what the kernel's own config says of
# CONFIG_THP_SWAP (run-vm.sh puts it in /boot). Everything goes to the
# log (and page-facts.txt).
# vm-mem: 512
# vm-timeout: 120
set -eu
# shellcheck disable=SC3040 # busybox ash has pipefail
(set -o pipefail) 2>/dev/null && set -o pipefail

OUT=${MMSCOPE_OUT:-/out}
. /usr/local/lib/scenario-lib.sh

echo "uname_r=$(uname -r) machine=$(uname -m)"
cat "$OUT/page-facts.txt"
awk '$1 == "Hugepagesize:" { print "meminfo_hugepagesize_kb=" $2 }' /proc/meminfo
sed 's/^/buddyinfo: /' /proc/buddyinfo
# (a size without anonymous THP, e.g. order 1, has no enabled file)
for d in $THP/hugepages-*kB; do
	[ -d "$d" ] || continue
	echo "$(basename "$d"): $(cd "$d" && ls | tr '\n' ' ')enabled=$(sed 's/.*\[\(.*\)\].*/\1/' "$d/enabled" 2>/dev/null || echo none)"
done
sed -n 's/^\tfield: \(.*\)/header_page: \1/p' /sys/kernel/tracing/events/header_page 2>/dev/null
cfg=/boot/config-$(uname -r)
if [ -r "$cfg" ]; then
	grep -E '^(# )?CONFIG_(THP_SWAP|ARM64_(4K|16K|64K)_PAGES|ARM64_VA_BITS|ARCH_FORCE_MAX_ORDER|LRU_GEN|LRU_GEN_ENABLED|ZSWAP|ZRAM|TRANSPARENT_HUGEPAGE)[= ]' "$cfg" | sed 's/^/config: /'
else
	echo "config: no $cfg"
fi
finish
