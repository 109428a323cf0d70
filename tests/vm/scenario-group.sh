#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# scenario-group.sh SCENARIO...   (in the guest, as
# /usr/local/lib/scenario-group.sh; check-scenario.sh runs it when given
# several scenarios)
#
# Runs several matrix scenarios in one boot of a guest kernel, one after
# the other, each as it runs alone: its own output directory
# ($MMSCOPE_OUT/NAME: log, status, timing and what the scenario writes),
# and between two of them the guest is put back as it booted. A boot
# under TCG costs 10-20 s of a 2-CPU host, and the matrix booted each
# kernel once per scenario (issue 45).
#
# Put back after each scenario: its leftover processes killed, /tmp
# emptied, mmscope's tracing instances removed, every swap device off,
# zram0 reset and the hot-added zram devices removed (scenario-lib.sh's
# swap_zram adds zram1 again), the memory cgroups it made removed, every
# setting it wrote (setup.txt) back to its value at boot, caches dropped
# and memory compacted.
# busybox ash.

OUTTOP=${MMSCOPE_OUT:-/out}
THP=/sys/kernel/mm/transparent_hugepage

# The settings a scenario may change, as the kernel booted with them:
# "path=value" ("always [madvise] never" keeps the bracketed one).
settings() {
	for f in $THP/enabled $THP/defrag $THP/shmem_enabled $THP/hugepages-*kB/enabled \
		$THP/hugepages-*kB/shmem_enabled /sys/module/zswap/parameters/* /proc/sys/vm/*; do
		[ -f "$f" ] || continue
		v=$(cat "$f" 2>/dev/null) || continue
		case $v in *\[*\]*) v=${v#*[}; v=${v%%]*} ;; esac
		printf '%s=%s\n' "$f" "$v"
	done
}

up() { cut -d' ' -f1 /proc/uptime; }

# put_back DIR: the guest as it booted, after the scenario whose output
# is DIR (its setup.txt says what it set and made)
put_back() {
	dir=$1 killed=''
	# every user process the scenario left (kernel threads have no
	# command line; the heartbeat and this shell were there before)
	for p in $(ls /proc); do
		case $p in *[!0-9]*) continue ;; esac
		[ "$p" != $$ ] || continue
		case " $before " in *" $p "*) continue ;; esac
		[ -s "/proc/$p/cmdline" ] && kill -9 "$p" 2>/dev/null && killed="$killed $p"
	done
	# gone (their memory and swap freed) within 3 s
	i=0
	while [ $i -lt 30 ]; do
		alive=''
		for p in $killed; do
			# a zombie (Z) has freed its memory already
			read -r _ _ st _ < "/proc/$p/stat" 2>/dev/null && [ "$st" != Z ] && alive=1
		done
		[ -n "$alive" ] || break
		sleep 0.1 2>/dev/null || sleep 1
		i=$((i + 1))
	done
	rm -rf /tmp/* 2>/dev/null
	for d in /sys/kernel/tracing/instances/*; do
		[ -d "$d" ] && rmdir "$d" 2>/dev/null
	done
	echo "scenario-group: [$(up)] processes, /tmp and instances done"
	for dev in $(awk 'NR > 1 { print $1 }' /proc/swaps); do
		swapoff "$dev" 2>/dev/null || echo "scenario-group: swapoff $dev failed" >&2
	done
	echo "scenario-group: [$(up)] swap off"
	for z in /sys/block/zram*; do
		[ -e "$z/reset" ] && echo 1 > "$z/reset" 2>/dev/null
	done
	for z in /sys/block/zram*; do
		n=${z##*/zram}
		[ "$n" != 0 ] && [ -e /sys/class/zram-control/hot_remove ] &&
			echo "$n" > /sys/class/zram-control/hot_remove 2>/dev/null
	done
	if [ -f "$dir/setup.txt" ]; then
		# memory cgroups: "memcg=v2 /sys/fs/cgroup/NAME ...", deepest first
		awk '$1 ~ /^memcg=/ { print $2 }' "$dir/setup.txt" | sort -r | while read -r cg; do
			[ -d "$cg" ] && rmdir "$cg" 2>/dev/null
		done
		# settings: "path=value" written by wr/wr_opt
		while IFS= read -r l; do
			p=${l%%=*}
			case $p in /*) ;; *) continue ;; esac
			orig=$(awk -v p="$p" '{ i = index($0, "=") }
				substr($0, 1, i - 1) == p { print substr($0, i + 1); f = 1; exit }
				END { exit !f }' /tmp.settings) || continue
			echo "$orig" > "$p" 2>/dev/null
		done < "$dir/setup.txt"
	fi
	echo "scenario-group: [$(up)] cgroups and settings done"
	sync
	echo 3 > /proc/sys/vm/drop_caches 2>/dev/null
	echo 1 > /proc/sys/vm/compact_memory 2>/dev/null
}

settings > /tmp.settings
rc=0
for last in "$@"; do :; done
for s in "$@"; do
	dir=$OUTTOP/$s
	mkdir -p "$dir"
	before=$(ls /proc | tr '\n' ' ')
	t0=$(up)
	echo "scenario-group: [$t0] $s start"
	echo "start=$t0" > "$dir/timing"
	MMSCOPE_OUT=$dir sh "/usr/local/lib/scenarios/$s.sh" > "$dir/log" 2>&1
	st=$?
	t1=$(up)
	echo "end=$t1" >> "$dir/timing"
	echo "$st" > "$dir/status"
	echo "scenario-group: [$t1] $s end status=$st"
	[ "$st" = 0 ] || rc=1
	# after the last one the guest powers off: nothing to put back
	[ "$s" = "$last" ] && break
	put_back "$dir"
	echo "scenario-group: [$(up)] $s put back"
done
exit $rc
