#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Scenario: collect per-kernel reference facts into $MMSCOPE_OUT (/out).
# Runs in the guest under busybox sh; tests/vm/host-kernel-facts.sh runs it
# on the host with bash (MMSCOPE_NO_KPROBE=1, MMSCOPE_TRACEFS=...).
#
# Layout written:
#   uname-r.txt, proc-version.txt
#   kallsyms-functions.txt   "t|T name [module]" for swap/zswap/compaction/
#                            kswapd/kcompactd/cluster/vmscan/shrink_ names
#   filter-functions.txt     same filter on available_filter_functions
#   events/<system>/<event>/format   vmscan compaction kmem oom migrate
#                            huge_memory writeback (+ syscalls swapon/swapoff,
#                            the tasks group's task_newtask, task_rename and
#                            sched_process_exec)
#   event-systems.txt        every event system present
#   vmstat-fields.txt, zoneinfo.txt, thp-stats.txt, zswap-params.txt
#   features.txt             key=value (kprobe_events, btf, defrag_mode, …)
#   kprobes.txt (+ kprobes/<label>.format)   kprobe smoke test results
set -eu
# shellcheck disable=SC3040 # busybox ash and bash have pipefail, dash has not
(set -o pipefail) 2>/dev/null && set -o pipefail

OUT=${MMSCOPE_OUT:-/out}
T=${MMSCOPE_TRACEFS:-/sys/kernel/tracing}
NO_KPROBE=${MMSCOPE_NO_KPROBE:-0}
TMPD=${TMPDIR:-/tmp}/kfacts.$$
mkdir -p "$OUT" "$TMPD"
trap 'rm -rf "$TMPD"' EXIT

log() { echo "kernel-facts: [$(cut -d' ' -f1 /proc/uptime)] $*"; }
yn() { if [ -e "$1" ]; then echo yes; else echo no; fi; }

uname -r > "$OUT/uname-r.txt"
cat /proc/version > "$OUT/proc-version.txt"

# --- symbols: read /proc/kallsyms once (slow under TCG), filter in awk -----
PAT='swap|zswap|compact|kswapd|kcompactd|cluster|vmscan|balance_pgdat|shrink_'
cat /proc/kallsyms > "$TMPD/kallsyms"
# tracepoint/ftrace boilerplate (__pfx_, __traceiter_, perf_trace_ …) is dropped;
# 7.x kallsyms also types tracepoint data objects (__tracepoint_*,
# event_class_*, print_fmt_*, trace_event_fields_*) as t/T
NOISE='^(__pfx_|__cfi_|__SCT__|__SCK__|__traceiter_|__bpf_trace_|__probestub_|trace_event_raw_event_|trace_raw_output_|perf_trace_|__tracepoint_|__event_|event_|print_fmt_|trace_event_fields_|trace_event_type_funcs_)'
awk -v pat="$PAT" -v noise="$NOISE" '($2 == "t" || $2 == "T") && $3 ~ pat && $3 !~ noise {
	print $2, $3, ($4 == "" ? "" : $4) }' "$TMPD/kallsyms" |
	sed 's/ $//' | LC_ALL=C sort -k2,2 -k1,1 -u > "$OUT/kallsyms-functions.txt"
log "kallsyms: $(wc -l < "$TMPD/kallsyms") symbols, $(wc -l < "$OUT/kallsyms-functions.txt") matching functions"
if [ -r "$T/available_filter_functions" ] &&
	awk -v pat="$PAT" -v noise="$NOISE" '$1 ~ pat && $1 !~ noise' "$T/available_filter_functions" 2>/dev/null |
	LC_ALL=C sort -u > "$TMPD/aff" && [ -s "$TMPD/aff" ]; then
	mv "$TMPD/aff" "$OUT/filter-functions.txt"
fi

# --- event formats --------------------------------------------------------
if [ -d "$T/events" ]; then
	for s in "$T"/events/*/; do s=${s%/}; echo "${s##*/}"; done > "$OUT/event-systems.txt"
	for sys in vmscan compaction kmem oom migrate huge_memory writeback; do
		[ -d "$T/events/$sys" ] || { log "no event system $sys"; continue; }
		for ev in "$T/events/$sys"/*/; do
			ev=${ev%/}; ev=${ev##*/}
			[ -r "$T/events/$sys/$ev/format" ] || continue
			mkdir -p "$OUT/events/$sys/$ev"
			cat "$T/events/$sys/$ev/format" > "$OUT/events/$sys/$ev/format"
		done
	done
	for ev in syscalls/sys_enter_swapon syscalls/sys_exit_swapon \
		syscalls/sys_enter_swapoff syscalls/sys_exit_swapoff \
		task/task_newtask task/task_rename sched/sched_process_exec; do
		[ -r "$T/events/$ev/format" ] || continue
		mkdir -p "$OUT/events/$ev"
		cat "$T/events/$ev/format" > "$OUT/events/$ev/format"
	done
