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
#include "inputs.h"
#include "report-history.h"
#include "model-oom.h"
#include "output-file.h"
#include "plot.h"
#include "run-stop.h"
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
			if ((s = scope_or_bad_option(cmd, c, optarg, &o->scope, argc, argv)))
				return s;
			break;
		}
	}
	if ((s = check_scope(cmd, &o->scope)))
		return s;
	if ((s = inputs_args_check(cmd, argv + optind, argc - optind)))
		return s;
	o->args = argv + optind;
	o->nargs = argc - optind;
	if (!o->what)
		o->what = (1u << plot_ncharts) - 1;
	return 0;
}

/* ---- the input ---- */

/* All of plot's input: the shared input layer (inputs.h), one host's
 * history; its runs the scope selects into *sel. Several hosts are
 * refused there, with a line per run. */
static int plot_input(char **args, int nargs, const struct analysis_scope *scope,
		      struct inputs *in, struct inputs_sel **sel, int *nsel)
{
	char *err = NULL;
	int bad = 0, r = EXIT_OK;

	inputs_init(in);
	in->scope = *scope;
	if (inputs_open(in, args, nargs, &err))
		r = EXIT_ERROR;
	else if (inputs_one(in, &err))
		r = EXIT_USAGE;
	else if (inputs_select(in, 0, sel, nsel, &err, &bad))
		r = bad ? EXIT_USAGE : EXIT_ERROR;
	if (r)
		error("%s", err ? err : "cannot read");
	free(err);
	return r;
}

/* ---- the picture ---- */

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* The title, and under it what the picture covers: the window, the
 * tasks of a scope, and the OOM kills that are marked. */
static void plot_title(struct plot *p, const char *run)
{
	const struct analysis_info *in = analysis_info(p->a);
	const struct oom_model *om = analysis_model(p->a, &oom_model_ops);
	struct strbuf t = STRBUF_INIT;

	strbuf_addf(&t, "%s%s: kernel %s, host %s, ", run ? run : "",
		    base_name(in->path ? in->path : "-"),
		    in->kernel[0] ? in->kernel : "unknown", in->host[0] ? in->host : "unknown");
	if (in->windowed)
		strbuf_addf(&t, "window %.3f .. %.3f s", (double)(p->t0 - in->first_ts) / 1e9,
			    (double)(p->t1 - in->first_ts) / 1e9);
	else
		strbuf_addf(&t, "%.1f s", (double)(in->last_ts - in->first_ts) / 1e9);
	plot_text(p, PLOT_W / 2, p->y + 30, "middle", 18, "font-weight=\"bold\"", t.buf);
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
			strbuf_addf(&t, "memory cgroup %s (%llu task%s)", in->scope_cgroup,
				    (unsigned long long)in->scope_tasks,
				    in->scope_tasks == 1 ? "" : "s");
		strbuf_addstr(&t, " only; zones, kswapd and swap of all");
	}
	if (oom_model_seen(om) || analysis_event_enabled(p->a, "oom", "mark_victim")) {
		int n = oom_model_nkills(om);

		strbuf_addf(&t, "; OOM kills: %d%s", n, n ? " (marked in red)" : "");
	} else {
		strbuf_addstr(&t, "; OOM kills: not recorded (mmscope record -g oom)");
	}
	/* the trigger of a flight file; a stop the command's exit was not */
	struct run_stop st;

	run_stop_parse2(&st, analysis_private_meta(p->a), analysis_last_meta(p->a));
	if (st.has_trigger) {
		strbuf_addf(&t, "; trigger %s", st.name ? st.name : st.kind ? st.kind : "-");
		if (st.has_ns)
			strbuf_addf(&t, " at %.3f s (marked in purple)",
				    (double)(int64_t)(st.ns - in->first_ts) / 1e9);
	} else if (st.stop && strcmp(st.stop, "command-exit")) {
		strbuf_addf(&t, "; stopped: %s", run_stop_text(&st, 1));
	}
	run_stop_release(&st);
	plot_text(p, PLOT_W / 2, p->y + 52, "middle", 12, "fill=\"#606060\"", t.buf);
	strbuf_release(&t);
	p->y += 70;
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

