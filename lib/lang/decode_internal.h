/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the syscall decoder (decode.c) knows about parameters, as data
 * (decode_table.c): which named constants of the policy language a
 * parameter takes, and whether they are one value or OR-ed flags.
 */
#ifndef SCG_LIB_LANG_DECODE_INTERNAL_H
#define SCG_LIB_LANG_DECODE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct scg_arch;

/*
 * A set of constants: those whose names start with one of @prefixes, plus
 * @names, minus those starting with one of @skip.  Every list is
 * NULL-terminated; each may be NULL.
 */
/* Each list: NUL-separated names ended by an empty one, or NULL. */
struct decode_set {
	const char *prefixes;
	const char *names;
	const char *skip;
};

enum decode_kind {
	DECODE_ENUM,       /* one member's value: its name, else the number */
	DECODE_FLAGS,      /* members OR-ed, the rest as a hexadecimal remainder */
	DECODE_CLONE_ARGS, /* a struct clone_args pointer: its flags, read from memory */
};

struct decode_param {
	char syscall[24]; /* "*": every syscall with such a parameter */
	char param[16];	  /* the name in the generated parameter table */
	enum decode_kind kind;
	const struct decode_set *set;
	/* FLAGS: the bits that hold one value of @enum_set (open's access
	 * mode, clone's exit signal, socket's type), printed first. */
	uint64_t enum_mask;
	const struct decode_set *enum_set;
	/* When set, the entry holds only while argument @when_arg is one of
	 * these constants (socket's protocol is IPPROTO_* for AF_INET only). */
	const struct decode_set *when;
	unsigned when_arg;
	bool enum_last; /* the value of @enum_set after the flags (clone's signal) */
	/* FLAGS: the low 9 bits are permission bits, printed last in octal
	 * (shmget's IPC_CREAT|0600) */
	bool mode_bits;
};

/* The (first) entry for parameter @param of @syscall, or NULL. */
const struct decode_param *decode_param_find(const char *syscall, const char *param);

/* The entry after @d for the same syscall and parameter (another condition), or NULL. */
const struct decode_param *decode_param_next(const struct decode_param *d);

/*
 * Argument @index of @syscall as the decoder prints it, the other
 * arguments being @args (a condition on one of them, as the level of
 * setsockopt's option name, reads it there); snprintf's contract.
 */
int decode_arg_format(const struct scg_arch *arch, const char *syscall, unsigned index,
		      const uint64_t args[6], char *buf, size_t size);

/*
 * True when constant @name is an alias the decoder never prints because
 * another name has the same value and is the usual one (AF_LOCAL: AF_UNIX).
 */
bool decode_is_alias(const char *name);

#endif
