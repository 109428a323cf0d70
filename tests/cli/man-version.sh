#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# `make install` (into a scratch DESTDIR) installs every man page of man/,
# each saying in its .TH line which version it describes ("mmscope
# 0.1.0", as `mmscope --version` says; never "@VERSION@"), and the bash
# completion under share/bash-completion/completions.
. "${top_srcdir:-.}/tests/lib.sh"

version=$("$MMSCOPE" --version | awk '{print $2}')
[ -n "$version" ] || { fail "mmscope --version printed no version"; finish; }
dest="$scratch/dest"
# install-data: the pages, the completion and the hook that versions the pages
${MAKE:-make} -C "$top_builddir" install-data DESTDIR="$dest" >"$scratch/make.log" 2>&1 ||
	{ tail -20 "$scratch/make.log" >&2; fail "make install-data DESTDIR=... failed"; finish; }

n=0
for src in "$top_srcdir"/man/*.[1-8]; do
	b=${src##*/}
	page=$(find "$dest" -path "*/man${b##*.}/$b" | head -1)
	[ -n "$page" ] || { fail "$b is not installed"; continue; }
	n=$((n + 1))
	th=$(grep -m1 '^\.TH ' "$page")
	# .TH NAME SECTION DATE SOURCE MANUAL: the fourth argument
	src_field=$(printf '%s\n' "$th" | awk -F'"' '{print $4}')
	[ "$src_field" = "mmscope $version" ] ||
		fail "$b: installed .TH says '$src_field', want 'mmscope $version' ($th)"
	grep -q '@[A-Z_]*@' "$page" && fail "$b: unexpanded $(grep -o '@[A-Z_]*@' "$page" | head -1)"
	# the rest of the page is the page in man/
	grep -v '^\.TH ' "$src" >"$scratch/a"
	grep -v '^\.TH ' "$page" >"$scratch/b"
	cmp -s "$scratch/a" "$scratch/b" || fail "$b: installed page differs beyond its .TH line"
done
[ "$n" -gt 0 ] && ok "$n man pages installed, each .TH saying 'mmscope $version'"
comp=$(find "$dest" -path '*/share/bash-completion/completions/mmscope')
[ -n "$comp" ] && cmp -s "$comp" "$top_builddir/completion/mmscope" &&
	ok "bash completion installed in share/bash-completion/completions" ||
	fail "bash completion not installed as share/bash-completion/completions/mmscope"
finish
