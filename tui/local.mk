# SPDX-License-Identifier: GPL-2.0-or-later
# tui/: the ncurses front end; views read models, never events.
