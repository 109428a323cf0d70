// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Our kallsyms table (src/kallsyms.c) against libtraceevent's own: one
 * tep fed by tep_parse_kallsyms(), one resolving through
 * kallsyms_attach(), and tep_find_function() / tep_find_function_address()
 * asked the same addresses on both: every listed address, one below and
 * one above it, and random ones across the whole range. Texts: the
 * kallsyms of every real recording in samples/ and tests/data that has
 * them, this machine's /proc/kallsyms, and a hand-made text of the lines
 * the fast path leaves to sscanf (blanks, "0x", 17 digits, '$' and
 * absolute symbols, modules, aliases, a line that stops the parse).
 */
#include "config.h"
#include "kallsyms.h"
#include "tracedat-read.h"
#include "util.h"
#include "tap.h"
#include "real-recordings.h"

#include <stdlib.h>

static unsigned long long rng = 88172645463325252ull;

static unsigned long long next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static int same(struct tep_handle *want, struct tep_handle *got, unsigned long long addr,
		const char *what)
{
	const char *w = tep_find_function(want, addr), *g = tep_find_function(got, addr);
	unsigned long long wa = tep_find_function_address(want, addr);
	unsigned long long ga = tep_find_function_address(got, addr);

	if ((!w) != (!g) || (w && strcmp(w, g)) || wa != ga) {
		ok(0, "%s: address %llx resolves as libtraceevent's", what, addr);
		printf("#   got %s at %llx, want %s at %llx\n", g ? g : "(none)", ga,
		       w ? w : "(none)", wa);
		return 0;
	}
	return 1;
}

/*
 * An event whose format names a kernel symbol, as 6.x's pfn_to_page()
 * does: libtraceevent looks the name up in its own list, not through the
 * resolver. Parsed before the kallsyms, as the reader does.
 */
static void add_symref_event(struct tep_handle *tep, const char *sym)
{
	char fmt[2048];

	snprintf(fmt, sizeof(fmt),
		 "name: symref\nID: 7\nformat:\n"
		 "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		 "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
		 "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
		 "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
		 "\tfield:unsigned long pfn;\toffset:8;\tsize:8;\tsigned:0;\n\n"
		 "print fmt: \"page=%%p pfn=0x%%lx\", (((struct page *)%s) + (REC->pfn)), REC->pfn\n",
		 sym);
	tep_parse_event(tep, fmt, strlen(fmt), "test");
}

