// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Building a comparison table from per-run metric values and rendering it
 * in the mmtests dialect, the plain (defrag_mode / freelist hygiene)
 * dialect, or JSON. The mmtests layout is that of
 * bin/lib/MMTests/{Compare,PrintGeneric}.pm: the row prefix is
 * "%-Ss %-Os" (S, O the longest statistic and op names), each run is
 * "%12.2f (%7.2f%%)", the header cells are "%23s" after S + 1 + O blanks,
 * and the percentage is pdiff (new * 100 / base - 100) for higher-is-better
 * statistics and pndiff (100 - new * 100 / base) otherwise, Stddev and
 * CoeffVar always pndiff. Where mmtests prints nonsense (100 or -99 for a
 * zero baseline, NaN) this prints "n/a". Columns widen, never wrap, when a
 * value or run name does not fit the default width.
 */
#include "config.h"
#include "compare-table.h"
#include "findings.h"
#include "json.h"
#include "stats.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	const char *name;
	enum ct_stat_kind kind;
} stat_words[] = {
	{ "min", CT_MIN }, { "mean", CT_MEAN }, { "amean", CT_AMEAN },
	{ "hmean", CT_HMEAN }, { "gmean", CT_GMEAN }, { "stddev", CT_STDDEV },
	{ "coeffvar", CT_COEFFVAR }, { "max", CT_MAX }, { "median", CT_MEDIAN },
	{ "samples", CT_SAMPLES },
};

static int parse_pct(const char *s, double *out)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || *end || !(v > 0 && v <= 100))
		return -1;
	*out = v;
	return 0;
}

static int parse_stat(const char *w, struct ct_stat *st)
{
	for (size_t i = 0; i < ARRAY_SIZE(stat_words); i++) {
		if (!strcmp(w, stat_words[i].name)) {
			st->kind = stat_words[i].kind;
			st->arg = 0;
			return 0;
		}
	}
	if (w[0] == 'p' && isdigit((unsigned char)w[1])) {
		st->kind = CT_PCTILE;
		return parse_pct(w + 1, &st->arg);
	}
	if (!strncmp(w, "bmean-", 6) || !strncmp(w, "bamean-", 7)) {
		st->kind = CT_BMEAN;
		return parse_pct(strchr(w, '-') + 1, &st->arg);
	}
	return -1;
}

int ct_parse_stats(const char *list, struct ct_stat **out, size_t *n, char **err)
{
	char *copy = xstrdup(list), *save = NULL, *w;

	*out = NULL;
	*n = 0;
	for (w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		*out = xreallocarray(*out, *n + 1, sizeof(**out));
		if (parse_stat(w, &(*out)[*n])) {
			set_err(err, "unknown statistic '%s' (min, mean, amean, hmean, gmean, "
				"stddev, coeffvar, max, median, pNN, bmean-NN, samples)", w);
			free(copy);
			free(*out);
			*out = NULL;
			*n = 0;
			return -1;
		}
		(*n)++;
	}
	free(copy);
	if (!*n)
		return set_err(err, "no statistic given");
	return 0;
}

void ct_init(struct ct_table *t)
{
	memset(t, 0, sizeof(*t));
}

size_t ct_add_column(struct ct_table *t, const char *name)
{
	t->cols = xreallocarray(t->cols, t->ncols + 1, sizeof(*t->cols));
	t->nruns = xreallocarray(t->nruns, t->ncols + 1, sizeof(*t->nruns));
	t->info = xreallocarray(t->info, t->ncols + 1, sizeof(*t->info));
	memset(&t->info[t->ncols], 0, sizeof(*t->info));
	t->cols[t->ncols] = xstrdup(name);
	t->nruns[t->ncols] = 0;
	for (size_t r = 0; r < t->nrows; r++) {
		t->rows[r].cells = xreallocarray(t->rows[r].cells, t->ncols + 1,
						 sizeof(struct ct_cell));
		memset(&t->rows[r].cells[t->ncols], 0, sizeof(struct ct_cell));
	}
	return t->ncols++;
}

static struct ct_row *find_row(struct ct_table *t, const char *name)
{
	struct ct_row *row;

	for (size_t r = 0; r < t->nrows; r++)
		if (!strcmp(t->rows[r].mi.name, name))
			return &t->rows[r];
	t->rows = xreallocarray(t->rows, t->nrows + 1, sizeof(*t->rows));
	row = &t->rows[t->nrows];
	memset(row, 0, sizeof(*row));
	metrics_describe(name, &row->mi);
	row->higher_is_better = -1;
	row->seq = t->nrows++;
	row->cells = xcalloc(t->ncols ? t->ncols : 1, sizeof(*row->cells));
	return row;
}

/* Is line (len bytes) one of the lines of sb? */
static int has_line(const struct strbuf *sb, const char *line, size_t len)
{
	for (const char *p = sb->buf; p && *p;) {
		const char *nl = strchr(p, '\n');
		size_t l = nl ? (size_t)(nl - p) : strlen(p);

		if (l == len && !strncmp(p, line, len))
			return 1;
		p += l + (nl != NULL);
	}
	return 0;
}

static struct ct_finding *column_finding(const struct ct_column_info *ci, const char *id,
					 const char *unit)
{
	for (size_t k = 0; k < ci->nfindings; k++)
		if (!strcmp(ci->findings[k].id, id) && !strcmp(ci->findings[k].unit, unit))
			return &ci->findings[k];
	return NULL;
}

/* The run's findings into its column: run is its place in the column. */
static void add_run_findings(struct ct_column_info *ci, size_t run,
			     const struct metric_values *mv)
{
	if (!mv->findings_known)
		return;
	ci->findings_runs++;
	if (mv->notrun.len)
		strbuf_add(&ci->notrun, mv->notrun.buf, mv->notrun.len);
	for (size_t i = 0; i < mv->nfindings; i++) {
		const struct run_finding *rf = &mv->findings[i];
		struct ct_finding *f = column_finding(ci, rf->id, rf->unit);

		if (!f) {
			ci->findings = xreallocarray(ci->findings, ci->nfindings + 1,
						     sizeof(*ci->findings));
			f = &ci->findings[ci->nfindings++];
			memset(f, 0, sizeof(*f));
			snprintf(f->id, sizeof(f->id), "%s", rf->id);
			snprintf(f->unit, sizeof(f->unit), "%s", rf->unit);
			f->severity = rf->severity;
		}
		if (rf->severity > f->severity)
			f->severity = rf->severity;
		f->run = xreallocarray(f->run, f->n + 1, sizeof(*f->run));
		f->count = xreallocarray(f->count, f->n + 1, sizeof(*f->count));
		f->run[f->n] = run;
		f->count[f->n++] = rf->count;
	}
}

void ct_add_run(struct ct_table *t, size_t col, const struct metric_values *mv)
{
	struct ct_column_info *ci = &t->info[col];

	t->nruns[col]++;
	/* the command: the column's when all its runs that say agree */
	if (mv->command && !ci->command)
		ci->command = xstrdup(mv->command);
	else if (mv->command && strcmp(ci->command, mv->command))
		ci->command_varies = 1;
	for (const char *p = mv->notes.buf; p && *p;) {
		const char *nl = strchr(p, '\n');
		size_t l = nl ? (size_t)(nl - p) : strlen(p);

		if (!has_line(&ci->notes, p, l)) {
			strbuf_add(&ci->notes, p, l);
			strbuf_addch(&ci->notes, '\n');
		}
		p += l + (nl != NULL);
	}
	add_run_findings(ci, t->nruns[col] - 1, mv);
	for (size_t i = 0; i < mv->n; i++) {
		const struct metric_series *s = &mv->m[i];
		struct ct_row *row = find_row(t, s->name);
		struct ct_cell *c = &row->cells[col];

		if (row->higher_is_better < 0 && s->higher_is_better >= 0)
			row->higher_is_better = s->higher_is_better;
		c->v = xreallocarray(c->v, c->n + s->n + 1, sizeof(*c->v));
		memcpy(c->v + c->n, s->v, s->n * sizeof(*c->v));
		c->n += s->n;
	}
}

