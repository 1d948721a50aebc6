/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Filter contexts, attributes, ABIs, API levels and the process-wide state. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <syscage/runtime.h>

#include "internal.h"

static const struct scmp_version compat_version = { SCMP_VER_MAJOR, SCMP_VER_MINOR,
						     SCMP_VER_MICRO };

/* Process-wide, as in libseccomp: the API level (0 = not yet probed) and the
 * listener of the last filter loaded with a NOTIFY rule. */
static unsigned state_api_level;
static int state_notify_fd = -1;

struct compat_filter *compat_filter_of(const void *ctx)
{
	struct compat_filter *f = (struct compat_filter *)(uintptr_t)ctx;
	return f != NULL && f->magic == COMPAT_MAGIC ? f : NULL;
}

void compat_filter_changed(struct compat_filter *f)
{
	scg_prog_release(&f->program);
	f->program_valid = false;
}

void compat_state_notify_set(int fd)
{
	state_notify_fd = fd;
}

int compat_state_notify_fd(void)
{
	return state_notify_fd;
}

/*
 * The highest level the running kernel supports, from seccomp(2) alone (the
 * actions and flags it accepts): the caller may already run under a filter,
 * so no child, signal or other call that filter might hold up or kill.
 */
static unsigned probe_api_level(void)
{
	struct scg_features ft;
	if (scg_features_probe_seccomp(&ft) < 0 || !ft.filter_mode)
		return 1;
	unsigned level = 1;
	const uint32_t l3_actions = (1U << SCG_ACTION_KILL_PROCESS) | (1U << SCG_ACTION_LOG);
	const struct {
		bool ok;
	} steps[] = {
		{ (ft.flags & SCG_FILTER_FLAG_TSYNC) != 0 },
		{ (ft.flags & SCG_FILTER_FLAG_LOG) && (ft.actions & l3_actions) == l3_actions },
		{ (ft.flags & SCG_FILTER_FLAG_SPEC_ALLOW) != 0 },
		{ (ft.flags & SCG_FILTER_FLAG_NEW_LISTENER) &&
		  (ft.actions & (1U << SCG_ACTION_USER_NOTIF)) },
		{ (ft.flags & SCG_FILTER_FLAG_TSYNC_ESRCH) != 0 },
		{ (ft.flags & SCG_FILTER_FLAG_WAIT_KILLABLE_RECV) != 0 },
	};
	/* Each level includes the ones below it. */
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]) && steps[i].ok; i++)
		level++;
	return level;
}

unsigned compat_api_level(void)
{
	if (state_api_level == 0)
		state_api_level = probe_api_level();
	return state_api_level;
}

int compat_action_valid(uint32_t action)
{
	switch (scg_action_of(action)) {
	case SCG_ACTION_KILL_THREAD:
	case SCG_ACTION_TRAP:
	case SCG_ACTION_ALLOW:
		return (action & SCG_RET_DATA) == 0 ? 0 : -EINVAL;
	case SCG_ACTION_ERRNO:
		return (action & SCG_RET_DATA) <= SCG_MAX_ERRNO ? 0 : -EINVAL;
	case SCG_ACTION_TRACE:
		return 0;
	/* An action above the API level is as invalid as an unknown one (libseccomp). */
	case SCG_ACTION_KILL_PROCESS:
	case SCG_ACTION_LOG:
		return (action & SCG_RET_DATA) == 0 && compat_api_level() >= 3 ? 0 : -EINVAL;
	case SCG_ACTION_USER_NOTIF:
		return (action & SCG_RET_DATA) == 0 && compat_api_level() >= 5 ? 0 : -EINVAL;
	case SCG_ACTION_UNKNOWN:
		return -EINVAL;
	}
	return -EINVAL;
}

static void attrs_default(struct compat_attrs *a, uint32_t def_action)
{
	memset(a, 0, sizeof(*a));
	a->act_default = def_action;
	a->act_badarch = SCMP_ACT_KILL;
	a->nnp = 1;
	a->optimize = 1;
}

static void filter_clear(struct compat_filter *f)
{
	while (f->txn != NULL) {
		struct compat_snapshot *s = f->txn;
		f->txn = s->next;
		compat_rules_release(&s->rules);
		free(s);
	}
	compat_rules_release(&f->rules);
	free(f->prio);
	f->prio = NULL;
	f->nprio = 0;
	f->narch = 0;
	compat_filter_changed(f);
}

/* A fresh state: the attributes' defaults and the native ABI. */
static void filter_setup(struct compat_filter *f, uint32_t def_action)
{
	attrs_default(&f->attr, def_action);
	const struct scg_arch *native = scg_arch_native();
	if (native != NULL)
		f->arches[f->narch++] = native;
}

