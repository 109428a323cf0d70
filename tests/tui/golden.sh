#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Golden screens of `mmscope tui` in headless mode (newterm on /dev/null):
# each case runs a key script against a real fixture and compares the
# dumped screen with tests/golden/tui-CASE.txt, under TERM=dumb (no
# colours: the monochrome attributes) and TERM=xterm-256color, which must
# give the same text. MMSCOPE_UPDATE_GOLDEN=1 rewrites the golden files.
. "${top_srcdir:-.}/tests/lib.sh"

golden="$top_srcdir/tests/golden"
# under sanitizers, only real reports may print
LSAN_OPTIONS="${LSAN_OPTIONS:+$LSAN_OPTIONS:}print_suppressions=0"
export LSAN_OPTIONS
s="$top_srcdir/samples"

# name  size  fixture  keys (fixtures under samples/, or tests/data/report/ as r/NAME,
# tests/data/cgroups/ as c/NAME, tests/data/tui/ as t/NAME)
cases='
timeline-pressure-80x24      80x24   r/global-pressure-early-6.12.dat
timeline-pressure-enter-80x24 80x24  r/global-pressure-early-6.12.dat  Enter
timeline-pressure-160x50     160x50  r/global-pressure-early-6.12.dat  n
timeline-pressure-zoom-80x24 80x24   r/global-pressure-early-6.12.dat  n + + + right right
events-pressure-80x24        80x24   r/global-pressure-early-6.12.dat  Enter 5
events-pressure-node-80x24   80x24   r/global-pressure-early-6.12.dat  / kswapd Space node=0 Enter
events-pressure-noprint-80x24 80x24  r/global-pressure-early-6.12.dat  Enter / !print Enter
timeline-sampled-80x24       80x24   r/compaction-sampled-6.18.dat
stalls-sampled-160x50        160x50  r/compaction-sampled-6.18.dat tab tab tab
timeline-click-80x24         80x24   r/global-pressure-early-6.12.dat  click=2,60
timeline-gp612-80x24         80x24   global-pressure-6.12.dat    n
events-gp612-160x50          160x50  global-pressure-6.12.dat    n 5 / !print Enter
timeline-mthpfrag-80x24      80x24   mthp-frag-7.3.dat
timeline-zswap-80x24         80x24   zswap-6.12.dat              Enter
swap-pressure-80x24          80x24   r/global-pressure-early-6.12.dat  n 2
swap-pressure-160x50         160x50  r/global-pressure-early-6.12.dat  n 2
zswap-pressure-80x24         80x24   r/global-pressure-early-6.12.dat  3
zswap-zswap-80x24            80x24   zswap-6.12.dat              3
zswap-zswap-160x50           160x50  zswap-6.12.dat              n 3
timeline-memcg-80x24         80x24   memcg-swap-6.18.dat
timeline-memcg-160x50        160x50  memcg-swap-6.18.dat
timeline-compaction-80x24    80x24   compaction-6.18.dat   +
findings-oom-80x24           80x24   r/oom-6.18.dat        6
findings-oom-enter-80x24     80x24   r/oom-6.18.dat        6 down Enter
findings-oom-kill-80x24      80x24   r/oom-6.18.dat        6 Enter
kills-oom-80x24              80x24   r/oom-6.18.dat
kills-oom-n-80x24            80x24   r/oom-6.18.dat        down down down n
kills-oom-dossier-80x24      80x24   r/oom-6.18.dat        down down down n Enter
kills-oom-close-80x24        80x24   r/oom-6.18.dat        down down down n Enter Esc
kills-sh-80x24               80x24   t/kill-sh-6.18.dat
kills-sh-dossier-80x24       80x24   t/kill-sh-6.18.dat    n Enter
kills-sh-dossier-160x50      160x50  t/kill-sh-6.18.dat    n Enter
kills-sh-scroll-80x24        80x24   t/kill-sh-6.18.dat    n Enter PgDn
timeline-compaction-160x50   160x50  compaction-6.18.dat
timeline-mthp-enter-80x24    80x24   mthp-swap-6.18.dat    right right right Enter
swap-80x24                   80x24   mthp-swap-6.18.dat    2
swap-sampled-80x24           80x24   r/compaction-sampled-6.18.dat  2
zswap-sampled-80x24          80x24   r/compaction-sampled-6.18.dat  3
timeline-khugepaged-80x24    80x24   r/khugepaged-6.18.dat
zswap-80x24                  80x24   mthp-swap-6.18.dat    tab tab
stalls-memcg-80x24           80x24   memcg-swap-6.18.dat   4
stalls-memcg-160x50          160x50  memcg-swap-6.18.dat   4
stalls-compaction-80x24      80x24   compaction-6.18.dat   4
events-memcg-80x24           80x24   memcg-swap-6.18.dat   5 down down down
events-memcg-160x50          160x50  memcg-swap-6.18.dat   5 End
events-filter-80x24          80x24   mthp-swap-6.18.dat    / reclaim_end Space cpu=1 Enter down
events-compaction-160x50     160x50  compaction-6.18.dat   right right right right 5
help-80x24                   80x24   memcg-swap-6.18.dat   ?
help-scrolled-80x24          80x24   memcg-swap-6.18.dat   ? PgDn
help-kills-80x24             80x24   memcg-swap-6.18.dat   ? PgDn PgDn
resize-80x24-to-120x30       80x24   memcg-swap-6.18.dat   5 resize=120x30
resize-timeline-80x24-to-160x30 80x24 r/global-pressure-early-6.12.dat  resize=160x30
range-memcg-80x24            80x24   memcg-swap-6.18.dat   right right [ right right right right right ] 4
range-pressure-160x50        160x50  r/global-pressure-early-6.12.dat  n left left [ right right right right right right right right right right right ] 4
longest-memcg-80x24          80x24   memcg-swap-6.18.dat   L
longest-stalls-memcg-80x24   80x24   memcg-swap-6.18.dat   L 4
events-samples-80x24         80x24   r/global-pressure-early-6.12.dat  Enter 5 p
memcg-small-80x24            80x24   r/memcgs-6.18.dat   7 down down
memcg-lane-a-80x24           80x24   c/memcg-lane-6.18.dat  7 down down
memcg-lane-root-160x50       160x50  c/memcg-lane-6.18.dat  7
'

