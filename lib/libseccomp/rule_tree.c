/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libseccomp's rule tree (src/db.c of libseccomp 2.5), kept only as far as
 * it decides which rules are accepted: see rule_tree.h.  Nodes carry
 * reference counts as libseccomp's do, since when a node goes away (and
 * with it parts of a level) depends on them; the memory itself is held in
 * an arena and released with the tree, so a node dropped from the tree is
 * never reused.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "libseccomp/rule_tree.h"

struct node {
	struct node *lvl_prv, *lvl_nxt; /* siblings on one level, in test order */
	struct node *nxt_t, *nxt_f;	/* the next level when the test holds / fails */
	uint64_t datum_full;
	uint32_t mask, datum, act_t, act_f;
	unsigned refcnt;
	unsigned arg;
	bool hi; /* tests the argument's high word */
	bool act_t_flg, act_f_flg;
	enum libseccomp_op op, op_orig;
};

struct libseccomp_tree {
	unsigned bits;
	bool present; /* some rule was accepted: chains == NULL means unconditional */
	uint32_t action; /* the unconditional rule's */
	struct node *chains;
	struct node **arena;
	size_t narena, cap;
};

struct libseccomp_tree *libseccomp_tree_new(unsigned bits)
{
	struct libseccomp_tree *t = calloc(1, sizeof(*t));
	if (t != NULL)
		t->bits = bits;
	return t;
}

void libseccomp_tree_free(struct libseccomp_tree *tree)
{
	if (tree == NULL)
		return;
	for (size_t i = 0; i < tree->narena; i++)
		free(tree->arena[i]);
	free(tree->arena);
	free(tree);
}

static struct node *node_new(struct libseccomp_tree *t)
{
	if (t->narena == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 32;
		struct node **v = reallocarray(t->arena, cap, sizeof(*v));
		if (v == NULL)
			return NULL;
		t->arena = v;
		t->cap = cap;
	}
	struct node *n = calloc(1, sizeof(*n));
	if (n != NULL)
		t->arena[t->narena++] = n;
	return n;
}

/* --- order and identity of nodes on a level ------------------------------- */

static unsigned arg_rank(const struct node *n)
{
	return (n->arg << 1) + (n->hi ? 1 : 0);
}

static unsigned op_rank(enum libseccomp_op op)
{
	switch (op) {
	case LIBSECCOMP_MASKED_EQ:
	case LIBSECCOMP_EQ:
	case LIBSECCOMP_NE:
		return 3;
	case LIBSECCOMP_LE:
	case LIBSECCOMP_LT:
		return 2;
	case LIBSECCOMP_GE:
	case LIBSECCOMP_GT:
		return 1;
	}
	return 0;
}

/* @a sorts after @b on a level (a level lists its nodes from the greatest). */
static bool node_lt(const struct node *a, const struct node *b)
{
	if (arg_rank(a) != arg_rank(b))
		return arg_rank(a) < arg_rank(b);
	if (op_rank(a->op_orig) != op_rank(b->op_orig))
		return op_rank(a->op_orig) < op_rank(b->op_orig);
	if (a->op_orig == LIBSECCOMP_LE || a->op_orig == LIBSECCOMP_LT)
		return a->datum > b->datum;
	return a->datum < b->datum;
}

/* The same test: one word of one argument, the same operator, mask and datum. */
static bool node_eq(const struct node *a, const struct node *b)
{
	return arg_rank(a) == arg_rank(b) && a->op == b->op && a->datum == b->datum &&
	       a->mask == b->mask;
}

static bool leaf(const struct node *n)
{
	return n->nxt_t == NULL && n->nxt_f == NULL;
}

static bool zombie(const struct node *n)
{
	return leaf(n) && !n->act_t_flg && !n->act_f_flg;
}

/* --- references -------------------------------------------------------------- */

static struct node *ref(struct node *n)
{
	if (n != NULL)
		n->refcnt++;
	return n;
}

static unsigned unref(struct node **pn);

