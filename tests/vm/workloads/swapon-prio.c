// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * swapon-prio DEVICE PRIORITY: swapon(2) with SWAP_FLAG_PREFER, what
 * busybox swapon cannot do (it has no -p). The kernel matrix swaps on a
 * decoy device below the scenario's own one: without explicit priorities
 * 7.x gives every device -1 and allocates from them in turn, and older
 * kernels give a later device a lower priority.
 *
 * Exit status: 0 ok, 1 usage, 2 the kernel refused (with its reason).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/swap.h>

int main(int argc, char **argv)
{
	char *end;
	long prio;

	if (argc != 3) {
		fprintf(stderr, "usage: %s DEVICE PRIORITY(0..32767)\n", argv[0]);
		return 1;
	}
	prio = strtol(argv[2], &end, 10);
	if (*end || end == argv[2] || prio < 0 || prio > SWAP_FLAG_PRIO_MASK) {
		fprintf(stderr, "%s: bad priority '%s' (0..%d)\n", argv[0], argv[2],
			SWAP_FLAG_PRIO_MASK);
		return 1;
	}
	if (swapon(argv[1], SWAP_FLAG_PREFER |
		   ((int)(prio << SWAP_FLAG_PRIO_SHIFT) & SWAP_FLAG_PRIO_MASK))) {
		fprintf(stderr, "%s: swapon %s: %s\n", argv[0], argv[1], strerror(errno));
		return 2;
	}
	return 0;
}
