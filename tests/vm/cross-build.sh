#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# cross-build.sh ARCH BUILD_DIR
#
# Builds mmscope for an arm64 guest: static, with gcc-aarch64-linux-gnu
# (crossbuild-essential-arm64) and the libraries of fetch-sysroot.sh
# (./configure --host=aarch64-linux-gnu, pkg-config pointed at the
# sysroot). BUILD_DIR keeps the configured tree, so a second run only
# rebuilds what changed. Prints the binary's path on the last line.
# A source tree configured in place (the README's way) cannot be
# configured a second time: the build then uses a clean copy of the
# sources in BUILD_DIR/source-copy (git ls-files, or make distdir in a tarball),
# refreshed at each run with the files' times kept, so make still
# rebuilds only what changed.
# Exit 77 with a one-line reason when the compiler or the sysroot is
# missing.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
[ $# -eq 2 ] || { echo "usage: cross-build.sh arm64 BUILD_DIR" >&2; exit 2; }
ARCH=$1 BDIR=$2
[ "$ARCH" = arm64 ] || { echo "cross-build: unknown ARCH $ARCH (arm64)" >&2; exit 2; }
TRIPLET=aarch64-linux-gnu
command -v $TRIPLET-gcc >/dev/null ||
	{ echo "cross-build: $TRIPLET-gcc not found (apt-get install gcc-aarch64-linux-gnu)" >&2; exit 77; }
CACHE=${MMSCOPE_VM_CACHE:-$REPO/build/vm-cache}
set +e
senv=$("$HERE/fetch-sysroot.sh" "$ARCH" "$CACHE")
rc=$?
set -e
[ $rc -eq 0 ] || exit $rc
SYSROOT='' SYSROOT_PKGCONFIG=''
eval "$senv"
mkdir -p "$BDIR"
BDIR=$(cd "$BDIR" && pwd)
SRC=$REPO
if [ -f "$REPO/config.status" ]; then
	SRC=$BDIR/source-copy
	mkdir -p "$SRC"
	if git -C "$REPO" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		# the tracked files as they are in the work tree (edits included)
		(cd "$REPO" && git ls-files -z --cached | tar --null --ignore-failed-read -T - -cf - 2>/dev/null) |
			tar -xf - -C "$SRC" ||
			{ echo "cross-build: cannot copy the sources of $REPO into $SRC" >&2; exit 1; }
	else
		rm -rf "$SRC.new"
		make -C "$REPO" distdir distdir="$SRC.new" >"$BDIR/distdir.log" 2>&1 ||
			{ echo "cross-build: make distdir in $REPO failed ($BDIR/distdir.log)" >&2; exit 1; }
		# distdir keeps the files' times (cp -p), and so does tar
		(cd "$SRC.new" && tar -cf - .) | tar -xf - -C "$SRC"
		rm -rf "$SRC.new"
	fi
	[ ! -f "$SRC/config.status" ] ||
		{ echo "cross-build: $SRC is configured in place" >&2; exit 1; }
fi
export PKG_CONFIG_SYSROOT_DIR=$SYSROOT PKG_CONFIG_LIBDIR=$SYSROOT_PKGCONFIG
# the configure cache names the sysroot: another one means configure again
if [ ! -f "$BDIR/Makefile" ] || [ "$(cat "$BDIR/.sysroot" 2>/dev/null)" != "$SYSROOT" ]; then
	[ -f "$SRC/configure" ] || (cd "$SRC" && autoreconf -fi) >"$BDIR/autoreconf.log" 2>&1 ||
		{ echo "cross-build: autoreconf in $SRC failed ($BDIR/autoreconf.log)" >&2; exit 1; }
	(cd "$BDIR" && "$SRC/configure" --host=$TRIPLET LDFLAGS=-static \
		PKG_CONFIG="pkg-config --static") >"$BDIR/configure.log" 2>&1 ||
		{ tail -5 "$BDIR/configure.log" >&2; echo "cross-build: configure failed ($BDIR/configure.log)" >&2; exit 1; }
	echo "$SYSROOT" > "$BDIR/.sysroot"
fi
make -C "$BDIR" -j2 mmscope >"$BDIR/make.log" 2>&1 ||
	{ grep -m5 -E 'error' "$BDIR/make.log" >&2; echo "cross-build: make failed ($BDIR/make.log)" >&2; exit 1; }
echo "$BDIR/mmscope"
