/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * One instruction in assembler syntax.  The rule is round-trip first: a
 * symbolic spelling (a field name, an action, an AUDIT_ARCH_* name) is
 * printed only when reading it back gives the very same value, and an
 * instruction no mnemonic form can reproduce bit for bit is printed as
 * ".insn CODE, JT, JF, K".
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "bpf/asm_internal.h"
#include "bpf/opcodes.h"

void asm_append_number(struct strbuf *sb, uint32_t k, bool prefer_hex)
{
	if (k < 10 || (!prefer_hex && k < 0x10000))
		strbuf_appendf(sb, "%u", k);
	else
		strbuf_appendf(sb, "%#x", k);
}

static void append_target(struct strbuf *sb, size_t pc, uint32_t offset,
			  const struct asm_text_opts *opts)
{
	uint64_t target = (uint64_t)pc + 1 + offset;
	if (target < opts->prog_len) {
		strbuf_appendf(sb, "L%llu", (unsigned long long)target);
		if (opts->referenced)
			opts->referenced[target] = true;
	} else
		strbuf_appendf(sb, "+%u", offset);
}

/* ret ALLOW, ret ERRNO(13), ... when that text parses back to @k. */
static bool append_action(struct strbuf *sb, uint32_t k, const struct scg_arch *arch)
{
	char text[48];
	uint32_t back;
	if (scg_ret_format(k, text, sizeof(text)) >= (int)sizeof(text) ||
	    scg_ret_parse(text, arch, &back) < 0 || back != k)
		return false;
	strbuf_append(sb, text);
	return true;
}

static void append_abs(struct strbuf *sb, const struct scg_insn *insn,
		       const struct asm_text_opts *opts)
{
	char name[16];
	uint32_t back;
	bool word = BPF_SIZE(insn->code) == BPF_W;
	if (word && asm_field_name(insn->k, opts->arch, name, sizeof(name)) &&
	    asm_field_offset(name, strlen(name), opts->arch, &back) == 0 && back == insn->k)
		strbuf_appendf(sb, "[%s]", name);
	else {
		strbuf_append(sb, "[");
		asm_append_number(sb, insn->k, insn->k >= SCG_SKF_AD_OFF);
		strbuf_append(sb, "]");
	}
}

static bool prefers_hex(uint16_t code)
{
	if (BPF_CLASS(code) == BPF_ALU)
		return BPF_OP(code) == BPF_AND || BPF_OP(code) == BPF_OR || BPF_OP(code) == BPF_XOR;
	if (BPF_CLASS(code) == BPF_JMP)
		return BPF_OP(code) == BPF_JSET;
	return BPF_CLASS(code) == BPF_RET;
}

static void append_imm(struct strbuf *sb, const struct scg_insn *insn,
		       const struct asm_text_opts *opts)
{
	uint32_t back;
	const char *audit = opts->a_holds_arch ? scg_audit_arch_name(insn->k) : NULL;
	if (audit && scg_audit_arch_lookup(audit, &back) == 0 && back == insn->k) {
		strbuf_appendf(sb, "#%s", audit);
		return;
	}
	strbuf_append(sb, "#");
	asm_append_number(sb, insn->k, prefers_hex(insn->code));
}

/* The mnemonic that swaps the branches of @op's jump, or NULL (jset). */
static const char *inverted_mnemonic(uint16_t op)
{
	switch (op) {
	case BPF_JEQ:
		return "jne";
	case BPF_JGT:
		return "jle";
	case BPF_JGE:
		return "jlt";
	default:
		return NULL;
	}
}

/* jeq #k, Lt / jne #k, Lf / jeq #k, Lt, Lf: the shortest form that says it. */
static void append_cond_jump(struct strbuf *sb, const struct asm_form *form,
			     const struct scg_insn *insn, size_t pc, const struct asm_text_opts *opts)
{
	const char *inverted = inverted_mnemonic(BPF_OP(insn->code));
	bool use_inverted = insn->jf != 0 && insn->jt == 0 && inverted;
	strbuf_appendf(sb, "%s ", use_inverted ? inverted : form->mnemonic);
	if (form->operand == ASM_OPND_COND_X)
		strbuf_append(sb, "x");
	else
		append_imm(sb, insn, opts);
	strbuf_append(sb, ", ");
	if (use_inverted) {
		append_target(sb, pc, insn->jf, opts);
		return;
	}
	append_target(sb, pc, insn->jt, opts);
	if (insn->jf) {
		strbuf_append(sb, ", ");
		append_target(sb, pc, insn->jf, opts);
	}
}

static void append_operand(struct strbuf *sb, const struct asm_form *form,
			   const struct scg_insn *insn, size_t pc, const struct asm_text_opts *opts)
{
	switch (form->operand) {
	case ASM_OPND_NONE:
	case ASM_OPND_COND_K:
	case ASM_OPND_COND_X:
		break;
	case ASM_OPND_IMM:
	case ASM_OPND_BARE:
		if (insn->code == (BPF_RET | BPF_K) && append_action(sb, insn->k, opts->arch))
			break;
		append_imm(sb, insn, opts);
		break;
	case ASM_OPND_LEN:
		strbuf_append(sb, "#len");
		break;
	case ASM_OPND_MEM:
		strbuf_appendf(sb, "M[%u]", insn->k);
		break;
	case ASM_OPND_ABS:
		append_abs(sb, insn, opts);
		break;
	case ASM_OPND_IND:
		strbuf_append(sb, "[x + ");
		asm_append_number(sb, insn->k, false);
		strbuf_append(sb, "]");
		break;
	case ASM_OPND_MSH:
		strbuf_append(sb, "4*([");
		asm_append_number(sb, insn->k, false);
		strbuf_append(sb, "]&0xf)");
		break;
	case ASM_OPND_X:
		strbuf_append(sb, "x");
		break;
	case ASM_OPND_A:
		strbuf_append(sb, "a");
		break;
	case ASM_OPND_TARGET:
		append_target(sb, pc, insn->k, opts);
		break;
	}
}

bool asm_insn_text(struct strbuf *sb, const struct scg_insn *insn, size_t pc,
		   const struct asm_text_opts *opts)
{
	const struct asm_form *form = asm_form_of_insn(insn);
	if (!form) {
		strbuf_appendf(sb, ".insn %#x, %u, %u, %#x", insn->code, insn->jt, insn->jf,
				   insn->k);
		return false;
	}
	if (form->operand == ASM_OPND_COND_K || form->operand == ASM_OPND_COND_X) {
		append_cond_jump(sb, form, insn, pc, opts);
		return true;
	}
	strbuf_append(sb, form->mnemonic);
	if (form->operand != ASM_OPND_NONE)
		strbuf_append(sb, " ");
	append_operand(sb, form, insn, pc, opts);
	return true;
}

int scg_insn_text(const struct scg_insn *insn, size_t pc, size_t prog_len,
		  const struct scg_arch *arch, char **text)
{
	if (!insn || !text)
		return -EINVAL;
	*text = NULL;
	struct asm_text_opts opts = { .arch = arch, .prog_len = prog_len };
	struct strbuf sb = STRBUF_INIT;
	asm_insn_text(&sb, insn, pc, &opts);
	return strbuf_finish(&sb, text);
}
