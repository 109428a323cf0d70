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
skip() { echo "SKIP: $*" >&2; exit 77; }
finish() { [ "$fails" -eq 0 ] || { echo "$fails check(s) failed" >&2; exit 1; }; exit 0; }

# The real recordings bundled in samples/.
fixtures() { ls "$top_srcdir"/samples/*.dat; }
