#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The TUI's tab bar names every view whole at 80 columns (issue 44 item
# 10: "6 findings" and "7 memcg" were cut, or left as bare digits); the
# file's name gives way first, then the tabs but the current one shrink
# to their keys (60 columns); a click on a tab still shows its view.
. "${top_srcdir:-.}/tests/lib.sh"

f=$top_srcdir/samples/global-pressure-6.12.dat
bar() {	# COLUMNS KEYS: the top line
	MMSCOPE_TUI_HEADLESS=1 LINES=24 COLUMNS=$1 MMSCOPE_TUI_KEYS="$2" \
		MMSCOPE_TUI_DUMP="$scratch/t.txt" "$MMSCOPE" tui "$f" >/dev/null 2>"$scratch/e" ||
		fail "tui at $1 columns: $(cat "$scratch/e")"
	head -1 "$scratch/t.txt"
}

for w in 80 100 120; do
	line=$(bar $w 1)
	case $line in
	*"1 timeline 2 swap 3 zswap 4 stalls 5 events 6 findings 7 memcg "*"?help") ok "$w columns: every tab whole" ;;
	*) fail "$w columns: '$line'" ;;
	esac
	[ ${#line} -eq $w ] || fail "$w columns: the bar is ${#line} wide"
done
line=$(bar 60 4)
case $line in
*" 1 2 3 4 stalls 5 6 7 "*"?help") ok "60 columns: keys, the current tab named" ;;
*) fail "60 columns: '$line'" ;;
esac
# a click on the 7 memcg tab at 80 columns shows that view
line=$(bar 80 1)
col=$(printf '%s\n' "$line" | awk '{ print index($0, "7 memcg") }')
MMSCOPE_TUI_HEADLESS=1 LINES=24 COLUMNS=80 MMSCOPE_TUI_KEYS="click=0,$col" \
	MMSCOPE_TUI_DUMP="$scratch/t.txt" "$MMSCOPE" tui "$f" >/dev/null 2>&1
sed -n 2,4p "$scratch/t.txt" | grep -q '^memcg' && ok "a click on '7 memcg' shows it" ||
	fail "click at column $col: $(sed -n 2p "$scratch/t.txt")"
finish
