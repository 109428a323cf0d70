/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The only user of ncurses in mmscope: terminal setup and teardown,
 * attribute ids to colours (or to bold/reverse/underline on terminals
 * without colour), painting a canvas, reading keys as TK_* codes, and
 * dumping the screen to a text file for tests.
 *
 * Headless mode (tig's TIG_NO_DISPLAY): the terminal is newterm() on
 * /dev/null with the size from LINES and COLUMNS (default 24x80); keys
 * come from a script, not from the terminal.
 *
 * The terminal is restored on every exit path: draw_end() is idempotent,
 * registered with atexit(), and called from a SIGINT/SIGTERM/SIGHUP/
 * SIGSEGV/SIGABRT handler that then re-raises the signal.
 */
#ifndef MMSCOPE_TUI_DRAW_H
#define MMSCOPE_TUI_DRAW_H

#include "view.h"

/* 0, or -1 with *err set (e.g. not a terminal, unknown TERM). */
int draw_init(int headless, char **err);
void draw_end(void);
/* Current screen size. */
void draw_size(int *rows, int *cols);
/* Paints the whole canvas (same size as the screen) and refreshes. */
void draw_canvas(const struct canvas *c);
/* Waits for a key; returns TK_* or the character. TK_RESIZE after a
 * resize (draw_size() then gives the new size). */
int draw_getkey(void);
/* From now on draw_getkey() waits at most ms (then TK_TICK); < 0 forever. */
void draw_timeout(int ms);
/* Where the last TK_MOUSE click was (screen row and column). */
void draw_mouse(int *y, int *x);
/* Forces a size (headless mode, tests). */
void draw_resize(int rows, int cols);
/* Writes the screen as text, one line per row, trailing blanks cut.
 * 0 or -1 with errno. */
int draw_dump(const char *path);

#endif
