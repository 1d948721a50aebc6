/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Z3 for the general tier.  Each question builds a fresh solver from the
 * region: its general conditions plus, for every constrained word, the
 * word set as a formula, so both tiers are always decided together.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "analysis/region.h"
#include "analysis/smt.h"
#include "analysis/symexec.h"

/* Milliseconds one satisfiability question may take. */
#define SOLVER_TIMEOUT_MS 5000U

/* The library never prints or exits: Z3 errors only mark the context failed. */
static void on_error(Z3_context ctx, Z3_error_code code)
{
	(void)ctx;
	(void)code;
}

struct smt *smt_new(void)
{
	if (scg_z3_load() < 0)
		return NULL;
	struct smt *smt = calloc(1, sizeof(*smt));
	if (!smt)
		return NULL;
	Z3_config cfg = Z3_mk_config();
	if (!cfg) {
		free(smt);
		return NULL;
	}
	smt->ctx = Z3_mk_context(cfg);
	Z3_del_config(cfg);
	if (!smt->ctx) {
		free(smt);
		return NULL;
	}
	Z3_set_error_handler(smt->ctx, on_error);
	Z3_sort bv32 = Z3_mk_bv_sort(smt->ctx, 32);
	for (unsigned i = 0; i < 16; i++) {
		char name[16];
		snprintf(name, sizeof(name), "w%u", i);
		smt->words[i] = Z3_mk_const(smt->ctx, Z3_mk_string_symbol(smt->ctx, name), bv32);
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

void smt_unref(struct smt *smt)
{
	if (!smt || --smt->refs)
		return;
	Z3_del_context(smt->ctx);
	free(smt);
}

Z3_ast smt_const(struct smt *smt, uint32_t value)
{
	return Z3_mk_unsigned_int(smt->ctx, value, Z3_mk_bv_sort(smt->ctx, 32));
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
	if (run) {
		int stop = run_check(run);
		if (stop < 0)
			return stop;
		run->stats.solver_calls++;
	}
	unsigned timeout = run ? run_ms_left(run, SOLVER_TIMEOUT_MS) : SOLVER_TIMEOUT_MS;
	Z3_context c = smt->ctx;
	Z3_solver s = Z3_mk_solver(c);
	Z3_solver_inc_ref(c, s);
	Z3_params p = Z3_mk_params(c);
	Z3_params_inc_ref(c, p);
	Z3_params_set_uint(c, p, Z3_mk_string_symbol(c, "timeout"), timeout);
	Z3_solver_set_params(c, s, p);
	for (size_t i = 0; i < r->nconds; i++)
		Z3_solver_assert(c, s, r->conds[i]);
	for (unsigned i = 0; i < 16; i++) {
		Z3_ast f = word_formula(smt, &r->w[i], i);
		if (f)
			Z3_solver_assert(c, s, f);
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
			if (Z3_model_eval(c, m, smt->words[i], true, &v))
				Z3_get_numeral_uint(c, v, &u);
			words[i] = u;
		}
		Z3_model_dec_ref(c, m);
	}
	Z3_params_dec_ref(c, p);
	Z3_solver_dec_ref(c, s);
	return ret;
}

uint32_t smt_eval(struct smt *smt, Z3_ast term, const uint32_t *words)
{
	Z3_ast values[16];
	for (unsigned i = 0; i < 16; i++)
		values[i] = smt_const(smt, words[i]);
	Z3_ast v = Z3_simplify(smt->ctx, Z3_substitute(smt->ctx, term, 16, smt->words, values));
	unsigned u = 0;
	Z3_get_numeral_uint(smt->ctx, v, &u);
	return u;
}

bool smt_holds(struct smt *smt, Z3_ast cond, const uint32_t *words)
{
	Z3_ast values[16];
	for (unsigned i = 0; i < 16; i++)
		values[i] = smt_const(smt, words[i]);
	Z3_ast v = Z3_simplify(smt->ctx, Z3_substitute(smt->ctx, cond, 16, smt->words, values));
	return Z3_get_bool_value(smt->ctx, v) == Z3_L_TRUE;
}
