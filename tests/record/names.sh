#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Task names under load (issue 17.14): N short-lived processes, each in
# memcg reclaim, recorded with -g reclaim,tasks: every top-task row of
# the report is named (anon-touch, or the script's sh before its exec),
# none "<...>", and the names come from the task events in the file, not
# only from the kernel's saved_cmdlines (which a busy host overflows; this
# 6.18 host rounds it up to 6552 names, so the overflow itself cannot be
# made here: the unit test tests/unit/test-names feeds it by hand).
. "${top_srcdir:-.}/tests/lib.sh"
. "$top_srcdir/tests/record/lib-live.sh"

N=${MMSCOPE_NAMES_TASKS:-40}
live_require python3
live_swap 256
live_cgroup 16

# N processes, 4 at a time, each 20 MB in the 16 MB cgroup
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
echo "tasks in memcg reclaim named by the cmdlines section: $(named after)"
execs=$("$MMSCOPE" dump --stat "$scratch/after.dat" | awk '$2 ~ /sched_process_exec/ {print $1}')
[ "${execs:-0}" -ge "$N" ] && ok "$execs sched_process_exec events recorded for $N tasks" ||
	fail "only ${execs:-0} sched_process_exec events for $N tasks"
finish
