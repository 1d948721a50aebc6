/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The C format: a struct sock_filter array built with the kernel's
 * BPF_STMT/BPF_JUMP macros and a struct sock_fprog, ready to compile.
 * Opcodes are spelled with linux/filter.h names when that spelling
 * computes the same value, in hex otherwise; the array holds exactly the
 * input bytes.  Only SECCOMP_RET_* names present since Linux 3.5 are used,
 * so the snippet builds with old headers too.
 */
#include <errno.h>
#include <string.h>

#include "bpf/disasm_internal.h"
#include "bpf/opcodes.h"

static const char class_names[][9] = {"BPF_LD",	 "BPF_LDX", "BPF_ST",  "BPF_STX",
				      "BPF_ALU", "BPF_JMP", "BPF_RET", "BPF_MISC"};

static const char *size_name(uint16_t code)
{
	switch (BPF_SIZE(code)) {
	case BPF_W:
		return "BPF_W";
	case BPF_H:
		return "BPF_H";
	default:
		return "BPF_B";
	}
}

static const char *mode_name(uint16_t code)
{
	static const char names[][8] = {"BPF_IMM", "BPF_ABS", "BPF_IND",
					"BPF_MEM", "BPF_LEN", "BPF_MSH"};
	return names[BPF_MODE(code) >> 5];
}

static const char *op_name(uint16_t code)
{
	static const char alu[][8] = {"BPF_ADD", "BPF_SUB", "BPF_MUL", "BPF_DIV",
				      "BPF_OR",	 "BPF_AND", "BPF_LSH", "BPF_RSH",
				      "BPF_NEG", "BPF_MOD", "BPF_XOR"};
	static const char jmp[][9] = {"BPF_JA", "BPF_JEQ", "BPF_JGT", "BPF_JGE", "BPF_JSET"};
	unsigned op = BPF_OP(code) >> 4;
	return BPF_CLASS(code) == BPF_ALU ? alu[op] : jmp[op];
}

/* Appends @code as linux/filter.h names; only called for opcodes the syntax knows. */
static void append_code_names(struct strbuf *sb, uint16_t code)
{
	strbuf_append(sb, class_names[BPF_CLASS(code)]);
	switch (BPF_CLASS(code)) {
	case BPF_LD:
	case BPF_LDX:
		if (BPF_MODE(code) != BPF_IMM && BPF_MODE(code) != BPF_MEM)
			strbuf_appendf(sb, " | %s", size_name(code));
		strbuf_appendf(sb, " | %s", mode_name(code));
		break;
	case BPF_ALU:
	case BPF_JMP:
		strbuf_appendf(sb, " | %s", op_name(code));
		if (BPF_OP(code) != BPF_NEG || BPF_CLASS(code) != BPF_ALU)
			if (BPF_OP(code) != BPF_JA || BPF_CLASS(code) != BPF_JMP)
				strbuf_append(sb, BPF_SRC(code) == BPF_X ? " | BPF_X" : " | BPF_K");
		break;
	case BPF_RET:
		strbuf_append(sb, BPF_RVAL(code) == BPF_A   ? " | BPF_A"
				      : BPF_RVAL(code) == BPF_X ? " | BPF_X"
								: " | BPF_K");
		break;
	case BPF_MISC:
		strbuf_append(sb, code == (BPF_MISC | BPF_TAX) ? " | BPF_TAX" : " | BPF_TXA");
		break;
	default:
		break;
	}
}

static void append_k(struct strbuf *sb, const struct scg_insn *insn)
{
	static const struct {
		enum scg_action action;
		const char *name;
	} rets[] = {
		{ SCG_ACTION_ALLOW, "SECCOMP_RET_ALLOW" }, { SCG_ACTION_ERRNO, "SECCOMP_RET_ERRNO" },
		{ SCG_ACTION_TRAP, "SECCOMP_RET_TRAP" },   { SCG_ACTION_TRACE, "SECCOMP_RET_TRACE" },
	};
	if (insn->code == (BPF_RET | BPF_K)) {
		for (size_t i = 0; i < sizeof(rets) / sizeof(rets[0]); i++) {
			if (scg_action_of(insn->k) != rets[i].action)
				continue;
			strbuf_append(sb, rets[i].name);
			if (insn->k & SCG_RET_DATA)
				strbuf_appendf(sb, " | %u", insn->k & SCG_RET_DATA);
			return;
		}
	}
	if (insn->k < 10)
		strbuf_appendf(sb, "%u", insn->k);
	else
		strbuf_appendf(sb, "%#x", insn->k);
}

/* Appends @text as the body of a C comment (no "*" "/" inside). */
static void append_comment_text(struct strbuf *sb, const char *text)
{
	for (; *text; text++) {
		strbuf_appendn(sb, text, 1);
		if (text[0] == '*' && text[1] == '/')
			strbuf_append(sb, " ");
	}
}

static void append_entry(const struct disasm_info *info, size_t pc, struct strbuf *text,
			 struct strbuf *sb)
{
	const struct scg_insn *insn = &info->prog->insns[pc];
	bool jump = insn->jt || insn->jf ||
		    (BPF_CLASS(insn->code) == BPF_JMP && BPF_OP(insn->code) != BPF_JA);
	strbuf_appendf(sb, "\t/* %4zu */ %s(", pc, jump ? "BPF_JUMP" : "BPF_STMT");
	if (asm_form_by_code(insn->code))
		append_code_names(sb, insn->code);
	else
		strbuf_appendf(sb, "%#x", insn->code);
	strbuf_append(sb, ", ");
	append_k(sb, insn);
	if (jump)
		strbuf_appendf(sb, ", %u, %u", insn->jt, insn->jf);
	strbuf_append(sb, "), /* ");
	text->len = 0;
	struct asm_text_opts opts = disasm_text_opts(info, pc);
	asm_insn_text(text, insn, pc, &opts);
	size_t before = text->len;
	strbuf_append(text, "  ; ");
	disasm_annotate(info, pc, text);
	if (text->len == before + 4 && !text->failed)
		text->data[text->len = before] = '\0';
	if (!text->failed)
		append_comment_text(sb, text->data);
	sb->failed |= text->failed;
	strbuf_append(sb, " */\n");
}

int disasm_format_c(const struct disasm_info *info, struct strbuf *sb)
{
	struct strbuf text = STRBUF_INIT;
	strbuf_appendf(sb, "/* seccomp filter: %zu instruction%s */\n", info->prog->len,
			   info->prog->len == 1 ? "" : "s");
	strbuf_append(sb, "#include <linux/filter.h>\n#include <linux/seccomp.h>\n\n"
			      "static struct sock_filter filter[] = {\n");
	for (size_t pc = 0; pc < info->prog->len; pc++)
		append_entry(info, pc, &text, sb);
	strbuf_append(sb, "};\n\nstatic struct sock_fprog prog = {\n"
			      "\t.len = (unsigned short)(sizeof(filter) / sizeof(filter[0])),\n"
			      "\t.filter = filter,\n};\n");
	strbuf_release(&text);
	return 0;
}
