/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Z3 for the general tier.  Each question builds a fresh solver from the
 * region: its general conditions plus, for every constrained word, the
 * word set as a formula, so both tiers are always decided together.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/region.h"
#include "analysis/smt.h"
#include "analysis/symexec.h"
#include "util/grow.h"

/* Milliseconds one satisfiability question may take. */
#define SOLVER_TIMEOUT_MS 5000U
/* Answers remembered per context; the memo starts over when full. */
#define MEMO_MAX 3072U

/* One remembered answer: the question as bytes, 1 (sat, with a model) or 0 (unsat). */
struct smt_memo {
	unsigned char *key;
	size_t len;
	int answer;
	uint32_t model[16];
};

/* The library never prints or exits: Z3 errors only mark the context failed. */
static void on_error(Z3_context ctx, Z3_error_code code)
{
	(void)ctx;
	(void)code;
}

struct smt *smt_new(void)
{
	if (z3_load() < 0)
		return NULL;
	struct smt *smt = calloc(1, sizeof(*smt));
	if (!smt)
		return NULL;
	Z3_config cfg = Z3_mk_config();
	if (!cfg) {
		free(smt);
		return NULL;
	}
	/*
	 * The timeout is the context's, which every solver reads: setting it
	 * on each solver costs more than most questions (Z3 validates all of
	 * a solver's parameters each time).
	 */
	char ms[16];
	snprintf(ms, sizeof(ms), "%u", SOLVER_TIMEOUT_MS);
	Z3_set_param_value(cfg, "timeout", ms);
	smt->ctx = Z3_mk_context(cfg);
	smt->timeout_ms = SOLVER_TIMEOUT_MS;
	Z3_del_config(cfg);
	if (!smt->ctx) {
		free(smt);
		return NULL;
	}
	Z3_set_error_handler(smt->ctx, on_error);
	smt->bv32 = Z3_mk_bv_sort(smt->ctx, 32);
	for (unsigned i = 0; i < 16; i++) {
		char name[16];
		snprintf(name, sizeof(name), "w%u", i);
		smt->words[i] = Z3_mk_const(smt->ctx, Z3_mk_string_symbol(smt->ctx, name), smt->bv32);
	}
	smt->refs = 1;
	return smt;
}

struct smt *smt_ref(struct smt *smt)
{
	if (smt)
		smt->refs++;
	return smt;
}

static void memo_clear(struct smt *smt)
{
	for (size_t i = 0; i < smt->nmemo; i++)
		free(smt->memo[i].key);
	hashmap_clear(&smt->memo_index);
	smt->nmemo = 0;
}

void smt_unref(struct smt *smt)
{
	if (!smt || --smt->refs)
		return;
	for (int kind = 0; kind < 2; kind++)
		for (size_t i = 0; i < smt->nidle[kind]; i++)
			Z3_solver_dec_ref(smt->ctx, smt->idle[kind][i]);
	memo_clear(smt);
	free(smt->memo);
	hashmap_release(&smt->memo_index);
	Z3_del_context(smt->ctx);
	free(smt);
}

static int ask(struct smt *smt, const struct scg_region *r, uint32_t need, const uint32_t *own,
	       uint32_t *words, struct analysis_run *run);
static int split_words(const struct scg_region *r, uint32_t *need, uint32_t *own);

/* The question "@r's conditions and the sets of the words in @need" as bytes. */
struct key {
	unsigned char *buf;
	size_t len, cap;
	bool failed;
};

static void key_put(struct key *k, const void *data, size_t n)
{
	if (k->failed || !n) /* an empty list may be NULL: memcpy() must not see it */
		return;
	if (n > SIZE_MAX - k->len || GROW_ARRAY(&k->buf, &k->cap, k->len + n, 256)) {
		k->failed = true;
		return;
	}
	memcpy(k->buf + k->len, data, n);
	k->len += n;
}

static void question_key(struct key *k, const struct scg_region *r, uint32_t need)
{
	/* Z3 shares equal expressions, so a condition is known by its address */
	key_put(k, &need, sizeof(need));
	key_put(k, &r->nconds, sizeof(r->nconds));
	key_put(k, r->conds, sizeof(*r->conds) * r->nconds);
	for (unsigned i = 0; i < 16; i++) {
		if (!(need & (1U << i)))
			continue;
		const struct wset *ws = &r->w[i];
		key_put(k, &ws->niv, sizeof(ws->niv));
		key_put(k, ws->iv, sizeof(*ws->iv) * ws->niv);
		key_put(k, &ws->known, sizeof(ws->known));
		key_put(k, &ws->known_value, sizeof(ws->known_value));
		key_put(k, &ws->nex, sizeof(ws->nex));
		key_put(k, ws->ex, sizeof(*ws->ex) * ws->nex);
	}
}

