#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# debian/ follows the tree: Build-Depends of debian/control are the
# packages of tests/install-deps.sh (build and test lists; less
# build-essential and util-linux, which every Debian build has, plus
# debhelper-compat), and debian/changelog's upstream version is
# configure.ac's. The CI list (--ci) has what .ci/run's package build
# needs (debhelper, lintian).
. "${top_srcdir:-.}/tests/lib.sh"

control="$top_srcdir/debian/control"
[ -f "$control" ] || { fail "no debian/control"; finish; }

# Build-Depends, one name a line, without versions, arch lists or profiles
awk '/^Build-Depends:/ { on = 1; sub(/^Build-Depends:/, ""); print; next }
     on && /^[ \t]/ { print; next } on { exit }' "$control" |
	tr ',' '\n' | sed 's/[(<[].*//; s/^[ \t]*//; s/[ \t]*$//' | grep -v '^$' |
	grep -v '^debhelper-compat$' | sort -u >"$scratch/control"
sh "$top_srcdir/tests/install-deps.sh" --print | tr ' \t' '\n\n' | grep -v '^$' |
	grep -Ev '^(build-essential|util-linux)$' | sort -u >"$scratch/deps"
if diff -u "$scratch/deps" "$scratch/control" >"$scratch/diff"; then
	ok "Build-Depends are tests/install-deps.sh's $(wc -l <"$scratch/deps") packages"
else
	fail "debian/control Build-Depends differ from tests/install-deps.sh (- deps, + control): $(grep '^[-+][^-+]' "$scratch/diff" | tr '\n' ' ')"
fi
grep -q '^Build-Depends:.*debhelper-compat' "$control" || fail "Build-Depends lacks debhelper-compat"

ci=$(sh "$top_srcdir/tests/install-deps.sh" --ci --print)
for p in debhelper lintian; do
	case " $(echo $ci) " in *" $p "*) ;; *) fail "install-deps.sh --ci lacks $p (.ci/run's dpkg-buildpackage)" ;; esac
done

upstream=$(sed -n 's/^AC_INIT(\[mmscope\], \[\([^]]*\)\].*/\1/p' "$top_srcdir/configure.ac")
deb=$(sed -n '1s/^mmscope (\([^)]*\)).*/\1/p' "$top_srcdir/debian/changelog")
[ -n "$upstream" ] && [ "${deb%-*}" = "$upstream" ] &&
	ok "debian/changelog $deb packages configure.ac's $upstream" ||
	fail "debian/changelog version '$deb' is not configure.ac's '$upstream'-N"
finish
