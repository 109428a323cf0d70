# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers for the live recorder tests (sourced after tests/lib.sh): take
# the global lock (tests/lib.sh), mount tracefs where nothing has (as
# mmscope record does), make swap on a loop device and a memory cgroup
# (v1, or v2 where there is no v1), and undo all of it on exit, whatever
# happens: every setting is put back as it was found. They skip only
# when not root or when the kernel has no tracefs, and say why; .ci/run
# fails a live test that skips as root on a kernel with tracefs.
# Swap devices, cgroups and tracing instances that are not the test's own
# are left alone and tolerated.

TRACEFS=/sys/kernel/tracing
CGV1=/sys/fs/cgroup/memory
ZSWAP_EN=/sys/module/zswap/parameters/enabled
ANON_TOUCH="$top_builddir/samples/workloads/anon-touch"

# live_require [TOOL...]: root, a kernel with tracefs, the workload and
# the tools; then the lock, then tracefs mounted. Nothing before the lock
# changes anything.
live_require() {
	[ -z "${MMSCOPE_SKIP_LIVE:-}" ] || skip "MMSCOPE_SKIP_LIVE is set (make distcheck, the" \
		"Debian package build): no recording on this kernel; .ci/run's make check runs it"
	[ "$(id -u)" -eq 0 ] || skip "needs root (tracefs, swap, cgroups)"
	grep -qw tracefs /proc/filesystems || skip "this kernel has no tracefs (CONFIG_TRACING off)"
	[ -x "$ANON_TOUCH" ] || skip "workload $ANON_TOUCH not built"
	for tool in "$@"; do
		command -v "$tool" >/dev/null 2>&1 || skip "$tool not installed (sh tests/install-deps.sh)"
	done
	global_lock
	if [ ! -d "$TRACEFS/instances" ]; then
		mount -t tracefs nodev "$TRACEFS" ||
			skip "root cannot mount tracefs at $TRACEFS (no CAP_SYS_ADMIN: a container?)"
		LIVE_TRACEFS_MOUNTED=1
		[ -d "$TRACEFS/instances" ] || skip "tracefs at $TRACEFS has no instances"
	fi
	# instances outlive a umount: take the list once tracefs is there
	LIVE_BEFORE=" $(ls "$TRACEFS/instances" 2>/dev/null | tr '\n' ' ')"
}

LIVE_TAG="mmscope-test-$$"
LIVE_CG=""
LIVE_LOOP=""
LIVE_SWAPFILE=""
LIVE_SWAP_ON=0
LIVE_ZSWAP_OLD=""
LIVE_PIDS=""
LIVE_MOUNT=""
LIVE_TRACEFS_MOUNTED=0
LIVE_CG_V2=0
LIVE_CG2_ENABLED=""
LIVE_BEFORE=" "
LIVE_CHURN="$( [ -d /dev/shm ] && echo /dev/shm || echo "${TMPDIR:-/tmp}")/mmscope-test-$$-churn"

live_cleanup() {
	rc=$?
	set +e
	for p in $LIVE_PIDS; do
		kill -KILL "$p" 2>/dev/null
	done
	rm -f "$LIVE_CHURN".*	# a churn_round's file, when it was killed
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
		if [ "$LIVE_CG_V2" -eq 1 ]; then
			echo max >"$LIVE_CG/memory.max" 2>/dev/null
		else
			echo -1 >"$LIVE_CG/memory.limit_in_bytes" 2>/dev/null
		fi
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
	[ -n "$LIVE_CG2_ENABLED" ] && echo -memory >"$LIVE_CG2_ENABLED/cgroup.subtree_control"
	[ -n "$LIVE_ZSWAP_OLD" ] && echo "$LIVE_ZSWAP_OLD" >"$ZSWAP_EN"
	if [ -n "$LIVE_MOUNT" ]; then
		umount "$LIVE_MOUNT" 2>/dev/null
		rmdir "$LIVE_MOUNT" 2>/dev/null
	fi
	# unmounted as found (a foreign user of it keeps it busy: then it stays)
	if [ "$LIVE_TRACEFS_MOUNTED" -eq 1 ]; then
		umount "$TRACEFS" 2>/dev/null || echo "note: $TRACEFS busy, left mounted" >&2
	fi
	rm -rf "$scratch"
	exit $rc
}
trap live_cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# A swap priority above every active device (others' too), so that the
# test's own device takes the swap-outs it counts.
live_swap_prio() {
	awk 'NR > 1 && $5 >= p { p = $5 + 1 } END { print (p > 32767 ? 32767 : p) }' p=10 /proc/swaps
}

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
	swapon -p "$(live_swap_prio)" "$LIVE_LOOP" || skip "swapon failed"
	LIVE_SWAP_ON=1
}

