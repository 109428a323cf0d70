#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# fetch-sysroot.sh ARCH CACHE_DIR [--refresh]
#
# The libraries mmscope links and the guest's busybox for a foreign
# architecture (arm64), from Debian bookworm: apt-get download under the
# private apt configuration of fetch-kernel.sh (apt-private.sh; the
# system's dpkg architectures are not touched), dpkg-deb -x into
# CACHE_DIR/ARCH-sysroot/root. Prints SYSROOT=..., SYSROOT_PKGCONFIG=...
# (for PKG_CONFIG_LIBDIR) and SYSROOT_BUSYBOX=... (also stored in
# CACHE_DIR/ARCH-sysroot/sysroot.env; a second run uses the cache).
# Exit 77 with a one-line reason when it cannot be fetched.
set -euo pipefail

die() { echo "fetch-sysroot: $*" >&2; exit 1; }
skip() { echo "fetch-sysroot: cannot fetch: $*" >&2; exit 77; }

[ $# -ge 2 ] || die "usage: fetch-sysroot.sh ARCH(arm64) CACHE_DIR [--refresh]"
ARCH=$1 CACHE=$2 REFRESH=${3:-}
case $ARCH in arm64) TRIPLET=aarch64-linux-gnu ;; *) die "unknown ARCH '$ARCH' (arm64)" ;; esac
mkdir -p "$CACHE"
CACHE=$(cd "$CACHE" && pwd)
SDIR=$CACHE/$ARCH-sysroot
ENVF=$SDIR/sysroot.env
if [ "$REFRESH" != --refresh ] && [ -s "$ENVF" ]; then
	cat "$ENVF"
	exit 0
fi

# shellcheck source=tests/vm/apt-private.sh
. "$(dirname "${BASH_SOURCE[0]}")/apt-private.sh"
apt_private "$CACHE" "$ARCH" "$REFRESH"

# the -dev packages of configure.ac's libraries, their runtime parts (the
# .a files are in the -dev ones), and the guest's shell
PKGS="libtraceevent-dev libtraceevent1 libtracefs-dev libtracefs1 zlib1g-dev zlib1g
	libzstd-dev libzstd1 libncurses-dev libncurses6 libncursesw6 libtinfo6 busybox-static"
tmp=$(mktemp -d "$CACHE/.sysroot.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# shellcheck disable=SC2046
(cd "$tmp" && apt-get "${APTOPTS[@]}" -qq download $(printf '%s/bookworm ' $PKGS) >"$tmp/download.log" 2>&1) ||
	skip "apt-get download ($ARCH) failed: $(grep -E '^(E|W):' "$tmp/download.log" | tail -1)"
rm -rf "$SDIR"
mkdir -p "$SDIR/debs" "$SDIR/root"
mv "$tmp"/*.deb "$SDIR/debs/"
for d in "$SDIR"/debs/*.deb; do
	dpkg-deb -x "$d" "$SDIR/root"
done
PC=$SDIR/root/usr/lib/$TRIPLET/pkgconfig:$SDIR/root/usr/share/pkgconfig
[ -x "$SDIR/root/bin/busybox" ] || skip "no bin/busybox in busybox-static ($ARCH)"
{
	printf 'SYSROOT=%s\n' "$SDIR/root"
	printf 'SYSROOT_TRIPLET=%s\n' "$TRIPLET"
	printf 'SYSROOT_PKGCONFIG=%s\n' "$PC"
	printf 'SYSROOT_BUSYBOX=%s\n' "$SDIR/root/bin/busybox"
	printf 'SYSROOT_PACKAGES="%s"\n' "$(cd "$SDIR/debs" && ls | tr '\n' ' ')"
} > "$tmp/sysroot.env"
mv "$tmp/sysroot.env" "$ENVF"
cat "$ENVF"
