/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* seccomp return values: classification, canonical text, parsing. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <syscage/arch.h>
#include <syscage/bpf.h>

#include "util/number.h"

enum scg_action scg_action_of(uint32_t ret)
{
	switch (ret & SCG_RET_ACTION_FULL) {
	case SCG_RET_KILL_PROCESS:
		return SCG_ACTION_KILL_PROCESS;
	case SCG_RET_KILL_THREAD:
		return SCG_ACTION_KILL_THREAD;
	case SCG_RET_TRAP:
		return SCG_ACTION_TRAP;
	case SCG_RET_ERRNO:
		return SCG_ACTION_ERRNO;
	case SCG_RET_USER_NOTIF:
		return SCG_ACTION_USER_NOTIF;
	case SCG_RET_TRACE:
		return SCG_ACTION_TRACE;
	case SCG_RET_LOG:
		return SCG_ACTION_LOG;
	case SCG_RET_ALLOW:
		return SCG_ACTION_ALLOW;
	default:
		return SCG_ACTION_UNKNOWN;
	}
}

static const struct {
	enum scg_action action;
	const char *name;
	uint32_t value;
} action_names[] = {
	{ SCG_ACTION_KILL_PROCESS, "KILL_PROCESS", SCG_RET_KILL_PROCESS },
	{ SCG_ACTION_KILL_THREAD, "KILL_THREAD", SCG_RET_KILL_THREAD },
	{ SCG_ACTION_TRAP, "TRAP", SCG_RET_TRAP },
	{ SCG_ACTION_ERRNO, "ERRNO", SCG_RET_ERRNO },
	{ SCG_ACTION_USER_NOTIF, "USER_NOTIF", SCG_RET_USER_NOTIF },
	{ SCG_ACTION_TRACE, "TRACE", SCG_RET_TRACE },
	{ SCG_ACTION_LOG, "LOG", SCG_RET_LOG },
	{ SCG_ACTION_ALLOW, "ALLOW", SCG_RET_ALLOW },
};

const char *scg_action_name(enum scg_action action)
{
	for (size_t i = 0; i < sizeof(action_names) / sizeof(action_names[0]); i++)
		if (action_names[i].action == action)
			return action_names[i].name;
	return "UNKNOWN";
}

bool scg_action_has_data(enum scg_action action)
{
	return action == SCG_ACTION_ERRNO || action == SCG_ACTION_TRAP ||
	       action == SCG_ACTION_TRACE;
}

int scg_ret_format(uint32_t ret, char *buf, size_t size)
{
	enum scg_action action = scg_action_of(ret);
	if (action == SCG_ACTION_UNKNOWN)
		return snprintf(buf, size, "UNKNOWN(%#x)", ret);
	if (scg_action_has_data(action))
		return snprintf(buf, size, "%s(%u)", scg_action_name(action), ret & SCG_RET_DATA);
	return snprintf(buf, size, "%s", scg_action_name(action));
}

/* Resolves the data inside "ERRNO(...)" etc.: a number or an errno name. */
static int parse_action_data(const char *s, size_t len, const struct scg_arch *arch,
			     uint32_t *data)
{
	uint32_t v;
	if (scg_parse_u32(s, len, &v) == 0) {
		if (v > SCG_RET_DATA)
			return -ERANGE;
		*data = v;
		return 0;
	}
	char name[32];
	if (len == 0 || len >= sizeof(name))
		return -EINVAL;
	memcpy(name, s, len);
	name[len] = '\0';
	return scg_errno_lookup(arch, name, data);
}

int scg_ret_parse(const char *text, const struct scg_arch *arch, uint32_t *ret)
{
	const char *open = strchr(text, '(');
	size_t name_len = open ? (size_t)(open - text) : strlen(text);
	while (name_len && isspace((unsigned char)text[name_len - 1]))
		name_len--;

	uint32_t value;
	bool found = false;
	if (name_len == 4 && !strncasecmp(text, "KILL", 4)) {
		value = SCG_RET_KILL_THREAD; /* the kernel's historical SECCOMP_RET_KILL */
		found = true;
	}
	for (size_t i = 0; !found && i < sizeof(action_names) / sizeof(action_names[0]); i++) {
		if (strlen(action_names[i].name) == name_len &&
		    !strncasecmp(text, action_names[i].name, name_len)) {
			value = action_names[i].value;
			found = true;
		}
	}
	if (!found)
		return -EINVAL;
	if (!open) {
		*ret = value;
		return 0;
	}
	const char *close = strchr(open, ')');
	if (!close || close[1] != '\0' || !scg_action_has_data(scg_action_of(value)))
		return -EINVAL;
	uint32_t data;
	int r = parse_action_data(open + 1, (size_t)(close - open - 1), arch, &data);
	if (r < 0)
		return -EINVAL;
	*ret = value | data;
	return 0;
}
