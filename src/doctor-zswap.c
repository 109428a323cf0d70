// SPDX-License-Identifier: GPL-2.0-or-later
/* doctor's words on zswap's pool counters (see doctor-zswap.h) */
#include "config.h"
#include "doctor-zswap.h"

#include <errno.h>
#include <stddef.h>

void doctor_zswap_verdict(const struct zswap_seen *s, struct zswap_verdict *v)
{
	v->problem = NULL;
	v->fix = NULL;
	if (s->debugfs_mounted && !s->dir_errno) {
		v->line = "yes (debugfs)";
		return;
	}
	/* a user in front of a 0700 debugfs sees nothing of it: its mode,
	 * not zswap, is the reason (root is never refused) */
	if (s->debugfs_mounted && !s->root &&
	    (s->dir_errno == EACCES || !s->debugfs_searchable)) {
		v->line = "not readable by this user (debugfs is root's only)";
		v->problem = "debugfs cannot be read by this user: zswap's pool counters "
			     "are root's only";
		v->fix = "run 'mmscope record' as root";
		return;
	}
	if (s->debugfs_mounted) {	/* searchable, and no zswap directory */
		v->line = s->enabled == 1 ?
			  "missing (zswap is enabled, but debugfs has no zswap directory)" :
			  "not yet (debugfs shows them once zswap has been enabled)";
		if (s->enabled == 1) {
			v->problem = "zswap is enabled but its debugfs counters are missing";
			v->fix = "a kernel built without CONFIG_DEBUG_FS shows no pool counters; "
				 "the zswap counters of /proc/vmstat remain";
		}
		return;
	}
	/* not mounted: record mounts it (as root); the directory appears
	 * only once zswap has been enabled, which no mount changes */
	if (s->enabled != 1) {
		v->line = "not yet (zswap is off; its debugfs counters appear once it "
			  "has been enabled; record mounts debugfs)";
		return;
	}
	if (s->root) {
		v->line = "debugfs not mounted (record mounts it)";
		return;
	}
	v->line = "debugfs not mounted";
	v->problem = "debugfs is not mounted: zswap's pool counters cannot be read";
	v->fix = "run 'mmscope record' as root (it mounts debugfs), or "
		 "mount -t debugfs none /sys/kernel/debug";
}
