#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# run-vm.sh KERNEL SCENARIO_SCRIPT OUTDIR [options]
#
# Boot a Debian kernel (6.1, 6.12, 7.x; arm64-6.12 under qemu-system-aarch64
# -M virt with the arm64 busybox of fetch-sysroot.sh; see fetch-kernel.sh) under qemu TCG
# with a busybox initramfs that runs SCENARIO_SCRIPT as /scenario.sh.
# OUTDIR is shared into the guest at /out (virtio-9p); the scenario writes
# its results there, its stdout+stderr land in OUTDIR/log, the qemu
# console in OUTDIR/console.log, timings in OUTDIR/vm-timing.txt.
# The exit status is the scenario's (from OUTDIR/status); 124 = timeout,
# 77 = kernel could not be fetched, 125 = the guest produced no status.
#
# Options:
#   --mem MB          guest memory (default 768)
#   --smp N           vCPUs (default 2)
#   --timeout S       hard timeout in seconds, qemu is killed (default 300)
#   --append ARGS     extra kernel command line
#   --module NAME     load a module (repeatable; deps added automatically)
#   --file SRC[:DEST] add a file to the initramfs (repeatable)
#   --binary BIN[:DEST] add an executable + its shared libraries (repeatable)
#   --disk MB         attach a blank raw virtio-blk disk (/dev/vda) of MB
#                     (note: it looks rotational to the guest)
#
# A scenario may also name modules in a comment line:  # vm-modules: zram lz4
#
# Cache: ${MMSCOPE_VM_CACHE:-<repo>/build/vm-cache} holds the private apt
# lists and the downloaded + extracted kernels (250-470 MB per kernel).
set -euo pipefail

die() { echo "run-vm: $*" >&2; exit "${2:-1}"; }

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
CACHE=${MMSCOPE_VM_CACHE:-$REPO/build/vm-cache}

[ $# -ge 3 ] || die "usage: run-vm.sh KERNEL SCENARIO_SCRIPT OUTDIR [--mem MB] [--timeout S] [--append ARGS] [--module M] [--file SRC[:DEST]] [--binary BIN[:DEST]] [--disk MB]"
KERNEL=$1 SCENARIO=$2 OUTDIR=$3
shift 3
MEM=768 SMP=2 TIMEOUT=300 APPEND='' DISK_MB=''
MKARGS=()
while [ $# -gt 0 ]; do
	case $1 in
	--mem) MEM=${2:?}; shift 2 ;;
	--smp) SMP=${2:?}; shift 2 ;;
	--timeout) TIMEOUT=${2:?}; shift 2 ;;
	--append) APPEND=${2?}; shift 2 ;;
	--module) MKARGS+=(-m "${2:?}"); shift 2 ;;
	--file) MKARGS+=(-f "${2:?}"); shift 2 ;;
	--binary) MKARGS+=(-b "${2:?}"); shift 2 ;;
	--disk) DISK_MB=${2:?}; shift 2 ;;
	*) die "unknown option $1" ;;
	esac
done
[ -f "$SCENARIO" ] || die "scenario $SCENARIO not found"
case $KERNEL in
arm64-*)
	QEMU=qemu-system-aarch64 QPKG=qemu-system-arm CONSOLE=ttyAMA0
	# pauth-impdef: the cheap pointer-authentication algorithm (the
	# architected QARMA is the slowest part of a TCG arm64 guest)
	QMACHINE=(-M virt -cpu max,pauth-impdef=on) ;;
*)
	QEMU=qemu-system-x86_64 QPKG=qemu-system-x86 CONSOLE=ttyS0
	QMACHINE=(-cpu max) ;;
esac
command -v "$QEMU" >/dev/null || die "$QEMU not found (apt-get install $QPKG)" "$([ "$QPKG" = qemu-system-arm ] && echo 77 || echo 1)"
[[ $MEM =~ ^[0-9]+$ && $TIMEOUT =~ ^[0-9]+$ && $SMP =~ ^[0-9]+$ ]] || die "--mem, --smp and --timeout take integers"

t_start=$(date +%s.%N)
mkdir -p "$CACHE"
[ -e "$CACHE/.gitignore" ] || echo '*' > "$CACHE/.gitignore"   # keep the cache out of git
set +e
kenv=$("$HERE/fetch-kernel.sh" "$KERNEL" "$CACHE")
rc=$?
set -e
[ $rc -eq 0 ] || die "kernel $KERNEL unavailable (fetch-kernel.sh exit $rc)" "$rc"
KERNEL_VERSION='' KERNEL_VMLINUZ='' KERNEL_MODULES='' KERNEL_PACKAGES='' KERNEL_CONFIG=''
eval "$kenv"
case $KERNEL in
arm64-*)	# the guest's busybox: arm64, from the sysroot
	set +e
	senv=$("$HERE/fetch-sysroot.sh" arm64 "$CACHE")
	rc=$?
	set -e
	[ $rc -eq 0 ] || die "arm64 sysroot unavailable (fetch-sysroot.sh exit $rc)" "$rc"
	SYSROOT_BUSYBOX=''
	eval "$senv"
	MKARGS+=(-B "$SYSROOT_BUSYBOX") ;;
