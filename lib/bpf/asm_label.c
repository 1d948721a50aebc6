/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The label table: names (case-sensitive, pointing into the source text)
 * to the node they mark and their label in the labelled program.  A
 * reference before the definition creates an undefined entry that the
 * definition fills in (and binds); jumps to entries still undefined at the
 * end are found by lprog_check() and reported here, with the name.  Hashed,
 * so a file with thousands of labels stays linear.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/asm_internal.h"
#include "util/suggest.h"
#include "util/grow.h"
#include "util/hashmap.h"

#define UNDEFINED ((size_t)-1)
static bool same_name(const struct asm_label *label, const char *name, size_t len)
{
	return label->len == len && !memcmp(label->name, name, len);
}

/* Index of @tok's label, adding an undefined entry if it is new. */
static size_t lookup_or_add(struct asm_ctx *ctx, const struct asm_token *tok)
{
	uint64_t hash = hash_bytes(tok->text, tok->len), i;
	for (size_t pos = HASHMAP_START; hashmap_next(&ctx->label_index, hash, &pos, &i);)
		if (same_name(&ctx->labels[i], tok->text, tok->len))
			return (size_t)i;
	if (GROW_ARRAY(&ctx->labels, &ctx->cap_labels, ctx->n_labels + 1, 32) ||
	    hashmap_add(&ctx->label_index, hash, ctx->n_labels) < 0)
		goto nomem;
	ctx->labels[ctx->n_labels] = (struct asm_label){ tok->text, tok->len, UNDEFINED, tok->line,
							 tok->column, lprog_label_new(ctx->lp) };
	return ctx->n_labels++;
nomem:
	ctx->nomem = true;
	return SIZE_MAX;
}

int asm_label_define(struct asm_ctx *ctx, const struct asm_token *tok)
{
	size_t index = lookup_or_add(ctx, tok);
	if (index == SIZE_MAX)
		return -ENOMEM;
	struct asm_label *label = &ctx->labels[index];
	if (label->node != UNDEFINED) {
		char hint[64];
		snprintf(hint, sizeof(hint), "first defined at line %u", label->line);
		asm_error(ctx, tok->line, tok->column, "asm-duplicate-label", hint,
			  "label '%.*s' is already defined", (int)(tok->len > 40 ? 40 : tok->len),
			  tok->text);
		return 0;
	}
	label->node = ctx->n_statements; /* the next instruction */
	label->line = tok->line;
	label->column = tok->column;
	lprog_bind(ctx->lp, label->id);
	return 0;
}

size_t asm_label_ref(struct asm_ctx *ctx, const struct asm_token *tok)
{
	return lookup_or_add(ctx, tok);
}

/* At most this much of a label name goes into a message. */
static int shown(const struct asm_label *label)
{
	return (int)(label->len > 64 ? 64 : label->len);
}

/* The defined label closest to @want, for a "did you mean" hint. */
static const struct asm_label *closest_label(const struct asm_ctx *ctx, const struct asm_label *want)
{
	char word[65], candidate[65];
	if (want->len >= sizeof(word))
		return NULL;
	memcpy(word, want->name, want->len);
	word[want->len] = '\0';
	size_t cap = want->len / 3 ? want->len / 3 : 1;
	const struct asm_label *best = NULL;
	size_t best_distance = cap + 1;
	for (size_t i = 0; i < ctx->n_labels; i++) {
		const struct asm_label *l = &ctx->labels[i];
		if (l->node == UNDEFINED || l->len >= sizeof(candidate))
			continue;
		memcpy(candidate, l->name, l->len);
		candidate[l->len] = '\0';
		size_t d = edit_distance(word, candidate, cap);
		if (d < best_distance) {
			best = l;
			best_distance = d;
		}
	}
	return best;
}

static void report_undefined(struct asm_ctx *ctx, const struct asm_target *t,
			     const struct asm_label *label)
{
	const struct asm_label *best = closest_label(ctx, label);
	char hint[112];
	if (best)
		snprintf(hint, sizeof(hint), "did you mean '%.*s'?", shown(best), best->name);
	else
		snprintf(hint, sizeof(hint), "define it with '%.*s:' before an instruction",
			 shown(label), label->name);
	asm_error(ctx, t->line, t->column, "asm-undefined-label", hint, "undefined label '%.*s'",
		  shown(label), label->name);
}

void asm_label_report(struct asm_ctx *ctx, const struct asm_target *t,
		      const struct lprog_report *fault)
{
	const struct asm_label *label = &ctx->labels[t->index];
	switch (fault->fault) {
	case LPROG_UNBOUND_LABEL:
		report_undefined(ctx, t, label);
		break;
	case LPROG_BACKWARD_JUMP:
		if (fault->allowed)
			asm_warning(ctx, t->line, t->column, "asm-backward-jump",
				    "the kernel refuses it; classic BPF jumps only forward",
				    "ja to '%.*s' goes backwards: k wraps around", shown(label),
				    label->name);
		else
			asm_error(ctx, t->line, t->column, "asm-backward-jump",
				  "classic BPF jumps only forward", "jump to '%.*s' goes backwards",
				  shown(label), label->name);
		break;
	case LPROG_LABEL_AT_END: /* warned once, at the label: asm_labels_check_end() */
	case LPROG_OK:
	case LPROG_TOO_LONG:
	case LPROG_EMPTY:
	case LPROG_FALLS_OFF:
		break;
	}
}

void asm_labels_check_end(struct asm_ctx *ctx)
{
	for (size_t i = 0; i < ctx->n_labels; i++) {
		const struct asm_label *l = &ctx->labels[i];
		if (l->node == ctx->n_nodes)
			asm_warning(ctx, l->line, l->column, "asm-label-at-end",
				    "jumps to it leave the program, which the kernel refuses",
				    "label '%.*s' is not followed by an instruction", shown(l), l->name);
	}
}
