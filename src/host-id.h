/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Who recorded: the machine and the boot, as `mmscope record` writes them
 * into every file (machine_id=, boot_id=; man/mmscope-recording.5) so
 * that a reader can tell which runs are one host's, and which share one
 * boot (one trace clock). A host name is no identity: every VM of a test
 * farm may be called "vm", and hosts are renamed.
 *
 * machine_id: /etc/machine-id (systemd's, written at install: stays
 * across boots), else /var/lib/dbus/machine-id; 32 lowercase hex
 * digits. boot_id: /proc/sys/kernel/random/boot_id, new at every boot;
 * 36 characters (8-4-4-4-12 hex). "" where the file is absent or holds
 * anything else (a container without them, a minimal initramfs).
 */
#ifndef MMSCOPE_HOST_ID_H
#define MMSCOPE_HOST_ID_H

struct host_id {
	char machine[33];
	char boot[37];
};

/* Reads both (each "" when not there or malformed). */
void host_id_read(struct host_id *h);

/* Whether s (up to a newline or NUL) is a machine id, a boot id. */
int host_id_machine_ok(const char *s);
int host_id_boot_ok(const char *s);

#endif
