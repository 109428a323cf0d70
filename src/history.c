// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A host's history: runs of one host in time order, with the gaps
 * between them (history.h).
 */
#include "config.h"
#include "history.h"
#include "host-id.h"
#include "run-stop.h"
#include "tracedat-read.h"
#include "util.h"
#include "wall-map.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What one recording says of itself. */
struct hfact {
	const char *first, *last;	/* metadata ("" none) */
	char kernel[96];
	const char *events;		/* events= of its first file (to a newline) */
	int has_start_real, has_start_trace;
	uint64_t start_real, start_trace;
	uint64_t t0, t1;		/* its span in its domain's trace time */
	int placed;			/* t0 known (events, start_trace or wall) */
	const char *stop;		/* run_stop word of its end, or NULL */
	int host, domain, boot;		/* union-find roots, then indexes */
};

static void meta_str(const char *meta, const char *key, char *out, size_t len)
{
	const char *v = meta ? td_meta_value(meta, key) : NULL;

	snprintf(out, len, "%.*s", v ? (int)strcspn(v, "\n") : 0, v ? v : "");
}

static int meta_u64(const char *meta, const char *key, uint64_t *v)
{
	return meta && !td_meta_u64(meta, key, v);
}

/* ts of a file with this metadata as Unix ns through its clocks. */
static int meta_wall(const char *meta, uint64_t ts, uint64_t *ns)
{
	struct wall_map m = { 0 };
	int r = -1;

	if (meta && !wall_map_add_meta(&m, meta)) {
		wall_map_finish(&m);
		r = wall_map_real(&m, ts, ns);
	}
	wall_map_free(&m);
	return r;
}

/* ---- union-find ---- */

static int uf_root(int *p, int i)
{
	while (p[i] != i) {
		p[i] = p[p[i]];
		i = p[i];
	}
	return i;
}

static void uf_join(int *p, int a, int b)
{
	a = uf_root(p, a);
	b = uf_root(p, b);
	if (a != b)
		p[a < b ? b : a] = a < b ? a : b;
}

/* The boot's wall-clock time by a recording's start pair (its wall clock
 * minus its trace clock since boot): 1 and *ns, or 0 when not known. */
static int boot_wall(const struct hfact *f, int64_t *ns)
{
	if (!f->has_start_real || !f->has_start_trace)
		return 0;
	*ns = (int64_t)f->start_real - (int64_t)f->start_trace;
	return 1;
}

static uint64_t absdiff(int64_t a, int64_t b)
{
	return a > b ? (uint64_t)(a - b) : (uint64_t)(b - a);
}

/*
 * One boot: the same boot_id; without one (an older file), the same
 * host name and kernel and the boot's wall-clock time within 2 s plus
 * 0.1% of the time between the two starts (NTP slews the wall clock by
 * up to 0.05%).
 */
static int same_boot(const struct history_run *ra, const struct hfact *a,
		     const struct history_run *rb, const struct hfact *b)
{
	int64_t wa, wb;

	if (ra->boot_id[0] && rb->boot_id[0])
		return !strcmp(ra->boot_id, rb->boot_id);
	if (!ra->host_name[0] || strcmp(ra->host_name, rb->host_name) || !a->kernel[0] ||
	    strcmp(a->kernel, b->kernel) || !boot_wall(a, &wa) || !boot_wall(b, &wb))
		return 0;
	return absdiff(wa, wb) <= 2000000000ull + absdiff((int64_t)a->start_real,
							  (int64_t)b->start_real) / 1000;
}

static int same_host(const struct history_run *ra, const struct hfact *a,
		     const struct history_run *rb, const struct hfact *b)
{
	if (ra->machine_id[0] && rb->machine_id[0])
		return !strcmp(ra->machine_id, rb->machine_id);
	return same_boot(ra, a, rb, b);
}