static struct node *level_start(struct node *n)
{
	while (n->lvl_prv != NULL)
		n = n->lvl_prv;
	return n;
}

/* Drops the whole level of @n when nothing but its own sibling links holds it. */
static unsigned level_clean(struct node *n)
{
	struct node *start = level_start(n);
	for (struct node *i = start; i != NULL; i = i->lvl_nxt) {
		unsigned links = (i->lvl_prv != NULL) + (i->lvl_nxt != NULL);
		if (i->refcnt > links)
			return 0;
	}
	unsigned cnt = 0;
	for (struct node *i = start; i != NULL;)
		cnt += unref(&i);
	return cnt;
}

static unsigned tree_unref(struct node **pn)
{
	unsigned cnt = unref(pn);
	if (*pn != NULL)
		cnt += level_clean(*pn);
	return cnt;
}

/*
 * Drops one reference to *@pn; the last one takes the node out of its level
 * (*@pn then names a neighbour, or NULL) and drops what it held.  Returns
 * the number of nodes gone.
 */
static unsigned unref(struct node **pn)
{
	struct node *n = *pn;
	if (n == NULL || --n->refcnt > 0)
		return 0;
	struct node *prv = n->lvl_prv, *nxt = n->lvl_nxt, *t = n->nxt_t, *f = n->nxt_f;
	unsigned cnt = 0;
	if (prv != NULL)
		prv->lvl_nxt = NULL;
	if (nxt != NULL)
		nxt->lvl_prv = NULL;
	if (prv != NULL)
		cnt += unref(&prv);
	if (nxt != NULL)
		cnt += unref(&nxt);
	if (prv != NULL)
		prv->lvl_nxt = ref(nxt);
	if (nxt != NULL)
		nxt->lvl_prv = ref(prv);
	*pn = prv != NULL ? prv : nxt;
	cnt += tree_unref(&t);
	cnt += tree_unref(&f);
	return cnt + 1; /* gone from the tree; the arena frees it with the tree */
}

/* Takes @node (and what hangs below it) out of the tree at *@pt. */
static unsigned tree_remove(struct node **pt, struct node *node)
{
	if (pt == NULL || *pt == NULL || node == NULL)
		return 0;
	unsigned cnt = 0;
	struct node *i = level_start(*pt);
	for (;;) {
		if (i == node)
			break;
		cnt += tree_remove(&i->nxt_t, node);
		cnt += tree_remove(&i->nxt_f, node);
		if (zombie(i))
			break;
		i = i->lvl_nxt;
		if (i == NULL || cnt != 0)
			return cnt;
	}
	if (i == *pt)
		*pt = i->lvl_prv != NULL ? i->lvl_prv : i->lvl_nxt;
	if (i->lvl_prv != NULL)
		i->lvl_prv->lvl_nxt = i->lvl_nxt;
	if (i->lvl_nxt != NULL)
		i->lvl_nxt->lvl_prv = i->lvl_prv;
	i->lvl_prv = NULL;
	i->lvl_nxt = NULL;
	return cnt + unref(&i);
}

/* 0 when every action at or below the level of @n is @action, else -EEXIST. */
static int actions_all(const struct node *n, uint32_t action)
{
	if (n == NULL)
		return 0;
	for (const struct node *i = level_start((struct node *)n); i != NULL; i = i->lvl_nxt) {
		if ((i->act_t_flg && i->act_t != action) || (i->act_f_flg && i->act_f != action))
			return -EEXIST;
		if (actions_all(i->nxt_t, action) < 0 || actions_all(i->nxt_f, action) < 0)
			return -EEXIST;
	}
	return 0;
}

/* --- pruning ---------------------------------------------------------------- */

enum {
	ST_MATCH = 0x1,
	ST_MATCH_ONCE = 0x2,
	ST_X_FINISHED = 0x10,
	ST_N_FINISHED = 0x20,
	ST_X_PREFIX = 0x100,
	ST_N_PREFIX = 0x200,
	ST_MATCHSET = ST_MATCH | ST_MATCH_ONCE,
	ST_REDUNDANT = ST_MATCH | ST_X_FINISHED | ST_N_PREFIX,
};

