// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Kernel stacks model (see model-stacks.h). Per CPU: the stall begin that
 * was the last record there (cleared by any other record on that CPU);
 * per task: its open reclaim stall or direct compaction run and the
 * stack each got. Distinct stacks are interned in an open-addressing
 * hash of their addresses. O(frames) per stack record, O(1) otherwise.
 */
#include "config.h"
#include "model-stacks.h"
#include "fnv.h"
#include "pidmap.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

#define DIRECT_WINDOW_NS 1000000000ULL	/* as the compaction model */

enum pend_type { PEND_NONE, PEND_RECLAIM, PEND_TRY };

struct cpu_slot {
	enum pend_type type;
	int pid;
};

struct spid {
	int open;			/* reclaim stall open */
	enum stack_kind kind;
	uint64_t begin_ts;
	int stack;			/* -1: none */
	int have_try;
	uint64_t try_ts;		/* last try_to_compact_pages */
	int try_stack;
	int run_open;			/* a direct compaction run */
	uint64_t run_ts;
	int run_stack;
};

struct stacks_model {
	struct cpu_slot *cpus;
	int ncpus;
	struct pidmap pids;
	struct kstack *stacks;
	int nstacks, astacks;
	int *hash;			/* index + 1; 0 empty */
	unsigned hcap;
	uint64_t seen, unattached, dropped;
	struct stack_kind_stats kinds[SK_NR];
	/* each stall with a stack, for front ends that draw stalls */
	struct stall_stack *ss;
	int nss, ass;
	uint64_t ss_dropped;
};

static struct stacks_model *stacks_new(void)
{
	struct stacks_model *m = xcalloc(1, sizeof(*m));

	pidmap_init(&m->pids, sizeof(struct spid));
	return m;
}

static void stacks_free(struct stacks_model *m)
{
	if (!m)
		return;
	for (int i = 0; i < m->nstacks; i++) {
		for (int f = 0; f < m->stacks[i].nframes; f++)
			free(m->stacks[i].func[f]);
		free(m->stacks[i].func);
		free(m->stacks[i].addr);
		free(m->stacks[i].off);
	}
	free(m->stacks);
	free(m->ss);
	free(m->hash);
	free(m->cpus);
	pidmap_release(&m->pids);
	free(m);
}

static uint64_t stack_hash(const uint64_t *a, int n)
{
	uint64_t h = FNV64_BASIS ^ (uint64_t)n;

	for (int i = 0; i < n; i++) {
		h = fnv64_word(h, a[i]);
		h ^= h >> 29;
	}
	return h;
}

static int stack_equal(const struct kstack *s, const struct record *r)
{
	return s->nframes == r->kstack.nframes &&
	       (!s->nframes || !memcmp(s->addr, r->kstack.addr,
				       sizeof(uint64_t) * (size_t)s->nframes));
}

static void hash_grow(struct stacks_model *m)
{
	unsigned cap = m->hcap ? m->hcap * 2 : 256;
	int *h = xcalloc(cap, sizeof(*h));

	for (int i = 0; i < m->nstacks; i++) {
		const struct kstack *s = &m->stacks[i];
		unsigned at = (unsigned)stack_hash(s->addr, s->nframes) & (cap - 1);

		while (h[at])
			at = (at + 1) & (cap - 1);
		h[at] = i + 1;
	}
	free(m->hash);
	m->hash = h;
	m->hcap = cap;
}

/* The index of r's stack, added if new; -1 beyond STACKS_MAX_DISTINCT. */
static int stack_intern(struct stacks_model *m, const struct record *r)
{
	unsigned at;
	struct kstack *s;
	int n = r->kstack.nframes;

	if ((unsigned)(m->nstacks + 1) * 2 > m->hcap)
		hash_grow(m);
	at = (unsigned)stack_hash(r->kstack.addr, n) & (m->hcap - 1);
	for (; m->hash[at]; at = (at + 1) & (m->hcap - 1))
		if (stack_equal(&m->stacks[m->hash[at] - 1], r))
			return m->hash[at] - 1;
	if (m->nstacks == STACKS_MAX_DISTINCT)
		return -1;
	if (m->nstacks == m->astacks) {
		m->astacks = m->astacks ? 2 * m->astacks : 64;
		m->stacks = xreallocarray(m->stacks, (size_t)m->astacks, sizeof(*m->stacks));
	}
	s = &m->stacks[m->nstacks];
	memset(s, 0, sizeof(*s));
	s->nframes = n;
	s->addr = xreallocarray(NULL, (size_t)n + 1, sizeof(*s->addr));
	s->off = xreallocarray(NULL, (size_t)n + 1, sizeof(*s->off));
	s->func = xcalloc((size_t)n + 1, sizeof(*s->func));
	for (int i = 0; i < n; i++) {
		s->addr[i] = r->kstack.addr[i];
		s->off[i] = r->kstack.off[i];
		s->func[i] = r->kstack.func[i] ? xstrdup(r->kstack.func[i]) : NULL;
	}
	m->hash[at] = ++m->nstacks;
	return m->nstacks - 1;
}

