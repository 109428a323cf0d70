#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# fetch-earlyoom.sh CACHE_DIR [--refresh]
#
# Debian bookworm's earlyoom (a userspace OOM killer: SIGKILLs the task
# with the highest oom_score once MemAvailable and SwapFree fall below its
# kill thresholds), fetched with apt-get download under the private apt
# configuration of the kernels (apt-private.sh; the mirror is the
# system's) and extracted into CACHE_DIR/earlyoom/root. Prints the path of
# the binary (dynamically linked against libc only: mkinitramfs.sh copies
# its libraries from the host with ldd). Cached: a second run does not
# touch the network. Exit 77 with a one-line reason when it cannot be
# fetched.
set -euo pipefail

skip() { echo "fetch-earlyoom: cannot fetch: $*" >&2; exit 77; }
[ $# -ge 1 ] || { echo "usage: fetch-earlyoom.sh CACHE_DIR [--refresh]" >&2; exit 2; }
mkdir -p "$1"
CACHE=$(cd "$1" && pwd)
REFRESH=${2:-}
DIR=$CACHE/earlyoom
BIN=$DIR/root/usr/bin/earlyoom
if [ "$REFRESH" != --refresh ] && [ -x "$BIN" ]; then
	echo "$BIN"
	exit 0
fi
# one fetch at a time in a cache (fetch-kernel.sh's lock)
exec 9>"$CACHE/.fetch.lock"
flock 9
if [ "$REFRESH" != --refresh ] && [ -x "$BIN" ]; then
	echo "$BIN"
	exit 0
fi
# shellcheck source=tests/vm/apt-private.sh
. "$(dirname "${BASH_SOURCE[0]}")/apt-private.sh"
apt_private "$CACHE" amd64 "$REFRESH"
# bookworm's (the release of the host's libc and of the 6.12 kernel's
# backport), whatever newer sid has
ver=$(apt-cache "${APTOPTS[@]}" madison earlyoom 2>/dev/null |
	awk -F'|' '$3 ~ /[ \/]bookworm\/main/ { gsub(/ /, "", $2); print $2; exit }')
[ -n "$ver" ] || skip "no earlyoom in bookworm"
rm -rf "$DIR"
mkdir -p "$DIR/debs"
(cd "$DIR/debs" && apt-get "${APTOPTS[@]}" -qq download "earlyoom=$ver" >download.log 2>&1) ||
	skip "apt-get download earlyoom=$ver failed: $(grep -E '^(E|W):' "$DIR/debs/download.log" | head -1)"
dpkg-deb -x "$(ls "$DIR"/debs/earlyoom_*.deb | tail -1)" "$DIR/root"
[ -x "$BIN" ] || skip "the package has no usr/bin/earlyoom"
echo "earlyoom=$ver" >"$DIR/version"
echo "$BIN"
