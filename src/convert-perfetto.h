/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mmscope convert's Perfetto output (convert-perfetto.c), asked
 * first by cmd-convert.c.
 */
#ifndef MMSCOPE_CONVERT_PERFETTO_H
#define MMSCOPE_CONVERT_PERFETTO_H

/* Not a Perfetto conversion: cmd-convert.c goes on with trace.dat. */
#define CONVERT_NOT_PERFETTO (-100)

/* An exit status, or CONVERT_NOT_PERFETTO. */
int convert_perfetto(int argc, char **argv);

#endif