static void row_release(struct ct_row *row, size_t ncols)
{
	for (size_t c = 0; c < ncols; c++)
		free(row->cells[c].v);
	free(row->cells);
}

int ct_row_all_zero(const struct ct_row *row, size_t ncols)
{
	for (size_t c = 0; c < ncols; c++)
		for (size_t i = 0; i < row->cells[c].n; i++)
			if (row->cells[c].v[i] != 0)
				return 0;
	return 1;
}

void ct_filter(struct ct_table *t, int (*keep)(const struct ct_row *, size_t, void *),
	       void *ctx)
{
	size_t out = 0;

	for (size_t r = 0; r < t->nrows; r++) {
		if (keep(&t->rows[r], t->ncols, ctx))
			t->rows[out++] = t->rows[r];
		else
			row_release(&t->rows[r], t->ncols);
	}
	t->nrows = out;
}

/* The number in a template's expansion ("mthp-64kB-swpout" -> 64). */
static long name_number(const char *s)
{
	while (*s && !isdigit((unsigned char)*s))
		s++;
	return strtol(s, NULL, 10);
}

static int cmp_rows(const void *a, const void *b)
{
	const struct ct_row *x = a, *y = b;
	long nx, ny;

	if (x->mi.order != y->mi.order)
		return x->mi.order < y->mi.order ? -1 : 1;
	if (x->mi.def) {
		nx = name_number(x->mi.name);
		ny = name_number(y->mi.name);
		if (nx != ny)
			return nx < ny ? -1 : 1;
		return strcmp(x->mi.name, y->mi.name);
	}
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

void ct_sort(struct ct_table *t)
{
	for (size_t r = 0; r < t->nrows; r++) {
		struct ct_row *row = &t->rows[r];

		if (row->higher_is_better < 0)
			row->higher_is_better = row->mi.higher_is_better;
		row->positive = 1;
		for (size_t c = 0; c < t->ncols; c++)
			for (size_t i = 0; i < row->cells[c].n; i++)
				row->positive &= row->cells[c].v[i] > 0;
	}
	if (t->nrows)
		qsort(t->rows, t->nrows, sizeof(*t->rows), cmp_rows);
}

void ct_release(struct ct_table *t)
{
	for (size_t r = 0; r < t->nrows; r++)
		row_release(&t->rows[r], t->ncols);
	for (size_t c = 0; c < t->ncols; c++) {
		free(t->cols[c]);
		free(t->info[c].command);
		strbuf_release(&t->info[c].notes);
		for (size_t k = 0; k < t->info[c].nfindings; k++) {
			free(t->info[c].findings[k].run);
			free(t->info[c].findings[k].count);
		}
		free(t->info[c].findings);
		strbuf_release(&t->info[c].notrun);
	}
	free(t->rows);
	free(t->cols);
	free(t->nruns);
	free(t->info);
	ct_init(t);
}

/*
 * mmtests takes Hmean for higher-is-better metrics where it says "mean";
 * here only when the harmonic mean is defined for the whole row (every
 * sample > 0), else the row stays Amean rather than printing n/a.
 */
static int use_hmean(const struct ct_stat *s, const struct ct_row *row, enum ct_dialect d)
{
	return s->kind == CT_HMEAN ||
	       ((s->kind == CT_MEAN || s->kind == CT_BMEAN) && row->higher_is_better &&
		row->positive && d == CT_MMTESTS);
}

double ct_stat_value(const struct ct_stat *s, const struct ct_row *row, size_t col,
		     enum ct_dialect d)
{
	const struct ct_cell *c = &row->cells[col];
	int hib = row->higher_is_better;
	double v;

	switch (s->kind) {
	case CT_MIN: v = stats_min(c->v, c->n); break;
	case CT_MEAN: v = use_hmean(s, row, d) ? stats_hmean(c->v, c->n) :
					      stats_mean(c->v, c->n); break;
	case CT_AMEAN: v = stats_mean(c->v, c->n); break;
	case CT_HMEAN: v = stats_hmean(c->v, c->n); break;
	case CT_GMEAN: v = stats_gmean(c->v, c->n); break;
	case CT_STDDEV: v = stats_stddev(c->v, c->n); break;
	case CT_COEFFVAR: v = c->n < 2 ? NAN : stats_coeffvar(c->v, c->n); break;
	case CT_MAX: v = stats_max(c->v, c->n); break;
	case CT_MEDIAN: v = stats_median(c->v, c->n); break;
	case CT_PCTILE: v = stats_percentile(c->v, c->n, s->arg, hib); break;
	case CT_BMEAN: v = stats_bmean(c->v, c->n, s->arg, hib, use_hmean(s, row, d)); break;
	case CT_SAMPLES: v = (double)c->n; break;
	default: v = NAN;
	}
	return isfinite(v) ? (v == 0 ? 0 : v) : NAN;
}

void ct_stat_name(const struct ct_stat *s, const struct ct_row *row, enum ct_dialect d,
		  char *buf, size_t len)
{
	static const char *const mm[] = {
		[CT_MIN] = "Min", [CT_AMEAN] = "Amean", [CT_HMEAN] = "Hmean",
		[CT_GMEAN] = "Gmean", [CT_STDDEV] = "Stddev", [CT_COEFFVAR] = "CoeffVar",
		[CT_MAX] = "Max", [CT_MEDIAN] = "Median", [CT_SAMPLES] = "Samples",
	};
	int h = use_hmean(s, row, d);

	if (d == CT_PLAIN) {
		if (s->kind == CT_PCTILE)
			snprintf(buf, len, "p%g", s->arg);
		else if (s->kind == CT_BMEAN)
			snprintf(buf, len, "bmean-%g", s->arg);
		else
			for (size_t i = 0; i < ARRAY_SIZE(stat_words); i++)
				if (stat_words[i].kind == s->kind)
					snprintf(buf, len, "%s", stat_words[i].name);
		return;
	}
	if (s->kind == CT_MEAN)
		snprintf(buf, len, "%s", h ? "Hmean" : "Amean");
	else if (s->kind == CT_BMEAN)
		snprintf(buf, len, "%s-%g", h ? "BHmean" : "BAmean", s->arg);
	else if (s->kind == CT_PCTILE)
		snprintf(buf, len, "Max-%g", s->arg);
	else
		snprintf(buf, len, "%s", mm[s->kind]);
}

/* Is this the row mmtests compares for significance (the mean)? */
static int is_mean_stat(const struct ct_stat *s)
{
	return s->kind == CT_MEAN || s->kind == CT_AMEAN || s->kind == CT_HMEAN;
}

/* A unit that counts things (an average below one of them is next to
 * nothing), as opposed to times, sizes in MiB and percentages. */
static int count_unit(const char *unit)
{
	static const char *const counts[] = { "events", "pages", "folios", "clusters",
					      "objects", "KiB" };

	for (size_t i = 0; unit && i < ARRAY_SIZE(counts); i++)
		if (!strcmp(unit, counts[i]))
			return 1;
	return 0;
}

int ct_practical(double pct)
{
	/* as the plain table prints it, one decimal: -0.96% is "-1.0%" */
	return !isnan(pct) && fabs(pct) >= CT_PRACTICAL_PCT - 0.05;
}

/* Change of v against base, in the dialect's convention; NAN = n/a (a
 * zero base, or a count's base below one: see CT_PRACTICAL_PCT). */
static double change_pct(const struct ct_stat *s, const struct ct_row *row, enum ct_dialect d,
			 double v, double base)
{
	int hib = row->higher_is_better, better_higher;

	if (isnan(v) || isnan(base))
		return NAN;
	if (base == 0)
		return v == 0 ? 0 : NAN;
	if (fabs(base) < 1 && v != base && count_unit(row->mi.unit) &&
	    s->kind != CT_COEFFVAR && s->kind != CT_SAMPLES)
		return NAN;
	if (d == CT_PLAIN)
		return (v - base) * 100 / base;
	if (s->kind == CT_STDDEV || s->kind == CT_COEFFVAR)
		better_higher = 0;
	else if (s->kind == CT_SAMPLES)
		better_higher = 1;
	else
		better_higher = hib;
	return better_higher ? v * 100 / base - 100 : 100 - v * 100 / base;
}

/*
 * Welch at level alpha between the baseline and column c; -1 = not tested,
 * which is the case unless both columns have at least two runs (files):
 * the samples of one run are not independent repetitions.
 */
static int significant(const struct ct_table *t, const struct ct_row *row, size_t c,
		       double alpha)
{
	struct stats_welch w;

	if (t->nruns[0] < 2 || t->nruns[c] < 2)
		return -1;
	if (stats_welch_test(row->cells[0].v, row->cells[0].n, row->cells[c].v,
			     row->cells[c].n, alpha, &w))
		return -1;
	return w.significant;
}

double ct_change_pct(const struct ct_stat *s, const struct ct_row *row, size_t c,
		     enum ct_dialect d)
{
	if (!row->cells[c].n || !row->cells[0].n)
		return NAN;
	return change_pct(s, row, d, ct_stat_value(s, row, c, d),
			  ct_stat_value(s, row, 0, d));
}

int ct_significant(const struct ct_table *t, const struct ct_row *row, size_t c, double alpha)
{
	return significant(t, row, c, alpha);
}

static void rtrim_line(struct strbuf *out, size_t start)
{
	while (out->len > start && out->buf[out->len - 1] == ' ')
		out->buf[--out->len] = '\0';
	strbuf_addch(out, '\n');
}

static int fmt_len(double v)
{
	char buf[64];

	return isnan(v) ? 3 : snprintf(buf, sizeof(buf), "%.2f", v);
}

/* Columns [first, end) that fit in width after a prefix of p columns. */
static size_t block_end(const int *colw, size_t first, size_t ncols, int p, int width)
{
	int used = p + colw[first];
	size_t end = first + 1;

	while (end < ncols && used + colw[end] <= width)
		used += colw[end++];
	return end;
}

/* Rows of the mmtests stat table or of its monitor table. */
static int in_monitor(const struct ct_row *row, const struct ct_opts *o)
{
	return o->monitor && row->mi.source == METRIC_COUNTER;
}

static void mmtests_split(const char *name, struct strbuf *l1, struct strbuf *l2)
{
	const char *dash = strchr(name, '-');

	if (dash && dash[1] == 'r' && dash[2] == 'c' && isdigit((unsigned char)dash[3])) {
		const char *p = dash + 3;

		while (isdigit((unsigned char)*p))
			p++;
		dash = strchr(p, '-');
		if (!dash) {
			strbuf_addstr(l1, name);
			return;
		}
	}
	if (!dash) {
		strbuf_addstr(l2, name);
		return;
	}
	strbuf_add(l1, name, (size_t)(dash - name));
	strbuf_addstr(l2, dash + 1);
}

static int mmtests_no_first_line(const struct ct_table *t, size_t first, size_t end)
{
	int blank = 1;

	for (size_t c = first; c < end; c++) {
		struct strbuf l1 = STRBUF_INIT, l2 = STRBUF_INIT;

		mmtests_split(t->cols[c], &l1, &l2);
		blank &= !l1.len;
		strbuf_release(&l1);
		strbuf_release(&l2);
	}
	return blank;
}

/* Two header lines; the first is left out when it would be blank. */
static void mmtests_header(const struct ct_table *t, size_t first, size_t end, int p,
			   const int *colw, struct strbuf *out)
{
	for (int line = 0; line < 2; line++) {
		size_t start = out->len;

		if (line == 0 && mmtests_no_first_line(t, first, end))
			continue;

		strbuf_addf(out, "%*s", p, "");
		for (size_t c = first; c < end; c++) {
			struct strbuf l1 = STRBUF_INIT, l2 = STRBUF_INIT;

			mmtests_split(t->cols[c], &l1, &l2);
			strbuf_addf(out, "%*s", colw[c], line ? (l2.buf ? l2.buf : "") :
						       (l1.buf ? l1.buf : ""));
			strbuf_release(&l1);
			strbuf_release(&l2);
		}
		rtrim_line(out, start);
	}
}

static int header_part_len(const char *name)
{
	struct strbuf l1 = STRBUF_INIT, l2 = STRBUF_INIT;
	int n;

	mmtests_split(name, &l1, &l2);
	n = (int)(l1.len > l2.len ? l1.len : l2.len);
	strbuf_release(&l1);
	strbuf_release(&l2);
	return n;
}

/*
 * A percentage in a fixed width w (7 for mmtests, 9 for plain, the
 * latter with its sign forced): two decimals, or none, or an exponent,
 * whichever first fits, so a huge change never shifts the columns.
 */
static void fmt_pct(char *buf, size_t len, int w, int plus, double v)
{
	int n;

	n = plus ? snprintf(buf, len, "%+*.2f", w, v) : snprintf(buf, len, "%*.2f", w, v);
	if (n > w)
		n = plus ? snprintf(buf, len, "%+*.0f", w, v) : snprintf(buf, len, "%*.0f", w, v);
	if (n > w)
		plus ? snprintf(buf, len, "%+*.0e", w, v) : snprintf(buf, len, "%*.0e", w, v);
}

/* Does a printed change ("+0.0%", "  -0.00") say no change? A star on it
 * would mark a difference the reader cannot see. */
static int prints_zero(const char *buf)
{
	return strtod(buf, NULL) == 0;
}

/* One mmtests cell: value, then " (pct%)", " *pct%*" or nothing. */
static void mmtests_cell(const struct ct_table *t, const struct ct_row *row, size_t c,
			 const struct ct_stat *s, const struct ct_opts *o, int fw,
			 struct strbuf *out)
{
	const struct ct_cell *cell = &row->cells[c];
	double v, base, pct;
	int sig;

	if (!cell->n) {
		strbuf_addf(out, "%*s%11s", fw, "-", "");
		return;
	}
	v = ct_stat_value(s, row, c, o->dialect);
	if (isnan(v)) {
		strbuf_addf(out, "%*s%11s", fw, "n/a", "");
		return;
	}
	strbuf_addf(out, "%*.2f", fw, v);
	if (c == 0) {
		strbuf_addf(out, " (%7.2f%%)", 0.0);
		return;
	}
	base = row->cells[0].n ? ct_stat_value(s, row, 0, o->dialect) : NAN;
	pct = change_pct(s, row, o->dialect, v, base);
	sig = is_mean_stat(s) ? significant(t, row, c, o->alpha) : -1;
	if (isnan(pct))
		strbuf_addf(out, " (%8s)", "n/a");
	else {
		char buf[64];

		fmt_pct(buf, sizeof(buf), 7, 0, pct == 0 ? 0.0 : pct);
		if (prints_zero(buf) || !ct_practical(pct))
			sig = 0;	/* below the practical threshold: no mark */
		strbuf_addf(out, "%s%s%s", sig > 0 ? " *" : " (", buf, sig > 0 ? "%*" : "%)");
	}
}

/* Is the row printed? Rows zero or absent everywhere are not, unless --all. */
static int row_shown(const struct ct_table *t, const struct ct_row *row,
		     const struct ct_opts *o)
{
	return o->all || !ct_row_quiet(row, t->ncols);
}

/*
 * Value field width of column c: base (12; 15 in the monitor table), or
 * wider for long values / names; base 0: the least that holds them. pad
 * is what the header cell has besides the field (11: the percentage).
 */
static int mmtests_field_width(const struct ct_table *t, size_t c, const struct ct_opts *o,
			       int monitor, int base, int pad)
{
	int fw = base > 4 ? base : 4, need = header_part_len(t->cols[c]) + 1 - pad;

	if (need > fw)
		fw = need;
	for (size_t r = 0; r < t->nrows; r++) {
		const struct ct_row *row = &t->rows[r];

		if (monitor != in_monitor(row, o) || !row->cells[c].n || !row_shown(t, row, o))
			continue;
		for (size_t k = 0; k < (monitor ? 1 : o->nstats); k++) {
			static const struct ct_stat amean = { CT_AMEAN, 0 };
			const struct ct_stat *st = monitor ? &amean : &o->stats[k];
			int n = fmt_len(ct_stat_value(st, row, c, o->dialect)) + 1;

			if (n > fw)
				fw = n;
		}
	}
	return fw;
}

/*
 * The baseline and one more column side by side within the width (as the
 * plain dialect has them): first the value fields narrow to what their
 * values need, then the row names (op or label, from name_w, down to 12)
 * are cut with '~'. *name_w is the names' width; p0 what precedes it.
 */
static void mmtests_fit(const struct ct_table *t, const struct ct_opts *o, int monitor,
			int pad, int *fw, int p0, int *name_w)
{
	int need;

	if (t->ncols < 2 || p0 + *name_w + fw[0] + fw[1] + 2 * pad <= o->width)
		return;
	for (size_t c = 0; c < t->ncols; c++) {
		int min = mmtests_field_width(t, c, o, monitor, 0, pad);

		fw[c] = min < fw[c] ? min : fw[c];
	}
	need = p0 + *name_w + fw[0] + fw[1] + 2 * pad;
	if (need > o->width) {
		*name_w -= need - o->width;
		if (*name_w < 12)
			*name_w = 12;
	}
}

/* name, cut to w characters ending in '~' when longer */
static const char *cut_name(const char *name, int w, char *buf, size_t len)
{
	if ((int)strlen(name) <= w || w < 2)
		return name;
	snprintf(buf, len, "%.*s~", w - 1, name);
	return buf;
}

static void mmtests_stat_table(const struct ct_table *t, const struct ct_opts *o,
			       struct strbuf *out)
{
	int smax = 0, omax = 0, p, *fw = xcalloc(t->ncols, sizeof(int));
	int *colw = xcalloc(t->ncols, sizeof(int));
	char name[64], cut[128];

	for (size_t r = 0; r < t->nrows; r++) {
		if (in_monitor(&t->rows[r], o) || !row_shown(t, &t->rows[r], o))
			continue;
		for (size_t k = 0; k < o->nstats; k++) {
			ct_stat_name(&o->stats[k], &t->rows[r], o->dialect,
				     name, sizeof(name));
			smax = (int)strlen(name) > smax ? (int)strlen(name) : smax;
		}
		if ((int)strlen(t->rows[r].mi.name) > omax)
			omax = (int)strlen(t->rows[r].mi.name);
	}
	for (size_t c = 0; c < t->ncols; c++)
		fw[c] = mmtests_field_width(t, c, o, 0, 12, 11);
	mmtests_fit(t, o, 0, 11, fw, smax + 1, &omax);
	p = smax + 1 + omax;
	for (size_t c = 0; c < t->ncols; c++)
		colw[c] = fw[c] + 11;
	for (size_t first = 0, end; first < t->ncols; first = end) {
		end = block_end(colw, first, t->ncols, p, o->width);
		if (first)
			strbuf_addch(out, '\n');
		mmtests_header(t, first, end, p, colw, out);
		for (size_t k = 0; k < o->nstats; k++) {
			for (size_t r = 0; r < t->nrows; r++) {
				const struct ct_row *row = &t->rows[r];
				size_t start = out->len;

				if (in_monitor(row, o) || !row_shown(t, row, o))
					continue;
				ct_stat_name(&o->stats[k], row, o->dialect,
					     name, sizeof(name));
				strbuf_addf(out, "%-*s %-*s", smax, name, omax,
					    cut_name(row->mi.name, omax, cut, sizeof(cut)));
				for (size_t c = first; c < end; c++)
					mmtests_cell(t, row, c, &o->stats[k], o, fw[c], out);
				rtrim_line(out, start);
			}
		}
	}
	free(fw);
	free(colw);
}

/* "Ops <label>" rows: the mean over the runs, "%15.2f", no percentages. */
static void mmtests_monitor_table(const struct ct_table *t, const struct ct_opts *o,
				  struct strbuf *out)
{
	static const struct ct_stat amean = { CT_AMEAN, 0 };
	int lmax = 0, *colw = xcalloc(t->ncols, sizeof(int));
	char cut[160];

	for (size_t r = 0; r < t->nrows; r++)
		if (in_monitor(&t->rows[r], o) && row_shown(t, &t->rows[r], o) &&
		    (int)strlen(t->rows[r].mi.label) > lmax)
			lmax = (int)strlen(t->rows[r].mi.label);
	for (size_t c = 0; c < t->ncols; c++)
		colw[c] = mmtests_field_width(t, c, o, 1, 15, 0);
	mmtests_fit(t, o, 1, 0, colw, 4, &lmax);
	lmax += 4;	/* "Ops " */
	for (size_t first = 0, end; first < t->ncols; first = end) {
		end = block_end(colw, first, t->ncols, lmax, o->width);
		if (first)
			strbuf_addch(out, '\n');
		mmtests_header(t, first, end, lmax, colw, out);
		for (size_t r = 0; r < t->nrows; r++) {
			const struct ct_row *row = &t->rows[r];
			size_t start = out->len;

			if (!in_monitor(row, o) || !row_shown(t, row, o))
				continue;
			strbuf_addf(out, "Ops %-*s", lmax - 4,
				    cut_name(row->mi.label, lmax - 4, cut, sizeof(cut)));
			for (size_t c = first; c < end; c++) {
				double v = row->cells[c].n ?
					ct_stat_value(&amean, row, c, o->dialect) : NAN;

				if (!row->cells[c].n)
					strbuf_addf(out, "%*s", colw[c], "-");
				else if (isnan(v))
					strbuf_addf(out, "%*s", colw[c], "n/a");
				else
					strbuf_addf(out, "%*.2f", colw[c], v);
			}
			rtrim_line(out, start);
		}
	}
	free(colw);
}

static void render_mmtests(const struct ct_table *t, const struct ct_opts *o,
			   struct strbuf *out)
{
	int nstat = 0, nmon = 0;
	size_t hidden = 0;

	for (size_t r = 0; r < t->nrows; r++) {
		if (!row_shown(t, &t->rows[r], o))
			hidden++;
		else if (in_monitor(&t->rows[r], o))
			nmon++;
		else
			nstat++;
	}
	if (nstat)
		mmtests_stat_table(t, o, out);
	if (nstat && nmon)
		strbuf_addch(out, '\n');
	if (nmon)
		mmtests_monitor_table(t, o, out);
	if (hidden)
		strbuf_addf(out, "%s(%zu row%s zero or absent in every column not shown; "
			    "--all shows them)\n", nstat || nmon ? "\n" : "", hidden,
			    hidden == 1 ? "" : "s");
}

/* The plain row label: "<label>", or "<label> <stat>" unless the only
 * statistic is the mean. */
static void plain_label(const struct ct_row *row, const struct ct_stat *s,
			const struct ct_opts *o, char *buf, size_t len)
{
	char st[32];

	if (o->nstats == 1 && s->kind == CT_MEAN) {
		snprintf(buf, len, "%s", row->mi.plain_label);
		return;
	}
	ct_stat_name(s, row, CT_PLAIN, st, sizeof(st));
	snprintf(buf, len, "%s %s", row->mi.plain_label, st);
}

int ct_row_quiet(const struct ct_row *row, size_t ncols)
{
	for (size_t c = 0; c < ncols; c++)
		for (size_t i = 0; i < row->cells[c].n; i++)
			if (row->cells[c].v[i] != 0 && !isnan(row->cells[c].v[i]))
				return 0;
	return 1;
}

/* A plain value: no decimals when it is a whole number, else two. */
static int plain_fmt(char *buf, size_t len, double v)
{
	if (isnan(v))
		return snprintf(buf, len, "n/a");
	if (v == rint(v) && fabs(v) < 1e15)
		return snprintf(buf, len, "%.0f", v);
	return snprintf(buf, len, "%.2f", v);
}

int ct_fmt_value(char *buf, size_t len, double v)
{
	return plain_fmt(buf, len, v);
}

/* The change column: "+12.3%" in PLAIN_PW characters, then '*' when the
 * difference of the means is significant, else a blank. */
#define PLAIN_PW 8
static void plain_pct(struct strbuf *out, double pct, int sig)
{
	char buf[64];

	if (isnan(pct))
		snprintf(buf, sizeof(buf), "n/a");
	else if (snprintf(buf, sizeof(buf), "%+.1f%%", pct == 0 ? 0.0 : pct) > PLAIN_PW &&
		 snprintf(buf, sizeof(buf), "%+.0f%%", pct) > PLAIN_PW)
		snprintf(buf, sizeof(buf), "%+.0e%%", pct);
	if (!isnan(pct) && (prints_zero(buf) || !ct_practical(pct)))
		sig = 0;	/* below the practical threshold: no mark */
	strbuf_addf(out, " %*s%c", PLAIN_PW, buf, sig > 0 ? '*' : ' ');
}

static void plain_cell(const struct ct_table *t, const struct ct_row *row, size_t c,
		       const struct ct_stat *s, const struct ct_opts *o, int vw,
		       struct strbuf *out)
{
	double v = NAN, base;
	char buf[64];

	if (row->cells[c].n)
		v = ct_stat_value(s, row, c, CT_PLAIN);
	if (!row->cells[c].n)
		snprintf(buf, sizeof(buf), "-");
	else
		plain_fmt(buf, sizeof(buf), v);
	strbuf_addf(out, " %*s", vw, buf);
	if (c == 0)
		return;
	if (!row->cells[c].n || isnan(v)) {
		strbuf_addf(out, " %*s ", PLAIN_PW, "");
		return;
	}
	base = row->cells[0].n ? ct_stat_value(s, row, 0, CT_PLAIN) : NAN;
	plain_pct(out, change_pct(s, row, CT_PLAIN, v, base),
		  is_mean_stat(s) ? significant(t, row, c, o->alpha) : -1);
}


/* Cut label to max characters, ending in '~'; the last word (the
 * statistic, "p99", "max") stays when it is short enough. */
static void cut_label(char *label, size_t max)
{
	size_t len = strlen(label);
	const char *last = strrchr(label, ' ');
	size_t tail = last ? len - (size_t)(last - label) : 0;	/* " p99" */

	if (len <= max)
		return;
	if (tail && tail * 2 <= max) {
		memmove(label + max - tail, last, tail + 1);
		label[max - tail - 1] = '~';
	} else {
		label[max - 1] = '~';
		label[max] = '\0';
	}
}

/*
 * The plain table: label, unit, then the baseline's value and, per other
 * column, its value and the change in a narrow column of its own. Two
 * columns always fit in the width (labels are cut with '~' when they
 * would not); with more, each block of columns repeats the baseline.
 */
static void render_plain(const struct ct_table *t, const struct ct_opts *o, struct strbuf *out)
{
	int lmax = 0, umax = 4, avail, *vw = xcalloc(t->ncols, sizeof(int));
	size_t hidden = 0, shown = 0;
	char label[200], buf[64];

	for (size_t c = 0; c < t->ncols; c++)
		vw[c] = (int)strlen(t->cols[c]) > 7 ? (int)strlen(t->cols[c]) : 7;
	for (size_t r = 0; r < t->nrows; r++) {
		const struct ct_row *row = &t->rows[r];

		if (!row_shown(t, row, o)) {
			hidden++;
			continue;
		}
		shown++;
		if ((int)strlen(row->mi.unit) > umax)
			umax = (int)strlen(row->mi.unit);
		for (size_t k = 0; k < o->nstats; k++) {
			plain_label(row, &o->stats[k], o, label, sizeof(label));
			lmax = (int)strlen(label) > lmax ? (int)strlen(label) : lmax;
			for (size_t c = 0; c < t->ncols; c++) {
				int n;

				if (!row->cells[c].n)
					continue;
				n = plain_fmt(buf, sizeof(buf),
					      ct_stat_value(&o->stats[k], row, c, CT_PLAIN));
				vw[c] = n > vw[c] ? n : vw[c];
			}
		}
	}
	/* room for the label when the baseline and one more column are shown */
	avail = o->width - (1 + umax) - (1 + vw[0]) -
		(t->ncols > 1 ? 1 + vw[1] + 1 + PLAIN_PW + 1 : 0);
	if (lmax > avail)
		lmax = avail > 12 ? avail : 12;
	for (size_t first = t->ncols > 1 ? 1 : 0, end; shown && first < t->ncols; first = end) {
		int used = lmax + 1 + umax + 1 + vw[0];
		size_t start;

		end = first + 1;
		if (first) {
			used += 1 + vw[first] + 2 + PLAIN_PW;
			while (end < t->ncols &&
			       used + 1 + vw[end] + 2 + PLAIN_PW <= o->width)
				used += 1 + vw[end++] + 2 + PLAIN_PW;
		}
		if (first > 1)
			strbuf_addch(out, '\n');
		start = out->len;
		strbuf_addf(out, "%-*s %-*s %*s", lmax, "", umax, "unit", vw[0], t->cols[0]);
		for (size_t c = first ? first : end; c < end; c++)
			strbuf_addf(out, " %*s %*s ", vw[c], t->cols[c], PLAIN_PW, "");
		rtrim_line(out, start);
		for (size_t r = 0; r < t->nrows; r++) {
			const struct ct_row *row = &t->rows[r];

			if (!row_shown(t, row, o))
				continue;
			for (size_t k = 0; k < o->nstats; k++) {
				size_t len;

				start = out->len;
				plain_label(row, &o->stats[k], o, label, sizeof(label));
				len = strlen(label);
				if ((int)len > lmax)
					cut_label(label, (size_t)lmax);
				strbuf_addf(out, "%-*s %-*s", lmax, label, umax, row->mi.unit);
				plain_cell(t, row, 0, &o->stats[k], o, vw[0], out);
				for (size_t c = first ? first : end; c < end; c++)
					plain_cell(t, row, c, &o->stats[k], o, vw[c], out);
				rtrim_line(out, start);
			}
		}
	}
	if (hidden)
		strbuf_addf(out, "(%zu row%s zero or absent in every column not shown; "
			    "--all shows them)\n", hidden, hidden == 1 ? "" : "s");
	free(vw);
}

/*
 * How much worse column c's mean is than the baseline's, in percent of
 * the baseline (INFINITY when the baseline is 0 and the mean moved the
 * bad way), or NAN when the difference is not significant or not tested.
 */
static double regression_pct(const struct ct_table *t, const struct ct_row *row, size_t c,
			     double alpha, double *p)
{
	const struct ct_cell *a = &row->cells[0], *b = &row->cells[c];
	struct stats_welch w;
	double ma, mb, worse;

	if (t->nruns[0] < 2 || t->nruns[c] < 2 || a->n < 2 || b->n < 2 ||
	    stats_welch_test(a->v, a->n, b->v, b->n, alpha, &w) || !w.significant)
		return NAN;
	ma = stats_mean(a->v, a->n);
	mb = stats_mean(b->v, b->n);
	if (isnan(ma) || isnan(mb))
		return NAN;
	worse = row->higher_is_better ? ma - mb : mb - ma;
	*p = w.p;
	if (ma == 0)
		return worse > 0 ? INFINITY : NAN;
	return worse * 100 / fabs(ma);
}

/*
 * Append text wrapped at width columns: the first line starts with
 * first (an indent, a name), the others with next blanks; words are never
 * cut (one longer than the width stands alone on its line).
 */
static void add_wrapped(struct strbuf *out, const char *first, int next, int width,
			const char *text)
{
	size_t flen = strlen(first);
	int col = (int)flen, line_start = !flen || first[flen - 1] == ' ';

	strbuf_addstr(out, first);
	for (const char *p = text; *p;) {
		size_t w;

		while (*p == ' ')
			p++;
		if (!*p)
			break;
		w = strcspn(p, " ");
		if (!line_start && col + 1 + (int)w > width) {
			strbuf_addf(out, "\n%*s", next, "");
			col = next;
			line_start = 1;
		}
		if (!line_start) {
			strbuf_addch(out, ' ');
			col++;
		}
		strbuf_add(out, p, w);
		col += (int)w;
		line_start = 0;
		p += w;
	}
	strbuf_addch(out, '\n');
}

/*
 * p with enough digits that the printed value is on the same side of
 * alpha as p itself (0.0495 against 0.05 prints 0.0495, not 0.05).
 */
static void fmt_p(char *buf, size_t len, double p, double alpha)
{
	for (int prec = 2; prec <= 17; prec++) {
		double back;

		snprintf(buf, len, "%.*g", prec, p);
		back = strtod(buf, NULL);
		if ((back < alpha) == (p < alpha))
			return;
	}
}

/* Can column c's row be tested against the baseline's (Welch needs two
 * runs a side and two samples)? */
static int testable(const struct ct_table *t, const struct ct_row *row, size_t c)
{
	return t->nruns[0] >= 2 && t->nruns[c] >= 2 && row->cells[0].n >= 2 &&
	       row->cells[c].n >= 2;
}

/* The row called name, NULL if the table has none. */
static const struct ct_row *row_named(const struct ct_table *t, const char *name)
{
	for (size_t r = 0; r < t->nrows; r++)
		if (!strcmp(t->rows[r].mi.name, name))
			return &t->rows[r];
	return NULL;
}

/* Whether column c of row has a value (not absent, not n/a). */
static int has_value(const struct ct_row *row, size_t c)
{
	return row->cells[c].n > 0 && !isnan(stats_mean(row->cells[c].v, row->cells[c].n));
}

/*
 * A count of failures whose rate of attempts the table has
 * (metrics_rate_of): the gate holds the rate instead. When the count
 * would have failed column c and the rate cannot be held there (a side
 * made no attempts: no rate), a line saying so.
 */
static void rate_instead(const struct ct_table *t, const struct ct_row *row,
			 const struct ct_row *rate, size_t c, struct strbuf *notes)
{
	char a[64], b[64], head[512], text[512];
	int ra = has_value(rate, 0), rc = has_value(rate, c);

	if (ra && rc)
		return;		/* the rate's own row is held */
	plain_fmt(a, sizeof(a), stats_mean(row->cells[0].v, row->cells[0].n));
	plain_fmt(b, sizeof(b), stats_mean(row->cells[c].v, row->cells[c].n));
	snprintf(head, sizeof(head), "  %s, %s:", row->mi.plain_label, t->cols[c]);
	snprintf(text, sizeof(text), "%s -> %s %s; %s has no %s (no attempts)", a, b,
		 row->mi.unit, !ra && !rc ? "neither column" : !ra ? t->cols[0] : t->cols[c],
		 rate->mi.plain_label);
	add_wrapped(notes, head, 6, 72, text);
}

size_t ct_regressions(const struct ct_table *t, const struct ct_opts *o, double pct,
		      struct strbuf *out, size_t *tested)
{
	size_t n = 0;
	char a[64], b[64], pv[32], head[512], text[512], rname[128];
	struct strbuf one = STRBUF_INIT, notes = STRBUF_INIT;

	*tested = 0;
	for (size_t r = 0; r < t->nrows; r++) {
		const struct ct_row *row = &t->rows[r];
		const char *rn = metrics_rate_of(row->mi.name, rname, sizeof(rname));
		const struct ct_row *rate = rn ? row_named(t, rn) : NULL;
		int any = 0;

		for (size_t c = 1; c < t->ncols; c++) {
			double p = NAN, worse;

			if (!testable(t, row, c))
				continue;
			any = 1;
			worse = regression_pct(t, row, c, o->alpha, &p);
			if (isnan(worse) || worse <= pct)
				continue;
			if (rate) {	/* the rate row is gated in its place */
				rate_instead(t, row, rate, c, &notes);
				continue;
			}
			if (!n++) {
				snprintf(text, sizeof(text), "(Welch's t-test p < %g, worse than "
					 "the baseline by more than %g%%):", o->alpha, pct);
				strbuf_addch(out, '\n');
				add_wrapped(out, "Regressions", 2, 72, text);
			}
			plain_fmt(a, sizeof(a), stats_mean(row->cells[0].v, row->cells[0].n));
			plain_fmt(b, sizeof(b), stats_mean(row->cells[c].v, row->cells[c].n));
			fmt_p(pv, sizeof(pv), p, o->alpha);
			/* two lines: what moved, then the verdict */
			snprintf(head, sizeof(head), "  %s, %s:", row->mi.plain_label, t->cols[c]);
			snprintf(text, sizeof(text), "%s -> %s %s", a, b, row->mi.unit);
			add_wrapped(out, head, 6, 72, text);
			if (isinf(worse))
				snprintf(text, sizeof(text), "from 0 (%s is better), p=%s",
					 row->higher_is_better ? "higher" : "lower", pv);
			else
				snprintf(text, sizeof(text), "%.1f%% worse (%s is better), p=%s",
					 worse, row->higher_is_better ? "higher" : "lower", pv);
			add_wrapped(out, "     ", 6, 72, text);
		}
		*tested += any;
	}
	if (notes.len) {
		strbuf_addch(out, '\n');
		add_wrapped(out, "Not gated", 2, 72, "(counts of failures are held as their "
			    "rates of attempts; a side that made no attempts, its size or THP "
			    "off, has no rate to hold):");
		strbuf_add(out, notes.buf, notes.len);
	}
	strbuf_release(&notes);
	/* the columns the gate could not test, and why */
	for (size_t c = 0; c < t->ncols; c++) {
		if (*tested && (t->nruns[c] >= 2 || !c))
			continue;	/* some tested: name the untested columns */
		strbuf_addf(&one, "%s%s: %zu run%s", one.len ? ", " : "", t->cols[c],
			    t->nruns[c], t->nruns[c] == 1 ? "" : "s");
	}
	if (t->ncols < 2) {
		strbuf_addch(out, '\n');
		add_wrapped(out, "Regression gate:", 2, 72, "no row could be tested: a "
			    "baseline only, no column to test against it");
	} else if (!*tested || one.len) {
		snprintf(text, sizeof(text), "%s (%s): Welch's t-test needs two runs or "
			 "more a side, each with the row", *tested ? "columns not tested" :
			 "no row could be tested", one.buf ? one.buf : "");
		strbuf_addch(out, '\n');
		add_wrapped(out, "Regression gate:", 2, 72, text);
	}
	strbuf_release(&one);
	return n;
}

static int has_row(const struct ct_table *t, const char *name)
{
	for (size_t r = 0; r < t->nrows; r++)
		if (!strcmp(t->rows[r].mi.name, name))
			return 1;
	return 0;
}

/*
 * Under the table: the columns' commands when they differ (a comparison
 * of different workloads must say so), then the runs' notes.
 */
static void render_notes(const struct ct_table *t, struct strbuf *out)
{
	const char *cmd0 = NULL;
	int differ = 0, any_notes = 0;
	char head[160];

	for (size_t c = 0; c < t->ncols; c++) {
		const struct ct_column_info *ci = &t->info[c];

		any_notes |= ci->notes.len > 0;
		differ |= ci->command_varies;
		if (ci->command && cmd0 && strcmp(cmd0, ci->command))
			differ = 1;
		cmd0 = cmd0 ? cmd0 : ci->command;
	}
	if (differ) {
		strbuf_addstr(out, "\nThe columns ran different commands:\n");
		for (size_t c = 0; c < t->ncols; c++) {
			const struct ct_column_info *ci = &t->info[c];

			snprintf(head, sizeof(head), "  %s:", t->cols[c]);
			add_wrapped(out, head, 6, 72, ci->command_varies ?
				    "its runs ran different commands" :
				    ci->command ? ci->command : "- (not recorded)");
		}
	}
	if (!any_notes)
		return;
	any_notes = 0;
	for (size_t c = 0; c < t->ncols; c++) {
		const struct ct_column_info *ci = &t->info[c];

		snprintf(head, sizeof(head), "  %s:", t->cols[c]);
		for (const char *p = ci->notes.buf; p && *p;) {
			const char *nl = strchr(p, '\n');
			size_t l = nl ? (size_t)(nl - p) : strlen(p);
			char *line = xasprintf("%.*s", (int)l, p), *text = strchr(line, '\t');

			if (text)
				*text++ = '\0';
			/* a note on a row the table has (shown, or hidden as zero) */
			if (text && has_row(t, line)) {
				if (!any_notes++)
					strbuf_addstr(out, "\nNotes:\n");
				add_wrapped(out, head, 6, 72, text);
			}
			free(line);
			p += l + (nl != NULL);
		}
	}
}

/*
 * Findings across columns. A key is a finding id and its count unit (the
 * data-loss rule counts events, overruns, ... apart). A column's state
 * of a key: found (its highest severity, the count of each run, '-' for
 * a run without it), not found ("-": the rule ran in some run), not run
 * (no run had the data), or unknown (no run is a recording).
 */
struct fkey {
	const char *id, *unit;
};

static size_t finding_keys(const struct ct_table *t, struct fkey **out)
{
	struct fkey *k = NULL;
	size_t n = 0;

	for (size_t c = 0; c < t->ncols; c++) {
		for (size_t i = 0; i < t->info[c].nfindings; i++) {
			const struct ct_finding *f = &t->info[c].findings[i];
			size_t j;

			for (j = 0; j < n; j++)
				if (!strcmp(k[j].id, f->id) && !strcmp(k[j].unit, f->unit))
					break;
			if (j < n)
				continue;
			k = xreallocarray(k, n + 1, sizeof(*k));
			k[n++] = (struct fkey){ f->id, f->unit };
		}
	}
	*out = k;
	return n;
}

/* Runs of the column that could not run the rule id. */
static size_t notrun_runs(const struct ct_column_info *ci, const char *id)
{
	size_t n = 0, l = strlen(id);

	for (const char *p = ci->notrun.buf; p && *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		n += len == l && !strncmp(p, id, l);
		p += len + (nl != NULL);
	}
	return n;
}

enum fstate { FS_UNKNOWN, FS_NOTRUN, FS_ABSENT, FS_FOUND };

static enum fstate finding_state(const struct ct_table *t, size_t c, const struct fkey *k,
				 const struct ct_finding **f)
{
	const struct ct_column_info *ci = &t->info[c];

	*f = column_finding(ci, k->id, k->unit);
	if (*f)
		return FS_FOUND;
	if (!ci->findings_runs)
		return FS_UNKNOWN;
	return notrun_runs(ci, k->id) >= ci->findings_runs ? FS_NOTRUN : FS_ABSENT;
}

/* "critical 1 kills", "warning 37/-/41 stalls", "-", "not run", "unknown" */
static void finding_cell(const struct ct_table *t, size_t c, const struct fkey *k,
			 struct strbuf *sb)
{
	const struct ct_finding *f;

	switch (finding_state(t, c, k, &f)) {
	case FS_UNKNOWN:
		strbuf_addstr(sb, "unknown");
		return;
	case FS_NOTRUN:
		strbuf_addstr(sb, "not run");
		return;
	case FS_ABSENT:
		strbuf_addstr(sb, "-");
		return;
	case FS_FOUND:
		break;
	}
	long long one = 1;	/* "1 kill", "-/1 kill": 1 when every count is */

	strbuf_addf(sb, "%s ", finding_severity_name(f->severity));
	for (size_t r = 0; r < t->nruns[c]; r++) {
		size_t i;

		for (i = 0; i < f->n && f->run[i] != r; i++)
			;
		if (r)
			strbuf_addch(sb, '/');
		if (i < f->n) {
			strbuf_addf(sb, "%llu", (unsigned long long)f->count[i]);
			if (f->count[i] != 1)
				one = 2;
		} else {
			strbuf_addch(sb, '-');
		}
	}
	if (f->unit[0])
		strbuf_addf(sb, " %.*s", unit_len(one, f->unit), f->unit);
}

static int finding_differs(const struct ct_table *t, const struct fkey *k)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	int differ = 0;

	finding_cell(t, 0, k, &a);
	for (size_t c = 1; c < t->ncols && !differ; c++) {
		strbuf_reset(&b);
		finding_cell(t, c, k, &b);
		differ = strcmp(a.buf ? a.buf : "", b.buf ? b.buf : "") != 0;
	}
	strbuf_release(&a);
	strbuf_release(&b);
	return differ;
}

