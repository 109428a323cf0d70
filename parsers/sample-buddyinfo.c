// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Sample source "buddy" (/proc/buddyinfo): free block counts per order,
 * comma-separated in free=, one line per zone. The list parser here is
 * shared with "pagetype".
 */
#include "config.h"
#include "parsers.h"

#include <errno.h>
#include <stdlib.h>

int sample_parse_orders(const char *s, uint64_t *out, int max)
{
	int n = 0;

	while (s && *s && n < max) {
		char *end;

		/* pagetypeinfo caps at 100000 and prints ">100000" */
		if (*s == '>')
			s++;
		/* digits only, overflow checked: strtoull takes "-1" as
		 * 2^64-1 and clamps what is out of range */
		if (*s < '0' || *s > '9')
			return -1;
		errno = 0;
		out[n++] = strtoull(s, &end, 10);
		if (errno)
			return -1;
		s = *end == ',' ? end + 1 : end;
		if (*end && *end != ',')
			return -1;
	}
	return n;
}

int sample_fill_buddy(const struct sample_line *sl, struct parse_ctx *pc)
{
	struct record *r = pc->rec;
	int64_t node;
	int n;

	r->buddy.zone = sample_get(sl, "zone");
	if (sample_get_s64(sl, "node", &node) || !r->buddy.zone)
		return -1;
	n = sample_parse_orders(sample_get(sl, "free"), r->buddy.free, REC_MAX_ORDERS);
	if (n <= 0)
		return -1;
	r->buddy.seq = sl->seq;
	r->buddy.node = (int)node;
	r->buddy.norders = n;
	r->buddy.type = sample_get(sl, "type");
	return 0;
}

void sample_buddyinfo_parse(const struct sample_line *sl, struct parse_ctx *pc)
{
	if (sample_fill_buddy(sl, pc)) {
		parser_note(pc->set, "samples: malformed buddy line skipped");
		return;
	}
	pc->rec->type = REC_BUDDY;
	pc->rec->buddy.type = NULL;
	pc->sink(pc->sink_ctx, pc->rec);
}
