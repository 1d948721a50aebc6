/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The kernel's load-time decision for a seccomp filter, check by check in
 * the kernel's own order, so that the first refusal reported here is the
 * one the kernel hits: the length limit, then bpf_check_classic over the
 * whole program (opcode table, per-instruction operand rules, a final ret,
 * then the linear scratch-memory rule), then seccomp's own whitelist.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <syscage/verify.h>

#include "bpf/asm_internal.h"
#include "bpf/opcodes.h"
#include "bpf/verify_internal.h"

/* One past the highest classic code (ldxb msh, 0xb1): the size of the kernel's table. */
#define CLASSIC_TABLE_SIZE 0xb2

/* What the kernel's tables say about a code. */
enum { CLASSIC = 1, SECCOMP = 2 };

/*
 * Every code bpf_check_classic accepts, and whether seccomp accepts it too
 * (0: not a classic instruction).  Their names come from the assembler's
 * syntax table, like the disassembler's.
 */
static const uint8_t classic_codes[CLASSIC_TABLE_SIZE] = {
    [BPF_ALU | BPF_ADD | BPF_K] = CLASSIC | SECCOMP,
    [BPF_ALU | BPF_ADD | BPF_X] = CLASSIC | SECCOMP,
    [BPF_ALU | BPF_SUB | BPF_K] = CLASSIC | SECCOMP,
    [BPF_ALU | BPF_SUB | BPF_X] = CLASSIC | SECCOMP,
    [BPF_ALU | BPF_MUL | BPF_K] = CLASSIC | SECCOMP,
    [BPF_ALU | BPF_MUL | BPF_X] = CLASSIC | SECCOMP,
    [BPF_ALU | BPF_DIV | BPF_K] = CLASSIC | SECCOMP,
    [BPF_ALU | BPF_DIV | BPF_X] = CLASSIC | SECCOMP,
    [BPF_ALU | BPF_MOD | BPF_K] = CLASSIC,
    [BPF_ALU | BPF_MOD | BPF_X] = CLASSIC,
    [BPF_ALU | BPF_AND | BPF_K] = CLASSIC | SECCOMP,
    [BPF_ALU | BPF_AND | BPF_X] = CLASSIC | SECCOMP,
    [BPF_ALU | BPF_OR | BPF_K] = CLASSIC | SECCOMP,
    [BPF_ALU | BPF_OR | BPF_X] = CLASSIC | SECCOMP,
    [BPF_ALU | BPF_XOR | BPF_K] = CLASSIC | SECCOMP,
    [BPF_ALU | BPF_XOR | BPF_X] = CLASSIC | SECCOMP,
    [BPF_ALU | BPF_LSH | BPF_K] = CLASSIC | SECCOMP,
    [BPF_ALU | BPF_LSH | BPF_X] = CLASSIC | SECCOMP,
    [BPF_ALU | BPF_RSH | BPF_K] = CLASSIC | SECCOMP,
    [BPF_ALU | BPF_RSH | BPF_X] = CLASSIC | SECCOMP,
    [BPF_ALU | BPF_NEG] = CLASSIC | SECCOMP,
    [BPF_LD | BPF_W | BPF_ABS] = CLASSIC | SECCOMP, /* further limited to offsets 0..60 */
    [BPF_LD | BPF_H | BPF_ABS] = CLASSIC,
    [BPF_LD | BPF_B | BPF_ABS] = CLASSIC,
    [BPF_LD | BPF_W | BPF_LEN] = CLASSIC | SECCOMP,
    [BPF_LD | BPF_W | BPF_IND] = CLASSIC,
    [BPF_LD | BPF_H | BPF_IND] = CLASSIC,
    [BPF_LD | BPF_B | BPF_IND] = CLASSIC,
    [BPF_LD | BPF_IMM] = CLASSIC | SECCOMP,
    [BPF_LD | BPF_MEM] = CLASSIC | SECCOMP,
    [BPF_LDX | BPF_W | BPF_LEN] = CLASSIC | SECCOMP,
    [BPF_LDX | BPF_B | BPF_MSH] = CLASSIC,
    [BPF_LDX | BPF_IMM] = CLASSIC | SECCOMP,
    [BPF_LDX | BPF_MEM] = CLASSIC | SECCOMP,
    [BPF_ST] = CLASSIC | SECCOMP,
    [BPF_STX] = CLASSIC | SECCOMP,
    [BPF_MISC | BPF_TAX] = CLASSIC | SECCOMP,
    [BPF_MISC | BPF_TXA] = CLASSIC | SECCOMP,
    [BPF_RET | BPF_K] = CLASSIC | SECCOMP,
    [BPF_RET | BPF_A] = CLASSIC | SECCOMP,
    [BPF_JMP | BPF_JA] = CLASSIC | SECCOMP,
    [BPF_JMP | BPF_JEQ | BPF_K] = CLASSIC | SECCOMP,
    [BPF_JMP | BPF_JEQ | BPF_X] = CLASSIC | SECCOMP,
    [BPF_JMP | BPF_JGE | BPF_K] = CLASSIC | SECCOMP,
    [BPF_JMP | BPF_JGE | BPF_X] = CLASSIC | SECCOMP,
    [BPF_JMP | BPF_JGT | BPF_K] = CLASSIC | SECCOMP,
    [BPF_JMP | BPF_JGT | BPF_X] = CLASSIC | SECCOMP,
    [BPF_JMP | BPF_JSET | BPF_K] = CLASSIC | SECCOMP,
    [BPF_JMP | BPF_JSET | BPF_X] = CLASSIC | SECCOMP,
};

