// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Test helper: write a trace.dat (v7) of hand-written events in a real
 * kernel's event formats, for a case no real recording holds yet. One
 * event per input line, in time order on each CPU:
 *
 *   SECONDS CPU PID COMM SYSTEM:EVENT [FIELD=VALUE]...
 *
 * SECONDS as trace-cmd prints them (up to nine decimals); the event's
 * format is read from EVENTS_DIR/SYSTEM/EVENT/format (a kernel's
 * tests/data/kernels/VERSION/events); fields not given are 0; integer
 * fields only. Lines starting with '#' and blank lines are skipped.
 * PID COMM pairs go into the saved cmdlines, so trace-cmd shows the
 * names. A new page starts when the time delta would not fit in the
 * event header's 27 bits.
 *   usage: mkevents EVENTS_DIR OUT.dat < lines
 * MKEVENTS_UNAME is the uname line ("Linux testhost 6.18.0 x86_64").
 */
#include "config.h"
#include "tracedat-write.h"
#include "util.h"
#include "../unit/synth.h"

#include <ctype.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PAGE 4096
#define MAX_CPUS 64
#define MAX_EVENTS 64
#define MAX_FIELDS 32

struct field {
	char name[64];
	int offset, size;
};

struct event {
	char system[64], name[64];
	char *format;		/* the file's text */
	int id, size, nfields;
	struct field f[MAX_FIELDS];
};

static struct event events[MAX_EVENTS];
static int nevents;

static void die(int line, const char *what)
{
	fprintf(stderr, "mkevents: line %d: %s\n", line, what);
	exit(1);
}

/* "\tfield:int nid;\toffset:8;\tsize:4;\tsigned:1;": name, offset, size */
static void parse_format(struct event *e, int line)
{
	const char *p = e->format, *id = strstr(p, "\nID: ");

	if (!id)
		die(line, "format without an ID");
	e->id = atoi(id + 5);
	while ((p = strstr(p, "field:"))) {
		const char *semi = strchr(p, ';'), *name = semi, *off, *sz;
		struct field *f;
		size_t len;

		if (!semi || !(off = strstr(semi, "offset:")) || !(sz = strstr(semi, "size:")))
			die(line, "bad field line in format");
		while (name > p && (isalnum((unsigned char)name[-1]) || name[-1] == '_' ||
				    name[-1] == '[' || name[-1] == ']'))
			name--;
		if (e->nfields == MAX_FIELDS)
			die(line, "too many fields");
		f = &e->f[e->nfields++];
		len = (size_t)(semi - name);
		if (len >= sizeof(f->name))
			die(line, "field name too long");
		memcpy(f->name, name, len);
		f->name[len] = '\0';
		f->offset = atoi(off + 7);
		f->size = atoi(sz + 5);
		if (f->offset + f->size > e->size)
			e->size = f->offset + f->size;
		p = semi;
	}
}

static struct event *event_get(const char *dir, const char *sysev, int line)
{
	const char *colon = strchr(sysev, ':');
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	struct event *e;

	if (!colon || colon == sysev || (size_t)(colon - sysev) >= sizeof(e->system) ||
	    strlen(colon + 1) >= sizeof(e->name))
		die(line, "event is not SYSTEM:EVENT");
	for (int i = 0; i < nevents; i++)
		if (!strncmp(events[i].system, sysev, (size_t)(colon - sysev)) &&
		    !events[i].system[colon - sysev] && !strcmp(events[i].name, colon + 1))
			return &events[i];
	if (nevents == MAX_EVENTS)
		die(line, "too many events");
	e = &events[nevents++];
	memcpy(e->system, sysev, (size_t)(colon - sysev));
	strcpy(e->name, colon + 1);
	strbuf_addf(&path, "%s/%s/%s/format", dir, e->system, e->name);
	if (read_file(path.buf, &text))
		die(line, "cannot read the event's format");
	e->format = xstrdup(text.buf);
	parse_format(e, line);
	strbuf_release(&path);
	strbuf_release(&text);
	return e;
}

/* One event of data bytes (at most 112: the compact header's length). */
static void add_event(struct synth_pages *p, unsigned long long ts, const unsigned char *data,
		      size_t dlen, int line)
{
	size_t alen = (dlen + 3) & ~(size_t)3;
	unsigned int hdr;
	unsigned char *e;

	if (alen > 112)
		die(line, "event larger than 112 bytes");
	if (p->n && ts < p->last_ts)
		die(line, "time goes back on this CPU");
	if (!p->n || ts - p->last_ts >= (1ull << 27) || p->len + 4 + alen > p->size - 16)
		synth_page_open(p, ts);
	e = p->b + (size_t)(p->n - 1) * p->size + 16 + p->len;
	hdr = (unsigned int)(ts - p->last_ts) << 5 | (unsigned int)(alen / 4);
	memcpy(e, &hdr, 4);
	memcpy(e + 4, data, dlen);
	p->len += 4 + alen;
	p->last_ts = ts;
}

static void put_int(unsigned char *d, const struct field *f, long long v, int line)
{
	if (f->size != 1 && f->size != 2 && f->size != 4 && f->size != 8)
		die(line, "not an integer field");
	for (int i = 0; i < f->size; i++)	/* little-endian */
		d[f->offset + i] = (unsigned char)((unsigned long long)v >> (8 * i));
}

