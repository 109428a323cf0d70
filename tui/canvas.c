// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The canvas: a grid of characters and attribute ids that views build
 * and tui/draw.c paints. No ncurses here; every write is clipped, so a
 * builder can never write outside the screen whatever its arithmetic.
 */
#include "config.h"
#include "view.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void canvas_init(struct canvas *c, int rows, int cols)
{
	c->rows = rows > 0 ? rows : 0;
	c->cols = cols > 0 ? cols : 0;
	c->text = xmalloc((size_t)c->rows * (size_t)(c->cols + 1) + 1);
	c->attr = xmalloc((size_t)c->rows * (size_t)c->cols + 1);
	canvas_clear(c);
}

void canvas_release(struct canvas *c)
{
	free(c->text);
	free(c->attr);
	c->text = NULL;
	c->attr = NULL;
	c->rows = c->cols = 0;
}

void canvas_clear(struct canvas *c)
{
	for (int y = 0; y < c->rows; y++) {
		char *row = c->text + (size_t)y * (size_t)(c->cols + 1);

		memset(row, ' ', (size_t)c->cols);
		row[c->cols] = '\0';
	}
	memset(c->attr, AT_NORMAL, (size_t)c->rows * (size_t)c->cols);
}

static int inside(const struct canvas *c, int y, int x)
{
	return y >= 0 && y < c->rows && x >= 0 && x < c->cols;
}

void canvas_set(struct canvas *c, int y, int x, char ch, enum attr_id at)
{
	if (!inside(c, y, x))
		return;
	if ((unsigned char)ch < ' ' || (unsigned char)ch >= 127)
		ch = '?';
	c->text[(size_t)y * (size_t)(c->cols + 1) + (size_t)x] = ch;
	c->attr[(size_t)y * (size_t)c->cols + (size_t)x] = (unsigned char)at;
}

int canvas_put(struct canvas *c, int y, int x, enum attr_id at, const char *s)
{
	int n = 0;

	for (; *s; s++, x++) {
		if (x >= c->cols)
			break;
		if (x >= 0) {
			canvas_set(c, y, x, *s == '\t' ? ' ' : *s, at);
			n++;
		}
	}
	return n;
}

int canvas_printf(struct canvas *c, int y, int x, enum attr_id at, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return canvas_put(c, y, x, at, buf);
}

void canvas_attr(struct canvas *c, int y, int x, int n, enum attr_id at)
{
	for (int i = 0; i < n; i++)
		if (inside(c, y, x + i))
			c->attr[(size_t)y * (size_t)c->cols + (size_t)(x + i)] = (unsigned char)at;
}

void canvas_fill_row(struct canvas *c, int y, char ch, enum attr_id at)
{
	for (int x = 0; x < c->cols; x++)
		canvas_set(c, y, x, ch, at);
}

const char *canvas_row(const struct canvas *c, int y)
{
	if (y < 0 || y >= c->rows)
		return "";
	return c->text + (size_t)y * (size_t)(c->cols + 1);
}

enum attr_id canvas_attr_at(const struct canvas *c, int y, int x)
{
	if (!inside(c, y, x))
		return AT_NORMAL;
	return (enum attr_id)c->attr[(size_t)y * (size_t)c->cols + (size_t)x];
}

void canvas_blit(struct canvas *dst, const struct canvas *src, int y, int x)
{
	for (int r = 0; r < src->rows; r++)
		for (int k = 0; k < src->cols; k++) {
			const char *row = canvas_row(src, r);

			canvas_set(dst, y + r, x + k, row[k], canvas_attr_at(src, r, k));
		}
}

int canvas_wrap(struct canvas *c, int y, int x, int w, int maxrows, enum attr_id at,
		const char *s)
{
	int rows = 0;

	while (*s && rows < maxrows && w > 0) {
		int n = (int)strlen(s), cut = n;
		char line[1024];

		if (n > w) {
			cut = w;
			while (cut > 0 && s[cut] != ' ')
				cut--;
			if (cut == 0)
				cut = w;
		}
		if (cut > (int)sizeof(line) - 1)
			cut = (int)sizeof(line) - 1;
		memcpy(line, s, (size_t)cut);
		line[cut] = '\0';
		canvas_put(c, y + rows, x, at, line);
		rows++;
		s += cut;
		while (*s == ' ')
			s++;
	}
	return rows;
}
