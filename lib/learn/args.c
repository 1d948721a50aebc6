/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Which syscall arguments a learned policy restricts.
 *
 * Restricting an argument is only useful when its value says something
 * about what the program does (open flags, mmap protections, socket
 * families, ioctl requests) and stays the same from one run to the next.
 * Pointers, lengths, offsets, process and user ids, timeouts and descriptor
 * numbers depend on the data, the memory layout or the environment: a
 * policy listing the values of one run would break the next.  The
 * parameter table of the policy language (from the man pages) gives names
 * and C types; the lists below sort out the rest by name and type.
 */
#include <fcntl.h>
#include <string.h>

#include "arch/kernel_abi.h"
#include "learn/internal.h"
#include "lang/decode_internal.h"
#include "lang/lang_internal.h"

/* Types whose values are quantities, ids or handles rather than choices. */
static const char varying_types[][18] = {
    "size_t",	       "ssize_t", "off_t",	   "loff_t", "socklen_t",
    "pid_t",	       "id_t",	  "uid_t",	   "gid_t",  "key_serial_t",
    "timer_t",	       "mqd_t",	  "aio_context_t", "nfds_t", "cap_user_header_t",
    "cap_user_data_t", "caddr_t", "sighandler_t",  "key_t",  "dev_t",
};

/* Parts of parameter names that mark the same (lengths, positions, ids, ...). */
static const char varying_parts[][9] = {
    "len",    "size",	"count", "cnt", "addr", "off",	"pos",	    "timeout", "seconds",
    "pid",    "tid",	"uid",	 "gid", "num",	"ptr",	"val",	    "usec",    "events",
    "nbytes", "handle", "high",	 "low", "prio", "segs", "segments",
};

/* Whole names of the same kind: exit statuses, object ids and keys, counters. */
static const char varying_names[][8] = {
    "status", "arg",	"backlog", "inc",    "id",	"semid",  "shmid",   "msqid",
    "wd",     "key",	"cpu",	   "cpu_id", "nr",	"number", "from",    "entry",
    "fn",     "dfn",	"devfn",   "first",  "second",	"third",  "fifth",   "cookie",
    "magic",  "magic2", "semnum",  "nsems",  "min_nr",	"msgtyp", "initval", "pkey",
    "idx1",   "idx2",	"bus",	   "last",   "maxnode", "dev",	  "keyring",
};

static bool type_varies(const char *type)
{
	if (strchr(type, '*'))
		return true; /* a pointer: its value is an address */
	if (!strncmp(type, "const ", 6))
		type += 6;
	for (size_t i = 0; i < sizeof(varying_types) / sizeof(varying_types[0]); i++)
		if (!strcmp(type, varying_types[i]))
			return true;
	return false;
}

static bool name_varies(const char *name)
{
	size_t n = strlen(name);
	/* fd, dirfd, sockfd, epfd, nfds: descriptor numbers and counts */
	if ((n >= 2 && !strcmp(name + n - 2, "fd")) || (n >= 3 && !strcmp(name + n - 3, "fds")))
		return true;
	if (n == 1 || !strcmp(name, "vlen"))
		return true; /* "n" of select(), a count */
	for (size_t i = 0; i < sizeof(varying_parts) / sizeof(varying_parts[0]); i++)
		if (strstr(name, varying_parts[i]))
			return true;
	for (size_t i = 0; i < sizeof(varying_names) / sizeof(varying_names[0]); i++)
		if (!strcmp(name, varying_names[i]))
			return true;
	return false;
}

/*
 * A parameter of a register-wide integer type (`unsigned long`, `long`)
 * holds an address or a quantity as often as a choice (prctl's, ioctl's and
 * fcntl's arguments, madvise's start): only one named as flags or a mask is
 * kept.
 */
static bool wide_integer_is_choice(const struct scg_syscall_param *param)
{
	const char *t = param->type;
	if (strcmp(t, "unsigned long") && strcmp(t, "long") && strcmp(t, "unsigned long long") &&
	    strcmp(t, "long long"))
		return true;
	return strstr(param->name, "flags") || strstr(param->name, "mask");
}