struct prune_state {
	unsigned flags;
	uint32_t action;
	struct libseccomp_tree *tree;
};

static unsigned prune(struct node **existing, struct node *n, struct prune_state *st);

/*
 * Prunes below *@x (its true or false branch) against @n with state
 * @flags; folds a match into @st_new.  Returns true when the level's walk
 * must stop (@stop_on_match and a match was found), and in *@gone whether
 * @x left the tree.
 */
static bool prune_down(struct node **x, bool use_x_t, struct node *n, unsigned flags,
		       bool stop_on_match, struct prune_state *st, struct prune_state *st_new,
		       unsigned *cnt, bool *gone)
{
	struct prune_state nxt = *st;
	nxt.flags = flags;
	ref(*x);
	if (use_x_t)
		*cnt += prune(&(*x)->nxt_t, n, &nxt);
	else
		*cnt += prune(&(*x)->nxt_f, n, &nxt);
	*cnt += unref(x);
	*gone = *x == NULL;
	if (nxt.flags & ST_MATCH) {
		st_new->flags |= nxt.flags;
		if (stop_on_match)
			return true;
	}
	return false;
}

/* Prunes at the new tree's next level against the same existing level. */
static bool prune_new_down(struct node **x, struct node *n, unsigned flags, struct prune_state *st,
			   struct prune_state *st_new, unsigned *cnt, bool *gone)
{
	struct prune_state nxt = *st;
	nxt.flags = flags;
	ref(*x);
	*cnt += prune(x, n, &nxt);
	*cnt += unref(x);
	*gone = *x == NULL;
	if (nxt.flags & ST_MATCH) {
		st_new->flags |= nxt.flags;
		return true;
	}
	return false;
}

/* The nodes match: finish, compare and descend on the new tree's branches. */
static int prune_equal(struct node **px, struct node *n, struct prune_state *st,
		       struct prune_state *st_new, unsigned *cnt)
{
	struct node *x = *px;
	bool gone = false;
	st_new->flags |= ST_MATCHSET;
	if (leaf(n))
		st_new->flags |= ST_N_FINISHED;
	if (leaf(x))
		st_new->flags |= ST_X_FINISHED;
	if ((x->act_t_flg || x->nxt_t) && !(n->act_t_flg || n->nxt_t))
		return 1;
	if ((x->act_f_flg || x->nxt_f) && !(n->act_f_flg || n->nxt_f))
		return 1;
	if ((st_new->flags & ST_N_FINISHED) && (st_new->flags & ST_X_FINISHED) &&
	    (n->act_t_flg != x->act_t_flg || n->act_t != x->act_t || n->act_f_flg != x->act_f_flg ||
	     n->act_f != x->act_f))
		return 1;
	if (n->nxt_t != NULL) {
		prune_down(px, true, n->nxt_t, st->flags | ST_MATCHSET, false, st, st_new, cnt,
			   &gone);
		if (gone)
			return 2;
	}
	if (n->nxt_f != NULL) {
		prune_down(px, false, n->nxt_f, st->flags | ST_MATCHSET, false, st, st_new, cnt,
			   &gone);
		if (gone)
			return 2;
	}
	x = *px;
	bool same = actions_all(x, st_new->action) == 0 && (st_new->flags & ST_MATCH);
	if (same && (st_new->flags & ST_N_FINISHED) && (st_new->flags & ST_X_PREFIX)) {
		/* the new rule is shorter: the existing branch goes */
		*cnt += tree_remove(&st->tree->chains, x);
		if (st->tree->chains == NULL)
			return 1;
	} else if (same && (st_new->flags & ST_X_FINISHED) && (st_new->flags & ST_N_PREFIX)) {
		return 1; /* the new rule is longer */
	}
	return 0;
}

