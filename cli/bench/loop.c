/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The clocks and the CPU bench uses, and one repetition of a measurement
 * through the library's scg_measure_syscall(), which times the loop in a
 * fresh filtered child.
 */
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "bench.h"

double bench_now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

int bench_pick_cpu(void)
{
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof(set), &set) < 0)
		return -1;
	for (int cpu = CPU_SETSIZE - 1; cpu >= 0; cpu--)
		if (CPU_ISSET(cpu, &set))
			return cpu;
	return -1;
}

int bench_measure_rep(const struct bench_params *params, const struct scg_prog *progs,
		      size_t nprogs, const struct bench_call *call, struct bench_timing *t, double *ns)
{
	SCG_OPTS(scg_measure_opts, opts, .cpu = params->cpu, .calls = t->calls,
		 .rep_ms = params->rep_ms);
	struct scg_measure_call c = { .nr = call->nr };
	memcpy(c.args, call->args, sizeof(c.args));
	struct scg_measure_result res;
	int r = scg_measure_syscall(progs, nprogs, &c, &opts, &res);
	if (r < 0) {
		snprintf(t->error, sizeof(t->error), "%s", res.error);
		return r;
	}
	t->cpu_clock = res.cpu_clock;
	t->calls = res.calls;
	t->result = res.result;
	*ns = res.ns_per_call;
	return 0;
}
