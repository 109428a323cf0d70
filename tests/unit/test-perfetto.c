// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Perfetto writer: the protobuf encoder's exact bytes (varints,
 * negative int64, fixed64, doubles, strings, nested messages whose
 * length needs two bytes), and the order of a trace's events where
 * slices touch: an episode ending when the next begins, a zero-length
 * stall at the start of a longer one. A small decoder reads the trace
 * back: time stamps never go back, and every end closes the last open
 * slice of its own track.
 */
#include "config.h"
#include "analysis.h"
#include "pb-write.h"
#include "perfetto.h"
#include "tap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int bytes_are(const struct pb *p, const char *hex)
{
	char buf[1024] = "";

	for (size_t i = 0; i < p->sb.len && 2 * i + 3 < sizeof(buf); i++)
		sprintf(buf + 2 * i, "%02x", (unsigned char)p->sb.buf[i]);
	if (strcmp(buf, hex))
		fprintf(stderr, "# got  %s\n# want %s\n", buf, hex);
	return !strcmp(buf, hex);
}

static void test_encoder(void)
{
	struct pb p = PB_INIT;

	/* the protobuf documentation's examples */
	pb_uint(&p, 1, 150);
	ok(bytes_are(&p, "089601"), "varint 150");
	pb_reset(&p);
	pb_string(&p, 2, "testing");
	ok(bytes_are(&p, "120774657374696e67"), "string");
	pb_reset(&p);
	pb_begin(&p, 3);
	pb_uint(&p, 1, 150);
	pb_end(&p);
	ok(bytes_are(&p, "1a03089601"), "nested message");
	pb_reset(&p);
	pb_int(&p, 4, -1);
	ok(bytes_are(&p, "20ffffffffffffffffff01"), "int64 -1 takes ten bytes");
	pb_reset(&p);
	pb_fixed64(&p, 47, 0x0102030405060708ull);
	ok(bytes_are(&p, "f9020807060504030201"), "fixed64, little-endian, field 47");
	pb_reset(&p);
	pb_double(&p, 5, 1.0);
	ok(bytes_are(&p, "29000000000000f03f"), "double 1.0");
	pb_reset(&p);
	pb_uint(&p, 600, 1);
	ok(bytes_are(&p, "c02501"), "a two-byte tag");
	pb_reset(&p);

	/* a body of 200 bytes: its length takes two bytes, put in front */
	{
		char s[201];

		memset(s, 'x', 200);
		s[200] = '\0';
		pb_begin(&p, 1);
		pb_begin(&p, 2);
		pb_string(&p, 3, s);
		pb_end(&p);
		pb_end(&p);
		/* 1: len 206 (ce 01); 2: len 203 (cb 01); 3: len 200 (c8 01) */
		ok(p.sb.len == 1 + 2 + 1 + 2 + 1 + 2 + 200, "nested lengths: %zu bytes",
		   p.sb.len);
		ok(!memcmp(p.sb.buf, "\x0a\xce\x01\x12\xcb\x01\x1a\xc8\x01xx", 11),
		   "nested lengths in front of their bodies");
	}
	pb_release(&p);
}

/* ---- a small decoder for the checks ---- */

static uint64_t rd_varint(const uint8_t **p, const uint8_t *end)
{
	uint64_t v = 0;

	for (int shift = 0; *p < end && shift < 64; shift += 7) {
		uint8_t b = *(*p)++;

		v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			break;
	}
	return v;
}

/* Calls fn for each field of a message. */
static int walk(const uint8_t *p, const uint8_t *end,
		void (*fn)(void *ctx, int field, uint64_t v, const uint8_t *b, size_t n), void *ctx)
{
	while (p < end) {
		uint64_t tag = rd_varint(&p, end), v = 0, n = 0;
		const uint8_t *b = NULL;

		switch (tag & 7) {
		case 0:
			v = rd_varint(&p, end);
			break;
		case 1:
			if (end - p < 8)
				return -1;
			memcpy(&v, p, 8);
			p += 8;
			break;
		case 2:
			n = rd_varint(&p, end);
			if ((uint64_t)(end - p) < n)
				return -1;
			b = p;
			p += n;
			break;
		default:
			return -1;
		}
		fn(ctx, (int)(tag >> 3), v, b, (size_t)n);
	}
	return 0;
}

struct ev {
	uint64_t ts, track;
	int type;
	int is_event;
};

static void ev_field(void *ctx, int field, uint64_t v, const uint8_t *b, size_t n)
{
	struct ev *e = ctx;

	(void)b;
	(void)n;
	if (field == 9)
		e->type = (int)v;
	if (field == 11)
		e->track = v;
}

static void packet_field(void *ctx, int field, uint64_t v, const uint8_t *b, size_t n)
{
	struct ev *e = ctx;

	if (field == 8)
		e->ts = v;
	if (field == 11) {
		e->is_event = 1;
		walk(b, b + n, ev_field, e);
	}
}

#define MAXT 16
#define MAXD 16
#define MAXS 64
struct check {
	uint64_t last_ts;
	uint64_t track[MAXT];
	int depth[MAXT];
	uint64_t open[MAXT][MAXD];	/* begin time stamps of the open slices */
	int ntracks;
	int packets, begins, ends, bad_order, bad_end;
	/* the slices as Perfetto pairs them: an end closes its track's
	 * last open begin */
	uint64_t slice[MAXS][2];
	int nslices;
};

