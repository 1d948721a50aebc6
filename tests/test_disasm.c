/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Unit tests for the disassembler: assembler text that reassembles to the
 * same bytes for any input (valid programs, mutated ones, random bytes,
 * every opcode), the comments it adds, and the table, Graphviz and C
 * formats.  tests/cli/asm.sh compiles the C and runs dot on the graph.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <syscage/syscage.h>

#include "support/diag_print.h"
#include "support/progen.h"

static const struct scg_arch *arch(const char *name)
{
	const struct scg_arch *a = scg_arch_lookup(name);
	assert_non_null(a);
	return a;
}

static void assemble(const struct scg_arch *target, const char *text, struct scg_prog *out)
{
	struct scg_diag *diag = scg_diag_new();
	SCG_OPTS(scg_asm_options, opts, .arch = target, .filename = "sample.s");
	int r = scg_asm(text, strlen(text), &opts, out, diag);
	if (r) {
		print_message("%s", text);
		test_print_diag(diag);
	}
	assert_int_equal(r, 0);
	scg_diag_free(diag);
}

static char *disasm(const struct scg_prog *prog, const struct scg_arch *a,
		    enum scg_disasm_format format)
{
	char *text = NULL;
	assert_int_equal(scg_disasm(prog, a, format, &text), 0);
	assert_non_null(text);
	return text;
}

/* asm -> raw -> disasm -> asm -> raw: the same bytes, and no diagnostic at all. */
static void round_trip(const struct scg_prog *prog, const struct scg_arch *a)
{
	char *text = disasm(prog, a, SCG_DISASM_ASM);
	struct scg_diag *diag = scg_diag_new();
	SCG_OPTS(scg_asm_options, opts, .arch = a, .filename = "round-trip.s");
	struct scg_prog back;
	int r = scg_asm(text, strlen(text), &opts, &back, diag);
	bool same = r == 0 && back.len == prog->len &&
		    !memcmp(back.insns, prog->insns, prog->len * sizeof(*prog->insns));
	if (!same || scg_diag_count(diag)) {
		print_message("round trip failed (%d) for %s:\n%s", r, scg_arch_name(a), text);
		test_print_diag(diag);
		for (size_t i = 0; r == 0 && i < prog->len && i < back.len; i++)
			if (memcmp(&back.insns[i], &prog->insns[i], sizeof(back.insns[i])))
				print_message("insn %zu: {%#x,%u,%u,%#x} came back {%#x,%u,%u,%#x}\n",
					      i, prog->insns[i].code, prog->insns[i].jt,
					      prog->insns[i].jf, prog->insns[i].k, back.insns[i].code,
					      back.insns[i].jt, back.insns[i].jf, back.insns[i].k);
		fail();
	}
	if (r == 0)
		scg_prog_release(&back);
	scg_diag_free(diag);
	free(text);
}

static const char *const round_trip_arches[] = { "x86_64", "s390x", "mips", "x32", "aarch64" };

#define N_ARCHES (sizeof(round_trip_arches) / sizeof(round_trip_arches[0]))

static void test_round_trip_valid(void **state)
{
	(void)state;
	struct progen_rng rng;
	progen_seed(&rng, 1);
	for (int i = 0; i < 1500; i++) {
		struct progen_opts opts = { .max_len = i % 50 == 0 ? SCG_BPF_MAXINSNS : 64,
					    .allow_ret_a = true,
					    .allow_div_x = true };
		struct scg_prog prog;
		assert_int_equal(progen_valid(&rng, &opts, &prog), 0);
		round_trip(&prog, arch(round_trip_arches[i % N_ARCHES]));
		scg_prog_release(&prog);
	}
}

static void test_round_trip_mutated(void **state)
{
	(void)state;
	struct progen_rng rng;
	progen_seed(&rng, 2);
	for (int i = 0; i < 1500; i++) {
		struct progen_opts opts = { .max_len = 64, .allow_ret_a = true };
		struct scg_prog prog;
		assert_int_equal(progen_valid(&rng, &opts, &prog), 0);
		for (uint32_t m = 1 + progen_below(&rng, 3); m > 0; m--)
			assert_int_equal(progen_mutate(&rng, &prog), 0);
		round_trip(&prog, arch(round_trip_arches[i % N_ARCHES]));
		scg_prog_release(&prog);
	}
}

