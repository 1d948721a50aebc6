/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Regions: one word set per word of seccomp_data, and concrete examples. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <syscage/arch.h>

#include "analysis/region.h"
#include "util/grow.h"

int region_init(struct scg_region *r)
{
	r->smt = NULL;
	r->conds = NULL;
	r->nconds = r->cconds = 0;
	r->cond_words = 0;
	r->has_hint = false;
	for (unsigned i = 0; i < SCG_DATA_WORDS; i++) {
		if (wset_init_full(&r->w[i]) < 0) {
			while (i-- > 0)
				wset_release(&r->w[i]);
			return -ENOMEM;
		}
	}
	return 0;
}

int region_copy(struct scg_region *dst, const struct scg_region *src)
{
	dst->conds = NULL;
	dst->nconds = dst->cconds = 0;
	dst->smt = NULL;
	dst->cond_words = src->cond_words;
	dst->has_hint = src->has_hint;
	memcpy(dst->hint, src->hint, sizeof(dst->hint));
	if (src->nconds) {
		dst->conds = malloc(sizeof(*dst->conds) * src->nconds);
		if (!dst->conds)
			return -ENOMEM;
		memcpy(dst->conds, src->conds, sizeof(*dst->conds) * src->nconds);
		dst->nconds = dst->cconds = src->nconds;
	}
	for (unsigned i = 0; i < SCG_DATA_WORDS; i++) {
		if (wset_copy(&dst->w[i], &src->w[i]) < 0) {
			while (i-- > 0)
				wset_release(&dst->w[i]);
			free(dst->conds);
			return -ENOMEM;
		}
	}
	dst->smt = smt_ref(src->smt);
	return 0;
}

void region_release(struct scg_region *r)
{
	for (unsigned i = 0; i < SCG_DATA_WORDS; i++)
		wset_release(&r->w[i]);
	free(r->conds);
	smt_unref(r->smt);
	r->conds = NULL;
	r->smt = NULL;
	r->nconds = r->cconds = 0;
	r->cond_words = 0;
}

int region_add_cond(struct scg_region *r, struct smt *smt, Z3_ast cond, uint32_t words)
{
	if (GROW_ARRAY(&r->conds, &r->cconds, r->nconds + 1, 8))
		return -ENOMEM;
	if (!r->smt)
		r->smt = smt_ref(smt);
	r->conds[r->nconds++] = cond;
	r->cond_words |= words;
	return 0;
}

int region_feasible(const struct scg_region *r)
{
	if (r->nconds)
		return smt_solve(r->smt, r, NULL, NULL);
	for (unsigned i = 0; i < SCG_DATA_WORDS; i++) {
		uint32_t v;
		int ok = wset_next(&r->w[i], 0, &v);
		if (ok <= 0)
			return ok;
	}
	return 1;
}

struct scg_region *scg_region_new(void)
{
	struct scg_region *r = malloc(sizeof(*r));
	if (!r || region_init(r) < 0) {
		free(r);
		errno = ENOMEM;
		return NULL;
	}
	return r;
}

void scg_region_free(struct scg_region *region)
{
	if (!region)
		return;
	region_release(region);
	free(region);
}

struct scg_region *scg_region_clone(const struct scg_region *region)
{
	struct scg_region *r = malloc(sizeof(*r));
	if (!r || region_copy(r, region) < 0) {
		free(r);
		errno = ENOMEM;
		return NULL;
	}
	return r;
}

int scg_region_restrict_range(struct scg_region *region, unsigned word, uint32_t lo, uint32_t hi)
{
	if (!region || word >= SCG_DATA_WORDS || lo > hi)
		return -EINVAL;
	return wset_intersect(&region->w[word], lo, hi);
}

int scg_region_exclude_range(struct scg_region *region, unsigned word, uint32_t lo, uint32_t hi)
{
	if (!region || word >= SCG_DATA_WORDS || lo > hi)
		return -EINVAL;
	return wset_remove(&region->w[word], lo, hi);
}

void scg_region_word(const struct scg_region *region, unsigned word, struct scg_word_set *set)
{
	const struct wset *ws = &region->w[word % SCG_DATA_WORDS];
	*set = (struct scg_word_set){ ws->iv, ws->niv, ws->known, ws->known_value, ws->ex, ws->nex };
}

bool scg_region_word_free(const struct scg_region *region, unsigned word)
{
	return word < SCG_DATA_WORDS && wset_is_full(&region->w[word]);
}

bool scg_region_empty(const struct scg_region *region)
{
	return region_feasible(region) == 0;
}

bool scg_region_contains(const struct scg_region *region, const uint32_t *words)
{
	for (unsigned i = 0; i < SCG_DATA_WORDS; i++)
		if (!wset_contains(&region->w[i], words[i]))
			return false;
	for (size_t i = 0; i < region->nconds; i++)
		if (!smt_holds(region->smt, region->conds[i], words))
			return false;
	return true;
}

int scg_region_word_next(const struct scg_region *region, unsigned word, uint32_t from,
			 uint32_t *out)
{
	if (!region || word >= SCG_DATA_WORDS)
		return -EINVAL;
	int r = wset_next(&region->w[word], from, out);
	return r < 0 ? r : r ? 0 : -ENOENT;
}

int scg_region_example_words(const struct scg_region *region, uint32_t *words)
{
	if (region->nconds && region->has_hint && scg_region_contains(region, region->hint)) {
		memcpy(words, region->hint, sizeof(region->hint));
		return 0;
	}
	if (region->nconds) {
		int r = smt_solve(region->smt, region, words, NULL);
		return r < 0 ? r : r ? 0 : -ENOENT;
	}
	for (unsigned i = 0; i < SCG_DATA_WORDS; i++) {
		int r = scg_region_word_next(region, i, 0, &words[i]);
		if (r < 0)
			return r;
	}
	return 0;
}

int scg_region_example(const struct scg_region *region, struct scg_seccomp_data *data)
{
	uint32_t w[SCG_DATA_WORDS];
	int r = scg_region_example_words(region, w);
	if (r < 0)
		return r;
	data->nr = w[0];
	data->arch = w[1];
	/* little endian (bit 30 of the arch): low word first in each u64 */
	bool le = w[1] & SCG_AUDIT_ARCH_LE;
	for (unsigned i = 0; i < 7; i++) {
		uint32_t first = w[2 + 2 * i], second = w[3 + 2 * i];
		uint64_t v = le ? ((uint64_t)second << 32 | first) : ((uint64_t)first << 32 | second);
		if (i == 0)
			data->instruction_pointer = v;
		else
			data->args[i - 1] = v;
	}
	return 0;
}
