/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The Graphviz format: one box per basic block (a run of instructions
 * entered only at its first and left only at its last), edges for
 * fall-through, ja, and the true/false branches of conditional jumps.
 * Jumps past the last instruction go to a separate "past the end" node.
 */
#include <errno.h>
#include <stdlib.h>

#include "bpf/disasm_internal.h"
#include "bpf/opcodes.h"

static bool ends_block(const struct scg_insn *insn)
{
	return BPF_CLASS(insn->code) == BPF_JMP || BPF_CLASS(insn->code) == BPF_RET;
}

/* leader[pc]: instruction @pc starts a basic block. */
static bool *find_leaders(const struct scg_prog *prog)
{
	bool *leader = calloc(prog->len ? prog->len : 1, sizeof(*leader));
	if (!leader)
		return NULL;
	for (size_t pc = 0; pc < prog->len; pc++) {
		if (pc == 0 || ends_block(&prog->insns[pc - 1]))
			leader[pc] = true;
		if (BPF_CLASS(prog->insns[pc].code) != BPF_JMP)
			continue;
		struct disasm_succ succ;
		disasm_successors(prog, pc, &succ);
		for (unsigned i = 0; i < succ.n; i++)
			if (succ.target[i] < prog->len)
				leader[succ.target[i]] = true;
	}
	return leader;
}

/* Appends @s inside a double-quoted DOT string. */
static void append_escaped(struct strbuf *sb, const char *s)
{
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			strbuf_append(sb, "\\");
		strbuf_appendn(sb, s, 1);
	}
}

static void append_insn_line(const struct disasm_info *info, size_t pc, struct strbuf *line,
			     struct strbuf *sb)
{
	line->len = 0;
	strbuf_appendf(line, "%zu: ", pc);
	struct asm_text_opts opts = disasm_text_opts(info, pc);
	asm_insn_text(line, &info->prog->insns[pc], pc, &opts);
	size_t before = line->len;
	strbuf_append(line, "  ; ");
	disasm_annotate(info, pc, line);
	if (line->len == before + 4 && !line->failed) {
		line->len = before;
		line->data[before] = '\0';
	}
	if (!line->failed)
		append_escaped(sb, line->data);
	sb->failed |= line->failed;
	strbuf_append(sb, "\\l");
}

static void append_edge(const struct disasm_info *info, size_t from, uint64_t to,
			const char *attrs, bool *past_end, struct strbuf *sb)
{
	if (to >= info->prog->len) {
		*past_end = true;
		strbuf_appendf(sb, "\tb%zu -> past_end%s;\n", from, attrs);
	} else {
		strbuf_appendf(sb, "\tb%zu -> b%llu%s;\n", from, (unsigned long long)to, attrs);
	}
}

/* Edges leaving the block that starts at @start and ends at @last. */
static void append_edges(const struct disasm_info *info, size_t start, size_t last,
			 bool *past_end, struct strbuf *sb)
{
	struct disasm_succ succ;
	disasm_successors(info->prog, last, &succ);
	if (succ.conditional) {
		append_edge(info, start, succ.target[0], " [label=\"true\", color=darkgreen]",
			    past_end, sb);
		append_edge(info, start, succ.target[1], " [label=\"false\", color=red]", past_end,
			    sb);
	} else if (succ.n == 1) {
		append_edge(info, start, succ.target[0], "", past_end, sb);
	}
}

int disasm_format_dot(const struct disasm_info *info, struct strbuf *sb)
{
	const struct scg_prog *prog = info->prog;
	bool *leader = find_leaders(prog);
	if (!leader)
		return -ENOMEM;
	struct strbuf line = STRBUF_INIT;
	bool past_end = false;
	strbuf_append(sb, "digraph filter {\n"
			      "\tnode [shape=box, fontname=\"monospace\"];\n");
	for (size_t start = 0; start < prog->len;) {
		size_t last = start;
		while (last + 1 < prog->len && !leader[last + 1])
			last++;
		strbuf_appendf(sb, "\tb%zu [label=\"", start);
		for (size_t pc = start; pc <= last; pc++)
			append_insn_line(info, pc, &line, sb);
		strbuf_append(sb, "\"];\n");
		append_edges(info, start, last, &past_end, sb);
		start = last + 1;
	}
	if (past_end)
		strbuf_append(sb, "\tpast_end [label=\"past the end\", shape=octagon];\n");
	strbuf_append(sb, "}\n");
	strbuf_release(&line);
	free(leader);
	return 0;
}