/* One line per key that differs: "  ID: COL CELL, COL CELL", wrapped at
 * 72 columns (continuations indented by 4). */
static void render_findings(const struct ct_table *t, struct strbuf *out)
{
	struct fkey *k;
	size_t n = finding_keys(t, &k), same = 0, shown = 0;
	struct strbuf line = STRBUF_INIT, piece = STRBUF_INIT;

	for (size_t i = 0; i < n; i++) {
		if (!finding_differs(t, &k[i])) {
			same++;
			continue;
		}
		if (!shown++)
			strbuf_addstr(out, "\nFindings that differ (highest severity of the "
				      "column, count of\neach run; - not found):\n");
		strbuf_reset(&line);
		strbuf_addf(&line, "  %s:", k[i].id);
		for (size_t c = 0; c < t->ncols; c++) {
			strbuf_reset(&piece);
			strbuf_addf(&piece, " %s ", t->cols[c]);
			finding_cell(t, c, &k[i], &piece);
			if (c + 1 < t->ncols)
				strbuf_addch(&piece, ',');
			if (line.len > 4 && line.len + piece.len > 72) {
				strbuf_add(out, line.buf, line.len);
				strbuf_addch(out, '\n');
				strbuf_reset(&line);
				strbuf_addstr(&line, "   ");
			}
			strbuf_add(&line, piece.buf, piece.len);
		}
		strbuf_add(out, line.buf, line.len);
		strbuf_addch(out, '\n');
	}
	if (shown && same)
		strbuf_addf(out, "  (%zu more the same in every column)\n", same);
	strbuf_release(&line);
	strbuf_release(&piece);
	free(k);
}

