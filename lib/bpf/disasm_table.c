/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The table format: index, raw fields and a pseudo-C line per instruction,
 * for reading a filter next to a hex dump or a verifier message.
 */
#include <errno.h>
#include <string.h>

#include "bpf/disasm_internal.h"
#include "bpf/opcodes.h"

static void append_goto(const struct disasm_info *info, uint64_t target, struct strbuf *sb)
{
	strbuf_appendf(sb, "goto %llu", (unsigned long long)target);
	if (target >= info->prog->len)
		strbuf_append(sb, " (past the end)");
}

/* "data[16]", "(u16)data[x + 2]" or a field name. */
static void append_load_source(const struct disasm_info *info, const struct scg_insn *insn,
			       struct strbuf *sb)
{
	const char *cast = BPF_SIZE(insn->code) == BPF_H   ? "(u16)"
			   : BPF_SIZE(insn->code) == BPF_B ? "(u8)"
							   : "";
	char field[16];
	if (BPF_MODE(insn->code) == BPF_IND)
		strbuf_appendf(sb, "%sdata[X + %u]", cast, insn->k);
	else if (!*cast && asm_field_name(insn->k, info->arch, field, sizeof(field)))
		strbuf_append(sb, field);
	else
		strbuf_appendf(sb, "%sdata[%u]", cast, insn->k);
}

static void pseudo_load(const struct disasm_info *info, const struct scg_insn *insn,
			const char *reg, struct strbuf *sb)
{
	strbuf_appendf(sb, "%s = ", reg);
	switch (BPF_MODE(insn->code)) {
	case BPF_IMM:
		asm_append_number(sb, insn->k, true);
		break;
	case BPF_MEM:
		strbuf_appendf(sb, "M[%u]", insn->k);
		break;
	case BPF_LEN:
		strbuf_append(sb, "len");
		break;
	case BPF_MSH:
		strbuf_appendf(sb, "4 * (data[%u] & 0xf)", insn->k);
		break;
	default:
		append_load_source(info, insn, sb);
		break;
	}
}

static const char *alu_operator(uint16_t op)
{
	static const struct {
		uint16_t op;
		const char *text;
	} ops[] = {
		{ BPF_ADD, "+=" },  { BPF_SUB, "-=" }, { BPF_MUL, "*=" }, { BPF_DIV, "/=" },
		{ BPF_MOD, "%=" },  { BPF_AND, "&=" }, { BPF_OR, "|=" },  { BPF_XOR, "^=" },
		{ BPF_LSH, "<<=" }, { BPF_RSH, ">>=" },
	};
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (ops[i].op == op)
			return ops[i].text;
	return "?=";
}

static const char *jump_operator(uint16_t op)
{
	switch (op) {
	case BPF_JEQ:
		return "==";
	case BPF_JGT:
		return ">";
	case BPF_JGE:
		return ">=";
	default:
		return "&";
	}
}

static void pseudo_jump(const struct disasm_info *info, size_t pc, struct strbuf *sb)
{
	const struct scg_insn *insn = &info->prog->insns[pc];
	if (BPF_OP(insn->code) == BPF_JA) {
		append_goto(info, (uint64_t)pc + 1 + insn->k, sb);
		return;
	}
	strbuf_appendf(sb, "if (A %s ", jump_operator(BPF_OP(insn->code)));
	if (BPF_SRC(insn->code) == BPF_X)
		strbuf_append(sb, "X");
	else
		asm_append_number(sb, insn->k, BPF_OP(insn->code) == BPF_JSET);
	strbuf_append(sb, ") ");
	append_goto(info, (uint64_t)pc + 1 + insn->jt, sb);
	strbuf_append(sb, "; else ");
	append_goto(info, (uint64_t)pc + 1 + insn->jf, sb);
}

static void pseudo_ret(const struct scg_insn *insn, struct strbuf *sb)
{
	char action[48];
	if (BPF_RVAL(insn->code) == BPF_A)
		strbuf_append(sb, "return A");
	else if (BPF_RVAL(insn->code) == BPF_X)
		strbuf_append(sb, "return X");
	else if (scg_ret_format(insn->k, action, sizeof(action)) >= 0)
		strbuf_appendf(sb, "return %s", action);
}

void disasm_pseudo_c(const struct disasm_info *info, size_t pc, struct strbuf *sb)
{
	const struct scg_insn *insn = &info->prog->insns[pc];
	const struct asm_form *form = asm_form_by_code(insn->code);
	if (!form) {
		strbuf_appendf(sb, "invalid opcode %#x", insn->code);
		return;
	}
	const char *operand = BPF_SRC(insn->code) == BPF_X ? "X" : NULL;
	switch (BPF_CLASS(insn->code)) {
	case BPF_LD:
	case BPF_LDX:
		pseudo_load(info, insn, BPF_CLASS(insn->code) == BPF_LD ? "A" : "X", sb);
		break;
	case BPF_ST:
	case BPF_STX:
		strbuf_appendf(sb, "M[%u] = %s", insn->k,
				   BPF_CLASS(insn->code) == BPF_ST ? "A" : "X");
		break;
	case BPF_ALU:
		if (BPF_OP(insn->code) == BPF_NEG) {
			strbuf_append(sb, "A = -A");
			break;
		}
		strbuf_appendf(sb, "A %s ", alu_operator(BPF_OP(insn->code)));
		if (operand)
			strbuf_append(sb, operand);
		else
			asm_append_number(sb, insn->k, true);
		break;
	case BPF_JMP:
		pseudo_jump(info, pc, sb);
		break;
	case BPF_RET:
		pseudo_ret(insn, sb);
		break;
	default:
		strbuf_append(sb, insn->code == (BPF_MISC | BPF_TAX) ? "X = A" : "A = X");
		break;
	}
}

int disasm_format_table(const struct disasm_info *info, struct strbuf *sb)
{
	struct strbuf line = STRBUF_INIT;
	strbuf_append(sb, " idx    code   jt   jf           k  pseudo-C\n");
	for (size_t pc = 0; pc < info->prog->len; pc++) {
		const struct scg_insn *insn = &info->prog->insns[pc];
		strbuf_appendf(sb, "%4zu  0x%04x  %3u  %3u  0x%08x  ", pc, insn->code, insn->jt,
				   insn->jf, insn->k);
		line.len = 0;
		disasm_pseudo_c(info, pc, &line);
		size_t width = line.len;
		strbuf_append(sb, line.len ? line.data : "");
		line.len = 0;
		disasm_annotate(info, pc, &line);
		if (line.len) {
			for (; width < 44; width++)
				strbuf_append(sb, " ");
			strbuf_appendf(sb, "  // %s", line.data);
		}
		strbuf_append(sb, "\n");
	}
	sb->failed |= line.failed;
	strbuf_release(&line);
	return 0;
}
