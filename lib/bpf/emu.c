/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The emulator's interpreter: one seccomp filter run on one struct
 * seccomp_data with the kernel's runtime semantics.
 *
 * Only the opcodes seccomp accepts exist here, with the meaning the kernel
 * gives them after its load-time rewrite: LD|W|ABS is a 32-bit load from
 * the context, LD|W|LEN and LDX|W|LEN load 64 (sizeof(struct seccomp_data)).
 * A and X are 32-bit and start at 0; arithmetic wraps; every comparison is
 * unsigned; DIV by a zero X ends the program with 0 (KILL_THREAD); shifts
 * by X use X & 31, as the kernel's interpreter does.
 */
#include <errno.h>
#include <stdbool.h>

#include <syscage/arch.h>
#include <syscage/emu.h>
#include <syscage/verify.h>

#include "bpf/emu_internal.h"
#include "bpf/opcodes.h"

/* Stores @v as two words at @at: high word first on big-endian ABIs. */
static void put_u64(uint32_t *at, uint64_t v, bool big_endian)
{
	at[big_endian ? 1 : 0] = (uint32_t)v;
	at[big_endian ? 0 : 1] = (uint32_t)(v >> 32);
}

void emu_layout(const struct scg_seccomp_data *data, uint32_t words[SCG_EMU_WORDS])
{
	/* the ABI's byte order, not the host's, decides where each half sits */
	bool big_endian = !(data->arch & SCG_AUDIT_ARCH_LE);
	words[SCG_DATA_NR / 4] = data->nr;
	words[SCG_DATA_ARCH / 4] = data->arch;
	put_u64(&words[SCG_DATA_IP / 4], data->instruction_pointer, big_endian);
	for (unsigned i = 0; i < 6; i++)
		put_u64(&words[SCG_DATA_ARGS / 4 + 2 * i], data->args[i], big_endian);
}

int emu_check(const struct scg_prog *prog)
{
	if (!prog || !prog->insns || prog->len == 0)
		return -EINVAL;
	struct scg_verify_result res;
	int r = scg_verify(prog, NULL, &res, NULL);
	if (r < 0)
		return r;
	return res.accepted ? 0 : -EINVAL;
}

/* The target of a jump @off instructions past @pc, or @len (stop) when it leaves the program. */
static inline size_t jump_target(size_t pc, uint32_t off, size_t len)
{
	return off < len - pc - 1 ? pc + 1 + off : len;
}

/* A op operand, 32-bit wrapping; the caller has ruled out division by zero. */
static inline uint32_t alu(uint16_t op, uint32_t a, uint32_t operand)
{
	switch (op) {
	case BPF_ADD:
		return a + operand;
	case BPF_SUB:
		return a - operand;
	case BPF_MUL:
		return a * operand;
	case BPF_DIV:
		return a / operand;
	case BPF_OR:
		return a | operand;
	case BPF_AND:
		return a & operand;
	case BPF_XOR:
		return a ^ operand;
	case BPF_LSH:
		return a << (operand & 31); /* k >= 32 cannot load; X is masked */
	case BPF_RSH:
		return a >> (operand & 31);
	default:
		return 0U - a; /* BPF_NEG */
	}
}

/* The condition of a conditional jump: always unsigned. */
static inline bool holds(uint16_t op, uint32_t a, uint32_t operand)
{
	switch (op) {
	case BPF_JEQ:
		return a == operand;
	case BPF_JGT:
		return a > operand;
	case BPF_JGE:
		return a >= operand;
	default:
		return (a & operand) != 0; /* BPF_JSET */
	}
}

/*
 * The interpreter proper.  @tracing is a compile-time constant at each call
 * site, so the untraced copy carries no tracing cost.  Programs the kernel
 * refuses still run safely: scratch and data indexes are masked, jumps that
 * leave the program stop it, unknown opcodes return 0.
 */
