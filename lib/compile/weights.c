/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The workload a filter is laid out for: calls per syscall name. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "compile/internal.h"

static int by_name(const void *a, const void *b)
{
	const struct scg_syscall_weight *x = a, *y = b;
	return strcmp(x->name, y->name);
}

/* The caller's list, sorted, with repeated names summed. */
static int own_copy(struct weights *w, const struct scg_syscall_weight *list, size_t n)
{
	struct scg_syscall_weight *copy = malloc((n ? n : 1) * sizeof(*copy));
	if (!copy)
		return -ENOMEM;
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (list[i].name)
			copy[k++] = list[i];
	qsort(copy, k, sizeof(*copy), by_name);
	size_t out = 0;
	for (size_t i = 0; i < k; i++) {
		if (out && !strcmp(copy[out - 1].name, copy[i].name)) {
			uint64_t sum = copy[out - 1].count + copy[i].count;
			copy[out - 1].count = sum < copy[i].count ? UINT64_MAX : sum;
		} else {
			copy[out++] = copy[i];
		}
	}
	w->owned = copy;
	w->w = copy;
	w->n = out;
	return 0;
}

int weights_init(struct weights *w, const struct scg_compile_options *opts)
{
	*w = (struct weights){ 0 };
	if (opts && opts->unweighted)
		return 0;
	if (opts && opts->weights)
		return own_copy(w, opts->weights, opts->nweights);
	w->w = scg_compile_builtin_weights(&w->n);
	return 0;
}

void weights_release(struct weights *w)
{
	free(w->owned);
	*w = (struct weights){ 0 };
}

uint64_t weights_of(const struct weights *w, const char *name)
{
	if (!name || w->n == 0)
		return 0;
	struct scg_syscall_weight key = { .name = name };
	const struct scg_syscall_weight *hit = bsearch(&key, w->w, w->n, sizeof(key), by_name);
	return hit ? hit->count : 0;
}

static int by_nr(const void *a, const void *b)
{
	const struct nr_weight *x = a, *y = b;
	return x->nr < y->nr ? -1 : x->nr > y->nr;
}

/*
 * A name counts at the number whose name it is, as weights_of() of that
 * number's name would find it: the workload holds fewer names than the ABI
 * numbers, and each is looked up once.
 */
int weights_by_nr(const struct weights *w, const struct scg_arch *arch, struct nr_weights *out)
{
	*out = (struct nr_weights){ 0 };
	if (w->n == 0)
		return 0;
	struct nr_weight *v = malloc(w->n * sizeof(*v));
	if (!v)
		return -ENOMEM;
	size_t n = 0;
	for (size_t i = 0; i < w->n; i++) {
		uint32_t nr;
		const char *name = w->w[i].name;
		if (scg_syscall_lookup(arch, name, &nr) < 0)
			continue;
		const char *own = scg_syscall_name(arch, nr);
		if (own && !strcmp(own, name))
			v[n++] = (struct nr_weight){ nr, w->w[i].count };
	}
	if (n > 1)
		qsort(v, n, sizeof(*v), by_nr);
	out->v = v;
	out->n = n;
	return 0;
}

uint64_t nr_weights_of(struct nr_weights *nw, uint32_t nr)
{
	while (nw->next < nw->n && nw->v[nw->next].nr < nr)
		nw->next++;
	return nw->next < nw->n && nw->v[nw->next].nr == nr ? nw->v[nw->next].count : 0;
}

void nr_weights_release(struct nr_weights *nw)
{
	free(nw->v);
	*nw = (struct nr_weights){ 0 };
}
