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
# (that flock) holds it already, taking it again would wait for ever: the
# tests under it then take LOCK.inner, which only they can reach (the
# global lock has one holder at a time), so they still run one at a time.
MMSCOPE_LOCK=${MMSCOPE_LOCK:-/tmp/mmscope-global.lock}
lock_holders() {	# FILE: the PIDs holding a flock on it
	ino=$(stat -c %i "$1" 2>/dev/null) || return 0
	# "1: FLOCK  ADVISORY  WRITE PID MAJ:MIN:INODE 0 EOF"; waiters have "->"
	awk -v ino="$ino" '$2 == "FLOCK" { n = split($6, d, ":"); if (d[n] == ino) print $5 }' \
		/proc/locks
}
lock_ours() {	# FILE: held by this shell or one of its ancestors?
	# through an inherited descriptor (a test that took it runs another)
	for f in /proc/$$/fd/*; do
		[ "$(readlink "$f" 2>/dev/null)" = "$1" ] && flock -n "${f##*/}" && return 0
	done
	holders=" $(lock_holders "$1" | tr '\n' ' ')"
	p=$$
	while [ -n "$p" ] && [ "$p" -gt 1 ]; do
		case $holders in *" $p "*) return 0 ;; esac
		p=$(awk '$1 == "PPid:" { print $2 }' "/proc/$p/status" 2>/dev/null)
	done
	return 1
}
global_lock() {
	lk=$MMSCOPE_LOCK
	if lock_ours "$lk"; then
		lk=$MMSCOPE_LOCK.inner
		lock_ours "$lk" && return 0
	fi
	# read-only is enough for flock, and opens a file another user made
	# in sticky /tmp (protected_regular refuses O_CREAT there, even to root)
	[ -e "$lk" ] || { : >>"$lk" && chmod 666 "$lk"; }
	exec 9<"$lk" || { echo "FAIL: cannot open $lk" >&2; exit 99; }
	flock -n 9 && return 0
	echo "waiting for $lk (another test, or someone's flock, holds it)" >&2
	lock_t0=$(date +%s)
	# the wait is part of the test's time in its log: said, to be told apart
	flock -w "${MMSCOPE_LOCK_WAIT:-1800}" 9 &&
		{ echo "lock wait: $(($(date +%s) - lock_t0)) s for $lk" >&2; return 0; }
	echo "FAIL: $lk still held after ${MMSCOPE_LOCK_WAIT:-1800} s" \
		"(MMSCOPE_LOCK_WAIT sets the wait)" >&2
	exit 99
}
