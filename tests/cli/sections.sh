#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The report sections come from one table (src/report.c): "report --help"
# lists them with their help lines, and man/mmscope-report.1 must list the
# same names and lines in the same order (under --section) and describe
# each under SECTIONS. Every listed name works with --section, in text
# (the only title printed is that section's) and in JSON (its member).
. "$(dirname "$0")/../lib.sh"

page="$top_srcdir/man/mmscope-report.1"
rec="$top_srcdir/samples/compaction-6.18.dat"

# "name<TAB>help" from --help: the indented lines after "sections"
"$MMSCOPE" report --help >"$scratch/help" || fail "report --help failed"
awk '/^sections/ { on = 1; next }
     on && /^  [a-z]/ { name = $1; sub(/^  [a-z0-9_-]+ +/, ""); print name "\t" $0 }' \
	"$scratch/help" >"$scratch/help.list"
[ -s "$scratch/help.list" ] || fail "report --help lists no sections"
awk 'length > 79 { print "report --help line " FNR " is " length " columns" }' \
	"$scratch/help" >"$scratch/wide"
[ -s "$scratch/wide" ] && fail "$(cat "$scratch/wide")"

# the same from the man page: the .RS list under --section, ".B name"
# then the help line, with roff's \- unescaped
awk '/^\.BR \\-s / { opt = 1; next }
     opt && /^\.RS/ { on = 1; next }
     on && /^\.RE/ { exit }
     on && /^\.B / { name = $2; getline; gsub(/\\-/, "-"); print name "\t" $0 }' \
	"$page" >"$scratch/man.list"
if diff -u "$scratch/man.list" "$scratch/help.list" >"$scratch/diff"; then
	ok "man page lists the sections of report --help"
else
	cat "$scratch/diff" >&2
	fail "man/mmscope-report.1 --section list differs from report --help"
fi

# one subsection per section under SECTIONS, in the same order
awk '/^\.SH SECTIONS/ { on = 1; next } on && /^\.SH/ { exit } on && /^\.SS / { print $2 }' \
	"$page" >"$scratch/man.ss"
cut -f1 "$scratch/help.list" >"$scratch/help.names"
if diff -u "$scratch/man.ss" "$scratch/help.names" >"$scratch/diff"; then
	ok "man SECTIONS describes each section in order"
else
	cat "$scratch/diff" >&2
	fail "man/mmscope-report.1 SECTIONS subsections differ from report --help"
fi

# each name works; text prints one titled section; JSON has its member
# (summary has none of its own: it brings the header and the models')
"$MMSCOPE" report "$rec" >"$scratch/all.txt" || fail "report failed"
titles=0
while IFS='	' read -r name help; do
	"$MMSCOPE" report --section "$name" "$rec" >"$scratch/t" ||
		{ fail "--section $name failed"; continue; }
	# a title is the line above a dashed rule
	n=$(grep -c '^----------' "$scratch/t")
	[ "$n" -ge 1 ] || fail "--section $name printed no section"
	# phases: in the whole report only when the recording marked some
	[ "$name" = phases ] && ! grep -q '^Phases$' "$scratch/all.txt" && n=0
	titles=$((titles + n))
	"$MMSCOPE" report --format json --section "$name" "$rec" >"$scratch/j" ||
		{ fail "--section $name --format json failed"; continue; }
	member=$name
	[ "$name" = summary ] && member=header
	grep -q "^\"$member\": " "$scratch/j" || fail "json --section $name has no \"$member\""
done <"$scratch/help.list"
# every section printed alone adds up to the whole report
all=$(grep -c '^----------' "$scratch/all.txt")
[ "$titles" -eq "$all" ] || fail "sections one by one print $titles titles, the report $all"
ok "every section works alone, in text and JSON"

"$MMSCOPE" report --section nosuch "$rec" >/dev/null 2>"$scratch/err"
[ $? -eq 2 ] || fail "unknown section should exit 2"
grep -q "unknown section 'nosuch' (header, " "$scratch/err" ||
	fail "unknown section error does not list the names"
finish
