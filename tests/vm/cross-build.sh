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
[ ! -f "$REPO/config.status" ] ||
	{ echo "cross-build: $REPO is configured in place; a second configuration needs a clean source tree (make distclean there, build in a subdirectory)" >&2; exit 77; }
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
export PKG_CONFIG_SYSROOT_DIR=$SYSROOT PKG_CONFIG_LIBDIR=$SYSROOT_PKGCONFIG
# the configure cache names the sysroot: another one means configure again
if [ ! -f "$BDIR/Makefile" ] || [ "$(cat "$BDIR/.sysroot" 2>/dev/null)" != "$SYSROOT" ]; then
	[ -f "$REPO/configure" ] || (cd "$REPO" && autoreconf -fi) >"$BDIR/autoreconf.log" 2>&1
	(cd "$BDIR" && "$REPO/configure" --host=$TRIPLET LDFLAGS=-static \
		PKG_CONFIG="pkg-config --static") >"$BDIR/configure.log" 2>&1 ||
		{ tail -5 "$BDIR/configure.log" >&2; echo "cross-build: configure failed ($BDIR/configure.log)" >&2; exit 1; }
	echo "$SYSROOT" > "$BDIR/.sysroot"
fi
make -C "$BDIR" -j2 mmscope >"$BDIR/make.log" 2>&1 ||
	{ grep -m5 -E 'error' "$BDIR/make.log" >&2; echo "cross-build: make failed ($BDIR/make.log)" >&2; exit 1; }
echo "$BDIR/mmscope"
