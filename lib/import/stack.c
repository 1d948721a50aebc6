/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Flattening a filter stack into one first-match policy.  For each syscall
 * a filter mentions, every filter contributes the pieces of its verdict:
 * each rule's action under "this rule matches and no earlier rule of the
 * filter does", and its default under "none of its rules match".  Sorted
 * by strictness, newest filter first among equals, the first piece that
 * matches is the stack's verdict; calls no filter mentions get the
 * strictest default.  ABIs are handled in classes that see the same
 * filters, since filters may leave an ABI out.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <syscage/bpf.h>

#include "import/stack.h"
#include "libseccomp/high_numbers.h"
#include "util/grow.h"

void imp_stack_init(struct imp_stack *st, const char *file)
{
	memset(st, 0, sizeof(*st));
	st->file = file;
	st->badarch = SCG_RET_ALLOW;
}

void imp_stack_release(struct imp_stack *st)
{
	for (size_t i = 0; i < st->nlayers; i++) {
		struct imp_layer *l = &st->layers[i];
		for (size_t j = 0; j < l->nrules; j++) {
			free(l->rules[j].syscall);
			scg_expr_free(l->rules[j].cond);
		}
		free(l->rules);
	}
	free(st->layers);
	st->layers = NULL;
	st->nlayers = st->cap = 0;
}

struct imp_layer *imp_stack_push(struct imp_stack *st, uint32_t abi_mask, uint32_t dflt,
				 struct scg_loc loc)
{
	if (GROW_ARRAY(&st->layers, &st->cap, st->nlayers + 1, 8))
		return NULL;
	struct imp_layer *l = &st->layers[st->nlayers++];
	memset(l, 0, sizeof(*l));
	l->abi_mask = abi_mask;
	l->dflt = dflt;
	l->loc = loc;
	return l;
}

int imp_layer_add(struct imp_layer *layer, const char *syscall, struct scg_expr *cond,
		  uint32_t action, struct scg_loc loc)
{
	if (GROW_ARRAY(&layer->rules, &layer->cap, layer->nrules + 1, 16)) {
		scg_expr_free(cond);
		return -ENOMEM;
	}
	char *name = strdup(syscall);
	if (!name) {
		scg_expr_free(cond);
		return -ENOMEM;
	}
	layer->rules[layer->nrules++] =
	    (struct imp_rule){.syscall = name, .cond = cond, .action = action, .loc = loc};
	return 0;
}

const char *imp_number_key(char *buf, size_t size, uint32_t first, uint32_t last)
{
	snprintf(buf, size, "#%" PRIu32 "-%" PRIu32, first, last);
	return buf;
}

/* Parses a key imp_number_key() wrote; false for a name. */
static bool number_key(const char *key, uint32_t *first, uint32_t *last)
{
	return key[0] == '#' && sscanf(key, "#%" SCNu32 "-%" SCNu32, first, last) == 2;
}

uint32_t imp_abi_bit(const struct scg_arch *arch)
{
	return scg_arch_mask_bit(arch);
}

static int resolve(const struct imp_stack *st, const struct scg_arch *arch, const char *name,
		   uint32_t *nr)
{
	if (st->resolve)
		return st->resolve(arch, name, nr);
	return scg_syscall_lookup(arch, name, nr) == 0 ? 0 : -ENOSYS;
}

bool imp_known_syscall(const struct imp_stack *st, const char *name)
{
	uint32_t nr, last;
	if (number_key(name, &nr, &last))
		return true;
	for (size_t i = 0; i < st->ntargets; i++)
		if (resolve(st, st->targets[i], name, &nr) == 0)
			return true;
	return false;
}

/* Kernel precedence: lower is stricter (the order of enum scg_action). */
static unsigned strictness(uint32_t action)
{
	return (unsigned)scg_action_of(action);
}

/* Whether @a wins over @b when @a's filter is newer than @b's. */
static bool newer_wins(uint32_t a, uint32_t b)
{
	return strictness(a) <= strictness(b);
}

/* One piece of a filter's verdict for one syscall. */
struct piece {
	uint32_t action;
	struct scg_expr *cond; /* NULL: always */
	size_t layer;
	struct scg_loc loc;
};

struct pieces {
	struct piece *v;
	size_t n, cap;
	bool oom;
};

