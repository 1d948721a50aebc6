/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "hashmap.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

uint64_t hash_bytes(const void *p, size_t n)
{
	const unsigned char *b = p;
	uint64_t h = UINT64_C(0xcbf29ce484222325);
	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * UINT64_C(0x100000001b3);
	return hash_u64(h);
}

uint64_t hash_str(const char *s)
{
	return hash_bytes(s, strlen(s));
}

static void place(struct hashmap *m, uint64_t key, uint64_t value)
{
	size_t s = hashmap_home(m, key);
	while (m->slots[s].value != HASHMAP_EMPTY)
		s = (s + 1) & (m->cap - 1);
	m->slots[s] = (struct hashmap_slot){ key, value };
	m->len++;
}

static int rehash(struct hashmap *m, size_t cap)
{
	struct hashmap_slot *slots = malloc(cap * sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	memset(slots, 0xff, cap * sizeof(*slots)); /* every value HASHMAP_EMPTY */
	struct hashmap old = *m;
	unsigned shift = 64;
	for (size_t c = cap; c > 1; c >>= 1)
		shift--;
	*m = (struct hashmap){ slots, cap, 0, shift };
	for (size_t i = 0; i < old.cap; i++)
		if (old.slots[i].value != HASHMAP_EMPTY)
			place(m, old.slots[i].key, old.slots[i].value);
	free(old.slots);
	return 0;
}

int hashmap_reserve(struct hashmap *m, size_t n)
{
	if (n > SIZE_MAX / 8 / sizeof(struct hashmap_slot))
		return -ENOMEM;
	size_t cap = m->cap ? m->cap : 16;
	while (cap / 4 * 3 < n)
		cap *= 2;
	return cap == m->cap ? 0 : rehash(m, cap);
}

int hashmap_add(struct hashmap *m, uint64_t key, uint64_t value)
{
	if (value == HASHMAP_EMPTY)
		return -EINVAL;
	int r = hashmap_reserve(m, m->len + 1);
	if (r < 0)
		return r;
	place(m, key, value);
	return 0;
}

static struct hashmap_slot *slot_of(const struct hashmap *m, uint64_t key)
{
	if (!m->cap)
		return NULL;
	for (size_t s = hashmap_home(m, key); m->slots[s].value != HASHMAP_EMPTY; s = (s + 1) & (m->cap - 1))
		if (m->slots[s].key == key)
			return &m->slots[s];
	return NULL;
}

int hashmap_set(struct hashmap *m, uint64_t key, uint64_t value)
{
	struct hashmap_slot *s = slot_of(m, key);
	if (s && value != HASHMAP_EMPTY) {
		s->value = value;
		return 0;
	}
	return hashmap_add(m, key, value);
}

bool hashmap_remove(struct hashmap *m, uint64_t key)
{
	struct hashmap_slot *hole = slot_of(m, key);
	if (!hole)
		return false;
	size_t mask = m->cap - 1, h = (size_t)(hole - m->slots);
	/* Backward shift: an entry further along the run moves into the hole unless its
	 * home lies cyclically after the hole, where a lookup would no longer pass it. */
	for (size_t s = (h + 1) & mask; m->slots[s].value != HASHMAP_EMPTY; s = (s + 1) & mask) {
		size_t home = hashmap_home(m, m->slots[s].key);
		if (((s - home) & mask) >= ((s - h) & mask)) {
			m->slots[h] = m->slots[s];
			h = s;
		}
	}
	m->slots[h].value = HASHMAP_EMPTY;
	m->len--;
	return true;
}

void hashmap_clear(struct hashmap *m)
{
	if (m->cap)
		memset(m->slots, 0xff, m->cap * sizeof(*m->slots));
	m->len = 0;
}

void hashmap_release(struct hashmap *m)
{
	free(m->slots);
	*m = (struct hashmap)HASHMAP_INIT;
}
