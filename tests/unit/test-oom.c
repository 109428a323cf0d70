// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The oom family: the model on hand-made records (victims from the
 * event's fields, not the killing task; the constraint inferred from that
 * task's last reclaim, unknown without one), then the real recording
 * tests/data/report/oom-6.18.dat (a 64M memcg v1 killing anon-touch)
 * through analysis and the text renderer: the kills, victim, pid and
 * anon-rss must equal what `trace-cmd report` prints for the same file,
 * and the kill count the recording's own vmstat oom_kill delta.
 */
#include "config.h"
#include "analysis.h"
#include "model-oom.h"
#include "report-oom.h"
#include "util.h"
#include "tap.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct record reclaim(uint64_t ts, int pid, enum reclaim_kind kind, uint64_t memcg)
{
	struct record r;

	memset(&r, 0, sizeof(r));
	r.type = REC_RECLAIM_BEGIN, r.ts = ts, r.pid = pid;
	r.rbegin.kind = kind, r.rbegin.memcg = memcg;
	return r;
}

static struct record victim(uint64_t ts, int by, int pid, const char *comm)
{
	struct record r;

	memset(&r, 0, sizeof(r));
	r.type = REC_OOM, r.ts = ts, r.pid = by, r.comm = "killer";
	r.oom.kind = OOM_VICTIM, r.oom.victim = pid, r.oom.victim_comm = comm;
	r.oom.anon_rss_kb = 100, r.oom.total_vm_kb = 200, r.oom.file_rss_kb = -1;
	r.oom.shmem_rss_kb = 0, r.oom.uid = 0, r.oom.oom_score_adj = INT64_MIN;
	return r;
}

static void test_model(void)
{
	struct oom_model *m = oom_model_new();
	const struct oom_kill *k;
	struct record r;

	ok(m && !oom_model_seen(m) && !oom_model_nkills(m), "model: empty at first");
	r = reclaim(1, 10, RK_MEMCG, 77);
	oom_model_add(m, &r);
	r = reclaim(2, 20, RK_MEMCG, 0);
	oom_model_add(m, &r);
	r = reclaim(3, 20, RK_DIRECT, 0);	/* 20's last reclaim is direct */
	oom_model_add(m, &r);
	r = victim(10, 10, 11, "hog");
	oom_model_add(m, &r);
	r = victim(11, 20, 21, "other");
	oom_model_add(m, &r);
	r = victim(12, 30, 31, "");		/* a sysrq kill: no reclaim */
	oom_model_add(m, &r);
	memset(&r, 0, sizeof(r));
	r.type = REC_OOM, r.oom.kind = OOM_RECLAIM_RETRY;
	oom_model_add(m, &r);
	oom_model_add(m, &r);
	r.oom.kind = OOM_COMPACT_RETRY;
	oom_model_add(m, &r);
	is_int(oom_model_nkills(m), 3, "model: three kills");
	k = oom_model_kill(m, 0);
	ok(k && k->pid == 11 && !strcmp(k->comm, "hog") && k->by_pid == 10 &&
	   !strcmp(k->by_comm, "killer") && k->anon_rss_kb == 100,
	   "model: the victim from the event's fields, the killing task apart");
	ok(k && k->constraint == OOMC_MEMCG && k->memcg_known && k->memcg_id == 77,
	   "model: after a memcg reclaim (7.x memcg_id): memcg, its id");
	k = oom_model_kill(m, 1);
	ok(k && k->constraint == OOMC_GLOBAL && !k->memcg_known,
	   "model: after a direct reclaim: global, no memcg");
	k = oom_model_kill(m, 2);
	ok(k && k->constraint == OOMC_UNKNOWN && !k->memcg_known && !*k->comm &&
	   k->oom_score_adj == INT64_MIN, "model: no reclaim by the killer: unknown");
	ok(oom_model_reclaim_retries(m) == 2 && oom_model_compact_retries(m) == 1,
	   "model: retries counted");
	ok(!oom_model_kill(m, 3) && !oom_model_kill(m, -1), "model: no kill out of range");
	for (int i = 0; i < 1000; i++) {	/* many tasks: the table recycles */
		r = reclaim(100 + (uint64_t)i, 1000 + i, RK_DIRECT, 0);
		oom_model_add(m, &r);
	}
	r = reclaim(5000, 1999, RK_MEMCG, 5);
	oom_model_add(m, &r);
	r = victim(5001, 1999, 1999, "late");
	oom_model_add(m, &r);
	k = oom_model_kill(m, 3);
	ok(k && k->constraint == OOMC_MEMCG && k->memcg_id == 5,
	   "model: a task seen after many others is still remembered");
	oom_model_free(m);
}

