#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Live: -T puts the instance's stacktrace trigger on the stall-start events
# (direct and memcg reclaim begin, direct compaction): under memcg reclaim
# (150 MiB of page cache written and read in a 48 MiB cgroup) every mm_vmscan_memcg_reclaim_begin is
# followed by its kernel stack (a kernel_stack event on the same CPU, in
# the file's formats), which trace-cmd prints with symbols; mmscope dump
# prints as many kernel_stack events. A --stacktrace on an event that is
# not recorded is refused (exit 2) with nothing left in tracefs: "add -e"
# for an event of this kernel, "not an event of this kernel" else.
. "${top_srcdir:-.}/tests/lib.sh"
. "$top_srcdir/tests/record/lib-live.sh"

live_require trace-cmd
live_cgroup 48

out="$scratch/st.dat"
big=/var/tmp/$LIVE_TAG.file
"$MMSCOPE" record -q -T -g reclaim,compaction -o "$out" --interval 500 -- \
	sh -c "echo \$\$ >$LIVE_CG/cgroup.procs && dd if=/dev/zero of=$big bs=1M count=150 \
		status=none && cat $big >/dev/null" 2>"$scratch/err"
rc=$?
rm -f "$big"
cat "$scratch/err"
[ $rc -eq 0 ] || fail "record -T exited $rc"
strings "$out" | grep -q '^stacktrace=vmscan:mm_vmscan_memcg_reclaim_begin$' ||
	fail "no stacktrace= in the metadata"
trace-cmd report "$out" >"$scratch/r" 2>/dev/null || { fail "trace-cmd cannot read $out"; finish; }
begins=$(grep -c 'mm_vmscan_memcg_reclaim_begin:' "$scratch/r")
stacks=$(grep -c 'kernel_stack:' "$scratch/r")
# each begin directly followed (on its CPU) by a stack naming the charge path
awk '/mm_vmscan_memcg_reclaim_begin:/ { want[$2] = 1; next }
	/kernel_stack:/ { if (want[$2]) got++; want[$2] = 0 }
	END { print got + 0 }' "$scratch/r" >"$scratch/n"
paired=$(cat "$scratch/n")
[ "$begins" -gt 0 ] && [ "$paired" = "$begins" ] &&
	ok "$begins memcg reclaim begins, each with its kernel stack ($stacks stacks)" ||
	fail "$begins memcg reclaim begins, $paired with a stack"
grep -q '=> try_charge\|=> .*charge' "$scratch/r" && ok "the stacks name the charge path" ||
	fail "no charge function in the stacks"
"$MMSCOPE" dump "$out" >"$scratch/d" 2>&1 || fail "dump failed"
dstacks=$(grep -c 'kernel_stack:' "$scratch/d")
[ "$dstacks" = "$stacks" ] && ok "dump prints the $stacks stacks too" ||
	fail "dump has $dstacks kernel_stack lines, trace-cmd $stacks"
"$MMSCOPE" record -g none -e kmem:mm_page_alloc --stacktrace vmscan:mm_vmscan_kswapd_wake \
	-o "$scratch/bad.dat" --duration 1 2>"$scratch/e"
rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <"$scratch/e")" = 1 ] && grep -q 'add -e vmscan:mm_vmscan_kswapd_wake' "$scratch/e" &&
	ok "stacktrace on an unrecorded event: exit 2, add -e" ||
	fail "stacktrace on an unrecorded event: exit $rc: $(cat "$scratch/e")"
# an event this kernel does not have is no advice to add it (issue 44
# item 11): --stacktrace and --filter say it is not an event here
for a in "--stacktrace vmscan:nope" "--stacktrace nosys:nope" "--filter vmscan:nope:nr>1"; do
	# shellcheck disable=SC2086
	"$MMSCOPE" record -g reclaim $a -o "$scratch/bad.dat" --duration 1 2>"$scratch/e"
	rc=$?
	[ $rc -eq 2 ] && [ "$(wc -l <"$scratch/e")" = 1 ] && grep -q 'not an event of this kernel' "$scratch/e" &&
		! grep -q 'add -e' "$scratch/e" && ok "record $a: exit 2, $(cat "$scratch/e")" ||
		fail "record $a: exit $rc: $(cat "$scratch/e")"
done
left=$(instances_left)
[ -z "$left" ] && ok "no instance left" || fail "instances left: $left"
finish
