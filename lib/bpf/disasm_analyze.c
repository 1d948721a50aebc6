/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the disassembler knows about each instruction: whether A holds nr
 * or arch, and which ABI an earlier "jeq #AUDIT_ARCH_..." established.
 * Jumps only go forward, so one pass in program order sees every
 * predecessor of an instruction before the instruction itself; facts that
 * differ between predecessors are dropped.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/disasm_internal.h"
#include "bpf/opcodes.h"

void disasm_successors(const struct scg_prog *prog, size_t pc, struct disasm_succ *out)
{
	const struct scg_insn *insn = &prog->insns[pc];
	*out = (struct disasm_succ){ { 0, 0 }, 0, false };
	switch (BPF_CLASS(insn->code)) {
	case BPF_RET:
		return;
	case BPF_JMP:
		if (BPF_OP(insn->code) == BPF_JA) {
			out->target[0] = (uint64_t)pc + 1 + insn->k;
			out->n = 1;
			return;
		}
		out->target[0] = (uint64_t)pc + 1 + insn->jt;
		out->target[1] = (uint64_t)pc + 1 + insn->jf;
		out->n = 2;
		out->conditional = true;
		return;
	default:
		out->target[0] = (uint64_t)pc + 1;
		out->n = 1;
		return;
	}
}

static void merge_into(struct disasm_state *dst, const struct disasm_state *src)
{
	if (!dst->reached) {
		*dst = *src;
		return;
	}
	if (dst->a != src->a)
		dst->a = DISASM_A_UNKNOWN;
	if (dst->abi_known != src->abi_known || dst->audit != src->audit) {
		dst->abi_known = false;
		dst->audit = 0;
	}
}

/* The state after @insn on its fall-through or non-jump path. */
static struct disasm_state step(const struct scg_insn *insn, struct disasm_state s)
{
	switch (BPF_CLASS(insn->code)) {
	case BPF_LD:
		if (insn->code == (BPF_LD | BPF_W | BPF_ABS) && insn->k == SCG_DATA_NR)
			s.a = DISASM_A_NR;
		else if (insn->code == (BPF_LD | BPF_W | BPF_ABS) && insn->k == SCG_DATA_ARCH)
			s.a = DISASM_A_ARCH;
		else
			s.a = DISASM_A_UNKNOWN;
		break;
	case BPF_ALU:
		s.a = DISASM_A_UNKNOWN;
		break;
	case BPF_MISC:
		if (insn->code != (BPF_MISC | BPF_TAX))
			s.a = DISASM_A_UNKNOWN;
		break;
	default:
		break;
	}
	return s;
}

static void propagate(struct disasm_info *info, size_t pc)
{
	const struct scg_prog *prog = info->prog;
	const struct scg_insn *insn = &prog->insns[pc];
	struct disasm_succ succ;
	disasm_successors(prog, pc, &succ);
	for (unsigned i = 0; i < succ.n; i++) {
		if (succ.target[i] >= prog->len)
			continue;
		struct disasm_state s = step(insn, info->in[pc]);
		/* the true branch of "jeq #AUDIT_ARCH_X" on arch knows the ABI */
		if (succ.conditional && i == 0 && insn->code == (BPF_JMP | BPF_JEQ | BPF_K) &&
		    s.a == DISASM_A_ARCH) {
			s.abi_known = true;
			s.audit = insn->k;
		}
		merge_into(&info->in[succ.target[i]], &s);
	}
}

int disasm_analyze(const struct scg_prog *prog, const struct scg_arch *arch,
		   struct disasm_info *info)
{
	size_t n = prog->len ? prog->len : 1;
	*info = (struct disasm_info){ prog, arch, calloc(n, sizeof(*info->in)),
				      calloc(n, sizeof(*info->referenced)) };
	if (!info->in || !info->referenced) {
		disasm_info_release(info);
		return -ENOMEM;
	}
	if (prog->len)
		info->in[0].reached = true;
	for (size_t pc = 0; pc < prog->len; pc++) {
		if (info->in[pc].reached)
			propagate(info, pc);
		struct disasm_succ succ;
		disasm_successors(prog, pc, &succ);
		for (unsigned i = 0; i < succ.n; i++)
			if (succ.target[i] < prog->len)
				info->referenced[succ.target[i]] = true;
	}
	return 0;
}

void disasm_info_release(struct disasm_info *info)
{
	free(info->in);
	free(info->referenced);
	info->in = NULL;
	info->referenced = NULL;
}

struct asm_text_opts disasm_text_opts(const struct disasm_info *info, size_t pc)
{
	return (struct asm_text_opts){ info->arch, info->in[pc].a == DISASM_A_ARCH, info->prog->len,
				       NULL };
}

/* --- comments ------------------------------------------------------------- */

