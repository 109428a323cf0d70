#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# fetch-kernel.sh KERNEL CACHE_DIR [--refresh]
#
# Download a Debian amd64 or arm64 kernel (generic flavour) with apt-get download
# under a private apt configuration (never touches the system's apt state)
# and extract it into CACHE_DIR/KERNEL/root.
#
#   KERNEL   5.10 -> bullseye / bullseye-security linux-image-5.10.0-N-amd64-unsigned
#            6.1  -> bookworm / bookworm-security   linux-image-6.1.0-N-amd64-unsigned
#            6.12 -> bookworm-backports/-security  linux-image-6.12.N+debNN-amd64-unsigned
#            7.x  -> newest 7.x in sid or trixie-backports; split packages
#                    linux-binary-unsigned-ABI, linux-modules-ABI, linux-base-ABI
#            M.N  -> newest M.N.* found in those suites (e.g. 7.2, 6.19)
#   arm64-K  -> the same for Debian's arm64 kernel (linux-image-*-arm64-unsigned,
#               e.g. arm64-6.12 from bookworm-backports), in CACHE_DIR/arm64-K,
#               with its own apt lists (CACHE_DIR/apt-arm64)
#   arm64-16k-K -> Debian's arm64 kernel with 16 KB pages (flavour arm64-16k:
#               linux-image-*-arm64-16k-unsigned, or from 6.19 the split
#               linux-binary-unsigned-*-arm64-16k), in CACHE_DIR/arm64-16k-K,
#               with the arm64 apt lists
#
# Prints KEY=VALUE lines (also stored in CACHE_DIR/KERNEL/kernel.env):
#   KERNEL_VMLINUZ=...  KERNEL_MODULES=...  KERNEL_VERSION=<uname -r>
#   KERNEL_PACKAGES="name=version ..."  KERNEL_CONFIG=...
# A second run uses the cache and does not touch the network
# (--refresh forces a new apt-get update and download).
# Exit 77 with a one-line reason when the kernel cannot be fetched.
set -euo pipefail

die() { echo "fetch-kernel: $*" >&2; exit 1; }
skip() { echo "fetch-kernel: cannot fetch: $*" >&2; exit 77; }

