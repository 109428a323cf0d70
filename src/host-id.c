// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The machine and boot ids a recording carries (host-id.h).
 */
#include "config.h"
#include "host-id.h"
#include "util.h"

#include <stdio.h>
#include <string.h>

static int hex(int c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

static size_t id_len(const char *s)
{
	return strcspn(s, "\n");
}

int host_id_machine_ok(const char *s)
{
	if (!s || id_len(s) != 32)
		return 0;
	for (int i = 0; i < 32; i++)
		if (!hex(s[i]))
			return 0;
	return 1;
}

int host_id_boot_ok(const char *s)
{
	if (!s || id_len(s) != 36)
		return 0;
	for (int i = 0; i < 36; i++)
		if ((i == 8 || i == 13 || i == 18 || i == 23) ? s[i] != '-' : !hex(s[i]))
			return 0;
	return 1;
}

/* The first line of path into out (size len) when ok() takes it. */
static int read_id(const char *path, int (*ok)(const char *), char *out, size_t len)
{
	struct strbuf sb = STRBUF_INIT;
	int r = -1;

	if (!read_file(path, &sb) && sb.buf && ok(sb.buf)) {
		snprintf(out, len, "%.*s", (int)id_len(sb.buf), sb.buf);
		r = 0;
	}
	strbuf_release(&sb);
	return r;
}

void host_id_read(struct host_id *h)
{
	h->machine[0] = h->boot[0] = '\0';
	if (read_id("/etc/machine-id", host_id_machine_ok, h->machine, sizeof(h->machine)))
		read_id("/var/lib/dbus/machine-id", host_id_machine_ok, h->machine,
			sizeof(h->machine));
	read_id("/proc/sys/kernel/random/boot_id", host_id_boot_ok, h->boot, sizeof(h->boot));
}