static void print_symref(struct tep_handle *tep, struct trace_seq *s)
{
	unsigned char data[16] = { 7, 0 };
	struct tep_record rec = { .data = data, .size = sizeof(data) };

	data[8] = 0x03;
	data[9] = 0xa5;	/* pfn 0xa503 */
	tep_print_event(tep, s, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(s);
}

/* the variable 6.x's pfn_to_page() names, or a symbol every kernel has */
static const char *named_symbol(const char *text)
{
	return strstr(text, " vmemmap_base\n") ? "vmemmap_base" : "_stext";
}

/* the address the text gives SYM, 0 when it has none (or hides it: a
 * user's /proc/kallsyms under kptr_restrict lists every symbol at 0) */
static unsigned long long symbol_address(const char *text, const char *sym)
{
	size_t len = strlen(sym);

	for (const char *p = text; *p;) {
		const char *nl = strchr(p, '\n'), *end = nl ? nl : p + strlen(p);

		/* "ADDR T NAME": NAME ends the line */
		if ((size_t)(end - p) > len + 1 && end[-(long)len - 1] == ' ' &&
		    !memcmp(end - len, sym, len))
			return strtoull(p, NULL, 16);
		p = nl ? nl + 1 : end;
	}
	return 0;
}

/* both tables on text; returns the functions ours holds */
static size_t check_text(const char *text, const char *what, const char *sym)
{
	struct tep_handle *want = tep_alloc(), *got = tep_alloc();
	struct kallsyms *ks = kallsyms_parse(text);
	unsigned long long lo = ~0ull, hi = 0;
	size_t listed = 0, asked = 0, n = kallsyms_count(ks);
	struct trace_seq ws, gs;
	int good = 1;

	tep_set_long_size(want, 8);
	tep_set_long_size(got, 8);
	add_symref_event(want, sym);
	add_symref_event(got, sym);
	tep_parse_kallsyms(want, text);
	kallsyms_attach(ks, got);
	/* before any address lookup: libtraceevent then searches its list
	 * as registered, which is what ours keeps */
	trace_seq_init(&ws);
	trace_seq_init(&gs);
	print_symref(want, &ws);
	print_symref(got, &gs);
	/* a symbol in the text must count: then page is not the bare pfn
	 * (unless the text puts it at 0: addresses hidden from a user) */
	if (!ok(!strcmp(ws.buffer, gs.buffer) &&
		(!n || !symbol_address(text, sym) || !strstr(ws.buffer, "page=0xa503 ")),
		"%s: a format naming %s prints as with libtraceevent's table%s", what, sym,
		symbol_address(text, sym) ? "" : " (its address is 0 here)"))
		printf("#   got '%s', want '%s'\n", gs.buffer, ws.buffer);
	trace_seq_destroy(&ws);
	trace_seq_destroy(&gs);
	for (const char *p = text; good && *p;) {
		char *end;
		/* not sscanf: glibc's takes strlen of the whole text each call */
		unsigned long long a = strtoull(p, &end, 16);

		if (end != p) {
			listed++;
			lo = a < lo ? a : lo;
			hi = a > hi ? a : hi;
			good = same(want, got, a, what) && same(want, got, a - 1, what) &&
			       same(want, got, a + 1, what);
			asked += 3;
		}
		p = strchr(p, '\n');
		p = p ? p + 1 : "";
	}
	for (int i = 0; good && lo <= hi && i < 20000; i++, asked++) {
		unsigned long long span = hi - lo + 1;	/* 0: the whole 64 bits */

		good = same(want, got, lo + (span ? next_rand() % span : next_rand()), what);
	}
	good = good && same(want, got, 0, what) && same(want, got, ~0ull, what);
	if (good)
		ok(1, "%s: %zu addresses resolve as libtraceevent's (%zu lines, %zu functions)",
		   what, asked, listed, n);
	tep_free(want);
	tep_free(got);
	kallsyms_free(ks);
	return n;
}

static const char edge[] =
	"ffffffff81000000 T _stext\n"
	"ffffffff81000000 T alias_second\n"
	"ffffffff81000000 t alias_third\n"
	"ffffffff81000010 t $x\n"
	"0000000000000000 A fixed_percpu_data\n"
	"ffffffff81000020 a abs_lower\n"
	"ffffffff81000030 T  two_spaces\n"
	"  ffffffff81000040 T leading_blanks\n"
	"0xffffffff81000050 T hex_prefix\n"
	"ffffffff81000060 t in_module\t[mod_a]\n"
	"ffffffff81000070 t blank_module\t[ spaced]\n"
	"ffffffff81000080 t space_not_tab [not_a_mod]\n"
	"ffffffff81000090 t trailing_cr\r\n"
	"ffffffff81000098 t short_module\t[x\n"
	"1ffffffff810000a0 T seventeen_digits\n"
	"ffffffff810000b0 Tno_blank\n"
	"\n\n"
	"ffffffff810000c0 T after_blank_lines\n"
	"ffffffff81000100 W\tweak_after_tab\n"
	"ffffffffc0000000 t module_text\t[mod_b]\n"
	"ffffffff81000400 d dup_name\n"
	"ffffffff81000380 d dup_name\n"
	"ffffffff81000200 T\n"
	"ffffffff81000300 T never_registered\n";

int main(void)
{
	struct strbuf proc = STRBUF_INIT;
	char **paths;
	int files = 0, n = real_recordings(&paths);

	is_int(check_text("", "empty text", "vmemmap_base"), 0, "empty text: no function");
	is_int(check_text(edge, "odd lines", "dup_name"), 18,
	       "odd lines: the lines libtraceevent keeps, up to the one that stops it");
	for (int i = 0; i < n; i++) {
		const char *name = real_recording_name(paths[i]), *text;
		char *err = NULL;
		struct td_file *tf = td_open(paths[i], &err);
		size_t klen;

		if (!ok(tf != NULL, "%s opens", name))
			printf("#   %s\n", err ? err : "?");
		free(err);
		if (tf && td_tep(tf) && (text = td_meta(tf, TD_META_KALLSYMS, &klen)) && klen > 4) {
			/* the section: u32 size, then the text */
			char *copy = xmalloc(klen - 4 + 1);

			memcpy(copy, text + 4, klen - 4);
			copy[klen - 4] = '\0';
			ok(check_text(copy, name, named_symbol(copy)) > 0, "%s: functions kept", name);
			free(copy);
			files++;
		}
		td_close(tf);
	}
	real_recordings_free(paths, n);
	ok(files >= 3, "real kallsyms checked in %d recordings", files);
	if (!read_file("/proc/kallsyms", &proc) && proc.len)
		check_text(proc.buf, "/proc/kallsyms", named_symbol(proc.buf));
	strbuf_release(&proc);
	return tap_done();
}
