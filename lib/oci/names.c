/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The vocabulary of OCI and Docker profiles: SCMP_ACT_*, SCMP_CMP_*,
 * SCMP_ARCH_*, Go architecture names, capabilities, and the calls that
 * 32-bit ABIs multiplex through socketcall(2) and ipc(2).
 */
#include <errno.h>
#include <string.h>
#include <strings.h>

#include "internal.h"
#include "util/suggest.h"

#define N_ELEMS(a) (sizeof(a) / sizeof((a)[0]))

/* --- actions ---------------------------------------------------------------- */

static const char *const action_names[] = {
	[OCI_ACT_KILL] = "SCMP_ACT_KILL",
	[OCI_ACT_KILL_THREAD] = "SCMP_ACT_KILL_THREAD",
	[OCI_ACT_KILL_PROCESS] = "SCMP_ACT_KILL_PROCESS",
	[OCI_ACT_TRAP] = "SCMP_ACT_TRAP",
	[OCI_ACT_ERRNO] = "SCMP_ACT_ERRNO",
	[OCI_ACT_TRACE] = "SCMP_ACT_TRACE",
	[OCI_ACT_ALLOW] = "SCMP_ACT_ALLOW",
	[OCI_ACT_LOG] = "SCMP_ACT_LOG",
	[OCI_ACT_NOTIFY] = "SCMP_ACT_NOTIFY",
};

/* Exact match, as runc's map lookup: "scmp_act_allow" is refused. */
int oci_action_lookup(const char *name, enum oci_action *out)
{
	for (size_t i = 0; i < N_ELEMS(action_names); i++) {
		if (!strcmp(name, action_names[i])) {
			*out = (enum oci_action)i;
			return 0;
		}
	}
	return -ENOENT;
}

const char *oci_action_name(enum oci_action action)
{
	return (size_t)action < N_ELEMS(action_names) ? action_names[action] : "?";
}

static const char *suggest_from(const char *word, const char *const *names, size_t n,
				const char *prefix)
{
	struct suggest s;
	suggest_init(&s, word);
	for (size_t i = 0; i < n; i++)
		if (names[i])
			suggest_consider(&s, names[i]);
	if (suggest_result(&s) || !prefix)
		return suggest_result(&s);
	/* "ALLOW" for "SCMP_ACT_ALLOW": compare without the prefix too */
	size_t plen = strlen(prefix);
	for (size_t i = 0; i < n; i++)
		if (names[i] && !strncmp(names[i], prefix, plen) &&
		    !strcasecmp(word, names[i] + plen))
			return names[i];
	for (size_t i = 0; i < n; i++)
		if (names[i] && !strcasecmp(word, names[i]))
			return names[i];
	return NULL;
}

const char *oci_action_suggest(const char *name)
{
	return suggest_from(name, action_names, N_ELEMS(action_names), "SCMP_ACT_");
}

/*
 * runc: KILL is KILL_THREAD; ERRNO and TRACE carry errnoRet, EPERM when
 * absent; libseccomp-golang keeps the low 16 bits of it (an int16).
 */
uint32_t oci_action_ret(enum oci_action action, const uint32_t *errno_ret)
{
	uint32_t data = errno_ret ? (*errno_ret & SCG_RET_DATA) : 1U /* EPERM */;
	switch (action) {
	case OCI_ACT_KILL:
	case OCI_ACT_KILL_THREAD:
		return SCG_RET_KILL_THREAD;
	case OCI_ACT_KILL_PROCESS:
		return SCG_RET_KILL_PROCESS;
	case OCI_ACT_TRAP:
		return SCG_RET_TRAP;
	case OCI_ACT_ERRNO:
		return SCG_RET_ERRNO | data;
	case OCI_ACT_TRACE:
		return SCG_RET_TRACE | data;
	case OCI_ACT_ALLOW:
		return SCG_RET_ALLOW;
	case OCI_ACT_LOG:
		return SCG_RET_LOG;
	case OCI_ACT_NOTIFY:
		return SCG_RET_USER_NOTIF;
	}
	return SCG_RET_KILL_PROCESS;
}

/* runc's isAllowAction(): a tracer is expected to handle new syscalls itself. */
bool oci_action_permissive(enum oci_action action)
{
	return action == OCI_ACT_ALLOW || action == OCI_ACT_LOG || action == OCI_ACT_TRACE;
}

/* --- comparison operators ------------------------------------------------- */

