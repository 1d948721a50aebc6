/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "support/progen.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/opcodes.h"

void progen_seed(struct progen_rng *rng, uint64_t seed)
{
	rng->state = seed ^ 0x9e3779b97f4a7c15ULL;
}

/* splitmix64: small, fast and good enough for test generation */
uint64_t progen_next(struct progen_rng *rng)
{
	uint64_t z = (rng->state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

uint32_t progen_below(struct progen_rng *rng, uint32_t n)
{
	return (uint32_t)(progen_next(rng) % n);
}

static const uint32_t boundaries32[] = {
	0, 1, 2, 3, 0x7f, 0x80, 0xff, 0x100, 0xffff, 0x10000, 0x7fffffff, 0x80000000,
	0x80000001, 0xfffffffe, 0xffffffff, 0x40000000, 0x40000003, 0xc000003e, 39, 110, 317,
};

uint32_t progen_interesting32(struct progen_rng *rng)
{
	uint32_t pick = progen_below(rng, 4);
	if (pick == 0)
		return (uint32_t)progen_next(rng);
	uint32_t b = boundaries32[progen_below(rng, sizeof(boundaries32) / sizeof(boundaries32[0]))];
	if (pick == 1)
		return b + progen_below(rng, 3) - 1;
	return b;
}

uint64_t progen_interesting64(struct progen_rng *rng)
{
	uint64_t hi = progen_interesting32(rng), lo = progen_interesting32(rng);
	switch (progen_below(rng, 4)) {
	case 0:
		return lo; /* zero-extended */
	case 1:
		return (uint64_t)(int64_t)(int32_t)lo; /* sign-extended */
	default:
		return hi << 32 | lo;
	}
}

uint32_t progen_ret(struct progen_rng *rng, bool only_safe)
{
	uint32_t data = progen_below(rng, 4) ? progen_below(rng, 200) : progen_below(rng, 0x10000);
	if (only_safe) {
		switch (progen_below(rng, 5)) {
		case 0:
			return SCG_RET_KILL_PROCESS;
		case 1:
			return SCG_RET_KILL_THREAD | (progen_below(rng, 4) ? 0 : data);
		case 2:
			return SCG_RET_TRAP | data;
		default:
			/* data 0 would let the syscall "succeed" without running: still safe */
			return SCG_RET_ERRNO | data;
		}
	}
	static const uint32_t actions[] = {
		SCG_RET_KILL_PROCESS, SCG_RET_KILL_THREAD, SCG_RET_TRAP,  SCG_RET_ERRNO,
		SCG_RET_USER_NOTIF,   SCG_RET_TRACE,       SCG_RET_LOG,   SCG_RET_ALLOW,
		0x10000000U,          0x7ffe0000U,         0x00010000U,   0x7fd00000U,
	};
	uint32_t action = actions[progen_below(rng, sizeof(actions) / sizeof(actions[0]))];
	if (progen_below(rng, 16) == 0)
		return (uint32_t)progen_next(rng); /* anything at all */
	return action | data;
}

static const uint16_t alu_ops[] = { BPF_ADD, BPF_SUB, BPF_MUL, BPF_DIV, BPF_OR,
				    BPF_AND, BPF_LSH, BPF_RSH, BPF_XOR };
static const uint16_t jmp_ops[] = { BPF_JEQ, BPF_JGT, BPF_JGE, BPF_JSET };

/* A jump offset from @pc that stays inside a program of @len instructions. */
static uint32_t jump_offset(struct progen_rng *rng, size_t pc, size_t len, uint32_t reach)
{
	size_t room = len - pc - 2; /* the last instruction is at len - 1 */
	if (room > reach)
		room = reach;
	if (progen_below(rng, 3) == 0)
		return 0;
	return progen_below(rng, (uint32_t)room + 1);
}

static struct scg_insn gen_alu(struct progen_rng *rng, const struct progen_opts *opts)
{
	uint16_t op = alu_ops[progen_below(rng, sizeof(alu_ops) / sizeof(alu_ops[0]))];
	if (progen_below(rng, 12) == 0)
		return (struct scg_insn){ BPF_ALU | BPF_NEG, 0, 0, 0 };
	bool use_x = progen_below(rng, 3) == 0 && (op != BPF_DIV || opts->allow_div_x);
	if (use_x)
		return (struct scg_insn){ (uint16_t)(BPF_ALU | op | BPF_X), 0, 0, 0 };
	uint32_t k = progen_interesting32(rng);
	if (op == BPF_LSH || op == BPF_RSH)
		k %= 32;
	if (op == BPF_DIV && k == 0)
		k = 1 + progen_below(rng, 7);
	return (struct scg_insn){ (uint16_t)(BPF_ALU | op | BPF_K), 0, 0, k };
}

static struct scg_insn gen_load(struct progen_rng *rng, uint16_t valid_slots)
{
	switch (progen_below(rng, 8)) {
	case 0:
		return (struct scg_insn){ BPF_LD | BPF_IMM, 0, 0, progen_interesting32(rng) };
	case 1:
		return (struct scg_insn){ BPF_LDX | BPF_IMM, 0, 0, progen_interesting32(rng) };
	case 2:
		return (struct scg_insn){ (uint16_t)(progen_below(rng, 2) ? BPF_LD : BPF_LDX) |
						  BPF_W | BPF_LEN,
					  0, 0, 0 };
	case 3:
		if (valid_slots) {
			uint32_t k;
			do
				k = progen_below(rng, SCG_BPF_MEMWORDS);
			while (!(valid_slots & (1U << k)));
			return (struct scg_insn){
				(uint16_t)((progen_below(rng, 2) ? BPF_LD : BPF_LDX) | BPF_MEM), 0, 0, k
			};
		}
		/* fall through */
	default:
		return (struct scg_insn){ BPF_LD | BPF_W | BPF_ABS, 0, 0, 4 * progen_below(rng, 16) };
	}
}

static struct scg_insn gen_jump(struct progen_rng *rng, size_t pc, size_t len)
{
	if (progen_below(rng, 8) == 0)
		return (struct scg_insn){ BPF_JMP | BPF_JA, 0, 0,
					  jump_offset(rng, pc, len, SCG_BPF_MAXINSNS) };
	uint16_t op = jmp_ops[progen_below(rng, sizeof(jmp_ops) / sizeof(jmp_ops[0]))];
	uint16_t src = progen_below(rng, 4) == 0 ? BPF_X : BPF_K;
	return (struct scg_insn){ (uint16_t)(BPF_JMP | op | src),
				  (uint8_t)jump_offset(rng, pc, len, SCG_BPF_JUMP_REACH),
				  (uint8_t)jump_offset(rng, pc, len, SCG_BPF_JUMP_REACH),
				  progen_interesting32(rng) };
}

static struct scg_insn gen_ret(struct progen_rng *rng, const struct progen_opts *opts)
{
	if (opts->allow_ret_a && progen_below(rng, 6) == 0)
		return (struct scg_insn){ BPF_RET | BPF_A, 0, 0, 0 };
	return (struct scg_insn){ BPF_RET | BPF_K, 0, 0, progen_ret(rng, opts->only_safe_returns) };
}

static size_t pick_length(struct progen_rng *rng, size_t max_len)
{
	size_t len;
	switch (progen_below(rng, 8)) {
	case 0:
		len = 1 + progen_below(rng, (uint32_t)max_len); /* anything up to the maximum */
		break;
	case 1:
	case 2:
		len = 1 + progen_below(rng, 64);
		break;
	default:
		len = 1 + progen_below(rng, 16);
		break;
	}
	return len > max_len ? max_len : len;
}

int progen_valid(struct progen_rng *rng, const struct progen_opts *opts, struct scg_prog *out)
{
	size_t len = pick_length(rng, opts->max_len ? opts->max_len : 64);
	struct scg_insn *insns = calloc(len, sizeof(*insns));
	if (!insns)
		return -ENOMEM;

	/* Slots stored before the first jump are valid everywhere after it,
	 * which keeps every scratch load legal under the kernel's linear rule. */
	uint16_t valid_slots = 0;
	size_t pc = 0;
	size_t prologue = len > 4 ? progen_below(rng, 3) : 0;
	for (; pc < prologue && pc + 1 < len; pc++) {
		uint32_t k = progen_below(rng, SCG_BPF_MEMWORDS);
		insns[pc] = (struct scg_insn){ (uint16_t)(progen_below(rng, 2) ? BPF_ST : BPF_STX), 0, 0, k };
		valid_slots |= (uint16_t)(1U << k);
	}
	for (; pc + 1 < len; pc++) {
		switch (progen_below(rng, 10)) {
		case 0:
		case 1:
			insns[pc] = gen_alu(rng, opts);
			break;
		case 2:
		case 3:
		case 4:
			insns[pc] = gen_load(rng, valid_slots);
			break;
		case 5:
		case 6:
			insns[pc] = gen_jump(rng, pc, len);
			break;
		case 7:
			insns[pc] = (struct scg_insn){ (uint16_t)(BPF_MISC | (progen_below(rng, 2) ? BPF_TAX : BPF_TXA)), 0, 0, 0 };
			break;
		case 8:
			insns[pc] = (struct scg_insn){ (uint16_t)(progen_below(rng, 2) ? BPF_ST : BPF_STX), 0, 0,
						       progen_below(rng, SCG_BPF_MEMWORDS) };
			break;
		default:
			insns[pc] = gen_ret(rng, opts);
			break;
		}
	}
	insns[len - 1] = gen_ret(rng, opts);
	out->insns = insns;
	out->len = len;
	return 0;
}

/* Codes seccomp refuses, for mutations that should break the whitelist. */
static const uint16_t refused_codes[] = {
	BPF_ALU | BPF_MOD | BPF_K, BPF_ALU | BPF_MOD | BPF_X, BPF_LD | BPF_H | BPF_ABS,
	BPF_LD | BPF_B | BPF_ABS,  BPF_LD | BPF_W | BPF_IND,  BPF_LDX | BPF_B | BPF_MSH,
	BPF_RET | BPF_X,           0x8006,                    BPF_LDX | BPF_W | BPF_ABS,
	BPF_ALU | BPF_NEG | BPF_X, 0xff,                      BPF_JMP | 0x50 | BPF_K,
};

static void mutate_code(struct progen_rng *rng, struct scg_insn *insn)
{
	switch (progen_below(rng, 3)) {
	case 0:
		insn->code = refused_codes[progen_below(rng, sizeof(refused_codes) / sizeof(refused_codes[0]))];
		break;
	case 1:
		insn->code = (uint16_t)progen_below(rng, 0xb8); /* anywhere in the kernel's table */
		break;
	default:
		insn->code ^= (uint16_t)(1U << progen_below(rng, 16));
		break;
	}
}

static void mutate_k(struct progen_rng *rng, struct scg_insn *insn)
{
	static const uint32_t ks[] = { 0, 1, 2, 3, 15, 16, 31, 32, 33, 60, 62, 64, 68,
				       0xfffff000, 0xffffffff, 0x80000000 };
	if (progen_below(rng, 2))
		insn->k = ks[progen_below(rng, sizeof(ks) / sizeof(ks[0]))];
	else
		insn->k += progen_below(rng, 5) - 2;
}

int progen_mutate(struct progen_rng *rng, struct scg_prog *prog)
{
	if (prog->len == 0)
		return 0;
	struct scg_insn *insn = &prog->insns[progen_below(rng, (uint32_t)prog->len)];
	switch (progen_below(rng, 8)) {
	case 0:
		mutate_code(rng, insn);
		break;
	case 1:
	case 2:
		mutate_k(rng, insn);
		break;
	case 3:
		insn->jt = (uint8_t)progen_next(rng);
		break;
	case 4:
		insn->jf = (uint8_t)(insn->jf + progen_below(rng, 3) - 1);
		break;
	case 5:
		if (prog->len > 1)
			prog->len--; /* drop the last instruction */
		break;
	case 6: {
		/* swap two instructions: may break the store-before-load rule */
		struct scg_insn *other = &prog->insns[progen_below(rng, (uint32_t)prog->len)];
		struct scg_insn tmp = *insn;
		*insn = *other;
		*other = tmp;
		break;
	}
	default:
		insn->code = (uint16_t)(BPF_LD | BPF_MEM);
		insn->k = progen_below(rng, SCG_BPF_MEMWORDS + 1);
		break;
	}
	return 0;
}

int progen_garbage(struct progen_rng *rng, size_t len, struct scg_prog *out)
{
	struct scg_insn *insns = calloc(len ? len : 1, sizeof(*insns));
	if (!insns)
		return -ENOMEM;
	for (size_t i = 0; i < len; i++) {
		uint64_t bits = progen_next(rng);
		memcpy(&insns[i], &bits, sizeof(bits));
	}
	out->insns = insns;
	out->len = len;
	return 0;
}
