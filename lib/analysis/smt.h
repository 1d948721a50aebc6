/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The general tier of the engine: Z3 bit-vector terms for values the word
 * sets cannot describe (arithmetic on loaded words, comparisons between two
 * words, RET A of a computed value).  Internal to libsyscage-analysis.
 */
#ifndef SCG_LIB_ANALYSIS_SMT_H
#define SCG_LIB_ANALYSIS_SMT_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/z3_api.h"
#include "util/hashmap.h"

struct scg_region;
struct analysis_run;

/* A Z3 context shared (reference counted) by every region built on it. */
struct smt_memo;

#define SMT_IDLE_MAX 8

struct smt {
	Z3_context ctx;
	Z3_ast words[16]; /* the sixteen 32-bit words of seccomp_data */
	Z3_sort bv32;
	unsigned timeout_ms; /* each solver's, in the context's parameters */
	/* solvers to reuse (a new one costs more than most questions): one question, a series */
	Z3_solver idle[2][SMT_IDLE_MAX];
	size_t nidle[2];
	unsigned refs;
	bool failed; /* Z3 reported an error */
	/* answers already given, by question (see smt_solve()) */
	struct smt_memo *memo;
	size_t nmemo;
	struct hashmap memo_index; /* hash of the question -> memo */
};

/* A new context with one reference, or NULL (no memory, or libz3 cannot be loaded). */
struct smt *smt_new(void);
struct smt *smt_ref(struct smt *smt);
void smt_unref(struct smt *smt);

Z3_ast smt_const(struct smt *smt, uint32_t value);

/*
 * Whether @r (its word sets and general conditions) holds some input:
 * 1 yes, 0 no, -E2BIG when Z3 gives up.  With @words, a witness.  Words
 * no condition involves are decided by their own sets; the question about
 * the others goes to Z3 once, and its answer is remembered.  With
 * @run, the question is asked only while the run has budget (else its stop
 * error), and Z3's own timeout ends at the run's deadline.
 */
int smt_solve(struct smt *smt, const struct scg_region *r, uint32_t *words,
	      struct analysis_run *run);
/*
 * One solver kept over a series of questions about one region, each
 * excluding what the last answer found (the values of RET A): the solver
 * keeps what it learnt.  open: 1, or 0 when the words no condition involves
 * leave nothing; next: as smt_solve() with @words; close always.
 */
struct smt_enum {
	struct smt *smt;
	Z3_solver solver; /* one of smt's, pushed */
	uint32_t need, own[16];
};
int smt_enum_open(struct smt_enum *e, struct smt *smt, const struct scg_region *r);
int smt_enum_next(struct smt_enum *e, uint32_t *words, struct analysis_run *run);
/* From now on, @cond does not hold. */
void smt_enum_exclude(struct smt_enum *e, Z3_ast cond);
void smt_enum_close(struct smt_enum *e);

/* The value of the 32-bit term @term for the input @words. */
uint32_t smt_eval(struct smt *smt, Z3_ast term, const uint32_t *words);
/* True when @cond holds for the input @words. */
bool smt_holds(struct smt *smt, Z3_ast cond, const uint32_t *words);

#endif
