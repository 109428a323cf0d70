// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `mmscope completion bash` (hidden): the bash completion script, made from
 * what the program itself knows, so that it never lags behind:
 *   - the subcommands: the command table of main.c;
 *   - each command's options and whether they take a value: its usage
 *     text, the one --help prints (lines "  -x, --long ARG   help");
 *   - the values of some options: the event groups (parsers/families.c),
 *     the report sections (report_sections[]), the codecs, and any ARG
 *     written as alternatives ("6|7"); FILE/IN/OUT complete file names,
 *     DIR/PATH/SPOOL directories; the charts, schemas, export formats and
 *     triggers are words here (their tables are private to their
 *     commands), which tests/cli/completion.sh holds to the lists the
 *     commands' own errors give.
 * tests/cli/completion.sh runs the script in bash against --help.
 */
#include "config.h"
#include "completion.h"
#include "codec.h"
#include "families.h"
#include "plot.h"
#include "report.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum vkind {
	V_NONE,		/* takes a value we cannot guess */
	V_WORDS,	/* one of these words */
	V_LIST,		/* a comma-separated list of these words */
	V_QUOTED,	/* one of these words, shell-quoted ('>' in a trigger) */
	V_FILES,
	V_DIRS,
};

static void add_groups(struct strbuf *sb)
{
	for (int i = 0; i < event_nfamilies; i++)
		if (event_families[i].group)
			strbuf_addf(sb, "%s ", event_families[i].group);
	strbuf_addstr(sb, "none");	/* record: only what -e asks for */
}

static void add_sections(struct strbuf *sb)
{
	for (int i = 0; i < report_nsections; i++)
		strbuf_addf(sb, "%s%s", i ? " " : "", report_sections[i].name);
}

static void add_charts(struct strbuf *sb)
{
	for (int i = 0; i < plot_ncharts; i++)
		strbuf_addf(sb, "%s%s", i ? " " : "", plot_charts[i].name);
}

static void add_codecs(struct strbuf *sb)
{
	static const enum codec_id ids[] = { CODEC_ZSTD, CODEC_ZLIB, CODEC_NONE };
	int n = 0;

	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
		if (codec_available(ids[i]))
			strbuf_addf(sb, "%s%s", n++ ? " " : "", codec_name(ids[i]));
}

/* Values that come from a table (or that the usage names only in words). */
static const struct value_src {
	const char *cmd;	/* NULL: any command */
	const char *opt;	/* its long option */
	enum vkind kind;
	const char *words;
	void (*add)(struct strbuf *sb);
} value_srcs[] = {
	{ "record", "--groups", V_LIST, NULL, add_groups },
	{ "report", "--section", V_WORDS, NULL, add_sections },
	{ "report", "--format", V_WORDS, "text json html", NULL },
	{ "plot", "--what", V_LIST, NULL, add_charts },
	{ "compare", "--format", V_WORDS, "text json html", NULL },
	{ "compare", "--dialect", V_WORDS, "mmtests plain", NULL },
	{ NULL, "--compression", V_WORDS, NULL, add_codecs },
	{ "plot", "--what", V_LIST, "watermarks fallback clusters stalls unusable", NULL },
	{ "export", "--schema", V_WORDS, "sqlite clickhouse", NULL },
	{ "export", "--format", V_WORDS, "csv jsonl", NULL },
	/* NAME> for a trigger that needs a value, typed right after it */
	{ NULL, "--trigger", V_QUOTED, "psi-some> stall-ms> fallback-rate> memcg-oom memcg-max "
	  "memcg-high oom reclaim-stall> compact-stall> kswapd-awake> no-handoff>", NULL },
};

/* Commands that take another command's options after one of theirs. */
static const struct {
	const char *cmd, *when, *also;
} borrows[] = {
	{ "tui", "--live", "record" },	/* tui --live [record options] */
};

struct opt {
	char *shortname;	/* "-o" or NULL */
	char *longname;		/* "--output" or NULL */
	char *arg;		/* "FILE" or NULL */
};

static char *dup_n(const char *s, size_t n)
{
	char *r = xmalloc(n + 1);

	memcpy(r, s, n);
	r[n] = '\0';
	return r;
}