/*
 * libseccomp's _db_tree_prune(): removes from *@existing the branches the
 * new chain @n makes redundant, and records in @st whether the new chain is
 * itself redundant.  Returns the number of nodes removed.
 */
static unsigned prune(struct node **existing, struct node *n, struct prune_state *st)
{
	unsigned cnt = 0;
	struct prune_state st_new = *st;
	struct node *x = *existing;
	bool gone;
	if (n == NULL || x == NULL)
		goto out;
	if ((st->flags & ST_MATCHSET) == ST_MATCH_ONCE)
		goto out;
	x = level_start(x);
	do {
		struct node *x_next = x->lvl_nxt;
		if (node_eq(x, n)) {
			int r = prune_equal(&x, n, st, &st_new, &cnt);
			if (r == 1)
				goto out;
		} else if (node_lt(x, n)) {
			if (st->flags & ST_N_PREFIX)
				goto out;
			unsigned flags = (st->flags & ~(unsigned)ST_MATCH) | ST_X_PREFIX;
			if (x->nxt_t != NULL) {
				if (prune_down(&x, true, n, flags, true, st, &st_new, &cnt, &gone))
					goto out;
				if (gone)
					goto next;
			}
			if (x->nxt_f != NULL) {
				if (prune_down(&x, false, n, flags, true, st, &st_new, &cnt, &gone))
					goto out;
				if (gone)
					goto next;
			}
		} else {
			if (st->flags & ST_X_PREFIX)
				goto out;
			unsigned flags = (st->flags & ~(unsigned)ST_MATCH) | ST_N_PREFIX;
			if (n->nxt_t != NULL) {
				if (prune_new_down(&x, n->nxt_t, flags, st, &st_new, &cnt, &gone))
					goto out;
				if (gone)
					goto next;
			}
			if (n->nxt_f != NULL) {
				if (prune_new_down(&x, n->nxt_f, flags, st, &st_new, &cnt, &gone))
					goto out;
				if (gone)
					goto next;
			}
		}
	next:
		x = x_next;
	} while (x != NULL);
	st_new.flags &= ~(unsigned)ST_MATCH;
out:
	if (st_new.flags & ST_MATCH)
		st->flags |= st_new.flags;
	else
		st->flags &= ~(unsigned)ST_MATCH;
	return cnt;
}

/* --- adding ------------------------------------------------------------------ */

/* One branch (true or false) of matching nodes @x and @n: action, then next level. */
static int add_action(struct node *x, const struct node *n, bool t)
{
	bool n_flg = t ? n->act_t_flg : n->act_f_flg;
	if (!n_flg)
		return 0;
	uint32_t n_act = t ? n->act_t : n->act_f;
	bool *x_flg = t ? &x->act_t_flg : &x->act_f_flg;
	uint32_t *x_act = t ? &x->act_t : &x->act_f;
	struct node **x_nxt = t ? &x->nxt_t : &x->nxt_f;
	if (!*x_flg) {
		int rc = actions_all(*x_nxt, n_act);
		if (rc != 0)
			return rc;
		unref(x_nxt);
		*x_nxt = NULL;
		*x_act = n_act;
		*x_flg = true;
	} else if (n_act != *x_act) {
		/* libseccomp moves the true action on a 64-bit high word whose
		 * datum is beyond the existing one, on either branch */
		if (n->hi && (t ? n->datum_full > x->datum_full : n->datum_full < x->datum_full))
			x->act_t = n->act_t;
		if (leaf(x) || leaf(n))
			return -EEXIST;
	}
	return 0;
}

static int tree_add(struct node **existing, struct node *n);

static int add_next(struct node *x, struct node *n, bool t, bool *done)
{
	struct node *n_nxt = t ? n->nxt_t : n->nxt_f;
	struct node **x_nxt = t ? &x->nxt_t : &x->nxt_f;
	bool x_flg = t ? x->act_t_flg : x->act_f_flg;
	if (n_nxt == NULL)
		return 0;
	if (*x_nxt != NULL)
		return tree_add(x_nxt, n_nxt);
	if (!x_flg)
		*x_nxt = ref(n_nxt);
	else
		*done = true; /* the existing rule is shorter */
	return 0;
}

