# SPDX-License-Identifier: GPL-2.0-or-later
#
# Host histories made of real events for the tests (sourced after
# tests/lib.sh): tests/history/mkhist copies a real recording moved in
# time with other mmscope metadata.
mkhist=$top_builddir/tests/history/mkhist
[ -x "$mkhist" ] || skip "tests/history/mkhist not built"

HIST_MACHINE=3d1219c7c4c5404aaa1f6d2a48adfda4
HIST_BOOT=32ce32ed-64e4-48b8-b341-08bfbf6af72e
HIST_SRC=$top_srcdir/tests/data/report/oom-6.18.dat	# 180 events, 1 OOM kill

# hist_copy OUT SHIFT_S KEY=VALUE...: the source moved by SHIFT_S seconds
# (trace and wall clocks), of the history's machine and boot
hist_copy() {
	out=$1 shift_ns=$(($2 * 1000000000))
	shift 2
	"$mkhist" "$HIST_SRC" "$out" $shift_ns $shift_ns machine_id=$HIST_MACHINE \
		boot_id=$HIST_BOOT "$@" || fail "mkhist $out"
}

# mk_history DIR: a service's three runs of one boot, 10 s apart (each
# 0.32 s of events, the gaps 9.68 s): the first stopped by SIGTERM, the
# second killed and recovered, the third ended by its command; and a
# flight-recorder incident of the same events as the second, inside it.
mk_history() {
	mkdir -p "$1"
	hist_copy "$1/svc-1.dat" 0 run_id=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa stop_reason=signal \
		stop_detail=SIGTERM
	hist_copy "$1/svc-2.dat" 10 run_id=bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb stop_reason=recovered
	hist_copy "$1/svc-3.dat" 20 run_id=cccccccccccccccccccccccccccccccc
	hist_copy "$1/flight-1.dat" 10 run_id=dddddddddddddddddddddddddddddddd \
		mode=flight-recorder trigger_name=oom stop_reason=trigger:oom
}