static struct cpu_slot *cpu_slot(struct stacks_model *m, int cpu)
{
	if (cpu < 0 || cpu > 65535)
		return NULL;
	if (cpu >= m->ncpus) {
		m->cpus = xreallocarray(m->cpus, (size_t)cpu + 1, sizeof(*m->cpus));
		memset(m->cpus + m->ncpus, 0, (size_t)(cpu + 1 - m->ncpus) * sizeof(*m->cpus));
		m->ncpus = cpu + 1;
	}
	return &m->cpus[cpu];
}

static void stall_add(struct stacks_model *m, enum stack_kind k, int stack, uint64_t d,
		      int pid, uint64_t begin)
{
	struct stack_kind_stats *ks = &m->kinds[k];

	if (stack >= 0 && m->nss >= STACKS_MAX_STALLS) {
		m->ss_dropped++;
	} else if (stack >= 0) {
		if (m->nss == m->ass) {
			m->ass = m->ass ? m->ass * 2 : 64;
			m->ss = xreallocarray(m->ss, (size_t)m->ass, sizeof(*m->ss));
		}
		m->ss[m->nss++] = (struct stall_stack){ begin, pid, k, stack };
	}

	ks->stalls++;
	ks->total_ns += d;
	if (d > ks->max_ns)
		ks->max_ns = d;
	if (stack < 0)
		return;
	ks->with_stack++;
	struct stack_agg *g = &m->stacks[stack].agg[k];

	g->count++;
	g->total_ns += d;
	if (d > g->max_ns)
		g->max_ns = d;
}

static void on_stack(struct stacks_model *m, const struct record *r, struct cpu_slot *c)
{
	struct spid *p;
	int id;

	m->seen++;
	if (!c || c->type == PEND_NONE || c->pid != r->pid ||
	    !(p = pidmap_get(&m->pids, r->pid))) {
		m->unattached++;
		return;
	}
	id = stack_intern(m, r);
	if (id < 0)
		m->dropped++;
	if (c->type == PEND_RECLAIM && p->open)
		p->stack = id;
	else if (c->type == PEND_TRY)
		p->try_stack = id;
}

static void on_record(struct stacks_model *m, const struct record *r)
{
	struct cpu_slot *c = cpu_slot(m, r->cpu);
	struct spid *p;
	uint64_t d;

	if (r->type == REC_KERNEL_STACK) {
		on_stack(m, r, c);
		if (c)
			c->type = PEND_NONE;
		return;
	}
	if (c)
		c->type = PEND_NONE;
	switch (r->type) {
	case REC_RECLAIM_BEGIN:
		if (r->rbegin.kind != RK_DIRECT && r->rbegin.kind != RK_MEMCG)
			return;		/* softlimit nests; node, kswapd: no -T */
		p = pidmap_add(&m->pids, r->pid);
		p->open = 1;
		p->kind = r->rbegin.kind == RK_DIRECT ? SK_DIRECT_RECLAIM : SK_MEMCG_RECLAIM;
		p->begin_ts = r->ts;
		p->stack = -1;
		if (c)
			*c = (struct cpu_slot){ PEND_RECLAIM, r->pid };
		return;
	case REC_RECLAIM_END:
		p = pidmap_get(&m->pids, r->pid);
		if (!p || !p->open ||
		    r->rend.kind != (p->kind == SK_DIRECT_RECLAIM ? RK_DIRECT : RK_MEMCG))
			return;
		p->open = 0;
		d = r->ts >= p->begin_ts ? r->ts - p->begin_ts : 0;
		stall_add(m, p->kind, p->stack, d, r->pid, p->begin_ts);
		return;
	case REC_COMPACT_TRY:
		p = pidmap_add(&m->pids, r->pid);
		p->have_try = 1;
		p->try_ts = r->ts;
		p->try_stack = -1;
		if (c)
			*c = (struct cpu_slot){ PEND_TRY, r->pid };
		return;
	case REC_COMPACT_BEGIN:
		p = pidmap_get(&m->pids, r->pid);
		if (!p)
			return;
		p->run_open = p->have_try && r->ts >= p->try_ts &&
			      r->ts - p->try_ts < DIRECT_WINDOW_NS &&
			      !(r->comm && !strcmp(r->comm, "khugepaged"));
		p->run_ts = r->ts;
		p->run_stack = p->try_stack;
		return;
	case REC_COMPACT_END:
		p = pidmap_get(&m->pids, r->pid);
		if (!p || !p->run_open)
			return;
		p->run_open = 0;
		d = r->ts >= p->run_ts ? r->ts - p->run_ts : 0;
		stall_add(m, SK_DIRECT_COMPACT, p->run_stack, d, r->pid, p->run_ts);
		return;
	default:
		return;
	}
}