size_t ct_findings_differ(const struct ct_table *t,
			  void (*fn)(void *ctx, const char *id, char *const *cells), void *ctx,
			  size_t *same)
{
	struct fkey *k;
	size_t n = finding_keys(t, &k), shown = 0;
	char **cells = xcalloc(t->ncols ? t->ncols : 1, sizeof(*cells));

	*same = 0;
	for (size_t i = 0; i < n; i++) {
		if (!finding_differs(t, &k[i])) {
			(*same)++;
			continue;
		}
		shown++;
		for (size_t c = 0; c < t->ncols; c++) {
			struct strbuf sb = STRBUF_INIT;

			finding_cell(t, c, &k[i], &sb);
			cells[c] = strbuf_detach(&sb, NULL);
		}
		fn(ctx, k[i].id, cells);
		for (size_t c = 0; c < t->ncols; c++)
			free(cells[c]);
	}
	free(cells);
	free(k);
	return shown;
}

void ct_render_text(const struct ct_table *t, const struct ct_opts *o, struct strbuf *out)
{
	if (!t->ncols || !t->nrows)
		return;
	if (o->dialect == CT_PLAIN)
		render_plain(t, o, out);
	else
		render_mmtests(t, o, out);
	render_notes(t, out);
	render_findings(t, out);
}