/*
 * libseccomp's _db_tree_add(): merges the chain @n into the level at *@existing.
 * A node of the new chain can be reached twice (a range's high-word and
 * low-word tests both lead to the next argument's chain); when the first
 * visit left it among the siblings of a level and the second would link it
 * into a level again, libseccomp relinks it where it stands and its level
 * loops on itself: libseccomp 2.5.4 then never returns from
 * seccomp_rule_add().  The model refuses such a rule instead (-ELOOP).
 */
static int tree_add(struct node **existing, struct node *n)
{
	struct node *x = *existing;
	bool placed = n->lvl_prv != NULL || n->lvl_nxt != NULL;
	do {
		if (node_eq(x, n)) {
			int rc = add_action(x, n, true);
			if (rc == 0)
				rc = add_action(x, n, false);
			if (rc != 0)
				return rc;
			bool done = false;
			rc = add_next(x, n, true, &done);
			if (rc != 0 || done)
				return rc;
			return add_next(x, n, false, &done);
		}
		if (!node_lt(x, n)) {
			if (x->lvl_nxt == NULL) {
				if (placed)
					return -ELOOP;
				n->lvl_prv = ref(x);
				x->lvl_nxt = ref(n);
				return 0;
			}
			x = x->lvl_nxt;
			continue;
		}
		if (placed)
			return -ELOOP;
		if (x->lvl_prv != NULL) {
			x->lvl_prv->lvl_nxt = ref(n);
			n->lvl_prv = x->lvl_prv;
			x->lvl_prv = ref(n);
			n->lvl_nxt = x;
		} else {
			x->lvl_prv = ref(n);
			n->lvl_nxt = ref(x);
		}
		if (*existing == x) {
			*existing = ref(n);
			unref(&x);
		}
		return 0;
	} while (x != NULL);
	return 0;
}

/* --- a rule as a chain of nodes ---------------------------------------------- */

struct chain {
	struct node *head;
	struct node *prev[4]; /* the nodes the next comparison hangs from */
	bool tf;	      /* ... on their true (or false) branch */
};

static void chain_link(struct chain *c, struct node *first)
{
	for (unsigned i = 0; i < 4 && c->prev[i] != NULL; i++) {
		if (c->tf)
			c->prev[i]->nxt_t = ref(first);
		else
			c->prev[i]->nxt_f = ref(first);
	}
	memset(c->prev, 0, sizeof(c->prev));
	if (c->head == NULL)
		c->head = ref(first);
}

static void node_set(struct node *n, const struct libseccomp_cmp *cmp, bool hi, uint64_t mask,
		     uint64_t datum)
{
	n->arg = cmp->arg;
	n->hi = hi;
	n->mask = (uint32_t)mask;
	n->datum = (uint32_t)datum & n->mask;
	n->datum_full = datum;
	n->op_orig = cmp->op;
}

