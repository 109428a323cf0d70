#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# host-kernel-facts.sh OUTDIR
#
# Collect the kernel-facts layout (see scenarios/kernel-facts.sh) for the
# running host kernel into OUTDIR, without the kprobe smoke test. tracefs is
# used where it is mounted; otherwise it is mounted on a private temporary
# mount point and unmounted afterwards. Read-only: no tracing is enabled.
set -euo pipefail

die() { echo "host-kernel-facts: $*" >&2; exit 1; }
[ $# -eq 1 ] || die "usage: host-kernel-facts.sh OUTDIR"
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
OUT=$1
mkdir -p "$OUT"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/mmscope-hostfacts.XXXXXX")
mnt=
cleanup() {
	[ -z "$mnt" ] || umount "$mnt" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT

TRACEFS=/sys/kernel/tracing
if [ ! -d "$TRACEFS/events" ]; then
	if [ -d /sys/kernel/debug/tracing/events ]; then
		TRACEFS=/sys/kernel/debug/tracing
	else
		mkdir "$tmp/tracefs"
		mount -t tracefs nodev "$tmp/tracefs" 2>/dev/null || die "no tracefs and cannot mount one (need root)"
		mnt=$tmp/tracefs
		TRACEFS=$mnt
	fi
fi
MMSCOPE_OUT=$OUT MMSCOPE_TRACEFS=$TRACEFS MMSCOPE_NO_KPROBE=1 TMPDIR=$tmp \
	bash "$HERE/scenarios/kernel-facts.sh" > "$tmp/log" 2>&1 ||
	die "scenario failed: $(tail -1 "$tmp/log")"
cat "$tmp/log" >&2