uint64_t stacks_model_seen(const struct stacks_model *m) { return m ? m->seen : 0; }

int stacks_model_nstall_stacks(const struct stacks_model *m, uint64_t *dropped)
{
	if (dropped)
		*dropped = m ? m->ss_dropped : 0;
	return m ? m->nss : 0;
}

const struct stall_stack *stacks_model_stall_stack(const struct stacks_model *m, int i)
{
	return m && i >= 0 && i < m->nss ? &m->ss[i] : NULL;
}

const struct kstack *stacks_model_stack(const struct stacks_model *m, int id)
{
	return m && id >= 0 && id < m->nstacks ? &m->stacks[id] : NULL;
}
uint64_t stacks_model_unattached(const struct stacks_model *m) { return m ? m->unattached : 0; }
uint64_t stacks_model_dropped(const struct stacks_model *m) { return m ? m->dropped : 0; }

const struct stack_kind_stats *stacks_model_kind(const struct stacks_model *m,
						 enum stack_kind k)
{
	return m && (unsigned)k < SK_NR ? &m->kinds[k] : NULL;
}

int stacks_model_ndistinct(const struct stacks_model *m, enum stack_kind k)
{
	int n = 0;

	for (int i = 0; m && i < m->nstacks; i++)
		n += m->stacks[i].agg[k].count > 0;
	return n;
}

struct top_ent {
	const struct kstack *s;
	const struct stack_agg *g;
};

static int top_cmp(const void *a, const void *b)
{
	const struct top_ent *x = a, *y = b;

	if (x->g->max_ns != y->g->max_ns)
		return x->g->max_ns < y->g->max_ns ? 1 : -1;
	if (x->g->total_ns != y->g->total_ns)
		return x->g->total_ns < y->g->total_ns ? 1 : -1;
	if (x->s->nframes != y->s->nframes)
		return x->s->nframes - y->s->nframes;
	for (int i = 0; i < x->s->nframes; i++)
		if (x->s->addr[i] != y->s->addr[i])
			return x->s->addr[i] < y->s->addr[i] ? -1 : 1;
	return 0;
}

int stacks_model_top(const struct stacks_model *m, enum stack_kind k,
		     const struct kstack **out, int max)
{
	struct top_ent *all;
	int n = 0;

	if (!m || (unsigned)k >= SK_NR || max <= 0 || !m->nstacks)
		return 0;
	all = xreallocarray(NULL, (size_t)m->nstacks, sizeof(*all));
	for (int i = 0; i < m->nstacks; i++)
		if (m->stacks[i].agg[k].count)
			all[n++] = (struct top_ent){ &m->stacks[i], &m->stacks[i].agg[k] };
	qsort(all, (size_t)n, sizeof(*all), top_cmp);
	if (n > max)
		n = max;
	for (int i = 0; i < n; i++)
		out[i] = all[i].s;
	free(all);
	return n;
}

static int tracing_frame(const char *f)
{
	static const char *const prefix[] = {
		"trace_event_raw_event_", "perf_trace_", "__traceiter_", "__bpf_trace_",
		NULL,
	};

	for (int i = 0; f && prefix[i]; i++)
		if (!strncmp(f, prefix[i], strlen(prefix[i])))
			return 1;
	return 0;
}

int kstack_first_frame(const struct kstack *s)
{
	int i = 0;

	while (i < s->nframes && tracing_frame(s->func[i]))
		i++;
	return i < s->nframes ? i : 0;
}

const char *const stacks_stall_events[SK_NR + 1] = {
	[SK_DIRECT_RECLAIM] = "vmscan:mm_vmscan_direct_reclaim_begin",
	[SK_MEMCG_RECLAIM] = "vmscan:mm_vmscan_memcg_reclaim_begin",
	[SK_DIRECT_COMPACT] = "compaction:mm_compaction_try_to_compact_pages",
	[SK_NR] = NULL,
};

const char *stack_kind_name(enum stack_kind k)
{
	static const char *const n[SK_NR] = {
		"direct reclaim", "memcg reclaim", "direct compaction",
	};

	return (unsigned)k < SK_NR ? n[k] : "?";
}

const char *stack_kind_key(enum stack_kind k)
{
	static const char *const n[SK_NR] = {
		"direct_reclaim", "memcg_reclaim", "direct_compaction",
	};

	return (unsigned)k < SK_NR ? n[k] : "?";
}

static void *ops_create(void) { return stacks_new(); }
static void ops_add(void *m, const struct record *r) { on_record(m, r); }
static void ops_destroy(void *m) { stacks_free(m); }

const struct model_ops stacks_model_ops = {
	.name = "stacks", .create = ops_create, .add = ops_add, .destroy = ops_destroy,
};
