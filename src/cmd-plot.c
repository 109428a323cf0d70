// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mmscope plot: charts of one recording as a self-contained SVG file, for
 * bug reports, reviews and posts (the TUI shows the same in a terminal).
 * This file is the command: its options, its input (plot_input(): the
 * arguments and the scope into one analysis), the picture's title and
 * the output file. The charts are plot_charts[] (plot-charts.c), drawn
 * with plot-svg.c. The output depends on the recording alone (no clock,
 * no locale), so it can be held to goldens.
 */
#include "config.h"
#include "analysis.h"
#include "cmd.h"
#include "input-file.h"
#include "model-oom.h"
#include "output-file.h"
#include "plot.h"
#include "tracedat-set.h"
#include "util.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char plot_usage[] =
"usage: mmscope plot [options] FILE|DIR...\n"
"\n"
"Draw charts of one recording as one SVG file. FILE may be '-' (standard\n"
"input). Several files, or a directory of them, must be the parts of one\n"
"recording (as record writes them with its switch-output option); files\n"
"of different recordings are refused.\n"
"\n"
"  -o, --output FILE    write the SVG to FILE (default: standard output)\n"
"  -f, --force          replace FILE if it exists\n"
"  -w, --what NAME      only this chart (repeat, or separate with ','; the\n"
"                       charts are below)\n"
SCOPE_USAGE
"  -h, --help           show this help\n";

/* --help: the usage, then the charts from the table */
static int plot_help(void)
{
	fputs(plot_usage, stdout);
	printf("\ncharts, in the order they draw:\n");
	for (int i = 0; i < plot_ncharts; i++)
		printf("  %-12s%s\n  %-12s(needs %s)\n", plot_charts[i].name, plot_charts[i].help,
		       "", plot_charts[i].needs);
	return finish_stdout(EXIT_OK);
}

static void chart_names(struct strbuf *sb)
{
	for (int i = 0; i < plot_ncharts; i++)
		strbuf_addf(sb, "%s%s", i ? ", " : "", plot_charts[i].name);
}

static int plot_parse_what(const char *arg, unsigned *what)
{
	char *dup = xstrdup(arg), *save = NULL;
	int r = 0, c;

	for (char *t = strtok_r(dup, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		if ((c = plot_chart_find(t)) < 0)
			r = -1;
		else
			*what |= 1u << c;
	}
	free(dup);
	return r;
}

struct plot_opts {
	const char *out;
	int force;
	unsigned what;		/* bit per plot_charts[] entry */
	struct analysis_scope scope;
	char **args;		/* FILE|DIR... */
	int nargs;
};

/* 0, -1 for --help, or the exit status of a bad command line. */
static int plot_parse_opts(int argc, char **argv, struct plot_opts *o)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "force", no_argument, NULL, 'f' },
		{ "what", required_argument, NULL, 'w' },
		{ "help", no_argument, NULL, 'h' },
		SCOPE_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	const struct cmd_entry *cmd = &cmd_plot_entry;
	int c, s;

	memset(o, 0, sizeof(*o));
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "o:fw:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			o->out = optarg;
			break;
		case 'f':
			o->force = 1;
			break;
		case 'w':
			if (plot_parse_what(optarg, &o->what)) {
				struct strbuf names = STRBUF_INIT;

				chart_names(&names);
				c = usage_error(cmd, "unknown chart in '%s' (%s)", optarg, names.buf);
				strbuf_release(&names);
				return c;
			}
			break;
		case 'h':
			return -1;
		default:
			if ((s = parse_scope(cmd, c, optarg, &o->scope)) >= 0) {
				if (s)
					return s;
				break;
			}
			return bad_option(cmd, argc, argv);
		}
	}
	if ((s = check_scope(cmd, &o->scope)))
		return s;
	if (optind == argc)
		return usage_error(cmd, "no recording given");
	o->args = argv + optind;
	o->nargs = argc - optind;
	if (!o->what)
		o->what = (1u << plot_ncharts) - 1;
	return 0;
}

/* ---- the input ---- */

/* What the analysis was read from, kept until it is freed (the names in
 * its header point into it). */
struct plot_input {
	struct input_file in;	/* one file or '-' */
	int have_in;
	char **paths;		/* a directory's or several files */
	int npaths;
};

