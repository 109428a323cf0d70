// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Flight-recorder triggers (see trigger.h): parse "NAME>VALUE", read the
 * counter each one watches, and decide when to fire. Reading and
 * deciding are split so the decision can be tested with made-up values.
 */
#include "config.h"
#include "trigger.h"
#include "util.h"

#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	const char *name;
	enum trigger_kind kind;
} trigger_names[] = {
	{ "psi-some", TRIGGER_PSI_SOME },
	{ "stall-ms", TRIGGER_STALL_MS },
	{ "fallback-rate", TRIGGER_FALLBACK_RATE },
};

int trigger_parse(const char *spec, struct trigger *t, char **err)
{
	const char *gt = strchr(spec, '>');
	char *end;

	memset(t, 0, sizeof(*t));
	if (!gt)
		return set_err(err, "bad trigger '%s' (psi-some>PCT, stall-ms>N or fallback-rate>PCT)",
			       spec);
	for (size_t i = 0; i < ARRAY_SIZE(trigger_names); i++) {
		if (strlen(trigger_names[i].name) != (size_t)(gt - spec) ||
		    strncmp(spec, trigger_names[i].name, (size_t)(gt - spec)))
			continue;
		t->kind = trigger_names[i].kind;
		t->threshold = strtod(gt + 1, &end);
		if (end == gt + 1 || *end || t->threshold < 0)
			return set_err(err, "bad value in trigger '%s'", spec);
		t->armed = 1;
		snprintf(t->name, sizeof(t->name), "%s", spec);
		return 0;
	}
	return set_err(err, "unknown trigger '%.*s' (psi-some, stall-ms or fallback-rate)",
		       (int)(gt - spec), spec);
}

static int read_psi(const char *root, double *avg10, double *total)
{
	char *p = xasprintf("%s/proc/pressure/memory", root);
	FILE *f = fopen(p, "re");
	int r = -1;

	free(p);
	if (!f)
		return -1;
	if (fscanf(f, "some avg10=%lf avg60=%*f avg300=%*f total=%lf", avg10, total) == 2)
		r = 0;
	fclose(f);
	return r;
}

static long long read_ll(const char *path)
{
	FILE *f = fopen(path, "re");
	long long v = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%lld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

static int read_mthp(const char *root, double *swpout, double *fallback)
{
	char *pat = xasprintf("%s/sys/kernel/mm/transparent_hugepage/hugepages-*kB/stats", root);
	glob_t g;
	int found = 0;

	*swpout = *fallback = 0;
	if (!glob(pat, 0, NULL, &g)) {
		for (size_t i = 0; i < g.gl_pathc; i++) {
			char *a = xasprintf("%s/swpout", g.gl_pathv[i]);
			char *b = xasprintf("%s/swpout_fallback", g.gl_pathv[i]);
			long long x = read_ll(a), y = read_ll(b);

			if (x >= 0 && y >= 0) {
				*swpout += (double)x;
				*fallback += (double)y;
				found = 1;
			}
			free(a);
			free(b);
		}
		globfree(&g);
	}
	free(pat);
	return found ? 0 : -1;
}

/* One evaluation from raw counter values. */
static int trigger_eval(struct trigger *t, double a, double b, char *why, size_t n)
{
	int cond = 0, fire;

	switch (t->kind) {
	case TRIGGER_PSI_SOME:		/* a = avg10 */
		cond = a > t->threshold;
		snprintf(why, n, "psi some avg10 %.2f > %g", a, t->threshold);
		break;
	case TRIGGER_STALL_MS:		/* a = some total (us) */
		if (t->have_prev) {
			double ms = (a - t->prev_a) / 1000.0;

			cond = ms > t->threshold;
			snprintf(why, n, "memory stall %.1f ms in one interval > %g ms", ms,
				 t->threshold);
		}
		break;
	case TRIGGER_FALLBACK_RATE:	/* a = swpout, b = swpout_fallback */
		if (t->have_prev) {
			double out = a - t->prev_a, fb = b - t->prev_b;
			double pct = out + fb > 0 ? 100.0 * fb / (out + fb) : 0;

			cond = out + fb > 0 && pct > t->threshold;
			snprintf(why, n, "mTHP swap-out fallback %.1f%% (%.0f of %.0f) > %g%%",
				 pct, fb, out + fb, t->threshold);
		}
		break;
	}
	t->prev_a = a;
	t->prev_b = b;
	t->have_prev = 1;
	fire = cond && t->armed;
	if (cond)
		t->armed = 0;
	else
		t->armed = 1;
	return fire;
}

int trigger_check(struct trigger *t, const char *root, char *why, size_t n)
{
	double a = 0, b = 0;

	root = root ? root : "";
	switch (t->kind) {
	case TRIGGER_PSI_SOME:
	case TRIGGER_STALL_MS:
		if (read_psi(root, &a, &b))
			return -1;
		if (t->kind == TRIGGER_STALL_MS)
			a = b;
		break;
	case TRIGGER_FALLBACK_RATE:
		if (read_mthp(root, &a, &b))
			return -1;
		break;
	}
	return trigger_eval(t, a, b, why, n);
}