static int gen_64(struct libseccomp_tree *t, struct chain *c, const struct libseccomp_cmp *cmp)
{
	bool masked = cmp->op == LIBSECCOMP_MASKED_EQ;
	uint64_t mask = masked ? cmp->a : ~0ULL, datum = masked ? cmp->b : cmp->a;
	if (masked && mask == 0)
		return 0; /* a test of nothing */
	bool range = !(cmp->op == LIBSECCOMP_EQ || masked || cmp->op == LIBSECCOMP_NE);
	struct node *n[3] = {node_new(t), node_new(t), range ? node_new(t) : NULL};
	if (n[0] == NULL || n[1] == NULL || (range && n[2] == NULL))
		return -ENOMEM;
	chain_link(c, n[0]);
	node_set(n[0], cmp, true, mask >> 32, datum >> 32);
	node_set(n[1], cmp, range, range ? mask >> 32 : mask, range ? datum >> 32 : datum);
	n[0]->datum_full = n[1]->datum_full = datum;
	if (range) {
		node_set(n[2], cmp, false, mask, datum);
		n[0]->op = LIBSECCOMP_GT;
		n[1]->op = LIBSECCOMP_EQ;
		n[2]->op = cmp->op == LIBSECCOMP_GT || cmp->op == LIBSECCOMP_LE ? LIBSECCOMP_GT
										: LIBSECCOMP_GE;
		n[0]->nxt_f = ref(n[1]);
		n[1]->nxt_t = ref(n[2]);
	} else {
		n[0]->op = n[1]->op = masked ? LIBSECCOMP_MASKED_EQ : LIBSECCOMP_EQ;
		n[0]->nxt_t = ref(n[1]);
	}
	switch (cmp->op) {
	case LIBSECCOMP_GT:
	case LIBSECCOMP_GE:
		c->prev[0] = n[0];
		c->prev[1] = n[2];
		c->tf = true;
		break;
	case LIBSECCOMP_EQ:
	case LIBSECCOMP_MASKED_EQ:
		c->prev[0] = n[1];
		c->tf = true;
		break;
	case LIBSECCOMP_LE:
	case LIBSECCOMP_LT:
		c->prev[0] = n[1];
		c->prev[1] = n[2];
		c->tf = false;
		break;
	case LIBSECCOMP_NE:
		c->prev[0] = n[0];
		c->prev[1] = n[1];
		c->tf = false;
		break;
	}
	return 0;
}

static int gen_32(struct libseccomp_tree *t, struct chain *c, const struct libseccomp_cmp *cmp)
{
	bool masked = cmp->op == LIBSECCOMP_MASKED_EQ;
	uint64_t mask = masked ? cmp->a : ~0ULL, datum = masked ? cmp->b : cmp->a;
	if (masked && (uint32_t)mask == 0)
		return 0;
	struct node *n = node_new(t);
	if (n == NULL)
		return -ENOMEM;
	node_set(n, cmp, false, mask, datum);
	n->op = cmp->op;
	chain_link(c, n);
	c->prev[0] = n;
	switch (cmp->op) {
	case LIBSECCOMP_NE:
		n->op = LIBSECCOMP_EQ;
		c->tf = false;
		break;
	case LIBSECCOMP_LT:
		n->op = LIBSECCOMP_GE;
		c->tf = false;
		break;
	case LIBSECCOMP_LE:
		n->op = LIBSECCOMP_GT;
		c->tf = false;
		break;
	case LIBSECCOMP_EQ:
	case LIBSECCOMP_GE:
	case LIBSECCOMP_GT:
	case LIBSECCOMP_MASKED_EQ:
		c->tf = true;
		break;
	}
	return 0;
}

/* The chain of @rule (NULL head: no comparison, an unconditional rule). */
static int chain_gen(struct libseccomp_tree *t, const struct libseccomp_rule *rule, struct chain *c)
{
	memset(c, 0, sizeof(*c));
	const struct libseccomp_cmp *by_arg[6] = {NULL};
	for (unsigned i = 0; i < rule->ncmp && i < 6; i++)
		if (rule->cmp[i].arg < 6 && by_arg[rule->cmp[i].arg] == NULL)
			by_arg[rule->cmp[i].arg] = &rule->cmp[i];
	for (unsigned a = 0; a < 6; a++) {
		if (by_arg[a] == NULL)
			continue;
		int rc = t->bits == 32 ? gen_32(t, c, by_arg[a]) : gen_64(t, c, by_arg[a]);
		if (rc < 0)
			return rc;
	}
	for (unsigned i = 0; c->head != NULL && i < 4 && c->prev[i] != NULL; i++) {
		if (c->tf) {
			c->prev[i]->act_t_flg = true;
			c->prev[i]->act_t = rule->action;
		} else {
			c->prev[i]->act_f_flg = true;
			c->prev[i]->act_f = rule->action;
		}
	}
	return 0;
}

