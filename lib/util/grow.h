/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Growing arrays without overflow.  Every array in the library that grows by
 * appending goes through these, so that neither doubling the capacity nor
 * the capacity times the item size can wrap around size_t and hand back a
 * buffer smaller than the caller indexes.  On failure the array and its
 * capacity are left exactly as they were: the caller still owns the old
 * buffer and frees it on its usual error path.
 *
 *   if (GROW_ARRAY(&l->v, &l->cap, l->n + 1, 16))
 *           return -ENOMEM;
 *   l->v[l->n++] = item;
 */
#ifndef SCG_LIB_UTIL_GROW_H
#define SCG_LIB_UTIL_GROW_H

#include <stddef.h>

/*
 * The capacity, in items of @item_size bytes, to grow an array of capacity
 * @cap to so that it holds @need items: @cap itself if it already does,
 * otherwise @cap (or @first when @cap is 0) doubled until it does.  0 when
 * that, or that many items' bytes, does not fit in size_t.
 */
size_t grow_capacity(size_t cap, size_t need, size_t first, size_t item_size);

/*
 * Reallocates the array *@itemsp (a pointer to the caller's pointer, which
 * may be NULL) to exactly @n items of @item_size bytes (at least one byte).
 * Returns 0, or -ENOMEM when n * item_size overflows or the allocation fails;
 * *@itemsp is then unchanged.
 */
int resize_array(void *itemsp, size_t n, size_t item_size);

/*
 * Makes room for @need items in *@itemsp, whose capacity is *@cap items
 * (grow_capacity() picks the new one, @first for an empty array), and
 * stores the new capacity in *@cap.  0, or -ENOMEM with *@itemsp and *@cap
 * unchanged.
 */
int grow_array(void *itemsp, size_t *cap, size_t need, size_t first, size_t item_size);

/* The same, with the item size taken from the array's own type. */
#define GROW_ARRAY(itemsp, cap, need, first) \
	grow_array((itemsp), (cap), (need), (first), sizeof(**(itemsp)))
#define RESIZE_ARRAY(itemsp, n) resize_array((itemsp), (n), sizeof(**(itemsp)))

#endif