static void test_round_trip_garbage(void **state)
{
	(void)state;
	struct progen_rng rng;
	progen_seed(&rng, 3);
	for (int i = 0; i < 2000; i++) {
		size_t len = i % 100 == 0 ? 1 + progen_below(&rng, SCG_BPF_MAXINSNS)
					  : 1 + progen_below(&rng, 64);
		struct scg_prog prog;
		assert_int_equal(progen_garbage(&rng, len, &prog), 0);
		/* garbage with plausible codes too, so mnemonic forms with odd fields show up */
		for (size_t j = 0; j < len && i % 2; j++)
			prog.insns[j].code &= 0xff;
		round_trip(&prog, arch(round_trip_arches[i % N_ARCHES]));
		scg_prog_release(&prog);
	}
}

/* --- random assembler text ------------------------------------------------ */

static const char *const operand_lines[] = {
	"ld [nr]",	    "ld [arch]",	 "ld [arg0]",	      "ld [arg3.hi]",
	"ld [ip.lo]",	    "ld #len",		 "ld M[%u]",	      "ld [x + %u]",
	"ldh [%u]",	    "ldb [x + %u]",	 "ldi %u",	      "ldx #%u",
	"ldxi %u",	    "ldx M[%u]",	 "ldx 4*([%u]&0xf)", "ldxb 4*([%u]&0xf)",
	"st M[%u]",	    "stx M[%u]",	 "add #%u",	      "sub x",
	"mul #%u",	    "div %%x",		 "mod #%u",	      "and #0x%x",
	"or x",		    "xor #%u",		 "lsh #%u",	      "rsh x",
	"neg",		    "tax",		 "txa",		      "ld #-%u",
	"ld #openat",	    "ld #EPERM",	 "ld #AUDIT_ARCH_X86_64", "ret ALLOW",
	"ret KILL",	    "ret ERRNO(%u)",	 "ret ERRNO(EACCES)", "ret TRAP(%u)",
	"ret TRACE(%u)",    "ret LOG",		 "ret USER_NOTIF",    "ret KILL_PROCESS",
	"ret #0x%x",	    "ret a",		 "ret %%x",	      ".insn 0x%x, 3, 4, 5",
	"ld #proto",	    "ldb #cpu",
};

static const char *const jump_mnemonics[] = { "jeq", "jne", "jneq", "jgt", "jge", "jlt",
					      "jle", "jset" };

/* A jump target: a label ahead (sometimes far ahead) or a raw offset. */
static void append_target(struct progen_rng *rng, char **p, size_t i, size_t n)
{
	if (progen_below(rng, 8) == 0 || i + 1 >= n)
		*p += sprintf(*p, "+%u", progen_below(rng, 256));
	else
		*p += sprintf(*p, "t%u", (unsigned)(i + 1 + progen_below(rng, (uint32_t)(n - i - 1))));
}

static void append_jump(struct progen_rng *rng, char **p, size_t i, size_t n)
{
	if (progen_below(rng, 6) == 0) {
		*p += sprintf(*p, "%s ", progen_below(rng, 2) ? "ja" : "jmp");
		append_target(rng, p, i, n);
		return;
	}
	const char *mn = jump_mnemonics[progen_below(rng, 8)];
	*p += sprintf(*p, "%s ", mn);
	if (progen_below(rng, 3) == 0)
		*p += sprintf(*p, "x, ");
	else if (progen_below(rng, 4) == 0)
		*p += sprintf(*p, "#read, ");
	else
		*p += sprintf(*p, "#%u, ", progen_interesting32(rng));
	append_target(rng, p, i, n);
	if (progen_below(rng, 2)) {
		*p += sprintf(*p, ", ");
		append_target(rng, p, i, n);
	}
}

/* Random instructions of every form, labelled t0, t1, ...; the last is a ret. */
static char *random_asm(struct progen_rng *rng, size_t n)
{
	char *text = malloc(n * 64 + 1), *p = text;
	assert_non_null(text);
	for (size_t i = 0; i < n; i++) {
		p += sprintf(p, "t%zu:\t", i);
		if (i + 1 < n && progen_below(rng, 3) == 0) {
			append_jump(rng, &p, i, n);
		} else {
			const char *fmt = operand_lines[progen_below(
				rng, sizeof(operand_lines) / sizeof(operand_lines[0]))];
			/* the formats are operand_lines' literals, each with one number at most */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
			p += sprintf(p, fmt, progen_below(rng, 0x10000));
#pragma GCC diagnostic pop
		}
		p += sprintf(p, progen_below(rng, 4) ? "\n" : " ; note\n");
	}
	*p = '\0';
	return text;
}

