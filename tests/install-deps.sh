#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Installs (apt-get, Debian 12 as root) what mmscope needs to build and
# what "make check" needs to run every test, so that no test skips for a
# missing tool. README.md's first command and .ci/run both call this: the
# lists live here only.
#   --ci     also what .ci/run needs beyond make check (make fuzz: clang and
#            libFuzzer; make check-vm: qemu, busybox, Debian's archive keys;
#            the .deb: debhelper, lintian)
#   --print  print the package names and install nothing (other systems)
set -e

# build: compiler, autotools, the five libraries. debian/control's
# Build-Depends are BUILD and TEST less build-essential and util-linux
# (tests/cli/debian.sh holds them equal).
BUILD="build-essential autoconf automake libtool pkg-config
	libtraceevent-dev libtracefs-dev libncurses-dev zlib1g-dev libzstd-dev"
# make check: trace-cmd (the independent reader of every recording), tmux
# (the TUI in a real terminal), groff-base (man page lint), python3 (JSON
# well-formed), util-linux and mount (losetup, mkswap, swapon, flock,
# setpriv for the live tests), procps (ps), sqlite3 (exports loaded into
# SQLite), librsvg2-bin (plots rendered to PNG), time (tests/record/context.sh),
# systemd (systemd-analyze verify of the service's unit), protobuf-compiler
# (protoc decodes the Perfetto traces against Perfetto's schema), chromium
# (the HTML pages rendered headless: tests/html/), strace (the files a
# window of many parts opens: tests/history/set-lazy.sh)
TEST="trace-cmd tmux groff-base python3 util-linux mount procps sqlite3 librsvg2-bin time systemd
	protobuf-compiler chromium strace"
# .ci/run only: libFuzzer, the qemu kernel matrix (its arm64 guest: qemu's
# aarch64 system emulator and a cross compiler for mmscope; the arm64
# libraries come from tests/vm/fetch-sysroot.sh), kernel packages' keys,
# the Debian package (dpkg-buildpackage, lintian), a ClickHouse server for
# the export test (large: about 100 MB)
CI="clang libclang-rt-14-dev llvm qemu-system-x86 qemu-system-arm
	gcc-aarch64-linux-gnu libc6-dev-arm64-cross busybox-static xz-utils zstd
	cpio kmod file ca-certificates debian-archive-keyring debhelper lintian
	clickhouse-server clickhouse-client"

pkgs="$BUILD $TEST"
print=0
for a in "$@"; do
	case $a in
	--ci) pkgs="$pkgs $CI" ;;
	--print) print=1 ;;
	*) echo "usage: $0 [--ci] [--print]" >&2; exit 2 ;;
	esac
done
# shellcheck disable=SC2086
if [ $print -eq 1 ]; then
	echo $pkgs
	exit 0
fi
[ "$(id -u)" -eq 0 ] || { echo "$0: run as root (sudo sh $0)" >&2; exit 1; }
export DEBIAN_FRONTEND=noninteractive
apt-get update
# shellcheck disable=SC2086
apt-get install -y --no-install-recommends $pkgs
