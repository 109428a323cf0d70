/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kills of the runs the timeline shows, on the screen's time line:
 * every kill whoever the killer (the OOM model's list, kill-dossier.h),
 * its marker, and whether the recording could have seen each kind. The
 * timeline's kills lane, its n/N and Enter, and the findings' jump to a
 * kill read this. It says no figure of a kill's window: the dossier box
 * (kill-box.h) shows kill_dossier_lines() as they are.
 */
#ifndef MMSCOPE_TUI_KILLS_H
#define MMSCOPE_TUI_KILLS_H

#include <stdint.h>

struct analysis;
struct oom_kill;
struct tui_state;

/* What a recording could see (tk_traced): without oom:mark_victim no
 * kernel or memcg OOM kill, without signal:signal_generate no kill by a
 * process; an empty lane then does not mean "no kill". */
#define TK_OOM		1
#define TK_SIGNALS	2

/* A kill: run k of tui_run_data(), its index i for kill_dossier_get(),
 * and its screen time. */
struct tk_ref {
	int run, i;
	uint64_t at;
};

int tk_traced(const struct analysis *a);
/* Over every run the timeline shows: the kinds any of them traced. */
int tk_traced_any(const struct tui_state *st);
/* '!' a kernel or memcg OOM kill, 'k' a kill by a process. */
char tk_mark(const struct oom_kill *k);
/* The kill of a reference (NULL when it is gone). */
const struct oom_kill *tk_kill(const struct tui_state *st, const struct tk_ref *r);
/* The first kill strictly after (dir > 0) or before (dir < 0) screen
 * time t in any run: 1 and *out, or 0 when there is none. */
int tk_step(const struct tui_state *st, uint64_t t, int dir, struct tk_ref *out);
/* The kill nearest screen time t (the earlier on a tie): 1, or 0 none. */
int tk_nearest(const struct tui_state *st, uint64_t t, struct tk_ref *out);
/* Per column of the axis (w columns from st->origin): the marker of the
 * kills in it, '!' over 'k' (an OOM kill is the more telling), or 0. */
void tk_columns(const struct tui_state *st, int w, char *marks);
/* "kill at 0.260880 s: memcg-oom, victim anon-touch 14245" */
void tk_describe(const struct tui_state *st, const struct tk_ref *r, char *buf, int len);
/* The kills' totals for the timeline's last line: "kills 1 (OOM 1, by
 * processes -: signal:signal_generate not recorded)". */
void tk_totals(const struct tui_state *st, char *buf, int len);

#endif