/* A descriptor number: an int (or unsigned int) named fd, dirfd, sockfd, ... */
static bool is_descriptor(const struct scg_syscall_param *param)
{
	size_t n = strlen(param->name);
	const char *t = param->type;
	return n >= 2 && !strcmp(param->name + n - 2, "fd") &&
	       (!strcmp(t, "int") || !strcmp(t, "unsigned int"));
}

static bool has_64bit_regs(const struct scg_arch *arch)
{
	return (scg_arch_audit(arch) & SCG_AUDIT_ARCH_64BIT) != 0;
}

unsigned learn_scalar_args(const struct scg_arch *arch, const char *name, unsigned flags,
			       unsigned *narrow)
{
	*narrow = 0;
	const struct scg_syscall_params *p = scg_syscall_params(name);
	if (!scg_syscall_params_apply(p, arch, 0))
		return 0;
	bool wide_regs = has_64bit_regs(arch);
	unsigned mask = 0;
	for (unsigned i = 0; i < p->count && i < 6; i++) {
		const struct scg_syscall_param *param = &p->params[i];
		/* On 32-bit ABIs a 64-bit parameter takes two registers and moves the
		 * ones after it: stop at the first one. */
		if (param->kind == SCG_PARAM_64 && !wide_regs)
			break;
		if (!wide_regs || param->kind == SCG_PARAM_32)
			*narrow |= 1U << i;
		/* A parameter the table does not name (prctl's four unsigned
		 * longs) says nothing about what its value means. */
		if (param->kind == SCG_PARAM_UNKNOWN || !param->name[0])
			continue;
		if ((flags & SCG_LEARN_ARGS_FD) && is_descriptor(param)) {
			mask |= 1U << i;
			continue;
		}
		if (type_varies(param->type) || name_varies(param->name) ||
		    !wide_integer_is_choice(param))
			continue;
		mask |= 1U << i;
	}
	return mask;
}

const char *learn_param_name(const struct scg_arch *arch, const char *name, unsigned arg)
{
	const struct scg_syscall_params *p = scg_syscall_params(name);
	if (!scg_syscall_params_apply(p, arch, arg) || arg >= p->count || !p->params[arg].name[0])
		return NULL;
	return p->params[arg].name;
}

/*
 * The decoder names a parameter by another argument's value where its
 * table says so (decode_table.c: the options of a socket level, the
 * protocols of a domain): those two are the pair.
 */
bool learn_paired_args(const struct scg_arch *arch, const char *name, unsigned *ruler,
		       unsigned *dependent)
{
	const struct scg_syscall_params *p = scg_syscall_params(name);
	if (!scg_syscall_params_apply(p, arch, 5))
		return false;
	for (unsigned i = 0; i < p->count && i < 6; i++) {
		const struct decode_param *d =
			p->params[i].name[0] ? decode_param_find(name, p->params[i].name) : NULL;
		if (d && d->when && d->when_arg < p->count && d->when_arg != i) {
			*ruler = d->when_arg;
			*dependent = i;
			return true;
		}
	}
	return false;
}

/* The parameters read only under a flag: so far, the mode of the open calls. */
unsigned learn_conditional_args(const struct scg_arch *arch, const char *name, unsigned *ruler,
				 uint64_t *bits)
{
	const struct scg_syscall_params *p = scg_syscall_params(name);
	if (!scg_syscall_params_apply(p, arch, 0) || (strcmp(name, "open") && strcmp(name, "openat")))
		return 0;
	int flags = -1, mode = -1;
	for (unsigned i = 0; i < p->count && i < 6; i++) {
		if (!strcmp(p->params[i].name, "flags"))
			flags = (int)i;
		else if (!strcmp(p->params[i].name, "mode"))
			mode = (int)i;
	}
	if (flags < 0 || mode < 0)
		return 0;
	*ruler = (unsigned)flags;
	/* O_TMPFILE includes O_DIRECTORY, which alone does not make the kernel read mode */
	*bits = (uint64_t)(O_CREAT | (O_TMPFILE & ~O_DIRECTORY));
	return 1U << mode;
}

