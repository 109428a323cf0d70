/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The pieces every HTML page of mmscope shares (report --format html,
 * compare --format html): escaping of text taken from a recording, and
 * the page skeleton with its inline style sheet. A page is one file that
 * fetches nothing: no script, no external style sheet, font or image, so
 * it opens the same from a mail attachment, a bug tracker or a disk.
 * Everything here writes into a strbuf and does no I/O.
 */
#ifndef MMSCOPE_HTML_H
#define MMSCOPE_HTML_H

#include <stddef.h>

#include "util.h"

/* Text for an element's content or a quoted attribute value: & < > " '
 * become entities, control characters (but tab and newline) and bytes
 * that are not UTF-8 become U+FFFD, so a task name or command line from a
 * recording can neither open a tag nor break the page's encoding. */
void html_escape(struct strbuf *sb, const char *s);
void html_escape_n(struct strbuf *sb, const char *s, size_t n);

/* A name fit for an id and a fragment: [a-z0-9-] only, other bytes '-'. */
void html_id(struct strbuf *sb, const char *s);

/* <!DOCTYPE html> to <body>: the title (escaped), the viewport for phones
 * and the style sheet; html_page_end closes it. */
void html_page_begin(struct strbuf *sb, const char *title);
void html_page_end(struct strbuf *sb);

/* A table of contents entry: a link to #id showing label. */
void html_toc_entry(struct strbuf *sb, const char *id, const char *label);

#endif