static int is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/* Exit 2 and one line when paths hold more than one recording. */
static int one_recording(char **paths, int n)
{
	int *group = xcalloc((size_t)n + 1, sizeof(*group)), ng = 0, r = 0;
	char *err = NULL;

	if (td_set_group((const char *const *)paths, n, group, &ng, &err)) {
		r = error("%s", err);
		free(err);
	} else if (ng > 1) {
		struct strbuf sb = STRBUF_INIT;

		for (int g = 0; g < ng; g++) {
			int first = -1, k = 0;

			for (int i = 0; i < n; i++)
				if (group[i] == g && !k++)
					first = i;
			strbuf_addf(&sb, "%s%s", g ? ", " : "", paths[first]);
			if (k > 1)
				strbuf_addf(&sb, " (%d files)", k);
		}
		error("%d recordings, plot draws one (plot each alone): %s", ng, sb.buf);
		strbuf_release(&sb);
		r = EXIT_USAGE;
	}
	free(group);
	return r;
}

/*
 * All of plot's input: the arguments (one FILE or '-', several files or
 * a directory of one recording's parts) and the scope into one analysis.
 * NULL with the error printed and *status set (2: a bad command line,
 * several recordings, a scope the recording cannot answer; 1: a file that
 * cannot be read). The one function to change when plot reads through a
 * shared input layer.
 */
static struct analysis *plot_input(char **args, int nargs, const struct analysis_scope *scope,
				   struct plot_input *pi, int *status)
{
	struct analysis_opts ao;
	struct analysis *a;
	char *err = NULL;
	int bad = 0;

	memset(pi, 0, sizeof(*pi));
	analysis_opts_default(&ao);
	ao.scope = *scope;
	for (int i = 0; nargs > 1 && i < nargs; i++)
		if (!strcmp(args[i], "-")) {
			*status = usage_error(&cmd_plot_entry, "'-' (standard input) only alone");
			return NULL;
		}
	if (nargs == 1 && !is_dir(args[0])) {
		if (input_file_open(&pi->in, args[0], &err)) {
			*status = error("%s", err);
			free(err);
			return NULL;
		}
		pi->have_in = 1;
		ao.name = pi->in.name;
		a = analysis_run_scoped(pi->in.path, &ao, &err, &bad);
	} else {
		if (input_expand(args, nargs, &pi->paths, &pi->npaths, &err)) {
			*status = error("%s", err);
			free(err);
			return NULL;
		}
		if (pi->npaths > 1 && (*status = one_recording(pi->paths, pi->npaths)))
			return NULL;
		ao.name = pi->paths[0];
		a = analysis_run_files((const char *const *)pi->paths, pi->npaths, NULL, &ao,
				       &err, &bad);
	}
	if (!a) {
		*status = bad ? EXIT_USAGE : EXIT_ERROR;
		error("%s: %s", pi->have_in ? pi->in.name : pi->paths[0], err ? err : "cannot read");
		free(err);
	}
	return a;
}

static void plot_input_release(struct plot_input *pi)
{
	if (pi->have_in)
		input_file_release(&pi->in);
	input_expand_free(pi->paths, pi->npaths);
	memset(pi, 0, sizeof(*pi));
}

/* ---- the picture ---- */

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* The title, and under it what the picture covers: the window, the
 * tasks of a scope, and the OOM kills that are marked. */
static void plot_title(struct plot *p)
{
	const struct analysis_info *in = analysis_info(p->a);
	const struct oom_model *om = analysis_model(p->a, &oom_model_ops);
	struct strbuf t = STRBUF_INIT;

	strbuf_addf(&t, "%s: kernel %s, host %s, ", base_name(in->path ? in->path : "-"),
		    in->kernel[0] ? in->kernel : "unknown", in->host[0] ? in->host : "unknown");
	if (in->windowed)
		strbuf_addf(&t, "window %.3f .. %.3f s", (double)(p->t0 - in->first_ts) / 1e9,
			    (double)(p->t1 - in->first_ts) / 1e9);
	else
		strbuf_addf(&t, "%.1f s", (double)(in->last_ts - in->first_ts) / 1e9);
	plot_text(p, PLOT_W / 2, 30, "middle", 18, "font-weight=\"bold\"", t.buf);
	strbuf_reset(&t);
	strbuf_addstr(&t, "mmscope plot");
	if (in->task_scoped) {
		/* named as the report's header names them */
		strbuf_addstr(&t, "; stalls and OOM kills of ");
		if (in->scope_pid && in->scope_comm)
			strbuf_addf(&t, "pid %d if named %s", in->scope_pid, in->scope_comm);
		else if (in->scope_pid)
			strbuf_addf(&t, "pid %d", in->scope_pid);
		else if (in->scope_comm)
			strbuf_addf(&t, "comm %s (%llu task%s)", in->scope_comm,
				    (unsigned long long)in->scope_tasks,
				    in->scope_tasks == 1 ? "" : "s");
		else
			strbuf_addstr(&t, "the cgroup's tasks");
		strbuf_addstr(&t, " only; zones, kswapd and swap of all");
	}
	if (oom_model_seen(om) || analysis_event_enabled(p->a, "oom", "mark_victim")) {
		int n = oom_model_nkills(om);

		strbuf_addf(&t, "; OOM kills: %d%s", n, n ? " (marked in red)" : "");
	} else {
		strbuf_addstr(&t, "; OOM kills: not recorded (mmscope record -g oom)");
	}
	plot_text(p, PLOT_W / 2, 52, "middle", 12, "fill=\"#606060\"", t.buf);
	strbuf_release(&t);
}

