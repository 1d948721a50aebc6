/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "suggest.h"

#include <ctype.h>
#include <string.h>

/* Names longer than this are not worth a hint (and keep the table on the stack). */
#define SUGGEST_MAX_LEN 64

size_t edit_distance(const char *a, const char *b, size_t cap)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > SUGGEST_MAX_LEN || lb > SUGGEST_MAX_LEN)
		return cap + 1;
	if ((la > lb ? la - lb : lb - la) > cap)
		return cap + 1;

	size_t d[SUGGEST_MAX_LEN + 1][SUGGEST_MAX_LEN + 1];
	for (size_t i = 0; i <= la; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= la; i++) {
		for (size_t j = 1; j <= lb; j++) {
			int ca = tolower((unsigned char)a[i - 1]);
			int cb = tolower((unsigned char)b[j - 1]);
			size_t cost = ca != cb;
			size_t best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (d[i - 1][j - 1] + cost < best)
				best = d[i - 1][j - 1] + cost;
			/* a swapped pair of letters counts as one edit */
			if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) &&
			    tolower((unsigned char)a[i - 2]) == cb && d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	}
	return d[la][lb] > cap ? cap + 1 : d[la][lb];
}

void suggest_init(struct suggest *s, const char *word)
{
	s->word = word;
	s->best = NULL;
	s->best_distance = (size_t)-1;
}

/* A typo is at most a third of the word's letters, and at least one. */
static size_t suggest_cap(const char *word)
{
	size_t cap = strlen(word) / 3;
	return cap ? cap : 1;
}

void suggest_consider(struct suggest *s, const char *candidate)
{
	size_t cap = suggest_cap(s->word);
	size_t d = edit_distance(s->word, candidate, cap);
	if (d <= cap && d < s->best_distance) {
		s->best = candidate;
		s->best_distance = d;
	}
}

const char *suggest_result(const struct suggest *s)
{
	return s->best;
}
