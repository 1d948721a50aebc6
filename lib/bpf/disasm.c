/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * scg_disasm() and its assembler output: one instruction per line, labels
 * "L<index>" on jump targets, comments with what the numbers mean.  The
 * text assembles back to the same bytes for any input, valid or not
 * (insn_text.c decides each spelling).
 */
#include <errno.h>
#include <stdlib.h>

#include "bpf/disasm_internal.h"

/* Instructions are padded to this column before their comment. */
#define COMMENT_COLUMN 40

/* Marks the instructions the text will refer to by label. */
static void collect_labels(const struct disasm_info *info, bool *labelled)
{
	struct strbuf scratch = STRBUF_INIT;
	for (size_t pc = 0; pc < info->prog->len; pc++) {
		struct asm_text_opts opts = disasm_text_opts(info, pc);
		opts.referenced = labelled;
		scratch.len = 0;
		asm_insn_text(&scratch, &info->prog->insns[pc], pc, &opts);
	}
	strbuf_release(&scratch);
}

static void append_line(const struct disasm_info *info, size_t pc, bool labelled,
			struct strbuf *comment, struct strbuf *sb)
{
	if (labelled)
		strbuf_appendf(sb, "L%zu:", pc);
	strbuf_append(sb, "\t");
	size_t start = sb->len;
	struct asm_text_opts opts = disasm_text_opts(info, pc);
	asm_insn_text(sb, &info->prog->insns[pc], pc, &opts);
	comment->len = 0;
	disasm_annotate(info, pc, comment);
	if (comment->len && !comment->failed) {
		size_t column = 8 + sb->len - start; /* after the tab */
		do
			strbuf_append(sb, " ");
		while (++column < COMMENT_COLUMN);
		strbuf_append(sb, "; ");
		strbuf_append(sb, comment->data);
	}
	sb->failed |= comment->failed;
	strbuf_append(sb, "\n");
}

int disasm_format_asm(const struct disasm_info *info, struct strbuf *sb)
{
	const struct scg_prog *prog = info->prog;
	bool *labelled = calloc(prog->len ? prog->len : 1, sizeof(*labelled));
	if (!labelled)
		return -ENOMEM;
	collect_labels(info, labelled);
	strbuf_appendf(sb, "; %zu instruction%s", prog->len, prog->len == 1 ? "" : "s");
	if (info->arch)
		strbuf_appendf(sb, ", names for %s", scg_arch_name(info->arch));
	strbuf_append(sb, "\n");
	struct strbuf comment = STRBUF_INIT;
	for (size_t pc = 0; pc < prog->len; pc++)
		append_line(info, pc, labelled[pc], &comment, sb);
	strbuf_release(&comment);
	free(labelled);
	return 0;
}

int scg_disasm(const struct scg_prog *prog, const struct scg_arch *arch,
	       enum scg_disasm_format format, char **text)
{
	if (text)
		*text = NULL;
	/* an empty program is no filter (and would be an invalid C array) */
	if (!prog || !text || !prog->len || !prog->insns)
		return -EINVAL;
	struct disasm_info info;
	int r = disasm_analyze(prog, arch ? arch : scg_arch_native(), &info);
	if (r < 0)
		return r;
	struct strbuf sb = STRBUF_INIT;
	switch (format) {
	case SCG_DISASM_ASM:
		r = disasm_format_asm(&info, &sb);
		break;
	case SCG_DISASM_TABLE:
		r = disasm_format_table(&info, &sb);
		break;
	case SCG_DISASM_DOT:
		r = disasm_format_dot(&info, &sb);
		break;
	case SCG_DISASM_C:
		r = disasm_format_c(&info, &sb);
		break;
	default:
		r = -EINVAL;
		break;
	}
	disasm_info_release(&info);
	if (r == 0)
		return strbuf_finish(&sb, text);
	strbuf_release(&sb);
	return r;
}