static inline __attribute__((always_inline)) uint32_t
interpret(const struct scg_insn *insns, size_t len, const uint32_t *words, size_t filter,
	  size_t *executed, scg_emu_trace_fn trace, void *ctx, const int tracing)
{
	uint32_t a = 0, x = 0, ret = SCG_RET_KILL_THREAD;
	uint32_t mem[SCG_BPF_MEMWORDS] = { 0 }; /* the kernel proves a store before any load */
	size_t pc = 0, count = 0;
	while (pc < len) {
		const struct scg_insn *in = &insns[pc];
		const uint16_t code = in->code;
		const uint32_t k = in->k;
		const uint32_t operand = BPF_SRC(code) == BPF_X ? x : k;
		bool done = false;
		size_t next = pc + 1;
		count++;
		switch (code) {
		case BPF_LD | BPF_W | BPF_ABS:
			a = words[(k >> 2) & (SCG_EMU_WORDS - 1)];
			break;
		case BPF_LD | BPF_W | BPF_LEN:
			a = SCG_DATA_SIZE;
			break;
		case BPF_LDX | BPF_W | BPF_LEN:
			x = SCG_DATA_SIZE;
			break;
		case BPF_LD | BPF_IMM:
			a = k;
			break;
		case BPF_LDX | BPF_IMM:
			x = k;
			break;
		case BPF_LD | BPF_MEM:
			a = mem[k & (SCG_BPF_MEMWORDS - 1)];
			break;
		case BPF_LDX | BPF_MEM:
			x = mem[k & (SCG_BPF_MEMWORDS - 1)];
			break;
		case BPF_ST:
			mem[k & (SCG_BPF_MEMWORDS - 1)] = a;
			break;
		case BPF_STX:
			mem[k & (SCG_BPF_MEMWORDS - 1)] = x;
			break;
		case BPF_MISC | BPF_TAX:
			x = a;
			break;
		case BPF_MISC | BPF_TXA:
			a = x;
			break;
		case BPF_ALU | BPF_DIV | BPF_K:
		case BPF_ALU | BPF_DIV | BPF_X:
			/* the translated program tests the divisor and exits with 0
			 * (DIV|K 0 cannot load; it gets the same treatment here) */
			if (operand == 0) {
				ret = SCG_RET_KILL_THREAD;
				done = true;
			} else {
				a /= operand;
			}
			break;
		case BPF_ALU | BPF_ADD | BPF_K: case BPF_ALU | BPF_ADD | BPF_X:
		case BPF_ALU | BPF_SUB | BPF_K: case BPF_ALU | BPF_SUB | BPF_X:
		case BPF_ALU | BPF_MUL | BPF_K: case BPF_ALU | BPF_MUL | BPF_X:
		case BPF_ALU | BPF_OR | BPF_K:  case BPF_ALU | BPF_OR | BPF_X:
		case BPF_ALU | BPF_AND | BPF_K: case BPF_ALU | BPF_AND | BPF_X:
		case BPF_ALU | BPF_XOR | BPF_K: case BPF_ALU | BPF_XOR | BPF_X:
		case BPF_ALU | BPF_LSH | BPF_K: case BPF_ALU | BPF_LSH | BPF_X:
		case BPF_ALU | BPF_RSH | BPF_K: case BPF_ALU | BPF_RSH | BPF_X:
		case BPF_ALU | BPF_NEG:
			a = alu(BPF_OP(code), a, operand);
			break;
		case BPF_JMP | BPF_JA:
			next = jump_target(pc, k, len);
			break;
		case BPF_JMP | BPF_JEQ | BPF_K:  case BPF_JMP | BPF_JEQ | BPF_X:
		case BPF_JMP | BPF_JGT | BPF_K:  case BPF_JMP | BPF_JGT | BPF_X:
		case BPF_JMP | BPF_JGE | BPF_K:  case BPF_JMP | BPF_JGE | BPF_X:
		case BPF_JMP | BPF_JSET | BPF_K: case BPF_JMP | BPF_JSET | BPF_X:
			next = jump_target(pc, holds(BPF_OP(code), a, operand) ? in->jt : in->jf, len);
			break;
		case BPF_RET | BPF_K:
		case BPF_RET | BPF_A:
			ret = BPF_RVAL(code) == BPF_A ? a : k;
			done = true;
			break;
		default:
			/* refused at load time; stop safely */
			ret = SCG_RET_KILL_THREAD;
			done = true;
			break;
		}
		if (tracing) {
			struct scg_emu_step step = { filter, pc, *in, a, x };
			trace(ctx, &step);
		}
		if (done)
			break;
		pc = next;
	}
	if (executed)
		*executed = count;
	return ret;
}

uint32_t emu_exec(const struct scg_prog *prog, const uint32_t words[SCG_EMU_WORDS],
		      size_t filter, size_t *executed, scg_emu_trace_fn trace, void *ctx)
{
	if (trace)
		return interpret(prog->insns, prog->len, words, filter, executed, trace, ctx, 1);
	return interpret(prog->insns, prog->len, words, filter, executed, NULL, NULL, 0);
}

int scg_emu_run(const struct scg_prog *prog, const struct scg_seccomp_data *data, uint32_t *ret,
		size_t *executed, scg_emu_trace_fn trace, void *ctx)
{
	if (!data || !ret)
		return -EINVAL;
	int r = emu_check(prog);
	if (r < 0)
		return r;
	uint32_t words[SCG_EMU_WORDS];
	emu_layout(data, words);
	*ret = emu_exec(prog, words, 0, executed, trace, ctx);
	return 0;
}
