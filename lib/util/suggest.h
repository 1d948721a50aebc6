/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* "Did you mean" hints: the closest candidate by edit distance. */
#ifndef SCG_LIB_UTIL_SUGGEST_H
#define SCG_LIB_UTIL_SUGGEST_H

#include <stddef.h>

/*
 * Case-insensitive Damerau-Levenshtein (optimal string alignment) distance,
 * capped: anything above @cap is reported as @cap + 1.
 */
size_t edit_distance(const char *a, const char *b, size_t cap);

/* Incremental search for the best candidate. */
struct suggest {
	const char *word;
	const char *best;
	size_t best_distance;
};

void suggest_init(struct suggest *s, const char *word);
void suggest_consider(struct suggest *s, const char *candidate);
/* The best candidate if it is close enough to be a plausible typo, else NULL. */
const char *suggest_result(const struct suggest *s);

#endif