/* Every event of sub's events= list is in sup's. */
static int events_within(const char *sub, const char *sup)
{
	size_t suplen;

	if (!sub || !sup)
		return 0;
	suplen = strcspn(sup, "\n");
	while (*sub && *sub != '\n') {
		size_t n = strcspn(sub, ",\n");
		const char *p = sup;
		int found = 0;

		while (!found && p < sup + suplen) {
			size_t m = strcspn(p, ",\n");

			found = m == n && !strncmp(p, sub, n);
			p += m + (p[m] == ',');
		}
		if (n && !found)
			return 0;
		sub += n + (sub[n] == ',');
	}
	return 1;
}

/* ---- building ---- */

struct sort_ctx {
	const struct history_run *run;
	const struct hfact *f;
};

static struct sort_ctx sort_by;	/* qsort has no context argument */

static int run_cmp(const void *x, const void *y)
{
	int a = *(const int *)x, b = *(const int *)y;
	const struct history_run *ra = &sort_by.run[a], *rb = &sort_by.run[b];
	int64_t ta = (int64_t)sort_by.f[a].t0 + ra->offset;
	int64_t tb = (int64_t)sort_by.f[b].t0 + rb->offset;

	if (ra->host != rb->host)
		return ra->host < rb->host ? -1 : 1;
	if (ta != tb)
		return ta < tb ? -1 : 1;
	if (ra->flight != rb->flight)	/* the continuous run first */
		return ra->flight - rb->flight;
	return a < b ? -1 : a > b;
}

static void read_facts(const struct history_in *in, struct history_run *r, struct hfact *f)
{
	struct run_stop st;
	const char *m;

	f->first = in->first_meta ? in->first_meta : "";
	f->last = in->last_meta ? in->last_meta : f->first;
	meta_str(f->first, "host", r->host_name, sizeof(r->host_name));
	meta_str(f->first, "kernel", f->kernel, sizeof(f->kernel));
	meta_str(f->first, "clock", r->clock, sizeof(r->clock));
	meta_str(f->first, "run_id", r->run_id, sizeof(r->run_id));
	m = td_meta_value(f->first, "machine_id");
	if (host_id_machine_ok(m))
		meta_str(f->first, "machine_id", r->machine_id, sizeof(r->machine_id));
	m = td_meta_value(f->first, "boot_id");
	if (host_id_boot_ok(m))
		meta_str(f->first, "boot_id", r->boot_id, sizeof(r->boot_id));
	m = td_meta_value(f->first, "mode");
	r->flight = m && !strncmp(m, "flight-recorder", 15) && (!m[15] || m[15] == '\n');
	f->events = td_meta_value(f->first, "events");
	f->has_start_real = meta_u64(f->first, "start_realtime_ns", &f->start_real);
	f->has_start_trace = meta_u64(f->first, "start_trace_ns", &f->start_trace) &&
			     f->start_trace;
	r->has_span = in->has_span;
	r->first_ts = in->has_span ? in->first_ts : 0;
	r->last_ts = in->has_span ? in->last_ts : 0;
	/* the wall clock at its ends, through each end file's clocks */
	if (in->has_span) {
		r->has_wall = !meta_wall(f->first, r->first_ts, &r->wall_first) &&
			      !meta_wall(f->last, r->last_ts, &r->wall_last);
	} else if (f->has_start_real) {
		r->has_wall = 1;
		r->wall_first = r->wall_last = f->start_real;
	}
	/* its place on its domain's trace time line */
	if (in->has_span) {
		f->t0 = in->first_ts;
		f->t1 = in->last_ts;
		f->placed = 1;
	} else if (f->has_start_trace) {
		f->t0 = f->t1 = f->start_trace;
		f->placed = 1;
	}
	run_stop_parse2(&st, f->first, f->last);
	f->stop = st.stop;	/* a word of a fixed set: static */
	run_stop_release(&st);
}