# live_cgroup MB: a memory cgroup with that limit: cgroup v1 where the
# memory controller is mounted (this project's hosts), else cgroup v2 (a
# fresh systemd machine), enabling the memory controller for the root's
# children only if it was off (and turning it off again on exit).
live_cgroup() {
	if [ -d "$CGV1" ]; then
		LIVE_CG="$CGV1/$LIVE_TAG"
		mkdir "$LIVE_CG" || skip "cannot create $LIVE_CG"
		echo "$(($1 << 20))" >"$LIVE_CG/memory.limit_in_bytes"
		return
	fi
	v2=""
	for d in /sys/fs/cgroup /sys/fs/cgroup/unified; do
		grep -qw memory "$d/cgroup.controllers" 2>/dev/null && { v2=$d; break; }
	done
	[ -n "$v2" ] || skip "no memory cgroup: no v1 controller at $CGV1, no v2 memory controller"
	if ! grep -qw memory "$v2/cgroup.subtree_control"; then
		echo +memory >"$v2/cgroup.subtree_control" ||
			skip "cannot enable the v2 memory controller in $v2"
		LIVE_CG2_ENABLED=$v2
	fi
	LIVE_CG="$v2/$LIVE_TAG"
	LIVE_CG_V2=1
	mkdir "$LIVE_CG" || skip "cannot create $LIVE_CG"
	echo "$(($1 << 20))" >"$LIVE_CG/memory.max"
}

# live_cgroup_noswap MB: live_cgroup MB whose tasks cannot swap, whatever
# swap devices are on (tests hold theirs), so that filling it ends in an
# OOM kill; skips where no limit can make that sure.
live_cgroup_noswap() {
	live_cgroup "$1"
	if [ "$LIVE_CG_V2" -eq 1 ]; then
		{ [ -f "$LIVE_CG/memory.swap.max" ] && echo 0 >"$LIVE_CG/memory.swap.max"; } ||
			[ "$(wc -l </proc/swaps)" -le 1 ] ||
			skip "swap is on and $LIVE_CG has no memory.swap.max (no swap accounting): no sure OOM"
	else
		echo 0 >"$LIVE_CG/memory.swappiness" || fail "cannot set $LIVE_CG/memory.swappiness to 0"
		if [ -f "$LIVE_CG/memory.memsw.limit_in_bytes" ]; then
			echo $(($1 << 20)) >"$LIVE_CG/memory.memsw.limit_in_bytes" ||
				fail "cannot limit $LIVE_CG's memory+swap"
		fi
	fi
}

# The command line that runs ARGS inside the test cgroup.
in_cgroup() {
	printf 'sh -c "echo \\$\\$ >%s/cgroup.procs && exec %s"' "$LIVE_CG" "$*"
}

# Instances of dead recorders that were not there when the test started
# (LIVE_BEFORE, taken by live_require: other people's recorders on a shared
# machine come and go: the start of any recorder removes dead ones, and one
# killed meanwhile leaves one).
instances_left() {
	ls "$TRACEFS/instances" | grep -E '^mmscope-[0-9]+$' | while read -r i; do
		pid=${i#mmscope-}
		case $LIVE_BEFORE in *" $i "*) continue ;; esac
		kill -0 "$pid" 2>/dev/null || echo "$i"
	done
}

# events FILE: "CPU COUNT" per CPU, every event trace-cmd shows
events() {
	trace-cmd report "$1" 2>/dev/null | awk '
		/^CPU:?[0-9]+ \[/ { next }
		match($0, /\[[0-9]+\] +[0-9]+\.[0-9]+:/) {
			s = substr($0, RSTART + 1); sub(/\].*/, "", s); n[s + 0]++ }
		END { for (c in n) print c, n[c] }' | sort -n
}
# read_events FILE: "CPU COUNT" per CPU, the file's CPU stats (CPUSTAT)
# as the kernel gave them at its end, counted from the file's start
read_events() {
	trace-cmd report --stat "$1" 2>/dev/null | awk '
		/^CPU:? *[0-9]+/ { c = $0; gsub(/[^0-9]/, "", c) }
		/^read events:/ && $3 > 0 { print c, $3 }' | sort -n
}

# churn_round: page allocations and frees that do not depend on how the
# scheduler places the load: 100 MB of zeros written to a file on tmpfs
# (/dev/shm) and removed, about 50,000 kmem events, then 0.2 s of rest
# (about 150,000 events/s, what the recorder tests were made with). A
# pipe (head | cat) reuses its pages when writer and reader run on two
# idle CPUs: measured here, 4,657 events for 500 MB through one pipe on
# an idle machine, 257,505 through two at once; CI's idle runs made
# 15,000 events/s with it where a busy machine made 160,000.
churn_round() {
	_f=$(mktemp "$LIVE_CHURN.XXXXXX") || return 1
	head -c 100000000 /dev/zero >"$_f"
	rm -f "$_f"
	sleep 0.2	# not a wait: the round's rest, part of the load's shape
}

