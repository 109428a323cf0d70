#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# convert to zlib says, in one warning line after the file is made, that
# Debian's trace-cmd cannot read it (where this trace-cmd has no zlib, the
# warning is checked true); zstd and none say nothing.
. "${top_srcdir:-.}/tests/lib.sh"

rec="$top_srcdir/samples/compaction-6.18.dat"
"$MMSCOPE" convert "$rec" --compression zlib -o "$scratch/z.dat" 2>"$scratch/err" ||
	fail "convert --compression zlib failed: $(cat "$scratch/err")"
[ "$(wc -l <"$scratch/err")" -eq 1 ] && grep -q "^warning: .*z.dat: zlib.*trace-cmd.*cannot read" "$scratch/err" &&
	ok "zlib: one warning: $(cat "$scratch/err")" ||
	fail "zlib: no one-line warning about trace-cmd: '$(cat "$scratch/err")'"
"$MMSCOPE" dump --stat "$scratch/z.dat" >/dev/null || fail "the zlib file does not read back"
for c in zstd none; do
	"$MMSCOPE" convert "$rec" --compression $c -o "$scratch/$c.dat" 2>"$scratch/err" ||
		fail "convert --compression $c failed"
	[ -s "$scratch/err" ] && fail "$c: said '$(cat "$scratch/err")'" || ok "$c: no warning"
done
# a failed conversion makes no file and gives no warning about it
"$MMSCOPE" convert "$scratch/missing.dat" --compression zlib -o "$scratch/m.dat" 2>"$scratch/err"
grep -q warning "$scratch/err" && fail "warned about a file not made: $(cat "$scratch/err")"
if command -v trace-cmd >/dev/null && ! trace-cmd list -c 2>/dev/null | grep -q zlib; then
	trace-cmd report "$scratch/z.dat" >/dev/null 2>&1 && fail "this trace-cmd reads zlib after all" ||
		ok "this trace-cmd (no zlib) indeed cannot read it"
fi
finish
