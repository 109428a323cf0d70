#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# check-scenario.sh KERNEL SCENARIO [--out DIR] [--no-run]
#
# Runs tests/vm/scenarios/SCENARIO.sh on KERNEL (6.1, 6.12, 7.x, ...) under
# qemu with the freshly built mmscope and the workloads of
# tests/vm/workloads/, then checks the recording(s) it brought back on the
# host:
#   * `mmscope dump --stat` and `trace-cmd report` open the file and count
#     the same events;
#   * the metadata names this kernel and the probe set expected for it,
#     and every probe of the set that the scenario exercises has events;
#   * event counts agree with the counter deltas sampled in the same file
#     (first to last complete sample set), exactly or within the file's
#     lost-event count.
# Every check prints one line ("ok:" or "FAILED:"), naming kernel, event or
# counter and what was seen. Exit: 0 all ok, 1 a check failed (or the
# guest died while mmscope recorded), 3 the guest died or hung without a
# status at boot, in the scenario's setup or after mmscope's runs (the
# lab's fault: a "  guest fault: PHASE: LINE" line says where and how;
# qemu TCG's text-poke race, tests/vm/poke-race.awk, is the lab's fault
# in any phase),
# 77 skipped (kernel not fetchable, qemu or trace-cmd missing).
# MMSCOPE_VM_APPEND adds to the guest kernel's command line (a test of
# that path: MMSCOPE_VM_APPEND=rdinit=/none panics at boot);
# MMSCOPE_VM_BINARIES (paths, space-separated) adds programs to the guest.
#
# mmscope: $MMSCOPE, else $top_builddir/mmscope, else ./mmscope, else
# <repo>/mmscope. An arm64-* KERNEL runs $MMSCOPE_ARM64 in the guest (else
# cross-build.sh builds it in $MMSCOPE_ARM64_BUILD, default
# <build>/vm-arm64) and workloads built with aarch64-linux-gnu-gcc; the
# host's mmscope reads what it recorded. --out DIR keeps the guest output (default: temporary,
# removed). --no-run checks what DIR already holds.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)

usage() { echo "usage: check-scenario.sh KERNEL SCENARIO [--out DIR] [--no-run]" >&2; exit 2; }
[ $# -ge 2 ] || usage
KERNEL=$1 SCEN=$2
shift 2
OUT='' RUN=1
while [ $# -gt 0 ]; do
	case $1 in
	--out) OUT=${2:?}; shift 2 ;;
	--no-run) RUN=0; shift ;;
	*) usage ;;
	esac
done
# Several scenarios ("memcg-swap zswap"): one boot runs them all, one
# after the other (scenario-group.sh), each into OUT/NAME; this script
# then only boots (exit 0: the guest ran every scenario to its status,
# OUT/NAME/status), and the checks are one --no-run call per scenario
# (check-matrix.sh does both).
GROUP=()
for s in $SCEN; do
	[ -f "$HERE/scenarios/$s.sh" ] || { echo "check-scenario: no scenario $HERE/scenarios/$s.sh" >&2; exit 2; }
	GROUP+=("$s")