/* --- public API ----------------------------------------------------------- */

COMPAT_API const struct scmp_version *seccomp_version(void)
{
	return &compat_version;
}

COMPAT_API unsigned int seccomp_api_get(void)
{
	return compat_api_level();
}

COMPAT_API int seccomp_api_set(unsigned int level)
{
	if (level < 1 || level > COMPAT_API_MAX)
		return -EINVAL;
	state_api_level = level;
	return 0;
}

COMPAT_API scmp_filter_ctx seccomp_init(uint32_t def_action)
{
	if (compat_action_valid(def_action) < 0)
		return NULL;
	struct compat_filter *f = calloc(1, sizeof(*f));
	if (f == NULL)
		return NULL;
	f->magic = COMPAT_MAGIC;
	filter_setup(f, def_action);
	return f;
}

COMPAT_API int seccomp_reset(scmp_filter_ctx ctx, uint32_t def_action)
{
	if (ctx == NULL) {
		/* Forget the process-wide state, e.g. in a child after fork().  The
		 * listener is closed, as libseccomp does: seccomp_reset(3) says the
		 * global reset covers the notification fd, and forgetting it
		 * without closing it would leak it. */
		state_api_level = 0;
		if (state_notify_fd >= 0)
			close(state_notify_fd);
		state_notify_fd = -1;
		return 0;
	}
	struct compat_filter *f = compat_filter_of(ctx);
	if (f == NULL || compat_action_valid(def_action) < 0)
		return -EINVAL;
	filter_clear(f);
	filter_setup(f, def_action);
	return 0;
}

COMPAT_API void seccomp_release(scmp_filter_ctx ctx)
{
	struct compat_filter *f = compat_filter_of(ctx);
	if (f == NULL)
		return;
	filter_clear(f);
	f->magic = 0;
	free(f);
}

static bool filter_has_arch(const struct compat_filter *f, const struct scg_arch *arch)
{
	for (size_t i = 0; i < f->narch; i++)
		if (f->arches[i] == arch)
			return true;
	return false;
}

COMPAT_API int seccomp_merge(scmp_filter_ctx ctx_dst, scmp_filter_ctx ctx_src)
{
	struct compat_filter *dst = compat_filter_of(ctx_dst), *src = compat_filter_of(ctx_src);
	if (dst == NULL || src == NULL || dst == src)
		return -EINVAL;
	if (dst->attr.act_default != src->attr.act_default || dst->attr.nnp != src->attr.nnp ||
	    dst->attr.tsync != src->attr.tsync)
		return -EINVAL;
	if (dst->narch + src->narch > COMPAT_MAX_ARCHES)
		return -EINVAL;
	for (size_t i = 0; i < src->narch; i++)
		if (filter_has_arch(dst, src->arches[i]))
			return -EEXIST;
	if (dst->narch > 0 && src->narch > 0 &&
	    scg_arch_big_endian(dst->arches[0]) != scg_arch_big_endian(src->arches[0]))
		return -EDOM;
	/* Build the merged rule list first so a failure leaves both untouched. */
	struct compat_rules merged = { 0 };
	int rc = compat_rules_copy(&merged, &dst->rules);
	for (size_t i = 0; rc == 0 && i < src->rules.n; i++)
		rc = compat_rules_append(&merged, &src->rules.v[i]);
	if (rc < 0) {
		compat_rules_release(&merged);
		return rc;
	}
	compat_rules_release(&dst->rules);
	dst->rules = merged;
	for (size_t i = 0; i < src->narch; i++)
		dst->arches[dst->narch++] = src->arches[i];
	compat_filter_changed(dst);
	seccomp_release(src);
	return 0;
}

COMPAT_API int seccomp_arch_exist(const scmp_filter_ctx ctx, uint32_t arch_token)
{
	struct compat_filter *f = compat_filter_of(ctx);
	const struct scg_arch *arch = compat_arch_of_token(arch_token);
	if (f == NULL || arch == NULL)
		return -EINVAL;
	return filter_has_arch(f, arch) ? 0 : -EEXIST;
}

COMPAT_API int seccomp_arch_add(scmp_filter_ctx ctx, uint32_t arch_token)
{
	struct compat_filter *f = compat_filter_of(ctx);
	const struct scg_arch *arch = compat_arch_of_token(arch_token);
	if (f == NULL || arch == NULL)
		return -EINVAL;
	if (filter_has_arch(f, arch))
		return -EEXIST;
	/* One filter, one byte order (libseccomp: -EDOM). */
	if (f->narch > 0 && scg_arch_big_endian(f->arches[0]) != scg_arch_big_endian(arch))
		return -EDOM;
	if (f->narch == COMPAT_MAX_ARCHES)
		return -ENOMEM;
	f->arches[f->narch++] = arch;
	compat_filter_changed(f);
	return 0;
}

