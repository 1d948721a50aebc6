/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "grow.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

size_t grow_capacity(size_t cap, size_t need, size_t first, size_t item_size)
{
	if (need <= cap)
		return cap;
	size_t n = cap ? cap : (first ? first : 1);
	while (n < need) {
		if (n > SIZE_MAX / 2)
			return 0;
		n *= 2;
	}
	if (item_size && n > SIZE_MAX / item_size)
		return 0;
	return n;
}

/*
 * @itemsp points at a pointer of the caller's own type (struct foo **); it is
 * read and written through memcpy, not through a void ** cast, which would
 * access the caller's pointer as an object of a different type.
 */
int resize_array(void *itemsp, size_t n, size_t item_size)
{
	if (item_size && n > SIZE_MAX / item_size)
		return -ENOMEM;
	size_t bytes = n * item_size;
	void *old;
	memcpy(&old, itemsp, sizeof(old));
	void *items = realloc(old, bytes ? bytes : 1);
	if (!items)
		return -ENOMEM;
	memcpy(itemsp, &items, sizeof(items));
	/* the caller's pointer holds it now: cppcheck does not follow memcpy() */
	// cppcheck-suppress memleak
	return 0;
}

int grow_array(void *itemsp, size_t *cap, size_t need, size_t first, size_t item_size)
{
	if (need <= *cap)
		return 0;
	size_t n = grow_capacity(*cap, need, first, item_size);
	if (!n || resize_array(itemsp, n, item_size))
		return -ENOMEM;
	*cap = n;
	return 0;
}