/* trace-cmd's mark_victim lines, and the first one's fields. */
static long tc_victims(const char *file, int *pid, char *comm, size_t len, long *anon)
{
	char *cmd = xasprintf("trace-cmd report '%s' 2>/dev/null", file), line[4096];
	FILE *p = popen(cmd, "r");
	long n = 0;

	free(cmd);
	if (!p)
		return -1;
	while (fgets(line, sizeof(line), p)) {
		const char *v = strstr(line, " mark_victim:"), *c, *a;

		if (!v)
			continue;
		if (!n++ && (c = strstr(v, " comm=")) && (a = strstr(v, " anon-rss="))) {
			*pid = atoi(strstr(v, " pid=") + 5);
			snprintf(comm, len, "%.*s", (int)strcspn(c + 6, " "), c + 6);
			*anon = strtol(a + 10, NULL, 10);
		}
	}
	return pclose(p) ? -1 : n;
}

static void test_recording(const char *src)
{
	char *path = xasprintf("%s/tests/data/report/oom-6.18.dat", src), *err = NULL;
	struct analysis *a = analysis_run(path, NULL, &err);
	const struct oom_model *m;
	struct report_opts o;
	struct report_ctx rc;
	struct strbuf sb = STRBUF_INIT;
	char comm[64] = "", rcomm[64] = "", cons[32] = "";
	int kills = -1, pid = -1, rpid = -2, found = 0;
	long anon = -1, ranon = -2, tc;
	double t;
	const char *row;

	if (!ok(a != NULL, "oom-6.18.dat: analysed"))
		printf("#   %s\n", err ? err : "?");
	if (!a)
		goto out;
	report_opts_default(&o);
	rc.a = a;
	rc.in = analysis_info(a);
	rc.o = &o;
	rc.sb = &sb;
	rc.jw = NULL;
	report_text_oom(&rc);
	for (char *l = sb.buf, *nl; l && *l; l = nl ? nl + 1 : NULL) {
		nl = strchr(l, '\n');
		printf("#   %.*s\n", nl ? (int)(nl - l) : (int)strlen(l), l);
	}
	ok(sb.buf && sscanf(sb.buf, "OOM kills\n%*[-]\nkills %d", &kills) == 1,
	   "report: a kills line");
	row = sb.buf ? strstr(sb.buf, "constraint\n") : NULL;
	ok(row && sscanf(row, "constraint\n %lf %63s %d %ld - %31s", &t, rcomm, &rpid,
			 &ranon, cons) == 5, "report: a kill's line");
	m = analysis_model(a, &oom_model_ops);
	ok(m && oom_model_nkills(m) == kills, "report: the model's kills");
	is_int(counters_model_delta(analysis_counters(a), "oom_kill", &found), kills,
	       "kills = the recording's vmstat oom_kill delta");
	ok(found, "the recording has the oom_kill counter");
	ok(!strcmp(cons, "memcg*"), "a memcg OOM (after memcg reclaim), marked inferred");
	ok(m && oom_model_kill(m, 0) && !*oom_model_kill(m, 0)->by_comm,
	   "the killing task's name, not in the trimmed cmdlines, is unknown, not <...>");
	tc = tc_victims(path, &pid, comm, sizeof(comm), &anon);
	if (tc < 0) {
		ok(1, "# SKIP trace-cmd not installed: no oracle for the kills");
		goto out;
	}
	is_int(kills, tc, "kills = trace-cmd's mark_victim lines");
	ok(rpid == pid && !strcmp(rcomm, comm) && ranon == anon,
	   "victim, pid and anon-rss = trace-cmd's (%s %d, %ld kB)", comm, pid, anon);
out:
	strbuf_release(&sb);
	analysis_free(a);
	free(err);
	free(path);
}

int main(void)
{
	const char *src = getenv("top_srcdir");

	test_model();
	test_recording(src ? src : ".");
	return tap_done();
}