/* The domains of one host placed on one time line: each domain's offset
 * from the wall clock of one of its runs (the anchor). -1 when a domain
 * has no run with the wall clock and the host has several domains. */
static int place_domains(struct history_run *run, struct hfact *f, const int *idx, int n,
			 int ndom)
{
	int64_t *aw = xcalloc((size_t)ndom + 1, sizeof(*aw));
	int64_t *at = xcalloc((size_t)ndom + 1, sizeof(*at));
	int *has = xcalloc((size_t)ndom + 1, sizeof(*has));
	int ref = -1, r = 0;

	for (int k = 0; k < n; k++) {
		int i = idx[k], d = f[i].domain;

		/* a run without events or start_trace: placed by its wall
		 * clock once its domain's anchor is known (below) */
		if (!run[i].has_wall || !f[i].placed)
			continue;
		if (!has[d] || (int64_t)run[i].wall_first < aw[d]) {
			has[d] = 1;
			aw[d] = (int64_t)run[i].wall_first;
			at[d] = (int64_t)f[i].t0;
		}
	}
	for (int d = 0; d < ndom; d++)
		if (has[d] && (ref < 0 || aw[d] < aw[ref]))
			ref = d;
	for (int k = 0; k < n; k++) {
		int i = idx[k], d = f[i].domain;

		if (ndom > 1 && !has[d]) {
			r = -1;
			continue;
		}
		run[i].offset = has[d] && ref >= 0 ? (aw[d] - aw[ref]) - (at[d] - at[ref]) : 0;
		if (!f[i].placed) {
			if (has[d] && run[i].has_wall) {
				int64_t t = at[d] + ((int64_t)run[i].wall_first - aw[d]);

				f[i].t0 = f[i].t1 = t > 0 ? (uint64_t)t : 0;
			}
			f[i].placed = 1;	/* else 0: it alone in its domain */
		}
	}
	free(aw);
	free(at);
	free(has);
	return r;
}

static int overlaps(const struct history_run *a, const struct hfact *fa,
		    const struct history_run *b, const struct hfact *fb)
{
	return (int64_t)fa->t0 + a->offset <= (int64_t)fb->t1 + b->offset &&
	       (int64_t)fb->t0 + b->offset <= (int64_t)fa->t1 + a->offset;
}



/*
 * Incident i's span less those of the continuous runs of its domain that
 * recorded its events (their union): how many pieces are left (0, 1: *a
 * .. *b, trace ns inclusive; 2 or more), and in *hold the run holding
 * most of it (-1: none overlaps it).
 */
static int uncovered(const struct history_run *run, const struct hfact *f, const int *ord, int n,
		     int i, uint64_t *a, uint64_t *b, int *hold)
{
	uint64_t lo = f[i].t0, hi = f[i].t1, most = 0;
	int pieces = 0;

	*hold = -1;
	if (!run[i].has_span)
		return 1;
	/* the runs are in time order: walk the covered stretches */
	for (int q = 0; q < n && lo <= hi; q++) {
		int j = ord[q];
		uint64_t c0, c1;

		if (run[j].flight || f[j].domain != f[i].domain || !run[j].has_span ||
		    !events_within(f[i].events, f[j].events) || f[j].t1 < lo || f[j].t0 > hi)
			continue;
		c0 = f[j].t0 > lo ? f[j].t0 : lo;
		c1 = f[j].t1 < hi ? f[j].t1 : hi;
		if (c1 - c0 >= most || *hold < 0) {
			most = c1 - c0;
			*hold = j;
		}
		if (c0 > lo) {	/* a piece before this run */
			if (!pieces++) {
				*a = lo;
				*b = c0 - 1;
			}
		}
		lo = c1 + 1;
	}
	if (lo <= hi && !pieces++) {
		*a = lo;
		*b = hi;
	}
	return pieces;
}

/* Overlaps, INSIDE incidents and how each run began, over one host's
 * runs in time order (ord[0..n)). */
