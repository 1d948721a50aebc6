/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The assembler syntax as data: which mnemonic and operand make which
 * opcode, the seccomp_data field names and bpf_asm's ancillary names.  The
 * assembler reads these tables to encode and the disassembler to decode,
 * so what one prints the other reads back to the same bytes.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "bpf/asm_internal.h"
#include "bpf/opcodes.h"
#include "util/suggest.h"

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

#define ALU_FORMS(name, op)                                                 \
	{ name, ASM_OPND_IMM, BPF_ALU | (op) | BPF_K, false, false },       \
	{ name, ASM_OPND_X, BPF_ALU | (op) | BPF_X, false, false }

#define JUMP_FORMS(name, op, inverted, alias)                                \
	{ name, ASM_OPND_COND_K, BPF_JMP | (op) | BPF_K, inverted, alias },  \
	{ name, ASM_OPND_COND_X, BPF_JMP | (op) | BPF_X, inverted, alias }

/*
 * Order matters to the disassembler: for each code it prints the first
 * non-alias form.  The inverted jump forms are printed by choice (see
 * insn_text.c), so they are not aliases.
 */
static const struct asm_form forms[] = {
	{ "ld", ASM_OPND_IMM, BPF_LD | BPF_W | BPF_IMM, false, false },
	{ "ld", ASM_OPND_LEN, BPF_LD | BPF_W | BPF_LEN, false, false },
	{ "ld", ASM_OPND_MEM, BPF_LD | BPF_MEM, false, false },
	{ "ld", ASM_OPND_ABS, BPF_LD | BPF_W | BPF_ABS, false, false },
	{ "ld", ASM_OPND_IND, BPF_LD | BPF_W | BPF_IND, false, false },
	{ "ldh", ASM_OPND_ABS, BPF_LD | BPF_H | BPF_ABS, false, false },
	{ "ldh", ASM_OPND_IND, BPF_LD | BPF_H | BPF_IND, false, false },
	{ "ldb", ASM_OPND_ABS, BPF_LD | BPF_B | BPF_ABS, false, false },
	{ "ldb", ASM_OPND_IND, BPF_LD | BPF_B | BPF_IND, false, false },
	{ "ldi", ASM_OPND_IMM, BPF_LD | BPF_W | BPF_IMM, false, true },
	{ "ldi", ASM_OPND_BARE, BPF_LD | BPF_W | BPF_IMM, false, true },
	{ "ldx", ASM_OPND_IMM, BPF_LDX | BPF_W | BPF_IMM, false, false },
	{ "ldx", ASM_OPND_LEN, BPF_LDX | BPF_W | BPF_LEN, false, false },
	{ "ldx", ASM_OPND_MEM, BPF_LDX | BPF_MEM, false, false },
	{ "ldx", ASM_OPND_MSH, BPF_LDX | BPF_B | BPF_MSH, false, false },
	{ "ldxb", ASM_OPND_MSH, BPF_LDX | BPF_B | BPF_MSH, false, true },
	{ "ldxi", ASM_OPND_IMM, BPF_LDX | BPF_W | BPF_IMM, false, true },
	{ "ldxi", ASM_OPND_BARE, BPF_LDX | BPF_W | BPF_IMM, false, true },
	{ "st", ASM_OPND_MEM, BPF_ST, false, false },
	{ "stx", ASM_OPND_MEM, BPF_STX, false, false },
	{ "ja", ASM_OPND_TARGET, BPF_JMP | BPF_JA, false, false },
	{ "jmp", ASM_OPND_TARGET, BPF_JMP | BPF_JA, false, true },
	JUMP_FORMS("jeq", BPF_JEQ, false, false),
	JUMP_FORMS("jne", BPF_JEQ, true, false),
	JUMP_FORMS("jneq", BPF_JEQ, true, true),
	JUMP_FORMS("jgt", BPF_JGT, false, false),
	JUMP_FORMS("jle", BPF_JGT, true, false),
	JUMP_FORMS("jge", BPF_JGE, false, false),
	JUMP_FORMS("jlt", BPF_JGE, true, false),
	JUMP_FORMS("jset", BPF_JSET, false, false),
	ALU_FORMS("add", BPF_ADD),
	ALU_FORMS("sub", BPF_SUB),
	ALU_FORMS("mul", BPF_MUL),
	ALU_FORMS("div", BPF_DIV),
	ALU_FORMS("mod", BPF_MOD),
	ALU_FORMS("and", BPF_AND),
	ALU_FORMS("or", BPF_OR),
	ALU_FORMS("xor", BPF_XOR),
	ALU_FORMS("lsh", BPF_LSH),
	ALU_FORMS("rsh", BPF_RSH),
	{ "neg", ASM_OPND_NONE, BPF_ALU | BPF_NEG, false, false },
	{ "ret", ASM_OPND_IMM, BPF_RET | BPF_K, false, false },
	{ "ret", ASM_OPND_A, BPF_RET | BPF_A, false, false },
	{ "ret", ASM_OPND_X, BPF_RET | BPF_X, false, false },
	{ "tax", ASM_OPND_NONE, BPF_MISC | BPF_TAX, false, false },
	{ "txa", ASM_OPND_NONE, BPF_MISC | BPF_TXA, false, false },
};