/* The layout predates the JSON writer and is kept: a metric per line,
 * its cells on continuation lines (inline containers with json_wrap). */
static void json_cell(const struct ct_table *t, const struct ct_row *row, size_t c,
		      const struct ct_opts *o, struct json_writer *j)
{
	const struct ct_cell *cell = &row->cells[c];
	struct stats_welch w;
	char name[64];

	if (!cell->n) {		/* no run of this column has the metric */
		json_null(j, NULL);
		return;
	}
	json_object_inline(j, NULL);
	json_u64(j, "samples", cell->n);
	json_array_inline(j, "values");
	for (size_t i = 0; i < cell->n; i++)
		json_g(j, NULL, cell->v[i]);
	json_close(j);
	json_object_inline(j, "stats");
	for (size_t k = 0; k < o->nstats; k++) {
		const struct ct_stat *s = &o->stats[k];
		double v = ct_stat_value(s, row, c, o->dialect);
		double base = row->cells[0].n ? ct_stat_value(s, row, 0, o->dialect) : NAN;

		ct_stat_name(s, row, o->dialect, name, sizeof(name));
		json_object_inline(j, name);
		json_g(j, "value", v);
		json_g(j, "change_pct",
		       c ? change_pct(s, row, o->dialect, v, base) : 0);
		json_close(j);
	}
	json_close(j);
	if (c && t->nruns[0] >= 2 && t->nruns[c] >= 2 && !stats_welch_test(row->cells[0].v, row->cells[0].n, cell->v, cell->n,
				   o->alpha, &w)) {
		json_object_inline(j, "welch");
		json_g(j, "t", w.t);
		json_g(j, "df", w.df);
		json_g(j, "p", w.p);
		json_bool(j, "significant", w.significant);
		json_close(j);
	}
	json_close(j);
}

