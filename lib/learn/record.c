/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The recording: one entry per (ABI, syscall number), kept sorted, with a
 * hash index on top.  The supervisor records every syscall the program
 * makes, so the hot path (an existing entry, no argument values) is one
 * hash probe and an increment.  New entries are rare (a program uses a few
 * hundred syscalls at most), so they are inserted in order and the index is
 * rebuilt.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "learn/internal.h"
#include "util/grow.h"
#include "util/hashmap.h"

struct learn_entry {
	uint32_t arch;   /* index in scg_arch_at() order */
	uint32_t nr;
	uint64_t calls;
	uint8_t tracked; /* arguments whose values are still collected */
	uint8_t narrow;  /* arguments compared as 32 bits */
	uint8_t general; /* arguments past SCG_LEARN_MAX_VALUES values: bits and max */
	uint8_t conditional; /* arguments read only when argument ruler has one of ruler_bits */
	uint8_t ruler;
	uint8_t family; /* arguments whose values stand for a family (learn_value_family()) */
	uint64_t ruler_bits;
	uint8_t nvalues[6];
	uint64_t values[6][SCG_LEARN_MAX_VALUES]; /* sorted */
	uint64_t bits[6], max[6]; /* of every value, for the arguments in general */
	/* The syscall's paired arguments (learn_paired_args()), and whether
	 * pairs[] still holds the pair of every call. */
	bool paired, pairs_kept;
	uint8_t pair_ruler, pair_dependent;
	uint8_t npairs;
	uint64_t pairs[SCG_LEARN_MAX_PAIRS][2]; /* sorted */
};

/* The last few (seccomp_data.arch, x32 bit) pairs seen, to skip the ABI lookup. */
struct arch_memo {
	uint32_t audit;
	uint32_t x32;
	uint32_t index;
	bool used;
};

struct scg_learn {
	unsigned flags;
	struct learn_entry *entries;
	size_t count, cap;
	struct hashmap index; /* (arch, nr) -> entry */
	struct arch_memo memo[4];
	uint64_t total;
};

struct scg_learn *scg_learn_new(unsigned flags)
{
	struct scg_learn *l = calloc(1, sizeof(*l));
	if (l)
		l->flags = flags;
	return l;
}

void scg_learn_free(struct scg_learn *learn)
{
	if (!learn)
		return;
	free(learn->entries);
	hashmap_release(&learn->index);
	free(learn);
}

static uint64_t key_of(uint32_t arch, uint32_t nr)
{
	return (uint64_t)arch << 32 | nr;
}

/* Refills the index, with room for @extra more entries first: past that, no allocation. */
static int rebuild_index_for(struct scg_learn *l, size_t extra)
{
	if (hashmap_reserve(&l->index, l->count + extra + 1) < 0)
		return -ENOMEM;
	hashmap_clear(&l->index);
	for (size_t i = 0; i < l->count; i++)
		(void)hashmap_set(&l->index, key_of(l->entries[i].arch, l->entries[i].nr), i);
	return 0;
}

static int rebuild_index(struct scg_learn *l)
{
	return rebuild_index_for(l, 0);
}

int learn_reserve(struct scg_learn *learn, size_t extra)
{
	if (extra > SIZE_MAX - learn->count ||
	    GROW_ARRAY(&learn->entries, &learn->cap, learn->count + extra, 64))
		return -ENOMEM;
	return rebuild_index_for(learn, extra);
}

static struct learn_entry *find(const struct scg_learn *l, uint32_t arch, uint32_t nr)
{
	uint64_t i;
	return hashmap_get(&l->index, key_of(arch, nr), &i) ? &l->entries[i] : NULL;
}

static void init_entry(const struct scg_learn *l, struct learn_entry *e, uint32_t arch,
		       uint32_t nr)
{
	memset(e, 0, sizeof(*e));
	e->arch = arch;
	e->nr = nr;
	const struct scg_arch *a = scg_arch_at(arch);
	const char *name = scg_syscall_name(a, nr);
	unsigned narrow = 0, scalar = name ? learn_scalar_args(a, name, l->flags, &narrow) : 0;
	/* Widths are needed even without SCG_LEARN_ARGS: merged values are masked too. */
	e->narrow = (uint8_t)narrow;
	if (l->flags & SCG_LEARN_ARGS)
		e->tracked = (uint8_t)scalar;
	unsigned ruler = 0;
	uint64_t bits = 0;
	e->conditional = name ? (uint8_t)(learn_conditional_args(a, name, &ruler, &bits) & scalar) : 0;
	e->ruler = (uint8_t)ruler;
	e->ruler_bits = bits;
	e->family = name ? (uint8_t)(learn_family_args(name) & scalar) : 0;
	unsigned pr = 0, pd = 0;
	e->paired = name && learn_paired_args(a, name, &pr, &pd);
	e->pairs_kept = e->paired;
	e->pair_ruler = (uint8_t)pr;
	e->pair_dependent = (uint8_t)pd;
}