static void pieces_add(struct pieces *p, uint32_t action, struct scg_expr *cond, size_t layer,
		       struct scg_loc loc, bool cond_failed)
{
	if (cond_failed || p->oom) {
		p->oom = true;
		scg_expr_free(cond);
		return;
	}
	if (GROW_ARRAY(&p->v, &p->cap, p->n + 1, 8)) {
		p->oom = true;
		scg_expr_free(cond);
		return;
	}
	p->v[p->n++] = (struct piece){action, cond, layer, loc};
}

static void pieces_release(struct pieces *p)
{
	for (size_t i = 0; i < p->n; i++)
		scg_expr_free(p->v[i].cond);
	free(p->v);
	memset(p, 0, sizeof(*p));
}

/* @a && !@b (either may be NULL: true), as new trees. */
static struct scg_expr *and_not(const struct scg_expr *a, const struct scg_expr *b, bool *failed)
{
	struct scg_expr *na = a ? scg_expr_clone(a) : NULL;
	struct scg_expr *nb = b ? scg_expr_not(scg_expr_clone(b)) : NULL;
	if ((a && !na) || (b && !nb)) {
		scg_expr_free(na);
		scg_expr_free(nb);
		*failed = true;
		return NULL;
	}
	if (!na)
		return nb;
	if (!nb)
		return na;
	struct scg_expr *r = scg_expr_and(na, nb);
	if (!r)
		*failed = true;
	return r;
}

/* @a || @b, taking both (NULL @a: just @b); NULL and *@failed on failure. */
static struct scg_expr *or_take(struct scg_expr *a, struct scg_expr *b, bool *failed)
{
	if (!b) {
		scg_expr_free(a);
		*failed = true;
		return NULL;
	}
	if (!a)
		return b;
	struct scg_expr *r = scg_expr_or(a, b);
	if (!r)
		*failed = true;
	return r;
}

/* A run of rules with one action: its conditions (NULL: unconditional) and what came before. */
struct run {
	bool open;
	uint32_t action;
	struct scg_loc loc;
	struct scg_expr *cond;	 /* OR of the run's conditions */
	struct scg_expr *before; /* OR of the conditions of earlier runs */
};

static void run_flush(struct run *run, size_t li, struct pieces *out)
{
	if (!run->open)
		return;
	bool failed = false;
	struct scg_expr *c = and_not(run->cond, run->before, &failed);
	pieces_add(out, run->action, c, li, run->loc, failed);
	scg_expr_free(run->cond);
	run->cond = NULL;
	run->open = false;
}

/*
 * Layer @li's pieces for @name: each run of rules with the same action
 * under "no earlier rule matched", then the default under "none matched".
 */
static void layer_pieces(const struct imp_layer *l, size_t li, const char *name, struct pieces *out)
{
	struct run run = {0};
	bool any = false, always = false, failed = false;
	for (size_t j = 0; j < l->nrules && !always && !failed; j++) {
		const struct imp_rule *r = &l->rules[j];
		if (strcmp(r->syscall, name))
			continue;
		any = true;
		if (!run.open || run.action != r->action) {
			if (run.open) {
				struct scg_expr *c = run.cond ? scg_expr_clone(run.cond) : NULL;
				run.before = or_take(run.before, c, &failed);
			}
			run_flush(&run, li, out);
			run = (struct run){true, r->action, r->loc, NULL, run.before};
			if (r->cond && !(run.cond = scg_expr_clone(r->cond)))
				failed = true;
		} else if (r->cond) {
			run.cond = or_take(run.cond, scg_expr_clone(r->cond), &failed);
		}
		always = !r->cond;
	}
	if (always) {
		scg_expr_free(run.cond);
		run.cond = NULL;
	}
	struct scg_expr *all = NULL; /* OR of every rule's condition, for the default */
	if (run.open && !always && !failed)
		all = or_take(run.before ? scg_expr_clone(run.before) : NULL,
			      run.cond ? scg_expr_clone(run.cond) : NULL, &failed);
	run_flush(&run, li, out);
	scg_expr_free(run.before);
	if (failed)
		out->oom = true;
	if (!always && !failed && strictness(l->dflt) != strictness(SCG_RET_ALLOW)) {
		bool f2 = false;
		struct scg_expr *c = any ? and_not(NULL, all, &f2) : NULL;
		pieces_add(out, l->dflt, c, li, l->loc, f2);
	}
	scg_expr_free(all);
}