/* assembler text -> raw -> text -> raw, over every form, with far jumps now and then */
static void test_round_trip_from_text(void **state)
{
	(void)state;
	struct progen_rng rng;
	progen_seed(&rng, 4);
	for (int i = 0; i < 1500; i++) {
		size_t n = 1 + progen_below(&rng, i % 20 == 0 ? 700 : 40);
		char *text = random_asm(&rng, n);
		const struct scg_arch *a = arch(round_trip_arches[i % N_ARCHES]);
		SCG_OPTS(scg_asm_options, opts, .arch = a, .filename = "random.s");
		struct scg_prog prog;
		struct scg_diag *diag = scg_diag_new();
		int r = scg_asm(text, strlen(text), &opts, &prog, diag);
		if (r != 0) {
			print_message("%s", text);
			test_print_diag(diag);
		}
		assert_int_equal(r, 0);
		assert_true(prog.len >= n);
		round_trip(&prog, a);
		scg_prog_release(&prog);
		scg_diag_free(diag);
		free(text);
	}
}

/* Every 16-bit code, with fields zero, and with fields that no form leaves zero. */
static void test_round_trip_every_code(void **state)
{
	(void)state;
	struct scg_insn insns[3];
	struct scg_prog prog = { insns, 3 };
	for (uint32_t code = 0; code <= 0xffff; code++) {
		insns[0] = (struct scg_insn){ (uint16_t)code, 0, 0, 0 };
		insns[1] = (struct scg_insn){ (uint16_t)code, 1, 0, 7 };
		insns[2] = (struct scg_insn){ (uint16_t)code, 0, 200, 0xffffffff };
		round_trip(&prog, arch(code & 1 ? "x86_64" : "s390x"));
	}
}

/* Values whose symbolic spelling would not give the same bits back. */
static void test_round_trip_edges(void **state)
{
	(void)state;
	const struct scg_insn insns[] = {
		{ 0x06, 0, 0, 0x7fff0001 }, /* ALLOW with data */
		{ 0x06, 0, 0, 5 },          /* KILL_THREAD with data */
		{ 0x06, 0, 0, 0x7fc00001 }, /* USER_NOTIF with data */
		{ 0x06, 0, 0, 0x12345678 }, /* unknown action */
		{ 0x06, 0, 0, 0x5ffff },    /* ERRNO(65535) */
		{ 0x1d, 0, 0, 9 },          /* jeq x with k set */
		{ 0x84, 0, 0, 1 },          /* neg with k set */
		{ 0x05, 0, 0, 0xffffffff }, /* ja far past the end */
		{ 0x15, 255, 255, 0 },      /* both branches past the end */
		{ 0x45, 0, 0, 0x40000000 }, /* jset, both to the next */
		{ 0x20, 0, 0, 0xfffff000 }, /* ancillary */
		{ 0x20, 0, 0, 62 },         /* unaligned */
		{ 0x35, 0, 1, 1 },          /* jlt */
		{ 0x80, 0, 0, 0 },          /* ld #len */
		{ 0x00, 0, 0, 0xc000003e }, /* ld #k */
		{ 0x16, 0, 0, 0 },
	};
	struct scg_prog prog = { (struct scg_insn *)insns, sizeof(insns) / sizeof(insns[0]) };
	for (size_t i = 0; i < scg_arch_count(); i++)
		round_trip(&prog, scg_arch_at(i));
}

/* --- the listing ------------------------------------------------------------ */

static const char sample[] = "\tld [arch]\n"
			     "\tjeq #AUDIT_ARCH_X86_64, x86_64, other\n"
			     "other:\tjeq #AUDIT_ARCH_I386, i386, kill\n"
			     "i386:\tld [nr]\n"
			     "\tjeq #5, deny\n"
			     "\tret #0x7fff0001\n"
			     "x86_64:\tld [nr]\n"
			     "\tjge #0x40000000, kill\n"
			     "\tjeq #openat, deny\n"
			     "\tjeq #open, deny\n"
			     "\tld [arg0.hi]\n"
			     "\tret ALLOW\n"
			     "deny:\tret ERRNO(EACCES)\n"
			     "kill:\tret KILL_PROCESS\n";

