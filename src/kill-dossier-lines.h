/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One kill's dossier (kill-dossier.h) as labelled lines of text, for the
 * front ends that show a kill in their own layout: the TUI's dossier
 * window, the HTML page's table, Perfetto's instant event arguments. The
 * text report keeps its own compact 72-column layout (report-kills.c);
 * these lines say the same figures, each with its unit, "-" when unknown.
 * A field added to the dossier is added here once and every front end
 * shows it.
 */
#ifndef MMSCOPE_KILL_DOSSIER_LINES_H
#define MMSCOPE_KILL_DOSSIER_LINES_H

#include "kill-dossier.h"

#define KD_LINES_MAX 40

struct kd_line {
	const char *key;	/* stable, lower case, for Perfetto args and HTML ids */
	const char *label;	/* for people: "direct stalls" */
	char value[160];	/* "12 (3400.0 ms)", "-" when unknown */
};

/* Fills up to max lines for d; returns how many. The victim, the sender
 * (a signal kill's), the window, and every figure of the window in the
 * order the text report gives them. */
int kill_dossier_lines(const struct kill_dossier *d, struct kd_line *out, int max);

/* bytes as "N.N MiB" in buf, "-" when negative (unknown); returns buf.
 * The text report says the cgroup's sizes the same way. */
const char *kill_dossier_mib(char *buf, size_t len, int64_t bytes);

#endif
