#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The sampler's lines (man/mmscope-samples.5, a contract): on this host
# with --stdout, and on fake /proc trees made from the 6.1 and 7.3
# kernels' files in tests/data/kernels (6.1 has no promo watermark and no
# free pages in whole blocks; 7.3 has both; neither fake tree has
# buddyinfo, which must be listed as missing).
. "${top_srcdir:-.}/tests/lib.sh"

"$MMSCOPE" sample --stdout --count 3 --interval 50 >"$scratch/host" || fail "sample --stdout failed"
bad=$(grep -cv '^mms1 [a-z]* [0-9][0-9]*\( [A-Za-z0-9_]*=[^ ]*\)*$' "$scratch/host")
[ "$bad" -eq 0 ] && ok "every line is 'mms1 SOURCE SEQ KEY=VALUE...'" ||
	fail "$bad malformed lines: $(grep -v '^mms1 [a-z]* [0-9]' "$scratch/host" | head -2)"
long=$(awk 'length($0) > 1000' "$scratch/host" | wc -l)
[ "$long" -eq 0 ] && ok "no line over 1000 bytes" || fail "$long lines over 1000 bytes"
for seq in 0 1 2; do
	grep -q "^mms1 end $seq us=[0-9]*$" "$scratch/host" || fail "set $seq has no end line"
done
n0=$(grep '^mms1 vmstat 0 ' "$scratch/host" | tr ' ' '\n' | grep -c =)
n1=$(grep '^mms1 vmstat 1 ' "$scratch/host" | tr ' ' '\n' | grep -c =)
nf=$(wc -l </proc/vmstat)
[ "$n0" -eq "$nf" ] && ok "set 0 has all $nf vmstat fields" || fail "set 0 has $n0 of $nf vmstat fields"
[ "$n1" -lt "$n0" ] && ok "set 1 has only changed vmstat fields ($n1)" || fail "set 1 has $n1 fields"
for k in free min low high boost managed spanned; do
	grep '^mms1 zone 0 ' "$scratch/host" | grep -q " $k=[0-9]" || fail "zone lines lack $k"
done
grep -q '^mms1 buddy 0 node=0 zone=[A-Za-z0-9]* free=[0-9,]*$' "$scratch/host" || fail "no buddy line"
[ "$(id -u)" -eq 0 ] && { grep -q '^mms1 pagetype 0 node=0 zone=.* type=.* free=' "$scratch/host" ||
	fail "no pagetype line as root"; }

# fake trees from real kernels' files
fake() { # KERNELDIR ROOT
	mkdir -p "$2/proc"
	cp "$1/zoneinfo.txt" "$2/proc/zoneinfo"
	awk '{ print $1, NR }' "$1/vmstat-fields.txt" >"$2/proc/vmstat"
}
k61=$(ls -d "$top_srcdir"/tests/data/kernels/6.1.* 2>/dev/null | head -1)
k73=$(ls -d "$top_srcdir"/tests/data/kernels/7.3.* 2>/dev/null | head -1)
[ -n "$k61" ] && [ -n "$k73" ] || { fail "no 6.1/7.3 data in tests/data/kernels"; finish; }
fake "$k61" "$scratch/r61"
fake "$k73" "$scratch/r73"
MMSCOPE_SAMPLE_ROOT="$scratch/r61" "$MMSCOPE" sample --stdout --count 1 >"$scratch/61" ||
	fail "sample on the 6.1 tree failed"
MMSCOPE_SAMPLE_ROOT="$scratch/r73" "$MMSCOPE" sample --stdout --count 1 >"$scratch/73" ||
	fail "sample on the 7.3 tree failed"
grep -q '^mms1 zone 0 node=0 zone=DMA32 free=' "$scratch/61" && ok "6.1: zone lines" || fail "6.1: no DMA32 zone line"
grep '^mms1 zone' "$scratch/61" | grep -q 'promo=\|free_blocks=' && fail "6.1: promo or free_blocks invented" ||
	ok "6.1: no promo, no free_blocks (the kernel has neither)"
grep '^mms1 zone 0 node=0 zone=DMA32' "$scratch/73" | grep -q ' promo=[0-9]* .*free_blocks=[0-9]*$' &&
	ok "7.3: promo and free_blocks" || fail "7.3: zone line lacks promo or free_blocks: $(grep 'zone=DMA32' "$scratch/73")"
grep -q '^mms1 missing 0 sources=[a-z,]*buddy' "$scratch/73" && grep -q 'why_buddy=' "$scratch/73" &&
	ok "missing sources listed once, with reasons" || fail "no missing line for buddy"
[ "$(grep -c '^mms1 vmstat 0' "$scratch/73")" -ge 1 ] || fail "7.3: no vmstat line"
finish