/* Sorts by strictness, newer filter first among equal strictness (insertion sort: lists are short).
 */
static void pieces_sort(struct pieces *p)
{
	for (size_t i = 1; i < p->n; i++) {
		struct piece x = p->v[i];
		size_t j = i;
		while (j > 0) {
			const struct piece *y = &p->v[j - 1];
			unsigned sx = strictness(x.action), sy = strictness(y->action);
			if (sy < sx || (sy == sx && y->layer > x.layer))
				break;
			p->v[j] = *y;
			j--;
		}
		p->v[j] = x;
	}
}

/* @e cut to 32 bits, for ABIs whose filters compare only the low half (a new tree). */
static struct scg_expr *for_width(const struct scg_expr *e, unsigned bits)
{
	struct scg_expr *c = scg_expr_clone(e);
	if (!c || bits == 64)
		return c;
	struct scg_expr *stack[64];
	size_t n = 0;
	stack[n++] = c;
	while (n) {
		struct scg_expr *x = stack[--n];
		if (x->kind == SCG_EXPR_CMP) {
			x->width = 32;
			x->mask &= 0xffffffffU;
			x->value &= 0xffffffffU;
			continue;
		}
		if (x->left && n < 64)
			stack[n++] = x->left;
		if (x->right && n < 64)
			stack[n++] = x->right;
	}
	return c;
}

struct emit {
	struct scg_policy *p;
	const struct imp_stack *st;
	uint32_t dflt;
	int err;
};

static void add_spec(struct emit *e, struct scg_rule_spec *spec, const struct scg_expr *cond,
		     unsigned bits)
{
	if (e->err)
		return;
	spec->cond = NULL;
	if (cond && !(spec->cond = for_width(cond, bits))) {
		e->err = -ENOMEM;
		return;
	}
	int r = scg_policy_add_rule(e->p, spec);
	if (r < 0)
		e->err = r;
}

/*
 * One rule for the ABIs of @arch_mask, on the numbers the other tool gives
 * @name there: by name where syscage's table agrees, else by number, and not
 * at all where the tool knows no such call.
 */
static void emit_rule(struct emit *e, const char *name, const struct scg_expr *cond,
		      uint32_t action, uint32_t arch_mask, unsigned bits, struct scg_loc loc)
{
	if (!loc.file) /* an importer that reads several files names them */
		loc.file = e->st->file;
	struct scg_rule_spec spec = {.action = action, .loc = loc};
	uint32_t by_name = 0;
	if (number_key(name, &spec.number, &spec.number_last)) {
		spec.has_number = true;
		spec.arch_mask = arch_mask;
		add_spec(e, &spec, cond, bits);
		return;
	}
	for (size_t i = 0; i < e->st->ntargets; i++) {
		const struct scg_arch *a = e->st->targets[i];
		uint32_t bit = imp_abi_bit(a), nr, ours;
		if (!(arch_mask & bit) || resolve(e->st, a, name, &nr) < 0)
			continue;
		if (scg_syscall_lookup(a, name, &ours) == 0 && ours == nr) {
			by_name |= bit;
			continue;
		}
		spec.syscall = NULL;
		spec.has_number = true;
		spec.number = spec.number_last = nr;
		spec.arch_mask = bit;
		add_spec(e, &spec, cond, bits);
	}
	if (by_name) {
		spec.syscall = name;
		spec.has_number = false;
		spec.number = spec.number_last = 0;
		spec.arch_mask = by_name;
		add_spec(e, &spec, cond, bits);
	}
}

/* The verdict of a call no filter of @layers names: the strictest default, the newest among equals.
 */
static uint32_t layers_default(const struct imp_stack *st, uint32_t layers)
{
	uint32_t d = SCG_RET_ALLOW;
	for (size_t li = 0; li < st->nlayers; li++)
		if ((layers & (1U << li)) && newer_wins(st->layers[li].dflt, d))
			d = st->layers[li].dflt;
	return d;
}