/* The answer remembered for @k (of hash @h), or NULL. */
static const struct smt_memo *memo_find(const struct smt *smt, const struct key *k, uint64_t h)
{
	uint64_t i;
	for (size_t pos = HASHMAP_START; hashmap_next(&smt->memo_index, h, &pos, &i);) {
		const struct smt_memo *m = &smt->memo[i];
		if (m->len == k->len && !memcmp(m->key, k->buf, k->len))
			return m;
	}
	return NULL;
}

static void memo_store(struct smt *smt, struct key *k, uint64_t h, int answer,
		       const uint32_t *model)
{
	if (smt->nmemo >= MEMO_MAX)
		memo_clear(smt);
	(void)hashmap_add(&smt->memo_index, h, smt->nmemo); /* reserved for MEMO_MAX */
	struct smt_memo *m = &smt->memo[smt->nmemo++];
	*m = (struct smt_memo){ k->buf, k->len, answer, { 0 } };
	memcpy(m->model, model, sizeof(m->model));
	k->buf = NULL; /* the memo has it */
}

Z3_ast smt_const(struct smt *smt, uint32_t value)
{
	return Z3_mk_unsigned_int(smt->ctx, value, smt->bv32);
}

static Z3_ast all_of(Z3_context c, Z3_ast a, Z3_ast b)
{
	Z3_ast both[2] = { a, b };
	return a ? Z3_mk_and(c, 2, both) : b;
}

/* Word @i's set as a formula, or NULL when it holds every value. */
static Z3_ast word_formula(struct smt *smt, const struct wset *ws, unsigned i)
{
	Z3_context c = smt->ctx;
	Z3_ast w = smt->words[i], f = NULL;
	if (wset_is_full(ws))
		return NULL;
	if (!(ws->niv == 1 && ws->iv[0].lo == 0 && ws->iv[0].hi == UINT32_MAX)) {
		Z3_ast *alts = calloc(ws->niv ? ws->niv : 1, sizeof(*alts));
		if (!alts)
			return Z3_mk_false(c);
		for (size_t k = 0; k < ws->niv; k++)
			alts[k] = all_of(c, Z3_mk_bvuge(c, w, smt_const(smt, ws->iv[k].lo)),
				       Z3_mk_bvule(c, w, smt_const(smt, ws->iv[k].hi)));
		f = ws->niv ? Z3_mk_or(c, (unsigned)ws->niv, alts) : Z3_mk_false(c);
		free(alts);
	}
	if (ws->known)
		f = all_of(c, f, Z3_mk_eq(c, Z3_mk_bvand(c, w, smt_const(smt, ws->known)),
				       smt_const(smt, ws->known_value)));
	for (size_t k = 0; k < ws->nex; k++)
		f = all_of(c, f, Z3_mk_not(c, Z3_mk_eq(c, Z3_mk_bvand(c, w, smt_const(smt, ws->ex[k].mask)),
						     smt_const(smt, ws->ex[k].value))));
	return f;
}

int smt_solve(struct smt *smt, const struct scg_region *r, uint32_t *words,
	      struct analysis_run *run)
{
	uint32_t need, own[16];
	if (!split_words(r, &need, own))
		return 0;
	struct key k = { 0 };
	uint64_t h = 0;
	uint32_t model[16] = { 0 };
	if (!smt->memo && hashmap_reserve(&smt->memo_index, MEMO_MAX) == 0)
		smt->memo = calloc(MEMO_MAX, sizeof(*smt->memo));
	question_key(&k, r, need);
	int ret = -ENOMEM;
	bool memo = smt->memo && !k.failed;
	const struct smt_memo *m = NULL;
	if (memo) {
		h = hash_bytes(k.buf, k.len);
		m = memo_find(smt, &k, h);
	}
	if (m) {
		ret = m->answer;
		memcpy(model, m->model, sizeof(model));
	} else {
		ret = ask(smt, r, need, own, model, run);
		if (ret >= 0 && memo)
			memo_store(smt, &k, h, ret, model);
	}
	free(k.buf);
	for (unsigned i = 0; ret == 1 && words && i < 16; i++)
		words[i] = need & (1U << i) ? model[i] : own[i];
	return ret;
}

/* Words no condition of @r involves: each on its own, into @own.  0 when one is empty. */
static int split_words(const struct scg_region *r, uint32_t *need, uint32_t *own)
{
	*need = r->nconds && r->cond_words ? r->cond_words : 0xffffU;
	for (unsigned i = 0; i < 16; i++) {
		if (*need & (1U << i))
			continue;
		int ok = wset_next(&r->w[i], 0, &own[i]);
		if (ok == 0)
			return 0;
		if (ok < 0)
			*need |= 1U << i; /* too hard to search: the solver */
	}
	return 1;
}

