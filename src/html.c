// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Escaping and the page skeleton of mmscope's HTML pages (see html.h).
 * The style sheet is inline and the page has no script: it must render
 * offline, and a page attached to a bug report must not run anything.
 */
#include "config.h"
#include "html.h"

#include <string.h>

/* The length of the valid UTF-8 sequence at s (of at most n bytes), or 0.
 * Overlong forms, surrogates and code points above U+10FFFF are invalid. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t len;
	unsigned cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, cp = s[0] & 0x1fu;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, cp = s[0] & 0x0fu;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, cp = s[0] & 0x07u;
	else
		return 0;
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3fu);
	}
	if ((len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return len;
}

void html_escape_n(struct strbuf *sb, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0;

	while (i < n) {
		size_t l;

		switch (s[i]) {
		case '&': strbuf_addstr(sb, "&amp;"); i++; continue;
		case '<': strbuf_addstr(sb, "&lt;"); i++; continue;
		case '>': strbuf_addstr(sb, "&gt;"); i++; continue;
		case '"': strbuf_addstr(sb, "&quot;"); i++; continue;
		case '\'': strbuf_addstr(sb, "&#39;"); i++; continue;
		case '\t': case '\n': strbuf_addch(sb, s[i]); i++; continue;
		default:
			break;
		}
		l = utf8_len(s + i, n - i);
		if (!l || s[i] < 0x20 || s[i] == 0x7f) {
			strbuf_addstr(sb, "\xef\xbf\xbd");	/* U+FFFD */
			i++;
			continue;
		}
		strbuf_add(sb, s + i, l);
		i += l;
	}
}

void html_escape(struct strbuf *sb, const char *s)
{
	html_escape_n(sb, s, strlen(s));
}

void html_id(struct strbuf *sb, const char *s)
{
	for (; *s; s++) {
		char c = *s;

		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		strbuf_addch(sb, (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ? c : '-');
	}
}

/*
 * Phones: the viewport meta makes the page as wide as the screen; tables
 * and preformatted blocks scroll sideways in their own box instead of
 * widening the page, and charts keep a minimum width inside theirs so
 * their labels stay legible.
 */
static const char html_css[] =
"*{box-sizing:border-box}\n"
"body{margin:0 auto;max-width:1260px;padding:0 14px 48px;color:#1b1b1b;"
"background:#fff;font:15px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,"
"'DejaVu Sans',Arial,sans-serif}\n"
"h1{font-size:1.45em;margin:.9em 0 .15em}\n"
"h2{font-size:1.15em;margin:1.8em 0 .5em;padding-bottom:3px;"
"border-bottom:2px solid #1f77b4}\n"
"h3{font-size:1em;margin:1.2em 0 .3em}\n"
".sub{color:#555;margin:0 0 .8em}\n"
"nav.toc{background:#f3f6fa;border:1px solid #d8e0ea;border-radius:6px;"
"padding:6px 12px;margin:1em 0}\n"
"nav.toc ol{margin:.3em 0;padding-left:1.4em;columns:15em}\n"
"nav.toc a{text-decoration:none}\n"
"a{color:#1f5fa8}\n"
".scroll{overflow-x:auto;-webkit-overflow-scrolling:touch;max-width:100%;"
"margin:.4em 0}\n"
"table{border-collapse:collapse;font-variant-numeric:tabular-nums}\n"
"th,td{padding:3px 9px;border-bottom:1px solid #e3e3e3;white-space:nowrap;"
"text-align:right;vertical-align:top}\n"
"th{background:#f3f3f3;font-weight:600}\n"
".l{text-align:left}\n"
"table.kv td{text-align:left;white-space:normal}\n"
"table.kv td.k{font-weight:600;color:#444;white-space:nowrap}\n"
"pre{font:13px/1.35 ui-monospace,'DejaVu Sans Mono',Menlo,Consolas,monospace;"
"background:#f6f6f6;border:1px solid #e6e6e6;border-radius:4px;padding:6px 9px;"
"margin:.4em 0;overflow-x:auto;white-space:pre}\n"
"#findings pre.crit{border-left:4px solid #d62728;background:#fff7f5}\n"
"#findings pre.warn{border-left:4px solid #e6880e;background:#fff9ef}\n"
"#findings pre.info{border-left:4px solid #1f77b4;background:#f4f8fc}\n"
".kill{border-left:4px solid #d62728;padding-left:10px;margin:1em 0}\n"
".kill:target{background:#fff7f5}\n"
".chart{overflow-x:auto;margin:.5em 0 1.2em;border:1px solid #e6e6e6}\n"
".chart svg{display:block;width:100%;height:auto;min-width:640px}\n"
".up{color:#b00020}.down{color:#1a7f37}.sig{font-weight:700}\n"
".bar svg{min-width:0;width:120px;height:auto}\n"
"footer{color:#777;font-size:.85em;margin-top:3em}\n"
"@media (max-width:600px){body{font-size:14px;padding:0 8px 32px}"
"pre{font-size:12px}th,td{padding:2px 6px}}\n";

void html_page_begin(struct strbuf *sb, const char *title)
{
	strbuf_addstr(sb, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
		      "<meta charset=\"utf-8\">\n"
		      "<meta name=\"viewport\" content=\"width=device-width, "
		      "initial-scale=1\">\n"
		      "<meta name=\"generator\" content=\"mmscope\">\n<title>");
	html_escape(sb, title);
	strbuf_addstr(sb, "</title>\n<style>\n");
	strbuf_addstr(sb, html_css);
	strbuf_addstr(sb, "</style>\n</head>\n<body>\n");
}

void html_page_end(struct strbuf *sb)
{
	strbuf_addstr(sb, "</body>\n</html>\n");
}

void html_toc_entry(struct strbuf *sb, const char *id, const char *label)
{
	strbuf_addstr(sb, "<li><a href=\"#");
	html_escape(sb, id);
	strbuf_addstr(sb, "\">");
	html_escape(sb, label);
	strbuf_addstr(sb, "</a></li>\n");
}
