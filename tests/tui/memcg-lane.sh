#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The memcg view's stalls (view 7, tui/view-memcg.c) on a recording with
# both record --cgroups samples and the tasks' cgroups
# (tests/data/cgroups/memcg-lane-6.18.dat): for every cgroup the view
# lists, its count of stalls of tasks in it and below equals the direct
# and memcg reclaim begins that `trace-cmd report` shows of the pids in
# that cgroup when they began, by a map rebuilt from trace-cmd's text
# alone (as tests/report/cgroups.sh does: the mms1 cgtasks lines,
# task_newtask, cgroup_attach_task); the view's paths and the map's are
# of one form (both cgroups are found, with stalls); and the stalls' row
# has an 'R' exactly when the count is above 0.
. "${top_srcdir:-.}/tests/lib.sh"

f="$top_srcdir/tests/data/cgroups/memcg-lane-6.18.dat"
[ -f "$f" ] || fail "no recording $f"
command -v trace-cmd >/dev/null || skip "trace-cmd not installed (sh tests/install-deps.sh)"
command -v python3 >/dev/null || skip "python3 not installed"
trace-cmd report "$f" >"$scratch/tc.txt" 2>/dev/null || fail "trace-cmd report failed"

# the oracle: per cgroup path, the direct and memcg reclaim begins of the
# tasks in it at the begin ("-" unknown)
python3 - "$top_srcdir/tests/oracle" "$scratch/tc.txt" >"$scratch/oracle" <<'EOF' || fail "the oracle failed"
import sys
sys.path.insert(0, sys.argv[1])
from cgmap import replay
begins = {}
for pid, ts, name, rest, c in replay(sys.argv[2]):
    if name in ("mm_vmscan_direct_reclaim_begin", "mm_vmscan_memcg_reclaim_begin"):
        c = c or "-"
        begins[c] = begins.get(c, 0) + 1
for c in sorted(begins):
    print(c, begins[c])
EOF
cat "$scratch/oracle"

# the view's cgroups, one screen each (Down from the first)
n=$(MMSCOPE_TUI_HEADLESS=1 MMSCOPE_TUI_KEYS="7" MMSCOPE_TUI_DUMP="$scratch/s0" TERM=dumb \
	COLUMNS=100 LINES=30 "$MMSCOPE" tui "$f" </dev/null && sed -n 's|^memcg 1/\([0-9]*\) .*|\1|p' "$scratch/s0")
[ -n "$n" ] && [ "$n" -ge 3 ] || fail "the memcg view lists ${n:-no} cgroups, want 3"
keys=7 i=0 seen=0
while [ "$i" -lt "$n" ]; do
	MMSCOPE_TUI_HEADLESS=1 MMSCOPE_TUI_KEYS="$keys" MMSCOPE_TUI_DUMP="$scratch/s" TERM=dumb \
		COLUMNS=100 LINES=30 "$MMSCOPE" tui "$f" </dev/null >"$scratch/out" 2>&1 ||
		fail "tui failed: $(cat "$scratch/out")"
	path=$(sed -n 's|^memcg [0-9]*/[0-9]* \(/[^ ]*\)  (.*|\1|p' "$scratch/s")
	got=$(sed -n 's|^\([0-9]*\) stalls of its tasks and below .*|\1|p' "$scratch/s")
	want=$(awk -v p="$path" '$1 == p || (p == "/" && $1 != "-") ||
		index($1, p "/") == 1 { n += $2 } END { print n + 0 }' "$scratch/oracle")
	[ -n "$path" ] && [ "$got" = "$want" ] &&
		ok "$path: $got stalls of its tasks and below, as trace-cmd" ||
		fail "${path:-no path}: the view says ${got:-nothing}, trace-cmd $want"
	marks=$(sed -n 's|^stalls *||p' "$scratch/s" | tr -cd R | wc -c)
	if [ "$want" -gt 0 ]; then
		seen=$((seen + 1))
		[ "$marks" -gt 0 ] && ok "$path: 'R' in $marks columns" || fail "$path: no 'R' marked"
	else
		[ "$marks" -eq 0 ] && ok "$path: no 'R'" || fail "$path: $marks 'R' with no stall"
	fi
	keys="$keys down" i=$((i + 1))
done
[ "$seen" -ge 3 ] || fail "$seen cgroups with stalls, want the root and both children"
finish