done
[ ${#GROUP[@]} -ge 1 ] || usage
SCRIPT=$HERE/scenarios/${GROUP[0]}.sh
[ $RUN = 1 ] || [ -n "$OUT" ] || { echo "check-scenario: --no-run needs --out DIR" >&2; exit 2; }
if [ ${#GROUP[@]} -gt 1 ]; then
	[ $RUN = 1 ] && [ -n "$OUT" ] || { echo "check-scenario: several scenarios need --out DIR and a run" >&2; exit 2; }
fi

skip() { echo "  skipped: $KERNEL $SCEN: $*"; exit 77; }

MMSCOPE=${MMSCOPE:-}
if [ -z "$MMSCOPE" ]; then
	for c in "${top_builddir:-}/mmscope" ./mmscope "$REPO/mmscope"; do
		[ "$c" != /mmscope ] && [ -x "$c" ] && { MMSCOPE=$c; break; }
	done
fi
if [ -z "$MMSCOPE" ] || [ ! -x "$MMSCOPE" ]; then
	echo "check-scenario: mmscope binary not found (set MMSCOPE or top_builddir)" >&2
	exit 2
fi
MMSCOPE=$(cd "$(dirname "$MMSCOPE")" && pwd)/$(basename "$MMSCOPE")
command -v trace-cmd >/dev/null || skip "trace-cmd not installed (the independent reader)"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/check-vm.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
if [ -z "$OUT" ]; then OUT=$tmp/out; fi
mkdir -p "$OUT"

# guest_phase: where the guest of $OUT was when it stopped, from the
# console and the scenario's log: boot (the scenario never started),
# setup (started, mmscope not yet run), mmscope (a "mmscope record" line
# without its "record exit"), after (mmscope's runs ended; what followed)
guest_phase() {
	local f starts exits s
	grep -q 'mmscope-vm: scenario start' "$OUT/console.log" 2>/dev/null || { echo boot; return; }
	f=$OUT/log
	if [ ${#GROUP[@]} -gt 1 ]; then
		# the scenario the guest was in: begun (timing), no status yet;
		# all ended: after them
		f=''
		for s in "${GROUP[@]}"; do
			[ -f "$OUT/$s/timing" ] && [ ! -f "$OUT/$s/status" ] && f=$OUT/$s/log
		done
		if [ -z "$f" ]; then
			[ -f "$OUT/${GROUP[-1]}/status" ] && { echo after; return; }
			f=$OUT/${GROUP[0]}/log
		fi
	fi
	[ -s "$f" ] || f=$OUT/console.log	# no 9p: the log went to the console
	starts=$(grep -c '^scenario: \[[0-9.]*\] mmscope record' "$f" 2>/dev/null) || true
	exits=$(grep -c '^scenario: \[[0-9.]*\] record exit' "$f" 2>/dev/null) || true
	if [ "${starts:-0}" -eq 0 ]; then echo setup
	elif [ "${starts:-0}" -gt "${exits:-0}" ]; then echo mmscope
	else echo after
	fi
}
# guest_fault_line: one line saying how the guest died: its kernel's first
# oops or panic line, else qemu's own error, else the console's last line
guest_fault_line() {
	local l
	l=$(grep -m1 -E 'Kernel panic|BUG:|Oops|general protection fault|Unable to handle|kernel BUG|Internal error' \
		"$OUT/console.log" 2>/dev/null | tr -d '\r' | sed 's/^\[ *[0-9.]*\] //') || true
	[ -n "$l" ] || l=$(grep -m1 -E '^qemu-system|qemu: ' "$OUT/console.log" 2>/dev/null | tr -d '\r') || true
	[ -n "$l" ] || l=$(tr -d '\r' <"$OUT/console.log" 2>/dev/null | grep -v '^$' | tail -n 1) || true
	echo "${l:-no console output}"
}

# ---- run --------------------------------------------------------------------
if [ $RUN = 1 ]; then
	GUEST_MMSCOPE=$MMSCOPE CC=cc STRACE=''
	case $KERNEL in
	arm64-*)
		command -v qemu-system-aarch64 >/dev/null || skip "qemu-system-aarch64 not installed (qemu-system-arm)"
		command -v aarch64-linux-gnu-gcc >/dev/null || skip "aarch64-linux-gnu-gcc not installed (gcc-aarch64-linux-gnu)"
		CC=aarch64-linux-gnu-gcc
		GUEST_MMSCOPE=${MMSCOPE_ARM64:-}
		if [ -z "$GUEST_MMSCOPE" ]; then
			rc=0
			"$HERE/cross-build.sh" arm64 "${MMSCOPE_ARM64_BUILD:-$(dirname "$MMSCOPE")/vm-arm64}" \
				>"$tmp/cross.log" 2>&1 || rc=$?
			[ $rc = 77 ] && skip "cannot cross-build mmscope: $(tail -1 "$tmp/cross.log")"
			[ $rc = 0 ] || { echo "  FAILED: $KERNEL $SCEN: cross-build of mmscope:"; sed 's/^/    | /' "$tmp/cross.log" | tail -8; exit 1; }
			GUEST_MMSCOPE=$(tail -1 "$tmp/cross.log")
		fi ;;
	*)
		command -v qemu-system-x86_64 >/dev/null || skip "qemu-system-x86_64 not installed"
		# memcg-swap's recorder runs under strace (check_kallsyms_reads)
		case " $SCEN " in *" memcg-swap "*)
			STRACE=$(command -v strace) || skip "strace not installed (it counts the recorder's reads of /proc/kallsyms)"
		esac ;;
	esac
	# the workloads, built once per compiler for the whole matrix when
	# check-matrix.sh names a directory for them (MMSCOPE_VM_WORKLOADS;
	# two cases at a time: under a lock), else for this case alone
	wl=$tmp/bin
	[ -z "${MMSCOPE_VM_WORKLOADS:-}" ] || wl=$MMSCOPE_VM_WORKLOADS/$(basename "$CC")
	mkdir -p "$wl"
	bins=(--binary "$GUEST_MMSCOPE:/usr/local/bin/mmscope")
	[ -z "$STRACE" ] || bins+=(--binary "$STRACE")
	# more programs for the guest (check-kills.sh: earlyoom), each with
	# its shared libraries, in /usr/local/bin
	for b in ${MMSCOPE_VM_BINARIES:-}; do bins+=(--binary "$b"); done
	exec 9>"$wl/.lock"
	flock 9
	for src in "$HERE"/workloads/*.c "$REPO/samples/workloads/anon-touch.c"; do
		n=$(basename "$src" .c)
		# static where glibc allows (no shared libraries to copy), else dynamic
		[ "$wl/$n" -nt "$src" ] ||
			$CC -static -std=c99 -O2 -Wall -Wextra -o "$wl/$n" "$src" 2>"$tmp/cc.log" \
			|| $CC -std=c99 -O2 -Wall -Wextra -o "$wl/$n" "$src" 2>"$tmp/cc.log" \
			|| { rm -f "$wl/$n"; cat "$tmp/cc.log" >&2; echo "check-scenario: cannot build $src" >&2; exit 1; }
		bins+=(--binary "$wl/$n")
	done
	exec 9>&-
	mem=$(sed -n 's/^#[[:space:]]*vm-mem:[[:space:]]*//p' "$SCRIPT" | head -1)
	tmo=$(sed -n 's/^#[[:space:]]*vm-timeout:[[:space:]]*//p' "$SCRIPT" | head -1)
	smp=$(sed -n 's/^#[[:space:]]*vm-smp:[[:space:]]*//p' "$SCRIPT" | head -1)
	if [ ${#GROUP[@]} -gt 1 ]; then
		# one guest for all: the largest memory, every module, the sum
		# of the timeouts; they must agree on the CPUs
		tmo=0 mods=''
		for s in "${GROUP[@]}"; do
			f=$HERE/scenarios/$s.sh
			m=$(sed -n 's/^#[[:space:]]*vm-mem:[[:space:]]*//p' "$f" | head -1)
			[ "${m:-512}" -le "${mem:-512}" ] || mem=$m
			t=$(sed -n 's/^#[[:space:]]*vm-timeout:[[:space:]]*//p' "$f" | head -1)
			tmo=$((tmo + ${t:-300}))
			c=$(sed -n 's/^#[[:space:]]*vm-smp:[[:space:]]*//p' "$f" | head -1)
			[ "$c" = "$smp" ] || { echo "check-scenario: $s and ${GROUP[0]} want other CPU counts: boot them apart" >&2; exit 2; }
			mods="$mods $(sed -n 's/^#[[:space:]]*vm-modules:[[:space:]]*//p' "$f")"
			bins+=(--file "$f:/usr/local/lib/scenarios/$s.sh")
		done
		SCRIPT=$tmp/group.sh
		{
			echo '#!/bin/sh'
			echo "# vm-modules: $(printf '%s\n' $mods | sort -u | tr '\n' ' ')"
			echo "exec sh /usr/local/lib/scenario-group.sh ${GROUP[*]}"
		} >"$SCRIPT"
		bins+=(--file "$HERE/scenario-group.sh:/usr/local/lib/scenario-group.sh")
		rm -rf "${GROUP[@]/#/$OUT/}"
	fi
	rc=0
	"$HERE/run-vm.sh" "$KERNEL" "$SCRIPT" "$OUT" --mem "${mem:-512}" --timeout "${tmo:-300}" ${smp:+--smp "$smp"} \
		${MMSCOPE_VM_APPEND:+--append "$MMSCOPE_VM_APPEND"} \
		"${bins[@]}" --file "$HERE/scenario-lib.sh:/usr/local/lib/scenario-lib.sh" \
		>"$tmp/run-vm.log" 2>&1 || rc=$?
	# a group's guest that ran to its end: each scenario's own status
	# is the caller's to look at
	[ ${#GROUP[@]} -gt 1 ] && [ $rc = 1 ] && [ -f "$OUT/status" ] && rc=0
	case $rc in
	0) ;;
	77) skip "kernel $KERNEL not available: $(tail -1 "$tmp/run-vm.log")" ;;
	*)
		echo "  FAILED: $KERNEL $SCEN: the guest run ended with status $rc ($(case $rc in 124) echo timeout ;; 125) echo no status from the guest ;; *) echo scenario error ;; esac)); last lines of its log:"
		# Each tail may find no file (a guest that died before its
		# scenario wrote nothing); under pipefail that must not end the
		# script before the run-vm.sh line that says why.
		{ tail -15 "$OUT/log" 2>/dev/null || echo "(no log: the scenario did not start)"; } | sed 's/^/    | /'
		{ tail -3 "$tmp/run-vm.log" || true; } | sed 's/^/    | /'
		echo "    last lines of the console:"
		{ tail -8 "$OUT/console.log" 2>/dev/null || true; } | tr -d '\r' | sed 's/^/    | /'
		# a guest kernel that died says where at its first oops line
		# (the tail above is only the panic's register dump)
		oops=$(grep -n -m1 -E 'BUG:|Oops|general protection fault|Unable to handle|kernel BUG' \
			"$OUT/console.log" 2>/dev/null | cut -d: -f1) || true	# none: no oops (a panic alone)
		if [ -n "$oops" ]; then
			echo "    the guest kernel's first oops:"
			sed -n "${oops},$((oops + 30))p" "$OUT/console.log" | tr -d '\r' |
				grep -v -E '^\[ *[0-9.]+\] (R[A-Z0-9]{1,2}|FS|CS|CR2|PKRU|DR[0-9]):' | sed 's/^/    | /'
		fi
		# Where the guest was when it stopped without a status (125) or
		# was killed at the timeout (124): a guest that died or hung at
		# boot, in the scenario's setup or after mmscope's last run is
		# the lab's failure (qemu TCG, the kernel), told by exit 3 (the
		# matrix boots it once more, then calls it a SKIP); one that died
		# while mmscope recorded is a FAIL.
		phase=$(guest_phase)
		fault=$(guest_fault_line)
		# killed at its timeout: did the guest's kernel still run? (the
		# heartbeat /init prints every 10 s, against qemu's wall time)
		if [ $rc = 124 ]; then
			beat=$(tr -d '\r' <"$OUT/console.log" | sed -n 's/^mmscope-vm: alive uptime=\([0-9]*\).*/\1/p' | tail -n 1) || true
			qw=$(sed -n 's/^qemu_wall_s=\([0-9]*\).*/\1/p' "$OUT/vm-timing.txt" 2>/dev/null) || true
			if [ -n "$beat" ] && [ -n "$qw" ] && [ $((beat + 30)) -ge "$qw" ]; then
				fault="timeout: the guest ran on (heartbeat at ${beat} s of ${qw} s); what the scenario ran did not end"
			else
				fault="timeout: the guest froze (last heartbeat at ${beat:-no} s of ${qw:-?} s in qemu): $fault"
			fi
		fi
		# qemu TCG's text-poke race (poke-race.awk) kills a guest
		# whatever runs in it: the lab's fault even while mmscope
		# recorded (tracing's enable patches the kernel's text)
		lab=''
		if [ $rc = 125 ] && [ "$phase" = mmscope ] &&
			awk -f "$HERE/poke-race.awk" "$OUT/console.log" 2>/dev/null; then
			lab=1
			fault="$fault (the trapped code holds no int3 any more: qemu TCG's text-poke race, not mmscope's)"
		fi
		echo "  guest fault: $phase: $fault"
		case $rc:$phase in
		125:mmscope) [ -n "$lab" ] && exit 3; exit 1 ;;
		124:mmscope) exit 1 ;;
		124:*|125:*) exit 3 ;;
		esac
		exit 1 ;;
	esac
	sed -n 's/^/  time: /p' "$OUT/vm-timing.txt" | grep -E 'qemu_wall|total_wall' | tr '\n' ' '; echo
	[ ${#GROUP[@]} -eq 1 ] || exit 0
fi

# ---- checks -------------------------------------------------------------------
nfail=0
ok() { echo "  ok: $KERNEL $SCEN $LABEL: $*"; }
bad() { echo "  FAILED: $KERNEL $SCEN $LABEL: $*"; nfail=$((nfail + 1)); }

# the probe set and the PG_head bit (folio order from pflags/_flags_1) per kernel
KSERIES=${KERNEL#arm64-}
KSERIES=${KSERIES#16k-}
case $KSERIES in	# arm64-6.12, arm64-16k-6.12: the same probe set (BTF names, no offsets)
5.10|5.10.*) WANT_SET=5.10 HEAD_BIT=16 ;;
6.1|6.1.*) WANT_SET=6.1 HEAD_BIT=16 ;;
6.12|6.12.*) WANT_SET=6.12 HEAD_BIT=6 ;;
6.18|6.18.*) WANT_SET=6.18 HEAD_BIT=6 ;;
7.*) WANT_SET=7.x HEAD_BIT=6 ;;
*) WANT_SET='' HEAD_BIT=6 ;;
esac

