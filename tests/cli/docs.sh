#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Every command "mmscope --help" lists has a man page, its own --help works,
# its man SYNOPSIS names every long option its --help shows, mmscope(1)'s
# SEE ALSO names its page, and every man page is clean under "groff -man
# -ww" (without groff that part cannot run: the test then skips).
. "${top_srcdir:-.}/tests/lib.sh"

# the SEE ALSO section of mmscope(1), where each command's page is named
awk '/^\.SH/ { on = /SEE ALSO/ } on' "$top_srcdir/man/mmscope.1" >"$scratch/seealso"
cmds=$("$MMSCOPE" --help | awk '/^commands:/ {on = 1; next} on && NF {print $1} on && !NF {exit}')
[ -n "$cmds" ] || fail "mmscope --help lists no commands"
for c in $cmds; do
	page="$top_srcdir/man/mmscope-$c.1"
	[ -f "$page" ] || { fail "$c: no man page man/mmscope-$c.1"; continue; }
	"$MMSCOPE" "$c" --help >"$scratch/help" || fail "$c --help failed"
	head -1 "$scratch/help" | grep -q "^usage: mmscope $c" || fail "$c --help has no usage line"
	grep -Eo -- '--[a-z][a-z-]+' "$scratch/help" | sort -u | while read -r opt; do
		[ "$opt" = --help ] && continue
		# roff escapes the dashes: \-\-name
		esc=$(printf '%s' "$opt" | sed 's/-/\\\\-/g')
		grep -q -- "$esc" "$page" || echo "$c: option $opt is not in man/mmscope-$c.1"
	done >"$scratch/missing"
	[ -s "$scratch/missing" ] && fail "$(cat "$scratch/missing")"
	grep -q "^\.BR mmscope-$c (1)" "$scratch/seealso" ||
		fail "$c: the SEE ALSO of man/mmscope.1 does not name mmscope-$c(1)"
	ok "$c: man page and --help agree"
done
if command -v groff >/dev/null; then
	for page in "$top_srcdir"/man/*.[1-8]; do
		out=$(groff -man -ww -z "$page" 2>&1)
		[ -z "$out" ] || fail "$(basename "$page"): $out"
	done
	ok "man pages lint clean"
else
	skip "groff not installed: man pages not linted (the other checks passed)"
fi
finish
