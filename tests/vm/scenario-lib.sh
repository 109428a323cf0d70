#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Helpers shared by the kernel-matrix scenarios (sourced in the guest as
# /usr/local/lib/scenario-lib.sh; check-scenario.sh adds it with --file).
# busybox ash; every function fails loudly with a one-line message.

: "${OUT:=${MMSCOPE_OUT:-/out}}"
REC=${MMSCOPE_REC:-$OUT/rec.dat}
THP=/sys/kernel/mm/transparent_hugepage

say() { echo "scenario: [$(cut -d' ' -f1 /proc/uptime)] $*"; }
fail() { echo "scenario: error: $*" >&2; exit 1; }
# wr VALUE FILE: write a sysfs/procfs setting, record it in setup.txt
wr() {
	echo "$1" > "$2" 2>/dev/null || fail "cannot write '$1' to $2"
	echo "$2=$1" >> "$OUT/setup.txt"
}
# wr_opt VALUE FILE: the same where the file may be missing or refuse
# the value on this kernel (e.g. hugepages-8kB/enabled: EPERM)
wr_opt() {
	[ -e "$2" ] || return 0
	if echo "$1" > "$2" 2>/dev/null; then
		echo "$2=$1" >> "$OUT/setup.txt"
	else
		echo "$2=$1 refused" >> "$OUT/setup.txt"
	fi
}

uname -r > "$OUT/uname-r.txt"
: > "$OUT/setup.txt"

# The guest's page geometry, as the guest itself gives it (check-scenario.sh
# takes orders, sizes and clusters from here, never from a 4 KB
# assumption): AT_PAGESZ of the auxiliary vector (what getconf PAGESIZE
# reads; busybox has no getconf), smaps' KernelPageSize, the PMD THP size
# and the per-size THP directories.
page_facts() {
	# /proc/self/auxv: (key, value) pairs of native words; AT_PAGESZ is 6
	od -An -v -tu8 /proc/self/auxv 2>/dev/null |
		awk '{ for (i = 1; i <= NF; i++) w[n++] = $i }
			END { for (i = 0; i + 1 < n; i += 2) if (w[i] == 6) { print "at_pagesz=" w[i + 1]; exit } }'
	awk '$1 == "KernelPageSize:" { print "smaps_kernelpagesize_kb=" $2; exit }' /proc/self/smaps 2>/dev/null
	[ ! -r $THP/hpage_pmd_size ] || echo "hpage_pmd_size=$(cat $THP/hpage_pmd_size)"
	echo "thp_sizes_kb=$(cd $THP 2>/dev/null && ls -d hugepages-*kB 2>/dev/null |
		sed 's/^hugepages-//; s/kB$//' | sort -n | tr '\n' ' ')"
	echo "buddy_orders=$(awk '$1 == "Node" { print NF - 4; exit }' /proc/buddyinfo)"
	[ ! -r /sys/kernel/mm/lru_gen/enabled ] || echo "lru_gen=$(cat /sys/kernel/mm/lru_gen/enabled)"
}
page_facts > "$OUT/page-facts.txt"

# Two swap devices: the scenario's zram0 and a decoy, 1 MB of zram1
# (hot-added). The decoy is swapped on first (type 0) at priority 1, zram0
# (type 1) at priority 10 (swapon-prio: busybox swapon has no -p, and 7.x
# gives every device -1 and takes from them in turn), so every slot goes
# to type 1 until it is full: a probe that reads the device from a wrong
# struct offset credits another type, or type 0, and check-scenario.sh
# catches it. 256 slots are less than one cluster (whose slot 0 is the
# header), so the decoy never takes a THP or mTHP and does not change when
# large swap-outs fall back.
swap_zram() {
	[ -e /sys/block/zram0 ] || fail "no /sys/block/zram0 (zram module not loaded?)"
	if [ ! -e /sys/block/zram1 ]; then
		[ -e /sys/class/zram-control/hot_add ] || fail "no /sys/class/zram-control/hot_add"
		n=$(cat /sys/class/zram-control/hot_add) || fail "cannot add a zram device"
		[ "$n" = 1 ] || fail "hot_add gave zram$n, not zram1"
		wr $((1024 * 1024)) /sys/block/zram1/disksize
		mkswap /dev/zram1 >/dev/null || fail "mkswap /dev/zram1 failed"
		swapon-prio /dev/zram1 1 || fail "swapon of the decoy /dev/zram1 failed"
		echo "swap=zram1 1M priority 1 (decoy)" >> "$OUT/setup.txt"
	fi
	wr "$(( $1 * 1024 * 1024 ))" /sys/block/zram0/disksize
	mkswap /dev/zram0 >/dev/null || fail "mkswap /dev/zram0 failed"
	swapon-prio /dev/zram0 10 || fail "swapon /dev/zram0 failed"
	echo "swap=zram0 ${1}M priority 10 rotational=$(cat /sys/block/zram0/queue/rotational)" >> "$OUT/setup.txt"
	sed 's/^/swaps: /' /proc/swaps >> "$OUT/setup.txt"
}