# The guest's page geometry (scenario-lib.sh's page-facts.txt: AT_PAGESZ,
# hpage_pmd_size), never a 4 KB assumption: 16 KB pages on arm64-16k-*,
# whose PMD THP is 32 MB (order 11) and 64 kB mTHP order 2. A guest output
# without the file (made before it existed) is taken as 4 KB, 2 MB.
log2() { local v=$1 l=0; while [ "$v" -gt 1 ]; do v=$((v / 2)); l=$((l + 1)); done; echo $l; }
pf() { sed -n "s/^$1=//p" "$OUT/page-facts.txt" 2>/dev/null | head -1; }
PAGE_SIZE=$(pf at_pagesz)
[ -n "$PAGE_SIZE" ] || { PAGE_SIZE=$(pf smaps_kernelpagesize_kb); [ -z "$PAGE_SIZE" ] || PAGE_SIZE=$((PAGE_SIZE * 1024)); }
PAGE_SIZE=${PAGE_SIZE:-4096}
PMD_SIZE=$(pf hpage_pmd_size)
PMD_SIZE=${PMD_SIZE:-$((PAGE_SIZE * PAGE_SIZE / 8))}
PMD_ORDER=$(log2 $((PMD_SIZE / PAGE_SIZE)))
PMD_KB=$((PMD_SIZE / 1024))
# CONFIG_THP_SWAP of the kernel's own config (fetch-kernel.sh's cache):
# without it (arm64 selects it only with 4 KB pages) folio_alloc_swap
# refuses every large folio, which reclaim splits and counts as a fallback
THP_SWAP=''
kcfg=$(sed -n 's/^KERNEL_CONFIG=//p' "${MMSCOPE_VM_CACHE:-$REPO/build/vm-cache}/$KERNEL/kernel.env" 2>/dev/null) || true
if [ -n "$kcfg" ] && [ -f "$kcfg" ]; then
	if grep -q '^CONFIG_THP_SWAP=y' "$kcfg"; then THP_SWAP=y; else THP_SWAP=n; fi
fi

