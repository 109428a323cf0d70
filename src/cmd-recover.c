// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mmscope recover: finish the recording a killed recorder left in its
 * spool directory (SIGKILL, a crash, a power loss). Pages that were not
 * written completely are skipped; everything else becomes a normal
 * trace.dat, written under a temporary name and renamed when complete.
 * The spool is kept unless --remove is given. The spool's metadata is
 * the recorder's last (stop_reason=running): the file says instead that
 * it was recovered, and where each CPU's data ends.
 */
#include "config.h"
#include "cmd.h"
#include "collector.h"
#include "run-stop.h"
#include "spool.h"
#include "tracedat-read.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char recover_usage[] =
"usage: mmscope recover [options] SPOOL -o FILE\n"
"\n"
"Write the recording a killed 'mmscope record' left in SPOOL (by default\n"
"FILE.spool beside the file it was writing) as a trace.dat file.\n"
"\n"
"  -o, --output FILE          where to write (required)\n"
"      --compression C        zstd, zlib or none (default zstd)\n"
"  -f, --force                replace FILE if it exists\n"
"      --remove               remove SPOOL once FILE is written\n"
"      --no-ring              leave the dead recorder's tracefs instance alone\n"
"  -h, --help                 show this help\n";

struct recover_opts {
	const char *spool, *out;
	struct tw_opts w;
	int force, remove, no_ring;
};

/*
 * record --switch-output makes the next part's spool as PART.spool.new
 * and renames it once its formats and metadata are in; a recorder stopped
 * in between leaves it with no page in it (the pages go to the old part's
 * spool until the rename). There is nothing to recover from it.
 */
static int unused_next_spool(const char *dir)
{
	size_t n = strlen(dir);
	DIR *d;
	struct dirent *de;
	int empty = 1;

	while (n > 1 && dir[n - 1] == '/')
		n--;
	if (n < 10 || strncmp(dir + n - 10, ".spool.new", 10) || !(d = opendir(dir)))
		return 0;
	while ((de = readdir(d)) && empty) {
		struct stat st;
		char *path;

		if (strncmp(de->d_name, "cpu", 3))
			continue;
		path = xasprintf("%s/%s", dir, de->d_name);
		if (stat(path, &st) || st.st_size)
			empty = 0;
		free(path);
	}
	closedir(d);
	return empty;
}

static int recover_parse_opts(int argc, char **argv, struct recover_opts *o)
{
	enum { OPT_COMPRESSION = 256, OPT_REMOVE, OPT_NO_RING };
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "compression", required_argument, NULL, OPT_COMPRESSION },
		{ "force", no_argument, NULL, 'f' },
		{ "remove", no_argument, NULL, OPT_REMOVE },
		{ "no-ring", no_argument, NULL, OPT_NO_RING },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const struct cmd_entry *cmd = &cmd_recover_entry;
	int c;

	tw_opts_default(&o->w);
	opterr = 0;
	while ((c = getopt_long(argc, argv, "o:fh", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			o->out = optarg;
			break;
		case OPT_COMPRESSION:
			if (parse_compression(cmd, optarg, &o->w.codec))
				return EXIT_USAGE;
			o->w.level = codec_default_level(o->w.codec);
			break;
		case 'f':
			o->force = 1;
			break;
		case OPT_REMOVE:
			o->remove = 1;
			break;
		case OPT_NO_RING:
			o->no_ring = 1;
			break;
		case 'h':
			return -1;
		default:
			return bad_option(cmd, argc, argv);
		}
	}
	if (optind == argc)
		return usage_error(cmd, "no spool directory given");
	if (optind != argc - 1)
		return usage_error(cmd, "more than one spool directory given");
	o->spool = argv[optind];
	if (!o->out && !unused_next_spool(o->spool))
		return usage_error(cmd, "no output file given (-o FILE)");
	return 0;
}

/*
 * If the killed recorder's instance is still there, what its ring holds
 * was never read: take it into the spool first, then remove the instance.
 */
static int drain_ring(const char *dir)
{
	size_t n;
	char *inst = spool_read_meta(dir, "instance", &n), *err = NULL;
	char *meta = spool_read_meta(dir, "mmscope", &n);
	struct spool *s;
	long taken;

	/* a --switch-output part the recorder had finished (killed while a
	 * thread wrote it): its pages are all here, and what the ring holds
	 * is the next part's, for that part's spool */
	if (inst && td_meta_is(meta, "stop_reason", "switch-output")) {
		printf("%s: a finished part (stop_reason=switch-output): the ring is left to the "
		       "next part's spool\n", dir);
		free(inst);
		inst = NULL;
	}
	free(meta);
	if (!inst)
		return 0;
	s = spool_reopen(dir, &err);
	if (!s) {
		free(inst);
		error("%s", err);
		free(err);
		return -1;
	}
	taken = collector_drain_stale(inst, s, spool_ncpus(s), spool_page_size(s), &err);
	spool_close(s);
	if (taken < 0) {
		error("%s: %s", dir, err);
		free(err);
		free(inst);
		return -1;
	}
	if (taken)
		printf("%s: took %ld pages the recorder had not read from %s (instance removed)\n",
		       dir, taken, inst);
	free(inst);
	return 0;
}

