/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mmscope record --config FILE (the service's /etc/mmscope/recorder.conf):
 * KEY=VALUE lines, KEY one of record's long options, read into the
 * arguments they stand for, ahead of the command line's (which then wins
 * for single-valued options). '#' starts a comment line; blanks around
 * KEY and VALUE are dropped; a repeatable option is repeated as lines;
 * an option without a value takes yes/no (true/false, 1/0).
 */
#ifndef MMSCOPE_RECORD_CONFIG_H
#define MMSCOPE_RECORD_CONFIG_H

#include <getopt.h>

/*
 * Fills *args (malloc'd strings, *nargs of them) from path. Keys are the
 * long names of opts but those in refused (NULL-terminated). 0, or -1
 * with *err: "FILE:LINE: ..." for an unknown key, a line that is not
 * KEY=VALUE, a bad yes/no; or the file that cannot be read.
 */
int record_config_args(const char *path, const struct option *opts,
		       const char *const *refused, char ***args, int *nargs, char **err);
void record_config_free(char **args, int nargs);

#endif