# counts file accessors
C='' PMISSED=0
# E KEY: events between the first and the last complete sample set
E() { awk -v k="$1" '$1 == "evw" && $2 == k { print $3; f = 1 } END { if (!f) print 0 }' "$C"; }
Etot() { awk -v k="$1" '$1 == "ev" && $2 == k { print $3; f = 1 } END { if (!f) print 0 }' "$C"; }
# Epre PREFIX: in-window events of every key starting with PREFIX
Epre() { awk -v k="$1" '$1 == "evw" && index($2, k) == 1 { s += $3 } END { print s + 0 }' "$C"; }
S() { awk -v k="$1" '$1 == "sum" && $2 == k { print $3; f = 1 } END { if (!f) print 0 }' "$C"; }
# D KEY: counter delta between the first and the last complete sample set
D() { awk -v k="$1" '$1 == "ctr" && $2 == k { print $4 - $3; f = 1 } END { if (!f) print "NA" }' "$C"; }
# cmp WHAT EVENTS COUNTERS COUNTER-DESCRIPTION [SLACK]: equal within lost (+ slack)
cmp_ev() {
	local what=$1 ev=$2 ctr=$3 desc=$4 slack=${5:-0}
	if [ "$ctr" = NA ] || [[ $ctr == *NA* ]]; then
		bad "$what: counter $desc was not sampled in the file"
		return
	fi
	local d=$((ev - ctr)) tol=$((LOST + PMISSED + slack))
	[ $d -lt 0 ] && d=$((-d))
	if [ $d -le $tol ]; then
		ok "$what: events $ev, counters $desc = $ctr (lost $LOST, probe hits missed $PMISSED$( [ "$slack" = 0 ] || echo ", slack $slack"))"
	else
		bad "$what: events $ev but counters $desc = $ctr (differ by $d; lost events $LOST, probe hits missed $PMISSED$( [ "$slack" = 0 ] || echo ", slack $slack"))"
	fi
}
# cmp_alloc WHAT EVENTS COUNTER DESC [EXCESS]: swap allocations (EVENTS) against
# swap-outs (COUNTER). Reclaim can allocate a folio's slots and then keep
# the folio (try_to_unmap fails, it was referenced or redirtied): it stays
# in the swap cache unwritten. So allocations >= swap-outs, with a small
# excess: allowed 2 + 2% (seen: 6.1 global-pressure 123 vs thp_swpout
# 122; 7.3 memcg-swap 41072 vs 41066, once in 16 runs; usually 0; arm64
# 6.12 memcg-swap under TCG, slower, more refaults before pageout: 120,
# 380 and 400 of ~41100: up to 0.97%). 7.2's 3.5-4.8% is beyond it
# (VM_XFAIL). A wrong device or double count is tens of percent.
# EXCESS names what events beyond the counter are ("allocated, not written").
# Also for 5.10 and 6.1's zswap_writeback_entry, which returns 0 too when
# the entry was freed before it could be written ("entry was invalidated"),
# which written_back_pages does not count (seen: 5.10, 12 returns of 0 for
# 11 pages written back).
cmp_alloc() {
	local what=$1 ev=$2 ctr=$3 desc=$4 excess=${5:-allocated, not written}
	if [[ $ctr == *NA* ]]; then
		bad "$what: counter $desc was not sampled in the file"
		return
	fi
	local lim=$((2 + ctr / 50 + LOST))
	if [ $((ev + LOST + PMISSED)) -ge "$ctr" ] && [ $((ev - ctr)) -le $lim ]; then
		ok "$what: events $ev, counters $desc = $ctr ($excess: $((ev - ctr)); lost $LOST, probe hits missed $PMISSED)"
	else
		bad "$what: events $ev but counters $desc = $ctr (want $desc <= events <= $desc + $lim; lost events $LOST, probe hits missed $PMISSED)"
	fi
}
# fields NAME FIELD...: NAME (when it has events) prints every FIELD
fields() {
	local n=$1 f miss=''; shift
	[ "$(Etot "$n")" -gt 0 ] || return 0
	for f in "$@"; do
		awk -v n="$n" -v f="$f" '$1 == "fld" && $2 == n && $3 == f { x = 1 } END { exit !x }' "$C" || miss="$miss $f"
	done
	if [ -n "$miss" ]; then
		bad "event $n lacks field(s)$miss (it prints: $(awk -v n="$n" '$1 == "fld" && $2 == n { printf "%s ", $3 }' "$C"))"
	fi
}
# need WHAT N: at least one event
need() {
	if [ "$2" -gt 0 ]; then ok "$1: $2 events"; else bad "$1: no events (expected some in this scenario)"; fi
}
ctrsum() { # sum of counter deltas; NA if any is missing
	local t=0 v
	for k in "$@"; do v=$(D "$k"); [ "$v" = NA ] && { echo NA; return; }; t=$((t + v)); done
	echo $t
}
ctr0() { local v; v=$(D "$1"); [ "$v" = NA ] && echo 0 || echo "$v"; }

# probes that may stay silent in every scenario: discard (zram: no discard
# at swapon), swapon-time probes (swapon happens before recording), and
# slot-cache reclaim of full clusters
QUIET_ALL=' drun rfull dsched swapon avadd avdel reloc freecl isol '

check_file() {
	local f=$1
	LABEL=$(basename "$f")
	if [ ! -s "$f" ]; then bad "recording missing or empty"; return; fi
	local st=$tmp/$LABEL.stat rep=$tmp/$LABEL.report
	if ! "$MMSCOPE" dump --stat "$f" >"$st" 2>"$tmp/err"; then
		bad "mmscope dump --stat cannot read it: $(head -1 "$tmp/err")"; return
	fi
	if ! trace-cmd report "$f" >"$rep" 2>"$tmp/err"; then
		bad "trace-cmd report cannot read it: $(grep -v '^$' "$tmp/err" | head -1)"; return
	fi
	ok "opens in mmscope dump and trace-cmd report ($(stat -c %s "$f") bytes)"
	# self-test of these checks: CHECK_VM_MUTATE='s/ ret=/ rv=/' simulates a
	# field rename, 's/^.* store_r: .*$//' a probe that never fires
	[ -z "${CHECK_VM_MUTATE:-}" ] || sed -i -e "$CHECK_VM_MUTATE" "$rep"
	C=$tmp/$LABEL.counts
	awk -v head_bit="$HEAD_BIT" -f "$HERE/rec-counts.awk" "$rep" >"$C"

	# lost events: lost pages + overrun + dropped over every CPU
	LOST=$(awk '$1 == "cpu" && $3 ~ /lost/ { t = 1; next } t && $1 ~ /^[0-9]+$/ && NF >= 5 { s += $3 + $4 + $5 } END { print s + 0 }' "$st")
	local gap; gap=$(awk '$1 == "seqgap" { print $2 }' "$C")
	local sets; sets=$(awk '$1 == "sets" { print $2 }' "$C")
	if [ "$sets" -ge 2 ]; then ok "$sets complete counter sample sets, $gap missing, lost events $LOST"
	else bad "only $sets complete counter sample sets (need 2 to take deltas)"; fi

	# both readers count the same events
	local mism
	mism=$(awk 'NR == FNR { if ($1 == "ev" && $2 !~ /[.]/) n[$2] = $3; next }
		$2 ~ /:/ && $1 ~ /^[0-9]+$/ { e = $2; sub(/^[^:]*:/, "", e); if (e == "print") next
			if (n[e] + 0 != $1) printf "%s: mmscope dump %d, trace-cmd report %d; ", $2, $1, n[e] + 0 }' "$C" "$st")
	if [ -z "$mism" ]; then ok "mmscope dump and trace-cmd report count the same events"
	else bad "readers disagree: $mism"; fi

	# metadata (option 0x6d6d: KEY=VALUE lines, stored uncompressed)
	strings -n 2 "$f" | grep -E '^(kernel|probe_set|probe_reason|probes|probe_missed|groups|events|missing_events)=' >"$tmp/meta" || true
	meta() { sed -n "s/^$1=//p" "$tmp/meta" | head -1; }
	local krn; krn=$(meta kernel)
	if [ -f "$OUT/uname-r.txt" ] && [ "$krn" != "$(cat "$OUT/uname-r.txt")" ]; then
		bad "metadata kernel=$krn but the guest ran $(cat "$OUT/uname-r.txt")"
	fi
	local set; set=$(meta probe_set)
	PROBES=$(meta probes)
	if [ -n "$WANT_SET" ] && [ "$set" != "$WANT_SET" ]; then
		bad "metadata probe_set='$set' (reason: '$(meta probe_reason)'), expected $WANT_SET"
	elif [ -z "$PROBES" ]; then
		bad "metadata probe_set=$set names no probes (reason: '$(meta probe_reason)')"
	else
		ok "metadata: kernel=$krn probe_set=$set, $(echo "$PROBES" | tr ',' '\n' | wc -l) probes"
	fi
	# missed probe hits (kprobe_profile at the end): losses of what the
	# probes count, like the ring's; every probe must have its count
	local pm; pm=$(meta probe_missed)
	PMISSED=$(echo "$pm" | tr ',' '\n' | awk -F= '$2 ~ /^[0-9]+$/ { s += $2 } END { print s + 0 }')
	if [ -n "$PROBES" ] && { [ -z "$pm" ] || [[ $pm == *=\?* ]]; }; then
		bad "metadata probe_missed='$pm': no kprobe_profile count for every probe"
	elif [ -n "$PROBES" ]; then
		ok "metadata: probe hits missed $PMISSED ($(echo "$pm" | tr ',' '\n' | grep -v '=0$' | sed 's/^[^:]*://' | tr '\n' ' '))"
	fi
	# every probe of the set fires unless it is quiet here
	local p short silent=''
	for p in $(echo "$PROBES" | tr ',' ' '); do
		short=${p#*:}
		case " $QUIET_ALL $QUIET " in *" $short "*) continue ;; esac
		[ "$(Etot "$short")" -gt 0 ] || silent="$silent $p"
	done
	if [ -z "$silent" ]; then ok "every exercised probe produced events"
	else bad "probes without events:$silent"; fi

	# the fields the assertions below read
	case $WANT_SET in
	5.10|6.1) fields fas pflags ord; fields fas_r entry; fields alloc type nr; fields getpg_r ret
		fields store_r ret; fields load_r ret; fields wb_r ret ;;
	6.12) fields fas_r entry pflags fl1; fields alloc nr; fields getpg_r ret order
		fields store_r ret; fields load_r ret; fields wb_r ret ;;
	*) fields fas_r ret pflags fl1; fields store_r ret; fields load_r ret; fields wb_r ret ;;
	esac
	fields mm_vmscan_kswapd_wake order; fields mm_compaction_kcompactd_wake order
	check_devices
	check_geometry
	"check_$SCEN"
	check_report "$f"
}