# swap_brd MB: a ram disk (brd, asynchronous bio path) as swap
swap_brd() {
	[ -e /dev/ram0 ] || fail "no /dev/ram0 (brd module not loaded?)"
	wr 0 /sys/block/ram0/queue/rotational
	mkswap /dev/ram0 >/dev/null || fail "mkswap /dev/ram0 failed"
	swapon /dev/ram0 || fail "swapon /dev/ram0 failed"
	echo "swap=ram0" >> "$OUT/setup.txt"
}

thp_off() {
	wr never $THP/enabled
	for d in $THP/hugepages-*kB; do
		wr_opt never "$d/enabled"
	done
}

zswap_off() { wr_opt N /sys/module/zswap/parameters/enabled; }

# memcg_make NAME LIMIT_MB: a memory cgroup (v2 if it has the memory
# controller, else v1) limited to LIMIT_MB; prints its path
memcg_make() {
	if [ ! -e /sys/fs/cgroup/cgroup.controllers ] && [ ! -d /sys/fs/cgroup/memory ]; then
		mount -t cgroup2 none /sys/fs/cgroup 2>/dev/null || fail "cannot mount cgroup2"
	fi
	if [ -e /sys/fs/cgroup/cgroup.controllers ] && grep -qw memory /sys/fs/cgroup/cgroup.controllers; then
		echo +memory > /sys/fs/cgroup/cgroup.subtree_control || fail "cannot enable the v2 memory controller"
		mkdir -p "/sys/fs/cgroup/$1"
		echo "$(( $2 * 1024 * 1024 ))" > "/sys/fs/cgroup/$1/memory.max" || fail "cannot set memory.max"
		echo "memcg=v2 /sys/fs/cgroup/$1 memory.max=${2}M" >> "$OUT/setup.txt"
		echo "/sys/fs/cgroup/$1"
	else
		mkdir -p /sys/fs/cgroup/memory
		mountpoint -q /sys/fs/cgroup/memory || mount -t cgroup -o memory none /sys/fs/cgroup/memory || fail "cannot mount cgroup v1 memory"
		mkdir -p "/sys/fs/cgroup/memory/$1"
		echo "$(( $2 * 1024 * 1024 ))" > "/sys/fs/cgroup/memory/$1/memory.limit_in_bytes" || fail "cannot set memory.limit_in_bytes"
		echo "memcg=v1 /sys/fs/cgroup/memory/$1 limit=${2}M" >> "$OUT/setup.txt"
		echo "/sys/fs/cgroup/memory/$1"
	fi
}

# reclaim_args GROUPS: "-g GROUPS,reclaim". (7.x memcg reclaim formats
# print REC->ent.pid; the reader once refused them, so the whole reclaim
# group is recorded on every kernel to keep that covered.)
reclaim_args() {
	echo "-g $1,reclaim"
}

# dump_state SUFFIX: counters next to the recording, for cross-checks
# (one grep per directory: every fork costs ~0.1 s under TCG); frontswap's
# debugfs counters (5.10: zswap behind frontswap, no zswpout in vmstat)
dump_state() {
	cat /proc/vmstat > "$OUT/vmstat.$1"
	cat /proc/swaps > "$OUT/swaps.$1"
	[ ! -d /sys/kernel/debug/frontswap ] || grep -r '' /sys/kernel/debug/frontswap/ > "$OUT/frontswap.$1" 2>/dev/null || true
	cat /proc/buddyinfo > "$OUT/buddyinfo.$1"
	grep -r '' $THP/hugepages-*kB/stats/ > "$OUT/mthp.$1" 2>/dev/null || true
	[ ! -d /sys/kernel/debug/zswap ] || grep -r '' /sys/kernel/debug/zswap/ > "$OUT/zswap.$1" 2>/dev/null || true
}

# record_run ARGS... : mmscope record -o $REC ARGS; keeps its output in
# record.log and fails with its exit status. With MMSCOPE_RECORD_STRACE=
# FILE it runs under strace, which logs the files it and its command open
# to FILE (check-scenario.sh counts the reads of /proc/kallsyms); strace
# stops them at openat alone (seccomp-bpf) and writes to tmpfs (a line
# written to /out, 9p, held each open for ~0.1 s: 11 s more of start).
record_run() {
	say "mmscope record $*"
	rc=0
	set -- mmscope record -f -o "$REC" --spool "${MMSCOPE_SPOOL:-/tmp/rec.spool}" --interval "${MMSCOPE_INTERVAL:-500}" "$@"
	[ -z "${MMSCOPE_RECORD_STRACE:-}" ] ||
		set -- strace -f --seccomp-bpf -qq -e trace=openat -e signal=none -o /tmp/record.strace "$@"
	"$@" > "$OUT/record.log" 2>&1 || rc=$?
	[ -z "${MMSCOPE_RECORD_STRACE:-}" ] || cp /tmp/record.strace "$MMSCOPE_RECORD_STRACE" || rc=1
	cat "$OUT/record.log"
	say "record exit $rc"
	[ "$rc" -eq 0 ] || fail "mmscope record exited $rc"
	[ -s "$REC" ] || fail "mmscope record left no $REC"
}

# finish: the guest powers off right after; no swapoff (it takes 10-20 s
# under TCG for a full zram device and nothing outlives the VM)
finish() {
	cat /proc/swaps > "$OUT/swaps.end" 2>/dev/null || true
	say "done"
}