/* Both paired arguments are restricted: only then do the pairs mean anything. */
static bool pairs_matter(const struct learn_entry *e)
{
	unsigned both = 1U << e->pair_ruler | 1U << e->pair_dependent;
	return e->paired && ((e->tracked | e->general) & both) == both;
}

/*
 * Adds the pair (@ruler, @dependent) to the sorted pairs; past
 * SCG_LEARN_MAX_PAIRS the pairs are given up on, and each argument's own
 * values are all that is left.
 */
static void add_pair(struct learn_entry *e, uint64_t ruler, uint64_t dependent)
{
	if (!e->pairs_kept)
		return;
	if (e->narrow & (1U << e->pair_ruler))
		ruler &= 0xffffffffULL;
	if (e->narrow & (1U << e->pair_dependent))
		dependent &= 0xffffffffULL;
	size_t n = e->npairs, pos = 0;
	while (pos < n && (e->pairs[pos][0] < ruler ||
			   (e->pairs[pos][0] == ruler && e->pairs[pos][1] < dependent)))
		pos++;
	if (pos < n && e->pairs[pos][0] == ruler && e->pairs[pos][1] == dependent)
		return;
	if (n == SCG_LEARN_MAX_PAIRS) {
		e->pairs_kept = false;
		e->npairs = 0;
		return;
	}
	memmove(&e->pairs[pos + 1], &e->pairs[pos], (n - pos) * sizeof(e->pairs[0]));
	e->pairs[pos][0] = ruler;
	e->pairs[pos][1] = dependent;
	e->npairs = (uint8_t)(n + 1);
}

/*
 * A call that leaves the conditional arguments unread (open without
 * O_CREAT): their registers hold leftovers, so they stop being restricted.
 */
static void drop_unread_args(struct learn_entry *e, const uint64_t args[6])
{
	if (!e->conditional || (args[e->ruler] & e->ruler_bits))
		return;
	e->tracked &= (uint8_t)~e->conditional;
	e->general &= (uint8_t)~e->conditional;
	for (unsigned i = 0; i < 6; i++)
		if (e->conditional & (1U << i))
			e->nvalues[i] = 0;
	e->conditional = 0;
}

/* The entry for (@arch, @nr), created (in order) when missing.  NULL: no memory. */
static struct learn_entry *find_or_add(struct scg_learn *l, uint32_t arch, uint32_t nr)
{
	struct learn_entry *e = find(l, arch, nr);
	if (e)
		return e;
	if (GROW_ARRAY(&l->entries, &l->cap, l->count + 1, 64))
		return NULL;
	size_t pos = l->count;
	while (pos > 0 && (l->entries[pos - 1].arch > arch ||
			   (l->entries[pos - 1].arch == arch && l->entries[pos - 1].nr > nr)))
		pos--;
	memmove(&l->entries[pos + 1], &l->entries[pos], (l->count - pos) * sizeof(*e));
	init_entry(l, &l->entries[pos], arch, nr);
	l->count++;
	if (rebuild_index(l) < 0) {
		/* Undo, so a failure leaves the recording as it was. */
		l->count--;
		memmove(&l->entries[pos], &l->entries[pos + 1], (l->count - pos) * sizeof(*e));
		return NULL;
	}
	return &l->entries[pos];
}

/* Folds @value into the summary of argument @arg, whose list was given up on. */
static void add_general(struct learn_entry *e, unsigned arg, uint64_t value)
{
	if (e->narrow & (1U << arg))
		value &= 0xffffffffULL;
	e->bits[arg] |= value;
	if (value > e->max[arg])
		e->max[arg] = value;
}

/*
 * Adds @value to argument @arg's sorted set; past the cap the list is given
 * up on for a summary of the values (the bits set in any, the largest).
 */
static void add_value(struct learn_entry *e, unsigned arg, uint64_t value)
{
	if (e->narrow & (1U << arg))
		value &= 0xffffffffULL;
	uint8_t n = e->nvalues[arg];
	uint64_t *v = e->values[arg];
	size_t pos = 0;
	while (pos < n && v[pos] < value)
		pos++;
	if (pos < n && v[pos] == value)
		return;
	if (n == SCG_LEARN_MAX_VALUES) {
		e->tracked &= (uint8_t) ~(1U << arg);
		e->general |= (uint8_t)(1U << arg);
		e->bits[arg] = 0;
		e->max[arg] = 0;
		for (size_t k = 0; k < n; k++)
			add_general(e, arg, v[k]);
		add_general(e, arg, value);
		e->nvalues[arg] = 0;
		return;
	}
	memmove(&v[pos + 1], &v[pos], (n - pos) * sizeof(*v));
	v[pos] = value;
	e->nvalues[arg] = (uint8_t)(n + 1);
}