# mmscope report (issue 5), where it exists: it reads the same file, so its
# counters, totals and handoff numbers must match what was counted here
REPORT_KEYS='pswpout pswpin swpout_zero thp_swpout thp_swpout_fallback compact_daemon_wake pageoutrun zswpout zswpin zswpwb'
check_report() {
	"$MMSCOPE" report --help >/dev/null 2>&1 || return 0
	local j=$tmp/$LABEL.json
	if ! "$MMSCOPE" report -f json "$1" >"$j" 2>"$tmp/err"; then
		bad "mmscope report fails: $(head -1 "$tmp/err")"; return
	fi
	# "source"/"instance"/"key" then "first"/"last", one per line
	awk -F': ' '{ gsub(/[",]/, "", $2) }
		$1 ~ /"source"$/ { src = $2 } $1 ~ /"instance"$/ { inst = $2 } $1 ~ /"key"$/ { key = $2 }
		$1 ~ /"first"$/ && key != "" { first = $2 }
		$1 ~ /"last"$/ && key != "" { k = (src == "mthp" ? "mthp" inst "." key : (src == "zswap" ? "zswap." key : key)); print k, first, $2; key = "" }' "$j" >"$tmp/rep.ctr"
	local k bad_keys='' n=0 mine theirs
	for k in $REPORT_KEYS mthp64.swpout mthp64.swpout_fallback zswap.written_back_pages; do
		mine=$(awk -v k="$k" '$1 == "ctr" && $2 == k { print $3, $4 }' "$C")
		[ -n "$mine" ] || continue
		theirs=$(awk -v k="$k" '$1 == k { print $2, $3; exit }' "$tmp/rep.ctr")
		n=$((n + 1))
		[ "$mine" = "$theirs" ] || bad_keys="$bad_keys $k (samples: $mine, report: ${theirs:-missing})"
	done
	if [ -z "$bad_keys" ]; then ok "mmscope report: the same first/last values for $n counters"
	else bad "mmscope report counters differ:$bad_keys"; fi
	local rl; rl=$(awk -F': ' '$1 ~ /^  "lost"$/ { gsub(/,/, "", $2); print $2; exit }' "$j")
	local rc; rc=$(awk -F': ' '$1 ~ /^  "cpustat_lost"$/ { gsub(/,/, "", $2); print $2; exit }' "$j")
	if [ $(( ${rl:-0} + ${rc:-0} )) -le "$LOST" ] || [ "${rc:-0}" -eq "$LOST" ]; then ok "mmscope report: lost ${rl:-?}/${rc:-?}, dump --stat $LOST"
	else bad "mmscope report says lost ${rl:-?} in pages, ${rc:-?} in stats; mmscope dump --stat $LOST"; fi
	# the header's missed probe hits: the metadata's sum, in text and JSON
	if [ -n "$PROBES" ]; then
		local jm; jm=$(awk -F': ' '$1 ~ /^  "probe_missed"$/ { gsub(/,/, "", $2); print $2; exit }' "$j")
		local tm; tm=$("$MMSCOPE" report --section header "$1" 2>/dev/null | sed -n 's/^probes    \([0-9-]*\) probe hits missed.*/\1/p')
		if [ "$jm" = "$PMISSED" ] && [ "$tm" = "$PMISSED" ]; then ok "mmscope report header: $PMISSED probe hits missed (text and JSON)"
		else bad "mmscope report header: probe hits missed '${tm:-no probes line}' (text), '${jm:-missing}' (JSON); the recording's probe_missed sums to $PMISSED"; fi
	fi
	if [ "$SCEN" = zswap ]; then	# the exact writebacks, and no inexact ones
		local rw rok; rw=$(awk -F': ' '$1 ~ /^ *"written_back_pages"$/ { gsub(/,/, "", $2); print $2; exit }' "$j")
		rok=$(awk -F': ' '$1 ~ /^ *"writebacks_ok"$/ { gsub(/,/, "", $2); print $2; exit }' "$j")
		[ "$(D zswap.written_back_pages)" = NA ] ||
			cmp_ev "mmscope report zswap.written_back_pages vs debugfs" "${rw:-0}" "$(D zswap.written_back_pages)" "debugfs written_back_pages"
		# the zswap-writeback finding counts what its section says
		# (zswpwb, else written_back_pages: tests/oracle/findings.py)
		if python3 "$HERE/../oracle/findings.py" json "$MMSCOPE" "$1" >"$tmp/findings.out" 2>&1
		then ok "mmscope report: each finding's count is its section's figure"
		else bad "mmscope report: a finding's count differs from its section's: $(tail -1 "$tmp/findings.out")"; fi
		case $WANT_SET in
		5.10|6.1) if [ "$rok" = null ]; then ok "mmscope report: writebacks_ok null ($WANT_SET's probe counts freed entries too)"
			else bad "mmscope report: writebacks_ok '$rok' on $WANT_SET, whose probe counts freed entries too (want null)"; fi ;;
		esac
	fi
	if [ "$SCEN" = global-pressure ]; then
		local w; w=$(awk -F': ' '$1 ~ /"kcompactd_wakes"$/ { gsub(/,/, "", $2); s += $2 } END { print s + 0 }' "$j")
		cmp_ev "mmscope report kcompactd wakes vs mm_compaction_kcompactd_wake events (whole file)" "$w" "$(Etot mm_compaction_kcompactd_wake)" "(events)"
		local ep; ep=$(awk -F': ' '$1 ~ /"(episodes|rebalances)"$/ { gsub(/,/, "", $2); s += $2 } END { print s + 0 }' "$j")
		cmp_ev "mmscope report kswapd episodes + rebalances vs mm_vmscan_kswapd_wake events (whole file)" "$ep" "$(Etot mm_vmscan_kswapd_wake)" "(events)"
	fi
}

