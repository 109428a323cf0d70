# SPDX-License-Identifier: GPL-2.0-or-later
# Shared helpers for the shell tests. Source it; it sets MMSCOPE, srcdir,
# a scratch directory removed on exit, and small assertion helpers.
# Exit codes follow automake: 0 pass, 77 skip, anything else fail.

: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
: "${MMSCOPE:=$top_builddir/mmscope}"
export LC_ALL=C

scratch=$(mktemp -d "${TMPDIR:-/tmp}/mmscope-test.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }
# A test that skips after some checks ran still fails if one of them did.
skip() {
	[ "$fails" -eq 0 ] || { echo "$fails check(s) failed, then: $*" >&2; exit 1; }
	echo "SKIP: $*" >&2
	exit 77
}
finish() { [ "$fails" -eq 0 ] || { echo "$fails check(s) failed" >&2; exit 1; }; exit 0; }

# The real recordings bundled in samples/.
fixtures() { ls "$top_srcdir"/samples/*.dat; }

# One lock for every test that changes what the whole machine shares (swap
# devices, zswap, THP and mTHP settings, swappiness, the tracefs mount,
# tracing instances), so that two of them never overlap under make -j, nor
# with a developer's run by hand ("flock /tmp/mmscope-global.lock make
# check TESTS=..."). Held on fd 9 until the test exits. When an ancestor
# (that flock, a test that runs another) holds it already, it is ours:
# taking it again would wait for ever.
MMSCOPE_LOCK=${MMSCOPE_LOCK:-/tmp/mmscope-global.lock}
lock_holders() {	# PIDs holding a flock on $MMSCOPE_LOCK
	ino=$(stat -c %i "$MMSCOPE_LOCK" 2>/dev/null) || return 0
	# "1: FLOCK  ADVISORY  WRITE PID MAJ:MIN:INODE 0 EOF"; waiters have "->"
	awk -v ino="$ino" '$2 == "FLOCK" { n = split($6, d, ":"); if (d[n] == ino) print $5 }' \
		/proc/locks
}
lock_ours() {	# is a holder this shell or one of its ancestors?
	holders=" $(lock_holders | tr '\n' ' ')"
	p=$$
	while [ -n "$p" ] && [ "$p" -gt 1 ]; do
		case $holders in *" $p "*) return 0 ;; esac
		p=$(awk '$1 == "PPid:" { print $2 }' "/proc/$p/status" 2>/dev/null)
	done
	return 1
}
global_lock() {
	lock_ours && return 0
	# read-only is enough for flock, and opens a file another user made
	# in sticky /tmp (protected_regular refuses O_CREAT there, even to root)
	[ -e "$MMSCOPE_LOCK" ] || { : >>"$MMSCOPE_LOCK" && chmod 666 "$MMSCOPE_LOCK"; }
	exec 9<"$MMSCOPE_LOCK" || { echo "FAIL: cannot open $MMSCOPE_LOCK" >&2; exit 99; }
	flock -n 9 && return 0
	echo "waiting for $MMSCOPE_LOCK (held by PID $(lock_holders | tr '\n' ' '))" >&2
	flock -w "${MMSCOPE_LOCK_WAIT:-1800}" 9 && return 0
	echo "FAIL: $MMSCOPE_LOCK still held after ${MMSCOPE_LOCK_WAIT:-1800} s by PID" \
		"$(lock_holders | tr '\n' ' ')" >&2
	exit 99
}
