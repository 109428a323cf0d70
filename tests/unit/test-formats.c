// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Every event format of every real kernel we keep (tests/data/kernels/
 * VERSION/events/SYSTEM/EVENT/format: 6.1, 6.12, 6.18, 7.2, 7.3) must be
 * accepted by the reader. The reader refuses formats it judges corrupt
 * (to keep hostile files away from libtraceevent); this proves that no
 * real format is mistaken for one. Each kernel's formats are written into
 * a recording with the writer and opened with the reader.
 */
#include "config.h"
#include "tracedat-read.h"
#include "tracedat-write.h"
#include "util.h"
#include "dir-names.h"
#include "tap.h"
#include "synth.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

/* EVENT_FORMATS payload from events/SYSTEM/EVENT/format; returns the count. */
static int build_formats(const char *events, struct strbuf *ev)
{
	char **sys;
	int nsys = dir_names(events, &sys), total = 0;

	strbuf_add_u32(ev, (uint32_t)nsys);
	for (int i = 0; i < nsys; i++) {
		char *sdir = xasprintf("%s/%s", events, sys[i]), **evs;
		int nev = dir_names(sdir, &evs), kept = 0;
		size_t count_at;

		strbuf_add(ev, sys[i], strlen(sys[i]) + 1);
		count_at = ev->len;
		strbuf_add_u32(ev, 0);
		for (int k = 0; k < nev; k++) {
			char *f = xasprintf("%s/%s/format", sdir, evs[k]);
			struct strbuf text = STRBUF_INIT;

			if (!read_file(f, &text) && text.len) {
				strbuf_add_u64(ev, text.len);
				strbuf_add(ev, text.buf, text.len);
				kept++;
			}
			strbuf_release(&text);
			free(f);
			free(evs[k]);
		}
		uint32_t c = (uint32_t)kept;

		memcpy(ev->buf + count_at, &c, 4);
		total += kept;
		free(evs);
		free(sdir);
		free(sys[i]);
	}
	free(sys);
	return total;
}

static void check_kernel(const char *dir, const char *name)
{
	struct strbuf hi = STRBUF_INIT, ev = STRBUF_INIT;
	char *events = xasprintf("%s/%s/events", dir, name);
	char path[] = "/tmp/mmscope-formats-XXXXXX";
	struct tw_buffer buf = { "", "local", 4096, 0, NULL };
	struct tw_input in = { 0 };
	struct tw_opts o;
	char *err = NULL;
	int n, fd;

	n = build_formats(events, &ev);
	synth_header_info(&hi);
	synth_input(&in, &hi, &ev, 0, 4096);
	in.buffers = &buf;
	in.nbuffers = 1;
	tw_opts_default(&o);
	fd = mkstemp(path);
	if (!ok(n > 50 && !tw_write(fd, &in, &o, NULL, &err), "%s: %d formats written", name, n)) {
		printf("#   %s\n", err ? err : "too few formats");
	} else {
		struct td_file *tf = td_open(path, &err);
		const char *first = NULL;
		int bad = tf ? td_bad_formats(tf, &first) : -1;

		if (!ok(tf && bad == 0, "%s: the reader accepts all %d formats", name, n))
			printf("#   %s; %d refused, first %s\n", err ? err : "opened", bad,
			       first ? first : "-");
		td_close(tf);
	}
	close(fd);
	unlink(path);
	free(err);
	free(events);
	strbuf_release(&hi);
	strbuf_release(&ev);
}

int main(void)
{
	const char *src = getenv("top_srcdir");
	char *dir = xasprintf("%s/tests/data/kernels", src ? src : ".");
	char **kernels;
	int n = dir_names(dir, &kernels), checked = 0;

	for (int i = 0; i < n; i++) {
		char *ev = xasprintf("%s/%s/events", dir, kernels[i]);

		if (!access(ev, R_OK)) {
			check_kernel(dir, kernels[i]);
			checked++;
		}
		free(ev);
		free(kernels[i]);
	}
	free(kernels);
	ok(checked >= 5, "%d kernels checked (6.1, 6.12, 6.18, 7.2, 7.3 expected)", checked);
	free(dir);
	return tap_done();
}