/* The pieces of @name for ABIs @mask (all with the same filters, words of @bits). */
static void emit_syscall(struct emit *e, const char *name, uint32_t mask, uint32_t layers,
			 unsigned bits)
{
	struct pieces p = {0};
	for (size_t li = 0; li < e->st->nlayers; li++)
		if (layers & (1U << li))
			layer_pieces(&e->st->layers[li], li, name, &p);
	if (p.oom) {
		pieces_release(&p);
		e->err = -ENOMEM;
		return;
	}
	pieces_sort(&p);
	bool closed = false;
	for (size_t i = 0; i < p.n && !closed; i++) {
		emit_rule(e, name, p.v[i].cond, p.v[i].action, mask, bits, p.v[i].loc);
		closed = !p.v[i].cond;
	}
	if (!closed && strictness(layers_default(e->st, layers)) != strictness(SCG_RET_ALLOW))
		emit_rule(e, name, NULL, SCG_RET_ALLOW, mask, bits, SCG_LOC_NONE);
	pieces_release(&p);
}

/* The filters (bit per layer) that check ABI @arch. */
static uint32_t layers_of(const struct imp_stack *st, const struct scg_arch *arch)
{
	uint32_t m = 0, bit = imp_abi_bit(arch);
	for (size_t li = 0; li < st->nlayers && li < 32; li++)
		if (st->layers[li].abi_mask & bit)
			m |= 1U << li;
	return m;
}

/* Whether a filter in @layers names rule @ri of filter @li's syscall before it does. */
static bool seen_before(const struct imp_stack *st, uint32_t layers, size_t li, size_t ri)
{
	const char *name = st->layers[li].rules[ri].syscall;
	for (size_t a = 0; a <= li; a++)
		if (layers & (1U << a))
			for (size_t b = 0; b < (a == li ? ri : st->layers[a].nrules); b++)
				if (!strcmp(st->layers[a].rules[b].syscall, name))
					return true;
	return false;
}

/*
 * Every syscall any filter of ABIs @mask names, in order of first mention;
 * then, when these ABIs' filters default to something else than the
 * policy's default, a rule on every number that gives them theirs.
 */
static void emit_class(struct emit *e, uint32_t mask, uint32_t layers, unsigned bits)
{
	const struct imp_stack *st = e->st;
	for (size_t li = 0; li < st->nlayers; li++) {
		if (!(layers & (1U << li)))
			continue;
		for (size_t ri = 0; ri < st->layers[li].nrules && !e->err; ri++)
			if (!seen_before(st, layers, li, ri))
				emit_syscall(e, st->layers[li].rules[ri].syscall, mask, layers,
					     bits);
	}
	uint32_t d = layers_default(st, layers);
	if (d != e->dflt) {
		char key[32];
		emit_rule(e, imp_number_key(key, sizeof(key), 0, UINT32_MAX), NULL, d, mask, bits,
			  SCG_LOC_NONE);
	}
}

int imp_stack_to_policy(const struct imp_stack *st, struct scg_policy **out)
{
	*out = NULL;
	if (st->nlayers > 32)
		return -E2BIG;
	struct scg_policy *p = scg_policy_new();
	if (!p)
		return -ENOMEM;
	/* the policy's default is the first target's; other ABIs get theirs as a rule */
	uint32_t first = st->ntargets ? layers_of(st, st->targets[0]) : 0;
	struct emit e = {.p = p, .st = st, .dflt = layers_default(st, first)};
	for (size_t i = 0; i < st->ntargets && !e.err; i++)
		e.err = scg_policy_add_arch(p, st->targets[i]);
	scg_policy_set_default(p, e.dflt);
	scg_policy_set_badarch(p, st->badarch);
	/* ABIs that see the same filters with the same word size share their rules */
	uint32_t done = 0;
	for (size_t i = 0; i < st->ntargets && !e.err; i++) {
		const struct scg_arch *a = st->targets[i];
		if (done & imp_abi_bit(a))
			continue;
		uint32_t layers = layers_of(st, a), mask = 0;
		for (size_t j = i; j < st->ntargets; j++) {
			const struct scg_arch *b = st->targets[j];
			if (layers_of(st, b) == layers && scg_arch_bits(b) == scg_arch_bits(a))
				mask |= imp_abi_bit(b);
		}
		done |= mask;
		emit_class(&e, mask, layers, scg_arch_bits(a));
	}
	if (!e.err && st->libseccomp_high)
		e.err = libseccomp_high_add(p);
	if (e.err) {
		scg_policy_free(p);
		return e.err;
	}
	*out = p;
	return 0;
}