static const char *const op_names[] = {
	[OCI_OP_NE] = "SCMP_CMP_NE",
	[OCI_OP_LT] = "SCMP_CMP_LT",
	[OCI_OP_LE] = "SCMP_CMP_LE",
	[OCI_OP_EQ] = "SCMP_CMP_EQ",
	[OCI_OP_GE] = "SCMP_CMP_GE",
	[OCI_OP_GT] = "SCMP_CMP_GT",
	[OCI_OP_MASKED_EQ] = "SCMP_CMP_MASKED_EQ",
};

int oci_op_lookup(const char *name, enum oci_op *out)
{
	for (size_t i = 1; i < N_ELEMS(op_names); i++) {
		if (!strcmp(name, op_names[i])) {
			*out = (enum oci_op)i;
			return 0;
		}
	}
	return -ENOENT;
}

const char *oci_op_name(enum oci_op op)
{
	return (size_t)op < N_ELEMS(op_names) && op_names[op] ? op_names[op] : "?";
}

const char *oci_op_suggest(const char *name)
{
	return suggest_from(name, op_names, N_ELEMS(op_names), "SCMP_CMP_");
}

/* --- architectures --------------------------------------------------------- */

struct arch_name {
	const char *scmp;
	const char *scg;
	bool runc; /* in runc's list of accepted architectures */
};

static const struct arch_name arch_names[] = {
	{ "SCMP_ARCH_X86", "x86", true },
	{ "SCMP_ARCH_X86_64", "x86_64", true },
	{ "SCMP_ARCH_X32", "x32", true },
	{ "SCMP_ARCH_ARM", "arm", true },
	{ "SCMP_ARCH_AARCH64", "aarch64", true },
	{ "SCMP_ARCH_MIPS", "mips", true },
	{ "SCMP_ARCH_MIPS64", "mips64", true },
	{ "SCMP_ARCH_MIPS64N32", "mips64n32", true },
	{ "SCMP_ARCH_MIPSEL", "mipsel", true },
	{ "SCMP_ARCH_MIPSEL64", "mipsel64", true },
	{ "SCMP_ARCH_MIPSEL64N32", "mipsel64n32", true },
	{ "SCMP_ARCH_PPC", "ppc", true },
	{ "SCMP_ARCH_PPC64", "ppc64", true },
	{ "SCMP_ARCH_PPC64LE", "ppc64le", true },
	{ "SCMP_ARCH_S390", "s390", true },
	{ "SCMP_ARCH_S390X", "s390x", true },
	{ "SCMP_ARCH_RISCV64", "riscv64", true },
	{ "SCMP_ARCH_LOONGARCH64", "loongarch64", true },
	{ "SCMP_ARCH_PARISC", "parisc", false },
	{ "SCMP_ARCH_PARISC64", "parisc64", false },
	{ "SCMP_ARCH_M68K", "m68k", false },
	{ "SCMP_ARCH_SH", "sh", false },
	{ "SCMP_ARCH_SHEB", "sheb", false },
};

const struct scg_arch *oci_arch_lookup(const char *scmp_name)
{
	for (size_t i = 0; i < N_ELEMS(arch_names); i++)
		if (!strcmp(scmp_name, arch_names[i].scmp))
			return scg_arch_lookup(arch_names[i].scg);
	return NULL;
}

const char *oci_arch_scmp_name(const struct scg_arch *arch)
{
	for (size_t i = 0; i < N_ELEMS(arch_names); i++)
		if (scg_arch_lookup(arch_names[i].scg) == arch)
			return arch_names[i].scmp;
	return NULL;
}

bool oci_arch_runc_knows(const struct scg_arch *arch)
{
	for (size_t i = 0; i < N_ELEMS(arch_names); i++)
		if (scg_arch_lookup(arch_names[i].scg) == arch)
			return arch_names[i].runc;
	return false;
}

const char *oci_arch_suggest(const char *scmp_name)
{
	const char *names[N_ELEMS(arch_names)];
	for (size_t i = 0; i < N_ELEMS(arch_names); i++)
		names[i] = arch_names[i].scmp;
	const char *s = suggest_from(scmp_name, names, N_ELEMS(names), "SCMP_ARCH_");
	if (s)
		return s;
	/* "amd64", "aarch64": a syscage or Go name where the SCMP name belongs */
	const struct scg_arch *arch = scg_arch_lookup(scmp_name);
	return arch ? oci_arch_scmp_name(arch) : NULL;
}

/* --- hosts ------------------------------------------------------------------ */

