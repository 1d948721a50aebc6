/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The calls an OCI runtime makes under the container's filter before the
 * program's first instruction.
 *
 * runc and crun install the filter as one of the last steps of the
 * container's setup and then exec the program, so the exec, and whatever
 * the runtime does in between, runs under the profile.  A policy written
 * for the program alone (learned, or written by hand for `syscage run`,
 * whose launcher's exec passes with its cookie) leaves them to its default
 * verdict, and the container dies before it starts (runc: "container
 * process is already dead").  The filter cannot tell the runtime's calls
 * from the program's, so they are allowed whole, on every ABI of the
 * policy (an OCI entry applies to all the profile lists).
 * docs/oci.md lists them and says why each is there.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

static const char *const runtime_calls[] = {
	/* the exec itself */
	"execve", "execveat",
	/* runc (1.1, with noNewPrivileges): the exec FIFO, then closing every
	 * descriptor above standard error, read from /proc/self/fd */
	"openat", "write", "close", "fstatfs", "getdents64", "getpid", "fcntl", "epoll_ctl",
	/* Go's runtime in runc's process: scheduling, preemption signals, memory */
	"futex", "nanosleep", "sched_yield", "rt_sigreturn", "rt_sigprocmask", "sigaltstack",
	"tgkill", "gettid", "mmap", "munmap", "madvise", "epoll_pwait", "exit_group",
	/* its clocks: the vDSO answers them without a system call where the clock
	 * source allows it, not in a virtual machine without a stable TSC */
	"clock_gettime", "gettimeofday",
};

#define N_RUNTIME_CALLS (sizeof(runtime_calls) / sizeof(runtime_calls[0]))

const char *scg_oci_runtime_call(size_t index)
{
	return index < N_RUNTIME_CALLS ? runtime_calls[index] : NULL;
}

static bool lets_run(uint32_t action)
{
	uint32_t a = action & SCG_RET_ACTION_FULL;
	return a == SCG_RET_ALLOW || a == SCG_RET_LOG;
}

/* How @policy treats syscall @nr of @arch whatever its arguments. */
enum treatment { BY_DEFAULT, ALLOWED, REFUSED };

/* The first rule for @nr on @arch, or -1; its verdict in *@treat. */
static long first_rule(const struct scg_policy *policy, const struct scg_arch *arch, uint32_t nr,
		       enum treatment *treat)
{
	*treat = lets_run(scg_policy_default(policy)) ? ALLOWED : BY_DEFAULT;
	for (size_t i = 0; i < scg_policy_rule_count(policy); i++) {
		uint32_t first, last;
		struct scg_rule r;
		if (scg_policy_rule_range(policy, i, arch, &first, &last) < 0 || nr < first ||
		    nr > last || scg_policy_rule_at(policy, i, &r) < 0)
			continue;
		/* A condition lets some calls through and not others: the runtime's
		 * arguments are its own, so only an unconditional allow will do. */
		*treat = !r.cond && lets_run(r.action) ? ALLOWED : REFUSED;
		return (long)i;
	}
	return -1;
}

static int refuse(const struct scg_policy *policy, long rule, const char *name,
		  struct scg_diag *diag)
{
	struct scg_rule r = { 0 };
	scg_policy_rule_at(policy, (size_t)rule, &r);
	return scg_diag_add(diag, SCG_SEV_ERROR, r.loc, "runtime-call",
			    "allow it whole, or export with --no-runtime-calls for a runtime that "
			    "installs the filter after the exec",
			    "the policy's rule for %s does not allow it whatever its arguments, and "
			    "an OCI runtime calls it under the filter before the program starts",
			    name);
}

static int add_allow(struct scg_policy *policy, const char *name)
{
	/* every target ABI: an OCI entry applies to all the profile lists */
	struct scg_rule_spec spec = { .action = SCG_RET_ALLOW, .syscall = name,
				      .loc = SCG_LOC_NONE };
	return scg_policy_add_rule(policy, &spec);
}

/* How @policy treats runtime call @name on its ABIs: the strictest of their treatments. */
static enum treatment treatment(const struct scg_policy *policy, const char *name, long *rule)
{
	enum treatment worst = ALLOWED;
	for (size_t a = 0; a < scg_policy_arch_count(policy); a++) {
		const struct scg_arch *arch = scg_policy_arch_at(policy, a);
		uint32_t nr;
		enum treatment treat;
		if (scg_syscall_lookup(arch, name, &nr) < 0)
			continue;
		long first = first_rule(policy, arch, nr, &treat);
		if (treat == REFUSED) {
			*rule = first;
			return REFUSED;
		}
		if (treat == BY_DEFAULT)
			worst = BY_DEFAULT;
	}
	return worst;
}

/* Reports every runtime call a rule of @policy refuses; their count, or -ENOMEM. */
static int count_refused(const struct scg_policy *policy, struct scg_diag *diag)
{
	int refused = 0;
	for (size_t i = 0; i < N_RUNTIME_CALLS; i++) {
		long rule = -1;
		if (treatment(policy, runtime_calls[i], &rule) != REFUSED)
			continue;
		if (refuse(policy, rule, runtime_calls[i], diag) < 0)
			return -ENOMEM;
		refused++;
	}
	return refused;
}

int scg_oci_add_runtime_calls(struct scg_policy *policy, struct scg_diag *diag)
{
	const struct scg_arch *native = scg_arch_native();
	bool targets_native = false;
	for (size_t i = 0; native && i < scg_policy_arch_count(policy); i++)
		targets_native |= scg_policy_arch_at(policy, i) == native;
	if (!targets_native)
		return 0; /* no runtime here starts a container on the policy's ABIs */
	int refused = count_refused(policy, diag);
	if (refused)
		return refused < 0 ? refused : -EINVAL;
	char added[512] = "";
	size_t nadded = 0;
	for (size_t i = 0; i < N_RUNTIME_CALLS; i++) {
		long rule = -1;
		uint32_t nr;
		/* one the native ABI lacks is not the runtime's */
		if (scg_syscall_lookup(native, runtime_calls[i], &nr) < 0 ||
		    treatment(policy, runtime_calls[i], &rule) != BY_DEFAULT)
			continue;
		if (add_allow(policy, runtime_calls[i]) < 0)
			return -ENOMEM;
		size_t used = strlen(added);
		snprintf(added + used, sizeof(added) - used, "%s%s", nadded++ ? ", " : "",
			 runtime_calls[i]);
	}
	if (nadded && scg_diag_add(diag, SCG_SEV_NOTE, SCG_LOC_NONE, "runtime-call", NULL,
				   "allowed for the OCI runtime, which makes them before the "
				   "program starts: %s",
				   added) < 0)
		return -ENOMEM;
	return 0;
}