/*
 * "findings": every finding id (and unit) found in some column, whether
 * it differs, and per column its state, highest severity and the count
 * of each run (null: a run without it). Only when a run is a recording.
 */
static void json_findings(const struct ct_table *t, struct json_writer *j)
{
	static const char *const states[] = { NULL, "not run", "not found", "found" };
	struct fkey *k;
	size_t n = finding_keys(t, &k);
	int any = 0;

	for (size_t c = 0; c < t->ncols; c++)
		any |= t->info[c].findings_runs > 0;
	if (!any) {
		free(k);
		return;
	}
	json_array(j, "findings");
	for (size_t i = 0; i < n; i++) {
		json_object_inline(j, NULL);
		json_str(j, "id", k[i].id);
		json_str(j, "unit", k[i].unit);
		json_bool(j, "differs", finding_differs(t, &k[i]));
		json_wrap(j);
		json_array_inline(j, "columns");
		for (size_t c = 0; c < t->ncols; c++) {
			const struct ct_finding *f;
			enum fstate st = finding_state(t, c, &k[i], &f);

			json_wrap(j);
			json_object_inline(j, NULL);
			if (states[st])
				json_str(j, "state", states[st]);
			else
				json_null(j, "state");
			if (st == FS_FOUND)
				json_str(j, "severity", finding_severity_name(f->severity));
			else
				json_null(j, "severity");
			json_array_inline(j, "counts");
			for (size_t r = 0; st == FS_FOUND && r < t->nruns[c]; r++) {
				size_t x;

				for (x = 0; x < f->n && f->run[x] != r; x++)
					;
				if (x < f->n)
					json_u64(j, NULL, f->count[x]);
				else
					json_null(j, NULL);
			}
			json_close(j);
			json_close(j);
		}
		json_close(j);
		json_close(j);
	}
	json_close(j);
	free(k);
}