esac

for m in $(sed -n 's/^#[[:space:]]*vm-modules:[[:space:]]*//p' "$SCENARIO"); do
	MKARGS+=(-m "$m")
done
[ -z "$DISK_MB" ] || MKARGS+=(-m virtio_blk)
# the kernel's config where a Debian system keeps it: what the recorder's
# run context reads for CONFIG_THP_SWAP (swap.cluster_pages: 256 slots
# without it, as on arm64 with 16 KB pages)
[ -z "${KERNEL_CONFIG:-}" ] || [ ! -f "$KERNEL_CONFIG" ] ||
	MKARGS+=(-f "$KERNEL_CONFIG:/boot/config-$KERNEL_VERSION")

mkdir -p "$OUTDIR"
OUTDIR=$(cd "$OUTDIR" && pwd)
rm -f "$OUTDIR/status" "$OUTDIR/log" "$OUTDIR/console.log" "$OUTDIR/dmesg" "$OUTDIR/vm-timing.txt"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/mmscope-vm.XXXXXX")
qpid=
cleanup() {
	# timeout(1) relays TERM to qemu
	[ -z "$qpid" ] || kill -TERM "$qpid" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

"$HERE/mkinitramfs.sh" -o "$tmp/initrd.cpio.gz" -M "$KERNEL_MODULES" -s "$SCENARIO" "${MKARGS[@]}" 2>"$tmp/mkinitramfs.log" ||
	die "$(tail -1 "$tmp/mkinitramfs.log")"

QARGS=(
	-accel tcg "${QMACHINE[@]}" -m "$MEM" -smp "$SMP" -nographic -no-reboot
	-kernel "$KERNEL_VMLINUZ" -initrd "$tmp/initrd.cpio.gz"
	-append "console=$CONSOLE panic=-1 oops=panic $APPEND"
	-virtfs "local,path=$OUTDIR,mount_tag=out,security_model=none,id=out"
)
if [ -n "$DISK_MB" ]; then
	truncate -s "${DISK_MB}M" "$tmp/disk.img"
	QARGS+=(-drive "file=$tmp/disk.img,format=raw,if=virtio,cache=unsafe")
fi

t_boot=$(date +%s.%N)
timeout --kill-after=5 "$TIMEOUT" "$QEMU" "${QARGS[@]}" </dev/null >"$OUTDIR/console.log" 2>&1 &
qpid=$!
set +e
wait "$qpid"
qrc=$?
set -e
qpid=
t_end=$(date +%s.%N)

init_up=$(sed -n 's/.*mmscope-vm: init start uptime=\([0-9.]*\).*/\1/p' "$OUTDIR/console.log" | tail -1)
sc_start=$(sed -n 's/.*mmscope-vm: scenario start uptime=\([0-9.]*\).*/\1/p' "$OUTDIR/console.log" | tail -1)
sc_end=$(sed -n 's/.*mmscope-vm: scenario end uptime=\([0-9.]*\).*/\1/p' "$OUTDIR/console.log" | tail -1)
{
	echo "kernel=$KERNEL"
	echo "version=$KERNEL_VERSION"
	echo "packages=$KERNEL_PACKAGES"
	echo "mem_mb=$MEM smp=$SMP"
	echo "guest_uptime_at_init_s=${init_up:-?}"
	echo "guest_uptime_scenario_start_s=${sc_start:-?}"
	echo "guest_uptime_scenario_end_s=${sc_end:-?}"
	awk -v a="$t_boot" -v b="$t_end" 'BEGIN { printf "qemu_wall_s=%.1f\n", b - a }'
	awk -v a="$t_start" -v b="$t_end" 'BEGIN { printf "total_wall_s=%.1f\n", b - a }'
	echo "qemu_exit=$qrc"
} > "$OUTDIR/vm-timing.txt"

if [ "$qrc" -eq 124 ] || [ "$qrc" -eq 137 ]; then
	die "timeout after ${TIMEOUT}s (qemu killed); see $OUTDIR/console.log" 124
fi
# The status file is written through 9p just before poweroff -f; the
# console line is the fallback. A status file without a number used to
# end in a bare 125; it is now said, and the console is tried.
status=''
if [ -s "$OUTDIR/status" ]; then
	status=$(tr -dc '0-9' < "$OUTDIR/status")
	[ -n "$status" ] || echo "run-vm: warning: /out/status holds no number ($(wc -c < "$OUTDIR/status") bytes: $(od -An -c -N16 "$OUTDIR/status" | tr -s ' '))" >&2
fi
if [ -z "$status" ]; then
	status=$(sed -n 's/.*mmscope-vm: scenario end uptime=[0-9.]* status=\([0-9]*\).*/\1/p' "$OUTDIR/console.log" | tail -1)
	[ -n "$status" ] || die "guest wrote no status (qemu exit $qrc); see $OUTDIR/console.log" 125
	echo "run-vm: warning: no usable /out/status (9p failed?); status taken from the console" >&2
fi
exit "$status"
