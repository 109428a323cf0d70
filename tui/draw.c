// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Everything that touches ncurses. The rest of the TUI hands over a
 * canvas of characters and attribute ids; here an attribute id becomes a
 * colour pair plus bold/underline where the terminal has colours
 * (has_colors()), and a monochrome attribute chosen to stay readable
 * otherwise: lanes bold, the cursor and the selection reverse, the
 * watermarks underlined. Keys come back as the TK_* codes of keys.h.
 *
 * Teardown is idempotent and runs from atexit() and from a signal
 * handler. endwin() is not async-signal-safe, but it is what htop and tig
 * do to leave the terminal usable after a crash; the handler then
 * re-raises the signal with its default action so the exit status tells
 * what happened.
 */
#include "config.h"
#include "draw.h"
#include "util.h"

#include <curses.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static SCREEN *draw_screen;
static FILE *draw_out, *draw_in;
static volatile sig_atomic_t draw_up;
static int draw_colors;
static chtype draw_attrs[AT_NR];
static int draw_mouse_y = -1, draw_mouse_x = -1;

struct attr_style {
	short fg, bg;
	chtype color_extra;	/* added with colours */
	chtype mono;		/* without colours */
};

/* fg/bg -1 is the terminal default. */
static const struct attr_style attr_styles[AT_NR] = {
	[AT_NORMAL]	= { -1, -1, 0, A_NORMAL },
	[AT_TITLE]	= { COLOR_BLACK, COLOR_CYAN, 0, A_REVERSE },
	[AT_TAB]	= { COLOR_WHITE, COLOR_BLUE, A_BOLD, A_BOLD },
	[AT_STATUS]	= { COLOR_BLACK, COLOR_CYAN, 0, A_REVERSE },
	[AT_HEADER]	= { COLOR_CYAN, -1, A_BOLD, A_BOLD | A_UNDERLINE },
	[AT_LABEL]	= { -1, -1, A_BOLD, A_BOLD },
	[AT_CURSOR]	= { COLOR_BLACK, COLOR_YELLOW, 0, A_REVERSE },
	[AT_SELECT]	= { COLOR_WHITE, COLOR_BLUE, 0, A_UNDERLINE },
	[AT_KSWAPD]	= { COLOR_GREEN, -1, A_BOLD, A_BOLD },
	[AT_KCOMPACTD]	= { COLOR_BLUE, -1, A_BOLD, A_BOLD },
	[AT_RECLAIM]	= { COLOR_YELLOW, -1, A_BOLD, A_BOLD },
	[AT_COMPACT]	= { COLOR_MAGENTA, -1, A_BOLD, A_BOLD },
	[AT_OOM]	= { COLOR_WHITE, COLOR_RED, A_BOLD, A_REVERSE | A_BOLD },
	[AT_FLAG]	= { COLOR_RED, -1, A_BOLD, A_BOLD | A_UNDERLINE },
	[AT_FREE]	= { COLOR_GREEN, -1, 0, A_BOLD },
	[AT_WM_MIN]	= { COLOR_RED, -1, 0, A_UNDERLINE },
	[AT_WM_LOW]	= { COLOR_YELLOW, -1, 0, A_UNDERLINE },
	[AT_WM_HIGH]	= { COLOR_CYAN, -1, 0, A_UNDERLINE },
	[AT_DIM]	= { -1, -1, A_DIM, A_DIM },
	[AT_KEY]	= { COLOR_YELLOW, -1, A_BOLD, A_BOLD },
	[AT_ERROR]	= { COLOR_WHITE, COLOR_RED, A_BOLD, A_REVERSE },
	[AT_GAP]	= { COLOR_BLUE, -1, A_DIM, A_DIM },
};

static void draw_setup_attrs(void)
{
	draw_colors = has_colors() && !getenv("NO_COLOR");
	if (draw_colors && start_color() == OK) {
		use_default_colors();
		for (int i = 1; i < AT_NR && i < COLOR_PAIRS; i++) {
			init_pair((short)i, attr_styles[i].fg, attr_styles[i].bg);
			draw_attrs[i] = COLOR_PAIR(i) | attr_styles[i].color_extra;
		}
		draw_attrs[AT_NORMAL] = A_NORMAL;
		return;
	}
	draw_colors = 0;
	for (int i = 0; i < AT_NR; i++)
		draw_attrs[i] = attr_styles[i].mono;
}

static void draw_on_signal(int sig)
{
	draw_end();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void draw_catch_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGSEGV,
				    SIGBUS, SIGABRT, SIGFPE };
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = draw_on_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESETHAND;
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}

static int draw_env_int(const char *name, int def)
{
	const char *s = getenv(name);
	int v = s ? atoi(s) : 0;

	return v > 0 && v < 10000 ? v : def;
}

