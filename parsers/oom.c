// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * oom: the OOM killer's victims and the allocator's last retries before
 * it (reclaim_retry_zone, compact_retry), which are only counted.
 *
 * mark_victim fires in the task that ran the OOM killer (the event's pid:
 * often the victim itself in a memcg OOM, not always); the victim is in
 * the event's own pid and comm fields, with its rss in kB. Every kernel
 * of tests/data/kernels/ (6.1 .. 7.3) has the same fields; none carries
 * the memcg or the constraint (CONSTRAINT_MEMCG ...), which only the
 * kernel log prints. A field a kernel lacks reads as -1 ("-").
 */
#include "config.h"
#include "parsers.h"

#include <stdint.h>

enum { OF_PID, OF_COMM, OF_TOTAL_VM, OF_ANON, OF_FILE, OF_SHMEM, OF_UID, OF_ADJ };

static const struct field_spec victim_fields[] = {
	{ NAMES("pid"), "OOM victims' pids" },
	{ NAMES("comm"), "OOM victims' names" },
	{ NAMES("total_vm"), NULL },
	{ NAMES("anon_rss"), NULL },
	{ NAMES("file_rss"), NULL },
	{ NAMES("shmem_rss"), NULL },
	{ NAMES("uid"), NULL },
	{ NAMES("oom_score_adj"), NULL },
	{ NULL, NULL },
};

static const struct field_spec no_fields[] = {
	{ NULL, NULL },
};

static void oom_parse(void *state, struct parse_ctx *pc)
{
	struct pstate *st = state;
	struct record *r = pc->rec;
	char comm[64];

	r->type = REC_OOM;
	r->oom.kind = st->kind;
	r->oom.victim = -1;
	r->oom.victim_comm = "";
	r->oom.total_vm_kb = r->oom.anon_rss_kb = r->oom.file_rss_kb = -1;
	r->oom.shmem_rss_kb = r->oom.uid = -1;
	r->oom.oom_score_adj = INT64_MIN;
	if (st->kind == OOM_VICTIM) {
		/* comm lives on this stack frame: valid during the sink call */
		r->oom.victim = (int)PF_SD(st, pc, OF_PID, -1);
		r->oom.victim_comm = pfield_str(&st->f[OF_COMM], pc->data, pc->size,
						comm, (int)sizeof(comm));
		r->oom.total_vm_kb = PF_SD(st, pc, OF_TOTAL_VM, -1);
		r->oom.anon_rss_kb = PF_SD(st, pc, OF_ANON, -1);
		r->oom.file_rss_kb = PF_SD(st, pc, OF_FILE, -1);
		r->oom.shmem_rss_kb = PF_SD(st, pc, OF_SHMEM, -1);
		r->oom.uid = PF_SD(st, pc, OF_UID, -1);
		r->oom.oom_score_adj = PF_SD(st, pc, OF_ADJ, INT64_MIN);
	}
	pc->sink(pc->sink_ctx, r);
}

/*
 * signal:signal_generate (kernel/signal.c, every kernel of
 * tests/data/kernels/ from 5.10: sig, errno, code, comm, pid, group,
 * result). The kernel's filter keeps SIGKILL only (parsers/families.c);
 * a recording without it (trace-cmd, -e) holds every signal and the
 * model skips the rest.
 */
enum { SF_SIG, SF_CODE, SF_COMM, SF_PID, SF_GROUP, SF_RESULT };

static const struct field_spec signal_fields[] = {
	{ NAMES("sig"), "kills sent by processes" },
	{ NAMES("code"), NULL },
	{ NAMES("comm"), "killed tasks' names" },
	{ NAMES("pid"), "killed tasks' pids" },
	{ NAMES("group"), NULL },
	{ NAMES("result"), "whether a SIGKILL was delivered" },
	{ NULL, NULL },
};

static void signal_parse(void *state, struct parse_ctx *pc)
{
	struct pstate *st = state;
	struct record *r = pc->rec;
	char comm[32];

	r->type = REC_SIGNAL;
	r->sig.sig = (int)PF_SD(st, pc, SF_SIG, -1);
	r->sig.code = (int)PF_SD(st, pc, SF_CODE, -1);
	r->sig.result = (int)PF_SD(st, pc, SF_RESULT, -1);
	r->sig.group = (int)PF_SD(st, pc, SF_GROUP, -1);
	r->sig.target = (int)PF_SD(st, pc, SF_PID, -1);
	r->sig.target_comm = pfield_str(&st->f[SF_COMM], pc->data, pc->size, comm,
					(int)sizeof(comm));
	r->sig.sender_cgroup = 0;
	pc->sink(pc->sink_ctx, r);
}

const struct parser oom_parsers[] = {
	{ "oom", "mark_victim", oom_parse, OOM_VICTIM, victim_fields, 1, NULL, REC_OOM },
	{ "oom", "compact_retry", oom_parse, OOM_COMPACT_RETRY, no_fields, 0, NULL, REC_OOM },
	{ "oom", "reclaim_retry_zone", oom_parse, OOM_RECLAIM_RETRY, no_fields, 0, NULL, REC_OOM },
	{ "signal", "signal_generate", signal_parse, 0, signal_fields, 1, NULL, REC_SIGNAL },
	{ NULL, NULL, NULL, 0, NULL, 0, NULL, 0 },
};
