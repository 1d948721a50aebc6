/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The measurements of one syscage bench run, and what follows from them. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

static const char *const section_names[BENCH_NSECTIONS] = {
	[BENCH_BASELINE] = "baseline", [BENCH_CACHE] = "cache",	    [BENCH_STACK] = "stack",
	[BENCH_LENGTH] = "length",     [BENCH_COMPARE] = "compare", [BENCH_FUSE] = "fuse",
};

const char *bench_section_name(enum bench_section s)
{
	return (unsigned)s < BENCH_NSECTIONS ? section_names[s] : "?";
}

int bench_section_lookup(const char *name)
{
	for (int i = 0; i < BENCH_NSECTIONS; i++)
		if (!strcmp(name, section_names[i]))
			return i;
	return -1;
}

void bench_results_free(struct bench_results *res)
{
	for (size_t i = 0; i < res->nrows; i++) {
		for (size_t k = 0; k < res->rows[i].nprogs; k++)
			scg_prog_release(&res->rows[i].progs[k]);
		free(res->rows[i].progs);
	}
	free(res->rows);
	res->rows = NULL;
	res->nrows = res->cap = 0;
}

int bench_results_add(struct bench_results *res, const struct bench_row *row)
{
	if (res->nrows == res->cap) {
		size_t cap = res->cap ? res->cap * 2 : 32;
		struct bench_row *bigger = reallocarray(res->rows, cap, sizeof(*bigger));
		if (!bigger)
			return -ENOMEM;
		res->rows = bigger;
		res->cap = cap;
	}
	res->rows[res->nrows] = *row;
	return (int)res->nrows++;
}

void bench_note(struct bench_results *res, const char *fmt, ...)
{
	if (res->nnotes == sizeof(res->notes) / sizeof(res->notes[0]))
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(res->notes[res->nnotes++], sizeof(res->notes[0]), fmt, ap);
	va_end(ap);
}

bool bench_filter_ns(const struct bench_results *res, size_t i, double *ns)
{
	const struct bench_row *r = &res->rows[i];
	if (r->baseline < 0 || !r->t.ok || !res->rows[r->baseline].t.ok ||
	    r->t.cpu_clock != res->rows[r->baseline].t.cpu_clock)
		return false;
	*ns = r->t.median_ns - res->rows[r->baseline].t.median_ns;
	return true;
}

const char *bench_clock_name(const struct bench_results *res)
{
	bool cpu = false, wall = false;
	for (size_t i = 0; i < res->nrows; i++) {
		const struct bench_timing *t = &res->rows[i].t;
		if (t->ok && !res->rows[i].hidden) {
			cpu |= t->cpu_clock;
			wall |= !t->cpu_clock;
		}
	}
	return wall ? (cpu ? "mixed" : "wall") : "cpu";
}

void bench_call_text(const struct bench_row *r, char *buf, size_t size)
{
	int last = -1;
	for (int k = 0; k < 6; k++)
		if (r->call.args[k])
			last = k;
	int n = snprintf(buf, size, "%s", r->call_name);
	if (last < 0)
		return;
	for (int k = 0; k <= last && n >= 0 && (size_t)n < size; k++)
		n += snprintf(buf + n, size - (size_t)n, "%s%#llx", k ? ", " : "(",
			      (unsigned long long)r->call.args[k]);
	if (n >= 0 && (size_t)n < size)
		snprintf(buf + n, size - (size_t)n, ")");
}

int bench_uncached_twin(const struct bench_results *res, size_t i)
{
	const struct bench_row *r = &res->rows[i];
	if (!r->cached || i + 1 >= res->nrows)
		return -1;
	const struct bench_row *next = &res->rows[i + 1];
	bool twin = next->section == r->section && !next->cached && !next->hidden &&
		    next->baseline == r->baseline && next->call.nr == r->call.nr &&
		    (r->section == BENCH_CACHE || r->section == BENCH_STACK);
	return twin ? (int)(i + 1) : -1;
}

bool bench_overhead(const struct bench_results *res, size_t i, double *pct)
{
	double ns;
	if (!bench_filter_ns(res, i, &ns))
		return false;
	double base = res->rows[res->rows[i].baseline].t.median_ns;
	if (base <= 0)
		return false;
	*pct = 100 * ns / base;
	return true;
}
