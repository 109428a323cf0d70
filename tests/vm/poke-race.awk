# SPDX-License-Identifier: GPL-2.0-or-later
#
# awk -f poke-race.awk CONSOLE: exit 0 when the guest kernel's first oops
# is an int3 trap at an address whose code no longer holds an int3 (the
# byte the oops's Code: line marks <XX> is not cc), else 1.
#
# Why: x86 patches live kernel text (static keys and jump labels, which
# every tracepoint enable and disable flips) by writing an int3 first,
# then the new bytes, and syncs every CPU in between; a CPU that traps on
# the int3 after the patch finished finds no patch in progress and
# oopses. Real CPUs cannot see the int3 after the sync; qemu TCG's
# translated code on another vCPU can. So this oops, seen only in TCG
# guests and in kernel threads too (rcu_gp_kthread once), is the lab's
# fault even when mmscope's tracing enable triggered the patch.
{ sub(/\r$/, "") }
!seen && /BUG:|Oops|general protection fault|Unable to handle|kernel BUG/ {
	seen = 1
	int3 = $0 ~ /Oops: int3/
	next
}
seen && int3 && /Code: / {
	if (match($0, /<[0-9a-f][0-9a-f]>/))
		race = substr($0, RSTART + 1, 2) != "cc"
	exit
}
END { exit !race }