static void classify(struct history_run *run, struct hfact *f, const int *ord, int n)
{
	int prev = -1;

	/* the continuous runs: the time line; one overlapping the one
	 * before is said to */
	for (int k = 0; k < n; k++) {
		int i = ord[k];

		if (run[i].flight)
			continue;
		run[i].rel = HIST_RUN;
		run[i].other = -1;
		if (prev >= 0 && overlaps(&run[prev], &f[prev], &run[i], &f[i])) {
			run[i].rel = HIST_OVERLAP;
			run[i].other = prev;
		}
		if (prev < 0 || (int64_t)f[i].t1 + run[i].offset >
				(int64_t)f[prev].t1 + run[prev].offset)
			prev = i;
	}
	/* incidents: inside the continuous runs of their domain that
	 * recorded their events, partly inside them, overlapping another
	 * run, or runs of their own */
	for (int k = 0; k < n; k++) {
		int i = ord[k], touch = -1, hold = -1, pieces;
		uint64_t a, b;

		if (!run[i].flight)
			continue;
		pieces = uncovered(run, f, ord, n, i, &a, &b, &hold);
		for (int q = 0; q < n && touch < 0; q++) {
			int j = ord[q];

			if (j != i && (!run[j].flight || q < k) && run[j].rel != HIST_INSIDE &&
			    overlaps(&run[j], &f[j], &run[i], &f[i]))
				touch = j;
		}
		run[i].other = -1;
		if (hold >= 0 && !pieces) {
			run[i].rel = HIST_INSIDE;
			run[i].other = hold;
		} else if (hold >= 0 && pieces == 1) {
			run[i].rel = HIST_PARTLY;
			run[i].other = hold;
			run[i].clip_first = a;
			run[i].clip_last = b;
		} else if (touch >= 0) {
			run[i].rel = HIST_OVERLAP;
			run[i].other = touch;
		} else {
			run[i].rel = HIST_RUN;
		}
	}
	/* how each run of the time line began: a continuous run after the
	 * continuous run before it (an incident between them is another
	 * recorder's) */
	prev = -1;
	for (int k = 0; k < n; k++) {
		int i = ord[k];
		const char *s;

		if (run[i].rel == HIST_INSIDE)
			continue;
		if (run[i].flight) {
			run[i].began = HIST_BEGAN_TRIGGER;
			continue;
		}
		s = prev >= 0 ? f[prev].stop : NULL;
		if (prev < 0)
			run[i].began = HIST_BEGAN_FIRST;
		else if (f[prev].boot != f[i].boot)
			run[i].began = HIST_BEGAN_REBOOT;
		else if (s && (!strcmp(s, "killed") || !strcmp(s, "recovered")))
			run[i].began = HIST_BEGAN_RECOVER;
		else if (s && (!strcmp(s, "signal") || !strcmp(s, "error") ||
			       !strcmp(s, "disk-full") || !strcmp(s, "max-size")))
			run[i].began = HIST_BEGAN_RESTART;
		else
			run[i].began = HIST_BEGAN_NEW;
		prev = i;
	}
}

/* Domains and boots numbered per host (0 ...) from the union-find roots. */
static int renumber(struct hfact *f, int n, int host, int which)
{
	int *root = xcalloc((size_t)n + 1, sizeof(*root)), m = 0;

	for (int i = 0; i < n; i++) {
		int *v = which ? &f[i].boot : &f[i].domain, k;

		if (f[i].host != host)
			continue;
		for (k = 0; k < m && root[k] != *v; k++)
			;
		if (k == m)
			root[m++] = *v;
		*v = -1 - k;	/* negative: renumbered (roots are >= 0) */
	}
	for (int i = 0; i < n; i++)
		if (f[i].host == host) {
			int *v = which ? &f[i].boot : &f[i].domain;

			*v = -1 - *v;
		}
	free(root);
	return m;
}