static void test_asm_listing(void **state)
{
	(void)state;
	struct scg_prog prog;
	assemble(arch("x86_64"), sample, &prog);
	char *text = disasm(&prog, arch("x86_64"), SCG_DISASM_ASM);
	const char *want = "; 14 instructions, names for x86_64\n"
			   "\tld [arch]\n"
			   "\tjeq #AUDIT_ARCH_X86_64, L6      ; x86_64\n"
			   "\tjne #AUDIT_ARCH_I386, L13       ; x86\n"
			   "\tld [nr]\n"
			   "\tjeq #5, L12                     ; x86: open\n"
			   "\tret #0x7fff0001                 ; ALLOW; data 0x1 is ignored\n"
			   "L6:\tld [nr]\n"
			   "\tjge #0x40000000, L13            ; x32 syscall bit\n"
			   "\tjeq #257, L12                   ; openat\n"
			   "\tjeq #2, L12                     ; open\n"
			   "\tld [arg0.hi]\n"
			   "\tret ALLOW\n"
			   "L12:\tret ERRNO(13)                   ; EACCES\n"
			   "L13:\tret KILL_PROCESS\n";
	if (strcmp(text, want))
		print_message("got:\n%s", text);
	assert_string_equal(text, want);
	free(text);
	round_trip(&prog, arch("x86_64"));
	scg_prog_release(&prog);
}

static void test_asm_annotations(void **state)
{
	(void)state;
	struct scg_prog prog;
	/* with no arch test, names come from the ABI given to the disassembler */
	assemble(arch("x86"), "ld [nr]\njeq #open, +0\nret ERRNO(EDEADLK)\n", &prog);
	char *text = disasm(&prog, arch("x86"), SCG_DISASM_ASM);
	assert_non_null(strstr(text, "jeq #5, L2"));
	assert_non_null(strstr(text, "; open\n"));
	assert_non_null(strstr(text, "ret ERRNO(35)"));
	assert_non_null(strstr(text, "; EDEADLK"));
	free(text);
	scg_prog_release(&prog);
	/* x32 numbers name x32 syscalls; MIPS errno numbers are MIPS's own */
	assemble(arch("x86_64"), "ld [nr]\njeq #0x40000000, +0\nret ERRNO(45)\n", &prog);
	text = disasm(&prog, arch("x86_64"), SCG_DISASM_ASM);
	assert_non_null(strstr(text, "; x32: read"));
	free(text);
	text = disasm(&prog, arch("mips"), SCG_DISASM_ASM);
	assert_non_null(strstr(text, "; EDEADLK"));
	free(text);
	scg_prog_release(&prog);
	/* a merge of paths that disagree about A forgets what A holds */
	assemble(arch("x86_64"), "ld [nr]\njeq #1, a\nld [arch]\na: jeq #2, +0\nret #0\n", &prog);
	text = disasm(&prog, arch("x86_64"), SCG_DISASM_ASM);
	assert_null(strstr(text, "; open"));
	assert_non_null(strstr(text, "; write"));
	free(text);
	scg_prog_release(&prog);
}

/* Field names follow the byte order of the ABI given; numbers when they would not map back. */
static void test_asm_fields_by_arch(void **state)
{
	(void)state;
	struct scg_insn insns[] = { { 0x20, 0, 0, 16 }, { 0x20, 0, 0, 20 }, { 0x20, 0, 0, 12 },
				    { 0x16, 0, 0, 0 } };
	struct scg_prog prog = { insns, 4 };
	char *text = disasm(&prog, arch("s390x"), SCG_DISASM_ASM);
	assert_non_null(strstr(text, "ld [arg0.hi]\n\tld [arg0.lo]\n\tld [ip.lo]\n"));
	free(text);
	text = disasm(&prog, arch("x86_64"), SCG_DISASM_ASM);
	assert_non_null(strstr(text, "ld [arg0.lo]\n\tld [arg0.hi]\n\tld [ip.hi]\n"));
	free(text);
	/* an s390x program read with x86_64 names: numbers, and the s390x meaning in a comment */
	struct scg_prog p2;
	assemble(arch("s390x"), "ld [arch]\njeq #AUDIT_ARCH_S390X, +0, +1\nld [arg0.hi]\nret a\n",
		 &p2);
	text = disasm(&p2, arch("x86_64"), SCG_DISASM_ASM);
	assert_non_null(strstr(text, "ld [arg0.lo]"));
	assert_non_null(strstr(text, "; arg0.hi on s390x"));
	free(text);
	round_trip(&p2, arch("x86_64"));
	scg_prog_release(&p2);
}