# The recorder's run context (its "mms1 ctx" lines, as trace-cmd prints
# them) against the guest's own page geometry: page_size = AT_PAGESZ, one
# thp.hugepages-NkB per sysfs directory, and swap.cluster_pages =
# SWAPFILE_CLUSTER (HPAGE_PMD_NR with CONFIG_THP_SWAP, else 256: the
# kernel's config is in the guest's /boot, run-vm.sh). Guest outputs made
# before page-facts.txt existed are not checked.
check_geometry() {
	[ -s "$OUT/page-facts.txt" ] || return 0
	local rep=$tmp/$LABEL.report ctx ps cl sizes want_cl mine
	# the context is split over several lines; each key once per phase
	ctx=$(grep 'mms1 ctx ' "$rep" | tr ' ' '\n') || { bad "no run context (mms1 ctx) in the recording"; return; }
	ps=$(echo "$ctx" | sed -n 's/^page_size=//p' | head -1)
	cl=$(echo "$ctx" | sed -n 's/^swap\.cluster_pages=//p' | head -1)
	# a size directory has enabled (anonymous) or shmem_enabled or both
	# (16K: hugepages-32kB, order 1, has no enabled: no anonymous order 1)
	sizes=$(echo "$ctx" | sed -n 's/^thp\.hugepages-\([0-9]*\)kB\.\(shmem_\)\{0,1\}enabled=.*/\1/p' | sort -nu | tr '\n' ' ')
	if [ "$ps" = "$PAGE_SIZE" ]; then ok "run context page_size=$ps = the guest's AT_PAGESZ (PMD $PMD_KB kB, order $PMD_ORDER)"
	else bad "run context page_size='$ps' but the guest's AT_PAGESZ is $PAGE_SIZE"; fi
	mine=$(pf thp_sizes_kb)
	if [ "$sizes" = "$mine" ]; then ok "run context THP sizes (kB) = the guest's hugepages-*kB: ${sizes:-none}"
	else bad "run context THP sizes '$sizes' but the guest's hugepages-*kB are '$mine'"; fi
	case $THP_SWAP in
	y) want_cl=$((PMD_SIZE / PAGE_SIZE)) ;;
	n) want_cl=256 ;;
	*) return 0 ;;
	esac
	if [ "$cl" = "$want_cl" ]; then ok "run context swap.cluster_pages=$cl (CONFIG_THP_SWAP=$THP_SWAP)"
	else bad "run context swap.cluster_pages='$cl', want $want_cl (CONFIG_THP_SWAP=$THP_SWAP, page $PAGE_SIZE, PMD $PMD_SIZE)"; fi
	# mmscope's report: its cluster size and its per-order rows (an
	# order per hugepages-NkB of the guest: log2(N kB / page))
	"$MMSCOPE" report --help >/dev/null 2>&1 || return 0
	local rj=$tmp/$LABEL.geom.json rcl rord gord='' kb
	"$MMSCOPE" report -f json --section swap "$OUT/$LABEL" >"$rj" 2>/dev/null || { bad "mmscope report --section swap fails"; return; }
	read -r rcl rord < <(python3 -c 'import json, sys
s = json.load(open(sys.argv[1]))["swap"]
print(s.get("cluster_size"), ",".join(str(o["order"]) for o in s.get("orders") or [] if o["order"] > 0) or "-")' "$rj" 2>/dev/null || echo "? ?")
	for kb in $mine; do gord="$gord,$(log2 $((kb * 1024 / PAGE_SIZE)))"; done
	gord=${gord#,}
	if [ "$rcl" = "$want_cl" ]; then ok "mmscope report: swap cluster_size $rcl slots"
	else bad "mmscope report: swap cluster_size $rcl, the guest's SWAPFILE_CLUSTER is $want_cl (page $PAGE_SIZE, CONFIG_THP_SWAP=$THP_SWAP)"; fi
	if [ -z "$mine" ]; then :	# no per-size THP (5.10, 6.1)
	elif [ "$rord" = "$gord" ]; then ok "mmscope report: large-folio orders ${rord} (the guest's sizes ${mine:-none} kB at $PAGE_SIZE-byte pages)"
	else bad "mmscope report: large-folio orders $rord, the guest's hugepages-NkB give orders $gord (page $PAGE_SIZE)"; fi
}

# Two swap devices (scenario-lib.sh swap_decoy): the decoy zram1 is type 0
# at priority 1, the scenario's zram0 type 1 at priority 10. Every slot
# range the probes place must be on an active device, and the scenario's
# device must get nearly all of them: a probe reading the device from
# a wrong struct offset (6.1's layout on 5.10) credits another or no type.
check_devices() {
	local sw=$OUT/swaps.end
	[ -s "$sw" ] || return 0
	local types; types=$(awk 'NR > 1 { printf "%d ", NR - 2 }' "$sw")
	local main; main=$(awk 'NR > 1 && $1 == "/dev/zram0" { print NR - 2 }' "$sw")
	local decoy; decoy=$(awk 'NR > 1 && $1 == "/dev/zram1" { print NR - 2 }' "$sw")
	local dused; dused=$(awk 'NR > 1 && $1 == "/dev/zram1" { print $4 }' "$sw")
	[ -n "$main" ] && [ -n "$decoy" ] || { bad "swaps.end lacks zram0 or the decoy zram1: $(tr '\n' ' ' < "$sw")"; return; }
	local n k t bad_types='' on_main on_decoy
	for n in alloc free; do
		for k in $(awk -v n="$n" '$1 == "ev" && index($2, n ".type=") == 1 { print substr($2, length(n) + 7) }' "$C"); do
			case " $types " in *" $k "*) ;; *) bad_types="$bad_types $n.type=$k($(Etot "$n.type=$k"))" ;; esac
		done
	done
	[ "$(Etot alloc)" -gt 0 ] || return 0
	on_main=$(S "alloc.nr.type=$main") on_decoy=$(S "alloc.nr.type=$decoy")
	if [ -n "$bad_types" ]; then
		bad "probes placed slot ranges on swap types that do not exist (active:$types):$bad_types"
	elif [ "$on_main" -eq 0 ]; then
		bad "no slot allocated on the scenario's device zram0 (type $main); decoy zram1 (type $decoy): $on_decoy"
	elif [ $((on_decoy * 10)) -gt $((on_main + 10 * (LOST + PMISSED))) ]; then
		# the decoy (255 slots) takes order-0 slots only when zram0 is
		# full (mthp-frag: 255 of 25950); more than a tenth is a wrong type
		bad "$on_decoy slots allocated on the decoy zram1 (type $decoy) against $on_main on the scenario's zram0 (type $main): more than a tenth"
	else
		ok "slot ranges on the right device: zram0 (type $main) $on_main slots, decoy zram1 (type $decoy) $on_decoy, used at the end ${dused:-0} KiB"
	fi
}

