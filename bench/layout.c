/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * layout-figures: what compiled filters cost per call the kernel's cache
 * cannot skip, side by side (bench/layout.sh runs it).
 *
 *   build/bench/layout-figures --libseccomp OUT POLICY
 *       writes libseccomp's filter for POLICY (optimisation level 2, the
 *       binary tree) to OUT, raw, for `syscage diff` to hold against
 *   build/bench/layout-figures POLICY LABEL=FILTER...
 *       prints, for each raw FILTER on POLICY's first target ABI: its
 *       length; the instructions executed per uncached call weighted by
 *       the built-in workload; their mean over the uncached syscall
 *       numbers, each once; the longest of those paths.  A number is
 *       uncached when any of the filters sends it down a path the cache
 *       cannot skip (so every filter is measured on the same numbers);
 *       arguments are 0.  Then each filter's ratios against the ones
 *       labelled kafel and libseccomp.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <syscage/syscage.h>

#include "bench_input.h"
#include "bpf/emu_internal.h"
#include "scmp_rules.h"

#define MAX_FILTERS 8

struct figures {
	const char *label;
	struct scg_prog prog;
	double weighted, uniform;
	size_t max;
};

static size_t executed(const struct scg_prog *prog, uint32_t audit, uint32_t nr)
{
	struct scg_seccomp_data d = {.arch = audit, .nr = nr};
	uint32_t words[SCG_EMU_WORDS];
	size_t n = 0;
	emu_layout(&d, words);
	emu_exec(prog, words, 0, &n, NULL, NULL);
	return n;
}

static void measure(const struct scg_arch *arch, struct figures *f, size_t nf)
{
	uint32_t audit = scg_arch_audit(arch);
	size_t nw;
	const struct scg_syscall_weight *w = scg_compile_builtin_weights(&nw);
	double sum_w[MAX_FILTERS] = {0}, sum_u[MAX_FILTERS] = {0}, calls = 0;
	size_t numbers = 0;
	for (size_t i = 0; i < scg_syscall_count(arch); i++) {
		const char *name;
		uint32_t nr;
		if (scg_syscall_at(arch, i, &name, &nr) < 0 ||
		    scg_arch_from_audit(audit, nr) != arch)
			continue;
		bool uncached = false;
		for (size_t k = 0; k < nf; k++)
			uncached |= !scg_cache_const_allow(&f[k].prog, audit, nr);
		if (!uncached)
			continue;
		uint64_t count = 0;
		for (size_t j = 0; j < nw; j++)
			if (!strcmp(w[j].name, name))
				count = w[j].count;
		numbers++;
		calls += (double)count;
		for (size_t k = 0; k < nf; k++) {
			size_t e = executed(&f[k].prog, audit, nr);
			sum_u[k] += (double)e;
			sum_w[k] += (double)e * (double)count;
			if (e > f[k].max)
				f[k].max = e;
		}
	}
	for (size_t k = 0; k < nf; k++) {
		f[k].uniform = numbers ? sum_u[k] / (double)numbers : 0;
		f[k].weighted = calls > 0 ? sum_w[k] / calls : 0;
	}
	printf(
	    "ABI %s: %zu uncached syscall numbers, %.0f calls of them in the built-in workload\n",
	    scg_arch_name(arch), numbers, calls);
}

static const struct figures *find(const struct figures *f, size_t nf, const char *label)
{
	for (size_t k = 0; k < nf; k++)
		if (!strcmp(f[k].label, label))
			return &f[k];
	return NULL;
}

static void ratio(double a, double b)
{
	if (b > 0)
		printf(" %.3f |", a / b);
	else
		printf(" - |");
}