/* One run's title and charts at p->y; the status. */
static int plot_run(const struct plot_opts *o, struct inputs *in, const struct inputs_sel *sel,
		    int multi, struct plot *p)
{
	const struct analysis_info *info;
	struct analysis_opts ao;
	struct analysis *a;
	char *err = NULL, run[64];
	int bad = 0, r = EXIT_OK;
	const struct history_run *hr = &in->hist.run[sel->run];

	analysis_opts_default(&ao);
	a = inputs_run_analysis(in, sel, &ao, &err, &bad);
	if (!a) {
		const struct input_rec *rec = &in->rec[hr->in];

		r = rec->n == 1 ? error("%s: %s", rec->name, err ? err : "cannot read") :
				  error("%s", err ? err : "cannot read");
		free(err);
		return bad ? EXIT_USAGE : r;
	}
	info = analysis_info(a);
	if (info->windowed && !info->events) {
		r = error("%s: no event in the window (%s): nothing to draw",
			  base_name(info->path ? info->path : "-"),
			  info->empty_window ? info->empty_window : "empty");
		analysis_free(a);
		return r;
	}
	/* the x axis is the window the models saw: its events' span */
	p->a = a;
	p->first = info->first_ts;
	p->t0 = info->windowed && info->since_ts > info->first_ts ? info->since_ts :
		info->first_ts;
	p->t1 = info->windowed && info->until_ts < info->last_ts ? info->until_ts : info->last_ts;
	if (p->t1 < p->t0)
		p->t1 = p->t0;
	snprintf(run, sizeof(run), "run %d of %d, ",
		 sel->run - in->hist.host_first[hr->host] + 1, in->hist.host_n[hr->host]);
	plot_title(p, multi ? run : NULL);
	for (int c = 0; c < plot_ncharts; c++)
		if (o->what & (1u << c))
			plot_charts[c].draw(p);
	analysis_free(a);
	p->a = NULL;
	return r;
}

/*
 * One picture: a history of one run as ever; of several, each run's
 * charts under its title, one after another in time order, and between
 * two the gap (not recorded) with how the one ended and the next began.
 */
static int cmd_plot_run(int argc, char **argv)
{
	struct plot_opts o;
	struct inputs in;
	struct inputs_sel *sel = NULL;
	struct strbuf svg = STRBUF_INIT, line = STRBUF_INIT;
	struct plot p = { 0 };
	int nsel = 0, multi, r = plot_parse_opts(argc, argv, &o);

	if (r < 0)
		return plot_help();
	if (r > 0)
		return r;
	r = plot_input(o.args, o.nargs, &o.scope, &in, &sel, &nsel);
	multi = !r && in.hist.host_n[0] > 1;
	for (int k = 0; k < nsel && !r; k++) {
		if (multi) {
			strbuf_reset(&line);
			if (k)
				history_gap_line(&in, sel[k].run, &line);
			if (line.len) {	/* one line, without its newline */
				line.buf[--line.len] = '\0';
				plot_text(&p, PLOT_W / 2, p.y + 24, "middle", 13,
					  "fill=\"#a01010\" font-style=\"italic\"", line.buf);
				p.y += 30;
			}
		}
		r = plot_run(&o, &in, &sel[k], multi, &p);
	}
	if (!r) {
		strbuf_addf(&svg, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
			    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
			    "height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
			    "font-family=\"DejaVu Sans, Arial, sans-serif\">\n"
			    "<rect width=\"100%%\" height=\"100%%\" fill=\"#fafafa\"/>\n",
			    PLOT_W, p.y + 10, PLOT_W, p.y + 10);
		strbuf_add(&svg, p.body.buf ? p.body.buf : "", p.body.len);
		strbuf_addstr(&svg, "</svg>\n");
		r = write_svg(&o, &svg);
	}
	strbuf_release(&p.body);
	strbuf_release(&line);
	strbuf_release(&svg);
	free(sel);
	inputs_release(&in);
	return r;
}

const struct cmd_entry cmd_plot_entry = {
	.name = "plot",
	.summary = "draw a recording's watermarks, fallbacks, swap clusters, stalls as SVG",
	.usage = plot_usage,
	.run = cmd_plot_run,
};