int history_build(const struct history_in *in, int n, struct history *h, char **err)
{
	struct history_run *run = xcalloc((size_t)n + 1, sizeof(*run));
	struct hfact *f = xcalloc((size_t)n + 1, sizeof(*f));
	int *hp = xcalloc((size_t)n + 1, sizeof(*hp)), *dp = xcalloc((size_t)n + 1, sizeof(*dp));
	int *bp = xcalloc((size_t)n + 1, sizeof(*bp)), *ord = xcalloc((size_t)n + 1, sizeof(*ord));
	int *hostof = xcalloc((size_t)n + 1, sizeof(*hostof));
	int nhost = 0, r = 0;

	memset(h, 0, sizeof(*h));
	for (int i = 0; i < n; i++) {
		run[i].in = i;
		read_facts(&in[i], &run[i], &f[i]);
		hp[i] = dp[i] = bp[i] = i;
	}
	for (int i = 0; i < n; i++)
		for (int j = 0; j < i; j++) {
			if (!same_host(&run[i], &f[i], &run[j], &f[j]))
				continue;
			uf_join(hp, i, j);
			if (same_boot(&run[i], &f[i], &run[j], &f[j])) {
				uf_join(bp, i, j);
				if (!strcmp(run[i].clock, run[j].clock))
					uf_join(dp, i, j);
			}
		}
	/* hosts numbered in order of first appearance */
	for (int i = 0; i < n; i++) {
		int root = uf_root(hp, i), k;

		for (k = 0; k < nhost && hostof[k] != root; k++)
			;
		if (k == nhost)
			hostof[nhost++] = root;
		f[i].host = run[i].host = k;
		f[i].domain = uf_root(dp, i);
		f[i].boot = uf_root(bp, i);
	}
	h->host_first = xcalloc((size_t)nhost + 1, sizeof(*h->host_first));
	h->host_n = xcalloc((size_t)nhost + 1, sizeof(*h->host_n));
	for (int host = 0; host < nhost; host++) {
		int m = 0, ndom = renumber(f, n, host, 0);

		renumber(f, n, host, 1);
		for (int i = 0; i < n; i++)
			if (f[i].host == host) {
				run[i].domain = f[i].domain;
				ord[m++] = i;
			}
		if (place_domains(run, f, ord, m, ndom) && !r) {
			struct strbuf sb = STRBUF_INIT;

			strbuf_addf(&sb, "the recordings of host %s cannot be put in one time "
				    "line: a boot (or trace clock) without the wall clock beside "
				    "another",
				    run[ord[0]].host_name[0] ? run[ord[0]].host_name : "?");
			for (int k = 0; k < m; k++)
				strbuf_addf(&sb, "\n  %s (%s clock%s%s)", in[ord[k]].name,
					    run[ord[k]].clock[0] ? run[ord[k]].clock : "?",
					    run[ord[k]].has_wall ? ", wall clock" : ", no wall clock",
					    run[ord[k]].boot_id[0] ? ", boot id" : "");
			set_err(err, "%s", sb.buf);
			strbuf_release(&sb);
			r = -1;
		}
	}
	if (r)
		goto out;
	/* every host's runs in time order, hosts one after another */
	for (int i = 0; i < n; i++)
		ord[i] = i;
	sort_by = (struct sort_ctx){ run, f };
	qsort(ord, (size_t)n, sizeof(*ord), run_cmp);
	for (int k = 0, host = -1; k < n; k++) {
		if (run[ord[k]].host != host) {
			host = run[ord[k]].host;
			h->host_first[host] = k;
		}
		h->host_n[host]++;
	}
	for (int host = 0; host < nhost; host++)
		classify(run, f, ord + h->host_first[host], h->host_n[host]);
	h->run = xcalloc((size_t)n + 1, sizeof(*h->run));
	{
		int *pos = xcalloc((size_t)n + 1, sizeof(*pos));

		for (int k = 0; k < n; k++)
			pos[ord[k]] = k;
		for (int k = 0; k < n; k++) {
			h->run[k] = run[ord[k]];
			if (h->run[k].other >= 0 && h->run[k].rel != HIST_RUN)
				h->run[k].other = pos[h->run[k].other];
			else
				h->run[k].other = -1;
			/* the span on the time line as placed */
			if (!h->run[k].has_span) {
				h->run[k].first_ts = f[ord[k]].t0;
				h->run[k].last_ts = f[ord[k]].t1;
			}
		}
		free(pos);
	}
	h->nrun = n;
	h->nhost = nhost;
out:
	if (r) {
		free(h->host_first);
		free(h->host_n);
		memset(h, 0, sizeof(*h));
	}
	free(run);
	free(f);
	free(hp);
	free(dp);
	free(bp);
	free(ord);
	free(hostof);
	return r;
}