/* The ABI a syscall number @nr at @pc belongs to, as far as the program says. */
static const struct scg_arch *abi_at(const struct disasm_info *info, size_t pc, uint32_t nr)
{
	if (info->in[pc].abi_known)
		return scg_arch_from_audit(info->in[pc].audit, nr);
	return info->arch ? scg_arch_from_audit(scg_arch_audit(info->arch), nr) : NULL;
}

static void annotate_syscall(const struct disasm_info *info, size_t pc, struct strbuf *sb)
{
	const struct scg_insn *insn = &info->prog->insns[pc];
	if (insn->k == SCG_X32_SYSCALL_BIT && BPF_OP(insn->code) != BPF_JEQ) {
		strbuf_append(sb, "x32 syscall bit");
		return;
	}
	if (BPF_OP(insn->code) != BPF_JEQ)
		return;
	const struct scg_arch *abi = abi_at(info, pc, insn->k);
	const char *name = abi ? scg_syscall_name(abi, insn->k) : NULL;
	if (!name)
		return;
	if (abi != info->arch)
		strbuf_appendf(sb, "%s: ", scg_arch_name(abi));
	strbuf_append(sb, name);
}

static void annotate_arch(const struct scg_insn *insn, struct strbuf *sb)
{
	if (BPF_OP(insn->code) != BPF_JEQ)
		return;
	const struct scg_arch *abi = scg_arch_from_audit(insn->k, 0);
	if (abi)
		strbuf_append(sb, scg_arch_name(abi));
	else if (!scg_audit_arch_name(insn->k))
		strbuf_append(sb, "no known AUDIT_ARCH value");
}

static void annotate_ret(const struct disasm_info *info, size_t pc, struct strbuf *sb)
{
	uint32_t k = info->prog->insns[pc].k;
	enum scg_action action = scg_action_of(k);
	if (action == SCG_ACTION_UNKNOWN) {
		strbuf_append(sb, "unknown action: kills the process");
		return;
	}
	uint32_t data = k & SCG_RET_DATA;
	if (action == SCG_ACTION_ERRNO) {
		const struct scg_arch *abi = info->in[pc].abi_known
						     ? scg_arch_from_audit(info->in[pc].audit, 0)
						     : info->arch;
		const char *name = scg_errno_name(abi, data);
		if (name)
			strbuf_append(sb, name);
		if (data > SCG_MAX_ERRNO)
			strbuf_appendf(sb, "%sthe kernel caps it at %u", name ? ", " : "",
					   SCG_MAX_ERRNO);
		return;
	}
	if (data && !scg_action_has_data(action))
		strbuf_appendf(sb, "%s; data %#x is ignored", scg_action_name(action), data);
}

/* Loads of ip/args words when the program's own ABI orders them differently. */
static void annotate_load(const struct disasm_info *info, size_t pc, struct strbuf *sb)
{
	uint32_t k = info->prog->insns[pc].k;
	if (k >= SCG_DATA_SIZE || k % 4) {
		strbuf_append(sb, k >= SCG_SKF_AD_OFF ? "ancillary load: not for seccomp"
							  : "outside the words of struct seccomp_data");
		return;
	}
	if (!info->in[pc].abi_known)
		return;
	const struct scg_arch *abi = scg_arch_from_audit(info->in[pc].audit, 0);
	char mine[16], theirs[16];
	if (abi && abi != info->arch && asm_field_name(k, abi, theirs, sizeof(theirs)) &&
	    (!asm_field_name(k, info->arch, mine, sizeof(mine)) || strcmp(mine, theirs)))
		strbuf_appendf(sb, "%s on %s", theirs, scg_arch_name(abi));
}

void disasm_annotate(const struct disasm_info *info, size_t pc, struct strbuf *sb)
{
	const struct scg_insn *insn = &info->prog->insns[pc];
	const struct disasm_state *s = &info->in[pc];
	if (insn->code == (BPF_LD | BPF_W | BPF_ABS))
		annotate_load(info, pc, sb);
	else if (insn->code == (BPF_LD | BPF_W | BPF_LEN) || insn->code == (BPF_LDX | BPF_W | BPF_LEN))
		strbuf_append(sb, "64 in seccomp: sizeof(struct seccomp_data)");
	else if (insn->code == (BPF_RET | BPF_K))
		annotate_ret(info, pc, sb);
	else if (BPF_CLASS(insn->code) == BPF_JMP && BPF_SRC(insn->code) == BPF_K &&
		 BPF_OP(insn->code) != BPF_JA && s->a == DISASM_A_NR)
		annotate_syscall(info, pc, sb);
	else if (BPF_CLASS(insn->code) == BPF_JMP && BPF_SRC(insn->code) == BPF_K &&
		 s->a == DISASM_A_ARCH)
		annotate_arch(insn, sb);
}
