/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the running kernel's seccomp can do, as the commands see it.
 *
 * SYSCAGE_DISABLE_FEATURES names features to treat as missing, so that the
 * paths syscage takes on older kernels (no user notifications before 5.0,
 * no WAIT_KILLABLE_RECV before 5.19, ...) can be tested here, and so that
 * a user can step around a feature a kernel gets wrong.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

struct feature_name {
	const char *name;
	uint32_t flag;   /* SCG_FILTER_FLAG_*, or 0 */
	uint32_t action; /* 1 << enum scg_action, or 0 */
};

static const struct feature_name features[] = {
	{ "tsync", SCG_FILTER_FLAG_TSYNC, 0 },
	{ "log", SCG_FILTER_FLAG_LOG, 0 },
	{ "spec-allow", SCG_FILTER_FLAG_SPEC_ALLOW, 0 },
	{ "new-listener", SCG_FILTER_FLAG_NEW_LISTENER, 0 },
	{ "tsync-esrch", SCG_FILTER_FLAG_TSYNC_ESRCH, 0 },
	{ "wait-killable-recv", SCG_FILTER_FLAG_WAIT_KILLABLE_RECV, 0 },
	{ "user-notif", SCG_FILTER_FLAG_NEW_LISTENER, 1U << SCG_ACTION_USER_NOTIF },
};

static void disable(struct scg_features *f, const char *name, size_t len)
{
	for (size_t i = 0; i < sizeof(features) / sizeof(features[0]); i++) {
		if (strlen(features[i].name) == len && !strncmp(features[i].name, name, len)) {
			f->flags &= ~features[i].flag;
			f->actions &= ~features[i].action;
			return;
		}
	}
	static bool warned; /* several probes in one run: one warning */
	if (warned)
		return;
	warned = true;
	cli_error("warning: SYSCAGE_DISABLE_FEATURES: unknown feature '%.*s' (tsync, log, "
		  "spec-allow, new-listener, tsync-esrch, wait-killable-recv, user-notif)",
		  (int)len, name);
}

int cli_features_probe(struct scg_features *f)
{
	int r = scg_features_probe(f);
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
