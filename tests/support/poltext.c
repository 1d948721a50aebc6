/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "support/poltext.h"

#include <stdio.h>
#include <stdlib.h>

/* Names every ABI the text targets (the native default) knows. */
static const char *const names[] = {
	"read",	  "write",  "close", "openat", "mmap",	 "mprotect", "ioctl", "socket",
	"getpid", "futex",  "fcntl", "lseek",  "pread64", "dup3",     "kill",  "prctl",
};
static const char *const groups[] = {"basic-io", "aio", "clock", "chown"};
static const char *const profiles[] = {"stdio", "default"};
static const char *const actions[] = {
	"allow", "kill", "kill-thread", "log", "errno(EPERM)", "errno(5)", "trap(3)", "trace(1)",
};
static const char *const ops[] = {"==", "!=", "<", "<=", ">", ">="};

#define PICK(rng, table) (table)[progen_below((rng), sizeof(table) / sizeof((table)[0]))]

struct gen {
	struct progen_rng *rng;
	const struct poltext_opts *o;
	FILE *f;
	unsigned budget; /* comparisons left for the condition being written */
};

/* Inside brackets a line may break: the next line is indented. */
static void maybe_break(struct gen *g)
{
	if (g->o->breaks && progen_below(g->rng, 8) == 0)
		fputs("\n\t", g->f);
}

static void value(struct gen *g, unsigned depth)
{
	switch (progen_below(g->rng, depth ? 7 : 4)) {
	case 0:
		fprintf(g->f, "%u", progen_below(g->rng, 1000));
		break;
	case 1:
		fprintf(g->f, "0x%x", progen_interesting32(g->rng));
		break;
	case 2:
		fputs("-1", g->f);
		break;
	case 3:
		fprintf(g->f, "%u", progen_below(g->rng, 8));
		break;
	case 4:
		fputc('~', g->f);
		value(g, depth - 1);
		break;
	case 5:
		value(g, depth - 1);
		fputs(" | ", g->f);
		value(g, depth - 1);
		break;
	default:
		fputc('(', g->f);
		value(g, depth - 1);
		fputc(')', g->f);
		break;
	}
}

/* argN, or one 32-bit half of it (true): then values must fit in 32 bits */
static bool operand(struct gen *g)
{
	fprintf(g->f, "arg%u", progen_below(g->rng, 6));
	uint32_t part = progen_below(g->rng, 6);
	if (part < 2)
		fputs(part ? ".hi" : ".lo", g->f);
	return part < 2;
}

static void half_value(struct gen *g)
{
	fprintf(g->f, progen_below(g->rng, 2) ? "%u" : "0x%x", progen_interesting32(g->rng));
}

static void compare(struct gen *g)
{
	if (g->budget)
		g->budget--;
	uint32_t kind = progen_below(g->rng, 4);
	if (kind == 0) {
		fputc('(', g->f);
		bool half = operand(g);
		fputs(" & ", g->f);
		half ? half_value(g) : value(g, 1);
		fprintf(g->f, ") %s ", PICK(g->rng, ops));
		half ? half_value(g) : value(g, 1);
		return;
	}
	bool half = operand(g);
	if (kind == 1) {
		size_t n = 1 + progen_below(g->rng, (uint32_t)g->o->max_set);
		fputs(progen_below(g->rng, 3) ? " in {" : " not in {", g->f);
		for (size_t i = 0; i < n; i++) {
			if (i) {
				fputs(", ", g->f);
				maybe_break(g);
			}
			half ? half_value(g) : value(g, 1);
		}
		fputc('}', g->f);
		return;
	}
	fprintf(g->f, " %s ", PICK(g->rng, ops));
	half ? half_value(g) : value(g, 2);
}

static void cond_or(struct gen *g, unsigned depth);

static void unary(struct gen *g, unsigned depth)
{
	/* out of budget, groups and '!' still nest, around one comparison */
	uint32_t kind = depth ? progen_below(g->rng, g->budget ? 4 : 2) : 3;
	if (kind == 0) {
		fputc('(', g->f);
		cond_or(g, depth - 1);
		maybe_break(g);
		fputc(')', g->f);
	} else if (kind == 1) {
		fputc('!', g->f);
		unary(g, depth - 1);
	} else {
		compare(g);
	}
}

/* operand { OP operand }: 1..3 of them, so chains stay short and groups carry the depth */
static void chain(struct gen *g, unsigned depth, const char *op, bool or)
{
	uint32_t n = g->budget ? 1 + progen_below(g->rng, 3) : 1;
	for (uint32_t i = 0; i < n; i++) {
		if (i) {
			fprintf(g->f, " %s ", op);
			maybe_break(g);
		}
		if (or)
			chain(g, depth, "&&", false);
		else
			unary(g, depth);
	}
}

static void cond_or(struct gen *g, unsigned depth)
{
	chain(g, depth, "||", true);
}

static void item(struct gen *g)
{
	uint32_t kind = progen_below(g->rng, 10);
	if (kind == 0) {
		fprintf(g->f, "@%s", PICK(g->rng, groups));
	} else if (kind == 1) {
		uint32_t lo = 1000 + progen_below(g->rng, 500);
		fprintf(g->f, "%u..%u", lo, lo + progen_below(g->rng, 100));
	} else {
		fprintf(g->f, "%s%s", PICK(g->rng, names), kind == 2 ? "?" : "");
	}
}

static void rule(struct gen *g)
{
	fprintf(g->f, "%s ", PICK(g->rng, actions));
	size_t n = 1 + progen_below(g->rng, (uint32_t)g->o->max_items);
	for (size_t i = 0; i < n; i++) {
		if (i) {
			fputs(", ", g->f);
			maybe_break(g); /* after a comma the next indented line goes on */
		}
		item(g);
	}
	if (progen_below(g->rng, 3)) {
		fputs(" if ", g->f);
		g->budget = 1 + progen_below(g->rng, 24);
		cond_or(g, progen_below(g->rng, g->o->max_depth + 1));
	}
	if (progen_below(g->rng, 8) == 0)
		fputs(" on x86_64", g->f);
}

static void statement(struct gen *g)
{
	uint32_t kind = progen_below(g->rng, 40);
	if (kind == 0 && g->o->includes && g->o->includes[0]) {
		size_t n = 0;
		while (g->o->includes[n])
			n++;
		fprintf(g->f, "include \"%s\"", g->o->includes[progen_below(g->rng, (uint32_t)n)]);
	} else if (kind == 1 && g->o->uses) {
		fprintf(g->f, "use %s", PICK(g->rng, profiles));
	} else if (kind == 2) {
		fputs("default errno(EPERM)", g->f);
	} else if (kind == 3) {
		fputs("# a comment line", g->f);
	} else {
		rule(g);
	}
	fputc('\n', g->f);
}

char *poltext_policy(struct progen_rng *rng, const struct poltext_opts *opts)
{
	char *text = NULL;
	size_t len = 0;
	struct gen g = {rng, opts, open_memstream(&text, &len), 0};
	if (!g.f)
		return NULL;
	for (size_t i = 0; i < opts->statements; i++)
		statement(&g);
	if (fclose(g.f) != 0) {
		free(text);
		return NULL;
	}
	return text;
}
