/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The views of `mmscope tui`, in tab order: one X-macro row each. The view
 * ids (enum tui_view_id, tui.h), the ops array (state.c), the actions that
 * show a view and their help rows (the key table, keys.h) and the tabs of
 * the top bar are all generated from this table, so they cannot disagree.
 *
 * X(P, ID, name, key, help): VIEW_ID is the view's id, view_name_ops its
 * ops (defined in tui/view-name.c), ACT_VIEW_ID the action bound to key,
 * whose name is also the view's tab, and help is that action's line in the
 * help view. P is passed through untouched (the key table passes its own
 * X that way); users that need nothing there pass _.
 *
 * The help view is no row: it has no tab and no digit ('?' shows it, q
 * leaves it), and its id VIEW_HELP comes after these.
 *
 * Adding a view: a row here, tui/view-NAME.c with its ops (and its own
 * state through priv_new/priv_free, view.h), the file in tui/local.mk, a
 * test in tests/unit/test-tui-views.c, and a line in mmscope-tui(1).
 */
#ifndef MMSCOPE_TUI_VIEW_LIST_H
#define MMSCOPE_TUI_VIEW_LIST_H

#define TUI_VIEW_TABLE(X, P) \
	X(P, TIMELINE, timeline, '1', "timeline: lanes and watermarks per node") \
	X(P, SWAP,     swap,     '2', "swap clusters") \
	X(P, ZSWAP,    zswap,    '3', "zswap") \
	X(P, STALLS,   stalls,   '4', "stalls and compaction in the selected range") \
	X(P, EVENTS,   events,   '5', "raw events around the cursor") \
	X(P, FINDINGS, findings, '6', "findings: Enter shows the view of its evidence at its time") \
	X(P, MEMCG,    memcg,    '7', "memcg: usage against limit and high of a cgroup (record --cgroups)")

#endif
