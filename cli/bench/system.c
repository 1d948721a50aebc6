/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the kernel says about itself that changes seccomp's cost: the BPF JIT. */
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "bench.h"

/* An integer from a /proc/sys file, or -1 when it cannot be read (often: not root). */
static int read_sysctl(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	int v;
	if (fscanf(f, "%d", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

void bench_system_read(struct bench_system *sys)
{
	memset(sys, 0, sizeof(*sys));
	sys->jit_enable = read_sysctl("/proc/sys/net/core/bpf_jit_enable");
	sys->jit_harden = read_sysctl("/proc/sys/net/core/bpf_jit_harden");
	struct utsname u;
	if (uname(&u) == 0) {
		snprintf(sys->kernel, sizeof(sys->kernel), "%s", u.release);
		snprintf(sys->machine, sizeof(sys->machine), "%s", u.machine);
	}
}

const char *bench_jit_text(int jit_enable)
{
	switch (jit_enable) {
	case -1: return "unreadable";
	case 0: return "off (interpreter)";
	case 1: return "on";
	case 2: return "on, with debug output";
	default: return "on (unknown mode)";
	}
}

const char *bench_harden_text(int jit_harden)
{
	switch (jit_harden) {
	case -1: return "unreadable";
	case 0: return "off";
	case 1: return "for unprivileged programs";
	case 2: return "for all programs";
	default: return "unknown mode";
	}
}
