/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * compile-stats: syscage's compiler against libseccomp on the same policy.
 *
 * For each policy: the rules are handed to libseccomp (optimisation levels
 * 1 and 2, exported as BPF) and to scg_compile() (-O0 and -O1).  Every
 * program then runs in the emulator on every syscall number of every
 * target ABI, giving the instructions executed (mean and maximum) and the
 * length; compilation is timed as the median of N runs.  libseccomp is a
 * dependency of this benchmark only.
 *
 *   build/bench/compile-stats [-n RUNS] POLICY...
 *
 * POLICY is a built-in synthetic policy (see --help), a Docker/OCI JSON
 * profile (*.json) or a policy file.
 */
#include <errno.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <syscage/syscage.h>

#include "bench_input.h"
#include "scmp_rules.h"
#include "bpf/emu_internal.h"

#define MAX_RUNS 1000

struct result {
	const char *name;
	size_t len;
	double mean;
	size_t max;
	struct scg_prog prog; /* kept for the workload-weighted measure */
	double compile_us;
	bool ok;
	const char *why; /* when !ok, or a remark */
	char note[64];
};

static double now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double median(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Instructions executed for every syscall number of every target ABI. */
static void measure(const struct scg_policy *policy, const struct scg_prog *prog, struct result *r)
{
	double sum = 0;
	size_t count = 0;
	r->max = 0;
	r->len = prog->len;
	for (size_t t = 0; t < scg_policy_arch_count(policy); t++) {
		const struct scg_arch *arch = scg_policy_arch_at(policy, t);
		for (size_t i = 0; i < scg_syscall_count(arch); i++) {
			struct scg_seccomp_data d = { .arch = scg_arch_audit(arch) };
			scg_syscall_at(arch, i, NULL, &d.nr);
			uint32_t words[SCG_EMU_WORDS];
			size_t executed = 0;
			emu_layout(&d, words);
			emu_exec(prog, words, 0, &executed, NULL, NULL);
			sum += (double)executed;
			count++;
			if (executed > r->max)
				r->max = executed;
		}
	}
	r->mean = count ? sum / (double)count : 0;
}

/*
 * Instructions executed per call on the paths the kernel's cache cannot
 * skip, weighted by the built-in workload profile (what programs actually
 * call), over every target ABI (each given the same workload).  Fair to
 * both sides: a syscall counts when either program sends it down an
 * uncached path; arguments are 0.
 */
static double weighted_uncached(const struct scg_policy *policy, const struct result *r, size_t n,
				size_t which)
{
	size_t nw;
	const struct scg_syscall_weight *w = scg_compile_builtin_weights(&nw);
	double sum = 0, calls = 0;
	for (size_t t = 0; t < scg_policy_arch_count(policy); t++) {
		const struct scg_arch *arch = scg_policy_arch_at(policy, t);
		for (size_t i = 0; i < nw; i++) {
			struct scg_seccomp_data d = { .arch = scg_arch_audit(arch) };
			if (scg_syscall_lookup(arch, w[i].name, &d.nr) < 0)
				continue;
			bool uncached = false;
			for (size_t k = 0; k < n; k++)
				if (r[k].ok && !scg_cache_const_allow(&r[k].prog, d.arch, d.nr))
					uncached = true;
			if (!uncached)
				continue;
			uint32_t words[SCG_EMU_WORDS];
			size_t executed = 0;
			emu_layout(&d, words);
			emu_exec(&r[which].prog, words, 0, &executed, NULL, NULL);
			sum += (double)executed * (double)w[i].count;
			calls += (double)w[i].count;
		}
	}
	return calls > 0 ? sum / calls : 0;
}

/* --- libseccomp ------------------------------------------------------------ */

static void run_libseccomp(const struct scg_policy *p, int level, size_t runs, struct result *res)
{
	double times[MAX_RUNS];
	size_t skipped = 0;
	struct scg_prog prog = { 0 };
	res->ok = false;
	struct scmp_rule *rules = malloc(scmp_rules_max(p) * sizeof(*rules));
	if (!rules) {
		res->why = "out of memory";
		return;
	}
	size_t nrules = scmp_rules(p, rules, &skipped);
	for (size_t k = 0; k < runs; k++) {
		double t0 = now_us();
		scmp_filter_ctx ctx = scmp_build(p, rules, nrules, level);
		int r = ctx ? scmp_export(ctx, &prog) : -ENOMEM;
		times[k] = now_us() - t0;
		seccomp_release(ctx);
		if (r < 0) {
			res->why = "libseccomp failed";
			free(rules);
			return;
		}
		if (k + 1 < runs)
			scg_prog_release(&prog);
	}
	free(rules);
	res->compile_us = median(times, runs);
	measure(p, &prog, res);
	res->ok = true;
	if (skipped) {
		snprintf(res->note, sizeof(res->note), "%zu rules not given to libseccomp", skipped);
		res->why = res->note;
	}
	res->prog = prog;
}

static void run_syscage(const struct scg_policy *p, unsigned optimize, bool unweighted,
			size_t runs, struct result *res)
{
	double times[MAX_RUNS];
	struct scg_prog prog = { 0 };
	struct scg_compile_options opts = { .optimize = optimize, .unweighted = unweighted };
	res->ok = false;
	for (size_t k = 0; k < runs; k++) {
		double t0 = now_us();
		int r = scg_compile(p, &opts, &prog, NULL);
		times[k] = now_us() - t0;
		if (r < 0) {
			res->why = r == -E2BIG ? "over 4096 instructions" : strerror(-r);
			return;
		}
		if (k + 1 < runs)
			scg_prog_release(&prog);
	}
	res->compile_us = median(times, runs);
	measure(p, &prog, res);
	res->ok = true;
	res->why = NULL;
	res->prog = prog;
}

static void print_table(const char *policy_name, const struct scg_policy *p, struct result *r,
			size_t n, size_t runs)
{
	printf("\n%s: %zu rules, ABIs", policy_name, scg_policy_rule_count(p));
	for (size_t t = 0; t < scg_policy_arch_count(p); t++)
		printf(" %s", scg_arch_name(scg_policy_arch_at(p, t)));
	printf("; compile time is the median of %zu runs\n\n", runs);
	printf("| compiler | length | executed mean | executed max | uncached, weighted | compile us "
	       "| time vs libseccomp-2 |\n");
	printf("|---|---|---|---|---|---|---|\n");
	double base = r[1].ok ? r[1].compile_us : 0;
	for (size_t i = 0; i < n; i++) {
		if (!r[i].ok) {
			printf("| %s | - | - | - | - | - | %s |\n", r[i].name, r[i].why);
			continue;
		}
		printf("| %s | %zu | %.2f | %zu | %.2f | %.1f | ", r[i].name, r[i].len, r[i].mean,
		       r[i].max, weighted_uncached(p, r, n, i), r[i].compile_us);
		if (base > 0)
			printf("%.3f", r[i].compile_us / base);
		printf("%s%s |\n", r[i].why ? "; " : "", r[i].why ? r[i].why : "");
	}
}

static void usage(FILE *out)
{
	fprintf(out, "usage: compile-stats [-n RUNS] POLICY...\n\nPOLICY: a file (*.json: OCI/Docker "
		     "profile; otherwise policy language) or a built-in:\n");
	for (size_t i = 0; i < bench_synthetic_count(); i++)
		fprintf(out, "  %-16s %s\n", bench_synthetic_name(i), bench_synthetic_summary(i));
}

int main(int argc, char **argv)
{
	size_t runs = 51;
	int first = 1;
	if (argc > 1 && !strcmp(argv[1], "--help")) {
		usage(stdout);
		return 0;
	}
	if (argc > 2 && !strcmp(argv[1], "-n")) {
		runs = strtoul(argv[2], NULL, 10);
		if (runs == 0 || runs > MAX_RUNS)
			runs = 51;
		first = 3;
	}
	if (first >= argc) {
		usage(stderr);
		return 2;
	}
	for (int i = first; i < argc; i++) {
		struct scg_policy *p = NULL;
		if (bench_load_policy(argv[i], &p) < 0)
			return 2;
		struct result r[5] = {
			{ .name = "libseccomp 2.5, optimize 1 (linear)" },
			{ .name = "libseccomp 2.5, optimize 2 (binary tree)" },
			{ .name = "syscage -O0" },
			{ .name = "syscage -O1, no workload profile" },
			{ .name = "syscage -O1" },
		};
		run_libseccomp(p, 1, runs, &r[0]);
		run_libseccomp(p, 2, runs, &r[1]);
		run_syscage(p, 0, false, runs, &r[2]);
		run_syscage(p, 1, true, runs, &r[3]);
		run_syscage(p, 1, false, runs, &r[4]);
		print_table(argv[i], p, r, 5, runs);
		for (size_t k = 0; k < 5; k++)
			scg_prog_release(&r[k].prog);
		scg_policy_free(p);
	}
	return 0;
}
