/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target, a property of the compiler: for the random policy the
 * input bytes describe, the compiled program (both optimisation levels) is
 * accepted by the verifier and decides every probed syscall exactly as the
 * policy's reference evaluator, scg_policy_eval(), does.  abort() otherwise.
 *
 * Input layout: byte 0 sets the number of rules, byte 1 the nesting depth of
 * conditions, byte 2 which ABIs are targets; the rest seeds the generator
 * (tests/support/polgen) and picks the probes.  Short inputs are padded
 * with zeros, so every input describes a policy.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <syscage/syscage.h>

#include "bpf/emu_internal.h"
#include "support/polgen.h"
#include "support/progen.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_VALUES 64
#define PROBES_PER_NR 24

struct shape {
	size_t max_rules;
	unsigned max_depth;
	unsigned arch_mask;
	uint64_t seed;
};

/* FNV-1a over the bytes after the header: the generator's seed. */
static struct shape read_shape(const uint8_t *data, size_t size)
{
	uint8_t head[3] = { 0, 0, 0 };
	memcpy(head, data, size < 3 ? size : 3);
	uint64_t h = 0xcbf29ce484222325ULL;
	for (size_t i = 3; i < size; i++)
		h = (h ^ data[i]) * 0x100000001b3ULL;
	return (struct shape){ 1 + head[0] % 48, head[1] % 5, head[2], h };
}

/* A few ABIs that differ in byte order, word size and syscall numbering. */
static size_t pick_arches(unsigned mask, const struct scg_arch **out)
{
	static const char *const names[] = { "x86_64", "i386", "x32", "aarch64",
					     "s390x", "mips", "mips64n32", "ppc64" };
	size_t n = 0;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const struct scg_arch *a = scg_arch_lookup(names[i]);
		if (a && (mask & (1u << i)))
			out[n++] = a;
	}
	out[n] = NULL;
	return n;
}

static void mismatch(const struct scg_policy *p, const struct scg_seccomp_data *d,
		     uint32_t want, uint32_t got, unsigned level)
{
	char *text = NULL;
	if (scg_policy_to_text(p, &text) == 0)
		fprintf(stderr, "%s\n", text);
	free(text);
	fprintf(stderr, "O%u: arch %#x nr %#x args %#llx %#llx %#llx: evaluator %#x, program %#x\n",
		level, d->arch, d->nr, (unsigned long long)d->args[0],
		(unsigned long long)d->args[1], (unsigned long long)d->args[2], want, got);
	abort();
}

static void probe(const struct scg_policy *p, const struct scg_prog progs[2],
		  const struct scg_seccomp_data *d)
{
	struct scg_verdict v;
	scg_policy_eval(p, d, &v);
	uint32_t words[SCG_EMU_WORDS];
	emu_layout(d, words);
	/* Both programs passed scg_verify() once in compile_level(): no check per run. */
	for (unsigned o = 0; o < 2; o++) {
		uint32_t ret = emu_exec(&progs[o], words, 0, NULL, NULL, NULL);
		if (!polgen_same_effect(v.action, ret))
			mismatch(p, d, v.action, ret, o);
	}
}

/* Every rule's syscall (and its neighbours) on every ABI, with arguments around the constants. */
static void probe_all(const struct scg_policy *p, const struct scg_prog progs[2],
		      struct progen_rng *rng)
{
	static uint64_t values[6][MAX_VALUES];
	size_t nvalues[6];
	for (unsigned a = 0; a < 6; a++)
		nvalues[a] = polgen_arg_values(p, a, values[a], MAX_VALUES);
	for (size_t ai = 0; ai < scg_policy_arch_count(p); ai++) {
		const struct scg_arch *arch = scg_policy_arch_at(p, ai);
		for (size_t i = 0; i < scg_policy_rule_count(p); i++) {
			uint32_t nr, last;
			if (scg_policy_rule_range(p, i, arch, &nr, &last) < 0)
				continue;
			for (unsigned k = 0; k < PROBES_PER_NR; k++) {
				struct scg_seccomp_data d = { .arch = scg_arch_audit(arch) };
				/* nr - 1, nr, nr + 1, then the same around a range's last number */
				d.nr = (k % 6 < 3 ? nr : last) + (k % 3) - 1;
				for (unsigned a = 0; a < 6; a++)
					d.args[a] = values[a][progen_below(rng, (uint32_t)nvalues[a])];
				probe(p, progs, &d);
			}
		}
		/* A foreign ABI: BADARCH or the ABI's own rules must agree too. */
		struct scg_seccomp_data other = { .arch = 0x12345678, .nr = 1 };
		probe(p, progs, &other);
	}
}

static int compile_level(const struct scg_policy *p, unsigned level, struct scg_prog *out)
{
	struct scg_compile_options opts = { .optimize = level };
	int r = scg_compile(p, &opts, out, NULL);
	if (r == -E2BIG || r == -ENOMEM)
		return r; /* a documented refusal: too big for one filter */
	if (r != 0)
		abort();
	struct scg_verify_result res;
	if (scg_verify(out, NULL, &res, NULL) != 0 || !res.accepted)
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct shape s = read_shape(data, size);
	const struct scg_arch *arches[9];
	struct polgen_opts opts = { .max_rules = s.max_rules, .max_depth = s.max_depth };
	if (pick_arches(s.arch_mask, arches) > 0)
		opts.arches = arches;
	struct progen_rng rng;
	progen_seed(&rng, s.seed);
	struct scg_policy *p = polgen_policy(&rng, &opts);
	if (!p)
		return 0;
	struct scg_prog progs[2];
	if (compile_level(p, 0, &progs[0]) == 0) {
		if (compile_level(p, 1, &progs[1]) == 0) {
			probe_all(p, progs, &rng);
			scg_prog_release(&progs[1]);
		}
		scg_prog_release(&progs[0]);
	}
	scg_policy_free(p);
	return 0;
}
