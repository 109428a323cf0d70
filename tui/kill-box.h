/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The dossier of one kill as a framed box over a view's body: every line
 * of kill_dossier_lines() (src/kill-dossier-lines.h) as "label  value",
 * as they are: the figures, their units and "-" for unknown come from
 * there, none is made here. The timeline opens it (Enter on a kill).
 */
#ifndef MMSCOPE_TUI_KILL_BOX_H
#define MMSCOPE_TUI_KILL_BOX_H

#include "kills.h"

struct canvas;
struct tui_state;

/* Draws kill r's dossier over body, its lines from *top on (clamped to
 * what can scroll, written back). */
void kill_box_build(const struct tui_state *st, const struct tk_ref *r, int *top,
		    struct canvas *body);

#endif