static int arch_index(struct scg_learn *l, uint32_t audit, uint32_t nr, uint32_t *out)
{
	uint32_t x32 = nr & SCG_X32_SYSCALL_BIT;
	for (size_t i = 0; i < sizeof(l->memo) / sizeof(l->memo[0]); i++) {
		const struct arch_memo *m = &l->memo[i];
		if (m->used && m->audit == audit && m->x32 == x32) {
			*out = m->index;
			return 0;
		}
	}
	const struct scg_arch *arch = scg_arch_from_audit(audit, nr);
	for (uint32_t i = 0; arch && i < scg_arch_count(); i++) {
		if (scg_arch_at(i) != arch)
			continue;
		if (nr == UINT32_MAX) {
			*out = i; /* -1 has bit 30 set but is no x32 call: keep it out of the memo */
			return 0;
		}
		/* Remember it in the first free slot, or overwrite the last one. */
		size_t slot = 0;
		while (slot + 1 < sizeof(l->memo) / sizeof(l->memo[0]) && l->memo[slot].used)
			slot++;
		l->memo[slot] = (struct arch_memo){ audit, x32, i, true };
		*out = i;
		return 0;
	}
	return -EAFNOSUPPORT;
}

/* Folds @value, and the family it stands for, into argument @arg's list or summary. */
static void add_seen(struct learn_entry *e, unsigned arg, uint64_t value)
{
	uint64_t family[LEARN_FAMILY_MAX] = { 0 };
	size_t n = 0;
	if (e->narrow & (1U << arg))
		value &= 0xffffffffULL; /* the kernel's view, before the family is looked up */
	if (e->family & (1U << arg))
		n = learn_value_family(scg_syscall_name(scg_arch_at(e->arch), e->nr), arg, value,
				       family);
	for (size_t k = 0; k <= n; k++) {
		uint64_t v = k < n ? family[k] : value;
		if (e->tracked & (1U << arg))
			add_value(e, arg, v);
		else if (e->general & (1U << arg))
			add_general(e, arg, v);
	}
}

int scg_learn_record(struct scg_learn *learn, const struct scg_seccomp_data *data)
{
	uint32_t arch;
	int r = arch_index(learn, data->arch, data->nr, &arch);
	if (r < 0)
		return r;
	struct learn_entry *e = find_or_add(learn, arch, data->nr);
	if (!e)
		return -ENOMEM;
	e->calls++;
	learn->total++;
	drop_unread_args(e, data->args);
	for (unsigned i = 0; (e->tracked | e->general) && i < 6; i++)
		add_seen(e, i, data->args[i]);
	if (pairs_matter(e))
		add_pair(e, data->args[e->pair_ruler], data->args[e->pair_dependent]);
	return 0;
}

static int arch_position(const struct scg_arch *arch, uint32_t *out)
{
	for (uint32_t i = 0; i < scg_arch_count(); i++) {
		if (scg_arch_at(i) == arch) {
			*out = i;
			return 0;
		}
	}
	return -EINVAL;
}

int scg_learn_add_calls(struct scg_learn *learn, const struct scg_arch *arch, uint32_t nr,
			uint64_t calls)
{
	uint32_t a;
	if (arch_position(arch, &a) < 0)
		return -EINVAL;
	struct learn_entry *e = find_or_add(learn, a, nr);
	if (!e)
		return -ENOMEM;
	e->calls += calls;
	learn->total += calls;
	e->tracked = 0;
	e->general = 0;
	memset(e->nvalues, 0, sizeof(e->nvalues));
	e->npairs = 0;
	return 0;
}

/* @pairs names the pair of @nr on @arch (either way round) and fits in a recording. */
static bool pairs_fit(const struct scg_arch *arch, uint32_t nr, const struct scg_learn_pairs *p)
{
	const char *name = scg_syscall_name(arch, nr);
	unsigned ruler, dependent;
	if (!name || !learn_paired_args(arch, name, &ruler, &dependent))
		return false;
	bool named = (p->ruler == ruler && p->dependent == dependent) ||
		     (p->ruler == dependent && p->dependent == ruler);
	return named && (!p->kept || (p->count <= SCG_LEARN_MAX_PAIRS && (p->values || !p->count)));
}

/*
 * Adds the pairs of calls that took @pairs (NULL: any combination of the
 * values listed for the two arguments) to @e, whose lists have the calls.
 */