else
	log "no tracefs at $T"
fi

# --- counters ---------------------------------------------------------------
awk '{ print $1 }' /proc/vmstat > "$OUT/vmstat-fields.txt"
cat /proc/zoneinfo > "$OUT/zoneinfo.txt"
THP=/sys/kernel/mm/transparent_hugepage
: > "$OUT/thp-stats.txt"
for d in "$THP"/hugepages-*; do
	[ -d "$d" ] || continue
	if [ -d "$d/stats" ]; then
		for f in "$d"/stats/*; do echo "${d##*/}/stats/${f##*/}"; done
	else
		echo "${d##*/} (no stats dir)"
	fi
done >> "$OUT/thp-stats.txt"
: > "$OUT/zswap-params.txt"
if [ -d /sys/module/zswap/parameters ]; then
	for f in /sys/module/zswap/parameters/*; do
		echo "${f##*/}=$(cat "$f" 2>/dev/null || echo '?')"
	done > "$OUT/zswap-params.txt"
fi

{
	echo "kprobe_events=$(yn "$T/kprobe_events")"
	echo "dynamic_events=$(yn "$T/dynamic_events")"
	echo "uprobe_events=$(yn "$T/uprobe_events")"
	echo "error_log=$(yn "$T/error_log")"
	echo "available_filter_functions_readable=$( [ -r "$T/available_filter_functions" ] && head -c1 "$T/available_filter_functions" >/dev/null 2>&1 && echo yes || echo no)"
	echo "instances=$(yn "$T/instances")"
	echo "btf_vmlinux=$(yn /sys/kernel/btf/vmlinux)"
	echo "pressure_memory=$(yn /proc/pressure/memory)"
	echo "defrag_mode=$(yn /proc/sys/vm/defrag_mode)"
	echo "compaction_proactiveness=$(yn /proc/sys/vm/compaction_proactiveness)"
	echo "zswap_module=$(yn /sys/module/zswap)"
	echo "thp_dir=$(yn "$THP")"
	echo "thp_sizes=$(ls -d "$THP"/hugepages-* 2>/dev/null | sed 's|.*/hugepages-||' | tr '\n' ' ' | sed 's/ $//')"
	echo "lru_gen=$( [ -r /sys/kernel/mm/lru_gen/enabled ] && cat /sys/kernel/mm/lru_gen/enabled || echo absent)"
} > "$OUT/features.txt"

