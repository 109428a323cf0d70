#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Every command "mmscope --help" lists has a man page, its own --help works,
# its man SYNOPSIS names every long option its --help shows, mmscope(1)'s
# SEE ALSO names its page, no bug address that reaches nobody is named,
# and every man page is clean under "groff -man -ww" (without groff that
# part cannot run: the test then skips).
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
# no address that reaches nobody (issue 44 item 11): configure --help
# names no bug address, and README's "Reporting problems" says what a
# report of a problem carries (doctor's output, the report's header)
"$top_srcdir/configure" --help >"$scratch/conf" 2>&1 || fail "configure --help failed"
if grep -q 'Report bugs to <' "$scratch/conf" || grep -rqE '@[a-z.]*\.(invalid|example)\b' \
	"$top_srcdir/README.md" "$top_srcdir/man" "$scratch/conf"; then
	fail "a bug address that reaches nobody: $(grep -h 'Report bugs to' "$scratch/conf")"
else
	ok "no bug address that reaches nobody"
fi
awk '/^## Reporting problems/ { on = 1; next } /^## / { on = 0 } on' "$top_srcdir/README.md" >"$scratch/rp"
grep -q 'mmscope doctor' "$scratch/rp" && grep -q 'report -s header' "$scratch/rp" &&
	ok "README: Reporting problems names doctor and the report's header" ||
	fail "README has no Reporting problems section naming mmscope doctor and report -s header"
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
