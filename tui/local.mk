# SPDX-License-Identifier: GPL-2.0-or-later
# tui/: the ncurses front end; views read models, never events.

# `mmscope tui`: only draw.c and tui.c use ncurses; the views,
# the canvas, the key table and the state are also linked into the unit
# test of the view builders.
TUI_CORE = \
	tui/view.h tui/view-list.h tui/keys.h tui/keys.c tui/canvas.c tui/tui.h tui/state.c \
	tui/data.h tui/data.c \
	tui/kills.h tui/kills.c tui/kill-box.h tui/kill-box.c \
	tui/view-timeline.c tui/view-swap.c tui/view-zswap.c tui/view-memcg.c tui/view-stalls.c \
	tui/view-events.c tui/view-findings.c tui/view-help.c
mmscope_SOURCES += $(TUI_CORE) tui/draw.c tui/draw.h tui/tui.c tui/tui-run.h
