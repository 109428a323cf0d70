#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Live: the stacks of a real stall reach the report. An anonymous
# workload twice over a 32 MiB cgroup limit, with swap on a loop device,
# makes memcg reclaim; recorded with -T, "mmscope report --section stacks"
# must give memcg reclaim stalls with their kernel stacks, the top frames
# naming the reclaim entry (try_to_free_mem_cgroup_pages) called from the
# charge path, every stall with a stack, and the figures (stalls, stacks,
# distinct stacks, their times, addresses and names) must be what
# tests/oracle/truth.py recomputes from trace-cmd report.
. "${top_srcdir:-.}/tests/lib.sh"
. "$top_srcdir/tests/record/lib-live.sh"

live_require trace-cmd python3
live_swap 256
live_cgroup 32

out="$scratch/st.dat"
"$MMSCOPE" record -q -T -g reclaim,compaction -o "$out" --interval 500 -- \
	sh -c "echo \$\$ >$LIVE_CG/cgroup.procs && exec $ANON_TOUCH -m 64 -p 2 -q" \
	2>"$scratch/err"
rc=$?
cat "$scratch/err"
[ $rc -eq 0 ] || { fail "record -T exited $rc"; finish; }

"$MMSCOPE" report --section stacks "$out" >"$scratch/text" 2>&1 || fail "report failed"
cat "$scratch/text"
line=$(grep '^memcg reclaim: ' "$scratch/text")
stalls=$(echo "$line" | sed -n 's/^memcg reclaim: \([0-9]*\) stalls*, \([0-9]*\) with a stack.*/\1/p')
with=$(echo "$line" | sed -n 's/^memcg reclaim: \([0-9]*\) stalls*, \([0-9]*\) with a stack.*/\2/p')
[ -n "$stalls" ] && [ "$stalls" -gt 0 ] && [ "$with" = "$stalls" ] &&
	ok "$stalls memcg reclaim stalls, each with its stack" ||
	fail "memcg reclaim line: '$line'"
# the first two frames of the first stack: reclaim, then the charge path
awk '/^  #1 / { on = 1; next } on && /^      / { print $1; if (++n == 2) exit }' \
	"$scratch/text" >"$scratch/top"
grep -q '^try_to_free_mem_cgroup_pages+0x[0-9a-f]*$' "$scratch/top" &&
	grep -q 'charge' "$scratch/top" &&
	ok "top frames: $(tr '\n' ' ' <"$scratch/top")" ||
	fail "top frames name no reclaim and charge functions: $(tr '\n' ' ' <"$scratch/top")"
python3 "$top_srcdir/tests/oracle/truth.py" "$MMSCOPE" "$out" >"$scratch/truth" 2>&1 &&
	ok "stacks agree with trace-cmd report" ||
	fail "truth.py: $(cat "$scratch/truth")"
left=$(instances_left)
[ -z "$left" ] && ok "no instance left" || fail "instances left: $left"
finish
