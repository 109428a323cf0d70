#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The header states the interval the figures come from: with a window,
# the window actually analysed (start, end, length, on the trace and the
# wall clock) and the recording's span beside it, in text and JSON, and
# the TUI's status line
# (goldens tests/golden/report-window-header.txt/.json, a real recording
# with its wall clock). A window with one sample set has no counter
# deltas: '-' and null, not 0. And the header's edge cases: --pid of a
# task that never stalled says "(0 tasks)" as --comm does, a recording
# without events says so rather than a span of 0 s, and the empty
# window's span line fits 72 columns.
# MMSCOPE_UPDATE_GOLDEN=1 rewrites the goldens.
. "${top_srcdir:-.}/tests/lib.sh"

golden="$top_srcdir/tests/golden"
d="$top_srcdir/tests/data/report"
f=run-memcg-6.18.dat

check() {	# NAME FILE: FILE against the golden NAME
	if [ -n "$MMSCOPE_UPDATE_GOLDEN" ]; then
		cp "$2" "$golden/$1"
		ok "$1: golden updated"
	elif diff -u "$golden/$1" "$2" >&2; then
		ok "$1 matches"
	else
		fail "$1 differs (MMSCOPE_UPDATE_GOLDEN=1 to accept)"
	fi
}

# run beside the file: the JSON names it without a path
(cd "$d" && "$MMSCOPE" report -s header --since 1 --until 2 "$f") >"$scratch/w.txt" ||
	fail "report --since 1 --until 2 exited $?"
check report-window-header.txt "$scratch/w.txt"
(cd "$d" && "$MMSCOPE" report -s header -f json --since 1 --until 2 "$f") >"$scratch/w.json" ||
	fail "report -f json --since 1 --until 2 exited $?"
check report-window-header.json "$scratch/w.json"
# the same window on the wall clock: the same interval
(cd "$d" && "$MMSCOPE" report -s header --since 2026-12-01T09:59:18.031773820Z \
	--until 2026-12-01T09:59:19.031773820Z "$f") | sed -n '/^span/p;/^wall/p' >"$scratch/wall"
want=$(sed -n '/^span/p;/^wall/p' "$scratch/w.txt")
[ "$(cat "$scratch/wall")" = "$want" ] && ok "a wall-clock window states the same interval" ||
	fail "wall-clock window: $(cat "$scratch/wall")"

# the TUI's status line states the same window and the recording beside it
MMSCOPE_TUI_HEADLESS=1 LINES=24 COLUMNS=120 MMSCOPE_TUI_KEYS=q MMSCOPE_TUI_DUMP="$scratch/tui" \
	"$MMSCOPE" tui --since 1 --until 2 "$d/$f" >/dev/null 2>"$scratch/e" || fail "tui --since 1 --until 2: $(cat "$scratch/e")"
tail -1 "$scratch/tui" | grep -q 'window 1.000..2.000 s (1.000 s), recording from 0 s, not read past the window *$' &&
	ok "tui: the status line states the window" || fail "tui status line: $(tail -1 "$scratch/tui")"

# one sample set in the window: no delta, '-' in text, null in JSON
"$MMSCOPE" report -s counters --since 1 --until 1.15 "$d/$f" >"$scratch/c.txt"
grep -q '^over 1 sample sets' "$scratch/c.txt" &&
	grep -q '^Ops Swap Ins  *-  *-$' "$scratch/c.txt" && ! grep -q '^Ops .* 0 ' "$scratch/c.txt" &&
	ok "one sample set: counter rows '-'" || fail "one sample set: $(cat "$scratch/c.txt")"
"$MMSCOPE" report -s counters -f json --since 1 --until 1.15 "$d/$f" >"$scratch/c.json"
grep -q '"max_step": null' "$scratch/c.json" && ! grep -q '"max_step": [0-9]' "$scratch/c.json" &&
	ok "one sample set: max_step null" || fail "one sample set: JSON max_step not null"
"$MMSCOPE" report -s counters --since 1 --until 2 "$d/$f" | grep -q '^Ops Swap Ins  *[0-9]' &&
	ok "five sample sets: a delta" || fail "five sample sets: no delta"

# issue 32 item 10: the header's edge cases
# (pid 4151 is the recorder's sampler: in the recording, no stall; a pid
# the recording does not have is refused, scope-unmatched.sh)
"$MMSCOPE" report -s header --pid 4151 "$d/$f" | grep -q '^tasks     pid 4151 (0 tasks): ' &&
	ok "--pid of a task without stalls: (0 tasks)" || fail "--pid 4151: $("$MMSCOPE" report -s header --pid 4151 "$d/$f" | grep '^tasks')"
"$MMSCOPE" report -s header -f json --pid 4151 "$d/$f" | grep -q '"matched": 0' &&
	ok "--pid of a task without stalls: JSON matched 0" || fail "--pid 4151: JSON matched"
mkrec=$top_builddir/tests/compare/mkrec
if [ -x "$mkrec" ]; then
	: | MKREC_META='' "$mkrec" "$scratch/empty.dat" || fail "mkrec"
	"$MMSCOPE" report -s header "$scratch/empty.dat" | grep -q '^span      - (no events in this recording)$' &&
		ok "a recording without events: no events" ||
		fail "no events: $("$MMSCOPE" report -s header "$scratch/empty.dat" | grep '^span')"
	"$MMSCOPE" report -s header -f json "$scratch/empty.dat" | grep -q '"first_s": null' &&
		ok "a recording without events: first_s null" || fail "no events: first_s not null"
else
	fail "tests/compare/mkrec not built"
fi
for w in "--since 100000" "--since @0 --until @1" "--since @1477.2 --until @1477.2000001"; do
	# shellcheck disable=SC2086
	"$MMSCOPE" report $w "$d/$f" >"$scratch/e.txt"
	grep -q '^span      - (no event in the window: ' "$scratch/e.txt" || fail "$w: $(grep '^span' "$scratch/e.txt")"
	awk 'length > 72 { print FNR ": " $0; bad = 1 } END { exit bad }' "$scratch/e.txt" >&2 &&
		ok "$w: no line past 72 columns" || fail "$w: lines past 72 columns"
done
finish
