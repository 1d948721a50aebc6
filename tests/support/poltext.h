/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Random policy text that parses: a structure-aware generator for the
 * policy language, where polgen builds policies through the API.  It writes
 * what the lexer and the parser must carry across their growth points:
 * hundreds to thousands of tokens, rules with long syscall lists, conditions
 * with nested groups, '!', masks, sets and line breaks inside brackets,
 * `use` of built-in profiles and `include` of given files.  Every text it
 * writes is valid (warnings allowed), so a test can check the parse
 * succeeds, then cut or corrupt it for the error paths.  Deterministic per
 * seed.
 */
#ifndef SCG_TESTS_POLTEXT_H
#define SCG_TESTS_POLTEXT_H

#include <stdbool.h>
#include <stddef.h>

#include "support/progen.h"

struct poltext_opts {
	size_t statements;	     /* lines of statements (a broken line counts once) */
	unsigned max_depth;	     /* groups and '!' nested in a condition, at most 60 */
	size_t max_items;	     /* syscalls in one rule, 1.. */
	size_t max_set;		     /* values in one `in {...}`, 1.. */
	const char *const *includes; /* files `include` may name, NULL-terminated; NULL: none */
	bool uses;		     /* `use` built-in profiles */
	bool breaks;		     /* continue statements on indented lines */
};

/* The text (caller frees), or NULL when out of memory. */
char *poltext_policy(struct progen_rng *rng, const struct poltext_opts *opts);

#endif
