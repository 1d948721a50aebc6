/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Hot syscalls first.
 *
 * Since Linux 5.11 the kernel skips the filter for any syscall the filter
 * always allows, so what a filter costs at run time is the path of the
 * calls it cannot skip: argument checks and verdicts other than ALLOW.
 * The few of those that programs make often (clone, clone3 answered with
 * ENOSYS, socket under an address-family check, ...) are tested with one
 * `jeq` each before the search tree, most frequent first.  The chain uses
 * only `ld [nr]` and `jeq`, which the kernel's cache emulator follows, so
 * every syscall it lets through stays cacheable; on older kernels it costs
 * the other syscalls at most HOT_MAX instructions.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <syscage/bpf.h>

#include "bpf/opcodes.h"
#include "compile/internal.h"
#include "util/grow.h"

int hot_add(struct hot_list *h, const struct hot_call *call)
{
	if (GROW_ARRAY(&h->calls, &h->cap, h->n + 1, 32))
		return -ENOMEM;
	h->calls[h->n++] = *call;
	return 0;
}

void hot_release(struct hot_list *h)
{
	free(h->calls);
	*h = (struct hot_list){ 0 };
}

/* Most calls first; ties by number so that the output does not depend on qsort. */
static int by_count(const void *a, const void *b)
{
	const struct hot_call *x = a, *y = b;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return x->nr < y->nr ? -1 : x->nr > y->nr;
}

/* Comparisons on the way down a tree of @nranges leaves, roughly. */
static uint64_t tree_depth(size_t nranges)
{
	uint64_t depth = 1;
	while (nranges > 1) {
		nranges = (nranges + 1) / 2;
		depth++;
	}
	return depth;
}

size_t hot_select(struct hot_list *h, size_t nranges)
{
	if (h->n == 0)
		return 0;
	qsort(h->calls, h->n, sizeof(*h->calls), by_count);
	uint64_t rest = 0, depth = tree_depth(nranges);
	for (size_t i = 0; i < h->n; i++)
		rest += h->calls[i].count;
	size_t kept = 0;
	/*
	 * One more `jeq` replaces a walk of about @depth tests for its own
	 * calls by one test, and adds one test for every call behind it; keep
	 * it while that is a gain (the counts are sorted, so the first loss
	 * ends the chain).
	 */
	while (kept < h->n && kept < HOT_MAX && depth > 1) {
		const struct hot_call *c = &h->calls[kept];
		rest -= c->count;
		if (c->count == 0 || c->count * (depth - 1) <= rest)
			break;
		kept++;
	}
	/* Then the argument checks the workload did not rank: a handful in any real
	 * policy, and cheaper behind one `jeq` each than at the bottom of the tree. */
	for (size_t i = kept; i < h->n && kept < HOT_MAX; i++) {
		if (!h->calls[i].checks_args)
			continue;
		struct hot_call c = h->calls[i];
		memmove(&h->calls[kept + 1], &h->calls[kept], (i - kept) * sizeof(c));
		h->calls[kept++] = c;
	}
	return kept;
}

/* Argument checks bigger than this stay shared (and are reached by a jump). */
#define COPY_BUDGET 48

uint32_t hot_chain(struct dag *g, const struct hot_list *h, size_t n, uint32_t rest,
		   uint8_t copy)
{
	uint32_t node = rest;
	for (size_t i = n; i-- > 0;) {
		/* The tree shares these checks with other numbers (x32's, other ABIs'), and
		 * a shared node must come after all of them; a copy can follow the `jeq`. */
		uint32_t checks = dag_private_copy(g, h->calls[i].node, copy, COPY_BUDGET);
		node = dag_test(g, SCG_DATA_NR, WORD_FULL, BPF_JEQ, h->calls[i].nr, checks, node);
	}
	return node;
}