static void test_asm_raw_fallbacks(void **state)
{
	(void)state;
	struct scg_insn insns[] = {
		{ 0x1d, 0, 0, 9 }, { 0x06, 0, 0, 5 }, { 0x05, 0, 0, 1000 }, { 0x15, 9, 0, 1 },
		{ 0x8006, 1, 2, 3 },
	};
	struct scg_prog prog = { insns, 5 };
	char *text = disasm(&prog, arch("x86_64"), SCG_DISASM_ASM);
	assert_non_null(strstr(text, "\t.insn 0x1d, 0, 0, 0x9\n"));
	assert_non_null(strstr(text, "\tret #5"));
	assert_non_null(strstr(text, "\tja +1000\n"));
	assert_non_null(strstr(text, "\tjeq #1, +9\n"));
	assert_non_null(strstr(text, "\t.insn 0x8006, 1, 2, 0x3\n"));
	free(text);
	round_trip(&prog, arch("x86_64"));
}

/* --- the other formats ------------------------------------------------------ */

static void test_table(void **state)
{
	(void)state;
	struct scg_prog prog;
	assemble(arch("x86_64"), sample, &prog);
	char *text = disasm(&prog, arch("x86_64"), SCG_DISASM_TABLE);
	assert_non_null(strstr(text, " idx    code   jt   jf           k  pseudo-C\n"));
	assert_non_null(strstr(text, "   0  0x0020    0    0  0x00000004  A = arch\n"));
	assert_non_null(strstr(text, "   1  0x0015    4    0  0xc000003e  if (A == 0xc000003e) goto 6; else goto 2"));
	assert_non_null(strstr(text, "if (A == 257) goto 12; else goto 9"));
	assert_non_null(strstr(text, "// openat\n"));
	assert_non_null(strstr(text, "A = arg0.hi\n"));
	assert_non_null(strstr(text, "return ERRNO(13)"));
	assert_non_null(strstr(text, "return KILL_PROCESS\n"));
	free(text);
	scg_prog_release(&prog);

	struct scg_insn odd[] = { { 0x8006, 0, 0, 0 }, { 0x05, 0, 0, 7 }, { 0x0c, 0, 0, 0 } };
	struct scg_prog p2 = { odd, 3 };
	text = disasm(&p2, arch("x86_64"), SCG_DISASM_TABLE);
	assert_non_null(strstr(text, "invalid opcode 0x8006"));
	assert_non_null(strstr(text, "goto 9 (past the end)"));
	assert_non_null(strstr(text, "A += X"));
	free(text);
}

/* Counts @needle in @hay. */
static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;
	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

static void test_dot(void **state)
{
	(void)state;
	struct scg_prog prog;
	assemble(arch("x86_64"), sample, &prog);
	char *text = disasm(&prog, arch("x86_64"), SCG_DISASM_DOT);
	assert_true(!strncmp(text, "digraph filter {\n", 17));
	assert_int_equal(count(text, "{"), count(text, "}"));
	/* blocks start at 0, 2, 3, 5, 6, 8, 9, 10, 12 and 13 */
	assert_int_equal(count(text, "\\l\"];\n"), 10);
	assert_non_null(strstr(text, "\tb0 -> b6 [label=\"true\", color=darkgreen];\n"));
	assert_non_null(strstr(text, "\tb0 -> b2 [label=\"false\", color=red];\n"));
	assert_non_null(strstr(text, "b10 [label=\"10: ld [arg0.hi]\\l11: ret ALLOW\\l\"]"));
	assert_null(strstr(text, "past_end"));
	free(text);
	scg_prog_release(&prog);

	/* quotes and backslashes never appear unescaped; far jumps go to one node */
	struct scg_insn odd[] = { { 0x15, 200, 0, 1 }, { 0x04, 0, 0, 1 } };
	struct scg_prog p2 = { odd, 2 };
	text = disasm(&p2, arch("x86_64"), SCG_DISASM_DOT);
	assert_int_equal(count(text, "past_end [label=\"past the end\""), 1);
	assert_int_equal(count(text, "-> past_end"), 2);
	free(text);
}