static void trace_field(void *ctx, int field, uint64_t v, const uint8_t *b, size_t n)
{
	struct check *c = ctx;
	struct ev e = { 0 };
	int t;

	(void)v;
	if (field != 1)
		return;
	c->packets++;
	walk(b, b + n, packet_field, &e);
	if (e.ts < c->last_ts)
		c->bad_order++;
	c->last_ts = e.ts;
	if (!e.is_event || (e.type != 1 && e.type != 2))
		return;
	for (t = 0; t < c->ntracks && c->track[t] != e.track; t++)
		;
	if (t == c->ntracks && c->ntracks < MAXT)
		c->track[c->ntracks++] = e.track;
	if (t == MAXT)
		return;
	if (e.type == 1) {
		c->begins++;
		if (c->depth[t] < MAXD)
			c->open[t][c->depth[t]] = e.ts;
		c->depth[t]++;
	} else {
		c->ends++;
		if (--c->depth[t] < 0) {
			c->bad_end++;
			c->depth[t] = 0;
		} else if (c->depth[t] < MAXD && c->nslices < MAXS) {
			c->slice[c->nslices][0] = c->open[t][c->depth[t]];
			c->slice[c->nslices++][1] = e.ts;
		}
	}
}

static struct record rec(enum rec_type type, int pid, uint64_t ts)
{
	struct record r;

	memset(&r, 0, sizeof(r));
	r.type = type;
	r.pid = pid;
	r.ts = ts;
	return r;
}

static void feed_reclaim(struct analysis *a, int pid, uint64_t b, uint64_t e)
{
	struct record r = rec(REC_RECLAIM_BEGIN, pid, b);

	r.rbegin.kind = RK_DIRECT;
	analysis_feed(a, &r);
	r = rec(REC_RECLAIM_END, pid, e);
	r.rend.kind = RK_DIRECT;
	r.rend.nr_reclaimed = 3;
	analysis_feed(a, &r);
}

static void test_touching_slices(void)
{
	struct analysis *a = analysis_new_empty(NULL);
	struct perfetto_stats st;
	struct check c = { 0 };
	char path[] = "/tmp/mmscope-test-perfetto.XXXXXX", *err = NULL;
	struct record r;
	struct strbuf sb = STRBUF_INIT;
	int fd = mkstemp(path);

	/* kswapd: 100..200, then 200..300 (the next wake at the sleep's time) */
	for (uint64_t t = 100; t <= 200; t += 100) {
		r = rec(REC_KSWAPD_WAKE, 50, t);
		r.wake.order = 0;
		analysis_feed(a, &r);
		r = rec(REC_KSWAPD_SLEEP, 50, t + 100);
		analysis_feed(a, &r);
	}
	/* one task: a zero-length stall, then one from the same time stamp,
	 * and one beginning where that ends */
	feed_reclaim(a, 7, 150, 150);
	feed_reclaim(a, 7, 150, 160);
	feed_reclaim(a, 7, 160, 170);
	analysis_finish(a, 400);

	ok(fd >= 0, "temporary file");
	ok(!perfetto_write(fd, a, &st, &err), "written: %s", err ? err : "ok");
	/* the direct-reclaim-stalls finding spans the stalls (150..170) on a
	 * track of its own: a sixth slice, ending after the stalls' last */
	ok(st.slices == 6, "6 slices (2 episodes, 3 stalls, 1 finding): %llu",
	   (unsigned long long)st.slices);
	ok(!read_file(path, &sb), "read back");
	ok(!walk((const uint8_t *)sb.buf, (const uint8_t *)sb.buf + sb.len, trace_field, &c),
	   "the trace decodes");
	ok((uint64_t)c.packets == st.packets, "%d packets", c.packets);
	is_int(c.bad_order, 0, "time stamps never go back");
	is_int(c.begins, 6, "slice begins");
	is_int(c.ends, 6, "slice ends");
	is_int(c.bad_end, 0, "no end before its track's begin");
	for (int t = 0; t < c.ntracks; t++)
		is_int(c.depth[t], 0, "every slice of a track ended");
	{
		/* begin,end of each slice, in the order their ends came */
		static const uint64_t want[6][2] = {
			{ 150, 150 }, { 150, 160 }, { 160, 170 }, { 150, 170 }, { 100, 200 },
			{ 200, 300 },
		};
		char got[256] = "", exp[256] = "";

		for (int i = 0; i < c.nslices; i++)
			snprintf(got + strlen(got), sizeof(got) - strlen(got), "%llu-%llu ",
				 (unsigned long long)c.slice[i][0],
				 (unsigned long long)c.slice[i][1]);
		for (int i = 0; i < 6; i++)
			snprintf(exp + strlen(exp), sizeof(exp) - strlen(exp), "%llu-%llu ",
				 (unsigned long long)want[i][0],
				 (unsigned long long)want[i][1]);
		is_str(got, exp, "each end closes its own slice");
	}
	strbuf_release(&sb);
	free(err);
	close(fd);
	unlink(path);
	analysis_free(a);
}

int main(void)
{
	test_encoder();
	test_touching_slices();
	return tap_done();
}