COMPAT_API int seccomp_arch_remove(scmp_filter_ctx ctx, uint32_t arch_token)
{
	struct compat_filter *f = compat_filter_of(ctx);
	const struct scg_arch *arch = compat_arch_of_token(arch_token);
	if (f == NULL || arch == NULL)
		return -EINVAL;
	size_t i = 0;
	while (i < f->narch && f->arches[i] != arch)
		i++;
	if (i == f->narch)
		return -EEXIST;
	memmove(&f->arches[i], &f->arches[i + 1], (f->narch - i - 1) * sizeof(f->arches[0]));
	f->narch--;
	compat_rules_drop_arch(&f->rules, arch);
	compat_filter_changed(f);
	return 0;
}

/* --- attributes ------------------------------------------------------------ */

static uint32_t *attr_slot(struct compat_filter *f, enum scmp_filter_attr attr)
{
	switch (attr) {
	case SCMP_FLTATR_ACT_DEFAULT:
		return &f->attr.act_default;
	case SCMP_FLTATR_ACT_BADARCH:
		return &f->attr.act_badarch;
	case SCMP_FLTATR_CTL_NNP:
		return &f->attr.nnp;
	case SCMP_FLTATR_CTL_TSYNC:
		return &f->attr.tsync;
	case SCMP_FLTATR_API_TSKIP:
		return &f->attr.tskip;
	case SCMP_FLTATR_CTL_LOG:
		return &f->attr.log;
	case SCMP_FLTATR_CTL_SSB:
		return &f->attr.ssb;
	case SCMP_FLTATR_CTL_OPTIMIZE:
		return &f->attr.optimize;
	case SCMP_FLTATR_API_SYSRAWRC:
		return &f->attr.sysrawrc;
	case SCMP_FLTATR_CTL_WAITKILL:
		return &f->attr.waitkill;
	case _SCMP_FLTATR_MIN:
	case _SCMP_FLTATR_MAX:
		break;
	}
	return NULL;
}

COMPAT_API int seccomp_attr_get(const scmp_filter_ctx ctx, enum scmp_filter_attr attr,
				uint32_t *value)
{
	struct compat_filter *f = compat_filter_of(ctx);
	uint32_t *slot = f != NULL ? attr_slot(f, attr) : NULL;
	if (slot == NULL || value == NULL)
		return -EINVAL;
	*value = *slot;
	return 0;
}

/*
 * The API level a flag attribute needs (the kernel must support the flag).
 * Below it the attribute cannot be set at all, not even to 0.  WAITKILL is
 * taken at any level, as libseccomp 2.6 does, and used only where the kernel
 * has the flag (generate.c).
 */
static unsigned attr_api_level(enum scmp_filter_attr attr)
{
	if (attr == SCMP_FLTATR_CTL_TSYNC)
		return 2;
	if (attr == SCMP_FLTATR_CTL_LOG)
		return 3;
	if (attr == SCMP_FLTATR_CTL_SSB)
		return 4;
	return 1;
}

COMPAT_API int seccomp_attr_set(scmp_filter_ctx ctx, enum scmp_filter_attr attr, uint32_t value)
{
	struct compat_filter *f = compat_filter_of(ctx);
	uint32_t *slot = f != NULL ? attr_slot(f, attr) : NULL;
	if (slot == NULL)
		return -EINVAL;
	if (attr == SCMP_FLTATR_ACT_DEFAULT)
		return -EACCES; /* fixed by seccomp_init() */
	if (attr == SCMP_FLTATR_ACT_BADARCH) {
		if (compat_action_valid(value) < 0)
			return -EINVAL;
		*slot = value;
	} else if (attr == SCMP_FLTATR_CTL_OPTIMIZE) {
		if (value != 1 && value != 2)
			return -EOPNOTSUPP;
		*slot = value;
	} else {
		if (compat_api_level() < attr_api_level(attr))
			return -EOPNOTSUPP;
		/* TSYNC and a listener exclude each other before TSYNC_ESRCH (level 6). */
		if (attr == SCMP_FLTATR_CTL_TSYNC && value != 0 && compat_api_level() < 6 &&
		    compat_uses_notify(f))
			return -EINVAL;
		*slot = value != 0;
	}
	compat_filter_changed(f);
	return 0;
}