/*
 * The spool's mmscope metadata made true for the recovered file: its
 * stop_reason and stop_detail become stop_reason=recovered with what the
 * spool said as the detail, and as spool_stop_reason and
 * spool_stop_detail ("running": killed while recording; a stop with
 * spool_state=stopping: killed while it stopped, e.g. after the SIGTERM
 * it was stopping on), and cpu_end_ns gives per CPU the trace time of
 * its last event ('-': none), the data having ended where the recorder
 * died rather than at a stop. The spool's command_* keys stay: the
 * command's outcome when the recorder had reaped it, else
 * command_state=running. NULL when the spool has none.
 */
static char *recovered_meta(const char *dir, char **err)
{
	size_t n;
	char *old = spool_read_meta(dir, "mmscope", &n), *line, *save = NULL;
	char *said = NULL, *detail = NULL;
	struct strbuf sb = STRBUF_INIT;
	uint32_t page_size;
	int ncpus;

	if (!old)
		return NULL;
	if (spool_layout(dir, &ncpus, &page_size, err)) {
		free(old);
		return NULL;
	}
	for (line = strtok_r(old, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, "stop_reason=", 12))
			said = line + 12;
		else if (!strncmp(line, "stop_detail=", 12))
			detail = line + 12;
		else if (strncmp(line, "cpu_end_ns=", 11) && strncmp(line, "spool_stop_", 11))
			strbuf_addf(&sb, "%s\n", line);
	}
	strbuf_addstr(&sb, "stop_reason=recovered\n");
	strbuf_addf(&sb, "stop_detail=from the spool of a recorder that did not finish "
		    "(it said: %s%s%s)\n", said ? said : "-", detail ? "; " : "",
		    detail ? detail : "");
	if (said)
		strbuf_addf(&sb, "spool_stop_reason=%s\n", said);
	if (detail)
		strbuf_addf(&sb, "spool_stop_detail=%s\n", detail);
	strbuf_addstr(&sb, "cpu_end_ns=");
	for (int cpu = 0; cpu < ncpus; cpu++) {
		uint64_t ns;

		if (spool_cpu_end(dir, cpu, page_size, &ns))
			strbuf_addf(&sb, "%s%d:%llu", cpu ? "," : "", cpu, (unsigned long long)ns);
		else
			strbuf_addf(&sb, "%s%d:-", cpu ? "," : "", cpu);
	}
	strbuf_addch(&sb, '\n');
	free(old);
	return strbuf_detach(&sb, NULL);
}

/* 1 when value key is the same line in both metadata texts (and set) */
static int same_value(const char *a, const char *b, const char *key)
{
	const char *va = a ? td_meta_value(a, key) : NULL, *vb = b ? td_meta_value(b, key) : NULL;
	size_t la, lb;

	if (!va || !vb)
		return 0;
	la = strcspn(va, "\n");
	lb = strcspn(vb, "\n");
	return la && la == lb && !memcmp(va, vb, la);
}

/*
 * The output exists already. A recorder killed after it renamed a
 * finished part into place and before it removed that part's spool
 * leaves both: the file is whole (parts appear only complete) and is this
 * spool's part when it has the spool's run id and part number. Then
 * there is nothing to recover, and the dead recorder's ring (the next
 * part's pages) must be left to that part's spool. 1: that case, said;
 * 0: another file (refused by the caller unless --force).
 */
static int written_already(const struct recover_opts *o)
{
	size_t n;
	char *meta = spool_read_meta(o->spool, "mmscope", &n), *err = NULL;
	struct td_file *tf = td_open_only(o->out, td_want_none, &err);
	int same = tf && same_value(meta, td_private(tf), "run_id") &&
		   same_value(meta, td_private(tf), "switch_output");

	if (same)
		printf("%s: already written from this spool before the recorder died (the same "
		       "run id and part %.*s): nothing to recover%s\n", o->out,
		       (int)strcspn(td_meta_value(meta, "switch_output"), "\n"),
		       td_meta_value(meta, "switch_output"),
		       o->remove ? "; the spool is removed" : "; --remove removes the spool");
	td_close(tf);
	free(err);
	free(meta);
	return same;
}

/*
 * A part's spool the recorder was removing when it died: the part is
 * written and whole, and the spool's layout (the first file removed) is
 * gone, perhaps the rest too. Nothing to recover: 1 with *r the status
 * (its remains removed with --remove); 0: not that case.
 */
