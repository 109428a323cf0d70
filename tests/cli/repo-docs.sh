#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# What the repository says about itself holds for anyone who has only the
# repository (a clone or the tarball):
#  - no document points outside it (the design notes of the machine it was
#    written on: ../shared/...), and DEVELOPERS.md explains the pipeline;
#  - no absolute path of a build machine (a home, root's, the lab's work
#    directory: the pattern abs below) in the
#    documents, the goldens, or what the recordings say about themselves
#    (mmscope metadata, the mms1 ctx/outcome samples: the command line);
#  - no bug address that reaches nobody in configure.ac; the package's
#    Maintainer is one address in control and changelog, not a kernel
#    list's;
#  - a command in an example is safe to paste: no unquoted '>' inside a
#    word (--trigger psi-some>20 creates a file "20");
#  - dump is not claimed to print trace-cmd's bytes (it does not: the
#    system: prefix and the spacing differ, tests/oracle/trace-cmd.sh).
. "${top_srcdir:-.}/tests/lib.sh"

top=$top_srcdir
# the documents: every markdown file and man page, debian/, configure.ac
# (found, not listed by git: the tarball has no .git; build trees, even
# distcheck's _build inside the sources, are left out)
find "$top" \( -name _build -o -name 'build*' -o -name autom4te.cache -o -name .git \) -prune -o \
	-type f \( -name '*.md' -o -path '*/man/*.[1-8]' -o -path '*/debian/*' \) -print |
	sort >"$scratch/docs"
echo "$top/configure.ac" >>"$scratch/docs"
[ "$(wc -l <"$scratch/docs")" -gt 10 ] || fail "found only $(wc -l <"$scratch/docs") documents"

# 1. nothing outside the repository
: >"$scratch/out"
while read -r f; do
	grep -Hn -e '\.\./shared/' -e '/wor[k]/shared' "$f" >>"$scratch/out"
done <"$scratch/docs"
[ -s "$scratch/out" ] && fail "documents pointing outside the repository: $(cat "$scratch/out")" ||
	ok "no document points outside the repository"
for w in pipeline parsers models "recording format\|trace.dat" "tests/"; do
	grep -qi "$w" "$top/DEVELOPERS.md" || fail "DEVELOPERS.md does not explain: $w"
done

# 2. no absolute path of a build machine
abs='(^|[^A-Za-z0-9_.>~-])/(work|home|root)/'
: >"$scratch/abs"
while read -r f; do
	grep -HnE "$abs" "$f" >>"$scratch/abs"
done <"$scratch/docs"
for f in "$top"/tests/golden/*; do
	grep -HnE "$abs" "$f" >>"$scratch/abs"
done
n=0
for f in $(find "$top/samples" "$top/tests/data" "$top/tests/fuzz" -name '*.dat' | sort); do
	n=$((n + 1))
	{ "$MMSCOPE" dump --info "$f" 2>/dev/null | sed -n '/^mmscope metadata:/,$p'
	  "$MMSCOPE" dump -e ftrace:print "$f" 2>/dev/null | grep -a 'mms1 \(ctx\|outcome\) '
	  grep -a -o -E ".{0,30}$abs.{0,30}" "$f"; } |
		grep -a -E "$abs" | head -2 | sed "s|^|${f#"$top/"}: |" >>"$scratch/abs"
done
[ "$n" -gt 30 ] || fail "found only $n recordings"
if [ -s "$scratch/abs" ]; then
	fail "absolute paths of a build machine: $(cat "$scratch/abs")"
else
	ok "no absolute path of a build machine in the documents, the goldens and $n recordings"
fi

# 3. no bug address that reaches nobody (issue 44.11): configure.ac names
# none (README's "Reporting problems" says what to attach instead); the
# package's Maintainer (which Debian's format requires) is one address in
# control and changelog, not a kernel list's
bug=$(sed -n 's/^AC_INIT(\[mmscope\], \[[^]]*\], \[\([^]]*\)\].*/\1/p' "$top/configure.ac")
[ -z "$bug" ] && ok "configure.ac's AC_INIT names no bug address" ||
	fail "configure.ac's AC_INIT names the bug address $bug"
