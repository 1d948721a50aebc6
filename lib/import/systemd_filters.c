/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The filters systemd 252 installs for a unit's seccomp settings, one per
 * directive, in the order src/core/execute.c applies them, each with the
 * rules src/shared/seccomp-util.c gives it.  Each filter checks one ABI at
 * a time and lets calls of other ABIs through; comparisons are libseccomp's
 * (the whole register on 64-bit ABIs).  docs/import.md has the table.
 */
#include <errno.h>
#include <string.h>

#include <syscage/bpf.h>

#include "import/systemd.h"

#define EPERM_	      1
#define ENOSYS_	      38
#define EAFNOSUPPORT_ 97
#define O_CREAT_      0100
#define S_ISUID_      04000
#define S_ISGID_      02000
#define PROT_WRITE_   2
#define PROT_EXEC_    4
#define SHM_EXEC_     0100000

static uint32_t errno_ret(unsigned e)
{
	return SCG_RET_ERRNO | (e & SCG_RET_DATA);
}

/* systemd's "kill": the whole process (KILL_PROCESS, which every supported kernel has). */
static uint32_t entry_action(int err, uint32_t otherwise)
{
	if (err == SD_ERRNO_KILL)
		return SCG_RET_KILL_PROCESS;
	if (err >= 0)
		return errno_ret((unsigned)err);
	return otherwise;
}

static struct scg_expr *masked(unsigned arg, uint64_t mask)
{
	return scg_expr_cmp(arg, 64, SCG_CMP_EQ, mask, mask);
}

static struct scg_expr *eq(unsigned arg, uint64_t value)
{
	return scg_expr_cmp(arg, 64, SCG_CMP_EQ, UINT64_MAX, value);
}

static uint32_t all_abis(const struct imp_stack *st)
{
	uint32_t m = 0;
	for (size_t i = 0; i < st->ntargets; i++)
		m |= imp_abi_bit(st->targets[i]);
	return m;
}

static uint32_t abis_named(const struct imp_stack *st, const char *const *names)
{
	uint32_t m = 0;
	for (; *names; names++) {
		const struct scg_arch *a = scg_arch_lookup(*names);
		if (a)
			m |= imp_abi_bit(a);
	}
	return m & all_abis(st);
}

/* A rule with a condition; -ENOMEM when the condition could not be built. */
static int add(struct imp_layer *l, const char *name, struct scg_expr *cond, bool want_cond,
	       uint32_t action, struct scg_loc loc)
{
	if (want_cond && !cond)
		return -ENOMEM;
	return imp_layer_add(l, name, cond, action, loc);
}

static struct imp_layer *push(struct imp_stack *st, uint32_t mask, struct scg_loc loc)
{
	return imp_stack_push(st, mask, SCG_RET_ALLOW, loc);
}

/* Filters made of whole syscalls and groups, each returning EPERM. */
static int names_filter(struct imp_stack *st, const struct sd_flag *f, uint32_t mask,
			const char *const *names)
{
	if (!f->on)
		return 0;
	struct imp_layer *l = push(st, mask, f->loc);
	if (!l)
		return -ENOMEM;
	for (int r; *names; names++)
		if ((r = sd_layer_add_names(st, l, *names, errno_ret(EPERM_), f->loc)) < 0)
			return r;
	return 0;
}

static int address_families(struct imp_stack *st, const struct sd_settings *s)
{
	if (!s->af_present)
		return 0;
	/* socket() goes through socketcall() on i386, so systemd leaves that ABI alone */
	static const char *const direct[] = {"x86_64", "x32", NULL};
	struct imp_layer *l = push(st, abis_named(st, direct), s->af_loc);
	if (!l)
		return -ENOMEM;
	struct scg_expr *any = NULL;
	for (unsigned af = 0; af < 64; af++) {
		if (!(s->af_set & (1ULL << af)))
			continue;
		struct scg_expr *c = eq(0, af);
		any = any ? scg_expr_or(any, c) : c;
		if (!any)
			return -ENOMEM;
	}
	if (!any) /* an empty allow list refuses every family; an empty deny list nothing */
		return s->af_allow
			   ? add(l, "socket", NULL, false, errno_ret(EAFNOSUPPORT_), s->af_loc)
			   : 0;
	struct scg_expr *c = s->af_allow ? scg_expr_not(any) : any;
	return add(l, "socket", c, true, errno_ret(EAFNOSUPPORT_), s->af_loc);
}

