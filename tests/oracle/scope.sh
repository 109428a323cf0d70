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

files=$(ls "$top_srcdir"/samples/*.dat "$top_srcdir"/tests/data/report/*.dat)
[ -n "$files" ] || fail "no recordings found"
# shellcheck disable=SC2086
python3 "$top_srcdir/tests/oracle/scope.py" "$MMSCOPE" $files || fail "scoped figures differ from trace-cmd"
finish
