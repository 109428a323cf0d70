// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What every front end shares: git-style messages ("error: ...",
 * "warning: ..."), usage errors, the stdout flush check, and opening a
 * recording with a one-line reason when that fails.
 */
#include "config.h"
#include "analysis.h"
#include "cmd.h"
#include "sampler.h"
#include "util.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static void vreport(const char *prefix, const char *fmt, va_list ap)
{
	fflush(stdout);
	fputs(prefix, stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

int error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("error: ", fmt, ap);
	va_end(ap);
	return EXIT_ERROR;
}

void warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("warning: ", fmt, ap);
	va_end(ap);
}

int usage_error(const struct cmd_entry *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("error: ", fmt, ap);
	va_end(ap);
	if (cmd) {
		/* the synopsis only: the text up to the first blank line */
		const char *end = strstr(cmd->usage, "\n\n");

		fprintf(stderr, "%.*s\nsee 'mmscope %s --help'\n",
			end ? (int)(end - cmd->usage) : (int)strlen(cmd->usage),
			cmd->usage, cmd->name);
	} else
		fprintf(stderr, "usage: mmscope [--help] [--version] COMMAND [ARGS]\n");
	return EXIT_USAGE;
}

int show_help(const struct cmd_entry *cmd)
{
	fputs(cmd->usage, stdout);
	return finish_stdout(EXIT_OK);
}

int bad_option(const struct cmd_entry *cmd, int argc, char **argv)
{
	const char *opt = optind > 0 && optind <= argc ? argv[optind - 1] : "?";

	/*
	 * A short option getopt knows nothing about sets optopt to its
	 * letter; a long option's optopt is its value (often >= 256), so
	 * name it as the user typed it.
	 */
	if (optopt > 0 && optopt < 128 && optopt != '?' && strncmp(opt, "--", 2))
		return usage_error(cmd, "option '-%c' is unknown or needs a value", optopt);
	if (!strncmp(opt, "--", 2)) {
		const char *eq = strchr(opt, '=');

		return usage_error(cmd, "option '%.*s' is unknown or needs a value",
				   eq ? (int)(eq - opt) : (int)strlen(opt), opt);
	}
	return usage_error(cmd, "option '%s' is unknown or needs a value", opt);
}

int parse_compression(const struct cmd_entry *cmd, const char *name,
		      enum codec_id *codec)
{
	if (codec_from_name(name, codec))
		return usage_error(cmd, "unknown compression '%s' (zstd, zlib or none)", name);
	if (!codec_available(*codec))
		return usage_error(cmd, "this mmscope was built without %s", name);
	return 0;
}

int parse_interval(const struct cmd_entry *cmd, const char *arg, unsigned *ms)
{
	unsigned long long v;

	if (parse_ull(arg, &v) || v < 10 || v > 3600000)
		return usage_error(cmd, "bad --interval '%s' (10..3600000 ms)", arg);
	*ms = (unsigned)v;
	return 0;
}

int parse_cgroups_opt(const struct cmd_entry *cmd, int max, const char *arg,
		      const char **root, int *n)
{
	unsigned long long v;

	if (!max) {
		/* the sampler resolves ROOT (missing: a missing source); an
		 * empty one names nothing to resolve */
		if (!*arg)
			return usage_error(cmd, "bad --cgroups '' (a memory cgroup directory)");
		*root = arg;
		return 0;
	}
	if (parse_ull(arg, &v) || v < 1 || v > SAMPLER_CGROUPS_MAX_MAX)
		return usage_error(cmd, "bad --cgroups-max '%s' (1..%d)", arg,
				   SAMPLER_CGROUPS_MAX_MAX);
	*n = (int)v;
	return 0;
}

int check_cgroups_opts(const struct cmd_entry *cmd, const char *root, int n)
{
	if (n && !root)
		return usage_error(cmd, "--cgroups-max needs --cgroups");
	return 0;
}

int parse_duration(const struct cmd_entry *cmd, const char *arg, uint64_t *ns)
{
	if (parse_duration_ns(arg, ns) || !*ns)
		return usage_error(cmd, "bad --duration '%s'", arg);
	return 0;
}

int finish_stdout(int status)
{
	if (fflush(stdout) || ferror(stdout)) {
		if (errno == EPIPE)
			return status;
		fprintf(stderr, "error: cannot write output: %s\n", strerror(errno));
		return EXIT_ERROR;
	}
	return status;
}

struct td_file *open_recording(const char *path, const char *name)
{
	char *err = NULL;
	struct td_file *tf = td_open(path, &err);

	if (!name)
		name = path;
	if (!tf) {
		error("%s: %s", name, err ? err : "cannot read");
		free(err);
		return NULL;
	}
	int bad;
	const char *first;

	bad = td_bad_formats(tf, &first);
	if (bad && getenv("MMSCOPE_WARN_FORMATS"))
		warning("%s: %d event format%s did not parse (first: %s)", name, bad,
			bad == 1 ? "" : "s", first ? first : "?");
	return tf;
}

int parse_jobs(const struct cmd_entry *cmd, const char *arg, int *jobs)
{
	unsigned long long n;

	if (parse_ull(arg, &n) || n < 1 || n > 1024)
		return usage_error(cmd, "bad --jobs '%s' (1 to 1024)", arg);
	*jobs = (int)n;
	return 0;
}