/* One usage line: "  -o, --output FILE   help" gives -o, --output, FILE. */
static int parse_line(const char *l, size_t len, struct opt *o)
{
	size_t i = 0;

	memset(o, 0, sizeof(*o));
	while (i < len && l[i] == ' ')
		i++;
	if (i == 0 || i >= len || l[i] != '-')
		return 0;
	for (;;) {
		size_t start = i;

		while (i < len && l[i] != ' ' && l[i] != ',')
			i++;
		if (i - start == 2 && l[start] == '-' && l[start + 1] != '-' && !o->shortname)
			o->shortname = dup_n(l + start, 2);
		else if (i - start > 2 && !strncmp(l + start, "--", 2) && !o->longname) {
			/* "--fail-on-regression[=PCT]": the name without its
			 * optional value */
			size_t n = i - start;

			for (size_t k = 2; k < n; k++)
				if (l[start + k] == '[' || l[start + k] == '=') {
					n = k;
					break;
				}
			o->longname = dup_n(l + start, n);
		}
		else
			break;
		if (i < len && l[i] == ',') {
			i++;
			while (i < len && l[i] == ' ')
				i++;
			if (i < len && l[i] == '-')
				continue;
			break;
		}
		/* one space then a word: the option's value */
		if (i + 1 < len && l[i] == ' ' && l[i + 1] != ' ' && l[i + 1] != '-') {
			start = ++i;
			while (i < len && l[i] != ' ')
				i++;
			o->arg = dup_n(l + start, i - start);
		}
		break;
	}
	if (!o->shortname && !o->longname) {
		free(o->arg);
		return 0;
	}
	return 1;
}

static size_t parse_usage(const char *usage, struct opt **out)
{
	struct opt *opts = NULL, o;
	size_t n = 0;

	for (const char *p = usage; *p;) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);

		if (parse_line(p, len, &o)) {
			opts = xreallocarray(opts, n + 1, sizeof(*opts));
			opts[n++] = o;
		}
		p += len + (eol ? 1 : 0);
	}
	*out = opts;
	return n;
}

static int arg_is(const char *arg, const char *const *names)
{
	for (; *names; names++)
		if (!strcmp(arg, *names))
			return 1;
	return 0;
}

/* How the value of option o of command cmd completes; words into sb. */
static enum vkind value_of(const char *cmd, const struct opt *o, struct strbuf *sb)
{
	static const char *const files[] = { "FILE", "IN", "OUT", NULL };
	static const char *const dirs[] = { "DIR", "PATH", "SPOOL", NULL };

	for (size_t i = 0; i < sizeof(value_srcs) / sizeof(value_srcs[0]); i++) {
		const struct value_src *v = &value_srcs[i];

		if ((v->cmd && strcmp(v->cmd, cmd)) || !o->longname || strcmp(v->opt, o->longname))
			continue;
		if (v->add)
			v->add(sb);
		else
			strbuf_addstr(sb, v->words);
		return v->kind;
	}
	if (strchr(o->arg, '|')) {
		for (const char *c = o->arg; *c; c++)
			if (*c != '[' && *c != ']')
				strbuf_addch(sb, *c == '|' ? ' ' : *c);
		return V_WORDS;
	}
	if (arg_is(o->arg, files))
		return V_FILES;
	if (arg_is(o->arg, dirs))
		return V_DIRS;
	return V_NONE;
}

static void print_pattern(const struct opt *o)
{
	printf("\t%s%s%s)", o->shortname ? o->shortname : "",
	       o->shortname && o->longname ? "|" : "", o->longname ? o->longname : "");
}

static int command_known(const struct cmd_entry *const *cmds, size_t ncmds, const char *name)
{
	for (size_t i = 0; i < ncmds; i++)
		if (!strcmp(cmds[i]->name, name))
			return 1;
	return 0;
}

