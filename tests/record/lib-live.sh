# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers for the live recorder tests (sourced after tests/lib.sh): skip
# unless root with tracefs, make swap on a loop device and a cgroup v1
# memory limit, and undo all of it on exit, whatever happens.

TRACEFS=/sys/kernel/tracing
CGV1=/sys/fs/cgroup/memory
ZSWAP_EN=/sys/module/zswap/parameters/enabled
ANON_TOUCH="$top_builddir/samples/workloads/anon-touch"

live_require() {
	[ "$(id -u)" -eq 0 ] || skip "needs root (tracefs, swap, cgroups)"
	[ -d "$TRACEFS/instances" ] || skip "no tracefs with instances at $TRACEFS"
	[ -x "$ANON_TOUCH" ] || skip "workload $ANON_TOUCH not built"
	for tool in "$@"; do
		command -v "$tool" >/dev/null 2>&1 || skip "$tool not installed"
	done
}

LIVE_TAG="mmscope-test-$$"
LIVE_CG=""
LIVE_LOOP=""
LIVE_SWAPFILE=""
LIVE_SWAP_ON=0
LIVE_ZSWAP_OLD=""
LIVE_PIDS=""
LIVE_MOUNT=""

live_cleanup() {
	rc=$?
	set +e
	for p in $LIVE_PIDS; do
		kill -KILL "$p" 2>/dev/null
	done
	# instances left by recorders this test killed on purpose
	for p in $LIVE_PIDS; do
		[ -d "$TRACEFS/instances/mmscope-$p" ] && rmdir "$TRACEFS/instances/mmscope-$p"
	done
	if [ -n "$LIVE_CG" ] && [ -d "$LIVE_CG" ]; then
		for i in 1 2 3 4 5 6 7 8 9 10; do
			pids=$(cat "$LIVE_CG/cgroup.procs" 2>/dev/null)
			[ -z "$pids" ] && break
			kill -KILL $pids 2>/dev/null
			sleep 0.3
		done
		echo -1 >"$LIVE_CG/memory.limit_in_bytes" 2>/dev/null
	fi
	if [ "$LIVE_SWAP_ON" -eq 1 ]; then
		for i in 1 2 3 4 5 6 7 8 9 10; do
			swapoff "$LIVE_LOOP" 2>/dev/null && { LIVE_SWAP_ON=0; break; }
			sleep 1
		done
		[ "$LIVE_SWAP_ON" -eq 0 ] || echo "could not swapoff $LIVE_LOOP" >&2
	fi
	if [ "$LIVE_SWAP_ON" -eq 0 ]; then
		[ -n "$LIVE_LOOP" ] && losetup -d "$LIVE_LOOP"
		[ -n "$LIVE_SWAPFILE" ] && rm -f "$LIVE_SWAPFILE"
	fi
	if [ -n "$LIVE_CG" ] && [ -d "$LIVE_CG" ]; then
		for i in 1 2 3 4 5 6 7 8 9 10; do
			rmdir "$LIVE_CG" 2>/dev/null && break
			sleep 0.3
		done
	fi
	[ -n "$LIVE_ZSWAP_OLD" ] && echo "$LIVE_ZSWAP_OLD" >"$ZSWAP_EN"
	if [ -n "$LIVE_MOUNT" ]; then
		umount "$LIVE_MOUNT" 2>/dev/null
		rmdir "$LIVE_MOUNT" 2>/dev/null
	fi
	rm -rf "$scratch"
	exit $rc
}
trap live_cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# live_swap MB: swap on a loop device backed by a file in /var/tmp
live_swap() {
	command -v losetup >/dev/null && command -v mkswap >/dev/null &&
		command -v swapon >/dev/null || skip "losetup/mkswap/swapon missing"
	if [ -e "$ZSWAP_EN" ]; then
		LIVE_ZSWAP_OLD=$(cat "$ZSWAP_EN")
		echo N >"$ZSWAP_EN"
	fi
	LIVE_SWAPFILE=/var/tmp/$LIVE_TAG.swap
	fallocate -l "${1}M" "$LIVE_SWAPFILE" || skip "cannot make a ${1} MiB swap file in /var/tmp"
	chmod 600 "$LIVE_SWAPFILE"
	LIVE_LOOP=$(losetup -f --show "$LIVE_SWAPFILE") || skip "no loop device"
	mkswap -q "$LIVE_LOOP" >/dev/null || skip "mkswap failed"
	swapon -p 10 "$LIVE_LOOP" || skip "swapon failed"
	LIVE_SWAP_ON=1
}

# live_cgroup MB: a cgroup v1 memory cgroup with that limit
live_cgroup() {
	[ -d "$CGV1" ] || skip "no cgroup v1 memory controller at $CGV1"
	LIVE_CG="$CGV1/$LIVE_TAG"
	mkdir "$LIVE_CG" || skip "cannot create $LIVE_CG"
	echo "$(($1 << 20))" >"$LIVE_CG/memory.limit_in_bytes"
}

# The command line that runs ARGS inside the test cgroup.
in_cgroup() {
	printf 'sh -c "echo \\$\\$ >%s/cgroup.procs && exec %s"' "$LIVE_CG" "$*"
}

# Instances of dead recorders that were not there when the test started
# (other people's recorders on a shared machine come and go: the start of
# any recorder removes dead ones, and one killed meanwhile leaves one).
LIVE_BEFORE=" $(ls "$TRACEFS/instances" 2>/dev/null | tr '\n' ' ')"
instances_left() {
	ls "$TRACEFS/instances" | grep -E '^mmscope-[0-9]+$' | while read -r i; do
		pid=${i#mmscope-}
		case $LIVE_BEFORE in *" $i "*) continue ;; esac
		kill -0 "$pid" 2>/dev/null || echo "$i"
	done
}