static int draw_open_headless(char **err)
{
	draw_out = fopen("/dev/null", "w");
	draw_in = fopen("/dev/null", "r");
	if (!draw_out || !draw_in)
		return set_err(err, "cannot open /dev/null: %s", strerror(errno));
	draw_screen = newterm(NULL, draw_out, draw_in);
	if (!draw_screen)
		return set_err(err, "cannot set up terminal '%s' on /dev/null",
			       getenv("TERM") ? getenv("TERM") : "");
	set_term(draw_screen);
	resizeterm(draw_env_int("LINES", 24), draw_env_int("COLUMNS", 80));
	return 0;
}

static int draw_open_tty(char **err)
{
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
		return set_err(err, "not a terminal (the TUI needs one; "
			       "for a text report use 'mmscope dump')");
	draw_screen = newterm(NULL, stdout, stdin);
	if (!draw_screen)
		return set_err(err, "cannot use terminal type '%s'",
			       getenv("TERM") ? getenv("TERM") : "(unset)");
	set_term(draw_screen);
	return 0;
}

int draw_init(int headless, char **err)
{
	static int registered;

	if (!registered) {
		atexit(draw_end);
		registered = 1;
	}
	draw_catch_signals();
	if ((headless ? draw_open_headless : draw_open_tty)(err) < 0) {
		draw_end();
		return -1;
	}
	draw_up = 1;
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	set_escdelay(25);
	curs_set(0);
	if (!headless)
		mousemask(BUTTON1_CLICKED | BUTTON1_PRESSED, NULL);
	draw_setup_attrs();
	return 0;
}

void draw_end(void)
{
	if (draw_up) {
		draw_up = 0;
		endwin();
	}
	if (draw_screen) {
		delscreen(draw_screen);
		draw_screen = NULL;
	}
	if (draw_out) {
		fclose(draw_out);
		draw_out = NULL;
	}
	if (draw_in) {
		fclose(draw_in);
		draw_in = NULL;
	}
}

void draw_size(int *rows, int *cols)
{
	getmaxyx(stdscr, *rows, *cols);
}

void draw_resize(int rows, int cols)
{
	resizeterm(rows, cols);
}

void draw_canvas(const struct canvas *c)
{
	int rows, cols;

	draw_size(&rows, &cols);
	erase();
	for (int y = 0; y < c->rows && y < rows; y++) {
		const char *row = canvas_row(c, y);

		for (int x = 0; x < c->cols && x < cols; x++) {
			enum attr_id at = canvas_attr_at(c, y, x);

			/* the bottom-right cell would scroll some terminals */
			if (y == rows - 1 && x == cols - 1)
				break;
			mvaddch(y, x, (chtype)(unsigned char)row[x] | draw_attrs[at]);
		}
	}
	refresh();
}

static int draw_timeout_ms = -1;

void draw_timeout(int ms)
{
	draw_timeout_ms = ms;
	timeout(ms);
}

int draw_getkey(void)
{
	int ch = getch();

	switch (ch) {
	case ERR:		return draw_timeout_ms >= 0 ? TK_TICK : TK_EOF;
	case KEY_LEFT:		return TK_LEFT;
	case KEY_RIGHT:		return TK_RIGHT;
	case KEY_UP:		return TK_UP;
	case KEY_DOWN:		return TK_DOWN;
	case KEY_HOME:		return TK_HOME;
	case KEY_END:		return TK_END;
	case KEY_PPAGE:		return TK_PGUP;
	case KEY_NPAGE:		return TK_PGDN;
	case KEY_BTAB:		return TK_BTAB;
	case KEY_ENTER:		return TK_ENTER;
	case '\r':		return TK_ENTER;
	case KEY_BACKSPACE:	return TK_BACKSPACE;
	case 127:		return TK_BACKSPACE;
	case 8:			return TK_BACKSPACE;
	case KEY_RESIZE:	return TK_RESIZE;
	case KEY_MOUSE: {
		MEVENT me;

		if (getmouse(&me) != OK || !(me.bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED)))
			return TK_NONE;
		draw_mouse_y = me.y;
		draw_mouse_x = me.x;
		return TK_MOUSE;
	}
	default:		return ch >= 0 && ch < 256 ? ch : TK_NONE;
	}
}

void draw_mouse(int *y, int *x)
{
	*y = draw_mouse_y;
	*x = draw_mouse_x;
}

int draw_dump(const char *path)
{
	int rows, cols;
	char *line;
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	draw_size(&rows, &cols);
	line = xmalloc((size_t)cols + 1);
	for (int y = 0; y < rows; y++) {
		int n = mvinnstr(y, 0, line, cols);

		if (n < 0)
			n = 0;
		line[n] = '\0';
		while (n > 0 && line[n - 1] == ' ')
			line[--n] = '\0';
		fprintf(f, "%s\n", line);
	}
	free(line);
	if (fclose(f) != 0)
		return -1;
	return 0;
}