static void print_command(const struct cmd_entry *const *cmds, size_t ncmds,
			  const struct cmd_entry *cmd)
{
	struct opt *opts;
	size_t n = parse_usage(cmd->usage, &opts);
	struct strbuf sb = STRBUF_INIT;

	printf("\n_mmscope_cmd_%s()\n{\n\topts=\"$opts", cmd->name);
	for (size_t i = 0; i < n; i++)
		printf("%s%s%s%s", opts[i].shortname ? " " : "",
		       opts[i].shortname ? opts[i].shortname : "", opts[i].longname ? " " : "",
		       opts[i].longname ? opts[i].longname : "");
	printf("\"\n\tcase $prev in\n");
	for (size_t i = 0; i < n; i++) {
		if (!opts[i].arg)
			continue;
		strbuf_reset(&sb);
		print_pattern(&opts[i]);
		switch (value_of(cmd->name, &opts[i], &sb)) {
		case V_WORDS:
			printf(" _mmscope_words \"%s\" ;;\n", sb.buf ? sb.buf : "");
			break;
		case V_LIST:
			printf(" _mmscope_list \"%s\" ;;\n", sb.buf ? sb.buf : "");
			break;
		case V_QUOTED:
			printf(" _mmscope_quoted \"%s\" ;;\n", sb.buf ? sb.buf : "");
			break;
		case V_FILES:
			printf(" _mmscope_files ;;\n");
			break;
		case V_DIRS:
			printf(" _mmscope_dirs ;;\n");
			break;
		case V_NONE:
			printf(" ;;\n");
			break;
		}
	}
	printf("\t*)");
	for (size_t i = 0; i < sizeof(borrows) / sizeof(borrows[0]); i++)
		if (!strcmp(borrows[i].cmd, cmd->name) && command_known(cmds, ncmds, borrows[i].also))
			printf("\n\t\tif _mmscope_seen %s; then _mmscope_cmd_%s; return; fi",
			       borrows[i].when, borrows[i].also);
	printf("\n\t\treturn 1 ;;\n\tesac\n}\n");
	for (size_t i = 0; i < n; i++) {
		free(opts[i].shortname);
		free(opts[i].longname);
		free(opts[i].arg);
	}
	free(opts);
	strbuf_release(&sb);
}

/* The part that does not depend on the tables. */
static const char script_head[] =
"# the value of an option: one word, a comma list, a file, a directory\n"
"_mmscope_words() { mapfile -t COMPREPLY < <(compgen -W \"$1\" -- \"$cur\"); }\n"
"_mmscope_list()\n"
"{\n"
"\tlocal pre= last=$cur\n"
"\tcase $cur in *,*) pre=${cur%,*}, last=${cur##*,} ;; esac\n"
"\tmapfile -t COMPREPLY < <(compgen -P \"$pre\" -W \"$1\" -- \"$last\")\n"
"\tcompopt -o nospace 2>/dev/null || :\n"
"}\n"
"# words with '>': inserted as \\>, so that the value typed after one is\n"
"# not a redirection (no space after it: the value comes next)\n"
"_mmscope_quoted()\n"
"{\n"
"\tlocal w\n"
"\tCOMPREPLY=()\n"
"\twhile read -r w; do\n"
"\t\t[[ -n $w ]] && COMPREPLY+=(\"$(printf '%q' \"$w\")\")\n"
"\tdone < <(compgen -W \"$1\" -- \"${cur//\\\\/}\")\n"
"\tif ((${#COMPREPLY[@]} == 1)) && [[ ${COMPREPLY[0]} == *'>' ]]; then\n"
"\t\tcompopt -o nospace 2>/dev/null || :\n"
"\tfi\n"
"}\n"
"_mmscope_files()\n"
"{\n"
"\tcompopt -o filenames 2>/dev/null || :\n"
"\tmapfile -t COMPREPLY < <(compgen -f -- \"$cur\")\n"
"}\n"
"_mmscope_dirs()\n"
"{\n"
"\tcompopt -o filenames 2>/dev/null || :\n"
"\tmapfile -t COMPREPLY < <(compgen -d -- \"$cur\")\n"
"}\n"
"# _mmscope_seen WORD: WORD is on the line before the cursor\n"
"_mmscope_seen()\n"
"{\n"
"\tlocal j\n"
"\tfor ((j = 1; j < COMP_CWORD; j++)); do\n"
"\t\t[[ ${COMP_WORDS[j]} == \"$1\" ]] && return 0\n"
"\tdone\n"
"\treturn 1\n"
"}\n";

