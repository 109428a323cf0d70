#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# A task scope that names nothing the recording has is an error, not an
# empty report (issue 44 item 8): --cgroup of a cgroup no task was in,
# --pid of a pid no event carries, --comm of a name no task had exit 1
# with one line naming what the recording has (its cgroups, its busiest
# tasks). A task that is there but did nothing counted stays an empty
# report, "(0 tasks)" (window-header.sh).
. "${top_srcdir:-.}/tests/lib.sh"

cg=$top_srcdir/tests/data/cgroups/cgroups-6.18.dat
gp=$top_srcdir/samples/global-pressure-6.12.dat

refused() {	# WHAT PATTERN CMD...: exit 1, one line matching PATTERN
	what=$1 pat=$2
	shift 2
	"$MMSCOPE" "$@" >"$scratch/out" 2>"$scratch/err"
	rc=$?
	if [ "$rc" -eq 1 ] && [ "$(wc -l <"$scratch/err")" -eq 1 ] &&
	   grep -q -- "$pat" "$scratch/err" && [ ! -s "$scratch/out" ]; then
		ok "$what: exit 1, $(cut -c1-100 "$scratch/err")"
	else
		fail "$what: exit $rc, stderr '$(cat "$scratch/err")', $(wc -c <"$scratch/out") bytes out"
	fi
}

refused "report --cgroup /nosuch" \
	'--cgroup /nosuch: no task in this recording was in /nosuch or below (its tasks were in /, /mmscope-cg/a, /mmscope-cg/b, ' \
	report --cgroup /nosuch "$cg"
refused "report --pid 999999" \
	'--pid 999999: no event in this recording is of that task (tasks with stalls, reclaim or compaction work: 170 pressure, 51 kswapd0, ' \
	report --pid 999999 "$gp"
refused "report --comm nosuch" "--comm nosuch: no task in this recording had that name (tasks with" \
	report --comm nosuch "$gp"
refused "report --cgroup /nosuch in a window" \
	"--cgroup /nosuch: no task in this recording up to the window's end was in /nosuch" \
	report --cgroup /nosuch --since 0.5 "$cg"
refused "report -f json --pid 999999" "--pid 999999: no event" report -f json --pid 999999 "$gp"
# the same through the other front ends that read the analysis
refused "plot --pid 999999" "--pid 999999: no event" plot --pid 999999 -o "$scratch/p.svg" "$gp"
refused "compare --cgroup /nosuch" "--cgroup /nosuch: no task" compare --cgroup /nosuch "x=$cg"

# what is there still reports: a cgroup, a parent of cgroups, a pid, a
# name; and a pid in a window (a window's pass cannot tell whether the
# task is elsewhere in the recording: its report is empty, "(0 tasks)")
for s in "--cgroup /mmscope-cg/a" "--cgroup /mmscope-cg" "--pid 170" "--comm pressure" \
	"--pid 999999 --since 0.5"; do
	case $s in --cgroup*) f=$cg ;; *) f=$gp ;; esac
	# shellcheck disable=SC2086
	"$MMSCOPE" report -s header $s "$f" >"$scratch/h" 2>"$scratch/err" &&
		grep -q '^tasks ' "$scratch/h" && ok "report $s: a report" ||
		fail "report $s: exit $?, $(cat "$scratch/err")"
done
finish
