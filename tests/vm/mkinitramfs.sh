#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# mkinitramfs.sh -o OUT.cpio.gz -M MODULES_DIR [options]
#
# Build a busybox initramfs for the qemu kernel lab. Its /init mounts
# proc, sys, devtmpfs, tracefs and debugfs, loads the requested modules in
# dependency order with busybox insmod, mounts the 9p share "out" at /out,
# runs /scenario.sh with stdout+stderr in /out/log, writes the exit status
# to /out/status and powers off. Without a working 9p share, the scenario's
# output goes to the console between markers instead.
#
# Options:
#   -o FILE            output cpio.gz (required)
#   -M DIR             kernel modules dir (…/lib/modules/<version>) (required)
#   -m NAME            load module NAME (repeatable; dependencies are added)
#   -s FILE            scenario script, installed as /scenario.sh
#   -f SRC[:DEST]      add a file (DEST default: /SRC-basename) (repeatable)
#   -b BIN[:DEST]      add an executable plus its shared libraries and the
#                      loader, found with ldd (DEST default /usr/local/bin/NAME)
#   -B PATH            busybox binary (default: /bin/busybox, must be static;
#                      it is not run here: /init makes the applets' links
#                      in the guest; without cpio(1) the host's
#                      /bin/busybox writes the archive)
#
# Modules: .ko, .ko.xz, .ko.zst and .ko.gz are decompressed on the host.
# Debian ships no modules.dep; dependencies come from each module's
# .modinfo "depends=" field. Names listed in modules.builtin are skipped.
# The 9p stack (virtio_pci, 9pnet_virtio, 9p) is always included.
set -euo pipefail

die() { echo "mkinitramfs: $*" >&2; exit 1; }

OUT="" MODDIR="" SCENARIO="" BUSYBOX=/bin/busybox
MODS=(virtio_pci 9pnet_virtio 9p)
FILES=() BINS=()
while getopts "o:M:m:s:f:b:B:h" opt; do
	case $opt in
	o) OUT=$OPTARG ;;
	M) MODDIR=$OPTARG ;;
	m) MODS+=("$OPTARG") ;;
	s) SCENARIO=$OPTARG ;;
	f) FILES+=("$OPTARG") ;;
	b) BINS+=("$OPTARG") ;;
	B) BUSYBOX=$OPTARG ;;
	h) sed -n '4,28p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) die "bad option (see -h)" ;;
	esac
done
[ -n "$OUT" ] || die "missing -o OUT.cpio.gz"
[ -n "$MODDIR" ] || die "missing -M MODULES_DIR"
[ -d "$MODDIR" ] || die "modules dir $MODDIR not found"
[ -x "$BUSYBOX" ] || die "busybox $BUSYBOX not found (apt-get install busybox-static)"
if ldd "$BUSYBOX" >/dev/null 2>&1; then die "$BUSYBOX is dynamically linked (need busybox-static)"; fi
[ -z "$SCENARIO" ] || [ -f "$SCENARIO" ] || die "scenario $SCENARIO not found"
# a foreign busybox (arm64 guest) cannot run here: the host's writes the cpio
HOSTBB=$BUSYBOX
"$BUSYBOX" true 2>/dev/null || HOSTBB=/bin/busybox
if command -v cpio >/dev/null; then CPIO=(cpio --quiet -o -H newc); else CPIO=("$HOSTBB" cpio -o -H newc); fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/mmscope-initramfs.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
R=$tmp/root
mkdir -p "$R"/{bin,dev,proc,sys,tmp,out,etc,lib/modules,usr/local/bin,run,mnt}
ln -s bin "$R/sbin"
ln -s ../bin "$R/usr/bin"
ln -s ../bin "$R/usr/sbin"
cp "$BUSYBOX" "$R/bin/busybox"
# /bin/sh for /init, which makes the other applets' links itself (the
# guest's busybox knows its own applets; a link each here was 269 forks,
# 5 s of a case on a busy host)
ln -s busybox "$R/bin/sh"
# /dev/console must exist before /init runs, or init's output is lost
mknod -m 600 "$R/dev/console" c 5 1 2>/dev/null || true
mknod -m 666 "$R/dev/null" c 1 3 2>/dev/null || true