void history_free(struct history *h)
{
	free(h->run);
	free(h->host_first);
	free(h->host_n);
	memset(h, 0, sizeof(*h));
}

int history_prev(const struct history *h, int i)
{
	int host = h->run[i].host;

	for (int k = i - 1; k >= h->host_first[host]; k--)
		if (h->run[k].rel != HIST_INSIDE)
			return k;
	return -1;
}

int history_gap_before(const struct history *h, int i, int64_t *from, int64_t *to)
{
	const struct history_run *r = &h->run[i];
	int64_t last = INT64_MIN;
	int any = 0;

	if (r->rel == HIST_INSIDE || !r->has_span)
		return 0;
	/* the latest end of the runs of the time line before it */
	for (int k = h->host_first[r->host]; k < i; k++) {
		const struct history_run *p = &h->run[k];

		if (p->rel == HIST_INSIDE || !p->has_span)
			continue;
		if (history_time(p, history_own_last(p)) > last)
			last = history_time(p, history_own_last(p));
		any = 1;
	}
	/* an incident's own part ends where the run it is partly inside
	 * begins: no gap between them */
	if (!any || last + 1 >= history_time(r, history_own_first(r)))
		return 0;
	*from = last;
	*to = history_time(r, history_own_first(r));
	return 1;
}

const char *history_began_word(enum history_began b)
{
	switch (b) {
	case HIST_BEGAN_FIRST: return "start";
	case HIST_BEGAN_RESTART: return "restart";
	case HIST_BEGAN_RECOVER: return "restart after recover";
	case HIST_BEGAN_REBOOT: return "reboot";
	case HIST_BEGAN_TRIGGER: return "trigger";
	case HIST_BEGAN_NEW: return "new run";
	}
	return "?";
}

void history_line(const struct history *h, const struct history_in *in, int i,
		  struct strbuf *sb)
{
	const struct history_run *r = &h->run[i];
	char a[40], b[40];

	strbuf_addf(sb, "run %d: %s, ", i - h->host_first[r->host] + 1, in[r->in].name);
	if (r->has_wall) {
		wall_ns_format(r->wall_first, 0, a, sizeof(a));
		wall_ns_format(r->wall_last, 0, b, sizeof(b));
		strbuf_addf(sb, "%s .. %s", a, b);
	} else if (r->has_span) {
		strbuf_addf(sb, "@%llu.%06llu .. @%llu.%06llu (trace time)",
			    (unsigned long long)(r->first_ts / 1000000000ull),
			    (unsigned long long)(r->first_ts % 1000000000ull / 1000),
			    (unsigned long long)(r->last_ts / 1000000000ull),
			    (unsigned long long)(r->last_ts % 1000000000ull / 1000));
	} else {
		strbuf_addstr(sb, "no events, no time");
	}
	strbuf_addf(sb, " (host %s", r->host_name[0] ? r->host_name : "not recorded");
	if (r->boot_id[0])
		strbuf_addf(sb, ", boot %.8s", r->boot_id);
	strbuf_addch(sb, ')');
}
