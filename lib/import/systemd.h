/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The systemd importer's insides: the syscall groups of the installed
 * systemd (systemd_groups.c, generated), the settings as systemd's parser
 * leaves them (systemd.c), and the filters systemd builds from them
 * (systemd_filters.c).
 */
#ifndef SCG_IMPORT_SYSTEMD_H
#define SCG_IMPORT_SYSTEMD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <syscage/diag.h>

#include "import/stack.h"

/* The tables below hold 16-bit offsets into string pools: no pointers to relocate. */
struct sd_group {
	uint16_t name, summary; /* offsets in sd_group_pool; name without '@' */
	uint16_t first, count;	/* members (names and "@group"s): sd_group_members[first ..] */
};
extern const char sd_group_pool[];
extern const uint16_t sd_group_members[];
extern const struct sd_group sd_groups[];
extern const size_t sd_group_count;
const struct sd_group *sd_group_find(const char *name);

static inline const char *sd_group_name(const struct sd_group *g)
{
	return sd_group_pool + g->name;
}

/* Member @i of @g, or NULL past the last. */
static inline const char *sd_group_member(const struct sd_group *g, size_t i)
{
	return i < g->count ? sd_group_pool + sd_group_members[g->first + i] : NULL;
}

/*
 * A syscall name libseccomp knows, with its number on x86_64, x86 and x32:
 * -1 none there, SD_NR_DIRECT a call i386 also multiplexes (socket, semop,
 * ...), whose direct number syscage's table gives.
 */
#define SD_NR_DIRECT (-2)
struct sd_name {
	uint16_t name; /* offset in sd_name_pool */
	int32_t nr[3];
};
extern const char sd_name_pool[];
extern const struct sd_name sd_names[]; /* sorted by name */
extern const size_t sd_name_count;
const struct sd_name *sd_name_find(const char *name);

static inline const char *sd_name_text(const struct sd_name *n)
{
	return sd_name_pool + n->name;
}
/* imp_resolve_fn over sd_names: names resolve as systemd's libseccomp resolves them. */
int sd_resolve(const struct scg_arch *arch, const char *name, uint32_t *nr);

/* An entry of a syscall list: the name and what it returns. */
enum { SD_ERRNO_NONE = -1, SD_ERRNO_KILL = -2 };
struct sd_entry {
	char *name;
	int err; /* SD_ERRNO_NONE, SD_ERRNO_KILL or 0..4095 */
	struct scg_loc loc;
};

/* A syscall list as SystemCallFilter= and SystemCallLog= build it: a set with a mode. */
struct sd_list {
	bool present; /* assigned and not reset */
	bool allow;   /* allow-list mode (the first assignment had no '~') */
	struct sd_entry *v;
	size_t n, cap;
	struct scg_loc loc; /* the first assignment */
};

struct sd_flag {
	bool on;
	struct scg_loc loc;
};

/* Everything the seccomp directives of a unit set, after systemd's merging rules. */
struct sd_settings {
	struct sd_list filter, log;
	int error_number; /* SD_ERRNO_KILL or 1..4095 */
	bool archs_present;
	uint32_t arch_mask; /* imp_abi_bit()s of the listed ABIs of this machine */
	struct scg_loc archs_loc;
	bool af_present, af_allow;
	uint64_t af_set; /* bit n: family n */
	struct scg_loc af_loc;
	bool ns_present;
	uint64_t ns_retain; /* the CLONE_NEW* flags left allowed */
	struct scg_loc ns_loc;
	struct sd_flag mdwx, lock_personality, realtime, suid_sgid, clock, modules, tunables,
	    kernel_logs, hostname, devices;
	struct sd_flag dynamic_user; /* implies RestrictSUIDSGID=yes, which it cannot turn off */
};

/* The unit-file sections systemd reads settings in. */
enum {
	SD_SECTION_UNIT = 1 << 0,
	SD_SECTION_SERVICE = 1 << 1,
	SD_SECTION_SOCKET = 1 << 2,
	SD_SECTION_MOUNT = 1 << 3,
	SD_SECTION_AUTOMOUNT = 1 << 4,
	SD_SECTION_SWAP = 1 << 5,
	SD_SECTION_TIMER = 1 << 6,
	SD_SECTION_PATH = 1 << 7,
	SD_SECTION_SLICE = 1 << 8,
	SD_SECTION_SCOPE = 1 << 9,
	SD_SECTION_INSTALL = 1 << 10,
};

/* Every setting systemd 252 knows, sorted by name (systemd_settings.c, generated). */
struct sd_setting_name {
	uint16_t name;	   /* offset in sd_setting_pool */
	uint16_t sections; /* SD_SECTION_* */
};
extern const char sd_setting_pool[];
extern const struct sd_setting_name sd_setting_names[];
extern const size_t sd_setting_count;

#define SD_AF_MAX 46		/* AF_MAX of the kernel headers systemd 252 was built with */
#define SD_NS_ALL 0x7e020080ULL /* cgroup ipc net mnt pid user uts time */

void sd_settings_release(struct sd_settings *s);
/* The ABIs a unit's processes may use: the targets, and the verdict for others. */
void sd_set_arches(const struct sd_settings *s, struct imp_stack *st);
/* Builds systemd's filters for @s, in the order systemd installs them.  0 or -ENOMEM. */
int sd_build_filters(const struct sd_settings *s, struct imp_stack *st);
/*
 * Adds @name, or each member of "@group" (recursively), to @layer with
 * @action, where some ABI of @st knows it.  0 or -ENOMEM.
 */
int sd_layer_add_names(const struct imp_stack *st, struct imp_layer *layer, const char *name,
		       uint32_t action, struct scg_loc loc);

#endif