/*
 * futex: which operation a thread makes depends on timing, not on the
 * program.  A lock or condition variable that one run only ever wakes
 * (nobody was waiting) makes the next run wait, and the timed waits of the
 * same code take the realtime clock flag.  So each operation stands for
 * its family, with the private flag it was seen with: the policy allows
 * what the same code can do on another run, and the priority-inheritance
 * and requeue operations stay out unless the program used them.
 */
enum { FUTEX_FLAGS = SCG_FUTEX_PRIVATE_FLAG | SCG_FUTEX_CLOCK_REALTIME };

static const uint8_t futex_wait_wake[] = { SCG_FUTEX_WAIT, SCG_FUTEX_WAKE,
					   SCG_FUTEX_WAIT_BITSET, SCG_FUTEX_WAKE_BITSET };
static const uint8_t futex_requeue[] = { SCG_FUTEX_REQUEUE, SCG_FUTEX_CMP_REQUEUE,
					 SCG_FUTEX_WAKE_OP };
static const uint8_t futex_pi[] = { SCG_FUTEX_LOCK_PI, SCG_FUTEX_LOCK_PI2, SCG_FUTEX_UNLOCK_PI,
				    SCG_FUTEX_TRYLOCK_PI };
static const uint8_t futex_requeue_pi[] = { SCG_FUTEX_WAIT_REQUEUE_PI, SCG_FUTEX_CMP_REQUEUE_PI };

static bool futex_op_in(const uint8_t *ops, size_t n, uint64_t op)
{
	for (size_t i = 0; i < n; i++)
		if (ops[i] == op)
			return true;
	return false;
}

/* The waits take a clock: each is added with and without SCG_FUTEX_CLOCK_REALTIME. */
static size_t add_futex_ops(const uint8_t *ops, size_t n, uint64_t private_flag, uint64_t *out,
			    size_t count)
{
	for (size_t i = 0; i < n; i++) {
		out[count++] = ops[i] | private_flag;
		if (ops[i] == SCG_FUTEX_WAIT || ops[i] == SCG_FUTEX_WAIT_BITSET ||
		    ops[i] == SCG_FUTEX_LOCK_PI2 || ops[i] == SCG_FUTEX_WAIT_REQUEUE_PI)
			out[count++] = ops[i] | private_flag | SCG_FUTEX_CLOCK_REALTIME;
	}
	return count;
}

static size_t futex_family(uint64_t value, uint64_t *out)
{
	uint64_t op = value & ~(uint64_t)FUTEX_FLAGS, private_flag = value & SCG_FUTEX_PRIVATE_FLAG;
#define IN(ops) futex_op_in(ops, sizeof(ops), op)
#define ADD(ops) (count = add_futex_ops(ops, sizeof(ops), private_flag, out, count))
	size_t count = 0;
	if (IN(futex_wait_wake) || IN(futex_requeue)) {
		ADD(futex_wait_wake);
		if (IN(futex_requeue))
			ADD(futex_requeue);
	} else if (IN(futex_pi) || IN(futex_requeue_pi)) {
		ADD(futex_pi);
		if (IN(futex_requeue_pi))
			ADD(futex_requeue_pi);
	}
#undef IN
#undef ADD
	return count;
}

unsigned learn_family_args(const char *name)
{
	if (!strcmp(name, "futex") || !strcmp(name, "futex_time64"))
		return 1U << 1;
	return 0;
}

size_t learn_value_family(const char *name, unsigned arg, uint64_t value,
			  uint64_t out[LEARN_FAMILY_MAX])
{
	if (!(learn_family_args(name) & (1U << arg)))
		return 0;
	return futex_family(value, out);
}