/* libseccomp's db_rule_add() for one syscall. */
int libseccomp_tree_add(struct libseccomp_tree *tree, const struct libseccomp_rule *rule)
{
	struct chain c;
	int rc = chain_gen(tree, rule, &c);
	if (rc < 0)
		return rc;
	if (!tree->present) {
		tree->present = true;
		tree->chains = c.head;
		tree->action = rule->action;
		return 0;
	}
	bool removed = false;
	for (;;) {
		if (tree->chains == NULL) {
			/* an unconditional rule stays, unless pruning emptied the tree */
			if (removed)
				tree->chains = c.head;
			return 0;
		}
		if (c.head == NULL) {
			tree_unref(&tree->chains);
			tree->chains = NULL;
			tree->action = rule->action;
			return 0;
		}
		struct prune_state st = {.flags = 0, .action = rule->action, .tree = tree};
		unsigned cnt = prune(&tree->chains, c.head, &st);
		if (cnt > 0) {
			removed = true;
			if (tree->chains == NULL)
				continue;
		} else if ((st.flags & ST_REDUNDANT) == ST_REDUNDANT) {
			return 0;
		}
		rc = tree_add(&tree->chains, c.head);
		if (rc < 0)
			return rc;
		tree_unref(&c.head);
		return 0;
	}
}

/* --- the filter libseccomp generates from the tree, as first-match rules ----- */

/*
 * libseccomp's BPF walks a level's nodes in order.  A node's test sends the
 * call down its branch: into the next level (walked from its first node),
 * or to the branch's action; a branch with neither goes on with the node's
 * next sibling, and so does a level below it that the call falls out of.
 * A call that falls out of the top level gets the filter's default.
 * As first-match rules, each branch that ends in an action is one rule
 * whose condition is the path of tests leading to it: rules of a node's
 * branches come before those of its next sibling, so a call that matches
 * none of them goes on to the sibling's, as the BPF does.
 */
struct walk {
	struct libseccomp_word_test path[LIBSECCOMP_MAX_PATH];
	size_t depth;
	size_t budget; /* rules still allowed */
	libseccomp_emit_fn emit;
	void *ctx;
};

static int walk_level(struct walk *w, const struct node *level);

static int walk_branch(struct walk *w, const struct node *n, bool holds)
{
	const struct node *next = holds ? n->nxt_t : n->nxt_f;
	bool has_action = holds ? n->act_t_flg : n->act_f_flg;
	if (next == NULL && !has_action)
		return 0;
	if (w->depth == LIBSECCOMP_MAX_PATH)
		return -E2BIG;
	w->path[w->depth++] = (struct libseccomp_word_test){
		.arg = n->arg, .hi = n->hi, .op = n->op == LIBSECCOMP_MASKED_EQ ? LIBSECCOMP_EQ : n->op,
		.mask = n->mask, .datum = n->datum, .holds = holds };
	int rc;
	if (next != NULL)
		rc = walk_level(w, next);
	else if (w->budget == 0)
		rc = -E2BIG;
	else {
		w->budget--;
		rc = w->emit(w->ctx, w->path, w->depth, holds ? n->act_t : n->act_f);
	}
	w->depth--;
	return rc;
}

static int walk_level(struct walk *w, const struct node *level)
{
	for (const struct node *n = level_start((struct node *)level); n != NULL; n = n->lvl_nxt) {
		int rc = walk_branch(w, n, true);
		if (rc == 0)
			rc = walk_branch(w, n, false);
		if (rc != 0)
			return rc;
	}
	return 0;
}

int libseccomp_tree_rules(const struct libseccomp_tree *tree, size_t max_rules,
			  libseccomp_emit_fn emit, void *ctx)
{
	if (!tree->present)
		return 0;
	if (tree->chains == NULL)
		return max_rules == 0 ? -E2BIG : emit(ctx, NULL, 0, tree->action);
	struct walk w = { .depth = 0, .budget = max_rules, .emit = emit, .ctx = ctx };
	return walk_level(&w, tree->chains);
}
