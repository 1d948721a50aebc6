/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libbpf, loaded when the learner first needs it.
 *
 * The command links libsyscage-ebpf's archive, and linking libbpf would
 * load it (and libelf, libz) into every `syscage compile`.  So the calls
 * go through a table filled by dlopen() on first use; the names below make
 * the learner read like plain libbpf.  Its headers are needed at build time
 * only.
 */
#ifndef SCG_LIB_EBPF_LIBBPF_API_H
#define SCG_LIB_EBPF_LIBBPF_API_H

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

/* Every libbpf function the learner calls. */
#define SCG_LIBBPF_FUNCTIONS(X) \
	X(bpf_link__destroy) \
	X(bpf_map__fd) \
	X(bpf_map__get_next_key) \
	X(bpf_map__lookup_elem) \
	X(bpf_map__set_max_entries) \
	X(bpf_map__update_elem) \
	X(bpf_object__close) \
	X(bpf_object__find_map_by_name) \
	X(bpf_object__load) \
	X(bpf_object__next_program) \
	X(bpf_object__open_mem) \
	X(bpf_program__attach) \
	X(bpf_program__section_name) \
	X(libbpf_num_possible_cpus) \
	X(libbpf_set_print) \
	X(ring_buffer__consume) \
	X(ring_buffer__epoll_fd) \
	X(ring_buffer__free) \
	X(ring_buffer__new)

struct libbpf_api {
/* @name is a declarator and a function name: parentheses would break both. */
#define SCG_LIBBPF_MEMBER(name) __typeof__(&name) name; /* NOLINT(bugprone-macro-parentheses) */
	SCG_LIBBPF_FUNCTIONS(SCG_LIBBPF_MEMBER)
#undef SCG_LIBBPF_MEMBER
};

extern struct libbpf_api libbpf_fns;

/* The library's file name, as dlopen() is given it. */
#define SCG_LIBBPF_SONAME "libbpf.so.1"

/* Loads libbpf once: 0, or -ENOSYS when it (or one of its functions) is missing. */
int libbpf_load(void);

#ifndef SCG_LIBBPF_API_IMPLEMENTATION
#define bpf_link__destroy libbpf_fns.bpf_link__destroy
#define bpf_map__fd libbpf_fns.bpf_map__fd
#define bpf_map__get_next_key libbpf_fns.bpf_map__get_next_key
#define bpf_map__lookup_elem libbpf_fns.bpf_map__lookup_elem
#define bpf_map__set_max_entries libbpf_fns.bpf_map__set_max_entries
#define bpf_map__update_elem libbpf_fns.bpf_map__update_elem
#define bpf_object__close libbpf_fns.bpf_object__close
#define bpf_object__find_map_by_name libbpf_fns.bpf_object__find_map_by_name
#define bpf_object__load libbpf_fns.bpf_object__load
#define bpf_object__next_program libbpf_fns.bpf_object__next_program
#define bpf_object__open_mem libbpf_fns.bpf_object__open_mem
#define bpf_program__attach libbpf_fns.bpf_program__attach
#define bpf_program__section_name libbpf_fns.bpf_program__section_name
#define libbpf_num_possible_cpus libbpf_fns.libbpf_num_possible_cpus
#define libbpf_set_print libbpf_fns.libbpf_set_print
#define ring_buffer__consume libbpf_fns.ring_buffer__consume
#define ring_buffer__epoll_fd libbpf_fns.ring_buffer__epoll_fd
#define ring_buffer__free libbpf_fns.ring_buffer__free
#define ring_buffer__new libbpf_fns.ring_buffer__new
#endif

#endif
