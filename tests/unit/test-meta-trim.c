// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A part's metadata without its run's description (td_meta_trim, what
 * the input layer keeps of a week of parts): the lines of td_run_keys
 * that the reference has alike go, every other line stays as it was, in
 * its order; a run key whose value differs stays, and so does a second
 * line of a key.
 */
#include "config.h"
#include "tracedat-set.h"
#include "tap.h"

#include <stdlib.h>

int main(void)
{
	const char *ref = "run_id=aa\nstart_realtime_ns=1\nevents=a:b,c:d\n"
			  "groups=kswapd\ncommand=sh -c x\nprobes=\nswitch_output=1\n";
	char *t;

	t = td_meta_trim("run_id=aa\nstart_realtime_ns=2\nevents=a:b,c:d\ngroups=kswapd\n"
			 "command=sh -c x\nprobes=\nswitch_output=2\n", ref);
	is_str(t, "run_id=aa\nstart_realtime_ns=2\nswitch_output=2\n",
	       "the run's lines alike go, the part's own stay in order");
	free(t);
	t = td_meta_trim("events=a:b\ngroups=kswapd,reclaim\ncommand=sh -c x y\nrun_id=aa", ref);
	is_str(t, "events=a:b\ngroups=kswapd,reclaim\ncommand=sh -c x y\nrun_id=aa",
	       "a run key of another value stays (a prefix of ref's too, or ref's a prefix)");
	free(t);
	t = td_meta_trim("groups=kswapd\ngroups=kswapd\nevents=a:b,c:d", ref);
	is_str(t, "groups=kswapd\n", "a key's second line stays; the last line without "
	       "its newline goes");
	free(t);
	t = td_meta_trim("missing_events=x\nsample_sources=vmstat\n", ref);
	is_str(t, "missing_events=x\nsample_sources=vmstat\n",
	       "a run key ref does not have stays");
	free(t);
	t = td_meta_trim("events=a:b,c:d\n", NULL);
	is_str(t, "events=a:b,c:d\n", "no reference: nothing goes");
	free(t);
	t = td_meta_trim("", ref);
	is_str(t, "", "empty stays empty");
	free(t);
	return tap_done();
}