/* Ancillary loads (SKF_AD_OFF + 4 * i) the kernel knows, for messages. */
static const char ancillary_names[][17] = {
    "protocol",		"pkttype",    "ifindex",   "nlattr",
    "nlattr_nest",	"mark",	      "queue",	   "hatype",
    "rxhash",		"cpu",	      "alu_xor_x", "vlan_tag",
    "vlan_tag_present", "pay_offset", "random",	   "vlan_tpid",
};

static bool is_known_code(uint16_t code)
{
	return code < CLASSIC_TABLE_SIZE && (classic_codes[code] & CLASSIC);
}

const char *verify_mnemonic(uint16_t code)
{
	const struct asm_form *form = is_known_code(code) ? asm_form_by_code(code) : NULL;
	return form ? form->mnemonic : NULL;
}

static bool is_cond_jump(uint16_t code)
{
	return BPF_CLASS(code) == BPF_JMP && BPF_OP(code) != BPF_JA && is_known_code(code);
}

/* Name of the ancillary load at @k, or NULL when @k names none. */
static const char *ancillary_name(uint32_t k)
{
	uint32_t off = k - SCG_SKF_AD_OFF;
	if (k < SCG_SKF_AD_OFF || off % 4 ||
	    off / 4 >= sizeof(ancillary_names) / sizeof(ancillary_names[0]))
		return NULL;
	return ancillary_names[off / 4];
}

/* @insn as the disassembler writes it (jump targets as +N), for messages. */
static void describe(const struct scg_insn *insn, char *buf, size_t size)
{
	struct strbuf sb = STRBUF_INIT;
	const struct asm_text_opts opts = { .arch = NULL };
	asm_insn_text(&sb, insn, 0, &opts);
	snprintf(buf, size, "%s", sb.data && !sb.failed ? sb.data : "?");
	strbuf_release(&sb);
}

