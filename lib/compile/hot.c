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

void hot_sort(struct hot_list *h)
{
	if (h->n > 1) /* an empty list has no array: qsort() wants one all the same */
		qsort(h->calls, h->n, sizeof(*h->calls), by_count);
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