void ct_render_json(const struct ct_table *t, const struct ct_opts *o, struct strbuf *out)
{
	static const char *const sources[] = { "counter", "trace", "user" };
	struct json_writer j;

	json_begin(&j, out, JSON_ROOT_INDENT);
	json_str(&j, "dialect", o->dialect == CT_PLAIN ? "plain" : "mmtests");
	json_g(&j, "alpha", o->alpha);
	json_array_inline(&j, "columns");
	for (size_t c = 0; c < t->ncols; c++) {
		json_object_inline(&j, NULL);
		json_str(&j, "name", t->cols[c]);
		json_u64(&j, "runs", t->nruns[c]);
		/* the command its runs ran; null unknown or not the same */
		if (t->info[c].command && !t->info[c].command_varies)
			json_str(&j, "command", t->info[c].command);
		else
			json_null(&j, "command");
		json_array_inline(&j, "notes");
		for (const char *p = t->info[c].notes.buf; p && *p;) {
			const char *nl = strchr(p, '\n');
			size_t l = nl ? (size_t)(nl - p) : strlen(p);
			char *line = xasprintf("%.*s", (int)l, p), *text = strchr(line, '\t');

			if (text)
				*text++ = '\0';
			if (text && has_row(t, line))
				json_str(&j, NULL, text);
			free(line);
			p += l + (nl != NULL);
		}
		json_close(&j);
		json_close(&j);
	}
	json_close(&j);
	json_array(&j, "metrics");
	for (size_t r = 0; r < t->nrows; r++) {
		const struct ct_row *row = &t->rows[r];

		json_object_inline(&j, NULL);
		json_str(&j, "name", row->mi.name);
		json_str(&j, "label", o->dialect == CT_PLAIN ? row->mi.plain_label : row->mi.label);
		json_str(&j, "group", row->mi.group);
		json_str(&j, "unit", row->mi.unit);
		json_bool(&j, "higher_is_better", row->higher_is_better);
		json_str(&j, "source", sources[row->mi.source]);
		json_wrap(&j);
		json_array_inline(&j, "cells");
		for (size_t c = 0; c < t->ncols; c++) {
			json_wrap(&j);
			json_cell(t, row, c, o, &j);
		}
		json_close(&j);
		json_close(&j);
	}
	json_close(&j);
	json_findings(t, &j);
	json_end(&j);
}
