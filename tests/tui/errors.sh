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
# tui --live: record's own parser checks the options before anything
# starts (so no root is needed here), refuses what a live session cannot
# follow, and names tui in the usage. Nothing is left in TMPDIR.
mkdir "$scratch/tmp"
live_usage() { # WANT ARGS...
	want=$1
	shift
	TMPDIR="$scratch/tmp" "$MMSCOPE" tui --live "$@" </dev/null >/dev/null 2>"$scratch/err"
	st=$?
	if [ $st -eq 2 ] && head -n 1 "$scratch/err" | grep -q -- "$want" &&
		grep -q "mmscope tui --help" "$scratch/err"; then
		ok "tui --live $*: $(head -n 1 "$scratch/err")"
	else
		fail "tui --live $*: exit $st, $(cat "$scratch/err") (want '$want', exit 2)"
	fi
}
live_usage "'--clock' cannot be used with --live" --clock global
live_usage "'--flight-recorder' cannot be used with --live" --flight-recorder
live_usage "'-q' cannot be used with --live" -g kswapd -fq
live_usage "'--spool' cannot be used with --live" --spool=dir
live_usage "'--trigger' cannot be used with --live" --trigger psi-some=5
live_usage "option '-o' is unknown or needs a value" -o
live_usage "unknown event group 'nosuchgroup'" -g nosuchgroup
live_usage "bad --buffer-kb '1'" --buffer-kb 1
live_usage "option '--bogus' is unknown" -g kswapd --bogus
live_usage "an empty output file name" -o ""
[ -z "$(ls -A "$scratch/tmp")" ] && ok "tui --live: nothing made before the options are checked" ||
	fail "tui --live left $(ls -A "$scratch/tmp")"
"$MMSCOPE" tui --live -g kswapd --help >"$scratch/out" 2>&1 &&
	grep -q "^usage: mmscope tui" "$scratch/out" && ok "tui --live --help: tui's help" ||
	fail "tui --live --help: $(cat "$scratch/out")"
finish
