/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The hidden `mmscope completion bash`: prints a bash completion script
 * made from the command table (main.c), each command's usage text (its
 * options, and whether they take a value), the event groups
 * (parsers/families.c), the report sections (src/report.c) and the
 * codecs. The build writes it to completion/mmscope, which `make install`
 * puts in $(datadir)/bash-completion/completions.
 */
#ifndef MMSCOPE_COMPLETION_H
#define MMSCOPE_COMPLETION_H

#include <stddef.h>

#include "cmd.h"

/* argv[0] is "completion". Returns an exit status. */
int completion_main(int argc, char **argv, const struct cmd_entry *const *cmds,
		    size_t ncmds);

#endif