static int write_svg(const struct plot_opts *o, const struct strbuf *svg)
{
	struct output_file out;
	char *err = NULL;
	size_t done = 0;
	int r;

	if (!o->out) {
		fwrite(svg->buf, 1, svg->len, stdout);
		return finish_stdout(EXIT_OK);
	}
	if (output_file_open(&out, o->out, o->force, &err)) {
		r = error("%s: %s", o->out, err);
		free(err);
		return r;
	}
	while (done < svg->len) {
		ssize_t w = write(out.fd, svg->buf + done, svg->len - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			r = error("%s: %s", o->out, w < 0 ? strerror(errno) : "cannot write");
			output_file_abort(&out);
			return r;
		}
		done += (size_t)w;
	}
	if (output_file_commit(&out, &err)) {
		r = error("%s: %s", o->out, err);
		free(err);
		return r;
	}
	return EXIT_OK;
}

static int cmd_plot_run(int argc, char **argv)
{
	struct plot_opts o;
	struct plot_input pi;
	const struct analysis_info *in;
	struct strbuf svg = STRBUF_INIT;
	struct analysis *a;
	struct plot p;
	int r = plot_parse_opts(argc, argv, &o);

	if (r < 0)
		return plot_help();
	if (r > 0)
		return r;
	a = plot_input(o.args, o.nargs, &o.scope, &pi, &r);
	if (!a) {
		plot_input_release(&pi);
		return r;
	}
	in = analysis_info(a);
	if (in->windowed && !in->events) {
		r = error("%s: no event in the window (%s): nothing to draw",
			  base_name(in->path ? in->path : "-"),
			  in->empty_window ? in->empty_window : "empty");
		analysis_free(a);
		plot_input_release(&pi);
		return r;
	}
	/* the x axis is the window the models saw: its events' span */
	p = (struct plot){ .a = a, .y = 70, .first = in->first_ts,
			   .t0 = in->windowed && in->since_ts > in->first_ts ? in->since_ts :
				 in->first_ts,
			   .t1 = in->windowed && in->until_ts < in->last_ts ? in->until_ts :
				 in->last_ts };
	if (p.t1 < p.t0)
		p.t1 = p.t0;
	plot_title(&p);
	for (int c = 0; c < plot_ncharts; c++)
		if (o.what & (1u << c))
			plot_charts[c].draw(&p);
	strbuf_addf(&svg, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
		    "viewBox=\"0 0 %.0f %.0f\" "
		    "font-family=\"DejaVu Sans, Arial, sans-serif\">\n"
		    "<rect width=\"100%%\" height=\"100%%\" fill=\"#fafafa\"/>\n",
		    PLOT_W, p.y + 10, PLOT_W, p.y + 10);
	strbuf_add(&svg, p.body.buf, p.body.len);
	strbuf_addstr(&svg, "</svg>\n");
	strbuf_release(&p.body);
	analysis_free(a);
	plot_input_release(&pi);
	r = write_svg(&o, &svg);
	strbuf_release(&svg);
	return r;
}

const struct cmd_entry cmd_plot_entry = {
	.name = "plot",
	.summary = "draw a recording's watermarks, fallbacks, swap clusters, stalls as SVG",
	.usage = plot_usage,
	.run = cmd_plot_run,
};