static void add_pairs(struct learn_entry *e, const struct scg_learn_pairs *pairs, unsigned listed,
		      const size_t nvalues[6], const uint64_t *const values[6])
{
	if (!pairs_matter(e))
		return;
	if (pairs && !pairs->kept) {
		e->pairs_kept = false;
		e->npairs = 0;
		return;
	}
	if (pairs) {
		bool swapped = pairs->ruler != e->pair_ruler;
		for (size_t k = 0; k < pairs->count; k++) {
			uint64_t r = pairs->values[k][swapped], d = pairs->values[k][!swapped];
			add_seen(e, e->pair_ruler, r);
			add_seen(e, e->pair_dependent, d);
			add_pair(e, r, d);
		}
		return;
	}
	unsigned ri = e->pair_ruler, di = e->pair_dependent;
	if (!(listed & (1U << ri)) || !(listed & (1U << di)))
		return; /* not reached: pairs_matter() needs both listed */
	for (size_t i = 0; i < nvalues[ri] && e->pairs_kept; i++)
		for (size_t k = 0; k < nvalues[di] && e->pairs_kept; k++)
			add_pair(e, values[ri][i], values[di][k]);
}

int scg_learn_add_values(struct scg_learn *learn, const struct scg_arch *arch, uint32_t nr,
			 uint64_t calls, unsigned listed, const size_t nvalues[6],
			 const uint64_t *const values[6])
{
	return scg_learn_add_paired(learn, arch, nr, calls, listed, nvalues, values, NULL);
}

int scg_learn_add_paired(struct scg_learn *learn, const struct scg_arch *arch, uint32_t nr,
			 uint64_t calls, unsigned listed, const size_t nvalues[6],
			 const uint64_t *const values[6], const struct scg_learn_pairs *pairs)
{
	uint32_t a;
	if (arch_position(arch, &a) < 0 || (pairs && !pairs_fit(arch, nr, pairs)))
		return -EINVAL;
	bool fresh = find(learn, a, nr) == NULL;
	struct learn_entry *e = find_or_add(learn, a, nr);
	if (!e)
		return -ENOMEM;
	unsigned restricted = 0;
	for (unsigned i = 0; i < 6; i++)
		restricted |= nvalues[i] ? listed & (1U << i) : 0;
	/* kept pairs restrict their two arguments, and bring their values with them */
	if (pairs && pairs->kept && pairs->count)
		restricted |= 1U << pairs->ruler | 1U << pairs->dependent;
	if (fresh) /* what the other recording restricted, this one now tracks */
		e->tracked = (uint8_t)restricted;
	else
		e->tracked &= (uint8_t)restricted;
	/* An argument summarised here and listed there stays summarised, widened. */
	e->general &= (uint8_t)restricted;
	for (unsigned i = 0; i < 6; i++) {
		if (!(e->tracked & (1U << i)))
			e->nvalues[i] = 0;
		for (size_t k = 0; k < nvalues[i] && ((e->tracked | e->general) & (1U << i)); k++)
			add_seen(e, i, values[i][k]);
	}
	add_pairs(e, pairs, listed, nvalues, values);
	e->calls += calls;
	learn->total += calls;
	return 0;
}

int scg_learn_pairs_at(const struct scg_learn *learn, size_t index, struct scg_learn_pairs *out)
{
	if (index >= learn->count || !pairs_matter(&learn->entries[index]))
		return -ENOENT;
	const struct learn_entry *e = &learn->entries[index];
	*out = (struct scg_learn_pairs){ .ruler = e->pair_ruler,
					 .dependent = e->pair_dependent,
					 .kept = e->pairs_kept,
					 .count = e->pairs_kept ? e->npairs : 0,
					 .values = e->pairs };
	return 0;
}

size_t scg_learn_count(const struct scg_learn *learn)
{
	return learn->count;
}

uint64_t scg_learn_total(const struct scg_learn *learn)
{
	return learn->total;
}

int scg_learn_entry_at(const struct scg_learn *learn, size_t index, struct scg_learn_entry *out)
{
	if (index >= learn->count)
		return -ENOENT;
	const struct learn_entry *e = &learn->entries[index];
	memset(out, 0, sizeof(*out));
	out->arch = scg_arch_at(e->arch);
	out->nr = e->nr;
	out->name = scg_syscall_name(out->arch, e->nr);
	out->calls = e->calls;
	out->listed = e->tracked;
	out->general = e->general;
	for (unsigned i = 0; i < 6; i++) {
		if (e->general & (1U << i)) {
			out->bits[i] = e->bits[i];
			out->max[i] = e->max[i];
		}
		if (e->tracked & (1U << i)) {
			out->nvalues[i] = e->nvalues[i];
			out->values[i] = e->values[i];
		}
	}
	return 0;
}