static int half_removed(const struct recover_opts *o, int *r)
{
	char *err = NULL;
	struct td_file *tf;
	struct stat st;

	if (stat(o->spool, &st) || !S_ISDIR(st.st_mode) || access(o->out, F_OK))
		return 0;
	tf = td_open_only(o->out, td_want_none, &err);
	free(err);
	if (!tf)
		return 0;
	td_close(tf);
	printf("%s: a spool being removed when the recorder died (no layout left); %s is "
	       "written and whole: nothing to recover%s\n", o->spool, o->out,
	       o->remove ? "; the rest of the spool is removed" : "; --remove removes it");
	*r = EXIT_OK;
	if (o->remove) {
		DIR *d = opendir(o->spool);
		struct dirent *e;

		while (d && (e = readdir(d)))
			if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
				char *f = xasprintf("%s/%s", o->spool, e->d_name);

				if (unlink(f))
					*r = error("%s: %s", f, strerror(errno));
				free(f);
			}
		if (d)
			closedir(d);
		if (!*r && rmdir(o->spool))
			*r = error("%s: %s", o->spool, strerror(errno));
	}
	return 1;
}

/* How the recorder ended and what became of its COMMAND, in a line each
 * (the report's words). */
static void say_ending(const char *out, const char *meta)
{
	struct run_stop st;
	const struct run_stop_command *c = &st.cmd;
	struct run_ending e;

	run_stop_parse(&st, meta);
	run_stop_ending_of(&st, &e);
	if (run_stop_text(&st, 0))
		printf("%s: %s\n", out, run_stop_text(&st, 0));
	if (c->known && c->state && !strcmp(c->state, "ended"))
		printf("%s: the command's outcome was recorded before the recorder died\n", out);
	else if (c->known && c->pid.known)
		printf("%s: the command (pid %lld) was running when the spool was last written: its "
		       "outcome is unknown%s\n", out, (long long)c->pid.v,
		       e.ended_command == 0 ? ", and mmscope did not end it" :
		       ", and mmscope may have begun to end it");
	else if (c->known)
		printf("%s: the command's outcome is unknown\n", out);
	run_stop_release(&st);
}

static int cmd_recover(int argc, char **argv)
{
	struct recover_opts o = { 0 };
	struct spool_result res;
	char *err = NULL, *meta;
	int r = recover_parse_opts(argc, argv, &o);

	if (r < 0)
		return show_help(&cmd_recover_entry);
	if (r)
		return r;
	if (unused_next_spool(o.spool)) {
		if (!o.remove)
			return error("%s: the spool made for the next part at a file switch, never "
				     "used (the recorder stopped before the switch): no events to "
				     "recover; remove it with --remove", o.spool);
		if (spool_remove(o.spool, &err)) {
			r = error("%s", err);
			free(err);
			return r;
		}
		printf("%s: the unused spool of a next part (no events): removed\n", o.spool);
		return EXIT_OK;
	}
	if (!spool_is_spool(o.spool) && half_removed(&o, &r))
		return r;
	if (!spool_is_spool(o.spool))
		return error("%s: not an mmscope spool directory (no layout file)", o.spool);
	/* before the ring is taken: it may be another spool's */
	if (!o.force && access(o.out, F_OK) == 0) {
		if (!written_already(&o))
			return error("%s: already exists (use --force to replace it)", o.out);
		if (o.remove && spool_remove(o.spool, &err)) {
			r = error("%s", err);
			free(err);
			return r;
		}
		return EXIT_OK;
	}
	if (!o.no_ring && drain_ring(o.spool))
		return EXIT_ERROR;
	/* the room the recorder set aside is for this file */
	char *reserve = xasprintf("%s/reserve", o.spool);

	unlink(reserve);
	free(reserve);
	meta = recovered_meta(o.spool, &err);
	if (!meta && err) {
		r = error("%s", err);
		free(err);
		return r;
	}
	if (spool_write_file_meta(o.spool, o.out, o.force, &o.w, meta, &res, &err)) {
		free(meta);
		r = error("%s: %s", o.out, err);
		free(err);
		return r;
	}
	printf("%s: %llu pages from %d CPUs", o.out, (unsigned long long)res.pages, res.ncpus);
	if (res.bad_pages)
		printf(", %llu incomplete pages skipped", (unsigned long long)res.bad_pages);
	printf(", %llu bytes\n", (unsigned long long)res.bytes);
	say_ending(o.out, meta);
	free(meta);
	if (o.remove && spool_remove(o.spool, &err)) {
		warning("%s", err);
		free(err);
	}
	return EXIT_OK;
}

const struct cmd_entry cmd_recover_entry = {
	.name = "recover",
	.summary = "finish the recording of a killed recorder from its spool",
	.usage = recover_usage,
	.run = cmd_recover,
};
