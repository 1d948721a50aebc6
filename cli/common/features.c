/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the running kernel's seccomp can do, as the commands see it.
 *
 * SYSCAGE_DISABLE_FEATURES names features to treat as missing, so that the
 * paths syscage takes on older kernels (no user notifications before 5.0,
 * no WAIT_KILLABLE_RECV before 5.19, ...) and on kernels built without
 * 32-bit emulation, x32 or PTRACE_SECCOMP_GET_FILTER can be tested here, and
 * so that a user can step around a feature a kernel gets wrong.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "features.h"

/* The fields of struct scg_features that are plain booleans about the machine. */
enum machine_field {
	MACHINE_NONE,
	MACHINE_IA32,
	MACHINE_X32,
	MACHINE_PTRACE_GET_FILTER,
	MACHINE_LANDLOCK,       /* any Landlock ABI */
	MACHINE_LANDLOCK_SCOPE, /* Landlock ABI 6: scoped signals and abstract sockets */
	MACHINE_CGROUP_KILL,
};

struct feature_name {
	const char *name;
	uint32_t flag;   /* SCG_FILTER_FLAG_*, or 0 */
	uint32_t action; /* 1 << enum scg_action, or 0 */
	enum machine_field machine;
};

static const struct feature_name features[] = {
	{ "tsync", SCG_FILTER_FLAG_TSYNC, 0, MACHINE_NONE },
	{ "log", SCG_FILTER_FLAG_LOG, 0, MACHINE_NONE },
	{ "spec-allow", SCG_FILTER_FLAG_SPEC_ALLOW, 0, MACHINE_NONE },
	{ "new-listener", SCG_FILTER_FLAG_NEW_LISTENER, 0, MACHINE_NONE },
	{ "tsync-esrch", SCG_FILTER_FLAG_TSYNC_ESRCH, 0, MACHINE_NONE },
	{ "wait-killable-recv", SCG_FILTER_FLAG_WAIT_KILLABLE_RECV, 0, MACHINE_NONE },
	{ "user-notif", SCG_FILTER_FLAG_NEW_LISTENER, 1U << SCG_ACTION_USER_NOTIF, MACHINE_NONE },
	{ "i386-emulation", 0, 0, MACHINE_IA32 },
	{ "x32", 0, 0, MACHINE_X32 },
	{ "ptrace-get-filter", 0, 0, MACHINE_PTRACE_GET_FILTER },
	{ "landlock", 0, 0, MACHINE_LANDLOCK },
	{ "landlock-scope", 0, 0, MACHINE_LANDLOCK_SCOPE },
	{ "cgroup-kill", 0, 0, MACHINE_CGROUP_KILL },
};

#define NFEATURES (sizeof(features) / sizeof(features[0]))

/* The kernel's own word for it (the ia32_emulation= boot parameter) is accepted too. */
static const char ia32_alias[] = "ia32-emulation";

size_t cli_feature_count(void)
{
	return NFEATURES;
}

const char *cli_feature_name(size_t i)
{
	return i < NFEATURES ? features[i].name : NULL;
}

static bool machine_has(const struct scg_features *f, enum machine_field m)
{
	switch (m) {
	case MACHINE_IA32:
		return f->ia32_emulation;
	case MACHINE_X32:
		return f->x32;
	case MACHINE_PTRACE_GET_FILTER:
		return f->ptrace_get_filter;
	case MACHINE_LANDLOCK:
		return f->landlock_abi >= 1;
	case MACHINE_LANDLOCK_SCOPE:
		return f->landlock_abi >= 6;
	case MACHINE_CGROUP_KILL:
		return f->cgroup_kill;
	case MACHINE_NONE:
		break;
	}
	return true;
}

bool cli_feature_present(const struct scg_features *f, size_t i)
{
	if (i >= NFEATURES)
		return false;
	const struct feature_name *n = &features[i];
	return (f->flags & n->flag) == n->flag && (f->actions & n->action) == n->action &&
	       machine_has(f, n->machine);
}

static void clear(struct scg_features *f, const struct feature_name *n)
{
	f->flags &= ~n->flag;
	f->actions &= ~n->action;
	switch (n->machine) {
	case MACHINE_IA32:
		f->ia32_emulation = false;
		break;
	case MACHINE_X32:
		f->x32 = false;
		break;
	case MACHINE_PTRACE_GET_FILTER:
		f->ptrace_get_filter = false;
		f->ptrace_get_filter_error = ECANCELED;
		break;
	case MACHINE_LANDLOCK:
		f->landlock_abi = 0;
		break;
	case MACHINE_LANDLOCK_SCOPE: /* the ABI before scopes */
		if (f->landlock_abi > 5)
			f->landlock_abi = 5;
		break;
	case MACHINE_CGROUP_KILL:
		f->cgroup_kill = false;
		break;
	case MACHINE_NONE:
		break;
	}
}

static bool same_name(const char *name, const char *p, size_t len)
{
	return strlen(name) == len && !strncmp(name, p, len);
}

static void disable(struct scg_features *f, const char *name, size_t len)
{
	for (size_t i = 0; i < NFEATURES; i++) {
		if (same_name(features[i].name, name, len) ||
		    (features[i].machine == MACHINE_IA32 && same_name(ia32_alias, name, len))) {
			clear(f, &features[i]);
			return;
		}
	}
	static bool warned; /* several probes in one run: one warning */
	if (warned)
		return;
	warned = true;
	cli_error("warning: SYSCAGE_DISABLE_FEATURES: unknown feature '%.*s' (tsync, log, "
		  "spec-allow, new-listener, tsync-esrch, wait-killable-recv, user-notif, "
		  "ia32-emulation, x32, ptrace-get-filter, landlock, landlock-scope, cgroup-kill)",
		  (int)len, name);
}

static int probe(struct scg_features *f, bool machine)
{
	int r = machine ? scg_features_probe(f) : scg_features_probe_launch(f);
	const char *list = getenv("SYSCAGE_DISABLE_FEATURES");
	if (r < 0 || !list)
		return r;
	for (const char *p = list; *p;) {
		size_t len = strcspn(p, ", ");
		if (len)
			disable(f, p, len);
		p += len;
		p += strspn(p, ", ");
	}
	return 0;
}

int cli_features_probe(struct scg_features *f)
{
	return probe(f, false);
}

int cli_features_probe_machine(struct scg_features *f)
{
	return probe(f, true);
}
