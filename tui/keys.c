// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The key table as data: lookups from key to action, key names for the
 * help view, and the names a headless key script may use. Everything is
 * generated from TUI_KEY_TABLE in keys.h.
 */
#include "config.h"
#include "keys.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

static const struct tui_key_row key_rows[] = {
#define X(name, k1, k2, h) { ACT_##name, k1, k2, h },
	TUI_KEY_TABLE(X)
#undef X
};

static const struct tui_key_row run_key_rows[] = {
#define X(name, k1, k2, h) { ACT_##name, k1, k2, h },
	TUI_RUN_KEY_TABLE(X)
#undef X
};

static const struct {
	int key;
	const char *name;
} key_names[] = {
	{ TK_LEFT, "Left" }, { TK_RIGHT, "Right" }, { TK_UP, "Up" },
	{ TK_DOWN, "Down" }, { TK_HOME, "Home" }, { TK_END, "End" },
	{ TK_PGUP, "PgUp" }, { TK_PGDN, "PgDn" }, { TK_TAB, "Tab" },
	{ TK_BTAB, "S-Tab" }, { TK_ENTER, "Enter" }, { TK_ESC, "Esc" },
	{ ' ', "Space" }, { TK_CTRL_L, "^L" }, { TK_BACKSPACE, "BS" },
	{ TK_RESIZE, "Resize" },
};

const struct tui_key_row *tui_keys(int *n)
{
	*n = (int)(sizeof(key_rows) / sizeof(key_rows[0]));
	return key_rows;
}

const struct tui_key_row *tui_run_keys(int *n)
{
	*n = (int)(sizeof(run_key_rows) / sizeof(run_key_rows[0]));
	return run_key_rows;
}

enum tui_action tui_key_action(int key)
{
	if (key == TK_NONE)
		return ACT_NONE;
	if (key == '\r')
		key = TK_ENTER;
	for (size_t i = 0; i < sizeof(key_rows) / sizeof(key_rows[0]); i++)
		if (key_rows[i].key1 == key || key_rows[i].key2 == key)
			return key_rows[i].action;
	for (size_t i = 0; i < sizeof(run_key_rows) / sizeof(run_key_rows[0]); i++)
		if (run_key_rows[i].key1 == key || run_key_rows[i].key2 == key)
			return run_key_rows[i].action;
	return ACT_NONE;
}

const char *tui_key_name(int key, char *buf, int len)
{
	for (size_t i = 0; i < sizeof(key_names) / sizeof(key_names[0]); i++)
		if (key_names[i].key == key)
			return key_names[i].name;
	if (key > ' ' && key < 127)
		snprintf(buf, (size_t)len, "%c", key);
	else
		snprintf(buf, (size_t)len, "#%d", key);
	return buf;
}

int tui_key_parse(const char *token)
{
	static const struct {
		const char *name;
		int key;
	} aliases[] = {
		{ "pgup", TK_PGUP }, { "pageup", TK_PGUP }, { "ppage", TK_PGUP },
		{ "pgdn", TK_PGDN }, { "pagedown", TK_PGDN }, { "npage", TK_PGDN },
		{ "btab", TK_BTAB }, { "s-tab", TK_BTAB }, { "return", TK_ENTER },
		{ "escape", TK_ESC }, { "bs", TK_BACKSPACE }, { "backspace", TK_BACKSPACE },
		{ "^l", TK_CTRL_L }, { "resize", TK_RESIZE },
	};

	if (!token[0])
		return TK_NONE;
	if (!token[1])
		return (unsigned char)token[0];
	for (size_t i = 0; i < sizeof(key_names) / sizeof(key_names[0]); i++)
		if (!strcasecmp(key_names[i].name, token))
			return key_names[i].key;
	for (size_t i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++)
		if (!strcasecmp(aliases[i].name, token))
			return aliases[i].key;
	return TK_NONE;
}