[ $# -ge 2 ] || die "usage: fetch-kernel.sh [arm64-]KERNEL(6.1|6.12|7.x) CACHE_DIR [--refresh]"
KERNEL=$1
CACHE=$2
REFRESH=${3:-}
[[ $KERNEL =~ ^(arm64-(16k-)?)?([0-9]+\.[0-9]+|7\.x)$ ]] || die "bad KERNEL '$KERNEL' (want 6.1, 6.12, 7.x, another MAJOR.MINOR, arm64-M.N or arm64-16k-M.N)"
# ARCH: the Debian architecture (apt lists); FLAVOUR: the package names'
# suffix (amd64, arm64, arm64-16k)
ARCH=amd64 FLAVOUR=amd64 SERIES=$KERNEL
case $KERNEL in
arm64-16k-*) ARCH=arm64 FLAVOUR=arm64-16k SERIES=${KERNEL#arm64-16k-} ;;
arm64-*) ARCH=arm64 FLAVOUR=arm64 SERIES=${KERNEL#arm64-} ;;
esac
mkdir -p "$CACHE"
CACHE=$(cd "$CACHE" && pwd)
KDIR=$CACHE/$KERNEL
ENVF=$KDIR/kernel.env

if [ "$REFRESH" != --refresh ] && [ -s "$ENVF" ]; then
	cat "$ENVF"
	exit 0
fi

# One fetch at a time in a cache: the matrix runs two cases at once, and
# two cases of one kernel fetching into an empty cache unpacked over each
# other (rm -rf of the root under the other's dpkg-deb -x: "Directory not
# empty", an initramfs without its modules). The lock is released when
# this script exits; the one that waited finds the kernel fetched.
exec 9>"$CACHE/.fetch.lock"
flock 9
if [ "$REFRESH" != --refresh ] && [ -s "$ENVF" ]; then
	cat "$ENVF"
	exit 0
fi

# ---- private apt configuration ----------------------------------------
# shellcheck source=tests/vm/apt-private.sh
. "$(dirname "${BASH_SOURCE[0]}")/apt-private.sh"
apt_private "$CACHE" "$ARCH" "$REFRESH"

# newest version of a package among all configured suites
newest_version() {
	apt-cache "${APTOPTS[@]}" madison "$1" 2>/dev/null | awk -F'|' '{gsub(/ /,"",$2); print $2}' |
		while read -r v; do echo "$v"; done | sort -V | tail -1
}
# package names matching an extended regex, sorted by version (newest last)
names_matching() {
	apt-cache "${APTOPTS[@]}" pkgnames "$1" 2>/dev/null | grep -E "$2" | sort -V || true
}

# Candidate names, newest first. From 6.19 on Debian splits a kernel into
# linux-binary-unsigned-ABI (vmlinuz), linux-modules-ABI and linux-base-ABI;
# up to 6.18 it is one linux-image-ABI-unsigned. apt-cache pkgnames also
# lists names that are only referenced, so take the newest with a version.
case "$SERIES" in
7.x) series='7\.[0-9]+' ;;
*) series=${SERIES//./\\.} ;;
esac
PKGS=() PKGVERS=()
while read -r name; do
	[ -n "$name" ] || continue
	case $name in
	linux-binary-unsigned-*)
		ABI=${name#linux-binary-unsigned-}
		try=("$name" "linux-modules-$ABI" "linux-base-$ABI") ;;
	*)
		ABI=${name#linux-image-}; ABI=${ABI%-unsigned}
		try=("$name") ;;
	esac
	vers=() ok=1
	for p in "${try[@]}"; do
		v=$(newest_version "$p")
		if [ -z "$v" ]; then
			[ "$p" = "linux-base-$ABI" ] && continue   # optional (config, System.map)
			ok=0; break
		fi
		vers+=("$p=$v")
	done
	if [ $ok = 1 ]; then PKGS=("${try[@]}"); PKGVERS=("${vers[@]}"); break; fi
done < <({ names_matching linux-binary-unsigned- "^linux-binary-unsigned-${series}\.[0-9]+\+[a-z0-9.]+-${FLAVOUR}\$"
	   names_matching linux-image- "^linux-image-${series}\.[0-9]+(-[0-9]+)?(\+[a-z0-9.]+)?-${FLAVOUR}-unsigned\$"
	 } | sed -E 's/^(linux-binary-unsigned-|linux-image-)(.*)$/\2 \1\2/' | sort -V -r | cut -d' ' -f2)
[ ${#PKGVERS[@]} -gt 0 ] || skip "no $FLAVOUR (generic flavour) kernel package for $SERIES in bullseye, bullseye-security, bookworm, bookworm-backports, bookworm-security, trixie-backports or sid"

DEBS=$KDIR/debs
ROOT=$KDIR/root
mkdir -p "$DEBS"
tmp=$(mktemp -d "$KDIR/.tmp.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
for pv in "${PKGVERS[@]}"; do
	p=${pv%%=*}
	if ! ls "$DEBS/${p}_"*.deb >/dev/null 2>&1 || [ "$REFRESH" = --refresh ]; then
		(cd "$tmp" && apt-get "${APTOPTS[@]}" -qq download "$pv" >"$tmp/download.log" 2>&1) ||
			skip "apt-get download $pv failed: $(grep -E '^(E|W):' "$tmp/download.log" | head -1)"
		rm -f "$DEBS/${p}_"*.deb
		mv "$tmp"/*.deb "$DEBS/"
	fi
done

rm -rf "$ROOT"
mkdir -p "$ROOT"
for pv in "${PKGVERS[@]}"; do
	p=${pv%%=*}
	dpkg-deb -x "$(ls "$DEBS/${p}_"*.deb | tail -1)" "$ROOT"
done

# <= 6.18: /boot/vmlinuz-ABI; >= 6.19 split packages: /usr/lib/modules/ABI/vmlinuz.unsigned
VMLINUZ=$ROOT/boot/vmlinuz-$ABI
[ -f "$VMLINUZ" ] || VMLINUZ=$(find "$ROOT" \( -name "vmlinuz-*" -o -name "vmlinuz*" \) -type f | sort | head -1)
[ -n "$VMLINUZ" ] && [ -f "$VMLINUZ" ] || skip "no vmlinuz in ${PKGS[*]}"
MODULES=
for d in "$ROOT/usr/lib/modules/$ABI" "$ROOT/lib/modules/$ABI"; do
	[ -d "$d" ] && { MODULES=$d; break; }
done
[ -n "$MODULES" ] || skip "no modules dir for $ABI in ${PKGS[*]}"
CONFIG=$(find "$ROOT" -type f \( -name "config-$ABI" -o -path "*/modules/$ABI/config" \) | head -1)

{
	printf 'KERNEL_VERSION=%s\n' "$ABI"
	printf 'KERNEL_VMLINUZ=%s\n' "$VMLINUZ"
	printf 'KERNEL_MODULES=%s\n' "$MODULES"
	printf 'KERNEL_CONFIG=%s\n' "$CONFIG"
	printf 'KERNEL_PACKAGES="%s"\n' "${PKGVERS[*]}"
} > "$tmp/kernel.env"
mv "$tmp/kernel.env" "$ENVF"
cat "$ENVF"
