// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A recording's /proc/kallsyms, resolved exactly as libtraceevent's own
 * table resolves it, without its cost.
 *
 * tep_parse_kallsyms() runs sscanf on each of the ~150,000 lines of a
 * 6.18 kallsyms and strdups every name into a list it sorts on the first
 * lookup: 0.16 s of the 0.19 s a report of a stack recording takes
 * (perf: vfscanf 27%, malloc and free ~15%), which made that one 1 MB
 * file the tail of a parallel compare. Here the text is copied once,
 * canonical lines are split by hand, names point into the copy, and
 * libtraceevent asks the table through tep_set_function_resolver().
 *
 * Names must come out as tep_find_function() gives them (dump is
 * compared byte for byte with trace-cmd, which uses libtraceevent's
 * table). So the table is the one libtraceevent builds: the same lines
 * kept (not '$' names, not 'A'/'a' absolute symbols, stop at the first
 * line that does not parse), the same entry layout, in the same order
 * (its list is pushed at the head, so it holds the lines reversed), the
 * same qsort comparison and the same bsearch comparison ("this entry, or
 * after it and before the next"). Aliases at one address then resolve to
 * the same name whatever the C library's sort does with ties. A line that
 * is not in canonical form goes to the very sscanf libtraceevent uses.
 * tests/unit/test-kallsyms.c compares both tables address by address.
 */
#include "config.h"
#include "kallsyms.h"
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* libtraceevent's struct func_map, field for field (the sort sees it) */
struct ksym {
	unsigned long long addr;
	char *func;
	char *mod;
};

/*
 * A stack recording asks the same few hundred return addresses millions
 * of times, twice a frame (tep_find_function, then _address): a
 * direct-mapped memo of the answers in front of the binary search over
 * ~150,000 entries (which was 41% of a report of such a recording). It
 * is the table's, and a table is one reader's, as its tep is.
 */
#define RESOLVE_MEMO 4096
struct resolve_memo {
	unsigned long long addr;
	const struct ksym *f;	/* NULL: not in the table */
	int used;
};

struct kallsyms {
	char *text;		/* the copy the names point into */
	struct ksym *map;	/* n entries and a {0} sentinel */
	size_t n, cap;
	struct resolve_memo *memo;	/* RESOLVE_MEMO, on the first lookup */
};

static int sym_cmp(const void *a, const void *b)
{
	const struct ksym *fa = a, *fb = b;

	if (fa->addr < fb->addr)
		return -1;
	if (fa->addr > fb->addr)
		return 1;
	return 0;
}

/* the entry holding the key: its address, or between it and the next;
 * reads the next entry, so the table ends in a sentinel */
static int sym_bcmp(const void *a, const void *b)
{
	const struct ksym *fa = a, *fb = b;

	if (fa->addr == fb->addr || (fa->addr > fb->addr && fa->addr < (fb + 1)->addr))
		return 0;
	if (fa->addr < fb->addr)
		return -1;
	return 1;
}

static int hex_digit(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* offsets in the line, as the sscanf's %n give them; *_end 0 when unset */
struct sym_line {
	unsigned long long addr;
	char type;
	int func_start, func_end, mod_start, mod_end;
};

/*
 * "ADDR T NAME" or "ADDR T NAME\t[MOD]": at most 16 hex digits, single
 * spaces, a name that starts right there. Anything else returns 0 and
 * the line goes to sscanf.
 */
static int read_canonical(const char *line, struct sym_line *sl)
{
	const char *q = line;
	int d, nd = 0;

	sl->addr = 0;
	while (nd < 16 && (d = hex_digit(*q)) >= 0) {
		sl->addr = sl->addr << 4 | (unsigned)d;
		q++;
		nd++;
	}
	if (!nd || q[0] != ' ' || !q[1] || isspace((unsigned char)q[1]) || q[2] != ' ' ||
	    !q[3] || isspace((unsigned char)q[3]))
		return 0;
	sl->type = q[1];
	q += 3;
	sl->func_start = (int)(q - line);
	while (*q && !isspace((unsigned char)*q))
		q++;
	sl->func_end = (int)(q - line);
	sl->mod_start = sl->mod_end = 0;
	if (q[0] == '\t' && q[1] == '[') {
		/* sscanf's %s would skip blanks after '[': leave that to it */
		if (!q[2] || isspace((unsigned char)q[2]))
			return 0;
		q += 2;
		sl->mod_start = (int)(q - line);
		while (*q && !isspace((unsigned char)*q))
			q++;
		sl->mod_end = (int)(q - line);
	}
	return 1;
}

/* libtraceevent's own reading of a line: 0, or -1 where it stops */
static int read_scanf(const char *line, struct sym_line *sl)
{
	int n;

	sl->func_end = sl->mod_end = 0;
	errno = 0;
	n = sscanf(line, "%16llx %c %n%*s%n%*1[\t][%n%*s%n", &sl->addr, &sl->type,
		   &sl->func_start, &sl->func_end, &sl->mod_start, &sl->mod_end);
	if (errno || n != 2 || !sl->func_end)
		return -1;
	return 0;
}

static void add(struct kallsyms *ks, char *line, const struct sym_line *sl)
{
	char *func = line + sl->func_start;
	char *mod = NULL;

	/* as libtraceevent: arm's '$a' mapping symbols, x86-64's per-CPU
	 * offsets listed as absolute symbols */
	if (func[0] == '$' || sl->type == 'A' || sl->type == 'a')
		return;
	line[sl->func_end] = '\0';
	if (sl->mod_end) {
		mod = line + sl->mod_start;
		line[sl->mod_end - 1] = '\0';	/* the ']' */
	}
	if (ks->n + 1 >= ks->cap) {
		ks->cap = ks->cap ? ks->cap * 2 : 4096;
		ks->map = xreallocarray(ks->map, ks->cap, sizeof(*ks->map));
	}
	ks->map[ks->n++] = (struct ksym){ sl->addr, func, mod };
}

static void reverse(struct ksym *m, size_t n)
{
	for (size_t i = 0, j = n ? n - 1 : 0; i < j; i++, j--) {
		struct ksym t = m[i];

		m[i] = m[j];
		m[j] = t;
	}
}

/* 1 when the entries are by address already, as the kernel lists them */
static int in_order(const struct kallsyms *ks)
{
	for (size_t i = 1; i < ks->n; i++)
		if (ks->map[i - 1].addr > ks->map[i].addr)
			return 0;
	return 1;
}

struct kallsyms *kallsyms_parse(const char *text)
{
	struct kallsyms *ks = xcalloc(1, sizeof(*ks));
	char *p;

	ks->text = xstrdup(text ? text : "");
	/* lines as strtok_r(, "\n") gives them: empty ones skipped */
	for (p = ks->text; *p;) {
		struct sym_line sl;
		char *line, *nl;

		while (*p == '\n')
			p++;
		if (!*p)
			break;
		line = p;
		nl = strchr(p, '\n');
		if (nl) {
			*nl = '\0';
			p = nl + 1;
		} else {
			p += strlen(p);
		}
		if (!read_canonical(line, &sl) && read_scanf(line, &sl))
			break;	/* libtraceevent keeps what came before */
		add(ks, line, &sl);
	}
	if (!ks->map)
		ks->map = xcalloc(1, sizeof(*ks->map));
	if (in_order(ks)) {
		/* /proc/kallsyms lists by address: the order libtraceevent's
		 * sort gives (below) is each run of one address reversed, in
		 * a pass; the sort of 150 k entries was a third of a dump of
		 * a small recording */
		for (size_t i = 0, j; i < ks->n; i = j) {
			j = i + 1;
			while (j < ks->n && ks->map[j].addr == ks->map[i].addr)
				j++;
			reverse(ks->map + i, j - i);
		}
	} else {
		/* libtraceevent prepends each line to a list, then sorts it
		 * (glibc's stable merge sort): the same order */
		reverse(ks->map, ks->n);
		qsort(ks->map, ks->n, sizeof(*ks->map), sym_cmp);
	}
	ks->map[ks->n] = (struct ksym){ 0, NULL, NULL };
	return ks;
}

size_t kallsyms_count(const struct kallsyms *ks)
{
	return ks ? ks->n : 0;
}

static char *resolve(void *priv, unsigned long long *addrp, char **modp)
{
	struct kallsyms *ks = priv;
	struct ksym key = { .addr = *addrp };
	const struct ksym *f;
	struct resolve_memo *m;

	if (!ks->memo)
		ks->memo = xcalloc(RESOLVE_MEMO, sizeof(*ks->memo));
	/* the product's top 12 bits: return addresses differ in their low ones */
	m = &ks->memo[(key.addr * 0x9E3779B97F4A7C15ULL) >> 52];
	if (m->used && m->addr == key.addr) {
		f = m->f;
	} else {
		f = bsearch(&key, ks->map, ks->n, sizeof(*ks->map), sym_bcmp);
		m->addr = key.addr;
		m->f = f;
		m->used = 1;
	}
	if (!f)
		return NULL;
	*addrp = f->addr;
	*modp = f->mod;
	return f->func;
}

/* Collects the identifier atoms of a print format's arguments (and their
 * subtrees): the names libtraceevent's test_for_symbol() looks up. */
static void atom_names(const struct tep_print_arg *arg, const char ***names, size_t *n)
{
	for (; arg; arg = arg->next) {
		switch (arg->type) {
		case TEP_PRINT_ATOM:
			if (arg->atom.atom && !strtoull(arg->atom.atom, NULL, 0) &&
			    !isdigit((unsigned char)arg->atom.atom[0])) {
				*names = xreallocarray(*names, *n + 1, sizeof(**names));
				(*names)[(*n)++] = arg->atom.atom;
			}
			break;
		case TEP_PRINT_TYPE:
			atom_names(arg->typecast.item, names, n);
			break;
		case TEP_PRINT_FLAGS:
			atom_names(arg->flags.field, names, n);
			break;
		case TEP_PRINT_SYMBOL:
			atom_names(arg->symbol.field, names, n);
			break;
		case TEP_PRINT_HEX:
		case TEP_PRINT_HEX_STR:
			atom_names(arg->hex.field, names, n);
			atom_names(arg->hex.size, names, n);
			break;
		case TEP_PRINT_INT_ARRAY:
			atom_names(arg->int_array.field, names, n);
			atom_names(arg->int_array.count, names, n);
			atom_names(arg->int_array.el_size, names, n);
			break;
		case TEP_PRINT_FUNC:
			atom_names(arg->func.args, names, n);
			break;
		case TEP_PRINT_OP:
			atom_names(arg->op.left, names, n);
			atom_names(arg->op.right, names, n);
			break;
		default:
			break;
		}
	}
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int by_text_order(const void *a, const void *b)
{
	const struct ksym *const *x = a, *const *y = b;

	return (*x)->func < (*y)->func ? -1 : (*x)->func > (*y)->func;
}

/*
 * A print format may name a kernel variable: 6.x's pfn_to_page() is
 * "((struct page *)vmemmap_base) + (REC->pfn)", and libtraceevent turns
 * the atom into the symbol's address by searching its own function list
 * by name, which a resolver does not serve. So the symbols the tep's
 * formats name are registered with it as well, in kallsyms order as
 * tep_parse_kallsyms() would, so the first of equal names it finds is
 * the same. (Its search walks the sorted table instead once an address
 * was looked up; equal names at different addresses, which no format
 * seen names, could then differ.)
 */
static int register_named(struct kallsyms *ks, struct tep_handle *tep)
{
	const char **names = NULL;
	struct ksym **hit = NULL;
	size_t nnames = 0, nhit = 0;
	int r = 0;

	for (int i = 0; i < tep_get_events_count(tep); i++) {
		struct tep_event *ev = tep_get_event(tep, i);

		if (ev)
			atom_names(ev->print_fmt.args, &names, &nnames);
	}
	/* a dump parses every format of the kernel: some dozens of names */
	if (nnames)
		qsort(names, nnames, sizeof(*names), by_name);
	for (size_t i = 0; nnames && i < ks->n; i++)
		if (bsearch(&ks->map[i].func, names, nnames, sizeof(*names), by_name)) {
			hit = xreallocarray(hit, nhit + 1, sizeof(*hit));
			hit[nhit++] = &ks->map[i];
		}
	if (nhit)
		qsort(hit, nhit, sizeof(*hit), by_text_order);
	for (size_t i = 0; !r && i < nhit; i++)
		r = tep_register_function(tep, hit[i]->func, hit[i]->addr, hit[i]->mod);
	free(hit);
	free(names);
	return r;
}

int kallsyms_attach(struct kallsyms *ks, struct tep_handle *tep)
{
	if (register_named(ks, tep))
		return -1;
	return tep_set_function_resolver(tep, resolve, ks);
}

void kallsyms_free(struct kallsyms *ks)
{
	if (!ks)
		return;
	free(ks->memo);
	free(ks->map);
	free(ks->text);
	free(ks);
}
