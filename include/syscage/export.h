/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Symbol visibility: only functions marked SCG_API leave libsyscage.so. */
#ifndef SYSCAGE_EXPORT_H
#define SYSCAGE_EXPORT_H

#if defined(SCG_BUILDING_LIBRARY)
#define SCG_API __attribute__((visibility("default")))
#else
#define SCG_API
#endif

/*
 * Options structs (struct scg_compile_options, ...) start with `size_t sz`,
 * the size of the struct as the caller was compiled with, so that a later
 * version can add fields without breaking programs built against this
 * header: the library reads only the fields that fit in sz, and refuses
 * with -EINVAL a larger struct whose fields it does not know are set.
 * SCG_OPTS declares one with sz filled in:
 *
 *   SCG_OPTS(scg_compile_options, opts, .optimize = 1);
 *   scg_compile(policy, &opts, &prog, diag);
 *
 * An sz of 0 (a struct initialised without SCG_OPTS) reads as the struct's
 * first layout: the fields its header lists before any marked "since".
 */
#define SCG_OPTS(type, name, ...) struct type name = { .sz = sizeof(struct type), __VA_ARGS__ }

#endif /* SYSCAGE_EXPORT_H */
