// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * doctor's words on zswap's pool counters in each state a machine can be
 * in: zswap never enabled (no debugfs directory yet), debugfs unmounted,
 * debugfs mode 0700 in front of a user. The old words blamed debugfs
 * before zswap had ever been on, and zswap when a user could not search
 * debugfs.
 */
#include "config.h"
#include "doctor-zswap.h"
#include "tap.h"

#include <errno.h>
#include <string.h>

static struct zswap_verdict verdict(int mounted, int dir_errno, int searchable, int enabled,
				    int root)
{
	struct zswap_seen s = { .debugfs_mounted = mounted, .dir_errno = dir_errno,
				.debugfs_searchable = searchable, .enabled = enabled,
				.root = root };
	struct zswap_verdict v;

	doctor_zswap_verdict(&s, &v);
	return v;
}

int main(void)
{
	struct zswap_verdict v;

	v = verdict(1, 0, 1, 1, 1);
	is_str(v.line, "yes (debugfs)", "root, mounted, directory there: readable");
	ok(!v.problem, "  and no problem");

	/* a user before a 0700 debugfs: access() of the directory says EACCES */
	v = verdict(1, EACCES, 0, 1, 0);
	ok(v.problem && strstr(v.problem, "this user") && !strstr(v.line, "enabled"),
	   "a user before a 0700 debugfs: debugfs's mode named, not zswap");
	ok(v.fix && strstr(v.fix, "root"), "  fixed by running as root");
	v = verdict(1, EACCES, 0, 0, 0);
	ok(v.problem && strstr(v.problem, "this user"),
	   "  also while zswap is off (the user cannot tell either way)");

	/* zswap never enabled, debugfs mounted and searchable */
	v = verdict(1, ENOENT, 1, 0, 1);
	ok(strstr(v.line, "once zswap has been enabled") && !v.problem,
	   "zswap never enabled: not yet, no problem");

	/* never enabled, debugfs not mounted: no mount would show them */
	v = verdict(0, ENOENT, 0, 0, 1);
	ok(!v.problem && strstr(v.line, "once it has been enabled"),
	   "zswap off, debugfs unmounted: not yet, no problem (was: debugfs not mounted)");
	v = verdict(0, ENOENT, 0, 0, 0);
	ok(!v.problem, "  as a user too");

	/* enabled, not mounted: record mounts it as root; a user must */
	v = verdict(0, ENOENT, 0, 1, 1);
	ok(!v.problem && strstr(v.line, "record mounts it"), "zswap on, unmounted, root: record mounts it");
	v = verdict(0, ENOENT, 0, 1, 0);
	ok(v.problem && strstr(v.problem, "not mounted") && strstr(v.fix, "mount -t debugfs"),
	   "zswap on, unmounted, a user: the mount is the fix");

	/* enabled, mounted, searchable, no directory: a kernel without it */
	v = verdict(1, ENOENT, 1, 1, 1);
	ok(v.problem && strstr(v.line, "missing"), "zswap on but no debugfs directory: said so");
	return tap_done();
}