static bool mnemonic_is(const struct asm_form *form, const char *mnemonic, size_t len)
{
	return strlen(form->mnemonic) == len && !strncasecmp(form->mnemonic, mnemonic, len);
}

const struct asm_form *asm_form_find(const char *mnemonic, size_t len, enum asm_operand operand)
{
	for (size_t i = 0; i < COUNT_OF(forms); i++)
		if (forms[i].operand == operand && mnemonic_is(&forms[i], mnemonic, len))
			return &forms[i];
	return NULL;
}

bool asm_mnemonic_known(const char *mnemonic, size_t len)
{
	for (size_t i = 0; i < COUNT_OF(forms); i++)
		if (mnemonic_is(&forms[i], mnemonic, len))
			return true;
	return false;
}

const char *asm_mnemonic_suggest(const char *word)
{
	struct suggest s;
	suggest_init(&s, word);
	for (size_t i = 0; i < COUNT_OF(forms); i++)
		suggest_consider(&s, forms[i].mnemonic);
	return suggest_result(&s);
}

const char *asm_operand_syntax(enum asm_operand operand)
{
	switch (operand) {
	case ASM_OPND_NONE:
		return "no operand";
	case ASM_OPND_IMM:
		return "#k";
	case ASM_OPND_BARE:
		return "k";
	case ASM_OPND_LEN:
		return "#len";
	case ASM_OPND_MEM:
		return "M[k]";
	case ASM_OPND_ABS:
		return "[k]";
	case ASM_OPND_IND:
		return "[x + k]";
	case ASM_OPND_MSH:
		return "4*([k]&0xf)";
	case ASM_OPND_X:
		return "x";
	case ASM_OPND_A:
		return "a";
	case ASM_OPND_TARGET:
		return "label";
	case ASM_OPND_COND_K:
		return "#k, Ltrue[, Lfalse]";
	case ASM_OPND_COND_X:
		return "x, Ltrue[, Lfalse]";
	}
	return "?";
}

void asm_mnemonic_operands(struct strbuf *sb, const char *mnemonic, size_t len)
{
	bool first = true;
	for (size_t i = 0; i < COUNT_OF(forms); i++) {
		if (!mnemonic_is(&forms[i], mnemonic, len))
			continue;
		strbuf_append(sb, first ? "" : " or ");
		strbuf_append(sb, asm_operand_syntax(forms[i].operand));
		first = false;
	}
	if (len == 3 && !strncasecmp(mnemonic, "ret", 3))
		strbuf_append(sb, " or an action (ALLOW, ERRNO(EPERM), ...)");
}

/* Which of jt, jf and k an operand kind uses; the rest must be zero. */
static bool unused_fields_zero(const struct asm_form *form, const struct scg_insn *insn)
{
	switch (form->operand) {
	case ASM_OPND_NONE:
	case ASM_OPND_LEN:
	case ASM_OPND_X:
	case ASM_OPND_A:
		return insn->jt == 0 && insn->jf == 0 && insn->k == 0;
	case ASM_OPND_IMM:
	case ASM_OPND_BARE:
	case ASM_OPND_MEM:
	case ASM_OPND_ABS:
	case ASM_OPND_IND:
	case ASM_OPND_MSH:
	case ASM_OPND_TARGET:
		return insn->jt == 0 && insn->jf == 0;
	case ASM_OPND_COND_K:
		return true;
	case ASM_OPND_COND_X:
		return insn->k == 0;
	}
	return false;
}

