/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What doctor says of zswap's pool counters (debugfs/zswap/): a pure
 * decision over what it found, so that each case can be tested without
 * the machine being in it. zswap creates its debugfs directory the first
 * time it is enabled, debugfs is often mounted mode 0700, and mmscope
 * record (as root) mounts debugfs itself: "not mounted" alone is no
 * problem, and a directory a user cannot search is not zswap's fault.
 */
#ifndef MMSCOPE_DOCTOR_ZSWAP_H
#define MMSCOPE_DOCTOR_ZSWAP_H

struct zswap_seen {
	int debugfs_mounted;	/* debugfs in /proc/mounts */
	int dir_errno;		/* access(debugfs/zswap): 0 there, else errno */
	int debugfs_searchable;	/* access(debugfs, X_OK) succeeded */
	int enabled;		/* /sys/module/zswap/parameters/enabled: 1 Y, 0 N, -1 unknown */
	int root;		/* running as root */
};

struct zswap_verdict {
	const char *line;	/* after "pool counters: " */
	const char *problem;	/* NULL: nothing to fix */
	const char *fix;
};

void doctor_zswap_verdict(const struct zswap_seen *s, struct zswap_verdict *v);

#endif