# ---- modules ------------------------------------------------------------
# (names normalised in the shell, not in a $(...) per module: a kernel
# has 4,000-6,000 modules, and a fork each made this step 57 s of a 6.12
# case's 88 s)
declare -A MODPATH=() BUILTIN=() SEEN=()
while IFS= read -r f; do
	b=${f##*/}; b=${b%%.ko*}
	MODPATH[${b//-/_}]=$f
done < <(find "$MODDIR" -name '*.ko' -o -name '*.ko.xz' -o -name '*.ko.zst' -o -name '*.ko.gz')
if [ -f "$MODDIR/modules.builtin" ]; then
	while IFS= read -r f; do
		b=${f##*/}; b=${b%%.ko*}
		BUILTIN[${b//-/_}]=1
	done < "$MODDIR/modules.builtin"
fi
ORDER=()
decompress() { # SRC DEST
	case $1 in
	*.ko.xz) xz -dc "$1" > "$2" ;;
	*.ko.zst) zstd -qdc "$1" > "$2" ;;
	*.ko.gz) gzip -dc "$1" > "$2" ;;
	*.ko) cp "$1" "$2" ;;
	esac
}
add_module() { # NAME [chain]
	local n=${1//-/_}
	[ -z "${SEEN[$n]:-}" ] || return 0
	if [ -z "${MODPATH[$n]:-}" ]; then
		[ -n "${BUILTIN[$n]:-}" ] && { SEEN[$n]=builtin; return 0; }
		die "module $1 not found in $MODDIR (nor in modules.builtin)${2:+ (needed by $2)}"
	fi
	SEEN[$n]=pending
	decompress "${MODPATH[$n]}" "$R/lib/modules/$n.ko" || die "cannot decompress ${MODPATH[$n]}"
	local deps d
	deps=$(tr '\0' '\n' < "$R/lib/modules/$n.ko" | grep -a -m1 '^depends=' | cut -d= -f2 || true)
	for d in ${deps//,/ }; do
		add_module "$d" "$n"
	done
	ORDER+=("$n")
	SEEN[$n]=1
}
for m in "${MODS[@]}"; do add_module "$m"; done
printf '%s\n' "${ORDER[@]}" > "$R/etc/modules.load"

# ---- extra files and binaries --------------------------------------------
for spec in "${FILES[@]}"; do
	src=${spec%%:*}; dst=${spec#*:}
	[ "$dst" != "$spec" ] || dst=/${src##*/}
	[ -e "$src" ] || die "file $src not found"
	mkdir -p "$R$(dirname "$dst")"
	cp -a "$src" "$R$dst"
done
copy_lib() {
	[ -e "$R$1" ] && return 0
	mkdir -p "$R$(dirname "$1")"
	cp -L "$1" "$R$1"
}
for spec in "${BINS[@]}"; do
	src=${spec%%:*}; dst=${spec#*:}
	[ "$dst" != "$spec" ] || dst=/usr/local/bin/${src##*/}
	[ -f "$src" ] || die "binary $src not found"
	mkdir -p "$R$(dirname "$dst")"
	cp -L "$src" "$R$dst"
	chmod 755 "$R$dst"
	if ldd_out=$(ldd "$src" 2>/dev/null); then
		while read -r lib; do
			[ -n "$lib" ] || continue
			copy_lib "$lib"
		done < <(awk '/=>/ { if ($3 ~ /^\//) print $3; next } $1 ~ /^\// { print $1 }' <<<"$ldd_out")
	fi
done
if [ -n "$SCENARIO" ]; then
	cp "$SCENARIO" "$R/scenario.sh"
else
	printf '#!/bin/sh\necho "no scenario"; exit 0\n' > "$R/scenario.sh"
fi
chmod 755 "$R/scenario.sh"

cat > "$R/init" <<'INIT'
#!/bin/sh
# mmscope qemu lab /init (generated by tests/vm/mkinitramfs.sh)
/bin/busybox --install -s /bin
export PATH=/usr/local/bin:/bin HOME=/ TERM=dumb
mount -t devtmpfs devtmpfs /dev 2>/dev/null
exec </dev/console >/dev/console 2>&1
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t tmpfs tmpfs /tmp
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null || echo "mmscope-vm: no tracefs"
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null || echo "mmscope-vm: no debugfs"
read -r up _ < /proc/uptime
echo "mmscope-vm: init start uptime=$up kernel=$(uname -r)"
while read -r m; do
	insmod "/lib/modules/$m.ko" || echo "mmscope-vm: insmod $m failed"
done < /etc/modules.load
ok9p=0
if mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 out /out; then
	ok9p=1
else
	echo "mmscope-vm: 9p mount of 'out' failed; scenario output goes to the console"
fi
# a heartbeat on the console: a guest killed at its timeout shows whether
# its kernel still ran (what the scenario ran did not end) or froze
( while sleep 10; do read -r up _ < /proc/uptime; echo "mmscope-vm: alive uptime=$up"; done ) &
read -r up _ < /proc/uptime
echo "mmscope-vm: scenario start uptime=$up"
if [ $ok9p = 1 ]; then
	MMSCOPE_OUT=/out sh /scenario.sh > /out/log 2>&1
	rc=$?
else
	echo "mmscope-vm: ----- log begin -----"
	mkdir -p /tmp/out
	MMSCOPE_OUT=/tmp/out sh /scenario.sh 2>&1
	rc=$?
	echo "mmscope-vm: ----- log end -----"
fi
read -r up _ < /proc/uptime
echo "mmscope-vm: scenario end uptime=$up status=$rc"
if [ $ok9p = 1 ]; then
	dmesg > /out/dmesg 2>/dev/null
	echo "$rc" > /out/status
	sync
	umount /out 2>/dev/null
fi
poweroff -f
INIT
chmod 755 "$R/init"

mkdir -p "$(dirname "$OUT")"
(cd "$R" && find . | LC_ALL=C sort | "${CPIO[@]}") 2>"$tmp/cpio.err" | gzip -1 > "$tmp/out.cpio.gz" ||
	die "cpio failed: $(head -1 "$tmp/cpio.err")"
mv "$tmp/out.cpio.gz" "$OUT"
echo "mkinitramfs: $OUT ($(du -k "$OUT" | cut -f1) KiB; modules: ${ORDER[*]:-none})" >&2