/*
 * Docker turns runtime.GOARCH into a "native" name (goToNative) and that
 * into the archMap key (nativeToSeccomp).  Its table has no entry for
 * "mipsel" (it has "mipsle"), so Docker ignores archMap on such hosts;
 * GOARCH "mips" has no entry at all.  Kept as Docker has them.
 */
struct host_row {
	const char *go;
	const char *docker;  /* NULL: not in goToNative */
	const char *archmap; /* SCMP name, NULL: not in nativeToSeccomp */
	const char *native;  /* syscage ABI */
};

static const struct host_row hosts[] = {
	{ "386", "x86", "SCMP_ARCH_X86", "x86" },
	{ "amd64", "amd64", "SCMP_ARCH_X86_64", "x86_64" },
	{ "arm", "arm", "SCMP_ARCH_ARM", "arm" },
	{ "arm64", "arm64", "SCMP_ARCH_AARCH64", "aarch64" },
	{ "mips", NULL, NULL, "mips" },
	{ "mipsle", "mipsel", NULL, "mipsel" },
	{ "mips64", "mips64", "SCMP_ARCH_MIPS64", "mips64" },
	{ "mips64le", "mipsel64", "SCMP_ARCH_MIPSEL64", "mipsel64" },
	{ "mips64p32", "mips64n32", "SCMP_ARCH_MIPS64N32", "mips64n32" },
	{ "mips64p32le", "mips3l64n32", "SCMP_ARCH_MIPSEL64N32", "mipsel64n32" },
	{ "ppc", "ppc", "SCMP_ARCH_PPC", "ppc" },
	{ "ppc64", "ppc64", "SCMP_ARCH_PPC64", "ppc64" },
	{ "ppc64le", "ppc64le", "SCMP_ARCH_PPC64LE", "ppc64le" },
	{ "riscv64", "riscv64", "SCMP_ARCH_RISCV64", "riscv64" },
	{ "s390", "s390", "SCMP_ARCH_S390", "s390" },
	{ "s390x", "s390x", "SCMP_ARCH_S390X", "s390x" },
	{ "loong64", "loong64", "SCMP_ARCH_LOONGARCH64", "loongarch64" },
};

static void host_fill(const struct host_row *row, struct oci_host *out)
{
	out->go_name = row->go;
	out->docker_name = row->docker;
	out->archmap = row->archmap ? oci_arch_lookup(row->archmap) : NULL;
	out->native = scg_arch_lookup(row->native);
}

bool oci_host_lookup(const char *name, struct oci_host *out)
{
	for (size_t i = 0; i < N_ELEMS(hosts); i++) {
		if (!strcmp(name, hosts[i].go)) {
			host_fill(&hosts[i], out);
			return true;
		}
	}
	/* a syscage name or alias ("x86_64", "aarch64", "i686") of a host ABI */
	const struct scg_arch *arch = scg_arch_lookup(name);
	for (size_t i = 0; arch && i < N_ELEMS(hosts); i++) {
		if (scg_arch_lookup(hosts[i].native) == arch) {
			host_fill(&hosts[i], out);
			return true;
		}
	}
	return false;
}

bool oci_host_native(struct oci_host *out)
{
	const struct scg_arch *native = scg_arch_native();
	for (size_t i = 0; native && i < N_ELEMS(hosts); i++) {
		if (scg_arch_lookup(hosts[i].native) == native) {
			host_fill(&hosts[i], out);
			return true;
		}
	}
	return false;
}

const char *oci_host_suggest(const char *name)
{
	const char *names[N_ELEMS(hosts)];
	for (size_t i = 0; i < N_ELEMS(hosts); i++)
		names[i] = hosts[i].go;
	return suggest_from(name, names, N_ELEMS(names), NULL);
}

/* --- capabilities ---------------------------------------------------------- */