static void test_c(void **state)
{
	(void)state;
	struct scg_prog prog;
	assemble(arch("x86_64"), sample, &prog);
	char *text = disasm(&prog, arch("x86_64"), SCG_DISASM_C);
	assert_non_null(strstr(text, "#include <linux/filter.h>\n#include <linux/seccomp.h>\n"));
	assert_non_null(strstr(text, "static struct sock_filter filter[] = {\n"));
	assert_non_null(strstr(text, "/*    0 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 4), /* ld [arch] */\n"));
	assert_non_null(strstr(text, "BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0xc000003e, 4, 0),"));
	assert_non_null(strstr(text, "BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | 13), /* ret ERRNO(13)  ; EACCES */"));
	assert_non_null(strstr(text, "BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),"));
	assert_non_null(strstr(text, "BPF_STMT(BPF_RET | BPF_K, 0x80000000), /* ret KILL_PROCESS */"));
	assert_non_null(strstr(text, "static struct sock_fprog prog = {\n"));
	free(text);
	scg_prog_release(&prog);

	struct scg_insn odd[] = { { 0x8006, 1, 2, 3 }, { 0xb1, 0, 0, 14 }, { 0x84, 0, 0, 0 },
				  { 0x05, 0, 0, 0 },   { 0x87, 0, 0, 0 },  { 0x16, 0, 0, 0 } };
	struct scg_prog p2 = { odd, 6 };
	text = disasm(&p2, arch("x86_64"), SCG_DISASM_C);
	assert_non_null(strstr(text, "BPF_JUMP(0x8006, 3, 1, 2)"));
	assert_non_null(strstr(text, "BPF_STMT(BPF_LDX | BPF_B | BPF_MSH, 0xe), /* ldx 4*([14]&0xf) */"));
	assert_non_null(strstr(text, "BPF_STMT(BPF_ALU | BPF_NEG, 0)"));
	assert_non_null(strstr(text, "BPF_STMT(BPF_JMP | BPF_JA, 0)"));
	assert_non_null(strstr(text, "BPF_STMT(BPF_MISC | BPF_TXA, 0)"));
	assert_non_null(strstr(text, "BPF_STMT(BPF_RET | BPF_A, 0)"));
	free(text);
}

static void test_bad_arguments(void **state)
{
	(void)state;
	struct scg_insn insn = { 0x06, 0, 0, 0 };
	struct scg_prog prog = { &insn, 1 };
	char *text = (char *)1;
	assert_int_equal(scg_disasm(NULL, NULL, SCG_DISASM_ASM, &text), -EINVAL);
	assert_int_equal(scg_disasm(&prog, NULL, (enum scg_disasm_format)99, &text), -EINVAL);
	assert_null(text);
	assert_int_equal(scg_disasm(&prog, NULL, SCG_DISASM_ASM, NULL), -EINVAL);
	struct scg_prog empty = { NULL, 0 };
	assert_int_equal(scg_disasm(&empty, NULL, SCG_DISASM_C, &text), -EINVAL);
	/* NULL arch: the native ABI */
	assert_int_equal(scg_disasm(&prog, NULL, SCG_DISASM_ASM, &text), 0);
	assert_non_null(strstr(text, "ret KILL_THREAD"));
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip_valid),
		cmocka_unit_test(test_round_trip_mutated),
		cmocka_unit_test(test_round_trip_garbage),
		cmocka_unit_test(test_round_trip_from_text),
		cmocka_unit_test(test_round_trip_every_code),
		cmocka_unit_test(test_round_trip_edges),
		cmocka_unit_test(test_asm_listing),
		cmocka_unit_test(test_asm_annotations),
		cmocka_unit_test(test_asm_fields_by_arch),
		cmocka_unit_test(test_asm_raw_fallbacks),
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_dot),
		cmocka_unit_test(test_c),
		cmocka_unit_test(test_bad_arguments),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
