#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Task names under load (issue 17.14): a recording of N short-lived
# processes, each in memcg reclaim, on a kernel whose saved_cmdlines keeps
# 128 names (the default before 6.8; 6.8 and later round it up to a page,
# 6552 here, which a busy host overflows as well): the test sets 128 and
# puts the old size back. Recorded twice:
#  - -g reclaim: the report's top-task rows (the 5 longest stalls) name
#    some tasks "<...>" (the overflow the test needs; without it the test
#    proves nothing and fails);
#  - -g reclaim,tasks: no row says "<...>" and every memcg row says
#    anon-touch.
. "${top_srcdir:-.}/tests/lib.sh"
. "$top_srcdir/tests/record/lib-live.sh"

N=${MMSCOPE_NAMES_TASKS:-400}
OLD_SIZE=""
names_cleanup() {
	rc0=$?
	[ -n "$OLD_SIZE" ] && echo "$OLD_SIZE" >"$TRACEFS/saved_cmdlines_size"
	(exit $rc0)
	live_cleanup
}
trap names_cleanup EXIT

live_require
OLD_SIZE=$(cat "$TRACEFS/saved_cmdlines_size") || skip "no saved_cmdlines_size"
echo 128 >"$TRACEFS/saved_cmdlines_size" || fail "cannot set saved_cmdlines_size"
live_swap 256
live_cgroup 16

# N processes, 4 at a time, each 20 MB in the 16 MB cgroup: faster than
# 128 in 5 s, so that the recorder's own snapshots of saved_cmdlines
# (every 5 s, cmdlines.h) miss some and -g reclaim alone shows "<...>"
cat >"$scratch/work.sh" <<EOF
echo \$\$ >$LIVE_CG/cgroup.procs
loop() {
	i=0
	while [ \$i -lt $((N / 4)) ]; do
		$ANON_TOUCH -m 20 -q || exit 1
		i=\$((i + 1))
	done
}
loop & loop & loop & loop
wait
EOF

# record GROUPS NAME: the JSON top tasks (pid comm kind) into NAME.tasks
record() {
	"$MMSCOPE" record -g "$1" -o "$scratch/$2.dat" -- sh "$scratch/work.sh" \
		>"$scratch/$2.out" 2>&1 || { fail "record -g $1: $(tail -3 "$scratch/$2.out")"; return 1; }
	"$MMSCOPE" report -f json "$scratch/$2.dat" >"$scratch/$2.json" 2>"$scratch/$2.err" ||
		{ fail "report $2: $(head -3 "$scratch/$2.err")"; return 1; }
	python3 - "$scratch/$2.json" >"$scratch/$2.tasks" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
def walk(o):
    if isinstance(o, dict):
        if isinstance(o.get("top_tasks"), list):
            for t in o["top_tasks"]:
                print(t["pid"], t["comm"], t["kind"])
        for v in o.values():
            walk(v)
    elif isinstance(o, list):
        for v in o:
            walk(v)
walk(d)
EOF
}
memcg_rows() { awk '$3 == "memcg"' "$scratch/$1.tasks" | wc -l; }
anon_rows() { awk '$3 == "memcg" && $2 == "anon-touch"' "$scratch/$1.tasks" | wc -l; }
unnamed_rows() { awk '$2 == "<...>"' "$scratch/$1.tasks" | wc -l; }

record reclaim before || finish
echo "before: $(memcg_rows before) memcg rows, $(anon_rows before) anon-touch, $(unnamed_rows before) <...>"
[ "$(memcg_rows before)" -ge 3 ] && ok "-g reclaim: $(memcg_rows before) top-task rows in memcg reclaim" ||
	fail "-g reclaim: only $(memcg_rows before) top-task rows in memcg reclaim"
# 6.8+ rounds the size written up to its page allocation (6552 here)
[ "$(unnamed_rows before)" -gt 0 ] && ok "-g reclaim: saved_cmdlines overflowed ($(unnamed_rows before) rows '<...>')" ||
	skip "-g reclaim: no '<...>' row: saved_cmdlines (size $(cat "$TRACEFS/saved_cmdlines_size") after writing 128) did not overflow, the rest would prove nothing"

record reclaim,tasks after || finish
echo "after: $(memcg_rows after) memcg rows, $(anon_rows after) anon-touch, $(unnamed_rows after) <...>"
[ "$(memcg_rows after)" -ge 3 ] && ok "-g reclaim,tasks: $(memcg_rows after) top-task rows in memcg reclaim" ||
	fail "-g reclaim,tasks: only $(memcg_rows after) top-task rows in memcg reclaim"
[ "$(unnamed_rows after)" -eq 0 ] && ok "-g reclaim,tasks: no row is '<...>'" ||
	fail "-g reclaim,tasks: $(unnamed_rows after) rows still '<...>': $(awk '$2 == "<...>"' "$scratch/after.tasks" | head -3 | tr '\n' ' ')"
# a task that stalls between fork and exec is still the script's "sh"
[ "$(awk '$3 == "memcg" && $2 != "anon-touch" && $2 != "sh"' "$scratch/after.tasks" | wc -l)" -eq 0 ] &&
	ok "every memcg row is anon-touch ($(anon_rows after)) or the script's sh before exec" ||
	fail "memcg rows named otherwise: $(awk '$3 == "memcg" && $2 != "anon-touch" && $2 != "sh"' "$scratch/after.tasks" | head -3 | tr '\n' ' ')"

# the file's own names (its cmdlines section, what dump and trace-cmd
# print): the tasks alive at a 5 s snapshot or at the ends are named
# there too; said, not held (which tasks a snapshot meets is chance)
named() {
	"$MMSCOPE" dump -e vmscan:mm_vmscan_memcg_reclaim_begin "$scratch/$1.dat" 2>/dev/null |
		awk '{ print $2 }' | sort -u | grep -vc '^<\.\.\.>-'
}
echo "tasks in memcg reclaim named by the cmdlines section: before $(named before), after $(named after)"
finish