# --- kprobe smoke test ----------------------------------------------------
# label<TAB>definition; tried when the probed function is a t/T symbol.
# Each accepted probe is enabled and disabled once, then removed.
cat > "$TMPD/probes" <<'PROBES'
alloc_btf	p:mmscope_test/alloc_btf swap_range_alloc type=si->type offset nr=nr_entries
alloc_raw	p:mmscope_test/alloc_raw swap_range_alloc type=+72($arg1):s8 offset=$arg2:u64 nr=$arg3:u32
getpg_r_args	r:mmscope_test/getpg_r_args get_swap_pages ret=$retval:s32 n_goal=$arg1:s32 size=$arg3:s32
getpg_r	r:mmscope_test/getpg_r get_swap_pages ret=$retval:s32
fas_r_btf	r:mmscope_test/fas_r_btf folio_alloc_swap ret=$retval:s32 entry=folio->swap.val pflags=folio->flags.f fl1=folio->_flags_1
fas_r_btf612	r:mmscope_test/fas_r_btf612 folio_alloc_swap entry=$retval:x64 pflags=folio->flags fl1=folio->_flags_1
fas_r_btf2	r:mmscope_test/fas_r_btf2 folio_alloc_swap ret=$retval:s32 entry=folio->swap.val
fas_r_raw	r:mmscope_test/fas_r_raw folio_alloc_swap ret=$retval:x64
fas_raw	p:mmscope_test/fas_raw folio_alloc_swap folio=$arg1:x64 pflags=+0($arg1):x64
scan_btf	p:mmscope_test/scan_btf alloc_swap_scan_cluster type=si->type offset
scan_r_btf	r:mmscope_test/scan_r_btf alloc_swap_scan_cluster found=$retval:u32 type=si->type
move_btf	p:mmscope_test/move_btf move_cluster type=si->type old=ci->flags new=new_flags order=ci->order count=ci->count
isol_r_btf	r:mmscope_test/isol_r_btf isolate_lock_cluster ci=$retval:x64 type=si->type
free_72	p:mmscope_test/free_72 __swap_cluster_free_entries type=si->type start=ci_start nr=nr_pages
free_618	p:mmscope_test/free_618 swap_entries_free type=si->type entry=$arg3:x64 nr=nr_pages
free_612	p:mmscope_test/free_612 swap_entry_range_free type=si->type entry=$arg2:x64 nr=nr_pages
free_61	p:mmscope_test/free_61 swap_range_free type=+72($arg1):s8 offset=$arg2:u64 nr=$arg3:u32
wkc_btf	p:mmscope_test/wkc_btf wakeup_kcompactd nid=pgdat->node_id order hz=highest_zoneidx caller=$stack0:symbol
wkc_raw	p:mmscope_test/wkc_raw wakeup_kcompactd order=$arg2:s32 hz=$arg3:s32 caller=$stack0:symbol
pks_r_btf	r:mmscope_test/pks_r_btf prepare_kswapd_sleep ret=$retval:u8 nid=pgdat->node_id order hz=highest_zoneidx
zstore_r	r:mmscope_test/zstore_r zswap_store ret=$retval:u8
zfstore	p:mmscope_test/zfstore zswap_frontswap_store type=$arg1:u32 offset=$arg2:u64
smcb_r	r:mmscope_test/smcb_r shrink_memcg_cb ret=$retval:u32
PROBES

kp() { # DEF: write one definition; 0 = accepted
	echo "$1" >> "$T/kprobe_events" 2>/dev/null
}
if [ "$NO_KPROBE" = 1 ]; then
	log "kprobe test skipped (MMSCOPE_NO_KPROBE=1)"
	echo "kprobe test not run (MMSCOPE_NO_KPROBE=1); kprobe_events present: $(yn "$T/kprobe_events")" > "$OUT/kprobes.txt"
elif [ ! -w "$T/kprobe_events" ]; then
	echo "kprobe_events absent: no kprobe test" > "$OUT/kprobes.txt"
else
	mkdir -p "$OUT/kprobes"
	awk '$2 == "t" || $2 == "T" { print $3 }' "$TMPD/kallsyms" > "$TMPD/tsyms"
	{
		echo "# result label: definition   (ACCEPTED / REJECTED / NOSYM = no t/T symbol)"
		tab=$(printf '\t')
		while IFS="$tab" read -r label def; do
			[ -n "$label" ] || continue
			fn=$(echo "$def" | awk '{ print $2 }')
			ev=$(echo "$def" | awk '{ sub(/^[pr][0-9]*:/, "", $1); print $1 }')
			if ! grep -qx "$fn" "$TMPD/tsyms"; then
				clones=$(grep "^$fn\." "$TMPD/tsyms" | tr '\n' ' ' || true)
				echo "NOSYM $label: $def${clones:+   (clones: $clones)}"
				continue
			fi
			: > "$T/error_log" 2>/dev/null || true
			if kp "$def"; then
				en=enable-failed
				if echo 1 > "$T/events/$ev/enable" 2>/dev/null; then
					en=enabled
					echo 0 > "$T/events/$ev/enable"
				fi
				echo "ACCEPTED $label: $def   [$en]"
				cp "$T/events/$ev/format" "$OUT/kprobes/$label.format" 2>/dev/null || true
				kp "-:$ev" || echo "  (could not remove $ev)"
			else
				echo "REJECTED $label: $def"
				sed 's/^/  | /' "$T/error_log" 2>/dev/null || true
			fi
		done < "$TMPD/probes"
	} > "$OUT/kprobes.txt"
	log "kprobes: $(grep -c '^ACCEPTED' "$OUT/kprobes.txt" || true) accepted, $(grep -c '^REJECTED' "$OUT/kprobes.txt" || true) rejected"
fi
log "done"
