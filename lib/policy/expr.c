/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Condition trees: construction, copying, evaluation. */
#include <errno.h>
#include <stdlib.h>

#include <syscage/policy.h>

static uint64_t width_mask(unsigned width)
{
	return width == 32 ? 0xffffffffULL : ~0ULL;
}

struct scg_expr *scg_expr_cmp(unsigned arg, unsigned width, enum scg_cmp_op op, uint64_t mask,
			      uint64_t value)
{
	if (arg > 5 || (width != 32 && width != 64)) {
		errno = EINVAL;
		return NULL;
	}
	struct scg_expr *e = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	e->kind = SCG_EXPR_CMP;
	e->arg = (uint8_t)arg;
	e->width = (uint8_t)width;
	e->op = op;
	e->mask = mask & width_mask(width);
	e->value = value & width_mask(width);
	e->loc = SCG_LOC_NONE;
	return e;
}

static struct scg_expr *expr_node(enum scg_expr_kind kind, struct scg_expr *left,
				  struct scg_expr *right)
{
	struct scg_expr *e = left && (right || kind == SCG_EXPR_NOT) ? calloc(1, sizeof(*e)) : NULL;
	if (!e) {
		scg_expr_free(left);
		scg_expr_free(right);
		return NULL;
	}
	e->kind = kind;
	e->left = left;
	e->right = right;
	e->loc = left->loc;
	return e;
}

struct scg_expr *scg_expr_and(struct scg_expr *left, struct scg_expr *right)
{
	return expr_node(SCG_EXPR_AND, left, right);
}

struct scg_expr *scg_expr_or(struct scg_expr *left, struct scg_expr *right)
{
	return expr_node(SCG_EXPR_OR, left, right);
}

struct scg_expr *scg_expr_not(struct scg_expr *operand)
{
	return expr_node(SCG_EXPR_NOT, operand, NULL);
}

void scg_expr_free(struct scg_expr *expr)
{
	if (!expr)
		return;
	scg_expr_free(expr->left);
	scg_expr_free(expr->right);
	free(expr);
}

struct scg_expr *scg_expr_clone(const struct scg_expr *expr)
{
	if (!expr)
		return NULL;
	struct scg_expr *copy = malloc(sizeof(*copy));
	if (!copy)
		return NULL;
	*copy = *expr;
	copy->left = NULL;
	copy->right = NULL;
	if ((expr->left && !(copy->left = scg_expr_clone(expr->left))) ||
	    (expr->right && !(copy->right = scg_expr_clone(expr->right)))) {
		scg_expr_free(copy);
		return NULL;
	}
	return copy;
}

bool scg_expr_equal(const struct scg_expr *a, const struct scg_expr *b)
{
	if (!a || !b)
		return a == b;
	if (a->kind != b->kind)
		return false;
	if (a->kind == SCG_EXPR_CMP)
		return a->arg == b->arg && a->width == b->width && a->op == b->op &&
		       a->mask == b->mask && a->value == b->value;
	return scg_expr_equal(a->left, b->left) && scg_expr_equal(a->right, b->right);
}

static bool compare(enum scg_cmp_op op, uint64_t a, uint64_t b)
{
	switch (op) {
	case SCG_CMP_EQ:
		return a == b;
	case SCG_CMP_NE:
		return a != b;
	case SCG_CMP_LT:
		return a < b;
	case SCG_CMP_LE:
		return a <= b;
	case SCG_CMP_GT:
		return a > b;
	case SCG_CMP_GE:
		return a >= b;
	}
	return false;
}

bool scg_expr_eval(const struct scg_expr *expr, const uint64_t args[6])
{
	switch (expr->kind) {
	case SCG_EXPR_CMP: {
		uint64_t v = args[expr->arg] & width_mask(expr->width) & expr->mask;
		return compare(expr->op, v, expr->value);
	}
	case SCG_EXPR_AND:
		return scg_expr_eval(expr->left, args) && scg_expr_eval(expr->right, args);
	case SCG_EXPR_OR:
		return scg_expr_eval(expr->left, args) || scg_expr_eval(expr->right, args);
	case SCG_EXPR_NOT:
		return !scg_expr_eval(expr->left, args);
	}
	return false;
}
