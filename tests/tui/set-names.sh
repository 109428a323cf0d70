#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Live: the tasks of a recording of several files (--switch-output) are
# named in the TUI as the report names them (issue 44 item 10: the stalls
# view said "?-16567" for dd, which began before the files its stalls are
# in, where the recorder's saved cmdlines name it; the views asked a
# reader the set does not have, not the analysis' names).
. "${top_srcdir:-.}/tests/lib.sh"
. "$top_srcdir/tests/record/lib-live.sh"

live_require
live_cgroup 16
mkdir "$scratch/set"
big=/var/tmp/$LIVE_TAG.file
# dd and cat once the first part is written (at most 60 s: they begin in
# a later part), then a moment of the recording after them
"$MMSCOPE" record -q -f -g reclaim --interval 200 --switch-output 1s -o "$scratch/set/run.dat" -- \
	sh -c "echo \$\$ >$LIVE_CG/cgroup.procs && i=0 &&
		while [ ! -e $scratch/set/run-1.dat ] && [ \$i -lt 600 ]; do sleep 0.1; i=\$((i + 1)); done &&
		{ [ -e $scratch/set/run-1.dat ] || { echo 'no first part within 60 s' >&2; exit 1; }; } &&
		dd if=/dev/zero of=$big bs=1M count=48 status=none && cat $big >/dev/null &&
		sleep 0.3" >"$scratch/rec" 2>&1	# not a wait: the moment after cat
rc=$?
rm -f "$big"
[ $rc -eq 0 ] || fail "record --switch-output: $(tail -3 "$scratch/rec")"
n=$(ls "$scratch/set" | wc -l)
[ "$n" -ge 2 ] || skip "one file only ($n): no set to read"
MMSCOPE_TUI_HEADLESS=1 LINES=30 COLUMNS=100 MMSCOPE_TUI_KEYS=4 MMSCOPE_TUI_DUMP="$scratch/t.txt" \
	"$MMSCOPE" tui "$scratch/set" >/dev/null 2>"$scratch/e" || fail "tui: $(cat "$scratch/e")"
rows=$(sed -n '/^task (reclaim+compact)/,/^$/p' "$scratch/t.txt" | sed 1d | grep -E -- '-[0-9]+ ')
[ -n "$rows" ] || fail "no task in the stalls view: $(cat "$scratch/t.txt")"
if printf '%s\n' "$rows" | grep -q '^?-'; then
	fail "a task named '?': $rows"
else
	printf '%s\n' "$rows" | grep -qE '^(dd|cat)-' && ok "the stalls view names the tasks: $(printf '%s' "$rows" | tr -s ' \n' '  ')" ||
		fail "dd and cat not named: $rows"
fi
finish
