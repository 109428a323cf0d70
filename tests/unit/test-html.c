// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The HTML pages' escaping (src/html.c): text from a recording (a command
 * line, a task or host name) can open no tag, close no attribute and
 * break no encoding; ids keep to [a-z0-9-]; the page skeleton fetches
 * nothing and runs nothing.
 */
#include "config.h"
#include "html.h"
#include "report-html.h"
#include "tap.h"

#include <string.h>

static struct strbuf sb = STRBUF_INIT;

static const char *esc(const char *s)
{
	strbuf_reset(&sb);
	html_escape(&sb, s);
	return sb.buf;
}

static const char *esc_n(const char *s, size_t n)
{
	strbuf_reset(&sb);
	html_escape_n(&sb, s, n);
	return sb.buf;
}

static const char *id(const char *s)
{
	strbuf_reset(&sb);
	html_id(&sb, s);
	return sb.buf;
}

static void test_escape(void)
{
	is_str(esc("sh -c '<script>alert(1)</script>'"),
	       "sh -c &#39;&lt;script&gt;alert(1)&lt;/script&gt;&#39;", "a hostile command line");
	is_str(esc("a\"b&c"), "a&quot;b&amp;c", "quotes and ampersands");
	is_str(esc("&amp;"), "&amp;amp;", "an entity is text, escaped again");
	is_str(esc("kworker/0:1 \xc3\xa9t\xc3\xa9"), "kworker/0:1 \xc3\xa9t\xc3\xa9",
	       "valid UTF-8 is kept");
	is_str(esc("a\tb\nc"), "a\tb\nc", "tab and newline are kept");
	is_str(esc("a\x01" "b\x1b[31m\x7f"), "a\xef\xbf\xbd" "b\xef\xbf\xbd[31m\xef\xbf\xbd",
	       "control characters become U+FFFD");
	is_str(esc("\xff\xfe<"), "\xef\xbf\xbd\xef\xbf\xbd&lt;", "invalid bytes become U+FFFD");
	is_str(esc("\xc0\xbc"), "\xef\xbf\xbd\xef\xbf\xbd", "an overlong '<' is not a '<'");
	is_str(esc("\xed\xa0\x80"), "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd",
	       "a UTF-16 surrogate is invalid");
	is_str(esc("\xe2\x82"), "\xef\xbf\xbd\xef\xbf\xbd", "a cut sequence is invalid");
	is_str(esc_n("ab<cd", 3), "ab&lt;", "html_escape_n stops at n");
	is_str(esc_n("a\0<", 3), "a\xef\xbf\xbd&lt;", "a NUL within n is replaced, not an end");
}

static void test_id(void)
{
	is_str(id("handoff"), "handoff", "a section name is its id");
	is_str(id("Swap Out\"><x"), "swap-out---x", "anything else becomes '-'");
}

static void test_page(void)
{
	strbuf_reset(&sb);
	html_page_begin(&sb, "t <b>");
	html_toc_entry(&sb, "a\"b", "<i>");
	html_page_end(&sb);
	ok(strstr(sb.buf, "<title>t &lt;b&gt;</title>") != NULL, "the title is escaped");
	ok(strstr(sb.buf, "href=\"#a&quot;b\">&lt;i&gt;</a>") != NULL,
	   "a contents entry is escaped");
	ok(strstr(sb.buf, "name=\"viewport\"") != NULL, "a viewport for phones");
	ok(!strstr(sb.buf, "<script") && !strstr(sb.buf, "<link") && !strstr(sb.buf, "url(") &&
	   !strstr(sb.buf, "@import") && !strstr(sb.buf, "http"),
	   "no script, no external style sheet, font or address");
}

static const char *conv(const char *text)
{
	strbuf_reset(&sb);
	report_html_text(&sb, "sec", text, strlen(text));
	return sb.buf;
}

/* A section's text into markup: every word stays, in its order. */
static void test_text(void)
{
	const char *rule = "\n----------------------------------------\n";
	struct strbuf t = STRBUF_INIT;

	strbuf_addf(&t, "Title <1>%skernel    6.1 <x>\nwall      a\n          b\n"
		    "Node 1%s  kind   count  p50 ms\n  memcg     12   0.006\n"
		    "  direct     -   1.500\nprose after: 3 things\n", rule, rule);
	is_str(conv(t.buf),
	       "<h2>Title &lt;1&gt;</h2>\n"
	       "<div class=\"scroll\"><table class=\"kv\">\n"
	       "<tr><td class=\"k\">kernel</td><td>6.1 &lt;x&gt;</td></tr>\n"
	       "<tr><td class=\"k\">wall</td><td>a<br>b</td></tr>\n"
	       "</table></div>\n"
	       "<h3 id=\"sec-2\">Node 1</h3>\n"
	       "<div class=\"scroll\"><table class=\"text\">\n"
	       "<tr><th class=\"l\">kind</th><th>count</th><th>p50 ms</th></tr>\n"
	       "<tr><td class=\"l\">memcg</td><td>12</td><td>0.006</td></tr>\n"
	       "<tr><td class=\"l\">direct</td><td>-</td><td>1.500</td></tr>\n"
	       "</table></div>\n"
	       "<pre>prose after: 3 things</pre>\n",
	       "titles, label/value rows with continuations, an aligned table, prose");
	is_str(conv("x\n  a  <script>\n"), "<pre>x\n  a  &lt;script&gt;</pre>\n",
	       "a preformatted block is escaped");
	is_str(conv("words of prose here\n  12   13   14\n"),
	       "<pre>words of prose here\n  12   13   14</pre>\n",
	       "prose over figures is not a table header");
	is_str(conv("a long label here  value\n"), "<pre>a long label here  value</pre>\n",
	       "a label longer than 14 columns is not a label");
	strbuf_release(&t);
}

int main(void)
{
	test_escape();
	test_text();
	test_id();
	test_page();
	strbuf_release(&sb);
	return tap_done();
}
