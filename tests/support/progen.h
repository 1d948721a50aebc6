/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Random seccomp programs for differential tests: programs the kernel
 * accepts (every opcode seccomp allows, every kind of return value), single
 * mutations of them (which break one rule or none), and raw garbage.
 * Deterministic for a given seed.
 */
#ifndef SCG_TESTS_PROGEN_H
#define SCG_TESTS_PROGEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <syscage/syscage.h>

struct progen_rng {
	uint64_t state;
};

void progen_seed(struct progen_rng *rng, uint64_t seed);
uint64_t progen_next(struct progen_rng *rng);
/* Uniform in [0, n); n > 0. */
uint32_t progen_below(struct progen_rng *rng, uint32_t n);
/* A 32- or 64-bit value biased towards boundaries (0, 1, 0x7fffffff, 0x80000000, ...). */
uint32_t progen_interesting32(struct progen_rng *rng);
uint64_t progen_interesting64(struct progen_rng *rng);

struct progen_opts {
	size_t max_len;        /* 1..4096 */
	bool allow_ret_a;      /* emit RET A */
	bool allow_div_x;      /* emit DIV X (may divide by zero: returns KILL_THREAD) */
	bool only_safe_returns; /* every RET K is ERRNO/TRAP/KILL_*: the syscall never runs */
};

/* A program the kernel accepts.  *@out is new (caller releases). */
int progen_valid(struct progen_rng *rng, const struct progen_opts *opts, struct scg_prog *out);
/* Changes one thing in @prog (an opcode, a jump, a constant, the length...). */
int progen_mutate(struct progen_rng *rng, struct scg_prog *prog);
/* @len instructions of random bytes. */
int progen_garbage(struct progen_rng *rng, size_t len, struct scg_prog *out);
/* A random seccomp return value: every action, data, unknown values. */
uint32_t progen_ret(struct progen_rng *rng, bool only_safe);

#endif
