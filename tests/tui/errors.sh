#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# `mmscope tui` outside a terminal and on bad input: one-line errors and
# the right exit status.
. "${top_srcdir:-.}/tests/lib.sh"

f="$top_srcdir/samples/compaction-6.18.dat"

"$MMSCOPE" tui "$f" </dev/null >"$scratch/out" 2>"$scratch/err"
st=$?
[ $st -eq 1 ] || fail "no terminal: exit $st, want 1"
grep -q "^error: .*not a terminal" "$scratch/err" || fail "no terminal: $(cat "$scratch/err")"
ok "refuses to run without a terminal"

"$MMSCOPE" tui "$scratch/missing.dat" </dev/null 2>"$scratch/err"
st=$?
[ $st -eq 1 ] || fail "missing file: exit $st, want 1"
grep -q "^error: .*missing.dat" "$scratch/err" || fail "missing file: $(cat "$scratch/err")"
ok "missing file"

head -c 300000 "$f" >"$scratch/short.dat"
MMSCOPE_TUI_HEADLESS=1 MMSCOPE_TUI_KEYS=q TERM=dumb "$MMSCOPE" tui "$scratch/short.dat" \
	</dev/null >"$scratch/out" 2>"$scratch/err"
st=$?
[ $st -eq 1 ] || fail "truncated file: exit $st, want 1"
[ "$(wc -l <"$scratch/err")" -eq 1 ] || fail "truncated file: $(cat "$scratch/err")"
ok "truncated file: one line, exit 1"

"$MMSCOPE" tui >/dev/null 2>&1
[ $? -eq 2 ] || fail "no file: want exit 2"
"$MMSCOPE" tui --bogus "$f" >/dev/null 2>&1
[ $? -eq 2 ] || fail "bad option: want exit 2"
ok "usage errors exit 2"

MMSCOPE_TUI_HEADLESS=1 TERM=no-such-terminal "$MMSCOPE" tui "$f" </dev/null \
	>"$scratch/out" 2>"$scratch/err"
st=$?
[ $st -eq 1 ] || fail "unknown TERM: exit $st, want 1"
grep -q "^error: " "$scratch/err" || fail "unknown TERM: $(cat "$scratch/err")"
ok "unknown terminal type"

MMSCOPE_TUI_HEADLESS=1 MMSCOPE_TUI_KEYS=q MMSCOPE_TUI_DUMP="$scratch/no/such/dir" \
	TERM=dumb "$MMSCOPE" tui "$f" </dev/null 2>"$scratch/err"
[ $? -eq 1 ] || fail "unwritable dump: want exit 1"
grep -q "cannot write screen dump" "$scratch/err" || fail "unwritable dump: $(cat "$scratch/err")"
ok "unwritable screen dump"
finish
