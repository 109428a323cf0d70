/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A recording's /proc/kallsyms as libtraceevent resolves it, at a tenth
 * of tep_parse_kallsyms()'s cost (see kallsyms.c).
 */
#ifndef MMSCOPE_KALLSYMS_H
#define MMSCOPE_KALLSYMS_H

#include <event-parse.h>

struct kallsyms;

/* The text of /proc/kallsyms (NUL-terminated; copied). Never NULL. */
struct kallsyms *kallsyms_parse(const char *text);

/* Functions the table holds (lines tep_parse_kallsyms would register). */
size_t kallsyms_count(const struct kallsyms *ks);

/*
 * Makes tep resolve addresses through ks (tep_set_function_resolver),
 * and registers the symbols its parsed formats name (see kallsyms.c):
 * call it after the formats are parsed. ks must outlive tep: free it
 * after tep_free().
 */
int kallsyms_attach(struct kallsyms *ks, struct tep_handle *tep);

void kallsyms_free(struct kallsyms *ks);

#endif