static const struct field *field_get(const struct event *e, const char *name, int line)
{
	for (int i = 0; i < e->nfields; i++)
		if (!strcmp(e->f[i].name, name))
			return &e->f[i];
	die(line, "no such field in the event's format");
	return NULL;
}

/* "14.181" -> nanoseconds, exactly */
static unsigned long long parse_ts(const char *s, int line)
{
	unsigned long long sec, ns = 0;
	char *end;
	int digits = 0;

	sec = strtoull(s, &end, 10);
	if (end == s)
		die(line, "no time");
	if (*end == '.')
		for (end++; isdigit((unsigned char)*end); end++)
			if (digits++ < 9)
				ns = ns * 10 + (unsigned long long)(*end - '0');
	if (*end)
		die(line, "bad time");
	for (; digits < 9; digits++)
		ns *= 10;
	return sec * 1000000000ULL + ns;
}

int main(int argc, char **argv)
{
	struct strbuf hi = STRBUF_INIT, ev = STRBUF_INIT, cl = STRBUF_INIT, cltext = STRBUF_INIT;
	static struct synth_pages pages[MAX_CPUS];
	struct tw_cpu cpus[MAX_CPUS];
	struct tw_buffer buf = { "", "local", PAGE, 0, cpus };
	struct tw_input in = { 0 };
	struct tw_opts o;
	struct tw_result res;
	char *err = NULL, l[4096];
	int fd, ncpus = 1, line = 0;

	if (argc != 3) {
		fprintf(stderr, "usage: mkevents EVENTS_DIR OUT.dat < lines\n");
		return 2;
	}
	for (int c = 0; c < MAX_CPUS; c++)
		pages[c].size = PAGE;
	while (fgets(l, sizeof(l), stdin)) {
		char *tok[64], *save = NULL, *t;
		unsigned char data[128] = { 0 };
		struct event *e;
		int n = 0, cpu, pid;

		line++;
		l[strcspn(l, "\n")] = '\0';
		for (t = strtok_r(l, " \t", &save); t && n < 64; t = strtok_r(NULL, " \t", &save))
			tok[n++] = t;
		if (!n || tok[0][0] == '#')
			continue;
		if (n < 5)
			die(line, "want SECONDS CPU PID COMM SYSTEM:EVENT [FIELD=VALUE]...");
		cpu = atoi(tok[1]);
		pid = atoi(tok[2]);
		if (cpu < 0 || cpu >= MAX_CPUS)
			die(line, "bad CPU");
		if (cpu + 1 > ncpus)
			ncpus = cpu + 1;
		e = event_get(argv[1], tok[4], line);
		put_int(data, field_get(e, "common_type", line), e->id, line);
		put_int(data, field_get(e, "common_pid", line), pid, line);
		for (int i = 5; i < n; i++) {
			char *eq = strchr(tok[i], '=');

			if (!eq)
				die(line, "want FIELD=VALUE");
			*eq = '\0';
			put_int(data, field_get(e, tok[i], line), strtoll(eq + 1, NULL, 0), line);
		}
		add_event(&pages[cpu], parse_ts(tok[0], line), data, (size_t)e->size, line);
		{	/* the cmdlines, each pid once: "\nPID COMM\n" lines */
			char want[128];

			snprintf(want, sizeof(want), "\n%d %s\n", pid, tok[3]);
			if (!cltext.len)
				strbuf_addch(&cltext, '\n');
			if (!strstr(cltext.buf, want))
				strbuf_addstr(&cltext, want + 1);
		}
	}
	for (int c = 0; c < ncpus; c++) {
		synth_page_close(&pages[c]);
		cpus[c].next = pages[c].n ? synth_next_page : NULL;
		cpus[c].ctx = &pages[c];
	}
	buf.ncpus = ncpus;
	/* the events section: one system after another, in order of use */
	for (int i = 0; i < nevents; i++) {
		const char *fmts[MAX_EVENTS];
		int k = 0, seen = 0;

		for (int j = 0; j < i; j++)
			seen |= !strcmp(events[j].system, events[i].system);
		if (seen)
			continue;
		for (int j = i; j < nevents; j++)
			if (!strcmp(events[j].system, events[i].system))
				fmts[k++] = events[j].format;
		synth_add_system(&ev, events[i].system, fmts, k);
	}
	synth_header_info(&hi);
	synth_input(&in, &hi, &ev, ncpus, PAGE);
	if (getenv("MKEVENTS_UNAME"))
		in.uname = getenv("MKEVENTS_UNAME");
	strbuf_add_u64(&cl, cltext.len ? cltext.len - 1 : 0);
	strbuf_add(&cl, cltext.buf + (cltext.len ? 1 : 0), cltext.len ? cltext.len - 1 : 0);
	in.meta[TD_META_CMDLINES] = cl.buf;
	in.meta_len[TD_META_CMDLINES] = cl.len;
	in.buffers = &buf;
	in.nbuffers = 1;
	tw_opts_default(&o);
	fd = open(argv[2], O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || tw_write(fd, &in, &o, &res, &err)) {
		fprintf(stderr, "mkevents: %s: %s\n", argv[2], err ? err : "cannot create");
		return 1;
	}
	close(fd);
	for (int c = 0; c < ncpus; c++)
		free(pages[c].b);
	for (int i = 0; i < nevents; i++)
		free(events[i].format);
	strbuf_release(&hi);
	strbuf_release(&ev);
	strbuf_release(&cl);
	strbuf_release(&cltext);
	return 0;
}