static bool refuse(struct refusal *why, long insn, const char *rule, const char *hint,
		   const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Records a refusal and returns false, so checks can "return refuse(...)". */
static bool refuse(struct refusal *why, long insn, const char *rule, const char *hint,
		   const char *fmt, ...)
{
	va_list ap;
	why->kernel_errno = EINVAL;
	why->insn = insn;
	why->rule = rule;
	why->hint = hint;
	va_start(ap, fmt);
	vsnprintf(why->message, sizeof(why->message), fmt, ap);
	va_end(ap);
	return false;
}

/* seccomp_prepare_filter: checked before anything else. */
static bool check_length(const struct scg_prog *prog, struct refusal *why)
{
	if (prog->len == 0)
		return refuse(why, -1, "length", "a filter needs at least one instruction (a ret)",
			      "the program is empty; the kernel accepts 1 to %u instructions",
			      SCG_BPF_MAXINSNS);
	if (prog->len > SCG_BPF_MAXINSNS)
		return refuse(why, -1, "length", "split it into several stacked filters",
			      "the program has %zu instructions; the kernel accepts at most %u",
			      prog->len, SCG_BPF_MAXINSNS);
	return true;
}

static bool refuse_unknown_code(const struct scg_insn *insn, size_t pc, struct refusal *why)
{
	uint16_t code = insn->code;
	if (code == (BPF_RET | BPF_X))
		return refuse(why, (long)pc, "opcode-unknown", "return A with 'ret a' (code 0x16)",
			      "code %#06x (ret x) is not a classic BPF instruction", code);
	if (code > 0xff)
		return refuse(why, (long)pc, "opcode-unknown",
			      "classic BPF codes fit in 8 bits; the upper byte must be 0",
			      "code %#06x is not a classic BPF instruction", code);
	return refuse(why, (long)pc, "opcode-unknown", NULL,
		      "code %#06x is not a classic BPF instruction (class %u, fields %#04x)", code,
		      (unsigned)BPF_CLASS(code), (unsigned)(code & 0xf8));
}

static bool check_jump_targets(const struct scg_insn *insn, size_t pc, size_t len,
			       struct refusal *why)
{
	const char *m = verify_mnemonic(insn->code);
	if (BPF_OP(insn->code) == BPF_JA) {
		/* The kernel's test is k >= len - pc - 1 on unsigned values. */
		if (insn->k < len - pc - 1)
			return true;
		if (pc == len - 1)
			return refuse(why, (long)pc, "ja-out-of-range",
				      "a program must end with ret",
				      "ja is the last instruction: it has nowhere to jump");
		return refuse(
		    why, (long)pc, "ja-out-of-range",
		    "a jump lands on its own index + 1 + k, inside the program",
		    "ja jumps %u ahead to index %llu, past the last instruction (index %zu)",
		    insn->k, (unsigned long long)pc + 1 + insn->k, len - 1);
	}
	const char *hint = "conditional jumps reach at most 255 ahead and must land inside "
			   "the program; use a ja trampoline for longer distances";
	if (pc + insn->jt + 1 >= len)
		return refuse(why, (long)pc, "jump-out-of-range", hint,
			      "%s jumps %u ahead (true branch) to index %zu, past the last "
			      "instruction (index %zu)",
			      m, insn->jt, pc + insn->jt + 1, len - 1);
	if (pc + insn->jf + 1 >= len)
		return refuse(why, (long)pc, "jump-out-of-range", hint,
			      "%s jumps %u ahead (false branch) to index %zu, past the last "
			      "instruction (index %zu)",
			      m, insn->jf, pc + insn->jf + 1, len - 1);
	return true;
}

/* The per-instruction part of bpf_check_classic. */
static bool check_classic_insn(const struct scg_insn *insn, size_t pc, size_t len,
			       struct refusal *why)
{
	uint16_t code = insn->code;
	char text[48];
	if (!is_known_code(code))
		return refuse_unknown_code(insn, pc, why);
	/* The text is only for a refusal: formatting every instruction made verify slow. */
	switch (code) {
	case BPF_ALU | BPF_DIV | BPF_K:
	case BPF_ALU | BPF_MOD | BPF_K:
		if (insn->k == 0) {
			describe(insn, text, sizeof(text));
			return refuse(why, (long)pc, "div-by-zero", NULL,
				      "%s: division by the constant 0", text);
		}
		return true;
	case BPF_ALU | BPF_LSH | BPF_K:
	case BPF_ALU | BPF_RSH | BPF_K:
		if (insn->k >= 32) {
			describe(insn, text, sizeof(text));
			return refuse(why, (long)pc, "shift-too-far", NULL,
				      "%s: shift counts must be below 32", text);
		}
		return true;
	case BPF_LD | BPF_MEM:
	case BPF_LDX | BPF_MEM:
	case BPF_ST:
	case BPF_STX:
		if (insn->k >= SCG_BPF_MEMWORDS) {
			describe(insn, text, sizeof(text));
			return refuse(why, (long)pc, "scratch-out-of-range", NULL,
				      "%s: scratch memory has slots M[0] to M[%u]", text,
				      SCG_BPF_MEMWORDS - 1);
		}
		return true;
	case BPF_LD | BPF_W | BPF_ABS:
	case BPF_LD | BPF_H | BPF_ABS:
	case BPF_LD | BPF_B | BPF_ABS:
		if (insn->k >= SCG_SKF_AD_OFF && !ancillary_name(insn->k)) {
			describe(insn, text, sizeof(text));
			return refuse(why, (long)pc, "ancillary-unknown", NULL,
				      "%s: offset %#x is in the ancillary area (SKF_AD_OFF + %u) "
				      "but names no ancillary load",
				      text, insn->k, insn->k - SCG_SKF_AD_OFF);
		}
		return true;
	default:
		if (BPF_CLASS(code) == BPF_JMP)
			return check_jump_targets(insn, pc, len, why);
		return true;
	}
}

/*
 * check_load_and_stores, as the kernel runs it: one linear walk.  A slot is
 * valid at a jump target only if it was valid at every jump into it; after a
 * jump everything is valid again (the next instruction is reached only
 * through its mask), but a ret does not reset anything, so the state of the
 * code before a ret leaks into whatever follows it.
 */
static bool check_load_and_stores(const struct scg_prog *prog, struct refusal *why)
{
	static const uint16_t all_valid = 0xffff;
	uint16_t masks[SCG_BPF_MAXINSNS];
	uint16_t memvalid = 0;
	size_t len = prog->len;
	for (size_t pc = 0; pc < len; pc++)
		masks[pc] = all_valid;
	for (size_t pc = 0; pc < len; pc++) {
		const struct scg_insn *insn = &prog->insns[pc];
		memvalid &= masks[pc];
		switch (insn->code) {
		case BPF_ST:
		case BPF_STX:
			memvalid |= (uint16_t)(1U << insn->k);
			break;
		case BPF_LD | BPF_MEM:
		case BPF_LDX | BPF_MEM:
			if (!(memvalid & (1U << insn->k))) {
				char text[48];
				describe(insn, text, sizeof(text));
				return refuse(why, (long)pc, "scratch-read-before-write",
					      "the kernel checks in program order: store the slot "
					      "before the branches that lead here (a ret does not "
					      "end the straight line)",
					      "%s: the kernel cannot prove scratch slot %u was "
					      "written before this read",
					      text, insn->k);
			}
			break;
		case BPF_JMP | BPF_JA:
			masks[pc + 1 + insn->k] &= memvalid;
			memvalid = all_valid;
			break;
		default:
			if (is_cond_jump(insn->code)) {
				masks[pc + 1 + insn->jt] &= memvalid;
				masks[pc + 1 + insn->jf] &= memvalid;
				memvalid = all_valid;
			}
			break;
		}
	}
	return true;
}

static bool check_classic(const struct scg_prog *prog, struct refusal *why)
{
	size_t len = prog->len;
	for (size_t pc = 0; pc < len; pc++)
		if (!check_classic_insn(&prog->insns[pc], pc, len, why))
			return false;
	const struct scg_insn *last = &prog->insns[len - 1];
	if (last->code != (BPF_RET | BPF_K) && last->code != (BPF_RET | BPF_A)) {
		char text[48];
		describe(last, text, sizeof(text));
		return refuse(why, (long)(len - 1), "last-not-ret",
			      "every program must end with 'ret #action' or 'ret a'",
			      "the last instruction is '%s', not a ret", text);
	}
	return check_load_and_stores(prog, why);
}

static bool refuse_seccomp_load(const struct scg_insn *insn, size_t pc, struct refusal *why)
{
	char text[48];
	describe(insn, text, sizeof(text));
	const char *anc = ancillary_name(insn->k);
	if (anc)
		return refuse(why, (long)pc, "seccomp-ancillary",
			      "seccomp filters read only struct seccomp_data (ld [0] to ld [60])",
			      "%s is the ancillary load '%s' (packet metadata), which seccomp "
			      "filters cannot use",
			      text, anc);
	if (insn->code != (BPF_LD | BPF_W | BPF_ABS))
		return refuse(why, (long)pc, "seccomp-opcode",
			      "load the whole aligned word with 'ld [k]' and mask or shift it",
			      "%s: seccomp filters load only 32-bit words", text);
	if (insn->k >= SCG_DATA_SIZE)
		return refuse(why, (long)pc, "seccomp-load-offset",
			      "fields: nr 0, arch 4, instruction_pointer 8, args[i] 16 + 8*i",
			      "%s reads past the end of struct seccomp_data (64 bytes)", text);
	return refuse(why, (long)pc, "seccomp-load-offset",
		      "fields: nr 0, arch 4, instruction_pointer 8, args[i] 16 + 8*i",
		      "%s is not 4-byte aligned; struct seccomp_data is read in aligned "
		      "32-bit words (did you mean ld [%u]?)",
		      text, insn->k & ~3U);
}

/* seccomp_check_filter: seccomp's own whitelist, after bpf_check_classic passed. */
static bool check_seccomp(const struct scg_prog *prog, struct refusal *why)
{
	for (size_t pc = 0; pc < prog->len; pc++) {
		const struct scg_insn *insn = &prog->insns[pc];
		uint16_t code = insn->code;
		char text[48];
		if (BPF_CLASS(code) == BPF_LD && BPF_MODE(code) == BPF_ABS) {
			if (code != (BPF_LD | BPF_W | BPF_ABS) || insn->k >= SCG_DATA_SIZE ||
			    insn->k & 3)
				return refuse_seccomp_load(insn, pc, why);
			continue;
		}
		if (code < CLASSIC_TABLE_SIZE && (classic_codes[code] & SECCOMP))
			continue;
		describe(insn, text, sizeof(text));
		if (BPF_CLASS(code) == BPF_ALU)
			return refuse(why, (long)pc, "seccomp-opcode",
				      "compute A - (A / n) * n with div, mul and sub",
				      "%s: seccomp filters cannot use mod", text);
		if (BPF_MODE(code) == BPF_IND)
			return refuse(why, (long)pc, "seccomp-opcode",
				      "seccomp filters read only fixed offsets: ld [k]",
				      "%s: seccomp filters cannot use indexed loads", text);
		return refuse(why, (long)pc, "seccomp-opcode", NULL,
			      "%s: seccomp filters cannot use this instruction", text);
	}
	return true;
}

bool verify_decide(const struct scg_prog *prog, struct refusal *why)
{
	struct refusal ignored;
	if (!why)
		why = &ignored;
	return check_length(prog, why) && check_classic(prog, why) && check_seccomp(prog, why);
}

static int report(const struct refusal *why, const char *prefix, struct scg_diag *diag)
{
	struct scg_loc loc = why->insn >= 0 ? SCG_LOC_INSN(why->insn) : SCG_LOC_NONE;
	return scg_diag_add(diag, SCG_SEV_ERROR, loc, why->rule, why->hint, "%s%s", prefix,
			    why->message);
}

int scg_verify(const struct scg_prog *prog, const struct scg_arch *arch,
	       struct scg_verify_result *res, struct scg_diag *diag)
{
	if (!prog || !res || (prog->len && !prog->insns))
		return -EINVAL;
	*res = (struct scg_verify_result){.error_insn = -1};
	struct refusal why;
	if (!verify_decide(prog, &why)) {
		res->kernel_errno = why.kernel_errno;
		res->error_insn = why.insn;
		res->rule = why.rule;
		return report(&why, "", diag);
	}
	res->accepted = true;
	res->ebpf_len = scg_prog_ebpf_len(prog);
	return verify_warn(prog, arch, diag);
}

static int refuse_stack_member(size_t i, size_t n, const struct refusal *why,
			       struct scg_verify_result *res, struct scg_diag *diag)
{
	char prefix[64];
	snprintf(prefix, sizeof(prefix), "filter %zu of %zu: ", i + 1, n);
	res->kernel_errno = why->kernel_errno;
	res->error_insn = why->insn;
	res->rule = why->rule;
	return report(why, prefix, diag);
}

int scg_verify_stack(const struct scg_prog *progs, size_t n, const struct scg_arch *arch,
		     struct scg_verify_result *res, struct scg_diag *diag)
{
	(void)arch; /* the decision does not depend on the ABI */
	if (!progs || !res || n == 0)
		return -EINVAL;
	*res = (struct scg_verify_result){.error_insn = -1};
	size_t older = 0; /* translated lengths of the installed filters plus 4 each */
	for (size_t i = 0; i < n; i++) {
		if (progs[i].len && !progs[i].insns)
			return -EINVAL;
		struct refusal why;
		if (!verify_decide(&progs[i], &why))
			return refuse_stack_member(i, n, &why, res, diag);
		size_t len = scg_prog_ebpf_len(&progs[i]);
		if (len + older > SCG_MAX_INSNS_PER_PATH) {
			res->kernel_errno = ENOMEM;
			res->rule = "path-limit";
			return scg_diag_add(
			    diag, SCG_SEV_ERROR, SCG_LOC_NONE, "path-limit",
			    "fewer or shorter filters; each older filter also costs 4",
			    "filter %zu of %zu: the path would count %zu translated instructions "
			    "(%zu for this filter, %zu for the %zu before it with 4 each added); "
			    "the kernel allows %u",
			    i + 1, n, len + older, len, older, i, SCG_MAX_INSNS_PER_PATH);
		}
		older += len + SCG_PATH_PENALTY;
	}
	res->accepted = true;
	res->ebpf_len = older - SCG_PATH_PENALTY;
	return 0;
}