grep -q '^## Reporting problems' "$top/README.md" && ok "README says how to report a problem" ||
	fail "README has no 'Reporting problems' section"
maint=$(sed -n 's/^Maintainer: .*<\([^>]*\)>.*/\1/p' "$top/debian/control")
case $maint in
'' | *@vger.kernel.org | *@kvack.org | *@lists.linux.dev | *@kernel.org | *@debian.org)
	fail "debian/control's Maintainer address '$maint' is none or not the project's" ;;
esac
grep -E '^ -- ' "$top/debian/changelog" | grep -v -F "<$maint>" | sed 's|^|debian/changelog: |' >"$scratch/addr"
[ -s "$scratch/addr" ] && fail "not the Maintainer <$maint>: $(cat "$scratch/addr")" ||
	ok "Maintainer and changelog: <$maint>"

# 4. examples safe to paste: the command lines of man pages' .EX blocks and
# of README's code blocks, quoted strings removed, have no WORD>WORD
{
	for f in "$top"/man/*.[1-8]; do
		awk -v f="${f#"$top/"}" '/^\.EX/ { on = 1; next } /^\.EE/ { on = 0 }
			on && /^[#$] / { print f ": " $0 }' "$f"
	done
	awk '/^```/ { on = !on; next } on && !/^ *#/ { print "README.md: " $0 }' "$top/README.md"
} | sed "s/'[^']*'//g; s/\"[^\"]*\"//g" | grep -E '[A-Za-z0-9)\\-]>[A-Za-z0-9]' >"$scratch/gt"
[ -s "$scratch/gt" ] && fail "unquoted '>' in an example command: $(cat "$scratch/gt")" ||
	ok "no unquoted '>' in the examples"

# 5. what dump has in common with trace-cmd report, said as it is
grep -n -i 'byte for byte\|byte-for-byte\|byte-identical' "$top/README.md" "$top/man/mmscope-dump.1" |
	grep -i 'dump\|trace-cmd' >"$scratch/bytes"
[ -s "$scratch/bytes" ] && fail "dump claimed to print trace-cmd's bytes: $(cat "$scratch/bytes")" ||
	ok "dump is not claimed byte-identical to trace-cmd report"

# 6. a build in place leaves nothing git would list as new: every file this
# (out-of-tree) build made is ignored at the same path in the sources
if [ "$(cd "$top_builddir" && pwd -P)" = "$(cd "$top" && pwd -P)" ]; then
	ok "built in place: the build products are not told from the sources here"
elif ! git -C "$top" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	ok "no git work tree (a tarball): nothing to ignore"
else
	(cd "$top_builddir" && find . -type f ! -name '*.o' ! -path '*/.deps/*' ! -name '*.log' \
		! -name '*.trs' | sed 's|^\./||' | sort) >"$scratch/products"
	git -C "$top" check-ignore --no-index -v --non-matching --stdin <"$scratch/products" |
		sed -n 's/^::\t//p' >"$scratch/unignored"
	# a file the sources track is not a product (nor a path to ignore),
	# nor is one the Makefile has no rule for (a developer's own notes)
	git -C "$top" ls-files >"$scratch/tracked"
	sed -n 's/^\([^\t #$:][^ :$]*\)\(\$(EXEEXT)\)\{0,1\}:.*/\1/p' "$top_builddir/Makefile" |
		sort -u >"$scratch/targets"
	sort "$scratch/unignored" | comm -23 - "$scratch/tracked" | comm -12 - "$scratch/targets" |
		sort -u >"$scratch/new"
	[ -s "$scratch/new" ] && fail "build products git would list as new in a tree built in place: $(tr '\n' ' ' <"$scratch/new")" ||
		ok "the $(wc -l <"$scratch/products") files of this build are ignored in the sources"
fi
finish