static int mdwx(struct imp_stack *st, const struct sd_settings *s)
{
	if (!s->mdwx.on)
		return 0;
	struct scg_loc loc = s->mdwx.loc;
	static const char *const wide[] = {"x86_64", "x32", NULL};
	static const char *const i386[] = {"x86", NULL};
	uint32_t perm = errno_ret(EPERM_);
	struct imp_layer *l = push(st, abis_named(st, wide), loc);
	int r = l ? 0 : -ENOMEM;
	if (!r)
		r = add(l, "mmap", masked(2, PROT_EXEC_ | PROT_WRITE_), true, perm, loc);
	if (!r)
		r = add(l, "mprotect", masked(2, PROT_EXEC_), true, perm, loc);
	if (!r)
		r = add(l, "pkey_mprotect", masked(2, PROT_EXEC_), true, perm, loc);
	if (!r)
		r = add(l, "shmat", masked(2, SHM_EXEC_), true, perm, loc);
	/* i386: mmap2 is checked, the old mmap (arguments in memory) refused outright */
	if (!r && !(l = push(st, abis_named(st, i386), loc)))
		r = -ENOMEM;
	if (!r)
		r = add(l, "mmap2", masked(2, PROT_EXEC_ | PROT_WRITE_), true, perm, loc);
	if (!r)
		r = add(l, "mmap", NULL, false, perm, loc);
	if (!r)
		r = add(l, "mprotect", masked(2, PROT_EXEC_), true, perm, loc);
	if (!r)
		r = add(l, "pkey_mprotect", masked(2, PROT_EXEC_), true, perm, loc);
	return r;
}

static int realtime(struct imp_stack *st, const struct sd_settings *s)
{
	if (!s->realtime.on)
		return 0;
	/* SCHED_OTHER (0), SCHED_BATCH (3) and SCHED_IDLE (5) stay allowed */
	struct scg_loc loc = s->realtime.loc;
	struct imp_layer *l = push(st, all_abis(st), loc);
	int r = l ? 0 : -ENOMEM;
	static const unsigned refused[] = {1, 2, 4};
	for (size_t i = 0; i < 3 && !r; i++)
		r = add(l, "sched_setscheduler", eq(1, refused[i]), true, errno_ret(EPERM_), loc);
	if (!r)
		r = add(l, "sched_setscheduler", scg_expr_cmp(1, 64, SCG_CMP_GT, UINT64_MAX, 5),
			true, errno_ret(EPERM_), loc);
	return r;
}

/* The mode argument of each call that can create a file or change its mode. */
static const struct {
	const char *name;
	int flags_arg; /* -1: none; else O_CREAT must be set there too */
	unsigned mode_arg;
} sxid_calls[] = {
    {"chmod", -1, 1}, {"fchmod", -1, 1},  {"fchmodat", -1, 2}, {"fchmodat2", -1, 2},
    {"mkdir", -1, 1}, {"mkdirat", -1, 2}, {"mknod", -1, 1},    {"mknodat", -1, 2},
    {"open", 1, 2},   {"openat", 2, 3},	  {"creat", -1, 1},
};

static int suid_sgid(struct imp_stack *st, const struct sd_settings *s)
{
	/* DynamicUser=yes turns it on for good: RestrictSUIDSGID=no does not undo that */
	if (!s->suid_sgid.on && !s->dynamic_user.on)
		return 0;
	struct scg_loc loc = s->suid_sgid.on ? s->suid_sgid.loc : s->dynamic_user.loc;
	struct imp_layer *l = push(st, all_abis(st), loc);
	int r = l ? 0 : -ENOMEM;
	/* openat2()'s mode sits in memory: ENOSYS sends the C library back to openat() */
	if (!r)
		r = add(l, "openat2", NULL, false, errno_ret(ENOSYS_), loc);
	static const uint64_t modes[] = {S_ISUID_, S_ISGID_};
	for (size_t m = 0; m < 2; m++)
		for (size_t i = 0; i < sizeof(sxid_calls) / sizeof(sxid_calls[0]) && !r; i++) {
			struct scg_expr *c = masked(sxid_calls[i].mode_arg, modes[m]);
			if (c && sxid_calls[i].flags_arg >= 0)
				c = scg_expr_and(
				    masked((unsigned)sxid_calls[i].flags_arg, O_CREAT_), c);
			r = add(l, sxid_calls[i].name, c, true, errno_ret(EPERM_), loc);
		}
	return r;
}

static const uint64_t ns_flags[] = {
    0x02000000, /* cgroup */ 0x08000000, /* ipc */ 0x40000000, /* net */
    0x00020000, /* mnt */ 0x20000000,	 /* pid */ 0x10000000, /* user */
    0x04000000, /* uts */ 0x00000080,			       /* time */
};

static int namespaces(struct imp_stack *st, const struct sd_settings *s)
{
	uint64_t retain = s->ns_retain & SD_NS_ALL;
	if (!s->ns_present || retain == SD_NS_ALL)
		return 0;
	struct scg_loc loc = s->ns_loc;
	uint32_t perm = errno_ret(EPERM_);
	struct imp_layer *l = push(st, all_abis(st), loc);
	int r = l ? 0 : -ENOMEM;
	/* clone3()'s flags sit in memory: ENOSYS sends the C library back to clone() */
	if (!r)
		r = add(l, "clone3", NULL, false, errno_ret(ENOSYS_), loc);
	if (!r)
		r = retain ? add(l, "setns", eq(1, 0), true, perm, loc)
			   : add(l, "setns", NULL, false, perm, loc);
	for (size_t i = 0; i < sizeof(ns_flags) / sizeof(ns_flags[0]) && !r; i++) {
		uint64_t f = ns_flags[i];
		if ((retain & f) == f)
			continue;
		r = add(l, "unshare", masked(0, f), true, perm, loc);
		if (!r)
			r = add(l, "clone", masked(0, f), true, perm, loc);
		if (!r && retain)
			r = add(l, "setns", masked(1, f), true, perm, loc);
	}
	return r;
}

