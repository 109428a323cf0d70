#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The scope test (issue 18): on every real recording in samples/ and
# tests/data/report/, "mmscope report --since/--until" (relative and @),
# "--comm" and "--pid" give the stall counts that tests/oracle/scope.py
# counts from "trace-cmd report" for the same window or task; and a bad
# scope is refused with exit 2 and one line.
. "${top_srcdir:-.}/tests/lib.sh"

command -v trace-cmd >/dev/null || skip "trace-cmd is not installed"
command -v python3 >/dev/null || skip "python3 is not installed"
f=$top_srcdir/samples/memcg-swap-6.18.dat

# refusals: exit 2, one line on stderr, nothing on stdout
refuse() {
	what=$1
	shift
	"$MMSCOPE" "$@" >"$scratch/out" 2>"$scratch/err"
	rc=$?
	if [ $rc -eq 2 ] && [ "$(wc -l <"$scratch/err")" -eq 1 ] && [ ! -s "$scratch/out" ]; then
		ok "$what: exit 2, $(cat "$scratch/err")"
	else
		fail "$what: exit $rc, $(wc -l <"$scratch/err") lines: $(head -3 "$scratch/err")"
	fi
}
for cmd in report compare tui dump; do
	files=$f
	[ $cmd = compare ] && files="$f $f"
	# shellcheck disable=SC2086
	{
	refuse "$cmd --since abc" $cmd --since abc $files
	refuse "$cmd --since -1" $cmd --since -1 $files
	refuse "$cmd --until 1e3" $cmd --until 1e3 $files
	refuse "$cmd --since 2 --until 1" $cmd --since 2 --until 1 $files
	refuse "$cmd --since @500 --until @490" $cmd --since @500 --until @490 $files
	}
done
refuse "report --since 0.5 --until @489 (mixed, found on reading)" \
	report --since 0.5 --until @489 "$f"
refuse "report --cgroup on a recording without cgroups" report --cgroup /sys/fs/cgroup/x "$f"

refuse "compare --cgroup on a recording without cgroups" compare --cgroup /x "a=$f"

# compare: each recording's window and its sample sets named on stderr
"$MMSCOPE" compare -d mmtests --since 0.2 --until 0.6 -m stall "a=$f" >"$scratch/out" 2>"$scratch/err" &&
	grep -q "^note: .*memcg-swap-6.18.dat: window 0.200000 s .. 0.600000 s from the first event; fewer than two sample sets in it$" "$scratch/err" &&
	grep -q memcg-reclaim-stall "$scratch/out" &&
	ok "compare --since/--until: the window is named on stderr" ||
	fail "compare --since/--until: $(cat "$scratch/err")"
# its memcg stall total is the report's for the same window
rep=$("$MMSCOPE" report -f json --since 0.2 --until 0.6 "$f" |
	python3 -c 'import json,sys; print("%.2f" % (json.load(sys.stdin)["stalls"]["memcg"]["total_ns"] / 1e6))')
cmp=$(awk '$1 == "Min" && $2 == "memcg-reclaim-stall-total" { print $3 }' "$scratch/out")
[ -n "$rep" ] && [ "$rep" = "$cmp" ] && ok "compare's windowed memcg stall total is report's: $cmp ms" ||
	fail "compare's windowed memcg stall total $cmp ms, report's $rep ms"

# tui: the axis spans the window (its first screen starts at --since)
MMSCOPE_TUI_HEADLESS=1 MMSCOPE_TUI_KEYS=q MMSCOPE_TUI_DUMP="$scratch/tui.txt" TERM=dumb \
	COLUMNS=80 LINES=24 "$MMSCOPE" tui --since 0.5 --until 0.9 "$f" </dev/null >"$scratch/out" 2>&1 &&
	tail -1 "$scratch/tui.txt" | grep -q '^ *0.500000 s .*window 0.500..0.900 s (0.400 s)' &&
	ok "tui --since 0.5: the cursor starts at 0.5 s from the first event, the window stated so" ||
	fail "tui --since 0.5: $(cat "$scratch/out") $(tail -1 "$scratch/tui.txt" 2>/dev/null)"

files=$(ls "$top_srcdir"/samples/*.dat "$top_srcdir"/tests/data/report/*.dat)
[ -n "$files" ] || fail "no recordings found"
# shellcheck disable=SC2086
python3 "$top_srcdir/tests/oracle/scope.py" "$MMSCOPE" $files || fail "scoped figures differ from trace-cmd"
finish
