/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The library's one hash map: open addressing with linear probing over
 * (key, value) pairs of 64-bit words (any key, a value below HASHMAP_EMPTY), kept at most 3/4 full, with
 * backward-shift removal so that no tombstones slow later probes.
 *
 * Two ways to use it:
 *
 *  - Integer keys (a syscall number, a pair of 32-bit words packed in one):
 *    hashmap_get() and hashmap_set(); the map mixes the key itself.
 *
 *  - Keys the map cannot compare (strings, comparison lists, expressions):
 *    the caller keeps the items in an array, hashes each with the helpers
 *    below, and stores (hash, index).  Several items may share a hash, so a
 *    lookup walks the candidates and compares them itself:
 *
 *        size_t pos = HASHMAP_START;
 *        uint64_t i;
 *        while (hashmap_next(&m, hash, &pos, &i))
 *                if (item_equal(&items[i], key))
 *                        return &items[i];
 *        ...
 *        if (hashmap_add(&m, hash, n) < 0)
 *                return -ENOMEM;
 *
 * A key's first slot is the top bits of the key times 2^64 / phi (Fibonacci
 * hashing): one multiplication that spreads neighbouring integers apart.
 * Lookups are inline, as the recorder's hot path is one.
 *
 * An allocation failure leaves the map as it was.  A zeroed map
 * (HASHMAP_INIT) is empty and allocates on the first insertion.
 */
#ifndef SCG_LIB_UTIL_HASHMAP_H
#define SCG_LIB_UTIL_HASHMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Values are below HASHMAP_EMPTY, which marks a free slot. */
#define HASHMAP_EMPTY UINT64_MAX

struct hashmap_slot {
	uint64_t key;
	uint64_t value;
};

struct hashmap {
	struct hashmap_slot *slots;
	size_t cap; /* 0 or a power of two, 2^(64 - shift) */
	size_t len;
	unsigned shift;
};

#define HASHMAP_INIT { NULL, 0, 0, 0 }
#define HASHMAP_START ((size_t)0)

/* A 64-bit finalizer (splitmix64's): every input bit reaches every output bit. */
static inline uint64_t hash_u64(uint64_t x)
{
	x ^= x >> 30;
	x *= UINT64_C(0xbf58476d1ce4e5b9);
	x ^= x >> 27;
	x *= UINT64_C(0x94d049bb133111eb);
	x ^= x >> 31;
	return x;
}

/* Folds @v into the running hash @h: for keys made of several words. */
static inline uint64_t hash_combine(uint64_t h, uint64_t v)
{
	return hash_u64(h ^ (v + UINT64_C(0x9e3779b97f4a7c15) + (h << 6) + (h >> 2)));
}

/* The hash of @n bytes at @p (FNV-1a, then finalized), and of a NUL-terminated string. */
uint64_t hash_bytes(const void *p, size_t n);
uint64_t hash_str(const char *s);

/* Makes room for @n entries in all, so that inserting up to them cannot fail.  0 or -ENOMEM. */
int hashmap_reserve(struct hashmap *m, size_t n);

/* Adds (@key, @value), even when @key is there already.  0, -ENOMEM, or -EINVAL for HASHMAP_EMPTY. */
int hashmap_add(struct hashmap *m, uint64_t key, uint64_t value);

static inline size_t hashmap_home(const struct hashmap *m, uint64_t key)
{
	return (size_t)((key * UINT64_C(0x9e3779b97f4a7c15)) >> m->shift);
}

/*
 * The next entry of @key after probe position *@pos (HASHMAP_START at first):
 * true with its value in *@value, false when there is none left.  Adding to
 * or removing from the map ends the walk.
 */
static inline bool hashmap_next(const struct hashmap *m, uint64_t key, size_t *pos,
				uint64_t *value)
{
	if (!m->cap)
		return false;
	/* *pos counts the slots already probed, so HASHMAP_START needs no hash. */
	for (size_t s = (hashmap_home(m, key) + *pos) & (m->cap - 1);
	     *pos < m->cap && m->slots[s].value != HASHMAP_EMPTY; s = (s + 1) & (m->cap - 1)) {
		++*pos;
		if (m->slots[s].key == key) {
			*value = m->slots[s].value;
			return true;
		}
	}
	return false;
}

/* For maps with one entry per key: the value of @key into *@value (may be NULL), or false. */
static inline bool hashmap_get(const struct hashmap *m, uint64_t key, uint64_t *value)
{
	if (!m->cap)
		return false;
	for (size_t s = hashmap_home(m, key); m->slots[s].value != HASHMAP_EMPTY; s = (s + 1) & (m->cap - 1))
		if (m->slots[s].key == key) {
			if (value)
				*value = m->slots[s].value;
			return true;
		}
	return false;
}

/* Sets @key's value, adding the key when it is new.  As hashmap_add(). */
int hashmap_set(struct hashmap *m, uint64_t key, uint64_t value);
/* Removes the first entry of @key; true when there was one. */
bool hashmap_remove(struct hashmap *m, uint64_t key);

/* Empties the map and keeps its memory, or frees it. */
void hashmap_clear(struct hashmap *m);
void hashmap_release(struct hashmap *m);

#endif