/*
 * A solver holding @r's conditions and the sets of the words in @need:
 * for one question the bit-vector tactic (fastest from scratch), for a
 * series the general solver, which keeps what it learns between them.
 */
static Z3_solver solver_for(struct smt *smt, const struct scg_region *r, uint32_t need,
			    bool series)
{
	Z3_context c = smt->ctx;
	Z3_solver s;
	if (smt->nidle[series]) {
		s = smt->idle[series][--smt->nidle[series]];
	} else {
		s = series ? Z3_mk_solver(c) : Z3_mk_solver_for_logic(c, Z3_mk_string_symbol(c, "QF_BV"));
		Z3_solver_inc_ref(c, s);
	}
	Z3_solver_push(c, s); /* solver_done() pops back to the empty solver */
	for (size_t i = 0; i < r->nconds; i++)
		Z3_solver_assert(c, s, r->conds[i]);
	for (unsigned i = 0; i < 16; i++) {
		Z3_ast f = need & (1U << i) ? word_formula(smt, &r->w[i], i) : NULL;
		if (f)
			Z3_solver_assert(c, s, f);
	}
	return s;
}

/* @s (from solver_for()) emptied, kept for the next question or released. */
static void solver_done(struct smt *smt, Z3_solver s, bool series)
{
	Z3_solver_pop(smt->ctx, s, 1);
	if (smt->nidle[series] < SMT_IDLE_MAX)
		smt->idle[series][smt->nidle[series]++] = s;
	else
		Z3_solver_dec_ref(smt->ctx, s);
}

/* One check of @s within the run's budget; with @words, the model (the rest from @own). */
static int check(struct smt *smt, Z3_solver s, uint32_t need, const uint32_t *own,
		 uint32_t *words, struct analysis_run *run)
{
	if (run) {
		int stop = run_check(run);
		if (stop < 0)
			return stop;
		run->stats.solver_calls++;
	}
	unsigned timeout = run ? run_ms_left(run, SOLVER_TIMEOUT_MS) : SOLVER_TIMEOUT_MS;
	Z3_context c = smt->ctx;
	if (timeout != smt->timeout_ms) { /* the run's deadline comes first */
		char ms[16];
		snprintf(ms, sizeof(ms), "%u", timeout);
		Z3_update_param_value(c, "timeout", ms);
		smt->timeout_ms = timeout;
	}
	Z3_lbool res = Z3_solver_check(c, s);
	int ret = res == Z3_L_TRUE ? 1 : res == Z3_L_FALSE ? 0 : -E2BIG;
	/* Z3 gave up because the run's deadline came, not because the question is hard */
	if (ret == -E2BIG && run && run_check(run) < 0)
		ret = run->stop;
	if (ret == 1 && words) {
		Z3_model m = Z3_solver_get_model(c, s);
		Z3_model_inc_ref(c, m);
		for (unsigned i = 0; i < 16; i++) {
			Z3_ast v;
			unsigned u = 0;
			if (!(need & (1U << i)))
				u = own[i];
			else if (Z3_model_eval(c, m, smt->words[i], true, &v))
				Z3_get_numeral_uint(c, v, &u);
			words[i] = u;
		}
		Z3_model_dec_ref(c, m);
	}
	return ret;
}

/* The question to Z3: the conditions and the sets of the words in @need. */
static int ask(struct smt *smt, const struct scg_region *r, uint32_t need, const uint32_t *own,
	       uint32_t *words, struct analysis_run *run)
{
	Z3_solver s = solver_for(smt, r, need, false);
	int ret = check(smt, s, need, own, words, run);
	solver_done(smt, s, false);
	return ret;
}

int smt_enum_open(struct smt_enum *e, struct smt *smt, const struct scg_region *r)
{
	e->smt = smt;
	e->solver = NULL;
	if (!split_words(r, &e->need, e->own))
		return 0;
	e->solver = solver_for(smt, r, e->need, true);
	return 1;
}

int smt_enum_next(struct smt_enum *e, uint32_t *words, struct analysis_run *run)
{
	return e->solver ? check(e->smt, e->solver, e->need, e->own, words, run) : 0;
}

void smt_enum_exclude(struct smt_enum *e, Z3_ast cond)
{
	if (e->solver)
		Z3_solver_assert(e->smt->ctx, e->solver, Z3_mk_not(e->smt->ctx, cond));
}

void smt_enum_close(struct smt_enum *e)
{
	if (e->solver)
		solver_done(e->smt, e->solver, true);
	e->solver = NULL;
}

/* Nodes one evaluation visits before it leaves the term to Z3's simplifier. */
#define EVAL_BUDGET 4096U

struct eval {
	struct smt *smt;
	const uint32_t *words;
	unsigned budget;
};

static bool eval_node(struct eval *e, Z3_ast a, uint32_t *out);