const struct asm_form *asm_form_by_code(uint16_t code)
{
	for (size_t i = 0; i < COUNT_OF(forms); i++)
		if (forms[i].code == code && !forms[i].alias && !forms[i].inverted)
			return &forms[i];
	return NULL;
}

const struct asm_form *asm_form_of_insn(const struct scg_insn *insn)
{
	for (size_t i = 0; i < COUNT_OF(forms); i++) {
		const struct asm_form *form = &forms[i];
		if (form->alias || form->inverted || form->code != insn->code)
			continue;
		return unused_fields_zero(form, insn) ? form : NULL;
	}
	return NULL;
}

/* --- seccomp_data fields --------------------------------------------- */

static bool word_is(const char *s, size_t len, const char *word)
{
	return strlen(word) == len && !strncasecmp(s, word, len);
}

/* Splits "arg3.hi" into base "arg3" and half; false if the suffix is not .lo/.hi. */
static bool split_half(const char *name, size_t len, size_t *base_len, int *half)
{
	*base_len = len;
	*half = -1; /* no suffix: the low word */
	if (len > 3 && name[len - 3] == '.') {
		if (word_is(name + len - 2, 2, "lo"))
			*half = 0;
		else if (word_is(name + len - 2, 2, "hi"))
			*half = 1;
		else
			return false;
		*base_len = len - 3;
	}
	return true;
}

int asm_field_offset(const char *name, size_t len, const struct scg_arch *arch, uint32_t *offset)
{
	if (word_is(name, len, "nr")) {
		*offset = SCG_DATA_NR;
		return 0;
	}
	if (word_is(name, len, "arch")) {
		*offset = SCG_DATA_ARCH;
		return 0;
	}
	size_t base;
	int half;
	if (!split_half(name, len, &base, &half))
		return -ENOENT;
	bool is_ip = word_is(name, base, "ip");
	bool is_arg = base == 4 && !strncasecmp(name, "arg", 3) && name[3] >= '0' && name[3] <= '5';
	if (!is_ip && !is_arg)
		return -ENOENT;
	if (!arch)
		return -EINVAL;
	bool high = half == 1;
	if (is_ip) {
		*offset = scg_arch_ip_offset(arch, high);
		return 0;
	}
	int off = scg_arch_arg_offset(arch, (unsigned)(name[3] - '0'), high);
	if (off < 0)
		return off;
	*offset = (uint32_t)off;
	return 0;
}

bool asm_field_name(uint32_t offset, const struct scg_arch *arch, char *buf, size_t size)
{
	if (offset == SCG_DATA_NR || offset == SCG_DATA_ARCH) {
		snprintf(buf, size, "%s", offset == SCG_DATA_NR ? "nr" : "arch");
		return true;
	}
	if (!arch || offset % 4 || offset < SCG_DATA_IP || offset >= SCG_DATA_SIZE)
		return false;
	for (int high = 0; high < 2; high++) {
		if (offset == scg_arch_ip_offset(arch, high)) {
			snprintf(buf, size, "ip.%s", high ? "hi" : "lo");
			return true;
		}
		for (unsigned arg = 0; arg < 6; arg++) {
			if ((int)offset == scg_arch_arg_offset(arch, arg, high)) {
				snprintf(buf, size, "arg%u.%s", arg, high ? "hi" : "lo");
				return true;
			}
		}
	}
	return false;
}

/* --- bpf_asm's ancillary loads (SKF_AD_* offsets, linux/filter.h) ----- */

static const struct {
	const char *name;
	uint32_t offset;
} ancillary[] = {
	{ "proto", 0 },	    { "type", 4 },	  { "ifidx", 8 },	{ "nla", 12 },
	{ "nlan", 16 },	    { "mark", 20 },	  { "queue", 24 },	{ "hatype", 28 },
	{ "rxhash", 32 },   { "cpu", 36 },	  { "vlan_tci", 44 },	{ "vlan_avail", 48 },
	{ "vlan_pr", 48 },  { "poff", 52 },	  { "rand", 56 },	{ "vlan_tpid", 60 },
};

int asm_ancillary_offset(const char *name, size_t len, uint32_t *offset)
{
	for (size_t i = 0; i < COUNT_OF(ancillary); i++) {
		if (word_is(name, len, ancillary[i].name)) {
			*offset = ancillary[i].offset;
			return 0;
		}
	}
	return -ENOENT;
}