static const char *const cap_names[OCI_CAP_COUNT] = {
	"CAP_CHOWN",	       "CAP_DAC_OVERRIDE",   "CAP_DAC_READ_SEARCH", "CAP_FOWNER",
	"CAP_FSETID",	       "CAP_KILL",	     "CAP_SETGID",	    "CAP_SETUID",
	"CAP_SETPCAP",	       "CAP_LINUX_IMMUTABLE", "CAP_NET_BIND_SERVICE", "CAP_NET_BROADCAST",
	"CAP_NET_ADMIN",       "CAP_NET_RAW",	     "CAP_IPC_LOCK",	    "CAP_IPC_OWNER",
	"CAP_SYS_MODULE",      "CAP_SYS_RAWIO",	     "CAP_SYS_CHROOT",	    "CAP_SYS_PTRACE",
	"CAP_SYS_PACCT",       "CAP_SYS_ADMIN",	     "CAP_SYS_BOOT",	    "CAP_SYS_NICE",
	"CAP_SYS_RESOURCE",    "CAP_SYS_TIME",	     "CAP_SYS_TTY_CONFIG",  "CAP_MKNOD",
	"CAP_LEASE",	       "CAP_AUDIT_WRITE",    "CAP_AUDIT_CONTROL",   "CAP_SETFCAP",
	"CAP_MAC_OVERRIDE",    "CAP_MAC_ADMIN",	     "CAP_SYSLOG",	    "CAP_WAKE_ALARM",
	"CAP_BLOCK_SUSPEND",   "CAP_AUDIT_READ",     "CAP_PERFMON",	    "CAP_BPF",
	"CAP_CHECKPOINT_RESTORE",
};

int oci_cap_lookup(const char *name)
{
	const char *bare = !strncasecmp(name, "CAP_", 4) ? name + 4 : name;
	for (int i = 0; i < OCI_CAP_COUNT; i++)
		if (!strcasecmp(bare, cap_names[i] + 4))
			return i;
	return -1;
}

const char *oci_cap_name(int cap)
{
	return cap >= 0 && cap < OCI_CAP_COUNT ? cap_names[cap] : NULL;
}

const char *oci_cap_suggest(const char *name)
{
	return suggest_from(name, cap_names, OCI_CAP_COUNT, NULL);
}

/* moby oci/caps DefaultCapabilities(): what `docker run` grants without --cap-add. */
uint64_t oci_cap_docker_default(void)
{
	static const char *const docker_default[] = {
		"CHOWN", "DAC_OVERRIDE", "FSETID", "FOWNER", "MKNOD", "NET_RAW", "SETGID",
		"SETUID", "SETFCAP", "SETPCAP", "NET_BIND_SERVICE", "SYS_CHROOT", "KILL",
		"AUDIT_WRITE",
	};
	uint64_t set = 0;
	for (size_t i = 0; i < N_ELEMS(docker_default); i++)
		set |= 1ULL << oci_cap_lookup(docker_default[i]);
	return set;
}

/* --- socketcall(2) and ipc(2) ------------------------------------------ */

struct mux_call {
	const char *name;
	unsigned call;
	bool ipc;
};

/* Sub-call numbers (linux/net.h SYS_*, ipc's SEMOP...). */
static const struct mux_call mux_calls[] = {
	{ "socket", 1, false },	     { "bind", 2, false },	  { "connect", 3, false },
	{ "listen", 4, false },	     { "accept", 5, false },	  { "getsockname", 6, false },
	{ "getpeername", 7, false }, { "socketpair", 8, false },  { "send", 9, false },
	{ "recv", 10, false },	     { "sendto", 11, false },	  { "recvfrom", 12, false },
	{ "shutdown", 13, false },   { "setsockopt", 14, false }, { "getsockopt", 15, false },
	{ "sendmsg", 16, false },    { "recvmsg", 17, false },	  { "accept4", 18, false },
	{ "recvmmsg", 19, false },   { "sendmmsg", 20, false },	  { "semop", 1, true },
	{ "semget", 2, true },	     { "semctl", 3, true },	  { "semtimedop", 4, true },
	{ "msgsnd", 11, true },	     { "msgrcv", 12, true },	  { "msgget", 13, true },
	{ "msgctl", 14, true },	     { "shmat", 21, true },	  { "shmdt", 22, true },
	{ "shmget", 23, true },	     { "shmctl", 24, true },
};

unsigned oci_mux_call(const char *name, bool *is_ipc)
{
	for (size_t i = 0; i < N_ELEMS(mux_calls); i++) {
		if (!strcmp(name, mux_calls[i].name)) {
			*is_ipc = mux_calls[i].ipc;
			return mux_calls[i].call;
		}
	}
	return 0;
}

/*
 * The ABIs whose libseccomp 2.5 descriptor rewrites such rules (checked
 * against libseccomp 2.5.4: i386, MIPS o32, PowerPC, s390).
 */
bool oci_arch_has_mux(const struct scg_arch *arch)
{
	static const char *const mux_arches[] = {
		"x86", "mips", "mipsel", "ppc", "ppc64", "ppc64le", "s390", "s390x",
	};
	const char *name = scg_arch_name(arch);
	for (size_t i = 0; i < N_ELEMS(mux_arches); i++)
		if (!strcmp(name, mux_arches[i]))
			return true;
	return false;
}