/* The @n arguments of @app, all evaluated, into @v. */
static bool eval_args(struct eval *e, Z3_app app, unsigned n, uint32_t *v)
{
	for (unsigned i = 0; i < n; i++)
		if (!eval_node(e, Z3_get_app_arg(e->smt->ctx, app, i), &v[i]))
			return false;
	return true;
}

/* A Boolean or 32-bit operation of the kinds the engine builds, on values. */
static bool eval_op(Z3_decl_kind k, const uint32_t *v, unsigned n, uint32_t *out)
{
	uint32_t x = v[0], y = n > 1 ? v[1] : 0;
	switch ((int)k) { /* int: Z3 has hundreds of kinds, the rest are not ours */
	case Z3_OP_NOT: *out = !x; return n == 1;
	case Z3_OP_BNEG: *out = -x; return n == 1;
	case Z3_OP_EQ: *out = x == y; return n == 2;
	case Z3_OP_ULEQ: *out = x <= y; return n == 2;
	case Z3_OP_UGEQ: *out = x >= y; return n == 2;
	case Z3_OP_UGT: *out = x > y; return n == 2;
	case Z3_OP_ULT: *out = x < y; return n == 2;
	case Z3_OP_BSUB: *out = x - y; return n == 2;
	case Z3_OP_BUDIV: *out = y ? x / y : UINT32_MAX; return n == 2; /* SMT-LIB's x / 0 */
	case Z3_OP_BSHL: *out = y < 32 ? x << y : 0; return n == 2;
	case Z3_OP_BLSHR: *out = y < 32 ? x >> y : 0; return n == 2;
	default: break;
	}
	/* the associative ones take any number of arguments */
	uint32_t acc = v[0];
	for (unsigned i = 1; i < n; i++) {
		switch ((int)k) {
		case Z3_OP_AND: acc = acc && v[i]; break;
		case Z3_OP_OR: acc = acc || v[i]; break;
		case Z3_OP_BADD: acc += v[i]; break;
		case Z3_OP_BMUL: acc *= v[i]; break;
		case Z3_OP_BAND: acc &= v[i]; break;
		case Z3_OP_BOR: acc |= v[i]; break;
		case Z3_OP_BXOR: acc ^= v[i]; break;
		default: return false;
		}
	}
	*out = acc;
	return n >= 2;
}

/* @a on the words: false when it holds something else (then Z3 evaluates it). */
static bool eval_node(struct eval *e, Z3_ast a, uint32_t *out)
{
	Z3_context c = e->smt->ctx;
	if (!e->budget--)
		return false;
	Z3_ast_kind kind = Z3_get_ast_kind(c, a);
	if (kind == Z3_NUMERAL_AST) {
		unsigned u;
		if (!Z3_get_numeral_uint(c, a, &u))
			return false;
		*out = u;
		return true;
	}
	if (kind != Z3_APP_AST)
		return false;
	for (unsigned i = 0; i < 16; i++)
		if (a == e->smt->words[i]) { /* Z3 shares equal terms: one node per word */
			*out = e->words[i];
			return true;
		}
	Z3_app app = Z3_to_app(c, a);
	Z3_decl_kind k = Z3_get_decl_kind(c, Z3_get_app_decl(c, app));
	unsigned n = Z3_get_app_num_args(c, app);
	if (k == Z3_OP_TRUE || k == Z3_OP_FALSE) {
		*out = k == Z3_OP_TRUE;
		return n == 0;
	}
	uint32_t v[8];
	return n >= 1 && n <= 8 && eval_args(e, app, n, v) && eval_op(k, v, n, out);
}

/* Z3's own evaluation: every word replaced by its value, then simplified. */
static Z3_ast z3_eval(struct smt *smt, Z3_ast term, const uint32_t *words)
{
	Z3_ast values[16];
	for (unsigned i = 0; i < 16; i++)
		values[i] = smt_const(smt, words[i]);
	return Z3_simplify(smt->ctx, Z3_substitute(smt->ctx, term, 16, smt->words, values));
}

uint32_t smt_eval(struct smt *smt, Z3_ast term, const uint32_t *words)
{
	struct eval e = { smt, words, EVAL_BUDGET };
	uint32_t u32;
	if (eval_node(&e, term, &u32))
		return u32;
	unsigned u = 0;
	Z3_get_numeral_uint(smt->ctx, z3_eval(smt, term, words), &u);
	return u;
}

bool smt_holds(struct smt *smt, Z3_ast cond, const uint32_t *words)
{
	struct eval e = { smt, words, EVAL_BUDGET };
	uint32_t b;
	if (eval_node(&e, cond, &b))
		return b;
	return Z3_get_bool_value(smt->ctx, z3_eval(smt, cond, words)) == Z3_L_TRUE;
}