fixture_path() {
	case $1 in
	r/*) echo "$top_srcdir/tests/data/report/${1#r/}" ;;
	c/*) echo "$top_srcdir/tests/data/cgroups/${1#c/}" ;;
	t/*) echo "$top_srcdir/tests/data/tui/${1#t/}" ;;
	*) echo "$s/$1" ;;
	esac
}

run_case() {	# name cols rows fixture term keys
	MMSCOPE_TUI_HEADLESS=1 MMSCOPE_TUI_KEYS="$6" MMSCOPE_TUI_DUMP="$scratch/$1.$5" \
		TERM="$5" COLUMNS="$2" LINES="$3" \
		"$MMSCOPE" tui "$(fixture_path "$4")" </dev/null >"$scratch/out" 2>&1 ||
		{ fail "$1 ($5): exit $?: $(cat "$scratch/out")"; return 1; }
	[ -s "$scratch/out" ] && { fail "$1 ($5) printed: $(cat "$scratch/out")"; return 1; }
	return 0
}

while read -r name size fixture keys; do
	[ -n "$name" ] || continue
	cols=${size%x*} rows=${size#*x}
	# the recordings are in the tree: a missing one fails its screens
	[ -f "$(fixture_path "$fixture")" ] || { fail "$name: no recording $fixture"; continue; }
	for term in dumb xterm-256color; do
		run_case "$name" "$cols" "$rows" "$fixture" "$term" "$keys" || continue
	done
	[ -f "$scratch/$name.dumb" ] || continue
	lines=$(wc -l <"$scratch/$name.dumb")
	case $name in
	resize-*) want=30 ;;
	*) want=$rows ;;
	esac
	[ "$lines" -eq "$want" ] || fail "$name: $lines lines, want $want"
	case $name in
	resize-*) ;;
	*) awk -v w="$cols" 'length($0) > w {exit 1}' "$scratch/$name.dumb" ||
		fail "$name: a line is wider than $cols columns" ;;
	esac
	cmp -s "$scratch/$name.dumb" "$scratch/$name.xterm-256color" ||
		fail "$name: TERM=dumb and TERM=xterm-256color differ"
	if [ -n "$MMSCOPE_UPDATE_GOLDEN" ]; then
		cp "$scratch/$name.dumb" "$golden/tui-$name.txt"
		ok "$name: golden updated"
	elif [ ! -f "$golden/tui-$name.txt" ]; then
		fail "$name: no golden file tests/golden/tui-$name.txt (MMSCOPE_UPDATE_GOLDEN=1 makes it)"
	elif diff -u "$golden/tui-$name.txt" "$scratch/$name.dumb" >"$scratch/diff"; then
		ok "$name"
	else
		fail "$name: screen differs from tests/golden/tui-$name.txt
$(cat "$scratch/diff")"
	fi
done <<EOF
$cases
EOF
finish