# ---- per-scenario assertions ------------------------------------------------
# success of a swap allocation: 6.1/6.12 fas_r entry != 0, 7.x ret == 0
fas_ok() { if [ "$WANT_SET" = 5.10 ] || [ "$WANT_SET" = 6.1 ] || [ "$WANT_SET" = 6.12 ]; then E "fas_r.entry=ok"; else E "fas_r.ret=0"; fi; }
write_ev() { echo $(( $(E mm_vmscan_write_folio) + $(E mm_vmscan_writepage) )); }

check_memcg-swap() {
	local outs; outs=$(ctrsum pswpout); [ "$outs" = NA ] || outs=$((outs + $(ctr0 swpout_zero)))
	cmp_ev "reclaim writes (write_folio/writepage) vs swap-outs" "$(write_ev)" "$outs" "pswpout+swpout_zero"
	cmp_alloc "successful folio_alloc_swap (fas_r) vs swap-outs" "$(fas_ok)" "$outs" "pswpout+swpout_zero"
	case $WANT_SET in
	5.10|6.1|6.12)
		local a; a=$(S alloc.nr)
		# order-0 slots go through the per-CPU slot cache (64 per CPU)
		local ncpu; ncpu=$(grep -c '^ *[0-9]' <(awk '$1 == "cpu" && $3 ~ /lost/ { t = 1; next } t && $1 ~ /^[0-9]+$/' "$tmp/$LABEL.stat"))
		# against the successful folio allocations (which cmp_alloc held
		# to the swap-outs): slots given to folios that reclaim then kept
		# unwritten were still taken from the ranges (arm64 6.12: 120 of
		# 41,200 allocations not written, 41,280 slots)
		local got; got=$(fas_ok)
		if [ "$a" -ge "$got" ] && [ "$a" -le $((got + 64 * ncpu + LOST)) ]; then
			ok "swap_range_alloc slots $a vs successful folio_alloc_swap $got (swap-outs $outs; slot cache holds <= 64 x $ncpu)"
		else
			bad "swap_range_alloc slots $a vs successful folio_alloc_swap $got (swap-outs $outs): not within [$got, $got + 64 x $ncpu]"
		fi ;;
	esac
	case $WANT_SET in
	6.12|7.x)
		cmp_ev "zswap_load calls (load_r) vs swap-ins" "$(E load_r)" "$(ctrsum pswpin)" pswpin ;;
	esac
	[ "$WANT_SET" = 6.12 ] && cmp_ev "zswap_store calls (store_r, zswap off) vs device writes" "$(E store_r)" "$(ctrsum pswpout)" pswpout
	need "swap slot frees (free)" "$(E free)"
	check_kallsyms_reads
	check_scan_rounding
}

# memcg-scan-rounding: memcg reclaim passes whose first scan came below
# DEF_PRIORITY (lruvec size >> priority rounds to 0 at 12: a small memcg
# in pages, as 64 MB is with 16 KB pages). mmscope's count against the
# one tests/oracle/findings.py recomputes from trace-cmd report's events.
check_scan_rounding() {
	command -v python3 >/dev/null || { echo "  note: no python3, memcg-scan-rounding not checked"; return 0; }
	local f=$OUT/$LABEL esc all
	if FINDINGS_IDS=memcg-scan-rounding python3 "$HERE/../oracle/findings.py" truth "$MMSCOPE" "$f" >"$tmp/rounding.out" 2>&1; then
		"$MMSCOPE" report -f json --section stalls "$f" >"$tmp/stalls.json" 2>/dev/null || true
		read -r esc all < <(python3 -c 'import json, sys
p = json.load(open(sys.argv[1]))["stalls"]["memcg"].get("passes") or {}
print(p.get("escalated"), p.get("count"))' "$tmp/stalls.json" 2>/dev/null || echo "? ?")
		ok "memcg-scan-rounding as trace-cmd gives it: $esc of $all memcg reclaim passes first scanned below priority 12"
	else
		bad "memcg-scan-rounding differs from trace-cmd: $(grep -m1 FAIL "$tmp/rounding.out")"
	fi
}

# The recorder's start (issue 44.14): it lists /proc/kallsyms once, for
# the probe choice and the file's symbols both. Each listing took 0.5-2.9
# s of a 7.3 guest's start under TCG (213,000 symbols), where reading it
# twice made a 6-17 s start. Counted from the strace of memcg-swap's
# recorder (x86-64 guests: the host's strace; none for arm64). The
# recorder's own line on a slow start (mmscope-record(1)) is shown.
check_kallsyms_reads() {
	local st=$OUT/record.strace n note
	note=$(grep -m1 '^mmscope: tracing began' "$OUT/record.log" 2>/dev/null) || true
	[ -z "$note" ] || echo "  time: record start: ${note#mmscope: }"
	case $KERNEL in arm64-*) return 0 ;; esac
	if [ ! -s "$st" ]; then
		bad "no record.strace: the recorder did not run under strace (strace missing in the guest?)"
		return
	fi
	n=$(grep -c 'openat([^"]*"/proc/kallsyms"' "$st") || true
	if [ "$n" -eq 1 ]; then
		ok "the recorder listed /proc/kallsyms once (strace)"
	else
		bad "the recorder opened /proc/kallsyms $n times (want 1: the probe choice and the file share one listing, 0.5-2.9 s each on 7.x under TCG)"
	fi
}