static void print_table(const struct figures *f, size_t nf)
{
	const struct figures *kafel = find(f, nf, "kafel"), *scmp = find(f, nf, "libseccomp");
	printf(
	    "| filter | length | weighted uncached | uniform mean | max path | weighted vs kafel "
	    "| uniform vs kafel | weighted vs libseccomp | uniform vs libseccomp |\n");
	printf("|---|---|---|---|---|---|---|---|---|\n");
	for (size_t k = 0; k < nf; k++) {
		printf("| %s | %zu | %.3f | %.3f | %zu |", f[k].label, f[k].prog.len, f[k].weighted,
		       f[k].uniform, f[k].max);
		ratio(f[k].weighted, kafel ? kafel->weighted : 0);
		ratio(f[k].uniform, kafel ? kafel->uniform : 0);
		ratio(f[k].weighted, scmp ? scmp->weighted : 0);
		ratio(f[k].uniform, scmp ? scmp->uniform : 0);
		printf("\n");
	}
}

static int write_libseccomp(const struct scg_policy *p, const char *out)
{
	size_t skipped = 0;
	struct scmp_rule *rules = malloc(scmp_rules_max(p) * sizeof(*rules));
	if (!rules)
		return 2;
	size_t n = scmp_rules(p, rules, &skipped);
	/* the names libseccomp does not know, for bench/layout.sh's equivalence check */
	for (size_t i = 0; i < scg_policy_rule_count(p); i++) {
		struct scg_rule rule;
		scg_policy_rule_at(p, i, &rule);
		if (rule.syscall && seccomp_syscall_resolve_name(rule.syscall) == __NR_SCMP_ERROR)
			fprintf(stderr, "unknown to libseccomp: %s\n", rule.syscall);
	}
	scmp_filter_ctx ctx = scmp_build(p, rules, n, 2);
	struct scg_prog prog = {0};
	int r = ctx ? scmp_export(ctx, &prog) : -ENOMEM;
	seccomp_release(ctx);
	free(rules);
	FILE *f = r == 0 ? fopen(out, "wb") : NULL;
	if (!f || fwrite(prog.insns, sizeof(prog.insns[0]), prog.len, f) != prog.len) {
		fprintf(stderr, "layout-figures: cannot write libseccomp's filter to %s\n", out);
		if (f)
			fclose(f);
		scg_prog_release(&prog);
		return 2;
	}
	fclose(f);
	if (skipped)
		fprintf(stderr, "layout-figures: %zu rules not given to libseccomp\n", skipped);
	scg_prog_release(&prog);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "--libseccomp")) {
		struct scg_policy *p = NULL;
		if (bench_load_policy(argv[3], &p) < 0)
			return 2;
		int r = write_libseccomp(p, argv[2]);
		scg_policy_free(p);
		return r;
	}
	if (argc < 3 || argc - 2 > MAX_FILTERS) {
		fprintf(stderr, "usage: layout-figures POLICY LABEL=FILTER...\n"
				"       layout-figures --libseccomp OUT POLICY\n");
		return 2;
	}
	struct scg_policy *p = NULL;
	if (bench_load_policy(argv[1], &p) < 0)
		return 2;
	struct figures f[MAX_FILTERS] = {0};
	size_t nf = 0;
	int status = 0;
	for (int i = 2; i < argc && status == 0; i++) {
		char *eq = strchr(argv[i], '=');
		if (!eq) {
			fprintf(stderr, "layout-figures: %s: want LABEL=FILTER\n", argv[i]);
			status = 2;
			break;
		}
		*eq = '\0';
		f[nf].label = argv[i];
		if (scg_prog_read_file(eq + 1, &f[nf].prog, NULL) < 0) {
			fprintf(stderr, "layout-figures: %s: cannot read it as a raw filter\n",
				eq + 1);
			status = 2;
		} else
			nf++;
	}
	if (status == 0) {
		measure(scg_policy_arch_at(p, 0), f, nf);
		print_table(f, nf);
	}
	for (size_t k = 0; k < nf; k++)
		scg_prog_release(&f[k].prog);
	scg_policy_free(p);
	return status;
}