static int tunables(struct imp_stack *st, const struct sd_settings *s)
{
	/* x32 has no _sysctl; systemd builds no filter for it there */
	static const char *const with_sysctl[] = {"x86_64", "x86", NULL};
	static const char *const names[] = {"_sysctl", NULL};
	return names_filter(st, &s->tunables, abis_named(st, with_sysctl), names);
}

static int lock_personality(struct imp_stack *st, const struct sd_settings *s)
{
	if (!s->lock_personality.on)
		return 0;
	/* PER_LINUX: the personality of a service that sets no Personality= */
	struct imp_layer *l = push(st, all_abis(st), s->lock_personality.loc);
	if (!l)
		return -ENOMEM;
	return add(l, "personality", scg_expr_cmp(0, 64, SCG_CMP_NE, UINT64_MAX, 0), true,
		   errno_ret(EPERM_), s->lock_personality.loc);
}

/* A SystemCallFilter= or SystemCallLog= list as one filter. */
static int list_filter(struct imp_stack *st, const struct sd_list *list, uint32_t listed,
		       uint32_t others)
{
	/* an emptied list installs nothing, in either mode */
	if (!list->present || list->n == 0)
		return 0;
	struct imp_layer *l = imp_stack_push(st, all_abis(st), others, list->loc);
	if (!l)
		return -ENOMEM;
	for (size_t i = 0; i < list->n; i++) {
		int r = imp_layer_add(l, list->v[i].name, NULL,
				      entry_action(list->v[i].err, listed), list->v[i].loc);
		if (r < 0)
			return r;
	}
	return 0;
}

static int syscall_filter(struct imp_stack *st, const struct sd_settings *s)
{
	uint32_t negative = entry_action(s->error_number, SCG_RET_KILL_PROCESS);
	if (s->filter.allow)
		return list_filter(st, &s->filter, SCG_RET_ALLOW, negative);
	return list_filter(st, &s->filter, negative, SCG_RET_ALLOW);
}

static int syscall_log(struct imp_stack *st, const struct sd_settings *s)
{
	if (s->log.allow)
		return list_filter(st, &s->log, SCG_RET_LOG, SCG_RET_ALLOW);
	return list_filter(st, &s->log, SCG_RET_ALLOW, SCG_RET_LOG);
}

void sd_set_arches(const struct sd_settings *s, struct imp_stack *st)
{
	const struct scg_arch *native = scg_arch_native();
	const struct scg_arch *all[8] = {native};
	size_t n = 1 + scg_arch_companions(native, all + 1, 7);
	st->ntargets = 0;
	for (size_t i = 0; i < n && i < 8; i++) {
		uint32_t bit = imp_abi_bit(all[i]);
		/* the native ABI is never blocked (systemd needs it to exec the service) */
		if (!s->archs_present || all[i] == native || (s->arch_mask & bit))
			st->targets[st->ntargets++] = all[i];
	}
	/* libseccomp's default for other ABIs, which systemd keeps: KILL (the thread) */
	st->badarch = s->archs_present ? SCG_RET_KILL_THREAD : SCG_RET_ALLOW;
	st->libseccomp_high = s->archs_present;
}

int sd_build_filters(const struct sd_settings *s, struct imp_stack *st)
{
	sd_set_arches(s, st);
	static const char *const hostname[] = {"sethostname", "setdomainname", NULL};
	static const char *const modules[] = {"@module", NULL};
	static const char *const logs[] = {"syslog", NULL};
	static const char *const clock[] = {"@clock", NULL};
	static const char *const raw_io[] = {"@raw-io", NULL};
	uint32_t all = all_abis(st);
	int r = names_filter(st, &s->hostname, all, hostname);
	if (!r)
		r = address_families(st, s);
	if (!r)
		r = mdwx(st, s);
	if (!r)
		r = realtime(st, s);
	if (!r)
		r = suid_sgid(st, s);
	if (!r)
		r = namespaces(st, s);
	if (!r)
		r = tunables(st, s);
	if (!r)
		r = names_filter(st, &s->modules, all, modules);
	if (!r)
		r = names_filter(st, &s->kernel_logs, all, logs);
	if (!r)
		r = names_filter(st, &s->clock, all, clock);
	if (!r)
		r = names_filter(st, &s->devices, all, raw_io);
	if (!r)
		r = lock_personality(st, s);
	if (!r)
		r = syscall_log(st, s);
	if (!r)
		r = syscall_filter(st, s);
	return r;
}