# 64 kB mTHP (6.12+) or PMD THP (5.10, 6.1): its order and slot count come
# from the guest's page size (order 4 and 16 slots with 4 KB pages, order
# 2 and 4 slots with 16 KB). Without CONFIG_THP_SWAP (arm64 16K) no large
# folio gets swap slots: every one is split and counted as a fallback by
# configuration, and 6.12's folio_alloc_swap returns before get_swap_pages.
check_mthp-frag() {
	local sz fb out o nr
	if [ "$WANT_SET" = 6.1 ] || [ "$WANT_SET" = 5.10 ]; then	# PMD THP only
		sz=$PMD_KB o=$PMD_ORDER out=$(D thp_swpout) fb=$(D thp_swpout_fallback)
		cmp_ev "order-$o folio_alloc_swap failures vs THP fallbacks" "$(E fas_r.errforder=$o)" "$fb" thp_swpout_fallback
		cmp_alloc "order-$o swap allocations vs THP swap-outs" "$(E fas_r.okforder=$o)" "$out" thp_swpout
	else
		sz=64 nr=$((65536 / PAGE_SIZE)) o=$(log2 $((65536 / PAGE_SIZE)))
		out=$(D mthp64.swpout) fb=$(D mthp64.swpout_fallback)
		cmp_ev "order-$o folio_alloc_swap failures vs 64K swpout_fallback" "$(E fas_r.errforder=$o)" "$fb" "hugepages-64kB swpout_fallback"
		cmp_alloc "order-$o swap allocations vs 64K swpout" "$(E fas_r.okforder=$o)" "$out" "hugepages-64kB swpout"
		if [ "$WANT_SET" = 6.12 ] && [ "$THP_SWAP" = n ]; then
			# folio_alloc_swap gives a large folio no entry without
			# asking get_swap_pages: no order-o request at all
			local asked; asked=$(Epre "getpg_r.order$o.ret=")
			if [ "$asked" -eq 0 ]; then ok "get_swap_pages never asked for order $o (CONFIG_THP_SWAP off)"
			else bad "get_swap_pages asked $asked times for order $o, but CONFIG_THP_SWAP is off"; fi
		elif [ "$WANT_SET" = 6.12 ]; then
			cmp_ev "get_swap_pages order $o returning 0 vs 64K swpout_fallback" "$(E getpg_r.order$o.ret=0)" "$fb" "hugepages-64kB swpout_fallback"
		fi
		[ "$WANT_SET" = 6.12 ] && cmp_alloc "swap_range_alloc of $nr slots vs 64K swpout" "$(E alloc.nr=$nr)" "$out" "hugepages-64kB swpout"
	fi
	if [ "$THP_SWAP" = n ]; then
		if [ "$out" = 0 ] && [ "$fb" != NA ] && [ "$fb" -gt 0 ]; then
			ok "${sz}kB swap-outs all fell back by configuration (CONFIG_THP_SWAP off): swpout $out, swpout_fallback $fb"
		else
			bad "CONFIG_THP_SWAP is off, yet ${sz}kB swpout $out, swpout_fallback $fb (want 0 and more than 0)"
		fi
	elif [ "$fb" != NA ] && [ "$fb" -gt 0 ]; then ok "${sz}kB swap-outs fell back: swpout $out, swpout_fallback $fb"
	else bad "no ${sz}kB swap-out fell back (swpout $out, swpout_fallback $fb): the scenario did not fragment swap"; fi
}

check_global-pressure() {
	cmp_ev "kswapd wakes (mm_vmscan_kswapd_wake) vs balance_pgdat runs" "$(E mm_vmscan_kswapd_wake)" "$(D pageoutrun)" pageoutrun
	cmp_ev "kcompactd wakes (mm_compaction_kcompactd_wake) vs compact_daemon_wake" "$(E mm_compaction_kcompactd_wake)" "$(D compact_daemon_wake)" compact_daemon_wake
	if [ "$WANT_SET" = 7.x ]; then
		# balance_pgdat_begin is not recorded (it fires with kswapd_wake);
		# a run still open at the end has no end event yet: slack 1
		cmp_ev "balance_pgdat_end (7.x) vs balance_pgdat runs" "$(E mm_vmscan_balance_pgdat_end)" "$(D pageoutrun)" pageoutrun 1
	fi
	need "kswapd wakes" "$(E mm_vmscan_kswapd_wake)"
	need "kcompactd wakes" "$(E mm_compaction_kcompactd_wake)"
	# PMD THP: order 9 with 4 KB pages, 11 with 16 KB (32 MB)
	cmp_alloc "order-$PMD_ORDER swap allocations vs THP swap-outs" "$(E fas_r.okforder=$PMD_ORDER)" "$(D thp_swpout)" thp_swpout
	cmp_ev "order-$PMD_ORDER folio_alloc_swap failures vs THP fallbacks" "$(E fas_r.errforder=$PMD_ORDER)" "$(D thp_swpout_fallback)" thp_swpout_fallback
}

# fsd NAME: delta of debugfs frontswap/NAME from before to after (NA if absent)
fsd() {
	awk -F: -v k="/sys/kernel/debug/frontswap/$1" 'FNR == 1 { f++ } $1 == k { v[f] = $2; n[f] = 1 }
		END { if (n[1] && n[2]) print v[2] - v[1]; else print "NA" }' "$OUT/frontswap.before" "$OUT/frontswap.after" 2>/dev/null || echo NA
}

check_zswap() {
	case $WANT_SET in
	5.10)	# no zswpout/zswpin before 5.19: frontswap's debugfs counters,
		# read before and after the recording (the workload runs inside it)
		cmp_ev "zswap_frontswap_store returning 0 vs frontswap succ_stores (whole file)" "$(Etot store_r.ret=0)" "$(fsd succ_stores)" "debugfs frontswap/succ_stores"
		cmp_ev "zswap_frontswap_load returning 0 vs frontswap loads (whole file)" "$(Etot load_r.ret=0)" "$(fsd loads)" "debugfs frontswap/loads"
		cmp_alloc "zswap_writeback_entry returning 0 vs written_back_pages" "$(E wb_r.ret=0)" "$(D zswap.written_back_pages)" "debugfs written_back_pages" "freed before writeback" ;;
	6.1)
		cmp_ev "zswap_frontswap_store returning 0 vs zswpout" "$(E store_r.ret=0)" "$(D zswpout)" zswpout
		cmp_ev "zswap_frontswap_load returning 0 vs zswpin" "$(E load_r.ret=0)" "$(D zswpin)" zswpin
		cmp_alloc "zswap_writeback_entry returning 0 vs written_back_pages" "$(E wb_r.ret=0)" "$(D zswap.written_back_pages)" "debugfs written_back_pages" "freed before writeback" ;;
	6.12)
		cmp_ev "zswap_store returning true vs zswpout" "$(E store_r.ret=1)" "$(D zswpout)" zswpout
		cmp_ev "zswap_load returning true vs zswpin" "$(E load_r.ret=1)" "$(D zswpin)" zswpin
		cmp_ev "zswap_writeback_entry returning 0 vs zswpwb" "$(E wb_r.ret=0)" "$(D zswpwb)" zswpwb ;;
	*)
		cmp_ev "zswap_store returning true vs zswpout" "$(E store_r.ret=1)" "$(D zswpout)" zswpout
		cmp_ev "zswap_load returning 0 vs zswpin" "$(E load_r.ret=0)" "$(D zswpin)" zswpin
		cmp_ev "shrink_memcg_cb returning LRU_REMOVED_RETRY vs zswpwb" "$(E wb_r.ret=1)" "$(D zswpwb)" zswpwb ;;
	esac
	need "zswap stores" "$(E store_r)"
	local rej; rej=$(ctrsum zswap.pool_limit_hit)
	if [ "$rej" != NA ] && [ "$rej" -gt 0 ]; then ok "zswap hit its pool limit $rej times"
	else bad "zswap never hit its pool limit (pool_limit_hit delta $rej)"; fi
}

# probes a scenario does not exercise
case $SCEN in
memcg-swap|global-pressure|mthp-frag) QUIET=' store store_r load load_r wb wb_r ' ;;
*) QUIET='' ;;
esac
[ "$SCEN" = memcg-swap ] && [ "$WANT_SET" = 6.12 ] && QUIET=' wb wb_r '
[ "$SCEN" = memcg-swap ] && [ "$WANT_SET" = 7.x ] && QUIET=' wb_r '

found=0
for f in "$OUT"/rec*.dat; do
	[ -e "$f" ] || continue
	found=1
	check_file "$f"
done
[ $found = 1 ] || { LABEL=''; bad "the scenario left no rec*.dat in $OUT"; }
[ $nfail -eq 0 ] || exit 1
exit 0