static const char script_main[] =
"\n_mmscope()\n"
"{\n"
"\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev= cmd= opts= i ci=0\n"
"\tCOMPREPLY=()\n"
"\t((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}\n"
"\t# --opt=value: bash splits at the '='\n"
"\tif [[ $cur == = ]] && ((COMP_CWORD > 1)); then\n"
"\t\tcur=\n"
"\telif [[ $prev == = ]] && ((COMP_CWORD > 2)); then\n"
"\t\tprev=${COMP_WORDS[COMP_CWORD - 2]}\n"
"\tfi\n"
"\t# the command: the first word after mmscope that is not an option\n"
"\tfor ((i = 1; i < COMP_CWORD; i++)); do\n"
"\t\tcase ${COMP_WORDS[i]} in\n"
"\t\t-*) ;;\n"
"\t\t*) cmd=${COMP_WORDS[i]} ci=$i; break ;;\n"
"\t\tesac\n"
"\tdone\n"
"\tif [[ -z $cmd ]]; then\n"
"\t\t_mmscope_words \"$_mmscope_commands help --help --version\"\n"
"\t\treturn 0\n"
"\tfi\n"
"\tif [[ $cmd == help ]]; then\n"
"\t\t((COMP_CWORD == ci + 1)) && _mmscope_words \"$_mmscope_commands\"\n"
"\t\treturn 0\n"
"\tfi\n"
"\t# after \"--\": the command to run, then its arguments\n"
"\tfor ((i = ci + 1; i < COMP_CWORD; i++)); do\n"
"\t\tif [[ ${COMP_WORDS[i]} == -- ]]; then\n"
"\t\t\tif ((i == COMP_CWORD - 1)); then\n"
"\t\t\t\tmapfile -t COMPREPLY < <(compgen -c -- \"$cur\")\n"
"\t\t\telse\n"
"\t\t\t\t_mmscope_files\n"
"\t\t\tfi\n"
"\t\t\treturn 0\n"
"\t\tfi\n"
"\tdone\n"
"\tcase \" $_mmscope_commands \" in\n"
"\t*\" $cmd \"*) ;;\n"
"\t*) return 0 ;;\n"
"\tesac\n"
"\t# the value of the option before the cursor, if it takes one\n"
"\t\"_mmscope_cmd_$cmd\" && return 0\n"
"\tif [[ $cur == -* ]]; then\n"
"\t\t_mmscope_words \"$opts\"\n"
"\telse\n"
"\t\t_mmscope_files\n"
"\tfi\n"
"\treturn 0\n"
"}\n"
"complete -F _mmscope mmscope\n";

static int completion_bash(const struct cmd_entry *const *cmds, size_t ncmds)
{
	struct strbuf sb = STRBUF_INIT;

	printf("# bash completion for mmscope %s -*- shell-script -*-\n"
	       "# Made by 'mmscope completion bash' from the command table, the\n"
	       "# options in each command's --help, the event groups and the report\n"
	       "# sections of this build. Do not edit: the build writes it again.\n\n",
	       PACKAGE_VERSION);
	printf("_mmscope_commands=\"");
	for (size_t i = 0; i < ncmds; i++)
		printf("%s%s", i ? " " : "", cmds[i]->name);
	add_groups(&sb);
	printf("\"\n_mmscope_groups=\"%s\"\n", sb.buf ? sb.buf : "");
	strbuf_reset(&sb);
	add_sections(&sb);
	printf("_mmscope_sections=\"%s\"\n\n", sb.buf ? sb.buf : "");
	strbuf_release(&sb);
	fputs(script_head, stdout);
	for (size_t i = 0; i < ncmds; i++)
		print_command(cmds, ncmds, cmds[i]);
	fputs(script_main, stdout);
	return EXIT_OK;
}

int completion_main(int argc, char **argv, const struct cmd_entry *const *cmds,
		    size_t ncmds)
{
	if (argc == 2 && !strcmp(argv[1], "bash"))
		return completion_bash(cmds, ncmds);
	fprintf(stderr, "error: %s\nusage: mmscope completion bash\n",
		argc < 2 ? "no shell given" : argc > 2 ? "too many arguments" : "only bash is supported");
	return EXIT_USAGE;
}
