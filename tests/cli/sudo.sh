#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Under sudo, what mmscope writes belongs to the user who asked
# (SUDO_UID/SUDO_GID), mode 0600, so "sudo mmscope record" then "mmscope
# report" works; a root-owned recording read by a user gets a one-line
# error that says how to make it theirs.
. "${top_srcdir:-.}/tests/lib.sh"

[ "$(id -u)" -eq 0 ] || skip "needs root to write files for another user"
command -v setpriv >/dev/null || skip "setpriv (util-linux) is not installed"
rec="$top_srcdir/samples/compaction-6.18.dat"
chmod 755 "$scratch"

SUDO_UID=65534 SUDO_GID=65534 "$MMSCOPE" convert "$rec" -o "$scratch/mine.dat" ||
	fail "convert under SUDO_UID failed"
[ "$(stat -c '%u %g %a' "$scratch/mine.dat")" = "65534 65534 600" ] ||
	fail "owner and mode: $(stat -c '%u %g %a' "$scratch/mine.dat"), want 65534 65534 600"
setpriv --reuid=65534 --regid=65534 --clear-groups "$MMSCOPE" report "$scratch/mine.dat" \
	>/dev/null || fail "the sudo user cannot read the recording made for them"

cp "$rec" "$scratch/root.dat" && chmod 600 "$scratch/root.dat"
setpriv --reuid=65534 --regid=65534 --clear-groups "$MMSCOPE" report "$scratch/root.dat" \
	>/dev/null 2>"$scratch/err"
r=$?
[ $r -eq 1 ] || fail "root-owned file: exit $r, want 1"
# the hint names the user as one types it: the name, the uid without one
name=$(getent passwd 65534 | cut -d: -f1)
[ "$(wc -l <"$scratch/err")" -eq 1 ] && grep -q "belongs to root.*'sudo chown ${name:-65534} " "$scratch/err" ||
	fail "root-owned file: no one-line hint naming ${name:-65534}: $(cat "$scratch/err")"
if getent passwd 64999 >/dev/null; then
	ok "uid 64999 has a name here: the hint without one not tried"
else
	setpriv --reuid=64999 --regid=64999 --clear-groups "$MMSCOPE" report "$scratch/root.dat" \
		>/dev/null 2>"$scratch/err"
	grep -q "'sudo chown 64999 " "$scratch/err" ||
		fail "uid without a name: no hint with the uid: $(cat "$scratch/err")"
fi
ok "files written under sudo belong to SUDO_UID (0600); a root-owned one says how to fix it"
finish