# copy_load_until SECONDS CMD [ARGS]: churn_round until CMD succeeds or
# SECONDS pass; CMD's status at the end. A test that needs files written
# or a disk filled loads until that happened, not for a fixed time.
copy_load_until() {
	_t0=$(date +%s)
	_until=$((_t0 + $1)) _rounds=0 _st=1
	shift
	while [ "$(date +%s)" -lt "$_until" ]; do
		"$@" && { _st=0; break; }
		churn_round
		_rounds=$((_rounds + 1))
	done
	[ $_st -eq 0 ] || { "$@"; _st=$?; }
	# how fast this machine loaded, for a log that asks why it was slow
	echo "load: $_rounds rounds of 100 MB in $(($(date +%s) - _t0)) s ($*: status $_st)"
	return $_st
}

# live_wait SECONDS WHAT CMD [ARG...]: until CMD succeeds, tried every
# 0.1 s, at most SECONDS; then a FAIL that names WHAT, and status 1. A
# live test waits for what it needs (a recorder tracing, a file or a part
# written, a switch done, a command started), never for a fixed time:
# on a loaded machine that time runs out first. A sleep of a fixed time
# in a live test is part of the workload's or the test's shape, and says
# so: "# not a wait: WHY" on a line of its command or on the comment line
# just above (tests/cli/live-sleeps.sh holds every live test to it).
live_wait() {
	_lw_s=$1 _lw_what=$2
	shift 2
	_lw_end=$(($(date +%s) + _lw_s))
	while ! "$@"; do
		if [ "$(date +%s)" -ge "$_lw_end" ]; then
			"$@" && return 0
			fail "waited $_lw_s s for $_lw_what: not there"
			return 1
		fi
		sleep 0.1
	done
}

# recording FILE: the recorder of FILE (no --switch-output) traces: its
# spool's metadata was written again once tracing began and the first
# sample set was taken (start_trace_ns; before that it has none), its
# signal handlers long installed.
recording() { grep -q '^start_trace_ns=' "$1.spool/meta.mmscope" 2>/dev/null; }

# spool_synced FILE: the spool of FILE's recorder holds pages of CPU 0
# and a whole sample set, and its metadata was written again at least
# 1.5 s after tracing began (every 2 s: the clocks' reads and the
# command's state that mmscope recover finds after a SIGKILL).
spool_synced() {
	[ -s "$1.spool/cpu0.raw" ] && cat "$1.spool"/cpu*.raw | grep -qa 'mms1 end' &&
		awk -F'[=:,]' '$1 == "wall_segments" { ok = $(NF - 1) - $2 >= 1.5e9 }
			END { exit !ok }' "$1.spool/meta.mmscope" 2>/dev/null
}

# spool_says FILE KEY=VALUE: the metadata of FILE's spool has that line
spool_says() { grep -qx "$2" "$1.spool/meta.mmscope" 2>/dev/null; }

# runs PID COMM: a child or a grandchild of PID runs COMM (a recorder's
# command exec'd, or what that command started)
runs() {
	for _c in $(cat /proc/"$1"/task/*/children 2>/dev/null); do
		[ "$(cat /proc/"$_c"/comm 2>/dev/null)" = "$2" ] && return 0
		for _g in $(cat /proc/"$_c"/task/*/children 2>/dev/null); do
			[ "$(cat /proc/"$_g"/comm 2>/dev/null)" = "$2" ] && return 0
		done
	done
	return 1
}

# tracing_on PID: the instance of recorder PID is tracing (a flight
# recorder's tracing is off while it writes a file, on again after)
tracing_on() { [ "$(cat "$TRACEFS/instances/mmscope-$1/tracing_on" 2>/dev/null)" = 1 ]; }

# cg_limit_hits DIR: how often the memory cgroup DIR hit its limit (v1
# memory.failcnt, v2 memory.events max): reclaim in it began when it grew
cg_limit_hits() {
	if [ -f "$1/memory.failcnt" ]; then
		cat "$1/memory.failcnt" 2>/dev/null
	else
		awk '$1 == "max" { print $2 }' "$1/memory.events" 2>/dev/null
	fi
}

# vmstat_of KEY: /proc/vmstat's KEY
vmstat_of() { awk -v k="$1" '$1 == k { print $2 }' /proc/vmstat; }

# above N CMD [ARG...]: CMD prints a number above N
above() {
	_ab_n=$1
	shift
	[ "$("$@")" -gt "$_ab_n" ] 2>/dev/null
}
