#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Live: --filter SYS:EVENT:EXPR sets an ftrace filter on the instance.
# 'kmem:mm_page_alloc:order > 0' under a page-allocating load keeps only
# allocations of order > 0 (trace-cmd shows each one's order) and the file
# says which filter was set; mm_page_free, unfiltered, is all there. A
# filter the kernel does not parse is refused with the kernel's own error
# in one line (exit 2), one on an event not recorded too, with nothing
# left in tracefs and no file.
. "${top_srcdir:-.}/tests/lib.sh"
. "$top_srcdir/tests/record/lib-live.sh"

live_require trace-cmd
EV="-g none -e kmem:mm_page_alloc -e kmem:mm_page_free"

out="$scratch/f.dat"
# shellcheck disable=SC2086
"$MMSCOPE" record -q --filter 'kmem:mm_page_alloc:order > 0' -o "$out" --duration 3 $EV \
	-- sh -c 'for i in 1 2 3 4 5; do head -c 50000000 /dev/zero | cat >/dev/null; done' \
	2>"$scratch/err"
rc=$?
cat "$scratch/err"
[ $rc -eq 0 ] || fail "record --filter exited $rc"
trace-cmd report "$out" >"$scratch/r" 2>/dev/null || { fail "trace-cmd cannot read $out"; finish; }
n0=$(grep -c 'mm_page_alloc:.* order=0 ' "$scratch/r")
n=$(grep -c 'mm_page_alloc:.* order=[1-9]' "$scratch/r")
nf=$(grep -c 'mm_page_free:' "$scratch/r")
[ "$n0" = 0 ] && ok "no order-0 allocation passed the filter ($n of order > 0, $nf frees)" ||
	fail "$n0 order-0 allocations in a file filtered on order > 0"
[ "$nf" -gt 0 ] || fail "no mm_page_free: the filter reached another event?"
strings "$out" | grep -q '^filter=kmem:mm_page_alloc:order > 0$' && ok "filter= in the metadata" ||
	fail "no filter= in the metadata"

for spec in 'kmem:mm_page_alloc:order >>> x' 'kmem:mm_page_alloc:nosuchfield == 1' \
	'kmem:mm_page_alloc' 'vmscan:mm_vmscan_kswapd_wake:nid == 0'; do
	# shellcheck disable=SC2086
	"$MMSCOPE" record --filter "$spec" -o "$scratch/bad.dat" --duration 1 $EV 2>"$scratch/e"
	rc=$?
	if [ $rc -eq 2 ] && [ "$(wc -l <"$scratch/e")" = 1 ] ||
		{ [ $rc -eq 2 ] && [ "$(grep -c '^error:' "$scratch/e")" = 1 ]; }; then
		ok "'$spec': exit 2: $(head -1 "$scratch/e")"
	else
		cat "$scratch/e"
		fail "'$spec': exit $rc"
	fi
done
grep -q "refused by the kernel: .*error" "$scratch/e" 2>/dev/null || true
"$MMSCOPE" record --filter 'kmem:mm_page_alloc:order >>> x' -o "$scratch/bad.dat" \
	--duration 1 $EV 2>&1 | grep -q 'refused by the kernel: [^ ]' &&
	ok "the kernel's own error is given" || fail "no kernel error message"
[ -e "$scratch/bad.dat" ] && fail "a refused filter left a file"
ls "$scratch" | grep -q spool && fail "a refused filter left a spool"
left=$(instances_left)
[ -z "$left" ] && ok "no instance left" || fail "instances left: $left"
finish
